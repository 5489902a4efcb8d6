// The binding's entry points for chains (chain.h): made from the chain_def
// the binding filled and the points it wrote, addressed as bodies and
// joints are by their ids' three 32-bit words; the chain queries through
// ffi.h's forms without callbacks. Structs are read and written by
// ledge.mjs through the table of ledge_js_layout.c.
#include "ledge_js.h"

#include <ledge/ffi.h>

#include <string.h>

#define scratch ledge_js_scratch_area

static ledge_chain_id chain_of(uint32_t a, uint32_t b, uint32_t c) {
    ledge_chain_id id = {a, b, c};
    return id;
}

static void put_chain(int at, ledge_chain_id id) {
    scratch.u[at] = id.index1;
    scratch.u[at + 1] = id.generation;
    scratch.u[at + 2] = id.world;
}

/// ledge_chain_create with the def the binding filled (chain_def) and the
/// `count` points at `points`; the id goes to scratch 0..2; returns whether
/// it is valid.
JS_API bool ledge_js_chain_create(ledge_world *w, ledge_chain_def *def, const vec2s *points,
                                  int count) {
    def->points = points;
    def->count = count;
    def->user_data = NULL;
    ledge_chain_id id = ledge_chain_create(w, def);
    def->points = NULL;
    put_chain(0, id);
    return id.index1 != 0;
}

JS_API void ledge_js_chain_destroy(ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_chain_destroy(w, chain_of(a, b, c));
}

JS_API bool ledge_js_chain_is_valid(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    return ledge_chain_is_valid(w, chain_of(a, b, c));
}

JS_API int ledge_js_world_chain_count(const ledge_world *w) {
    return ledge_world_chain_count(w);
}

/// The chain's state into scratch: type (0), position (1, 2), velocity
/// (3, 4), loop (5), segment count (6), point count (7). False (logged)
/// for an invalid id.
JS_API bool ledge_js_chain_state(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_chain_id id = chain_of(a, b, c);
    if (!ledge_chain_is_valid(w, id)) {
        ledge_chain_get_type(w, id); // logs the refusal
        return false;
    }
    vec2s p = ledge_chain_position(w, id), v = ledge_chain_velocity(w, id);
    scratch.i[0] = (int32_t)ledge_chain_get_type(w, id);
    scratch.f[1] = p.x, scratch.f[2] = p.y;
    scratch.f[3] = v.x, scratch.f[4] = v.y;
    scratch.i[5] = ledge_chain_is_loop(w, id) ? 1 : 0;
    scratch.i[6] = ledge_chain_segment_count(w, id);
    scratch.i[7] = ledge_chain_points(w, id, NULL, 0);
    return true;
}

// What a chain setter does with its numbers.
enum {
    CHAIN_SET_POSITION = 0,
    CHAIN_SET_VELOCITY = 1,
    CHAIN_SET_TARGET = 2, // z: dt
};

/// One of the chain setters (the enum above); returns the library's answer.
JS_API bool ledge_js_chain_set(ledge_world *w, uint32_t a, uint32_t b, uint32_t c, int what,
                               float x, float y, float z) {
    ledge_chain_id id = chain_of(a, b, c);
    switch (what) {
    case CHAIN_SET_POSITION:
        return ledge_chain_set_position(w, id, js_v2(x, y));
    case CHAIN_SET_VELOCITY:
        return ledge_chain_set_velocity(w, id, js_v2(x, y));
    case CHAIN_SET_TARGET:
        return ledge_chain_set_target(w, id, js_v2(x, y), z);
    default:
        ledge_js_refuse("ledge_js_chain_set: unknown setter");
        return false;
    }
}

// The chain's points, kept between calls.
static vec2s *chain_points;
static int chain_point_capacity;

