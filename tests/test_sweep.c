// Time of impact: ledge_sweep_circles and ledge_sweep_boxes against their
// closed forms computed here in double, and ledge_sweep for every pair of
// shape kinds against a brute force written here in double precision.
//
// The brute force knows nothing of Minkowski sums: it places both shapes at
// the motion parameter s (a at pos_a + s move_a, b at pos_b + s move_b) and
// measures their separation g(s): the distance between circles minus the
// radii, the polygon's signed distance to a circle's centre minus the
// radius, and for two polygons the separating axis gap (the largest gap
// between their projections on any edge normal of either, computed here).
// g > 0 apart, g < 0 overlapping, 0 touching. The first contact is found by
// marching s over [0, 1] and bisecting on the overlap test g <= 0; since g is
// convex in s (a maximum of functions affine in s, or a distance to a convex
// set along a line), a ternary search gives its exact minimum, which tells a
// real hit (min g < -TOL) and a real miss (min g > TOL) from a graze.
//
// For every random case, with TOL = 1e-4 (coordinates within +-30):
//   1. already overlapping by more than TOL: fraction exactly 0 and the
//      normal is a direction of least penetration: the gap of the pair along
//      it (b's lowest projection minus a's highest) equals g(0);
//   2. min g < -TOL => hit; min g > TOL => miss;
//   3. a hit from apart: at the fraction the shapes touch (|g| <= TOL), the
//      normal is unit and separates them there with a zero gap along it
//      (which also fixes its sign: from a toward b), and the point lies on
//      both surfaces (|signed distance| <= 2 TOL to each);
//   4. unless the approach is grazing (closing speed along the normal below
//      5% of the relative speed), the fraction equals the brute force's
//      within TOL / closing rate, and slightly before it the shapes are
//      apart (g > 0).
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

#define TOL 1.0e-4
#define PI  3.14159265358979323846
// Random pairs per kind pair and generator. Both can be overridden
// (-DN_PAIRS=20000 -DSEED_SALT=7) for a long soak run.
#ifndef N_PAIRS
#define N_PAIRS test_cases(250)
#endif
#ifndef SEED_SALT
#define SEED_SALT 0
#endif

// ---------------------------------------------------------------------------
// The brute force: shapes in world space in double (random_shapes.h).

/// Signed distance from p to the shape moved by (ox, oy): > 0 outside.
static double sd(const dshape *s, double ox, double oy, double px, double py) {
    px -= ox;
    py -= oy;
    if (s->circle) return hypot(px - s->cx, py - s->cy) - s->r;
    double inside = -INFINITY, best = INFINITY;
    for (int i = 0; i < s->n; ++i) {
        int j = (i + 1) % s->n;
        double side = s->nx[i] * (px - s->x[i]) + s->ny[i] * (py - s->y[i]);
        inside = side > inside ? side : inside;
        double ex = s->x[j] - s->x[i], ey = s->y[j] - s->y[i];
        double u = ((px - s->x[i]) * ex + (py - s->y[i]) * ey) / (ex * ex + ey * ey);
        u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
        double dx = px - s->x[i] - u * ex, dy = py - s->y[i] - u * ey;
        double d2 = dx * dx + dy * dy;
        best = d2 < best ? d2 : best;
    }
    return inside <= 0.0 ? inside : sqrt(best);
}

/// Projection interval of the shape moved by (ox, oy) on unit (nx, ny).
static void project(const dshape *s, double ox, double oy, double nx, double ny, double *lo,
                    double *hi) {
    double o = ox * nx + oy * ny;
    if (s->circle) {
        double c = s->cx * nx + s->cy * ny + o;
        *lo = c - s->r;
        *hi = c + s->r;
        return;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < s->n; ++i) {
        double d = s->x[i] * nx + s->y[i] * ny + o;
        *lo = d < *lo ? d : *lo;
        *hi = d > *hi ? d : *hi;
    }
}

/// Gap along unit n from a toward b: b's lowest projection minus a's highest.
static double dir_gap(const dshape *a, double ax, double ay, const dshape *b, double bx, double by,
                      double nx, double ny) {
    double alo, ahi, blo, bhi;
    project(a, ax, ay, nx, ny, &alo, &ahi);
    project(b, bx, by, nx, ny, &blo, &bhi);
    return blo - ahi;
}

/// Separation of a moved by (ax, ay) and b moved by (bx, by): > 0 apart,
/// < 0 overlapping, 0 touching.
static double separation(const dshape *a, double ax, double ay, const dshape *b, double bx,
                         double by) {
    if (a->circle && b->circle)
        return hypot(b->cx + bx - a->cx - ax, b->cy + by - a->cy - ay) - a->r - b->r;
    if (b->circle) return sd(a, ax, ay, b->cx + bx, b->cy + by) - b->r;
    if (a->circle) return sd(b, bx, by, a->cx + ax, a->cy + ay) - a->r;
    double g = -INFINITY;
    for (int k = 0; k < a->n + b->n; ++k) {
        double nx = k < a->n ? a->nx[k] : b->nx[k - a->n];
        double ny = k < a->n ? a->ny[k] : b->ny[k - a->n];
        double g1 = dir_gap(a, ax, ay, b, bx, by, nx, ny);
        double g2 = dir_gap(a, ax, ay, b, bx, by, -nx, -ny);
        g = g1 > g ? g1 : g;
        g = g2 > g ? g2 : g;
    }
    return g;
}

