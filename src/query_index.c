// The queries' own index (query_index.h): filing, refiling and the
// unordered box query of the bump module and the sleep stage.
//
// Bodies are found through an index of the queries' own, not the step's:
// the step's grid is scratch of the substep (built in rotated coordinates,
// from positions before the last projection), and sharing its storage would
// let a query change the capacities the step's grid is fitted to, and so the
// step's pair order.
//
// The index is a hierarchy of hashed loose grids kept up to date body by
// body: creating, destroying or placing a body refiles that body alone, and
// the step refiles the bodies whose cell changed (ledge__query_sync). So a
// move or a query costs what is near it, not what the world holds. The
// index is rebuilt only when it is first asked for and when the slots
// outgrow it (capacity doubles: amortized O(1) per body).
//
// Each body is filed by the centre of its bounding box in the level of a
// hierarchy of grids (cells of a quarter tile times a power of two) whose
// cells are at least as large as the body: a body no larger than a cell
// lies within half a cell of its centre, so a box grown by half a cell
// (plus a rounding margin) reaches, in each level, the cell of every body
// that can overlap it. Cells hash into buckets of doubly linked lists, so
// the map's size and the bodies' spread cost nothing; a list's node holds
// what a walk reads of a body (its cell, level and box), so a candidate
// costs one cache line. Each level also lists its bodies, so that a level
// of a few (a crowd's walls) is scanned rather than its cells found.
#include "query_index.h"
#include "check.h"
#include "slots.h"

#include <string.h>

// --- the index --------------------------------------------------------------

static void free_slot_arrays(ledge__query_index *q) {
    void *all[] = {q->head,  q->node_mem, q->prev, q->where,    q->big,   q->big_pos,
                   q->stamp, q->found,    q->hits, q->hit_slot, q->lnext, q->lprev};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) ledge__free(all[k]);
}

void ledge__query_free(ledge_world *w) {
    ledge__query_index *q = w->query;
    if (q == NULL) return;
    free_slot_arrays(q);
    ledge__free(q);
    w->query = NULL;
}

void ledge__query_forget(ledge_world *w, ledge__stale why) {
    if ((why & LEDGE__STALE_SLOTS) && w->query != NULL) w->query->dirty = true;
}

// Makes room for `cap` slots; all new arrays are allocated before the old
// ones are released, so a failure leaves the index as it was (to be rebuilt).
static bool reserve_slots(ledge__query_index *q, int cap, const char *fn) {
    if (cap <= q->cap) return true;
    size_t n = (size_t)cap, nb = 1;
    while (nb < 2 * n) nb *= 2;
    size_t in = sizeof(int) * n;
    enum { ARRAYS = 12 };
    void *a[ARRAYS] = {ledge__alloc(sizeof(int) * nb),
                       ledge__alloc(sizeof(qnode) * (n + 1)), // + 1: room to align
                       ledge__alloc(in),
                       ledge__alloc(n),
                       ledge__alloc(in),
                       ledge__alloc(in),
                       ledge__alloc(4 * n),
                       ledge__alloc(in),
                       ledge__alloc(sizeof(ledge_raycast_result) * (n + 1)),
                       ledge__alloc(sizeof(int) * (n + 1)),
                       ledge__alloc(in),
                       ledge__alloc(in)};
    for (int k = 0; k < ARRAYS; ++k) {
        if (a[k] != NULL) continue;
        for (int j = 0; j < ARRAYS; ++j) ledge__free(a[j]);
        LEDGE_ERROR("%s: allocation of the query index for %d bodies failed", fn, cap);
        return false;
    }
    free_slot_arrays(q);
    q->head = a[0], q->node_mem = a[1], q->prev = a[2], q->where = a[3];
    uintptr_t at = ((uintptr_t)a[1] + sizeof(qnode) - 1) & ~(uintptr_t)(sizeof(qnode) - 1);
    q->node = (qnode *)at;
    q->big = a[4], q->big_pos = a[5], q->stamp = a[6], q->found = a[7], q->hits = a[8];
    q->hit_slot = a[9], q->lnext = a[10], q->lprev = a[11];
    memset(q->stamp, 0, 4 * n);
    q->stamp_now = 0;
    q->bucket_mask = (uint32_t)(nb - 1);
    q->cap = cap;
    return true;
}

static float extent_of(const ledge_world *w, int i) {
    return 2.0f * maxf(w->box_half[i].x, w->box_half[i].y);
}

