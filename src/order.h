// Internal: the bodies ordered by space (order.c). Imports the world's
// types (world.h) only; the modules layer as docs/design.md ("Modules")
// says.
#ifndef LEDGE_ORDER_H
#define LEDGE_ORDER_H

#include "world.h"

/// Steps between reorderings unless set (ledge__order_set_period).
#define LEDGE__ORDER_PERIOD 16

/// At the start of a step, every order_period steps: renumbers the slots by
/// the grid cell each body was filed in by the last substep (then by id),
/// so that bodies near in space are near in memory, and remaps every slot
/// kept across steps. Allocates nothing. Ids, and every body's state, are
/// unchanged.
void ledge__order_bodies(ledge_world *world);

/// Sets the steps between reorderings (0: never). For the benchmarks and
/// tests that compare with and without; the default is LEDGE__ORDER_PERIOD.
void ledge__order_set_period(ledge_world *world, int period);

#endif // LEDGE_ORDER_H
