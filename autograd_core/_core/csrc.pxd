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
