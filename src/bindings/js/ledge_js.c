// The C side of the JavaScript binding (ledge.mjs): ledge's API as
// functions of numbers and pointers. Structs (defs, states, results) live in
// buffers of the wasm heap that ledge.mjs reads and writes through the
// table of ledge_js_layout.c; small results go to one scratch area, read
// back right after the call; body ids travel as their three 32-bit fields.
// Every entry point returns what the library returned; a refusal's message
// is kept by the log hook for the binding to throw.
#include "ledge_js.h"

#include <ledge/tiled.h>

#include <limits.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

js_scratch ledge_js_scratch_area;
char ledge_js_last_error[MESSAGE_BYTES];

#define scratch    ledge_js_scratch_area
#define last_error ledge_js_last_error

void ledge_js_refuse(const char *message) {
    if (last_error[0] != '\0') return;
    strncpy(last_error, message, MESSAGE_BYTES - 1);
    last_error[MESSAGE_BYTES - 1] = '\0';
}

static void keep_error(ledge_log_level level, const char *message, void *user) {
    (void)user;
    // The first refusal since the last clear is the cause; later ones
    // (a body refused because its shape was) only follow from it.
    if (level != LEDGE_LOG_ERROR || last_error[0] != '\0') return;
    strncpy(last_error, message, MESSAGE_BYTES - 1);
    last_error[MESSAGE_BYTES - 1] = '\0';
}

#define v2     js_v2
#define id_of  js_id
#define put_id js_put_id

// A number from JavaScript as an int. NaN, infinities and values beyond
// int's range become INT_MIN, which every caller refuses with ledge's
// message (a plain cast would be undefined behaviour in C).
static int int_of(float f) {
    return f >= -2147483520.0f && f <= 2147483520.0f ? (int)f : INT_MIN;
}

/// Installs the log hook; called once by the binding.
JS_API void ledge_js_init(void) {
    ledge_set_log_hook(keep_error, NULL);
}

/// The scratch area results are written to.
JS_API void *ledge_js_scratch(void) {
    return &scratch;
}

/// The last refusal's message ("" when none since the last clear).
JS_API const char *ledge_js_error(void) {
    return last_error;
}

/// Forgets the last message (before a call whose refusal is checked).
JS_API void ledge_js_clear_error(void) {
    last_error[0] = '\0';
}

/// Bytes the C heap has handed out and not got back (the leak tests' measure).
JS_API int ledge_js_heap_in_use(void) {
    return (int)mallinfo().uordblks;
}

// ---- world ----

/// A world from the def the binding filled (ledge_js_layout's world_def),
/// or NULL.
JS_API ledge_world *ledge_js_world_create(const ledge_world_def *def) {
    return ledge_world_create(def);
}

JS_API void ledge_js_world_destroy(ledge_world *w) {
    ledge_world_destroy(w);
}

JS_API void ledge_js_world_step(ledge_world *w, float dt) {
    ledge_world_step(w, dt);
}

JS_API int ledge_js_world_body_count(const ledge_world *w) {
    return ledge_world_body_count(w);
}

/// The world's hash, low word returned, high word in scratch[0].
JS_API uint32_t ledge_js_world_hash(const ledge_world *w) {
    uint64_t h = ledge_world_hash(w);
    scratch.u[0] = (uint32_t)(h >> 32);
    return (uint32_t)h;
}

/// The world's snapshot (ledge_world_save) in a new buffer of the C heap,
/// its size in scratch[0]; NULL when refused (the message kept). The
/// binding copies it out and frees it.
JS_API unsigned char *ledge_js_world_save(const ledge_world *w) {
    size_t n = ledge_world_snapshot_size(w);
    if (n == 0) return NULL;
    unsigned char *b = malloc(n);
    if (b == NULL) {
        strcpy(last_error, "ledge_world_save: out of wasm memory for the snapshot");
        return NULL;
    }
    size_t got = ledge_world_save(w, b, n);
    if (got == 0) {
        free(b);
        return NULL;
    }
    scratch.u[0] = (uint32_t)got;
    return b;
}

/// ledge_world_restore of `size` bytes the binding put at `bytes`.
JS_API bool ledge_js_world_restore(ledge_world *w, const unsigned char *bytes, int size) {
    return ledge_world_restore(w, bytes, size > 0 ? (size_t)size : 0);
}

