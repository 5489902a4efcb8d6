// World queries at one-way platforms (query.h, ledge_query_one_way): ray
// casts, ray_all, shape casts and ledge_world_nearest at one-way tiles and
// bodies, under each rule, for every one-way direction, rays all round,
// worlds y up and their mirror images (a y-down game's), against an
// oracle written here: a ray hits a one-way platform only where it enters
// it through a face whose normal is within 60 degrees of the platform's
// direction (a box's one face along the direction, a circle's cap), or
// when it starts within twice the world's slop behind such a face.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static const ledge_one_way g_ways[4] = {LEDGE_ONE_WAY_UP, LEDGE_ONE_WAY_DOWN, LEDGE_ONE_WAY_LEFT,
                                        LEDGE_ONE_WAY_RIGHT};
static const char *const g_way_names[5] = {"none", "up", "down", "left", "right"};
static const ledge_query_one_way g_rules[3] = {
    LEDGE_QUERY_ONE_WAY_AS_BODIES, LEDGE_QUERY_ONE_WAY_ALWAYS, LEDGE_QUERY_ONE_WAY_NEVER};

enum { MAP = 24 };

// The platform: three cells (or a body of their size) across the
// direction, in the middle of an empty 24 x 24 map, so that the rays below
// (origins within 5 of it, 6 long) meet nothing else.
typedef struct platform {
    ledge_world *w;
    ledge_one_way way;
    vec2s dir;           // the allowed side
    double lo[2], hi[2]; // its box
    ledge_body_id body;  // the body, or the null id for tiles
    float slop;
} platform;

static ledge_world *empty_world(void) {
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = MAP;
    wd.map_height = MAP;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    return w;
}

static void make_platform(platform *p, ledge_one_way way, bool as_body) {
    memset(p, 0, sizeof *p);
    p->w = empty_world();
    p->way = way;
    p->dir = ledge_one_way_direction(way);
    p->slop = ledge_default_world_def().linear_slop;
    bool across_x = way == LEDGE_ONE_WAY_UP || way == LEDGE_ONE_WAY_DOWN;
    int x0 = across_x ? 10 : 12, x1 = across_x ? 12 : 12;
    int y0 = across_x ? 12 : 10, y1 = across_x ? 12 : 12;
    p->lo[0] = x0;
    p->lo[1] = y0;
    p->hi[0] = x1 + 1;
    p->hi[1] = y1 + 1;
    if (as_body) {
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_STATIC;
        bd.one_way = way;
        bd.shape = ledge_make_box(
            v(0, 0), v((float)(p->hi[0] - p->lo[0]) / 2, (float)(p->hi[1] - p->lo[1]) / 2));
        bd.position = v((float)(p->lo[0] + p->hi[0]) / 2, (float)(p->lo[1] + p->hi[1]) / 2);
        p->body = ledge_body_create(p->w, &bd);
        assert_true(ledge_body_is_valid(p->w, p->body));
        return;
    }
    ledge_tilemap *m = ledge_world_tilemap(p->w);
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            assert_true(ledge_tilemap_set(m, x, y, LEDGE_TILE_FULL));
            assert_true(ledge_tilemap_set_one_way(m, x, y, way));
        }
    }
}

// The oracle: where the segment o + t d (t in [0, 1]) enters the box, and
// through which face (its outward normal). False when it misses the box
// or starts inside it.
static bool box_entry(const platform *p, const double o[2], const double d[2], double *t_in,
                      double n[2]) {
    double lo = 0.0, hi = 1.0;
    int axis = -1;
    double sign = 0.0;
    for (int k = 0; k < 2; ++k) {
        if (d[k] == 0.0) {
            if (o[k] < p->lo[k] || o[k] > p->hi[k]) return false;
            continue;
        }
        double ta = (p->lo[k] - o[k]) / d[k], tb = (p->hi[k] - o[k]) / d[k];
        double s = d[k] > 0 ? -1.0 : 1.0; // the face entered on this axis
        if (ta > tb) {
            double t = ta;
            ta = tb;
            tb = t;
        }
        if (ta > lo) {
            lo = ta;
            axis = k;
            sign = s;
        }
        if (tb < hi) hi = tb;
    }
    if (lo > hi || axis < 0) return false; // missed, or starts inside
    *t_in = lo;
    n[0] = axis == 0 ? sign : 0.0;
    n[1] = axis == 1 ? sign : 0.0;
    return true;
}

