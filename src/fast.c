// Fast bodies: a dynamic body whose displacement in a substep exceeds half
// its smallest half extent (its radius, for a circle) would skip past thin
// walls and other bodies if it were only tested where it ends. Such a body
// stays at its start while the grid is built, and is then moved here, after
// gathering from the grid every non-fast body near its path:
// - multisampling: static tests at evenly spaced points of the path, at
//   most half its smallest half extent apart (MAX_SAMPLES at most: beyond
//   that the spacing grows), stopping at the first point where it overlaps
//   a tile or a body deeper than it did at its start, by more than the slop
//   (so that a fast body sliding along a floor or riding a platform is not
//   stopped by it). The relaxation passes then push it out, which works
//   because the overlap is shallow.
// - chains (chain.h) have no thickness, which samples far apart could step
//   over: a fast body near a chain has its path cut just past the first
//   chain segment it would meet from the front (the time of impact, as for
//   a bullet), and is sampled up to there.
// - chains (chain.h) have no thickness, which samples far apart could step
//   over: a fast body near a chain has its path cut just past the first
//   chain segment it would meet from the front (the time of impact, as for
//   a bullet), and is sampled up to there.
// - bullets (ledge_body_def.bullet): instead of sampling, the path is cut
//   at the first thing it would hit: the centre's ray through the tilemap
//   (exact grid walk, backed off by the body's extent along the path) and
//   the time of impact (ledge_sweep) against each body near the path. A
//   bullet therefore never passes through a wall one tile thick, at any
//   speed. (Its edge may still graze past a tile corner its centre misses.)
// Fast bodies do not test each other here: two fast bodies meet only where
// they end, as ordinary bodies do. So a path's outcome depends only on
// what does not move here (the grid, the map, the other bodies' data) and
// on the body itself, never on which paths were taken before it: the
// workers take them by blocks of slots (each writes its own body's
// position and in_one_way only) with the same bits as one thread. Only
// what must happen in slot order is left to the calling thread: the
// bullets (their cut contacts go to the shared list) and the rare path
// near more bodies than a worker's room holds.
#include "broad.h"
#include "chain_store.h"
#include "fast.h"
#include "joints.h"
#include "resolve.h"
#include "contacts.h"
#include "par.h"
#include "world_state.h"

#include "tilemap.h"

#include <string.h>

// Sample count cap for a body that is not a bullet.
#define MAX_SAMPLES 16

// Displacement beyond which a body counts as fast, and the sample spacing:
// this fraction of its smallest half extent.
#define FAST_FRACTION 0.5f

static float min_half(const ledge_world *w, int i) {
    return minf(w->box_half[i].x, w->box_half[i].y);
}

// A bullet's path is cut once it moves more than the slop in a substep:
// slower, it cannot pass through anything the relaxation would not push it
// out of, and it meets its neighbours as any body does. (Cut every
// substep, a bullet at rest in a pocket between two bodies stopped at the
// first each time, never sank the slop into the second, and rocked between
// them at 0.06 m/s: the contact it was not pressed into was not answered.)
bool ledge__fast_begin(ledge_world *w, int i, vec2s move) {
    float limit = w->bullet[i] ? w->slop : FAST_FRACTION * min_half(w, i);
    bool fast = !w->sensor[i] && v2_len2(move) > limit * limit;
    w->step.fast[i] = fast;
    if (fast) w->step.path[i] = move;
    return fast;
}

// --- what is near the path --------------------------------------------------

// Whether o may stop fast body i: not fast itself, and the filters agree.
// (gather asks whether o is fast before this: in falling rain most
// bodies near a path are, and the flag is one byte.)
static inline bool obstacle(const ledge_world *w, int i, int o) {
    return o != i && !w->sensor[o] && !w->one_way[o] && w->policy[o] != LEDGE_RESPONSE_CROSS &&
           ledge__filters_allow(&w->filter[i], &w->filter[o]) &&
           !((w->joined[i] & w->joined[o]) && ledge__joints_keep_apart(w, i, o));
}

// The box swept by body i over its path.
static void swept_box(const ledge_world *w, int i, vec2s *c, vec2s *h) {
    vec2s half_path = v2_scale(w->step.path[i], 0.5f);
    *c = v2_add(v2_add(w->position[i], w->box_offset[i]), half_path);
    *h = v2_add(w->box_half[i], v2(fabsf(half_path.x), fabsf(half_path.y)));
}

