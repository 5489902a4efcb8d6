// ledge_tiled's public entry points (include/ledge/tiled.h). Each one
// parses and checks the whole map into a context first (tiled_*.c) and only
// then creates or changes the tilemap or world, so that a refused map
// leaves nothing behind and nothing changed.
#include "tiled_layers.h"
#include "tiled_objects.h"
#include "tiled_tileset.h"
#include "tiled_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

ledge_tiled_def ledge_default_tiled_def(void) {
    ledge_tiled_def d;
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

static void ctx_init(ledge__tiled_ctx *c, const char *fn, const ledge_tiled_def *def,
                     const ledge_tiled_def *fallback) {
    memset(c, 0, sizeof *c);
    c->fn = fn;
    c->def = def ? def : fallback;
}

static void ctx_free(ledge__tiled_ctx *c) {
    ledge__tiled_free_tilesets(c);
    for (int i = 0; i < c->file_count; ++i) ledge_free(c->files[i].text);
    ledge_free(c->files);
    ledge_free(c->cells);
    ledge_free(c->gids);
    ledge_free(c->bodies);
    ledge_free(c->chains);
    ledge_free(c->points);
    ledge_free(c->path_ids);
    ledge_free(c->cell_materials);
    ledge__tiled_free_result(c->result);
}

static bool check_target(ledge__tiled_ctx *c, const target *t) {
    if (!(t->tile_size >= LEDGE_MIN_TILE_SIZE && t->tile_size <= LEDGE_MAX_COORDINATE)) {
        return ledge__tiled_fail(c, "tile_size is %g (must be %g..%g)", (double)t->tile_size,
                                 (double)LEDGE_MIN_TILE_SIZE, (double)LEDGE_MAX_COORDINATE);
    }
    if (!(fabsf(t->origin.x) <= LEDGE_MAX_COORDINATE &&
          fabsf(t->origin.y) <= LEDGE_MAX_COORDINATE)) {
        return ledge__tiled_fail(c, "map origin is (%g, %g) (must be finite, |x| <= %g)",
                                 (double)t->origin.x, (double)t->origin.y,
                                 (double)LEDGE_MAX_COORDINATE);
    }
    return true;
}

/// The map's header: orthogonal, finite, square tiles, a size in range (and
/// the target's, when it has one).
static bool read_header(ledge__tiled_ctx *c, const json_t *map, const target *t) {
    const char *orientation;
    bool infinite;
    long long w, h, tw, th;
    if (!ledge__tiled_str(c, map, "orientation", "the map", true, NULL, &orientation) ||
        !ledge__tiled_bool(c, map, "infinite", "the map", false, &infinite)) {
        return false;
    }
    if (strcmp(orientation, "orthogonal") != 0) {
        return ledge__tiled_fail(c, "the map's orientation is \"%.40s\" (must be orthogonal)",
                                 orientation);
    }
    if (infinite) {
        return ledge__tiled_fail(c, "the map is infinite (not supported: untick Map Properties > "
                                    "Infinite)");
    }
    if (!ledge__tiled_int(c, map, "width", "the map", true, 1, LEDGE_MAX_TILEMAP_SIDE, 0, &w) ||
        !ledge__tiled_int(c, map, "height", "the map", true, 1, LEDGE_MAX_TILEMAP_SIDE, 0, &h) ||
        !ledge__tiled_int(c, map, "tilewidth", "the map", true, 1, 65536, 0, &tw) ||
        !ledge__tiled_int(c, map, "tileheight", "the map", true, 1, 65536, 0, &th)) {
        return false;
    }
    if (w * h > LEDGE_TILED_MAX_CELLS) {
        return ledge__tiled_fail(c, "the map is %lld x %lld = %lld cells (at most %d)", w, h, w * h,
                                 LEDGE_TILED_MAX_CELLS);
    }
    if (tw != th) {
        return ledge__tiled_fail(c, "the map's tiles are %lld x %lld pixels (must be square)", tw,
                                 th);
    }
    if (t->width && (w != t->width || h != t->height)) {
        return ledge__tiled_fail(c, "the map is %lld x %lld cells but the tilemap is %d x %d", w, h,
                                 t->width, t->height);
    }
    c->width = (int)w;
    c->height = (int)h;
    c->tile_px = (double)tw;
    c->tile_size = t->tile_size;
    c->origin = t->origin;
    c->scale = (double)t->tile_size / (double)tw;
    return true;
}

/// Each `path` property to the path object it names (by id, after every
/// layer was read: a path may come later in the file).
static bool resolve_paths(ledge__tiled_ctx *c) {
    ledge_tiled_result *r = c->result;
    for (int i = 0; i < r->object_count; ++i) {
        int want = c->path_ids && i < c->path_id_cap ? c->path_ids[i] : -1;
        if (want < 0) continue;
        int j = 0;
        while (j < r->object_count && r->objects[j].id != want) ++j;
        if (j == r->object_count || !r->objects[j].is_path) {
            return ledge__tiled_fail(c,
                                     "object %d '%.40s': property 'path' names object %d, which "
                                     "%s",
                                     r->objects[i].id, r->objects[i].name, want,
                                     j == r->object_count
                                         ? "the map does not have"
                                         : "is not a path (a polyline or polygon of class path)");
        }
        r->objects[i].path = j;
    }
    return true;
}

/// Parses and checks the whole map into the context.
static bool read_map(ledge__tiled_ctx *c, const char *json, size_t len, const target *t) {
    if (json == NULL) return ledge__tiled_fail(c, "json is NULL");
    if (!check_target(c, t)) return false;
    json_error_t err;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &err);
    if (root == NULL) {
        return ledge__tiled_fail(c, "the map is not valid JSON at line %d, column %d: %s", err.line,
                                 err.column, err.text);
    }
    bool ok = json_is_object(root) || ledge__tiled_fail(c, "the map is not a JSON object");
    ok = ok && read_header(c, root, t);
    if (ok) {
        size_t cells = (size_t)c->width * (size_t)c->height;
        c->cells = ledge_alloc(cells);
        c->gids = ledge_alloc(cells * sizeof *c->gids);
        ok = (c->cells && c->gids) || ledge__tiled_fail(c, "out of memory (%zu cells)", cells);
        if (ok) memset(c->cells, 0, cells);
    }
    if (ok && c->want_objects) {
        c->result = ledge_alloc(sizeof *c->result);
        ok = c->result || ledge__tiled_fail(c, "out of memory");
        if (ok) memset(c->result, 0, sizeof *c->result);
    }
    ok = ok && ledge__tiled_read_tilesets(c, root) && ledge__tiled_read_layers(c, root);
    json_decref(root);
    return ok && (!c->want_objects || resolve_paths(c));
}

