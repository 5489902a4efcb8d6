// The tilemap core (src/tilemap.c): create / destroy / set / get, edge
// states, and the point, region and shape queries.
//
// Everything is checked against a model of the tile set written here from
// the tile definitions of docs/tilemap.md alone, in double precision: each tile is a polygon
// built from its named corners R, P, Q, F (tested with the oracle's point in
// polygon and signed distance), or the unit square cut by a disc. The model
// never reads ledge's tile geometry. From it the test derives
//   - how each tile covers each side of its cell, as a 64-sample mask of the
//     side (samples at the midpoints of 64 equal pieces, closed test), and
//     from two facing masks the expected edge state: equal masks (both
//     full, both empty, or the same half) are an internal seam, OFF; full
//     against empty is SOLID; anything else INTERESTING;
//   - the expected answer of a point query, also exactly on cell
//     boundaries, where the map's rule is "solid when the point lies in the
//     closed solid region of any cell whose closed square holds it";
//   - the `blocked` sides (OFF edges) that a brute force passes to
//     ledge_collide_tile for every cell one by one, which the tilemap's
//     contact query must reproduce contact for contact.
// The map's contents are mirrored in the test (what was set), so the model
// does not read them back through ledge_tilemap_get either.
//
// The seam test is the acceptance test of the edge states: a box and a
// circle dragged along floors of FULL and HALF tiles and up a 45-degree ramp
// (both with y up and with y down) only ever get the surface normal.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scale.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledge/tilemap.h"
#include "tilemap.h" // ledge__tilemap_refresh_blocked
#include "log_capture.h"
#include "oracle.h"
#include "random_shapes.h"

// ---------------------------------------------------------------------------
// The model of the 34 tiles in the unit cell [0, 1]^2 (spec tables).

enum { M_EMPTY, M_FULL, M_POLY, M_CONVEX, M_CONCAVE };

typedef struct mtile {
    int kind;
    int n;      // M_POLY: the polygon
    odvec p[5]; //
    odvec disc; // M_CONVEX: R; M_CONCAVE: F (radius 1)
} mtile;

static mtile g_model[LEDGE_TILE_COUNT];

static void model_build(void) {
    // Orientations pn, nn, np, pp: the signs of the surface normal.
    static const double osx[4] = {1, -1, -1, 1}, osy[4] = {-1, -1, 1, 1};
    memset(g_model, 0, sizeof g_model);
    g_model[1].kind = M_FULL;
    for (int id = 2; id < 30; ++id) {
        int group = (id - 2) / 4, o = (id - 2) % 4;
        double sx = osx[o], sy = osy[o], c = 0.5, w = 0.5;
        odvec R = odv(c - sx * w, c - sy * w), P = odv(c + sx * w, c - sy * w);
        odvec Q = odv(c - sx * w, c + sy * w), F = odv(c + sx * w, c + sy * w);
        mtile *m = &g_model[id];
        m->kind = M_POLY;
        switch (group) {
        case 0: // 45DEG: triangle R, P, Q
            m->n = 3, m->p[0] = R, m->p[1] = P, m->p[2] = Q;
            break;
        case 1: // CONCAVE: the square minus the disc of radius 2w around F
            m->kind = M_CONCAVE, m->disc = F;
            break;
        case 2: // CONVEX: the square within the disc of radius 2w around R
            m->kind = M_CONVEX, m->disc = R;
            break;
        case 3: // 22 small: R, P, c + (-sx w, 0)
            m->n = 3, m->p[0] = R, m->p[1] = P, m->p[2] = odv(c - sx * w, c);
            break;
        case 4: // 22 big: R, P, c + (sx w, 0), Q
            m->n = 4, m->p[0] = R, m->p[1] = P, m->p[2] = odv(c + sx * w, c), m->p[3] = Q;
            break;
        case 5: // 67 small: R, Q, c + (0, -sy w)
            m->n = 3, m->p[0] = R, m->p[1] = Q, m->p[2] = odv(c, c - sy * w);
            break;
        default: // 67 big: R, P, c + (0, sy w), Q
            m->n = 4, m->p[0] = R, m->p[1] = P, m->p[2] = odv(c, c + sy * w), m->p[3] = Q;
            break;
        }
    }
    // HALF d, r, u, l: the half of the square opposite to the normal.
    static const double hnx[4] = {0, -1, 0, 1}, hny[4] = {-1, 0, 1, 0};
    for (int o = 0; o < 4; ++o) {
        double x0 = hnx[o] < 0 ? 0.5 : 0, x1 = hnx[o] > 0 ? 0.5 : 1;
        double y0 = hny[o] < 0 ? 0.5 : 0, y1 = hny[o] > 0 ? 0.5 : 1;
        mtile *m = &g_model[30 + o];
        m->kind = M_POLY, m->n = 4;
        m->p[0] = odv(x0, y0), m->p[1] = odv(x1, y0), m->p[2] = odv(x1, y1), m->p[3] = odv(x0, y1);
    }
}

static bool in_unit(double u, double v) {
    return u >= 0 && u <= 1 && v >= 0 && v <= 1;
}

/// Closed point test in unit-cell coordinates, exact in double.
static bool model_contains(int tile, double u, double v) {
    const mtile *m = &g_model[tile];
    if (m->kind == M_EMPTY || !in_unit(u, v)) return false;
    double dx = u - m->disc.x, dy = v - m->disc.y;
    switch (m->kind) {
    case M_FULL:
        return true;
    case M_CONVEX:
        return dx * dx + dy * dy <= 1.0;
    case M_CONCAVE:
        return dx * dx + dy * dy >= 1.0;
    default:
        return oracle_point_in_polygon(m->p, m->n, odv(u, v));
    }
}

/// Signed distance (unit-cell units, < 0 inside) from (u, v) to the tile's
/// solid region, exact inside and a lower bound of the distance outside:
/// enough to tell robust answers from near-surface ones.
static double model_sd(int tile, double u, double v) {
    const mtile *m = &g_model[tile];
    if (m->kind == M_EMPTY) return INFINITY;
    odvec sq[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    oshape square = oracle_polygon(sq, 4);
    double s = oracle_point_sd(&square, odv(u, v), NULL);
    double r = hypot(u - m->disc.x, v - m->disc.y);
    switch (m->kind) {
    case M_FULL:
        return s;
    case M_CONVEX:
        return fmax(s, r - 1.0);
    case M_CONCAVE:
        return fmax(s, 1.0 - r);
    default: {
        oshape poly = oracle_polygon(m->p, m->n);
        return oracle_point_sd(&poly, odv(u, v), NULL);
    }
    }
}

// Sides in the order of their ledge_side bits: XNEG, XPOS, YNEG, YPOS.
static const ledge_side side_bits[4] = {LEDGE_SIDE_XNEG, LEDGE_SIDE_XPOS, LEDGE_SIDE_YNEG,
                                        LEDGE_SIDE_YPOS};
#define MASK_ALL UINT64_MAX

/// Which of 64 sample points along side s the tile covers.
static uint64_t model_side_mask(int tile, int s) {
    uint64_t mask = 0;
    for (int k = 0; k < 64; ++k) {
        double t = (k + 0.5) / 64.0;
        double u = s == 0 ? 0.0 : s == 1 ? 1.0 : t;
        double v = s == 2 ? 0.0 : s == 3 ? 1.0 : t;
        if (model_contains(tile, u, v)) mask |= 1ull << k;
    }
    return mask;
}

static ledge_edge model_edge_of_masks(uint64_t a, uint64_t b) {
    if (a == b) return LEDGE_EDGE_OFF;
    if ((a == MASK_ALL && b == 0) || (a == 0 && b == MASK_ALL)) return LEDGE_EDGE_SOLID;
    return LEDGE_EDGE_INTERESTING;
}

static uint64_t g_masks[LEDGE_TILE_COUNT][4];

static int setup(void **state) {
    (void)state;
    model_build();
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        for (int s = 0; s < 4; ++s) g_masks[t][s] = model_side_mask(t, s);
    }
    return 0;
}

