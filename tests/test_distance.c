// Distance queries (distance.h) against an oracle written here in double
// precision from raw geometry: exact point-segment and segment-segment
// distances, point-in-polygon, and for round tiles the arc flattened into
// ORACLE_ARC_SEGMENTS chords. Thousands of seeded random circles, boxes,
// right triangles and convex polygons; every tile id with every set of
// blocked sides; random tilemaps; random worlds against brute force.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "distance.h"
#include "log_capture.h"
#include "oracle.h"
#include "random_shapes.h"
#include "shape.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

/// Chords of a flattened arc in the tile oracle: the chord's sagitta,
/// r (1 - cos(pi / 4 / N)), is 2e-7 of the tile size at N = 1024.
#define ORACLE_ARC_SEGMENTS 1024

static int g_failures_reported;

// --- the oracle ----------------------------------------------------------------

typedef struct dpt {
    double x, y;
} dpt;

/// A shape in world space in double: a circle or a convex polygon (either
/// winding), or a loose set of boundary segments (a tile's outline).
typedef struct oshp {
    bool circle;
    double cx, cy, r;
    int n;
    dpt p[ORACLE_ARC_SEGMENTS + 8];
} oshp;

static double point_segment(dpt p, dpt a, dpt b, dpt *closest) {
    double ex = b.x - a.x, ey = b.y - a.y, l2 = ex * ex + ey * ey;
    double t = l2 > 0.0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey) / l2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    dpt q = {a.x + t * ex, a.y + t * ey};
    if (closest) *closest = q;
    return hypot(p.x - q.x, p.y - q.y);
}

static double orient(dpt a, dpt b, dpt c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

static bool segments_cross(dpt a, dpt b, dpt c, dpt d) {
    double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    return ((o1 > 0) != (o2 > 0)) && ((o3 > 0) != (o4 > 0)) && o1 != 0 && o2 != 0 && o3 != 0 &&
           o4 != 0;
}

static double segment_segment(dpt a, dpt b, dpt c, dpt d) {
    if (segments_cross(a, b, c, d)) return 0.0;
    double m = point_segment(a, c, d, NULL);
    m = fmin(m, point_segment(b, c, d, NULL));
    m = fmin(m, point_segment(c, a, b, NULL));
    return fmin(m, point_segment(d, a, b, NULL));
}

static bool in_convex(const oshp *s, dpt p) {
    bool pos = false, neg = false;
    for (int i = 0; i < s->n; ++i) {
        double o = orient(s->p[i], s->p[(i + 1) % s->n], p);
        pos |= o > 0.0;
        neg |= o < 0.0;
    }
    return !(pos && neg);
}

/// Distance from p to the boundary of s.
static double boundary_distance(const oshp *s, dpt p) {
    if (s->circle) return fabs(hypot(p.x - s->cx, p.y - s->cy) - s->r);
    double m = INFINITY;
    for (int i = 0; i < s->n; ++i)
        m = fmin(m, point_segment(p, s->p[i], s->p[(i + 1) % s->n], NULL));
    return m;
}

/// Distance between two convex shapes: 0 when they overlap.
static double convex_distance(const oshp *a, const oshp *b) {
    if (a->circle && b->circle) {
        return fmax(hypot(a->cx - b->cx, a->cy - b->cy) - a->r - b->r, 0.0);
    }
    if (b->circle) return convex_distance(b, a);
    if (a->circle) {
        dpt c = {a->cx, a->cy};
        if (in_convex(b, c)) return 0.0;
        return fmax(boundary_distance(b, c) - a->r, 0.0);
    }
    if (in_convex(b, a->p[0]) || in_convex(a, b->p[0])) return 0.0;
    double m = INFINITY;
    for (int i = 0; i < a->n; ++i) {
        for (int j = 0; j < b->n; ++j) {
            m = fmin(m,
                     segment_segment(a->p[i], a->p[(i + 1) % a->n], b->p[j], b->p[(j + 1) % b->n]));
        }
    }
    return m;
}

static oshp oshp_of(const ledge_shape *s, vec2s pos) {
    static oshp o;
    memset(&o, 0, sizeof o);
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        o.circle = true;
        o.cx = (double)pos.x + s->center.x;
        o.cy = (double)pos.y + s->center.y;
        o.r = s->radius;
        return o;
    }
    o.n = s->count;
    for (int i = 0; i < s->count; ++i) {
        o.p[i] = (dpt){(double)pos.x + s->vertices[i].x, (double)pos.y + s->vertices[i].y};
    }
    return o;
}

static double oshp_extent(const oshp *s) {
    if (s->circle) return 2.0 * s->r;
    double lx = INFINITY, ly = INFINITY, ux = -INFINITY, uy = -INFINITY;
    for (int i = 0; i < s->n; ++i) {
        lx = fmin(lx, s->p[i].x);
        ux = fmax(ux, s->p[i].x);
        ly = fmin(ly, s->p[i].y);
        uy = fmax(uy, s->p[i].y);
    }
    return fmax(ux - lx, uy - ly);
}

// --- random shapes -------------------------------------------------------------

enum { KIND_TRIANGLE = KIND_COUNT, KIND_ALL };
static const char *const all_kind_names[] = {"circle", "box", "polygon", "right triangle"};

// A right triangle with legs along the axes, turned to one of four facings.
static ledge_shape right_triangle(void) {
    float w = rng_range(0.2, 3.0), h = rng_range(0.2, 3.0);
    vec2s o = rng_vec(-1, 1);
    int q = rng_int(0, 3);
    float sx = (q & 1) ? -1.0f : 1.0f, sy = (q & 2) ? -1.0f : 1.0f;
    vec2s p[3] = {o, v(o.x + sx * w, o.y), v(o.x, o.y + sy * h)};
    ledge_shape s;
    assert_true(ledge_make_polygon(p, 3, &s));
    return s;
}

static ledge_shape any_shape(int kind) {
    return kind == KIND_TRIANGLE ? right_triangle() : random_shape(kind);
}

// A shape of the kind 0.1 to 1.5 cells of `size` across, around its origin.
static ledge_shape cell_shape(int kind, float size) {
    ledge_shape s = any_shape(kind);
    double k = size * rng_range(0.1, 1.5) /
               fmax(s.bounds.upper.x - s.bounds.lower.x, s.bounds.upper.y - s.bounds.lower.y);
    if (s.type == LEDGE_SHAPE_CIRCLE) return ledge_make_circle(v(0, 0), (float)(s.radius * k));
    vec2s c =
        v((s.bounds.lower.x + s.bounds.upper.x) / 2, (s.bounds.lower.y + s.bounds.upper.y) / 2);
    vec2s p[8];
    for (int j = 0; j < s.count; ++j) {
        p[j] = v((float)((s.vertices[j].x - c.x) * k), (float)((s.vertices[j].y - c.y) * k));
    }
    assert_true(ledge_make_polygon(p, s.count, &s));
    return s;
}

// --- checks ----------------------------------------------------------------------

static bool near(double x, double y, double tol) {
    return fabs(x - y) <= tol;
}

static double vlen(vec2s a) {
    return hypot(a.x, a.y);
}

static void fail_pair(const char *what, int ka, int kb, int i, double got, double want) {
    if (g_failures_reported++ < 10) {
        print_error("%s vs %s case %d: %s: got %.9g, want %.9g\n", all_kind_names[ka],
                    all_kind_names[kb], i, what, got, want);
    }
}

// The same shape in oracle.h's terms (its Minkowski difference gives the
// overlap depth along any direction).
static oshape to_oracle(const oshp *s) {
    if (s->circle) return oracle_circle(odv(s->cx, s->cy), s->r);
    odvec p[ORACLE_MAX_POINTS];
    for (int i = 0; i < s->n; ++i) p[i] = odv(s->p[i].x, s->p[i].y);
    return oracle_polygon(p, s->n);
}

// Checks one pair against the oracle; returns 0 (apart), 1 (overlap) or 2
// (too close to call), and counts failures.
static int check_pair(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb, int ka,
                      int kb, int i, int *fails) {
    static oshp oa, ob;
    oa = oshp_of(a, pa);
    ob = oshp_of(b, pb);
    double size = fmax(oshp_extent(&oa), oshp_extent(&ob));
    double tol = 1e-5 * size;
    double want = convex_distance(&oa, &ob);
    ledge_distance_result r = ledge_shape_distance(a, pa, b, pb);
    int before = *fails;
    if (!near(vlen(r.normal), 1.0, 1e-5))
        ++*fails, fail_pair("|normal|", ka, kb, i, vlen(r.normal), 1);
    double ba = boundary_distance(&oa, (dpt){r.point_a.x, r.point_a.y});
    double bb = boundary_distance(&ob, (dpt){r.point_b.x, r.point_b.y});
    if (ba > tol) ++*fails, fail_pair("point_a off a's boundary by", ka, kb, i, ba, 0);
    if (bb > tol) ++*fails, fail_pair("point_b off b's boundary by", ka, kb, i, bb, 0);
    vec2s d = v(r.point_b.x - r.point_a.x, r.point_b.y - r.point_a.y);
    int kind = 2;
    if (want > tol) {
        kind = 0;
        if (!near(r.distance, want, tol))
            ++*fails, fail_pair("distance", ka, kb, i, r.distance, want);
        if (!near(vlen(d), r.distance, tol))
            ++*fails, fail_pair("|pb - pa|", ka, kb, i, vlen(d), r.distance);
        double along = (double)d.x * r.normal.x + (double)d.y * r.normal.y;
        if (!near(along, r.distance, tol))
            ++*fails, fail_pair("(pb - pa).normal", ka, kb, i, along, r.distance);
    } else {
        odvec n;
        oshape xa = to_oracle(&oa), xb = to_oracle(&ob);
        double depth = oracle_depth(&xa, &xb, &n);
        if (r.distance != 0.0f && !(r.distance <= tol))
            ++*fails, fail_pair("distance (touching)", ka, kb, i, r.distance, 0);
        if (depth > tol) {
            kind = 1;
            if (r.distance != 0.0f)
                ++*fails, fail_pair("distance (overlap)", ka, kb, i, r.distance, 0);
            // The normal is a minimum translation direction: b moved along
            // it by the depth just touches a.
            static omdiff md;
            oracle_mdiff(&xa, &xb, &md);
            double s = oracle_mdiff_support(&md, odv(r.normal.x, r.normal.y));
            if (!near(s, depth, tol))
                ++*fails, fail_pair("overlap along normal", ka, kb, i, s, depth);
            if (!near(vlen(d), depth, tol))
                ++*fails, fail_pair("|pa - pb| (overlap)", ka, kb, i, vlen(d), depth);
            double along = -((double)d.x * r.normal.x + (double)d.y * r.normal.y);
            if (!near(along, depth, tol))
                ++*fails, fail_pair("(pa - pb).normal", ka, kb, i, along, depth);
        }
    }
    if (*fails != before && g_failures_reported <= 10) {
        ledge_manifold mm = ledge_collide(a, pa, b, pb);
        print_error("  ledge_collide: hit %d n=(%.9g, %.9g) depth %.9g, %d points\n", mm.hit,
                    (double)mm.normal.x, (double)mm.normal.y, (double)mm.depth, mm.point_count);
        for (int q = 0; q < oa.n; ++q)
            print_error("  a vertex (%.9g, %.9g)\n", oa.p[q].x, oa.p[q].y);
        for (int q = 0; q < ob.n; ++q)
            print_error("  b vertex (%.9g, %.9g)\n", ob.p[q].x, ob.p[q].y);
        print_error("  a at (%.9g, %.9g), b at (%.9g, %.9g); got d=%.9g pa=(%.9g, %.9g) pb=(%.9g, "
                    "%.9g) n=(%.9g, %.9g) it=%d\n",
                    (double)pa.x, (double)pa.y, (double)pb.x, (double)pb.y, (double)r.distance,
                    (double)r.point_a.x, (double)r.point_a.y, (double)r.point_b.x,
                    (double)r.point_b.y, (double)r.normal.x, (double)r.normal.y, r.iterations);
    }
    return kind;
}

// Every kind against every kind, b placed at random distances and
// directions from a: apart, overlapping and nested.
static void test_pairs_match_oracle(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0x18D157A4CEull;
    int fails = 0, counts[3] = {0, 0, 0};
    int per_pair = getenv("LEDGE_UNDER_VALGRIND") ? 300 : 1500;
    for (int ka = 0; ka < KIND_ALL; ++ka) {
        for (int kb = 0; kb < KIND_ALL; ++kb) {
            for (int i = 0; i < per_pair; ++i) {
                ledge_shape a = any_shape(ka), b = any_shape(kb);
                vec2s pa = rng_vec(-50, 50);
                double ang = rng_range(0, 2 * PI), dist = rng_range(0, 9);
                vec2s pb = v((float)(pa.x + dist * cos(ang)), (float)(pa.y + dist * sin(ang)));
                counts[check_pair(&a, pa, &b, pb, ka, kb, i, &fails)]++;
            }
        }
    }
    print_message("pairs: %d apart, %d overlapping, %d touching within tolerance\n", counts[0],
                  counts[1], counts[2]);
    assert_int_equal(fails, 0);
    assert_true(counts[0] > 3 * per_pair && counts[1] > 3 * per_pair); // both regimes exercised
}

