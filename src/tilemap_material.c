// The tilemap's materials (tilemap.h's ledge_tilemap_set_tile_material and
// the per-cell calls): a table by tile id, and the cells given their own
// material, as a list sorted by cell index (tilemap_material.h says why).
// Every change notes an edit, so that a world's sleepers near it wake.
#include "tilemap_material.h"

#include "array.h"
#include "material.h"

static inline uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

bool ledge__same_material(const ledge_material *a, const ledge_material *b) {
    return bits(a->friction) == bits(b->friction) && bits(a->bounce) == bits(b->bounce) &&
           bits(a->surface_speed) == bits(b->surface_speed) && a->friction_mix == b->friction_mix;
}

static bool check_map(const char *fn, const ledge_tilemap *map) {
    if (map != NULL) return true;
    LEDGE_ERROR("%s: map is NULL", fn);
    return false;
}

// A tile id a material may be set for: a tile, not EMPTY (which has no
// surface).
static bool check_solid_tile(const char *fn, ledge_tile tile) {
    if (!ledge__check_tile(fn, tile)) return false;
    if (tile != LEDGE_TILE_EMPTY) return true;
    LEDGE_ERROR("%s: tile is 0 (EMPTY has no surface: must be 1..%d)", fn, LEDGE_TILE_COUNT - 1);
    return false;
}

static bool check_cell(const char *fn, const ledge_tilemap *map, int x, int y) {
    if (ledge__tilemap_inside(map, x, y)) return true;
    LEDGE_ERROR("%s: cell is (%d, %d) (must be in 0..%d x 0..%d)", fn, x, y, map->width - 1,
                map->height - 1);
    return false;
}

void ledge__tilemap_note_tile_materials(ledge_tilemap *map) {
    ledge_material d = ledge_default_material();
    map->tile_materials_set = false;
    for (int t = 1; t < LEDGE_TILE_COUNT; ++t)
        map->tile_materials_set |= !ledge__same_material(&map->tile_material[t], &d);
}

bool ledge_tilemap_set_tile_material(ledge_tilemap *map, ledge_tile tile,
                                     const ledge_material *material) {
    const char *fn = "ledge_tilemap_set_tile_material";
    if (!check_map(fn, map) || !check_solid_tile(fn, tile) ||
        !ledge__check_material(fn, "material", material))
        return false;
    if (ledge__same_material(&map->tile_material[tile], material)) return true;
    map->tile_material[tile] = *material;
    ledge__tilemap_note_tile_materials(map);
    ledge__tilemap_note_all(map);
    return true;
}

ledge_material ledge_tilemap_tile_material(const ledge_tilemap *map, ledge_tile tile) {
    const char *fn = "ledge_tilemap_tile_material";
    if (!check_map(fn, map) || !ledge__check_tile(fn, tile)) return ledge_default_material();
    return map->tile_material[tile];
}

bool ledge__tilemap_reserve_cell_materials(ledge_tilemap *map, int count) {
    return LEDGE__RESERVE(map->cell_material, map->cell_material_cap, count,
                          map->cell_material_count, 16);
}

// Inserts or replaces the override of cell index k at position `at`
// (ledge__cell_material_find's); false when the list cannot grow.
static bool put_override(ledge_tilemap *map, int at, uint32_t k, const ledge_material *m) {
    ledge__cell_material *list = map->cell_material;
    if (at < map->cell_material_count && list[at].cell == k) {
        list[at].material = *m;
        return true;
    }
    if (!ledge__tilemap_reserve_cell_materials(map, map->cell_material_count + 1)) return false;
    list = map->cell_material;
    memmove(&list[at + 1], &list[at], sizeof *list * (size_t)(map->cell_material_count - at));
    list[at].cell = k;
    list[at].material = *m;
    map->cell_material_count++;
    return true;
}

bool ledge_tilemap_set_cell_material(ledge_tilemap *map, int x, int y,
                                     const ledge_material *material) {
    const char *fn = "ledge_tilemap_set_cell_material";
    if (!check_map(fn, map) || !check_cell(fn, map, x, y)) return false;
    if (material != NULL && !ledge__check_material(fn, "material", material)) return false;
    uint32_t k = (uint32_t)y * (uint32_t)map->width + (uint32_t)x;
    int at = ledge__cell_material_find(map, k);
    bool has = at < map->cell_material_count && map->cell_material[at].cell == k;
    if (material == NULL) {
        if (!has) return true;
        ledge__cell_material *list = map->cell_material;
        memmove(&list[at], &list[at + 1],
                sizeof *list * (size_t)(map->cell_material_count - at - 1));
        map->cell_material_count--;
    } else {
        if (has && ledge__same_material(&map->cell_material[at].material, material)) return true;
        if (!put_override(map, at, k, material)) {
            LEDGE_ERROR("%s: allocation of %d cell materials failed (nothing changed)", fn,
                        map->cell_material_count + 1);
            return false;
        }
    }
    ledge__tilemap_note_material(map, x, y);
    return true;
}

ledge_material ledge_tilemap_cell_material(const ledge_tilemap *map, int x, int y) {
    if (!check_map("ledge_tilemap_cell_material", map)) return ledge_default_material();
    return *ledge__tilemap_material(map, x, y, ledge__tilemap_at(map, x, y));
}

bool ledge_tilemap_cell_has_material(const ledge_tilemap *map, int x, int y) {
    if (!check_map("ledge_tilemap_cell_has_material", map)) return false;
    if (!ledge__tilemap_inside(map, x, y)) return false;
    uint32_t k = (uint32_t)y * (uint32_t)map->width + (uint32_t)x;
    int at = ledge__cell_material_find(map, k);
    return at < map->cell_material_count && map->cell_material[at].cell == k;
}

void ledge__tilemap_put_cell_materials(ledge_tilemap *map, const ledge__cell_material *list,
                                       int count) {
    LEDGE_ASSERT(count <= map->cell_material_cap || count == 0);
    if (count > 0) memcpy(map->cell_material, list, sizeof *list * (size_t)count);
    map->cell_material_count = count;
}

void ledge_tilemap_clear_cell_materials(ledge_tilemap *map) {
    if (!check_map("ledge_tilemap_clear_cell_materials", map)) return;
    int n = map->cell_material_count;
    map->cell_material_count = 0;
    if (n > LEDGE__EDITS_KEPT) {
        ledge__tilemap_note_all(map);
        return;
    }
    for (int k = 0; k < n; ++k) {
        uint32_t c = map->cell_material[k].cell;
        ledge__tilemap_note_material(map, (int)(c % (uint32_t)map->width),
                                     (int)(c / (uint32_t)map->width));
    }
}

bool ledge_tilemap_reserve_cell_materials(ledge_tilemap *map, int count) {
    const char *fn = "ledge_tilemap_reserve_cell_materials";
    if (!check_map(fn, map)) return false;
    long long cells = (long long)map->width * (long long)map->height;
    if (count < 0 || count > cells) {
        LEDGE_ERROR("%s: count is %d (must be 0..%lld, the map's cells)", fn, count, cells);
        return false;
    }
    if (ledge__tilemap_reserve_cell_materials(map, count)) return true;
    LEDGE_ERROR("%s: allocation of %d cell materials failed (nothing changed)", fn, count);
    return false;
}
