// Convex decomposition of simple polygons (ledge_decompose).
//
// Pipeline: validate the outline, drop collinear vertices, triangulate by ear
// clipping, then merge triangles across diagonals (Hertel-Mehlhorn) while the
// merged piece stays convex and has at most LEDGE_MAX_POLYGON_VERTICES
// corners. Each piece is finally built with ledge_make_polygon.
//
// Every topological decision (which side of a line, do two edges meet, is a
// vertex inside an ear) goes through an exact orientation predicate. Rounded
// predicates let collinear or nearly collinear input (tile outlines are full
// of it) clip a wrong ear or miss a self-touching outline, and their answers
// depend on evaluation order; exact ones cannot and do not.
//
// Everything lives on the stack (about 27 KiB) and no step depends on memory
// addresses, so the same input always gives the same pieces, bit for bit.
#include "check.h"
#include "shape.h"

#include <float.h>
#include <string.h>

#define MAX_POINTS     LEDGE_MAX_DECOMPOSE_POINTS
#define MAX_TRIANGLES  (MAX_POINTS - 2)
#define MAX_HALF_EDGES (3 * MAX_TRIANGLES)
#define MAX_CORNERS    LEDGE_MAX_POLYGON_VERTICES

// Pieces are checked against ledge_make_polygon's rules (the tolerances in
// shape.h) before they are built, so that building them cannot fail and log
// a refusal in the middle of a successful decomposition.

// ---------------------------------------------------------------------------
// Exact orientation.

// Shewchuk's error bound for the double-precision 2D orientation
// ((3 + 16 eps) eps with eps = 2^-53): beyond it the rounded sign is exact.
#define ORIENT_ERRBOUND ((3.0 + 8.0 * DBL_EPSILON) * (0.5 * DBL_EPSILON))

// a + b = s + e exactly (Knuth's TwoSum; needs round-to-nearest doubles,
// which -ffp-contract=off and SSE2 arithmetic give).
static void two_sum(double a, double b, double *s, double *e) {
    double x = a + b, bv = x - a, av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

// Sign of the exact sum of n <= 6 doubles. The terms are gathered into a
// non-overlapping expansion (Shewchuk's grow-expansion), whose sign is the
// sign of its largest non-zero component.
static int exact_sum_sign(const double *terms, int n) {
    double e[6];
    int m = 0;
    for (int k = 0; k < n; ++k) {
        double q = terms[k];
        for (int i = 0; i < m; ++i) two_sum(q, e[i], &q, &e[i]);
        e[m++] = q;
    }
    for (int i = m - 1; i >= 0; --i) {
        if (e[i] != 0.0) return e[i] > 0.0 ? 1 : -1;
    }
    return 0;
}

// +1 when a, b, c turn counter-clockwise, -1 clockwise, 0 when collinear,
// exactly. The double filter settles almost every call; the fallback expands
// the determinant into six products of two floats, each exact in double.
static int orient(vec2s a, vec2s b, vec2s c) {
    double l = ((double)a.x - c.x) * ((double)b.y - c.y);
    double r = ((double)a.y - c.y) * ((double)b.x - c.x);
    double det = l - r, bound = ORIENT_ERRBOUND * (fabs(l) + fabs(r));
    if (det > bound) return 1;
    if (-det > bound) return -1;
    const double ax = a.x, ay = a.y, bx = b.x, by = b.y, cx = c.x, cy = c.y;
    const double t[6] = {ax * by, -(ax * cy), bx * cy, -(bx * ay), cx * ay, -(cx * by)};
    return exact_sum_sign(t, 6);
}

// Whether p, known to be collinear with a and b, lies on the closed segment.
static bool on_segment(vec2s a, vec2s b, vec2s p) {
    return minf(a.x, b.x) <= p.x && p.x <= maxf(a.x, b.x) && minf(a.y, b.y) <= p.y &&
           p.y <= maxf(a.y, b.y);
}

// Whether p lies in the closed triangle a, b, c (any winding), or on the
// segment a-c when the three are collinear (b is then between them).
static bool in_closed_triangle(vec2s a, vec2s b, vec2s c, vec2s p) {
    int s = orient(a, b, c);
    if (s == 0) return orient(a, c, p) == 0 && on_segment(a, c, p);
    return s * orient(a, b, p) >= 0 && s * orient(b, c, p) >= 0 && s * orient(c, a, p) >= 0;
}

// ---------------------------------------------------------------------------
// Rounded helpers, for tolerances and heuristics only.

static double cross3(vec2s a, vec2s b, vec2s c) {
    double e1x = (double)b.x - a.x, e1y = (double)b.y - a.y;
    double e2x = (double)c.x - b.x, e2y = (double)c.y - b.y;
    return e1x * e2y - e1y * e2x;
}

static double dist2(vec2s a, vec2s b) {
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y;
    return dx * dx + dy * dy;
}

// The turn a -> b -> c is too slight for ledge_make_polygon (same formula).
static bool nearly_straight(vec2s a, vec2s b, vec2s c) {
    double l1 = sqrt(dist2(a, b)), l2 = sqrt(dist2(b, c));
    return fabs(cross3(a, b, c)) <= LEDGE__COLLINEAR_SINE * l1 * l2;
}

// Whether ledge_make_polygon accepts the counter-clockwise corners p[0..n).
// Mirrors its duplicate and collinear checks without logging.
static bool piece_ok(const vec2s *p, int n) {
    if (n < 3 || n > MAX_CORNERS) return false;
    double tol = LEDGE__DUPLICATE_TOLERANCE * ledge__points_extent(p, n);
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            if (dist2(p[i], p[j]) <= tol * tol) return false;
        }
    }
    for (int i = 0; i < n; ++i) {
        vec2s a = p[i], b = p[(i + 1) % n], c = p[(i + 2) % n];
        if (nearly_straight(a, b, c) || cross3(a, b, c) < 0.0) return false;
    }
    return true;
}

