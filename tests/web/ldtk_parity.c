// The native side of the JavaScript binding's LDtk test (tests/web/ldtk.test.mjs):
// `replay_hashes ldtk FILE OPTIONS STEPS` makes a world from the LDtk
// project in FILE with ledge_ldtk_create_world_file (separate level files
// read next to it) and the def the binding's options say (OPTIONS, the
// JSON the test passes to World.fromLdtk, without resolve), and prints the
// result as JSON in the binding's shape: the map, the levels, the entities
// with their fields, bodies and path positions, and the world's hash after
// the load and after STEPS steps of 1/60 s with the platforms following
// their paths. A refused project prints {"error": the logged message}.
#include "parity.h"

#include <ledge/ldtk.h>

#include <jansson.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

// The times the test asks every path's position at (ldtk.test.mjs: TIMES).
static const double times[] = {0.0, 0.25, 1.0 / 3.0, 1.0, 2.5, 7.75, 100.0, 12345.678};

static char logged[1024];

static void keep_log(ledge_log_level level, const char *message, void *user) {
    (void)user;
    if (level == LEDGE_LOG_ERROR && logged[0] == '\0')
        snprintf(logged, sizeof logged, "%s", message);
}

static json_t *real(double v) {
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *vec(vec2s v) {
    return json_pack("{s:o,s:o}", "x", real(v.x), "y", real(v.y));
}

static json_t *aabb(ledge_aabb b) {
    return json_pack("{s:o,s:o}", "lower", vec(b.lower), "upper", vec(b.upper));
}

static json_t *hash(uint64_t h) {
    char s[17];
    snprintf(s, sizeof s, "%016llx", (unsigned long long)h);
    return json_string(s);
}

static json_t *value(const ledge_ldtk_field *f, const ledge_ldtk_value *v) {
    if (v->is_null) return json_null();
    switch (f->type) {
    case LEDGE_LDTK_FIELD_UNKNOWN:
        return json_null();
    case LEDGE_LDTK_FIELD_INT:
        return json_integer(v->integer);
    case LEDGE_LDTK_FIELD_FLOAT:
        return real(v->number);
    case LEDGE_LDTK_FIELD_BOOL:
        return json_boolean(v->boolean);
    case LEDGE_LDTK_FIELD_POINT:
        return json_pack("{s:i,s:i,s:o,s:o}", "cx", v->cx, "cy", v->cy, "x", real(v->point.x), "y",
                         real(v->point.y));
    case LEDGE_LDTK_FIELD_ENTITY_REF:
        return json_pack("{s:s,s:s,s:s,s:s,s:i}", "iid", v->string, "layer", v->layer, "level",
                         v->level, "world", v->world, "entity", v->entity);
    case LEDGE_LDTK_FIELD_TILE:
        return json_pack("{s:i,s:i,s:i,s:i,s:i}", "tileset", v->tileset_uid, "x", v->x, "y", v->y,
                         "w", v->w, "h", v->h);
    default:
        return json_string(v->string);
    }
}

static void fields(const ledge_ldtk_result *r, int first, int count, json_t *owner) {
    json_t *values = json_object(), *types = json_object();
    for (int i = first; i < first + count; ++i) {
        const ledge_ldtk_field *f = &r->fields[i];
        json_t *v = json_null();
        if (f->is_array) {
            json_decref(v);
            v = json_array();
            for (int k = 0; k < f->value_count; ++k)
                json_array_append_new(v, value(f, &r->values[f->first_value + k]));
        } else if (f->value_count == 1) {
            json_decref(v);
            v = value(f, &r->values[f->first_value]);
        }
        json_object_set_new(values, f->identifier, v);
        json_object_set_new(types, f->identifier, json_string(f->type_name));
    }
    json_object_set_new(owner, "fields", values);
    json_object_set_new(owner, "fieldTypes", types);
}

static const char *const body_kinds[] = {"none", "static", "kinematic", "dynamic", "sensor"};
static const char *const body_types[] = {"static", "kinematic", "dynamic"};
static const char *const mixes[] = {"mean", "min", "max"};

static json_t *entity(const ledge_ldtk_result *r, int i, ledge_world *w) {
    const ledge_ldtk_entity *e = &r->entities[i];
    json_t *o = json_pack(
        "{s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:o,s:o,s:s,s:s,s:s,s:b,s:b,s:o,s:o,s:o,s:o,s:s,"
        "s:s,s:o,s:b}",
        "identifier", e->identifier, "iid", e->iid, "layer", e->layer, "level", e->level, "pxX",
        e->px_x, "pxY", e->px_y, "pxWidth", e->px_width, "pxHeight", e->px_height, "cx", e->cx,
        "cy", e->cy, "position", vec(e->position), "bounds", aabb(e->bounds), "body",
        body_kinds[e->body], "shape", e->shape == LEDGE_LDTK_CIRCLE ? "circle" : "box", "bodyType",
        body_types[e->body_type], "sensor", e->sensor, "oneWay", e->one_way, "friction",
        real(e->friction), "bounce", real(e->bounce), "density", real(e->density), "surfaceSpeed",
        real(e->surface_speed), "material", e->material, "frictionMix", mixes[e->friction_mix],
        "speed", real(e->path_speed), "loop", e->path_loop);
    json_t *bodies = json_array(), *path = json_array(), *at = json_array();
    for (int k = e->first_body; k < e->first_body + e->body_count; ++k) {
        ledge_body_id id = r->bodies[k];
        json_array_append_new(bodies, json_pack("{s:s,s:o,s:o,s:o}", "type",
                                                body_types[ledge_body_get_type(w, id)], "position",
                                                vec(ledge_body_position(w, id)), "velocity",
                                                vec(ledge_body_velocity(w, id)), "mass",
                                                real(ledge_body_mass(w, id))));
    }
    for (int k = e->first_path_point; k < e->first_path_point + e->path_point_count; ++k)
        json_array_append_new(path, vec(r->path_points[k]));
    if (e->path_point_count > 0)
        for (size_t t = 0; t < sizeof times / sizeof times[0]; ++t)
            json_array_append_new(at, vec(ledge_ldtk_path_position(r, e, times[t])));
    json_object_set_new(o, "bodies", bodies);
    json_object_set_new(o, "path", path);
    json_object_set_new(o, "pathPositions", at);
    fields(r, e->first_field, e->field_count, o);
    return o;
}

static json_t *level(const ledge_ldtk_result *r, const ledge_ldtk_level *l) {
    json_t *o = json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:{s:i,s:i},s:i,s:i,s:o}", "identifier",
                          l->identifier, "iid", l->iid, "index", l->index, "worldX", l->world_x,
                          "worldY", l->world_y, "pxWidth", l->px_width, "pxHeight", l->px_height,
                          "cell", "x", l->cell_x, "y", l->cell_y, "width", l->cell_width, "height",
                          l->cell_height, "bounds", aabb(l->bounds));
    fields(r, l->first_field, l->field_count, o);
    return o;
}

