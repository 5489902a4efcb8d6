// The broad phase of a substep: the loose grid (grid.h) is rebuilt over the
// rectangle the bodies occupy, then read once to list
// - the candidate pairs: bounding boxes grown by the margin overlap, the
//   filters let the two touch and at least one of them can move;
// - the dynamic bodies whose grown box meets a non-empty tile cell.
// The relaxation passes then test only these lists, so a body deep inside
// a pile costs a few pair tests per pass and no tile lookups.
//
// Grid rows run along "up" (the world axis closest to -gravity, bottom
// first), so pairs come out roughly from the bottom of a pile to its top:
// the order the velocity pass's shock propagation wants.
//
// Bodies larger than a cell (the cell follows the largest dynamic body,
// or the world def's cell_size) are kept out of the grid: each scans the
// grid cells its own grown box reaches, and those bodies test each other
// directly. A level with a few big static or kinematic bodies stays fast.
#include "broad.h"
#include "world.h"

#include "tilemap.h"

#include <limits.h>
#include <string.h>

// --- grid coordinates -------------------------------------------------------

// World to grid coordinates: a permutation and signs of the axes, so that
// grid rows run along w->up_axis. Boxes keep their half extents (swapped).
static inline vec2s to_grid(int up_axis, vec2s p) {
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

static inline vec2s half_to_grid(int up_axis, vec2s h) {
    return up_axis >= 2 ? v2(h.y, h.x) : h;
}

// --- lists ------------------------------------------------------------------

// Makes room for one more pair in a pair list (the candidates, or the
// sensor pairs).
static bool grow_pairs(ledge__pair **pairs, int *cap, int count) {
    if (LEDGE__RESERVE(*pairs, *cap, count + 1, count, 256)) return true;
    LEDGE_ERROR("ledge_world_step: allocation of %d candidate pairs failed (pairs beyond %d "
                "are skipped this step)",
                2 * *cap, *cap);
    return false;
}

// A sensor and a body it may report (sensors.c tests them after the step).
static bool push_sensor_pair(ledge_world *w, int a, int b) {
    if (!grow_pairs(&w->step.sensor_pairs, &w->step.sensor_pair_cap, w->step.sensor_pair_count))
        return false;
    ledge__pair *p = &w->step.sensor_pairs[w->step.sensor_pair_count++];
    memset(p, 0, sizeof *p);
    p->a = w->sensor[a] ? a : b;
    p->b = w->sensor[a] ? b : a;
    return true;
}

static bool push_pair(ledge_world *w, int a, int b) {
    if (!grow_pairs(&w->step.pairs, &w->step.pair_cap, w->step.pair_count)) return false;
    ledge__pair *p = &w->step.pairs[w->step.pair_count++];
    p->a = a;
    p->b = b;
    p->friction = sqrtf(w->friction[a] * w->friction[b]);
    p->bounce = maxf(w->bounce[a], w->bounce[b]);
    p->normal = v2(0.0f, 0.0f);
    p->touched = false;
    p->decided = false;
    p->policy = LEDGE_RESPONSE_SLIDE;
    return true;
}

// Tests a and b as candidates; false only when the pair list cannot grow.
static inline bool consider(ledge_world *w, int a, int b) {
    vec2s d = v2_sub(w->step.box_center[a], w->step.box_center[b]);
    vec2s r = v2_add(w->box_half[a], w->box_half[b]);
    if (fabsf(d.x) >= r.x + w->step.margin || fabsf(d.y) >= r.y + w->step.margin) return true;
    if (!ledge__filters_allow(&w->filter[a], &w->filter[b])) return true;
    if (w->sensor[a] | w->sensor[b]) {
        // A sensor reports bodies that move (not other sensors, not the level).
        if ((w->sensor[a] & w->sensor[b]) || w->type[w->sensor[a] ? b : a] == LEDGE_BODY_STATIC) {
            return true;
        }
        return push_sensor_pair(w, a, b);
    }
    if (w->inv_mass[a] + w->inv_mass[b] <= 0.0f) return true; // neither can move
    return push_pair(w, a, b);
}

// Each cell against itself and four of its neighbours (east, north-west,
// north, north-east): every adjacent pair of cells is visited once. Driven
// by the bodies (in cell order), not by the cells, so empty cells cost only
// the grid build's clear.
static void grid_pairs(ledge_world *w) {
    const ledge__grid *g = &w->grid;
    static const int dx[4] = {1, -1, 0, 1}, dy[4] = {0, 1, 1, 1};
    for (int p = 0; p < g->count; ++p) {
        int a = g->sorted[p], c = g->cell_of[a];
        int cx = c % g->nx, cy = c / g->nx;
        for (int q = p + 1; q < g->cell_start[c + 1]; ++q) {
            if (!consider(w, a, g->sorted[q])) return;
        }
        for (int k = 0; k < 4; ++k) {
            int nx = cx + dx[k], ny = cy + dy[k];
            if (nx < 0 || nx >= g->nx || ny >= g->ny) continue;
            int d = ny * g->nx + nx;
            for (int q = g->cell_start[d]; q < g->cell_start[d + 1]; ++q) {
                if (!consider(w, a, g->sorted[q])) return;
            }
        }
    }
}

void ledge__grid_rect(const ledge_world *w, vec2s c, vec2s h, float reach, vec2s *lo, vec2s *hi) {
    const ledge__grid *g = &w->grid;
    vec2s gc = to_grid(w->up_axis, c), gh = half_to_grid(w->up_axis, h);
    *lo = v2((float)ledge__grid_index((gc.x - gh.x - reach - g->origin.x) * g->inv_cell, g->nx),
             (float)ledge__grid_index((gc.y - gh.y - reach - g->origin.y) * g->inv_cell, g->ny));
    *hi = v2((float)ledge__grid_index((gc.x + gh.x + reach - g->origin.x) * g->inv_cell, g->nx),
             (float)ledge__grid_index((gc.y + gh.y + reach - g->origin.y) * g->inv_cell, g->ny));
}

bool ledge__boxes_near(const ledge_world *w, vec2s c, vec2s h, int o) {
    vec2s d = v2_sub(c, w->step.box_center[o]);
    vec2s r = v2_add(h, w->box_half[o]);
    return fabsf(d.x) < r.x + w->step.margin && fabsf(d.y) < r.y + w->step.margin;
}

// A big body against the grid bodies whose cells its grown box reaches
// (their centres lie within half a cell of their own boxes), then against
// the big bodies after it.
static void big_pairs(ledge_world *w) {
    const ledge__grid *g = &w->grid;
    for (int k = 0; k < w->step.big_count; ++k) {
        int a = w->step.big_list[k];
        vec2s lo, hi;
        ledge__grid_rect(w, w->step.box_center[a], w->box_half[a], 0.5f * g->cell + w->step.margin,
                         &lo, &hi);
        for (int y = (int)lo.y; y <= (int)hi.y; ++y) {
            for (int x = (int)lo.x; x <= (int)hi.x; ++x) {
                int d = y * g->nx + x;
                for (int q = g->cell_start[d]; q < g->cell_start[d + 1]; ++q) {
                    if (!consider(w, a, g->sorted[q])) return;
                }
            }
        }
        for (int j = k + 1; j < w->step.big_count; ++j) {
            if (!consider(w, a, w->step.big_list[j])) return;
        }
    }
}

// floorf without a libm call (x86-64's baseline has no rounding
// instruction), for the clamped values of tile_range.
static inline int floor_int(float f) {
    int i = (int)f;
    return i - (f < (float)i);
}

// The tile cells within the margin of the box (c, h), clamped to just
// outside the map (cells outside count as FULL, so one is enough).
static ledge__range tile_range(const ledge_world *w, vec2s c, vec2s h) {
    const ledge_tilemap *map = w->map;
    float m = w->step.margin, inv = map->inv_tile_size;
    float lo_x = (c.x - h.x - m - map->origin.x) * inv,
          hi_x = (c.x + h.x + m - map->origin.x) * inv;
    float lo_y = (c.y - h.y - m - map->origin.y) * inv,
          hi_y = (c.y + h.y + m - map->origin.y) * inv;
    float wx = (float)map->width, wy = (float)map->height;
    ledge__range r;
    r.x0 = floor_int(maxf(-1.0f, minf(lo_x, wx)));
    r.x1 = floor_int(maxf(-1.0f, minf(hi_x, wx)));
    r.y0 = floor_int(maxf(-1.0f, minf(lo_y, wy)));
    r.y1 = floor_int(maxf(-1.0f, minf(hi_y, wy)));
    return r;
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

// The same for body i, remembered with the cell range it was found for: a
// body that stays over the same cells (a resting one) skips the lookups
// until it moves to other cells or a tile changes.
static bool body_near_tiles(ledge_world *w, int i) {
    ledge__range r = tile_range(w, w->step.box_center[i], w->box_half[i]);
    ledge__range *seen = &w->tile_seen[i];
    if (r.x0 == seen->x0 && r.y0 == seen->y0 && r.x1 == seen->x1 && r.y1 == seen->y1) {
        return w->tile_seen_near[i];
    }
    *seen = r;
    w->tile_seen_near[i] = range_has_tiles(w->map, r);
    return w->tile_seen_near[i];
}

// Forgets the remembered ranges when the map changed since they were seen.
static void check_map_version(ledge_world *w) {
    if (w->map->version == w->map_version) return;
    w->map_version = w->map->version;
    for (int i = 0; i < w->slot_count; ++i) w->tile_seen[i].x0 = INT_MIN;
}

// --- the broad phase --------------------------------------------------------

// Boxes, grid coordinates, the big list, and the bounds of the grid
// bodies' centres.
static void classify(ledge_world *w, float cell, vec2s *lower, vec2s *upper) {
    bool any = false;
    *lower = v2(0.0f, 0.0f);
    *upper = v2(0.0f, 0.0f);
    w->step.big_count = 0;
    for (int i = 0; i < w->slot_count; ++i) {
        w->step.in_grid[i] = 0;
        if (!w->alive[i] || w->frozen[i]) continue;
        w->step.box_center[i] = v2_add(w->position[i], w->box_offset[i]);
        vec2s gc = w->step.grid_center[i] = to_grid(w->up_axis, w->step.box_center[i]);
        if (2.0f * maxf(w->box_half[i].x, w->box_half[i].y) + w->step.margin > cell) {
            w->step.big_list[w->step.big_count++] = i;
            continue;
        }
        w->step.in_grid[i] = 1;
        if (!any) *lower = *upper = gc;
        any = true;
        *lower = v2(minf(lower->x, gc.x), minf(lower->y, gc.y));
        *upper = v2(maxf(upper->x, gc.x), maxf(upper->y, gc.y));
    }
}

void ledge__broad_build(ledge_world *w) {
    float cell = w->cell_size > 0.0f ? w->cell_size : w->max_extent + w->step.margin;
    if (!(cell > 0.0f)) cell = ledge_tilemap_get_def(w->map).tile_size;
    vec2s lower, upper;
    classify(w, cell, &lower, &upper);
    ledge__grid_fit(&w->grid, lower, upper, cell);
    ledge__grid_build(&w->grid, w->step.grid_center, w->step.in_grid, w->slot_count);
}

void ledge__broad_pairs(ledge_world *w) {
    w->step.pair_count = 0;
    w->step.sensor_pair_count = 0;
    grid_pairs(w);
    big_pairs(w);
    w->step.tile_count = 0;
    check_map_version(w);
    for (int i = 0; i < w->slot_count; ++i) {
        w->step.tile_listed[i] = w->alive[i] && !w->frozen[i] && !w->sensor[i] &&
                                 w->type[i] == LEDGE_BODY_DYNAMIC && body_near_tiles(w, i);
        w->tile_anchor[i] = w->step.box_center[i];
        if (w->step.tile_listed[i]) w->step.tile_list[w->step.tile_count++] = i;
    }
}

void ledge__recheck_tiles(ledge_world *w, int i) {
    if (w->step.tile_listed[i] || w->type[i] != LEDGE_BODY_DYNAMIC || w->sensor[i]) return;
    // Within the margin of where the broad phase saw it, its box is still
    // inside the grown box that was found free of tiles.
    vec2s d = v2_sub(w->step.box_center[i], w->tile_anchor[i]);
    if (fabsf(d.x) < w->step.margin && fabsf(d.y) < w->step.margin) return;
    if (!body_near_tiles(w, i)) return;
    w->step.tile_listed[i] = 1;
    w->step.tile_list[w->step.tile_count++] = i;
}
