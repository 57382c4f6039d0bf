/* Elementwise kernels for small contiguous float arrays.
 *
 * On arrays of a few dozen elements numpy's ufunc dispatch costs more than the
 * arithmetic; these loops skip it. The Cython ops call them only for C-contiguous
 * float32/float64 operands of equal shape (or an array and a scalar) below
 * AGC_SMALL_N elements, and numpy for everything else. */
#ifndef AGC_KERNELS_H
#define AGC_KERNELS_H

#include <stddef.h>

#define AGC_SMALL_N 2048

enum agc_unary_op {
    AGC_NEG, AGC_ABS, AGC_EXP, AGC_LOG, AGC_SQRT, AGC_SIN, AGC_COS,
    AGC_TANH, AGC_SIGMOID, AGC_RELU
};

enum agc_binary_op {
    AGC_ADD, AGC_SUB, AGC_MUL, AGC_DIV,
    AGC_TANH_BACKWARD,    /* a * (1 - b*b), b the saved tanh output */
    AGC_SIGMOID_BACKWARD, /* a * b * (1 - b), b the saved sigmoid output */
    AGC_THRESHOLD_BACKWARD /* b > 0 ? a : 0, b relu's saved output (nan b gives 0) */
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
