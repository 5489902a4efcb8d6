// ledge_ldtk's public entry points (include/ledge/ldtk.h). Each one reads
// and checks the whole project into a context first (ldtk_*.c), places it
// in the world's frame, and only then creates or changes the tilemap or
// world, so that a refused project leaves nothing behind and nothing
// changed.
#include "ldtk_defs.h"
#include "ldtk_entities.h"
#include "ldtk_fields.h"
#include "ldtk_json.h"
#include "ldtk_layers.h"
#include "ldtk_levels.h"
#include "ldtk_place.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

ledge_ldtk_def ledge_default_ldtk_def(void) {
    ledge_ldtk_def d;
    memset(&d, 0, sizeof d);
    d.world = ledge_default_world_def();
    return d;
}

// ---------------------------------------------------------------------------
// The context

typedef struct target {
    int width, height; ///< Required map size (0: any).
    float tile_size;
    vec2s origin;
} target;

static void ctx_init(ledge__ldtk_ctx *c, const char *fn, const ledge_ldtk_def *def,
                     const ledge_ldtk_def *fallback) {
    memset(c, 0, sizeof *c);
    c->fn = fn;
    c->def = def ? def : fallback;
}

static void free_result(ledge_ldtk_result *r) {
    if (r == NULL) return;
    for (int i = 0; i < r->level_count; ++i) {
        ledge__ldtk_free_string(r->levels[i].identifier);
        ledge__ldtk_free_string(r->levels[i].iid);
    }
    ledge_free(r->levels);
    ledge__ldtk_free_entities(r);
    ledge__ldtk_free_fields(r);
    ledge_free(r->bodies);
    ledge_free(r->path_points);
    ledge_free(r);
}

static void ctx_free(ledge__ldtk_ctx *c) {
    ledge__ldtk_free_defs(c);
    ledge__ldtk_free_levels(c);
    for (int i = 0; i < c->file_count; ++i) ledge_free(c->files[i].text);
    ledge_free(c->files);
    ledge_free(c->cells);
    ledge_free(c->scratch);
    ledge_free(c->materials);
    ledge_free(c->ents);
    ledge_free(c->point_px);
    ledge_free(c->path_cells);
    ledge_free(c->bodies);
    free_result(c->result);
}

static bool check_target(ledge__ldtk_ctx *c, const target *t) {
    if (!(t->tile_size >= LEDGE_MIN_TILE_SIZE && t->tile_size <= LEDGE_MAX_COORDINATE)) {
        return ledge__ldtk_fail(c, "tile_size is %g (must be %g..%g)", (double)t->tile_size,
                                (double)LEDGE_MIN_TILE_SIZE, (double)LEDGE_MAX_COORDINATE);
    }
    if (!(fabsf(t->origin.x) <= LEDGE_MAX_COORDINATE &&
          fabsf(t->origin.y) <= LEDGE_MAX_COORDINATE)) {
        return ledge__ldtk_fail(c, "map origin is (%g, %g) (must be finite, |x| <= %g)",
                                (double)t->origin.x, (double)t->origin.y,
                                (double)LEDGE_MAX_COORDINATE);
    }
    if (c->def->level_index < 0) {
        return ledge__ldtk_fail(c, "level_index is %d (must be >= 0)", c->def->level_index);
    }
    c->tile_size = t->tile_size;
    c->origin = t->origin;
    return true;
}

/// The project's format version (1.x) and default grid size.
static bool read_header(ledge__ldtk_ctx *c, const json_t *root, long long *grid) {
    const char *version;
    if (!ledge__ldtk_str(c, root, "jsonVersion", "the project", false, NULL, &version) ||
        !ledge__ldtk_int(c, root, "defaultGridSize", "the project", false, 1, 65536, 16, grid)) {
        return false;
    }
    if (version && strncmp(version, "1.", 2) != 0) {
        return ledge__ldtk_fail(c,
                                "the project's jsonVersion is \"%.20s\" (this loader reads LDtk "
                                "1.x projects: open and save it in LDtk 1.5)",
                                version);
    }
    return true;
}

