// Tilemap ray casts (ledge_tilemap_raycast): hand-made cases with known
// answers, refusals, and random rays through random maps against a brute
// force written here in double precision.
//
// The brute force knows nothing of the grid walk, the edge states or ledge's
// tile tables. It builds its own model of every cell straight from
// the tile definitions of docs/tilemap.md (the named corners R, P, Q, F of each id):
// straight tiles are the convex polygon of the spec's corner list, CONVEX is
// the cell intersected with the disc of radius 2w around R, CONCAVE the cell
// minus the open disc around F, and a ring of FULL cells around the map
// stands for the solid outside. Every cell is cast at individually (Cyrus-
// Beck clipping in double, the exact chord of a circle), and the first hit
// is the smallest over all cells. The same is done with every tile grown
// and shrunk by a backward error `e` (half-planes moved out or in, radii
// changed): 1e-5 tile sizes, plus 4 float units of the world coordinates
// (ledge's cell corners are floats, origin + i * size rounded), plus 1e-6
// of the ray's length (local coordinates along a long ray). A correct cast
// hits no earlier than the grown model and no later than the shrunk one:
// it is the exact answer for tiles moved by less than e. That is the right
// test also where the exact first hit is ill-conditioned: grazing rays, and
// slivers thinner than a float unit (the cusp of a CONCAVE tile next to a
// cell side), which a float cell may cut off.
//
// For every random case:
//   1. out NULL gives the same answer, and two casts give the same bits;
//   2. a miss: the shrunk model misses too;
//   3. a hit: t_grown <= fraction <= t_shrunk; where that window is under
//      1e-5 (well-conditioned: a clear angle, no sliver), the fraction is
//      within 1e-5 of the exact model's;
//   4. a hit at fraction 0: the origin is solid (grown model), the point is
//      the origin, the normal -translation / |translation| ((0, 1) if zero);
//   5. a later hit: the point is origin + fraction * translation and lies
//      on the outline of the reported cell's tile (in it grown by EPS = 1e-4
//      tile sizes, not in it shrunk by EPS), the tile id is the map's (FULL
//      outside), and the normal is unit, faces the ray, and is a surface
//      normal of that tile there: a side's axis, the slope's normal (within
//      1e-6), the arc's radial direction (within 1e-4), or at a vertex any
//      direction of its normal cone (e.g. the side of the cell the ray
//      entered by, when the tile touches that side only at the vertex);
//   6. the cell is the exact model's first, tied with it, or the exact first
//      cell is only touched at a point (both recorded).
//
// Random cases cannot pin down what happens at exact ties (a touch has no
// extent, so the shrunk model never needs it): the tie rules of
// tilemap_ray.c are checked by the hand-made cases.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scale.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ledge/tilemap.h"
#include "log_capture.h"
#include "rng.h"

#ifndef N_MAPS
#define N_MAPS test_cases(3000) // random maps; -DN_MAPS=100000 -DSEED_SALT=7 for a soak run
#endif
#ifndef SEED_SALT
#define SEED_SALT 0
#endif
#define PI       3.14159265358979323846
#define EPS      1.0e-4 // outline tolerance of a hit point, in tile sizes
#define MAX_SIDE 12     // random maps are at most MAX_SIDE cells a side

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// ---------------------------------------------------------------------------
// The model of one cell, from the spec.

enum { M_EMPTY, M_POLY, M_CONVEX, M_CONCAVE };

typedef struct mtile {
    int kind;
    int id;
    double x0, y0, s; // the cell's lower corner and side
    int n;            // M_POLY: vertices counter-clockwise, edge half-planes n . p <= off
    double px[5], py[5], nx[5], ny[5], off[5];
    double cx, cy, r;    // M_CONVEX, M_CONCAVE: the arc's centre (R or F) and radius
    double rx, ry;       // the corner R (always solid)
    double qx[2], qy[2]; // round tiles: the corners P and Q, where the arc ends
    double sx, sy;       // the normal signs
} mtile;

// Orientation signs of ids 2..29 in N's order pn, nn, np, pp.
static const double orient_sx[4] = {1, -1, -1, 1}, orient_sy[4] = {-1, -1, 1, 1};
// Normals of the half tiles 30..33 (d, r, u, l).
static const double half_nx[4] = {0, -1, 0, 1}, half_ny[4] = {-1, 0, 1, 0};

static void set_poly(mtile *t, int n, const double *xs, const double *ys) {
    double area = 0.0;
    for (int i = 0; i < n; ++i) area += xs[i] * ys[(i + 1) % n] - xs[(i + 1) % n] * ys[i];
    t->kind = M_POLY;
    t->n = n;
    for (int i = 0; i < n; ++i) { // counter-clockwise
        int k = area > 0.0 ? i : n - 1 - i;
        t->px[i] = xs[k];
        t->py[i] = ys[k];
    }
    for (int i = 0; i < n; ++i) {
        int j = (i + 1) % n;
        double ex = t->px[j] - t->px[i], ey = t->py[j] - t->py[i], l = hypot(ex, ey);
        t->nx[i] = ey / l;
        t->ny[i] = -ex / l;
        t->off[i] = t->nx[i] * t->px[i] + t->ny[i] * t->py[i];
    }
}

static void model_tile(int id, double x0, double y0, double s, mtile *t) {
    memset(t, 0, sizeof *t);
    t->id = id;
    t->x0 = x0;
    t->y0 = y0;
    t->s = s;
    if (id == 0) return; // M_EMPTY
    double w = s / 2, cx = x0 + w, cy = y0 + w;
    if (id == 1) {
        set_poly(t, 4, (double[]){x0, x0 + s, x0 + s, x0}, (double[]){y0, y0, y0 + s, y0 + s});
        return;
    }
    if (id >= 30) { // the half opposite to the normal
        double nx = half_nx[id - 30], ny = half_ny[id - 30];
        double xa = nx > 0 ? x0 : (nx < 0 ? cx : x0), xb = nx > 0 ? cx : x0 + s;
        double ya = ny > 0 ? y0 : (ny < 0 ? cy : y0), yb = ny > 0 ? cy : y0 + s;
        set_poly(t, 4, (double[]){xa, xb, xb, xa}, (double[]){ya, ya, yb, yb});
        t->sx = nx;
        t->sy = ny;
        return;
    }
    int group = (id - 2) / 4, o = (id - 2) % 4;
    double sx = orient_sx[o], sy = orient_sy[o];
    double Rx = cx - sx * w, Ry = cy - sy * w, Px = cx + sx * w, Py = cy - sy * w;
    double Qx = cx - sx * w, Qy = cy + sy * w, Fx = cx + sx * w, Fy = cy + sy * w;
    t->sx = sx;
    t->sy = sy;
    t->rx = Rx;
    t->ry = Ry;
    t->qx[0] = Px;
    t->qy[0] = Py;
    t->qx[1] = Qx;
    t->qy[1] = Qy;
    switch (group) {
    case 0: // 45DEG: R, P, Q
        set_poly(t, 3, (double[]){Rx, Px, Qx}, (double[]){Ry, Py, Qy});
        break;
    case 1: // CONCAVE: the cell minus the disc around F
        set_poly(t, 4, (double[]){x0, x0 + s, x0 + s, x0}, (double[]){y0, y0, y0 + s, y0 + s});
        t->kind = M_CONCAVE;
        t->cx = Fx;
        t->cy = Fy;
        t->r = s;
        break;
    case 2: // CONVEX: the cell and the disc around R
        set_poly(t, 4, (double[]){x0, x0 + s, x0 + s, x0}, (double[]){y0, y0, y0 + s, y0 + s});
        t->kind = M_CONVEX;
        t->cx = Rx;
        t->cy = Ry;
        t->r = s;
        break;
    case 3: // 22DEG small: R, P, c + (-sx w, 0)
        set_poly(t, 3, (double[]){Rx, Px, cx - sx * w}, (double[]){Ry, Py, cy});
        break;
    case 4: // 22DEG big: R, P, c + (sx w, 0), Q
        set_poly(t, 4, (double[]){Rx, Px, cx + sx * w, Qx}, (double[]){Ry, Py, cy, Qy});
        break;
    case 5: // 67DEG small: R, Q, c + (0, -sy w)
        set_poly(t, 3, (double[]){Rx, Qx, cx}, (double[]){Ry, Qy, cy - sy * w});
        break;
    default: // 67DEG big: R, P, c + (0, sy w), Q
        set_poly(t, 4, (double[]){Rx, Px, cx, Qx}, (double[]){Ry, Py, cy + sy * w, Qy});
        break;
    }
}

