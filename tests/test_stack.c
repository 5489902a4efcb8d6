// Piles on a default world: towers, pyramids, a heavy body on a light one
// and a bin of circles come to rest (include/ledge/world.h, "The
// response"), asserted scene by scene over a matrix of sizes, shapes,
// mass ratios, floors, gravity directions, worker counts and sleep.
//
// Each scene is built in a frame of its own: "up" against gravity, "along"
// the floor, the floor's surface at height 0 (a row of tiles along the
// map's edge on the gravity side), bodies placed touching (towers and
// pyramids) so that where each one should end is known. After the scene's
// steps, with sleeping off unless said:
// - the deepest overlap of two bodies, or of a body and a tile, is at most
//   2 * linear_slop;
// - no body has sunk below where it started by more than linear_slop for
//   the floor's contact and a fifth of it for each pair under it (along
//   the contact's normal: / cos 30 for circles packed in hexagons), plus
//   0.005 m;
// - no body has moved along the floor by more than 0.01 m;
// - no body is faster than 0.01 m/s (the bin: 0.05 m/s);
// - no centre lies in a solid tile or outside the map.
// A lone contact still answers N's split: tests/test_response.c asserts
// that matrix on the default world.
#include "piles.h"
#include "scale.h"

#include <ledge/ledge.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/// Asserts the scene's figures (speed limit `max_speed`; `check_place`
/// false skips the sunk and drift bounds, for piles poured in).
static void pile_check(const pile *p, const char *what, float max_speed, bool check_place) {
    figures f = pile_measure(p);
    bool ok = f.overlap <= 2.0f * p->slop && f.speed <= max_speed && f.escaped == 0 &&
              (!check_place || (f.sunk_excess <= 0.0f && f.drift <= 0.01f));
    if (!ok || getenv("LEDGE_TEST_VERBOSE")) {
        printf("%s, gravity (%g, %g): overlap %.4f m, sunk beyond allowance %.4f m, drift %.4f m, "
               "speed %.4f m/s, escaped or in solid %d\n",
               what, gravities[p->gravity].x, gravities[p->gravity].y, f.overlap,
               check_place ? f.sunk_excess : 0.0f, check_place ? f.drift : 0.0f, f.speed,
               f.escaped);
    }
    if (!ok) fail_msg("%s does not come to rest as it should", what);
}

static void run_tower(scene_opts o, int n, shape_kind kind, float top, float rest) {
    pile p;
    build_tower(&p, o, n, kind, top, rest);
    pile_step(&p, STEPS);
    char what[128];
    snprintf(what, sizeof what, "tower of %d %s (top density %g, others %g)", n, shape_name[kind],
             top, rest);
    pile_check(&p, what, 0.01f, true);
    ledge_world_destroy(p.w);
}

static void run_pyramid(scene_opts o, int base, shape_kind kind) {
    pile p;
    build_pyramid(&p, o, base, kind);
    pile_step(&p, STEPS);
    char what[128];
    snprintf(what, sizeof what, "pyramid of %s, base %d", shape_name[kind], base);
    pile_check(&p, what, 0.01f, true);
    ledge_world_destroy(p.w);
}

// --- the six scenes, in every direction of gravity -----------------------

static int directions(void);

static void test_first_hour_scenes(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        run_tower(o, 5, SHAPE_BOX, 1.0f, 1.0f);
        run_tower(o, 10, SHAPE_BOX, 1.0f, 1.0f);
        run_tower(o, 20, SHAPE_BOX, 1.0f, 1.0f);
        run_pyramid(o, 20, SHAPE_BOX);
        run_tower(o, 2, SHAPE_BOX, 100.0f, 1.0f);
        run_tower(o, 2, SHAPE_BOX, 1.0f, 100.0f);
        pile p;
        build_bin(&p, o, 400);
        pile_step(&p, 2 * STEPS);
        pile_check(&p, "bin of 400 circles", 0.05f, false);
        ledge_world_destroy(p.w);
    }
}

// --- the matrix -------------------------------------------------------------------

// Optimised builds run every cell. The sanitizer build (-O0, some 20
// times slower) and valgrind (some 50 times) run a sample: every
// `stride`-th size (always the largest), gravity (0, -10) alone where a
// test says so. Memory errors show on any of them.
static bool reduced(void) {
#ifdef __OPTIMIZE__
    return test_cases(10) != 10; // under valgrind
#else
    return true;
#endif
}

static int stride(int n) {
    return reduced() ? n : 1;
}

/// How many gravity directions a test goes through.
static int directions(void) {
    return reduced() ? 1 : 4;
}

