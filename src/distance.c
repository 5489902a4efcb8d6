// Distance between two shapes (distance.h): closed forms for the pairs with
// a circle or two boxes, GJK for the rest, and the SAT's minimum translation
// when the shapes overlap.
//
// GJK (gjk.h) runs in a's frame (a at the origin) so that the numbers stay
// the size of the shapes, not of their world coordinates. Shape pairs start
// from the vertices facing each other along the line between the centres
// (usually one end of the closest features).
#include "check.h"
#include "distance.h"
#include "gjk.h"

#include "shape.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

// x86-64 always has SSE2: the box pair, the circle-polygon pair and the
// position check use it (the same IEEE operations as the scalar code, two
// or four numbers at a time).
#if defined(__SSE2__)
#define LEDGE__SSE2 1
#include <emmintrin.h>

static inline __m128 dup_vec(vec2s v) { // (v.x, v.y, v.x, v.y)
    double d;
    memcpy(&d, &v, sizeof d);
    return _mm_castpd_ps(_mm_set1_pd(d));
}
static inline __m128 load_vec(vec2s v) { // (v.x, v.y, 0, 0)
    double d;
    memcpy(&d, &v, sizeof d);
    return _mm_castpd_ps(_mm_set_sd(d));
}
#endif

/// Within this fraction of the coordinates' size two shapes count as
/// touching within rounding, and ledge_collide's SAT has the last word
/// (pair_distance, near_touch).
#define TOUCH_ROUNDING 1.0e-5f

ledge_distance_result ledge__distance_none(int iterations) {
    ledge_distance_result r;
    memset(&r, 0, sizeof r);
    r.distance = INFINITY;
    r.iterations = iterations;
    return r;
}

ledge_shape ledge__point_shape(void) {
    ledge_shape s;
    memset(&s, 0, sizeof s);
    s.type = LEDGE_SHAPE_CIRCLE;
    return s;
}

void ledge__proxy_of(const ledge_shape *s, vec2s off, ledge__proxy *p) {
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        p->count = 1;
        p->v[0] = v2_add(s->center, off);
        p->radius = s->radius;
        return;
    }
    p->count = s->count;
    p->radius = 0.0f;
    for (int i = 0; i < s->count; ++i) p->v[i] = v2_add(s->vertices[i], off);
}

ledge_distance_result ledge__distance_from_manifold(const ledge_manifold *m) {
    vec2s c = m->points[0];
    if (m->point_count == 2) c = v2_scale(v2_add(m->points[0], m->points[1]), 0.5f);
    vec2s half = v2_scale(m->normal, 0.5f * m->depth);
    ledge_distance_result r = {0.0f, v2_add(c, half), v2_sub(c, half), m->normal, 0};
    return r;
}

// The result of a pair computed as (polygon, circle) when the caller asked
// (circle, polygon): `flip` swaps the points and turns the normal. The
// closed forms build their result through this with a constant `flip`, so
// the swapped order is written once, in registers: swapping a returned
// struct reloads it as wider words than were stored, which stalls the
// store forwarding of common x86 cores (on the quiet machine circle-polygon
// took 62.5 ns and polygon-circle 31.6 ns for the same instruction count).
static inline ledge_distance_result ordered(float distance, vec2s pa, vec2s pb, vec2s normal,
                                            bool flip) {
    ledge_distance_result r = {distance, flip ? pb : pa, flip ? pa : pb,
                               flip ? v2_neg(normal) : normal, 0};
    return r;
}

// The axis of largest separation over both sets' faces (a's outward
// normals, b's reversed), from a toward b: the touching faces' normal when
// GJK's distance is zero. Points and segments have no faces of their own
// here; two points give their difference.
static vec2s sat_axis(const ledge__proxy *a, const ledge__proxy *b) {
    float best = -INFINITY;
    vec2s axis = v2(0.0f, 1.0f);
    for (int side = 0; side < 2; ++side) {
        const ledge__proxy *p = side == 0 ? a : b, *q = side == 0 ? b : a;
        if (p->count < 2) continue;
        for (int i = 0; i < p->count; ++i) {
            vec2s v0 = p->v[i], e = v2_sub(p->v[i + 1 == p->count ? 0 : i + 1], v0);
            vec2s nrm = v2_normalize(v2(e.y, -e.x));
            float sep = INFINITY;
            for (int j = 0; j < q->count; ++j) sep = minf(sep, v2_dot(nrm, v2_sub(q->v[j], v0)));
            if (sep > best) {
                best = sep;
                axis = side == 0 ? nrm : v2_neg(nrm);
            }
        }
    }
    if (best == -INFINITY) axis = v2_normalize(v2_sub(b->v[0], a->v[0]));
    return axis;
}

// The vertex sets of a GJK pair as proxies (b moved), for the rare paths.
static void pair_proxies(const ledge__gjk_pair *gp, float ra, float rb, ledge__proxy *a,
                         ledge__proxy *b) {
    a->count = gp->na;
    a->radius = ra;
    b->count = gp->nb;
    b->radius = rb;
    for (int i = 0; i < gp->na; ++i) a->v[i] = gp->va[i];
    for (int i = 0; i < gp->nb; ++i) b->v[i] = v2_add(gp->vb[i], gp->off);
}

static ledge_distance_result overlap_points(const ledge__proxy *a, const ledge__proxy *b, vec2s n);

// `scale`: the size of the coordinates involved (the shapes' extents and
// offset), which sets the tolerance below.
// `finish` false: when the sets touch or overlap (no direction from GJK)
// return at once with distance -1, for a caller that asks the SAT first
// (the faces' scan below costs more than GJK itself).
static ledge_distance_result pair_distance(const ledge__gjk_pair *gp, float ra, float rb,
                                           float scale, bool finish, bool *overlap) {
    vec2s pa, pb;
    int iters = 0, n = ledge__gjk(gp, &pa, &pb, &iters);
    vec2s d = v2_sub(pb, pa);
    float core = n == 3 ? 0.0f : v2_len(d), r = ra + rb;
    ledge_distance_result res = {0.0f, pa, pb, v2(0.0f, 1.0f), iters};
    // Within rounding of touching the SAT has the last word (its hit means
    // distance 0): a relative 1e-5 of the coordinates, far above float
    // rounding, costs a collide call only for nearly touching pairs.
    *overlap = core <= r + TOUCH_ROUNDING * (scale + r);
    if (core > 0.0f) {
        res.normal = v2_unit(d, core);
    } else if (!finish) {
        res.distance = -1.0f;
        return res;
    } else { // touching, or overlapping within rounding: the faces decide
        ledge__proxy a, b;
        pair_proxies(gp, ra, rb, &a, &b);
        res.normal = sat_axis(&a, &b);
        if (n == 3) { // points on the faces, where both supports lie
            ledge_distance_result t = overlap_points(&a, &b, res.normal);
            res.point_a = t.point_a;
            res.point_b = t.point_b;
            return res;
        }
    }
    res.distance = maxf(core - r, 0.0f);
    res.point_a = v2_add(pa, v2_scale(res.normal, ra));
    res.point_b = v2_sub(pb, v2_scale(res.normal, rb));
    return res;
}

