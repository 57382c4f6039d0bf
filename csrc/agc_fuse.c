/* The fused elementwise interpreter (agc_fuse.h). */
#include "agc_fuse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The run functions are also built for AVX2 where GCC can pick a clone at load time
 * (glibc's ifunc): the interpreter's loops are vectorised, and with wider vectors the
 * arithmetic instructions keep up with numpy's (runtime-dispatched) loops on large
 * arrays. AVX2 without FMA: no multiply-add is contracted, so the values stay those of
 * eager's kernels, bit for bit. target_clones needs glibc's ifunc (musl has none). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && defined(__GLIBC__)
#define AGC_FUSE_TARGETS __attribute__((target_clones("avx2", "default")))
#else
#define AGC_FUSE_TARGETS
#endif

/* Registers are read through a table of pointers: a LOAD of a whole input (or of a
 * stretch of a broadcast input's repeated values that covers the tile) points its
 * register into the input instead of copying it; any other instruction points its
 * destination back at the register's own tile (after reading its operands). Without the
 * table (no memory for it), each register is its tile and LOADs copy. */
#define REG(x) (tbl ? tbl[x] : scratch + (size_t)(x) * tile)

#define DEFINE_FUSE(NAME, T, EXPF, LOGF, SQRTF, TANHF)                              \
AGC_FUSE_TARGETS                                                                     \
void NAME(const agc_fuse_ins *prog, size_t nins, const T *const *in, T *const *out, \
          size_t n, T *scratch, size_t tile)                                         \
{                                                                                    \
    size_t off, i, k, nreg = 1;                                                      \
    const T **tbl;                                                                   \
    for (k = 0; k < nins; k++)                                                       \
        if (prog[k].op != AGC_F_STORE && (size_t)prog[k].r >= nreg)                  \
            nreg = (size_t)prog[k].r + 1;                                            \
    tbl = (const T **)malloc(nreg * sizeof(const T *));                              \
    if (tbl)                                                                         \
        for (k = 0; k < nreg; k++) tbl[k] = scratch + k * tile;             \
    for (off = 0; off < n; off += tile) {                                   \
        size_t m = n - off < tile ? n - off : tile;                \
        for (k = 0; k < nins; k++) {                                                 \
            const agc_fuse_ins *p = prog + k;                                        \
            T *r = scratch + (size_t)p->r * tile;                           \
            const T *a = p->a >= 0 ? REG(p->a) : 0;                                  \
            const T *b = p->b >= 0 && p->op != AGC_F_LOAD ? REG(p->b) : 0;           \
            const T *c = p->op == AGC_F_DIV_OTHER_BWD ? REG((size_t)p->s) : 0;       \
            const T s = (T)p->s;                                                     \
            if (tbl && p->op != AGC_F_LOAD && p->op != AGC_F_STORE && k + 1 < nins    \
                    && p[1].op == AGC_F_STORE && p[1].a == p->r)                     \
                /* its value is stored next: made in the output, where the           \
                 * register's entry points (the STORE finds it there) */             \
                r = out[(size_t)p[1].s] + off;                                       \
            if (p->op == AGC_F_LOAD) {                                               \
                const T *src = in[(size_t)p->s];                                     \
                size_t per = p->b > 0 ? (size_t)p->b : 0, j = per ? off % per : off; \
                if (tbl && (!per || j + m <= per)) {                                 \
                    tbl[p->r] = src + j;                                             \
                    continue;                                                        \
                }                                                                    \
                if (!per) {                                                          \
                    memcpy(r, src + off, m * sizeof(T));                             \
                } else {  /* a broadcast input: its per elements repeat */           \
                    for (i = 0; i < m; ) {                                           \
                        size_t run = per - j < m - i ? per - j : m - i;              \
                        memcpy(r + i, src + j, run * sizeof(T));                     \
                        i += run;                                                    \
                        j = 0;                                                       \
                    }                                                                \
                }                                                                    \
            }                                                                        \
            if (tbl && p->op != AGC_F_STORE) tbl[p->r] = r;                          \
            switch (p->op) {                                                         \
            case AGC_F_LOAD:                                                         \
                break;                                                               \
            case AGC_F_STORE: {                                                      \
                T *dst = out[(size_t)p->s] + off;                                    \
                if (dst != a)  /* (else made there by the instruction before) */     \
                    for (i = 0; i < m; i++) dst[i] = a[i];                           \
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
            case AGC_F_DIV_OTHER_BWD:  /* (c read above, before r's entry moves) */  \
                for (i = 0; i < m; i++) r[i] = -a[i] * ((b[i] / c[i]) / c[i]);       \
                break;                                                               \
            case AGC_F_CALL: {  /* (a may be r: numpy's loops allow exact aliasing) */ \
                char *args[2];                                                       \
                ptrdiff_t dims = (ptrdiff_t)m, steps[2] = {sizeof(T), sizeof(T)};     \
                args[0] = (char *)a;                                                 \
                args[1] = (char *)r;                                                 \
                p->loop(args, &dims, steps, p->loop_data);                           \
                break; }                                                             \
            }                                                                        \
        }                                                                            \
    }                                                                                \
    free(tbl);                                                                       \
}

DEFINE_FUSE(agc_fuse_run_f32, float, expf, logf, sqrtf, tanhf)
DEFINE_FUSE(agc_fuse_run_f64, double, exp, log, sqrt, tanh)
