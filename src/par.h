// The step's parallel scratch (par.c): the blocks of slots the per-body
// stages go through, dormant blocks, the workers' counters, the profile's
// clock, and running a task on the workers.
#ifndef LEDGE_PAR_H
#define LEDGE_PAR_H

#include "workers.h"
#include "world_state.h"

/// Makes room in the scratch for `slots` body slots and `rows` grid rows
/// (par.c); false (logged) when an allocation fails.
bool ledge__par_reserve(ledge_world *world, int slots, int rows);

/// Stops the workers and frees the scratch (par.c).
void ledge__par_free(ledge__par *par);

/// The blocks' part of ledge__world_forget (par.c): after the slots moved
/// (LEDGE__STALE_SLOTS), no block is dormant; the next step's end finds
/// the dormant ones again.
void ledge__par_forget(ledge_world *world, ledge__stale why);

/// Blocks of LEDGE__BLOCK covering n items.
static inline int ledge__blocks(int n) {
    return (n + LEDGE__BLOCK - 1) / LEDGE__BLOCK;
}

/// The end of part b of n items cut in parts of `per` (it starts at b * per).
static inline int ledge__part_end(int b, int per, int n) {
    int end = (b + 1) * per;
    return end < n ? end : n;
}

/// The end of block b of n items (it starts at b * LEDGE__BLOCK).
static inline int ledge__block_end(int b, int n) {
    return ledge__part_end(b, LEDGE__BLOCK, n);
}

/// Whether block b of the slots is dormant (see ledge__par.dormant).
static inline bool ledge__dormant(const ledge_world *w, int b) {
    return w->par.dormant[b] != 0;
}

/// The end of the slots of block b a stage that has nothing to do for a
/// sleeper goes through: the block's start when it is dormant.
static inline int ledge__stirred_end(const ledge_world *w, int b) {
    return ledge__dormant(w, b) ? b * LEDGE__BLOCK : ledge__block_end(b, w->slot_count);
}

/// Block of slot i is no longer dormant (ledge__par.dormant): body i is
/// about to wake, be made or change. (What the stages remember of a
/// dormant block is forgotten when it becomes dormant again: sleep.c,
/// make_dormant.)
static inline void ledge__stir(ledge_world *w, int i) {
    int b = i / LEDGE__BLOCK;
    if (b >= w->par.block_cap) return;
    w->par.dormant[b] = 0;
}

/// The profile's clock: the wall clock for the game's profile, else the
/// calling thread's CPU time (the benchmark's).
static inline double ledge__profile_clock(const ledge__profile *p) {
    return p->wall ? ledge__wall_seconds() : ledge__seconds();
}

/// Runs `task` over `items` items on the world's workers (workers.h).
static inline void ledge__run(ledge_world *w, ledge_task_fn *task, int items, int min_range,
                              void *context) {
    if (LEDGE_UNLIKELY(w->par.profile.on)) {
        double t0 = ledge__profile_clock(&w->par.profile);
        ledge__workers_run(w->par.workers, task, items, min_range, context);
        w->par.profile.parallel[w->par.profile.stage] += ledge__profile_clock(&w->par.profile) - t0;
        return;
    }
    ledge__workers_run(w->par.workers, task, items, min_range, context);
}

/// The sum of the workers' counters of one kind, zeroing them.
int ledge__take_pushes(ledge_world *world);
int ledge__take_rechecked(ledge_world *world);

/// The workers' count of bodies pushed beyond the margin, summed and reset
/// (par.c).
int ledge__take_far_moved(ledge_world *world);

#endif // LEDGE_PAR_H
