// The broad phase of a substep: the loose grid (grid.h) is rebuilt over the
// rectangle the bodies occupy, then read once to list
// - the candidate pairs: bounding boxes grown by the margin overlap, the
//   filters let the two touch and at least one of them can move;
// - the dynamic bodies whose grown box meets a non-empty tile cell.
// The relaxation passes then test only these lists, so a body deep inside
// a pile costs a few pair tests per pass and no tile lookups.
//
// Grid rows run along "up" (the world axis closest to -gravity, bottom
// first), so pairs come out roughly from the bottom of a pile to its top:
// the order the velocity pass's shock propagation wants.
//
// Bodies larger than a cell (the cell follows the largest dynamic body,
// or the world def's cell_size) are kept out of the grid: each scans the
// grid cells its own grown box reaches, and those bodies test each other
// directly. A level with a few big static or kinematic bodies stays fast.
#include "broad.h"
#include "joints.h"
#include "par.h"
#include "world_state.h"

#include "tilemap.h"

#include <limits.h>
#include <string.h>

// --- lists ------------------------------------------------------------------

// Grows a pair list (the candidates, or the sensor pairs) holding `count`
// pairs by doubling, or to `need` when that is more.
static bool reserve_pairs(ledge__pair **pairs, int *cap, int count, int need) {
    if (LEDGE__RESERVE(*pairs, *cap, need, count, 256)) return true;
    LEDGE_ERROR("ledge_world_step: allocation of %d candidate pairs failed (pairs beyond %d "
                "are skipped this step)",
                need > 2 * *cap ? need : 2 * *cap, *cap);
    return false;
}

// Where a pair goes: a list of fixed room on a worker (a full one counts
// the pairs it misses and is run again, grown, on the calling thread), or
// one that may grow on the calling thread.
static LEDGE_NOINLINE ledge__pair *next_pair_full(ledge__pair_list *list, bool may_grow) {
    if (!may_grow) {
        list->overflow = true;
        list->count++;
        return NULL;
    }
    if (!reserve_pairs(&list->pairs, &list->cap, list->count, list->count + 1)) {
        list->overflow = true; // (logged) the list misses pairs
        return NULL;
    }
    return &list->pairs[list->count++];
}

// (Inline: the grid's pair loop calls it for every pair; the full list's
// case apart.)
static inline ledge__pair *next_pair(ledge__pair_list *list, bool may_grow) {
    if (LEDGE_UNLIKELY(list->count >= list->cap)) return next_pair_full(list, may_grow);
    return &list->pairs[list->count++];
}

// The lists a pair test writes to.
typedef struct pair_out {
    ledge__pair_list *pairs, *sensors;
    bool may_grow;
} pair_out;

// A sensor and a body it may report (sensors.c tests them after the step).
static bool push_sensor_pair(ledge_world *w, pair_out *out, int a, int b) {
    ledge__pair *p = next_pair(out->sensors, out->may_grow);
    if (p == NULL) return !out->may_grow;
    memset(p, 0, sizeof *p);
    p->a = w->sensor[a] ? a : b;
    p->b = w->sensor[a] ? b : a;
    return true;
}

// What the relaxation passes need to know of a pair's bodies, read here
// once per substep instead of once per pass: whether both are circles, and
// whether it is plain (no one-way body, no policy, no callback: it slides,
// decided now).
static inline uint8_t pair_kind(const ledge_world *w, int a, int b) {
    bool plain =
        !(w->one_way[a] | w->one_way[b] | w->policy[a] | w->policy[b]) && w->pre_solve == NULL;
    return (uint8_t)((w->circle[a] & w->circle[b] ? LEDGE__PAIR_CIRCLES : 0u) |
                     (plain ? LEDGE__PAIR_PLAIN : 0u));
}

// The part of a pair's push body a takes (resolve.c), divided once per
// substep, not once per push (consider_near saw a sum of inverse masses >
// 0). By inverse mass; but a dynamic body under
// another (their centres within LEDGE__STACKED_COSINE of up) counts
// LEDGE__LOWER_WEIGHT times as heavy. Shared evenly, an overlap squeezed
// into a pile spreads out by diffusion: each push up moves the lower body
// down into the pair below it, and a pile n rows deep takes of the order
// of n^2 passes to push its landing overlaps out to the free surface
// (rain of 1,000,000 circles: 400,000 contacts still deeper than the
// sleep's veto after 1,500 steps). Leaning each push upward carries the
// overlap to the top in about n passes, like the shock sweep does for the
// velocities, without holding the lower body still (which lends it
// infinite mass: the sweep's throws, response.c).
//
// A body held by joints to the world (joints.h) is not pushed by a body
// that is not: its joints would put it back in the next pass, and the
// other body, pushed out by a share of its overlap each pass, would sink
// through it (a crate through a bridge's planks). Its joints carry what
// rests on it through the loads (joint_solve.c).
static inline float pair_share(const ledge_world *w, int a, int b) {
    float ia = w->inv_mass[a], ib = w->inv_mass[b];
    bool ha = ledge__joint_held(w, a), hb = ledge__joint_held(w, b);
    if (ha != hb && ia > 0.0f && ib > 0.0f) return ha ? 0.0f : 1.0f;
    if (ia > 0.0f && ib > 0.0f) {
        vec2s d = v2_sub(w->step.box_center[b], w->step.box_center[a]);
        float along = v2_dot(d, w->up); // 0 without gravity: no body is under another
        if (along * along > LEDGE__STACKED_COSINE * LEDGE__STACKED_COSINE * v2_len2(d)) {
            if (along > 0.0f) {
                ia /= LEDGE__LOWER_WEIGHT;
            } else {
                ib /= LEDGE__LOWER_WEIGHT;
            }
        }
    }
    return ia / (ia + ib);
}