// ---------------------------------------------------------------------------
// Input validation. Indices in messages are the caller's.

static bool check_arguments(const vec2s *points, int count, const ledge_shape *out, int max_out) {
    if (points == NULL) {
        LEDGE_ERROR("ledge_decompose: points is NULL");
        return false;
    }
    if (out == NULL) {
        LEDGE_ERROR("ledge_decompose: out is NULL");
        return false;
    }
    if (count < 3 || count > MAX_POINTS) {
        LEDGE_ERROR("ledge_decompose: count is %d (must be 3..%d)", count, MAX_POINTS);
        return false;
    }
    if (max_out < 1) {
        LEDGE_ERROR("ledge_decompose: max_out is %d (must be >= 1)", max_out);
        return false;
    }
    return true;
}

// Equal points, and points so close that ledge_make_polygon would call them
// equal (relative to the whole outline, hence also to any piece of it).
static bool check_duplicates(const vec2s *p, int n) {
    double tol = LEDGE__DUPLICATE_TOLERANCE * ledge__points_extent(p, n);
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            double d2 = dist2(p[i], p[j]);
            if (d2 > tol * tol) continue;
            if (d2 == 0.0) {
                LEDGE_ERROR("ledge_decompose: points[%d] and points[%d] are the same point "
                            "(%g, %g)",
                            i, j, (double)p[i].x, (double)p[i].y);
            } else {
                LEDGE_ERROR("ledge_decompose: points[%d] and points[%d] are nearly the same point "
                            "(%g, %g): %g apart, less than %g of the polygon's size",
                            i, j, (double)p[i].x, (double)p[i].y, sqrt(d2),
                            LEDGE__DUPLICATE_TOLERANCE);
            }
            return false;
        }
    }
    return true;
}

static bool check_not_all_collinear(const vec2s *p, int n) {
    for (int i = 2; i < n; ++i) {
        if (orient(p[0], p[1], p[i]) != 0) return true;
    }
    LEDGE_ERROR("ledge_decompose: all %d points are collinear (zero area)", n);
    return false;
}

// Two consecutive edges a -> b -> c overlap when the outline doubles back
// on itself at b. The points are distinct, so along a non-vertical line the
// x coordinates decide, along a vertical one the y coordinates.
static bool doubles_back(vec2s a, vec2s b, vec2s c) {
    if (orient(a, b, c) != 0) return false;
    if (a.x != b.x) return (a.x < b.x) != (b.x < c.x);
    return (a.y < b.y) != (b.y < c.y);
}

