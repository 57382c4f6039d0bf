/* PyTorch's CPU random streams; see agc_random.h. Compiled without FMA contraction
 * (plain x86-64 code): where ATen's kernel fuses a multiply-add, fma() says so. */
#define _GNU_SOURCE /* sincos, sincosf: the calls PyTorch's generic normal kernel makes */
#include "agc_random.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The results must not depend on the compiler: no contraction of a * b + c into one
 * rounding except where written as fma (also inside the FMA-targeted functions below). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF           /* clang ignores GCC's optimize pragma */
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* Functions run only when the CPU has AVX2 and FMA (PyTorch's vectorised kernels run
 * there too): compiled for it so that fmaf is one instruction, not a library call. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define AGC_FMA_TARGET __attribute__((target("avx2,fma")))
#else
#define AGC_FMA_TARGET
#endif
#define AGC_INLINE static inline __attribute__((always_inline))

#define MT_M 397
#define MATRIX_A 0x9908b0dfU
#define UMASK 0x80000000U
#define LMASK 0x7fffffffU

static const double PI = 3.14159265358979323846;

/* PyTorch's AVX2/AVX-512 kernels are compiled with FMA contraction: x * a + b is one
 * rounding there. 0 for CPUs where PyTorch runs its DEFAULT kernels. */
static int fused = 1;

void agc_random_set_fused(int f) { fused = f; }

static inline double mul_add(double x, double a, double b)
{
    return fused ? fma(x, a, b) : x * a + b;
}

static inline float mul_addf(float x, float a, float b)
{
    return fused ? fmaf(x, a, b) : x * a + b;
}

int agc_cpu_has_avx2(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("fma"))
        return 2;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return 1;
#endif
    return 0;
}

/* ------------------------------------------------------------------ mt19937 */

void agc_gen_seed(agc_gen *g, uint64_t seed)
{
    g->seed = seed;
    g->seeded = 1;
    g->state[0] = (uint32_t)(seed & 0xffffffffU);
    for (int j = 1; j < AGC_MT_N; j++) {
        uint32_t prev = g->state[j - 1];
        g->state[j] = 1812433253U * (prev ^ (prev >> 30)) + (uint32_t)j;
    }
    g->left = 1;
    g->next = 0;
    g->has_next_double_normal = 0;
    g->has_next_float_normal = 0;
    g->next_double_normal = 0.0;
    g->next_float_normal = 0.0f;
}

static inline uint32_t mix_bits(uint32_t u, uint32_t v) { return (u & UMASK) | (v & LMASK); }

static inline uint32_t twist(uint32_t u, uint32_t v)
{
    return (mix_bits(u, v) >> 1) ^ ((v & 1U) ? MATRIX_A : 0U);
}

static void next_state(agc_gen *g)
{
    uint32_t *p = g->state;
    g->left = AGC_MT_N;
    g->next = 0;
    for (int j = AGC_MT_N - MT_M + 1; --j; p++)
        *p = p[MT_M] ^ twist(p[0], p[1]);
    for (int j = MT_M; --j; p++)
        *p = p[MT_M - AGC_MT_N] ^ twist(p[0], p[1]);
    *p = p[MT_M - AGC_MT_N] ^ twist(p[0], g->state[0]);
}

