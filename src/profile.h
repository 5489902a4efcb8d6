// Internal: the game's profile (profile.c), which world.c's step marks.
#ifndef LEDGE_PROFILE_INTERNAL_H
#define LEDGE_PROFILE_INTERNAL_H

#include "world_state.h"

/// The game's profile (profile.c): a step begins and ends.
void ledge__profile_begin(ledge__profile *p);
void ledge__profile_end(ledge__profile *p);

#endif // LEDGE_PROFILE_INTERNAL_H
