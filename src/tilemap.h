// Internal layout of a tilemap, shared by tilemap.c (storage, edges, point
// and region queries, shape contacts), tilemap_ray.c (the grid walk) and
// tilemap_load.c (the text loaders).
#ifndef LEDGE_TILEMAP_INTERNAL_H
#define LEDGE_TILEMAP_INTERNAL_H

#include "ledge/tilemap.h"
#include "tile.h"
#include "tile_collide.h"

#include <string.h>

/// What a tile's point test is (ledge__tile_probe.kind).
typedef enum ledge__probe_kind {
    LEDGE__PROBE_EMPTY = 0,    ///< Never solid.
    LEDGE__PROBE_FULL = 1,     ///< Always solid (inside the cell).
    LEDGE__PROBE_PLANE = 2,    ///< Solid where (p - at) . n <= 0 (slopes, half tiles).
    LEDGE__PROBE_DISC_IN = 3,  ///< Solid where |p - at| <= 1 (CONVEX).
    LEDGE__PROBE_DISC_OUT = 4, ///< Solid where |p - at| >= 1 (CONCAVE).
} ledge__probe_kind;

/// The point test of one tile id in unit-cell coordinates (u, v), copied
/// out of ledge__tile_geom so that the whole table sits in a few cache
/// lines. `kind` says which test it is (for code that needs the surface,
/// like the ray walk); `a` and `c` also give it one branch-free form: with
/// (dx, dy) = (u, v) - at, the point is solid when
///     a * (dx^2 + dy^2) + (dx * n.x + dy * n.y) + c <= 0:
///   PLANE: a = 0, n = the surface normal, at = its anchor, c = 0;
///   DISC_IN (CONVEX): a = 1, n = 0, at = the arc centre, c = -1;
///   DISC_OUT (CONCAVE): a = -1, n = 0, at = the arc centre, c = 1;
///   FULL: c = -1 (always); EMPTY: c = 1 (never).
/// Unused terms are exact zeros, and q - 1, 1 - q are exact near q = 1, so
/// the result has the same bits as ledge__tile_contains_unit, and a tile mix
/// the branch predictor cannot learn costs nothing extra.
typedef struct ledge__tile_probe {
    vec2s n;       ///< PLANE: the surface normal; else 0.
    vec2s at;      ///< PLANE: the anchor; DISC_*: the arc centre (radius 1); else 0.
    float a;       ///< Quadratic coefficient: 0, 1 or -1.
    float c;       ///< Constant: 0, 1 or -1.
    uint32_t kind; ///< A ledge__probe_kind.
} ledge__tile_probe;

/// How many of its latest edits a tilemap remembers by cell: a world that
/// meets at most this many since its last step wakes only the sleeping
/// bodies near them (sleep.c), and every sleeper after more.
#define LEDGE__EDITS_KEPT 64

/// A cell of the map.
typedef struct ledge__cell {
    int x, y;
} ledge__cell;

struct ledge_tilemap {
    int width, height;
    uint32_t version; ///< Bumped by every tile change (the world caches "near tiles" by it).
    /// The cell the edit that made version v changed, at
    /// edited[v % LEDGE__EDITS_KEPT] (for the last LEDGE__EDITS_KEPT versions).
    ledge__cell edited[LEDGE__EDITS_KEPT];
    float tile_size;
    float inv_tile_size;
    vec2s origin;
    /// Tile ids, row-major: cell (x, y) at tiles[y * width + x].
    ledge_tile *tiles;
    /// Vertical cell sides: edges_v[y * (width + 1) + x] is the side at the
    /// cell boundary x, between cells (x - 1, y) and (x, y). A ledge_edge.
    uint8_t *edges_v;
    /// Horizontal cell sides: edges_h[y * width + x] is the side at the cell
    /// boundary y, between cells (x, y - 1) and (x, y). A ledge_edge.
    uint8_t *edges_h;
    /// One-way direction of each cell (a ledge_one_way), row-major like tiles.
    uint8_t *one_way;
    /// The blocked sides of each cell (LEDGE_SIDE_ bits, from the edge
    /// states and the tiles around it: tilemap.c, blocked_sides), for the
    /// map and the one-cell ring around it, which is as far as a shape's
    /// scan reaches: cell (x, y), x in -1..width and y in -1..height, at
    /// blocked[(y + 1) * (width + 2) + x + 1]. The step collides with
    /// tiles far more often than a game edits them. The store is made as
    /// of version blocked_version (when blocked_ready), and brought up to
    /// date by ledge__tilemap_refresh_blocked, which the world calls before
    /// each step: the 3 x 3 cells around each edit since, or all of it
    /// when more than LEDGE__EDITS_KEPT edits came since (a level being
    /// built). Until then the cells around those edits are computed
    /// afresh when asked, so an edit costs no more than its edges.
    uint8_t *blocked;
    uint32_t blocked_version;
    bool blocked_ready;
    /// Sides blocked by what lies beside the map's tiles rather than by the
    /// tiles: a chain whose end lies on a tile's surface (chain_store.c)
    /// hides the tile's side it runs on across, which must then push no
    /// more than a seam does. LEDGE_SIDE_ bits per cell of the map,
    /// row-major (NULL until a chain first blocks a side), added to the
    /// edge states' blocked sides.
    uint8_t *extra_blocked;
    /// The material of every tile id (tilemap_material.c; the default
    /// material after create).
    ledge_material tile_material[LEDGE_TILE_COUNT];
    /// Per-cell overrides of the material, sorted by cell index (y * width
    /// + x), cell_material_count of them in room for cell_material_cap
    /// (tilemap_material.c); a separate allocation, NULL until the first.
    struct ledge__cell_material *cell_material;
    int cell_material_count, cell_material_cap;
    /// Some tile id's material is not the default (tilemap_material.c).
    bool tile_materials_set;
    /// Unit-cell geometry of every tile id (tile.h), computed once.
    ledge__tile_geom geom[LEDGE_TILE_COUNT];
    /// The point test of every tile id, derived from geom (query_point).
    ledge__tile_probe probe[LEDGE_TILE_COUNT];
    /// Every polygonal tile id at this map's tile size with every set of
    /// blocked sides (ledge__ptile_init), made with the map: a tile
    /// collision reads its tile here instead of making it. (Round tiles'
    /// entries are unused.)
    ledge__ptile ptile[LEDGE_TILE_COUNT][16];
};

