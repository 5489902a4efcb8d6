// Chains (chain.h): refusals and ids; bodies rolled and slid over every
// vertex of polylines turning -60 to 60 degrees, both ways, y up and y
// down (no snag: every contact normal is a face's or between the two
// faces'; no bump over linear_slop; no speed lost beyond what the response
// takes; nothing through); fast bodies and bullets shot at chains; a
// chain continuing a tile floor; kinematic chains carrying what stands on
// them; events, ground state, snapshots and worker counts.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ffi.h>
#include <ledge/ledge.h>

#include "log_capture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT   (1.0f / 60.0f)
#define SLOP 0.005f
#define PI   3.14159265358979323846

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}
static vec2s add(vec2s a, vec2s b) {
    return v(a.x + b.x, a.y + b.y);
}
static vec2s sub(vec2s a, vec2s b) {
    return v(a.x - b.x, a.y - b.y);
}
static vec2s scale(vec2s a, float k) {
    return v(a.x * k, a.y * k);
}
static float dot(vec2s a, vec2s b) {
    return a.x * b.x + a.y * b.y;
}
static float cross(vec2s a, vec2s b) {
    return a.x * b.y - a.y * b.x;
}
static float len2(vec2s a) {
    return sqrtf(a.x * a.x + a.y * a.y);
}

static ledge_world *empty_world(float gravity_y) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0.0f, gravity_y);
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    return w;
}

static ledge_chain_id make_chain(ledge_world *w, const vec2s *p, int n, bool loop) {
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = p;
    cd.count = n;
    cd.loop = loop;
    ledge_chain_id id = ledge_chain_create(w, &cd);
    assert_true(ledge_chain_is_valid(w, id));
    return id;
}

// --- refusals and ids -------------------------------------------------------------

static void expect_refused(ledge_world *w, const ledge_chain_def *cd, const char *word) {
    log_capture_start();
    ledge_chain_id id = ledge_chain_create(w, cd);
    assert_int_equal(id.index1, 0);
    if (!log_capture_says("ledge_chain_create", word)) {
        fail_msg("expected a refusal saying '%s', got '%s'", word, g_log.last);
    }
    ledge_set_log_hook(NULL, NULL);
}

