// Internal: what world.c (the world's lifecycle and its step) offers the
// other public modules.
#ifndef LEDGE_WORLD_INTERNAL_H
#define LEDGE_WORLD_INTERNAL_H

#include "world_state.h"

/// "Up" from the gravity (world.c; the step sets it, and a restore, since
/// the game's view reads it between steps).
void ledge__world_set_up(ledge_world *world);

#endif // LEDGE_WORLD_INTERNAL_H
