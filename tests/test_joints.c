// Joints (joint.h) against their closed forms: the pendulum's period and
// energy, a rod's and a rope's free rotation, a spring's frequency and
// decay, a weld, a slider and its limits and motor, a pulley's Atwood
// machine; each under mass ratios 1:1000 to 1000:1 both ways and gravity
// in the four directions (y up and y down among them). Then chains of 1 to
// 50 links and bridges of 5 to 30 planks, with and without loads, at rest
// after 10 s; the force a joint reports; every refusal with its message;
// bodies kept apart, destroyed together, asleep together; a character
// hanging from a rope; and the same bits through a snapshot and on two
// workers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT    (1.0f / 60.0f)
#define G     10.0
#define TWOPI 6.283185307179586

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
static double dot(vec2s a, vec2s b) {
    return (double)a.x * b.x + (double)a.y * b.y;
}
static double len(vec2s a) {
    return sqrt(dot(a, a));
}

// --- a frame per gravity ------------------------------------------------------
//
// Every scene is built in a frame whose "up" is against gravity: direction
// 0 is y up (gravity (0, -10)), 1 y down (gravity (0, +10): a y-down game),
// 2 and 3 gravity along -x and +x. Coordinates (x, y) of the frame are
// origin + x right + y up.

typedef struct frame {
    vec2s origin, up, right;
} frame;

static const vec2s UPS[4] = {{{0, 1}}, {{0, -1}}, {{1, 0}}, {{-1, 0}}};
static const char *const DIRS[4] = {"y up", "y down", "gravity -x", "gravity +x"};

static vec2s at(const frame *f, float x, float y) {
    return add(f->origin, add(scale(f->right, x), scale(f->up, y)));
}
static double fx(const frame *f, vec2s p) {
    return dot(sub(p, f->origin), f->right);
}
static double fy(const frame *f, vec2s p) {
    return dot(sub(p, f->origin), f->up);
}

// A 64 x 64 world (cells of 1) with gravity against direction dir's up.
static ledge_world *world_in(int dir, frame *f) {
    ledge_world_def wd = ledge_default_world_def();
    f->up = UPS[dir];
    f->right = v(f->up.y, -f->up.x);
    f->origin = v(32.0f, 32.0f);
    wd.gravity = scale(f->up, -(float)G);
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    return w;
}

// A floor of FULL cells below frame height `y` (every cell whose centre is).
static void floor_below(ledge_world *w, const frame *f, float y) {
    ledge_tilemap *m = ledge_world_tilemap(w);
    for (int cy = 0; cy < 64; ++cy) {
        for (int cx = 0; cx < 64; ++cx) {
            if (fy(f, v((float)cx + 0.5f, (float)cy + 0.5f)) < y)
                ledge_tilemap_set(m, cx, cy, LEDGE_TILE_FULL);
        }
    }
}

// A dynamic body of the given shape and mass.
static ledge_body_id body(ledge_world *w, vec2s p, ledge_shape shape, double mass) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = shape;
    bd.position = p;
    bd.density = (float)(mass / ledge_shape_area(&shape));
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_true(ledge_body_is_valid(w, id));
    return id;
}

// A box of half extents hx along the frame's right and hy along its up.
static ledge_shape box_in(const frame *f, float hx, float hy) {
    return ledge_make_box(v(0, 0), v(fabsf(f->right.x) * hx + fabsf(f->up.x) * hy,
                                     fabsf(f->right.y) * hx + fabsf(f->up.y) * hy));
}

static ledge_body_id ball(ledge_world *w, vec2s p, double mass) {
    return body(w, p, ledge_make_circle(v(0, 0), 0.1f), mass);
}

static ledge_joint_id joint(ledge_world *w, const ledge_joint_def *def) {
    ledge_joint_id id = ledge_joint_create(w, def);
    assert_true(ledge_joint_is_valid(w, id));
    return id;
}

static double speed(ledge_world *w, ledge_body_id b) {
    return len(ledge_body_velocity(w, b));
}

static const double RATIOS[] = {1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0, 1e3};
#define RATIO_COUNT ((int)(sizeof RATIOS / sizeof RATIOS[0]))

// --- the pendulum -------------------------------------------------------------

// A pendulum of length L released at angle th (a rod or a rope from a fixed
// point): its period from the zero crossings of the bob's sideways offset,
// the height its energy reaches (kinetic / g + height above the lowest
// point) at the first and last step, the worst stretch (a rod's off its
// length either way).
typedef struct swing {
    double period, first_height, last_height, swings, stretch;
} swing;

static swing pendulum(int dir, ledge_joint_type type, double L, double th, double mass,
                      double seconds) {
    frame f;
    ledge_world *w = world_in(dir, &f);
    vec2s pivot = at(&f, 0, 10);
    ledge_body_id b = ball(w, at(&f, (float)(L * sin(th)), (float)(10.0 - L * cos(th))), mass);
    ledge_joint_def jd =
        type == LEDGE_JOINT_ROPE ? ledge_default_rope_def() : ledge_default_rod_def();
    jd.anchor_a = pivot;
    jd.body_b = b;
    jd.length = (float)L;
    joint(w, &jd);
    swing s = {0, -1, 0, 0, 0};
    double prev = fx(&f, ledge_body_position(w, b)), first = -1, last = -1;
    int cross = 0, steps = (int)(seconds / DT);
    for (int k = 0; k < steps; ++k) {
        ledge_world_step(w, DT);
        vec2s p = ledge_body_position(w, b), u = ledge_body_velocity(w, b);
        double x = fx(&f, p), e = dot(u, u) / (2 * G) + fy(&f, p) - (10.0 - L);
        double off = len(sub(p, pivot)) - L; // a rod's either way, a rope's longer
        s.stretch = fmax(s.stretch, type == LEDGE_JOINT_ROD ? fabs(off) : off);
        if (s.first_height < 0) s.first_height = e;
        s.last_height = e;
        if ((prev < 0 && x >= 0) || (prev > 0 && x <= 0)) {
            double t = (k + prev / (prev - x)) * DT;
            if (first < 0) first = t;
            last = t;
            cross++;
        }
        prev = x;
    }
    s.period = 2 * (last - first) / (cross - 1);
    s.swings = seconds / s.period;
    ledge_world_destroy(w);
    return s;
}

// The period of a pendulum of amplitude th, from the complete elliptic
// integral by the arithmetic-geometric mean: 2 pi sqrt(L / g) / agm(1, cos(th / 2)).
static double exact_period(double L, double th) {
    double a = 1.0, b = cos(th / 2);
    for (int k = 0; k < 30; ++k) {
        double m = (a + b) / 2;
        b = sqrt(a * b);
        a = m;
    }
    return TWOPI * sqrt(L / G) / a;
}

// Small swings: within 1% of 2 pi sqrt(L / g) and less than 1% of the
// height lost a swing, for rods and ropes of 0.5 to 3 m, bobs of 1 g to 1 t,
// gravity all round; and large swings (1 and 1.5 rad, and 90 degrees on
// rods of 1, 2 and 5 m) within 0.1% of the exact period, with the same
// loss, the rod within 0.1 mm of its length.
static void test_pendulum(void **state) {
    (void)state;
    const double lengths[] = {0.5, 1.0, 3.0}, masses[] = {1e-3, 1.0, 1e3};
    for (int dir = 0; dir < 4; ++dir) {
        for (int type = 0; type < 2; ++type) {
            for (int li = 0; li < 3; ++li) {
                for (int mi = 0; mi < 3; ++mi) {
                    double L = lengths[li];
                    swing s = pendulum(dir, type ? LEDGE_JOINT_ROPE : LEDGE_JOINT_ROD, L, 0.1,
                                       masses[mi], 20.0);
                    double t0 = TWOPI * sqrt(L / G);
                    double loss = 1.0 - pow(s.last_height / s.first_height, 1.0 / s.swings);
                    if (fabs(s.period / t0 - 1) > 0.01 || loss > 0.01 || s.stretch > 0.005) {
                        fail_msg("%s, %s of %g m, bob %g kg: period %.5f vs %.5f, loss %.4f%% a "
                                 "swing, stretch %g",
                                 DIRS[dir], type ? "rope" : "rod", L, masses[mi], s.period, t0,
                                 100 * loss, s.stretch);
                    }
                }
            }
        }
        // 1 and 1.5 rad on 1 m, and 90 degrees on 1, 2 and 5 m, where the
        // small-swing period is 15% short: within 0.1% of the exact period.
        const double big[][2] = {
            {1.0, 1.0}, {1.0, 1.5}, {1.0, TWOPI / 4}, {2.0, TWOPI / 4}, {5.0, TWOPI / 4}};
        for (int k = 0; k < 5; ++k) {
            double L = big[k][0], th = big[k][1];
            swing s = pendulum(dir, LEDGE_JOINT_ROD, L, th, 1.0, 20.0);
            double t = exact_period(L, th);
            double loss = 1.0 - pow(s.last_height / s.first_height, 1.0 / s.swings);
            if (fabs(s.period / t - 1) > 0.001 || fabs(loss) > 0.01 || s.stretch > 1e-4)
                fail_msg("%s, %g m, %g rad: period %.5f vs %.5f, loss %.4f%% a swing, stretch %g",
                         DIRS[dir], L, th, s.period, t, 100 * loss, s.stretch);
        }
    }
}

// --- two free bodies: a rod or a rope spinning ---------------------------------

