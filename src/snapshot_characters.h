// Snapshots: the character table (snapshot_characters.c).
#ifndef LEDGE_SNAPSHOT_CHARACTERS_H
#define LEDGE_SNAPSHOT_CHARACTERS_H

#include "snapshot_codec.h"

void ledge__snap_characters_put(const ledge_world *w, ledge__writer *o);
bool ledge__snap_characters_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan,
                                bool apply);

#endif // LEDGE_SNAPSHOT_CHARACTERS_H
