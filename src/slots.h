// Ids and slots (slots.c): the conversions between a body's id and the
// slot the store keeps it in, and the mark of a body the game moved.
// (Waking a body is sleep's: ledge__wake, sleep.h.)
#ifndef LEDGE_SLOTS_H
#define LEDGE_SLOTS_H

#include "world_state.h"

/// The slot of a living body named by `id`, or -1. Logs the refusal as
/// "<fn>: id ... is stale / not a body of this world".
int ledge__world_slot(const ledge_world *world, ledge_body_id id, const char *fn);

/// The id of slot i's body (i < 0: the null id).
static inline ledge_body_id ledge__body_id(const ledge_world *w, int i) {
    ledge_body_id id = LEDGE_NULL_BODY_ID;
    if (i >= 0) {
        id.index1 = (uint32_t)w->handle[i] + 1u;
        id.generation = w->generation[i];
        id.world = w->serial;
    }
    return id;
}

/// The slot an id names, unchecked but in range (-1 when it names no slot
/// of this world): for ids the library made itself from a living body.
static inline int ledge__slot_of(const ledge_world *w, ledge_body_id id) {
    uint32_t h = id.index1 - 1u; // the null id wraps to a huge handle
    if (id.index1 == 0 || id.world != w->serial || h >= (uint32_t)w->slot_count) return -1;
    return w->slot_of[h];
}

/// The slot of the living body an id names, or -1 (a dead body, an old
/// generation, another world's id), without a message: for ids the
/// library keeps across steps (a character's floor, what it pushes).
static inline int ledge__live_slot(const ledge_world *w, ledge_body_id id) {
    int i = ledge__slot_of(w, id);
    return i >= 0 && w->alive[i] && w->generation[i] == id.generation ? i : -1;
}

/// The game set body i's position or velocity: the next substep does not
/// replay its contacts (a teleport is a teleport).
static inline void ledge__forget_replay(ledge_world *w, int i) {
    w->moved[i] = 1;
    w->any_moved = true;
}

#endif // LEDGE_SLOTS_H