static bool chosen(int k, int first, int last, int every) {
    return k == last || (k - first) % every == 0;
}

// Towers of 1 to 30 of every shape, gravity all round.
static void test_towers(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        for (int kind = 0; kind < SHAPE_KINDS; ++kind) {
            for (int n = 1; n <= 30; ++n) {
                if (chosen(n, 1, 30, stride(7))) run_tower(o, n, (shape_kind)kind, 1.0f, 1.0f);
            }
        }
    }
}

// Pyramids with bases 2 to 30: boxes, squares made as polygons, circles.
static void test_pyramids(void **state) {
    (void)state;
    static const shape_kind kinds[] = {SHAPE_BOX, SHAPE_QUAD, SHAPE_CIRCLE};
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        for (int k = 0; k < 3; ++k) {
            for (int base = 2; base <= 30; ++base) {
                // Gravity (0, -10) every base; the other directions every
                // fourth (same code, turned).
                if (chosen(base, 2, 30, reduced() ? 7 : (g == 0 ? 1 : 4)))
                    run_pyramid(o, base, kinds[k]);
            }
        }
    }
}

// Mass ratios 1:1 to 1:1000 either way up: a body on one other, and a
// tower of 10 whose top, or whose nine others, are the heavy ones.
static void test_mass_ratios(void **state) {
    (void)state;
    static const float ratio[] = {1.0f, 3.0f, 10.0f, 30.0f, 100.0f, 300.0f, 1000.0f};
    static const shape_kind kinds[] = {SHAPE_BOX, SHAPE_CIRCLE, SHAPE_HEXAGON};
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        for (int k = 0; k < 3; ++k) {
            for (int r = 0; r < 7; ++r) {
                if (!chosen(r, 0, 6, stride(3))) continue;
                run_tower(o, 2, kinds[k], ratio[r], 1.0f);
                run_tower(o, 2, kinds[k], 1.0f, ratio[r]);
                run_tower(o, 10, kinds[k], ratio[r], 1.0f);
                run_tower(o, 10, kinds[k], 1.0f, ratio[r]);
            }
        }
    }
}

// --- floors of every tile group -----------------------------------------------------

/// A pile on a floor `r`: a tower of three boxes and a pyramid of six
/// circles (three rows) side by side, dropped 0.05 m above the surface,
/// friction `f`. Asserts rest: after 600 steps no body moves faster than
/// 0.01 m/s, none moved along the floor by more than 0.01 m over the last
/// 300 steps, overlaps at most 2 * slop, nothing in a solid tile.
static void run_floor(scene_opts o, ramp r, float f, const char *what) {
    pile p;
    pile_begin(&p, o.gravity, o.workers, o.sleep, o.law);
    fill_ramp(&p, r, 14);
    float slope = sqrtf(1.0f + r.rise * r.rise); // 1 / cos of the slope
    // The tower: the box's lowest corner 0.05 above the surface.
    float corner = r.rise >= 0.0f ? -3.5f : -4.5f;
    for (int i = 0; i < 3; ++i) {
        pile_add(&p, make_shape(&p, SHAPE_BOX), -4.0f, ramp_height(r, corner) + 0.55f + (float)i, 0,
                 1.0f, 1.0f, f, 0.0f);
    }
    // The circles: each 0.05 above the surface under it, rows resting in the
    // pockets of the row below (as laid on a flat floor, then lifted).
    for (int row = 0; row < 3; ++row) {
        for (int i = 0; i < 3 - row; ++i) {
            float a = 3.0f - 0.5f * (float)(2 - row) + (float)i;
            pile_add(&p, ledge_make_circle((vec2s){{0, 0}}, 0.5f), a,
                     ramp_height(r, a) + 0.5f * slope + 0.05f + 0.8660254f * (float)row +
                         (row > 0 ? 0.05f : 0.0f),
                     0, 1.0f, 1.0f, f, 0.0f);
        }
    }
    pile_step(&p, STEPS / 2);
    for (int i = 0; i < p.n; ++i) p.along0[i] = along_of(&p, ledge_body_position(p.w, p.id[i]));
    pile_step(&p, STEPS / 2);
    figures m = pile_measure(&p);
    bool ok = m.overlap <= 2.0f * p.slop && m.speed <= 0.01f && m.drift <= 0.01f && m.escaped == 0;
    if (!ok || getenv("LEDGE_TEST_VERBOSE")) {
        printf("%s, friction %g, %s law, gravity (%g, %g): overlap %.4f m, speed %.4f m/s, moved "
               "%.4f m over the last 300 steps, escaped or in solid %d\n",
               what, f, o.law == LEDGE_FRICTION_N ? "N's" : "Coulomb's", gravities[o.gravity].x,
               gravities[o.gravity].y, m.overlap, m.speed, m.drift, m.escaped);
    }
    if (!ok) fail_msg("a pile on %s does not rest", what);
    ledge_world_destroy(p.w);
}

