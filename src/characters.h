// Internal: the character table (character.c): states kept by the world, carried by the step.
// Imports the world's types (world.h) only; the modules layer as
// docs/design.md ("Modules") says.
#ifndef LEDGE_CHARACTERS_H
#define LEDGE_CHARACTERS_H

#include "world.h"

/// Frees the character table (character.c).
void ledge__characters_free(ledge_world *world);

/// Notes where the body each riding character stands on is (character.c).
void ledge__characters_before_step(ledge_world *world);

/// Moves each riding character by what its floor body moved in the step.
void ledge__characters_carry(ledge_world *world);

/// Fills *g from the state of slot i's character; false when it is none.
bool ledge__character_ground(const ledge_world *world, int i, ledge_ground *g);

#endif // LEDGE_CHARACTERS_H
