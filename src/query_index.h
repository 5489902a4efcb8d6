// The queries' own index of the bodies (query_index.c), kept in step with
// them body by body: a hierarchy of hashed loose grids. The public queries
// (query.c) walk its cells; the step refiles what moved, and the bump
// module and the sleep stage ask it for the bodies in a box.
#ifndef LEDGE_QUERY_INDEX_H
#define LEDGE_QUERY_INDEX_H

#include "world_state.h"

#include "ledge/query.h"

#include <math.h>

enum { UNFILED = 0, IN_GRID = 1, IN_BIG = 2, LEVELS = 24 };
enum { SPARSE_LEVEL = 4 }; // the unordered query scans a level of this many bodies or fewer
/// One level of the hierarchy: its cells and the bodies filed in it.
typedef struct level {
    float cell;         ///< Cell side.
    float inv_cell;     ///< 1 / cell.
    int filed;          ///< Bodies filed in this level.
    int x0, y0, x1, y1; ///< Cells holding them lie within (grow-only while filed > 0).
    int first;          ///< First slot of the list of this level's bodies, or -1.
} level;
/// A filed slot's entry in its bucket's list, with everything a query's
/// walk reads about it: one place (half a cache line) instead of five
/// arrays by slot, so that a candidate costs one cache line, not five.
typedef struct qnode {
    int next;       ///< Next slot in the bucket's list, or -1.
    int cx, cy;     ///< Its cell (IN_GRID).
    uint8_t lvl;    ///< Its level (IN_GRID).
    bool seen;      ///< sees_default(): the default filter finds it.
    bool filter_ok; ///< Its filter meets the default filter's (changes only with the filter).
    ledge_aabb box; ///< Its box when last refiled: centre offset plus and minus half extents.
} qnode;            // 32 bytes, aligned to 32 in the array: never across two cache lines
_Static_assert(sizeof(qnode) == 32, "a node is half a cache line");
typedef struct ledge__query_index {
    level lv[LEVELS];           ///< Cells of base * 2^k.
    int cap;                    ///< Slots in the per-slot arrays below.
    uint32_t bucket_mask;       ///< Buckets - 1 (a power of two, at least 2 * cap).
    int *head;                  ///< First slot of each bucket, or -1.
    qnode *node;                ///< Each slot's list link, cell, level and box.
    void *node_mem;             ///< The allocation node lies in (aligned up from it).
    int *prev;                  ///< Previous slot in the bucket's list (-1: none).
    int *lnext, *lprev;         ///< Links of each IN_GRID slot in its level's list (-1: none).
    uint8_t *where;             ///< UNFILED, IN_GRID or IN_BIG.
    int filed;                  ///< Slots IN_GRID.
    uint32_t used;              ///< Bit l set when level l holds a body (queries skip the rest).
    int *big;                   ///< Bodies larger than the top level's cells (order irrelevant).
    int *big_pos;               ///< Each IN_BIG slot's index in big.
    int big_count;              ///< Entries in big.
    uint32_t *stamp;            ///< Last query that tested the slot.
    uint32_t stamp_now;         ///< This query's stamp.
    int *found;                 ///< Scratch: slots found by this query.
    int found_count;            ///< Entries in found.
    ledge_raycast_result *hits; ///< Scratch of raycast_all (cap + 1 entries).
    int *hit_slot;              ///< Each hit's key for ties (chain_query.h: the tile, or a body's
                                ///< handle).
    bool dirty;                 ///< Rebuilt before the next query (ledge__query_refresh).
} ledge__query_index;

// The cell coordinate of f in level l, clamped far inside int (centres are
// within LEDGE_MAX_COORDINATE; a tiny cell could still overflow). The floor
// by truncation and a step down: without SSE4.1, floorf is a dozen
// instructions, and this runs four times per level of every query.
static LEDGE_INLINE int ledge__query_cell_coord(const level *l, float f) {
    float c = f * l->inv_cell;
    if (!(c >= -1.0e9f)) return -1000000000; // NaN too: never (int) of it
    if (c > 1.0e9f) return 1000000000;
    int t = (int)c; // toward zero: exact below 1e9
    return t - ((float)t > c);
}

// The row (y, level) is hashed and x added: the cells of one row, which a
// query visits one after the other, are neighbouring buckets, so a row
// costs one cache line of heads, not one per cell (at 10,000 small bodies
// the heads were half of a query's cache misses).
static LEDGE_INLINE uint32_t ledge__query_bucket(const ledge__query_index *q, int l, int x, int y) {
    uint32_t h = (uint32_t)y * 19349663u ^ (uint32_t)l * 83492791u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return (h + (uint32_t)x) & q->bucket_mask;
}

// ledge__vec_within(v, LEDGE_MAX_COORDINATE), inlined: the refile of every
// move and the checks of every query call it (a call to check.c is most of
// its cost). One comparison per component: NaN compares false and an
// infinity exceeds the finite bound, so isfinite() is not needed.
static LEDGE_INLINE bool ledge__query_within(vec2s v) {
    return fabsf(v.x) <= LEDGE_MAX_COORDINATE && fabsf(v.y) <= LEDGE_MAX_COORDINATE;
}