static void test_refusals(void **state) {
    (void)state;
    ledge_world *w = empty_world(-10.0f);
    ledge_chain_def cd = ledge_default_chain_def();
    expect_refused(w, NULL, "def is NULL");
    expect_refused(w, &cd, "points is NULL");
    vec2s two[] = {{{0, 0}}, {{1, 0}}};
    cd.points = two;
    cd.count = 1;
    expect_refused(w, &cd, "count is 1");
    cd.count = 2;
    cd.loop = true;
    expect_refused(w, &cd, "closed");
    cd.loop = false;
    cd.type = LEDGE_BODY_DYNAMIC;
    expect_refused(w, &cd, "static or kinematic");
    cd.type = LEDGE_BODY_STATIC;
    vec2s nan_pt[] = {{{0, 0}}, {{NAN, 0}}};
    cd.points = nan_pt;
    expect_refused(w, &cd, "points[1]");
    vec2s far_pt[] = {{{0, 0}}, {{2e6f, 0}}};
    cd.points = far_pt;
    expect_refused(w, &cd, "points[1]");
    vec2s repeat[] = {{{0, 0}}, {{1, 0}}, {{1, 0}}, {{2, 0}}};
    cd.points = repeat;
    cd.count = 4;
    expect_refused(w, &cd, "segment 1");
    vec2s fold[] = {{{0, 0}}, {{2, 0}}, {{1, 0}}};
    cd.points = fold;
    cd.count = 3;
    expect_refused(w, &cd, "back over itself");
    vec2s cross_pts[] = {{{0, 0}}, {{2, 2}}, {{2, 0}}, {{0, 2}}};
    cd.points = cross_pts;
    cd.count = 4;
    expect_refused(w, &cd, "cross");
    vec2s touch_pts[] = {{{0, 0}}, {{4, 0}}, {{4, 2}}, {{2, 0}}};
    cd.points = touch_pts;
    expect_refused(w, &cd, "cross or touch");
    vec2s ok_pts[] = {{{0, 0}}, {{4, 0}}, {{4, 2}}, {{2, 1}}};
    cd.points = ok_pts;
    cd.position = v(NAN, 0);
    expect_refused(w, &cd, "position");
    cd.position = v(0, 0);
    assert_int_equal(ledge_world_chain_count(w), 0);
    ledge_chain_id id = ledge_chain_create(w, &cd);
    assert_true(ledge_chain_is_valid(w, id));
    assert_int_equal(ledge_world_chain_count(w), 1);
    assert_int_equal(ledge_chain_segment_count(w, id), 3);
    log_capture_start();
    assert_false(ledge_chain_set_velocity(w, id, v(1, 0)));
    assert_true(log_capture_says("ledge_chain_set_velocity", "static"));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

static void test_ids(void **state) {
    (void)state;
    ledge_world *w = empty_world(-10.0f);
    vec2s p[] = {{{4, 1}}, {{0, 1}}};
    ledge_chain_id a = make_chain(w, p, 2, false);
    ledge_chain_id b = make_chain(w, p, 2, false);
    assert_int_equal(a.index1, 1);
    assert_int_equal(b.index1, 2);
    ledge_chain_destroy(w, a);
    assert_false(ledge_chain_is_valid(w, a));
    log_capture_start();
    assert_int_equal(ledge_chain_segment_count(w, a), -1);
    assert_true(log_capture_says("ledge_chain_segment_count", "stale"));
    ledge_chain_destroy(w, a);
    assert_true(log_capture_says("ledge_chain_destroy", "stale"));
    ledge_set_log_hook(NULL, NULL);
    ledge_chain_id c = make_chain(w, p, 2, false); // the freed slot, a new generation
    assert_int_equal(c.index1, a.index1);
    assert_int_not_equal(c.generation, a.generation);
    ledge_world *other = empty_world(-10.0f);
    assert_false(ledge_chain_is_valid(other, c));
    vec2s out[4];
    assert_int_equal(ledge_chain_points(w, c, out, 4), 2);
    assert_true(out[0].x == 4.0f && out[1].x == 0.0f);
    vec2s from, to, n;
    assert_true(ledge_chain_segment(w, c, 0, &from, &to, &n));
    assert_true(n.x == 0.0f && n.y == 1.0f); // right to left: the surface faces up
    ledge_world_destroy(other);
    ledge_world_destroy(w);
}

// --- the vertex matrix ----------------------------------------------------------------

// One crossing: the travel frame has x along the travel and y up from the
// surface; the world frame mirrors it in x (`back`: the body travels
// toward -x) and in y (`y_down`: gravity +y, up is -y).
typedef struct frame {
    vec2s origin;
    float sx, sy; ///< Mirror signs.
} frame;

static vec2s to_world(const frame *f, vec2s p) {
    return add(f->origin, v(f->sx * p.x, f->sy * p.y));
}
static vec2s dir_world(const frame *f, vec2s d) {
    return v(f->sx * d.x, f->sy * d.y);
}
static vec2s dir_local(const frame *f, vec2s d) {
    return v(f->sx * d.x, f->sy * d.y); // (its own inverse)
}

typedef struct crossing {
    float alpha, theta; ///< The first segment's slope and the turn at the vertex (radians).
    bool back, y_down, box;
    float speed, friction;
} crossing;

typedef struct crossing_result {
    float worst_bump;   ///< Highest the body's lowest point rose above the surface.
    float worst_normal; ///< Largest angle of a contact normal outside the faces' cone.
    float energy_ratio; ///< Kinetic energy after (with the projection's lift, below) / the least
                        ///< the response allows.
    bool through;       ///< The centre went behind the surface.
    bool crossed;       ///< The body got past the vertex.
} crossing_result;

// The shape's lowest point above a line through q of unit normal n.
static float height_above(const ledge_shape *s, vec2s pos, vec2s q, vec2s n) {
    if (s->type == LEDGE_SHAPE_CIRCLE) return dot(n, sub(add(pos, s->center), q)) - s->radius;
    float m = INFINITY;
    for (int i = 0; i < s->count; ++i) m = fminf(m, dot(n, sub(add(pos, s->vertices[i]), q)));
    return m;
}

// Angle (radians, signed, counter-clockwise) from a to b.
static float angle(vec2s a, vec2s b) {
    return atan2f(cross(a, b), dot(a, b));
}

static crossing_result run_crossing(const crossing *c) {
    const float L = 8.0f, g = 10.0f;
    frame f = {v(32.0f, 32.0f), c->back ? -1.0f : 1.0f, c->y_down ? -1.0f : 1.0f};
    ledge_world *w = empty_world(c->y_down ? g : -g);
    // Travel frame: A runs into the vertex at angle alpha, B leaves it at
    // alpha + theta. The surface faces +y: the points run against the travel.
    vec2s eA = v(cosf(c->alpha), sinf(c->alpha));
    vec2s eB = v(cosf(c->alpha + c->theta), sinf(c->alpha + c->theta));
    vec2s nA = v(-eA.y, eA.x), nB = v(-eB.y, eB.x);
    vec2s local[3] = {scale(eB, L), v(0, 0), scale(eA, -L)};
    vec2s pts[3];
    for (int k = 0; k < 3; ++k) pts[k] = to_world(&f, local[k]);
    int seg_b = 0;              // B's segment index
    if (c->back != c->y_down) { // one mirror turns the front: the other order
        vec2s t = pts[0];
        pts[0] = pts[2];
        pts[2] = t;
        seg_b = 1;
    }
    ledge_chain_id ch = make_chain(w, pts, 3, false);
    vec2s n0;
    ledge_chain_segment(w, ch, 0, NULL, NULL, &n0);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = c->box ? ledge_make_box(v(0, 0), v(0.4f, 0.3f)) : ledge_make_circle(v(0, 0), 0.4f);
    bd.friction = c->friction;
    // On A, 3 m before the vertex, resting at the slop's depth.
    vec2s at = scale(eA, -3.0f);
    float rest = -height_above(&bd.shape, v(0, 0), v(0, 0), nA); // centre to lowest point along nA
    vec2s start = add(at, scale(nA, rest - SLOP));
    bd.position = to_world(&f, start);
    bd.velocity = dir_world(&f, scale(eA, c->speed));
    ledge_body_id b = ledge_body_create(w, &bd);
    crossing_result r = {-INFINITY, 0.0f, 1.0f, false, false};
    bool concave = c->theta > 0.0f;
    // Energy bookkeeping: the kinetic energy (per mass) plus g times the
    // centre's height, before the vertex (1 m before it) and after it (on B,
    // 1 m past it, or where the run ends). Semi-implicit Euler loses
    // g^2 h^2 / 2 of that a step in free fall; it keeps
    // |v|^2 / 2 + g y - g h v_y / 2 (y up) exactly, which is what is
    // compared.
    float e_before = NAN, e_vertex_h = INFINITY, e_after = NAN;
    bool on_b = false;
    for (int step = 0; step < 400; ++step) {
        ledge_world_step(w, DT);
        vec2s p = to_world(&f, v(0, 0));
        vec2s pos = sub(ledge_body_position(w, b), p);
        pos = dir_local(&f, pos); // travel frame
        vec2s vel = dir_local(&f, ledge_body_velocity(w, b));
        float hA = height_above(&bd.shape, pos, v(0, 0), nA);
        float hB = height_above(&bd.shape, pos, v(0, 0), nB);
        float bump = concave ? fminf(hA, hB) : hA;
        if (bump > r.worst_bump) r.worst_bump = bump;
        vec2s cen = add(pos, bd.shape.center);
        float cA = dot(nA, cen), cB = dot(nB, cen);
        if (concave ? (cA < 0.0f || cB < 0.0f) : (cA < 0.0f && cB < 0.0f)) r.through = true;
        ledge_contact_data cd[8];
        int n = ledge_body_contacts(w, b, cd, 8);
        for (int k = 0; k < n && k < 8; ++k) {
            if (cd[k].chain.index1 == 0) continue;
            on_b |= cd[k].segment == seg_b;
            vec2s nl = dir_local(&f, cd[k].normal);
            float phi = angle(nA, nl), lo = fminf(0.0f, c->theta), hi = fmaxf(0.0f, c->theta);
            float out = phi < lo ? lo - phi : phi > hi ? phi - hi : 0.0f;
            if (out > r.worst_normal) r.worst_normal = out;
        }
        float along_a = dot(eA, pos), along_b = dot(eB, pos);
        float energy = 0.5f * dot(vel, vel) + g * pos.y - 0.5f * g * DT * vel.y;
        if (isnan(e_before) && along_a > -1.0f) e_before = energy;
        // The height the response's loss is counted from: the lowest the
        // centre was between there and the first contact with B (the most
        // the loss may be).
        if (!isnan(e_before) && !on_b) e_vertex_h = fminf(e_vertex_h, pos.y);
        if (along_b > 1.0f) {
            r.crossed = true;
            e_after = energy;
            break;
        }
        if (dot(vel, eB) <= 0.0f && along_a > 0.0f) break; // stopped on the way up B
        if (along_a < -3.5f) break;                        // slid back down A
    }
    if (r.crossed && !isnan(e_before) && e_vertex_h < INFINITY) {
        // The response may take the normal part at the vertex (cos^2 of the
        // turn of the kinetic energy there) and nothing else.
        // A step's projection out of the corner may also lift the body by
        // up to its approach in a step (|v| h) without a change of speed,
        // which gravity then takes back: g |v| h of the energy per face.
        float ke_before = e_before - g * e_vertex_h, ke_after = e_after - g * e_vertex_h;
        float cos_t = cosf(c->theta), lift = 2.0f * g * sqrtf(2.0f * ke_before) * DT;
        r.energy_ratio = (ke_after + lift) / (cos_t * cos_t * ke_before);
    }
    ledge_world_destroy(w);
    return r;
}

static void test_vertex_matrix(void **state) {
    (void)state;
    const float degrees[] = {-60, -45, -30, -15, -5, -1, 0, 1, 5, 15, 30, 45, 60};
    const float speeds[] = {1.0f, 4.0f, 10.0f};
    int cases = 0, crossed = 0;
    float worst_bump = -INFINITY, worst_normal = 0.0f, worst_energy = INFINITY;
    for (size_t ti = 0; ti < sizeof degrees / sizeof degrees[0]; ++ti) {
        for (int entry = 0; entry < 2; ++entry) {
            for (int mirror = 0; mirror < 4; ++mirror) {
                for (int box = 0; box < 2; ++box) {
                    for (size_t si = 0; si < 3; ++si) {
                        for (int fr = 0; fr < 2; ++fr) {
                            crossing c;
                            c.theta = (float)(degrees[ti] * PI / 180.0);
                            c.alpha = entry ? -c.theta : 0.0f; // onto the flat, or off it
                            c.back = mirror & 1;
                            c.y_down = (mirror & 2) != 0;
                            c.box = box != 0;
                            c.speed = speeds[si];
                            c.friction = fr ? 0.3f : 0.0f;
                            crossing_result r = run_crossing(&c);
                            ++cases;
                            crossed += r.crossed;
                            if (r.through || r.worst_bump > SLOP || r.worst_normal > 1.0e-3f ||
                                (fr == 0 && r.crossed && r.energy_ratio < 0.98f)) {
                                fail_msg("turn %g deg, alpha %g, back %d, y_down %d, %s, speed %g, "
                                         "friction %g: bump %g, normal off by %g rad, energy "
                                         "ratio %g, through %d",
                                         (double)degrees[ti], (double)c.alpha, c.back, c.y_down,
                                         c.box ? "box" : "circle", (double)c.speed,
                                         (double)c.friction, (double)r.worst_bump,
                                         (double)r.worst_normal, (double)r.energy_ratio, r.through);
                            }
                            worst_bump = fmaxf(worst_bump, r.worst_bump);
                            worst_normal = fmaxf(worst_normal, r.worst_normal);
                            if (fr == 0 && r.crossed)
                                worst_energy = fminf(worst_energy, r.energy_ratio);
                        }
                    }
                }
            }
        }
    }
    printf("vertex matrix: %d cases, %d crossed; worst bump %.5f, normal %.2e rad, energy "
           "ratio %.4f\n",
           cases, crossed, (double)worst_bump, (double)worst_normal, (double)worst_energy);
    assert_true(crossed > cases / 3); // (slow climbs up steep slopes stop short)
}

// --- nothing through -------------------------------------------------------------------

// Bodies shot down at a chain floor (a flat run with a dip of two slopes,
// so that they hit faces and vertices) at every speed from a crawl to 600
// m/s, bullets or not, at incidences from 10 to 90 degrees, y up and y
// down: after the hit each centre is in front of the chain.
static void test_nothing_through(void **state) {
    (void)state;
    const float speeds[] = {5.0f, 40.0f, 150.0f, 600.0f};
    const float incidences[] = {10.0f, 30.0f, 60.0f, 90.0f};
    int shots = 0;
    for (int down = 0; down < 2; ++down) {
        float sy = down ? -1.0f : 1.0f;
        ledge_world *w = empty_world(-10.0f * sy);
        // Right to left in y up; mirrored in y, the order turns.
        vec2s p[] = {{{60, 20}}, {{40, 20}}, {{34, 17}}, {{28, 20}}, {{4, 20}}};
        vec2s q[5];
        for (int k = 0; k < 5; ++k)
            q[k] = v(p[down ? 4 - k : k].x, 32.0f + sy * (p[down ? 4 - k : k].y - 32.0f));
        make_chain(w, q, 5, false);
        for (size_t si = 0; si < 4; ++si) {
            for (size_t ai = 0; ai < 4; ++ai) {
                for (int kind = 0; kind < 4; ++kind) {
                    for (float x = 20.0f; x <= 48.0f; x += 7.0f) {
                        ledge_body_def bd = ledge_default_body_def();
                        bd.shape = (kind & 1) ? ledge_make_box(v(0, 0), v(0.3f, 0.2f))
                                              : ledge_make_circle(v(0, 0), 0.25f);
                        bd.bullet = (kind & 2) != 0;
                        float a = (float)(incidences[ai] * PI / 180.0);
                        vec2s dir = v(cosf(a), -sinf(a) * sy);
                        // Starting 1.5 m above the floor line, aimed at x.
                        vec2s aim = v(x, 32.0f + sy * (20.0f - 32.0f));
                        float back = 1.5f / sinf(a);
                        bd.position = sub(aim, scale(dir, back));
                        bd.velocity = scale(dir, speeds[si]);
                        ledge_body_id b = ledge_body_create(w, &bd);
                        for (int k = 0; k < 20; ++k) ledge_world_step(w, DT);
                        vec2s c = ledge_body_position(w, b);
                        // In front: above the polyline (y up) at c.x.
                        float floor_y;
                        float X = c.x;
                        float y_up = X <= 28.0f || X >= 40.0f ? 20.0f
                                     : X <= 34.0f             ? 20.0f - 0.5f * (X - 28.0f)
                                                              : 17.0f + 0.5f * (X - 34.0f);
                        floor_y = 32.0f + sy * (y_up - 32.0f);
                        if (X > 4.0f && X < 60.0f && sy * (c.y - floor_y) < 0.0f) {
                            fail_msg("%s %s at %g m/s, %g deg, aimed at %g (y %s) went through: "
                                     "(%g, %g)",
                                     bd.bullet ? "bullet" : "body", (kind & 1) ? "box" : "circle",
                                     (double)speeds[si], (double)incidences[ai], (double)x,
                                     down ? "down" : "up", (double)c.x, (double)c.y);
                        }
                        ledge_body_destroy(w, b);
                        ++shots;
                    }
                }
            }
        }
        ledge_world_destroy(w);
    }
    printf("nothing through: %d shots\n", shots);
}

// --- a chain continuing a tile floor ----------------------------------------------------

// A floor of FULL tiles (top at y = 1, or y = 63 in y down) for x < 20,
// and a chain continuing it to x = 40 (its end on the tiles' top corner).
static ledge_world *junction_world(bool y_down) {
    ledge_world *w = empty_world(y_down ? 10.0f : -10.0f);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 20; ++x) ledge_tilemap_set(map, x, y_down ? 63 : 0, LEDGE_TILE_FULL);
    float top = y_down ? 63.0f : 1.0f;
    vec2s p[] = {{{40, top}}, {{20, top}}};
    if (y_down) { // mirrored: the other order
        p[0] = v(20, top);
        p[1] = v(40, top);
    }
    make_chain(w, p, 2, false);
    return w;
}

