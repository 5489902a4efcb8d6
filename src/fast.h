// Internal: the fast bodies of a substep (fast.c): multisampling along the path, swept bullets.
// A stage of the step: it includes the world's state and the stages below
// it only (docs/design.md, "How the modules layer").
#ifndef LEDGE_FAST_H
#define LEDGE_FAST_H

#include "world_state.h"

/// Bodies near one fast body's path a worker has room for; a path near
/// more is taken by the calling thread.
#define LEDGE__FAST_ROOM 1024

/// The fast bodies' state (w->fast): each worker's room, and the cells the
/// still bodies lie in this substep, rewritten before they are read.
typedef struct ledge__fast {
    int *near; ///< Per worker: LEDGE__FAST_ROOM bodies near a fast path.
    /// The grid cells of the still grid bodies' bounds (step.still_lower,
    /// still_upper): a path outside them meets no still body.
    ledge__cell_rect still_cells;
} ledge__fast;

/// Room for each worker (once; false, logged, when it cannot be made).
bool ledge__fast_reserve(ledge_world *world);

/// Frees the workers' room.
void ledge__fast_destroy(ledge__fast *fast);

/// Marks body i fast when `move` (its displacement this substep) is long
/// for its size, or it is a bullet, and keeps the move (fast.c). Returns
/// whether it is.
bool ledge__fast_begin(ledge_world *world, int i, vec2s move);

/// Moves the fast bodies along their paths (multisampling, bullet sweeps),
/// finding what their paths meet through the grid, and records the contacts
/// where a bullet's path was cut (fast.c).
void ledge__fast_move(ledge_world *world);

#endif // LEDGE_FAST_H