// How deep behind the allowed face the point lies (negative outside it),
// when inside the box; -1 when outside.
static double depth_behind(const platform *p, const double o[2]) {
    for (int k = 0; k < 2; ++k)
        if (o[k] < p->lo[k] || o[k] > p->hi[k]) return -1.0;
    if (p->dir.x > 0) return p->hi[0] - o[0];
    if (p->dir.x < 0) return o[0] - p->lo[0];
    if (p->dir.y > 0) return p->hi[1] - o[1];
    return o[1] - p->lo[1];
}

typedef struct expect {
    bool hit;
    double t;
    double n[2];
} expect;

static expect oracle(const platform *p, ledge_query_one_way rule, const double o[2],
                     const double d[2]) {
    expect e = {false, 1.0, {0, 0}};
    if (rule == LEDGE_QUERY_ONE_WAY_NEVER) return e;
    double t, n[2];
    if (box_entry(p, o, d, &t, n)) {
        bool facing = n[0] * p->dir.x + n[1] * p->dir.y >= 0.5;
        if (rule == LEDGE_QUERY_ONE_WAY_ALWAYS || facing) {
            e.hit = true;
            e.t = t;
            e.n[0] = n[0];
            e.n[1] = n[1];
        }
        return e;
    }
    double depth = depth_behind(p, o);
    if (depth < 0.0) return e; // missed
    if (rule == LEDGE_QUERY_ONE_WAY_ALWAYS) {
        e.hit = true;
        e.t = 0.0;
        return e; // (the normal of a start inside: -d)
    }
    // Inside: on the platform when within the reach behind its face and
    // travelling against its direction.
    double against = -(d[0] * p->dir.x + d[1] * p->dir.y) / sqrt(d[0] * d[0] + d[1] * d[1]);
    double reach = 2.0 * p->slop;
    // The look behind the origin (reach along -d) must cross the face
    // itself, not a side: the face is within reach * against of it.
    if (against > 0.0 && depth <= reach * against) {
        double back[2] = {o[0] - d[0] / sqrt(d[0] * d[0] + d[1] * d[1]) * reach,
                          o[1] - d[1] / sqrt(d[0] * d[0] + d[1] * d[1]) * reach};
        double bd[2] = {o[0] - back[0], o[1] - back[1]}, bt, bn[2];
        if (box_entry(p, back, bd, &bt, bn) && bn[0] * p->dir.x + bn[1] * p->dir.y >= 0.5) {
            e.hit = true;
            e.t = 0.0;
            e.n[0] = p->dir.x;
            e.n[1] = p->dir.y;
        }
    }
    return e;
}

static ledge_query_filter rule_filter(ledge_query_one_way rule) {
    ledge_query_filter f = ledge_default_query_filter();
    f.one_way = rule;
    return f;
}

static int g_checked;

// One ray against the oracle, through ledge_world_raycast and
// ledge_world_raycast_all.
static void check_ray(const platform *p, ledge_query_one_way rule, vec2s o, vec2s d) {
    double od[2] = {o.x, o.y}, dd[2] = {d.x, d.y};
    expect e = oracle(p, rule, od, dd);
    ledge_query_filter f = rule_filter(rule);
    ledge_raycast_result r;
    bool hit = ledge_world_raycast(p->w, o, d, &f, &r);
    if (hit != e.hit || (hit && fabs(r.fraction - e.t) > 2e-6) ||
        (hit && (e.n[0] != 0 || e.n[1] != 0) && (r.normal.x != e.n[0] || r.normal.y != e.n[1]))) {
        fail_msg("%s, one-way %s, rule %d: ray (%g, %g) + (%g, %g): got %s at %g normal (%g, %g), "
                 "want %s at %g normal (%g, %g)",
                 p->body.index1 ? "body" : "tiles", g_way_names[p->way], (int)rule, (double)o.x,
                 (double)o.y, (double)d.x, (double)d.y, hit ? "a hit" : "no hit",
                 (double)r.fraction, (double)r.normal.x, (double)r.normal.y,
                 e.hit ? "a hit" : "no hit", e.t, e.n[0], e.n[1]);
    }
    if (hit) {
        assert_int_equal(r.kind, p->body.index1 ? LEDGE_HIT_BODY : LEDGE_HIT_TILE);
        if (p->body.index1) assert_true(LEDGE_ID_EQUALS(r.body, p->body));
    }
    g_checked++;
}

