// The character mover (move.h): a body moved in short pieces, each followed
// by projection out of what it overlaps, then ground snapping and flags.
//
// Why projection and not shape casts: the contacts used here are the ones
// the world step uses, one tile cell at a time with the tilemap's edge
// states (ledge__tilemap_collide_cell), so a box sliding over the seams of a
// FULL floor or from a slope onto flat ground only ever sees the floor's
// top face, and every push is the exact minimum translation. The world's
// shape cast ignores edge states (a box resting on a floor of FULL tiles
// already touches the next tile's side: fraction 0, a snag), samples round
// tiles to 1e-3 and reports resting contact as a hit at fraction 0, so a
// mover built on it would need the skin games and snag filters the edge
// states make unnecessary. Pieces no longer than half the thinnest thing
// involved keep projection from tunnelling (N's multisampling).
//
// Each surface is pushed along the direction that makes it behave as a
// platformer expects: floors along "up" (a body never slides down a slope
// it stands on, and its sideways position is not touched: constant
// horizontal speed), walls across "up" (a steep slope or the steep end of a
// quarter pipe blocks and is fallen along, never climbed; walls that are
// nearly floors or ceilings, less than 30 degrees from across, along their
// normal), ceilings along their normal. The pushes of all contacts are solved together
// (projected Gauss-Seidel on the push lengths, as Box2D v3's b2SolvePlanes),
// so two floor cells under a seam push once, not twice.
#include "move.h"
#include "chain_store.h"
#include "joints.h"
#include "query_index.h"
#include "slots.h"
#include "check.h"
#include "world_state.h"

#include "ledge/move.h"
#include "tilemap.h"

#include <string.h>

enum {
    MAX_CONTACTS = 64,  ///< Contacts solved at once (more wait for the next round).
    MAX_BODIES = 128,   ///< Bodies near one move that are seen (lowest indices first).
    MAX_PIECES = 256,   ///< Pieces per move: longer moves are shortened.
    SOLVE_ROUNDS = 16,  ///< Gauss-Seidel rounds per solve.
    MAX_SLIDES_MAX = 16 ///< Largest max_slides accepted.
};

typedef enum surface { SURF_FLOOR, SURF_WALL, SURF_CEILING } surface;

typedef struct contact {
    ledge_manifold m; ///< Normal from the obstacle toward the mover, depth, points.
    int slot;         ///< The body's slot, -1 for a tile, LEDGE__CHAIN_CONTACT for a chain.
    int cx, cy;       ///< The tile's cell, or the chain's slot and segment.
} contact;

typedef struct mover {
    ledge_world *w;
    const ledge_shape *shape;
    int self;
    ledge_move_def def;
    vec2s up, right;
    float cos_floor;
    float step;       ///< Longest piece.
    bool grounded;    ///< Started on a floor and not moving up.
    unsigned gathers; ///< Gathers so far (which one m->c holds).
    unsigned rest;    ///< The gather that ended a resolve in resting contact, else 0.
    vec2s rest_pos;   ///< Where that gather was.
    int bodies[MAX_BODIES];
    int body_count;
    contact c[MAX_CONTACTS];
    int count;
    ledge_move_result *out;
    bool chains;    ///< The world has chains the mover may meet.
    int skip_chain; ///< A chain slot that is no obstacle (a carry's floor), or -1.
    vec2s start;    ///< Where the move began (one-way platforms).
    vec2s from;     ///< A place the mover was clear of the tiles before the overlaps gathered now.
    float reach;    ///< Height a clearance sweep starts from.
    uint8_t have_poly[LEDGE_TILE_COUNT];     ///< Whether tile_poly[t] is built.
    ledge_shape tile_poly[LEDGE_TILE_COUNT]; ///< Straight tiles as polygons in a cell at (0, 0).
} mover;

ledge_move_def ledge_default_move_def(void) {
    ledge_move_def d;
    memset(&d, 0, sizeof d);
    d.max_slides = 4;
    d.max_floor_slope = (float)(50.0 * LEDGE_PI / 180.0);
    d.snap_length = 0.25f;
    d.skin = 0.01f;
    d.stop_on_slope = true;
    d.constant_speed_on_slopes = true;
    d.block_on_wall = true;
    return d;
}

// --- checks -----------------------------------------------------------------

static bool check_def(const char *fn, const ledge_move_def *d) {
    if (d->max_slides < 1 || d->max_slides > MAX_SLIDES_MAX) {
        LEDGE_ERROR("%s: def->max_slides is %d (must be 1..%d)", fn, d->max_slides, MAX_SLIDES_MAX);
        return false;
    }
    if (!(d->max_floor_slope >= 0.0f && d->max_floor_slope <= LEDGE_MOVE_MAX_FLOOR_SLOPE)) {
        LEDGE_ERROR("%s: def->max_floor_slope is %g (must be 0..%g radians)", fn,
                    (double)d->max_floor_slope, (double)LEDGE_MOVE_MAX_FLOOR_SLOPE);
        return false;
    }
    if (!(d->step_height >= 0.0f && d->step_height <= LEDGE_MAX_COORDINATE)) {
        LEDGE_ERROR("%s: def->step_height is %g (must be 0..%g)", fn, (double)d->step_height,
                    (double)LEDGE_MAX_COORDINATE);
        return false;
    }
    if (!(d->snap_length >= 0.0f && d->snap_length <= LEDGE_MAX_COORDINATE)) {
        LEDGE_ERROR("%s: def->snap_length is %g (must be 0..%g)", fn, (double)d->snap_length,
                    (double)LEDGE_MAX_COORDINATE);
        return false;
    }
    return ledge__check_size(fn, "def->skin", d->skin) &&
           ledge__check_vec(fn, "def->up", d->up, LEDGE_MAX_COORDINATE);
}