AGC_INLINE uint32_t gen_next(agc_gen *g)
{
    if (--g->left <= 0)
        next_state(g);
    uint32_t y = g->state[g->next++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

uint32_t agc_gen_random(agc_gen *g) { return gen_next(g); }

AGC_INLINE uint64_t gen_next64(agc_gen *g)
{
    uint32_t hi = gen_next(g);
    uint32_t lo = gen_next(g);
    return ((uint64_t)hi << 32) | lo;
}

uint64_t agc_gen_random64(agc_gen *g) { return gen_next64(g); }

/* CPUGeneratorImplState: {uint64 the_initial_seed; int left; int seeded; uint64 next;
 * uint64 state[624]; double normal_x, normal_y, normal_rho; int normal_is_valid;}
 * then {float next_float_normal_sample; bool is_next_float_normal_sample_valid;},
 * x86-64 alignment: offsets below. */
enum {
    OFF_SEED = 0, OFF_LEFT = 8, OFF_SEEDED = 12, OFF_NEXT = 16, OFF_STATE = 24,
    OFF_NORMAL_X = 24 + 8 * AGC_MT_N, OFF_NORMAL_Y = OFF_NORMAL_X + 8,
    OFF_NORMAL_RHO = OFF_NORMAL_Y + 8, OFF_NORMAL_VALID = OFF_NORMAL_RHO + 8,
    OFF_FLOAT_NORMAL = OFF_NORMAL_VALID + 8, OFF_FLOAT_VALID = OFF_FLOAT_NORMAL + 4,
};

void agc_gen_get_state(const agc_gen *g, unsigned char *out)
{
    memset(out, 0, AGC_GEN_STATE_BYTES);
    uint64_t next = g->next;
    int32_t valid = g->has_next_double_normal ? 1 : 0;
    double y = g->has_next_double_normal ? g->next_double_normal : 0.0;
    float fy = g->has_next_float_normal ? g->next_float_normal : 0.0f;
    memcpy(out + OFF_SEED, &g->seed, 8);
    memcpy(out + OFF_LEFT, &g->left, 4);
    memcpy(out + OFF_SEEDED, &g->seeded, 4);
    memcpy(out + OFF_NEXT, &next, 8);
    for (int j = 0; j < AGC_MT_N; j++) {
        uint64_t s = g->state[j];
        memcpy(out + OFF_STATE + 8 * j, &s, 8);
    }
    memcpy(out + OFF_NORMAL_Y, &y, 8);
    memcpy(out + OFF_NORMAL_VALID, &valid, 4);
    memcpy(out + OFF_FLOAT_NORMAL, &fy, 4);
    out[OFF_FLOAT_VALID] = g->has_next_float_normal ? 1 : 0;
}

int agc_gen_set_state(agc_gen *g, const unsigned char *in)
{
    agc_gen t;
    uint64_t next;
    int32_t valid;
    memcpy(&t.seed, in + OFF_SEED, 8);
    memcpy(&t.left, in + OFF_LEFT, 4);
    memcpy(&t.seeded, in + OFF_SEEDED, 4);
    memcpy(&next, in + OFF_NEXT, 8);
    t.next = (uint32_t)next;
    for (int j = 0; j < AGC_MT_N; j++) {
        uint64_t s;
        memcpy(&s, in + OFF_STATE + 8 * j, 8);
        t.state[j] = (uint32_t)s;
    }
    /* mt19937::is_valid */
    if (!(t.seeded == 1 && t.left > 0 && t.left <= AGC_MT_N && t.next <= AGC_MT_N))
        return -1;
    memcpy(&valid, in + OFF_NORMAL_VALID, 4);
    memcpy(&t.next_double_normal, in + OFF_NORMAL_Y, 8);
    t.has_next_double_normal = valid != 0;
    memcpy(&t.next_float_normal, in + OFF_FLOAT_NORMAL, 4);
    t.has_next_float_normal = in[OFF_FLOAT_VALID] != 0;
    *g = t;
    return 0;
}

/* ------------------------------------------------------------------ uniform */

static inline double uniform_double(agc_gen *g)
{
    return (double)(gen_next64(g) & ((1ULL << 53) - 1)) * (1.0 / 9007199254740992.0);
}

static inline float uniform_float(agc_gen *g)
{
    return (float)(gen_next(g) & ((1U << 24) - 1)) * (1.0f / 16777216.0f);
}

AGC_FMA_TARGET static void uniform_float_fused(agc_gen *g, float *out, int64_t n, float from,
                                               float to, uint32_t mask, float divisor)
{
    for (int64_t i = 0; i < n; i++) {
        float x = (float)(gen_next(g) & mask) * divisor;
        float r = fmaf(x, to - from, from);
        out[i] = r == to ? from : r;
    }
}

void agc_uniform_float(agc_gen *g, float *out, int64_t n, float from, float to, int digits)
{
    if (fused) {
        uniform_float_fused(g, out, n, from, to, (1U << digits) - 1,
                            1.0f / (float)(1U << digits));
        return;
    }
    uint32_t mask = (1U << digits) - 1;
    float divisor = 1.0f / (float)(1U << digits);
    for (int64_t i = 0; i < n; i++) {
        float x = (float)(gen_next(g) & mask) * divisor;
        float r = mul_addf(x, to - from, from);
        out[i] = r == to ? from : r;  /* rounding reached `to`: PyTorch returns `from` */
    }
}

void agc_uniform_double(agc_gen *g, double *out, int64_t n, double from, double to)
{
    for (int64_t i = 0; i < n; i++) {
        double r = mul_add(uniform_double(g), to - from, from);
        out[i] = r == to ? from : r;
    }
}


/* ------------------------------------------------------------------ AVX2 log / sincos
 * PyTorch's AVX2 normal kernel (normal_fill_16_AVX2) computes log, sin and cos with
 * avx_mathfun's log256_ps and sincos256_ps (Cephes' single-precision polynomials), as
 * its compiler emits them: some multiply-adds fused. Below is that arithmetic one lane at
 * a time, operation for operation (fmaf where the shipped kernel fuses), for the
 * arguments the kernel passes: log on (0, 1], sincos on [0, 2 pi). */

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define AGC_HAVE_AVX2_FILL 1
/* The same arithmetic as cephes_logf_avx2 / cephes_sincosf_avx2 and the scalar fill
 * below, eight lanes at a time (the instructions the shipped kernel runs); used when the
 * CPU has AVX2 and FMA. Bit-identical to the scalar version. */
AGC_FMA_TARGET static void normal_fill_16_avx2_vec(float *d, float mean, float std)
{
    const __m256 one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f);
    __m256 x = _mm256_sub_ps(one, _mm256_loadu_ps(d));
    __m256 theta = _mm256_mul_ps(_mm256_set1_ps((float)(2.0 * PI)), _mm256_loadu_ps(d + 8));
    /* log */
    __m256 invalid = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LE_OQ);
    x = _mm256_max_ps(x, _mm256_set1_ps(1.17549435e-38f));
    __m256i emm0 = _mm256_srli_epi32(_mm256_castps_si256(x), 23);
    x = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32((int)0x807fffff)));
    x = _mm256_or_ps(x, half);
    emm0 = _mm256_sub_epi32(emm0, _mm256_set1_epi32(127));
    __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(emm0), one);
    __m256 mask = _mm256_cmp_ps(x, _mm256_set1_ps(0.707106781186547524f), _CMP_LT_OQ);
    __m256 tmp = _mm256_and_ps(x, mask);
    e = _mm256_sub_ps(e, _mm256_and_ps(one, mask));
    x = _mm256_add_ps(x, _mm256_set1_ps(-1.0f));
    x = _mm256_add_ps(x, tmp);
    __m256 z = _mm256_mul_ps(x, x);
    __m256 y = _mm256_fmadd_ps(_mm256_set1_ps(7.0376836292E-2f), x,
                               _mm256_set1_ps(-1.1514610310E-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.1676998740E-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(-1.2420140846E-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.4249322787E-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(-1.6668057665E-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(2.0000714765E-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(-2.4999993993E-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(3.3333331174E-1f));
    y = _mm256_mul_ps(x, y);
    y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, _mm256_set1_ps(-2.12194440e-4f)));
    y = _mm256_fnmadd_ps(z, half, y);
    x = _mm256_add_ps(x, y);
    x = _mm256_fmadd_ps(e, _mm256_set1_ps(0.693359375f), x);
    x = _mm256_or_ps(x, invalid);
    __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(x, _mm256_set1_ps(-2.0f)));
    /* sincos */
    __m256 sign_sin = _mm256_and_ps(theta, _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000)));
    __m256 ax = _mm256_and_ps(theta, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
    __m256i j = _mm256_cvttps_epi32(_mm256_mul_ps(ax, _mm256_set1_ps(1.27323954473516f)));
    j = _mm256_add_epi32(j, _mm256_set1_epi32(1));
    j = _mm256_and_si256(j, _mm256_set1_epi32(~1));
    __m256 yj = _mm256_cvtepi32_ps(j);
    __m256 swap_sin =
        _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(j, _mm256_set1_epi32(4)), 29));
    __m256 poly = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(2)),
                                                         _mm256_setzero_si256()));
    ax = _mm256_fmadd_ps(yj, _mm256_set1_ps(-0.78515625f), ax);
    ax = _mm256_fmadd_ps(_mm256_set1_ps(-2.4187564849853515625e-4f), yj, ax);
    ax = _mm256_fmadd_ps(yj, _mm256_set1_ps(-3.77489497744594108e-8f), ax);
    __m256 sign_cos = _mm256_castsi256_ps(_mm256_slli_epi32(
        _mm256_andnot_si256(_mm256_sub_epi32(j, _mm256_set1_epi32(2)), _mm256_set1_epi32(4)), 29));
    sign_sin = _mm256_xor_ps(sign_sin, swap_sin);
    z = _mm256_mul_ps(ax, ax);
    __m256 half_z = _mm256_mul_ps(z, half);
    __m256 yc = _mm256_fmadd_ps(_mm256_set1_ps(2.443315711809948E-005f), z,
                                _mm256_set1_ps(-1.388731625493765E-003f));
    yc = _mm256_fmadd_ps(yc, z, _mm256_set1_ps(4.166664568298827E-002f));
    yc = _mm256_mul_ps(z, yc);
    yc = _mm256_fmsub_ps(z, yc, half_z);
    yc = _mm256_add_ps(yc, one);
    __m256 ys = _mm256_fmadd_ps(_mm256_set1_ps(-1.9515295891E-4f), z,
                                _mm256_set1_ps(8.3321608736E-3f));
    ys = _mm256_fmadd_ps(ys, z, _mm256_set1_ps(-1.6666654611E-1f));
    ys = _mm256_mul_ps(z, ys);
    ys = _mm256_fmadd_ps(ax, ys, ax);
    __m256 vs = _mm256_blendv_ps(yc, ys, poly);
    __m256 vc = _mm256_blendv_ps(ys, yc, poly);
    vs = _mm256_xor_ps(vs, sign_sin);
    vc = _mm256_xor_ps(vc, sign_cos);
    __m256 mv = _mm256_set1_ps(mean), sv = _mm256_set1_ps(std);
    _mm256_storeu_ps(d, _mm256_fmadd_ps(_mm256_mul_ps(radius, vc), sv, mv));
    _mm256_storeu_ps(d + 8, _mm256_fmadd_ps(_mm256_mul_ps(radius, vs), sv, mv));
}
#endif

