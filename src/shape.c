// Shape constructors and the properties derived from a shape: validation,
// bounds, area, point containment. Polygons are checked and normalised here
// once, so that the narrow phase can trust them and stay branch-light.
#include "check.h"
#include "shape.h"

#include <string.h>

static ledge_shape invalid_shape(void) {
    ledge_shape s;
    memset(&s, 0, sizeof s);
    s.type = LEDGE_SHAPE_INVALID;
    return s;
}

ledge_shape ledge_make_circle(vec2s center, float radius) {
    if (!ledge__check_vec("ledge_make_circle", "center", center, LEDGE_MAX_COORDINATE) ||
        !ledge__check_size("ledge_make_circle", "radius", radius)) {
        return invalid_shape();
    }
    ledge_shape s = invalid_shape();
    s.type = LEDGE_SHAPE_CIRCLE;
    s.radius = radius;
    s.center = center;
    s.bounds.lower = v2(center.x - radius, center.y - radius);
    s.bounds.upper = v2(center.x + radius, center.y + radius);
    return s;
}

// The box with these bounds, as ledge_make_box stores it.
static ledge_shape box_from_bounds(vec2s center, vec2s lo, vec2s hi) {
    ledge_shape s = invalid_shape();
    s.type = LEDGE_SHAPE_BOX;
    s.center = center;
    s.bounds.lower = lo;
    s.bounds.upper = hi;
    s.count = 4;
    s.vertices[0] = lo;
    s.vertices[1] = v2(hi.x, lo.y);
    s.vertices[2] = hi;
    s.vertices[3] = v2(lo.x, hi.y);
    s.normals[0] = v2(0.0f, -1.0f);
    s.normals[1] = v2(1.0f, 0.0f);
    s.normals[2] = v2(0.0f, 1.0f);
    s.normals[3] = v2(-1.0f, 0.0f);
    s.axis_count = 2;
    s.axes[0] = (ledge_axis){v2(1.0f, 0.0f), lo.x, hi.x};
    s.axes[1] = (ledge_axis){v2(0.0f, 1.0f), lo.y, hi.y};
    return s;
}

ledge_shape ledge_make_box(vec2s center, vec2s half_extents) {
    if (!ledge__check_vec("ledge_make_box", "center", center, LEDGE_MAX_COORDINATE) ||
        !ledge__check_half_extents("ledge_make_box", "half_extents", half_extents)) {
        return invalid_shape();
    }
    vec2s lo = v2(center.x - half_extents.x, center.y - half_extents.y);
    vec2s hi = v2(center.x + half_extents.x, center.y + half_extents.y);
    // Each vertex within the limit too, as ledge_shape_is_valid asks (a
    // centre and half extents each within it can reach twice as far).
    if (!ledge__check_vec("ledge_make_box", "center - half_extents", lo, LEDGE_MAX_COORDINATE) ||
        !ledge__check_vec("ledge_make_box", "center + half_extents", hi, LEDGE_MAX_COORDINATE)) {
        return invalid_shape();
    }
    return box_from_bounds(center, lo, hi);
}

// Refusal checks of ledge_make_polygon, each returning false with a message.

static bool check_points(const vec2s *p, int count) {
    if (p == NULL) {
        LEDGE_ERROR("ledge_make_polygon: points is NULL");
        return false;
    }
    if (count < 3 || count > LEDGE_MAX_POLYGON_VERTICES) {
        LEDGE_ERROR("ledge_make_polygon: count is %d (must be 3..%d)", count,
                    LEDGE_MAX_POLYGON_VERTICES);
        return false;
    }
    return ledge__check_points("ledge_make_polygon", p, count);
}

double ledge__points_extent(const vec2s *p, int count) {
    double lx = p[0].x, ly = p[0].y, ux = lx, uy = ly;
    for (int i = 1; i < count; ++i) {
        lx = p[i].x < lx ? p[i].x : lx;
        ly = p[i].y < ly ? p[i].y : ly;
        ux = p[i].x > ux ? p[i].x : ux;
        uy = p[i].y > uy ? p[i].y : uy;
    }
    return ux - lx > uy - ly ? ux - lx : uy - ly;
}

