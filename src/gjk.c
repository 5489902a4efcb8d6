// GJK on two convex vertex sets (gjk.h), following Box2D's b2Distance
// (Gilbert, Johnson, Keerthi with Voronoi region solvers): the simplex of
// Minkowski-difference vertices w = b - a closest to the origin is refined
// by support points until a support point repeats. Each later support
// point is found by climbing from the last one (2 to 4 vertices read
// instead of all).
#include "gjk.h"

/// GJK never needs more steps than this for 8-vertex polygons (each step
/// strictly lowers the distance); the cap only guards against rounding
/// cycles.
#define GJK_MAX_ITERATIONS 24

typedef struct gjk_vertex {
    vec2s wa, wb, w; // support points of a and b, and w = wb - wa
    float a;         // barycentric weight
    int ia, ib;      // their vertex indices
} gjk_vertex;

static int support(const vec2s *v, int n, vec2s d) {
    int best = 0;
    float bv = v2_dot(v[0], d);
    for (int i = 1; i < n; ++i) {
        float x = v2_dot(v[i], d);
        best = x > bv ? i : best;
        bv = x > bv ? x : bv;
    }
    return best;
}

// The support vertex of v[0..n) along d found by climbing from vertex i:
// on a convex polygon the projections rise to one maximum and fall, so
// walking toward the larger neighbour ends there. From the last support
// vertex GJK's next one is seldom more than a step away, so this reads 2
// to 4 vertices instead of all of them. (Where rounding makes a
// projection flat, the walk may stop one vertex early, at a projection
// equal to the maximum within that rounding.)
static int climb(const vec2s *v, int n, vec2s d, int i) {
    float x = v2_dot(v[i], d);
    int j = i + 1 == n ? 0 : i + 1;
    float y = v2_dot(v[j], d);
    if (y > x) {
        do {
            i = j;
            x = y;
            j = i + 1 == n ? 0 : i + 1;
            y = v2_dot(v[j], d);
        } while (y > x);
        return i;
    }
    j = i == 0 ? n - 1 : i - 1;
    y = v2_dot(v[j], d);
    while (y > x) {
        i = j;
        x = y;
        j = i == 0 ? n - 1 : i - 1;
        y = v2_dot(v[j], d);
    }
    return i;
}

static void set_vertex(gjk_vertex *s, const ledge__gjk_pair *p, int ia, int ib) {
    s->ia = ia;
    s->ib = ib;
    s->wa = p->va[ia];
    s->wb = v2_add(p->vb[ib], p->off);
    s->w = v2_sub(s->wb, s->wa);
    s->a = 1.0f;
}

// The weights of the closest point to the origin inside the segment x-y,
// from its two unnormalised parts (each the other end's projection).
static void segment_weights(gjk_vertex *x, gjk_vertex *y, float dx, float dy) {
    float inv = 1.0f / (dx + dy);
    x->a = dx * inv;
    y->a = dy * inv;
}

// Closest point of segment w1-w2 to the origin, as barycentric weights.
static int solve2(gjk_vertex *s) {
    vec2s w1 = s[0].w, w2 = s[1].w, e12 = v2_sub(w2, w1);
    float d12_2 = -v2_dot(w1, e12);
    if (d12_2 <= 0.0f) { // w1 region
        s[0].a = 1.0f;
        return 1;
    }
    float d12_1 = v2_dot(w2, e12);
    if (d12_1 <= 0.0f) { // w2 region
        s[0] = s[1];
        s[0].a = 1.0f;
        return 1;
    }
    segment_weights(&s[0], &s[1], d12_1, d12_2);
    return 2;
}