static float count_hit(const ledge_raycast_result *hit, void *ctx) {
    (void)hit;
    ++*(int *)ctx;
    return 1.0f;
}

// Rays from a grid of points around the platform (off the cell lines), in
// 16 directions a little off the axes and diagonals, and along the axes
// exactly: every rule, every direction.
static void sweep_rays(bool as_body) {
    log_capture_start();
    for (int wi = 0; wi < 4; ++wi) {
        platform p;
        make_platform(&p, g_ways[wi], as_body);
        for (int ri = 0; ri < 3; ++ri) {
            for (int gy = 0; gy < 13; ++gy) {
                for (int gx = 0; gx < 13; ++gx) {
                    vec2s o = v(6.37f + 0.9f * (float)gx, 6.61f + 0.9f * (float)gy);
                    for (int k = 0; k < 20; ++k) {
                        double a = k < 16 ? (double)k * 0.39269908 + 0.0645 : (k - 16) * 1.5707963;
                        vec2s d = k < 16 ? v((float)(6 * cos(a)), (float)(6 * sin(a)))
                                         : v(k == 16   ? 6.0f
                                             : k == 18 ? -6.0f
                                                       : 0.0f,
                                             k == 17   ? 6.0f
                                             : k == 19 ? -6.0f
                                                       : 0.0f);
                        check_ray(&p, g_rules[ri], o, d);
                        int n = 0;
                        ledge_query_filter f = rule_filter(g_rules[ri]);
                        double od[2] = {o.x, o.y}, dd[2] = {d.x, d.y};
                        assert_int_equal(ledge_world_raycast_all(p.w, o, d, &f, count_hit, &n),
                                         oracle(&p, g_rules[ri], od, dd).hit ? 1 : 0);
                    }
                }
            }
        }
        ledge_world_destroy(p.w);
    }
    assert_int_equal(g_log.count, 0);
    ledge_set_log_hook(NULL, NULL);
}

static void test_rays_at_one_way_tiles(void **state) {
    (void)state;
    sweep_rays(false);
}

static void test_rays_at_one_way_bodies(void **state) {
    (void)state;
    sweep_rays(true);
}

// Starts inside the platform, at depths around the reach (twice the slop)
// behind its face, travelling against its direction, along it, or away.
static void test_starts_inside(void **state) {
    (void)state;
    for (int body = 0; body < 2; ++body) {
        for (int wi = 0; wi < 4; ++wi) {
            platform p;
            make_platform(&p, g_ways[wi], body);
            vec2s side = v(-p.dir.y, p.dir.x);
            double face_x = p.dir.x > 0 ? p.hi[0] : p.dir.x < 0 ? p.lo[0] : 11.3;
            double face_y = p.dir.y > 0 ? p.hi[1] : p.dir.y < 0 ? p.lo[1] : 11.3;
            const float depths[] = {0.0f, 0.004f, 0.0099f, 0.0101f, 0.05f, 0.5f};
            for (int di = 0; di < 6; ++di) {
                vec2s o =
                    v((float)face_x - p.dir.x * depths[di], (float)face_y - p.dir.y * depths[di]);
                if (p.dir.x == 0) o.x = 11.3f;
                if (p.dir.y == 0) o.y = 11.3f;
                for (int k = 0; k < 7; ++k) { // from against the direction round to along it
                    double a = -1.3 + (double)k * 0.4333;
                    vec2s d = v((float)(3 * (-p.dir.x * cos(a) + side.x * sin(a))),
                                (float)(3 * (-p.dir.y * cos(a) + side.y * sin(a))));
                    for (int ri = 0; ri < 3; ++ri) check_ray(&p, g_rules[ri], o, d);
                    check_ray(&p, LEDGE_QUERY_ONE_WAY_AS_BODIES, o, v(-d.x, -d.y));
                }
            }
            // A ray down onto the platform's face from its surface hits at 0
            // with the face's normal; one rising from there passes.
            vec2s on = v((float)face_x, (float)face_y);
            if (p.dir.x == 0) on.x = 11.3f;
            if (p.dir.y == 0) on.y = 11.3f;
            ledge_raycast_result r;
            assert_true(ledge_world_raycast(p.w, on, v(-p.dir.x, -p.dir.y), NULL, &r));
            assert_true(r.fraction == 0.0f && r.normal.x == p.dir.x && r.normal.y == p.dir.y);
            assert_false(ledge_world_raycast(p.w, on, p.dir, NULL, &r));
            ledge_world_destroy(p.w);
        }
    }
}

