/// @file tilemap.h
/// A grid of N tiles with seamless edges and fast queries, usable with or
/// without a world.
///
/// Overview
/// --------
/// A tilemap is `width` x `height` cells of side `tile_size`; cell (i, j)
/// covers origin + [i, i+1) x [j, j+1) times tile_size. Every cell holds a
/// `ledge_tile` id (tiles.h). **Cells outside the map behave as FULL tiles**
/// (N's solid border): queries, ray casts and collisions see a solid world
/// beyond the map's edge, so nothing can fall out of it.
///
/// Every cell side has an edge state derived from how the two tiles on either
/// side cover it (N tutorial B):
/// - OFF: both cover the same part of it: all of it (two FULL tiles), the
///   same half (two HALF tiles side by side, a 22/67 degree big tile beside
///   its small partner) or nothing. It is an internal seam: collisions never
///   push across it, which is what keeps a box sliding on a row of FULL or
///   HALF tiles from snagging on the seams between them;
/// - SOLID: one side covers it fully, the other not at all: a plain axis push;
/// - INTERESTING: anything else; the tile's own test runs.
/// States are recomputed for the cell and its neighbours on every set.
///
/// Queries: point (`ledge_tilemap_query_point`, the cheap wall/floor probe),
/// region (`ledge_tilemap_query_region`), ray (`ledge_tilemap_raycast`, an
/// Amanatides & Woo grid walk) and shape (`ledge_tilemap_collide`: every
/// contact of a circle, box or polygon at a position).
#ifndef LEDGE_TILEMAP_H
#define LEDGE_TILEMAP_H

#include "material.h"
#include "tiles.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest width or height of a tilemap, in cells.
#define LEDGE_MAX_TILEMAP_SIDE 65536
/// Largest number of cells in one tilemap (width * height).
#define LEDGE_MAX_TILEMAP_CELLS (1 << 28)
/// Smallest tile_size (below it float precision cannot place a cell).
#define LEDGE_MIN_TILE_SIZE 1.0e-4f

/// An opaque tilemap. Create with ledge_tilemap_create.
typedef struct ledge_tilemap ledge_tilemap;

/// What a tilemap is made from. Fill with ledge_default_tilemap_def.
typedef struct ledge_tilemap_def {
    int width;       ///< Cells along x, 1..LEDGE_MAX_TILEMAP_SIDE.
    int height;      ///< Cells along y, 1..LEDGE_MAX_TILEMAP_SIDE.
    float tile_size; ///< A cell's side, LEDGE_MIN_TILE_SIZE..LEDGE_MAX_COORDINATE.
    vec2s origin;    ///< World position of cell (0, 0)'s lower corner.
} ledge_tilemap_def;

/// The state of one cell side.
typedef enum ledge_edge {
    LEDGE_EDGE_OFF = 0,         ///< An internal seam (both cover the same part): never push across.
    LEDGE_EDGE_SOLID = 1,       ///< A plain axis-aligned wall.
    LEDGE_EDGE_INTERESTING = 2, ///< Run the tile's own test.
} ledge_edge;

/// A cell found by a query.
typedef struct ledge_tile_hit {
    int x;           ///< Cell column (may be outside the map: those are FULL).
    int y;           ///< Cell row.
    ledge_tile tile; ///< The tile id there.
} ledge_tile_hit;

/// One contact between a shape and a tile.
typedef struct ledge_tile_contact {
    ledge_manifold manifold; ///< Normal from the tile toward the shape, depth, points.
    int x;                   ///< Cell column of the tile.
    int y;                   ///< Cell row of the tile.
    ledge_tile tile;         ///< The tile id.
} ledge_tile_contact;

/// One-way platforms: a cell's tile collides only with bodies that come
/// from the allowed side (the side the direction points to) and are pushed
/// out toward it. A body below a LEDGE_ONE_WAY_UP cell jumps up through it
/// and lands on top; ledge_body_drop_through lets one fall through on
/// purpose.
typedef enum ledge_one_way {
    LEDGE_ONE_WAY_NONE = 0,  ///< An ordinary solid tile.
    LEDGE_ONE_WAY_UP = 1,    ///< Solid for bodies above it (+y).
    LEDGE_ONE_WAY_DOWN = 2,  ///< Solid for bodies below it (-y).
    LEDGE_ONE_WAY_LEFT = 3,  ///< Solid for bodies to its left (-x).
    LEDGE_ONE_WAY_RIGHT = 4, ///< Solid for bodies to its right (+x).
} ledge_one_way;

/// A 16 x 16 map of 1-unit tiles at the origin.
LEDGE_API ledge_tilemap_def ledge_default_tilemap_def(void);

/// Creates an empty tilemap, or returns NULL (logged) for a bad def or when
/// allocation fails.
LEDGE_API ledge_tilemap *ledge_tilemap_create(const ledge_tilemap_def *def);

/// Frees the tilemap. NULL is ignored.
LEDGE_API void ledge_tilemap_destroy(ledge_tilemap *map);

/// The def the map was created with (width, height, tile_size, origin).
LEDGE_API ledge_tilemap_def ledge_tilemap_get_def(const ledge_tilemap *map);

/// Sets cell (x, y) to `tile` and updates the edge states around it.
/// Returns false (logged) for a cell outside the map or an invalid tile id.
LEDGE_API bool ledge_tilemap_set(ledge_tilemap *map, int x, int y, ledge_tile tile);

/// Makes cell (x, y) one-way (or ordinary again with LEDGE_ONE_WAY_NONE),
/// whatever tile it holds. Returns false (logged) for a cell outside the
/// map or a bad direction.
LEDGE_API bool ledge_tilemap_set_one_way(ledge_tilemap *map, int x, int y, ledge_one_way way);

