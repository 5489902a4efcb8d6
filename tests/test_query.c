// World queries (query.h) against brute force: random worlds with tiles of
// all 34 ids and random circles, boxes and polygons of every body type and
// random filters; every query's answer is compared with a loop over all
// bodies and tiles written here, also after steps, teleports and destroys
// (the queries' grid must follow). Shape casts against tiles are checked by
// sampling the path, independently of the per-tile sweep.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"
#include "random_shapes.h"
#include "contacts.h" // the stepping flag, for the refusal test
#include "par.h"
#include "query_index.h"
#include "slots.h"
#include "world_state.h"

#include <stdio.h>
#include <stdlib.h>

enum { MAX_BODIES = 96 };

typedef struct rworld {
    ledge_world *w;
    ledge_body_id ids[MAX_BODIES];
    int count;
    int width, height;
    float ts;
    vec2s origin;
} rworld;

static ledge_shape small_shape(int kind) {
    if (kind == KIND_POLYGON) return random_polygon(); // up to 3 wide: some exceed a cell
    vec2s c = rng_vec(-0.3, 0.3);
    if (kind == KIND_CIRCLE) return ledge_make_circle(c, rng_range(0.1, 1.0));
    return ledge_make_box(c, rng_box(0.1, 0.9, 0.1, 0.9));
}

static void add_random_body(rworld *r) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = (ledge_body_type)rng_int(0, 2);
    bd.shape = small_shape(rng_int(0, KIND_COUNT - 1));
    float x = rng_range(0, r->width * r->ts), y = rng_range(0, r->height * r->ts);
    bd.position = v(r->origin.x + x, r->origin.y + y);
    bd.velocity = rng_vec(-3, 3);
    bd.bullet = rng_unit() < 0.1;
    bd.filter.category = 1u << rng_int(0, 3);
    bd.filter.mask = rng_next() | 1u;
    r->ids[r->count] = ledge_body_create(r->w, &bd);
    assert_true(ledge_body_is_valid(r->w, r->ids[r->count]));
    r->count++;
}

static void make_world(rworld *r) {
    memset(r, 0, sizeof *r);
    ledge_world_def wd = ledge_default_world_def();
    r->width = wd.map_width = rng_int(4, 20);
    r->height = wd.map_height = rng_int(4, 16);
    r->ts = wd.tile_size = (rng_next() & 1) ? 1.0f : 0.5f;
    r->origin = wd.map_origin = rng_vec(-5, 5);
    r->w = ledge_world_create(&wd);
    assert_non_null(r->w);
    ledge_tilemap *map = ledge_world_tilemap(r->w);
    for (int y = 0; y < r->height; ++y) {
        for (int x = 0; x < r->width; ++x) {
            if (rng_unit() < 0.3)
                assert_true(ledge_tilemap_set(map, x, y, (ledge_tile)rng_int(1, 33)));
        }
    }
    int n = rng_int(0, MAX_BODIES);
    for (int k = 0; k < n; ++k) add_random_body(r);
}

// Random changes between queries: steps, teleports, destroys, creates.
static void churn(rworld *r) {
    int what = rng_int(0, 4);
    if (what == 0) {
        int steps = rng_int(1, 3);
        for (int k = 0; k < steps; ++k) ledge_world_step(r->w, 1.0f / 60.0f);
    } else if (what == 1 && r->count > 0) {
        int k = rng_int(0, r->count - 1);
        vec2s p = v(r->origin.x + rng_range(0, r->width * r->ts),
                    r->origin.y + rng_range(0, r->height * r->ts));
        assert_true(ledge_body_set_position(r->w, r->ids[k], p));
    } else if (what == 2 && r->count > 0) {
        int k = rng_int(0, r->count - 1);
        ledge_body_destroy(r->w, r->ids[k]);
        r->ids[k] = r->ids[--r->count];
    } else if (what == 3 && r->count < MAX_BODIES) {
        add_random_body(r);
    } else if (r->count > 0) { // the mover refiles its body too
        int k = rng_int(0, r->count - 1);
        ledge_move_result mr;
        assert_true(ledge_body_move(r->w, r->ids[k], rng_vec(-2, 2), NULL, &mr));
    }
}

static ledge_query_filter random_filter(const rworld *r) {
    ledge_query_filter f = ledge_default_query_filter();
    if (rng_unit() < 0.5) {
        f.category = 1u << rng_int(0, 3);
        f.mask = rng_next();
    }
    f.include_tiles = rng_unit() < 0.8;
    if (r->count > 0 && rng_unit() < 0.3) f.ignore = r->ids[rng_int(0, r->count - 1)];
    return f;
}

// --- the brute-force oracles -------------------------------------------------

static bool oracle_sees(const rworld *r, const ledge_query_filter *f, ledge_body_id id) {
    if (f->ignore.index1 == id.index1 && f->ignore.generation == id.generation) return false;
    ledge_filter bf = ledge_body_filter(r->w, id);
    return (f->category & bf.mask) && (bf.category & f->mask);
}

// The living ids in increasing index order.
static int sorted_ids(const rworld *r, ledge_body_id *out) {
    int n = 0;
    for (int k = 0; k < r->count; ++k) out[n++] = r->ids[k];
    for (int i = 1; i < n; ++i) {
        for (int j = i; j > 0 && out[j].index1 < out[j - 1].index1; --j) {
            ledge_body_id t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    }
    return n;
}

typedef struct recorder {
    ledge_body_id ids[MAX_BODIES + 1];
    ledge_raycast_result hits[MAX_BODIES + 2];
    int n;
    int stop_after; ///< Return false/0 after this many (-1: never).
    float clip_at;  ///< raycast_all: clip to this hit's fraction (index), -1 never.
} recorder;

static bool record_body(ledge_body_id id, void *ctx) {
    recorder *rec = ctx;
    rec->ids[rec->n++] = id;
    return rec->stop_after < 0 || rec->n < rec->stop_after;
}

static bool same_id(ledge_body_id a, ledge_body_id b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
}

static void check_aabb_query(const rworld *r, ledge_aabb box, const ledge_query_filter *f) {
    ledge_body_id all[MAX_BODIES], want[MAX_BODIES];
    int n = sorted_ids(r, all), m = 0;
    for (int k = 0; k < n; ++k) {
        ledge_aabb b =
            ledge_shape_aabb(ledge_body_shape(r->w, all[k]), ledge_body_position(r->w, all[k]));
        bool hit = b.lower.x <= box.upper.x && b.upper.x >= box.lower.x &&
                   b.lower.y <= box.upper.y && b.upper.y >= box.lower.y;
        if (hit && oracle_sees(r, f, all[k])) want[m++] = all[k];
    }
    recorder rec = {.n = 0, .stop_after = -1};
    assert_int_equal(ledge_world_query_aabb(r->w, box, f, record_body, &rec), m);
    assert_int_equal(rec.n, m);
    for (int k = 0; k < m; ++k) assert_true(same_id(rec.ids[k], want[k]));
    ledge_body_id ids[MAX_BODIES];
    assert_int_equal(ledge_world_query_aabb_ids(r->w, &box, f, ids, MAX_BODIES), m);
    for (int k = 0; k < m; ++k) assert_true(same_id(ids[k], want[k]));
    assert_int_equal(ledge_world_query_aabb_ids(r->w, &box, f, NULL, 0), m); // count only
    if (m >= 2) { // stopping early delivers a prefix
        recorder early = {.n = 0, .stop_after = 2};
        assert_int_equal(ledge_world_query_aabb(r->w, box, f, record_body, &early), 2);
        assert_true(same_id(early.ids[1], want[1]));
    }
}

static void check_point_query(const rworld *r, vec2s p, const ledge_query_filter *f) {
    ledge_body_id all[MAX_BODIES], want[MAX_BODIES];
    int n = sorted_ids(r, all), m = 0;
    for (int k = 0; k < n; ++k) {
        if (ledge_shape_contains(ledge_body_shape(r->w, all[k]), ledge_body_position(r->w, all[k]),
                                 p) &&
            oracle_sees(r, f, all[k])) {
            want[m++] = all[k];
        }
    }
    recorder rec = {.n = 0, .stop_after = -1};
    assert_int_equal(ledge_world_query_point(r->w, p, f, record_body, &rec), m);
    for (int k = 0; k < m; ++k) assert_true(same_id(rec.ids[k], want[k]));
    ledge_body_id ids[MAX_BODIES];
    assert_int_equal(ledge_world_query_point_ids(r->w, &p, f, ids, MAX_BODIES), m);
    for (int k = 0; k < m; ++k) assert_true(same_id(ids[k], want[k]));
}

// Every hit of a ray by brute force, sorted by (fraction, tile first, index).
static int oracle_ray_hits(const rworld *r, vec2s o, vec2s d, const ledge_query_filter *f,
                           ledge_raycast_result *out) {
    int n = 0;
    ledge_ray_hit h;
    if (f->include_tiles && ledge_tilemap_raycast(ledge_world_tilemap(r->w), o, d, &h)) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].kind = LEDGE_HIT_TILE;
        out[n].cell_x = h.cell_x;
        out[n].cell_y = h.cell_y;
        out[n].tile = (ledge_tile)h.tile;
        out[n].point = h.point;
        out[n].normal = h.normal;
        out[n++].fraction = h.fraction;
    }
    ledge_body_id all[MAX_BODIES];
    int c = sorted_ids(r, all);
    for (int k = 0; k < c; ++k) {
        if (!oracle_sees(r, f, all[k])) continue;
        if (!ledge_shape_raycast(ledge_body_shape(r->w, all[k]), ledge_body_position(r->w, all[k]),
                                 o, d, &h))
            continue;
        memset(&out[n], 0, sizeof out[n]);
        out[n].kind = LEDGE_HIT_BODY;
        out[n].body = all[k];
        out[n].point = h.point;
        out[n].normal = h.normal;
        out[n++].fraction = h.fraction;
    }
    // Stable insertion sort by fraction: equal fractions keep tile-then-index.
    for (int i = 1; i < n; ++i) {
        for (int j = i; j > 0 && out[j].fraction < out[j - 1].fraction; --j) {
            ledge_raycast_result t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    }
    return n;
}

