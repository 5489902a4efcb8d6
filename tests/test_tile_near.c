// The broad phase's tile lookups with what each body remembers (broad.c:
// the range of tiles it last saw, the clear range of empty cells around the
// range it last saw free) against a double-precision brute force over the
// map's cells: on seeded worlds of random tiles, tile sizes, origins and
// bodies (slow, fast, small, large, partly outside the map), after every
// step and after tile edits between steps, the answers must be the
// lookup's, and no body the brute force finds near a tile may be left out
// of the broad phase's tile list. And the pairs found after far pushes
// (broad.c, ledge__far_pairs) join the candidate list once each.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "broad.h"
#include "rng.h"
#include "world.h"

#include <math.h>
#include <stdlib.h>

#define MAP_W 40
#define MAP_H 30

// How close (in cells) a box edge may come to a cell boundary before the
// double oracle and the float lookup may round to different cells.
#define EDGE_TOLERANCE 1e-3

static bool near_boundary(double f) {
    return fabs(f - floor(f + 0.5)) < EDGE_TOLERANCE;
}

// Whether the box (c, h) grown by the margin covers a non-empty cell or a
// cell outside the map, in double, from the map's own cells (1 or 0; -1
// when an edge is too close to a cell boundary to call).
static int brute_near(ledge_world *w, vec2s c, vec2s h) {
    ledge_tilemap *map = ledge_world_tilemap(w);
    ledge_tilemap_def d = ledge_tilemap_get_def(map);
    double m = w->step.margin, ts = d.tile_size;
    double lx = ((double)c.x - h.x - m - d.origin.x) / ts,
           hx = ((double)c.x + h.x + m - d.origin.x) / ts;
    double ly = ((double)c.y - h.y - m - d.origin.y) / ts,
           hy = ((double)c.y + h.y + m - d.origin.y) / ts;
    if (near_boundary(lx) || near_boundary(hx) || near_boundary(ly) || near_boundary(hy)) return -1;
    int x0 = (int)floor(lx), x1 = (int)floor(hx), y0 = (int)floor(ly), y1 = (int)floor(hy);
    if (x0 < 0 || y0 < 0 || x1 >= d.width || y1 >= d.height) return 1;
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            if (ledge_tilemap_get(map, x, y) != LEDGE_TILE_EMPTY) return 1;
        }
    }
    return 0;
}

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static ledge_world *random_world(float ts, vec2s origin, vec2s gravity) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = gravity;
    wd.map_width = MAP_W;
    wd.map_height = MAP_H;
    wd.tile_size = ts;
    wd.map_origin = origin;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int y = 0; y < MAP_H; ++y) {
        for (int x = 0; x < MAP_W; ++x) {
            if (rng_unit() < 0.04) ledge_tilemap_set(map, x, y, LEDGE_TILE_FULL);
        }
    }
    for (int k = 0; k < 150; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        float r = rng_range(0.1, 0.9) * ts;
        bd.shape = rng_unit() < 0.5 ? ledge_make_circle(v(0.0f, 0.0f), r)
                                    : ledge_make_box(v(0.0f, 0.0f), v(r, rng_range(0.3, 1.2) * r));
        // Over the map and a little beyond it.
        bd.position = v(origin.x + rng_range(-2.0, MAP_W + 2.0) * ts,
                        origin.y + rng_range(-2.0, MAP_H + 2.0) * ts);
        float speed = rng_unit() < 0.2 ? 40.0f : 3.0f; // some fast (fast.c)
        bd.velocity = v(rng_range(-1.0, 1.0) * speed * ts, rng_range(-1.0, 1.0) * speed * ts);
        assert_true(ledge_body_create(w, &bd).index1 != 0);
    }
    return w;
}

typedef struct tally {
    long checked, skipped, clear_answers; ///< clear_answers: no tile, body holding a clear range.
} tally;