// ---------------------------------------------------------------------------
// A map mirrored in the test.

typedef struct tmap {
    ledge_tilemap *map;
    int w, h;
    float size;
    vec2s origin;
    ledge_tile cells[64 * 64];
} tmap;

static void tmap_create(tmap *t, int w, int h, float size, vec2s origin) {
    assert_true(w * h <= 64 * 64);
    ledge_tilemap_def def = ledge_default_tilemap_def();
    def.width = w, def.height = h, def.tile_size = size, def.origin = origin;
    t->map = ledge_tilemap_create(&def);
    assert_non_null(t->map);
    t->w = w, t->h = h, t->size = size, t->origin = origin;
    memset(t->cells, 0, sizeof t->cells);
}

static void tmap_set(tmap *t, int x, int y, ledge_tile tile) {
    assert_true(ledge_tilemap_set(t->map, x, y, tile));
    t->cells[y * t->w + x] = tile;
}

/// The mirrored tile, FULL outside.
static int tmap_tile(const tmap *t, int x, int y) {
    if (x < 0 || y < 0 || x >= t->w || y >= t->h) return LEDGE_TILE_FULL;
    return t->cells[y * t->w + x];
}

/// The model's state of side s of any cell.
static ledge_edge model_edge(const tmap *t, int x, int y, int s) {
    static const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1}, facing[4] = {1, 0, 3, 2};
    int a = tmap_tile(t, x, y), b = tmap_tile(t, x + dx[s], y + dy[s]);
    return model_edge_of_masks(g_masks[a][s], g_masks[b][facing[s]]);
}

/// The blocked sides: the OFF ones, except an untouched side (no sample
/// covered) next to a blocked fully covered side when the cell diagonally
/// across their shared corner is EMPTY or FULL: there the tile's surface
/// must not run on over the neighbour (docs/tilemap.md, edge states).
static unsigned model_blocked(const tmap *t, int x, int y) {
    static const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
    unsigned off = 0, blocked = 0;
    int tile = tmap_tile(t, x, y);
    for (int s = 0; s < 4; ++s) {
        if (model_edge(t, x, y, s) == LEDGE_EDGE_OFF) off |= side_bits[s];
    }
    for (int s = 0; s < 4; ++s) {
        if (!(off & side_bits[s])) continue;
        bool keep = true;
        for (int p = 0; p < 4 && g_masks[tile][s] == 0; ++p) {
            bool perpendicular = (s < 2) != (p < 2);
            if (!perpendicular || !(off & side_bits[p]) || g_masks[tile][p] != MASK_ALL) continue;
            int d = tmap_tile(t, x + dx[s] + dx[p], y + dy[s] + dy[p]);
            if (d == LEDGE_TILE_EMPTY || d == LEDGE_TILE_FULL) keep = false;
        }
        if (keep) blocked |= side_bits[s];
    }
    return blocked;
}

/// Every side of every cell of the map and a two-cell ring around it
/// matches the model.
static void check_all_edges(const tmap *t) {
    for (int y = -2; y < t->h + 2; ++y) {
        for (int x = -2; x < t->w + 2; ++x) {
            for (int s = 0; s < 4; ++s) {
                ledge_edge want = model_edge(t, x, y, s), got;
                got = ledge_tilemap_edge(t->map, x, y, side_bits[s]);
                if (got != want) {
                    fail_msg("edge of cell (%d, %d) (tile %d) side %d: got %d, model %d", x, y,
                             tmap_tile(t, x, y), s, got, want);
                }
            }
        }
    }
}

/// Random contents: a third empty, a sixth FULL, the rest any id.
static ledge_tile random_tile(void) {
    int r = rng_int(0, 5);
    if (r <= 1) return LEDGE_TILE_EMPTY;
    if (r == 2) return LEDGE_TILE_FULL;
    return (ledge_tile)rng_int(0, LEDGE_TILE_COUNT - 1);
}

static void tmap_randomize(tmap *t) {
    for (int y = 0; y < t->h; ++y) {
        for (int x = 0; x < t->w; ++x) tmap_set(t, x, y, random_tile());
    }
}

static vec2s cell_min_of(const tmap *t, int x, int y) {
    // The same float arithmetic as the map: origin + index * size.
    return v(t->origin.x + (float)x * t->size, t->origin.y + (float)y * t->size);
}

// ---------------------------------------------------------------------------
// Create, destroy, get, set, edges.

static void expect_def_refused(ledge_tilemap_def def, const char *w1, const char *w2) {
    log_capture_start();
    ledge_tilemap *m = ledge_tilemap_create(&def);
    if (m != NULL) fail_msg("def accepted, expected a refusal mentioning '%s'", w1);
    if (!log_capture_says(w1, w2)) {
        fail_msg("log '%s' does not mention '%s' / '%s'", g_log.last, w1, w2 ? w2 : "");
    }
}

static void test_def_refusals(void **state) {
    (void)state;
    ledge_tilemap_def d = ledge_default_tilemap_def(), b;
    assert_int_equal(d.width, 16);
    assert_int_equal(d.height, 16);
    assert_true(d.tile_size == 1.0f && d.origin.x == 0.0f && d.origin.y == 0.0f);
    static const int bad_sides[] = {0, -1, INT_MIN, LEDGE_MAX_TILEMAP_SIDE + 1, INT_MAX};
    for (size_t i = 0; i < sizeof bad_sides / sizeof bad_sides[0]; ++i) {
        b = d, b.width = bad_sides[i];
        expect_def_refused(b, "ledge_tilemap_create", "width");
        b = d, b.height = bad_sides[i];
        expect_def_refused(b, "ledge_tilemap_create", "height");
    }
    b = d, b.width = LEDGE_MAX_TILEMAP_SIDE, b.height = LEDGE_MAX_TILEMAP_CELLS / 65536 + 1;
    b.tile_size = 0.01f;
    expect_def_refused(b, "width * def->height", "268435456");
    // 1e-40 is subnormal: its reciprocal overflows, so it is refused too.
    static const float bad_sizes[] = {0.0f,      -1.0f,  NAN,      INFINITY,
                                      -INFINITY, 2.0e6f, 1.0e-40f, 5.0e-5f};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; ++i) {
        b = d, b.tile_size = bad_sizes[i];
        expect_def_refused(b, "tile_size", NULL);
    }
    static const float bad_coords[] = {NAN, INFINITY, -INFINITY, 2.0e6f, -1.5e6f};
    for (size_t i = 0; i < sizeof bad_coords / sizeof bad_coords[0]; ++i) {
        b = d, b.origin.x = bad_coords[i];
        expect_def_refused(b, "origin", NULL);
        b = d, b.origin.y = bad_coords[i];
        expect_def_refused(b, "origin", NULL);
    }
    // The far side of the map must stay within the coordinate range.
    b = d, b.origin = v(9.0e5f, 0), b.tile_size = 1000.0f, b.width = 101;
    expect_def_refused(b, "reaches x", NULL);
    b = d, b.origin = v(0, 9.0e5f), b.tile_size = 1000.0f, b.height = 101;
    expect_def_refused(b, "reaches y", NULL);
    log_capture_start();
    assert_null(ledge_tilemap_create(NULL));
    assert_true(log_capture_says("ledge_tilemap_create", "def is NULL"));

    // Just inside every limit: accepted, nothing logged.
    log_capture_start();
    b = d, b.origin = v(9.0e5f, -1.0e6f), b.tile_size = 1000.0f, b.width = 100, b.height = 2;
    ledge_tilemap *m = ledge_tilemap_create(&b);
    assert_non_null(m);
    ledge_tilemap_def got = ledge_tilemap_get_def(m);
    assert_true(got.width == 100 && got.height == 2 && got.tile_size == 1000.0f);
    assert_true(got.origin.x == 9.0e5f && got.origin.y == -1.0e6f);
    ledge_tilemap_destroy(m);
    b = d, b.width = LEDGE_MAX_TILEMAP_SIDE, b.height = 1;
    m = ledge_tilemap_create(&b);
    assert_non_null(m);
    assert_int_equal(ledge_tilemap_get(m, LEDGE_MAX_TILEMAP_SIDE - 1, 0), LEDGE_TILE_EMPTY);
    assert_int_equal(ledge_tilemap_get(m, LEDGE_MAX_TILEMAP_SIDE, 0), LEDGE_TILE_FULL);
    ledge_tilemap_destroy(m);
    assert_int_equal(g_log.count, 0);
    ledge_tilemap_destroy(NULL); // allowed, silent
    assert_int_equal(g_log.count, 0);
}