static bool check_call(const char *fn, ledge_world *w, ledge_body_id id, vec2s d,
                       const ledge_move_def *def, int *slot) {
    *slot = ledge__world_slot(w, id, fn);
    if (*slot < 0) return false;
    if (w->stepping) {
        LEDGE_ERROR("%s: the world is stepping (move between steps)", fn);
        return false;
    }
    return ledge__check_vec(fn, "displacement", d, LEDGE_MAX_COORDINATE) && check_def(fn, def) &&
           ledge__check_vec(fn, "the body's position", w->position[*slot], LEDGE_MAX_COORDINATE);
}

// --- set-up -----------------------------------------------------------------

static vec2s up_of(const ledge_world *w, vec2s up) {
    if (up.x != 0.0f || up.y != 0.0f) {
        double x = up.x, y = up.y, l = sqrt(x * x + y * y);
        return v2((float)(x / l), (float)(y / l));
    }
    float g = v2_len(w->gravity);
    return g > 0.0f ? v2_scale(w->gravity, -1.0f / g) : v2(0.0f, 1.0f);
}

// Half the shape's smallest width: what a piece may move without the
// minimum translation choosing the far side.
static float half_thickness(const ledge_shape *s) {
    if (s->type == LEDGE_SHAPE_CIRCLE) return s->radius;
    float t = INFINITY;
    for (int k = 0; k < s->axis_count; ++k) {
        t = minf(t, 0.5f * (s->axes[k].max - s->axes[k].min));
    }
    return t;
}

// Whether body i is an obstacle to the mover: the filters let them touch,
// it is no sensor, and neither body's response is to cross (the pre-solve
// callback is not asked: it belongs to the step).
static bool blocks(const mover *m, int i) {
    const ledge_world *w = m->w;
    return ledge__filters_allow(&w->filter[m->self], &w->filter[i]) && !w->sensor[i] &&
           !((w->joined[m->self] & w->joined[i]) && ledge__joints_keep_apart(w, m->self, i)) &&
           w->policy[i] != LEDGE_RESPONSE_CROSS && w->policy[m->self] != LEDGE_RESPONSE_CROSS;
}

static bool collect_body(ledge_body_id id, void *ctx) {
    mover *m = ctx;
    int i = ledge__slot_of(m->w, id);
    if (blocks(m, i)) m->bodies[m->body_count++] = i;
    return m->body_count < MAX_BODIES;
}

// The bodies the move may meet, in index order: those whose boxes come
// near the box swept by the largest move the floor-following and snapping
// can make, found through the world's query index (which the move keeps up
// to date by refiling its own body: nothing is scanned or rebuilt).
static void find_bodies(mover *m, vec2s start, vec2s d) {
    ledge_aabb b = ledge_shape_aabb(m->shape, start);
    float reach = v2_len(d) * (1.0f + 1.0f / maxf(m->cos_floor, 0.1f)) + m->def.snap_length +
                  4.0f * m->def.skin;
    float lim = LEDGE_MAX_COORDINATE;
    b.lower = v2(maxf(b.lower.x - reach, -lim), maxf(b.lower.y - reach, -lim));
    b.upper = v2(minf(b.upper.x + reach, lim), minf(b.upper.y + reach, lim));
    m->body_count = 0;
    if (!(b.lower.x <= b.upper.x && b.lower.y <= b.upper.y)) return; // beyond the coordinates
    ledge_query_filter f = ledge_default_query_filter();
    f.category = f.mask = ~(uint64_t)0;
    f.include_tiles = false;
    f.ignore = ledge__body_id(m->w, m->self);
    ledge_world_query_aabb(m->w, b, &f, collect_body, m);
}

// The longest piece: half the mover's thickness, a quarter tile (HALF tiles
// are half a tile thick), and half the thinnest body near the path, though
// not below an eighth of the mover's thickness (a speck must not shorten
// every move to nothing).
static float piece_length(const mover *m) {
    float own = half_thickness(m->shape);
    float step = minf(0.5f * own, 0.25f * m->w->map->tile_size);
    float thin = INFINITY;
    for (int k = 0; k < m->body_count; ++k) {
        thin = minf(thin, half_thickness(ledge__shape_of(m->w, m->bodies[k])));
    }
    return minf(step, maxf(0.5f * thin, 0.125f * own));
}

// --- contacts ---------------------------------------------------------------

static void add_contact(mover *m, ledge_manifold mf, int slot, int x, int y) {
    if (!mf.hit || m->count >= MAX_CONTACTS) return;
    contact *c = &m->c[m->count++];
    c->m = mf;
    c->slot = slot;
    c->cx = x;
    c->cy = y;
}

