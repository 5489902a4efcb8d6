// The platformer layer in the step (events.h, the platform fields of
// body.h, one-way tiles of tilemap.h): ground, wall and ceiling state from
// contacts; touch, sensor and crush events; one-way platforms (tiles and
// bodies) with drop-through; moving platforms that carry; per-body
// responses and the pre-solve filter. Each behaviour is its own test, with
// assertions on positions, velocities and flags.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"

#include <math.h>
#include <string.h>

#define DT (1.0f / 60.0f)

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// A 64 x 64 world with a FULL floor on row 0 (top at y = 1).
static ledge_world *floor_world(void) {
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    for (int x = 0; x < 64; ++x) ledge_tilemap_set(ledge_world_tilemap(w), x, 0, LEDGE_TILE_FULL);
    return w;
}

static ledge_body_id add_box(ledge_world *w, vec2s at, vec2s half, ledge_body_type type) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = type;
    bd.shape = ledge_make_box(v(0, 0), half);
    bd.position = at;
    bd.friction = 0.5f;
    return ledge_body_create(w, &bd);
}

static void steps(ledge_world *w, int n) {
    for (int i = 0; i < n; ++i) ledge_world_step(w, DT);
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
static float dot(vec2s a, vec2s b) {
    return a.x * b.x + a.y * b.y;
}

// --- ground, walls, ceilings ---------------------------------------------------

static void test_ground_on_floor_and_wall(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int y = 1; y < 10; ++y) ledge_tilemap_set(map, 20, y, LEDGE_TILE_FULL); // a wall
    ledge_body_id box = add_box(w, v(10.5f, 1.45f), v(0.3f, 0.45f), LEDGE_BODY_DYNAMIC);
    steps(w, 10);
    ledge_ground g = ledge_body_ground(w, box);
    assert_true(g.on_ground);
    assert_false(g.on_wall_left || g.on_wall_right || g.on_ceiling);
    assert_float_equal(g.ground_normal.y, 1.0f, 1e-6f);
    assert_int_equal(g.ground_body.index1, 0); // a tile
    assert_int_equal(g.ground_cell_y, 0);
    assert_int_equal(g.ground_cell_x, 10);
    ledge_contact_data cd[4];
    int n = ledge_body_contacts(w, box, cd, 4);
    assert_int_equal(n, 1); // one floor cell under it
    assert_float_equal(cd[0].point.y, 1.0f, 0.006f);
    // Walked right into the wall (x = 20), as a character does (its speed
    // set every step): a wall on its right, still on ground.
    ledge_body_set_position(w, box, v(19.6f, 1.45f));
    for (int s = 0; s < 6; ++s) {
        ledge_body_set_velocity(w, box, v(3.0f, ledge_body_velocity(w, box).y));
        ledge_world_step(w, DT);
    }
    g = ledge_body_ground(w, box);
    assert_true(g.on_ground && g.on_wall_right && !g.on_wall_left);
    assert_float_equal(g.wall_normal.x, -1.0f, 1e-6f);
    assert_true(ledge_body_position(w, box).x <= 20.0f - 0.3f + 0.006f);
    ledge_world_destroy(w);
}

static void test_ceiling_and_body_ground(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 64; ++x) ledge_tilemap_set(map, x, 5, LEDGE_TILE_FULL); // ceiling at y = 5
    ledge_body_id box = add_box(w, v(10.5f, 1.45f), v(0.3f, 0.45f), LEDGE_BODY_DYNAMIC);
    steps(w, 5);
    ledge_body_set_velocity(w, box, v(0.0f, 12.0f)); // jumps into the ceiling
    bool hit = false;
    for (int s = 0; s < 30 && !hit; ++s) {
        ledge_world_step(w, DT);
        hit = ledge_body_ground(w, box).on_ceiling;
    }
    assert_true(hit);
    assert_true(ledge_body_position(w, box).y <= 5.0f - 0.45f + 0.006f);
    // A crate standing on another crate: its ground is that body.
    ledge_body_id low = add_box(w, v(30.5f, 1.5f), v(0.5f, 0.5f), LEDGE_BODY_DYNAMIC);
    ledge_body_id top = add_box(w, v(30.5f, 2.55f), v(0.5f, 0.5f), LEDGE_BODY_DYNAMIC);
    steps(w, 30);
    ledge_ground g = ledge_body_ground(w, top);
    assert_true(g.on_ground);
    assert_true(g.ground_body.index1 == low.index1 && g.ground_body.generation == low.generation);
    assert_true(ledge_body_ground(w, low).on_ground);
    ledge_world_destroy(w);
}

