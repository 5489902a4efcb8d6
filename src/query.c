// World queries (query.h): ray casts, AABB and point queries, shape casts,
// against the tiles and the bodies together.
//
// Bodies are found through an index of the queries' own, not the step's:
// the step's grid is scratch of the substep (built in rotated coordinates,
// from positions before the last projection), and sharing its storage would
// let a query change the capacities the step's grid is fitted to, and so the
// step's pair order.
//
// The index is a hierarchy of hashed loose grids kept up to date body by body: creating,
// destroying or placing a body (ledge_body_set_position, ledge_body_move)
// refiles that body alone, and the step refiles the bodies whose cell
// changed (ledge__query_sync). So a move or a query costs what is near it,
// not what the world holds: nothing is rebuilt or scanned because one body
// moved. The index is rebuilt only when it is first asked for and when the
// slots outgrow it (capacity doubles: amortized O(1) per body).
//
// Each body is filed by the centre of its bounding box in the level of a
// hierarchy of grids (cells of a quarter tile times a power of two) whose
// cells are at least as large as the body: a body no larger than a cell
// lies within half a cell of its centre, so a box grown by half a cell
// (plus a rounding margin) reaches, in each level, the cell of every body
// that can overlap it. Levels make the index fit any mix of sizes (specks
// beside platforms and level geometry) with no refitting. Cells hash into
// buckets of doubly linked lists, so the map's size and the bodies' spread
// cost nothing; a list's node holds what a walk reads of a body (its cell,
// level and box), so a candidate costs one cache line. Each level also
// lists its bodies, so that a level of a few (a crowd's walls) is scanned
// rather than its cells found. Candidates are marked with a stamp so that
// each is tested once; results are reported in body index order (or by
// fraction, then index), so the order cells are visited in never shows.
#include "query_index.h"
#include "slots.h"
#include "check.h"
#include "world_state.h"

#include "ledge/query.h"
#include "tilemap.h"

#include <string.h>

enum { UNFILED = 0, IN_GRID = 1, IN_BIG = 2, LEVELS = 24 };
enum { SPARSE_LEVEL = 4 }; // the unordered query scans a level of this many bodies or fewer

/// One level of the hierarchy: its cells and the bodies filed in it.
typedef struct level {
    float cell;         ///< Cell side.
    float inv_cell;     ///< 1 / cell.
    int filed;          ///< Bodies filed in this level.
    int x0, y0, x1, y1; ///< Cells holding them lie within (grow-only while filed > 0).
    int first;          ///< First slot of the list of this level's bodies, or -1.
} level;

/// A filed slot's entry in its bucket's list, with everything a query's
/// walk reads about it: one place (half a cache line) instead of five
/// arrays by slot, so that a candidate costs one cache line, not five.
typedef struct qnode {
    int next;       ///< Next slot in the bucket's list, or -1.
    int cx, cy;     ///< Its cell (IN_GRID).
    uint8_t lvl;    ///< Its level (IN_GRID).
    bool seen;      ///< sees_default(): the default filter finds it.
    bool filter_ok; ///< Its filter meets the default filter's (changes only with the filter).
    ledge_aabb box; ///< Its box when last refiled: centre offset plus and minus half extents.
} qnode;            // 32 bytes, aligned to 32 in the array: never across two cache lines
_Static_assert(sizeof(qnode) == 32, "a node is half a cache line");

