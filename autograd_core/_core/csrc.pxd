# Declarations of the plain-C code in csrc/ (no Python API there). The thread-local
# grad and inference modes (agc_mode.h) are not declared here: only
# autograd_core._core.tensor links them, and exports them (tensor.pxd).
from libc.stdint cimport int32_t, uint64_t

cdef extern from "agc_engine.h" nogil:
    ctypedef struct agc_ptrmap:
        size_t len
    int agc_ptrmap_init(agc_ptrmap *m, size_t hint)
    void agc_ptrmap_free(agc_ptrmap *m)
    int32_t agc_ptrmap_get(const agc_ptrmap *m, const void *key)
    int agc_ptrmap_put(agc_ptrmap *m, const void *key, int32_t val)

    ctypedef struct agc_heap:
        size_t len
    int agc_heap_init(agc_heap *h, size_t hint)
    void agc_heap_free(agc_heap *h)
    int agc_heap_push(agc_heap *h, uint64_t seq, int32_t idx)
    int32_t agc_heap_pop(agc_heap *h)

    ctypedef struct agc_intvec:
        int32_t *data
        size_t len
    int agc_intvec_init(agc_intvec *v, size_t hint)
    void agc_intvec_free(agc_intvec *v)
    int agc_intvec_push(agc_intvec *v, int32_t x)

cdef extern from "agc_kernels.h" nogil:
    enum: AGC_SMALL_N
    # op codes (enums in the header), used as plain ints
    enum:
        AGC_NEG, AGC_ABS, AGC_EXP, AGC_LOG, AGC_SQRT, AGC_SIN, AGC_COS,
        AGC_TANH, AGC_SIGMOID, AGC_RELU
    enum:
        AGC_ADD, AGC_SUB, AGC_MUL, AGC_DIV, AGC_TANH_BACKWARD, AGC_SIGMOID_BACKWARD,
        AGC_THRESHOLD_BACKWARD
    void agc_unary_f32(int op, const float *x, float *out, size_t n)
    void agc_unary_f64(int op, const double *x, double *out, size_t n)
    void agc_binary_f32(int op, const float *a, const float *b, float *out, size_t n)
    void agc_binary_f64(int op, const double *a, const double *b, double *out, size_t n)
    void agc_binary_scalar_f32(int op, const float *a, double s, int scalar_first, float *out, size_t n)
    void agc_binary_scalar_f64(int op, const double *a, double s, int scalar_first, double *out, size_t n)

cdef extern from "agc_bufcache.h" nogil:
    # the buffer cache of large per-sample results (Note [Buffer cache]); the four
    # allocator functions have numpy's PyDataMemAllocator signatures (linked into ops.nn)
    void *agc_buf_malloc(void *ctx, size_t size)
    void *agc_buf_calloc(void *ctx, size_t nelem, size_t elsize)
    void *agc_buf_realloc(void *ctx, void *ptr, size_t size)
    void agc_buf_free(void *ctx, void *ptr, size_t size)
    size_t agc_buf_cached_bytes()      # bytes held now (for the tests)
    void agc_buf_release()             # frees every cached block


cdef extern from "agc_special.h" nogil:
    # torch.special's scalar functions, in double (agc_special.h)
    double agc_airy_ai(double x)
    double agc_bessel_j0(double x)
    double agc_bessel_j1(double x)
    double agc_bessel_y0(double x)
    double agc_bessel_y1(double x)
    double agc_modified_bessel_i0(double x)
    float agc_i0f(float x)                # in float, as PyTorch's float32 i0
    double agc_modified_bessel_i1(double x)
    double agc_modified_bessel_k0(double x)
    double agc_modified_bessel_k1(double x)
    double agc_scaled_modified_bessel_k0(double x)
    double agc_scaled_modified_bessel_k1(double x)
    double agc_spherical_bessel_j0(double x)
    double agc_i0e(double x)
    double agc_i1(double x)
    double agc_i1e(double x)
    double agc_erfcx(double x)
    double agc_ndtri(double x)
    double agc_log_ndtr(double x)
    double agc_entr(double x)
    double agc_zeta(double x, double q)
    double agc_xlog1py(double x, double y)
    # the polynomials: in double, and (the f suffix) in float as PyTorch's float32
    double agc_chebyshev_t(double x, double n)
    double agc_chebyshev_u(double x, double n)
    double agc_chebyshev_v(double x, double n)
    double agc_chebyshev_w(double x, double n)
    double agc_shifted_chebyshev_t(double x, double n)
    double agc_shifted_chebyshev_u(double x, double n)
    double agc_shifted_chebyshev_v(double x, double n)
    double agc_shifted_chebyshev_w(double x, double n)
    double agc_hermite_h(double x, double n)
    double agc_hermite_he(double x, double n)
    double agc_laguerre_l(double x, double n)
    double agc_legendre_p(double x, double n)
    double agc_chebyshev_tf(double x, double n)
    double agc_chebyshev_uf(double x, double n)
    double agc_chebyshev_vf(double x, double n)
    double agc_chebyshev_wf(double x, double n)
    double agc_shifted_chebyshev_tf(double x, double n)
    double agc_shifted_chebyshev_uf(double x, double n)
    double agc_shifted_chebyshev_vf(double x, double n)
    double agc_shifted_chebyshev_wf(double x, double n)
    double agc_hermite_hf(double x, double n)
    double agc_hermite_hef(double x, double n)
    double agc_laguerre_lf(double x, double n)
    double agc_legendre_pf(double x, double n)
