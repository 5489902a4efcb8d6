// The shape table (shape_table.c): the world's bodies' shapes, equal
// shapes stored once. A body keeps the index of its entry (the store's
// shape_id, body_fields.h); an entry counts the bodies that use it and is
// freed, for reuse, when the last one goes. Equal means the same bytes
// (the constructors fill every field, unused vertices with zeros): a rain
// of equal circles holds one shape, a level of crates of three sizes three.
#ifndef LEDGE_SHAPE_TABLE_H
#define LEDGE_SHAPE_TABLE_H

#include "core.h"
#include "ledge/collision.h"

#include <stdint.h>

/// Entries, their reference counts, a LIFO list of freed entries (so that
/// reuse is deterministic) and an open-addressing hash over the entries in
/// use (linear probing, at most half full), so that finding a shape is O(1).
typedef struct ledge__shape_table {
    ledge_shape *shapes; ///< The entries (count used; a freed one keeps its bytes).
    uint32_t *refs;      ///< Bodies using each entry; 0: free.
    uint32_t *hash;      ///< Each entry's hash (its probe start).
    int *free;           ///< Freed entries, the last freed last (cap entries).
    int *slots;          ///< The hash's slots: entry + 1, 0 empty (slot_cap, a power of two).
    int count;           ///< Entries ever used.
    int cap;             ///< Entries allocated.
    int free_count;      ///< Entries in `free`.
    int slot_cap;        ///< Slots allocated (at least twice cap).
} ledge__shape_table;

/// Makes room for `more` new entries, so that as many ledge__shapes_add
/// calls allocate nothing. False (nothing changed) when allocation fails:
/// the caller logs what it refuses.
bool ledge__shapes_reserve(ledge__shape_table *t, int more);

/// The entry holding `s` (the same bytes), or -1.
int ledge__shapes_find(const ledge__shape_table *t, const ledge_shape *s);

/// The entry holding `s`, made when none does (from the free list, the
/// last freed first, else a new one: reserve room first), its count grown
/// by `refs`.
int ledge__shapes_add(ledge__shape_table *t, const ledge_shape *s, uint32_t refs);

/// One body less uses entry e; at none, the entry is freed.
void ledge__shapes_release(ledge__shape_table *t, int e);

/// Empties the table (keeping its room).
void ledge__shapes_clear(ledge__shape_table *t);

/// Entries in use.
int ledge__shapes_live(const ledge__shape_table *t);

/// Frees the table's arrays (an empty table stays usable).
void ledge__shapes_free(ledge__shape_table *t);

#endif // LEDGE_SHAPE_TABLE_H
