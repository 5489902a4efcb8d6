// One-sided chain segments against shapes, rays and sweeps (segment.h).
//
// The model is the tiles' (tile_collide.c): whether a shape touches is
// decided against the segment itself, the push against the solid its
// neighbours leave. The segment's own region T is what lies behind it
// between its ends (a strip, open behind); the push region U is the half
// plane behind it, cut only at an end where the chain turns away from the
// front (a convex vertex: by the neighbour's own half plane, so U there is
// the corner the two faces make) or ends (by the plane across the end).
// Where the chain runs on or turns toward the front, U runs on under the
// neighbour, which lies behind that neighbour's face anyway: a shape
// sliding over such a vertex can only be pushed out through the faces,
// never against the neighbour's end, and a concave corner is met as two
// faces. Over a convex vertex the push is the exact one out of the corner:
// a circle rolls over it along the arc around the vertex.
//
// Both T and U are convex and polygonal, so each test is a separating axis
// test over their face normals, the shape's faces reversed and, for a
// circle, the axes from their vertices to its centre, with each support
// taken over the region's vertices where it is finite (U and T are
// unbounded behind: a direction with a part along an unbounded side has no
// finite support and is no candidate).
//
// One-sided: a shape meets the segment only while its centre is in front
// of the segment's line (or on it), as Box2D's chains decide: a shape
// coming from behind passes through, and so does one pushed more than half
// through (which multisampling and bullets keep from happening).
#include "segment.h"
#include "distance.h"
#include "ray.h"

#include <string.h>

/// How far a direction may lean across an unbounded side and still count
/// as bounded: the rounding of unit normals.
#define LEAN 1.0e-5f

void ledge__segment_make(ledge__segment *s, vec2s p, vec2s q) {
    vec2s d = v2_sub(q, p);
    float len = v2_len(d);
    s->p = p;
    s->q = q;
    s->len = len;
    s->e = v2_unit(d, len);
    s->n = v2(s->e.y, -s->e.x);
    s->cp = v2_neg(s->e);
    s->cq = s->e;
}

vec2s ledge__segment_cut(vec2s before, vec2s after, bool use_after) {
    if (!(v2_cross(before, after) > 0.0f)) return v2(0.0f, 0.0f); // flat or concave: none
    vec2s d = use_after ? after : before;
    return v2(d.y, -d.x);
}

static inline bool has(vec2s c) {
    return c.x != 0.0f || c.y != 0.0f;
}

// --- the shape, placed ------------------------------------------------------------

/// The shape in the chain's frame: a circle (centre, radius) or a polygon.
typedef struct placed {
    bool circle;
    vec2s c; ///< Centre (circle), or the shape's centre (its one-sided test).
    float r;
    int n;
    vec2s v[LEDGE_MAX_POLYGON_VERTICES];
    vec2s nrm[LEDGE_MAX_POLYGON_VERTICES];
} placed;

static void place(const ledge_shape *shape, vec2s off, placed *p) {
    p->circle = shape->type == LEDGE_SHAPE_CIRCLE;
    p->c = v2_add(shape->center, off);
    p->r = shape->radius;
    p->n = p->circle ? 0 : shape->count;
    for (int i = 0; i < p->n; ++i) {
        p->v[i] = v2_add(shape->vertices[i], off);
        p->nrm[i] = shape->normals[i];
    }
}

/// The shape's smallest projection on unit d.
static inline float shape_min(const placed *p, vec2s d) {
    if (p->circle) return v2_dot(d, p->c) - p->r;
    float m = v2_dot(d, p->v[0]);
    for (int i = 1; i < p->n; ++i) m = minf(m, v2_dot(d, p->v[i]));
    return m;
}

// --- the regions ----------------------------------------------------------------------

/// A convex region as a support function: its points (vertices, and points
/// on its faces), and the directions it runs to infinity along (a direction
/// with a positive part along one of them has no finite support).
typedef struct region {
    int np, ng, nn;
    vec2s pt[3];
    vec2s gen[6];
    vec2s normal[3]; ///< Its face normals (candidate axes).
    vec2s vertex[3]; ///< Its vertices (a circle's axes run from them).
    int nv;
} region;