/// The unit normal of the tile's non-axis surface, from the spec's table.
static void spec_normal(int id, double *nx, double *ny) {
    if (id >= 30) {
        *nx = half_nx[id - 30];
        *ny = half_ny[id - 30];
        return;
    }
    int group = (id - 2) / 4, o = (id - 2) % 4;
    double sx = orient_sx[o], sy = orient_sy[o];
    double ax = group <= 2 ? 1 : (group <= 4 ? 1 : 2), ay = group <= 2 ? 1 : (group <= 4 ? 2 : 1);
    double l = hypot(ax, ay);
    *nx = sx * ax / l;
    *ny = sy * ay / l;
}

// ---------------------------------------------------------------------------
// Casting at one model tile, in double. `e` grows the tile (e > 0) or
// shrinks it (e < 0), in world units.

typedef struct seg {
    double ox, oy, dx, dy;
} seg;

// Clips [*lo, *hi] to where n . (o + t d) <= off.
static bool clip(const seg *g, double nx, double ny, double off, double *lo, double *hi) {
    double num = off - (nx * g->ox + ny * g->oy), den = nx * g->dx + ny * g->dy;
    if (den == 0.0) return num >= 0.0;
    double t = num / den;
    if (den < 0.0) {
        if (t > *lo) *lo = t;
    } else if (t < *hi) {
        *hi = t;
    }
    return *lo <= *hi;
}

// Where the segment's line is within r of (cx, cy): [*t0, *t1].
static bool chord(const seg *g, double cx, double cy, double r, double *t0, double *t1) {
    double mx = g->ox - cx, my = g->oy - cy;
    double a = g->dx * g->dx + g->dy * g->dy, b = mx * g->dx + my * g->dy;
    double c = mx * mx + my * my - r * r, disc = b * b - a * c;
    if (a == 0.0) {
        *t0 = -INFINITY;
        *t1 = c <= 0.0 ? INFINITY : -INFINITY;
        return c <= 0.0;
    }
    if (disc < 0.0) return false;
    *t0 = (-b - sqrt(disc)) / a;
    *t1 = (-b + sqrt(disc)) / a;
    return true;
}

// The segment (t in [0, 1]) within the cell grown by e: [*lo, *hi].
static bool clip_cell(const mtile *t, const seg *g, double e, double *lo, double *hi) {
    *lo = 0.0;
    *hi = 1.0;
    return clip(g, -1, 0, -(t->x0 - e), lo, hi) && clip(g, 1, 0, t->x0 + t->s + e, lo, hi) &&
           clip(g, 0, -1, -(t->y0 - e), lo, hi) && clip(g, 0, 1, t->y0 + t->s + e, lo, hi);
}

/// First t in [0, 1] at which the segment is in the tile grown by e.
static double model_first(const mtile *t, const seg *g, double e) {
    double lo = 0.0, hi = 1.0, t0, t1;
    switch (t->kind) {
    case M_POLY:
        for (int i = 0; i < t->n; ++i) {
            if (!clip(g, t->nx[i], t->ny[i], t->off[i] + e, &lo, &hi)) return INFINITY;
        }
        return lo;
    case M_CONVEX:
        if (!clip_cell(t, g, e, &lo, &hi) || !chord(g, t->cx, t->cy, t->r + e, &t0, &t1))
            return INFINITY;
        lo = fmax(lo, t0);
        return lo <= fmin(hi, t1) ? lo : INFINITY;
    case M_CONCAVE:
        if (!clip_cell(t, g, e, &lo, &hi)) return INFINITY;
        if (!chord(g, t->cx, t->cy, t->r - e, &t0, &t1) || lo <= t0 || lo >= t1) return lo;
        return t1 <= hi ? t1 : INFINITY;
    default:
        return INFINITY;
    }
}

/// Whether (x, y) is in the tile grown by e.
static bool model_contains(const mtile *t, double x, double y, double e) {
    if (t->kind == M_EMPTY) return false;
    if (t->kind == M_POLY) {
        for (int i = 0; i < t->n; ++i) {
            if (t->nx[i] * x + t->ny[i] * y > t->off[i] + e) return false;
        }
        return true;
    }
    if (x < t->x0 - e || x > t->x0 + t->s + e || y < t->y0 - e || y > t->y0 + t->s + e)
        return false;
    double dist = hypot(x - t->cx, y - t->cy);
    return t->kind == M_CONVEX ? dist <= t->r + e : dist >= t->r - e;
}

// Distance from (x, y) to the segment a -> b.
static double seg_dist(double x, double y, double ax, double ay, double bx, double by) {
    double ex = bx - ax, ey = by - ay;
    double u = ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey);
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    return hypot(x - (ax + u * ex), y - (ay + u * ey));
}

// Whether n is in the normal cone of a vertex whose outline leaves it in
// the k directions u: n . u <= 0 for each (up to rounding).
static bool in_cone(const double *ux, const double *uy, int k, double nx, double ny) {
    for (int i = 0; i < k; ++i) {
        if (nx * ux[i] + ny * uy[i] > 1e-6 * hypot(ux[i], uy[i])) return false;
    }
    return true;
}

// Whether n is a normal of the tile at one of its vertices within tol of
// (x, y): at a vertex every direction of the normal cone is a surface
// normal (e.g. the side of the cell a ray entered by, when the tile only
// touches that side at the vertex).
static bool vertex_normal_fits(const mtile *t, double x, double y, double nx, double ny,
                               double tol) {
    double ux[2], uy[2];
    if (t->kind == M_POLY) {
        for (int i = 0; i < t->n; ++i) {
            if (hypot(x - t->px[i], y - t->py[i]) > tol) continue;
            int a = (i + t->n - 1) % t->n, b = (i + 1) % t->n;
            ux[0] = t->px[a] - t->px[i];
            uy[0] = t->py[a] - t->py[i];
            ux[1] = t->px[b] - t->px[i];
            uy[1] = t->py[b] - t->py[i];
            if (in_cone(ux, uy, 2, nx, ny)) return true;
        }
        return false;
    }
    // Round tiles: R, where the two straight sides meet, and P and Q, where
    // the arc meets a side: at a right angle for CONVEX, tangentially (a
    // cusp, the outline leaves only toward R) for CONCAVE.
    if (hypot(x - t->rx, y - t->ry) <= tol) {
        for (int k = 0; k < 2; ++k) {
            ux[k] = t->qx[k] - t->rx;
            uy[k] = t->qy[k] - t->ry;
        }
        if (in_cone(ux, uy, 2, nx, ny)) return true;
    }
    for (int k = 0; k < 2; ++k) {
        if (hypot(x - t->qx[k], y - t->qy[k]) > tol) continue;
        ux[0] = t->rx - t->qx[k];
        uy[0] = t->ry - t->qy[k];
        ux[1] = k == 0 ? 0.0 : t->sx; // the arc's tangent at P or Q, toward the other end
        uy[1] = k == 0 ? t->sy : 0.0;
        if (in_cone(ux, uy, t->kind == M_CONVEX ? 2 : 1, nx, ny)) return true;
    }
    return false;
}