ledge_distance_result ledge__proxy_distance(const ledge__proxy *a, const ledge__proxy *b,
                                            bool *overlap) {
    ledge__gjk_pair gp = {a->v, b->v, a->count, b->count, v2(0.0f, 0.0f), v2(0.0f, 0.0f)};
    float scale = 0.0f;
    for (int i = 0; i < a->count; ++i)
        scale = maxf(scale, maxf(fabsf(a->v[i].x), fabsf(a->v[i].y)));
    for (int i = 0; i < b->count; ++i)
        scale = maxf(scale, maxf(fabsf(b->v[i].x), fabsf(b->v[i].y)));
    return pair_distance(&gp, a->radius, b->radius, scale, true, overlap);
}

// --- closed forms -----------------------------------------------------------

static ledge_distance_result circle_circle(const ledge_shape *a, vec2s pa, const ledge_shape *b,
                                           vec2s pb) {
    vec2s ca = v2_add(pa, a->center), cb = v2_add(pb, b->center), d = v2_sub(cb, ca);
    float len = v2_len(d);
    vec2s n = v2_unit(d, len);
    ledge_distance_result r = {maxf(len - (a->radius + b->radius), 0.0f),
                               v2_add(ca, v2_scale(n, a->radius)),
                               v2_sub(cb, v2_scale(n, b->radius)), n, 0};
    return r;
}

// Box a and circle b (flip: the caller's a is the circle). Outside the box
// the closest point is the clamp of the centre; inside, the push leaves
// through the nearest side (the order of ledge_collide's ties).
static inline ledge_distance_result box_circle(const ledge_shape *a, vec2s pa, const ledge_shape *b,
                                               vec2s pb, bool flip) {
    vec2s c = v2_sub(v2_add(pb, b->center), pa);
    vec2s lo = a->bounds.lower, hi = a->bounds.upper;
    vec2s q = v2(fminf(fmaxf(c.x, lo.x), hi.x), fminf(fmaxf(c.y, lo.y), hi.y));
    vec2s d = v2_sub(c, q), normal = v2(0.0f, 0.0f);
    float len = v2_len(d), rad = b->radius, dist = 0.0f;
    if (len > 0.0f) {
        normal = v2_unit(d, len);
        dist = maxf(len - rad, 0.0f);
    } else {
        float depth = c.x - lo.x;
        normal = v2(-1.0f, 0.0f);
        q = v2(lo.x, c.y);
        if (hi.x - c.x < depth) {
            depth = hi.x - c.x;
            normal = v2(1.0f, 0.0f);
            q = v2(hi.x, c.y);
        }
        if (c.y - lo.y < depth) {
            depth = c.y - lo.y;
            normal = v2(0.0f, -1.0f);
            q = v2(c.x, lo.y);
        }
        if (hi.y - c.y < depth) {
            normal = v2(0.0f, 1.0f);
            q = v2(c.x, hi.y);
        }
    }
    return ordered(dist, v2_add(q, pa), v2_add(v2_sub(c, v2_scale(normal, rad)), pa), normal, flip);
}

// One axis of two boxes: the gap between the intervals (> 0 apart), the
// sign of the direction from a to b, and the coordinates of the closest
// points: the middle of the facing ends clamped into each interval, which
// is an end when the intervals are apart and the middle of the common part
// when they overlap (boxes_apart computes the same, two axes at once).
static float box_axis(float alo, float ahi, float blo, float bhi, float *sign, float *xa,
                      float *xb) {
    float gp = blo - ahi, gn = alo - bhi, m = 0.5f * (maxf(alo, blo) + minf(ahi, bhi));
    *sign = gp >= gn ? 1.0f : -1.0f;
    *xa = minf(maxf(m, alo), ahi);
    *xb = minf(maxf(m, blo), bhi);
    return gp >= gn ? gp : gn;
}

static ledge_distance_result box_box(const ledge_shape *a, vec2s pa, const ledge_shape *b,
                                     vec2s pb) {
    vec2s alo = v2_add(a->bounds.lower, pa), ahi = v2_add(a->bounds.upper, pa);
    vec2s blo = v2_add(b->bounds.lower, pb), bhi = v2_add(b->bounds.upper, pb);
    float sx, sy, ax, bx, ay, by;
    float gx = box_axis(alo.x, ahi.x, blo.x, bhi.x, &sx, &ax, &bx);
    float gy = box_axis(alo.y, ahi.y, blo.y, bhi.y, &sy, &ay, &by);
    ledge_distance_result r = {0.0f, v2(ax, ay), v2(bx, by), v2(0.0f, 0.0f), 0};
    if (gx >= 0.0f || gy >= 0.0f) { // apart or touching
        float dx = maxf(gx, 0.0f), dy = maxf(gy, 0.0f);
        r.distance = v2_len(v2(dx, dy));
        r.normal = r.distance > 0.0f ? v2_unit(v2(sx * dx, sy * dy), r.distance)
                   : gx >= gy        ? v2(sx, 0.0f)
                                     : v2(0.0f, sy);
        return r;
    }
    // Overlap: the smallest of the four pushes, in ledge_collide's order.
    float push[4] = {ahi.x - blo.x, bhi.x - alo.x, ahi.y - blo.y, bhi.y - alo.y};
    int k = 0;
    for (int i = 1; i < 4; ++i) k = push[i] < push[k] ? i : k;
    static const float nx[4] = {1.0f, -1.0f, 0.0f, 0.0f}, ny[4] = {0.0f, 0.0f, 1.0f, -1.0f};
    r.normal = v2(nx[k], ny[k]);
    if (k < 2) {
        r.point_a = v2(k == 0 ? ahi.x : alo.x, ay);
        r.point_b = v2(k == 0 ? blo.x : bhi.x, ay);
    } else {
        r.point_a = v2(ax, k == 2 ? ahi.y : alo.y);
        r.point_b = v2(ax, k == 2 ? blo.y : bhi.y);
    }
    return r;
}

