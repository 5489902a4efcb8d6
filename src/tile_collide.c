// Shape-vs-tile collision for the 34 tiles (tile_collide.h) and the public
// ledge_collide_tile (tiles.h).
//
// The model. Every tile's solid T is its cell box intersected with one more
// set X: nothing (FULL), a half-plane (slopes, half tiles), the disc of
// radius `size` around R (CONVEX), or the outside of the disc around F
// (CONCAVE). The result is the exact minimum translation vector (MTV) of the
// shape against U, the tile with the box constraint of every honoured
// blocked side removed (the box runs to infinity there):
//   - for a side the tile covers fully, U is the tile extruded across the
//     side, so no push can leave through it (its outward normal e has
//     d.e <= 0 for every push d), and a corner on it stops being a corner;
//   - polygonal tiles also honour partially covered and untouched blocked
//     sides: removing that side's constraint lets the half-plane run on
//     across it (two HALF tiles side by side, a 22/67 big tile next to its
//     small partner, the tips of a 45 degree staircase), which is what an
//     OFF edge between such tiles means;
//   - round tiles honour only their two fully covered sides (the ones
//     through R): across the others the arc has no straight continuation.
// Whether there is a hit is decided against T itself: a shape touching only
// the extension gets nothing from this tile.
//
// The methods. Polygonal tiles: SAT over the tile's faces, the shape's faces
// reversed and (when blocked) the world axes, with U's support computed from
// its vertices and recession directions; circles and boxes use closed forms.
// CONVEX: convex, so SAT with the arc added as radial axes toward the
// shape's vertices that lie in the arc's quadrant (there the support
// function has its only interior minima). CONCAVE: circles and boxes are
// exact (the free region of the circle's centre, or of the box's corner
// nearest R, is known in closed form); polygons take the smallest of a set
// of candidate pushes that are each checked to separate (documented below).
//
// Round tiles are computed in a frame (u, v) with R at the origin and the
// cell at [0, size]^2: u = sx (x - R.x), v = sy (y - R.y). It is a
// reflection at worst, so distances and unit vectors carry over unchanged.
#include "check.h"
#include "tile_collide.h"
#include "tile_round.h"

#include "shape.h"

#include <string.h>

// --- contact points ------------------------------------------------------------

/// Contact points of a push found by projection: the tile's support points
/// `tp` (the tile's vertices, or one arc point) and the shape's vertices, in
/// the push's frame. The two support sets (within `tol` of the extremes) are
/// projected on the tangent; their overlap, clamped to the shape's support,
/// gives 1 or 2 points, placed midway between the two surfaces.
static int support_points(const tc_push *p, const vec2s *tp, int tn, const tc_poly *s, float tol,
                          vec2s out[2]) {
    vec2s n = p->normal, t = v2(-n.y, n.x);
    float th = -TC_INF, sl = TC_INF;
    for (int i = 0; i < tn; ++i) th = maxf(th, v2_dot(tp[i], n));
    for (int i = 0; i < s->n; ++i) sl = minf(sl, v2_dot(s->v[i], n));
    float a0 = TC_INF, a1 = -TC_INF, b0 = TC_INF, b1 = -TC_INF;
    for (int i = 0; i < tn; ++i) {
        if (v2_dot(tp[i], n) < th - tol) continue;
        a0 = minf(a0, v2_dot(tp[i], t));
        a1 = maxf(a1, v2_dot(tp[i], t));
    }
    for (int i = 0; i < s->n; ++i) {
        if (v2_dot(s->v[i], n) > sl + tol) continue;
        b0 = minf(b0, v2_dot(s->v[i], t));
        b1 = maxf(b1, v2_dot(s->v[i], t));
    }
    float lo = tc_clamp(maxf(a0, b0), b0, b1), hi = tc_clamp(minf(a1, b1), b0, b1);
    if (lo > hi) lo = hi = 0.5f * (lo + hi);
    float level = sl + 0.5f * p->depth; // the tile's surface is at sl + depth
    out[0] = v2_add(v2_scale(n, level), v2_scale(t, lo));
    if (hi - lo <= tol) {
        out[0] = v2_add(v2_scale(n, level), v2_scale(t, 0.5f * (lo + hi)));
        return 1;
    }
    out[1] = v2_add(v2_scale(n, level), v2_scale(t, hi));
    return 2;
}

