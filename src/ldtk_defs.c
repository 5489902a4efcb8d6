// The project's definitions (root["defs"]) that say what becomes a tile:
// - each IntGrid layer definition's values, through the game's table
//   (def->intgrid, first match) or the value's identifier
//   (ledge_ldtk_tile_from_name); a value neither names stays unmapped and is
//   refused when a cell uses it;
// - each tileset's tiles that have a shape: an enum tag whose value is a
//   tile name (values that are not, e.g. "Water", are the game's own and
//   ignored), or custom data `ledge_tile=<name>` (lines of key=value, or a
//   JSON object, or the name alone), which may also say `one_way` and the
//   tile's material: `friction`, `bounce`, `surface_speed`, `friction_mix`
//   (ldtk_ctx.h; the cells drawn with the tile get it, ldtk_layers.c).
#include "ldtk_defs.h"
#include "ldtk_json.h"
#include "ldtk_names.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TILE_ID 0x7FFFFFFF

// ---------------------------------------------------------------------------
// The game's tables

bool ledge__ldtk_check_tables(ledge__ldtk_ctx *c) {
    const ledge_ldtk_def *d = c->def;
    if (d->intgrid_count < 0 || (d->intgrid_count > 0 && d->intgrid == NULL)) {
        return ledge__ldtk_fail(c, "def->intgrid is NULL with intgrid_count %d", d->intgrid_count);
    }
    for (int i = 0; i < d->intgrid_count; ++i) {
        const ledge_ldtk_intgrid_tile *e = &d->intgrid[i];
        if (e->tile < 0 || e->tile >= LEDGE_TILE_COUNT) {
            return ledge__ldtk_fail(c, "def->intgrid[%d].tile is %d (must be 0..%d)", i, e->tile,
                                    LEDGE_TILE_COUNT - 1);
        }
        if (e->one_way < LEDGE_ONE_WAY_NONE || e->one_way > LEDGE_ONE_WAY_RIGHT) {
            return ledge__ldtk_fail(c, "def->intgrid[%d].one_way is %d (must be a ledge_one_way)",
                                    i, e->one_way);
        }
    }
    if (d->entity_body_count < 0 || (d->entity_body_count > 0 && d->entity_bodies == NULL)) {
        return ledge__ldtk_fail(c, "def->entity_bodies is NULL with entity_body_count %d",
                                d->entity_body_count);
    }
    for (int i = 0; i < d->entity_body_count; ++i) {
        const ledge_ldtk_entity_body *e = &d->entity_bodies[i];
        if (e->identifier == NULL || (unsigned)e->body > LEDGE_LDTK_SENSOR ||
            (unsigned)e->shape > LEDGE_LDTK_CIRCLE) {
            return ledge__ldtk_fail(c,
                                    "def->entity_bodies[%d] has a NULL identifier, body %d or "
                                    "shape %d (must be a ledge_ldtk_body_kind and shape)",
                                    i, (int)e->body, (int)e->shape);
        }
    }
    return true;
}

// ---------------------------------------------------------------------------
// IntGrid layer definitions

static int cmp_value(const void *a, const void *b) {
    long long x = ((const ledge__ldtk_value_tile *)a)->value;
    long long y = ((const ledge__ldtk_value_tile *)b)->value;
    return (x > y) - (x < y);
}

/// What value `v` (identifier `id`, maybe NULL) of layer `layer` becomes.
static void map_value(const ledge__ldtk_ctx *c, const char *layer, ledge__ldtk_value_tile *v) {
    const ledge_ldtk_def *d = c->def;
    for (int i = 0; i < d->intgrid_count; ++i) {
        const ledge_ldtk_intgrid_tile *e = &d->intgrid[i];
        if (e->layer && strcmp(e->layer, layer) != 0) continue;
        bool hit = e->identifier ? strcmp(e->identifier, "*") == 0 ||
                                       (v->identifier && strcmp(e->identifier, v->identifier) == 0)
                                 : e->value == v->value;
        if (hit) {
            v->tile = e->tile;
            v->one_way = e->one_way;
            return;
        }
    }
    v->tile = v->identifier ? ledge_ldtk_tile_from_name(v->identifier, &v->one_way)
                            : LEDGE__LDTK_UNMAPPED;
    if (v->tile < 0) v->tile = LEDGE__LDTK_UNMAPPED;
}