/// The chain's points in its frame (ledge_chain_points): returns their
/// count (-1 when refused or out of memory), their address in scratch 0.
JS_API int ledge_js_chain_points(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_chain_id id = chain_of(a, b, c);
    int n = ledge_chain_points(w, id, chain_points, chain_point_capacity);
    if (n > chain_point_capacity) {
        int cap = chain_point_capacity ? chain_point_capacity : 64;
        while (cap < n) cap *= 2;
        vec2s *grown = ledge_alloc(sizeof(vec2s) * (size_t)cap);
        if (grown == NULL) {
            ledge_js_refuse("ledge_chain_points: out of wasm memory for the points");
            return -1;
        }
        ledge_free(chain_points);
        chain_points = grown;
        chain_point_capacity = cap;
        n = ledge_chain_points(w, id, chain_points, chain_point_capacity);
    }
    scratch.u[0] = (uint32_t)(uintptr_t)chain_points;
    return n;
}

/// Segment `index` in the world (ledge_chain_segment): from (0, 1), to
/// (2, 3), normal (4, 5) in scratch.
JS_API bool ledge_js_chain_segment(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                   int index) {
    vec2s from, to, normal;
    if (!ledge_chain_segment(w, chain_of(a, b, c), index, &from, &to, &normal)) return false;
    scratch.f[0] = from.x, scratch.f[1] = from.y;
    scratch.f[2] = to.x, scratch.f[3] = to.y;
    scratch.f[4] = normal.x, scratch.f[5] = normal.y;
    return true;
}

/// ledge_chain_filter into `out`.
JS_API void ledge_js_chain_filter(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                  ledge_filter *out) {
    *out = ledge_chain_filter(w, chain_of(a, b, c));
}

/// ledge_chain_set_filter with the filter the binding filled.
JS_API bool ledge_js_chain_set_filter(ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                      const ledge_filter *f) {
    return ledge_chain_set_filter(w, chain_of(a, b, c), *f);
}

/// ledge_chain_material into `out`.
JS_API void ledge_js_chain_material(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                    ledge_material *out) {
    *out = ledge_chain_material(w, chain_of(a, b, c));
}

/// ledge_chain_set_material with the material the binding filled.
JS_API bool ledge_js_chain_set_material(ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                        const ledge_material *m) {
    return ledge_chain_set_material(w, chain_of(a, b, c), m);
}

// The chain queries' results: ids (three words each) and segments, grown
// as needed and kept between calls.
static ledge_chain_id *found_chains;
static int *found_segments;
static int found_capacity;

static bool grow_found(int n) {
    int cap = found_capacity ? found_capacity : 64;
    while (cap < n) cap *= 2;
    ledge_chain_id *ids = ledge_alloc(sizeof(ledge_chain_id) * (size_t)cap);
    int *segs = ledge_alloc(sizeof(int) * (size_t)cap);
    if (ids == NULL || segs == NULL) {
        ledge_free(ids);
        ledge_free(segs);
        ledge_js_refuse("ledge_world_query_chains: out of wasm memory for the results");
        return false;
    }
    ledge_free(found_chains);
    ledge_free(found_segments);
    found_chains = ids;
    found_segments = segs;
    found_capacity = cap;
    return true;
}

/// The chain segments that meet the box (point: the closed chains that
/// hold the point (lx, ly), segment -1): returns their count (-1 when
/// refused or out of memory), the address of their ids in scratch 0 and of
/// their segments in scratch 1. Filter: query_filter.
JS_API int ledge_js_query_chains(ledge_world *w, float lx, float ly, float ux, float uy, int point,
                                 const ledge_query_filter *q) {
    ledge_aabb box = {js_v2(lx, ly), js_v2(ux, uy)};
    vec2s at = js_v2(lx, ly);
    for (int round = 0; round < 2; ++round) {
        int n = point ? ledge_world_query_chains_point_ids(w, &at, q, found_chains, found_capacity)
                      : ledge_world_query_chains_aabb_ids(w, &box, q, found_chains, found_segments,
                                                          found_capacity);
        if (n < 0) return -1;
        if (n <= found_capacity) {
            if (point)
                for (int k = 0; k < n; ++k) found_segments[k] = -1;
            scratch.u[0] = (uint32_t)(uintptr_t)found_chains;
            scratch.u[1] = (uint32_t)(uintptr_t)found_segments;
            return n;
        }
        if (!grow_found(n)) return -1;
    }
    return -1;
}