// The y-down mirror: a world and its mirror image (y -> 24 - y, UP <-> DOWN)
// answer every ray alike, mirrored (rays that stay clear of the map's
// border, which is not its own mirror image).
static void test_mirror_y_down(void **state) {
    (void)state;
    for (int body = 0; body < 2; ++body) {
        for (int wi = 0; wi < 4; ++wi) {
            ledge_one_way way = g_ways[wi];
            ledge_one_way mirrored = way == LEDGE_ONE_WAY_UP     ? LEDGE_ONE_WAY_DOWN
                                     : way == LEDGE_ONE_WAY_DOWN ? LEDGE_ONE_WAY_UP
                                                                 : way;
            platform a, b;
            make_platform(&a, way, body);
            make_platform(&b, mirrored, body);
            // make_platform puts a row at y 12..13 and a column at 10..13:
            // each is its own mirror image about its middle.
            float axis = way == LEDGE_ONE_WAY_LEFT || way == LEDGE_ONE_WAY_RIGHT ? 11.5f : 12.5f;
            for (int k = 0; k < 400; ++k) {
                vec2s o = v(8.2f + 0.0225f * (float)(k * 37 % 400),
                            8.3f + 0.0224f * (float)(k * 53 % 400));
                double ang = (double)k * 0.7853981634 / 7.0 + 0.01;
                vec2s d = v((float)(4 * cos(ang)), (float)(4 * sin(ang)));
                vec2s om = v(o.x, 2 * axis - o.y), dm = v(d.x, -d.y);
                ledge_raycast_result ra, rb;
                bool ha = ledge_world_raycast(a.w, o, d, NULL, &ra);
                bool hb = ledge_world_raycast(b.w, om, dm, NULL, &rb);
                if (ha != hb)
                    fail_msg("%s %s: (%g, %g) + (%g, %g): %d, mirrored (%g, %g) + (%g, %g): %d",
                             body ? "body" : "tiles", g_way_names[way], (double)o.x, (double)o.y,
                             (double)d.x, (double)d.y, ha, (double)om.x, (double)om.y, (double)dm.x,
                             (double)dm.y, hb);
                if (ha) {
                    assert_true(fabsf(ra.fraction - rb.fraction) < 2e-6f);
                    assert_true(ra.normal.x == rb.normal.x && ra.normal.y == -rb.normal.y);
                }
            }
            ledge_world_destroy(a.w);
            ledge_world_destroy(b.w);
        }
    }
}

// Bodies that are not boxes: a circle's cap (normals within 60 degrees of
// the direction) holds a ray, the rest of it does not.
static void test_circle_body_cap(void **state) {
    (void)state;
    for (int wi = 0; wi < 4; ++wi) {
        ledge_world *w = empty_world();
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_KINEMATIC;
        bd.one_way = g_ways[wi];
        bd.shape = ledge_make_circle(v(0, 0), 1.0f);
        bd.position = v(12, 12);
        ledge_body_id id = ledge_body_create(w, &bd);
        vec2s dir = ledge_one_way_direction(g_ways[wi]), side = v(-dir.y, dir.x);
        for (int k = 0; k < 41; ++k) {
            // Rays toward the centre from every side, 3 away.
            double a = (double)k * 6.283185307 / 41.0;
            vec2s n = v((float)(cos(a) * dir.x + sin(a) * side.x),
                        (float)(cos(a) * dir.y + sin(a) * side.y));
            vec2s o = v(12 + 3 * n.x, 12 + 3 * n.y);
            ledge_raycast_result r;
            bool hit = ledge_world_raycast(w, o, v(-4 * n.x, -4 * n.y), NULL, &r);
            assert_int_equal(hit, cos(a) >= 0.5 + 1e-6 || (cos(a) > 0.5 - 1e-6 && hit));
            if (hit) assert_true(LEDGE_ID_EQUALS(r.body, id) && fabsf(r.fraction - 0.5f) < 1e-5f);
        }
        ledge_world_destroy(w);
    }
}