#ifndef AGC_HAVE_AVX2_FILL
/* elsewhere: the same arithmetic one lane at a time */
AGC_INLINE int32_t f_bits(float f) { int32_t i; memcpy(&i, &f, 4); return i; }
AGC_INLINE float bits_f(int32_t i) { float f; memcpy(&f, &i, 4); return f; }

AGC_INLINE float cephes_logf_avx2(float x)
{
    int invalid = x <= 0.0f;
    if (x < 1.17549435e-38f)
        x = 1.17549435e-38f;
    int32_t bits = f_bits(x);
    float e = (float)(((bits >> 23) & 0xff) - 127) + 1.0f;
    x = bits_f((bits & (int32_t)0x807fffff) | 0x3f000000);  /* mantissa in [0.5, 1) */
    int small = x < 0.707106781186547524f;
    float tmp = small ? x : 0.0f;
    if (small)
        e = e - 1.0f;
    x = x + -1.0f;
    x = x + tmp;
    float z = x * x;
    float y = fmaf(7.0376836292E-2f, x, -1.1514610310E-1f);
    y = fmaf(y, x, 1.1676998740E-1f);
    y = fmaf(y, x, -1.2420140846E-1f);
    y = fmaf(y, x, 1.4249322787E-1f);
    y = fmaf(y, x, -1.6668057665E-1f);
    y = fmaf(y, x, 2.0000714765E-1f);
    y = fmaf(y, x, -2.4999993993E-1f);
    y = fmaf(y, x, 3.3333331174E-1f);
    y = x * y;
    y = fmaf(y, z, e * -2.12194440e-4f);
    y = fmaf(-z, 0.5f, y);
    x = x + y;
    x = fmaf(e, 0.693359375f, x);
    return invalid ? NAN : x;
}

AGC_INLINE void cephes_sincosf_avx2(float theta, float *s, float *c)
{
    int32_t sign_sin = f_bits(theta) & (int32_t)0x80000000;
    float x = fabsf(theta);
    int32_t j = (int32_t)(x * 1.27323954473516f);
    j = (j + 1) & ~1;
    float y = (float)j;
    int32_t swap_sin = (j & 4) << 29;
    int poly_sin = (j & 2) == 0;  /* the sine polynomial gives the sine */
    x = fmaf(y, -0.78515625f, x);
    x = fmaf(-2.4187564849853515625e-4f, y, x);
    x = fmaf(y, -3.77489497744594108e-8f, x);
    int32_t sign_cos = (int32_t)((uint32_t)(~(j - 2) & 4) << 29);
    float z = x * x;
    float half_z = z * 0.5f;
    float yc = fmaf(2.443315711809948E-005f, z, -1.388731625493765E-003f);
    yc = fmaf(yc, z, 4.166664568298827E-002f);
    yc = z * yc;
    yc = fmaf(z, yc, -half_z);
    yc = yc + 1.0f;
    float ys = fmaf(-1.9515295891E-4f, z, 8.3321608736E-3f);
    ys = fmaf(ys, z, -1.6666654611E-1f);
    ys = z * ys;
    ys = fmaf(x, ys, x);
    float vs = poly_sin ? ys : yc;
    float vc = poly_sin ? yc : ys;
    *s = bits_f(f_bits(vs) ^ (sign_sin ^ swap_sin));
    *c = bits_f(f_bits(vc) ^ sign_cos);
}

#endif

/* ------------------------------------------------------------------ normal */

static double normal_double(agc_gen *g, double mean, double std)
{
    if (g->has_next_double_normal) {
        g->has_next_double_normal = 0;
        return mul_add(g->next_double_normal, std, mean);
    }
    double u1 = uniform_double(g);
    double u2 = uniform_double(g);
    double r = sqrt(-2.0 * log1p(-u2));
    double theta = 2.0 * PI * u1;
    g->next_double_normal = r * sin(theta);
    g->has_next_double_normal = 1;
    return mul_add(r * cos(theta), std, mean);
}

void agc_normal_serial(agc_gen *g, double *out, int64_t n, double mean, double std)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = normal_double(g, mean, std);
}

/* ATen's NormalFill16 for double: std::fma in the source, so fused on every CPU */
static void normal_fill_16_double(double *d, double mean, double std)
{
    for (int j = 0; j < 8; j++) {
        double u1 = 1 - d[j];
        double u2 = d[j + 8];
        double radius = sqrt(-2 * log(u1));
        double theta = 2.0f * PI * u2;
        d[j] = fma(radius * cos(theta), std, mean);
        d[j + 8] = fma(radius * sin(theta), std, mean);
    }
}

