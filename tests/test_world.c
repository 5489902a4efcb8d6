// The world's foundation: body ids with generations, argument refusals,
// integration against its closed form, and the replay hash.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>
#include <ledge/world.h>

#include "log_capture.h"

#include <math.h>
#include <stdlib.h>

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static ledge_world *make_world_with(ledge_friction_law model) {
    ledge_world_def wd = ledge_default_world_def();
    wd.friction_law = model;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    return w;
}

static ledge_world *make_world(void) {
    return make_world_with(LEDGE_FRICTION_N);
}

static ledge_body_def ball_def(vec2s at) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.5f);
    bd.position = at;
    return bd;
}

// Semi-implicit Euler from rest: v_n = n g dt, x_n = x_0 + g dt^2 n (n+1)/2.
static void test_free_fall_closed_form(void **state) {
    (void)state;
    ledge_world *w = make_world();
    ledge_body_def bd = ball_def(v(10, 50));
    ledge_body_id id = ledge_body_create(w, &bd);
    const double g = -10.0, dt = 1.0 / 60.0;
    for (int n = 1; n <= 120; ++n) {
        ledge_world_step(w, (float)dt);
        double vy = n * g * dt, y = 50.0 + g * dt * dt * n * (n + 1) / 2.0;
        vec2s p = ledge_body_position(w, id), vel = ledge_body_velocity(w, id);
        assert_float_equal(vel.y, vy, 1e-5 * fabs(vy) + 1e-6);
        assert_float_equal(p.y, y, 2e-6 * fabs(y));
        assert_true(p.x == 10.0f && vel.x == 0.0f);
    }
    ledge_world_destroy(w);
}

// Drag: v_n = k (v_{n-1} + g dt) with k = 1 / (1 + dt drag); a falling body
// approaches the terminal speed g k dt / (1 - k).
static void test_drag_closed_form(void **state) {
    (void)state;
    ledge_world *w = make_world();
    ledge_body_def bd = ball_def(v(0, 500));
    bd.drag = 2.0f;
    bd.gravity_scale = 0.5f;
    ledge_body_id id = ledge_body_create(w, &bd);
    const double g = -10.0 * 0.5, dt = 1.0 / 30.0, k = 1.0 / (1.0 + dt * 2.0);
    double vy = 0.0;
    for (int n = 1; n <= 300; ++n) {
        ledge_world_step(w, (float)dt);
        vy = k * (vy + g * dt);
        assert_float_equal(ledge_body_velocity(w, id).y, vy, 1e-5 * fabs(vy));
    }
    assert_float_equal(vy, g * k * dt / (1.0 - k), 1e-3);
    ledge_world_destroy(w);
}

static void test_body_types(void **state) {
    (void)state;
    ledge_world *w = make_world();
    ledge_body_def bd = ball_def(v(1, 2));
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.velocity = v(3, 0);
    ledge_body_id kin = ledge_body_create(w, &bd);
    bd.type = LEDGE_BODY_STATIC;
    ledge_body_id fixed = ledge_body_create(w, &bd);
    for (int i = 0; i < 10; ++i) ledge_world_step(w, 0.1f);
    assert_float_equal(ledge_body_position(w, kin).x, 4.0f, 1e-5f); // velocity only
    assert_float_equal(ledge_body_position(w, kin).y, 2.0f, 0.0f);  // no gravity
    assert_float_equal(ledge_body_position(w, fixed).x, 1.0f, 0.0f);
    assert_float_equal(ledge_body_velocity(w, fixed).x, 0.0f, 0.0f);
    assert_float_equal(ledge_body_mass(w, kin), 0.0f, 0.0f);
    ledge_world_destroy(w);
}

static void test_impulse_and_mass(void **state) {
    (void)state;
    ledge_world *w = make_world();
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(1, 0.5f)); // area 2
    bd.density = 3.0f;
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_float_equal(ledge_body_mass(w, id), 6.0f, 1e-6f);
    assert_true(ledge_body_apply_impulse(w, id, v(12, -3)));
    assert_float_equal(ledge_body_velocity(w, id).x, 2.0f, 1e-6f);
    assert_float_equal(ledge_body_velocity(w, id).y, -0.5f, 1e-6f);
    ledge_world_destroy(w);
}

