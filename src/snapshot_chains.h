// Snapshots: the chains (snapshot_chains.c).
#ifndef LEDGE_SNAPSHOT_CHAINS_H
#define LEDGE_SNAPSHOT_CHAINS_H

#include "snapshot_codec.h"

/// Writes the world's chains: every slot (its generation, and a living
/// chain's points, type, motion, filter and user data), the free slots in
/// their order, and the chains the game moved since the last step.
void ledge__snap_chains_put(const ledge_world *w, ledge__writer *o);

/// The first reading: checks the chains and builds them aside, into
/// plan->chains (false, that store freed, on anything wrong or when an
/// allocation fails).
bool ledge__snap_chains_check(ledge__reader *r, ledge__snap_plan *plan);

/// The second reading: the chains built aside replace the world's.
void ledge__snap_chains_apply(ledge_world *w, ledge__snap_plan *plan);

#endif // LEDGE_SNAPSHOT_CHAINS_H