/// Contact points of vertex-type pushes: the touching vertices (or tips)
/// moved halfway along the push.
static int feature_points(const tc_push *p, const tc_poly *s, const vec2s tips[2], vec2s out[2]) {
    vec2s half = v2_scale(p->normal, 0.5f * p->depth);
    switch (p->contact) {
    case TC_VERTEX:
        out[0] = v2_add(s->v[p->a], half);
        return 1;
    case TC_VERTEX_PAIR:
        out[0] = v2_add(s->v[p->a], half);
        out[1] = v2_add(s->v[p->b], half);
        return 2;
    case TC_TIP:
        out[0] = v2_sub(tips[p->b], half);
        return 1;
    default: // TC_VERTEX_TIP
        out[0] = v2_add(s->v[p->a], half);
        out[1] = v2_sub(tips[p->b], half);
        return 2;
    }
}

// --- polygonal tiles: cell box and one half-plane ------------------------------

/// A polygonal tile in the cell frame (cell_min at the origin): the
/// internal header's ledge__ptile.
typedef ledge__ptile tc_ptile;

void ledge__ptile_init(const ledge__tile_geom *g, float s, unsigned blocked, tc_ptile *t) {
    t->g = g;
    t->s = s;
    t->block = blocked;
    t->plane = g->group != LEDGE_TILE_GROUP_FULL;
    t->n = g->normal;
    t->a = v2_scale(g->anchor, s);
    t->o = v2_dot(t->n, t->a);
    t->lo = v2((blocked & LEDGE_SIDE_XNEG) ? -TC_INF : 0.0f,
               (blocked & LEDGE_SIDE_YNEG) ? -TC_INF : 0.0f);
    t->hi = v2((blocked & LEDGE_SIDE_XPOS) ? TC_INF : s, (blocked & LEDGE_SIDE_YPOS) ? TC_INF : s);
    for (int i = 0; i < g->count; ++i) t->v[i] = v2_scale(g->points[i], s);
    t->axis_box = g->group == LEDGE_TILE_GROUP_FULL || g->group == LEDGE_TILE_GROUP_HALF;
    vec2s bl = g->bounds.lower, bh = g->bounds.upper;
    t->ulo = v2(((blocked & LEDGE_SIDE_XNEG) && bl.x == 0.0f) ? -TC_INF : bl.x * s,
                ((blocked & LEDGE_SIDE_YNEG) && bl.y == 0.0f) ? -TC_INF : bl.y * s);
    t->uhi = v2(((blocked & LEDGE_SIDE_XPOS) && bh.x == 1.0f) ? TC_INF : bh.x * s,
                ((blocked & LEDGE_SIDE_YPOS) && bh.y == 1.0f) ? TC_INF : bh.y * s);
}

/// The point of the half-plane's line inside the box [lo, hi] nearest to c.
static vec2s line_point(const tc_ptile *t, vec2s lo, vec2s hi, vec2s c) {
    vec2s dir = v2(-t->n.y, t->n.x);
    float tau = v2_dot(v2_sub(c, t->a), dir), tlo = -TC_INF, thi = TC_INF;
    for (int k = 0; k < 2; ++k) {
        if (dir.raw[k] == 0.0f) continue;
        float t1 = (lo.raw[k] - t->a.raw[k]) / dir.raw[k];
        float t2 = (hi.raw[k] - t->a.raw[k]) / dir.raw[k];
        tlo = maxf(tlo, minf(t1, t2));
        thi = minf(thi, maxf(t1, t2));
    }
    return v2_add(t->a, v2_scale(dir, tc_clamp(tau, tlo, thi)));
}