// Slopes: a one-way 45 degree slope holds a ray falling onto it (its normal
// is 45 degrees from up); a 63 degree one (the steep 22/67 tiles, 63.4
// degrees from up) does not, as it holds no body.
static void test_sloped_one_way_tiles(void **state) {
    (void)state;
    ledge_world *w = empty_world();
    ledge_tilemap *m = ledge_world_tilemap(w);
    assert_true(ledge_tilemap_set(m, 5, 5, LEDGE_TILE_45DEG_PP));
    assert_true(ledge_tilemap_set_one_way(m, 5, 5, LEDGE_ONE_WAY_UP));
    assert_true(ledge_tilemap_set(m, 15, 5, LEDGE_TILE_67DEG_BIG_PP));
    assert_true(ledge_tilemap_set_one_way(m, 15, 5, LEDGE_ONE_WAY_UP));
    vec2s n45 = ledge_tile_normal(LEDGE_TILE_45DEG_PP),
          n67 = ledge_tile_normal(LEDGE_TILE_67DEG_BIG_PP);
    assert_true(n45.y > 0.5f && n67.y > 0.0f && n67.y < 0.5f);
    ledge_raycast_result r;
    assert_true(ledge_world_raycast(w, v(5.5f, 8), v(0, -4), NULL, &r));
    assert_true(r.cell_x == 5 && r.cell_y == 5 && fabsf(r.normal.x - n45.x) < 1e-6f);
    assert_false(ledge_world_raycast(w, v(5.5f, 3), v(0, 4), NULL, &r));    // from below: passes
    assert_false(ledge_world_raycast(w, v(15.75f, 8), v(0, -4), NULL, &r)); // too steep
    ledge_query_filter always = rule_filter(LEDGE_QUERY_ONE_WAY_ALWAYS);
    assert_true(ledge_world_raycast(w, v(15.75f, 8), v(0, -4), &always, &r));
    assert_true(fabsf(r.normal.x - n67.x) < 1e-6f);
    ledge_world_destroy(w);
}

// A block of one-way cells two high is one platform: a ray from inside its
// upper row going down passes the lower row too (the side between them is
// no surface); a ray from above stops on the top; raycast_all reports the
// tilemap once.
static void test_thick_one_way_block(void **state) {
    (void)state;
    ledge_world *w = empty_world();
    ledge_tilemap *m = ledge_world_tilemap(w);
    for (int y = 8; y <= 9; ++y) {
        for (int x = 8; x <= 10; ++x) {
            assert_true(ledge_tilemap_set(m, x, y, LEDGE_TILE_FULL));
            assert_true(ledge_tilemap_set_one_way(m, x, y, LEDGE_ONE_WAY_UP));
        }
    }
    ledge_raycast_result r;
    assert_false(ledge_world_raycast(w, v(9.3f, 9.5f), v(0.2f, -5), NULL, &r));
    assert_true(ledge_world_raycast(w, v(9.3f, 12), v(0.2f, -5), NULL, &r));
    assert_true(r.cell_y == 9 && fabsf(r.point.y - 10.0f) < 1e-6f && r.normal.y == 1.0f);
    // Two platforms apart: a falling ray meets the upper one; from between
    // them it meets the lower one.
    for (int x = 8; x <= 10; ++x) {
        assert_true(ledge_tilemap_set(m, x, 4, LEDGE_TILE_FULL));
        assert_true(ledge_tilemap_set_one_way(m, x, 4, LEDGE_ONE_WAY_UP));
    }
    assert_true(ledge_world_raycast(w, v(9.3f, 7), v(0, -5), NULL, &r));
    assert_true(r.cell_y == 4 && r.normal.y == 1.0f);
    int n = 0;
    assert_int_equal(ledge_world_raycast_all(w, v(9.3f, 12), v(0, -10), NULL, count_hit, &n), 1);
    ledge_world_destroy(w);
}