static bool check_duplicates(const vec2s *p, int count, double extent, bool log) {
    double tol = LEDGE__DUPLICATE_TOLERANCE * extent;
    for (int i = 0; i < count; ++i) {
        for (int j = i + 1; j < count; ++j) {
            double dx = (double)p[i].x - p[j].x, dy = (double)p[i].y - p[j].y;
            if (dx * dx + dy * dy <= tol * tol) {
                if (log)
                    LEDGE_ERROR("ledge_make_polygon: points[%d] and points[%d] are the same point "
                                "(%g, %g)",
                                i, j, (double)p[i].x, (double)p[i].y);
                return false;
            }
        }
    }
    return true;
}

// Convex means every turn has the same sign, no turn is straight, and the
// outline turns around exactly once (which rules out pentagram-like stars,
// whose turns all agree but which wind twice).
static bool check_convex(const vec2s *p, int count, double *sign_out, bool log) {
    double sign = 0.0, turning = 0.0;
    for (int i = 0; i < count; ++i) {
        const vec2s a = p[i], b = p[(i + 1) % count], c = p[(i + 2) % count];
        double e1x = (double)b.x - a.x, e1y = (double)b.y - a.y;
        double e2x = (double)c.x - b.x, e2y = (double)c.y - b.y;
        double cross = e1x * e2y - e1y * e2x, dot = e1x * e2x + e1y * e2y;
        double l1 = sqrt(e1x * e1x + e1y * e1y), l2 = sqrt(e2x * e2x + e2y * e2y);
        int k = (i + 1) % count;
        if (fabs(cross) <= LEDGE__COLLINEAR_SINE * l1 * l2) {
            if (log)
                LEDGE_ERROR(
                    "ledge_make_polygon: points[%d], points[%d] and points[%d] are collinear", i, k,
                    (i + 2) % count);
            return false;
        }
        if (sign == 0.0) sign = cross > 0.0 ? 1.0 : -1.0;
        if (cross * sign < 0.0) {
            if (log)
                LEDGE_ERROR("ledge_make_polygon: the outline turns the other way at points[%d] "
                            "(not convex)",
                            k);
            return false;
        }
        turning += atan2(cross, dot);
    }
    if (fabs(turning) > 3.0 * LEDGE_PI) {
        if (log)
            LEDGE_ERROR("ledge_make_polygon: the outline winds around more than once "
                        "(self-intersecting, not convex)");
        return false;
    }
    *sign_out = sign;
    return true;
}

// Edge normals that point in opposite directions share one SAT axis.
static void build_axes(ledge_shape *s) {
    s->axis_count = 0;
    for (int i = 0; i < s->count; ++i) {
        vec2s n = s->normals[i];
        bool merged = false;
        for (int k = 0; k < s->axis_count && !merged; ++k) {
            // Antiparallel within the collinearity tolerance: compare the
            // sine (cross product), since 1 - cos is quadratic in the angle.
            vec2s u = s->axes[k].normal;
            merged = v2_dot(n, u) < 0.0f && fabsf(v2_cross(n, u)) <= (float)LEDGE__COLLINEAR_SINE;
        }
        if (merged) continue;
        ledge_axis axis = {n, INFINITY, -INFINITY};
        for (int j = 0; j < s->count; ++j) {
            float d = v2_dot(n, s->vertices[j]);
            axis.min = minf(axis.min, d);
            axis.max = maxf(axis.max, d);
        }
        s->axes[s->axis_count++] = axis;
    }
}

static vec2s polygon_centroid(const vec2s *v, int count) {
    // Triangle fan around the first vertex, in double for thin polygons.
    double cx = 0.0, cy = 0.0, area = 0.0;
    for (int i = 1; i + 1 < count; ++i) {
        double ax = (double)v[i].x - v[0].x, ay = (double)v[i].y - v[0].y;
        double bx = (double)v[i + 1].x - v[0].x, by = (double)v[i + 1].y - v[0].y;
        double a = 0.5 * (ax * by - ay * bx);
        area += a;
        cx += a * (ax + bx) / 3.0;
        cy += a * (ay + by) / 3.0;
    }
    return v2((float)(v[0].x + cx / area), (float)(v[0].y + cy / area));
}