// Two bodies of masses m and m * ratio joined by a rod (or a taut rope) of
// length L, spinning at w in free fall: the centre of mass falls as a point
// (x0 + v0 t + g t^2 / 2, exactly: the joint's impulses are internal), the
// pair turns at the constant rate w (its angle after 2 s within 1%), the
// length stays L within the slop, and the energy of the spin stays.
static void test_free_spin(void **state) {
    (void)state;
    for (int dir = 0; dir < 4; ++dir) {
        for (int ri = 0; ri < RATIO_COUNT; ++ri) {
            for (int type = 0; type < 2; ++type) {
                frame f;
                ledge_world *w = world_in(dir, &f);
                double ma = 1.0, mb = RATIOS[ri], L = 1.0, spin = 3.0, M = ma + mb;
                ledge_body_id a = ball(w, at(&f, 0, 20), ma), b = ball(w, at(&f, (float)L, 20), mb);
                // Relative velocity spin * L across the rod, shared so the
                // momentum is 0 along the rod's normal, plus a drift.
                vec2s drift = scale(f.right, 0.5f);
                ledge_body_set_velocity(w, a, add(drift, scale(f.up, (float)(-spin * L * mb / M))));
                ledge_body_set_velocity(w, b, add(drift, scale(f.up, (float)(spin * L * ma / M))));
                ledge_joint_def jd = type ? ledge_default_rope_def() : ledge_default_rod_def();
                jd.body_a = a;
                jd.body_b = b;
                jd.length = (float)L;
                joint(w, &jd);
                vec2s c0 = scale(add(scale(ledge_body_position(w, a), (float)ma),
                                     scale(ledge_body_position(w, b), (float)mb)),
                                 (float)(1.0 / M));
                double turned = 0, stretch = 0, prev = 0;
                int steps = 120;
                for (int k = 0; k < steps; ++k) {
                    ledge_world_step(w, DT);
                    vec2s d = sub(ledge_body_position(w, b), ledge_body_position(w, a));
                    double angle = atan2(fy(&f, add(f.origin, d)), fx(&f, add(f.origin, d)));
                    double step = angle - prev;
                    if (step < -TWOPI / 2) step += TWOPI;
                    turned += step;
                    prev = angle;
                    stretch = fmax(stretch, fabs(len(d) - L));
                }
                double t = steps * DT;
                vec2s c = scale(add(scale(ledge_body_position(w, a), (float)ma),
                                    scale(ledge_body_position(w, b), (float)mb)),
                                (float)(1.0 / M));
                // Semi-implicit Euler's free fall: x0 + v0 t + g t (t + dt) / 2.
                vec2s want = add(add(c0, scale(drift, (float)t)),
                                 scale(f.up, (float)(-G * t * (t + DT) / 2)));
                vec2s ua = ledge_body_velocity(w, a), ub = ledge_body_velocity(w, b);
                vec2s rel = sub(ub, ua);
                double spin_now = len(rel) / L;
                if (len(sub(c, want)) > 1e-4 || fabs(turned / (spin * t) - 1) > 0.01 ||
                    stretch > 0.005 || fabs(spin_now / spin - 1) > 0.01)
                    fail_msg("%s, ratio %g, %s: centre (%g, %g) vs (%g, %g), turned %.4f vs "
                             "%.4f, spin %.4f, stretch %g",
                             DIRS[dir], RATIOS[ri], type ? "rope" : "rod", c.x, c.y, want.x, want.y,
                             turned, spin * t, spin_now, stretch);
                ledge_world_destroy(w);
            }
        }
    }
}

// --- springs ---------------------------------------------------------------------

// Two bodies (masses 1 and ratio) on a spring of rest length 1 stretched by
// 0.2 and let go, falling together: their distance's oscillation has the
// closed form's damped frequency w sqrt(1 - z^2) (w = 2 pi hertz, the
// spring's own mass being the pair's reduced mass) within 0.5%, and its
// peaks decay by exp(-z w) a second within 1% (the implicit step is the
// closed form sampled: test_spring asserts it at any stiffness the
// substep resolves).
static void test_spring(void **state) {
    (void)state;
    const double hertz[] = {0.5, 1.0, 3.0}, zetas[] = {0.0, 0.05, 0.2};
    for (int dir = 0; dir < 4; ++dir) {
        for (int ri = 0; ri < RATIO_COUNT; ++ri) {
            for (int hi = 0; hi < 3; ++hi) {
                for (int zi = 0; zi < 3; ++zi) {
                    frame f;
                    ledge_world *w = world_in(dir, &f);
                    ledge_body_id a = ball(w, at(&f, 0, 20), 1.0);
                    ledge_body_id b = ball(w, at(&f, 1.2f, 20), RATIOS[ri]);
                    ledge_joint_def jd = ledge_default_spring_def();
                    jd.body_a = a;
                    jd.body_b = b;
                    jd.length = 1.0f;
                    jd.hertz = (float)hertz[hi];
                    jd.damping_ratio = (float)zetas[zi];
                    joint(w, &jd);
                    double wn = TWOPI * hertz[hi], z = zetas[zi], wd = wn * sqrt(1 - z * z);
                    double prev = 0.2, first = -1, last = -1, peak0 = 0.2, peak = 0, tpeak = 0;
                    double before = 0.2, slope = 0;
                    int cross = 0, steps = (int)(2.0 / DT);
                    for (int k = 0; k < steps; ++k) {
                        ledge_world_step(w, DT);
                        double x =
                            len(sub(ledge_body_position(w, b), ledge_body_position(w, a))) - 1;
                        if ((prev < 0 && x >= 0) || (prev > 0 && x <= 0)) {
                            double t = (k + 1 - x / (x - prev)) * DT;
                            if (first < 0) first = t;
                            last = t;
                            cross++;
                        }
                        double s = x - before;
                        if (slope > 0 && s <= 0 && before > 0) { // a maximum
                            peak = before;
                            tpeak = k * DT;
                        }
                        slope = s;
                        before = x;
                        prev = x;
                    }
                    double measured = TWOPI / (2 * (last - first) / (cross - 1));
                    double decay = tpeak > 0 ? log(peak / peak0) / tpeak : 0;
                    bool freq_bad = fabs(measured / wd - 1) > 0.005;
                    // The peaks of the sampled motion: the discrete maximum
                    // is within a substep of the true one.
                    bool decay_bad = tpeak > 0 && fabs(decay + z * wn) > 0.01 * wn + 0.02;
                    if (freq_bad || decay_bad)
                        fail_msg("%s, ratio %g, %g Hz, zeta %g: frequency %.5f vs %.5f, decay %.4f "
                                 "vs %.4f a second",
                                 DIRS[dir], RATIOS[ri], hertz[hi], z, measured, wd, decay, -z * wn);
                    ledge_world_destroy(w);
                }
            }
        }
    }
}

// A very stiff spring (1,000 Hz at 60 steps a second) does not blow up: an
// undamped one swings at most as far as it started, a damped one comes to
// rest.
static void test_stiff_spring(void **state) {
    (void)state;
    for (int damped = 0; damped < 2; ++damped) {
        frame f;
        ledge_world *w = world_in(0, &f);
        ledge_body_id b = ball(w, at(&f, 0, 9), 1.0);
        ledge_joint_def jd = ledge_default_spring_def();
        jd.anchor_a = at(&f, 0, 10);
        jd.body_b = b;
        jd.length = 0.5f;
        jd.hertz = 1000.0f;
        jd.damping_ratio = damped ? 0.7f : 0.0f;
        joint(w, &jd);
        double worst = 0;
        for (int k = 0; k < 600; ++k) {
            ledge_world_step(w, DT);
            worst = fmax(worst, fabs(len(sub(ledge_body_position(w, b), jd.anchor_a)) - 0.5));
        }
        assert_true(worst <= 0.5 + 1e-3);
        if (damped) assert_true(speed(w, b) < 1e-3);
        ledge_world_destroy(w);
    }
}

// --- welds -------------------------------------------------------------------------

// A pendulum whose bob is two bodies welded side by side (masses 1 and
// ratio, the rod on the first): the pair swings as one point (bodies do
// not rotate), so its period is 2 pi sqrt(L / g) within 1%, its energy is
// kept within 1% a swing, and the weld holds the offset within 0.1 mm.
static void test_weld(void **state) {
    (void)state;
    for (int dir = 0; dir < 4; ++dir) {
        for (int ri = 0; ri < RATIO_COUNT; ++ri) {
            frame f;
            ledge_world *w = world_in(dir, &f);
            double L = 2.0, th = 0.1;
            vec2s pivot = at(&f, 0, 10);
            vec2s pa = at(&f, (float)(L * sin(th)), (float)(10 - L * cos(th)));
            vec2s offset = scale(f.right, 0.3f);
            ledge_body_id a = ball(w, pa, 1.0), b = ball(w, add(pa, offset), RATIOS[ri]);
            ledge_joint_def rod = ledge_default_rod_def();
            rod.anchor_a = pivot;
            rod.body_b = a;
            rod.length = (float)L;
            joint(w, &rod);
            ledge_joint_def weld = ledge_default_weld_def();
            weld.body_a = a;
            weld.body_b = b;
            weld.anchor_a = offset;
            joint(w, &weld);
            double prev = fx(&f, pa), first = -1, last = -1, e0 = -1, e1 = 0, worst = 0;
            int cross = 0, steps = (int)(15.0 / DT);
            for (int k = 0; k < steps; ++k) {
                ledge_world_step(w, DT);
                vec2s p = ledge_body_position(w, a), u = ledge_body_velocity(w, a);
                worst = fmax(worst, len(sub(sub(ledge_body_position(w, b), p), offset)));
                double x = fx(&f, p), e = dot(u, u) / (2 * G) + fy(&f, p) - (10.0 - L);
                if (e0 < 0) e0 = e;
                e1 = e;
                if ((prev < 0 && x >= 0) || (prev > 0 && x <= 0)) {
                    double t = (k + prev / (prev - x)) * DT;
                    if (first < 0) first = t;
                    last = t;
                    cross++;
                }
                prev = x;
            }
            double period = 2 * (last - first) / (cross - 1), t0 = TWOPI * sqrt(L / G);
            double loss = 1.0 - pow(e1 / e0, period / (steps * DT));
            if (fabs(period / t0 - 1) > 0.01 || loss > 0.01 || worst > 1e-4)
                fail_msg("%s, ratio %g: period %.5f vs %.5f, loss %.4f%%, weld off by %g",
                         DIRS[dir], RATIOS[ri], period, t0, 100 * loss, worst);
            ledge_world_destroy(w);
        }
    }
}

