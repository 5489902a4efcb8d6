// The tilemap's materials (tilemap_material.c): each tile id's, and the
// sparse per-cell overrides, a list sorted by cell index (binary search:
// the same list for the same cells, whatever the order they were set in,
// so that a snapshot writes it as it is). What a tile contact reads.
#ifndef LEDGE_TILEMAP_MATERIAL_H
#define LEDGE_TILEMAP_MATERIAL_H

#include "tilemap.h"

/// One per-cell override: the cell's index (y * width + x) and material.
typedef struct ledge__cell_material {
    uint32_t cell;
    ledge_material material;
} ledge__cell_material;

/// The position in map->cell_material of the override of cell index k,
/// or of where it would go (the first with a larger index).
static inline int ledge__cell_material_find(const ledge_tilemap *map, uint32_t k) {
    int lo = 0, hi = map->cell_material_count;
    while (lo < hi) {
        int mid = (int)((unsigned)(lo + hi) >> 1);
        if (map->cell_material[mid].cell < k) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/// The material a contact with tile t of cell (x, y) uses: the cell's own,
/// else the tile id's (cells outside the map: their tile's, FULL). No
/// checks. (Inline: a tile contact reads it; a map without overrides pays
/// one branch.)
static inline const ledge_material *ledge__tilemap_material(const ledge_tilemap *map, int x, int y,
                                                            ledge_tile t) {
    if (LEDGE_UNLIKELY(map->cell_material_count > 0) && ledge__tilemap_inside(map, x, y)) {
        uint32_t k = (uint32_t)y * (uint32_t)map->width + (uint32_t)x;
        int at = ledge__cell_material_find(map, k);
        if (at < map->cell_material_count && map->cell_material[at].cell == k)
            return &map->cell_material[at].material;
    }
    return &map->tile_material[t];
}

/// Whether any surface of the map has a material other than the default
/// (a tile id's or a cell's own): contacts with a map without read their
/// material for nothing but the body's own.
static inline bool ledge__tilemap_has_materials(const ledge_tilemap *map) {
    return map->cell_material_count > 0 || map->tile_materials_set;
}

/// Notes whether any tile id's material is not the default (after the
/// table changed).
void ledge__tilemap_note_tile_materials(ledge_tilemap *map);

/// Room for `count` overrides (a snapshot's restore makes it before it
/// changes anything); false when the allocation fails, the map as it was.
bool ledge__tilemap_reserve_cell_materials(ledge_tilemap *map, int count);

/// Replaces every override by the `count` of `list`, sorted by cell and
/// within the room reserved (a snapshot's restore, which gives the map's
/// edit bookkeeping the snapshot's afterwards: no edit is noted).
void ledge__tilemap_put_cell_materials(ledge_tilemap *map, const ledge__cell_material *list,
                                       int count);

/// Whether two materials hold the same bits.
bool ledge__same_material(const ledge_material *a, const ledge_material *b);

#endif // LEDGE_TILEMAP_MATERIAL_H