/// Whether (nx, ny) is a surface normal of the tile at (x, y), which lies
/// within tol of its outline: the normal of an edge through the point, the
/// arc's radial direction, or at a vertex any normal of its cone.
static bool model_normal_fits(const mtile *t, double x, double y, double nx, double ny,
                              double tol) {
    if (vertex_normal_fits(t, x, y, nx, ny, tol)) return true;
    for (int i = 0; i < t->n; ++i) { // edges (the cell's sides for round tiles)
        int j = (i + 1) % t->n;
        if (seg_dist(x, y, t->px[i], t->py[i], t->px[j], t->py[j]) > tol) continue;
        if (fabs(nx - t->nx[i]) <= 1e-6 && fabs(ny - t->ny[i]) <= 1e-6) return true;
    }
    if (t->kind == M_CONVEX || t->kind == M_CONCAVE) {
        double dx = x - t->cx, dy = y - t->cy, l = hypot(dx, dy);
        if (fabs(l - t->r) > tol) return false;
        double k = t->kind == M_CONVEX ? 1.0 / l : -1.0 / l; // away from R, toward F
        return fabs(nx - dx * k) <= 1e-4 && fabs(ny - dy * k) <= 1e-4;
    }
    return false;
}

// ---------------------------------------------------------------------------
// A random map, with its model: every cell and a ring of FULL cells.

#define RING_SIDE (MAX_SIDE + 2)

typedef struct tmap {
    ledge_tilemap *map;
    ledge_tilemap_def def;
    bool nice; // origin and tile size exact small binary numbers: boundaries exact
    int tiles[MAX_SIDE * MAX_SIDE];
    mtile
        model[RING_SIDE * RING_SIDE]; // cell (x, y), x, y in [-1, w], at [(y+1) * RING_SIDE + x+1]
} tmap;

static const mtile *model_at(const tmap *m, int x, int y) {
    return &m->model[(y + 1) * RING_SIDE + (x + 1)];
}

static int map_tile(const tmap *m, int x, int y) {
    bool in = x >= 0 && y >= 0 && x < m->def.width && y < m->def.height;
    return in ? m->tiles[y * m->def.width + x] : 1;
}

/// Builds m->model from m->def and m->tiles, and creates the ledge map.
static void tmap_build(tmap *m) {
    const ledge_tilemap_def *d = &m->def;
    for (int y = -1; y <= d->height; ++y) {
        for (int x = -1; x <= d->width; ++x) {
            model_tile(map_tile(m, x, y), (double)d->origin.x + x * (double)d->tile_size,
                       (double)d->origin.y + y * (double)d->tile_size, d->tile_size,
                       &m->model[(y + 1) * RING_SIDE + (x + 1)]);
        }
    }
    m->map = ledge_tilemap_create(d);
    assert_non_null(m->map);
    for (int y = 0; y < d->height; ++y) {
        for (int x = 0; x < d->width; ++x) {
            assert_true(ledge_tilemap_set(m->map, x, y, (ledge_tile)m->tiles[y * d->width + x]));
        }
    }
}

static void tmap_random(tmap *m) {
    memset(m, 0, sizeof *m);
    m->def.width = rng_int(1, MAX_SIDE);
    m->def.height = rng_int(1, MAX_SIDE);
    m->nice = rng_next() % 5 < 2;
    if (m->nice) {
        static const float sizes[] = {0.5f, 1.0f, 2.0f, 0.25f};
        m->def.tile_size = sizes[rng_int(0, 3)];
        m->def.origin = v((float)rng_int(-10, 10), (float)rng_int(-10, 10));
    } else {
        m->def.tile_size = rng_range(0.5, 4.0);
        float ox = rng_range(-20, 20), oy = rng_range(-20, 20);
        m->def.origin = v(ox, oy);
    }
    double empty = rng_range(0.25, 0.85);
    for (int i = 0; i < m->def.width * m->def.height; ++i)
        m->tiles[i] = rng_unit() < empty ? 0 : rng_int(1, LEDGE_TILE_COUNT - 1);
    tmap_build(m);
}

// ---------------------------------------------------------------------------
// The brute force over all cells.

typedef struct brute {
    double exact, grown, shrunk; // first hits of the three models (INFINITY: none)
    int cell_x, cell_y;          // the exact model's first cell
} brute;

// Whether (x, y) is outside the open map rectangle shrunk by e: in the
// solid outside grown by e.
static bool outside_map(const tmap *m, double x, double y, double e) {
    double x0 = m->def.origin.x, y0 = m->def.origin.y, s = m->def.tile_size;
    return x <= x0 + e || y <= y0 + e || x >= x0 + m->def.width * s - e ||
           y >= y0 + m->def.height * s - e;
}

static brute brute_cast(const tmap *m, const seg *g, double e) {
    brute b = {INFINITY, INFINITY, INFINITY, 0, 0};
    // The outside beyond the ring: only a start there matters (a segment
    // from inside the map meets the ring first).
    if (outside_map(m, g->ox, g->oy, 0.0)) b.exact = 0.0;
    if (outside_map(m, g->ox, g->oy, e)) b.grown = 0.0;
    if (outside_map(m, g->ox, g->oy, -e)) b.shrunk = 0.0;
    b.cell_x = INT32_MIN; // the outside, not a cell of the model
    for (int y = -1; y <= m->def.height; ++y) {
        for (int x = -1; x <= m->def.width; ++x) {
            const mtile *t = model_at(m, x, y);
            if (t->kind == M_EMPTY) continue;
            double te = model_first(t, g, 0.0);
            if (te < b.exact) {
                b.exact = te;
                b.cell_x = x;
                b.cell_y = y;
            }
            b.grown = fmin(b.grown, model_first(t, g, e));
            b.shrunk = fmin(b.shrunk, model_first(t, g, -e));
        }
    }
    return b;
}

// ---------------------------------------------------------------------------
// Checking one case.

typedef struct tally {
    int cases, hits, inside, conditioned, ties, touches, grazing_misses;
    double max_err;     // largest |fraction - exact| among well-conditioned hits
    double max_len_err; // the same as a distance along the ray, in tile sizes
} tally;

static int g_tile_hits[LEDGE_TILE_COUNT];

#define CASE_FAIL(...)                                                                             \
    do {                                                                                           \
        print_map(m);                                                                              \
        print_error("%s case %d: origin (%.9g, %.9g) translation (%.9g, %.9g): ", label, index,    \
                    (double)o.x, (double)o.y, (double)d.x, (double)d.y);                           \
        fail_msg(__VA_ARGS__);                                                                     \
    } while (0)

