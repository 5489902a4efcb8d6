// The binding's entry points beyond bodies and the tilemap: characters,
// what a step found (events as arrays, contacts per body, ground state),
// the profile, the pre-solve filter (a JavaScript callback), distance
// queries, the tilemap's own queries, tile outlines and polygon
// decomposition. Structs are read and written by ledge.mjs through the
// table of ledge_js_layout.c; arrays of results stay in wasm memory, where
// the binding views them without copying.
#include "ledge_js.h"

#include <stdlib.h>
#include <string.h>

#define scratch ledge_js_scratch_area

// A growable buffer kept between calls: a query or a read every frame
// allocates nothing once it is large enough.
typedef struct js_buffer {
    void *data;
    int capacity; ///< In items.
} js_buffer;

static bool reserve(js_buffer *b, int items, size_t item_size) {
    if (items <= b->capacity) return true;
    int cap = b->capacity ? b->capacity : 64;
    while (cap < items) cap *= 2;
    void *grown = ledge_alloc(item_size * (size_t)cap);
    if (grown == NULL) return false;
    ledge_free(b->data);
    b->data = grown;
    b->capacity = cap;
    return true;
}

// ---- characters ----

/// ledge_character_create with the def the binding filled (character_def).
JS_API bool ledge_js_character_create(ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                      const ledge_character_def *def) {
    return ledge_character_create(w, js_id(a, b, c), def);
}

JS_API void ledge_js_character_destroy(ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_character_destroy(w, js_id(a, b, c));
}

JS_API bool ledge_js_character_is_valid(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    return ledge_character_is_valid(w, js_id(a, b, c));
}

JS_API bool ledge_js_character_set_def(ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                       const ledge_character_def *def) {
    return ledge_character_set_def(w, js_id(a, b, c), def);
}

/// ledge_character_move; the state into `out` (character_state).
JS_API bool ledge_js_character_move(ledge_world *w, uint32_t a, uint32_t b, uint32_t c, float vx,
                                    float vy, float dt, ledge_character_state *out) {
    return ledge_character_move(w, js_id(a, b, c), js_v2(vx, vy), dt, out);
}

JS_API bool ledge_js_character_state(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                     ledge_character_state *out) {
    return ledge_character_get_state(w, js_id(a, b, c), out);
}

JS_API bool ledge_js_character_set_velocity(ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                            float vx, float vy) {
    return ledge_character_set_velocity(w, js_id(a, b, c), js_v2(vx, vy));
}

// ---- what the last step found ----

/// The last step's event arrays into scratch: touch begin (address,
/// count), touch end, sensor begin, sensor end, crush. The arrays are the
/// world's own (valid until the next step).
JS_API void ledge_js_events(const ledge_world *w) {
    ledge_touch_events t = ledge_world_touch_events(w);
    ledge_sensor_events s = ledge_world_sensor_events(w);
    ledge_crush_events c = ledge_world_crush_events(w);
    const void *at[5] = {t.begin, t.end, s.begin, s.end, c.events};
    int n[5] = {t.begin_count, t.end_count, s.begin_count, s.end_count, c.count};
    for (int k = 0; k < 5; ++k) {
        scratch.u[2 * k] = (uint32_t)(uintptr_t)at[k];
        scratch.i[2 * k + 1] = n[k];
    }
}

static js_buffer contacts;

/// The body's contacts of the last step into a buffer kept by the binding:
/// returns their count (-1 when refused or out of memory), its address in
/// scratch 0.
JS_API int ledge_js_body_contacts(ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_body_id id = js_id(a, b, c);
    int n = ledge_body_contacts(w, id, contacts.data, contacts.capacity);
    if (n > contacts.capacity) {
        if (!reserve(&contacts, n, sizeof(ledge_contact_data))) {
            ledge_js_refuse("ledge_body_contacts: out of wasm memory for the contacts");
            return -1;
        }
        n = ledge_body_contacts(w, id, contacts.data, contacts.capacity);
    }
    scratch.u[0] = (uint32_t)(uintptr_t)contacts.data;
    return n;
}

/// ledge_body_ground into `out` (ground).
JS_API void ledge_js_body_ground(ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                 ledge_ground *out) {
    *out = ledge_body_ground(w, js_id(a, b, c));
}

// ---- profile ----

JS_API void ledge_js_enable_profile(ledge_world *w, bool on) {
    ledge_world_enable_profile(w, on);
}

JS_API void ledge_js_profile(const ledge_world *w, ledge_profile *out) {
    *out = ledge_world_profile(w);
}

// ---- the pre-solve filter ----

