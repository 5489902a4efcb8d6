// Snapshots: the tilemap's tiles, one-way settings and materials
// (snapshot_tiles.c).
#ifndef LEDGE_SNAPSHOT_TILES_H
#define LEDGE_SNAPSHOT_TILES_H

#include "snapshot_codec.h"

void ledge__snap_tiles_put(const ledge_world *w, ledge__writer *o);
/// Reads the tilemap's section: checks it (the first reading: the count of
/// per-cell materials into *cell_materials, for the room the second needs),
/// or with `apply` puts it back (that room made).
bool ledge__snap_tiles_get(ledge__reader *r, ledge_world *w, bool apply, int *cell_materials);

#endif // LEDGE_SNAPSHOT_TILES_H