// Prints the map so that a failure can be rebuilt exactly.
static void print_map(const tmap *m) {
    print_error("map %d x %d, tile_size %.9g, origin (%.9g, %.9g), rows from y = 0:\n",
                m->def.width, m->def.height, (double)m->def.tile_size, (double)m->def.origin.x,
                (double)m->def.origin.y);
    for (int y = 0; y < m->def.height; ++y) {
        for (int x = 0; x < m->def.width; ++x) print_error(" %2d", m->tiles[y * m->def.width + x]);
        print_error("\n");
    }
}

static void check_case(const tmap *m, vec2s o, vec2s d, const char *label, int index, tally *tl) {
    seg g = {o.x, o.y, d.x, d.y};
    double s = m->def.tile_size, e = EPS * s, len = hypot(g.dx, g.dy);
    double scale = 1.0 + fabs(g.ox) + fabs(g.oy) + len; // the world coordinates' magnitude
    double far =
        fmax(fabs(m->def.origin.x) + m->def.width * s, fabs(m->def.origin.y) + m->def.height * s);
    double backward = 1e-5 * s + 4.0 * 0x1p-23 * fmax(scale, far) + 1e-6 * len;
    brute b = brute_cast(m, &g, backward);
    ledge_ray_hit h, h2;
    memset(&h, 0xA5, sizeof h);
    memset(&h2, 0x5A, sizeof h2);
    bool hit = ledge_tilemap_raycast(m->map, o, d, &h);
    if (ledge_tilemap_raycast(m->map, o, d, &h2) != hit ||
        (hit && memcmp(&h, &h2, sizeof h) != 0) || ledge_tilemap_raycast(m->map, o, d, NULL) != hit)
        CASE_FAIL("two casts disagree");
    tl->cases++;
    if (!hit) {
        if (b.shrunk <= 1.0) CASE_FAIL("missed; the shrunk model is hit at %.9g", b.shrunk);
        tl->grazing_misses += b.exact <= 1.0;
        return;
    }
    tl->hits++;
    double t = h.fraction;
    if (!(t >= 0.0 && t <= 1.0)) CASE_FAIL("fraction %g outside [0, 1]", t);
    if (t < b.grown - 1e-7 || t > b.shrunk + 1e-7)
        CASE_FAIL("fraction %.9g outside [grown %.9g, shrunk %.9g] (exact %.9g)", t, b.grown,
                  b.shrunk, b.exact);
    if (b.shrunk - b.grown <= 1e-5) {
        tl->conditioned++;
        double err = fabs(t - b.exact);
        if (err > 1e-5) CASE_FAIL("fraction %.9g, exact %.9g", t, b.exact);
        tl->max_err = fmax(tl->max_err, err);
        tl->max_len_err = fmax(tl->max_len_err, err * len / s);
    }
    if (h.tile != map_tile(m, h.cell_x, h.cell_y))
        CASE_FAIL("tile %d at cell (%d, %d), the map has %d", h.tile, h.cell_x, h.cell_y,
                  map_tile(m, h.cell_x, h.cell_y));
    g_tile_hits[h.tile]++;
    mtile cell; // the model of the reported cell (any cell: outside ones are FULL)
    model_tile(map_tile(m, h.cell_x, h.cell_y),
               (double)m->def.origin.x + h.cell_x * (double)m->def.tile_size,
               (double)m->def.origin.y + h.cell_y * (double)m->def.tile_size, m->def.tile_size,
               &cell);
    const mtile *tile = &cell;
    double nl = hypot(h.normal.x, h.normal.y);
    if (t == 0.0) { // 4. starts in the solid
        tl->inside++;
        double ex = len > 0.0 ? -g.dx / len : 0.0, ey = len > 0.0 ? -g.dy / len : 1.0;
        if (fabs(h.normal.x - ex) > 1e-6 || fabs(h.normal.y - ey) > 1e-6)
            CASE_FAIL("inside: normal (%g, %g), expected (%g, %g)", (double)h.normal.x,
                      (double)h.normal.y, ex, ey);
        if (h.point.x != o.x || h.point.y != o.y) CASE_FAIL("inside: point is not the origin");
        if (!model_contains(tile, g.ox, g.oy, e))
            CASE_FAIL("inside: cell (%d, %d) (tile %d) does not hold the origin", h.cell_x,
                      h.cell_y, h.tile);
        return;
    }
    // 5. a hit on the way (from inside the map: in it or in the ring around it)
    bool near_map =
        h.cell_x >= -1 && h.cell_y >= -1 && h.cell_x <= m->def.width && h.cell_y <= m->def.height;
    if (!near_map) CASE_FAIL("cell (%d, %d) is not next to the map", h.cell_x, h.cell_y);
    double px = g.ox + t * g.dx, py = g.oy + t * g.dy;
    if (fabs(h.point.x - px) > 4e-7 * scale || fabs(h.point.y - py) > 4e-7 * scale)
        CASE_FAIL("point (%.9g, %.9g) is not origin + fraction * translation (%.9g, %.9g)",
                  (double)h.point.x, (double)h.point.y, px, py);
    px = h.point.x;
    py = h.point.y;
    if (!model_contains(tile, px, py, e) || model_contains(tile, px, py, -e))
        CASE_FAIL("point (%.9g, %.9g) at %.9g is not on the outline of tile %d at (%d, %d)", px, py,
                  t, h.tile, h.cell_x, h.cell_y);
    if (fabs(nl - 1.0) > 1e-6) CASE_FAIL("normal length %.9g", nl);
    if (h.normal.x * g.dx + h.normal.y * g.dy > 1e-6 * len)
        CASE_FAIL("normal (%g, %g) faces away from the ray", (double)h.normal.x,
                  (double)h.normal.y);
    if (!model_normal_fits(tile, px, py, h.normal.x, h.normal.y, e))
        CASE_FAIL("normal (%.9g, %.9g) is not a surface normal of tile %d at (%.9g, %.9g)",
                  (double)h.normal.x, (double)h.normal.y, h.tile, px, py);
    // 6. the exact model's first cell, or a tie with it, or the exact first
    // cell is only touched (a corner the segment passes within rounding of:
    // by 3. the shrunk model is not hit before the fraction).
    if (h.cell_x != b.cell_x || h.cell_y != b.cell_y) {
        if (fabs(b.exact - t) <= 1e-5) {
            tl->ties++;
        } else {
            tl->touches++;
        }
        if (model_first(tile, &g, e) > t + 1e-6)
            CASE_FAIL("cell (%d, %d) is not hit at %.9g (exact first: (%d, %d) at %.9g)", h.cell_x,
                      h.cell_y, t, b.cell_x, b.cell_y, b.exact);
    }
}

// ---------------------------------------------------------------------------
// Random case generators.

enum { GEN_RANDOM, GEN_AIMED, GEN_GRAZE, GEN_LATTICE, GEN_ZERO, GEN_SHORT, GEN_COUNT };
static const char *const gen_names[] = {"random", "aimed", "graze", "lattice", "zero", "short"};

static vec2s rng_point_in(const tmap *m, double margin) {
    double s = m->def.tile_size, x0 = m->def.origin.x - margin * s,
           y0 = m->def.origin.y - margin * s;
    float x = rng_range(x0, x0 + (m->def.width + 2 * margin) * s);
    float y = rng_range(y0, y0 + (m->def.height + 2 * margin) * s);
    return v(x, y);
}

