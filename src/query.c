// World queries (query.h): ray casts, AABB and point queries, shape casts,
// against the tiles, the chains (chain_query.h) and the bodies together.
//
// Bodies are found through the queries' own index (query_index.h), whose
// cells the queries here walk; candidates are marked with a stamp so that
// each is tested once, and results are reported in body index order (or by
// fraction, then index), so the order cells are visited in never shows.
#include "chain_query.h"
#include "query_index.h"
#include "slots.h"
#include "check.h"
#include "world_state.h"

#include "ledge/query.h"
#include "tilemap.h"
#include "tilemap_ray.h"

#include <string.h>

ledge_query_filter ledge_default_query_filter(void) {
    ledge_query_filter f;
    memset(&f, 0, sizeof f);
    f.category = 1u;
    f.mask = ~(uint64_t)0;
    f.include_tiles = true;
    f.include_chains = true;
    return f;
}

// --- shared checks ----------------------------------------------------------

typedef struct query {
    ledge_world *w;
    ledge_query_filter f;
    int ignore; ///< Slot never reported, or -1.
} query;

static bool begin(ledge_world *w, const ledge_query_filter *filter, const char *fn, query *qu) {
    if (!ledge__query_ready(w, fn)) return false;
    qu->w = w;
    qu->f = filter ? *filter : ledge_default_query_filter();
    qu->ignore = -1;
    if (!ledge__check_query_one_way(fn, (int)qu->f.one_way)) return false;
    ledge__chains_sync(w);
    ledge_body_id id = qu->f.ignore;
    if (id.index1 != 0 || id.generation != 0 || id.world != 0) {
        if (!ledge_body_is_valid(w, id)) {
            LEDGE_ERROR("%s: filter->ignore {%u, %u} is not a living body of this world", fn,
                        id.index1, id.generation);
            return false;
        }
        qu->ignore = ledge__slot_of(w, id);
    }
    return ledge__query_refresh(w, fn);
}

static bool sees(const query *qu, int i) {
    const ledge_filter *bf = &qu->w->filter[i];
    return i != qu->ignore && (qu->f.category & bf->mask) != 0 &&
           (bf->category & qu->f.mask) != 0 && ledge__query_within(qu->w->position[i]);
}

static ledge_aabb body_box(const ledge_world *w, int i) {
    ledge_aabb b = ledge__shape_of(w, i)->bounds;
    b.lower = v2_add(b.lower, w->position[i]);
    b.upper = v2_add(b.upper, w->position[i]);
    return b;
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

// --- candidates -------------------------------------------------------------

// Calls visit(qu, slot, data) once per body of this query's stamp whose cell
// the box `b` grown by half a cell (and a rounding margin) reaches.
typedef void visit_fn(query *qu, int slot, void *data);

static void visit_one(query *qu, int i, uint32_t stamp, visit_fn *visit, void *data) {
    ledge__query_index *q = qu->w->query;
    if (q->stamp[i] == stamp) return;
    q->stamp[i] = stamp;
    visit(qu, i, data);
}

// Every grid body: cheaper than the cells when a box spans more cells than
// there are bodies (a query over the whole level).
static void visit_all(query *qu, uint32_t stamp, visit_fn *visit, void *data) {
    const ledge__query_index *q = qu->w->query;
    for (int i = 0; i < qu->w->slot_count; ++i) {
        if (q->where[i] == IN_GRID) visit_one(qu, i, stamp, visit, data);
    }
}

static void visit_level(query *qu, int li, ledge_aabb b, uint32_t stamp, visit_fn *visit,
                        void *data) {
    const ledge__query_index *q = qu->w->query;
    int x0, x1, y0, y1,
        how = ledge__query_level_range(q, li, b, ledge__query_box_scale(b), &x0, &x1, &y0, &y1);
    if (how == 0) return;
    if (how == 2) {
        visit_all(qu, stamp, visit, data);
        return;
    }
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            for (int i = q->head[ledge__query_bucket(q, li, x, y)]; i >= 0; i = q->node[i].next) {
                const qnode *n = &q->node[i];
                if (n->cx == x && n->cy == y && n->lvl == li) visit_one(qu, i, stamp, visit, data);
            }
        }
    }
}

