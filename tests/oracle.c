// The independent double-precision collision oracle (see oracle.h). Written
// from the geometry alone: no ledge header, no ledge call, no float.
#include "oracle.h"

#include <math.h>
#include <stdlib.h>

odvec odv(double x, double y) {
    odvec v;
    v.x = x;
    v.y = y;
    return v;
}

static odvec add(odvec a, odvec b) {
    return odv(a.x + b.x, a.y + b.y);
}
static odvec sub(odvec a, odvec b) {
    return odv(a.x - b.x, a.y - b.y);
}
static odvec scale(odvec a, double s) {
    return odv(a.x * s, a.y * s);
}
static double dot(odvec a, odvec b) {
    return a.x * b.x + a.y * b.y;
}
static double cross(odvec a, odvec b) {
    return a.x * b.y - a.y * b.x;
}
static double len(odvec a) {
    return sqrt(dot(a, a));
}

oshape oracle_circle(odvec c, double r) {
    oshape s = {0};
    s.kind = ORACLE_CIRCLE;
    s.c = c;
    s.r = r;
    return s;
}

oshape oracle_box(odvec c, odvec h) {
    odvec p[4] = {odv(c.x - h.x, c.y - h.y), odv(c.x + h.x, c.y - h.y), odv(c.x + h.x, c.y + h.y),
                  odv(c.x - h.x, c.y + h.y)};
    return oracle_polygon(p, 4);
}

oshape oracle_polygon(const odvec *pts, int n) {
    oshape s = {0};
    s.kind = ORACLE_POLYGON;
    if (n < 0) n = 0;
    if (n > ORACLE_MAX_POINTS) n = ORACLE_MAX_POINTS;
    s.n = n;
    for (int i = 0; i < n; i++) s.p[i] = pts[i];
    return s;
}

oshape oracle_translate(const oshape *s, odvec d) {
    oshape t = *s;
    t.c = add(t.c, d);
    for (int i = 0; i < t.n; i++) t.p[i] = add(t.p[i], d);
    return t;
}

static int cmp_point(const void *pa, const void *pb) {
    const odvec *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return 0;
}

int oracle_hull(const odvec *pts, int n, odvec *out) {
    if (n <= 0) return 0;
    odvec sorted[ORACLE_MAX_HULL];
    if (n > ORACLE_MAX_HULL) n = ORACLE_MAX_HULL;
    for (int i = 0; i < n; i++) sorted[i] = pts[i];
    qsort(sorted, (size_t)n, sizeof sorted[0], cmp_point);
    // Drop exact duplicates.
    int m = 1;
    for (int i = 1; i < n; i++)
        if (cmp_point(&sorted[i], &sorted[m - 1]) != 0) sorted[m++] = sorted[i];
    if (m == 1) {
        out[0] = sorted[0];
        return 1;
    }
    // Monotone chain; pops on cross <= 0 so that collinear points are dropped.
    // Each chain holds at most m points, so 2 m entries are always enough.
    odvec h[2 * ORACLE_MAX_HULL];
    int k = 0;
    for (int i = 0; i < m; i++) {
        while (k >= 2 && cross(sub(h[k - 1], h[k - 2]), sub(sorted[i], h[k - 2])) <= 0) k--;
        h[k++] = sorted[i];
    }
    for (int i = m - 2, lower = k + 1; i >= 0; i--) {
        while (k >= lower && cross(sub(h[k - 1], h[k - 2]), sub(sorted[i], h[k - 2])) <= 0) k--;
        h[k++] = sorted[i];
    }
    k--; // the last point repeats the first
    if (k < 1) k = 1;
    for (int i = 0; i < k; i++) out[i] = h[i];
    return k;
}

// Closest point to p on segment a-b.
static odvec closest_on_segment(odvec a, odvec b, odvec p) {
    odvec e = sub(b, a);
    double ee = dot(e, e);
    double t = ee > 0 ? dot(sub(p, a), e) / ee : 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    return add(a, scale(e, t));
}

double oracle_hull_sd(const odvec *hull, int n, double r, odvec p, odvec *grad) {
    odvec g = odv(0, 1);
    double sd;
    if (n <= 0) {
        sd = INFINITY;
    } else if (n <= 2) {
        // A point or a segment: no interior, the distance is all there is.
        odvec q = n == 1 ? hull[0] : closest_on_segment(hull[0], hull[1], p);
        odvec d = sub(p, q);
        sd = len(d);
        if (sd > 0) {
            g = scale(d, 1 / sd);
        } else if (n == 2) {
            odvec e = sub(hull[1], hull[0]);
            double l = len(e);
            if (l > 0) g = odv(e.y / l, -e.x / l);
        }
    } else {
        // Signed distance to each edge line (outward normals: CCW, y up).
        double best = -INFINITY;
        odvec best_n = g;
        for (int i = 0; i < n; i++) {
            odvec a = hull[i], b = hull[(i + 1) % n];
            odvec e = sub(b, a);
            double l = len(e);
            odvec nrm = odv(e.y / l, -e.x / l);
            double s = dot(nrm, sub(p, a));
            if (s > best) {
                best = s;
                best_n = nrm;
            }
        }
        if (best <= 0) {
            // Inside (or on the boundary): for a convex polygon the distance
            // to the boundary is the distance to the nearest edge line.
            sd = best;
            g = best_n;
        } else {
            // Outside: the distance to the nearest edge segment.
            double dmin = INFINITY;
            odvec qmin = p;
            for (int i = 0; i < n; i++) {
                odvec q = closest_on_segment(hull[i], hull[(i + 1) % n], p);
                double d = len(sub(p, q));
                if (d < dmin) {
                    dmin = d;
                    qmin = q;
                }
            }
            sd = dmin;
            g = dmin > 0 ? scale(sub(p, qmin), 1 / dmin) : best_n;
        }
    }
    if (grad) *grad = g;
    return sd - r;
}