// Whether both bodies of (a, b) give way to a push, as a pile's pair: two
// dynamic bodies with mass, neither held by joints the other is not held
// by, a sleeper counted as awake. (Against a sleeper the share is 0 or 1,
// and judged by it such a pair kept the whole slop and held no contact
// apart (resolve.c): what a pair keeps changed whenever one of its bodies
// fell asleep or woke. A column of 24 x 1,000 circles still had 82
// moving faster than 0.1 m/s and 3,553 awake after 1,600 steps; with a
// sleeper counted as awake, none moving and 26 awake.)
static inline bool pair_gives_way(const ledge_world *w, int a, int b) {
    float ia = w->asleep[a] ? w->sleep_inv_mass[a] : w->inv_mass[a];
    float ib = w->asleep[b] ? w->sleep_inv_mass[b] : w->inv_mass[b];
    return ia > 0.0f && ib > 0.0f && ledge__joint_held(w, a) == ledge__joint_held(w, b);
}

// Appends the pair (a, b) of the given kind (pair_kind); false only when
// the list cannot grow.
static inline bool append_pair(ledge_world *w, pair_out *out, int a, int b, uint8_t kind) {
    ledge__pair *p = next_pair(out->pairs, out->may_grow);
    if (p == NULL) return !out->may_grow;
    p->a = a;
    p->b = b;
    p->normal = v2(0.0f, 0.0f);
    p->kind = kind;
    p->state = (uint8_t)(((p->kind & LEDGE__PAIR_PLAIN) ? LEDGE__PAIR_DECIDED : 0u) |
                         (pair_gives_way(w, a, b) ? LEDGE__PAIR_GIVES : 0u));
    p->policy = LEDGE_RESPONSE_SLIDE;
    p->share = pair_share(w, a, b);
    return true;
}

static bool push_pair(ledge_world *w, pair_out *out, int a, int b) {
    return append_pair(w, out, a, b, pair_kind(w, a, b));
}

// Body a as the grid's pair loop tests it against its neighbours: its box
// read once per body, not once per neighbour (the stores to the pair list
// could alias it, so the compiler would read it again each time).
typedef struct probe {
    int a;
    uint8_t plain;
    vec2s center, half;
    float margin;
    const vec2s *centers, *halves;
} probe;

static inline probe probe_of(const ledge_world *w, int a) {
    probe p = {a,
               w->step.in_grid[a] ? w->step.plain[a] : (uint8_t)0,
               w->step.box_center[a],
               w->box_half[a],
               w->step.margin,
               w->step.box_center,
               w->box_half};
    return p;
}

// The rest of a candidate test, for boxes within the margin of each other.
static bool consider_near(ledge_world *w, pair_out *out, int a, int b) {
    if (!ledge__filters_allow(&w->filter[a], &w->filter[b])) return true;
    if ((w->joined[a] & w->joined[b]) && ledge__joints_keep_apart(w, a, b)) return true;
    if (w->sensor[a] | w->sensor[b]) {
        // A sensor reports bodies that move (not other sensors, not the level).
        if ((w->sensor[a] & w->sensor[b]) || w->type[w->sensor[a] ? b : a] == LEDGE_BODY_STATIC) {
            return true;
        }
        return push_sensor_pair(w, out, a, b);
    }
    if (w->inv_mass[a] + w->inv_mass[b] <= 0.0f) return true; // neither can move
    return push_pair(w, out, a, b);
}

// consider_near's answer for two plain bodies (plain_body).
static bool push_plain_pair(ledge_world *w, pair_out *out, int a, int b) {
    return append_pair(w, out, a, b, LEDGE__PAIR_CIRCLES | LEDGE__PAIR_PLAIN);
}

// Tests probe a and b as candidates; false only when the pair list cannot
// grow.
static inline bool consider_probe(ledge_world *w, pair_out *out, const probe *pa, int b) {
    vec2s d = v2_sub(pa->center, pa->centers[b]);
    vec2s r = v2_add(pa->half, pa->halves[b]);
    if (fabsf(d.x) >= r.x + pa->margin || fabsf(d.y) >= r.y + pa->margin) return true;
    if (pa->plain & w->step.plain[b]) return push_plain_pair(w, out, pa->a, b);
    return consider_near(w, out, pa->a, b);
}

