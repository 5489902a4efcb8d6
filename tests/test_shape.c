// Shape construction: every refusal of the constructors is reported with a
// message naming the problem, and accepted polygons are normalised
// (counter-clockwise, unit outward normals, parallel edges sharing an axis).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"

#include <math.h>

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static void refuse_polygon(const vec2s *pts, int count, const char *w1, const char *w2) {
    ledge_shape s;
    s.type = LEDGE_SHAPE_CIRCLE; // must be overwritten with an invalid shape
    log_capture_start();
    assert_false(ledge_make_polygon(pts, count, &s));
    assert_int_equal(s.type, LEDGE_SHAPE_INVALID);
    assert_false(ledge_shape_is_valid(&s));
    if (!log_capture_says(w1, w2))
        fail_msg("expected '%s' '%s' in: %s", w1, w2 ? w2 : "", g_log.last);
}

static void test_circle_refusals(void **state) {
    (void)state;
    const float bad_r[] = {0.0f, -1.0f, NAN, INFINITY, 2.0e6f};
    for (unsigned i = 0; i < sizeof bad_r / sizeof bad_r[0]; ++i) {
        log_capture_start();
        ledge_shape s = ledge_make_circle(v(0, 0), bad_r[i]);
        assert_int_equal(s.type, LEDGE_SHAPE_INVALID);
        assert_true(log_capture_says("ledge_make_circle", "radius"));
    }
    log_capture_start();
    ledge_shape s = ledge_make_circle(v(NAN, 0), 1.0f);
    assert_int_equal(s.type, LEDGE_SHAPE_INVALID);
    assert_true(log_capture_says("ledge_make_circle", "center"));
    s = ledge_make_circle(v(1, 2), 0.5f);
    assert_int_equal(s.type, LEDGE_SHAPE_CIRCLE);
    assert_true(ledge_shape_is_valid(&s));
}

static void test_box_refusals(void **state) {
    (void)state;
    const vec2s bad[] = {v(0, 1), v(1, 0), v(-1, 1), v(1, NAN), v(INFINITY, 1), v(1, 3e6f)};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        log_capture_start();
        ledge_shape s = ledge_make_box(v(0, 0), bad[i]);
        assert_int_equal(s.type, LEDGE_SHAPE_INVALID);
        assert_true(log_capture_says("ledge_make_box", "half_extents"));
    }
    log_capture_start();
    ledge_shape s = ledge_make_box(v(0, -INFINITY), v(1, 1));
    assert_int_equal(s.type, LEDGE_SHAPE_INVALID);
    assert_true(log_capture_says("ledge_make_box", "center"));
}

static void test_polygon_refusals(void **state) {
    (void)state;
    const vec2s tri[3] = {v(0, 0), v(1, 0), v(0, 1)};
    log_capture_start();
    assert_false(ledge_make_polygon(tri, 3, NULL));
    assert_true(log_capture_says("ledge_make_polygon", "out is NULL"));

    refuse_polygon(NULL, 3, "points is NULL", NULL);
    refuse_polygon(tri, 2, "count is 2", NULL);
    vec2s nine[9];
    for (int i = 0; i < 9; ++i) nine[i] = v(cosf(i * 0.698f), sinf(i * 0.698f));
    refuse_polygon(nine, 9, "count is 9", NULL);

    const vec2s nan_pt[3] = {v(0, 0), v(NAN, 0), v(0, 1)};
    refuse_polygon(nan_pt, 3, "points[1]", "finite");
    const vec2s huge[3] = {v(0, 0), v(5e6f, 0), v(0, 1)};
    refuse_polygon(huge, 3, "points[1]", NULL);
    const vec2s dup[4] = {v(0, 0), v(1, 0), v(1, 0), v(0, 1)};
    refuse_polygon(dup, 4, "points[1] and points[2]", "same point");
    const vec2s dup_far[4] = {v(0, 0), v(1, 0), v(1, 1), v(0, 0)};
    refuse_polygon(dup_far, 4, "points[0] and points[3]", "same point");
    const vec2s collinear[4] = {v(0, 0), v(1, 0), v(2, 0), v(1, 1)};
    refuse_polygon(collinear, 4, "collinear", NULL);
    const vec2s flat[3] = {v(0, 0), v(1, 1), v(2, 2)};
    refuse_polygon(flat, 3, "collinear", NULL);
    const vec2s concave[4] = {v(0, 0), v(2, 0), v(1, 0.5f), v(1, 2)};
    refuse_polygon(concave, 4, "not convex", NULL);
    const vec2s bowtie[4] = {v(0, 0), v(1, 0), v(0, 1), v(1, 1)};
    refuse_polygon(bowtie, 4, "not convex", NULL);
    vec2s star[5]; // a pentagram: every turn agrees, but it winds twice
    for (int i = 0; i < 5; ++i) {
        float a = (float)(i * 2) * 2.0f * 3.14159265f / 5.0f;
        star[i] = v(cosf(a), sinf(a));
    }
    refuse_polygon(star, 5, "winds around more than once", NULL);
}