// Calls visit(qu, slot, data) once per body of this query's stamp whose cell
// the box `b` grown by half a cell (and a rounding margin) reaches, level by
// level.
static void visit_cells(query *qu, ledge_aabb b, uint32_t stamp, visit_fn *visit, void *data) {
    const ledge__query_index *q = qu->w->query;
    for (uint32_t left = q->used; left != 0; left &= left - 1) {
        visit_level(qu, ledge__query_lowest_bit(left), b, stamp, visit, data);
    }
}

static void visit_big(query *qu, uint32_t stamp, visit_fn *visit, void *data) {
    ledge__query_index *q = qu->w->query;
    for (int k = 0; k < q->big_count; ++k) visit_one(qu, q->big[k], stamp, visit, data);
}

static void collect_overlap(query *qu, int i, void *data) {
    const ledge_aabb *box = data;
    // The box first: it is cheaper, and rejects most candidates.
    if (ledge__query_boxes_overlap(body_box(qu->w, i), *box) && sees(qu, i)) {
        qu->w->query->found[qu->w->query->found_count++] = i;
    }
}

// The bodies the filter sees whose boxes overlap `box`, in the order the
// cells hold them (which shows the slots' order by space), into q->found.
static void find_overlaps_unordered(query *qu, ledge_aabb box) {
    ledge__query_index *q = qu->w->query;
    q->found_count = 0;
    uint32_t stamp = ledge__query_next_stamp(q);
    visit_cells(qu, box, stamp, collect_overlap, &box);
    visit_big(qu, stamp, collect_overlap, &box);
}

// The bodies the filter sees whose boxes overlap `box`, sorted by id
// (handle: the slots' order by space must not show), into q->found.
static void find_overlaps(query *qu, ledge_aabb box) {
    find_overlaps_unordered(qu, box);
    ledge__query_index *q = qu->w->query;
    const ledge_world *w = qu->w;
    for (int k = 0; k < q->found_count; ++k) q->found[k] = w->handle[q->found[k]];
    qsort(q->found, (size_t)q->found_count, sizeof(int), cmp_int);
    for (int k = 0; k < q->found_count; ++k) q->found[k] = w->slot_of[q->found[k]];
}

static bool check_fn(const char *fn, bool present) {
    if (present) return true;
    LEDGE_ERROR("%s: callback is NULL", fn);
    return false;
}

// --- AABB and point queries -------------------------------------------------

int ledge_world_query_aabb(ledge_world *world, ledge_aabb aabb, const ledge_query_filter *filter,
                           ledge_body_query_fn *fn, void *context) {
    const char *name = "ledge_world_query_aabb";
    query qu;
    if (!check_fn(name, fn != NULL) || !ledge__query_check_box(name, aabb) ||
        !begin(world, filter, name, &qu)) {
        return -1;
    }
    find_overlaps(&qu, aabb);
    ledge__query_index *q = world->query;
    int n = 0;
    for (int k = 0; k < q->found_count; ++k) {
        ++n;
        if (!fn(ledge__body_id(world, q->found[k]), context)) break;
    }
    return n;
}

int ledge_world_query_point(ledge_world *world, vec2s point, const ledge_query_filter *filter,
                            ledge_body_query_fn *fn, void *context) {
    const char *name = "ledge_world_query_point";
    query qu;
    if (!check_fn(name, fn != NULL) ||
        !ledge__check_vec(name, "point", point, LEDGE_MAX_COORDINATE) ||
        !begin(world, filter, name, &qu)) {
        return -1;
    }
    ledge_aabb box = {point, point};
    find_overlaps(&qu, box);
    ledge__query_index *q = world->query;
    int n = 0;
    for (int k = 0; k < q->found_count; ++k) {
        int i = q->found[k];
        if (!ledge_shape_contains(ledge__shape_of(world, i), world->position[i], point)) continue;
        ++n;
        if (!fn(ledge__body_id(world, i), context)) break;
    }
    return n;
}

// --- ray casts --------------------------------------------------------------

static void no_hit(ledge_raycast_result *out) {
    if (out == NULL) return;
    memset(out, 0, sizeof *out);
    out->kind = LEDGE_HIT_NONE;
    out->fraction = 1.0f;
}

