// Debug draw (draw.h): a recording debug-draw counts the callbacks and
// checks what each draws against the world: every non-empty cell in the
// region once (as ledge_tilemap_query_region lists them), every body whose
// box meets the region once with its type's colour, nothing outside the
// region, contact points where the bodies rest, and materials: cells with
// their own outlined apart, belts' arrows the way they carry.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"
#include "rng.h"

#include <math.h>
#include <string.h>

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

enum { MAX_RECORDS = 4096 };

typedef struct shape_rec {
    ledge_aabb box; ///< Bounds of what was drawn.
    ledge_color color;
    int count;
} shape_rec;

typedef struct recorder {
    shape_rec outlines[MAX_RECORDS], solids[MAX_RECORDS], circles[MAX_RECORDS];
    vec2s points[MAX_RECORDS], seg_a[MAX_RECORDS], seg_b[MAX_RECORDS];
    vec2s belt_a[MAX_RECORDS], belt_b[MAX_RECORDS]; ///< Belts' arrows' segments.
    int n_outlines, n_solids, n_circles, n_points, n_segments, n_belts, n_other;
} recorder;

static ledge_aabb bounds_of(const vec2s *p, int n) {
    ledge_aabb b = {p[0], p[0]};
    for (int k = 1; k < n; ++k) {
        b.lower = v(fminf(b.lower.x, p[k].x), fminf(b.lower.y, p[k].y));
        b.upper = v(fmaxf(b.upper.x, p[k].x), fmaxf(b.upper.y, p[k].y));
    }
    return b;
}

static void rec_polygon(const vec2s *p, int n, ledge_color c, void *ctx) {
    recorder *r = ctx;
    assert_true(n >= 3 && r->n_outlines < MAX_RECORDS);
    r->outlines[r->n_outlines++] = (shape_rec){bounds_of(p, n), c, n};
}
static void rec_solid(const vec2s *p, int n, ledge_color c, void *ctx) {
    recorder *r = ctx;
    assert_true(n >= 3 && r->n_solids < MAX_RECORDS);
    r->solids[r->n_solids++] = (shape_rec){bounds_of(p, n), c, n};
}
static void rec_circle(vec2s c, float radius, ledge_color color, void *ctx) {
    (void)c, (void)radius, (void)color;
    ((recorder *)ctx)->n_other++;
}
static void rec_solid_circle(vec2s c, float radius, ledge_color color, void *ctx) {
    recorder *r = ctx;
    ledge_aabb b = {v(c.x - radius, c.y - radius), v(c.x + radius, c.y + radius)};
    r->circles[r->n_circles++] = (shape_rec){b, color, 0};
}
static void rec_segment(vec2s a, vec2s b, ledge_color c, void *ctx) {
    recorder *r = ctx;
    if (c == LEDGE_COLOR_BELT) {
        r->belt_a[r->n_belts] = a;
        r->belt_b[r->n_belts++] = b;
        return;
    }
    assert_int_equal(c, LEDGE_COLOR_NORMAL);
    r->seg_a[r->n_segments] = a;
    r->seg_b[r->n_segments++] = b;
}
static void rec_point(vec2s p, float size, ledge_color c, void *ctx) {
    recorder *r = ctx;
    assert_true(size > 0.0f);
    assert_int_equal(c, LEDGE_COLOR_CONTACT);
    r->points[r->n_points++] = p;
}

static ledge_debug_draw recording(recorder *r) {
    memset(r, 0, sizeof *r);
    ledge_debug_draw d = ledge_default_debug_draw();
    d.draw_polygon = rec_polygon;
    d.draw_solid_polygon = rec_solid;
    d.draw_circle = rec_circle;
    d.draw_solid_circle = rec_solid_circle;
    d.draw_segment = rec_segment;
    d.draw_point = rec_point;
    d.context = r;
    return d;
}

static bool overlaps(ledge_aabb a, ledge_aabb b, float eps) {
    return a.lower.x <= b.upper.x + eps && a.upper.x >= b.lower.x - eps &&
           a.lower.y <= b.upper.y + eps && a.upper.y >= b.lower.y - eps;
}

static ledge_color want_color(ledge_body_type t, bool bullet) {
    if (t == LEDGE_BODY_STATIC) return LEDGE_COLOR_STATIC;
    if (t == LEDGE_BODY_KINEMATIC) return LEDGE_COLOR_KINEMATIC;
    return bullet ? LEDGE_COLOR_BULLET : LEDGE_COLOR_DYNAMIC;
}