// Whether o is near the swept box (c, h) and may stop body i.
static inline bool near_obstacle(const ledge_world *w, int i, vec2s c, vec2s h, int o) {
    return !w->step.fast[o] && ledge__boxes_near(w, c, h, o) && obstacle(w, i, o);
}

// Fills `near` (room for `room` entries) with the non-fast bodies whose
// boxes come within the margin of the swept box (c, h) of body i: grid
// bodies from the cells that box reaches (their centres lie within half a
// cell of their boxes), and the big bodies. Returns how many, or -1 when
// they do not fit. The cells of a grid row are consecutive in the sorted
// list, so each row's cells are one run of it; the box test (hot arrays)
// comes before the obstacle rules (per-body flags and filters), since
// most bodies near a falling one are out of reach.
//
// The cells are read only when they may hold a still body: the filing
// bounds the centres of the grid bodies that are not fast (broad.c), and a
// path whose cells lie outside those bounds' cells (w->fast->still_cells)
// meets fast bodies alone there. In falling rain most paths are far above
// the pile: their cells are not read at all.
static inline bool rects_meet(const ledge__cell_rect *a, const ledge__cell_rect *b) {
    return a->x1 >= b->x0 && a->x0 <= b->x1 && a->y1 >= b->y0 && a->y0 <= b->y1;
}

static int gather(const ledge_world *w, int i, vec2s c, vec2s h, int *near, int room) {
    const ledge__grid *g = &w->grid;
    int n = 0;
    ledge__cell_rect r = ledge__grid_cells(w, c, h, 0.5f * g->cell + w->step.margin);
    if (!rects_meet(&r, &w->fast->still_cells)) r.y1 = r.y0 - 1; // none
    for (int y = r.y0; y <= r.y1; ++y) {
        int row = y * g->nx;
        for (int q = g->cell_start[row + r.x0]; q < g->cell_start[row + r.x1 + 1]; ++q) {
            int o = g->sorted[q];
            if (!near_obstacle(w, i, c, h, o)) continue;
            if (n == room) return -1;
            near[n++] = o;
        }
    }
    for (int k = 0; k < w->step.big_count; ++k) {
        int o = w->step.big_list[k];
        if (!near_obstacle(w, i, c, h, o)) continue;
        if (n == room) return -1;
        near[n++] = o;
    }
    return n;
}

// --- multisampling ----------------------------------------------------------

// A sample stops the body only where it has gone deeper into something
// than it was at the start of its path, by more than the slop: a body
// resting on (or sliding along) a floor or a platform moves along it at
// any speed, while one driven into a wall or down through a floor stops.
static inline bool deeper(const ledge_world *w, const ledge_manifold *now,
                          const ledge_manifold *then) {
    return now->hit && now->depth > (then->hit ? then->depth : 0.0f) + w->slop;
}

// Whether body i at p (its path starting at `start`) runs into a tile (one-way
// cells only when they would stop it).
static bool hits_tiles(ledge_world *w, int i, vec2s p, vec2s start) {
    int x0, y0, x1, y1;
    ledge__tilemap_scan_range(w->map, ledge__shape_of(w, i), p, &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            ledge_manifold m = ledge__tilemap_collide_cell(w->map, x, y, ledge__shape_of(w, i), p);
            if (!m.hit || m.depth <= w->slop) continue;
            if (LEDGE_UNLIKELY(w->chains != NULL && w->chains->corner_count > 0) &&
                ledge__chains_hide_tile_contact(w->chains, x, y, m.normal,
                                                v2_add(p, w->box_offset[i]))) {
                continue; // the chain's (a convex junction)
            }
            ledge_manifold then =
                ledge__tilemap_collide_cell(w->map, x, y, ledge__shape_of(w, i), start);
            if (!deeper(w, &m, &then)) continue;
            if (ledge__tilemap_inside(w->map, x, y) &&
                w->map->one_way[(size_t)y * (size_t)w->map->width + (size_t)x] &&
                !ledge__one_way_tile_allows(w, i, x, y, &m)) {
                continue;
            }
            return true;
        }
    }
    return false;
}

// Whether body i at p (its path starting at `start`) runs into a chain
// segment whose box meets `reach` (the swept box): deeper than at the
// start, by more than the slop, as against a tile.
static bool hits_chains(const ledge_world *w, int i, vec2s p, vec2s start, ledge_aabb reach) {
    const ledge__chains *cs = w->chains;
    ledge__chain_walk walk;
    ledge__chain_walk_begin(&walk, cs, reach);
    int chain, segment;
    while (ledge__chain_walk_next(&walk, &chain, &segment)) {
        const ledge__chain *c = &cs->c[chain];
        if (!ledge__filters_allow(&w->filter[i], &c->filter)) continue;
        const ledge__segment *s = &c->segments[segment];
        ledge_manifold m = ledge__segment_collide(s, ledge__shape_of(w, i), v2_sub(p, c->position));
        if (!m.hit || m.depth <= w->slop) continue;
        ledge_manifold then =
            ledge__segment_collide(s, ledge__shape_of(w, i), v2_sub(start, c->position));
        if (deeper(w, &m, &then)) return true;
    }
    return false;
}

