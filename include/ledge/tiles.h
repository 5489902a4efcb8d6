/// @file tiles.h
/// N's 34 tile shapes, usable one tile at a time without a tilemap.
///
/// Overview
/// --------
/// A tile fills one square cell. Its id (`ledge_tile`, 0..33) names a shape
/// group and an orientation: the orientation is the pair of signs (sx, sy) of
/// the tile's surface normal in world coordinates, so the same id means the
/// same geometry whether the game's y axis points up or down. The suffixes
/// follow N: `PN` = (+1, -1), `NN` = (-1, -1), `NP` = (-1, +1), `PP` = (+1, +1).
/// In a y-down world `PN` faces up-right; in a y-up world it faces down-right.
///
/// A cell is placed by its lower corner `cell_min` (smallest x and y) and its
/// side `size`; it covers cell_min + [0, size] x [0, size]. With the cell's
/// centre c and half-width w = size / 2 and the named corners
/// R = c - (sx w, sy w) (always solid), P = c + (sx w, -sy w),
/// Q = c + (-sx w, sy w), F = c + (sx w, sy w), the shapes are:
///
/// | group        | solid region                                              |
/// |--------------|-----------------------------------------------------------|
/// | FULL         | the whole cell                                            |
/// | 45DEG        | triangle R, P, Q                                          |
/// | CONCAVE      | the cell minus the disc of radius 2w around F             |
/// | CONVEX       | the cell intersected with the disc of radius 2w around R  |
/// | 22DEG_SMALL  | triangle R, P, c + (-sx w, 0)                             |
/// | 22DEG_BIG    | quad R, P, c + (sx w, 0), Q                               |
/// | 67DEG_SMALL  | triangle R, Q, c + (0, -sy w)                             |
/// | 67DEG_BIG    | quad R, P, c + (0, sy w), Q                               |
/// | HALF         | the half of the cell opposite to the normal               |
///
/// The 22 and 67 degree slopes are really atan(1/2) = 26.57 and atan(2) =
/// 63.43 degrees, as in N. Surface normals (out of the solid): 45DEG
/// (sx, sy) / sqrt 2; 22DEG (sx, 2 sy) / sqrt 5; 67DEG (2 sx, sy) / sqrt 5;
/// CONVEX radial, away from R; CONCAVE radial, toward F; HALF the id's
/// normal below. R is solid in every tile but EMPTY.
#ifndef LEDGE_TILES_H
#define LEDGE_TILES_H

#include "collision.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A tile id, 0..LEDGE_TILE_COUNT-1 (see ledge_tile_id).
typedef uint8_t ledge_tile;

