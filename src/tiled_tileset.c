// Tilesets: which gid is which ledge tile. A tileset's tiles name their
// ledge tile in the custom property `ledge_tile` (an int id or a name);
// tiles without it are decoration (EMPTY). External tilesets ("source")
// come from the def's resolver or, for file loads, from a file next to the
// map; they must be JSON (.tsj), not XML (.tsx).
#include "tiled_tileset.h"
#include "tiled_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Largest gid without the flip flags (Tiled keeps 4 bits for them).
#define GID_MAX 0x0FFFFFFFu

typedef struct id_tile {
    uint32_t id;
    ledge_tile tile;
    bool has_material;
    ledge_material material;
} id_tile;

static int cmp_id(const void *a, const void *b) {
    uint32_t x = ((const id_tile *)a)->id, y = ((const id_tile *)b)->id;
    return (x > y) - (x < y);
}

/// Reads the `ledge_tile` property of one tile (absent: *out = -1).
static bool read_ledge_tile(ledge__tiled_ctx *c, const json_t *tile, const char *where, long id,
                            int *out) {
    *out = -1;
    const json_t *props = json_object_get(tile, "properties");
    const json_t *p = json_is_array(props) ? ledge__tiled_find_prop(props, "ledge_tile") : NULL;
    if (p == NULL) return true;
    const json_t *v = json_object_get(p, "value");
    char buf[48];
    if (json_is_integer(v) && json_integer_value(v) >= 0 &&
        json_integer_value(v) < LEDGE_TILE_COUNT) {
        *out = (int)json_integer_value(v);
        return true;
    }
    if (json_is_string(v) && ledge_tile_from_name(json_string_value(v)) >= 0) {
        *out = ledge_tile_from_name(json_string_value(v));
        return true;
    }
    if (json_is_string(v)) {
        return ledge__tiled_fail(c,
                                 "%s, tile %ld: ledge_tile \"%.40s\" is not a tile name (e.g. "
                                 "FULL, 45DEG_PN, HALF_D; docs/tiled.md)",
                                 where, id, json_string_value(v));
    }
    return ledge__tiled_fail(c,
                             "%s, tile %ld: ledge_tile is %s (must be a tile id 0..%d or a "
                             "tile name)",
                             where, id, v ? ledge__tiled_describe(v, buf) : "missing",
                             LEDGE_TILE_COUNT - 1);
}

int ledge__tiled_friction_mix(const char *s) {
    static const char *const names[] = {"mean", "min", "max"};
    for (int k = 0; k < 3; ++k) {
        if (strcmp(s, names[k]) == 0) return k;
    }
    return -1;
}

/// A number property of a tile in [min, max] (absent: *out unchanged).
static bool tile_number(ledge__tiled_ctx *c, const json_t *props, const char *name,
                        const char *where, long id, double min, double max, float *out,
                        bool *found) {
    const json_t *p = ledge__tiled_find_prop(props, name);
    if (p == NULL) return true;
    const json_t *v = json_object_get(p, "value");
    char buf[48];
    if (!json_is_number(v) || !(json_number_value(v) >= min) || !(json_number_value(v) <= max)) {
        return ledge__tiled_fail(c, "%s, tile %ld: property '%s' is %s (must be a number %g..%g)",
                                 where, id, name, v ? ledge__tiled_describe(v, buf) : "missing",
                                 min, max);
    }
    *out = (float)json_number_value(v);
    *found = true;
    return true;
}

/// The material properties of one tile (friction, bounce, surface_speed,
/// friction_mix; docs/tiled.md): *has whether any is there, *out the
/// default material with them.
static bool read_tile_material(ledge__tiled_ctx *c, const json_t *tile, const char *where, long id,
                               bool *has, ledge_material *out) {
    *has = false;
    *out = ledge_default_material();
    const json_t *props = json_object_get(tile, "properties");
    if (!json_is_array(props)) return true;
    const double v = LEDGE_MAX_COORDINATE;
    if (!tile_number(c, props, "friction", where, id, 0, 1, &out->friction, has) ||
        !tile_number(c, props, "bounce", where, id, 0, 1, &out->bounce, has) ||
        !tile_number(c, props, "surface_speed", where, id, -v, v, &out->surface_speed, has))
        return false;
    const json_t *p = ledge__tiled_find_prop(props, "friction_mix");
    if (p == NULL) return true;
    const json_t *s = json_object_get(p, "value");
    int mix = json_is_string(s) ? ledge__tiled_friction_mix(json_string_value(s)) : -1;
    char buf[48];
    if (mix < 0) {
        return ledge__tiled_fail(c,
                                 "%s, tile %ld: property 'friction_mix' is %s (must be \"mean\", "
                                 "\"min\" or \"max\")",
                                 where, id, s ? ledge__tiled_describe(s, buf) : "missing");
    }
    out->friction_mix = (ledge_friction_mix)mix;
    *has = true;
    return true;
}