typedef struct pair {
    ledge_shape sa, sb;
    vec2s pa, ma, pb, mb;
    dshape a, b; // placed at pa, pb
} pair;

static double g_at(const pair *p, double s) {
    return separation(&p->a, s * p->ma.x, s * p->ma.y, &p->b, s * p->mb.x, s * p->mb.y);
}

static double bisect(const pair *p, double lo, double hi) {
    for (int i = 0; i < 55; ++i) {
        double mid = 0.5 * (lo + hi);
        if (g_at(p, mid) <= 0.0) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return hi;
}

typedef struct brute {
    double first; // first s in [0, 1] where they touch or overlap; -1 if none
    double min_g; // smallest separation over the step
} brute;

static brute brute_sweep(const pair *p) {
    brute b = {-1.0, INFINITY};
    const int steps = 32;
    for (int k = 0; k <= steps; ++k) {
        double s = (double)k / steps, g = g_at(p, s);
        b.min_g = g < b.min_g ? g : b.min_g;
        if (g <= 0.0 && b.first < 0.0) b.first = k == 0 ? 0.0 : bisect(p, (k - 1.0) / steps, s);
    }
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 70; ++i) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (g_at(p, m1) < g_at(p, m2)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    double sm = 0.5 * (lo + hi), gm = g_at(p, sm);
    b.min_g = gm < b.min_g ? gm : b.min_g;
    if (b.first < 0.0 && gm <= 0.0) b.first = bisect(p, 0.0, sm); // contact between steps
    return b;
}

// ---------------------------------------------------------------------------
// Checking one case.

typedef struct tally {
    int cases, hits, overlapping, grazing, one_moving;
} tally;

#define CASE_FAIL(...)                                                                             \
    do {                                                                                           \
        print_shape("a", &p->sa);                                                                  \
        print_shape("b", &p->sb);                                                                  \
        print_error("%s case %d: %s at (%.9g, %.9g) moving (%.9g, %.9g), %s at (%.9g, %.9g) "      \
                    "moving (%.9g, %.9g): ",                                                       \
                    label, index, kind_name(&p->sa), (double)p->pa.x, (double)p->pa.y,             \
                    (double)p->ma.x, (double)p->ma.y, kind_name(&p->sb), (double)p->pb.x,          \
                    (double)p->pb.y, (double)p->mb.x, (double)p->mb.y);                            \
        fail_msg(__VA_ARGS__);                                                                     \
    } while (0)

// Prints a shape's numbers with 9 digits: enough to rebuild it exactly.
static void print_shape(const char *name, const ledge_shape *s) {
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        print_error("%s: circle centre (%.9g, %.9g) radius %.9g\n", name, (double)s->center.x,
                    (double)s->center.y, (double)s->radius);
        return;
    }
    print_error("%s: %s", name, s->type == LEDGE_SHAPE_BOX ? "box" : "polygon");
    for (int i = 0; i < s->count; ++i)
        print_error(" (%.9g, %.9g)", (double)s->vertices[i].x, (double)s->vertices[i].y);
    print_error("\n");
}

static const char *kind_name(const ledge_shape *s) {
    return kind_names[s->type == LEDGE_SHAPE_CIRCLE ? 0 : s->type == LEDGE_SHAPE_BOX ? 1 : 2];
}

