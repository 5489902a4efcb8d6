// The step's parallel scratch (par.h): per-block outputs of
// the stages the workers share, reserved before the step moves anything so
// that no worker allocates (a pair list may still grow while the world warms
// up, on the calling thread: broad.c).
#include "par.h"

#include <stddef.h>
#include <string.h>

static bool reserve_blocks(ledge__par *p, int blocks) {
    if (blocks <= p->block_cap) return true;
    int want = blocks < 8 ? 8 : blocks + blocks / 2;
    // (A new dormant array marks no block dormant: the step's end finds them.)
    if (!ledge__array_regrow((void **)&p->block_count, sizeof *p->block_count, 0, want) ||
        !ledge__array_regrow((void **)&p->block_flag, sizeof *p->block_flag, 0, want) ||
        !ledge__array_regrow((void **)&p->dormant, sizeof *p->dormant, 0, want)) {
        // The arrays grown so far keep their contents; block_cap stays the
        // smallest of them, so the next attempt grows them all again.
        LEDGE_ERROR("ledge_world_step: allocation of the workers' scratch for %d blocks failed",
                    want);
        return false;
    }
    p->block_cap = want;
    return true;
}

bool ledge__par_reserve(ledge_world *w, int slots, int rows) {
    ledge__par *p = &w->par;
    if (!reserve_blocks(p, ledge__blocks(slots))) return false;
    if (slots > p->items_cap) {
        int want = slots + slots / 2;
        if (!ledge__array_regrow((void **)&p->items, sizeof *p->items, 0, want)) {
            LEDGE_ERROR("ledge_world_step: allocation of the workers' scratch for %d bodies failed",
                        want);
            return false;
        }
        p->items_cap = want;
    }
    if (rows + 2 > p->row_cap) {
        int want = rows + 2 + (rows + 2) / 2;
        if (!ledge__array_regrow((void **)&p->row_start, sizeof *p->row_start, 0, want)) {
            LEDGE_ERROR("ledge_world_step: allocation of the workers' scratch for %d grid rows "
                        "failed",
                        want);
            return false;
        }
        p->row_cap = want;
    }
    return true;
}

void ledge__par_free(ledge__par *p) {
    ledge__workers_destroy(p->workers);
    ledge__free(p->block_count);
    ledge__free(p->block_flag);
    ledge__free(p->dormant);
    ledge__free(p->items);
    ledge__free(p->row_start);
    memset(p, 0, sizeof *p);
}

void ledge__par_forget(ledge_world *w, ledge__stale why) {
    if ((why & LEDGE__STALE_SLOTS) && w->par.block_cap > 0)
        memset(w->par.dormant, 0, (size_t)w->par.block_cap);
}

// One of the workers' counters (at byte `offset` of each), summed and reset.
static int take_counter(ledge_world *w, size_t offset) {
    int sum = 0;
    for (int k = 0; k < LEDGE_MAX_WORKERS; ++k) {
        int *n = (int *)((char *)&w->par.counter[k] + offset);
        sum += *n;
        *n = 0;
    }
    return sum;
}

int ledge__take_pushes(ledge_world *w) {
    return take_counter(w, offsetof(struct ledge__counter, pushes));
}

int ledge__take_rechecked(ledge_world *w) {
    return take_counter(w, offsetof(struct ledge__counter, rechecked));
}

int ledge__take_far_moved(ledge_world *w) {
    return take_counter(w, offsetof(struct ledge__counter, far_moved));
}