/// Signed distance from c to [lo, hi] ∩ {n.p <= o} (possibly unbounded),
/// and in *dir the direction in which c leaves it fastest (inside) or the
/// direction away from its nearest point (outside). -TC_INF when c is inside
/// and no face bounds the set (every side blocked).
static float boxplane_sd(const tc_ptile *t, vec2s lo, vec2s hi, vec2s c, vec2s *dir) {
    float hs = t->plane ? v2_dot(t->n, c) - t->o : -TC_INF;
    if (c.x >= lo.x && c.x <= hi.x && c.y >= lo.y && c.y <= hi.y && hs <= 0.0f) {
        float best = -hs;
        vec2s n = t->n;
        if (c.x - lo.x < best) {
            best = c.x - lo.x;
            n = v2(-1.0f, 0.0f);
        }
        if (hi.x - c.x < best) {
            best = hi.x - c.x;
            n = v2(1.0f, 0.0f);
        }
        if (c.y - lo.y < best) {
            best = c.y - lo.y;
            n = v2(0.0f, -1.0f);
        }
        if (hi.y - c.y < best) {
            best = hi.y - c.y;
            n = v2(0.0f, 1.0f);
        }
        *dir = n;
        return -best;
    }
    // The box's nearest point if it satisfies the half-plane; otherwise the
    // nearest point of the set lies on the half-plane's line, in the box.
    vec2s q = v2(tc_clamp(c.x, lo.x, hi.x), tc_clamp(c.y, lo.y, hi.y));
    if (t->plane && v2_dot(t->n, q) > t->o) q = line_point(t, lo, hi, c);
    vec2s d = v2_sub(c, q);
    float dist = v2_len(d);
    if (dist > 0.0f) {
        *dir = v2_unit(d, dist);
    } else { // c on the boundary up to rounding: the violated face
        *dir = hs > 0.0f    ? t->n
               : c.x < lo.x ? v2(-1.0f, 0.0f)
               : c.x > hi.x ? v2(1.0f, 0.0f)
               : c.y < lo.y ? v2(0.0f, -1.0f)
                            : v2(0.0f, 1.0f);
    }
    return dist;
}

static bool circle_vs_ptile(const tc_ptile *t, vec2s c, float r, tc_push *out) {
    vec2s dir;
    float sd = boxplane_sd(t, v2(0.0f, 0.0f), v2(t->s, t->s), c, &dir);
    if (!(r - sd > 0.0f)) return false;
    if (t->block) sd = boxplane_sd(t, t->lo, t->hi, c, &dir);
    *out = tc_no_push();
    tc_consider(out, dir, r - sd, TC_CIRCLE, -1, -1);
    return out->depth < TC_INF;
}

/// U of a tile with blocked sides as its vertices (with T's, which lie in U
/// and stand in for vertex-free faces) and the generators of its recession
/// cone: U's support along d is finite exactly when d.g <= 0 for every
/// generator g, and is then the largest d.v over the vertices.
typedef struct tc_uset {
    int nv, ng;
    vec2s v[14];
    vec2s gen[6];
} tc_uset;

static void uset_add_vertex(tc_uset *u, vec2s p) {
    if (u->nv < (int)(sizeof u->v / sizeof u->v[0])) u->v[u->nv++] = p;
}