static void check_pair(const pair *p, const char *label, int index, tally *tl) {
    ledge_toi toi;
    memset(&toi, 0xA5, sizeof toi);
    bool hit = ledge_sweep(&p->sa, p->pa, p->ma, &p->sb, p->pb, p->mb, &toi);
    if (ledge_sweep(&p->sa, p->pa, p->ma, &p->sb, p->pb, p->mb, NULL) != hit)
        CASE_FAIL("the answer depends on out being NULL");
    brute b = brute_sweep(p);
    double g0 = g_at(p, 0.0), t = toi.fraction, nx = toi.normal.x, ny = toi.normal.y;
    double dx = (double)p->mb.x - p->ma.x, dy = (double)p->mb.y - p->ma.y, len = hypot(dx, dy);
    tl->cases++;
    tl->hits += hit;
    tl->one_moving += (p->ma.x == 0.0f && p->ma.y == 0.0f) || (p->mb.x == 0.0f && p->mb.y == 0.0f);
    if (hit && fabs(hypot(nx, ny) - 1.0) > 1e-5) CASE_FAIL("normal length %g", hypot(nx, ny));
    if (g0 < -TOL) { // 1. already overlapping
        tl->overlapping++;
        if (!hit || t != 0.0) CASE_FAIL("overlapping (g %g) but hit %d at %g", g0, hit, t);
        double gn = dir_gap(&p->a, 0, 0, &p->b, 0, 0, nx, ny);
        if (fabs(gn - g0) > TOL)
            CASE_FAIL("normal (%g, %g) is not the least penetration: gap %g along it, %g", nx, ny,
                      gn, g0);
        // the point is midway between a's face and b's along the normal
        double alo, ahi, blo, bhi;
        project(&p->a, 0, 0, nx, ny, &alo, &ahi);
        project(&p->b, 0, 0, nx, ny, &blo, &bhi);
        double along = toi.point.x * nx + toi.point.y * ny;
        if (fabs(along - 0.5 * (ahi + blo)) > TOL)
            CASE_FAIL(
                "overlapping: point (%g, %g) is at %g along the normal, the faces at %g and %g",
                (double)toi.point.x, (double)toi.point.y, along, ahi, blo);
        return;
    }
    if (b.min_g < -TOL && !hit)
        CASE_FAIL("missed; brute force touches at %.9g (min g %g)", b.first, b.min_g);
    if (b.min_g > TOL && hit) CASE_FAIL("hit at %g; brute force misses (min g %g)", t, b.min_g);
    if (fabs(b.min_g) <= TOL) tl->grazing++;
    if (!hit) return;
    // 3. a hit from apart (or touching): they touch at t
    if (!(t >= 0.0 && t <= 1.0)) CASE_FAIL("fraction %g outside [0, 1]", t);
    double ax = t * p->ma.x, ay = t * p->ma.y, bx = t * p->mb.x, by = t * p->mb.y;
    double gt = g_at(p, t), gn = dir_gap(&p->a, ax, ay, &p->b, bx, by, nx, ny);
    if (fabs(gt) > TOL)
        CASE_FAIL("not touching at fraction %.9g: separation %g (brute force %.9g)", t, gt,
                  b.first);
    if (fabs(gn) > TOL)
        CASE_FAIL("normal (%g, %g) is not a contact normal: gap %g along it", nx, ny, gn);
    double ca = sd(&p->a, ax, ay, toi.point.x, toi.point.y);
    double cb = sd(&p->b, bx, by, toi.point.x, toi.point.y);
    if (fabs(ca) > 2 * TOL || fabs(cb) > 2 * TOL)
        CASE_FAIL("point (%g, %g) is off the surfaces: %g from a, %g from b", (double)toi.point.x,
                  (double)toi.point.y, ca, cb);
    // 4. at a clear approach the time is sharp
    double rate = len > 0.0 ? -(nx * dx + ny * dy) / len : 0.0;
    if (rate < 0.05 || b.min_g >= -TOL || g0 <= TOL) return;
    if (fabs(t - b.first) * len * rate > TOL)
        CASE_FAIL("fraction %.9g, brute force %.9g (closing rate %g)", t, b.first, rate);
    double before = t - 10.0 * TOL / (rate * len);
    if (before >= 0.0 && g_at(p, before) <= 0.0)
        CASE_FAIL("touching already at %g < %g", before, t);
}

// ---------------------------------------------------------------------------
// Random pairs. Each generator sets the positions and moves of a pair whose
// shapes are drawn; the relative move d = move_b - move_a is split between
// the two: b alone, a alone, or both.

enum {
    GEN_RANDOM,  // anywhere, any motion
    GEN_HEAD_ON, // b's relative motion aimed at a point near a's centre
    GEN_GLANCE,  // b's relative path tangent to a (+-0, 1e-6, 1e-3)
    GEN_OVERLAP, // already overlapping
    GEN_APART,   // moving apart from a near position
    GEN_SHORT,   // head on, stopping before contact
    GEN_COUNT
};
static const char *const gen_names[] = {"random",      "head-on",      "glancing",
                                        "overlapping", "moving apart", "stop short"};

static vec2s centre(const pair *p, bool of_b) {
    const ledge_shape *s = of_b ? &p->sb : &p->sa;
    vec2s pos = of_b ? p->pb : p->pa;
    return v(pos.x + s->center.x, pos.y + s->center.y);
}

static void split_motion(pair *p, double dx, double dy) {
    switch (rng_int(0, 2)) {
    case 0: // b moves
        p->ma = v(0, 0);
        p->mb = v((float)dx, (float)dy);
        break;
    case 1: // a moves
        p->ma = v((float)-dx, (float)-dy);
        p->mb = v(0, 0);
        break;
    default: { // both
        vec2s m = rng_vec(-6, 6);
        p->ma = m;
        p->mb = v((float)(m.x + dx), (float)(m.y + dy));
    }
    }
}

// Scales the relative motion so that the pair stops at k times the first contact.
static void stop_short(pair *p, double k) {
    brute b = brute_sweep(p);
    double f = b.first > 0.0 ? b.first * k : 1.0;
    p->ma = v((float)(p->ma.x * f), (float)(p->ma.y * f));
    p->mb = v((float)(p->mb.x * f), (float)(p->mb.y * f));
}

