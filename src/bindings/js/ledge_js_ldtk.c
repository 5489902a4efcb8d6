// LDtk projects in the JavaScript binding (ledge.mjs: World.fromLdtk,
// world.loadLdtk, tilemap.loadLdtk): the loader of ledge_ldtk (the C
// library, with jansson compiled into the module) behind one entry point.
// The options come in as a JSON text the binding wrote (its tables already
// checked and turned into numbers), the result goes out as a JSON text the
// binding turns into its objects; the C result is kept only while the
// binding needs it for path positions.
#include "ledge_js.h"

#include <ledge/ldtk.h>

#include <jansson.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

// ---- separate level files: the JavaScript callback ----

// Calls the binding's resolve callback with the path: the text it returned
// (malloc'd by the binding, its length in scratch word 0), or NULL.
EM_JS(char *, js_ldtk_resolve, (const char *path), { return Module.ledgeLdtkResolve(path); });

// The texts the callback handed over during one load, freed after it (the
// loader reads them until it returns).
static char **resolved;
static int resolved_count, resolved_capacity;

static const char *resolve_level(const char *path, size_t *len, void *user) {
    (void)user;
    if (resolved_count == resolved_capacity) {
        int n = resolved_capacity ? 2 * resolved_capacity : 8;
        char **grown = realloc(resolved, (size_t)n * sizeof *grown);
        if (grown == NULL) return NULL;
        resolved = grown;
        resolved_capacity = n;
    }
    char *text = js_ldtk_resolve(path);
    if (text == NULL) return NULL;
    resolved[resolved_count++] = text;
    *len = ledge_js_scratch_area.u[0];
    return text;
}

static void free_resolved(void) {
    for (int i = 0; i < resolved_count; ++i) free(resolved[i]);
    resolved_count = 0;
}

// ---- the options ----

static const char *opt_string(const json_t *o, const char *key) {
    const char *s = json_string_value(json_object_get(o, key));
    return s;
}

static int opt_int(const json_t *o, const char *key, int otherwise) {
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int)json_integer_value(v) : otherwise;
}

// The binding's tables (intgrid, entityBodies) into the def; the strings
// stay in `opts` until the load returns. False when out of memory.
static bool fill_tables(const json_t *opts, ledge_ldtk_def *def, ledge_ldtk_intgrid_tile **grid,
                        ledge_ldtk_entity_body **bodies) {
    const json_t *list = json_object_get(opts, "intgrid");
    size_t n = json_array_size(list);
    if (n > 0) {
        *grid = calloc(n, sizeof **grid);
        if (*grid == NULL) return false;
        for (size_t i = 0; i < n; ++i) {
            const json_t *e = json_array_get(list, i);
            (*grid)[i] = (ledge_ldtk_intgrid_tile){
                opt_string(e, "layer"), opt_string(e, "identifier"), opt_int(e, "value", 0),
                opt_int(e, "tile", 0), opt_int(e, "oneWay", 0)};
        }
        def->intgrid = *grid;
        def->intgrid_count = (int)n;
    }
    list = json_object_get(opts, "entityBodies");
    n = json_array_size(list);
    if (n > 0) {
        *bodies = calloc(n, sizeof **bodies);
        if (*bodies == NULL) return false;
        for (size_t i = 0; i < n; ++i) {
            const json_t *e = json_array_get(list, i);
            (*bodies)[i] = (ledge_ldtk_entity_body){opt_string(e, "identifier"),
                                                    (ledge_ldtk_body_kind)opt_int(e, "body", 0),
                                                    (ledge_ldtk_shape)opt_int(e, "shape", 0),
                                                    json_is_true(json_object_get(e, "oneWay"))};
        }
        def->entity_bodies = *bodies;
        def->entity_body_count = (int)n;
    }
    return true;
}

// ---- the result as JSON ----

// Whether every value of the result's JSON was made (jansson returns NULL
// when out of memory, and an array or object then silently lacks it).
static bool json_ok;

static void append(json_t *array, json_t *v) {
    if (v == NULL || json_array_append_new(array, v) != 0) json_ok = false;
}