static void uset_build(const tc_ptile *t, tc_uset *u) {
    u->nv = u->ng = 0;
    float slack = TC_LEAN * t->s;
    for (int i = 0; i < t->g->count; ++i) uset_add_vertex(u, t->v[i]);
    // Finite corners of the box inside the half-plane.
    for (int i = 0; i < 4; ++i) {
        vec2s p = v2((i & 1) ? t->hi.x : t->lo.x, (i & 2) ? t->hi.y : t->lo.y);
        if (!isfinite(p.x) || !isfinite(p.y)) continue;
        if (!t->plane || v2_dot(t->n, p) <= t->o + slack) uset_add_vertex(u, p);
    }
    if (t->plane) {
        // Where the half-plane's line crosses a finite side of the box.
        vec2s dir = v2(-t->n.y, t->n.x);
        for (int k = 0; k < 2; ++k) {
            if (dir.raw[k] == 0.0f) continue;
            for (int j = 0; j < 2; ++j) {
                float at = j ? t->hi.raw[k] : t->lo.raw[k];
                if (!isfinite(at)) continue;
                vec2s p = v2_add(t->a, v2_scale(dir, (at - t->a.raw[k]) / dir.raw[k]));
                float w = p.raw[1 - k];
                if (w >= t->lo.raw[1 - k] - slack && w <= t->hi.raw[1 - k] + slack)
                    uset_add_vertex(u, p);
            }
        }
    }
    // Recession cone: the box's unbounded axis directions inside the
    // half-plane, and the line's directions where the box lets them run.
    static const vec2s axes[4] = {{{1.0f, 0.0f}}, {{-1.0f, 0.0f}}, {{0.0f, 1.0f}}, {{0.0f, -1.0f}}};
    bool open[4] = {t->hi.x == TC_INF, t->lo.x == -TC_INF, t->hi.y == TC_INF, t->lo.y == -TC_INF};
    for (int i = 0; i < 4; ++i) {
        if (open[i] && (!t->plane || v2_dot(t->n, axes[i]) <= 0.0f)) u->gen[u->ng++] = axes[i];
    }
    if (t->plane) {
        vec2s dir = v2(-t->n.y, t->n.x);
        for (int sgn = 0; sgn < 2; ++sgn) {
            vec2s g = sgn ? v2_neg(dir) : dir;
            bool in = (g.x <= 0.0f || open[0]) && (g.x >= 0.0f || open[1]) &&
                      (g.y <= 0.0f || open[2]) && (g.y >= 0.0f || open[3]);
            if (in) u->gen[u->ng++] = g;
        }
    }
}

/// U's support along unit d; false when it is unbounded (a push along d
/// would cross a blocked side).
static bool uset_support(const tc_uset *u, vec2s d, float *h) {
    for (int i = 0; i < u->ng; ++i) {
        if (v2_dot(d, u->gen[i]) > TC_LEAN) return false;
    }
    float m = -TC_INF;
    for (int i = 0; i < u->nv; ++i) m = maxf(m, v2_dot(d, u->v[i]));
    *h = m;
    return true;
}

/// U's support along unit d, false when unbounded. FULL and HALF tiles
/// with blocked sides are axis-aligned boxes with some sides at infinity:
/// a closed form (the finite extremes stand in for the infinite sides along
/// directions perpendicular to them, as T's vertices do in the general case).
static bool u_support(const tc_ptile *t, const tc_uset *u, vec2s d, float *h) {
    if (!t->axis_box) return uset_support(u, d, h);
    vec2s lo = t->ulo, hi = t->uhi;
    if ((d.x > TC_LEAN && hi.x == TC_INF) || (d.x < -TC_LEAN && lo.x == -TC_INF) ||
        (d.y > TC_LEAN && hi.y == TC_INF) || (d.y < -TC_LEAN && lo.y == -TC_INF)) {
        return false;
    }
    vec2s tl = v2_scale(t->g->bounds.lower, t->s), th = v2_scale(t->g->bounds.upper, t->s);
    float x0 = isfinite(lo.x) ? lo.x : tl.x, x1 = isfinite(hi.x) ? hi.x : th.x;
    float y0 = isfinite(lo.y) ? lo.y : tl.y, y1 = isfinite(hi.y) ? hi.y : th.y;
    *h = maxf(d.x * x0, d.x * x1) + maxf(d.y * y0, d.y * y1);
    return true;
}