static void generate(int gen, pair *p) {
    p->pa = rng_vec(-5, 5);
    double ang = 2.0 * PI * rng_unit(), ux = cos(ang), uy = sin(ang), len = rng_range(4, 12);
    switch (gen) {
    case GEN_RANDOM:
        p->pb = rng_vec(-5, 5);
        {
            vec2s d = rng_vec(-12, 12);
            split_motion(p, d.x, d.y);
        }
        break;
    case GEN_HEAD_ON:
    case GEN_SHORT: {
        // b's centre starts 9 back along -u and travels through a's centre (+-0.1).
        vec2s ca = centre(p, false);
        double aim_x = ca.x + rng_range(-0.1, 0.1), aim_y = ca.y + rng_range(-0.1, 0.1);
        double k = rng_range(1.0, 2.0);
        p->pb = v((float)(aim_x - 9.0 * ux - p->sb.center.x),
                  (float)(aim_y - 9.0 * uy - p->sb.center.y));
        split_motion(p, 9.0 * k * ux, 9.0 * k * uy);
        if (gen == GEN_SHORT) {
            split_motion(p, 18.0 * ux, 18.0 * uy); // surely reaches, then stop short
            p->a = place(&p->sa, p->pa);
            p->b = place(&p->sb, p->pb);
            stop_short(p, rng_range(0.3, 0.999));
        }
        break;
    }
    case GEN_GLANCE: {
        // With w perpendicular to u, b's path touches a tangentially when b's
        // lowest projection on w equals a's highest: put b there (+ offset).
        double wx = -uy, wy = ux, alo, ahi, blo, bhi;
        p->pb = v(0, 0);
        dshape a = place(&p->sa, p->pa), b = place(&p->sb, v(0, 0));
        project(&a, 0, 0, wx, wy, &alo, &ahi);
        project(&b, 0, 0, wx, wy, &blo, &bhi);
        static const double offsets[] = {0.0, 1e-6, -1e-6, 1e-3, -1e-3};
        double w = ahi - blo + offsets[rng_int(0, 4)], back = 8.0 + rng_range(0, 4);
        vec2s ca = centre(p, false);
        double along = ca.x * ux + ca.y * uy - back;
        p->pb = v((float)(w * wx + along * ux), (float)(w * wy + along * uy));
        double travel = back + rng_range(-1, 6);
        split_motion(p, travel * ux, travel * uy);
        break;
    }
    case GEN_OVERLAP: {
        vec2s ca = centre(p, false);
        vec2s jitter = rng_vec(-0.1, 0.1);
        p->pb = v(ca.x - p->sb.center.x + jitter.x, ca.y - p->sb.center.y + jitter.y);
        {
            vec2s d = rng_vec(-12, 12);
            split_motion(p, d.x, d.y);
        }
        break;
    }
    case GEN_APART: {
        // from a near position (maybe touching or overlapping), away along
        // the line of centres or further off
        vec2s ca = centre(p, false);
        double dist = rng_range(0.0, 8.0);
        p->pb = v((float)(ca.x + dist * ux - p->sb.center.x),
                  (float)(ca.y + dist * uy - p->sb.center.y));
        double a2 = ang + rng_range(-1.2, 1.2);
        split_motion(p, len * cos(a2), len * sin(a2));
        break;
    }
    default:
        break;
    }
    p->a = place(&p->sa, p->pa);
    p->b = place(&p->sb, p->pb);
}

static void random_pairs(int kind_a, int kind_b, uint64_t seed) {
    g_rng = seed ^ (uint64_t)SEED_SALT;
    tally all[GEN_COUNT];
    memset(all, 0, sizeof all);
    const int n = N_PAIRS;
    for (int i = 0; i < n; ++i) {
        for (int gen = 0; gen < GEN_COUNT; ++gen) {
            pair p;
            memset(&p, 0, sizeof p);
            p.sa = random_shape(kind_a);
            p.sb = random_shape(kind_b);
            generate(gen, &p);
            check_pair(&p, gen_names[gen], i, &all[gen]);
        }
    }
    for (int gen = 0; gen < GEN_COUNT; ++gen) {
        print_message(
            "%-7s %-7s %-12s %4d cases: %4d hits, %4d overlapping, %3d grazing, %3d one moving\n",
            kind_names[kind_a], kind_names[kind_b], gen_names[gen], all[gen].cases, all[gen].hits,
            all[gen].overlapping, all[gen].grazing, all[gen].one_moving);
    }
    // The generators must produce what they say.
    assert_true(all[GEN_HEAD_ON].hits > n * 9 / 10);
    assert_true(all[GEN_OVERLAP].overlapping > n * 9 / 10);
    assert_true(all[GEN_GLANCE].grazing > n / 3);
    assert_true(all[GEN_SHORT].hits < n / 10);
    assert_true(all[GEN_APART].hits > 0 && all[GEN_APART].hits < n);
}

#define PAIR_TEST(a, b, seed)                                                                      \
    static void test_##a##_##b(void **state) {                                                     \
        (void)state;                                                                               \
        random_pairs(KIND_##a, KIND_##b, seed);                                                    \
    }
PAIR_TEST(CIRCLE, CIRCLE, 0x5357454550434331ull)
PAIR_TEST(CIRCLE, BOX, 0x5357454550434231ull)
PAIR_TEST(CIRCLE, POLYGON, 0x5357454550435031ull)
PAIR_TEST(BOX, CIRCLE, 0x5357454550424331ull)
PAIR_TEST(BOX, BOX, 0x5357454550424231ull)
PAIR_TEST(BOX, POLYGON, 0x5357454550425031ull)
PAIR_TEST(POLYGON, CIRCLE, 0x5357454550504331ull)
PAIR_TEST(POLYGON, BOX, 0x5357454550504231ull)
PAIR_TEST(POLYGON, POLYGON, 0x5357454550505031ull)

// ---------------------------------------------------------------------------
// Closed forms.