// Two one-way bodies stacked: a falling ray's raycast_all enters both
// through their tops; a rising one neither.
static void test_stacked_one_way_bodies(void **state) {
    (void)state;
    ledge_world *w = empty_world();
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_STATIC;
    bd.one_way = LEDGE_ONE_WAY_UP;
    bd.shape = ledge_make_box(v(0, 0), v(2, 0.25f));
    bd.position = v(12, 10);
    ledge_body_create(w, &bd);
    bd.position = v(12, 6);
    ledge_body_create(w, &bd);
    int n = 0;
    assert_int_equal(ledge_world_raycast_all(w, v(12.3f, 14), v(0, -12), NULL, count_hit, &n), 2);
    n = 0;
    assert_int_equal(ledge_world_raycast_all(w, v(12.3f, 2), v(0, 12), NULL, count_hit, &n), 0);
    ledge_query_filter always = rule_filter(LEDGE_QUERY_ONE_WAY_ALWAYS);
    n = 0;
    assert_int_equal(ledge_world_raycast_all(w, v(12.3f, 2), v(0, 12), &always, count_hit, &n), 2);
    ledge_world_destroy(w);
}

// Shape casts follow the rule: a box falling onto the platform stops on it,
// one rising through it or moving along it passes, one resting on it (the
// slop deep) is on it at fraction 0, one deep inside passes; every
// direction, tiles and bodies, against ALWAYS and NEVER.
static void test_shape_casts(void **state) {
    (void)state;
    ledge_shape box = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
    for (int body = 0; body < 2; ++body) {
        for (int wi = 0; wi < 4; ++wi) {
            platform p;
            make_platform(&p, g_ways[wi], body);
            vec2s dir = p.dir, side = v(-dir.y, dir.x);
            vec2s c = v((float)(p.lo[0] + p.hi[0]) / 2, (float)(p.lo[1] + p.hi[1]) / 2);
            // The face's centre: c + 0.5 dir (the platform is 1 thick).
            vec2s face = v(c.x + 0.5f * dir.x, c.y + 0.5f * dir.y);
            vec2s above =
                v(face.x + 2.3f * dir.x + 0.2f * side.x, face.y + 2.3f * dir.y + 0.2f * side.y);
            vec2s fall = v(-4 * dir.x, -4 * dir.y);
            ledge_raycast_result r;
            for (int ri = 0; ri < 3; ++ri) {
                ledge_query_filter f = rule_filter(g_rules[ri]);
                bool want = g_rules[ri] != LEDGE_QUERY_ONE_WAY_NEVER;
                assert_int_equal(ledge_world_shape_cast(p.w, &box, above, fall, &f, &r), want);
                if (want) {
                    assert_true(fabsf(r.fraction - 2.0f / 4.0f) < 1e-5f);
                    assert_true(fabsf(r.normal.x - dir.x) < 1e-6f &&
                                fabsf(r.normal.y - dir.y) < 1e-6f);
                }
                // From the other side, rising through it.
                vec2s below =
                    v(c.x - 2.8f * dir.x + 0.2f * side.x, c.y - 2.8f * dir.y + 0.2f * side.y);
                assert_int_equal(
                    ledge_world_shape_cast(p.w, &box, below, v(-fall.x, -fall.y), &f, &r),
                    g_rules[ri] == LEDGE_QUERY_ONE_WAY_ALWAYS);
                // Along it, through its length, at its middle.
                vec2s start = v(c.x - 3.0f * side.x, c.y - 3.0f * side.y);
                assert_int_equal(
                    ledge_world_shape_cast(p.w, &box, start, v(6 * side.x, 6 * side.y), &f, &r),
                    g_rules[ri] == LEDGE_QUERY_ONE_WAY_ALWAYS);
                // Resting on it, the slop deep, and moving along: on it at 0.
                vec2s rest = v(face.x + (0.3f - p.slop) * dir.x, face.y + (0.3f - p.slop) * dir.y);
                assert_int_equal(ledge_world_shape_cast(p.w, &box, rest,
                                                        v(0.5f * side.x, 0.5f * side.y), &f, &r),
                                 want);
                if (want) assert_true(r.fraction == 0.0f);
                if (want && g_rules[ri] == LEDGE_QUERY_ONE_WAY_AS_BODIES)
                    assert_true(fabsf(r.normal.x - dir.x) < 1e-6f &&
                                fabsf(r.normal.y - dir.y) < 1e-6f);
                // Deep inside (0.2 behind the face), falling on: passes.
                vec2s deep = v(face.x + (0.3f - 0.2f) * dir.x, face.y + (0.3f - 0.2f) * dir.y);
                assert_int_equal(ledge_world_shape_cast(p.w, &box, deep, fall, &f, &r),
                                 g_rules[ri] == LEDGE_QUERY_ONE_WAY_ALWAYS);
            }
            ledge_world_destroy(p.w);
        }
    }
}