static inline bool consider(ledge_world *w, pair_out *out, int a, int b) {
    probe pa = probe_of(w, a);
    return consider_probe(w, out, &pa, b);
}

// Active bodies in sorted[0 .. q] (counted by blocks when bodies sleep:
// count_active).
static inline int active_through(const ledge_world *w, int q) {
    return w->broad->active_before[q / LEDGE__BLOCK] + w->step.active_upto[q];
}

// Active bodies in sorted[q0 .. q1).
static inline int active_in(const ledge_world *w, int q0, int q1) {
    return (q1 > 0 ? active_through(w, q1 - 1) : 0) - (q0 > 0 ? active_through(w, q0 - 1) : 0);
}

// The bodies of sorted[q0 .. q1) against probe a; an inactive a (a static
// body) only against the active ones.
static inline bool consider_run(ledge_world *w, pair_out *out, const probe *pa, bool active, int q0,
                                int q1) {
    const int *sorted = w->grid.sorted;
    const uint8_t *act = w->step.active;
    for (int q = q0; q < q1; ++q) {
        int b = sorted[q];
        if (!(active | act[b])) continue;
        if (!consider_probe(w, out, pa, b)) return false;
    }
    return true;
}

// The inactive bodies of sorted[q0 .. q1) against probe a (active).
static inline bool consider_inactive(ledge_world *w, pair_out *out, const probe *pa, int q0,
                                     int q1) {
    if (q1 - q0 == active_in(w, q0, q1)) return true; // none
    const int *sorted = w->grid.sorted;
    const uint8_t *act = w->step.active;
    for (int q = q0; q < q1; ++q) {
        int b = sorted[q];
        if (act[b]) continue;
        if (!consider_probe(w, out, pa, b)) return false;
    }
    return true;
}

// The inactive bodies on the other side of body a (sorted[p] in cell c,
// column cx, row cy): its own cell before it, the west cell and the three
// cells below. While bodies sleep (broad->count_active) an inactive body
// searches nothing, so an active one meets these too.
static inline bool consider_behind(ledge_world *w, pair_out *out, const probe *pa, int p, int c,
                                   int cx, int cy) {
    const ledge__grid *g = &w->grid;
    int west = cx > 0 ? c - 1 : c;
    if (!consider_inactive(w, out, pa, g->cell_start[west], p)) return false;
    if (cy == 0) return true;
    int below = c - g->nx;
    int first = cx > 0 ? below - 1 : below, last = cx + 1 < g->nx ? below + 2 : below + 1;
    return consider_inactive(w, out, pa, g->cell_start[first], g->cell_start[last]);
}

// Each cell against itself and four of its neighbours (east, north-west,
// north, north-east): every adjacent pair of cells is visited once. Driven
// by the bodies (in cell order), not by the cells, so empty cells cost only
// the grid build's clear. The bodies are sorted by cell, row by row, so
// the rest of a body's own cell and its east neighbour are one run of the
// sorted list, and the three cells above it another: two loops, in the
// order of the five cells. The sorted bodies p0 .. p1 - 1 (one block).
//
// While bodies sleep, the search is driven by the active bodies alone, so
// that a resting pile costs its awake bodies, not its sleepers: an
// inactive body (static or asleep) searches nothing, and an active one
// also meets the inactive bodies behind it (consider_behind). A pair of
// two active bodies is then found once, by the first, and a pair of an
// active and an inactive body once, by the active one. Such a pair joins
// rows r - 1 .. r + 1 of its first body's row r; the relaxation's bands of
// one parity are a band apart, so they still share no body (resolve.c).
// p0 .. p1 is one block (p0 a multiple of LEDGE__BLOCK).
static void grid_pairs(ledge_world *w, pair_out *out, int p0, int p1) {
    const ledge__grid *g = &w->grid;
    const int *sorted = g->sorted, *cell_start = g->cell_start;
    int nx = g->nx, ny = g->ny;
    bool by_active = w->broad->count_active;
    // While bodies sleep, only the active bodies of the block are gone
    // through (step.active_at, from the block's start), their rows divided
    // out: a settled pile's sleepers cost nothing here. Otherwise every
    // body, the cells only growing along the list: the row is stepped to,
    // not divided out.
    int q = p0, q1 = p0;
    if (by_active && p1 > p0) q1 = p0 + w->step.active_upto[p1 - 1];
    int cy = p0 < p1 ? g->cell_of[sorted[p0]] / nx : 0, row = cy * nx;
    for (int p = p0; by_active ? q < q1 : p < p1; ++p) {
        if (by_active) p = w->step.active_at[q++];
        int a = sorted[p], c = g->cell_of[a];
        if (by_active) {
            cy = c / nx;
            row = cy * nx;
        } else {
            for (; c >= row + nx; row += nx) cy++;
        }
        bool active = w->step.active[a];
        int cx = c - row;
        probe pa = probe_of(w, a);
        int east = cx + 1 < nx ? c + 2 : c + 1;
        if (!consider_run(w, out, &pa, active, p + 1, cell_start[east])) return;
        if (cy + 1 < ny) {
            int above = c + nx;
            int first = cx > 0 ? above - 1 : above, last = cx + 1 < nx ? above + 2 : above + 1;
            if (!consider_run(w, out, &pa, active, cell_start[first], cell_start[last])) return;
        }
        if (by_active && !consider_behind(w, out, &pa, p, c, cx, cy)) return;
    }
}

