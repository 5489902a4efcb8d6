// The separating-axis cache: while a pair stays apart the cached axis answers
// alone, the axis it stores really separates the pair (checked here by
// projecting the vertices in double), and results equal the uncached test.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include <math.h>
#include <string.h>

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// Projection interval of a placed shape on u, in double, from the vertices
// (or centre and radius): independent of the library's axis tables.
static void project(const ledge_shape *s, vec2s pos, vec2s u, double *lo, double *hi) {
    double ux = u.x, uy = u.y, l = sqrt(ux * ux + uy * uy);
    ux /= l;
    uy /= l;
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        double c = ((double)pos.x + s->center.x) * ux + ((double)pos.y + s->center.y) * uy;
        *lo = c - s->radius;
        *hi = c + s->radius;
        return;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < s->count; ++i) {
        double d =
            ((double)pos.x + s->vertices[i].x) * ux + ((double)pos.y + s->vertices[i].y) * uy;
        *lo = d < *lo ? d : *lo;
        *hi = d > *hi ? d : *hi;
    }
}

static bool axis_separates(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb,
                           vec2s u) {
    double alo, ahi, blo, bhi;
    project(a, pa, u, &alo, &ahi);
    project(b, pb, u, &blo, &bhi);
    return ahi <= blo + 1e-6 || bhi <= alo + 1e-6;
}

static void same_manifold(ledge_manifold x, ledge_manifold y) {
    assert_int_equal(x.hit, y.hit);
    if (!x.hit) return;
    assert_memory_equal(&x.normal, &y.normal, sizeof x.normal);
    assert_memory_equal(&x.depth, &y.depth, sizeof x.depth);
    assert_int_equal(x.point_count, y.point_count);
}

// A box approaching a square polygon along x, 1/64 per frame (exact in
// binary): every frame after the first that is apart is answered by the
// cached face alone, also the frame where they touch exactly (gap 0): the
// cache re-runs the face test in the full test's own arithmetic, which
// says "apart" there too (depth 0 is no hit).
static void test_approach_early_outs(void **state) {
    (void)state;
    const vec2s square[4] = {v(-1, -1), v(1, -1), v(1, 1), v(-1, 1)};
    ledge_shape a;
    assert_true(ledge_make_polygon(square, 4, &a));
    ledge_shape b = ledge_make_box(v(0, 0), v(0.5f, 0.5f));
    ledge_sat_cache cache;
    memset(&cache, 0, sizeof cache);
    int apart_frames = 0;
    for (int f = 0; f < 100; ++f) {
        vec2s pb = v(2.0f - (float)f / 64.0f, 0.3f);
        ledge_manifold m = ledge_collide_cached(&a, v(0, 0), &b, pb, &cache);
        same_manifold(m, ledge_collide(&a, v(0, 0), &b, pb));
        double gap = ((double)pb.x - 0.5) - 1.0;
        if (gap >= 0.0) { // touching counts as apart: depth 0 is no hit
            apart_frames++;
            assert_false(m.hit);
            assert_true(cache.valid);
            assert_true(axis_separates(&a, v(0, 0), &b, pb, cache.axis));
        } else {
            assert_true(m.hit);
            assert_false(cache.valid);
        }
    }
    assert_int_equal(apart_frames, 33);
    assert_int_equal(cache.early_outs, (uint32_t)(apart_frames - 1));
}

// Box-box and circle-circle pairs are cheaper than the cache check: the
// cache is left alone and the result is the uncached one.
static void test_cheap_pairs_skip_cache(void **state) {
    (void)state;
    ledge_shape box = ledge_make_box(v(0, 0), v(1, 1)), ball = ledge_make_circle(v(0, 0), 1);
    const ledge_shape *shapes[2] = {&box, &ball};
    for (int k = 0; k < 2; ++k) {
        ledge_sat_cache cache;
        memset(&cache, 0, sizeof cache);
        for (int f = 0; f < 10; ++f) {
            vec2s pb = v(5.0f - (float)f * 0.5f, 0);
            same_manifold(ledge_collide_cached(shapes[k], v(0, 0), shapes[k], pb, &cache),
                          ledge_collide(shapes[k], v(0, 0), shapes[k], pb));
        }
        assert_false(cache.valid);
        assert_int_equal(cache.early_outs, 0);
    }
}

