// Characters in the step (character.c): the carry by the body stood on,
// done inside ledge_world_step, and the public character calls.
#ifndef LEDGE_CHARACTER_INTERNAL_H
#define LEDGE_CHARACTER_INTERNAL_H

#include "characters.h"

/// Notes where the body each riding character stands on is.
void ledge__characters_before_step(ledge_world *world);

/// Moves each riding character by what its floor body moved in the step.
void ledge__characters_carry(ledge_world *world);

/// After the carries: each character that pushes bodies is moved by what
/// shoved it in the step and on behind the body its last move pushed (with
/// the mover); the bodies resting on it are its ceiling, and pin it.
void ledge__characters_after_push(ledge_world *world);

#endif // LEDGE_CHARACTER_INTERNAL_H