// --- sliders ------------------------------------------------------------------------

// A body on a slider from a fixed point, the axis at angle a from the
// frame's right: it slides with g sin(a) along the axis (its speed after t
// exactly g sin(a) t, semi-implicit Euler's), never leaves the axis, and
// stops at the limit it slides into (within the slop).
static void test_slider(void **state) {
    (void)state;
    const double angles[] = {0.0, 0.5, 1.0, 1.5707963};
    for (int dir = 0; dir < 4; ++dir) {
        for (int ai = 0; ai < 4; ++ai) {
            frame f;
            ledge_world *w = world_in(dir, &f);
            double a = angles[ai];
            vec2s axis = add(scale(f.right, (float)cos(a)), scale(f.up, (float)sin(a)));
            vec2s p0 = at(&f, 0, 0);
            ledge_body_id b = ball(w, p0, 2.0);
            ledge_joint_def jd = ledge_default_slider_def();
            jd.anchor_a = p0;
            jd.body_b = b;
            jd.axis = axis;
            jd.enable_limit = true;
            jd.lower = -3.0f;
            jd.upper = 3.0f;
            ledge_joint_id j = joint(w, &jd);
            int n = 30;
            for (int k = 0; k < n; ++k) ledge_world_step(w, DT);
            double along = dot(ledge_body_velocity(w, b), axis), want = -G * sin(a) * n * DT;
            vec2s d = sub(ledge_body_position(w, b), p0);
            double off = fabs(dot(d, v(-axis.y, axis.x)));
            if (fabs(along - want) > 1e-4 * (1 + fabs(want)) || off > 1e-4)
                fail_msg("%s, axis at %g: speed %.6f vs %.6f, off the axis by %g", DIRS[dir], a,
                         along, want, off);
            for (int k = 0; k < 240; ++k) ledge_world_step(w, DT);
            double t = ledge_joint_current_length(w, j);
            if (a > 0.1 && (t < -3.0 - 0.005 || t > -3.0 + 0.005 || speed(w, b) > 1e-3))
                fail_msg("%s, axis at %g: rests at %g (limit -3), speed %g", DIRS[dir], a, t,
                         speed(w, b));
            ledge_world_destroy(w);
        }
    }
}

// Two free bodies (masses 1 and ratio) on a slider, thrown apart across
// and along its axis: the impulse is internal (the momentum stays, the
// centre of mass falls as a point), the speed across the axis goes at
// once, the speed along it stays until the upper limit stops it.
static void test_slider_pair(void **state) {
    (void)state;
    for (int dir = 0; dir < 4; ++dir) {
        for (int ri = 0; ri < RATIO_COUNT; ++ri) {
            frame f;
            ledge_world *w = world_in(dir, &f);
            double ma = 1.0, mb = RATIOS[ri], M = ma + mb;
            ledge_body_id a = ball(w, at(&f, 0, 20), ma), b = ball(w, at(&f, 0.5f, 20), mb);
            vec2s rel = add(scale(f.right, 1.0f), scale(f.up, 0.7f)); // b relative to a
            ledge_body_set_velocity(w, a, scale(rel, (float)(-mb / M)));
            ledge_body_set_velocity(w, b, scale(rel, (float)(ma / M)));
            ledge_joint_def jd = ledge_default_slider_def();
            jd.body_a = a;
            jd.body_b = b;
            jd.axis = f.right;
            jd.enable_limit = true;
            jd.lower = 0.0f;
            jd.upper = 1.0f;
            ledge_joint_id j = joint(w, &jd);
            ledge_world_step(w, DT);
            vec2s ua = ledge_body_velocity(w, a), ub = ledge_body_velocity(w, b);
            vec2s p = add(scale(ua, (float)ma), scale(ub, (float)mb));
            vec2s want = scale(f.up, (float)(-G * DT * M));
            vec2s r = sub(ub, ua);
            if (len(sub(p, want)) > 1e-4 * M || fabs(dot(r, f.up)) > 1e-4 ||
                fabs(dot(r, f.right) - 1.0) > 1e-4)
                fail_msg("%s, ratio %g: momentum (%g, %g) vs (%g, %g), relative (%g, %g)",
                         DIRS[dir], RATIOS[ri], p.x, p.y, want.x, want.y, fx(&f, add(f.origin, r)),
                         fy(&f, add(f.origin, r)));
            for (int k = 0; k < 60; ++k) ledge_world_step(w, DT);
            double t = ledge_joint_current_length(w, j);
            r = sub(ledge_body_velocity(w, b), ledge_body_velocity(w, a));
            if (fabs(t - 1.0) > 0.005 || len(r) > 1e-3)
                fail_msg("%s, ratio %g: at %g (upper 1), relative speed %g", DIRS[dir], RATIOS[ri],
                         t, len(r));
            ledge_world_destroy(w);
        }
    }
}

// A slider's motor lifting a body of mass m along up: strong enough (its
// most force above m g) it rises at the motor's speed; too weak, it sinks
// with the acceleration g - F / m.
static void test_motor(void **state) {
    (void)state;
    for (int dir = 0; dir < 4; ++dir) {
        for (int strong = 0; strong < 2; ++strong) {
            frame f;
            ledge_world *w = world_in(dir, &f);
            double m = 3.0, F = strong ? 2.0 * m * G : 0.5 * m * G;
            ledge_body_id b = ball(w, at(&f, 0, 0), m);
            ledge_joint_def jd = ledge_default_slider_def();
            jd.anchor_a = at(&f, 0, 0);
            jd.body_b = b;
            jd.axis = f.up;
            jd.enable_motor = true;
            jd.motor_speed = 1.5f;
            jd.max_motor_force = (float)F;
            joint(w, &jd);
            int n = 30;
            for (int k = 0; k < n; ++k) ledge_world_step(w, DT);
            double up = dot(ledge_body_velocity(w, b), f.up);
            double want = strong ? 1.5 : -(G - F / m) * n * DT;
            if (fabs(up - want) > 1e-3 * (1 + fabs(want)))
                fail_msg("%s, %s motor: speed %.5f vs %.5f", DIRS[dir], strong ? "strong" : "weak",
                         up, want);
            ledge_world_destroy(w);
        }
    }
}

// --- pulleys ------------------------------------------------------------------------

// Atwood's machine: bodies of masses ma and mb hanging from ropes over two
// fixed points, length_a + ratio * length_b = L: body a's acceleration is
// g (ratio mb - ratio^2 ma) / (ratio^2 ma + mb), its speed after t that
// times t (semi-implicit Euler's is exact for a constant acceleration)
// within 1%; the ropes' sum never exceeds L by more than the slop.
static void test_pulley(void **state) {
    (void)state;
    const double ratios[] = {0.5, 1.0, 2.0};
    for (int dir = 0; dir < 4; ++dir) {
        for (int mi = 0; mi < RATIO_COUNT; ++mi) {
            for (int pi = 0; pi < 3; ++pi) {
                frame f;
                ledge_world *w = world_in(dir, &f);
                double ma = 1.0, mb = RATIOS[mi], r = ratios[pi];
                ledge_body_id a = ball(w, at(&f, -2, 0), ma), b = ball(w, at(&f, 2, 0), mb);
                ledge_joint_def jd = ledge_default_pulley_def();
                jd.body_a = a;
                jd.body_b = b;
                jd.ground_a = at(&f, -2, 5);
                jd.ground_b = at(&f, 2, 5);
                jd.ratio = (float)r;
                jd.length = (float)(5.0 + r * 5.0);
                ledge_joint_id j = joint(w, &jd);
                double acc = G * (r * mb - r * r * ma) / (r * r * ma + mb);
                int n = 30;
                double worst = 0;
                for (int k = 0; k < n; ++k) {
                    ledge_world_step(w, DT);
                    worst = fmax(worst, ledge_joint_current_length(w, j) - jd.length);
                }
                double up = dot(ledge_body_velocity(w, a), f.up), want = acc * n * DT;
                if (fabs(up - want) > 0.01 * fabs(want) + 1e-4 || worst > 0.005)
                    fail_msg("%s, masses 1 and %g, ratio %g: speed %.5f vs %.5f, over by %g",
                             DIRS[dir], mb, r, up, want, worst);
                ledge_world_destroy(w);
            }
        }
    }
}

// --- ropes ------------------------------------------------------------------------------

