// Snapshots: the last step's touch keys and events (snapshot_events.c).
#ifndef LEDGE_SNAPSHOT_EVENTS_H
#define LEDGE_SNAPSHOT_EVENTS_H

#include "snapshot_codec.h"

void ledge__snap_events_put(const ledge_world *w, ledge__writer *o);
bool ledge__snap_events_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan, bool apply);

#endif // LEDGE_SNAPSHOT_EVENTS_H