// `s` scaled by k about its local origin.
static ledge_shape scaled(const ledge_shape *s, double k) {
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        return ledge_make_circle(v((float)(s->center.x * k), (float)(s->center.y * k)),
                                 (float)(s->radius * k));
    }
    vec2s p[LEDGE_MAX_POLYGON_VERTICES];
    for (int j = 0; j < s->count; ++j) {
        p[j] = v((float)(s->vertices[j].x * k), (float)(s->vertices[j].y * k));
    }
    ledge_shape out;
    assert_true(ledge_make_polygon(p, s->count, &out));
    return out;
}

// The same at other scales: millimetre-sized and hundred-unit shapes, the
// offsets scaled with them, the tolerance still 1e-5 of the shapes' size.
static void test_pairs_at_scales(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0x5CA1E5ull;
    static const double scales[] = {0.001, 0.05, 20.0, 500.0};
    int fails = 0, counts[3] = {0, 0, 0};
    int per_scale = getenv("LEDGE_UNDER_VALGRIND") ? 200 : 2000;
    for (int k = 0; k < 4; ++k) {
        double sc = scales[k];
        for (int i = 0; i < per_scale; ++i) {
            int ka = rng_int(0, KIND_ALL - 1), kb = rng_int(0, KIND_ALL - 1);
            ledge_shape a0 = any_shape(ka), b0 = any_shape(kb);
            ledge_shape a = scaled(&a0, sc), b = scaled(&b0, sc);
            vec2s pa = v((float)(rng_range(-3, 3) * sc), (float)(rng_range(-3, 3) * sc));
            double ang = rng_range(0, 2 * PI), dist = rng_range(0, 9) * sc;
            vec2s pb = v((float)(pa.x + dist * cos(ang)), (float)(pa.y + dist * sin(ang)));
            counts[check_pair(&a, pa, &b, pb, ka, kb, i, &fails)]++;
        }
    }
    print_message("scaled pairs: %d apart, %d overlapping, %d touching within tolerance\n",
                  counts[0], counts[1], counts[2]);
    assert_int_equal(fails, 0);
    assert_true(counts[0] > per_scale && counts[1] > per_scale);
}

// Polygons that make the closed forms and GJK's shortcuts work hardest:
// needles (a thin triangle 0.01 to 0.05 of its length across), fine
// 8-gons (near circles, short edges) and the usual random ones.
static ledge_shape hard_polygon(int which) {
    if (which == 0) {
        double len = rng_range(0.5, 4.0), h = len * rng_range(0.01, 0.05),
               rot = rng_range(0, 2 * PI);
        double px[3] = {0, len, rng_range(0.1, 0.9) * len}, py[3] = {0, 0, h};
        vec2s p[3];
        for (int i = 0; i < 3; ++i) {
            p[i] = v((float)(px[i] * cos(rot) - py[i] * sin(rot)),
                     (float)(px[i] * sin(rot) + py[i] * cos(rot)));
        }
        ledge_shape s;
        assert_true(ledge_make_polygon(p, 3, &s));
        return s;
    }
    if (which == 1) {
        double r = rng_range(0.3, 2.0), phase = rng_range(0, 2 * PI);
        vec2s p[8];
        for (int i = 0; i < 8; ++i) {
            double a = phase + 2 * PI * i / 8 + rng_range(-0.1, 0.1);
            p[i] = v((float)(r * cos(a)), (float)(r * sin(a)));
        }
        ledge_shape s;
        assert_true(ledge_make_polygon(p, 8, &s));
        return s;
    }
    return any_shape(which == 2 ? KIND_POLYGON : KIND_TRIANGLE);
}

// A point of the polygon's boundary (a vertex or a point of a face) and a
// unit direction in its normal cone (a face's normal; at a vertex, between
// its two faces' normals, ends included): the point is then the nearest
// point of the polygon to every point along the direction.
static void boundary_feature(const ledge_shape *s, vec2s *point, vec2s *dir) {
    int i = rng_int(0, s->count - 1), prev = i == 0 ? s->count - 1 : i - 1;
    if (rng_int(0, 1) == 0) { // a face, sometimes exactly at its ends
        int j = i + 1 == s->count ? 0 : i + 1, e = rng_int(0, 4);
        double t = e == 0 ? 0.0 : e == 1 ? 1.0 : rng_unit();
        *point = v((float)(s->vertices[i].x + t * (s->vertices[j].x - s->vertices[i].x)),
                   (float)(s->vertices[i].y + t * (s->vertices[j].y - s->vertices[i].y)));
        *dir = s->normals[i];
        return;
    }
    vec2s n0 = s->normals[prev], n1 = s->normals[i];
    double a0 = atan2(n0.y, n0.x), a1 = atan2(n1.y, n1.x);
    if (a1 < a0) a1 += 2 * PI;
    int e = rng_int(0, 4);
    double a = e == 0 ? a0 : e == 1 ? a1 : rng_range(a0, a1);
    *point = s->vertices[i];
    *dir = v((float)cos(a), (float)sin(a));
}

// Circles and polygons placed by feature: the circle's centre in a chosen
// vertex's or face's region at gaps from -radius (overlap) through 0
// (touching) to apart, tiny circles on the boundary and inside, and
// circles swallowing the polygon; polygon pairs with b's support point put
// on a's chosen feature at such gaps (vertex on vertex, vertex on face,
// face on face). Both orders of every pair, against the oracle.
static void test_features_match_oracle(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0xFEA7u;
    int fails = 0, counts[3] = {0, 0, 0};
    int n = getenv("LEDGE_UNDER_VALGRIND") ? 400 : 4000;
    for (int i = 0; i < n; ++i) {
        ledge_shape a = hard_polygon(rng_int(0, 3));
        vec2s pa = rng_vec(-20, 20), point, dir;
        boundary_feature(&a, &point, &dir);
        int g = rng_int(0, 5);
        double size = a.bounds.upper.x - a.bounds.lower.x;
        double gap = g == 0 ? 0.0 : g == 1 ? 1e-3 * size : rng_range(-0.5, 3.0) * size;
        // A circle (some nearly points) whose nearest point of a is `point`.
        double rad = (rng_int(0, 3) == 0 ? 1e-3 : rng_range(0.05, 2.0)) * size;
        if (rng_int(0, 9) == 0) rad = 3.0 * size; // swallows a
        ledge_shape c = ledge_make_circle(v(0, 0), (float)rad);
        double off = rad + gap < 0 ? 0.0 : rad + gap;
        vec2s pc = v((float)(pa.x + point.x + dir.x * off), (float)(pa.y + point.y + dir.y * off));
        if (rng_int(0, 7) == 0) pc = v(pa.x + a.center.x, pa.y + a.center.y); // inside
        counts[check_pair(&a, pa, &c, pc, KIND_POLYGON, KIND_CIRCLE, i, &fails)]++;
        counts[check_pair(&c, pc, &a, pa, KIND_CIRCLE, KIND_POLYGON, i, &fails)]++;
        // A polygon b whose support point against dir lands at the gap.
        ledge_shape b = hard_polygon(rng_int(0, 3));
        int k = 0;
        for (int j = 1; j < b.count; ++j) {
            if (b.vertices[j].x * -dir.x + b.vertices[j].y * -dir.y >
                b.vertices[k].x * -dir.x + b.vertices[k].y * -dir.y)
                k = j;
        }
        vec2s pb = v((float)(pa.x + point.x + dir.x * gap - b.vertices[k].x),
                     (float)(pa.y + point.y + dir.y * gap - b.vertices[k].y));
        counts[check_pair(&a, pa, &b, pb, KIND_POLYGON, KIND_POLYGON, i, &fails)]++;
        counts[check_pair(&b, pb, &a, pa, KIND_POLYGON, KIND_POLYGON, i, &fails)]++;
    }
    print_message("features: %d apart, %d overlapping, %d touching within tolerance\n", counts[0],
                  counts[1], counts[2]);
    assert_int_equal(fails, 0);
    assert_true(counts[0] > n && counts[1] > n / 2 && counts[2] > n / 4); // every regime
}

// Circle-polygon's closed form, region by region: for polygons of every
// vertex count 3 to 8 (and boxes made as polygons), built from the same
// points with y up and y down (mirrored, which ledge_make_polygon turns
// counter-clockwise again), a circle centred in the region of every face
// (at its middle and near both ends) and of every vertex (both ends of its
// normal cone and between), at gaps from overlapping through touching to
// far; both orders of the pair, against the oracle.
static void test_circle_polygon_regions(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0xC1BC7Eu;
    int fails = 0, cases = 0, counts[3] = {0, 0, 0};
    static const double gaps[] = {-0.4, -1e-3, 0.0, 1e-4, 0.02, 0.7, 6.0};
    for (int count = 3; count <= 9; ++count) { // 9: a box as a 4-gon
        for (int rep = 0; rep < 6; ++rep) {
            int n = count == 9 ? 4 : count;
            double r = rng_range(0.3, 2.0), phase = rng_range(0, 2 * PI);
            double squash = count == 9 ? 1.0 : rng_range(0.4, 1.0);
            vec2s p[8];
            for (int i = 0; i < n; ++i) {
                double t = count == 9 ? PI / 4 + PI / 2 * i // an axis-aligned square
                                      : phase + 2 * PI * i / n + rng_range(-0.2, 0.2) * 2 * PI / n;
                p[i] = v((float)(r * cos(t)), (float)(r * squash * sin(t)));
            }
            for (int flipy = 0; flipy < 2; ++flipy) {
                vec2s q[8];
                for (int i = 0; i < n; ++i) q[i] = v(p[i].x, flipy ? -p[i].y : p[i].y);
                ledge_shape a;
                if (!ledge_make_polygon(q, n, &a)) continue;
                vec2s pa = rng_vec(-30, 30);
                double size = a.bounds.upper.x - a.bounds.lower.x;
                for (int f = 0; f < a.count; ++f) {
                    int g = f + 1 == a.count ? 0 : f + 1, prev = f == 0 ? a.count - 1 : f - 1;
                    vec2s n0 = a.normals[prev], n1 = a.normals[f];
                    double a0 = atan2(n0.y, n0.x), a1 = atan2(n1.y, n1.x);
                    if (a1 < a0) a1 += 2 * PI;
                    for (int k = 0; k < 6; ++k) {
                        // k < 3: face f at t = 0.5, 0.02, 0.98; else vertex f.
                        vec2s point = a.vertices[f], dir;
                        if (k < 3) {
                            double t = k == 0 ? 0.5 : k == 1 ? 0.02 : 0.98;
                            point = v(
                                (float)(a.vertices[f].x + t * (a.vertices[g].x - a.vertices[f].x)),
                                (float)(a.vertices[f].y + t * (a.vertices[g].y - a.vertices[f].y)));
                            dir = n1;
                        } else {
                            double t = k == 3 ? a0 + 1e-3 : k == 4 ? a1 - 1e-3 : 0.5 * (a0 + a1);
                            dir = v((float)cos(t), (float)sin(t));
                        }
                        for (size_t gi = 0; gi < sizeof gaps / sizeof gaps[0]; ++gi) {
                            double rad = 0.25 * size, gap = gaps[gi] * size;
                            double off = rad + gap < 0 ? 0.0 : rad + gap;
                            ledge_shape c = ledge_make_circle(v(0, 0), (float)rad);
                            vec2s pc = v((float)(pa.x + point.x + dir.x * off),
                                         (float)(pa.y + point.y + dir.y * off));
                            counts[check_pair(&a, pa, &c, pc, KIND_POLYGON, KIND_CIRCLE, cases,
                                              &fails)]++;
                            counts[check_pair(&c, pc, &a, pa, KIND_CIRCLE, KIND_POLYGON, cases,
                                              &fails)]++;
                            ++cases;
                        }
                    }
                }
            }
        }
    }
    print_message("circle-polygon regions: %d cases; %d apart, %d overlapping, %d touching\n",
                  cases, counts[0], counts[1], counts[2]);
    assert_int_equal(fails, 0);
    assert_true(cases > 3000 && counts[0] > cases && counts[1] > cases / 4 && counts[2] > 0);
}

// --- circle-polygon near vertices: ledge_collide and ledge_shape_distance agree ---

/// Signed distance from p to the convex polygon s (vertices counter-clockwise
/// in double, exact from the shape's floats): < 0 inside.
static double polygon_sd(const ledge_shape *s, dpt off, dpt p) {
    double m = INFINITY;
    bool inside = true;
    for (int i = 0; i < s->count; ++i) {
        int j = i + 1 == s->count ? 0 : i + 1;
        dpt a = {off.x + s->vertices[i].x, off.y + s->vertices[i].y};
        dpt b = {off.x + s->vertices[j].x, off.y + s->vertices[j].y};
        m = fmin(m, point_segment(p, a, b, NULL));
        inside &= orient(a, b, p) >= 0.0;
    }
    return inside ? -m : m;
}

