// Characters (character.h): platforms carrying them in every direction
// and speed, for each documented frame order, y up and y down; the state
// against ledge_body_ground (one truth) and its refusals; leaving a
// platform; coyote time; drop-through without a step; real velocity.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"

#include <math.h>
#include <stdio.h>

static const float DT = 1.0f / 60.0f;

static vec2s v(double x, double y) {
    vec2s r = {{(float)x, (float)y}};
    return r;
}

// An empty 40 x 40 world with gravity g along y (-20: y up, +20: y down).
static ledge_world *make_world(float g) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, g);
    wd.map_width = 40;
    wd.map_height = 40;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    return w;
}

static ledge_body_id add_character(ledge_world *w, vec2s p) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(0.3, 0.45));
    bd.position = p;
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_true(ledge_character_create(w, id, NULL));
    return id;
}

// --- platforms --------------------------------------------------------------

// A kinematic platform, a box of half size (half_w, 0.25), at p.
static ledge_body_id add_platform(ledge_world *w, vec2s p, double half_w) {
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(half_w, 0.25));
    pd.position = p;
    ledge_body_id id = ledge_body_create(w, &pd);
    assert_true(ledge_body_is_valid(w, id));
    return id;
}

// The ride set-up: a platform (half width half_w) at p and a character
// dropped on it dx from its centre, 0.005 above it along up (+1 y up, -1 y
// down), landed by one move under gravity g: it stands on the platform.
static ledge_body_id ride_setup(ledge_world *w, vec2s p, double half_w, double dx, float g,
                                ledge_body_id *plat) {
    double up = g < 0 ? 1.0 : -1.0;
    *plat = add_platform(w, p, half_w);
    ledge_body_id ch = add_character(w, v(p.x + dx, p.y + up * (0.25 + 0.45 + 0.005)));
    ledge_character_state st;
    assert_true(ledge_character_move(w, ch, v(0, g * DT), DT, &st)); // land
    assert_true(st.on_floor && st.floor_body.index1 == plat->index1);
    return ch;
}

typedef enum path { PATH_UP_DOWN, PATH_SIDEWAYS, PATH_DIAGONAL, PATH_CIRCLE, PATH_COUNT } path;
static const char *path_name[] = {"up/down", "sideways", "diagonal", "circle"};

// Where the platform is at time t (speed s units/s along the path): legs
// of constant speed 1.5 units long (a triangle wave) or a circle of radius
// 1; `up` is +1 for y up, -1 for y down. One cycle lasts period().
static vec2s path_at(path p, double s, double t, double up) {
    const double c = 20.0, A = 1.5;
    if (p == PATH_CIRCLE) {
        double a = s * t; // radius 1: angular speed s
        return v(c + cos(a), c + up * sin(a));
    }
    double per = 4.0 * A / s, ph = fmod(t, per) / per;                   // 0..1
    double u = ph < 0.25 ? 4 * ph : ph < 0.75 ? 2 - 4 * ph : 4 * ph - 4; // -1..1
    double dx = p == PATH_UP_DOWN ? 0 : p == PATH_SIDEWAYS ? 1 : 0.70710678118654752;
    double dy = p == PATH_UP_DOWN ? 1 : p == PATH_SIDEWAYS ? 0 : 0.70710678118654752;
    return v(c + A * u * dx, c + up * A * u * dy);
}

static double period(path p, double s) {
    return p == PATH_CIRCLE ? 6.283185307179586 / s : 6.0 / s;
}

typedef struct ride {
    double worst_drift; ///< Largest |relative position change| over one cycle.
    int frames, on_floor;
} ride;

// A character standing still on a platform that follows path p at speed
// s for 3 cycles. order 1: set the target, move, step; order 2: set the
// target, step, move. Each frame after the step (or the move) the
// character must stand on the platform.
static ride ride_platform(path p, double s, int order, float g) {
    ledge_world *w = make_world(g);
    double up = g < 0 ? 1.0 : -1.0;
    ledge_body_id plat;
    ledge_body_id ch = ride_setup(w, path_at(p, s, 0.0, up), 1.5, 0.4, g, &plat);
    ledge_character_state st;
    ride r = {0.0, 0, 0};
    int per_frames = (int)lround(period(p, s) / DT);
    int frames = 3 * per_frames;
    vec2s rel0 = v(0, 0);
    for (int f = 0; f <= frames; ++f) {
        vec2s rel = v(ledge_body_position(w, ch).x - ledge_body_position(w, plat).x,
                      ledge_body_position(w, ch).y - ledge_body_position(w, plat).y);
        if (f % per_frames == 0) {
            if (f > 0) {
                double d = hypot(rel.x - rel0.x, rel.y - rel0.y);
                r.worst_drift = d > r.worst_drift ? d : r.worst_drift;
            }
            rel0 = rel;
        }
        if (f == frames) break;
        assert_true(ledge_body_set_target(w, plat, path_at(p, s, (f + 1) * (double)DT, up), DT));
        ledge_character_get_state(w, ch, &st);
        vec2s vel = v(st.velocity.x, st.velocity.y + g * DT);
        if (order == 1) {
            assert_true(ledge_character_move(w, ch, vel, DT, &st));
            ledge_world_step(w, DT);
        } else {
            ledge_world_step(w, DT);
            assert_true(ledge_character_move(w, ch, vel, DT, &st));
        }
        ledge_character_get_state(w, ch, &st);
        r.frames++;
        r.on_floor += st.on_floor && st.floor_body.index1 == plat.index1;
    }
    ledge_world_destroy(w);
    return r;
}

static void test_platforms_carry(void **state) {
    (void)state;
    double worst = 0.0;
    int cases = 0;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        for (int order = 1; order <= 2; ++order) {
            for (int p = 0; p < PATH_COUNT; ++p) {
                for (int s = 1; s <= 10; ++s) {
                    ride r = ride_platform((path)p, s, order, g);
                    if (r.on_floor != r.frames || !(r.worst_drift < 1e-4)) {
                        fail_msg("%s at %d units/s, order %d, gravity %g: on the platform %d of "
                                 "%d frames, drift %.3g per cycle",
                                 path_name[p], s, order, (double)g, r.on_floor, r.frames,
                                 r.worst_drift);
                    }
                    worst = r.worst_drift > worst ? r.worst_drift : worst;
                    ++cases;
                }
            }
        }
    }
    print_message("%d platform rides: on the platform every frame, worst drift %.3g per cycle\n",
                  cases, worst);
}