// Slopes: 45 degrees is a floor (under the default 50), 63.43 a wall. A
// ball with friction 1 rests on a 45 degree ramp (tan 45 = 1) and reads
// ground; one with friction 0.1 slides down a 63.43 degree ramp, reading a
// wall while the ramp is all it touches.
static ledge_world *ramp(bool steep) {
    ledge_world *w = floor_world();
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 10; ++x) {
        int base = steep ? 2 * x + 1 : x + 1; // rows of FULL below the surface
        for (int y = 1; y < base; ++y) ledge_tilemap_set(map, 20 + x, y, LEDGE_TILE_FULL);
        if (steep) { // rising to +x, 2 rows per column: BIG under SMALL
            ledge_tilemap_set(map, 20 + x, base, LEDGE_TILE_67DEG_BIG_NP);
            ledge_tilemap_set(map, 20 + x, base + 1, LEDGE_TILE_67DEG_SMALL_NP);
        } else {
            ledge_tilemap_set(map, 20 + x, base, LEDGE_TILE_45DEG_NP);
        }
    }
    return w;
}

static void test_slope_classes(void **state) {
    (void)state;
    for (int steep = 0; steep < 2; ++steep) {
        ledge_world *w = ramp(steep);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle(v(0, 0), 0.3f);
        // Against the ramp's surface above x = 25.5 (45: y = 6.5; 63: y = 12).
        bd.position = steep ? v(25.4f - 0.3f * 0.8944f, 12.0f + 0.3f * 0.4472f + 0.01f)
                            : v(25.5f - 0.3f * 0.7071f, 6.5f + 0.3f * 0.7071f + 0.01f);
        bd.friction = steep ? 0.1f : 1.0f;
        ledge_body_id ball = ledge_body_create(w, &bd);
        int ground_only = 0, wall_only = 0;
        for (int s = 0; s < 40; ++s) {
            ledge_world_step(w, DT);
            ledge_ground g = ledge_body_ground(w, ball);
            bool wall = g.on_wall_left || g.on_wall_right;
            ground_only += g.on_ground && !wall;
            wall_only += wall && !g.on_ground;
            if (wall) assert_float_equal(g.wall_normal.x, -0.8944f, 1e-3f);
        }
        if (!steep) {
            assert_true(ground_only >= 38);
            assert_int_equal(wall_only, 0);
            assert_float_equal(ledge_body_ground(w, ball).ground_normal.y, 0.7071f, 1e-3f);
        } else {
            assert_true(wall_only >= 10); // sliding down the steep ramp
            assert_true(ledge_body_position(w, ball).y < 11.8f);
        }
        ledge_world_destroy(w);
    }
}

// --- events --------------------------------------------------------------------

typedef struct event_log {
    int begins, ends;
    int begin_step, end_step;
    uint64_t digest; // of every event, in order, for the determinism check
} event_log;

static void log_touches(ledge_world *w, event_log *log, int step) {
    ledge_touch_events t = ledge_world_touch_events(w);
    for (int i = 0; i < t.begin_count; ++i) {
        log->begins++;
        log->begin_step = step;
        log->digest = log->digest * 1099511628211ull + (uint64_t)t.begin[i].a.index1 * 31u +
                      (uint64_t)t.begin[i].b.index1 * 7u + (uint64_t)(t.begin[i].cell_x + 1000);
    }
    for (int i = 0; i < t.end_count; ++i) {
        log->ends++;
        log->end_step = step;
        log->digest = log->digest * 1099511628211ull + 3u + (uint64_t)t.end[i].a.index1;
    }
}

// A ball with events bounces on the floor: each landing begins a touch
// with the cell under it, each bounce ends it; begins and ends pair up.
static event_log bounce_run(void) {
    ledge_world *w = floor_world();
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.4f);
    bd.position = v(10.5f, 4.0f);
    bd.bounce = 0.6f;
    bd.enable_events = true;
    ledge_body_create(w, &bd);
    bd.position = v(30.5f, 6.0f);
    bd.enable_events = false; // no events from this one
    ledge_body_create(w, &bd);
    event_log log;
    memset(&log, 0, sizeof log);
    for (int s = 0; s < 240; ++s) {
        ledge_world_step(w, DT);
        log_touches(w, &log, s);
    }
    ledge_world_destroy(w);
    return log;
}

static void test_touch_events(void **state) {
    (void)state;
    event_log a = bounce_run(), b = bounce_run();
    assert_true(a.begins >= 3);                                // several bounces, then rest
    assert_true(a.ends == a.begins - 1);                       // the last touch lasts
    assert_true(a.begin_step > a.end_step);                    // it ends touching
    assert_true(a.digest == b.digest && a.begins == b.begins); // deterministic
}