// The candidate directions of a box against a polygonal tile: the world
// axes (the box's faces and the tile's axis faces) and the slope normal.
// Together with the tile's true extents on the axes this includes N's
// "lift onto the half-height step" of the small 22/67 tiles.
static bool box_vs_ptile(const tc_ptile *t, vec2s bl, vec2s bh, tc_push *out) {
    const ledge__tile_geom *g = t->g;
    vec2s tl = v2_scale(g->bounds.lower, t->s), th = v2_scale(g->bounds.upper, t->s);
    vec2s c = v2_scale(v2_add(bl, bh), 0.5f), h = v2_scale(v2_sub(bh, bl), 0.5f);
    vec2s dirs[5] = {{{1.0f, 0.0f}}, {{-1.0f, 0.0f}}, {{0.0f, 1.0f}}, {{0.0f, -1.0f}}, t->n};
    float d[5] = {th.x - bl.x, bh.x - tl.x, th.y - bl.y, bh.y - tl.y, TC_INF};
    bool slope = t->plane && t->n.x != 0.0f && t->n.y != 0.0f;
    float box_lo_n = v2_dot(t->n, c) - (h.x * fabsf(t->n.x) + h.y * fabsf(t->n.y));
    if (slope) d[4] = t->o - box_lo_n;
    for (int k = 0; k < 5; ++k) {
        if (!(d[k] > 0.0f)) return false;
    }
    if (t->block && t->axis_box) {
        // U is an axis-aligned box: a blocked side the solid reaches is gone.
        d[0] = t->uhi.x - bl.x;
        d[1] = bh.x - t->ulo.x;
        d[2] = t->uhi.y - bl.y;
        d[3] = bh.y - t->ulo.y;
    } else if (t->block) {
        tc_uset u;
        uset_build(t, &u);
        for (int k = 0; k < 5; ++k) {
            float hu, lo = v2_dot(dirs[k], c) - (h.x * fabsf(dirs[k].x) + h.y * fabsf(dirs[k].y));
            d[k] = uset_support(&u, dirs[k], &hu) ? hu - lo : TC_INF;
        }
    }
    *out = tc_no_push();
    for (int k = 0; k < 5; ++k) tc_consider(out, dirs[k], d[k], TC_SUPPORT, -1, -1);
    return out->depth < TC_INF;
}

// Polygon against a polygonal tile: one-sided SAT over the tile's faces and
// the polygon's faces reversed (the Minkowski difference's normals), plus
// the world axes when blocked (the walls of an extrusion). One pass: each
// direction's projection of the polygon serves both the overlap test
// against T and the push against U.
static bool poly_vs_ptile(const tc_ptile *t, const tc_poly *p, tc_push *out) {
    static const vec2s axes[4] = {{{1.0f, 0.0f}}, {{-1.0f, 0.0f}}, {{0.0f, 1.0f}}, {{0.0f, -1.0f}}};
    const ledge__tile_geom *g = t->g;
    tc_uset u;
    if (t->block && !t->axis_box) uset_build(t, &u);
    *out = tc_no_push();
    int faces = g->count + p->n, total = faces + (t->block ? 4 : 0);
    for (int i = 0; i < total; ++i) {
        vec2s d;
        float ht = 0.0f, lo; // T's support and the polygon's smallest projection along d
        if (i < g->count) {
            d = g->normals[i];
            ht = v2_dot(d, t->v[i]);
            lo = tc_poly_min(p, d);
        } else if (i < faces) {
            int k = i - g->count;
            d = v2_neg(p->nrm[k]);
            lo = -v2_dot(p->nrm[k], p->v[k]);
            ht = -TC_INF;
            for (int j = 0; j < g->count; ++j) ht = maxf(ht, v2_dot(d, t->v[j]));
        } else {
            d = axes[i - faces];
            lo = tc_poly_min(p, d);
        }
        if (i < faces && !(ht - lo > 0.0f)) return false; // a separating axis of T
        float hu = ht;
        if (t->block && !u_support(t, &u, d, &hu)) continue;
        tc_consider(out, d, hu - lo, TC_SUPPORT, -1, -1);
    }
    return out->depth < TC_INF;
}

// --- dispatch ----------------------------------------------------------------

/// Fills the manifold from a push in the cell frame. A push of depth 0 is
/// a touch, not a hit: the tests' strict comparisons can pass on an overlap
/// that the depth's arithmetic rounds away (a box whose side sat 1.7e-39 m
/// into a tile), and a hit promises a positive depth.
static void finish(ledge_manifold *m, const tc_push *p, vec2s cell_min, const vec2s *pts, int n) {
    if (!(p->depth > 0.0f)) return;
    m->hit = true;
    m->normal = p->normal;
    m->depth = p->depth;
    m->point_count = n;
    for (int i = 0; i < n; ++i) m->points[i] = v2_add(pts[i], cell_min);
}