// One block of sorted grid bodies into its own lists (a worker's item).
static void grid_block(ledge_world *w, int b, bool may_grow) {
    ledge__pair_list *pairs = &w->broad->pairs[b], *sensors = &w->broad->sensors[b];
    pairs->count = sensors->count = 0;
    pairs->overflow = sensors->overflow = false;
    pair_out out = {pairs, sensors, may_grow};
    int p1 = ledge__block_end(b, w->grid.count);
    grid_pairs(w, &out, b * LEDGE__BLOCK, p1);
}

static void grid_pairs_run(int start, int end, int worker, void *context) {
    (void)worker;
    for (int b = start; b < end; ++b) grid_block(context, b, false);
}

// Appends the pairs of `from` to the world's list `to` (growing it).
static void append_pairs(ledge__pair **to, int *count, int *cap, const ledge__pair_list *from) {
    if (from->count == 0) return;
    if (!reserve_pairs(to, cap, *count, *count + from->count)) return;
    memcpy(*to + *count, from->pairs, sizeof **to * (size_t)from->count);
    *count += from->count;
}

// Grid row r's pairs are pairs[row_start[r] .. row_start[r + 1]): the pairs
// come in the cell order of their first body, so each row's are together.
// Each row's start is written by the one pair where the rows step past it
// (a block of pairs per item); the rows before the first pair and after
// the last are set on the calling thread.
// Pairs per item of the row search.
#define PAIR_BLOCK 2048

static inline int pair_row(const ledge_world *w, int k) {
    return w->grid.cell_of[w->step.pairs[k].a] / w->grid.nx;
}

static void rows_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    int *row_start = w->par.row_start;
    for (int b = start; b < end; ++b) {
        int last = ledge__part_end(b, PAIR_BLOCK, w->step.pair_count);
        int k = b * PAIR_BLOCK > 0 ? b * PAIR_BLOCK : 1;
        int prev = k < last ? pair_row(w, k - 1) : 0;
        // Rows prev + 1 .. the pair's start at k (stepped, not divided).
        for (int next = (prev + 1) * w->grid.nx; k < last; ++k) {
            for (int c = w->grid.cell_of[w->step.pairs[k].a]; c >= next; next += w->grid.nx) {
                row_start[++prev] = k;
            }
        }
    }
}

static void find_rows(ledge_world *w) {
    int n = w->step.pair_count, ny = w->grid.ny, *start = w->par.row_start;
    int first = n > 0 ? pair_row(w, 0) : ny, last = n > 0 ? pair_row(w, n - 1) : ny;
    for (int r = 0; r <= first; ++r) start[r] = 0;
    ledge__run(w, rows_run, (n + PAIR_BLOCK - 1) / PAIR_BLOCK, 1, w);
    for (int r = last + 1; r <= ny; ++r) start[r] = n;
}

// A block's pairs and sensor pairs to their places in the step's lists
// (pair_offset and sensor_offset hold where they go).
static void copy_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    for (int b = start; b < end; ++b) {
        const ledge__pair_list *p = &w->broad->pairs[b], *s = &w->broad->sensors[b];
        if (p->count > 0)
            memcpy(w->step.pairs + w->broad->pair_offset[b], p->pairs,
                   sizeof *p->pairs * (size_t)p->count);
        if (s->count > 0)
            memcpy(w->step.sensor_pairs + w->broad->sensor_offset[b], s->pairs,
                   sizeof *s->pairs * (size_t)s->count);
    }
}

// The blocks' lists concatenated in block order: places by prefix sums and
// the copies on the workers, or (when the lists cannot grow to the whole)
// one block after another on this thread, as many as fit.
static void concatenate(ledge_world *w, int blocks) {
    int pairs = 0, sensors = 0;
    for (int b = 0; b < blocks; ++b) {
        w->broad->pair_offset[b] = pairs;
        w->broad->sensor_offset[b] = sensors;
        pairs += w->broad->pairs[b].count;
        sensors += w->broad->sensors[b].count;
    }
    if (LEDGE__RESERVE(w->step.pairs, w->step.pair_cap, pairs, 0, 256) &&
        LEDGE__RESERVE(w->step.sensor_pairs, w->step.sensor_pair_cap, sensors, 0, 256)) {
        ledge__run(w, copy_run, blocks, 1, w);
        w->step.pair_count = pairs;
        w->step.sensor_pair_count = sensors;
        return;
    }
    for (int b = 0; b < blocks; ++b) {
        append_pairs(&w->step.pairs, &w->step.pair_count, &w->step.pair_cap, &w->broad->pairs[b]);
        append_pairs(&w->step.sensor_pairs, &w->step.sensor_pair_count, &w->step.sensor_pair_cap,
                     &w->broad->sensors[b]);
    }
}

