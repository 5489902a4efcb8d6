// The world queries' part about chains (chain_query.h). Each walks the
// chains' trees with the box the query reaches and tests the segments it
// meets in the chain's own frame; ties go to the lower chain slot, then
// the lower segment, so the trees' order never shows.
#include "chain_query.h"

#include "distance.h"
#include "shape.h"

#include <string.h>

// Whether hit (t, chain, segment) comes before (bt, bc, bs).
static inline bool earlier(float t, int chain, int segment, float bt, int bc, int bs) {
    return t < bt || (t == bt && (chain < bc || (chain == bc && segment < bs)));
}

static ledge_aabb span(vec2s a, vec2s b) {
    ledge_aabb box = {v2(minf(a.x, b.x), minf(a.y, b.y)), v2(maxf(a.x, b.x), maxf(a.y, b.y))};
    return box;
}

bool ledge__chains_raycast(const ledge_world *w, vec2s o, vec2s d, const ledge_query_filter *f,
                           float best, ledge__chain_hit *out) {
    const ledge__chains *cs = w->chains;
    if (cs == NULL || cs->live == 0 || !f->include_chains) return false;
    ledge__chain_walk walk;
    ledge__chain_walk_begin(&walk, cs, span(o, v2_add(o, d)));
    int chain, segment, bc = INT32_MAX, bs = INT32_MAX;
    bool found = false;
    while (ledge__chain_walk_next(&walk, &chain, &segment)) {
        const ledge__chain *c = &cs->c[chain];
        if (!ledge__filter_sees_chain(f, c)) continue;
        ledge_ray_hit h;
        if (!ledge__segment_raycast(&c->segments[segment], v2_sub(o, c->position), d, &h)) continue;
        if (!(h.fraction <= best) || !earlier(h.fraction, chain, segment, best, bc, bs)) continue;
        best = h.fraction;
        bc = chain;
        bs = segment;
        out->chain = chain;
        out->segment = segment;
        out->fraction = h.fraction;
        out->point = v2_add(h.point, c->position);
        out->normal = h.normal;
        found = true;
    }
    return found;
}

int ledge__chains_raycast_all(ledge_world *w, vec2s o, vec2s d, const ledge_query_filter *f,
                              const char *fn) {
    ledge__chains *cs = w->chains;
    if (cs == NULL || cs->live == 0 || !f->include_chains) return 0;
    if (cs->hit_cap < cs->count) {
        ledge__chain_hit *hits = ledge__alloc(sizeof *hits * (size_t)cs->cap);
        if (hits == NULL) {
            LEDGE_ERROR("%s: allocation of the chains' hits failed", fn);
            return -1;
        }
        ledge__free(cs->hits);
        cs->hits = hits;
        cs->hit_cap = cs->cap;
    }
    ledge_aabb box = span(o, v2_add(o, d));
    int n = 0;
    for (int s = 0; s < cs->count; ++s) {
        const ledge__chain *c = &cs->c[s];
        if (!c->alive || !ledge__filter_sees_chain(f, c) ||
            !ledge__aabb_meet(ledge__chain_box(c), box)) {
            continue;
        }
        ledge_aabb local = {v2_sub(box.lower, c->position), v2_sub(box.upper, c->position)};
        ledge__bvh_iter it;
        ledge__bvh_begin(&it, &c->tree, local);
        ledge__chain_hit *h = &cs->hits[n];
        h->fraction = INFINITY;
        for (int k; (k = ledge__bvh_next(&it)) >= 0;) {
            ledge_ray_hit r;
            if (!ledge__segment_raycast(&c->segments[k], v2_sub(o, c->position), d, &r) ||
                !(r.fraction < h->fraction)) {
                continue;
            }
            h->chain = s;
            h->segment = k;
            h->fraction = r.fraction;
            h->point = v2_add(r.point, c->position);
            h->normal = r.normal;
        }
        if (h->fraction <= 1.0f) ++n;
    }
    return n;
}