// The lowest level whose cells hold a body of extent e, or -1.
static int level_for(const ledge__query_index *q, float e) {
    for (int l = 0; l < LEVELS; ++l) {
        if (e <= q->lv[l].cell) return l;
    }
    return -1;
}

static void unfile(ledge__query_index *q, int i) {
    if (q->where[i] == IN_GRID) {
        const qnode *n = &q->node[i];
        if (q->prev[i] >= 0) {
            q->node[q->prev[i]].next = n->next;
        } else {
            q->head[ledge__query_bucket(q, n->lvl, n->cx, n->cy)] = n->next;
        }
        if (n->next >= 0) q->prev[n->next] = q->prev[i];
        if (q->lprev[i] >= 0) {
            q->lnext[q->lprev[i]] = q->lnext[i];
        } else {
            q->lv[n->lvl].first = q->lnext[i];
        }
        if (q->lnext[i] >= 0) q->lprev[q->lnext[i]] = q->lprev[i];
        q->filed--;
        if (--q->lv[n->lvl].filed == 0) q->used &= ~(1u << n->lvl);
    } else if (q->where[i] == IN_BIG) {
        int last = q->big[--q->big_count];
        q->big[q->big_pos[i]] = last;
        q->big_pos[last] = q->big_pos[i];
    }
    q->where[i] = UNFILED;
}

// Whether body i's filter meets ledge_default_query_filter()'s (category
// 1, every mask bit), without building the filter.
static bool filter_default(const ledge_world *w, int i) {
    const ledge_filter *bf = &w->filter[i];
    return (bf->mask & 1u) != 0 && bf->category != 0;
}

// The node's box around body i's box centre c (position plus centre
// offset), and whether the default filter sees the body (sees() with the
// default filter, nothing ignored): they change with its position. The box
// comes from the compact per-slot arrays (centre offset and half extents)
// rather than from its shape (hundreds of bytes by slot). It may differ
// from body_box's by a rounding (none for a centred box, as the bump
// module's are); the bump move pads its boxes by far more.
static LEDGE_INLINE void note_box_at(const ledge_world *w, qnode *n, int i, vec2s c) {
    vec2s h = w->box_half[i];
    n->box = (ledge_aabb){v2_sub(c, h), v2_add(c, h)};
    n->seen = n->filter_ok && ledge__query_within(w->position[i]);
}

static void note_box(const ledge_world *w, qnode *n, int i) {
    note_box_at(w, n, i, v2_add(w->position[i], w->box_offset[i]));
}

// Files living body i by its box centre in the level that fits it (the big
// list beyond the top level). A centre beyond LEDGE_MAX_COORDINATE is not
// filed: no query sees it.
static void file(const ledge_world *w, ledge__query_index *q, int i) {
    vec2s c = v2_add(w->position[i], w->box_offset[i]);
    if (!w->alive[i] || !ledge__query_within(c)) return;
    qnode *n = &q->node[i];
    n->filter_ok = filter_default(w, i);
    note_box(w, n, i);
    int li = level_for(q, extent_of(w, i));
    if (li < 0) {
        q->where[i] = IN_BIG;
        q->big_pos[i] = q->big_count;
        q->big[q->big_count++] = i;
        return;
    }
    level *l = &q->lv[li];
    int x = ledge__query_cell_coord(l, c.x), y = ledge__query_cell_coord(l, c.y);
    uint32_t b = ledge__query_bucket(q, li, x, y);
    n->cx = x, n->cy = y, n->lvl = (uint8_t)li;
    q->prev[i] = -1;
    n->next = q->head[b];
    if (q->head[b] >= 0) q->prev[q->head[b]] = i;
    q->head[b] = i;
    q->lprev[i] = -1;
    q->lnext[i] = l->first;
    if (l->first >= 0) q->lprev[l->first] = i;
    l->first = i;
    q->where[i] = IN_GRID;
    q->filed++;
    if (l->filed++ == 0) {
        q->used |= 1u << li;
        l->x0 = l->x1 = x, l->y0 = l->y1 = y;
    } else {
        l->x0 = x < l->x0 ? x : l->x0, l->x1 = x > l->x1 ? x : l->x1;
        l->y0 = y < l->y0 ? y : l->y0, l->y1 = y > l->y1 ? y : l->y1;
    }
}

