/* Float sums in PyTorch's addition order (CPU).
 *
 * Note [Sum order]
 * A float sum's value depends on the order of its additions; PyTorch's CPU sum
 * (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum) and numpy's pairwise sum
 * differ in the last bits, and a sum that cancels exactly in one order (0.0) does not
 * in the other (2.8e-16): fed to abs() its gradient flips from 0 to +-1 (issue 8).
 * These functions reproduce PyTorch's order exactly, in three layers:
 *   1. TensorIterator's set-up of a reduction: strides of the (viewed) output, the
 *      dims sorted with reduced dims innermost (reorder_dimensions' insertion sort,
 *      ambiguous comparisons included), then coalesced (coalesce_dimensions);
 *   2. parallel_reduce: serial below GRAIN_SIZE (32768) elements or with one thread;
 *      above, a full reduction is cut into one linear chunk per thread whose partial
 *      sums are then summed (two_pass_reduction), any other reduction is split over
 *      its outermost non-reduced dim with the column rounding of
 *      parallel_dim_reduction; within a piece, 2-d slices as DimCounter walks them;
 *   3. the 2-d loop of cascade_sum: its choice between vectorized inner / vectorized
 *      outer / scalar inner / scalar outer sums, multi_row_sum's 4-level cascade and
 *      row_sum's 4-way interleave, with Vectorized<T> modelled as L lanes added
 *      lane by lane (L = vector bytes / sizeof(T)).
 * The result starts at +0 and each piece is added into it, as PyTorch's output is
 * filled with 0 and accumulated into. The arithmetic is in the input's type (float
 * sums accumulate in float: acc_type<float, is_cuda=true>). Not SIMD code: the order
 * is emulated with plain loops the compiler can vectorize where lanes are contiguous.
 * The emulated thread count and vector width are arguments. The width is 32 bytes on
 * every x86 capability: sum_stub and nansum_stub are registered with REGISTER_DISPATCH,
 * which compiles no AVX512 kernel (only ALSO_REGISTER_AVX512_DISPATCH does), so an
 * AVX512 CPU runs the AVX2 kernel, and the DEFAULT build's Vectorized<T> is 32 bytes
 * too (verified: torch 2.13's sums are bitwise the same under ATEN_CPU_CAPABILITY=
 * avx512, avx2 and default; tests/test_sum_order.py checks it). The thread count is
 * torch.get_num_threads()'s: it decides how sums of >= 32768 elements are split. */
#ifndef AGC_SUM_H
#define AGC_SUM_H

#include <stdint.h>

#define AGC_SUM_MAX_DIMS 64

/* Sum `in` (ndim dims of `shape`, byte strides `in_strides`, elements float32 when
 * is_double == 0 else float64) over the dims whose reduce_mask entry is non-zero,
 * into `out`: a C-contiguous buffer of the result's shape (keepdim's or not: the same
 * memory), which this function fills. ignore_nan: nansum (NaNs count as 0).
 * vector_bytes: Vectorized<T>'s size in bytes (32; at most 64). nthreads: the intra-op thread
 * count PyTorch would use. Returns 0, or -1 if ndim is too large or memory runs out. */
int agc_sum(const char *in, int ndim, const int64_t *shape, const int64_t *in_strides,
            const unsigned char *reduce_mask, int keepdim, char *out, int is_double,
            int ignore_nan, int vector_bytes, int nthreads);

#endif