static LEDGE_INLINE bool ledge__query_boxes_overlap(ledge_aabb a, ledge_aabb b) {
    return a.lower.x <= b.upper.x && a.upper.x >= b.lower.x && a.lower.y <= b.upper.y &&
           a.upper.y >= b.lower.y;
}

// The largest coordinate of b, which sizes the rounding margin.
static LEDGE_INLINE float ledge__query_box_scale(ledge_aabb b) {
    return maxf(maxf(fabsf(b.lower.x), fabsf(b.upper.x)), maxf(fabsf(b.lower.y), fabsf(b.upper.y)));
}

// The cells of level li that the box `b` (ledge__query_box_scale(b) is `scale`) grown
// by half a cell (and a rounding margin) reaches, within the cells the
// level holds, into [*x0, *x1] x [*y0, *y1]: 0 when there are none, 2 when
// they outnumber the filed bodies (cheaper to visit every body), 1
// otherwise.
static LEDGE_INLINE int ledge__query_level_range(const ledge__query_index *q, int li, ledge_aabb b,
                                                 float scale, int *x0, int *x1, int *y0, int *y1) {
    const level *l = &q->lv[li];
    float grow = 0.51f * l->cell + 1e-5f * scale;
    int ax = ledge__query_cell_coord(l, b.lower.x - grow),
        bx = ledge__query_cell_coord(l, b.upper.x + grow);
    int ay = ledge__query_cell_coord(l, b.lower.y - grow),
        by = ledge__query_cell_coord(l, b.upper.y + grow);
    *x0 = ax > l->x0 ? ax : l->x0, *x1 = bx < l->x1 ? bx : l->x1;
    *y0 = ay > l->y0 ? ay : l->y0, *y1 = by < l->y1 ? by : l->y1;
    if (*x0 > *x1 || *y0 > *y1) return 0;
    // In 64-bit integers: exact, and cheaper than doubles.
    int64_t cells = ((int64_t)*x1 - *x0 + 1) * ((int64_t)*y1 - *y0 + 1);
    return cells > (int64_t)q->filed ? 2 : 1;
}

// The index of the lowest set bit of v (v != 0).
static LEDGE_INLINE int ledge__query_lowest_bit(uint32_t v) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(v);
#else
    int k = 0;
    while (!(v & 1u)) v >>= 1, ++k;
    return k;
#endif
}

/// Frees the queries' index; the world's destructor calls it.
void ledge__query_free(ledge_world *world);

/// The queries' part of ledge__world_forget (query_index.c): after the
/// slots moved, the index (by slot), rebuilt when next asked.
void ledge__query_forget(ledge_world *world, ledge__stale why);

/// Refiles body slot i in the queries' index after it was created, placed
/// or destroyed (query.c): that body alone, O(1).
void ledge__query_refile(ledge_world *world, int i);

/// Notes that body slot i's filter changed (query.c): the index keeps
/// whether the default filter sees each body.
void ledge__query_filter_changed(ledge_world *world, int i);

/// Refiles the bodies whose cell changed in the step (query.c).
void ledge__query_sync(ledge_world *world);

/// Called with each body slot a query finds; false stops the query.
typedef bool ledge__slot_visit_fn(const ledge_world *world, int slot, void *context);

/// ledge_world_query_aabb with the default filter, for callers that order
/// the results themselves (the bump module's nearest collision): the slots
/// in no defined order, without the sort by id, each passed to `visit` as
/// the index is walked (so visit must not change the world). A body's box
/// is its centre offset plus and minus its half extents, which may differ
/// from the other queries' (position plus shape bounds) by a rounding: none
/// for a centred box, and callers pad their boxes by more. Refusals are
/// logged as "<fn>: ..."; returns the bodies visited, or -1.
int ledge__query_aabb_unordered(ledge_world *world, ledge_aabb aabb, const char *fn,
                                ledge__slot_visit_fn *visit, void *context);

/// ledge__query_aabb_unordered over every body whatever its filter (the
/// sleepers an edit or a platform reaches: a filter that hides a body from
/// the queries does not keep it off the tiles).
int ledge__query_aabb_every(ledge_world *world, ledge_aabb aabb, const char *fn,
                            ledge__slot_visit_fn *visit, void *context);

/// The same query of `aabb` answered from `slots`, every slot an earlier
/// ledge__query_aabb_unordered of a box containing `aabb` visited, with
/// no body changed since: visits those whose boxes overlap `aabb`, which
/// are exactly the bodies that query would find (each overlaps the larger
/// box too). Returns the bodies visited.
int ledge__query_aabb_among(ledge_world *world, ledge_aabb aabb, const int *slots, int count,
                            ledge__slot_visit_fn *visit, void *context);

/// Creates the index on the first query; rebuilds it when it was marked
/// stale (slots outgrew it, the cell side needs refitting). Refusals are
/// logged as "<fn>: ...".
bool ledge__query_refresh(ledge_world *world, const char *fn);

/// A new stamp for one query (clearing the marks when the counter wraps).
uint32_t ledge__query_next_stamp(ledge__query_index *q);

/// A world that may be queried now (not NULL, not stepping); logged.
bool ledge__query_ready(const ledge_world *world, const char *fn);

/// A query box that is finite, within LEDGE_MAX_COORDINATE and ordered; logged.
bool ledge__query_check_box(const char *fn, ledge_aabb b);

#endif // LEDGE_QUERY_INDEX_H
