// Distance from a shape to a tile and to the tilemap (distance_tile.h).
//
// Overlap is the SAT's business: ledge__tile_collide decides it exactly for
// every tile and gives the push that honours the edge states, so an
// overlapping shape takes that push. Apart, the distance to a tile T is the
// smallest distance to a piece of T's outline:
//   - straight tiles are convex polygons: one GJK call;
//   - round tiles are two straight cell sides through R and an arc; the
//     sides are segments (GJK), and the arc is a closed form:
//     CONVEX (solid inside the circle around R): T is convex, so when the
//       point of the disc nearest the shape lies on the arc it is T's
//       nearest point, at |q - R| - radius for the shape's point q nearest
//       R; otherwise T's nearest point is on a side.
//     CONCAVE (solid outside the circle around F): the shape lies in the
//       hollow, and a nearest point on the arc faces, along the radius, a
//       point of the shape farthest from F locally: a vertex (a point inside
//       an edge would be nearer F than its neighbours) or, for a circle, its
//       far point. Each such point in the arc's quarter is a candidate at
//       radius - |p - F|.
// Edge states do not change a distance between apart shapes: a seam's inner
// points are inside the union of the two tiles, so the nearest point of the
// union is never one of them, and the nearest tile is found by the minimum.
#include "check.h"
#include "distance_tile.h"

#include "shape.h"
#include "tile_collide.h"
#include "tilemap.h"

#include "ledge/query.h"

#include <string.h>

/// What one tile gave: apart (distance, maybe 0 when touching), an overlap
/// with a push that honours the seams, or an overlap where every side near
/// the shape is a seam (deep in solid ground: the lone tile's push).
typedef enum tile_status { TILE_APART = 0, TILE_HIT = 1, TILE_INTERIOR = 2 } tile_status;

typedef struct tile_dist {
    ledge_distance_result r;
    float depth;
    tile_status status;
} tile_dist;

static void keep_if_nearer(ledge_distance_result *best, ledge_distance_result r) {
    if (r.distance < best->distance) *best = r;
}

static ledge_distance_result segment_distance(vec2s p0, vec2s p1, const ledge__proxy *q) {
    ledge__proxy seg = {{p0, p1}, 2, 0.0f};
    bool overlap;
    return ledge__proxy_distance(&seg, q, &overlap);
}

// Whether direction d lies in the quarter between directions e1 and e2.
static bool in_quarter(vec2s d, vec2s e1, vec2s e2) {
    return v2_dot(d, e1) >= 0.0f && v2_dot(d, e2) >= 0.0f;
}

static void convex_arc(vec2s c, float radius, vec2s p, vec2s q, const ledge__proxy *shape,
                       ledge_distance_result *best) {
    ledge__proxy centre = {{c}, 1, 0.0f};
    bool overlap;
    ledge_distance_result d = ledge__proxy_distance(&centre, shape, &overlap);
    if (!(d.distance > radius) || !in_quarter(d.normal, v2_sub(p, c), v2_sub(q, c))) return;
    d.distance -= radius;
    d.point_a = v2_add(c, v2_scale(d.normal, radius));
    keep_if_nearer(best, d);
}

static void concave_candidate(vec2s f, float radius, vec2s p, vec2s q, vec2s s,
                              ledge_distance_result *best) {
    vec2s d = v2_sub(s, f);
    float len = v2_len(d);
    if (!(len < radius) || !(len > 0.0f) || !in_quarter(d, v2_sub(p, f), v2_sub(q, f))) return;
    vec2s u = v2_unit(d, len);
    ledge_distance_result r = {radius - len, v2_add(f, v2_scale(u, radius)), s, v2_neg(u), 0};
    keep_if_nearer(best, r);
}

static void concave_arc(vec2s f, float radius, vec2s p, vec2s q, const ledge__proxy *shape,
                        ledge_distance_result *best) {
    if (shape->count == 1 && shape->radius > 0.0f) {
        vec2s c = shape->v[0], d = v2_sub(c, f);
        float len = v2_len(d);
        if (!(len > 0.0f)) return; // centred on F: every arc point is equally near
        concave_candidate(f, radius, p, q, v2_add(c, v2_scale(v2_unit(d, len), shape->radius)),
                          best);
        return;
    }
    for (int i = 0; i < shape->count; ++i) concave_candidate(f, radius, p, q, shape->v[i], best);
}

