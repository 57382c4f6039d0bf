/* The fused elementwise interpreter (agc_fuse.h). */
#include "agc_fuse.h"

#include <math.h>

#define DEFINE_FUSE(NAME, T, EXPF, LOGF, SQRTF, TANHF)                              \
void NAME(const agc_fuse_ins *prog, size_t nins, const T *const *in, T *const *out, \
          size_t n, T *scratch)                                                      \
{                                                                                    \
    size_t off, i, k;                                                                \
    for (off = 0; off < n; off += AGC_FUSE_TILE) {                                   \
        size_t m = n - off < AGC_FUSE_TILE ? n - off : AGC_FUSE_TILE;                \
        for (k = 0; k < nins; k++) {                                                 \
            const agc_fuse_ins *p = prog + k;                                        \
            T *r = scratch + (size_t)p->r * AGC_FUSE_TILE;                           \
            const T *a = p->a >= 0 ? scratch + (size_t)p->a * AGC_FUSE_TILE : 0;     \
            const T *b = p->b >= 0 ? scratch + (size_t)p->b * AGC_FUSE_TILE : 0;     \
            const T s = (T)p->s;                                                     \
            switch (p->op) {                                                         \
            case AGC_F_LOAD: {                                                       \
                const T *src = in[(size_t)p->s] + off;                               \
                for (i = 0; i < m; i++) r[i] = src[i];                               \
                break; }                                                             \
            case AGC_F_STORE: {                                                      \
                T *dst = out[(size_t)p->s] + off;                                    \
                for (i = 0; i < m; i++) dst[i] = a[i];                               \
                break; }                                                             \
            case AGC_F_COPY: for (i = 0; i < m; i++) r[i] = a[i]; break;             \
            case AGC_F_ADD: for (i = 0; i < m; i++) r[i] = a[i] + b[i]; break;       \
            case AGC_F_SUB: for (i = 0; i < m; i++) r[i] = a[i] - b[i]; break;       \
            case AGC_F_MUL: for (i = 0; i < m; i++) r[i] = a[i] * b[i]; break;       \
            case AGC_F_DIV: for (i = 0; i < m; i++) r[i] = a[i] / b[i]; break;       \
            case AGC_F_ADDS: for (i = 0; i < m; i++) r[i] = a[i] + s; break;         \
            case AGC_F_SUBS: for (i = 0; i < m; i++) r[i] = a[i] - s; break;         \
            case AGC_F_RSUBS: for (i = 0; i < m; i++) r[i] = s - a[i]; break;        \
            case AGC_F_MULS: for (i = 0; i < m; i++) r[i] = a[i] * s; break;         \
            case AGC_F_DIVS: for (i = 0; i < m; i++) r[i] = a[i] / s; break;         \
            case AGC_F_RDIVS: for (i = 0; i < m; i++) r[i] = s / a[i]; break;        \
            case AGC_F_NEG: for (i = 0; i < m; i++) r[i] = -a[i]; break;             \
            case AGC_F_EXP: for (i = 0; i < m; i++) r[i] = EXPF(a[i]); break;        \
            case AGC_F_LOG: for (i = 0; i < m; i++) r[i] = LOGF(a[i]); break;        \
            case AGC_F_SQRT: for (i = 0; i < m; i++) r[i] = SQRTF(a[i]); break;      \
            case AGC_F_TANH: for (i = 0; i < m; i++) r[i] = TANHF(a[i]); break;      \
            case AGC_F_SIGMOID:                                                      \
                for (i = 0; i < m; i++) r[i] = (T)1 / ((T)1 + EXPF(-a[i]));          \
                break;                                                               \
            case AGC_F_RELU:                                                         \
                for (i = 0; i < m; i++) { T v = a[i]; r[i] = v < 0 ? (T)0 : v; }      \
                break;                                                               \
            case AGC_F_TANH_BWD:                                                     \
                for (i = 0; i < m; i++) { T x = a[i], y = b[i]; r[i] = x * ((T)1 - y * y); } \
                break;                                                               \
            case AGC_F_SIGMOID_BWD:                                                  \
                for (i = 0; i < m; i++) { T x = a[i], y = b[i]; r[i] = x * (((T)1 - y) * y); } \
                break;                                                               \
            case AGC_F_RELU_BWD:                                                     \
                for (i = 0; i < m; i++) { T x = a[i], y = b[i]; r[i] = y <= 0 ? (T)0 : x; } \
                break;                                                               \
            case AGC_F_DIV_OTHER_BWD: {                                              \
                const T *c = scratch + (size_t)p->s * AGC_FUSE_TILE;                 \
                for (i = 0; i < m; i++) r[i] = -a[i] * ((b[i] / c[i]) / c[i]);       \
                break; }                                                             \
            }                                                                        \
        }                                                                            \
    }                                                                                \
}

DEFINE_FUSE(agc_fuse_run_f32, float, expf, logf, sqrtf, tanhf)
DEFINE_FUSE(agc_fuse_run_f64, double, exp, log, sqrt, tanh)
