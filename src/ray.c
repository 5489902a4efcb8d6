// Ray casts: segment against circle, box, convex polygon and rounded
// polygon (the internal routines of ray.h), and ledge_shape_raycast on top.
#include "check.h"
#include "ray.h"

#include "shape.h"

// A segment clipped by half-planes: it is inside all of them for t in
// [enter, exit]; `face` is the half-plane it entered through last (-1 while
// it has been inside since t = 0).
typedef struct clip {
    float enter, exit;
    int face;
} clip;

static clip clip_start(void) {
    clip c = {0.0f, 1.0f, -1};
    return c;
}

// Clips by one half-plane, given `num` = offset - dot(n, o) (>= 0 when o is
// inside) and `den` = dot(n, d). Returns false once nothing is left.
// Only a strictly later entry replaces the face, so a segment starting on
// the boundary stays "inside" (face -1) and ties keep the earlier face.
static inline bool clip_plane(clip *c, float num, float den, int face) {
    if (den == 0.0f) return num >= 0.0f; // parallel: always inside or never
    float t = num / den;
    if (den < 0.0f) {
        if (t > c->enter) {
            c->enter = t;
            c->face = face;
        }
    } else if (t < c->exit) {
        c->exit = t;
    }
    return c->enter <= c->exit;
}

// The answer of a clip that kept something: a hit through normals[face],
// or inside when no face was ever entered.
static ledge__ray_result clip_result(const clip *c, vec2s o, vec2s d, const vec2s *normals,
                                     ledge_ray_hit *out) {
    if (c->face < 0) {
        ledge__ray_inside(o, d, out);
        return LEDGE__RAY_INSIDE;
    }
    out->fraction = c->enter;
    out->point = v2_add(o, v2_scale(d, c->enter));
    out->normal = normals[c->face];
    return LEDGE__RAY_HIT;
}

ledge__ray_result ledge__ray_circle(vec2s o, vec2s d, vec2s center, float radius,
                                    ledge_ray_hit *out) {
    vec2s m = v2_sub(o, center);
    float r2 = radius * radius;
    float c = v2_len2(m) - r2;
    if (c <= 0.0f) {
        ledge__ray_inside(o, d, out);
        return LEDGE__RAY_INSIDE;
    }
    float a = v2_len2(d), b = v2_dot(m, d);
    if (!(a > 0.0f) || b >= 0.0f) return LEDGE__RAY_MISS; // still, or not approaching
    // b^2 - a c would cancel for a distant centre; a (r^2 - |l|^2), with l
    // the centre's offset from the line, is the same number computed stably.
    vec2s l = v2_sub(m, v2_scale(d, b / a));
    float h = r2 - v2_len2(l);
    if (h < 0.0f) return LEDGE__RAY_MISS;
    // The smaller root (-b - sqrt(disc)) / a, rearranged to c / (-b + sqrt(disc))
    // so that two nearly equal numbers are never subtracted.
    float t = c / (sqrtf(a * h) - b);
    if (t > 1.0f) return LEDGE__RAY_MISS;
    out->fraction = t;
    out->point = v2_add(o, v2_scale(d, t));
    out->normal = v2_normalize(v2_add(m, v2_scale(d, t)));
    return LEDGE__RAY_HIT;
}

ledge__ray_result ledge__ray_aabb(vec2s o, vec2s d, vec2s lower, vec2s upper, ledge_ray_hit *out) {
    static const vec2s normals[4] = {
        {{0.0f, -1.0f}}, {{0.0f, 1.0f}}, {{-1.0f, 0.0f}}, {{1.0f, 0.0f}}};
    clip c = clip_start();
    // The y slab first, so that a tie (entry through a corner) keeps y.
    if (!clip_plane(&c, o.y - lower.y, -d.y, 0) || !clip_plane(&c, upper.y - o.y, d.y, 1) ||
        !clip_plane(&c, o.x - lower.x, -d.x, 2) || !clip_plane(&c, upper.x - o.x, d.x, 3)) {
        return LEDGE__RAY_MISS;
    }
    return clip_result(&c, o, d, normals, out);
}