// The binding's options (what the test uses of them) as a def; the strings
// stay in `o`.
static ledge_ldtk_def def_of(const json_t *o, ledge_ldtk_intgrid_tile *grid, int grid_max,
                             ledge_ldtk_entity_body *bodies, int bodies_max) {
    ledge_ldtk_def d = ledge_default_ldtk_def();
    const json_t *world = json_object_get(o, "world"), *v;
    if ((v = json_object_get(world, "gravity")) != NULL)
        d.world.gravity = (vec2s){{(float)json_number_value(json_object_get(v, "x")),
                                   (float)json_number_value(json_object_get(v, "y"))}};
    if ((v = json_object_get(world, "tileSize")) != NULL)
        d.world.tile_size = (float)json_number_value(v);
    d.y_down = json_is_true(json_object_get(o, "yDown"));
    d.all_levels = json_is_true(json_object_get(o, "allLevels"));
    v = json_object_get(o, "level");
    if (json_is_string(v)) d.level = json_string_value(v);
    if (json_is_integer(v)) d.level_index = (int)json_integer_value(v);
    d.ldtk_world = json_string_value(json_object_get(o, "ldtkWorld"));
    d.tile_layer = json_string_value(json_object_get(o, "tileLayer"));
    const json_t *list = json_object_get(o, "intgrid");
    for (size_t i = 0; i < json_array_size(list) && (int)i < grid_max; ++i) {
        const json_t *e = json_array_get(list, i);
        int one_way = 0;
        const json_t *tile = json_object_get(e, "tile");
        int t = json_is_string(tile) ? ledge_ldtk_tile_from_name(json_string_value(tile), &one_way)
                                     : (int)json_integer_value(tile);
        if (json_object_get(e, "oneWay") != NULL)
            one_way = json_is_true(json_object_get(e, "oneWay")) ? LEDGE_ONE_WAY_UP : 0;
        grid[i] = (ledge_ldtk_intgrid_tile){json_string_value(json_object_get(e, "layer")),
                                            json_string_value(json_object_get(e, "identifier")),
                                            (int)json_integer_value(json_object_get(e, "value")), t,
                                            one_way};
        d.intgrid = grid;
        d.intgrid_count = (int)i + 1;
    }
    list = json_object_get(o, "entityBodies");
    for (size_t i = 0; i < json_array_size(list) && (int)i < bodies_max; ++i) {
        const json_t *e = json_array_get(list, i);
        const char *body = json_string_value(json_object_get(e, "body"));
        const char *shape = json_string_value(json_object_get(e, "shape"));
        ledge_ldtk_body_kind kind = LEDGE_LDTK_NO_BODY;
        for (int k = 0; k < 5; ++k)
            if (body != NULL && strcmp(body, body_kinds[k]) == 0) kind = (ledge_ldtk_body_kind)k;
        bodies[i] = (ledge_ldtk_entity_body){
            json_string_value(json_object_get(e, "identifier")), kind,
            shape != NULL && strcmp(shape, "circle") == 0 ? LEDGE_LDTK_CIRCLE : LEDGE_LDTK_BOX,
            json_is_true(json_object_get(e, "oneWay"))};
        d.entity_bodies = bodies;
        d.entity_body_count = (int)i + 1;
    }
    return d;
}

