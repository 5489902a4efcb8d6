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
// Columns of circles (the pile's pair of two circles keeps its contact up
// to four fifths of the slop apart) are asserted pair by pair, gravity in
// steps of 45 degrees, and a circle set just above another touches it.
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

static double speed(vec2s u) {
    return sqrt((double)u.x * u.x + (double)u.y * u.y);
}

/// Whether body `id` reports a contact with `other` whose normal has a
/// cosine above `min_cos` with `up` (-2: any normal).
static bool touches(ledge_world *w, ledge_body_id id, ledge_body_id other, vec2s up,
                    float min_cos) {
    ledge_contact_data cd[8];
    int m = ledge_body_contacts(w, id, cd, 8);
    for (int i = 0; i < m && i < 8; ++i) {
        float c = cd[i].normal.x * up.x + cd[i].normal.y * up.y;
        if (ledge_body_id_equals(cd[i].other, other) && c > min_cos) return true;
    }
    return false;
}

// --- circles held apart ------------------------------------------------------------

/// A column of `n` circles of radius 0.5 set touching on a static circle of
/// radius 1, gravity 10 toward angle `deg` (degrees from +x), the top
/// circle's density `top`, the others' `rest`. Asserts the documented rest
/// (world.h, "Projection leaves linear_slop"): after 600 steps each pair of
/// circles (in a channel a millimetre wider than they are) is at most 2
/// slop into each other and at most four fifths of
/// the slop apart, each circle reports its contact with the one under it
/// (normal up) and stands on it, the column has not leant, the top is no
/// lower than slop (1 + (n - 1) / 5) below where it was set and no higher
/// than (n - 1) 4/5 slop above it, and nothing moves.
static void run_column(float deg, int n, float top, float rest, ledge_friction_law law,
                       bool sleep) {
    double a = (double)deg * 3.14159265358979323846 / 180.0;
    vec2s down = {{(float)cos(a), (float)sin(a)}};
    vec2s up = {{-down.x, -down.y}};
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = (vec2s){{10.0f * down.x, 10.0f * down.y}};
    wd.friction_law = law;
    wd.enable_sleep = sleep;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    const float slop = wd.linear_slop;
    vec2s c = {{32.0f, 32.0f}};
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_STATIC;
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 1.0f);
    bd.position = c;
    ledge_body_id floor = ledge_body_create(w, &bd);
    // A circle on a circle stands only while gravity is exactly along the
    // column (with the diagonals it is not: cos 45 degrees rounds), so the
    // column stands in a channel of two static walls 0.0005 m clear of it.
    vec2s side = {{up.y, -up.x}};
    for (int k = -1; k <= 1; k += 2) {
        float off = (float)k * (0.5f + 0.0005f + 0.25f);
        vec2s m = {{c.x + side.x * off + up.x * 4.0f, c.y + side.y * off + up.y * 4.0f}};
        vec2s q[4];
        for (int i = 0; i < 4; ++i) {
            float sa = (i == 0 || i == 3) ? -0.25f : 0.25f, sb = i < 2 ? -3.0f : 3.0f;
            q[i] = (vec2s){{m.x + side.x * sa + up.x * sb, m.y + side.y * sa + up.y * sb}};
        }
        assert_true(ledge_make_polygon(q, 4, &bd.shape));
        bd.position = (vec2s){{0.0f, 0.0f}};
        assert_true(ledge_body_is_valid(w, ledge_body_create(w, &bd)));
    }
    ledge_body_id id[12];
    assert_true(n <= 12);
    bd.type = LEDGE_BODY_DYNAMIC;
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.5f);
    for (int k = 0; k < n; ++k) {
        float h = 1.5f + (float)k;
        bd.position = (vec2s){{c.x + up.x * h, c.y + up.y * h}};
        bd.density = k == n - 1 ? top : rest;
        id[k] = ledge_body_create(w, &bd);
        assert_true(ledge_body_is_valid(w, id[k]));
    }
    for (int s = 0; s < STEPS; ++s) ledge_world_step(w, DT);
    char what[160];
    snprintf(what, sizeof what,
             "column of %d circles, gravity toward %g degrees, densities %g on %g, %s%s", n,
             (double)deg, (double)top, (double)rest,
             law == LEDGE_FRICTION_COULOMB ? "Coulomb" : "N", sleep ? ", sleeping" : "");
    for (int k = 0; k < n; ++k) {
        vec2s p = ledge_body_position(w, id[k]);
        vec2s q = k == 0 ? c : ledge_body_position(w, id[k - 1]);
        float reach = k == 0 ? 1.5f : 1.0f;
        vec2s d = {{p.x - q.x, p.y - q.y}};
        float apart = sqrtf(d.x * d.x + d.y * d.y) - reach; // < 0: overlap
        float lean = fabsf(d.x * up.y - d.y * up.x);
        if (apart < -2.0f * slop || apart > 0.8f * slop + 1e-5f ||
            lean > 2.0f * (0.0005f + slop) + 1e-4f)
            fail_msg("%s: circle %d is %.5f m apart from the one under it, leaning %.5f m", what, k,
                     (double)apart, (double)lean);
        if (k > 0 && apart < -2.0f * wd.linear_slop / 5.0f - 1e-4f)
            fail_msg("%s: circle %d is %.5f m into the one under it (a pile's pair keeps a fifth "
                     "of the slop)",
                     what, k, (double)-apart);
        if (speed(ledge_body_velocity(w, id[k])) > 0.01)
            fail_msg("%s: circle %d still moves", what, k);
        if (!touches(w, id[k], k == 0 ? floor : id[k - 1], up, 0.999f))
            fail_msg("%s: circle %d reports no contact with the one under it", what, k);
        if (!ledge_body_ground(w, id[k]).on_ground)
            fail_msg("%s: circle %d does not stand on the one under it", what, k);
    }
    vec2s t = ledge_body_position(w, id[n - 1]);
    float height = (t.x - c.x) * up.x + (t.y - c.y) * up.y - (0.5f + (float)n);
    float low = -slop * (1.0f + (float)(n - 1) / 5.0f) - 0.005f;
    float high = 0.8f * slop * (float)(n - 1) + 1e-4f;
    if (height < low || height > high)
        fail_msg("%s: the top rests %.5f m from where it was set (allowed %.5f to %.5f)", what,
                 (double)height, (double)low, (double)high);
    ledge_world_destroy(w);
}