// ---- bodies ----

// Shape kinds as the binding names them.
enum { SHAPE_CIRCLE = 1, SHAPE_BOX = 2, SHAPE_POLYGON = 3 };

// The shape described at scratch[at..]: kind, then circle (cx, cy, r), box
// (cx, cy, hx, hy) or polygon (count, x0, y0, ...).
bool ledge_js_shape_from(int at, ledge_shape *out) {
    const float *f = scratch.f + at;
    int kind = int_of(f[0]);
    memset(out, 0, sizeof *out);
    if (kind == SHAPE_CIRCLE) {
        *out = ledge_make_circle(v2(f[1], f[2]), f[3]);
    } else if (kind == SHAPE_BOX) {
        *out = ledge_make_box(v2(f[1], f[2]), v2(f[3], f[4]));
    } else if (kind == SHAPE_POLYGON) {
        vec2s pts[LEDGE_MAX_DECOMPOSE_POINTS];
        int n = int_of(f[1]);
        if (n < 0 || n > LEDGE_MAX_POLYGON_VERTICES) n = LEDGE_MAX_POLYGON_VERTICES + 1;
        for (int k = 0; k < n && k < LEDGE_MAX_POLYGON_VERTICES; ++k)
            pts[k] = v2(f[2 + 2 * k], f[3 + 2 * k]);
        return ledge_make_polygon(pts, n, out);
    } else {
        memset(out, 0, sizeof *out);
    }
    return ledge_shape_is_valid(out);
}

// Where ledge_js_body_state puts whether the body is awake (after the
// shape's LEDGE_MAX_POLYGON_VERTICES vertices at 12..).
enum { BODY_AWAKE_AT = 12 + 2 * LEDGE_MAX_POLYGON_VERTICES };

/// Builds the shape described in scratch (ledge_js_shape_from) into the
/// def's shape field: how the binding writes a `shape` field of a def.
JS_API bool ledge_js_put_shape(ledge_shape *out) {
    if (!ledge_js_shape_from(0, out) && out->type == LEDGE_SHAPE_INVALID) {
        ledge_js_refuse("ledge_body_create: unknown shape kind");
        return false;
    }
    return ledge_shape_is_valid(out);
}

/// Creates a body from the def the binding filled (body_def). The id goes
/// to scratch 0..2; returns whether it is valid.
JS_API bool ledge_js_body_create(ledge_world *w, const ledge_body_def *def) {
    ledge_body_id id = ledge_body_create(w, def);
    put_id(0, id);
    return ledge_body_is_valid(w, id);
}

JS_API void ledge_js_body_destroy(ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_body_destroy(w, id_of(a, b, c));
}

JS_API bool ledge_js_body_is_valid(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    return ledge_body_is_valid(w, id_of(a, b, c));
}

/// Position, velocity, type, frozen, mass and the shape (kind, radius,
/// centre, vertex count, vertices), then awake (at BODY_AWAKE_AT) into
/// scratch.
JS_API bool ledge_js_body_state(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_body_id id = id_of(a, b, c);
    if (!ledge_body_is_valid(w, id)) {
        ledge_body_position(w, id); // logs the refusal
        return false;
    }
    vec2s p = ledge_body_position(w, id), v = ledge_body_velocity(w, id);
    const ledge_shape *s = ledge_body_shape(w, id);
    float *f = scratch.f;
    f[0] = p.x, f[1] = p.y, f[2] = v.x, f[3] = v.y;
    f[4] = (float)ledge_body_get_type(w, id);
    f[5] = ledge_body_is_frozen(w, id);
    f[6] = ledge_body_mass(w, id);
    f[7] = (float)s->type, f[8] = s->radius, f[9] = s->center.x, f[10] = s->center.y;
    f[11] = (float)s->count;
    for (int k = 0; k < s->count; ++k)
        f[12 + 2 * k] = s->vertices[k].x, f[13 + 2 * k] = s->vertices[k].y;
    f[BODY_AWAKE_AT] = ledge_body_is_awake(w, id);
    return true;
}