// Leaving a platform that rises at 3 units/s (along up) and moves sideways
// at 2, by jumping (9 units/s along up) or by walking off its end: the
// platform's velocity is added as platform_on_leave asks (all of it, its
// part along up, or nothing), once, on the move that leaves it. Gravity
// down and up.
static void test_platform_on_leave(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        double up = g < 0 ? 1.0 : -1.0;
        for (int walk = 0; walk < 2; ++walk) {
            for (int mode = 0; mode < 3; ++mode) {
                ledge_world *w = make_world(g);
                ledge_body_id plat;
                ledge_body_id ch = ride_setup(w, v(20, 20), 1.5, walk ? 1.1 : 0.0, g, &plat);
                ledge_character_def cd = ledge_default_character_def();
                cd.platform_on_leave = (ledge_platform_leave)mode;
                assert_true(ledge_character_set_def(w, ch, &cd));
                ledge_character_state st;
                for (int f = 0; f < 10; ++f) {
                    vec2s pp = ledge_body_position(w, plat);
                    ledge_body_set_target(w, plat, v(pp.x + 2 * DT, pp.y + up * 3 * DT), DT);
                    ledge_character_move(w, ch, v(0, g * DT), DT, &st);
                    ledge_world_step(w, DT);
                }
                ledge_character_get_state(w, ch, &st);
                if (!(st.on_floor && st.floor_body.index1 == plat.index1)) {
                    fail_msg("gravity %g walk %d mode %d: off the platform (%g, %g)", (double)g,
                             walk, mode, (double)st.position.x, (double)st.position.y);
                }
                assert_float_equal(st.platform_velocity.x, 2.0f, 1e-3);
                assert_float_equal(st.platform_velocity.y, up * 3.0f, 1e-3);
                // The jump: 9 along up. The walk: 1 unit right in one move,
                // past the platform's end (1.5 - 1.1 + 0.3 = 0.7 from the box's
                // left side), with gravity.
                vec2s vel = walk ? v(60, g * DT) : v(0, up * 9);
                assert_true(ledge_character_move(w, ch, vel, DT, &st));
                if (st.on_floor)
                    fail_msg("gravity %g walk %d: still on the floor", (double)g, walk);
                double add_x = mode == 0 ? 2.0 : 0.0, add_y = mode <= 1 ? up * 3.0 : 0.0;
                if (!(fabs(st.velocity.x - (vel.x + add_x)) < 1e-3 &&
                      fabs(st.velocity.y - (vel.y + add_y)) < 1e-3)) {
                    fail_msg("gravity %g, %s, mode %d: velocity (%g, %g), want (%g, %g)", (double)g,
                             walk ? "walk off" : "jump", mode, (double)st.velocity.x,
                             (double)st.velocity.y, vel.x + add_x, vel.y + add_y);
                }
                vec2s kept = st.velocity; // added once: the next move in the air adds nothing
                assert_true(ledge_character_move(w, ch, kept, DT, &st));
                assert_false(st.on_floor);
                assert_float_equal(st.velocity.x, kept.x, 1e-5);
                assert_float_equal(st.velocity.y, kept.y, 1e-5);
                ledge_world_destroy(w);
            }
        }
    }
}

// --- the state --------------------------------------------------------------

// A walk over floors, a slope, a wall and under a ceiling, y up and y down:
// every frame ledge_body_ground says what the state says; coyote time
// counts the frames off the floor; real velocity is displacement / dt.
static void test_state_is_the_ground(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        ledge_world *w = make_world(g);
        ledge_tilemap *map = ledge_world_tilemap(w);
        // Rows counted from the floor along up.
        int floor_y = g < 0 ? 2 : 37, dir = g < 0 ? 1 : -1;
        for (int x = 0; x < 40; ++x) ledge_tilemap_set(map, x, floor_y, LEDGE_TILE_FULL);
        for (int x = 10; x < 14; ++x) ledge_tilemap_set(map, x, floor_y + 3 * dir, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, 20, floor_y + dir,
                          g < 0 ? LEDGE_TILE_45DEG_NP : LEDGE_TILE_45DEG_NN);
        for (int y = 1; y < 6; ++y) ledge_tilemap_set(map, 30, floor_y + y * dir, LEDGE_TILE_FULL);
        ledge_body_id ch = add_character(w, v(3, floor_y + 0.5 + dir * 1.5));
        ledge_character_state st;
        int floor = 0, wall = 0, ceiling = 0, air = 0;
        float coyote = 0.0f;
        for (int f = 0; f < 400; ++f) {
            ledge_character_get_state(w, ch, &st);
            vec2s vel = v(5, st.velocity.y + g * DT);
            if (f % 60 == 30 && st.on_floor) vel.y = -g * 0.45f;
            vec2s before = ledge_body_position(w, ch);
            assert_true(ledge_character_move(w, ch, vel, DT, &st));
            ledge_ground gr = ledge_body_ground(w, ch);
            assert_int_equal(gr.on_ground, st.on_floor);
            assert_int_equal(gr.on_ceiling, st.on_ceiling);
            assert_int_equal(gr.on_wall_left, st.on_wall && st.wall_side < 0);
            assert_int_equal(gr.on_wall_right, st.on_wall && st.wall_side > 0);
            assert_true(gr.ground_normal.x == st.floor_normal.x &&
                        gr.ground_normal.y == st.floor_normal.y);
            assert_true(gr.wall_normal.x == st.wall_normal.x &&
                        gr.wall_normal.y == st.wall_normal.y);
            assert_int_equal(gr.ground_cell_x, st.floor_cell_x);
            assert_int_equal(gr.ground_cell_y, st.floor_cell_y);
            coyote = st.on_floor ? 0.0f : coyote + DT;
            assert_true(st.time_since_floor == coyote);
            vec2s pos = ledge_body_position(w, ch);
            assert_float_equal(st.real_velocity.x, (pos.x - before.x) / DT, 1e-3);
            assert_float_equal(st.real_velocity.y, (pos.y - before.y) / DT, 1e-3);
            floor += st.on_floor, wall += st.on_wall, ceiling += st.on_ceiling, air += !st.on_floor;
            if (st.on_floor) {
                assert_true(st.floor_is_tile);
                assert_int_equal(st.floor_tile,
                                 ledge_tilemap_get(map, st.floor_cell_x, st.floor_cell_y));
            }
            if (st.on_wall) assert_int_equal(st.wall_side, 1); // walking right into x = 30
            ledge_world_step(w, DT);
        }
        // The walk met each: floors, the wall at x = 30, the ceiling at x 10..13.
        assert_true(floor > 50 && wall > 0 && ceiling > 0 && air > 10);
        ledge_world_destroy(w);
    }
}