static void test_basics_and_refusals(void **state) {
    (void)state;
    tmap t;
    tmap_create(&t, 5, 3, 0.5f, v(-1.25f, 2.0f));
    log_capture_start();
    for (int y = -3; y < 6; ++y) {
        for (int x = -3; x < 8; ++x) {
            bool in = x >= 0 && y >= 0 && x < 5 && y < 3;
            assert_int_equal(ledge_tilemap_get(t.map, x, y),
                             in ? LEDGE_TILE_EMPTY : LEDGE_TILE_FULL);
        }
    }
    static const int far[] = {INT_MIN, INT_MIN + 1, -1000000, 1000000, INT_MAX - 1, INT_MAX};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; ++i) {
        assert_int_equal(ledge_tilemap_get(t.map, far[i], 0), LEDGE_TILE_FULL);
        assert_int_equal(ledge_tilemap_get(t.map, 0, far[i]), LEDGE_TILE_FULL);
        for (int s = 0; s < 4; ++s) { // both sides outside: FULL against FULL
            assert_int_equal(ledge_tilemap_edge(t.map, far[i], far[i], side_bits[s]),
                             LEDGE_EDGE_OFF);
        }
    }
    // An empty map: its border is SOLID (EMPTY against the FULL outside),
    // every inner side OFF.
    assert_int_equal(ledge_tilemap_edge(t.map, 0, 0, LEDGE_SIDE_XNEG), LEDGE_EDGE_SOLID);
    assert_int_equal(ledge_tilemap_edge(t.map, -1, 0, LEDGE_SIDE_XPOS), LEDGE_EDGE_SOLID);
    assert_int_equal(ledge_tilemap_edge(t.map, 4, 2, LEDGE_SIDE_YPOS), LEDGE_EDGE_SOLID);
    assert_int_equal(ledge_tilemap_edge(t.map, 2, 1, LEDGE_SIDE_XPOS), LEDGE_EDGE_OFF);
    check_all_edges(&t);
    assert_int_equal(g_log.count, 0);

    // Refusals: logged, neutral result, nothing changed.
    log_capture_start();
    assert_false(ledge_tilemap_set(t.map, -1, 0, LEDGE_TILE_FULL));
    assert_true(log_capture_says("ledge_tilemap_set", "(-1, 0)"));
    assert_false(ledge_tilemap_set(t.map, 5, 0, LEDGE_TILE_FULL));
    assert_true(log_capture_says("ledge_tilemap_set", "(5, 0)"));
    assert_false(ledge_tilemap_set(t.map, 0, 3, LEDGE_TILE_FULL));
    assert_true(log_capture_says("ledge_tilemap_set", "0..2"));
    assert_false(ledge_tilemap_set(t.map, INT_MIN, INT_MAX, LEDGE_TILE_FULL));
    assert_true(log_capture_says("ledge_tilemap_set", "cell"));
    assert_false(ledge_tilemap_set(t.map, 1, 1, LEDGE_TILE_COUNT));
    assert_true(log_capture_says("ledge_tilemap_set", "tile is 34"));
    assert_false(ledge_tilemap_set(t.map, 1, 1, 255));
    assert_true(log_capture_says("ledge_tilemap_set", "tile is 255"));
    assert_false(ledge_tilemap_set(NULL, 0, 0, LEDGE_TILE_FULL));
    assert_true(log_capture_says("ledge_tilemap_set", "map is NULL"));
    assert_int_equal(g_log.count, 7);
    check_all_edges(&t); // still the empty map

    log_capture_start();
    assert_int_equal(ledge_tilemap_get(NULL, 0, 0), LEDGE_TILE_EMPTY);
    assert_true(log_capture_says("ledge_tilemap_get", "map is NULL"));
    ledge_tilemap_def none = ledge_tilemap_get_def(NULL);
    assert_true(log_capture_says("ledge_tilemap_get_def", "map is NULL"));
    assert_int_equal(none.width, 0);
    assert_int_equal(ledge_tilemap_edge(NULL, 0, 0, LEDGE_SIDE_XNEG), LEDGE_EDGE_OFF);
    assert_true(log_capture_says("ledge_tilemap_edge", "map is NULL"));
    static const int bad_sides[] = {0, 3, 5, 16, 15, -1};
    for (size_t i = 0; i < sizeof bad_sides / sizeof bad_sides[0]; ++i) {
        g_log.count = 0;
        assert_int_equal(ledge_tilemap_edge(t.map, 0, 0, (ledge_side)bad_sides[i]), LEDGE_EDGE_OFF);
        assert_true(log_capture_says("ledge_tilemap_edge", "side is"));
    }
    int cx = 7, cy = 7;
    ledge_tilemap_cell_at(NULL, v(0, 0), &cx, &cy);
    assert_true(log_capture_says("ledge_tilemap_cell_at", "map is NULL"));
    assert_true(cx == 0 && cy == 0);
    g_log.count = 0;
    ledge_tilemap_cell_at(t.map, v(NAN, 0), &cx, &cy);
    assert_true(log_capture_says("ledge_tilemap_cell_at", "point is (nan"));
    g_log.count = 0;
    ledge_tilemap_cell_at(t.map, v(0, -INFINITY), &cx, &cy);
    assert_true(log_capture_says("ledge_tilemap_cell_at", "must be finite"));

    // cell_at: floor division, far points clamped instead of overflowing.
    log_capture_start();
    ledge_tilemap_cell_at(t.map, v(-1.25f, 2.0f), &cx, &cy);
    assert_true(cx == 0 && cy == 0);
    ledge_tilemap_cell_at(t.map, v(-1.2500001f, 1.9999999f), &cx, &cy);
    assert_true(cx == -1 && cy == -1);
    ledge_tilemap_cell_at(t.map, v(1.0f, 3.6f), &cx, &cy); // (2.25 / 0.5, 1.6 / 0.5)
    assert_true(cx == 4 && cy == 3);
    ledge_tilemap_cell_at(t.map, v(3e38f, -3e38f), &cx, &cy);
    assert_true(cx > 1000000000 && cy < -1000000000);
    ledge_tilemap_cell_at(t.map, v(0, 0), NULL, &cy); // either output may be NULL
    assert_int_equal(cy, -4);
    assert_int_equal(g_log.count, 0);
    ledge_tilemap_destroy(t.map);
}