/// Every level's tiles and entities into the context; the grid fixed.
static bool read_levels(ledge__ldtk_ctx *c, const json_t *root, long long default_grid) {
    if (!ledge__ldtk_select_levels(c, root)) return false;
    for (int k = 0; k < c->level_count; ++k) {
        if (!ledge__ldtk_read_level(c, k)) return false;
    }
    if (c->def->tile_layer && !c->tile_layer_seen) {
        return ledge__ldtk_fail(c, "no loaded level has a layer named '%.60s'", c->def->tile_layer);
    }
    if (c->grid != 0) return true;
    int grid = c->fallback_grid ? c->fallback_grid : (int)default_grid;
    return ledge__ldtk_fix_grid(c, grid, "the project (no layer holds a tile)");
}

/// Reads, checks and places the whole project into the context.
static bool read_project(ledge__ldtk_ctx *c, const char *json, size_t len, const target *t) {
    if (json == NULL) return ledge__ldtk_fail(c, "json is NULL");
    if (!check_target(c, t) || !ledge__ldtk_check_tables(c)) return false;
    json_t *root = ledge__ldtk_parse(c, json, len, "the project");
    if (root == NULL) return false;
    long long default_grid = 16;
    bool ok = read_header(c, root, &default_grid);
    if (ok && c->want_entities) {
        c->result = ledge_alloc(sizeof *c->result);
        ok = c->result || ledge__ldtk_fail(c, "out of memory");
        if (ok) memset(c->result, 0, sizeof *c->result);
    }
    ok = ok && ledge__ldtk_read_defs(c, root) && read_levels(c, root, default_grid);
    json_decref(root);
    if (ok && t->width && (c->width != t->width || c->height != t->height)) {
        ok = ledge__ldtk_fail(c, "the level is %d x %d cells but the tilemap is %d x %d", c->width,
                              c->height, t->width, t->height);
    }
    return ok && (c->result == NULL || ledge__ldtk_place(c));
}

// ---------------------------------------------------------------------------
// Applying a checked project

/// Room in the map for the cells' own materials, before anything changes
/// (set_tiles then cannot fail).
static bool reserve_materials(ledge__ldtk_ctx *c, ledge_tilemap *map) {
    int count = 0;
    for (size_t k = 0; k < (size_t)c->width * (size_t)c->height; ++k)
        count += c->cells[k].material != 0;
    if (ledge_tilemap_reserve_cell_materials(map, count)) return true;
    return ledge__ldtk_fail(c, "out of memory (%d cell materials)", count);
}

/// The cells into the map (reserve_materials first): its tiles and one-way
/// cells exactly the level's, and its cells' own materials exactly those
/// of the cells drawn with a tile that has material custom data (the
/// others lose theirs; the tile ids' materials stay the game's).
static void set_tiles(ledge__ldtk_ctx *c, ledge_tilemap *map) {
    ledge_ldtk_result *r = c->result;
    ledge_tilemap_clear_cell_materials(map);
    for (int y = 0; y < c->height; ++y) {
        for (int x = 0; x < c->width; ++x) {
            const ledge__ldtk_cell *cell = &c->cells[(size_t)y * c->width + x];
            ledge_tilemap_set(map, x, y, cell->tile);
            if (ledge_tilemap_one_way(map, x, y) != cell->one_way)
                ledge_tilemap_set_one_way(map, x, y, (ledge_one_way)cell->one_way);
            if (cell->material) // in cell order: appended, into the reserved room
                ledge_tilemap_set_cell_material(map, x, y, &c->materials[cell->material - 1]);
            if (r) {
                r->tile_counts[cell->tile]++;
                r->one_way_cells += cell->one_way != LEDGE_ONE_WAY_NONE;
                r->material_cells += cell->material != 0;
            }
        }
    }
    if (r) {
        r->width = c->width;
        r->height = c->height;
        r->grid_px = c->grid;
    }
}