// A static sensor across a shaft: a falling ball enters it and leaves it,
// and falls exactly as if it were not there.
static void test_sensor_events(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_def sd = ledge_default_body_def();
    sd.type = LEDGE_BODY_STATIC;
    sd.sensor = true;
    sd.shape = ledge_make_box(v(0, 0), v(2.0f, 1.0f));
    sd.position = v(20.0f, 30.0f);
    ledge_body_id sensor = ledge_body_create(w, &sd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.25f);
    bd.position = v(20.0f, 40.0f);
    ledge_body_id ball = ledge_body_create(w, &bd);
    int begin_step = -1, end_step = -1;
    for (int s = 1; s <= 150; ++s) {
        ledge_world_step(w, DT);
        ledge_sensor_events e = ledge_world_sensor_events(w);
        for (int i = 0; i < e.begin_count; ++i) {
            assert_true(e.begin[i].sensor.index1 == sensor.index1);
            assert_true(e.begin[i].visitor.index1 == ball.index1);
            begin_step = s;
        }
        for (int i = 0; i < e.end_count; ++i) end_step = s;
        double y = 40.0 - 10.0 * DT * DT * s * (s + 1) / 2.0; // free fall, untouched
        assert_float_equal(ledge_body_position(w, ball).y, y, 1e-3 + 1e-5 * fabs(y));
        if (s > 1 && begin_step < 0) assert_true(y > 31.25 - 1e-3 || s == begin_step);
    }
    // It enters when its bottom passes y = 31 and leaves when its top passes 29.
    assert_true(begin_step > 0 && end_step > begin_step);
    double y_in = 40.0 - 10.0 * DT * DT * begin_step * (begin_step + 1) / 2.0;
    double y_out = 40.0 - 10.0 * DT * DT * end_step * (end_step + 1) / 2.0;
    assert_true(y_in < 31.25 && y_in > 31.25 - 0.5);
    assert_true(y_out < 28.75 && y_out > 28.75 - 1.0);
    ledge_world_destroy(w);
}

// --- one-way platforms ------------------------------------------------------------

// A row of one-way FULL tiles at y in [5, 6] over a floor: a ball thrown up
// from below passes up through it and lands on top; drop-through lets it
// fall to the floor.
static void test_one_way_tiles(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 10; x < 30; ++x) {
        ledge_tilemap_set(map, x, 5, LEDGE_TILE_FULL);
        ledge_tilemap_set_one_way(map, x, 5, LEDGE_ONE_WAY_UP);
    }
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.4f);
    bd.position = v(20.5f, 1.4f);
    ledge_body_id ball = ledge_body_create(w, &bd);
    steps(w, 5);
    ledge_body_set_velocity(w, ball, v(0.0f, 12.0f)); // peak about 7.2 m up
    float top = 0.0f;
    for (int s = 0; s < 150; ++s) {
        ledge_world_step(w, DT);
        float y = ledge_body_position(w, ball).y;
        top = fmaxf(top, y);
        // Never held under the platform on the way up.
        if (s < 20) assert_false(ledge_body_ground(w, ball).on_ceiling);
    }
    assert_true(top > 6.4f);
    assert_float_equal(ledge_body_position(w, ball).y, 6.4f, 0.006f); // landed on top
    assert_true(ledge_body_ground(w, ball).on_ground);
    // It stays there, then drops through on request.
    steps(w, 30);
    assert_float_equal(ledge_body_position(w, ball).y, 6.4f, 0.006f);
    ledge_body_drop_through(w, ball);
    steps(w, 90);
    assert_float_equal(ledge_body_position(w, ball).y, 1.4f, 0.006f);
    // Thrown up again it lands on the platform again (drop-through ended).
    ledge_body_set_velocity(w, ball, v(0.0f, 12.0f));
    steps(w, 150);
    assert_float_equal(ledge_body_position(w, ball).y, 6.4f, 0.006f);
    ledge_world_destroy(w);
}

