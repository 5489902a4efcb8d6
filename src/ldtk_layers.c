// A level's layer instances. A layer that can hold tiles (IntGrid: its
// values and the tiles its rules made; Tiles; AutoLayer) is first decoded
// into a scratch grid of its own size, as drawn; if it holds a tile, it
// must lie on the map's grid (the first such layer fixes the grid: every
// other one must use the same size and no offset), and its tiles are
// turned into ledge's frame and merged into the map's cells, where two
// layers may not put different tiles into one cell. Entity layers go to
// ldtk_entities.c. Visibility is ignored: a hidden collision layer is a
// common pattern.
#include "ldtk_layers.h"
#include "ldtk_defs.h"
#include "ldtk_entities.h"
#include "ldtk_fields.h"
#include "ldtk_json.h"
#include "ldtk_levels.h"
#include "ldtk_names.h"

#include <stdio.h>
#include <string.h>

#define PX LEDGE_LDTK_MAX_PIXELS

/// One layer instance's header.
typedef struct layer {
    const char *type, *name;
    long long grid, cw, ch, ox, oy, def_uid;
    char where[160];
} layer;

// ---------------------------------------------------------------------------
// Decoding into the scratch grid (as drawn, the layer's own size)

static bool same_material(const ledge_material *a, const ledge_material *b) {
    return a->friction == b->friction && a->bounce == b->bounce &&
           a->surface_speed == b->surface_speed && a->friction_mix == b->friction_mix;
}

/// The material index (1..) of `m`, added when new.
static bool intern(ledge__ldtk_ctx *c, const ledge_material *m, const char *where, uint16_t *out) {
    for (int i = 0; i < c->material_count; ++i) {
        if (same_material(&c->materials[i], m)) return *out = (uint16_t)(i + 1), true;
    }
    if (c->material_count >= 65535) {
        return ledge__ldtk_fail(c, "%s: more than 65535 different materials", where);
    }
    if (!ledge__ldtk_reserve(c, (void **)&c->materials, &c->material_cap, c->material_count + 1,
                             sizeof *c->materials)) {
        return false;
    }
    c->materials[c->material_count++] = *m;
    *out = (uint16_t)c->material_count;
    return true;
}

/// The material a tile's custom data gives a cell drawn with LDtk's flips
/// `f`, in ledge's frame: the default material with the values given. A
/// surface speed turns clockwise around the tile on screen; each mirror (a
/// flip, and keeping LDtk's y-down frame, in which material.h's tangent
/// turns counter-clockwise on screen) turns it the other way, while the
/// default frame's vertical mirror keeps the look on screen and the sense.
static ledge_material cell_material(const ledge__ldtk_ctx *c, const ledge__ldtk_material *d,
                                    long long f) {
    ledge_material m = ledge_default_material();
    if (d->has & LEDGE__LDTK_HAS_FRICTION) m.friction = d->friction;
    if (d->has & LEDGE__LDTK_HAS_BOUNCE) m.bounce = d->bounce;
    if (d->has & LEDGE__LDTK_HAS_SPEED) m.surface_speed = d->surface_speed;
    if (d->has & LEDGE__LDTK_HAS_MIX) m.friction_mix = (ledge_friction_mix)d->friction_mix;
    int mirrors = ((f & 1) != 0) + ((f & 2) != 0) + (c->def->y_down ? 1 : 0);
    if ((mirrors & 1) && m.surface_speed != 0) m.surface_speed = -m.surface_speed;
    return m;
}

/// Names material `k` (1..) for a message.
static const char *describe_material(const ledge__ldtk_ctx *c, uint16_t k, char buf[96]) {
    const ledge_material *m = &c->materials[k - 1];
    static const char *const mixes[3] = {"mean", "min", "max"};
    snprintf(buf, 96, "friction %g, bounce %g, surface_speed %g, friction_mix %s",
             (double)m->friction, (double)m->bounce, (double)m->surface_speed,
             mixes[m->friction_mix]);
    return buf;
}