LEDGE_NOINLINE static ledge_distance_result boxes(const ledge_shape *a, vec2s pa,
                                                  const ledge_shape *b, vec2s pb) {
    return box_box(a, pa, b, pb);
}

// The face of a (3 to 8 vertices) of largest separation from c, the first
// of equals, and that separation. The three faces every polygon has are
// taken without a count test. Which face wins is a coin toss for the branch
// predictor: gcc makes the loop's selects conditional moves (the third
// face's choice it makes a jump; a mask there cut callgrind's mispredicts
// but not the measured time).
static inline int best_face(const ledge_shape *a, vec2s c, float *sep) {
    const vec2s *v = a->vertices, *n = a->normals;
    float best = v2_dot(n[0], v2_sub(c, v[0]));
    float s1 = v2_dot(n[1], v2_sub(c, v[1])), s2 = v2_dot(n[2], v2_sub(c, v[2]));
    int face = s1 > best ? 1 : 0;
    best = s1 > best ? s1 : best;
    face = s2 > best ? 2 : face;
    best = s2 > best ? s2 : best;
    for (int i = 3; i < a->count; ++i) {
        float s = v2_dot(n[i], v2_sub(c, v[i]));
        face = s > best ? i : face;
        best = s > best ? s : best;
    }
    *sep = best;
    return face;
}

// Polygon a and circle b, in closed form. The face of largest separation
// from the centre decides: inside (separation <= 0) it is the MTV's face;
// outside, the nearest point of the polygon lies on that face or at one of
// its two ends (ledge__polygon_point_feature, which ledge_collide shares).
// So a pass of dot products and, on a vertex, one square root, as
// b2CollidePolygonAndCircle. Every pair can be answered here; apart pairs
// usually take the shorter way of polygon_circle first.
LEDGE_NOINLINE static ledge_distance_result polygon_circle_exact(const ledge_shape *a, vec2s pa,
                                                                 vec2s cb, float rad, bool flip) {
    vec2s c = v2_sub(cb, pa);
    float sep, dist;
    int face = best_face(a, c, &sep), vertex = -1;
    vec2s normal, q, d;
    if (sep > 0.0f) vertex = ledge__polygon_point_feature(a, c, &face, &sep, &d);
    if (vertex < 0) {
        // inside, or facing the face
        normal = a->normals[face];
        dist = maxf(sep - rad, 0.0f);
        q = v2_sub(c, v2_scale(normal, sep));
    } else { // in the region of a vertex: v2_unit, with its range test first
        float len = v2_len(d);
        if (LEDGE_UNLIKELY(!(len > 1e-18f && len < 1e18f))) {
            normal = len > 0.0f ? v2_normalize(d) : a->normals[face];
        } else {
            normal = v2_scale(d, 1.0f / len);
        }
        dist = maxf(len - rad, 0.0f);
        q = a->vertices[vertex];
    }
    return ordered(dist, v2_add(q, pa), v2_sub(cb, v2_scale(normal, rad)), normal, flip);
}

ledge_distance_result ledge__polygon_circle_exact(const ledge_shape *poly, vec2s pp,
                                                  const ledge_shape *circle, vec2s pc, bool flip) {
    return polygon_circle_exact(poly, pp, v2_add(pc, circle->center), circle->radius, flip);
}

// The vertex of a (3 to 8 vertices) nearest to c, the first of equals, and
// its squared distance |c - v|^2 (as v2_len2 computes it).
#ifdef LEDGE__SSE2
#define PAD_LANE(n, i) ((i) < (n) ? 0.0f : INFINITY)
#define PAD_ROW(n)                                                                                 \
    {                                                                                              \
        PAD_LANE(n, 0), PAD_LANE(n, 1), PAD_LANE(n, 2), PAD_LANE(n, 3), PAD_LANE(n, 4),            \
            PAD_LANE(n, 5), PAD_LANE(n, 6), PAD_LANE(n, 7)                                         \
    }
/// vertex_pad[n]: 0 for the lanes of the n vertices, +inf for the unused
/// array entries past them (whatever they hold: max(NaN, +inf) is +inf).
static const float vertex_pad[LEDGE_MAX_POLYGON_VERTICES + 1][8]
    __attribute__((aligned(16))) = {PAD_ROW(0), PAD_ROW(1), PAD_ROW(2), PAD_ROW(3), PAD_ROW(4),
                                    PAD_ROW(5), PAD_ROW(6), PAD_ROW(7), PAD_ROW(8)};
#undef PAD_ROW
#undef PAD_LANE
_Static_assert(LEDGE_MAX_POLYGON_VERTICES == 8, "nearest_vertex reads 8 vertices");

// All 8 array entries at once, 4 to a register, without a loop or a
// branch on the count (the scalar pass's loop ended at a count the
// predictor could not know: one mispredicted jump a query). The squares are
// those of v2_len2 (v - c is -(c - v) exactly, and x^2 + y^2 is added as
// it adds), so the vertex and its distance have the same bits; the entries
// past the count are padded to +inf, and the lowest lane equal to the
// minimum is the first of equals.
static inline int nearest_lane(const ledge_shape *a, __m128 cc, __m128 *d2) {
    const float *v = &a->vertices[0].x;
    __m128 e0 = _mm_sub_ps(_mm_loadu_ps(v), cc), e1 = _mm_sub_ps(_mm_loadu_ps(v + 4), cc);
    __m128 e2 = _mm_sub_ps(_mm_loadu_ps(v + 8), cc), e3 = _mm_sub_ps(_mm_loadu_ps(v + 12), cc);
    e0 = _mm_mul_ps(e0, e0);
    e1 = _mm_mul_ps(e1, e1);
    e2 = _mm_mul_ps(e2, e2);
    e3 = _mm_mul_ps(e3, e3);
    // (x^2 of vertices 0..3) + (y^2 of them), and of vertices 4..7
    __m128 lo = _mm_add_ps(_mm_shuffle_ps(e0, e1, _MM_SHUFFLE(2, 0, 2, 0)),
                           _mm_shuffle_ps(e0, e1, _MM_SHUFFLE(3, 1, 3, 1)));
    __m128 hi = _mm_add_ps(_mm_shuffle_ps(e2, e3, _MM_SHUFFLE(2, 0, 2, 0)),
                           _mm_shuffle_ps(e2, e3, _MM_SHUFFLE(3, 1, 3, 1)));
    const float *pad = vertex_pad[a->count];
    lo = _mm_max_ps(lo, _mm_load_ps(pad));
    hi = _mm_max_ps(hi, _mm_load_ps(pad + 4));
    __m128 m = _mm_min_ps(lo, hi);
    m = _mm_min_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_min_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
    int lanes = _mm_movemask_ps(_mm_cmpeq_ps(lo, m)) | _mm_movemask_ps(_mm_cmpeq_ps(hi, m)) << 4;
    *d2 = m;                               // in every lane
    return __builtin_ctz((unsigned)lanes); // not 0: m is one of the lanes (none is NaN)
}
static inline int nearest_vertex(const ledge_shape *a, vec2s c, float *d2) {
    __m128 m;
    int k = nearest_lane(a, dup_vec(c), &m);
    *d2 = _mm_cvtss_f32(m);
    return k;
}
#else
static inline int nearest_vertex(const ledge_shape *a, vec2s c, float *d2) {
    const vec2s *v = a->vertices;
    float best = v2_len2(v2_sub(c, v[0]));
    float e1 = v2_len2(v2_sub(c, v[1])), e2 = v2_len2(v2_sub(c, v[2]));
    int k = e1 < best ? 1 : 0;
    best = e1 < best ? e1 : best;
    k = e2 < best ? 2 : k;
    best = e2 < best ? e2 : best;
    for (int i = 3; i < a->count; ++i) {
        float e = v2_len2(v2_sub(c, v[i]));
        k = e < best ? i : k;
        best = e < best ? e : best;
    }
    *d2 = best;
    return k;
}
#endif