static void assert_same_hit(const ledge_raycast_result *a, const ledge_raycast_result *b) {
    assert_int_equal(a->kind, b->kind);
    assert_true(same_id(a->body, b->body));
    assert_int_equal(a->cell_x, b->cell_x);
    assert_int_equal(a->cell_y, b->cell_y);
    assert_int_equal(a->tile, b->tile);
    assert_true(a->fraction == b->fraction);
    assert_true(a->point.x == b->point.x && a->point.y == b->point.y);
    assert_true(a->normal.x == b->normal.x && a->normal.y == b->normal.y);
}

static float record_hit(const ledge_raycast_result *hit, void *ctx) {
    recorder *rec = ctx;
    rec->hits[rec->n++] = *hit;
    if (rec->stop_after >= 0 && rec->n >= rec->stop_after) return 0.0f;
    if (rec->clip_at >= 0.0f && rec->n == (int)rec->clip_at) return hit->fraction;
    return 1.0f;
}

static void check_rays(const rworld *r, vec2s o, vec2s d, const ledge_query_filter *f) {
    ledge_raycast_result want[MAX_BODIES + 2], got;
    int n = oracle_ray_hits(r, o, d, f, want);
    bool hit = ledge_world_raycast(r->w, o, d, f, &got);
    assert_int_equal(hit, n > 0);
    if (n > 0)
        assert_same_hit(&got, &want[0]);
    else
        assert_int_equal(got.kind, LEDGE_HIT_NONE);
    recorder rec = {.n = 0, .stop_after = -1, .clip_at = -1.0f};
    assert_int_equal(ledge_world_raycast_all(r->w, o, d, f, record_hit, &rec), n);
    assert_int_equal(rec.n, n);
    for (int k = 0; k < n; ++k) assert_same_hit(&rec.hits[k], &want[k]);
    if (n >= 2) {
        // Clipping at the first hit drops every later hit beyond it.
        // (A first hit at fraction 0 returns 0, which stops.)
        int keep = 1;
        while (want[0].fraction > 0.0f && keep < n && want[keep].fraction <= want[0].fraction)
            ++keep;
        recorder clip = {.n = 0, .stop_after = -1, .clip_at = 1.0f};
        assert_int_equal(ledge_world_raycast_all(r->w, o, d, f, record_hit, &clip), keep);
        recorder stop = {.n = 0, .stop_after = 2, .clip_at = -1.0f};
        assert_int_equal(ledge_world_raycast_all(r->w, o, d, f, record_hit, &stop), 2);
    }
}

static void test_queries_match_brute_force(void **state) {
    (void)state;
    g_rng = 0x5eed0001;
    int rays = 0, aabbs = 0, points = 0, worlds = 120;
    for (int wi = 0; wi < worlds; ++wi) {
        rworld r;
        make_world(&r);
        float W = r.width * r.ts, H = r.height * r.ts;
        for (int q = 0; q < 40; ++q) {
            if (rng_unit() < 0.3) churn(&r);
            ledge_query_filter f = random_filter(&r);
            const ledge_query_filter *fp = rng_unit() < 0.1 ? NULL : &f;
            if (fp == NULL) f = ledge_default_query_filter();
            vec2s o = v(r.origin.x + rng_range(-1, W + 1), r.origin.y + rng_range(-1, H + 1));
            vec2s d = rng_unit() < 0.1 ? v(0, 0) : rng_vec(-W, W);
            if (rng_unit() < 0.2 && r.count > 0) { // start inside a body
                o = ledge_body_position(r.w, r.ids[rng_int(0, r.count - 1)]);
            }
            check_rays(&r, o, d, &f);
            ++rays;
            vec2s c = v(r.origin.x + rng_range(-1, W + 1), r.origin.y + rng_range(-1, H + 1));
            vec2s h = rng_vec(0, 3);
            ledge_aabb box = {v(c.x - h.x, c.y - h.y), v(c.x + h.x, c.y + h.y)};
            check_aabb_query(&r, box, &f);
            ++aabbs;
            check_point_query(&r, c, &f);
            ++points;
        }
        ledge_world_destroy(r.w);
    }
    print_message("%d rays, %d AABB and %d point queries matched brute force\n", rays, aabbs,
                  points);
}

// --- shape casts ------------------------------------------------------------

static float tile_depth(const rworld *r, const ledge_shape *s, vec2s pos) {
    ledge_aabb b = ledge_shape_aabb(s, pos);
    ledge_tilemap *map = ledge_world_tilemap(r->w);
    int x0 = (int)floorf((b.lower.x - r->origin.x) / r->ts),
        x1 = (int)floorf((b.upper.x - r->origin.x) / r->ts);
    int y0 = (int)floorf((b.lower.y - r->origin.y) / r->ts),
        y1 = (int)floorf((b.upper.y - r->origin.y) / r->ts);
    float depth = 0.0f;
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            ledge_tile t = ledge_tilemap_get(map, x, y);
            if (t == LEDGE_TILE_EMPTY) continue;
            vec2s cmin = v(r->origin.x + x * r->ts, r->origin.y + y * r->ts);
            ledge_manifold m = ledge_collide_tile(t, cmin, r->ts, 0, s, pos);
            if (m.hit && m.depth > depth) depth = m.depth;
        }
    }
    return depth;
}

