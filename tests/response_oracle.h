// The response's closed forms in double precision, for the tests that
// compare the step with them (test_response.c, test_material.c): small
// vector helpers, N's split with Coulomb's floor (world.h), the test
// shapes and where they touch, and a point and normal on every tile id's
// surface written out again from the definitions of tiles.h.
#ifndef LEDGE_TESTS_RESPONSE_ORACLE_H
#define LEDGE_TESTS_RESPONSE_ORACLE_H

#include "ledge/ledge.h"

// (Include after <cmocka.h>: make_shape asserts.)

#include <math.h>
#include <stdbool.h>

#define DT (1.0f / 60.0f)
#define PI 3.14159265358979323846

static inline vec2s v(float x, float y) {
    return (vec2s){{x, y}};
}

typedef struct dvec {
    double x, y;
} dvec;

static inline dvec dv(double x, double y) {
    return (dvec){x, y};
}
static inline dvec dadd(dvec a, dvec b) {
    return dv(a.x + b.x, a.y + b.y);
}
static inline dvec dsub(dvec a, dvec b) {
    return dv(a.x - b.x, a.y - b.y);
}
static inline dvec dscale(dvec a, double s) {
    return dv(a.x * s, a.y * s);
}
static inline double ddot(dvec a, dvec b) {
    return a.x * b.x + a.y * b.y;
}
static inline double dlen(dvec a) {
    return sqrt(ddot(a, a));
}
static inline dvec dunit(dvec a) {
    return dscale(a, 1.0 / dlen(a));
}
static inline dvec dof(vec2s a) {
    return dv(a.x, a.y);
}
static inline vec2s fof(dvec a) {
    return v((float)a.x, (float)a.y);
}

// --- the oracle ----------------------------------------------------------------

// The closed form of one contact (world.h): v is the (relative) velocity,
// n the unit normal toward the body. N: v' = (1 - f) vt - b vn, b counting
// as 0 at or under the threshold. Coulomb, without gravity (no loads):
// friction removes max(f |vt|, f (out - vn)), at most |vt|.
static inline dvec oracle_loaded(dvec vel, dvec n, double f, double b, double threshold,
                                 ledge_friction_law model, double load) {
    double vn = ddot(vel, n);
    if (!(vn < 0.0)) return vel;
    dvec vt = dsub(vel, dscale(n, vn));
    double out = -vn > threshold ? -b * vn : 0.0;
    double t = dlen(vt), removed = f * t;
    if (model == LEDGE_FRICTION_COULOMB) {
        double floor = fmax(f * (out - vn), load);
        if (floor > removed) removed = floor;
        if (removed > t) removed = t;
    }
    dvec kept = t > 0.0 ? dscale(vt, (t - removed) / t) : vt;
    return dadd(kept, dscale(n, out));
}

// --- bodies -----------------------------------------------------------------------

enum { SHAPE_CIRCLE, SHAPE_BOX, SHAPE_POLYGON, SHAPE_KINDS };
static const char *const shape_names[SHAPE_KINDS] = {"circle", "box", "polygon"};

static inline ledge_shape make_shape(int kind) {
    if (kind == SHAPE_CIRCLE) return ledge_make_circle(v(0, 0), 0.2f);
    if (kind == SHAPE_BOX) return ledge_make_box(v(0, 0), v(0.15f, 0.12f));
    // A hexagon with flat top and bottom (pairs meet it face to face).
    vec2s p[6];
    for (int k = 0; k < 6; ++k) {
        double a = PI / 3.0 * k;
        p[k] = v((float)(0.2 * cos(a)), (float)(0.2 * sin(a)));
    }
    ledge_shape s;
    assert_true(ledge_make_polygon(p, 6, &s));
    return s;
}

