// The broad phase's first half (broad_file.h): every body classified (in
// the grid, in the big list of bodies larger than a cell, or out of the
// search) with its box and grid coordinates, then filed in the loose grid
// fitted over the rectangle the bodies occupy, by blocks of slots on the
// workers. The substep's second filing, after the fast bodies moved, looks
// at those bodies only.
#include "broad_file.h"
#include "grid_refile.h"
#include "par.h"

#include "tilemap.h"

#include <limits.h>
#include <string.h>

// Whether body i, filed in the grid, is a dynamic circle that any other
// such body meets as a plain pair: its filter lets every body through
// (group 0, a category, every mask bit), no sensor, no one-way platform,
// no response policy, and no pre-solve callback in the world. Two such
// bodies pass every test of consider_near, so their pair skips them.
static inline uint8_t plain_body(const ledge_world *w, int i) {
    const ledge_filter *f = &w->filter[i];
    return (uint8_t)(w->circle[i] && w->inv_mass[i] > 0.0f && f->group == 0 && f->category != 0 &&
                     f->mask == ~(uint64_t)0 &&
                     !(w->sensor[i] | w->one_way[i] | w->policy[i] | w->joined[i]) &&
                     w->pre_solve == NULL);
}

// Whether body i, filed in the grid, may move or sense in this substep: a
// sensor, a kinematic body, or a dynamic one that is awake. Two bodies
// that are not (static or sleeping ones) never make a pair, so the pair
// loop skips them before their boxes are compared.
static inline uint8_t body_active(const ledge_world *w, int i) {
    return (uint8_t)(w->sensor[i] || (w->type[i] != LEDGE_BODY_STATIC && !w->asleep[i]));
}

// Boxes, grid coordinates, and per block (a worker's item) its big bodies
// (in par.items at the block's offset) and the bounds of its grid bodies'
// centres, those of the bodies still until the fast ones move
// (block_lower[2 b], bit 1 of block_bounds) apart from the fast ones'
// (block_lower[2 b + 1], bit 2): the substep's second filing then looks
// at the fast bodies only (classify_again).
typedef struct classify_task {
    ledge_world *w;
    float cell;
    bool split; ///< Fast bodies apart (a second filing follows).
} classify_task;

// Bounds of a set of points, grown one point at a time.
typedef struct bounds {
    bool any;
    vec2s lower, upper;
} bounds;

static inline void bounds_add(bounds *b, vec2s p) {
    if (!b->any) b->lower = b->upper = p;
    b->any = true;
    b->lower = v2(minf(b->lower.x, p.x), minf(b->lower.y, p.y));
    b->upper = v2(maxf(b->upper.x, p.x), maxf(b->upper.y, p.y));
}

static inline void bounds_join(bounds *b, bool any, vec2s lower, vec2s upper) {
    if (!any) return;
    bounds_add(b, lower);
    bounds_add(b, upper);
}

// Block b's bounds of `kind` (0: still bodies, 1: fast ones) to the join.
static inline void block_bounds_put(ledge_world *w, int b, int kind, const bounds *k) {
    if (k->any) w->broad->block_bounds[b] |= (uint8_t)(1u << kind);
    w->broad->block_lower[2 * b + kind] = k->lower;
    w->broad->block_upper[2 * b + kind] = k->upper;
}

static inline void block_bounds_join(const ledge_world *w, int b, int kind, bounds *into) {
    bounds_join(into, (w->broad->block_bounds[b] >> kind) & 1u, w->broad->block_lower[2 * b + kind],
                w->broad->block_upper[2 * b + kind]);
}

// Whether block b's bodies hold what classify_axis would write: the block
// was classified while dormant, has not been stirred since (ledge__stir
// clears the stamp), and nothing else the boxes depend on has changed
// (classify_stamp). Its sleepers, static and dead bodies did not move, and
// none is fast (make_dormant cleared the flags, and no stage sets them in a
// dormant block), so all of its grid bodies are still ones.
static inline bool reusable(const ledge_world *w, int b) {
    return w->debug.reuse_on && ledge__dormant(w, b) &&
           w->broad->classified[b] == w->broad->classify_stamp;
}

// classify_axis's per-block output for a reusable block: its bounds are the
// ones it wrote then (only classify writes a block's still bounds).
static void reuse_block(ledge_world *w, int b) {
    w->par.block_count[b] = 0;
    w->broad->block_bounds[b] = w->broad->classified_still[b];
}