static void test_refusals(void **state) {
    (void)state;
    ledge_world *w = make_world(-20.0f);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(0.3, 0.45));
    bd.position = v(5, 5);
    ledge_body_id k = ledge_body_create(w, &bd);
    bd.type = LEDGE_BODY_DYNAMIC;
    ledge_body_id d = ledge_body_create(w, &bd);
    log_capture_start();
    ledge_ground g = ledge_body_ground(w, k); // kinematic, not a character
    assert_false(g.on_ground);
    assert_true(log_capture_says("ledge_body_ground", "not a character"));
    log_capture_start();
    assert_false(ledge_character_create(w, d, NULL));
    assert_true(log_capture_says("ledge_character_create", "not kinematic"));
    ledge_character_state st;
    log_capture_start();
    assert_false(ledge_character_move(w, k, v(1, 0), DT, &st));
    assert_true(log_capture_says("ledge_character_move", "not a character"));
    assert_true(ledge_character_create(w, k, NULL));
    log_capture_start();
    assert_false(ledge_character_create(w, k, NULL));
    assert_true(log_capture_says("ledge_character_create", "already"));
    log_capture_start();
    assert_false(ledge_character_move(w, k, v(NAN, 0), DT, &st));
    assert_true(log_capture_says("ledge_character_move", "velocity"));
    log_capture_start();
    assert_false(ledge_character_move(w, k, v(1, 0), 0.0f, &st));
    assert_true(log_capture_says("ledge_character_move", "dt"));
    ledge_character_def cd = ledge_default_character_def();
    cd.platform_on_leave = (ledge_platform_leave)7;
    log_capture_start();
    assert_false(ledge_character_set_def(w, k, &cd));
    assert_true(log_capture_says("ledge_character_set_def", "platform_on_leave"));
    vec2s p = ledge_body_position(w, k);
    assert_true(p.x == 5.0f && p.y == 5.0f); // refusals changed nothing
    // The character ends with its body; a new body in the slot is none.
    ledge_body_destroy(w, k);
    assert_false(ledge_character_is_valid(w, k));
    bd.type = LEDGE_BODY_KINEMATIC;
    ledge_body_id k2 = ledge_body_create(w, &bd);
    assert_int_equal(k2.index1, k.index1);
    assert_false(ledge_character_is_valid(w, k2));
    log_capture_start();
    assert_false(ledge_character_get_state(w, k2, &st));
    assert_true(log_capture_says("ledge_character_get_state", "not a character"));
    // Another world's id is refused.
    ledge_world *w2 = make_world(-20.0f);
    log_capture_start();
    assert_false(ledge_character_create(w2, k2, NULL));
    assert_true(log_capture_says("ledge_character_create", "world"));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w2);
    ledge_world_destroy(w);
}

// Two one-way ledges one above the other: dropping through the upper one
// with moves only (no step) lands on the lower one (the drop ends once clear).
static void test_drop_through_without_step(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        ledge_world *w = make_world(g);
        ledge_tilemap *map = ledge_world_tilemap(w);
        int dir = g < 0 ? 1 : -1, base = g < 0 ? 10 : 29;
        ledge_one_way way = g < 0 ? LEDGE_ONE_WAY_UP : LEDGE_ONE_WAY_DOWN;
        for (int x = 5; x < 15; ++x) {
            ledge_tilemap_set(map, x, base, LEDGE_TILE_FULL);
            ledge_tilemap_set_one_way(map, x, base, way);
            ledge_tilemap_set(map, x, base + 4 * dir, LEDGE_TILE_FULL);
            ledge_tilemap_set_one_way(map, x, base + 4 * dir, way);
        }
        float top = (float)(base + 4 * dir) + (g < 0 ? 1.0f : 0.0f);
        ledge_body_id ch = add_character(w, v(10, top + dir * 0.46));
        ledge_character_state st;
        assert_true(ledge_character_move(w, ch, v(0, g * DT), DT, &st));
        assert_true(st.on_floor && st.floor_cell_y == base + 4 * dir);
        assert_true(ledge_body_drop_through(w, ch));
        vec2s vel = v(0, 0);
        for (int f = 0; f < 120; ++f) {
            vel.y += g * DT;
            assert_true(ledge_character_move(w, ch, vel, DT, &st));
            vel = st.velocity;
        }
        assert_true(st.on_floor);
        assert_int_equal(st.floor_cell_y, base);
        ledge_world_destroy(w);
    }
}

// A box sliding down a wall into the corner it makes with the floor lands
// on the floor (the mover once pushed it 2 units down through the floor:
// the floor cell under the wall has only its far side open), y up and down.
static void test_wall_corner_landing(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        int dir = g < 0 ? 1 : -1, floor_y = g < 0 ? 2 : 37;
        ledge_world *w = make_world(g);
        ledge_tilemap *map = ledge_world_tilemap(w);
        for (int x = 0; x < 40; ++x) ledge_tilemap_set(map, x, floor_y, LEDGE_TILE_FULL);
        for (int y = 1; y < 6; ++y) ledge_tilemap_set(map, 30, floor_y + y * dir, LEDGE_TILE_FULL);
        float top = (float)floor_y + (g < 0 ? 1.0f : 0.0f);
        for (int k = 0; k < 40; ++k) { // various heights and speeds
            ledge_body_id ch = add_character(w, v(29.0 + 0.01 * k, top + dir * (2.5 + 0.05 * k)));
            ledge_character_state st;
            vec2s vel = v(5, 0);
            for (int f = 0; f < 90; ++f) {
                vel.y += g * DT;
                assert_true(ledge_character_move(w, ch, vel, DT, &st));
                vel = st.velocity;
            }
            if (!st.on_floor || fabsf(st.position.y - (top + dir * 0.45f)) > 0.03f) {
                fail_msg("gravity %g, start %d: ends at (%g, %g), on the floor %d", (double)g, k,
                         (double)st.position.x, (double)st.position.y, st.on_floor);
            }
            assert_float_equal(st.position.x, 29.7f, 1e-3);
            ledge_body_destroy(w, ch);
        }
        ledge_world_destroy(w);
    }
}