/// Creates every pending body; on failure destroys those made and logs.
static bool create_bodies(ledge__ldtk_ctx *c, ledge_world *world) {
    ledge_ldtk_result *r = c->result;
    r->bodies = ledge_alloc((c->body_count ? (size_t)c->body_count : 1) * sizeof *r->bodies);
    if (r->bodies == NULL) return ledge__ldtk_fail(c, "out of memory (%d bodies)", c->body_count);
    for (int i = 0; i < c->body_count; ++i) {
        r->bodies[i] = ledge_body_create(world, &c->bodies[i]);
        if (!ledge_body_is_valid(world, r->bodies[i])) {
            for (int k = 0; k < i; ++k) ledge_body_destroy(world, r->bodies[k]);
            int e = 0;
            while (e + 1 < r->entity_count &&
                   !(r->entities[e].body_count && r->entities[e].first_body == i))
                ++e;
            return ledge__ldtk_fail(c, "the world refused the body of entity '%s' (%s)",
                                    r->entities[e].identifier, r->entities[e].iid);
        }
    }
    r->body_count = c->body_count;
    return true;
}

/// Hands the result to the caller (or frees it when not wanted).
static void give_result(ledge__ldtk_ctx *c, ledge_ldtk_result **out) {
    if (out)
        *out = c->result;
    else
        free_result(c->result);
    c->result = NULL;
}

static target map_target(const ledge_tilemap *map) {
    ledge_tilemap_def d = ledge_tilemap_get_def(map);
    return (target){d.width, d.height, d.tile_size, d.origin};
}

static target def_target(const ledge__ldtk_ctx *c) {
    return (target){0, 0, c->def->world.tile_size, c->def->world.map_origin};
}

// ---------------------------------------------------------------------------
// Tilemaps

bool ledge_ldtk_load_tilemap(ledge_tilemap *map, const char *json, size_t len,
                             const ledge_ldtk_def *def) {
    ledge_ldtk_def fallback = ledge_default_ldtk_def();
    ledge__ldtk_ctx c;
    ctx_init(&c, "ledge_ldtk_load_tilemap", def, &fallback);
    if (map == NULL) return ledge__ldtk_fail(&c, "map is NULL");
    target t = map_target(map);
    bool ok = read_project(&c, json, len, &t) && reserve_materials(&c, map);
    if (ok) set_tiles(&c, map);
    ctx_free(&c);
    return ok;
}

static ledge_tilemap *create_tilemap(ledge__ldtk_ctx *c, const char *json, size_t len) {
    target t = def_target(c);
    ledge_tilemap *map = NULL;
    if (read_project(c, json, len, &t)) {
        ledge_tilemap_def md = {c->width, c->height, t.tile_size, t.origin};
        map = ledge_tilemap_create(&md);
        if (map == NULL) {
            ledge__ldtk_fail(c, "could not create a %d x %d tilemap", md.width, md.height);
        } else if (!reserve_materials(c, map)) {
            ledge_tilemap_destroy(map);
            map = NULL;
        } else {
            set_tiles(c, map);
        }
    }
    ctx_free(c);
    return map;
}

ledge_tilemap *ledge_ldtk_create_tilemap(const char *json, size_t len, const ledge_ldtk_def *def) {
    ledge_ldtk_def fallback = ledge_default_ldtk_def();
    ledge__ldtk_ctx c;
    ctx_init(&c, "ledge_ldtk_create_tilemap", def, &fallback);
    return create_tilemap(&c, json, len);
}

// ---------------------------------------------------------------------------
// Worlds