// The polygon of checked points, turned counter-clockwise when `sign` < 0.
static ledge_shape polygon_from(const vec2s *points, int count, double sign) {
    ledge_shape s = invalid_shape();
    s.type = LEDGE_SHAPE_POLYGON;
    s.count = count;
    for (int i = 0; i < count; ++i) {
        s.vertices[i] = sign > 0.0 ? points[i] : points[count - 1 - i];
    }
    s.bounds.lower = s.bounds.upper = s.vertices[0];
    for (int i = 0; i < count; ++i) {
        vec2s a = s.vertices[i], b = s.vertices[(i + 1) % count];
        s.normals[i] = v2_normalize(v2(b.y - a.y, a.x - b.x));
        s.bounds.lower = v2(minf(s.bounds.lower.x, a.x), minf(s.bounds.lower.y, a.y));
        s.bounds.upper = v2(maxf(s.bounds.upper.x, a.x), maxf(s.bounds.upper.y, a.y));
    }
    s.center = polygon_centroid(s.vertices, count);
    build_axes(&s);
    return s;
}

bool ledge_make_polygon(const vec2s *points, int count, ledge_shape *out) {
    if (out == NULL) {
        LEDGE_ERROR("ledge_make_polygon: out is NULL");
        return false;
    }
    *out = invalid_shape();
    double sign = 0.0;
    if (!check_points(points, count)) return false;
    double extent = ledge__points_extent(points, count);
    if (!check_duplicates(points, count, extent, true)) return false;
    if (!check_convex(points, count, &sign, true)) return false;

    *out = polygon_from(points, count, sign);
    return true;
}

// The fields derived from the vertices (or the radius) in range too: a shape
// copied and then edited byte by byte must not carry a NaN or an overflowing
// bound into a world's grid, whose cell numbers are ints.
static bool derived_within(const ledge_shape *s) {
    const float limit = 2.0f * LEDGE_MAX_COORDINATE; // a circle's bounds reach centre + radius
    if (!ledge__vec_within(s->center, limit) || !ledge__vec_within(s->bounds.lower, limit) ||
        !ledge__vec_within(s->bounds.upper, limit) || !(s->bounds.lower.x <= s->bounds.upper.x) ||
        !(s->bounds.lower.y <= s->bounds.upper.y)) {
        return false;
    }
    if (s->type == LEDGE_SHAPE_CIRCLE) return true; // its counts are not used (nor checked)
    for (int i = 0; i < s->count; ++i) {
        if (!ledge__vec_within(s->normals[i], 1.0f)) return false;
    }
    for (int i = 0; i < s->axis_count; ++i) {
        const ledge_axis *a = &s->axes[i];
        if (!ledge__vec_within(a->normal, 1.0f) || !ledge__finite_within(a->min, limit) ||
            !ledge__finite_within(a->max, limit)) {
            return false;
        }
    }
    return true;
}

bool ledge_shape_is_valid(const ledge_shape *s) {
    if (!ledge__shape_type_ok(s)) return false;
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        return s->radius > 0.0f && ledge__finite_within(s->radius, LEDGE_MAX_COORDINATE) &&
               ledge__vec_within(s->center, LEDGE_MAX_COORDINATE) && derived_within(s);
    }
    for (int i = 0; i < s->count; ++i) {
        if (!ledge__vec_within(s->vertices[i], LEDGE_MAX_COORDINATE)) return false;
    }
    return derived_within(s);
}

// Whether two shapes agree bit for bit in every field their type uses.
static bool same_fields(const ledge_shape *a, const ledge_shape *b) {
    return a->type == b->type && a->count == b->count && a->axis_count == b->axis_count &&
           !memcmp(&a->radius, &b->radius, sizeof a->radius) &&
           !memcmp(&a->center, &b->center, sizeof a->center) &&
           !memcmp(&a->bounds, &b->bounds, sizeof a->bounds) &&
           !memcmp(a->vertices, b->vertices, (size_t)a->count * sizeof a->vertices[0]) &&
           !memcmp(a->normals, b->normals, (size_t)a->count * sizeof a->normals[0]) &&
           !memcmp(a->axes, b->axes, (size_t)a->axis_count * sizeof a->axes[0]);
}

