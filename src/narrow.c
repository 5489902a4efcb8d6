// The narrow phase: separating axis tests with the exact minimum translation
// vector for every pair of shape types, contact points, and the per-pair
// separating-axis cache.
//
// Exactness: for two convex shapes the penetration depth is the distance
// from the origin to the boundary of their Minkowski difference, whose edge
// normals are exactly the edge normals of both shapes. Testing every one of
// them, in the direction that pushes b out along it (both directions of a
// shared axis), therefore gives the true minimum, also when one shape
// contains the other: the overlap on an axis is min(a.max - b.min,
// b.max - a.min), which is right even when the intervals nest (dyn4j's
// containment case). Circles add the Voronoi axis toward the nearest feature.
#include "shape.h"

#include <string.h>

/// What a single test found: a hit with its MTV, or the axis that separates.
typedef struct sat_result {
    vec2s normal; // unit, from a toward b (hit) or any separating axis (miss)
    float depth;  // > 0 on a hit
    bool hit;
} sat_result;

// The next vertex index around a loop: a compare instead of an integer
// division, which costs more than the rest of a face test.
static inline int next_index(int i, int count) {
    return i + 1 == count ? 0 : i + 1;
}

static sat_result miss_along(vec2s axis) {
    sat_result r = {axis, 0.0f, false};
    return r;
}

// Keeps the smaller of the two pushes out along axis u (b moved by +u needs
// o_pos, by -u needs o_neg). Returns false when the axis separates.
static inline bool consider_axis(vec2s u, float o_pos, float o_neg, sat_result *best) {
    if (o_pos <= 0.0f || o_neg <= 0.0f) return false;
    if (o_pos < best->depth) {
        best->depth = o_pos;
        best->normal = u;
    }
    if (o_neg < best->depth) {
        best->depth = o_neg;
        best->normal = v2_neg(u);
    }
    return true;
}

// --- circle pairs -----------------------------------------------------------

// Circles whose radii sum below ~1e-19: r * r is subnormal or 0 in float,
// so the float test would call two concentric circles apart. Double holds
// these squares exactly enough; the answer is the float one's, exact.
LEDGE_NOINLINE static sat_result tiny_circle_circle(vec2s d, float r) {
    double dx = d.x, dy = d.y, len = sqrt(dx * dx + dy * dy);
    if (len >= (double)r) return miss_along(d);
    vec2s n = len > 0.0 ? v2((float)(dx / len), (float)(dy / len)) : v2_normalize(d);
    sat_result res = {n, (float)((double)r - len), true};
    return res;
}

static sat_result circle_circle(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    vec2s d = v2_sub(v2_add(pb, b->center), v2_add(pa, a->center));
    float r = a->radius + b->radius, d2 = v2_len2(d);
    if (LEDGE_UNLIKELY(r < 2e-19f)) return tiny_circle_circle(d, r);
    if (d2 >= r * r) return miss_along(d);
    float dist = sqrtf(d2);
    sat_result res = {v2_unit(d, dist), r - dist, true};
    return res;
}

// Box a vs circle b, exact: outside the box the push is away from the closest
// point; inside, out through the nearest side.
static sat_result box_circle(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    vec2s c = v2_sub(v2_add(pb, b->center), pa);
    vec2s lo = a->bounds.lower, hi = a->bounds.upper;
    vec2s q = v2(fminf(fmaxf(c.x, lo.x), hi.x), fminf(fmaxf(c.y, lo.y), hi.y));
    vec2s d = v2_sub(c, q);
    float d2 = v2_len2(d), r = b->radius;
    if (d2 > 0.0f) {
        if (d2 >= r * r) return miss_along(d);
        float dist = sqrtf(d2);
        sat_result res = {v2_unit(d, dist), r - dist, true};
        return res;
    }
    // Centre inside (or on) the box: the nearest side wins, ties in fixed order.
    sat_result best = {v2(-1.0f, 0.0f), c.x - lo.x, true};
    if (hi.x - c.x < best.depth) best = (sat_result){v2(1.0f, 0.0f), hi.x - c.x, true};
    if (c.y - lo.y < best.depth) best = (sat_result){v2(0.0f, -1.0f), c.y - lo.y, true};
    if (hi.y - c.y < best.depth) best = (sat_result){v2(0.0f, 1.0f), hi.y - c.y, true};
    best.depth += r;
    return best;
}

