// Shapes against the round tiles (tile_round.h): CONVEX, the quarter disc
// around R, is convex, so SAT with the arc added as radial axes toward the
// shape's vertices that lie in the arc's quadrant (there the support
// function has its only interior minima). CONCAVE, the cell minus the disc
// around F: circles and boxes are exact (the free region of the circle's
// centre, or of the box's corner nearest R, is known in closed form);
// polygons take the smallest of a set of candidate pushes that are each
// checked to separate. Everything is computed in the (u, v) frame, a
// reflection at worst, so distances and unit vectors carry over unchanged.
#include "tile_round.h"

#include <string.h>

// --- round tiles: the (u, v) frame ----------------------------------------------

// --- CONVEX: the quarter disc {u, v >= 0, |(u, v)| <= s} ----------------------

/// Signed distance from c to the CONVEX solid extruded across the blocked
/// sides (bu: u = 0, bv: v = 0) and the direction as in boxplane_sd. The
/// extruded solid is {(bu or u >= 0), (bv or v >= 0), |(u+, v+)| <= s} with
/// u+ = max(u, 0): the disc swept along the blocked directions.
static float convex_sd(vec2s c, float s, bool bu, bool bv, vec2s *dir) {
    float u = c.x, v = c.y, up = maxf(u, 0.0f), vp = maxf(v, 0.0f);
    float rho = v2_len(v2(up, vp));
    if ((bu || u >= 0.0f) && (bv || v >= 0.0f) && rho <= s) {
        float best;
        vec2s n;
        if (rho > 0.0f) {
            best = s - rho;
            n = v2(up / rho, vp / rho);
        } else if (u >= v) { // in the swept part: out past the far side
            best = s - u;
            n = v2(1.0f, 0.0f);
        } else {
            best = s - v;
            n = v2(0.0f, 1.0f);
        }
        if (!bu && u < best) {
            best = u;
            n = v2(-1.0f, 0.0f);
        }
        if (!bv && v < best) {
            best = v;
            n = v2(0.0f, -1.0f);
        }
        *dir = n;
        return -best;
    }
    // Outside: in the arc's quadrant the nearest point is radial; elsewhere
    // it is the nearest point of the (extruded) box.
    vec2s q = (u >= 0.0f && v >= 0.0f)
                  ? v2_scale(c, s / rho)
                  : v2(tc_clamp(u, bu ? -TC_INF : 0.0f, s), tc_clamp(v, bv ? -TC_INF : 0.0f, s));
    vec2s d = v2_sub(c, q);
    float dist = v2_len(d);
    if (dist > 0.0f) {
        *dir = v2_unit(d, dist);
    } else {
        *dir = (u < 0.0f && !bu)   ? v2(-1.0f, 0.0f)
               : (v < 0.0f && !bv) ? v2(0.0f, -1.0f)
                                   : v2_normalize(c);
    }
    return dist;
}

bool ledge__round_circle_vs_convex(vec2s c, float r, float s, bool bu, bool bv, tc_push *out) {
    vec2s dir;
    float sd = convex_sd(c, s, false, false, &dir);
    if (!(r - sd > 0.0f)) return false;
    if (bu || bv) sd = convex_sd(c, s, bu, bv, &dir);
    *out = tc_no_push();
    tc_consider(out, dir, r - sd, TC_CIRCLE, -1, -1);
    return true;
}

/// Support of the quarter disc along unit d (the extrusion adds nothing
/// along allowed directions).
static inline float convex_support(vec2s d, float s) {
    if (d.x > 0.0f && d.y > 0.0f) return s;
    return s * maxf(0.0f, maxf(d.x, d.y));
}

// Box [ul, uh] x [vl, vh] against CONVEX: the axes, and the arc's axis
// toward the box corner nearest R when that corner lies in the arc's
// quadrant (for a box that corner is the support of every arc direction).
bool ledge__round_box_vs_convex(vec2s bl, vec2s bh, float s, bool bu, bool bv, tc_push *out) {
    float d[4] = {s - bl.x, bh.x, s - bl.y, bh.y};
    static const vec2s dirs[4] = {{{1.0f, 0.0f}}, {{-1.0f, 0.0f}}, {{0.0f, 1.0f}}, {{0.0f, -1.0f}}};
    for (int k = 0; k < 4; ++k) {
        if (!(d[k] > 0.0f)) return false;
    }
    *out = tc_no_push();
    if (bl.x > 0.0f && bl.y > 0.0f) {
        float rho = v2_len(bl);
        if (!(s - rho > 0.0f)) return false;
        tc_consider(out, v2_unit(bl, rho), s - rho, TC_VERTEX, -1, -1);
    }
    for (int k = 0; k < 4; ++k) {
        if (tc_uv_allowed(dirs[k], bu, bv)) tc_consider(out, dirs[k], d[k], TC_SUPPORT, -1, -1);
    }
    return true;
}