static bool check_ray(const char *fn, vec2s origin, vec2s translation) {
    return ledge__check_vec(fn, "origin", origin, LEDGE_MAX_COORDINATE) &&
           ledge__check_vec(fn, "translation", translation, 2.0f * LEDGE_MAX_COORDINATE);
}

// The closest of two hits: smaller fraction, then by key: tiles first,
// chains by slot, then bodies by handle (an id's index1 - 1;
// chain_query.h): never a body's slot, which the order by space changes
// (order.c).
static bool before(float fa, int sa, float fb, int sb) {
    return fa < fb || (fa == fb && sa < sb);
}

typedef struct ray {
    vec2s o, d;
    bool all;                  ///< Collect every hit (raycast_all) rather than the closest.
    float best;                ///< Closest fraction so far (closest mode).
    int best_slot;             ///< Its key (chain_query.h: tile, chain, body handle).
    ledge_raycast_result *out; ///< The closest hit (closest mode).
    int count;                 ///< Hits collected (all mode).
} ray;

static void fill_body(const ledge_world *w, int i, const ledge_ray_hit *h,
                      ledge_raycast_result *r) {
    memset(r, 0, sizeof *r);
    r->kind = LEDGE_HIT_BODY;
    r->body = ledge__body_id(w, i);
    r->point = h->point;
    r->normal = h->normal;
    r->fraction = h->fraction;
}

// --- one-way platforms in the casts ----------------------------------------------

// The twice the linear slop a body rests in a platform by: a cast that
// starts that close behind a one-way surface is on it (query.h).
static float one_way_reach(const ledge_world *w) {
    return 2.0f * w->slop;
}

static vec2s one_way_dir(const ledge_world *w, int i) {
    return ledge_one_way_direction((ledge_one_way)w->one_way[i]);
}

// Whether the ray's hit `h` on one-way body i counts under the filter's rule
// (not ALWAYS): entering through a surface facing the allowed side, or
// starting within the reach behind one (then `h` takes its normal).
LEDGE_NOINLINE static bool ray_one_way_counts(const query *qu, int i, vec2s o, vec2s d,
                                              ledge_ray_hit *h) {
    if (qu->f.one_way == LEDGE_QUERY_ONE_WAY_NEVER) return false;
    vec2s dir = one_way_dir(qu->w, i);
    if (h->fraction > 0.0f) return v2_dot(h->normal, dir) >= 0.5f;
    float len = v2_len(d);
    if (!(len > 0.0f)) return false; // no direction to come from
    vec2s back = v2_scale(d, one_way_reach(qu->w) / len);
    ledge_ray_hit b;
    // (A little past the origin, so that a start on the surface is met whatever the rounding:
    // the origin lies in the body, h says.)
    if (!ledge_shape_raycast(ledge__shape_of(qu->w, i), qu->w->position[i], v2_sub(o, back),
                             v2_scale(back, 1.001f), &b) ||
        !(b.fraction > 0.0f) || v2_dot(b.normal, dir) < 0.5f) {
        return false;
    }
    h->normal = b.normal;
    return true;
}

// Whether a shape cast's time of impact (t, normal from the obstacle toward
// the shape) on a one-way obstacle of direction `dir` counts; `start` is the
// contact at t = 0 (an overlap there: its depth and normal decide, as for a
// body the step lets through unless it is within the reach).
static bool cast_one_way_counts(int rule, vec2s dir, float reach, float t, vec2s *normal,
                                const ledge_manifold *start) {
    if (rule == LEDGE_QUERY_ONE_WAY_NEVER) return false;
    if (t > 0.0f || !start->hit) return v2_dot(*normal, dir) >= 0.5f;
    if (start->depth > reach || v2_dot(start->normal, dir) < 0.5f) return false;
    *normal = start->normal;
    return true;
}