// A rope is slack below its length: a bob let go 1 m from the anchor on a
// rope of 2 m falls freely (its height after t exactly semi-implicit
// Euler's) until the rope is taut; from then on the rope is never longer
// than its length plus the slop, whatever the mass (1 g to 1 t on a rope
// from a body of 1 kg held by a rod: both ways).
static void test_rope_slack(void **state) {
    (void)state;
    for (int dir = 0; dir < 4; ++dir) {
        for (int ri = 0; ri < RATIO_COUNT; ++ri) {
            frame f;
            ledge_world *w = world_in(dir, &f);
            ledge_body_id holder = ball(w, at(&f, 0, 15), 1.0);
            ledge_joint_def rod = ledge_default_rod_def();
            rod.anchor_a = at(&f, 0, 16);
            rod.body_b = holder;
            joint(w, &rod);
            ledge_body_id b = ball(w, at(&f, 0.2f, 15 - 0.98f), RATIOS[ri]);
            ledge_joint_def jd = ledge_default_rope_def();
            jd.body_a = holder;
            jd.body_b = b;
            jd.length = 2.0f;
            joint(w, &jd);
            double worst = 0, y0 = fy(&f, ledge_body_position(w, b));
            bool taut = false;
            for (int k = 0; k < 300; ++k) {
                ledge_world_step(w, DT);
                double d = len(sub(ledge_body_position(w, b), ledge_body_position(w, holder)));
                worst = fmax(worst, d - 2.0);
                if (!taut && d < 2.0 - 0.05) { // still falling freely
                    double t = (k + 1) * DT, want = y0 - G * t * (t + DT) / 2;
                    double y = fy(&f, ledge_body_position(w, b));
                    if (fabs(y - want) > 1e-3)
                        fail_msg("%s, ratio %g: slack fall at %g vs %g", DIRS[dir], RATIOS[ri], y,
                                 want);
                } else {
                    taut = true;
                }
            }
            if (worst > 0.005)
                fail_msg("%s, ratio %g: the rope was %g longer than its length", DIRS[dir],
                         RATIOS[ri], worst);
            ledge_world_destroy(w);
        }
    }
}

// --- chains and bridges ---------------------------------------------------------

// The worst overlap of body b with the tiles (0 when clear).
static double tile_depth(ledge_world *w, ledge_body_id b) {
    ledge_tile_contact c[16];
    int n = ledge_tilemap_collide(ledge_world_tilemap(w), ledge_body_shape(w, b),
                                  ledge_body_position(w, b), c, 16);
    double worst = 0;
    for (int k = 0; k < n && k < 16; ++k) worst = fmax(worst, c[k].manifold.depth);
    return worst;
}

// How far joint j is longer than its length (a rope, a rod).
static double stretch(ledge_world *w, ledge_joint_id j) {
    ledge_joint_def d;
    assert_true(ledge_joint_get_def(w, j, &d));
    return ledge_joint_current_length(w, j) - d.length;
}

#define LINK_GAP 0.25f

// A chain of n links (boxes 0.2 x 0.1, ropes of 0.25 between their
// centres) from a fixed point above a floor. With a load, a crate of 100
// links' mass hangs at its end 1 m above the floor; without, the chain
// hangs down to the floor and its last links lie along it. After 10 s on
// the default world every body is at rest (speed <= 0.01 m/s), no rope is
// longer than its length plus the slop, and no link is in a tile by more
// than the slop.
static void test_chains(void **state) {
    (void)state;
    const int counts[] = {1, 2, 5, 10, 20, 50};
    for (int dir = 0; dir < 4; ++dir) {
        for (int ci = 0; ci < 6; ++ci) {
            for (int load = 0; load < 2; ++load) {
                frame f;
                ledge_world *w = world_in(dir, &f);
                floor_below(w, &f, -20.0f);
                int n = counts[ci], hanging = load ? n : (n + 1) / 2;
                float floor_y = -20.0f, rest = floor_y + 0.05f;
                float top = load ? floor_y + 1.0f + 0.3f + 0.3f + LINK_GAP * (float)n
                                 : rest + LINK_GAP * (float)hanging;
                ledge_body_id links[51], crate = LEDGE_NULL_BODY_ID;
                ledge_joint_id ropes[52];
                int joints = 0;
                vec2s prev_at = at(&f, 0, top);
                for (int i = 0; i < n; ++i) {
                    vec2s p = i < hanging ? at(&f, 0, top - LINK_GAP * (float)(i + 1))
                                          : at(&f, LINK_GAP * (float)(i + 1 - hanging), rest);
                    links[i] = body(w, p, box_in(&f, 0.1f, 0.05f), 0.02);
                    ledge_body_set_friction(w, links[i], 0.5f);
                    ledge_joint_def jd = ledge_default_rope_def();
                    jd.body_a = i > 0 ? links[i - 1] : LEDGE_NULL_BODY_ID;
                    jd.anchor_a = i > 0 ? v(0, 0) : prev_at;
                    jd.body_b = links[i];
                    jd.length = LINK_GAP;
                    ropes[joints++] = joint(w, &jd);
                }
                if (load) {
                    crate = body(w, at(&f, 0, top - LINK_GAP * (float)n - 0.3f - 0.05f),
                                 box_in(&f, 0.3f, 0.3f), 2.0);
                    ledge_joint_def jd = ledge_default_rope_def();
                    jd.body_a = links[n - 1];
                    jd.body_b = crate;
                    jd.length = 0.35f;
                    ropes[joints++] = joint(w, &jd);
                }
                for (int k = 0; k < 600; ++k) ledge_world_step(w, DT);
                double fast = load ? speed(w, crate) : 0, worst = 0, deep = 0;
                for (int i = 0; i < n; ++i) {
                    fast = fmax(fast, speed(w, links[i]));
                    deep = fmax(deep, tile_depth(w, links[i]));
                }
                for (int k = 0; k < joints; ++k) worst = fmax(worst, stretch(w, ropes[k]));
                if (fast > 0.01 || worst > 0.005 || deep > 0.005)
                    fail_msg("%s, %d links%s: fastest %g m/s, stretch %g, in a tile by %g",
                             DIRS[dir], n, load ? " and a crate" : "", fast, worst, deep);
                if (load) { // the top rope carries the whole weight
                    double weight = G * (0.02 * n + 2.0);
                    double force = len(ledge_joint_force(w, ropes[0]));
                    if (fabs(force / weight - 1) > 0.01)
                        fail_msg("%s, %d links and a crate: force %g vs weight %g", DIRS[dir], n,
                                 force, weight);
                }
                ledge_world_destroy(w);
            }
        }
    }
}

// A bridge of n planks (0.8 x 0.1, 0.08 kg, drag 2 a second) on ropes
// between two fixed points 1.5 times the gaps they span, let go straight:
// it sags, swings and, with or without three crates (0.25 kg or 1 kg,
// friction 0.5) dropped on it, is at rest after 10 s, no rope is longer than its
// length plus the slop, the crates are on it, and the ropes at its ends
// carry its whole weight (within 1%).
static void test_bridges(void **state) {
    (void)state;
    const int counts[] = {5, 10, 20, 30};
    for (int dir = 0; dir < 4; ++dir) {
        for (int ci = 0; ci < 4; ++ci) {
            for (int loaded = 0; loaded < 3; ++loaded) {
                frame f;
                ledge_world *w = world_in(dir, &f);
                int n = counts[ci];
                float pw = 0.4f, gap = 0.1f, span = (float)n * (2 * pw + gap) + gap;
                float x0 = -span / 2;
                ledge_body_id planks[30], crates[3];
                ledge_joint_id ropes[31];
                for (int i = 0; i < n; ++i) {
                    ledge_body_def bd = ledge_default_body_def();
                    bd.shape = box_in(&f, pw, 0.05f);
                    bd.position = at(&f, x0 + gap + pw + (float)i * (2 * pw + gap), 20);
                    bd.density = 1.0f;
                    bd.drag = 2.0f;
                    bd.friction = 0.5f;
                    planks[i] = ledge_body_create(w, &bd);
                }
                for (int i = 0; i <= n; ++i) {
                    ledge_joint_def jd = ledge_default_rope_def();
                    jd.body_a = i == 0 ? LEDGE_NULL_BODY_ID : planks[i - 1];
                    jd.anchor_a = i == 0 ? at(&f, x0, 20) : scale(f.right, pw);
                    jd.body_b = i == n ? LEDGE_NULL_BODY_ID : planks[i];
                    jd.anchor_b = i == n ? at(&f, x0 + span, 20) : scale(f.right, -pw);
                    jd.length = 1.5f * gap;
                    ropes[i] = joint(w, &jd);
                }
                double weight = G * 0.08 * n / (1.0 + DT * 2.0);
                if (loaded) {
                    for (int c = 0; c < 3; ++c) {
                        ledge_body_def cd = ledge_default_body_def();
                        cd.shape = box_in(&f, 0.25f, 0.25f);
                        cd.position = at(&f, x0 + span * (float)(c + 1) / 4.0f, 20.4f);
                        cd.density = loaded == 1 ? 1.0f : 4.0f;
                        cd.friction = 0.5f;
                        crates[c] = ledge_body_create(w, &cd);
                    }
                    weight += G * 3 * 0.25 * (loaded == 1 ? 1.0 : 4.0);
                }
                for (int k = 0; k < 600; ++k) ledge_world_step(w, DT);
                double fast = 0, worst = 0, lowest = 1e9;
                for (int i = 0; i < n; ++i) {
                    fast = fmax(fast, speed(w, planks[i]));
                    lowest = fmin(lowest, fy(&f, ledge_body_position(w, planks[i])));
                }
                for (int c = 0; loaded && c < 3; ++c) {
                    fast = fmax(fast, speed(w, crates[c]));
                    if (fy(&f, ledge_body_position(w, crates[c])) < lowest)
                        fail_msg("%s, %d planks: crate %d fell through", DIRS[dir], n, c);
                }
                for (int i = 0; i <= n; ++i) worst = fmax(worst, stretch(w, ropes[i]));
                double held = dot(ledge_joint_force(w, ropes[0]), f.up) -
                              dot(ledge_joint_force(w, ropes[n]), f.up);
                if (fast > 0.01 || worst > 0.005 || fabs(held / weight - 1) > 0.01)
                    fail_msg("%s, %d planks%s: fastest %g m/s, stretch %g, held %g of %g",
                             DIRS[dir], n,
                             loaded == 2 ? " and 1 kg crates"
                             : loaded    ? " and crates"
                                         : "",
                             fast, worst, held, weight);
                ledge_world_destroy(w);
            }
        }
    }
}

// --- refusals ---------------------------------------------------------------------

