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
#include <stdlib.h>
#include <string.h>

#define FLIP_H   0x80000000u
#define FLIP_V   0x40000000u
#define FLIP_D   0x20000000u
#define ROT_HEX  0x10000000u
#define GID_MASK 0x0FFFFFFFu

/// The ledge tile (ledge's frame) of raw gid `raw` at `index`, or -1; its
/// material in ledge's frame into *mat (*has: whether it has one).
static int tile_of(ledge__tiled_ctx *c, uint32_t raw, const char *where, long index, bool *has,
                   ledge_material *mat) {
    *has = false;
    if (raw & ROT_HEX) {
        ledge__tiled_fail(c,
                          "%s: tile %ld (column %ld, row %ld) has the hexagonal 120-degree "
                          "rotation flag (orthogonal maps cannot rotate tiles)",
                          where, index, index % c->width, index / c->width);
        return -1;
    }
    uint32_t gid = raw & GID_MASK;
    if (gid == 0) return LEDGE_TILE_EMPTY;
    const ledge_material *drawn;
    int t = ledge__tiled_tile_of_gid(c, gid, where, index, &drawn);
    if (t < 0) return -1;
    ledge_tile f = ledge_tiled_flip((ledge_tile)t, raw & FLIP_H, raw & FLIP_V, raw & FLIP_D);
    if (drawn != NULL) {
        // A surface speed turns clockwise around the tile on screen. Each
        // mirror (a flip, and keeping Tiled's y-down frame, in which the
        // tangent of material.h turns counter-clockwise on screen) turns
        // it the other way; the default frame's vertical mirror keeps the
        // look on screen, so it keeps the sense too.
        int mirrors = ((raw & FLIP_H) != 0) + ((raw & FLIP_V) != 0) + ((raw & FLIP_D) != 0) +
                      (c->def->y_down ? 1 : 0);
        *has = true;
        *mat = *drawn;
        if (mirrors & 1) mat->surface_speed = -mat->surface_speed;
    }
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
        bool has;
        ledge_material mat;
        int t = tile_of(c, c->gids[i], where, i, &has, &mat);
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
        if (has && t != LEDGE_TILE_EMPTY) {
            if (!ledge__tiled_reserve(c, (void **)&c->cell_materials, &c->cell_material_cap,
                                      c->cell_material_count + 1, sizeof *c->cell_materials))
                return false;
            c->cell_materials[c->cell_material_count++] =
                (ledge__tiled_cell_material){(uint32_t)(y_cell * c->width + col), mat};
        }
    }
    c->tile_layers++;
    return true;
}

static bool read_list(ledge__tiled_ctx *c, const json_t *layers, int depth, double ox, double oy);

static int cmp_cell_material(const void *a, const void *b) {
    uint32_t x = ((const ledge__tiled_cell_material *)a)->cell;
    uint32_t y = ((const ledge__tiled_cell_material *)b)->cell;
    return (x > y) - (x < y);
}

static bool same_material(const ledge_material *a, const ledge_material *b) {
    return a->friction == b->friction && a->bounce == b->bounce &&
           a->surface_speed == b->surface_speed && a->friction_mix == b->friction_mix;
}

/// The cells' materials sorted by cell (the order a tilemap keeps them
/// in, so that setting them appends), one per cell: two tile layers giving
/// one cell the same tile with two materials are refused.
static bool sort_cell_materials(ledge__tiled_ctx *c) {
    ledge__tiled_cell_material *m = c->cell_materials;
    int n = c->cell_material_count, kept = 0;
    if (n == 0) return true;
    qsort(m, (size_t)n, sizeof *m, cmp_cell_material);
    for (int k = 0; k < n; ++k) {
        if (kept > 0 && m[kept - 1].cell == m[k].cell) {
            if (same_material(&m[kept - 1].material, &m[k].material)) continue;
            long col = (long)(m[k].cell % (uint32_t)c->width);
            long y = (long)(m[k].cell / (uint32_t)c->width);
            long row = c->def->y_down ? y : c->height - 1 - y;
            return ledge__tiled_fail(c,
                                     "the tile layers give the cell at column %ld, row %ld two "
                                     "different materials",
                                     col, row);
        }
        m[kept++] = m[k];
    }
    c->cell_material_count = kept;
    return true;
}

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
    return sort_cell_materials(c);
}
