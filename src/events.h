// Internal: what the step reports (events.c): touch, sensor and crush events, the contact index.
// A stage of the step: it includes the world's state and the stages below
// it only (docs/design.md, "How the modules layer").
#ifndef LEDGE_EVENTS_INTERNAL_H
#define LEDGE_EVENTS_INTERNAL_H

#include "world_state.h"

#include "ledge/events.h"

/// A touch or sensor overlap as a sortable key: body handles (an id's
/// index1 - 1, stable when slots are reordered) and generations, then the
/// tile cell (b = -1 for a tile).
typedef struct ledge__key {
    int32_t a, ga, b, gb, cx, cy;
} ledge__key;

/// A growing list of keys.
typedef struct ledge__key_list {
    ledge__key *keys;
    int count, cap;
} ledge__key_list;

/// What the step reports (w->events): the last step's events, which the
/// game reads after it (a snapshot keeps the keys and the events), the
/// contact index (derived from the contacts, built when first asked), and
/// the scan's flags.
typedef struct ledge__events {
    ledge__key_list touch_old, touch_now, sensor_old, sensor_now;
    ledge_touch_event *touch_begin, *touch_end;
    int touch_begin_count, touch_begin_cap, touch_end_count, touch_end_cap;
    ledge_sensor_event *sensor_begin, *sensor_end;
    int sensor_begin_count, sensor_begin_cap, sensor_end_count, sensor_end_cap;
    ledge_crush_event *crush;
    int crush_count, crush_cap;
    /// The contact index: contact_order[contact_first[i] .. contact_first[i
    /// + 1]) are slot i's contacts in the game's view (ledge__contact_index).
    int *contact_first, *contact_order;
    int contact_first_cap, contact_order_cap;
    bool index_dirty; ///< The contacts changed since the index was built.
    /// Per block of contacts: what events it may hold (the scan after the
    /// step, on the workers).
    uint8_t *block_flags;
    int block_flags_cap;
} ledge__events;

/// The contacts changed (moved, recorded, held): the contact index is
/// built again when next asked.
static inline void ledge__contacts_changed(ledge_world *w) {
    w->events->index_dirty = true;
}

/// After the last substep: touch, sensor and crush events, drop-through
/// flags, and the contact index marked stale (events.c).
void ledge__after_step(ledge_world *world);

/// Adds a crush event of `body` by `crusher` (slots) after the step's own:
/// a character pinned by a dynamic body (character.c).
void ledge__crush_event_add(ledge_world *world, int body, int crusher, float depth);

/// Frees the event arrays, the contact index and the flags.
void ledge__events_destroy(ledge__events *events);

/// The events' part of ledge__world_forget (events.c): after the slots
/// moved, the contact index (by slot), built again when next asked.
void ledge__events_forget(ledge_world *world, ledge__stale why);

/// Builds the contact index if it is stale (events.c): contact_order[
/// contact_first[i] .. contact_first[i + 1]) are slot i's contacts. False
/// (nothing logged) when an allocation fails.
bool ledge__contact_index(ledge_world *world);

/// Orders two keys (events.c).
int ledge__key_compare(const ledge__key *x, const ledge__key *y);

#endif // LEDGE_EVENTS_INTERNAL_H