// How far the shape reaches from its position along -n (its support).
static inline double reach(const ledge_shape *s, dvec n) {
    if (s->type == LEDGE_SHAPE_CIRCLE) return s->radius - ddot(dof(s->center), n);
    double best = -INFINITY;
    for (int k = 0; k < s->count; ++k) {
        double d = -ddot(dof(s->vertices[k]), n);
        if (d > best) best = d;
    }
    return best;
}

// The point of s (at the origin) that touches first moving along -n: a
// circle's point on its rim, a polygon's vertex (the first one).
static inline dvec touch_point(const ledge_shape *s, dvec n) {
    if (s->type == LEDGE_SHAPE_CIRCLE) return dsub(dof(s->center), dscale(n, s->radius));
    int j = 0;
    for (int k = 1; k < s->count; ++k) {
        if (-ddot(dof(s->vertices[k]), n) > -ddot(dof(s->vertices[j]), n) + 1e-9) j = k;
    }
    return dof(s->vertices[j]);
}

// The vertex of s (at pos) reaching farthest along -n, in world coordinates.
static inline dvec deepest_vertex(const ledge_shape *s, dvec pos, dvec n) {
    int j = 0;
    for (int k = 1; k < s->count; ++k) {
        if (-ddot(dof(s->vertices[k]), n) > -ddot(dof(s->vertices[j]), n)) j = k;
    }
    return dadd(pos, dof(s->vertices[j]));
}

// The approach directions, as (normal, tangential) parts of a unit
// velocity: head-on, grazing (about 6 degrees), and two oblique ones.
#define DIRECTIONS 4
static const double approach[DIRECTIONS][2] = {{-1.0, 0.0},
                                               {-0.1, 0.99498743710662},
                                               {-0.64278760968654, 0.76604444311898},
                                               {-0.76604444311898, -0.64278760968654}};
#define SPEED 6.0

// --- tiles ------------------------------------------------------------------------

// A surface of a tile to aim at: a point on it and its normal (out of the
// solid), from the tile definitions of tiles.h written out again here. For
// the arcs, `arc` is their centre and `concave` which side is solid.
typedef struct target {
    dvec point, normal;
    bool curved, concave;
    dvec arc;
} target;

// The sign pair of a sloped or curved tile id (the order of tiles.h: PN,
// NN, NP, PP).
static inline dvec signs(int k) {
    static const double s[4][2] = {{1, -1}, {-1, -1}, {-1, 1}, {1, 1}};
    return dv(s[k][0], s[k][1]);
}

// Cell (10, 10) of a 1 m map: lower corner (10, 10).
static inline int tile_targets(int tile, target *out) {
    const dvec c = dv(10.5, 10.5);
    const double w = 0.5;
    if (tile == LEDGE_TILE_FULL) {
        const dvec ns[4] = {dv(1, 0), dv(-1, 0), dv(0, 1), dv(0, -1)};
        for (int k = 0; k < 4; ++k) {
            out[k] = (target){dadd(c, dscale(ns[k], w)), ns[k], false, false, dv(0, 0)};
        }
        return 4;
    }
    if (tile >= LEDGE_TILE_HALF_D) {
        const dvec ns[4] = {dv(0, -1), dv(-1, 0), dv(0, 1), dv(1, 0)};
        out[0] = (target){c, ns[tile - LEDGE_TILE_HALF_D], false, false, dv(0, 0)};
        return 1;
    }
    int group = (tile - 2) / 4;
    dvec s = signs((tile - 2) % 4);
    target t = {c, dunit(s), false, false, dv(0, 0)};
    dvec R = dsub(c, dv(s.x * w, s.y * w)), F = dadd(c, dv(s.x * w, s.y * w));
    switch (group) {
    case 0: // 45DEG: triangle R, P, Q; the hypotenuse passes through c
        break;
    case 1: // CONCAVE: the cell minus the disc of radius 2w around F
        t.curved = t.concave = true;
        t.arc = F;
        t.point = dsub(F, dscale(t.normal, 2 * w));
        break;
    case 2: // CONVEX: the disc of radius 2w around R
        t.curved = true;
        t.arc = R;
        t.point = dadd(R, dscale(t.normal, 2 * w));
        break;
    case 3: // 22DEG_SMALL: from P = c + (sx w, -sy w) to c + (-sx w, 0)
        t.normal = dunit(dv(s.x, 2 * s.y));
        t.point = dadd(c, dv(0, -s.y * w / 2));
        break;
    case 4: // 22DEG_BIG: from c + (sx w, 0) to Q = c + (-sx w, sy w)
        t.normal = dunit(dv(s.x, 2 * s.y));
        t.point = dadd(c, dv(0, s.y * w / 2));
        break;
    case 5: // 67DEG_SMALL: from Q to c + (0, -sy w)
        t.normal = dunit(dv(2 * s.x, s.y));
        t.point = dadd(c, dv(-s.x * w / 2, 0));
        break;
    default: // 67DEG_BIG: from P to c + (0, sy w)
        t.normal = dunit(dv(2 * s.x, s.y));
        t.point = dadd(c, dv(s.x * w / 2, 0));
        break;
    }
    out[0] = t;
    return 1;
}

