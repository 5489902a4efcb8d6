// Snapshots: the body store (snapshot_bodies.c), as fixed-width columns and
// the settings as runs; checked, then applied.
#ifndef LEDGE_SNAPSHOT_BODIES_H
#define LEDGE_SNAPSHOT_BODIES_H

#include "snapshot_codec.h"

void ledge__snap_bodies_put(const ledge_world *w, ledge__writer *o);
/// Also grows the store to the snapshot's slots, and leaves in the scratch
/// what the later sections check ids against (ledge__snap_alive).
bool ledge__snap_bodies_check(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan);
/// The snapshot's `size` bytes at `b` (its settings' runs are read again).
void ledge__snap_bodies_apply(ledge_world *w, const ledge__snap_plan *plan, const uint8_t *b,
                              size_t size);

#endif // LEDGE_SNAPSHOT_BODIES_H