ledge__ray_result ledge__ray_halfplanes(vec2s o, vec2s d, const vec2s *normals,
                                        const float *offsets, int count, ledge_ray_hit *out,
                                        int *face) {
    clip c = clip_start();
    for (int i = 0; i < count; ++i) {
        float num = offsets[i] - v2_dot(normals[i], o);
        if (!clip_plane(&c, num, v2_dot(normals[i], d), i)) return LEDGE__RAY_MISS;
    }
    if (face) *face = c.face;
    return clip_result(&c, o, d, normals, out);
}

ledge__ray_result ledge__ray_polygon(vec2s o, vec2s d, const vec2s *vertices, const vec2s *normals,
                                     int count, ledge_ray_hit *out) {
    clip c = clip_start();
    for (int i = 0; i < count; ++i) {
        // dot(n, v - o) rather than dot(n, v) - dot(n, o): one rounding less
        // when o is near the edge, where it matters.
        float num = v2_dot(normals[i], v2_sub(vertices[i], o));
        if (!clip_plane(&c, num, v2_dot(normals[i], d), i)) return LEDGE__RAY_MISS;
    }
    return clip_result(&c, o, d, normals, out);
}

float ledge__polygon_distance2(vec2s p, const vec2s *vertices, const vec2s *normals, int count,
                               vec2s *closest) {
    bool inside = true;
    float best = INFINITY;
    vec2s q = p;
    for (int i = 0; i < count; ++i) {
        vec2s a = vertices[i], e = v2_sub(vertices[(i + 1) % count], a), ap = v2_sub(p, a);
        if (v2_dot(normals[i], ap) > 0.0f) inside = false;
        float s = minf(maxf(v2_dot(ap, e) / v2_len2(e), 0.0f), 1.0f);
        vec2s c = v2_add(a, v2_scale(e, s));
        float d2 = v2_len2(v2_sub(p, c));
        if (d2 < best) {
            best = d2;
            q = c;
        }
    }
    if (inside) {
        best = 0.0f;
        q = p;
    }
    if (closest) *closest = q;
    return best;
}

// The vertex of the polygon nearest to p.
static int nearest_vertex(vec2s p, const vec2s *vertices, int count) {
    int best = 0;
    float best_d2 = INFINITY;
    for (int i = 0; i < count; ++i) {
        float d2 = v2_len2(v2_sub(p, vertices[i]));
        if (d2 < best_d2) {
            best_d2 = d2;
            best = i;
        }
    }
    return best;
}

// An arc's normal, kept within its vertex's normal cone (between the
// normals of the two edges that meet there). A segment nearly parallel to an
// edge meets the pushed-out edge at a point whose position along it is
// poorly determined, so it may be sent to the arc although it touches
// beside the edge; the arc's radial normal then tilts past the edge's, and
// even a slight tilt past it moves the polygon's support to the edge's far
// end. The edge's own normal is the right answer there.
static vec2s corner_normal(vec2s n, const vec2s *vertices, const vec2s *normals, int count, int k) {
    int prev = (k + count - 1) % count, next = (k + 1) % count;
    if (v2_dot(n, v2_sub(vertices[k], vertices[prev])) < 0.0f) return normals[prev];
    if (v2_dot(n, v2_sub(vertices[next], vertices[k])) > 0.0f) return normals[k];
    return n;
}