// Polygon a vs circle b. Inside the polygon the nearest face decides; outside
// it the closest point of the outline (a face or a vertex: the Voronoi
// region holding the centre) decides, found from the face of largest
// separation and its two ends as ledge_shape_distance finds it (so that the
// two agree on the normal). Any face farther than r separates.
static sat_result polygon_circle(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    vec2s c = v2_sub(v2_add(pb, b->center), pa);
    float r = b->radius, sep = -INFINITY;
    int face = 0;
    for (int i = 0; i < a->count; ++i) {
        float s = v2_dot(a->normals[i], v2_sub(c, a->vertices[i]));
        if (s > r) return miss_along(a->normals[i]);
        if (s > sep) {
            sep = s;
            face = i;
        }
    }
    // Outside and facing a face, the face is the nearest feature, at
    // distance sep along its normal. Answering from the face (rather than
    // from c minus the nearest point) keeps the direction exact when the
    // centre lies on the face to within rounding: there the difference is
    // pure rounding noise and may point anywhere (a fuzzer found a circle
    // centred on a sliver's long edge pushed along the edge).
    vec2s d;
    if (sep <= 0.0f || ledge__polygon_point_feature(a, c, &face, &sep, &d) < 0) {
        if (sep >= r) return miss_along(a->normals[face]);
        sat_result res = {a->normals[face], r - sep, true};
        return res;
    }
    float d2 = v2_len2(d);
    if (d2 >= r * r) return miss_along(d);
    if (!(d2 > 0.0f)) {
        // The centre is on the vertex to within float underflow (a squared
        // distance below 1e-45): no direction to normalise, so push out
        // through the face as for a centre inside.
        sat_result res = {a->normals[face], r - sep, true};
        return res;
    }
    float dist = sqrtf(d2);
    sat_result res = {v2_unit(d, dist), r - dist, true};
    return res;
}

// --- polygon pairs ----------------------------------------------------------

/// The deepest face found so far in a polygon pair, with what the contact
/// points need: which shape owns the face and the other's support vertex.
typedef struct face_hit {
    float depth;
    int face;    // index of the reference face in its owner
    int support; // the other shape's vertex deepest below that face, or -1
    bool on_b;   // the face belongs to b (b then moves along -normal)
} face_hit;

static sat_result box_box(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    float ox1 = (pa.x + a->bounds.upper.x) - (pb.x + b->bounds.lower.x);
    float ox2 = (pb.x + b->bounds.upper.x) - (pa.x + a->bounds.lower.x);
    sat_result best = {v2(0.0f, 0.0f), INFINITY, true};
    if (!consider_axis(v2(1.0f, 0.0f), ox1, ox2, &best)) return miss_along(v2(1.0f, 0.0f));
    float oy1 = (pa.y + a->bounds.upper.y) - (pb.y + b->bounds.lower.y);
    float oy2 = (pb.y + b->bounds.upper.y) - (pa.y + a->bounds.lower.y);
    if (!consider_axis(v2(0.0f, 1.0f), oy1, oy2, &best)) return miss_along(v2(0.0f, 1.0f));
    return best;
}

// The vertex of s with the smallest projection on n, by a full scan.
static inline int support_min_scan(const ledge_shape *s, vec2s n, float *value) {
    int j = 0;
    float dj = v2_dot(s->vertices[0], n);
    for (int k = 1; k < s->count; ++k) {
        float dk = v2_dot(s->vertices[k], n);
        j = dk < dj ? k : j;
        dj = dk < dj ? dk : dj;
    }
    *value = dj;
    return j;
}