// Circles: |m + s d| = R with m = cb - ca, d = move_b - move_a, in double.
static void test_circles_closed_form(void **state) {
    (void)state;
    g_rng = 0x636972636c657331ull ^ (uint64_t)SEED_SALT;
    int hits = 0, checked = 0;
    for (int i = 0; i < test_cases(5000); ++i) {
        vec2s ca = rng_vec(-5, 5), cb = rng_vec(-5, 5),
              ma = rng_next() & 1 ? rng_vec(-8, 8) : v(0, 0);
        vec2s mb = rng_vec(-12, 12);
        float ra = rng_range(0.1, 3), rb = rng_range(0.1, 3);
        if (i % 4 == 0) { // aim b at a (head-on or glancing)
            double kx = rng_range(0.5, 2), ky = rng_range(0.5, 2), jx = rng_range(-1, 1),
                   jy = rng_range(-1, 1);
            mb =
                v((float)(ma.x + (ca.x - cb.x) * kx + jx), (float)(ma.y + (ca.y - cb.y) * ky + jy));
        }
        double mx = (double)cb.x - ca.x, my = (double)cb.y - ca.y;
        double dx = (double)mb.x - ma.x, dy = (double)mb.y - ma.y, R = (double)ra + rb;
        double a = dx * dx + dy * dy, b = mx * dx + my * dy, c = mx * mx + my * my - R * R;
        double disc = b * b - a * c, s = -1.0;
        if (c <= 0.0) {
            s = 0.0;
        } else if (a > 0.0 && b < 0.0 && disc >= 0.0) {
            s = (-b - sqrt(disc)) / a;
            if (s > 1.0) s = -1.0;
        }
        ledge_toi toi;
        bool hit = ledge_sweep_circles(ca, ra, ma, cb, rb, mb, &toi);
        // Undecidable in float: touching at the start, a grazing path, contact at the end.
        double len = sqrt(a), miss = a > 0.0 ? sqrt(fmax(0.0, c - b * b / a + R * R)) - R : 1.0;
        bool edge = fabs(sqrt(c + R * R) - R) < TOL || fabs(miss) < TOL ||
                    (s > 0.0 && fabs(s - 1.0) * len < TOL) ||
                    (s < 0.0 && a > 0.0 && b < 0.0 &&
                     fabs((-b - sqrt(fmax(disc, 0))) / a - 1.0) * len < TOL);
        if (edge) continue;
        checked++;
        if (hit != (s >= 0.0)) fail_msg("case %d: hit %d, closed form %g", i, hit, s);
        if (!hit) continue;
        hits++;
        // normal and point from the exact time
        double rx = mx + s * dx, ry = my + s * dy, rl = hypot(rx, ry);
        if (s == 0.0) {
            assert_true(toi.fraction == 0.0f);
        } else {
            double rate = -(rx * dx + ry * dy) / (rl * len);
            if (rate > 0.05 && fabs(toi.fraction - s) * len * rate > TOL)
                fail_msg("case %d: fraction %.9g, closed form %.9g", i, (double)toi.fraction, s);
        }
        if (rl > 1e-3 &&
            (fabs(toi.normal.x - rx / rl) > 1e-3 || fabs(toi.normal.y - ry / rl) > 1e-3))
            fail_msg("case %d: normal (%g, %g), closed form (%g, %g)", i, (double)toi.normal.x,
                     (double)toi.normal.y, rx / rl, ry / rl);
        if (s > 0.0) { // at a touch: a's centre at s plus ra along the normal
            double px = ca.x + s * ma.x + ra * rx / rl, py = ca.y + s * ma.y + ra * ry / rl;
            if (hypot(toi.point.x - px, toi.point.y - py) > 1e-3)
                fail_msg("case %d: point (%g, %g), closed form (%g, %g)", i, (double)toi.point.x,
                         (double)toi.point.y, px, py);
        }
        // ledge_sweep on two circle shapes is the same answer
        ledge_shape sa = ledge_make_circle(v(0.5f, 0), ra), sb = ledge_make_circle(v(0, -0.5f), rb);
        ledge_toi t2;
        assert_true(ledge_sweep(&sa, v(ca.x - 0.5f, ca.y), ma, &sb, v(cb.x, cb.y + 0.5f), mb, &t2));
        assert_float_equal(t2.fraction, toi.fraction, 1e-5);
        assert_float_equal(t2.normal.x, toi.normal.x, 1e-4);
        assert_float_equal(t2.normal.y, toi.normal.y, 1e-4);
    }
    print_message("circles closed form: %d checked, %d hits\n", checked, hits);
    assert_true(checked > test_cases(4500) && hits > test_cases(1000) &&
                hits < checked - test_cases(1000));
}

