/* The special functions of torch.special (Bessel, Airy, the orthogonal polynomials,
 * erfcx, ndtri, log_ndtr, Hurwitz zeta, ...) as scalar functions of doubles.
 *
 * PyTorch's CPU kernels (aten/src/ATen/native/Math.h) evaluate the Cephes
 * approximations (Moshier's coefficients, 3-clause BSD) and Johnson's erfcx; the
 * functions here evaluate the same approximations, so the values agree with
 * PyTorch's to rounding. They compute in double: the ops round the result to a
 * float32 input's dtype, which stays within PyTorch's float32 tolerances (PyTorch
 * evaluates the same series in float32). Where PyTorch's result depends on the dtype
 * by more than rounding (the polynomials' recurrences overflow in float32), there is
 * a float variant. */
#ifndef AGC_SPECIAL_H
#define AGC_SPECIAL_H

#include <stdint.h>

double agc_airy_ai(double x);
double agc_bessel_j0(double x);
double agc_bessel_j1(double x);
double agc_bessel_y0(double x);
double agc_bessel_y1(double x);
double agc_modified_bessel_i0(double x);
/* I0 of a float evaluated in float, as PyTorch's float32 i0 and kaiser_window */
float agc_i0f(float x);
double agc_modified_bessel_i1(double x);
double agc_modified_bessel_k0(double x);
double agc_modified_bessel_k1(double x);
double agc_scaled_modified_bessel_k0(double x);
double agc_scaled_modified_bessel_k1(double x);
double agc_spherical_bessel_j0(double x);
double agc_i0e(double x);
double agc_i1(double x);
double agc_i1e(double x);
double agc_erfcx(double x);
double agc_ndtri(double x);
double agc_log_ndtr(double x);
double agc_entr(double x);

/* two arguments */
double agc_zeta(double x, double q);        /* Hurwitz zeta(x, q) */
double agc_xlog1py(double x, double y);

/* the polynomials of degree n (a float n is truncated toward zero, as PyTorch's
 * static_cast<int64_t>; nan, inf and a negative n give 0), computed in double; the
 * ..._f variants compute in float, as PyTorch's float32 kernels (their recurrences
 * overflow there, and the Hermite ones give nan past degree 128 instead of 512) */
#define AGC_POLYNOMIAL_DECLS(S)                          \
    double agc_chebyshev_t##S(double x, double n);          \
    double agc_chebyshev_u##S(double x, double n);          \
    double agc_chebyshev_v##S(double x, double n);          \
    double agc_chebyshev_w##S(double x, double n);          \
    double agc_shifted_chebyshev_t##S(double x, double n);  \
    double agc_shifted_chebyshev_u##S(double x, double n);  \
    double agc_shifted_chebyshev_v##S(double x, double n);  \
    double agc_shifted_chebyshev_w##S(double x, double n);  \
    double agc_hermite_h##S(double x, double n);            \
    double agc_hermite_he##S(double x, double n);           \
    double agc_laguerre_l##S(double x, double n);           \
    double agc_legendre_p##S(double x, double n);
AGC_POLYNOMIAL_DECLS()
AGC_POLYNOMIAL_DECLS(f)

#endif