static void ray_body(query *qu, int i, void *data) {
    ray *r = data;
    if (!sees(qu, i)) return;
    ledge_ray_hit h;
    if (!ledge_shape_raycast(ledge__shape_of(qu->w, i), qu->w->position[i], r->o, r->d, &h)) return;
    if (LEDGE_UNLIKELY(qu->w->one_way[i] != LEDGE_ONE_WAY_NONE) &&
        qu->f.one_way != LEDGE_QUERY_ONE_WAY_ALWAYS && !ray_one_way_counts(qu, i, r->o, r->d, &h)) {
        return;
    }
    if (r->all) {
        ledge__query_index *q = qu->w->query;
        fill_body(qu->w, i, &h, &q->hits[r->count]);
        q->hit_slot[r->count++] = qu->w->handle[i];
    } else if (before(h.fraction, qu->w->handle[i], r->best, r->best_slot)) {
        r->best = h.fraction;
        r->best_slot = qu->w->handle[i];
        fill_body(qu->w, i, &h, r->out);
    }
}

// The parameter interval [*t0, *t1] of the segment inside the box, or false.
static bool clip_segment(vec2s o, vec2s d, ledge_aabb b, float *t0, float *t1) {
    float lo = 0.0f, hi = 1.0f;
    const float oo[2] = {o.x, o.y}, dd[2] = {d.x, d.y};
    const float bl[2] = {b.lower.x, b.lower.y}, bu[2] = {b.upper.x, b.upper.y};
    for (int k = 0; k < 2; ++k) {
        if (dd[k] == 0.0f) {
            if (oo[k] < bl[k] || oo[k] > bu[k]) return false;
            continue;
        }
        float ta = (bl[k] - oo[k]) / dd[k], tb = (bu[k] - oo[k]) / dd[k];
        if (ta > tb) {
            float t = ta;
            ta = tb;
            tb = t;
        }
        lo = maxf(lo, ta);
        hi = minf(hi, tb);
    }
    *t0 = lo;
    *t1 = hi;
    return lo <= hi;
}

// The grid bodies near the segment, walked in pieces no longer than half a
// cell along either axis: each piece's box grown by half a cell reaches
// every body that the piece can hit, and in closest mode the walk stops at
// the first piece that starts beyond the best hit so far.
static void ray_level(query *qu, int li, ray *r, uint32_t stamp) {
    const ledge__query_index *q = qu->w->query;
    const level *l = &q->lv[li];
    float c = l->cell;
    ledge_aabb area = {v2(((float)l->x0 - 1.0f) * c, ((float)l->y0 - 1.0f) * c),
                       v2(((float)l->x1 + 2.0f) * c, ((float)l->y1 + 2.0f) * c)};
    float t0, t1;
    if (!clip_segment(r->o, r->d, area, &t0, &t1)) return;
    float span = maxf(fabsf(r->d.x), fabsf(r->d.y)) * (t1 - t0) * l->inv_cell * 2.0f;
    if (span > (float)q->filed) {
        visit_all(qu, stamp, ray_body, r); // a ray longer than the bodies are many
        return;
    }
    int pieces = span < 1.0f ? 1 : (int)ceilf(span);
    for (int k = 0; k < pieces; ++k) {
        float ta = t0 + (t1 - t0) * (float)k / (float)pieces;
        float tb = k + 1 == pieces ? t1 : t0 + (t1 - t0) * (float)(k + 1) / (float)pieces;
        if (!r->all && ta > r->best) return;
        vec2s a = v2_add(r->o, v2_scale(r->d, ta)), b = v2_add(r->o, v2_scale(r->d, tb));
        ledge_aabb box = {v2(minf(a.x, b.x), minf(a.y, b.y)), v2(maxf(a.x, b.x), maxf(a.y, b.y))};
        visit_level(qu, li, box, stamp, ray_body, r);
    }
}

static void ray_grid(query *qu, ray *r, uint32_t stamp) {
    const ledge__query_index *q = qu->w->query;
    for (int li = 0; li < LEVELS; ++li) {
        if (q->lv[li].filed > 0) ray_level(qu, li, r, stamp);
    }
}

static void fill_chain(const ledge_world *w, const ledge__chain_hit *h, ledge_raycast_result *r) {
    memset(r, 0, sizeof *r);
    r->kind = LEDGE_HIT_CHAIN;
    r->chain = ledge__chain_id(w, h->chain);
    r->segment = h->segment;
    r->point = h->point;
    r->normal = h->normal;
    r->fraction = h->fraction;
}

