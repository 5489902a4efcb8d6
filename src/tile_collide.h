// Internal entry point of shape-vs-tile collision, shared by the stateless
// ledge_collide_tile (tiles.h) and the tilemap's contact query.
#ifndef LEDGE_TILE_COLLIDE_H
#define LEDGE_TILE_COLLIDE_H

#include "tile.h"

/// Collides the tile with geometry `g` in the cell [cell_min, cell_min +
/// size]^2 (as a) with `shape` at `pos` (as b). `blocked` holds LEDGE_SIDE_
/// bits of sides whose edge is OFF (the tile and its neighbour cover the
/// same part of the side): the solid continues across them, so no push may
/// leave through them (tile_collide.c says how each tile group honours
/// them). No argument checks: callers validate.
ledge_manifold ledge__tile_collide(const ledge__tile_geom *g, vec2s cell_min, float size,
                                   unsigned blocked, const ledge_shape *shape, vec2s pos);

#endif // LEDGE_TILE_COLLIDE_H
