// Internal view of shapes shared by the narrow phase, rays, sweeps and the
// tilemap: containment in local coordinates and projection on an axis.
#ifndef LEDGE_SHAPE_H
#define LEDGE_SHAPE_H

#include "core.h"
#include "ledge/collision.h"

// Polygon tolerances, shared by ledge_make_polygon and ledge_decompose so
// that every piece the decomposition emits is one the constructor accepts.
// Two points closer than LEDGE__DUPLICATE_TOLERANCE times the polygon's
// extent are duplicates; two edges whose directions differ by a sine below
// LEDGE__COLLINEAR_SINE are collinear. Both are relative, so that a 0.1-unit
// and a 100-unit polygon are judged alike.
#define LEDGE__DUPLICATE_TOLERANCE 1.0e-5
#define LEDGE__COLLINEAR_SINE      1.0e-5

/// Cheap structural check used on every collision call: a known type with
/// a vertex and axis count the arrays can hold.
static inline bool ledge__shape_type_ok(const ledge_shape *s) {
    if (s == NULL) return false;
    if (s->type == LEDGE_SHAPE_CIRCLE) return true;
    return (s->type == LEDGE_SHAPE_BOX || s->type == LEDGE_SHAPE_POLYGON) && s->count >= 3 &&
           s->count <= LEDGE_MAX_POLYGON_VERTICES && s->axis_count >= 1 &&
           s->axis_count <= s->count;
}

/// Whether `s` is exactly what its constructor (ledge_make_circle, _box or
/// _polygon) makes from its defining data (centre and radius, centre and
/// bounds, vertices): the check a world runs before it stores a shape, since
/// every step trusts the derived fields (bounds, normals, axes).
bool ledge__shape_is_made(const ledge_shape *s);

/// The shape its constructor makes from the defining data of `s` (its type
/// and, by type, centre and radius, centre and bounds, or count and
/// counter-clockwise vertices; the other fields are not read), into *out:
/// how a snapshot brings a body's shape back from what it keeps. False
/// (silent; *out invalid) when that data makes no shape.
bool ledge__shape_remake(const ledge_shape *s, ledge_shape *out);

/// The larger side of the points' bounding box (the scale the polygon
/// tolerances are relative to).
double ledge__points_extent(const vec2s *p, int count);

/// World bounds of a shape at pos, without validation.
static inline ledge_aabb ledge_shape_aabb_fast(const ledge_shape *s, vec2s pos) {
    ledge_aabb box = {v2_add(s->bounds.lower, pos), v2_add(s->bounds.upper, pos)};
    return box;
}

/// Point containment with `local` already in the shape's frame. No checks.
bool ledge__shape_contains(const ledge_shape *s, vec2s local);

/// Projection interval of a shape (local frame) on unit direction `u`.
/// Boxes and axis-aligned directions are closed forms; other polygons loop
/// over their vertices.
static inline void ledge__shape_project(const ledge_shape *s, vec2s u, float *lo, float *hi) {
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        float c = v2_dot(s->center, u);
        *lo = c - s->radius;
        *hi = c + s->radius;
        return;
    }
    if (s->type == LEDGE_SHAPE_BOX) {
        vec2s c = v2_scale(v2_add(s->bounds.lower, s->bounds.upper), 0.5f);
        vec2s h = v2_scale(v2_sub(s->bounds.upper, s->bounds.lower), 0.5f);
        float m = v2_dot(c, u), r = h.x * fabsf(u.x) + h.y * fabsf(u.y);
        *lo = m - r;
        *hi = m + r;
        return;
    }
    if (u.y == 0.0f) { // the bounds are the projection on the world axes
        *lo = u.x > 0.0f ? s->bounds.lower.x : -s->bounds.upper.x;
        *hi = u.x > 0.0f ? s->bounds.upper.x : -s->bounds.lower.x;
        return;
    }
    if (u.x == 0.0f) {
        *lo = u.y > 0.0f ? s->bounds.lower.y : -s->bounds.upper.y;
        *hi = u.y > 0.0f ? s->bounds.upper.y : -s->bounds.lower.y;
        return;
    }
    float mn = v2_dot(s->vertices[0], u), mx = mn;
    for (int i = 1; i < s->count; ++i) {
        float d = v2_dot(s->vertices[i], u);
        mn = minf(mn, d);
        mx = maxf(mx, d);
    }
    *lo = mn;
    *hi = mx;
}

/// The feature of polygon s nearest to a point c outside it, given the face
/// of largest separation (*face, separation *sep > 0): -1 for a face (the
/// point projects onto it), else the index of the vertex (*d = c - it).
/// The nearest point lies on that face or at one of its ends. Each test
/// reads c relative to the end it is about: near a vertex c minus the
/// vertex is small and accurate, where c's projection on the whole face is
/// a difference of near-equal numbers (a centre a rounding from the far
/// end was called past it when c - end pointed back along the face: a
/// normal outside that vertex's normal cone). Near a vertex the two faces'
/// separations are equal within rounding, so the chosen face may be the
/// neighbour: a point past the end and also along the next face is in that
/// face's region, and *face and *sep move there (sep from the small vector).
/// ledge_collide and ledge_shape_distance both decide through this, so that
/// their normals agree.
static inline int ledge__polygon_point_feature(const ledge_shape *s, vec2s c, int *face, float *sep,
                                               vec2s *d) {
    int f = *face, n = s->count, g = f + 1 == n ? 0 : f + 1;
    vec2s nf = s->normals[f], d0 = v2_sub(c, s->vertices[f]), d1 = v2_sub(c, s->vertices[g]);
    // "Along a face" is the sign of the offset's cross product with the
    // face's normal (the face's direction turned a quarter): no edge vector
    // and no third vertex to load. (The sign may differ from the exact
    // edge's only for an offset within a rounding of the normal, where the
    // face's answer and the vertex's are the same.)
    if (v2_cross(nf, d0) < 0.0f) { // before f0: its region, or the previous face's
        int p = f == 0 ? n - 1 : f - 1;
        vec2s np = s->normals[p];
        if (v2_cross(np, d0) < 0.0f) {
            *face = p;
            *sep = v2_dot(np, d0);
            return -1;
        }
        *d = d0;
        return f;
    }
    if (v2_cross(nf, d1) > 0.0f) { // past f1: its region, or the next face's
        vec2s ng = s->normals[g];
        if (v2_cross(ng, d1) > 0.0f) {
            *face = g;
            *sep = v2_dot(ng, d1);
            return -1;
        }
        *d = d1;
        return g;
    }
    return -1;
}

#endif // LEDGE_SHAPE_H
