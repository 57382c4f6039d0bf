/* The loops of the convolution, pooling, threshold, softmax and nll_loss ops
 * (autograd_core/ops/nn.pyx).
 *
 * Plain C without the Python API: the ops check shapes, dtypes and layouts, allocate
 * the outputs, and call these (without the GIL over large arrays). Every array is
 * C-contiguous; inputs are (N, C, H, W) planes, and the columns of a convolution are
 * laid out K-major, (C*KH*KW, N*OH*OW), so that one GEMM covers the whole batch.
 *
 * Large loops run on the threads of the pool (agc_parallel.h), split over images,
 * planes or rows (Note [Bitwise-identical parallel loops]); the reductions of nll_loss
 * stay on one thread. */
#ifndef AGC_NN_H
#define AGC_NN_H

#include <stddef.h>
#include <stdint.h>

#include "agc_parallel.h"

/* The pool's agc_parallel_for, handed over by the nn module at import (NULL: every loop
 * on the calling thread). */
void agc_nn_set_parallel_for(agc_parallel_for_fn fn);

/* Sliding a (KH, KW) window with dilation (DH, DW) and stride (SH, SW) over an
 * (H, W) plane padded by (PH, PW) on top and left, giving (OH, OW) positions. */
typedef struct {
    ptrdiff_t H, W, KH, KW, DH, DW, PH, PW, SH, SW, OH, OW;
} agc_geom2d;

/* cols[(c*KH + i)*KW + j, (n*OH + oh)*OW + ow] = x[n, c, oh*SH - PH + i*DH, ow*SW - PW + j*DW],
 * 0 where that is padding. */
void agc_im2col_kmajor_f32(const float *x, float *cols, ptrdiff_t N, ptrdiff_t C, const agc_geom2d *g);
void agc_im2col_kmajor_f64(const double *x, double *cols, ptrdiff_t N, ptrdiff_t C, const agc_geom2d *g);

/* The transpose of im2col: x (N, C, H, W) = the sum of each position's entries in cols. */
void agc_col2im_kmajor_f32(const float *cols, float *x, ptrdiff_t N, ptrdiff_t C, const agc_geom2d *g);
void agc_col2im_kmajor_f64(const double *cols, double *x, ptrdiff_t N, ptrdiff_t C, const agc_geom2d *g);

/* out[n, oc, l] = prod[oc, n*L + l] + bias[oc] (bias NULL: no bias): a convolution's
 * GEMM result (OC, N*L) to the (N, OC, L) layout of its output, with the bias, in one pass. */
void agc_conv_out_f32(const float *prod, const float *bias, float *out, ptrdiff_t N, ptrdiff_t OC, ptrdiff_t L);
void agc_conv_out_f64(const double *prod, const double *bias, double *out, ptrdiff_t N, ptrdiff_t OC, ptrdiff_t L);

/* The reverse for the gradient: gt[oc, n*L + l] = g[n, oc, l], and (gbias not NULL)
 * gbias[oc] = the sum of g[:, oc, :], in one pass. */
void agc_conv_grad_t_f32(const float *g, float *gt, float *gbias, ptrdiff_t N, ptrdiff_t OC, ptrdiff_t L);
void agc_conv_grad_t_f64(const double *g, double *gt, double *gbias, ptrdiff_t N, ptrdiff_t OC, ptrdiff_t L);

/* 2-D max pooling of `planes` (H, W) planes: out and idx are (planes, OH, OW); idx is the
 * flat h*W + w position of each maximum within its plane. As PyTorch's CPU kernel: only
 * positions inside the plane are read, the first maximum wins, and a NaN wins over
 * every number (the last NaN of a window). */
void agc_maxpool2d_f32(const float *x, float *out, int64_t *idx, ptrdiff_t planes, const agc_geom2d *g);
void agc_maxpool2d_f64(const double *x, double *out, int64_t *idx, ptrdiff_t planes, const agc_geom2d *g);

/* max pooling's gradient: gx (planes, HW) = 0, then gx[p, idx[p, l]] += gout[p, l] for
 * the L outputs of each plane. Returns -1 (gx partly written) if an index is outside
 * [0, HW), else 0. */
int agc_maxpool2d_backward_f32(const float *gout, const int64_t *idx, float *gx, ptrdiff_t planes,
                               ptrdiff_t L, ptrdiff_t HW);