static double signed_area(const ledge_shape *s) {
    double a = 0;
    for (int i = 0; i < s->count; ++i) {
        vec2s p = s->vertices[i], q = s->vertices[(i + 1) % s->count];
        a += (double)p.x * q.y - (double)p.y * q.x;
    }
    return 0.5 * a;
}

// Outward unit normals, counter-clockwise order, axes covering each normal.
static void check_polygon_invariants(const ledge_shape *s) {
    assert_true(ledge_shape_is_valid(s));
    assert_true(signed_area(s) > 0.0);
    for (int i = 0; i < s->count; ++i) {
        vec2s n = s->normals[i];
        assert_float_equal(n.x * n.x + n.y * n.y, 1.0f, 1e-5f);
        for (int j = 0; j < s->count; ++j) {
            float d = n.x * (s->vertices[j].x - s->vertices[i].x) +
                      n.y * (s->vertices[j].y - s->vertices[i].y);
            assert_true(d <= 1e-5f);
        }
        int covered = 0;
        for (int k = 0; k < s->axis_count; ++k) {
            // Parallel or antiparallel: compare the sine, which is linear
            // in the angle (the cosine is flat near 1).
            float cross = n.x * s->axes[k].normal.y - n.y * s->axes[k].normal.x;
            covered += fabsf(cross) < 1e-6f;
        }
        assert_int_equal(covered, 1);
    }
}

static void test_polygon_normalised(void **state) {
    (void)state;
    const vec2s cw[4] = {v(0, 0), v(0, 2), v(3, 2), v(3, 0)}; // clockwise rectangle
    ledge_shape s;
    assert_true(ledge_make_polygon(cw, 4, &s));
    check_polygon_invariants(&s);
    assert_int_equal(s.axis_count, 2);
    assert_float_equal(ledge_shape_area(&s), 6.0f, 1e-5f);
    assert_float_equal(s.center.x, 1.5f, 1e-6f);
    assert_float_equal(s.center.y, 1.0f, 1e-6f);

    const vec2s right_tri[3] = {v(0, 0), v(1, 0), v(1, 1)};
    assert_true(ledge_make_polygon(right_tri, 3, &s));
    check_polygon_invariants(&s);
    assert_int_equal(s.axis_count, 3);

    int expected_axes[] = {0, 0, 0, 3, 2, 5, 3, 7, 4}; // regular n-gons
    for (int n = 3; n <= 8; ++n) {
        vec2s pts[8];
        for (int i = 0; i < n; ++i) {
            float a = 0.1f + (float)i * 2.0f * 3.14159265f / (float)n;
            pts[i] = v(10.0f + 3.0f * cosf(a), -4.0f + 3.0f * sinf(a));
        }
        assert_true(ledge_make_polygon(pts, n, &s));
        check_polygon_invariants(&s);
        assert_int_equal(s.axis_count, expected_axes[n]);
    }

    // Two edges 0.26 degrees from antiparallel are distinct axes (an early
    // tolerance compared 1 - cos with a sine and merged them).
    const vec2s near_parallel[4] = {v(-15.6993771f, -0.480660558f), v(2.29759932f, -1.85318816f),
                                    v(0.238706663f, -3.05121374f), v(-14.6825771f, -1.95615494f)};
    assert_true(ledge_make_polygon(near_parallel, 4, &s));
    check_polygon_invariants(&s);
    assert_int_equal(s.axis_count, 4);

    ledge_shape box = ledge_make_box(v(1, 2), v(0.5f, 0.25f));
    check_polygon_invariants(&box);
    assert_int_equal(box.axis_count, 2);
    assert_float_equal(ledge_shape_area(&box), 0.5f, 1e-6f);
    ledge_aabb bb = ledge_shape_aabb(&box, v(10, 10));
    assert_float_equal(bb.lower.x, 10.5f, 1e-6f);
    assert_float_equal(bb.upper.y, 12.25f, 1e-6f);
}