typedef struct ledge__query_index {
    level lv[LEVELS];           ///< Cells of base * 2^k.
    int cap;                    ///< Slots in the per-slot arrays below.
    uint32_t bucket_mask;       ///< Buckets - 1 (a power of two, at least 2 * cap).
    int *head;                  ///< First slot of each bucket, or -1.
    qnode *node;                ///< Each slot's list link, cell, level and box.
    void *node_mem;             ///< The allocation node lies in (aligned up from it).
    int *prev;                  ///< Previous slot in the bucket's list (-1: none).
    int *lnext, *lprev;         ///< Links of each IN_GRID slot in its level's list (-1: none).
    uint8_t *where;             ///< UNFILED, IN_GRID or IN_BIG.
    int filed;                  ///< Slots IN_GRID.
    uint32_t used;              ///< Bit l set when level l holds a body (queries skip the rest).
    int *big;                   ///< Bodies larger than the top level's cells (order irrelevant).
    int *big_pos;               ///< Each IN_BIG slot's index in big.
    int big_count;              ///< Entries in big.
    uint32_t *stamp;            ///< Last query that tested the slot.
    uint32_t stamp_now;         ///< This query's stamp.
    int *found;                 ///< Scratch: slots found by this query.
    int found_count;            ///< Entries in found.
    ledge_raycast_result *hits; ///< Scratch of raycast_all (cap + 1 entries).
    int *hit_slot;              ///< The body handle of each hit (-1 for the tile), for ties.
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

// The cell coordinate of f in level l, clamped far inside int (centres are
// within LEDGE_MAX_COORDINATE; a tiny cell could still overflow). The floor
// by truncation and a step down: without SSE4.1, floorf is a dozen
// instructions, and this runs four times per level of every query.
static int cell_coord(const level *l, float f) {
    float c = f * l->inv_cell;
    if (!(c >= -1.0e9f)) return -1000000000; // NaN too: never (int) of it
    if (c > 1.0e9f) return 1000000000;
    int t = (int)c; // toward zero: exact below 1e9
    return t - ((float)t > c);
}

// The row (y, level) is hashed and x added: the cells of one row, which a
// query visits one after the other, are neighbouring buckets, so a row
// costs one cache line of heads, not one per cell (at 10,000 small bodies
// the heads were half of a query's cache misses).
static uint32_t bucket_of(const ledge__query_index *q, int l, int x, int y) {
    uint32_t h = (uint32_t)y * 19349663u ^ (uint32_t)l * 83492791u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return (h + (uint32_t)x) & q->bucket_mask;
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
            q->head[bucket_of(q, n->lvl, n->cx, n->cy)] = n->next;
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

// ledge__vec_within(v, LEDGE_MAX_COORDINATE), inlined: the refile of every
// move and the checks of every query call it (a call to check.c is most of
// its cost). One comparison per component: NaN compares false and an
// infinity exceeds the finite bound, so isfinite() is not needed.
static inline bool within_max(vec2s v) {
    return fabsf(v.x) <= LEDGE_MAX_COORDINATE && fabsf(v.y) <= LEDGE_MAX_COORDINATE;
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
    n->seen = n->filter_ok && within_max(w->position[i]);
}

static void note_box(const ledge_world *w, qnode *n, int i) {
    note_box_at(w, n, i, v2_add(w->position[i], w->box_offset[i]));
}

// Files living body i by its box centre in the level that fits it (the big
// list beyond the top level). A centre beyond LEDGE_MAX_COORDINATE is not
// filed: no query sees it.
static void file(const ledge_world *w, ledge__query_index *q, int i) {
    vec2s c = v2_add(w->position[i], w->box_offset[i]);
    if (!w->alive[i] || !within_max(c)) return;
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
    int x = cell_coord(l, c.x), y = cell_coord(l, c.y);
    uint32_t b = bucket_of(q, li, x, y);
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
    if (q == NULL || w->query_dirty) return; // rebuilt when next asked
    if (i >= q->cap) {
        w->query_dirty = true; // the slots outgrew the index
        return;
    }
    qnode *n = &q->node[i];
    if (q->where[i] == IN_GRID && w->alive[i]) {
        const level *l = &q->lv[n->lvl];
        vec2s c = v2_add(w->position[i], w->box_offset[i]);
        if (within_max(c) && cell_coord(l, c.x) == n->cx && cell_coord(l, c.y) == n->cy) {
            note_box_at(w, n, i, c); // same cell: only the box moved (c is compact_box's centre)
            return;
        }
    }
    unfile(q, i);
    file(w, q, i);
}

void ledge__query_filter_changed(ledge_world *w, int i) {
    ledge__query_index *q = w->query;
    if (q == NULL || w->query_dirty || i >= q->cap || q->where[i] == UNFILED) return;
    q->node[i].filter_ok = filter_default(w, i);
    note_box(w, &q->node[i], i);
}

void ledge__query_sync(ledge_world *w) {
    if (w->query == NULL || w->query_dirty) return;
    for (int i = 0; i < w->slot_count; ++i) {
        if (w->alive[i]) ledge__query_refile(w, i);
    }
}

// Creates the index on the first query; rebuilds it when it was marked
// stale (slots outgrew it, the cell side needs refitting).
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
    int want = w->slot_count > q->cap ? 2 * w->slot_count : q->cap;
    if (!reserve_slots(q, want > 16 ? want : 16, fn)) return false;
    rebuild(w);
    w->query_dirty = false;
    return true;
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
// A world that may be queried now (not NULL, not stepping).
static bool ready(const ledge_world *w, const char *fn) {
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

static bool begin(ledge_world *w, const ledge_query_filter *filter, const char *fn, query *qu) {
    if (!ready(w, fn)) return false;
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
        qu->ignore = ledge__slot_of(w, id);
    }
    return refresh(w, fn);
}

static bool sees(const query *qu, int i) {
    const ledge_filter *bf = &qu->w->filter[i];
    return i != qu->ignore && (qu->f.category & bf->mask) != 0 &&
           (bf->category & qu->f.mask) != 0 && within_max(qu->w->position[i]);
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

// The largest coordinate of b, which sizes the rounding margin.
static float box_scale(ledge_aabb b) {
    return maxf(maxf(fabsf(b.lower.x), fabsf(b.upper.x)), maxf(fabsf(b.lower.y), fabsf(b.upper.y)));
}

// The cells of level li that the box `b` (box_scale(b) is `scale`) grown
// by half a cell (and a rounding margin) reaches, within the cells the
// level holds, into [*x0, *x1] x [*y0, *y1]: 0 when there are none, 2 when
// they outnumber the filed bodies (cheaper to visit every body), 1
// otherwise.
static LEDGE_INLINE int level_range(const ledge__query_index *q, int li, ledge_aabb b, float scale,
                                    int *x0, int *x1, int *y0, int *y1) {
    const level *l = &q->lv[li];
    float grow = 0.51f * l->cell + 1e-5f * scale;
    int ax = cell_coord(l, b.lower.x - grow), bx = cell_coord(l, b.upper.x + grow);
    int ay = cell_coord(l, b.lower.y - grow), by = cell_coord(l, b.upper.y + grow);
    *x0 = ax > l->x0 ? ax : l->x0, *x1 = bx < l->x1 ? bx : l->x1;
    *y0 = ay > l->y0 ? ay : l->y0, *y1 = by < l->y1 ? by : l->y1;
    if (*x0 > *x1 || *y0 > *y1) return 0;
    // In 64-bit integers: exact, and cheaper than doubles.
    int64_t cells = ((int64_t)*x1 - *x0 + 1) * ((int64_t)*y1 - *y0 + 1);
    return cells > (int64_t)q->filed ? 2 : 1;
}

static void visit_level(query *qu, int li, ledge_aabb b, uint32_t stamp, visit_fn *visit,
                        void *data) {
    const ledge__query_index *q = qu->w->query;
    int x0, x1, y0, y1, how = level_range(q, li, b, box_scale(b), &x0, &x1, &y0, &y1);
    if (how == 0) return;
    if (how == 2) {
        visit_all(qu, stamp, visit, data);
        return;
    }
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            for (int i = q->head[bucket_of(q, li, x, y)]; i >= 0; i = q->node[i].next) {
                const qnode *n = &q->node[i];
                if (n->cx == x && n->cy == y && n->lvl == li) visit_one(qu, i, stamp, visit, data);
            }
        }
    }
}

// The index of the lowest set bit of v (v != 0).
static int lowest_bit(uint32_t v) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(v);
#else
    int k = 0;
    while (!(v & 1u)) v >>= 1, ++k;
    return k;
#endif
}

