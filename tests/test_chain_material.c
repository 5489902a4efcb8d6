// Chains' surface materials (chain.h, material.h) against their closed
// forms, through the public API only:
// - the mix rule at a chain contact: a crate sliding on a chain loses the
//   mixed friction of its speed in one substep, for chain frictions and
//   body frictions in steps and every pair of mix modes (the chain's
//   default leaves the body its own friction);
// - belts: a crate carried by a static belt chain of several collinear
//   segments at every substep of N's recurrence v(k) = s (1 - (1 - f)^k),
//   y up and y down, 1 and 3 substeps, both signs of s; on a kinematic
//   chain that is a belt, at the chain's velocity plus the belt's (the
//   split acts on the velocity relative to both), and at the chain's alone
//   once the belt is switched off;
// - ice and bounce: a crate keeps its speed on an icy chain; a ball
//   rebounds off a bouncy chain at the larger bounce of the two;
// - a tile floor continued by an icy chain: the crate changes material
//   where its centre crosses the junction;
// - characters: a character on a belt chain is carried by s dt per move,
//   its state names the chain's material, and platform_velocity is the
//   chain's velocity plus the belt's;
// - refusals with their messages; a sleeper on a chain woken by a new
//   material; the debug draw's colours and arrows; snapshots and worker
//   counts give the same bits.
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

#define DT (1.0f / 60.0f)

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static ledge_material mat(float f, float b, float s, ledge_friction_mix mix) {
    ledge_material m = ledge_default_material();
    m.friction = f;
    m.bounce = b;
    m.surface_speed = s;
    m.friction_mix = mix;
    return m;
}

static const float steps5[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};

// The rule in double: the stronger mode (MAX > MIN > MEAN) decides.
static double mix_friction(double fa, int ma, double fb, int mb) {
    int mode = ma > mb ? ma : mb;
    if (mode == LEDGE_FRICTION_MIX_MAX) return fmax(fa, fb);
    if (mode == LEDGE_FRICTION_MIX_MIN) return fmin(fa, fb);
    return sqrt(fa * fb);
}

// A world with a flat chain at height y0 facing against gravity (y up: drawn
// right to left; y down: left to right) from x 0 to 80 in `pieces`
// collinear segments, of material m.
static ledge_world *flat_world(bool y_down, int substeps, ledge_friction_law law, float y0,
                               int pieces, const ledge_material *m, ledge_body_type type,
                               vec2s velocity, ledge_chain_id *out) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0.0f, y_down ? 10.0f : -10.0f);
    wd.substeps = substeps;
    wd.friction_law = law;
    wd.map_width = 128;
    wd.map_height = 64;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    vec2s p[9];
    for (int k = 0; k <= pieces; ++k) {
        float x = 80.0f * (float)k / (float)pieces;
        p[y_down ? k : pieces - k] = v(x, y0);
    }
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = p;
    cd.count = pieces + 1;
    cd.material = *m;
    cd.type = type;
    cd.velocity = velocity;
    ledge_chain_id id = ledge_chain_create(w, &cd);
    assert_true(ledge_chain_is_valid(w, id));
    if (out) *out = id;
    return w;
}

// A box crate of half size h resting on the chain (depth 0.004, under the
// slop) at x.
static ledge_body_id crate_on(ledge_world *w, bool y_down, float y0, float x, float h,
                              float friction, ledge_friction_mix mix, vec2s velocity) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(h, h));
    bd.friction = friction;
    bd.friction_mix = mix;
    bd.position = v(x, y0 + (y_down ? -1.0f : 1.0f) * (h - 0.004f));
    bd.velocity = velocity;
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_true(ledge_body_is_valid(w, id));
    return id;
}

// --- the mix ----------------------------------------------------------------------