// Files every living body afresh.
static void rebuild(ledge_world *w) {
    ledge__query_index *q = w->query;
    // A world's cell_size smaller than a quarter tile is its bodies' scale
    // (the bump module's items on a map of a few huge tiles): the finest
    // level starts there, or every body would share one cell.
    float cell = 0.25f * w->map->tile_size;
    if (w->cell_size > 0.0f && w->cell_size < cell) cell = w->cell_size;
    for (int l = 0; l < LEVELS; ++l, cell *= 2.0f) {
        memset(&q->lv[l], 0, sizeof q->lv[l]);
        q->lv[l].first = -1;
        q->lv[l].cell = cell;
        q->lv[l].inv_cell = 1.0f / cell;
    }
    for (uint32_t b = 0; b <= q->bucket_mask; ++b) q->head[b] = -1;
    q->filed = q->big_count = 0;
    q->used = 0;
    memset(q->where, UNFILED, (size_t)q->cap);
    for (int i = 0; i < w->slot_count; ++i) file(w, q, i);
}

void ledge__query_refile(ledge_world *w, int i) {
    ledge__query_index *q = w->query;
    if (q == NULL || q->dirty) return; // rebuilt when next asked
    if (i >= q->cap) {
        q->dirty = true; // the slots outgrew the index
        return;
    }
    qnode *n = &q->node[i];
    if (q->where[i] == IN_GRID && w->alive[i]) {
        const level *l = &q->lv[n->lvl];
        vec2s c = v2_add(w->position[i], w->box_offset[i]);
        if (ledge__query_within(c) && ledge__query_cell_coord(l, c.x) == n->cx &&
            ledge__query_cell_coord(l, c.y) == n->cy) {
            note_box_at(w, n, i, c); // same cell: only the box moved (c is compact_box's centre)
            return;
        }
    }
    unfile(q, i);
    file(w, q, i);
}

void ledge__query_filter_changed(ledge_world *w, int i) {
    ledge__query_index *q = w->query;
    if (q == NULL || q->dirty || i >= q->cap || q->where[i] == UNFILED) return;
    q->node[i].filter_ok = filter_default(w, i);
    note_box(w, &q->node[i], i);
}

void ledge__query_sync(ledge_world *w) {
    if (w->query == NULL || w->query->dirty) return;
    for (int i = 0; i < w->slot_count; ++i) {
        if (w->alive[i]) ledge__query_refile(w, i);
    }
}

// Creates the index on the first query; rebuilds it when it was marked
// stale (slots outgrew it, the cell side needs refitting).
bool ledge__query_refresh(ledge_world *w, const char *fn) {
    if (w->query == NULL) {
        w->query = ledge__alloc(sizeof *w->query);
        if (w->query == NULL) {
            LEDGE_ERROR("%s: allocation of the query index failed", fn);
            return false;
        }
        memset(w->query, 0, sizeof *w->query);
        w->query->dirty = true;
    }
    ledge__query_index *q = w->query;
    if (!q->dirty && q->cap >= w->slot_count) return true;
    int want = w->slot_count > q->cap ? 2 * w->slot_count : q->cap;
    if (!reserve_slots(q, want > 16 ? want : 16, fn)) return false;
    rebuild(w);
    q->dirty = false;
    return true;
}

// A new stamp for this query (clearing the marks when the counter wraps).
uint32_t ledge__query_next_stamp(ledge__query_index *q) {
    if (++q->stamp_now == 0) {
        memset(q->stamp, 0, 4 * (size_t)q->cap);
        q->stamp_now = 1;
    }
    return q->stamp_now;
}

// The checks every query shares; fills `qu` and refreshes the index.
// A world that may be queried now (not NULL, not stepping).
bool ledge__query_ready(const ledge_world *w, const char *fn) {
    if (w == NULL) {
        LEDGE_ERROR("%s: world is NULL", fn);
        return false;
    }
    if (w->stepping) {
        LEDGE_ERROR("%s: the world is stepping (query between steps)", fn);
        return false;
    }
    return true;
}
bool ledge__query_check_box(const char *fn, ledge_aabb b) {
    if (ledge__query_within(b.lower) && ledge__query_within(b.upper) && b.lower.x <= b.upper.x &&
        b.lower.y <= b.upper.y) {
        return true;
    }
    LEDGE_ERROR("%s: aabb is (%g, %g)..(%g, %g) (must be finite, |x| <= %g, lower <= upper)", fn,
                (double)b.lower.x, (double)b.lower.y, (double)b.upper.x, (double)b.upper.y,
                (double)LEDGE_MAX_COORDINATE);
    return false;
}

