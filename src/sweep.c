// Time of impact of two moving shapes. Seen from a, b moves by
// d = move_b - move_a, and the pair touches exactly when b's position
// relative to a lies in the Minkowski difference K = A - B. The time of
// impact is therefore a ray cast of b's relative position along d against
// K, and K's outward normal where the ray enters is the contact normal from
// a toward b:
//   circle-circle   K is a disc of the summed radius (closed form);
//   box-box         K is a box of the summed half extents (per-axis times);
//   circle-polygon  K is the polygon rounded by the radius;
//   polygon-polygon K is the convex polygon whose edge normals are those of
//                   a and the negated ones of b; it is cast as the
//                   intersection of those half-planes, each offset by the
//                   support of a and b, which needs no hull construction
//                   and keeps the shapes' exact unit normals.
// When the pair already overlaps (or touches) at the start the fraction is
// 0 and the normal is the direction of least penetration, as ledge_collide
// would report it.
#include "check.h"
#include "ray.h"

#include "shape.h"

#include <float.h>

// --- input checks -------------------------------------------------------------

// Positions are world coordinates; a move may cross the whole world, hence
// twice the coordinate limit.
static bool motion_ok(const char *fn, vec2s pa, vec2s ma, vec2s pb, vec2s mb, bool centres) {
    const float lim = LEDGE_MAX_COORDINATE;
    return ledge__check_vec(fn, centres ? "ca" : "pos_a", pa, lim) &&
           ledge__check_vec(fn, "move_a", ma, 2.0f * lim) &&
           ledge__check_vec(fn, centres ? "cb" : "pos_b", pb, lim) &&
           ledge__check_vec(fn, "move_b", mb, 2.0f * lim);
}

static bool shape_ok(const char *arg, const ledge_shape *s) {
    if (s == NULL) {
        LEDGE_ERROR("ledge_sweep: %s is NULL", arg);
        return false;
    }
    if (ledge_shape_is_valid(s)) return true;
    LEDGE_ERROR("ledge_sweep: %s is invalid (type %d, count %d)", arg, (int)s->type, s->count);
    return false;
}

// --- circles --------------------------------------------------------------------

static bool sweep_circles(vec2s ca, float ra, vec2s ma, vec2s cb, float rb, vec2s mb,
                          ledge_toi *out) {
    vec2s m = v2_sub(cb, ca), d = v2_sub(mb, ma);
    ledge_ray_hit hit;
    ledge__ray_result r = ledge__ray_circle(m, d, v2(0.0f, 0.0f), ra + rb, &hit);
    if (r == LEDGE__RAY_MISS) return false;
    if (out == NULL) return true;
    float t = hit.fraction;
    vec2s n = r == LEDGE__RAY_HIT ? hit.normal : v2_normalize(m);
    vec2s rel = v2_add(m, v2_scale(d, t));
    // Midway between a's surface (n * ra) and b's (rel - n * rb): the same
    // point at a touch, the middle of the overlap when already overlapping.
    vec2s local = v2_scale(v2_add(v2_scale(n, ra - rb), rel), 0.5f);
    out->fraction = t;
    out->normal = n;
    out->point = v2_add(v2_add(ca, v2_scale(ma, t)), local);
    return true;
}

bool ledge_sweep_circles(vec2s ca, float ra, vec2s move_a, vec2s cb, float rb, vec2s move_b,
                         ledge_toi *out) {
    const char *fn = "ledge_sweep_circles";
    if (!motion_ok(fn, ca, move_a, cb, move_b, true) || !ledge__check_size(fn, "ra", ra) ||
        !ledge__check_size(fn, "rb", rb)) {
        return false;
    }
    return sweep_circles(ca, ra, move_a, cb, rb, move_b, out);
}

// --- boxes ----------------------------------------------------------------------

// Narrows [*enter, *exit] to the times when b's relative coordinate m + t d
// on one axis lies within [-h, h]. Returns false when a still axis never
// overlaps. Only a strictly later entry takes over `*enter_axis`, so the
// axis clipped first wins ties.
static bool axis_times(float m, float d, float h, int axis, float *enter, float *exit,
                       int *enter_axis) {
    if (d == 0.0f) return fabsf(m) <= h;
    float t0 = (-h - m) / d, t1 = (h - m) / d;
    if (d < 0.0f) {
        float s = t0;
        t0 = t1;
        t1 = s;
    }
    if (t0 > *enter) {
        *enter = t0;
        *enter_axis = axis;
    }
    *exit = minf(*exit, t1);
    return true;
}

