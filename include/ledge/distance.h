/// @file distance.h
/// How far apart: closest points between two shapes, between a shape and a
/// tile or the tilemap, and the nearest body or tile surface in a world.
///
/// Overview
/// --------
/// `ledge_collide` answers "do these overlap, and by how much";
/// `ledge_shape_distance` answers "how far apart are they, and where":
///
///     ledge_shape feet = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.4f, 0.1f}});
///     ledge_shape floor = ledge_make_box((vec2s){{0, 0}}, (vec2s){{5, 0.5f}});
///     ledge_distance_result d =
///         ledge_shape_distance(&feet, (vec2s){{0, 1.0f}}, &floor, (vec2s){{0, 0}});
///     // d.distance = 0.4, d.normal = (0, -1) (from the feet toward the floor),
///     // d.point_a on the feet's bottom, d.point_b on the floor's top
///
/// For separated shapes `distance` is the exact Euclidean distance, `point_a`
/// and `point_b` are closest points on the two boundaries (point_b - point_a
/// = normal * distance). Touching shapes give distance 0 and the normal of
/// the touching faces. For overlapping shapes `distance` is 0 and `normal`
/// is the direction of ledge_collide's minimum translation (moving b by
/// normal * depth separates them); the points are then the deepest points of
/// that push, one on each boundary (point_a - point_b = normal * depth), so
/// |point_b - point_a| is the penetration depth.
///
/// Circle-circle, circle-box, box-box and circle-polygon pairs use closed
/// forms; polygon pairs with a box or polygon use GJK (Gilbert, Johnson and
/// Keerthi) on the two vertex sets in the frame of `a`, which ends on a
/// repeated support vertex and is exact to float rounding. `iterations` counts
/// GJK's support steps (0 for a closed form).
///
/// Tiles (`ledge_tile_distance`) and the tilemap (`ledge_tilemap_distance`)
/// answer the same question against N's 34 tiles, round ones included, with
/// the edge states of the map: a seam between two solid tiles is not a
/// surface, so an overlapping shape is pushed as ledge_tilemap_collide would
/// push it. `ledge_world_nearest` adds the bodies a query filter sees.
///
/// Invalid input (NULL, an invalid shape, non-finite or out-of-range numbers)
/// is refused with a message through the log hook; the result is then
/// LEDGE_DISTANCE_REFUSED's value: distance = INFINITY, points and normal
/// (0, 0), iterations -1.
#ifndef LEDGE_DISTANCE_H
#define LEDGE_DISTANCE_H

#include "draw.h"
#include "query.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The closest points of two shapes (see the file comment).
typedef struct ledge_distance_result {
    float distance; ///< >= 0; 0 when the shapes touch or overlap; INFINITY when refused.
    vec2s point_a;  ///< On a's boundary (world space).
    vec2s point_b;  ///< On b's boundary (world space).
    vec2s normal;   ///< Unit, from a toward b; for overlapping shapes the MTV's normal.
    int iterations; ///< GJK support steps; 0 for a closed form; -1 when refused.
} ledge_distance_result;

/// Distance between a at pa and b at pb, with the closest points and the
/// normal from a toward b. Every pair of shape types. A refused call
/// (logged) returns distance INFINITY and iterations -1.
LEDGE_API ledge_distance_result ledge_shape_distance(const ledge_shape *a, vec2s pa,
                                                     const ledge_shape *b, vec2s pb);

/// Distance between a tile (as a) in the cell at cell_min of side `size` and
/// `shape` at `pos` (as b): point_a lies on the tile's outline, the normal
/// points from the tile toward the shape (for a floor below: up). Round
/// tiles are exact (arc included). `blocked` holds the LEDGE_SIDE_ bits of
/// sides that are seams (as for ledge_collide_tile; 0 for a lone tile): it
/// only matters when the shape overlaps the tile, whose push is then
/// ledge_collide_tile's: distance 0, its normal, and its contact point
/// (the middle of the contact points) moved half the depth each way along
/// the normal, so point_a - point_b = normal * depth. A shape deep in a
/// tile blocked on every side gets the lone tile's push. EMPTY gives distance
/// INFINITY with iterations 0. Refused (logged) like ledge_collide_tile.
LEDGE_API ledge_distance_result ledge_tile_distance(ledge_tile tile, vec2s cell_min, float size,
                                                    unsigned blocked, const ledge_shape *shape,
                                                    vec2s pos);

