// Entry points for foreign-function interfaces (ffi.h): the by-pointer
// forms of hot calls, and the queries without callbacks.
#include "core.h"

#include "ledge/ffi.h"

#include <string.h>

static bool present(const char *fn, const char *arg, const void *p) {
    if (p != NULL) return true;
    LEDGE_ERROR("%s: %s is NULL", fn, arg);
    return false;
}

bool ledge_body_set_position_ref(ledge_world *world, const ledge_body_id *id,
                                 const vec2s *position) {
    const char *fn = "ledge_body_set_position_ref";
    if (!present(fn, "id", id) || !present(fn, "position", position)) return false;
    return ledge_body_set_position(world, *id, *position);
}

bool ledge_body_position_ref(const ledge_world *world, const ledge_body_id *id, vec2s *out) {
    const char *fn = "ledge_body_position_ref";
    if (!present(fn, "out", out)) return false;
    memset(out, 0, sizeof *out);
    if (!present(fn, "id", id) || !ledge_body_is_valid(world, *id)) {
        if (id) ledge_body_position(world, *id); // logs why the id is refused
        return false;
    }
    *out = ledge_body_position(world, *id);
    return true;
}

bool ledge_body_move_ref(ledge_world *world, const ledge_body_id *id, const vec2s *displacement,
                         const ledge_move_def *def, ledge_move_result *out) {
    const char *fn = "ledge_body_move_ref";
    if (!present(fn, "id", id) || !present(fn, "displacement", displacement)) {
        if (out) memset(out, 0, sizeof *out);
        return false;
    }
    return ledge_body_move(world, *id, *displacement, def, out);
}

// Collects ids for the *_ids queries.
typedef struct id_sink {
    ledge_body_id *out;
    int capacity;
    int count;
} id_sink;

static bool sink_id(ledge_body_id id, void *context) {
    id_sink *s = context;
    if (s->count < s->capacity) s->out[s->count] = id;
    s->count++;
    return true;
}

static bool check_out(const char *fn, const ledge_body_id *out, int capacity) {
    if (capacity >= 0 && (out != NULL || capacity == 0)) return true;
    LEDGE_ERROR("%s: capacity is %d with out %s (must be >= 0, out non-NULL when > 0)", fn,
                capacity, out ? "set" : "NULL");
    return false;
}

int ledge_world_query_aabb_ids(ledge_world *world, const ledge_aabb *aabb,
                               const ledge_query_filter *filter, ledge_body_id *out, int capacity) {
    const char *fn = "ledge_world_query_aabb_ids";
    if (!present(fn, "aabb", aabb) || !check_out(fn, out, capacity)) return -1;
    id_sink s = {out, capacity, 0};
    return ledge_world_query_aabb(world, *aabb, filter, sink_id, &s) < 0 ? -1 : s.count;
}

int ledge_world_query_point_ids(ledge_world *world, const vec2s *point,
                                const ledge_query_filter *filter, ledge_body_id *out,
                                int capacity) {
    const char *fn = "ledge_world_query_point_ids";
    if (!present(fn, "point", point) || !check_out(fn, out, capacity)) return -1;
    id_sink s = {out, capacity, 0};
    return ledge_world_query_point(world, *point, filter, sink_id, &s) < 0 ? -1 : s.count;
}