int ledge__nearest_vertex(const ledge_shape *poly, vec2s c, float *d2) {
    return nearest_vertex(poly, c, d2);
}

#ifdef LEDGE__SSE2
_Static_assert(sizeof(ledge_distance_result) == 8 * sizeof(float) &&
                   offsetof(ledge_distance_result, point_a) == sizeof(float) &&
                   offsetof(ledge_distance_result, normal) == 5 * sizeof(float) &&
                   offsetof(ledge_distance_result, iterations) == 7 * sizeof(float),
               "ledge_distance_result is (distance, point_a, point_b, normal, iterations)");

// A polygon-circle result from its parts in registers, each (x, y, -, -):
// the distance (lane 0), the points on the polygon and on the circle, and
// the normal from the polygon toward the circle; `flip` swaps the points
// and turns the normal. Built two coordinates an operation and written as
// two 16-byte stores (gcc assembled the fields on the stack and copied
// them, a store-forwarding stall).
static LEDGE_INLINE ledge_distance_result store_answer(__m128 dist, __m128 on_poly,
                                                       __m128 on_circle, __m128 normal, bool flip) {
    normal = _mm_movelh_ps(normal, _mm_setzero_ps()); // (x, y, 0, 0)
    if (flip) normal = _mm_xor_ps(normal, _mm_setr_ps(-0.0f, -0.0f, 0.0f, 0.0f));
    __m128 ab = flip ? _mm_movelh_ps(on_circle, on_poly) : _mm_movelh_ps(on_poly, on_circle);
    // (distance, point_a, point_b.x) and (point_b.y, normal, iterations 0)
    __m128 r0 = _mm_move_ss(_mm_shuffle_ps(ab, ab, _MM_SHUFFLE(2, 1, 0, 0)), dist);
    __m128 t = _mm_shuffle_ps(ab, normal, _MM_SHUFFLE(1, 0, 3, 3)); // (b.y, b.y, n.x, n.y)
    __m128 r1 = _mm_shuffle_ps(t, normal, _MM_SHUFFLE(2, 1, 2, 0)); // (b.y, n.x, n.y, 0)
    ledge_distance_result r;
    _mm_storeu_ps((float *)(void *)&r, r0);
    _mm_storeu_ps((float *)(void *)&r + 4, r1);
    return r;
}

// (u, w): two vectors from memory in one register, without a shuffle.
static inline __m128 load_two(const vec2s *u, const vec2s *w) {
    return _mm_loadh_pi(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)u)),
                        (const __m64 *)(const void *)w);
}
#endif

