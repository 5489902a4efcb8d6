// Shape-vs-tile collision (src/tile_collide.c through ledge_collide_tile)
// against independent double-precision models, for all 34 tiles, every
// shape type and every `blocked` set.
//
// The models are written here from the tile definitions of docs/tilemap.md and never read
// ledge's tile geometry:
//   - straight tiles are the convex polygons of the spec's table, compared
//     with the Minkowski oracle (oracle.h); with blocked sides, the tile
//     extruded far (L = 1e4 x the scale) across them, built as the hull of
//     the tile's vertices and their copies moved across each blocked side;
//   - CONVEX (cell ∩ disc around R) is convex: its support function is
//     written from the geometry, extruded likewise, and penetration depths
//     are the minimum over 2048 sampled directions (plus the axes and the
//     shape's face normals, where the minimum may sit at a kink) of the
//     support of the Minkowski difference;
//   - CONCAVE (cell minus the disc around F) is not convex: overlap is
//     decided by clipping the shape to the (extruded) cell and looking for a
//     point outside the disc, distances by the segments of its boundary and
//     a sampled arc, and the optimality of a push by a brute force over
//     candidate touching translations (a sampled boundary point of the tile
//     against each vertex of the shape, each tile corner against sampled
//     points of the shape's edges), each checked to separate.
//
// For every case (size = the larger of the cell's side and the shape's
// extent): (a) `hit` agrees with the model outside a 1e-4 x size band; (b)
// after moving the shape by normal * depth it no longer overlaps the tile
// (nor its extrusion), within 1e-4 x size; (c) without blocked sides the
// depth equals the model's penetration depth within 1e-3 x size (convex
// tiles), or is no larger than the brute force's (CONCAVE circles and
// boxes; for polygons, whose bowl push is a documented approximation, at
// most 1 in 100 may exceed it, by less than 5% of the size); (d) with
// blocked sides the normal never leans across a fully covered blocked side
// and the depth equals the extruded model's; (e) the normal is unit;
// contact points lie within depth + 1e-3 x size of both shapes. A shape
// deep in a tile blocked on every side gets no contact.
//
// Cases: every tile id and every blocked set it covers fully, circles,
// boxes and polygons of 0.05..100 times the cell's side, placed at random
// (deep overlap to apart), near touching, or inside the solid; shapes
// pressed into the CONCAVE bowl; random blocked sets of any kind (straight
// tiles let the half-plane run on across them, round tiles ignore the
// ones they do not cover fully). Seams: shapes dragged along rows of FULL,
// HALF and 45-degree tiles only ever get the surface's normal.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ledge/tiles.h"
#include "log_capture.h"
#include "oracle.h"
#include "rng.h"

#define PI 3.14159265358979323846

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}
static odvec osub(odvec a, odvec b) {
    return odv(a.x - b.x, a.y - b.y);
}
static odvec oadd(odvec a, odvec b) {
    return odv(a.x + b.x, a.y + b.y);
}
static odvec oscale(odvec a, double s) {
    return odv(a.x * s, a.y * s);
}
static double odot(odvec a, odvec b) {
    return a.x * b.x + a.y * b.y;
}
static double olen(odvec a) {
    return sqrt(odot(a, a));
}

// ---------------------------------------------------------------------------
// The tile model (world coordinates).

enum { M_EMPTY, M_FULL, M_POLY, M_CONVEX, M_CONCAVE };
static const unsigned side_bit[4] = {LEDGE_SIDE_XNEG, LEDGE_SIDE_XPOS, LEDGE_SIDE_YNEG,
                                     LEDGE_SIDE_YPOS};
static const odvec side_out[4] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}}; // outward normals

typedef struct tmodel {
    int id, kind;
    double s, w;
    odvec lo, hi, c, R, P, Q, F;
    double sx, sy;
    int n;
    odvec p[4];     ///< Straight tiles: the polygon of the spec's table.
    odvec hn;       ///< Straight tiles but FULL: outward normal of the non-axis face.
    double ho;      ///< Its offset: solid where hn.p <= ho.
    unsigned full;  ///< Sides covered fully (sampled).
    unsigned touch; ///< Sides covered at all beyond a point (sampled).
} tmodel;

static bool tm_contains(const tmodel *m, odvec p);

static tmodel tm_make(int id, odvec cell_min, double s) {
    static const double osx[4] = {1, -1, -1, 1}, osy[4] = {-1, -1, 1, 1};
    tmodel m;
    memset(&m, 0, sizeof m);
    m.id = id;
    m.s = s;
    m.w = 0.5 * s;
    double w = m.w;
    m.lo = cell_min;
    m.hi = odv(cell_min.x + s, cell_min.y + s);
    m.c = odv(cell_min.x + w, cell_min.y + w);
    odvec c = m.c;
    if (id == 0) {
        m.kind = M_EMPTY;
    } else if (id == 1) {
        m.kind = M_FULL;
        m.n = 4;
        m.p[0] = m.lo, m.p[1] = odv(m.hi.x, m.lo.y), m.p[2] = m.hi, m.p[3] = odv(m.lo.x, m.hi.y);
    } else if (id >= 30) {
        static const double hn[4][2] = {{0, -1}, {-1, 0}, {0, 1}, {1, 0}};
        odvec n = odv(hn[id - 30][0], hn[id - 30][1]), t = odv(-n.y, n.x);
        m.kind = M_POLY;
        m.n = 4;
        m.p[0] = oadd(c, oscale(t, w)), m.p[1] = osub(c, oscale(t, w));
        m.p[2] = osub(m.p[1], oscale(n, w)), m.p[3] = osub(m.p[0], oscale(n, w));
        m.hn = n;
        m.ho = odot(n, c);
    } else {
        int o = (id - 2) % 4, grp = (id - 2) / 4;
        double sx = osx[o], sy = osy[o];
        m.sx = sx, m.sy = sy;
        m.R = odv(c.x - sx * w, c.y - sy * w);
        m.P = odv(c.x + sx * w, c.y - sy * w);
        m.Q = odv(c.x - sx * w, c.y + sy * w);
        m.F = odv(c.x + sx * w, c.y + sy * w);
        m.kind = M_POLY;
        odvec anchor = c, n = odv(sx, sy);
        switch (grp) {
        case 0:
            m.n = 3, m.p[0] = m.R, m.p[1] = m.P, m.p[2] = m.Q;
            break;
        case 1:
            m.kind = M_CONCAVE;
            break;
        case 2:
            m.kind = M_CONVEX;
            break;
        case 3:
            m.n = 3, m.p[0] = m.R, m.p[1] = m.P, m.p[2] = odv(c.x - sx * w, c.y);
            anchor = m.P, n = odv(sx, 2 * sy);
            break;
        case 4:
            m.n = 4, m.p[0] = m.R, m.p[1] = m.P, m.p[2] = odv(c.x + sx * w, c.y), m.p[3] = m.Q;
            anchor = m.Q, n = odv(sx, 2 * sy);
            break;
        case 5:
            m.n = 3, m.p[0] = m.R, m.p[1] = m.Q, m.p[2] = odv(c.x, c.y - sy * w);
            anchor = m.Q, n = odv(2 * sx, sy);
            break;
        default:
            m.n = 4, m.p[0] = m.R, m.p[1] = m.P, m.p[2] = odv(c.x, c.y + sy * w), m.p[3] = m.Q;
            anchor = m.P, n = odv(2 * sx, sy);
            break;
        }
        m.hn = oscale(n, 1 / olen(n));
        m.ho = odot(m.hn, anchor);
    }
    // Coverage of each side by sampling (closed test), once per id (it does
    // not depend on the cell's place or size).
    static bool known[LEDGE_TILE_COUNT];
    static unsigned known_full[LEDGE_TILE_COUNT], known_touch[LEDGE_TILE_COUNT];
    if (known[id]) {
        m.full = known_full[id];
        m.touch = known_touch[id];
        return m;
    }
    for (int sd = 0; sd < 4 && m.kind != M_EMPTY; sd++) {
        int solid = 0;
        for (int i = 0; i <= 200; i++) {
            double t = s * i / 200.0;
            odvec q = sd == 0   ? odv(m.lo.x, m.lo.y + t)
                      : sd == 1 ? odv(m.hi.x, m.lo.y + t)
                      : sd == 2 ? odv(m.lo.x + t, m.lo.y)
                                : odv(m.lo.x + t, m.hi.y);
            solid += tm_contains(&m, q);
        }
        if (solid == 201) m.full |= side_bit[sd];
        if (solid > 1) m.touch |= side_bit[sd];
    }
    known[id] = true;
    known_full[id] = m.full;
    known_touch[id] = m.touch;
    return m;
}

