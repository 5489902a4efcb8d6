// The broad phase's first half (broad_file.c): each body classified
// (grid, big list, none) and filed in the loose grid of the substep, in
// grid coordinates whose rows run along the world's up axis.
#ifndef LEDGE_BROAD_FILE_H
#define LEDGE_BROAD_FILE_H

#include "world_state.h"

/// Which filing of a substep ledge__broad_build makes.
typedef enum ledge__filing {
    LEDGE__FILING_ONLY,   ///< No fast body: the substep's one filing.
    LEDGE__FILING_BEFORE, ///< Fast bodies wait at their starts (fast.c moves them after).
    LEDGE__FILING_AFTER,  ///< Again after the fast bodies moved: only theirs is looked at.
} ledge__filing;

/// The broad phase, first half: files the bodies in the loose
/// grid (bodies larger than a cell go to the big list instead).
void ledge__broad_build(ledge_world *world, ledge__filing filing);

/// The broad phase's part of ledge__world_forget (broad_file.c): after the
/// slots moved, the blocks' classifications and counts and the grid's
/// filing (by slot); after a tile edit, every body's remembered tile
/// lookup (broad_tiles.c). Found again by the next substep.
void ledge__broad_forget(ledge_world *world, ledge__stale why);

/// World to grid coordinates: a permutation and signs of the axes, so that
/// grid rows run along the world's up_axis (0 +y, 1 -y, 2 +x, 3 -x).
static inline vec2s ledge__to_grid(int up_axis, vec2s p) {
    switch (up_axis) {
    case 1:
        return v2(-p.x, -p.y);
    case 2:
        return v2(-p.y, p.x);
    case 3:
        return v2(p.y, -p.x);
    default:
        return p;
    }
}

/// Half extents in grid coordinates (swapped when rows run along x).
static inline vec2s ledge__half_to_grid(int up_axis, vec2s h) {
    return up_axis >= 2 ? v2(h.y, h.x) : h;
}

/// The grid cells that the box (centre c, half extents h, world
/// coordinates) grown by `reach` covers (inline: the fast bodies' gather
/// asks for every path).
static inline ledge__cell_rect ledge__grid_cells(const ledge_world *w, vec2s c, vec2s h,
                                                 float reach) {
    const ledge__grid *g = &w->grid;
    vec2s gc = ledge__to_grid(w->up_axis, c), gh = ledge__half_to_grid(w->up_axis, h);
    ledge__cell_rect r = {
        ledge__grid_index((gc.x - gh.x - reach - g->origin.x) * g->inv_cell, g->nx),
        ledge__grid_index((gc.y - gh.y - reach - g->origin.y) * g->inv_cell, g->ny),
        ledge__grid_index((gc.x + gh.x + reach - g->origin.x) * g->inv_cell, g->nx),
        ledge__grid_index((gc.y + gh.y + reach - g->origin.y) * g->inv_cell, g->ny)};
    return r;
}

/// Whether the box (c, h) comes within the margin of body o's box (inline:
/// the fast bodies' gather tests every body in the cells their paths reach).
static inline bool ledge__boxes_near(const ledge_world *w, vec2s c, vec2s h, int o) {
    vec2s d = v2_sub(c, w->step.box_center[o]);
    vec2s r = v2_add(h, w->box_half[o]);
    return fabsf(d.x) < r.x + w->step.margin && fabsf(d.y) < r.y + w->step.margin;
}

#endif // LEDGE_BROAD_FILE_H
