// The tile list of the substep (broad_tiles.h): which dynamic bodies'
// boxes grown by the margin meet a non-empty tile cell, each answer
// remembered with the cell range it was found for.
#include "broad_file.h"
#include "broad_tiles.h"
#include "chain_store.h"
#include "par.h"

#include "tilemap.h"

#include <limits.h>
#include <string.h>

// floorf without a libm call (x86-64's baseline has no rounding
// instruction), for the clamped values of tile_range.
static inline int floor_int(float f) {
    int i = (int)f;
    return i - (f < (float)i);
}

// The box (c, h) grown by the margin, in tile units (before flooring).
typedef struct tile_span {
    float lo_x, hi_x, lo_y, hi_y;
} tile_span;

static inline tile_span tile_span_of(const ledge_world *w, vec2s c, vec2s h) {
    const ledge_tilemap *map = w->map;
    float m = w->step.margin, inv = map->inv_tile_size;
    tile_span s = {(c.x - h.x - m - map->origin.x) * inv, (c.x + h.x + m - map->origin.x) * inv,
                   (c.y - h.y - m - map->origin.y) * inv, (c.y + h.y + m - map->origin.y) * inv};
    return s;
}

// The tile cells a span covers, clamped to just outside the map (cells
// outside count as FULL, so one is enough).
static inline ledge__range span_range(const ledge_tilemap *map, tile_span s) {
    float wx = (float)map->width, wy = (float)map->height;
    ledge__range r;
    r.x0 = floor_int(maxf(-1.0f, minf(s.lo_x, wx)));
    r.x1 = floor_int(maxf(-1.0f, minf(s.hi_x, wx)));
    r.y0 = floor_int(maxf(-1.0f, minf(s.lo_y, wy)));
    r.y1 = floor_int(maxf(-1.0f, minf(s.hi_y, wy)));
    return r;
}

// The tile cells within the margin of the box (c, h) (span_range).
static ledge__range tile_range(const ledge_world *w, vec2s c, vec2s h) {
    return span_range(w->map, tile_span_of(w, c, h));
}

// Whether span_range(s) lies inside r, a range inside the map: floor is
// monotonic, so lo >= x0 and hi < x1 + 1 bound the floored cells without
// the clamps and floors (exact: clear ranges stay below 2^24 cells, where
// every int is a float).
static inline bool span_within(tile_span s, const ledge__range *r) {
    return s.lo_x >= (float)r->x0 && s.hi_x < (float)(r->x1 + 1) && s.lo_y >= (float)r->y0 &&
           s.hi_y < (float)(r->y1 + 1);
}

static bool range_has_tiles(const ledge_tilemap *map, ledge__range r) {
    if (r.x0 < 0 || r.y0 < 0 || r.x1 >= map->width || r.y1 >= map->height) return true;
    for (int y = r.y0; y <= r.y1; ++y) {
        const ledge_tile *row = map->tiles + (size_t)y * (size_t)map->width;
        for (int x = r.x0; x <= r.x1; ++x) {
            if (row[x] != LEDGE_TILE_EMPTY) return true;
        }
    }
    return false;
}

bool ledge__tiles_near(const ledge_world *w, vec2s c, vec2s h) {
    return range_has_tiles(w->map, tile_range(w, c, h));
}

// tile_seen_near[i]: whether the cells of tile_seen[i] hold a tile
// (NEAR_TILES), whether tile_seen[i] is the range of the box at
// tile_anchor[i] (SEEN_AT_ANCHOR: the broad phase's own look, not a
// pass's recheck from elsewhere), and whether tile_seen[i] is a clear
// range (CLEAR_RANGE: empty cells inside the map, around the range last
// looked at).
#define NEAR_TILES     1u
#define SEEN_AT_ANCHOR 2u
#define CLEAR_RANGE    4u

// Cells a clear range reaches past the range looked at, on each side where
// they are empty: a falling body then finds its box inside the range it
// saw for the next steps (a cell in 0.1-0.2 cells per step at 6-12 m/s and
// 60 Hz), with four compares instead of the floors and the cell loop.
#define CLEAR_REACH 2

