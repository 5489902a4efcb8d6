// The tile set (src/tile.c): point tests, outlines, side coverage, names,
// normals and refusals of the stateless tile API, for all 34 ids.
//
// Everything is checked against a model written here from
// the tile definitions of docs/tilemap.md alone, in double precision and in world
// coordinates: the cell's centre c and half-width w give the named corners
// R, P, Q, F from the normal signs (sx, sy) of the id's orientation suffix;
// straight tiles are the convex polygons of the spec's table (point test by
// cross products against their edges), round tiles are the cell cut by the
// disc of radius 2w around R (CONVEX) or F (CONCAVE). The model never reads
// ledge's tile geometry.
//
// Point tests run on a dense 101 x 101 grid per cell and on random points in
// and around the cell, in cells of random position and size 0.1..100;
// points within 1e-5 x size of the model's boundary are skipped (float
// rounding may go either way there).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ledge/tiles.h"
#include "log_capture.h"
#include "rng.h"
#include "tile.h"

#define PI 3.14159265358979323846

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// ---------------------------------------------------------------------------
// The model.

typedef struct dv {
    double x, y;
} dv;

static dv dvec(double x, double y) {
    dv r = {x, y};
    return r;
}
static dv dsub(dv a, dv b) {
    return dvec(a.x - b.x, a.y - b.y);
}
static double ddot(dv a, dv b) {
    return a.x * b.x + a.y * b.y;
}
static double dcross(dv a, dv b) {
    return a.x * b.y - a.y * b.x;
}
static double dlen(dv a) {
    return sqrt(ddot(a, a));
}

enum { M_EMPTY, M_FULL, M_POLY, M_CONVEX, M_CONCAVE };

/// One tile in one cell, from the spec.
typedef struct mtile {
    int kind;
    const char *group; ///< The group's name as the spec spells it.
    dv lo, hi;         ///< The cell.
    double w;          ///< Half-width.
    dv c, R, P, Q, F;  ///< Centre and named corners.
    int n;             ///< Polygon points (M_POLY, M_FULL).
    dv p[4];           ///< Polygon in the spec's order (either winding).
    dv normal;         ///< Unit normal of the non-axis surface ((0,0) for EMPTY/FULL).
    dv surface;        ///< A point in the middle of that surface.
    double area;       ///< Area of the solid in a unit cell (from the spec's shapes).
} mtile;

static const char *const suffixes[4] = {"PN", "NN", "NP", "PP"};
static const double osx[4] = {1, -1, -1, 1}, osy[4] = {-1, -1, 1, 1};