static bool read_layer_def(ledge__ldtk_ctx *c, const json_t *j, size_t index,
                           ledge__ldtk_layer_def *out) {
    char where[128];
    const char *type, *name;
    const json_t *values;
    snprintf(where, sizeof where, "layer definition %zu", index);
    if (!ledge__ldtk_str(c, j, "__type", where, true, NULL, &type) ||
        !ledge__ldtk_str(c, j, "identifier", where, true, NULL, &name) ||
        !ledge__ldtk_int(c, j, "uid", where, true, INT64_MIN, INT64_MAX, 0, &out->uid)) {
        return false;
    }
    if (strcmp(type, "IntGrid") != 0) return true;
    snprintf(where, sizeof where, "layer definition '%.60s'", name);
    if (!ledge__ldtk_array(c, j, "intGridValues", where, true, &values)) return false;
    size_t n = json_array_size(values);
    out->values = ledge_alloc((n ? n : 1) * sizeof *out->values);
    if (out->values == NULL) return ledge__ldtk_fail(c, "%s: out of memory", where);
    for (size_t i = 0; i < n; ++i) {
        const json_t *v = json_array_get(values, i);
        ledge__ldtk_value_tile *t = &out->values[i];
        char vw[160];
        snprintf(vw, sizeof vw, "%.100s, intGridValues[%zu]", where, i);
        if (!ledge__ldtk_int(c, v, "value", vw, true, 1, INT32_MAX, 0, &t->value) ||
            !ledge__ldtk_str(c, v, "identifier", vw, false, NULL, &t->identifier)) {
            return false;
        }
        map_value(c, name, t);
        out->count = (int)i + 1;
    }
    qsort(out->values, n, sizeof *out->values, cmp_value);
    for (size_t i = 1; i < n; ++i) {
        if (out->values[i].value == out->values[i - 1].value) {
            return ledge__ldtk_fail(c, "%s: value %lld is defined twice", where,
                                    out->values[i].value);
        }
    }
    return true;
}

// ---------------------------------------------------------------------------
// Tile custom data

/// The ledge keys of one tile's custom data.
typedef struct tile_data {
    int tile, one_way;
    ledge__ldtk_material material;
} tile_data;

