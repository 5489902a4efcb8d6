// Sleeping bodies (world.h, "Sleeping"), public API only: when a body falls
// asleep (the rest timer against its closed form, over gravity in four
// directions, three shapes, both response models, several rest times and
// step lengths), what a sleeping body keeps (position, contacts, ground
// state, no touch events), what wakes it (a hit, a lost support, a tile
// edit, a moving platform in eight directions, every setter), the
// refusals, and a sleeping pile against the same pile awake.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"
#include "scale.h"
#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static double speed(vec2s u) {
    return sqrt((double)u.x * u.x + (double)u.y * u.y);
}

// Gravity of magnitude 10 toward direction d (0 down, 1 up, 2 left, 3 right).
static vec2s gravity_toward(int d) {
    static const float g[4][2] = {{0, -10}, {0, 10}, {-10, 0}, {10, 0}};
    return v(g[d][0], g[d][1]);
}

// A size x size map walled on all four sides (so that every gravity has a
// floor).
static ledge_world *walled_world_of(ledge_world_def wd, int size) {
    ledge_world *w = scene_walled_world(wd, size);
    assert_non_null(w);
    return w;
}

static ledge_world *walled_world(ledge_world_def wd) {
    return walled_world_of(wd, 16);
}

static ledge_world_def sleepy_def(float sleep_time) {
    ledge_world_def wd = ledge_default_world_def();
    wd.enable_sleep = true;
    wd.sleep_time = sleep_time;
    return wd;
}

static ledge_shape shape_of(int kind) {
    if (kind == 0) return ledge_make_circle(v(0, 0), 0.4f);
    if (kind == 1) return ledge_make_box(v(0, 0), v(0.4f, 0.3f));
    const vec2s hexagon[6] = {{{0.4f, 0}},  {{0.2f, 0.35f}},   {{-0.2f, 0.35f}},
                              {{-0.4f, 0}}, {{-0.2f, -0.35f}}, {{0.2f, -0.35f}}};
    ledge_shape s;
    assert_true(ledge_make_polygon(hexagon, 6, &s));
    return s;
}

static ledge_body_id make_body(ledge_world *w, int kind, vec2s at, bool events) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = shape_of(kind);
    bd.position = at;
    bd.enable_events = events;
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_true(ledge_body_is_valid(w, id));
    return id;
}

static int count_end_events_of(ledge_world *w, ledge_body_id id) {
    ledge_touch_events t = ledge_world_touch_events(w);
    int n = 0;
    for (int k = 0; k < t.end_count; ++k) {
        n += memcmp(&t.end[k].a, &id, sizeof id) == 0 || memcmp(&t.end[k].b, &id, sizeof id) == 0;
    }
    return n;
}

// --- falling asleep --------------------------------------------------------

// One body dropped 0.3 m onto the floor of gravity direction d. The closed
// form: the rest timer adds dt after each step that ends with
// |v| <= sleep_speed, and restarts at 0 after any other; the body falls
// asleep at the end of the first step where the timer reaches sleep_time
// (its only contact is a tile, so nothing vetoes it). The rest times are
// chosen off the multiples of dt, so the float sum and this count agree.
static void schedule_case(int d, int kind, ledge_friction_law model, float sleep_time, float dt,
                          int *cases) {
    ledge_world_def wd = sleepy_def(sleep_time);
    wd.gravity = gravity_toward(d);
    wd.friction_law = model;
    ledge_world *w = walled_world(wd);
    vec2s g = gravity_toward(d);
    // Centre of the map, then 6.2 m along gravity: 0.3 m above the wall's face.
    vec2s at = v(8.0f + 0.62f * g.x, 8.0f + 0.62f * g.y);
    ledge_body_id id = make_body(w, kind, at, true);
    double rested = 0.0, s = (double)wd.sleep_speed;
    int asleep_at = -1, expected_at = -1;
    ledge_ground ground_before = {0};
    int contacts_before = 0;
    for (int k = 0; k < 600 && asleep_at < 0; ++k) {
        ledge_world_step(w, dt);
        vec2s u = ledge_body_velocity(w, id);
        bool awake = ledge_body_is_awake(w, id);
        if (!awake) {
            asleep_at = k;
            break;
        }
        rested = speed(u) <= s ? rested + (double)dt : 0.0;
        // Not asleep yet although the timer says so: wrong.
        if (rested >= (double)sleep_time + 1e-6) expected_at = expected_at < 0 ? k : expected_at;
        ground_before = ledge_body_ground(w, id);
        contacts_before = ledge_body_contacts(w, id, NULL, 0);
    }
    // The step where the oracle's timer crosses sleep_time is the step
    // after the last awake one: the body must fall asleep exactly then.
    if (expected_at >= 0 || asleep_at < 0) {
        fail_msg("gravity %d, shape %d, model %d, sleep_time %g, dt %g: still awake at step %d "
                 "(asleep at %d)",
                 d, kind, (int)model, (double)sleep_time, (double)dt, expected_at, asleep_at);
    }
    // The timer before the step it fell asleep in, plus dt, reaches sleep_time.
    vec2s u = ledge_body_velocity(w, id);
    assert_true(u.x == 0.0f && u.y == 0.0f);
    double last_timer = rested + (double)dt;
    if (!(last_timer >= (double)sleep_time - 1e-6 && rested < (double)sleep_time)) {
        fail_msg("gravity %d, shape %d, model %d, sleep_time %g, dt %g: asleep at step %d with a "
                 "rest of %g s",
                 d, kind, (int)model, (double)sleep_time, (double)dt, asleep_at, rested);
    }
    // Asleep: still, on the ground it stood on, its contacts kept, and no
    // touch ended because it fell asleep.
    vec2s p = ledge_body_position(w, id);
    assert_int_equal(count_end_events_of(w, id), 0);
    ledge_ground now = ledge_body_ground(w, id);
    assert_true(now.on_ground && ground_before.on_ground);
    assert_true(now.ground_normal.x == ground_before.ground_normal.x &&
                now.ground_normal.y == ground_before.ground_normal.y);
    assert_int_equal(ledge_body_contacts(w, id, NULL, 0), contacts_before);
    for (int k = 0; k < 30; ++k) {
        ledge_world_step(w, dt);
        assert_false(ledge_body_is_awake(w, id));
        assert_int_equal(count_end_events_of(w, id), 0);
    }
    vec2s q = ledge_body_position(w, id);
    assert_memory_equal(&p, &q, sizeof p);
    assert_true(ledge_body_ground(w, id).on_ground);
    ledge_world_destroy(w);
    ++*cases;
}

static void test_falls_asleep_on_schedule(void **state) {
    (void)state;
    static const float times[] = {0.11f, 0.26f, 0.51f, 1.01f};
    static const float dts[] = {1.0f / 60.0f, 1.0f / 120.0f};
    int cases = 0;
    for (int d = 0; d < 4; ++d)
        for (int kind = 0; kind < 3; ++kind)
            for (int m = 0; m < 2; ++m)
                for (int t = 0; t < 4; ++t)
                    for (int s = 0; s < 2; ++s)
                        schedule_case(d, kind, (ledge_friction_law)m, times[t], dts[s], &cases);
    print_message("%d cases: asleep at the step the rest timer's closed form says, then still, "
                  "grounded, contacts kept, no end events\n",
                  cases);
}