// A def with two living bodies of w (made by the caller).
static ledge_joint_def rope_between(ledge_body_id a, ledge_body_id b) {
    ledge_joint_def d = ledge_default_rope_def();
    d.body_a = a;
    d.body_b = b;
    return d;
}

static void expect_refused(ledge_world *w, const ledge_joint_def *d, const char *word1,
                           const char *word2) {
    log_capture_start();
    int before = ledge_world_joint_count(w);
    ledge_joint_id id = ledge_joint_create(w, d);
    if (id.index1 != 0 || !log_capture_says(word1, word2) || ledge_world_joint_count(w) != before)
        fail_msg("expected a refusal naming '%s' and '%s', got id %u and \"%s\"", word1,
                 word2 ? word2 : "", id.index1, g_log.last);
    ledge_set_log_hook(NULL, NULL);
}

// Every refusal of ledge_joint_create, each with the words of its
// message, and nothing made.
static void test_create_refusals(void **state) {
    (void)state;
    frame f;
    ledge_world *w = world_in(0, &f), *other = world_in(0, &f);
    ledge_body_id a = ball(w, at(&f, 0, 0), 1), b = ball(w, at(&f, 1, 0), 1);
    ledge_body_id gone = ball(w, at(&f, 2, 0), 1), foreign = ball(other, at(&f, 0, 0), 1);
    ledge_body_destroy(w, gone);
    ledge_joint_def d = rope_between(a, b);

    log_capture_start();
    assert_int_equal(ledge_joint_create(NULL, &d).index1, 0);
    assert_true(log_capture_says("ledge_joint_create", "world is NULL"));
    assert_int_equal(ledge_joint_create(w, NULL).index1, 0);
    assert_true(log_capture_says("ledge_joint_create", "def is NULL"));
    ledge_set_log_hook(NULL, NULL);

    d = rope_between(a, b);
    d.type = (ledge_joint_type)99;
    expect_refused(w, &d, "type is 99", "ledge_joint_type");
    d = rope_between(LEDGE_NULL_BODY_ID, LEDGE_NULL_BODY_ID);
    expect_refused(w, &d, "both the null id", NULL);
    d = rope_between(a, gone);
    expect_refused(w, &d, "stale", "destroyed");
    d = rope_between(foreign, b);
    expect_refused(w, &d, "not a body of this world", NULL);
    d = rope_between(a, a);
    expect_refused(w, &d, "the same body", "joined to itself");
    d = rope_between(a, b);
    d.anchor_a = v(NAN, 0);
    expect_refused(w, &d, "anchor_a", NULL);
    d = rope_between(a, b);
    d.anchor_b = v(0, INFINITY);
    expect_refused(w, &d, "anchor_b", NULL);
    d = rope_between(a, b);
    d.length = -1.0f;
    expect_refused(w, &d, "length is -1", "0..1e+06");
    d.length = NAN;
    expect_refused(w, &d, "length is nan", NULL);
    d.length = 2e6f;
    expect_refused(w, &d, "length is 2e+06", NULL);
    d = rope_between(a, b);
    d.min_length = 2.0f;
    expect_refused(w, &d, "min_length is 2", "above length 1");
    d.min_length = -0.5f;
    expect_refused(w, &d, "min_length is -0.5", NULL);

    ledge_joint_def s = ledge_default_spring_def();
    s.body_a = a;
    s.body_b = b;
    s.hertz = 0.0f;
    expect_refused(w, &s, "hertz is 0", "a spring's must be > 0");
    s.hertz = 2.0f;
    s.damping_ratio = -1.0f;
    expect_refused(w, &s, "damping_ratio is -1", NULL);
    s.damping_ratio = 0.5f;
    s.min_length = 3.0f;
    s.max_length = 2.0f;
    expect_refused(w, &s, "min_length is 3", "above max_length 2");

    ledge_joint_def wd = ledge_default_weld_def();
    wd.body_a = a;
    wd.body_b = b;
    wd.hertz = -1.0f;
    expect_refused(w, &wd, "hertz is -1", NULL);

    ledge_joint_def sl = ledge_default_slider_def();
    sl.body_a = a;
    sl.body_b = b;
    sl.axis = v(0, 0);
    expect_refused(w, &sl, "axis is (0, 0)", "must not be zero");
    sl.axis = v(NAN, 1);
    expect_refused(w, &sl, "axis", NULL);
    sl.axis = v(1, 0);
    sl.lower = 2.0f;
    sl.upper = 1.0f;
    expect_refused(w, &sl, "lower is 2", "above upper 1");
    sl.lower = -1.0f;
    sl.max_motor_force = -5.0f;
    expect_refused(w, &sl, "max_motor_force is -5", NULL);
    sl.max_motor_force = 1.0f;
    sl.motor_speed = NAN;
    expect_refused(w, &sl, "motor_speed is nan", NULL);

    ledge_joint_def p = ledge_default_pulley_def();
    p.body_a = a;
    p.body_b = b;
    p.ratio = 0.0f;
    expect_refused(w, &p, "ratio is 0", NULL);
    p.ratio = 1.0f;
    p.ground_b = v(INFINITY, 0);
    expect_refused(w, &p, "ground_b", NULL);
    assert_int_equal(ledge_world_joint_count(w), 0);
    ledge_world_destroy(w);
    ledge_world_destroy(other);
}

static ledge_world *g_stepping;
static ledge_response create_in_step(ledge_body_id a, ledge_body_id b, int x, int y, vec2s n,
                                     ledge_response r, void *context) {
    (void)x, (void)y, (void)n;
    ledge_body_id *bodies = context;
    ledge_joint_def d = rope_between(bodies[0], bodies[1]);
    log_capture_start();
    assert_int_equal(ledge_joint_create(g_stepping, &d).index1, 0);
    assert_true(log_capture_says("ledge_joint_create", "stepping"));
    ledge_set_log_hook(NULL, NULL);
    (void)a, (void)b;
    return r;
}

// The calls on joints: a stale, foreign or null id is refused with its
// message, a setter refused on a type without the setting, bad values
// refused; a joint created in the step (from the pre-solve callback) is
// refused too.
static void test_call_refusals(void **state) {
    (void)state;
    frame f;
    ledge_world *w = world_in(0, &f), *other = world_in(0, &f);
    ledge_body_id a = ball(w, at(&f, 0, 0), 1), b = ball(w, at(&f, 0.05f, 0), 1);
    ledge_joint_def d = rope_between(a, b);
    ledge_joint_id rope = joint(w, &d), gone = joint(w, &d);
    ledge_joint_destroy(w, gone);
    ledge_body_id c = ball(other, at(&f, 0, 0), 1), e = ball(other, at(&f, 1, 0), 1);
    ledge_joint_def od = rope_between(c, e);
    ledge_joint_id foreign = joint(other, &od);

    log_capture_start();
    ledge_joint_destroy(w, gone);
    assert_true(log_capture_says("ledge_joint_destroy", "stale"));
    assert_false(ledge_joint_set_length(w, foreign, 1.0f));
    assert_true(log_capture_says("ledge_joint_set_length", "not a joint of this world"));
    assert_false(ledge_joint_set_length(w, LEDGE_NULL_JOINT_ID, 1.0f));
    assert_true(log_capture_says("ledge_joint_set_length", "not a joint of this world"));
    vec2s force = ledge_joint_force(w, gone);
    assert_true(force.x == 0 && force.y == 0 && log_capture_says("ledge_joint_force", "stale"));
    assert_false(ledge_joint_is_valid(w, gone));
    assert_false(ledge_joint_is_valid(w, foreign));
    assert_false(ledge_joint_is_valid(NULL, rope));

    assert_false(ledge_joint_set_length(w, rope, -2.0f));
    assert_true(log_capture_says("length is -2", NULL));
    assert_false(ledge_joint_set_limits(w, rope, 0.5f, 0.2f));
    assert_true(log_capture_says("lower is 0.5", "above upper 0.2"));
    assert_false(ledge_joint_set_spring(w, rope, 1.0f, 0.1f));
    assert_true(log_capture_says("ledge_joint_set_spring", "a spring or weld"));
    assert_false(ledge_joint_set_motor(w, rope, true, 1.0f, 1.0f));
    assert_true(log_capture_says("ledge_joint_set_motor", "a slider"));
    ledge_joint_def rd = ledge_default_rod_def();
    rd.body_a = a;
    rd.body_b = b;
    ledge_joint_id rod = joint(w, &rd);
    assert_false(ledge_joint_set_limits(w, rod, 0.0f, 1.0f));
    assert_true(log_capture_says("ledge_joint_set_limits", "a rope, spring or slider"));
    ledge_joint_def wd = ledge_default_weld_def();
    wd.body_a = a;
    wd.body_b = b;
    ledge_joint_id weld = joint(w, &wd);
    assert_false(ledge_joint_set_length(w, weld, 1.0f));
    assert_true(log_capture_says("ledge_joint_set_length", "a rod, rope, spring or pulley"));
    assert_int_equal(ledge_body_joints(w, a, NULL, 2), -1);
    assert_true(log_capture_says("ledge_body_joints", "capacity 2"));
    ledge_joint_def out;
    assert_false(ledge_joint_get_def(w, gone, &out));
    assert_true(log_capture_says("ledge_joint_get_def", "stale"));
    assert_false(ledge_joint_get_def(w, rope, NULL));
    assert_true(log_capture_says("ledge_joint_get_def", "out is NULL"));
    ledge_set_log_hook(NULL, NULL);

    // Created during the step: refused.
    ledge_body_id pair[2] = {a, b};
    g_stepping = w;
    ledge_world_set_pre_solve(w, create_in_step, pair);
    ledge_world_step(w, DT);
    ledge_world_set_pre_solve(w, NULL, NULL);
    ledge_world_destroy(w);
    ledge_world_destroy(other);
}

// --- the bodies of a joint ------------------------------------------------------------