// Whether a one-way platform (direction way) holds the mover: pushed out
// toward its allowed side, not dropping through, and not inside it (beyond
// 2 * skin) where the move began, as the step decides (resolve.c).
static bool one_way_holds(const mover *m, ledge_one_way way, vec2s n, ledge_manifold then) {
    // Overlapping a one-way platform keeps a drop-through going (the step
    // ends it once the body is clear of them all).
    m->w->in_one_way[m->self] = 1;
    if (m->w->dropping[m->self]) return false;
    if (v2_dot(n, ledge_one_way_direction(way)) < 0.5f) return false;
    return !then.hit || then.depth <= 2.0f * m->def.skin;
}

// Whether a tile contact of edge-state depth `depth` pushes out through
// the far side of a cell whose near sides are blocked (under a wall, the
// corner of a floor the mover grazes by a rounding error): deeper than the
// cell's true overlap (no edge states) plus what the mover went since
// `from`, which no face it crossed can be. Projected out through it, a box
// sliding down a wall into the corner was pushed 2 units down through the
// floor. The cell's neighbours hold the mover instead.
static bool far_side(const mover *m, int x, int y, vec2s pos, float depth) {
    float reach = v2_len(v2_sub(pos, m->from)) + m->def.skin;
    if (!(depth > reach)) return false;
    const ledge_tilemap *map = m->w->map;
    vec2s cell =
        v2(map->origin.x + (float)x * map->tile_size, map->origin.y + (float)y * map->tile_size);
    ledge_manifold t =
        ledge_collide_tile(ledge__tilemap_at(map, x, y), cell, map->tile_size, 0u, m->shape, pos);
    return depth > (t.hit ? t.depth : 0.0f) + reach;
}

static void tile_contact(mover *m, int x, int y, vec2s pos) {
    const ledge_tilemap *map = m->w->map;
    ledge_manifold mf = ledge__tilemap_collide_cell(map, x, y, m->shape, pos);
    if (!mf.hit) return;
    const ledge__chains *cs = m->w->chains;
    if (LEDGE_UNLIKELY(cs != NULL && cs->corner_count > 0)) {
        vec2s centre =
            v2_add(pos, v2_scale(v2_add(m->shape->bounds.lower, m->shape->bounds.upper), 0.5f));
        if (ledge__chains_hide_tile_contact(cs, x, y, mf.normal, centre)) return; // the chain's
    }
    ledge_one_way way =
        ledge__tilemap_inside(map, x, y)
            ? (ledge_one_way)map->one_way[(size_t)y * (size_t)map->width + (size_t)x]
            : LEDGE_ONE_WAY_NONE;
    if (way != LEDGE_ONE_WAY_NONE &&
        !one_way_holds(m, way, mf.normal,
                       ledge__tilemap_collide_cell(map, x, y, m->shape, m->start))) {
        return;
    }
    if (far_side(m, x, y, pos, mf.depth)) return;
    add_contact(m, mf, -1, x, y);
}

// A dynamic body is met as the step leaves it: touching within the
// world's linear_slop (the step keeps that much overlap so that resting
// contacts persist). A crate resting on the mover's head, or left against
// its side by the step, is touching it, not a ceiling or wall to push out
// of (which, against the floor under it, left the mover stuck).
static void body_contact(mover *m, int i, vec2s pos) {
    const ledge_world *w = m->w;
    ledge_manifold mf = ledge_collide(ledge__shape_of(w, i), w->position[i], m->shape, pos);
    if (!mf.hit) return;
    if (w->type[i] == LEDGE_BODY_DYNAMIC) mf.depth = maxf(mf.depth - w->slop, 0.0f);
    if (w->one_way[i] != LEDGE_ONE_WAY_NONE &&
        !one_way_holds(m, (ledge_one_way)w->one_way[i], mf.normal,
                       ledge_collide(ledge__shape_of(w, i), w->position[i], m->shape, m->start))) {
        return;
    }
    add_contact(m, mf, i, 0, 0);
}

// The chain segments the mover at `pos` overlaps (as the step meets them,
// the chains' cuts applied), in the chains' walk order.
static void chain_contacts(mover *m, vec2s pos) {
    const ledge__chains *cs = m->w->chains;
    ledge__chain_walk walk;
    ledge__chain_walk_begin(&walk, cs, ledge_shape_aabb(m->shape, pos));
    int chain, segment;
    while (ledge__chain_walk_next(&walk, &chain, &segment)) {
        const ledge__chain *c = &cs->c[chain];
        if (c->alive == 0 || !ledge__filters_allow(&m->w->filter[m->self], &c->filter) ||
            (m->skip_chain == chain)) {
            continue;
        }
        ledge_manifold mf =
            ledge__segment_collide(&c->segments[segment], m->shape, v2_sub(pos, c->position));
        if (!mf.hit) continue;
        for (int k = 0; k < mf.point_count; ++k) mf.points[k] = v2_add(mf.points[k], c->position);
        add_contact(m, mf, LEDGE__CHAIN_CONTACT, chain, segment);
    }
}