static bool in_cell(const tmodel *m, odvec p) {
    return p.x >= m->lo.x && p.x <= m->hi.x && p.y >= m->lo.y && p.y <= m->hi.y;
}

static bool tm_contains(const tmodel *m, odvec p) {
    switch (m->kind) {
    case M_EMPTY:
        return false;
    case M_CONVEX:
        return in_cell(m, p) && olen(osub(p, m->R)) <= m->s;
    case M_CONCAVE:
        return in_cell(m, p) && olen(osub(p, m->F)) >= m->s;
    default: { // convex polygon in the table's winding (either), boundary included
        double area = 0;
        for (int i = 0; i < m->n; i++) {
            odvec a = m->p[i], b = m->p[(i + 1) % m->n];
            area += a.x * b.y - a.y * b.x;
        }
        for (int i = 0; i < m->n; i++) {
            odvec a = m->p[i], b = m->p[(i + 1) % m->n];
            double cr = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
            if (area > 0 ? cr < 0 : cr > 0) return false;
        }
        return true;
    }
    }
}

/// The cell with blocked sides moved out by L.
static void ext_box(const tmodel *m, unsigned mask, double L, odvec *lo, odvec *hi) {
    *lo = odv(m->lo.x - ((mask & LEDGE_SIDE_XNEG) ? L : 0),
              m->lo.y - ((mask & LEDGE_SIDE_YNEG) ? L : 0));
    *hi = odv(m->hi.x + ((mask & LEDGE_SIDE_XPOS) ? L : 0),
              m->hi.y + ((mask & LEDGE_SIDE_YPOS) ? L : 0));
}

/// Straight tiles with blocked sides it covers fully: the tile extruded by L
/// across each (and the corner between two): the hull of the vertices and
/// their moved copies. Returns the point count.
static int extruded_polygon(const tmodel *m, unsigned mask, double L, odvec *out) {
    odvec pts[16];
    int k = 0;
    double eps = 1e-9 * m->s;
    for (int i = 0; i < m->n; i++) {
        odvec p = m->p[i];
        pts[k++] = p;
        odvec moved = p;
        int on = 0;
        for (int sd = 0; sd < 4; sd++) {
            if (!(mask & side_bit[sd])) continue;
            double at = sd == 0 ? m->lo.x : sd == 1 ? m->hi.x : sd == 2 ? m->lo.y : m->hi.y;
            double coord = sd < 2 ? p.x : p.y;
            if (fabs(coord - at) > eps) continue;
            odvec e = oscale(side_out[sd], L);
            pts[k++] = oadd(p, e);
            moved = oadd(moved, e);
            on++;
        }
        if (on == 2) pts[k++] = moved;
    }
    odvec hull[16];
    int h = oracle_hull(pts, k, hull);
    for (int i = 0; i < h; i++) out[i] = hull[i];
    return h;
}

/// Straight tiles with any blocked sides: the cell with those sides moved
/// out by L, cut by the tile's half-plane (the solid continues across them).
static int clipped_polygon(const tmodel *m, unsigned mask, double L, odvec *out) {
    odvec lo, hi;
    ext_box(m, mask, L, &lo, &hi);
    odvec box[4] = {lo, odv(hi.x, lo.y), hi, odv(lo.x, hi.y)};
    if (m->kind == M_FULL) {
        for (int i = 0; i < 4; i++) out[i] = box[i];
        return 4;
    }
    int k = 0;
    for (int i = 0; i < 4; i++) {
        odvec a = box[i], b = box[(i + 1) % 4];
        double da = odot(m->hn, a) - m->ho, db = odot(m->hn, b) - m->ho;
        if (da <= 0) out[k++] = a;
        if ((da < 0 && db > 0) || (da > 0 && db < 0))
            out[k++] = oadd(a, oscale(osub(b, a), da / (da - db)));
    }
    return k;
}

// ---------------------------------------------------------------------------
// Shapes.

enum { K_CIRCLE, K_BOX, K_POLYGON, K_COUNT };
static const char *const kind_names[K_COUNT] = {"circle", "box", "polygon"};

typedef struct gshape {
    int kind;
    ledge_shape s;
    vec2s c, h; ///< Circle centre / box centre and half extents (local).
    float r;
    int n;
    vec2s p[8]; ///< Polygon points as given to ledge_make_polygon (local).
    vec2s pos;
    oshape o;      ///< The oracle's copy at pos.
    double extent; ///< Largest side of the bounding box.
} gshape;

static void gshape_place(gshape *g, vec2s pos) {
    g->pos = pos;
    if (g->kind == K_CIRCLE) {
        g->o = oracle_circle(odv((double)pos.x + g->c.x, (double)pos.y + g->c.y), g->r);
    } else if (g->kind == K_BOX) {
        g->o = oracle_box(odv((double)pos.x + g->c.x, (double)pos.y + g->c.y), odv(g->h.x, g->h.y));
    } else {
        odvec w[8];
        for (int i = 0; i < g->n; i++)
            w[i] = odv((double)pos.x + g->p[i].x, (double)pos.y + g->p[i].y);
        g->o = oracle_polygon(w, g->n);
    }
    g->extent = oracle_extent(&g->o);
}

/// A shape of the given kind whose extent is about `scale`, with a small
/// random local offset.
static void gshape_make(gshape *g, int kind, double scale) {
    memset(g, 0, sizeof *g);
    g->kind = kind;
    float ox = rng_range(-0.3 * scale, 0.3 * scale), oy = rng_range(-0.3 * scale, 0.3 * scale);
    if (kind == K_CIRCLE) {
        g->c = v(ox, oy);
        g->r = (float)(0.5 * scale);
        g->s = ledge_make_circle(g->c, g->r);
    } else if (kind == K_BOX) {
        float hx = (float)(0.5 * scale), hy = (float)(0.5 * scale * rng_range(0.1, 1.0));
        if (rng_next() & 1) {
            float t = hx;
            hx = hy;
            hy = t;
        }
        g->c = v(ox, oy);
        g->h = v(hx, hy);
        g->s = ledge_make_box(g->c, g->h);
    } else {
        for (;;) {
            int n = rng_int(3, 8);
            double ang[8];
            for (int i = 0; i < n; i++) ang[i] = rng_range(0, 2 * PI);
            for (int i = 1; i < n; i++)
                for (int j = i; j > 0 && ang[j - 1] > ang[j]; j--) {
                    double t = ang[j];
                    ang[j] = ang[j - 1];
                    ang[j - 1] = t;
                }
            bool ok = true;
            for (int i = 0; i < n; i++) {
                double gap = i + 1 < n ? ang[i + 1] - ang[i] : ang[0] + 2 * PI - ang[i];
                if (gap < 0.25) ok = false;
            }
            if (!ok) continue;
            double a = 0.5 * scale, b = 0.5 * scale * rng_range(0.2, 1.0),
                   rot = rng_range(0, 2 * PI);
            bool cw = rng_next() & 1;
            g->n = n;
            for (int i = 0; i < n; i++) {
                double th = ang[cw ? n - 1 - i : i], x = a * cos(th), y = b * sin(th);
                g->p[i] = v((float)(ox + x * cos(rot) - y * sin(rot)),
                            (float)(oy + x * sin(rot) + y * cos(rot)));
            }
            if (ledge_make_polygon(g->p, n, &g->s)) break;
        }
    }
    gshape_place(g, v(0, 0));
}