// Hands lists grown through a pair_out back to the step.
static void store_lists(ledge_world *w, const ledge__pair_list *pairs,
                        const ledge__pair_list *sensors) {
    w->step.pairs = pairs->pairs;
    w->step.pair_count = pairs->count;
    w->step.pair_cap = pairs->cap;
    w->step.sensor_pairs = sensors->pairs;
    w->step.sensor_pair_count = sensors->count;
    w->step.sensor_pair_cap = sensors->cap;
}

// One worker: the blocks, in order, straight into the step's list (what
// concatenating their own lists would give, without copying them). Where
// each block's pairs start is kept for a search again (splice()).
static void grid_pairs_in_place(ledge_world *w) {
    ledge__pair_list pairs = {w->step.pairs, 0, w->step.pair_cap, false};
    ledge__pair_list sensors = {w->step.sensor_pairs, 0, w->step.sensor_pair_cap, false};
    pair_out out = {&pairs, &sensors, true};
    for (int b = 0; b < ledge__blocks(w->grid.count); ++b) {
        int p1 = ledge__block_end(b, w->grid.count);
        w->broad->pair_start[b] = pairs.count;
        w->broad->sensor_start[b] = sensors.count;
        grid_pairs(w, &out, b * LEDGE__BLOCK, p1); // a block that cannot grow the list stops
    }
    store_lists(w, &pairs, &sensors);
}

// grid_pairs_in_place as one task (on the calling thread), so that the
// step's profile counts it with the parallel work it stands for.
static void in_place_run(int start, int end, int worker, void *context) {
    (void)start, (void)end, (void)worker;
    grid_pairs_in_place(context);
}

// The grid's pairs: the blocks on the workers, then (on this thread) the
// blocks that ran out of room again with room to grow, and the blocks'
// lists concatenated in block order.
// With sleeping bodies, the active bodies are counted and listed along
// the sorted list, so that the pair loop goes through those alone and
// skips runs of inactive ones. By blocks, so that a search again after a
// wake recounts only the blocks it searches again: block b's active
// bodies are listed in step.active_at from b * LEDGE__BLOCK on, counted in
// step.active_upto from the block's start, and broad->active_before holds
// those of the blocks before it.
static void count_block_active(ledge_world *w, int b) {
    int p0 = b * LEDGE__BLOCK, p1 = ledge__block_end(b, w->grid.count), n = 0;
    for (int p = p0; p < p1; ++p) {
        if (w->step.active[w->grid.sorted[p]]) w->step.active_at[p0 + n++] = p;
        w->step.active_upto[p] = n;
    }
}

static void count_active_run(int start, int end, int worker, void *context) {
    (void)worker;
    for (int b = start; b < end; ++b) count_block_active(context, b);
}

static void sum_active_before(ledge_world *w, int blocks) {
    int n = 0;
    for (int b = 0; b < blocks; ++b) {
        w->broad->active_before[b] = n;
        n += w->step.active_upto[ledge__block_end(b, w->grid.count) - 1];
    }
}

static void count_active(ledge_world *w) {
    int blocks = ledge__blocks(w->grid.count);
    ledge__run(w, count_active_run, blocks, 1, w);
    sum_active_before(w, blocks);
}

// The grid's part of the lists is complete: its length, and its rows.
static void grid_part_done(ledge_world *w) {
    w->step.grid_pair_count = w->step.pair_count;
    w->step.grid_sensor_count = w->step.sensor_pair_count;
    find_rows(w);
}

static void all_grid_pairs(ledge_world *w) {
    int blocks = ledge__blocks(w->grid.count);
    w->broad->count_active = w->sleepers > 0;
    if (w->broad->count_active) count_active(w);
    if (blocks > 0) memset(w->broad->research, 0, (size_t)blocks); // (none: no room yet)
    w->broad->research_all = false;
    if (w->par.workers == NULL) {
        ledge__run(w, in_place_run, 1, 1, w);
        grid_part_done(w);
        return;
    }
    ledge__run(w, grid_pairs_run, blocks, 1, w);
    for (int b = 0; b < blocks; ++b) {
        if (w->broad->pairs[b].overflow || w->broad->sensors[b].overflow) grid_block(w, b, true);
    }
    concatenate(w, blocks);
    grid_part_done(w);
}

// --- searching again after a wake ------------------------------------------
//
// A sleeper woken by the pairs (sleep.c) becomes active, and the substep
// must meet its pairs: the search is made again. A body's search reaches
// the cells around its own only, so the woken body changes only the
// searches of the bodies in the 3 x 3 cells around it: their blocks of
// the sorted list are searched again, and the other blocks keep their
// lists. The blocks keep their order, so the lists are those of a whole
// search made again, bit for bit. (While bodies wake every substep, as a
// sleeping pile's sliding surface wakes its neighbours, a whole search
// made again cost as much as the first.)

