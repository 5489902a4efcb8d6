// Internal ray casts shared by ledge_shape_raycast, the sweeps (a sweep is a
// ray cast of the relative motion against a Minkowski sum) and the tilemap.
//
// Every routine casts the segment o -> o + d, t in [0, 1], against a convex
// set given in the same frame as o, and takes no care of validation: the
// public entry points check their input once. The boundary belongs to the
// set (as in ledge_shape_contains), so a segment starting on the surface is
// "inside".
#ifndef LEDGE_RAY_H
#define LEDGE_RAY_H

#include "core.h"
#include "ledge/collision.h"

/// What a ray cast found.
typedef enum ledge__ray_result {
    LEDGE__RAY_MISS = 0,   ///< No contact in t in [0, 1]; `out` untouched.
    LEDGE__RAY_HIT = 1,    ///< Enters the set at out->fraction in [0, 1] through the surface
                           ///< whose outward unit normal is out->normal, which faces the
                           ///< segment (dot(normal, d) <= 0 up to rounding when grazing);
                           ///< out->point = o + fraction * d.
    LEDGE__RAY_INSIDE = 2, ///< o is in the set (boundary included): fraction 0, point o,
                           ///< normal -d / |d|, or (0, 1) when d is zero.
} ledge__ray_result;

/// Fills `out` for a segment that starts inside: the public contract's
/// fraction 0 with the normal opposite to the direction.
/// The length is taken in double: a direction of 1e-23 has a float square
/// that underflows to a few subnormal steps, and the float quotient was then
/// far from unit length (found by tests/fuzz/fuzz_collide.c).
static inline void ledge__ray_inside(vec2s o, vec2s d, ledge_ray_hit *out) {
    out->fraction = 0.0f;
    out->point = o;
    double l = sqrt((double)d.x * d.x + (double)d.y * d.y);
    out->normal = l > 0.0 ? v2((float)(-d.x / l), (float)(-d.y / l)) : v2(0.0f, 1.0f);
}

/// Segment o -> o + d against the disc (center, radius > 0). Closed form of
/// the quadratic |o + t d - center|^2 = radius^2, written so that neither
/// the discriminant nor the root cancels catastrophically. A tangent segment
/// hits. `out` must not be NULL.
ledge__ray_result ledge__ray_circle(vec2s o, vec2s d, vec2s center, float radius,
                                    ledge_ray_hit *out);

/// Segment o -> o + d against the axis-aligned box [lower, upper] (slab
/// test). When entry times tie (the segment enters exactly through a
/// corner) the horizontal face wins, i.e. the normal is (0, +-1): in a
/// platformer, landing on a ledge's corner should land. `out` must not be
/// NULL.
ledge__ray_result ledge__ray_aabb(vec2s o, vec2s d, vec2s lower, vec2s upper, ledge_ray_hit *out);

/// Segment o -> o + d against the convex set { x : dot(normals[i], x) <=
/// offsets[i] for all i } (Cyrus-Beck clipping). `normals` are unit. The set
/// must be bounded for INSIDE/HIT to mean what they say; redundant
/// half-planes are harmless. Ties go to the lowest index. On a hit the
/// normal is normals[i] exactly, and `*face` (may be NULL) receives i; it
/// receives -1 on INSIDE. `out` must not be NULL.
ledge__ray_result ledge__ray_halfplanes(vec2s o, vec2s d, const vec2s *normals,
                                        const float *offsets, int count, ledge_ray_hit *out,
                                        int *face);

/// Segment o -> o + d against a convex polygon: `count` counter-clockwise
/// vertices with the outward unit normals of edges i -> i+1, as in
/// ledge_shape. `out` must not be NULL.
ledge__ray_result ledge__ray_polygon(vec2s o, vec2s d, const vec2s *vertices, const vec2s *normals,
                                     int count, ledge_ray_hit *out);

/// Segment o -> o + d against a convex polygon (as ledge__ray_polygon)
/// rounded by `radius` > 0: every point within `radius` of the polygon. This
/// is the Minkowski sum of the polygon and a disc, i.e. where a circle's
/// centre may not go. The surface is the polygon's edges pushed out by the
/// radius plus a circular arc around each vertex; a hit on a flat side
/// carries the edge's normal exactly, a hit on an arc the radial direction
/// (kept between the normals of the edges that meet at the vertex).
/// `out` must not be NULL.
ledge__ray_result ledge__ray_rounded_polygon(vec2s o, vec2s d, const vec2s *vertices,
                                             const vec2s *normals, int count, float radius,
                                             ledge_ray_hit *out);

/// Squared distance from p to the convex polygon (vertices, normals, count
/// as above): 0 inside or on it. `closest` (may be NULL) receives the
/// nearest point of the polygon (p itself inside).
float ledge__polygon_distance2(vec2s p, const vec2s *vertices, const vec2s *normals, int count,
                               vec2s *closest);

#endif // LEDGE_RAY_H