bool ledge__shape_remake(const ledge_shape *s, ledge_shape *out) {
    *out = invalid_shape();
    if (s == NULL) return false;
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        if (!(s->radius > 0.0f && ledge__finite_within(s->radius, LEDGE_MAX_COORDINATE) &&
              ledge__vec_within(s->center, LEDGE_MAX_COORDINATE))) {
            return false;
        }
        *out = ledge_make_circle(s->center, s->radius);
    } else if (s->type == LEDGE_SHAPE_BOX) {
        // The centre from ledge_make_box lies inside the bounds (its
        // half-extents are > 0); rebuilding the half-extents from the
        // bounds could round differently, so the bounds are taken as given.
        vec2s c = s->center, lo = s->bounds.lower, hi = s->bounds.upper;
        if (!ledge__vec_within(lo, LEDGE_MAX_COORDINATE) ||
            !ledge__vec_within(hi, LEDGE_MAX_COORDINATE) ||
            !(lo.x <= c.x && c.x <= hi.x && lo.y <= c.y && c.y <= hi.y)) {
            return false;
        }
        *out = box_from_bounds(c, lo, hi);
    } else if (s->type == LEDGE_SHAPE_POLYGON) {
        // The constructor's checks, silent (the caller names the refusal).
        const vec2s *v = s->vertices;
        double sign = 0.0;
        if (s->count < 3 || s->count > LEDGE_MAX_POLYGON_VERTICES) return false;
        for (int i = 0; i < s->count; ++i) {
            if (!ledge__vec_within(v[i], LEDGE_MAX_COORDINATE)) return false;
        }
        if (!check_duplicates(v, s->count, ledge__points_extent(v, s->count), false) ||
            !check_convex(v, s->count, &sign, false) || sign < 0.0) {
            return false;
        }
        *out = polygon_from(v, s->count, sign);
    } else {
        return false;
    }
    return ledge_shape_is_valid(out);
}

bool ledge__shape_is_made(const ledge_shape *s) {
    if (!ledge_shape_is_valid(s)) return false;
    ledge_shape again;
    return ledge__shape_remake(s, &again) && same_fields(s, &again);
}

ledge_aabb ledge_shape_aabb(const ledge_shape *s, vec2s pos) {
    ledge_aabb box = {pos, pos};
    if (!ledge_shape_is_valid(s)) {
        LEDGE_ERROR("ledge_shape_aabb: shape is NULL or invalid");
        return box;
    }
    box.lower = v2_add(s->bounds.lower, pos);
    box.upper = v2_add(s->bounds.upper, pos);
    return box;
}

float ledge_shape_area(const ledge_shape *s) {
    if (!ledge_shape_is_valid(s)) {
        LEDGE_ERROR("ledge_shape_area: shape is NULL or invalid");
        return 0.0f;
    }
    if (s->type == LEDGE_SHAPE_CIRCLE) return (float)(LEDGE_PI * s->radius * s->radius);
    double area = 0.0;
    for (int i = 0; i < s->count; ++i) {
        vec2s a = s->vertices[i], b = s->vertices[(i + 1) % s->count];
        area += (double)a.x * b.y - (double)a.y * b.x;
    }
    return (float)(0.5 * area);
}

bool ledge__shape_contains(const ledge_shape *s, vec2s local) {
    switch (s->type) {
    case LEDGE_SHAPE_CIRCLE: {
        // In double: float squares of radii below ~1e-19 are subnormal or 0,
        // which put every point within 1e-19 of such a circle inside it.
        double dx = (double)local.x - s->center.x, dy = (double)local.y - s->center.y;
        return dx * dx + dy * dy <= (double)s->radius * s->radius;
    }
    case LEDGE_SHAPE_BOX:
        return local.x >= s->bounds.lower.x && local.x <= s->bounds.upper.x &&
               local.y >= s->bounds.lower.y && local.y <= s->bounds.upper.y;
    case LEDGE_SHAPE_POLYGON:
        for (int i = 0; i < s->count; ++i) {
            if (v2_dot(s->normals[i], v2_sub(local, s->vertices[i])) > 0.0f) return false;
        }
        return true;
    default:
        return false;
    }
}

bool ledge_shape_contains(const ledge_shape *s, vec2s pos, vec2s point) {
    if (!ledge_shape_is_valid(s)) {
        LEDGE_ERROR("ledge_shape_contains: shape is NULL or invalid");
        return false;
    }
    if (!ledge__check_vec("ledge_shape_contains", "pos", pos, LEDGE_MAX_COORDINATE) ||
        !ledge__check_vec("ledge_shape_contains", "point", point, LEDGE_MAX_COORDINATE)) {
        return false;
    }
    return ledge__shape_contains(s, v2_sub(point, pos));
}
