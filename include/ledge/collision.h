/// @file collision.h
/// Stateless collision between shapes, usable without a world.
///
/// Overview
/// --------
/// A `ledge_shape` is a circle, an axis-aligned box or a convex polygon of up
/// to LEDGE_MAX_POLYGON_VERTICES vertices, described in local coordinates.
/// Shapes never rotate (ledge follows N's model: bodies translate only), so a
/// shape is placed in the world by a position alone, passed beside it to
/// every call:
///
///     ledge_shape ball = ledge_make_circle((vec2s){{0, 0}}, 0.5f);
///     ledge_shape crate = ledge_make_box((vec2s){{0, 0}}, (vec2s){{1, 1}});
///     ledge_manifold m = ledge_collide(&crate, (vec2s){{0, 0}}, &ball, (vec2s){{0, 1.3f}});
///     // m.hit, m.normal = (0, 1), m.depth = 0.2: move the ball up by 0.2
///
/// `ledge_collide` runs the separating axis test (SAT) and returns the exact
/// minimum translation vector: `depth` is the penetration depth of the
/// Minkowski difference, also when one shape contains the other. Moving b by
/// `normal * depth` (or a by `-normal * depth`) leaves the two touching.
/// Circle pairs use closed forms and Voronoi regions, box pairs use two axes,
/// polygon pairs test every distinct edge direction of both shapes and stop at
/// the first separating axis. A `ledge_sat_cache` kept per pair lets the next
/// call try last frame's separating axis first.
///
/// Other queries: point in shape (`ledge_shape_contains`), ray cast
/// (`ledge_shape_raycast`), time of impact of two moving shapes
/// (`ledge_sweep`, with `ledge_sweep_circles` and `ledge_sweep_boxes` as the
/// closed forms), and convex decomposition of a simple concave polygon
/// (`ledge_decompose`).
///
/// Invalid input (non-finite numbers, sizes <= 0, degenerate polygons) is
/// refused with a message through the log hook (see base.h). A refused
/// constructor returns a shape of type LEDGE_SHAPE_INVALID, which collides
/// with nothing.
#ifndef LEDGE_COLLISION_H
#define LEDGE_COLLISION_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The largest vertex count of a polygon shape.
#define LEDGE_MAX_POLYGON_VERTICES 8

/// The largest number of points `ledge_decompose` accepts.
#define LEDGE_MAX_DECOMPOSE_POINTS 256

/// Largest absolute coordinate or size accepted anywhere (1e6 units): beyond
/// it float precision no longer resolves contacts.
#define LEDGE_MAX_COORDINATE 1.0e6f

/// What a shape is.
typedef enum ledge_shape_type {
    LEDGE_SHAPE_INVALID = 0, ///< Result of a refused constructor; collides with nothing.
    LEDGE_SHAPE_CIRCLE = 1,  ///< A disc: `center`, `radius`.
    LEDGE_SHAPE_BOX = 2,     ///< An axis-aligned box; also stored as a 4-vertex polygon.
    LEDGE_SHAPE_POLYGON = 3, ///< A convex polygon, counter-clockwise.
} ledge_shape_type;

/// An axis-aligned bounding box.
typedef struct ledge_aabb {
    vec2s lower; ///< Smallest x and y.
    vec2s upper; ///< Largest x and y.
} ledge_aabb;

/// One separating-axis candidate of a polygon: a unit direction and the
/// shape's projection interval on it, in local coordinates. Parallel edges
/// (a box's left and right sides) share one axis.
typedef struct ledge_axis {
    vec2s normal; ///< Unit direction (the outward normal of at least one edge).
    float min;    ///< Smallest projection of the shape's vertices on `normal`.
    float max;    ///< Largest projection of the shape's vertices on `normal`.
} ledge_axis;

/// A collision shape in local coordinates. Build it with ledge_make_circle,
/// ledge_make_box or ledge_make_polygon; treat the fields as read-only.
typedef struct ledge_shape {
    ledge_shape_type type;                      ///< What the shape is.
    int count;                                  ///< Vertex count (0 for a circle, 4 for a box).
    int axis_count;                             ///< Distinct SAT axes in `axes` (2 for a box).
    float radius;                               ///< Circle radius; 0 for boxes and polygons.
    vec2s center;                               ///< Circle centre, box centre, or polygon centroid.
    ledge_aabb bounds;                          ///< Local bounding box.
    vec2s vertices[LEDGE_MAX_POLYGON_VERTICES]; ///< Counter-clockwise (y up) vertices.
    vec2s normals[LEDGE_MAX_POLYGON_VERTICES];  ///< Outward unit normal of edge i -> i+1.
    ledge_axis axes[LEDGE_MAX_POLYGON_VERTICES]; ///< Distinct edge directions.
} ledge_shape;

/// The result of a collision test between a and b.
typedef struct ledge_manifold {
    vec2s normal;    ///< Unit, pointing from a toward b. Zero when there is no hit.
    float depth;     ///< > 0 on a hit: moving b by normal * depth separates the pair.
    int point_count; ///< 0, 1 or 2 contact points.
    vec2s points[2]; ///< World-space contact points, midway between the two surfaces.
    bool hit;        ///< True when the shapes overlap with depth > 0.
} ledge_manifold;

/// Per-pair memory of the last separating axis. Zero-initialise it, keep one
/// per pair of shapes, and pass it to ledge_collide_cached every frame: while
/// the pair stays apart the test usually ends after one face. Circle-circle,
/// box-box and box-circle pairs ignore it (their whole test is cheaper than the check).
typedef struct ledge_sat_cache {
    vec2s axis; ///< The last separating direction, as the test gave it (valid when `valid`).
    uint32_t early_outs; ///< How many calls the cached axis alone answered.
    bool valid;          ///< Whether `axis` holds a separating axis.
} ledge_sat_cache;

