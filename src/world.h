// Internal: what world.c (the world's lifecycle and its step) offers the
// other public modules.
#ifndef LEDGE_WORLD_INTERNAL_H
#define LEDGE_WORLD_INTERNAL_H

#include "world_state.h"

/// "Up" from the gravity (world.c; the step sets it, and a restore, since
/// the game's view reads it between steps).
void ledge__world_set_up(ledge_world *world);

/// Forgets what the stages derive from the world's state and keep only to
/// go faster (dormant blocks, classified blocks, remembered tile lookups,
/// the grid's filing, the contact and query indexes), each stage through
/// its own forget (`ledge__<stage>_forget(world, why)`), so that the next
/// step and the next question find it again, with the same bits. Called
/// wherever it may be stale: after the slots' order by space moved bodies
/// (LEDGE__STALE_SLOTS), before a step that follows a tilemap edit or load
/// (LEDGE__STALE_TILES), after a restore (LEDGE__STALE_ALL). A stage that
/// keeps something new forgets it in its own forget.
void ledge__world_forget(ledge_world *world, ledge__stale why);

#endif // LEDGE_WORLD_INTERNAL_H
