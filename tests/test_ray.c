// Ray casts: ledge_shape_raycast (circle, box, polygon) and the internal
// ledge__ray_rounded_polygon, against hand-made cases with known answers and
// against a brute force written here in double precision.
//
// The brute force knows nothing of ledge's algorithms: it takes the shape's
// vertices (or centre and radius), computes its own edge normals, and
// measures the signed distance sd(p) from a point to the shape (< 0 inside).
// A segment's first contact is found by marching along it in 256 steps with
// the point-in-shape test sd <= 0 and bisecting the step where it first
// turns true. Since sd along a line is convex for a convex shape, a ternary
// search also finds the smallest sd on the segment exactly, which catches
// short chords the march steps over and tells grazing segments (min sd ~ 0)
// from real hits and misses.
//
// For every random case, with TOL = 1e-4 (coordinates are within +-30):
//   1. a segment starting inside by more than TOL hits at fraction exactly
//      0 with the normal -translation / |translation| ((0, 1) when zero);
//   2. min sd < -TOL => hit; min sd > TOL => miss (in between: grazing, both
//      answers are right);
//   3. a hit from outside: the point is origin + fraction * translation, it
//      lies on the surface (|sd| <= TOL), the normal is unit, faces the ray,
//      and is the surface normal there (circle: radial; polygon: the normal
//      of an edge the point lies on);
//   4. unless the segment meets the surface at a grazing angle (cosine of
//      incidence < 0.05), the fraction equals the brute force's within
//      TOL / cosine in length, and slightly before it (10 TOL / cosine) the
//      point is outside.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scale.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ledge/collision.h"
#include "log_capture.h"
#include "random_shapes.h"
#include "ray.h"

#define TOL 1.0e-4
// Random shapes per test, each cast at by every generator. Both can be
// overridden (-DN_SHAPES=100000 -DSEED_SALT=7) for a long soak run.
#ifndef N_SHAPES
#define N_SHAPES test_cases(1500)
#endif
#ifndef SEED_SALT
#define SEED_SALT 0
#endif
#define PI 3.14159265358979323846

// ---------------------------------------------------------------------------
// The brute force: shapes in world space in double (random_shapes.h), signed
// distance.

// Closest point of the polygon's outline to p; returns the squared distance.
static double closest_on_outline(const dshape *s, double px, double py, double *qx, double *qy) {
    double best = INFINITY;
    for (int i = 0; i < s->n; ++i) {
        int j = (i + 1) % s->n;
        double ex = s->x[j] - s->x[i], ey = s->y[j] - s->y[i];
        double u = ((px - s->x[i]) * ex + (py - s->y[i]) * ey) / (ex * ex + ey * ey);
        u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
        double cx = s->x[i] + u * ex, cy = s->y[i] + u * ey;
        double d2 = (px - cx) * (px - cx) + (py - cy) * (py - cy);
        if (d2 < best) {
            best = d2;
            *qx = cx;
            *qy = cy;
        }
    }
    return best;
}

/// Signed distance from p to the shape: > 0 outside, < 0 inside.
static double sd(const dshape *s, double px, double py) {
    if (s->circle) return hypot(px - s->cx, py - s->cy) - s->r;
    double inside = -INFINITY, qx, qy;
    for (int i = 0; i < s->n; ++i) {
        double side = s->nx[i] * (px - s->x[i]) + s->ny[i] * (py - s->y[i]);
        inside = side > inside ? side : inside;
    }
    double core = inside <= 0.0 ? inside : sqrt(closest_on_outline(s, px, py, &qx, &qy));
    return core - s->round;
}

typedef struct segment {
    double ox, oy, dx, dy;
} segment;

static double sd_at(const dshape *s, const segment *g, double t) {
    return sd(s, g->ox + t * g->dx, g->oy + t * g->dy);
}