// Joined bodies do not collide (two overlapping boxes on a rope stay
// overlapped), unless collide_connected (then they are pushed apart).
static void test_collide_connected(void **state) {
    (void)state;
    for (int collide = 0; collide < 2; ++collide) {
        ledge_world_def wd = ledge_default_world_def();
        wd.gravity = v(0, 0);
        ledge_world *w = ledge_world_create(&wd);
        ledge_body_id a = body(w, v(10, 10), ledge_make_box(v(0, 0), v(0.5f, 0.5f)), 1);
        ledge_body_id b = body(w, v(10.5f, 10), ledge_make_box(v(0, 0), v(0.5f, 0.5f)), 1);
        ledge_joint_def d = rope_between(a, b);
        d.length = 2.0f;
        ledge_joint_id j = joint(w, &d);
        if (collide) assert_true(ledge_joint_set_collide_connected(w, j, true));
        for (int k = 0; k < 30; ++k) ledge_world_step(w, DT);
        double apart = ledge_body_position(w, b).x - ledge_body_position(w, a).x;
        if (collide) {
            assert_true(apart > 1.0 - 0.01);
        } else {
            assert_true(fabs(apart - 0.5) < 1e-6);
        }
        ledge_world_destroy(w);
    }
}

// A joint dies with either body: its id turns stale, the count drops, the
// other body's list loses it, and the body at the other end wakes.
static void test_destroyed_with_body(void **state) {
    (void)state;
    frame f;
    ledge_world *w = world_in(0, &f);
    ledge_body_id a = ball(w, at(&f, 0, 0), 1), b = ball(w, at(&f, 1, 0), 1),
                  c = ball(w, at(&f, 2, 0), 1);
    ledge_joint_def d = rope_between(a, b);
    ledge_joint_id ab = joint(w, &d);
    d = rope_between(b, c);
    ledge_joint_id bc = joint(w, &d);
    d = rope_between(LEDGE_NULL_BODY_ID, c);
    d.anchor_a = at(&f, 2, 1);
    ledge_joint_id wc = joint(w, &d);
    ledge_joint_id list[4];
    assert_int_equal(ledge_body_joints(w, b, list, 4), 2);
    assert_true(list[0].index1 == ab.index1 && list[1].index1 == bc.index1);
    ledge_body_destroy(w, b);
    assert_false(ledge_joint_is_valid(w, ab));
    assert_false(ledge_joint_is_valid(w, bc));
    assert_true(ledge_joint_is_valid(w, wc));
    assert_int_equal(ledge_world_joint_count(w), 1);
    assert_int_equal(ledge_body_joints(w, c, list, 4), 1);
    assert_int_equal(ledge_body_joints(w, a, list, 4), 0);
    // The freed indices are handed out again last in, first out (the body's
    // joints die newest first, so ab's index is the last freed), with new
    // generations.
    d = rope_between(a, c);
    ledge_joint_id again = joint(w, &d);
    assert_true(again.index1 == ab.index1 && again.generation != ab.generation);
    assert_false(ledge_joint_is_valid(w, ab));
    ledge_world_destroy(w);
}

// Joined bodies fall asleep together and wake together: a chain hanging
// at rest sleeps whole; a push on its last link wakes every link at the
// next step.
static void test_sleep_together(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.enable_sleep = true;
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_id links[8];
    for (int i = 0; i < 8; ++i) {
        links[i] = ball(w, v(32, 40 - 0.3f * (float)(i + 1)), 0.1);
        ledge_joint_def d = rope_between(i > 0 ? links[i - 1] : LEDGE_NULL_BODY_ID, links[i]);
        d.anchor_a = i > 0 ? v(0, 0) : v(32, 40);
        d.length = 0.3f;
        joint(w, &d);
    }
    for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
    for (int i = 0; i < 8; ++i) assert_false(ledge_body_is_awake(w, links[i]));
    ledge_body_apply_impulse(w, links[7], v(0.05f, 0));
    ledge_world_step(w, DT);
    for (int i = 0; i < 8; ++i) assert_true(ledge_body_is_awake(w, links[i]));
    ledge_world_destroy(w);
}

// --- a character on a rope ----------------------------------------------------------

// A character (kinematic box 0.6 x 0.9) hanging from a fixed point on a
// rope of 3 m, moved each frame by the game's loop (velocity from the
// state plus gravity): it swings with the pendulum's period (within 1%)
// and keeps its energy (less than 1% lost a swing), its state says it
// hangs; it climbs by the rope's length, and lets go with the swing's
// velocity.
static void test_character_swing(void **state) {
    (void)state;
    for (int dir = 0; dir < 4; ++dir) {
        frame f;
        ledge_world *w = world_in(dir, &f);
        double L = 3.0, th = 0.1;
        vec2s pivot = at(&f, 0, 10);
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_KINEMATIC;
        bd.shape = box_in(&f, 0.3f, 0.45f);
        bd.position = at(&f, (float)(L * sin(th)), (float)(10 - L * cos(th)));
        ledge_body_id p = ledge_body_create(w, &bd);
        assert_true(ledge_character_create(w, p, NULL));
        ledge_joint_def jd = ledge_default_rope_def();
        jd.anchor_a = pivot;
        jd.body_b = p;
        jd.length = (float)L;
        ledge_joint_id rope = joint(w, &jd);
        ledge_character_state s;
        assert_true(ledge_character_get_state(w, p, &s));
        vec2s g = scale(f.up, -(float)G);
        double prev = fx(&f, s.position), first = -1, last = -1, e0 = -1, e1 = 0;
        int cross = 0, steps = (int)(20.0 / DT);
        for (int k = 0; k < steps; ++k) {
            assert_true(ledge_character_move(w, p, add(s.velocity, scale(g, DT)), DT, &s));
            ledge_world_step(w, DT);
            double x = fx(&f, s.position);
            double e = dot(s.velocity, s.velocity) / (2 * G) + fy(&f, s.position) - (10 - L);
            if (e0 < 0) e0 = e;
            e1 = e;
            if ((prev < 0 && x >= 0) || (prev > 0 && x <= 0)) {
                double t = (k + prev / (prev - x)) * DT;
                if (first < 0) first = t;
                last = t;
                cross++;
            }
            prev = x;
        }
        double period = 2 * (last - first) / (cross - 1), t0 = TWOPI * sqrt(L / G);
        double loss = 1.0 - pow(e1 / e0, period / (steps * DT));
        if (fabs(period / t0 - 1) > 0.01 || fabs(loss) > 0.01)
            fail_msg("%s: the character swings with period %.4f vs %.4f, loss %.3f%% a swing",
                     DIRS[dir], period, t0, 100 * loss);
        assert_true(s.hanging && s.hang_joint.index1 == rope.index1);
        assert_true(len(sub(s.hang_anchor, pivot)) < 1e-5);
        // Climb 1 m in a second: the rope's length is the distance.
        for (int k = 0; k < 60; ++k) {
            assert_true(ledge_joint_set_length(w, rope, (float)(L - (k + 1) / 60.0)));
            assert_true(ledge_character_move(w, p, add(s.velocity, scale(g, DT)), DT, &s));
            ledge_world_step(w, DT);
        }
        assert_true(fabs(len(sub(s.position, pivot)) - (L - 1)) < 1e-3);
        // Let go: the velocity kept is the swing's; the state hangs no more.
        vec2s swing_v = s.velocity;
        ledge_joint_destroy(w, rope);
        assert_true(ledge_character_get_state(w, p, &s));
        assert_false(s.hanging);
        assert_int_equal(s.hang_joint.index1, 0);
        assert_true(s.velocity.x == swing_v.x && s.velocity.y == swing_v.y);
        assert_true(ledge_character_move(w, p, add(s.velocity, scale(g, DT)), DT, &s));
        assert_true(len(sub(s.velocity, add(swing_v, scale(g, DT)))) < 1e-4);
        ledge_world_destroy(w);
    }
}

// Tiles still stop a hanging character: swinging from 1 rad into a wall
// of FULL tiles standing beside the lowest point, it stops against the
// wall (on_wall), never inside it by more than its skin, and its rope is
// never longer than its length.
static void test_character_swing_into_wall(void **state) {
    (void)state;
    for (int dir = 0; dir < 4; ++dir) {
        frame f;
        ledge_world *w = world_in(dir, &f);
        ledge_tilemap *m = ledge_world_tilemap(w);
        for (int cy = 0; cy < 64; ++cy) { // a wall right of the lowest point, 1.5 m away
            for (int cx = 0; cx < 64; ++cx) {
                vec2s c = v((float)cx + 0.5f, (float)cy + 0.5f);
                if (fx(&f, c) > 1.5f + 0.5f && fy(&f, c) < 8.0f)
                    ledge_tilemap_set(m, cx, cy, LEDGE_TILE_FULL);
            }
        }
        double L = 3.0, th = -1.0;
        vec2s pivot = at(&f, 0, 10);
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_KINEMATIC;
        bd.shape = box_in(&f, 0.3f, 0.45f);
        bd.position = at(&f, (float)(L * sin(th)), (float)(10 - L * cos(th)));
        ledge_body_id p = ledge_body_create(w, &bd);
        assert_true(ledge_character_create(w, p, NULL));
        ledge_joint_def jd = ledge_default_rope_def();
        jd.anchor_a = pivot;
        jd.body_b = p;
        jd.length = (float)L;
        joint(w, &jd);
        ledge_character_state s;
        assert_true(ledge_character_get_state(w, p, &s));
        vec2s g = scale(f.up, -(float)G);
        bool walled = false;
        double deepest = 0, longest = 0;
        for (int k = 0; k < 240; ++k) {
            assert_true(ledge_character_move(w, p, add(s.velocity, scale(g, DT)), DT, &s));
            ledge_world_step(w, DT);
            walled |= s.on_wall;
            deepest = fmax(deepest, tile_depth(w, p));
            longest = fmax(longest, len(sub(s.position, pivot)) - L);
        }
        ledge_move_def md = ledge_default_move_def();
        if (!walled || deepest > md.skin + 1e-4 || longest > 0.005)
            fail_msg("%s: walled %d, in the wall by %g, rope over by %g", DIRS[dir], walled,
                     deepest, longest);
        ledge_world_destroy(w);
    }
}