// One substep of a crate sliding at u on a chain: vt' = (1 - f) u, f the
// mix of the chain's and the crate's frictions (N's law, a lone contact).
static void test_mix_at_chain_contacts(void **state) {
    (void)state;
    int cases = 0;
    for (int cm = 0; cm < 3; ++cm)
        for (int bm = 0; bm < 3; ++bm)
            for (int i = 0; i < 5; ++i)
                for (int j = 0; j < 5; ++j) {
                    ledge_material m = mat(steps5[i], 0.0f, 0.0f, (ledge_friction_mix)cm);
                    ledge_world *w = flat_world(false, 1, LEDGE_FRICTION_N, 10.0f, 1, &m,
                                                LEDGE_BODY_STATIC, v(0, 0), NULL);
                    ledge_body_id c = crate_on(w, false, 10.0f, 40.0f, 0.3f, steps5[j],
                                               (ledge_friction_mix)bm, v(4.0f, 0.0f));
                    ledge_world_step(w, DT);
                    double f = mix_friction(steps5[i], cm, steps5[j], bm);
                    double got = ledge_body_velocity(w, c).x, want = 4.0 * (1.0 - f);
                    if (!(fabs(got - want) <= 1e-5))
                        fail_msg("chain friction %g mode %d, body %g mode %d: %.7f m/s after a "
                                 "substep, want %.7f (friction %g)",
                                 (double)steps5[i], cm, (double)steps5[j], bm, got, want, f);
                    ledge_world_destroy(w);
                    ++cases;
                }
    // The chain's default material leaves the body its own friction, bit
    // for bit (a chain without a material answers as it did before them).
    ledge_material d = ledge_default_material();
    ledge_world *w =
        flat_world(false, 1, LEDGE_FRICTION_N, 10.0f, 1, &d, LEDGE_BODY_STATIC, v(0, 0), NULL);
    ledge_body_id c =
        crate_on(w, false, 10.0f, 40.0f, 0.3f, 0.3f, LEDGE_FRICTION_MIX_MEAN, v(4.0f, 0.0f));
    ledge_world_step(w, DT);
    assert_true(ledge_body_velocity(w, c).x == (1.0f - 0.3f) * 4.0f);
    ledge_world_destroy(w);
    print_message("%d chain and body material pairs\n", cases + 1);
}

// --- belts --------------------------------------------------------------------------

// N's recurrence on a static belt chain of 4 collinear segments (the crate
// crosses vertices): vt(m) = (1 - f) (vt(m - 1) - s) + s after m substeps.
static void belt_case(bool y_down, int substeps, ledge_friction_law law, float f, float s,
                      double *worst) {
    ledge_material m = mat(f, 0.0f, s, LEDGE_FRICTION_MIX_MIN);
    ledge_world *w =
        flat_world(y_down, substeps, law, 10.0f, 4, &m, LEDGE_BODY_STATIC, v(0, 0), NULL);
    ledge_body_id c =
        crate_on(w, y_down, 10.0f, 39.0f, 0.3f, 1.0f, LEDGE_FRICTION_MIX_MEAN, v(0, 0));
    double tx = y_down ? -1.0 : 1.0; // (ny, -nx) with n = (0, -1) or (0, 1)
    double vt = 0.0, x0 = ledge_body_position(w, c).x;
    for (int k = 1; k <= 90; ++k) {
        ledge_world_step(w, DT);
        for (int j = 0; j < substeps; ++j) vt = (1.0 - f) * (vt - s) + s;
        vec2s vel = ledge_body_velocity(w, c);
        double along = tx * vel.x, want = law == LEDGE_FRICTION_N ? vt : s;
        bool check = law == LEDGE_FRICTION_N || k >= 60;
        double err = fabs(along - want);
        if (check && err > *worst) *worst = err;
        if (check && !(err <= 2e-5 * fmax(1.0, fabs(s))))
            fail_msg("%s, %s, %d substeps, f %g, s %g, step %d: %.7f along the belt, closed form "
                     "%.7f",
                     y_down ? "y down" : "y up", law == LEDGE_FRICTION_N ? "N" : "Coulomb",
                     substeps, (double)f, (double)s, k, along, want);
        assert_true(fabsf(vel.y) < 1e-4f);
    }
    double moved = tx * (ledge_body_position(w, c).x - x0);
    assert_true(moved * s > 0.0);
    ledge_world_destroy(w);
}