// --- options ------------------------------------------------------------------

// Walking right into a HALF tile step on a FULL floor: with step_height
// 0.55 the character steps up and walks on; without, or onto a FULL tile
// (1 high), it is blocked. Gravity down and up.
static void test_step_up(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        int dir = g < 0 ? 1 : -1, floor_y = g < 0 ? 2 : 37;
        float top = (float)floor_y + (g < 0 ? 1.0f : 0.0f);
        for (int c = 0; c < 3; ++c) { // 0: half step, stepping; 1: half, no step; 2: full
            ledge_world *w = make_world(g);
            ledge_tilemap *map = ledge_world_tilemap(w);
            for (int x = 0; x < 40; ++x) ledge_tilemap_set(map, x, floor_y, LEDGE_TILE_FULL);
            ledge_tile half = g < 0 ? LEDGE_TILE_HALF_U : LEDGE_TILE_HALF_D;
            for (int x = 10; x < 40; ++x) {
                ledge_tilemap_set(map, x, floor_y + dir, c == 2 ? LEDGE_TILE_FULL : half);
            }
            ledge_body_id ch = add_character(w, v(5, top + dir * 0.46));
            ledge_character_def cd = ledge_default_character_def();
            cd.move.step_height = c == 1 ? 0.0f : 0.55f;
            assert_true(ledge_character_set_def(w, ch, &cd));
            ledge_character_state st;
            int off_floor = 0;
            for (int f = 0; f < 120; ++f) {
                ledge_character_get_state(w, ch, &st);
                assert_true(ledge_character_move(w, ch, v(5, st.velocity.y + g * DT), DT, &st));
                off_floor += !st.on_floor;
            }
            if (c == 0) {
                assert_true(st.position.x > 14.0f);                         // walked on
                assert_float_equal(st.position.y, top + dir * 0.95f, 1e-3); // on the step
                assert_int_equal(off_floor, 0);                             // never left the ground
            } else {
                assert_float_equal(st.position.x, 9.7f, 1e-3); // blocked
                assert_true(st.on_wall);
            }
            ledge_world_destroy(w);
        }
    }
}

// Falling onto a 63.43 degree face (a static triangle): slide_on_steep
// slides down it, the vertical speed growing at g sin^2 (0.8 g), in contact
// every frame; without it the character falls past it at g. Both gravities.
static void test_slide_on_steep(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        double s = g < 0 ? 1.0 : -1.0, y0 = g < 0 ? 1.0 : 39.0;
        for (int slide = 0; slide < 2; ++slide) {
            ledge_world *w = make_world(g);
            vec2s tri[3] = {v(20, y0), v(24, y0), v(20, y0 + s * 8)};
            if (s < 0) { // keep the winding counter-clockwise
                vec2s t = tri[1];
                tri[1] = tri[2];
                tri[2] = t;
            }
            ledge_body_def bd = ledge_default_body_def();
            bd.type = LEDGE_BODY_STATIC;
            assert_true(ledge_make_polygon(tri, 3, &bd.shape));
            ledge_body_create(w, &bd);
            ledge_body_id ch = add_character(w, v(21.8, y0 + s * 8.0));
            ledge_character_def cd = ledge_default_character_def();
            cd.move.slide_on_steep = slide == 1;
            assert_true(ledge_character_set_def(w, ch, &cd));
            ledge_character_state st;
            int touching = 0, first = -1, last = -1;
            float v_first = 0.0f, v_last = 0.0f;
            for (int f = 0; f < 60; ++f) {
                ledge_character_get_state(w, ch, &st);
                assert_true(
                    ledge_character_move(w, ch, v(st.velocity.x, st.velocity.y + g * DT), DT, &st));
                if (st.on_wall && first < 0) first = f, v_first = st.velocity.y;
                if (st.on_wall) touching++, last = f, v_last = st.velocity.y;
            }
            assert_true(first >= 0 && last - first > 5);
            double rate = (double)(v_last - v_first) / ((last - first) * (double)DT) / g;
            if (slide) {
                assert_float_equal(rate, 0.8, 0.03);
                assert_int_equal(touching, last - first + 1); // in contact all the way
            } else {
                assert_float_equal(rate, 1.0, 0.03);
            }
            ledge_world_destroy(w);
        }
    }
}

