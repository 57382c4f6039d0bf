# Declarations of the plain-C code in csrc/ (no Python API there): every csrc header is
# declared here and only here; a module cimports what it calls from this file.
#
# Note [Adding a C kernel]
# A C file is linked into the modules that call it (setup.py: agc_parallel.c and
# agc_mode.c into autograd_core._core.tensor only, agc_random.c into _core.random, a
# family's files through FAMILY_C_SOURCES), so a declaration here is not a promise
# that every module may call it: a module that calls a function of a C file it does
# not link fails at import with an undefined symbol. A new C kernel is two edits:
#   1. its declarations, here, in the block of its header (a new header: a new
#      `cdef extern from` block here);
#   2. its C file in setup.py's source list of the module that calls it (a new file
#      only; the two shared threads/modes files stay linked into tensor alone).
# A new elementwise op code of agc_kernels.c is one row of AGC_UNARY_OPS or
# AGC_BINARY_OPS in agc_kernels.h (the enum value, the loop's expression and, for a
# unary op, whether it calls libm: agc_unary_calls_libm) plus its name in the enum
# block below.
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

cdef extern from "agc_engine.h" nogil:
    ctypedef struct agc_ptrmap:
        size_t len
    int agc_ptrmap_init(agc_ptrmap *m, size_t hint)
    void agc_ptrmap_free(agc_ptrmap *m)
    int32_t agc_ptrmap_get(const agc_ptrmap *m, const void *key)
    int agc_ptrmap_put(agc_ptrmap *m, const void *key, int32_t val)
    int32_t agc_ptrmap_get_or_put(agc_ptrmap *m, const void *key, int32_t val)

    ctypedef struct agc_heap:
        size_t len
    int agc_heap_init(agc_heap *h, size_t hint)
    void agc_heap_free(agc_heap *h)
    int agc_heap_push(agc_heap *h, uint64_t seq, int32_t idx)
    int32_t agc_heap_pop(agc_heap *h)

    ctypedef struct agc_intvec:
        int32_t *data
        size_t len
        size_t cap
    int agc_intvec_init(agc_intvec *v, size_t hint)
    void agc_intvec_free(agc_intvec *v)
    int agc_intvec_push(agc_intvec *v, int32_t x)

cdef extern from "agc_kernels.h" nogil:
    enum: AGC_SMALL_N
    # op codes (the rows of AGC_UNARY_OPS / AGC_BINARY_OPS in the header), used as plain ints
    enum:
        AGC_NEG, AGC_ABS, AGC_EXP, AGC_LOG, AGC_SQRT, AGC_SIN, AGC_COS,
        AGC_TANH, AGC_SIGMOID, AGC_RELU
    enum:
        AGC_ADD, AGC_SUB, AGC_MUL, AGC_DIV, AGC_TANH_BACKWARD, AGC_SIGMOID_BACKWARD,
        AGC_THRESHOLD_BACKWARD
    # whether a unary op's loop calls libm per element (the flag column of AGC_UNARY_OPS)
    bint agc_unary_calls_libm(int op)
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


cdef extern from "agc_parallel.h" nogil:
    # the intra-op thread pool (linked into autograd_core._core.tensor only: one pool and
    # one thread count per process); the families hand parallel_for_entry() (tensor.pxd)
    # to their C files, or call tensor's parallel_for with a range function of their own
    ctypedef void (*agc_range_fn)(void *ctx, Py_ssize_t begin, Py_ssize_t end) noexcept nogil
    ctypedef void (*agc_parallel_for_fn)(Py_ssize_t n, Py_ssize_t grain, agc_range_fn fn,
                                         void *ctx) noexcept nogil
    enum: AGC_PARALLEL_GRAIN
    Py_ssize_t agc_grain_for(Py_ssize_t work)
    void agc_parallel_for(Py_ssize_t n, Py_ssize_t grain, agc_range_fn fn, void *ctx)
    void agc_parallel_blas_called(double multiply_adds)
    void agc_set_num_threads(int n)
    int agc_get_num_threads()


cdef extern from "agc_mode.h" nogil:
    # the thread-local grad, inference and forward-AD modes (linked into
    # autograd_core._core.tensor only, which exports them: tensor.pxd)
    int agc_grad_enabled()
    void agc_set_grad_enabled(int enabled)
    int agc_inference_mode()
    void agc_set_inference_mode(int enabled)
    int agc_recording()
    int agc_fw_active()
    int agc_fw_level_on
    int agc_fw_level()
    long agc_fw_generation()
    void agc_fw_enter()
    void agc_fw_exit()
    int agc_fw_grad_enabled()
    void agc_set_fw_grad_enabled(int enabled)
    int agc_grad_layout_enforced()
    void agc_set_grad_layout_enforced(int enabled)


cdef extern from "agc_sum.h" nogil:
    # PyTorch's summation order (Note [Sum order]; linked into ops.reduce)
    int agc_sum(const char *inp, int ndim, const int64_t *shape, const int64_t *in_strides,
                const unsigned char *reduce_mask, int keepdim, char *out, int is_double,
                int ignore_nan, int vector_bytes, int nthreads)


