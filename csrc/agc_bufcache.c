/* The buffer cache of agc_bufcache.h (Note [Buffer cache]). */
#include "agc_bufcache.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Each block starts with a header holding its capacity (the bytes after the header):
 * numpy's free passes the array's current size, which a realloc may have changed, so the
 * block's own record decides where it goes. 16 bytes keep malloc's alignment. */
#define HEADER 16

typedef struct {
    void *base;
    size_t cap;
} slot;

static slot slots[AGC_BUF_SLOTS];
static int nslots;
static size_t cached;
static atomic_flag lock = ATOMIC_FLAG_INIT;

static void acquire(void)
{
    while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
        ;
}

static void release(void)
{
    atomic_flag_clear_explicit(&lock, memory_order_release);
}

static size_t rounded(size_t size)
{
    /* whole pages for the cached sizes, so requests that differ by a few bytes meet */
    return size < AGC_BUF_MIN ? (size ? size : 1) : (size + 4095) & ~(size_t)4095;
}

static void *block_data(char *base, size_t cap)
{
    memcpy(base, &cap, sizeof cap);
    return base + HEADER;
}

void *agc_buf_malloc(void *ctx, size_t size)
{
    (void)ctx;
    size_t cap = rounded(size);
    if (cap >= AGC_BUF_MIN) {
        acquire();
        for (int i = nslots - 1; i >= 0; i--) {       /* the most recently freed first */
            if (slots[i].cap == cap) {
                char *base = slots[i].base;
                slots[i] = slots[--nslots];
                cached -= cap;
                release();
                return base + HEADER;
            }
        }
        release();
    }
    char *base = malloc(HEADER + cap);
    return base ? block_data(base, cap) : NULL;
}

void *agc_buf_calloc(void *ctx, size_t nelem, size_t elsize)
{
    if (elsize && nelem > (size_t)-1 / elsize)
        return NULL;
    void *p = agc_buf_malloc(ctx, nelem * elsize);
    if (p)
        memset(p, 0, nelem * elsize);
    return p;
}

void agc_buf_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    if (!ptr)
        return;
    char *base = (char *)ptr - HEADER;
    size_t cap;
    memcpy(&cap, base, sizeof cap);
    if (cap >= AGC_BUF_MIN) {
        acquire();
        if (nslots < AGC_BUF_SLOTS && cached + cap <= AGC_BUF_LIMIT) {
            slots[nslots].base = base;
            slots[nslots].cap = cap;
            nslots++;
            cached += cap;
            release();
            return;
        }
        release();
    }
    free(base);
}

void *agc_buf_realloc(void *ctx, void *ptr, size_t size)
{
    if (!ptr)
        return agc_buf_malloc(ctx, size);
    size_t cap;
    memcpy(&cap, (char *)ptr - HEADER, sizeof cap);
    if (size <= cap)
        return ptr;
    void *p = agc_buf_malloc(ctx, size);
    if (!p)
        return NULL;          /* the old block stays valid, as realloc's contract */
    memcpy(p, ptr, cap);
    agc_buf_free(ctx, ptr, cap);
    return p;
}

size_t agc_buf_cached_bytes(void)
{
    acquire();
    size_t n = cached;
    release();
    return n;
}

void agc_buf_release(void)
{
    acquire();
    while (nslots > 0) {
        nslots--;
        free(slots[nslots].base);
    }
    cached = 0;
    release();
}