static void test_belt_chains(void **state) {
    (void)state;
    double worst = 0.0;
    int cases = 0;
    for (int law = 0; law < 2; ++law)
        for (int down = 0; down < 2; ++down)
            for (int sub = 1; sub <= 3; sub += 2)
                for (int i = 1; i < 5; ++i)
                    for (int sp = 0; sp < 2; ++sp) {
                        belt_case(down, sub, (ledge_friction_law)law, steps5[i], sp ? -2.0f : 3.0f,
                                  &worst);
                        ++cases;
                    }
    print_message("%d belt chains: worst error %.3g m/s of the carried speed\n", cases, worst);
}

// A kinematic chain that is also a belt: a crate on it goes at the chain's
// velocity plus the belt's speed along its tangent (N's split relative to
// the moving surface, then to its belt), as on a kinematic belt body; with
// the belt switched off, at the chain's velocity.
static void test_moving_belt_chain(void **state) {
    (void)state;
    for (int law = 0; law < 2; ++law)
        for (int down = 0; down < 2; ++down)
            for (int sp = 0; sp < 2; ++sp) {
                float s = sp ? -1.5f : 1.5f, vp = 0.5f;
                ledge_material m = mat(0.5f, 0.0f, s, LEDGE_FRICTION_MIX_MIN);
                ledge_chain_id ch;
                ledge_world *w = flat_world(down, 1, (ledge_friction_law)law, 30.0f, 2, &m,
                                            LEDGE_BODY_KINEMATIC, v(vp, 0.0f), &ch);
                ledge_body_id c =
                    crate_on(w, down, 30.0f, 30.0f, 0.3f, 0.5f, LEDGE_FRICTION_MIX_MEAN, v(0, 0));
                for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
                vec2s vel = ledge_body_velocity(w, c);
                float want = vp + (down ? -s : s);
                if (!(fabsf(vel.x - want) < 1e-4f))
                    fail_msg("law %d, %s, belt %g on a chain at %g: crate at %.6f m/s, want %.6f",
                             law, down ? "y down" : "y up", (double)s, (double)vp, (double)vel.x,
                             (double)want);
                assert_true(fabsf(vel.y) < 1e-3f);
                // The crate is carried with the chain, riding it.
                ledge_ground g = ledge_body_ground(w, c);
                assert_true(g.on_ground && g.ground_chain.index1 == ch.index1);
                ledge_material off = m;
                off.surface_speed = 0.0f;
                assert_true(ledge_chain_set_material(w, ch, &off));
                for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
                assert_float_equal(ledge_body_velocity(w, c).x, vp, 1e-4f);
                ledge_world_destroy(w);
            }
}

// --- ice and bounce ---------------------------------------------------------------------

static void test_ice_and_bounce(void **state) {
    (void)state;
    // Ice: friction 0 mixed by MIN, whatever the crate's friction.
    ledge_material ice = mat(0.0f, 0.0f, 0.0f, LEDGE_FRICTION_MIX_MIN);
    ledge_world *w =
        flat_world(false, 4, LEDGE_FRICTION_N, 10.0f, 3, &ice, LEDGE_BODY_STATIC, v(0, 0), NULL);
    ledge_body_id c =
        crate_on(w, false, 10.0f, 10.0f, 0.3f, 0.8f, LEDGE_FRICTION_MIX_MEAN, v(3.0f, 0.0f));
    for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
    assert_true(ledge_body_velocity(w, c).x == 3.0f);
    assert_float_equal(ledge_body_position(w, c).x, 16.0f, 1e-3f);
    // The same crate on the default material stops.
    ledge_material d = ledge_default_material();
    ledge_world_destroy(w);
    w = flat_world(false, 4, LEDGE_FRICTION_N, 10.0f, 3, &d, LEDGE_BODY_STATIC, v(0, 0), NULL);
    c = crate_on(w, false, 10.0f, 10.0f, 0.3f, 0.8f, LEDGE_FRICTION_MIX_MEAN, v(3.0f, 0.0f));
    for (int k = 0; k < 60; ++k) ledge_world_step(w, DT);
    assert_true(fabsf(ledge_body_velocity(w, c).x) < 1e-3f);
    ledge_world_destroy(w);
    // Bounce: the larger of the chain's and the ball's, on the rebound
    // right after the impact (one substep, the impact speed read before).
    const float bounces[3][2] = {{0.8f, 0.0f}, {0.2f, 0.6f}, {0.0f, 0.0f}};
    for (int k = 0; k < 3; ++k) {
        ledge_material pad = mat(1.0f, bounces[k][0], 0.0f, LEDGE_FRICTION_MIX_MIN);
        w = flat_world(false, 1, LEDGE_FRICTION_N, 10.0f, 2, &pad, LEDGE_BODY_STATIC, v(0, 0),
                       NULL);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle(v(0, 0), 0.4f);
        bd.bounce = bounces[k][1];
        bd.position = v(30.0f, 13.0f);
        ledge_body_id ball = ledge_body_create(w, &bd);
        float before = 0.0f, after = 0.0f;
        for (int s = 0; s < 120 && after <= 0.0f; ++s) {
            before = ledge_body_velocity(w, ball).y;
            ledge_world_step(w, DT);
            if (ledge_body_velocity(w, ball).y > 0.0f) after = ledge_body_velocity(w, ball).y;
        }
        float b = fmaxf(bounces[k][0], bounces[k][1]);
        if (b == 0.0f) {
            assert_true(after == 0.0f); // it never rebounds
            assert_float_equal(ledge_body_position(w, ball).y, 10.4f, 0.01f);
        } else {
            // The rebound leaves with b times the speed it came in with,
            // the substep's gravity added before the contact answered.
            float impact = -(before - 10.0f * DT);
            if (!(fabsf(after - b * impact) <= 0.02f * b * impact))
                fail_msg("bounces %g and %g: rebound %g m/s from %g, want %g",
                         (double)bounces[k][0], (double)bounces[k][1], (double)after,
                         (double)impact, (double)(b * impact));
        }
        ledge_world_destroy(w);
    }
}

