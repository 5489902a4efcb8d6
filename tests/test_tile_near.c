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
#include "order.h"
#include "rng.h"
#include "tilemap.h"
#include "contacts.h"
#include "par.h"
#include "slots.h"
#include "world_state.h"

#include <float.h>
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
        // (A step that ordered the slots by space at its end, order_clock
        // back at 0, left its scratch in the old order.)
        if (want == 1 && w->order->clock != 0) assert_true(w->step.tile_listed[i]);
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
        wd.friction_law = LEDGE_FRICTION_COULOMB;
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
            with_far += w->broad->far_key_count > 0;
        }
        assert_true(with_far > 0);
        ledge_world_destroy(w);
    }
}

// The cells a shape's tile scan visits (ledge__tilemap_scan_range, which
// the step asks for every body near tiles in every pass) from their
// definition: the shape's bounds at pos grown by 2^-18 of their size plus a
// tile, in float as defined, then floor in double and the clamps to the
// map and its one-cell ring in long long. The library computes the four
// bounds side by side in SSE registers on x86-64; they must be these cells
// exactly, for any map, shape and position: cell boundaries hit exactly
// and by an ulp, far outside, huge, infinite and NaN. And (in double,
// independently) every cell the shape's bounds touch is in the range.
static void scan_oracle(const ledge_tilemap *m, const ledge_shape *s, vec2s pos, int r[4]) {
    float b[4] = {s->bounds.lower.x + pos.x, s->bounds.lower.y + pos.y, s->bounds.upper.x + pos.x,
                  s->bounds.upper.y + pos.y};
    float origin[2] = {m->origin.x, m->origin.y};
    long long limit[4] = {-1, -1, m->width, m->height};
    for (int i = 0; i < 4; ++i) {
        float g = (fabsf(b[i]) + m->tile_size) * (1.0f / 262144.0f);
        float edge = i < 2 ? b[i] - g : b[i] + g;
        double c = floor((double)((edge - origin[i & 1]) * m->inv_tile_size));
        long long k = !(c >= -2e9) ? -2000000000LL : c > 2e9 ? 2000000000LL : (long long)c;
        r[i] = (int)(i < 2 ? (k > limit[i] ? k : limit[i]) : (k < limit[i] ? k : limit[i]));
    }
}

// A position whose shape's bound `side` (0 lower x, 1 lower y, 2 upper x,
// 3 upper y) lies on a cell boundary, or an ulp or a few beside it.
static float on_boundary(const ledge_tilemap *m, const ledge_shape *s, int side) {
    int axis = side & 1;
    float o = axis ? m->origin.y : m->origin.x;
    float bound = side < 2 ? (axis ? s->bounds.lower.y : s->bounds.lower.x)
                           : (axis ? s->bounds.upper.y : s->bounds.upper.x);
    float p = o + (float)rng_int(-3, (axis ? m->height : m->width) + 3) * m->tile_size - bound;
    for (int k = rng_int(-3, 3); k != 0; k += k > 0 ? -1 : 1)
        p = nextafterf(p, k > 0 ? INFINITY : -INFINITY);
    return p;
}

static void test_scan_range_exact(void **state) {
    (void)state;
    g_rng = 0x5CA7;
    const float sizes[] = {1.0f, 0.5f, 16.0f, 0.37f, 3.3f, 32.0f};
    const float odd[] = {1e6f,   -1e6f,   3e9f,     -3e9f,     1e30f,
                         -1e30f, FLT_MAX, INFINITY, -INFINITY, NAN};
    int cases = 0, outside = 0, clamped = 0, special = 0;
    for (int round = 0; round < 200; ++round) {
        ledge_tilemap_def d = ledge_default_tilemap_def();
        d.width = rng_int(1, 60);
        d.height = rng_int(1, 60);
        d.tile_size = sizes[rng_int(0, 5)];
        d.origin = round % 4 == 0 ? v(0.0f, 0.0f) : v(rng_range(-1e4, 1e4), rng_range(-1e4, 1e4));
        ledge_tilemap *map = ledge_tilemap_create(&d);
        assert_non_null(map);
        for (int q = 0; q < 200; ++q) {
            float r = rng_range(0.01, 3.0) * d.tile_size;
            ledge_shape s;
            int kind = rng_int(0, 2);
            if (kind == 0) {
                s = ledge_make_circle(v(rng_range(-0.5, 0.5) * r, rng_range(-0.5, 0.5) * r), r);
            } else if (kind == 1) {
                s = ledge_make_box(v(rng_range(-0.5, 0.5) * r, 0.0f),
                                   v(r, rng_range(0.2, 2.0) * r));
            } else {
                vec2s tri[3] = {v(-r, -r), v(r, rng_range(-1.0, 0.0) * r), v(0.0f, r)};
                assert_true(ledge_make_polygon(tri, 3, &s));
            }
            vec2s pos = v(d.origin.x + rng_range(-4.0, d.width + 4.0) * d.tile_size,
                          d.origin.y + rng_range(-4.0, d.height + 4.0) * d.tile_size);
            int how = rng_int(0, 9);
            if (how < 4) {
                int side = rng_int(0, 3);
                if (side & 1) {
                    pos.y = on_boundary(map, &s, side);
                } else {
                    pos.x = on_boundary(map, &s, side);
                }
            } else if (how == 4) {
                float f = odd[rng_int(0, 9)];
                if (rng_unit() < 0.5) {
                    pos.x = f;
                } else {
                    pos.y = f;
                }
                special++;
            }
            int got[4], want[4];
            ledge__tilemap_scan_range(map, &s, pos, &got[0], &got[1], &got[2], &got[3]);
            scan_oracle(map, &s, pos, want);
            for (int i = 0; i < 4; ++i) {
                if (got[i] != want[i]) {
                    fail_msg("scan range %d: %d, want %d (pos %.9g %.9g, map %dx%d size %g origin "
                             "%.9g %.9g)",
                             i, got[i], want[i], (double)pos.x, (double)pos.y, d.width, d.height,
                             (double)d.tile_size, (double)d.origin.x, (double)d.origin.y);
                }
            }
            clamped += got[0] == -1 || got[1] == -1 || got[2] == d.width || got[3] == d.height;
            // Every cell the bounds touch (in double), within the clamped range.
            double lx = ((double)pos.x + s.bounds.lower.x - d.origin.x) / d.tile_size;
            double ly = ((double)pos.y + s.bounds.lower.y - d.origin.y) / d.tile_size;
            double ux = ((double)pos.x + s.bounds.upper.x - d.origin.x) / d.tile_size;
            double uy = ((double)pos.y + s.bounds.upper.y - d.origin.y) / d.tile_size;
            if (isfinite(lx) && isfinite(ly) && isfinite(ux) && isfinite(uy) && fabs(lx) < 1e6 &&
                fabs(ly) < 1e6) {
                double cx0 = fmax(floor(lx), -1.0), cy0 = fmax(floor(ly), -1.0);
                double cx1 = fmin(ceil(ux) - 1.0, d.width), cy1 = fmin(ceil(uy) - 1.0, d.height);
                if (cx0 <= cx1 && cy0 <= cy1) {
                    assert_true(got[0] <= cx0 && got[1] <= cy0 && got[2] >= cx1 && got[3] >= cy1);
                } else {
                    outside++;
                }
            }
            cases++;
        }
        ledge_tilemap_destroy(map);
    }
    print_message("scan range: %d cases (%d special values, %d clamped to the ring, %d outside)\n",
                  cases, special, clamped, outside);
    assert_true(cases == 40000 && special > 3000 && clamped > 5000);
}

