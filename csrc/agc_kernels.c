/* The loops below are written to be auto-vectorized (the release build's -O3 does
 * it; -O2 only vectorizes "very cheap" loops, which a loop in a switch with an
 * unknown trip count is not). */

#include "agc_kernels.h"

#include <math.h>

#define DEFINE_UNARY(NAME, T, EXP, LOG, SQRT, SIN, COS, TANH, FABS)               \
    AGC_CLONES void NAME(int op, const T *x, T *out, size_t n) {                           \
        size_t i;                                                               \
        switch (op) {                                                           \
        case AGC_NEG: for (i = 0; i < n; i++) out[i] = -x[i]; break;            \
        case AGC_ABS: for (i = 0; i < n; i++) out[i] = FABS(x[i]); break;       \
        case AGC_EXP: for (i = 0; i < n; i++) out[i] = EXP(x[i]); break;        \
        case AGC_LOG: for (i = 0; i < n; i++) out[i] = LOG(x[i]); break;        \
        case AGC_SQRT: for (i = 0; i < n; i++) out[i] = SQRT(x[i]); break;      \
        case AGC_SIN: for (i = 0; i < n; i++) out[i] = SIN(x[i]); break;        \
        case AGC_COS: for (i = 0; i < n; i++) out[i] = COS(x[i]); break;        \
        case AGC_TANH: for (i = 0; i < n; i++) out[i] = TANH(x[i]); break;      \
        case AGC_SIGMOID:                                                       \
            for (i = 0; i < n; i++) out[i] = (T)1 / ((T)1 + EXP(-x[i]));        \
            break;                                                              \
        case AGC_RELU:                                                          \
            /* torch.relu is clamp_min(x, 0): NaN and -0.0 stay as they are */   \
            for (i = 0; i < n; i++) out[i] = x[i] < 0 ? (T)0 : x[i];            \
            break;                                                              \
        }                                                                       \
    }

DEFINE_UNARY(agc_unary_f32, float, expf, logf, sqrtf, sinf, cosf, tanhf, fabsf)
DEFINE_UNARY(agc_unary_f64, double, exp, log, sqrt, sin, cos, tanh, fabs)

#define BINARY_LOOP(EXPR)                                                       \
    for (size_t i = 0; i < n; i++) {                                            \
        T x = a[i], y = B(i);                                                   \
        out[i] = (EXPR);                                                        \
    }                                                                           \
    break;

#define BINARY_SWITCH                                                           \
    switch (op) {                                                               \
    case AGC_ADD: BINARY_LOOP(x + y)                                            \
    case AGC_SUB: BINARY_LOOP(x - y)                                            \
    case AGC_MUL: BINARY_LOOP(x * y)                                            \
    case AGC_DIV: BINARY_LOOP(x / y)                                            \
    case AGC_TANH_BACKWARD: BINARY_LOOP(x * ((T)1 - y * y))                     \
    case AGC_SIGMOID_BACKWARD: BINARY_LOOP(x * (((T)1 - y) * y))                \
    case AGC_THRESHOLD_BACKWARD: BINARY_LOOP(y <= 0 ? (T)0 : x)                 \
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