// The exact first impact among the bodies by brute force (ledge_sweep).
static bool oracle_body_cast(const rworld *r, const ledge_shape *s, vec2s p, vec2s d,
                             const ledge_query_filter *f, float *t, ledge_body_id *who) {
    ledge_body_id all[MAX_BODIES];
    int n = sorted_ids(r, all);
    bool any = false;
    for (int k = 0; k < n; ++k) {
        if (!oracle_sees(r, f, all[k])) continue;
        ledge_toi toi;
        if (!ledge_sweep(ledge_body_shape(r->w, all[k]), ledge_body_position(r->w, all[k]), v(0, 0),
                         s, p, d, &toi))
            continue;
        if (!any || toi.fraction < *t) {
            *t = toi.fraction;
            *who = all[k];
            any = true;
        }
    }
    return any;
}

static void check_shape_cast(const rworld *r, const ledge_shape *s, vec2s p, vec2s d,
                             const ledge_query_filter *f) {
    ledge_raycast_result got;
    bool hit = ledge_world_shape_cast(r->w, s, p, d, f, &got);
    float bt = 2.0f;
    ledge_body_id who = LEDGE_NULL_BODY_ID;
    bool body = oracle_body_cast(r, s, p, d, f, &bt, &who);
    if (body) assert_true(hit && got.fraction <= bt);
    if (hit && got.kind == LEDGE_HIT_BODY) {
        assert_true(got.fraction == bt);
        assert_true(same_id(got.body, who));
    }
    if (!f->include_tiles) {
        assert_int_equal(hit, body);
        return;
    }
    // Tiles, by sampling the path: free before the reported fraction (to the
    // tolerance), and touching the reported tile there.
    float len = sqrtf(d.x * d.x + d.y * d.y);
    float tol = LEDGE_SHAPE_CAST_TOLERANCE * r->ts;
    float end = hit ? got.fraction : 1.0f;
    float slack = len > 0.0f ? (2.0f * tol + 1e-4f) / len : 1.0f;
    int samples = len > 0.0f ? (int)ceilf(len / (0.02f * r->ts)) : 1;
    for (int k = 0; k <= samples; ++k) {
        float t = end * (float)k / (float)samples;
        if (hit && t > end - slack) break;
        assert_true(tile_depth(r, s, v(p.x + d.x * t, p.y + d.y * t)) <= 2e-3f);
    }
    if (hit && got.kind == LEDGE_HIT_TILE) {
        assert_true(got.fraction <= bt);
        float n = sqrtf(got.normal.x * got.normal.x + got.normal.y * got.normal.y);
        assert_true(fabsf(n - 1.0f) < 1e-3f);
        // Pushed a little against the normal from there, the shape overlaps.
        float push = 2.0f * tol + 2e-3f;
        vec2s q = v(p.x + d.x * got.fraction - got.normal.x * push,
                    p.y + d.y * got.fraction - got.normal.y * push);
        assert_true(tile_depth(r, s, q) > 0.0f ||
                    (got.fraction == 0.0f && tile_depth(r, s, p) > 0.0f));
    }
}

static void test_shape_cast_matches_sampling(void **state) {
    (void)state;
    g_rng = 0x5eed0002;
    int casts = 0, tile_hits = 0, body_hits = 0;
    for (int wi = 0; wi < 60; ++wi) {
        rworld r;
        make_world(&r);
        float W = r.width * r.ts, H = r.height * r.ts;
        for (int q = 0; q < 25; ++q) {
            if (rng_unit() < 0.3) churn(&r);
            ledge_query_filter f = random_filter(&r);
            ledge_shape s = small_shape(rng_int(0, KIND_POLYGON - 1));
            if (rng_unit() < 0.2) s = random_polygon();
            vec2s p = v(r.origin.x + rng_range(0.5, W - 0.5), r.origin.y + rng_range(0.5, H - 0.5));
            vec2s d = rng_unit() < 0.05 ? v(0, 0) : rng_vec(-4, 4);
            check_shape_cast(&r, &s, p, d, &f);
            ledge_raycast_result res;
            if (ledge_world_shape_cast(r.w, &s, p, d, &f, &res)) {
                tile_hits += res.kind == LEDGE_HIT_TILE;
                body_hits += res.kind == LEDGE_HIT_BODY;
            }
            ++casts;
        }
        ledge_world_destroy(r.w);
    }
    print_message("%d shape casts (%d tile hits, %d body hits) checked\n", casts, tile_hits,
                  body_hits);
    assert_true(tile_hits > casts / 5);
    assert_true(body_hits > casts / 20);
}

// A box dropped onto a FULL floor stops on it exactly (straight tiles are
// swept exactly), a circle rolled into a CONVEX tile stops within the
// tolerance of the arc.
static void test_shape_cast_known_answers(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 8;
    wd.map_height = 8;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 8; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    ledge_tilemap_set(map, 5, 1, LEDGE_TILE_CONVEX_PP); // quarter disc centred (5, 1), radius 1
    ledge_shape box = ledge_make_box(v(0, 0), v(0.25f, 0.25f));
    ledge_raycast_result r;
    assert_true(ledge_world_shape_cast(w, &box, v(2, 4), v(0, -4), NULL, &r));
    assert_int_equal(r.kind, LEDGE_HIT_TILE);
    assert_int_equal(r.cell_y, 0);
    assert_float_equal(r.fraction, (4.0f - 1.25f) / 4.0f, 1e-6);
    assert_float_equal(r.normal.y, 1.0f, 1e-6);
    ledge_shape ball = ledge_make_circle(v(0, 0), 0.5f);
    // Moving left along y = 1.6 toward the arc around (5, 1): touches where
    // |c - (5, 1)| = 1.5, i.e. c.x = 5 + sqrt(1.5^2 - 0.6^2). The shape at
    // the reported fraction is free, within the tolerance of the contact.
    assert_true(ledge_world_shape_cast(w, &ball, v(7.4f, 1.6f), v(-6, 0), NULL, &r));
    assert_int_equal(r.kind, LEDGE_HIT_TILE);
    assert_int_equal(r.tile, LEDGE_TILE_CONVEX_PP);
    float x = 7.4f - 6.0f * r.fraction, want = 5.0f + sqrtf(1.5f * 1.5f - 0.36f);
    assert_true(x >= want - 1e-5f && x <= want + 2.0f * LEDGE_SHAPE_CAST_TOLERANCE);
    assert_float_equal(r.normal.x, (want - 5.0f) / 1.5f, 1e-2);
    // From the left it meets the quarter disc's flat side x = 5 exactly.
    assert_true(ledge_world_shape_cast(w, &ball, v(1, 1.6f), v(6, 0), NULL, &r));
    assert_float_equal(1.0f + 6.0f * r.fraction, 4.5f, 1e-5);
    assert_true(r.normal.x == -1.0f);
    // Starting in the floor: fraction 0. Beyond the map's edge: fraction 0.
    assert_true(ledge_world_shape_cast(w, &box, v(2, 1.1f), v(1, 0), NULL, &r));
    assert_true(r.fraction == 0.0f);
    assert_true(ledge_world_shape_cast(w, &box, v(7.9f, 4), v(-1, 0), NULL, &r));
    assert_true(r.fraction == 0.0f && r.normal.x == -1.0f && r.tile == LEDGE_TILE_FULL);
    ledge_world_destroy(w);
}

// --- stale grid, refusals, the wall probe ------------------------------------

static bool count_body(ledge_body_id id, void *ctx) {
    (void)id;
    ++*(int *)ctx;
    return true;
}