// Whether (x, y) is in the exact model's solid.
static bool model_solid(const tmap *m, double x, double y) {
    if (outside_map(m, x, y, 0.0)) return true;
    for (int cy = 0; cy < m->def.height; ++cy) {
        for (int cx = 0; cx < m->def.width; ++cx) {
            if (model_contains(model_at(m, cx, cy), x, y, 0.0)) return true;
        }
    }
    return false;
}

// A random point of the map outside the solid (7 times in 8: the other
// time, or when the map is nearly full, anywhere).
static vec2s rng_free_point(const tmap *m) {
    vec2s p = rng_point_in(m, 0.0);
    if (rng_next() % 8 == 0) return p;
    for (int k = 0; k < 30 && model_solid(m, p.x, p.y); ++k) p = rng_point_in(m, 0.0);
    return p;
}

// A random point on the outline of tile t, with the unit tangent there.
static void outline_point(const mtile *t, double *x, double *y, double *tx, double *ty) {
    bool round = t->kind == M_CONVEX || t->kind == M_CONCAVE;
    if (round && rng_next() % 3 == 0) { // the arc
        double a = 0.5 * PI * rng_unit(), ca = cos(a), sa = sin(a);
        double k = t->kind == M_CONVEX ? 1.0 : -1.0; // from R into the cell, or from F
        *x = t->cx + k * t->sx * t->r * ca;
        *y = t->cy + k * t->sy * t->r * sa;
        *tx = -t->sx * sa;
        *ty = t->sy * ca;
        return;
    }
    double ax, ay, bx, by;
    if (round) { // one of the two straight sides, through R
        int i = rng_next() & 1;
        ax = t->rx;
        ay = t->ry;
        bx = t->rx + (i ? 0.0 : t->sx * t->s);
        by = t->ry + (i ? t->sy * t->s : 0.0);
    } else {
        int i = rng_int(0, t->n - 1), j = (i + 1) % t->n;
        ax = t->px[i];
        ay = t->py[i];
        bx = t->px[j];
        by = t->py[j];
    }
    double u = rng_next() % 4 == 0 ? (double)(rng_next() & 1) : rng_unit(); // vertices too
    double l = hypot(bx - ax, by - ay);
    *x = ax + u * (bx - ax);
    *y = ay + u * (by - ay);
    *tx = (bx - ax) / l;
    *ty = (by - ay) / l;
}

// A random non-empty cell of the map (or of the ring when the map is empty).
static const mtile *rng_solid_cell(const tmap *m) {
    for (int k = 0; k < 50; ++k) {
        const mtile *t = model_at(m, rng_int(0, m->def.width - 1), rng_int(0, m->def.height - 1));
        if (t->kind != M_EMPTY) return t;
    }
    return model_at(m, -1, rng_int(-1, m->def.height));
}

// The world coordinate of cell boundary i, computed as ledge computes it, so
// that a lattice ray lies exactly on ledge's boundaries.
static float boundary_f(float origin, float size, int i) {
    return origin + (float)i * size;
}

static void generate(int gen, const tmap *m, vec2s *o, vec2s *d) {
    float s = m->def.tile_size;
    double span = (m->def.width + m->def.height + 2) * (double)s;
    double x, y, tx, ty;
    switch (gen) {
    case GEN_RANDOM: {
        *o = rng_next() % 4 ? rng_free_point(m) : rng_point_in(m, 0.5);
        float dx = rng_range(-span, span), dy = rng_range(-span, span);
        *d = v(dx, dy);
        return;
    }
    case GEN_AIMED: { // at a point of a tile's outline, sometimes stopping short
        outline_point(rng_solid_cell(m), &x, &y, &tx, &ty);
        *o = rng_free_point(m);
        double k = rng_range(0.6, 1.4);
        *d = v((float)((x - o->x) * k), (float)((y - o->y) * k));
        return;
    }
    case GEN_GRAZE: { // along a tile's outline, on it or just off it
        outline_point(rng_solid_cell(m), &x, &y, &tx, &ty);
        static const double offsets[] = {0.0, 1e-6, -1e-6, 1e-3, -1e-3, 3e-5};
        double off = offsets[rng_int(0, 5)] * s, back = rng_range(0.2, 3.0) * s;
        double len = rng_range(0.5, 6.0) * s, sign = rng_next() & 1 ? 1.0 : -1.0;
        *o = v((float)(x + off * ty - sign * back * tx), (float)(y - off * tx - sign * back * ty));
        *d = v((float)(sign * len * tx), (float)(sign * len * ty));
        return;
    }
    case GEN_LATTICE: { // from cell corners or boundaries, along them or through corners
        int i = rng_int(0, m->def.width), j = rng_int(0, m->def.height);
        float bx = boundary_f(m->def.origin.x, s, i), by = boundary_f(m->def.origin.y, s, j);
        int k = rng_int(1, 6), sx = rng_next() & 1 ? 1 : -1, sy = rng_next() & 1 ? 1 : -1;
        switch (rng_int(0, 4)) {
        case 0: // along a vertical boundary
            *o = v(bx, rng_point_in(m, 0.0).y);
            *d = v(0.0f, (float)(sy * k) * s);
            return;
        case 1: // along a horizontal boundary
            *o = v(rng_point_in(m, 0.0).x, by);
            *d = v((float)(sx * k) * s, 0.0f);
            return;
        case 2: // diagonally through corners
            *o = v(bx, by);
            *d = v((float)(sx * k) * s, (float)(sy * k) * s);
            return;
        case 3: // slope 1/2 or 2 through corners
            *o = v(bx, by);
            *d = rng_next() & 1 ? v((float)(2 * sx * k) * s, (float)(sy * k) * s)
                                : v((float)(sx * k) * s, (float)(2 * sy * k) * s);
            return;
        default: // from a cell centre through corners
            *o = v(bx + 0.5f * s, by + 0.5f * s);
            *d = v((float)(sx * k) * s, (float)(sy * k) * s);
            return;
        }
    }
    case GEN_ZERO:
        *o = rng_next() & 1 ? rng_point_in(m, 0.3)
                            : v(boundary_f(m->def.origin.x, s, rng_int(0, m->def.width)),
                                rng_point_in(m, 0.0).y);
        *d = v(0.0f, 0.0f);
        return;
    default: { // GEN_SHORT: within about a cell
        *o = rng_free_point(m);
        float dx = rng_range(-1.0, 1.0) * s, dy = rng_range(-1.0, 1.0) * s;
        *d = v(dx, dy);
        return;
    }
    }
}

