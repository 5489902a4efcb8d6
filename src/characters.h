// Internal: the character table (character.c): states kept by the world, carried by the step.
// Imports the world's types (world.h) only; the modules layer as
// docs/design.md ("Modules") says.
#ifndef LEDGE_CHARACTERS_H
#define LEDGE_CHARACTERS_H

#include "world_state.h"

#include "ledge/character.h"

/// A character's entry in the world's table (character.c).
typedef struct ledge__character {
    ledge_body_id id; ///< The body; index1 0 when the entry holds no character.
    ledge_character_def def;
    ledge_character_state state;
    vec2s last_position; ///< Where the previous move ended (real velocity).
    int floor_slot;      ///< The body stood on when the step began, or -1.
    bool riding;         ///< Carried in this step (no obstacle to other carries).
    vec2s floor_before;  ///< Its position then.
} ledge__character;

/// The world's character table, indexed by body handle.
typedef struct ledge__characters {
    ledge__character *c; ///< By body handle (an id's index1 - 1).
    int cap;             ///< Entries in c.
    int *list;           ///< Handles holding characters, in creation order (cap entries).
    int count;           ///< Entries in list.
} ledge__characters;

/// Room in the table for `handles` handles (none made when 0); false
/// (logged, naming `fn`) when allocation fails, the table as it was.
bool ledge__characters_reserve(ledge_world *world, int handles, const char *fn);

/// Frees the character table (character.c).
void ledge__characters_free(ledge_world *world);

/// Notes where the body each riding character stands on is (character.c).
void ledge__characters_before_step(ledge_world *world);

/// Moves each riding character by what its floor body moved in the step.
void ledge__characters_carry(ledge_world *world);

/// Fills *g from the state of slot i's character; false when it is none.
bool ledge__character_ground(const ledge_world *world, int i, ledge_ground *g);

#endif // LEDGE_CHARACTERS_H