// Every overlap of the mover at `pos`: tiles cell by cell (row-major, edge
// states applied), then chain segments, then bodies by index.
static int gather(mover *m, vec2s pos) {
    int x0, y0, x1, y1;
    m->count = 0;
    ++m->gathers;
    ledge__tilemap_scan_range(m->w->map, m->shape, pos, &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) tile_contact(m, x, y, pos);
    }
    if (m->chains) chain_contacts(m, pos);
    for (int k = 0; k < m->body_count; ++k) body_contact(m, m->bodies[k], pos);
    return m->count;
}

static surface classify(const mover *m, vec2s n) {
    float u = v2_dot(n, m->up);
    if (u >= m->cos_floor) return SURF_FLOOR;
    if (u <= -m->cos_floor) return SURF_CEILING;
    return SURF_WALL;
}

// The direction a surface pushes the mover along (see the file comment).
static vec2s push_dir(const mover *m, vec2s n) {
    surface s = classify(m, n);
    if (s == SURF_FLOOR) return m->up;
    // A steep slope slid down (off the ground only: on it, it blocks).
    if (s == SURF_WALL && m->def.slide_on_steep && !m->grounded && v2_dot(n, m->up) > 0.0f)
        return n;
    if (s == SURF_WALL && m->def.block_on_wall) {
        vec2s h = v2_sub(n, v2_scale(m->up, v2_dot(n, m->up)));
        float l = v2_len(h);
        if (l >= 0.5f) return v2_scale(h, 1.0f / l);
    }
    return n;
}

// --- hits and flags ---------------------------------------------------------

static bool same_obstacle(const ledge_world *w, const ledge_move_hit *h, const contact *c) {
    if (c->slot >= 0) {
        return h->kind == LEDGE_HIT_BODY && h->body.index1 == (uint32_t)w->handle[c->slot] + 1u;
    }
    if (c->slot == LEDGE__CHAIN_CONTACT) {
        return h->kind == LEDGE_HIT_CHAIN && h->chain.index1 == (uint32_t)c->cx + 1u;
    }
    return h->kind == LEDGE_HIT_TILE && h->cell_x == c->cx && h->cell_y == c->cy;
}

// The index of c's obstacle in the hits (added when new), or -1 when the
// list is full.
static int record_hit(mover *m, const contact *c, vec2s push, float fraction) {
    ledge_move_result *r = m->out;
    for (int k = 0; k < r->hit_count; ++k) {
        if (same_obstacle(m->w, &r->hits[k], c)) return k;
    }
    if (r->hit_count >= LEDGE_MOVE_MAX_HITS) return -1;
    ledge_move_hit *h = &r->hits[r->hit_count];
    memset(h, 0, sizeof *h);
    if (c->slot >= 0) {
        h->kind = LEDGE_HIT_BODY;
        h->body = ledge__body_id(m->w, c->slot);
    } else if (c->slot == LEDGE__CHAIN_CONTACT) {
        h->kind = LEDGE_HIT_CHAIN;
        h->chain = ledge__chain_id(m->w, c->cx);
        h->segment = c->cy;
    } else {
        h->kind = LEDGE_HIT_TILE;
        h->cell_x = c->cx;
        h->cell_y = c->cy;
        h->tile = ledge__tilemap_at(m->w->map, c->cx, c->cy);
    }
    h->normal = c->m.normal;
    h->point = c->m.point_count > 0 ? c->m.points[0] : v2(0.0f, 0.0f);
    h->push = push;
    h->fraction = fraction;
    return r->hit_count++;
}

// Walls and ceilings the move pushed against set their flags.
static void note_surface(mover *m, vec2s n) {
    ledge_move_result *r = m->out;
    surface s = classify(m, n);
    if (s == SURF_WALL && !r->on_wall) {
        r->on_wall = true;
        r->wall_normal = n;
        r->wall_side = v2_dot(n, m->right) < 0.0f ? 1 : -1;
    } else if (s == SURF_CEILING && !r->on_ceiling) {
        r->on_ceiling = true;
        r->ceiling_normal = n;
    }
}

// When, within the whole move, contact c began: the piece [lo, hi] of the
// move moved by `piece`; a planar contact entered at depth / approach
// before the piece's end.
static float hit_fraction(const contact *c, vec2s piece, float lo, float hi) {
    float approach = -v2_dot(c->m.normal, piece);
    if (!(approach > 0.0f)) return lo;
    float t = 1.0f - c->m.depth / approach;
    return lo + (hi - lo) * (t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f);
}

// --- solving ----------------------------------------------------------------

// The polygon of a straight tile in a cell whose lower corner is (0, 0).
static const ledge_shape *tile_polygon(mover *m, ledge_tile t) {
    if (!m->have_poly[t]) {
        ledge_tile_outline ol;
        float size = m->w->map->tile_size;
        if (!ledge_tile_outline_get(t, v2(0.0f, 0.0f), size, &ol) ||
            !ledge_make_polygon(ol.points, ol.count, &m->tile_poly[t])) {
            m->tile_poly[t].type = LEDGE_SHAPE_INVALID;
        }
        m->have_poly[t] = 1;
    }
    return m->tile_poly[t].type == LEDGE_SHAPE_INVALID ? NULL : &m->tile_poly[t];
}

