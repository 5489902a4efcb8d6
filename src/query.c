// World queries (query.h): ray casts, AABB and point queries, shape casts,
// against the tiles and the bodies together.
//
// Bodies are found through a loose grid of the queries' own, not the
// step's: the step's grid is scratch of the substep (built in rotated
// coordinates, from positions before the last projection), and sharing its
// storage would let a query change the capacities the step's grid is fitted
// to, and so the step's pair order. This index is rebuilt on the first query
// after anything moved (world->query_dirty, set by the step and by body
// create, destroy and set_position), so it always holds the current
// positions.
//
// Moving one body (ledge_body_set_position, the character mover) does not
// make the index stale while the body stays within half a cell of the
// centre it was filed by: queries grow their box by the largest such drift
// (`drift`) and test every candidate at its current position, so a crowd of
// movers costs O(1) per move instead of a rebuild (O(bodies)) per move.
//
// Each body is filed by the centre of its bounding box in cells of twice the
// bodies' mean extent; a body no larger than a cell lies within half a cell
// of its centre, so a box grown by half a cell (plus a rounding margin)
// reaches the cell of every body that can overlap it. Larger bodies are kept
// in a list that every query tests. Candidates are marked with a stamp so
// that each is tested once, then reported in body index order.
#include "world.h"

#include "ledge/query.h"
#include "tilemap.h"

#include <string.h>

typedef struct ledge__query_index {
    ledge__grid grid;
    int cap;                    ///< Slots in the arrays below.
    vec2s *center;              ///< Centre of each body's bounding box.
    uint8_t *include;           ///< Filed in the grid (alive and not larger than a cell).
    uint32_t *stamp;            ///< Last query that tested the slot.
    uint32_t stamp_now;         ///< This query's stamp.
    float drift;                ///< Largest distance (max norm) a filed body moved since the build.
    int *big;                   ///< Living bodies larger than a cell, in slot order.
    int big_count;              ///< Entries in big.
    int *found;                 ///< Scratch: slots found by this query.
    int found_count;            ///< Entries in found.
    ledge_raycast_result *hits; ///< Scratch of raycast_all (cap + 1 entries).
    int *hit_slot;              ///< The slot of each hit (-1 for the tile).
} ledge__query_index;

ledge_query_filter ledge_default_query_filter(void) {
    ledge_query_filter f;
    memset(&f, 0, sizeof f);
    f.category = 1u;
    f.mask = ~(uint64_t)0;
    f.include_tiles = true;
    return f;
}

// --- the index --------------------------------------------------------------

// The per-slot arrays of the index.
static void free_slot_arrays(ledge__query_index *q) {
    ledge__free(q->center);
    ledge__free(q->include);
    ledge__free(q->stamp);
    ledge__free(q->big);
    ledge__free(q->found);
    ledge__free(q->hits);
    ledge__free(q->hit_slot);
}

void ledge__query_free(ledge_world *w) {
    ledge__query_index *q = w->query;
    if (q == NULL) return;
    ledge__grid_free(&q->grid);
    free_slot_arrays(q);
    ledge__free(q);
    w->query = NULL;
}

// Makes room for `cap` slots; all new arrays are allocated before the old
// ones are released, so a failure leaves the index as it was.
static bool reserve_slots(ledge__query_index *q, int cap, const char *fn) {
    if (cap <= q->cap) return true;
    size_t n = (size_t)cap;
    void *c = ledge__alloc(sizeof(vec2s) * n), *inc = ledge__alloc(n), *st = ledge__alloc(4 * n);
    void *big = ledge__alloc(sizeof(int) * n), *found = ledge__alloc(sizeof(int) * n);
    void *hits = ledge__alloc(sizeof(ledge_raycast_result) * (n + 1));
    void *hs = ledge__alloc(sizeof(int) * (n + 1));
    if (!c || !inc || !st || !big || !found || !hits || !hs) {
        void *all[] = {c, inc, st, big, found, hits, hs};
        for (int k = 0; k < 7; ++k) ledge__free(all[k]);
        LEDGE_ERROR("%s: allocation of the query index for %d bodies failed", fn, cap);
        return false;
    }
    free_slot_arrays(q);
    q->center = c;
    q->include = inc;
    q->stamp = st;
    memset(q->stamp, 0, 4 * n);
    q->stamp_now = 0;
    q->big = big;
    q->found = found;
    q->hits = hits;
    q->hit_slot = hs;
    q->cap = cap;
    return true;
}

static float extent_of(const ledge_world *w, int i) {
    return 2.0f * maxf(w->box_half[i].x, w->box_half[i].y);
}