static recorder g_rec;

// Random maps and bodies; random regions. Tiles: one outline per listed
// cell, in row-major order, inside its cell. Bodies: one per body whose box
// meets the region, with its colour, where the body is.
static void test_draws_what_is_in_the_region(void **state) {
    (void)state;
    g_rng = 0xd4a3;
    long tiles = 0, bodies = 0;
    for (int wi = 0; wi < 200; ++wi) {
        ledge_world_def wd = ledge_default_world_def();
        wd.map_width = rng_int(2, 24);
        wd.map_height = rng_int(2, 24);
        wd.tile_size = (rng_next() & 1) ? 1.0f : 0.5f;
        ledge_world *w = ledge_world_create(&wd);
        ledge_tilemap *map = ledge_world_tilemap(w);
        for (int y = 0; y < wd.map_height; ++y) {
            for (int x = 0; x < wd.map_width; ++x) {
                if (rng_unit() < 0.4) ledge_tilemap_set(map, x, y, (ledge_tile)rng_int(1, 33));
            }
        }
        float W = wd.map_width * wd.tile_size, H = wd.map_height * wd.tile_size;
        int nb = rng_int(0, 40);
        ledge_body_id ids[40];
        bool bullet[40];
        for (int k = 0; k < nb; ++k) {
            ledge_body_def bd = ledge_default_body_def();
            bd.type = (ledge_body_type)rng_int(0, 2);
            bd.bullet = bullet[k] = rng_unit() < 0.2;
            float r = rng_range(0.1, 1.0);
            bd.shape = rng_next() & 1 ? ledge_make_circle(v(0, 0), r)
                                      : ledge_make_box(v(0, 0), v(r, r * 0.5f));
            float x = rng_range(0, W), y = rng_range(0, H);
            bd.position = v(x, y);
            ids[k] = ledge_body_create(w, &bd);
        }
        float x0 = rng_range(-2, W + 2), y0 = rng_range(-2, H + 2);
        float x1 = x0 + rng_range(0, W), y1 = y0 + rng_range(0, H);
        ledge_aabb region = {v(x0, y0), v(x1, y1)};
        ledge_debug_draw d = recording(&g_rec);
        ledge_world_draw(w, &d, region);
        // Tiles.
        ledge_tile_hit cells[24 * 24];
        int nc = ledge_tilemap_query_region(map, region, cells, 24 * 24);
        assert_int_equal(g_rec.n_outlines, nc);
        for (int k = 0; k < nc; ++k) {
            shape_rec *s = &g_rec.outlines[k];
            assert_int_equal(s->color, LEDGE_COLOR_TILE);
            ledge_aabb cell = {v(cells[k].x * wd.tile_size, cells[k].y * wd.tile_size),
                               v((cells[k].x + 1) * wd.tile_size, (cells[k].y + 1) * wd.tile_size)};
            float e = 1e-4f;
            assert_true(s->box.lower.x >= cell.lower.x - e && s->box.upper.x <= cell.upper.x + e);
            assert_true(s->box.lower.y >= cell.lower.y - e && s->box.upper.y <= cell.upper.y + e);
            assert_true(overlaps(cell, region, 0.0f)); // nothing drawn outside the region
            ledge_tile_group g = ledge_tile_group_of(cells[k].tile);
            bool round = g == LEDGE_TILE_GROUP_CONVEX || g == LEDGE_TILE_GROUP_CONCAVE;
            if (round) assert_true(s->count > 4); // the arc is flattened
        }
        tiles += nc;
        // Bodies: circles through solid circles, boxes through solid polygons.
        int want_circles = 0, want_solids = 0, ci = 0, si = 0;
        for (int k = 0; k < nb; ++k) {
            const ledge_shape *s = ledge_body_shape(w, ids[k]);
            ledge_aabb b = ledge_shape_aabb(s, ledge_body_position(w, ids[k]));
            if (!overlaps(b, region, 0.0f)) continue;
            ledge_color c = want_color(ledge_body_get_type(w, ids[k]), bullet[k]);
            shape_rec *got =
                s->type == LEDGE_SHAPE_CIRCLE ? &g_rec.circles[ci++] : &g_rec.solids[si++];
            want_circles += s->type == LEDGE_SHAPE_CIRCLE;
            want_solids += s->type != LEDGE_SHAPE_CIRCLE;
            assert_int_equal(got->color, c);
            assert_float_equal(got->box.lower.x, b.lower.x, 1e-4);
            assert_float_equal(got->box.upper.y, b.upper.y, 1e-4);
        }
        assert_int_equal(g_rec.n_circles, want_circles);
        assert_int_equal(g_rec.n_solids, want_solids);
        assert_int_equal(g_rec.n_other, 0);
        assert_int_equal(g_rec.n_points, 0); // not stepped: no contacts
        bodies += want_circles + want_solids;
        ledge_world_destroy(w);
    }
    print_message("%ld tiles and %ld bodies drawn as expected\n", tiles, bodies);
    assert_true(tiles > 1000 && bodies > 300);
}