// Polygon against CONVEX: the axes (the straight faces and the ends of the
// arc), the polygon's faces reversed, and the radial axis toward every
// vertex in the arc's quadrant. The support function of the Minkowski
// difference has its minima at these directions only (on the arc's range it
// is s - k.d for the supporting vertex k, minimal toward k), so both the
// overlap test and the depth are exact.
bool ledge__round_poly_vs_convex(const tc_poly *p, float s, bool bu, bool bv, tc_push *out) {
    static const vec2s axes[4] = {{{1.0f, 0.0f}}, {{-1.0f, 0.0f}}, {{0.0f, 1.0f}}, {{0.0f, -1.0f}}};
    *out = tc_no_push();
    for (int i = 0; i < 4 + 2 * p->n; ++i) {
        vec2s d;
        tc_contact kind = TC_SUPPORT;
        int k = i - 4 - p->n;
        if (i < 4) {
            d = axes[i];
        } else if (i < 4 + p->n) {
            d = v2_neg(p->nrm[i - 4]);
        } else {
            vec2s q = p->v[k];
            if (!(q.x > 0.0f && q.y > 0.0f)) continue;
            d = v2_unit(q, v2_len(q));
            kind = TC_VERTEX;
        }
        float depth = convex_support(d, s) - tc_poly_min(p, d);
        if (!(depth > 0.0f)) return false;
        if (tc_uv_allowed(d, bu, bv))
            tc_consider(out, d, depth, kind, kind == TC_VERTEX ? k : -1, -1);
    }
    return out->depth < TC_INF;
}

// --- CONCAVE: the cell minus the disc of radius s around F = (s, s) --------------

/// Distance from c to the CONCAVE solid T itself (0 inside).
static float concave_distance(vec2s c, float s) {
    vec2s w = v2(c.x - s, c.y - s);
    float rho = v2_len(w);
    bool in_box = c.x >= 0.0f && c.x <= s && c.y >= 0.0f && c.y <= s;
    if (in_box && rho >= s) return 0.0f;
    // Outside T its nearest point is on a straight side (R-P, R-Q) or on the
    // arc, which is reached radially when c lies in the arc's quadrant of F.
    float dp = v2_len(v2(c.x - tc_clamp(c.x, 0.0f, s), c.y));
    float dq = v2_len(v2(c.x, c.y - tc_clamp(c.y, 0.0f, s)));
    float d = minf(dp, dq);
    if (w.x <= 0.0f && w.y <= 0.0f) d = minf(d, fabsf(rho - s));
    return d;
}

/// Whether the unit direction d from a tip lies in that tip's range on the
/// free region's boundary: `side` >= 0 (d does not point back across the
/// tip's own straight side), `open` >= 0 as well when that side is blocked
/// (the extrusion's wall takes over), and, for r >= s, `cross` >= 0 (d has
/// not passed the corner X where the two tips' circles meet).
static inline bool tip_range(float side, float open, bool blocked, bool x_limits, float cross) {
    const float slack = 1.0e-6f; // rounding at the smooth joins with the next feature
    return side >= -slack && (!blocked || open >= -slack) && (!x_limits || cross >= -slack);
}