/// The one-way direction of cell (x, y) (NONE outside the map).
LEDGE_API ledge_one_way ledge_tilemap_one_way(const ledge_tilemap *map, int x, int y);

/// The unit vector a direction names ((0, 0) for NONE).
LEDGE_API vec2s ledge_one_way_direction(ledge_one_way way);

/// Sets the material (material.h) of every cell holding tile id `tile`,
/// except the cells given their own (ledge_tilemap_set_cell_material).
/// Every id starts with ledge_default_material(). Returns false (logged,
/// nothing changed) for a NULL map or material, EMPTY or an id that is no
/// tile, or a material out of range. The sleeping bodies of a world on the
/// map all wake at its next step, as after a large edit.
LEDGE_API bool ledge_tilemap_set_tile_material(ledge_tilemap *map, ledge_tile tile,
                                               const ledge_material *material);

/// The material of tile id `tile` (the default material, logged, for a
/// NULL map or an id that is no tile).
LEDGE_API ledge_material ledge_tilemap_tile_material(const ledge_tilemap *map, ledge_tile tile);

/// Gives cell (x, y) a material of its own, whatever tile it holds (an icy
/// cell, a bouncy pad, the cells of a belt), or with `material` NULL takes
/// it away (the cell's tile id's material applies again). The cell keeps
/// it when its tile changes. Returns false (logged, nothing changed) for a
/// NULL map, a cell outside the map, a material out of range, or a failed
/// allocation. The sleeping bodies near the cell wake at the next step.
LEDGE_API bool ledge_tilemap_set_cell_material(ledge_tilemap *map, int x, int y,
                                               const ledge_material *material);

/// Takes every cell's own material away (the tile ids' apply again): a
/// level reset. A NULL map is refused (logged).
LEDGE_API void ledge_tilemap_clear_cell_materials(ledge_tilemap *map);

/// Makes room for `count` cells with a material of their own in all, so
/// that setting that many afterwards cannot fail for want of memory (a
/// loader reserves before it changes anything). False (logged, nothing
/// changed) for a NULL map, a count outside 0..width * height, or a failed
/// allocation.
LEDGE_API bool ledge_tilemap_reserve_cell_materials(ledge_tilemap *map, int count);

/// The material of cell (x, y) that contacts use: its own, else its tile
/// id's. Outside the map (FULL) the FULL tile's. The default material,
/// logged, for a NULL map.
LEDGE_API ledge_material ledge_tilemap_cell_material(const ledge_tilemap *map, int x, int y);

/// Whether cell (x, y) has a material of its own (false outside the map;
/// false, logged, for a NULL map).
LEDGE_API bool ledge_tilemap_cell_has_material(const ledge_tilemap *map, int x, int y);

/// The tile at cell (x, y); LEDGE_TILE_FULL outside the map.
LEDGE_API ledge_tile ledge_tilemap_get(const ledge_tilemap *map, int x, int y);

/// The state of one side of cell (x, y) (cells outside the map count as
/// FULL).
LEDGE_API ledge_edge ledge_tilemap_edge(const ledge_tilemap *map, int x, int y, ledge_side side);

/// The cell holding a world point (floor division; may lie outside the map).
LEDGE_API void ledge_tilemap_cell_at(const ledge_tilemap *map, vec2s point, int *x, int *y);

/// Whether `point` lies in a solid part of the map (tiles and the solid
/// outside). Fills `out` (may be NULL) with the cell and tile.
LEDGE_API bool ledge_tilemap_query_point(const ledge_tilemap *map, vec2s point,
                                         ledge_tile_hit *out);

/// The non-empty cells of the map overlapping `box` (cells outside the map
/// are not listed). Writes up to max_out of them to `out` (may be NULL when
/// max_out is 0) in row-major order and returns how many there are in all
/// (0, logged, for a NULL map, a non-finite or inverted box, a negative
/// max_out, or a NULL out with max_out > 0).
LEDGE_API int ledge_tilemap_query_region(const ledge_tilemap *map, ledge_aabb box,
                                         ledge_tile_hit *out, int max_out);

/// Casts the segment origin -> origin + translation through the map. On a
/// hit fills `out` (may be NULL) with the point, normal, fraction, cell and
/// tile. A ray that starts inside a solid region hits at fraction 0 with the
/// normal opposite to its direction.
LEDGE_API bool ledge_tilemap_raycast(const ledge_tilemap *map, vec2s origin, vec2s translation,
                                     ledge_ray_hit *out);

/// Every contact of `shape` at `pos` with the tiles it overlaps (cells
/// outside the map included, as FULL), using the edge states so that seams
/// never push. Writes up to max_out contacts to `out` in row-major cell order
/// and returns how many there are in all (or -1, logged, for bad input).
LEDGE_API int ledge_tilemap_collide(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                                    ledge_tile_contact *out, int max_out);

/// Fills the map from N's level string: one character per cell, '0' + id,
/// column by column (x outer, y inner, y = 0 first) as N's level data is
/// laid out; newlines and spaces are skipped. N's levels are y-down: load
/// them into a world whose gravity points to +y. Refuses (logged, map
/// unchanged) a wrong length or a bad character, naming its position.
LEDGE_API bool ledge_tilemap_load_n(ledge_tilemap *map, const char *text);

/// Fills the map from ledge's readable ASCII form (docs/tilemap.md): one
/// line per row, one glyph per cell, the first line being the row of largest
/// y (as a y-up level reads on screen). Refuses (logged, map unchanged) bad
/// glyphs, short or long lines and a wrong line count, naming the line and
/// column.
LEDGE_API bool ledge_tilemap_load_ascii(ledge_tilemap *map, const char *text);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_TILEMAP_H