/// Whether unit u lies in the normal cone of vertex k of s (between the
/// outward normals of the faces k-1 and k, computed in double from the
/// vertices), to within `tol` radians.
static bool in_vertex_cone(const ledge_shape *s, int k, dpt u, double tol) {
    int p = k == 0 ? s->count - 1 : k - 1, q = k + 1 == s->count ? 0 : k + 1;
    dpt e0 = {s->vertices[k].x - (double)s->vertices[p].x,
              s->vertices[k].y - (double)s->vertices[p].y};
    dpt e1 = {s->vertices[q].x - (double)s->vertices[k].x,
              s->vertices[q].y - (double)s->vertices[k].y};
    double l0 = hypot(e0.x, e0.y), l1 = hypot(e1.x, e1.y);
    dpt n0 = {e0.y / l0, -e0.x / l0}, n1 = {e1.y / l1, -e1.x / l1};
    // Counter-clockwise from n0 to u, and from u to n1, on the side of
    // their bisector (the cone is under 180 degrees wide).
    return n0.x * u.y - n0.y * u.x >= -tol && u.x * n1.y - u.y * n1.x >= -tol &&
           (n0.x + n1.x) * u.x + (n0.y + n1.y) * u.y > 0.0;
}

/// One overlapping placement: polygon a at pa, circle c at pc (centre near
/// a's vertex k), both pair orders. Returns whether a check failed (the
/// first few printed with the mask of the failed checks).
static bool check_near_vertex(const ledge_shape *a, vec2s pa, const ledge_shape *c, vec2s pc, int k,
                              const char *where) {
    ledge_manifold m = ledge_collide(a, pa, c, pc);
    ledge_manifold mr = ledge_collide(c, pc, a, pa);
    ledge_distance_result r = ledge_shape_distance(a, pa, c, pc);
    ledge_distance_result rr = ledge_shape_distance(c, pc, a, pa);
    dpt off = {pa.x, pa.y}, cc = {(double)pc.x + c->center.x, (double)pc.y + c->center.y};
    double rad = c->radius, sd = polygon_sd(a, off, cc), want = rad - sd;
    double scale = fabs(pa.x) + fabs(pa.y) + fabs(pc.x) + fabs(pc.y) + rad;
    double tol = 4e-6 * scale;
    int fails = 0;
    if (!m.hit || !mr.hit || !(r.distance == 0.0f) || !(rr.distance == 0.0f)) {
        fails |= 1; // every placement overlaps by most of the radius
    } else {
        dpt u = {m.normal.x, m.normal.y};
        // The same push from all four calls: mirrored for the other order.
        if (memcmp(&r.normal, &m.normal, sizeof m.normal) != 0 || mr.normal.x != -m.normal.x ||
            mr.normal.y != -m.normal.y || rr.normal.x != -m.normal.x ||
            rr.normal.y != -m.normal.y || m.depth != mr.depth)
            fails |= 2;
        // distance.h: point_a - point_b = normal * depth.
        double gx = (double)r.point_a.x - r.point_b.x, gy = (double)r.point_a.y - r.point_b.y;
        if (fabs(gx - u.x * m.depth) > tol || fabs(gy - u.y * m.depth) > tol) fails |= 4;
        // The oracle: the depth is the exact one, the normal lies in the
        // vertex's cone, and b moved by normal * depth no longer overlaps.
        if (fabs(m.depth - want) > tol) fails |= 8;
        if (!in_vertex_cone(a, k, u, 1e-6)) fails |= 16;
        dpt moved = {cc.x + u.x * m.depth, cc.y + u.y * m.depth};
        if (polygon_sd(a, off, moved) < rad - tol) fails |= 32;
    }
    if (fails && g_failures_reported++ < 8) {
        print_message(
            "checks %#x failed near vertex %d (%s): pa (%.9g, %.9g) pc (%.9g, %.9g) r %.9g: "
            "collide hit %d n (%.9g, %.9g) depth %.9g; distance %.9g n (%.9g, %.9g); oracle "
            "depth %.9g\n",
            fails, k, where, (double)pa.x, (double)pa.y, (double)pc.x, (double)pc.y, rad, m.hit,
            (double)m.normal.x, (double)m.normal.y, (double)m.depth, (double)r.distance,
            (double)r.normal.x, (double)r.normal.y, want);
    }
    return fails != 0;
}

/// u scaled to length 1 (in double).
static vec2s unit_test_vec(vec2s u) {
    double l = hypot(u.x, u.y);
    return v((float)(u.x / l), (float)(u.y / l));
}

/// x moved by k ulps (k may be negative).
static float ulps(float x, int k) {
    for (; k > 0; --k) x = nextafterf(x, INFINITY);
    for (; k < 0; ++k) x = nextafterf(x, -INFINITY);
    return x;
}

// n points round an ellipse of half axes size and size * squash, each
// jittered by up to a fifth of its share of the turn; or, for a square, its
// four corners (no random numbers drawn).
static void ring_points(vec2s *p, int n, double size, double squash, double phase, bool square) {
    for (int i = 0; i < n; ++i) {
        double t = square ? PI / 4 + PI / 2 * i
                          : phase + 2 * PI * i / n + rng_range(-0.2, 0.2) * 2 * PI / n;
        p[i] = v((float)(size * cos(t)), (float)(size * squash * sin(t)));
    }
}

// The polygon of the ring (mirrored in y when flipy), or a ledge_make_box of
// 1.4 x 1.0 times size; false when ledge_make_polygon refuses the ring.
static bool ring_shape(const vec2s *p, int n, bool box, double size, int flipy, ledge_shape *a) {
    if (box) {
        *a = ledge_make_box(v(0, 0), v((float)(size * 0.7), (float)(size * 0.5)));
        return true;
    }
    vec2s q[8];
    for (int i = 0; i < n; ++i) q[i] = v(p[i].x, flipy ? -p[i].y : p[i].y);
    return ledge_make_polygon(q, n, a);
}

// Circle-polygon near every vertex of 3..8-gons and boxes (as ledge_make_box
// makes them and as 4-gons), y up and y down, at positions up to 1000:
// centres within a few ulps of the vertex, and within a few ulps of the
// lines the closed forms decide on near it (each face's extension past the
// vertex, and the vertex's two face normals, where a face's region ends),
// from inside the polygon to half the radius out. ledge_collide and
// ledge_shape_distance must give the same normal (both orders), and both
// the oracle's: the exact depth, a normal in the vertex's normal cone, and
// no overlap left after the push.
static void test_circle_polygon_near_vertices(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0xA61EE5u;
    int fails = 0, cases = 0;
    static const double dists[] = {1e-6, 1e-4, 0.01, 0.1, 0.5};
    for (int kind = 3; kind <= 10; ++kind) { // 9: a box as a 4-gon, 10: ledge_make_box
        for (int rep = 0; rep < 4; ++rep) {
            int n = kind >= 9 ? 4 : kind;
            double size = rng_range(0.3, 2.0), phase = rng_range(0, 2 * PI);
            double squash = kind >= 9 ? 1.0 : rng_range(0.4, 1.0);
            vec2s p[8];
            ring_points(p, n, size, squash, phase, kind >= 9);
            for (int flipy = 0; flipy < 2; ++flipy) {
                ledge_shape a;
                if (!ring_shape(p, n, kind == 10, size, flipy, &a)) continue;
                double ext = a.bounds.upper.x - a.bounds.lower.x;
                ledge_shape c = ledge_make_circle(v(0, 0), (float)(0.25 * ext));
                double mag = rep == 0 ? 0.0 : rep == 1 ? 28.0 : rep == 2 ? 300.0 : 1000.0;
                vec2s pa = rng_vec(-mag, mag);
                for (int k = 0; k < a.count; ++k) {
                    int f = k == 0 ? a.count - 1 : k - 1, g = k + 1 == a.count ? 0 : k + 1;
                    vec2s vk = a.vertices[k];
                    vec2s at = v(pa.x + vk.x, pa.y + vk.y);
                    // At the vertex, within 3 ulps each way.
                    for (int ix = -3; ix <= 3; ++ix) {
                        for (int iy = -3; iy <= 3; ++iy) {
                            vec2s pc = v(ulps(at.x, ix), ulps(at.y, iy));
                            fails += check_near_vertex(&a, pa, &c, pc, k, "at");
                            ++cases;
                        }
                    }
                    // Along the lines through the vertex: the two faces'
                    // extensions past it, its two face normals, their
                    // bisector, and the same into the polygon.
                    vec2s ein = unit_test_vec(v(vk.x - a.vertices[f].x, vk.y - a.vertices[f].y));
                    vec2s eout = unit_test_vec(v(vk.x - a.vertices[g].x, vk.y - a.vertices[g].y));
                    vec2s nb = unit_test_vec(
                        v(a.normals[f].x + a.normals[k].x, a.normals[f].y + a.normals[k].y));
                    vec2s dirs[7] = {ein,
                                     eout,
                                     a.normals[f],
                                     a.normals[k],
                                     nb,
                                     v(-nb.x, -nb.y),
                                     unit_test_vec(v(-ein.x - eout.x, -ein.y - eout.y))};
                    for (int di = 0; di < 7; ++di) {
                        for (size_t si = 0; si < sizeof dists / sizeof dists[0]; ++si) {
                            double s = dists[si] * c.radius;
                            if (di >= 5) s *= 0.2; // inside: stay near the vertex
                            vec2s base =
                                v((float)(at.x + dirs[di].x * s), (float)(at.y + dirs[di].y * s));
                            for (int j = -2; j <= 2; ++j) {
                                vec2s pc = v(ulps(base.x, j), ulps(base.y, -j));
                                fails += check_near_vertex(&a, pa, &c, pc, k, "line");
                                pc = v(ulps(base.x, j), ulps(base.y, j));
                                fails += check_near_vertex(&a, pa, &c, pc, k, "line");
                                cases += 2;
                            }
                        }
                    }
                }
            }
        }
    }
    print_message("circle-polygon near vertices: %d placements, %d failed checks\n", cases, fails);
    assert_int_equal(fails, 0);
    assert_true(cases > 30000);
}

// Ties between faces go to the first, as in ledge_collide: a circle at the
// centre of a square polygon (all four faces equally far) and on the
// diagonals gets face 0's (or the first tying face's) push, the same
// normal as ledge_collide's.
static void test_circle_polygon_ties(void **state) {
    (void)state;
    vec2s sq[4] = {v(-1, -1), v(1, -1), v(1, 1), v(-1, 1)};
    ledge_shape poly, c = ledge_make_circle(v(0, 0), 0.25f);
    assert_true(ledge_make_polygon(sq, 4, &poly));
    vec2s at[] = {v(0, 0), v(0.5f, 0.5f), v(-0.5f, 0.5f), v(-0.5f, -0.5f), v(0.5f, -0.5f)};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; ++i) {
        ledge_manifold m = ledge_collide(&poly, v(0, 0), &c, at[i]);
        ledge_distance_result r = ledge_shape_distance(&poly, v(0, 0), &c, at[i]);
        assert_true(m.hit && r.distance == 0.0f);
        assert_true(r.normal.x == m.normal.x && r.normal.y == m.normal.y);
        r = ledge_shape_distance(&c, at[i], &poly, v(0, 0));
        assert_true(r.normal.x == -m.normal.x && r.normal.y == -m.normal.y);
    }
    ledge_distance_result r = ledge_shape_distance(&poly, v(0, 0), &c, v(0, 0));
    assert_true(r.normal.x == poly.normals[0].x && r.normal.y == poly.normals[0].y);
}

// --- circle-polygon: the nearest-vertex way against the face scan ---

/// One placement, both orders: ledge_shape_distance (which answers apart
/// pairs from the vertex nearest the centre) against
/// ledge__polygon_circle_exact (the face of largest separation) bit for
/// bit, and both against the oracle. Counts the placements the two answer
/// with different bits in *differ (each still checked by the oracle).
static void check_fast_path(const ledge_shape *a, vec2s pa, const ledge_shape *c, vec2s pc,
                            int *cases, int *differ, int *apart, int *fails) {
    for (int order = 0; order < 2; ++order) {
        ledge_distance_result r =
            order ? ledge_shape_distance(c, pc, a, pa) : ledge_shape_distance(a, pa, c, pc);
        ledge_distance_result e = ledge__polygon_circle_exact(a, pa, c, pc, order == 1);
        // (ledge_make_box's boxes have their own closed form: oracle only.)
        if (a->type == LEDGE_SHAPE_POLYGON && memcmp(&r, &e, sizeof r) != 0) {
            ++*differ;
            if (g_failures_reported++ < 4) {
                print_message("fast path differs: pa (%.9g, %.9g) pc (%.9g, %.9g) r %.9g: d %.9g "
                              "n (%.9g, %.9g); exact d %.9g n (%.9g, %.9g)\n",
                              (double)pa.x, (double)pa.y, (double)pc.x, (double)pc.y,
                              (double)c->radius, (double)r.distance, (double)r.normal.x,
                              (double)r.normal.y, (double)e.distance, (double)e.normal.x,
                              (double)e.normal.y);
            }
        }
        if (r.distance > 0.0f) ++*apart;
        if (order)
            check_pair(c, pc, a, pa, KIND_CIRCLE, KIND_POLYGON, *cases, fails);
        else
            check_pair(a, pa, c, pc, KIND_POLYGON, KIND_CIRCLE, *cases, fails);
        ++*cases;
    }
}