// How much of a floor contact's depth the mover at pos must rise along up.
// Straight tiles push across blocked sides as if their surface ran on (what
// keeps seams from snagging a sideways push), so at the top of a ramp the
// ramp's continuation would lift the mover over the plateau beside it.
// Rising clears the level exactly when it clears each tile on its own, so
// the rise is measured against the tile itself, by a sweep down onto it:
// the depth returned is that rise times n . up (the contact's plane).
static float floor_depth(mover *m, const contact *c, vec2s pos) {
    float nu = v2_dot(c->m.normal, m->up);
    // A body's, or a chain's: a chain's solid runs on only under its own
    // faces (where it bends toward the front), so its depth is the rise.
    if (c->slot != -1) return c->m.depth;
    ledge_tile t = ledge__tilemap_at(m->w->map, c->cx, c->cy);
    ledge_tile_group g = ledge_tile_group_of(t);
    if (g == LEDGE_TILE_GROUP_CONVEX || g == LEDGE_TILE_GROUP_CONCAVE) return c->m.depth;
    const ledge_shape *poly = tile_polygon(m, t);
    if (poly == NULL) return c->m.depth;
    const ledge_tilemap *map = m->w->map;
    vec2s cell = v2(map->origin.x + (float)c->cx * map->tile_size,
                    map->origin.y + (float)c->cy * map->tile_size);
    vec2s lift = v2_scale(m->up, m->reach);
    ledge_toi toi;
    if (!ledge_sweep(poly, cell, v2(0.0f, 0.0f), m->shape, v2_add(pos, lift), v2_neg(lift), &toi)) {
        return 0.0f; // only the continuation overlaps
    }
    if (!(toi.fraction > 0.0f)) return c->m.depth;
    float rise = m->reach * (1.0f - toi.fraction);
    return minf(c->m.depth, rise * nu);
}

// The correction that takes every gathered contact out of overlap, each
// pushing along its own direction with a non-negative length.
static vec2s solve(const mover *m, const vec2s *dir, const float *depth) {
    float lambda[MAX_CONTACTS] = {0};
    vec2s c = v2(0.0f, 0.0f);
    float tol = 1.0e-4f * m->def.skin;
    for (int round = 0; round < SOLVE_ROUNDS; ++round) {
        float worst = 0.0f;
        for (int i = 0; i < m->count; ++i) {
            vec2s n = m->c[i].m.normal;
            float nr = v2_dot(n, dir[i]);
            float gap = depth[i] - v2_dot(n, c);
            float l = maxf(0.0f, lambda[i] + gap / nr);
            c = v2_add(c, v2_scale(dir[i], l - lambda[i]));
            if (l > 0.0f || gap > 0.0f) worst = maxf(worst, fabsf(gap));
            lambda[i] = l;
        }
        if (worst <= tol) break;
    }
    return c;
}

// The deepest gathered contact, as reported (an upper bound of depths()).
static float raw_depth(const mover *m) {
    float deepest = 0.0f;
    for (int i = 0; i < m->count; ++i) deepest = maxf(deepest, m->c[i].m.depth);
    return deepest;
}

// The push direction and depth of every gathered contact at pos (floors
// measured against the tile itself); returns the deepest.
static float depths(mover *m, vec2s pos, vec2s *dir, float *depth) {
    float deepest = 0.0f;
    for (int i = 0; i < m->count; ++i) {
        vec2s n = m->c[i].m.normal;
        dir[i] = push_dir(m, n);
        depth[i] = classify(m, n) == SURF_FLOOR ? floor_depth(m, &m->c[i], pos) : m->c[i].m.depth;
        deepest = maxf(deepest, depth[i]);
    }
    return deepest;
}

// Takes the mover at base + *corr out of overlap in up to max_slides
// rounds, adding to *corr (kept apart from base so that a sideways move on
// a floor lands on exactly base.x: floors push along up only), and
// recording what it met (the piece [lo, hi] of the move, moved by
// `piece`). False when more than skin of overlap is left.
static bool resolve(mover *m, vec2s base, vec2s *corr, vec2s piece, float lo, float hi) {
    vec2s dir[MAX_CONTACTS];
    float depth[MAX_CONTACTS];
    m->rest = 0;
    for (int round = 0;; ++round) {
        vec2s pos = v2_add(base, *corr);
        if (gather(m, pos) == 0) return true;
        // A floor's depth measured against its tile is never more than the
        // contact's (floor_depth): shallow contacts are at rest without the
        // sweeps that measure it (a walk on flat ground ends every piece so).
        float shallow = raw_depth(m);
        if (shallow <= 1.0e-3f * m->def.skin) {
            m->rest = m->gathers;
            m->rest_pos = pos;
            return true;
        }
        float deepest = depths(m, pos, dir, depth);
        if (round == m->def.max_slides) return deepest <= m->def.skin;
        if (deepest <= 1.0e-3f * m->def.skin) return true; // resting contact
        for (int i = 0; i < m->count; ++i) {
            if (!(depth[i] > 0.0f)) continue;
            record_hit(m, &m->c[i], dir[i], hit_fraction(&m->c[i], piece, lo, hi));
            note_surface(m, m->c[i].m.normal);
        }
        *corr = v2_add(*corr, solve(m, dir, depth));
    }
}

// --- the ground -------------------------------------------------------------