// Standing still on a 45 degree slope: stop_on_slope keeps x to the bit;
// without it the character slides down. Walking off a 0.2 step down:
// snap_length 0.25 keeps it on the floor every frame, snap_length 0 lets
// it fall off. Gravity down and up.
static void test_slope_and_snap_options(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        int dir = g < 0 ? 1 : -1, floor_y = g < 0 ? 2 : 37;
        float top = (float)floor_y + (g < 0 ? 1.0f : 0.0f);
        for (int stop = 0; stop < 2; ++stop) {
            ledge_world *w = make_world(g);
            ledge_tilemap *map = ledge_world_tilemap(w);
            for (int x = 0; x < 40; ++x) ledge_tilemap_set(map, x, floor_y, LEDGE_TILE_FULL);
            for (int x = 10; x < 20; ++x) { // a rise to the right: floor_y + dir filled
                ledge_tilemap_set(map, x, floor_y + dir,
                                  g < 0 ? LEDGE_TILE_45DEG_NP : LEDGE_TILE_45DEG_NN);
            }
            // On the slope cell x = 12: its surface at x 12.5 is half a cell up.
            ledge_body_id ch = add_character(w, v(12.5, top + dir * (0.5 + 0.45 + 0.35)));
            ledge_character_def cd = ledge_default_character_def();
            cd.move.stop_on_slope = stop == 1;
            assert_true(ledge_character_set_def(w, ch, &cd));
            ledge_character_state st;
            float x0 = 0.0f;
            for (int f = 0; f < 60; ++f) {
                ledge_character_get_state(w, ch, &st);
                vec2s vel = v(0, st.velocity.y + g * DT);
                assert_true(ledge_character_move(w, ch, vel, DT, &st));
                if (f == 20) x0 = st.position.x; // landed by then
            }
            assert_true(st.on_floor);
            if (stop) {
                assert_true(st.position.x == x0);
            } else {
                assert_true(st.position.x < x0 - 0.05f); // slid down to the left
            }
            ledge_world_destroy(w);
        }
        for (int snap = 0; snap < 2; ++snap) {
            ledge_world *w = make_world(g);
            ledge_tilemap *map = ledge_world_tilemap(w);
            for (int x = 0; x < 40; ++x) ledge_tilemap_set(map, x, floor_y, LEDGE_TILE_FULL);
            ledge_body_def bd = ledge_default_body_def(); // a shelf 0.2 high, x 0..10
            bd.type = LEDGE_BODY_STATIC;
            bd.shape = ledge_make_box(v(0, 0), v(5, 0.1));
            bd.position = v(5, top + dir * 0.1);
            ledge_body_create(w, &bd);
            ledge_body_id ch = add_character(w, v(8, top + dir * (0.2 + 0.455)));
            ledge_character_def cd = ledge_default_character_def();
            cd.move.snap_length = snap ? 0.25f : 0.0f;
            assert_true(ledge_character_set_def(w, ch, &cd));
            ledge_character_state st;
            int off = 0;
            for (int f = 0; f < 60; ++f) {
                ledge_character_get_state(w, ch, &st);
                assert_true(ledge_character_move(w, ch, v(4, st.velocity.y + g * DT), DT, &st));
                off += f > 2 && !st.on_floor;
            }
            assert_true(st.on_floor && st.floor_is_tile && st.position.x > 11.0f);
            if (snap) {
                assert_int_equal(off, 0);
            } else {
                assert_true(off > 0);
            }
            ledge_world_destroy(w);
        }
    }
}

// A character placed elsewhere (ledge_body_set_position) after its last
// move on a platform is not carried by it; one left standing is.
static void test_teleported_not_carried(void **state) {
    (void)state;
    ledge_world *w = make_world(-20.0f);
    ledge_body_id plat;
    ledge_body_id a = ride_setup(w, v(20, 10), 3.0, -1.0, -20.0f, &plat);
    ledge_body_id b = add_character(w, v(21, 10.705));
    ledge_character_state st;
    assert_true(ledge_character_move(w, b, v(0, -20 * DT), DT, &st) && st.on_floor);
    vec2s pb = ledge_body_position(w, b);
    assert_true(ledge_body_set_position(w, a, v(5, 30)));
    ledge_body_set_target(w, plat, v(20, 11), DT); // up by 1
    ledge_world_step(w, DT);
    vec2s qa = ledge_body_position(w, a), qb = ledge_body_position(w, b);
    assert_true(qa.x == 5.0f && qa.y == 30.0f);
    assert_float_equal(qb.y, pb.y + 1.0f, 1e-5);
    ledge_world_destroy(w);
}

// constant_speed_on_slopes: a grounded move of s across up on a 45 degree
// slope goes (s, s) up it (horizontal speed kept) by default, and is
// projected onto it without: s cos^2(a) across, s sin(a) cos(a) along up
// (|s| cos(a) along the slope). Uphill and downhill, gravity down and up.
static void test_constant_speed_on_slopes(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        int dir = g < 0 ? 1 : -1, floor_y = g < 0 ? 2 : 37;
        float top = (float)floor_y + (g < 0 ? 1.0f : 0.0f);
        for (int constant = 0; constant < 2; ++constant) {
            for (int sign = -1; sign <= 1; sign += 2) {
                ledge_world *w = make_world(g);
                ledge_tilemap *map = ledge_world_tilemap(w);
                for (int x = 0; x < 40; ++x) ledge_tilemap_set(map, x, floor_y, LEDGE_TILE_FULL);
                for (int k = 0; k < 10; ++k) { // a ramp rising to the right, 1 per cell
                    ledge_tilemap_set(map, 10 + k, floor_y + dir * (1 + k),
                                      g < 0 ? LEDGE_TILE_45DEG_NP : LEDGE_TILE_45DEG_NN);
                    for (int j = 1; j <= k; ++j) {
                        ledge_tilemap_set(map, 10 + k, floor_y + dir * j, LEDGE_TILE_FULL);
                    }
                }
                // The box's lower left corner above x 14.2, where the ramp is 4.2 high.
                ledge_body_id ch = add_character(w, v(14.5, top + dir * (4.2 + 0.45 + 0.3)));
                ledge_character_state st;
                for (int f = 0; f < 30; ++f) { // land and settle
                    ledge_character_get_state(w, ch, &st);
                    assert_true(ledge_character_move(w, ch, v(0, st.velocity.y + g * DT), DT, &st));
                }
                assert_true(st.on_floor && st.floor_is_tile);
                ledge_move_def md = ledge_default_move_def();
                assert_true(md.constant_speed_on_slopes);
                md.constant_speed_on_slopes = constant == 1;
                double s = 0.3 * sign, a = 0.78539816339744831;
                double ex = constant ? s : s * cos(a) * cos(a);
                double ey = dir * (constant ? s * tan(a) : s * sin(a) * cos(a));
                ledge_move_result r;
                assert_true(ledge_body_move(w, ch, v(s, 0), &md, &r));
                assert_true(r.on_ground && !r.on_wall && !r.stuck);
                assert_float_equal(r.displacement.x, ex, 1e-4);
                assert_float_equal(r.displacement.y, ey, 1e-4);
                double along = hypot(r.displacement.x, r.displacement.y);
                assert_float_equal(along, constant ? fabs(s) / cos(a) : fabs(s) * cos(a), 1e-4);
                ledge_world_destroy(w);
            }
        }
    }
}