// A new stamp for the blocks' results kept under the old one (none of
// them matches it); when the count wraps, the blocks' stamps are cleared,
// so that none matches an old stamp either.
static void next_stamp(uint32_t *stamp, uint32_t *blocks, int block_cap) {
    if (++*stamp != 0) return;
    *stamp = 1;
    if (block_cap > 0) memset(blocks, 0, sizeof *blocks * (size_t)block_cap);
}

// The classify key of this step; a new one makes every block found again.
static void check_classify_key(ledge_world *w, float cell) {
    ledge__classify_key k = {cell, w->step.margin, w->up_axis, w->pre_solve != NULL};
    ledge__classify_key *old = &w->broad->classify_key;
    bool same = w->broad->classify_stamp != 0 && k.cell == old->cell && k.margin == old->margin &&
                k.up_axis == old->up_axis && k.pre_solve == old->pre_solve;
    if (same) return;
    *old = k;
    next_stamp(&w->broad->classify_stamp, w->broad->classified, w->broad->block_cap);
}

// What classify found for block b. (Out of line, the bounds by value: the
// loop over the bodies keeps its registers for the bodies, and its bounds
// in registers.)
static LEDGE_NOINLINE void classified(ledge_world *w, int b, int big_count, bounds still,
                                      bounds fast) {
    w->par.block_count[b] = big_count;
    w->broad->block_bounds[b] = 0;
    block_bounds_put(w, b, 0, &still);
    block_bounds_put(w, b, 1, &fast);
    // A dormant block's bodies stay where they are until it is stirred:
    // what was found here holds until then (big bodies aside: their list
    // is the block's scratch, which other stages reuse).
    bool keep = ledge__dormant(w, b) && big_count == 0;
    w->broad->classified[b] = keep ? w->broad->classify_stamp : 0u;
    w->broad->classified_still[b] = still.any;
    w->broad->counted[b] = 0; // its counts are found again (count_run)
}

// (Inline with the axis and `split` constants: classify_block's loop then
// has no switch per body for the usual y-up world, and no look at the fast
// flags when there is no second filing.)
static LEDGE_INLINE void classify_axis(ledge_world *w, float cell, int b, int up_axis, bool split) {
    if (reusable(w, b)) {
        reuse_block(w, b);
        return;
    }
    bounds still = {0}, fast = {0};
    int *big = w->par.items + b * LEDGE__BLOCK, big_count = 0;
    int end = ledge__block_end(b, w->slot_count);
    for (int i = b * LEDGE__BLOCK; i < end; ++i) {
        w->step.in_grid[i] = 0;
        if (!w->alive[i] || w->frozen[i]) continue;
        w->step.box_center[i] = v2_add(w->position[i], w->box_offset[i]);
        vec2s gc = w->step.grid_center[i] = ledge__to_grid(up_axis, w->step.box_center[i]);
        if (2.0f * maxf(w->box_half[i].x, w->box_half[i].y) + w->step.margin > cell) {
            big[big_count++] = i;
            continue;
        }
        w->step.in_grid[i] = 1;
        w->step.plain[i] = plain_body(w, i);
        w->step.active[i] = body_active(w, i);
        // (Two calls, not one through a chosen pointer: both stay in registers.)
        if (split && w->step.fast[i]) {
            bounds_add(&fast, gc);
        } else {
            bounds_add(&still, gc);
        }
    }
    classified(w, b, big_count, still, fast);
}

static void classify_block(ledge_world *w, float cell, int b, bool split) {
    if (w->up_axis == 0 && !split) {
        classify_axis(w, cell, b, 0, false);
    } else if (w->up_axis == 0) {
        classify_axis(w, cell, b, 0, true);
    } else {
        classify_axis(w, cell, b, w->up_axis, split);
    }
}

static void classify_run(int start, int end, int worker, void *context) {
    (void)worker;
    const classify_task *t = context;
    for (int b = start; b < end; ++b) classify_block(t->w, t->cell, b, t->split);
}

