// The levels of a load. A project keeps its levels at the root, or (with
// LDtk's "multi-worlds" option) in root["worlds"][k]["levels"]. One level
// is chosen by identifier, iid or index, or every level is taken, each at
// its worldX, worldY on the world map (Free and GridVania layouts; the
// linear layouts write -1 there and show the levels side by side in array
// order, so they are placed that way, each taking whole cells once the
// grid is known). A level saved in its own file has
// null layerInstances and an externalRelPath: its text comes from the
// def's resolver or from the file next to the project.
#include "ldtk_levels.h"
#include "ldtk_json.h"

#include <stdio.h>
#include <string.h>

#define PX LEDGE_LDTK_MAX_PIXELS

/// The levels array (and layout) of the world to read.
static bool choose_world(ledge__ldtk_ctx *c, const json_t *root, const json_t **levels,
                         const char **layout) {
    const json_t *worlds, *own;
    const char *want = c->def->ldtk_world;
    if (!ledge__ldtk_array(c, root, "worlds", "the project", false, &worlds) ||
        !ledge__ldtk_array(c, root, "levels", "the project", !worlds, &own)) {
        return false;
    }
    size_t nw = worlds ? json_array_size(worlds) : 0;
    if (want == NULL && (nw == 0 || json_array_size(own) > 0)) {
        *levels = own;
        return ledge__ldtk_str(c, root, "worldLayout", "the project", false, "Free", layout);
    }
    if (want == NULL && nw > 1) {
        return ledge__ldtk_fail(c, "the project has %zu worlds (name one in def->ldtk_world)", nw);
    }
    for (size_t i = 0; i < nw; ++i) {
        const json_t *w = json_array_get(worlds, i);
        const char *id, *iid;
        char where[64];
        snprintf(where, sizeof where, "world %zu", i);
        if (!ledge__ldtk_str(c, w, "identifier", where, true, NULL, &id) ||
            !ledge__ldtk_str(c, w, "iid", where, false, "", &iid)) {
            return false;
        }
        if (want && strcmp(want, id) != 0 && strcmp(want, iid) != 0) continue;
        return ledge__ldtk_array(c, w, "levels", where, true, levels) &&
               ledge__ldtk_str(c, w, "worldLayout", where, false, "Free", layout);
    }
    return ledge__ldtk_fail(c, "the project has no world '%.60s'", want ? want : "");
}

/// A level's identifier and iid, for matching.
static bool level_names(ledge__ldtk_ctx *c, const json_t *l, size_t i, const char **id,
                        const char **iid) {
    char where[64];
    snprintf(where, sizeof where, "level %zu", i);
    return ledge__ldtk_str(c, l, "identifier", where, true, NULL, id) &&
           ledge__ldtk_str(c, l, "iid", where, false, "", iid);
}

/// The index of the one level to load, or -1 (refused).
static long pick(ledge__ldtk_ctx *c, const json_t *levels) {
    size_t n = json_array_size(levels);
    const char *want = c->def->level;
    if (want == NULL) {
        if (c->def->level_index < 0 || (size_t)c->def->level_index >= n) {
            ledge__ldtk_fail(c, "level_index is %d (the project has %zu levels)",
                             c->def->level_index, n);
            return -1;
        }
        return c->def->level_index;
    }
    char names[200] = "";
    size_t used = 0;
    for (size_t i = 0; i < n; ++i) {
        const char *id, *iid;
        if (!level_names(c, json_array_get(levels, i), i, &id, &iid)) return -1;
        if (strcmp(want, id) == 0 || strcmp(want, iid) == 0) return (long)i;
        if (used < sizeof names - 1) {
            int k = snprintf(names + used, sizeof names - used, "%s'%s'", i ? ", " : "", id);
            used += k > 0 ? (size_t)k : 0;
        }
    }
    ledge__ldtk_fail(c, "the project has no level '%.60s' (its levels: %.200s)", want,
                     n ? names : "none");
    return -1;
}