static void test_contains(void **state) {
    (void)state;
    ledge_shape c = ledge_make_circle(v(1, 0), 1.0f);
    assert_true(ledge_shape_contains(&c, v(5, 5), v(7, 5))); // on the boundary
    assert_false(ledge_shape_contains(&c, v(5, 5), v(7.01f, 5)));
    assert_true(ledge_shape_contains(&c, v(5, 5), v(6, 5.99f)));
    const vec2s tri[3] = {v(0, 0), v(2, 0), v(0, 2)};
    ledge_shape t;
    assert_true(ledge_make_polygon(tri, 3, &t));
    assert_true(ledge_shape_contains(&t, v(1, 1), v(2, 2))); // on the hypotenuse
    assert_false(ledge_shape_contains(&t, v(1, 1), v(2.01f, 2.01f)));
    assert_false(ledge_shape_contains(&t, v(1, 1), v(0.99f, 2)));
    ledge_shape b = ledge_make_box(v(0, 0), v(1, 2));
    assert_true(ledge_shape_contains(&b, v(0, 0), v(-1, -2)));
    assert_false(ledge_shape_contains(&b, v(0, 0), v(-1, -2.001f)));
    log_capture_start();
    assert_false(ledge_shape_contains(&b, v(NAN, 0), v(0, 0)));
    assert_true(log_capture_says("ledge_shape_contains", "must be finite"));
}

// Invalid or corrupted shapes and non-finite positions collide with nothing
// and say so, instead of reading past the vertex arrays.
static void test_collide_refusals(void **state) {
    (void)state;
    ledge_shape good = ledge_make_box(v(0, 0), v(1, 1));
    ledge_shape bad = ledge_make_circle(v(0, 0), -1.0f);
    log_capture_start();
    ledge_manifold m = ledge_collide(&good, v(0, 0), &bad, v(0, 0));
    assert_false(m.hit);
    assert_true(log_capture_says("ledge_collide", "shape b"));
    ledge_shape corrupt = good;
    corrupt.count = 99;
    log_capture_start();
    m = ledge_collide(&corrupt, v(0, 0), &good, v(0, 0));
    assert_false(m.hit);
    assert_true(log_capture_says("ledge_collide", "shape a"));
    assert_false(ledge_shape_is_valid(&corrupt));
    log_capture_start();
    m = ledge_collide(&good, v(0, 0), &good, v(0, INFINITY));
    assert_false(m.hit);
    assert_true(log_capture_says("ledge_collide", "not finite"));
    log_capture_start();
    m = ledge_collide(NULL, v(0, 0), &good, v(0, 0));
    assert_false(m.hit);
    assert_true(log_capture_says("ledge_collide", "NULL"));
    // The same pair placed sanely collides.
    m = ledge_collide(&good, v(0, 0), &good, v(1.5f, 0));
    assert_true(m.hit);
    assert_float_equal(m.depth, 0.5f, 1e-6f);
    assert_float_equal(m.normal.x, 1.0f, 1e-6f);
    assert_int_equal(m.point_count, 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_circle_refusals),  cmocka_unit_test(test_box_refusals),
        cmocka_unit_test(test_polygon_refusals), cmocka_unit_test(test_polygon_normalised),
        cmocka_unit_test(test_contains),         cmocka_unit_test(test_collide_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