static void test_queries_follow_moves(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.5f);
    bd.position = v(10, 30);
    ledge_body_id a = ledge_body_create(w, &bd);
    int n = 0;
    assert_int_equal(ledge_world_query_point(w, v(10, 30), NULL, count_body, &n), 1);
    for (int k = 0; k < 30; ++k) ledge_world_step(w, 1.0f / 60.0f); // falls ~1.3
    n = 0;
    assert_int_equal(ledge_world_query_point(w, v(10, 30), NULL, count_body, &n), 0);
    vec2s p = ledge_body_position(w, a);
    assert_int_equal(ledge_world_query_point(w, p, NULL, count_body, &n), 1);
    assert_true(ledge_body_set_position(w, a, v(40, 40)));
    assert_int_equal(ledge_world_query_point(w, p, NULL, count_body, &n), 0);
    assert_int_equal(ledge_world_query_point(w, v(40, 40), NULL, count_body, &n), 1);
    ledge_body_destroy(w, a);
    assert_int_equal(ledge_world_query_point(w, v(40, 40), NULL, count_body, &n), 0);
    ledge_body_id b = ledge_body_create(w, &bd);
    assert_int_equal(ledge_world_query_point(w, v(10, 30), NULL, count_body, &n), 1);
    // The ignored body is not seen; a stale ignore id is refused.
    ledge_query_filter f = ledge_default_query_filter();
    f.ignore = b;
    assert_int_equal(ledge_world_query_point(w, v(10, 30), &f, count_body, &n), 0);
    log_capture_start();
    f.ignore = a;
    assert_int_equal(ledge_world_query_point(w, v(10, 30), &f, count_body, &n), -1);
    assert_true(log_capture_says("ledge_world_query_point", "filter->ignore"));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// --- the incremental index -------------------------------------------------

enum { CROWD = 60, CROWD_BOXES = 40, CROWD_FRAMES = 600 };

typedef struct crowd {
    ledge_world *w;
    ledge_body_id chars[CROWD];
    vec2s vel[CROWD];
    bool ground[CROWD];
} crowd;

// A level with floors, slopes, a shelf, crates falling on it and characters
// walking and jumping among them.
static void crowd_make(crowd *c) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, -20);
    wd.map_width = 64;
    wd.map_height = 24;
    c->w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(c->w);
    for (int x = 0; x < 64; ++x) {
        ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
        if (x % 9 == 3) ledge_tilemap_set(map, x, 1, LEDGE_TILE_45DEG_NP);
        if (x % 9 == 4) ledge_tilemap_set(map, x, 1, LEDGE_TILE_FULL);
        if (x % 9 == 5) ledge_tilemap_set(map, x, 1, LEDGE_TILE_45DEG_PP);
        if (x > 20 && x < 40) ledge_tilemap_set(map, x, 6, LEDGE_TILE_HALF_U);
    }
    g_rng = 0xc0ffee;
    for (int k = 0; k < CROWD; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_KINEMATIC;
        bd.shape = ledge_make_box(v(0, 0), v(0.3, 0.45));
        bd.position = v(1.5 + k, k % 2 ? 3.0 : 8.0);
        c->chars[k] = ledge_body_create(c->w, &bd);
        c->vel[k] = v(k % 3 == 0 ? -4 : 4, 0);
        c->ground[k] = false;
    }
    for (int k = 0; k < CROWD_BOXES; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box(v(0, 0), v(0.25, 0.25));
        bd.position = v(rng_range(2, 62), rng_range(4, 20));
        ledge_body_create(c->w, &bd);
    }
}

// One frame: each character moves, then casts a ray ahead (a wall probe);
// `rebuild` marks the index stale before each call, so that every query
// and move rebuilds it from all the bodies.
static uint64_t crowd_frame(crowd *c, int frame, bool rebuild) {
    const float dt = 1.0f / 60.0f;
    uint64_t h = 1469598103934665603ull;
    for (int k = 0; k < CROWD; ++k) {
        vec2s *vel = &c->vel[k];
        vel->y -= 20.0f * dt;
        if (c->ground[k] && (frame + k) % 50 == 0) vel->y = 8.0f;
        if ((frame + 3 * k) % 240 == 0) vel->x = -vel->x;
        if (rebuild) ledge__query_forget(c->w, LEDGE__STALE_SLOTS);
        ledge_move_result r;
        assert_true(ledge_body_move(c->w, c->chars[k], v(vel->x * dt, vel->y * dt), NULL, &r));
        *vel = ledge_move_clip_velocity(&r, *vel);
        c->ground[k] = r.on_ground;
        if (rebuild) ledge__query_forget(c->w, LEDGE__STALE_SLOTS);
        ledge_raycast_result ray;
        ledge_query_filter f = ledge_default_query_filter();
        f.ignore = c->chars[k];
        ledge_world_raycast(c->w, r.position, v(vel->x > 0 ? 2 : -2, -0.2), &f, &ray);
        uint32_t bits[4];
        memcpy(bits, &r.position, 8);
        memcpy(bits + 2, &ray.fraction, 4);
        bits[3] = ray.body.index1 * 3u + (uint32_t)ray.kind;
        for (int b = 0; b < 4; ++b) h = (h ^ bits[b]) * 1099511628211ull;
    }
    if (rebuild) ledge__query_forget(c->w, LEDGE__STALE_SLOTS);
    ledge_world_step(c->w, dt);
    return h;
}

// The crowd scenario with the index kept up to date body by body gives the
// same bits, frame by frame, as with the index rebuilt before every call.
static void test_incremental_index_equals_rebuild(void **state) {
    (void)state;
    crowd a, b;
    crowd_make(&a);
    crowd_make(&b);
    int grounded = 0;
    for (int f = 0; f < CROWD_FRAMES; ++f) {
        uint64_t ha = crowd_frame(&a, f, false), hb = crowd_frame(&b, f, true);
        assert_true(ha == hb);
        assert_true(ledge_world_hash(a.w) == ledge_world_hash(b.w));
        for (int k = 0; k < CROWD; ++k) grounded += a.ground[k];
    }
    // The scenario does something: characters stand, jump and walk.
    assert_true(grounded > CROWD * CROWD_FRAMES / 5 && grounded < CROWD * CROWD_FRAMES);
    print_message("%d frames of %d characters: same bits; on the ground %d of %d\n", CROWD_FRAMES,
                  CROWD, grounded, CROWD * CROWD_FRAMES);
    ledge_world_destroy(a.w);
    ledge_world_destroy(b.w);
}

// Many bodies created one by one after the index exists (its slots and its
// big list outgrow it), bodies much larger than its cells, and teleports far
// away: the AABB queries still match brute force.
static void test_index_growth_matches_brute_force(void **state) {
    (void)state;
    g_rng = 0x5eed0777;
    rworld r;
    make_world(&r);
    int checks = 0;
    for (int round = 0; round < 400; ++round) {
        if (r.count < MAX_BODIES - 1) {
            add_random_body(&r);
            if (round % 3 == 0) { // a body larger than the index's cells
                ledge_body_def bd = ledge_default_body_def();
                bd.type = LEDGE_BODY_STATIC;
                bd.shape = ledge_make_box(v(0, 0), rng_box(2, 6, 2, 6));
                bd.position = rng_vec(-10, 30);
                r.ids[r.count++] = ledge_body_create(r.w, &bd);
            }
        } else {
            churn(&r);
        }
        if (r.count > 0 && rng_unit() < 0.2) {
            assert_true(
                ledge_body_set_position(r.w, r.ids[rng_int(0, r.count - 1)], rng_vec(-5000, 5000)));
        }
        ledge_query_filter f = ledge_default_query_filter();
        f.mask = f.category = ~(uint64_t)0;
        vec2s c = rng_vec(-20, 40), h = rng_vec(0, 8);
        check_aabb_query(&r, (ledge_aabb){v(c.x - h.x, c.y - h.y), v(c.x + h.x, c.y + h.y)}, &f);
        check_rays(&r, c, rng_vec(-60, 60), &f);
        ++checks;
    }
    assert_int_equal(checks, 400);
    ledge_world_destroy(r.w);
}