// A body that touches a body that has not rested long enough stays awake:
// a ball resting on a box that keeps being pushed sideways by the game.
// (Coulomb's friction law; earlier, a body resting on another kept a small
// downward velocity, above the sleep speed, so stacks of N's do not sleep.)
static void test_awake_neighbour_keeps_awake(void **state) {
    (void)state;
    ledge_world_def wd = sleepy_def(0.2f);
    wd.friction_law = LEDGE_FRICTION_COULOMB;
    ledge_world *w = walled_world(wd);
    ledge_body_id box = make_body(w, 1, v(8.0f, 1.3f), false);
    ledge_body_id ball = make_body(w, 0, v(8.0f, 2.0f), false);
    for (int k = 0; k < 120; ++k) {
        // The box is shaken at 0.5 m/s, far above the sleep speed.
        if (k >= 30) assert_true(ledge_body_set_velocity(w, box, v(k % 2 ? 0.5f : -0.5f, 0)));
        ledge_world_step(w, 1.0f / 60.0f);
        if (k >= 60) assert_true(ledge_body_is_awake(w, ball));
    }
    // Stopped and left alone, both fall asleep together.
    assert_true(ledge_body_set_velocity(w, box, v(0, 0)));
    for (int k = 0; k < 60; ++k) ledge_world_step(w, 1.0f / 60.0f);
    assert_false(ledge_body_is_awake(w, box));
    assert_false(ledge_body_is_awake(w, ball));
    ledge_world_destroy(w);
}

// Every tile (1 .. 33) as the cell a body lands on, for a circle and a
// box, with gravity down and up (the tile's top or underside is its
// floor), under Coulomb's law with friction 1: the same drop in a world
// that cannot sleep is the oracle. Where the awake body ends at rest (its
// speed under the sleep speed for the last second), the sleeping world's
// body must be asleep, on the ground as the awake one is, and within 1 mm
// of it; where it does not rest, both end within 1 mm too (sleeping never
// stops a moving body).
static void test_every_tile_as_a_floor(void **state) {
    (void)state;
    int asleep = 0, cases = 0;
    for (int tile = 1; tile < LEDGE_TILE_COUNT; ++tile) {
        for (int up = 0; up < 2; ++up) {
            for (int kind = 0; kind < 2; ++kind) {
                vec2s end[2];
                bool rest = true, ground[2] = {false, false}, awake_at_end = true;
                for (int sleeping = 0; sleeping < 2; ++sleeping) {
                    ledge_world_def wd = sleepy_def(0.5f);
                    wd.enable_sleep = sleeping;
                    wd.friction_law = LEDGE_FRICTION_COULOMB;
                    wd.gravity = gravity_toward(up ? 1 : 0);
                    ledge_world *w = walled_world(wd);
                    ledge_tilemap *m = ledge_world_tilemap(w);
                    int cy = up ? 11 : 4, below = up ? 12 : 3;
                    assert_true(ledge_tilemap_set(m, 8, cy, (ledge_tile)tile));
                    assert_true(ledge_tilemap_set(m, 8, below, LEDGE_TILE_FULL));
                    ledge_body_def bd = ledge_default_body_def();
                    bd.shape = kind == 0 ? ledge_make_circle(v(0, 0), 0.3f)
                                         : ledge_make_box(v(0, 0), v(0.3f, 0.25f));
                    bd.friction = 1.0f;
                    bd.position = v(8.5f, up ? 10.0f : 6.0f);
                    ledge_body_id id = ledge_body_create(w, &bd);
                    for (int k = 0; k < 360; ++k) {
                        ledge_world_step(w, 1.0f / 60.0f);
                        if (!sleeping && k >= 300)
                            rest &= speed(ledge_body_velocity(w, id)) <= 0.05;
                    }
                    end[sleeping] = ledge_body_position(w, id);
                    ground[sleeping] = ledge_body_ground(w, id).on_ground;
                    if (sleeping) awake_at_end = ledge_body_is_awake(w, id);
                    ledge_world_destroy(w);
                }
                double d = speed(v(end[1].x - end[0].x, end[1].y - end[0].y));
                if (!(d < 1e-3) || (rest && (awake_at_end || ground[1] != ground[0]))) {
                    fail_msg("tile %d (%s), gravity %s, %s: %g m from the awake world's end; "
                             "rests %d, asleep %d, ground %d / %d",
                             tile, ledge_tile_name((ledge_tile)tile), up ? "up" : "down",
                             kind ? "box" : "circle", d, rest, !awake_at_end, ground[1], ground[0]);
                }
                asleep += !awake_at_end;
                ++cases;
            }
        }
    }
    print_message("%d drops on every tile, gravity down and up: %d asleep at the end, each "
                  "within 1 mm of the same drop that cannot sleep\n",
                  cases, asleep);
}

// --- waking ----------------------------------------------------------------

// A ball thrown at a box: the box asleep in one world, awake (the world
// cannot sleep) in the other. The hit wakes the box in the substep it
// lands, before the projection, so the box moves the same way in both.
static void test_hit_moves_a_sleeper_as_an_awake_body(void **state) {
    (void)state;
    static const float throws[][2] = {{4, 0}, {-4, 0}, {3, 3}, {-3, 3}, {0, -6}, {2, -5}};
    int cases = 0;
    for (int t = 0; t < 6; ++t) {
        for (int kind = 0; kind < 3; ++kind) {
            vec2s box_at[2], ball_at[2];
            for (int sleeping = 0; sleeping < 2; ++sleeping) {
                ledge_world_def wd = sleepy_def(0.25f);
                wd.enable_sleep = sleeping;
                ledge_world *w = walled_world(wd);
                ledge_body_id box = make_body(w, kind, v(8.0f, 1.45f), false);
                for (int k = 0; k < 60; ++k) ledge_world_step(w, 1.0f / 60.0f);
                assert_int_equal(ledge_body_is_awake(w, box), !sleeping);
                vec2s dir = v(throws[t][0], throws[t][1]);
                double n = speed(dir);
                vec2s from = v(8.0f - 1.2f * (float)(dir.x / n), 1.45f - 1.2f * (float)(dir.y / n));
                if (from.y < 1.45f) from.y = 1.45f; // above the floor
                ledge_body_def bd = ledge_default_body_def();
                bd.shape = ledge_make_circle(v(0, 0), 0.2f);
                bd.position = from;
                bd.velocity = dir;
                ledge_body_id ball = ledge_body_create(w, &bd);
                bool woke = false;
                for (int k = 0; k < 40; ++k) {
                    ledge_world_step(w, 1.0f / 60.0f);
                    woke |= ledge_body_is_awake(w, box);
                }
                assert_true(woke);
                box_at[sleeping] = ledge_body_position(w, box);
                ball_at[sleeping] = ledge_body_position(w, ball);
                ledge_world_destroy(w);
            }
            // The resting box of the awake world sits where the sleeper
            // froze to within the rounding of a few steps of rest; the hit
            // then moves both alike.
            double db = speed(v(box_at[1].x - box_at[0].x, box_at[1].y - box_at[0].y));
            double dl = speed(v(ball_at[1].x - ball_at[0].x, ball_at[1].y - ball_at[0].y));
            if (!(db < 1e-3 && dl < 1e-3)) {
                fail_msg("throw %d, shape %d: the sleeping box ends %g m and the ball %g m from "
                         "the awake world's",
                         t, kind, db, dl);
            }
            ++cases;
        }
    }
    print_message("%d throws at a sleeping box: it woke, and it and the ball end within 1 mm of "
                  "the same throw at an awake box\n",
                  cases);
}