// What a body setter does with its two numbers.
enum {
    SET_POSITION = 0,
    SET_VELOCITY = 1,
    SET_IMPULSE = 2,
    SET_TARGET = 3, // x, y, dt in scratch[0]
    SET_GRAVITY_SCALE = 4,
    SET_FRICTION = 5,
    SET_BOUNCE = 6,
    SET_DRAG = 7,
    SET_DROP_THROUGH = 8,
    SET_AWAKE = 10, // x != 0: wake, else put to sleep
};

/// One of the body setters (the enum above); returns the library's answer.
JS_API bool ledge_js_body_set(ledge_world *w, uint32_t a, uint32_t b, uint32_t c, int what, float x,
                              float y) {
    ledge_body_id id = id_of(a, b, c);
    switch (what) {
    case SET_POSITION:
        return ledge_body_set_position(w, id, v2(x, y));
    case SET_VELOCITY:
        return ledge_body_set_velocity(w, id, v2(x, y));
    case SET_IMPULSE:
        return ledge_body_apply_impulse(w, id, v2(x, y));
    case SET_TARGET:
        return ledge_body_set_target(w, id, v2(x, y), scratch.f[0]);
    case SET_GRAVITY_SCALE:
        return ledge_body_set_gravity_scale(w, id, x);
    case SET_FRICTION:
        return ledge_body_set_friction(w, id, x);
    case SET_BOUNCE:
        return ledge_body_set_bounce(w, id, x);
    case SET_DRAG:
        return ledge_body_set_drag(w, id, x);
    case SET_DROP_THROUGH:
        return ledge_body_drop_through(w, id);
    case SET_AWAKE:
        return ledge_body_set_awake(w, id, x != 0.0f);
    default:
        strcpy(last_error, "ledge_js_body_set: unknown setter");
        return false;
    }
}

// ---- the character move ----

/// ledge_body_move by (dx, dy) with the move def the binding filled
/// (move_def), the result into `out` (move_result).
JS_API bool ledge_js_body_move(ledge_world *w, uint32_t a, uint32_t b, uint32_t c, float dx,
                               float dy, const ledge_move_def *def, ledge_move_result *out) {
    return ledge_body_move(w, id_of(a, b, c), v2(dx, dy), def, out);
}

/// ledge_move_clip_velocity against `count` push directions in scratch
/// (x, y pairs); the clipped velocity into scratch 0..1.
JS_API void ledge_js_clip_velocity(int count, float vx, float vy) {
    ledge_move_result r;
    memset(&r, 0, sizeof r);
    r.hit_count = count < LEDGE_MOVE_MAX_HITS ? count : LEDGE_MOVE_MAX_HITS;
    for (int k = 0; k < r.hit_count; ++k)
        r.hits[k].push = v2(scratch.f[2 * k], scratch.f[2 * k + 1]);
    vec2s v = ledge_move_clip_velocity(&r, v2(vx, vy));
    scratch.f[0] = v.x, scratch.f[1] = v.y;
}

// ---- tilemap ----

JS_API bool ledge_js_tilemap_set(ledge_world *w, int x, int y, int tile) {
    if (tile < 0 || tile > 255) tile = 255; // refused (and logged) by the library
    return ledge_tilemap_set(ledge_world_tilemap(w), x, y, (ledge_tile)tile);
}

JS_API int ledge_js_tilemap_get(ledge_world *w, int x, int y) {
    return ledge_tilemap_get(ledge_world_tilemap(w), x, y);
}

JS_API bool ledge_js_tilemap_set_one_way(ledge_world *w, int x, int y, int way) {
    return ledge_tilemap_set_one_way(ledge_world_tilemap(w), x, y, (ledge_one_way)way);
}

JS_API int ledge_js_tilemap_one_way(ledge_world *w, int x, int y) {
    return (int)ledge_tilemap_one_way(ledge_world_tilemap(w), x, y);
}

/// Loads N's level text (n != 0) or the ASCII form.
JS_API bool ledge_js_tilemap_load(ledge_world *w, const char *text, int n) {
    ledge_tilemap *map = ledge_world_tilemap(w);
    return n ? ledge_tilemap_load_n(map, text) : ledge_tilemap_load_ascii(map, text);
}

/// The map's def into scratch: width, height, tile size, origin x, y.
JS_API void ledge_js_tilemap_def(ledge_world *w) {
    ledge_tilemap_def d = ledge_tilemap_get_def(ledge_world_tilemap(w));
    scratch.f[0] = (float)d.width, scratch.f[1] = (float)d.height, scratch.f[2] = d.tile_size;
    scratch.f[3] = d.origin.x, scratch.f[4] = d.origin.y;
}

