/* A small cache of large numpy data buffers, for results that are fresh memory on every
 * call (vmap's per-sample weight gradients, autograd_core/ops/nn.pyx _per_sample_outer).
 *
 * Note [Buffer cache]
 * Per-sample gradients are B copies of every weight: ~1.7 MB for a small MLP at batch 64,
 * allocated on each vmap(grad) call and freed when the caller drops them. glibc gives
 * the freed top of its heap back to the OS between calls (its trim threshold follows the
 * largest freed mmapped block, ~2 MB), so each call faulted ~300 pages in again: more
 * time than the rest of the call on a busy machine. Arrays allocated through this
 * cache's numpy memory handler (PyDataMem_SetHandler around their creation only: no
 * other array uses it) return their block to the cache when numpy frees them, and the
 * next request of the same rounded size takes it back: no page faults, no syscalls.
 *
 * Semantics: a block is handed out again only after numpy has freed the array that owned
 * it (its last view gone), so cached results never alias each other or later results;
 * contents of a reused block are stale (the callers overwrite every element, as after
 * np.empty). Bounds: blocks of at least AGC_BUF_MIN bytes are cached (smaller ones go
 * straight back to free()), at most AGC_BUF_SLOTS of them and AGC_BUF_LIMIT bytes in all;
 * a block that does not fit is freed. The lock is a spinlock: numpy frees arrays with the
 * GIL held, so it is never contended in CPython with the GIL; it keeps the cache sound
 * where frees could come from threads without it.
 *
 * Plain C: the handler capsule numpy wants is made in ops/nn.pyx. */
#ifndef AGC_BUFCACHE_H
#define AGC_BUFCACHE_H

#include <stddef.h>

#define AGC_BUF_MIN ((size_t)1 << 16)         /* 64 KiB */
#define AGC_BUF_LIMIT ((size_t)64 << 20)      /* 64 MiB cached at most */
#define AGC_BUF_SLOTS 32

/* The allocator, with the signatures of numpy's PyDataMemAllocator (ctx unused); the
 * handler capsule numpy wants is made from them in ops/nn.pyx. */
void *agc_buf_malloc(void *ctx, size_t size);
void *agc_buf_calloc(void *ctx, size_t nelem, size_t elsize);
void *agc_buf_realloc(void *ctx, void *ptr, size_t size);
void agc_buf_free(void *ctx, void *ptr, size_t size);

/* Bytes held by the cache right now (for the tests). */
size_t agc_buf_cached_bytes(void);

/* Frees every cached block. */
void agc_buf_release(void);

#endif
