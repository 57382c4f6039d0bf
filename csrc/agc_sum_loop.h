/* The typed half of agc_sum.c: cascade_sum's 2-d loop for one element type, included
 * by agc_sum.c once per (T, SFX, IGNORE_NAN). See Note [Sum order] in agc_sum.h.
 * "Lanes" model Vectorized<T>: a vector accumulator is V scalars added lane by lane,
 * so a multi_row_sum over R rows of V-lane vectors is W = R*V independent scalar
 * accumulators sharing the cascade's level structure. */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define F(name) CAT(name, SFX)

/* one element as the sum loads it: nansum's loads read a NaN as 0 */
static inline T F(load_)(const void *p) {
    T v = *(const T *)p;
#if IGNORE_NAN
    if (v != v) v = 0;
#endif
    return v;
}
#define LD(p) F(load_)(p)

/* acc[k] += the W elements of one step: at base + off[k], or contiguous from base. */
static inline void F(add_step_)(T *restrict acc, const char *base, const int64_t *off,
                                int W, int contig) {
    if (contig) {
        const T *p = (const T *)base;
        /* constant trip counts for the common widths, so the compiler vectorizes */
        switch (W) {
        case 4: for (int k = 0; k < 4; ++k) acc[k] += IGNORE_NAN ? LD(p + k) : p[k]; return;
        case 16: for (int k = 0; k < 16; ++k) acc[k] += IGNORE_NAN ? LD(p + k) : p[k]; return;
        case 32: for (int k = 0; k < 32; ++k) acc[k] += IGNORE_NAN ? LD(p + k) : p[k]; return;
        case 64: for (int k = 0; k < 64; ++k) acc[k] += IGNORE_NAN ? LD(p + k) : p[k]; return;
        default: for (int k = 0; k < W; ++k) acc[k] += LD(p + k); return;
        }
    }
    for (int k = 0; k < W; ++k) acc[k] += LD(base + off[k]);
}

/* multi_row_sum: W accumulators over `size` steps of row_stride bytes, in a cascade
 * of 4 levels whose level size is 2^max(4, CeilLog2(size) / 4). */
static void F(multi_row_sum_)(T *res, const char *in, int64_t row_stride, const int64_t *off,
                              int W, int contig, int64_t size) {
    T acc[4][AGC_SUM_MAX_W];
    for (int j = 0; j < 4; ++j)
        for (int k = 0; k < W; ++k) acc[j][k] = 0;
    int64_t level_power = ceil_log2(size) / 4;
    if (level_power < 4) level_power = 4;
    const int64_t level_step = (int64_t)1 << level_power;
    const int64_t level_mask = level_step - 1;
    int64_t i = 0;
    while (i + level_step <= size) {
        for (int64_t j = 0; j < level_step; ++j, ++i)
            F(add_step_)(acc[0], in + i * row_stride, off, W, contig);
        for (int j = 1; j < 4; ++j) {
            for (int k = 0; k < W; ++k) {
                acc[j][k] += acc[j - 1][k];
                acc[j - 1][k] = 0;
            }
            if ((i & (level_mask << (j * level_power))) != 0) break;
        }
    }
    for (; i < size; ++i)
        F(add_step_)(acc[0], in + i * row_stride, off, W, contig);
    for (int j = 1; j < 4; ++j)
        for (int k = 0; k < W; ++k) acc[0][k] += acc[j][k];
    for (int k = 0; k < W; ++k) res[k] = acc[0][k];
}

/* row_sum of V-lane elements `stride` bytes apart: the row as (-1, 4), its 4 columns
 * summed by multi_row_sum, the tail added to the first, then the 4 partials in order. */