// The same, walking forward from vertex j, the support for the previous
// (clockwise-earlier) direction. A convex outline's projection is unimodal
// around the loop and the other shape's faces turn counter-clockwise, so the
// support only ever moves forward (rotating calipers): over a whole pass the
// walk goes once around at most.
static inline int support_min_from(const ledge_shape *s, vec2s n, int j, float *value) {
    int cnt = s->count;
    float dj = v2_dot(s->vertices[j], n);
    // The usual walk is zero, one or two steps, in no predictable pattern:
    // take those two branch-free (selects), and loop only beyond them.
    int moved = 0;
    for (int step = 0; step < 2; ++step) {
        int k = j + 1 == cnt ? 0 : j + 1;
        float dk = v2_dot(s->vertices[k], n);
        bool better = dk < dj;
        j = better ? k : j;
        dj = better ? dk : dj;
        moved += better;
    }
    for (int step = 2; moved == 2 && step < cnt; ++step) {
        int k = j + 1 == cnt ? 0 : j + 1;
        float dk = v2_dot(s->vertices[k], n);
        if (!(dk < dj)) break;
        j = k;
        dj = dk;
    }
    *value = dj;
    return j;
}

// Smallest projection of `inc` on the unit normal n without a vertex walk,
// when a closed form exists (a box, or a world axis read off the bounds).
static inline bool closed_form_min(const ledge_shape *inc, vec2s n, float *value) {
    if (inc->type == LEDGE_SHAPE_BOX || n.x == 0.0f || n.y == 0.0f) {
        float hi;
        ledge__shape_project(inc, n, value, &hi);
        return true;
    }
    return false;
}

// One-sided face tests: for every face of `ref` (at the origin) the depth of
// `inc` (at `off`) below it. These faces and the other shape's are exactly
// the outward normals of the Minkowski difference, so the smallest depth
// over both passes is the exact MTV. Returns false on a separating face.
static bool face_pass(const ledge_shape *ref, const ledge_shape *inc, vec2s off, bool on_b,
                      face_hit *best, vec2s *separating) {
    int j = -1;       // no support vertex known yet
    vec2s jn = {{0}}; // the normal j is the support for
    for (int i = 0; i < ref->count; ++i) {
        vec2s n = ref->normals[i];
        float lo;
        int support = -1;
        if (!closed_form_min(inc, n, &lo)) {
            // The forward walk needs the direction to have turned by less
            // than half a turn since j was found. Consecutive faces always
            // do, but faces answered in closed form leave gaps: a triangle
            // with a flat base jumps by more than 180 degrees over it.
            bool walk = j >= 0 && v2_cross(jn, n) > 0.0f;
            j = walk ? support_min_from(inc, n, j, &lo) : support_min_scan(inc, n, &lo);
            jn = n;
            support = j;
        }
        float depth = v2_dot(n, ref->vertices[i]) - (lo + v2_dot(off, n));
        // A NaN depth (a corrupted shape; only the cheap structural check
        // runs per call) separates too: no face could be chosen from it.
        if (!(depth > 0.0f)) {
            *separating = n;
            return false;
        }
        // Which face is deepest follows no pattern a branch predictor could
        // learn: select instead of branching.
        bool better = depth < best->depth;
        best->depth = better ? depth : best->depth;
        best->face = better ? i : best->face;
        best->support = better ? support : best->support;
        best->on_b = better ? on_b : best->on_b;
    }
    return true;
}

static sat_result polygon_polygon(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb,
                                  face_hit *best) {
    vec2s d = v2_sub(pb, pa), sep;
    *best = (face_hit){.depth = INFINITY, .face = 0, .support = -1, .on_b = false};
    if (!face_pass(a, b, d, false, best, &sep)) return miss_along(sep);
    if (!face_pass(b, a, v2_neg(d), true, best, &sep)) return miss_along(sep);
    const ledge_shape *ref = best->on_b ? b : a;
    vec2s n = ref->normals[best->face];
    sat_result r = {best->on_b ? v2_neg(n) : n, best->depth, true};
    return r;
}

// --- contact points ---------------------------------------------------------

// Box pair: the overlap of the two faces that touch, midway between them.
static void box_points(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb,
                       ledge_manifold *m) {
    ledge_aabb ba = ledge_shape_aabb_fast(a, pa), bb = ledge_shape_aabb_fast(b, pb);
    bool along_x = m->normal.y == 0.0f;
    int k = along_x ? 0 : 1; // the normal's axis
    float face_a = m->normal.raw[k] > 0.0f ? ba.upper.raw[k] : ba.lower.raw[k];
    float face_b = m->normal.raw[k] > 0.0f ? bb.lower.raw[k] : bb.upper.raw[k];
    float mid = 0.5f * (face_a + face_b);
    float lo = maxf(ba.lower.raw[1 - k], bb.lower.raw[1 - k]);
    float hi = minf(ba.upper.raw[1 - k], bb.upper.raw[1 - k]);
    m->points[0].raw[k] = mid;
    m->points[0].raw[1 - k] = lo;
    m->points[1].raw[k] = mid;
    m->points[1].raw[1 - k] = hi;
    m->point_count = hi > lo ? 2 : 1;
}