// The shape as a hull (its "core") plus a rounding radius.
static int shape_core(const oshape *s, odvec *core, double *r) {
    if (s->kind == ORACLE_CIRCLE) {
        core[0] = s->c;
        *r = s->r;
        return 1;
    }
    *r = 0;
    return oracle_hull(s->p, s->n, core);
}

double oracle_point_sd(const oshape *s, odvec p, odvec *grad) {
    odvec core[ORACLE_MAX_POINTS];
    double r;
    int n = shape_core(s, core, &r);
    return oracle_hull_sd(core, n, r, p, grad);
}

double oracle_point_distance(const oshape *s, odvec p) {
    double d = oracle_point_sd(s, p, NULL);
    return d > 0 ? d : 0;
}

bool oracle_point_in_circle(odvec c, double r, odvec p) {
    odvec d = sub(p, c);
    return dot(d, d) <= r * r;
}

bool oracle_point_in_polygon(const odvec *pts, int n, odvec p) {
    odvec hull[ORACLE_MAX_HULL];
    int h = oracle_hull(pts, n, hull);
    if (h < 3) return false;
    for (int i = 0; i < h; i++) {
        odvec a = hull[i], b = hull[(i + 1) % h];
        if (cross(sub(b, a), sub(p, a)) < 0) return false; // right of a CCW edge
    }
    return true;
}

bool oracle_contains(const oshape *s, odvec p) {
    if (s->kind == ORACLE_CIRCLE) return oracle_point_in_circle(s->c, s->r, p);
    return oracle_point_in_polygon(s->p, s->n, p);
}

void oracle_mdiff(const oshape *a, const oshape *b, omdiff *out) {
    odvec ca[ORACLE_MAX_POINTS], cb[ORACLE_MAX_POINTS];
    double ra, rb;
    int na = shape_core(a, ca, &ra);
    int nb = shape_core(b, cb, &rb);
    odvec diff[ORACLE_MAX_HULL];
    int m = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) diff[m++] = sub(ca[i], cb[j]);
    out->n = oracle_hull(diff, m, out->p);
    out->r = ra + rb;
}

double oracle_mdiff_depth(const omdiff *d, odvec t, odvec *normal) {
    // Moving b by t moves D by -t; the origin's signed distance to D - t is
    // t's signed distance to D. Its gradient at t is the direction b moves
    // to leave D fastest, i.e. from a toward b.
    return -oracle_hull_sd(d->p, d->n, d->r, t, normal);
}

double oracle_mdiff_support(const omdiff *d, odvec u) {
    double best = -INFINITY;
    for (int i = 0; i < d->n; i++) best = fmax(best, dot(d->p[i], u));
    return best + d->r * len(u);
}

double oracle_depth(const oshape *a, const oshape *b, odvec *normal) {
    omdiff d;
    oracle_mdiff(a, b, &d);
    return oracle_mdiff_depth(&d, odv(0, 0), normal);
}

double oracle_distance(const oshape *a, const oshape *b) {
    double depth = oracle_depth(a, b, NULL);
    return depth < 0 ? -depth : 0;
}

void oracle_bounds(const oshape *s, odvec *lower, odvec *upper) {
    if (s->kind == ORACLE_CIRCLE) {
        *lower = odv(s->c.x - s->r, s->c.y - s->r);
        *upper = odv(s->c.x + s->r, s->c.y + s->r);
        return;
    }
    odvec lo = s->p[0], hi = s->p[0];
    for (int i = 1; i < s->n; i++) {
        lo = odv(fmin(lo.x, s->p[i].x), fmin(lo.y, s->p[i].y));
        hi = odv(fmax(hi.x, s->p[i].x), fmax(hi.y, s->p[i].y));
    }
    *lower = lo;
    *upper = hi;
}

double oracle_extent(const oshape *s) {
    odvec lo, hi;
    oracle_bounds(s, &lo, &hi);
    return fmax(hi.x - lo.x, hi.y - lo.y);
}

odvec oracle_centroid(const oshape *s) {
    if (s->kind == ORACLE_CIRCLE) return s->c;
    odvec hull[ORACLE_MAX_POINTS];
    int n = oracle_hull(s->p, s->n, hull);
    odvec o = hull[0], acc = odv(0, 0);
    double area2 = 0;
    for (int i = 1; i + 1 < n; i++) {
        double w = cross(sub(hull[i], o), sub(hull[i + 1], o));
        acc = add(acc, scale(add(sub(hull[i], o), sub(hull[i + 1], o)), w / 3));
        area2 += w;
    }
    if (area2 <= 0) {
        // Degenerate: the mean of the hull vertices.
        odvec m = odv(0, 0);
        for (int i = 0; i < n; i++) m = add(m, hull[i]);
        return scale(m, 1.0 / n);
    }
    return add(o, scale(acc, 1 / area2));
}