static void test_random_maps(void **state) {
    (void)state;
    g_rng = 0x74696c656d617052ull ^ (uint64_t)SEED_SALT;
    memset(g_tile_hits, 0, sizeof g_tile_hits);
    tally all[GEN_COUNT];
    memset(all, 0, sizeof all);
    static tmap m; // large: keep it off the stack
    for (int i = 0; i < N_MAPS; ++i) {
        tmap_random(&m);
        for (int gen = 0; gen < GEN_COUNT; ++gen) {
            for (int r = 0; r < 3; ++r) {
                vec2s o, d;
                generate(gen, &m, &o, &d);
                check_case(&m, o, d, gen_names[gen], i, &all[gen]);
            }
        }
        ledge_tilemap_destroy(m.map);
    }
    int total = 0;
    double max_err = 0.0, max_len_err = 0.0;
    for (int gen = 0; gen < GEN_COUNT; ++gen) {
        const tally *t = &all[gen];
        print_message("%-8s %5d cases: %5d hits, %5d start inside, %5d conditioned (error "
                      "%.1e, %.1e tiles), %3d ties, %3d touches passed, %3d grazing misses\n",
                      gen_names[gen], t->cases, t->hits, t->inside, t->conditioned, t->max_err,
                      t->max_len_err, t->ties, t->touches, t->grazing_misses);
        total += t->cases;
        max_err = fmax(max_err, t->max_err);
        max_len_err = fmax(max_len_err, t->max_len_err);
    }
    print_message("%d cases in all; largest error of a conditioned hit: fraction %.2g, "
                  "%.2g tile sizes along the ray\n",
                  total, max_err, max_len_err);
    // The generators must produce what they say.
    const int per_gen = 3 * N_MAPS;
    assert_true(all[GEN_AIMED].hits > per_gen / 2 && all[GEN_AIMED].hits < per_gen);
    assert_true(all[GEN_AIMED].conditioned > per_gen / 10);
    assert_true(all[GEN_LATTICE].ties > 0);
    assert_true(all[GEN_ZERO].hits == all[GEN_ZERO].inside && all[GEN_ZERO].inside > 0);
    assert_true(all[GEN_SHORT].hits < per_gen);
    for (int id = 1; id < LEDGE_TILE_COUNT; ++id) {
        if (g_tile_hits[id] < 20) fail_msg("tile %d was hit only %d times", id, g_tile_hits[id]);
    }
}

// ---------------------------------------------------------------------------
// Hand-made cases.

static ledge_tilemap *make_map(int w, int h, float size, vec2s origin) {
    ledge_tilemap_def def = ledge_default_tilemap_def();
    def.width = w;
    def.height = h;
    def.tile_size = size;
    def.origin = origin;
    ledge_tilemap *m = ledge_tilemap_create(&def);
    assert_non_null(m);
    return m;
}

static void assert_near(double got, double want, double tol, const char *what) {
    if (fabs(got - want) > tol) fail_msg("%s is %.9g, expected %.9g", what, got, want);
}

static void expect_hit(const ledge_tilemap *m, vec2s o, vec2s d, double fraction, double nx,
                       double ny, int cx, int cy, int tile) {
    ledge_ray_hit h;
    if (!ledge_tilemap_raycast(m, o, d, &h)) {
        fail_msg("ray (%g, %g) + (%g, %g) missed; expected a hit at %g", (double)o.x, (double)o.y,
                 (double)d.x, (double)d.y, fraction);
    }
    assert_near(h.fraction, fraction, 1e-6, "fraction");
    assert_near(h.normal.x, nx, 1e-6, "normal.x");
    assert_near(h.normal.y, ny, 1e-6, "normal.y");
    assert_near(h.point.x, o.x + fraction * d.x, 1e-5, "point.x");
    assert_near(h.point.y, o.y + fraction * d.y, 1e-5, "point.y");
    assert_int_equal(h.cell_x, cx);
    assert_int_equal(h.cell_y, cy);
    assert_int_equal(h.tile, tile);
}

static void expect_miss(const ledge_tilemap *m, vec2s o, vec2s d) {
    ledge_ray_hit h;
    if (ledge_tilemap_raycast(m, o, d, &h)) {
        fail_msg("ray (%g, %g) + (%g, %g) hit at %g (cell %d, %d); expected a miss", (double)o.x,
                 (double)o.y, (double)d.x, (double)d.y, (double)h.fraction, h.cell_x, h.cell_y);
    }
}

// A floor of FULL tiles: straight down onto it, down the seam between two of
// its tiles (the floor's top, never the seam), and skimming over the seams.
static void test_full_floor(void **state) {
    (void)state;
    ledge_tilemap *m = make_map(6, 4, 1.0f, v(0, 0));
    for (int x = 0; x < 6; ++x) assert_true(ledge_tilemap_set(m, x, 0, LEDGE_TILE_FULL));
    expect_hit(m, v(1.5f, 3.0f), v(0.0f, -3.0f), 2.0 / 3.0, 0, 1, 1, 0, LEDGE_TILE_FULL);
    ledge_ray_hit h;
    assert_true(ledge_tilemap_raycast(m, v(1.5f, 3.0f), v(0.0f, -3.0f), &h));
    assert_true(h.point.y == 1.0f); // snapped exactly onto the floor
    // Down the seam x = 2 between (1, 0) and (2, 0): the cell on the +x side.
    expect_hit(m, v(2.0f, 3.5f), v(0.0f, -5.0f), 0.5, 0, 1, 2, 0, LEDGE_TILE_FULL);
    // Slanted onto the floor exactly at a seam's top: the corner tie rule
    // gives the cell across the horizontal boundary, (1, 0), normal up.
    expect_hit(m, v(1.0f, 2.0f), v(2.0f, -2.0f), 0.5, 0, 1, 1, 0, LEDGE_TILE_FULL);
    // Slanted onto the floor across a seam.
    expect_hit(m, v(1.0f, 2.0f), v(2.0f, -1.6f), 0.625, 0, 1, 2, 0, LEDGE_TILE_FULL);
    // Skimming 1e-3 above the floor over five seams: nothing to snag on.
    expect_miss(m, v(0.25f, 1.001f), v(5.5f, 0.0f));
    // Ending exactly on the floor is a hit at fraction 1 (the boundary is solid).
    expect_hit(m, v(4.5f, 2.0f), v(0.0f, -1.0f), 1.0, 0, 1, 4, 0, LEDGE_TILE_FULL);
    // Stopping just short of it misses.
    expect_miss(m, v(4.5f, 2.0f), v(0.0f, -0.999f));
    ledge_tilemap_destroy(m);
}

// Each straight slope and half tile, alone in the middle of a 3 x 3 map: a
// ray along -normal onto the middle of its surface hits it half way, with
// the spec's normal; a ray the other way from just outside misses.
static void test_slopes(void **state) {
    (void)state;
    for (int id = 2; id < LEDGE_TILE_COUNT; ++id) {
        if (id >= 6 && id <= 13) continue; // the round tiles have their own tests
        ledge_tilemap *m = make_map(3, 3, 2.0f, v(-3.0f, -3.0f));
        assert_true(ledge_tilemap_set(m, 1, 1, (ledge_tile)id));
        mtile t;
        model_tile(id, -1.0, -1.0, 2.0, &t);
        double nx, ny, mx = 0.0, my = 0.0;
        spec_normal(id, &nx, &ny);
        // The middle of the slope: the model edge whose normal is the spec's.
        int found = 0;
        for (int i = 0; i < t.n; ++i) {
            if (fabs(t.nx[i] - nx) < 1e-12 && fabs(t.ny[i] - ny) < 1e-12) {
                mx = 0.5 * (t.px[i] + t.px[(i + 1) % t.n]);
                my = 0.5 * (t.py[i] + t.py[(i + 1) % t.n]);
                ++found;
            }
        }
        assert_int_equal(found, 1);
        vec2s o = v((float)(mx + 0.4 * nx), (float)(my + 0.4 * ny));
        vec2s d = v((float)(-0.8 * nx), (float)(-0.8 * ny));
        ledge_ray_hit h;
        assert_true(ledge_tilemap_raycast(m, o, d, &h));
        assert_near(h.fraction, 0.5, 1e-6, "fraction");
        // The exact normal: equal to the spec's up to float rounding.
        assert_near(h.normal.x, nx, 1e-7, "normal.x");
        assert_near(h.normal.y, ny, 1e-7, "normal.y");
        assert_int_equal(h.cell_x, 1);
        assert_int_equal(h.cell_y, 1);
        assert_int_equal(h.tile, id);
        expect_miss(m, o, v(-d.x, -d.y));
        // Sliding along the surface 1e-3 outside it: no hit on the way.
        double tx = -ny, ty = nx;
        vec2s g = v((float)(mx + 1e-3 * nx - 0.3 * tx), (float)(my + 1e-3 * ny - 0.3 * ty));
        expect_miss(m, g, v((float)(0.6 * tx), (float)(0.6 * ty)));
        ledge_tilemap_destroy(m);
    }
}