// Every pair of tile ids across a vertical and a horizontal side, and every
// id against the FULL outside on all four sides.
static void test_edges_every_pair(void **state) {
    (void)state;
    tmap hz, vt, one;
    tmap_create(&hz, 2, 1, 1.0f, v(0, 0)); // (0,0) | (1,0)
    tmap_create(&vt, 1, 2, 1.0f, v(0, 0)); // (0,0) below (0,1)
    tmap_create(&one, 1, 1, 2.0f, v(3, 3));
    int seen[3] = {0, 0, 0};
    for (int a = 0; a < LEDGE_TILE_COUNT; ++a) {
        // The model's cover agrees with the public per-tile cover.
        for (int s = 0; s < 4; ++s) {
            uint64_t m = g_masks[a][s];
            ledge_cover want = m == MASK_ALL ? LEDGE_COVER_FULL
                               : m == 0      ? LEDGE_COVER_NONE
                                             : LEDGE_COVER_PARTIAL;
            assert_int_equal(ledge_tile_cover((ledge_tile)a, side_bits[s]), want);
        }
        tmap_set(&one, 0, 0, (ledge_tile)a);
        check_all_edges(&one);
        for (int b = 0; b < LEDGE_TILE_COUNT; ++b) {
            tmap_set(&hz, 0, 0, (ledge_tile)a);
            tmap_set(&hz, 1, 0, (ledge_tile)b);
            ledge_edge e = model_edge_of_masks(g_masks[a][1], g_masks[b][0]);
            assert_int_equal(ledge_tilemap_edge(hz.map, 0, 0, LEDGE_SIDE_XPOS), e);
            assert_int_equal(ledge_tilemap_edge(hz.map, 1, 0, LEDGE_SIDE_XNEG), e);
            seen[e]++;
            tmap_set(&vt, 0, 0, (ledge_tile)a);
            tmap_set(&vt, 0, 1, (ledge_tile)b);
            e = model_edge_of_masks(g_masks[a][3], g_masks[b][2]);
            assert_int_equal(ledge_tilemap_edge(vt.map, 0, 0, LEDGE_SIDE_YPOS), e);
            assert_int_equal(ledge_tilemap_edge(vt.map, 0, 1, LEDGE_SIDE_YNEG), e);
            seen[e]++;
            if (b % 7 == 0) { // the outer sides too, now and then
                check_all_edges(&hz);
                check_all_edges(&vt);
            }
        }
    }
    // Every state occurs, and the seams the issue is about are OFF.
    assert_true(seen[0] > 100 && seen[1] > 100 && seen[2] > 100);
    tmap_set(&hz, 0, 0, LEDGE_TILE_HALF_U);
    tmap_set(&hz, 1, 0, LEDGE_TILE_HALF_U);
    assert_int_equal(ledge_tilemap_edge(hz.map, 0, 0, LEDGE_SIDE_XPOS), LEDGE_EDGE_OFF);
    tmap_set(&hz, 1, 0, LEDGE_TILE_HALF_D); // the other half: not a seam
    assert_int_equal(ledge_tilemap_edge(hz.map, 0, 0, LEDGE_SIDE_XPOS), LEDGE_EDGE_INTERESTING);
    tmap_set(&hz, 1, 0, LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_edge(hz.map, 0, 0, LEDGE_SIDE_XPOS), LEDGE_EDGE_INTERESTING);
    tmap_set(&hz, 0, 0, LEDGE_TILE_EMPTY);
    assert_int_equal(ledge_tilemap_edge(hz.map, 0, 0, LEDGE_SIDE_XPOS), LEDGE_EDGE_SOLID);
    tmap_set(&hz, 1, 0, LEDGE_TILE_EMPTY);
    assert_int_equal(ledge_tilemap_edge(hz.map, 0, 0, LEDGE_SIDE_XPOS), LEDGE_EDGE_OFF);
    ledge_tilemap_destroy(hz.map);
    ledge_tilemap_destroy(vt.map);
    ledge_tilemap_destroy(one.map);
}

// Random sets on a small map: after each one, every side of every cell
// (the neighbours' included) matches the model.
static void test_edges_follow_sets(void **state) {
    (void)state;
    g_rng = 0x7117;
    tmap t;
    tmap_create(&t, 5, 4, 1.0f, v(0, 0));
    for (int i = 0; i < 400; ++i) {
        int x = rng_int(0, 4), y = rng_int(0, 3);
        tmap_set(&t, x, y, random_tile());
        check_all_edges(&t);
        assert_int_equal(ledge_tilemap_get(t.map, x, y), tmap_tile(&t, x, y));
    }
    ledge_tilemap_destroy(t.map);
}

// --- allocation --------------------------------------------------------------

static int g_live_blocks;
static size_t g_last_request;

static void *failing_alloc(size_t size, void *user) {
    (void)user;
    g_last_request = size;
    return NULL;
}
static void *counting_alloc(size_t size, void *user) {
    (void)user;
    g_last_request = size;
    void *p = malloc(size);
    if (p) g_live_blocks++;
    return p;
}
static void counting_free(void *ptr, void *user) {
    (void)user;
    if (ptr) g_live_blocks--;
    free(ptr);
}

static void test_allocation(void **state) {
    (void)state;
    ledge_tilemap_def def = ledge_default_tilemap_def();
    def.width = 300, def.height = 200;
    log_capture_start();
    g_last_request = 0;
    ledge_set_allocator(failing_alloc, counting_free, NULL);
    ledge_tilemap *m = ledge_tilemap_create(&def);
    ledge_set_allocator(NULL, NULL, NULL);
    assert_null(m);
    assert_true(g_last_request >= 300u * 200u * 3u); // the tiles and both edge arrays
    assert_true(log_capture_says("ledge_tilemap_create", "300 x 200"));

    // With a working hook everything goes through it and comes back.
    log_capture_start();
    g_live_blocks = 0;
    ledge_set_allocator(counting_alloc, counting_free, NULL);
    m = ledge_tilemap_create(&def);
    assert_non_null(m);
    assert_true(g_live_blocks > 0);
    assert_true(ledge_tilemap_set(m, 299, 199, LEDGE_TILE_FULL));
    ledge_tilemap_destroy(m);
    ledge_set_allocator(NULL, NULL, NULL);
    assert_int_equal(g_live_blocks, 0);
    assert_int_equal(g_log.count, 0);
}

// ---------------------------------------------------------------------------
// Point queries.

// Random maps of every tile id, random points away from cell boundaries:
// the query agrees with ledge_tile_contains on the cell and with the model;
// points outside the map are solid.
static void test_point_random(void **state) {
    (void)state;
    g_rng = 0x9017;
    int compared = 0, solid_seen = 0, empty_seen = 0, outside = 0;
    int per_tile[LEDGE_TILE_COUNT] = {0};
    log_capture_start();
    for (int round = 0; round < 40; ++round) {
        tmap t;
        int w = rng_int(1, 14), h = rng_int(1, 12);
        float size = rng_range(0.25, 3.0);
        tmap_create(&t, w, h, size, rng_vec(-20, 20));
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x < w; ++x) {
                tmap_set(&t, x, y, (ledge_tile)rng_int(0, LEDGE_TILE_COUNT - 1));
            }
        }
        for (int i = 0; i < test_cases(2500); ++i) {
            float px = t.origin.x + size * rng_range(-1.0, w + 1.0);
            float py = t.origin.y + size * rng_range(-1.0, h + 1.0);
            vec2s p = v(px, py);
            double fx = ((double)px - t.origin.x) / size, fy = ((double)py - t.origin.y) / size;
            double cx = floor(fx), cy = floor(fy), u = fx - cx, uv = fy - cy;
            if (u < 1e-5 || u > 1 - 1e-5 || uv < 1e-5 || uv > 1 - 1e-5) continue;
            int x = (int)cx, y = (int)cy, tile = tmap_tile(&t, x, y);
            ledge_tile_hit hit = {-99, -99, 99};
            bool got = ledge_tilemap_query_point(t.map, p, &hit);
            assert_int_equal(hit.x, x);
            assert_int_equal(hit.y, y);
            assert_int_equal(hit.tile, tile);
            assert_true(ledge_tilemap_query_point(t.map, p, NULL) == got);
            bool inside_map = x >= 0 && y >= 0 && x < w && y < h;
            if (!inside_map) {
                assert_true(got);
                outside++;
                continue;
            }
            double sd = model_sd(tile, u, uv);
            if (fabs(sd) < 1e-4) continue; // on the surface: float rounding decides
            if (got != (sd < 0)) {
                fail_msg("tile %s at (%g, %g) in its cell: query %d, model sd %g",
                         ledge_tile_name((ledge_tile)tile), u, uv, got, sd);
            }
            assert_true(got ==
                        ledge_tile_contains((ledge_tile)tile, cell_min_of(&t, x, y), size, p));
            compared++, per_tile[tile]++;
            got ? solid_seen++ : empty_seen++;
        }
        ledge_tilemap_destroy(t.map);
    }
    assert_int_equal(g_log.count, 0);
    print_message("point: %d compared, %d outside, %d solid, %d empty\n", compared, outside,
                  solid_seen, empty_seen);
    assert_true(compared > test_cases(40000) && outside > test_cases(20000) &&
                solid_seen > test_cases(15000) && empty_seen > test_cases(15000));
    for (int tile = 0; tile < LEDGE_TILE_COUNT; ++tile)
        assert_true(per_tile[tile] > test_cases(200));
}