static double support_s(const oshape *s, odvec d) { // along unit d
    if (s->kind == ORACLE_CIRCLE) return odot(s->c, d) + s->r;
    double m = -INFINITY;
    for (int i = 0; i < s->n; i++) m = fmax(m, odot(s->p[i], d));
    return m;
}

// ---------------------------------------------------------------------------
// CONVEX model: support function of the quarter disc, extruded by L.

static double convex_support(const tmodel *m, unsigned mask, double L, odvec d) {
    double h = fmax(odot(d, m->R), fmax(odot(d, m->P), odot(d, m->Q)));
    odvec pr = osub(m->P, m->R), qr = osub(m->Q, m->R);
    if (odot(d, pr) >= 0 && odot(d, qr) >= 0) h = fmax(h, odot(d, m->R) + m->s);
    // Each blocked side (it holds R) swept by L along its outward normal, and
    // the corner quadrant between two.
    double corner = odot(d, m->R);
    int blocked = 0;
    for (int sd = 0; sd < 4; sd++) {
        if (!(mask & side_bit[sd])) continue;
        odvec e = side_out[sd];
        odvec other = fabs(e.x) > 0 ? (fabs(m->P.x - m->R.x) < 1e-12 ? m->P : m->Q)
                                    : (fabs(m->P.y - m->R.y) < 1e-12 ? m->P : m->Q);
        double ext = L * fmax(0.0, odot(d, e));
        h = fmax(h, fmax(odot(d, m->R), odot(d, other)) + ext);
        corner += ext;
        blocked++;
    }
    if (blocked == 2) h = fmax(h, corner);
    return h;
}

enum { NDIR = 2048 };
static odvec g_dirs[NDIR]; ///< Unit directions at equal angles (filled by main).

/// Penetration depth (> 0) or minus the distance (< 0) of shape s against
/// the CONVEX tile: the minimum over directions of the Minkowski
/// difference's support, sampled.
static double convex_phi_step(const tmodel *m, unsigned mask, double L, const oshape *s,
                              odvec *best_d, int step) {
    double best = INFINITY;
    odvec bd = odv(0, 1);
    odvec hull[ORACLE_MAX_POINTS];
    int hn = s->kind == ORACLE_POLYGON ? oracle_hull(s->p, s->n, hull) : 0;
    for (int i = 0; i < NDIR + 4 + hn; i++) {
        odvec d;
        if (i < NDIR) {
            if (i % step) continue;
            d = g_dirs[i];
        } else if (i < NDIR + 4) {
            d = side_out[i - NDIR];
        } else {
            odvec e = osub(hull[(i - NDIR - 4 + 1) % hn], hull[i - NDIR - 4]);
            double l = olen(e);
            d = odv(-e.y / l, e.x / l); // the shape's face reversed (hull is CCW)
        }
        double f = convex_support(m, mask, L, d) + support_s(s, oscale(d, -1));
        if (f < best) {
            best = f;
            bd = d;
        }
    }
    if (best_d) *best_d = bd;
    return best;
}

static double convex_phi(const tmodel *m, unsigned mask, double L, const oshape *s, odvec *best_d) {
    return convex_phi_step(m, mask, L, s, best_d, 1);
}

// ---------------------------------------------------------------------------
// CONCAVE model.

/// Whether polygon pts (n, either winding) overlaps the CONCAVE tile
/// extruded by L across `mask`, both shrunk by tol: the polygon clipped to
/// the shrunk cell has a point farther than s + tol from F. Exact for tol 0
/// (a positive-area intersection is required).
static bool concave_poly_overlap(const tmodel *m, unsigned mask, double L, const odvec *pts, int n,
                                 double tol) {
    odvec lo, hi;
    ext_box(m, mask, L, &lo, &hi);
    odvec a[24], b[24];
    int k = n;
    for (int i = 0; i < n; i++) a[i] = pts[i];
    double bounds[4] = {lo.x + tol, hi.x - tol, lo.y + tol, hi.y - tol};
    for (int c = 0; c < 4; c++) {
        int axis = c / 2, keep_ge = (c % 2) == 0, out = 0;
        for (int i = 0; i < k; i++) {
            odvec p = a[i], q = a[(i + 1) % k];
            double fp = (axis ? p.y : p.x) - bounds[c], fq = (axis ? q.y : q.x) - bounds[c];
            if (!keep_ge) fp = -fp, fq = -fq;
            if (fp >= 0) b[out++] = p;
            if ((fp > 0 && fq < 0) || (fp < 0 && fq > 0))
                b[out++] = oadd(p, oscale(osub(q, p), fp / (fp - fq)));
        }
        k = out;
        for (int i = 0; i < k; i++) a[i] = b[i];
    }
    if (k < 3) return false;
    double area = 0;
    bool outside = false;
    for (int i = 0; i < k; i++) {
        area += a[i].x * a[(i + 1) % k].y - a[(i + 1) % k].x * a[i].y;
        outside |= olen(osub(a[i], m->F)) > m->s + tol;
    }
    return outside && fabs(area) > 0;
}

/// Distance from p to the CONCAVE tile extruded by L across mask (0 inside).
static double concave_point_dist(const tmodel *m, unsigned mask, double L, odvec p) {
    odvec lo, hi;
    ext_box(m, mask, L, &lo, &hi);
    bool in_box = p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;
    if (in_box && olen(osub(p, m->F)) >= m->s) return 0;
    // Boundary pieces: the extruded box's sides outside the disc, and the
    // arc inside the box. Sides are sampled with a closest-point refinement.
    double best = INFINITY;
    odvec corners[4] = {lo, odv(hi.x, lo.y), hi, odv(lo.x, hi.y)};
    for (int i = 0; i < 4; i++) {
        odvec a = corners[i], b = corners[(i + 1) % 4], e = osub(b, a);
        double t = odot(osub(p, a), e) / odot(e, e);
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        odvec q = oadd(a, oscale(e, t));
        if (olen(osub(q, m->F)) >= m->s) best = fmin(best, olen(osub(p, q)));
    }
    odvec r = osub(p, m->F);
    double rl = olen(r);
    if (rl > 0) {
        odvec q = oadd(m->F, oscale(r, m->s / rl));
        if (q.x >= lo.x - 1e-12 && q.x <= hi.x + 1e-12 && q.y >= lo.y - 1e-12 &&
            q.y <= hi.y + 1e-12)
            best = fmin(best, fabs(rl - m->s));
    }
    best = fmin(best, fmin(olen(osub(p, m->P)), olen(osub(p, m->Q))));
    return best;
}

static bool concave_overlap(const tmodel *m, unsigned mask, double L, const oshape *s, double tol) {
    if (s->kind == ORACLE_CIRCLE) return concave_point_dist(m, mask, L, s->c) < s->r - tol;
    return concave_poly_overlap(m, mask, L, s->p, s->n, tol);
}

/// Distance between shape s and the CONCAVE tile itself (0 when they meet).
static double concave_distance(const tmodel *m, const oshape *s) {
    if (s->kind == ORACLE_CIRCLE) return fmax(0.0, concave_point_dist(m, 0, 0, s->c) - s->r);
    if (concave_poly_overlap(m, 0, 0, s->p, s->n, 0)) return 0;
    odvec rp[2] = {m->R, m->P}, rq[2] = {m->R, m->Q};
    oshape a = oracle_polygon(rp, 2), b = oracle_polygon(rq, 2);
    double d = fmin(oracle_distance(s, &a), oracle_distance(s, &b));
    odvec hull[ORACLE_MAX_POINTS];
    int hn = oracle_hull(s->p, s->n, hull);
    for (int i = 0; i <= 512; i++) {                                    // the arc from P to Q
        odvec from_f = odv(-m->sx * g_dirs[i].y, -m->sy * g_dirs[i].x); // angles 0..90 degrees
        d = fmin(d, oracle_hull_sd(hull, hn, 0, oadd(m->F, oscale(from_f, m->s)), NULL));
    }
    return fmax(d, 0.0);
}