// Calls visit(qu, slot, data) once per body of this query's stamp whose cell
// the box `b` grown by half a cell (and a rounding margin) reaches, level by
// level.
static void visit_cells(query *qu, ledge_aabb b, uint32_t stamp, visit_fn *visit, void *data) {
    const ledge__query_index *q = qu->w->query;
    for (uint32_t left = q->used; left != 0; left &= left - 1) {
        visit_level(qu, lowest_bit(left), b, stamp, visit, data);
    }
}

static void visit_big(query *qu, uint32_t stamp, visit_fn *visit, void *data) {
    ledge__query_index *q = qu->w->query;
    for (int k = 0; k < q->big_count; ++k) visit_one(qu, q->big[k], stamp, visit, data);
}

static void collect_overlap(query *qu, int i, void *data) {
    const ledge_aabb *box = data;
    // The box first: it is cheaper, and rejects most candidates.
    if (boxes_overlap(body_box(qu->w, i), *box) && sees(qu, i)) {
        qu->w->query->found[qu->w->query->found_count++] = i;
    }
}

// The bodies the filter sees whose boxes overlap `box`, in the order the
// cells hold them (which shows the slots' order by space), into q->found.
static void find_overlaps_unordered(query *qu, ledge_aabb box) {
    ledge__query_index *q = qu->w->query;
    q->found_count = 0;
    uint32_t stamp = next_stamp(q);
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

static bool check_box(const char *fn, ledge_aabb b) {
    if (within_max(b.lower) && within_max(b.upper) && b.lower.x <= b.upper.x &&
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
    if (u->stopped || !boxes_overlap(n->box, u->box) || !(n->seen || u->every)) return;
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
    int x0, x1, y0, y1, how = level_range(q, li, u->box, scale, &x0, &x1, &y0, &y1);
    if (how == 0) return;
    if (how == 2) { // more cells than bodies
        unordered_scan(u, li);
        return;
    }
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            for (int i = q->head[bucket_of(q, li, x, y)]; i >= 0; i = q->node[i].next) {
                const qnode *n = &q->node[i];
                if (n->cx == x && n->cy == y && n->lvl == li) unordered_one(u, i);
            }
        }
    }
}