// A body slid across the junction both ways: every contact pushes straight
// up (no snag on the tile's side or the chain's end), no speed is lost
// (friction 0) and it never rises.
static void test_junction_slide(void **state) {
    (void)state;
    int runs = 0;
    for (int down = 0; down < 2; ++down) {
        float up = down ? -1.0f : 1.0f, top = down ? 63.0f : 1.0f;
        for (int box = 0; box < 2; ++box) {
            for (int dir = -1; dir <= 1; dir += 2) {
                for (float speed = 0.1f; speed < 20.0f; speed *= 3.0f) {
                    ledge_world *w = junction_world(down != 0);
                    ledge_body_def bd = ledge_default_body_def();
                    bd.shape = box ? ledge_make_box(v(0, 0), v(0.4f, 0.3f))
                                   : ledge_make_circle(v(0, 0), 0.4f);
                    float half = box ? 0.3f : 0.4f;
                    bd.position = v(dir > 0 ? 18.0f : 22.0f, top + up * (half - SLOP));
                    bd.velocity = v(dir * speed, 0);
                    ledge_body_id b = ledge_body_create(w, &bd);
                    float y0 = bd.position.y;
                    int frames = (int)(4.5f / (speed * DT)) + 2;
                    if (frames > 3000) frames = 3000;
                    for (int k = 0; k < frames; ++k) {
                        ledge_world_step(w, DT);
                        vec2s p = ledge_body_position(w, b), vel = ledge_body_velocity(w, b);
                        ledge_contact_data cd[8];
                        int n = ledge_body_contacts(w, b, cd, 8);
                        for (int j = 0; j < n && j < 8; ++j) {
                            if (fabsf(cd[j].normal.x) > 1.0e-4f || cd[j].normal.y * up < 0.9999f)
                                fail_msg("y %s, %s, dir %d, speed %g: a contact with %s pushes "
                                         "(%g, %g) at x %g",
                                         down ? "down" : "up", box ? "box" : "circle", dir,
                                         (double)speed, cd[j].chain.index1 ? "the chain" : "a tile",
                                         (double)cd[j].normal.x, (double)cd[j].normal.y,
                                         (double)p.x);
                        }
                        if (fabsf(vel.x - dir * speed) > 1.0e-4f * speed ||
                            up * (p.y - y0) > 1.0e-5f)
                            fail_msg("y %s, %s, dir %d, speed %g: at x %g velocity (%g, %g), "
                                     "height %g above the start",
                                     down ? "down" : "up", box ? "box" : "circle", dir,
                                     (double)speed, (double)p.x, (double)vel.x, (double)vel.y,
                                     (double)(up * (p.y - y0)));
                    }
                    vec2s p = ledge_body_position(w, b);
                    assert_true(dir > 0 ? p.x > 21.0f : p.x < 19.0f);
                    ledge_world_destroy(w);
                    ++runs;
                }
            }
        }
    }
    printf("junction slides: %d runs\n", runs);
}