// Moving bodies one at a time (as a crowd of character movers does) keeps
// the query index fresh while they drift less than half a cell: every
// query still equals brute force over the current boxes, for small drifts,
// large jumps (refiled) and all sizes, on thousands of seeded cases.
static void test_queries_follow_small_moves(void **state) {
    (void)state;
    enum { N = 120, ROUNDS = 4000 };
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, 0);
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_id ids[N];
    for (int k = 0; k < N; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_KINEMATIC;
        float h = k % 17 == 0 ? rng_range(3, 8) : rng_range(0.1, 0.6); // some big ones
        bd.shape = ledge_make_box(v(0, 0), v(h, rng_range(0.1, 0.6)));
        bd.position = v(rng_range(2, 60), rng_range(2, 60));
        ids[k] = ledge_body_create(w, &bd);
    }
    for (int round = 0; round < ROUNDS; ++round) {
        ledge_body_id id = ids[rng_int(0, N - 1)];
        vec2s p = ledge_body_position(w, id);
        double reach = round % 50 == 0 ? 20.0 : 0.3; // mostly small steps
        vec2s q = v(p.x + rng_range(-reach, reach), p.y + rng_range(-reach, reach));
        assert_true(ledge_body_set_position(w, id, q));
        vec2s c = v(rng_range(0, 62), rng_range(0, 62));
        ledge_aabb box = {c, v(c.x + rng_range(0, 4), c.y + rng_range(0, 4))};
        ledge_body_id want[N], got[N];
        int m = 0;
        for (int k = 0; k < N; ++k) {
            ledge_aabb b =
                ledge_shape_aabb(ledge_body_shape(w, ids[k]), ledge_body_position(w, ids[k]));
            if (b.lower.x <= box.upper.x && b.upper.x >= box.lower.x && b.lower.y <= box.upper.y &&
                b.upper.y >= box.lower.y) {
                want[m++] = ids[k];
            }
        }
        assert_int_equal(ledge_world_query_aabb_ids(w, &box, NULL, got, N), m);
        for (int k = 0; k < m; ++k) assert_true(same_id(got[k], want[k]));
    }
    log_capture_start();
    ledge_aabb box = {v(0, 0), v(1, 1)};
    assert_int_equal(ledge_world_query_aabb_ids(w, &box, NULL, NULL, 3), -1);
    assert_true(log_capture_says("ledge_world_query_aabb_ids", "capacity"));
    vec2s pt = v(1, 1);
    assert_int_equal(ledge_world_query_point_ids(w, &pt, NULL, ids, -1), -1);
    assert_true(log_capture_says("ledge_world_query_point_ids", "capacity"));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// ffi.h: the by-pointer forms do what the functions they name do, and
// refuse NULL pointers with a message.
static void test_ffi_ref_forms(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, 0);
    ledge_world *w = ledge_world_create(&wd);
    for (int x = 0; x < 16; ++x) ledge_tilemap_set(ledge_world_tilemap(w), x, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    bd.position = v(3, 2);
    ledge_body_id a = ledge_body_create(w, &bd), b = ledge_body_create(w, &bd);
    for (int k = 0; k < 200; ++k) { // random moves: a by value, b by pointer, same results
        vec2s p = v(rng_range(1, 14), rng_range(1.5, 6)), d = v(rng_range(-1, 1), rng_range(-1, 1));
        assert_true(ledge_body_set_position(w, a, p));
        assert_true(ledge_body_set_position_ref(w, &b, &p));
        vec2s pb;
        assert_true(ledge_body_position_ref(w, &b, &pb));
        assert_true(pb.x == p.x && pb.y == p.y);
        ledge_move_result ra, rb;
        ledge_body_set_filter(w, b, (ledge_filter){1, 0, 0}); // neither sees the other
        ledge_body_set_filter(w, a, (ledge_filter){1, 0, 0});
        assert_true(ledge_body_move(w, a, d, NULL, &ra));
        assert_true(ledge_body_move_ref(w, &b, &d, NULL, &rb));
        assert_true(ra.position.x == rb.position.x && ra.position.y == rb.position.y);
        assert_int_equal(ra.on_ground, rb.on_ground);
    }
    log_capture_start();
    vec2s p = v(1, 1), out = v(5, 5);
    assert_false(ledge_body_set_position_ref(w, NULL, &p));
    assert_true(log_capture_says("ledge_body_set_position_ref", "id is NULL"));
    assert_false(ledge_body_set_position_ref(w, &a, NULL));
    assert_true(log_capture_says("ledge_body_set_position_ref", "position is NULL"));
    ledge_move_result r;
    assert_false(ledge_body_move_ref(w, &a, NULL, NULL, &r));
    assert_true(log_capture_says("ledge_body_move_ref", "displacement is NULL"));
    ledge_body_destroy(w, b);
    assert_false(ledge_body_position_ref(w, &b, &out));
    assert_true(out.x == 0 && out.y == 0);
    assert_true(log_capture_says("ledge_body_position", "stale"));
    assert_int_equal(ledge_world_query_aabb_ids(w, NULL, NULL, NULL, 0), -1);
    assert_true(log_capture_says("ledge_world_query_aabb_ids", "aabb is NULL"));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// ledge_bump_move (ffi.h): known answers of bump's slide, and refusals
// that change nothing. Its agreement with bump's loop in Lua on thousands
// of seeded moves is tests/lua/test_bump.lua's.
static ledge_body_id bump_box(ledge_world *w, ledge_bump_rect *rects, ledge_bump_rect r) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v((float)r.w / 2, (float)r.h / 2));
    bd.position = v((float)(r.x + r.w / 2), (float)(r.y + r.h / 2));
    ledge_body_id id = ledge_body_create(w, &bd);
    rects[id.index1] = r;
    return id;
}

// --- ledge_bump_move against a brute-force oracle ----------------------------
// bump's move written again the plain way: every rectangle tested (no
// index, no kept candidates), every collision of a projection collected,
// the first in bump's order (ti, centre distance, lowest slot) taken.

typedef struct oracle_col {
    uint32_t other;
    double ti, nx, ny, tx, ty;
} oracle_col;

// Liang-Barsky clip of t (dx, dy), t in [*t1, *t2], against the rectangle
// d (which holds the origin's path when the item overlaps), entry normal.
static bool oracle_clip(ledge_bump_rect d, double dx, double dy, double *t1, double *t2, double *nx,
                        double *ny) {
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {-d.x, d.x + d.w, -d.y, d.y + d.h};
    const double sx[4] = {-1, 1, 0, 0}, sy[4] = {0, 0, -1, 1};
    *nx = *ny = 0;
    for (int k = 0; k < 4; ++k) {
        if (p[k] == 0) {
            if (q[k] <= 0) return false;
            continue;
        }
        double t = q[k] / p[k];
        if (p[k] < 0 && t > *t2) return false;
        if (p[k] > 0 && t < *t1) return false;
        if (p[k] < 0 && t > *t1) *t1 = t, *nx = sx[k], *ny = sy[k];
        if (p[k] > 0 && t < *t2) *t2 = t;
    }
    return true;
}

static bool oracle_detect(ledge_bump_rect a, ledge_bump_rect b, double gx, double gy,
                          oracle_col *c) {
    const double delta = 1e-10;
    double dx = gx - a.x, dy = gy - a.y, t1, t2;
    ledge_bump_rect d = {b.x - a.x - a.w, b.y - a.y - a.h, a.w + b.w, a.h + b.h};
    if (-d.x > delta && -d.y > delta && d.x + d.w > delta && d.y + d.h > delta) {
        double px = fabs(d.x) < fabs(d.x + d.w) ? d.x : d.x + d.w;
        double py = fabs(d.y) < fabs(d.y + d.h) ? d.y : d.y + d.h;
        c->ti = -fmin(a.w, fabs(px)) * fmin(a.h, fabs(py));
        if (dx == 0 && dy == 0) {
            if (fabs(px) < fabs(py))
                py = 0;
            else
                px = 0;
            c->nx = (px > 0) - (px < 0), c->ny = (py > 0) - (py < 0);
            c->tx = a.x + px, c->ty = a.y + py;
            return true;
        }
        t1 = -INFINITY, t2 = 1;
        if (!oracle_clip(d, dx, dy, &t1, &t2, &c->nx, &c->ny)) return false;
    } else {
        t1 = -INFINITY, t2 = INFINITY;
        if (!oracle_clip(d, dx, dy, &t1, &t2, &c->nx, &c->ny)) return false;
        if (!(t1 < 1 && fabs(t1 - t2) >= delta && (0 < t1 + delta || (t1 == 0 && t2 > 0))))
            return false;
        c->ti = t1;
    }
    c->tx = a.x + dx * t1, c->ty = a.y + dy * t1;
    return true;
}