static int query_unordered(ledge_world *world, ledge_aabb aabb, const char *fn, bool every,
                           ledge__slot_visit_fn *visit, void *context) {
    if (!check_box(fn, aabb) || !ready(world, fn)) return -1;
    const ledge__query_index *q = world->query;
    // refresh() called only when it has work: a call per move otherwise.
    bool fresh = q != NULL && !world->query_dirty && q->cap >= world->slot_count;
    if (!fresh && !refresh(world, fn)) return -1;
    q = world->query;
    unordered u = {world, q, aabb, visit, context, 0, false, every};
    float scale = box_scale(aabb);
    for (uint32_t left = q->used; left != 0 && !u.stopped; left &= left - 1) {
        unordered_level(&u, lowest_bit(left), scale);
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
        if (!boxes_overlap(q->node[slots[k]].box, aabb)) continue;
        ++n;
        if (!visit(world, slots[k], context)) break;
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
// the lower handle (an id's index1 - 1, -1 standing for the tile): never the
// slot, which the order by space changes (order.c).
static bool before(float fa, int sa, float fb, int sb) {
    return fa < fb || (fa == fb && sa < sb);
}

typedef struct ray {
    vec2s o, d;
    bool all;                  ///< Collect every hit (raycast_all) rather than the closest.
    float best;                ///< Closest fraction so far (closest mode).
    int best_slot;             ///< Its body's handle (-1: the tile).
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
    int best_slot; ///< -1 for a tile, else the body's handle.
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
    if (!before(toi.fraction, qu->w->handle[i], c->best, c->best_slot)) return;
    take(c, toi.fraction, qu->w->handle[i], toi.normal, toi.point);
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