// ---- queries ----

/// The closest hit of the ray (query_filter at `q`) into `out`
/// (raycast_result); -1 when refused.
JS_API int ledge_js_raycast(ledge_world *w, float ox, float oy, float tx, float ty,
                            const ledge_query_filter *q, ledge_raycast_result *out) {
    ledge_js_clear_error();
    bool hit = ledge_world_raycast(w, v2(ox, oy), v2(tx, ty), q, out);
    if (last_error[0]) return -1;
    return hit;
}

/// The closest hit of the shape described in scratch from word 8, cast
/// from (px, py) by (tx, ty), into `out`; -1 when refused.
JS_API int ledge_js_shape_cast(ledge_world *w, float px, float py, float tx, float ty,
                               const ledge_query_filter *q, ledge_raycast_result *out) {
    ledge_shape s;
    ledge_js_clear_error();
    if (!ledge_js_shape_from(8, &s)) {
        ledge_js_refuse("ledge_world_shape_cast: invalid shape");
        return -1;
    }
    bool hit = ledge_world_shape_cast(w, &s, v2(px, py), v2(tx, ty), q, out);
    if (last_error[0]) return -1;
    return hit;
}

// Ids found by a query, three words each, grown as needed and kept between
// calls (a query every frame allocates nothing once it is large enough).
typedef struct id_list {
    uint32_t *ids;
    int count;
    int capacity;
    bool failed;
} id_list;

static id_list found;

static bool collect(ledge_body_id id, void *context) {
    id_list *l = context;
    if (l->count == l->capacity) {
        int cap = l->capacity ? 2 * l->capacity : 256;
        uint32_t *grown = ledge_alloc(sizeof(uint32_t) * 3 * (size_t)cap);
        if (!grown) {
            l->failed = true;
            return false;
        }
        if (l->ids) memcpy(grown, l->ids, sizeof(uint32_t) * 3 * (size_t)l->count);
        ledge_free(l->ids);
        l->ids = grown;
        l->capacity = cap;
    }
    uint32_t *at = l->ids + 3 * l->count++;
    at[0] = id.index1, at[1] = id.generation, at[2] = id.world;
    return true;
}

/// Bodies whose box overlaps the AABB (point: lower == upper and point
/// != 0): returns their count (-1 when refused or out of memory), the
/// address of their ids (three words each) in scratch 0. Filter: query_filter.
JS_API int ledge_js_query(ledge_world *w, float lx, float ly, float ux, float uy, int point,
                          const ledge_query_filter *q) {
    found.count = 0;
    found.failed = false;
    ledge_js_clear_error();
    if (point) {
        ledge_world_query_point(w, v2(lx, ly), q, collect, &found);
    } else {
        ledge_aabb box = {v2(lx, ly), v2(ux, uy)};
        ledge_world_query_aabb(w, box, q, collect, &found);
    }
    scratch.u[0] = (uint32_t)(uintptr_t)found.ids;
    if (last_error[0]) return -1;
    if (found.failed) {
        strcpy(last_error, "ledge_world_query: out of memory for the results");
        return -1;
    }
    return found.count;
}

// ---- debug draw ----

// The draw list: records of (kind, color, count, floats...) in floats,
// grown as needed and kept between calls so that drawing every frame
// allocates nothing after the first.
typedef struct draw_list {
    float *data;
    int used;
    int capacity;
    bool failed;
} draw_list;

static draw_list draws;

enum {
    DRAW_POLYGON = 1,
    DRAW_SOLID_POLYGON = 2,
    DRAW_CIRCLE = 3,
    DRAW_SOLID_CIRCLE = 4,
    DRAW_SEGMENT = 5,
    DRAW_POINT = 6
};

static float *draw_record(int kind, ledge_color color, int floats) {
    int need = draws.used + 3 + floats;
    if (need > draws.capacity) {
        int cap = draws.capacity ? draws.capacity : 4096;
        while (cap < need) cap *= 2;
        float *grown = ledge_alloc(sizeof(float) * (size_t)cap);
        if (!grown) {
            draws.failed = true;
            return NULL;
        }
        if (draws.data) memcpy(grown, draws.data, sizeof(float) * (size_t)draws.used);
        ledge_free(draws.data);
        draws.data = grown;
        draws.capacity = cap;
    }
    float *r = draws.data + draws.used;
    r[0] = (float)kind, r[1] = (float)color, r[2] = (float)floats;
    draws.used = need;
    return r + 3;
}