static bool decode_intgrid(ledge__ldtk_ctx *c, const json_t *j, const layer *L) {
    const json_t *csv;
    const ledge__ldtk_layer_def *d = ledge__ldtk_layer_def_of(c, L->def_uid);
    if (!ledge__ldtk_array(c, j, "intGridCsv", L->where, true, &csv)) return false;
    if (d == NULL) {
        return ledge__ldtk_fail(c,
                                "%s: its definition (uid %lld) is no IntGrid layer of the "
                                "project's defs",
                                L->where, L->def_uid);
    }
    size_t n = (size_t)(L->cw * L->ch);
    if (json_array_size(csv) != n) {
        return ledge__ldtk_fail(c,
                                "%s: \"intGridCsv\" has %zu values (must be __cWid x __cHei = "
                                "%lld x %lld = %zu)",
                                L->where, json_array_size(csv), L->cw, L->ch, n);
    }
    for (size_t i = 0; i < n; ++i) {
        const json_t *v = json_array_get(csv, i);
        long long col = (long long)i % L->cw, row = (long long)i / L->cw;
        char buf[48];
        if (!json_is_integer(v) || json_integer_value(v) < 0) {
            return ledge__ldtk_fail(c, "%s: cell (%lld, %lld) is %s (must be an IntGrid value)",
                                    L->where, col, row, ledge__ldtk_describe(v, buf));
        }
        long long value = (long long)json_integer_value(v);
        if (value == 0) continue;
        const ledge__ldtk_value_tile *t = ledge__ldtk_value_of(d, value);
        if (t == NULL) {
            return ledge__ldtk_fail(c,
                                    "%s: cell (%lld, %lld) holds value %lld, which the layer's "
                                    "definition does not list",
                                    L->where, col, row, value);
        }
        if (t->tile == LEDGE__LDTK_UNMAPPED && t->identifier == NULL) {
            return ledge__ldtk_fail(c,
                                    "%s: cell (%lld, %lld) holds value %lld, which has no "
                                    "identifier (name it with a tile name, e.g. full, or map it "
                                    "in def->intgrid; docs/ldtk.md)",
                                    L->where, col, row, value);
        }
        if (t->tile == LEDGE__LDTK_UNMAPPED) {
            const char *name = t->identifier;
            return ledge__ldtk_fail(c,
                                    "%s: cell (%lld, %lld) holds value %lld '%.40s', which is "
                                    "no tile name%s and def->intgrid does not map (docs/ldtk.md)",
                                    L->where, col, row, value, name,
                                    ledge__ldtk_names_a_group(name)
                                        ? " (say which way it faces: _up_right, _up_left, "
                                          "_down_left, _down_right; or which half: half_top, ...)"
                                        : "");
        }
        c->scratch[i] = (ledge__ldtk_cell){(uint8_t)t->tile, (uint8_t)t->one_way, 0};
    }
    return true;
}