// The floor within 2 * skin below pos: the one most against `dir` (the
// sideways motion: walking into a slope climbs it), or the one closest to
// up when dir is zero. Returns the index of its contact, or -1.
static int floor_below(mover *m, vec2s pos, vec2s dir) {
    m->from = pos;
    gather(m, v2_sub(pos, v2_scale(m->up, 2.0f * m->def.skin)));
    bool still = dir.x == 0.0f && dir.y == 0.0f;
    int best = -1;
    float best_score = -INFINITY;
    for (int i = 0; i < m->count; ++i) {
        vec2s n = m->c[i].m.normal;
        if (classify(m, n) != SURF_FLOOR) continue;
        float score = still ? v2_dot(n, m->up) : -v2_dot(n, dir);
        if (score > best_score) best_score = score, best = i;
    }
    return best;
}

// The move along the floor of normal n: the sideways part kept (constant
// horizontal speed) or projected onto the floor (without
// constant_speed_on_slopes), the height following the floor; the downward part
// absorbed, or slid along the floor without stop_on_slope.
static vec2s follow_floor(const mover *m, vec2s d, vec2s n) {
    float down = v2_dot(d, m->up);
    vec2s side = v2_sub(d, v2_scale(m->up, down));
    vec2s move = m->def.constant_speed_on_slopes
                     ? v2_sub(side, v2_scale(m->up, v2_dot(side, n) / v2_dot(n, m->up)))
                     : v2_sub(side, v2_scale(n, v2_dot(side, n))); // projected: |side| cos a
    if (!m->def.stop_on_slope && down < 0.0f) {
        vec2s fall = v2_scale(m->up, down);
        move = v2_add(move, v2_sub(fall, v2_scale(n, v2_dot(fall, n))));
    }
    return move;
}