static ledge_world *create_world(ledge__ldtk_ctx *c, const char *json, size_t len,
                                 ledge_ldtk_result **result) {
    if (result) *result = NULL;
    c->want_entities = true;
    target t = def_target(c);
    ledge_world *world = NULL;
    if (read_project(c, json, len, &t)) {
        ledge_world_def wd = c->def->world;
        wd.map_width = c->width;
        wd.map_height = c->height;
        world = ledge_world_create(&wd);
        if (world == NULL) {
            ledge__ldtk_fail(c, "could not create the world (see the message before)");
        } else if (!reserve_materials(c, ledge_world_tilemap(world)) || !create_bodies(c, world)) {
            ledge_world_destroy(world);
            world = NULL;
        } else {
            set_tiles(c, ledge_world_tilemap(world));
            give_result(c, result);
        }
    }
    ctx_free(c);
    return world;
}

ledge_world *ledge_ldtk_create_world(const char *json, size_t len, const ledge_ldtk_def *def,
                                     ledge_ldtk_result **result) {
    ledge_ldtk_def fallback = ledge_default_ldtk_def();
    ledge__ldtk_ctx c;
    ctx_init(&c, "ledge_ldtk_create_world", def, &fallback);
    return create_world(&c, json, len, result);
}

bool ledge_ldtk_load_world(ledge_world *world, const char *json, size_t len,
                           const ledge_ldtk_def *def, ledge_ldtk_result **result) {
    ledge_ldtk_def fallback = ledge_default_ldtk_def();
    ledge__ldtk_ctx c;
    ctx_init(&c, "ledge_ldtk_load_world", def, &fallback);
    if (result) *result = NULL;
    if (world == NULL) return ledge__ldtk_fail(&c, "world is NULL");
    c.want_entities = true;
    ledge_tilemap *map = ledge_world_tilemap(world);
    target t = map_target(map);
    bool ok =
        read_project(&c, json, len, &t) && reserve_materials(&c, map) && create_bodies(&c, world);
    if (ok) {
        set_tiles(&c, map);
        give_result(&c, result);
    }
    ctx_free(&c);
    return ok;
}

// ---------------------------------------------------------------------------
// Files

/// Reads `path` for a file loader; the context names the path in messages.
static char *read_project_file(ledge__ldtk_ctx *c, const char *path, size_t *len) {
    char *text = NULL;
    if (path == NULL) {
        ledge__ldtk_fail(c, "path is NULL");
        return NULL;
    }
    c->project_path = path;
    if (!ledge__ldtk_read_file(c, "", path, &text, len)) return NULL;
    return text;
}

ledge_tilemap *ledge_ldtk_create_tilemap_file(const char *path, const ledge_ldtk_def *def) {
    ledge_ldtk_def fallback = ledge_default_ldtk_def();
    ledge__ldtk_ctx c;
    char fn[160];
    snprintf(fn, sizeof fn, "ledge_ldtk_create_tilemap_file: %.120s", path ? path : "(null)");
    ctx_init(&c, fn, def, &fallback);
    size_t len = 0;
    char *text = read_project_file(&c, path, &len);
    ledge_tilemap *map = text ? create_tilemap(&c, text, len) : NULL;
    ledge_free(text);
    return map;
}

ledge_world *ledge_ldtk_create_world_file(const char *path, const ledge_ldtk_def *def,
                                          ledge_ldtk_result **result) {
    ledge_ldtk_def fallback = ledge_default_ldtk_def();
    ledge__ldtk_ctx c;
    char fn[160];
    snprintf(fn, sizeof fn, "ledge_ldtk_create_world_file: %.120s", path ? path : "(null)");
    ctx_init(&c, fn, def, &fallback);
    if (result) *result = NULL;
    size_t len = 0;
    char *text = read_project_file(&c, path, &len);
    ledge_world *world = text ? create_world(&c, text, len, result) : NULL;
    ledge_free(text);
    return world;
}

// ---------------------------------------------------------------------------
// Results

