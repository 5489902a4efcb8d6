// The binding's entry points for surface materials (material.h: a body's,
// a tile id's, a cell's, and their mix) and joints (joint.h: made from the
// joint_def the binding filled, addressed as bodies are by their ids' three
// 32-bit words). Structs are read and written by ledge.mjs through the
// table of ledge_js_layout.c.
#include "ledge_js.h"

#include <string.h>

#define scratch ledge_js_scratch_area

// ---- materials ----

/// ledge_mix_materials of the materials at `a` and `b`, into `out`.
JS_API void ledge_js_mix_materials(const ledge_material *a, const ledge_material *b,
                                   ledge_material *out) {
    *out = ledge_mix_materials(a, b);
}

/// Whether the material at `m` is in range (ledge_material_is_valid).
JS_API bool ledge_js_material_is_valid(const ledge_material *m) {
    return ledge_material_is_valid(m);
}

/// ledge_body_set_surface_speed.
JS_API bool ledge_js_body_set_surface_speed(ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                            float speed) {
    return ledge_body_set_surface_speed(w, js_id(a, b, c), speed);
}

/// ledge_body_set_material with the material the binding filled.
JS_API bool ledge_js_body_set_material(ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                       const ledge_material *m) {
    return ledge_body_set_material(w, js_id(a, b, c), m);
}

/// ledge_body_material into `out`.
JS_API void ledge_js_body_material(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                   ledge_material *out) {
    *out = ledge_body_material(w, js_id(a, b, c));
}

/// ledge_tilemap_set_tile_material.
JS_API bool ledge_js_tilemap_set_tile_material(ledge_world *w, int tile, const ledge_material *m) {
    if (tile < 0 || tile >= LEDGE_TILE_COUNT) tile = LEDGE_TILE_COUNT; // refused with its message
    return ledge_tilemap_set_tile_material(ledge_world_tilemap(w), (ledge_tile)tile, m);
}

/// ledge_tilemap_tile_material into `out`.
JS_API void ledge_js_tilemap_tile_material(ledge_world *w, int tile, ledge_material *out) {
    if (tile < 0 || tile >= LEDGE_TILE_COUNT) tile = LEDGE_TILE_COUNT;
    *out = ledge_tilemap_tile_material(ledge_world_tilemap(w), (ledge_tile)tile);
}

/// ledge_tilemap_set_cell_material (m NULL: the cell's own material taken away).
JS_API bool ledge_js_tilemap_set_cell_material(ledge_world *w, int x, int y,
                                               const ledge_material *m) {
    return ledge_tilemap_set_cell_material(ledge_world_tilemap(w), x, y, m);
}

/// ledge_tilemap_cell_material into `out`.
JS_API void ledge_js_tilemap_cell_material(ledge_world *w, int x, int y, ledge_material *out) {
    *out = ledge_tilemap_cell_material(ledge_world_tilemap(w), x, y);
}

/// ledge_tilemap_cell_has_material.
JS_API bool ledge_js_tilemap_cell_has_material(ledge_world *w, int x, int y) {
    return ledge_tilemap_cell_has_material(ledge_world_tilemap(w), x, y);
}

/// ledge_tilemap_clear_cell_materials.
JS_API void ledge_js_tilemap_clear_cell_materials(ledge_world *w) {
    ledge_tilemap_clear_cell_materials(ledge_world_tilemap(w));
}

/// ledge_tilemap_reserve_cell_materials.
JS_API bool ledge_js_tilemap_reserve_cell_materials(ledge_world *w, int count) {
    return ledge_tilemap_reserve_cell_materials(ledge_world_tilemap(w), count);
}

// ---- joints ----

static ledge_joint_id joint_of(uint32_t a, uint32_t b, uint32_t c) {
    ledge_joint_id id = {a, b, c};
    return id;
}

static void put_joint(int at, ledge_joint_id id) {
    scratch.u[at] = id.index1;
    scratch.u[at + 1] = id.generation;
    scratch.u[at + 2] = id.world;
}

/// Fills `out` with the default def of joint type `type` (ledge_default_*_def);
/// false for a type that is none.
JS_API bool ledge_js_joint_default(int type, ledge_joint_def *out) {
    switch (type) {
    case LEDGE_JOINT_ROD:
        *out = ledge_default_rod_def();
        return true;
    case LEDGE_JOINT_ROPE:
        *out = ledge_default_rope_def();
        return true;
    case LEDGE_JOINT_SPRING:
        *out = ledge_default_spring_def();
        return true;
    case LEDGE_JOINT_WELD:
        *out = ledge_default_weld_def();
        return true;
    case LEDGE_JOINT_SLIDER:
        *out = ledge_default_slider_def();
        return true;
    case LEDGE_JOINT_PULLEY:
        *out = ledge_default_pulley_def();
        return true;
    default:
        return false;
    }
}