// Distance from the shape (proxy in the cell frame, cell_min at the origin)
// to an apart tile.
static ledge_distance_result apart_distance(const ledge__tile_geom *g, float size,
                                            const ledge__proxy *q) {
    ledge_distance_result best = ledge__distance_none(0);
    if (g->arc == LEDGE__ARC_NONE) {
        ledge__proxy t;
        t.count = g->count;
        t.radius = 0.0f;
        for (int i = 0; i < g->count; ++i) t.v[i] = v2_scale(g->points[i], size);
        bool overlap;
        return ledge__proxy_distance(&t, q, &overlap);
    }
    for (int i = 0; i < g->count; ++i) {
        if (i == g->arc_edge) continue;
        vec2s p0 = v2_scale(g->points[i], size);
        vec2s p1 = v2_scale(g->points[(i + 1) % g->count], size);
        keep_if_nearer(&best, segment_distance(p0, p1, q));
    }
    vec2s c = v2_scale(g->arc_center, size);
    vec2s p = v2_scale(g->points[g->arc_edge], size);
    vec2s e = v2_scale(g->points[(g->arc_edge + 1) % g->count], size);
    float radius = g->arc_radius * size;
    if (g->arc == LEDGE__ARC_CONVEX) {
        convex_arc(c, radius, p, e, q, &best);
    } else {
        concave_arc(c, radius, p, e, q, &best);
    }
    return best;
}

// A box shape from its corners, built directly (the corners are a tile's,
// already valid): what the box closed forms read.
static ledge_shape box_shape(vec2s lo, vec2s hi) {
    ledge_shape b;
    memset(&b, 0, sizeof b);
    b.type = LEDGE_SHAPE_BOX;
    b.count = 4;
    b.axis_count = 2;
    b.bounds.lower = lo;
    b.bounds.upper = hi;
    b.center = v2_scale(v2_add(lo, hi), 0.5f);
    b.vertices[0] = lo;
    b.vertices[1] = v2(hi.x, lo.y);
    b.vertices[2] = hi;
    b.vertices[3] = v2(lo.x, hi.y);
    b.normals[0] = v2(0.0f, -1.0f);
    b.normals[1] = v2(1.0f, 0.0f);
    b.normals[2] = v2(0.0f, 1.0f);
    b.normals[3] = v2(-1.0f, 0.0f);
    b.axes[0] = (ledge_axis){v2(1.0f, 0.0f), lo.x, hi.x};
    b.axes[1] = (ledge_axis){v2(0.0f, 1.0f), lo.y, hi.y};
    return b;
}

// `may_overlap` false: the caller knows the bounding boxes are apart, so
// the overlap test is skipped.
static tile_dist tile_distance(const ledge__tile_geom *g, vec2s cell_min, float size,
                               unsigned blocked, const ledge_shape *shape, vec2s pos,
                               bool may_overlap) {
    tile_dist td = {ledge__distance_none(0), 0.0f, TILE_APART};
    if (g->group == LEDGE_TILE_GROUP_EMPTY) return td;
    ledge_manifold m;
    memset(&m, 0, sizeof m);
    if (may_overlap) m = ledge__tile_collide(g, NULL, cell_min, size, blocked, shape, pos);
    td.status = TILE_HIT;
    if (may_overlap && !m.hit && blocked != 0) {
        m = ledge__tile_collide(g, NULL, cell_min, size, 0, shape, pos);
        td.status = TILE_INTERIOR;
    }
    if (m.hit) {
        td.r = ledge__distance_from_manifold(&m);
        td.depth = m.depth;
        return td;
    }
    td.status = TILE_APART;
    if (g->group == LEDGE_TILE_GROUP_FULL || g->group == LEDGE_TILE_GROUP_HALF) {
        // An axis-aligned box: the closed forms of ledge_shape_distance.
        ledge_shape box =
            box_shape(v2_scale(g->bounds.lower, size), v2_scale(g->bounds.upper, size));
        td.r = ledge__shape_distance(&box, cell_min, shape, pos);
        return td;
    }
    ledge__proxy q;
    ledge__proxy_of(shape, v2_sub(pos, cell_min), &q);
    td.r = apart_distance(g, size, &q);
    td.r.point_a = v2_add(td.r.point_a, cell_min);
    td.r.point_b = v2_add(td.r.point_b, cell_min);
    return td;
}

