// Snapshots: the joint table (snapshot_joints.c).
#ifndef LEDGE_SNAPSHOT_JOINTS_H
#define LEDGE_SNAPSHOT_JOINTS_H

#include "snapshot_codec.h"

/// Writes the joint table: the indices used, the free list (in its order:
/// it decides the next ids), each joint's generation, and a living
/// joint's def and last force.
void ledge__snap_joints_put(const ledge_world *w, ledge__writer *o);

/// Reads the joint table: the first reading (`apply` false) checks it
/// against the snapshot's bodies (after the body section's: each body
/// handle a living body, two different bodies) and notes the room it
/// needs in the plan; the second puts it back, with what is derived from
/// it (each body's joints, the bodies kept apart).
bool ledge__snap_joints_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan, bool apply);

/// Room for the second reading's joints (false, logged by the caller, when
/// an allocation fails; the table is as it was).
bool ledge__snap_joints_reserve(ledge_world *w, const ledge__snap_plan *plan);

#endif // LEDGE_SNAPSHOT_JOINTS_H