// --- the same bits ------------------------------------------------------------------

// A scene of every joint: a chain hanging a crate, a bridge with a crate,
// a spring board, a welded cart on a slider with a motor, a pulley lift,
// and a character swinging on a rope. Its world made with `workers`.
static ledge_world *joint_scene(int workers, ledge_body_id *player) {
    ledge_world_def wd = ledge_default_world_def();
    wd.worker_count = workers;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    for (int x = 0; x < 64; ++x) ledge_tilemap_set(ledge_world_tilemap(w), x, 0, LEDGE_TILE_FULL);
    ledge_body_id prev = LEDGE_NULL_BODY_ID;
    for (int i = 0; i < 12; ++i) { // a chain from (6, 30) swung sideways, a crate at its end
        ledge_body_id l =
            body(w, v(6.0f + 0.25f * (float)(i + 1), 30), ledge_make_circle(v(0, 0), 0.08f), 0.05);
        ledge_joint_def d = rope_between(prev, l);
        d.anchor_a = i ? v(0, 0) : v(6, 30);
        d.length = 0.25f;
        joint(w, &d);
        prev = l;
    }
    ledge_body_id crate = body(w, v(9.5f, 30), ledge_make_box(v(0, 0), v(0.3f, 0.3f)), 4);
    ledge_joint_def d = rope_between(prev, crate);
    d.length = 0.5f;
    joint(w, &d);
    prev = LEDGE_NULL_BODY_ID;
    for (int i = 0; i < 6; ++i) { // a bridge from (14, 20) to (20.1, 20)
        ledge_body_id pl =
            body(w, v(14.55f + (float)i * 0.9f, 20), ledge_make_box(v(0, 0), v(0.4f, 0.05f)), 0.08);
        d = rope_between(prev, pl);
        d.anchor_a = i ? v(0.4f, 0) : v(14, 20);
        d.anchor_b = v(-0.4f, 0);
        d.length = 0.15f;
        joint(w, &d);
        prev = pl;
    }
    d = rope_between(prev, LEDGE_NULL_BODY_ID);
    d.anchor_a = v(0.4f, 0);
    d.anchor_b = v(19.9f, 20);
    d.length = 0.15f;
    joint(w, &d);
    body(w, v(16.5f, 21), ledge_make_box(v(0, 0), v(0.25f, 0.25f)), 0.5);
    ledge_body_id board = body(w, v(26, 3), ledge_make_box(v(0, 0), v(1, 0.1f)), 1); // spring board
    ledge_joint_def sp = ledge_default_spring_def();
    sp.anchor_a = v(26, 1);
    sp.body_b = board;
    sp.length = 2.0f;
    sp.hertz = 3.0f;
    joint(w, &sp);
    ledge_joint_def sl = ledge_default_slider_def();
    sl.anchor_a = v(26, 1);
    sl.body_b = board;
    sl.axis = v(0, 1);
    joint(w, &sl);
    body(w, v(26, 6), ledge_make_circle(v(0, 0), 0.3f), 1);
    ledge_body_id cart = body(w, v(34, 5), ledge_make_box(v(0, 0), v(1, 0.25f)), 2); // a cart
    ledge_joint_def motor = ledge_default_slider_def();
    motor.anchor_a = v(34, 5);
    motor.body_b = cart;
    motor.enable_limit = true;
    motor.lower = -3;
    motor.upper = 3;
    motor.enable_motor = true;
    motor.motor_speed = 2;
    motor.max_motor_force = 50;
    joint(w, &motor);
    ledge_body_id rider = body(w, v(34, 5.55f), ledge_make_box(v(0, 0), v(0.3f, 0.3f)), 1);
    ledge_joint_def weld = ledge_default_weld_def();
    weld.body_a = cart;
    weld.body_b = rider;
    weld.anchor_a = v(0, 0.55f);
    joint(w, &weld);
    ledge_body_id la = body(w, v(44, 10), ledge_make_box(v(0, 0), v(0.5f, 0.5f)), 3); // a lift
    ledge_body_id lb = body(w, v(48, 10), ledge_make_box(v(0, 0), v(0.5f, 0.5f)), 2);
    ledge_joint_def pu = ledge_default_pulley_def();
    pu.body_a = la;
    pu.body_b = lb;
    pu.ground_a = v(44, 15);
    pu.ground_b = v(48, 15);
    pu.length = 10;
    joint(w, &pu);
    ledge_body_def pd = ledge_default_body_def(); // a character on a rope
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    pd.position = v(54, 20);
    *player = ledge_body_create(w, &pd);
    assert_true(ledge_character_create(w, *player, NULL));
    ledge_joint_def hook = ledge_default_rope_def();
    hook.anchor_a = v(57, 24);
    hook.body_b = *player;
    hook.length = 5;
    joint(w, &hook);
    return w;
}

static void scene_frame(ledge_world *w, ledge_body_id player) {
    ledge_character_state s;
    assert_true(ledge_character_get_state(w, player, &s));
    assert_true(ledge_character_move(w, player, add(s.velocity, v(0, -10 * DT)), DT, &s));
    ledge_world_step(w, DT);
}

// The same hash after every step with 1 and 2 workers.
static void test_workers(void **state) {
    (void)state;
    ledge_body_id p1, p2;
    ledge_world *one = joint_scene(1, &p1), *two = joint_scene(2, &p2);
    for (int k = 0; k < 300; ++k) {
        scene_frame(one, p1);
        scene_frame(two, p2);
        if (ledge_world_hash(one) != ledge_world_hash(two)) fail_msg("hashes differ at step %d", k);
    }
    ledge_world_destroy(one);
    ledge_world_destroy(two);
}

// Saved at step 100 and restored at step 200, the world steps on as it did
// from step 100: the same hash, joint forces and character state at every
// step, the same snapshot bytes at the end; a restore into a fresh world
// of the same def does the same; the ids of the joints stay valid.
static void test_snapshot(void **state) {
    (void)state;
    ledge_body_id p;
    ledge_world *w = joint_scene(1, &p);
    for (int k = 0; k < 100; ++k) scene_frame(w, p);
    size_t size = ledge_world_snapshot_size(w);
    uint8_t *snap = malloc(size), *end1 = NULL, *end2 = NULL;
    assert_int_equal(ledge_world_save(w, snap, size), size);
    uint64_t hashes[100];
    vec2s forces[100];
    ledge_joint_id list[4];
    assert_int_equal(ledge_body_joints(w, p, list, 4), 1);
    for (int k = 0; k < 100; ++k) {
        scene_frame(w, p);
        hashes[k] = ledge_world_hash(w);
        forces[k] = ledge_joint_force(w, list[0]);
    }
    size_t end_size = ledge_world_snapshot_size(w);
    end1 = malloc(end_size);
    ledge_world_save(w, end1, end_size);
    for (int round = 0; round < 2; ++round) {
        // Round 1: a fresh world of the same def (its ids carry its own
        // serial number; the same calls made the same handles).
        ledge_body_id q = p;
        ledge_world *x = round == 0 ? w : joint_scene(1, &q);
        for (int k = 0; round == 1 && k < 7; ++k) scene_frame(x, q);
        assert_true(ledge_world_restore(x, snap, size));
        ledge_joint_id hook = list[0];
        if (round == 1) assert_int_equal(ledge_body_joints(x, q, &hook, 1), 1);
        assert_true(ledge_joint_is_valid(x, hook) && hook.index1 == list[0].index1);
        for (int k = 0; k < 100; ++k) {
            scene_frame(x, q);
            if (ledge_world_hash(x) != hashes[k])
                fail_msg("round %d: hash differs at %d", round, k);
            vec2s fo = ledge_joint_force(x, hook);
            if (fo.x != forces[k].x || fo.y != forces[k].y)
                fail_msg("round %d: force differs at %d", round, k);
        }
        assert_int_equal(ledge_world_snapshot_size(x), end_size);
        end2 = malloc(end_size);
        ledge_world_save(x, end2, end_size);
        assert_memory_equal(end1, end2, end_size);
        free(end2);
        if (round == 1) ledge_world_destroy(x);
    }
    free(snap);
    free(end1);
    ledge_world_destroy(w);
}

// --- debug draw ------------------------------------------------------------------

typedef struct drawn {
    int segments, anchors, springs, slack, joints_colour;
} drawn;

static void count_segment(vec2s a, vec2s b, ledge_color c, void *ctx) {
    (void)a, (void)b;
    drawn *d = ctx;
    d->segments++;
    d->springs += c == LEDGE_COLOR_SPRING;
    d->slack += c == LEDGE_COLOR_SLACK;
    d->joints_colour += c == LEDGE_COLOR_JOINT;
}

static void count_point(vec2s p, float size, ledge_color c, void *ctx) {
    (void)p, (void)size;
    drawn *d = ctx;
    d->anchors += c == LEDGE_COLOR_ANCHOR;
}