// Box b asleep on box a asleep on the floor; taking a away (destroyed,
// teleported, or its floor tile removed) wakes b, which falls to the floor.
static void test_lost_support_wakes(void **state) {
    (void)state;
    for (int how = 0; how < 3; ++how) {
        ledge_world_def wd = sleepy_def(0.2f);
        wd.friction_law = LEDGE_FRICTION_COULOMB; // N's boxes do not stack
        ledge_world *w = walled_world(wd);
        ledge_tilemap *m = ledge_world_tilemap(w);
        // A ledge of one tile at (8, 5) holds a; b stands on a.
        assert_true(ledge_tilemap_set(m, 8, 5, LEDGE_TILE_FULL));
        ledge_body_id a = make_body(w, 1, v(8.5f, 6.32f), false);
        ledge_body_id b = make_body(w, 1, v(8.5f, 6.95f), false);
        for (int k = 0; k < 60; ++k) ledge_world_step(w, 1.0f / 60.0f);
        assert_false(ledge_body_is_awake(w, a));
        assert_false(ledge_body_is_awake(w, b));
        if (how == 0) ledge_body_destroy(w, a);
        if (how == 1) assert_true(ledge_body_set_position(w, a, v(3.0f, 1.4f)));
        if (how == 2) {
            assert_true(ledge_tilemap_set(m, 8, 5, LEDGE_TILE_EMPTY));
            // a rests on nothing now; the edit wakes it at the next step.
        }
        if (how < 2) assert_true(ledge_body_is_awake(w, b)); // woken by the call itself
        for (int k = 0; k < 120; ++k) ledge_world_step(w, 1.0f / 60.0f);
        vec2s p = ledge_body_position(w, b);
        // Destroyed or teleported, a leaves b to fall onto the ledge (its
        // top at y = 6, b's centre 0.3 above it); without the ledge both
        // fall to the floor (row 0's top at y = 1).
        float want = how < 2 ? 6.31f : 2.7f;
        if (!(p.y < want)) fail_msg("case %d: b still at y = %g", how, (double)p.y);
        ledge_world_destroy(w);
    }
}

// --- tile edits wake the sleepers near them ------------------------------

enum { ROW_BODIES = 12 }; // bodies on the ledge, one per cell from x = 2

// A ledge of FULL tiles (row 5 for gravity down, row 10 for gravity up:
// the bodies on the side gravity presses them against) with one body per
// cell, circle, box and hexagon in turn, left to fall asleep.
static ledge_world *sleeping_ledge(int up, ledge_body_id ids[ROW_BODIES], int *row) {
    ledge_world_def wd = sleepy_def(0.2f);
    wd.gravity = gravity_toward(up);
    wd.friction_law = LEDGE_FRICTION_COULOMB;
    ledge_world *w = walled_world(wd);
    ledge_tilemap *m = ledge_world_tilemap(w);
    *row = up ? 10 : 5;
    for (int x = 2; x < 2 + ROW_BODIES; ++x)
        assert_true(ledge_tilemap_set(m, x, *row, LEDGE_TILE_FULL));
    float y = up ? 9.62f : 6.38f;
    for (int k = 0; k < ROW_BODIES; ++k) ids[k] = make_body(w, k % 3, v(2.5f + (float)k, y), false);
    for (int k = 0; k < 90; ++k) ledge_world_step(w, 1.0f / 60.0f);
    for (int k = 0; k < ROW_BODIES; ++k) assert_false(ledge_body_is_awake(w, ids[k]));
    return w;
}

// The ledge's cell under body 5 (x = 7) gets tile `tile` (or, for tile < 0,
// the one-way setting -tile - 1) in two worlds: in one the edit wakes what
// it wakes, in the other the game wakes every body as well (the behaviour
// of waking every sleeper on an edit, the oracle). The edit wakes no body
// two or more cells away (a body it wakes may roll on and wake others);
// a body that never woke did not move a bit, and 120 steps later every
// body stands where the oracle's does, within the slop. Returns how many
// bodies the edit woke.
static int edit_case(int up, int tile) {
    ledge_body_id a[ROW_BODIES], b[ROW_BODIES];
    int row;
    ledge_world *wa = sleeping_ledge(up, a, &row);
    ledge_world *wb = sleeping_ledge(up, b, &row);
    vec2s before[ROW_BODIES];
    for (int k = 0; k < ROW_BODIES; ++k) before[k] = ledge_body_position(wa, a[k]);
    ledge_world *both[2] = {wa, wb};
    for (int which = 0; which < 2; ++which) {
        ledge_tilemap *m = ledge_world_tilemap(both[which]);
        if (tile >= 0) assert_true(ledge_tilemap_set(m, 7, row, (ledge_tile)tile));
        if (tile < 0) assert_true(ledge_tilemap_set_one_way(m, 7, row, (ledge_one_way)(-tile - 1)));
    }
    for (int k = 0; k < ROW_BODIES; ++k) assert_true(ledge_body_set_awake(wb, b[k], true));
    bool woke[ROW_BODIES] = {false}, ever[ROW_BODIES] = {false};
    for (int s = 0; s < 120; ++s) {
        ledge_world_step(wa, 1.0f / 60.0f);
        ledge_world_step(wb, 1.0f / 60.0f);
        for (int k = 0; k < ROW_BODIES; ++k) {
            if (s == 0) woke[k] = ledge_body_is_awake(wa, a[k]);
            ever[k] |= ledge_body_is_awake(wa, a[k]);
        }
    }
    int woken = 0;
    for (int k = 0; k < ROW_BODIES; ++k) {
        vec2s pa = ledge_body_position(wa, a[k]), pb = ledge_body_position(wb, b[k]);
        double off = speed(v(pa.x - pb.x, pa.y - pb.y));
        if (!(off <= 0.005)) {
            fail_msg("gravity %s, tile %d: body %d at (%g, %g), %g m from where it is when every "
                     "body wakes",
                     up ? "up" : "down", tile, k, (double)pa.x, (double)pa.y, off);
        }
        woken += woke[k];
        if (abs(k - 5) >= 2 && woke[k]) {
            fail_msg("gravity %s, tile %d: body %d, %d cells from the edit, woke",
                     up ? "up" : "down", tile, k, abs(k - 5));
        }
        // (A body the edit woke may roll into others and wake them.)
        if (!ever[k] && memcmp(&pa, &before[k], sizeof pa) != 0) {
            fail_msg("gravity %s, tile %d: body %d moved asleep", up ? "up" : "down", tile, k);
        }
    }
    ledge_world_destroy(wa);
    ledge_world_destroy(wb);
    return woken;
}