// A ramp (a chain) leaving a tile floor at `deg` degrees, up (> 0) or down
// into a pit (< 0), from the floor's corner at x = 20 or from the middle of
// its last tile's top (`inset` 0.5); y down mirrors it. Bodies slide
// (friction 0) onto the ramp and back onto the floor: every contact's
// normal lies between the floor's and the ramp's (the tile's hidden side
// and the chain's hidden end never push), x speed is never lost at a
// convex junction, and the speed kept at a concave one is at least what
// the turn leaves (v cos(angle)).
static void test_ramp_junction(void **state) {
    (void)state;
    static const float degs[] = {-45, -30, -10, 10, 30, 45};
    int runs = 0;
    for (int down = 0; down < 2; ++down) {
        float up = down ? -1.0f : 1.0f, top = down ? 63.0f : 1.0f;
        for (int di = 0; di < 6; ++di) {
            float th = degs[di] * (float)PI / 180.0f;
            for (int inset = 0; inset < (th > 0 ? 2 : 1); ++inset) {
                float x0 = 20.0f - 0.5f * (float)inset;
                vec2s rn = v(-sinf(th), up * cosf(th)); // the ramp's normal
                vec2s fn = v(0.0f, up);
                for (int box = 0; box < 2; ++box) {
                    for (int dir = -1; dir <= 1; dir += 2) {
                        ledge_world *w = empty_world(-10.0f * up);
                        ledge_tilemap *map = ledge_world_tilemap(w);
                        for (int x = 0; x < 20; ++x)
                            ledge_tilemap_set(map, x, down ? 63 : 0, LEDGE_TILE_FULL);
                        vec2s far = v(x0 + 10.0f * cosf(th), top + up * 10.0f * sinf(th));
                        vec2s p[2] = {far, v(x0, top)};
                        if (down) { // mirrored: the other order
                            p[0] = v(x0, top);
                            p[1] = far;
                        }
                        make_chain(w, p, 2, false);
                        ledge_body_def bd = ledge_default_body_def();
                        bd.shape = box ? ledge_make_box(v(0, 0), v(0.4f, 0.3f))
                                       : ledge_make_circle(v(0, 0), 0.4f);
                        bd.friction = 0.0f;
                        float half = box ? 0.3f : 0.4f, speed = 10.0f;
                        if (dir > 0) { // from the floor onto the ramp
                            bd.position = v(x0 - 3.0f, top + up * half);
                            bd.velocity = v(speed, 0.0f);
                        } else { // from the ramp onto the floor (up out of a pit)
                            vec2s along = v(cosf(th), up * sinf(th));
                            float at = 3.0f, h = at * sinf(th);
                            float d = box ? 0.4f * fabsf(sinf(th)) + 0.3f * cosf(th) : 0.4f;
                            bd.position =
                                v(x0 + along.x * at + rn.x * d, top + along.y * at + rn.y * d);
                            float v0 = th < 0 ? sqrtf(2.0f * 10.0f * -h) + 3.0f : 0.0f;
                            bd.velocity = v(-along.x * v0, -along.y * v0);
                        }
                        ledge_body_id b = ledge_body_create(w, &bd);
                        float lo_x = 1e9f;
                        bool crossed = false;
                        for (int k = 0; k < 240 && !crossed; ++k) {
                            vec2s before = ledge_body_velocity(w, b);
                            ledge_world_step(w, DT);
                            vec2s pos = ledge_body_position(w, b), vel = ledge_body_velocity(w, b);
                            ledge_contact_data cd[8];
                            int n = ledge_body_contacts(w, b, cd, 8);
                            for (int j = 0; j < n && j < 8; ++j) {
                                vec2s nn = cd[j].normal;
                                // Between fn and rn: on the arc from one to the other.
                                float span = cross(fn, rn), a1 = cross(fn, nn), a2 = cross(nn, rn);
                                bool between = span >= 0.0f ? a1 >= -1e-3f && a2 >= -1e-3f
                                                            : a1 <= 1e-3f && a2 <= 1e-3f;
                                if (!between || dot(nn, fn) < dot(rn, fn) - 1e-3f)
                                    fail_msg("y %s, %g deg, inset %d, %s, dir %d: a contact "
                                             "with %s pushes (%g, %g) at (%g, %g)",
                                             down ? "down" : "up", (double)degs[di], inset,
                                             box ? "box" : "circle", dir,
                                             cd[j].chain.index1 ? "the chain" : "a tile",
                                             (double)nn.x, (double)nn.y, (double)pos.x,
                                             (double)pos.y);
                            }
                            // Convex junctions (down ramps): x speed only grows
                            // (the ramp's normal leans toward +x, the floor's
                            // is vertical).
                            if (th < 0 && dir > 0 && vel.x < before.x - 1.0e-3f)
                                fail_msg("y %s, %g deg, %s: x speed %g -> %g at x %g",
                                         down ? "down" : "up", (double)degs[di],
                                         box ? "box" : "circle", (double)before.x, (double)vel.x,
                                         (double)pos.x);
                            lo_x = fminf(lo_x, pos.x);
                            crossed = dir > 0 ? pos.x > x0 + 1.5f : pos.x < x0 - 1.5f;
                            if (crossed && th > 0) {
                                // The concave turn keeps at least v cos(angle)
                                // of the speed (and the climb takes g h).
                                float sp = len2(vel), h = up * (pos.y - bd.position.y);
                                float v_in =
                                    dir > 0 ? speed : sqrtf(2.0f * 10.0f * 3.0f * sinf(th));
                                // Energy from the start's: the floor's speed
                                // and height (dir > 0), or rest on the ramp.
                                float k_in = 0.5f * v_in * v_in;
                                float e_in = k_in * cosf(th) * cosf(th) - (dir > 0 ? 0.0f : k_in);
                                float e = 0.5f * sp * sp + 10.0f * h;
                                if (e < e_in - 0.02f * k_in - 0.01f)
                                    fail_msg("y %s, %g deg, inset %d, %s, dir %d: energy %g "
                                             "after the junction, %g expected",
                                             down ? "down" : "up", (double)degs[di], inset,
                                             box ? "box" : "circle", dir, (double)e, (double)e_in);
                            }
                        }
                        if (!crossed)
                            fail_msg("y %s, %g deg, inset %d, %s, dir %d: stuck at %g",
                                     down ? "down" : "up", (double)degs[di], inset,
                                     box ? "box" : "circle", dir,
                                     (double)ledge_body_position(w, b).x);
                        ledge_world_destroy(w);
                        ++runs;
                    }
                }
            }
        }
    }
    printf("ramp junctions: %d runs\n", runs);
}

static ledge_body_id make_character(ledge_world *w, vec2s at) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    bd.position = at;
    ledge_body_id id = ledge_body_create(w, &bd);
    ledge_character_def cd = ledge_default_character_def();
    assert_true(ledge_character_create(w, id, &cd));
    return id;
}

// A character walked across the junction both ways keeps its speed and
// height exactly and stays on the ground, on the tiles then on the chain.
static void test_junction_walk(void **state) {
    (void)state;
    for (int down = 0; down < 2; ++down) {
        float up = down ? -1.0f : 1.0f, top = down ? 63.0f : 1.0f;
        for (int dir = -1; dir <= 1; dir += 2) {
            ledge_world *w = junction_world(down != 0);
            ledge_body_id c = make_character(w, v(dir > 0 ? 17.0f : 23.0f, top + up * 0.45f));
            bool chain_seen = false, tile_seen = false;
            for (int k = 0; k < 90; ++k) {
                vec2s before = ledge_body_position(w, c);
                ledge_character_state st;
                assert_true(ledge_character_move(w, c, v(dir * 4.0f, -up * 2.0f), DT, &st));
                ledge_world_step(w, DT);
                vec2s p = ledge_body_position(w, c);
                assert_true(st.on_floor);
                assert_true(fabsf(p.x - before.x - dir * 4.0f * DT) < 1.0e-4f);
                assert_true(fabsf(p.y - (top + up * 0.45f)) < 0.011f);
                chain_seen |= st.floor_chain.index1 != 0;
                tile_seen |= st.floor_is_tile;
            }
            assert_true(chain_seen && tile_seen);
            ledge_world_destroy(w);
        }
    }
}

// A character walks a chain hill (30 degrees up, a flat top, 45 down) and
// back, y up and y down: constant speed across up, always on the ground,
// never farther above the surface than its skin.
static void test_character_hill(void **state) {
    (void)state;
    for (int down = 0; down < 2; ++down) {
        float up = down ? -1.0f : 1.0f;
        ledge_world *w = empty_world(-10.0f * up);
        // y up: right to left; the hill's ground at height 10 (y down: 54).
        float b = down ? 54.0f : 10.0f;
        vec2s p[] = {{{40, 0}}, {{30, 0}}, {{26, 4}}, {{22, 4}}, {{22 - 6.9282f, 0}}, {{4, 0}}};
        vec2s q[6];
        for (int k = 0; k < 6; ++k) {
            vec2s s0 = p[down ? 5 - k : k];
            q[k] = v(s0.x, b + up * s0.y);
        }
        make_chain(w, q, 6, false);
        // The surface's height (y up, above b) at x.
        for (int dir = -1; dir <= 1; dir += 2) {
            float x0 = dir > 0 ? 8.0f : 36.0f;
            ledge_body_id c = make_character(w, v(x0, b + up * 0.45f));
            int frames = 0;
            for (; frames < 400; ++frames) {
                vec2s before = ledge_body_position(w, c);
                ledge_character_state st;
                assert_true(ledge_character_move(w, c, v(dir * 5.0f, -up * 2.0f), DT, &st));
                ledge_world_step(w, DT);
                vec2s at = ledge_body_position(w, c);
                assert_true(st.on_floor);
                assert_true(fabsf(at.x - before.x - dir * 5.0f * DT) < 1.0e-3f);
                float x = at.x, lo = x - 0.3f, hi = x + 0.3f;
                // The surface's highest point under the box's foot.
                float ground = 0.0f;
                for (int s2 = 0; s2 < 5; ++s2) {
                    vec2s a = p[s2 + 1], e = p[s2]; // left to right
                    float l = fmaxf(lo, a.x), r = fminf(hi, e.x);
                    if (l > r) continue;
                    float ya = a.y + (e.y - a.y) * (l - a.x) / (e.x - a.x);
                    float yb = a.y + (e.y - a.y) * (r - a.x) / (e.x - a.x);
                    ground = fmaxf(ground, fmaxf(ya, yb));
                }
                float height = up * (at.y - b) - 0.45f - ground;
                if (height < -SLOP - 1.0e-3f || height > 0.011f)
                    fail_msg("y %s, dir %d: at x %g the foot is %g above the hill",
                             down ? "down" : "up", dir, (double)x, (double)height);
                if (dir > 0 ? x > 34.0f : x < 10.0f) break;
            }
            assert_true(frames < 400);
            ledge_body_destroy(w, c);
        }
        ledge_world_destroy(w);
    }
}

