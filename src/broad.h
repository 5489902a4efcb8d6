// Internal: the broad phase (broad.c): the grid filed, candidate pairs, bodies near tiles.
// Imports the world's types (world.h) only; the modules layer as
// docs/design.md ("Modules") says.
#ifndef LEDGE_BROAD_H
#define LEDGE_BROAD_H

#include "world.h"

/// Which filing of a substep ledge__broad_build makes.
typedef enum ledge__filing {
    LEDGE__FILING_ONLY,   ///< No fast body: the substep's one filing.
    LEDGE__FILING_BEFORE, ///< Fast bodies wait at their starts (fast.c moves them after).
    LEDGE__FILING_AFTER,  ///< Again after the fast bodies moved: only theirs is looked at.
} ledge__filing;

/// The broad phase, first half (broad.c): files the bodies in the loose
/// grid (bodies larger than a cell go to the big list instead).
void ledge__broad_build(ledge_world *world, ledge__filing filing);

/// The broad phase, second half (broad.c): lists the candidate body pairs
/// and the bodies near non-empty tiles, for the relaxation passes.
void ledge__broad_pairs(ledge_world *world);

/// A body pushed by a pair beyond what the broad phase saw (a crowd can
/// push one further than the margin in a substep) joins the tile list if
/// it now reaches a tile, so that tiles always have the last word (broad.c).
void ledge__recheck_tiles(ledge_world *world, int i, int worker);

/// ledge__recheck_tiles without the call in the common case: a body still
/// within the margin of where the broad phase looked for its tiles (most
/// pushes in a pile) is inside the grown box found free of them.
static inline void ledge__recheck_tiles_if_moved(ledge_world *w, int i, int worker) {
    vec2s d = v2_sub(w->step.box_center[i], w->tile_anchor[i]);
    if (fabsf(d.x) < w->step.margin && fabsf(d.y) < w->step.margin) return;
    ledge__recheck_tiles(w, i, worker);
}

/// The grid cells (as floats: column, row) that the box (centre c, half
/// extents h, world coordinates) grown by `reach` covers (broad.c).
void ledge__grid_rect(const ledge_world *world, vec2s c, vec2s h, float reach, vec2s *lo,
                      vec2s *hi);

/// Whether any tile cell within the margin of the box (c, h) is non-empty
/// (cells outside the map count as FULL, as in the tilemap's queries).
bool ledge__tiles_near(const ledge_world *world, vec2s c, vec2s h);

/// ledge__tiles_near for a box of body i's (its swept path): no lookup when
/// the box lies inside the clear range the broad phase found around the
/// body (broad.c), read only, so safe on a worker moving body i.
bool ledge__body_tiles_near(const ledge_world *world, int i, vec2s c, vec2s h);

/// Whether the box (c, h) comes within the margin of body o's box (inline:
/// the fast bodies' gather tests every body in the cells their paths reach).
static inline bool ledge__boxes_near(const ledge_world *w, vec2s c, vec2s h, int o) {
    vec2s d = v2_sub(c, w->step.box_center[o]);
    vec2s r = v2_add(h, w->box_half[o]);
    return fabsf(d.x) < r.x + w->step.margin && fabsf(d.y) < r.y + w->step.margin;
}

#endif // LEDGE_BROAD_H