// Circle against CONCAVE, exact. The circle's centre must reach the free
// region {p : dist(p, U) >= r}, whose boundary is made of: the straight
// sides pushed out by r (always valid pushes, also far from the side), the
// circle of radius r around R (corner) and around the tips P and Q (each
// over its range of directions), the circle of radius s - r around F (the
// bowl, when r < s), and for r >= s the corner X where the tips' circles
// meet. The smallest distance to a feature in range is the exact MTV.
bool ledge__round_circle_vs_concave(vec2s c, float r, float s, bool bu, bool bv, tc_push *out) {
    if (!(concave_distance(c, s) < r)) return false;
    float u = c.x, v = c.y;
    *out = tc_no_push();
    tc_consider(out, v2(1.0f, 0.0f), s + r - u, TC_CIRCLE, -1, -1);
    tc_consider(out, v2(0.0f, 1.0f), s + r - v, TC_CIRCLE, -1, -1);
    if (!bu) tc_consider(out, v2(-1.0f, 0.0f), u + r, TC_CIRCLE, -1, -1);
    if (!bv) tc_consider(out, v2(0.0f, -1.0f), v + r, TC_CIRCLE, -1, -1);
    float rc = v2_len(c);
    if (!bu && !bv && u <= 0.0f && v <= 0.0f && rc > 0.0f)
        tc_consider(out, v2_unit(c, rc), r - rc, TC_CIRCLE, -1, -1);
    bool big = r >= s;
    float xt = 0.5f * (s + sqrtf(maxf(2.0f * r * r - s * s, 0.0f)));
    vec2s X = v2(xt, xt);
    vec2s dq = v2(u, v - s), dp = v2(u - s, v);
    vec2s xq = v2_normalize(v2_sub(X, v2(0.0f, s))), xp = v2_normalize(v2_sub(X, v2(s, 0.0f)));
    float lq = v2_len(dq), lp = v2_len(dp);
    if (lq > 0.0f) {
        vec2s d = v2_unit(dq, lq);
        if (tip_range(d.y, d.x, bu, big, v2_cross(xq, d)))
            tc_consider(out, d, r - lq, TC_CIRCLE, -1, -1);
    }
    if (lp > 0.0f) {
        vec2s d = v2_unit(dp, lp);
        if (tip_range(d.x, d.y, bv, big, v2_cross(d, xp)))
            tc_consider(out, d, r - lp, TC_CIRCLE, -1, -1);
    }
    if (!big) {
        vec2s w = v2(u - s, v - s);
        float rho = v2_len(w);
        if (w.x <= 0.0f && w.y <= 0.0f && rho > 0.0f)
            tc_consider(out, v2_neg(v2_unit(w, rho)), rho - (s - r), TC_CIRCLE, -1, -1);
    } else {
        vec2s to_x = v2_sub(X, c);
        float lx = v2_len(to_x);
        if (lx > 0.0f) tc_consider(out, v2_unit(to_x, lx), lx, TC_CIRCLE, -1, -1);
    }
    return out->depth > 0.0f && out->depth < TC_INF;
}

// Box [ul, uh] x [vl, vh] against CONCAVE, exact. The box is clear of U
// exactly when it lies beyond one of U's box sides, or when its corner k0
// nearest R lies in K = the disc ∩ {u, v <= s} (then every point of the box
// inside the cell is nearer F than k0). These five sets of translations are
// convex, so the MTV is the nearest of them: four axis pushes and the
// radial push of k0 onto the arc.
bool ledge__round_box_vs_concave(vec2s bl, vec2s bh, float s, bool bu, bool bv, tc_push *out) {
    *out = tc_no_push();
    float d[4] = {s - bl.x, s - bl.y, bh.x, bh.y};
    static const vec2s dirs[4] = {{{1.0f, 0.0f}}, {{0.0f, 1.0f}}, {{-1.0f, 0.0f}}, {{0.0f, -1.0f}}};
    float dk = 0.0f;
    vec2s nk = v2(0.0f, 0.0f);
    if (bl.x < s && bl.y < s) {
        vec2s w = v2(bl.x - s, bl.y - s);
        float rho = v2_len(w);
        dk = rho - s;
        nk = v2_neg(v2_unit(w, rho));
    }
    if (!(d[0] > 0.0f && d[1] > 0.0f && d[2] > 0.0f && d[3] > 0.0f && dk > 0.0f)) return false;
    for (int k = 0; k < 4; ++k) {
        if ((k == 2 && bu) || (k == 3 && bv)) continue;
        tc_consider(out, dirs[k], d[k], TC_SUPPORT, -1, -1);
    }
    tc_consider(out, nk, dk, TC_VERTEX, -1, -1);
    return true;
}

/// Clips polygon `in` (n points) to {p : sign * p[axis] <= sign * at}.
static int clip_axis(const vec2s *in, int n, int axis, float sign, float at, vec2s *out) {
    int m = 0;
    for (int i = 0; i < n; ++i) {
        vec2s a = in[i], b = in[(i + 1) % n];
        float da = sign * (a.raw[axis] - at), db = sign * (b.raw[axis] - at);
        if (da <= 0.0f) out[m++] = a;
        if ((da < 0.0f && db > 0.0f) || (da > 0.0f && db < 0.0f))
            out[m++] = v2_lerp(a, b, da / (da - db));
    }
    return m;
}

