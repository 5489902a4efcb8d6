// The shape table (shape_table.h): interning the bodies' shapes, their
// reference counts, the free list and the hash over the entries.
#include "shape_table.h"

#include "array.h"
#include "hash.h"

#include <string.h>

static uint32_t hash_of(const ledge_shape *s) {
    return (uint32_t)ledge__hash(s, sizeof *s, 0);
}

// Files entry e in the hash (its slot cannot be full: at most half are).
static void file_entry(ledge__shape_table *t, int e) {
    uint32_t mask = (uint32_t)t->slot_cap - 1u;
    uint32_t k = t->hash[e] & mask;
    while (t->slots[k] != 0) k = (k + 1u) & mask;
    t->slots[k] = e + 1;
}

bool ledge__shapes_reserve(ledge__shape_table *t, int more) {
    long long need = (long long)t->count + (more > t->free_count ? more - t->free_count : 0);
    if (need <= t->cap && t->cap > 0) return true;
    long long cap = t->cap < 4 ? 4 : 2LL * t->cap;
    if (cap < need) cap = need;
    long long slot_cap = 8;
    while (slot_cap < 2 * cap) slot_cap *= 2;
    if (slot_cap > INT_MAX) return false;
    ledge_shape *shapes = ledge__array_copy(t->shapes, t->count, cap, sizeof *shapes);
    uint32_t *refs = ledge__array_copy(t->refs, t->count, cap, sizeof *refs);
    uint32_t *hash = ledge__array_copy(t->hash, t->count, cap, sizeof *hash);
    int *free = ledge__array_copy(t->free, t->free_count, cap, sizeof *free);
    int *slots = ledge__alloc(sizeof *slots * (size_t)slot_cap);
    if (slots != NULL) memset(slots, 0, sizeof *slots * (size_t)slot_cap);
    if (shapes == NULL || refs == NULL || hash == NULL || free == NULL || slots == NULL) {
        ledge__free(shapes);
        ledge__free(refs);
        ledge__free(hash);
        ledge__free(free);
        ledge__free(slots);
        return false;
    }
    ledge__free(t->shapes);
    ledge__free(t->refs);
    ledge__free(t->hash);
    ledge__free(t->free);
    ledge__free(t->slots);
    t->shapes = shapes;
    t->refs = refs;
    t->hash = hash;
    t->free = free;
    t->slots = slots;
    t->cap = (int)cap;
    t->slot_cap = (int)slot_cap;
    for (int e = 0; e < t->count; ++e) {
        if (t->refs[e] > 0) file_entry(t, e);
    }
    return true;
}

int ledge__shapes_find(const ledge__shape_table *t, const ledge_shape *s) {
    if (t->slot_cap == 0) return -1;
    uint32_t mask = (uint32_t)t->slot_cap - 1u;
    for (uint32_t k = hash_of(s) & mask;; k = (k + 1u) & mask) {
        int e = t->slots[k] - 1;
        if (e < 0) return -1;
        if (memcmp(&t->shapes[e], s, sizeof *s) == 0) return e;
    }
}

int ledge__shapes_add(ledge__shape_table *t, const ledge_shape *s, uint32_t refs) {
    int e = ledge__shapes_find(t, s);
    if (e < 0) {
        e = t->free_count > 0 ? t->free[--t->free_count] : t->count++;
        LEDGE_ASSERT(e < t->cap); // (room reserved by the caller)
        t->shapes[e] = *s;
        t->hash[e] = hash_of(s);
        t->refs[e] = 0;
        file_entry(t, e);
    }
    t->refs[e] += refs;
    return e;
}

// Empties slot k and moves later entries of its probe run back into the
// gap (linear probing's deletion: no tombstones, so lookups stay short).
static void unfile_slot(ledge__shape_table *t, uint32_t k) {
    uint32_t mask = (uint32_t)t->slot_cap - 1u;
    for (uint32_t j = k;;) {
        j = (j + 1u) & mask;
        if (t->slots[j] == 0) break;
        uint32_t home = t->hash[t->slots[j] - 1] & mask;
        // The entry at j stays when its home lies cyclically in (k, j].
        bool stays = k <= j ? (k < home && home <= j) : (k < home || home <= j);
        if (stays) continue;
        t->slots[k] = t->slots[j];
        k = j;
    }
    t->slots[k] = 0;
}

void ledge__shapes_release(ledge__shape_table *t, int e) {
    LEDGE_ASSERT(e >= 0 && e < t->count && t->refs[e] > 0);
    if (--t->refs[e] > 0) return;
    uint32_t mask = (uint32_t)t->slot_cap - 1u;
    uint32_t k = t->hash[e] & mask;
    while (t->slots[k] != e + 1) k = (k + 1u) & mask;
    unfile_slot(t, k);
    t->free[t->free_count++] = e;
}

void ledge__shapes_clear(ledge__shape_table *t) {
    if (t->slots != NULL) memset(t->slots, 0, sizeof *t->slots * (size_t)t->slot_cap);
    if (t->refs != NULL) memset(t->refs, 0, sizeof *t->refs * (size_t)t->count);
    t->count = 0;
    t->free_count = 0;
}

int ledge__shapes_live(const ledge__shape_table *t) {
    return t->count - t->free_count;
}

void ledge__shapes_free(ledge__shape_table *t) {
    ledge__free(t->shapes);
    ledge__free(t->refs);
    ledge__free(t->hash);
    ledge__free(t->free);
    ledge__free(t->slots);
    memset(t, 0, sizeof *t);
}
