// Internal: the broad phase (broad.c): the grid filed, candidate pairs, bodies near tiles.
// Imports the world's types (world.h) only; the modules layer as
// docs/design.md ("Modules") says.
#ifndef LEDGE_BROAD_H
#define LEDGE_BROAD_H

#include "world_state.h"

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

/// A sleeper woken after ledge__broad_pairs (sleep.c): the blocks of the
/// search whose bodies it is within reach of are marked to search again.
void ledge__broad_woken(ledge_world *world, int slot);

/// The output of the blocks of a pair search made again, in one list:
/// block b's pairs start at start[stride * b] and end where the next
/// block's start (the last block's at `end`).
typedef struct ledge__fresh_list {
    const ledge__pair *pairs;
    const int *start;
    int stride, end;
} ledge__fresh_list;

/// A list of pairs made of `blocks` segments (segment b at start[b], the
/// last ending at *count) rebuilt in place: the segments with again[b]
/// set are replaced by block b's fresh pairs, the others keep theirs, in
/// block order (broad.c; growing the list, false and logged when it
/// cannot). `to` (room for `blocks`) gets the new starts.
bool ledge__splice_blocks(ledge__pair **list, int *count, int *cap, const int *start,
                          const uint8_t *again, const ledge__fresh_list *fresh, int blocks,
                          int *to);

/// ledge__broad_pairs again after wakes (ledge__broad_woken): the marked
/// blocks are searched again, the lists come out as a whole search would
/// give them.
void ledge__broad_pairs_again(ledge_world *world);

/// What the tile list's search leaves for a body it does not look for
/// (asleep, static, ...): not listed, no answer standing at its anchor,
/// anchored at its box's centre (broad.c).
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
/// writes only body i's entries and the worker's counters (broad.c).
void ledge__moved_far(ledge_world *world, int i, int worker);

/// ledge__moved_far without the call in the common case: a body still
/// within the margin of its anchor (most pushes in a pile) is inside the
/// grown box the broad phase searched.
static inline void ledge__recheck_if_far(ledge_world *w, int i, int worker) {
    if (ledge__far_from_anchor(w, i)) ledge__moved_far(w, i, worker);
}

/// After a relaxation pass, on the calling thread: the pairs that the
/// bodies ledge__moved_far marked now make and that the broad phase could
/// not list (their boxes were not within the margin at the anchors) are
/// appended to the candidate pairs, each once per substep, so the next
/// pass projects them (broad.c). With `search` false (the last pass) the
/// marks are only cleared. Returns the pairs added.
int ledge__far_pairs(ledge_world *world, bool search);

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

/// Appends the bodies that joined the tile list during the pass (marked 2
/// by ledge__moved_far), in slot order (broad.c).
void ledge__append_rechecked(ledge_world *world);

#endif // LEDGE_BROAD_H