/// Whether polygon p moved by t overlaps the CONCAVE solid (extruded across
/// blocked sides) shrunk by `tol`: p ∩ box must stay within the disc of
/// radius s + tol around F, the box being the cell shrunk by tol. With
/// tol = 0 this is the exact overlap test (a positive-area intersection).
static bool concave_overlaps(const tc_poly *p, vec2s t, float s, bool bu, bool bv, float tol) {
    vec2s a[TC_MAXV + 4], b[TC_MAXV + 4];
    int n = p->n;
    for (int i = 0; i < n; ++i) a[i] = v2_add(p->v[i], t);
    n = clip_axis(a, n, 0, 1.0f, s - tol, b);
    n = clip_axis(b, n, 1, 1.0f, s - tol, a);
    if (!bu) n = clip_axis(a, n, 0, -1.0f, tol, b), memcpy(a, b, sizeof(vec2s) * (size_t)n);
    if (!bv) n = clip_axis(a, n, 1, -1.0f, tol, b), memcpy(a, b, sizeof(vec2s) * (size_t)n);
    if (n < 3) return false;
    float area = 0.0f;
    bool outside = false;
    for (int i = 0; i < n; ++i) {
        area += v2_cross(a[i], a[(i + 1) % n]);
        float du = a[i].x - s, dv = a[i].y - s;
        outside |= du * du + dv * dv > (s + tol) * (s + tol);
    }
    return outside && fabsf(area) > 0.0f;
}

/// Whether point q (on the circle around F) lies on the arc: in the cell.
static inline bool on_arc(vec2s q, float s, float slack) {
    return q.x >= -slack && q.y >= -slack && q.x <= s + slack && q.y <= s + slack;
}

/// Whether point q (on the line of face k) lies on the face's segment.
static inline bool on_face(const tc_poly *p, int k, vec2s q, float slack) {
    vec2s a = p->v[k], e = v2_sub(p->v[(k + 1) % p->n], a);
    float along = v2_dot(v2_sub(q, a), e), len2 = v2_len2(e);
    return along >= -slack * sqrtf(len2) && along <= len2 + slack * sqrtf(len2);
}

/// A push into the bowl waiting to be checked: the shape moves by t.
typedef struct tc_cand {
    vec2s t;
    float depth;
    tc_contact kind;
    int a, b;
} tc_cand;

/// Most bowl candidates of an n-gon: n single vertices, 2 per vertex pair,
/// 2 per face (a tip alone), 4 per face and vertex (a tip and a vertex).
#define TC_MAXCAND (TC_MAXV + TC_MAXV * (TC_MAXV - 1) + 2 * TC_MAXV + 4 * TC_MAXV * TC_MAXV)

typedef struct tc_cands {
    int n;
    float bound; ///< Only pushes shorter than this (the best sure push) are kept.
    bool bu, bv;
    tc_cand c[TC_MAXCAND];
} tc_cands;

static void add_cand(tc_cands *cs, vec2s t, tc_contact kind, int a, int b) {
    float depth = v2_len(t);
    if (!(depth > 0.0f) || !(depth < cs->bound)) return;
    if (!tc_uv_allowed(v2_scale(t, 1.0f / depth), cs->bu, cs->bv)) return;
    tc_cand c = {t, depth, kind, a, b};
    cs->c[cs->n++] = c;
}