void ledge__broad_woken(ledge_world *w, int s) {
    if (!w->step.in_grid[s]) {
        w->broad->research_all = true; // a big body: every block (rare)
        return;
    }
    const ledge__grid *g = &w->grid;
    int c = g->cell_of[s], cx = c % g->nx, cy = c / g->nx;
    int x0 = cx > 0 ? cx - 1 : cx, x1 = cx + 1 < g->nx ? cx + 1 : cx;
    for (int y = cy > 0 ? cy - 1 : cy; y <= cy + 1 && y < g->ny; ++y) {
        int first = g->cell_start[y * g->nx + x0], end = g->cell_start[y * g->nx + x1 + 1];
        for (int b = first / LEDGE__BLOCK; first < end && b <= (end - 1) / LEDGE__BLOCK; ++b)
            w->broad->research[b] = 1;
    }
}

static inline bool searched_again(const ledge_world *w, int b) {
    return w->broad->research_all || w->broad->research[b];
}

static void research_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    for (int b = start; b < end; ++b) {
        if (searched_again(w, b)) grid_block(w, b, false);
    }
}

// One worker: the blocks to search again, in order, into one list of
// pairs and one of sensor pairs (broad->pairs[0], broad->sensors[0]: no room is
// kept per block), each block's start in them in broad->fresh_start (two per
// block). False when a list could not grow.
static bool research_in_place(ledge_world *w, int blocks) {
    ledge__pair_list *pairs = &w->broad->pairs[0], *sensors = &w->broad->sensors[0];
    pairs->count = sensors->count = 0;
    pairs->overflow = sensors->overflow = false;
    pair_out out = {pairs, sensors, true};
    for (int b = 0; b < blocks; ++b) {
        w->broad->fresh_start[2 * b] = pairs->count;
        w->broad->fresh_start[2 * b + 1] = sensors->count;
        if (searched_again(w, b))
            grid_pairs(w, &out, b * LEDGE__BLOCK, ledge__block_end(b, w->grid.count));
    }
    return !pairs->overflow && !sensors->overflow;
}

static inline int fresh_count(const ledge__fresh_list *f, int b, int blocks) {
    int end = b + 1 < blocks ? f->start[f->stride * (b + 1)] : f->end;
    return end - f->start[f->stride * b];
}

// The segments that are not replaced move: those moving right from the
// last, those moving left from the first (neither overwrites a source the
// other still needs: the blocks keep their order), then the fresh pairs
// are copied in. (A wake only adds pairs before it removes any, in the
// list's order, so the search again never moves a segment left; the
// splice does not rely on it, and test_workers checks both directions.)
bool ledge__splice_blocks(ledge__pair **list, int *count, int *cap, const int *start,
                          const uint8_t *again, const ledge__fresh_list *fresh, int blocks,
                          int *to) {
    int old_end = *count, at = 0;
    for (int b = 0; b < blocks; ++b) {
        to[b] = at;
        int end = b + 1 < blocks ? start[b + 1] : old_end;
        at += again[b] ? fresh_count(fresh, b, blocks) : end - start[b];
    }
    if (!reserve_pairs(list, cap, old_end, at)) return false;
    ledge__pair *p = *list;
    for (int pass = 0; pass < 2; ++pass) {
        for (int k = 0; k < blocks; ++k) {
            int b = pass == 0 ? blocks - 1 - k : k, end = b + 1 < blocks ? start[b + 1] : old_end;
            bool moves = pass == 0 ? to[b] > start[b] : to[b] < start[b];
            if (!again[b] && moves && end > start[b])
                memmove(p + to[b], p + start[b], sizeof *p * (size_t)(end - start[b]));
        }
    }
    for (int b = 0; b < blocks; ++b) {
        int n = again[b] ? fresh_count(fresh, b, blocks) : 0;
        if (n > 0)
            memcpy(p + to[b], fresh->pairs + fresh->start[fresh->stride * b],
                   sizeof *p * (size_t)n);
    }
    *count = at;
    return true;
}

// Whether most blocks are to be searched again (one worker then searches
// them all again in place, which needs no room beside the list).
static bool most_blocks_again(const ledge_world *w, int blocks) {
    int n = 0;
    for (int b = 0; b < blocks; ++b) n += searched_again(w, b);
    return 2 * n > blocks;
}