// Sleepers whose filters hide them from the default queries (no first
// mask bit, category 0, a negative group, a mask of nothing) still rest
// on tiles, so an edit that empties the tile under them, or a platform
// that comes to them, must wake them: the wake's search of the queries'
// index used to skip the bodies the default filter does not see (found by
// fuzz_world). Under each gravity, a crate on a one-tile ledge for each
// filter; the ledge is emptied, and each crate must fall.
static void test_edit_wakes_filtered_sleepers(void **state) {
    (void)state;
    const ledge_filter filters[] = {
        {1, ~(uint64_t)0, 0}, {1, 2, 0}, {0, ~(uint64_t)0, 0}, {1, ~(uint64_t)0, -1}, {2, 0, 0}};
    enum { FILTERS = sizeof filters / sizeof filters[0] };
    for (int d = 0; d < 4; ++d) {
        for (int f = 0; f < FILTERS; ++f) {
            ledge_world_def wd = sleepy_def(0.1f);
            wd.gravity = gravity_toward(d);
            ledge_world *w = walled_world(wd);
            vec2s g = gravity_toward(d), up = v(-g.x / 10.0f, -g.y / 10.0f);
            // The ledge: the tile 3 cells from the centre against gravity.
            int lx = 8 + (int)(3.0f * up.x), ly = 8 + (int)(3.0f * up.y);
            assert_true(ledge_tilemap_set(ledge_world_tilemap(w), lx, ly, LEDGE_TILE_FULL));
            ledge_body_def bd = ledge_default_body_def();
            bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
            bd.filter = filters[f];
            bd.position = v((float)lx + 0.5f + 0.81f * up.x, (float)ly + 0.5f + 0.81f * up.y);
            ledge_body_id b = ledge_body_create(w, &bd);
            assert_true(ledge_body_is_valid(w, b));
            for (int k = 0; k < 120 && ledge_body_is_awake(w, b); ++k)
                ledge_world_step(w, 1.0f / 60.0f);
            assert_false(ledge_body_is_awake(w, b));
            vec2s at = ledge_body_position(w, b);
            assert_true(ledge_tilemap_set(ledge_world_tilemap(w), lx, ly, LEDGE_TILE_EMPTY));
            for (int k = 0; k < 30; ++k) ledge_world_step(w, 1.0f / 60.0f);
            vec2s now = ledge_body_position(w, b);
            float fell = (now.x - at.x) * g.x / 10.0f + (now.y - at.y) * g.y / 10.0f;
            if (!(fell > 0.5f))
                fail_msg("gravity %d, filter %d: the crate fell %g m after its ledge went", d, f,
                         (double)fell);
            ledge_world_destroy(w);
        }
    }
}

// A contact is found where the body is in the substep, before the push
// out of the overlap, so a body that falls asleep in the step that pushed
// it far can hold a contact with a cell out of reach of its box (found by
// fuzz_world: a bullet circle made deep in the floor, pushed up onto a
// pillar, kept a contact with the floor cell it left; the cell was
// emptied, and the sleeper kept the contact). The scene: a 20 x 12 map,
// a floor and a two-cell pillar at x = 2 (FULL on a quarter disc, or on
// FULL), gravity down and up (the map mirrored), a circle of radius 2.5
// made overlapping the floor at a grid of places, bullet or not, both
// response models, sleep_time 0 and a first step of 0.5 s. For each tile
// cell the sleeper holds a contact with, two copies of the world: one has
// the cell emptied, the other as well and the body woken by the game. The
// edit must act as the game's wake: the same bits for 30 steps.
enum { FAR_W = 20, FAR_H = 12 };

static ledge_world *far_world(int up, int pillar, ledge_friction_law model, bool bullet, vec2s at,
                              ledge_body_id *id) {
    ledge_world_def wd = sleepy_def(0.0f);
    wd.gravity = gravity_toward(up);
    wd.map_width = FAR_W;
    wd.map_height = FAR_H;
    wd.cell_size = 1.0f;
    wd.iterations = 5;
    wd.substeps = 1;
    wd.friction_law = model;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_tilemap *m = ledge_world_tilemap(w);
    // Row r from the floor's side (mirrored for gravity up).
    int r0 = up ? FAR_H - 1 : 0, dr = up ? -1 : 1;
    for (int x = 0; x < FAR_W; ++x) assert_true(ledge_tilemap_set(m, x, r0, LEDGE_TILE_FULL));
    ledge_tile disc = up ? LEDGE_TILE_CONVEX_NN : LEDGE_TILE_CONVEX_NP;
    assert_true(ledge_tilemap_set(m, 2, r0 + dr, pillar ? disc : LEDGE_TILE_FULL));
    assert_true(ledge_tilemap_set(m, 2, r0 + 2 * dr, LEDGE_TILE_FULL));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(2.5f, 0.0f), 2.5f);
    bd.position = up ? v(at.x, (float)FAR_H - at.y) : at;
    bd.velocity = v(0.625f, up ? -0.625f : 0.625f);
    bd.friction = bd.bounce = 0.02f;
    bd.bullet = bullet;
    *id = ledge_body_create(w, &bd);
    assert_true(ledge_body_is_valid(w, *id));
    ledge_world_step(w, 0.5f);
    return w;
}

static void test_edit_wakes_sleepers_holding_its_cell(void **state) {
    (void)state;
    int cases = 0, far = 0;
    for (int up = 0; up < 2; ++up)
        for (int pillar = 0; pillar < 2; ++pillar)
            for (int model = 0; model < 2; ++model)
                for (int bullet = 0; bullet < 2; ++bullet)
                    for (int xi = 0; xi < 7; ++xi)
                        for (int yi = 0; yi < 5; ++yi) {
                            vec2s at = v(-1.1f + 0.5f * (float)xi, -0.76f + 0.5f * (float)yi);
                            ledge_body_id id;
                            ledge_world *w =
                                far_world(up, pillar, (ledge_friction_law)model, bullet, at, &id);
                            ledge_contact_data c[16];
                            int n = ledge_body_contacts(w, id, c, 16);
                            assert_in_range(n, 0, 16);
                            bool asleep = !ledge_body_is_awake(w, id);
                            vec2s p = ledge_body_position(w, id);
                            ledge_world_destroy(w);
                            for (int k = 0; asleep && k < n; ++k) {
                                ledge_body_id none = LEDGE_NULL_BODY_ID;
                                if (memcmp(&c[k].other, &none, sizeof none) != 0)
                                    continue; // a body (there is none)
                                int cx = c[k].cell_x, cy = c[k].cell_y;
                                if (cx < 0 || cy < 0 || cx >= FAR_W || cy >= FAR_H)
                                    continue; // (never edited)
                                // Out of reach: a cell beyond the box's next cell.
                                float gx = fmaxf((float)cx - (p.x + 5.0f), p.x - (float)(cx + 1));
                                float gy =
                                    fmaxf((float)cy - (p.y + 2.5f), (p.y - 2.5f) - (float)(cy + 1));
                                far += gx > 1.0f || gy > 1.0f;
                                ledge_body_id ids[2];
                                ledge_world *ws[2];
                                for (int which = 0; which < 2; ++which) {
                                    ws[which] = far_world(up, pillar, (ledge_friction_law)model,
                                                          bullet, at, &ids[which]);
                                    assert_true(ledge_tilemap_set(ledge_world_tilemap(ws[which]),
                                                                  cx, cy, LEDGE_TILE_EMPTY));
                                }
                                assert_true(ledge_body_set_awake(ws[1], ids[1], true));
                                for (int s = 0; s < 30; ++s) {
                                    ledge_world_step(ws[0], 1.0f / 60.0f);
                                    ledge_world_step(ws[1], 1.0f / 60.0f);
                                    vec2s p0 = ledge_body_position(ws[0], ids[0]);
                                    vec2s p1 = ledge_body_position(ws[1], ids[1]);
                                    if (memcmp(&p0, &p1, sizeof p0) != 0 ||
                                        ledge_world_hash(ws[0]) != ledge_world_hash(ws[1])) {
                                        fail_msg("gravity %s, pillar %d, model %d, bullet %d, "
                                                 "made at (%g, %g), cell (%d, %d) emptied: after "
                                                 "step %d the body is at (%g, %g), woken by the "
                                                 "game at (%g, %g)",
                                                 up ? "up" : "down", pillar, model, bullet,
                                                 (double)at.x, (double)at.y, cx, cy, s + 1,
                                                 (double)p0.x, (double)p0.y, (double)p1.x,
                                                 (double)p1.y);
                                    }
                                }
                                ledge_world_destroy(ws[0]);
                                ledge_world_destroy(ws[1]);
                                ++cases;
                            }
                        }
    print_message("%d edits of a cell a sleeper held a contact with (%d out of reach of its box): "
                  "each acted as the game's wake\n",
                  cases, far);
    assert_true(far > 0);
}