// Points exactly on cell boundaries (sides, corners, the map's border):
// solid when any cell whose closed square holds the point has it in its
// closed solid region. Tile sizes are powers of two and origins integers
// so that both the map and the model compute the cell coordinates exactly.
static void test_point_boundaries(void **state) {
    (void)state;
    g_rng = 0xB0DE;
    int checked = 0, solid_seen = 0, neighbour_only = 0;
    static const float sizes[] = {0.5f, 1.0f, 2.0f};
    log_capture_start();
    for (int round = 0; round < 60; ++round) {
        tmap t;
        int w = rng_int(1, 10), h = rng_int(1, 10);
        float size = sizes[rng_int(0, 2)];
        tmap_create(&t, w, h, size, v((float)rng_int(-8, 8), (float)rng_int(-8, 8)));
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x < w; ++x) tmap_set(&t, x, y, random_tile());
        }
        for (int i = 0; i < test_cases(1500); ++i) {
            // Grid coordinates: one or both on a grid line; the other
            // exactly at 0 or 0.5 of a cell, or clear of where tile
            // surfaces cross a side (0, 0.5, 1). Multiples of 1/1024, so
            // that every sum below is exact in float.
            double g[2];
            for (int a = 0; a < 2; ++a) {
                int k = rng_int(-1, (a ? h : w) + 1), mode = rng_int(0, 3);
                double f = mode == 0 ? 0.0 : mode == 1 ? 0.5 : rng_int(2, 510) / 1024.0;
                if (mode == 3) f += 0.5;
                g[a] = k + f;
            }
            if (g[0] != floor(g[0]) && g[1] != floor(g[1])) g[rng_int(0, 1)] = floor(g[0]);
            vec2s p = v(t.origin.x + (float)(g[0] * size), t.origin.y + (float)(g[1] * size));
            double fx = ((double)p.x - t.origin.x) / size, fy = ((double)p.y - t.origin.y) / size;
            assert_true(fx == g[0] && fy == g[1]); // exact by construction
            bool want = false, own = false;
            for (int y = (int)ceil(fy) - 1; y <= (int)floor(fy); ++y) {
                for (int x = (int)ceil(fx) - 1; x <= (int)floor(fx); ++x) {
                    bool in = model_contains(tmap_tile(&t, x, y), fx - x, fy - y);
                    want = want || in;
                    if (x == (int)floor(fx) && y == (int)floor(fy)) own = in;
                }
            }
            ledge_tile_hit hit;
            bool got = ledge_tilemap_query_point(t.map, p, &hit);
            if (got != want) {
                fail_msg("point (%g, %g) cells: query %d, model %d", fx, fy, got, want);
            }
            if (got) { // the hit names a cell holding the point in its solid
                assert_int_equal(hit.tile, tmap_tile(&t, hit.x, hit.y));
                assert_true(model_contains(hit.tile, fx - hit.x, fy - hit.y));
                solid_seen++;
                if (!own) neighbour_only++;
            } else {
                assert_true(hit.x == (int)floor(fx) && hit.y == (int)floor(fy));
            }
            checked++;
        }
        ledge_tilemap_destroy(t.map);
    }
    assert_int_equal(g_log.count, 0);
    assert_true(checked == 60 * test_cases(1500) && solid_seen > test_cases(20000) &&
                neighbour_only > test_cases(2000));
}

// The rule by hand, with a floor in both orientations.
static void test_point_hand(void **state) {
    (void)state;
    tmap t;
    tmap_create(&t, 4, 4, 1.0f, v(0, 0));
    tmap_set(&t, 1, 0, LEDGE_TILE_FULL);     // a floor block, y up: top at y = 1
    tmap_set(&t, 2, 3, LEDGE_TILE_FULL);     // a floor block, y down: top at y = 3
    tmap_set(&t, 3, 1, LEDGE_TILE_HALF_U);   // solid for y in [1, 1.5]
    tmap_set(&t, 0, 2, LEDGE_TILE_45DEG_PP); // triangle (0,2), (1,2), (0,3)
    ledge_tile_hit hit;
    log_capture_start();
    assert_true(ledge_tilemap_query_point(t.map, v(1.5f, 1.0f), &hit)); // on the top face
    assert_true(hit.x == 1 && hit.y == 0 && hit.tile == LEDGE_TILE_FULL);
    assert_false(ledge_tilemap_query_point(t.map, v(1.5f, 1.0000001f), &hit));
    assert_true(hit.x == 1 && hit.y == 1 && hit.tile == LEDGE_TILE_EMPTY);
    assert_true(ledge_tilemap_query_point(t.map, v(2.5f, 3.0f), &hit)); // y down, same rule
    assert_true(hit.x == 2 && hit.y == 3);
    assert_false(ledge_tilemap_query_point(t.map, v(2.5f, 2.9999998f), NULL));
    assert_true(ledge_tilemap_query_point(t.map, v(2.0f, 1.0f), &hit)); // corner of (1, 0) only
    assert_true(hit.x == 1 && hit.y == 0);
    assert_true(ledge_tilemap_query_point(t.map, v(3.25f, 1.5f), &hit)); // half tile's top
    assert_false(ledge_tilemap_query_point(t.map, v(3.25f, 1.5000001f), NULL));
    assert_true(ledge_tilemap_query_point(t.map, v(0.5f, 2.5f), NULL)); // on the slope
    assert_false(ledge_tilemap_query_point(t.map, v(0.5f, 2.5000002f), NULL));
    assert_false(ledge_tilemap_query_point(t.map, v(2.5f, 2.5f), NULL)); // empty middle
    // The border touches the FULL outside: solid, and so is everything beyond.
    assert_true(ledge_tilemap_query_point(t.map, v(0.0f, 3.5f), &hit));
    assert_true(hit.x == -1 && hit.y == 3 && hit.tile == LEDGE_TILE_FULL);
    assert_false(ledge_tilemap_query_point(t.map, v(0.0000001f, 3.5f), NULL));
    assert_true(ledge_tilemap_query_point(t.map, v(4.0f, 1.25f), NULL));
    assert_true(ledge_tilemap_query_point(t.map, v(-1e30f, 2e38f), &hit));
    assert_true(hit.tile == LEDGE_TILE_FULL);
    assert_true(ledge_tilemap_query_point(t.map, v(-1e-30f, 2.5f), NULL)); // rounds to cell -1
    assert_int_equal(g_log.count, 0);

    // Refusals: false, logged.
    assert_false(ledge_tilemap_query_point(NULL, v(1, 1), &hit));
    assert_true(log_capture_says("ledge_tilemap_query_point", "map is NULL"));
    g_log.count = 0;
    assert_false(ledge_tilemap_query_point(t.map, v(NAN, 1), &hit));
    assert_true(log_capture_says("ledge_tilemap_query_point", "point is (nan, 1)"));
    g_log.count = 0;
    assert_false(ledge_tilemap_query_point(t.map, v(1, INFINITY), NULL));
    assert_true(log_capture_says("ledge_tilemap_query_point", "must be finite"));
    ledge_tilemap_destroy(t.map);
}

// ---------------------------------------------------------------------------
// Region queries, against a brute force over every cell.