// One worker: the searched-again blocks spliced into the in-place lists.
static bool splice_in_place(ledge_world *w, int blocks) {
    if (!research_in_place(w, blocks)) return false;
    int *to = w->broad->splice_to;
    ledge__fresh_list pairs = {w->broad->pairs[0].pairs, w->broad->fresh_start, 2,
                               w->broad->pairs[0].count};
    ledge__fresh_list sensors = {w->broad->sensors[0].pairs, w->broad->fresh_start + 1, 2,
                                 w->broad->sensors[0].count};
    return ledge__splice_blocks(&w->step.pairs, &w->step.pair_count, &w->step.pair_cap,
                                w->broad->pair_start, w->broad->research, &pairs, blocks, to) &&
           ledge__splice_blocks(&w->step.sensor_pairs, &w->step.sensor_pair_count,
                                &w->step.sensor_pair_cap, w->broad->sensor_start,
                                w->broad->research, &sensors, blocks, to);
}

// The grid's part of the lists again (false: the whole search must be
// made again: most blocks are to be searched again on one worker, or a
// list could not grow).
static bool grid_pairs_again(ledge_world *w) {
    int blocks = ledge__blocks(w->grid.count);
    bool in_place = w->par.workers == NULL;
    if (blocks == 0 || (in_place && most_blocks_again(w, blocks))) return false;
    // The woken bodies are in the blocks searched again (their own cells
    // are among the 3 x 3 marked): only those are counted again.
    for (int b = 0; b < blocks; ++b) {
        if (searched_again(w, b)) count_block_active(w, b);
    }
    sum_active_before(w, blocks);
    w->step.pair_count = w->step.grid_pair_count; // the big bodies' pairs are found again
    w->step.sensor_pair_count = w->step.grid_sensor_count;
    if (in_place) {
        if (!splice_in_place(w, blocks)) return false;
    } else {
        ledge__run(w, research_run, blocks, 1, w);
        for (int b = 0; b < blocks; ++b) {
            if (searched_again(w, b) &&
                (w->broad->pairs[b].overflow || w->broad->sensors[b].overflow))
                grid_block(w, b, true);
        }
        w->step.pair_count = w->step.sensor_pair_count = 0;
        concatenate(w, blocks);
    }
    grid_part_done(w);
    w->debug.researched++;
    return true;
}

// A big body against the grid bodies whose cells its grown box reaches
// (their centres lie within half a cell of their own boxes), then against
// the big bodies after it.
static void big_pairs_into(ledge_world *w, pair_out *out) {
    const ledge__grid *g = &w->grid;
    for (int k = 0; k < w->step.big_count; ++k) {
        int a = w->step.big_list[k];
        ledge__cell_rect r = ledge__grid_cells(w, w->step.box_center[a], w->box_half[a],
                                               0.5f * g->cell + w->step.margin);
        for (int y = r.y0; y <= r.y1; ++y) {
            for (int x = r.x0; x <= r.x1; ++x) {
                int d = y * g->nx + x;
                for (int q = g->cell_start[d]; q < g->cell_start[d + 1]; ++q) {
                    if (!consider(w, out, a, g->sorted[q])) return;
                }
            }
        }
        for (int j = k + 1; j < w->step.big_count; ++j) {
            if (!consider(w, out, a, w->step.big_list[j])) return;
        }
    }
}

// The big bodies' pairs, after the grid's, on this thread.
static void big_pairs(ledge_world *w) {
    ledge__pair_list pairs = {w->step.pairs, w->step.pair_count, w->step.pair_cap, false};
    ledge__pair_list sensors = {w->step.sensor_pairs, w->step.sensor_pair_count,
                                w->step.sensor_pair_cap, false};
    pair_out out = {&pairs, &sensors, true};
    big_pairs_into(w, &out);
    store_lists(w, &pairs, &sensors);
}

// --- pairs after far pushes ---------------------------------------------------

// The candidate pairs are listed once per substep, for boxes grown by the
// margin; a pass can push a body further than that (a landing body stops
// inside the one below and is pushed back out, into the one falling behind
// it), and the pairs it then makes would be missed for the rest of the
// substep: the two stay overlapped, and deep in a pile nothing works the
// overlap off. So after each pass the bodies pushed beyond the margin look
// for them (ledge__far_pairs).

// Whether boxes at centres ca, cb with summed half extents h are within
// the margin m of each other (the candidate test's own numbers).
static inline bool within_margin(vec2s ca, vec2s cb, vec2s h, float m) {
    vec2s d = v2_sub(ca, cb);
    return fabsf(d.x) < h.x + m && fabsf(d.y) < h.y + m;
}

static inline uint32_t far_slot_of(uint64_t key, int cap) {
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (uint32_t)(cap - 1);
}

// Doubles the hash set of far pairs (at least 1024 slots), its keys kept.
static bool far_keys_grow(ledge_world *w) {
    int cap = w->broad->far_key_cap ? 2 * w->broad->far_key_cap : 1024;
    uint64_t *fresh = ledge__alloc(sizeof *fresh * (size_t)cap);
    if (fresh == NULL) {
        LEDGE_ERROR("ledge_world_step: allocation of %d far pair keys failed (pairs found after "
                    "far pushes are skipped this substep)",
                    cap);
        return false;
    }
    memset(fresh, 0, sizeof *fresh * (size_t)cap);
    for (int k = 0; k < w->broad->far_key_cap; ++k) {
        uint64_t key = w->broad->far_keys[k];
        if (key == 0) continue;
        uint32_t at = far_slot_of(key, cap);
        while (fresh[at] != 0) at = (at + 1) & (uint32_t)(cap - 1);
        fresh[at] = key;
    }
    ledge__free(w->broad->far_keys);
    w->broad->far_keys = fresh;
    w->broad->far_key_cap = cap;
    return true;
}

