// Internal: the fast bodies of a substep (fast.c): multisampling along the path, swept bullets.
// A stage of the step: it includes the world's state and the stages below
// it only (docs/design.md, "How the modules layer").
#ifndef LEDGE_FAST_H
#define LEDGE_FAST_H

#include "world_state.h"

/// Marks body i fast when `move` (its displacement this substep) is long
/// for its size, or it is a bullet, and keeps the move (fast.c). Returns
/// whether it is.
bool ledge__fast_begin(ledge_world *world, int i, vec2s move);

/// Moves the fast bodies along their paths (multisampling, bullet sweeps),
/// finding what their paths meet through the grid, and records the contacts
/// where a bullet's path was cut (fast.c).
void ledge__fast_move(ledge_world *world);

#endif // LEDGE_FAST_H