static void test_region(void **state) {
    (void)state;
    g_rng = 0x4E61;
    ledge_tile_hit out[64 * 64], trunc[8];
    int nonzero = 0, truncated = 0;
    log_capture_start();
    for (int round = 0; round < 300; ++round) {
        tmap t;
        int w = rng_int(1, 20), h = rng_int(1, 20);
        float size = rng_range(0.2, 4.0);
        tmap_create(&t, w, h, size, rng_vec(-50, 50));
        tmap_randomize(&t);
        for (int q = 0; q < 20; ++q) {
            double span = q < 15 ? 6.0 : 40.0; // some boxes cover the whole map
            double lx = rng_range(-4.0, w + 4.0), ly = rng_range(-4.0, h + 4.0);
            double ux = lx + span * rng_unit(), uy = ly + span * rng_unit();
            // Stay clear of grid lines: which cell a boundary belongs to is
            // checked by hand below.
            double g[4] = {lx, ly, ux, uy};
            bool near = false;
            for (int k = 0; k < 4; ++k) near = near || fabs(g[k] - floor(g[k] + 0.5)) < 1e-3;
            if (near) continue;
            ledge_aabb box = {v(t.origin.x + (float)(lx * size), t.origin.y + (float)(ly * size)),
                              v(t.origin.x + (float)(ux * size), t.origin.y + (float)(uy * size))};
            int n = ledge_tilemap_query_region(t.map, box, out, 64 * 64), k = 0;
            for (int y = 0; y < h; ++y) {
                for (int x = 0; x < w; ++x) {
                    int tile = tmap_tile(&t, x, y);
                    bool overlaps = x + 1 > lx && x < ux && y + 1 > ly && y < uy;
                    if (tile == LEDGE_TILE_EMPTY || !overlaps) continue;
                    assert_true(k < n);
                    assert_true(out[k].x == x && out[k].y == y && out[k].tile == tile);
                    ++k;
                }
            }
            assert_int_equal(n, k);
            nonzero += n > 0;
            // A short buffer gets the first cells and the full count.
            int m = ledge_tilemap_query_region(t.map, box, trunc, 8);
            assert_int_equal(m, n);
            for (int i = 0; i < (n < 8 ? n : 8); ++i) { // fields: the struct has padding
                assert_int_equal(trunc[i].x, out[i].x);
                assert_int_equal(trunc[i].y, out[i].y);
                assert_int_equal(trunc[i].tile, out[i].tile);
            }
            truncated += n > 8;
            assert_int_equal(ledge_tilemap_query_region(t.map, box, NULL, 0), n);
        }
        ledge_tilemap_destroy(t.map);
    }
    assert_int_equal(g_log.count, 0);
    assert_true(nonzero > 2000 && truncated > 500);
}

static void test_region_hand(void **state) {
    (void)state;
    tmap t;
    tmap_create(&t, 4, 3, 1.0f, v(0, 0));
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 4; ++x) tmap_set(&t, x, y, LEDGE_TILE_FULL);
    }
    ledge_tile_hit out[16];
    log_capture_start();
    // Cells from cell_at(lower) to cell_at(upper): a box on grid lines
    // [1, 2] x [1, 2] holds points of cells 1..2 in both axes.
    ledge_aabb box = {v(1, 1), v(2, 2)};
    assert_int_equal(ledge_tilemap_query_region(t.map, box, out, 16), 4);
    assert_true(out[0].x == 1 && out[0].y == 1 && out[3].x == 2 && out[3].y == 2);
    assert_true(out[1].x == 2 && out[1].y == 1);      // row-major
    box = (ledge_aabb){v(1.5f, 0.5f), v(1.5f, 0.5f)}; // a point
    assert_int_equal(ledge_tilemap_query_region(t.map, box, out, 16), 1);
    assert_true(out[0].x == 1 && out[0].y == 0);
    box = (ledge_aabb){v(-1e30f, -1e30f), v(1e30f, 1e30f)}; // everything, map cells only
    assert_int_equal(ledge_tilemap_query_region(t.map, box, out, 16), 12);
    box = (ledge_aabb){v(-5, -5), v(-0.5f, 10)}; // outside cells are not listed
    assert_int_equal(ledge_tilemap_query_region(t.map, box, out, 16), 0);
    assert_int_equal(g_log.count, 0);

    box = (ledge_aabb){v(0, 0), v(1, 1)};
    assert_int_equal(ledge_tilemap_query_region(NULL, box, out, 16), 0);
    assert_true(log_capture_says("ledge_tilemap_query_region", "map is NULL"));
    g_log.count = 0;
    assert_int_equal(ledge_tilemap_query_region(t.map, box, NULL, 3), 0);
    assert_true(log_capture_says("ledge_tilemap_query_region", "out is NULL"));
    g_log.count = 0;
    assert_int_equal(ledge_tilemap_query_region(t.map, box, out, -1), 0);
    assert_true(log_capture_says("ledge_tilemap_query_region", "max_out is -1"));
    g_log.count = 0;
    box = (ledge_aabb){v(2, 0), v(1, 1)};
    assert_int_equal(ledge_tilemap_query_region(t.map, box, out, 16), 0);
    assert_true(log_capture_says("ledge_tilemap_query_region", "lower <= upper"));
    g_log.count = 0;
    box = (ledge_aabb){v(0, NAN), v(1, 1)};
    assert_int_equal(ledge_tilemap_query_region(t.map, box, out, 16), 0);
    assert_true(log_capture_says("ledge_tilemap_query_region", "box is (0, nan)"));
    ledge_tilemap_destroy(t.map);
}

// ---------------------------------------------------------------------------
// Shape contacts.

#define MAX_CONTACTS 256

static oshape oshape_of(const ledge_shape *s, vec2s pos) {
    dshape d = place(s, pos);
    if (d.circle) return oracle_circle(odv(d.cx, d.cy), d.r);
    odvec p[LEDGE_MAX_POLYGON_VERTICES];
    for (int i = 0; i < d.n; ++i) p[i] = odv(d.x[i], d.y[i]);
    return oracle_polygon(p, d.n);
}

/// The brute force: every cell of the map and `ring` cells around it,
/// collided one by one through the public single-tile call with the
/// model's blocked sides, in row-major order. With window > 0 only the
/// cells at most `window` cells from the one holding `pos` (for long drags,
/// where the shapes reach less than window - 1 cells from pos).
static int brute_contacts(const tmap *t, const ledge_shape *s, vec2s pos, int ring, int window,
                          ledge_tile_contact *out) {
    int x0 = -ring, x1 = t->w + ring - 1, y0 = -ring, y1 = t->h + ring - 1, n = 0;
    if (window > 0) {
        int px = (int)floor(((double)pos.x - t->origin.x) / t->size);
        int py = (int)floor(((double)pos.y - t->origin.y) / t->size);
        x0 = px - window > x0 ? px - window : x0, x1 = px + window < x1 ? px + window : x1;
        y0 = py - window > y0 ? py - window : y0, y1 = py + window < y1 ? py + window : y1;
    }
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            int tile = tmap_tile(t, x, y);
            if (tile == LEDGE_TILE_EMPTY) continue;
            ledge_manifold m = ledge_collide_tile((ledge_tile)tile, cell_min_of(t, x, y), t->size,
                                                  model_blocked(t, x, y), s, pos);
            if (!m.hit) continue;
            assert_true(n < MAX_CONTACTS);
            out[n].manifold = m, out[n].x = x, out[n].y = y, out[n].tile = (ledge_tile)tile;
            ++n;
        }
    }
    return n;
}