/// The 34 tile ids in N's order.
typedef enum ledge_tile_id {
    LEDGE_TILE_EMPTY = 0,      ///< Nothing.
    LEDGE_TILE_FULL = 1,       ///< The whole cell.
    LEDGE_TILE_45DEG_PN = 2,   ///< 45 degree slope, normal (+1, -1)/sqrt2.
    LEDGE_TILE_45DEG_NN = 3,   ///< 45 degree slope, normal (-1, -1)/sqrt2.
    LEDGE_TILE_45DEG_NP = 4,   ///< 45 degree slope, normal (-1, +1)/sqrt2.
    LEDGE_TILE_45DEG_PP = 5,   ///< 45 degree slope, normal (+1, +1)/sqrt2.
    LEDGE_TILE_CONCAVE_PN = 6, ///< Quarter pipe (hollow arc), opening toward (+1, -1).
    LEDGE_TILE_CONCAVE_NN = 7, ///< Quarter pipe, opening toward (-1, -1).
    LEDGE_TILE_CONCAVE_NP = 8, ///< Quarter pipe, opening toward (-1, +1).
    LEDGE_TILE_CONCAVE_PP = 9, ///< Quarter pipe, opening toward (+1, +1).
    LEDGE_TILE_CONVEX_PN = 10, ///< Quarter disc (round hill), bulging toward (+1, -1).
    LEDGE_TILE_CONVEX_NN = 11, ///< Quarter disc, bulging toward (-1, -1).
    LEDGE_TILE_CONVEX_NP = 12, ///< Quarter disc, bulging toward (-1, +1).
    LEDGE_TILE_CONVEX_PP = 13, ///< Quarter disc, bulging toward (+1, +1).
    LEDGE_TILE_22DEG_SMALL_PN =
        14, ///< Shallow slope, thin wedge (triangle), normal (+1, -2)/sqrt5.
    LEDGE_TILE_22DEG_SMALL_NN = 15, ///< Shallow slope, thin wedge, normal (-1, -2)/sqrt5.
    LEDGE_TILE_22DEG_SMALL_NP = 16, ///< Shallow slope, thin wedge, normal (-1, +2)/sqrt5.
    LEDGE_TILE_22DEG_SMALL_PP = 17, ///< Shallow slope, thin wedge, normal (+1, +2)/sqrt5.
    LEDGE_TILE_22DEG_BIG_PN = 18,   ///< Shallow slope, thick part (quad), normal (+1, -2)/sqrt5.
    LEDGE_TILE_22DEG_BIG_NN = 19,   ///< Shallow slope, thick part (quad), normal (-1, -2)/sqrt5.
    LEDGE_TILE_22DEG_BIG_NP = 20,   ///< Shallow slope, thick part (quad), normal (-1, +2)/sqrt5.
    LEDGE_TILE_22DEG_BIG_PP = 21,   ///< Shallow slope, thick part (quad), normal (+1, +2)/sqrt5.
    LEDGE_TILE_67DEG_SMALL_PN = 22, ///< Steep slope, thin wedge (triangle), normal (+2, -1)/sqrt5.
    LEDGE_TILE_67DEG_SMALL_NN = 23, ///< Steep slope, thin wedge, normal (-2, -1)/sqrt5.
    LEDGE_TILE_67DEG_SMALL_NP = 24, ///< Steep slope, thin wedge, normal (-2, +1)/sqrt5.
    LEDGE_TILE_67DEG_SMALL_PP = 25, ///< Steep slope, thin wedge, normal (+2, +1)/sqrt5.
    LEDGE_TILE_67DEG_BIG_PN = 26,   ///< Steep slope, thick part (quad), normal (+2, -1)/sqrt5.
    LEDGE_TILE_67DEG_BIG_NN = 27,   ///< Steep slope, thick part (quad), normal (-2, -1)/sqrt5.
    LEDGE_TILE_67DEG_BIG_NP = 28,   ///< Steep slope, thick part (quad), normal (-2, +1)/sqrt5.
    LEDGE_TILE_67DEG_BIG_PP = 29,   ///< Steep slope, thick part (quad), normal (+2, +1)/sqrt5.
    LEDGE_TILE_HALF_D = 30,         ///< Half tile, normal (0, -1): solid on the +y half.
    LEDGE_TILE_HALF_R = 31,         ///< Half tile, normal (-1, 0): solid on the +x half.
    LEDGE_TILE_HALF_U = 32,         ///< Half tile, normal (0, +1): solid on the -y half.
    LEDGE_TILE_HALF_L = 33,         ///< Half tile, normal (+1, 0): solid on the -x half.
    LEDGE_TILE_COUNT = 34,          ///< Number of tile ids.
} ledge_tile_id;

/// The shape family of a tile.
typedef enum ledge_tile_group {
    LEDGE_TILE_GROUP_EMPTY = 0,   ///< LEDGE_TILE_EMPTY.
    LEDGE_TILE_GROUP_FULL,        ///< LEDGE_TILE_FULL.
    LEDGE_TILE_GROUP_45DEG,       ///< 45 degree slopes.
    LEDGE_TILE_GROUP_CONCAVE,     ///< Quarter pipes (hollow arcs).
    LEDGE_TILE_GROUP_CONVEX,      ///< Quarter discs (round hills).
    LEDGE_TILE_GROUP_22DEG_SMALL, ///< Shallow slopes, thin wedge (triangle).
    LEDGE_TILE_GROUP_22DEG_BIG,   ///< Shallow slopes, thick part (quad).
    LEDGE_TILE_GROUP_67DEG_SMALL, ///< Steep slopes, thin wedge (triangle).
    LEDGE_TILE_GROUP_67DEG_BIG,   ///< Steep slopes, thick part (quad).
    LEDGE_TILE_GROUP_HALF,        ///< Half tiles.
} ledge_tile_group;