// A one-way cell beside a solid cell hides none of the solid cell's side:
// a box inside the one-way cell, pulled against the solid cell by gravity,
// rests on that side. Every one-way direction, gravity all round, and every
// one-way shape whose solid part reaches the shared side in full or not at
// all (FULL, the four halves); the solid cell FULL or a half covering the
// side. Before edge states knew one-way cells, two such FULL cells made an
// internal seam and the box fell into the solid cell.
static void test_one_way_cell_keeps_neighbour_side(void **state) {
    (void)state;
    static const float gx[4] = {0.0f, 0.0f, -10.0f, 10.0f}, gy[4] = {-10.0f, 10.0f, 0.0f, 0.0f};
    static const int dx[4] = {0, 0, -1, 1}, dy[4] = {-1, 1, 0, 0};
    // The half whose solid part lies against the side toward (dx, dy).
    static const ledge_tile toward[4] = {LEDGE_TILE_HALF_U, LEDGE_TILE_HALF_D, LEDGE_TILE_HALF_L,
                                         LEDGE_TILE_HALF_R};
    const ledge_tile one_way_shapes[] = {LEDGE_TILE_FULL, LEDGE_TILE_HALF_D, LEDGE_TILE_HALF_R,
                                         LEDGE_TILE_HALF_U, LEDGE_TILE_HALF_L};
    int cases = 0;
    for (int g = 0; g < 4; ++g) {
        for (int way = LEDGE_ONE_WAY_UP; way <= LEDGE_ONE_WAY_RIGHT; ++way) {
            for (int k = 0; k < 5; ++k) {
                for (int solid = 0; solid < 2; ++solid) {
                    ledge_world_def wd = ledge_default_world_def();
                    wd.gravity = v(gx[g], gy[g]);
                    wd.map_width = 9;
                    wd.map_height = 9;
                    ledge_world *w = ledge_world_create(&wd);
                    assert_non_null(w);
                    ledge_tilemap *map = ledge_world_tilemap(w);
                    assert_true(ledge_tilemap_set(map, 4, 4, one_way_shapes[k]));
                    assert_true(ledge_tilemap_set_one_way(map, 4, 4, (ledge_one_way)way));
                    ledge_tile wall = solid ? toward[g ^ 1] : LEDGE_TILE_FULL;
                    assert_true(ledge_tilemap_set(map, 4 + dx[g], 4 + dy[g], wall));
                    ledge_body_def bd = ledge_default_body_def();
                    bd.shape = ledge_make_box(v(0, 0), v(0.2f, 0.2f));
                    bd.position = v(4.5f, 4.5f);
                    ledge_body_id box = ledge_body_create(w, &bd);
                    for (int s = 0; s < 90; ++s) ledge_world_step(w, DT);
                    // How far the box reaches past the shared side, toward the wall.
                    vec2s p = ledge_body_position(w, box);
                    float past = dx[g] != 0 ? (dx[g] < 0 ? 4.0f - (p.x - 0.2f) : p.x + 0.2f - 5.0f)
                                            : (dy[g] < 0 ? 4.0f - (p.y - 0.2f) : p.y + 0.2f - 5.0f);
                    if (past > 0.006f) {
                        fail_msg("gravity (%g, %g), one-way %d tile %d, wall tile %d: the box "
                                 "reaches %g past the wall's side",
                                 (double)gx[g], (double)gy[g], way, (int)one_way_shapes[k],
                                 (int)wall, (double)past);
                    }
                    cases++;
                    ledge_world_destroy(w);
                }
            }
        }
    }
    assert_int_equal(cases, 160);
}

// Walking off the end of a one-way platform and across it from the side:
// no snag (the horizontal speed is kept).
static void test_one_way_no_snag(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 10; x < 20; ++x) {
        ledge_tilemap_set(map, x, 1, LEDGE_TILE_FULL);
        ledge_tilemap_set_one_way(map, x, 1, LEDGE_ONE_WAY_UP);
    }
    // A box walking right along the platform top (y = 2) off its end.
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    bd.position = v(15.0f, 2.45f);
    bd.gravity_scale = 1.0f;
    ledge_body_id walker = ledge_body_create(w, &bd);
    // A box walking left along the floor through the platform's side.
    bd.position = v(24.0f, 1.45f);
    ledge_body_id crosser = ledge_body_create(w, &bd);
    steps(w, 3);
    for (int s = 0; s < 150; ++s) {
        ledge_body_set_velocity(w, walker, v(3.0f, ledge_body_velocity(w, walker).y));
        ledge_body_set_velocity(w, crosser, v(-3.0f, ledge_body_velocity(w, crosser).y));
        float wx = ledge_body_position(w, walker).x, cx = ledge_body_position(w, crosser).x;
        ledge_world_step(w, DT);
        assert_float_equal(ledge_body_position(w, walker).x - wx, 3.0f * DT, 1e-4f);
        assert_float_equal(ledge_body_position(w, crosser).x - cx, -3.0f * DT, 1e-4f);
        // The floor under the platform holds the crosser up all the way
        // (it once fell through the side the platform hid, then popped up
        // onto the platform).
        assert_float_equal(ledge_body_position(w, crosser).y, 1.445f, 0.006f);
    }
    assert_true(ledge_body_position(w, walker).x > 20.5f);  // walked off the end
    assert_true(ledge_body_position(w, walker).y < 1.5f);   // and fell to the floor
    assert_true(ledge_body_position(w, crosser).x < 17.0f); // through the platform's side
    ledge_world_destroy(w);
}

// A kinematic one-way platform body: jump up through it, land on it.
static void test_one_way_body(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.one_way = LEDGE_ONE_WAY_UP;
    pd.shape = ledge_make_box(v(0, 0), v(3.0f, 0.2f));
    pd.position = v(20.0f, 5.0f);
    ledge_body_create(w, &pd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.4f);
    bd.position = v(20.0f, 1.4f);
    ledge_body_id ball = ledge_body_create(w, &bd);
    steps(w, 5);
    ledge_body_set_velocity(w, ball, v(0.0f, 11.0f));
    steps(w, 150);
    assert_float_equal(ledge_body_position(w, ball).y, 5.2f + 0.4f, 0.006f);
    ledge_body_drop_through(w, ball);
    steps(w, 90);
    assert_float_equal(ledge_body_position(w, ball).y, 1.4f, 0.006f);
    ledge_world_destroy(w);
}