bool ledge__chains_shape_cast(const ledge_world *w, const ledge_shape *shape, vec2s pos, vec2s d,
                              const ledge_query_filter *f, float best, ledge__chain_hit *out) {
    const ledge__chains *cs = w->chains;
    if (cs == NULL || cs->live == 0 || !f->include_chains) return false;
    ledge_aabb a = ledge_shape_aabb_fast(shape, pos),
               b = ledge_shape_aabb_fast(shape, v2_add(pos, d));
    ledge__chain_walk walk;
    ledge__chain_walk_begin(&walk, cs, ledge__aabb_union(a, b));
    int chain, segment, bc = INT32_MAX, bs = INT32_MAX;
    bool found = false;
    while (ledge__chain_walk_next(&walk, &chain, &segment)) {
        const ledge__chain *c = &cs->c[chain];
        if (!ledge__filter_sees_chain(f, c)) continue;
        ledge_toi toi;
        if (!ledge__segment_sweep(&c->segments[segment], shape, v2_sub(pos, c->position), d, &toi))
            continue;
        if (!(toi.fraction <= best) || !earlier(toi.fraction, chain, segment, best, bc, bs))
            continue;
        best = toi.fraction;
        bc = chain;
        bs = segment;
        out->chain = chain;
        out->segment = segment;
        out->fraction = toi.fraction;
        out->point = v2_add(toi.point, c->position);
        out->normal = toi.normal;
        found = true;
    }
    return found;
}

bool ledge__chains_nearest(const ledge_world *w, const ledge_shape *shape, vec2s pos,
                           float max_distance, const ledge_query_filter *f, float best,
                           int *chain_out, int *segment_out, ledge_distance_result *out) {
    const ledge__chains *cs = w->chains;
    if (cs == NULL || cs->live == 0 || !f->include_chains) return false;
    ledge_aabb box = ledge_shape_aabb_fast(shape, pos); // also the point shape
    box.lower = v2(box.lower.x - max_distance, box.lower.y - max_distance);
    box.upper = v2(box.upper.x + max_distance, box.upper.y + max_distance);
    ledge__chain_walk walk;
    ledge__chain_walk_begin(&walk, cs, box);
    int chain, segment, bc = INT32_MAX, bs = INT32_MAX;
    bool found = false;
    while (ledge__chain_walk_next(&walk, &chain, &segment)) {
        const ledge__chain *c = &cs->c[chain];
        if (!ledge__filter_sees_chain(f, c)) continue;
        ledge_distance_result r =
            ledge__segment_distance(&c->segments[segment], shape, v2_sub(pos, c->position));
        if (!(r.distance <= max_distance) || !(r.distance <= best) ||
            !earlier(r.distance, chain, segment, best, bc, bs)) {
            continue;
        }
        best = r.distance;
        bc = chain;
        bs = segment;
        r.point_a = v2_add(r.point_a, c->position);
        r.point_b = v2_add(r.point_b, c->position);
        *out = r;
        *chain_out = chain;
        *segment_out = segment;
        found = true;
    }
    return found;
}

// The sign of the orientation of (a, b, p) in double.
static int orient(vec2s a, vec2s b, vec2s p) {
    double v =
        ((double)b.x - a.x) * ((double)p.y - a.y) - ((double)b.y - a.y) * ((double)p.x - a.x);
    return (v > 0.0) - (v < 0.0);
}

bool ledge__chain_holds(const ledge__chain *c, vec2s p) {
    if (!c->loop) return false;
    vec2s q = v2_sub(p, c->position);
    bool inside = false;
    for (int k = 0; k < c->segment_count; ++k) {
        vec2s a = c->segments[k].p, b = c->segments[k].q;
        if (orient(a, b, q) == 0 && minf(a.x, b.x) <= q.x && q.x <= maxf(a.x, b.x) &&
            minf(a.y, b.y) <= q.y && q.y <= maxf(a.y, b.y)) {
            return true; // on the chain
        }
        if ((a.y > q.y) != (b.y > q.y)) {
            // Crossing to the right of q: the orientation's sign, by the
            // segment's direction in y (no division).
            int o = orient(a, b, q);
            if ((b.y > a.y) ? o > 0 : o < 0) inside = !inside;
        }
    }
    return c->ccw ? inside : !inside;
}

bool ledge__chain_segment_meets(const ledge__chain *c, int segment, ledge_aabb box) {
    const ledge__segment *s = &c->segments[segment];
    vec2s a = v2_add(s->p, c->position), b = v2_add(s->q, c->position);
    if (!ledge__aabb_meet(span(a, b), box)) return false;
    // The box's corners all on one side of the segment's line: apart.
    vec2s corner[4] = {
        box.lower, {{box.upper.x, box.lower.y}}, box.upper, {{box.lower.x, box.upper.y}}};
    int pos = 0, neg = 0;
    for (int k = 0; k < 4; ++k) {
        int o = orient(a, b, corner[k]);
        pos += o > 0;
        neg += o < 0;
    }
    return pos < 4 && neg < 4;
}