// Reports how the non-adjacent edges i -> i+1 and j -> j+1 meet, if they do.
static bool edges_meet(const vec2s *p, int n, int i, int j) {
    int i1 = (i + 1) % n, j1 = (j + 1) % n;
    vec2s a = p[i], b = p[i1], c = p[j], d = p[j1];
    if (maxf(a.x, b.x) < minf(c.x, d.x) || maxf(c.x, d.x) < minf(a.x, b.x) ||
        maxf(a.y, b.y) < minf(c.y, d.y) || maxf(c.y, d.y) < minf(a.y, b.y)) {
        return false; // bounding boxes apart: the common case, decided cheaply
    }
    int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (o1 * o2 < 0 && o3 * o4 < 0) {
        LEDGE_ERROR("ledge_decompose: edges %d-%d and %d-%d cross (self-intersecting)", i, i1, j,
                    j1);
        return true;
    }
    if (o1 == 0 && o2 == 0) {
        if (!on_segment(a, b, c) && !on_segment(a, b, d) && !on_segment(c, d, a)) return false;
        LEDGE_ERROR("ledge_decompose: edges %d-%d and %d-%d overlap (self-intersecting)", i, i1, j,
                    j1);
        return true;
    }
    const int who[4] = {j, j1, i, i1}, e0[4] = {i, i, j, j}, e1[4] = {i1, i1, j1, j1};
    const bool touch[4] = {o1 == 0 && on_segment(a, b, c), o2 == 0 && on_segment(a, b, d),
                           o3 == 0 && on_segment(c, d, a), o4 == 0 && on_segment(c, d, b)};
    for (int k = 0; k < 4; ++k) {
        if (!touch[k]) continue;
        LEDGE_ERROR("ledge_decompose: points[%d] touches edge %d-%d (self-intersecting)", who[k],
                    e0[k], e1[k]);
        return true;
    }
    return false;
}

// Simple means: no edge meets a non-adjacent edge, adjacent edges share only
// their common point. O(n^2) pairs, most rejected by bounding boxes.
static bool check_simple(const vec2s *p, int n) {
    for (int i = 0; i < n; ++i) {
        int b = (i + 1) % n, c = (i + 2) % n;
        if (doubles_back(p[i], p[b], p[c])) {
            LEDGE_ERROR("ledge_decompose: edges %d-%d and %d-%d overlap (the outline doubles "
                        "back at points[%d])",
                        i, b, b, c, b);
            return false;
        }
    }
    for (int i = 0; i < n; ++i) {
        for (int j = i + 2; j < n; ++j) {
            if (i == 0 && j == n - 1) continue; // adjacent through the closing edge
            if (edges_meet(p, n, i, j)) return false;
        }
    }
    return true;
}

// ---------------------------------------------------------------------------
// Working polygon: the cleaned outline, counter-clockwise, with the caller's
// index of every vertex for messages and canonical output order.

typedef struct outline {
    int n;
    vec2s p[MAX_POINTS];
    int index[MAX_POINTS];
} outline;

// The lexicographically smallest vertex is convex and, since the outline
// does not double back, not collinear with its neighbours: its turn gives
// the winding exactly.
static void make_counter_clockwise(outline *o) {
    int m = 0;
    for (int i = 1; i < o->n; ++i) {
        if (o->p[i].x < o->p[m].x || (o->p[i].x == o->p[m].x && o->p[i].y < o->p[m].y)) m = i;
    }
    int n = o->n;
    if (orient(o->p[(m + n - 1) % n], o->p[m], o->p[(m + 1) % n]) > 0) return;
    for (int i = 0, j = n - 1; i < j; ++i, --j) {
        vec2s tp = o->p[i];
        o->p[i] = o->p[j];
        o->p[j] = tp;
        int ti = o->index[i];
        o->index[i] = o->index[j];
        o->index[j] = ti;
    }
}