/* ATen's normal_fill (n >= 16): n uniforms, each whole block of 16 turned into normals
 * by fill16; when n is not a multiple of 16 the last 16 positions are drawn again and
 * filled once more. Written once over the element type T (uniform: its sampler). */
#define NORMAL_FILL_WITH(NAME, T, UNIFORM)                                                 \
static void NAME(agc_gen *g, T *out, int64_t n, T mean, T std, void (*fill16)(T *, T, T)) \
{                                                                                          \
    for (int64_t i = 0; i < n; i++)                                                        \
        out[i] = UNIFORM(g);                                                               \
    for (int64_t i = 0; i < n - 15; i += 16)                                               \
        fill16(out + i, mean, std);                                                        \
    if (n % 16 != 0) {                                                                     \
        T *tail = out + n - 16;                                                            \
        for (int i = 0; i < 16; i++)                                                       \
            tail[i] = UNIFORM(g);                                                          \
        fill16(tail, mean, std);                                                           \
    }                                                                                      \
}

NORMAL_FILL_WITH(normal_fill_double_with, double, uniform_double)
NORMAL_FILL_WITH(normal_fill_float_with, float, uniform_float)

void agc_normal_fill_double(agc_gen *g, double *out, int64_t n, double mean, double std)
{
    normal_fill_double_with(g, out, n, mean, std, normal_fill_16_double);
}

/* the DEFAULT (non-AVX2) kernel's NormalFill16 for float: logf, sincosf of theta computed
 * in double and rounded to float, std::fma */
static void normal_fill_16_float(float *d, float mean, float std)
{
    for (int j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j];
        float radius = sqrtf(logf(u1) * -2.0f);
        float theta = (float)((double)d[j + 8] * (2.0 * PI));
        float sn, cs;
#ifdef __GLIBC__
        sincosf(theta, &sn, &cs);
#else
        sn = sinf(theta);
        cs = cosf(theta);
#endif
        d[j] = fmaf(radius * cs, std, mean);
        d[j + 8] = fmaf(radius * sn, std, mean);
    }
}

#ifndef AGC_HAVE_AVX2_FILL
/* the AVX2 kernel: everything in float (log256_ps, sincos256_ps), n * std + mean fused */
AGC_FMA_TARGET static void normal_fill_16_float_avx2(float *d, float mean, float std)
{
    const float two_pi = (float)(2.0 * PI);
    for (int j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j];
        float u2 = d[j + 8];
        float radius = sqrtf(cephes_logf_avx2(u1) * -2.0f);
        float theta = two_pi * u2;
        float sn, cs;
        cephes_sincosf_avx2(theta, &sn, &cs);
        float n1 = radius * cs;
        float n2 = radius * sn;
        d[j] = fmaf(n1, std, mean);
        d[j + 8] = fmaf(n2, std, mean);
    }
}

#endif

void agc_normal_fill_half(agc_gen *g, float *out, int64_t n, float mean, float std, int avx2)
{
#ifdef AGC_HAVE_AVX2_FILL
    void (*fill16)(float *, float, float) =
        avx2 ? normal_fill_16_avx2_vec : normal_fill_16_float;
#else
    void (*fill16)(float *, float, float) =
        avx2 ? normal_fill_16_float_avx2 : normal_fill_16_float;
#endif
    float buf[16];
    int64_t i;
    for (i = 0; i + 16 <= n; i += 16) {
        for (int k = 0; k < 16; k++)
            out[i + k] = uniform_float(g);
        fill16(out + i, mean, std);
    }
    if (n % 16 != 0) {
        for (int k = 0; k < 16; k++)
            buf[k] = uniform_float(g);
        fill16(buf, mean, std);
        memcpy(out + n - 16, buf, sizeof buf);
    }
}

void agc_normal_fill_float(agc_gen *g, float *out, int64_t n, float mean, float std)
{
    normal_fill_float_with(g, out, n, mean, std, normal_fill_16_float);
}

void agc_normal_fill_float_avx2(agc_gen *g, float *out, int64_t n, float mean, float std)
{
#ifdef AGC_HAVE_AVX2_FILL
    normal_fill_float_with(g, out, n, mean, std, normal_fill_16_avx2_vec);
#else
    normal_fill_float_with(g, out, n, mean, std, normal_fill_16_float_avx2);
#endif
}

/* ------------------------------------------------------------------ other continuous */

void agc_exponential(agc_gen *g, double *out, int64_t n, double lambda)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = -1.0 / lambda * log1p(-uniform_double(g));
}

void agc_cauchy(agc_gen *g, double *out, int64_t n, double median, double sigma)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = median + sigma * tan(PI * (uniform_double(g) - 0.5));
}

void agc_log_normal(agc_gen *g, double *out, int64_t n, double mean, double std)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = exp(normal_double(g, mean, std));
}

void agc_geometric(agc_gen *g, double *out, int64_t n, double p)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = ceil(log(uniform_double(g)) / log1p(-p));
}

/* ------------------------------------------------------------------ integers */

void agc_random_from_to(agc_gen *g, int64_t *out, int64_t n, uint64_t range, int64_t base,
                        int use64)
{
    int wide = use64 && range >= (1ULL << 32);
    for (int64_t i = 0; i < n; i++) {
        uint64_t v = wide ? gen_next64(g) : (uint64_t)gen_next(g);
        out[i] = (int64_t)((v % range) + (uint64_t)base);
    }
}

void agc_random_full64(agc_gen *g, int64_t *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = (int64_t)gen_next64(g);
}

void agc_random_default(agc_gen *g, int64_t *out, int64_t n, uint64_t modulus, int use64)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t v = use64 ? gen_next64(g) : (uint64_t)gen_next(g);
        out[i] = modulus ? (int64_t)(v % modulus) : (int64_t)(v & 1);
    }
}

void agc_randperm(agc_gen *g, int64_t *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = i;
    for (int64_t i = 0; i < n - 1; i++) {
        int64_t z = (int64_t)(gen_next(g) % (uint64_t)(n - i));
        int64_t t = out[i];
        out[i] = out[z + i];
        out[z + i] = t;
    }
}

/* ------------------------------------------------------------------ bernoulli */