// Closest point of triangle w1-w2-w3 to the origin: the Voronoi region of a
// vertex, an edge, or the inside (3: the origin is enclosed).
static int solve3(gjk_vertex *s) {
    vec2s w1 = s[0].w, w2 = s[1].w, w3 = s[2].w;
    vec2s e12 = v2_sub(w2, w1), e13 = v2_sub(w3, w1), e23 = v2_sub(w3, w2);
    float d12_1 = v2_dot(w2, e12), d12_2 = -v2_dot(w1, e12);
    float d13_1 = v2_dot(w3, e13), d13_2 = -v2_dot(w1, e13);
    float d23_1 = v2_dot(w3, e23), d23_2 = -v2_dot(w2, e23);
    float n123 = v2_cross(e12, e13);
    float d123_1 = n123 * v2_cross(w2, w3);
    float d123_2 = n123 * v2_cross(w3, w1);
    float d123_3 = n123 * v2_cross(w1, w2);
    if (d12_2 <= 0.0f && d13_2 <= 0.0f) {
        s[0].a = 1.0f;
        return 1;
    }
    if (d12_1 > 0.0f && d12_2 > 0.0f && d123_3 <= 0.0f) {
        segment_weights(&s[0], &s[1], d12_1, d12_2);
        return 2;
    }
    if (d13_1 > 0.0f && d13_2 > 0.0f && d123_2 <= 0.0f) {
        segment_weights(&s[0], &s[2], d13_1, d13_2);
        s[1] = s[2];
        return 2;
    }
    if (d12_1 <= 0.0f && d23_2 <= 0.0f) {
        s[0] = s[1];
        s[0].a = 1.0f;
        return 1;
    }
    if (d13_1 <= 0.0f && d23_1 <= 0.0f) {
        s[0] = s[2];
        s[0].a = 1.0f;
        return 1;
    }
    if (d23_1 > 0.0f && d23_2 > 0.0f && d123_1 <= 0.0f) {
        segment_weights(&s[1], &s[2], d23_1, d23_2);
        s[0] = s[2];
        return 2;
    }
    float inv = 1.0f / (d123_1 + d123_2 + d123_3);
    s[0].a = d123_1 * inv;
    s[1].a = d123_2 * inv;
    s[2].a = d123_3 * inv;
    return 3;
}

// Toward the origin from the simplex: from a point, straight; from a
// segment, its perpendicular on the origin's side (exact zero when the
// origin lies on its line, which then ends the search).
static vec2s search_direction(const gjk_vertex *s, int n) {
    if (n == 1) return v2_neg(s[0].w);
    vec2s e12 = v2_sub(s[1].w, s[0].w);
    float sgn = v2_cross(e12, v2_neg(s[0].w));
    if (sgn > 0.0f) return v2(-e12.y, e12.x);
    if (sgn < 0.0f) return v2(e12.y, -e12.x);
    return v2(0.0f, 0.0f);
}

int ledge__gjk(const ledge__gjk_pair *p, vec2s *pa, vec2s *pb, int *iters) {
    gjk_vertex s[3];
    int n = 1, it = 0;
    if (p->dir.x != 0.0f || p->dir.y != 0.0f) {
        // Start from the vertices facing each other along the guess: for
        // apart shapes usually one end of the closest features already, so
        // that GJK ends a step or two sooner than from arbitrary vertices.
        set_vertex(&s[0], p, support(p->va, p->na, p->dir), support(p->vb, p->nb, v2_neg(p->dir)));
        it = 1;
    } else {
        set_vertex(&s[0], p, 0, 0);
    }
    while (it < GJK_MAX_ITERATIONS) {
        int save_a[3], save_b[3], save_n = n;
        for (int i = 0; i < n; ++i) {
            save_a[i] = s[i].ia;
            save_b[i] = s[i].ib;
        }
        if (n == 2) n = solve2(s);
        if (n == 3) n = solve3(s);
        if (n == 3) break;
        vec2s d = search_direction(s, n);
        if (d.x == 0.0f && d.y == 0.0f) break; // the origin is on the simplex
        set_vertex(&s[n], p, climb(p->va, p->na, v2_neg(d), s[n - 1].ia),
                   climb(p->vb, p->nb, d, s[n - 1].ib));
        ++it;
        // A repeated support point means no progress: the simplex is final.
        bool repeat = false;
        for (int i = 0; i < save_n; ++i) {
            repeat |= s[n].ia == save_a[i] && s[n].ib == save_b[i];
        }
        if (repeat) break;
        ++n;
    }
    *iters = it;
    vec2s xa = v2(0.0f, 0.0f), xb = v2(0.0f, 0.0f);
    for (int i = 0; i < n; ++i) {
        xa = v2_add(xa, v2_scale(s[i].wa, s[i].a));
        xb = v2_add(xb, v2_scale(s[i].wb, s[i].a));
    }
    *pa = xa;
    *pb = n == 3 ? xa : xb;
    return n;
}