// Cells of twice the mean extent: most bodies fit, and a few huge ones
// (level geometry) go to the big list instead of coarsening every cell.
static float cell_side(const ledge_world *w) {
    double sum = 0.0;
    for (int i = 0; i < w->slot_count; ++i) {
        if (w->alive[i]) sum += extent_of(w, i);
    }
    float cell = w->live_count > 0 ? (float)(2.0 * sum / w->live_count) : 0.0f;
    return cell > 0.0f ? cell : w->map->tile_size;
}

// Files the living bodies: the grid ones by their box centres, the others
// in the big list; returns the bounds of the grid bodies' centres.
static void classify(ledge_world *w, float cell, vec2s *lower, vec2s *upper) {
    ledge__query_index *q = w->query;
    bool any = false;
    *lower = *upper = v2(0.0f, 0.0f);
    q->big_count = 0;
    for (int i = 0; i < w->slot_count; ++i) {
        q->include[i] = 0;
        if (!w->alive[i]) continue;
        vec2s c = q->center[i] = v2_add(w->position[i], w->box_offset[i]);
        if (extent_of(w, i) > cell) {
            q->big[q->big_count++] = i;
            continue;
        }
        q->include[i] = 1;
        if (!any) *lower = *upper = c;
        any = true;
        *lower = v2(minf(lower->x, c.x), minf(lower->y, c.y));
        *upper = v2(maxf(upper->x, c.x), maxf(upper->y, c.y));
    }
}

// Rebuilds the index when bodies moved since it was built.
static bool refresh(ledge_world *w, const char *fn) {
    if (w->query == NULL) {
        w->query = ledge__alloc(sizeof *w->query);
        if (w->query == NULL) {
            LEDGE_ERROR("%s: allocation of the query index failed", fn);
            return false;
        }
        memset(w->query, 0, sizeof *w->query);
        w->query_dirty = true;
    }
    ledge__query_index *q = w->query;
    if (!w->query_dirty && q->cap >= w->slot_count) return true;
    int cells = w->slot_count < 256 ? 1024 : 4 * w->slot_count;
    if (!reserve_slots(q, w->slot_count > 16 ? w->slot_count : 16, fn) ||
        !ledge__grid_reserve(&q->grid, q->cap, cells)) {
        return false;
    }
    float cell = cell_side(w);
    vec2s lower, upper;
    classify(w, cell, &lower, &upper);
    ledge__grid_fit(&q->grid, lower, upper, cell);
    ledge__grid_build(&q->grid, q->center, q->include, w->slot_count);
    q->drift = 0.0f;
    w->query_dirty = false;
    return true;
}

void ledge__query_moved(ledge_world *w, int i) {
    ledge__query_index *q = w->query;
    if (q == NULL || w->query_dirty) return;
    if (i >= q->cap) {
        w->query_dirty = true;
        return;
    }
    if (!q->include[i]) return; // big bodies are tested at their current box by every query
    vec2s c = v2_add(w->position[i], w->box_offset[i]);
    float d = maxf(fabsf(c.x - q->center[i].x), fabsf(c.y - q->center[i].y));
    if (!(d <= 0.5f * q->grid.cell)) { // also NaN: refile everything on the next query
        w->query_dirty = true;
        return;
    }
    q->drift = maxf(q->drift, d);
}

// A new stamp for this query (clearing the marks when the counter wraps).
static uint32_t next_stamp(ledge__query_index *q) {
    if (++q->stamp_now == 0) {
        memset(q->stamp, 0, 4 * (size_t)q->cap);
        q->stamp_now = 1;
    }
    return q->stamp_now;
}

// --- shared checks ----------------------------------------------------------

typedef struct query {
    ledge_world *w;
    ledge_query_filter f;
    int ignore; ///< Slot never reported, or -1.
} query;

// The checks every query shares; fills `qu` and refreshes the index.
static bool begin(ledge_world *w, const ledge_query_filter *filter, const char *fn, query *qu) {
    if (w == NULL) {
        LEDGE_ERROR("%s: world is NULL", fn);
        return false;
    }
    if (w->stepping) {
        LEDGE_ERROR("%s: the world is stepping (query between steps)", fn);
        return false;
    }
    qu->w = w;
    qu->f = filter ? *filter : ledge_default_query_filter();
    qu->ignore = -1;
    ledge_body_id id = qu->f.ignore;
    if (id.index1 != 0 || id.generation != 0 || id.world != 0) {
        if (!ledge_body_is_valid(w, id)) {
            LEDGE_ERROR("%s: filter->ignore {%u, %u} is not a living body of this world", fn,
                        id.index1, id.generation);
            return false;
        }
        qu->ignore = (int)id.index1 - 1;
    }
    return refresh(w, fn);
}

static bool sees(const query *qu, int i) {
    const ledge_filter *bf = &qu->w->filter[i];
    return i != qu->ignore && (qu->f.category & bf->mask) != 0 &&
           (bf->category & qu->f.mask) != 0 &&
           ledge__vec_within(qu->w->position[i], LEDGE_MAX_COORDINATE);
}

