/* Float sums in PyTorch's addition order: see Note [Sum order] in agc_sum.h. */
#include "agc_sum.h"

#include <stdlib.h>
#include <string.h>

/* widest accumulator set: 4 rows of 16 lanes (float32 under AVX512) */
#define AGC_SUM_MAX_W 64
#define GRAIN_SIZE 32768   /* at::internal::GRAIN_SIZE */

/* utils::CeilLog2 */
static inline int64_t ceil_log2(int64_t x) {
    if (x <= 2) return 1;
    return 64 - __builtin_clzll((unsigned long long)(x - 1));
}

#define T float
#define SFX f32
#define IGNORE_NAN 0
#include "agc_sum_loop.h"
#undef SFX
#undef IGNORE_NAN
#define SFX f32_nan
#define IGNORE_NAN 1
#include "agc_sum_loop.h"
#undef SFX
#undef IGNORE_NAN
#undef T
#define T double
#define SFX f64
#define IGNORE_NAN 0
#include "agc_sum_loop.h"
#undef SFX
#undef IGNORE_NAN
#define SFX f64_nan
#define IGNORE_NAN 1
#include "agc_sum_loop.h"
#undef SFX
#undef IGNORE_NAN
#undef T

typedef void (*loop_fn)(char *, const char *, const int64_t *, int64_t, int64_t, int);

/* A reduction's TensorIterator after set-up: dim 0 innermost; byte strides of the
 * output (0 along reduced dims) and of the input. */
typedef struct {
    int nd;
    int64_t shape[AGC_SUM_MAX_DIMS];
    int64_t so[AGC_SUM_MAX_DIMS];
    int64_t si[AGC_SUM_MAX_DIMS];
} red_iter;

typedef struct {
    loop_fn loop;
    int lanes;
    int64_t el;
} red_kernel;

/* reorder_dimensions' comparison: 1 if dim d0 goes after d1, -1 before, 0 ambiguous.
 * The output is operand 0: a reduced dim (output stride 0) goes before one that is
 * not; otherwise smaller strides first, and on equal strides the smaller size. */
static int should_swap(const red_iter *it, int d0, int d1) {
    for (int arg = 0; arg < 2; ++arg) {
        const int64_t *st = arg == 0 ? it->so : it->si;
        int64_t s0 = st[d0], s1 = st[d1];
        if (arg == 0 && ((s0 == 0) != (s1 == 0))) return s1 == 0 ? 1 : -1;
        if (s0 == 0 || s1 == 0) continue;
        if (s0 < s1) return -1;
        if (s0 > s1) return 1;
        if (it->shape[d0] > it->shape[d1]) return 1;
    }
    return 0;
}

/* TensorIterator::reduce_op(out, in) set-up: compute_strides (an output dim of size 1
 * against an input dim that is not has stride 0), reorder_dimensions, coalesce. The
 * tensors' dims are given outermost first (PyTorch's order); out_shape1[i] says the
 * viewed output has size 1 at dim i. */
