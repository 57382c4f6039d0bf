/* See agc_nn.h. Each loop is written once as a macro over the element type. */
#include "agc_nn.h"
#include "agc_kernels.h"   /* AGC_CLONES */
#include "agc_parallel.h"

#include <math.h>
#include <string.h>

/* The pool's entry point (agc_parallel.h), set by the nn module at import; NULL: one
 * thread. */
static agc_parallel_for_fn par_for;

void agc_nn_set_parallel_for(agc_parallel_for_fn fn)
{
    par_for = fn;
}

/* fn over [0, items), split across threads when the items' work (items * work elements)
 * is worth it. Note [Bitwise-identical parallel loops]: each item below owns its outputs. */
static void for_items(ptrdiff_t items, ptrdiff_t work, agc_range_fn fn, void *ctx)
{
    if (par_for && items > 1 && items * work >= 2 * AGC_PARALLEL_GRAIN)
        par_for(items, agc_grain_for(work), fn, ctx);
    else if (items > 0)
        fn(ctx, 0, items);
}

/* The arguments of one loop, for its range functions. */
typedef struct {
    const void *src;
    void *dst;
    const void *aux;           /* bias, indices, saved output ... */
    void *dst2;                /* a second output (indices, bias gradient) */
    ptrdiff_t N, C, L, HW;
    double a, b;
    int flag;
    const agc_geom2d *g;
    volatile int bad;          /* a range found a bad index */
} loop_args;

/* The columns ow in [*lo, *hi) of a stride-1 kernel row shifted by dw whose input column
 * ow + dw is inside [0, W), out of OW (an empty span has lo == hi, both within [0, OW]):
 * im2col copies them and zeroes the rest, col2im adds them back. */
static inline void stride1_span(ptrdiff_t dw, ptrdiff_t W, ptrdiff_t OW, ptrdiff_t *lo,
                                ptrdiff_t *hi)
{
    ptrdiff_t l = dw < 0 ? -dw : 0, h = W - dw;
    if (h > OW) h = OW;
    if (h < l) h = l;
    if (l > OW) l = h = OW;
    *lo = l;
    *hi = h;
}