static void put_polygon(int kind, const vec2s *v, int n, ledge_color color) {
    float *r = draw_record(kind, color, 2 * n);
    for (int k = 0; r && k < n; ++k) r[2 * k] = v[k].x, r[2 * k + 1] = v[k].y;
}

static void draw_polygon(const vec2s *v, int n, ledge_color color, void *context) {
    (void)context;
    put_polygon(DRAW_POLYGON, v, n, color);
}

static void draw_solid_polygon(const vec2s *v, int n, ledge_color color, void *context) {
    (void)context;
    put_polygon(DRAW_SOLID_POLYGON, v, n, color);
}

static void put_circle(int kind, vec2s c, float radius, ledge_color color) {
    float *r = draw_record(kind, color, 3);
    if (r) r[0] = c.x, r[1] = c.y, r[2] = radius;
}

static void draw_circle(vec2s c, float radius, ledge_color color, void *context) {
    (void)context;
    put_circle(DRAW_CIRCLE, c, radius, color);
}

static void draw_solid_circle(vec2s c, float radius, ledge_color color, void *context) {
    (void)context;
    put_circle(DRAW_SOLID_CIRCLE, c, radius, color);
}

static void draw_segment(vec2s p1, vec2s p2, ledge_color color, void *context) {
    (void)context;
    float *r = draw_record(DRAW_SEGMENT, color, 4);
    if (r) r[0] = p1.x, r[1] = p1.y, r[2] = p2.x, r[3] = p2.y;
}

static void draw_point(vec2s p, float size, ledge_color color, void *context) {
    (void)context;
    put_circle(DRAW_POINT, p, size, color);
}

/// Debug draw of the region into the draw list (flags: 1 tiles, 2 bodies,
/// 4 contacts, 8 normals, 16 bounds, 32 joints, 64 materials, 128 chains); returns its float
/// count (-1 when refused or out of memory), its address in scratch 0.
JS_API int ledge_js_draw(ledge_world *w, int flags, float lx, float ly, float ux, float uy) {
    ledge_debug_draw d = ledge_default_debug_draw();
    d.draw_polygon = draw_polygon;
    d.draw_solid_polygon = draw_solid_polygon;
    d.draw_circle = draw_circle;
    d.draw_solid_circle = draw_solid_circle;
    d.draw_segment = draw_segment;
    d.draw_point = draw_point;
    d.draw_tiles = flags & 1;
    d.draw_bodies = (flags & 2) != 0;
    d.draw_contacts = (flags & 4) != 0;
    d.draw_normals = (flags & 8) != 0;
    d.draw_bounds = (flags & 16) != 0;
    d.draw_joints = (flags & 32) != 0;
    d.draw_materials = (flags & 64) != 0;
    d.draw_chains = (flags & 128) != 0;
    draws.used = 0;
    draws.failed = false;
    ledge_js_clear_error();
    ledge_aabb region = {v2(lx, ly), v2(ux, uy)};
    ledge_world_draw(w, &d, region);
    scratch.u[0] = (uint32_t)(uintptr_t)draws.data;
    if (last_error[0]) return -1;
    if (draws.failed) {
        strcpy(last_error, "ledge_world_draw: out of memory for the draw list");
        return -1;
    }
    return draws.used;
}

// ---- tiles and Tiled ----

/// The tile's name as ledge spells it ("FULL", "45DEG_PN", ...), or NULL.
JS_API const char *ledge_js_tile_name(int tile) {
    return tile >= 0 && tile < LEDGE_TILE_COUNT ? ledge_tile_name((ledge_tile)tile) : NULL;
}

/// The tile Tiled's flip flags (1 horizontal, 2 vertical, 4 diagonal) make.
JS_API int ledge_js_tiled_flip(int tile, int flags) {
    return ledge_tiled_flip((ledge_tile)tile, flags & 1, (flags & 2) != 0, (flags & 4) != 0);
}