/// One tile instance of a Tiles or AutoLayer list into the scratch grid.
static bool decode_tile(ledge__ldtk_ctx *c, const json_t *tile, size_t i, const char *key,
                        const ledge__ldtk_tileset *ts, const layer *L) {
    char tw[200];
    long long t, f, px[2];
    snprintf(tw, sizeof tw, "%.140s, %s[%zu]", L->where, key, i);
    if (!ledge__ldtk_int(c, tile, "t", tw, true, 0, INT32_MAX, 0, &t)) return false;
    const ledge__ldtk_tile_info *info = ts ? ledge__ldtk_tile_info_of(ts, t) : NULL;
    if (info == NULL || info->tile <= LEDGE_TILE_EMPTY) return true; // decoration
    if (!ledge__ldtk_int(c, tile, "f", tw, false, 0, 3, 0, &f) ||
        !ledge__ldtk_pair(c, tile, "px", tw, -PX, PX, px)) {
        return false;
    }
    if (ts->grid != L->grid) {
        return ledge__ldtk_fail(c,
                                "%s: tile %lld of tileset '%s' has a shape, but the tileset's "
                                "tiles are %d pixels and the layer's cells %lld",
                                tw, t, ts->name, ts->grid, L->grid);
    }
    long long col = px[0] / L->grid, row = px[1] / L->grid;
    if (px[0] % L->grid || px[1] % L->grid || px[0] < 0 || px[1] < 0 || col >= L->cw ||
        row >= L->ch) {
        return ledge__ldtk_fail(c,
                                "%s: tile %lld at (%lld, %lld) pixels is off the layer's %lld x "
                                "%lld grid of %lld pixels",
                                tw, t, px[0], px[1], L->cw, L->ch, L->grid);
    }
    ledge__ldtk_cell cell = {ledge_ldtk_flip((ledge_tile)info->tile, f & 1, f & 2),
                             (uint8_t)ledge__ldtk_flip_one_way(info->one_way, f & 1, f & 2), 0};
    if (info->material.has) {
        ledge_material m = cell_material(c, &info->material, f);
        if (!intern(c, &m, tw, &cell.material)) return false;
    }
    ledge__ldtk_cell *s = &c->scratch[row * L->cw + col];
    if (s->tile != LEDGE_TILE_EMPTY && (s->tile != cell.tile || s->one_way != cell.one_way)) {
        return ledge__ldtk_fail(c, "%s: cell (%lld, %lld) holds two tiles, %s and %s (as drawn)",
                                L->where, col, row, ledge_tile_name(s->tile),
                                ledge_tile_name(cell.tile));
    }
    if (s->material && cell.material && s->material != cell.material) {
        char a[96], b[96];
        return ledge__ldtk_fail(c,
                                "%s: cell (%lld, %lld) holds two tiles with different materials "
                                "(%s; and %s)",
                                L->where, col, row, describe_material(c, s->material, a),
                                describe_material(c, cell.material, b));
    }
    if (cell.material == 0) cell.material = s->material;
    *s = cell;
    return true;
}

static bool decode_tiles(ledge__ldtk_ctx *c, const json_t *j, const char *key, const layer *L) {
    const json_t *tiles;
    long long uid;
    if (!ledge__ldtk_array(c, j, key, L->where, false, &tiles) ||
        !ledge__ldtk_int(c, j, "__tilesetDefUid", L->where, false, INT64_MIN, INT64_MAX, -1,
                         &uid)) {
        return false;
    }
    size_t n = tiles ? json_array_size(tiles) : 0;
    if (n == 0) return true;
    const json_t *uid_v = json_object_get(j, "__tilesetDefUid");
    const ledge__ldtk_tileset *ts = NULL;
    if (uid_v && !json_is_null(uid_v)) {
        ts = ledge__ldtk_tileset_of(c, uid);
        if (ts == NULL) {
            return ledge__ldtk_fail(c, "%s: its tileset (uid %lld) is not in the project's defs",
                                    L->where, uid);
        }
    }
    for (size_t i = 0; i < n; ++i) {
        if (!decode_tile(c, json_array_get(tiles, i), i, key, ts, L)) return false;
    }
    return true;
}

// ---------------------------------------------------------------------------
// Merging into the map

/// The layer holds a tile: it must sit on the map's grid and fit its level.
static bool check_placement(ledge__ldtk_ctx *c, const layer *L, const ledge__ldtk_level *lv) {
    if (L->ox != 0 || L->oy != 0) {
        return ledge__ldtk_fail(c,
                                "%s is offset by (%lld, %lld) pixels (a layer with tiles must "
                                "lie on the level's grid)",
                                L->where, L->ox, L->oy);
    }
    if (c->grid == 0 && !ledge__ldtk_fix_grid(c, (int)L->grid, L->where)) return false;
    if (L->grid != c->grid) {
        return ledge__ldtk_fail(c,
                                "%s has cells of %lld pixels, but the map's are %d (every layer "
                                "with tiles must use one grid size)",
                                L->where, L->grid, c->grid);
    }
    long long cw = (lv->w + c->grid - 1) / c->grid, ch = (lv->h + c->grid - 1) / c->grid;
    if (L->cw != cw || L->ch != ch) {
        return ledge__ldtk_fail(c,
                                "%s is %lld x %lld cells, but its level (%lld x %lld pixels) is "
                                "%lld x %lld",
                                L->where, L->cw, L->ch, lv->w, lv->h, cw, ch);
    }
    return true;
}