// ---------------------------------------------------------------------------
// Applying a checked map

/// Room in the map for the cells' materials, before anything changes
/// (set_tiles then cannot fail).
static bool reserve_materials(ledge__tiled_ctx *c, ledge_tilemap *map) {
    if (ledge_tilemap_reserve_cell_materials(map, c->cell_material_count)) return true;
    return ledge__tiled_fail(c, "out of memory (%d cell materials)", c->cell_material_count);
}

/// The cells and their materials into the map (reserve_materials first):
/// the map's cells then hold exactly the map's tiles, and its cells' own
/// materials exactly those of the tiles with material properties.
static void set_tiles(ledge__tiled_ctx *c, ledge_tilemap *map) {
    for (int y = 0; y < c->height; ++y) {
        for (int x = 0; x < c->width; ++x) {
            ledge_tile t = c->cells[(size_t)y * c->width + x];
            ledge_tilemap_set(map, x, y, t);
            if (c->result) c->result->tile_counts[t]++;
        }
    }
    ledge_tilemap_clear_cell_materials(map);
    for (int k = 0; k < c->cell_material_count; ++k) {
        const ledge__tiled_cell_material *m = &c->cell_materials[k];
        int x = (int)(m->cell % (uint32_t)c->width), y = (int)(m->cell / (uint32_t)c->width);
        ledge_tilemap_set_cell_material(map, x, y, &m->material); // in order: appended
    }
}

