/// @file oracle.h
/// An independent, double-precision reference for ledge's collision tests.
///
/// The oracle never calls ledge and never reads ledge's processed shape data:
/// it works from raw world-space geometry. A shape is a circle (centre,
/// radius) or a convex polygon given as raw points in either winding (a box
/// is a 4-point polygon; a tile is a polygon too).
///
/// Every query reduces to the signed distance from a point to a convex set.
/// For a pair (a, b) that set is the Minkowski difference D = A - B
/// = { p - q : p in A, q in B }: the convex hull of all pairwise differences
/// of the polygon vertices (a circle contributes its centre), rounded by the
/// sum of the radii. The pair overlaps iff the origin is in D; moving b by t
/// turns D into D - t, so the penetration depth after moving b by t is minus
/// the signed distance from t to D, and the minimum translation that
/// separates the pair is the nearest boundary point of D.
///
/// Sign convention everywhere: a signed distance is > 0 outside (the
/// distance), < 0 inside (minus the distance to the boundary); a "depth" is
/// minus the signed distance (> 0 = penetration).
#ifndef LEDGE_TESTS_ORACLE_H
#define LEDGE_TESTS_ORACLE_H

#include <stdbool.h>

/// Most raw points of an oracle polygon.
#define ORACLE_MAX_POINTS 16
/// Most vertices of a Minkowski difference hull.
#define ORACLE_MAX_HULL (ORACLE_MAX_POINTS * ORACLE_MAX_POINTS)

/// A 2D vector in double precision.
typedef struct odvec {
    double x, y;
} odvec;

/// What an oshape is.
typedef enum oshape_kind {
    ORACLE_CIRCLE = 0,  ///< `c`, `r`.
    ORACLE_POLYGON = 1, ///< `n` raw points `p`, convex, either winding.
} oshape_kind;

/// A shape in world space, from raw numbers.
typedef struct oshape {
    oshape_kind kind;           ///< Circle or polygon.
    odvec c;                    ///< Circle centre (unused for polygons).
    double r;                   ///< Circle radius (unused for polygons).
    int n;                      ///< Polygon point count, 1..ORACLE_MAX_POINTS.
    odvec p[ORACLE_MAX_POINTS]; ///< Polygon points, any order of a convex polygon.
} oshape;

/// A Minkowski difference A - B: a convex hull (counter-clockwise, no
/// collinear or duplicate vertices; 1 or 2 vertices when degenerate) rounded
/// by `r`.
typedef struct omdiff {
    int n;                    ///< Hull vertex count.
    double r;                 ///< Rounding radius (sum of circle radii).
    odvec p[ORACLE_MAX_HULL]; ///< Hull vertices, counter-clockwise.
} omdiff;

/// Shorthand constructor of an odvec.
odvec odv(double x, double y);

/// A circle centred at c with radius r.
oshape oracle_circle(odvec c, double r);

/// An axis-aligned box centred at c with half extents h, as a 4-point polygon.
oshape oracle_box(odvec c, odvec h);

/// A polygon from n (1..ORACLE_MAX_POINTS) raw points, copied as given.
oshape oracle_polygon(const odvec *pts, int n);

/// `s` moved by d.
oshape oracle_translate(const oshape *s, odvec d);

/// Convex hull of n points (Andrew's monotone chain): writes the hull
/// counter-clockwise (y up) to out (room for n points; out may not alias
/// pts), dropping duplicate and collinear points. Returns the vertex count
/// (1 or 2 for degenerate input, 0 for n == 0).
int oracle_hull(const odvec *pts, int n, odvec *out);

/// Signed distance from p to the convex hull `hull` (n counter-clockwise
/// vertices as oracle_hull writes them), rounded by r. When grad is not
/// NULL it receives the unit gradient: the direction in which p leaves the
/// set fastest (outward normal of the nearest edge inside, away from the
/// nearest point outside; (0, 1) when undefined).
double oracle_hull_sd(const odvec *hull, int n, double r, odvec p, odvec *grad);

/// Signed distance from point p to shape s (< 0 inside); grad as in
/// oracle_hull_sd.
double oracle_point_sd(const oshape *s, odvec p, odvec *grad);

/// Distance from point p to shape s: 0 inside or on it.
double oracle_point_distance(const oshape *s, odvec p);

/// Whether p is in s, the boundary included (exact double arithmetic, no
/// tolerance).
bool oracle_contains(const oshape *s, odvec p);

/// Point in a convex polygon of n raw points in either winding, boundary
/// included.
bool oracle_point_in_polygon(const odvec *pts, int n, odvec p);

/// Point in the circle (c, r), boundary included.
bool oracle_point_in_circle(odvec c, double r, odvec p);

/// The Minkowski difference a - b.
void oracle_mdiff(const oshape *a, const oshape *b, omdiff *out);

/// Penetration depth of the pair after b moves by t: -(signed distance from t
/// to D). When normal is not NULL it receives the unit direction, from a
/// toward b, in which b moves to separate (depth > 0) or to close the gap
/// (depth < 0 means b must move by normal * depth, i.e. backwards, to touch).
/// In both cases moving b by normal * depth leaves the pair touching.
double oracle_mdiff_depth(const omdiff *d, odvec t, odvec *normal);

/// Support function of D along unit u: max over D of p . u, which is how
/// much the projections of a and b on u overlap (h_A(u) + h_B(-u)): how far
/// b must move along u for the projections to separate. For any minimum
/// translation direction n, oracle_mdiff_support(d, n) equals the depth.
double oracle_mdiff_support(const omdiff *d, odvec u);

/// Penetration depth of a and b as placed: > 0 the depth, <= 0 minus the
/// distance between them. normal: as in oracle_mdiff_depth (may be NULL).
double oracle_depth(const oshape *a, const oshape *b, odvec *normal);

/// Distance between a and b: 0 when they overlap or touch.
double oracle_distance(const oshape *a, const oshape *b);

/// Largest side of the axis-aligned bounding box of s (2r for a circle).
double oracle_extent(const oshape *s);

/// Axis-aligned bounding box of s.
void oracle_bounds(const oshape *s, odvec *lower, odvec *upper);

/// Area-weighted centroid of s (the centre for a circle).
odvec oracle_centroid(const oshape *s);

#endif // LEDGE_TESTS_ORACLE_H