// One answer of the lookups against the oracle (skipped within the tolerance).
static void check_box(ledge_world *w, int i, vec2s c, vec2s h, tally *t) {
    int want = brute_near(w, c, h);
    if (want < 0) {
        t->skipped++;
        return;
    }
    t->checked++;
    bool got = ledge__body_tiles_near(w, i, c, h);
    assert_int_equal(got, want);
    assert_int_equal(ledge__tiles_near(w, c, h), want);
    if ((w->tile_seen_near[i] & 4u) && !want) t->clear_answers++;
}

// Every clear range holds only empty cells inside the map (between the
// step that found it and a tile edit).
static void check_clear_ranges(ledge_world *w) {
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int i = 0; i < w->slot_count; ++i) {
        if (!w->alive[i] || !(w->tile_seen_near[i] & 4u)) continue;
        ledge__range r = w->tile_seen[i];
        assert_true(r.x0 >= 0 && r.y0 >= 0 && r.x1 < MAP_W && r.y1 < MAP_H);
        for (int y = r.y0; y <= r.y1; ++y) {
            for (int x = r.x0; x <= r.x1; ++x) {
                assert_int_equal(ledge_tilemap_get(map, x, y), LEDGE_TILE_EMPTY);
            }
        }
    }
}

// Every body after a step: its broad-phase look (at its anchor) is in the
// tile list whenever the oracle finds a tile near it, and boxes around it
// get the lookup's answers from ledge__body_tiles_near.
static void check_bodies(ledge_world *w, float ts, tally *t) {
    for (int i = 0; i < w->slot_count; ++i) {
        if (!w->alive[i] || w->frozen[i]) continue;
        int want = brute_near(w, w->tile_anchor[i], w->box_half[i]);
        if (want == 1) assert_true(w->step.tile_listed[i]);
        for (int k = 0; k < 8; ++k) {
            float reach = 3.0f * ts;
            vec2s c = v(w->tile_anchor[i].x + rng_range(-1.0, 1.0) * reach,
                        w->tile_anchor[i].y + rng_range(-1.0, 1.0) * reach);
            vec2s h =
                v(w->box_half[i].x * rng_range(0.5, 2.0), w->box_half[i].y * rng_range(0.5, 2.0));
            check_box(w, i, c, h, t);
        }
    }
}

// A tile set inside a body's clear range between steps: the body's boxes
// there must see it at once (before the broad phase forgets the range).
static void edit_inside_clear_ranges(ledge_world *w, tally *t) {
    ledge_tilemap *map = ledge_world_tilemap(w);
    int edits = 0;
    for (int i = 0; i < w->slot_count && edits < 5; ++i) {
        if (!w->alive[i] || !(w->tile_seen_near[i] & 4u)) continue;
        ledge__range r = w->tile_seen[i];
        int x = rng_int(r.x0, r.x1), y = rng_int(r.y0, r.y1);
        if (ledge_tilemap_get(map, x, y) != LEDGE_TILE_EMPTY) continue; // this round's edit
        assert_true(ledge_tilemap_set(map, x, y, LEDGE_TILE_FULL));
        edits++;
        ledge_tilemap_def d = ledge_tilemap_get_def(map);
        vec2s cell = v(d.origin.x + ((float)x + 0.5f) * d.tile_size,
                       d.origin.y + ((float)y + 0.5f) * d.tile_size);
        check_box(w, i, cell, v(0.1f * d.tile_size, 0.1f * d.tile_size), t);
        assert_true(ledge__body_tiles_near(w, i, cell, v(0.1f * d.tile_size, 0.1f * d.tile_size)));
    }
    assert_true(edits > 0);
}