static bool merge(ledge__ldtk_ctx *c, const layer *L, const ledge__ldtk_level *lv) {
    long long lx = (lv->x - c->min_x) / c->grid, ly = (lv->y - c->min_y) / c->grid;
    for (long long row = 0; row < L->ch; ++row) {
        for (long long col = 0; col < L->cw; ++col) {
            ledge__ldtk_cell s = c->scratch[row * L->cw + col];
            if (s.tile == LEDGE_TILE_EMPTY) continue;
            int tile = s.tile, way = s.one_way;
            ledge__ldtk_to_frame(c->def->y_down, &tile, &way);
            long long y = c->def->y_down ? ly + row : c->height - 1 - (ly + row);
            ledge__ldtk_cell *m = &c->cells[y * c->width + lx + col];
            if (m->tile != LEDGE_TILE_EMPTY && (m->tile != tile || m->one_way != way)) {
                return ledge__ldtk_fail(c,
                                        "%s: cell (%lld, %lld) is %s%s but another layer (or "
                                        "level) put %s%s there",
                                        L->where, col, row, ledge_tile_name((ledge_tile)tile),
                                        way ? " one-way" : "", ledge_tile_name(m->tile),
                                        m->one_way ? " one-way" : "");
            }
            if (m->material && s.material && m->material != s.material) {
                char a[96], b[96];
                return ledge__ldtk_fail(c,
                                        "%s: cell (%lld, %lld) gets the material %s but another "
                                        "layer (or level) gave it %s (the cell's layers must "
                                        "agree on its material)",
                                        L->where, col, row, describe_material(c, s.material, a),
                                        describe_material(c, m->material, b));
            }
            m->tile = (uint8_t)tile;
            m->one_way = (uint8_t)way;
            if (s.material) m->material = s.material;
        }
    }
    return true;
}

static bool read_tile_layer(ledge__ldtk_ctx *c, const json_t *j, const layer *L,
                            const ledge__ldtk_level *lv) {
    if (c->def->tile_layer && strcmp(c->def->tile_layer, L->name) != 0) return true;
    c->tile_layer_seen = true;
    size_t n = (size_t)(L->cw * L->ch);
    if (n > c->scratch_cap) {
        ledge_free(c->scratch);
        c->scratch = ledge_alloc(n * sizeof *c->scratch);
        c->scratch_cap = c->scratch ? n : 0;
        if (c->scratch == NULL)
            return ledge__ldtk_fail(c, "%s: out of memory (%zu cells)", L->where, n);
    }
    if (n) memset(c->scratch, 0, n * sizeof *c->scratch);
    bool ok = strcmp(L->type, "IntGrid") != 0 || decode_intgrid(c, j, L);
    ok =
        ok && decode_tiles(c, j, strcmp(L->type, "Tiles") == 0 ? "gridTiles" : "autoLayerTiles", L);
    if (!ok) return false;
    size_t k = 0;
    while (k < n && c->scratch[k].tile == LEDGE_TILE_EMPTY) ++k;
    if (k == n) return true; // nothing solid: any grid, any offset
    return check_placement(c, L, lv) && merge(c, L, lv);
}

// ---------------------------------------------------------------------------
// Layers and levels