// Polygon a and circle b. A centre c outside the polygon is answered from
// the vertex nearest to it (one pass of squared distances, no face scan):
// c in that vertex's region (strictly between the normals of its two
// faces) is nearest to it; else c beside one of those faces (outside its
// line, between its ends) is nearest to that face, at its separation.
// Either way the feature is one polygon_circle_exact lands on too (its face
// of largest separation has the vertex at an end), and the answer is
// computed from the same numbers by the same operations, so the bits are
// the same, overlapping or not (test_circle_polygon_fast_path), and so is
// ledge_collide's normal. The saving is the face scan and the exact
// routine's jumps on where the centre lies (one mispredicted per query as
// callgrind counts them); with SSE the vertex pass has no loop and the two
// side tests are one compare (0.34 mispredicts a query for 1.8 before).
// A centre inside the polygon, a vertex offset too short or long for
// v2_unit's plain division, and any other centre (near a region boundary
// to within rounding, or nearest to a face away from the nearest vertex)
// go to polygon_circle_exact, so a wrong candidate vertex can only cost
// time, never change an answer.
#ifdef LEDGE__SSE2
// With SSE: the scalar version's features, tests and operations (so the
// same bits; the scalar version is below), two coordinates or two tests an
// operation. The vertex pass's minimum comes broadcast, so the square root
// and the reciprocal are computed in every lane at once (no shuffle to
// spread them). Beside a face (f: k's own face when c is past k along it,
// n_k x d >= 0, else face p), the side test at k is the one that chose f,
// so only the far end g's is left: c before g along face k
// (n_k x (c - v_g) <= 0), after it along face p (n_p x (c - v_p) >= 0).
// One register computes the separation n_f . (c - v_f) and n_f x (c - v_g)
// (as x y' + (-(y x')), which is x y' - y x' to the bit). With k the
// nearest vertex the far end's test fails only within rounding; it keeps
// the answer the exact routine's there.
static LEDGE_INLINE ledge_distance_result polygon_circle(const ledge_shape *a, vec2s pa,
                                                         const ledge_shape *b, vec2s pb,
                                                         bool flip) {
    vec2s cb = v2_add(pb, b->center), c = v2_sub(cb, pa);
    __m128 cc = dup_vec(c), d2, zero = _mm_setzero_ps(), r = _mm_set1_ps(b->radius);
    int k = nearest_lane(a, cc, &d2), n = a->count;
    int p = k - 1 + (n & -(k == 0)); // k - 1, or the last before the first
    __m128 vk = dup_vec(a->vertices[k]), dd = _mm_sub_ps(cc, vk); // (d, d)
    // Both sides at once: (n_p x d, -, n_k x d, -) from (n_p, n_k) times
    // (d.y, d.x, d.y, d.x), each product minus its neighbour (v2_cross's
    // operations); n_k x d negated so that one "> 0" tests both.
    __m128 nn = load_two(&a->normals[p], &a->normals[k]);
    __m128 prod = _mm_mul_ps(nn, _mm_shuffle_ps(dd, dd, _MM_SHUFFLE(0, 1, 0, 1)));
    __m128 sides = _mm_sub_ps(prod, _mm_shuffle_ps(prod, prod, _MM_SHUFFLE(2, 3, 0, 1)));
    sides = _mm_xor_ps(sides, _mm_setr_ps(0.0f, 0.0f, -0.0f, 0.0f));
    int outward = _mm_movemask_ps(_mm_cmpgt_ps(sides, zero));
    if ((outward & 5) == 5) { // in the vertex's region
        __m128 len = _mm_sqrt_ps(d2);
        float l = _mm_cvtss_f32(len);
        int plain = (l > 1e-18f) & (l < 1e18f);
        if (LEDGE_UNLIKELY(!plain)) return polygon_circle_exact(a, pa, cb, b->radius, flip);
        __m128 normal = _mm_mul_ps(dd, _mm_div_ps(_mm_set1_ps(1.0f), len));
        __m128 on_circle = _mm_sub_ps(dup_vec(cb), _mm_mul_ps(normal, r));
        __m128 on_poly = _mm_add_ps(vk, dup_vec(pa));
        return store_answer(_mm_max_ss(_mm_sub_ss(len, r), zero), on_poly, on_circle, normal, flip);
    }
    int use_p = (outward >> 2) & 1;
    int f = use_p ? p : k, g = use_p ? p : (k + 1) & -(k + 1 != n);
    __m128 nf = dup_vec(a->normals[f]);
    __m128 d0 = _mm_sub_ps(cc, load_vec(a->vertices[f])),
           dg = _mm_sub_ps(cc, load_vec(a->vertices[g]));
    __m128 fp = _mm_mul_ps(nf, _mm_shuffle_ps(d0, dg, _MM_SHUFFLE(0, 1, 1, 0)));
    fp = _mm_xor_ps(fp, _mm_setr_ps(0.0f, 0.0f, 0.0f, -0.0f));
    __m128 sums = _mm_add_ps(fp, _mm_shuffle_ps(fp, fp, _MM_SHUFFLE(2, 3, 0, 1)));
    // Signs that turn both tests into ">= 0": -sep >= 0 must fail, and the
    // far end's side (negated for face k) must hold.
    static const float test_sign[2][4]
        __attribute__((aligned(16))) = {{-0.0f, 0.0f, -0.0f, 0.0f}, {-0.0f, 0.0f, 0.0f, 0.0f}};
    __m128 tests = _mm_xor_ps(sums, _mm_load_ps(test_sign[use_p]));
    if (LEDGE_UNLIKELY((_mm_movemask_ps(_mm_cmpge_ps(tests, zero)) & 5) != 4)) {
        return polygon_circle_exact(a, pa, cb, b->radius, flip);
    }
    __m128 sep = _mm_shuffle_ps(sums, sums, _MM_SHUFFLE(0, 0, 0, 0));
    __m128 on_poly = _mm_add_ps(_mm_sub_ps(cc, _mm_mul_ps(nf, sep)), dup_vec(pa));
    __m128 on_circle = _mm_sub_ps(dup_vec(cb), _mm_mul_ps(nf, r));
    return store_answer(_mm_max_ss(_mm_sub_ss(sep, r), zero), on_poly, on_circle, nf, flip);
}
#else
// The answer of a centre c (cb in the world) in the region of vertex k of
// a, d = c - vertex and len = |d|: the vertex, and the normal d / len.
static inline ledge_distance_result vertex_answer(const ledge_shape *a, vec2s pa, vec2s cb,
                                                  float rad, int k, vec2s d, float len, bool flip) {
    vec2s normal = v2_scale(d, 1.0f / len);
    return ordered(maxf(len - rad, 0.0f), v2_add(a->vertices[k], pa),
                   v2_sub(cb, v2_scale(normal, rad)), normal, flip);
}

static LEDGE_INLINE ledge_distance_result polygon_circle(const ledge_shape *a, vec2s pa,
                                                         const ledge_shape *b, vec2s pb,
                                                         bool flip) {
    vec2s cb = v2_add(pb, b->center), c = v2_sub(cb, pa);
    float rad = b->radius, d2;
    int k = nearest_vertex(a, c, &d2), n = a->count;
    int p = k - 1 + (n & -(k == 0)); // k - 1, or the last before the first
    vec2s d = v2_sub(c, a->vertices[k]);
    float side_p = v2_cross(a->normals[p], d), side_k = v2_cross(a->normals[k], d);
    // Both tests made before either is acted on: one jump, not two (so
    // integers, which clang's -Wbitwise-instead-of-logical accepts).
    int in_region = (side_p > 0.0f) & (side_k < 0.0f);
    if (in_region) { // in the vertex's region
        float len = sqrtf(d2);
        int plain = (len > 1e-18f) & (len < 1e18f);
        if (LEDGE_UNLIKELY(!plain)) return polygon_circle_exact(a, pa, cb, rad, flip);
        return vertex_answer(a, pa, cb, rad, k, d, len, flip);
    }
    // Beside face f (k's own face when c is past k along it, else the one before).
    int f = side_k >= 0.0f ? k : p, g = f + 1;
    g &= -(g != n);
    vec2s nf = a->normals[f], d0 = v2_sub(c, a->vertices[f]), d1 = v2_sub(c, a->vertices[g]);
    float sep = v2_dot(nf, d0);
    int outside = sep > 0.0f, after0 = v2_cross(nf, d0) >= 0.0f, before1 = v2_cross(nf, d1) <= 0.0f;
    if (LEDGE_UNLIKELY(!(outside & after0 & before1))) {
        return polygon_circle_exact(a, pa, cb, rad, flip);
    }
    return ordered(maxf(sep - rad, 0.0f), v2_add(v2_sub(c, v2_scale(nf, sep)), pa),
                   v2_sub(cb, v2_scale(nf, rad)), nf, flip);
}
#endif