static void fill_tile(const ledge_ray_hit *h, ledge_raycast_result *r) {
    memset(r, 0, sizeof *r);
    r->kind = LEDGE_HIT_TILE;
    r->cell_x = h->cell_x;
    r->cell_y = h->cell_y;
    r->tile = (ledge_tile)h->tile;
    r->point = h->point;
    r->normal = h->normal;
    r->fraction = h->fraction;
}

// The tilemap's first hit, one-way cells under the filter's rule.
static bool tiles_raycast(const query *qu, vec2s origin, vec2s translation, ledge_ray_hit *h) {
    return ledge__tilemap_raycast_one_way(qu->w->map, origin, translation, (int)qu->f.one_way,
                                          one_way_reach(qu->w), h);
}

bool ledge_world_raycast(ledge_world *world, vec2s origin, vec2s translation,
                         const ledge_query_filter *filter, ledge_raycast_result *out) {
    const char *fn = "ledge_world_raycast";
    no_hit(out);
    query qu;
    if (out == NULL) {
        LEDGE_ERROR("%s: out is NULL", fn);
        return false;
    }
    if (!check_ray(fn, origin, translation) || !begin(world, filter, fn, &qu)) return false;
    ray r = {origin, translation, false, INFINITY, INT32_MAX, out, 0};
    ledge_ray_hit h;
    if (qu.f.include_tiles && tiles_raycast(&qu, origin, translation, &h)) {
        fill_tile(&h, out);
        r.best = h.fraction;
        r.best_slot = LEDGE__KEY_TILE;
    }
    ledge__chain_hit ch;
    if (ledge__chains_raycast(world, origin, translation, &qu.f, r.best, &ch) &&
        before(ch.fraction, ledge__chain_key(ch.chain), r.best, r.best_slot)) {
        fill_chain(world, &ch, out);
        r.best = ch.fraction;
        r.best_slot = ledge__chain_key(ch.chain);
    }
    uint32_t stamp = ledge__query_next_stamp(world->query);
    ray_grid(&qu, &r, stamp);
    visit_big(&qu, stamp, ray_body, &r);
    return out->kind != LEDGE_HIT_NONE;
}

// Insertion order of raycast_all's hits: (fraction, handle), the tile's handle
// being -1. A merge of two sorted runs would do; hits are few.
static void sort_hits(ledge__query_index *q, int n) {
    for (int i = 1; i < n; ++i) {
        ledge_raycast_result h = q->hits[i];
        int s = q->hit_slot[i], j = i;
        for (; j > 0 && before(h.fraction, s, q->hits[j - 1].fraction, q->hit_slot[j - 1]); --j) {
            q->hits[j] = q->hits[j - 1];
            q->hit_slot[j] = q->hit_slot[j - 1];
        }
        q->hits[j] = h;
        q->hit_slot[j] = s;
    }
}

int ledge_world_raycast_all(ledge_world *world, vec2s origin, vec2s translation,
                            const ledge_query_filter *filter, ledge_raycast_fn *fn, void *context) {
    const char *name = "ledge_world_raycast_all";
    query qu;
    if (!check_fn(name, fn != NULL) || !check_ray(name, origin, translation) ||
        !begin(world, filter, name, &qu)) {
        return -1;
    }
    ledge__query_index *q = world->query;
    int chains = ledge__chains_raycast_all(world, origin, translation, &qu.f, name);
    if (chains < 0) return -1;
    ray r = {origin, translation, true, INFINITY, INT32_MAX, NULL, 0};
    ledge_ray_hit h;
    if (qu.f.include_tiles && tiles_raycast(&qu, origin, translation, &h)) {
        fill_tile(&h, &q->hits[0]);
        q->hit_slot[0] = LEDGE__KEY_TILE;
        r.count = 1;
    }
    uint32_t stamp = ledge__query_next_stamp(q);
    ray_grid(&qu, &r, stamp);
    visit_big(&qu, stamp, ray_body, &r);
    sort_hits(q, r.count);
    // The chains' hits (in slot order, each chain's first) merged in.
    const ledge__chain_hit *ch = chains > 0 ? world->chains->hits : NULL;
    float clip = 1.0f;
    int delivered = 0;
    for (int k = 0, j = 0; k < r.count || j < chains;) {
        ledge_raycast_result hit;
        if (j < chains && (k == r.count || before(ch[j].fraction, ledge__chain_key(ch[j].chain),
                                                  q->hits[k].fraction, q->hit_slot[k]))) {
            fill_chain(world, &ch[j++], &hit);
        } else {
            hit = q->hits[k++];
        }
        if (!(hit.fraction <= clip)) break;
        ++delivered;
        float v = fn(&hit, context);
        if (v < 0.0f) continue;
        if (!(v > 0.0f)) break; // 0 or NaN
        if (v < clip) clip = v;
    }
    return delivered;
}