static double oracle_dist(ledge_bump_rect a, ledge_bump_rect b) {
    double dx = a.x - b.x + (a.w - b.w) / 2, dy = a.y - b.y + (a.h - b.h) / 2;
    return dx * dx + dy * dy;
}

// The move of slot `self` to (gx, gy) over rects[1..n]: its collisions into
// out (at most cap), where it ends into (*ax, *ay); returns the count.
static int oracle_move(const ledge_bump_rect *rects, int n, uint32_t self, double gx, double gy,
                       oracle_col *out, int cap, double *ax, double *ay) {
    ledge_bump_rect r = rects[self];
    int len = 0;
    for (;;) {
        int best = -1;
        oracle_col c, bc = {0};
        double bd = 0;
        for (uint32_t o = 1; o <= (uint32_t)n; ++o) {
            bool seen = o == self;
            for (int v = 0; v < len; ++v) seen = seen || out[v].other == o;
            if (seen || !oracle_detect(r, rects[o], gx, gy, &c)) continue;
            double d = oracle_dist(r, rects[o]);
            if (best < 0 || c.ti < bc.ti || (c.ti == bc.ti && d < bd)) {
                best = (int)o, bc = c, bd = d, bc.other = o; // o rises: ties keep the lowest
            }
        }
        if (best < 0 || len == cap) break;
        if (gx - r.x != 0 || gy - r.y != 0) { // slide
            if (bc.nx != 0)
                gx = bc.tx;
            else
                gy = bc.ty;
        }
        out[len++] = bc;
        r.x = bc.tx, r.y = bc.ty;
    }
    *ax = gx, *ay = gy;
    return len;
}

// One move by ledge_bump_move and by the oracle over rects[1..n]: the
// same collisions and end; returns the other item of collision `which`.
static uint32_t bump_same_as_oracle(ledge_world *w, ledge_bump_rect *rects, int n, ledge_body_id id,
                                    double gx, double gy, int which) {
    oracle_col want[64];
    ledge_bump_col got[64];
    double wx, wy, ax, ay;
    int wn = oracle_move(rects, n, id.index1, gx, gy, want, 64, &wx, &wy);
    assert_int_equal(ledge_bump_move(w, rects, n + 1, &id, gx, gy, true, got, 64, &ax, &ay), wn);
    assert_true(ax == wx && ay == wy);
    for (int c = 0; c < wn; ++c) {
        assert_int_equal(got[c].other, want[c].other);
        assert_true(got[c].ti == want[c].ti);
    }
    return which < wn ? want[which].other : 0;
}

static ledge_world *bump_world(void) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, 0);
    wd.map_width = wd.map_height = 2;
    wd.tile_size = 1e6f;
    wd.map_origin = v(-1e6f, -1e6f);
    wd.cell_size = 4;
    return ledge_world_create(&wd);
}

// The two cases where a move must not answer a later projection from the
// candidates its first query kept: the item overlapping another is pushed
// back out of the first query's box (onto an item outside it), and a first
// query with more candidates than are kept (60 specks the move never
// reaches, in rows walked before the item the slide meets).
static void test_bump_move_kept_candidates(void **state) {
    (void)state;
    ledge_world *w = bump_world();
    ledge_bump_rect rects[72] = {{0}};
    ledge_body_id a = bump_box(w, rects, (ledge_bump_rect){0, 0, 10, 10});
    bump_box(w, rects, (ledge_bump_rect){8, 0, 10, 10});                  // overlapped
    ledge_body_id c = bump_box(w, rects, (ledge_bump_rect){-6, 3, 5, 4}); // behind
    // Out of the overlap backwards to (-2, -10), then down onto c.
    assert_int_equal(bump_same_as_oracle(w, rects, 3, a, 1, 5, 1), c.index1);
    ledge_world_destroy(w);

    w = bump_world();
    memset(rects, 0, sizeof rects);
    a = bump_box(w, rects, (ledge_bump_rect){0, 0, 10, 10});
    bump_box(w, rects, (ledge_bump_rect){50, -100, 10, 300}); // the wall hit first
    for (int k = 0; k < 60; ++k) bump_box(w, rects, (ledge_bump_rect){100 + 1.5 * k, 1, 1, 1});
    ledge_body_id d = bump_box(w, rects, (ledge_bump_rect){42, 30, 4, 4});
    assert_int_equal(d.index1, 63);
    // Into the wall at x = 40, then sliding down onto d.
    assert_int_equal(bump_same_as_oracle(w, rects, 63, a, 200, 30, 1), d.index1);
    ledge_world_destroy(w);
}

// The query index keeps each body's box and whether the default filter sees
// it beside its cell (the bump move's walk reads nothing else): each must
// follow the body. An obstacle's filter turned off and on; the obstacle
// placed closer within its cell (ledge_body_set_position), then carried
// closer by a step: each time where its old box would be missed by the
// move's query, and each time the move meets it where the oracle does.
static void test_bump_move_index_follows(void **state) {
    (void)state;
    ledge_world *w = bump_world();
    ledge_bump_rect rects[4] = {{0}};
    ledge_body_id a = bump_box(w, rects, (ledge_bump_rect){0, 0, 10, 10});
    ledge_body_id b = bump_box(w, rects, (ledge_bump_rect){22, 0, 10, 10}); // cell x 1 of 16
    ledge_bump_col got[4];
    double ax, ay;
    ledge_filter hidden = ledge_default_filter();
    hidden.mask = 2; // the default query's category 1 is not in it
    assert_true(ledge_body_set_filter(w, b, hidden));
    assert_int_equal(ledge_bump_move(w, rects, 3, &a, 30, 0, false, got, 4, &ax, &ay), 0);
    assert_true(ledge_body_set_filter(w, b, ledge_default_filter()));
    assert_int_equal(ledge_bump_move(w, rects, 3, &a, 30, 0, false, got, 4, &ax, &ay), 1);
    assert_true(ax == 12 && got[0].other == b.index1);
    // To x 20.5, the same cell: a move to x 11 reaches it, not the old box.
    rects[b.index1].x = 20.5;
    assert_true(ledge_body_set_position(w, b, v(25.5f, 5)));
    assert_int_equal(bump_same_as_oracle(w, rects, 2, a, 11, 0, 0), b.index1);
    assert_true(rects[a.index1].x == 10.5);
    // a back at 0; b carried 3 to the left by a step (kinematic, velocity
    // -180 for 1/60 s), still in its cell: a move to x 8 reaches it.
    rects[a.index1].x = 0;
    assert_true(ledge_body_set_position(w, a, v(5, 5)));
    assert_true(ledge_body_set_velocity(w, b, v(-180, 0)));
    ledge_world_step(w, 1.0f / 60.0f);
    vec2s c = ledge_body_position(w, b);
    assert_true(c.x > 22.4f && c.x < 22.6f && c.y == 5);
    rects[b.index1].x = c.x - 5.0;
    assert_int_equal(bump_same_as_oracle(w, rects, 2, a, 8, 0, 0), b.index1);
    assert_true(rects[a.index1].x == c.x - 15.0);
    ledge_world_destroy(w);
}

