// The scripted character of the platformer layer (issue 5's acceptance
// run): one level that uses every tile group, and a character driven by a
// fixed input list through the documented idiom (docs/character.md: the
// game's velocity, gravity, ledge_body_move, the velocity clipped against
// what was met), stepping the world every frame. Each behaviour is its own
// test, starting the character at its part of the level:
// - on the ground on every frame across flat FULL floor (seams), a 45
//   degree hill and a 26.57 degree hill, never snagged (x advances by
//   exactly speed * dt every frame);
// - on a wall at a FULL wall and at a 63.43 degree slope, blocked there;
// - jumps up through a one-way platform, lands on it, drops through;
// - rides a moving platform for a full cycle without slipping off.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include <math.h>
#include <string.h>

#define DT   (1.0f / 60.0f)
#define GRAV (-20.0f)
#define RUN  6.0f
#define JUMP 10.0f
#define HX   0.3f
#define HY   0.45f

// 64 x 12, first line the top row. Floor top at y = 1. Ceiling row 11
// holds the groups the character never touches (concave, convex, half,
// ceiling slopes) so that the level has every tile group.
static const char *LEVEL = "#F7}{\"ZNpq`'PQf1##############################################L#\n"
                           "#..............................................................#\n"
                           "#..............................................................#\n"
                           "#..............................................................#\n"
                           "#..............................................................#\n"
                           "#..............................................................#\n"
                           "#..............................................................#\n"
                           "#..............................................................#\n"
                           "#..............................................................#\n"
                           "#........./##\\...................................j#............#\n"
                           "#......../####\\..<d##b>...........#..............D#............#\n"
                           "################################################################\n";

typedef struct run {
    ledge_world *w;
    ledge_body_id body;
    vec2s vel;
    ledge_move_result r;
} run;

static vec2s v(float x, float y) {
    vec2s o = {{x, y}};
    return o;
}

// The level, then the one-way platform: cells x 27..31 on row 2
// (y 2..3; FULL tiles made one-way up).
static run start(vec2s at) {
    run s;
    memset(&s, 0, sizeof s);
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, GRAV);
    wd.map_width = 64;
    wd.map_height = 12;
    s.w = ledge_world_create(&wd);
    assert_non_null(s.w);
    ledge_tilemap *map = ledge_world_tilemap(s.w);
    assert_true(ledge_tilemap_load_ascii(map, LEVEL));
    for (int x = 27; x <= 31; ++x) {
        ledge_tilemap_set(map, x, 2, LEDGE_TILE_FULL);
        ledge_tilemap_set_one_way(map, x, 2, LEDGE_ONE_WAY_UP);
    }
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(HX, HY));
    bd.position = at;
    s.body = ledge_body_create(s.w, &bd);
    return s;
}

// One frame of the idiom with input x in -1..1, a jump request, and the
// displacement of what the character stands on (moving platforms).
static void frame(run *s, float input, bool jump, vec2s carried) {
    s->vel.x = input * RUN;
    s->vel.y += GRAV * DT;
    if (jump && s->r.on_ground) s->vel.y = JUMP;
    ledge_move_def md = ledge_default_move_def();
    vec2s d = v(s->vel.x * DT + carried.x, s->vel.y * DT + carried.y);
    assert_true(ledge_body_move(s->w, s->body, d, &md, &s->r));
    s->vel = ledge_move_clip_velocity(&s->r, s->vel);
    ledge_world_step(s->w, DT);
}

static vec2s pos(const run *s) {
    return ledge_body_position(s->w, s->body);
}

static void settle(run *s) {
    for (int k = 0; k < 60 && !(s->r.on_ground && s->vel.y == 0.0f); ++k)
        frame(s, 0, false, v(0, 0));
    assert_true(s->r.on_ground);
}

// x 1.5 to 25.5: flat floor, the 45 degree hill (x 9..15, top y = 3),
// the 26.57 degree hill (x 17..23, top y = 2).
static void test_run_floors_and_slopes(void **state) {
    (void)state;
    run s = start(v(1.5f, 1.0f + HY + 0.01f));
    settle(&s);
    float lowest = 99.0f, highest = 0.0f;
    while (pos(&s).x < 25.5f) {
        float x0 = pos(&s).x;
        frame(&s, 1.0f, false, v(0, 0));
        assert_true(s.r.on_ground);                          // every frame
        assert_float_equal(pos(&s).x - x0, RUN * DT, 1e-5f); // never snagged
        assert_false(s.r.on_wall);
        lowest = fminf(lowest, pos(&s).y);
        highest = fmaxf(highest, pos(&s).y);
    }
    assert_float_equal(lowest, 1.0f + HY, 0.011f);
    assert_float_equal(highest, 3.0f + HY, 0.011f); // the top of the 45 degree hill
    ledge_world_destroy(s.w);
}

