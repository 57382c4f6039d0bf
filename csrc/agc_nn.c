/* See agc_nn.h. Each loop is written once as a macro over the element type. */
#include "agc_nn.h"
#include "agc_kernels.h"   /* AGC_CLONES */
#include "agc_parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The pool's entry point (agc_parallel.h), set by the nn module at import; NULL: one
 * thread. */
static agc_parallel_for_fn par_for;
static void gemm_init(void);

void agc_nn_set_parallel_for(agc_parallel_for_fn fn)
{
    par_for = fn;
    gemm_init();                   /* at import, before any loop can run */
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
                ptrdiff_t lo = dw < 0 ? -dw : 0, hi = W - dw;                                    \
                if (hi > OW) hi = OW;                                                            \
                if (hi < lo) hi = lo;                                                            \
                if (lo > OW) lo = hi = OW;                                                       \
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
                        ptrdiff_t lo = dw < 0 ? -dw : 0, hi = W - dw;                            \
                        if (hi > OW) hi = OW;                                                    \
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
            if (gt)                                                                              \
                memcpy(gt + (oc * N + n) * L, src, (size_t)L * sizeof(T));                       \
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

/* ---------------------------------------------------------------- the convolution's products
 * Note [The convolution's own GEMM]
 * The products of the 2-D convolution (forward, and both gradients) are computed here, not
 * by numpy's BLAS, so that they can run on the pool split over images and tiles: one
 * multithreaded BLAS call per convolution leaves OpenBLAS's workers spinning beside the
 * pool's (Note [Sharing the cores with BLAS]), and single-threaded BLAS calls per image
 * cannot be made from C without linking a BLAS. Each output element is one sum in a fixed
 * order, whichever tile, range or thread computes it (products
 * in k order from the bias for C = A B; lane-wise partial sums over the batch then the
 * lanes in order for C = A B^T), so the results are bitwise the same for any number of
 * threads. On x86-64 with GCC or Clang each routine is also compiled for AVX2 with FMA and
 * picked at run time (on one machine the choice, hence the result, is always the same). */
#if defined(__GNUC__)
#define GEMM_VBYTES 32
#define GEMM_VEC(T) T __attribute__((vector_size(GEMM_VBYTES), aligned(sizeof(T)), may_alias))
#else
#define GEMM_VBYTES 0            /* no vector types: the same loops on one element at a time */
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#define GEMM_FMA_TARGET __attribute__((target("avx2,fma")))
#define GEMM_HAS_FMA_CLONE 1
#endif

#if GEMM_VBYTES
typedef GEMM_VEC(float) gemm_vf32;
typedef GEMM_VEC(double) gemm_vf64;
#else
typedef float gemm_vf32;
typedef double gemm_vf64;
#endif

/* C (M, NC) = A (M, K) B (K, NC) + bias (per row; NULL: 0) for one image. A's (m, k) at
 * a[m*sam + k*sak]; B and C row-major with leading dimensions ldb, ldc. Tiles of 4 rows
 * by 3 vectors, then narrower ones, then single elements: each element is the same sum
 * bias + a[m,0] b[0,n] + a[m,1] b[1,n] + ... in every one. */
#define GEMM_NN(SUFFIX, T, V, TAG, ATTR)                                                         \
ATTR static void gemm_nn_##TAG(ptrdiff_t M, ptrdiff_t NC, ptrdiff_t K, const T *a,              \
                               ptrdiff_t sam, ptrdiff_t sak, const T *b, ptrdiff_t ldb,         \
                               const T *bias, T *c, ptrdiff_t ldc)                              \
{                                                                                                \
    enum { VL = sizeof(V) / sizeof(T) };                                                         \
    const V zero = {0};                                                                          \
    ptrdiff_t n = 0;                                                                             \
    for (; n + 3 * VL <= NC; n += 3 * VL) {                                                      \
        ptrdiff_t m = 0;                                                                         \
        for (; m + 4 <= M; m += 4) {                                                             \
            const T *ar = a + m * sam, *bk = b + n;                                              \
            const T s0 = bias ? bias[m] : (T)0, s1 = bias ? bias[m + 1] : (T)0;                  \
            const T s2 = bias ? bias[m + 2] : (T)0, s3 = bias ? bias[m + 3] : (T)0;              \
            V c00 = zero + s0, c01 = c00, c02 = c00, c10 = zero + s1, c11 = c10, c12 = c10;      \
            V c20 = zero + s2, c21 = c20, c22 = c20, c30 = zero + s3, c31 = c30, c32 = c30;      \
            for (ptrdiff_t k = 0; k < K; k++, bk += ldb) {                                       \
                V b0, b1, b2, av;                                                                \
                b0 = *(const V *)(bk);                                                      \
                b1 = *(const V *)(bk + VL);                                                 \
                b2 = *(const V *)(bk + 2 * VL);                                             \
                const T *ak = ar + k * sak;                                                      \
                av = zero + ak[0];                                                               \
                c00 += av * b0; c01 += av * b1; c02 += av * b2;                                  \
                av = zero + ak[sam];                                                             \
                c10 += av * b0; c11 += av * b1; c12 += av * b2;                                  \
                av = zero + ak[2 * sam];                                                         \
                c20 += av * b0; c21 += av * b1; c22 += av * b2;                                  \
                av = zero + ak[3 * sam];                                                         \
                c30 += av * b0; c31 += av * b1; c32 += av * b2;                                  \
            }                                                                                    \
            T *cr = c + m * ldc + n;                                                             \
            *(V *)(cr) = c00; *(V *)(cr + VL) = c01;                       \
            *(V *)(cr + 2 * VL) = c02; cr += ldc;                                     \
            *(V *)(cr) = c10; *(V *)(cr + VL) = c11;                       \
            *(V *)(cr + 2 * VL) = c12; cr += ldc;                                     \
            *(V *)(cr) = c20; *(V *)(cr + VL) = c21;                       \
            *(V *)(cr + 2 * VL) = c22; cr += ldc;                                     \
            *(V *)(cr) = c30; *(V *)(cr + VL) = c31;                       \
            *(V *)(cr + 2 * VL) = c32;                                                \
        }                                                                                        \
        for (; m < M; m++) {                                                                     \
            const T s = bias ? bias[m] : (T)0;                                                   \
            V acc0 = zero + s, acc1 = acc0, acc2 = acc0;                                         \
            const T *ar = a + m * sam, *bk = b + n;                                              \
            for (ptrdiff_t k = 0; k < K; k++, bk += ldb) {                                       \
                V b0, b1, b2;                                                                    \
                b0 = *(const V *)(bk);                                                      \
                b1 = *(const V *)(bk + VL);                                                 \
                b2 = *(const V *)(bk + 2 * VL);                                             \
                const V av = zero + ar[k * sak];                                                 \
                acc0 += av * b0;                                                                 \
                acc1 += av * b1;                                                                 \
                acc2 += av * b2;                                                                 \
            }                                                                                    \
            T *cr = c + m * ldc + n;                                                             \
            *(V *)(cr) = acc0;                                                        \
            *(V *)(cr + VL) = acc1;                                                   \
            *(V *)(cr + 2 * VL) = acc2;                                               \
        }                                                                                        \
    }                                                                                            \
    for (; n + VL <= NC; n += VL)                                                                \
        for (ptrdiff_t m = 0; m < M; m++) {                                                      \
            V acc = zero + (bias ? bias[m] : (T)0);                                              \
            const T *ar = a + m * sam, *bk = b + n;                                              \
            for (ptrdiff_t k = 0; k < K; k++, bk += ldb) {                                       \
                V b0;                                                                            \
                b0 = *(const V *)(bk);                                                      \
                acc += (zero + ar[k * sak]) * b0;                                                \
            }                                                                                    \
            *(V *)(c + m * ldc + n) = acc;                                            \
        }                                                                                        \
    for (; n < NC; n++)                                                                          \
        for (ptrdiff_t m = 0; m < M; m++) {                                                      \
            T acc = bias ? bias[m] : (T)0;                                                       \
            const T *ar = a + m * sam;                                                           \
            for (ptrdiff_t k = 0; k < K; k++)                                                    \
                acc += ar[k * sak] * b[k * ldb + n];                                             \
            c[m * ldc + n] = acc;                                                                \
        }                                                                                        \
}

