// The rain scene (docs/benchmarks.md, "The scenes") at N = 1,000: first that
// tests/scenes.c builds what the spec says, then the world issue's
// acceptance criteria after 600 steps at dt = 1/60: no circle escapes the
// map or goes non-finite, none ends with its centre inside a solid tile,
// the deepest circle-tile penetration is under 5% of the radius, and fewer
// than 1% of the circles still move faster than 0.1 m/s.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "scenes.h"

#include <math.h>
#include <stdio.h>

#define N     1000
#define STEPS 600

static vec2s v(double x, double y) {
    vec2s r = {{(float)x, (float)y}};
    return r;
}

// The layout, checked against the spec's words rather than against the
// builder's code: sizes, the FULL cells, the slope triangles by their
// corners, and the circles' start positions and mass.
static void test_scene_matches_spec(void **state) {
    scene s = *(scene *)*state;
    // cols = ceil(sqrt(1000)) = 32, rows = ceil(1000 / 32) = 32.
    assert_int_equal(s.cols, 32);
    assert_int_equal(s.rows, 32);
    assert_int_equal(s.width, 34);
    assert_int_equal(s.height, 42);
    ledge_tilemap *map = ledge_world_tilemap(s.world);
    ledge_tilemap_def md = ledge_tilemap_get_def(map);
    assert_int_equal(md.width, 34);
    assert_int_equal(md.height, 42);
    assert_true(md.tile_size == 1.0f && md.origin.x == 0.0f && md.origin.y == 0.0f);

    int full = 0;
    for (int j = 0; j < md.height; ++j) {
        for (int i = 0; i < md.width; ++i) {
            ledge_tile t = ledge_tilemap_get(map, i, j);
            bool want_full = i == 0 || i == md.width - 1 || j == 0 || (j == 4 && i % 8 == 0);
            if (j == 1 && (i == 1 || i == md.width - 2)) {
                assert_int_equal(ledge_tile_group_of(t), LEDGE_TILE_GROUP_45DEG);
            } else {
                assert_int_equal(t, want_full ? LEDGE_TILE_FULL : LEDGE_TILE_EMPTY);
            }
            full += t == LEDGE_TILE_FULL;
        }
    }
    // Two walls of 42, the floor's 32 cells between them, ledges at 8..32.
    assert_int_equal(full, 2 * 42 + 32 + 4);

    // Left slope: the triangle (1,1)(2,1)(1,2). Right: (32,1)(33,1)(33,2).
    const double e = 0.02;
    struct {
        double x, y;
        bool solid;
    } left[] = {
        {1 + e, 1 + e, true},     {2 - 2 * e, 1 + e, true},  {1 + e, 2 - 2 * e, true},
        {1.5 - e, 1.5 - e, true}, {1.5 + e, 1.5 + e, false}, {2 - e, 2 - e, false},
        {2 - e, 1.5, false},      {1.5, 2 - e, false},
    };
    for (unsigned k = 0; k < sizeof left / sizeof left[0]; ++k) {
        double mx = 34.0 - left[k].x; // the mirror image across x = W / 2
        assert_int_equal(ledge_tilemap_query_point(map, v(left[k].x, left[k].y), NULL),
                         left[k].solid);
        assert_int_equal(ledge_tilemap_query_point(map, v(mx, left[k].y), NULL), left[k].solid);
    }
    // Hypotenuses face inward (and up).
    vec2s nl = ledge_tile_normal(ledge_tilemap_get(map, 1, 1));
    vec2s nr = ledge_tile_normal(ledge_tilemap_get(map, 32, 1));
    assert_true(nl.x > 0.7f && nl.y > 0.7f);
    assert_true(nr.x < -0.7f && nr.y > 0.7f);

    assert_int_equal(ledge_world_body_count(s.world), N);
    const int probe[] = {0, 1, 10, 31, 32, 33, 500, 998, 999};
    for (unsigned i = 0; i < sizeof probe / sizeof probe[0]; ++i) {
        int k = probe[i];
        vec2s p = ledge_body_position(s.world, s.bodies[k]);
        vec2s u = ledge_body_velocity(s.world, s.bodies[k]);
        double x = 1.5 + (k % 32) + 0.01 * ((7 * k) % 11 - 5), y = 7 + (k / 32);
        assert_float_equal(p.x, x, 1e-6);
        assert_float_equal(p.y, y, 1e-6);
        assert_true(u.x == 0.0f && u.y == 0.0f);
        assert_int_equal(ledge_body_get_type(s.world, s.bodies[k]), LEDGE_BODY_DYNAMIC);
        const ledge_shape *sh = ledge_body_shape(s.world, s.bodies[k]);
        assert_int_equal(sh->type, LEDGE_SHAPE_CIRCLE);
        assert_float_equal(sh->radius, 0.4, 1e-7);
        assert_float_equal(ledge_body_mass(s.world, s.bodies[k]), 0.16 * 3.14159265358979, 1e-5);
    }
    // At rest at the start: nothing overlaps, nothing is in a tile.
    scene_figures q = scene_quality(&s);
    assert_int_equal(q.escaped, 0);
    assert_int_equal(q.inside_solid, 0);
    assert_true(q.max_body_overlap == 0.0 && q.max_tile_overlap == 0.0);
    assert_int_equal(q.moving, 0);
}