// --- moving platforms ----------------------------------------------------------------

// A kinematic platform moving along up at a constant speed carries a stack
// of 1 to 4 boxes or circles whole (Coulomb's law; the shock sweep holds a
// body resting on the platform as it moves, and one resting on that one,
// and so on): after a second every body moves at the platform's speed and
// rests on the one below, overlapping it by no more than the slop. Gravity down, up, left and
// right; platform speeds from 8 m/s up to 2 m/s down (slow enough to follow).
static void test_platform_lifts_stack(void **state) {
    (void)state;
    static const vec2s ups[4] = {{{0, 1}}, {{0, -1}}, {{1, 0}}, {{-1, 0}}};
    static const float speeds[] = {8.0f, 4.0f, 2.0f, 1.0f, 0.5f, -0.5f, -2.0f};
    int cases = 0;
    for (int gl = 0; gl < 8; ++gl) {
        int g = gl % 4;
        ledge_friction_law law = gl < 4 ? LEDGE_FRICTION_N : LEDGE_FRICTION_COULOMB;
        vec2s up = ups[g], side = v(-up.y, up.x), across = v(fabsf(side.x), fabsf(side.y));
        for (size_t si = 0; si < sizeof speeds / sizeof speeds[0]; ++si) {
            for (int count = 1; count <= 4; ++count) {
                for (int circles = 0; circles < 2; ++circles) {
                    ledge_world_def wd = ledge_default_world_def();
                    wd.gravity = scale(up, -10.0f);
                    wd.friction_law = law;
                    ledge_world *w = ledge_world_create(&wd);
                    assert_non_null(w);
                    float slop = wd.linear_slop;
                    vec2s base = v(32.0f, 32.0f);
                    ledge_body_def pd = ledge_default_body_def();
                    pd.type = LEDGE_BODY_KINEMATIC;
                    pd.shape = ledge_make_box(v(0, 0), v(2.0f * across.x + 0.25f * across.y,
                                                         2.0f * across.y + 0.25f * across.x));
                    pd.position = base;
                    pd.velocity = scale(up, speeds[si]);
                    ledge_body_id plat = ledge_body_create(w, &pd);
                    ledge_body_id body[4];
                    ledge_body_def bd = ledge_default_body_def();
                    bd.shape = circles ? ledge_make_circle(v(0, 0), 0.3f)
                                       : ledge_make_box(v(0, 0), v(0.3f, 0.3f));
                    bd.friction = 0.5f;
                    for (int k = 0; k < count; ++k) {
                        bd.position = add(base, scale(up, 0.25f + 0.3f + 0.6f * (float)k));
                        body[k] = ledge_body_create(w, &bd);
                    }
                    for (int step = 1; step <= 90; ++step) {
                        ledge_world_step(w, DT);
                        if (step < 60) continue;
                        float below = dot(ledge_body_position(w, plat), up) + 0.25f;
                        for (int k = 0; k < count; ++k) {
                            vec2s p = ledge_body_position(w, body[k]);
                            float h = dot(p, up), speed = dot(ledge_body_velocity(w, body[k]), up);
                            if (fabsf(speed - speeds[si]) > 1e-3f ||
                                !(below - (h - 0.3f) > -1e-3f &&
                                  below - (h - 0.3f) < slop + 1e-3f) ||
                                fabsf(dot(sub(p, base), side)) > 1e-3f) {
                                fail_msg("up (%g, %g), platform %g m/s, %d %s, body %d at step "
                                         "%d: speed %.5f, overlap %.5f below, %.5f off its "
                                         "column",
                                         up.x, up.y, speeds[si], count,
                                         circles ? "circles" : "boxes", k, step, speed,
                                         below - (h - 0.3f), dot(sub(p, base), side));
                            }
                            below = h + 0.3f;
                        }
                    }
                    ledge_world_destroy(w);
                    cases++;
                }
            }
        }
    }
    assert_int_equal(cases, 2 * 4 * 7 * 4 * 2);
}