void agc_bernoulli_scalar(agc_gen *g, unsigned char *out, int64_t n, double p)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = uniform_double(g) < p;
}

void agc_bernoulli_double_p(agc_gen *g, unsigned char *out, int64_t n, const double *p)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = uniform_double(g) < p[i];
}

void agc_bernoulli_float_p(agc_gen *g, unsigned char *out, int64_t n, const float *p)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = uniform_float(g) < p[i];
}

/* ------------------------------------------------------------------ poisson, binomial */

static int64_t sample_poisson(agc_gen *g, double lambda)
{
    if (lambda >= 10) {
        /* transformed rejection (Hoermann 1993), as numpy's legacy and ATen */
        double slam = sqrt(lambda);
        double loglam = log(lambda);
        double b = 0.931 + 2.53 * slam;
        double a = -0.059 + 0.02483 * b;
        double invalpha = 1.1239 + 1.1328 / (b - 3.4);
        double vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            double U = uniform_double(g) - 0.5;
            double V = uniform_double(g);
            double us = 0.5 - fabs(U);
            int64_t k = (int64_t)floor((2 * a / us + b) * U + lambda + 0.43);
            if ((us >= 0.07) && (V <= vr))
                return k;
            if ((k < 0) || ((us < 0.013) && (V > us)))
                continue;
            if ((log(V) + log(invalpha) - log(a / (us * us) + b)) <=
                (-lambda + k * loglam - lgamma((double)k + 1)))
                return k;
        }
    } else if (lambda == 0) {
        return 0;
    } else {
        double enlam = exp(-lambda);
        int64_t X = 0;
        double prod = 1.0;
        for (;;) {
            prod *= uniform_double(g);
            if (prod > enlam)
                X += 1;
            else
                return X;
        }
    }
}

void agc_poisson(agc_gen *g, double *out, int64_t n, const double *rates)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = (double)sample_poisson(g, rates[i]);
}

static const double STIRLING_TAIL[10] = {
    0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
    0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
    0.00925546218271273, 0.00833056343336287,
};

static double stirling_approx_tail(double k)
{
    if (k <= 9)
        return STIRLING_TAIL[(int)k];
    double kp1sq = (k + 1) * (k + 1);
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

/* The binomial sampler is templated on the tensor's type (scalar_t: count, prob, the
 * drawn k) with double accumulation; SCALAR below is that type. */
#define BINOMIAL_IMPL(NAME, SCALAR, SQRT, LOG1P)                                            \
    static SCALAR NAME##_inversion(agc_gen *g, SCALAR count, SCALAR prob)                   \
    {                                                                                       \
        double geom_sum = 0;                                                                \
        SCALAR num_geom = 0;                                                                \
        double logprob = LOG1P(-prob);                                                      \
        for (;;) {                                                                          \
            double U = uniform_double(g);                                                   \
            double geom = ceil(log(U) / logprob);                                           \
            geom_sum += geom;                                                               \
            if (geom_sum > count)                                                           \
                break;                                                                      \
            num_geom = num_geom + 1;                                                        \
        }                                                                                   \
        return num_geom;                                                                    \
    }                                                                                       \
    static SCALAR NAME##_btrs(agc_gen *g, SCALAR count, SCALAR prob)                        \
    {                                                                                       \
        SCALAR k;                                                                           \
        double U, V, us;                                                                    \
        const double stddev = SQRT(count * prob * (1 - prob));                              \
        const double b = 1.15 + 2.53 * stddev;                                              \
        const double a = -0.0873 + 0.0248 * b + 0.01 * prob;                                \
        const double c = count * prob + 0.5;                                                \
        const double v_r = 0.92 - 4.2 / b;                                                  \
        const double r = prob / (1 - prob);                                                 \
        const double alpha = (2.83 + 5.1 / b) * stddev;                                     \
        const double m = floor((count + 1) * prob);                                         \
        for (;;) {                                                                          \
            U = uniform_double(g) - 0.5;                                                    \
            V = uniform_double(g);                                                          \
            us = 0.5 - fabs(U);                                                             \
            k = (SCALAR)floor((2 * a / us + b) * U + c);                                    \
            if (k < 0 || k > count)                                                         \
                continue;                                                                   \
            if (us >= 0.07 && V <= v_r)                                                     \
                return k;                                                                   \
            V = log(V * alpha / (a / (us * us) + b));                                       \
            double upperbound =                                                             \
                ((m + 0.5) * log((m + 1) / (r * (count - m + 1))) +                         \
                 (count + 1) * log((count - m + 1) / (count - k + 1)) +                     \
                 (k + 0.5) * log(r * (count - k + 1) / (k + 1)) +                           \
                 stirling_approx_tail(m) + stirling_approx_tail(count - m) -                \
                 stirling_approx_tail(k) - stirling_approx_tail(count - k));                \
            if (V <= upperbound)                                                            \
                return k;                                                                   \
        }                                                                                   \
    }                                                                                       \
    static SCALAR NAME##_sample(agc_gen *g, SCALAR count, SCALAR prob)                      \
    {                                                                                       \
        if (count <= 0.0 || prob <= 0.0) {                                                  \
            return 0;                                                                       \
        } else if (prob >= 1.0) {                                                           \
            return count;                                                                   \
        } else if (prob <= 0.5) {                                                           \
            if (count * prob >= 10.0)                                                       \
                return NAME##_btrs(g, count, prob);                                         \
            return NAME##_inversion(g, count, prob);                                        \
        } else if (prob > 0.5) {                                                            \
            SCALAR qprob = 1.0 - prob;                                                      \
            if (count * qprob >= 10.0)                                                      \
                return count - NAME##_btrs(g, count, qprob);                                \
            return count - NAME##_inversion(g, count, qprob);                               \
        }                                                                                   \
        return (SCALAR)NAN;                                                                 \
    }

BINOMIAL_IMPL(binomial_d, double, sqrt, log1p)
BINOMIAL_IMPL(binomial_f, float, sqrtf, log1pf)

void agc_binomial_double(agc_gen *g, double *out, int64_t n, const double *count,
                         const double *prob)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = binomial_d_sample(g, count[i], prob[i]);
}

void agc_binomial_float(agc_gen *g, float *out, int64_t n, const float *count,
                        const float *prob)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = binomial_f_sample(g, count[i], prob[i]);
}

/* ------------------------------------------------------------------ multinomial */