// Into a CONCAVE bowl from inside the hollow: the far root of the arc, with
// the radial normal pointing toward F; and out of it over the rim.
static void test_concave_bowl(void **state) {
    (void)state;
    for (int id = LEDGE_TILE_CONCAVE_PN; id <= LEDGE_TILE_CONCAVE_PP; ++id) {
        ledge_tilemap *m = make_map(3, 3, 1.0f, v(0, 0));
        assert_true(ledge_tilemap_set(m, 1, 1, (ledge_tile)id));
        mtile t;
        model_tile(id, 1.0, 1.0, 1.0, &t);
        double fx = t.cx, fy = t.cy; // F
        for (int k = 0; k < 9; ++k) {
            // From near F toward the arc at angle a (measured inside the cell).
            double a = (k + 0.5) * (0.5 * PI / 9.0);
            double ux = -t.sx * cos(a), uy = -t.sy * sin(a); // from F into the cell
            vec2s o = v((float)(fx + 0.2 * ux), (float)(fy + 0.2 * uy));
            vec2s d = v((float)(1.6 * ux), (float)(1.6 * uy));
            ledge_ray_hit h;
            assert_true(ledge_tilemap_raycast(m, o, d, &h));
            double px = fx + ux, py = fy + uy; // on the arc, radius 1
            assert_near(h.fraction, 0.5, 1e-5, "fraction");
            assert_near(h.point.x, px, 1e-5, "point.x");
            assert_near(h.point.y, py, 1e-5, "point.y");
            assert_near(h.normal.x, -ux, 1e-5, "normal.x"); // toward F
            assert_near(h.normal.y, -uy, 1e-5, "normal.y");
            assert_int_equal(h.tile, id);
        }
        // Across the hollow parallel to the R-P side, 0.3 inside the cell from
        // the far side: leaves the disc at the arc, inside the cell.
        double ox = t.rx + t.sx * 1.0, oy = t.ry + t.sy * 0.7; // on the side F-P
        double chord_y = 0.3;                                  // distance from F's row
        double reach = sqrt(1.0 - chord_y * chord_y);          // arc at |x - F.x| = reach
        vec2s o = v((float)(ox - t.sx * 0.01), (float)oy);
        vec2s d = v((float)(-t.sx * 1.5), 0.0f);
        ledge_ray_hit h;
        assert_true(ledge_tilemap_raycast(m, o, d, &h));
        assert_near(h.point.x, fx - t.sx * reach, 1e-5, "point.x");
        assert_near(h.normal.x, t.sx * reach, 1e-5, "normal.x");
        assert_near(h.normal.y, t.sy * chord_y, 1e-5, "normal.y");
        ledge_tilemap_destroy(m);
    }
}

// Over a CONVEX hill: a tangent to the arc 1e-4 outside misses, 1e-4 inside
// hits near the tangent point with the radial normal; straight at the arc
// hits with the radial normal.
static void test_convex_hill(void **state) {
    (void)state;
    for (int id = LEDGE_TILE_CONVEX_PN; id <= LEDGE_TILE_CONVEX_PP; ++id) {
        ledge_tilemap *m = make_map(3, 3, 1.0f, v(0, 0));
        assert_true(ledge_tilemap_set(m, 1, 1, (ledge_tile)id));
        mtile t;
        model_tile(id, 1.0, 1.0, 1.0, &t);
        double ux = t.sx * sqrt(0.5), uy = t.sy * sqrt(0.5); // the arc's middle
        double px = t.rx + ux, py = t.ry + uy, tx = -uy, ty = ux;
        for (int side = -1; side <= 1; side += 2) {
            double off = side * 1e-4;
            vec2s o = v((float)(px + off * ux - 0.5 * tx), (float)(py + off * uy - 0.5 * ty));
            vec2s d = v((float)tx, (float)ty);
            ledge_ray_hit h;
            bool hit = ledge_tilemap_raycast(m, o, d, &h);
            if (side > 0) {
                assert_false(hit);
            } else {
                assert_true(hit);
                assert_near(h.fraction, 0.5 - sqrt(2e-4), 1e-4, "grazing fraction");
                double l = hypot(h.point.x - t.rx, h.point.y - t.ry);
                assert_near(h.normal.x, (h.point.x - t.rx) / l, 1e-5, "normal.x");
                assert_near(h.normal.y, (h.point.y - t.ry) / l, 1e-5, "normal.y");
            }
        }
        expect_hit(m, v((float)(px + ux), (float)(py + uy)), v((float)(-2 * ux), (float)(-2 * uy)),
                   0.5, ux, uy, 1, 1, id);
        ledge_tilemap_destroy(m);
    }
}

// Starting in a solid: fraction 0, the normal against the motion.
static void test_start_inside(void **state) {
    (void)state;
    ledge_tilemap *m = make_map(4, 4, 1.0f, v(0, 0));
    assert_true(ledge_tilemap_set(m, 2, 2, LEDGE_TILE_FULL));
    assert_true(ledge_tilemap_set(m, 1, 1, LEDGE_TILE_45DEG_PP));
    expect_hit(m, v(2.5f, 2.5f), v(3.0f, 4.0f), 0.0, -0.6, -0.8, 2, 2, LEDGE_TILE_FULL);
    expect_hit(m, v(1.2f, 1.2f), v(0.0f, 2.0f), 0.0, 0, -1, 1, 1, LEDGE_TILE_45DEG_PP);
    // On a FULL tile's surface counts as inside (closed solids), even moving away.
    expect_hit(m, v(2.5f, 3.0f), v(0.0f, 1.0f), 0.0, 0, -1, 2, 2, LEDGE_TILE_FULL);
    // Outside the map, and on its border.
    expect_hit(m, v(-3.0f, 1.5f), v(1.0f, 0.0f), 0.0, -1, 0, -3, 1, LEDGE_TILE_FULL);
    ledge_ray_hit h;
    assert_true(ledge_tilemap_raycast(m, v(0.0f, 0.5f), v(1.0f, 0.0f), &h));
    assert_true(h.fraction == 0.0f);
    assert_true(h.point.x == 0.0f && h.point.y == 0.5f);
    // Zero translation: a point query, normal (0, 1) on a hit.
    expect_hit(m, v(2.5f, 2.5f), v(0.0f, 0.0f), 0.0, 0, 1, 2, 2, LEDGE_TILE_FULL);
    expect_miss(m, v(3.5f, 0.5f), v(0.0f, 0.0f));
    ledge_tilemap_destroy(m);
}

