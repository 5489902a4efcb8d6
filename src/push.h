// Characters and dynamic bodies in the step (push.c): the rows a
// character's last move pushes, the mass a character answers a body moving
// into it with, and what the step moved a character by.
#ifndef LEDGE_PUSH_H
#define LEDGE_PUSH_H

#include "characters.h"

/// Before the step moves anything (world.c, prepare): room for the pushes'
/// contact index (a slot's contacts), so that the step does not allocate
/// it. False, logged, when allocation fails (the world is unchanged).
bool ledge__push_reserve(ledge_world *world);

/// Before the substeps: each character's notes for the step (where it is,
/// its body's velocity, its up), and the count of pushers.
void ledge__push_begin(ledge_world *world);

/// Before the first velocity pass of a substep (the replay) of length h,
/// and before the contacts the replay must not answer are dropped (a
/// platform driven by ledge_body_set_target is still the floor of what
/// stands on it): each pushing character's row of bodies is answered by
/// its floors and takes its push.
void ledge__push_rows(ledge_world *world, float h);

/// After the replay, before the bodies move: what the responses gave a
/// character's body (a shove) moves it along its floor in this substep.
void ledge__push_shoves(ledge_world *world, float h);

/// After the bodies moved in a substep of length h: a shoved character's
/// legs brake the shove (as friction 1 brakes a sliding body).
void ledge__push_after_move(ledge_world *world, float h);

/// After the substeps: each character's body is back at its own velocity;
/// the shove the last substep's response gave it is kept for the next step
/// (character.c resolves what shoves moved it by against the level).
void ledge__push_end(ledge_world *world);

/// The inverse mass the response gives kinematic body `slot` in a contact
/// of normal `n` with a dynamic body: 1 / push_mass for a character that
/// pushes bodies when the contact is a wall to it (a body from the side),
/// else 0 (immovable, as any kinematic body).
float ledge__push_inv_mass(const ledge_world *world, int slot, vec2s n);

/// Whether some character may answer a body with its mass (the response
/// asks only then).
static inline bool ledge__push_any(const ledge_world *w) {
    return w->characters != NULL && w->characters->pushers > 0;
}

#endif // LEDGE_PUSH_H