// Adds the pair (a, b) to the substep's far pairs; false when it is there
// already (or the set cannot grow).
static bool far_key_insert(ledge_world *w, int a, int b) {
    if (2 * (w->broad->far_key_count + 1) > w->broad->far_key_cap && !far_keys_grow(w))
        return false;
    uint64_t lo = (uint64_t)(a < b ? a : b), hi = (uint64_t)(a < b ? b : a);
    uint64_t key = lo << 32 | hi; // never 0: a != b
    uint32_t mask = (uint32_t)(w->broad->far_key_cap - 1),
             at = far_slot_of(key, w->broad->far_key_cap);
    for (; w->broad->far_keys[at] != 0; at = (at + 1) & mask) {
        if (w->broad->far_keys[at] == key) return false;
    }
    w->broad->far_keys[at] = key;
    w->broad->far_key_count++;
    return true;
}

// The substep's far pairs forgotten (at its broad phase).
static void far_keys_clear(ledge_world *w) {
    if (w->broad->far_key_count == 0) return;
    memset(w->broad->far_keys, 0, sizeof *w->broad->far_keys * (size_t)w->broad->far_key_cap);
    w->broad->far_key_count = 0;
}

// Body b near marked body a: a candidate when their boxes are within the
// margin now but were not at the anchors (the broad phase saw that and
// listed the pair, or had reasons not to), neither is a sensor (sensors
// report from their own list, which the anchors decide), and the pair is
// new this substep; then consider_near's rules. False only when the list
// cannot grow.
static bool far_consider(ledge_world *w, pair_out *out, int a, int b) {
    if (b == a || (w->sensor[a] | w->sensor[b])) return true;
    vec2s h = v2_add(w->box_half[a], w->box_half[b]);
    float m = w->step.margin;
    if (!within_margin(w->step.box_center[a], w->step.box_center[b], h, m) ||
        within_margin(w->tile_anchor[a], w->tile_anchor[b], h, m) || !far_key_insert(w, a, b)) {
        return true;
    }
    return consider_near(w, out, a, b);
}

// Marked body a's new pairs: the grid bodies of the cells its box reaches
// (a filed centre lies within half a cell of its box, and a body not
// marked itself within the margin of its anchor), and the big bodies.
static bool far_search(ledge_world *w, pair_out *out, int a) {
    const ledge__grid *g = &w->grid;
    ledge__cell_rect r = ledge__grid_cells(w, w->step.box_center[a], w->box_half[a],
                                           0.5f * g->cell + 2.0f * w->step.margin);
    for (int y = r.y0; y <= r.y1; ++y) {
        int first = g->cell_start[y * g->nx + r.x0], last = g->cell_start[y * g->nx + r.x1 + 1];
        for (int q = first; q < last; ++q) {
            if (!far_consider(w, out, a, g->sorted[q])) return false;
        }
    }
    for (int k = 0; k < w->step.big_count; ++k) {
        if (!far_consider(w, out, a, w->step.big_list[k])) return false;
    }
    return true;
}

int ledge__far_pairs(ledge_world *w, bool search) {
    if (ledge__take_far_moved(w) == 0) return 0;
    ledge__pair_list pairs = {w->step.pairs, w->step.pair_count, w->step.pair_cap, false};
    ledge__pair_list sensors = {w->step.sensor_pairs, w->step.sensor_pair_count,
                                w->step.sensor_pair_cap, false};
    pair_out out = {&pairs, &sensors, true};
    bool room = search;
    for (int i = 0; i < w->slot_count; ++i) {
        if (!w->step.far_moved[i]) continue;
        w->step.far_moved[i] = 0;
        if (room) room = far_search(w, &out, i);
    }
    int added = pairs.count - w->step.pair_count;
    store_lists(w, &pairs, &sensors);
    return added;
}

// After the grid's pairs: the big bodies' pairs and the tile list.
static void after_grid_pairs(ledge_world *w) {
    big_pairs(w);
    ledge__broad_tile_list(w);
    far_keys_clear(w);
}

void ledge__broad_pairs(ledge_world *w) {
    w->step.pair_count = 0;
    w->step.sensor_pair_count = 0;
    all_grid_pairs(w);
    after_grid_pairs(w);
}

void ledge__broad_pairs_again(ledge_world *w) {
    // No sleeper left: the search's mode changes (count_active), all again.
    if (!w->debug.research_on || w->broad->research_all || !w->broad->count_active ||
        w->sleepers == 0 || !grid_pairs_again(w)) {
        ledge__broad_pairs(w);
        return;
    }
    after_grid_pairs(w);
}