// block_on_wall: a grounded character walking by s into a 63.43 degree
// face (a static triangle, normal (2, +-1) / sqrt 5) from a gap of delta
// across stops against it by default (moved by delta, no rise, on the
// floor); without it the part of the move into the face is projected out
// along the normal: (s - delta) (4/5, 2/5) back along it, so it rises up
// the face. Gravity down and up.
static void test_block_on_wall(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        int dir = g < 0 ? 1 : -1, floor_y = g < 0 ? 2 : 37;
        double top = floor_y + (g < 0 ? 1.0 : 0.0);
        for (int block = 0; block < 2; ++block) {
            ledge_world *w = make_world(g);
            ledge_tilemap *map = ledge_world_tilemap(w);
            for (int x = 0; x < 40; ++x) ledge_tilemap_set(map, x, floor_y, LEDGE_TILE_FULL);
            vec2s tri[3] = {v(20, top), v(24, top), v(20, top + dir * 8)};
            if (dir < 0) { // keep the winding counter-clockwise
                vec2s t = tri[1];
                tri[1] = tri[2];
                tri[2] = t;
            }
            ledge_body_def bd = ledge_default_body_def();
            bd.type = LEDGE_BODY_STATIC;
            assert_true(ledge_make_polygon(tri, 3, &bd.shape));
            ledge_body_create(w, &bd);
            ledge_body_id ch = add_character(w, v(24.45, top + dir * 0.46));
            ledge_character_state st;
            for (int f = 0; f < 10; ++f) { // settle on the floor
                ledge_character_get_state(w, ch, &st);
                assert_true(ledge_character_move(w, ch, v(0, st.velocity.y + g * DT), DT, &st));
            }
            assert_true(st.on_floor && st.floor_is_tile && !st.on_wall);
            vec2s p = ledge_body_position(w, ch);
            // The face: x = 24 - h / 2 at height h above the floor; the
            // box's lower left corner is h = dir * (y - top) - 0.45 up.
            double h = dir * (p.y - top) - 0.45;
            double delta = (p.x - 0.3) - (24.0 - h / 2.0);
            assert_true(delta > 0.1 && delta < 0.2);
            ledge_move_def md = ledge_default_move_def();
            assert_true(md.block_on_wall);
            md.block_on_wall = block == 1;
            double s = 0.5;
            ledge_move_result r;
            assert_true(ledge_body_move(w, ch, v(-s, 0), &md, &r));
            assert_true(r.on_wall && r.wall_side == -1 && !r.stuck);
            if (block) {
                assert_float_equal(r.displacement.x, -delta, 1e-4);
                assert_true(fabsf(r.displacement.y) < 1e-5f);
                assert_true(r.on_ground);
            } else {
                assert_float_equal(r.displacement.x, -s + (s - delta) * 0.8, 1e-4);
                assert_float_equal(r.displacement.y, dir * (s - delta) * 0.4, 1e-4);
                assert_false(r.on_ground);
            }
            ledge_world_destroy(w);
        }
    }
}

// Three characters stacked on a platform (up/down, diagonal, circle at 3
// units/s; frame orders 1 and 2), created bottom first, top first and
// middle first: after every frame each stands on the body below it, and
// every relative position (platform to bottom, bottom to middle, middle
// to top) is what it was after landing, within 1e-5. Gravity down and up.
static void test_stacked_carry_any_creation_order(void **state) {
    (void)state;
    static const int orders[3][3] = {{0, 1, 2}, {2, 1, 0}, {1, 2, 0}}; // creation order, 0 bottom
    static const path paths[3] = {PATH_UP_DOWN, PATH_DIAGONAL, PATH_CIRCLE};
    int rides = 0;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        double up = g < 0 ? 1.0 : -1.0, s = 3.0;
        for (int oi = 0; oi < 3; ++oi) {
            for (int pi = 0; pi < 3; ++pi) {
                for (int order = 1; order <= 2; ++order) {
                    ledge_world *w = make_world(g);
                    ledge_body_def pd = ledge_default_body_def();
                    pd.type = LEDGE_BODY_KINEMATIC;
                    pd.shape = ledge_make_box(v(0, 0), v(1.5, 0.25));
                    pd.position = path_at(paths[pi], s, 0.0, up);
                    ledge_body_id plat = ledge_body_create(w, &pd);
                    ledge_body_id ch[3];
                    for (int k = 0; k < 3; ++k) {
                        int level = orders[oi][k];
                        ch[level] = add_character(
                            w, v(pd.position.x + 0.2 * level,
                                 pd.position.y + up * (0.25 + 0.45 + 0.005 + 0.905 * level)));
                    }
                    ledge_character_state st;
                    for (int level = 0; level < 3; ++level) { // land, bottom first
                        assert_true(ledge_character_move(w, ch[level], v(0, g * DT), DT, &st));
                        assert_true(st.on_floor);
                    }
                    ledge_body_id below[3] = {plat, ch[0], ch[1]};
                    vec2s rel0[3];
                    for (int level = 0; level < 3; ++level) {
                        vec2s a = ledge_body_position(w, ch[level]);
                        vec2s b = ledge_body_position(w, below[level]);
                        rel0[level] = v(a.x - b.x, a.y - b.y);
                    }
                    int frames = (int)lround(period(paths[pi], s) / DT);
                    for (int f = 0; f < frames; ++f) {
                        assert_true(ledge_body_set_target(
                            w, plat, path_at(paths[pi], s, (f + 1) * (double)DT, up), DT));
                        if (order == 2) ledge_world_step(w, DT);
                        for (int k = 0; k < 3; ++k) { // the game moves them in creation order
                            ledge_body_id id = ch[orders[oi][k]];
                            ledge_character_get_state(w, id, &st);
                            vec2s vel = v(st.velocity.x, st.velocity.y + g * DT);
                            assert_true(ledge_character_move(w, id, vel, DT, &st));
                        }
                        if (order == 1) ledge_world_step(w, DT);
                        for (int level = 0; level < 3; ++level) {
                            ledge_character_get_state(w, ch[level], &st);
                            vec2s a = ledge_body_position(w, ch[level]);
                            vec2s b = ledge_body_position(w, below[level]);
                            double drift =
                                hypot(a.x - b.x - rel0[level].x, a.y - b.y - rel0[level].y);
                            if (!(st.on_floor && st.floor_body.index1 == below[level].index1 &&
                                  drift < 1e-5)) {
                                fail_msg("g %g creation %d path %s frame order %d frame %d level "
                                         "%d: on_floor %d floor %u drift %g",
                                         (double)g, oi, path_name[paths[pi]], order, f, level,
                                         st.on_floor, st.floor_body.index1, drift);
                            }
                        }
                    }
                    rides++;
                    ledge_world_destroy(w);
                }
            }
        }
    }
    assert_int_equal(rides, 36);
}