// The debug draw's joints: a segment from anchor to anchor (a pulley's
// three, a slider's axis besides), a point at each anchor, in the
// colours of draw.h; none with draw_joints off, none outside the region.
static void test_draw(void **state) {
    (void)state;
    frame f;
    ledge_world *w = world_in(0, &f);
    ledge_body_id a = ball(w, at(&f, 0, 0), 1), b = ball(w, at(&f, 1, 0), 1);
    ledge_joint_def d = rope_between(a, b);
    d.length = 3.0f; // slack
    joint(w, &d);
    ledge_joint_def sp = ledge_default_spring_def();
    sp.body_a = a;
    sp.body_b = b;
    joint(w, &sp);
    ledge_joint_def pu = ledge_default_pulley_def();
    pu.body_a = a;
    pu.body_b = b;
    pu.ground_a = at(&f, 0, 3);
    pu.ground_b = at(&f, 1, 3);
    pu.length = 10.0f;
    joint(w, &pu);
    ledge_joint_def sl = ledge_default_slider_def();
    sl.body_a = a;
    sl.body_b = b;
    joint(w, &sl);
    ledge_debug_draw dd = ledge_default_debug_draw();
    assert_true(dd.draw_joints);
    drawn n = {0, 0, 0, 0, 0};
    dd.draw_segment = count_segment;
    dd.draw_point = count_point;
    dd.context = &n;
    dd.draw_contacts = false;
    ledge_aabb all = {{{0, 0}}, {{64, 64}}};
    ledge_world_draw(w, &dd, all);
    // rope 1 (slack), spring 1, pulley 3, slider 1 + its axis 1.
    assert_int_equal(n.segments, 7);
    assert_int_equal(n.anchors, 8);
    assert_int_equal(n.springs, 1);
    assert_int_equal(n.slack, 2); // the slack rope and the slider's axis
    assert_int_equal(n.joints_colour, 4);
    memset(&n, 0, sizeof n);
    ledge_aabb far = {{{0, 0}}, {{1, 1}}};
    ledge_world_draw(w, &dd, far);
    assert_int_equal(n.segments, 0);
    dd.draw_joints = false;
    ledge_world_draw(w, &dd, all);
    assert_int_equal(n.segments + n.anchors, 0);
    ledge_world_destroy(w);
}

// --- the other rows -----------------------------------------------------------------

static void settle(ledge_world *w, int n) {
    for (int k = 0; k < n; ++k) ledge_world_step(w, DT);
}

// The rows the closed forms above do not reach: a soft weld (a spring in
// x and y: it sags by g / w^2 under its body's weight), a spring's hard
// max_length, a rope's min_length (it pushes), a slider locked (lower =
// upper), a pulley with a fixed side, a triangle of rods (a circle:
// swept), a body holding 40 ropes (more than one body's factorized
// joints: the rest swept), and a joint whose bodies do not move.
static void test_more_rows(void **state) {
    (void)state;
    frame f;
    for (int dir = 0; dir < 4; ++dir) {
        ledge_world *w = world_in(dir, &f);
        // A soft weld of 2 Hz holding 1 kg: it rests g / w^2 below its anchor
        // (within 1%: the step shifts its rest to the closed form's).
        ledge_body_id b = ball(w, at(&f, -20, 20), 1.0);
        ledge_joint_def wd = ledge_default_weld_def();
        wd.anchor_a = at(&f, -20, 20);
        wd.body_b = b;
        wd.hertz = 2.0f;
        wd.damping_ratio = 1.0f;
        joint(w, &wd);
        // A spring far too weak for its load, stopped by its max_length.
        ledge_body_id c = ball(w, at(&f, -15, 20), 1.0);
        ledge_joint_def sp = ledge_default_spring_def();
        sp.anchor_a = at(&f, -15, 21);
        sp.body_b = c;
        sp.hertz = 0.2f;
        sp.max_length = 1.5f;
        joint(w, &sp);
        // A rope whose min_length pushes a body pressed toward its anchor.
        ledge_body_id e = ball(w, at(&f, -10, 19.5f), 1.0);
        ledge_joint_def rp = ledge_default_rope_def();
        rp.anchor_a = at(&f, -10, 19);
        rp.body_b = e;
        rp.length = 2.0f;
        rp.min_length = 0.5f;
        joint(w, &rp);
        // A slider locked at 0.7 along up.
        ledge_body_id g = ball(w, at(&f, -5, 20), 1.0);
        ledge_joint_def sl = ledge_default_slider_def();
        sl.anchor_a = at(&f, -5, 20);
        sl.body_b = g;
        sl.axis = f.up;
        sl.enable_limit = true;
        sl.lower = sl.upper = 0.7f;
        joint(w, &sl);
        // A pulley from a fixed point to a body: a rope of length 3 (ratio 2:
        // 1.5 m of it).
        ledge_body_id h = ball(w, at(&f, 0, 15), 1.0);
        ledge_joint_def pu = ledge_default_pulley_def();
        pu.ground_a = at(&f, 0, 20);
        pu.anchor_a = at(&f, 0, 21); // 1 m from ground_a, for good
        pu.body_b = h;
        pu.ground_b = at(&f, 0, 20);
        pu.ratio = 2.0f;
        pu.length = 1.0f + 2.0f * 1.5f;
        ledge_joint_id pulley = joint(w, &pu);
        // A triangle of rods hanging from a rope: a circle among moving bodies.
        ledge_body_id t[3] = {ball(w, at(&f, 5, 18), 1.0), ball(w, at(&f, 6, 18), 1.0),
                              ball(w, at(&f, 5.5f, 18.866f), 1.0)};
        ledge_joint_id sides[3];
        for (int k = 0; k < 3; ++k) {
            ledge_joint_def rd = ledge_default_rod_def();
            rd.body_a = t[k];
            rd.body_b = t[(k + 1) % 3];
            sides[k] = joint(w, &rd);
        }
        ledge_joint_def hang = rope_between(LEDGE_NULL_BODY_ID, t[2]);
        hang.anchor_a = at(&f, 5.5f, 20);
        hang.length = 1.134f;
        joint(w, &hang);
        // A hub on 40 ropes from points around it.
        ledge_body_id hub = ball(w, at(&f, 12, 15), 5.0);
        ledge_joint_id spokes[40];
        for (int k = 0; k < 40; ++k) {
            ledge_joint_def rd = rope_between(LEDGE_NULL_BODY_ID, hub);
            rd.anchor_a = at(&f, 12 + (float)k * 0.05f - 1.0f, 17);
            rd.length = 2.1f;
            spokes[k] = joint(w, &rd);
        }
        // Two static bodies on a rod: nothing to solve, no force.
        ledge_body_def stat = ledge_default_body_def();
        stat.type = LEDGE_BODY_STATIC;
        stat.shape = ledge_make_circle(v(0, 0), 0.1f);
        stat.position = at(&f, 18, 20);
        ledge_body_id s1 = ledge_body_create(w, &stat);
        stat.position = at(&f, 19, 20);
        ledge_body_id s2 = ledge_body_create(w, &stat);
        ledge_joint_def still = ledge_default_rod_def();
        still.body_a = s1;
        still.body_b = s2;
        ledge_joint_id idle = joint(w, &still);

        settle(w, 300);
        double sag = fy(&f, at(&f, -20, 20)) - fy(&f, ledge_body_position(w, b));
        double wn = TWOPI * 2.0, want = G / (wn * wn);
        if (fabs(sag / want - 1) > 0.01)
            fail_msg("%s: the soft weld sags %g, closed form %g", DIRS[dir], sag, want);
        double cl = len(sub(ledge_body_position(w, c), sp.anchor_a));
        if (cl > 1.5 + 0.005) fail_msg("%s: the spring is %g past max_length 1.5", DIRS[dir], cl);
        double el = len(sub(ledge_body_position(w, e), rp.anchor_a));
        if (el < 0.5 - 0.005) fail_msg("%s: the rope is %g under min_length 0.5", DIRS[dir], el);
        double gl = dot(sub(ledge_body_position(w, g), sl.anchor_a), f.up);
        if (fabs(gl - 0.7) > 0.005) fail_msg("%s: the locked slider at %g", DIRS[dir], gl);
        double pl = ledge_joint_current_length(w, pulley);
        if (pl > pu.length + 0.005 || fabs(fy(&f, ledge_body_position(w, h)) - 18.5) > 0.01)
            fail_msg("%s: the pulley at %g, its body at %g", DIRS[dir], pl,
                     fy(&f, ledge_body_position(w, h)));
        for (int k = 0; k < 3; ++k) {
            if (fabs(ledge_joint_current_length(w, sides[k]) - 1.0) > 0.005)
                fail_msg("%s: the triangle's side %d is %g", DIRS[dir], k,
                         ledge_joint_current_length(w, sides[k]));
        }
        double worst = 0;
        for (int k = 0; k < 40; ++k) worst = fmax(worst, stretch(w, spokes[k]));
        if (worst > 0.005 || speed(w, hub) > 0.01)
            fail_msg("%s: the hub's ropes stretch %g, it moves at %g", DIRS[dir], worst,
                     speed(w, hub));
        vec2s fo = ledge_joint_force(w, idle);
        assert_true(fo.x == 0 && fo.y == 0);
        ledge_world_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pendulum),
        cmocka_unit_test(test_free_spin),
        cmocka_unit_test(test_spring),
        cmocka_unit_test(test_stiff_spring),
        cmocka_unit_test(test_weld),
        cmocka_unit_test(test_slider),
        cmocka_unit_test(test_slider_pair),
        cmocka_unit_test(test_motor),
        cmocka_unit_test(test_pulley),
        cmocka_unit_test(test_rope_slack),
        cmocka_unit_test(test_chains),
        cmocka_unit_test(test_bridges),
        cmocka_unit_test(test_create_refusals),
        cmocka_unit_test(test_call_refusals),
        cmocka_unit_test(test_collide_connected),
        cmocka_unit_test(test_destroyed_with_body),
        cmocka_unit_test(test_sleep_together),
        cmocka_unit_test(test_character_swing),
        cmocka_unit_test(test_character_swing_into_wall),
        cmocka_unit_test(test_workers),
        cmocka_unit_test(test_snapshot),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_more_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