// The empty range r (inside the map) grown side by side, a row or column
// at a time, while the cells it takes are empty and inside the map.
static ledge__range clear_around(const ledge_tilemap *map, ledge__range r) {
    for (int k = 0; k < CLEAR_REACH; ++k) {
        ledge__range s = {r.x0 - 1, r.y0, r.x0 - 1, r.y1};
        if (!range_has_tiles(map, s)) r.x0--;
        s = (ledge__range){r.x1 + 1, r.y0, r.x1 + 1, r.y1};
        if (!range_has_tiles(map, s)) r.x1++;
        s = (ledge__range){r.x0, r.y0 - 1, r.x1, r.y0 - 1};
        if (!range_has_tiles(map, s)) r.y0--;
        s = (ledge__range){r.x0, r.y1 + 1, r.x1, r.y1 + 1};
        if (!range_has_tiles(map, s)) r.y1++;
    }
    return r;
}

// A range the compares of span_within can stand for (its cells as floats).
static inline bool clear_usable(ledge__range r) {
    return r.x1 < (1 << 24) - 1 && r.y1 < (1 << 24) - 1;
}

// Whether the span lies in body i's clear range: no tile near it.
static inline bool in_clear_range(const ledge_world *w, int i, tile_span s) {
    return (w->tile_seen_near[i] & CLEAR_RANGE) && span_within(s, &w->tile_seen[i]);
}

static inline bool same_range(ledge__range a, ledge__range b) {
    return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1;
}

// The same for body i, remembered with the cell range it was found for: a
// body that stays over the same cells with tiles (a resting one), or inside
// the clear range around the cells it last saw free (a falling one), skips
// the lookups until it leaves them or a tile changes. The answer is always
// the lookup's. `mark` (SEEN_AT_ANCHOR or 0) is added to the flags.
static bool body_near_tiles(ledge_world *w, int i, uint8_t mark) {
    tile_span s = tile_span_of(w, w->step.box_center[i], w->box_half[i]);
    uint8_t flags = w->tile_seen_near[i];
    if (in_clear_range(w, i, s)) {
        w->tile_seen_near[i] = (uint8_t)(flags | mark);
        return false;
    }
    ledge__range r = span_range(w->map, s);
    if ((flags & NEAR_TILES) && same_range(r, w->tile_seen[i])) {
        w->tile_seen_near[i] = (uint8_t)(flags | mark);
        return true;
    }
    flags = NEAR_TILES;
    if (!range_has_tiles(w->map, r)) {
        r = clear_around(w->map, r);
        flags = clear_usable(r) ? CLEAR_RANGE : 0u;
    }
    w->tile_seen[i] = r;
    w->tile_seen_near[i] = (uint8_t)(flags | mark);
    return flags & NEAR_TILES;
}

bool ledge__body_tiles_near(const ledge_world *w, int i, vec2s c, vec2s h) {
    tile_span s = tile_span_of(w, c, h);
    // After a tile edit the ranges are stale until they are forgotten
    // (ledge__broad_forget, before the next step).
    if (w->map_version == w->map->version && in_clear_range(w, i, s)) return false;
    return range_has_tiles(w->map, span_range(w->map, s));
}

// body_near_tiles for the broad phase, which then anchors the body at its
// box centre. A body whose centre has the same bits as at the last anchor
// (most of a resting pile) would get the same range: its answer stands,
// without the range's arithmetic. (The box's half extents never change;
// a new margin forgets every anchor (check_margin), and a tile edit too
// (ledge__broad_forget).)
// (The centres first: a falling body fails there, at the cost of one load.)
static inline bool anchored_near_tiles(ledge_world *w, int i) {
    vec2s c = w->step.box_center[i], at = w->tile_anchor[i];
    if (memcmp(&c, &at, sizeof c) == 0 && (w->tile_seen_near[i] & SEEN_AT_ANCHOR)) {
        return w->tile_seen_near[i] & NEAR_TILES;
    }
    return body_near_tiles(w, i, SEEN_AT_ANCHOR);
}