cdef extern from "agc_nn.h" nogil:
    # convolution, pooling, softmax and nll_loss loops (linked into ops.nn)
    void agc_nn_set_parallel_for(agc_parallel_for_fn fn)
    ctypedef struct agc_geom2d:
        Py_ssize_t H, W, KH, KW, DH, DW, PH, PW, SH, SW, OH, OW
    void agc_im2col_kmajor_f32(const float *x, float *cols, Py_ssize_t N, Py_ssize_t C, const agc_geom2d *g)
    void agc_im2col_kmajor_f64(const double *x, double *cols, Py_ssize_t N, Py_ssize_t C, const agc_geom2d *g)
    void agc_col2im_kmajor_f32(const float *cols, float *x, Py_ssize_t N, Py_ssize_t C, const agc_geom2d *g)
    void agc_col2im_kmajor_f64(const double *cols, double *x, Py_ssize_t N, Py_ssize_t C, const agc_geom2d *g)
    void agc_conv_out_f32(const float *prod, const float *bias, float *out, Py_ssize_t N, Py_ssize_t OC, Py_ssize_t L)
    void agc_conv_out_f64(const double *prod, const double *bias, double *out, Py_ssize_t N, Py_ssize_t OC, Py_ssize_t L)
    void agc_conv_grad_t_f32(const float *g, float *gt, float *gbias, Py_ssize_t N, Py_ssize_t OC, Py_ssize_t L)
    void agc_conv_grad_t_f64(const double *g, double *gt, double *gbias, Py_ssize_t N, Py_ssize_t OC, Py_ssize_t L)
    void agc_maxpool2d_f32(const float *x, float *out, int64_t *idx, Py_ssize_t planes, const agc_geom2d *g)
    void agc_maxpool2d_f64(const double *x, double *out, int64_t *idx, Py_ssize_t planes, const agc_geom2d *g)
    int agc_maxpool2d_backward_f32(const float *gout, const int64_t *idx, float *gx, Py_ssize_t planes,
                                   Py_ssize_t L, Py_ssize_t HW)
    int agc_maxpool2d_backward_f64(const double *gout, const int64_t *idx, double *gx, Py_ssize_t planes,
                                   Py_ssize_t L, Py_ssize_t HW)
    void agc_threshold_f32(const float *x, double th, double value, float *out, size_t n)
    void agc_threshold_f64(const double *x, double th, double value, double *out, size_t n)
    void agc_rows_outer_f32(const float *g, const float *x, float *out, Py_ssize_t B, Py_ssize_t O,
                            Py_ssize_t I)
    void agc_rows_outer_f64(const double *g, const double *x, double *out, Py_ssize_t B, Py_ssize_t O,
                            Py_ssize_t I)
    void agc_softmax_rows_f32(const float *x, float *out, Py_ssize_t rows, Py_ssize_t n, int log)
    void agc_softmax_rows_f64(const double *x, double *out, Py_ssize_t rows, Py_ssize_t n, int log)
    void agc_softmax_backward_rows_f32(const float *g, const float *y, float *out, Py_ssize_t rows,
                                       Py_ssize_t n, int log)
    void agc_softmax_backward_rows_f64(const double *g, const double *y, double *out,
                                       Py_ssize_t rows, Py_ssize_t n, int log)
    Py_ssize_t agc_nll_loss_f32(const float *x, const int64_t *target, const float *weight,
                                int64_t ignore_index, Py_ssize_t N, Py_ssize_t C, Py_ssize_t S,
                                int reduction, float *out)
    Py_ssize_t agc_nll_loss_f64(const double *x, const int64_t *target, const double *weight,
                                int64_t ignore_index, Py_ssize_t N, Py_ssize_t C, Py_ssize_t S,
                                int reduction, double *out)
    Py_ssize_t agc_nll_loss_backward_f32(const float *gout, const int64_t *target,
                                         const float *weight, int64_t ignore_index, Py_ssize_t N,
                                         Py_ssize_t C, Py_ssize_t S, int reduction, float *gx)
    Py_ssize_t agc_nll_loss_backward_f64(const double *gout, const int64_t *target,
                                         const double *weight, int64_t ignore_index, Py_ssize_t N,
                                         Py_ssize_t C, Py_ssize_t S, int reduction, double *gx)