// The surface normal where the body now touches: the face's, or for an arc
// the radius through the circle's centre or the polygon's deepest vertex.
static inline dvec normal_at(const target *t, const ledge_shape *s, dvec pos) {
    if (!t->curved) return t->normal;
    dvec p = s->type == LEDGE_SHAPE_CIRCLE ? dadd(pos, dof(s->center))
                                           : deepest_vertex(s, pos, t->normal);
    return t->concave ? dunit(dsub(t->arc, p)) : dunit(dsub(p, t->arc));
}

// --- body pairs ---------------------------------------------------------------------

// A pair: shapes of a and b and the normal of their contact (from b toward
// a): circles meet along any direction, polygons face to face.
typedef struct pair_kind {
    int a, b;
    double angle; // of the normal, degrees
} pair_kind;

static const pair_kind pair_kinds[] = {
    {SHAPE_CIRCLE, SHAPE_CIRCLE, 30.0},    {SHAPE_CIRCLE, SHAPE_CIRCLE, 200.0},
    {SHAPE_CIRCLE, SHAPE_BOX, 90.0},       {SHAPE_BOX, SHAPE_BOX, 0.0},
    {SHAPE_BOX, SHAPE_BOX, 270.0},         {SHAPE_POLYGON, SHAPE_BOX, 90.0},
    {SHAPE_POLYGON, SHAPE_POLYGON, 270.0}, {SHAPE_BOX, SHAPE_CIRCLE, 180.0},
};
#define PAIR_KINDS (int)(sizeof pair_kinds / sizeof pair_kinds[0])

// --- starting a body toward its first contact ------------------------------------

/// Creates body `bd` (shape and material set) moving toward tile target t
/// at SPEED from approach direction `dir`: where the step ends it has
/// moved 0.7 of its normal move into the surface with the point reaching
/// farthest (a polygon's vertex) on the target point, and it starts one
/// step back (semi-implicit Euler: the step moves it by vel + g dt).
/// *vel is what it really starts with.
static inline ledge_body_id start_toward_tile(ledge_world *w, ledge_body_def *bd, const target *t,
                                              int dir, dvec gravity, dvec *vel) {
    dvec tan = dv(-t->normal.y, t->normal.x);
    dvec v0 =
        dadd(dscale(t->normal, SPEED * approach[dir][0]), dscale(tan, SPEED * approach[dir][1]));
    double sink = 0.7 * SPEED * -approach[dir][0] * DT;
    dvec end = dadd(dsub(t->point, touch_point(&bd->shape, t->normal)), dscale(t->normal, -sink));
    bd->position = fof(dsub(end, dscale(dadd(v0, dscale(gravity, DT)), DT)));
    bd->velocity = fof(v0);
    ledge_body_id id = ledge_body_create(w, bd);
    *vel = dof(bd->velocity);
    return id;
}

