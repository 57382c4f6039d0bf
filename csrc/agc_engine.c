#include "agc_engine.h"

#include <stdlib.h>
#include <string.h>

/* ---- pointer map ---- */

static size_t hash_ptr(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

int agc_ptrmap_init(agc_ptrmap *m, size_t hint) {
    size_t cap = 16;
    while (cap < hint * 2) cap <<= 1;
    m->keys = (const void **)calloc(cap, sizeof(void *));
    m->vals = (int32_t *)malloc(cap * sizeof(int32_t));
    m->cap = cap;
    m->len = 0;
    if (!m->keys || !m->vals) {
        agc_ptrmap_free(m);
        return -1;
    }
    return 0;
}

void agc_ptrmap_free(agc_ptrmap *m) {
    free((void *)m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->len = 0;
}

int32_t agc_ptrmap_get(const agc_ptrmap *m, const void *key) {
    size_t mask = m->cap - 1, i = hash_ptr(key) & mask;
    while (m->keys[i]) {
        if (m->keys[i] == key) return m->vals[i];
        i = (i + 1) & mask;
    }
    return -1;
}

static void put_unchecked(const void **keys, int32_t *vals, size_t cap,
                          const void *key, int32_t val) {
    size_t mask = cap - 1, i = hash_ptr(key) & mask;
    while (keys[i] && keys[i] != key) i = (i + 1) & mask;
    keys[i] = key;
    vals[i] = val;
}

int agc_ptrmap_put(agc_ptrmap *m, const void *key, int32_t val) {
    if ((m->len + 1) * 2 > m->cap) {  /* keep the load factor at most 1/2 */
        size_t cap = m->cap * 2;
        const void **keys = (const void **)calloc(cap, sizeof(void *));
        int32_t *vals = (int32_t *)malloc(cap * sizeof(int32_t));
        if (!keys || !vals) {
            free((void *)keys);
            free(vals);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) put_unchecked(keys, vals, cap, m->keys[i], m->vals[i]);
        free((void *)m->keys);
        free(m->vals);
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
    }
    size_t before = m->len;
    size_t mask = m->cap - 1, i = hash_ptr(key) & mask;
    while (m->keys[i] && m->keys[i] != key) i = (i + 1) & mask;
    if (!m->keys[i]) m->len = before + 1;
    m->keys[i] = key;
    m->vals[i] = val;
    return 0;
}

/* ---- ready heap ---- */

int agc_heap_init(agc_heap *h, size_t hint) {
    h->cap = hint < 16 ? 16 : hint;
    h->len = 0;
    h->items = (agc_heap_item *)malloc(h->cap * sizeof(agc_heap_item));
    return h->items ? 0 : -1;
}

void agc_heap_free(agc_heap *h) {
    free(h->items);
    h->items = NULL;
    h->len = h->cap = 0;
}

int agc_heap_push(agc_heap *h, uint64_t seq, int32_t idx) {
    if (h->len == h->cap) {
        size_t cap = h->cap * 2;
        agc_heap_item *items = (agc_heap_item *)realloc(h->items, cap * sizeof(agc_heap_item));
        if (!items) return -1;
        h->items = items;
        h->cap = cap;
    }
    size_t i = h->len++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (h->items[parent].seq >= seq) break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i].seq = seq;
    h->items[i].idx = idx;
    return 0;
}

int32_t agc_heap_pop(agc_heap *h) {
    if (h->len == 0) return -1;
    int32_t top = h->items[0].idx;
    agc_heap_item last = h->items[--h->len];
    size_t i = 0, n = h->len;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && h->items[child + 1].seq > h->items[child].seq) child++;
        if (h->items[child].seq <= last.seq) break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (n) h->items[i] = last;
    return top;
}

/* ---- int vector ---- */

int agc_intvec_init(agc_intvec *v, size_t hint) {
    v->cap = hint < 16 ? 16 : hint;
    v->len = 0;
    v->data = (int32_t *)malloc(v->cap * sizeof(int32_t));
    return v->data ? 0 : -1;
}

void agc_intvec_free(agc_intvec *v) {
    free(v->data);
    v->data = NULL;
    v->len = v->cap = 0;
}

int agc_intvec_push(agc_intvec *v, int32_t x) {
    if (v->len == v->cap) {
        size_t cap = v->cap * 2;
        int32_t *data = (int32_t *)realloc(v->data, cap * sizeof(int32_t));
        if (!data) return -1;
        v->data = data;
        v->cap = cap;
    }
    v->data[v->len++] = x;
    return 0;
}