// Boxes: per-axis entry and exit times of |m + s d| <= h, in double.
static void test_boxes_closed_form(void **state) {
    (void)state;
    g_rng = 0x626f786573313131ull ^ (uint64_t)SEED_SALT;
    int hits = 0, checked = 0;
    for (int i = 0; i < test_cases(5000); ++i) {
        vec2s ca = rng_vec(-5, 5), cb = rng_vec(-5, 5),
              ma = rng_next() & 1 ? rng_vec(-8, 8) : v(0, 0);
        vec2s ha = rng_vec(0.1, 3), hb = rng_vec(0.1, 3);
        vec2s mb = rng_vec(-12, 12);
        if (i % 4 == 0)
            mb = v(ma.x + (ca.x - cb.x) * 1.5f, ma.y); // horizontal only: one still axis
        const double m[2] = {(double)cb.x - ca.x, (double)cb.y - ca.y};
        const double d[2] = {(double)mb.x - ma.x, (double)mb.y - ma.y};
        const double h[2] = {(double)ha.x + hb.x, (double)ha.y + hb.y};
        double enter[2], exit[2];
        for (int k = 0; k < 2; ++k) {
            if (d[k] == 0.0) {
                enter[k] = fabs(m[k]) <= h[k] ? -INFINITY : INFINITY;
                exit[k] = fabs(m[k]) <= h[k] ? INFINITY : -INFINITY;
            } else {
                double t0 = (-h[k] - m[k]) / d[k], t1 = (h[k] - m[k]) / d[k];
                enter[k] = fmin(t0, t1);
                exit[k] = fmax(t0, t1);
            }
        }
        double en = fmax(enter[0], enter[1]), ex = fmin(exit[0], exit[1]);
        bool expect = en <= ex && ex >= 0.0 && en <= 1.0;
        double len = hypot(d[0], d[1]);
        // undecidable in float: times within TOL (in length) of each other or of 0 and 1
        double scale = len > 0.0 ? TOL / len : 0.0;
        if (fabs(en - ex) < scale || fabs(ex) < scale || fabs(en - 1.0) < scale ||
            fabs(en) < scale || fabs(fabs(m[0]) - h[0]) < TOL || fabs(fabs(m[1]) - h[1]) < TOL)
            continue;
        checked++;
        ledge_toi toi;
        bool hit = ledge_sweep_boxes(ca, ha, ma, cb, hb, mb, &toi);
        if (hit != expect)
            fail_msg("case %d: hit %d, closed form %d (enter %g exit %g)", i, hit, expect, en, ex);
        if (!hit) continue;
        hits++;
        double s = en > 0.0 ? en : 0.0;
        if (fabs(toi.fraction - s) * len > TOL)
            fail_msg("case %d: fraction %.9g, closed form %.9g", i, (double)toi.fraction, s);
        if (en > 0.0 && fabs(enter[0] - enter[1]) * len > TOL) { // a face, not a corner
            int k = enter[0] > enter[1] ? 0 : 1;
            double want[2] = {0.0, 0.0};
            want[k] = d[k] > 0.0 ? -1.0 : 1.0;
            if (toi.normal.x != want[0] || toi.normal.y != want[1])
                fail_msg("case %d: normal (%g, %g), closed form (%g, %g)", i, (double)toi.normal.x,
                         (double)toi.normal.y, want[0], want[1]);
        }
        // the point: at a touch, the centre of the boxes' intersection at s
        if (en <= 0.0) continue;
        double ax = ca.x + s * ma.x, ay = ca.y + s * ma.y, bx = cb.x + s * mb.x,
               by = cb.y + s * mb.y;
        double px = 0.5 * (fmax(ax - ha.x, bx - hb.x) + fmin(ax + ha.x, bx + hb.x));
        double py = 0.5 * (fmax(ay - ha.y, by - hb.y) + fmin(ay + ha.y, by + hb.y));
        if (hypot(toi.point.x - px, toi.point.y - py) > 1e-3)
            fail_msg("case %d: point (%g, %g), closed form (%g, %g)", i, (double)toi.point.x,
                     (double)toi.point.y, px, py);
        // ledge_sweep on two box shapes is the same answer
        ledge_shape sa = ledge_make_box(v(0, 0), ha), sb = ledge_make_box(v(0, 0), hb);
        ledge_toi t2;
        assert_true(ledge_sweep(&sa, ca, ma, &sb, cb, mb, &t2));
        assert_true(t2.fraction == toi.fraction && t2.normal.x == toi.normal.x &&
                    t2.normal.y == toi.normal.y);
    }
    print_message("boxes closed form: %d checked, %d hits\n", checked, hits);
    assert_true(checked > test_cases(4000) && hits > test_cases(1000) &&
                hits < checked - test_cases(1000));
}

// ---------------------------------------------------------------------------
// Hand-made cases.

static void expect_toi(bool hit, const ledge_toi *t, float fraction, vec2s n, vec2s point) {
    assert_true(hit);
    assert_float_equal(t->fraction, fraction, 1e-6);
    assert_float_equal(t->normal.x, n.x, 1e-6);
    assert_float_equal(t->normal.y, n.y, 1e-6);
    assert_float_equal(t->point.x, point.x, 1e-5);
    assert_float_equal(t->point.y, point.y, 1e-5);
}