/// Creates bodies a and b meeting along unit normal n (from b toward a)
/// with relative velocity from approach direction `dir` at SPEED, b itself
/// moving at (0.7, -0.4): where the step ends a has sunk into b by 0.7 of
/// its normal move, at b's position (12, 12) along n; they start one step
/// back (gravity moves both alike).
static inline void start_pair(ledge_world *w, ledge_body_def *ba, ledge_body_def *bb, dvec n,
                              int dir, dvec gravity, ledge_body_id *ia, ledge_body_id *ib) {
    dvec tan = dv(-n.y, n.x);
    dvec rel = dadd(dscale(n, SPEED * approach[dir][0]), dscale(tan, SPEED * approach[dir][1]));
    dvec vb = dv(0.7, -0.4), pb = dv(12.0, 12.0), gdt = dscale(gravity, DT);
    double sink = 0.7 * SPEED * -approach[dir][0] * DT;
    double dist = reach(&bb->shape, dscale(n, -1.0)) + reach(&ba->shape, n) - sink;
    bb->position = fof(dsub(pb, dscale(dadd(vb, gdt), DT)));
    ba->position = fof(dsub(dadd(pb, dscale(n, dist)), dscale(dadd(dadd(vb, rel), gdt), DT)));
    bb->velocity = fof(vb);
    ba->velocity = fof(dadd(vb, rel));
    *ia = ledge_body_create(w, ba);
    *ib = ledge_body_create(w, bb);
}

/// Steps the world until body `id` has a contact, at most 3 steps: how
/// many steps; *n its contacts (the first 4 in cd, which may be NULL).
static inline int step_to_contact(ledge_world *w, ledge_body_id id, ledge_contact_data *cd,
                                  int *n) {
    int steps = 0;
    *n = 0;
    while (*n == 0 && steps < 3) {
        ledge_world_step(w, DT);
        *n = ledge_body_contacts(w, id, cd, cd ? 4 : 0);
        ++steps;
    }
    return steps;
}

/// Checks bodies a and b (which had velocities va0 and vb0 before the
/// contact) against `change` of their relative velocity shared by inverse
/// mass (world.h), and momentum conserved apart (independently of the
/// formula); fails naming `where`. Returns the error, of SPEED.
static inline double check_pair(ledge_world *w, ledge_body_id ia, ledge_body_id ib, dvec va0,
                                dvec vb0, dvec change, const char *where) {
    double ma = ledge_body_mass(w, ia), mb = ledge_body_mass(w, ib);
    double ima = 1.0 / ma, imb = 1.0 / mb;
    dvec want_a = dadd(va0, dscale(change, ima / (ima + imb)));
    dvec want_b = dsub(vb0, dscale(change, imb / (ima + imb)));
    dvec got_a = dof(ledge_body_velocity(w, ia)), got_b = dof(ledge_body_velocity(w, ib));
    double err = fmax(dlen(dsub(got_a, want_a)), dlen(dsub(got_b, want_b))) / SPEED;
    dvec p0 = dadd(dscale(va0, ma), dscale(vb0, mb));
    dvec p1 = dadd(dscale(got_a, ma), dscale(got_b, mb));
    double perr = dlen(dsub(p1, p0)) / (SPEED * (ma + mb));
    if (!(err <= 1e-5) || !(perr <= 1e-5)) {
        fail_msg("%s: a (%.7f, %.7f) b (%.7f, %.7f), closed form a (%.7f, %.7f) b (%.7f, %.7f), "
                 "error %.3g, momentum error %.3g",
                 where, got_a.x, got_a.y, got_b.x, got_b.y, want_a.x, want_a.y, want_b.x, want_b.y,
                 err, perr);
    }
    return err;
}

#endif // LEDGE_TESTS_RESPONSE_ORACLE_H