// --- shape casts ------------------------------------------------------------

typedef struct cast {
    const ledge_shape *shape;
    vec2s pos, d;
    float best;
    int best_slot; ///< Its key (chain_query.h: tile, chain, body handle).
    ledge_raycast_result *out;
    int one_way; ///< The filter's ledge_query_one_way.
    float reach; ///< one_way_reach.
} cast;

static void take(cast *c, float t, int slot, vec2s normal, vec2s point) {
    c->best = t;
    c->best_slot = slot;
    c->out->fraction = t;
    c->out->normal = normal;
    c->out->point = point;
}

static void cast_body(query *qu, int i, void *data) {
    cast *c = data;
    if (!sees(qu, i)) return;
    ledge_toi toi;
    if (!ledge_sweep(ledge__shape_of(qu->w, i), qu->w->position[i], v2(0.0f, 0.0f), c->shape,
                     c->pos, c->d, &toi)) {
        return;
    }
    if (!before(toi.fraction, qu->w->handle[i], c->best, c->best_slot)) return;
    if (LEDGE_UNLIKELY(qu->w->one_way[i] != LEDGE_ONE_WAY_NONE) &&
        c->one_way != LEDGE_QUERY_ONE_WAY_ALWAYS) {
        ledge_manifold start;
        memset(&start, 0, sizeof start);
        if (toi.fraction <= 0.0f)
            start = ledge_collide(ledge__shape_of(qu->w, i), qu->w->position[i], c->shape, c->pos);
        if (!cast_one_way_counts(c->one_way, one_way_dir(qu->w, i), c->reach, toi.fraction,
                                 &toi.normal, &start)) {
            return;
        }
    }
    take(c, toi.fraction, qu->w->handle[i], toi.normal, toi.point);
    c->out->kind = LEDGE_HIT_BODY;
    c->out->body = ledge__body_id(qu->w, i);
    c->out->chain = LEDGE_NULL_CHAIN_ID;
    c->out->segment = 0;
    c->out->cell_x = c->out->cell_y = 0;
    c->out->tile = 0;
}

// The interval of t in [0, 1] over which the moving box `b` (moved by d t)
// overlaps the fixed box `cell` (closed), or false.
static bool box_window(ledge_aabb b, vec2s d, ledge_aabb cell, float *t0, float *t1) {
    ledge_aabb sum = {v2_sub(cell.lower, v2_scale(v2_sub(b.upper, b.lower), 0.5f)),
                      v2_add(cell.upper, v2_scale(v2_sub(b.upper, b.lower), 0.5f))};
    vec2s c = v2_scale(v2_add(b.lower, b.upper), 0.5f);
    return clip_segment(c, d, sum, t0, t1);
}

static bool tile_overlap(ledge_tile tile, vec2s cmin, float size, const cast *c, float t,
                         ledge_manifold *m) {
    *m = ledge_collide_tile(tile, cmin, size, 0u, c->shape, v2_add(c->pos, v2_scale(c->d, t)));
    return m->hit;
}