/// The shape moved by t.
static oshape moved(const oshape *s, odvec t) {
    return oracle_translate(s, t);
}

/// Brute force upper bound of the MTV against the CONCAVE tile extruded
/// across mask: the smallest of many touching translations that separate.
static odvec g_brute_t; ///< The brute force's best translation (for failure reports).

static double concave_brute_mtv(const tmodel *m, unsigned mask, const oshape *s, double scale) {
    g_brute_t = odv(NAN, NAN);
    double L = 1e4 * scale, chk = 1e-7 * scale;
    odvec lo, hi;
    ext_box(m, mask, 4 * scale, &lo, &hi); // the sampled part of the walls
    // Axis clears always separate.
    odvec slo, shi;
    oracle_bounds(s, &slo, &shi);
    double best = INFINITY; // beyond a side of the cell that is not blocked
    if (!(mask & LEDGE_SIDE_XPOS)) best = fmin(best, m->hi.x - slo.x);
    if (!(mask & LEDGE_SIDE_XNEG)) best = fmin(best, shi.x - m->lo.x);
    if (!(mask & LEDGE_SIDE_YPOS)) best = fmin(best, m->hi.y - slo.y);
    if (!(mask & LEDGE_SIDE_YNEG)) best = fmin(best, shi.y - m->lo.y);
    // Boundary samples of the tile with outward normals (the arc's point
    // toward F; straight pieces outward).
    enum { NB = 700 };
    odvec bp[NB], bn[NB];
    int nb = 0;
    for (int i = 0; i <= 256; i++) {
        double t = 0.5 * PI * i / 256;
        odvec from_f = odv(-m->sx * sin(t), -m->sy * cos(t));
        bp[nb] = oadd(m->F, oscale(from_f, m->s));
        bn[nb++] = oscale(from_f, -1);
    }
    odvec box[4] = {lo, odv(hi.x, lo.y), hi, odv(lo.x, hi.y)};
    for (int sd = 0; sd < 4; sd++) {
        odvec a = box[sd], b = box[(sd + 1) % 4], e = osub(b, a);
        odvec out = odv(e.y / olen(e), -e.x / olen(e));
        for (int i = 0; i <= 96; i++) {
            odvec q = oadd(a, oscale(e, i / 96.0));
            if (olen(osub(q, m->F)) < m->s) continue; // inside the bowl: not solid
            bp[nb] = q;
            bn[nb++] = out;
        }
    }
    if (s->kind == ORACLE_CIRCLE) {
        for (int i = 0; i < nb; i++) { // centre at distance r along the normal
            odvec t = osub(oadd(bp[i], oscale(bn[i], s->r)), s->c);
            if (olen(t) >= best) continue;
            oshape sm = moved(s, t);
            if (!concave_overlap(m, mask, L, &sm, chk)) best = olen(t), g_brute_t = t;
        }
        // Around corners and tips (normals fan out there).
        odvec corners[3] = {m->R, m->P, m->Q};
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < 720; i++) {
                double a = 2 * PI * i / 720;
                odvec t = osub(oadd(corners[k], odv(s->r * cos(a), s->r * sin(a))), s->c);
                if (olen(t) >= best) continue;
                oshape sm = moved(s, t);
                if (!concave_overlap(m, mask, L, &sm, chk)) best = olen(t), g_brute_t = t;
            }
        }
        return best;
    }
    odvec hull[ORACLE_MAX_POINTS];
    int hn = oracle_hull(s->p, s->n, hull);
    for (int i = 0; i < nb; i++) { // a vertex of the shape on the tile's boundary
        for (int k = 0; k < hn; k++) {
            odvec t = osub(bp[i], hull[k]);
            if (olen(t) >= best) continue;
            oshape sm = moved(s, t);
            if (!concave_overlap(m, mask, L, &sm, chk)) best = olen(t), g_brute_t = t;
        }
    }
    odvec corners[3] = {m->R, m->P, m->Q};
    for (int c = 0; c < 3; c++) { // a tile corner on an edge of the shape
        for (int k = 0; k < hn; k++) {
            odvec a = hull[k], e = osub(hull[(k + 1) % hn], a);
            for (int i = 0; i <= 64; i++) {
                odvec t = osub(corners[c], oadd(a, oscale(e, i / 64.0)));
                if (olen(t) >= best) continue;
                oshape sm = moved(s, t);
                if (!concave_overlap(m, mask, L, &sm, chk)) best = olen(t), g_brute_t = t;
            }
        }
    }
    return best;
}

// ---------------------------------------------------------------------------
// One case and its checks.

typedef struct tally {
    const char *name;
    long cases, hits, flag_checked, depth_checked, failures, printed;
    long brute, brute_polys, brute_worse; // CONCAVE: brute-forced cases, polygons among them,
                                          // polygon pushes larger than the brute force's
    double brute_excess;                  // the largest such excess / size
} tally;

static void fail_case(tally *t, const char *what, const tmodel *m, unsigned mask, const gshape *g,
                      const ledge_manifold *r, double want) {
    t->failures++;
    if (t->printed++ >= 6) return;
    print_error("[%s] FAIL %s\n    tile %s cell {%.9g,%.9g} size %.9g blocked 0x%x, %s at "
                "{%.9g,%.9g} extent %.4g\n    ledge: hit %d depth %.9g normal {%.9g,%.9g} "
                "points %d; model %.9g\n",
                t->name, what, ledge_tile_name((ledge_tile)m->id), m->lo.x, m->lo.y, m->s, mask,
                kind_names[g->kind], (double)g->pos.x, (double)g->pos.y, g->extent, r->hit,
                (double)r->depth, (double)r->normal.x, (double)r->normal.y, r->point_count, want);
    if (g->o.kind == ORACLE_CIRCLE)
        print_error("    circle centre {%.9g,%.9g} r %.9g; brute t {%.9g,%.9g}\n", g->o.c.x,
                    g->o.c.y, g->o.r, g_brute_t.x, g_brute_t.y);
    else
        print_error("    brute t {%.9g,%.9g}\n", g_brute_t.x, g_brute_t.y);
}

static double tile_scale(const tmodel *m, const gshape *g) {
    return fmax(m->s, g->extent);
}

/// Signed overlap measure of the shape against the tile itself: > 0 when
/// they overlap (the penetration depth for convex tiles), < 0 when apart
/// (minus the distance); for CONCAVE only the sign and the band matter.
static double overlap_measure(const tmodel *m, const oshape *s, double band) {
    switch (m->kind) {
    case M_EMPTY:
        return -INFINITY;
    case M_CONVEX:
        return convex_phi(m, 0, 0, s, NULL);
    case M_CONCAVE: {
        if (s->kind == ORACLE_CIRCLE) return s->r - concave_point_dist(m, 0, 0, s->c);
        if (concave_poly_overlap(m, 0, 0, s->p, s->n, band)) return band > 0 ? 2 * band : 1;
        double d = concave_distance(m, s);
        return d > band ? -d : 0; // in the band either way
    }
    default: {
        oshape tp = oracle_polygon(m->p, m->n);
        return oracle_depth(&tp, s, NULL);
    }
    }
}

/// Depth of the shape against the tile extruded across `mask` (convex
/// models only: straight tiles and CONVEX).
static double extruded_depth(const tmodel *m, unsigned mask, const oshape *s, double L) {
    if (m->kind == M_CONVEX) return convex_phi(m, mask, L, s, NULL);
    odvec up[16];
    int n = (mask & ~m->full) ? clipped_polygon(m, mask, L, up) : extruded_polygon(m, mask, L, up);
    oshape u = oracle_polygon(up, n);
    return oracle_depth(&u, s, NULL);
}