/* Item (k, n) of im2col is the OH*OW columns of row k = (c*KH + i)*KW + j for image n. */
#define IM2COL(SUFFIX, T)                                                                        \
static void im2col_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)                     \
{                                                                                                \
    const loop_args *a = ctx;                                                                    \
    const agc_geom2d *g = a->g;                                                                  \
    const T *x = a->src;                                                                         \
    const ptrdiff_t N = a->N, C = a->C, H = g->H, W = g->W, OH = g->OH, OW = g->OW;              \
    T *cols = (T *)a->dst + begin * OH * OW;                                                     \
    for (ptrdiff_t item = begin; item < end; item++) {                                           \
        const ptrdiff_t k = item / N, n = item % N;                                              \
        const ptrdiff_t c = k / (g->KH * g->KW), i = k / g->KW % g->KH, j = k % g->KW;           \
        const ptrdiff_t dh = i * g->DH - g->PH, dw = j * g->DW - g->PW;                          \
        const T *plane = x + (n * C + c) * H * W;                                                \
        for (ptrdiff_t oh = 0; oh < OH; oh++, cols += OW) {                                      \
            const ptrdiff_t ih = oh * g->SH + dh;                                                \
            if (ih < 0 || ih >= H) {                                                             \
                memset(cols, 0, (size_t)OW * sizeof(T));                                         \
                continue;                                                                        \
            }                                                                                    \
            const T *row = plane + ih * W;                                                       \
            if (g->SW == 1) {             /* the in-range part is one memcpy */                  \
                ptrdiff_t lo, hi;                                                                \
                stride1_span(dw, W, OW, &lo, &hi);                                               \
                for (ptrdiff_t ow = 0; ow < lo; ow++) cols[ow] = 0;                              \
                if (hi > lo) memcpy(cols + lo, row + lo + dw, (size_t)(hi - lo) * sizeof(T));    \
                for (ptrdiff_t ow = hi; ow < OW; ow++) cols[ow] = 0;                             \
            } else {                                                                             \
                for (ptrdiff_t ow = 0; ow < OW; ow++) {                                          \
                    const ptrdiff_t iw = ow * g->SW + dw;                                        \
                    cols[ow] = (iw >= 0 && iw < W) ? row[iw] : (T)0;                             \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
void agc_im2col_kmajor_##SUFFIX(const T *x, T *cols, ptrdiff_t N, ptrdiff_t C, const agc_geom2d *g) \
{                                                                                                \
    loop_args a = {.src = x, .dst = cols, .N = N, .C = C, .g = g};                               \
    for_items(C * g->KH * g->KW * N, g->OH * g->OW, im2col_range_##SUFFIX, &a);                  \
}

/* Item p = n*C + c of col2im is the plane x[n, c]: zeroed, then the (i, j) rows of cols
 * added in that order (each element's sum in the order of the one-thread loop). */
#define COL2IM(SUFFIX, T)                                                                        \
static void col2im_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)                     \
{                                                                                                \
    const loop_args *a = ctx;                                                                    \
    const agc_geom2d *g = a->g;                                                                  \
    const T *cols = a->src;                                                                      \
    const ptrdiff_t N = a->N, C = a->C, H = g->H, W = g->W, OH = g->OH, OW = g->OW;              \
    for (ptrdiff_t p = begin; p < end; p++) {                                                    \
        const ptrdiff_t n = p / C, c = p % C;                                                    \
        T *plane = (T *)a->dst + p * H * W;                                                      \
        memset(plane, 0, (size_t)(H * W) * sizeof(T));                                           \
        for (ptrdiff_t i = 0; i < g->KH; i++)                                                    \
            for (ptrdiff_t j = 0; j < g->KW; j++) {                                              \
                const ptrdiff_t dh = i * g->DH - g->PH, dw = j * g->DW - g->PW;                  \
                const T *src = cols + (((c * g->KH + i) * g->KW + j) * N + n) * OH * OW;         \
                for (ptrdiff_t oh = 0; oh < OH; oh++, src += OW) {                               \
                    const ptrdiff_t ih = oh * g->SH + dh;                                        \
                    if (ih < 0 || ih >= H)                                                       \
                        continue;                                                                \
                    T *row = plane + ih * W;                                                     \
                    if (g->SW == 1) {             /* the in-range part, without checks */        \
                        ptrdiff_t lo, hi;                                                        \
                        stride1_span(dw, W, OW, &lo, &hi);                                       \
                        for (ptrdiff_t ow = lo; ow < hi; ow++)                                   \
                            row[ow + dw] += src[ow];                                             \
                    } else {                                                                     \
                        for (ptrdiff_t ow = 0; ow < OW; ow++) {                                  \
                            const ptrdiff_t iw = ow * g->SW + dw;                                \
                            if (iw >= 0 && iw < W)                                               \
                                row[iw] += src[ow];                                              \
                        }                                                                        \
                    }                                                                            \
                }                                                                                \
            }                                                                                    \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
void agc_col2im_kmajor_##SUFFIX(const T *cols, T *x, ptrdiff_t N, ptrdiff_t C, const agc_geom2d *g) \
{                                                                                                \
    loop_args a = {.src = cols, .dst = x, .N = N, .C = C, .g = g};                               \
    for_items(N * C, g->KH * g->KW * g->OH * g->OW + g->H * g->W, col2im_range_##SUFFIX, &a);    \
}

/* Item n*OC + oc of conv_out is out[n, oc, :]. */
#define CONV_OUT(SUFFIX, T)                                                                      \
static void conv_out_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)                   \
{                                                                                                \
    const loop_args *a = ctx;                                                                    \
    const T *prod = a->src, *bias = a->aux;                                                      \
    const ptrdiff_t N = a->N, OC = a->C, L = a->L;                                               \
    for (ptrdiff_t item = begin; item < end; item++) {                                           \
        const ptrdiff_t n = item / OC, oc = item % OC;                                           \
        const T *src = prod + (oc * N + n) * L;                                                  \
        T *dst = (T *)a->dst + item * L;                                                         \
        if (bias) {                                                                              \
            const T b = bias[oc];                                                                \
            for (ptrdiff_t l = 0; l < L; l++) dst[l] = src[l] + b;                               \
        } else {                                                                                 \
            memcpy(dst, src, (size_t)L * sizeof(T));                                             \
        }                                                                                        \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
void agc_conv_out_##SUFFIX(const T *prod, const T *bias, T *out, ptrdiff_t N, ptrdiff_t OC, ptrdiff_t L) \
{                                                                                                \
    loop_args a = {.src = prod, .aux = bias, .dst = out, .N = N, .C = OC, .L = L};               \
    for_items(N * OC, L, conv_out_range_##SUFFIX, &a);                                           \
}

/* The sum of n values as 8 interleaved partial sums (a loop the compiler vectorizes,
 * which one running double sum would keep scalar), added up in double. */
#define SUM_LANES(SUFFIX, T)                                                                     \
static double sum_lanes_##SUFFIX(const T *x, ptrdiff_t n)                                        \
{                                                                                                \
    T lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                                        \
    ptrdiff_t i = 0;                                                                             \
    for (; i + 8 <= n; i += 8)                                                                   \
        for (int k = 0; k < 8; k++)                                                              \
            lane[k] += x[i + k];                                                                 \
    double s = 0;                                                                                \
    for (int k = 0; k < 8; k++)                                                                  \
        s += lane[k];                                                                            \
    for (; i < n; i++)                                                                           \
        s += x[i];                                                                               \
    return s;                                                                                    \
}

/* Item oc of conv_grad_t is gt[oc, :] and gbias[oc]. */
#define CONV_GRAD_T(SUFFIX, T)                                                                   \
static void conv_grad_t_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)                \
{                                                                                                \
    const loop_args *a = ctx;                                                                    \
    const T *g = a->src;                                                                         \
    T *gt = a->dst, *gbias = a->dst2;                                                            \
    const ptrdiff_t N = a->N, OC = a->C, L = a->L;                                               \
    for (ptrdiff_t oc = begin; oc < end; oc++) {                                                 \
        double acc = 0;                                                                          \
        for (ptrdiff_t n = 0; n < N; n++) {                                                      \
            const T *src = g + (n * OC + oc) * L;                                                \
            memcpy(gt + (oc * N + n) * L, src, (size_t)L * sizeof(T));                           \
            if (gbias)              /* the plane is in cache: summed right after the copy */     \
                acc += sum_lanes_##SUFFIX(src, L);                                               \
        }                                                                                        \
        if (gbias) gbias[oc] = (T)acc;                                                           \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
void agc_conv_grad_t_##SUFFIX(const T *g, T *gt, T *gbias, ptrdiff_t N, ptrdiff_t OC, ptrdiff_t L) \
{                                                                                                \
    loop_args a = {.src = g, .dst = gt, .dst2 = gbias, .N = N, .C = OC, .L = L};                 \
    for_items(OC, N * L, conv_grad_t_range_##SUFFIX, &a);                                        \
}

/* Planes [begin, end) of the common 2x2 window, stride 2, no padding: the general rule
 * below written without branches (select, not jump), which the compiler vectorizes; on
 * relu's output, with its many ties, the branches of the general loop mispredict about
 * half the time. The rule: the first maximum wins, a NaN beats any number, a later NaN an
 * earlier one (as `v > m || isnan(v)` from m = -inf). */
#define MAXPOOL_2X2(SUFFIX, T)                                                                   \
AGC_CLONES static void maxpool_2x2_##SUFFIX(const T *x, T *out, int64_t *idx, ptrdiff_t begin,    \
                                            ptrdiff_t end, const agc_geom2d *g)                  \
{                                                                                                \
    const ptrdiff_t H = g->H, W = g->W, OH = g->OH, OW = g->OW;                                  \
    for (ptrdiff_t p = begin; p < end; p++)                                                      \
        for (ptrdiff_t oh = 0; oh < OH; oh++) {                                                  \
            const T *r0 = x + p * H * W + 2 * oh * W, *r1 = r0 + W;                              \
            T *o = out + (p * OH + oh) * OW;                                                     \
            int64_t *ix = idx + (p * OH + oh) * OW;                                              \
            const int64_t top = 2 * oh * W;                                                      \
            for (ptrdiff_t ow = 0; ow < OW; ow++) {                                              \
                const T b = r0[2 * ow + 1], c = r1[2 * ow], d = r1[2 * ow + 1];                  \
                T m = r0[2 * ow];                                                                \
                int64_t at = 0;                                                                  \
                int take = (b > m) | (b != b);                                                   \
                m = take ? b : m;                                                                \
                at = take ? 1 : at;                                                              \
                take = (c > m) | (c != c);                                                       \
                m = take ? c : m;                                                                \
                at = take ? W : at;                                                              \
                take = (d > m) | (d != d);                                                       \
                m = take ? d : m;                                                                \
                at = take ? W + 1 : at;                                                          \
                o[ow] = m;                                                                       \
                ix[ow] = top + 2 * ow + at;                                                      \
            }                                                                                    \
        }                                                                                        \
}

/* Item p of max pooling is plane p. */
#define MAXPOOL(SUFFIX, T)                                                                       \
static void maxpool_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)                    \
{                                                                                                \
    const loop_args *a = ctx;                                                                    \
    const agc_geom2d *g = a->g;                                                                  \
    const T *x = a->src;                                                                         \
    const ptrdiff_t H = g->H, W = g->W;                                                          \
    T *out = (T *)a->dst + begin * g->OH * g->OW;                                                \
    int64_t *idx = (int64_t *)a->dst2 + begin * g->OH * g->OW;                                   \
    if (g->KH == 2 && g->KW == 2 && g->SH == 2 && g->SW == 2 && g->PH == 0 && g->PW == 0         \
            && g->DH == 1 && g->DW == 1 && 2 * g->OH <= H && 2 * g->OW <= W) {                   \
        maxpool_2x2_##SUFFIX(x, (T *)a->dst, (int64_t *)a->dst2, begin, end, g);                 \
        return;                                                                                  \
    }                                                                                            \
    for (ptrdiff_t p = begin; p < end; p++) {                                                    \
        const T *plane = x + p * H * W;                                                          \
        for (ptrdiff_t oh = 0; oh < g->OH; oh++) {                                               \
            ptrdiff_t h0 = oh * g->SH - g->PH, h1 = h0 + (g->KH - 1) * g->DH + 1;                \
            if (h1 > H) h1 = H;                                                                  \
            while (h0 < 0) h0 += g->DH;                                                          \
            for (ptrdiff_t ow = 0; ow < g->OW; ow++, out++, idx++) {                             \
                ptrdiff_t w0 = ow * g->SW - g->PW, w1 = w0 + (g->KW - 1) * g->DW + 1;            \
                if (w1 > W) w1 = W;                                                              \
                while (w0 < 0) w0 += g->DW;                                                      \
                ptrdiff_t best = h0 * W + w0;                                                    \
                T m = -(T)INFINITY;                                                              \
                for (ptrdiff_t h = h0; h < h1; h += g->DH)                                       \
                    for (ptrdiff_t w = w0; w < w1; w += g->DW) {                                 \
                        const T v = plane[h * W + w];                                            \
                        if (v > m || isnan(v)) {                                                 \
                            m = v;                                                               \
                            best = h * W + w;                                                    \
                        }                                                                        \
                    }                                                                            \
                *out = m;                                                                        \
                *idx = (int64_t)best;                                                            \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
void agc_maxpool2d_##SUFFIX(const T *x, T *out, int64_t *idx, ptrdiff_t planes, const agc_geom2d *g) \
{                                                                                                \
    loop_args a = {.src = x, .dst = out, .dst2 = idx, .g = g};                                   \
    for_items(planes, g->H * g->W + 2 * g->OH * g->OW, maxpool_range_##SUFFIX, &a);              \
}

/* Item p of its gradient is plane p of gx: zeroed (in cache, just before the adds), then
 * each output's gradient added at its maximum, in the one-thread order. */
#define MAXPOOL_BACKWARD(SUFFIX, T)                                                              \
static void maxpool_backward_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)           \
{                                                                                                \
    loop_args *a = ctx;                                                                          \
    const ptrdiff_t L = a->L, HW = a->HW;                                                        \
    const T *gout = (const T *)a->src + begin * L;                                               \
    const int64_t *idx = (const int64_t *)a->aux + begin * L;                                    \
    T *gx = (T *)a->dst + begin * HW;                                                            \
    for (ptrdiff_t p = begin; p < end; p++, gx += HW) {                                          \
        memset(gx, 0, (size_t)HW * sizeof(T));                                                   \
        for (ptrdiff_t l = 0; l < L; l++, gout++, idx++) {                                       \
            if (*idx < 0 || *idx >= HW) {                                                        \
                a->bad = 1;                                                                      \
                return;                                                                          \
            }                                                                                    \
            gx[*idx] += *gout;                                                                   \
        }                                                                                        \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
int agc_maxpool2d_backward_##SUFFIX(const T *gout, const int64_t *idx, T *gx, ptrdiff_t planes,  \
                                    ptrdiff_t L, ptrdiff_t HW)                                   \
{                                                                                                \
    loop_args a = {.src = gout, .aux = idx, .dst = gx, .L = L, .HW = HW};                        \
    for_items(planes, HW + 2 * L, maxpool_backward_range_##SUFFIX, &a);                          \
    return a.bad ? -1 : 0;                                                                       \
}

#define THRESHOLD(SUFFIX, T)                                                                     \
AGC_CLONES static void threshold_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)       \
{                                                                                                \
    const loop_args *a = ctx;                                                                    \
    const T th = (T)a->a, value = (T)a->b;                                                       \
    const T *x = a->src;                                                                         \
    T *out = a->dst;                                                                             \
    for (ptrdiff_t i = begin; i < end; i++)                                                      \
        out[i] = x[i] <= th ? value : x[i];                                                      \
}                                                                                                \
                                                                                                 \
void agc_threshold_##SUFFIX(const T *x, double th, double value, T *out, size_t n)               \
{                                                                                                \
    loop_args a = {.src = x, .dst = out, .a = th, .b = value};                                   \
    for_items((ptrdiff_t)n, 1, threshold_range_##SUFFIX, &a);                                    \
}

/* Item (b, o) of the per-sample outer products is row o of sample b's matrix. */
#define ROWS_OUTER(SUFFIX, T)                                                                    \
AGC_CLONES static void rows_outer_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)      \
{                                                                                                \
    const loop_args *a = ctx;                                                                    \
    const ptrdiff_t O = a->C, N = a->L;                                                          \
    const T *g = a->src, *x = a->aux;                                                            \
    T *out = (T *)a->dst + begin * N;                                                            \
    for (ptrdiff_t r = begin; r < end; r++, out += N) {                                          \
        const T s = g[r];                                                                        \
        const T *xr = x + (r / O) * N;                                                           \
        for (ptrdiff_t i = 0; i < N; i++)                                                        \
            out[i] = s * xr[i];                                                                  \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
void agc_rows_outer_##SUFFIX(const T *g, const T *x, T *out, ptrdiff_t B, ptrdiff_t O,           \
                             ptrdiff_t N)                                                        \
{                                                                                                \
    loop_args a = {.src = g, .aux = x, .dst = out, .C = O, .L = N};                              \
    for_items(B * O, N, rows_outer_range_##SUFFIX, &a);                                          \
}

/* Item r of (log_)softmax and their gradients is row r. The maximum is subtracted before
 * exp, as PyTorch does; a NaN in a row makes it NaN. */
#define SOFTMAX_ROWS(SUFFIX, T, EXP)                                                             \
static void softmax_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)                    \
{                                                                                                \
    const loop_args *a = ctx;                                                                    \
    const ptrdiff_t n = a->L;                                                                    \
    const int log_ = a->flag;                                                                    \
    const T *x = (const T *)a->src + begin * n;                                                  \
    T *out = (T *)a->dst + begin * n;                                                            \
    for (ptrdiff_t r = begin; r < end; r++, x += n, out += n) {                                  \
        T m = -(T)INFINITY;                                                                      \
        for (ptrdiff_t j = 0; j < n; j++)                                                        \
            if (x[j] > m || isnan(x[j]))                                                         \
                m = x[j];                                                                        \
        double s = 0;                                                                            \
        if (log_) {                                                                              \
            for (ptrdiff_t j = 0; j < n; j++) {                                                  \
                out[j] = x[j] - m;                                                               \
                s += EXP(out[j]);                                                                \
            }                                                                                    \
            const T lse = (T)log(s);                                                             \
            for (ptrdiff_t j = 0; j < n; j++)                                                    \
                out[j] -= lse;                                                                   \
        } else {                                                                                 \
            for (ptrdiff_t j = 0; j < n; j++) {                                                  \
                out[j] = EXP(x[j] - m);                                                          \
                s += out[j];                                                                     \
            }                                                                                    \
            const T total = (T)s;                                                                \
            for (ptrdiff_t j = 0; j < n; j++)                                                    \
                out[j] /= total;                                                                 \
        }                                                                                        \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
void agc_softmax_rows_##SUFFIX(const T *x, T *out, ptrdiff_t rows, ptrdiff_t n, int log_)       \
{                                                                                                \
    loop_args a = {.src = x, .dst = out, .L = n, .flag = log_};                                  \
    for_items(rows, 4 * n, softmax_range_##SUFFIX, &a);                                          \
}

#define SOFTMAX_BACKWARD_ROWS(SUFFIX, T, EXP)                                                    \
static void softmax_backward_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)           \
{                                                                                                \
    const loop_args *a = ctx;                                                                    \
    const ptrdiff_t n = a->L;                                                                    \
    const int log_ = a->flag;                                                                    \
    const T *g = (const T *)a->src + begin * n, *y = (const T *)a->aux + begin * n;              \
    T *out = (T *)a->dst + begin * n;                                                            \
    for (ptrdiff_t r = begin; r < end; r++, g += n, y += n, out += n) {                          \
        double s = 0;                                                                            \
        if (log_) {                                                                              \
            for (ptrdiff_t j = 0; j < n; j++) s += g[j];                                         \
            const T ts = (T)s;                                                                   \
            for (ptrdiff_t j = 0; j < n; j++) out[j] = g[j] - EXP(y[j]) * ts;                    \
        } else {                                                                                 \
            for (ptrdiff_t j = 0; j < n; j++) s += (double)g[j] * y[j];                          \
            const T ts = (T)s;                                                                   \
            for (ptrdiff_t j = 0; j < n; j++) out[j] = y[j] * (g[j] - ts);                       \
        }                                                                                        \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
void agc_softmax_backward_rows_##SUFFIX(const T *g, const T *y, T *out, ptrdiff_t rows,         \
                                        ptrdiff_t n, int log_)                                   \
{                                                                                                \
    loop_args a = {.src = g, .aux = y, .dst = out, .L = n, .flag = log_};                        \
    for_items(rows, 4 * n, softmax_backward_range_##SUFFIX, &a);                                 \
}

/* Row (b, s) of an (N, C, S) input is x[b, :, s]; its target target[b*S + s]. */
#define NLL_LOSS(SUFFIX, T)                                                                      \
ptrdiff_t agc_nll_loss_##SUFFIX(const T *x, const int64_t *target, const T *weight,             \
                                int64_t ignore_index, ptrdiff_t N, ptrdiff_t C, ptrdiff_t S,     \
                                int reduction, T *out)                                           \
{                                                                                                \
    double total = 0, wsum = 0;                                                                  \
    for (ptrdiff_t b = 0; b < N; b++)                                                            \
        for (ptrdiff_t s = 0; s < S; s++) {                                                      \
            const ptrdiff_t row = b * S + s;                                                     \
            const int64_t t = target[row];                                                       \
            if (t == ignore_index) {                                                             \
                if (reduction == AGC_REDUCTION_NONE) out[row] = 0;                               \
                continue;                                                                        \
            }                                                                                    \
            if (t < 0 || t >= C)                                                                 \
                return row;                                                                      \
            const T w = weight ? weight[t] : (T)1;                                               \
            const T loss = -(x[(b * C + t) * S + s] * w);                                        \
            if (reduction == AGC_REDUCTION_NONE) out[row] = loss;                                \
            total += loss;                                                                       \
            wsum += w;                                                                           \
        }                                                                                        \
    if (reduction == AGC_REDUCTION_SUM) out[0] = (T)total;                                       \
    else if (reduction == AGC_REDUCTION_MEAN) out[0] = (T)total / (T)wsum;                       \
    return -1;                                                                                   \
}

#define NLL_LOSS_BACKWARD(SUFFIX, T)                                                             \
ptrdiff_t agc_nll_loss_backward_##SUFFIX(const T *gout, const int64_t *target, const T *weight, \
                                         int64_t ignore_index, ptrdiff_t N, ptrdiff_t C,         \
                                         ptrdiff_t S, int reduction, T *gx)                      \
{                                                                                                \
    const ptrdiff_t M = N * S;                                                                   \
    T scale = reduction == AGC_REDUCTION_NONE ? (T)0 : gout[0];                                  \
    if (reduction == AGC_REDUCTION_MEAN) {                                                       \
        double wsum = 0;                                                                         \
        for (ptrdiff_t row = 0; row < M; row++) {                                                \
            const int64_t t = target[row];                                                       \
            if (t == ignore_index) continue;                                                     \
            if (t < 0 || t >= C) return row;                                                     \
            wsum += weight ? weight[t] : (T)1;                                                   \
        }                                                                                        \
        scale /= (T)wsum;                                                                        \
    }                                                                                            \
    memset(gx, 0, (size_t)(M * C) * sizeof(T));                                                 \
    for (ptrdiff_t b = 0; b < N; b++)                                                            \
        for (ptrdiff_t s = 0; s < S; s++) {                                                      \
            const ptrdiff_t row = b * S + s;                                                     \
            const int64_t t = target[row];                                                       \
            if (t == ignore_index) continue;                                                     \
            if (t < 0 || t >= C) return row;                                                     \
            const T g = -(reduction == AGC_REDUCTION_NONE ? gout[row] : scale);                  \
            gx[(b * C + t) * S + s] = weight ? weight[t] * g : g;                                \
        }                                                                                        \
    return -1;                                                                                   \
}

IM2COL(f32, float)
IM2COL(f64, double)
COL2IM(f32, float)
COL2IM(f64, double)
CONV_OUT(f32, float)
CONV_OUT(f64, double)
SUM_LANES(f32, float)
SUM_LANES(f64, double)
CONV_GRAD_T(f32, float)
CONV_GRAD_T(f64, double)
MAXPOOL_2X2(f32, float)
MAXPOOL_2X2(f64, double)
MAXPOOL(f32, float)
MAXPOOL(f64, double)
MAXPOOL_BACKWARD(f32, float)
MAXPOOL_BACKWARD(f64, double)
THRESHOLD(f32, float)
THRESHOLD(f64, double)
ROWS_OUTER(f32, float)
ROWS_OUTER(f64, double)
SOFTMAX_ROWS(f32, float, expf)
SOFTMAX_ROWS(f64, double, exp)
SOFTMAX_BACKWARD_ROWS(f32, float, expf)
SOFTMAX_BACKWARD_ROWS(f64, double, exp)
NLL_LOSS(f32, float)
NLL_LOSS(f64, double)
NLL_LOSS_BACKWARD(f32, float)
NLL_LOSS_BACKWARD(f64, double)