// Steep chain faces block a walk; a ledge of a chain is stepped up with
// step_height; off the ground, slide_on_steep slides down a steep face.
static void test_character_steep_and_step(void **state) {
    (void)state;
    ledge_world *w = empty_world(-10.0f);
    // y up, right to left: a floor, a 70 degree rise of 2 m at x = 20, a
    // 0.4 m step at x = 10 (a vertical face).
    vec2s p[] = {{{30, 12}}, {{20.728f, 12}}, {{20, 10}}, {{10, 10}}, {{10, 9.6f}}, {{2, 9.6f}}};
    make_chain(w, p, 6, false);
    ledge_body_id c = make_character(w, v(16.0f, 10.45f));
    for (int k = 0; k < 60; ++k) {
        ledge_character_state st;
        ledge_character_move(w, c, v(5.0f, -2.0f), DT, &st);
        ledge_world_step(w, DT);
    }
    vec2s at = ledge_body_position(w, c);
    assert_true(at.x < 20.0f && at.x > 19.5f); // blocked by the steep face
    assert_true(fabsf(at.y - 10.45f) < 0.011f);
    ledge_character_state st;
    assert_true(ledge_character_get_state(w, c, &st));
    assert_true(st.on_wall && st.on_floor);
    // Down the step and back up it: without step_height the 0.4 m face
    // blocks; with it the character walks up.
    ledge_body_set_position(w, c, v(6.0f, 10.05f));
    for (int k = 0; k < 40; ++k) {
        ledge_character_move(w, c, v(5.0f, -2.0f), DT, &st);
        ledge_world_step(w, DT);
    }
    at = ledge_body_position(w, c);
    assert_true(at.x < 10.0f && fabsf(at.y - 10.05f) < 0.011f);
    ledge_character_def cd = ledge_default_character_def();
    cd.move.step_height = 0.55f;
    ledge_character_set_def(w, c, &cd);
    for (int k = 0; k < 40; ++k) {
        ledge_character_move(w, c, v(5.0f, -2.0f), DT, &st);
        ledge_world_step(w, DT);
    }
    at = ledge_body_position(w, c);
    assert_true(at.x > 11.0f && fabsf(at.y - 10.45f) < 0.011f);
    // Dropped onto the steep face with slide_on_steep: it slides down it.
    cd.move.slide_on_steep = true;
    ledge_character_set_def(w, c, &cd);
    ledge_body_set_position(w, c, v(20.2f, 11.6f));
    vec2s vel = v(0, 0);
    float first_x = 0.0f;
    for (int k = 0; k < 30; ++k) {
        vel.y -= 20.0f * DT;
        ledge_character_move(w, c, vel, DT, &st);
        vel = st.velocity;
        ledge_world_step(w, DT);
        if (k == 0) first_x = ledge_body_position(w, c).x;
    }
    at = ledge_body_position(w, c);
    assert_true(at.x < first_x - 0.1f); // pushed off along the face, down and back
    ledge_world_destroy(w);
}

// --- kinematic chains -----------------------------------------------------------------

// A kinematic chain moving sideways and then up carries a crate resting
// on it (friction 0: the carry, not friction, moves it) and a character
// standing on it, at its speed.
static void test_kinematic_carry(void **state) {
    (void)state;
    ledge_world *w = empty_world(-10.0f);
    vec2s p[] = {{{7, 0.5f}}, {{6, 0}}, {{0, 0}}};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = p;
    cd.count = 3;
    cd.type = LEDGE_BODY_KINEMATIC;
    cd.position = v(20, 10);
    ledge_chain_id ch = ledge_chain_create(w, &cd);
    assert_true(ledge_chain_is_valid(w, ch));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
    bd.position = v(21.0f, 10.3f - SLOP);
    ledge_body_id crate = ledge_body_create(w, &bd);
    ledge_body_id c = make_character(w, v(24.0f, 10.0f + 0.45f));
    for (int k = 0; k < 30; ++k) { // settle
        ledge_character_state st;
        ledge_character_move(w, c, v(0, -2.0f), DT, &st);
        ledge_world_step(w, DT);
    }
    vec2s crate0 = ledge_body_position(w, crate), char0 = ledge_body_position(w, c);
    ledge_chain_set_velocity(w, ch, v(2.0f, 0.0f));
    for (int k = 0; k < 60; ++k) {
        ledge_character_state st;
        ledge_character_move(w, c, v(0, -2.0f), DT, &st);
        ledge_world_step(w, DT);
        if (k == 30) ledge_chain_set_velocity(w, ch, v(0.0f, 1.5f));
    }
    vec2s chain_moved = sub(ledge_chain_position(w, ch), v(20, 10));
    vec2s crate_moved = sub(ledge_body_position(w, crate), crate0);
    vec2s char_moved = sub(ledge_body_position(w, c), char0);
    printf("chain moved (%g, %g), crate (%g, %g), character (%g, %g)\n", (double)chain_moved.x,
           (double)chain_moved.y, (double)crate_moved.x, (double)crate_moved.y,
           (double)char_moved.x, (double)char_moved.y);
    assert_true(fabsf(chain_moved.x - 2.0f * 31.0f * DT) < 1.0e-3f);
    assert_true(fabsf(crate_moved.x - chain_moved.x) < 0.02f);
    assert_true(fabsf(crate_moved.y - chain_moved.y) < 0.02f);
    assert_true(fabsf(char_moved.x - chain_moved.x) < 0.02f);
    assert_true(fabsf(char_moved.y - chain_moved.y) < 0.02f);
    ledge_ground g = ledge_body_ground(w, crate);
    assert_true(g.on_ground && g.ground_chain.index1 == ch.index1);
    ledge_character_state st;
    ledge_character_get_state(w, c, &st);
    assert_true(st.on_floor && st.floor_chain.index1 == ch.index1);
    assert_true(fabsf(st.platform_velocity.y - 1.5f) < 1.0e-6f);
    ledge_world_destroy(w);
}

static bool count_chain(ledge_chain_id chain, int segment, void *context) {
    (void)chain;
    (void)segment;
    (void)context;
    return true;
}

// --- queries against brute force ------------------------------------------------------

static uint32_t rng_state = 12345u;
static float frand(float lo, float hi) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng_state >> 8) / 16777216.0f;
}

// A world with a random open zigzag (60 points), a closed counter-clockwise
// rock, a clockwise room and a kinematic chain placed away from its points.
typedef struct query_world {
    ledge_world *w;
    ledge_chain_id ids[4];
} query_world;

static query_world make_query_world(void) {
    query_world q;
    q.w = empty_world(-10.0f);
    vec2s zig[60];
    for (int k = 0; k < 60; ++k) zig[k] = v(60.0f - (float)k, 20.0f + frand(-3.0f, 3.0f));
    q.ids[0] = make_chain(q.w, zig, 60, false);
    vec2s rock[12];
    for (int k = 0; k < 12; ++k) {
        float a = (float)(2.0 * PI * k / 12), r = frand(3.0f, 5.0f);
        rock[k] = v(30.0f + r * cosf(a), 40.0f + r * sinf(a));
    }
    q.ids[1] = make_chain(q.w, rock, 12, true);
    vec2s room[] = {{{10, 50}}, {{10, 60}}, {{20, 60}}, {{20, 50}}};
    q.ids[2] = make_chain(q.w, room, 4, true);
    vec2s plat[] = {{{4, 0}}, {{2, 1}}, {{0, 0}}};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = plat;
    cd.count = 3;
    cd.type = LEDGE_BODY_KINEMATIC;
    cd.position = v(40, 8);
    q.ids[3] = ledge_chain_create(q.w, &cd);
    return q;
}

