// Snapshots: the tilemap's tiles and one-way settings (a destructible
// level rolls back too), as runs of equal cells in row-major order, then
// its materials (a game may switch a belt or freeze a floor at run time):
// the tile ids' that are not the default, and the cells' own in cell
// order (their list's order, the same for the same cells however they
// were set). The edge states and the store of blocked sides derive from
// the cells. A restore changes only the cells that differ, through the
// tilemap's own setters, writes the materials as they are, and
// snapshot.c then gives the map's edit bookkeeping the snapshot's.
#include "snapshot_tiles.h"

#include "material.h"
#include "tilemap.h"
#include "tilemap_material.h"

static inline unsigned cell_value(const ledge_tilemap *m, size_t k) {
    return (unsigned)m->tiles[k] | (unsigned)m->one_way[k] << 6;
}

// --- materials -------------------------------------------------------------------

static void put_material(ledge__writer *o, const ledge_material *m) {
    ledge__put_f32(o, m->friction);
    ledge__put_f32(o, m->bounce);
    ledge__put_f32(o, m->surface_speed);
    ledge__put_u8(o, (unsigned)m->friction_mix);
}

static bool get_material(ledge__reader *r, ledge_material *m) {
    m->friction = ledge__get_f32(r);
    m->bounce = ledge__get_f32(r);
    m->surface_speed = ledge__get_within(r, LEDGE_MAX_COORDINATE, "a surface speed");
    m->friction_mix = (ledge_friction_mix)ledge__get_u8(r);
    if (!r->failed && !ledge_material_is_valid(m))
        return ledge__read_fail(r, "a material's friction %g, bounce %g or friction mix %u",
                                (double)m->friction, (double)m->bounce, (unsigned)m->friction_mix);
    return !r->failed;
}

static void put_materials(const ledge_tilemap *m, ledge__writer *o) {
    ledge_material d = ledge_default_material();
    unsigned changed = 0;
    for (int t = 1; t < LEDGE_TILE_COUNT; ++t)
        changed += !ledge__same_material(&m->tile_material[t], &d);
    ledge__put_var(o, changed);
    for (int t = 1; t < LEDGE_TILE_COUNT; ++t) {
        if (ledge__same_material(&m->tile_material[t], &d)) continue;
        ledge__put_var(o, (uint64_t)t);
        put_material(o, &m->tile_material[t]);
    }
    ledge__put_var(o, (uint64_t)m->cell_material_count);
    uint32_t last = 0;
    for (int k = 0; k < m->cell_material_count; ++k) {
        const ledge__cell_material *c = &m->cell_material[k];
        ledge__put_var(o, c->cell - last); // sorted: the first its index, then gaps
        last = c->cell;
        put_material(o, &c->material);
    }
}

// The tile ids' materials (written at once with `apply`), then the cells',
// checked sorted, unique and in the map; with `apply` written to the list,
// whose room the restore made (*count: how many).
static bool get_materials(ledge__reader *r, ledge_tilemap *m, bool apply, int *count) {
    int ids = (int)ledge__get_count(r, LEDGE_TILE_COUNT - 1, "the tile materials");
    int last_id = 0;
    if (apply) {
        for (int t = 1; t < LEDGE_TILE_COUNT; ++t) m->tile_material[t] = ledge_default_material();
    }
    for (int k = 0; k < ids && !r->failed; ++k) {
        int t = (int)ledge__get_count(r, LEDGE_TILE_COUNT - 1, "a tile id");
        ledge_material mat;
        if (!get_material(r, &mat)) break;
        if (t <= last_id) return ledge__read_fail(r, "tile material %d follows %d", t, last_id);
        last_id = t;
        if (apply) m->tile_material[t] = mat;
    }
    uint64_t cells = (uint64_t)m->width * (uint64_t)m->height;
    *count = (int)ledge__get_count(r, cells, "the cell materials");
    uint64_t at = 0;
    for (int k = 0; k < *count && !r->failed; ++k) {
        uint64_t gap = ledge__get_count(r, cells - 1, "a cell material's gap");
        ledge_material mat;
        if (!get_material(r, &mat)) break;
        if ((k > 0 && gap == 0) || at + gap >= cells)
            return ledge__read_fail(r, "cell material %d is at cell %llu (after %llu, in %llu)", k,
                                    (unsigned long long)(at + gap), (unsigned long long)at,
                                    (unsigned long long)cells);
        at += gap;
        if (apply) m->cell_material[k] = (ledge__cell_material){(uint32_t)at, mat};
    }
    if (apply && !r->failed) {
        m->cell_material_count = *count;
        ledge__tilemap_note_tile_materials(m);
    }
    return !r->failed;
}

// --- cells -------------------------------------------------------------------------

void ledge__snap_tiles_put(const ledge_world *w, ledge__writer *o) {
    const ledge_tilemap *m = w->map;
    size_t cells = (size_t)m->width * (size_t)m->height;
    for (size_t k = 0; k < cells;) {
        unsigned v = cell_value(m, k);
        size_t j = k + 1;
        // (Whole words at a time through the long runs of empty cells.)
        while (j + 8 <= cells) {
            uint64_t t, u, want_t = 0x0101010101010101ull * m->tiles[k],
                           want_u = 0x0101010101010101ull * m->one_way[k];
            memcpy(&t, m->tiles + j, 8);
            memcpy(&u, m->one_way + j, 8);
            if (t != want_t || u != want_u) break;
            j += 8;
        }
        while (j < cells && cell_value(m, j) == v) ++j;
        ledge__put_var(o, j - k);
        ledge__put_var(o, v);
        k = j;
    }
    put_materials(m, o);
}

bool ledge__snap_tiles_get(ledge__reader *r, ledge_world *w, bool apply, int *cell_materials) {
    ledge_tilemap *m = w->map;
    size_t cells = (size_t)m->width * (size_t)m->height;
    for (size_t k = 0; k < cells && !r->failed;) {
        size_t run = (size_t)ledge__get_count(r, cells - k, "a run of tiles");
        unsigned v = (unsigned)ledge__get_count(r, 0x1FFu, "a cell");
        unsigned tile = v & 63u, way = v >> 6;
        if (r->failed) break;
        if (run == 0 || tile >= LEDGE_TILE_COUNT || way > LEDGE_ONE_WAY_RIGHT)
            return ledge__read_fail(r, "a run of %zu cells of tile %u, one-way %u", run, tile, way);
        for (size_t j = k; apply && j < k + run; ++j) {
            if (cell_value(m, j) == v) continue;
            int x = (int)(j % (size_t)m->width), y = (int)(j / (size_t)m->width);
            if (m->tiles[j] != tile) ledge_tilemap_set(m, x, y, (ledge_tile)tile);
            if (m->one_way[j] != way) ledge_tilemap_set_one_way(m, x, y, (ledge_one_way)way);
        }
        k += run;
    }
    return !r->failed && get_materials(r, m, apply, cell_materials);
}