// A character whose body has a velocity of its own (kinematic bodies go
// by theirs in the step): after each step its state is where the body is,
// in the air and riding a platform moving the other way (still riding:
// the platform's -1 m/s added to its own 0.375 every step); y up and down.
static void test_own_velocity_state_follows(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi)
        for (int ride = 0; ride < 2; ++ride) {
            float g = gi == 0 ? -20.0f : 20.0f;
            ledge_world *w = make_world(g);
            ledge_body_id plat;
            ledge_body_id ch =
                ride ? ride_setup(w, v(20, 20), 4.0, 0.0, g, &plat) : add_character(w, v(20, 20));
            assert_true(ledge_body_set_velocity(w, ch, v(0.375, 0)));
            ledge_character_state st;
            for (int f = 0; f < 30; ++f) {
                if (ride)
                    assert_true(
                        ledge_body_set_target(w, plat, v(20 - 1.0 * DT * (f + 1), 20), DT));
                vec2s before = ledge_body_position(w, ch);
                ledge_world_step(w, DT);
                assert_true(ledge_character_get_state(w, ch, &st));
                vec2s p = ledge_body_position(w, ch);
                assert_true(p.x == st.position.x && p.y == st.position.y);
                double want = before.x + (0.375 - (ride ? 1.0 : 0.0)) * DT;
                if (fabs(p.x - want) > 1e-5)
                    fail_msg("g %g ride %d frame %d: x %.6f, want %.6f", (double)g, ride, f, p.x,
                             want);
            }
            ledge_world_destroy(w);
        }
}

// A platform carrying a character into a wall (sideways at 3 units/s) or a
// ceiling (up at 3 units/s): the step's carry stops the character against
// it, at exactly wall x - 0.3 (its half width) or ceiling - 0.45 along up,
// with on_wall (wall_side +1) or on_ceiling set right after the step, not
// only after its next move. Gravity down and up.
static void test_carry_stops_at_wall_and_ceiling(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        int dir = g < 0 ? 1 : -1, py = g < 0 ? 10 : 30;
        for (int ceiling = 0; ceiling < 2; ++ceiling) {
            ledge_world *w = make_world(g);
            ledge_tilemap *map = ledge_world_tilemap(w);
            if (ceiling) { // a ceiling face 3 above the platform's centre, along up
                for (int x = 15; x < 28; ++x)
                    ledge_tilemap_set(map, x, dir > 0 ? py + 3 : py - 4, LEDGE_TILE_FULL);
            } else { // a wall face at x 23, beside the character's upper part only
                for (int k = 1; k < 10; ++k)
                    ledge_tilemap_set(map, 23, dir > 0 ? py + k : py - 1 - k, LEDGE_TILE_FULL);
            }
            ledge_body_id plat;
            ledge_body_id ch = ride_setup(w, v(21, py), 1.5, 1.0, g, &plat);
            ledge_character_state st;
            double limit = ceiling ? py + dir * (3.0 - 0.45) : 23.0 - 0.3;
            int hit = -1;
            for (int f = 0; f < 60 && hit < 0; ++f) {
                vec2s to =
                    ceiling ? v(21, py + dir * 3.0 * DT * (f + 1)) : v(21 + 3.0 * DT * (f + 1), py);
                assert_true(ledge_body_set_target(w, plat, to, DT));
                ledge_character_get_state(w, ch, &st);
                assert_true(
                    ledge_character_move(w, ch, v(st.velocity.x, st.velocity.y + g * DT), DT, &st));
                vec2s before = ledge_body_position(w, ch);
                ledge_world_step(w, DT);
                ledge_character_get_state(w, ch, &st);
                vec2s p = ledge_body_position(w, ch);
                assert_true(p.x == st.position.x && p.y == st.position.y);
                double would = ceiling ? before.y + dir * 3.0 * DT : before.x + 3.0 * DT;
                bool into = ceiling ? dir * (would - limit) > 1e-4 : would - limit > 1e-4;
                if (!into) { // carried whole
                    assert_float_equal(ceiling ? p.y : p.x, would, 1e-5);
                    continue;
                }
                hit = f;
                assert_float_equal(ceiling ? p.y : p.x, limit, 1e-5);
                assert_float_equal(ceiling ? p.x : p.y, ceiling ? before.x : before.y, 1e-5);
                if (ceiling) {
                    assert_true(st.on_ceiling);
                    assert_float_equal(st.ceiling_normal.y, -dir, 1e-5);
                } else {
                    assert_true(st.on_wall && st.wall_side == 1);
                    assert_float_equal(st.wall_normal.x, -1.0, 1e-5);
                    assert_true(st.on_floor && st.floor_body.index1 == plat.index1);
                    assert_false(st.crushed); // the platform slides on under it: no crush
                }
            }
            assert_true(hit > 5); // it was carried whole before meeting it
            ledge_world_destroy(w);
        }
    }
}