/// Creates every pending chain (after the bodies); on failure destroys
/// those made and logs. The chains' ids go to their objects.
static bool create_chains(ledge__tiled_ctx *c, ledge_world *world) {
    ledge_tiled_result *r = c->result;
    for (int i = 0; i < c->chain_count; ++i) {
        ledge__tiled_chain *ch = &c->chains[i];
        ch->def.points = c->points + ch->first_point;
        ledge_chain_id id = ledge_chain_create(world, &ch->def);
        if (!ledge_chain_is_valid(world, id)) {
            for (int k = 0; k < i; ++k) {
                ledge_tiled_object *o = &r->objects[c->chains[k].object];
                ledge_chain_destroy(world, o->chain);
                o->chain = LEDGE_NULL_CHAIN_ID;
            }
            return ledge__tiled_fail(c,
                                     "the world refused the chain of object %d (see the "
                                     "message before)",
                                     r->objects[ch->object].id);
        }
        r->objects[ch->object].chain = id;
    }
    r->chain_count = c->chain_count;
    return true;
}

/// Creates every pending body, then every chain; on failure destroys those
/// made and logs.
static bool create_bodies(ledge__tiled_ctx *c, ledge_world *world) {
    ledge_tiled_result *r = c->result;
    r->bodies = ledge_alloc((c->body_count ? (size_t)c->body_count : 1) * sizeof *r->bodies);
    if (r->bodies == NULL) return ledge__tiled_fail(c, "out of memory (%d bodies)", c->body_count);
    for (int i = 0; i < c->body_count; ++i) {
        r->bodies[i] = ledge_body_create(world, &c->bodies[i].def);
        if (!ledge_body_is_valid(world, r->bodies[i])) {
            for (int k = 0; k < i; ++k) ledge_body_destroy(world, r->bodies[k]);
            return ledge__tiled_fail(c, "the world refused the body of object %d",
                                     r->objects[c->bodies[i].object].id);
        }
    }
    if (!create_chains(c, world)) {
        for (int k = 0; k < c->body_count; ++k) ledge_body_destroy(world, r->bodies[k]);
        return false;
    }
    r->body_count = c->body_count;
    r->width = c->width;
    r->height = c->height;
    return true;
}

/// Hands the result to the caller (or frees it when not wanted).
static void give_result(ledge__tiled_ctx *c, ledge_tiled_result **out) {
    if (out)
        *out = c->result;
    else
        ledge__tiled_free_result(c->result);
    c->result = NULL;
}

static target map_target(const ledge_tilemap *map) {
    ledge_tilemap_def d = ledge_tilemap_get_def(map);
    return (target){d.width, d.height, d.tile_size, d.origin};
}

static target def_target(const ledge__tiled_ctx *c) {
    return (target){0, 0, c->def->world.tile_size, c->def->world.map_origin};
}

// ---------------------------------------------------------------------------
// Tilemaps

bool ledge_tiled_load_tilemap(ledge_tilemap *map, const char *json, size_t len,
                              const ledge_tiled_def *def) {
    ledge_tiled_def fallback = ledge_default_tiled_def();
    ledge__tiled_ctx c;
    ctx_init(&c, "ledge_tiled_load_tilemap", def, &fallback);
    if (map == NULL) return ledge__tiled_fail(&c, "map is NULL");
    target t = map_target(map);
    bool ok = read_map(&c, json, len, &t) && reserve_materials(&c, map);
    if (ok) set_tiles(&c, map);
    ctx_free(&c);
    return ok;
}

