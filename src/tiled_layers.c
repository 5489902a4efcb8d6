// The map's layers: tile layers into the cell grid (gids through the
// tilesets, flip flags, then Tiled's y-down frame into ledge's), object
// layers handed to tiled_objects.c, group layers walked recursively, image
// layers skipped. Visibility is ignored: a hidden layer is a common way to
// keep a collision layer out of the art.
#include "tiled_data.h"
#include "tiled_layers.h"
#include "tiled_objects.h"
#include "tiled_tileset.h"
#include "tiled_util.h"

#include <stdio.h>
#include <string.h>

#define FLIP_H   0x80000000u
#define FLIP_V   0x40000000u
#define FLIP_D   0x20000000u
#define ROT_HEX  0x10000000u
#define GID_MASK 0x0FFFFFFFu

/// The ledge tile (ledge's frame) of raw gid `raw` at `index`, or -1.
static int tile_of(ledge__tiled_ctx *c, uint32_t raw, const char *where, long index) {
    if (raw & ROT_HEX) {
        ledge__tiled_fail(c,
                          "%s: tile %ld (column %ld, row %ld) has the hexagonal 120-degree "
                          "rotation flag (orthogonal maps cannot rotate tiles)",
                          where, index, index % c->width, index / c->width);
        return -1;
    }
    uint32_t gid = raw & GID_MASK;
    if (gid == 0) return LEDGE_TILE_EMPTY;
    int t = ledge__tiled_tile_of_gid(c, gid, where, index);
    if (t < 0) return -1;
    ledge_tile f = ledge_tiled_flip((ledge_tile)t, raw & FLIP_H, raw & FLIP_V, raw & FLIP_D);
    // Tiled's rows grow downward; ledge's y grows upward: mirroring the map
    // vertically mirrors every tile too.
    return c->def->y_down ? f : ledge_tiled_flip(f, false, true, false);
}

static bool read_tile_layer(ledge__tiled_ctx *c, const json_t *layer, const char *where) {
    long long w, h, x, y;
    if (!ledge__tiled_int(c, layer, "width", where, true, c->width, c->width, 0, &w) ||
        !ledge__tiled_int(c, layer, "height", where, true, c->height, c->height, 0, &h) ||
        !ledge__tiled_int(c, layer, "x", where, false, 0, 0, 0, &x) ||
        !ledge__tiled_int(c, layer, "y", where, false, 0, 0, 0, &y) ||
        !ledge__tiled_decode(c, layer, where)) {
        return false;
    }
    const long cells = (long)c->width * c->height;
    for (long i = 0; i < cells; ++i) {
        int t = tile_of(c, c->gids[i], where, i);
        if (t < 0) return false;
        long col = i % c->width, row = i / c->width;
        long y_cell = c->def->y_down ? row : c->height - 1 - row;
        ledge_tile *cell = &c->cells[y_cell * c->width + col];
        if (t != LEDGE_TILE_EMPTY && *cell != LEDGE_TILE_EMPTY && *cell != t) {
            return ledge__tiled_fail(c,
                                     "%s: tile %ld (column %ld, row %ld) is %s but an earlier "
                                     "tile layer put %s there",
                                     where, i, col, row, ledge_tile_name((ledge_tile)t),
                                     ledge_tile_name(*cell));
        }
        if (t != LEDGE_TILE_EMPTY) *cell = (ledge_tile)t;
    }
    c->tile_layers++;
    return true;
}

static bool read_list(ledge__tiled_ctx *c, const json_t *layers, int depth, double ox, double oy);

static bool read_layer(ledge__tiled_ctx *c, const json_t *layer, int depth, double ox, double oy) {
    char where[128];
    int index = c->layer_index++;
    snprintf(where, sizeof where, "layer %d", index);
    const char *type, *name;
    double dx, dy;
    if (!ledge__tiled_str(c, layer, "name", where, false, "", &name)) return false;
    snprintf(where, sizeof where, "layer %d '%.60s'", index, name);
    if (!ledge__tiled_str(c, layer, "type", where, true, NULL, &type) ||
        !ledge__tiled_num(c, layer, "offsetx", where, false, -1e9, 1e9, 0, &dx) ||
        !ledge__tiled_num(c, layer, "offsety", where, false, -1e9, 1e9, 0, &dy)) {
        return false;
    }
    ox += dx;
    oy += dy;
    if (strcmp(type, "tilelayer") == 0) {
        if (c->def->tile_layer && strcmp(name, c->def->tile_layer) != 0) return true;
        if (ox != 0 || oy != 0) {
            return ledge__tiled_fail(c,
                                     "%s is offset by (%g, %g) pixels (tile layers must be "
                                     "aligned with the map's grid)",
                                     where, ox, oy);
        }
        return read_tile_layer(c, layer, where);
    }
    if (strcmp(type, "objectgroup") == 0) {
        return !c->want_objects || ledge__tiled_read_objects(c, layer, where, name, ox, oy);
    }
    if (strcmp(type, "group") == 0) {
        const json_t *children;
        if (depth + 1 > LEDGE_TILED_MAX_GROUP_DEPTH) {
            return ledge__tiled_fail(c, "%s: group layers nest deeper than %d", where,
                                     LEDGE_TILED_MAX_GROUP_DEPTH);
        }
        return ledge__tiled_array(c, layer, "layers", where, true, &children) &&
               read_list(c, children, depth + 1, ox, oy);
    }
    if (strcmp(type, "imagelayer") == 0) return true;
    return ledge__tiled_fail(c,
                             "%s: type \"%.40s\" is unknown (must be tilelayer, objectgroup, "
                             "group or imagelayer)",
                             where, type);
}

static bool read_list(ledge__tiled_ctx *c, const json_t *layers, int depth, double ox, double oy) {
    for (size_t i = 0; i < json_array_size(layers); ++i) {
        if (!read_layer(c, json_array_get(layers, i), depth, ox, oy)) return false;
    }
    return true;
}

bool ledge__tiled_read_layers(ledge__tiled_ctx *c, const json_t *map) {
    const json_t *layers;
    if (!ledge__tiled_array(c, map, "layers", "the map", true, &layers) ||
        !read_list(c, layers, 0, 0, 0)) {
        return false;
    }
    if (c->def->tile_layer && c->tile_layers == 0) {
        return ledge__tiled_fail(c, "the map has no tile layer named '%.60s'", c->def->tile_layer);
    }
    if (c->tile_layers == 0) return ledge__tiled_fail(c, "the map has no tile layer");
    return true;
}
