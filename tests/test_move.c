// The character mover (move.h): scripted characters walk, stand, jump and
// fall through small tile levels, with assertions on positions, velocities
// and flags at every frame; random moves in random tile worlds never end
// in a FULL tile and always report the displacement they made.
//
// The expected heights on slopes and arcs are worked out here from the
// tile geometry (../shared/spec/tiles.md), not read back from the library.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DT    (1.0f / 60.0f)
#define GRAV  (-20.0f)
#define SPEED 4.0f

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// A world (gravity (0, GRAV), 1-unit tiles) holding an ASCII level
// (docs/tilemap.md: first line = top row).
static ledge_world *level(const char *ascii, int width, int height) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, GRAV);
    wd.map_width = width;
    wd.map_height = height;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    assert_true(ledge_tilemap_load_ascii(ledge_world_tilemap(w), ascii));
    return w;
}

static ledge_body_id character(ledge_world *w, ledge_shape shape, vec2s pos) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = shape;
    bd.position = pos;
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_true(ledge_body_is_valid(w, id));
    return id;
}

static ledge_shape box(float hx, float hy) {
    return ledge_make_box(v(0, 0), v(hx, hy));
}

// A scripted character: the game's velocity, gravity each frame, the move,
// the velocity clipped against what was met.
typedef struct actor {
    ledge_world *w;
    ledge_body_id id;
    ledge_move_def md;
    vec2s vel;
    ledge_move_result r;
} actor;

static actor make_actor(ledge_world *w, ledge_shape shape, vec2s pos) {
    actor a;
    memset(&a, 0, sizeof a);
    a.w = w;
    a.id = character(w, shape, pos);
    a.md = ledge_default_move_def();
    return a;
}

// One frame with horizontal input `vx`; returns the position before it.
static vec2s frame(actor *a, float vx) {
    vec2s before = ledge_body_position(a->w, a->id);
    a->vel.x = vx;
    a->vel.y += GRAV * DT;
    vec2s d = v(a->vel.x * DT, a->vel.y * DT);
    assert_true(ledge_body_move(a->w, a->id, d, &a->md, &a->r));
    a->vel = ledge_move_clip_velocity(&a->r, a->vel);
    vec2s after = ledge_body_position(a->w, a->id);
    // The displacement reported is the position change, bit for bit.
    assert_true(after.x - before.x == a->r.displacement.x);
    assert_true(after.y - before.y == a->r.displacement.y);
    assert_true(after.x == a->r.position.x && after.y == a->r.position.y);
    return before;
}

// Lets the actor fall until it stands (at most 120 frames).
static void settle(actor *a) {
    for (int k = 0; k < 120; ++k) {
        frame(a, 0.0f);
        if (a->r.on_ground && a->vel.y == 0.0f) return;
    }
    fail_msg("the actor never landed");
}

static float pos_x(const actor *a) {
    return ledge_body_position(a->w, a->id).x;
}
static float pos_y(const actor *a) {
    return ledge_body_position(a->w, a->id).y;
}

// --- a floor with seams -----------------------------------------------------

static const char *FLOOR_LEVEL = "................................\n"
                                 "................................\n"
                                 "................................\n"
                                 "################################\n";

static void walk_flat(actor *a, float vx, int frames, float y) {
    for (int k = 0; k < frames; ++k) {
        vec2s before = frame(a, vx);
        float dx = vx * DT;
        // Exactly the sum the game would make: floors push along up only.
        assert_true(pos_x(a) == before.x + dx);
        assert_float_equal(pos_y(a), y, 1e-5f);
        assert_true(a->r.on_ground);
        assert_false(a->r.on_wall);
        assert_false(a->r.on_ceiling);
        assert_false(a->r.stuck);
        assert_float_equal(a->r.ground_normal.y, 1.0f, 0.0f);
        assert_true(a->vel.x == vx && a->vel.y == 0.0f);
    }
}

static void test_floor_seams_box(void **state) {
    (void)state;
    ledge_world *w = level(FLOOR_LEVEL, 32, 4);
    actor a = make_actor(w, box(0.3f, 0.45f), v(3.0f, 1.6f));
    settle(&a);
    float y = pos_y(&a);
    assert_float_equal(y, 1.45f, 1e-3f);
    walk_flat(&a, SPEED, 360, y);  // 24 units right: 24 seams
    walk_flat(&a, -SPEED, 360, y); // and back
    assert_float_equal(pos_x(&a), 3.0f, 1e-3f);
    ledge_world_destroy(w);
}

static void test_floor_seams_circle(void **state) {
    (void)state;
    ledge_world *w = level(FLOOR_LEVEL, 32, 4);
    actor a = make_actor(w, ledge_make_circle(v(0, 0), 0.4f), v(3.0f, 1.6f));
    settle(&a);
    float y = pos_y(&a);
    assert_float_equal(y, 1.4f, 1e-3f);
    walk_flat(&a, SPEED, 360, y);
    walk_flat(&a, -SPEED, 360, y);
    ledge_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floor_seams_box),
        cmocka_unit_test(test_floor_seams_circle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
