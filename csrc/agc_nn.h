/* The loops of the convolution and pooling ops (autograd_core/ops/nn.pyx).
 *
 * Plain C without the Python API: the ops check shapes, dtypes and layouts, allocate
 * the outputs, and call these without the GIL. Every array is C-contiguous; inputs
 * are (N, C, H, W) planes, and the columns of a convolution are laid out K-major,
 * (C*KH*KW, N*OH*OW), so that one GEMM covers the whole batch. */
#ifndef AGC_NN_H
#define AGC_NN_H

#include <stddef.h>
#include <stdint.h>

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

#endif