// Direction of least penetration of two overlapping boxes; ties go to x and
// to the positive direction, as in ledge_collide.
static vec2s box_mtv(vec2s m, vec2s h) {
    float px = h.x - fabsf(m.x), py = h.y - fabsf(m.y);
    if (px <= py) return v2(m.x >= 0.0f ? 1.0f : -1.0f, 0.0f);
    return v2(0.0f, m.y >= 0.0f ? 1.0f : -1.0f);
}

// Centre of the overlap of [-ha, ha] and [rel - hb, rel + hb] on one axis.
static float overlap_mid(float ha, float rel, float hb) {
    return 0.5f * (maxf(-ha, rel - hb) + minf(ha, rel + hb));
}

// The contact point in a's frame, with b at `rel` and n an axis direction
// from a toward b: along n midway between a's face and b's facing face
// (they coincide at an impact), across n the middle of the faces' overlap.
// The same rule as contact_point below, in closed form.
static vec2s box_contact(vec2s ha, vec2s rel, vec2s hb, vec2s n) {
    if (n.x != 0.0f)
        return v2(0.5f * (n.x * ha.x + rel.x - n.x * hb.x), overlap_mid(ha.y, rel.y, hb.y));
    return v2(overlap_mid(ha.x, rel.x, hb.x), 0.5f * (n.y * ha.y + rel.y - n.y * hb.y));
}

static bool sweep_boxes(vec2s ca, vec2s ha, vec2s ma, vec2s cb, vec2s hb, vec2s mb,
                        ledge_toi *out) {
    vec2s m = v2_sub(cb, ca), d = v2_sub(mb, ma), h = v2_add(ha, hb);
    float enter = -INFINITY, exit = INFINITY;
    int axis = -1;
    // y first: when both axes enter at once (a corner), the contact is
    // taken as vertical so that a body landing on a ledge's corner lands.
    if (!axis_times(m.y, d.y, h.y, 1, &enter, &exit, &axis) ||
        !axis_times(m.x, d.x, h.x, 0, &enter, &exit, &axis)) {
        return false;
    }
    if (enter > exit || exit < 0.0f || enter > 1.0f) return false;
    if (out == NULL) return true;
    float t = maxf(enter, 0.0f);
    vec2s n;
    if (enter > 0.0f) {
        n = axis == 0 ? v2(d.x > 0.0f ? -1.0f : 1.0f, 0.0f) : v2(0.0f, d.y > 0.0f ? -1.0f : 1.0f);
    } else {
        n = box_mtv(m, h);
    }
    vec2s local = box_contact(ha, v2_add(m, v2_scale(d, t)), hb, n);
    out->fraction = t;
    out->normal = n;
    out->point = v2_add(v2_add(ca, v2_scale(ma, t)), local);
    return true;
}

bool ledge_sweep_boxes(vec2s ca, vec2s ha, vec2s move_a, vec2s cb, vec2s hb, vec2s move_b,
                       ledge_toi *out) {
    const char *fn = "ledge_sweep_boxes";
    if (!motion_ok(fn, ca, move_a, cb, move_b, true) || !ledge__check_half_extents(fn, "ha", ha) ||
        !ledge__check_half_extents(fn, "hb", hb)) {
        return false;
    }
    return sweep_boxes(ca, ha, move_a, cb, hb, move_b, out);
}

// --- contact point of any pair ---------------------------------------------------

// The part of a shape (local frame, placed at `at`) that lies furthest along
// n: its height h = max dot(x, n), and the range [lo, hi] of dot(x, tg) over
// that feature (a point, or a whole edge when the edge faces n).
typedef struct feature {
    float h, lo, hi;
} feature;

