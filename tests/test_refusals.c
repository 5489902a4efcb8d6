// Every refusal of the public API in one table (docs/robustness.md is made
// from it: `test_refusals --markdown` prints the table with the messages
// ledge really sends). Each row makes one bad call and checks that it
// returns its documented error value and sends exactly one error sentence
// naming the function and the argument; then that a world that saw every
// world row still steps.
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
#include <threads.h>

static ledge_world *g_world;
static ledge_tilemap *g_map;
static ledge_body_id g_body, g_dead;
static ledge_shape g_circle;

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static bool null_manifold(ledge_manifold m) {
    return !m.hit && m.depth == 0.0f;
}

// --- the rows: each returns whether the call gave its documented error ------

#define ROW(name) static bool name(void)
ROW(circle_radius) {
    return ledge_make_circle(v(0, 0), -1.0f).type == LEDGE_SHAPE_INVALID;
}
ROW(circle_nan) {
    return ledge_make_circle(v(NAN, 0), 1.0f).type == LEDGE_SHAPE_INVALID;
}
ROW(circle_huge) {
    return ledge_make_circle(v(0, 0), 2e6f).type == LEDGE_SHAPE_INVALID;
}
ROW(box_half) {
    return ledge_make_box(v(0, 0), v(1, 0)).type == LEDGE_SHAPE_INVALID;
}
ROW(box_corner) {
    return ledge_make_box(v(0, 8e5f), v(1, 8e5f)).type == LEDGE_SHAPE_INVALID;
}
ROW(poly_null_out) {
    vec2s p[3] = {{{0, 0}}, {{1, 0}}, {{0, 1}}};
    return !ledge_make_polygon(p, 3, NULL);
}
ROW(poly_null_points) {
    ledge_shape s;
    return !ledge_make_polygon(NULL, 3, &s) && s.type == LEDGE_SHAPE_INVALID;
}
ROW(poly_count) {
    vec2s p[9] = {{{0}}};
    ledge_shape s;
    return !ledge_make_polygon(p, 9, &s);
}
ROW(poly_inf) {
    vec2s p[3] = {{{0, 0}}, {{INFINITY, 0}}, {{0, 1}}};
    ledge_shape s;
    return !ledge_make_polygon(p, 3, &s);
}
ROW(poly_duplicate) {
    vec2s p[3] = {{{0, 0}}, {{0, 0}}, {{0, 1}}};
    ledge_shape s;
    return !ledge_make_polygon(p, 3, &s);
}
ROW(poly_collinear) {
    vec2s p[3] = {{{0, 0}}, {{1, 1}}, {{2, 2}}};
    ledge_shape s;
    return !ledge_make_polygon(p, 3, &s);
}
ROW(poly_concave) {
    vec2s p[4] = {{{0, 0}}, {{2, 0}}, {{0.5f, 0.5f}}, {{0, 2}}};
    ledge_shape s;
    return !ledge_make_polygon(p, 4, &s);
}
ROW(poly_star) {
    vec2s p[5];
    for (int i = 0; i < 5; ++i) {
        p[i] = v((float)cos(i * 4.0 * 3.14159265 / 5.0), (float)sin(i * 4.0 * 3.14159265 / 5.0));
    }
    ledge_shape s;
    return !ledge_make_polygon(p, 5, &s);
}
ROW(aabb_invalid) {
    ledge_aabb b = ledge_shape_aabb(NULL, v(1, 2));
    return b.lower.x == 1.0f && b.upper.y == 2.0f;
}
ROW(area_invalid) {
    return ledge_shape_area(NULL) == 0.0f;
}
ROW(collide_invalid) {
    ledge_shape bad = ledge_default_body_def().shape;
    return null_manifold(ledge_collide(&bad, v(0, 0), &g_circle, v(0, 0)));
}
ROW(collide_pos) {
    return null_manifold(ledge_collide(&g_circle, v(NAN, 0), &g_circle, v(0, 0)));
}
ROW(contains_point) {
    return !ledge_shape_contains(&g_circle, v(0, 0), v(INFINITY, 0));
}
ROW(raycast_null) {
    return !ledge_shape_raycast(NULL, v(0, 0), v(0, 0), v(1, 0), NULL);
}
ROW(raycast_translation) {
    return !ledge_shape_raycast(&g_circle, v(0, 0), v(5, 0), v(NAN, 0), NULL);
}
ROW(sweep_circles_radius) {
    return !ledge_sweep_circles(v(0, 0), 0.0f, v(1, 0), v(3, 0), 1.0f, v(0, 0), NULL);
}
ROW(sweep_boxes_move) {
    return !ledge_sweep_boxes(v(0, 0), v(1, 1), v(INFINITY, 0), v(3, 0), v(1, 1), v(0, 0), NULL);
}
ROW(sweep_null) {
    return !ledge_sweep(NULL, v(0, 0), v(1, 0), &g_circle, v(3, 0), v(0, 0), NULL);
}
ROW(decompose_count) {
    vec2s p[2] = {{{0, 0}}, {{1, 0}}};
    ledge_shape out[4];
    return ledge_decompose(p, 2, out, 4) == -1;
}
ROW(decompose_cross) {
    vec2s p[4] = {{{0, 0}}, {{2, 2}}, {{2, 0}}, {{0, 2}}};
    ledge_shape out[4];
    return ledge_decompose(p, 4, out, 4) == -1;
}
ROW(decompose_room) {
    vec2s p[6] = {{{0, 0}}, {{3, 0}}, {{3, 1}}, {{1, 1}}, {{1, 3}}, {{0, 3}}};
    ledge_shape out[1];
    return ledge_decompose(p, 6, out, 1) == -1;
}
ROW(tile_outline_id) {
    ledge_tile_outline o;
    return !ledge_tile_outline_get(40, v(0, 0), 1.0f, &o);
}
ROW(tile_cover_side) {
    return ledge_tile_cover(LEDGE_TILE_FULL, (ledge_side)3) == LEDGE_COVER_NONE;
}
ROW(tile_contains_size) {
    return !ledge_tile_contains(LEDGE_TILE_FULL, v(0, 0), -1.0f, v(0, 0));
}
ROW(collide_tile_blocked) {
    return null_manifold(
        ledge_collide_tile(LEDGE_TILE_FULL, v(0, 0), 1.0f, 16u, &g_circle, v(0, 0)));
}
ROW(tilemap_def_null) {
    return ledge_tilemap_create(NULL) == NULL;
}
ROW(tilemap_width) {
    ledge_tilemap_def d = ledge_default_tilemap_def();
    d.width = 0;
    return ledge_tilemap_create(&d) == NULL;
}
ROW(tilemap_tile_size) {
    ledge_tilemap_def d = ledge_default_tilemap_def();
    d.tile_size = 1e-6f;
    return ledge_tilemap_create(&d) == NULL;
}
ROW(tilemap_cells) {
    ledge_tilemap_def d = ledge_default_tilemap_def();
    d.width = d.height = 65536;
    return ledge_tilemap_create(&d) == NULL;
}
ROW(tilemap_set_cell) {
    return !ledge_tilemap_set(g_map, -1, 0, LEDGE_TILE_FULL);
}
ROW(tilemap_set_tile) {
    return !ledge_tilemap_set(g_map, 0, 0, 34);
}
ROW(tilemap_get_null) {
    return ledge_tilemap_get(NULL, 0, 0) == LEDGE_TILE_EMPTY;
}
ROW(tilemap_edge_side) {
    return ledge_tilemap_edge(g_map, 0, 0, (ledge_side)5) == LEDGE_EDGE_OFF;
}
ROW(tilemap_point) {
    return !ledge_tilemap_query_point(g_map, v(NAN, 1), NULL);
}
ROW(tilemap_region_out) {
    ledge_aabb box = {{{0, 0}}, {{2, 2}}};
    return ledge_tilemap_query_region(g_map, box, NULL, 4) == 0;
}
ROW(tilemap_region_box) {
    ledge_aabb box = {{{2, 2}}, {{0, 0}}};
    return ledge_tilemap_query_region(g_map, box, NULL, 0) == 0;
}
ROW(tilemap_raycast_null) {
    return !ledge_tilemap_raycast(NULL, v(0, 0), v(1, 0), NULL);
}
ROW(tilemap_collide_shape) {
    return ledge_tilemap_collide(g_map, NULL, v(0, 0), NULL, 0) == -1;
}
ROW(load_n_length) {
    return !ledge_tilemap_load_n(g_map, "0000");
}
ROW(load_ascii_glyph) {
    return !ledge_tilemap_load_ascii(g_map, "x");
}
ROW(load_text_null) {
    return !ledge_tilemap_load_ascii(g_map, NULL);
}
ROW(world_def_null) {
    return ledge_world_create(NULL) == NULL;
}
ROW(world_iterations) {
    ledge_world_def d = ledge_default_world_def();
    d.iterations = 0;
    return ledge_world_create(&d) == NULL;
}
ROW(world_gravity) {
    ledge_world_def d = ledge_default_world_def();
    d.gravity = v(0, NAN);
    return ledge_world_create(&d) == NULL;
}
ROW(world_slop) {
    ledge_world_def d = ledge_default_world_def();
    d.linear_slop = -1.0f;
    return ledge_world_create(&d) == NULL;
}
ROW(world_capacity) {
    ledge_world_def d = ledge_default_world_def();
    d.body_capacity = -5;
    return ledge_world_create(&d) == NULL;
}
ROW(world_map_size) {
    ledge_world_def d = ledge_default_world_def();
    d.map_height = 0;
    return ledge_world_create(&d) == NULL;
}
ROW(world_step_dt) {
    uint64_t h = ledge_world_hash(g_world);
    ledge_world_step(g_world, NAN);
    return ledge_world_hash(g_world) == h;
}
ROW(world_step_long) {
    uint64_t h = ledge_world_hash(g_world);
    ledge_world_step(g_world, 2.0f);
    return ledge_world_hash(g_world) == h;
}
ROW(world_cell_size) {
    ledge_world_def d = ledge_default_world_def();
    d.cell_size = 1e-30f;
    return ledge_world_create(&d) == NULL;
}
ROW(world_friction_law) {
    ledge_world_def d = ledge_default_world_def();
    d.friction_law = (ledge_friction_law)7;
    return ledge_world_create(&d) == NULL;
}
ROW(world_sleep_speed) {
    ledge_world_def d = ledge_default_world_def();
    d.sleep_speed = NAN;
    return ledge_world_create(&d) == NULL;
}
ROW(body_sleep_disabled) {
    ledge_body_def d = ledge_default_body_def();
    d.shape = g_circle;
    ledge_body_id id = ledge_body_create(g_world, &d);
    bool refused = !ledge_body_set_awake(g_world, id, false) && ledge_body_is_awake(g_world, id);
    ledge_body_destroy(g_world, id); // (logs nothing)
    return refused;
}
ROW(body_sleep_static) {
    ledge_world_def wd = ledge_default_world_def();
    wd.enable_sleep = true;
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_def d = ledge_default_body_def();
    d.type = LEDGE_BODY_STATIC;
    d.shape = g_circle;
    ledge_body_id id = ledge_body_create(w, &d);
    bool refused = !ledge_body_set_awake(w, id, false) && ledge_body_is_awake(w, id);
    ledge_world_destroy(w);
    return refused;
}
ROW(body_create_mass) {
    ledge_body_def d = ledge_default_body_def();
    d.shape = g_circle;
    d.density = 1e-30f;
    return ledge_body_create(g_world, &d).index1 == 0;
}
ROW(body_frozen_stale) {
    return !ledge_body_is_frozen(g_world, (ledge_body_id){9999u, 1u, 0u});
}
ROW(world_step_null) {
    ledge_world_step(NULL, 0.1f);
    return true;
}
ROW(world_tilemap_null) {
    return ledge_world_tilemap(NULL) == NULL;
}
ROW(body_create_null) {
    return ledge_body_create(g_world, NULL).index1 == 0;
}
ROW(body_create_shape) {
    ledge_body_def d = ledge_default_body_def();
    return ledge_body_create(g_world, &d).index1 == 0;
}
ROW(body_create_edited) {
    ledge_body_def d = ledge_default_body_def();
    d.shape = ledge_make_box(v(0, 0), v(1, 1));
    d.shape.vertices[2].x = 3.0f; // bounds, normals and axes now stale
    return ledge_body_create(g_world, &d).index1 == 0;
}
ROW(body_create_type) {
    ledge_body_def d = ledge_default_body_def();
    d.shape = g_circle;
    d.type = (ledge_body_type)7;
    return ledge_body_create(g_world, &d).index1 == 0;
}
ROW(body_create_density) {
    ledge_body_def d = ledge_default_body_def();
    d.shape = g_circle;
    d.density = 0.0f;
    return ledge_body_create(g_world, &d).index1 == 0;
}
ROW(body_create_friction) {
    ledge_body_def d = ledge_default_body_def();
    d.shape = g_circle;
    d.friction = 1.5f;
    return ledge_body_create(g_world, &d).index1 == 0;
}
ROW(body_create_position) {
    ledge_body_def d = ledge_default_body_def();
    d.shape = g_circle;
    d.position = v(INFINITY, 0);
    return ledge_body_create(g_world, &d).index1 == 0;
}
ROW(body_create_drag) {
    ledge_body_def d = ledge_default_body_def();
    d.shape = g_circle;
    d.drag = -1.0f;
    return ledge_body_create(g_world, &d).index1 == 0;
}
ROW(body_destroy_stale) {
    ledge_body_destroy(g_world, g_dead);
    return ledge_world_body_count(g_world) == 1;
}
ROW(body_foreign) {
    ledge_body_id foreign = {77, 0, 0};
    vec2s p = ledge_body_position(g_world, foreign);
    return p.x == 0.0f && p.y == 0.0f;
}
ROW(body_null_id) {
    return ledge_body_velocity(g_world, LEDGE_NULL_BODY_ID).x == 0.0f;
}
ROW(body_set_position_stale) {
    return !ledge_body_set_position(g_world, g_dead, v(1, 1));
}
ROW(body_set_position_nan) {
    return !ledge_body_set_position(g_world, g_body, v(NAN, 1));
}
ROW(body_set_velocity_huge) {
    return !ledge_body_set_velocity(g_world, g_body, v(0, 1e7f));
}
ROW(body_impulse_result) {
    return !ledge_body_apply_impulse(g_world, g_body, v(0, 1e6f));
}
ROW(body_gravity_scale) {
    return !ledge_body_set_gravity_scale(g_world, g_body, NAN);
}
ROW(body_drag) {
    return !ledge_body_set_drag(g_world, g_body, -0.5f);
}
ROW(body_shape_stale) {
    return ledge_body_shape(g_world, g_dead) == NULL;
}
ROW(body_mass_null_world) {
    return ledge_body_mass(NULL, g_body) == 0.0f;
}
static void never_free(void *ptr, void *user) {
    (void)ptr;
    (void)user;
}
ROW(set_allocator_half) {
    ledge_set_allocator(NULL, never_free, NULL); // refused: malloc/free stay
    return true;
}