ledge_distance_result ledge_tile_distance(ledge_tile tile, vec2s cell_min, float size,
                                          unsigned blocked, const ledge_shape *shape, vec2s pos) {
    static const char *fn = "ledge_tile_distance";
    if (!ledge__check_tile(fn, tile) ||
        !ledge__check_vec(fn, "cell_min", cell_min, LEDGE_MAX_COORDINATE) ||
        !ledge__check_size(fn, "size", size)) {
        return ledge__distance_none(-1);
    }
    if (blocked & ~15u) {
        LEDGE_ERROR("%s: blocked is 0x%x (must be a set of LEDGE_SIDE_ bits, 0x0..0xf)", fn,
                    blocked);
        return ledge__distance_none(-1);
    }
    if (!ledge_shape_is_valid(shape)) {
        LEDGE_ERROR("%s: shape is NULL or invalid", fn);
        return ledge__distance_none(-1);
    }
    if (!ledge__check_vec(fn, "pos", pos, LEDGE_MAX_COORDINATE)) return ledge__distance_none(-1);
    ledge__tile_geom g;
    ledge__tile_geom_of(tile, &g);
    return tile_distance(&g, cell_min, size, blocked, shape, pos, true).r;
}

// --- the tilemap ------------------------------------------------------------------

// Whether the candidate `c` beats `best`: any honoured push beats the rest
// and the deeper one wins; an interior overlap beats distances; among
// distances the smaller wins. Equal: the earlier cell (row-major) stays.
static bool better(const tile_dist *c, const tile_dist *best) {
    if (c->status == TILE_HIT) return best->status != TILE_HIT || c->depth > best->depth;
    if (c->status == TILE_INTERIOR) return best->status == TILE_APART;
    return best->status == TILE_APART && c->r.distance < best->r.distance;
}

// Gap between two boxes (0 when they overlap): the least distance any pair
// of their points can have, to skip cells that cannot beat the best.
static float box_gap(ledge_aabb a, ledge_aabb b) {
    float dx = maxf(maxf(a.lower.x - b.upper.x, b.lower.x - a.upper.x), 0.0f);
    float dy = maxf(maxf(a.lower.y - b.upper.y, b.lower.y - a.upper.y), 0.0f);
    return sqrtf(dx * dx + dy * dy);
}

// Whether candidate `c` of one-way cell (x, y) counts under the bodies' rule
// (ledge_query_one_way): the shape on the allowed side, its normal (from
// the tile toward the shape) within 60 degrees of the direction, and an
// overlap no deeper than `reach`.
static bool one_way_counts(const ledge_tilemap *map, int x, int y, const tile_dist *c,
                           float reach) {
    ledge_one_way way = ledge_tilemap_one_way(map, x, y);
    if (v2_dot(c->r.normal, ledge_one_way_direction(way)) < 0.5f) return false;
    return c->status == TILE_APART || c->depth <= reach;
}