/// Runs the map's query and compares it with the brute force, contact for
/// contact; checks that no contact is with a cell the shape keeps clear of.
/// Returns the number of contacts; the map's contacts go to `out`.
static int check_contacts(const tmap *t, const ledge_shape *s, vec2s pos, int ring, int window,
                          ledge_tile_contact *out) {
    ledge_tile_contact want[MAX_CONTACTS];
    int n = ledge_tilemap_collide(t->map, s, pos, out, MAX_CONTACTS);
    int m = brute_contacts(t, s, pos, ring, window, want);
    if (n != m) {
        for (int i = 0; i < n; ++i)
            print_error("map: (%d, %d) %s\n", out[i].x, out[i].y, ledge_tile_name(out[i].tile));
        for (int i = 0; i < m; ++i)
            print_error("brute: (%d, %d) %s blocked %u\n", want[i].x, want[i].y,
                        ledge_tile_name(want[i].tile), model_blocked(t, want[i].x, want[i].y));
        fail_msg("%s at (%.9g, %.9g): %d contacts, brute force %d",
                 s->type == LEDGE_SHAPE_CIRCLE ? "circle" : "box", pos.x, pos.y, n, m);
    }
    oshape os = oshape_of(s, pos);
    for (int i = 0; i < n; ++i) {
        const ledge_tile_contact *a = &out[i], *b = &want[i];
        if (a->x != b->x || a->y != b->y || a->tile != b->tile) {
            fail_msg("contact %d: cell (%d, %d) tile %d, brute force (%d, %d) tile %d", i, a->x,
                     a->y, a->tile, b->x, b->y, b->tile);
        }
        assert_memory_equal(&a->manifold.normal, &b->manifold.normal, sizeof(vec2s));
        assert_true(a->manifold.depth == b->manifold.depth);
        assert_int_equal(a->manifold.point_count, b->manifold.point_count);
        assert_memory_equal(a->manifold.points, b->manifold.points,
                            sizeof(vec2s) * (size_t)a->manifold.point_count);
        // The contact's cell really is touched by the shape.
        vec2s lo = cell_min_of(t, a->x, a->y);
        odvec sq[4] = {{lo.x, lo.y},
                       {lo.x + t->size, lo.y},
                       {lo.x + t->size, lo.y + t->size},
                       {lo.x, lo.y + t->size}};
        oshape cell = oracle_polygon(sq, 4);
        assert_true(oracle_distance(&os, &cell) <= 1e-4 * t->size);
    }
    return n;
}

static void test_collide_random(void **state) {
    (void)state;
    g_rng = 0xC011;
    ledge_tile_contact out[MAX_CONTACTS];
    int hits = 0, outside_hits = 0, cases = 0;
    log_capture_start();
    for (int round = 0; round < 60; ++round) {
        tmap t;
        int w = rng_int(1, 9), h = rng_int(1, 7);
        float size = rng_range(0.5, 2.0);
        tmap_create(&t, w, h, size, rng_vec(-10, 10));
        tmap_randomize(&t);
        // Half the maps with their store of blocked sides brought up to
        // date (as the world's step does), half derived afresh.
        if (round % 2) ledge__tilemap_refresh_blocked(t.map);
        for (int q = 0; q < 60; ++q) {
            ledge_shape s = random_shape(rng_int(0, KIND_COUNT - 1));
            vec2s pos = v(t.origin.x + size * rng_range(-3.0, w + 3.0),
                          t.origin.y + size * rng_range(-3.0, h + 3.0));
            // The brute force also visits three rings outside the map: the
            // query may skip them (see tilemap.c) only if they never push.
            int n = check_contacts(&t, &s, pos, 4, 0, out);
            hits += n;
            for (int i = 0; i < n; ++i) {
                outside_hits += out[i].x < 0 || out[i].y < 0 || out[i].x >= w || out[i].y >= h;
            }
            // Truncated output: the same first contacts, the same count.
            ledge_tile_contact few[2];
            assert_int_equal(ledge_tilemap_collide(t.map, &s, pos, few, 2), n);
            for (int i = 0; i < (n < 2 ? n : 2); ++i) {
                assert_true(few[i].x == out[i].x && few[i].y == out[i].y);
                assert_true(few[i].manifold.depth == out[i].manifold.depth);
            }
            assert_int_equal(ledge_tilemap_collide(t.map, &s, pos, NULL, 0), n);
            cases++;
        }
        ledge_tilemap_destroy(t.map);
    }
    assert_int_equal(g_log.count, 0);
    print_message("collide: %d cases, %d contacts (%d outside the map)\n", cases, hits,
                  outside_hits);
    assert_true(cases == 3600 && hits > 3000 && outside_hits > 300);
}

static void test_collide_far_and_refusals(void **state) {
    (void)state;
    tmap t;
    tmap_create(&t, 16, 16, 1.0f, v(0, 0));
    ledge_tile_contact out[MAX_CONTACTS];
    log_capture_start();
    // A huge box over the whole map: only the map and its ring are visited
    // (every contact lies there) and the call returns at once.
    ledge_shape huge = ledge_make_box(v(0, 0), v(4.0e5f, 4.0e5f));
    int n = ledge_tilemap_collide(t.map, &huge, v(8, 8), out, MAX_CONTACTS);
    assert_true(n > 0);
    for (int i = 0; i < (n < MAX_CONTACTS ? n : MAX_CONTACTS); ++i) {
        assert_true(out[i].x >= -1 && out[i].x <= 16 && out[i].y >= -1 && out[i].y <= 16);
    }
    // Deep in the solid outside, far away: nothing can push.
    ledge_shape box = ledge_make_box(v(0, 0), v(1000, 1000));
    assert_int_equal(ledge_tilemap_collide(t.map, &box, v(9.0e5f, -9.0e5f), out, MAX_CONTACTS), 0);
    assert_int_equal(g_log.count, 0);

    ledge_shape c = ledge_make_circle(v(0, 0), 0.5f);
    assert_int_equal(ledge_tilemap_collide(NULL, &c, v(1, 1), out, 4), -1);
    assert_true(log_capture_says("ledge_tilemap_collide", "map is NULL"));
    g_log.count = 0;
    assert_int_equal(ledge_tilemap_collide(t.map, NULL, v(1, 1), out, 4), -1);
    assert_true(log_capture_says("ledge_tilemap_collide", "shape is NULL or invalid"));
    g_log.count = 0;
    ledge_shape bad = ledge_make_circle(v(0, 0), -1.0f);
    assert_int_equal(ledge_tilemap_collide(t.map, &bad, v(1, 1), out, 4), -1);
    assert_true(log_capture_says("ledge_tilemap_collide", "invalid"));
    g_log.count = 0;
    assert_int_equal(ledge_tilemap_collide(t.map, &c, v(NAN, 1), out, 4), -1);
    assert_true(log_capture_says("ledge_tilemap_collide", "pos is (nan, 1)"));
    g_log.count = 0;
    assert_int_equal(ledge_tilemap_collide(t.map, &c, v(1, 2e6f), out, 4), -1);
    assert_true(log_capture_says("ledge_tilemap_collide", "pos"));
    g_log.count = 0;
    assert_int_equal(ledge_tilemap_collide(t.map, &c, v(1, 1), out, -3), -1);
    assert_true(log_capture_says("ledge_tilemap_collide", "max_out is -3"));
    g_log.count = 0;
    assert_int_equal(ledge_tilemap_collide(t.map, &c, v(1, 1), NULL, 4), -1);
    assert_true(log_capture_says("ledge_tilemap_collide", "out is NULL"));
    ledge_tilemap_destroy(t.map);
}

// ---------------------------------------------------------------------------
// Seams: the acceptance test.

typedef struct surface {
    vec2s normal; // the expected contact normal
    // The surface is the line through `anchor` with direction `along`.
    vec2s anchor, along;
} surface;

typedef struct drag_stats {
    int positions, contacts, seam_positions;
} drag_stats;

/// Places `s` penetrating the surface by `depth` with its support point (the
/// box corner or circle point facing the surface) at surface parameter x
/// (world x of the point on the surface), checks every contact.
static void drag_one(const tmap *t, const ledge_shape *s, const surface *sf, double x, float depth,
                     drag_stats *st) {
    vec2s n = sf->normal;
    double k = (x - sf->anchor.x) / sf->along.x;
    double sx = sf->anchor.x + k * sf->along.x, sy = sf->anchor.y + k * sf->along.y;
    vec2s pos;
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        double r = s->radius - depth;
        pos = v((float)(sx + n.x * r), (float)(sy + n.y * r));
    } else { // box: the corner facing the surface goes depth below it
        double hx = s->bounds.upper.x, hy = s->bounds.upper.y;
        double cx = sx - n.x * depth, cy = sy - n.y * depth;
        double ox = n.x > 0 ? -hx : n.x < 0 ? hx : 0.0, oy = n.y > 0 ? -hy : n.y < 0 ? hy : 0.0;
        pos = v((float)(cx - ox), (float)(cy - oy));
    }
    ledge_tile_contact out[MAX_CONTACTS];
    int c = check_contacts(t, s, pos, 2, 4, out);
    if (c < 1) fail_msg("no contact at x = %.9g (pos %.9g, %.9g)", x, pos.x, pos.y);
    for (int i = 0; i < c; ++i) {
        vec2s m = out[i].manifold.normal;
        if (fabs(m.x - n.x) > 1e-5 || fabs(m.y - n.y) > 1e-5 ||
            fabs(out[i].manifold.depth - depth) > 2e-4 * t->size) {
            fail_msg("%s at x = %.9g: contact with %s at (%d, %d) normal (%g, %g) depth %g; "
                     "surface normal (%g, %g), depth %g",
                     s->type == LEDGE_SHAPE_CIRCLE ? "circle" : "box", x,
                     ledge_tile_name(out[i].tile), out[i].x, out[i].y, m.x, m.y,
                     out[i].manifold.depth, n.x, n.y, depth);
        }
    }
    st->positions++;
    st->contacts += c;
}

