// The one growable-array helper: every list of the library (body store,
// pairs, contacts, events, grid, buckets, indexes) grows through it, so
// that the doubling, the overflow check and the failure rule are written
// once.
#ifndef LEDGE_ARRAY_H
#define LEDGE_ARRAY_H

#include "core.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/// A new array of `want` elements of `size` bytes holding the first `keep`
/// elements of `old` (which stays allocated) and zeros after them, or NULL
/// on failure (allocation, or a size beyond INT_MAX elements).
static inline void *ledge__array_copy(const void *old, int keep, long long want, size_t size) {
    if (want <= 0 || want > INT_MAX || (size_t)want > SIZE_MAX / size) return NULL;
    char *fresh = ledge__alloc(size * (size_t)want);
    if (fresh == NULL) return NULL;
    size_t kept = size * (size_t)(keep < want ? keep : want);
    if (kept) memcpy(fresh, old, kept);
    memset(fresh + kept, 0, size * (size_t)want - kept);
    return fresh;
}

/// Makes *items (an array of *cap elements of `size` bytes) hold at least
/// `need` elements: the capacity doubles, and is at least `least`. The
/// first `keep` elements are copied over and the rest of the new array is
/// zeroed. On failure (allocation, or a size beyond INT_MAX elements)
/// nothing changes and false is returned: the caller logs what it lost, so
/// the world stays as it was.
static inline bool ledge__array_reserve(void **items, int *cap, int need, int keep, size_t size,
                                        int least) {
    if (need <= *cap) return true;
    long long want = *cap < least ? least : 2LL * *cap;
    if (want < need) want = need;
    void *fresh = ledge__array_copy(*items, keep < *cap ? keep : *cap, want, size);
    if (fresh == NULL) return false;
    ledge__free(*items);
    *items = fresh;
    *cap = (int)want;
    return true;
}

/// Replaces *array (holding `used` elements of `size` bytes, or NULL) by a
/// new array of `cap` elements holding those and zeros after them; false
/// (nothing changed) when the allocation fails. For the arrays reserved
/// before the step, which grow to an exact size.
static inline bool ledge__array_regrow(void **array, size_t size, int used, int cap) {
    void *fresh = ledge__array_copy(*array, *array != NULL ? used : 0, cap, size);
    if (fresh == NULL) return false;
    ledge__free(*array);
    *array = fresh;
    return true;
}

/// ledge__array_reserve for a typed pointer lvalue `items` and int `cap`.
#define LEDGE__RESERVE(items, cap, need, keep, least)                                              \
    ledge__array_reserve((void **)&(items), &(cap), (need), (keep), sizeof *(items), (least))

#endif // LEDGE_ARRAY_H