// The ray's first front hit on one segment (double), or INFINITY.
static double brute_ray(vec2s a, vec2s b, vec2s n, vec2s o, vec2s d) {
    double above = (double)n.x * (o.x - a.x) + (double)n.y * (o.y - a.y);
    double into = -((double)n.x * d.x + (double)n.y * d.y);
    if (above < 0.0 || !(into > 0.0) || above > into) return INFINITY;
    double t = above / into, px = o.x + t * d.x, py = o.y + t * d.y;
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y, l2 = ex * ex + ey * ey;
    double u = ((px - a.x) * ex + (py - a.y) * ey) / l2;
    return u >= -1e-5 && u <= 1.0 + 1e-5 ? t : INFINITY;
}

static double point_segment(vec2s p, vec2s a, vec2s b) {
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y, l2 = ex * ex + ey * ey;
    double u = ((p.x - (double)a.x) * ex + (p.y - (double)a.y) * ey) / l2;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    double dx = p.x - (a.x + u * ex), dy = p.y - (a.y + u * ey);
    return sqrt(dx * dx + dy * dy);
}

// Whether segment ab meets box b grown by `grow` on every side (closed;
// Liang and Barsky's clipping in double).
static bool segment_meets_box(vec2s a, vec2s b, ledge_aabb box, double grow) {
    double t0 = 0.0, t1 = 1.0;
    double p0[2] = {a.x, a.y}, d[2] = {(double)b.x - a.x, (double)b.y - a.y};
    double lo[2] = {box.lower.x - grow, box.lower.y - grow};
    double hi[2] = {box.upper.x + grow, box.upper.y + grow};
    for (int k = 0; k < 2; ++k) {
        if (d[k] == 0.0) {
            if (p0[k] < lo[k] || p0[k] > hi[k]) return false;
            continue;
        }
        double ta = (lo[k] - p0[k]) / d[k], tb = (hi[k] - p0[k]) / d[k];
        if (ta > tb) {
            double t = ta;
            ta = tb;
            tb = t;
        }
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
        if (t0 > t1) return false;
    }
    return true;
}