// Clips the incident face against the reference face's side planes and
// keeps the points below the reference face, reported midway between the
// two surfaces. The incident face is the one at the incident shape's
// support vertex that faces the reference face most squarely.
static void polygon_points(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb,
                           const face_hit *fh, ledge_manifold *m) {
    const ledge_shape *ref = fh->on_b ? b : a, *inc = fh->on_b ? a : b;
    vec2s pref = fh->on_b ? pb : pa, pinc = fh->on_b ? pa : pb;
    vec2s rn = ref->normals[fh->face];
    float unused;
    int s = fh->support >= 0 ? fh->support : support_min_scan(inc, rn, &unused);
    int prev = s == 0 ? inc->count - 1 : s - 1;
    int fi = v2_dot(inc->normals[s], rn) <= v2_dot(inc->normals[prev], rn) ? s : prev;
    vec2s r1 = v2_add(ref->vertices[fh->face], pref);
    vec2s r2 = v2_add(ref->vertices[next_index(fh->face, ref->count)], pref);
    vec2s i1 = v2_add(inc->vertices[fi], pinc);
    vec2s i2 = v2_add(inc->vertices[next_index(fi, inc->count)], pinc);
    vec2s t = v2(-rn.y, rn.x); // along the reference face, r1 -> r2
    float s1 = v2_dot(t, i1), s2 = v2_dot(t, i2), lo = v2_dot(t, r1), hi = v2_dot(t, r2);
    vec2s c[2] = {i1, i2};
    float sc[2] = {s1, s2};
    for (int k = 0; k < 2; ++k) {
        float target = sc[k] < lo ? lo : (sc[k] > hi ? hi : sc[k]);
        if (target != sc[k] && s2 != s1) {
            float u = (target - s1) / (s2 - s1);
            c[k] = v2_lerp(i1, i2, u < 0.0f ? 0.0f : (u > 1.0f ? 1.0f : u));
        }
    }
    m->point_count = 0;
    for (int k = 0; k < 2; ++k) {
        float sep = v2_dot(rn, v2_sub(c[k], r1));
        if (sep > 0.0f) continue;
        if (k == 1 && m->point_count == 1 && v2_len2(v2_sub(m->points[0], c[1])) == 0.0f) continue;
        m->points[m->point_count++] = v2_sub(c[k], v2_scale(rn, 0.5f * sep));
    }
    if (m->point_count == 0) { // deep containment with no face overlap
        vec2s deep = v2_add(inc->vertices[s], pinc);
        m->points[0] = v2_add(deep, v2_scale(rn, 0.5f * m->depth));
        m->point_count = 1;
    }
}

// One contact point for pairs involving a circle: the circle's deepest point
// moved halfway back out along the normal.
static void circle_point(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb,
                         ledge_manifold *m) {
    if (b->type == LEDGE_SHAPE_CIRCLE) {
        vec2s deep = v2_sub(v2_add(pb, b->center), v2_scale(m->normal, b->radius));
        m->points[0] = v2_add(deep, v2_scale(m->normal, 0.5f * m->depth));
    } else {
        vec2s deep = v2_add(v2_add(pa, a->center), v2_scale(m->normal, a->radius));
        m->points[0] = v2_sub(deep, v2_scale(m->normal, 0.5f * m->depth));
    }
    m->point_count = 1;
}

// --- dispatch ---------------------------------------------------------------

static sat_result flipped(sat_result r) {
    r.normal = v2_neg(r.normal);
    return r;
}

static sat_result circle_any(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    if (a->type == LEDGE_SHAPE_CIRCLE) {
        if (b->type == LEDGE_SHAPE_CIRCLE) return circle_circle(a, pa, b, pb);
        if (b->type == LEDGE_SHAPE_BOX) return flipped(box_circle(b, pb, a, pa));
        return flipped(polygon_circle(b, pb, a, pa));
    }
    if (a->type == LEDGE_SHAPE_BOX) return box_circle(a, pa, b, pb);
    return polygon_circle(a, pa, b, pb);
}