// A tile floor (x 0..10, the default material) continued by an icy chain
// whose end lies on the tiles' top corner: a crate of small friction slows
// on the tiles, and keeps its speed once its centre is over the chain.
static void test_tiles_then_icy_chain(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 64;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 10; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    vec2s p[2] = {v(40.0f, 1.0f), v(10.0f, 1.0f)};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = p;
    cd.count = 2;
    cd.material = mat(0.0f, 0.0f, 0.0f, LEDGE_FRICTION_MIX_MIN);
    ledge_chain_id ice = ledge_chain_create(w, &cd);
    assert_true(ledge_chain_is_valid(w, ice));
    ledge_body_id c =
        crate_on(w, false, 1.0f, 8.6f, 0.3f, 0.02f, LEDGE_FRICTION_MIX_MEAN, v(3.0f, 0.0f));
    float last = 3.0f;
    int on_tiles = 0, on_ice = 0;
    for (int k = 0; k < 120; ++k) {
        ledge_world_step(w, DT);
        float x = ledge_body_position(w, c).x, vx = ledge_body_velocity(w, c).x;
        assert_float_equal(ledge_body_position(w, c).y, 1.3f, 0.006f);
        if (x < 9.95f) {
            assert_true(vx < last); // friction on the tiles
            ++on_tiles;
        } else if (x - vx * DT > 10.05f) { // the whole step over the ice
            assert_true(vx == last);
            ++on_ice;
        }
        last = vx;
    }
    assert_true(on_tiles > 10 && on_ice > 60);
    ledge_world_destroy(w);
}

// --- characters -------------------------------------------------------------------------