bool ledge__tilemap_distance(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                             float max_distance, int one_way, float one_way_reach,
                             ledge_tilemap_distance_result *out) {
    memset(out, 0, sizeof *out);
    out->distance = ledge__distance_none(0);
    ledge_aabb sb = ledge_shape_aabb_fast(shape, pos);
    // Grown by the reach and a few ulps (the tile tests work in the cell's
    // frame, as ledge_tilemap_collide's scan).
    float slack = (fabsf(sb.lower.x) + fabsf(sb.lower.y) + fabsf(sb.upper.x) + fabsf(sb.upper.y) +
                   map->tile_size) *
                  (1.0f / 262144.0f);
    float grow = max_distance + slack;
    ledge_aabb reach = {v2(sb.lower.x - grow, sb.lower.y - grow),
                        v2(sb.upper.x + grow, sb.upper.y + grow)};
    int x0 = ledge__tilemap_cell(reach.lower.x, map->origin.x, map->inv_tile_size);
    int y0 = ledge__tilemap_cell(reach.lower.y, map->origin.y, map->inv_tile_size);
    int x1 = ledge__tilemap_cell(reach.upper.x, map->origin.x, map->inv_tile_size);
    int y1 = ledge__tilemap_cell(reach.upper.y, map->origin.y, map->inv_tile_size);
    x0 = x0 > -1 ? x0 : -1;
    y0 = y0 > -1 ? y0 : -1;
    x1 = x1 < map->width ? x1 : map->width;
    y1 = y1 < map->height ? y1 : map->height;
    tile_dist best = {ledge__distance_none(0), 0.0f, TILE_APART};
    float s = map->tile_size;
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            ledge_tile t = ledge__tilemap_at(map, x, y);
            if (t == LEDGE_TILE_EMPTY) continue;
            vec2s cmin = v2(map->origin.x + (float)x * s, map->origin.y + (float)y * s);
            ledge_aabb cell = {cmin, v2(cmin.x + s, cmin.y + s)};
            float gap = box_gap(cell, sb);
            if (best.status == TILE_APART && gap > minf(best.r.distance, max_distance)) continue;
            // Boxes apart by more than the rounding of the cell's frame: no
            // overlap test. A FULL cell with four seams is inside solid
            // ground: its outline is its neighbours', so only an overlap
            // makes it count.
            bool may_overlap = gap <= slack;
            unsigned blocked = ledge__tilemap_blocked(map, x, y);
            if (!may_overlap && t == LEDGE_TILE_FULL && blocked == 15u) continue;
            bool one_way_cell =
                one_way != LEDGE_QUERY_ONE_WAY_ALWAYS && ledge__tilemap_one_way_cell(map, x, y);
            if (one_way_cell && one_way == LEDGE_QUERY_ONE_WAY_NEVER) continue;
            tile_dist c = tile_distance(&map->geom[t], cmin, s, blocked, shape, pos, may_overlap);
            if (c.status == TILE_APART && !(c.r.distance <= max_distance)) continue;
            if (LEDGE_UNLIKELY(one_way_cell) && !one_way_counts(map, x, y, &c, one_way_reach))
                continue;
            if (!better(&c, &best)) continue;
            best = c;
            out->cell_x = x;
            out->cell_y = y;
            out->tile = t;
        }
    }
    out->distance = best.r;
    return best.r.distance <= max_distance;
}

bool ledge__check_reach(const char *fn, float max_distance) {
    if (isfinite(max_distance) && max_distance >= 0.0f && max_distance <= LEDGE_MAX_COORDINATE) {
        return true;
    }
    LEDGE_ERROR("%s: max_distance is %g (must be finite, 0..%g)", fn, (double)max_distance,
                (double)LEDGE_MAX_COORDINATE);
    return false;
}

bool ledge_tilemap_distance(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                            float max_distance, ledge_tilemap_distance_result *out) {
    static const char *fn = "ledge_tilemap_distance";
    if (out != NULL) {
        memset(out, 0, sizeof *out);
        out->distance = ledge__distance_none(-1);
    }
    if (map == NULL || out == NULL) {
        LEDGE_ERROR("%s: %s is NULL", fn, map == NULL ? "map" : "out");
        return false;
    }
    if (!ledge_shape_is_valid(shape)) {
        LEDGE_ERROR("%s: shape is NULL or invalid", fn);
        return false;
    }
    if (!ledge__check_vec(fn, "pos", pos, LEDGE_MAX_COORDINATE) ||
        !ledge__check_reach(fn, max_distance)) {
        return false;
    }
    return ledge__tilemap_distance(map, shape, pos, max_distance, LEDGE_QUERY_ONE_WAY_ALWAYS, 0.0f,
                                   out);
}