static mtile model(int id, dv cell_min, double size) {
    mtile m;
    memset(&m, 0, sizeof m);
    m.lo = cell_min;
    m.hi = dvec(cell_min.x + size, cell_min.y + size);
    m.w = 0.5 * size;
    double w = m.w;
    m.c = dvec(cell_min.x + w, cell_min.y + w);
    dv c = m.c;
    if (id == 0) {
        m.kind = M_EMPTY;
        m.group = "EMPTY";
        return m;
    }
    if (id == 1) {
        m.kind = M_FULL;
        m.group = "FULL";
        m.n = 4;
        m.p[0] = m.lo, m.p[1] = dvec(m.hi.x, m.lo.y), m.p[2] = m.hi, m.p[3] = dvec(m.lo.x, m.hi.y);
        m.area = 1;
        return m;
    }
    if (id >= 30) { // HALF d, r, u, l: the half opposite the normal
        static const double hn[4][2] = {{0, -1}, {-1, 0}, {0, 1}, {1, 0}};
        static const char *const hnames[4] = {"HALF_D", "HALF_R", "HALF_U", "HALF_L"};
        dv n = dvec(hn[id - 30][0], hn[id - 30][1]);
        m.kind = M_POLY;
        m.group = hnames[id - 30];
        m.normal = n;
        m.surface = c;
        m.n = 4;
        // The half on the -n side: the cell's corners behind c plus the two
        // points of the centre line.
        dv t = dvec(-n.y, n.x);
        m.p[0] = dvec(c.x + w * t.x, c.y + w * t.y);
        m.p[1] = dvec(c.x - w * t.x, c.y - w * t.y);
        m.p[2] = dvec(c.x - w * t.x - w * n.x, c.y - w * t.y - w * n.y);
        m.p[3] = dvec(c.x + w * t.x - w * n.x, c.y + w * t.y - w * n.y);
        m.area = 0.5;
        return m;
    }
    int o = (id - 2) % 4, grp = (id - 2) / 4;
    double sx = osx[o], sy = osy[o];
    m.R = dvec(c.x - sx * w, c.y - sy * w);
    m.P = dvec(c.x + sx * w, c.y - sy * w);
    m.Q = dvec(c.x - sx * w, c.y + sy * w);
    m.F = dvec(c.x + sx * w, c.y + sy * w);
    static char names[34][24];
    static const char *const groups[7] = {"45DEG",     "CONCAVE",     "CONVEX",   "22DEG_SMALL",
                                          "22DEG_BIG", "67DEG_SMALL", "67DEG_BIG"};
    snprintf(names[id], sizeof names[id], "%s_%s", groups[grp], suffixes[o]);
    m.group = names[id];
    double s5 = sqrt(5.0), s2 = sqrt(2.0);
    m.kind = M_POLY;
    switch (grp) {
    case 0: // 45: triangle R, P, Q
        m.n = 3, m.p[0] = m.R, m.p[1] = m.P, m.p[2] = m.Q;
        m.normal = dvec(sx / s2, sy / s2);
        m.surface = c;
        m.area = 0.5;
        break;
    case 1: // CONCAVE: cell minus the disc around F
        m.kind = M_CONCAVE;
        m.normal = dvec(sx / s2, sy / s2); // radial toward F at the arc's middle
        m.surface = dvec(m.F.x - 2 * w * sx / s2, m.F.y - 2 * w * sy / s2);
        m.area = 1 - PI / 4;
        break;
    case 2: // CONVEX: cell ∩ the disc around R
        m.kind = M_CONVEX;
        m.normal = dvec(sx / s2, sy / s2);
        m.surface = dvec(m.R.x + 2 * w * sx / s2, m.R.y + 2 * w * sy / s2);
        m.area = PI / 4;
        break;
    case 3: // 22 small: triangle R, P, c + (-sx w, 0)
        m.n = 3, m.p[0] = m.R, m.p[1] = m.P, m.p[2] = dvec(c.x - sx * w, c.y);
        m.normal = dvec(sx / s5, 2 * sy / s5);
        m.area = 0.25;
        break;
    case 4: // 22 big: quad R, P, c + (sx w, 0), Q
        m.n = 4, m.p[0] = m.R, m.p[1] = m.P, m.p[2] = dvec(c.x + sx * w, c.y), m.p[3] = m.Q;
        m.normal = dvec(sx / s5, 2 * sy / s5);
        m.area = 0.75;
        break;
    case 5: // 67 small: triangle R, Q, c + (0, -sy w)
        m.n = 3, m.p[0] = m.R, m.p[1] = m.Q, m.p[2] = dvec(c.x, c.y - sy * w);
        m.normal = dvec(2 * sx / s5, sy / s5);
        m.area = 0.25;
        break;
    default: // 67 big: quad R, P, c + (0, sy w), Q
        m.n = 4, m.p[0] = m.R, m.p[1] = m.P, m.p[2] = dvec(c.x, c.y + sy * w), m.p[3] = m.Q;
        m.normal = dvec(2 * sx / s5, sy / s5);
        m.area = 0.75;
        break;
    }
    if (grp >= 3) {
        // The sloped edge is the one not lying on a cell side.
        for (int i = 0; i < m.n; i++) {
            dv a = m.p[i], b = m.p[(i + 1) % m.n];
            bool on_side = (a.x == b.x && (a.x == m.lo.x || a.x == m.hi.x)) ||
                           (a.y == b.y && (a.y == m.lo.y || a.y == m.hi.y));
            if (!on_side) m.surface = dvec(0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
        }
    }
    return m;
}

static bool in_cell(const mtile *m, dv p) {
    return p.x >= m->lo.x && p.x <= m->hi.x && p.y >= m->lo.y && p.y <= m->hi.y;
}

/// Point in a convex polygon of either winding, boundary included.
static bool in_poly(const dv *p, int n, dv q) {
    double area = 0;
    for (int i = 0; i < n; i++) area += dcross(p[i], p[(i + 1) % n]);
    for (int i = 0; i < n; i++) {
        double s = dcross(dsub(p[(i + 1) % n], p[i]), dsub(q, p[i]));
        if (area > 0 ? s < 0 : s > 0) return false;
    }
    return true;
}

static bool model_contains(const mtile *m, dv p) {
    switch (m->kind) {
    case M_EMPTY:
        return false;
    case M_CONVEX:
        return in_cell(m, p) && dlen(dsub(p, m->R)) <= 2 * m->w;
    case M_CONCAVE:
        return in_cell(m, p) && dlen(dsub(p, m->F)) >= 2 * m->w;
    default:
        return in_poly(m->p, m->n, p);
    }
}

static double seg_dist(dv a, dv b, dv p) {
    dv e = dsub(b, a);
    double t = ddot(dsub(p, a), e) / ddot(e, e);
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return dlen(dsub(p, dvec(a.x + e.x * t, a.y + e.y * t)));
}

/// Distance from p to the nearest line or circle the model's boundary is
/// made of (an upper bound of nothing, a lower bound of the distance to the
/// boundary): points closer than the band to it are skipped.
static double boundary_dist(const mtile *m, dv p) {
    dv cell[4] = {m->lo, dvec(m->hi.x, m->lo.y), m->hi, dvec(m->lo.x, m->hi.y)};
    double d = INFINITY;
    switch (m->kind) {
    case M_EMPTY:
        return INFINITY;
    case M_CONVEX:
    case M_CONCAVE:
        for (int i = 0; i < 4; i++) d = fmin(d, seg_dist(cell[i], cell[(i + 1) % 4], p));
        return fmin(d, fabs(dlen(dsub(p, m->kind == M_CONVEX ? m->R : m->F)) - 2 * m->w));
    default:
        for (int i = 0; i < m->n; i++) d = fmin(d, seg_dist(m->p[i], m->p[(i + 1) % m->n], p));
        return d;
    }
}

// ---------------------------------------------------------------------------
// Cells.

typedef struct cell {
    vec2s min;
    float size;
} cell;

/// A random cell of size 0.1..100 (log-uniform) near the origin, as in a map
/// of a few dozen cells: its corner stays within 30 cells of the origin so
/// that float coordinates resolve 1e-6 of the size.
static cell random_cell(void) {
    cell c;
    c.size = (float)exp(rng_range(log(0.1), log(100.0)));
    float kx = (float)rng_int(-20, 20), ky = (float)rng_int(-20, 20);
    float fx = rng_range(0, 1), fy = rng_range(0, 1);
    c.min = v((kx + fx) * c.size, (ky + fy) * c.size);
    return c;
}

static dv wv(vec2s p) {
    return dvec(p.x, p.y);
}

// ---------------------------------------------------------------------------
// Point tests.

typedef struct pt_tally {
    long checked, skipped, solid, fail;
} pt_tally;

static void check_point(int id, const cell *ce, const mtile *m, vec2s p, pt_tally *t) {
    dv q = wv(p);
    if (boundary_dist(m, q) < 1e-5 * ce->size) {
        t->skipped++;
        return;
    }
    t->checked++;
    bool want = model_contains(m, q);
    t->solid += want;
    bool got = ledge_tile_contains((ledge_tile)id, ce->min, ce->size, p);
    ledge__tile_geom g;
    ledge__tile_geom_of((ledge_tile)id, &g);
    vec2s unit = v((p.x - ce->min.x) / ce->size, (p.y - ce->min.y) / ce->size);
    bool got_unit = ledge__tile_contains_unit(&g, unit);
    if (got != want || got_unit != want) {
        if (t->fail++ < 8)
            print_error("tile %s cell {%.9g,%.9g} size %.9g point {%.9g,%.9g}: model %d, "
                        "ledge_tile_contains %d, unit %d\n",
                        ledge_tile_name((ledge_tile)id), (double)ce->min.x, (double)ce->min.y,
                        (double)ce->size, (double)p.x, (double)p.y, want, got, got_unit);
    }
}

static void test_contains_grid(void **state) {
    (void)state;
    g_rng = 0x7113c0de;
    pt_tally t = {0};
    for (int id = 0; id < LEDGE_TILE_COUNT; id++) {
        for (int k = 0; k < 3; k++) {
            cell ce = random_cell();
            if (k == 0) ce.size = 0.1f;
            if (k == 1) ce.size = 100.0f;
            mtile m = model(id, wv(ce.min), ce.size);
            for (int i = 0; i <= 100; i++) {
                for (int j = 0; j <= 100; j++) {
                    vec2s p = v((float)(ce.min.x + ce.size * i / 100.0),
                                (float)(ce.min.y + ce.size * j / 100.0));
                    check_point(id, &ce, &m, p, &t);
                }
            }
        }
    }
    print_message("[grid] %ld points checked (%ld solid), %ld in the boundary band skipped, "
                  "%ld failures\n",
                  t.checked, t.solid, t.skipped, t.fail);
    assert_int_equal(t.fail, 0);
    assert_true(t.solid > t.checked / 4);
}

static void test_contains_random(void **state) {
    (void)state;
    g_rng = 0xabcdef12;
    pt_tally t = {0};
    for (int id = 0; id < LEDGE_TILE_COUNT; id++) {
        for (int k = 0; k < 40; k++) {
            cell ce = random_cell();
            mtile m = model(id, wv(ce.min), ce.size);
            for (int i = 0; i < 250; i++) {
                // In and around the cell (a quarter of the size beyond it).
                double fx = rng_range(-0.25, 1.25), fy = rng_range(-0.25, 1.25);
                vec2s p = v((float)(ce.min.x + fx * ce.size), (float)(ce.min.y + fy * ce.size));
                check_point(id, &ce, &m, p, &t);
            }
        }
    }
    print_message("[random] %ld points checked (%ld solid), %ld skipped, %ld failures\n", t.checked,
                  t.solid, t.skipped, t.fail);
    assert_int_equal(t.fail, 0);
    assert_true(t.solid > t.checked / 8);
}

// The boundary itself is included: points exactly on the cell's sides of a
// FULL tile and on the 45-degree hypotenuse are solid.
static void test_contains_boundary(void **state) {
    (void)state;
    vec2s o = v(2, 3);
    assert_true(ledge_tile_contains(LEDGE_TILE_FULL, o, 2, v(2, 3)));
    assert_true(ledge_tile_contains(LEDGE_TILE_FULL, o, 2, v(4, 5)));
    assert_true(ledge_tile_contains(LEDGE_TILE_FULL, o, 2, v(3, 5)));
    assert_false(ledge_tile_contains(LEDGE_TILE_FULL, o, 2, v(4.001f, 4)));
    // 45 PP: R = (2, 3), P = (4, 3), Q = (2, 5): hypotenuse x + y = 7.
    assert_true(ledge_tile_contains(LEDGE_TILE_45DEG_PP, o, 2, v(3, 4)));
    assert_false(ledge_tile_contains(LEDGE_TILE_45DEG_PP, o, 2, v(3.01f, 4.01f)));
    assert_false(ledge_tile_contains(LEDGE_TILE_EMPTY, o, 2, v(3, 4)));
}

// ---------------------------------------------------------------------------
// Outlines.

/// Signed area of the outline polygon plus the arc's circular segment
/// (added when the solid lies inside the circle, subtracted when outside).
static double outline_area(const ledge_tile_outline *ol) {
    double a = 0;
    for (int i = 0; i < ol->count; i++)
        a += dcross(wv(ol->points[i]), wv(ol->points[(i + 1) % ol->count]));
    a *= 0.5;
    if (ol->arc_edge >= 0) {
        dv p0 = wv(ol->points[ol->arc_edge]), p1 = wv(ol->points[(ol->arc_edge + 1) % ol->count]);
        double r = ol->arc_radius, chord = dlen(dsub(p1, p0));
        double theta = 2 * asin(fmin(1.0, chord / (2 * r)));
        double segment = 0.5 * r * r * (theta - sin(theta));
        a += ol->arc_concave ? -segment : segment;
    }
    return a;
}

static void test_outlines(void **state) {
    (void)state;
    g_rng = 0x0071e5;
    long checked = 0;
    for (int id = 0; id < LEDGE_TILE_COUNT; id++) {
        for (int k = 0; k < 20; k++) {
            cell ce = random_cell();
            mtile m = model(id, wv(ce.min), ce.size);
            double tol = 1e-5 * ce.size;
            ledge_tile_outline ol;
            assert_true(ledge_tile_outline_get((ledge_tile)id, ce.min, ce.size, &ol));
            checked++;
            if (m.kind == M_EMPTY) {
                assert_int_equal(ol.count, 0);
                continue;
            }
            assert_true(ol.count >= 3 && ol.count <= 6);
            // Every corner and every edge midpoint lies on the model's
            // boundary; the arc's middle too.
            for (int i = 0; i < ol.count; i++) {
                dv a = wv(ol.points[i]), b = wv(ol.points[(i + 1) % ol.count]);
                assert_true(boundary_dist(&m, a) < tol);
                assert_true(model_contains(&m, a) || boundary_dist(&m, a) < tol);
                dv mid = dvec(0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
                if (i == ol.arc_edge) {
                    dv cen = wv(ol.arc_center);
                    dv r = dsub(mid, cen);
                    double l = dlen(r);
                    mid = dvec(cen.x + r.x / l * ol.arc_radius, cen.y + r.y / l * ol.arc_radius);
                }
                assert_true(boundary_dist(&m, mid) < tol);
                // Just inside the edge (to its left, CCW) is solid, just
                // outside is not.
                dv e = dsub(b, a);
                double l = dlen(e);
                dv in = dvec(-e.y / l, e.x / l);
                if (i == ol.arc_edge) {
                    dv r = dsub(mid, wv(ol.arc_center));
                    double rl = dlen(r);
                    in = dvec(r.x / rl, r.y / rl);
                    if (!ol.arc_concave) in = dvec(-in.x, -in.y);
                }
                double eps = 1e-3 * ce.size;
                assert_true(model_contains(&m, dvec(mid.x + eps * in.x, mid.y + eps * in.y)));
                assert_false(model_contains(&m, dvec(mid.x - eps * in.x, mid.y - eps * in.y)));
            }
            double area = outline_area(&ol), want = m.area * ce.size * ce.size;
            if (fabs(area - want) > 1e-5 * want)
                fail_msg("%s: outline area %.9g, model %.9g", m.group, area, want);
            if (m.kind == M_CONVEX || m.kind == M_CONCAVE) {
                assert_true(ol.arc_edge >= 0);
                assert_int_equal(ol.arc_concave, m.kind == M_CONCAVE);
                dv cen = m.kind == M_CONVEX ? m.R : m.F;
                assert_true(dlen(dsub(wv(ol.arc_center), cen)) < tol);
                assert_true(fabs(ol.arc_radius - 2 * m.w) < tol);
            } else {
                assert_int_equal(ol.arc_edge, -1);
            }
        }
    }
    print_message("[outline] %ld outlines checked\n", checked);
}

// ---------------------------------------------------------------------------
// Coverage, names, groups, normals.

static void test_cover(void **state) {
    (void)state;
    static const ledge_side sides[4] = {LEDGE_SIDE_XNEG, LEDGE_SIDE_XPOS, LEDGE_SIDE_YNEG,
                                        LEDGE_SIDE_YPOS};
    int counts[3] = {0};
    for (int id = 0; id < LEDGE_TILE_COUNT; id++) {
        mtile m = model(id, dvec(0, 0), 1);
        for (int s = 0; s < 4; s++) {
            // 1001 samples along the side, closed test: all solid is FULL, a
            // single point (a tip) or nothing is NONE, anything else PARTIAL.
            int solid = 0;
            for (int i = 0; i <= 1000; i++) {
                double t = i / 1000.0;
                dv p = s == 0 ? dvec(0, t) : s == 1 ? dvec(1, t) : s == 2 ? dvec(t, 0) : dvec(t, 1);
                solid += model_contains(&m, p);
            }
            ledge_cover want = solid == 1001 ? LEDGE_COVER_FULL
                               : solid <= 1  ? LEDGE_COVER_NONE
                                             : LEDGE_COVER_PARTIAL;
            ledge_cover got = ledge_tile_cover((ledge_tile)id, sides[s]);
            if (got != want)
                fail_msg("%s side %d: cover %d, model %d (%d of 1001 samples solid)", m.group, s,
                         got, want, solid);
            counts[want]++;
            // The collision data agrees: full_sides holds exactly the FULL ones.
            ledge__tile_geom g;
            ledge__tile_geom_of((ledge_tile)id, &g);
            assert_int_equal((g.full_sides & sides[s]) != 0, want == LEDGE_COVER_FULL);
        }
    }
    print_message("[cover] 136 sides: %d none, %d partial, %d full\n", counts[0], counts[1],
                  counts[2]);
    // Every kind occurs: the test would catch a constant answer.
    assert_true(counts[0] > 0 && counts[1] > 0 && counts[2] > 0);
}

static void test_names(void **state) {
    (void)state;
    for (int id = 0; id < LEDGE_TILE_COUNT; id++) {
        mtile m = model(id, dvec(0, 0), 1);
        const char *name = ledge_tile_name((ledge_tile)id);
        assert_string_equal(name, m.group);
        assert_int_equal(ledge_tile_from_name(name), id);
        char lower[32];
        size_t i = 0;
        for (; name[i] && i + 1 < sizeof lower; i++)
            lower[i] = (char)tolower((unsigned char)name[i]);
        lower[i] = '\0';
        assert_int_equal(ledge_tile_from_name(lower), id);
    }
    assert_string_equal(ledge_tile_name(34), "INVALID");
    assert_string_equal(ledge_tile_name(255), "INVALID");
    assert_int_equal(ledge_tile_from_name("INVALID"), -1);
    assert_int_equal(ledge_tile_from_name("FULLX"), -1);
    assert_int_equal(ledge_tile_from_name("FUL"), -1);
    assert_int_equal(ledge_tile_from_name(""), -1);
    assert_int_equal(ledge_tile_from_name(NULL), -1);
}

static void test_groups(void **state) {
    (void)state;
    for (int id = 0; id < LEDGE_TILE_COUNT; id++) {
        ledge_tile_group g = ledge_tile_group_of((ledge_tile)id);
        ledge_tile_group want = id == 0   ? LEDGE_TILE_GROUP_EMPTY
                                : id == 1 ? LEDGE_TILE_GROUP_FULL
                                : id >= 30
                                    ? LEDGE_TILE_GROUP_HALF
                                    : (ledge_tile_group)(LEDGE_TILE_GROUP_45DEG + (id - 2) / 4);
        assert_int_equal(g, want);
    }
    assert_int_equal(ledge_tile_group_of(34), LEDGE_TILE_GROUP_EMPTY);
}

static void test_normals(void **state) {
    (void)state;
    for (int id = 0; id < LEDGE_TILE_COUNT; id++) {
        mtile m = model(id, dvec(-3, 5), 2);
        vec2s n = ledge_tile_normal((ledge_tile)id);
        if (m.kind == M_EMPTY || m.kind == M_FULL) {
            assert_true(n.x == 0.0f && n.y == 0.0f);
            continue;
        }
        assert_true(fabs(hypot(n.x, n.y) - 1) < 1e-6);
        assert_true(fabs(n.x - m.normal.x) < 1e-6 && fabs(n.y - m.normal.y) < 1e-6);
        // Out of the solid: a step along n from the surface's middle leaves
        // it, a step against n enters it.
        double eps = 1e-3;
        dv s = m.surface;
        assert_false(model_contains(&m, dvec(s.x + eps * n.x, s.y + eps * n.y)));
        assert_true(model_contains(&m, dvec(s.x - eps * n.x, s.y - eps * n.y)));
        // And it is the surface's normal: perpendicular to straight
        // surfaces (both neighbours along the surface lie on the boundary),
        // radial on the arcs.
        dv t = dvec(-n.y, n.x);
        if (m.kind == M_POLY) {
            assert_true(boundary_dist(&m, dvec(s.x + 0.1 * t.x, s.y + 0.1 * t.y)) < 1e-6);
            assert_true(boundary_dist(&m, dvec(s.x - 0.1 * t.x, s.y - 0.1 * t.y)) < 1e-6);
        } else {
            dv r = dsub(s, m.kind == M_CONVEX ? m.R : m.F);
            double sign = m.kind == M_CONVEX ? 1 : -1;
            assert_true(fabs(r.x / dlen(r) * sign - n.x) < 1e-6);
            assert_true(fabs(r.y / dlen(r) * sign - n.y) < 1e-6);
        }
    }
}

// ---------------------------------------------------------------------------
// Refusals.

static void test_refusals(void **state) {
    (void)state;
    vec2s o = v(0, 0), p = v(0.5f, 0.5f);
    log_capture_start();
    assert_false(ledge_tile_contains(34, o, 1, p));
    assert_true(log_capture_says("ledge_tile_contains", "tile is 34"));
    log_capture_start();
    assert_false(ledge_tile_contains(LEDGE_TILE_FULL, v(NAN, 0), 1, p));
    assert_true(log_capture_says("ledge_tile_contains", "cell_min"));
    log_capture_start();
    assert_false(ledge_tile_contains(LEDGE_TILE_FULL, o, 1, v(0.5f, INFINITY)));
    assert_true(log_capture_says("ledge_tile_contains", "point"));
    const float bad_size[] = {0.0f, -1.0f, NAN, INFINITY, 2e6f};
    for (unsigned i = 0; i < sizeof bad_size / sizeof bad_size[0]; i++) {
        log_capture_start();
        assert_false(ledge_tile_contains(LEDGE_TILE_FULL, o, bad_size[i], p));
        assert_true(log_capture_says("ledge_tile_contains", "size"));
        ledge_tile_outline ol;
        memset(&ol, 0x5a, sizeof ol);
        log_capture_start();
        assert_false(ledge_tile_outline_get(LEDGE_TILE_FULL, o, bad_size[i], &ol));
        assert_true(log_capture_says("ledge_tile_outline_get", "size"));
        assert_int_equal(ol.count, 0); // neutral: an empty outline
        assert_int_equal(ol.arc_edge, -1);
    }
    log_capture_start();
    assert_false(ledge_tile_outline_get(LEDGE_TILE_FULL, o, 1, NULL));
    assert_true(log_capture_says("ledge_tile_outline_get", "out is NULL"));
    ledge_tile_outline ol;
    log_capture_start();
    assert_false(ledge_tile_outline_get(200, o, 1, &ol));
    assert_true(log_capture_says("ledge_tile_outline_get", "tile is 200"));
    assert_int_equal(ol.count, 0);
    log_capture_start();
    assert_false(ledge_tile_outline_get(LEDGE_TILE_FULL, v(0, -INFINITY), 1, &ol));
    assert_true(log_capture_says("ledge_tile_outline_get", "cell_min"));
    log_capture_start();
    assert_int_equal(ledge_tile_cover(34, LEDGE_SIDE_XNEG), LEDGE_COVER_NONE);
    assert_true(log_capture_says("ledge_tile_cover", "tile is 34"));
    const int bad_side[] = {0, 3, 16, -1};
    for (unsigned i = 0; i < sizeof bad_side / sizeof bad_side[0]; i++) {
        log_capture_start();
        assert_int_equal(ledge_tile_cover(LEDGE_TILE_FULL, (ledge_side)bad_side[i]),
                         LEDGE_COVER_NONE);
        assert_true(log_capture_says("ledge_tile_cover", "side"));
    }
    log_capture_start();
    vec2s n = ledge_tile_normal(99);
    assert_true(n.x == 0.0f && n.y == 0.0f);
    assert_true(log_capture_says("ledge_tile_normal", "tile is 99"));
    // Good calls log nothing.
    log_capture_start();
    assert_true(ledge_tile_contains(LEDGE_TILE_FULL, o, 1, p));
    assert_true(ledge_tile_outline_get(LEDGE_TILE_CONCAVE_PN, o, 1, &ol));
    assert_int_equal(ledge_tile_cover(LEDGE_TILE_FULL, LEDGE_SIDE_YPOS), LEDGE_COVER_FULL);
    assert_int_equal(g_log.count, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contains_grid),
        cmocka_unit_test(test_contains_random),
        cmocka_unit_test(test_contains_boundary),
        cmocka_unit_test(test_outlines),
        cmocka_unit_test(test_cover),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_normals),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
