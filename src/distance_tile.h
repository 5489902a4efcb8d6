// The distance from a shape to a tile and to the tilemap (distance_tile.c),
// round tiles and edge states included.
#ifndef LEDGE_DISTANCE_TILE_H
#define LEDGE_DISTANCE_TILE_H

#include "distance.h"

#include "ledge/tilemap.h"

/// ledge_tilemap_distance without the argument checks (the shape may be a
/// point shape), one-way cells under `one_way`, a ledge_query_one_way
/// (query.h): ALWAYS counts them as solid (ledge_tilemap_distance), NEVER
/// leaves them out, AS_BODIES counts one only when its normal toward the
/// shape is within 60 degrees of the cell's direction and an overlap is no
/// deeper than `one_way_reach`.
bool ledge__tilemap_distance(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                             float max_distance, int one_way, float one_way_reach,
                             ledge_tilemap_distance_result *out);

/// Whether a query's reach is finite and in 0..LEDGE_MAX_COORDINATE; logs
/// "<fn>: max_distance is <value> (...)" when not.
bool ledge__check_reach(const char *fn, float max_distance);

#endif // LEDGE_DISTANCE_TILE_H