// Leaving an empty map: the solid outside stops the ray at the border.
static void test_leave_map(void **state) {
    (void)state;
    ledge_tilemap *m = make_map(3, 2, 0.5f, v(10.0f, -4.0f));
    expect_hit(m, v(10.75f, -3.5f), v(10.0f, 0.0f), 0.075, -1, 0, 3, 1, LEDGE_TILE_FULL);
    expect_hit(m, v(10.75f, -3.5f), v(-1.0f, 0.0f), 0.75, 1, 0, -1, 1, LEDGE_TILE_FULL);
    expect_hit(m, v(10.75f, -3.5f), v(0.0f, 2.0f), 0.25, 0, -1, 1, 2, LEDGE_TILE_FULL);
    expect_hit(m, v(10.75f, -3.5f), v(0.0f, -1.0f), 0.5, 0, 1, 1, -1, LEDGE_TILE_FULL);
    expect_miss(m, v(10.75f, -3.5f), v(0.5f, 0.4f));
    // A long ray through the whole map.
    expect_hit(m, v(10.1f, -3.9f), v(1000.0f, 0.0f), 1.4 / 1000.0, -1, 0, 3, 0, LEDGE_TILE_FULL);
    ledge_tilemap_destroy(m);
}

// Tie rules at corners and along boundaries.
static void test_ties(void **state) {
    (void)state;
    ledge_tilemap *m = make_map(4, 4, 1.0f, v(0, 0));
    // Through the corner (1, 1): the side neighbour across x touches it.
    assert_true(ledge_tilemap_set(m, 1, 0, LEDGE_TILE_FULL));
    expect_hit(m, v(0.5f, 0.5f), v(2.0f, 2.0f), 0.25, -1, 0, 1, 0, LEDGE_TILE_FULL);
    // Both side neighbours solid: the one across y (a ceiling) wins.
    assert_true(ledge_tilemap_set(m, 0, 1, LEDGE_TILE_FULL));
    expect_hit(m, v(0.5f, 0.5f), v(2.0f, 2.0f), 0.25, 0, -1, 0, 1, LEDGE_TILE_FULL);
    assert_true(ledge_tilemap_set(m, 1, 0, LEDGE_TILE_EMPTY));
    assert_true(ledge_tilemap_set(m, 0, 1, LEDGE_TILE_EMPTY));
    // Only the diagonal cell: entered through its corner as through its
    // horizontal side (landing on a corner lands).
    assert_true(ledge_tilemap_set(m, 1, 1, LEDGE_TILE_FULL));
    expect_hit(m, v(0.5f, 0.5f), v(2.0f, 2.0f), 0.25, 0, -1, 1, 1, LEDGE_TILE_FULL);
    assert_true(ledge_tilemap_set(m, 1, 1, LEDGE_TILE_EMPTY));
    // A corner the tile does not hold is passed: a 45 degree slope whose
    // empty corner F is the corner crossed.
    assert_true(ledge_tilemap_set(m, 1, 0, LEDGE_TILE_45DEG_NP)); // F = the cell's (0, 1)
    expect_hit(m, v(0.5f, 0.5f), v(4.0f, 4.0f), 0.875, 0, -1, 3, 4, LEDGE_TILE_FULL);
    assert_true(ledge_tilemap_set(m, 1, 0, LEDGE_TILE_EMPTY));
    // Down the boundary x = 2 beside a wall cell (1, 2): it touches the wall's
    // top corner first; beside a HALF_L (solid on its -x half) it passes.
    assert_true(ledge_tilemap_set(m, 1, 2, LEDGE_TILE_FULL));
    expect_hit(m, v(2.0f, 3.5f), v(0.0f, -4.0f), 0.125, 0, 1, 1, 2, LEDGE_TILE_FULL);
    assert_true(ledge_tilemap_set(m, 1, 2, LEDGE_TILE_HALF_L));
    expect_hit(m, v(2.0f, 3.5f), v(0.0f, -4.0f), 0.875, 0, 1, 2, -1, LEDGE_TILE_FULL);
    // Beside a HALF_R (solid on its +x half, along the boundary) it hits its top.
    assert_true(ledge_tilemap_set(m, 1, 2, LEDGE_TILE_HALF_R));
    expect_hit(m, v(2.0f, 3.5f), v(0.0f, -4.0f), 0.125, 0, 1, 1, 2, LEDGE_TILE_HALF_R);
    ledge_tilemap_destroy(m);
}

// Bad input: refused with a message, `out` untouched.
static void test_refusals(void **state) {
    (void)state;
    ledge_tilemap *m = make_map(2, 2, 1.0f, v(0, 0));
    ledge_ray_hit h, before;
    memset(&h, 0x3C, sizeof h);
    before = h;
    struct {
        const ledge_tilemap *map;
        vec2s o, d;
        const char *word;
    } cases[] = {
        {NULL, {{0.5f, 0.5f}}, {{1, 0}}, "map is NULL"},
        {m, {{NAN, 0.5f}}, {{1, 0}}, "origin"},
        {m, {{0.5f, INFINITY}}, {{1, 0}}, "origin"},
        {m, {{2.0e6f, 0.5f}}, {{1, 0}}, "origin"},
        {m, {{0.5f, 0.5f}}, {{NAN, 0}}, "translation"},
        {m, {{0.5f, 0.5f}}, {{0, -INFINITY}}, "translation"},
        {m, {{0.5f, 0.5f}}, {{3.0e6f, 0}}, "translation"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        log_capture_start();
        assert_false(ledge_tilemap_raycast(cases[i].map, cases[i].o, cases[i].d, &h));
        assert_int_equal(g_log.count, 1);
        assert_true(log_capture_says("ledge_tilemap_raycast", cases[i].word));
        assert_memory_equal(&h, &before, sizeof h);
    }
    // The largest allowed values are accepted (and stop at the border).
    log_capture_start();
    assert_true(ledge_tilemap_raycast(m, v(0.5f, 0.5f), v(2.0e6f, 0.0f), &h));
    assert_true(ledge_tilemap_raycast(m, v(-1.0e6f, 1.0e6f), v(-2.0e6f, 2.0e6f), &h));
    assert_true(h.fraction == 0.0f);
    assert_int_equal(g_log.count, 0);
    ledge_set_log_hook(NULL, NULL);
    ledge_tilemap_destroy(m);
}

// The walk is exact far from the world's origin too, and across a long map.
static void test_long_ray(void **state) {
    (void)state;
    ledge_tilemap *m = make_map(2000, 3, 1.0f, v(5000.0f, 100.0f));
    assert_true(ledge_tilemap_set(m, 1999, 1, LEDGE_TILE_HALF_L)); // solid x in [6999, 6999.5]
    assert_true(ledge_tilemap_set(m, 1000, 0, LEDGE_TILE_FULL));
    expect_hit(m, v(5000.5f, 101.5f), v(2000.0f, 0.0f), 1998.5 / 2000.0, -1, 0, 1999, 1,
               LEDGE_TILE_HALF_L);
    expect_hit(m, v(5000.5f, 100.5f), v(2000.0f, 0.0f), 999.5 / 2000.0, -1, 0, 1000, 0,
               LEDGE_TILE_FULL);
    ledge_tilemap_destroy(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_floor),   cmocka_unit_test(test_slopes),
        cmocka_unit_test(test_concave_bowl), cmocka_unit_test(test_convex_hill),
        cmocka_unit_test(test_start_inside), cmocka_unit_test(test_leave_map),
        cmocka_unit_test(test_ties),         cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_long_ray),     cmocka_unit_test(test_random_maps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