static feature support(const ledge_shape *s, vec2s at, vec2s n, vec2s tg) {
    float hn = v2_dot(at, n), ht = v2_dot(at, tg);
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        float c = v2_dot(s->center, tg);
        feature f = {hn + v2_dot(s->center, n) + s->radius, ht + c, ht + c};
        return f;
    }
    float dots[LEDGE_MAX_POLYGON_VERTICES], top = -INFINITY, mag = 0.0f;
    for (int i = 0; i < s->count; ++i) {
        dots[i] = v2_dot(s->vertices[i], n);
        top = maxf(top, dots[i]);
        mag = maxf(mag, fabsf(s->vertices[i].x) + fabsf(s->vertices[i].y));
    }
    // Vertices level with the top up to rounding form the supporting edge;
    // the relative part also treats a face within 1e-5 rad of n as facing it.
    float extent =
        maxf(s->bounds.upper.x - s->bounds.lower.x, s->bounds.upper.y - s->bounds.lower.y);
    float tol = 8.0f * FLT_EPSILON * mag + 1.0e-5f * extent;
    feature f = {hn + top, INFINITY, -INFINITY};
    for (int i = 0; i < s->count; ++i) {
        if (dots[i] < top - tol) continue;
        float c = v2_dot(s->vertices[i], tg);
        f.lo = minf(f.lo, ht + c);
        f.hi = maxf(f.hi, ht + c);
    }
    return f;
}

// The contact point in a's frame, with b placed at `rel` and n from a toward
// b: along n midway between a's face and b's face (which coincide at an
// impact), across n the middle of where the two supporting features overlap.
static vec2s contact_point(const ledge_shape *a, const ledge_shape *b, vec2s rel, vec2s n) {
    vec2s tg = v2(-n.y, n.x);
    feature fa = support(a, v2(0.0f, 0.0f), n, tg);
    feature fb = support(b, rel, v2_neg(n), tg);
    float along = 0.5f * (fa.h - fb.h);
    float across = 0.5f * (maxf(fa.lo, fb.lo) + minf(fa.hi, fb.hi));
    return v2_add(v2_scale(n, along), v2_scale(tg, across));
}

// --- circle against polygon ---------------------------------------------------------

// Direction of least penetration of point o inside a rounded polygon: out
// through the least penetrated edge when o is inside the core polygon, else
// away from the core's nearest feature, found by Voronoi region (the strip
// beside an edge, or the wedge at a vertex) rather than by comparing
// distances: near a strip's border an edge and its vertex are equally near
// up to rounding, and a vertex direction tilted even slightly off the edge's
// normal moves the polygon's support to the edge's far end.
static vec2s rounded_mtv(vec2s o, const vec2s *v, const vec2s *n, int count) {
    bool inside = true;
    float best_gap = INFINITY;
    vec2s out = n[0];
    for (int i = 0; i < count; ++i) {
        vec2s a = v[i], e = v2_sub(v[(i + 1) % count], a), ao = v2_sub(o, a);
        float side = v2_dot(n[i], ao), s = v2_dot(ao, e);
        if (side > 0.0f && s >= 0.0f && s <= v2_len2(e)) return n[i]; // beside edge i
        if (side > 0.0f) inside = false;
        if (-side < best_gap) {
            best_gap = -side;
            out = n[i];
        }
    }
    if (inside) return out;
    vec2s q;
    ledge__polygon_distance2(o, v, n, count, &q); // outside every strip: q is a vertex
    return v2_normalize(v2_sub(o, q));
}

// Circle c (radius r, centre rel. to the frame origin) against the polygon
// (v, n, count) at the origin, c moving by d: the ray cast of the centre
// against the polygon rounded by r. Fills the fraction and the normal from
// the polygon toward the circle.
static ledge__ray_result circle_vs_polygon(vec2s c, vec2s d, float r, const vec2s *v,
                                           const vec2s *n, int count, ledge_ray_hit *hit) {
    ledge__ray_result res = ledge__ray_rounded_polygon(c, d, v, n, count, r, hit);
    if (res == LEDGE__RAY_INSIDE) hit->normal = rounded_mtv(c, v, n, count);
    return res;
}

// --- polygon against polygon ----------------------------------------------------------