/// Collects the tiles with a ledge_tile property, sorted by id; refuses
/// duplicate ids. Sets the span from tilecount and the largest id.
static bool read_tiles(ledge__tiled_ctx *c, const json_t *ts, const char *where,
                       ledge__tiled_tileset *out) {
    long long tilecount;
    const json_t *tiles;
    if (!ledge__tiled_int(c, ts, "tilecount", where, true, 0, LEDGE_TILED_MAX_TILESET_TILES, 0,
                          &tilecount) ||
        !ledge__tiled_array(c, ts, "tiles", where, false, &tiles)) {
        return false;
    }
    out->span = (uint32_t)tilecount;
    size_t n = tiles ? json_array_size(tiles) : 0;
    id_tile *list = ledge_alloc((n ? n : 1) * sizeof *list);
    if (list == NULL) return ledge__tiled_fail(c, "%s: out of memory", where);
    int count = 0;
    for (size_t i = 0; i < n; ++i) {
        const json_t *t = json_array_get(tiles, i);
        long long id;
        int lt;
        bool has;
        ledge_material mat;
        char tw[160];
        snprintf(tw, sizeof tw, "%.120s, tiles[%zu]", where, i);
        if (!ledge__tiled_int(c, t, "id", tw, true, 0, LEDGE_TILED_MAX_TILESET_TILES - 1, 0, &id) ||
            !read_ledge_tile(c, t, where, (long)id, &lt) ||
            !read_tile_material(c, t, where, (long)id, &has, &mat)) {
            ledge_free(list);
            return false;
        }
        if ((uint32_t)id + 1 > out->span) out->span = (uint32_t)id + 1;
        // (A decoration tile, without ledge_tile, has no surface: its
        // material properties are the game's own.)
        if (lt >= 0) list[count++] = (id_tile){(uint32_t)id, (ledge_tile)lt, has, mat};
    }
    qsort(list, (size_t)count, sizeof *list, cmp_id);
    for (int i = 1; i < count; ++i) {
        if (list[i].id == list[i - 1].id) {
            uint32_t id = list[i].id;
            ledge_free(list);
            return ledge__tiled_fail(c, "%s: tile %u is listed twice", where, id);
        }
    }
    size_t room = count ? (size_t)count : 1;
    out->ids = ledge_alloc(room * sizeof *out->ids);
    out->tiles = ledge_alloc(room);
    out->materials = ledge_alloc(room * sizeof *out->materials);
    out->has_material = ledge_alloc(room);
    if (out->ids == NULL || out->tiles == NULL || out->materials == NULL ||
        out->has_material == NULL) {
        ledge_free(list);
        return ledge__tiled_fail(c, "%s: out of memory", where);
    }
    for (int i = 0; i < count; ++i) {
        out->ids[i] = list[i].id;
        out->tiles[i] = list[i].tile;
        out->materials[i] = list[i].material;
        out->has_material[i] = list[i].has_material;
    }
    out->tile_count = count;
    ledge_free(list);
    return true;
}

/// The text of external tileset `source`: from the resolver, or from a file
/// relative to the map for file loads.
static const char *external_text(ledge__tiled_ctx *c, const char *where, const char *source,
                                 size_t *len) {
    if (c->def->resolve) {
        const char *text = c->def->resolve(source, len, c->def->resolve_user);
        if (text == NULL) ledge__tiled_fail(c, "%s: the resolver found no \"%s\"", where, source);
        return text;
    }
    if (c->map_path == NULL) {
        ledge__tiled_fail(c,
                          "%s: external tileset \"%s\" needs def->resolve when the map is "
                          "loaded from memory",
                          where, source);
        return NULL;
    }
    const char *slash = strrchr(c->map_path, '/');
    size_t dir = slash ? (size_t)(slash - c->map_path) + 1 : 0;
    size_t n = dir + strlen(source) + 1;
    char *path = ledge_alloc(n);
    if (path == NULL) return ledge__tiled_fail(c, "%s: out of memory", where), NULL;
    memcpy(path, c->map_path, dir);
    memcpy(path + dir, source, n - dir);
    ledge__tiled_file f = {NULL, 0};
    bool ok = ledge__tiled_read_file(c, path, &f.text, &f.len);
    ledge_free(path);
    if (!ok) return NULL;
    if (!ledge__tiled_reserve(c, (void **)&c->files, &c->file_cap, c->file_count + 1, sizeof f)) {
        ledge_free(f.text);
        return NULL;
    }
    c->files[c->file_count++] = f;
    *len = f.len;
    return f.text;
}