// Whether body i at p (its path starting at `start`) runs into one of the n
// gathered bodies.
static bool hits_bodies(const ledge_world *w, int i, vec2s p, vec2s start, const int *near, int n) {
    for (int k = 0; k < n; ++k) {
        int o = near[k];
        ledge_manifold m =
            ledge_collide(ledge__shape_of(w, i), p, ledge__shape_of(w, o), w->position[o]);
        if (!m.hit || m.depth <= w->slop) continue;
        ledge_manifold then =
            ledge_collide(ledge__shape_of(w, i), start, ledge__shape_of(w, o), w->position[o]);
        if (deeper(w, &m, &then)) return true;
    }
    return false;
}

// --- bullets ----------------------------------------------------------------

// Where a bullet's path is cut: the fraction, and what it meets there (a
// body slot, -1 for a tile, -2 for nothing) with the normal pointing back
// at the bullet, the point, and the tile cell.
typedef struct cut {
    float fraction;
    int other; ///< A body slot, -1 a tile, LEDGE__CHAIN_CONTACT a chain (cell_x, cell_y: its
               ///< slot and segment), -3 nothing.
    vec2s normal;
    vec2s point;
    int cell_x, cell_y;
} cut;

/// cut.other when nothing cuts the path.
#define NO_CUT (-3)

// Whether a bullet touching body o at the start of its path (the sweep's
// fraction 0) ends it no deeper into o than the slop beyond where it
// started, as multisampling asks (deeper()): it rests on o or slides along
// it, and the relaxation keeps it out. Cut at 0 every step, a bullet
// sliding down a body stood still while gravity sped it up along the
// surface, and left at that speed once it came free.
static bool slides_along(const ledge_world *w, int i, vec2s start, vec2s move, int o,
                         const ledge_toi *toi) {
    if (toi->fraction > 0.0f) return false;
    ledge_manifold then =
        ledge_collide(ledge__shape_of(w, i), start, ledge__shape_of(w, o), w->position[o]);
    ledge_manifold now = ledge_collide(ledge__shape_of(w, i), v2_add(start, move),
                                       ledge__shape_of(w, o), w->position[o]);
    return !deeper(w, &now, &then);
}

// The swept box of body i, grown by the margin.
static ledge_aabb swept_reach(const ledge_world *w, int i) {
    vec2s c, h;
    swept_box(w, i, &c, &h);
    h = v2_add(h, v2(w->step.margin, w->step.margin));
    ledge_aabb b = {v2_sub(c, h), v2_add(c, h)};
    return b;
}

// Whether a body touching segment s at the start of its path ends it in
// front of the segment no deeper than the slop beyond where it started
// (slides_along's rule; a path that ends behind the segment crossed it).
static bool slides_along_segment(const ledge_world *w, int i, const ledge__segment *s, vec2s off,
                                 vec2s move, const ledge_toi *toi) {
    if (toi->fraction > 0.0f) return false;
    vec2s end = v2_add(off, move);
    if (!ledge__segment_faces(s, v2_add(end, ledge__shape_of(w, i)->center))) return false;
    ledge_manifold then = ledge__segment_collide(s, ledge__shape_of(w, i), off);
    ledge_manifold now = ledge__segment_collide(s, ledge__shape_of(w, i), end);
    return !deeper(w, &now, &then);
}

// A bullet's path cut at the first chain segment it would reach from the
// front, if that comes before *c.
static void chain_cut(const ledge_world *w, int i, cut *c) {
    const ledge__chains *cs = w->chains;
    vec2s start = w->position[i], move = w->step.path[i];
    ledge__chain_walk walk;
    ledge__chain_walk_begin(&walk, cs, swept_reach(w, i));
    int chain, segment;
    while (ledge__chain_walk_next(&walk, &chain, &segment)) {
        const ledge__chain *ch = &cs->c[chain];
        if (!ledge__filters_allow(&w->filter[i], &ch->filter)) continue;
        const ledge__segment *s = &ch->segments[segment];
        vec2s off = v2_sub(start, ch->position);
        ledge_toi toi;
        if (!ledge__segment_sweep(s, ledge__shape_of(w, i), off, move, &toi) ||
            !(toi.fraction < c->fraction) || slides_along_segment(w, i, s, off, move, &toi)) {
            continue;
        }
        c->fraction = toi.fraction;
        c->other = LEDGE__CHAIN_CONTACT;
        c->normal = toi.normal;
        c->point = v2_add(toi.point, ch->position);
        c->cell_x = chain;
        c->cell_y = segment;
    }
}

