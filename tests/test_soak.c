// Soak test, public API only: a world where every frame one body dies and
// another is born, doors (tiles) open and close, and characters walk and
// jump, stepped for a long time. After a warm-up, memory stays flat (no
// allocation at all through the allocator hook), no body leaves the map,
// nothing goes non-finite, and an id is never handed out twice (a dead id
// stays invalid for good).
//
// Steps: 20,000 by default (CI), 2,000 under valgrind
// (LEDGE_UNDER_VALGRIND), or LEDGE_SOAK_STEPS; the long run of
// docs/robustness.md is LEDGE_SOAK_STEPS=1000000 on the release build.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "alloc_hook.h"
#include "rng.h"
#include "scale.h"

#include <math.h>
#include <stdio.h>

#define W          40
#define H          24
#define CROWD      160  // bodies alive at any time, characters included
#define CHARACTERS 8    // the first CHARACTERS slots of the crowd
#define GRAVEYARD  4096 // recently destroyed ids, checked to stay invalid
#define WARMUP     2000

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static long steps_wanted(void) {
    const char *s = getenv("LEDGE_SOAK_STEPS");
    if (s != NULL && atol(s) > 0) return atol(s);
    return getenv("LEDGE_UNDER_VALGRIND") ? 2000 : 20000;
}

static void build_level(ledge_tilemap *map) {
    bool ok = true;
    for (int x = 0; x < W; ++x) ok &= ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    for (int y = 0; y < H; ++y) {
        ok &= ledge_tilemap_set(map, 0, y, LEDGE_TILE_FULL);
        ok &= ledge_tilemap_set(map, W - 1, y, LEDGE_TILE_FULL);
    }
    ok &= ledge_tilemap_set(map, 1, 1, LEDGE_TILE_45DEG_PP);
    ok &= ledge_tilemap_set(map, W - 2, 1, LEDGE_TILE_45DEG_NP);
    for (int x = 6; x < W - 6; x += 9) { // platforms with rounded and sloped ends
        ok &= ledge_tilemap_set(map, x, 7, LEDGE_TILE_CONVEX_NP);
        ok &= ledge_tilemap_set(map, x + 1, 7, LEDGE_TILE_FULL);
        ok &= ledge_tilemap_set(map, x + 2, 7, LEDGE_TILE_HALF_U);
        ok &= ledge_tilemap_set(map, x + 3, 7, LEDGE_TILE_22DEG_BIG_PP);
        ok &= ledge_tilemap_set(map, x + 4, 7, LEDGE_TILE_22DEG_SMALL_PP);
    }
    assert_true(ok);
}

static ledge_body_def random_body(bool character) {
    ledge_body_def bd = ledge_default_body_def();
    bd.drag = 0.5f; // terminal speed 20 m/s: no body moves its own size in a step
    bd.friction = rng_range(0.0, 0.8);
    bd.bounce = rng_range(0.0, 0.4);
    if (character) {
        bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
        bd.friction = 0.5f;
        bd.bounce = 0.0f;
    } else {
        switch (rng_int(0, 2)) {
        case 0:
            bd.shape = ledge_make_circle(v(0, 0), rng_range(0.25, 0.45));
            break;
        case 1:
            bd.shape = ledge_make_box(v(0, 0), v(rng_range(0.2, 0.45), rng_range(0.2, 0.45)));
            break;
        default: {
            const vec2s tri[3] = {{{-0.4f, -0.3f}}, {{0.4f, -0.3f}}, {{0.0f, 0.4f}}};
            assert_true(ledge_make_polygon(tri, 3, &bd.shape));
        }
        }
    }
    bd.position = v(rng_range(3.0, W - 3.0), rng_range(H - 6.0, H - 2.0));
    bd.velocity = v(rng_range(-2, 2), 0.0f);
    return bd;
}

static bool same_id(ledge_body_id a, ledge_body_id b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
}

typedef struct soak {
    ledge_world *w;
    ledge_body_id crowd[CROWD];
    ledge_body_id graveyard[GRAVEYARD];
    long buried;
    float walk[CHARACTERS]; ///< Each character's walking speed.
} soak;

// A new id must be unlike every living one and every recently dead one.
static void check_fresh(const soak *s, ledge_body_id id, int slot) {
    assert_true(ledge_body_is_valid(s->w, id));
    for (int i = 0; i < CROWD; ++i) {
        if (i != slot) assert_false(same_id(id, s->crowd[i]));
    }
    long n = s->buried < GRAVEYARD ? s->buried : GRAVEYARD;
    for (long k = 0; k < n; ++k) assert_false(same_id(id, s->graveyard[k]));
}

static void replace(soak *s, int slot) {
    ledge_body_id old = s->crowd[slot];
    ledge_body_destroy(s->w, old);
    assert_false(ledge_body_is_valid(s->w, old));
    s->graveyard[s->buried++ % GRAVEYARD] = old;
    ledge_body_def bd = random_body(slot < CHARACTERS);
    s->crowd[slot] = ledge_body_create(s->w, &bd);
    check_fresh(s, s->crowd[slot], slot);
}