/// First t where sd_at <= 0, knowing it is false at lo and true at hi.
static double bisect(const dshape *s, const segment *g, double lo, double hi) {
    for (int i = 0; i < 60; ++i) {
        double mid = 0.5 * (lo + hi);
        if (sd_at(s, g, mid) <= 0.0) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return hi;
}

typedef struct brute {
    double first;  // first t in [0, 1] with the point inside; -1 if none
    double min_sd; // smallest signed distance along the segment
} brute;

static brute brute_ray(const dshape *s, const segment *g) {
    brute b = {-1.0, INFINITY};
    const int steps = 256;
    for (int k = 0; k <= steps; ++k) {
        double t = (double)k / steps, d = sd_at(s, g, t);
        b.min_sd = d < b.min_sd ? d : b.min_sd;
        if (d <= 0.0 && b.first < 0.0) b.first = k == 0 ? 0.0 : bisect(s, g, (k - 1.0) / steps, t);
    }
    // Ternary search of the convex sd along the segment: its exact minimum.
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 100; ++i) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (sd_at(s, g, m1) < sd_at(s, g, m2)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    double tm = 0.5 * (lo + hi), dm = sd_at(s, g, tm);
    b.min_sd = dm < b.min_sd ? dm : b.min_sd;
    if (b.first < 0.0 && dm <= 0.0) b.first = bisect(s, g, 0.0, tm); // a chord the march missed
    return b;
}

// Whether n is a surface normal of s at p: radial for a circle or a
// rounded polygon's arc, else the normal of an edge p lies on.
static bool normal_fits(const dshape *s, double px, double py, double nx, double ny) {
    if (s->circle) {
        double l = hypot(px - s->cx, py - s->cy);
        return fabs(nx - (px - s->cx) / l) <= 1e-3 && fabs(ny - (py - s->cy) / l) <= 1e-3;
    }
    if (s->round > 0.0) {
        double qx, qy, l = sqrt(closest_on_outline(s, px, py, &qx, &qy));
        return fabs(nx - (px - qx) / l) <= 1e-3 && fabs(ny - (py - qy) / l) <= 1e-3;
    }
    for (int i = 0; i < s->n; ++i) {
        int j = (i + 1) % s->n;
        double ex = s->x[j] - s->x[i], ey = s->y[j] - s->y[i], l2 = ex * ex + ey * ey;
        double u = ((px - s->x[i]) * ex + (py - s->y[i]) * ey) / l2, l = sqrt(l2);
        double off = s->nx[i] * (px - s->x[i]) + s->ny[i] * (py - s->y[i]);
        bool on_edge = fabs(off) <= TOL && u * l >= -TOL && u * l <= l + TOL;
        if (on_edge && fabs(nx - s->nx[i]) <= 1e-4 && fabs(ny - s->ny[i]) <= 1e-4) return true;
    }
    return false;
}

// ---------------------------------------------------------------------------
// Checking one case.

typedef struct tally {
    int cases, hits, inside, grazing;
} tally;

typedef bool cast_fn(const void *ctx, vec2s origin, vec2s translation, ledge_ray_hit *out);

#define CASE_FAIL(...)                                                                             \
    do {                                                                                           \
        print_dshape(s);                                                                           \
        print_error("%s case %d: origin (%.9g, %.9g) translation (%.9g, %.9g): ", label, index,    \
                    (double)o.x, (double)o.y, (double)d.x, (double)d.y);                           \
        fail_msg(__VA_ARGS__);                                                                     \
    } while (0)

// Prints the placed shape with 9 digits: enough to rebuild it exactly.
static void print_dshape(const dshape *s) {
    if (s->circle) {
        print_error("circle centre (%.9g, %.9g) radius %.9g\n", s->cx, s->cy, s->r);
        return;
    }
    print_error("polygon rounded by %.9g:", s->round);
    for (int i = 0; i < s->n; ++i) print_error(" (%.9g, %.9g)", s->x[i], s->y[i]);
    print_error("\n");
}

static void check_case(const dshape *s, cast_fn *cast, const void *ctx, vec2s o, vec2s d,
                       const char *label, int index, tally *tl) {
    segment g = {o.x, o.y, d.x, d.y};
    brute b = brute_ray(s, &g);
    ledge_ray_hit h;
    memset(&h, 0xA5, sizeof h);
    bool hit = cast(ctx, o, d, &h);
    if (cast(ctx, o, d, NULL) != hit) CASE_FAIL("the answer depends on out being NULL");
    double len = hypot(g.dx, g.dy), start = sd_at(s, &g, 0.0);
    tl->cases++;
    tl->hits += hit;
    if (start < -TOL) { // 1. starts inside
        tl->inside++;
        if (!hit || h.fraction != 0.0f)
            CASE_FAIL("starts inside (sd %g) but hit %d at %g", start, hit, (double)h.fraction);
        double ex = len > 0.0 ? -g.dx / len : 0.0, ey = len > 0.0 ? -g.dy / len : 1.0;
        if (fabs(h.normal.x - ex) > 1e-6 || fabs(h.normal.y - ey) > 1e-6)
            CASE_FAIL("inside: normal (%g, %g), expected (%g, %g)", (double)h.normal.x,
                      (double)h.normal.y, ex, ey);
        if (h.point.x != o.x || h.point.y != o.y) CASE_FAIL("inside: point is not the origin");
        return;
    }
    if (b.min_sd < -TOL && !hit)
        CASE_FAIL("missed; brute force enters at %.9g (min sd %g)", b.first, b.min_sd);
    if (b.min_sd > TOL && hit)
        CASE_FAIL("hit at %g; brute force misses (min sd %g)", (double)h.fraction, b.min_sd);
    if (fabs(b.min_sd) <= TOL) tl->grazing++;
    if (!hit) return;
    // 3. a hit from outside (or from the surface, within TOL)
    double t = h.fraction, px = g.ox + t * g.dx, py = g.oy + t * g.dy;
    if (!(t >= 0.0 && t <= 1.0)) CASE_FAIL("fraction %g outside [0, 1]", t);
    if (fabs(h.point.x - px) > 1e-5 || fabs(h.point.y - py) > 1e-5)
        CASE_FAIL("point (%g, %g) is not origin + fraction * translation", (double)h.point.x,
                  (double)h.point.y);
    if (start <= TOL && t == 0.0) return; // starts on the surface: either normal is right
    double nl = hypot(h.normal.x, h.normal.y),
           cosi = -(h.normal.x * g.dx + h.normal.y * g.dy) / len;
    if (fabs(sd(s, px, py)) > TOL)
        CASE_FAIL("hit point at fraction %g is off the surface (sd %g); brute force %.9g", t,
                  sd(s, px, py), b.first);
    if (fabs(nl - 1.0) > 1e-5) CASE_FAIL("normal length %g", nl);
    if (cosi < -1e-5)
        CASE_FAIL("normal (%g, %g) faces away from the ray", (double)h.normal.x,
                  (double)h.normal.y);
    if (!normal_fits(s, px, py, h.normal.x, h.normal.y))
        CASE_FAIL("normal (%g, %g) is not the surface normal at (%g, %g)", (double)h.normal.x,
                  (double)h.normal.y, px, py);
    // 4. only a segment that really enters, at a clear angle, has a sharp entry
    if (cosi < 0.05 || b.min_sd >= -TOL) return;
    if (fabs(t - b.first) * len * cosi > TOL)
        CASE_FAIL("fraction %.9g, brute force %.9g (cosine %g, min sd %g)", t, b.first, cosi,
                  b.min_sd);
    double before = t - 10.0 * TOL / (cosi * len);
    if (before >= 0.0 && sd_at(s, &g, before) <= 0.0)
        CASE_FAIL("inside already at %g < fraction %g", before, t);
}

static void report(const char *what, const tally *t) {
    print_message("%-28s %5d cases: %5d hits, %4d start inside, %4d grazing\n", what, t->cases,
                  t->hits, t->inside, t->grazing);
}

// ---------------------------------------------------------------------------
// Random case generators. Each returns an origin and translation for the
// shape placed at pos, aimed to produce one kind of situation.

typedef struct placed {
    const ledge_shape *shape;
    vec2s pos;
} placed;

static bool cast_shape(const void *ctx, vec2s o, vec2s d, ledge_ray_hit *out) {
    const placed *p = ctx;
    return ledge_shape_raycast(p->shape, p->pos, o, d, out);
}

// A random point inside (by more than TOL), by rejection in the bounds.
static vec2s point_inside(const dshape *s, const ledge_shape *sh, vec2s pos) {
    for (;;) {
        vec2s p = rng_box(pos.x + sh->bounds.lower.x, pos.x + sh->bounds.upper.x,
                          pos.y + sh->bounds.lower.y, pos.y + sh->bounds.upper.y);
        if (sd(s, p.x, p.y) < -10.0 * TOL) return p;
    }
}

// A point on the surface and a unit tangent there: on an edge, or on the
// circle.
static void surface_point(const dshape *s, double *px, double *py, double *tx, double *ty) {
    if (s->circle) {
        double a = 2.0 * PI * rng_unit();
        *px = s->cx + s->r * cos(a);
        *py = s->cy + s->r * sin(a);
        *tx = -sin(a);
        *ty = cos(a);
        return;
    }
    int i = rng_int(0, s->n - 1), j = (i + 1) % s->n;
    double u = rng_unit();
    // on the edge, or on its flat side pushed out when the shape is rounded
    *px = s->x[i] + u * (s->x[j] - s->x[i]) + s->round * s->nx[i];
    *py = s->y[i] + u * (s->y[j] - s->y[i]) + s->round * s->ny[i];
    *tx = -s->ny[i];
    *ty = s->nx[i];
}

enum {
    GEN_RANDOM,   // anywhere to anywhere
    GEN_AIMED,    // at a point near or in the shape, often stopping short
    GEN_INSIDE,   // starting inside
    GEN_TANGENT,  // along the surface's tangent, on it or just off it
    GEN_PARALLEL, // parallel to an edge (or a tangent), at random offsets
    GEN_ZERO,     // zero translation
    GEN_SHORT,    // aimed at the shape, stopping before it
    GEN_COUNT
};
static const char *const gen_names[] = {"random",   "aimed", "inside",    "tangent",
                                        "parallel", "zero",  "stop short"};

static void generate(int gen, const dshape *s, const ledge_shape *sh, vec2s pos, vec2s *o,
                     vec2s *d) {
    double px, py, tx, ty, len = rng_range(1.0, 12.0);
    switch (gen) {
    case GEN_RANDOM:
        *o = rng_box(pos.x - 8, pos.x + 8, pos.y - 8, pos.y + 8);
        *d = rng_vec(-16, 16);
        return;
    case GEN_AIMED: {
        vec2s target = rng_box(pos.x - 3, pos.x + 3, pos.y - 3, pos.y + 3);
        double a = 2.0 * PI * rng_unit(), k = rng_range(0.3, 2.0);
        *o = v((float)(target.x + len * cos(a)), (float)(target.y + len * sin(a)));
        *d = v((float)((target.x - o->x) * k), (float)((target.y - o->y) * k));
        return;
    }
    case GEN_INSIDE:
        *o = point_inside(s, sh, pos);
        *d = rng_next() % 8 ? rng_vec(-10, 10) : v(0, 0);
        return;
    case GEN_TANGENT:
    case GEN_PARALLEL: {
        surface_point(s, &px, &py, &tx, &ty);
        static const double offsets[] = {0.0, 1e-6, -1e-6, 1e-3, -1e-3};
        double off = gen == GEN_TANGENT ? offsets[rng_int(0, 4)] : rng_range(-3, 3);
        double nx = ty, ny = -tx; // outward for a counter-clockwise edge / the circle
        double back = rng_range(0.5, 6.0), sign = rng_next() & 1 ? 1.0 : -1.0;
        *o =
            v((float)(px + off * nx - sign * back * tx), (float)(py + off * ny - sign * back * ty));
        *d = v((float)(sign * len * tx), (float)(sign * len * ty));
        return;
    }
    case GEN_ZERO:
        *o = rng_next() & 1 ? point_inside(s, sh, pos)
                            : rng_box(pos.x - 5, pos.x + 5, pos.y - 5, pos.y + 5);
        *d = v(0, 0);
        return;
    default: { // GEN_SHORT: toward a surface point, stopping a little before it
        surface_point(s, &px, &py, &tx, &ty);
        double a = atan2(ty, tx) - PI * rng_range(0.05, 0.95); // from the outside
        *o = v((float)(px + len * cos(a)), (float)(py + len * sin(a)));
        double k = rng_range(0.5, 0.999);
        *d = v((float)((px - o->x) * k), (float)((py - o->y) * k));
        return;
    }
    }
}

static void random_rays(int kind, uint64_t seed) {
    g_rng = seed ^ (uint64_t)SEED_SALT;
    tally all[GEN_COUNT];
    memset(all, 0, sizeof all);
    for (int i = 0; i < N_SHAPES; ++i) {
        ledge_shape sh = random_shape(kind);
        vec2s pos = rng_vec(-5, 5);
        dshape s = place(&sh, pos);
        placed p = {&sh, pos};
        for (int gen = 0; gen < GEN_COUNT; ++gen) {
            vec2s o, d;
            generate(gen, &s, &sh, pos, &o, &d);
            check_case(&s, cast_shape, &p, o, d, gen_names[gen], i, &all[gen]);
        }
    }
    for (int gen = 0; gen < GEN_COUNT; ++gen) {
        char what[64];
        snprintf(what, sizeof what, "%s %s", kind_names[kind], gen_names[gen]);
        report(what, &all[gen]);
        assert_true(all[gen].cases == N_SHAPES);
    }
    // The generators must produce what they say: hits and misses both.
    assert_true(all[GEN_AIMED].hits > N_SHAPES / 6 && all[GEN_AIMED].hits < N_SHAPES * 9 / 10);
    assert_true(all[GEN_INSIDE].inside == N_SHAPES);
    assert_true(all[GEN_SHORT].hits == 0);
    assert_true(all[GEN_TANGENT].grazing > N_SHAPES / 3);
}

static void test_random_circle(void **state) {
    (void)state;
    random_rays(KIND_CIRCLE, 0x7261794349524331ull);
}
static void test_random_box(void **state) {
    (void)state;
    random_rays(KIND_BOX, 0x72617942584f5831ull);
}
static void test_random_polygon(void **state) {
    (void)state;
    random_rays(KIND_POLYGON, 0x72617950204f4c31ull);
}

// ledge__ray_rounded_polygon (internal, for sweeps and the tilemap) against
// the same brute force on the polygon's signed distance minus the radius.
typedef struct rounded {
    const ledge_shape *shape;
    float radius;
} rounded;

static bool cast_rounded(const void *ctx, vec2s o, vec2s d, ledge_ray_hit *out) {
    const rounded *r = ctx;
    ledge_ray_hit h;
    ledge__ray_result res = ledge__ray_rounded_polygon(o, d, r->shape->vertices, r->shape->normals,
                                                       r->shape->count, r->radius, &h);
    if (res != LEDGE__RAY_MISS && out) *out = h;
    return res != LEDGE__RAY_MISS;
}

static void test_random_rounded(void **state) {
    (void)state;
    g_rng = 0x726f756e64656431ull ^ (uint64_t)SEED_SALT;
    tally all[GEN_COUNT], arc = {0, 0, 0, 0};
    memset(all, 0, sizeof all);
    for (int i = 0; i < N_SHAPES; ++i) {
        ledge_shape sh = random_shape(rng_next() & 1 ? KIND_BOX : KIND_POLYGON);
        rounded r = {&sh, rng_range(0.05, 2.0)};
        dshape s = place(&sh, v(0, 0));
        s.round = r.radius;
        // The generators want the shape's own bounds; widen them by the radius.
        ledge_shape grown = sh;
        grown.bounds.lower = v(sh.bounds.lower.x - r.radius, sh.bounds.lower.y - r.radius);
        grown.bounds.upper = v(sh.bounds.upper.x + r.radius, sh.bounds.upper.y + r.radius);
        for (int gen = 0; gen < GEN_COUNT; ++gen) {
            vec2s o, d;
            generate(gen, &s, &grown, v(0, 0), &o, &d);
            check_case(&s, cast_rounded, &r, o, d, gen_names[gen], i, &all[gen]);
        }
        // Tangent to an arc: a line at distance radius (+-1e-6) from vertex k
        // whose closest point to the vertex lies in the vertex's normal cone,
        // so that the arc is where it meets the rounded polygon.
        int k = rng_int(0, sh.count - 1);
        vec2s n0 = sh.normals[(k + sh.count - 1) % sh.count], n1 = sh.normals[k];
        double a0 = atan2(n0.y, n0.x), a1 = atan2(n1.y, n1.x);
        if (a1 < a0) a1 += 2.0 * PI;
        double a = a0 + (a1 - a0) * rng_unit(), off = (rng_next() & 1 ? 1.0 : -1.0) * 1e-6;
        double nx = cos(a), ny = sin(a), sign = rng_next() & 1 ? 1.0 : -1.0;
        double ux = -sign * ny, uy = sign * nx, rr = r.radius + off;
        vec2s o = v((float)(sh.vertices[k].x + rr * nx - 5.0 * ux),
                    (float)(sh.vertices[k].y + rr * ny - 5.0 * uy));
        check_case(&s, cast_rounded, &r, o, v((float)(10 * ux), (float)(10 * uy)), "arc tangent", i,
                   &arc);
    }
    for (int gen = 0; gen < GEN_COUNT; ++gen) {
        char what[64];
        snprintf(what, sizeof what, "rounded %s", gen_names[gen]);
        report(what, &all[gen]);
    }
    report("rounded arc tangent", &arc);
    assert_true(arc.grazing > N_SHAPES * 9 / 10);
    assert_true(all[GEN_AIMED].hits > N_SHAPES / 6);
    assert_true(all[GEN_INSIDE].inside == N_SHAPES);
}

// ---------------------------------------------------------------------------
// Hand-made cases with known answers.

static void expect_hit(const ledge_shape *s, vec2s pos, vec2s o, vec2s d, float t, vec2s n) {
    ledge_ray_hit h;
    assert_true(ledge_shape_raycast(s, pos, o, d, &h));
    assert_float_equal(h.fraction, t, 1e-6);
    assert_float_equal(h.normal.x, n.x, 1e-6);
    assert_float_equal(h.normal.y, n.y, 1e-6);
    assert_float_equal(h.point.x, o.x + t * d.x, 1e-5);
    assert_float_equal(h.point.y, o.y + t * d.y, 1e-5);
}

static void expect_miss(const ledge_shape *s, vec2s pos, vec2s o, vec2s d) {
    ledge_ray_hit h;
    memset(&h, 0, sizeof h);
    h.fraction = 42.0f;
    assert_false(ledge_shape_raycast(s, pos, o, d, &h));
    assert_true(h.fraction == 42.0f); // out untouched on a miss
}

static void test_hand_circle(void **state) {
    (void)state;
    ledge_shape c = ledge_make_circle(v(0, 0), 1.0f);
    expect_hit(&c, v(0, 0), v(-5, 0), v(10, 0), 0.4f, v(-1, 0));
    expect_hit(&c, v(0, 0), v(0, 5), v(0, -10), 0.4f, v(0, 1));
    // an offset centre at a position: world centre (3, 0)
    ledge_shape off = ledge_make_circle(v(1, 0), 1.0f);
    expect_hit(&off, v(2, 0), v(-5, 0), v(10, 0), 0.7f, v(-1, 0));
    // diagonal: from (-3, -4) straight at the centre, |d| = 10: enters at 4/10
    expect_hit(&c, v(0, 0), v(-3, -4), v(6, 8), 0.4f, v(-0.6f, -0.8f));
    // tangent: y = 1 touches at (0, 1), halfway
    expect_hit(&c, v(0, 0), v(-5, 1), v(10, 0), 0.5f, v(0, 1));
    // reaching the surface exactly at the end
    expect_hit(&c, v(0, 0), v(-5, 0), v(4, 0), 1.0f, v(-1, 0));
    expect_miss(&c, v(0, 0), v(-5, 0), v(3.9f, 0));   // stops short
    expect_miss(&c, v(0, 0), v(-5, 0), v(-10, 0));    // points away
    expect_miss(&c, v(0, 0), v(-5, 1.01f), v(10, 0)); // passes above
    expect_miss(&c, v(0, 0), v(-5, 0), v(0, 0));      // zero translation outside
    // starts inside: fraction 0, normal against the direction
    expect_hit(&c, v(0, 0), v(0.2f, 0), v(3, 0), 0.0f, v(-1, 0));
    expect_hit(&c, v(0, 0), v(0.2f, 0.1f), v(0, 0), 0.0f, v(0, 1)); // zero translation
    expect_hit(&c, v(0, 0), v(1, 0), v(1, 0), 0.0f, v(-1, 0));      // on the surface, leaving
}

static void test_hand_box(void **state) {
    (void)state;
    ledge_shape b = ledge_make_box(v(0, 0), v(1, 0.5f));
    expect_hit(&b, v(0, 0), v(0, 5), v(0, -10), 0.45f, v(0, 1));
    expect_hit(&b, v(0, 0), v(-5, 0), v(10, 0), 0.4f, v(-1, 0));
    expect_hit(&b, v(0, 0), v(5, 0.2f), v(-10, 0), 0.4f, v(1, 0));
    expect_hit(&b, v(0, 0), v(0.5f, -5), v(0, 10), 0.45f, v(0, -1));
    expect_hit(&b, v(10, 20), v(10, 25), v(0, -10), 0.45f, v(0, 1)); // placed
    // through the corner (-1, -0.5) exactly: the tie goes to the y face
    expect_hit(&b, v(0, 0), v(-2, -1.5f), v(4, 4), 0.25f, v(0, -1));
    // along the top edge (parallel, on its line): touches at the left side
    expect_hit(&b, v(0, 0), v(-5, 0.5f), v(10, 0), 0.4f, v(-1, 0));
    expect_miss(&b, v(0, 0), v(-5, 0.5001f), v(10, 0)); // parallel, just above
    expect_miss(&b, v(0, 0), v(-5, 0), v(3.9f, 0));     // stops short
    expect_hit(&b, v(0, 0), v(0.3f, 0.1f), v(0, -2), 0.0f, v(0, 1));
    expect_hit(&b, v(0, 0), v(0.3f, 0.1f), v(0, 0), 0.0f, v(0, 1));
    expect_miss(&b, v(0, 0), v(3, 3), v(0, 0));
}

static void test_hand_polygon(void **state) {
    (void)state;
    const vec2s tri[3] = {v(0, 0), v(2, 0), v(0, 2)};
    ledge_shape t;
    assert_true(ledge_make_polygon(tri, 3, &t));
    const float s = 0.70710678f;
    expect_hit(&t, v(0, 0), v(3, 3), v(-4, -4), 0.5f, v(s, s)); // the hypotenuse at (1, 1)
    expect_hit(&t, v(0, 0), v(-1, 1), v(4, 0), 0.25f, v(-1, 0));
    expect_hit(&t, v(0, 0), v(1, -3), v(0, 4), 0.75f, v(0, -1));
    expect_hit(&t, v(5, 5), v(6, 2), v(0, 4), 0.75f, v(0, -1)); // placed at (5, 5)
    expect_miss(&t, v(0, 0), v(3, 3), v(-1, -1));               // stops short
    expect_miss(&t, v(0, 0), v(-1, 3), v(4, 0));                // passes above
    expect_miss(&t, v(0, 0), v(-1, -0.001f), v(4, 0));          // parallel below the base
    expect_hit(&t, v(0, 0), v(0.5f, 0.5f), v(0, -3), 0.0f, v(0, 1));
    // a clockwise input is stored counter-clockwise: same answers
    const vec2s cw[3] = {v(0, 2), v(2, 0), v(0, 0)};
    ledge_shape t2;
    assert_true(ledge_make_polygon(cw, 3, &t2));
    expect_hit(&t2, v(0, 0), v(3, 3), v(-4, -4), 0.5f, v(s, s));
}

static void test_out_null(void **state) {
    (void)state;
    ledge_shape c = ledge_make_circle(v(0, 0), 1.0f);
    assert_true(ledge_shape_raycast(&c, v(0, 0), v(-5, 0), v(10, 0), NULL));
    assert_false(ledge_shape_raycast(&c, v(0, 0), v(-5, 0), v(1, 0), NULL));
}

// ---------------------------------------------------------------------------
// Refusals.

static void expect_refusal(const ledge_shape *s, vec2s pos, vec2s o, vec2s d, const char *word) {
    log_capture_start();
    ledge_ray_hit h;
    assert_false(ledge_shape_raycast(s, pos, o, d, &h));
    if (!log_capture_says("ledge_shape_raycast", word))
        fail_msg("expected 'ledge_shape_raycast' and '%s' in: '%s'", word, g_log.last);
    ledge_set_log_hook(NULL, NULL);
}

static void test_refusals(void **state) {
    (void)state;
    ledge_shape c = ledge_make_circle(v(0, 0), 1.0f);
    vec2s z = v(0, 0), o = v(-5, 0), d = v(10, 0);
    expect_refusal(&c, z, v(NAN, 0), d, "origin is (nan");
    expect_refusal(&c, z, v(0, INFINITY), d, "origin");
    expect_refusal(&c, z, o, v(INFINITY, 0), "translation is (inf");
    expect_refusal(&c, z, o, v(0, -NAN), "translation");
    expect_refusal(&c, v(NAN, 1), o, d, "pos is (nan, 1)");
    expect_refusal(&c, z, v(2e6f, 0), d, "origin is (2e+06");
    expect_refusal(NULL, z, o, d, "shape is NULL");
    ledge_shape bad = ledge_make_circle(z, -1.0f);
    expect_refusal(&bad, z, o, d, "shape is invalid");
    ledge_shape corrupt = ledge_make_box(z, v(1, 1));
    corrupt.count = 99;
    expect_refusal(&corrupt, z, o, d, "count 99");
    corrupt = c;
    corrupt.type = (ledge_shape_type)7;
    expect_refusal(&corrupt, z, o, d, "type 7");
    corrupt = c;
    corrupt.radius = NAN;
    expect_refusal(&corrupt, z, o, d, "shape is invalid");
}

// Regression (found by tests/fuzz/fuzz_collide.c): a ray starting inside a
// shape with a direction so short that its float square underflows got a
// normal of length 0.707 instead of 1.
static void test_tiny_direction_inside(void **state) {
    (void)state;
    ledge_shape c = ledge_make_circle((vec2s){{0.001953125f, 0}}, 2.5f);
    ledge_ray_hit hit;
    assert_true(ledge_shape_raycast(&c, (vec2s){{0, 0}}, (vec2s){{0, 1.01171875f}},
                                    (vec2s){{0, -2.64705874e-23f}}, &hit));
    assert_true(hit.fraction == 0.0f && hit.normal.x == 0.0f && hit.normal.y == 1.0f);
    assert_true(ledge_shape_raycast(&c, (vec2s){{0, 0}}, (vec2s){{0.5f, 0}},
                                    (vec2s){{3e-23f, 4e-23f}}, &hit));
    assert_float_equal(hit.normal.x, -0.6, 1e-6);
    assert_float_equal(hit.normal.y, -0.8, 1e-6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_circle),    cmocka_unit_test(test_hand_box),
        cmocka_unit_test(test_hand_polygon),   cmocka_unit_test(test_out_null),
        cmocka_unit_test(test_refusals),       cmocka_unit_test(test_random_circle),
        cmocka_unit_test(test_random_box),     cmocka_unit_test(test_random_polygon),
        cmocka_unit_test(test_random_rounded), cmocka_unit_test(test_tiny_direction_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