// ledge_world_nearest: a point on the allowed side finds the platform, one
// behind it does not (but for ALWAYS), NEVER never does.
static void test_nearest(void **state) {
    (void)state;
    for (int body = 0; body < 2; ++body) {
        for (int wi = 0; wi < 4; ++wi) {
            platform p;
            make_platform(&p, g_ways[wi], body);
            vec2s dir = p.dir;
            vec2s c = v((float)(p.lo[0] + p.hi[0]) / 2, (float)(p.lo[1] + p.hi[1]) / 2);
            vec2s front = v(c.x + 1.5f * dir.x, c.y + 1.5f * dir.y);
            vec2s back = v(c.x - 1.5f * dir.x, c.y - 1.5f * dir.y);
            vec2s inside = v(c.x + 0.3f * dir.x, c.y + 0.3f * dir.y); // 0.2 behind the face
            for (int ri = 0; ri < 3; ++ri) {
                ledge_query_filter f = rule_filter(g_rules[ri]);
                ledge_nearest_result r;
                bool never = g_rules[ri] == LEDGE_QUERY_ONE_WAY_NEVER;
                bool always = g_rules[ri] == LEDGE_QUERY_ONE_WAY_ALWAYS;
                assert_int_equal(ledge_world_nearest_point(p.w, front, 3.0f, &f, &r), !never);
                if (!never) {
                    assert_true(fabsf(r.distance.distance - 1.0f) < 1e-5f);
                    assert_int_equal(r.kind, body ? LEDGE_HIT_BODY : LEDGE_HIT_TILE);
                }
                assert_int_equal(ledge_world_nearest_point(p.w, back, 3.0f, &f, &r), always);
                assert_int_equal(ledge_world_nearest_point(p.w, inside, 3.0f, &f, &r), always);
            }
            ledge_world_destroy(p.w);
        }
    }
}

// A bad rule is refused with a message by every query that takes a filter.
static void test_refused_rule(void **state) {
    (void)state;
    platform p;
    make_platform(&p, LEDGE_ONE_WAY_UP, false);
    ledge_query_filter f = ledge_default_query_filter();
    f.one_way = (ledge_query_one_way)7;
    ledge_raycast_result r;
    ledge_nearest_result nr;
    ledge_shape box = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
    int n = 0;
    log_capture_start();
    assert_false(ledge_world_raycast(p.w, v(11, 16), v(0, -8), &f, &r));
    assert_true(log_capture_says("ledge_world_raycast", "filter->one_way is 7"));
    log_capture_start();
    assert_int_equal(ledge_world_raycast_all(p.w, v(11, 16), v(0, -8), &f, count_hit, &n), -1);
    assert_true(log_capture_says("ledge_world_raycast_all", "filter->one_way is 7"));
    log_capture_start();
    assert_false(ledge_world_shape_cast(p.w, &box, v(11, 16), v(0, -8), &f, &r));
    assert_true(log_capture_says("ledge_world_shape_cast", "filter->one_way is 7"));
    log_capture_start();
    assert_false(ledge_world_nearest_point(p.w, v(11, 16), 4.0f, &f, &nr));
    assert_true(log_capture_says("ledge_world_nearest_point", "filter->one_way is 7"));
    assert_true(nr.kind == LEDGE_HIT_NONE);
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(p.w);
}

// What the sweeps checked, printed (so a run shows the matrix was walked).
static void test_count(void **state) {
    (void)state;
    printf("%d rays checked against the oracle\n", g_checked);
    assert_true(g_checked > 40000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rays_at_one_way_tiles), cmocka_unit_test(test_rays_at_one_way_bodies),
        cmocka_unit_test(test_starts_inside),         cmocka_unit_test(test_mirror_y_down),
        cmocka_unit_test(test_circle_body_cap),       cmocka_unit_test(test_sloped_one_way_tiles),
        cmocka_unit_test(test_thick_one_way_block),   cmocka_unit_test(test_stacked_one_way_bodies),
        cmocka_unit_test(test_shape_casts),           cmocka_unit_test(test_nearest),
        cmocka_unit_test(test_refused_rule),          cmocka_unit_test(test_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