// A destroyed body's id is refused by every call; its slot is reused with a
// new generation, and the old id does not reach the new body.
static void test_stale_ids(void **state) {
    (void)state;
    ledge_world *w = make_world();
    ledge_body_def bd = ball_def(v(1, 1));
    ledge_body_id a = ledge_body_create(w, &bd);
    assert_true(ledge_body_is_valid(w, a));
    ledge_body_destroy(w, a);
    assert_false(ledge_body_is_valid(w, a));
    assert_int_equal(ledge_world_body_count(w), 0);
    bd.position = v(7, 7);
    ledge_body_id b = ledge_body_create(w, &bd);
    assert_int_equal(b.index1, a.index1);             // the slot is reused...
    assert_int_not_equal(b.generation, a.generation); // ...with a new generation
    assert_false(LEDGE_ID_EQUALS(a, b));              // the stale id never equals the new body's
    assert_false(ledge_body_id_equals(a, b));
    ledge_body_id copy = b;
    assert_true(LEDGE_ID_EQUALS(b, copy) && ledge_body_id_equals(b, copy));
    log_capture_start();
    vec2s p = ledge_body_position(w, a);
    assert_true(p.x == 0.0f && p.y == 0.0f);
    assert_true(log_capture_says("ledge_body_position", "stale"));
    log_capture_start();
    assert_false(ledge_body_set_velocity(w, a, v(1, 0)));
    assert_true(log_capture_says("ledge_body_set_velocity", "stale"));
    log_capture_start();
    ledge_body_destroy(w, a);
    assert_true(log_capture_says("ledge_body_destroy", "stale"));
    assert_true(ledge_body_is_valid(w, b));
    assert_float_equal(ledge_body_position(w, b).x, 7.0f, 0.0f);
    ledge_body_id foreign = {999, 0, a.world}, null_id = LEDGE_NULL_BODY_ID;
    log_capture_start();
    assert_false(ledge_body_set_position(w, foreign, v(0, 0)));
    assert_true(log_capture_says("ledge_body_set_position", "not a body of this world"));
    assert_false(ledge_body_is_valid(w, null_id));
    assert_true(LEDGE_ID_EQUALS(null_id, LEDGE_NULL_BODY_ID));
    assert_false(LEDGE_ID_EQUALS(foreign, null_id) || ledge_body_id_equals(foreign, null_id));
    ledge_world_destroy(w);
}

// An id carries the world that made it: another world refuses it (logged)
// even where a body of its own sits in the same slot with the same
// generation, and nothing of either world changes.
static void test_cross_world_ids(void **state) {
    (void)state;
    ledge_world *a = make_world(), *b = make_world();
    ledge_body_def bd = ball_def(v(1, 1));
    ledge_body_id in_a = ledge_body_create(a, &bd);
    bd.position = v(5, 5);
    ledge_body_id in_b = ledge_body_create(b, &bd);
    assert_int_equal(in_a.index1, in_b.index1); // the same slot and generation...
    assert_int_equal(in_a.generation, in_b.generation);
    assert_int_not_equal(in_a.world, in_b.world); // ...told apart by the world
    assert_false(LEDGE_ID_EQUALS(in_a, in_b) || ledge_body_id_equals(in_a, in_b));
    assert_int_not_equal(in_a.world, 0);
    assert_false(ledge_body_is_valid(b, in_a));
    assert_true(ledge_body_is_valid(a, in_a));
    log_capture_start();
    ledge_body_destroy(b, in_a);
    assert_true(log_capture_says("ledge_body_destroy", "not a body of this world"));
    assert_int_equal(ledge_world_body_count(b), 1);
    assert_true(ledge_body_is_valid(b, in_b));
    log_capture_start();
    assert_false(ledge_body_set_velocity(b, in_a, v(3, 0)));
    assert_true(log_capture_says("ledge_body_set_velocity", "not a body of this world"));
    assert_float_equal(ledge_body_velocity(b, in_b).x, 0.0f, 0.0f);
    assert_float_equal(ledge_body_position(a, in_a).x, 1.0f, 0.0f);
    // A world made after one is destroyed does not take its ids either.
    uint32_t old = in_a.world;
    ledge_world_destroy(a);
    ledge_world *c = make_world();
    ledge_body_id in_c = ledge_body_create(c, &bd);
    assert_int_not_equal(in_c.world, old);
    assert_false(ledge_body_is_valid(c, in_a));
    ledge_world_destroy(b);
    ledge_world_destroy(c);
}

static void refuse_def(ledge_world *w, ledge_body_def bd, const char *word) {
    log_capture_start();
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_int_equal(id.index1, 0);
    if (!log_capture_says("ledge_body_create", word))
        fail_msg("expected '%s' in: %s", word, g_log.last);
}

static void test_body_refusals(void **state) {
    (void)state;
    ledge_world *w = make_world();
    ledge_body_def good = ball_def(v(1, 1)), bd;
    bd = good;
    bd.shape.type = LEDGE_SHAPE_INVALID;
    refuse_def(w, bd, "shape");
    bd = good;
    bd.position = v(NAN, 0);
    refuse_def(w, bd, "position");
    bd = good;
    bd.velocity = v(0, INFINITY);
    refuse_def(w, bd, "velocity");
    bd = good;
    bd.density = 0.0f;
    refuse_def(w, bd, "density");
    bd = good;
    bd.friction = 1.5f;
    refuse_def(w, bd, "friction");
    bd = good;
    bd.bounce = -0.1f;
    refuse_def(w, bd, "bounce");
    bd = good;
    bd.drag = -1.0f;
    refuse_def(w, bd, "drag");
    bd = good;
    bd.type = (ledge_body_type)7;
    refuse_def(w, bd, "type");
    assert_int_equal(ledge_world_body_count(w), 0);
    log_capture_start();
    ledge_world_step(w, -1.0f);
    assert_true(log_capture_says("ledge_world_step", "dt"));
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 0;
    log_capture_start();
    assert_null(ledge_world_create(&wd));
    assert_true(g_log.count > 0);
    ledge_world_destroy(w);
}

