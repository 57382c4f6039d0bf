/* Elementwise kernels for small contiguous float arrays.
 *
 * On arrays of a few dozen elements numpy's ufunc dispatch costs more than the
 * arithmetic; these loops skip it. The Cython ops call them for C-contiguous
 * float32/float64 operands of equal shape (or an array and a scalar) below
 * AGC_SMALL_N elements, and numpy for everything else; relu and the backward
 * formulas call them at every size (they are one pass where numpy's are two). */
#ifndef AGC_KERNELS_H
#define AGC_KERNELS_H

#include <stddef.h>
#include <stdint.h>   /* a C library header: it defines __GLIBC__ for the test below */

/* The loops over large arrays are where the vector width decides: with GCC or Clang
 * on x86-64 Linux (glibc's ifunc) each such function is also compiled for AVX2 and
 * the loader picks the version the CPU runs (numpy's loops dispatch the same way);
 * the baseline x86-64 build has SSE2 only, half the width. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__GLIBC__) && defined(__linux__)
#define AGC_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define AGC_CLONES
#endif

#define AGC_SMALL_N 2048

/* The op codes, one row each: X(NAME, CALLS_LIBM, EXPR). The row gives the enum value
 * AGC_<NAME>, the loop's expression in agc_kernels.c (of the element v, of type T, with
 * the type's libm functions EXP, LOG, SQRT, SIN, COS, TANH, FABS) and whether that
 * expression calls libm per element (the Cython ops hand large arrays of those to
 * numpy's vectorised loops: agc_unary_calls_libm). A new unary kernel is one row here
 * and its name in autograd_core/_core/csrc.pxd (Note [Adding a C kernel]). */
#define AGC_UNARY_OPS(X)                                                        \
    X(NEG, 0, -v)                                                               \
    X(ABS, 0, FABS(v))                                                          \
    X(EXP, 1, EXP(v))                                                           \
    X(LOG, 1, LOG(v))                                                           \
    X(SQRT, 0, SQRT(v))                                                         \
    X(SIN, 1, SIN(v))                                                           \
    X(COS, 1, COS(v))                                                           \
    X(TANH, 1, TANH(v))                                                         \
    X(SIGMOID, 1, (T)1 / ((T)1 + EXP(-v)))                                      \
    /* torch.relu is clamp_min(x, 0): NaN and -0.0 stay as they are */          \
    X(RELU, 0, v < 0 ? (T)0 : v)

/* X(NAME, EXPR): out = EXPR of the elements x (of a) and y (of b or the scalar). */
#define AGC_BINARY_OPS(X)                                                       \
    X(ADD, x + y)                                                               \
    X(SUB, x - y)                                                               \
    X(MUL, x * y)                                                               \
    X(DIV, x / y)                                                               \
    X(TANH_BACKWARD, x * ((T)1 - y * y))       /* y the saved tanh output */    \
    X(SIGMOID_BACKWARD, x * (((T)1 - y) * y))  /* y the saved sigmoid output */ \
    X(THRESHOLD_BACKWARD, y <= 0 ? (T)0 : x)   /* y relu's saved output (x nan y passes x) */

#define AGC_UNARY_ENUM_(NAME, LIBM, EXPR) AGC_##NAME,
#define AGC_BINARY_ENUM_(NAME, EXPR) AGC_##NAME,
enum agc_unary_op { AGC_UNARY_OPS(AGC_UNARY_ENUM_) };
enum agc_binary_op { AGC_BINARY_OPS(AGC_BINARY_ENUM_) };
#undef AGC_UNARY_ENUM_
#undef AGC_BINARY_ENUM_

/* Whether unary op `op`'s loop calls libm once per element (the flag of its row). */
static inline int agc_unary_calls_libm(int op)
{
    switch (op) {
#define AGC_UNARY_LIBM_(NAME, LIBM, EXPR) case AGC_##NAME: return LIBM;
    AGC_UNARY_OPS(AGC_UNARY_LIBM_)
#undef AGC_UNARY_LIBM_
    }
    return 0;
}

void agc_unary_f32(int op, const float *x, float *out, size_t n);
void agc_unary_f64(int op, const double *x, double *out, size_t n);

/* out = a OP b, all n elements. */
void agc_binary_f32(int op, const float *a, const float *b, float *out, size_t n);
void agc_binary_f64(int op, const double *a, const double *b, double *out, size_t n);

/* out = a OP s (scalar_first == 0) or s OP a (scalar_first != 0); the scalar is
 * rounded to the array's precision first, as PyTorch does with a wrapped number. */
void agc_binary_scalar_f32(int op, const float *a, double s, int scalar_first, float *out, size_t n);
void agc_binary_scalar_f64(int op, const double *a, double s, int scalar_first, double *out, size_t n);

#endif
