// The character table (characters.c): the state ledge keeps for each
// character, indexed by body handle; the step's stages read it.
#ifndef LEDGE_CHARACTERS_H
#define LEDGE_CHARACTERS_H

#include "world_state.h"

#include "ledge/character.h"
#include "ledge/events.h"

/// Bodies one move may push (the first met; a row behind them joins in the step).
#define LEDGE__PUSHED_MAX 4

/// What a character's last move left for the next step to push (push.c).
typedef struct ledge__push {
    int count;                             ///< Bodies pushed (0: none).
    ledge_body_id body[LEDGE__PUSHED_MAX]; ///< The dynamic bodies the move walked into.
    vec2s dir;                             ///< Unit, across up, from the character into them.
    float entry;                           ///< How far the move would have gone into them.
    float speed;                           ///< That, per second of the move (its dt).
} ledge__push;

/// A character's entry in the world's table (character.c).
typedef struct ledge__character {
    ledge_body_id id; ///< The body; index1 0 when the entry holds no character.
    ledge_character_def def;
    ledge_character_state state;
    vec2s last_position;  ///< Where the previous move ended (real velocity).
    int floor_slot;       ///< The body stood on when the step began, or -1.
    int floor_chain;      ///< Or the kinematic chain stood on (its slot), or -1.
    bool riding;          ///< Carried in this step (no obstacle to other carries).
    vec2s floor_before;   ///< Its (or the chain's) position then.
    float push_mass;      ///< def.push_mass, or its own shape's mass at density 1.
    ledge__push push;     ///< What its last move pushed (kept until the next move).
    vec2s shove_velocity; ///< A shove the last substep's response gave it, not moved yet:
                          ///< the next step's first substep moves it so (push.c).
    // The step's own notes (push.c), found again by every step:
    vec2s step_start;    ///< Where the step found it.
    vec2s pushed_start;  ///< Where push.body[0] was then.
    vec2s game_velocity; ///< Its body's velocity then, less the shove (the game's: normally 0).
    vec2s base_velocity; ///< What its body moves at in the step besides shoves (+ its platform's).
    bool touching;       ///< It pushes, or touched a dynamic body, when the step began.
    vec2s shove;         ///< What shoves moved it by in this step (moved again after it).
    vec2s up;            ///< Its up in this step (its move's, or the world's).
    float cos_floor;     ///< cos(max_floor_slope) of its move.
} ledge__character;

/// The world's character table, indexed by body handle.
typedef struct ledge__characters {
    ledge__character *c; ///< By body handle (an id's index1 - 1).
    int cap;             ///< Entries in c.
    int *list;           ///< Handles holding characters, in creation order (cap entries).
    int count;           ///< Entries in list.
    int pushers;         ///< Characters that push bodies, counted by each step (push.c).
    int pushing;         ///< Of those, how many pushed in their last move (push.c).
    int *first;          ///< Push scratch: each slot's contacts, from first[i] (push.c).
    int *order;          ///< Push scratch: contact indices by slot.
    int first_cap, order_cap;
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

/// The mass character slot i pushes as: def->push_mass, or its own shape's
/// mass at density 1 when that is 0.
float ledge__character_push_mass(const ledge_world *world, int i, const ledge_character_def *def);

/// The character of living body slot i, or NULL.
ledge__character *ledge__character_at(const ledge_world *world, int i);

/// The character named by id, or NULL (logged as `fn` refusing it).
ledge__character *ledge__character_find(const ledge_world *world, ledge_body_id id, const char *fn);

#endif // LEDGE_CHARACTERS_H
