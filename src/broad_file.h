// The broad phase's first half (broad_file.c): each body classified
// (grid, big list, none) and filed in the loose grid of the substep, in
// grid coordinates whose rows run along the world's up axis.
#ifndef LEDGE_BROAD_FILE_H
#define LEDGE_BROAD_FILE_H

#include "world_state.h"

/// A list of pairs written by one block of the pair search (broad.c). A
/// worker never allocates: a block that runs out of room counts what it
/// missed and is run again by the calling thread after growing the list.
typedef struct ledge__pair_list {
    ledge__pair *pairs;
    int count, cap;
    bool overflow; ///< Pairs were left out for want of room.
} ledge__pair_list;

/// What a block's boxes, grid coordinates and flags depend on besides its
/// bodies (broad_file.c, "classify").
typedef struct ledge__classify_key {
    float cell, margin;
    int up_axis;
    bool pre_solve;
} ledge__classify_key;

/// What the grid's cells of the bodies depend on besides their centres,
/// and the arrays that hold its filing (broad_file.c, "file_bodies").
typedef struct ledge__grid_key {
    vec2s origin;
    float cell;
    int nx, ny;
    const int *cell_of, *cell_start, *sorted;
} ledge__grid_key;

/// The broad phase's state (w->broad), the three modules' (broad_file.c,
/// broad_tiles.c, broad.c): what it remembers of the blocks of slots to
/// skip work (their classification and their cells' counts, under stamps
/// that change with what they depend on), the margin its tile lookups were
/// found with, and its scratch per block and per substep. What it finds
/// for the later stages is the step's (the pairs, the tile and big lists,
/// the per-body boxes: w->step) and the grid's (w->grid). Its remembered
/// tile lookups are the bodies' (tile_seen, tile_seen_near, tile_anchor in
/// the store). ledge__broad_forget forgets what is derived.
typedef struct ledge__broad {
    int block_cap; ///< Entries of each per-block array below (blocks of slots, or of sorted
                   ///< bodies).
    // --- the classification (broad_file.c)
    /// Per block of slots: the classify stamp under which the block's boxes
    /// were last found while it was dormant, or 0. Its bodies' boxes, grid
    /// coordinates and flags are then still the ones found, and classify
    /// reuses them. A block that becomes dormant starts at 0
    /// (ledge__broad_dormant).
    uint32_t *classified;
    uint8_t *classified_still; ///< Per block: it had grid bodies when classified.
    /// Changes whenever something the boxes depend on besides the bodies
    /// (the key) changes: a block classified under an older stamp is found again.
    uint32_t classify_stamp;
    ledge__classify_key classify_key;
    vec2s *block_lower; ///< Per block, two: its still and its fast grid bodies' bounds.
    vec2s *block_upper;
    uint8_t
        *block_bounds; ///< Per block: bit 1, its still bounds hold a body; bit 2, its fast ones.
    // --- the filing (broad_file.c)
    /// Per block of slots: the grid stamp under which a reusable block's
    /// cells were counted (its counts then in saved_count), or 0.
    uint32_t *counted;
    int *saved_count;       ///< Per block: LEDGE__GRID_BANDS counts of a reusable block.
    uint8_t *cells_changed; ///< Per block of slots: a body's cell changed in this filing.
    int *grid_count;        ///< Per block: LEDGE__GRID_BANDS counts, then places.
    /// Changes whenever the grid's cells or its cell_of array change.
    uint32_t grid_stamp;
    ledge__grid_key grid_key;
    // --- the tile list (broad_tiles.c)
    float tile_margin; ///< The margin the bodies' remembered tile lookups were found with.
    // --- the pair search (broad.c)
    ledge__pair_list *pairs;   ///< Per block of sorted grid bodies: its candidate pairs.
    ledge__pair_list *sensors; ///< Per block: its sensor pairs.
    int *pair_offset;          ///< Per block: where its pairs go in the step's list.
    int *sensor_offset;        ///< Per block: where its sensor pairs go.
    /// Per block of sorted grid bodies: where its pairs and sensor pairs
    /// start in the step's lists (the substep's first search).
    int *pair_start, *sensor_start;
    /// Per block, two: where a block searched again starts in one worker's
    /// lists of the blocks searched again.
    int *fresh_start;
    /// Per block of sorted grid bodies: a body woken after the pair search
    /// is within reach of its bodies, so its search is made again.
    uint8_t *research;
    bool research_all; ///< A woken body is not in the grid: every block is searched again.
    int *splice_to;    ///< Per block: where its pairs go when a search again is spliced.
    bool count_active; ///< Bodies sleep: step.active_upto is counted (count_active_run).
    /// Per block of sorted grid bodies: the active bodies of the blocks
    /// before it, while bodies sleep.
    int *active_before;
    // --- the far pairs (broad.c)
    uint64_t *far_keys; ///< The pairs found after far pushes this substep, a hash set.
    int far_key_cap;    ///< Its slots (a power of two, or 0).
    int far_key_count;  ///< Its keys.
} ledge__broad;

/// Room for `slots` slots' blocks before the step (the workers never
/// allocate); false (logged) when an allocation fails. A block's pair lists
/// keep their room.
bool ledge__broad_reserve(ledge_world *world, int slots);

/// Frees the broad phase's arrays.
void ledge__broad_destroy(ledge__broad *broad);

/// Block b of slots becomes dormant (sleep.c): what classify found for it
/// before is forgotten (its bodies may have changed while it was awake).
static inline void ledge__broad_dormant(ledge_world *w, int b) {
    w->broad->classified[b] = 0;
}

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