/// Distance from point p to the tile extruded across mask.
static double tile_point_dist(const tmodel *m, unsigned mask, odvec p, double L) {
    if (m->kind == M_CONCAVE) return concave_point_dist(m, mask, L, p);
    if (m->kind == M_CONVEX) {
        double best = 0; // distance to a convex set: the largest separation
        for (int i = 0; i < NDIR; i += 2) {
            odvec d = g_dirs[i];
            best = fmax(best, odot(d, p) - convex_support(m, mask, L, d));
        }
        return best;
    }
    odvec up[16];
    int n = (mask & ~m->full) ? clipped_polygon(m, mask, L, up) : extruded_polygon(m, mask, L, up);
    oshape u = oracle_polygon(up, n);
    return oracle_point_distance(&u, p);
}

/// Runs one case through ledge and checks it; returns the manifold.
static ledge_manifold run_case(tally *t, const tmodel *m, unsigned mask, gshape *g, bool brute) {
    ledge_manifold r = ledge_collide_tile((ledge_tile)m->id, v((float)m->lo.x, (float)m->lo.y),
                                          (float)m->s, mask, &g->s, g->pos);
    double size = tile_scale(m, g), band = 1e-4 * size, tol = 1e-3 * size, L = 1e4 * size;
    unsigned honoured = m->kind == M_CONVEX || m->kind == M_CONCAVE ? mask & m->full : mask;
    t->cases++;
    t->hits += r.hit;
    double meas = overlap_measure(m, &g->o, band);
    if (fabs(meas) > band) t->flag_checked++;
    // A shape deep in a tile blocked all around (FULL with every side an
    // internal seam) has no push at all: no contact from this tile.
    double ext = honoured && m->kind != M_CONCAVE ? extruded_depth(m, honoured, &g->o, L) : 0;
    if (ext > 0.5 * L) {
        if (r.hit) fail_case(t, "a contact without any finite push", m, mask, g, &r, ext);
        return r;
    }
    // (a) the hit flag.
    if (meas > band && !r.hit) {
        fail_case(t, "missed an overlap", m, mask, g, &r, meas);
        return r;
    }
    if (meas < -band && r.hit) {
        fail_case(t, "hit for a separated shape", m, mask, g, &r, meas);
        return r;
    }
    if (!r.hit) {
        if (r.point_count != 0 || r.normal.x != 0 || r.normal.y != 0 || r.depth != 0)
            fail_case(t, "a miss with a non-empty manifold", m, mask, g, &r, meas);
        return r;
    }
    // (e) unit normal, positive finite depth.
    odvec n = odv(r.normal.x, r.normal.y);
    if (!(fabs(olen(n) - 1) < 1e-5) || !(r.depth > 0) || !isfinite(r.depth)) {
        fail_case(t, "normal not unit or depth not positive", m, mask, g, &r, meas);
        return r;
    }
    // (d) no lean across a fully covered blocked side.
    for (int sd = 0; sd < 4; sd++) {
        if ((mask & m->full & side_bit[sd]) && odot(n, side_out[sd]) > 1e-4) {
            fail_case(t, "normal leans across a blocked side", m, mask, g, &r, meas);
            return r;
        }
    }
    // (b) separated after the push, from the tile and from its extension.
    oshape after = moved(&g->o, oscale(n, r.depth));
    double left;
    if (m->kind == M_CONCAVE) {
        left = concave_overlap(m, honoured, L, &after, band) ? 1 : 0;
    } else {
        left = extruded_depth(m, honoured, &after, L);
    }
    if (left > band) {
        fail_case(t, "still overlapping after the push", m, mask, g, &r, left);
        return r;
    }
    // (c), (d): the depth.
    if (m->kind != M_CONCAVE) {
        double want = honoured ? ext : meas;
        t->depth_checked++;
        if (fabs(r.depth - want) > tol) {
            fail_case(t, "depth differs from the model's", m, mask, g, &r, want);
            return r;
        }
    } else if (brute) {
        double want = concave_brute_mtv(m, honoured, &g->o, size);
        t->depth_checked++;
        if (r.depth > want + tol) {
            if (g->kind == K_POLYGON) { // documented approximation: reported
                t->brute_worse++;
                t->brute_excess = fmax(t->brute_excess, (r.depth - want) / size);
            } else {
                fail_case(t, "depth larger than the brute force's", m, mask, g, &r, want);
                return r;
            }
        }
        t->brute++;
        t->brute_polys += g->kind == K_POLYGON;
    }
    // Contact points near both surfaces.
    if (r.point_count < 1 || r.point_count > 2) {
        fail_case(t, "point count not 1 or 2", m, mask, g, &r, meas);
        return r;
    }
    for (int i = 0; i < r.point_count; i++) {
        odvec p = odv(r.points[i].x, r.points[i].y);
        double ds = oracle_point_distance(&g->o, p), dt = tile_point_dist(m, honoured, p, L);
        if (ds > r.depth + tol || dt > r.depth + tol) {
            fail_case(t, "contact point away from the surfaces", m, mask, g, &r, fmax(ds, dt));
            return r;
        }
    }
    return r;
}

static void tally_finish(const tally *t) {
    print_message("[%s] %ld cases, %ld hits, %ld hit flags checked, %ld depths checked, %ld "
                  "failures\n",
                  t->name, t->cases, t->hits, t->flag_checked, t->depth_checked, t->failures);
    if (t->brute)
        print_message("[%s] brute force: %ld cases (%ld polygons), %ld polygon pushes larger than "
                      "it (largest excess %.3g x size)\n",
                      t->name, t->brute, t->brute_polys, t->brute_worse, t->brute_excess);
    assert_int_equal(t->failures, 0);
    // The polygon-vs-CONCAVE approximation (tile_collide.c) stays rare and
    // small: at most 1 in 100 pushes exceeds the brute force, by < 5% of the size.
    assert_true(t->brute_worse * 100 <= t->brute_polys);
    assert_true(t->brute_excess < 0.05);
    assert_true(t->hits > t->cases / 10);
    assert_true(t->flag_checked > t->cases * 9 / 10 || t->cases < 100);
}

// ---------------------------------------------------------------------------
// Case generation.

/// Blocked sets consistent with coverage: subsets of the fully covered sides.
static int full_masks(const tmodel *m, unsigned *out) {
    int k = 0;
    for (unsigned mask = 0; mask < 16; mask++)
        if ((mask & ~m->full) == 0) out[k++] = mask;
    return k;
}

static double log_uniform(double lo, double hi) {
    return exp(rng_range(log(lo), log(hi)));
}

/// A cell of random size 0.1..100 within a few dozen cells of the origin.
static tmodel random_tile(int id) {
    double s = (float)log_uniform(0.1, 100);
    double x = (float)((rng_int(-20, 20) + rng_unit()) * s),
           y = (float)((rng_int(-20, 20) + rng_unit()) * s);
    return tm_make(id, odv(x, y), s);
}

/// A random point of the tile's solid (rejection sampling), or its cell's
/// centre for EMPTY.
static odvec solid_point(const tmodel *m) {
    for (int i = 0; i < test_cases(1000); i++) {
        odvec p = odv(m->lo.x + m->s * rng_unit(), m->lo.y + m->s * rng_unit());
        if (tm_contains(m, p)) return p;
    }
    return m->c;
}

/// Places the shape so that its centre of bounds sits at world point p.
static void place_at(gshape *g, odvec p) {
    odvec lo, hi;
    gshape_place(g, v(0, 0));
    oracle_bounds(&g->o, &lo, &hi);
    gshape_place(g, v((float)(p.x - 0.5 * (lo.x + hi.x)), (float)(p.y - 0.5 * (lo.y + hi.y))));
}