// A ball and a box resting on a floor: their contact points lie on the
// floor under them (the ball's under its centre, the box's under its
// bottom face, one per floor cell it touches), and the normals point up.
static void test_contacts_and_flags(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 16;
    wd.map_height = 8;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 16; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.5f);
    bd.position = v(4, 1.6f);
    ledge_body_create(w, &bd);
    bd.shape = ledge_make_box(v(0, 0), v(0.5f, 0.25f));
    bd.position = v(10, 1.4f);
    ledge_body_create(w, &bd);
    for (int k = 0; k < 60; ++k) ledge_world_step(w, 1.0f / 60.0f);
    ledge_aabb all = {v(0, 0), v(16, 8)};
    ledge_debug_draw d = recording(&g_rec);
    ledge_world_draw(w, &d, all);
    assert_int_equal(g_rec.n_outlines, 16);
    // One contact per floor cell a body touches (tiles resolve cell by cell).
    assert_true(g_rec.n_points >= 2);
    assert_int_equal(g_rec.n_segments, g_rec.n_points);
    int under_ball = 0, under_box = 0;
    for (int k = 0; k < g_rec.n_points; ++k) {
        vec2s p = g_rec.points[k];
        assert_float_equal(p.y, 1.0f, 0.01);
        under_ball += fabsf(p.x - 4.0f) < 1e-3f;
        under_box += fabsf(p.x - 10.0f) <= 0.5f;
        assert_float_equal(g_rec.seg_b[k].y - g_rec.seg_a[k].y, d.normal_length, 1e-4);
    }
    assert_true(under_ball >= 1 && under_box >= 1);
    assert_int_equal(under_ball + under_box, g_rec.n_points);
    int all_points = g_rec.n_points;
    // A region that excludes the ball's contact draws only the box's.
    ledge_aabb right = {v(8, 0), v(16, 8)};
    d = recording(&g_rec);
    ledge_world_draw(w, &d, right);
    assert_int_equal(g_rec.n_points, under_box);
    assert_int_equal(g_rec.n_circles, 0);
    assert_int_equal(g_rec.n_solids, 1);
    assert_int_equal(g_rec.n_outlines, 8); // cells 8..15 (floor division, as query_region)
    // Flags: nothing but bounds (two bodies and the map border).
    d = recording(&g_rec);
    d.draw_tiles = d.draw_bodies = d.draw_contacts = false;
    d.draw_bounds = true;
    ledge_world_draw(w, &d, all);
    assert_int_equal(g_rec.n_outlines, 3);
    assert_int_equal(g_rec.n_solids + g_rec.n_circles + g_rec.n_points, 0);
    assert_int_equal(g_rec.outlines[2].color, LEDGE_COLOR_BOUNDS);
    // Normals off: points but no segments. NULL callbacks are skipped.
    d = recording(&g_rec);
    d.draw_normals = false;
    d.draw_polygon = NULL;
    ledge_world_draw(w, &d, all);
    assert_int_equal(g_rec.n_points, all_points);
    assert_int_equal(g_rec.n_segments + g_rec.n_outlines, 0);
    ledge_world_destroy(w);
}