static ledge_aabb body_box(const ledge_world *w, int i) {
    ledge_aabb b = w->shape[i].bounds;
    b.lower = v2_add(b.lower, w->position[i]);
    b.upper = v2_add(b.upper, w->position[i]);
    return b;
}

static bool boxes_overlap(ledge_aabb a, ledge_aabb b) {
    return a.lower.x <= b.upper.x && a.upper.x >= b.lower.x && a.lower.y <= b.upper.y &&
           a.upper.y >= b.lower.y;
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

// --- candidates -------------------------------------------------------------

// Calls visit(qu, slot, data) once per body of this query's stamp whose cell
// the box `b` grown by half a cell (and a rounding margin) reaches.
typedef void visit_fn(query *qu, int slot, void *data);

static void visit_cells(query *qu, ledge_aabb b, uint32_t stamp, visit_fn *visit, void *data) {
    ledge__query_index *q = qu->w->query;
    const ledge__grid *g = &q->grid;
    if (g->count == 0) return;
    float scale =
        maxf(maxf(fabsf(b.lower.x), fabsf(b.upper.x)), maxf(fabsf(b.lower.y), fabsf(b.upper.y)));
    scale = maxf(scale, maxf(fabsf(g->origin.x), fabsf(g->origin.y)));
    float grow = 0.51f * g->cell + q->drift + 1e-5f * scale;
    int x0 = ledge__grid_index((b.lower.x - grow - g->origin.x) * g->inv_cell, g->nx);
    int x1 = ledge__grid_index((b.upper.x + grow - g->origin.x) * g->inv_cell, g->nx);
    int y0 = ledge__grid_index((b.lower.y - grow - g->origin.y) * g->inv_cell, g->ny);
    int y1 = ledge__grid_index((b.upper.y + grow - g->origin.y) * g->inv_cell, g->ny);
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            int c = y * g->nx + x;
            for (int k = g->cell_start[c]; k < g->cell_start[c + 1]; ++k) {
                int i = g->sorted[k];
                if (q->stamp[i] == stamp) continue;
                q->stamp[i] = stamp;
                visit(qu, i, data);
            }
        }
    }
}

static void visit_big(query *qu, uint32_t stamp, visit_fn *visit, void *data) {
    ledge__query_index *q = qu->w->query;
    for (int k = 0; k < q->big_count; ++k) {
        int i = q->big[k];
        if (q->stamp[i] == stamp) continue;
        q->stamp[i] = stamp;
        visit(qu, i, data);
    }
}

static void collect_overlap(query *qu, int i, void *data) {
    const ledge_aabb *box = data;
    if (sees(qu, i) && boxes_overlap(body_box(qu->w, i), *box)) {
        qu->w->query->found[qu->w->query->found_count++] = i;
    }
}

// The bodies the filter sees whose boxes overlap `box`, sorted by slot,
// into q->found.
static void find_overlaps(query *qu, ledge_aabb box) {
    ledge__query_index *q = qu->w->query;
    q->found_count = 0;
    uint32_t stamp = next_stamp(q);
    visit_cells(qu, box, stamp, collect_overlap, &box);
    visit_big(qu, stamp, collect_overlap, &box);
    qsort(q->found, (size_t)q->found_count, sizeof(int), cmp_int);
}