/// A cell's material changed (tilemap_material.c): a new version with
/// the cell as its edit, so that the sleepers near it wake (sleep.c) and
/// the contacts there are looked at again; its sides did not change, so
/// the store of blocked sides stays as up to date as it was.
void ledge__tilemap_note_material(ledge_tilemap *map, int x, int y);

/// A tile id's material changed: a new version counting as more edits
/// than the map remembers, so that every sleeper wakes (cells unnamed).
void ledge__tilemap_note_all(ledge_tilemap *map);

/// True when (x, y) is a cell of the map.
static inline bool ledge__tilemap_inside(const ledge_tilemap *map, int x, int y) {
    return x >= 0 && y >= 0 && x < map->width && y < map->height;
}

/// The tile at (x, y), FULL outside the map. No checks on `map`.
static inline ledge_tile ledge__tilemap_at(const ledge_tilemap *map, int x, int y) {
    return ledge__tilemap_inside(map, x, y) ? map->tiles[(size_t)y * (size_t)map->width + (size_t)x]
                                            : (ledge_tile)LEDGE_TILE_FULL;
}

/// The cell coordinate (floor) of world coordinate v along one axis.
static inline int ledge__tilemap_cell(float v, float origin, float inv_size) {
    float f = floorf((v - origin) * inv_size);
    // Clamp far outside the map so the int conversion stays defined; NaN
    // (a body the world let go non-finite) clamps too.
    if (!(f >= -2.0e9f)) return -2000000000;
    if (f > 2.0e9f) return 2000000000;
    return (int)f;
}

/// The cells a shape at `pos` can touch: its bounds (grown by a few ulps)
/// clamped to the map plus a one-cell ring, as ledge_tilemap_collide scans.
void ledge__tilemap_scan_range(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                               int *x0, int *y0, int *x1, int *y1);

/// The contact of a shape with tile t (not EMPTY) of cell (x, y), blocked
/// sides from the edge states. No argument checks.
ledge_manifold ledge__tilemap_collide_tile(const ledge_tilemap *map, int x, int y, ledge_tile t,
                                           const ledge_shape *shape, vec2s pos);

/// The contact of a shape with one cell's tile, or an empty manifold for an
/// EMPTY cell. No argument checks. (Inline: most cells a scan visits are
/// empty, and their callers then skip the empty manifold unmade.)
static inline ledge_manifold ledge__tilemap_collide_cell(const ledge_tilemap *map, int x, int y,
                                                         const ledge_shape *shape, vec2s pos) {
    ledge_tile t = ledge__tilemap_at(map, x, y);
    if (t != LEDGE_TILE_EMPTY) return ledge__tilemap_collide_tile(map, x, y, t, shape, pos);
    ledge_manifold none;
    memset(&none, 0, sizeof none);
    return none;
}

/// The sides of cell (x, y) that its tile's contacts treat as seams (the
/// `blocked` of ledge__tile_collide), from the edge states. No checks.
unsigned ledge__tilemap_blocked(const ledge_tilemap *map, int x, int y);

/// Brings the map's store of blocked sides up to date with its edits (see
/// ledge_tilemap.blocked); on the calling thread, before collisions that
/// run on several (the world's step).
void ledge__tilemap_refresh_blocked(ledge_tilemap *map);

/// The same, computed afresh from the edge states and tiles (what the
/// map's store of blocked sides must hold; the tests compare the two).
unsigned ledge__tilemap_blocked_afresh(const ledge_tilemap *map, int x, int y);

/// Sets the sides of cell (x, y) (inside the map) blocked from beside the
/// tiles (ledge_tilemap.extra_blocked) to `sides`; the cell's blocked
/// sides are derived again when next asked. False (nothing changed) when
/// the overlay cannot be allocated; the caller logs.
bool ledge__tilemap_set_extra_blocked(ledge_tilemap *map, int x, int y, unsigned sides);

/// Whether `point` lies in the closed solid of cell (x, y)'s tile (its
/// boundary included; FULL outside the map), in the frame of
/// ledge_tilemap_query_point. No checks.
bool ledge__tilemap_cell_holds(const ledge_tilemap *map, int x, int y, vec2s point);

/// Whether (x, y) is a cell of the map made one-way.
bool ledge__tilemap_one_way_cell(const ledge_tilemap *map, int x, int y);

/// ledge_tilemap_query_point's closed test, with the one-way cells left
/// out unless `one_way_too`: the first cell whose solid holds `point` (its
/// own, then the others it touches in row-major order) into *out. No checks.
bool ledge__tilemap_solid_point(const ledge_tilemap *map, vec2s point, bool one_way_too,
                                ledge_tile_hit *out);

#endif // LEDGE_TILEMAP_INTERNAL_H