// Vertex k may go when its turn is too slight for ledge_make_polygon and no
// other vertex lies in the sliver triangle it spans with its neighbours:
// then no edge can cross the new edge, and the outline stays simple.
static bool droppable(const outline *o, int k) {
    int n = o->n, a = (k + n - 1) % n, c = (k + 1) % n;
    if (!nearly_straight(o->p[a], o->p[k], o->p[c])) return false;
    for (int i = 0; i < n; ++i) {
        if (i == a || i == k || i == c) continue;
        if (in_closed_triangle(o->p[a], o->p[k], o->p[c], o->p[i])) return false;
    }
    return true;
}

// Removes collinear and nearly collinear vertices until none is left; exact
// 180-degree vertices always go (their sliver is a segment of the outline).
static void drop_collinear(outline *o) {
    bool changed = true;
    while (changed && o->n >= 3) {
        changed = false;
        for (int k = 0; k < o->n && o->n >= 3;) {
            if (!droppable(o, k)) {
                ++k;
                continue;
            }
            memmove(&o->p[k], &o->p[k + 1], (size_t)(o->n - k - 1) * sizeof o->p[0]);
            memmove(&o->index[k], &o->index[k + 1], (size_t)(o->n - k - 1) * sizeof o->index[0]);
            o->n--;
            changed = true;
        }
    }
}

// ---------------------------------------------------------------------------
// Triangulation into a half-edge mesh. Triangle f owns half-edges 3f..3f+2;
// twin[h] is the half-edge on the other side of a diagonal (-1 on the
// outline). Merging later relinks next/prev and relabels faces.

typedef struct mesh {
    int triangles;
    int origin[MAX_HALF_EDGES];
    int next[MAX_HALF_EDGES];
    int prev[MAX_HALF_EDGES];
    int twin[MAX_HALF_EDGES];
    int face[MAX_HALF_EDGES];
    int face_edge[MAX_TRIANGLES]; // one half-edge of each live face, -1 once merged away
    bool face_ok[MAX_TRIANGLES];  // whether ledge_make_polygon would accept the face
} mesh;

// Ear-clipping state over the outline's vertices: a doubly linked ring of
// the remaining ones. A vertex that is not an ear because some vertex lies
// in its triangle remembers that blocker, so that only the vertices the
// clipped one was blocking need a new look.
typedef struct clipper {
    int remaining;
    int next[MAX_POINTS];
    int prev[MAX_POINTS];
    int blocker[MAX_POINTS];
    int pending[MAX_POINTS]; // half-edge across the ring edge v -> next[v], or -1
    double quality[MAX_POINTS];
    bool alive[MAX_POINTS];
    bool ear[MAX_POINTS];
} clipper;

// Roundness of triangle a, b, c: twice its area over the sum of its squared
// sides (largest for equilateral). Clipping the roundest ear first avoids
// slivers that ledge_make_polygon would refuse.
static double roundness(vec2s a, vec2s b, vec2s c) {
    return cross3(a, b, c) / (dist2(a, b) + dist2(b, c) + dist2(c, a));
}

static void classify(const outline *o, clipper *c, int v) {
    int a = c->prev[v], b = c->next[v];
    c->ear[v] = false;
    c->blocker[v] = -1;
    vec2s pa = o->p[a], pv = o->p[v], pb = o->p[b];
    if (orient(pa, pv, pb) <= 0) return; // reflex or straight
    float lx = minf(pa.x, minf(pv.x, pb.x)), ux = maxf(pa.x, maxf(pv.x, pb.x));
    float ly = minf(pa.y, minf(pv.y, pb.y)), uy = maxf(pa.y, maxf(pv.y, pb.y));
    for (int w = c->next[b]; w != a; w = c->next[w]) {
        vec2s p = o->p[w];
        if (p.x < lx || p.x > ux || p.y < ly || p.y > uy) continue; // cheap rejection
        if (orient(pa, pv, p) >= 0 && orient(pv, pb, p) >= 0 && orient(pb, pa, p) >= 0) {
            c->blocker[v] = w;
            return;
        }
    }
    c->ear[v] = true;
    c->quality[v] = roundness(pa, pv, pb);
}

