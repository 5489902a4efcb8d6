// Snapshots: the tilemap's tiles and one-way settings (a destructible
// level rolls back too), as runs of equal cells in row-major order. The
// edge states and the store of blocked sides derive from them. A restore
// changes only the cells that differ, through the tilemap's own setters,
// and snapshot.c then gives the map's edit bookkeeping the snapshot's.
#include "snapshot_tiles.h"

#include "tilemap.h"

static inline unsigned cell_value(const ledge_tilemap *m, size_t k) {
    return (unsigned)m->tiles[k] | (unsigned)m->one_way[k] << 6;
}

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
}

bool ledge__snap_tiles_get(ledge__reader *r, ledge_world *w, bool apply) {
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
    return !r->failed;
}