/* The lanes of v added up in order, then tail. */
#define GEMM_LANES(SUFFIX, T, V, TAG, ATTR)                                                       \
ATTR static inline T gemm_lanes_##TAG(const V *v, T tail)                                             \
{                                                                                                \
    enum { VL = sizeof(V) / sizeof(T) };                                                         \
    T lane[VL];                                                                                  \
    memcpy(lane, v, sizeof(V));                                                                  \
    T s = lane[0];                                                                               \
    for (int t = 1; t < VL; t++)                                                                 \
        s += lane[t];                                                                            \
    return s + tail;                                                                             \
}

/* C (M, NC) = the sum over images i of A_i (M, L) B_i (NC, L)^T, for the columns
 * [j0, j1) and rows [m0, m1): A_i's row m at a + i*sai + m*lda, B_i's row j at
 * b + i*sbi + j*ldb (both contiguous along L). Each element is a vector of partial sums
 * (lane t takes l = t mod VL of each image's whole vectors, image after image) plus one
 * scalar sum of each image's last L mod VL products, added up lane by lane, then the
 * scalar: the same in every tile shape. */
#define GEMM_NT(SUFFIX, T, V, TAG, ATTR)                                                         \
ATTR static void gemm_nt_##TAG(ptrdiff_t images, ptrdiff_t m0, ptrdiff_t m1, ptrdiff_t j0,      \
                               ptrdiff_t j1, ptrdiff_t L, const T *a, ptrdiff_t sai,            \
                               ptrdiff_t lda, const T *b, ptrdiff_t sbi, ptrdiff_t ldb, T *c,   \
                               ptrdiff_t ldc)                                                   \
{                                                                                                \
    enum { VL = sizeof(V) / sizeof(T) };                                                         \
    const V zero = {0};                                                                          \
    const ptrdiff_t LV = L - L % VL;                                                             \
    ptrdiff_t m = m0;                                                                            \
    for (; m + 4 <= m1; m += 4) {                                                                \
        ptrdiff_t j = j0;                                                                        \
        for (; j + 3 <= j1; j += 3) {                                                            \
            V c00 = zero, c01 = zero, c02 = zero, c10 = zero, c11 = zero, c12 = zero;            \
            V c20 = zero, c21 = zero, c22 = zero, c30 = zero, c31 = zero, c32 = zero;            \
            T tail[4][3] = {{0}};                                                                \
            for (ptrdiff_t i = 0; i < images; i++) {                                             \
                const T *a0 = a + i * sai + m * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;\
                const T *b0p = b + i * sbi + j * ldb, *b1p = b0p + ldb, *b2p = b1p + ldb;        \
                for (ptrdiff_t l = 0; l < LV; l += VL) {                                         \
                    V b0, b1, b2, av;                                                            \
                    b0 = *(const V *)(b0p + l);                                             \
                    b1 = *(const V *)(b1p + l);                                             \
                    b2 = *(const V *)(b2p + l);                                             \
                    av = *(const V *)(a0 + l);                                              \
                    c00 += av * b0; c01 += av * b1; c02 += av * b2;                              \
                    av = *(const V *)(a1 + l);                                              \
                    c10 += av * b0; c11 += av * b1; c12 += av * b2;                              \
                    av = *(const V *)(a2 + l);                                              \
                    c20 += av * b0; c21 += av * b1; c22 += av * b2;                              \
                    av = *(const V *)(a3 + l);                                              \
                    c30 += av * b0; c31 += av * b1; c32 += av * b2;                              \
                }                                                                                \
                const T *ap[4] = {a0, a1, a2, a3}, *bp[3] = {b0p, b1p, b2p};                     \
                for (ptrdiff_t l = LV; l < L; l++)                                               \
                    for (int r = 0; r < 4; r++)                                                  \
                        for (int q = 0; q < 3; q++)                                              \
                            tail[r][q] += ap[r][l] * bp[q][l];                                   \
            }                                                                                    \
            T *cr = c + m * ldc + j;                                                             \
            cr[0] = gemm_lanes_##TAG(&c00, tail[0][0]); cr[1] = gemm_lanes_##TAG(&c01, tail[0][1]);\
            cr[2] = gemm_lanes_##TAG(&c02, tail[0][2]); cr += ldc;                               \
            cr[0] = gemm_lanes_##TAG(&c10, tail[1][0]); cr[1] = gemm_lanes_##TAG(&c11, tail[1][1]);\
            cr[2] = gemm_lanes_##TAG(&c12, tail[1][2]); cr += ldc;                               \
            cr[0] = gemm_lanes_##TAG(&c20, tail[2][0]); cr[1] = gemm_lanes_##TAG(&c21, tail[2][1]);\
            cr[2] = gemm_lanes_##TAG(&c22, tail[2][2]); cr += ldc;                               \
            cr[0] = gemm_lanes_##TAG(&c30, tail[3][0]); cr[1] = gemm_lanes_##TAG(&c31, tail[3][1]);\
            cr[2] = gemm_lanes_##TAG(&c32, tail[3][2]);                                          \
        }                                                                                        \
        for (; j < j1; j++)                                                                      \
            for (int r = 0; r < 4; r++)                                                          \
                c[(m + r) * ldc + j] = gemm_dot_##TAG(images, L, a + (m + r) * lda, sai,         \
                                                      b + j * ldb, sbi);                         \
    }                                                                                            \
    for (; m < m1; m++)                                                                          \
        for (ptrdiff_t j = j0; j < j1; j++)                                                      \
            c[m * ldc + j] = gemm_dot_##TAG(images, L, a + m * lda, sai, b + j * ldb, sbi);      \
}