static float shape_extent(const ledge_shape *shape) {
    vec2s e = v2_sub(shape->bounds.upper, shape->bounds.lower);
    return maxf(e.x, e.y);
}

static void collide_polygonal(const ledge__tile_geom *g, const tc_ptile *made, vec2s cell_min,
                              float s, unsigned blocked, const ledge_shape *shape, vec2s off,
                              ledge_manifold *m) {
    tc_ptile own;
    const tc_ptile *t = made;
    if (t == NULL) {
        ledge__ptile_init(g, s, blocked, &own);
        t = &own;
    }
    tc_push p;
    vec2s pts[2];
    if (shape->type == LEDGE_SHAPE_CIRCLE) {
        vec2s c = v2_add(off, shape->center);
        if (!circle_vs_ptile(t, c, shape->radius, &p)) return;
        pts[0] = v2_sub(c, v2_scale(p.normal, shape->radius - 0.5f * p.depth));
        finish(m, &p, cell_min, pts, 1);
        return;
    }
    tc_poly poly;
    bool hit;
    if (shape->type == LEDGE_SHAPE_BOX) {
        hit =
            box_vs_ptile(t, v2_add(shape->bounds.lower, off), v2_add(shape->bounds.upper, off), &p);
    } else {
        tc_poly_place(shape, off, &poly);
        hit = poly_vs_ptile(t, &poly, &p);
    }
    if (!hit) return;
    if (shape->type == LEDGE_SHAPE_BOX) tc_poly_place(shape, off, &poly);
    float tol = 1.0e-4f * (s + shape_extent(shape));
    int n = support_points(&p, t->v, g->count, &poly, tol, pts);
    finish(m, &p, cell_min, pts, n);
}

/// A box or polygon against a round tile, in the tile's (u, v) frame:
/// the push and its contact points.
static bool round_polygonal(const ledge_shape *shape, vec2s off, const tc_frame *f, float s,
                            bool convex, bool bu, bool bv, tc_push *p, vec2s pts[2], int *n) {
    tc_poly local, poly;
    tc_poly_place(shape, off, &local);
    tc_poly_to_uv(&local, f, &poly);
    float scale = s + shape_extent(shape);
    bool hit;
    if (shape->type == LEDGE_SHAPE_BOX) {
        vec2s a = tc_to_uv(f, v2_add(shape->bounds.lower, off));
        vec2s b = tc_to_uv(f, v2_add(shape->bounds.upper, off));
        vec2s bl = v2(minf(a.x, b.x), minf(a.y, b.y)), bh = v2(maxf(a.x, b.x), maxf(a.y, b.y));
        hit = convex ? ledge__round_box_vs_convex(bl, bh, s, bu, bv, p)
                     : ledge__round_box_vs_concave(bl, bh, s, bu, bv, p);
        if (hit && p->contact == TC_VERTEX) { // the corner nearest R touches the arc
            pts[0] = v2_add(bl, v2_scale(p->normal, 0.5f * p->depth));
            *n = 1;
            return true;
        }
    } else {
        hit = convex ? ledge__round_poly_vs_convex(&poly, s, bu, bv, p)
                     : ledge__round_poly_vs_concave(&poly, s, bu, bv, 2.0e-6f * scale, p);
    }
    if (!hit) return false;
    if (p->contact != TC_SUPPORT) {
        vec2s tips[2] = {{{s, 0.0f}}, {{0.0f, s}}};
        *n = feature_points(p, &poly, tips, pts);
        return true;
    }
    // Projected supports: the tile's hull R, P, Q, or the arc's point facing
    // the push when it lies in the arc's range (CONVEX).
    vec2s tp[3] = {{{0.0f, 0.0f}}, {{s, 0.0f}}, {{0.0f, s}}};
    int tn = 3;
    if (convex && p->normal.x > 0.0f && p->normal.y > 0.0f) {
        tp[0] = v2_scale(p->normal, s);
        tn = 1;
    }
    *n = support_points(p, tp, tn, &poly, 1.0e-4f * scale, pts);
    return true;
}

