// The tile list of the substep (broad_tiles.c): the dynamic bodies whose
// box grown by the margin meets a non-empty tile cell, remembered with the
// cell range they saw so that a resting or falling body skips the lookups,
// and rechecked when a push carries a body beyond the margin.
#ifndef LEDGE_BROAD_TILES_H
#define LEDGE_BROAD_TILES_H

#include "world_state.h"

/// Lists the dynamic bodies near non-empty tile cells into the step's tile
/// list, in slot order (after the candidate pairs: the big bodies' boxes).
void ledge__broad_tile_list(ledge_world *world);

/// What the tile list's search leaves for a body it does not look for
/// (asleep, static, ...): not listed, no answer standing at its anchor,
/// anchored at its box's centre.
void ledge__broad_forget_anchor(ledge_world *world, int i);

/// Whether body i's box is beyond the margin of where the broad phase saw
/// it (its anchor): the candidate pairs and the tile list may then miss
/// what it meets.
static inline bool ledge__far_from_anchor(const ledge_world *w, int i) {
    vec2s d = v2_sub(w->step.box_center[i], w->tile_anchor[i]);
    return !(fabsf(d.x) < w->step.margin && fabsf(d.y) < w->step.margin);
}

/// A body pushed beyond the margin of where the broad phase saw it (a crowd
/// or a landing can push one further than the margin in a substep): it
/// joins the tile list if it now reaches a tile, so that tiles always have
/// the last word, and is marked for ledge__far_pairs. Safe on a worker: it
/// writes only body i's entries and the worker's counters.
void ledge__moved_far(ledge_world *world, int i, int worker);

/// ledge__moved_far without the call in the common case: a body still
/// within the margin of its anchor (most pushes in a pile) is inside the
/// grown box the broad phase searched.
static inline void ledge__recheck_if_far(ledge_world *w, int i, int worker) {
    if (ledge__far_from_anchor(w, i)) ledge__moved_far(w, i, worker);
}

/// Whether any tile cell within the margin of the box (c, h) is non-empty
/// (cells outside the map count as FULL, as in the tilemap's queries).
bool ledge__tiles_near(const ledge_world *world, vec2s c, vec2s h);

/// ledge__tiles_near for a box of body i's (its swept path): no lookup when
/// the box lies inside the clear range the broad phase found around the
/// body, read only, so safe on a worker moving body i.
bool ledge__body_tiles_near(const ledge_world *world, int i, vec2s c, vec2s h);

/// Appends the bodies that joined the tile list during the pass (marked 2
/// by ledge__moved_far), in slot order.
void ledge__append_rechecked(ledge_world *world);

#endif // LEDGE_BROAD_TILES_H