static ledge_tilemap *create_tilemap(ledge__tiled_ctx *c, const char *json, size_t len) {
    target t = def_target(c);
    ledge_tilemap *map = NULL;
    if (read_map(c, json, len, &t)) {
        ledge_tilemap_def md = {c->width, c->height, t.tile_size, t.origin};
        map = ledge_tilemap_create(&md);
        if (map == NULL) {
            ledge__tiled_fail(c, "could not create a %d x %d tilemap", md.width, md.height);
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

ledge_tilemap *ledge_tiled_create_tilemap(const char *json, size_t len,
                                          const ledge_tiled_def *def) {
    ledge_tiled_def fallback = ledge_default_tiled_def();
    ledge__tiled_ctx c;
    ctx_init(&c, "ledge_tiled_create_tilemap", def, &fallback);
    return create_tilemap(&c, json, len);
}

// ---------------------------------------------------------------------------
// Worlds

static ledge_world *create_world(ledge__tiled_ctx *c, const char *json, size_t len,
                                 ledge_tiled_result **result) {
    if (result) *result = NULL;
    c->want_objects = true;
    target t = def_target(c);
    ledge_world *world = NULL;
    if (read_map(c, json, len, &t)) {
        ledge_world_def wd = c->def->world;
        wd.map_width = c->width;
        wd.map_height = c->height;
        world = ledge_world_create(&wd);
        if (world == NULL) {
            ledge__tiled_fail(c, "could not create the world (see the message before)");
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

ledge_world *ledge_tiled_create_world(const char *json, size_t len, const ledge_tiled_def *def,
                                      ledge_tiled_result **result) {
    ledge_tiled_def fallback = ledge_default_tiled_def();
    ledge__tiled_ctx c;
    ctx_init(&c, "ledge_tiled_create_world", def, &fallback);
    return create_world(&c, json, len, result);
}

bool ledge_tiled_load_world(ledge_world *world, const char *json, size_t len,
                            const ledge_tiled_def *def, ledge_tiled_result **result) {
    ledge_tiled_def fallback = ledge_default_tiled_def();
    ledge__tiled_ctx c;
    ctx_init(&c, "ledge_tiled_load_world", def, &fallback);
    if (result) *result = NULL;
    if (world == NULL) return ledge__tiled_fail(&c, "world is NULL");
    c.want_objects = true;
    ledge_tilemap *map = ledge_world_tilemap(world);
    target t = map_target(map);
    bool ok = read_map(&c, json, len, &t) && reserve_materials(&c, map) && create_bodies(&c, world);
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
static char *read_map_file(ledge__tiled_ctx *c, const char *path, size_t *len) {
    char *text = NULL;
    if (path == NULL) {
        ledge__tiled_fail(c, "path is NULL");
        return NULL;
    }
    c->map_path = path;
    if (!ledge__tiled_read_file(c, path, &text, len)) return NULL;
    return text;
}

ledge_tilemap *ledge_tiled_create_tilemap_file(const char *path, const ledge_tiled_def *def) {
    ledge_tiled_def fallback = ledge_default_tiled_def();
    ledge__tiled_ctx c;
    char fn[160];
    snprintf(fn, sizeof fn, "ledge_tiled_create_tilemap_file: %.120s", path ? path : "(null)");
    ctx_init(&c, fn, def, &fallback);
    size_t len = 0;
    char *text = read_map_file(&c, path, &len);
    ledge_tilemap *map = text ? create_tilemap(&c, text, len) : NULL;
    ledge_free(text);
    return map;
}

ledge_world *ledge_tiled_create_world_file(const char *path, const ledge_tiled_def *def,
                                           ledge_tiled_result **result) {
    ledge_tiled_def fallback = ledge_default_tiled_def();
    ledge__tiled_ctx c;
    char fn[160];
    snprintf(fn, sizeof fn, "ledge_tiled_create_world_file: %.120s", path ? path : "(null)");
    ctx_init(&c, fn, def, &fallback);
    if (result) *result = NULL;
    size_t len = 0;
    char *text = read_map_file(&c, path, &len);
    ledge_world *world = text ? create_world(&c, text, len, result) : NULL;
    ledge_free(text);
    return world;
}

// ---------------------------------------------------------------------------
// Results

void ledge_tiled_result_destroy(ledge_tiled_result *result) {
    ledge__tiled_free_result(result);
}
