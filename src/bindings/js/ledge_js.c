// The C side of the JavaScript binding (ledge.mjs): ledge's API flattened
// into functions of numbers and pointers, because JavaScript can neither
// pass nor read C structs. Results go to one scratch area (read back by
// ledge.mjs through the heap views right after the call); body ids travel
// as their three 32-bit fields. Every entry point returns what the library
// returned; a refusal's message is kept by the log hook for the binding to
// throw.
#include <ledge/ledge.h>
#include <ledge/tiled.h>

#include <emscripten/emscripten.h>
#include <limits.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#define JS_API EMSCRIPTEN_KEEPALIVE

enum { SCRATCH_WORDS = 256, MESSAGE_BYTES = 512 };

// Scratch for results: floats and 32-bit integers share the words.
static union {
    float f[SCRATCH_WORDS];
    uint32_t u[SCRATCH_WORDS];
    int32_t i[SCRATCH_WORDS];
} scratch;

static char last_error[MESSAGE_BYTES];

static void keep_error(ledge_log_level level, const char *message, void *user) {
    (void)user;
    // The first refusal since the last clear is the cause; later ones
    // (a body refused because its shape was) only follow from it.
    if (level != LEDGE_LOG_ERROR || last_error[0] != '\0') return;
    strncpy(last_error, message, MESSAGE_BYTES - 1);
    last_error[MESSAGE_BYTES - 1] = '\0';
}

static vec2s v2(float x, float y) {
    vec2s o = {{x, y}};
    return o;
}

// A number from JavaScript as an int. NaN, infinities and values beyond
// int's range become INT_MIN, which every caller refuses with ledge's
// message (a plain cast would be undefined behaviour in C).
static int int_of(float f) {
    return f >= -2147483520.0f && f <= 2147483520.0f ? (int)f : INT_MIN;
}

static ledge_body_id id_of(uint32_t index1, uint32_t generation, uint32_t world) {
    ledge_body_id id = {index1, generation, world};
    return id;
}