/// Parses an external tileset's text. The caller json_decref's the result.
static json_t *load_external(ledge__tiled_ctx *c, const char *where, const char *source) {
    size_t len = 0;
    const char *text = external_text(c, where, source, &len);
    if (text == NULL) return NULL;
    size_t skip = 0;
    while (skip < len &&
           (text[skip] == ' ' || text[skip] == '\n' || text[skip] == '\r' || text[skip] == '\t')) {
        ++skip;
    }
    if (skip < len && text[skip] == '<') {
        ledge__tiled_fail(c, "%s: \"%s\" is an XML tileset (export it as JSON, .tsj)", where,
                          source);
        return NULL;
    }
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (root == NULL) {
        ledge__tiled_fail(c, "%s: \"%s\" is not valid JSON at line %d, column %d: %s", where,
                          source, err.line, err.column, err.text);
    } else if (!json_is_object(root)) {
        ledge__tiled_fail(c, "%s: \"%s\" is not a JSON object", where, source);
        json_decref(root);
        root = NULL;
    }
    return root;
}

/// Reads tileset entry i (inline or external) into c->tilesets[i].
static bool read_tileset(ledge__tiled_ctx *c, const json_t *entry, size_t i) {
    ledge__tiled_tileset *ts = &c->tilesets[i];
    char where[128];
    snprintf(where, sizeof where, "tileset %zu", i);
    long long firstgid;
    const char *source, *name;
    if (!ledge__tiled_int(c, entry, "firstgid", where, true, 1, GID_MAX, 0, &firstgid) ||
        !ledge__tiled_str(c, entry, "source", where, false, NULL, &source)) {
        return false;
    }
    ts->firstgid = (uint32_t)firstgid;
    json_t *ext = source ? load_external(c, where, source) : NULL;
    if (source && ext == NULL) return false;
    const json_t *body = ext ? ext : entry;
    bool ok = ledge__tiled_str(c, body, "name", where, false, "", &name);
    if (ok) {
        snprintf(ts->name, sizeof ts->name, "%s", source ? source : name);
        snprintf(where, sizeof where, "tileset %zu '%s'", i, ts->name);
        ok = read_tiles(c, body, where, ts);
    }
    json_decref(ext);
    if (ok && (uint64_t)ts->firstgid + ts->span - 1 > GID_MAX) {
        ok = ledge__tiled_fail(c, "%s: gids %u.. run past %u", where, ts->firstgid, GID_MAX);
    }
    if (ok && i > 0) {
        const ledge__tiled_tileset *p = &c->tilesets[i - 1];
        if ((uint64_t)p->firstgid + p->span > ts->firstgid) {
            ok = ledge__tiled_fail(c, "%s: firstgid %u overlaps tileset %zu '%s' (gids %u..%u)",
                                   where, ts->firstgid, i - 1, p->name, p->firstgid,
                                   p->firstgid + p->span - 1);
        }
    }
    return ok;
}

bool ledge__tiled_read_tilesets(ledge__tiled_ctx *c, const json_t *map) {
    const json_t *list;
    if (!ledge__tiled_array(c, map, "tilesets", "the map", false, &list)) return false;
    size_t n = list ? json_array_size(list) : 0;
    if (n == 0) return true;
    c->tilesets = ledge_alloc(n * sizeof *c->tilesets);
    if (c->tilesets == NULL) return ledge__tiled_fail(c, "out of memory (%zu tilesets)", n);
    memset(c->tilesets, 0, n * sizeof *c->tilesets);
    c->tileset_count = (int)n;
    for (size_t i = 0; i < n; ++i) {
        if (!read_tileset(c, json_array_get(list, i), i)) return false;
    }
    return true;
}

void ledge__tiled_free_tilesets(ledge__tiled_ctx *c) {
    for (int i = 0; i < c->tileset_count; ++i) {
        ledge_free(c->tilesets[i].ids);
        ledge_free(c->tilesets[i].tiles);
        ledge_free(c->tilesets[i].materials);
        ledge_free(c->tilesets[i].has_material);
    }
    ledge_free(c->tilesets);
    c->tilesets = NULL;
    c->tileset_count = 0;
}

int ledge__tiled_tile_of_gid(ledge__tiled_ctx *c, uint32_t gid, const char *where, long index,
                             const ledge_material **material) {
    int lo = 0, hi = c->tileset_count - 1, found = -1;
    if (material) *material = NULL;
    while (lo <= hi) { // the last tileset with firstgid <= gid
        int mid = lo + (hi - lo) / 2;
        if (c->tilesets[mid].firstgid <= gid) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (found < 0 || gid - c->tilesets[found].firstgid >= c->tilesets[found].span) {
        ledge__tiled_fail(c,
                          "%s: tile %ld (column %ld, row %ld) has gid %u, which no tileset "
                          "holds",
                          where, index, index % c->width, index / c->width, gid);
        return -1;
    }
    const ledge__tiled_tileset *ts = &c->tilesets[found];
    uint32_t local = gid - ts->firstgid;
    lo = 0;
    hi = ts->tile_count - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (ts->ids[mid] == local) {
            if (material && ts->has_material[mid]) *material = &ts->materials[mid];
            return ts->tiles[mid];
        }
        if (ts->ids[mid] < local)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return LEDGE_TILE_EMPTY; // a tile without ledge_tile: decoration
}