static void F(row_sum_)(T *res, const char *in, int64_t stride, int64_t size, int V) {
    if (size < 4) {
        /* no full (-1, 4) row: the cascade sums nothing and the three other partials stay
         * +0, so the value is the tail added to +0 in order (the sum of a short row, such
         * as one of 10 logits, without setting up the cascade) */
        for (int v = 0; v < V; ++v) {
            T acc = 0;
            for (int64_t i = 0; i < size; ++i) acc += LD(in + i * stride + v * (int64_t)sizeof(T));
            res[v] = acc;
        }
        return;
    }
    int64_t off[AGC_SUM_MAX_W];
    T part[AGC_SUM_MAX_W];
    const int W = 4 * V;
    const int64_t el = (int64_t)sizeof(T);
    for (int k = 0; k < 4; ++k)
        for (int v = 0; v < V; ++v) off[k * V + v] = k * stride + v * el;
    const int64_t size_ilp = size / 4;
    F(multi_row_sum_)(part, in, stride * 4, off, W, stride == V * el, size_ilp);
    for (int64_t i = size_ilp * 4; i < size; ++i)
        for (int v = 0; v < V; ++v) part[v] += LD(in + i * stride + v * el);
    for (int k = 1; k < 4; ++k)
        for (int v = 0; v < V; ++v) part[v] += part[k * V + v];
    for (int v = 0; v < V; ++v) res[v] = part[v];
}

/* cascade_sum's loop over a 2-d slice: strides s = {out0, in0, out1, in1} in bytes,
 * out accumulated into (+=). L: lanes of Vectorized<T>. */
static void F(sum_loop_)(char *out, const char *in, const int64_t *s, int64_t size0,
                         int64_t size1, int L) {
    const int64_t el = (int64_t)sizeof(T);
    int64_t in0 = s[1], in1 = s[3], out0 = s[0], out1 = s[2];
    if (out0 != 0 && out1 == 0) {       /* move the reduction to the first dim */
        int64_t t;
        t = in0; in0 = in1; in1 = t;
        t = out0; out0 = out1; out1 = t;
        t = size0; size0 = size1; size1 = t;
    }
    if (out0 != 0 && out1 != 0) {       /* not a reduction: out = out + in */
        for (int64_t j = 0; j < size1; ++j) {
            char *o = out + j * s[2];
            const char *x = in + j * s[3];
            for (int64_t i = 0; i < size0; ++i) {
                T a = *(T *)(o + i * s[0]);
#if IGNORE_NAN
                if (a != a) a = 0;
#endif
                *(T *)(o + i * s[0]) = a + LD(x + i * s[1]);
            }
        }
        return;
    }
    const int64_t os = out1;
    T v[AGC_SUM_MAX_W];
    if (in0 == el && size0 >= L) {      /* vectorized inner sum */
        const int64_t vec_size = size0 / L;
        for (int64_t j = 0; j < size1; ++j) {
            const char *row = in + j * in1;
            F(row_sum_)(v, row, L * el, vec_size, L);
            T acc = 0;
            for (int64_t k = vec_size * L; k < size0; ++k) acc += LD(row + k * el);
            for (int k = 0; k < L; ++k) acc += v[k];
            *(T *)(out + j * os) += acc;
        }
    } else if (in1 == el && size1 >= L) {   /* vectorized outer sum */
        int64_t off[AGC_SUM_MAX_W];
        for (int k = 0; k < 4 * L; ++k) off[k] = k * el;
        int64_t j = 0;
        for (; j + 4 * L <= size1; j += 4 * L) {
            F(multi_row_sum_)(v, in + j * el, in0, off, 4 * L, 1, size0);
            for (int k = 0; k < 4 * L; ++k) *(T *)(out + (j + k) * os) += v[k];
        }
        for (; j + L <= size1; j += L) {
            F(row_sum_)(v, in + j * el, in0, size0, L);
            for (int k = 0; k < L; ++k) *(T *)(out + (j + k) * os) += v[k];
        }
        for (; j < size1; ++j) {
            F(row_sum_)(v, in + j * el, in0, size0, 1);
            *(T *)(out + j * os) += v[0];
        }
    } else if (in0 < in1) {                 /* scalar inner sum */
        for (int64_t j = 0; j < size1; ++j) {
            F(row_sum_)(v, in + j * in1, in0, size0, 1);
            *(T *)(out + j * os) += v[0];
        }
    } else {                                /* scalar outer sum */
        int64_t off[4] = {0, in1, 2 * in1, 3 * in1};
        int64_t j = 0;
        for (; j + 3 < size1; j += 4) {
            F(multi_row_sum_)(v, in + j * in1, in0, off, 4, in1 == el, size0);
            for (int k = 0; k < 4; ++k) *(T *)(out + (j + k) * os) += v[k];
        }
        for (; j < size1; ++j) {
            F(row_sum_)(v, in + j * in1, in0, size0, 1);
            *(T *)(out + j * os) += v[0];
        }
    }
}

#undef LD
#undef F