static void put_id(int at, ledge_body_id id) {
    scratch.u[at] = id.index1;
    scratch.u[at + 1] = id.generation;
    scratch.u[at + 2] = id.world;
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

/// A world from the def's fields (scratch: gravity x, y, tile size, width,
/// height, origin x, y, body capacity, iterations, substeps, linear slop,
/// bounce threshold, cell size, response model, enable sleep (0 or 1),
/// sleep speed, sleep time), or NULL.
JS_API ledge_world *ledge_js_world_create(void) {
    const float *f = scratch.f;
    ledge_world_def d = ledge_default_world_def();
    d.gravity = v2(f[0], f[1]);
    d.tile_size = f[2];
    d.map_width = int_of(f[3]);
    d.map_height = int_of(f[4]);
    d.map_origin = v2(f[5], f[6]);
    d.body_capacity = int_of(f[7]);
    d.iterations = int_of(f[8]);
    d.substeps = int_of(f[9]);
    d.linear_slop = f[10];
    d.bounce_threshold = f[11];
    d.cell_size = f[12];
    d.friction_law = (ledge_friction_law)int_of(f[13]);
    d.enable_sleep = f[14] != 0.0f;
    d.sleep_speed = f[15];
    d.sleep_time = f[16];
    return ledge_world_create(&d);
}

/// The default world def into scratch, in ledge_js_world_create's order.
JS_API void ledge_js_default_world_def(void) {
    ledge_world_def d = ledge_default_world_def();
    float v[17] = {d.gravity.x,           d.gravity.y,
                   d.tile_size,           (float)d.map_width,
                   (float)d.map_height,   d.map_origin.x,
                   d.map_origin.y,        (float)d.body_capacity,
                   (float)d.iterations,   (float)d.substeps,
                   d.linear_slop,         d.bounce_threshold,
                   d.cell_size,           (float)d.friction_law,
                   (float)d.enable_sleep, d.sleep_speed,
                   d.sleep_time};
    memcpy(scratch.f, v, sizeof v);
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
static bool shape_from(int at, ledge_shape *out) {
    const float *f = scratch.f + at;
    int kind = int_of(f[0]);
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

// Where the body def's shape starts in scratch (after its 16 fields), and
// where ledge_js_body_state puts whether the body is awake (after the
// shape's LEDGE_MAX_POLYGON_VERTICES vertices at 12..).
enum { BODY_SHAPE_AT = 16, BODY_AWAKE_AT = 12 + 2 * LEDGE_MAX_POLYGON_VERTICES };

/// Creates a body from scratch: type, position x, y, velocity x, y,
/// density, friction, bounce, gravity scale, drag, flags (1 bullet, 2
/// sensor, 4 events), one-way, max floor angle, response, category (low
/// 32 bits), mask (low 32 bits), then the shape. The id goes to scratch
/// 0..2; returns whether it is valid.
JS_API bool ledge_js_body_create(ledge_world *w) {
    const float *f = scratch.f;
    ledge_body_def d = ledge_default_body_def();
    d.type = (ledge_body_type)int_of(f[0]);
    d.position = v2(f[1], f[2]);
    d.velocity = v2(f[3], f[4]);
    d.density = f[5];
    d.friction = f[6];
    d.bounce = f[7];
    d.gravity_scale = f[8];
    d.drag = f[9];
    int flags = int_of(f[10]);
    d.bullet = flags & 1;
    d.sensor = (flags & 2) != 0;
    d.enable_events = (flags & 4) != 0;
    d.one_way = int_of(f[11]);
    d.max_floor_angle = f[12];
    d.response = (ledge_response)int_of(f[13]);
    d.filter.category = scratch.u[14];
    d.filter.mask = scratch.u[15] == 0xFFFFFFFFu ? UINT64_MAX : scratch.u[15];
    if (!shape_from(BODY_SHAPE_AT, &d.shape) && d.shape.type == LEDGE_SHAPE_INVALID &&
        last_error[0] == '\0') {
        strcpy(last_error, "ledge_body_create: unknown shape kind");
    }
    ledge_body_id id = ledge_body_create(w, &d);
    put_id(0, id);
    return ledge_body_is_valid(w, id);
}

/// The default body def into scratch, in ledge_js_body_create's order.
JS_API void ledge_js_default_body_def(void) {
    ledge_body_def d = ledge_default_body_def();
    float v[14] = {(float)d.type,
                   d.position.x,
                   d.position.y,
                   d.velocity.x,
                   d.velocity.y,
                   d.density,
                   d.friction,
                   d.bounce,
                   d.gravity_scale,
                   d.drag,
                   (float)(d.bullet | d.sensor << 1 | d.enable_events << 2),
                   (float)d.one_way,
                   d.max_floor_angle,
                   (float)d.response};
    memcpy(scratch.f, v, sizeof v);
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
    SET_FILTER = 9, // category, mask (low 32 bits), group
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
    case SET_FILTER: {
        ledge_filter fl = {scratch.u[0], scratch.u[1] == 0xFFFFFFFFu ? UINT64_MAX : scratch.u[1],
                           scratch.i[2]};
        return ledge_body_set_filter(w, id, fl);
    }
    case SET_AWAKE:
        return ledge_body_set_awake(w, id, x != 0.0f);
    default:
        strcpy(last_error, "ledge_js_body_set: unknown setter");
        return false;
    }
}

// ---- the character move ----

// Layout of a flattened move result in scratch.
enum { MOVE_HEAD = 24, MOVE_HIT_WORDS = 16 };

static void put_move(const ledge_move_result *r) {
    float *f = scratch.f;
    f[0] = r->position.x, f[1] = r->position.y;
    f[2] = r->displacement.x, f[3] = r->displacement.y;
    f[4] = r->velocity.x, f[5] = r->velocity.y;
    scratch.i[6] =
        r->on_ground | r->on_wall << 1 | r->on_ceiling << 2 | r->snapped << 3 | r->stuck << 4;
    scratch.i[7] = r->wall_side;
    f[8] = r->ground_normal.x, f[9] = r->ground_normal.y;
    f[10] = r->wall_normal.x, f[11] = r->wall_normal.y;
    f[12] = r->ceiling_normal.x, f[13] = r->ceiling_normal.y;
    f[14] = r->up.x, f[15] = r->up.y;
    scratch.i[16] = r->ground_hit;
    scratch.i[17] = r->hit_count;
    for (int k = 0; k < r->hit_count && k < LEDGE_MOVE_MAX_HITS; ++k) {
        const ledge_move_hit *h = &r->hits[k];
        int at = MOVE_HEAD + MOVE_HIT_WORDS * k;
        scratch.i[at] = (int)h->kind;
        put_id(at + 1, h->body);
        scratch.i[at + 4] = h->cell_x, scratch.i[at + 5] = h->cell_y, scratch.i[at + 6] = h->tile;
        f[at + 7] = h->normal.x, f[at + 8] = h->normal.y;
        f[at + 9] = h->point.x, f[at + 10] = h->point.y;
        f[at + 11] = h->push.x, f[at + 12] = h->push.y;
        f[at + 13] = h->fraction;
    }
}

/// ledge_body_move by (dx, dy) with the move def in scratch (max slides,
/// max floor slope, snap length, skin, flags (1 stop on slope, 2 set
/// velocity), up x, up y); the result flattened into scratch (put_move).
JS_API bool ledge_js_body_move(ledge_world *w, uint32_t a, uint32_t b, uint32_t c, float dx,
                               float dy) {
    const float *f = scratch.f;
    ledge_move_def d = ledge_default_move_def();
    d.max_slides = int_of(f[0]);
    d.max_floor_slope = f[1];
    d.snap_length = f[2];
    d.skin = f[3];
    int flags = int_of(f[4]);
    d.stop_on_slope = (flags & 1) != 0;
    d.set_velocity = (flags & 2) != 0;
    d.up = v2(f[5], f[6]);
    ledge_move_result r;
    if (!ledge_body_move(w, id_of(a, b, c), v2(dx, dy), &d, &r)) return false;
    put_move(&r);
    return true;
}

/// The default move def into scratch, in ledge_js_body_move's order.
JS_API void ledge_js_default_move_def(void) {
    ledge_move_def d = ledge_default_move_def();
    float v[7] = {(float)d.max_slides,
                  d.max_floor_slope,
                  d.snap_length,
                  d.skin,
                  (float)(d.stop_on_slope | d.set_velocity << 1),
                  d.up.x,
                  d.up.y};
    memcpy(scratch.f, v, sizeof v);
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

static ledge_query_filter filter_from(int at) {
    ledge_query_filter q = ledge_default_query_filter();
    q.category = scratch.u[at];
    q.mask = scratch.u[at + 1] == 0xFFFFFFFFu ? UINT64_MAX : scratch.u[at + 1];
    q.include_tiles = scratch.u[at + 2] != 0;
    q.ignore = id_of(scratch.u[at + 3], scratch.u[at + 4], scratch.u[at + 5]);
    return q;
}

static void put_cast(const ledge_raycast_result *r) {
    scratch.i[0] = (int)r->kind;
    put_id(1, r->body);
    scratch.i[4] = r->cell_x, scratch.i[5] = r->cell_y, scratch.i[6] = r->tile;
    scratch.f[7] = r->point.x, scratch.f[8] = r->point.y;
    scratch.f[9] = r->normal.x, scratch.f[10] = r->normal.y;
    scratch.f[11] = r->fraction;
}

/// The closest hit of the ray (filter in scratch 0..5) into scratch
/// (put_cast); -1 when refused.
JS_API int ledge_js_raycast(ledge_world *w, float ox, float oy, float tx, float ty) {
    ledge_query_filter q = filter_from(0);
    ledge_raycast_result r;
    ledge_js_clear_error();
    bool hit = ledge_world_raycast(w, v2(ox, oy), v2(tx, ty), &q, &r);
    if (last_error[0]) return -1;
    if (hit) put_cast(&r);
    return hit;
}

/// The closest hit of `shape` (scratch 8..) cast from (px, py) by (tx, ty)
/// (filter in scratch 0..5); -1 when refused.
JS_API int ledge_js_shape_cast(ledge_world *w, float px, float py, float tx, float ty) {
    ledge_query_filter q = filter_from(0);
    ledge_shape s;
    ledge_js_clear_error();
    if (!shape_from(8, &s)) {
        if (!last_error[0]) strcpy(last_error, "ledge_world_shape_cast: invalid shape");
        return -1;
    }
    ledge_raycast_result r;
    bool hit = ledge_world_shape_cast(w, &s, v2(px, py), v2(tx, ty), &q, &r);
    if (last_error[0]) return -1;
    if (hit) put_cast(&r);
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
/// address of their ids (three words each) in scratch 0.
JS_API int ledge_js_query(ledge_world *w, float lx, float ly, float ux, float uy, int point) {
    ledge_query_filter q = filter_from(0);
    found.count = 0;
    found.failed = false;
    ledge_js_clear_error();
    if (point) {
        ledge_world_query_point(w, v2(lx, ly), &q, collect, &found);
    } else {
        ledge_aabb box = {v2(lx, ly), v2(ux, uy)};
        ledge_world_query_aabb(w, box, &q, collect, &found);
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
/// 4 contacts, 8 normals, 16 bounds); returns its float count (-1 when
/// refused or out of memory), its address in scratch 0.
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
