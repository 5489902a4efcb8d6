// The bodies ordered by space. Bodies are made in whatever order the game
// makes them (the rain: row by row of a wide grid), so the neighbours a
// stage of the step reads together can be far apart in memory: at 100,000
// bodies each pair test then misses the cache. Every few steps the slots
// are renumbered in the order of the grid cells the last substep filed
// them in (rows along up, as the broad phase reads them), and by id within
// a cell, so that the broad phase, the relaxation and the velocity pass
// walk memory nearly in order. Ids do not change: each names a handle,
// whose slot the store keeps (body_store.h).
//
// What the world keeps by slot across steps is remapped here: the recorded
// contacts (replayed by the next substep). The event keys and the
// character table are kept by handle, and so never move; what the stages
// derive from the slots (the dormant blocks, the broad phase's classified
// blocks and its grid, the contact and query indexes) is forgotten by the
// caller (ledge__world_forget) and found again.
#include "body_store.h"
#include "order.h"
#include "world_state.h"

#include <string.h>

// The clock counts the steps ended since the last reordering, which a new
// world or a new period counts as made one step before its first: the
// reordering comes at the end of its (period - 1)-th step, then of every
// period-th.
static void start_period(ledge__order *o, int period) {
    o->period = period > 0 ? period : 0;
    o->clock = 1;
}

void ledge__order_init(ledge__order *o) {
    start_period(o, LEDGE__ORDER_PERIOD);
}

void ledge__order_set_period(ledge_world *w, int period) {
    start_period(w->order, period);
}

// order_key[i]: the grid cell slot i was filed in by the last build, or
// `cells` (after every cell) for a slot filed nowhere (dead, too large for
// the grid, made since). Counting sort by key, slots visited in handle
// order: order[k] is the old slot of new slot k, by cell then by id.
// Returns whether that moves any body.
static bool sort_by_cell(ledge_world *w) {
    const ledge__grid *g = &w->grid;
    int n = w->slot_count, cells = g->nx * g->ny;
    int *key = w->step.order_key, *order = w->step.order;
    int *start = g->cell_start; // cells + 1 counters: the next substep refiles the grid
    memset(start, 0, sizeof(int) * (size_t)(cells + 1));
    for (int i = 0; i < n; ++i) {
        int c = i < g->slots ? g->cell_of[i] : -1;
        key[i] = c >= 0 && c < cells ? c : cells;
        start[key[i]]++;
    }
    for (int c = 0, sum = 0; c <= cells; ++c) {
        int here = start[c];
        start[c] = sum;
        sum += here;
    }
    bool moved = false;
    for (int h = 0; h < n; ++h) {
        int i = w->slot_of[h];
        int k = start[key[i]]++;
        order[k] = i;
        moved |= k != i;
    }
    return moved;
}

// Old slot -> new slot in order_key, and the contacts follow.
static void remap(ledge_world *w) {
    int n = w->slot_count;
    int *new_of = w->step.order_key;
    for (int k = 0; k < n; ++k) new_of[w->step.order[k]] = k;
    for (int k = 0; k < w->contact_count + w->held_count; ++k) {
        ledge__contact *c = k < w->contact_count ? &w->contacts[k] : &w->held[k - w->contact_count];
        c->a = new_of[c->a];
        if (c->b >= 0) c->b = new_of[c->b];
    }
}

bool ledge__order_bodies(ledge_world *w) {
    ledge__order *o = w->order;
    if (o->period <= 0 || ++o->clock < o->period) return false;
    o->clock = 0;
    const ledge__grid *g = &w->grid;
    if (g->slots == 0 || g->slots > w->slot_count || g->nx * g->ny + 1 > g->cell_cap) return false;
    bool moved = sort_by_cell(w);
    if (moved) {
        ledge__store_permute(w, w->step.order);
        remap(w);
        w->debug.reorders++;
    }
    w->grid.slots = 0; // its cell_start held the sort's counters
    return moved;
}