/// Random placement around the cell: anything from deep overlap to apart.
static void place_random(gshape *g, const tmodel *m) {
    odvec p = odv(m->lo.x + m->s * rng_range(-0.3, 1.3), m->lo.y + m->s * rng_range(-0.3, 1.3));
    odvec lo, hi;
    oracle_bounds(&g->o, &lo, &hi);
    double e = 0.5 * g->extent;
    p = oadd(p, odv(e * rng_range(-1.1, 1.1), e * rng_range(-1.1, 1.1)));
    place_at(g, p);
}

/// Near-touching placement: from a point of the solid along a random
/// direction, bisect for a change of the overlap measure's sign, then
/// step by up to 1e-3 x size either way.
static void place_touching(gshape *g, const tmodel *m) {
    odvec start = solid_point(m);
    double a = rng_range(0, 2 * PI);
    odvec u = odv(cos(a), sin(a));
    double lo = 0, hi = 2 * (m->s + g->extent), size = fmax(m->s, g->extent);
    for (int i = 0; i < 50; i++) {
        double mid = 0.5 * (lo + hi);
        place_at(g, oadd(start, oscale(u, mid)));
        // The sign is all that matters here: a coarse convex model will do.
        double meas = m->kind == M_CONVEX ? convex_phi_step(m, 0, 0, &g->o, NULL, 8)
                                          : overlap_measure(m, &g->o, 0);
        if (meas > 0)
            lo = mid;
        else
            hi = mid;
    }
    place_at(g, oadd(start, oscale(u, 0.5 * (lo + hi) + rng_range(-1e-3, 1e-3) * size)));
}

/// Containment: a small shape at a point of the solid.
static void place_inside(gshape *g, const tmodel *m) {
    place_at(g, solid_point(m));
}

static void run_kind(tally *t, int kind, int per_mask, bool brute_concave, uint64_t seed) {
    g_rng = seed;
    for (int id = 0; id < LEDGE_TILE_COUNT; id++) {
        unsigned masks[16];
        tmodel m0 = tm_make(id, odv(0, 0), 1);
        int nm = full_masks(&m0, masks);
        for (int mi = 0; mi < nm; mi++) {
            for (int k = 0; k < per_mask; k++) {
                tmodel m = random_tile(id);
                int mode = k % 4;
                double ratio = mode == 3    ? log_uniform(0.05, 0.3)
                               : k % 8 == 1 ? log_uniform(3, 100)
                                            : log_uniform(0.1, 3);
                gshape g;
                gshape_make(&g, kind, ratio * m.s);
                if (mode == 1)
                    place_touching(&g, &m);
                else if (mode == 3)
                    place_inside(&g, &m);
                else
                    place_random(&g, &m);
                bool brute = brute_concave && m.kind == M_CONCAVE && k % 2 == 0;
                run_case(t, &m, masks[mi], &g, brute);
            }
        }
    }
    tally_finish(t);
}

static void test_circles(void **state) {
    (void)state;
    tally t = {.name = "circle"};
    run_kind(&t, K_CIRCLE, 36, true, 0xc1c1e5);
}

static void test_boxes(void **state) {
    (void)state;
    tally t = {.name = "box"};
    run_kind(&t, K_BOX, 36, true, 0xb0c5e5);
}

static void test_polygons(void **state) {
    (void)state;
    tally t = {.name = "polygon"};
    run_kind(&t, K_POLYGON, 24, true, 0x9071905);
}

// Shapes inside the CONCAVE bowl pressed into the arc (the configurations
// that distinguish the bowl pushes), every case against the brute force.
// Circles and boxes must not exceed it; polygons (whose bowl push is a
// list of candidates, see tile_collide.c) are reported and bounded.
static void test_concave_bowl(void **state) {
    (void)state;
    g_rng = 0xb0771e;
    tally t = {.name = "bowl"};
    long poly_cases = 0;
    for (int k = 0; k < 1200; k++) {
        int id = LEDGE_TILE_CONCAVE_PN + k % 4, kind = (k / 4) % 3;
        tmodel m = random_tile(id);
        unsigned masks[16];
        int nm = full_masks(&m, masks);
        unsigned mask = masks[rng_int(0, nm - 1)];
        gshape g;
        gshape_make(&g, kind, log_uniform(0.15, 0.9) * m.s);
        // From F toward R's quadrant, at a distance that makes the shape's
        // far side reach past the arc by up to a fifth of its extent.
        double a = rng_range(0.02, 0.5 * PI - 0.02);
        odvec dir = odv(-m.sx * sin(a), -m.sy * cos(a));
        double reach = m.s - 0.5 * g.extent + rng_range(0.0, 0.2) * g.extent;
        place_at(&g, oadd(m.F, oscale(dir, reach)));
        run_case(&t, &m, mask, &g, true);
        poly_cases += kind == K_POLYGON;
    }
    tally_finish(&t);
    assert_true(t.brute_polys > 200 && poly_cases >= t.brute_polys);
}

// Straight tiles honour every blocked bit, partially covered and untouched
// sides included: the half-plane runs on across them. Random masks against
// the clipped model (cell with those sides moved away, cut by the
// half-plane). Round tiles ignore bits of sides they do not cover fully:
// the result equals the one with those bits cleared.
static void test_any_blocked_bits(void **state) {
    (void)state;
    g_rng = 0xb17b17;
    tally t = {.name = "any bits"};
    long ignored = 0;
    for (int k = 0; k < test_cases(9000); k++) {
        int id = rng_int(1, LEDGE_TILE_COUNT - 1);
        tmodel m = random_tile(id);
        unsigned mask = (unsigned)rng_int(0, 15);
        gshape g;
        gshape_make(&g, k % 3, log_uniform(0.1, 3) * m.s);
        if (k % 2)
            place_touching(&g, &m);
        else
            place_random(&g, &m);
        ledge_manifold r = run_case(&t, &m, mask, &g, false);
        if (m.kind == M_CONVEX || m.kind == M_CONCAVE) {
            ledge_manifold r2 = ledge_collide_tile((ledge_tile)id, v((float)m.lo.x, (float)m.lo.y),
                                                   (float)m.s, mask & m.full, &g.s, g.pos);
            ignored += (mask & ~m.full) != 0;
            if (memcmp(&r, &r2, sizeof r) != 0)
                fail_case(&t, "bits of sides not fully covered changed a round tile's result", &m,
                          mask, &g, &r, 0);
        }
    }
    print_message("[any bits] %ld round-tile cases with ignored bits\n", ignored);
    tally_finish(&t);
}