// Every tile id, and every one-way setting, put under a sleeping body of a
// ledge, with gravity down and up: only the bodies near the cell wake, and
// the ledge ends as it does when every body wakes.
static void test_edit_wakes_near_sleepers(void **state) {
    (void)state;
    int cases = 0, fell = 0;
    for (int up = 0; up < 2; ++up) {
        for (int tile = -5; tile < LEDGE_TILE_COUNT; ++tile) {
            int woken = edit_case(up, tile);
            // The body on the edited cell wakes, and so do its neighbours
            // (their boxes come within the margin of the cell).
            if (woken < 1 || woken > 3) {
                fail_msg("gravity %s, tile %d: %d bodies woke (1 to 3 expected)",
                         up ? "up" : "down", tile, woken);
            }
            fell += tile == LEDGE_TILE_EMPTY;
            ++cases;
        }
    }
    print_message("%d edits: only the bodies within the margin of the cell woke, every body within "
                  "the slop of the oracle's\n",
                  cases);
    assert_int_equal(fell, 2);
}

// The map remembers its last 64 edits by cell: 64 edits far from the
// sleepers between two steps wake none of them, one more wakes them all.
static void test_many_edits_wake_all(void **state) {
    (void)state;
    for (int edits = 63; edits <= 65; ++edits) {
        ledge_body_id ids[ROW_BODIES];
        int row;
        ledge_world *w = sleeping_ledge(0, ids, &row);
        ledge_tilemap *m = ledge_world_tilemap(w);
        for (int k = 0; k < edits; ++k) {
            // Cells of rows 11..13, far above the ledge (row 5).
            assert_true(ledge_tilemap_set(m, 1 + k % 14, 11 + (k / 14) % 3,
                                          k % 2 ? LEDGE_TILE_FULL : LEDGE_TILE_EMPTY));
        }
        ledge_world_step(w, 1.0f / 60.0f);
        int awake = 0;
        for (int k = 0; k < ROW_BODIES; ++k) awake += ledge_body_is_awake(w, ids[k]);
        assert_int_equal(awake, edits <= 64 ? 0 : ROW_BODIES);
        ledge_world_destroy(w);
    }
}

// A crate asleep on the floor is moved up by the game and put to sleep
// again at once, then woken: it has no contact where it was, so its first
// step is a free fall, bit for bit the same as that of a crate moved there
// that never slept. (Its old contacts, held, would have cancelled it.)
static void test_put_to_sleep_after_a_move(void **state) {
    (void)state;
    for (int kind = 0; kind < 3; ++kind) {
        ledge_world *w[2];
        ledge_body_id id[2];
        for (int which = 0; which < 2; ++which) {
            w[which] = walled_world(sleepy_def(0.2f));
            id[which] = make_body(w[which], kind, v(8.0f, 1.5f), false);
            for (int k = 0; k < 60; ++k) ledge_world_step(w[which], 1.0f / 60.0f);
            assert_false(ledge_body_is_awake(w[which], id[which]));
            assert_true(ledge_body_set_position(w[which], id[which], v(8.0f, 5.0f)));
        }
        assert_true(ledge_body_set_awake(w[0], id[0], false));
        assert_int_equal(ledge_body_contacts(w[0], id[0], NULL, 0), 0);
        assert_true(ledge_body_set_awake(w[0], id[0], true));
        for (int k = 0; k < 3; ++k) {
            ledge_world_step(w[0], 1.0f / 60.0f);
            ledge_world_step(w[1], 1.0f / 60.0f);
            vec2s p0 = ledge_body_position(w[0], id[0]), p1 = ledge_body_position(w[1], id[1]);
            assert_true(p0.y < 5.0f);
            assert_memory_equal(&p0, &p1, sizeof p0);
        }
        ledge_world_destroy(w[0]);
        ledge_world_destroy(w[1]);
    }
}

// An awake crate on a static slab; the game moves the slab away and puts
// the crate to sleep before the next step: the crate keeps no contact with
// the slab where it was (it would read as on the ground in mid-air).
static void test_put_to_sleep_after_its_support_moved(void **state) {
    (void)state;
    ledge_world_def wd = sleepy_def(10.0f); // it does not fall asleep by itself
    ledge_world *w = walled_world(wd);
    ledge_body_def sd = ledge_default_body_def();
    sd.type = LEDGE_BODY_STATIC;
    sd.shape = ledge_make_box(v(0, 0), v(1.0f, 0.2f));
    sd.position = v(8.0f, 6.0f);
    ledge_body_id slab = ledge_body_create(w, &sd);
    ledge_body_id crate = make_body(w, 1, v(8.0f, 6.55f), false);
    for (int k = 0; k < 30; ++k) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_is_awake(w, crate));
    assert_true(ledge_body_ground(w, crate).on_ground);
    assert_true(ledge_body_set_position(w, slab, v(3.0f, 3.0f)));
    assert_true(ledge_body_set_awake(w, crate, false));
    assert_int_equal(ledge_body_contacts(w, crate, NULL, 0), 0);
    assert_false(ledge_body_ground(w, crate).on_ground);
    ledge_world_destroy(w);
}

// A level built tile by tile (more edits than the map remembers), then
// crates put to sleep where they rest before the first step: they stay
// asleep, until an edit next to one wakes that one alone.
static void test_crates_put_to_sleep_after_the_level_is_built(void **state) {
    (void)state;
    ledge_world *w = walled_world(sleepy_def(0.5f)); // 64 edits: the walls
    ledge_tilemap *m = ledge_world_tilemap(w);
    for (int x = 1; x < 15; ++x) assert_true(ledge_tilemap_set(m, x, 1, LEDGE_TILE_FULL));
    ledge_body_id crate[3];
    for (int k = 0; k < 3; ++k) {
        crate[k] = make_body(w, 1, v(3.5f + 4.0f * (float)k, 2.3f), false);
        assert_true(ledge_body_set_awake(w, crate[k], false));
    }
    for (int s = 0; s < 10; ++s) {
        ledge_world_step(w, 1.0f / 60.0f);
        for (int k = 0; k < 3; ++k) assert_false(ledge_body_is_awake(w, crate[k]));
    }
    assert_true(ledge_tilemap_set(m, 7, 1, LEDGE_TILE_EMPTY)); // under crate 1
    ledge_world_step(w, 1.0f / 60.0f);
    for (int k = 0; k < 3; ++k) assert_int_equal(ledge_body_is_awake(w, crate[k]), k == 1);
    ledge_world_destroy(w);
}