static bool check_box(const char *fn, ledge_aabb b) {
    if (ledge__vec_within(b.lower, LEDGE_MAX_COORDINATE) &&
        ledge__vec_within(b.upper, LEDGE_MAX_COORDINATE) && b.lower.x <= b.upper.x &&
        b.lower.y <= b.upper.y) {
        return true;
    }
    LEDGE_ERROR("%s: aabb is (%g, %g)..(%g, %g) (must be finite, |x| <= %g, lower <= upper)", fn,
                (double)b.lower.x, (double)b.lower.y, (double)b.upper.x, (double)b.upper.y,
                (double)LEDGE_MAX_COORDINATE);
    return false;
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
    if (!check_fn(name, fn != NULL) || !check_box(name, aabb) || !begin(world, filter, name, &qu)) {
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
        if (!ledge_shape_contains(&world->shape[i], world->position[i], point)) continue;
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

// The closest of two hits: smaller fraction, then tiles before bodies, then
// the lower slot (-1 stands for the tile).
static bool before(float fa, int sa, float fb, int sb) {
    return fa < fb || (fa == fb && sa < sb);
}

typedef struct ray {
    vec2s o, d;
    bool all;                  ///< Collect every hit (raycast_all) rather than the closest.
    float best;                ///< Closest fraction so far (closest mode).
    int best_slot;             ///< Its slot (-1: the tile).
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

static void ray_body(query *qu, int i, void *data) {
    ray *r = data;
    if (!sees(qu, i)) return;
    ledge_ray_hit h;
    if (!ledge_shape_raycast(&qu->w->shape[i], qu->w->position[i], r->o, r->d, &h)) return;
    if (r->all) {
        ledge__query_index *q = qu->w->query;
        fill_body(qu->w, i, &h, &q->hits[r->count]);
        q->hit_slot[r->count++] = i;
    } else if (before(h.fraction, i, r->best, r->best_slot)) {
        r->best = h.fraction;
        r->best_slot = i;
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
static void ray_grid(query *qu, ray *r, uint32_t stamp) {
    const ledge__grid *g = &qu->w->query->grid;
    if (g->count == 0) return;
    ledge_aabb area = {
        v2_sub(g->origin, v2(g->cell, g->cell)),
        v2_add(g->origin, v2((float)(g->nx + 1) * g->cell, (float)(g->ny + 1) * g->cell))};
    float t0, t1;
    if (!clip_segment(r->o, r->d, area, &t0, &t1)) return;
    float span = maxf(fabsf(r->d.x), fabsf(r->d.y)) * (t1 - t0) * g->inv_cell * 2.0f;
    int pieces = span < 1.0f ? 1 : (int)minf(ceilf(span), 1.0e8f);
    for (int k = 0; k < pieces; ++k) {
        float ta = t0 + (t1 - t0) * (float)k / (float)pieces;
        float tb = k + 1 == pieces ? t1 : t0 + (t1 - t0) * (float)(k + 1) / (float)pieces;
        if (!r->all && ta > r->best) return;
        vec2s a = v2_add(r->o, v2_scale(r->d, ta)), b = v2_add(r->o, v2_scale(r->d, tb));
        ledge_aabb box = {v2(minf(a.x, b.x), minf(a.y, b.y)), v2(maxf(a.x, b.x), maxf(a.y, b.y))};
        visit_cells(qu, box, stamp, ray_body, r);
    }
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
    if (qu.f.include_tiles && ledge_tilemap_raycast(world->map, origin, translation, &h)) {
        fill_tile(&h, out);
        r.best = h.fraction;
        r.best_slot = -1;
    }
    uint32_t stamp = next_stamp(world->query);
    ray_grid(&qu, &r, stamp);
    visit_big(&qu, stamp, ray_body, &r);
    return out->kind != LEDGE_HIT_NONE;
}

// Insertion order of raycast_all's hits: (fraction, slot), the tile's slot
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
    ray r = {origin, translation, true, INFINITY, INT32_MAX, NULL, 0};
    ledge_ray_hit h;
    if (qu.f.include_tiles && ledge_tilemap_raycast(world->map, origin, translation, &h)) {
        fill_tile(&h, &q->hits[0]);
        q->hit_slot[0] = -1;
        r.count = 1;
    }
    uint32_t stamp = next_stamp(q);
    ray_grid(&qu, &r, stamp);
    visit_big(&qu, stamp, ray_body, &r);
    sort_hits(q, r.count);
    float clip = 1.0f;
    int delivered = 0;
    for (int k = 0; k < r.count && q->hits[k].fraction <= clip; ++k) {
        ++delivered;
        float v = fn(&q->hits[k], context);
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
    int best_slot; ///< -1 for a tile, else the body's slot.
    ledge_raycast_result *out;
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
    if (!ledge_sweep(&qu->w->shape[i], qu->w->position[i], v2(0.0f, 0.0f), c->shape, c->pos, c->d,
                     &toi)) {
        return;
    }
    if (!before(toi.fraction, i, c->best, c->best_slot)) return;
    take(c, toi.fraction, i, toi.normal, toi.point);
    c->out->kind = LEDGE_HIT_BODY;
    c->out->body = ledge__body_id(qu->w, i);
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
    take(c, t, -1, normal, point);
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
    take(c, 0.0f, -1, n, p);
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
    cast c = {shape, position, translation, INFINITY, INT32_MAX, out};
    ledge_aabb a = ledge_shape_aabb(shape, position);
    ledge_aabb b = ledge_shape_aabb(shape, v2_add(position, translation));
    ledge_aabb swept = {v2(minf(a.lower.x, b.lower.x), minf(a.lower.y, b.lower.y)),
                        v2(maxf(a.upper.x, b.upper.x), maxf(a.upper.y, b.upper.y))};
    if (qu.f.include_tiles) cast_tiles(&c, world->map, swept);
    find_overlaps(&qu, swept);
    ledge__query_index *q = world->query;
    for (int k = 0; k < q->found_count; ++k) cast_body(&qu, q->found[k], &c);
    return out->kind != LEDGE_HIT_NONE;
}