/// The nearest solid tile to a shape, from ledge_tilemap_distance.
typedef struct ledge_tilemap_distance_result {
    ledge_distance_result distance; ///< a = the tile, b = the query shape.
    int cell_x;                     ///< The cell of the tile (may lie outside the map).
    int cell_y;                     ///< The cell of the tile.
    ledge_tile tile;                ///< Its tile id (FULL outside the map).
} ledge_tilemap_distance_result;

/// The nearest solid tile surface to `shape` at `pos` no farther than
/// `max_distance` (>= 0), with its cell and the closest points (a = the
/// tile, so the normal is the surface's, facing the shape). Cells outside
/// the map are FULL; the scan is clamped to the map and a one-cell ring
/// around it, as ledge_tilemap_collide's. Edge states are honoured: a shape
/// overlapping tiles gets distance 0 and the deepest push
/// ledge_tilemap_collide would give; when every overlapped tile is blocked
/// on all sides (deep in solid ground) the first one's own push, in
/// row-major order. Equal distances: the first cell in row-major order (y,
/// then x). One-way cells count as solid. Returns false when nothing is
/// within reach or the call is refused (logged); `*out` then holds
/// distance INFINITY.
LEDGE_API bool ledge_tilemap_distance(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                                      float max_distance, ledge_tilemap_distance_result *out);

/// The nearest thing to a query, from ledge_world_nearest.
typedef struct ledge_nearest_result {
    ledge_hit_kind kind;            ///< Tile, chain, body or none.
    ledge_body_id body;             ///< The body (LEDGE_HIT_BODY), else the null id.
    ledge_chain_id chain;           ///< The chain (LEDGE_HIT_CHAIN), else the null id.
    int segment;                    ///< Its segment (LEDGE_HIT_CHAIN), else 0.
    int cell_x;                     ///< The cell (LEDGE_HIT_TILE).
    int cell_y;                     ///< The cell (LEDGE_HIT_TILE).
    ledge_tile tile;                ///< The tile id (LEDGE_HIT_TILE).
    ledge_distance_result distance; ///< a = the tile or body found, b = the query.
} ledge_nearest_result;

/// The nearest tile surface or body (one the filter sees) to `shape` at
/// `position`, no farther than `max_distance` (>= 0). Bodies are found
/// through the world's query grid (ledge_world_query_aabb) and measured with
/// ledge_shape_distance(body, query); tiles as ledge_tilemap_distance (unless
/// the filter's include_tiles is false). Equal distances: the tile first,
/// then the lower body index. Returns false when nothing is within reach or
/// the call is refused (logged, as the other world queries); `*out` is then
/// {kind = LEDGE_HIT_NONE, distance.distance = INFINITY}.
LEDGE_API bool ledge_world_nearest(ledge_world *world, const ledge_shape *shape, vec2s position,
                                   float max_distance, const ledge_query_filter *filter,
                                   ledge_nearest_result *out);

/// ledge_world_nearest for a point: point_b is the point itself, and the
/// normal points from the surface found toward it. A point inside a tile
/// or body gets distance 0 and the push out of it.
LEDGE_API bool ledge_world_nearest_point(ledge_world *world, vec2s point, float max_distance,
                                         const ledge_query_filter *filter,
                                         ledge_nearest_result *out);

/// Colour of a drawn distance result (orange-red).
#define LEDGE_COLOR_DISTANCE 0xFF8040u

/// Draws a distance result: the segment point_a -> point_b through
/// `draw_segment` and both points through `draw_point` (LEDGE_COLOR_DISTANCE),
/// then, with `draw_normals`, the normal at point_a, normal_length long
/// (LEDGE_COLOR_NORMAL). NULL callbacks are skipped. Refused (logged,
/// nothing drawn) for NULL arguments and a result with a non-finite point,
/// normal or distance (a refused query's).
LEDGE_API void ledge_distance_draw(const ledge_distance_result *result,
                                   const ledge_debug_draw *draw);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_DISTANCE_H