// A scripted scene: bodies created, destroyed and re-created, stepped.
static uint64_t scripted_run(int steps, bool perturb) {
    ledge_world *w = make_world();
    ledge_body_id ids[64];
    for (int i = 0; i < 64; ++i) {
        ledge_body_def bd = ball_def(v((float)i * 0.7f, 20.0f + (float)(i % 5)));
        bd.velocity = v((float)((i * 37) % 11) - 5.0f, 0);
        bd.drag = (float)(i % 3) * 0.25f;
        ids[i] = ledge_body_create(w, &bd);
    }
    for (int s = 0; s < steps; ++s) {
        if (s % 50 == 10) {
            ledge_body_destroy(w, ids[s % 64]);
            ledge_body_def bd = ball_def(v(1.0f, (float)s * 0.01f));
            ids[s % 64] = ledge_body_create(w, &bd);
        }
        if (perturb && s == steps / 2) { // a millimetre: resting bodies keep it
            vec2s p = ledge_body_position(w, ids[3]);
            ledge_body_set_position(w, ids[3], v(p.x + 1e-3f, p.y));
        }
        ledge_world_step(w, 1.0f / 60.0f);
    }
    uint64_t h = ledge_world_hash(w);
    ledge_world_destroy(w);
    return h;
}

static void test_hash_determinism(void **state) {
    (void)state;
    uint64_t a = scripted_run(1000, false), b = scripted_run(1000, false);
    assert_true(a == b);
    assert_true(a != scripted_run(1000, true)); // a tiny change is seen
    assert_true(a != scripted_run(999, false));
}

// Allocation failures leave the world usable.
static int alloc_budget;
static void *failing_alloc(size_t size, void *user) {
    (void)user;
    if (alloc_budget-- <= 0) return NULL;
    return malloc(size);
}
static void plain_free(void *p, void *user) {
    (void)user;
    free(p);
}

static void test_allocation_failure(void **state) {
    (void)state;
    for (int budget = 0; budget < 40; ++budget) {
        alloc_budget = budget;
        ledge_set_allocator(failing_alloc, plain_free, NULL);
        log_capture_start();
        ledge_world_def wd = ledge_default_world_def();
        ledge_world *w = ledge_world_create(&wd);
        int made = 0;
        if (w) {
            for (int i = 0; i < 40; ++i) {
                ledge_body_def bd = ball_def(v((float)i, 5));
                made += ledge_body_create(w, &bd).index1 != 0;
            }
            assert_int_equal(ledge_world_body_count(w), made);
            ledge_world_step(w, 0.01f); // still steps
            ledge_world_destroy(w);
        }
        if (!w || made < 40) assert_true(g_log.count > 0); // each failure was reported
        ledge_set_allocator(NULL, NULL, NULL);
    }
}

// --- contacts: N's projection and response ----------------------------------

// A world whose row y = 0 is a FULL floor (top face at y = 1).
static ledge_world *floor_world(void) {
    ledge_world *w = make_world();
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 64; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    return w;
}

// At the impact step the speed into the floor is the speed before the step
// plus that step's gravity; the ball leaves with bounce times that.
static void test_bounce_on_tiles(void **state) {
    (void)state;
    const float dt = 1.0f / 60.0f, bounces[] = {0.5f, 0.3f, 0.8f};
    for (int k = 0; k < 3; ++k) {
        ledge_world *w = floor_world();
        ledge_body_def bd = ball_def(v(10.5f, 4.0f));
        bd.bounce = bounces[k];
        ledge_body_id id = ledge_body_create(w, &bd);
        int impacts = 0;
        for (int s = 0; s < 240 && impacts < 2; ++s) {
            float before = ledge_body_velocity(w, id).y;
            ledge_world_step(w, dt);
            float after = ledge_body_velocity(w, id).y;
            if (before < 0.0f && after > 0.0f) {
                float impact = -(before - 10.0f * dt);
                assert_float_equal(after, bounces[k] * impact, 1e-4f * impact);
                assert_true(ledge_body_position(w, id).y >= 1.5f - 0.005f - 1e-5f);
                ++impacts;
            }
        }
        assert_int_equal(impacts, 2);
        ledge_world_destroy(w);
    }
}

// Without bounce the ball stops on the floor, sunk by at most the slop.
static void test_rest_on_tiles(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_body_def bd = ball_def(v(20.5f, 3.0f));
    ledge_body_id id = ledge_body_create(w, &bd);
    for (int s = 0; s < 180; ++s) ledge_world_step(w, 1.0f / 60.0f);
    vec2s p = ledge_body_position(w, id), vel = ledge_body_velocity(w, id);
    assert_float_equal(vel.y, 0.0f, 1e-6f);
    assert_true(p.y <= 1.5f && p.y >= 1.5f - 0.005f - 1e-5f);
    assert_float_equal(p.x, 20.5f, 0.0f);
    ledge_world_destroy(w);
}

// A box sliding on the floor keeps (1 - friction) of its speed per step in
// contact, and never snags on the seams between the floor tiles.
static void test_friction_on_floor(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    bd.position = v(4.0f, 1.45f + 0.001f);
    bd.velocity = v(6.0f, 0.0f);
    bd.friction = 0.05f;
    ledge_body_id id = ledge_body_create(w, &bd);
    ledge_world_step(w, 1.0f / 60.0f); // lands: the first contact step
    for (int s = 0; s < 60; ++s) {
        float before = ledge_body_velocity(w, id).x;
        ledge_world_step(w, 1.0f / 60.0f);
        vec2s vel = ledge_body_velocity(w, id);
        assert_float_equal(vel.x, 0.95f * before, 1e-5f * before);
        assert_float_equal(vel.y, 0.0f, 1e-6f);
    }
    ledge_world_destroy(w);
}

