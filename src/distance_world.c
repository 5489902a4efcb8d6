// The nearest body or tile surface in a world (ledge_world_nearest), built
// on the public query entry points (ledge_world_query_aabb finds the bodies
// through the query grid) so that it does not depend on how that grid is
// stored; and the debug draw of a distance result.
#include "chain_query.h"
#include "distance_tile.h"

#include "shape.h"
#include "check.h"
#include "slots.h"
#include "world_state.h"

#include <string.h>

typedef struct nearest_ctx {
    ledge_world *world;
    const ledge_shape *shape;
    vec2s pos;
    float max_distance;
    int one_way;                // the filter's ledge_query_one_way
    ledge_nearest_result *best; // kind NONE until something is within reach
} nearest_ctx;

// A one-way body under the bodies' rule: counted when the query is on its
// allowed side (the normal toward it within 60 degrees of the direction)
// and overlaps it no deeper than the twice the slop a body rests by.
static bool one_way_body_counts(const nearest_ctx *c, int i, const ledge_shape *s, vec2s p,
                                const ledge_distance_result *r) {
    const ledge_world *w = c->world;
    if (c->one_way == LEDGE_QUERY_ONE_WAY_NEVER) return false;
    vec2s dir = ledge_one_way_direction((ledge_one_way)w->one_way[i]);
    if (v2_dot(r->normal, dir) < 0.5f) return false;
    if (r->distance > 0.0f) return true;
    ledge_manifold m = ledge_collide(s, p, c->shape, c->pos);
    return !m.hit || m.depth <= 2.0f * w->slop;
}

// Bodies arrive in increasing index: a strict comparison keeps the lower
// index among equal distances.
static bool visit_body(ledge_body_id id, void *context) {
    nearest_ctx *c = context;
    const ledge_shape *s = ledge_body_shape(c->world, id);
    if (s == NULL) return true;
    vec2s p = ledge_body_position(c->world, id);
    ledge_distance_result r = ledge__shape_distance(s, p, c->shape, c->pos);
    if (!(r.distance <= c->max_distance)) return true;
    int i = ledge__slot_of(c->world, id);
    if (LEDGE_UNLIKELY(c->world->one_way[i] != LEDGE_ONE_WAY_NONE) &&
        c->one_way != LEDGE_QUERY_ONE_WAY_ALWAYS && !one_way_body_counts(c, i, s, p, &r)) {
        return true;
    }
    if (c->best->kind != LEDGE_HIT_NONE && !(r.distance < c->best->distance.distance)) return true;
    c->best->kind = LEDGE_HIT_BODY;
    c->best->body = id;
    c->best->chain = LEDGE_NULL_CHAIN_ID;
    c->best->segment = 0;
    c->best->cell_x = c->best->cell_y = 0;
    c->best->tile = 0;
    c->best->distance = r;
    return true;
}

static void clear(ledge_nearest_result *out, int iterations) {
    memset(out, 0, sizeof *out);
    out->kind = LEDGE_HIT_NONE;
    out->distance = ledge__distance_none(iterations);
}

static bool check_world(const char *fn, const ledge_world *world, const ledge_nearest_result *out) {
    if (world == NULL || out == NULL) {
        LEDGE_ERROR("%s: %s is NULL", fn, world == NULL ? "world" : "out");
        return false;
    }
    if (world->stepping) {
        LEDGE_ERROR("%s: the world is stepping (query between steps)", fn);
        return false;
    }
    return true;
}