/// Where a ray hits.
typedef struct ledge_ray_hit {
    vec2s point;    ///< World-space hit point.
    vec2s normal;   ///< Unit surface normal at the hit, facing the incoming ray.
    float fraction; ///< Hit at origin + fraction * translation, in [0, 1].
    int cell_x;     ///< Tilemap casts: the cell hit (may lie outside the map). Else 0.
    int cell_y;     ///< Tilemap casts: the cell hit. Else 0.
    int tile;       ///< Tilemap casts: the tile id hit. Shape casts: -1.
} ledge_ray_hit;

/// Time of impact of two moving shapes.
typedef struct ledge_toi {
    float fraction; ///< Both shapes touch after moving fraction * move, in [0, 1].
    vec2s normal;   ///< Unit contact normal at impact, from a toward b.
    vec2s point;    ///< World-space contact point at impact.
} ledge_toi;

/// A circle of `radius` (> 0) centred at `center` (local coordinates).
/// Refused (LEDGE_SHAPE_INVALID, logged) when a number is non-finite, the
/// radius is <= 0, or a value exceeds LEDGE_MAX_COORDINATE.
LEDGE_API ledge_shape ledge_make_circle(vec2s center, float radius);

/// An axis-aligned box centred at `center` with `half_extents` (both > 0).
/// Refused like ledge_make_circle, and when a corner (center +-
/// half_extents) exceeds LEDGE_MAX_COORDINATE.
LEDGE_API ledge_shape ledge_make_box(vec2s center, vec2s half_extents);

/// A convex polygon from 3..LEDGE_MAX_POLYGON_VERTICES points in either
/// winding; stored counter-clockwise (y up) with unit edge normals, parallel
/// edges sharing one axis. Returns false and logs why for non-finite,
/// duplicate, collinear, non-convex, too few or too many points; `*out` is
/// then set to an invalid shape. `out` must not be NULL.
LEDGE_API bool ledge_make_polygon(const vec2s *points, int count, ledge_shape *out);

/// Whether `shape` is a usable shape: not refused, every field finite and in
/// range. (ledge_body_create checks more: that the derived fields are exactly
/// what ledge_make_* makes of the vertices, or of the centre and radius.)
LEDGE_API bool ledge_shape_is_valid(const ledge_shape *shape);

/// The world-space bounding box of `shape` placed at `pos`.
LEDGE_API ledge_aabb ledge_shape_aabb(const ledge_shape *shape, vec2s pos);

/// Area of the shape.
LEDGE_API float ledge_shape_area(const ledge_shape *shape);

/// Collides a at pos_a with b at pos_b. See ledge_manifold for the result.
LEDGE_API ledge_manifold ledge_collide(const ledge_shape *a, vec2s pos_a, const ledge_shape *b,
                                       vec2s pos_b);

/// ledge_collide, trying the cached separating axis first and storing the
/// new one. `cache` may be NULL. The result equals ledge_collide's.
LEDGE_API ledge_manifold ledge_collide_cached(const ledge_shape *a, vec2s pos_a,
                                              const ledge_shape *b, vec2s pos_b,
                                              ledge_sat_cache *cache);

/// Whether `point` lies in `shape` placed at `pos` (the boundary counts).
LEDGE_API bool ledge_shape_contains(const ledge_shape *shape, vec2s pos, vec2s point);

/// Casts the segment origin -> origin + translation against `shape` at `pos`.
/// On a hit fills `out` (may be NULL) and returns true. A ray that starts
/// inside the shape hits at fraction 0 with the normal opposite to its
/// direction (or (0, 1) for a zero translation).
LEDGE_API bool ledge_shape_raycast(const ledge_shape *shape, vec2s pos, vec2s origin,
                                   vec2s translation, ledge_ray_hit *out);

/// Time of impact of two circles (centres ca, cb, radii ra, rb) moving by
/// move_a and move_b over the step, from the quadratic in relative motion.
/// Returns true and fills `out` (may be NULL) when they touch within the
/// step; fraction 0 when they already overlap.
LEDGE_API bool ledge_sweep_circles(vec2s ca, float ra, vec2s move_a, vec2s cb, float rb,
                                   vec2s move_b, ledge_toi *out);

/// Time of impact of two axis-aligned boxes (centres, half extents) moving by
/// move_a and move_b, from per-axis entry and exit times. Same contract as
/// ledge_sweep_circles.
LEDGE_API bool ledge_sweep_boxes(vec2s ca, vec2s ha, vec2s move_a, vec2s cb, vec2s hb, vec2s move_b,
                                 ledge_toi *out);

/// Time of impact of any two shapes moving by move_a and move_b (a ray cast
/// against their Minkowski sum). Same contract as ledge_sweep_circles.
LEDGE_API bool ledge_sweep(const ledge_shape *a, vec2s pos_a, vec2s move_a, const ledge_shape *b,
                           vec2s pos_b, vec2s move_b, ledge_toi *out);

/// Splits a simple polygon (no self-intersection, either winding, 3 to
/// LEDGE_MAX_DECOMPOSE_POINTS points) into convex polygon shapes of at most
/// LEDGE_MAX_POLYGON_VERTICES vertices each. Returns the number of pieces
/// written to `out`, or -1 (logged) when the input is refused (non-finite,
/// duplicate points, zero area, self-intersecting) or `max_out` is too small.
/// count - 2 pieces always suffice.
LEDGE_API int ledge_decompose(const vec2s *points, int count, ledge_shape *out, int max_out);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_COLLISION_H