// Seeded crowds of rectangles of mixed sizes (most small, a few much larger
// than the index's cells, some overlapping), each moved in turn by
// ledge_bump_move and by the oracle: the same collisions and the same end,
// bit for bit, for several thousand moves. Long moves through dense
// clusters give projections with more than the 32 candidates a move keeps;
// overlaps push items back outside the first projection's box.
static void test_bump_move_oracle(void **state) {
    (void)state;
    enum { N = 48, MOVES = 4000, CAP = 64 };
    g_rng = 19;
    int collided = 0, many = 0, multi = 0;
    for (int scene = 0; scene < MOVES / 200; ++scene) {
        ledge_world *w = bump_world();
        ledge_bump_rect rects[N + 1] = {{0}};
        ledge_body_id ids[N + 1];
        for (int k = 1; k <= N; ++k) {
            bool big = rng_int(0, 9) == 0;
            double sz = big ? rng_range(40, 300) : rng_range(1, 24);
            ledge_bump_rect r = {rng_int(0, scene % 2 ? 60 : 200), rng_int(0, 200), sz,
                                 big ? rng_range(2, 40) : rng_range(1, 24)};
            ids[k] = bump_box(w, rects, r);
            assert_int_equal(ids[k].index1, k);
        }
        for (int m = 0; m < 200; ++m) {
            uint32_t k = (uint32_t)rng_int(1, N);
            double reach = rng_int(0, 3) == 0 ? 120 : 12;
            double gx = rects[k].x + rng_range(-reach, reach);
            double gy = rects[k].y + (rng_int(0, 4) == 0 ? 0 : rng_range(-reach, reach));
            oracle_col want[CAP];
            ledge_bump_col got[CAP];
            double wx, wy, ax, ay;
            int wn = oracle_move(rects, N, k, gx, gy, want, CAP, &wx, &wy);
            int n = ledge_bump_move(w, rects, N + 1, &ids[k], gx, gy, true, got, CAP, &ax, &ay);
            assert_int_equal(n, wn);
            assert_true(ax == wx && ay == wy);
            assert_true(rects[k].x == wx && rects[k].y == wy);
            for (int c = 0; c < n; ++c) {
                assert_int_equal(got[c].other, want[c].other);
                assert_true(got[c].ti == want[c].ti);
                assert_true(got[c].touch_x == want[c].tx && got[c].touch_y == want[c].ty);
                assert_true(got[c].normal_x == want[c].nx && got[c].normal_y == want[c].ny);
            }
            collided += n > 0, multi += n > 1, many += n > 4;
        }
        ledge_world_destroy(w);
    }
    // The cases the kept candidates must get right did occur.
    assert_true(collided > MOVES / 4);
    assert_true(multi > MOVES / 20);
    assert_true(many > 10);
}

static void test_bump_move(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def(); // the bump module's world
    wd.gravity = v(0, 0);
    wd.map_width = wd.map_height = 2;
    wd.tile_size = 1e6f;
    wd.map_origin = v(-1e6f, -1e6f);
    wd.cell_size = 64;
    ledge_world *w = ledge_world_create(&wd);
    ledge_bump_rect rects[8] = {{0}};
    ledge_body_id p = bump_box(w, rects, (ledge_bump_rect){0, 0, 10, 10});
    ledge_body_id wall = bump_box(w, rects, (ledge_bump_rect){20, -50, 10, 100});
    ledge_bump_col cols[4];
    double ax = -1, ay = -1;
    // Right and down into the wall: touches at ti 0.5, slides down to y 8.
    assert_int_equal(ledge_bump_move(w, rects, 8, &p, 20, 8, false, cols, 4, &ax, &ay), 1);
    assert_true(ax == 10 && ay == 8);
    assert_true(cols[0].other == wall.index1 && !cols[0].overlaps && cols[0].ti == 0.5);
    assert_true(cols[0].normal_x == -1 && cols[0].normal_y == 0);
    assert_true(cols[0].touch_x == 10 && cols[0].touch_y == 4);
    assert_true(cols[0].move_x == 20 && cols[0].move_y == 8);
    assert_true(cols[0].slide_x == 10 && cols[0].slide_y == 8);
    assert_true(rects[p.index1].x == 0 && rects[p.index1].y == 0); // a check moves nothing
    // The move itself: the rectangle and the body follow.
    assert_int_equal(ledge_bump_move(w, rects, 8, &p, 20, 8, true, cols, 4, &ax, &ay), 1);
    assert_true(rects[p.index1].x == 10 && rects[p.index1].y == 8);
    vec2s c = ledge_body_position(w, p);
    assert_true(c.x == 15 && c.y == 13);
    // Nothing in the way: the goal, no collision.
    assert_int_equal(ledge_bump_move(w, rects, 8, &p, 10, -30, true, NULL, 0, &ax, &ay), 0);
    assert_true(ax == 10 && ay == -30);
    // A buffer too small: capacity + 1, nothing changed.
    assert_int_equal(ledge_bump_move(w, rects, 8, &p, 40, -30, true, NULL, 0, &ax, &ay), 1);
    assert_true(rects[p.index1].x == 10 && rects[p.index1].y == -30);
    // Refusals, logged, nothing changed.
    log_capture_start();
    assert_int_equal(ledge_bump_move(w, NULL, 8, &p, 0, 0, true, cols, 4, &ax, &ay), -1);
    assert_true(log_capture_says("ledge_bump_move", "rects is NULL"));
    assert_int_equal(ledge_bump_move(w, rects, 8, &p, NAN, 0, true, cols, 4, &ax, &ay), -1);
    assert_true(log_capture_says("ledge_bump_move", "not finite"));
    assert_int_equal(ledge_bump_move(w, rects, 8, &p, 0, 0, true, cols, -1, &ax, &ay), -1);
    assert_true(log_capture_says("ledge_bump_move", "capacity"));
    assert_int_equal(ledge_bump_move(w, rects, 1, &p, 0, 0, true, cols, 4, &ax, &ay), -1);
    assert_true(log_capture_says("ledge_bump_move", "rect_count"));
    assert_int_equal(ledge_bump_move(w, rects, 2, &p, 40, -30, true, cols, 4, &ax, &ay), -1);
    assert_true(log_capture_says("ledge_bump_move", "rect_count 2")); // the wall's slot is 2
    assert_true(rects[p.index1].x == 10 && rects[p.index1].y == -30);
    // While the world steps (a contact callback calling it): refused before
    // anything is computed, the rectangle and the body where they were.
    w->stepping = true;
    assert_int_equal(ledge_bump_move(w, rects, 8, &p, 10, -20, true, cols, 4, &ax, &ay), -1);
    assert_true(log_capture_says("ledge_bump_move", "stepping"));
    w->stepping = false;
    assert_true(rects[p.index1].x == 10 && rects[p.index1].y == -30);
    assert_true(ledge_body_position(w, p).x == 15 && ledge_body_position(w, p).y == -25);
    // A goal beyond LEDGE_MAX_COORDINATE: the move's query box is refused
    // (before the placement could be), nothing changed.
    assert_int_equal(
        ledge_bump_move(w, rects, 8, &p, 10, -2.0 * LEDGE_MAX_COORDINATE, true, cols, 4, &ax, &ay),
        -1);
    assert_true(log_capture_says("ledge_bump_move", "aabb"));
    assert_true(rects[p.index1].x == 10 && rects[p.index1].y == -30);
    assert_true(ledge_body_position(w, p).x == 15 && ledge_body_position(w, p).y == -25);
    ledge_body_id gone = bump_box(w, rects, (ledge_bump_rect){200, 200, 4, 4});
    ledge_body_destroy(w, gone);
    assert_int_equal(ledge_bump_move(w, rects, 8, &gone, 0, 0, true, cols, 4, &ax, &ay), -1);
    assert_true(log_capture_says("ledge_body_position", "stale"));
    ledge_set_log_hook(NULL, NULL);
    assert_true(ledge_body_is_valid(w, p) && ledge_body_is_valid(w, wall));
    ledge_world_destroy(w);
}