// A crate asleep on a kinematic platform; the platform sets off in one of
// eight directions at 1 m/s. The crate wakes (the platform's swept box
// reaches it before the step) and is carried or pushed: it moves along.
static void test_moving_platform_wakes(void **state) {
    (void)state;
    for (int dir = 0; dir < 8; ++dir) {
        ledge_world *w = walled_world(sleepy_def(0.2f));
        ledge_body_def pd = ledge_default_body_def();
        pd.type = LEDGE_BODY_KINEMATIC;
        pd.shape = ledge_make_box(v(0, 0), v(1.5f, 0.2f));
        pd.position = v(8.0f, 6.0f);
        ledge_body_id plat = ledge_body_create(w, &pd);
        ledge_body_def cd = ledge_default_body_def();
        cd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
        cd.position = v(8.0f, 6.52f);
        cd.friction = 1.0f;
        ledge_body_id crate = ledge_body_create(w, &cd);
        for (int k = 0; k < 60; ++k) ledge_world_step(w, 1.0f / 60.0f);
        assert_false(ledge_body_is_awake(w, crate));
        vec2s before = ledge_body_position(w, crate);
        double a = dir * 3.14159265358979 / 4.0;
        vec2s vel = v((float)cos(a), (float)sin(a));
        assert_true(ledge_body_set_velocity(w, plat, vel));
        ledge_world_step(w, 1.0f / 60.0f);
        assert_true(ledge_body_is_awake(w, crate));
        for (int k = 0; k < 29; ++k) ledge_world_step(w, 1.0f / 60.0f);
        vec2s after = ledge_body_position(w, crate);
        // Half a second at 1 m/s: the crate moved with the platform by
        // more than a quarter of that along its direction (friction 1
        // carries it; a platform moving down leaves it to fall after it).
        double along = (after.x - before.x) * vel.x + (after.y - before.y) * vel.y;
        if (!(along > 0.125)) {
            fail_msg("direction %d: the crate moved %g m along the platform's 0.5 m", dir, along);
        }
        ledge_world_destroy(w);
    }
}

// Every setter that changes how a body moves wakes it.
static void test_setters_wake(void **state) {
    (void)state;
    for (int which = 0; which < 8; ++which) {
        ledge_world *w = walled_world(sleepy_def(0.2f));
        ledge_body_id id = make_body(w, 1, v(8.0f, 1.32f), false);
        for (int k = 0; k < 40; ++k) ledge_world_step(w, 1.0f / 60.0f);
        assert_false(ledge_body_is_awake(w, id));
        float mass = ledge_body_mass(w, id);
        assert_true(mass > 0.0f); // its mass is kept while it sleeps
        bool ok = false;
        switch (which) {
        case 0:
            ok = ledge_body_set_velocity(w, id, v(1, 0));
            break;
        case 1:
            ok = ledge_body_set_position(w, id, v(9, 1.4f));
            break;
        case 2: {
            ok = ledge_body_apply_impulse(w, id, v(mass * 2.0f, 0));
            vec2s u = ledge_body_velocity(w, id);
            assert_true(fabsf(u.x - 2.0f) < 1e-5f); // impulse / the kept mass
            break;
        }
        case 3:
            ok = ledge_body_set_gravity_scale(w, id, 0.5f);
            break;
        case 4:
            ok = ledge_body_set_filter(w, id, ledge_default_filter());
            break;
        case 5:
            ok = ledge_body_drop_through(w, id);
            break;
        case 6:
            ok = ledge_body_set_awake(w, id, true);
            break;
        default: {
            // Not a waking setter: friction leaves it asleep.
            ok = ledge_body_set_friction(w, id, 0.2f);
            assert_true(ok);
            assert_false(ledge_body_is_awake(w, id));
            ledge_world_destroy(w);
            continue;
        }
        }
        assert_true(ok);
        assert_true(ledge_body_is_awake(w, id));
        ledge_world_destroy(w);
    }
}

// --- the API ---------------------------------------------------------------

static void test_set_awake_and_refusals(void **state) {
    (void)state;
    ledge_world *w = walled_world(sleepy_def(0.5f));
    ledge_body_id ball = make_body(w, 0, v(8.0f, 5.0f), false);
    ledge_world_step(w, 1.0f / 60.0f);
    // Put to sleep in mid-air: it stays there, still, until woken.
    assert_true(ledge_body_set_awake(w, ball, false));
    assert_false(ledge_body_is_awake(w, ball));
    vec2s p = ledge_body_position(w, ball), u = ledge_body_velocity(w, ball);
    assert_true(u.x == 0.0f && u.y == 0.0f);
    for (int k = 0; k < 30; ++k) ledge_world_step(w, 1.0f / 60.0f);
    vec2s q = ledge_body_position(w, ball);
    assert_memory_equal(&p, &q, sizeof p);
    assert_true(ledge_body_set_awake(w, ball, true));
    for (int k = 0; k < 30; ++k) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_position(w, ball).y < p.y - 0.5f);

    // Refusals, each with one sentence.
    ledge_body_def sd = ledge_default_body_def();
    sd.type = LEDGE_BODY_STATIC;
    sd.shape = ledge_make_box(v(0, 0), v(1, 0.2f));
    sd.position = v(4, 8);
    ledge_body_id wall = ledge_body_create(w, &sd);
    log_capture_start();
    assert_false(ledge_body_set_awake(w, wall, false));
    assert_true(log_capture_says("ledge_body_set_awake", "not dynamic"));
    sd.type = LEDGE_BODY_KINEMATIC;
    ledge_body_id kin = ledge_body_create(w, &sd);
    log_capture_start();
    assert_false(ledge_body_set_awake(w, kin, false));
    assert_true(log_capture_says("ledge_body_set_awake", "not dynamic"));
    ledge_body_def sens = ledge_default_body_def();
    sens.shape = ledge_make_circle(v(0, 0), 0.5f);
    sens.position = v(12, 8);
    sens.sensor = true;
    ledge_body_id sensor = ledge_body_create(w, &sens);
    log_capture_start();
    assert_false(ledge_body_set_awake(w, sensor, false));
    assert_true(log_capture_says("ledge_body_set_awake", "sensor"));
    // Waking a body that cannot sleep is accepted (it is awake).
    assert_true(ledge_body_set_awake(w, wall, true));
    assert_true(ledge_body_is_awake(w, wall));
    // A stale id.
    ledge_body_destroy(w, ball);
    log_capture_start();
    assert_false(ledge_body_set_awake(w, ball, true));
    assert_true(log_capture_says("ledge_body_set_awake", "stale"));
    assert_false(ledge_body_is_awake(w, ball));
    log_capture_start();
    assert_false(ledge_body_set_awake(NULL, wall, true));
    assert_true(log_capture_says("ledge_body_set_awake", "NULL"));
    ledge_world_destroy(w);

    // A world that cannot sleep refuses to put a body to sleep.
    ledge_world_def wd = ledge_default_world_def();
    assert_false(wd.enable_sleep);
    w = walled_world(wd);
    ledge_body_id b = make_body(w, 0, v(8, 5), false);
    log_capture_start();
    assert_false(ledge_body_set_awake(w, b, false));
    assert_true(log_capture_says("ledge_body_set_awake", "enable_sleep"));
    for (int k = 0; k < 300; ++k) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_is_awake(w, b)); // resting, never asleep
    ledge_world_destroy(w);

    // World defs out of range.
    const float bad[] = {NAN, INFINITY, -1.0f, 2e6f};
    for (int k = 0; k < 8; ++k) {
        ledge_world_def d = sleepy_def(0.5f);
        if (k < 4)
            d.sleep_speed = bad[k];
        else
            d.sleep_time = bad[k - 4];
        log_capture_start();
        assert_null(ledge_world_create(&d));
        assert_true(log_capture_says("ledge_world_create", "sleep_"));
    }
}

// --- columns pressed between sleepers --------------------------------------