static bool nearest(ledge_world *world, const char *fn, const ledge_shape *shape, vec2s pos,
                    float max_distance, const ledge_query_filter *filter,
                    ledge_nearest_result *out) {
    ledge_query_filter f = filter ? *filter : ledge_default_query_filter();
    if (!ledge__check_query_one_way(fn, (int)f.one_way)) {
        clear(out, -1);
        return false;
    }
    ledge_tilemap_distance_result t;
    if (f.include_tiles && ledge__tilemap_distance(world->map, shape, pos, max_distance,
                                                   (int)f.one_way, 2.0f * world->slop, &t)) {
        out->kind = LEDGE_HIT_TILE;
        out->cell_x = t.cell_x;
        out->cell_y = t.cell_y;
        out->tile = t.tile;
        out->distance = t.distance;
        // A nearer body must beat the tile strictly (ties go to the tile).
        max_distance = t.distance.distance;
    }
    ledge__chains_sync(world);
    int chain, segment;
    ledge_distance_result d;
    float best = out->kind == LEDGE_HIT_NONE ? INFINITY : max_distance;
    if (ledge__chains_nearest(world, shape, pos, max_distance, &f, best, &chain, &segment, &d) &&
        (out->kind == LEDGE_HIT_NONE || d.distance < max_distance)) {
        memset(out, 0, sizeof *out);
        out->kind = LEDGE_HIT_CHAIN;
        out->chain = ledge__chain_id(world, chain);
        out->segment = segment;
        out->distance = d;
        max_distance = d.distance; // a body must beat the chain strictly
    }
    ledge_aabb box = ledge_shape_aabb_fast(shape, pos);
    box.lower = v2(box.lower.x - max_distance, box.lower.y - max_distance);
    box.upper = v2(box.upper.x + max_distance, box.upper.y + max_distance);
    nearest_ctx c = {world, shape, pos, max_distance, (int)f.one_way, out};
    if (ledge_world_query_aabb(world, box, &f, visit_body, &c) < 0) {
        LEDGE_ERROR("%s: refused by the body query (see the message above)", fn);
        clear(out, -1);
        return false;
    }
    return out->kind != LEDGE_HIT_NONE;
}

bool ledge_world_nearest(ledge_world *world, const ledge_shape *shape, vec2s position,
                         float max_distance, const ledge_query_filter *filter,
                         ledge_nearest_result *out) {
    static const char *fn = "ledge_world_nearest";
    if (out != NULL) clear(out, -1);
    if (!check_world(fn, world, out)) return false;
    if (!ledge_shape_is_valid(shape)) {
        LEDGE_ERROR("%s: shape is NULL or invalid", fn);
        return false;
    }
    if (!ledge__check_vec(fn, "position", position, LEDGE_MAX_COORDINATE) ||
        !ledge__check_reach(fn, max_distance)) {
        return false;
    }
    clear(out, 0);
    return nearest(world, fn, shape, position, max_distance, filter, out);
}

bool ledge_world_nearest_point(ledge_world *world, vec2s point, float max_distance,
                               const ledge_query_filter *filter, ledge_nearest_result *out) {
    static const char *fn = "ledge_world_nearest_point";
    if (out != NULL) clear(out, -1);
    if (!check_world(fn, world, out)) return false;
    if (!ledge__check_vec(fn, "point", point, LEDGE_MAX_COORDINATE) ||
        !ledge__check_reach(fn, max_distance)) {
        return false;
    }
    clear(out, 0);
    ledge_shape p = ledge__point_shape();
    return nearest(world, fn, &p, point, max_distance, filter, out);
}

// --- debug draw ---------------------------------------------------------------

void ledge_distance_draw(const ledge_distance_result *r, const ledge_debug_draw *d) {
    static const char *fn = "ledge_distance_draw";
    if (r == NULL || d == NULL) {
        LEDGE_ERROR("%s: %s is NULL", fn, r == NULL ? "result" : "draw");
        return;
    }
    if (!ledge__vec_within(r->point_a, LEDGE_MAX_COORDINATE) ||
        !ledge__vec_within(r->point_b, LEDGE_MAX_COORDINATE) ||
        !ledge__vec_within(r->normal, 2.0f) || !isfinite(r->distance)) {
        LEDGE_ERROR("%s: the result is not finite (a refused or empty query's)", fn);
        return;
    }
    if (d->draw_segment) d->draw_segment(r->point_a, r->point_b, LEDGE_COLOR_DISTANCE, d->context);
    if (d->draw_point) {
        d->draw_point(r->point_a, 5.0f, LEDGE_COLOR_DISTANCE, d->context);
        d->draw_point(r->point_b, 5.0f, LEDGE_COLOR_DISTANCE, d->context);
    }
    if (d->draw_normals && d->draw_segment && isfinite(d->normal_length)) {
        vec2s tip = v2_add(r->point_a, v2_scale(r->normal, d->normal_length));
        d->draw_segment(r->point_a, tip, LEDGE_COLOR_NORMAL, d->context);
    }
}