// --- the unordered query (the bump module's moves) ---------------------------
// A query per move of every item of a crowd: the candidates go straight to
// the caller's visit as the cells are walked (no list, no sort, no filter
// built), and the box test comes first, on the box kept in the bucket
// list's node (it rejects most candidates with the one cache line the walk
// read anyway). No stamps: each body is filed in one cell of one level (or
// in the big list), and each level is walked cell by cell or scanned for
// its own bodies, so no body is met twice.

typedef struct unordered {
    ledge_world *w;
    const ledge__query_index *q;
    ledge_aabb box;
    ledge__slot_visit_fn *visit;
    void *context;
    int visited;  ///< Bodies passed to visit.
    bool stopped; ///< visit returned false.
    bool every;   ///< Every body, whatever its filter (not only those the default filter sees).
} unordered;

// Inlined into the walks: called for each of a move's 8 candidates on
// average at 10,000 items (the call was 6% of the bump move).
static LEDGE_INLINE void unordered_one(unordered *u, int i) {
    const qnode *n = &u->q->node[i];
    if (u->stopped || !ledge__query_boxes_overlap(n->box, u->box) || !(n->seen || u->every)) return;
    u->visited++;
    if (!u->visit(u->w, i, u->context)) u->stopped = true;
}

// Every body of level li, from its list (inlined: the crowd's walls are
// scanned on every move).
static LEDGE_INLINE void unordered_scan(unordered *u, int li) {
    for (int i = u->q->lv[li].first; i >= 0; i = u->q->lnext[i]) unordered_one(u, i);
}

static void unordered_level(unordered *u, int li, float scale) {
    const ledge__query_index *q = u->q;
    // A level of a few bodies (a crowd's walls, a platform) is scanned:
    // their boxes cost less than finding the level's cells.
    if (q->lv[li].filed <= SPARSE_LEVEL) {
        unordered_scan(u, li);
        return;
    }
    int x0, x1, y0, y1, how = ledge__query_level_range(q, li, u->box, scale, &x0, &x1, &y0, &y1);
    if (how == 0) return;
    if (how == 2) { // more cells than bodies
        unordered_scan(u, li);
        return;
    }
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            for (int i = q->head[ledge__query_bucket(q, li, x, y)]; i >= 0; i = q->node[i].next) {
                const qnode *n = &q->node[i];
                if (n->cx == x && n->cy == y && n->lvl == li) unordered_one(u, i);
            }
        }
    }
}

static int query_unordered(ledge_world *world, ledge_aabb aabb, const char *fn, bool every,
                           ledge__slot_visit_fn *visit, void *context) {
    if (!ledge__query_check_box(fn, aabb) || !ledge__query_ready(world, fn)) return -1;
    const ledge__query_index *q = world->query;
    // ledge__query_refresh() called only when it has work: a call per move otherwise.
    bool fresh = q != NULL && !q->dirty && q->cap >= world->slot_count;
    if (!fresh && !ledge__query_refresh(world, fn)) return -1;
    q = world->query;
    unordered u = {world, q, aabb, visit, context, 0, false, every};
    float scale = ledge__query_box_scale(aabb);
    for (uint32_t left = q->used; left != 0 && !u.stopped; left &= left - 1) {
        unordered_level(&u, ledge__query_lowest_bit(left), scale);
    }
    for (int k = 0; k < q->big_count; ++k) unordered_one(&u, q->big[k]);
    return u.visited;
}

int ledge__query_aabb_unordered(ledge_world *world, ledge_aabb aabb, const char *fn,
                                ledge__slot_visit_fn *visit, void *context) {
    return query_unordered(world, aabb, fn, false, visit, context);
}

int ledge__query_aabb_every(ledge_world *world, ledge_aabb aabb, const char *fn,
                            ledge__slot_visit_fn *visit, void *context) {
    return query_unordered(world, aabb, fn, true, visit, context);
}

int ledge__query_aabb_among(ledge_world *world, ledge_aabb aabb, const int *slots, int count,
                            ledge__slot_visit_fn *visit, void *context) {
    const ledge__query_index *q = world->query;
    int n = 0;
    for (int k = 0; k < count; ++k) {
        if (!ledge__query_boxes_overlap(q->node[slots[k]].box, aabb)) continue;
        ++n;
        if (!visit(world, slots[k], context)) break;
    }
    return n;
}