/// ledge_joint_create with the def the binding filled (joint_def); the id
/// goes to scratch 0..2; returns whether it is valid.
JS_API bool ledge_js_joint_create(ledge_world *w, const ledge_joint_def *def) {
    ledge_joint_id id = ledge_joint_create(w, def);
    put_joint(0, id);
    return id.index1 != 0;
}

JS_API void ledge_js_joint_destroy(ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_joint_destroy(w, joint_of(a, b, c));
}

JS_API bool ledge_js_joint_is_valid(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    return ledge_joint_is_valid(w, joint_of(a, b, c));
}

/// ledge_joint_get_def into `out` (joint_def).
JS_API bool ledge_js_joint_get_def(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c,
                                   ledge_joint_def *out) {
    return ledge_joint_get_def(w, joint_of(a, b, c), out);
}

/// The joint's state into scratch: type (0), body a's id (1..3), body b's
/// (4..6), anchor a (7, 8), anchor b (9, 10), the current length (11), the
/// force (12, 13). False (logged) for an invalid id.
JS_API bool ledge_js_joint_state(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_joint_id id = joint_of(a, b, c);
    if (!ledge_joint_is_valid(w, id)) {
        ledge_joint_get_type(w, id); // logs the refusal
        return false;
    }
    scratch.i[0] = (int32_t)ledge_joint_get_type(w, id);
    js_put_id(1, ledge_joint_body_a(w, id));
    js_put_id(4, ledge_joint_body_b(w, id));
    vec2s pa = ledge_joint_anchor_a(w, id), pb = ledge_joint_anchor_b(w, id);
    vec2s f = ledge_joint_force(w, id);
    scratch.f[7] = pa.x, scratch.f[8] = pa.y, scratch.f[9] = pb.x, scratch.f[10] = pb.y;
    scratch.f[11] = ledge_joint_current_length(w, id);
    scratch.f[12] = f.x, scratch.f[13] = f.y;
    return true;
}

// What a joint setter does with its numbers.
enum {
    JOINT_SET_LENGTH = 0,
    JOINT_SET_LIMITS = 1,
    JOINT_SET_SPRING = 2,
    JOINT_SET_MOTOR = 3, // x speed, y max force, z != 0 on
    JOINT_SET_COLLIDE = 4,
};

/// One of the joint setters (the enum above); returns the library's answer.
JS_API bool ledge_js_joint_set(ledge_world *w, uint32_t a, uint32_t b, uint32_t c, int what,
                               float x, float y, float z) {
    ledge_joint_id id = joint_of(a, b, c);
    switch (what) {
    case JOINT_SET_LENGTH:
        return ledge_joint_set_length(w, id, x);
    case JOINT_SET_LIMITS:
        return ledge_joint_set_limits(w, id, x, y);
    case JOINT_SET_SPRING:
        return ledge_joint_set_spring(w, id, x, y);
    case JOINT_SET_MOTOR:
        return ledge_joint_set_motor(w, id, z != 0.0f, x, y);
    case JOINT_SET_COLLIDE:
        return ledge_joint_set_collide_connected(w, id, x != 0.0f);
    default:
        ledge_js_refuse("ledge_js_joint_set: unknown setter");
        return false;
    }
}

JS_API int ledge_js_world_joint_count(const ledge_world *w) {
    return ledge_world_joint_count(w);
}

// The ids of a body's joints, three words each, kept between calls.
static ledge_joint_id *joint_ids;
static int joint_capacity;

/// The joints of a body (ledge_body_joints): returns their count (-1 when
/// refused or out of memory), the address of their ids in scratch 0.
JS_API int ledge_js_body_joints(const ledge_world *w, uint32_t a, uint32_t b, uint32_t c) {
    ledge_body_id id = js_id(a, b, c);
    int n = ledge_body_joints(w, id, joint_ids, joint_capacity);
    if (n > joint_capacity) {
        int cap = joint_capacity ? joint_capacity : 16;
        while (cap < n) cap *= 2;
        ledge_joint_id *grown = ledge_alloc(sizeof(ledge_joint_id) * (size_t)cap);
        if (grown == NULL) {
            ledge_js_refuse("ledge_body_joints: out of wasm memory for the joints");
            return -1;
        }
        ledge_free(joint_ids);
        joint_ids = grown;
        joint_capacity = cap;
        n = ledge_body_joints(w, id, joint_ids, joint_capacity);
    }
    scratch.u[0] = (uint32_t)(uintptr_t)joint_ids;
    return n;
}