static void build_iter(red_iter *it, int ndim, const int64_t *shape, const int64_t *in_strides,
                       const int64_t *out_strides, const unsigned char *out_shape1) {
    int64_t sh[AGC_SUM_MAX_DIMS], so[AGC_SUM_MAX_DIMS], si[AGC_SUM_MAX_DIMS];
    int perm[AGC_SUM_MAX_DIMS];
    /* TensorIterator's dim k is the tensors' dim ndim - 1 - k */
    for (int k = 0; k < ndim; ++k) {
        int d = ndim - 1 - k;
        sh[k] = shape[d];
        si[k] = in_strides[d];
        so[k] = (out_shape1[d] && shape[d] != 1) ? 0 : out_strides[d];
    }
    it->nd = ndim;
    memcpy(it->shape, sh, sizeof(int64_t) * ndim);
    memcpy(it->so, so, sizeof(int64_t) * ndim);
    memcpy(it->si, si, sizeof(int64_t) * ndim);
    if (ndim > 1) {
        for (int k = 0; k < ndim; ++k) perm[k] = k;
        /* insertion sort with ambiguous comparisons */
        for (int i = 1; i < ndim; ++i) {
            int dim1 = i;
            for (int dim0 = i - 1; dim0 >= 0; dim0--) {
                int c = should_swap(it, perm[dim0], perm[dim1]);
                if (c > 0) {
                    int t = perm[dim0]; perm[dim0] = perm[dim1]; perm[dim1] = t;
                    dim1 = dim0;
                } else if (c < 0) {
                    break;
                }
            }
        }
        for (int k = 0; k < ndim; ++k) {
            it->shape[k] = sh[perm[k]];
            it->so[k] = so[perm[k]];
            it->si[k] = si[perm[k]];
        }
        /* coalesce_dimensions */
        int prev = 0;
        for (int d = 1; d < ndim; ++d) {
            int64_t s0 = it->shape[prev], s1 = it->shape[d];
            int can = s0 == 1 || s1 == 1 ||
                      (s0 * it->so[prev] == it->so[d] && s0 * it->si[prev] == it->si[d]);
            if (can) {
                if (s0 == 1) {
                    it->so[prev] = it->so[d];
                    it->si[prev] = it->si[d];
                }
                it->shape[prev] *= s1;
            } else {
                prev++;
                if (prev != d) {
                    it->so[prev] = it->so[d];
                    it->si[prev] = it->si[d];
                    it->shape[prev] = it->shape[d];
                }
            }
        }
        it->nd = prev + 1;
    }
}

static int64_t iter_numel(const red_iter *it) {
    int64_t n = 1;
    for (int k = 0; k < it->nd; ++k) n *= it->shape[k];
    return n;
}

/* serial_for_each over the linear range [begin, end): 2-d slices as DimCounter steps. */
static void serial_for_each(const red_iter *it, const red_kernel *kn, char *out,
                            const char *in, int64_t begin, int64_t end) {
    if (end <= begin) return;
    int nd = it->nd;
    if (nd <= 1) {
        int64_t s[4] = {nd ? it->so[0] : 0, nd ? it->si[0] : 0, 0, 0};
        kn->loop(out + begin * s[0], in + begin * s[1], s, end - begin, 1, kn->lanes);
        return;
    }
    int64_t values[AGC_SUM_MAX_DIMS];
    int64_t lin = begin;
    for (int d = 0; d < nd; ++d) {
        values[d] = 0;
        if (it->shape[d] > 0) {
            values[d] = lin % it->shape[d];
            lin /= it->shape[d];
        }
    }
    int64_t s[4] = {it->so[0], it->si[0], it->so[1], it->si[1]};
    int64_t offset = begin;
    while (offset < end) {
        char *o = out;
        const char *x = in;
        for (int d = 0; d < nd; ++d) {
            o += values[d] * it->so[d];
            x += values[d] * it->si[d];
        }
        /* max_2d_step */
        int64_t step0 = it->shape[0] - values[0];
        if (end - offset < step0) step0 = end - offset;
        int64_t step1 = 1;
        if (step0 == it->shape[0]) {
            step1 = it->shape[1] - values[1];
            if ((end - offset) / it->shape[0] < step1) step1 = (end - offset) / it->shape[0];
        }
        kn->loop(o, x, s, step0, step1, kn->lanes);
        /* increment */
        offset += step0 * step1;
        int64_t overflow = step0;
        int i = 0;
        if (step1 != 1) {
            i = 1;
            overflow = step1;
        }
        for (; i < nd && overflow > 0; i++) {
            int64_t value = values[i] + overflow;
            if (value >= it->shape[i]) {
                overflow = 1;
                value -= it->shape[i];
            } else {
                overflow = 0;
            }
            values[i] = value;
        }
    }
}

static inline int64_t divup(int64_t a, int64_t b) { return (a + b - 1) / b; }