/// The support of the region along unit d; false when it is unbounded.
static inline bool support(const region *g, vec2s d, float *h) {
    for (int i = 0; i < g->ng; ++i) {
        if (v2_dot(d, g->gen[i]) > LEAN) return false;
    }
    float m = v2_dot(d, g->pt[0]);
    for (int i = 1; i < g->np; ++i) m = maxf(m, v2_dot(d, g->pt[i]));
    *h = m;
    return true;
}

/// T: behind the segment, between its ends.
static void region_t(const ledge__segment *s, region *g) {
    g->np = 2;
    g->pt[0] = s->p;
    g->pt[1] = s->q;
    g->ng = 1;
    g->gen[0] = v2_neg(s->n);
    g->nn = 3;
    g->normal[0] = s->n;
    g->normal[1] = v2_neg(s->e);
    g->normal[2] = s->e;
    g->nv = 2;
    g->vertex[0] = s->p;
    g->vertex[1] = s->q;
}

/// U: the half plane behind the segment, cut at its ends by cp and cq.
static void region_u(const ledge__segment *s, region *g) {
    g->np = 2;
    g->pt[0] = s->p;
    g->pt[1] = s->q;
    g->nn = 0;
    g->normal[g->nn++] = s->n;
    g->nv = 0;
    if (has(s->cp)) {
        g->normal[g->nn++] = s->cp;
        g->vertex[g->nv++] = s->p;
    }
    if (has(s->cq)) {
        g->normal[g->nn++] = s->cq;
        g->vertex[g->nv++] = s->q;
    }
    // Both cuts meeting behind the segment (a spike's sharp top): their
    // lines' crossing is a vertex too.
    if (has(s->cp) && has(s->cq)) {
        float det = v2_cross(s->cp, s->cq);
        if (fabsf(det) > 1.0e-6f) {
            float a = v2_dot(s->cp, s->p), b = v2_dot(s->cq, s->q);
            vec2s x = v2((a * s->cq.y - b * s->cp.y) / det, (b * s->cp.x - a * s->cq.x) / det);
            if (v2_dot(s->n, v2_sub(x, s->p)) < 0.0f) {
                g->pt[g->np++] = x;
                g->vertex[g->nv++] = x;
            }
        }
    }
    // The directions U runs along: those of the faces' lines (either way)
    // and straight back from each face, kept when every face allows them.
    g->ng = 0;
    for (int i = 0; i < g->nn; ++i) {
        vec2s m = g->normal[i];
        vec2s cand[3] = {{{m.y, -m.x}}, {{-m.y, m.x}}, {{-m.x, -m.y}}};
        for (int k = 0; k < 3; ++k) {
            bool in = true;
            for (int j = 0; j < g->nn && in; ++j) in = v2_dot(g->normal[j], cand[k]) <= 1.0e-6f;
            if (in && g->ng < 6) g->gen[g->ng++] = cand[k];
        }
    }
}

/// The smallest overlap of the shape with the region over the candidate
/// axes (the region's faces, the shape's faces reversed, a circle's axes
/// from the region's vertices); the axis in *axis. Axes without a finite
/// support are skipped. INFINITY when none has one.
static float smallest_overlap(const region *g, const placed *p, vec2s *axis) {
    float best = INFINITY;
    vec2s best_axis = v2(0.0f, 0.0f);
    int total = g->nn + (p->circle ? g->nv : p->n);
    for (int k = 0; k < total; ++k) {
        vec2s d;
        if (k < g->nn) {
            d = g->normal[k];
        } else if (!p->circle) {
            d = v2_neg(p->nrm[k - g->nn]);
        } else {
            vec2s to = v2_sub(p->c, g->vertex[k - g->nn]);
            float l = v2_len(to);
            if (!(l > 0.0f)) continue;
            d = v2_unit(to, l);
        }
        float h;
        if (!support(g, d, &h)) continue;
        float o = h - shape_min(p, d);
        if (o < best) {
            best = o;
            best_axis = d;
        }
    }
    *axis = best_axis;
    return best;
}

// --- contact points ---------------------------------------------------------------

