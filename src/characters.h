// The character table (characters.c): the state ledge keeps for each
// character, indexed by body handle; the step's stages read it.
#ifndef LEDGE_CHARACTERS_H
#define LEDGE_CHARACTERS_H

#include "world_state.h"

#include "ledge/character.h"
#include "ledge/events.h"

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

/// Frees the character table.
void ledge__characters_free(ledge_world *world);

/// Fills *g from the state of slot i's character; false when it is none.
bool ledge__character_ground(const ledge_world *world, int i, ledge_ground *g);

/// Room in the table for handle `handle`; false (logged, naming `fn`)
/// when allocation fails, the table as it was.
bool ledge__characters_reserve_handle(ledge_world *world, int handle, const char *fn);

/// The character of living body slot i, or NULL.
ledge__character *ledge__character_at(const ledge_world *world, int i);

/// The character named by id, or NULL (logged as `fn` refusing it).
ledge__character *ledge__character_find(const ledge_world *world, ledge_body_id id, const char *fn);

#endif // LEDGE_CHARACTERS_H