/// The bowl candidates of polygon p (see poly_vs_concave): each is a true
/// contact configuration (the touching points lie on the arc and on the
/// polygon's faces); whether it separates is checked later.
static void bowl_candidates(const tc_poly *p, float s, tc_cands *cs) {
    vec2s F = v2(s, s), tips[2] = {{{s, 0.0f}}, {{0.0f, s}}};
    float slack = 1.0e-5f * s;
    // A translation putting vertex i on the arc lies on the circle of radius
    // s around F - v_i, so it is at least |F - v_i| - s long: vertices with
    // that bound above the best sure push are skipped early.
    vec2s c[TC_MAXV];
    float reach[TC_MAXV];
    for (int i = 0; i < p->n; ++i) {
        c[i] = v2_sub(F, p->v[i]);
        float rho = v2_len(c[i]);
        reach[i] = rho - s;
        if (c[i].x > 0.0f && c[i].y > 0.0f && rho > s) // one vertex radially onto the arc
            add_cand(cs, v2_scale(c[i], reach[i] / rho), TC_VERTEX, i, -1);
    }
    for (int i = 0; i < p->n; ++i) { // two vertices onto the arc
        for (int j = i + 1; j < p->n; ++j) {
            if (maxf(reach[i], reach[j]) >= cs->bound) continue;
            vec2s e = v2_sub(c[j], c[i]);
            float half = 0.5f * v2_len(e);
            if (!(half > 0.0f) || half > s) continue;
            vec2s mid = v2_scale(v2_add(c[i], c[j]), 0.5f);
            vec2s perp = v2_scale(v2(-e.y, e.x), sqrtf(s * s - half * half) / (2.0f * half));
            for (int sgn = 0; sgn < 2; ++sgn) {
                vec2s t = sgn ? v2_sub(mid, perp) : v2_add(mid, perp);
                if (on_arc(v2_add(p->v[i], t), s, slack) && on_arc(v2_add(p->v[j], t), s, slack))
                    add_cand(cs, t, TC_VERTEX_PAIR, i, j);
            }
        }
    }
    for (int k = 0; k < p->n; ++k) { // a tip onto a face, alone or with a vertex on the arc
        vec2s n = p->nrm[k], tg = v2(-n.y, n.x);
        for (int tip = 0; tip < 2; ++tip) {
            // Moving by t puts the tip on face k's line when n.t = sigma,
            // so |t| >= |sigma|.
            float sigma = v2_dot(n, v2_sub(tips[tip], p->v[k]));
            if (fabsf(sigma) >= cs->bound) continue;
            vec2s t = v2_scale(n, sigma);
            if (sigma < 0.0f && on_face(p, k, v2_sub(tips[tip], t), slack))
                add_cand(cs, t, TC_TIP, -1, tip);
            for (int i = 0; i < p->n; ++i) {
                if (reach[i] >= cs->bound) continue;
                float off = v2_dot(n, c[i]) - sigma;
                if (fabsf(off) > s) continue;
                vec2s foot = v2_sub(c[i], v2_scale(n, off));
                vec2s chord = v2_scale(tg, sqrtf(s * s - off * off));
                for (int sgn = 0; sgn < 2; ++sgn) {
                    t = sgn ? v2_sub(foot, chord) : v2_add(foot, chord);
                    if (on_arc(v2_add(p->v[i], t), s, slack) &&
                        on_face(p, k, v2_sub(tips[tip], t), slack))
                        add_cand(cs, t, TC_VERTEX_TIP, i, tip);
                }
            }
        }
    }
}

// Polygon against CONCAVE. The overlap test is exact (clip to the cell,
// look for a point outside the disc). The push is the smallest of:
//   - SAT pushes against the tile's hull R, P, Q (axes, the polygon's faces
//     reversed): always separating, exact when the polygon rests on a
//     straight side or on a tip from outside the bowl;
//   - pushes into the bowl: one vertex radially onto the arc; two vertices
//     onto the arc at once; a tip onto one of the polygon's faces; and a
//     vertex onto the arc with a tip on a face. They are checked to
//     separate in order of increasing length, the first that does wins
//     (usually the first one tried).
// Approximation: the true MTV may be smaller when the polygon ends up held
// by some other pair of contacts (e.g. a face against each tip); the result
// then is the smallest push of this list, larger than the minimum but
// always separating. The tests measure how rare and small the excess is.
bool ledge__round_poly_vs_concave(const tc_poly *p, float s, bool bu, bool bv, float tol,
                                  tc_push *out) {
    if (!concave_overlaps(p, v2(0.0f, 0.0f), s, false, false, 0.0f)) return false;
    static const vec2s axes[4] = {{{1.0f, 0.0f}}, {{-1.0f, 0.0f}}, {{0.0f, 1.0f}}, {{0.0f, -1.0f}}};
    *out = tc_no_push();
    for (int i = 0; i < 4 + p->n; ++i) {
        vec2s d = i < 4 ? axes[i] : v2_neg(p->nrm[i - 4]);
        float hull = s * maxf(0.0f, maxf(d.x, d.y));
        float depth = hull - tc_poly_min(p, d);
        if (depth > 0.0f && tc_uv_allowed(d, bu, bv))
            tc_consider(out, d, depth, TC_SUPPORT, -1, -1);
    }
    tc_cands cs;
    cs.n = 0;
    cs.bound = out->depth;
    cs.bu = bu;
    cs.bv = bv;
    bowl_candidates(p, s, &cs);
    while (cs.n > 0) {
        int k = 0;
        for (int i = 1; i < cs.n; ++i) k = cs.c[i].depth < cs.c[k].depth ? i : k;
        tc_cand c = cs.c[k];
        cs.c[k] = cs.c[--cs.n];
        if (!concave_overlaps(p, c.t, s, bu, bv, tol)) {
            tc_consider(out, v2_unit(c.t, c.depth), c.depth, c.kind, c.a, c.b);
            break;
        }
    }
    return out->depth < TC_INF;
}
