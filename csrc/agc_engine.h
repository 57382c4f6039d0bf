/* Data structures for one backward pass.
 *
 * Plain C, no Python API: the Cython engine (autograd_core/_core/engine.pyx) owns the
 * Python objects and uses these only to map node pointers to dense indices and to
 * order ready nodes. */
#ifndef AGC_ENGINE_H
#define AGC_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* Open-addressing hash map from a pointer (a graph node) to a dense int32 index. A
 * slot holds its key and value side by side: a lookup in a map larger than the cache
 * costs one miss, not two. */
typedef struct {
    const void *key;   /* NULL marks an empty slot */
    int32_t val;
} agc_ptrmap_slot;

typedef struct {
    agc_ptrmap_slot *slots;
    size_t cap;        /* power of two */
    size_t len;
} agc_ptrmap;

int agc_ptrmap_init(agc_ptrmap *m, size_t hint);           /* 0 ok, -1 out of memory */
void agc_ptrmap_free(agc_ptrmap *m);
int32_t agc_ptrmap_get(const agc_ptrmap *m, const void *key); /* -1 when absent */
int agc_ptrmap_put(agc_ptrmap *m, const void *key, int32_t val); /* 0 ok, -1 oom */
/* key's value if present; else inserts val (>= 0) and returns it; -1 out of memory.
 * One probe sequence where get-then-put takes two. */
int32_t agc_ptrmap_get_or_put(agc_ptrmap *m, const void *key, int32_t val);

/* Max-heap of ready nodes keyed by sequence number: the most recently created node
 * runs first (PyTorch's ReadyQueue order). */
typedef struct {
    uint64_t seq;
    int32_t idx;
} agc_heap_item;

typedef struct {
    agc_heap_item *items;
    size_t len;
    size_t cap;
} agc_heap;

int agc_heap_init(agc_heap *h, size_t hint);
void agc_heap_free(agc_heap *h);
int agc_heap_push(agc_heap *h, uint64_t seq, int32_t idx); /* 0 ok, -1 oom */
int32_t agc_heap_pop(agc_heap *h);                         /* -1 when empty */

/* Growable int32 array (dependency counts, per-node flags). */
typedef struct {
    int32_t *data;
    size_t len;
    size_t cap;
} agc_intvec;

int agc_intvec_init(agc_intvec *v, size_t hint);
void agc_intvec_free(agc_intvec *v);
int agc_intvec_push(agc_intvec *v, int32_t x); /* 0 ok, -1 oom */

#endif