static bool read_header(ledge__ldtk_ctx *c, const json_t *j, const ledge__ldtk_level *lv,
                        size_t index, layer *L) {
    snprintf(L->where, sizeof L->where, "level '%s', layer %zu", lv->name, index);
    if (!json_is_object(j)) return ledge__ldtk_fail(c, "%s is not an object", L->where);
    if (!ledge__ldtk_str(c, j, "__identifier", L->where, true, NULL, &L->name)) return false;
    snprintf(L->where, sizeof L->where, "level '%s', layer '%.60s'", lv->name, L->name);
    if (!ledge__ldtk_str(c, j, "__type", L->where, true, NULL, &L->type) ||
        !ledge__ldtk_int(c, j, "__gridSize", L->where, true, 1, 65536, 0, &L->grid) ||
        !ledge__ldtk_int(c, j, "__cWid", L->where, true, 0, LEDGE_MAX_TILEMAP_SIDE, 0, &L->cw) ||
        !ledge__ldtk_int(c, j, "__cHei", L->where, true, 0, LEDGE_MAX_TILEMAP_SIDE, 0, &L->ch) ||
        !ledge__ldtk_int(c, j, "__pxTotalOffsetX", L->where, false, -PX, PX, 0, &L->ox) ||
        !ledge__ldtk_int(c, j, "__pxTotalOffsetY", L->where, false, -PX, PX, 0, &L->oy) ||
        !ledge__ldtk_int(c, j, "layerDefUid", L->where, false, INT64_MIN, INT64_MAX, 0,
                         &L->def_uid)) {
        return false;
    }
    if (L->cw * L->ch > LEDGE_LDTK_MAX_CELLS) {
        return ledge__ldtk_fail(c, "%s is %lld x %lld cells (at most %d)", L->where, L->cw, L->ch,
                                LEDGE_LDTK_MAX_CELLS);
    }
    if (c->fallback_grid == 0) c->fallback_grid = (int)L->grid;
    return true;
}

static bool read_layer(ledge__ldtk_ctx *c, const json_t *j, const ledge__ldtk_level *lv,
                       size_t index, int level) {
    layer L;
    if (!read_header(c, j, lv, index, &L)) return false;
    if (strcmp(L.type, "IntGrid") == 0 || strcmp(L.type, "Tiles") == 0 ||
        strcmp(L.type, "AutoLayer") == 0) {
        return read_tile_layer(c, j, &L, lv);
    }
    if (strcmp(L.type, "Entities") != 0) {
        return ledge__ldtk_fail(c,
                                "%s: __type \"%.40s\" is unknown (must be IntGrid, Tiles, "
                                "AutoLayer or Entities)",
                                L.where, L.type);
    }
    if (c->result == NULL) return true; // tilemap loads read no entities
    ledge__ldtk_entity_layer from = {L.where,     L.name,       level,
                                     (int)L.grid, (double)L.ox, (double)L.oy};
    return ledge__ldtk_read_entities(c, j, &from);
}

/// The level's entry in the result, with its fields.
static bool add_level(ledge__ldtk_ctx *c, const ledge__ldtk_level *lv, int *out) {
    ledge_ldtk_result *r = c->result;
    const char *iid;
    char where[96];
    snprintf(where, sizeof where, "level '%s'", lv->name);
    if (!ledge__ldtk_str(c, lv->json, "iid", where, false, "", &iid) ||
        !ledge__ldtk_reserve(c, (void **)&r->levels, &c->level_cap, r->level_count + 1,
                             sizeof *r->levels)) {
        return false;
    }
    *out = r->level_count;
    ledge_ldtk_level *l = &r->levels[r->level_count++];
    memset(l, 0, sizeof *l);
    l->identifier = ledge__ldtk_strdup(c, lv->name);
    l->iid = ledge__ldtk_strdup(c, iid);
    l->index = lv->index;
    l->world_x = (int)lv->world_x;
    l->world_y = (int)lv->world_y;
    l->px_width = (int)lv->w;
    l->px_height = (int)lv->h;
    ledge__ldtk_grid_frame frame = {0, 0, 0, (int)(lv - c->levels)};
    return l->identifier && l->iid &&
           ledge__ldtk_read_fields(c, lv->json, where, &frame, &l->first_field, &l->field_count);
}

bool ledge__ldtk_read_level(ledge__ldtk_ctx *c, int k) {
    const ledge__ldtk_level *lv = &c->levels[k];
    const json_t *layers;
    int level = -1;
    char where[96];
    snprintf(where, sizeof where, "level '%s'", lv->name);
    if ((c->result && !add_level(c, lv, &level)) ||
        !ledge__ldtk_array(c, lv->json, "layerInstances", where, false, &layers)) {
        return false;
    }
    for (size_t i = 0; i < json_array_size(layers); ++i) { // LDtk's order: the top layer first
        if (!read_layer(c, json_array_get(layers, i), lv, i, level)) return false;
    }
    return true;
}