// The distance under which polygon a and circle b count as touching
// within rounding (TOUCH_ROUNDING of their coordinates' size).
static inline float near_touch(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    vec2s ea = v2_sub(a->bounds.upper, a->bounds.lower), off = v2_sub(pb, pa);
    return TOUCH_ROUNDING * (maxf(ea.x, ea.y) + fabsf(off.x) + fabsf(off.y) + b->radius);
}

// Polygon a and circle b within rounding of touching: the SAT has the last
// word, as for two polygons (pair_distance), so that ledge_collide's hit
// always means distance 0. The closed form measures the centre against a
// face through one of its vertices, the SAT against the face's precomputed
// axis, whose offset rounds on the face's other vertex: they can disagree
// by a float rounding of the coordinates (a circle of radius 8e-44 on a
// triangle's vertex: the SAT says hit, the closed form 1.1e-16 apart;
// tests/fuzz/crashes/collide/circle-on-triangle-vertex-rounding).
static LEDGE_NOINLINE void sat_near_touch(const ledge_shape *a, vec2s pa, const ledge_shape *b,
                                          vec2s pb, bool flip, ledge_distance_result *r) {
    ledge_manifold m = flip ? ledge_collide(b, pb, a, pa) : ledge_collide(a, pa, b, pb);
    if (!m.hit) return;
    int iterations = r->iterations;
    *r = ledge__distance_from_manifold(&m);
    r->iterations = iterations;
}

// polygon_circle, and the SAT's word when it finds the pair within
// rounding of touching (near_touch). The answer is changed in place, so
// that it is built where the caller wants it (a copy of the returned
// struct would cost a store-forwarding stall on every query).
static LEDGE_INLINE ledge_distance_result polygon_circle_checked(const ledge_shape *a, vec2s pa,
                                                                 const ledge_shape *b, vec2s pb,
                                                                 bool flip) {
    ledge_distance_result r = polygon_circle(a, pa, b, pb, flip);
    if (LEDGE_UNLIKELY(r.distance > 0.0f && r.distance <= near_touch(a, pa, b, pb))) {
        sat_near_touch(a, pa, b, pb, flip, &r);
    }
    return r;
}

// The pairs with a circle, out of line so that their register pressure
// does not burden the others; `flip` constant in each.
LEDGE_NOINLINE static ledge_distance_result box_and_circle(const ledge_shape *a, vec2s pa,
                                                           const ledge_shape *b, vec2s pb) {
    return box_circle(a, pa, b, pb, false);
}
LEDGE_NOINLINE static ledge_distance_result circle_and_box(const ledge_shape *a, vec2s pa,
                                                           const ledge_shape *b, vec2s pb) {
    return box_circle(b, pb, a, pa, true);
}
LEDGE_NOINLINE static ledge_distance_result polygon_and_circle(const ledge_shape *a, vec2s pa,
                                                               const ledge_shape *b, vec2s pb) {
    return polygon_circle_checked(a, pa, b, pb, false);
}
LEDGE_NOINLINE static ledge_distance_result circle_and_polygon(const ledge_shape *a, vec2s pa,
                                                               const ledge_shape *b, vec2s pb) {
    return polygon_circle_checked(b, pb, a, pa, true);
}

// The support points of p along n (those within tol of the largest
// projection h, radius included), as an interval of the tangent t.
static void support_span(const ledge__proxy *p, vec2s n, vec2s t, float tol, float *h, float *lo,
                         float *hi) {
    float m = -INFINITY;
    for (int i = 0; i < p->count; ++i) m = maxf(m, v2_dot(p->v[i], n));
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < p->count; ++i) {
        if (v2_dot(p->v[i], n) < m - tol) continue;
        *lo = minf(*lo, v2_dot(p->v[i], t));
        *hi = maxf(*hi, v2_dot(p->v[i], t));
    }
    *h = m + p->radius;
}

// The deepest points of an overlap pushed apart along n: a's support line
// and b's, at the middle of the part of the tangent where both supports
// lie. (A manifold's two contact points are each midway at their own
// depth, so their average lies on neither boundary.)
static ledge_distance_result overlap_points(const ledge__proxy *a, const ledge__proxy *b, vec2s n) {
    vec2s t = v2(-n.y, n.x);
    // A face perpendicular to n has its ends at one projection up to the
    // rounding of the coordinates: a few ulps of the largest of them.
    float mag = 0.0f;
    for (int i = 0; i < a->count; ++i) mag = maxf(mag, fabsf(a->v[i].x) + fabsf(a->v[i].y));
    for (int i = 0; i < b->count; ++i) mag = maxf(mag, fabsf(b->v[i].x) + fabsf(b->v[i].y));
    float tol = 4.0e-6f * mag, ha, hb, a0, a1, b0, b1;
    support_span(a, n, t, tol, &ha, &a0, &a1);
    support_span(b, v2_neg(n), t, tol, &hb, &b0, &b1);
    float lo = maxf(a0, b0), hi = minf(a1, b1);
    float tm = 0.5f * (lo + hi);
    tm = tm < b0 ? b0 : (tm > b1 ? b1 : tm);
    ledge_distance_result r = {0.0f, v2_add(v2_scale(n, ha), v2_scale(t, tm)),
                               v2_add(v2_scale(n, -hb), v2_scale(t, tm)), n, 0};
    return r;
}

// Box and polygon pairs: GJK in a's frame; overlapping pairs take
// ledge_collide's minimum translation.
LEDGE_NOINLINE static ledge_distance_result polygons(const ledge_shape *a, vec2s pa,
                                                     const ledge_shape *b, vec2s pb) {
    vec2s off = v2_sub(pb, pa);
    ledge__gjk_pair gp = {a->vertices, b->vertices, a->count,
                          b->count,    off,         v2_sub(v2_add(b->center, off), a->center)};
    bool overlap;
    vec2s ea = v2_sub(a->bounds.upper, a->bounds.lower),
          eb = v2_sub(b->bounds.upper, b->bounds.lower);
    float scale = maxf(maxf(ea.x, ea.y), maxf(eb.x, eb.y)) + fabsf(gp.off.x) + fabsf(gp.off.y);
    ledge_distance_result r = pair_distance(&gp, 0.0f, 0.0f, scale, false, &overlap);
    if (overlap) {
        ledge_manifold m = ledge_collide(a, pa, b, pb);
        if (m.hit) {
            ledge__proxy A, B;
            pair_proxies(&gp, 0.0f, 0.0f, &A, &B);
            int it = r.iterations;
            r = overlap_points(&A, &B, m.normal);
            r.iterations = it;
        } else if (r.distance < 0.0f) { // touching: now the faces' normal
            r = pair_distance(&gp, 0.0f, 0.0f, scale, true, &overlap);
        }
    }
    r.point_a = v2_add(r.point_a, pa);
    r.point_b = v2_add(r.point_b, pa);
    return r;
}