static void set(json_t *object, const char *key, json_t *v) {
    if (v == NULL || json_object_set_new(object, key, v) != 0) json_ok = false;
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

static json_t *value_json(const ledge_ldtk_field *f, const ledge_ldtk_value *v) {
    if (v->is_null) return json_null();
    switch (f->type) {
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
        return json_pack("{s:s?,s:s?,s:s?,s:s?,s:i}", "iid", v->string, "layer", v->layer, "level",
                         v->level, "world", v->world, "entity", v->entity);
    case LEDGE_LDTK_FIELD_TILE:
        return json_pack("{s:i,s:i,s:i,s:i,s:i}", "tileset", v->tileset_uid, "x", v->x, "y", v->y,
                         "w", v->w, "h", v->h);
    case LEDGE_LDTK_FIELD_UNKNOWN:
        return json_null();
    default:
        return json_string(v->string); // String, Enum, Color ("#rrggbb"), FilePath
    }
}

// {name: value} and {name: LDtk's type} of `count` fields from `first`.
static void fields_json(const ledge_ldtk_result *r, int first, int count, json_t *owner) {
    json_t *values = json_object(), *types = json_object();
    if (values == NULL || types == NULL) json_ok = false;
    for (int i = first; i < first + count; ++i) {
        const ledge_ldtk_field *f = &r->fields[i];
        json_t *v;
        if (f->is_array) {
            v = json_array();
            for (int k = 0; k < f->value_count; ++k)
                append(v, value_json(f, &r->values[f->first_value + k]));
        } else {
            v = f->value_count == 1 ? value_json(f, &r->values[f->first_value]) : json_null();
        }
        set(values, f->identifier, v);
        set(types, f->identifier, json_string(f->type_name));
    }
    set(owner, "fields", values);
    set(owner, "fieldTypes", types);
}

static json_t *level_json(const ledge_ldtk_result *r, const ledge_ldtk_level *l) {
    json_t *o = json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:{s:i,s:i},s:i,s:i,s:o}", "identifier",
                          l->identifier, "iid", l->iid, "index", l->index, "worldX", l->world_x,
                          "worldY", l->world_y, "pxWidth", l->px_width, "pxHeight", l->px_height,
                          "cell", "x", l->cell_x, "y", l->cell_y, "width", l->cell_width, "height",
                          l->cell_height, "bounds", aabb(l->bounds));
    if (o != NULL) fields_json(r, l->first_field, l->field_count, o);
    return o;
}

static json_t *entity_json(const ledge_ldtk_result *r, const ledge_ldtk_entity *e) {
    json_t *o = json_pack(
        "{s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:o,s:o,s:i,s:i,s:i,s:b,s:b,s:o,s:o,s:o,s:o,s:s,"
        "s:i,s:o,s:b}",
        "identifier", e->identifier, "iid", e->iid, "layer", e->layer, "level", e->level, "pxX",
        e->px_x, "pxY", e->px_y, "pxWidth", e->px_width, "pxHeight", e->px_height, "cx", e->cx,
        "cy", e->cy, "position", vec(e->position), "bounds", aabb(e->bounds), "body", (int)e->body,
        "shape", (int)e->shape, "bodyType", (int)e->body_type, "sensor", e->sensor, "oneWay",
        e->one_way, "friction", real(e->friction), "bounce", real(e->bounce), "density",
        real(e->density), "surfaceSpeed", real(e->surface_speed), "material", e->material,
        "frictionMix", (int)e->friction_mix, "speed", real(e->path_speed), "loop", e->path_loop);
    if (o == NULL) return NULL;
    json_t *ids = json_array(), *path = json_array();
    if (ids == NULL || path == NULL) json_ok = false;
    for (int k = e->first_body; k < e->first_body + e->body_count; ++k) {
        ledge_body_id id = r->bodies[k];
        append(ids, json_pack("[I,I,I]", (json_int_t)id.index1, (json_int_t)id.generation,
                              (json_int_t)id.world));
    }
    for (int k = e->first_path_point; k < e->first_path_point + e->path_point_count; ++k)
        append(path, vec(r->path_points[k]));
    set(o, "bodies", ids);
    set(o, "path", path);
    fields_json(r, e->first_field, e->field_count, o);
    return o;
}

