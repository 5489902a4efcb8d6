// The headless demo's run (samples/game.c played by its autopilot, as
// samples/demo.c plays it), checked frame by frame so that the README's
// first command shows what it claims:
// - the player reaches the goal, having ridden the moving platform across
//   the bowl, gone up through the one-way platform, stood on it, dropped
//   through it, and hit the ceiling tiles on purpose;
// - the player never overlaps a tile deeper than the mover's skin, never
//   leaves the map, and is in the air only where the level makes it jump
//   or fall (a bounded number of frames);
// - every box, ball and bullet ends inside the bowl, none in solid;
// - two runs give the same bits (ledge_world_hash every frame).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "game.h"

#include <math.h>
#include <string.h>

#define FRAMES 1320 // as samples/demo.c

typedef struct run_record {
    int goal_frame;
    int platform_frames;   // frames standing on the moving platform
    int one_way_frames;    // frames standing on the one-way platform
    int rising_through;    // frames moving up inside the one-way platform's row
    int ceiling_frames;    // frames against a ceiling
    int air_frames;        // frames not on the ground
    float deepest;         // deepest tile overlap of the player
    uint64_t hash[FRAMES]; // ledge_world_hash after every frame
} run_record;

static float tile_depth(game *g) {
    ledge_tile_contact c[16];
    const ledge_shape *shape = ledge_body_shape(g->world, g->player);
    int n = ledge_tilemap_collide(ledge_world_tilemap(g->world), shape, g->state.position, c, 16);
    assert_true(n >= 0 && n <= 16);
    float d = 0.0f;
    for (int i = 0; i < n; ++i) {
        // One-way cells block only from above: overlapping them while
        // rising through is what they are for.
        if (c[i].y == GAME_ONE_WAY_Y && c[i].x >= GAME_ONE_WAY_X0 && c[i].x <= GAME_ONE_WAY_X1)
            continue;
        d = fmaxf(d, c[i].manifold.depth);
    }
    return d;
}

static void record_frame(game *g, run_record *r) {
    const game_player_state *s = &g->state;
    vec2s p = s->position;
    assert_true(p.x > 1.0f && p.x < GAME_WIDTH - 1.0f && p.y > 1.0f && p.y < GAME_HEIGHT - 1.0f);
    r->deepest = fmaxf(r->deepest, tile_depth(g));
    r->platform_frames += s->on_platform;
    r->one_way_frames += s->on_one_way;
    r->ceiling_frames += s->on_ceiling;
    r->air_frames += !s->on_ground;
    bool in_row =
        p.y - GAME_PLAYER_HY < GAME_ONE_WAY_Y + 1.0f && p.y + GAME_PLAYER_HY > GAME_ONE_WAY_Y;
    bool under = p.x > GAME_ONE_WAY_X0 && p.x < GAME_ONE_WAY_X1 + 1.0f;
    r->rising_through += in_row && under && s->velocity.y > 0.0f;
    if (r->goal_frame < 0 && g->phase == PHASE_GOAL) r->goal_frame = g->frame;
}

static void play(run_record *r) {
    memset(r, 0, sizeof *r);
    r->goal_frame = -1;
    game g;
    assert_true(game_create(&g));
    for (int f = 0; f < FRAMES; ++f) {
        game_input in = game_autopilot(&g);
        game_update(&g, &in);
        record_frame(&g, r);
        r->hash[f] = ledge_world_hash(g.world);
    }
    assert_true(g.platform_done && g.one_way_done && g.bonked);
    assert_int_equal(g.bullet_count, 3);
    // The pile stays in the bowl (x 24..34, below the floor's top), out of
    // solid tiles.
    ledge_tilemap *map = ledge_world_tilemap(g.world);
    for (int i = 0; i < g.body_count; ++i) {
        vec2s p = ledge_body_position(g.world, g.bodies[i]);
        assert_true(p.x > 24.0f && p.x < 34.0f && p.y > 1.0f && p.y < 4.0f);
        assert_false(ledge_tilemap_query_point(map, p, NULL));
    }
    game_destroy(&g);
}

static void test_demo_reaches_the_goal(void **state) {
    (void)state;
    static run_record r;
    play(&r);
    assert_true(r.goal_frame > 0 && r.goal_frame < FRAMES);
    assert_true(r.platform_frames >= 60); // rode it for at least a second
    assert_true(r.one_way_frames >= 30);  // stood on it half a second
    assert_true(r.rising_through >= 3);   // went up through it
    assert_true(r.ceiling_frames >= 1);   // the bonk
    assert_true(r.air_frames < 7 * 60);   // six jumps and a drop: about 6 s (356 frames)
    assert_true(r.deepest <= 0.011f);     // the mover's skin
}

static void test_demo_is_deterministic(void **state) {
    (void)state;
    static run_record a, b;
    play(&a);
    play(&b);
    assert_memory_equal(a.hash, b.hash, sizeof a.hash);
    assert_int_equal(a.goal_frame, b.goal_frame);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demo_reaches_the_goal),
        cmocka_unit_test(test_demo_is_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