void agc_multinomial_row(agc_gen *g, int64_t *out, int64_t n_sample, double *cum,
                         int64_t n_categories)
{
    cum[n_categories - 1] = 1;
    for (int64_t j = 0; j < n_sample; j++) {
        double u = uniform_double(g);
        int64_t left = 0, right = n_categories;
        while (right - left > 0) {
            int64_t mid = left + (right - left) / 2;
            if (cum[mid] < u)
                left = mid + 1;
            else
                right = mid;
        }
        out[j] = left;
    }
}

/* ------------------------------------------------------------------ gamma, dirichlet
 * ATen's sample_gamma (Marsaglia and Tsang, with the alpha < 1 boost) over the
 * generator's double uniforms and double normals (the cached second Box-Muller sample
 * included). It is templated on the tensor's type (scalar_t) for alpha's own arithmetic
 * (1 / alpha, alpha + 1, alpha - 1/3, in float for a float tensor) and on double for the
 * rest; the float literals of the source (1.0f / 3.0f, 0.0331f) keep their float
 * values when promoted, as they are here. */

static double gamma_marsaglia(agc_gen *g, double d, double scale)
{
    const double c = 1.0f / sqrt(9.0f * d);
    for (;;) {
        double x, y;
        do {
            x = normal_double(g, 0.0, 1.0);
            y = 1.0f + c * x;
        } while (y <= 0);
        const double v = y * y * y;
        const double u = 1 - uniform_double(g);
        const double xx = x * x;
        if (u < 1.0f - 0.0331f * xx * xx)
            return scale * d * v;
        if (log(u) < 0.5f * xx + d * (1.0f - v + log(v)))
            return scale * d * v;
    }
}

static double sample_gamma_double(agc_gen *g, double alpha)
{
    double scale = 1.0f;
    if (alpha < 1.0f) {
        if (alpha == 0.f)
            return 0.f;
        scale *= pow(1 - uniform_double(g), 1.0f / alpha);
        alpha += 1.0f;
    }
    return gamma_marsaglia(g, alpha - 1.0f / 3.0f, scale);
}

static double sample_gamma_float(agc_gen *g, float alpha)
{
    double scale = 1.0f;
    if (alpha < 1.0f) {
        if (alpha == 0.f)
            return 0.f;
        scale *= pow(1 - uniform_double(g), (double)(1.0f / alpha));
        alpha += 1.0f;
    }
    return gamma_marsaglia(g, (double)(alpha - 1.0f / 3.0f), scale);
}

/* std::max(numeric_limits<T>::min(), x): NaN (and 0) become the smallest normal */
static inline double max_tiny_d(double x) { return DBL_MIN < x ? x : DBL_MIN; }
static inline float max_tiny_f(float x) { return FLT_MIN < x ? x : FLT_MIN; }

void agc_standard_gamma_double(agc_gen *g, double *out, int64_t n, const double *alpha)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = max_tiny_d(sample_gamma_double(g, alpha[i]));
}

void agc_standard_gamma_float(agc_gen *g, float *out, int64_t n, const float *alpha)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = max_tiny_f((float)sample_gamma_float(g, alpha[i]));
}

void agc_dirichlet_gamma(agc_gen *g, double *out, int64_t n, const double *alpha)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = max_tiny_d(sample_gamma_double(g, alpha[i]));
}

/* ------------------------------------------------------------------ gamma, dirichlet
 * reparameterised gradients (ATen's standard_gamma_grad_one and dirichlet_grad_one, with
 * double accumulation). Not random, but they belong to the samplers above. The parts
 * ATen computes in scalar_t are written once per type through the macros below; GM
 * picks the float or double libm function as C++'s std:: overloads do. */

#define GM(fn, x) _Generic((x), float: fn##f, default: fn)(x)
#define GM2(fn, a, b) _Generic((a) + (b), float: fn##f, default: fn)((a), (b))

static double polevl_d(double x, const double *A, int len)
{
    double result = 0;
    for (int i = 0; i <= len; i++)
        result = result * x + A[i];
    return result;
}

static const double DIGAMMA_A[] = {
    8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
    -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
    8.33333333333333333333E-2,
};

/* digamma_one<S, double>: x in S, the sums in double */
#define DIGAMMA_IMPL(NAME, S, PI_S)                                                         \
    static S NAME(S x)                                                                      \
    {                                                                                       \
        const double PSI_10 = 2.25175258906672110764;                                       \
        if (x == 0)                                                                         \
            return INFINITY;                                                                \
        double additional_summand = 0;                                                      \
        int x_is_integer = x == GM(floor, x);                                               \
        if (x < 0) {                                                                        \
            if (x_is_integer)                                                               \
                return INFINITY;                                                            \
            additional_summand = -PI_S / GM(tan, (S)(PI_S * x));                            \
            x = 1 - x;                                                                      \
        }                                                                                   \
        double result = 0;                                                                  \
        while (x < 10) {                                                                    \
            result -= 1 / x;                                                                \
            x += 1;                                                                         \
        }                                                                                   \
        if (x == 10)                                                                        \
            return (S)(result + PSI_10 + additional_summand);                               \
        double y = 0;                                                                       \
        if (x < 1.0e17f) {                                                                  \
            double z = 1.0 / (x * x);                                                       \
            y = z * polevl_d(z, DIGAMMA_A, 6);                                              \
        }                                                                                   \
        return (S)(result + GM(log, x) - (0.5f / x) - y + additional_summand);              \
    }

DIGAMMA_IMPL(digamma_d, double, 3.14159265358979323846)
DIGAMMA_IMPL(digamma_f, float, 3.14159265358979323846f)