// When the pair moves so that the cached axis no longer separates, the full
// test runs, answers correctly and caches the new axis.
static void test_axis_replaced(void **state) {
    (void)state;
    const vec2s pts[3] = {v(0, 0), v(2, 0), v(0, 2)};
    ledge_shape tri;
    assert_true(ledge_make_polygon(pts, 3, &tri));
    ledge_shape ball = ledge_make_circle(v(0, 0), 0.25f);
    ledge_sat_cache cache;
    memset(&cache, 0, sizeof cache);
    ledge_manifold m = ledge_collide_cached(&tri, v(0, 0), &ball, v(0.5f, -1), &cache);
    assert_false(m.hit);
    assert_true(cache.valid);
    vec2s first = cache.axis;
    // Now beyond the hypotenuse instead: y-overlap, separated diagonally.
    m = ledge_collide_cached(&tri, v(0, 0), &ball, v(1.3f, 1.3f), &cache);
    assert_false(m.hit);
    assert_int_equal(cache.early_outs, 0);
    assert_true(axis_separates(&tri, v(0, 0), &ball, v(1.3f, 1.3f), cache.axis));
    assert_true(fabsf(first.x - cache.axis.x) > 0.1f || fabsf(first.y - cache.axis.y) > 0.1f);
    // And into contact: the cache is dropped, the hit is the uncached one.
    m = ledge_collide_cached(&tri, v(0, 0), &ball, v(1.1f, 1.1f), &cache);
    same_manifold(m, ledge_collide(&tri, v(0, 0), &ball, v(1.1f, 1.1f)));
    assert_true(m.hit);
    assert_false(cache.valid);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static float rnd(float lo, float hi) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (float)((rng_state >> 11) * (1.0 / 9007199254740992.0));
}

static ledge_shape random_shape(int kind) {
    if (kind == 0) return ledge_make_circle(v(rnd(-1, 1), rnd(-1, 1)), rnd(0.2f, 2));
    if (kind == 1) return ledge_make_box(v(rnd(-1, 1), rnd(-1, 1)), v(rnd(0.2f, 2), rnd(0.2f, 2)));
    vec2s pts[8];
    int n = 3 + (int)rnd(0, 5.99f);
    float r = rnd(0.3f, 2), phase = rnd(0, 6.283f), squash = rnd(0.5f, 1);
    for (int i = 0; i < n; ++i) {
        float a = phase + (float)i * 6.2831853f / (float)n + rnd(0, 0.3f);
        pts[i] = v(r * cosf(a), r * sinf(a) * squash);
    }
    ledge_shape s;
    if (!ledge_make_polygon(pts, n, &s)) s = ledge_make_box(v(0, 0), v(r, r));
    return s;
}

// Random pairs drifting through each other: cached and uncached agree every
// frame, and every stored axis separates.
static void test_random_drift(void **state) {
    (void)state;
    uint32_t early = 0;
    for (int pair = 0; pair < 600; ++pair) {
        ledge_shape a = random_shape(pair % 3), b = random_shape((pair / 3) % 3);
        vec2s pb = v(rnd(-8, 8), rnd(-8, 8)), vel = v(-pb.x / 80.0f, -pb.y / 80.0f);
        ledge_sat_cache cache;
        memset(&cache, 0, sizeof cache);
        for (int f = 0; f < 120; ++f) {
            pb = v(pb.x + vel.x, pb.y + vel.y);
            ledge_manifold m = ledge_collide_cached(&a, v(0, 0), &b, pb, &cache);
            same_manifold(m, ledge_collide(&a, v(0, 0), &b, pb));
            if (cache.valid) assert_true(axis_separates(&a, v(0, 0), &b, pb, cache.axis));
        }
        early += cache.early_outs;
    }
    assert_true(early > 10000); // the cache does answer most apart frames
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_approach_early_outs),
        cmocka_unit_test(test_axis_replaced),
        cmocka_unit_test(test_cheap_pairs_skip_cache),
        cmocka_unit_test(test_random_drift),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