int parity_ldtk(FILE *to, const char *file, const char *options, int steps) {
    json_t *o = json_loads(options, 0, NULL);
    if (o == NULL) return 1;
    ledge_ldtk_intgrid_tile grid[64];
    ledge_ldtk_entity_body bodies[64];
    ledge_ldtk_def def = def_of(o, grid, 64, bodies, 64);
    ledge_set_log_hook(keep_log, NULL);
    ledge_ldtk_result *r = NULL;
    ledge_world *w = ledge_ldtk_create_world_file(file, &def, &r);
    json_t *out;
    if (w == NULL) {
        out = json_pack("{s:s}", "error", logged);
    } else {
        json_t *counts = json_array(), *levels = json_array(), *entities = json_array();
        for (int t = 0; t < LEDGE_TILE_COUNT; ++t)
            json_array_append_new(counts, json_integer(r->tile_counts[t]));
        for (int i = 0; i < r->level_count; ++i)
            json_array_append_new(levels, level(r, &r->levels[i]));
        for (int i = 0; i < r->entity_count; ++i) json_array_append_new(entities, entity(r, i, w));
        json_t *hashes = json_array();
        json_array_append_new(hashes, hash(ledge_world_hash(w)));
        const float dt = 1.0f / 60.0f;
        for (int s = 0; s < steps; ++s) {
            for (int i = 0; i < r->entity_count; ++i) {
                const ledge_ldtk_entity *e = &r->entities[i];
                if (e->path_point_count == 0 || e->body_count == 0) continue;
                vec2s next = ledge_ldtk_path_position(r, e, (double)(s + 1) * dt);
                ledge_body_set_target(w, r->bodies[e->first_body], next, dt);
            }
            ledge_world_step(w, dt);
        }
        json_array_append_new(hashes, hash(ledge_world_hash(w)));
        out = json_pack("{s:i,s:i,s:i,s:o,s:i,s:i,s:o,s:o,s:o}", "width", r->width, "height",
                        r->height, "gridPx", r->grid_px, "tileCounts", counts, "oneWayCells",
                        r->one_way_cells, "materialCells", r->material_cells, "levels", levels,
                        "entities", entities, "hashes", hashes);
        ledge_ldtk_result_destroy(r);
        ledge_world_destroy(w);
    }
    json_dumpf(out, to, JSON_COMPACT);
    fputc('\n', to);
    json_decref(out);
    json_decref(o);
    return 0;
}