static void test_character_on_chain_materials(void **state) {
    (void)state;
    for (int kin = 0; kin < 2; ++kin) {
        ledge_material belt = mat(0.25f, 0.0f, 2.0f, LEDGE_FRICTION_MIX_MIN);
        ledge_chain_id ch;
        float vp = kin ? 0.5f : 0.0f;
        ledge_world *w =
            flat_world(false, 1, LEDGE_FRICTION_N, 10.0f, 2, &belt,
                       kin ? LEDGE_BODY_KINEMATIC : LEDGE_BODY_STATIC, v(vp, 0.0f), &ch);
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_KINEMATIC;
        bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.5f));
        bd.position = v(20.0f, 10.5f);
        ledge_body_id id = ledge_body_create(w, &bd);
        assert_true(ledge_character_create(w, id, NULL));
        ledge_character_state st;
        for (int k = 0; k < 10; ++k) {
            ledge_character_move(w, id, v(0.0f, -1.0f), DT, &st);
            ledge_world_step(w, DT);
        }
        ledge_character_get_state(w, id, &st);
        assert_true(st.on_floor && st.floor_chain.index1 == ch.index1);
        assert_float_equal(st.floor_material.friction, 0.25f, 0.0f);
        assert_float_equal(st.floor_material.surface_speed, 2.0f, 0.0f);
        assert_int_equal(st.floor_material.friction_mix, LEDGE_FRICTION_MIX_MIN);
        assert_float_equal(st.platform_velocity.x, vp + 2.0f, 1e-6f);
        // A move of 0 on the belt: carried by s dt by the move, and by the
        // chain's own motion by the step.
        float x0 = ledge_body_position(w, id).x;
        ledge_character_move(w, id, v(0.0f, -1.0f), DT, &st);
        assert_float_equal(ledge_body_position(w, id).x - x0, 2.0f * DT, 1e-5f);
        ledge_world_step(w, DT);
        assert_float_equal(ledge_body_position(w, id).x - x0, (2.0f + vp) * DT, 1e-5f);
        // Walking against the belt at its speed stands still (on the chain).
        x0 = ledge_body_position(w, id).x;
        for (int k = 0; k < 30; ++k) {
            ledge_character_move(w, id, v(-2.0f, -1.0f), DT, &st);
            ledge_world_step(w, DT);
        }
        assert_float_equal(ledge_body_position(w, id).x - x0, 30.0f * vp * DT, 1e-4f);
        // An icy chain's material is the state's once the game sets it.
        ledge_material ice = mat(0.0f, 0.0f, 0.0f, LEDGE_FRICTION_MIX_MIN);
        assert_true(ledge_chain_set_material(w, ch, &ice));
        ledge_character_move(w, id, v(0.0f, -1.0f), DT, &st);
        assert_true(st.floor_material.friction == 0.0f && st.floor_material.surface_speed == 0.0f);
        assert_float_equal(st.platform_velocity.x, vp, 1e-6f);
        // Jumping off the belt keeps what it carried (add_velocity).
        assert_true(ledge_chain_set_material(w, ch, &belt));
        ledge_character_move(w, id, v(0.0f, -1.0f), DT, &st);
        ledge_world_step(w, DT);
        ledge_character_move(w, id, v(0.0f, 5.0f), DT, &st);
        assert_false(st.on_floor);
        assert_float_equal(st.velocity.x, vp + 2.0f, 1e-5f);
        ledge_world_destroy(w);
    }
}

// --- refusals, waking, drawing --------------------------------------------------------