static void test_hand_circles(void **state) {
    (void)state;
    ledge_toi t;
    vec2s z = v(0, 0);
    bool h = ledge_sweep_circles(z, 1, z, v(5, 0), 1, v(-10, 0), &t);
    expect_toi(h, &t, 0.3f, v(1, 0), v(1, 0));
    h = ledge_sweep_circles(z, 1, v(5, 0), v(5, 0), 1, v(-5, 0), &t); // both move
    expect_toi(h, &t, 0.3f, v(1, 0), v(2.5f, 0));
    h = ledge_sweep_circles(v(5, 0), 1, v(-10, 0), z, 1, z, &t); // only a moves
    expect_toi(h, &t, 0.3f, v(-1, 0), v(1, 0));
    h = ledge_sweep_circles(z, 1, z, v(1, 0), 1, v(3, 0), &t); // overlapping, moving apart
    expect_toi(h, &t, 0.0f, v(1, 0), v(0.5f, 0));
    h = ledge_sweep_circles(z, 1, z, z, 2, v(3, 0), &t); // concentric
    expect_toi(h, &t, 0.0f, v(0, 1), v(0, -0.5f));
    h = ledge_sweep_circles(z, 1, z, v(5, 2), 1, v(-10, 0), &t); // grazes (0, 2)... at x = 0
    expect_toi(h, &t, 0.5f, v(0, 1), v(0, 1));
    assert_false(ledge_sweep_circles(z, 1, z, v(5, 2.01f), 1, v(-10, 0), &t));
    assert_false(ledge_sweep_circles(z, 1, z, v(5, 0), 1, v(10, 0), &t));      // moving apart
    assert_false(ledge_sweep_circles(z, 1, z, v(5, 0), 1, v(-2.9f, 0), &t));   // stops short
    assert_false(ledge_sweep_circles(z, 1, v(1, 1), v(5, 0), 1, v(1, 1), &t)); // same motion
    assert_true(ledge_sweep_circles(z, 1, z, v(5, 0), 1, v(-10, 0), NULL));
}

static void test_hand_boxes(void **state) {
    (void)state;
    ledge_toi t;
    vec2s z = v(0, 0), one = v(1, 1);
    ledge_shape box = ledge_make_box(z, one);
    bool h = ledge_sweep_boxes(z, one, z, v(5, 0.5f), one, v(-10, 0), &t);
    expect_toi(h, &t, 0.3f, v(1, 0), v(1, 0.25f));
    h = ledge_sweep_boxes(z, one, z, v(0, 5), one, v(0, -10), &t); // falls on it
    expect_toi(h, &t, 0.3f, v(0, 1), v(0, 1));
    h = ledge_sweep_boxes(z, one, z, v(3, 3), one, v(-2, -2), &t); // corner to corner: y wins
    expect_toi(h, &t, 0.5f, v(0, 1), v(1, 1));
    h = ledge_sweep_boxes(z, one, v(0, 2), v(0, 5), one, v(0, -2), &t); // both move
    expect_toi(h, &t, 0.75f, v(0, 1), v(0, 2.5f));
    h = ledge_sweep_boxes(z, v(2, 1), z, v(0.5f, 1.5f), one, v(5, 0),
                          &t); // overlapping by 0.5 in y
    expect_toi(h, &t, 0.0f, v(0, 1), v(0.5f, 0.75f));
    // as deep in x as in y: x wins, as in ledge_collide
    h = ledge_sweep_boxes(z, one, z, v(1, 1), one, v(1, 0), &t);
    expect_toi(h, &t, 0.0f, v(1, 0), v(0.5f, 0.5f));
    ledge_manifold mf = ledge_collide(&box, z, &box, v(1, 1));
    assert_true(mf.hit && mf.normal.x == 1.0f && mf.normal.y == 0.0f);
    h = ledge_sweep_boxes(z, v(3, 3), z, v(0.5f, 0.2f), one, v(1, 0), &t); // b nested in a
    expect_toi(h, &t, 0.0f, v(1, 0), v(1.25f, 0.2f));
    h = ledge_sweep_boxes(z, one, z, v(2, 0), one, v(0, 7), &t); // touching, sliding up
    expect_toi(h, &t, 0.0f, v(1, 0), v(1, 0));
    assert_false(ledge_sweep_boxes(z, one, z, v(5, 2.01f), one, v(-10, 0), &t));
    assert_false(ledge_sweep_boxes(z, one, z, v(5, 0), one, v(-2.9f, 0), &t));
    assert_false(ledge_sweep_boxes(z, one, z, v(5, 0), one, v(0, 10), &t));
    assert_true(ledge_sweep_boxes(z, one, z, v(5, 0), one, v(-10, 0), NULL));
}