// Full and half tiles, and ramps of every slope group facing either way,
// where the friction holds a body: f = 1 under N's law (a lone body stops
// dead), and Coulomb's law with f = 1 where tan(slope) <= f. (A pile on a
// ramp needs more friction than a lone body: the pyramid's lower circles
// carry its sideways push too; at f = 0.6 on the 26.6 degree ramp under
// Coulomb's law it rearranges for some 400 steps before it rests.)
static void test_floors(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        run_floor(o, (ramp){0.0f, 0.0f}, 0.6f, "full tiles");
        run_floor(o, (ramp){0.0f, -0.5f}, 0.6f, "half tiles");
        static const float rises[3] = {1.0f, 0.5f, 2.0f};
        static const char *const names[3] = {"a 45 degree ramp", "a 26.6 degree ramp",
                                             "a 63.4 degree ramp"};
        for (int k = 0; k < 3; ++k) {
            for (int facing = -1; facing <= 1; facing += 2) {
                ramp r = {rises[k] * (float)facing, 13.0f}; // all of it inside the map
                o.law = LEDGE_FRICTION_N;
                run_floor(o, r, 1.0f, names[k]);
                if (rises[k] <= 1.0f) { // tan(slope) <= f: Coulomb's law holds a lone body
                    o.law = LEDGE_FRICTION_COULOMB;
                    run_floor(o, r, 1.0f, names[k]);
                }
            }
        }
    }
}

// --- workers and sleep ----------------------------------------------------------------

typedef void scene_builder(pile *p, scene_opts o);

static void tower20(pile *p, scene_opts o) {
    build_tower(p, o, 20, SHAPE_BOX, 1.0f, 1.0f);
}
static void pyramid20(pile *p, scene_opts o) {
    build_pyramid(p, o, 20, SHAPE_BOX);
}
static void circles15(pile *p, scene_opts o) {
    build_pyramid(p, o, 15, SHAPE_CIRCLE);
}
static void heavy1000(pile *p, scene_opts o) {
    build_tower(p, o, 10, SHAPE_HEXAGON, 1000.0f, 1.0f);
}
static void bin400(pile *p, scene_opts o) {
    build_bin(p, o, 400);
}

static scene_builder *const builders[] = {tower20, pyramid20, circles15, heavy1000, bin400};
static const char *const builder_name[] = {"tower of 20 boxes", "pyramid of 20 boxes",
                                           "pyramid of 15 circles", "hexagon of 1000 on 9",
                                           "bin of 400 circles"};
#define BUILDERS ((int)(sizeof builders / sizeof builders[0]))

// One worker and two give the same bits after every step.
static void test_workers_same_bits(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        for (int b = 0; b < (reduced() ? 3 : BUILDERS); b += reduced() ? 2 : 1) {
            scene_opts o = DEFAULTS;
            o.gravity = g;
            pile one, two;
            builders[b](&one, o);
            o.workers = 2;
            builders[b](&two, o);
            for (int k = 0; k < STEPS; ++k) {
                ledge_world_step(one.w, DT);
                ledge_world_step(two.w, DT);
                if (ledge_world_hash(one.w) != ledge_world_hash(two.w))
                    fail_msg("%s, gravity %d: 1 and 2 workers differ at step %d", builder_name[b],
                             g, k + 1);
            }
            ledge_world_destroy(one.w);
            ledge_world_destroy(two.w);
        }
    }
}

// With sleeping on, the piles come to rest as well and fall asleep; woken
// all at once, they stay as they were.
static void test_sleep_on_and_off(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        for (int b = 0; b < (reduced() ? 3 : BUILDERS); b += reduced() ? 2 : 1) {
            scene_opts o = DEFAULTS;
            o.gravity = g;
            o.sleep = true;
            pile p;
            builders[b](&p, o);
            bool poured = builders[b] == bin400;
            float limit = poured ? 0.05f : 0.01f;
            pile_step(&p, poured ? 2 * STEPS : STEPS);
            int awake = 0;
            for (int i = 0; i < p.n; ++i) awake += ledge_body_is_awake(p.w, p.id[i]);
            char what[160];
            snprintf(what, sizeof what, "%s, sleeping (%d of %d awake)", builder_name[b], awake,
                     p.n);
            pile_check(&p, what, limit, !poured);
            if (awake * 10 > p.n) fail_msg("%s: most bodies should sleep", what);
            for (int i = 0; i < p.n; ++i) assert_true(ledge_body_set_awake(p.w, p.id[i], true));
            pile_step(&p, STEPS);
            snprintf(what, sizeof what, "%s, woken and stepped %d times", builder_name[b], STEPS);
            pile_check(&p, what, limit, !poured);
            ledge_world_destroy(p.w);
        }
    }
}

