// The body store (body_store.h): growth, release and reordering of the
// arrays its list declares, and the handles behind the ids.
#include "body_store.h"

#include <string.h>

// Every array of the store and the scratch as (address of the pointer,
// element size), in list order: what growth and release walk.
typedef struct field_ref {
    void **array;
    size_t size;
} field_ref;

enum { INDEX_ARRAYS = 2 }; // free_handles and slot_of: indexed by handle, never reordered

#define REF_STORED(class, T, name)                                                                 \
    LEDGE__STORED(class)(refs[k].array = (void **)&w->name; refs[k++].size = sizeof(T);)
#define REF_SCRATCH(class, T, name)                                                                \
    LEDGE__SCRATCHED(class)(refs[k].array = (void **)&w->step.name; refs[k++].size = sizeof(T);)

static int list_fields(ledge_world *w, field_ref *refs) {
    int k = 0;
    LEDGE__BODY_FIELDS(REF_STORED)
    LEDGE__BODY_FIELDS(REF_SCRATCH)
    refs[k].array = (void **)&w->free_handles;
    refs[k++].size = sizeof(int);
    refs[k].array = (void **)&w->slot_of;
    refs[k++].size = sizeof(int);
    return k;
}

enum { ALL_ARRAYS = LEDGE__BODY_FIELD_COUNT + INDEX_ARRAYS };

bool ledge__store_grow(ledge_world *w, int capacity, const char *fn) {
    field_ref refs[ALL_ARRAYS];
    void *fresh[ALL_ARRAYS];
    int n = list_fields(w, refs);
    for (int k = 0; k < n; ++k) {
        fresh[k] = ledge__array_copy(*refs[k].array, w->capacity, capacity, refs[k].size);
        if (fresh[k] == NULL) {
            for (int j = 0; j < k; ++j) ledge__free(fresh[j]);
            LEDGE_ERROR("%s: allocation of %d body slots failed", fn, capacity);
            return false;
        }
    }
    for (int k = 0; k < n; ++k) {
        ledge__free(*refs[k].array);
        *refs[k].array = fresh[k];
    }
    w->capacity = capacity;
    return true;
}

void ledge__store_free(ledge_world *w) {
    field_ref refs[ALL_ARRAYS];
    int n = list_fields(w, refs);
    for (int k = 0; k < n; ++k) {
        ledge__free(*refs[k].array);
        *refs[k].array = NULL;
    }
    ledge__shapes_free(&w->shapes);
    ledge__shapes_free(&w->shapes_next);
    w->capacity = 0;
}

int ledge__store_take_slot(ledge_world *w) {
    if (w->free_count > 0) return w->slot_of[w->free_handles[--w->free_count]];
    if (w->slot_count == w->capacity) {
        long long want = w->capacity < 16 ? 16 : 2LL * w->capacity;
        if (want > (1 << 26) || !ledge__store_grow(w, (int)want, "ledge_body_create")) {
            return -1;
        }
    }
    int i = w->slot_count++;
    w->handle[i] = i; // a fresh slot comes with the fresh handle of the same number
    w->slot_of[i] = i;
    return i;
}

void ledge__store_release(ledge_world *w, int i) {
    w->alive[i] = 0;
    w->event_bodies -= w->touch_events[i];
    w->touch_events[i] = 0;
    w->generation[i]++;
    ledge__shapes_release(&w->shapes, w->shape_id[i]);
    w->free_handles[w->free_count++] = w->handle[i];
    w->live_count--;
}

// Applies the permutation to one array in place: each cycle of `order`
// is walked once, holding one element aside.
static void permute_array(char *a, size_t size, const int *order, uint8_t *mark, int n) {
    char held[64];
    memset(mark, 0, (size_t)n);
    for (int start = 0; start < n; ++start) {
        if (mark[start] || order[start] == start) continue;
        memcpy(held, a + size * (size_t)start, size);
        int j = start;
        while (order[j] != start) {
            mark[j] = 1;
            memcpy(a + size * (size_t)j, a + size * (size_t)order[j], size);
            j = order[j];
        }
        mark[j] = 1;
        memcpy(a + size * (size_t)j, held, size);
    }
}

#define PERMUTE_STORED(class, T, name)                                                             \
    LEDGE__STORED(class)                                                                           \
    (_Static_assert(sizeof(T) <= 64, "permute_array holds one element of each array");             \
     permute_array((char *)w->name, sizeof(T), order, mark, n);)

void ledge__store_permute(ledge_world *w, const int *order) {
    int n = w->slot_count;
    uint8_t *mark = w->step.order_mark;
    LEDGE__BODY_FIELDS(PERMUTE_STORED)
    for (int i = 0; i < n; ++i) w->slot_of[w->handle[i]] = i;
}