LEDGE_NOINLINE static ledge_distance_result circles(const ledge_shape *a, vec2s pa,
                                                    const ledge_shape *b, vec2s pb) {
    return circle_circle(a, pa, b, pb);
}

// Two boxes apart by a positive distance. On each axis the signed gap (the
// distance along it when the intervals are apart, 0 when they overlap),
// and the closest points as the middle of the intervals' facing ends
// clamped into each interval: an end when they are apart, the middle of the
// common part when not. The same operations as box_box's in the same
// order, so the same bits (test_box_fast_path_bits); box_box answers the
// pairs that touch or overlap (distance 0) and those whose distance is
// outside v2_unit's range. With SSE both boxes' bounds are one register
// each and both axes one operation, without a branch on the pair's
// geometry: 99 instructions per call for 168 before, 2.4 mispredicted
// branches for 0 (tests/bench_distance_ir.sh, box-box).
#ifdef LEDGE__SSE2
// point_a and point_b are stored as one 16-byte register.
_Static_assert(offsetof(ledge_distance_result, point_b) ==
                   offsetof(ledge_distance_result, point_a) + 2 * sizeof(float),
               "point_a and point_b adjacent");
#define SWAP_HALVES(x) _mm_shuffle_ps((x), (x), _MM_SHUFFLE(1, 0, 3, 2))
static LEDGE_INLINE ledge_distance_result boxes_apart(const ledge_shape *a, vec2s pa,
                                                      const ledge_shape *b, vec2s pb) {
    // (lower.x, lower.y, upper.x, upper.y) of each, in the world
    __m128 ba = _mm_add_ps(_mm_loadu_ps(&a->bounds.lower.x), dup_vec(pa));
    __m128 bb = _mm_add_ps(_mm_loadu_ps(&b->bounds.lower.x), dup_vec(pb));
    __m128 lo = _mm_movelh_ps(ba, bb), hi = _mm_movehl_ps(bb, ba);           // (a's, b's)
    __m128 gaps = _mm_sub_ps(SWAP_HALVES(lo), hi), back = SWAP_HALVES(gaps); // (gp, gn), (gn, gp)
    __m128 neg = _mm_cmpgt_ps(back, gaps); // b on the - side: not gp >= gn
    __m128 d = _mm_max_ps(_mm_max_ps(back, gaps), _mm_setzero_ps()); // gn > gp ? gn : gp, then >= 0
    __m128 d2 = _mm_mul_ps(d, d);
    float dist = _mm_cvtss_f32(_mm_sqrt_ss(_mm_add_ss(d2, _mm_shuffle_ps(d2, d2, 1))));
    if (LEDGE_UNLIKELY(!(dist > 1e-18f && dist < 1e18f))) return boxes(a, pa, b, pb);
    __m128 sign = _mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(neg), 31)); // -d there
    __m128 normal = _mm_mul_ps(_mm_xor_ps(d, sign), _mm_set1_ps(1.0f / dist));
    __m128 mid = _mm_add_ps(_mm_max_ps(ba, bb), _mm_movehl_ps(ba, _mm_min_ps(ba, bb)));
    mid = _mm_mul_ps(mid, _mm_set1_ps(0.5f));
    __m128 points = _mm_min_ps(_mm_max_ps(_mm_movelh_ps(mid, mid), lo), hi); // (point_a, point_b)
    ledge_distance_result r;
    float nrm[4];
    _mm_storeu_ps(nrm, normal);
    r.distance = dist;
    _mm_storeu_ps((float *)((char *)&r + offsetof(ledge_distance_result, point_a)), points);
    memcpy(&r.normal, nrm, sizeof r.normal);
    r.iterations = 0;
    return r;
}
#undef SWAP_HALVES
#else
static LEDGE_INLINE ledge_distance_result boxes_apart(const ledge_shape *a, vec2s pa,
                                                      const ledge_shape *b, vec2s pb) {
    return box_box(a, pa, b, pb);
}
#endif

// Whether a box or polygon has the vertex and axis counts its arrays can
// hold (ledge__shape_type_ok past the type, which the dispatch checked).
static inline bool polygon_counts_ok(const ledge_shape *s) {
    return (unsigned)(s->count - 3) <= LEDGE_MAX_POLYGON_VERTICES - 3u &&
           (unsigned)(s->axis_count - 1) < (unsigned)s->count;
}

LEDGE_NOINLINE static ledge_distance_result refused(const ledge_shape *a, vec2s pa,
                                                    const ledge_shape *b, vec2s pb);

// The pair routines behind the dispatch of ledge_shape_distance, which has
// checked the pointers, the positions and that both types are 0..3: each
// checks the counts of its boxes and polygons (a circle has none to check).
LEDGE_NOINLINE static ledge_distance_result checked_circles(const ledge_shape *a, vec2s pa,
                                                            const ledge_shape *b, vec2s pb) {
    return circle_circle(a, pa, b, pb);
}
LEDGE_NOINLINE static ledge_distance_result checked_boxes(const ledge_shape *a, vec2s pa,
                                                          const ledge_shape *b, vec2s pb) {
    if (LEDGE_UNLIKELY(!polygon_counts_ok(a) || !polygon_counts_ok(b))) {
        return refused(a, pa, b, pb);
    }
    return boxes_apart(a, pa, b, pb);
}
LEDGE_NOINLINE static ledge_distance_result checked_polygons(const ledge_shape *a, vec2s pa,
                                                             const ledge_shape *b, vec2s pb) {
    if (LEDGE_UNLIKELY(!polygon_counts_ok(a) || !polygon_counts_ok(b))) {
        return refused(a, pa, b, pb);
    }
    return polygons(a, pa, b, pb);
}
LEDGE_NOINLINE static ledge_distance_result checked_box_circle(const ledge_shape *a, vec2s pa,
                                                               const ledge_shape *b, vec2s pb) {
    if (LEDGE_UNLIKELY(!polygon_counts_ok(a))) return refused(a, pa, b, pb);
    return box_circle(a, pa, b, pb, false);
}
LEDGE_NOINLINE static ledge_distance_result checked_circle_box(const ledge_shape *a, vec2s pa,
                                                               const ledge_shape *b, vec2s pb) {
    if (LEDGE_UNLIKELY(!polygon_counts_ok(b))) return refused(a, pa, b, pb);
    return box_circle(b, pb, a, pa, true);
}
LEDGE_NOINLINE static ledge_distance_result checked_polygon_circle(const ledge_shape *a, vec2s pa,
                                                                   const ledge_shape *b, vec2s pb) {
    if (LEDGE_UNLIKELY(!polygon_counts_ok(a))) return refused(a, pa, b, pb);
    return polygon_circle_checked(a, pa, b, pb, false);
}
LEDGE_NOINLINE static ledge_distance_result checked_circle_polygon(const ledge_shape *a, vec2s pa,
                                                                   const ledge_shape *b, vec2s pb) {
    if (LEDGE_UNLIKELY(!polygon_counts_ok(b))) return refused(a, pa, b, pb);
    return polygon_circle_checked(b, pb, a, pa, true);
}