static void test_query_brute_force(void **state) {
    (void)state;
    query_world q = make_query_world();
    ledge_world *w = q.w;
    ledge_query_filter f = ledge_default_query_filter();
    f.include_tiles = false;
    int rays = 0, hits = 0, near = 0, boxes = 0, points = 0;
    uint32_t errors = ledge_error_count();
    for (int it = 0; it < 3000; ++it) {
        // A chain is one-sided under every one_way rule (which concerns
        // one-way tiles and bodies): each rule in turn, the same answers.
        f.one_way = (ledge_query_one_way)(it % 3);
        vec2s o = v(frand(2, 62), frand(2, 62));
        vec2s d = v(frand(-20, 20), frand(-20, 20));
        // Brute force over every segment of every chain.
        double best = INFINITY;
        for (int c = 0; c < 4; ++c) {
            for (int k = 0; k < ledge_chain_segment_count(w, q.ids[c]); ++k) {
                vec2s a, b, n;
                ledge_chain_segment(w, q.ids[c], k, &a, &b, &n);
                best = fmin(best, brute_ray(a, b, n, o, d));
            }
        }
        ledge_raycast_result r;
        bool hit = ledge_world_raycast(w, o, d, &f, &r);
        ++rays;
        if (best < INFINITY) {
            ++hits;
            assert_true(hit && r.kind == LEDGE_HIT_CHAIN);
            if (fabs(r.fraction - best) > 1e-4)
                fail_msg("ray %d: fraction %g, brute force %g", it, (double)r.fraction, best);
            vec2s a, b, n;
            ledge_chain_segment(w, r.chain, r.segment, &a, &b, &n);
            assert_true(fabs(brute_ray(a, b, n, o, d) - best) < 1e-4);
        } else {
            assert_false(hit);
        }
        // Nearest point: the closest segment it lies in front of.
        vec2s pt = v(frand(2, 62), frand(2, 62));
        double nd = INFINITY;
        for (int c = 0; c < 4; ++c) {
            for (int k = 0; k < ledge_chain_segment_count(w, q.ids[c]); ++k) {
                vec2s a, b, n;
                ledge_chain_segment(w, q.ids[c], k, &a, &b, &n);
                if (n.x * (pt.x - a.x) + n.y * (pt.y - a.y) < 0.0f) continue;
                nd = fmin(nd, point_segment(pt, a, b));
            }
        }
        ledge_nearest_result nr;
        bool found = ledge_world_nearest_point(w, pt, 6.0f, &f, &nr);
        if (nd <= 6.0) {
            ++near;
            assert_true(found && nr.kind == LEDGE_HIT_CHAIN);
            if (fabs(nr.distance.distance - nd) > 1e-4)
                fail_msg("nearest %d: %g, brute force %g", it, (double)nr.distance.distance, nd);
        } else {
            assert_false(found);
        }
        // Boxes: every segment that meets the box, clipped exactly (double):
        // those that meet it shrunk by 1e-5 must be found, those that miss
        // it grown by 1e-5 must not.
        ledge_aabb box = {v(frand(0, 60), frand(0, 60)), v(0, 0)};
        box.upper = v(box.lower.x + frand(0, 8), box.lower.y + frand(0, 8));
        int must = 0, may = 0;
        for (int c = 0; c < 4; ++c) {
            for (int k = 0; k < ledge_chain_segment_count(w, q.ids[c]); ++k) {
                vec2s a, b;
                ledge_chain_segment(w, q.ids[c], k, &a, &b, NULL);
                must += segment_meets_box(a, b, box, -1e-5);
                may += segment_meets_box(a, b, box, 1e-5);
            }
        }
        int got = ledge_world_query_chains_aabb(w, box, &f, count_chain, NULL);
        if (got < must || got > may)
            fail_msg("box %d: %d segments found, the clipping says %d to %d", it, got, must, may);
        boxes += got;
        // Points: in the rock, or outside the room.
        int inside = ledge_world_query_chains_point(w, pt, &f, count_chain, NULL);
        bool in_room = !(pt.x > 10 && pt.x < 20 && pt.y > 50 && pt.y < 60);
        bool in_rock = false;
        vec2s rock[12];
        ledge_chain_points(w, q.ids[1], rock, 12);
        for (int k = 0, j = 11; k < 12; j = k++) {
            if ((rock[k].y > pt.y) != (rock[j].y > pt.y) &&
                pt.x < rock[j].x +
                           (rock[k].x - rock[j].x) * (pt.y - rock[j].y) / (rock[k].y - rock[j].y))
                in_rock = !in_rock;
        }
        assert_int_equal(inside, (int)in_room + (int)in_rock);
        points += inside;
        // The forms without a callback (ffi.h) deliver the same, in order.
        ledge_chain_id ids[64], held[4];
        int segs[64];
        assert_int_equal(ledge_world_query_chains_aabb_ids(w, &box, &f, NULL, NULL, 0), got);
        int m = ledge_world_query_chains_aabb_ids(w, &box, &f, ids, segs, 64);
        assert_int_equal(m, got);
        for (int k = 1; k < m && k < 64; ++k)
            assert_true(ids[k].index1 > ids[k - 1].index1 ||
                        (ids[k].index1 == ids[k - 1].index1 && segs[k] > segs[k - 1]));
        assert_int_equal(ledge_world_query_chains_point_ids(w, &pt, &f, held, 4), inside);
    }
    printf("queries: %d rays (%d hits), %d nearest, %d box finds, %d points held\n", rays, hits,
           near, boxes, points);
    assert_true(ledge_error_count() == errors); // no query logged anything
    log_capture_start();
    ledge_aabb box = {v(0, 0), v(1, 1)};
    assert_int_equal(ledge_world_query_chains_aabb_ids(w, &box, NULL, NULL, NULL, 3), -1);
    assert_true(log_capture_says("ledge_world_query_chains_aabb_ids", "capacity is 3"));
    ledge_chain_id one[1];
    assert_int_equal(ledge_world_query_chains_aabb_ids(w, &box, NULL, one, NULL, 1), -1);
    assert_true(log_capture_says("ledge_world_query_chains_aabb_ids", "segments is NULL"));
    assert_int_equal(ledge_world_query_chains_point_ids(w, NULL, NULL, NULL, 0), -1);
    assert_true(log_capture_says("ledge_world_query_chains_point_ids", "point is NULL"));
    f.one_way = (ledge_query_one_way)3; // refused as by every query
    assert_int_equal(ledge_world_query_chains_aabb(w, box, &f, count_chain, NULL), -1);
    assert_true(log_capture_says("ledge_world_query_chains_aabb", "one_way is 3"));
    assert_int_equal(ledge_world_query_chains_point(w, v(1, 1), &f, count_chain, NULL), -1);
    assert_true(log_capture_says("ledge_world_query_chains_point", "one_way is 3"));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// Whether a shape at pos meets segment ab from the front of its line
// (centre in front, and a point of the shape on the segment or the
// segment's end inside it): the brute force of a cast.
static bool brute_meets(const ledge_shape *sh, vec2s pos, vec2s a, vec2s b, vec2s n) {
    vec2s c = add(pos, sh->center);
    if (dot(n, sub(c, a)) < 0.0f) return false;
    if (sh->type == LEDGE_SHAPE_CIRCLE) return point_segment(c, a, b) < sh->radius;
    // A polygon: an end inside it, or an edge crossing the segment.
    for (int e = 0; e < 2; ++e) {
        vec2s p = e ? b : a;
        bool inside = true;
        for (int i = 0; i < sh->count && inside; ++i)
            inside = dot(sh->normals[i], sub(p, add(pos, sh->vertices[i]))) < 0.0f;
        if (inside) return true;
    }
    for (int i = 0; i < sh->count; ++i) {
        vec2s p = add(pos, sh->vertices[i]), q2 = add(pos, sh->vertices[(i + 1) % sh->count]);
        float d1 = cross(sub(b, a), sub(p, a)), d2 = cross(sub(b, a), sub(q2, a));
        float d3 = cross(sub(q2, p), sub(a, p)), d4 = cross(sub(q2, p), sub(b, p));
        if (((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0))) return true;
    }
    return false;
}

static void test_shape_cast_brute_force(void **state) {
    (void)state;
    query_world q = make_query_world();
    ledge_world *w = q.w;
    ledge_query_filter f = ledge_default_query_filter();
    f.include_tiles = false;
    int casts = 0, hits = 0;
    // Every segment once (a, b, n), in chain and segment order.
    enum { MAX_SEGMENTS = 128 };
    vec2s sa[MAX_SEGMENTS], sb[MAX_SEGMENTS], sn[MAX_SEGMENTS];
    int segments = 0;
    for (int c = 0; c < 4; ++c) {
        for (int k = 0; k < ledge_chain_segment_count(w, q.ids[c]); ++k) {
            assert_true(segments < MAX_SEGMENTS);
            ledge_chain_segment(w, q.ids[c], k, &sa[segments], &sb[segments], &sn[segments]);
            ++segments;
        }
    }
    for (int it = 0; it < 400; ++it) {
        ledge_shape sh = (it & 1) ? ledge_make_box(v(0, 0), v(frand(0.1f, 0.6f), frand(0.1f, 0.6f)))
                                  : ledge_make_circle(v(0, 0), frand(0.1f, 0.6f));
        vec2s o = v(frand(5, 60), frand(10, 30)), d = v(frand(-6, 6), frand(-6, 6));
        const int N = 2000;
        int first = -1;
        // Only the segments near the path can be met (the shapes reach less
        // than 1 from their centres): the others are left out, exactly.
        ledge_aabb path = {v(fminf(o.x, o.x + d.x) - 1.0f, fminf(o.y, o.y + d.y) - 1.0f),
                           v(fmaxf(o.x, o.x + d.x) + 1.0f, fmaxf(o.y, o.y + d.y) + 1.0f)};
        int near[MAX_SEGMENTS], near_count = 0;
        for (int k = 0; k < segments; ++k)
            if (segment_meets_box(sa[k], sb[k], path, 0.0)) near[near_count++] = k;
        for (int j = 0; j <= N && first < 0; ++j) {
            vec2s p = add(o, scale(d, (float)j / N));
            for (int m = 0; m < near_count && first < 0; ++m) {
                int k = near[m];
                if (brute_meets(&sh, p, sa[k], sb[k], sn[k])) first = j;
            }
        }
        ledge_raycast_result r;
        bool hit = ledge_world_shape_cast(w, &sh, o, d, &f, &r);
        ++casts;
        if (first < 0) {
            // Nothing met at the samples: a hit can only be a graze
            // between two of them.
            if (hit) assert_true(r.fraction > 0.0f);
            continue;
        }
        ++hits;
        if (!hit || r.kind != LEDGE_HIT_CHAIN)
            fail_msg("cast %d (%s at (%g, %g) by (%g, %g)): no chain hit, brute force at %g", it,
                     sh.type == LEDGE_SHAPE_CIRCLE ? "circle" : "box", (double)o.x, (double)o.y,
                     (double)d.x, (double)d.y, (double)first / N);
        float lo = first == 0 ? 0.0f : (float)(first - 1) / N, hi = (float)first / N;
        if (r.fraction < lo - 1e-4f || r.fraction > hi + 1e-4f)
            fail_msg("cast %d (%s %g x %g at (%g, %g) by (%g, %g)): fraction %g on chain %u "
                     "segment %d normal (%g, %g), brute force in [%g, %g]",
                     it, sh.type == LEDGE_SHAPE_CIRCLE ? "circle" : "box",
                     (double)sh.bounds.upper.x, (double)sh.bounds.upper.y, (double)o.x, (double)o.y,
                     (double)d.x, (double)d.y, (double)r.fraction, r.chain.index1, r.segment,
                     (double)r.normal.x, (double)r.normal.y, (double)lo, (double)hi);
    }
    printf("shape casts: %d (%d hits)\n", casts, hits);
    ledge_world_destroy(w);
}

// --- the world around chains ------------------------------------------------------------

// A scene with chains for the determinism and snapshot tests: a static
// hill with a loop rock on it, a kinematic platform swinging, balls and
// crates rolling, a character walking.
typedef struct scene {
    ledge_world *w;
    ledge_chain_id platform;
    ledge_body_id hero;
    int frame;
} scene;

static scene make_scene(int workers) {
    scene sc;
    ledge_world_def wd = ledge_default_world_def();
    wd.worker_count = workers;
    sc.w = ledge_world_create(&wd);
    assert_non_null(sc.w);
    vec2s hill[] = {{{62, 6}}, {{50, 6}}, {{44, 10}}, {{38, 10}}, {{30, 4}}, {{12, 4}}, {{2, 12}}};
    make_chain(sc.w, hill, 7, false);
    vec2s rock[8];
    for (int k = 0; k < 8; ++k) {
        float a = (float)(2.0 * PI * k / 8);
        rock[k] = v(20.0f + 2.0f * cosf(a), 6.5f + 2.0f * sinf(a));
    }
    make_chain(sc.w, rock, 8, true);
    vec2s plat[] = {{{3, 0}}, {{0, 0}}};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = plat;
    cd.count = 2;
    cd.type = LEDGE_BODY_KINEMATIC;
    cd.position = v(50, 14);
    sc.platform = ledge_chain_create(sc.w, &cd);
    for (int k = 0; k < 40; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = (k % 3) ? ledge_make_circle(v(0, 0), 0.25f + 0.02f * (float)(k % 5))
                           : ledge_make_box(v(0, 0), v(0.3f, 0.25f));
        bd.position = v(6.0f + 1.3f * (float)k, 16.0f + 0.7f * (float)(k % 4));
        bd.friction = 0.1f * (float)(k % 4);
        bd.bounce = 0.2f * (float)(k % 3);
        bd.enable_events = (k % 7) == 0;
        ledge_body_create(sc.w, &bd);
    }
    sc.hero = make_character(sc.w, v(14.0f, 4.46f));
    sc.frame = 0;
    return sc;
}

static void scene_step(scene *sc) {
    float t = (float)sc->frame * DT;
    ledge_chain_set_velocity(sc->w, sc->platform, v(3.0f * cosf(t), 1.0f * sinf(2.0f * t)));
    ledge_character_state st;
    ledge_character_get_state(sc->w, sc->hero, &st);
    vec2s vel = st.velocity;
    vel.x = ((sc->frame / 150) & 1) ? -4.0f : 4.0f;
    vel.y -= 20.0f * DT;
    ledge_character_move(sc->w, sc->hero, vel, DT, &st);
    ledge_world_step(sc->w, DT);
    sc->frame++;
}

static void test_workers_same_bits(void **state) {
    (void)state;
    scene a = make_scene(1), b = make_scene(2), c = make_scene(4);
    for (int k = 0; k < 600; ++k) {
        scene_step(&a);
        scene_step(&b);
        scene_step(&c);
        uint64_t h = ledge_world_hash(a.w);
        if (h != ledge_world_hash(b.w) || h != ledge_world_hash(c.w))
            fail_msg("step %d: the hashes of 1, 2 and 4 workers differ", k);
    }
    ledge_world_destroy(a.w);
    ledge_world_destroy(b.w);
    ledge_world_destroy(c.w);
}

static void test_snapshot(void **state) {
    (void)state;
    scene sc = make_scene(1);
    for (int k = 0; k < 90; ++k) scene_step(&sc);
    size_t cap = ledge_world_snapshot_size(sc.w);
    void *snap = malloc(cap);
    size_t n = ledge_world_save(sc.w, snap, cap);
    assert_true(n > 0);
    uint64_t hashes[120];
    scene ahead = sc;
    for (int k = 0; k < 120; ++k) {
        scene_step(&ahead);
        hashes[k] = ledge_world_hash(ahead.w);
    }
    // Chains made and destroyed after the save are undone by the restore.
    vec2s extra[] = {{{9, 30}}, {{4, 30}}};
    ledge_chain_id made = make_chain(sc.w, extra, 2, false);
    ledge_chain_destroy(sc.w, sc.platform);
    assert_true(ledge_world_restore(sc.w, snap, n));
    assert_false(ledge_chain_is_valid(sc.w, made));
    assert_true(ledge_chain_is_valid(sc.w, sc.platform));
    scene back = ahead;
    back.frame = 90;
    for (int k = 0; k < 120; ++k) {
        scene_step(&back);
        if (ledge_world_hash(back.w) != hashes[k]) fail_msg("step %d after the restore differs", k);
    }
    // Into a fresh world made from the same def, without its chains: the
    // snapshot brings them.
    scene fresh;
    ledge_world_def wd = ledge_default_world_def();
    fresh.w = ledge_world_create(&wd);
    assert_true(ledge_world_restore(fresh.w, snap, n));
    fresh.platform = sc.platform;
    fresh.platform.world = 0;
    fresh.hero = sc.hero;
    ledge_chain_id pid = {sc.platform.index1, sc.platform.generation, 0};
    (void)pid;
    assert_int_equal(ledge_world_chain_count(fresh.w), 3);
    ledge_world_destroy(fresh.w);
    // A corrupted chain section is refused, the world unchanged.
    uint64_t before = ledge_world_hash(sc.w);
    log_capture_start();
    unsigned char *bytes = snap;
    int refused = 0;
    for (size_t at = 100; at < n; at += n / 50) {
        unsigned char keep = bytes[at];
        bytes[at] ^= 0x5a;
        refused += !ledge_world_restore(sc.w, snap, n);
        bytes[at] = keep;
    }
    ledge_set_log_hook(NULL, NULL);
    assert_true(refused > 0);
    assert_true(ledge_world_hash(sc.w) == before);
    free(snap);
    ledge_world_destroy(sc.w);
}

// Touch events and contacts name the chain; destroying it wakes and drops
// what rested on it.
static void test_events_and_destroy(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.enable_sleep = true;
    ledge_world *w = ledge_world_create(&wd);
    vec2s p[] = {{{20, 5}}, {{10, 5}}};
    ledge_chain_id ch = make_chain(w, p, 2, false);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.4f, 0.4f));
    bd.position = v(15, 7);
    bd.enable_events = true;
    bd.friction = 0.5f;
    ledge_body_id b = ledge_body_create(w, &bd);
    bool began = false;
    for (int k = 0; k < 120; ++k) {
        ledge_world_step(w, DT);
        ledge_touch_events te = ledge_world_touch_events(w);
        for (int j = 0; j < te.begin_count; ++j) {
            if (te.begin[j].chain.index1 == ch.index1 && te.begin[j].a.index1 == b.index1) {
                assert_int_equal(te.begin[j].b.index1, 0);
                began = true;
            }
        }
    }
    assert_true(began);
    ledge_contact_data cd[4];
    assert_int_equal(ledge_body_contacts(w, b, cd, 4), 1);
    assert_true(cd[0].chain.index1 == ch.index1 && cd[0].segment == 0);
    assert_true(cd[0].other.index1 == 0 && cd[0].normal.y > 0.99f);
    ledge_ground g = ledge_body_ground(w, b);
    assert_true(g.on_ground && g.ground_chain.index1 == ch.index1 && g.ground_body.index1 == 0);
    for (int k = 0; k < 60; ++k) ledge_world_step(w, DT);
    assert_false(ledge_body_is_awake(w, b)); // asleep on the chain
    ledge_chain_destroy(w, ch);
    assert_true(ledge_body_is_awake(w, b));
    assert_int_equal(ledge_body_contacts(w, b, cd, 4), 0);
    float y = ledge_body_position(w, b).y;
    bool ended = false;
    for (int k = 0; k < 30; ++k) {
        ledge_world_step(w, DT);
        ledge_touch_events te = ledge_world_touch_events(w);
        for (int j = 0; j < te.end_count; ++j) ended |= te.end[j].chain.index1 == ch.index1;
    }
    assert_true(ended);
    assert_true(ledge_body_position(w, b).y < y - 1.0f); // it fell
    ledge_world_destroy(w);
}

