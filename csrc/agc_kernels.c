/* The loops below are written to be auto-vectorized (the release build's -O3 does
 * it; -O2 only vectorizes "very cheap" loops, which a loop in a switch with an
 * unknown trip count is not). */

#include "agc_kernels.h"

#include <math.h>

#define UNARY_CASE(NAME, CALLS_LIBM, EXPR)                                          \
    case AGC_##NAME: for (i = 0; i < n; i++) { T v = x[i]; out[i] = (EXPR); } break;

/* The rows' EXP, LOG, ... are the libm function of each type: LIBM(exp) is expf in the
 * float definition and exp in the double one. */
#define EXP(v) LIBM(exp)(v)
#define LOG(v) LIBM(log)(v)
#define SQRT(v) LIBM(sqrt)(v)
#define SIN(v) LIBM(sin)(v)
#define COS(v) LIBM(cos)(v)
#define TANH(v) LIBM(tanh)(v)
#define FABS(v) LIBM(fabs)(v)

#define DEFINE_UNARY(NAME, T_)                                                  \
    AGC_CLONES void NAME(int op, const T_ *x, T_ *out, size_t n) {                         \
        typedef T_ T;                                                           \
        size_t i;                                                               \
        switch (op) {                                                           \
        AGC_UNARY_OPS(UNARY_CASE)                                               \
        }                                                                       \
    }

#define LIBM(fn) fn##f
DEFINE_UNARY(agc_unary_f32, float)
#undef LIBM
#define LIBM(fn) fn
DEFINE_UNARY(agc_unary_f64, double)
#undef LIBM

#define BINARY_LOOP(EXPR)                                                       \
    for (size_t i = 0; i < n; i++) {                                            \
        T x = a[i], y = B(i);                                                   \
        out[i] = (EXPR);                                                        \
    }                                                                           \
    break;

#define BINARY_CASE(NAME, EXPR) case AGC_##NAME: BINARY_LOOP(EXPR)

#define BINARY_SWITCH                                                           \
    switch (op) {                                                               \
    AGC_BINARY_OPS(BINARY_CASE)                                                 \
    }

#define DEFINE_BINARY(NAME, T_)                                                 \
    AGC_CLONES void NAME(int op, const T_ *a, const T_ *b, T_ *out, size_t n) {           \
        typedef T_ T;                                                           \
        BINARY_SWITCH                                                           \
    }
#define B(i) b[i]
DEFINE_BINARY(agc_binary_f32, float)
DEFINE_BINARY(agc_binary_f64, double)
#undef B

/* A scalar on the left is handled by swapping operands for the commutative ops and
 * by its own loop for SUB and DIV. */
#define DEFINE_BINARY_SCALAR(NAME, T_)                                          \
    AGC_CLONES void NAME(int op, const T_ *a, double s_, int scalar_first, T_ *out, size_t n) { \
        typedef T_ T;                                                           \
        const T s = (T)s_;                                                      \
        if (scalar_first && op == AGC_SUB) {                                    \
            for (size_t i = 0; i < n; i++) out[i] = s - a[i];                   \
            return;                                                             \
        }                                                                       \
        if (scalar_first && op == AGC_DIV) {                                    \
            for (size_t i = 0; i < n; i++) out[i] = s / a[i];                   \
            return;                                                             \
        }                                                                       \
        BINARY_SWITCH                                                           \
    }
#define B(i) s
DEFINE_BINARY_SCALAR(agc_binary_scalar_f32, float)
DEFINE_BINARY_SCALAR(agc_binary_scalar_f64, double)
#undef B