static void test_refusals(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    ledge_debug_draw d = recording(&g_rec);
    ledge_aabb ok = {v(0, 0), v(4, 4)}, bad = {v(4, 0), v(0, 4)}, nan = {v(NAN, 0), v(1, 1)};
    log_capture_start();
    ledge_world_draw(NULL, &d, ok);
    assert_true(log_capture_says("ledge_world_draw", "world is NULL"));
    ledge_world_draw(w, NULL, ok);
    assert_true(log_capture_says("ledge_world_draw", "draw is NULL"));
    ledge_world_draw(w, &d, bad);
    assert_true(log_capture_says("ledge_world_draw", "region"));
    ledge_world_draw(w, &d, nan);
    assert_true(log_capture_says("ledge_world_draw", "region"));
    d.normal_length = -1.0f;
    ledge_world_draw(w, &d, ok);
    assert_true(log_capture_says("ledge_world_draw", "normal_length"));
    assert_int_equal(g_rec.n_outlines + g_rec.n_solids + g_rec.n_points, 0);
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// Materials: the cells with a material of their own outlined in
// LEDGE_COLOR_MATERIAL, the others in LEDGE_COLOR_TILE; a belt's arrow
// (three segments) on each of its surfaces that is not a seam, pointing the
// way it carries; a belt body's on each edge; nothing with draw_materials
// off.
static void test_materials(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 16;
    wd.map_height = 8;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 16; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    ledge_tilemap_set(map, 10, 1, LEDGE_TILE_FULL); // a block: four surfaces
    ledge_material belt = ledge_default_material(), ice = ledge_default_material();
    belt.surface_speed = 1.0f;
    ice.friction = 0.0f;
    for (int x = 3; x <= 5; ++x) ledge_tilemap_set_cell_material(map, x, 0, &belt);
    ledge_tilemap_set_cell_material(map, 7, 0, &ice);
    belt.surface_speed = -2.0f;
    ledge_tilemap_set_cell_material(map, 10, 1, &belt);
    ledge_aabb region = {v(0, 0), v(16, 8)};
    for (int on = 0; on < 2; ++on) {
        ledge_debug_draw d = recording(&g_rec);
        d.draw_materials = on;
        ledge_world_draw(w, &d, region);
        int own = 0;
        for (int k = 0; k < g_rec.n_outlines; ++k) {
            const shape_rec *o = &g_rec.outlines[k];
            int x = (int)floorf(o->box.lower.x + 0.5f), y = (int)floorf(o->box.lower.y + 0.5f);
            bool has = ledge_tilemap_cell_has_material(map, x, y);
            assert_int_equal(o->color, on && has ? LEDGE_COLOR_MATERIAL : LEDGE_COLOR_TILE);
            own += o->color == LEDGE_COLOR_MATERIAL;
        }
        assert_int_equal(own, on ? 5 : 0);
        // The floor's belt cells: their tops (their sides are seams, their
        // bottoms the map's border); the block: its four sides but the
        // bottom, a seam with the floor.
        assert_int_equal(g_rec.n_belts, on ? 3 * (3 + 3) : 0);
        for (int k = 0; on && k < g_rec.n_belts; k += 3) {
            vec2s a = g_rec.belt_a[k], tip = g_rec.belt_b[k];
            vec2s dir = v(tip.x - a.x, tip.y - a.y);
            if (a.y < 1.01f && a.y > 0.99f && tip.y < 1.01f) { // a floor cell's top: +x
                assert_true(dir.x > 0.4f && fabsf(dir.y) < 1e-6f);
            } else if (a.y > 1.99f) { // the block's top at -2: toward -x
                assert_true(dir.x < -0.4f && fabsf(dir.y) < 1e-6f);
            } else { // its sides: left face down, right face up (clockwise, reversed)
                bool left = a.x < 10.5f;
                assert_true(fabsf(dir.x) < 1e-6f && (left ? dir.y < -0.4f : dir.y > 0.4f));
            }
        }
    }
    // A belt body: an arrow on each of its four edges.
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_STATIC;
    bd.shape = ledge_make_box(v(0, 0), v(1.0f, 0.25f));
    bd.position = v(13.0f, 4.0f);
    bd.surface_speed = 0.5f;
    ledge_body_create(w, &bd);
    ledge_debug_draw d = recording(&g_rec);
    ledge_world_draw(w, &d, (ledge_aabb){v(11, 3), v(15, 5)});
    assert_int_equal(g_rec.n_belts, 3 * 4);
    ledge_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draws_what_is_in_the_region),
        cmocka_unit_test(test_contacts_and_flags),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_materials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