// Makes face f the triangle a -> b -> c; `twins` are the half-edges across
// its sides (-1 for none yet).
static void set_triangle(mesh *m, int f, int a, int b, int c, const int twins[3]) {
    int h = 3 * f;
    const int v[3] = {a, b, c};
    for (int k = 0; k < 3; ++k) {
        m->origin[h + k] = v[k];
        m->next[h + k] = h + (k + 1) % 3;
        m->prev[h + k] = h + (k + 2) % 3;
        m->face[h + k] = f;
        m->twin[h + k] = twins[k];
        if (twins[k] >= 0) m->twin[twins[k]] = h + k;
    }
    m->face_edge[f] = h;
}

static int add_triangle(mesh *m, int a, int b, int c, const int twins[3]) {
    int f = m->triangles++;
    set_triangle(m, f, a, b, c, twins);
    return 3 * f;
}

static int best_ear(const clipper *c, int n) {
    int best = -1;
    for (int v = 0; v < n; ++v) {
        if (c->alive[v] && c->ear[v] && (best < 0 || c->quality[v] > c->quality[best])) best = v;
    }
    return best;
}

static void clip(const outline *o, clipper *c, mesh *m, int v) {
    int a = c->prev[v], b = c->next[v];
    const int twins[3] = {c->pending[a], c->pending[v], -1};
    int h = add_triangle(m, a, v, b, twins);
    c->pending[a] = h + 2; // the new ring edge a -> b faces the diagonal b -> a
    c->next[a] = b;
    c->prev[b] = a;
    c->alive[v] = false;
    c->remaining--;
    classify(o, c, a);
    classify(o, c, b);
    for (int w = 0; w < o->n; ++w) {
        if (c->alive[w] && c->blocker[w] == v) classify(o, c, w);
    }
}

// Ear clipping. A simple polygon always has an ear (two-ears theorem, which
// holds with 180-degree vertices too since ears are tested exactly), so the
// failure path only guards against a broken invariant.
static bool triangulate(const outline *o, mesh *m) {
    clipper c;
    int n = o->n;
    c.remaining = n;
    for (int v = 0; v < n; ++v) {
        c.next[v] = (v + 1) % n;
        c.prev[v] = (v + n - 1) % n;
        c.pending[v] = -1;
        c.alive[v] = true;
    }
    for (int v = 0; v < n; ++v) classify(o, &c, v);
    m->triangles = 0;
    while (c.remaining > 3) {
        int v = best_ear(&c, n);
        if (v < 0) {
            LEDGE_ERROR("ledge_decompose: no ear left to clip with %d vertices remaining "
                        "(internal error)",
                        c.remaining);
            return false;
        }
        clip(o, &c, m, v);
    }
    int a = 0;
    while (!c.alive[a]) ++a;
    int b = c.next[a], d = c.next[b];
    const int twins[3] = {c.pending[a], c.pending[b], c.pending[d]};
    add_triangle(m, a, b, d, twins);
    return true;
}

// ---------------------------------------------------------------------------
// Sliver removal by edge flips.
//
// Greedy ear choice can still leave a nearly straight chain of vertices to
// be triangulated last, all slivers that ledge_make_polygon refuses (a turned
// staircase does it). Flipping diagonals whenever that makes the worse of
// the two triangles rounder (Lawson's flips, with roundness for angles)
// repairs that, and rounder triangles also merge into fewer pieces.

// Enough passes for any triangulation met in practice; a cap only so that
// the loop is bounded on principle (each flip strictly improves the sorted
// roundness values, so it also terminates without it).
#define MAX_FLIP_PASSES MAX_POINTS

// Roundness of the triangle with vertices a, b, c, evaluated from its
// smallest vertex so that the same triangle always gets the same value
// (which is what makes the flip loop terminate despite rounding).
static double triangle_roundness(const outline *o, int a, int b, int c) {
    while (a > b || a > c) {
        int t = a;
        a = b;
        b = c;
        c = t;
    }
    return roundness(o->p[a], o->p[b], o->p[c]);
}