static const char *trim(char *s) {
    while (isspace((unsigned char)*s)) ++s;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

static bool one_way_word(const char *s, int *out) {
    static const char *const words[] = {"none", "up", "down", "left", "right"};
    for (int k = 0; k < 5; ++k) {
        if (ledge__ldtk_same_name(s, words[k])) return *out = k, true;
    }
    if (ledge__ldtk_same_name(s, "true")) return *out = LEDGE_ONE_WAY_UP, true;
    if (ledge__ldtk_same_name(s, "false")) return *out = LEDGE_ONE_WAY_NONE, true;
    return false;
}

/// Applies key = value (both strings) to *t; unknown keys are the game's.
static bool data_key(ledge__ldtk_ctx *c, const char *where, const char *key, const char *value,
                     tile_data *t) {
    if (strcmp(key, "ledge_tile") == 0) {
        int way = 0;
        char *end;
        long id = strtol(value, &end, 10);
        bool number = end != value && *end == '\0';
        t->tile = number ? (id >= 0 && id < LEDGE_TILE_COUNT ? (int)id : -1)
                         : ledge_ldtk_tile_from_name(value, &way);
        if (way) t->one_way = way;
        if (t->tile < 0) {
            return ledge__ldtk_fail(c,
                                    "%s: custom data ledge_tile \"%.40s\" is not a tile name (e.g. "
                                    "full, slope45_up_right, half_top, FULL, 45DEG_PN; "
                                    "docs/ldtk.md)",
                                    where, value);
        }
        return true;
    }
    if (strcmp(key, "one_way") == 0) {
        if (!one_way_word(value, &t->one_way)) {
            return ledge__ldtk_fail(c,
                                    "%s: custom data one_way \"%.40s\" must be up, down, left, "
                                    "right, none, true or false",
                                    where, value);
        }
        return true;
    }
    if (strcmp(key, "friction_mix") == 0) {
        static const char *const mixes[3] = {"mean", "min", "max"}; // ledge_friction_mix order
        for (int k = 0; k < 3; ++k) {
            if (!ledge__ldtk_same_name(value, mixes[k])) continue;
            t->material.friction_mix = (uint8_t)k;
            t->material.has |= LEDGE__LDTK_HAS_MIX;
            return true;
        }
        return ledge__ldtk_fail(
            c, "%s: custom data friction_mix \"%.40s\" must be mean, min or max", where, value);
    }
    static const char *const nums[3] = {"friction", "bounce", "surface_speed"};
    for (int k = 0; k < 3; ++k) {
        if (strcmp(key, nums[k]) != 0) continue;
        char *end;
        double x = strtod(value, &end);
        double lo = k < 2 ? 0 : -LEDGE_MAX_COORDINATE, hi = k < 2 ? 1 : LEDGE_MAX_COORDINATE;
        if (end == value || *end != '\0' || !(x >= lo && x <= hi)) {
            return ledge__ldtk_fail(c, "%s: custom data %s \"%.40s\" must be a number %g..%g",
                                    where, key, value, lo, hi);
        }
        float *slot[3] = {&t->material.friction, &t->material.bounce, &t->material.surface_speed};
        *slot[k] = (float)x;
        t->material.has |= (uint8_t)(1u << k);
    }
    return true;
}

/// Custom data as a JSON object: its string, number and boolean members as
/// key = value.
static bool data_json(ledge__ldtk_ctx *c, const char *where, const char *text, tile_data *t) {
    json_error_t err;
    json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    if (!json_is_object(o)) {
        json_decref(o);
        return ledge__ldtk_fail(c, "%s: custom data starts with '{' but is not a JSON object (%s)",
                                where, o ? "another value" : err.text);
    }
    const char *key;
    json_t *v;
    bool ok = true;
    json_object_foreach(o, key, v) {
        char buf[64];
        if (json_is_string(v))
            snprintf(buf, sizeof buf, "%s", json_string_value(v));
        else if (json_is_number(v))
            snprintf(buf, sizeof buf, "%.17g", json_number_value(v));
        else if (json_is_boolean(v))
            snprintf(buf, sizeof buf, "%s", json_is_true(v) ? "true" : "false");
        else
            continue;
        if (!(ok = data_key(c, where, key, buf, t))) break;
    }
    json_decref(o);
    return ok;
}

/// Reads one tile's custom data: key=value lines (or ';'), a JSON object,
/// or a tile name alone. Text that is none of those is the game's.
static bool read_data(ledge__ldtk_ctx *c, const char *where, const char *data, tile_data *t) {
    size_t n = strlen(data);
    char *copy = ledge_alloc(n + 1);
    if (copy == NULL) return ledge__ldtk_fail(c, "%s: out of memory", where);
    memcpy(copy, data, n + 1);
    const char *s = trim(copy);
    bool ok = true;
    if (s[0] == '{') {
        ok = data_json(c, where, s, t);
    } else if (strchr(s, '=') == NULL) {
        int way = 0, tile = ledge_ldtk_tile_from_name(s, &way);
        if (tile >= 0) t->tile = tile, t->one_way = way;
    } else {
        for (char *line = copy, *next; ok && line; line = next) {
            next = strpbrk(line, "\n;");
            if (next) *next++ = '\0';
            char *eq = strchr(line, '=');
            if (eq == NULL) continue;
            *eq = '\0';
            ok = data_key(c, where, trim(line), trim(eq + 1), t);
        }
    }
    ledge_free(copy);
    return ok;
}

// ---------------------------------------------------------------------------
// Tilesets

typedef struct entry {
    long long id;
    int order; ///< Enum tags first, then custom data, for a stable merge.
    tile_data data;
} entry;

static int cmp_entry(const void *a, const void *b) {
    const entry *x = a, *y = b;
    if (x->id != y->id) return (x->id > y->id) - (x->id < y->id);
    return (x->order > y->order) - (x->order < y->order);
}

static bool push(ledge__ldtk_ctx *c, entry **list, int *count, int *cap, const entry *e) {
    if (!ledge__ldtk_reserve(c, (void **)list, cap, *count + 1, sizeof **list)) return false;
    (*list)[(*count)++] = *e;
    return true;
}

/// Enum tags whose value is a tile name.
static bool read_enum_tags(ledge__ldtk_ctx *c, const json_t *ts, const char *where, entry **list,
                           int *count, int *cap) {
    const json_t *tags;
    if (!ledge__ldtk_array(c, ts, "enumTags", where, false, &tags)) return false;
    for (size_t i = 0; i < json_array_size(tags); ++i) {
        const json_t *tag = json_array_get(tags, i), *ids;
        const char *value;
        char tw[160];
        snprintf(tw, sizeof tw, "%.100s, enumTags[%zu]", where, i);
        if (!ledge__ldtk_str(c, tag, "enumValueId", tw, true, NULL, &value) ||
            !ledge__ldtk_array(c, tag, "tileIds", tw, true, &ids)) {
            return false;
        }
        entry e = {0, *count, {-1, 0, {0, 0, 0, 0, 0}}};
        e.data.tile = ledge_ldtk_tile_from_name(value, &e.data.one_way);
        if (e.data.tile < 0) continue; // the game's own tag
        for (size_t k = 0; k < json_array_size(ids); ++k) {
            const json_t *id = json_array_get(ids, k);
            if (!json_is_integer(id) || json_integer_value(id) < 0 ||
                json_integer_value(id) > MAX_TILE_ID) {
                return ledge__ldtk_fail(c, "%s: tileIds[%zu] must be a tile id 0..%d", tw, k,
                                        MAX_TILE_ID);
            }
            e.id = (long long)json_integer_value(id);
            e.order = *count;
            if (!push(c, list, count, cap, &e)) return false;
        }
    }
    return true;
}

static bool read_custom_data(ledge__ldtk_ctx *c, const json_t *ts, const char *where, entry **list,
                             int *count, int *cap) {
    const json_t *items;
    if (!ledge__ldtk_array(c, ts, "customData", where, false, &items)) return false;
    for (size_t i = 0; i < json_array_size(items); ++i) {
        const json_t *item = json_array_get(items, i);
        const char *data;
        long long id;
        char tw[160];
        snprintf(tw, sizeof tw, "%.100s, customData[%zu]", where, i);
        if (!ledge__ldtk_int(c, item, "tileId", tw, true, 0, MAX_TILE_ID, 0, &id) ||
            !ledge__ldtk_str(c, item, "data", tw, true, NULL, &data)) {
            return false;
        }
        snprintf(tw, sizeof tw, "%.100s, tile %lld", where, id);
        entry e = {id, 1 << 30, {-1, 0, {0, 0, 0, 0, 0}}};
        if (!read_data(c, tw, data, &e.data)) return false;
        e.order += *count;
        if ((e.data.tile >= 0 || e.data.one_way || e.data.material.has) &&
            !push(c, list, count, cap, &e)) {
            return false;
        }
    }
    return true;
}

/// Merges the sorted entries of one tile id into infos; refuses two shapes.
static bool merge(ledge__ldtk_ctx *c, const char *where, const entry *list, int n,
                  ledge__ldtk_tileset *ts) {
    for (int i = 0; i < n;) {
        ledge__ldtk_tile_info info = {(uint32_t)list[i].id, -1, 0, {0, 0, 0, 0, 0}};
        int j = i;
        for (; j < n && list[j].id == list[i].id; ++j) {
            const tile_data *d = &list[j].data;
            if (d->tile >= 0 && info.tile >= 0 && d->tile != info.tile) {
                return ledge__ldtk_fail(c, "%s: tile %lld is tagged both %s and %s (as drawn)",
                                        where, list[i].id, ledge_tile_name((ledge_tile)info.tile),
                                        ledge_tile_name((ledge_tile)d->tile));
            }
            if (d->tile >= 0) info.tile = (int8_t)d->tile;
            if (d->one_way) info.one_way = (uint8_t)d->one_way;
            if (d->material.has) info.material = d->material;
        }
        ts->tiles[ts->count++] = info;
        i = j;
    }
    return true;
}

static bool read_tileset(ledge__ldtk_ctx *c, const json_t *j, size_t index,
                         ledge__ldtk_tileset *ts) {
    char where[128];
    const char *name;
    long long grid;
    snprintf(where, sizeof where, "tileset %zu", index);
    if (!ledge__ldtk_str(c, j, "identifier", where, true, NULL, &name)) return false;
    snprintf(ts->name, sizeof ts->name, "%s", name);
    snprintf(where, sizeof where, "tileset '%s'", ts->name);
    if (!ledge__ldtk_int(c, j, "uid", where, true, INT64_MIN, INT64_MAX, 0, &ts->uid) ||
        !ledge__ldtk_int(c, j, "tileGridSize", where, true, 1, 65536, 0, &grid)) {
        return false;
    }
    ts->grid = (int)grid;
    entry *list = NULL;
    int count = 0, cap = 0;
    bool ok = read_enum_tags(c, j, where, &list, &count, &cap) &&
              read_custom_data(c, j, where, &list, &count, &cap);
    if (ok && count > 0) {
        qsort(list, (size_t)count, sizeof *list, cmp_entry);
        ts->tiles = ledge_alloc((size_t)count * sizeof *ts->tiles);
        ok = ts->tiles ? merge(c, where, list, count, ts)
                       : ledge__ldtk_fail(c, "%s: out of memory", where);
    }
    ledge_free(list);
    return ok;
}

// ---------------------------------------------------------------------------
// The definitions

bool ledge__ldtk_read_defs(ledge__ldtk_ctx *c, const json_t *root) {
    const json_t *defs, *layers, *tilesets;
    if (!ledge__ldtk_object(c, root, "defs", "the project", true, &defs) ||
        !ledge__ldtk_array(c, defs, "layers", "the project's defs", true, &layers) ||
        !ledge__ldtk_array(c, defs, "tilesets", "the project's defs", true, &tilesets)) {
        return false;
    }
    size_t nl = json_array_size(layers), nt = json_array_size(tilesets);
    c->layer_defs = ledge_alloc((nl ? nl : 1) * sizeof *c->layer_defs);
    c->tilesets = ledge_alloc((nt ? nt : 1) * sizeof *c->tilesets);
    if (c->layer_defs == NULL || c->tilesets == NULL) {
        return ledge__ldtk_fail(c, "out of memory (%zu layer definitions, %zu tilesets)", nl, nt);
    }
    memset(c->layer_defs, 0, (nl ? nl : 1) * sizeof *c->layer_defs);
    memset(c->tilesets, 0, (nt ? nt : 1) * sizeof *c->tilesets);
    c->layer_def_count = (int)nl;
    c->tileset_count = (int)nt;
    for (size_t i = 0; i < nl; ++i) {
        if (!read_layer_def(c, json_array_get(layers, i), i, &c->layer_defs[i])) return false;
    }
    for (size_t i = 0; i < nt; ++i) {
        if (!read_tileset(c, json_array_get(tilesets, i), i, &c->tilesets[i])) return false;
    }
    return true;
}

void ledge__ldtk_free_defs(ledge__ldtk_ctx *c) {
    for (int i = 0; i < c->layer_def_count; ++i) ledge_free(c->layer_defs[i].values);
    for (int i = 0; i < c->tileset_count; ++i) ledge_free(c->tilesets[i].tiles);
    ledge_free(c->layer_defs);
    ledge_free(c->tilesets);
    c->layer_defs = NULL;
    c->tilesets = NULL;
    c->layer_def_count = c->tileset_count = 0;
}

const ledge__ldtk_layer_def *ledge__ldtk_layer_def_of(const ledge__ldtk_ctx *c, long long uid) {
    for (int i = 0; i < c->layer_def_count; ++i) {
        if (c->layer_defs[i].uid == uid && c->layer_defs[i].values) return &c->layer_defs[i];
    }
    return NULL;
}

const ledge__ldtk_tileset *ledge__ldtk_tileset_of(const ledge__ldtk_ctx *c, long long uid) {
    for (int i = 0; i < c->tileset_count; ++i) {
        if (c->tilesets[i].uid == uid) return &c->tilesets[i];
    }
    return NULL;
}

const ledge__ldtk_tile_info *ledge__ldtk_tile_info_of(const ledge__ldtk_tileset *ts, long long id) {
    int lo = 0, hi = ts->count - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (ts->tiles[mid].id == id) return &ts->tiles[mid];
        if (ts->tiles[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

const ledge__ldtk_value_tile *ledge__ldtk_value_of(const ledge__ldtk_layer_def *d, long long v) {
    int lo = 0, hi = d->count - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (d->values[mid].value == v) return &d->values[mid];
        if (d->values[mid].value < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}