/// The contact points of a push along n by depth: the overlap along the
/// segment of its own ends' span and the shape's support, placed midway
/// between the surfaces (a circle: its deepest point moved halfway).
static int contact_points(const ledge__segment *s, const placed *p, vec2s n, float depth,
                          vec2s out[2]) {
    if (p->circle) {
        out[0] = v2_sub(p->c, v2_scale(n, p->r - 0.5f * depth));
        return 1;
    }
    vec2s t = v2(-n.y, n.x);
    float sl = shape_min(p, n), scale = 0.0f;
    for (int i = 0; i < p->n; ++i) scale = maxf(scale, fabsf(v2_dot(p->v[i], t)));
    float tol = 1.0e-4f * (s->len + scale) + 1.0e-6f;
    float hp = v2_dot(s->p, n), hq = v2_dot(s->q, n), top = maxf(hp, hq);
    float a0 = INFINITY, a1 = -INFINITY, b0 = INFINITY, b1 = -INFINITY;
    if (hp >= top - tol) a0 = a1 = v2_dot(s->p, t);
    if (hq >= top - tol) {
        a0 = minf(a0, v2_dot(s->q, t));
        a1 = maxf(a1, v2_dot(s->q, t));
    }
    for (int i = 0; i < p->n; ++i) {
        if (v2_dot(p->v[i], n) > sl + tol) continue;
        b0 = minf(b0, v2_dot(p->v[i], t));
        b1 = maxf(b1, v2_dot(p->v[i], t));
    }
    float lo = maxf(a0, b0), hi = minf(a1, b1);
    lo = lo < b0 ? b0 : lo > b1 ? b1 : lo;
    hi = hi < b0 ? b0 : hi > b1 ? b1 : hi;
    float level = sl + 0.5f * depth;
    if (lo > hi || hi - lo <= tol) {
        out[0] = v2_add(v2_scale(n, level), v2_scale(t, 0.5f * (lo + hi)));
        return 1;
    }
    out[0] = v2_add(v2_scale(n, level), v2_scale(t, lo));
    out[1] = v2_add(v2_scale(n, level), v2_scale(t, hi));
    return 2;
}

// --- collision ----------------------------------------------------------------------

/// Whether the placed shape touches the segment (its centre in front, and
/// an overlap with T on every axis).
static bool overlaps_t(const ledge__segment *s, const placed *p) {
    region t;
    region_t(s, &t);
    vec2s axis;
    return smallest_overlap(&t, p, &axis) > 0.0f;
}

static bool touches(const ledge__segment *s, const placed *p) {
    return ledge__segment_faces(s, p->c) && overlaps_t(s, p);
}

ledge_manifold ledge__segment_collide(const ledge__segment *s, const ledge_shape *shape,
                                      vec2s off) {
    ledge_manifold m;
    memset(&m, 0, sizeof m);
    placed p;
    place(shape, off, &p);
    if (!touches(s, &p)) return m;
    region u;
    region_u(s, &u);
    vec2s n;
    float depth = smallest_overlap(&u, &p, &n);
    if (!(depth > 0.0f) || !(depth < INFINITY)) return m;
    m.hit = true;
    m.normal = n;
    m.depth = depth;
    m.point_count = contact_points(s, &p, n, depth, m.points);
    return m;
}

// --- rays -----------------------------------------------------------------------------

bool ledge__segment_raycast(const ledge__segment *s, vec2s o, vec2s d, ledge_ray_hit *out) {
    float above = v2_dot(s->n, v2_sub(o, s->p)), into = -v2_dot(s->n, d);
    if (above < 0.0f || !(into > 0.0f) || above > into) return false; // behind, away, too short
    // Within the ends: the signs of the ends seen from the ray, on the same
    // numbers for the two segments sharing a vertex (no crack between them).
    float cp = v2_cross(d, v2_sub(s->p, o)), cq = v2_cross(d, v2_sub(s->q, o));
    if ((cp > 0.0f && cq > 0.0f) || (cp < 0.0f && cq < 0.0f)) return false;
    float t = above / into;
    out->fraction = t;
    out->point = v2_add(o, v2_scale(d, t));
    out->normal = s->n;
    return true;
}

// --- sweeps ---------------------------------------------------------------------------

/// A first contact found so far.
typedef struct first {
    float t;
    vec2s normal, point;
} first;

static inline void consider(first *f, float t, vec2s normal, vec2s point) {
    if (t < f->t) {
        f->t = t;
        f->normal = normal;
        f->point = point;
    }
}

/// A point (a polygon's vertex) moved by `move` against the segment's
/// front, counted when the shape's centre c is then in front too.
static void point_sweep(const ledge__segment *s, vec2s v, vec2s c, vec2s move, first *f) {
    ledge_ray_hit h;
    if (!ledge__segment_raycast(s, v, move, &h)) return;
    if (ledge__segment_faces(s, v2_add(c, v2_scale(move, h.fraction))))
        consider(f, h.fraction, s->n, h.point);
}

