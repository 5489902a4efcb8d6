// The distance between two shapes (distance.c): closed forms, GJK on
// vertex sets and results built from a manifold, shared by the tile
// distances (distance_tile.h) and the world's nearest surface.
#ifndef LEDGE_DISTANCE_INTERNAL_H
#define LEDGE_DISTANCE_INTERNAL_H

#include "core.h"
#include "ledge/distance.h"

/// A convex vertex set rounded by `radius`, in some common frame: a polygon
/// (counter-clockwise), a segment (2 points), a point or a circle (1 point).
typedef struct ledge__proxy {
    vec2s v[LEDGE_MAX_POLYGON_VERTICES];
    int count;
    float radius;
} ledge__proxy;

/// `s`'s vertices (a circle: its centre and radius) moved by `off`.
void ledge__proxy_of(const ledge_shape *s, vec2s off, ledge__proxy *p);

/// Distance between two proxies in the same frame, radii included: the
/// points, the normal from a toward b, the GJK step count. Overlapping
/// proxies give distance 0 and no push (the caller asks the SAT for that);
/// `*overlap` says whether they may overlap (true for touching too).
ledge_distance_result ledge__proxy_distance(const ledge__proxy *a, const ledge__proxy *b,
                                            bool *overlap);

/// The overlap result of a hit manifold (a and b as in the manifold):
/// distance 0, the MTV's normal, the two deepest points of the push.
ledge_distance_result ledge__distance_from_manifold(const ledge_manifold *m);

/// ledge_shape_distance without the argument checks. A circle of radius 0
/// stands for a point.
ledge_distance_result ledge__shape_distance(const ledge_shape *a, vec2s pa, const ledge_shape *b,
                                            vec2s pb);

/// Polygon `poly` at pp and circle `circle` at pc by the face of largest
/// separation alone (the routine ledge_shape_distance takes for overlapping
/// and borderline pairs), in the order (circle, polygon) when `flip`: the
/// reference its shorter way for apart pairs is tested against.
ledge_distance_result ledge__polygon_circle_exact(const ledge_shape *poly, vec2s pp,
                                                  const ledge_shape *circle, vec2s pc, bool flip);

/// The vertex of `poly` (3 to 8 vertices, local frame) nearest to c, the
/// first of equals, and its squared distance as v2_len2 gives it: the pass
/// circle-polygon distance starts from (exposed for its test).
int ledge__nearest_vertex(const ledge_shape *poly, vec2s c, float *d2);

/// The result of a refused or empty query: distance INFINITY, zero points
/// and normal, the given iteration count.
ledge_distance_result ledge__distance_none(int iterations);

/// A circle of radius 0 at the origin: how the point queries ask.
ledge_shape ledge__point_shape(void);

#endif // LEDGE_DISTANCE_INTERNAL_H