static double standard_gamma_grad_one(double alpha, double x)
{
    if (x < 0.8f) {
        double numer = 1;
        double denom = alpha;
        double series1 = numer / denom;
        double series2 = numer / (denom * denom);
        for (int i = 1; i <= 5; ++i) {
            numer *= -x / (double)i;
            denom += 1;
            series1 += numer / denom;
            series2 += numer / (denom * denom);
        }
        const double pow_x_alpha = pow(x, alpha);
        const double gamma_pdf = pow(x, alpha - 1) * exp(-x);
        const double gamma_cdf = pow_x_alpha * series1;
        const double gamma_cdf_alpha =
            (log(x) - digamma_d(alpha)) * gamma_cdf - pow_x_alpha * series2;
        const double result = -gamma_cdf_alpha / gamma_pdf;
        return isnan(result) ? 0.0 : result;
    }
    if (alpha > 8.0f) {
        if (0.9f * alpha <= x && x <= 1.1f * alpha) {
            const double numer_1 = 1 + 24 * alpha * (1 + 12 * alpha);
            const double numer_2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) -
                                   65 * x * x / alpha + alpha * (107 + 3600 * x);
            const double denom = 1244160 * (alpha * alpha) * (alpha * alpha);
            return numer_1 * numer_2 / denom;
        }
        const double denom = sqrt(8 * alpha);
        const double term2 = denom / (alpha - x);
        const double term3 = pow(x - alpha - alpha * log(x / alpha), -1.5);
        const double term23 = (x < alpha) ? term2 - term3 : term2 + term3;
        const double term1 = log(x / alpha) * term23 -
                             sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x));
        const double stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha));
        const double numer = x * term1;
        return -stirling * numer / denom;
    }
    const double u = log(x / alpha);
    const double v = log(alpha);
    static const double coef_uv[3][8] = {
        {0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089,
         0.0014179084},
        {0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113,
         -0.0035938915, -0.00058392623},
        {0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642,
         -0.0021309326, 0.00085092367, -1.5247877e-07},
    };
    double coef_v[8];
    for (int i = 0; i < 8; ++i)
        coef_v[i] = coef_uv[0][i] + u * (coef_uv[1][i] + u * coef_uv[2][i]);
    const double p = coef_v[0] + v * (coef_v[1] + v * (coef_v[2] + v * coef_v[3]));
    const double q = coef_v[4] + v * (coef_v[5] + v * (coef_v[6] + v * coef_v[7]));
    return exp(p / q);
}

void agc_standard_gamma_grad_double(double *out, int64_t n, const double *alpha,
                                    const double *x)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = standard_gamma_grad_one(alpha[i], x[i]);
}

void agc_standard_gamma_grad_float(float *out, int64_t n, const float *alpha, const float *x)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = (float)standard_gamma_grad_one(alpha[i], x[i]);
}

/* _beta_grad_alpha_mid: in double throughout */
static double beta_grad_alpha_mid(double x, double alpha, double beta)
{
    const double total = alpha + beta;
    const double mean = alpha / total;
    const double std = sqrt(alpha * beta / (total + 1)) / total;
    if (mean - 0.1 * std <= x && x <= mean + 0.1 * std) {
        const double poly =
            47 * x * (beta * beta) * (beta * beta) +
            alpha * ((43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta +
                     alpha * (3 * (59 + 180 * beta - 90 * x) * (beta * beta) +
                              alpha * ((453 + 1620 * beta * (1 - x) - 455 * x) * beta +
                                       alpha * (8 * (1 - x) * (135 * beta - 11)))));
        const double prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total);
        const double prefactor_den =
            12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total);
        return prefactor_num / (1 - x) * poly / prefactor_den;
    }
    const double prefactor = -x / sqrt(2 * alpha * beta / total);
    const double stirling = (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) *
                            (1 + 1 / (12 * beta) + 1 / (288 * beta * beta)) /
                            (1 + 1 / (12 * total) + 1 / (288 * total * total));
    const double term1_num =
        2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta);
    const double axbx = alpha * (x - 1) + beta * x;
    const double term1_den = sqrt(2 * alpha / beta) * pow(total, (double)1.5f) * axbx * axbx;
    const double term1 = term1_num / term1_den;
    const double term2 = 0.5f * log(alpha / (total * x));
    const double term3_num = sqrt(8 * alpha * beta / total);
    const double term3_den = beta * x + alpha * (x - 1);
    const double term3 = term3_num / term3_den;
    const double term4_base =
        beta * log(beta / (total * (1 - x))) + alpha * log(alpha / (total * x));
    const double term4 = pow(term4_base, (double)-1.5f);
    const double term1234 = term1 + term2 * (term3 + (x < mean ? term4 : -term4));
    return stirling * prefactor * term1234;
}

static const double DIRICHLET_C[2][3][3][4] = {
    {{{1.003668233, -0.01061107488, -0.0657888334, 0.01201642863},
      {0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033},
      {-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013}},
     {{0.221950385, -0.3187676331, 0.01799915743, 0.01074823814},
      {-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057},
      {0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05}},
     {{-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565},
      {0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181},
      {0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05}}},
    {{{1, -0.02924021934, -0.04438342661, 0.007285809825},
      {0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521},
      {-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149}},
     {{0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273},
      {0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956},
      {-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05}},
     {{0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05},
      {0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05},
      {-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06}}},
};

/* dirichlet_grad_one<S, double> and its small-x / small-(1-x) series in S */
#define DIRICHLET_GRAD_IMPL(NAME, S, DIGAMMA)                                              \
    static S NAME##_alpha_small(S x, S alpha, S beta)                                      \
    {                                                                                      \
        const S factor = DIGAMMA(alpha) - DIGAMMA(alpha + beta) - GM(log, x);              \
        S numer = 1;                                                                       \
        S series = numer / alpha * (factor + 1 / alpha);                                   \
        for (int i = 1; i <= 10; ++i) {                                                    \
            S casted_i = (S)i;                                                             \
            numer *= (casted_i - beta) * x / casted_i;                                     \
            const S denom = alpha + casted_i;                                              \
            series += numer / denom * (factor + 1 / denom);                                \
        }                                                                                  \
        const S result = x * GM2(pow, (S)(1 - x), (S)-beta) * series;                      \
        return isnan(result) ? (S)0 : result;                                              \
    }                                                                                      \
    static S NAME##_beta_small(S x, S alpha, S beta)                                       \
    {                                                                                      \
        const S factor = DIGAMMA(alpha + beta) - DIGAMMA(beta);                            \
        S numer = 1, betas = 1, dbetas = 0, series = factor / alpha;                       \
        for (int i = 1; i <= 8; ++i) {                                                     \
            S casted_i = (S)i;                                                             \
            numer *= -x / casted_i;                                                        \
            dbetas = dbetas * (beta - casted_i) + betas;                                   \
            betas = betas * (beta - casted_i);                                             \
            series += numer / (alpha + casted_i) * (dbetas + factor * betas);              \
        }                                                                                  \
        const S result = -GM2(pow, (S)(1 - x), (S)(1 - beta)) * series;                    \
        return isnan(result) ? (S)0 : result;                                              \
    }                                                                                      \
    static S NAME(S x, S alpha, S total)                                                   \
    {                                                                                      \
        const double x_ = x, alpha_ = alpha, total_ = total;                               \
        const S beta = total - alpha;                                                      \
        const double beta_ = total_ - alpha_;                                              \
        const S boundary = total * x * (1 - x);                                            \
        if (x <= 0.5f && boundary < 2.5f)                                                  \
            return NAME##_alpha_small(x, alpha, beta);                                     \
        if (x >= 0.5f && boundary < 0.75f)                                                 \
            return -NAME##_beta_small(1 - x, beta, alpha);                                 \
        if (alpha > 6 && beta > 6)                                                         \
            return (S)beta_grad_alpha_mid(x_, alpha_, beta_);                              \
        const double u = log(x_);                                                          \
        const double a = log(alpha_) - u;                                                  \
        const double b = log(total_) - a;                                                  \
        const double pow_u[3] = {1, u, u * u};                                             \
        const double pow_a[3] = {1, a, a * a};                                             \
        double p = 0.0, q = 0.0;                                                           \
        for (int i = 0; i < 3; ++i) {                                                      \
            for (int j = 0; j < 3; ++j) {                                                  \
                const double ua = pow_u[i] * pow_a[j];                                     \
                const double *c0 = DIRICHLET_C[0][i][j], *c1 = DIRICHLET_C[1][i][j];       \
                p += ua * (c0[0] + b * (c0[1] + b * (c0[2] + b * c0[3])));                 \
                q += ua * (c1[0] + b * (c1[1] + b * (c1[2] + b * c1[3])));                 \
            }                                                                              \
        }                                                                                  \
        const double approx =                                                              \
            x_ * (DIGAMMA((S)total_) - DIGAMMA((S)alpha_)) / beta_;                        \
        return (S)(p / q * approx);                                                        \
    }

