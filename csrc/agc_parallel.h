/* Intra-op parallelism for the C loops: a small thread pool and a parallel-for.
 *
 * Compiled into one extension module only (autograd_core._core.tensor): the pool and
 * the thread count exist once per process. The modules whose loops use it
 * (autograd_core.ops.nn, .pointwise) get the entry point agc_parallel_for through
 * tensor.pxd at import and hand it to their C files (agc_nn_set_parallel_for, ...), so
 * those stay plain C that links nothing of this file.
 *
 * Note [Bitwise-identical parallel loops]
 * A loop handed to agc_parallel_for is split into ranges of its items (planes, rows,
 * elements) such that every output element is written by the one range that owns it,
 * with the same operations in the same order as the one-thread loop. The result is
 * therefore bitwise the same whatever the thread count and whichever thread runs which
 * range; a reduction across items (a loss summed over the batch) is not split.
 */
#ifndef AGC_PARALLEL_H
#define AGC_PARALLEL_H

#include <stddef.h>

/* One range [begin, end) of a loop's n items. */
typedef void (*agc_range_fn)(void *ctx, ptrdiff_t begin, ptrdiff_t end);

typedef void (*agc_parallel_for_fn)(ptrdiff_t n, ptrdiff_t grain, agc_range_fn fn, void *ctx);

/* Work (in elements touched) below which a loop runs on the calling thread alone: waking
 * a worker costs a few microseconds, the time of some 30000 elements (PyTorch's
 * at::internal::GRAIN_SIZE is the same 32768). */
#define AGC_PARALLEL_GRAIN 32768

/* fn(ctx, b, e) over ranges covering [0, n), each of at least `grain` items (but the
 * last), on up to agc_get_num_threads() threads including the caller; returns when all
 * are done. One range (n <= grain, one thread, or the pool busy with another caller's
 * loop) runs as fn(ctx, 0, n) on the caller. Runs without the GIL; fn must not call
 * back into Python. */
void agc_parallel_for(ptrdiff_t n, ptrdiff_t grain, agc_range_fn fn, void *ctx);

/* Note [Sharing the cores with BLAS]
 * numpy's BLAS (OpenBLAS) keeps its worker threads spinning after each matrix product,
 * waiting for the next (for up to 2^28 cycles, about 0.1 s). A loop of ours split across
 * threads meanwhile shares the cores with them, and a range held by a worker the OS has
 * set aside delays the whole loop: the cnn step of benchmarks/run.py ran 5-25% slower on
 * the pool's two threads than on one. The ops that call BLAS report it with the
 * product's size (agc_parallel_blas_called); for AGC_BLAS_WINDOW_NS after a product of
 * at least AGC_BLAS_THREADED_MADDS multiply-adds, a loop runs on the caller alone. A
 * smaller product leaves the workers asleep (OpenBLAS runs one thread below 65536
 * multiply-adds, SMP_THRESHOLD_MIN, times a factor of 4 for GEMM), so it is not counted;
 * loops away from large products (a chain of pointwise ops) still split. */
#define AGC_BLAS_WINDOW_NS 100000000
#define AGC_BLAS_THREADED_MADDS 65536.0
void agc_parallel_blas_called(double multiply_adds);

/* The number of threads a loop may use (torch.set_num_threads); at least 1. */
void agc_set_num_threads(int n);
int agc_get_num_threads(void);

/* Items per range for a loop of items that each touch `work` elements: at least one,
 * enough that a range is worth a thread. */
static inline ptrdiff_t agc_grain_for(ptrdiff_t work)
{
    return work >= AGC_PARALLEL_GRAIN ? 1 : (work <= 0 ? AGC_PARALLEL_GRAIN : AGC_PARALLEL_GRAIN / work);
}

#endif