/* One element of gemm_nt, in the same order. */
#define GEMM_DOT(SUFFIX, T, V, TAG, ATTR)                                                        \
ATTR static T gemm_dot_##TAG(ptrdiff_t images, ptrdiff_t L, const T *a, ptrdiff_t sai,          \
                             const T *b, ptrdiff_t sbi)                                         \
{                                                                                                \
    enum { VL = sizeof(V) / sizeof(T) };                                                         \
    const V zero = {0};                                                                          \
    const ptrdiff_t LV = L - L % VL;                                                             \
    V acc = zero;                                                                                \
    T tail = 0;                                                                                  \
    for (ptrdiff_t i = 0; i < images; i++) {                                                     \
        const T *ai = a + i * sai, *bi = b + i * sbi;                                            \
        for (ptrdiff_t l = 0; l < LV; l += VL) {                                                 \
            V av, bv;                                                                            \
            av = *(const V *)(ai + l);                                                      \
            bv = *(const V *)(bi + l);                                                      \
            acc += av * bv;                                                                      \
        }                                                                                        \
        for (ptrdiff_t l = LV; l < L; l++)                                                       \
            tail += ai[l] * bi[l];                                                               \
    }                                                                                            \
    return gemm_lanes_##TAG(&acc, tail);                                                          \
}