// Whether face i of ref (at the origin) separates inc (at off), computed
// with exactly face_pass's arithmetic: the same closed form, else the
// smallest of the same vertex projections. face_pass's walk returns one of
// those projections, so its lo is never smaller and (rounding is monotone)
// its depth never larger: a face this calls separating is separating (or an
// earlier face is) in the full test too, so the cache can never answer
// differently from ledge_collide. A NaN depth proves nothing: full test.
static bool face_separates(const ledge_shape *ref, const ledge_shape *inc, vec2s off, int i) {
    vec2s n = ref->normals[i];
    float lo;
    if (!closed_form_min(inc, n, &lo)) support_min_scan(inc, n, &lo);
    float depth = v2_dot(n, ref->vertices[i]) - (lo + v2_dot(off, n));
    return depth <= 0.0f;
}

// The index of the face of s whose stored normal is bit for bit u, or -1.
static int face_with_normal(const ledge_shape *s, vec2s u) {
    for (int i = 0; i < s->count; ++i) {
        if (memcmp(&s->normals[i], &u, sizeof u) == 0) return i;
    }
    return -1;
}

// The cache check for two polygons (boxes count). A polygon pair's miss
// remembers the separating face's own normal, so the check re-runs that one
// face test. An axis along no face of either shape (a cache filled by
// another pair) goes to the full test: testing an arbitrary axis in other
// arithmetic than the full test's can disagree with it when the shapes
// touch to within rounding (two triangles sharing a vertex: the old
// projection test saw a gap where the full test saw a 1.5e-8 overlap).
LEDGE_NOINLINE static bool cached_face_separates(const ledge_shape *a, vec2s pa,
                                                 const ledge_shape *b, vec2s pb, vec2s u) {
    vec2s d = v2_sub(pb, pa);
    int fa = face_with_normal(a, u);
    if (fa >= 0 && face_separates(a, b, d, fa)) return true;
    int fb = face_with_normal(b, u);
    return fb >= 0 && face_separates(b, a, v2_neg(d), fb);
}

// The cache check for a polygon and a circle: the remembered axis is the
// polygon's face normal (negated when the circle is a, as circle_any flips
// it); that face alone is re-tested exactly as polygon_circle's loop does,
// which returns a miss at the first face farther than the radius. Any other
// axis (a Voronoi direction, another pair's) goes to the full test.
LEDGE_NOINLINE static bool cached_face_separates_circle(const ledge_shape *a, vec2s pa,
                                                        const ledge_shape *b, vec2s pb, vec2s u) {
    bool circle_a = a->type == LEDGE_SHAPE_CIRCLE;
    const ledge_shape *poly = circle_a ? b : a, *circle = circle_a ? a : b;
    vec2s ppoly = circle_a ? pb : pa, pcircle = circle_a ? pa : pb;
    int i = face_with_normal(poly, circle_a ? v2_neg(u) : u);
    if (i < 0) return false;
    vec2s c = v2_sub(v2_add(pcircle, circle->center), ppoly);
    return v2_dot(poly->normals[i], v2_sub(c, poly->vertices[i])) > circle->radius;
}

// Kept out of line so that the hot path carries no logging code.
LEDGE_NOINLINE static void refuse(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    if (!ledge__shape_type_ok(a) || !ledge__shape_type_ok(b)) {
        LEDGE_ERROR("ledge_collide: shape %s is NULL or invalid",
                    ledge__shape_type_ok(a) ? "b" : "a");
    } else {
        LEDGE_ERROR("ledge_collide: pos_a (%g, %g) or pos_b (%g, %g) is not finite", (double)pa.x,
                    (double)pa.y, (double)pb.x, (double)pb.y);
    }
}

// The separating axis is kept as the test gave it (not renormalized): a
// face's stored normal, which the cache checks find again bit for bit.
static inline void remember(ledge_sat_cache *cache, sat_result r) {
    if (cache) {
        cache->valid = !r.hit;
        cache->axis = r.hit ? v2(0.0f, 0.0f) : r.normal;
    }
}