// The two models of an extrusion agree (the hull of moved vertices, and the
// cell with blocked sides moved away cut by the half-plane): a check of the
// test's own model, on fully covered sides where both apply.
static void test_models_agree(void **state) {
    (void)state;
    g_rng = 0xa9ee;
    for (int id = 1; id < LEDGE_TILE_COUNT; id++) {
        tmodel m = tm_make(id, odv(-3, 2), 2);
        if (m.kind != M_POLY && m.kind != M_FULL) continue;
        unsigned masks[16];
        int nm = full_masks(&m, masks);
        for (int mi = 0; mi < nm; mi++) {
            for (int k = 0; k < 50; k++) {
                gshape g;
                gshape_make(&g, k % 3, 1.5);
                place_random(&g, &m);
                odvec a[16], b[16];
                int na = extruded_polygon(&m, masks[mi], 1e4, a);
                int nb = clipped_polygon(&m, masks[mi], 1e4, b);
                oshape ua = oracle_polygon(a, na), ub = oracle_polygon(b, nb);
                double da = oracle_depth(&ua, &g.o, NULL), db = oracle_depth(&ub, &g.o, NULL);
                assert_true(fabs(da - db) < 1e-9 * 1e4);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Seams: shapes dragged along rows of tiles, each tile collided with the
// blocked sides a tilemap gives it (every side whose edge is OFF: seams
// between two tiles that cover them fully or equally, sides neither tile
// touches), except the row's ends. Only the surface's normal may appear.

typedef struct row_tile {
    int id;
    vec2s min;
    unsigned blocked;
} row_tile;

static long drag(const row_tile *row, int count, float size, const ledge_shape *s, vec2s from,
                 vec2s to, int steps, vec2s normal, long *bad) {
    long contacts = 0;
    for (int i = 0; i <= steps; i++) {
        float f = (float)i / (float)steps;
        vec2s pos = v(from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f);
        int near = (int)floorf(pos.x / size);
        for (int k = near - 2 < 0 ? 0 : near - 2; k < count && k <= near + 2; k++) {
            ledge_manifold m =
                ledge_collide_tile((ledge_tile)row[k].id, row[k].min, size, row[k].blocked, s, pos);
            if (!m.hit) continue;
            contacts++;
            if (fabsf(m.normal.x - normal.x) > 1e-5f || fabsf(m.normal.y - normal.y) > 1e-5f) {
                if ((*bad)++ < 5)
                    print_error("tile %d at {%g,%g}: normal {%.7g,%.7g} at pos {%.7g,%.7g}\n", k,
                                (double)row[k].min.x, (double)row[k].min.y, (double)m.normal.x,
                                (double)m.normal.y, (double)pos.x, (double)pos.y);
            }
        }
    }
    return contacts;
}

static void test_seams(void **state) {
    (void)state;
    enum { N = 100 };
    row_tile row[N];
    const float size = 1.5f, pen = 0.02f;
    ledge_shape circle = ledge_make_circle(v(0, 0), 0.45f);
    ledge_shape box = ledge_make_box(v(0, 0), v(0.6f, 0.3f));
    vec2s hex[6];
    for (int i = 0; i < 6; i++)
        hex[i] = v(0.5f * cosf((float)(PI / 3 * i)), 0.5f * sinf((float)(PI / 3 * i)));
    ledge_shape poly; // a hexagon with a flat bottom
    assert_true(ledge_make_polygon(hex, 6, &poly));
    float poly_bottom = 0;
    for (int i = 0; i < 6; i++) poly_bottom = fminf(poly_bottom, poly.vertices[i].y);
    long bad = 0, contacts = 0;
    const ledge_shape *shapes[3] = {&circle, &box, &poly};
    const float bottoms[3] = {-0.45f, -0.3f, poly_bottom};

    // A floor of FULL tiles and one of HALF_U tiles (solid below y = 0.5).
    for (int kind = 0; kind < 2; kind++) {
        float top = kind == 0 ? size : 0.5f * size;
        for (int i = 0; i < N; i++) {
            row[i].id = kind == 0 ? LEDGE_TILE_FULL : LEDGE_TILE_HALF_U;
            row[i].min = v(size * (float)i, 0);
            row[i].blocked = (i > 0 ? LEDGE_SIDE_XNEG : 0u) | (i < N - 1 ? LEDGE_SIDE_XPOS : 0u);
            if (kind == 1) row[i].blocked |= LEDGE_SIDE_YPOS; // untouched, empty above: OFF
        }
        for (int s = 0; s < 3; s++) {
            float y = top - bottoms[s] - pen;
            contacts += drag(row, N, size, shapes[s], v(0.5f * size, y), v(size * (N - 0.5f), y),
                             9973, v(0, 1), &bad);
        }
    }
    // A 45-degree staircase rising to the right (45DEG_NP at (i, i), solid
    // below the diagonal, filled underneath), and one falling to the right
    // (45DEG_PP at (i, -i)). Interior tiles: all four sides OFF (two fill
    // seams, two sides that neither the tile nor the empty cell touches).
    for (int dir = 0; dir < 2; dir++) {
        for (int i = 0; i < N; i++) {
            row[i].id = dir == 0 ? LEDGE_TILE_45DEG_NP : LEDGE_TILE_45DEG_PP;
            row[i].min = v(size * (float)i, size * (float)(dir == 0 ? i : -i));
            row[i].blocked = (i > 0 && i < N - 1) ? 15u : 0u;
        }
        vec2s n = dir == 0 ? v(-0.70710678f, 0.70710678f) : v(0.70710678f, 0.70710678f);
        for (int s = 0; s < 3; s++) {
            // The shape's support along -n, so that it dips `pen` into the slope.
            float reach = -1e30f;
            for (int k = 0; k < (shapes[s]->type == LEDGE_SHAPE_CIRCLE ? 0 : shapes[s]->count); k++)
                reach = fmaxf(reach,
                              -(shapes[s]->vertices[k].x * n.x + shapes[s]->vertices[k].y * n.y));
            if (shapes[s]->type == LEDGE_SHAPE_CIRCLE) reach = shapes[s]->radius;
            vec2s a = v(size * 1.5f, size * (dir == 0 ? 1.5f : -0.5f));
            vec2s b = v(size * (N - 1.5f), size * (dir == 0 ? N - 1.5f : -(N - 2.5f)));
            // a and b lie on the slope line; lift by reach - pen along n.
            vec2s lift = v(n.x * (reach - pen), n.y * (reach - pen));
            contacts += drag(row, N, size, shapes[s], v(a.x + lift.x, a.y + lift.y),
                             v(b.x + lift.x, b.y + lift.y), 4999, n, &bad);
        }
    }
    print_message("[seams] %ld contacts along FULL, HALF and 45-degree rows, %ld with another "
                  "normal\n",
                  contacts, bad);
    assert_true(contacts > 50000);
    assert_int_equal(bad, 0);
}

// ---------------------------------------------------------------------------
// Hand cases.

static void test_hand_cases(void **state) {
    (void)state;
    const float s = 2.0f;
    vec2s o = v(10, -4); // CONCAVE_PP: R = o, F = o + (2, 2)
    // A circle in the bowl, clear of the solid: no hit. Then pressed into the
    // arc: pushed toward F by |F - c| + r - s.
    ledge_shape c = ledge_make_circle(v(0, 0), 0.5f);
    vec2s F = v(o.x + s, o.y + s);
    vec2s in_bowl = v(F.x - 1.0f, F.y - 1.0f); // |F - c| = 1.414, + r = 1.914 < 2
    ledge_manifold m = ledge_collide_tile(LEDGE_TILE_CONCAVE_PP, o, s, 0, &c, in_bowl);
    assert_false(m.hit);
    ledge_shape small_box = ledge_make_box(v(0, 0), v(0.3f, 0.2f));
    m = ledge_collide_tile(LEDGE_TILE_CONCAVE_PP, o, s, 0, &small_box, in_bowl);
    assert_false(m.hit);
    vec2s deep = v(F.x - 1.2f, F.y - 1.2f); // |F - c| = 1.697, + r = 2.197: 0.197 deep
    m = ledge_collide_tile(LEDGE_TILE_CONCAVE_PP, o, s, 0, &c, deep);
    assert_true(m.hit);
    double want = sqrt(2.0) * 1.2 + 0.5 - 2.0;
    assert_true(fabs(m.depth - want) < 1e-5);
    assert_true(fabs(m.normal.x - 0.70710678) < 1e-5 && fabs(m.normal.y - 0.70710678) < 1e-5);

    // A circle on top of a CONVEX hill (CONVEX_PP: R = o) gets the radial
    // normal at every angle of the arc.
    for (int i = 1; i < 20; i++) {
        double a = 0.5 * PI * i / 20;
        vec2s pos =
            v((float)(o.x + (s + 0.5 - 0.05) * cos(a)), (float)(o.y + (s + 0.5 - 0.05) * sin(a)));
        m = ledge_collide_tile(LEDGE_TILE_CONVEX_PP, o, s, 0, &c, pos);
        assert_true(m.hit);
        assert_true(fabs(m.depth - 0.05) < 1e-5);
        assert_true(fabs(m.normal.x - cos(a)) < 1e-5 && fabs(m.normal.y - sin(a)) < 1e-5);
    }

    // A box on a small 22 tile (22DEG_SMALL_PP: triangle R = o, P = o + (2, 0),
    // o + (0, 1): the half-height step is the top at x = o.x) is lifted onto
    // the step when its bottom is just below it and the slope push is larger.
    ledge_shape wide = ledge_make_box(v(0, 0), v(0.8f, 0.25f));
    vec2s on_step = v(o.x + 0.3f, o.y + 1.0f + 0.25f - 0.04f); // bottom 0.04 below the step
    m = ledge_collide_tile(LEDGE_TILE_22DEG_SMALL_PP, o, s, 0, &wide, on_step);
    assert_true(m.hit);
    assert_true(fabs(m.normal.x) < 1e-6 && fabs(m.normal.y - 1) < 1e-6);
    assert_true(fabs(m.depth - 0.04) < 1e-5);
    // Further down the slope the slope normal (1, 2)/sqrt5 wins: the box's
    // corner (x0, y0) is (2 - x0 - 2 y0)/sqrt5 below the line x + 2y = 2.
    vec2s on_slope = v(o.x + 1.5f, o.y + 0.5f);
    m = ledge_collide_tile(LEDGE_TILE_22DEG_SMALL_PP, o, s, 0, &wide, on_slope);
    assert_true(m.hit);
    double x0 = 1.5 - 0.8, y0 = 0.5 - 0.25;
    assert_true(fabs(m.normal.x - 1 / sqrt(5.0)) < 1e-5 && fabs(m.normal.y - 2 / sqrt(5.0)) < 1e-5);
    assert_true(fabs(m.depth - (2 - x0 - 2 * y0) / sqrt(5.0)) < 1e-5);

    // Half tiles, from the geometry (N's original half-tile circle code had
    // two bugs; here the tile is just the half box). HALF_U solid y in
    // [0, 1] of a 2-cell: a circle over its top face, over its upper corner,
    // and beside its side below the face.
    m = ledge_collide_tile(LEDGE_TILE_HALF_U, o, s, 0, &c, v(o.x + 1.0f, o.y + 1.4f));
    assert_true(m.hit && fabs(m.normal.y - 1) < 1e-6 && fabs(m.depth - 0.1) < 1e-5);
    m = ledge_collide_tile(LEDGE_TILE_HALF_U, o, s, 0, &c, v(o.x + 2.3f, o.y + 1.3f));
    assert_true(m.hit);
    assert_true(fabs(m.normal.x - 0.70710678) < 1e-5 && fabs(m.normal.y - 0.70710678) < 1e-5);
    assert_true(fabs(m.depth - (0.5 - 0.3 * sqrt(2.0))) < 1e-5);
    m = ledge_collide_tile(LEDGE_TILE_HALF_U, o, s, 0, &c, v(o.x + 2.3f, o.y + 0.6f));
    assert_true(m.hit && fabs(m.normal.x - 1) < 1e-6 && fabs(m.depth - 0.2) < 1e-5);
    // ... and inside it, nearer the face than the side: out through the face.
    m = ledge_collide_tile(LEDGE_TILE_HALF_U, o, s, 0, &c, v(o.x + 1.0f, o.y + 0.8f));
    assert_true(m.hit && fabs(m.normal.y - 1) < 1e-6 && fabs(m.depth - 0.7) < 1e-5);
    // HALF_D (solid y in [1, 2]) from below, at the lower corner.
    m = ledge_collide_tile(LEDGE_TILE_HALF_D, o, s, 0, &c, v(o.x - 0.3f, o.y + 0.7f));
    assert_true(m.hit);
    assert_true(fabs(m.normal.x + 0.70710678) < 1e-5 && fabs(m.normal.y + 0.70710678) < 1e-5);

    // A FULL tile blocked on all sides is deep inside solid: no contact.
    m = ledge_collide_tile(LEDGE_TILE_FULL, o, s, 15, &c, v(o.x + 1, o.y + 1));
    assert_false(m.hit);
    // A circle over the seam of two FULL floor tiles is pushed straight up by
    // both, at every offset.
    for (int i = 0; i <= 20; i++) {
        float x = o.x + s - 0.5f + 0.05f * (float)i;
        ledge_manifold a =
            ledge_collide_tile(LEDGE_TILE_FULL, o, s, LEDGE_SIDE_XPOS, &c, v(x, o.y + s + 0.45f));
        ledge_manifold b = ledge_collide_tile(LEDGE_TILE_FULL, v(o.x + s, o.y), s, LEDGE_SIDE_XNEG,
                                              &c, v(x, o.y + s + 0.45f));
        assert_true(a.hit || b.hit);
        if (a.hit) assert_true(a.normal.x == 0 && a.normal.y == 1 && fabs(a.depth - 0.05) < 1e-5);
        if (b.hit) assert_true(b.normal.x == 0 && b.normal.y == 1 && fabs(b.depth - 0.05) < 1e-5);
    }
}

// ---------------------------------------------------------------------------
// Refusals.

static void test_refusals(void **state) {
    (void)state;
    ledge_shape c = ledge_make_circle(v(0, 0), 1);
    vec2s o = v(0, 0), p = v(0.5f, 0.5f);
    struct {
        ledge_tile tile;
        vec2s cell;
        float size;
        unsigned blocked;
        const ledge_shape *shape;
        vec2s pos;
        const char *word;
    } bad[] = {
        {34, o, 1, 0, &c, p, "tile is 34"},
        {LEDGE_TILE_FULL, v(NAN, 0), 1, 0, &c, p, "cell_min"},
        {LEDGE_TILE_FULL, v(0, 2e6f), 1, 0, &c, p, "cell_min"},
        {LEDGE_TILE_FULL, o, 0, 0, &c, p, "size"},
        {LEDGE_TILE_FULL, o, -1, 0, &c, p, "size"},
        {LEDGE_TILE_FULL, o, NAN, 0, &c, p, "size"},
        {LEDGE_TILE_FULL, o, 1, 16, &c, p, "blocked"},
        {LEDGE_TILE_FULL, o, 1, 0x80000000u, &c, p, "blocked"},
        {LEDGE_TILE_FULL, o, 1, 0, NULL, p, "shape"},
        {LEDGE_TILE_FULL, o, 1, 0, &c, v(INFINITY, 0), "pos"},
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        log_capture_start();
        ledge_manifold m = ledge_collide_tile(bad[i].tile, bad[i].cell, bad[i].size, bad[i].blocked,
                                              bad[i].shape, bad[i].pos);
        assert_false(m.hit);
        assert_int_equal(m.point_count, 0);
        assert_true(m.depth == 0 && m.normal.x == 0 && m.normal.y == 0);
        if (!log_capture_says("ledge_collide_tile", bad[i].word))
            fail_msg("case %u: expected '%s' in: %s", i, bad[i].word, g_log.last);
    }
    ledge_shape invalid = ledge_make_circle(v(0, 0), -1); // refused constructor
    log_capture_start();
    ledge_manifold m = ledge_collide_tile(LEDGE_TILE_FULL, o, 1, 0, &invalid, p);
    assert_false(m.hit);
    assert_true(log_capture_says("ledge_collide_tile", "shape"));
    // EMPTY is valid and never hits; good calls log nothing.
    log_capture_start();
    m = ledge_collide_tile(LEDGE_TILE_EMPTY, o, 1, 0, &c, p);
    assert_false(m.hit);
    m = ledge_collide_tile(LEDGE_TILE_FULL, o, 1, LEDGE_SIDE_XNEG | LEDGE_SIDE_XPOS, &c,
                           v(0.5f, 1.5f));
    assert_true(m.hit && m.normal.y == 1.0f);
    assert_int_equal(g_log.count, 0);
}

int main(void) {
    for (int i = 0; i < NDIR; i++) g_dirs[i] = odv(cos(2 * PI * i / NDIR), sin(2 * PI * i / NDIR));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_models_agree), cmocka_unit_test(test_circles),
        cmocka_unit_test(test_boxes),        cmocka_unit_test(test_polygons),
        cmocka_unit_test(test_concave_bowl), cmocka_unit_test(test_any_blocked_bits),
        cmocka_unit_test(test_seams),        cmocka_unit_test(test_hand_cases),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