void ledge_ldtk_result_destroy(ledge_ldtk_result *result) {
    free_result(result);
}

const ledge_ldtk_level *ledge_ldtk_find_level(const ledge_ldtk_result *result, const char *name) {
    if (result == NULL || name == NULL) return NULL;
    for (int i = 0; i < result->level_count; ++i) {
        const ledge_ldtk_level *l = &result->levels[i];
        if (strcmp(l->identifier, name) == 0 || strcmp(l->iid, name) == 0) return l;
    }
    return NULL;
}

const ledge_ldtk_entity *ledge_ldtk_find_entity(const ledge_ldtk_result *result, const char *name) {
    if (result == NULL || name == NULL) return NULL;
    for (int i = 0; i < result->entity_count; ++i) {
        const ledge_ldtk_entity *e = &result->entities[i];
        if (strcmp(e->identifier, name) == 0 || strcmp(e->iid, name) == 0) return e;
    }
    return NULL;
}

const ledge_ldtk_field *ledge_ldtk_entity_field(const ledge_ldtk_result *result,
                                                const ledge_ldtk_entity *entity, const char *name) {
    if (result == NULL || entity == NULL || name == NULL) return NULL;
    for (int i = 0; i < entity->field_count; ++i) {
        const ledge_ldtk_field *f = &result->fields[entity->first_field + i];
        if (strcmp(f->identifier, name) == 0) return f;
    }
    return NULL;
}

const ledge_ldtk_field *ledge_ldtk_level_field(const ledge_ldtk_result *result,
                                               const ledge_ldtk_level *level, const char *name) {
    if (result == NULL || level == NULL || name == NULL) return NULL;
    for (int i = 0; i < level->field_count; ++i) {
        const ledge_ldtk_field *f = &result->fields[level->first_field + i];
        if (strcmp(f->identifier, name) == 0) return f;
    }
    return NULL;
}

/// Length of the segment from points[a] to points[b].
static double seg_len(const vec2s *p, int a, int b) {
    double dx = (double)p[b].x - p[a].x, dy = (double)p[b].y - p[a].y;
    return sqrt(dx * dx + dy * dy);
}

vec2s ledge_ldtk_path_position(const ledge_ldtk_result *result, const ledge_ldtk_entity *entity,
                               double time) {
    bool mine = result && entity && entity >= result->entities &&
                entity < result->entities + result->entity_count;
    if (!mine || !isfinite(time)) {
        ledge_log_message(LEDGE_LOG_ERROR,
                          "ledge_ldtk_path_position: result or entity is NULL, the entity is not "
                          "one of the result's, or time is not finite");
        return (vec2s){{0, 0}};
    }
    const ledge_aabb *b = &entity->bounds;
    vec2s centre = {{(b->lower.x + b->upper.x) / 2, (b->lower.y + b->upper.y) / 2}};
    int n = entity->path_point_count;
    if (n == 0) return centre;
    const vec2s *p = result->path_points + entity->first_path_point;
    int segs = entity->path_loop ? n : n - 1;
    double total = 0;
    for (int i = 0; i < segs; ++i) total += seg_len(p, i, (i + 1) % n);
    if (!(total > 0) || !(entity->path_speed > 0)) return p[0];
    double period = entity->path_loop ? total : 2 * total;
    double d = fmod((double)entity->path_speed * time, period);
    if (d < 0) d += period;
    if (d > total) d = period - d; // coming back
    for (int i = 0; i < segs; ++i) {
        double l = seg_len(p, i, (i + 1) % n);
        if (d <= l && l > 0) {
            const vec2s a = p[i], z = p[(i + 1) % n];
            double t = d / l;
            return (vec2s){{(float)(a.x + (z.x - a.x) * t), (float)(a.y + (z.y - a.y) * t)}};
        }
        d -= l;
    }
    return entity->path_loop ? p[0] : p[n - 1];
}