int agc_sum(const char *in, int ndim, const int64_t *shape, const int64_t *in_strides,
            const unsigned char *reduce_mask, int keepdim, char *out, int is_double,
            int ignore_nan, int vector_bytes, int nthreads) {
    if (ndim < 0 || ndim > AGC_SUM_MAX_DIMS) return -1;
    red_kernel kn;
    kn.el = is_double ? 8 : 4;
    kn.lanes = (int)(vector_bytes / kn.el);
    kn.loop = is_double ? (ignore_nan ? sum_loop_f64_nan : sum_loop_f64)
                        : (ignore_nan ? sum_loop_f32_nan : sum_loop_f32);
    if (kn.lanes < 1 || kn.lanes > 16) return -1;
    if (nthreads < 1) nthreads = 1;

    int64_t numel = 1, out_numel = 1;
    for (int d = 0; d < ndim; ++d) {
        numel *= shape[d];
        if (!reduce_mask[d]) out_numel *= shape[d];
    }
    memset(out, 0, (size_t)(out_numel * kn.el));      /* output.fill_(0) */
    if (numel == 0) return 0;

    /* The viewed output (review_reduce_result): size 1 at reduced dims; its strides are
     * the contiguous result's, with 0 inserted at reduced dims unless keepdim (where
     * the kept dim's own contiguous stride stands). */
    int64_t ostr[AGC_SUM_MAX_DIMS];
    unsigned char oshape1[AGC_SUM_MAX_DIMS];
    int64_t acc = kn.el;
    for (int d = ndim - 1; d >= 0; --d) {
        int64_t size = reduce_mask[d] ? 1 : shape[d];
        oshape1[d] = size == 1;
        if (reduce_mask[d] && !keepdim) {
            ostr[d] = 0;
        } else {
            ostr[d] = acc;
            acc *= size > 1 ? size : 1;
        }
    }
    red_iter it;
    build_iter(&it, ndim, shape, in_strides, ostr, oshape1);

    if (numel < GRAIN_SIZE || nthreads == 1) {
        serial_for_each(&it, &kn, out, in, 0, numel);
    } else if (out_numel == 1) {
        /* two_pass_reduction: per-thread partial sums into a buffer (each thread's
         * iterator views a contiguous all-ones slice), then the buffer summed */
        char *buffer = calloc((size_t)nthreads, (size_t)kn.el);
        if (!buffer) return -1;
        int64_t ones[AGC_SUM_MAX_DIMS];
        unsigned char all1[AGC_SUM_MAX_DIMS];
        for (int d = 0; d < ndim; ++d) {
            ones[d] = kn.el;
            all1[d] = 1;
        }
        red_iter sub;
        build_iter(&sub, ndim, shape, in_strides, ones, all1);
        int64_t nt = 1;
        if (numel > GRAIN_SIZE) {             /* parallel_for's use_parallel */
            nt = divup(numel, GRAIN_SIZE);
            if (nt > nthreads) nt = nthreads;
        }
        int64_t chunk = divup(numel, nt);
        for (int64_t t = 0; t < nt; ++t) {
            int64_t b = t * chunk, e = b + chunk < numel ? b + chunk : numel;
            serial_for_each(&sub, &kn, buffer + t * kn.el, in, b, e);
        }
        int64_t s[4] = {0, kn.el, 0, 0};
        kn.loop(out, buffer, s, nthreads, 1, kn.lanes);
        free(buffer);
    } else {
        /* parallel_dim_reduction: find_split_dim, then one piece of columns per thread
         * (rounded to 128 bytes when the columns are adjacent in memory) */
        int best = it.nd - 1;
        int dim = -1;
        for (int d = best; d >= 0 && !(it.so[d] == 0 && it.shape[d] > 1); d--) {
            if (it.shape[d] >= nthreads) {
                dim = d;
                break;
            } else if (it.shape[d] > it.shape[best]) {
                best = d;
            }
        }
        if (dim < 0) dim = best;
        int64_t cols = it.shape[dim];
        int round = it.si[dim] == kn.el;
        int64_t nt = 1;
        if (cols > 1) nt = cols < nthreads ? cols : nthreads;
        int64_t chunk = divup(cols, nt);
        for (int64_t t = 0; t < nt; ++t) {
            int64_t b = t * chunk;
            if (b >= cols) break;
            int64_t e = b + chunk < cols ? b + chunk : cols;
            if (round) {
                int64_t m = 128 / kn.el;
                b -= b % m;
                if (e != cols) e -= e % m;
            }
            if (b == e) continue;
            red_iter sub = it;
            sub.shape[dim] = e - b;
            serial_for_each(&sub, &kn, out + b * it.so[dim], in + b * it.si[dim], 0,
                            iter_numel(&sub));
        }
    }
    return 0;
}