#define GEMM_KERNELS(SUFFIX, T, V, TAG, ATTR)                                                    \
    GEMM_NN(SUFFIX, T, V, TAG, ATTR)                                                             \
    GEMM_LANES(SUFFIX, T, V, TAG, ATTR)                                                          \
    GEMM_DOT(SUFFIX, T, V, TAG, ATTR)                                                            \
    GEMM_NT(SUFFIX, T, V, TAG, ATTR)

#ifdef GEMM_HAS_FMA_CLONE
static int gemm_fma;               /* the CPU runs AVX2 and FMA (gemm_init, at import) */
static void gemm_init(void)
{
    __builtin_cpu_init();
    gemm_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#define GEMM_FMA_ON() gemm_fma
#else
static void gemm_init(void) {}
#define GEMM_FMA_ON() 0
#endif

/* Columns per item of gemm_nn's loop (a multiple of every tile width), and columns of C
 * per item of gemm_nt's (a multiple of its tile's 3). */
#define GEMM_NN_COLS 240
#define GEMM_NT_COLS 12

typedef struct {
    const void *a, *b, *bias;
    void *c;
    ptrdiff_t images, M, NC, K, sam, sak, sai, lda, sbi, ldb, sci, ldc, blocks;
    int fma;
} gemm_args;

#define GEMM_DRIVERS(SUFFIX, T)                                                                  \
static void gemm_nn_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)                    \
{                                                                                                \
    const gemm_args *g = ctx;                                                                    \
    /* each block of B is first copied to a contiguous panel: its K rows lie N*L apart           \
       in the columns of a whole batch (a page and a cache set apart each), slower to            \
       stream than a copy costs (without memory the block is read in place) */                   \
    T *panel = g->ldb > GEMM_NN_COLS ? malloc((size_t)g->K * GEMM_NN_COLS * sizeof(T)) : NULL;   \
    for (ptrdiff_t it = begin; it < end; it++) {                                                 \
        const ptrdiff_t i = it / g->blocks, n0 = it % g->blocks * GEMM_NN_COLS;                  \
        const ptrdiff_t nc = g->NC - n0 < GEMM_NN_COLS ? g->NC - n0 : GEMM_NN_COLS;              \
        const T *b = (const T *)g->b + i * g->sbi + n0;                                          \
        ptrdiff_t ldb = g->ldb;                                                                  \
        if (panel) {                                                                             \
            for (ptrdiff_t k = 0; k < g->K; k++)                                                 \
                memcpy(panel + k * nc, b + k * ldb, (size_t)nc * sizeof(T));                     \
            b = panel;                                                                           \
            ldb = nc;                                                                            \
        }                                                                                        \
        T *c = (T *)g->c + i * g->sci + n0;                                                      \
        GEMM_NN_CALL(SUFFIX, g->fma)(g->M, nc, g->K, g->a, g->sam, g->sak, b, ldb, g->bias,      \
                                     c, g->ldc);                                                 \
    }                                                                                            \
    free(panel);                                                                                 \
}                                                                                                \
                                                                                                 \