// The blocks on the workers, then their big lists and bounds joined in
// block order. The bounds are a minimum and a maximum, so joining them by
// still and fast bodies gives the values of one pass over the bodies.
static void classify(ledge_world *w, float cell, bool split, vec2s *lower, vec2s *upper) {
    classify_task t = {w, cell, split};
    check_classify_key(w, cell);
    int blocks = ledge__blocks(w->slot_count);
    ledge__run(w, classify_run, blocks, 1, &t);
    bounds still = {0}, all;
    w->step.big_count = 0;
    for (int b = 0; b < blocks; ++b) {
        const int *big = w->par.items + b * LEDGE__BLOCK;
        for (int k = 0; k < w->par.block_count[b]; ++k)
            w->step.big_list[w->step.big_count++] = big[k];
        block_bounds_join(w, b, 0, &still);
    }
    all = still;
    for (int b = 0; b < blocks; ++b) block_bounds_join(w, b, 1, &all);
    w->step.still_any = still.any;
    w->step.still_lower = still.lower;
    w->step.still_upper = still.upper;
    *lower = all.lower;
    *upper = all.upper;
}

// The fast bodies' bounds classify_again found for block b (out of line,
// as classified()).
static LEDGE_NOINLINE void classified_again(ledge_world *w, int b, bounds fast) {
    w->broad->block_bounds[b] &= 1u;
    block_bounds_put(w, b, 1, &fast);
}

// The second filing's boxes: only the fast bodies moved (fast.c writes
// their positions alone), so only theirs are found again, and the bounds
// are the still bodies' (kept from classify) joined with theirs. Which
// bodies are in the grid, big or plain depends on their settings, the
// margin and the cell only: as classify found them.
static LEDGE_INLINE void classify_again_axis(ledge_world *w, int b, int up_axis) {
    bounds fast = {0};
    int end = ledge__block_end(b, w->slot_count);
    for (int i = b * LEDGE__BLOCK; i < end; ++i) {
        if (!w->step.fast[i]) continue;
        w->step.box_center[i] = v2_add(w->position[i], w->box_offset[i]);
        vec2s gc = w->step.grid_center[i] = ledge__to_grid(up_axis, w->step.box_center[i]);
        if (w->step.in_grid[i]) bounds_add(&fast, gc);
    }
    classified_again(w, b, fast);
}

static void classify_again_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    for (int b = start; b < end; ++b) {
        if (w->up_axis == 0) {
            classify_again_axis(w, b, 0);
        } else {
            classify_again_axis(w, b, w->up_axis);
        }
    }
}

static void classify_again(ledge_world *w, vec2s *lower, vec2s *upper) {
    int blocks = ledge__blocks(w->slot_count);
    ledge__run(w, classify_again_run, blocks, 1, w);
    bounds all = {w->step.still_any, w->step.still_lower, w->step.still_upper};
    for (int b = 0; b < blocks; ++b) block_bounds_join(w, b, 1, &all);
    *lower = all.lower;
    *upper = all.upper;
}

// Filing the grid on the workers (grid.h): blocks of slots count by band,
// the calling thread turns the counts into places, the blocks scatter
// their slots by band (into par.items, free after classify), and each band
// sorts its own. The same stable sort whatever the workers.
typedef struct file_task {
    ledge_world *w;
    int shift;
    int before_ny; ///< Rows of the filing this one refiles (grid_refile.c), or 0.
    int band_start[LEDGE__GRID_BANDS + 1];
} file_task;

// A reusable block (classify) whose cells were counted under this grid
// stamp: its bodies' cells (grid.cell_of) and its counts are what counting
// would find again.
static inline bool counted_before(const ledge_world *w, int b) {
    return reusable(w, b) && w->broad->counted[b] == w->broad->grid_stamp;
}

// After block b's count: a reusable block's counts are kept for the next
// filings.
static void keep_count(ledge_world *w, int b, const int *count) {
    if (!reusable(w, b)) return; // (counted[b] is 0 since its classify)
    memcpy(w->broad->saved_count + b * LEDGE__GRID_BANDS, count, sizeof *count * LEDGE__GRID_BANDS);
    w->broad->counted[b] = w->broad->grid_stamp;
}

static void count_run(int start, int end, int worker, void *context) {
    (void)worker;
    file_task *t = context;
    ledge_world *w = t->w;
    for (int b = start; b < end; ++b) {
        int *count = w->broad->grid_count + b * LEDGE__GRID_BANDS;
        w->broad->cells_changed[b] = 0;
        if (counted_before(w, b)) {
            memcpy(count, w->broad->saved_count + b * LEDGE__GRID_BANDS,
                   sizeof *count * LEDGE__GRID_BANDS);
            continue;
        }
        int end = ledge__block_end(b, w->slot_count);
        bool changed;
        if (t->before_ny > 0) {
            changed = ledge__grid_recount(&w->grid, w->step.grid_center, w->step.fast, t->before_ny,
                                          b * LEDGE__BLOCK, end, t->shift, count);
        } else {
            changed = ledge__grid_count(&w->grid, w->step.grid_center, w->step.in_grid,
                                        b * LEDGE__BLOCK, end, t->shift, count);
        }
        w->broad->cells_changed[b] = changed;
        keep_count(w, b, count);
    }
}