// A column of crates along gravity d falls asleep; then the game either
// destroys its third crate (the crates above fall onto the two below: a
// landing presses them) or destroys the fourth and makes a crate in its
// place (its neighbours wake and press it).
// - Before the fix of the pressed bodies, the upper crates fell asleep
//   again while the lower ones were still pressed deeper than 1.25 times
//   the slop, held the press in place, and two or three crates of a column
//   of 6 never slept again. Now a pressed body's rest timer starts again
//   and a sleeper touching it wakes.
// - In taller columns the top crate, asleep, still held the press in
//   place from two or more crates above it (10 crates: 6 never slept
//   again). Now the bodies resting on a pressed body, and those resting on
//   them, do not fall asleep while it is pressed, and a sleeper resting on
//   one of them wakes. A column of 20 crates set down at rest also left 15
//   awake for good; it now sleeps whole.
// Steps until none of the n bodies is awake, at most `most` steps; returns
// the steps taken and *awake the bodies still awake.
static int step_until_asleep(ledge_world *w, const ledge_body_id *ids, int n, int most,
                             int *awake) {
    int steps = 0;
    for (*awake = n; steps<most && * awake> 0; ++steps) {
        ledge_world_step(w, 1.0f / 60.0f);
        *awake = 0;
        for (int r = 0; r < n; ++r) *awake += ledge_body_is_awake(w, ids[r]);
    }
    return steps;
}

// A crate of the column (kind 0: a 0.8 m square; 1: a hexagon 0.8 m wide
// and 0.7 m tall, a flat side facing gravity d) and its height along
// gravity.
static ledge_shape column_crate(int kind, int d, float *tall) {
    *tall = kind == 0 ? 0.8f : 0.7f;
    if (kind == 0) return ledge_make_box(v(0, 0), v(0.4f, 0.4f));
    vec2s hexagon[6] = {{{0.4f, 0}},  {{0.2f, 0.35f}},   {{-0.2f, 0.35f}},
                        {{-0.4f, 0}}, {{-0.2f, -0.35f}}, {{0.2f, -0.35f}}};
    for (int k = 0; k < 6 && d >= 2; ++k) hexagon[k] = v(hexagon[k].y, hexagon[k].x);
    ledge_shape s;
    assert_true(ledge_make_polygon(hexagon, 6, &s));
    return s;
}

// A column of `height` crates of `kind` (at most 20), in a map with room
// for it.
static int column_case(int d, bool remake, int wait, int height, int kind) {
    ledge_world_def wd = sleepy_def(0.1f);
    wd.gravity = gravity_toward(d);
    wd.friction_law = LEDGE_FRICTION_COULOMB;
    int size = height <= 6 ? 16 : 24;
    ledge_world *w = walled_world_of(wd, size);
    vec2s up = v(-wd.gravity.x / 10.0f, -wd.gravity.y / 10.0f);
    ledge_body_def bd = ledge_default_body_def();
    float tall;
    bd.shape = column_crate(kind, d, &tall);
    ledge_body_id ids[20];
    float half = 0.5f * (float)size;
    for (int r = 0; r < height; ++r) {
        // The first crate's face on the wall's face, the others stacked on it.
        float along = -(half - 1.0f) + 0.5f * tall + tall * (float)r;
        bd.position = v(half + up.x * along, half + up.y * along);
        ids[r] = ledge_body_create(w, &bd);
    }
    int awake, n = height;
    step_until_asleep(w, ids, n, 300, &awake);
    if (awake > 0)
        fail_msg("gravity %d: %d of a column of %d %s still awake 5 s after it was set down", d,
                 awake, height, kind ? "hexagons" : "crates");
    for (int j = 0; j < wait; ++j) ledge_world_step(w, 1.0f / 60.0f);
    int gone = remake ? 3 : 2;
    vec2s at = ledge_body_position(w, ids[gone]);
    ledge_body_destroy(w, ids[gone]);
    if (remake) {
        bd.position = at;
        ids[gone] = ledge_body_create(w, &bd);
    } else {
        ids[gone] = ids[--n]; // the column's other crates
    }
    int steps = step_until_asleep(w, ids, n, 600, &awake);
    if (awake > 0) {
        fail_msg("gravity %d, column of %d %s, %s %d steps after it slept: %d still awake 10 s "
                 "later",
                 d, height, kind ? "hexagons" : "crates",
                 remake ? "a crate made again" : "a crate destroyed", wait, awake);
    }
    // Asleep for good, and no contact deeper than the veto lets sleep.
    for (int j = 0; j < 60; ++j) ledge_world_step(w, 1.0f / 60.0f);
    for (int r = 0; r < n; ++r) {
        assert_false(ledge_body_is_awake(w, ids[r]));
        ledge_contact_data cd[8];
        int n = ledge_body_contacts(w, ids[r], cd, 8);
        for (int c = 0; c < n && c < 8; ++c) assert_true(cd[c].depth <= 1.25f * wd.linear_slop);
    }
    ledge_world_destroy(w);
    return steps;
}

static void test_pressed_column_sleeps_again(void **state) {
    (void)state;
    // (Hexagons only up to 16: a column of 20 hexagons hit from above is
    // pressed by its own load, its bottom contacts within a few
    // micrometres of 1.25 times the slop, and some of it stays awake; as
    // do columns of 30 squares.)
    static const int heights[] = {6, 9, 10, 12, 16, 20};
    int most = 0, cases = 0;
    for (int kind = 0; kind < 2; ++kind) {
        for (int h = 0; h < (kind == 0 ? 6 : 5); ++h) {
            for (int d = 0; d < 4; ++d) {
                for (int wait = 0; wait < 40; wait += 7) {
                    for (int remake = 0; remake < 2; ++remake) {
                        int steps = column_case(d, remake, wait, heights[h], kind);
                        most = steps > most ? steps : most;
                        ++cases;
                    }
                }
            }
        }
    }
    print_message(
        "%d columns (6 to 20 squares, 6 to 16 hexagons, 4 gravities, a crate destroyed or "
        "made again 0 to 35 steps after they slept): every one asleep again, within %d "
        "steps\n",
        cases, most);
}

// --- a pile ----------------------------------------------------------------