ledge__ray_result ledge__ray_rounded_polygon(vec2s o, vec2s d, const vec2s *vertices,
                                             const vec2s *normals, int count, float radius,
                                             ledge_ray_hit *out) {
    if (ledge__polygon_distance2(o, vertices, normals, count, NULL) <= radius * radius) {
        ledge__ray_inside(o, d, out);
        return LEDGE__RAY_INSIDE;
    }
    // First clip against the polygon with its edges pushed out by the
    // radius, which holds the rounded one and differs from it only in the
    // corner regions around each vertex (outside both neighbours' edge
    // ranges). Entering beside an edge is the answer; entering a corner
    // region, the segment reaches the rounded polygon through that vertex's
    // arc or, missing it, leaves the pushed-out polygon for good. Deciding
    // by region rather than taking the earliest of all pieces keeps the
    // flat side's exact normal near a seam, where the arc's circle and the
    // flat side are hit at times equal up to rounding.
    clip c = clip_start();
    for (int i = 0; i < count; ++i) {
        float num = radius - v2_dot(normals[i], v2_sub(o, vertices[i]));
        if (!clip_plane(&c, num, v2_dot(normals[i], d), i)) return LEDGE__RAY_MISS;
    }
    int corner;
    if (c.face < 0) { // starts in a corner region: the nearest vertex's
        corner = nearest_vertex(o, vertices, count);
    } else {
        int i = c.face, j = (i + 1) % count;
        vec2s p = v2_add(o, v2_scale(d, c.enter)), e = v2_sub(vertices[j], vertices[i]);
        float s = v2_dot(v2_sub(p, vertices[i]), e);
        if (s >= 0.0f && s <= v2_len2(e)) return clip_result(&c, o, d, normals, out);
        corner = s < 0.0f ? i : j;
    }
    ledge__ray_result r = ledge__ray_circle(o, d, vertices[corner], radius, out);
    if (r == LEDGE__RAY_HIT)
        out->normal = corner_normal(out->normal, vertices, normals, count, corner);
    return r;
}

// --- ledge_shape_raycast ------------------------------------------------------

static bool input_ok(const ledge_shape *shape, vec2s pos, vec2s origin, vec2s translation) {
    if (shape == NULL) {
        LEDGE_ERROR("ledge_shape_raycast: shape is NULL");
        return false;
    }
    if (!ledge_shape_is_valid(shape)) {
        LEDGE_ERROR("ledge_shape_raycast: shape is invalid (type %d, count %d)", (int)shape->type,
                    shape->count);
        return false;
    }
    // A translation may cross the whole world, hence twice the coordinate limit.
    return ledge__check_vec("ledge_shape_raycast", "pos", pos, LEDGE_MAX_COORDINATE) &&
           ledge__check_vec("ledge_shape_raycast", "origin", origin, LEDGE_MAX_COORDINATE) &&
           ledge__check_vec("ledge_shape_raycast", "translation", translation,
                            2.0f * LEDGE_MAX_COORDINATE);
}

bool ledge_shape_raycast(const ledge_shape *shape, vec2s pos, vec2s origin, vec2s translation,
                         ledge_ray_hit *out) {
    if (!input_ok(shape, pos, origin, translation)) return false;
    // Cast in the shape's frame: one subtraction near the shape instead of
    // moving every vertex to the world.
    vec2s o = v2_sub(origin, pos);
    ledge_ray_hit hit;
    ledge__ray_result r;
    switch (shape->type) {
    case LEDGE_SHAPE_CIRCLE:
        r = ledge__ray_circle(o, translation, shape->center, shape->radius, &hit);
        break;
    case LEDGE_SHAPE_BOX:
        r = ledge__ray_aabb(o, translation, shape->bounds.lower, shape->bounds.upper, &hit);
        break;
    default:
        r = ledge__ray_polygon(o, translation, shape->vertices, shape->normals, shape->count, &hit);
        break;
    }
    if (r == LEDGE__RAY_MISS) return false;
    hit.point = v2_add(origin, v2_scale(translation, hit.fraction));
    hit.cell_x = hit.cell_y = 0;
    hit.tile = -1; // not a tilemap cast
    if (out) *out = hit;
    return true;
}