// A ramp of 45 degree tiles rising to +x (solid below-right), FULL below.
static ledge_world *ramp_world(void) {
    ledge_world *w = make_world();
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 40; ++x) {
        for (int y = 0; y < x; ++y) ledge_tilemap_set(map, x, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, x, x, LEDGE_TILE_45DEG_NP);
    }
    return w;
}

static ledge_body_id ball_on_ramp(ledge_world *w, float friction) {
    // Centre on the normal through (20.5, 20.5), one radius (0.3) out.
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.3f);
    bd.position = v(20.5f - 0.3f * 0.70710678f + 0.001f, 20.5f + 0.3f * 0.70710678f - 0.001f);
    bd.friction = friction;
    return ledge_body_create(w, &bd);
}

static void test_slope_friction(void **state) {
    (void)state;
    ledge_world *w = ramp_world();
    ledge_body_id stay = ball_on_ramp(w, 1.0f);
    vec2s start = ledge_body_position(w, stay);
    for (int s = 0; s < 120; ++s) ledge_world_step(w, 1.0f / 60.0f);
    vec2s end = ledge_body_position(w, stay);
    assert_true(fabsf(end.x - start.x) < 1e-3f && fabsf(end.y - start.y) < 1e-2f);
    ledge_world_destroy(w);

    // Without friction it slides down at g sin 45 degrees (no snag at the
    // seams between ramp tiles).
    w = ramp_world();
    ledge_body_id slide = ball_on_ramp(w, 0.0f);
    const float dt = 1.0f / 60.0f;
    for (int s = 1; s <= 60; ++s) {
        ledge_world_step(w, dt);
        vec2s vel = ledge_body_velocity(w, slide);
        float along = (vel.x + vel.y) * -0.70710678f; // down the slope
        float expected = 10.0f * 0.70710678f * (float)s * dt;
        if (s > 2) assert_float_equal(along, expected, 0.02f * expected);
        assert_true(fabsf(vel.x - vel.y) < 1e-3f + 0.01f * along); // along the slope
    }
    ledge_world_destroy(w);
}

// A ramp of 26.57 degree slopes (atan 1/2) rising to +x: each rise of one
// cell takes a 22DEG_SMALL and a 22DEG_BIG cell, FULL below.
static ledge_world *shallow_ramp_world(ledge_friction_law model) {
    ledge_world *w = make_world_with(model);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int k = 0; k < 30; ++k) {
        for (int y = 0; y < k; ++y) {
            ledge_tilemap_set(map, 2 * k, y, LEDGE_TILE_FULL);
            ledge_tilemap_set(map, 2 * k + 1, y, LEDGE_TILE_FULL);
        }
        ledge_tilemap_set(map, 2 * k, k, LEDGE_TILE_22DEG_SMALL_NP);
        ledge_tilemap_set(map, 2 * k + 1, k, LEDGE_TILE_22DEG_BIG_NP);
    }
    return w;
}

// Coulomb's friction law: a box stays on a slope no steeper
// than atan(friction) and slides on a steeper one. tan(26.57) = 0.5:
// friction 0.6 holds it, 0.4 does not. (N's law lets it slide at N's
// terminal speed: test_response.c.)
static void test_coulomb_slope(void **state) {
    (void)state;
    const float frictions[2] = {0.6f, 0.4f};
    for (int k = 0; k < 2; ++k) {
        ledge_world *w = shallow_ramp_world(LEDGE_FRICTION_COULOMB);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box(v(0, 0), v(0.25f, 0.25f));
        // Above x = 31 (a BIG cell of rise 15: surface y = 15 + (x - 30) / 2).
        bd.position = v(31.0f, 15.5f + 0.25f + 0.02f);
        bd.friction = frictions[k];
        ledge_body_id id = ledge_body_create(w, &bd);
        for (int s = 0; s < 20; ++s) ledge_world_step(w, 1.0f / 60.0f); // lands, settles
        vec2s start = ledge_body_position(w, id);
        for (int s = 0; s < 120; ++s) ledge_world_step(w, 1.0f / 60.0f);
        vec2s end = ledge_body_position(w, id);
        float moved =
            sqrtf((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y));
        if (k == 0) {
            assert_true(moved < 1e-4f);
            assert_true(ledge_body_velocity(w, id).x == 0.0f);
        } else {
            assert_true(moved > 0.1f);
            assert_true(end.x < start.x); // down the slope
        }
        ledge_world_destroy(w);
    }
}

// Sub-steps: free fall still follows the closed form, at the substep
// h = dt / 4 (4n substeps after n steps).
static void test_substeps_free_fall(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.substeps = 4;
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_def bd = ball_def(v(10, 50));
    ledge_body_id id = ledge_body_create(w, &bd);
    const double g = -10.0, dt = 1.0 / 60.0, h = dt / 4.0;
    for (int n = 1; n <= 60; ++n) {
        ledge_world_step(w, (float)dt);
        double m = 4.0 * n, y = 50.0 + g * h * h * m * (m + 1) / 2.0;
        assert_float_equal(ledge_body_position(w, id).y, y, 2e-6 * fabs(y));
        assert_float_equal(ledge_body_velocity(w, id).y, g * dt * n, 1e-5 * fabs(g * dt * n));
    }
    ledge_world_destroy(w);
}