// Characters walk, turn at walls (or every few seconds) and jump.
static void drive_characters(soak *s, long step) {
    for (int c = 0; c < CHARACTERS; ++c) {
        ledge_body_id id = s->crowd[c];
        vec2s p = ledge_body_position(s->w, id), u = ledge_body_velocity(s->w, id);
        if (p.x < 3.0f || (step + 37 * c) % 300 == 0) s->walk[c] = 3.0f;
        if (p.x > W - 3.0f) s->walk[c] = -3.0f;
        assert_true(ledge_body_set_velocity(s->w, id, v(s->walk[c], u.y)));
        if ((step + 11 * c) % 90 == 0 && fabsf(u.y) < 0.1f) {
            assert_true(ledge_body_apply_impulse(s->w, id, v(0, 6.0f * ledge_body_mass(s->w, id))));
        }
    }
}

// A door: a cell of the platforms' row that opens and closes, but only
// closes when no body is in the way (as a game would do).
static void toggle_door(soak *s, long step) {
    int x = 2 + (int)((step / 25) % (W - 4));
    ledge_tilemap *map = ledge_world_tilemap(s->w);
    ledge_tile t = ledge_tilemap_get(map, x, 12);
    if (t != LEDGE_TILE_EMPTY) {
        assert_true(ledge_tilemap_set(map, x, 12, LEDGE_TILE_EMPTY));
        return;
    }
    for (int i = 0; i < CROWD; ++i) {
        vec2s p = ledge_body_position(s->w, s->crowd[i]);
        if (fabsf(p.x - ((float)x + 0.5f)) < 1.5f && fabsf(p.y - 12.5f) < 1.5f) return;
    }
    static const ledge_tile doors[] = {LEDGE_TILE_FULL, LEDGE_TILE_HALF_D, LEDGE_TILE_45DEG_PN,
                                       LEDGE_TILE_CONCAVE_NN};
    assert_true(ledge_tilemap_set(map, x, 12, doors[(step / 25) % 4]));
}

static void check_bodies(const soak *s, long step) {
    assert_int_equal(ledge_world_body_count(s->w), CROWD);
    for (int i = 0; i < CROWD; ++i) {
        vec2s p = ledge_body_position(s->w, s->crowd[i]);
        vec2s u = ledge_body_velocity(s->w, s->crowd[i]);
        if (!(isfinite(p.x) && isfinite(p.y) && isfinite(u.x) && isfinite(u.y))) {
            fail_msg("step %ld: body %d is at (%g, %g) moving (%g, %g)", step, i, (double)p.x,
                     (double)p.y, (double)u.x, (double)u.y);
        }
        if (!(p.x > 0.0f && p.x < (float)W && p.y > 0.0f && p.y < (float)H)) {
            fail_msg("step %ld: body %d escaped the map to (%g, %g)", step, i, (double)p.x,
                     (double)p.y);
        }
    }
}

static void test_soak(void **state) {
    (void)state;
    long steps = steps_wanted();
    g_rng = 0x50A4ull;
    alloc_hook_start(0, false);
    static soak s;
    memset(&s, 0, sizeof s);
    ledge_world_def wd = ledge_default_world_def();
    wd.worker_count = test_workers();
    wd.map_width = W;
    wd.map_height = H;
    s.w = ledge_world_create(&wd);
    assert_non_null(s.w);
    build_level(ledge_world_tilemap(s.w));
    for (int i = 0; i < CROWD; ++i) {
        ledge_body_def bd = random_body(i < CHARACTERS);
        s.crowd[i] = ledge_body_create(s.w, &bd);
        check_fresh(&s, s.crowd[i], i);
    }
    for (int c = 0; c < CHARACTERS; ++c) s.walk[c] = c % 2 ? 3.0f : -3.0f;
    long calls_at_warmup = 0, live_at_warmup = 0;
    for (long k = 0; k < steps; ++k) {
        if (k == WARMUP) {
            calls_at_warmup = g_alloc.calls;
            live_at_warmup = g_alloc.live;
        }
        replace(&s, CHARACTERS + rng_int(0, CROWD - CHARACTERS - 1));
        if (k % 1000 == 999) replace(&s, rng_int(0, CHARACTERS - 1)); // characters die too
        drive_characters(&s, k);
        if (k % 5 == 0) toggle_door(&s, k);
        ledge_world_step(s.w, 1.0f / 60.0f);
        check_bodies(&s, k);
    }
    long after = steps > WARMUP ? g_alloc.calls - calls_at_warmup : -1;
    print_message(
        "soak (%d workers): %ld steps, %ld bodies destroyed and created, %ld allocations in all, "
        "%ld after the %d-step warm-up, %ld blocks live\n",
        test_workers(), steps, s.buried, g_alloc.calls, after, WARMUP, g_alloc.live);
    if (steps > WARMUP) {
        assert_int_equal(after, 0);
        assert_int_equal(g_alloc.live, live_at_warmup);
    }
    ledge_world_destroy(s.w);
    assert_int_equal(g_alloc.live, 0);
    alloc_hook_stop();
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_soak)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