typedef ledge_distance_result (*pair_fn)(const ledge_shape *a, vec2s pa, const ledge_shape *b,
                                         vec2s pb);

/// The pair's routine by [a->type][b->type] (1 circle, 2 box, 3 polygon),
/// for the internal callers, whose shapes are valid: one indirect jump
/// instead of a chain of type tests.
static const pair_fn pair_fns[4][4] = {
    {NULL, NULL, NULL, NULL},
    {NULL, circles, circle_and_box, circle_and_polygon},
    {NULL, box_and_circle, boxes, polygons},
    {NULL, polygon_and_circle, polygons, polygons},
};

/// The same for ledge_shape_distance, with the count checks; type 0
/// (LEDGE_SHAPE_INVALID) is refused.
static const pair_fn checked_fns[4][4] = {
    {refused, refused, refused, refused},
    {refused, checked_circles, checked_circle_box, checked_circle_polygon},
    {refused, checked_box_circle, checked_boxes, checked_polygons},
    {refused, checked_polygon_circle, checked_polygons, checked_polygons},
};

ledge_distance_result ledge__shape_distance(const ledge_shape *a, vec2s pa, const ledge_shape *b,
                                            vec2s pb) {
    return pair_fns[a->type][b->type](a, pa, b, pb);
}

// The refusal of a call the checks below failed, out of line so that the
// accepted call needs no stack frame: logs what is wrong.
LEDGE_NOINLINE static ledge_distance_result refused(const ledge_shape *a, vec2s pa,
                                                    const ledge_shape *b, vec2s pb) {
    const char *fn = "ledge_shape_distance";
    const float lim = LEDGE_MAX_COORDINATE;
    if (!ledge__shape_type_ok(a) || !ledge__shape_type_ok(b)) {
        LEDGE_ERROR("%s: shape %s is NULL or invalid", fn, ledge__shape_type_ok(a) ? "b" : "a");
    } else if (ledge__check_vec(fn, "pa", pa, lim)) {
        ledge__check_vec(fn, "pb", pb, lim);
    }
    return ledge__distance_none(-1);
}

// Whether the four coordinates are within LEDGE_MAX_COORDINATE (NaN and
// infinities are not), tested on their bits: a float's magnitude bits
// order like the integers. With SSE all four in one register where the
// positions arrive (a compare of the magnitudes with the limit's, no move
// to integer registers and back); else two at a time, adding `room` to a
// lane's magnitude, which carries into its bit 31 exactly when the
// magnitude exceeds the limit's (no lane carries into the next).
static inline bool positions_ok(vec2s pa, vec2s pb) {
    const uint32_t lim_bits = 0x49742400u; // LEDGE_MAX_COORDINATE, 1.0e6f
#ifdef LEDGE__SSE2
    __m128i all = _mm_castps_si128(_mm_movelh_ps(load_vec(pa), load_vec(pb)));
    __m128i mag = _mm_and_si128(all, _mm_set1_epi32(0x7fffffff));
    return _mm_movemask_epi8(_mm_cmpgt_epi32(mag, _mm_set1_epi32((int)lim_bits))) == 0;
#else
    const uint64_t mag = 0x7fffffff7fffffffull, sign = 0x8000000080000000ull;
    const uint64_t room = (uint64_t)(0x7fffffffu - lim_bits) * 0x100000001ull;
    uint64_t ua, ub;
    memcpy(&ua, &pa, sizeof ua);
    memcpy(&ub, &pb, sizeof ub);
    return ((((ua & mag) + room) | ((ub & mag) + room)) & sign) == 0;
#endif
}

// Whether s starts as every ledge_make_box shape does: type, vertex count
// and axis count (BOX, 4, 2), which ledge__shape_type_ok accepts. One
// 12-byte compare instead of the type and the two count checks.
static inline bool made_box(const ledge_shape *s) {
    static const int box_head[3] = {LEDGE_SHAPE_BOX, 4, 2};
    return memcmp(s, box_head, sizeof box_head) == 0;
}
_Static_assert(offsetof(ledge_shape, count) == sizeof(int) &&
                   offsetof(ledge_shape, axis_count) == 2 * sizeof(int) &&
                   sizeof(ledge_shape_type) == sizeof(int),
               "ledge_shape starts with type, count, axis_count");

ledge_distance_result ledge_shape_distance(const ledge_shape *a, vec2s pa, const ledge_shape *b,
                                           vec2s pb) {
    // The checks of ledge_collide's ledge__shape_type_ok (a full
    // ledge_shape_is_valid scan would cost as much as a box pair's whole
    // answer) and the positions' range, in bulk: first the pointers and the
    // positions; then two boxes as ledge_make_box makes them, the
    // commonest pair, answered inline (the call and its result's copy cost
    // as much as the answer); else both types at once (two unsigned types
    // <= 3 have an OR <= 3), and the counts in the pair's routine, which
    // knows which shapes have them; type 0 dispatches to the refusal.
    if (LEDGE_UNLIKELY(a == NULL || b == NULL || !positions_ok(pa, pb))) {
        return refused(a, pa, b, pb);
    }
    if (made_box(a) && made_box(b)) return boxes_apart(a, pa, b, pb);
    if (LEDGE_UNLIKELY(((unsigned)a->type | (unsigned)b->type) > 3u)) {
        return refused(a, pa, b, pb);
    }
    return checked_fns[a->type][b->type](a, pa, b, pb);
}
