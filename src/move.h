// The mover's part of a carry (move.c), used by character.c.
#ifndef LEDGE_MOVE_INTERNAL_H
#define LEDGE_MOVE_INTERNAL_H

#include "world_state.h"

#include "ledge/move.h"

/// A carry's resolution: slot, carried from `from` to where it is, moved
/// again from `from`, stopping against what it overlaps there (the bodies
/// `floor` and `also` (-1: none), the chain slot `floor_chain` (-1: none)
/// and the slots for which skip() is true excepted), the result in *out;
/// false, nothing changed, when it overlaps nothing else deeper than
/// def->skin.
bool ledge__move_carry(ledge_world *world, int slot, vec2s from, int floor, int also,
                       int floor_chain, bool (*skip)(const ledge_world *world, int slot),
                       const ledge_move_def *def, ledge_move_result *out);

/// ledge_body_move with body slot `ignore` no obstacle (-1: none): a
/// character crushed into a body by a carry moves out of it.
bool ledge__move_ignoring(ledge_world *world, ledge_body_id id, vec2s displacement,
                          const ledge_move_def *def, ledge_move_result *out, int ignore);

#endif // LEDGE_MOVE_INTERNAL_H