/// Drags a box and a circle over x in [x0, x1] in small steps, and puts
/// them exactly over every seam (support point, centre and box edges).
static void drag(const tmap *t, const surface *sf, double x0, double x1, drag_stats *st) {
    float sz = t->size, depth = 0.02f * sz;
    ledge_shape shapes[3] = {ledge_make_box(v(0, 0), v(0.4f * sz, 0.3f * sz)),
                             ledge_make_circle(v(0, 0), 0.35f * sz),
                             ledge_make_box(v(0, 0), v(1.7f * sz, 0.6f * sz))};
    for (int k = 0; k < 3; ++k) {
        const ledge_shape *s = &shapes[k];
        for (double x = x0; x <= x1; x += sz / 37.0) drag_one(t, s, sf, x, depth, st);
        for (int i = 0; i <= t->w; ++i) { // the seams at cell boundary i
            double seam = cell_min_of(t, i, 0).x;
            if (seam < x0 || seam > x1) continue;
            double hx = s->bounds.upper.x;
            double offsets[] = {0, -hx, hx, 2 * hx, -2 * hx, 1e-6 * sz, -1e-6 * sz};
            for (size_t j = 0; j < sizeof offsets / sizeof offsets[0]; ++j) {
                if (seam + offsets[j] < x0 || seam + offsets[j] > x1) continue;
                drag_one(t, s, sf, seam + offsets[j], depth, st);
                st->seam_positions++;
            }
        }
    }
}

static void flat_floor(ledge_tile tile, int up, float size, vec2s origin, drag_stats *st) {
    tmap t;
    const int w = 100, h = 5, row = up > 0 ? 0 : h - 1;
    tmap_create(&t, w, h, size, origin);
    for (int x = 0; x < w; ++x) tmap_set(&t, x, row, tile);
    bool half = tile != LEDGE_TILE_FULL;
    // The top of the floor: the far side of its row, or the middle for half
    // tiles.
    double top = origin.y + size * (up > 0 ? (half ? 0.5 : 1.0) : (half ? h - 0.5 : h - 1.0));
    surface sf = {v(0, (float)up), v(origin.x, (float)top), v(1, 0)};
    drag(&t, &sf, origin.x + 3.0 * size, origin.x + (w - 3.0) * size, st);
    ledge_tilemap_destroy(t.map);
}

// A 45-degree ramp rising to the right (seen with `up` on top): column i
// holds a slope tile on top of i + 1 FULL tiles.
static void ramp(int up, float size, vec2s origin, drag_stats *st) {
    tmap t;
    const int w = 30, h = 32;
    tmap_create(&t, w, h, size, origin);
    ledge_tile slope = up > 0 ? LEDGE_TILE_45DEG_NP : LEDGE_TILE_45DEG_NN;
    for (int i = 0; i < w; ++i) {
        for (int k = 0; k <= i; ++k) tmap_set(&t, i, up > 0 ? k : h - 1 - k, LEDGE_TILE_FULL);
        tmap_set(&t, i, up > 0 ? i + 1 : h - 2 - i, slope);
    }
    // The slope surface passes through the slope cell of column 0 from its
    // corner (0, 1) (y up) or (0, h - 1) (y down) with direction (1, up).
    double y0 = origin.y + size * (up > 0 ? 1.0 : h - 1.0);
    float r = 0.70710678118654752f;
    surface sf = {v(-r, up * r), v(origin.x, (float)y0), v(1, (float)up)};
    drag(&t, &sf, origin.x + 4.0 * size, origin.x + (w - 4.0) * size, st);
    ledge_tilemap_destroy(t.map);
}

static void test_seams(void **state) {
    (void)state;
    drag_stats st = {0, 0, 0};
    log_capture_start();
    static const struct {
        float size;
        vec2s origin;
    } frames[] = {{1.0f, {{0.0f, 0.0f}}}, {0.75f, {{-37.5f, 12.25f}}}};
    for (int f = 0; f < 2; ++f) {
        for (int up = -1; up <= 1; up += 2) {
            flat_floor(LEDGE_TILE_FULL, up, frames[f].size, frames[f].origin, &st);
            flat_floor(up > 0 ? LEDGE_TILE_HALF_U : LEDGE_TILE_HALF_D, up, frames[f].size,
                       frames[f].origin, &st);
            ramp(up, frames[f].size, frames[f].origin, &st);
        }
    }
    assert_int_equal(g_log.count, 0);
    print_message("seams: %d positions (%d over seams), %d contacts\n", st.positions,
                  st.seam_positions, st.contacts);
    assert_true(st.positions > 50000 && st.seam_positions > 10000 && st.contacts > st.positions);
}

/// A box resting on a hilltop (`/##\\` over a floor) with a corner just
/// over the slope's tip: the slope pushes it up by its overlap like the
/// FULL cell beside it, not 0.4 along the slope (the tile's surface must
/// not run on over the FULL neighbour's top). The staircase tips, where it
/// must run on, are covered by test_collide_random's model and test_seams.
static void test_collide_hilltop_corner(void **state) {
    (void)state;
    tmap t;
    tmap_create(&t, 8, 4, 1.0f, v(0, 0));
    const ledge_tile row[8] = {LEDGE_TILE_EMPTY, LEDGE_TILE_45DEG_NP, LEDGE_TILE_FULL,
                               LEDGE_TILE_FULL,  LEDGE_TILE_45DEG_PP, LEDGE_TILE_EMPTY,
                               LEDGE_TILE_EMPTY, LEDGE_TILE_EMPTY};
    for (int x = 0; x < 8; ++x) {
        tmap_set(&t, x, 0, LEDGE_TILE_FULL);
        tmap_set(&t, x, 1, row[x]);
    }
    ledge_shape box = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    const float xs[4] = {3.75f, 3.8f, 2.25f, 2.2f}; // right corner over `\`, left over `/`
    for (int k = 0; k < 4; ++k) {
        ledge_tile_contact c[MAX_CONTACTS];
        int n = check_contacts(&t, &box, v(xs[k], 1.995f + 0.45f), 1, 0, c);
        assert_int_equal(n, 2);
        for (int i = 0; i < n; ++i) {
            assert_float_equal(c[i].manifold.normal.x, 0.0f, 0.0f);
            assert_float_equal(c[i].manifold.normal.y, 1.0f, 0.0f);
            assert_float_equal(c[i].manifold.depth, 0.005f, 1e-5f);
        }
    }
    ledge_tilemap_destroy(t.map);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_def_refusals),
        cmocka_unit_test(test_basics_and_refusals),
        cmocka_unit_test(test_edges_every_pair),
        cmocka_unit_test(test_edges_follow_sets),
        cmocka_unit_test(test_allocation),
        cmocka_unit_test(test_point_random),
        cmocka_unit_test(test_point_boundaries),
        cmocka_unit_test(test_point_hand),
        cmocka_unit_test(test_region),
        cmocka_unit_test(test_region_hand),
        cmocka_unit_test(test_collide_random),
        cmocka_unit_test(test_collide_far_and_refusals),
        cmocka_unit_test(test_seams),
        cmocka_unit_test(test_collide_hilltop_corner),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
