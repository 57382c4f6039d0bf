/* The fused elementwise block of compiled mode (Note [Fused blocks] in
 * autograd_core/_dynamo/__init__.py): a straight-line program of elementwise
 * instructions over registers, run tile by tile over same-shape contiguous float
 * arrays (an input may be a shorter array repeated: a broadcast operand), so that
 * intermediates stay in a few cache-resident tiles and nothing is allocated per
 * instruction. Plain C, no Python API. */
#ifndef AGC_FUSE_H
#define AGC_FUSE_H

#include <stddef.h>

/* Each row: the op code AGC_F_<NAME>. `a`, `b` are registers, `s` the scalar operand
 * (rounded to the element type first, as eager rounds a wrapped number). The
 * expressions are those of csrc/agc_kernels.c's loops (same libm calls, same
 * operation order), so that a fused block's results equal eager's bit for bit. */
enum agc_fuse_op {
    AGC_F_LOAD,        /* r = input[k] (k in s); b > 0 (not a register): input k holds
                          b elements, repeated over the block (a broadcast operand whose
                          shape is a suffix of the block's) */
    AGC_F_STORE,       /* output[k] = a (k in s) */
    AGC_F_COPY,        /* r = a */
    AGC_F_ADD,         /* r = a + b */
    AGC_F_SUB,         /* r = a - b */
    AGC_F_MUL,         /* r = a * b */
    AGC_F_DIV,         /* r = a / b */
    AGC_F_ADDS,        /* r = a + s */
    AGC_F_SUBS,        /* r = a - s */
    AGC_F_RSUBS,       /* r = s - a */
    AGC_F_MULS,        /* r = a * s */
    AGC_F_DIVS,        /* r = a / s */
    AGC_F_RDIVS,       /* r = s / a */
    AGC_F_NEG,         /* r = -a */
    AGC_F_EXP,
    AGC_F_LOG,
    AGC_F_SQRT,
    AGC_F_TANH,
    AGC_F_SIGMOID,     /* 1 / (1 + exp(-a)) */
    AGC_F_RELU,        /* a < 0 ? 0 : a (NaN and -0.0 kept) */
    AGC_F_TANH_BWD,    /* a * (1 - b * b), b tanh's output */
    AGC_F_SIGMOID_BWD, /* a * ((1 - b) * b), b sigmoid's output */
    AGC_F_RELU_BWD,    /* b <= 0 ? 0 : a, b relu's output */
    AGC_F_DIV_OTHER_BWD, /* -a * ((b / c) / c): div's gradient for its divisor; c in s */
    AGC_F_CALL         /* r = loop(a): the instruction's numpy inner loop on the tile */
};

/* A numpy ufunc's inner loop of one input and one output (PyUFuncGenericFunction).
 * Eager computes exp/tanh of arrays above its kernels' size with numpy's vectorised
 * loops; a block calls the very loop eager's ufunc call runs on each tile, and as the
 * loops compute each element on its own, the tiles' values are the whole array's bit
 * for bit (compiled mode checks this of each loop before using it). */
typedef void (*agc_fuse_loop)(char **args, const ptrdiff_t *dims, const ptrdiff_t *steps,
                              void *data);

typedef struct {
    int op;
    int r;        /* destination register */
    int a, b;     /* operand registers (-1: none; LOAD's b: a broadcast's period) */
    double s;     /* scalar operand, or the input/output index of LOAD/STORE, or
                     (DIV_OTHER_BWD) the third register */
    agc_fuse_loop loop;  /* CALL's loop and its data (unused by the other ops) */
    void *loop_data;
} agc_fuse_ins;

/* The number of elements of one register's tile: the default, and the most a caller
 * may pass (a block of large arrays calling numpy's loops takes longer tiles: each call
 * and each saved row's stretch cost less per element). */
#define AGC_FUSE_TILE 512
#define AGC_FUSE_TILE_MAX 16384

/* Run the program over n elements, tile elements at a time (1 <= tile <=
 * AGC_FUSE_TILE_MAX): inputs in[0..], outputs out[0..] (each n elements of the type),
 * nreg registers in scratch (nreg * tile elements). */
void agc_fuse_run_f32(const agc_fuse_ins *prog, size_t nins, const float *const *in,
                      float *const *out, size_t n, float *scratch, size_t tile);
void agc_fuse_run_f64(const agc_fuse_ins *prog, size_t nins, const double *const *in,
                      double *const *out, size_t n, double *scratch, size_t tile);

#endif