DIRICHLET_GRAD_IMPL(dirichlet_grad_d, double, digamma_d)
DIRICHLET_GRAD_IMPL(dirichlet_grad_f, float, digamma_f)

void agc_dirichlet_grad_double(double *out, int64_t n, const double *x, const double *alpha,
                               const double *total)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = dirichlet_grad_d(x[i], alpha[i], total[i]);
}

void agc_dirichlet_grad_float(float *out, int64_t n, const float *x, const float *alpha,
                              const float *total)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = dirichlet_grad_f(x[i], alpha[i], total[i]);
}

/* ------------------------------------------------------------------ dirichlet row sums
 * _s_dirichlet_cpu normalises by gamma.sum(-1), ATen's cascade_sum over double rows: the
 * row as vectors of 4 lanes (the kernel's Vectorized<double>, on AVX-512 CPUs too),
 * summed 4 vectors at a time into per-lane accumulators that are folded into coarser
 * levels every 2^level_power steps; the leftover elements and then the lanes are added
 * last. Rows shorter than 4 take the scalar path (the same scheme, one lane). The same
 * order gives the same rounding, hence PyTorch's samples. */

enum { SUM_LEVELS = 4, SUM_ILP = 4, SUM_LANES = 4 };

static int64_t ceil_log2_i64(int64_t x)
{
    int64_t r = 0;
    if (x <= 1)
        return 0;
    x -= 1;
    while (x) {
        r++;
        x >>= 1;
    }
    return r;
}

/* multi_row_sum: nrows accumulators, element (i, k) at in[i * row_stride + k] */
static void multi_row_sum(const double *in, int64_t row_stride, int64_t size, int nrows,
                          double *ret)
{
    double acc[SUM_LEVELS][SUM_ILP * SUM_LANES];
    const int64_t level_power = ceil_log2_i64(size) / SUM_LEVELS > 4
                                    ? ceil_log2_i64(size) / SUM_LEVELS : 4;
    const int64_t level_step = (int64_t)1 << level_power;
    const int64_t level_mask = level_step - 1;
    memset(acc, 0, sizeof acc);
    int64_t i = 0;
    while (i + level_step <= size) {
        for (int64_t j = 0; j < level_step; ++j, ++i)
            for (int k = 0; k < nrows; k++)
                acc[0][k] += in[i * row_stride + k];
        for (int j = 1; j < SUM_LEVELS; j++) {
            for (int k = 0; k < nrows; k++) {
                acc[j][k] += acc[j - 1][k];
                acc[j - 1][k] = 0;
            }
            if ((i & (level_mask << (j * level_power))) != 0)
                break;
        }
    }
    for (; i < size; i++)
        for (int k = 0; k < nrows; k++)
            acc[0][k] += in[i * row_stride + k];
    for (int j = 1; j < SUM_LEVELS; j++)
        for (int k = 0; k < nrows; k++)
            acc[0][k] += acc[j][k];
    for (int k = 0; k < nrows; k++)
        ret[k] = acc[0][k];
}

/* row_sum over `size` elements of `lanes` doubles each (contiguous): per-lane results */
static void row_sum_lanes(const double *in, int64_t size, int lanes, double *out)
{
    double ps[SUM_ILP * SUM_LANES];
    const int64_t size_ilp = size / SUM_ILP;
    multi_row_sum(in, (int64_t)SUM_ILP * lanes, size_ilp, SUM_ILP * lanes, ps);
    for (int64_t i = size_ilp * SUM_ILP; i < size; i++)
        for (int l = 0; l < lanes; l++)
            ps[l] += in[i * lanes + l];
    for (int k = 1; k < SUM_ILP; k++)
        for (int l = 0; l < lanes; l++)
            ps[l] += ps[k * lanes + l];
    for (int l = 0; l < lanes; l++)
        out[l] = ps[l];
}

void agc_dirichlet_row_sums(const double *x, int64_t rows, int64_t n, double *out)
{
    for (int64_t r = 0; r < rows; r++) {
        const double *row = x + r * n;
        double lanes[SUM_LANES];
        if (n >= SUM_LANES) {
            const int64_t vec_size = n / SUM_LANES;
            row_sum_lanes(row, vec_size, SUM_LANES, lanes);
            double final_acc = 0;
            for (int64_t k = vec_size * SUM_LANES; k < n; k++)
                final_acc += row[k];
            for (int l = 0; l < SUM_LANES; l++)
                final_acc += lanes[l];
            out[r] = final_acc;
        } else {
            row_sum_lanes(row, n, 1, lanes);
            out[r] = lanes[0];
        }
    }
}