// The map's store of each cell's blocked sides (tilemap.h, `blocked`: read
// by every tile collision, brought up to date before each step) against
// the sides computed afresh, on seeded random maps edited at random (tiles
// of all 34 ids and one-way settings, set and reset): after every edit the
// answer for every cell of the map, its ring and two cells beyond it, the
// store behind or not; and after each refresh (every 1 to 80 edits, so
// both the refresh of the cells around each edit and the whole one, after
// more edits than the map remembers) the store itself, every cell.
static void test_blocked_store_follows_edits(void **state) {
    (void)state;
    g_rng = 0xB10C;
    int edits = 0, checked = 0, refreshes = 0, whole = 0, seen_open = 0;
    for (int round = 0; round < 80; ++round) {
        ledge_tilemap_def d = ledge_default_tilemap_def();
        d.width = rng_int(1, 12);
        d.height = rng_int(1, 9);
        ledge_tilemap *map = ledge_tilemap_create(&d);
        assert_non_null(map);
        int next_refresh = rng_int(1, 80), since = 0;
        for (int e = 0; e < 200; ++e) {
            int x = rng_int(0, d.width - 1), y = rng_int(0, d.height - 1);
            if (rng_unit() < 0.8) {
                assert_true(
                    ledge_tilemap_set(map, x, y, (ledge_tile)rng_int(0, LEDGE_TILE_COUNT - 1)));
            } else {
                assert_true(ledge_tilemap_set_one_way(map, x, y, (ledge_one_way)rng_int(0, 4)));
            }
            edits++;
            since++;
            bool refresh = since == next_refresh;
            if (refresh) {
                whole += since > LEDGE__EDITS_KEPT;
                ledge__tilemap_refresh_blocked(map);
                refreshes++;
                since = 0;
                next_refresh = rng_int(1, 80);
            }
            for (int cy = -3; cy <= d.height + 2; ++cy) {
                for (int cx = -3; cx <= d.width + 2; ++cx) {
                    unsigned want = ledge__tilemap_blocked_afresh(map, cx, cy);
                    unsigned got = ledge__tilemap_blocked(map, cx, cy);
                    bool ring = cx >= -1 && cy >= -1 && cx <= d.width && cy <= d.height;
                    if (refresh && ring) {
                        got = map->blocked[(size_t)(cy + 1) * (size_t)(d.width + 2) +
                                           (size_t)(cx + 1)];
                    }
                    if (got != want) {
                        fail_msg("cell (%d, %d) of a %d x %d map after edit %d at (%d, %d)%s: "
                                 "0x%x, afresh 0x%x",
                                 cx, cy, d.width, d.height, e, x, y,
                                 refresh ? " and a refresh" : "", got, want);
                    }
                    seen_open += want != 15u;
                    checked++;
                }
            }
        }
        ledge_tilemap_destroy(map);
    }
    print_message("blocked sides: %d edits, %d refreshes (%d whole), %d cells checked (%d not "
                  "blocked all round)\n",
                  edits, refreshes, whole, checked, seen_open);
    assert_true(edits == 16000 && refreshes > 300 && whole > 20 && whole < refreshes / 2 &&
                seen_open > checked / 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_lookups_match_brute_force),
        cmocka_unit_test(test_far_pairs_listed_once),
        cmocka_unit_test(test_scan_range_exact),
        cmocka_unit_test(test_blocked_store_follows_edits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