// A circle rolled around a convex loop (a rock) under gravity toward its
// centre never bumps: its height above the rock's faces stays within the
// slop (an exact circle follows each vertex's arc).
static void test_loop_island(void **state) {
    (void)state;
    ledge_world *w = empty_world(0.0f);
    vec2s rock[16];
    for (int k = 0; k < 16; ++k) {
        float a = (float)(2.0 * PI * k / 16);
        rock[k] = v(32.0f + 5.0f * cosf(a), 32.0f + 5.0f * sinf(a));
    }
    make_chain(w, rock, 16, true);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.5f);
    bd.gravity_scale = 0.0f;
    float apothem = 5.0f * cosf((float)(PI / 16));
    bd.position = v(32.0f + apothem + 0.5f - SLOP, 32.0f);
    ledge_body_id b = ledge_body_create(w, &bd);
    ledge_body_set_velocity(w, b, v(0, 3.0f));
    float worst = 0.0f, travelled = 0.0f;
    for (int k = 0; k < 600; ++k) {
        // A pull toward the centre, as gravity would hold it on a planet.
        vec2s p = ledge_body_position(w, b), vel = ledge_body_velocity(w, b);
        vec2s in = scale(sub(v(32, 32), p), 1.0f / len2(sub(v(32, 32), p)));
        ledge_body_set_velocity(w, b, add(vel, scale(in, 10.0f * DT)));
        ledge_world_step(w, DT);
        vec2s q = ledge_body_position(w, b);
        travelled += len2(sub(q, p));
        // Distance from the centre to the polygon, less the radius.
        float r = sqrtf(dot(sub(q, v(32, 32)), sub(q, v(32, 32))));
        float phi = atan2f(q.y - 32.0f, q.x - 32.0f), sector = (float)(2.0 * PI / 16);
        float rel = fmodf(phi + 4.0f * (float)PI, sector) - 0.5f * sector;
        float face = apothem / cosf(rel); // the polygon's radius in that direction
        float above = r - face - 0.5f;
        // Over a vertex the exact height is the arc's: allow what the arc
        // rises above the faces there, nothing more.
        float arc = 5.0f + 0.5f - face - 0.5f;
        if (above > fmaxf(0.0f, arc) + SLOP) worst = fmaxf(worst, above - fmaxf(0.0f, arc));
    }
    printf("loop island: travelled %g m, worst bump %g\n", (double)travelled, (double)worst);
    assert_true(worst < 1e-3f);
    assert_true(travelled > 5.0f);
    ledge_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_vertex_matrix),
        cmocka_unit_test(test_nothing_through),
        cmocka_unit_test(test_junction_slide),
        cmocka_unit_test(test_junction_walk),
        cmocka_unit_test(test_ramp_junction),
        cmocka_unit_test(test_character_hill),
        cmocka_unit_test(test_character_steep_and_step),
        cmocka_unit_test(test_kinematic_carry),
        cmocka_unit_test(test_query_brute_force),
        cmocka_unit_test(test_shape_cast_brute_force),
        cmocka_unit_test(test_workers_same_bits),
        cmocka_unit_test(test_snapshot),
        cmocka_unit_test(test_events_and_destroy),
        cmocka_unit_test(test_loop_island),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
