// Internal: the bodies ordered by space (order.c).
// A stage of the step: it includes the world's state and the stages below
// it only (docs/design.md, "How the modules layer").
#ifndef LEDGE_ORDER_H
#define LEDGE_ORDER_H

#include "world_state.h"

/// Steps between reorderings unless set (ledge__order_set_period).
#define LEDGE__ORDER_PERIOD 16

/// The slots' order's state (w->order): when the next reordering comes.
/// It owns no memory; its work arrays are the step's per-body scratch
/// (order, order_key) and its counters the grid's cell_start.
typedef struct ledge__order {
    int period; ///< Steps between reorderings (0: never).
    /// Steps ended since the last reordering (a snapshot keeps it: the
    /// reorderings of a restored world come when the saved one's would).
    int clock;
} ledge__order;

/// A new world's: reorderings every LEDGE__ORDER_PERIOD steps.
void ledge__order_init(ledge__order *order);

/// At the end of a step, before every period-th step: renumbers the slots
/// by the grid cell each body was filed in by the step's last substep
/// (then by id), so that bodies near in space are near in memory, and
/// remaps the contacts (the only state kept by slot besides the store).
/// Allocates nothing. Ids, and every body's state, are unchanged. Returns
/// whether any body moved: what the stages derived from the slots is then
/// stale (the caller forgets it: ledge__world_forget). (At the end of the
/// step, not at the start of the next: the grid's filing is then never read
/// across steps, so a world restored from a snapshot, which has no filing,
/// reorders exactly as the one that saved it.)
bool ledge__order_bodies(ledge_world *world);

/// Sets the steps between reorderings (0: never). For the benchmarks and
/// tests that compare with and without; the default is LEDGE__ORDER_PERIOD.
/// The first comes before the period-th step from now.
void ledge__order_set_period(ledge_world *world, int period);

#endif // LEDGE_ORDER_H