static void test_tile_lookups_match_brute_force(void **state) {
    (void)state;
    // Every tile size with every gravity: none, and each of the four up
    // axes the grid files along (y up, y down, x up, x down; world.c's
    // up_axis, broad.c's to_grid), 15 seeds covering the 3 x 5 pairs.
    static const float gravities[5][2] = {{0, 0}, {0, -10}, {0, 10}, {-10, 0}, {10, 0}};
    tally t = {0, 0, 0};
    int up_axes_seen = 0;
    for (int seed = 1; seed <= 15; ++seed) {
        g_rng = 0x7113u + (uint64_t)seed;
        float ts = seed % 3 == 0 ? 0.5f : seed % 3 == 1 ? 1.0f : 1.7f;
        const float *g = gravities[seed % 5];
        vec2s origin = v(rng_range(-50.0, 50.0), rng_range(-50.0, 50.0));
        ledge_world *w = random_world(ts, origin, v(g[0] * ts, g[1] * ts));

        for (int step = 0; step < 40; ++step) {
            ledge_world_step(w, 1.0f / 60.0f);
            if (g[0] != 0.0f || g[1] != 0.0f) up_axes_seen |= 1 << w->up_axis; // set by the step
            check_clear_ranges(w);
            check_bodies(w, ts, &t);
            if (step % 10 == 9) edit_inside_clear_ranges(w, &t);
        }
        ledge_world_destroy(w);
    }
    // The cases are not vacuous: most were decided, and the clear ranges
    // answered many of them.
    assert_true(t.checked > 100000);
    assert_true(t.skipped * 100 < t.checked);
    assert_true(t.clear_answers > t.checked / 10);
    assert_int_equal(up_axes_seen, 15); // all four grid orientations ran
}

// --- pairs after far pushes ----------------------------------------------------

static int key_cmp(const void *pa, const void *pb) {
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

// Rain landing in a narrow shaft (22 x 60 circles falling up to 75 m): the
// substeps' pair lists, with the pairs the passes found after far pushes
// at their tails, hold no pair twice, for 1 and 2 workers; and far pairs
// were found (the test sees the search at work).
static void test_far_pairs_listed_once(void **state) {
    (void)state;
    enum { COLS = 22, ROWS = 60, N = COLS * ROWS };
    static uint64_t keys[8 * N];
    for (int workers = 1; workers <= 2; ++workers) {
        ledge_world_def wd = ledge_default_world_def();
        wd.gravity = (vec2s){{0.0f, -10.0f}};
        wd.response_model = LEDGE_RESPONSE_MODEL_STACKING;
        wd.map_width = COLS + 2;
        wd.map_height = ROWS + 10;
        wd.worker_count = workers;
        ledge_world *w = ledge_world_create(&wd);
        assert_non_null(w);
        ledge_tilemap *map = ledge_world_tilemap(w);
        for (int j = 0; j < ROWS + 10; ++j) {
            ledge_tilemap_set(map, 0, j, LEDGE_TILE_FULL);
            ledge_tilemap_set(map, COLS + 1, j, LEDGE_TILE_FULL);
        }
        for (int i = 0; i < COLS + 2; ++i) ledge_tilemap_set(map, i, 0, LEDGE_TILE_FULL);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle((vec2s){{0.0f, 0.0f}}, 0.4f);
        bd.friction = 0.3f;
        bd.bounce = 0.1f;
        for (int k = 0; k < N; ++k) {
            bd.position = (vec2s){{1.5f + (float)(k % COLS) + 0.01f * (float)((7 * k) % 11 - 5),
                                   7.0f + (float)(k / COLS)}};
            assert_true(ledge_body_is_valid(w, ledge_body_create(w, &bd)));
        }
        int with_far = 0;
        for (int s = 0; s < 400; ++s) {
            ledge_world_step(w, 1.0f / 60.0f);
            int n = w->step.pair_count;
            assert_true(n <= 8 * N);
            for (int k = 0; k < n; ++k) {
                int a = w->step.pairs[k].a, b = w->step.pairs[k].b;
                keys[k] = (uint64_t)(a < b ? a : b) << 32 | (uint64_t)(a < b ? b : a);
            }
            qsort(keys, (size_t)n, sizeof keys[0], key_cmp);
            for (int k = 1; k < n; ++k) {
                if (keys[k] == keys[k - 1]) {
                    fail_msg("%d workers, step %d: the pair (%d, %d) is listed twice", workers, s,
                             (int)(keys[k] >> 32), (int)(keys[k] & 0xffffffffu));
                }
            }
            with_far += w->step.far_key_count > 0;
        }
        assert_true(with_far > 0);
        ledge_world_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_lookups_match_brute_force),
        cmocka_unit_test(test_far_pairs_listed_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