/// Reads a separate level file for level `l`.
static bool read_external(ledge__ldtk_ctx *c, ledge__ldtk_level *l, const char *path) {
    char what[256];
    size_t len = 0;
    const char *text = NULL;
    snprintf(what, sizeof what, "level '%s': its file \"%.100s\"", l->name, path);
    if (c->def->resolve) {
        text = c->def->resolve(path, &len, c->def->resolve_user);
        if (text == NULL) return ledge__ldtk_fail(c, "%s was not found by the resolver", what);
    } else if (c->project_path == NULL) {
        return ledge__ldtk_fail(c,
                                "%s: a separate level file needs def->resolve when the project "
                                "is loaded from memory",
                                what);
    } else {
        const char *slash = strrchr(c->project_path, '/');
        size_t dir = slash ? (size_t)(slash - c->project_path) + 1 : 0, n = dir + strlen(path) + 1;
        char *full = ledge_alloc(n);
        if (full == NULL) return ledge__ldtk_fail(c, "%s: out of memory", what);
        memcpy(full, c->project_path, dir);
        memcpy(full + dir, path, n - dir);
        ledge__ldtk_file f = {NULL, 0};
        char prefix[280];
        snprintf(prefix, sizeof prefix, "%s: ", what);
        bool ok = ledge__ldtk_read_file(c, prefix, full, &f.text, &f.len);
        ledge_free(full);
        if (!ok) return false;
        if (!ledge__ldtk_reserve(c, (void **)&c->files, &c->file_cap, c->file_count + 1,
                                 sizeof f)) {
            ledge_free(f.text);
            return false;
        }
        c->files[c->file_count++] = f;
        text = f.text;
        len = f.len;
    }
    l->external = ledge__ldtk_parse(c, text, len, what);
    if (l->external == NULL) return false;
    l->json = l->external;
    return true;
}

/// Reads level i's header into *l.
static bool read_level(ledge__ldtk_ctx *c, const json_t *j, size_t i, ledge__ldtk_level *l) {
    const char *id, *path;
    const json_t *layers;
    char where[96];
    if (!json_is_object(j)) return ledge__ldtk_fail(c, "level %zu is not an object", i);
    if (!ledge__ldtk_str(c, j, "identifier", "a level", true, NULL, &id)) return false;
    snprintf(l->name, sizeof l->name, "%s", id);
    snprintf(where, sizeof where, "level '%s'", l->name);
    l->json = j;
    l->index = (int)i;
    if (!ledge__ldtk_int(c, j, "pxWid", where, true, 1, PX, 0, &l->w) ||
        !ledge__ldtk_int(c, j, "pxHei", where, true, 1, PX, 0, &l->h) ||
        !ledge__ldtk_int(c, j, "worldX", where, false, -PX, PX, 0, &l->x) ||
        !ledge__ldtk_int(c, j, "worldY", where, false, -PX, PX, 0, &l->y) ||
        !ledge__ldtk_array(c, j, "layerInstances", where, false, &layers) ||
        !ledge__ldtk_str(c, j, "externalRelPath", where, false, NULL, &path)) {
        return false;
    }
    l->world_x = l->x;
    l->world_y = l->y;
    if (layers == NULL && path != NULL) return read_external(c, l, path);
    return true;
}

bool ledge__ldtk_select_levels(ledge__ldtk_ctx *c, const json_t *root) {
    const json_t *levels;
    const char *layout;
    if (!choose_world(c, root, &levels, &layout)) return false;
    size_t n = json_array_size(levels);
    long one = c->def->all_levels ? -1 : pick(c, levels);
    if (!c->def->all_levels && one < 0) return false;
    if (c->def->all_levels && n == 0) return ledge__ldtk_fail(c, "the project has no level");
    size_t count = c->def->all_levels ? n : 1;
    c->levels = ledge_alloc(count * sizeof *c->levels);
    if (c->levels == NULL) return ledge__ldtk_fail(c, "out of memory (%zu levels)", count);
    memset(c->levels, 0, count * sizeof *c->levels);
    for (size_t i = 0; i < n; ++i) {
        if (one >= 0 && (long)i != one) continue;
        ledge__ldtk_level *l = &c->levels[c->level_count++];
        if (!read_level(c, json_array_get(levels, i), i, l)) return false;
    }
    if (one >= 0) c->levels[0].x = c->levels[0].y = 0; // one level: the map is the level
    bool horizontal = strcmp(layout, "LinearHorizontal") == 0;
    if (one < 0 && (horizontal || strcmp(layout, "LinearVertical") == 0)) {
        c->linear = horizontal ? 1 : 2;
    }
    return true;
}