cdef extern from "agc_random.h" nogil:
    # PyTorch's CPU generator and samplers (Note [Random streams]; linked into _core.random)
    ctypedef struct agc_gen:
        uint64_t seed
    enum: AGC_GEN_STATE_BYTES
    void agc_gen_seed(agc_gen *g, uint64_t seed)
    uint32_t agc_gen_random(agc_gen *g)
    uint64_t agc_gen_random64(agc_gen *g)
    void agc_gen_get_state(const agc_gen *g, unsigned char *out)
    int agc_gen_set_state(agc_gen *g, const unsigned char *inp)
    void agc_random_set_fused(int fused)
    void agc_uniform_float(agc_gen *g, float *out, int64_t n, float lo, float hi, int digits)
    void agc_uniform_double(agc_gen *g, double *out, int64_t n, double lo, double hi)
    void agc_normal_serial(agc_gen *g, double *out, int64_t n, double mean, double std)
    void agc_normal_fill_double(agc_gen *g, double *out, int64_t n, double mean, double std)
    void agc_normal_fill_float(agc_gen *g, float *out, int64_t n, float mean, float std)
    void agc_normal_fill_float_avx2(agc_gen *g, float *out, int64_t n, float mean, float std)
    void agc_normal_fill_half(agc_gen *g, float *out, int64_t n, float mean, float std, int avx2)
    void agc_exponential(agc_gen *g, double *out, int64_t n, double lambd)
    void agc_cauchy(agc_gen *g, double *out, int64_t n, double median, double sigma)
    void agc_log_normal(agc_gen *g, double *out, int64_t n, double mean, double std)
    void agc_geometric(agc_gen *g, double *out, int64_t n, double p)
    void agc_random_from_to(agc_gen *g, int64_t *out, int64_t n, uint64_t rng, int64_t base,
                            int use64)
    void agc_random_full64(agc_gen *g, int64_t *out, int64_t n)
    void agc_random_default(agc_gen *g, int64_t *out, int64_t n, uint64_t modulus, int use64)
    void agc_bernoulli_scalar(agc_gen *g, unsigned char *out, int64_t n, double p)
    void agc_bernoulli_double_p(agc_gen *g, unsigned char *out, int64_t n, const double *p)
    void agc_bernoulli_float_p(agc_gen *g, unsigned char *out, int64_t n, const float *p)
    int agc_cpu_has_avx2()
    void agc_randperm(agc_gen *g, int64_t *out, int64_t n)
    void agc_poisson(agc_gen *g, double *out, int64_t n, const double *rates)
    void agc_binomial_double(agc_gen *g, double *out, int64_t n, const double *count,
                             const double *prob)
    void agc_binomial_float(agc_gen *g, float *out, int64_t n, const float *count,
                            const float *prob)
    void agc_multinomial_row(agc_gen *g, int64_t *out, int64_t n_sample, double *cum,
                             int64_t n_categories)
    void agc_standard_gamma_double(agc_gen *g, double *out, int64_t n, const double *alpha)
    void agc_standard_gamma_float(agc_gen *g, float *out, int64_t n, const float *alpha)
    void agc_dirichlet_gamma(agc_gen *g, double *out, int64_t n, const double *alpha)
    void agc_dirichlet_row_sums(const double *x, int64_t rows, int64_t n, double *out)
    void agc_standard_gamma_grad_double(double *out, int64_t n, const double *alpha,
                                        const double *x)
    void agc_standard_gamma_grad_float(float *out, int64_t n, const float *alpha, const float *x)
    void agc_dirichlet_grad_double(double *out, int64_t n, const double *x, const double *alpha,
                                   const double *total)
    void agc_dirichlet_grad_float(float *out, int64_t n, const float *x, const float *alpha,
                                  const float *total)


cdef extern from "agc_fuse.h" nogil:
    # compiled mode's fused elementwise blocks (Note [Fused blocks], _dynamo/__init__.py);
    # linked into autograd_core._dynamo._replay only
    enum agc_fuse_op:
        AGC_F_LOAD
        AGC_F_STORE
        AGC_F_COPY
        AGC_F_ADD
        AGC_F_SUB
        AGC_F_MUL
        AGC_F_DIV
        AGC_F_ADDS
        AGC_F_SUBS
        AGC_F_RSUBS
        AGC_F_MULS
        AGC_F_DIVS
        AGC_F_RDIVS
        AGC_F_NEG
        AGC_F_EXP
        AGC_F_LOG
        AGC_F_SQRT
        AGC_F_TANH
        AGC_F_SIGMOID
        AGC_F_RELU
        AGC_F_TANH_BWD
        AGC_F_SIGMOID_BWD
        AGC_F_RELU_BWD
        AGC_F_DIV_OTHER_BWD
        AGC_F_CALL
    ctypedef void (*agc_fuse_loop)(char **args, const Py_ssize_t *dims,
                                   const Py_ssize_t *steps, void *data)
    ctypedef struct agc_fuse_ins:
        int op
        int r
        int a
        int b
        double s
        agc_fuse_loop loop
        void *loop_data
    enum:
        AGC_FUSE_TILE
        AGC_FUSE_TILE_MAX
    void agc_fuse_run_f32(const agc_fuse_ins *prog, size_t nins, const float *const *inp,
                          float *const *out, size_t n, float *scratch, size_t tile)
    void agc_fuse_run_f64(const agc_fuse_ins *prog, size_t nins, const double *const *inp,
                          double *const *out, size_t n, double *scratch, size_t tile)