// A platform swinging 8 m to and fro along the floor (ledge_body_set_target,
// 8 s a swing) under a stack of 1 to 4 boxes or circles and a pyramid of
// three boxes: they ride. The step carries what stands on the platform by
// its changes of velocity, and what stands on a carried body the same
// (a stack of four slid off it before: friction alone shared each change
// with the bodies above). With friction between crate and platform (0.8)
// every box ends the swing within 1 cm of where it started on the platform
// (measured 3 mm), a column of circles within 5 cm (2.7 cm: it leans);
// frictionless (the platform's friction 0, the default), the carry alone
// holds them within 0.4 m (0.34 m: it cannot give the first step's change,
// the contact comes a step later). Gravity all round, both friction laws.
static void test_platform_carries_stack(void **state) {
    (void)state;
    static const vec2s ups[4] = {{{0, 1}}, {{0, -1}}, {{1, 0}}, {{-1, 0}}};
    int cases = 0;
    for (int g = 0; g < 4; ++g) {
        vec2s up = ups[g], side = v(-up.y, up.x), across = v(fabsf(side.x), fabsf(side.y));
        for (int law = 0; law < 2; ++law) {
            for (int count = 1; count <= 4; ++count) {
                for (int circles = 0; circles < 2; ++circles) {
                    for (int rough = 0; rough < 2; ++rough) {
                        ledge_world_def wd = ledge_default_world_def();
                        wd.gravity = scale(up, -10.0f);
                        wd.friction_law = law ? LEDGE_FRICTION_COULOMB : LEDGE_FRICTION_N;
                        ledge_world *w = ledge_world_create(&wd);
                        assert_non_null(w);
                        vec2s base = v(32.0f, 32.0f);
                        ledge_body_def pd = ledge_default_body_def();
                        pd.type = LEDGE_BODY_KINEMATIC;
                        pd.shape = ledge_make_box(v(0, 0), v(4.0f * across.x + 0.25f * across.y,
                                                             4.0f * across.y + 0.25f * across.x));
                        pd.position = base;
                        pd.friction = rough ? 0.8f : 0.0f;
                        ledge_body_id plat = ledge_body_create(w, &pd);
                        ledge_body_id body[7];
                        vec2s start[7];
                        int n = 0;
                        ledge_body_def bd = ledge_default_body_def();
                        bd.friction = 0.8f;
                        for (int k = 0; k < count; ++k) { // the stack, 2 m to one side
                            bd.shape = circles ? ledge_make_circle(v(0, 0), 0.5f)
                                               : ledge_make_box(v(0, 0), v(0.5f, 0.5f));
                            bd.position = add(add(base, scale(side, -2.0f)),
                                              scale(up, 0.25f + 0.5f + (float)k));
                            start[n] = sub(bd.position, base);
                            body[n++] = ledge_body_create(w, &bd);
                        }
                        bd.shape = ledge_make_box(v(0, 0), v(0.5f, 0.5f)); // the pyramid
                        static const float pa[3] = {1.0f, 2.1f, 1.55f},
                                           ph[3] = {0.75f, 0.75f, 1.75f};
                        for (int k = 0; k < 3; ++k) {
                            bd.position = add(add(base, scale(side, pa[k])), scale(up, ph[k]));
                            start[n] = sub(bd.position, base);
                            body[n++] = ledge_body_create(w, &bd);
                        }
                        for (int f = 1; f <= 480; ++f) {
                            float swing = 4.0f - 4.0f * cosf(6.2831853f * (float)f / 480.0f);
                            ledge_body_set_target(w, plat, add(base, scale(side, swing)), DT);
                            ledge_world_step(w, DT);
                        }
                        vec2s at = ledge_body_position(w, plat);
                        float limit = rough ? (circles ? 0.05f : 0.01f) : 0.4f;
                        for (int k = 0; k < n; ++k) {
                            vec2s rel = sub(sub(ledge_body_position(w, body[k]), at), start[k]);
                            if (fabsf(dot(rel, side)) > limit || fabsf(dot(rel, up)) > 0.05f) {
                                fail_msg("up (%g, %g), %s law, %d %s, platform friction %g: body "
                                         "%d moved (%.3f, %.3f) along, up on the platform",
                                         up.x, up.y, law ? "Coulomb's" : "N's", count,
                                         circles ? "circles" : "boxes", pd.friction, k,
                                         dot(rel, side), dot(rel, up));
                            }
                        }
                        ledge_world_destroy(w);
                        cases++;
                    }
                }
            }
        }
    }
    assert_int_equal(cases, 4 * 2 * 4 * 2 * 2);
}

// A platform driven by targets back and forth (a sine, 2 s period) carries
// a crate standing on it through a full cycle without slipping.
static void test_moving_platform_carries(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(2.0f, 0.25f));
    pd.position = v(30.0f, 8.0f);
    ledge_body_id plat = ledge_body_create(w, &pd);
    ledge_body_id crate = add_box(w, v(30.0f, 8.25f + 0.3f), v(0.3f, 0.3f), LEDGE_BODY_DYNAMIC);
    steps(w, 10); // settles on the still platform
    float offset = ledge_body_position(w, crate).x - ledge_body_position(w, plat).x;
    for (int s = 1; s <= 240; ++s) { // two full cycles
        double t = s * DT;
        // Vertical acceleration at most 0.2 (2 pi)^2 = 7.9 < g: the crate
        // can follow it down.
        vec2s target =
            v(30.0f + 4.0f * (float)sin(t * 3.14159265), 8.0f + 0.2f * (float)sin(t * 6.2831853));
        ledge_body_set_target(w, plat, target, DT);
        ledge_world_step(w, DT);
        vec2s pp = ledge_body_position(w, plat), cp = ledge_body_position(w, crate);
        assert_float_equal(pp.x, target.x, 1e-3f);
        assert_float_equal(cp.x - pp.x, offset, 0.05f); // carried, no slipping off
        assert_float_equal(cp.y - pp.y, 0.55f, 0.03f);  // on top
        if (s > 2) {
            ledge_ground g = ledge_body_ground(w, crate);
            assert_true(g.on_ground);
            assert_true(g.ground_body.index1 == plat.index1);
        }
    }
    ledge_world_destroy(w);
}

