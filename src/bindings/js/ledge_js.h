// What the binding's C files share (ledge_js.c, ledge_js_layout.c,
// ledge_js_world.c): the scratch area results are written to, the kept
// refusal message, and the helpers that turn JavaScript's numbers into C's.
#ifndef LEDGE_JS_H
#define LEDGE_JS_H

#include <ledge/ledge.h>

#include <emscripten/emscripten.h>

#define JS_API EMSCRIPTEN_KEEPALIVE

enum { SCRATCH_WORDS = 256, MESSAGE_BYTES = 512 };

/// Scratch for results and small arguments: floats and 32-bit integers
/// share the words.
typedef union js_scratch {
    float f[SCRATCH_WORDS];
    uint32_t u[SCRATCH_WORDS];
    int32_t i[SCRATCH_WORDS];
} js_scratch;

extern js_scratch ledge_js_scratch_area;
extern char ledge_js_last_error[MESSAGE_BYTES];

/// Keeps `message` as the refusal unless one is kept already (the binding's
/// own refusals, worded as ledge's).
void ledge_js_refuse(const char *message);

static inline vec2s js_v2(float x, float y) {
    vec2s o = {{x, y}};
    return o;
}

static inline ledge_body_id js_id(uint32_t index1, uint32_t generation, uint32_t world) {
    ledge_body_id id = {index1, generation, world};
    return id;
}

/// Writes an id into three scratch words from `at`.
static inline void js_put_id(int at, ledge_body_id id) {
    ledge_js_scratch_area.u[at] = id.index1;
    ledge_js_scratch_area.u[at + 1] = id.generation;
    ledge_js_scratch_area.u[at + 2] = id.world;
}

/// Forgets the last message (before a call whose refusal is checked).
void ledge_js_clear_error(void);

/// The shape described in scratch from word `at` (ledge_js.c), into *out;
/// whether it is valid.
bool ledge_js_shape_from(int at, ledge_shape *out);

#endif // LEDGE_JS_H