// Forgets the remembered ranges and the anchors' answers when the margin
// changed since they were found. (A tile edit forgets them before the step:
// ledge__broad_forget.)
static void check_margin(ledge_world *w) {
    if (w->step.margin == w->broad->tile_margin) return;
    w->broad->tile_margin = w->step.margin;
    for (int i = 0; i < w->slot_count; ++i) {
        w->tile_seen[i].x0 = INT_MIN;
        w->tile_seen_near[i] = 0;
    }
}

void ledge__broad_forget_anchor(ledge_world *w, int i) {
    w->step.tile_listed[i] = 0;
    // Anchored without a look (its box may be stale): nothing stands.
    w->tile_seen_near[i] &= (uint8_t)~SEEN_AT_ANCHOR;
    w->tile_anchor[i] = w->step.box_center[i];
}

// Whether body i's box grown by the margin meets a chain segment's box:
// chains are projected with the tiles, so a body near one joins the tile
// list.
static bool near_chains(const ledge_world *w, int i) {
    const ledge__chains *cs = w->chains;
    if (LEDGE_LIKELY(cs == NULL || cs->live == 0)) return false;
    vec2s c = w->step.box_center[i];
    vec2s h = v2_add(w->box_half[i], v2(w->step.margin, w->step.margin));
    return ledge__chains_near(cs, (ledge_aabb){v2_sub(c, h), v2_add(c, h)});
}

// Which bodies of a block of slots are near tiles (a worker's item): its
// part of the tile list, in par.items at the block's offset.
static void tile_block(ledge_world *w, int b) {
    int *list = w->par.items + b * LEDGE__BLOCK, count = 0;
    // A dormant block's sleepers hold what the loop would write (sleep.c).
    int end = ledge__stirred_end(w, b);
    for (int i = b * LEDGE__BLOCK; i < end; ++i) {
        bool looks = w->alive[i] && !w->frozen[i] && !w->sensor[i] && !w->asleep[i] &&
                     w->type[i] == LEDGE_BODY_DYNAMIC;
        if (!looks) {
            ledge__broad_forget_anchor(w, i);
            continue;
        }
        w->step.tile_listed[i] = anchored_near_tiles(w, i) || near_chains(w, i);
        w->tile_anchor[i] = w->step.box_center[i];
        if (w->step.tile_listed[i]) list[count++] = i;
    }
    w->par.block_count[b] = count;
}

static void tile_run(int start, int end, int worker, void *context) {
    (void)worker;
    for (int b = start; b < end; ++b) tile_block(context, b);
}

// The dynamic bodies near non-empty tile cells, in slot order, into the
// step's tile list (blocks of slots on the workers, joined in block order).
void ledge__broad_tile_list(ledge_world *w) {
    w->step.tile_count = 0;
    check_margin(w);
    int blocks = ledge__blocks(w->slot_count);
    ledge__run(w, tile_run, blocks, 1, w);
    for (int b = 0; b < blocks; ++b) {
        const int *list = w->par.items + b * LEDGE__BLOCK;
        for (int k = 0; k < w->par.block_count[b]; ++k)
            w->step.tile_list[w->step.tile_count++] = list[k];
    }
    ledge__take_rechecked(w);
}

// Marks body i (ledge__far_pairs reads the marks after the pass), and
// rechecks its tiles: a listed body is marked 2, to be appended to the
// tile list in slot order after the pass.
void ledge__moved_far(ledge_world *w, int i, int worker) {
    if (!w->step.far_moved[i]) {
        w->step.far_moved[i] = 1;
        w->par.counter[worker].far_moved++;
    }
    if (w->step.tile_listed[i] || w->type[i] != LEDGE_BODY_DYNAMIC || w->sensor[i] || w->asleep[i])
        return;
    if (!body_near_tiles(w, i, 0) && !near_chains(w, i)) return;
    w->step.tile_listed[i] = 2;
    w->par.counter[worker].rechecked++;
}

void ledge__append_rechecked(ledge_world *w) {
    if (ledge__take_rechecked(w) == 0) return;
    for (int i = 0; i < w->slot_count; ++i) {
        if (w->step.tile_listed[i] != 2) continue;
        w->step.tile_listed[i] = 1;
        w->step.tile_list[w->step.tile_count++] = i;
    }
}
