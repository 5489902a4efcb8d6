// Test helper: random shapes of every kind, built through the public
// constructors from seeded draws (rng.h). Include after cmocka.h.
#ifndef LEDGE_TEST_RANDOM_SHAPES_H
#define LEDGE_TEST_RANDOM_SHAPES_H

#include <ledge/collision.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "rng.h"

#ifndef PI
#define PI 3.14159265358979323846
#endif

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}
// Two draws in one expression (v(rng(), rng())) would be unsequenced: gcc
// and clang would draw them in different orders and see different cases.
static vec2s rng_box(double xlo, double xhi, double ylo, double yhi) {
    float x = rng_range(xlo, xhi);
    float y = rng_range(ylo, yhi);
    return v(x, y);
}
static vec2s rng_vec(double lo, double hi) {
    return rng_box(lo, hi, lo, hi);
}

// ---------------------------------------------------------------------------
// Random shapes, built through the public constructors.

enum { KIND_CIRCLE, KIND_BOX, KIND_POLYGON, KIND_COUNT };
static const char *const kind_names[] = {"circle", "box", "polygon"};

// A convex polygon: 3..8 points on a random ellipse (always convex), at
// sorted random angles at least 0.2 rad apart (never collinear).
static ledge_shape random_polygon(void) {
    int n = rng_int(3, LEDGE_MAX_POLYGON_VERTICES);
    double ang[LEDGE_MAX_POLYGON_VERTICES];
    for (bool ok = false; !ok;) {
        for (int i = 0; i < n; ++i) ang[i] = 2.0 * PI * rng_unit();
        for (int i = 1; i < n; ++i) { // insertion sort
            for (int j = i; j > 0 && ang[j] < ang[j - 1]; --j) {
                double t = ang[j];
                ang[j] = ang[j - 1];
                ang[j - 1] = t;
            }
        }
        ok = true;
        for (int i = 0; i < n; ++i) {
            double gap = i + 1 < n ? ang[i + 1] - ang[i] : ang[0] + 2.0 * PI - ang[i];
            if (gap < 0.2) ok = false;
        }
    }
    double a = rng_range(0.3, 3.0), b = rng_range(0.3, 3.0), rot = rng_range(0.0, 2.0 * PI);
    double cx = rng_range(-1, 1), cy = rng_range(-1, 1);
    bool clockwise = rng_next() & 1; // the constructor accepts either winding
    vec2s pts[LEDGE_MAX_POLYGON_VERTICES];
    for (int i = 0; i < n; ++i) {
        double th = ang[clockwise ? n - 1 - i : i];
        double ex = a * cos(th), ey = b * sin(th);
        pts[i] = v((float)(cx + ex * cos(rot) - ey * sin(rot)),
                   (float)(cy + ex * sin(rot) + ey * cos(rot)));
    }
    ledge_shape s;
    assert_true(ledge_make_polygon(pts, n, &s));
    return s;
}

static ledge_shape random_shape(int kind) {
    if (kind == KIND_POLYGON) return random_polygon();
    vec2s c = rng_vec(-1, 1);
    if (kind == KIND_CIRCLE) return ledge_make_circle(c, rng_range(0.2, 3.0));
    return ledge_make_box(c, rng_vec(0.1, 3.0));
}

// A shape placed in world space, in double, with its own unit outward
// normals recomputed from the vertices: what the brute-force checks use.
typedef struct dshape {
    bool circle;
    double cx, cy, r; // circle
    int n;            // polygon: vertices and own unit outward normals
    double x[LEDGE_MAX_POLYGON_VERTICES], y[LEDGE_MAX_POLYGON_VERTICES];
    double nx[LEDGE_MAX_POLYGON_VERTICES], ny[LEDGE_MAX_POLYGON_VERTICES];
    double round; // extra rounding radius (the rounded polygon test)
} dshape;

static dshape place(const ledge_shape *s, vec2s pos) {
    dshape d;
    memset(&d, 0, sizeof d);
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        d.circle = true;
        d.cx = (double)pos.x + s->center.x;
        d.cy = (double)pos.y + s->center.y;
        d.r = s->radius;
        return d;
    }
    d.n = s->count;
    double area = 0.0;
    for (int i = 0; i < d.n; ++i) {
        d.x[i] = (double)pos.x + s->vertices[i].x;
        d.y[i] = (double)pos.y + s->vertices[i].y;
    }
    for (int i = 0; i < d.n; ++i) {
        int j = (i + 1) % d.n;
        double ex = d.x[j] - d.x[i], ey = d.y[j] - d.y[i], l = hypot(ex, ey);
        d.nx[i] = ey / l;
        d.ny[i] = -ex / l;
        area += d.x[i] * d.y[j] - d.x[j] * d.y[i];
    }
    assert_true(area > 0.0); // the contract: counter-clockwise with y up
    return d;
}

#endif