int agc_maxpool2d_backward_f64(const double *gout, const int64_t *idx, double *gx, ptrdiff_t planes,
                               ptrdiff_t L, ptrdiff_t HW);

/* threshold: out = x <= th ? value : x (a NaN x stays NaN); th and value are rounded to
 * the element type first, as PyTorch converts the scalars to the tensor's. */
void agc_threshold_f32(const float *x, double th, double value, float *out, size_t n);
void agc_threshold_f64(const double *x, double th, double value, double *out, size_t n);

/* Per-sample outer products: out (B, O, N) with out[b, o, i] = g[b, o] * x[b, i], for
 * g (B, O) and x (B, N) (the per-sample weight gradients of a linear layer, one row
 * per sample). */
void agc_rows_outer_f32(const float *g, const float *x, float *out, ptrdiff_t B, ptrdiff_t O,
                        ptrdiff_t N);
void agc_rows_outer_f64(const double *g, const double *x, double *out, ptrdiff_t B, ptrdiff_t O,
                        ptrdiff_t N);

/* softmax (log_ == 0) or log_softmax over each of `rows` contiguous rows of n values, one
 * row at a time (as PyTorch's last-dim kernel: the row's maximum subtracted, a NaN in a
 * row makes the row NaN); the sum of the exponentials accumulates in double. */
void agc_softmax_rows_f32(const float *x, float *out, ptrdiff_t rows, ptrdiff_t n, int log_);
void agc_softmax_rows_f64(const double *x, double *out, ptrdiff_t rows, ptrdiff_t n, int log_);

/* Their gradients, row by row, for the incoming gradient g and the saved output y:
 * log_softmax: out = g - exp(y) * sum(g); softmax: out = y * (g - sum(g * y)).
 * out may be g. */
void agc_softmax_backward_rows_f32(const float *g, const float *y, float *out, ptrdiff_t rows,
                                   ptrdiff_t n, int log_);
void agc_softmax_backward_rows_f64(const double *g, const double *y, double *out, ptrdiff_t rows,
                                   ptrdiff_t n, int log_);

/* PyTorch's reduction enum. */
enum { AGC_REDUCTION_NONE = 0, AGC_REDUCTION_MEAN = 1, AGC_REDUCTION_SUM = 2 };

/* nll_loss of an (N, C, S) input x (S = 1 for (N, C); a 4-D (N, C, H, W) one has S = H*W)
 * with targets target[n*S + s] (C-contiguous int64): the row (n, s) with a target t other
 * than ignore_index weighs w = weight[t] (1 without weight) and loses -x[n, t, s] * w.
 * NONE: out[n*S + s] = each row's loss (0 for an ignored row); SUM: out[0] = their sum;
 * MEAN: out[0] = that sum / the sum of the weights (NaN when it is 0). The sums accumulate
 * in double. Returns the first row whose target is neither ignore_index nor in [0, C)
 * (out then incomplete), else -1. */
ptrdiff_t agc_nll_loss_f32(const float *x, const int64_t *target, const float *weight,
                           int64_t ignore_index, ptrdiff_t N, ptrdiff_t C, ptrdiff_t S,
                           int reduction, float *out);
ptrdiff_t agc_nll_loss_f64(const double *x, const int64_t *target, const double *weight,
                           int64_t ignore_index, ptrdiff_t N, ptrdiff_t C, ptrdiff_t S,
                           int reduction, double *out);

/* Its gradient into gx (N, C, S), all zero but at each row's target: w * -g, g the row's
 * gout[n*S + s] (NONE) or gout[0] (SUM) or gout[0] / the sum of the weights (MEAN), as
 * PyTorch's kernel orders it. Returns as agc_nll_loss. */
ptrdiff_t agc_nll_loss_backward_f32(const float *gout, const int64_t *target, const float *weight,
                                    int64_t ignore_index, ptrdiff_t N, ptrdiff_t C, ptrdiff_t S,
                                    int reduction, float *gx);
ptrdiff_t agc_nll_loss_backward_f64(const double *gout, const int64_t *target, const double *weight,
                                    int64_t ignore_index, ptrdiff_t N, ptrdiff_t C, ptrdiff_t S,
                                    int reduction, double *gx);

#endif