// Circle-polygon pairs with the centre outside the polygon are answered
// from the vertex nearest the centre (its region, else one of its two
// faces) instead of the face of largest separation; the answer must be the
// same bits. Polygons of 3 to 8
// vertices, slivers, boxes (ledge_make_box's and 4-gons), from 1e-3 to 1e3
// units, y up and y down, at positions up to 1000; centres on and a few
// ulps either side of every line the two ways decide on: each vertex's two
// face normals (its region's edges), each face's extensions past both ends,
// the bisector, and faces at their middle and within 1e-6 of their ends;
// radii 0 (a point), small, just short of touching, touching and
// overlapping (a centre outside the polygon takes the shorter way whether
// or not the circle reaches it).
static void test_circle_polygon_fast_path(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0xFA57C1u;
    int fails = 0, cases = 0, differ = 0, apart = 0;
    bool valgrind = getenv("LEDGE_UNDER_VALGRIND") != NULL; // there one scale, y up
    static const double scales[] = {1e-3, 1.0, 1e3};
    static const double reach[] = {1e-6, 0.01, 0.5, 3.0};
    for (int kind = 3; kind <= 11; ++kind) { // 9: square 4-gon, 10: ledge_make_box, 11: sliver
        for (size_t si = valgrind ? 1 : 0; si < (valgrind ? 2 : sizeof scales / sizeof scales[0]);
             ++si) {
            int n = kind >= 9 && kind <= 10 ? 4 : kind == 11 ? 3 + (int)rng_range(0, 5.99) : kind;
            double size = scales[si] * rng_range(0.5, 2.0), phase = rng_range(0, 2 * PI);
            double squash = kind >= 9 && kind <= 10 ? 1.0 : kind == 11 ? 0.03 : rng_range(0.4, 1.0);
            vec2s p[8];
            ring_points(p, n, size, squash, phase, kind >= 9 && kind <= 10);
            for (int flipy = 0; flipy < (valgrind ? 1 : 2); ++flipy) {
                ledge_shape a;
                if (!ring_shape(p, n, kind == 10, size, flipy, &a)) continue;
                double ext = a.bounds.upper.x - a.bounds.lower.x;
                // Far from the origin only where a float's spacing there
                // is within the oracle's tolerance (1e-5 of the size).
                double mag = si == 2 ? 1000.0 : si == 1 && flipy ? 30.0 : 0.0;
                vec2s pa = rng_vec(-mag, mag);
                for (int k = 0; k < a.count; ++k) {
                    int f = k == 0 ? a.count - 1 : k - 1, g = k + 1 == a.count ? 0 : k + 1;
                    vec2s vk = a.vertices[k], vg = a.vertices[g];
                    vec2s ein = unit_test_vec(v(vk.x - a.vertices[f].x, vk.y - a.vertices[f].y));
                    vec2s eout = unit_test_vec(v(vk.x - vg.x, vk.y - vg.y));
                    vec2s nb = unit_test_vec(
                        v(a.normals[f].x + a.normals[k].x, a.normals[f].y + a.normals[k].y));
                    vec2s dirs[5] = {a.normals[f], a.normals[k], nb, ein, eout};
                    for (int di = 0; di < 8; ++di) {
                        for (size_t ri = 0; ri < sizeof reach / sizeof reach[0]; ++ri) {
                            double s = reach[ri] * ext;
                            vec2s base;
                            if (di < 5) { // from the vertex
                                base = v((float)(pa.x + vk.x + dirs[di].x * s),
                                         (float)(pa.y + vk.y + dirs[di].y * s));
                            } else { // off face k at its middle and near both ends
                                double t = di == 5 ? 0.5 : di == 6 ? 1e-6 : 1.0 - 1e-6;
                                base = v(
                                    (float)(pa.x + vk.x + t * (vg.x - vk.x) + a.normals[k].x * s),
                                    (float)(pa.y + vk.y + t * (vg.y - vk.y) + a.normals[k].y * s));
                            }
                            for (int j = -2; j <= 2; ++j) {
                                vec2s pc = v(ulps(base.x, j), ulps(base.y, j == 0 ? 0 : -j));
                                for (int rk = 0; rk < 5; ++rk) {
                                    // 0, a tenth of the gap, just short of
                                    // it, the gap (touching), beyond it
                                    double rad = rk == 0   ? 0.0
                                                 : rk == 1 ? 0.1 * s
                                                 : rk == 2 ? s * 0.9999
                                                 : rk == 3 ? s
                                                           : 1.5 * s;
                                    ledge_shape c = rk == 0
                                                        ? ledge__point_shape()
                                                        : ledge_make_circle(v(0, 0), (float)rad);
                                    check_fast_path(&a, pa, &c, pc, &cases, &differ, &apart,
                                                    &fails);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    print_message("circle-polygon fast path: %d queries (%d apart), %d with other bits than the "
                  "face scan's, %d oracle failures\n",
                  cases, apart, differ, fails);
    assert_int_equal(fails, 0);
    assert_int_equal(differ, 0);
    assert_true(cases > (valgrind ? 8000 : 50000) && apart > cases / 3 && apart < cases * 4 / 5);
}

// ledge_shape_distance against the face scan bit for bit (both orders),
// and the oracle; counts into *differ and *fails. Overlapping pairs also
// against ledge_collide: the same normal (mirrored for the other order).
static void check_bits(const ledge_shape *a, vec2s pa, const ledge_shape *c, vec2s pc, int *cases,
                       int *differ, int *fails) {
    int apart = 0;
    check_fast_path(a, pa, c, pc, cases, differ, &apart, fails);
    ledge_distance_result r = ledge_shape_distance(a, pa, c, pc);
    ledge_manifold m = ledge_collide(a, pa, c, pc);
    if (m.hit && (r.distance != 0.0f || r.normal.x != m.normal.x || r.normal.y != m.normal.y)) {
        ++*fails;
        if (g_failures_reported++ < 4) {
            print_message("collide disagrees: pa (%.9g, %.9g) pc (%.9g, %.9g) r %.9g: n (%.9g, "
                          "%.9g), collide (%.9g, %.9g)\n",
                          (double)pa.x, (double)pa.y, (double)pc.x, (double)pc.y, (double)c->radius,
                          (double)r.normal.x, (double)r.normal.y, (double)m.normal.x,
                          (double)m.normal.y);
        }
    }
}

// The nearest-vertex pass reads all 8 vertex entries at once and pads the
// ones past the count; what they hold must not count. Polygons of 3 to 7
// vertices whose unused entries (vertices and normals) hold NaN, +inf,
// -inf, 0, or the query's own centre (distance 0 from it: it would win if
// read): every query, centres all round inside and out, radii 0 to
// overlapping, both orders, gives the bits of the same polygon with the
// entries zeroed (as ledge_make_polygon leaves them).
static void test_circle_polygon_unused_slots(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0x5107u;
    int cases = 0, differ = 0, fails = 0;
    for (int n = 3; n <= LEDGE_MAX_POLYGON_VERTICES - 1; ++n) {
        for (int rep = 0; rep < 4; ++rep) {
            vec2s p[8];
            double size = rng_range(0.3, 2.0);
            ring_points(p, n, size, rng_range(0.4, 1.0), rng_range(0, 2 * PI), false);
            ledge_shape clean;
            if (!ledge_make_polygon(p, n, &clean)) continue;
            vec2s pa = rng_vec(-50, 50);
            for (int q = 0; q < 200; ++q) {
                vec2s pc = v((float)(pa.x + rng_range(-3, 3) * size),
                             (float)(pa.y + rng_range(-3, 3) * size));
                float rad = q % 3 == 0 ? 0.0f : (float)(size * (q % 3 == 1 ? 0.1 : 1.0));
                ledge_shape c = rad > 0.0f ? ledge_make_circle(v(0, 0), rad) : ledge__point_shape();
                vec2s local = v(pc.x - pa.x, pc.y - pa.y);
                const float fills[5][2] = {{NAN, NAN},
                                           {INFINITY, INFINITY},
                                           {-INFINITY, -INFINITY},
                                           {0.0f, 0.0f},
                                           {local.x, local.y}};
                ledge_distance_result want = ledge_shape_distance(&clean, pa, &c, pc);
                ledge_distance_result want_r = ledge_shape_distance(&c, pc, &clean, pa);
                for (int f = 0; f < 5; ++f) {
                    ledge_shape dirty = clean;
                    for (int i = n; i < LEDGE_MAX_POLYGON_VERTICES; ++i) {
                        dirty.vertices[i] = v(fills[f][0], fills[f][1]);
                        dirty.normals[i] = v(fills[f][0], fills[f][1]);
                    }
                    ledge_distance_result r = ledge_shape_distance(&dirty, pa, &c, pc);
                    ledge_distance_result rr = ledge_shape_distance(&c, pc, &dirty, pa);
                    differ += memcmp(&r, &want, sizeof r) != 0;
                    differ += memcmp(&rr, &want_r, sizeof rr) != 0;
                    cases += 2;
                }
                if (q % 8 == 0)
                    check_pair(&clean, pa, &c, pc, KIND_POLYGON, KIND_CIRCLE, q, &fails);
            }
        }
    }
    // The pass itself against a scalar scan of the count's vertices: the
    // same vertex and the same bits, whatever the unused entries hold
    // (results above would hide a wrong vertex: the region tests then fail
    // and the face scan answers).
    int wrong = 0, scans = 0;
    for (int n = 3; n <= LEDGE_MAX_POLYGON_VERTICES; ++n) {
        vec2s p[8];
        ring_points(p, n, 1.0, 0.7, rng_range(0, 2 * PI), false);
        ledge_shape clean;
        if (!ledge_make_polygon(p, n, &clean)) continue;
        for (int q = 0; q < 2000; ++q) {
            vec2s c = q < 8 ? clean.vertices[q % n] : rng_vec(-3, 3);
            const float fills[5] = {NAN, INFINITY, -INFINITY, 0.0f, c.x};
            for (int f = 0; f < 5; ++f) {
                ledge_shape dirty = clean;
                for (int i = n; i < LEDGE_MAX_POLYGON_VERTICES; ++i) {
                    dirty.vertices[i] = f == 4 ? c : v(fills[f], fills[f]);
                }
                int best = 0;
                float bd = INFINITY;
                for (int i = 0; i < n; ++i) {
                    float dx = c.x - clean.vertices[i].x, dy = c.y - clean.vertices[i].y;
                    float e = dx * dx + dy * dy;
                    if (e < bd) bd = e, best = i;
                }
                float d2;
                int k = ledge__nearest_vertex(&dirty, c, &d2);
                wrong += k != best || memcmp(&d2, &bd, sizeof d2) != 0;
                ++scans;
            }
        }
    }
    print_message("nearest vertex: %d scans, %d wrong\n", scans, wrong);
    assert_int_equal(wrong, 0);
    print_message("circle-polygon unused entries: %d queries, %d with other bits, %d oracle "
                  "failures\n",
                  cases, differ, fails);
    assert_int_equal(differ, 0);
    assert_int_equal(fails, 0);
    assert_true(cases > 10000);
}

// Centres exactly on the lines the nearest-vertex way decides on, where
// axis-aligned faces make the boundaries representable and the cross
// products exact: squares (as polygons) of half size 1e-4, 1 and 1e5 at
// the origin and off it, a centre exactly on a vertex, on each region
// boundary of a vertex (the face lines' extensions past it) at several
// distances, inside the region on its bisector, on a face, just off a
// face, inside; each also one ulp away in x and in y. Then a square with
// one corner cut by an edge 1e-4 of its size long (a near-degenerate
// edge: two vertices of near-equal distance to most centres), centres all
// round that edge at distances from a tenth of it to the square's size.
// Radii 0 (a point), small and overlapping; both orders: the face scan's
// bits, the oracle, and ledge_collide's normal for overlapping pairs.
static void test_circle_polygon_exact_boundaries(void **state) {
    (void)state;
    g_failures_reported = 0;
    int cases = 0, differ = 0, fails = 0;
    static const double sizes[] = {1e-4, 1.0, 1e5};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
        float s = (float)sizes[si];
        vec2s sq[4] = {v(-s, -s), v(s, -s), v(s, s), v(-s, s)};
        ledge_shape a;
        assert_true(ledge_make_polygon(sq, 4, &a));
        const float ts[] = {s * 0x1p-20f, s * 0.5f, s, 3.0f * s};
        vec2s local[48];
        int nl = 0;
        local[nl++] = v(s, s);                // on the vertex
        local[nl++] = v(s, 0.0f);             // on a face
        local[nl++] = v(s, 0.5f * s);         // on a face, off its middle
        local[nl++] = v(0.0f, 0.0f);          // the middle
        local[nl++] = v(0.5f * s, 0.25f * s); // inside
        for (size_t ti = 0; ti < sizeof ts / sizeof ts[0]; ++ti) {
            float t = ts[ti];
            local[nl++] = v(s + t, s);     // vertex region / face x = s boundary
            local[nl++] = v(s, s + t);     // vertex region / face y = s boundary
            local[nl++] = v(s + t, s + t); // the region's bisector
            local[nl++] = v(s + t, 0.0f);  // off a face
            local[nl++] = v(-s, -s - t);   // vertex 0's boundary
            local[nl++] = v(-s - t, -s);   // and the other one
        }
        for (int off = 0; off < 2; ++off) {
            vec2s pa = off ? v(2.0f * s, -3.0f * s) : v(0, 0);
            for (int li = 0; li < nl; ++li) {
                for (int nb = 0; nb < 5; ++nb) { // itself, one ulp either way in x, in y
                    vec2s l = local[li];
                    if (nb == 1) l.x = nextafterf(l.x, INFINITY);
                    if (nb == 2) l.x = nextafterf(l.x, -INFINITY);
                    if (nb == 3) l.y = nextafterf(l.y, INFINITY);
                    if (nb == 4) l.y = nextafterf(l.y, -INFINITY);
                    vec2s pc = v(pa.x + l.x, pa.y + l.y);
                    for (int rk = 0; rk < 3; ++rk) {
                        ledge_shape c =
                            rk == 0 ? ledge__point_shape()
                                    : ledge_make_circle(v(0, 0), rk == 1 ? 0.1f * s : 2.0f * s);
                        check_bits(&a, pa, &c, pc, &cases, &differ, &fails);
                    }
                }
            }
        }
        // The cut corner: (s, s) replaced by (s, s - e) and (s - e, s).
        float e = s * 1e-4f;
        vec2s cut[5] = {v(-s, -s), v(s, -s), v(s, s - e), v(s - e, s), v(-s, s)};
        ledge_shape b;
        assert_true(ledge_make_polygon(cut, 5, &b));
        static const double reach[] = {0.1, 1.0, 10.0, 1e4};
        for (int k = 0; k < 64; ++k) {
            double ang = 2 * PI * k / 64;
            for (size_t ri = 0; ri < sizeof reach / sizeof reach[0]; ++ri) {
                double r = reach[ri] * e;
                vec2s pc =
                    v((float)(s - 0.5 * e + r * cos(ang)), (float)(s - 0.5 * e + r * sin(ang)));
                for (int rk = 0; rk < 3; ++rk) {
                    ledge_shape c = rk == 0 ? ledge__point_shape()
                                            : ledge_make_circle(v(0, 0), rk == 1 ? e : s);
                    check_bits(&b, v(0, 0), &c, pc, &cases, &differ, &fails);
                }
            }
        }
    }
    print_message("circle-polygon exact boundaries: %d queries, %d with other bits than the face "
                  "scan's, %d failures\n",
                  cases, differ, fails);
    assert_int_equal(differ, 0);
    assert_int_equal(fails, 0);
    assert_true(cases > 3000);
}

// The position check works on the coordinates' bits: every coordinate of
// either position at the limit LEDGE_MAX_COORDINATE (and -0, and the
// smallest subnormal) is accepted, one step beyond it, infinities and NaNs
// of both signs are refused naming the position, for every pair of shape
// types.
static void test_position_limits(void **state) {
    (void)state;
    const float lim = LEDGE_MAX_COORDINATE;
    ledge_shape shapes[3] = {ledge_make_circle(v(0, 0), 1), ledge_make_box(v(0, 0), v(1, 1))};
    vec2s tri[3] = {v(0, 0), v(1, 0), v(0, 1)};
    assert_true(ledge_make_polygon(tri, 3, &shapes[2]));
    const float beyond = nextafterf(lim, INFINITY);
    const struct {
        float x;
        bool ok;
    } vals[] = {{lim, true},
                {-lim, true},
                {-0.0f, true},
                {FLT_TRUE_MIN, true},
                {nextafterf(lim, 0), true},
                {beyond, false},
                {-beyond, false},
                {INFINITY, false},
                {-INFINITY, false},
                {NAN, false},
                {-NAN, false},
                {FLT_MAX, false}};
    int checked = 0;
    for (int sa = 0; sa < 3; ++sa) {
        for (int sb = 0; sb < 3; ++sb) {
            for (int coord = 0; coord < 4; ++coord) {
                for (size_t i = 0; i < sizeof vals / sizeof vals[0]; ++i) {
                    float c[4] = {0, 0, 0, 0};
                    c[coord] = vals[i].x;
                    log_capture_start();
                    ledge_distance_result r = ledge_shape_distance(&shapes[sa], v(c[0], c[1]),
                                                                   &shapes[sb], v(c[2], c[3]));
                    if (vals[i].ok) {
                        assert_true(r.iterations >= 0 && isfinite(r.distance));
                        assert_false(log_capture_says("ledge_shape_distance", ""));
                    } else {
                        assert_true(r.iterations == -1 && isinf(r.distance));
                        assert_true(
                            log_capture_says("ledge_shape_distance", coord < 2 ? "pa" : "pb"));
                    }
                    ++checked;
                }
            }
        }
    }
    ledge_set_log_hook(NULL, NULL);
    assert_int_equal(checked, 9 * 4 * 12);
}

// Exactly touching pairs (faces, corners, a circle on a face): distance 0
// exactly and the normal of the touching faces.
static void test_touching_is_exact(void **state) {
    (void)state;
    g_failures_reported = 0;
    ledge_shape box = ledge_make_box(v(0, 0), v(1, 1));
    vec2s sq[4] = {v(-1, -1), v(1, -1), v(1, 1), v(-1, 1)};
    ledge_shape poly;
    assert_true(ledge_make_polygon(sq, 4, &poly));
    vec2s dia[4] = {v(1, 0), v(0, 1), v(-1, 0), v(0, -1)};
    ledge_shape diamond;
    assert_true(ledge_make_polygon(dia, 4, &diamond));
    ledge_shape disc = ledge_make_circle(v(0, 0), 0.5f);
    struct {
        const ledge_shape *a, *b;
        vec2s pb, normal;
    } cases[] = {
        {&box, &box, {{2, 0.5f}}, {{1, 0}}},      {&box, &box, {{0.25f, -2}}, {{0, -1}}},
        {&poly, &poly, {{2, 0.5f}}, {{1, 0}}},    {&poly, &box, {{-0.5f, 2}}, {{0, 1}}},
        {&box, &poly, {{-2, 0}}, {{-1, 0}}},      {&diamond, &diamond, {{2, 0}}, {{1, 0}}},
        {&box, &disc, {{0.25f, 1.5f}}, {{0, 1}}}, {&poly, &disc, {{-1.5f, 0}}, {{-1, 0}}},
        {&disc, &disc, {{0, 1}}, {{0, 1}}},       {&diamond, &box, {{2, 0}}, {{1, 0}}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        ledge_distance_result r =
            ledge_shape_distance(cases[i].a, v(0, 0), cases[i].b, cases[i].pb);
        assert_true(r.distance == 0.0f);
        if (cases[i].a == &diamond && cases[i].b == &diamond) continue; // vertex on vertex
        assert_float_equal(r.normal.x, cases[i].normal.x, 1e-6);
        assert_float_equal(r.normal.y, cases[i].normal.y, 1e-6);
    }
    // Nudged apart by 1e-3: the distance appears, exactly.
    ledge_distance_result r = ledge_shape_distance(&poly, v(0, 0), &poly, v(2.001f, 0.5f));
    assert_float_equal(r.distance, 0.001f, 1e-6);
    r = ledge_shape_distance(&diamond, v(0, 0), &diamond, v(2.001f, 0));
    assert_float_equal(r.distance, 0.001f, 1e-6);
    assert_float_equal(r.normal.x, 1.0f, 1e-6);
}

// Known answers, and the result's symmetry: swapping a and b swaps the
// points and flips the normal.
static void test_known_answers_and_symmetry(void **state) {
    (void)state;
    g_failures_reported = 0;
    ledge_shape feet = ledge_make_box(v(0, 0), v(0.4f, 0.1f));
    ledge_shape floor = ledge_make_box(v(0, 0), v(5, 0.5f));
    ledge_distance_result d = ledge_shape_distance(&feet, v(0, 1.0f), &floor, v(0, 0));
    assert_float_equal(d.distance, 0.4f, 1e-6);
    assert_float_equal(d.normal.y, -1.0f, 0);
    assert_float_equal(d.point_a.y, 0.9f, 1e-6);
    assert_float_equal(d.point_b.y, 0.5f, 1e-6);
    assert_int_equal(d.iterations, 0); // box-box is a closed form
    g_rng = 77;
    for (int i = 0; i < 2000; ++i) {
        int ka = rng_int(0, KIND_ALL - 1), kb = rng_int(0, KIND_ALL - 1);
        ledge_shape a = any_shape(ka), b = any_shape(kb);
        vec2s pa = rng_vec(-5, 5), pb = rng_vec(-5, 5);
        ledge_distance_result x = ledge_shape_distance(&a, pa, &b, pb);
        ledge_distance_result y = ledge_shape_distance(&b, pb, &a, pa);
        double tol = 1e-5 * 6.0;
        assert_true(near(x.distance, y.distance, tol));
        if (x.distance > tol) { // apart: the same closest points, reversed
            assert_true(near(x.normal.x, -y.normal.x, 1e-4) && near(x.normal.y, -y.normal.y, 1e-4));
        }
    }
}

// Box pairs: ledge_shape_distance's fast path for two ledge_make_box boxes
// (SSE where built with it) gives the same bits in every field as the
// scalar closed form, which the internal ledge__shape_distance runs. Apart,
// touching, overlapping, gaps of an ulp, -0 coordinates, at scales from
// 1e-3 to 1e5, and the same boxes with other valid counts (the general
// dispatch). The scalar form is checked against the oracle elsewhere.
static bool same_bits(ledge_distance_result x, ledge_distance_result y) {
    return memcmp(&x, &y, sizeof x) == 0;
}
static void test_box_fast_path_bits(void **state) {
    (void)state;
    g_rng = 1818;
    const float scales[] = {1e-3f, 1.0f, 1e3f, 1e5f};
    int cases = 0, apart = 0, touching = 0, overlapping = 0;
    for (int i = 0; i < 40000; ++i) {
        float sc = scales[i % 4];
        vec2s ca = rng_vec(-1, 1), cb = rng_vec(-1, 1);
        ledge_shape a = ledge_make_box(v(ca.x * sc, ca.y * sc), v((float)rng_range(0.01, 2) * sc,
                                                                  (float)rng_range(0.01, 2) * sc));
        ledge_shape b = ledge_make_box(v(cb.x * sc, cb.y * sc), v((float)rng_range(0.01, 2) * sc,
                                                                  (float)rng_range(0.01, 2) * sc));
        vec2s pa = rng_vec(-5, 5), pb = rng_vec(-5, 5);
        pa = v(pa.x * sc, pa.y * sc);
        pb = v(pb.x * sc, pb.y * sc);
        switch (i % 8) {
        case 1: // b's left side on a's right side, exactly
            pb.x = (a.bounds.upper.x + pa.x) - b.bounds.lower.x;
            break;
        case 2: // and an ulp further
            pb.x = nextafterf((a.bounds.upper.x + pa.x) - b.bounds.lower.x, INFINITY);
            break;
        case 3: // b's top on a's bottom
            pb.y = (a.bounds.lower.y + pa.y) - b.bounds.upper.y;
            break;
        case 4: // the same place
            pb = pa;
            break;
        case 5: // -0 positions, centred boxes
            pa = v(-0.0f, -0.0f);
            a = ledge_make_box(v(-0.0f, 0.0f), v(1, 1));
            break;
        case 6: // the same box, centred on the same x: the gaps tie on x
            b = a;
            pb.x = pa.x;
            break;
        case 7: // bounds of zero width with -0 corners (no constructor makes these)
            a.bounds.lower = v(-0.0f, -0.0f);
            a.bounds.upper = v(0.0f, -0.0f);
            b.bounds.lower = v(-0.0f, 0.0f);
            b.bounds.upper = v(i % 3 == 0 ? -0.0f : 0.0f, 1.0f);
            pa = v(i % 5 == 0 ? -0.0f : 0.0f, 0.0f);
            pb = v(-0.0f, i % 16 < 8 ? 2.0f : -0.0f);
            break;
        default:
            break;
        }
        ledge_distance_result fast = ledge_shape_distance(&a, pa, &b, pb);
        ledge_distance_result ref = ledge__shape_distance(&a, pa, &b, pb);
        if (!same_bits(fast, ref)) {
            print_error("case %d: fast (%.9g, %.9g %.9g, %.9g %.9g, %.9g %.9g) scalar (%.9g, %.9g "
                        "%.9g, %.9g %.9g, %.9g %.9g)\n",
                        i, fast.distance, fast.point_a.x, fast.point_a.y, fast.point_b.x,
                        fast.point_b.y, fast.normal.x, fast.normal.y, ref.distance, ref.point_a.x,
                        ref.point_a.y, ref.point_b.x, ref.point_b.y, ref.normal.x, ref.normal.y);
            fail();
        }
        // Valid counts other than ledge_make_box's take the general dispatch.
        ledge_shape a2 = a, b2 = b;
        a2.axis_count = 4;
        b2.axis_count = 1;
        assert_true(same_bits(ledge_shape_distance(&a2, pa, &b2, pb), ref));
        apart += ref.distance > 0.0f;
        touching += ref.distance == 0.0f && !ledge_collide(&a, pa, &b, pb).hit;
        overlapping += ledge_collide(&a, pa, &b, pb).hit;
        ++cases;
    }
    assert_int_equal(cases, 40000);
    // every kind of placement was met
    assert_true(apart > 10000 && touching > 2000 && overlapping > 2000);
}

// Corrupt shapes are refused as ledge__shape_type_ok (ledge_collide's
// check) says, naming the shape, in every pair of types and both places:
// bad types, vertex counts outside 3..8 and axis counts outside 1..count;
// a circle's counts are not read, so a circle with any counts is answered,
// as the same circle with its own.
static void test_corrupt_shapes_refused(void **state) {
    (void)state;
    ledge_shape good[3] = {ledge_make_circle(v(0, 0), 1), ledge_make_box(v(0, 0), v(1, 1))};
    vec2s tri[3] = {v(0, 0), v(1, 0), v(0, 1)};
    assert_true(ledge_make_polygon(tri, 3, &good[2]));
    const struct {
        int type, count, axis_count; // -100: keep the shape's
    } bad[] = {{0, -100, -100}, {4, -100, -100},  {-1, -100, -100},  {1000, -100, -100},
               {-100, 2, -100}, {-100, 9, -100},  {-100, -1, -100},  {-100, 0, -100},
               {-100, -100, 0}, {-100, -100, -1}, {-100, 3, 4},      {-100, 8, 9},
               {-100, 8, 8},    {-100, 3, 1},     {-100, 1 << 30, 1}};
    int refusals = 0, answers = 0;
    for (int k = 0; k < 3; ++k) {
        for (size_t j = 0; j < sizeof bad / sizeof bad[0]; ++j) {
            ledge_shape c = good[k];
            if (bad[j].type != -100) c.type = (ledge_shape_type)bad[j].type;
            if (bad[j].count != -100) c.count = bad[j].count;
            if (bad[j].axis_count != -100) c.axis_count = bad[j].axis_count;
            bool refuse = !ledge__shape_type_ok(&c);
            for (int other = 0; other < 3; ++other) {
                for (int side = 0; side < 2; ++side) {
                    const ledge_shape *a = side == 0 ? &c : &good[other];
                    const ledge_shape *b = side == 0 ? &good[other] : &c;
                    vec2s pa = v(0, 0), pb = v(3.5f, 0.25f);
                    log_capture_start();
                    ledge_distance_result r = ledge_shape_distance(a, pa, b, pb);
                    if (refuse) {
                        assert_true(isinf(r.distance) && r.iterations == -1);
                        assert_true(log_capture_says("ledge_shape_distance",
                                                     side == 0 ? "shape a" : "shape b"));
                        ++refusals;
                    } else {
                        assert_false(log_capture_says("ledge_shape_distance", ""));
                        assert_true(isfinite(r.distance) && r.iterations >= 0);
                        if (k == 0) { // a circle answers as itself
                            const ledge_shape *ga = side == 0 ? &good[k] : a;
                            const ledge_shape *gb = side == 0 ? b : &good[k];
                            assert_true(same_bits(r, ledge_shape_distance(ga, pa, gb, pb)));
                        }
                        ++answers;
                    }
                }
            }
        }
    }
    ledge_set_log_hook(NULL, NULL);
    // types: 4 bad x 3 kinds; counts: 11 variants, of which 2 valid for the
    // polygons ({8, 8} and {3, 1}), x 2 kinds; each in 3 pairs x 2 places
    assert_int_equal(refusals, (4 * 3 + 9 * 2) * 6);
    assert_int_equal(answers, (11 + 2 * 2) * 6);
}

static void test_refusals(void **state) {
    (void)state;
    g_failures_reported = 0;
    ledge_shape box = ledge_make_box(v(0, 0), v(1, 1)), bad;
    memset(&bad, 0, sizeof bad);
    log_capture_start();
    ledge_distance_result r = ledge_shape_distance(NULL, v(0, 0), &box, v(0, 0));
    assert_true(log_capture_says("ledge_shape_distance", "shape a"));
    assert_true(isinf(r.distance) && r.iterations == -1);
    log_capture_start();
    r = ledge_shape_distance(&box, v(0, 0), &bad, v(0, 0));
    assert_true(log_capture_says("ledge_shape_distance", "shape b"));
    assert_true(isinf(r.distance));
    log_capture_start();
    r = ledge_shape_distance(&box, v(NAN, 0), &box, v(0, 0));
    assert_true(log_capture_says("ledge_shape_distance", "pa"));
    assert_true(isinf(r.distance) && r.point_a.x == 0.0f && r.normal.y == 0.0f);
    log_capture_start();
    r = ledge_shape_distance(&box, v(0, 0), &box, v(0, INFINITY));
    assert_true(log_capture_says("ledge_shape_distance", "pb"));
    log_capture_start();
    r = ledge_tile_distance(34, v(0, 0), 1, 0, &box, v(0, 0));
    assert_true(log_capture_says("ledge_tile_distance", "tile"));
    assert_true(isinf(r.distance));
    log_capture_start();
    r = ledge_tile_distance(1, v(0, 0), 1, 16, &box, v(0, 0));
    assert_true(log_capture_says("ledge_tile_distance", "blocked"));
    log_capture_start();
    r = ledge_tile_distance(1, v(0, 0), -1, 0, &box, v(0, 0));
    assert_true(log_capture_says("ledge_tile_distance", "size"));
    ledge_tilemap_def def = ledge_default_tilemap_def();
    ledge_tilemap *map = ledge_tilemap_create(&def);
    ledge_tilemap_distance_result t;
    log_capture_start();
    assert_false(ledge_tilemap_distance(map, &box, v(0, 0), -1.0f, &t));
    assert_true(log_capture_says("ledge_tilemap_distance", "max_distance"));
    assert_true(isinf(t.distance.distance));
    log_capture_start();
    assert_false(ledge_tilemap_distance(NULL, &box, v(0, 0), 1.0f, &t));
    assert_true(log_capture_says("ledge_tilemap_distance", "map"));
    log_capture_start();
    assert_false(ledge_tilemap_distance(map, &bad, v(0, 0), 1.0f, &t));
    assert_true(log_capture_says("ledge_tilemap_distance", "shape"));
    ledge_tilemap_destroy(map);
    log_capture_start();
    ledge_distance_draw(NULL, NULL);
    assert_true(log_capture_says("ledge_distance_draw", "NULL"));
    ledge_set_log_hook(NULL, NULL);
}

// --- tiles ------------------------------------------------------------------------

/// A tile's outline in double as boundary segments (arc flattened), and
/// its solid region as a point test, from the public outline.
typedef struct otile {
    oshp outline; // n points, closed
    bool round, concave;
    dpt centre;
    double radius;
    dpt lo, hi;       // the cell
    bool convex_poly; // straight tile: outline is a convex polygon
} otile;

static void otile_make(ledge_tile tile, vec2s cmin, float size, otile *t) {
    memset(t, 0, sizeof *t);
    ledge_tile_outline o;
    assert_true(ledge_tile_outline_get(tile, cmin, size, &o));
    t->lo = (dpt){cmin.x, cmin.y};
    t->hi = (dpt){(double)cmin.x + size, (double)cmin.y + size};
    t->round = o.arc_edge >= 0;
    t->convex_poly = !t->round;
    t->concave = o.arc_concave;
    t->centre = (dpt){o.arc_center.x, o.arc_center.y};
    t->radius = o.arc_radius;
    int n = 0;
    for (int i = 0; i < o.count; ++i) {
        dpt p = {o.points[i].x, o.points[i].y};
        t->outline.p[n++] = p;
        if (i != o.arc_edge) continue;
        dpt q = {o.points[(i + 1) % o.count].x, o.points[(i + 1) % o.count].y};
        double a0 = atan2(p.y - t->centre.y, p.x - t->centre.x);
        double a1 = atan2(q.y - t->centre.y, q.x - t->centre.x);
        double da = remainder(a1 - a0, 2 * PI); // the quarter turn
        for (int k = 1; k < ORACLE_ARC_SEGMENTS; ++k) {
            double a = a0 + da * k / ORACLE_ARC_SEGMENTS;
            t->outline.p[n++] =
                (dpt){t->centre.x + t->radius * cos(a), t->centre.y + t->radius * sin(a)};
        }
    }
    t->outline.n = n;
}

static bool otile_contains(const otile *t, dpt p) {
    if (p.x < t->lo.x || p.x > t->hi.x || p.y < t->lo.y || p.y > t->hi.y) return false;
    if (t->convex_poly) return in_convex(&t->outline, p);
    double d = hypot(p.x - t->centre.x, p.y - t->centre.y);
    return t->concave ? d >= t->radius : d <= t->radius;
}

/// Distance from a convex shape to the tile: 0 on overlap, else the least
/// distance to an outline segment; *overlap says which.
static double otile_distance(const otile *t, const oshp *s, bool *overlap) {
    const oshp *o = &t->outline;
    *overlap = false;
    if (s->circle) {
        dpt c = {s->cx, s->cy};
        double m = boundary_distance(o, c);
        *overlap = otile_contains(t, c) || m < s->r;
        return *overlap ? 0.0 : m - s->r;
    }
    for (int i = 0; i < s->n; ++i) *overlap |= otile_contains(t, s->p[i]);
    for (int i = 0; i < o->n && !*overlap; ++i) *overlap |= in_convex(s, o->p[i]);
    double m = INFINITY;
    for (int i = 0; i < o->n && !*overlap; ++i) {
        for (int j = 0; j < s->n; ++j) {
            double d =
                segment_segment(o->p[i], o->p[(i + 1) % o->n], s->p[j], s->p[(j + 1) % s->n]);
            if (d == 0.0) *overlap = true;
            m = fmin(m, d);
        }
    }
    return *overlap ? 0.0 : m;
}

// Every tile id with every set of blocked sides, shapes of every kind all
// around the cell: apart, the distance, the points and the normal match
// the oracle and do not depend on `blocked`; overlapping, the distance is 0
// and the push is ledge_collide_tile's (which honours the seams).
static void test_tiles_match_oracle(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0x7113D157ull;
    int fails = 0, apart = 0, overlaps = 0;
    int tile_apart[LEDGE_TILE_COUNT] = {0}, tile_over[LEDGE_TILE_COUNT] = {0};
    bool valgrind = getenv("LEDGE_UNDER_VALGRIND") != NULL;
    int per_tile = valgrind ? 20 : 160;
    static otile t;
    for (int tile = 1; tile < LEDGE_TILE_COUNT; ++tile) {
        float size = (tile & 1) ? 1.0f : 0.5f;
        vec2s cmin = rng_vec(-20, 20);
        otile_make((ledge_tile)tile, cmin, size, &t);
        for (int i = 0; i < per_tile; ++i) {
            int kind = rng_int(0, KIND_ALL - 1);
            ledge_shape s = cell_shape(kind, size);
            vec2s pos =
                v(cmin.x + rng_range(-1.0, 2.0) * size, cmin.y + rng_range(-1.0, 2.0) * size);
            static oshp os;
            os = oshp_of(&s, pos);
            bool overlap;
            double want = otile_distance(&t, &os, &overlap);
            double tol = 1e-5 * fmax(size, oshp_extent(&os)) + 4e-6 * size; // + the chords
            ledge_distance_result first =
                ledge_tile_distance((ledge_tile)tile, cmin, size, 0, &s, pos);
            for (unsigned blocked = 0; blocked < 16; ++blocked) {
                ledge_distance_result r =
                    ledge_tile_distance((ledge_tile)tile, cmin, size, blocked, &s, pos);
                bool bad = false;
                if (!near(vlen(r.normal), 1.0, 1e-5)) bad = true;
                if (!overlap && want > tol) {
                    vec2s d = v(r.point_b.x - r.point_a.x, r.point_b.y - r.point_a.y);
                    bad |= !near(r.distance, want, tol);
                    bad |= boundary_distance(&t.outline, (dpt){r.point_a.x, r.point_a.y}) > tol;
                    bad |= boundary_distance(&os, (dpt){r.point_b.x, r.point_b.y}) > tol;
                    bad |= !near(vlen(d), r.distance, tol);
                    bad |=
                        !near((double)d.x * r.normal.x + (double)d.y * r.normal.y, r.distance, tol);
                    bad |= memcmp(&r, &first, sizeof r) != 0; // seams change nothing apart
                    apart += blocked == 0;
                    tile_apart[tile] += blocked == 0;
                } else if (overlap) {
                    ledge_manifold m =
                        ledge_collide_tile((ledge_tile)tile, cmin, size, blocked, &s, pos);
                    if (m.hit) {
                        overlaps += blocked == 0;
                        tile_over[tile] += blocked == 0;
                        bad |= r.distance != 0.0f;
                        bad |= r.normal.x != m.normal.x || r.normal.y != m.normal.y;
                        vec2s d = v(r.point_a.x - r.point_b.x, r.point_a.y - r.point_b.y);
                        bad |= !near(vlen(d), m.depth, tol);
                    } else {
                        bad |= !(r.distance <= tol);
                    }
                } else {
                    bad |= !(r.distance <= 2 * tol);
                }
                if (bad) {
                    ++fails;
                    if (g_failures_reported++ < 10) {
                        print_error("tile %s blocked %u case %d (%s at %.9g, %.9g): got d=%.9g "
                                    "pa=(%.9g, %.9g) pb=(%.9g, %.9g) n=(%g, %g); oracle %s %.9g\n",
                                    ledge_tile_name((ledge_tile)tile), blocked, i,
                                    all_kind_names[kind], (double)pos.x, (double)pos.y,
                                    (double)r.distance, (double)r.point_a.x, (double)r.point_a.y,
                                    (double)r.point_b.x, (double)r.point_b.y, (double)r.normal.x,
                                    (double)r.normal.y, overlap ? "overlap" : "apart", want);
                    }
                }
            }
        }
    }
    print_message("tiles: %d apart, %d overlapping (x 16 blocked sets)\n", apart, overlaps);
    assert_int_equal(fails, 0);
    assert_true(apart > 33 * per_tile / 4 && overlaps > 33 * per_tile / 8);
    for (int tile = 1; tile < LEDGE_TILE_COUNT; ++tile) { // every tile both ways
        if (tile_apart[tile] < 1 || tile_over[tile] < 1) {
            print_error("tile %s: %d apart, %d overlapping cases\n",
                        ledge_tile_name((ledge_tile)tile), tile_apart[tile], tile_over[tile]);
        }
        assert_true(tile_apart[tile] >= 1 && tile_over[tile] >= 1);
    }
}

// EMPTY is nowhere; a lone point-like query works from every side.
static void test_tile_known_answers(void **state) {
    (void)state;
    g_failures_reported = 0;
    ledge_shape ball = ledge_make_circle(v(0, 0), 0.25f);
    ledge_distance_result r = ledge_tile_distance(LEDGE_TILE_EMPTY, v(0, 0), 1, 0, &ball, v(0, 0));
    assert_true(isinf(r.distance) && r.iterations == 0);
    // Above a 45 degree floor (PP: solid below the diagonal x + y <= 1).
    r = ledge_tile_distance(LEDGE_TILE_45DEG_PP, v(0, 0), 1, 0, &ball, v(1, 1));
    assert_float_equal(r.distance, (float)(sqrt(0.5) - 0.25), 1e-6);
    assert_float_equal(r.normal.x, (float)sqrt(0.5), 1e-6);
    assert_float_equal(r.normal.y, (float)sqrt(0.5), 1e-6);
    // In the hollow of a quarter pipe (CONCAVE_PP: solid outside the circle
    // of radius 1 around (1, 1)), at (0.8, 0.8): 1 - |(0.2, 0.2)| - 0.25.
    r = ledge_tile_distance(LEDGE_TILE_CONCAVE_PP, v(0, 0), 1, 0, &ball, v(0.8f, 0.8f));
    assert_float_equal(r.distance, (float)(1.0 - sqrt(0.08) - 0.25), 1e-6);
    // Over a round hill (CONVEX_PP: solid inside the circle around (0, 0)).
    r = ledge_tile_distance(LEDGE_TILE_CONVEX_PP, v(0, 0), 1, 0, &ball, v(1, 1));
    assert_float_equal(r.distance, (float)(sqrt(2.0) - 1.0 - 0.25), 1e-6);
}

// --- the tilemap ----------------------------------------------------------------

// Random maps with tiles of every id: the tilemap's answer is the nearest
// of every cell's oracle distance (cells outside the map are FULL), and
// overlapping shapes get ledge_tilemap_collide's deepest push.
static void test_tilemap_matches_oracle(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0x7117E3A9ull;
    int fails = 0, apart = 0, overlaps = 0, none = 0;
    bool valgrind = getenv("LEDGE_UNDER_VALGRIND") != NULL;
    static otile t;
    int maps = valgrind ? 3 : 20;
    for (int m = 0; m < maps; ++m) {
        ledge_tilemap_def def = ledge_default_tilemap_def();
        def.width = rng_int(2, 9);
        def.height = rng_int(2, 9);
        def.tile_size = (m & 1) ? 1.0f : 0.75f;
        def.origin = rng_vec(-10, 10);
        ledge_tilemap *map = ledge_tilemap_create(&def);
        assert_non_null(map);
        for (int y = 0; y < def.height; ++y) {
            for (int x = 0; x < def.width; ++x) {
                if (rng_unit() < 0.35) ledge_tilemap_set(map, x, y, (ledge_tile)rng_int(1, 33));
            }
        }
        float s = def.tile_size;
        for (int i = 0; i < 60; ++i) {
            int kind = rng_int(0, KIND_ALL - 1);
            // Within the map and its ring of FULL cells (beyond it every
            // cell is inside solid ground, and the scan stops at the ring).
            ledge_shape sh = cell_shape(kind, s);
            vec2s pos = v(def.origin.x + rng_range(0.25, def.width - 0.25) * s,
                          def.origin.y + rng_range(0.25, def.height - 0.25) * s);
            float reach = rng_range(0, 3);
            ledge_tilemap_distance_result got;
            bool found = ledge_tilemap_distance(map, &sh, pos, reach, &got);
            static oshp os;
            os = oshp_of(&sh, pos);
            double tol = 1e-5 * fmax(s, oshp_extent(&os)) + 4e-6 * s;
            // Brute force over the map and a wide ring of FULL cells.
            double best = INFINITY;
            bool any_overlap = false;
            for (int y = -3; y < def.height + 3; ++y) {
                for (int x = -3; x < def.width + 3; ++x) {
                    ledge_tile tile = ledge_tilemap_get(map, x, y);
                    if (x < 0 || y < 0 || x >= def.width || y >= def.height) tile = LEDGE_TILE_FULL;
                    if (tile == LEDGE_TILE_EMPTY) continue;
                    otile_make(tile, v(def.origin.x + x * s, def.origin.y + y * s), s, &t);
                    bool ov;
                    double d = otile_distance(&t, &os, &ov);
                    any_overlap |= ov;
                    best = fmin(best, d);
                }
            }
            bool bad = false;
            if (any_overlap) {
                ++overlaps;
                bad |= !found || got.distance.distance != 0.0f;
                ledge_tile_contact c[64];
                int n = ledge_tilemap_collide(map, &sh, pos, c, 64);
                int deepest = -1;
                for (int k = 0; k < n && k < 64; ++k) {
                    if (deepest < 0 || c[k].manifold.depth > c[deepest].manifold.depth) deepest = k;
                }
                if (deepest >= 0) {
                    bad |= got.cell_x != c[deepest].x || got.cell_y != c[deepest].y;
                    bad |= got.distance.normal.x != c[deepest].manifold.normal.x ||
                           got.distance.normal.y != c[deepest].manifold.normal.y;
                }
            } else if (best > reach + tol) {
                ++none;
                bad |= found;
            } else if (best < reach - tol && best > tol) {
                ++apart;
                bad |= !found || !near(got.distance.distance, best, tol);
                vec2s d = v(got.distance.point_b.x - got.distance.point_a.x,
                            got.distance.point_b.y - got.distance.point_a.y);
                bad |= !near(vlen(d), got.distance.distance, tol);
                bad |= boundary_distance(
                           &os, (dpt){got.distance.point_b.x, got.distance.point_b.y}) > tol;
                // point_a is on the outline of the cell reported.
                ledge_tile tile = ledge_tilemap_get(map, got.cell_x, got.cell_y);
                otile_make(tile, v(def.origin.x + got.cell_x * s, def.origin.y + got.cell_y * s), s,
                           &t);
                bad |= boundary_distance(
                           &t.outline, (dpt){got.distance.point_a.x, got.distance.point_a.y}) > tol;
            }
            if (bad) {
                ++fails;
                if (g_failures_reported++ < 10) {
                    print_error("map %d case %d (%s at %.9g, %.9g, reach %g): found %d d=%.9g cell "
                                "(%d, %d) n=(%g, %g); oracle %s %.9g\n",
                                m, i, all_kind_names[kind], (double)pos.x, (double)pos.y,
                                (double)reach, found, (double)got.distance.distance, got.cell_x,
                                got.cell_y, (double)got.distance.normal.x,
                                (double)got.distance.normal.y, any_overlap ? "overlap" : "apart",
                                best);
                }
            }
        }
        ledge_tilemap_destroy(map);
    }
    print_message("tilemap: %d apart, %d overlapping, %d out of reach\n", apart, overlaps, none);
    assert_int_equal(fails, 0);
    assert_true(apart > 2 * maps && overlaps > 2 * maps && none > 0); // every regime seen
}

// "How far is the floor": a row of FULL tiles, the player's box above it
// and sunk into it across a seam. A seam between two solid tiles is not a
// surface: the push is straight up wherever the box is, never sideways.
static void test_floor_seams(void **state) {
    (void)state;
    g_failures_reported = 0;
    ledge_tilemap_def def = ledge_default_tilemap_def();
    def.width = 8;
    def.height = 4;
    ledge_tilemap *map = ledge_tilemap_create(&def);
    for (int x = 0; x < 8; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    ledge_shape feet = ledge_make_box(v(0, 0), v(0.3f, 0.5f));
    for (int k = 0; k <= 40; ++k) {
        float x = 2.0f + 0.1f * (float)k;
        ledge_tilemap_distance_result r;
        // 0.75 above the floor (top at y = 1).
        assert_true(ledge_tilemap_distance(map, &feet, v(x, 2.25f), 2.0f, &r));
        assert_float_equal(r.distance.distance, 0.75f, 1e-6);
        assert_float_equal(r.distance.normal.y, 1.0f, 1e-6);
        assert_int_equal(r.cell_y, 0);
        // Sunk 0.01 into it: distance 0, pushed up, also right over a seam.
        assert_true(ledge_tilemap_distance(map, &feet, v(x, 1.49f), 2.0f, &r));
        assert_true(r.distance.distance == 0.0f);
        assert_true(r.distance.normal.x == 0.0f && r.distance.normal.y == 1.0f);
        assert_float_equal(r.distance.point_a.y, 1.0f, 1e-6);
        assert_float_equal(r.distance.point_b.y, 0.99f, 1e-6);
        // Out of reach.
        assert_false(ledge_tilemap_distance(map, &feet, v(x, 2.25f), 0.5f, &r));
        assert_true(isinf(r.distance.distance));
    }
    ledge_tilemap_destroy(map);
}

// --- the world --------------------------------------------------------------------

static void test_world_matches_brute_force(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0x3EA7E57ull;
    int fails = 0, tiles = 0, bodies = 0, nothing = 0;
    for (int wi = 0; wi < 12; ++wi) {
        ledge_world_def wd = ledge_default_world_def();
        wd.map_width = rng_int(4, 16);
        wd.map_height = rng_int(4, 12);
        ledge_world *w = ledge_world_create(&wd);
        ledge_tilemap *map = ledge_world_tilemap(w);
        for (int y = 0; y < wd.map_height; ++y) {
            for (int x = 0; x < wd.map_width; ++x) {
                if (rng_unit() < 0.15) ledge_tilemap_set(map, x, y, (ledge_tile)rng_int(1, 33));
            }
        }
        enum { N = 60 };
        ledge_body_id ids[N];
        for (int k = 0; k < N; ++k) {
            ledge_body_def bd = ledge_default_body_def();
            bd.type = (ledge_body_type)rng_int(0, 2);
            ledge_shape sh = any_shape(rng_int(0, KIND_ALL - 1));
            bd.shape = sh;
            bd.position = v(rng_range(0, wd.map_width), rng_range(0, wd.map_height));
            bd.filter.category = 1ull << rng_int(0, 3);
            ids[k] = ledge_body_create(w, &bd);
        }
        ledge_world_step(w, 1.0f / 60.0f); // the grid must follow moved bodies
        for (int i = 0; i < 80; ++i) {
            ledge_query_filter f = ledge_default_query_filter();
            f.mask = rng_int(1, 15);
            f.include_tiles = rng_unit() < 0.7;
            if (rng_unit() < 0.3) f.ignore = ids[rng_int(0, N - 1)];
            bool point = rng_unit() < 0.3;
            ledge_shape q = any_shape(rng_int(0, KIND_ALL - 1));
            vec2s pos = v(rng_range(-1, wd.map_width + 1), rng_range(-1, wd.map_height + 1));
            float reach = rng_range(0, 4);
            ledge_nearest_result got;
            bool found = point ? ledge_world_nearest_point(w, pos, reach, &f, &got)
                               : ledge_world_nearest(w, &q, pos, reach, &f, &got);
            // Brute force: the tilemap, then every body in index order.
            ledge_shape pt = ledge_make_circle(v(0, 0), 1e-30f); // a point, as far as floats go
            const ledge_shape *qs = point ? &pt : &q;
            ledge_nearest_result want;
            memset(&want, 0, sizeof want);
            want.distance.distance = INFINITY;
            ledge_tilemap_distance_result td;
            if (f.include_tiles && ledge_tilemap_distance(map, qs, pos, reach, &td)) {
                want.kind = LEDGE_HIT_TILE;
                want.distance = td.distance;
                want.cell_x = td.cell_x;
                want.cell_y = td.cell_y;
            }
            for (int k = 0; k < N; ++k) {
                if (!ledge_body_is_valid(w, ids[k]) ||
                    (f.ignore.index1 == ids[k].index1 && f.ignore.generation == ids[k].generation))
                    continue;
                ledge_filter bf = ledge_body_filter(w, ids[k]);
                if (!((f.category & bf.mask) && (bf.category & f.mask))) continue;
                ledge_distance_result r = ledge_shape_distance(
                    ledge_body_shape(w, ids[k]), ledge_body_position(w, ids[k]), qs, pos);
                if (r.distance <= reach && r.distance < want.distance.distance) {
                    want.kind = LEDGE_HIT_BODY;
                    want.body = ids[k];
                    want.distance = r;
                }
            }
            bool bad = found != (want.kind != LEDGE_HIT_NONE) || got.kind != want.kind;
            if (!bad && want.kind == LEDGE_HIT_BODY) {
                bad |= got.body.index1 != want.body.index1;
                bad |= !near(got.distance.distance, want.distance.distance, 1e-5);
                bodies++;
            } else if (!bad && want.kind == LEDGE_HIT_TILE) {
                bad |= got.cell_x != want.cell_x || got.cell_y != want.cell_y;
                bad |= !near(got.distance.distance, want.distance.distance, 1e-5);
                tiles++;
            } else if (!bad) {
                nothing++;
                bad |= !isinf(got.distance.distance);
            }
            if (bad) {
                ++fails;
                if (g_failures_reported++ < 10) {
                    print_error("world %d query %d (%s): got kind %d body %u cell (%d, %d) d=%.9g; "
                                "want kind %d body %u cell (%d, %d) d=%.9g\n",
                                wi, i, point ? "point" : "shape", got.kind, got.body.index1,
                                got.cell_x, got.cell_y, (double)got.distance.distance, want.kind,
                                want.body.index1, want.cell_x, want.cell_y,
                                (double)want.distance.distance);
                }
            }
        }
        ledge_world_destroy(w);
    }
    print_message("world: %d tiles, %d bodies, %d nothing within reach\n", tiles, bodies, nothing);
    assert_int_equal(fails, 0);
    assert_true(tiles > 50 && bodies > 50 && nothing > 5);
}

// The brute force of ledge_world_nearest: the tilemap (unless left out),
// then every live body the filter sees.
static ledge_nearest_result brute_nearest(ledge_world *w, const ledge_body_id *ids, int n,
                                          const ledge_shape *qs, vec2s pos, float reach,
                                          const ledge_query_filter *f) {
    ledge_nearest_result want;
    memset(&want, 0, sizeof want);
    want.distance.distance = INFINITY;
    ledge_tilemap_distance_result td;
    if (f->include_tiles && ledge_tilemap_distance(ledge_world_tilemap(w), qs, pos, reach, &td)) {
        want.kind = LEDGE_HIT_TILE;
        want.distance = td.distance;
        want.cell_x = td.cell_x;
        want.cell_y = td.cell_y;
        want.tile = td.tile;
    }
    for (int k = 0; k < n; ++k) {
        if (!ledge_body_is_valid(w, ids[k]) || f->ignore.index1 == ids[k].index1) continue;
        ledge_filter bf = ledge_body_filter(w, ids[k]);
        if (!((f->category & bf.mask) && (bf.category & f->mask))) continue;
        ledge_distance_result r = ledge_shape_distance(ledge_body_shape(w, ids[k]),
                                                       ledge_body_position(w, ids[k]), qs, pos);
        // Ties: the tile, then the lower body index (ids[] is not in index
        // order once slots are reused).
        bool tie = r.distance == want.distance.distance && want.kind == LEDGE_HIT_BODY &&
                   ids[k].index1 < want.body.index1;
        if (r.distance <= reach && (r.distance < want.distance.distance || tie)) {
            want.kind = LEDGE_HIT_BODY;
            want.body = ids[k];
            want.distance = r;
        }
    }
    return want;
}

// The query grid must follow what happens between steps: bodies teleported
// across the map, destroyed, created. Every answer equals the brute
// force's exactly (the same body or cell and tile id, the same distance,
// points and normal), and a body that left the query's reach is not found.
static void test_world_nearest_follows_changes(void **state) {
    (void)state;
    g_failures_reported = 0;
    g_rng = 0xC4A26E5ull;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 24;
    wd.map_height = 16;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int y = 0; y < wd.map_height; ++y) {
        for (int x = 0; x < wd.map_width; ++x) {
            if (rng_unit() < 0.08) ledge_tilemap_set(map, x, y, (ledge_tile)rng_int(1, 33));
        }
    }
    enum { N = 80 };
    ledge_body_id ids[N];
    for (int k = 0; k < N; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_STATIC;
        bd.shape = any_shape(rng_int(0, KIND_ALL - 1));
        bd.position = v(rng_range(0, 24), rng_range(0, 16));
        ids[k] = ledge_body_create(w, &bd);
    }
    ledge_world_step(w, 1.0f / 60.0f);
    int fails = 0, found_bodies = 0, found_tiles = 0;
    for (int round = 0; round < 6; ++round) {
        // Between steps: teleports, destructions and new bodies.
        for (int k = 0; k < N; ++k) {
            double u = rng_unit();
            if (u < 0.3 && ledge_body_is_valid(w, ids[k])) {
                assert_true(
                    ledge_body_set_position(w, ids[k], v(rng_range(0, 24), rng_range(0, 16))));
            } else if (u < 0.35 && ledge_body_is_valid(w, ids[k])) {
                ledge_body_destroy(w, ids[k]);
            } else if (u < 0.4 && !ledge_body_is_valid(w, ids[k])) {
                ledge_body_def bd = ledge_default_body_def();
                bd.type = LEDGE_BODY_STATIC;
                bd.shape = any_shape(rng_int(0, KIND_ALL - 1));
                bd.position = v(rng_range(0, 24), rng_range(0, 16));
                ids[k] = ledge_body_create(w, &bd);
            }
        }
        for (int i = 0; i < 100; ++i) {
            ledge_query_filter f = ledge_default_query_filter();
            f.include_tiles = rng_unit() < 0.5;
            bool point = rng_unit() < 0.3;
            ledge_shape q = any_shape(rng_int(0, KIND_ALL - 1));
            ledge_shape pt = ledge_make_circle(v(0, 0), 1e-30f);
            vec2s pos = v(rng_range(0, 24), rng_range(0, 16));
            float reach = rng_range(0, 3);
            ledge_nearest_result got;
            bool found = point ? ledge_world_nearest_point(w, pos, reach, &f, &got)
                               : ledge_world_nearest(w, &q, pos, reach, &f, &got);
            ledge_nearest_result want = brute_nearest(w, ids, N, point ? &pt : &q, pos, reach, &f);
            bool bad = found != (want.kind != LEDGE_HIT_NONE) || got.kind != want.kind;
            if (!bad && want.kind == LEDGE_HIT_BODY) {
                found_bodies++;
                bad |= got.body.index1 != want.body.index1 ||
                       got.body.generation != want.body.generation;
                if (!point) bad |= memcmp(&got.distance, &want.distance, sizeof want.distance) != 0;
                if (point) bad |= !near(got.distance.distance, want.distance.distance, 1e-5);
            } else if (!bad && want.kind == LEDGE_HIT_TILE) {
                found_tiles++;
                bad |= got.cell_x != want.cell_x || got.cell_y != want.cell_y;
                bad |= got.tile != want.tile ||
                       got.tile != ledge_tilemap_get(map, got.cell_x, got.cell_y);
                bad |= !near(got.distance.distance, want.distance.distance, 1e-5);
            }
            if (bad && g_failures_reported++ < 10) {
                print_error("round %d query %d: got kind %d body %u cell (%d, %d) d=%.9g; want "
                            "kind %d body %u cell (%d, %d) d=%.9g\n",
                            round, i, got.kind, got.body.index1, got.cell_x, got.cell_y,
                            (double)got.distance.distance, want.kind, want.body.index1, want.cell_x,
                            want.cell_y, (double)want.distance.distance);
            }
            fails += bad;
        }
    }
    print_message("world after changes: %d bodies, %d tiles found\n", found_bodies, found_tiles);
    assert_int_equal(fails, 0);
    assert_true(found_bodies > 100 && found_tiles > 50);
    ledge_world_destroy(w);
}

// Refused world queries say why and leave `out` at nothing found.
static void test_world_nearest_refusals(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_shape box = ledge_make_box(v(0, 0), v(1, 1)), bad = box;
    bad.count = 99;
    ledge_nearest_result out;
    struct {
        bool ok;
        const char *w1, *w2;
    } cases[8];
    int n = 0;
    log_capture_start();
#define REFUSED(call, a1, a2)                                                                      \
    do {                                                                                           \
        log_capture_start();                                                                       \
        out.kind = LEDGE_HIT_BODY;                                                                 \
        out.distance.distance = 1.0f;                                                              \
        cases[n].ok = !(call) && log_capture_says(a1, a2) && out.kind == LEDGE_HIT_NONE &&         \
                      isinf(out.distance.distance);                                                \
        cases[n].w1 = a1;                                                                          \
        cases[n++].w2 = a2;                                                                        \
    } while (0)
    REFUSED(ledge_world_nearest(NULL, &box, v(0, 0), 1, NULL, &out), "ledge_world_nearest",
            "world");
    REFUSED(ledge_world_nearest(w, &bad, v(0, 0), 1, NULL, &out), "ledge_world_nearest", "shape");
    REFUSED(ledge_world_nearest(w, &box, v(NAN, 0), 1, NULL, &out), "ledge_world_nearest",
            "position");
    REFUSED(ledge_world_nearest(w, &box, v(0, 0), -1, NULL, &out), "ledge_world_nearest",
            "max_distance");
    REFUSED(ledge_world_nearest(w, &box, v(0, 0), INFINITY, NULL, &out), "ledge_world_nearest",
            "max_distance");
    REFUSED(ledge_world_nearest_point(NULL, v(0, 0), 1, NULL, &out), "ledge_world_nearest_point",
            "world");
    REFUSED(ledge_world_nearest_point(w, v(0, INFINITY), 1, NULL, &out),
            "ledge_world_nearest_point", "point");
    REFUSED(ledge_world_nearest_point(w, v(0, 0), NAN, NULL, &out), "ledge_world_nearest_point",
            "max_distance");
#undef REFUSED
    ledge_set_log_hook(NULL, NULL);
    for (int i = 0; i < n; ++i) {
        if (!cases[i].ok)
            print_error("case %d (%s, %s) not refused as said\n", i, cases[i].w1, cases[i].w2);
        assert_true(cases[i].ok);
    }
    // NULL out is refused too (nothing to write to).
    log_capture_start();
    assert_false(ledge_world_nearest(w, &box, v(0, 0), 1, NULL, NULL));
    assert_true(log_capture_says("ledge_world_nearest", "out"));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// The debug draw of a result: the segment, both points, the normal.
typedef struct drawn {
    int segments, points;
    vec2s seg[2][2];
    ledge_color color[2];
} drawn;
static void on_segment(vec2s a, vec2s b, ledge_color c, void *ctx) {
    drawn *d = ctx;
    if (d->segments < 2) {
        d->seg[d->segments][0] = a;
        d->seg[d->segments][1] = b;
        d->color[d->segments] = c;
    }
    d->segments++;
}
static void on_point(vec2s p, float size, ledge_color c, void *ctx) {
    (void)p, (void)size, (void)c;
    ((drawn *)ctx)->points++;
}

static void test_draw(void **state) {
    (void)state;
    g_failures_reported = 0;
    ledge_shape a = ledge_make_circle(v(0, 0), 1), b = ledge_make_box(v(0, 0), v(1, 1));
    ledge_distance_result r = ledge_shape_distance(&a, v(0, 0), &b, v(4, 0));
    drawn d;
    memset(&d, 0, sizeof d);
    ledge_debug_draw dd = ledge_default_debug_draw();
    dd.draw_segment = on_segment;
    dd.draw_point = on_point;
    dd.context = &d;
    ledge_distance_draw(&r, &dd);
    assert_int_equal(d.segments, 2);
    assert_int_equal(d.points, 2);
    assert_float_equal(d.seg[0][0].x, 1.0f, 1e-6);
    assert_float_equal(d.seg[0][1].x, 3.0f, 1e-6);
    assert_int_equal(d.color[0], LEDGE_COLOR_DISTANCE);
    assert_int_equal(d.color[1], LEDGE_COLOR_NORMAL);
    assert_float_equal(d.seg[1][1].x, 1.0f + dd.normal_length, 1e-6);
    dd.draw_normals = false;
    memset(&d, 0, sizeof d);
    ledge_distance_draw(&r, &dd);
    assert_int_equal(d.segments, 1);
    // A refused result draws nothing and says why.
    r = ledge_shape_distance(NULL, v(0, 0), &b, v(0, 0));
    memset(&d, 0, sizeof d);
    log_capture_start();
    ledge_distance_draw(&r, &dd);
    assert_true(log_capture_says("ledge_distance_draw", "not finite"));
    assert_int_equal(d.segments + d.points, 0);
    ledge_set_log_hook(NULL, NULL);
}

int main(void) {
    (void)place; // random_shapes.h's double-precision view, unused here
    (void)kind_names;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_match_oracle),
        cmocka_unit_test(test_pairs_at_scales),
        cmocka_unit_test(test_features_match_oracle),
        cmocka_unit_test(test_circle_polygon_regions),
        cmocka_unit_test(test_circle_polygon_near_vertices),
        cmocka_unit_test(test_circle_polygon_ties),
        cmocka_unit_test(test_circle_polygon_fast_path),
        cmocka_unit_test(test_circle_polygon_unused_slots),
        cmocka_unit_test(test_circle_polygon_exact_boundaries),
        cmocka_unit_test(test_position_limits),
        cmocka_unit_test(test_touching_is_exact),
        cmocka_unit_test(test_known_answers_and_symmetry),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_box_fast_path_bits),
        cmocka_unit_test(test_corrupt_shapes_refused),
        cmocka_unit_test(test_tiles_match_oracle),
        cmocka_unit_test(test_tile_known_answers),
        cmocka_unit_test(test_tilemap_matches_oracle),
        cmocka_unit_test(test_floor_seams),
        cmocka_unit_test(test_world_matches_brute_force),
        cmocka_unit_test(test_world_nearest_follows_changes),
        cmocka_unit_test(test_world_nearest_refusals),
        cmocka_unit_test(test_draw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