// Calls the world's JavaScript callback (ledge.mjs: Module.ledgePreSolve),
// which returns a response, or -1 to keep the proposed one. The callback
// runs inside the step; ledge.mjs catches what it throws (to throw it
// after the step) so that no JavaScript exception unwinds through C.
EM_JS(int, js_pre_solve,
      (ledge_world * w, uint32_t serial, uint32_t a, uint32_t b, uint32_t oa, uint32_t ob, int cx,
       int cy, float nx, float ny, int proposed),
      { return Module.ledgePreSolve(w, serial, a, b, oa, ob, cx, cy, nx, ny, proposed); });

static ledge_response pre_solve(ledge_body_id body, ledge_body_id other, int cell_x, int cell_y,
                                vec2s normal, ledge_response proposed, void *context) {
    int r = js_pre_solve(context, body.world, body.index1, body.generation, other.index1,
                         other.generation, cell_x, cell_y, normal.x, normal.y, (int)proposed);
    return r >= LEDGE_RESPONSE_SLIDE && r <= LEDGE_RESPONSE_CROSS ? (ledge_response)r : proposed;
}

/// Installs (on != 0) or removes the JavaScript pre-solve callback.
JS_API void ledge_js_set_pre_solve(ledge_world *w, int on) {
    ledge_world_set_pre_solve(w, on ? pre_solve : NULL, w);
}

// ---- distance ----

/// ledge_world_nearest of the shape in scratch from word 8 (point != 0:
/// ledge_world_nearest_point of (px, py)); the result into `out`
/// (nearest_result). -1 when refused.
JS_API int ledge_js_nearest(ledge_world *w, float px, float py, float max_distance, int point,
                            const ledge_query_filter *q, ledge_nearest_result *out) {
    ledge_js_clear_error();
    bool hit;
    if (point) {
        hit = ledge_world_nearest_point(w, js_v2(px, py), max_distance, q, out);
    } else {
        ledge_shape s;
        if (!ledge_js_shape_from(8, &s)) {
            ledge_js_refuse("ledge_world_nearest: invalid shape");
            return -1;
        }
        hit = ledge_world_nearest(w, &s, js_v2(px, py), max_distance, q, out);
    }
    return ledge_js_last_error[0] ? -1 : hit;
}

/// ledge_tilemap_distance of the world's tilemap and the shape in scratch
/// from word 8; the result into `out` (tilemap_distance_result).
JS_API int ledge_js_tilemap_distance(ledge_world *w, float px, float py, float max_distance,
                                     ledge_tilemap_distance_result *out) {
    ledge_js_clear_error();
    ledge_shape s;
    if (!ledge_js_shape_from(8, &s)) {
        ledge_js_refuse("ledge_tilemap_distance: invalid shape");
        return -1;
    }
    bool hit = ledge_tilemap_distance(ledge_world_tilemap(w), &s, js_v2(px, py), max_distance, out);
    return ledge_js_last_error[0] ? -1 : hit;
}

/// ledge_shape_distance of the shapes in scratch from words 8 (a) and 40
/// (b); the result into `out` (distance_result).
JS_API void ledge_js_shape_distance(float ax, float ay, float bx, float by,
                                    ledge_distance_result *out) {
    ledge_shape a, b;
    ledge_js_shape_from(8, &a);
    ledge_js_shape_from(40, &b);
    *out = ledge_shape_distance(&a, js_v2(ax, ay), &b, js_v2(bx, by));
}

/// ledge_tile_distance of the tile and the shape in scratch from word 8.
JS_API void ledge_js_tile_distance(int tile, float cx, float cy, float size, unsigned blocked,
                                   float px, float py, ledge_distance_result *out) {
    ledge_shape s;
    ledge_js_shape_from(8, &s);
    if (tile < 0 || tile > 255) tile = 255; // refused (logged) by the library
    *out = ledge_tile_distance((ledge_tile)tile, js_v2(cx, cy), size, blocked, &s, js_v2(px, py));
}

// ---- every hit of a ray ----

static js_buffer hits;
static int hit_count;
static bool hits_failed;

static float collect_hit(const ledge_raycast_result *hit, void *context) {
    (void)context;
    if (!reserve(&hits, hit_count + 1, sizeof *hit)) {
        hits_failed = true;
        return 0;
    }
    ((ledge_raycast_result *)hits.data)[hit_count++] = *hit;
    return 1;
}

/// Every hit of the ray (ledge_world_raycast_all, unclipped: ledge.mjs
/// applies the callback's answers in order): their count (-1 when refused),
/// the address of the raycast_results in scratch 0.
JS_API int ledge_js_raycast_all(ledge_world *w, float ox, float oy, float tx, float ty,
                                const ledge_query_filter *q) {
    hit_count = 0;
    hits_failed = false;
    ledge_js_clear_error();
    int n = ledge_world_raycast_all(w, js_v2(ox, oy), js_v2(tx, ty), q, collect_hit, NULL);
    scratch.u[0] = (uint32_t)(uintptr_t)hits.data;
    if (hits_failed) ledge_js_refuse("ledge_world_raycast_all: out of wasm memory for the hits");
    return n < 0 || ledge_js_last_error[0] ? -1 : hit_count;
}