/// The segment's end e met by the shape moving by `move`: the end moves by
/// -move against the shape; the contact counts when the shape's centre is
/// then in front of the segment's line.
static void end_sweep(const ledge__segment *s, const placed *p, const ledge_shape *shape, vec2s off,
                      vec2s e, vec2s move, first *f) {
    ledge_ray_hit h;
    vec2s back = v2_neg(move);
    ledge__ray_result r;
    if (p->circle) {
        r = ledge__ray_circle(e, back, p->c, p->r, &h);
    } else {
        (void)shape;
        (void)off;
        r = ledge__ray_polygon(e, back, p->v, p->nrm, p->n, &h);
    }
    if (r != LEDGE__RAY_HIT) return;
    vec2s c = v2_add(p->c, v2_scale(move, h.fraction));
    if (!ledge__segment_faces(s, c)) return;
    consider(f, h.fraction, v2_neg(h.normal), e);
}

bool ledge__segment_sweep(const ledge__segment *s, const ledge_shape *shape, vec2s off, vec2s move,
                          ledge_toi *out) {
    placed p;
    place(shape, off, &p);
    if (touches(s, &p)) {
        ledge_manifold m = ledge__segment_collide(s, shape, off);
        out->fraction = 0.0f;
        out->normal = m.hit ? m.normal : s->n;
        out->point = m.hit ? m.points[0] : s->p;
        return true;
    }
    first f = {INFINITY, {{0.0f, 0.0f}}, {{0.0f, 0.0f}}};
    if (p.circle) {
        // The centre against the segment's face moved out by the radius.
        ledge__segment lifted = *s;
        lifted.p = v2_add(s->p, v2_scale(s->n, p.r));
        lifted.q = v2_add(s->q, v2_scale(s->n, p.r));
        ledge_ray_hit h;
        if (ledge__segment_raycast(&lifted, p.c, move, &h))
            consider(&f, h.fraction, s->n, v2_sub(h.point, v2_scale(s->n, p.r)));
    } else {
        for (int i = 0; i < p.n; ++i) point_sweep(s, p.v[i], p.c, move, &f);
    }
    end_sweep(s, &p, shape, off, s->p, move, &f);
    end_sweep(s, &p, shape, off, s->q, move, &f);
    // A shape coming from behind meets the segment when its centre crosses
    // the line, if it then overlaps what lies behind the segment (as the
    // step would find it, and push it out through the front).
    float behind = v2_dot(s->n, v2_sub(p.c, s->p)), toward = v2_dot(s->n, move);
    if (behind < 0.0f && toward > 0.0f && -behind <= toward) {
        float t = -behind / toward;
        placed at;
        place(shape, v2_add(off, v2_scale(move, t)), &at);
        if (t < f.t && overlaps_t(s, &at)) {
            vec2s foot = v2_sub(at.c, v2_scale(s->n, v2_dot(s->n, v2_sub(at.c, s->p))));
            consider(&f, t, s->n, foot);
        }
    }
    if (!(f.t <= 1.0f)) return false;
    out->fraction = f.t;
    out->normal = f.normal;
    out->point = f.point;
    return true;
}

// --- distance -------------------------------------------------------------------------

ledge_distance_result ledge__segment_distance(const ledge__segment *s, const ledge_shape *shape,
                                              vec2s off) {
    placed p;
    place(shape, off, &p);
    if (!ledge__segment_faces(s, p.c)) return ledge__distance_none(0);
    ledge_manifold m = ledge__segment_collide(s, shape, off);
    if (m.hit) return ledge__distance_from_manifold(&m);
    ledge__proxy a, b;
    a.count = 2;
    a.v[0] = s->p;
    a.v[1] = s->q;
    a.radius = 0.0f;
    ledge__proxy_of(shape, off, &b);
    bool overlap;
    ledge_distance_result r = ledge__proxy_distance(&a, &b, &overlap);
    if (overlap && r.distance <= 0.0f) {
        // Touching within rounding, or overlapping the segment's line only
        // beside what T holds: the segment's face.
        r.distance = 0.0f;
        if (!(v2_len2(r.normal) > 0.0f)) r.normal = s->n;
    }
    return r;
}