// The grid stamp of this filing; new cells (or new arrays, whose contents
// their growth drops) make every block count again. Returns whether the
// stamp is new.
static bool check_grid_key(ledge_world *w) {
    const ledge__grid *g = &w->grid;
    ledge__grid_key k = {g->origin, g->cell, g->nx, g->ny, g->cell_of, g->cell_start, g->sorted};
    ledge__grid_key *old = &w->broad->grid_key;
    bool same = w->broad->grid_stamp != 0 && k.origin.x == old->origin.x &&
                k.origin.y == old->origin.y && k.cell == old->cell && k.nx == old->nx &&
                k.ny == old->ny && k.cell_of == old->cell_of && k.cell_start == old->cell_start &&
                k.sorted == old->sorted;
    if (same) return false;
    *old = k;
    next_stamp(&w->broad->grid_stamp, w->broad->counted, w->broad->block_cap);
    return true;
}

// Whether the last filing is this one's: the same cells and arrays, the
// same slots, and no slot's cell changed (a slot out of the grid has cell
// -1). The filing is a stable sort by (cell, slot), so its list and its
// cells' starts would come out the same.
static bool filing_unchanged(const ledge_world *w, bool new_stamp, int blocks) {
    if (new_stamp || !w->debug.reuse_on || w->grid.slots != w->slot_count) return false;
    for (int b = 0; b < blocks; ++b) {
        if (w->broad->cells_changed[b]) return false;
    }
    return true;
}

static void scatter_run(int start, int end, int worker, void *context) {
    (void)worker;
    file_task *t = context;
    ledge_world *w = t->w;
    for (int b = start; b < end; ++b) {
        ledge__grid_scatter(&w->grid, b * LEDGE__BLOCK, ledge__block_end(b, w->slot_count),
                            t->shift, w->broad->grid_count + b * LEDGE__GRID_BANDS, w->par.items);
    }
}

static void band_run(int start, int end, int worker, void *context) {
    (void)worker;
    file_task *t = context;
    for (int band = start; band < end; ++band) {
        ledge__grid_sort_band(&t->w->grid, band, t->shift, t->band_start, t->w->par.items);
    }
}

// `before_ny`: 0, or the rows of this substep's first filing when this one
// refiles it (only the fast bodies moved, and the grid kept its columns).
static void file_bodies(ledge_world *w, int before_ny) {
    file_task t;
    t.w = w;
    t.before_ny = before_ny;
    t.shift = ledge__grid_band_shift(&w->grid);
    int blocks = ledge__blocks(w->slot_count);
    int bands = ((w->grid.nx * w->grid.ny - 1) >> t.shift) + 1;
    bool new_stamp = check_grid_key(w);
    ledge__run(w, count_run, blocks, 1, &t);
    if (filing_unchanged(w, new_stamp, blocks)) { // a settled level: nothing to place again
        w->grid.kept++;
        return;
    }
    ledge__grid_band_places(&w->grid, w->broad->grid_count, blocks, t.shift, w->slot_count,
                            t.band_start);
    ledge__run(w, scatter_run, blocks, 1, &t);
    ledge__run(w, band_run, bands, 1, &t);
}

void ledge__broad_forget(ledge_world *w, ledge__stale why) {
    ledge__broad *br = w->broad;
    if (why & LEDGE__STALE_SLOTS) {
        if (br->block_cap > 0) {
            size_t n = (size_t)br->block_cap;
            memset(br->classified, 0, sizeof *br->classified * n);
            memset(br->counted, 0, sizeof *br->counted * n);
        }
        w->grid.slots = 0;
    }
    if (why & LEDGE__STALE_TILES) {
        for (int i = 0; i < w->slot_count; ++i) {
            w->tile_seen[i].x0 = INT_MIN;
            w->tile_seen_near[i] = 0;
        }
    }
}