// A round tile: samples no further apart than the tolerance over the time
// the boxes overlap, then bisection between the last free sample and the
// first overlapping one. Reports the free end (the shape placed there does
// not overlap) and the normal found at the overlapping end.
static bool round_tile_toi(ledge_tile tile, vec2s cmin, float size, const cast *c, float *t_out,
                           ledge_manifold *m) {
    ledge_aabb cell = {cmin, v2_add(cmin, v2(size, size))};
    float t0, t1;
    if (!box_window(ledge_shape_aabb(c->shape, c->pos), c->d, cell, &t0, &t1)) return false;
    if (t0 > c->best) return false;
    float tol = LEDGE_SHAPE_CAST_TOLERANCE * size, len = v2_len(c->d) * (t1 - t0);
    int n = len <= tol ? 1 : (int)minf(ceilf(len / tol), 1.0e6f);
    if (tile_overlap(tile, cmin, size, c, t0, m)) {
        *t_out = t0;
        return true;
    }
    float lo = t0, hi = -1.0f;
    for (int k = 1; k <= n; ++k) {
        float t = k == n ? t1 : t0 + (t1 - t0) * (float)k / (float)n;
        if (t > c->best) return false;
        if (tile_overlap(tile, cmin, size, c, t, m)) {
            hi = t;
            break;
        }
        lo = t;
    }
    if (hi < 0.0f) return false;
    ledge_manifold mm = *m;
    for (int it = 0; it < 40 && (hi - lo) * v2_len(c->d) > 0.01f * tol; ++it) {
        float mid = 0.5f * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (tile_overlap(tile, cmin, size, c, mid, &mm)) {
            hi = mid;
            *m = mm;
        } else {
            lo = mid;
        }
    }
    *t_out = lo;
    return true;
}

// One cell's tile: straight tiles exactly (the sweep against the tile's
// polygon), round ones to the tolerance.
static void cast_tile(cast *c, const ledge_tilemap *map, int x, int y) {
    ledge_tile tile = ledge__tilemap_at(map, x, y);
    if (tile == LEDGE_TILE_EMPTY) return;
    float size = map->tile_size;
    vec2s cmin = v2_add(map->origin, v2((float)x * size, (float)y * size));
    ledge_tile_outline ol;
    if (!ledge_tile_outline_get(tile, cmin, size, &ol)) return;
    float t;
    vec2s normal, point;
    if (ol.arc_edge < 0) {
        ledge_shape poly;
        ledge_toi toi;
        if (!ledge_make_polygon(ol.points, ol.count, &poly) ||
            !ledge_sweep(&poly, v2(0.0f, 0.0f), v2(0.0f, 0.0f), c->shape, c->pos, c->d, &toi)) {
            return;
        }
        t = toi.fraction;
        normal = toi.normal;
        point = toi.point;
    } else {
        ledge_manifold m;
        if (!round_tile_toi(tile, cmin, size, c, &t, &m)) return;
        normal = m.normal;
        point = m.point_count > 0 ? m.points[0] : v2_add(c->pos, v2_scale(c->d, t));
    }
    if (!(t < c->best)) return; // tiles come first in row-major order: equal keeps the first
    if (LEDGE_UNLIKELY(c->one_way != LEDGE_QUERY_ONE_WAY_ALWAYS) &&
        ledge__tilemap_one_way_cell(map, x, y)) {
        ledge_one_way way = (ledge_one_way)map->one_way[(size_t)y * (size_t)map->width + (size_t)x];
        ledge_manifold start;
        memset(&start, 0, sizeof start);
        if (t <= 0.0f) start = ledge_collide_tile(tile, cmin, size, 0u, c->shape, c->pos);
        if (!cast_one_way_counts(c->one_way, ledge_one_way_direction(way), c->reach, t, &normal,
                                 &start)) {
            return;
        }
    }
    take(c, t, LEDGE__KEY_TILE, normal, point);
    c->out->kind = LEDGE_HIT_TILE;
    c->out->body = LEDGE_NULL_BODY_ID;
    c->out->cell_x = x;
    c->out->cell_y = y;
    c->out->tile = tile;
}

