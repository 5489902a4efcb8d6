// Snapshots: the tilemap's tiles and one-way settings (snapshot_tiles.c).
#ifndef LEDGE_SNAPSHOT_TILES_H
#define LEDGE_SNAPSHOT_TILES_H

#include "snapshot_codec.h"

void ledge__snap_tiles_put(const ledge_world *w, ledge__writer *o);
bool ledge__snap_tiles_get(ledge__reader *r, ledge_world *w, bool apply);

#endif // LEDGE_SNAPSHOT_TILES_H