// Coulomb's law: a stack of eight boxes on the floor comes to rest,
// each on the one below (sunk by at most the slop per contact), with 1 and
// with 4 substeps.
static void test_box_stack(void **state) {
    (void)state;
    for (int sub = 1; sub <= 4; sub += 3) {
        ledge_world_def wd = ledge_default_world_def();
        wd.friction_law = LEDGE_FRICTION_COULOMB;
        wd.substeps = sub;
        ledge_world *w = ledge_world_create(&wd);
        ledge_tilemap *map = ledge_world_tilemap(w);
        for (int x = 0; x < 64; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
        ledge_body_id ids[8];
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box(v(0, 0), v(0.5f, 0.5f));
        bd.friction = 0.5f;
        for (int i = 0; i < 8; ++i) {
            bd.position = v(20.0f, 1.6f + 1.1f * (float)i);
            ids[i] = ledge_body_create(w, &bd);
        }
        for (int s = 0; s < 240; ++s) ledge_world_step(w, 1.0f / 60.0f);
        for (int i = 0; i < 8; ++i) {
            vec2s p = ledge_body_position(w, ids[i]), vel = ledge_body_velocity(w, ids[i]);
            assert_true(p.y <= 1.5f + (float)i + 1e-4f);
            assert_true(p.y >= 1.5f + (float)i - 0.005f * (float)(i + 1) - 1e-4f);
            assert_float_equal(p.x, 20.0f, 1e-4f);
            assert_true(fabsf(vel.x) < 1e-4f && fabsf(vel.y) < 1e-4f);
        }
        ledge_world_destroy(w);
    }
}

// A destroyed body's contacts die with it: a new body in the same slot,
// far away in the air, falls freely in its first step instead of being
// stopped by the old body's floor contact.
static void test_destroy_forgets_contacts(void **state) {
    (void)state;
    ledge_world *w = make_world();
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 64; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ball_def(v(10.5f, 1.5f));
    ledge_body_id old = ledge_body_create(w, &bd);
    for (int s = 0; s < 30; ++s) ledge_world_step(w, 1.0f / 60.0f);
    assert_float_equal(ledge_body_velocity(w, old).y, 0.0f, 1e-6f); // resting
    ledge_body_destroy(w, old);
    bd = ball_def(v(40.0f, 30.0f));
    ledge_body_id fresh = ledge_body_create(w, &bd);
    assert_int_equal(fresh.index1, old.index1); // the same slot, reused
    ledge_world_step(w, 1.0f / 60.0f);
    assert_float_equal(ledge_body_velocity(w, fresh).y, -10.0f / 60.0f, 1e-6f);
    ledge_world_destroy(w);
}

// A body driven out of the finite range by the game (a gravity scale of
// 1e6 on a body already thrown at 9e5 m/s: the map's floor would stop a
// slower one, see test_stack's buried bodies) is reported and frozen where
// it was, its neighbour is untouched, and setting its velocity wakes it.
static void test_runaway_body_frozen(void **state) {
    (void)state;
    ledge_world *w = make_world();
    ledge_body_def bd = ball_def(v(20.0f, 40.0f));
    ledge_body_id calm = ledge_body_create(w, &bd);
    bd.position = v(21.2f, 40.0f);
    bd.gravity_scale = 1e6f;
    bd.velocity = v(0.0f, -9e5f);
    ledge_body_id wild = ledge_body_create(w, &bd);
    log_capture_start();
    int steps = 0;
    while (!ledge_body_is_frozen(w, wild) && steps < 60) {
        ledge_world_step(w, 1.0f / 60.0f);
        ++steps;
    }
    assert_true(ledge_body_is_frozen(w, wild));
    assert_true(log_capture_says("ledge_world_step", "frozen"));
    vec2s p = ledge_body_position(w, wild), vel = ledge_body_velocity(w, wild);
    assert_true(isfinite(p.x) && isfinite(p.y) && fabsf(p.y) <= 1e6f);
    assert_true(vel.x == 0.0f && vel.y == 0.0f);
    for (int s = 0; s < 10; ++s) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_position(w, wild).y == p.y); // stays frozen
    // The neighbour fell freely all along: the closed form after every step.
    int n = steps + 10;
    double y = 40.0 - 10.0 / 3600.0 * n * (n + 1) / 2.0;
    assert_float_equal(ledge_body_position(w, calm).y, y, 1e-4);
    assert_false(ledge_body_is_frozen(w, calm));
    ledge_body_set_gravity_scale(w, wild, 1.0f);
    ledge_body_set_velocity(w, wild, v(0.0f, 0.0f));
    assert_false(ledge_body_is_frozen(w, wild));
    ledge_world_step(w, 1.0f / 60.0f);
    assert_float_equal(ledge_body_velocity(w, wild).y, -10.0f / 60.0f, 1e-6f);
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// The broad phase remembers per body whether tiles are near its box, and a
// body whose box centre has the same bits as where it last looked (at rest)
// reuses the answer (broad.c): a tile set beside a resting ball must still
// be found, and push it out.
static void test_tile_set_beside_resting_ball(void **state) {
    (void)state;
    ledge_world *w = make_world_with(LEDGE_FRICTION_COULOMB);
    ledge_body_def sd = ledge_default_body_def();
    sd.type = LEDGE_BODY_STATIC;
    sd.shape = ledge_make_box(v(0, 0), v(2.0f, 0.5f)); // top at y = 20.5
    sd.position = v(30.0f, 20.0f);
    ledge_body_create(w, &sd);
    ledge_body_def bd = ball_def(v(30.7f, 21.0f));
    ledge_body_id ball = ledge_body_create(w, &bd);
    for (int s = 0; s < 180; ++s) ledge_world_step(w, 1.0f / 60.0f);
    vec2s rest = ledge_body_position(w, ball);
    ledge_world_step(w, 1.0f / 60.0f);
    vec2s again = ledge_body_position(w, ball);
    assert_memory_equal(&rest, &again, sizeof rest); // at rest: the remembered answer is used
    // Cell (31, 21) reaches 0.2 into the ball's right side, above its centre.
    assert_true(ledge_tilemap_set(ledge_world_tilemap(w), 31, 21, LEDGE_TILE_FULL));
    ledge_world_step(w, 1.0f / 60.0f);
    vec2s p = ledge_body_position(w, ball);
    double dx = 31.0 - p.x, dy = fmax(0.0, 21.0 - (double)p.y);
    assert_true(p.x < rest.x - 0.1f);                              // pushed left, out of the tile
    assert_true(dx > 0.0 && sqrt(dx * dx + dy * dy) > 0.5 - 0.01); // no deeper than the slop
    ledge_world_destroy(w);
}

// A kinematic platform moving up lifts a box resting on it and is not
// pushed back.
static void test_kinematic_pushes(void **state) {
    (void)state;
    ledge_world *w = make_world();
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(2.0f, 0.25f));
    pd.position = v(30.0f, 10.0f);
    pd.velocity = v(0.0f, 1.0f);
    ledge_body_id plat = ledge_body_create(w, &pd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
    bd.position = v(30.0f, 10.0f + 0.25f + 0.3f);
    ledge_body_id box = ledge_body_create(w, &bd);
    for (int s = 0; s < 60; ++s) ledge_world_step(w, 1.0f / 60.0f);
    vec2s pp = ledge_body_position(w, plat), bp = ledge_body_position(w, box);
    assert_float_equal(pp.y, 11.0f, 1e-4f);        // unaffected by the box
    assert_float_equal(bp.y - pp.y, 0.55f, 0.01f); // carried on top
    ledge_world_destroy(w);
}

// Two balls dropped onto each other: whether the upper one rests on the
// lower one follows the filter rule (category/mask both ways, group
// override).
static bool stacks(ledge_filter lower, ledge_filter upper) {
    ledge_world *w = floor_world();
    ledge_body_def bd = ball_def(v(30.5f, 1.5f));
    bd.filter = lower;
    ledge_body_create(w, &bd);
    bd = ball_def(v(30.5f, 3.0f));
    bd.filter = upper;
    ledge_body_id top = ledge_body_create(w, &bd);
    for (int s = 0; s < 120; ++s) ledge_world_step(w, 1.0f / 60.0f);
    float y = ledge_body_position(w, top).y;
    ledge_world_destroy(w);
    return y > 2.0f; // on the lower ball (about 2.5) rather than on the floor (1.5)
}

static void test_filters(void **state) {
    (void)state;
    ledge_filter a = ledge_default_filter(), b = ledge_default_filter();
    assert_true(stacks(a, b));
    b.mask = ~(uint64_t)1; // b ignores category 1
    assert_false(stacks(a, b));
    a.category = 2; // now a is category 2, which b accepts, and b (1) is in a's mask
    assert_true(stacks(a, b));
    a = b = ledge_default_filter();
    a.group = b.group = -3; // a shared negative group never collides
    assert_false(stacks(a, b));
    a.group = b.group = 4; // a shared positive group always collides
    a.mask = b.mask = 0;
    assert_true(stacks(a, b));
}

static ledge_response keep_proposed(ledge_body_id body, ledge_body_id other, int cell_x, int cell_y,
                                    vec2s normal, ledge_response proposed, void *context) {
    (void)body, (void)other, (void)cell_x, (void)cell_y, (void)normal;
    ++*(int *)context;
    return proposed;
}

// The world's circle pair test squares the radii's sum in float, which is
// subnormal or 0 below ~1e-19 (ledge_collide switches to double there). The
// world never meets such a pair: a dynamic body's mass (density <= 1e6 times
// its area) must be at least LEDGE_MIN_MASS, so a dynamic circle's radius is
// at least ~5.6e-10, and only pairs with a dynamic body are tested. Checked
// here at that smallest circle, against tiny static circles (down to 1e-40)
// and larger ones, on both of the world's circle paths (the plain pile pair,
// and a pair asked through the pre-solve callback), against double.
static void test_tiny_circle_pairs(void **state) {
    (void)state;
    float smallest = sqrtf(LEDGE_MIN_MASS / (1e6f * 3.14159265f)) * 1.001f;
    ledge_body_def probe = ledge_default_body_def();
    probe.density = 1e6f;
    probe.shape = ledge_make_circle(v(0, 0), smallest * 0.99f);
    ledge_world *refuses = make_world();
    ledge_body_id none = ledge_body_create(refuses, &probe); // below the mass range
    assert_int_equal(none.index1, 0);
    ledge_world_destroy(refuses);
    const float others[] = {1e-40f, 3e-36f, 2e-30f, 7e-25f, 1e-21f, 4e-19f, 1e-12f, 0.0f, 1e-6f};
    const double fractions[] = {0.0, 0.25, 0.6, 0.95, 1.05, 1.5, 3.0};
    const int no = (int)(sizeof others / sizeof others[0]);
    const int nf = (int)(sizeof fractions / sizeof fractions[0]);
    int touching = 0, apart = 0, asked = 0;
    for (int callback = 0; callback < 2; ++callback) {
        for (int i = 0; i < no; ++i) {
            for (int f = 0; f < nf; ++f) {
                ledge_world_def wd = ledge_default_world_def();
                wd.gravity = v(0, 0);
                wd.map_origin = v(-32.0f, -32.0f); // the pair at (0, 0), mid-map
                ledge_world *w = ledge_world_create(&wd);
                assert_non_null(w);
                if (callback) ledge_world_set_pre_solve(w, keep_proposed, &asked);
                ledge_body_def bd = ledge_default_body_def();
                bd.density = 1e6f;
                bd.shape = ledge_make_circle(v(0, 0), smallest);
                ledge_body_id a = ledge_body_create(w, &bd);
                assert_int_not_equal(a.index1, 0);
                // 0 in the list: a second circle of the smallest dynamic size.
                float rb = others[i] > 0.0f ? others[i] : smallest;
                bd.type =
                    others[i] > 0.0f && others[i] < 1e-9f ? LEDGE_BODY_STATIC : LEDGE_BODY_DYNAMIC;
                bd.shape = ledge_make_circle(v(0, 0), rb);
                double sum = (double)smallest + (double)rb;
                bd.position =
                    v((float)(fractions[f] * sum * 0.6), (float)(fractions[f] * sum * 0.8));
                ledge_body_id b = ledge_body_create(w, &bd);
                assert_int_not_equal(b.index1, 0);
                ledge_world_step(w, 1.0f / 60.0f);
                double dx = bd.position.x, dy = bd.position.y, dist = sqrt(dx * dx + dy * dy);
                if (fabs(dist - sum) > 1e-5 * sum) {
                    int expect = dist < sum ? 1 : 0;
                    assert_int_equal(ledge_body_contacts(w, a, NULL, 0), expect);
                    assert_int_equal(ledge_body_contacts(w, b, NULL, 0), expect);
                    touching += expect;
                    apart += 1 - expect;
                }
                ledge_world_destroy(w);
            }
        }
    }
    assert_int_equal(touching, 2 * no * 4);
    assert_int_equal(apart, 2 * no * 3);
    assert_true(asked >= touching / 2);
}

// Whether the contact's point is within 1e-4 of o + s times its normal (in
// double).
static bool point_along(ledge_contact_data c, vec2s o, double s) {
    double ox = o.x + c.normal.x * s - c.point.x, oy = o.y + c.normal.y * s - c.point.y;
    return sqrt(ox * ox + oy * oy) < 1e-4;
}

// Whether the contact's point is midway between the two circles' surfaces
// along its normal, with the centres o and t (in double): r_o - h from o's
// centre along the normal and r_t - h from t's against it, where 2 h is
// how deep they overlap along the normal there.
static bool midway(ledge_contact_data c, vec2s o, float ro, vec2s t, float rt) {
    double nx = c.normal.x, ny = c.normal.y;
    double h = 0.5 * ((double)ro + rt - ((t.x - (double)o.x) * nx + (t.y - (double)o.y) * ny));
    return point_along(c, o, ro - h) && point_along(c, t, -(rt - h));
}

// The contact point of two circles is midway between their surfaces, on
// the line of their centres (ledge_contact_data.point), where the step
// leaves them. The pair is found overlapping and pushed apart: either to
// the slop, and the point is of that overlap (r_other - depth / 2 from the
// other body's centre along the normal), or, with slop 0, parted, and the
// point is where they touch. 3,000 seeded cases: radii 0.1..1, every
// direction, two dynamic circles, a dynamic one on a static one, and on a
// static circle larger than a grid cell (tested outside the grid), either
// made first.
static void test_circle_contact_points(void **state) {
    (void)state;
    uint32_t seed = 12345u;
#define UNIT() ((seed = seed * 1664525u + 1013904223u), (double)(seed >> 8) / 16777216.0)
    int at_rest = 0, apart = 0;
    for (int k = 0; k < 3000; ++k) {
        ledge_world_def wd = ledge_default_world_def();
        wd.gravity = v(0, 0);
        wd.linear_slop = k % 2 ? 0.0f : 0.005f;
        ledge_world *w = ledge_world_create(&wd);
        assert_non_null(w);
        int kind = k % 3; // 0: two dynamic; 1: on a static; 2: on a big static
        float rd = (float)(0.1 + 0.9 * UNIT());
        float ro = kind == 2 ? 3.0f : (float)(0.1 + 0.9 * UNIT());
        double angle = 6.283185307179586 * UNIT();
        double overlap = (0.002 + 0.3 * UNIT()) * (rd < ro ? rd : ro);
        double dist = (double)rd + ro - overlap;
        vec2s po = v(32.0f, 32.0f);
        vec2s pd = v((float)(32.0 + dist * cos(angle)), (float)(32.0 + dist * sin(angle)));
        ledge_body_def dd = ledge_default_body_def(), od = ledge_default_body_def();
        dd.shape = ledge_make_circle(v(0, 0), rd);
        dd.position = pd;
        od.shape = ledge_make_circle(v(0, 0), ro);
        od.position = po;
        od.type = kind == 0 ? LEDGE_BODY_DYNAMIC : LEDGE_BODY_STATIC;
        bool dynamic_first = UNIT() < 0.5;
        ledge_body_id d = dynamic_first ? ledge_body_create(w, &dd) : LEDGE_NULL_BODY_ID;
        ledge_body_id o = ledge_body_create(w, &od);
        if (!dynamic_first) d = ledge_body_create(w, &dd);
        ledge_world_step(w, 1.0f / 60.0f);
        ledge_contact_data cd[4];
        assert_int_equal(ledge_body_contacts(w, d, cd, 4), 1);
        assert_int_equal(cd[0].other.index1, o.index1);
        vec2s pd1 = ledge_body_position(w, d), po1 = ledge_body_position(w, o);
        double nx = cd[0].normal.x, ny = cd[0].normal.y;
        assert_true(fabs(nx - cos(angle)) < 1e-3 && fabs(ny - sin(angle)) < 1e-3);
        // Midway with the centres of the step's end; at rest, that is the
        // overlap the contact holds (its depth), parted, where they touch.
        if (!midway(cd[0], po1, ro, pd1, rd)) {
            fail_msg("case %d: point (%.6f, %.6f) not midway between the surfaces", k,
                     cd[0].point.x, cd[0].point.y);
        }
        double gap = hypot((double)pd1.x - po1.x, (double)pd1.y - po1.y) - rd - ro;
        bool parted = gap > -1e-5;
        if (!parted) {
            // r_other - depth / 2 from the other's centre: the overlap's own depth.
            assert_true(point_along(cd[0], po1, ro - 0.5 * cd[0].depth));
        }
        at_rest += !parted;
        apart += parted;
        ledge_world_destroy(w);
    }
#undef UNIT
    // Both were met.
    assert_true(at_rest > 1000 && apart > 100);
}

// Destroying a body between steps removes its contacts from every other
// body's list at once (the contact index is rebuilt, not read stale). The
// oracle: each body's contacts as listed before the destroy, less those
// with the destroyed body, in the same order. Stacks of two and three
// circles on a floor; each body in turn destroyed.
static void test_contacts_after_destroy(void **state) {
    (void)state;
    int checked = 0;
    for (int victim = 0; victim < 7; ++victim) {
        ledge_world_def wd = ledge_default_world_def();
        wd.friction_law = LEDGE_FRICTION_COULOMB;
        wd.map_width = 16;
        wd.map_height = 16;
        ledge_world *w = ledge_world_create(&wd);
        assert_non_null(w);
        for (int k = 0; k < 16; ++k)
            ledge_tilemap_set(ledge_world_tilemap(w), k, 0, LEDGE_TILE_FULL);
        static const float at[7][2] = {{2, 1.4f}, {2, 2.2f},    {8, 1.4f}, {8, 2.2f},
                                       {8, 3.0f}, {8.8f, 1.4f}, {12, 1.4f}};
        ledge_body_id ids[7];
        for (int i = 0; i < 7; ++i) {
            ledge_body_def bd = ball_def(v(at[i][0], at[i][1]));
            bd.shape = ledge_make_circle(v(0, 0), 0.4f);
            ids[i] = ledge_body_create(w, &bd);
        }
        for (int k = 0; k < 30; ++k) ledge_world_step(w, 1.0f / 60.0f);
        ledge_contact_data before[7][8];
        int count[7];
        for (int i = 0; i < 7; ++i) count[i] = ledge_body_contacts(w, ids[i], before[i], 8);
        ledge_body_destroy(w, ids[victim]);
        for (int i = 0; i < 7; ++i) {
            if (i == victim) continue;
            ledge_contact_data want[8], now[8];
            int n = 0;
            for (int k = 0; k < count[i]; ++k) {
                if (memcmp(&before[i][k].other, &ids[victim], sizeof ids[victim]) != 0)
                    want[n++] = before[i][k];
            }
            int got = ledge_body_contacts(w, ids[i], now, 8);
            assert_int_equal(got, n);
            for (int k = 0; k < n; ++k) {
                assert_memory_equal(&now[k].other, &want[k].other, sizeof want[k].other);
                assert_true(now[k].normal.x == want[k].normal.x &&
                            now[k].normal.y == want[k].normal.y);
                ++checked;
            }
        }
        ledge_world_destroy(w);
    }
    print_message("%d contacts listed after a destroy, each as before it\n", checked);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_fall_closed_form),
        cmocka_unit_test(test_drag_closed_form),
        cmocka_unit_test(test_body_types),
        cmocka_unit_test(test_impulse_and_mass),
        cmocka_unit_test(test_stale_ids),
        cmocka_unit_test(test_cross_world_ids),
        cmocka_unit_test(test_body_refusals),
        cmocka_unit_test(test_hash_determinism),
        cmocka_unit_test(test_allocation_failure),
        cmocka_unit_test(test_bounce_on_tiles),
        cmocka_unit_test(test_rest_on_tiles),
        cmocka_unit_test(test_friction_on_floor),
        cmocka_unit_test(test_slope_friction),
        cmocka_unit_test(test_coulomb_slope),
        cmocka_unit_test(test_substeps_free_fall),
        cmocka_unit_test(test_box_stack),
        cmocka_unit_test(test_destroy_forgets_contacts),
        cmocka_unit_test(test_runaway_body_frozen),
        cmocka_unit_test(test_tile_set_beside_resting_ball),
        cmocka_unit_test(test_kinematic_pushes),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_tiny_circle_pairs),
        cmocka_unit_test(test_circle_contact_points),
        cmocka_unit_test(test_contacts_after_destroy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