// A shape poking out of the map overlaps its solid outside at once: the
// normal is the inward normal of the first map side it crosses.
static bool outside_at_start(cast *c, const ledge_tilemap *map) {
    ledge_aabb b = ledge_shape_aabb(c->shape, c->pos);
    vec2s lo = map->origin;
    vec2s hi =
        v2_add(lo, v2((float)map->width * map->tile_size, (float)map->height * map->tile_size));
    vec2s n;
    if (b.lower.x < lo.x) {
        n = v2(1.0f, 0.0f);
    } else if (b.upper.x > hi.x) {
        n = v2(-1.0f, 0.0f);
    } else if (b.lower.y < lo.y) {
        n = v2(0.0f, 1.0f);
    } else if (b.upper.y > hi.y) {
        n = v2(0.0f, -1.0f);
    } else {
        return false;
    }
    vec2s p = v2(n.x > 0.0f ? b.lower.x : (n.x < 0.0f ? b.upper.x : c->pos.x),
                 n.y > 0.0f ? b.lower.y : (n.y < 0.0f ? b.upper.y : c->pos.y));
    take(c, 0.0f, LEDGE__KEY_TILE, n, p);
    c->out->kind = LEDGE_HIT_TILE;
    ledge_tilemap_cell_at(map, p, &c->out->cell_x, &c->out->cell_y);
    c->out->tile = LEDGE_TILE_FULL;
    return true;
}

// The cells the swept box covers, clamped to the map and its one-cell ring:
// a shape that starts inside the map meets the solid outside there first.
static void cast_tiles(cast *c, const ledge_tilemap *map, ledge_aabb swept) {
    if (outside_at_start(c, map)) return;
    int x0 = ledge__tilemap_cell(swept.lower.x, map->origin.x, map->inv_tile_size);
    int y0 = ledge__tilemap_cell(swept.lower.y, map->origin.y, map->inv_tile_size);
    int x1 = ledge__tilemap_cell(swept.upper.x, map->origin.x, map->inv_tile_size);
    int y1 = ledge__tilemap_cell(swept.upper.y, map->origin.y, map->inv_tile_size);
    x0 = x0 < -1 ? -1 : x0;
    y0 = y0 < -1 ? -1 : y0;
    x1 = x1 > map->width ? map->width : x1;
    y1 = y1 > map->height ? map->height : y1;
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) cast_tile(c, map, x, y);
    }
}

bool ledge_world_shape_cast(ledge_world *world, const ledge_shape *shape, vec2s position,
                            vec2s translation, const ledge_query_filter *filter,
                            ledge_raycast_result *out) {
    const char *fn = "ledge_world_shape_cast";
    no_hit(out);
    if (out == NULL) {
        LEDGE_ERROR("%s: out is NULL", fn);
        return false;
    }
    if (shape == NULL || !ledge_shape_is_valid(shape)) {
        LEDGE_ERROR("%s: shape is %s", fn, shape == NULL ? "NULL" : "invalid");
        return false;
    }
    query qu;
    if (!ledge__check_vec(fn, "position", position, LEDGE_MAX_COORDINATE) ||
        !ledge__check_vec(fn, "translation", translation, LEDGE_MAX_COORDINATE) ||
        !begin(world, filter, fn, &qu)) {
        return false;
    }
    cast c = {shape,     position, translation,       INFINITY,
              INT32_MAX, out,      (int)qu.f.one_way, one_way_reach(world)};
    ledge_aabb a = ledge_shape_aabb(shape, position);
    ledge_aabb b = ledge_shape_aabb(shape, v2_add(position, translation));
    ledge_aabb swept = {v2(minf(a.lower.x, b.lower.x), minf(a.lower.y, b.lower.y)),
                        v2(maxf(a.upper.x, b.upper.x), maxf(a.upper.y, b.upper.y))};
    if (qu.f.include_tiles) cast_tiles(&c, world->map, swept);
    ledge__chain_hit ch;
    if (ledge__chains_shape_cast(world, shape, position, translation, &qu.f, c.best, &ch) &&
        before(ch.fraction, ledge__chain_key(ch.chain), c.best, c.best_slot)) {
        take(&c, ch.fraction, ledge__chain_key(ch.chain), ch.normal, ch.point);
        out->kind = LEDGE_HIT_CHAIN;
        out->body = LEDGE_NULL_BODY_ID;
        out->chain = ledge__chain_id(world, ch.chain);
        out->segment = ch.segment;
        out->cell_x = out->cell_y = 0;
        out->tile = 0;
    }
    find_overlaps(&qu, swept);
    ledge__query_index *q = world->query;
    for (int k = 0; k < q->found_count; ++k) cast_body(&qu, q->found[k], &c);
    return out->kind != LEDGE_HIT_NONE;
}