// ---- the tilemap's own queries ----

JS_API bool ledge_js_tilemap_query_point(ledge_world *w, float x, float y, ledge_tile_hit *out) {
    return ledge_tilemap_query_point(ledge_world_tilemap(w), js_v2(x, y), out);
}

static js_buffer cells;

/// The non-empty cells overlapping the box: their count (-1 when refused),
/// the address of the tile_hits in scratch 0.
JS_API int ledge_js_tilemap_query_region(ledge_world *w, float lx, float ly, float ux, float uy) {
    const ledge_tilemap *map = ledge_world_tilemap(w);
    ledge_aabb box = {js_v2(lx, ly), js_v2(ux, uy)};
    ledge_js_clear_error();
    int n = ledge_tilemap_query_region(map, box, cells.data, cells.capacity);
    if (n > cells.capacity) {
        if (!reserve(&cells, n, sizeof(ledge_tile_hit))) {
            ledge_js_refuse("ledge_tilemap_query_region: out of wasm memory for the cells");
            return -1;
        }
        n = ledge_tilemap_query_region(map, box, cells.data, cells.capacity);
    }
    scratch.u[0] = (uint32_t)(uintptr_t)cells.data;
    return ledge_js_last_error[0] ? -1 : n;
}

/// ledge_tilemap_raycast into `out` (ray_hit).
JS_API int ledge_js_tilemap_raycast(ledge_world *w, float ox, float oy, float tx, float ty,
                                    ledge_ray_hit *out) {
    ledge_js_clear_error();
    bool hit = ledge_tilemap_raycast(ledge_world_tilemap(w), js_v2(ox, oy), js_v2(tx, ty), out);
    return ledge_js_last_error[0] ? -1 : hit;
}

JS_API int ledge_js_tilemap_edge(ledge_world *w, int x, int y, int side) {
    return (int)ledge_tilemap_edge(ledge_world_tilemap(w), x, y, (ledge_side)side);
}

/// The cell holding (x, y) into scratch 0..1.
JS_API void ledge_js_tilemap_cell_at(ledge_world *w, float x, float y) {
    ledge_tilemap_cell_at(ledge_world_tilemap(w), js_v2(x, y), &scratch.i[0], &scratch.i[1]);
}

// ---- tiles and shapes ----

/// ledge_tile_outline_get into `out` (tile_outline).
JS_API bool ledge_js_tile_outline(int tile, float x, float y, float size, ledge_tile_outline *out) {
    if (tile < 0 || tile > 255) tile = 255; // refused (logged) by the library
    return ledge_tile_outline_get((ledge_tile)tile, js_v2(x, y), size, out);
}

/// The tile's surface normal (ledge_tile_normal) and group into scratch.
JS_API void ledge_js_tile_info(int tile) {
    ledge_tile t = (ledge_tile)(tile < 0 || tile > 255 ? 255 : tile);
    vec2s n = ledge_tile_normal(t);
    scratch.f[0] = n.x, scratch.f[1] = n.y;
    scratch.i[2] = (int)ledge_tile_group_of(t);
}

/// ledge_tile_contains.
JS_API bool ledge_js_tile_contains(int tile, float cx, float cy, float size, float px, float py) {
    ledge_tile t = (ledge_tile)(tile < 0 || tile > 255 ? 255 : tile);
    return ledge_tile_contains(t, js_v2(cx, cy), size, js_v2(px, py));
}

static js_buffer pieces;

/// ledge_decompose of the `n` points at `points` (x, y floats): the
/// number of convex pieces (0 when refused), their ledge_shapes' address in
/// scratch 0.
JS_API int ledge_js_decompose(const vec2s *points, int n) {
    if (n < 0 || n > LEDGE_MAX_DECOMPOSE_POINTS) n = LEDGE_MAX_DECOMPOSE_POINTS + 1;
    if (!reserve(&pieces, n > 0 ? n : 1, sizeof(ledge_shape))) {
        ledge_js_refuse("ledge_decompose: out of wasm memory for the pieces");
        return 0;
    }
    int k = ledge_decompose(points, n, pieces.data, pieces.capacity);
    scratch.u[0] = (uint32_t)(uintptr_t)pieces.data;
    return k;
}

/// ledge_body_filter into `out` (filter).
JS_API void ledge_js_body_filter(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                 ledge_filter *out) {
    *out = ledge_body_filter(w, js_id(a, b, c));
}

/// ledge_body_set_filter with the filter the binding filled (filter).
JS_API bool ledge_js_body_set_filter(ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                     const ledge_filter *filter) {
    return ledge_body_set_filter(w, js_id(a, b, c), *filter);
}

/// The library's version string.
JS_API const char *ledge_js_version(void) {
    return ledge_version_string();
}