/// Linear layouts: the levels side by side in array order, each taking
/// whole cells.
static bool lay_out(ledge__ldtk_ctx *c, int grid) {
    long long place = 0;
    for (int i = 0; i < c->level_count; ++i) {
        ledge__ldtk_level *l = &c->levels[i];
        l->x = c->linear == 1 ? place : 0;
        l->y = c->linear == 1 ? 0 : place;
        long long side = c->linear == 1 ? l->w : l->h;
        place += (side + grid - 1) / grid * grid;
        if (place > PX) return ledge__ldtk_fail(c, "level '%s' lies beyond %d pixels", l->name, PX);
    }
    return true;
}

/// The map's bounds on the world map: every level's.
static void bounds(ledge__ldtk_ctx *c) {
    long long x1 = c->levels[0].x + c->levels[0].w, y1 = c->levels[0].y + c->levels[0].h;
    c->min_x = c->levels[0].x;
    c->min_y = c->levels[0].y;
    for (int i = 1; i < c->level_count; ++i) {
        const ledge__ldtk_level *l = &c->levels[i];
        c->min_x = l->x < c->min_x ? l->x : c->min_x;
        c->min_y = l->y < c->min_y ? l->y : c->min_y;
        x1 = l->x + l->w > x1 ? l->x + l->w : x1;
        y1 = l->y + l->h > y1 ? l->y + l->h : y1;
    }
    c->span_x = x1 - c->min_x;
    c->span_y = y1 - c->min_y;
}

void ledge__ldtk_free_levels(ledge__ldtk_ctx *c) {
    for (int i = 0; i < c->level_count; ++i) json_decref(c->levels[i].external);
    ledge_free(c->levels);
    c->levels = NULL;
    c->level_count = 0;
}

bool ledge__ldtk_fix_grid(ledge__ldtk_ctx *c, int grid, const char *where) {
    if (c->linear && !lay_out(c, grid)) return false;
    bounds(c);
    for (int i = 0; i < c->level_count; ++i) {
        const ledge__ldtk_level *l = &c->levels[i];
        if ((l->x - c->min_x) % grid != 0 || (l->y - c->min_y) % grid != 0) {
            return ledge__ldtk_fail(c,
                                    "level '%s' lies at (%lld, %lld) pixels on the world map, off "
                                    "the %d-pixel grid of %s (move it onto the grid)",
                                    l->name, l->x, l->y, grid, where);
        }
    }
    long long w = (c->span_x + grid - 1) / grid, h = (c->span_y + grid - 1) / grid;
    if (w > LEDGE_MAX_TILEMAP_SIDE || h > LEDGE_MAX_TILEMAP_SIDE || w * h > LEDGE_LDTK_MAX_CELLS) {
        return ledge__ldtk_fail(c,
                                "the map is %lld x %lld cells of %d pixels (at most %d a side "
                                "and %d cells)",
                                w, h, grid, LEDGE_MAX_TILEMAP_SIDE, LEDGE_LDTK_MAX_CELLS);
    }
    size_t cells = (size_t)w * (size_t)h;
    c->cells = ledge_alloc(cells * sizeof *c->cells);
    if (c->cells == NULL) return ledge__ldtk_fail(c, "out of memory (%zu cells)", cells);
    memset(c->cells, 0, cells * sizeof *c->cells);
    c->grid = grid;
    c->width = (int)w;
    c->height = (int)h;
    c->scale = (double)c->tile_size / (double)grid;
    return true;
}