// A FULL wall one cell tall at x = 34 and a 63.43 degree slope rising from
// x = 49: the character is blocked at each, on a wall.
static void test_run_walls(void **state) {
    (void)state;
    float walls[2] = {34.0f, 49.0f}, starts[2] = {32.0f, 47.0f};
    for (int k = 0; k < 2; ++k) {
        run s = start(v(starts[k], 1.0f + HY + 0.01f));
        settle(&s);
        int on_wall = 0;
        for (int f = 0; f < 60; ++f) {
            frame(&s, 1.0f, false, v(0, 0));
            on_wall += s.r.on_wall;
            assert_true(pos(&s).x <= walls[k] - HX + 0.011f);
            assert_true(pos(&s).y < 1.0f + HY + 0.05f); // never climbs it
        }
        assert_true(on_wall >= 30);
        assert_true(s.r.on_wall && s.r.wall_side == 1 && s.r.on_ground);
        ledge_world_destroy(s.w);
    }
}

// Under the one-way platform (x 27..32, y 2..3): jump up through it, land
// on it, drop through on request, land on the floor.
static void test_run_one_way(void **state) {
    (void)state;
    run s = start(v(29.5f, 1.0f + HY + 0.01f));
    settle(&s);
    frame(&s, 0, true, v(0, 0));
    bool rising_through = false;
    for (int f = 0; f < 90; ++f) {
        frame(&s, 0, false, v(0, 0));
        float y = pos(&s).y;
        if (y > 2.0f + HY - 0.5f && y < 3.0f + HY - 0.1f && s.vel.y > 0.0f) rising_through = true;
    }
    assert_true(rising_through);
    assert_true(s.r.on_ground);
    assert_float_equal(pos(&s).y, 3.0f + HY, 0.011f); // standing on it
    ledge_body_drop_through(s.w, s.body);
    for (int f = 0; f < 60; ++f) frame(&s, 0, false, v(0, 0));
    assert_true(s.r.on_ground);
    assert_float_equal(pos(&s).y, 1.0f + HY, 0.011f); // back on the floor
    ledge_world_destroy(s.w);
}

// A kinematic platform driven by targets along a sine (period 2 s, 3 m
// each way) at y 6: the character on it, carried by the platform's
// displacement as docs/character.md says, stays on it at the same place
// for a full cycle.
static void test_run_moving_platform(void **state) {
    (void)state;
    run s = start(v(42.0f, 6.0f + 0.25f + HY + 0.01f));
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(1.5f, 0.25f));
    pd.position = v(42.0f, 6.0f);
    ledge_body_id plat = ledge_body_create(s.w, &pd);
    settle(&s);
    float offset = pos(&s).x - ledge_body_position(s.w, plat).x;
    for (int f = 1; f <= 120; ++f) {
        vec2s before = ledge_body_position(s.w, plat);
        vec2s target = v(42.0f + 3.0f * sinf((float)f * DT * 3.14159265f), 6.0f);
        ledge_body_set_target(s.w, plat, target, DT);
        vec2s carried = v(target.x - before.x, target.y - before.y);
        frame(&s, 0, false, carried);
        assert_true(s.r.on_ground);
        assert_float_equal(pos(&s).x - ledge_body_position(s.w, plat).x, offset, 1e-3f);
        assert_float_equal(pos(&s).y, 6.25f + HY, 0.011f);
    }
    ledge_world_destroy(s.w);
}

// The level really holds every tile group.
static void test_level_has_every_group(void **state) {
    (void)state;
    run s = start(v(2, 3));
    bool seen[LEDGE_TILE_GROUP_HALF + 1] = {false};
    ledge_tilemap *map = ledge_world_tilemap(s.w);
    for (int y = 0; y < 12; ++y) {
        for (int x = 0; x < 64; ++x) seen[ledge_tile_group_of(ledge_tilemap_get(map, x, y))] = true;
    }
    for (int g = 0; g <= LEDGE_TILE_GROUP_HALF; ++g) assert_true(seen[g]);
    ledge_world_destroy(s.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_level_has_every_group),
        cmocka_unit_test(test_run_floors_and_slopes),
        cmocka_unit_test(test_run_walls),
        cmocka_unit_test(test_run_one_way),
        cmocka_unit_test(test_run_moving_platform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
