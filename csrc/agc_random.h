/* PyTorch's CPU random streams, reproduced bit for bit.
 *
 * The generator is ATen's CPUGeneratorImpl: a 32-bit Mersenne Twister (mt19937) seeded
 * with init_genrand, plus the cached second Box-Muller sample of the double (and
 * float) normal distribution. Every sampler below is the transformation ATen's CPU
 * kernels apply to that stream (aten/src/ATen/core/DistributionsHelper.h,
 * TransformationHelper.h, native/cpu/DistributionTemplates.h, Distributions.cpp),
 * in the same order and the same floating-point type, so that a seeded program draws
 * the numbers PyTorch draws. Plain C, no Python API; each function fills n values of a
 * contiguous buffer in the order PyTorch's kernel visits them.
 */
#ifndef AGC_RANDOM_H
#define AGC_RANDOM_H

#include <stdint.h>

#define AGC_MT_N 624
/* sizeof(CPUGeneratorImplState) in PyTorch: the byte layout of get_state/set_state */
#define AGC_GEN_STATE_BYTES 5056

typedef struct agc_gen {
    uint64_t seed;
    int32_t left;
    int32_t seeded;
    uint32_t next;
    uint32_t state[AGC_MT_N];
    double next_double_normal;
    float next_float_normal;
    int has_next_double_normal;
    int has_next_float_normal;
} agc_gen;

void agc_gen_seed(agc_gen *g, uint64_t seed);
uint32_t agc_gen_random(agc_gen *g);
uint64_t agc_gen_random64(agc_gen *g);
void agc_gen_get_state(const agc_gen *g, unsigned char *out);
/* 0 on success, -1 if the bytes do not hold a valid mt19937 state (g unchanged) */
int agc_gen_set_state(agc_gen *g, const unsigned char *in);

/* uniform_real_distribution<T>(from, to): `digits` mantissa bits of one 32-bit draw,
 * computed in float (float32: 24 bits, float16: 11 bits; the caller rounds to half). */
void agc_uniform_float(agc_gen *g, float *out, int64_t n, float from, float to, int digits);
/* double: 53 bits of one 64-bit draw */
void agc_uniform_double(agc_gen *g, double *out, int64_t n, double from, double to);

/* normal_distribution<double>: Box-Muller with the generator's cached second sample
 * (the serial kernel, used below 16 elements and for non-contiguous tensors) */
void agc_normal_serial(agc_gen *g, double *out, int64_t n, double mean, double std);
/* normal_fill (n >= 16, contiguous): uniforms first, then 16 at a time; when n is not
 * a multiple of 16 the last 16 are redrawn and transformed again. */
void agc_normal_fill_double(agc_gen *g, double *out, int64_t n, double mean, double std);
void agc_normal_fill_float(agc_gen *g, float *out, int64_t n, float mean, float std);
/* float16 (n >= 16, contiguous): 16 uniforms at a time, each block transformed in
 * float; a last partial block draws 16 more and overwrites the last 16 values. The
 * caller rounds to half. avx2: the AVX2 kernel's arithmetic. */
void agc_normal_fill_half(agc_gen *g, float *out, int64_t n, float mean, float std, int avx2);
/* the AVX2 kernel's float arithmetic (float log/sin/cos, fused multiply-add) */
void agc_normal_fill_float_avx2(agc_gen *g, float *out, int64_t n, float mean, float std);

void agc_exponential(agc_gen *g, double *out, int64_t n, double lambda);
void agc_cauchy(agc_gen *g, double *out, int64_t n, double median, double sigma);
void agc_log_normal(agc_gen *g, double *out, int64_t n, double mean, double std);
void agc_geometric(agc_gen *g, double *out, int64_t n, double p);

/* random_(from, to): (draw % range) + from, with a 64-bit draw when range >= 2^32 and
 * use64 (int64/float/double dtypes), else a 32-bit one */
void agc_random_from_to(agc_gen *g, int64_t *out, int64_t n, uint64_t range, int64_t base,
                        int use64);
/* random_(from=INT64_MIN, to=None): a full 64-bit draw */
void agc_random_full64(agc_gen *g, int64_t *out, int64_t n);
/* random_(): draw % modulus (modulus 0: draw & 1, for bool); use64 for int64/double */
void agc_random_default(agc_gen *g, int64_t *out, int64_t n, uint64_t modulus, int use64);

/* bernoulli: u < p with a double uniform (scalar p, or a double p per element) */
void agc_bernoulli_scalar(agc_gen *g, unsigned char *out, int64_t n, double p);
void agc_bernoulli_double_p(agc_gen *g, unsigned char *out, int64_t n, const double *p);
/* a float p per element: float uniform (24 bits) */
void agc_bernoulli_float_p(agc_gen *g, unsigned char *out, int64_t n, const float *p);
/* 2: AVX-512 (F, BW, DQ, VL) and FMA; 1: AVX2 and FMA; 0: neither */
int agc_cpu_has_avx2(void);
/* whether multiply-adds are fused, as in PyTorch's vectorised-CPU kernels */
void agc_random_set_fused(int fused);

/* randperm: Fisher-Yates over 0..n-1 with 32-bit draws */
void agc_randperm(agc_gen *g, int64_t *out, int64_t n);

/* sample_poisson per rate; sample_binomial per (count, prob), double or float math */
void agc_poisson(agc_gen *g, double *out, int64_t n, const double *rates);
void agc_binomial_double(agc_gen *g, double *out, int64_t n, const double *count,
                         const double *prob);
void agc_binomial_float(agc_gen *g, float *out, int64_t n, const float *count,
                        const float *prob);

/* multinomial with replacement, one distribution row: cumulative sums in the row's
 * type (double), normalised, then a binary search per double uniform */
void agc_multinomial_row(agc_gen *g, int64_t *out, int64_t n_sample, double *cum,
                         int64_t n_categories);

/* _standard_gamma: ATen's sample_gamma per alpha (its scalar_t arithmetic in the
 * tensor's type), floored at the type's smallest normal */
void agc_standard_gamma_double(agc_gen *g, double *out, int64_t n, const double *alpha);
void agc_standard_gamma_float(agc_gen *g, float *out, int64_t n, const float *alpha);
/* _sample_dirichlet's first pass: a double gamma per (double) alpha */
void agc_dirichlet_gamma(agc_gen *g, double *out, int64_t n, const double *alpha);
/* gamma.sum(-1) of _sample_dirichlet's rows (n doubles each) in ATen's summation order */
void agc_dirichlet_row_sums(const double *x, int64_t rows, int64_t n, double *out);
/* _standard_gamma_grad(alpha, x) and _dirichlet_grad(x, alpha, total), elementwise */
void agc_standard_gamma_grad_double(double *out, int64_t n, const double *alpha,
                                    const double *x);
void agc_standard_gamma_grad_float(float *out, int64_t n, const float *alpha, const float *x);
void agc_dirichlet_grad_double(double *out, int64_t n, const double *x, const double *alpha,
                               const double *total);
void agc_dirichlet_grad_float(float *out, int64_t n, const float *x, const float *alpha,
                              const float *total);

#endif