/// The result as a JSON text (malloc'd; the binding frees it), or NULL
/// when out of memory.
static char *result_json(const ledge_ldtk_result *r) {
    json_ok = true;
    json_t *counts = json_array(), *levels = json_array(), *entities = json_array();
    for (int t = 0; t < LEDGE_TILE_COUNT && counts; ++t)
        append(counts, json_integer(r->tile_counts[t]));
    for (int i = 0; i < r->level_count && levels; ++i) append(levels, level_json(r, &r->levels[i]));
    for (int i = 0; i < r->entity_count && entities; ++i)
        append(entities, entity_json(r, &r->entities[i]));
    json_t *o =
        json_pack("{s:i,s:i,s:i,s:o,s:i,s:i,s:o,s:o}", "width", r->width, "height", r->height,
                  "gridPx", r->grid_px, "tileCounts", counts, "oneWayCells", r->one_way_cells,
                  "materialCells", r->material_cells, "levels", levels, "entities", entities);
    char *text = o && json_ok ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

// ---- the entry point ----

enum { LOAD_TILEMAP = 0, CREATE_WORLD = 1, LOAD_WORLD = 2 };

/// Loads the project `json` (`len` bytes) as `mode` says: into the
/// tilemap of `target` (LOAD_TILEMAP), into a new world made from `world`
/// (CREATE_WORLD) or into `target` (LOAD_WORLD), with the binding's
/// options (a JSON text). Returns the world (NULL when refused: the
/// message is kept); for the world modes, scratch words 0 and 1 then hold
/// the result's address and its JSON text's (both for the binding to
/// free).
JS_API ledge_world *ledge_js_ldtk_load(int mode, ledge_world *target, const char *json, int len,
                                       const char *options, const ledge_world_def *world) {
    ledge_js_scratch_area.u[0] = 0;
    ledge_js_scratch_area.u[1] = 0;
    json_t *opts = json_loads(options, 0, NULL);
    if (!json_is_object(opts)) {
        json_decref(opts);
        ledge_js_refuse("ledge_js_ldtk_load: the binding's options are not a JSON object");
        return NULL;
    }
    ledge_ldtk_def def = ledge_default_ldtk_def();
    if (world != NULL) def.world = *world;
    def.y_down = json_is_true(json_object_get(opts, "yDown"));
    def.all_levels = json_is_true(json_object_get(opts, "allLevels"));
    def.level = opt_string(opts, "level");
    def.level_index = opt_int(opts, "levelIndex", 0);
    def.ldtk_world = opt_string(opts, "ldtkWorld");
    def.tile_layer = opt_string(opts, "tileLayer");
    if (json_is_true(json_object_get(opts, "resolve"))) def.resolve = resolve_level;
    ledge_ldtk_intgrid_tile *grid = NULL;
    ledge_ldtk_entity_body *bodies = NULL;
    ledge_world *out = NULL;
    ledge_ldtk_result *result = NULL;
    if (!fill_tables(opts, &def, &grid, &bodies)) {
        ledge_js_refuse("ledge_js_ldtk_load: out of memory for the options");
    } else if (mode == LOAD_TILEMAP) {
        if (ledge_ldtk_load_tilemap(ledge_world_tilemap(target), json, (size_t)len, &def))
            out = target;
    } else if (mode == CREATE_WORLD) {
        out = ledge_ldtk_create_world(json, (size_t)len, &def, &result);
    } else if (ledge_ldtk_load_world(target, json, (size_t)len, &def, &result)) {
        out = target;
    }
    free_resolved();
    free(grid);
    free(bodies);
    json_decref(opts);
    if (result != NULL) {
        char *text = result_json(result);
        if (text == NULL) {
            // The world stays (its bodies are made); only the description is lost.
            ledge_js_refuse("ledge_js_ldtk_load: out of memory for the result");
            ledge_ldtk_result_destroy(result);
            if (mode == CREATE_WORLD) ledge_world_destroy(out);
            return NULL;
        }
        ledge_js_scratch_area.u[0] = (uint32_t)(uintptr_t)result;
        ledge_js_scratch_area.u[1] = (uint32_t)(uintptr_t)text;
    }
    return out;
}

/// Frees a result of ledge_js_ldtk_load.
JS_API void ledge_js_ldtk_result_destroy(ledge_ldtk_result *r) {
    ledge_ldtk_result_destroy(r);
}

/// ledge_ldtk_path_position of entity `entity` of `r` at `time`, into
/// scratch floats 0 and 1.
JS_API void ledge_js_ldtk_path_position(const ledge_ldtk_result *r, int entity, double time) {
    vec2s p = ledge_ldtk_path_position(
        r, entity >= 0 && entity < r->entity_count ? &r->entities[entity] : NULL, time);
    ledge_js_scratch_area.f[0] = p.x;
    ledge_js_scratch_area.f[1] = p.y;
}

/// ledge_ldtk_tile_from_name: the tile (or -1); scratch word 0 holds the
/// one-way direction it names.
JS_API int ledge_js_ldtk_tile_from_name(const char *name) {
    int one_way = 0;
    int tile = ledge_ldtk_tile_from_name(name, &one_way);
    ledge_js_scratch_area.i[0] = one_way;
    return tile;
}