// The lowering (along -up, from pos) in (lo, hi] at which the mover first
// overlaps something, to 2^-halvings of the interval: lowering further than
// the first touch would measure a convex surface's normal too steep, and
// lifting back out of a curved surface along up overshoots by the square
// of the depth.
static float first_touch(mover *m, vec2s pos, float lo, float hi, int halvings) {
    for (int it = 0; it < halvings; ++it) {
        float mid = 0.5f * (lo + hi);
        if (gather(m, v2_sub(pos, v2_scale(m->up, mid))) > 0) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return hi;
}

// Whether the mover at pos rests on a floor: touching one there (the last
// gather, when it ended a resolve at pos) or within 1e-3 * skin above one
// (float rounding leaves a walker an ulp above the floor). Snapping would
// lower it onto the floor and lift it back, which leaves a body this close
// where it was (the creep rule in snap), at the cost of a dozen gathers and
// sweeps on every step of a walk; the floors touched are its hits, taken
// here.
static bool resting_on_floor(mover *m, vec2s pos) {
    bool here =
        m->rest != 0 && m->rest == m->gathers && m->rest_pos.x == pos.x && m->rest_pos.y == pos.y;
    if (!here) {
        m->from = pos;
        if (gather(m, v2_sub(pos, v2_scale(m->up, 1.0e-3f * m->def.skin))) == 0) return false;
    }
    bool floor = false, only = true;
    for (int i = 0; i < m->count; ++i) {
        bool f = classify(m, m->c[i].m.normal) == SURF_FLOOR;
        floor |= f;
        only &= f;
    }
    if (!floor) return false;
    for (int i = 0; only && i < m->count; ++i) record_hit(m, &m->c[i], m->up, 1.0f);
    return true;
}

// Lowers the mover by up to `reach` until it meets a floor: first by
// 2 * skin (closing the gap a grounded move that absorbed its downward part,
// or a fall that ended just short of the floor, leaves), then in pieces,
// to the first touch. Meeting anything but floors there (a wall, a
// ceiling, an arc steeper than a floor) leaves it where it was.
static void snap(mover *m, vec2s *pos, float reach) {
    if (resting_on_floor(m, *pos)) return;
    float done = 0.0f;
    m->from = *pos;
    while (done < reach) {
        // Steps of at least reach / 256: a speck's piece length must not
        // make the loop endless.
        float inc = maxf(m->step, reach * (1.0f / 256.0f));
        float next = minf(done == 0.0f ? 2.0f * m->def.skin : done + inc, reach);
        if (gather(m, v2_sub(*pos, v2_scale(m->up, next))) == 0) {
            done = next;
            continue;
        }
        // Within the first 2 * skin fewer halvings reach the same precision.
        float at = first_touch(m, *pos, done, next, done == 0.0f ? 6 : 10);
        vec2s corr = v2_scale(m->up, -at);
        gather(m, v2_add(*pos, corr));
        bool floor = true; // only floors: lowering must never become a sideways push
        for (int i = 0; i < m->count; ++i) floor &= classify(m, m->c[i].m.normal) == SURF_FLOOR;
        if (floor && resolve(m, *pos, &corr, v2(0.0f, 0.0f), 1.0f, 1.0f) &&
            floor_below(m, v2_add(*pos, corr), v2(0.0f, 0.0f)) >= 0) {
            // A body already resting (within rounding) stays put: lowering
            // and lifting it back must not make it creep by an ulp a frame.
            if (v2_dot(corr, m->up) < -1.0e-3f * m->def.skin) *pos = v2_add(*pos, corr);
            m->out->snapped = at > 2.0f * m->def.skin;
        }
        return;
    }
}

// The final ground state: a floor within 2 * skin below.
static void ground_flags(mover *m, vec2s pos) {
    int i = floor_below(m, pos, v2(0.0f, 0.0f));
    if (i < 0) return;
    ledge_move_result *r = m->out;
    r->on_ground = true;
    r->ground_normal = m->c[i].m.normal;
    r->ground_hit = record_hit(m, &m->c[i], m->up, 1.0f);
}

// --- the move ---------------------------------------------------------------

// Moves from start by `move` in pieces; returns where the mover ends. Piece
// k aims at start + move * (k / n) plus the corrections so far, so that the
// last piece aims at exactly start + move.
static vec2s run_pieces(mover *m, vec2s start, vec2s move) {
    float len = v2_len(move);
    float count = len > 0.0f ? ceilf(len / m->step) : 1.0f; // +inf for a speck's step
    int n;
    if (count > (float)MAX_PIECES) { // compared as a float: no out-of-range conversion
        move = v2_scale(move, (float)MAX_PIECES * m->step / len);
        n = MAX_PIECES;
    } else {
        n = count >= 1.0f ? (int)count : 1; // a still body is still taken out of overlap
    }
    vec2s piece = v2_scale(move, 1.0f / (float)n), corr = v2(0.0f, 0.0f);
    vec2s pos = start;
    for (int k = 1; k <= n; ++k) {
        float t = (float)k / (float)n;
        vec2s base = v2_add(start, k == n ? move : v2_scale(move, t)), c = corr;
        m->from = pos;
        if (!resolve(m, base, &c, piece, (float)(k - 1) / (float)n, t)) {
            m->out->stuck = true;
            return pos;
        }
        corr = c;
        pos = v2_add(base, corr);
    }
    return pos;
}

// Pieces, then snapping: down by up to snap_length for a grounded move,
// by the 2 * skin gap for a falling one.
static vec2s go(mover *m, vec2s start, vec2s move, vec2s d) {
    vec2s pos = run_pieces(m, start, move);
    float skin2 = 2.0f * m->def.skin;
    if (m->grounded) {
        snap(m, &pos, maxf(m->def.snap_length, skin2));
    } else if (v2_dot(d, m->up) <= 0.0f) {
        snap(m, &pos, skin2);
    }
    return pos;
}

// The whole move of displacement d from start. A grounded move follows its
// floor; when following it climbed onto a wall and lost the floor (a
// quarter pipe steepening past max_floor_slope), the rise is cancelled as
// Godot's floor_block_on_wall does (block_on_wall): the move is made again
// sideways only, and when even that leaves no floor the body stays where
// it was.
// A grounded move that met a wall, made again lifted by step_height,
// sideways, then lowered onto a floor: taken when it stands on a floor no
// higher than step_height and got further along `side` than `pos` (the
// blocked move), else the blocked move stands (its result restored).
static vec2s step_up(mover *m, vec2s start, vec2s side, vec2s pos) {
    float h = m->def.step_height, along = v2_len(side);
    if (!(h > 0.0f) || !(along > 0.0f)) return pos;
    ledge_move_result blocked = *m->out;
    memset(m->out, 0, sizeof *m->out); // as the move began (travel is its first step)
    m->out->ground_hit = -1;
    vec2s p = run_pieces(m, start, v2_scale(m->up, h));
    if (!m->out->stuck) p = run_pieces(m, p, side);
    if (!m->out->stuck) snap(m, &p, h + 2.0f * m->def.skin);
    float gain = v2_dot(v2_sub(p, pos), side) / along, rise = v2_dot(v2_sub(p, start), m->up);
    if (!m->out->stuck && gain > m->def.skin && rise <= h + m->def.skin &&
        floor_below(m, p, v2(0.0f, 0.0f)) >= 0) {
        return p;
    }
    *m->out = blocked;
    return pos;
}

static vec2s travel(mover *m, vec2s start, vec2s d) {
    vec2s side = v2_sub(d, v2_scale(m->up, v2_dot(d, m->up)));
    int g = floor_below(m, start, side);
    m->grounded = g >= 0 && v2_dot(d, m->up) <= 0.0f;
    if (!m->grounded) return go(m, start, d, d);
    vec2s pos = go(m, start, follow_floor(m, d, m->c[g].m.normal), d);
    if (m->out->on_wall) pos = step_up(m, start, side, pos);
    if (!m->def.block_on_wall || !m->out->on_wall || floor_below(m, pos, v2(0.0f, 0.0f)) >= 0)
        return pos;
    pos = go(m, start, side, d);
    return floor_below(m, pos, v2(0.0f, 0.0f)) >= 0 ? pos : start;
}

static void init_mover(mover *m, ledge_world *w, int slot, const ledge_move_def *def,
                       ledge_move_result *out) {
    m->w = w;
    m->self = slot;
    m->shape = ledge__shape_of(w, slot);
    m->def = *def;
    m->up = up_of(w, def->up);
    m->right = ledge__right_of(m->up);
    m->cos_floor = cosf(def->max_floor_slope);
    m->out = out;
    m->grounded = false;
    m->gathers = m->rest = 0;
    m->from = w->position[slot];
    ledge__chains_sync(w);
    m->chains = w->chains != NULL && w->chains->live > 0 && w->policy[slot] != LEDGE_RESPONSE_CROSS;
    m->skip_chain = -1;
    ledge_aabb b = m->shape->bounds;
    m->reach = w->map->tile_size + 2.0f * ((b.upper.x - b.lower.x) + (b.upper.y - b.lower.y));
    memset(m->have_poly, 0, sizeof m->have_poly);
}

// Drops the body `floor` and the slots skip() names from the bodies met.
static void drop_bodies(mover *m, int floor, int also, bool (*skip)(const ledge_world *, int)) {
    int n = 0;
    for (int k = 0; k < m->body_count; ++k) {
        int i = m->bodies[k];
        if (i != floor && i != also && !skip(m->w, i)) m->bodies[n++] = i;
    }
    m->body_count = n;
}

// Why a carry is solved by moving again from where it began rather than by
// projection where it ended: a wall crossed by more than half the body's
// thickness would push it out through the far side. The carrying body is
// no obstacle (it moved under the character), nor are the characters
// carried in the same step (they move with their own floors).
bool ledge__move_carry(ledge_world *w, int slot, vec2s from, int floor, int also, int floor_chain,
                       bool (*skip)(const ledge_world *, int), const ledge_move_def *def,
                       ledge_move_result *out) {
    memset(out, 0, sizeof *out);
    out->ground_hit = -1;
    mover m;
    init_mover(&m, w, slot, def, out);
    m.skip_chain = floor_chain;
    vec2s to = w->position[slot], d = v2_sub(to, from);
    uint8_t in_one_way = w->in_one_way[slot]; // the probe must not change drop-through
    m.start = m.from = from;
    find_bodies(&m, from, d);
    drop_bodies(&m, floor, also, skip);
    m.step = piece_length(&m);
    vec2s dir[MAX_CONTACTS];
    float depth[MAX_CONTACTS];
    bool deep = gather(&m, to) > 0 && depths(&m, to, dir, depth) > def->skin;
    w->in_one_way[slot] = in_one_way;
    if (!deep) return false;
    vec2s pos = run_pieces(&m, from, d);
    w->in_one_way[slot] = in_one_way;
    find_bodies(&m, pos, v2(0.0f, 0.0f)); // the floor again, for the flags
    m.skip_chain = -1;
    ground_flags(&m, pos);
    w->in_one_way[slot] = in_one_way;
    w->position[slot] = pos;
    ledge__query_refile(w, slot);
    out->up = m.up;
    out->position = pos;
    out->displacement = v2_sub(pos, from);
    return true;
}

static bool never(const ledge_world *w, int slot) {
    (void)w;
    (void)slot;
    return false;
}

bool ledge_body_move(ledge_world *world, ledge_body_id id, vec2s displacement,
                     const ledge_move_def *def, ledge_move_result *out) {
    return ledge__move_ignoring(world, id, displacement, def, out, -1);
}

bool ledge__move_ignoring(ledge_world *world, ledge_body_id id, vec2s displacement,
                          const ledge_move_def *def, ledge_move_result *out, int ignore) {
    const char *fn = "ledge_body_move";
    if (out == NULL) {
        LEDGE_ERROR("%s: out is NULL", fn);
        return false;
    }
    memset(out, 0, sizeof *out);
    out->ground_hit = -1;
    ledge_move_def defaults = ledge_default_move_def();
    if (def == NULL) def = &defaults;
    int slot;
    if (!check_call(fn, world, id, displacement, def, &slot)) return false;
    mover m;
    init_mover(&m, world, slot, def, out);
    vec2s start = m.start = world->position[slot];
    find_bodies(&m, start, displacement);
    if (ignore >= 0) drop_bodies(&m, ignore, -1, never);
    m.step = piece_length(&m);
    vec2s pos = travel(&m, start, displacement);
    ground_flags(&m, pos);
    if (!ledge_body_set_position(world, id, pos)) {
        memset(out, 0, sizeof *out);
        out->ground_hit = -1;
        return false;
    }
    out->up = m.up;
    out->position = pos;
    out->displacement = v2_sub(pos, start);
    out->velocity = ledge_move_clip_velocity(out, world->velocity[slot]);
    if (def->set_velocity) ledge_body_set_velocity(world, id, out->velocity);
    return true;
}

vec2s ledge_move_clip_velocity(const ledge_move_result *result, vec2s velocity) {
    const char *fn = "ledge_move_clip_velocity";
    if (result == NULL) {
        LEDGE_ERROR("%s: result is NULL", fn);
        return velocity;
    }
    if (!ledge__check_vec(fn, "velocity", velocity, LEDGE_MAX_COORDINATE)) return velocity;
    int n = result->hit_count < LEDGE_MOVE_MAX_HITS ? result->hit_count : LEDGE_MOVE_MAX_HITS;
    for (int k = 0; k < n; ++k) {
        vec2s p = result->hits[k].push;
        float into = v2_dot(velocity, p);
        if (into < 0.0f) velocity = v2_sub(velocity, v2_scale(p, into));
    }
    return velocity;
}
