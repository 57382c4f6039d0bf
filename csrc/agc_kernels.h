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

enum agc_unary_op {
    AGC_NEG, AGC_ABS, AGC_EXP, AGC_LOG, AGC_SQRT, AGC_SIN, AGC_COS,
    AGC_TANH, AGC_SIGMOID, AGC_RELU
};

enum agc_binary_op {
    AGC_ADD, AGC_SUB, AGC_MUL, AGC_DIV,
    AGC_TANH_BACKWARD,    /* a * (1 - b*b), b the saved tanh output */
    AGC_SIGMOID_BACKWARD, /* a * b * (1 - b), b the saved sigmoid output */
    AGC_THRESHOLD_BACKWARD /* b <= 0 ? 0 : a, b relu's saved output (a nan b passes a) */
};

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