/// The four sides of a cell, as bits (world axes, not "up"/"down").
typedef enum ledge_side {
    LEDGE_SIDE_XNEG = 1, ///< The side at the cell's smallest x.
    LEDGE_SIDE_XPOS = 2, ///< The side at the cell's largest x.
    LEDGE_SIDE_YNEG = 4, ///< The side at the cell's smallest y.
    LEDGE_SIDE_YPOS = 8, ///< The side at the cell's largest y.
} ledge_side;

/// How much of one cell side a tile's solid region covers.
typedef enum ledge_cover {
    LEDGE_COVER_NONE = 0,    ///< Nothing, or a single point (the tip of a slope or arc).
    LEDGE_COVER_PARTIAL = 1, ///< A part of the side.
    LEDGE_COVER_FULL = 2,    ///< The whole side.
} ledge_cover;

/// A tile's outline for drawing: a closed loop of points, counter-clockwise
/// with y up, where the edge from points[arc_edge] to points[arc_edge + 1]
/// (wrapping) is a circular arc instead of a segment.
typedef struct ledge_tile_outline {
    int count;        ///< Points in the loop (0 for EMPTY).
    vec2s points[6];  ///< World-space corners of the solid region.
    int arc_edge;     ///< Index of the arc edge, or -1 when all edges are straight.
    vec2s arc_center; ///< Centre of the arc (R for CONVEX, F for CONCAVE).
    float arc_radius; ///< Radius of the arc (the cell's side).
    bool arc_concave; ///< True when the solid lies outside the arc's circle.
} ledge_tile_outline;

/// The readable name of a tile id, e.g. "45DEG_PN", or "INVALID".
LEDGE_API const char *ledge_tile_name(ledge_tile tile);

/// The tile id named `name` (as ledge_tile_name spells it, any case), or -1.
LEDGE_API int ledge_tile_from_name(const char *name);

/// The shape group of a tile id (LEDGE_TILE_GROUP_EMPTY for invalid ids).
LEDGE_API ledge_tile_group ledge_tile_group_of(ledge_tile tile);

/// The unit normal of the tile's non-axis surface (slope, arc middle, half
/// tile face); (0, 0) for EMPTY and FULL.
LEDGE_API vec2s ledge_tile_normal(ledge_tile tile);

/// How the tile covers one side of its cell.
LEDGE_API ledge_cover ledge_tile_cover(ledge_tile tile, ledge_side side);

/// Fills `out` with the outline of `tile` in the cell at cell_min of side
/// `size`. Returns false (logged) for an invalid id, size or position.
LEDGE_API bool ledge_tile_outline_get(ledge_tile tile, vec2s cell_min, float size,
                                      ledge_tile_outline *out);

/// Whether `point` lies in the solid region of `tile` in the cell at cell_min
/// of side `size` (boundary included): the fast boolean test N uses to probe
/// for walls and floors.
LEDGE_API bool ledge_tile_contains(ledge_tile tile, vec2s cell_min, float size, vec2s point);

/// Collides the tile (as `a`) with `shape` at `pos` (as `b`): the normal
/// points from the tile toward the shape, and moving the shape by
/// normal * depth separates them. Whether they touch is decided against the
/// tile itself; the push is the exact minimum translation (CONCAVE vs
/// polygon: the smallest of candidate pushes that each separate).
///
/// `blocked` is a set of ledge_side bits: sides whose edge is OFF in a
/// tilemap (the neighbour covers the same part of the side), across which
/// the solid continues, so no push may leave through them; pass 0 for a lone
/// tile. A side the tile covers fully is treated as extruded to infinity;
/// straight tiles also let their slope or half-plane run on across a blocked
/// side they cover partly or not at all (what makes rows of HALF tiles and
/// 45 degree staircases seamless); round tiles honour only their two fully
/// covered sides. A shape deep in a tile blocked on every side gets no
/// contact from it. Returns an empty manifold (logged) for invalid input.
LEDGE_API ledge_manifold ledge_collide_tile(ledge_tile tile, vec2s cell_min, float size,
                                            unsigned blocked, const ledge_shape *shape, vec2s pos);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_TILES_H