bool ledge__broad_reserve(ledge_world *w, int slots) {
    ledge__broad *p = w->broad;
    int blocks = ledge__blocks(slots);
    if (blocks <= p->block_cap) return true;
    int want = blocks < 8 ? 8 : blocks + blocks / 2;
    int used = p->block_cap;
    // The pair lists move with their contents (a block keeps its room); the
    // stamps start at 0 (nothing is remembered of a new array's blocks).
    if (!ledge__array_regrow((void **)&p->pairs, sizeof *p->pairs, used, want) ||
        !ledge__array_regrow((void **)&p->sensors, sizeof *p->sensors, used, want) ||
        !ledge__array_regrow((void **)&p->classified, sizeof *p->classified, 0, want) ||
        !ledge__array_regrow((void **)&p->classified_still, sizeof *p->classified_still, 0, want) ||
        !ledge__array_regrow((void **)&p->block_bounds, sizeof *p->block_bounds, 0, want) ||
        !ledge__array_regrow((void **)&p->block_lower, sizeof *p->block_lower * 2, 0, want) ||
        !ledge__array_regrow((void **)&p->block_upper, sizeof *p->block_upper * 2, 0, want) ||
        !ledge__array_regrow((void **)&p->counted, sizeof *p->counted, 0, want) ||
        !ledge__array_regrow((void **)&p->cells_changed, sizeof *p->cells_changed, 0, want) ||
        !ledge__array_regrow((void **)&p->saved_count, sizeof *p->saved_count * LEDGE__GRID_BANDS,
                             0, want) ||
        !ledge__array_regrow((void **)&p->grid_count, sizeof *p->grid_count * LEDGE__GRID_BANDS, 0,
                             want) ||
        !ledge__array_regrow((void **)&p->pair_offset, sizeof *p->pair_offset, 0, want) ||
        !ledge__array_regrow((void **)&p->sensor_offset, sizeof *p->sensor_offset, 0, want) ||
        !ledge__array_regrow((void **)&p->pair_start, sizeof *p->pair_start, 0, want) ||
        !ledge__array_regrow((void **)&p->sensor_start, sizeof *p->sensor_start, 0, want) ||
        !ledge__array_regrow((void **)&p->fresh_start, sizeof *p->fresh_start * 2, 0, want) ||
        !ledge__array_regrow((void **)&p->research, sizeof *p->research, 0, want) ||
        !ledge__array_regrow((void **)&p->splice_to, sizeof *p->splice_to, 0, want) ||
        !ledge__array_regrow((void **)&p->active_before, sizeof *p->active_before, 0, want)) {
        // The arrays grown so far keep their contents; block_cap stays the
        // smallest of them, so the next attempt grows them all again.
        LEDGE_ERROR(
            "ledge_world_step: allocation of the broad phase's scratch for %d blocks failed", want);
        return false;
    }
    p->block_cap = want;
    return true;
}

void ledge__broad_destroy(ledge__broad *p) {
    for (int b = 0; b < p->block_cap; ++b) {
        ledge__free(p->pairs[b].pairs);
        ledge__free(p->sensors[b].pairs);
    }
    void *arrays[] = {p->pairs,         p->sensors,     p->classified,    p->classified_still,
                      p->block_bounds,  p->block_lower, p->block_upper,   p->counted,
                      p->cells_changed, p->saved_count, p->grid_count,    p->pair_offset,
                      p->sensor_offset, p->pair_start,  p->sensor_start,  p->fresh_start,
                      p->research,      p->splice_to,   p->active_before, p->far_keys};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) ledge__free(arrays[k]);
}

void ledge__broad_build(ledge_world *w, ledge__filing filing) {
    float cell = w->cell_size > 0.0f ? w->cell_size : w->max_extent + w->step.margin;
    if (!(cell > 0.0f)) cell = ledge_tilemap_get_def(w->map).tile_size;
    vec2s lower, upper;
    if (filing == LEDGE__FILING_AFTER) {
        classify_again(w, &lower, &upper);
    } else {
        classify(w, cell, filing == LEDGE__FILING_BEFORE, &lower, &upper);
    }
    ledge__grid before = w->grid;
    ledge__grid_fit(&w->grid, lower, upper, cell);
    bool again = filing == LEDGE__FILING_AFTER && ledge__grid_refilable(&before, &w->grid);
    w->grid.refiled += again;
    file_bodies(w, again ? before.ny : 0);
}