// A platform coming down onto a crate on the floor: the crate is squeezed,
// reported as a crush, and never pushed into the floor.
static void test_crush_event(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_body_id crate = add_box(w, v(20.0f, 1.3f), v(0.3f, 0.3f), LEDGE_BODY_DYNAMIC);
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(2.0f, 0.25f));
    pd.position = v(20.0f, 3.0f);
    pd.velocity = v(0.0f, -2.0f);
    ledge_body_id plat = ledge_body_create(w, &pd);
    int crushes = 0, first = -1;
    for (int s = 0; s < 60; ++s) {
        ledge_world_step(w, DT);
        ledge_crush_events c = ledge_world_crush_events(w);
        for (int i = 0; i < c.count; ++i) {
            assert_true(c.events[i].body.index1 == crate.index1);
            assert_true(c.events[i].crusher.index1 == plat.index1);
            assert_true(c.events[i].depth > 0.06f);
            if (first < 0) first = s;
            crushes++;
        }
        assert_true(ledge_body_position(w, crate).y >= 1.3f - 0.006f); // tiles win
    }
    // The platform's bottom reaches the crate's top (y 1.6) at t = 0.575 s,
    // step 34; a crush is a fifth of 0.3 deeper, two steps later.
    assert_true(first >= 34 && first <= 40);
    assert_true(crushes > 10);
    ledge_world_destroy(w);
}

// A kinematic pusher moving 0.2 m per step shoves a crate that was 0.1 m
// from a wall (further than the broad phase's margin): the push carries it
// into the wall within the substep, and the wall still wins.
static void test_push_into_wall(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int y = 1; y < 10; ++y) ledge_tilemap_set(map, 20, y, LEDGE_TILE_FULL);
    ledge_body_id crate = add_box(w, v(19.6f, 1.8f), v(0.3f, 0.3f), LEDGE_BODY_DYNAMIC);
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(0.5f, 0.5f));
    pd.position = v(18.8f, 1.8f);
    pd.velocity = v(12.0f, 0.0f);
    pd.gravity_scale = 0.0f;
    ledge_body_create(w, &pd);
    ledge_body_set_velocity(w, crate, v(0.0f, 0.0f));
    for (int s = 0; s < 3; ++s) {
        ledge_world_step(w, DT);
        assert_true(ledge_body_position(w, crate).x <= 20.0f - 0.3f + 0.006f);
    }
    ledge_world_destroy(w);
}

// --- responses -------------------------------------------------------------------------

static ledge_body_id ball_at(ledge_world *w, vec2s at, vec2s vel, ledge_response r) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.25f);
    bd.position = at;
    bd.velocity = vel;
    bd.gravity_scale = 0.0f;
    bd.friction = 0.5f;
    bd.response = r;
    return ledge_body_create(w, &bd);
}

static void test_responses(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int y = 0; y < 64; ++y) ledge_tilemap_set(map, 40, y, LEDGE_TILE_FULL); // wall at x = 40
    // Each ball heads for the wall at (5, 1) m/s.
    ledge_body_id slide = ball_at(w, v(38.0f, 10.0f), v(5.0f, 1.0f), LEDGE_RESPONSE_SLIDE);
    ledge_body_set_friction(w, slide, 0.0f);
    ledge_body_id touch = ball_at(w, v(38.0f, 20.0f), v(5.0f, 1.0f), LEDGE_RESPONSE_TOUCH);
    ledge_body_id bounce = ball_at(w, v(38.0f, 30.0f), v(5.0f, 1.0f), LEDGE_RESPONSE_BOUNCE);
    ledge_body_id cross = ball_at(w, v(38.0f, 40.0f), v(5.0f, 1.0f), LEDGE_RESPONSE_CROSS);
    steps(w, 30);
    vec2s vs = ledge_body_velocity(w, slide), vt = ledge_body_velocity(w, touch);
    vec2s vb = ledge_body_velocity(w, bounce);
    assert_true(vs.x == 0.0f && vs.y == 1.0f); // stopped into it, sliding along
    assert_true(vt.x == 0.0f && vt.y == 0.0f); // stopped dead
    assert_float_equal(vb.x, -5.0f, 1e-5f);    // reflected
    assert_float_equal(vb.y, 1.0f, 1e-5f);
    assert_true(ledge_body_position(w, cross).x > 40.3f); // passed into the wall
    ledge_contact_data cd[4];
    assert_true(ledge_body_contacts(w, cross, cd, 4) >= 0);
    ledge_world_destroy(w);
}