static scene_figures rain_run(scene s, const char *model) {
    for (int i = 0; i < STEPS; ++i) ledge_world_step(s.world, 1.0f / 60.0f);
    scene_figures q = scene_quality(&s);
    print_message(
        "rain (%s) N=%d after %d steps: escaped %d, centre in solid %d, max circle-circle "
        "%.5f m, max circle-tile %.5f m (%.2f%% of r), moving > 0.1 m/s %d, max speed "
        "%.4f m/s\n",
        model, N, STEPS, q.escaped, q.inside_solid, q.max_body_overlap, q.max_tile_overlap,
        100.0 * q.max_tile_overlap / RAIN_RADIUS, q.moving, q.max_speed);
    return q;
}

// The pile comes to rest on the default world (N's friction law), and
// under Coulomb's: nothing escapes, no circle ends in a tile, fewer than 1%
// of the circles move faster than 0.1 m/s after 600 steps.
static void rain_settles(scene s, const char *law) {
    scene_figures q = rain_run(s, law);
    assert_int_equal(ledge_world_body_count(s.world), N);
    assert_int_equal(q.escaped, 0);
    assert_int_equal(q.inside_solid, 0);
    assert_true(q.max_tile_overlap < 0.05 * RAIN_RADIUS);
    assert_true(q.moving * 100 < N); // fewer than 1%
}

static void test_rain_settles(void **state) {
    rain_settles(*(scene *)*state, "default, N's friction");
}

static void test_rain_settles_coulomb(void **state) {
    rain_settles(*(scene *)*state, "Coulomb's friction");
}

// A resting pile's touches hold from step to step: once the default
// world's pile has settled, not one touch begins or ends over two more
// seconds, awake and with sleep on (a sleeping body keeps its contacts).
// Asserted also: the touches exist (about one contact per circle), and the
// landing made begin events, so the silence is not events switched off.
static void touches_hold(bool sleep) {
    scene_sleep = sleep;
    scene_events = true;
    scene s;
    bool ok = scene_rain(N, &s);
    scene_sleep = false;
    scene_events = false;
    assert_true(ok);
    long landing = 0, begun = 0, ended = 0;
    for (int step = 0; step < STEPS + 120; ++step) {
        ledge_world_step(s.world, 1.0f / 60.0f);
        ledge_touch_events t = ledge_world_touch_events(s.world);
        if (step < STEPS) {
            landing += t.begin_count;
        } else {
            begun += t.begin_count;
            ended += t.end_count;
        }
    }
    long contacts = 0;
    for (int k = 0; k < N; ++k) contacts += ledge_body_contacts(s.world, s.bodies[k], NULL, 0);
    print_message("rain (sleep %s) N=%d: %ld touch begins while landing, %ld contacts "
                  "at rest, %ld begins and %ld ends over the 120 steps after\n",
                  sleep ? "on" : "off", N, landing, contacts, begun, ended);
    scene_destroy(&s);
    assert_true(landing >= N);
    assert_true(contacts >= N);
    assert_int_equal(begun, 0);
    assert_int_equal(ended, 0);
}

static void test_rain_touches_hold(void **state) {
    (void)state;
    touches_hold(false);
    touches_hold(true);
}

// A fresh scene per test, freed by the teardown even when an assertion
// fails (cmocka leaves the test by longjmp, past any cleanup in it).
static scene g_scene;

static int setup(void **state) {
    scene_friction = LEDGE_FRICTION_N;
    if (!scene_rain(N, &g_scene)) return -1;
    *state = &g_scene;
    return 0;
}

static int setup_coulomb(void **state) {
    scene_friction = LEDGE_FRICTION_COULOMB;
    bool ok = scene_rain(N, &g_scene);
    scene_friction = LEDGE_FRICTION_N;
    if (!ok) return -1;
    *state = &g_scene;
    return 0;
}

static int teardown(void **state) {
    scene_destroy(*state);
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_scene_matches_spec, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rain_settles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rain_settles_coulomb, setup_coulomb, teardown),
        cmocka_unit_test(test_rain_touches_hold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
