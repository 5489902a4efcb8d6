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

#endif // LEDGE_SHAPE_H