// Flips diagonal h (a -> b, triangles a b c and b a d) to c-d when the
// quadrilateral a d b c is strictly convex and the worse triangle improves.
static bool flip_if_rounder(const outline *o, mesh *m, int h) {
    int t = m->twin[h], f = h / 3, g = t / 3;
    int a = m->origin[h], b = m->origin[t], c = m->origin[m->prev[h]], d = m->origin[m->prev[t]];
    if (orient(o->p[c], o->p[a], o->p[d]) <= 0 || orient(o->p[d], o->p[b], o->p[c]) <= 0) {
        return false;
    }
    double before = fmin(triangle_roundness(o, a, b, c), triangle_roundness(o, b, a, d));
    double after = fmin(triangle_roundness(o, a, d, c), triangle_roundness(o, d, b, c));
    if (!(after > before + 1e-9 * fabs(before))) return false;
    const int tf[3] = {m->twin[m->next[t]], -1, m->twin[m->prev[h]]};
    const int tg[3] = {m->twin[m->prev[t]], m->twin[m->next[h]], -1};
    set_triangle(m, f, a, d, c, tf);
    set_triangle(m, g, d, b, c, tg);
    m->twin[3 * f + 1] = 3 * g + 2;
    m->twin[3 * g + 2] = 3 * f + 1;
    return true;
}

static void remove_slivers(const outline *o, mesh *m) {
    for (int pass = 0; pass < MAX_FLIP_PASSES; ++pass) {
        bool flipped = false;
        for (int h = 0; h < 3 * m->triangles; ++h) {
            if (m->twin[h] > h && flip_if_rounder(o, m, h)) flipped = true;
        }
        if (!flipped) return;
    }
}

// ---------------------------------------------------------------------------
// Hertel-Mehlhorn merging.

// Corners of the face cycle starting at half-edge h: vertices where it turns
// (180-degree vertices are skipped). Returns the corner count, or
// MAX_CORNERS + 1 as soon as there are too many.
static int face_corners(const outline *o, const mesh *m, int h, vec2s *out, int *index) {
    int k = 0, e = h;
    do {
        vec2s a = o->p[m->origin[m->prev[e]]], b = o->p[m->origin[e]];
        vec2s c = o->p[m->origin[m->next[e]]];
        if (orient(a, b, c) != 0) {
            if (k == MAX_CORNERS) return MAX_CORNERS + 1;
            if (index) index[k] = m->origin[e];
            out[k++] = b;
        }
        e = m->next[e];
    } while (e != h);
    return k;
}

static void link(mesh *m, int from, int to) {
    m->next[from] = to;
    m->prev[to] = from;
}

// Removes diagonal h when the merged face is convex, has at most
// MAX_CORNERS corners, and ledge_make_polygon would accept it (or one side
// was already unacceptable, a sliver that merging may cure).
static void try_merge(const outline *o, mesh *m, int h) {
    int t = m->twin[h], f = m->face[h], g = m->face[t];
    int a = m->origin[h], b = m->origin[t];
    int x = m->origin[m->prev[h]], y = m->origin[m->next[m->next[t]]];
    int z = m->origin[m->prev[t]], w = m->origin[m->next[m->next[h]]];
    if (orient(o->p[x], o->p[a], o->p[y]) < 0 || orient(o->p[z], o->p[b], o->p[w]) < 0) return;
    int hp = m->prev[h], hn = m->next[h], tp = m->prev[t], tn = m->next[t];
    link(m, hp, tn); // tentatively splice the two cycles around the diagonal
    link(m, tp, hn);
    vec2s corners[MAX_CORNERS];
    int k = face_corners(o, m, hn, corners, NULL);
    bool ok = k <= MAX_CORNERS && piece_ok(corners, k);
    if (k > MAX_CORNERS || (!ok && m->face_ok[f] && m->face_ok[g])) {
        link(m, hp, h); // undo
        link(m, h, hn);
        link(m, tp, t);
        link(m, t, tn);
        return;
    }
    int e = hn;
    do {
        m->face[e] = f;
        e = m->next[e];
    } while (e != hn);
    m->face_edge[f] = hn;
    m->face_edge[g] = -1;
    m->face_ok[f] = ok;
}

static bool is_reflex(const outline *o, int v) {
    int n = o->n;
    return orient(o->p[(v + n - 1) % n], o->p[v], o->p[(v + 1) % n]) < 0;
}