// A platform rising at 3 units/s (along up) into a ceiling and stopping
// 0.55 under it (less than the character's 0.9): the carry stops the
// character against the ceiling and the platform goes on into it, so the
// state reports it crushed (crushed_by the platform) from that step, never
// before; the character never enters the ceiling; its moves pass through
// the platform while it overlaps it (crushed stays true exactly as long:
// the box overlap along up, measured here, is above skin) and it falls out
// below onto the floor, uncrushed. Both frame orders, gravity down and up.
static void test_platform_crush(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        double up = g < 0 ? 1.0 : -1.0;
        int py = g < 0 ? 10 : 30;
        double ceil_face = py + up * 3.0, stop = py + up * 2.2, floor_face = g < 0 ? 3.0 : 37.0;
        for (int order = 1; order <= 2; ++order) {
            ledge_world *w = make_world(g);
            ledge_tilemap *map = ledge_world_tilemap(w);
            for (int x = 15; x < 28; ++x) {
                ledge_tilemap_set(map, x, g < 0 ? py + 3 : py - 4, LEDGE_TILE_FULL); // ceiling
                ledge_tilemap_set(map, x, g < 0 ? 2 : 37, LEDGE_TILE_FULL);          // floor
            }
            ledge_body_id plat;
            ledge_body_id ch = ride_setup(w, v(21, py), 1.5, 1.0, g, &plat);
            ledge_character_state st;
            int crushed_at = -1, crushed_frames = 0;
            for (int f = 0; f < 150; ++f) {
                double y = py + up * 3.0 * DT * (f + 1);
                if (up * (y - stop) > 0) y = stop;
                assert_true(ledge_body_set_target(w, plat, v(21, y), DT));
                ledge_character_get_state(w, ch, &st);
                vec2s vel = v(0, st.velocity.y + g * DT);
                if (order == 1) assert_true(ledge_character_move(w, ch, vel, DT, &st));
                ledge_world_step(w, DT);
                ledge_character_get_state(w, ch, &st);
                vec2s c = ledge_body_position(w, ch);
                // Along up: the character's top below the ceiling face.
                double top = up * (c.y - ceil_face) + 0.45;
                if (st.crushed && crushed_at < 0) { // in this step's carry
                    crushed_at = f;
                    assert_true(st.crushed_by.index1 == plat.index1 &&
                                st.crushed_by.generation == plat.generation);
                    assert_float_equal(top, 0.0, 1e-4); // stopped against the ceiling
                    assert_true(st.on_ceiling);
                }
                if (order == 2) assert_true(ledge_character_move(w, ch, vel, DT, &st));
                ledge_character_get_state(w, ch, &st);
                c = ledge_body_position(w, ch);
                vec2s p = ledge_body_position(w, plat);
                top = up * (c.y - ceil_face) + 0.45;
                // The depth of the platform's and the character's boxes along up.
                double overlap = fmin(up * (p.y - c.y), up * (c.y - p.y)) + 0.25 + 0.45;
                if (top > 1e-4)
                    fail_msg("g %g order %d frame %d: %g into the ceiling", (double)g, order, f,
                             top);
                crushed_frames += st.crushed;
                if (crushed_at >= 0 && st.crushed != (overlap > 0.01)) {
                    fail_msg("g %g order %d frame %d: crushed %d with overlap %g", (double)g, order,
                             f, st.crushed, overlap);
                }
                if (crushed_at < 0) assert_true(overlap < 0.01); // carried whole before
                if (!st.crushed) assert_true(st.crushed_by.index1 == 0);
            }
            // The platform's top reaches 2.45 above its start: the character
            // (0.9 tall under a ceiling 3 up) was crushed at 2.1 + skin.
            if (!(crushed_at > 30 && crushed_at < 40 && crushed_frames > 1)) {
                fail_msg("g %g order %d: crushed at frame %d for %d frames", (double)g, order,
                         crushed_at, crushed_frames);
            }
            assert_false(st.crushed);
            assert_true(st.on_floor && st.floor_is_tile);
            assert_float_equal(st.position.y, floor_face + up * 0.45, 1e-3);
            ledge_world_destroy(w);
        }
    }
}

// ledge_body_ground answers for a character riding a platform what its
// state says (the body stood on included) after every move and step, and
// refuses, with a message, static bodies and kinematic bodies that are not
// characters (the step keeps no ground state for them) and stale ids.
static void test_body_ground_on_platform(void **state) {
    (void)state;
    for (int gi = 0; gi < 2; ++gi) {
        float g = gi == 0 ? -20.0f : 20.0f;
        double up = g < 0 ? 1.0 : -1.0;
        ledge_world *w = make_world(g);
        ledge_body_id plat;
        ledge_body_id ch = ride_setup(w, v(20, 20), 1.5, 0.0, g, &plat);
        ledge_character_state st;
        int on_platform = 0;
        for (int f = 0; f < 240; ++f) {
            vec2s pp = ledge_body_position(w, plat);
            double dx = (f / 60) % 2 ? -2.0 : 2.0, dy = (f / 30) % 2 ? -3.0 : 3.0;
            ledge_body_set_target(w, plat, v(pp.x + dx * DT, pp.y + up * dy * DT), DT);
            ledge_character_get_state(w, ch, &st);
            vec2s vel = v(f >= 200 ? 6.0 : 0.0, st.velocity.y + g * DT); // walks off at the end
            for (int phase = 0; phase < 2; ++phase) {
                if (phase == 0) {
                    assert_true(ledge_character_move(w, ch, vel, DT, &st));
                } else {
                    ledge_world_step(w, DT);
                    ledge_character_get_state(w, ch, &st);
                }
                ledge_ground gr = ledge_body_ground(w, ch);
                assert_int_equal(gr.on_ground, st.on_floor);
                assert_true(gr.ground_body.index1 == st.floor_body.index1 &&
                            gr.ground_body.generation == st.floor_body.generation &&
                            gr.ground_body.world == st.floor_body.world);
                assert_true(gr.ground_normal.x == st.floor_normal.x &&
                            gr.ground_normal.y == st.floor_normal.y);
                on_platform += gr.on_ground && gr.ground_body.index1 == plat.index1;
            }
        }
        assert_true(on_platform >= 2 * 200); // rode it until walking off
        assert_false(st.on_floor);           // walked off into the air
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_STATIC;
        bd.shape = ledge_make_box(v(0, 0), v(1, 1));
        bd.position = v(5, 5);
        ledge_body_id stat = ledge_body_create(w, &bd);
        log_capture_start();
        ledge_ground gr = ledge_body_ground(w, stat);
        assert_false(gr.on_ground);
        assert_true(log_capture_says("ledge_body_ground", "static"));
        ledge_body_destroy(w, stat);
        log_capture_start();
        gr = ledge_body_ground(w, stat);
        assert_false(gr.on_ground);
        assert_true(log_capture_says("ledge_body_ground", NULL));
        ledge_set_log_hook(NULL, NULL);
        ledge_world_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_platforms_carry),
        cmocka_unit_test(test_platform_on_leave),
        cmocka_unit_test(test_state_is_the_ground),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_drop_through_without_step),
        cmocka_unit_test(test_wall_corner_landing),
        cmocka_unit_test(test_step_up),
        cmocka_unit_test(test_slide_on_steep),
        cmocka_unit_test(test_slope_and_snap_options),
        cmocka_unit_test(test_teleported_not_carried),
        cmocka_unit_test(test_constant_speed_on_slopes),
        cmocka_unit_test(test_block_on_wall),
        cmocka_unit_test(test_stacked_carry_any_creation_order),
        cmocka_unit_test(test_carry_stops_at_wall_and_ceiling),
        cmocka_unit_test(test_own_velocity_state_follows),
        cmocka_unit_test(test_platform_crush),
        cmocka_unit_test(test_body_ground_on_platform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