// Ray cast of b's relative position o along d against K = A - B, as the
// intersection of K's edge half-planes: a's normals and b's negated ones,
// each offset by max over K of dot(n, x) = max_a dot(n, .) - min_b dot(n, .).
static ledge__ray_result polygon_vs_polygon(const ledge_shape *a, const ledge_shape *b, vec2s o,
                                            vec2s d, ledge_ray_hit *hit) {
    // Zeroed only because gcc -O3 cannot see that the loop below fills them.
    vec2s normals[2 * LEDGE_MAX_POLYGON_VERTICES] = {{{0.0f, 0.0f}}};
    float offsets[2 * LEDGE_MAX_POLYGON_VERTICES] = {0.0f};
    int count = 0;
    for (int i = 0; i < a->count + b->count; ++i) {
        vec2s u = i < a->count ? a->normals[i] : v2_neg(b->normals[i - a->count]);
        float alo, ahi, blo, bhi;
        ledge__shape_project(a, u, &alo, &ahi);
        ledge__shape_project(b, u, &blo, &bhi);
        normals[count] = u;
        offsets[count++] = ahi - blo;
    }
    ledge__ray_result res = ledge__ray_halfplanes(o, d, normals, offsets, count, hit, NULL);
    if (res != LEDGE__RAY_INSIDE) return res;
    // Already overlapping: the least penetrated half-plane is the MTV.
    float best_gap = INFINITY;
    for (int i = 0; i < count; ++i) {
        float gap = offsets[i] - v2_dot(normals[i], o);
        if (gap < best_gap) {
            best_gap = gap;
            hit->normal = normals[i];
        }
    }
    return res;
}

// --- any pair ------------------------------------------------------------------------

static vec2s box_half(const ledge_shape *s) {
    return v2_scale(v2_sub(s->bounds.upper, s->bounds.lower), 0.5f);
}

// Casts the pair's relative motion against their Minkowski difference; the
// hit's normal is from a toward b (the MTV when already overlapping).
static ledge__ray_result cast_pair(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb,
                                   vec2s d, ledge_ray_hit *hit) {
    if (b->type == LEDGE_SHAPE_CIRCLE) {
        vec2s c = v2_sub(v2_add(pb, b->center), pa);
        return circle_vs_polygon(c, d, b->radius, a->vertices, a->normals, a->count, hit);
    }
    if (a->type == LEDGE_SHAPE_CIRCLE) {
        // Seen from a's centre, K is b mirrored through the origin (still
        // counter-clockwise) and rounded by a's radius.
        vec2s v[LEDGE_MAX_POLYGON_VERTICES], n[LEDGE_MAX_POLYGON_VERTICES];
        for (int i = 0; i < b->count; ++i) {
            v[i] = v2_neg(b->vertices[i]);
            n[i] = v2_neg(b->normals[i]);
        }
        vec2s o = v2_sub(pb, v2_add(pa, a->center));
        return circle_vs_polygon(o, d, a->radius, v, n, b->count, hit);
    }
    return polygon_vs_polygon(a, b, v2_sub(pb, pa), d, hit);
}

bool ledge_sweep(const ledge_shape *a, vec2s pos_a, vec2s move_a, const ledge_shape *b, vec2s pos_b,
                 vec2s move_b, ledge_toi *out) {
    if (!shape_ok("a", a) || !shape_ok("b", b) ||
        !motion_ok("ledge_sweep", pos_a, move_a, pos_b, move_b, false)) {
        return false;
    }
    if (a->type == LEDGE_SHAPE_CIRCLE && b->type == LEDGE_SHAPE_CIRCLE) {
        return sweep_circles(v2_add(pos_a, a->center), a->radius, move_a, v2_add(pos_b, b->center),
                             b->radius, move_b, out);
    }
    if (a->type == LEDGE_SHAPE_BOX && b->type == LEDGE_SHAPE_BOX) {
        return sweep_boxes(v2_add(pos_a, a->center), box_half(a), move_a, v2_add(pos_b, b->center),
                           box_half(b), move_b, out);
    }
    vec2s d = v2_sub(move_b, move_a);
    ledge_ray_hit hit;
    if (cast_pair(a, pos_a, b, pos_b, d, &hit) == LEDGE__RAY_MISS) return false;
    if (out == NULL) return true;
    float t = hit.fraction;
    vec2s rel = v2_add(v2_sub(pos_b, pos_a), v2_scale(d, t));
    out->fraction = t;
    out->normal = hit.normal;
    out->point = v2_add(v2_add(pos_a, v2_scale(move_a, t)), contact_point(a, b, rel, hit.normal));
    return true;
}