// Diagonals between two convex corners of the outline go first, those at
// one reflex vertex next, those joining two reflex vertices last. A reflex
// vertex stays convex in its pieces only through a diagonal that splits it,
// and a diagonal that splits two at once is the one worth keeping. Within
// each group, triangulation order.
static void merge_pieces(const outline *o, mesh *m) {
    for (int f = 0; f < m->triangles; ++f) {
        vec2s corners[MAX_CORNERS];
        int k = face_corners(o, m, 3 * f, corners, NULL);
        m->face_ok[f] = piece_ok(corners, k);
    }
    for (int reflex = 0; reflex <= 2; ++reflex) {
        for (int h = 0; h < 3 * m->triangles; ++h) {
            int t = m->twin[h];
            if (t <= h) continue;
            if (is_reflex(o, m->origin[h]) + is_reflex(o, m->origin[t]) != reflex) continue;
            try_merge(o, m, h);
        }
    }
}

// ---------------------------------------------------------------------------
// Output.

// The corners of face f, starting at the one with the smallest caller index.
static int canonical_corners(const outline *o, const mesh *m, int f, vec2s *out, int *index) {
    vec2s c[MAX_CORNERS];
    int ci[MAX_CORNERS];
    int k = face_corners(o, m, m->face_edge[f], c, ci), first = 0;
    for (int i = 1; i < k; ++i) {
        if (o->index[ci[i]] < o->index[ci[first]]) first = i;
    }
    for (int i = 0; i < k; ++i) {
        out[i] = c[(first + i) % k];
        index[i] = o->index[ci[(first + i) % k]];
    }
    return k;
}

static int count_pieces(const mesh *m) {
    int pieces = 0;
    for (int f = 0; f < m->triangles; ++f) pieces += m->face_edge[f] >= 0;
    return pieces;
}

// A piece ledge_make_polygon would refuse can only come from a sliver that
// no merge could absorb: nearly collinear points far apart in the outline.
static bool check_pieces(const outline *o, const mesh *m) {
    for (int f = 0; f < m->triangles; ++f) {
        if (m->face_edge[f] < 0 || m->face_ok[f]) continue;
        vec2s c[MAX_CORNERS];
        int ci[MAX_CORNERS];
        int k = canonical_corners(o, m, f, c, ci);
        LEDGE_ERROR("ledge_decompose: the piece with corners points[%d], points[%d], "
                    "points[%d]%s is too thin to build (nearly collinear corners)",
                    ci[0], ci[1], ci[2], k > 3 ? ", ..." : "");
        return false;
    }
    return true;
}

static int build_pieces(const outline *o, const mesh *m, ledge_shape *out) {
    int pieces = 0;
    for (int f = 0; f < m->triangles; ++f) {
        if (m->face_edge[f] < 0) continue;
        vec2s c[MAX_CORNERS];
        int ci[MAX_CORNERS];
        int k = canonical_corners(o, m, f, c, ci);
        if (!ledge_make_polygon(c, k, &out[pieces])) return -1; // logged by ledge_make_polygon
        pieces++;
    }
    return pieces;
}

int ledge_decompose(const vec2s *points, int count, ledge_shape *out, int max_out) {
    if (!check_arguments(points, count, out, max_out) ||
        !ledge__check_points("ledge_decompose", points, count) ||
        !check_duplicates(points, count) || !check_not_all_collinear(points, count) ||
        !check_simple(points, count)) {
        return -1;
    }
    outline o;
    o.n = count;
    for (int i = 0; i < count; ++i) {
        o.p[i] = points[i];
        o.index[i] = i;
    }
    make_counter_clockwise(&o);
    drop_collinear(&o);
    if (o.n < 3) {
        LEDGE_ERROR("ledge_decompose: the polygon has zero area after removing collinear points "
                    "(%d of %d points left)",
                    o.n, count);
        return -1;
    }
    mesh m;
    if (!triangulate(&o, &m)) return -1;
    remove_slivers(&o, &m);
    merge_pieces(&o, &m);
    if (!check_pieces(&o, &m)) return -1;
    int pieces = count_pieces(&m);
    if (pieces > max_out) {
        LEDGE_ERROR("ledge_decompose: max_out is %d but the polygon needs %d pieces", max_out,
                    pieces);
        return -1;
    }
    return build_pieces(&o, &m, out);
}