// --- nothing escapes ---------------------------------------------------------------

// A body pushed into a floor deeper than a cell lies in cells whose four
// sides are blocked, where no tile contact can push it out: it is pushed
// back out the way it came. A kinematic slab (it ignores tiles) driven
// down into a floor of 0.1 m tiles presses a small ball ahead of it at 0.33
// m a step; without the rule the ball went through the floor and out of
// the map. Gravity all round.
static void test_buried_bodies_come_out(void **state) {
    (void)state;
    for (int g = 0; g < 4; ++g) {
        ledge_world_def wd = ledge_default_world_def();
        wd.gravity = gravities[g];
        wd.map_width = wd.map_height = 160;
        wd.tile_size = 0.1f;
        ledge_world *w = ledge_world_create(&wd);
        assert_non_null(w);
        vec2s up = {{-gravities[g].x / 10.0f, -gravities[g].y / 10.0f}};
        // The floor: 4 m of tiles along the map's edge on the gravity side.
        for (int x = 0; x < 160; ++x) {
            for (int y = 0; y < 160; ++y) {
                float h = up.x > 0.0f   ? (float)x
                          : up.x < 0.0f ? 159.0f - (float)x
                          : up.y > 0.0f ? (float)y
                                        : 159.0f - (float)y;
                if (h < 40.0f) ledge_tilemap_set(ledge_world_tilemap(w), x, y, LEDGE_TILE_FULL);
            }
        }
        vec2s centre = {{8.0f, 8.0f}}; // the floor's surface lies 4 m from it along -up
        float surface = 4.0f - 8.0f;   // the floor's surface, from the centre along up
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.05f);
        bd.position =
            (vec2s){{centre.x + up.x * (surface + 0.05f), centre.y + up.y * (surface + 0.05f)}};
        ledge_body_id ball = ledge_body_create(w, &bd);
        bd.type = LEDGE_BODY_KINEMATIC;
        bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.5f, 0.5f}});
        bd.position =
            (vec2s){{centre.x + up.x * (surface + 0.7f), centre.y + up.y * (surface + 0.7f)}};
        bd.velocity = (vec2s){{-up.x * 20.0f, -up.y * 20.0f}};
        ledge_body_id slab = ledge_body_create(w, &bd);
        assert_true(ledge_body_is_valid(w, ball) && ledge_body_is_valid(w, slab));
        for (int k = 0; k < 60; ++k) {
            ledge_world_step(w, DT);
            vec2s p = ledge_body_position(w, ball);
            float height = (p.x - centre.x) * up.x + (p.y - centre.y) * up.y - surface;
            // Pressed, it may sink into the floor's top row (whose open side
            // pushes it out), never deeper.
            if (height < -0.1f)
                fail_msg("gravity %d, step %d: the ball lies %.3f m under the floor's surface", g,
                         k + 1, -height);
        }
        vec2s end = ledge_body_position(w, ball);
        assert_false(ledge_tilemap_query_point(ledge_world_tilemap(w), end, NULL));
        // A body put inside the floor by the game (no way it came) comes
        // out against gravity, onto the surface.
        vec2s deep = {{centre.x + up.x * (surface - 2.0f), centre.y + up.y * (surface - 2.0f)}};
        assert_true(ledge_body_set_position(w, ball, deep));
        ledge_world_step(w, DT);
        vec2s p = ledge_body_position(w, ball);
        float height = (p.x - centre.x) * up.x + (p.y - centre.y) * up.y - surface;
        if (!(height > 0.0f && height < 0.1f))
            fail_msg("gravity %d: put 2 m into the floor, the ball ends %.3f m above it", g,
                     height);
        ledge_world_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_hour_scenes),
        cmocka_unit_test(test_towers),
        cmocka_unit_test(test_pyramids),
        cmocka_unit_test(test_mass_ratios),
        cmocka_unit_test(test_floors),
        cmocka_unit_test(test_workers_same_bits),
        cmocka_unit_test(test_sleep_on_and_off),
        cmocka_unit_test(test_buried_bodies_come_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
