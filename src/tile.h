// Internal geometry of the 34 tiles in a unit cell [0, 1] x [0, 1], derived
// from the definitions of include/ledge/tiles.h in one place so that point tests, collision,
// rays, outlines and edge states all agree.
#ifndef LEDGE_TILE_H
#define LEDGE_TILE_H

#include "core.h"
#include "ledge/tiles.h"

/// How a tile's outline bends, if at all.
typedef enum ledge__arc_kind {
    LEDGE__ARC_NONE = 0,    ///< All edges straight.
    LEDGE__ARC_CONVEX = 1,  ///< Solid inside the circle (CONVEX tiles).
    LEDGE__ARC_CONCAVE = 2, ///< Solid outside the circle (CONCAVE tiles).
} ledge__arc_kind;

/// One tile's shape in the unit cell (lower corner 0, side 1).
typedef struct ledge__tile_geom {
    ledge_tile_group group;
    float sx, sy;        ///< Signs of the surface normal (0 for EMPTY/FULL; HALF: the normal).
    vec2s normal;        ///< Unit normal of the non-axis surface ((0,0) for EMPTY/FULL).
    vec2s anchor;        ///< A point on that surface: solid where (p - anchor).normal <= 0.
    int count;           ///< Outline points (0 for EMPTY).
    vec2s points[5];     ///< Outline, counter-clockwise (y up).
    int arc_edge;        ///< Edge points[i] -> points[i+1] that is an arc, or -1.
    ledge__arc_kind arc; ///< Kind of arc.
    vec2s arc_center;    ///< R for CONVEX, F for CONCAVE.
    float arc_radius;    ///< 1 (the cell side) for round tiles.
    uint8_t cover[4];    ///< ledge_cover of the sides XNEG, XPOS, YNEG, YPOS.
    float span_lo[4];    ///< Covered part of each side, from span_lo to span_hi
    float span_hi[4];    ///< along it (both 0 when nothing is covered).
    // Derived data for collision (tile_collide.c), filled by ledge__tile_geom_of.
    vec2s normals[5];   ///< Outward unit normal of outline edge i -> i+1 ((0,0) for the arc).
    ledge_aabb bounds;  ///< Bounds of the solid region in the unit cell.
    uint8_t full_sides; ///< LEDGE_SIDE_ bits of the sides covered fully (LEDGE_COVER_FULL).
} ledge__tile_geom;

/// Fills `g` with the unit-cell geometry of a valid tile id (< 34).
void ledge__tile_geom_of(ledge_tile tile, ledge__tile_geom *g);

/// Index 0..3 of a single ledge_side bit (XNEG, XPOS, YNEG, YPOS).
static inline int ledge__side_index(ledge_side side) {
    return side == LEDGE_SIDE_XNEG   ? 0
           : side == LEDGE_SIDE_XPOS ? 1
           : side == LEDGE_SIDE_YNEG ? 2
                                     : 3;
}

/// Point test in unit-cell coordinates (boundary included), straight from
/// the geometry: used by the stateless API and as the tilemap's reference.
bool ledge__tile_contains_unit(const ledge__tile_geom *g, vec2s p);

/// Whether `tile` is a valid id (< LEDGE_TILE_COUNT); logs
/// "<fn>: tile is <id> (must be 0..33)" when it is not.
bool ledge__check_tile(const char *fn, ledge_tile tile);

#endif // LEDGE_TILE_H