static void collide_round(const ledge__tile_geom *g, vec2s cell_min, float s, unsigned blocked,
                          const ledge_shape *shape, vec2s off, ledge_manifold *m) {
    tc_frame f = {v2(0.5f * (1.0f - g->sx) * s, 0.5f * (1.0f - g->sy) * s), g->sx, g->sy};
    bool bu = (blocked & (g->sx > 0.0f ? LEDGE_SIDE_XNEG : LEDGE_SIDE_XPOS)) != 0;
    bool bv = (blocked & (g->sy > 0.0f ? LEDGE_SIDE_YNEG : LEDGE_SIDE_YPOS)) != 0;
    bool convex = g->arc == LEDGE__ARC_CONVEX;
    tc_push p;
    vec2s pts[2];
    int n = 1;
    if (shape->type == LEDGE_SHAPE_CIRCLE) {
        vec2s c = tc_to_uv(&f, v2_add(off, shape->center));
        float r = shape->radius;
        bool hit = convex ? ledge__round_circle_vs_convex(c, r, s, bu, bv, &p)
                          : ledge__round_circle_vs_concave(c, r, s, bu, bv, &p);
        if (!hit) return;
        pts[0] = v2_sub(c, v2_scale(p.normal, r - 0.5f * p.depth));
    } else if (!round_polygonal(shape, off, &f, s, convex, bu, bv, &p, pts, &n)) {
        return;
    }
    for (int i = 0; i < n; ++i) pts[i] = tc_from_uv(&f, pts[i]);
    p.normal = tc_dir_uv(&f, p.normal);
    finish(m, &p, cell_min, pts, n);
}

ledge_manifold ledge__tile_collide(const ledge__tile_geom *g, const ledge__ptile *made,
                                   vec2s cell_min, float size, unsigned blocked,
                                   const ledge_shape *shape, vec2s pos) {
    ledge_manifold m;
    memset(&m, 0, sizeof m);
    if (g->group == LEDGE_TILE_GROUP_EMPTY) return m;
    vec2s off = v2_sub(pos, cell_min);
    // Cheap rejection on the bounds of the shape and of the solid.
    vec2s lo = v2_add(shape->bounds.lower, off), hi = v2_add(shape->bounds.upper, off);
    if (lo.x >= g->bounds.upper.x * size || hi.x <= g->bounds.lower.x * size ||
        lo.y >= g->bounds.upper.y * size || hi.y <= g->bounds.lower.y * size) {
        return m;
    }
    if (g->arc == LEDGE__ARC_NONE) {
        collide_polygonal(g, made, cell_min, size, blocked & 15u, shape, off, &m);
    } else {
        collide_round(g, cell_min, size, blocked & g->full_sides, shape, off, &m);
    }
    return m;
}

ledge_manifold ledge_collide_tile(ledge_tile tile, vec2s cell_min, float size, unsigned blocked,
                                  const ledge_shape *shape, vec2s pos) {
    static const char *fn = "ledge_collide_tile";
    ledge_manifold none;
    memset(&none, 0, sizeof none);
    if (!ledge__check_tile(fn, tile)) return none;
    if (!ledge__check_vec(fn, "cell_min", cell_min, LEDGE_MAX_COORDINATE) ||
        !ledge__check_size(fn, "size", size)) {
        return none;
    }
    if (blocked & ~15u) {
        LEDGE_ERROR("%s: blocked is 0x%x (must be a set of LEDGE_SIDE_ bits, 0x0..0xf)", fn,
                    blocked);
        return none;
    }
    if (!ledge_shape_is_valid(shape)) {
        LEDGE_ERROR("%s: shape is NULL or invalid", fn);
        return none;
    }
    if (!ledge__check_vec(fn, "pos", pos, LEDGE_MAX_COORDINATE)) return none;
    ledge__tile_geom g;
    ledge__tile_geom_of(tile, &g);
    return ledge__tile_collide(&g, NULL, cell_min, size, blocked, shape, pos);
}