void agc_conv_gemm_nn_##SUFFIX(ptrdiff_t images, ptrdiff_t M, ptrdiff_t NC, ptrdiff_t K,        \
                               const T *a, ptrdiff_t sam, ptrdiff_t sak, const T *b,            \
                               ptrdiff_t sbi, ptrdiff_t ldb, const T *bias, T *c,               \
                               ptrdiff_t sci, ptrdiff_t ldc)                                    \
{                                                                                                \
    if (images <= 0 || M <= 0 || NC <= 0)                                                        \
        return;                                                                                  \
    gemm_args g = {.a = a, .b = b, .bias = bias, .c = c, .images = images, .M = M, .NC = NC,    \
                   .K = K, .sam = sam, .sak = sak, .sbi = sbi, .ldb = ldb, .sci = sci,           \
                   .ldc = ldc, .blocks = (NC + GEMM_NN_COLS - 1) / GEMM_NN_COLS,                 \
                   .fma = GEMM_FMA_ON()};                                                        \
    const ptrdiff_t cols = NC < GEMM_NN_COLS ? NC : GEMM_NN_COLS;                                \
    for_items(images * g.blocks, M * (K + 1) * cols / 4 + 1, gemm_nn_range_##SUFFIX, &g);        \
}                                                                                                \
                                                                                                 \
static void gemm_nt_range_##SUFFIX(void *ctx, ptrdiff_t begin, ptrdiff_t end)                    \
{                                                                                                \
    const gemm_args *g = ctx;                                                                    \
    const ptrdiff_t rows = (g->M + 3) / 4;                                                       \
    for (ptrdiff_t it = begin; it < end; it++) {                                                 \
        const ptrdiff_t m0 = it % rows * 4, j0 = it / rows * GEMM_NT_COLS;                       \
        const ptrdiff_t m1 = m0 + 4 < g->M ? m0 + 4 : g->M;                                      \
        const ptrdiff_t j1 = j0 + GEMM_NT_COLS < g->NC ? j0 + GEMM_NT_COLS : g->NC;              \
        GEMM_NT_CALL(SUFFIX, g->fma)(g->images, m0, m1, j0, j1, g->K, g->a, g->sai, g->lda,      \
                                     g->b, g->sbi, g->ldb, g->c, g->ldc);                        \
    }                                                                                            \
}                                                                                                \
                                                                                                 \
void agc_conv_gemm_nt_##SUFFIX(ptrdiff_t images, ptrdiff_t M, ptrdiff_t NC, ptrdiff_t L,        \
                               const T *a, ptrdiff_t sai, ptrdiff_t lda, const T *b,            \
                               ptrdiff_t sbi, ptrdiff_t ldb, T *c, ptrdiff_t ldc)               \
{                                                                                                \
    if (M <= 0 || NC <= 0)                                                                       \
        return;                                                                                  \
    gemm_args g = {.a = a, .b = b, .c = c, .images = images, .M = M, .NC = NC, .K = L,          \
                   .sai = sai, .lda = lda, .sbi = sbi, .ldb = ldb, .ldc = ldc,                   \
                   .fma = GEMM_FMA_ON()};                                                        \
    const ptrdiff_t items = (M + 3) / 4 * ((NC + GEMM_NT_COLS - 1) / GEMM_NT_COLS);              \
    for_items(items, 4 * GEMM_NT_COLS * (images * L + 1) / 4 + 1, gemm_nt_range_##SUFFIX, &g);   \
}

GEMM_KERNELS(f32, float, gemm_vf32, f32_base, )
GEMM_KERNELS(f64, double, gemm_vf64, f64_base, )
#ifdef GEMM_HAS_FMA_CLONE
GEMM_KERNELS(f32, float, gemm_vf32, f32_fma, GEMM_FMA_TARGET)
GEMM_KERNELS(f64, double, gemm_vf64, f64_fma, GEMM_FMA_TARGET)
#define GEMM_NN_CALL(SUFFIX, FMA) ((FMA) ? gemm_nn_##SUFFIX##_fma : gemm_nn_##SUFFIX##_base)
#define GEMM_NT_CALL(SUFFIX, FMA) ((FMA) ? gemm_nt_##SUFFIX##_fma : gemm_nt_##SUFFIX##_base)
#else
#define GEMM_NN_CALL(SUFFIX, FMA) gemm_nn_##SUFFIX##_base
#define GEMM_NT_CALL(SUFFIX, FMA) gemm_nt_##SUFFIX##_base
#endif
GEMM_DRIVERS(f32, float)
GEMM_DRIVERS(f64, double)

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