static void test_refusals(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    vec2s p[2] = {v(4, 1), v(0, 1)};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = p;
    cd.count = 2;
    assert_true(memcmp(&cd.material, &(ledge_material){0}, sizeof cd.material) != 0);
    ledge_material d = ledge_default_material();
    assert_true(cd.material.friction == d.friction && cd.material.friction_mix == d.friction_mix);
    const ledge_material bad[4] = {mat(1.5f, 0.0f, 0.0f, LEDGE_FRICTION_MIX_MIN),
                                   mat(0.5f, -0.1f, 0.0f, LEDGE_FRICTION_MIX_MIN),
                                   mat(0.5f, 0.0f, NAN, LEDGE_FRICTION_MIX_MIN),
                                   mat(0.5f, 0.0f, 0.0f, (ledge_friction_mix)3)};
    const char *says[4] = {"friction 1.5", "bounce -0.1", "surface_speed nan", "friction_mix 3"};
    for (int k = 0; k < 4; ++k) {
        cd.material = bad[k];
        log_capture_start();
        ledge_chain_id id = ledge_chain_create(w, &cd);
        assert_int_equal(id.index1, 0);
        if (!log_capture_says("ledge_chain_create: def->material is", says[k]))
            fail_msg("refusal %d said '%s'", k, g_log.last);
        assert_int_equal(ledge_world_chain_count(w), 0);
    }
    cd.material = ledge_default_material();
    ledge_chain_id id = ledge_chain_create(w, &cd);
    ledge_material good = mat(0.5f, 0.25f, -1.0f, LEDGE_FRICTION_MIX_MAX);
    assert_true(ledge_chain_set_material(w, id, &good));
    const char *set_says[4] = {"material->friction is 1.5", "material->bounce is -0.1",
                               "material->surface_speed is nan", "material->friction_mix is 3"};
    for (int k = 0; k < 4; ++k) {
        log_capture_start();
        assert_false(ledge_chain_set_material(w, id, &bad[k]));
        if (!log_capture_says("ledge_chain_set_material: ", set_says[k]))
            fail_msg("set refusal %d said '%s'", k, g_log.last);
        ledge_material now = ledge_chain_material(w, id);
        assert_memory_equal(&now, &good, sizeof now);
    }
    log_capture_start();
    assert_false(ledge_chain_set_material(w, id, NULL));
    assert_true(log_capture_says("ledge_chain_set_material: material is NULL", NULL));
    ledge_chain_destroy(w, id);
    log_capture_start();
    assert_false(ledge_chain_set_material(w, id, &good));
    assert_true(log_capture_says("ledge_chain_set_material", NULL));
    log_capture_start();
    ledge_material gone = ledge_chain_material(w, id);
    assert_true(log_capture_says("ledge_chain_material", NULL));
    assert_memory_equal(&gone, &d, sizeof gone);
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// A crate asleep on a chain wakes when the chain becomes a belt, and is
// carried.
static void test_new_material_wakes(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.enable_sleep = true;
    wd.sleep_time = 0.2f;
    wd.map_width = 128;
    ledge_world *w = ledge_world_create(&wd);
    vec2s p[2] = {v(60, 5), v(0, 5)};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = p;
    cd.count = 2;
    ledge_chain_id ch = ledge_chain_create(w, &cd);
    ledge_body_id c = crate_on(w, false, 5.0f, 30.0f, 0.3f, 0.5f, LEDGE_FRICTION_MIX_MEAN, v(0, 0));
    for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
    assert_false(ledge_body_is_awake(w, c));
    ledge_material belt = mat(1.0f, 0.0f, 1.0f, LEDGE_FRICTION_MIX_MIN);
    assert_true(ledge_chain_set_material(w, ch, &belt));
    assert_true(ledge_body_is_awake(w, c));
    for (int k = 0; k < 60; ++k) ledge_world_step(w, DT);
    assert_float_equal(ledge_body_velocity(w, c).x, 1.0f, 1e-4f);
    assert_true(ledge_body_position(w, c).x > 30.5f);
    ledge_world_destroy(w);
}

typedef struct drawn {
    int segments[4]; // chain, material, belt, other colours
} drawn;

static void on_segment(vec2s a, vec2s b, ledge_color color, void *context) {
    (void)a, (void)b;
    drawn *d = context;
    int k = color == LEDGE_COLOR_CHAIN      ? 0
            : color == LEDGE_COLOR_MATERIAL ? 1
            : color == LEDGE_COLOR_BELT     ? 2
                                            : 3;
    d->segments[k]++;
}

// The debug draw: a chain of the default material in LEDGE_COLOR_CHAIN, one
// of its own in LEDGE_COLOR_MATERIAL, a belt's arrow (three segments) at
// each segment's middle; without draw_materials, neither.
static void test_draw(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    vec2s a[3] = {v(8, 2), v(4, 2), v(0, 2)}, b[4] = {v(20, 5), v(16, 6), v(12, 5), v(10, 5)};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = a;
    cd.count = 3;
    ledge_chain_create(w, &cd);
    cd.points = b;
    cd.count = 4;
    cd.material = mat(0.5f, 0.0f, -2.0f, LEDGE_FRICTION_MIX_MIN);
    ledge_chain_create(w, &cd);
    ledge_debug_draw dd = ledge_default_debug_draw();
    drawn d;
    memset(&d, 0, sizeof d);
    dd.draw_segment = on_segment;
    dd.draw_normals = false;
    dd.context = &d;
    ledge_aabb all = {v(-1, -1), v(30, 30)};
    ledge_world_draw(w, &dd, all);
    assert_int_equal(d.segments[0], 2);
    assert_int_equal(d.segments[1], 3);
    assert_int_equal(d.segments[2], 3 * 3);
    memset(&d, 0, sizeof d);
    dd.draw_materials = false;
    ledge_world_draw(w, &dd, all);
    assert_int_equal(d.segments[0], 5);
    assert_int_equal(d.segments[1] + d.segments[2], 0);
    ledge_world_destroy(w);
}

// --- bits ---------------------------------------------------------------------------------

// A level of belt chains (static and kinematic) with crates on them.
static ledge_world *belt_level(int workers, ledge_chain_id *belt) {
    ledge_world_def wd = ledge_default_world_def();
    wd.worker_count = workers;
    wd.map_width = 128;
    ledge_world *w = ledge_world_create(&wd);
    vec2s p[4] = {v(60, 5), v(40, 5), v(30, 7), v(0, 7)};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = p;
    cd.count = 4;
    cd.material = mat(0.4f, 0.1f, 1.5f, LEDGE_FRICTION_MIX_MIN);
    *belt = ledge_chain_create(w, &cd);
    vec2s q[2] = {v(4, 0), v(-4, 0)};
    cd.points = q;
    cd.count = 2;
    cd.type = LEDGE_BODY_KINEMATIC;
    cd.position = v(30, 15);
    cd.velocity = v(-0.5f, 0.0f);
    cd.material = mat(0.7f, 0.0f, -1.0f, LEDGE_FRICTION_MIX_MAX);
    ledge_chain_create(w, &cd);
    for (int k = 0; k < 40; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.shape =
            k % 2 ? ledge_make_box(v(0, 0), v(0.3f, 0.3f)) : ledge_make_circle(v(0, 0), 0.3f);
        bd.position = v(27.0f + 0.7f * (float)(k % 10), 9.0f + 0.8f * (float)(k / 10));
        bd.friction = 0.2f * (float)(k % 5);
        ledge_body_create(w, &bd);
    }
    return w;
}

static void test_same_bits(void **state) {
    (void)state;
    ledge_chain_id belt;
    ledge_world *one = belt_level(1, &belt), *two = belt_level(2, &belt);
    uint64_t hashes[120];
    for (int k = 0; k < 120; ++k) {
        ledge_world_step(one, DT);
        ledge_world_step(two, DT);
        hashes[k] = ledge_world_hash(one);
        assert_true(hashes[k] == ledge_world_hash(two));
    }
    // A snapshot taken mid-run replays the rest to the same bits, in a
    // fresh world too, with the chains' materials.
    ledge_world *w = belt_level(1, &belt);
    for (int k = 0; k < 60; ++k) ledge_world_step(w, DT);
    size_t n = ledge_world_snapshot_size(w);
    void *buf = malloc(n);
    assert_true(ledge_world_save(w, buf, n) == n);
    ledge_chain_id other;
    ledge_world *fresh = belt_level(1, &other);
    ledge_material ice = mat(0.0f, 0.0f, 0.0f, LEDGE_FRICTION_MIX_MIN);
    assert_true(ledge_chain_set_material(fresh, other, &ice)); // the snapshot's wins
    assert_true(ledge_world_restore(fresh, buf, n));
    for (int k = 60; k < 120; ++k) {
        ledge_world_step(w, DT);
        ledge_world_step(fresh, DT);
        assert_true(ledge_world_hash(w) == hashes[k]);
        assert_true(ledge_world_hash(fresh) == hashes[k]);
    }
    // A material changed after the save comes back with a restore.
    assert_true(ledge_chain_set_material(w, belt, &ice));
    assert_true(ledge_world_restore(w, buf, n));
    ledge_material back = ledge_chain_material(w, belt), want = ledge_chain_material(fresh, other);
    assert_memory_equal(&back, &want, sizeof back);
    assert_true(back.surface_speed == 1.5f);
    for (int k = 60; k < 120; ++k) ledge_world_step(w, DT);
    assert_true(ledge_world_hash(w) == hashes[119]);
    free(buf);
    ledge_world_destroy(one);
    ledge_world_destroy(two);
    ledge_world_destroy(w);
    ledge_world_destroy(fresh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mix_at_chain_contacts),
        cmocka_unit_test(test_belt_chains),
        cmocka_unit_test(test_moving_belt_chain),
        cmocka_unit_test(test_ice_and_bounce),
        cmocka_unit_test(test_tiles_then_icy_chain),
        cmocka_unit_test(test_character_on_chain_materials),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_new_material_wakes),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