// A bullet's path, cut at the first tile or gathered body it would reach.
static cut bullet_cut(const ledge_world *w, int i, const int *near, int n) {
    vec2s start = w->position[i], move = w->step.path[i];
    float len = v2_len(move);
    cut c = {1.0f, NO_CUT, v2(0.0f, 0.0f), v2(0.0f, 0.0f), 0, 0};
    ledge_ray_hit hit;
    vec2s centre = v2_add(start, w->box_offset[i]);
    if (len > 0.0f && ledge_tilemap_raycast(w->map, centre, move, &hit)) {
        // The centre reaches the wall at hit.fraction; the shape's front
        // reached it earlier by at most its extent along the path.
        vec2s dir = v2_scale(move, 1.0f / len);
        float extent = fabsf(dir.x) * w->box_half[i].x + fabsf(dir.y) * w->box_half[i].y;
        c.fraction = maxf(0.0f, hit.fraction - extent / len);
        c.other = -1;
        c.normal = hit.normal;
        c.point = hit.point;
        c.cell_x = hit.cell_x;
        c.cell_y = hit.cell_y;
    }
    for (int k = 0; k < n; ++k) {
        int o = near[k];
        ledge_toi toi;
        if (ledge_sweep(ledge__shape_of(w, i), start, move, ledge__shape_of(w, o), w->position[o],
                        v2(0.0f, 0.0f), &toi) &&
            toi.fraction < c.fraction && !slides_along(w, i, start, move, o, &toi)) {
            c.fraction = toi.fraction;
            c.other = o;
            c.normal = v2_neg(toi.normal);
            c.point = toi.point;
        }
    }
    if (LEDGE_UNLIKELY(w->chains != NULL && w->chains->live > 0)) chain_cut(w, i, &c);
    return c;
}

// A bullet stopped short of a wall or body is not (yet) overlapping it, so
// the relaxation passes would not see the contact: it is recorded here, for
// the velocity pass to answer (bounce and friction as for any contact).
static void record_cut(ledge_world *w, int i, const cut *c) {
    if (c->other == NO_CUT) return;
    int o = c->other;
    if (o == LEDGE__CHAIN_CONTACT) {
        ledge_manifold m;
        memset(&m, 0, sizeof m);
        m.hit = true;
        m.normal = c->normal;
        m.point_count = 1;
        m.points[0] = c->point;
        ledge__contact k;
        ledge__chain_contact(w, i, c->cell_x, c->cell_y, &m, LEDGE_RESPONSE_SLIDE, &k);
        ledge__record_contact(w, &k);
        return;
    }
    ledge__contact k = {.a = i,
                        .b = o,
                        .normal = c->normal,
                        .point = c->point,
                        .cell_x = c->cell_x,
                        .cell_y = c->cell_y,
                        .policy = LEDGE_RESPONSE_SLIDE};
    if (o >= 0) {
        ledge__pair_contact_material(w, i, o, &k);
    } else {
        ledge__tile_contact_material(w, i, c->cell_x, c->cell_y, &k);
        k.stamp = ledge__cell_stamp(w->map, c->cell_x, c->cell_y);
    }
    ledge__record_contact(w, &k);
}

// --- moving -----------------------------------------------------------------

