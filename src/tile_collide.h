// Internal entry point of shape-vs-tile collision, shared by the stateless
// ledge_collide_tile (tiles.h) and the tilemap's contact query.
#ifndef LEDGE_TILE_COLLIDE_H
#define LEDGE_TILE_COLLIDE_H

#include "tile.h"

/// A polygonal tile (no arc) in its cell frame, at one cell size and one
/// set of blocked sides: the solid T, its extrusion U across the blocked
/// sides and the half-plane, as the collision uses them (tile_collide.c).
/// A tilemap keeps one per tile id and set of blocked sides, made once for
/// its tile size, so that a collision does not make it again.
typedef struct ledge__ptile {
    const ledge__tile_geom *g;
    float s;        ///< Cell side.
    vec2s lo, hi;   ///< U's box: the cell with honoured blocked sides at infinity.
    bool plane;     ///< Whether the half-plane n.p <= o applies (all but FULL).
    vec2s n;        ///< Its outward unit normal.
    float o;        ///< Its offset.
    vec2s a;        ///< A point on its line, in the cell.
    vec2s v[5];     ///< T's outline.
    unsigned block; ///< Honoured blocked sides.
    bool axis_box;  ///< FULL or HALF: U is the box [ulo, uhi].
    vec2s ulo, uhi; ///< That box: the solid's bounds, blocked sides it reaches at infinity.
} ledge__ptile;

/// Makes *t for the polygonal tile `g` in a cell of side `size` with the
/// LEDGE_SIDE_ bits `blocked` (0..15).
void ledge__ptile_init(const ledge__tile_geom *g, float size, unsigned blocked, ledge__ptile *t);

/// Collides the tile with geometry `g` in the cell [cell_min, cell_min +
/// size]^2 (as a) with `shape` at `pos` (as b). `blocked` holds LEDGE_SIDE_
/// bits of sides whose edge is OFF (the tile and its neighbour cover the
/// same part of the side): the solid continues across them, so no push may
/// leave through them (tile_collide.c says how each tile group honours
/// them). `made`: the tile as ledge__ptile_init makes it for g, size and
/// blocked, or NULL (made here when the tile is polygonal). No argument
/// checks: callers validate.
ledge_manifold ledge__tile_collide(const ledge__tile_geom *g, const ledge__ptile *made,
                                   vec2s cell_min, float size, unsigned blocked,
                                   const ledge_shape *shape, vec2s pos);

#endif // LEDGE_TILE_COLLIDE_H
