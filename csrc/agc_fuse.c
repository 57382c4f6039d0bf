/* The fused elementwise interpreter (agc_fuse.h). */
#include "agc_fuse.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && defined(__GLIBC__) && defined(__linux__)
/* no-trapping-math: the branch-free selects below may be if-converted (computing both
 * sides of a select cannot raise a trap the program relies on: none is enabled) */
#define FUSE_CLONES __attribute__((target_clones("avx2", "default"), optimize("no-trapping-math")))
#else
#define FUSE_CLONES
#endif
#ifndef __GNUC__
#define __attribute__(x)
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define FUSE_INLINE static inline __attribute__((always_inline, optimize("no-trapping-math")))
#else
#define FUSE_INLINE static inline
#endif

/* exp(x) in float32 for a vectorised loop: x = n ln2 + r (Cody-Waite, |r| <= ln2/2),
 * exp(r) by its degree-7 Taylor polynomial, times 2^n built in the exponent bits. */
FUSE_INLINE float vexpf(float x)
{
    const float hi = 88.7228f, lo = -103.972f;
    float xc = x > hi ? hi : (x < lo ? lo : x);
    /* round to nearest by the 1.5 * 2^23 shift (floorf would be a call without SSE4.1,
     * and a call stops the loop's vectorisation) */
    float n = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    float r = xc - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.6666667e-1f + r * (4.1666668e-2f
              + r * (8.3333338e-3f + r * (1.3888889e-3f + r * 1.9841270e-4f))))));
    /* 2^n as two factors, each a normal float over the whole range (n from -150 to 128) */
    int32_t n1 = (int32_t)n / 2, n2 = (int32_t)n - n1;
    int32_t e1 = (n1 + 127) << 23, e2 = (n2 + 127) << 23;
    float s1, s2;
    memcpy(&s1, &e1, sizeof s1);
    memcpy(&s2, &e2, sizeof s2);
    float y = (p * s1) * s2;
    y = x > hi ? INFINITY : y;
    y = x < lo ? 0.0f : y;
    return x != x ? x : y;
}

/* tanh in float32 (Cephes' tanhf): an odd polynomial below 0.625, 1 - 2 / (exp(2x) + 1)
 * above, branch-free. */
FUSE_INLINE float vtanhf(float x)
{
    float ax = fabsf(x);
    float z = x * x;
    float small = ((((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z
                   + 1.33314422036e-1f) * z - 3.33332819422e-1f) * z * x + x;
    float big = 1.0f - 2.0f / (vexpf(2.0f * ax) + 1.0f);
    big = x < 0 ? -big : big;
    float y = ax < 0.625f ? small : big;
    return x != x ? x : y;
}

FUSE_CLONES __attribute__((noinline)) void agc_fuse_vexp_loop(const float *a, float *r, size_t m)
{
    for (size_t i = 0; i < m; i++) r[i] = vexpf(a[i]);
}

FUSE_CLONES __attribute__((noinline)) void agc_fuse_vtanh_loop(const float *a, float *r, size_t m)
{
    for (size_t i = 0; i < m; i++) r[i] = vtanhf(a[i]);
}

FUSE_CLONES __attribute__((noinline)) void agc_fuse_vsigmoid_loop(const float *a, float *r, size_t m)
{
    for (size_t i = 0; i < m; i++) r[i] = 1.0f / (1.0f + vexpf(-a[i]));
}

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
            case AGC_F_EXP_V: VLOOP(agc_fuse_vexp_loop); break;                               \
            case AGC_F_TANH_V: VLOOP(agc_fuse_vtanh_loop); break;                             \
            case AGC_F_SIGMOID_V: VLOOP(agc_fuse_vsigmoid_loop); break;                       \
            case AGC_F_DIV_OTHER_BWD: {                                              \
                const T *c = scratch + (size_t)p->s * AGC_FUSE_TILE;                 \
                for (i = 0; i < m; i++) r[i] = -a[i] * ((b[i] / c[i]) / c[i]);       \
                break; }                                                             \
            }                                                                        \
        }                                                                            \
    }                                                                                \
}

#define VLOOP(fn) fn((const float *)a, (float *)r, m)
DEFINE_FUSE(agc_fuse_run_f32, float, expf, logf, sqrtf, tanhf)
#undef VLOOP
/* (the vectorised forms are float32's only: a float64 block never holds them) */
#define VLOOP(fn) (void)0
DEFINE_FUSE(agc_fuse_run_f64, double, exp, log, sqrt, tanh)
#undef VLOOP
