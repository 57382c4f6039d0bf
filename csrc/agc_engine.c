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
    m->slots = (agc_ptrmap_slot *)calloc(cap, sizeof(agc_ptrmap_slot));
    m->cap = cap;
    m->len = 0;
    if (!m->slots) {
        agc_ptrmap_free(m);
        return -1;
    }
    return 0;
}

void agc_ptrmap_free(agc_ptrmap *m) {
    free(m->slots);
    m->slots = NULL;
    m->cap = m->len = 0;
}

int32_t agc_ptrmap_get(const agc_ptrmap *m, const void *key) {
    size_t mask = m->cap - 1, i = hash_ptr(key) & mask;
    while (m->slots[i].key) {
        if (m->slots[i].key == key) return m->slots[i].val;
        i = (i + 1) & mask;
    }
    return -1;
}

/* keep the load factor at most 1/2: double the table before the insertion that
 * would pass it. 0 ok, -1 oom (the map unchanged). */
static int reserve_one(agc_ptrmap *m) {
    if ((m->len + 1) * 2 <= m->cap) return 0;
    size_t cap = m->cap * 2, mask = cap - 1;
    agc_ptrmap_slot *slots = (agc_ptrmap_slot *)calloc(cap, sizeof(agc_ptrmap_slot));
    if (!slots) return -1;
    for (size_t j = 0; j < m->cap; j++) {
        const void *key = m->slots[j].key;
        if (!key) continue;
        size_t i = hash_ptr(key) & mask;
        while (slots[i].key) i = (i + 1) & mask;
        slots[i] = m->slots[j];
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

int agc_ptrmap_put(agc_ptrmap *m, const void *key, int32_t val) {
    if (reserve_one(m) != 0) return -1;
    size_t mask = m->cap - 1, i = hash_ptr(key) & mask;
    while (m->slots[i].key && m->slots[i].key != key) i = (i + 1) & mask;
    if (!m->slots[i].key) m->len++;
    m->slots[i].key = key;
    m->slots[i].val = val;
    return 0;
}

int32_t agc_ptrmap_get_or_put(agc_ptrmap *m, const void *key, int32_t val) {
    size_t mask = m->cap - 1, i = hash_ptr(key) & mask;
    while (m->slots[i].key) {
        if (m->slots[i].key == key) return m->slots[i].val;
        i = (i + 1) & mask;
    }
    if ((m->len + 1) * 2 > m->cap) {
        if (reserve_one(m) != 0) return -1;
        mask = m->cap - 1;
        i = hash_ptr(key) & mask;
        while (m->slots[i].key) i = (i + 1) & mask;
    }
    m->slots[i].key = key;
    m->slots[i].val = val;
    m->len++;
    return val;
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