// The pre-solve filter: crates pass through a "ghost" platform body only.
static ledge_response ghost_filter(ledge_body_id body, ledge_body_id other, int cx, int cy, vec2s n,
                                   ledge_response proposed, void *context) {
    (void)cx, (void)cy, (void)n;
    const ledge_body_id *ghost = context;
    if (other.index1 == ghost->index1 || body.index1 == ghost->index1) return LEDGE_RESPONSE_CROSS;
    return proposed;
}

static void test_pre_solve(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_body_id ghost = add_box(w, v(10.0f, 5.0f), v(2.0f, 0.2f), LEDGE_BODY_STATIC);
    ledge_body_id solid = add_box(w, v(30.0f, 5.0f), v(2.0f, 0.2f), LEDGE_BODY_STATIC);
    (void)solid;
    ledge_world_set_pre_solve(w, ghost_filter, &ghost);
    ledge_body_id a = add_box(w, v(10.0f, 8.0f), v(0.3f, 0.3f), LEDGE_BODY_DYNAMIC);
    ledge_body_id b = add_box(w, v(30.0f, 8.0f), v(0.3f, 0.3f), LEDGE_BODY_DYNAMIC);
    steps(w, 120);
    assert_float_equal(ledge_body_position(w, a).y, 1.3f, 0.006f); // through the ghost
    assert_float_equal(ledge_body_position(w, b).y, 5.5f, 0.006f); // on the solid one
    ledge_world_destroy(w);
}

// --- refusals ----------------------------------------------------------------------------

static void test_refusals(void **state) {
    (void)state;
    ledge_world *w = floor_world();
    ledge_body_id stale = add_box(w, v(5, 5), v(0.5f, 0.5f), LEDGE_BODY_DYNAMIC);
    ledge_body_destroy(w, stale);
    log_capture_start();
    assert_int_equal(ledge_body_contacts(w, stale, NULL, 0), -1);
    assert_true(log_capture_says("ledge_body_contacts", "stale"));
    ledge_body_id ok = add_box(w, v(5, 5), v(0.5f, 0.5f), LEDGE_BODY_DYNAMIC);
    log_capture_start();
    assert_int_equal(ledge_body_contacts(w, ok, NULL, 3), -1);
    assert_true(log_capture_says("ledge_body_contacts", "capacity"));
    log_capture_start();
    assert_false(ledge_body_ground(w, stale).on_ground);
    assert_true(log_capture_says("ledge_body_ground", "stale"));
    log_capture_start();
    assert_int_equal(ledge_world_touch_events(NULL).begin_count, 0);
    assert_true(log_capture_says("ledge_world_touch_events", "world"));
    log_capture_start();
    assert_false(ledge_tilemap_set_one_way(ledge_world_tilemap(w), 99, 0, LEDGE_ONE_WAY_UP));
    assert_true(log_capture_says("ledge_tilemap_set_one_way", "cell"));
    log_capture_start();
    assert_false(ledge_body_set_target(w, ok, v(1, 1), DT)); // dynamic
    assert_true(log_capture_says("ledge_body_set_target", "kinematic"));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 1.0f);
    bd.one_way = 9;
    log_capture_start();
    assert_int_equal(ledge_body_create(w, &bd).index1, 0);
    assert_true(log_capture_says("ledge_body_create", "one_way"));
    bd.one_way = 0;
    bd.max_floor_angle = 2.0f;
    log_capture_start();
    assert_int_equal(ledge_body_create(w, &bd).index1, 0);
    assert_true(log_capture_says("ledge_body_create", "max_floor_angle"));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ground_on_floor_and_wall),
        cmocka_unit_test(test_ceiling_and_body_ground),
        cmocka_unit_test(test_slope_classes),
        cmocka_unit_test(test_touch_events),
        cmocka_unit_test(test_sensor_events),
        cmocka_unit_test(test_one_way_tiles),
        cmocka_unit_test(test_one_way_no_snag),
        cmocka_unit_test(test_one_way_cell_keeps_neighbour_side),
        cmocka_unit_test(test_one_way_body),
        cmocka_unit_test(test_moving_platform_carries),
        cmocka_unit_test(test_platform_lifts_stack),
        cmocka_unit_test(test_platform_carries_stack),
        cmocka_unit_test(test_crush_event),
        cmocka_unit_test(test_push_into_wall),
        cmocka_unit_test(test_responses),
        cmocka_unit_test(test_pre_solve),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