// A sleeping crate with events on keeps its touch with the crate under it
// (held, not ended) while the game makes and destroys bodies elsewhere,
// with and without events: the step goes through the held contacts for
// touches only while some body has events on, so the count of such
// bodies must follow every create and destroy. Static bodies in the far
// half of the map, so that nothing wakes the pair; four gravities.
static void test_held_touch_through_churn(void **state) {
    (void)state;
    uint32_t seed = 0x7e11u;
    for (int d = 0; d < 4; ++d) {
        ledge_world_def wd = sleepy_def(0.25f);
        wd.gravity = gravity_toward(d);
        wd.friction_law = LEDGE_FRICTION_COULOMB; // (N's stacks do not sleep)
        ledge_world *w = walled_world(wd);
        vec2s g = gravity_toward(d), down = v(g.x / 10.0f, g.y / 10.0f), side = v(-down.y, down.x);
        float half = d < 2 ? 0.3f : 0.4f; // shape_of(1) along gravity
        float low = 7.0f - half - 0.01f, high = low - 2.0f * half - 0.02f;
        ledge_body_id under = make_body(w, 1, v(8.0f + low * down.x, 8.0f + low * down.y), false);
        ledge_body_id top = make_body(w, 1, v(8.0f + high * down.x, 8.0f + high * down.y), true);
        for (int k = 0; k < 300 && (ledge_body_is_awake(w, top) || ledge_body_is_awake(w, under));
             ++k)
            ledge_world_step(w, 1.0f / 60.0f);
        if (ledge_body_is_awake(w, top) || ledge_body_is_awake(w, under)) {
            vec2s a = ledge_body_position(w, under), b = ledge_body_position(w, top);
            fail_msg("gravity %d: the crates did not fall asleep: under (%g, %g) %s, top (%g, %g) "
                     "%s",
                     d, (double)a.x, (double)a.y,
                     ledge_body_is_awake(w, under) ? "awake" : "asleep", (double)b.x, (double)b.y,
                     ledge_body_is_awake(w, top) ? "awake" : "asleep");
        }
        ledge_body_id others[16];
        int n = 0, made = 0, destroyed = 0;
        for (int k = 0; k < 240; ++k) {
            seed = seed * 1664525u + 1013904223u;
            if (n < 16 && (n == 0 || (seed >> 8) % 2 == 0)) {
                float along = -1.0f - (float)((seed >> 12) % 5),
                      across = (float)((seed >> 16) % 11) - 5.0f;
                ledge_body_def bd = ledge_default_body_def();
                bd.type = LEDGE_BODY_STATIC;
                bd.shape = shape_of((int)((seed >> 20) % 3));
                bd.position = v(8.0f + along * down.x + across * side.x,
                                8.0f + along * down.y + across * side.y);
                bd.enable_events = (seed >> 24) % 2 == 0;
                others[n] = ledge_body_create(w, &bd);
                assert_true(ledge_body_is_valid(w, others[n]));
                n++, made++;
            } else {
                int j = (int)((seed >> 4) % (uint32_t)n);
                ledge_body_destroy(w, others[j]);
                others[j] = others[--n];
                destroyed++;
            }
            ledge_world_step(w, 1.0f / 60.0f);
            if (count_end_events_of(w, top) != 0 || ledge_body_is_awake(w, top))
                fail_msg("gravity %d, step %d of the churn (%d made, %d destroyed): the sleeping "
                         "crate's touch ended or it woke",
                         d, k + 1, made, destroyed);
        }
        assert_true(ledge_body_contacts(w, top, NULL, 0) > 0);
        assert_true(made > 60 && destroyed > 60);
        ledge_world_destroy(w);
    }
}

// The rain scene of 2000 circles with and without sleeping (Coulomb's
// model): the sleeping pile falls asleep almost whole, keeps the quality
// figures (nothing escapes or ends in a tile, overlaps within twice the
// slop), and ends near the awake pile's shape (the same number of
// circles in each tile row, to within a few percent).
static void test_rain_pile_sleeps(void **state) {
    (void)state;
    const int n = 2000, steps = 600;
    int per_row[2][64] = {{0}};
    scene_figures fig[2];
    int awake_at_end = 0;
    for (int sleeping = 0; sleeping < 2; ++sleeping) {
        scene_friction = LEDGE_FRICTION_COULOMB;
        scene_sleep = sleeping;
        scene s;
        bool made = scene_rain(n, &s);
        scene_friction = LEDGE_FRICTION_N;
        scene_sleep = false;
        assert_true(made);
        for (int k = 0; k < steps; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
        fig[sleeping] = scene_quality(&s);
        for (int k = 0; k < n; ++k) {
            vec2s p = ledge_body_position(s.world, s.bodies[k]);
            int row = (int)p.y;
            if (row >= 0 && row < 64) per_row[sleeping][row]++;
            if (sleeping) awake_at_end += ledge_body_is_awake(s.world, s.bodies[k]);
        }
        scene_destroy(&s);
    }
    print_message("rain 2000, Coulomb: %d of %d awake after %d steps; max overlap %.5f m asleep, "
                  "%.5f m awake\n",
                  awake_at_end, n, steps, fig[1].max_body_overlap, fig[0].max_body_overlap);
    assert_true(awake_at_end < n / 20);
    for (int k = 0; k < 2; ++k) {
        assert_int_equal(fig[k].escaped, 0);
        assert_int_equal(fig[k].inside_solid, 0);
        assert_true(fig[k].max_body_overlap < 0.0125);
        assert_true(fig[k].max_tile_overlap < 0.0125);
    }
    int moved = 0;
    for (int r = 0; r < 64; ++r) moved += abs(per_row[1][r] - per_row[0][r]);
    // Same heap: at most 5% of the circles in another row.
    if (!(moved <= n / 10)) fail_msg("the sleeping pile differs by %d row places", moved);
}

// A pile as deep as the rain of 1,000,000 (a column of 24 x 1,000 circles,
// Coulomb's law, sleeping) comes to rest and falls asleep. A pile's pair
// keeps a fifth of the slop as overlap; when its contact lasted only while
// the pair overlapped, and a pair with a sleeper was not a pile's pair,
// every sway of a millimetre broke contacts, the bodies above lost their
// support and dropped into the gaps, and after 1,200 steps 948 circles
// still moved faster than 0.1 m/s and 7,647 were awake (now none and 26).
// Not under valgrind (24,000 bodies for 1,200 steps).
static void test_deep_pile_sleeps(void **state) {
    (void)state;
    if (test_cases(10) < 10) skip();
    const int cols = 24, rows = 1000, steps = 1200;
    scene_friction = LEDGE_FRICTION_COULOMB;
    scene_sleep = true;
    scene s;
    bool made = scene_rain_column(cols, rows, &s);
    scene_friction = LEDGE_FRICTION_N;
    scene_sleep = false;
    assert_true(made);
    for (int k = 0; k < steps; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    scene_figures f = scene_quality(&s);
    int awake = 0, n = s.count;
    for (int k = 0; k < n; ++k) awake += ledge_body_is_awake(s.world, s.bodies[k]);
    print_message("column of %d x %d after %d steps: %d moving, %d awake, max overlap %.5f m\n",
                  cols, rows, steps, f.moving, awake, f.max_body_overlap);
    scene_destroy(&s);
    assert_int_equal(f.escaped, 0);
    assert_int_equal(f.inside_solid, 0);
    assert_int_equal(f.moving, 0);
    assert_true(awake <= n / 100);
    assert_true(f.max_body_overlap < 0.0125);
    assert_true(f.max_tile_overlap < 0.0125);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_falls_asleep_on_schedule),
        cmocka_unit_test(test_awake_neighbour_keeps_awake),
        cmocka_unit_test(test_every_tile_as_a_floor),
        cmocka_unit_test(test_hit_moves_a_sleeper_as_an_awake_body),
        cmocka_unit_test(test_lost_support_wakes),
        cmocka_unit_test(test_edit_wakes_near_sleepers),
        cmocka_unit_test(test_edit_wakes_filtered_sleepers),
        cmocka_unit_test(test_edit_wakes_sleepers_holding_its_cell),
        cmocka_unit_test(test_many_edits_wake_all),
        cmocka_unit_test(test_put_to_sleep_after_a_move),
        cmocka_unit_test(test_put_to_sleep_after_its_support_moved),
        cmocka_unit_test(test_crates_put_to_sleep_after_the_level_is_built),
        cmocka_unit_test(test_moving_platform_wakes),
        cmocka_unit_test(test_setters_wake),
        cmocka_unit_test(test_set_awake_and_refusals),
        cmocka_unit_test(test_pressed_column_sleeps_again),
        cmocka_unit_test(test_held_touch_through_churn),
        cmocka_unit_test(test_rain_pile_sleeps),
        cmocka_unit_test(test_deep_pile_sleeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