// Columns of circles held apart (a pile's pair of circles keeps its
// contact up to four fifths of the slop apart): gravity all round in steps
// of 45 degrees (y up and y down), mass ratios 1:1000 to 1000:1 either way,
// both friction laws, sleeping off and on.
static void test_circle_columns_hold(void **state) {
    (void)state;
    static const float ratio[] = {1.0f, 10.0f, 1000.0f};
    for (int g = 0; g < 8; g += reduced() ? 3 : 1) {
        for (int r = 0; r < 3; ++r) {
            for (int law = 0; law < 2; ++law) {
                for (int sleep = 0; sleep < 2; ++sleep) {
                    ledge_friction_law l = law ? LEDGE_FRICTION_COULOMB : LEDGE_FRICTION_N;
                    run_column(-90.0f + 45.0f * (float)g, 6, ratio[r], 1.0f, l, sleep);
                    if (r > 0) run_column(-90.0f + 45.0f * (float)g, 6, 1.0f, ratio[r], l, sleep);
                }
            }
        }
    }
}

// A circle set 0.0035 m above a resting dynamic circle (within four fifths
// of the slop once it has fallen one step's g dt^2) touches it after one
// step: the contact is reported with the normal up and the circle stands
// on it. Gravity all round; set 0.008 m above, it does not touch yet.
static void test_circle_held_above_a_circle(void **state) {
    (void)state;
    for (int g = 0; g < 4; ++g) {
        for (int far = 0; far < 2; ++far) {
            pile p;
            pile_begin(&p, g, 1, false, LEDGE_FRICTION_N);
            pile_floor(&p, 14, 0, 0);
            ledge_shape circle = ledge_make_circle((vec2s){{0, 0}}, 0.5f);
            ledge_body_id a = pile_add(&p, circle, 0.0f, 0.5f, 0, 1.0f, 1.0f, 0.5f, 0.0f);
            pile_step(&p, 120);
            float h = height_of(&p, ledge_body_position(p.w, a)) + 1.0f + (far ? 0.008f : 0.0035f);
            ledge_body_id b = pile_add(&p, circle, 0.0f, h, 0, 1.0f, 1.0f, 0.5f, 0.0f);
            pile_step(&p, 1);
            bool found = touches(p.w, b, a, p.up, 0.999f);
            float gap = height_of(&p, ledge_body_position(p.w, b)) -
                        height_of(&p, ledge_body_position(p.w, a)) - 1.0f;
            if (found != !far || ledge_body_ground(p.w, b).on_ground != !far)
                fail_msg("gravity %d, set %.4f m above: %.5f m apart after a step, contact %d", g,
                         far ? 0.008 : 0.0035, (double)gap, found);
            ledge_world_destroy(p.w);
        }
    }
}

// Two circles side by side on a floor a millimetre apart are not a pile's
// pair: they report no contact with each other, and neither moves toward
// the other.
static void test_circles_side_by_side_not_held(void **state) {
    (void)state;
    for (int g = 0; g < 4; ++g) {
        pile p;
        pile_begin(&p, g, 1, false, LEDGE_FRICTION_N);
        pile_floor(&p, 14, 0, 0);
        ledge_body_id a = pile_add(&p, ledge_make_circle((vec2s){{0, 0}}, 0.5f), -0.5005f, 0.5f, 0,
                                   1.0f, 1.0f, 0.5f, 0.0f);
        ledge_body_id b = pile_add(&p, ledge_make_circle((vec2s){{0, 0}}, 0.5f), 0.5005f, 0.5f, 0,
                                   1.0f, 1.0f, 0.5f, 0.0f);
        pile_step(&p, STEPS);
        vec2s pa = ledge_body_position(p.w, a), pb = ledge_body_position(p.w, b);
        float gap = fabsf(along_of(&p, pb) - along_of(&p, pa)) - 1.0f;
        assert_false(touches(p.w, a, b, p.up, -2.0f));
        if (fabsf(gap - 0.001f) > 1e-4f)
            fail_msg("gravity %d: the gap is %.5f m, set 0.001 m", g, (double)gap);
        ledge_world_destroy(p.w);
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
        cmocka_unit_test(test_circle_columns_hold),
        cmocka_unit_test(test_circle_held_above_a_circle),
        cmocka_unit_test(test_circles_side_by_side_not_held),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