static inline void fill(ledge_manifold *m, sat_result r) {
    m->hit = true;
    m->normal = r.normal;
    m->depth = r.depth;
}

static inline ledge_manifold empty_manifold(void) {
    ledge_manifold m;
    memset(&m, 0, sizeof m);
    return m;
}

// The two cheapest pair kinds (circle-circle, box-box) are tested inline;
// the rest live out of line so that their register pressure does not make
// every call pay a large prologue.

LEDGE_NOINLINE static void collide_circle_other(const ledge_shape *a, vec2s pa,
                                                const ledge_shape *b, vec2s pb,
                                                ledge_sat_cache *cache, ledge_manifold *m) {
    sat_result r = circle_any(a, pa, b, pb);
    r.hit = r.hit && r.depth > 0.0f; // see ledge_collide_cached
    remember(cache, r);
    if (r.hit) {
        fill(m, r);
        circle_point(a, pa, b, pb, m);
    }
}

LEDGE_NOINLINE static void collide_polygons(const ledge_shape *a, vec2s pa, const ledge_shape *b,
                                            vec2s pb, ledge_sat_cache *cache, ledge_manifold *m) {
    face_hit fh;
    sat_result r = polygon_polygon(a, pa, b, pb, &fh);
    remember(cache, r);
    if (r.hit) {
        fill(m, r);
        polygon_points(a, pa, b, pb, &fh, m);
    }
}

// Both public entry points share this body. (A call from ledge_collide to
// the exported ledge_collide_cached would not be inlined: under -fPIC the
// compiler must assume another library could interpose it.)
static inline ledge_manifold collide(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb,
                                     ledge_sat_cache *cache) {
    ledge_manifold m = empty_manifold();
    if (LEDGE_UNLIKELY(!ledge__shape_type_ok(a) || !ledge__shape_type_ok(b) ||
                       !ledge__finite4(pa.x, pa.y, pb.x, pb.y))) {
        refuse(a, pa, b, pb);
        return m;
    }
    // Circle-circle, box-box and box-circle tests cost less than a cache
    // check: the cache serves polygon pairs only (a box with a polygon
    // counts as one).
    bool circle_a = a->type == LEDGE_SHAPE_CIRCLE, circle_b = b->type == LEDGE_SHAPE_CIRCLE;
    bool box_circle_pair =
        (circle_a && b->type == LEDGE_SHAPE_BOX) || (circle_b && a->type == LEDGE_SHAPE_BOX);
    bool cheap = (a->type == b->type && a->type != LEDGE_SHAPE_POLYGON) || box_circle_pair;
    if (cheap) {
        cache = NULL;
    } else if (cache && cache->valid) {
        bool apart = circle_a || circle_b ? cached_face_separates_circle(a, pa, b, pb, cache->axis)
                                          : cached_face_separates(a, pa, b, pb, cache->axis);
        if (apart) {
            cache->early_outs++;
            return m;
        }
    }
    sat_result r;
    if (a->type == LEDGE_SHAPE_CIRCLE && b->type == LEDGE_SHAPE_CIRCLE) {
        r = circle_circle(a, pa, b, pb);
        // sqrt may round a distance just under the radii's sum up to it:
        // no depth, no hit.
        r.hit = r.hit && r.depth > 0.0f;
    } else if (a->type == LEDGE_SHAPE_BOX && b->type == LEDGE_SHAPE_BOX) {
        r = box_box(a, pa, b, pb);
    } else if (a->type == LEDGE_SHAPE_CIRCLE || b->type == LEDGE_SHAPE_CIRCLE) {
        collide_circle_other(a, pa, b, pb, cache, &m);
        return m;
    } else {
        collide_polygons(a, pa, b, pb, cache, &m);
        return m;
    }
    remember(cache, r);
    if (r.hit) {
        fill(&m, r);
        if (a->type == LEDGE_SHAPE_BOX) {
            box_points(a, pa, b, pb, &m);
        } else {
            circle_point(a, pa, b, pb, &m);
        }
    }
    return m;
}

ledge_manifold ledge_collide_cached(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb,
                                    ledge_sat_cache *cache) {
    return collide(a, pa, b, pb, cache);
}

ledge_manifold ledge_collide(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    return collide(a, pa, b, pb, NULL);
}