static void test_hand_mixed(void **state) {
    (void)state;
    ledge_toi t;
    vec2s z = v(0, 0);
    ledge_shape box = ledge_make_box(z, v(1, 1)), ball = ledge_make_circle(z, 0.5f);
    bool h = ledge_sweep(&box, z, z, &ball, v(5, 0), v(-10, 0), &t);
    expect_toi(h, &t, 0.35f, v(1, 0), v(1, 0));
    h = ledge_sweep(&ball, v(5, 0), v(-10, 0), &box, z, z, &t); // swapped: normal reversed
    expect_toi(h, &t, 0.35f, v(-1, 0), v(1, 0));
    // a ball of radius sqrt 2 flying diagonally at the corner (1, 1)
    ledge_shape big = ledge_make_circle(z, 1.41421356f);
    const float s = 0.70710678f;
    h = ledge_sweep(&box, z, z, &big, v(3, 3), v(-4, -4), &t);
    expect_toi(h, &t, 0.25f, v(s, s), v(1, 1));
    // a triangle's flat base falling on the box: contact across the shared part
    const vec2s tri[3] = {v(0, 0), v(2, 0), v(1, 1)};
    ledge_shape t1;
    assert_true(ledge_make_polygon(tri, 3, &t1));
    h = ledge_sweep(&box, z, z, &t1, v(-1, 5), v(0, -10), &t);
    expect_toi(h, &t, 0.4f, v(0, 1), v(0, 1));
    h = ledge_sweep(&box, z, z, &t1, v(0.5f, 5), v(0, -10), &t); // half off the edge
    expect_toi(h, &t, 0.4f, v(0, 1), v(0.75f, 1));
    // a triangle pointing down lands on its tip
    const vec2s down[3] = {v(0, 0), v(1, 1), v(-1, 1)};
    ledge_shape t2;
    assert_true(ledge_make_polygon(down, 3, &t2));
    h = ledge_sweep(&box, z, z, &t2, v(0.3f, 3), v(0, -4), &t);
    expect_toi(h, &t, 0.5f, v(0, 1), v(0.3f, 1));
    h = ledge_sweep(&t2, v(0.3f, 3), v(0, -2), &box, z, v(0, 2), &t); // both move, swapped
    expect_toi(h, &t, 0.5f, v(0, -1), v(0.3f, 2));
    // a triangle resting inside the box: overlapping, out through the top (least)
    h = ledge_sweep(&box, z, z, &t2, v(0, -0.2f), v(5, 0), &t);
    assert_true(h && t.fraction == 0.0f);
    assert_float_equal(t.normal.y, 1.0f, 1e-6);
    assert_float_equal(t.point.x, 0.0f, 1e-6); // midway between the top (1) and the tip (-0.2)
    assert_float_equal(t.point.y, 0.4f, 1e-6);
    assert_false(ledge_sweep(&box, z, z, &t2, v(0.3f, 3), v(0, -1.9f), &t)); // stops short
    assert_false(ledge_sweep(&box, z, z, &t2, v(2.1f, 3), v(0, -4), &t));    // passes beside
}

// ---------------------------------------------------------------------------
// Refusals.

static void expect_said(bool result, const char *fn, const char *word) {
    assert_false(result);
    if (!log_capture_says(fn, word))
        fail_msg("expected '%s' and '%s' in: '%s'", fn, word, g_log.last);
}

static void test_refusals(void **state) {
    (void)state;
    ledge_toi t;
    vec2s z = v(0, 0), one = v(1, 1), m = v(1, 0);
    const char *c = "ledge_sweep_circles", *b = "ledge_sweep_boxes", *s = "ledge_sweep";
    log_capture_start();
    expect_said(ledge_sweep_circles(z, 0, m, one, 1, z, &t), c, "ra is 0");
    expect_said(ledge_sweep_circles(z, 1, m, one, -2, z, &t), c, "rb is -2");
    expect_said(ledge_sweep_circles(z, 1, m, one, NAN, z, &t), c, "rb is nan");
    expect_said(ledge_sweep_circles(v(NAN, 0), 1, m, one, 1, z, &t), c, "ca is (nan");
    expect_said(ledge_sweep_circles(z, 1, v(0, INFINITY), one, 1, z, &t), c, "move_a is (0, inf");
    expect_said(ledge_sweep_circles(z, 1, m, v(3e6f, 0), 1, z, &t), c, "cb is (3e+06");
    expect_said(ledge_sweep_boxes(z, v(0, 1), m, one, one, z, &t), b, "ha is (0, 1)");
    expect_said(ledge_sweep_boxes(z, one, m, one, v(1, -1), z, &t), b, "hb is (1, -1)");
    expect_said(ledge_sweep_boxes(z, one, m, one, v(NAN, 1), z, &t), b, "hb is (nan, 1)");
    expect_said(ledge_sweep_boxes(z, one, m, one, one, v(-INFINITY, 0), &t), b, "move_b is (-inf");
    ledge_shape ok = ledge_make_box(z, one), bad = ok;
    bad.type = LEDGE_SHAPE_INVALID;
    expect_said(ledge_sweep(NULL, z, m, &ok, one, z, &t), s, "a is NULL");
    expect_said(ledge_sweep(&ok, z, m, &bad, one, z, &t), s, "b is invalid");
    bad = ok;
    bad.count = 0;
    expect_said(ledge_sweep(&bad, z, m, &ok, one, z, &t), s, "a is invalid");
    expect_said(ledge_sweep(&ok, v(0, NAN), m, &ok, one, z, &t), s, "pos_a is (0, nan)");
    expect_said(ledge_sweep(&ok, z, m, &ok, one, v(NAN, NAN), &t), s, "move_b is (nan, nan)");
    ledge_set_log_hook(NULL, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_circles),
        cmocka_unit_test(test_hand_boxes),
        cmocka_unit_test(test_hand_mixed),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_circles_closed_form),
        cmocka_unit_test(test_boxes_closed_form),
        cmocka_unit_test(test_CIRCLE_CIRCLE),
        cmocka_unit_test(test_CIRCLE_BOX),
        cmocka_unit_test(test_CIRCLE_POLYGON),
        cmocka_unit_test(test_BOX_CIRCLE),
        cmocka_unit_test(test_BOX_BOX),
        cmocka_unit_test(test_BOX_POLYGON),
        cmocka_unit_test(test_POLYGON_CIRCLE),
        cmocka_unit_test(test_POLYGON_BOX),
        cmocka_unit_test(test_POLYGON_POLYGON),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