static float keep_going(const ledge_raycast_result *hit, void *ctx) {
    (void)hit;
    (void)ctx;
    return 1.0f;
}

static void test_refusals(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    ledge_raycast_result r;
    ledge_aabb box = {v(1, 1), v(2, 2)};
    ledge_shape ball = ledge_make_circle(v(0, 0), 0.5f), bad;
    memset(&bad, 0, sizeof bad);
    int n = 0;
    log_capture_start();
    assert_false(ledge_world_raycast(NULL, v(1, 1), v(1, 0), NULL, &r));
    assert_true(log_capture_says("ledge_world_raycast", "world is NULL"));
    assert_false(ledge_world_raycast(w, v(1, 1), v(1, 0), NULL, NULL));
    assert_true(log_capture_says("ledge_world_raycast", "out is NULL"));
    assert_false(ledge_world_raycast(w, v(NAN, 1), v(1, 0), NULL, &r));
    assert_true(log_capture_says("ledge_world_raycast", "origin"));
    assert_int_equal(r.kind, LEDGE_HIT_NONE);
    assert_false(ledge_world_raycast(w, v(1, 1), v(INFINITY, 0), NULL, &r));
    assert_true(log_capture_says("ledge_world_raycast", "translation"));
    assert_int_equal(ledge_world_raycast_all(w, v(1, 1), v(1, 0), NULL, NULL, NULL), -1);
    assert_true(log_capture_says("ledge_world_raycast_all", "callback is NULL"));
    assert_int_equal(ledge_world_raycast_all(w, v(1, NAN), v(1, 0), NULL, keep_going, NULL), -1);
    assert_true(log_capture_says("ledge_world_raycast_all", "origin"));
    assert_int_equal(ledge_world_query_aabb(w, box, NULL, NULL, NULL), -1);
    assert_true(log_capture_says("ledge_world_query_aabb", "callback is NULL"));
    ledge_aabb inverted = {v(2, 2), v(1, 1)};
    assert_int_equal(ledge_world_query_aabb(w, inverted, NULL, count_body, &n), -1);
    assert_true(log_capture_says("ledge_world_query_aabb", "aabb"));
    // NaN, infinities and coordinates past LEDGE_MAX_COORDINATE (the range
    // check is one comparison per component, without isfinite).
    ledge_aabb outside[] = {{v(NAN, 1), v(2, 2)},       {v(1, 1), v(2, NAN)},
                            {v(-INFINITY, 1), v(2, 2)}, {v(1, 1), v(INFINITY, 2)},
                            {v(1, -2e6f), v(2, 2)},     {v(1, 1), v(2e6f, 2)}};
    for (size_t k = 0; k < sizeof outside / sizeof outside[0]; ++k) {
        assert_int_equal(ledge_world_query_aabb(w, outside[k], NULL, count_body, &n), -1);
        assert_true(log_capture_says("ledge_world_query_aabb", "aabb"));
    }
    assert_int_equal(ledge_world_query_point(w, v(NAN, 0), NULL, count_body, &n), -1);
    assert_true(log_capture_says("ledge_world_query_point", "point"));
    assert_int_equal(ledge_world_query_point(NULL, v(0, 0), NULL, count_body, &n), -1);
    assert_true(log_capture_says("ledge_world_query_point", "world is NULL"));
    assert_false(ledge_world_shape_cast(w, &bad, v(1, 1), v(1, 0), NULL, &r));
    assert_true(log_capture_says("ledge_world_shape_cast", "shape is invalid"));
    assert_false(ledge_world_shape_cast(w, NULL, v(1, 1), v(1, 0), NULL, &r));
    assert_true(log_capture_says("ledge_world_shape_cast", "shape is NULL"));
    assert_false(ledge_world_shape_cast(w, &ball, v(1, 1), v(1, 0), NULL, NULL));
    assert_true(log_capture_says("ledge_world_shape_cast", "out is NULL"));
    assert_false(ledge_world_shape_cast(w, &ball, v(1, 1), v(NAN, 0), NULL, &r));
    assert_true(log_capture_says("ledge_world_shape_cast", "translation"));
    ledge_query_filter f = ledge_default_query_filter();
    f.ignore = (ledge_body_id){7, 0, 0};
    assert_false(ledge_world_shape_cast(w, &ball, v(1, 1), v(1, 0), &f, &r));
    assert_true(log_capture_says("ledge_world_shape_cast", "filter->ignore"));
    // Inside the step (as a future pre-solve callback would be).
    w->stepping = true;
    g_log.count = 0;
    assert_false(ledge_world_raycast(w, v(1, 1), v(1, 0), NULL, &r));
    assert_true(log_capture_says("ledge_world_raycast", "stepping"));
    assert_int_equal(ledge_world_query_aabb(w, box, NULL, count_body, &n), -1);
    assert_true(log_capture_says("ledge_world_query_aabb", "stepping"));
    w->stepping = false;
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// docs/queries.md's wall probe, compiled here: "is there a wall 0.05 to my
// left at knee height", against the tiles and against other bodies.
static bool any_body(ledge_body_id id, void *ctx) {
    (void)id;
    *(bool *)ctx = true;
    return false; // one is enough
}

static bool wall_on_left(ledge_world *world, ledge_body_id me) {
    const ledge_shape *shape = ledge_body_shape(world, me);
    vec2s pos = ledge_body_position(world, me);
    ledge_aabb box = ledge_shape_aabb(shape, pos);
    float knee = box.lower.y + 0.25f * (box.upper.y - box.lower.y);
    vec2s probe = {{box.lower.x - 0.05f, knee}};
    if (ledge_tilemap_query_point(ledge_world_tilemap(world), probe, NULL)) return true;
    ledge_query_filter filter = ledge_default_query_filter();
    filter.ignore = me; // not my own shape
    bool found = false;
    ledge_world_query_point(world, probe, &filter, any_body, &found);
    return found;
}

static void test_wall_probe_idiom(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 16;
    wd.map_height = 8;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 16; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    ledge_tilemap_set(map, 3, 1, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    bd.position = v(4.33f, 1.45f); // 0.03 right of the wall at x = 4
    ledge_body_id me = ledge_body_create(w, &bd);
    assert_true(wall_on_left(w, me));
    assert_true(ledge_body_set_position(w, me, v(4.4f, 1.45f))); // 0.1 away
    assert_false(wall_on_left(w, me));
    ledge_body_def cd = ledge_default_body_def();
    cd.type = LEDGE_BODY_STATIC;
    cd.shape = ledge_make_box(v(0, 0), v(0.5f, 0.5f));
    cd.position = v(8.0f, 1.5f); // a crate whose right side is at x = 8.5
    ledge_body_create(w, &cd);
    assert_true(ledge_body_set_position(w, me, v(8.83f, 1.45f)));
    assert_true(wall_on_left(w, me));
    ledge_world_destroy(w);
}

int main(void) {
    (void)place; // random_shapes.h helpers this file does not need
    (void)random_shape;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queries_match_brute_force),
        cmocka_unit_test(test_shape_cast_matches_sampling),
        cmocka_unit_test(test_shape_cast_known_answers),
        cmocka_unit_test(test_queries_follow_moves),
        cmocka_unit_test(test_queries_follow_small_moves),
        cmocka_unit_test(test_ffi_ref_forms),
        cmocka_unit_test(test_bump_move),
        cmocka_unit_test(test_bump_move_oracle),
        cmocka_unit_test(test_bump_move_kept_candidates),
        cmocka_unit_test(test_bump_move_index_follows),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_wall_probe_idiom),
        cmocka_unit_test(test_incremental_index_equals_rebuild),
        cmocka_unit_test(test_index_growth_matches_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