// A path with no tile and no body near it is taken whole, untested.
// `near` has room for `room` bodies; returns false, leaving the body where
// it is, when the path is near more (the calling thread takes it after,
// with room for every body), or when it is a bullet and `bullets` is
// false (a bullet's cut is recorded in the shared contact list, in slot
// order).
static bool move_fast(ledge_world *w, int i, int *near, int room, bool bullets) {
    if (w->bullet[i] && !bullets) return false;
    vec2s bc, bh;
    swept_box(w, i, &bc, &bh);
    int n = gather(w, i, bc, bh, near, room);
    if (n < 0) return false;
    bool tiles = ledge__body_tiles_near(w, i, bc, bh);
    ledge_aabb reach = swept_reach(w, i);
    bool chains = w->chains != NULL && w->chains->live > 0 && ledge__chains_near(w->chains, reach);
    vec2s start = w->position[i];
    if (n == 0 && !tiles && !chains) {
        w->position[i] = v2_add(start, w->step.path[i]);
        return true;
    }
    cut c = {1.0f, NO_CUT, v2(0.0f, 0.0f), v2(0.0f, 0.0f), 0, 0};
    if (w->bullet[i]) {
        c = bullet_cut(w, i, near, n);
        record_cut(w, i, &c);
    } else if (chains) {
        // A chain has no thickness: samples of a path faster than they
        // reach could step over it. The path ends just past the first
        // chain it meets (by twice the slop, so that the relaxation finds
        // the overlap and the contact).
        chain_cut(w, i, &c);
        if (c.fraction < 1.0f) {
            float extra = 2.0f * w->slop / v2_len(w->step.path[i]);
            c.fraction = minf(1.0f, c.fraction + extra);
        }
    }
    vec2s move = v2_scale(w->step.path[i], c.fraction);
    // A bullet's cut path is clear for its centre: it goes straight there.
    float spacing = FAST_FRACTION * min_half(w, i);
    float samples = w->bullet[i] ? 1.0f : ceilf(v2_len(move) / spacing);
    int count = samples < 1.0f ? 1 : samples > (float)MAX_SAMPLES ? MAX_SAMPLES : (int)samples;
    vec2s p = v2_add(start, move);
    for (int s = 1; s <= count; ++s) {
        vec2s q = v2_add(start, v2_scale(move, (float)s / (float)count));
        if ((tiles && hits_tiles(w, i, q, start)) || hits_bodies(w, i, q, start, near, n) ||
            (chains && hits_chains(w, i, q, start, reach))) {
            p = q;
            break;
        }
    }
    w->position[i] = p;
    return true;
}

// A worker's item: a block of slots. The fast bodies it could not move
// are listed in par.items at the block's offset, for the calling thread.
static void move_block(ledge_world *w, int b, int worker) {
    int *left = w->par.items + b * LEDGE__BLOCK, count = 0;
    int *near = w->fast->near + (size_t)worker * LEDGE__FAST_ROOM;
    int room = w->debug.fast_room < LEDGE__FAST_ROOM ? w->debug.fast_room : LEDGE__FAST_ROOM;
    int end = ledge__block_end(b, w->slot_count);
    for (int i = b * LEDGE__BLOCK; i < end; ++i) {
        if (!w->alive[i] || !w->step.fast[i]) continue;
        if (room < 0 || !move_fast(w, i, near, room, false)) left[count++] = i;
    }
    w->par.block_count[b] = count;
}

static void move_run(int start, int end, int worker, void *context) {
    for (int b = start; b < end; ++b) move_block(context, b, worker);
}

// The cells that may hold a still body (all of them when the tests turn
// the shortcut off; none when there is no still grid body).
static ledge__cell_rect find_still_cells(const ledge_world *w) {
    const ledge__grid *g = &w->grid;
    ledge__cell_rect r = {0, 0, g->nx - 1, g->ny - 1};
    if (!w->debug.still_cells_on) return r;
    if (!w->step.still_any) return (ledge__cell_rect){0, 0, -1, -1};
    ledge__grid_xy(g, w->step.still_lower, &r.x0, &r.y0);
    ledge__grid_xy(g, w->step.still_upper, &r.x1, &r.y1);
    return r;
}

void ledge__fast_move(ledge_world *w) {
    w->fast->still_cells = find_still_cells(w);
    int blocks = ledge__blocks(w->slot_count);
    ledge__run(w, move_run, blocks, 1, w);
    for (int b = 0; b < blocks; ++b) {
        const int *left = w->par.items + b * LEDGE__BLOCK;
        w->debug.fast_left += w->par.block_count[b];
        for (int k = 0; k < w->par.block_count[b]; ++k) {
            move_fast(w, left[k], w->step.near, w->slot_count, true);
        }
    }
}

bool ledge__fast_reserve(ledge_world *w) {
    if (w->fast->near != NULL) return true;
    int want = (w->par.worker_count > 1 ? w->par.worker_count : 1) * LEDGE__FAST_ROOM;
    w->fast->near = ledge__alloc(sizeof *w->fast->near * (size_t)want);
    if (w->fast->near != NULL) return true;
    LEDGE_ERROR("ledge_world_step: allocation of the workers' room for bodies near fast paths (%d) "
                "failed",
                want);
    return false;
}

void ledge__fast_destroy(ledge__fast *f) {
    ledge__free(f->near);
}