typedef struct row {
    const char *call; ///< What the row does, as a reader would write it.
    bool (*run)(void);
    const char *fn;   ///< The function the message must name.
    const char *word; ///< A word of the message naming the argument.
    const char *returns;
} row;

// clang-format off
static const row rows[] = {
    {"`ledge_make_circle(c, -1)`", circle_radius, "ledge_make_circle", "radius", "invalid shape"},
    {"`ledge_make_circle((NaN, 0), 1)`", circle_nan, "ledge_make_circle", "center", "invalid shape"},
    {"`ledge_make_circle(c, 2e6)`", circle_huge, "ledge_make_circle", "radius", "invalid shape"},
    {"`ledge_make_box(c, (1, 0))`", box_half, "ledge_make_box", "half_extents", "invalid shape"},
    {"`ledge_make_box((0, 8e5), (1, 8e5))`", box_corner, "ledge_make_box", "center + half_extents", "invalid shape"},
    {"`ledge_make_polygon(p, 3, NULL)`", poly_null_out, "ledge_make_polygon", "out", "false"},
    {"`ledge_make_polygon(NULL, 3, &s)`", poly_null_points, "ledge_make_polygon", "points", "false"},
    {"`ledge_make_polygon` with 9 points", poly_count, "ledge_make_polygon", "count", "false"},
    {"`ledge_make_polygon` with an infinite point", poly_inf, "ledge_make_polygon", "points[1]", "false"},
    {"`ledge_make_polygon` with a repeated point", poly_duplicate, "ledge_make_polygon", "same point", "false"},
    {"`ledge_make_polygon` with collinear points", poly_collinear, "ledge_make_polygon", "collinear", "false"},
    {"`ledge_make_polygon` of a concave outline", poly_concave, "ledge_make_polygon", "not convex", "false"},
    {"`ledge_make_polygon` of a pentagram", poly_star, "ledge_make_polygon", "more than once", "false"},
    {"`ledge_shape_aabb(NULL, p)`", aabb_invalid, "ledge_shape_aabb", "shape", "(p, p)"},
    {"`ledge_shape_area(NULL)`", area_invalid, "ledge_shape_area", "shape", "0"},
    {"`ledge_collide` with an invalid shape", collide_invalid, "ledge_collide", "shape a", "no hit"},
    {"`ledge_collide` at a NaN position", collide_pos, "ledge_collide", "pos_a", "no hit"},
    {"`ledge_shape_contains` of an infinite point", contains_point, "ledge_shape_contains", "point", "false"},
    {"`ledge_shape_raycast(NULL, ...)`", raycast_null, "ledge_shape_raycast", "shape", "false"},
    {"`ledge_shape_raycast` with a NaN translation", raycast_translation, "ledge_shape_raycast", "translation", "false"},
    {"`ledge_sweep_circles` with radius 0", sweep_circles_radius, "ledge_sweep_circles", "ra", "false"},
    {"`ledge_sweep_boxes` with an infinite move", sweep_boxes_move, "ledge_sweep_boxes", "move_a", "false"},
    {"`ledge_sweep(NULL, ...)`", sweep_null, "ledge_sweep", "NULL", "false"},
    {"`ledge_decompose` of 2 points", decompose_count, "ledge_decompose", "count", "-1"},
    {"`ledge_decompose` of a bow tie", decompose_cross, "ledge_decompose", "self-intersecting", "-1"},
    {"`ledge_decompose` of an L into 1 piece", decompose_room, "ledge_decompose", "max_out", "-1"},
    {"`ledge_tile_outline_get(40, ...)`", tile_outline_id, "ledge_tile_outline_get", "tile", "false"},
    {"`ledge_tile_cover(FULL, 3)`", tile_cover_side, "ledge_tile_cover", "side", "NONE"},
    {"`ledge_tile_contains` with size -1", tile_contains_size, "ledge_tile_contains", "size", "false"},
    {"`ledge_collide_tile` with blocked 0x10", collide_tile_blocked, "ledge_collide_tile", "blocked", "no hit"},
    {"`ledge_tilemap_create(NULL)`", tilemap_def_null, "ledge_tilemap_create", "def", "NULL"},
    {"`ledge_tilemap_create` with width 0", tilemap_width, "ledge_tilemap_create", "width", "NULL"},
    {"`ledge_tilemap_create` with tile_size 1e-6", tilemap_tile_size, "ledge_tilemap_create", "tile_size", "NULL"},
    {"`ledge_tilemap_create` of 65536 x 65536", tilemap_cells, "ledge_tilemap_create", "width * def->height", "NULL"},
    {"`ledge_tilemap_set(m, -1, 0, FULL)`", tilemap_set_cell, "ledge_tilemap_set", "cell", "false"},
    {"`ledge_tilemap_set(m, 0, 0, 34)`", tilemap_set_tile, "ledge_tilemap_set", "tile", "false"},
    {"`ledge_tilemap_get(NULL, 0, 0)`", tilemap_get_null, "ledge_tilemap_get", "map", "EMPTY"},
    {"`ledge_tilemap_edge(m, 0, 0, 5)`", tilemap_edge_side, "ledge_tilemap_edge", "side", "OFF"},
    {"`ledge_tilemap_query_point` of a NaN point", tilemap_point, "ledge_tilemap_query_point", "point", "false"},
    {"`ledge_tilemap_query_region(m, box, NULL, 4)`", tilemap_region_out, "ledge_tilemap_query_region", "out", "0"},
    {"`ledge_tilemap_query_region` of an inverted box", tilemap_region_box, "ledge_tilemap_query_region", "box", "0"},
    {"`ledge_tilemap_raycast(NULL, ...)`", tilemap_raycast_null, "ledge_tilemap_raycast", "map", "false"},
    {"`ledge_tilemap_collide(m, NULL, ...)`", tilemap_collide_shape, "ledge_tilemap_collide", "shape", "-1"},
    {"`ledge_tilemap_load_n` of a short string", load_n_length, "ledge_tilemap_load_n", "cells", "false, map unchanged"},
    {"`ledge_tilemap_load_ascii` of a bad glyph", load_ascii_glyph, "ledge_tilemap_load_ascii", "glyph", "false, map unchanged"},
    {"`ledge_tilemap_load_ascii(m, NULL)`", load_text_null, "ledge_tilemap_load_ascii", "text", "false"},
    {"`ledge_world_create(NULL)`", world_def_null, "ledge_world_create", "def", "NULL"},
    {"`ledge_world_create` with iterations 0", world_iterations, "ledge_world_create", "iterations", "NULL"},
    {"`ledge_world_create` with NaN gravity", world_gravity, "ledge_world_create", "gravity", "NULL"},
    {"`ledge_world_create` with linear_slop -1", world_slop, "ledge_world_create", "linear_slop", "NULL"},
    {"`ledge_world_create` with body_capacity -5", world_capacity, "ledge_world_create", "body_capacity", "NULL"},
    {"`ledge_world_create` with map_height 0", world_map_size, "ledge_tilemap_create", "height", "NULL"},
    {"`ledge_world_step(w, NaN)`", world_step_dt, "ledge_world_step", "dt", "world unchanged"},
    {"`ledge_world_step(w, 2)` (longer than LEDGE_MAX_STEP)", world_step_long, "ledge_world_step", "dt", "world unchanged"},
    {"`ledge_world_create` with cell_size 1e-30", world_cell_size, "ledge_world_create", "cell_size", "NULL"},
    {"`ledge_world_create` with friction_law 7", world_friction_law, "ledge_world_create", "friction_law", "NULL"},
    {"`ledge_world_create` with sleep_speed NaN", world_sleep_speed, "ledge_world_create", "sleep_speed", "NULL"},
    {"`ledge_body_set_awake(w, id, false)` with enable_sleep false", body_sleep_disabled, "ledge_body_set_awake", "enable_sleep", "false, body awake"},
    {"`ledge_body_set_awake(w, id, false)` of a static body", body_sleep_static, "ledge_body_set_awake", "not dynamic", "false, body awake"},
    {"`ledge_body_create` with density 1e-30 (mass too small)", body_create_mass, "ledge_body_create", "mass", "null id"},
    {"`ledge_body_is_frozen` of a foreign id", body_frozen_stale, "ledge_body_is_frozen", "id", "false"},
    {"`ledge_world_step(NULL, dt)`", world_step_null, "ledge_world_step", "world", "(nothing)"},
    {"`ledge_world_tilemap(NULL)`", world_tilemap_null, "ledge_world_tilemap", "world", "NULL"},
    {"`ledge_body_create(w, NULL)`", body_create_null, "ledge_body_create", "def", "null id"},
    {"`ledge_body_create` without a shape", body_create_shape, "ledge_body_create", "shape", "null id"},
    {"`ledge_body_create` of a box with a vertex moved after ledge_make_box", body_create_edited, "ledge_body_create", "shape", "null id"},
    {"`ledge_body_create` of type 7", body_create_type, "ledge_body_create", "type", "null id"},
    {"`ledge_body_create` of a dynamic body with density 0", body_create_density, "ledge_body_create", "density", "null id"},
    {"`ledge_body_create` with friction 1.5", body_create_friction, "ledge_body_create", "friction", "null id"},
    {"`ledge_body_create` at an infinite position", body_create_position, "ledge_body_create", "position", "null id"},
    {"`ledge_body_create` with drag -1", body_create_drag, "ledge_body_create", "drag", "null id"},
    {"`ledge_body_destroy` of a destroyed body", body_destroy_stale, "ledge_body_destroy", "stale", "(nothing)"},
    {"`ledge_body_position` of a foreign id", body_foreign, "ledge_body_position", "not a body of this world", "(0, 0)"},
    {"`ledge_body_velocity` of the null id", body_null_id, "ledge_body_velocity", "not a body", "(0, 0)"},
    {"`ledge_body_set_position` of a destroyed body", body_set_position_stale, "ledge_body_set_position", "stale", "false"},
    {"`ledge_body_set_position(w, id, (NaN, 1))`", body_set_position_nan, "ledge_body_set_position", "position", "false"},
    {"`ledge_body_set_velocity(w, id, (0, 1e7))`", body_set_velocity_huge, "ledge_body_set_velocity", "velocity", "false"},
    {"`ledge_body_apply_impulse` beyond the speed limit", body_impulse_result, "ledge_body_apply_impulse", "resulting velocity", "false"},
    {"`ledge_body_set_gravity_scale(w, id, NaN)`", body_gravity_scale, "ledge_body_set_gravity_scale", "scale", "false"},
    {"`ledge_body_set_drag(w, id, -0.5)`", body_drag, "ledge_body_set_drag", "drag", "false"},
    {"`ledge_body_shape` of a destroyed body", body_shape_stale, "ledge_body_shape", "stale", "NULL"},
    {"`ledge_body_mass(NULL, id)`", body_mass_null_world, "ledge_body_mass", "world", "0"},
    {"`ledge_set_allocator(NULL, f, u)`", set_allocator_half, "ledge_set_allocator", "both", "allocator unchanged"},
};
// clang-format on
enum { ROWS = (int)(sizeof rows / sizeof rows[0]) };

static int setup(void **state) {
    (void)state;
    g_circle = ledge_make_circle(v(0, 0), 0.5f);
    ledge_tilemap_def md = ledge_default_tilemap_def();
    md.width = 3;
    md.height = 2;
    g_map = ledge_tilemap_create(&md);
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 8;
    wd.map_height = 8;
    g_world = ledge_world_create(&wd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = g_circle;
    bd.position = v(4, 4);
    g_body = ledge_body_create(g_world, &bd);
    g_dead = ledge_body_create(g_world, &bd);
    ledge_body_destroy(g_world, g_dead);
    return g_map && g_world && ledge_body_is_valid(g_world, g_body) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    ledge_world_destroy(g_world);
    ledge_tilemap_destroy(g_map);
    ledge_set_log_hook(NULL, NULL);
    return 0;
}

static void test_every_row(void **state) {
    (void)state;
    for (int i = 0; i < ROWS; ++i) {
        log_capture_start();
        uint32_t errors = ledge_error_count();
        bool refused = rows[i].run();
        if (!refused) fail_msg("%s: wrong return value (want %s)", rows[i].call, rows[i].returns);
        // The same refusal is readable without a hook (ledge_last_error).
        if (ledge_error_count() != errors + 1 || strcmp(ledge_last_error(), g_log.last) != 0) {
            fail_msg("%s: error count %u -> %u, last error \"%s\" (hook got \"%s\")", rows[i].call,
                     errors, ledge_error_count(), ledge_last_error(), g_log.last);
        }
        if (g_log.count != 1 || !log_capture_says(rows[i].fn, rows[i].word)) {
            fail_msg("%s: %d messages, last \"%s\" (want one naming %s and \"%s\")", rows[i].call,
                     g_log.count, g_log.last, rows[i].fn, rows[i].word);
        }
    }
    // The world saw every world and body row: it still works.
    log_capture_start();
    for (int k = 0; k < 60; ++k) ledge_world_step(g_world, 1.0f / 60.0f);
    vec2s p = ledge_body_position(g_world, g_body);
    assert_int_equal(g_log.count, 0);
    assert_true(isfinite(p.x) && isfinite(p.y) && p.y < 4.0f);
    assert_int_equal(ledge_world_body_count(g_world), 1);
}

static int other_thread_refuses(void *arg) {
    uint32_t *seen = arg;
    seen[0] = ledge_error_count();
    (void)ledge_make_circle(v(0, 0), -2.0f);
    seen[1] = ledge_error_count();
    return 0;
}

// With the discarding hook nothing is delivered, yet the count and the last
// message still say what was refused, and only on the thread that called.
static void test_errors_without_a_hook(void **state) {
    (void)state;
    ledge_set_log_hook(ledge_log_discard, NULL);
    uint32_t before = ledge_error_count();
    assert_int_equal(ledge_make_box(v(0, 0), v(1, -3)).type, LEDGE_SHAPE_INVALID);
    assert_int_equal(ledge_error_count(), before + 1);
    assert_non_null(strstr(ledge_last_error(), "ledge_make_box"));
    char mine[512];
    snprintf(mine, sizeof mine, "%s", ledge_last_error());
    // A good call changes neither.
    assert_int_equal(ledge_make_circle(v(0, 0), 1.0f).type, LEDGE_SHAPE_CIRCLE);
    assert_int_equal(ledge_error_count(), before + 1);
    uint32_t seen[2] = {99, 99};
    thrd_t t;
    assert_int_equal(thrd_create(&t, other_thread_refuses, seen), thrd_success);
    assert_int_equal(thrd_join(t, NULL), thrd_success);
    assert_int_equal(seen[0], 0);
    assert_int_equal(seen[1], 1);
    assert_int_equal(ledge_error_count(), before + 1);
    assert_string_equal(ledge_last_error(), mine);
    ledge_set_log_hook(NULL, NULL);
}

// Prints s with '|' escaped, as a markdown table cell needs.
static void print_cell(const char *s) {
    for (; *s; ++s) {
        if (*s == '|') putchar('\\');
        putchar(*s);
    }
}

// Prints the table of docs/robustness.md, with the messages as sent.
static int print_markdown(void) {
    if (setup(NULL) != 0) return 1;
    printf("| call | returns | message |\n|---|---|---|\n");
    for (int i = 0; i < ROWS; ++i) {
        log_capture_start();
        rows[i].run();
        printf("| %s | %s | `", rows[i].call, rows[i].returns);
        print_cell(g_log.last);
        printf("` |\n");
    }
    teardown(NULL);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--markdown") == 0) return print_markdown();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_row, setup, teardown),
        cmocka_unit_test(test_errors_without_a_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
