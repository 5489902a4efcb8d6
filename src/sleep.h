// Internal: sleeping bodies (sleep.c).
// A stage of the step: it includes the world's state and the stages below
// it only (docs/design.md, "How the modules layer").
#ifndef LEDGE_SLEEP_H
#define LEDGE_SLEEP_H

#include "world_state.h"

/// Before the first substep: wakes what a tilemap edit or a moving
/// kinematic body reaches, and moves the held contacts of bodies woken
/// since the last step back to the live ones (a contact that finds no
/// room is dropped: the step finds it again).
void ledge__sleep_begin(ledge_world *world, float dt);

/// After a substep's pair search: wakes the sleepers paired with an awake
/// body faster than the sleep speed; true when any woke (the pairs must
/// then be searched again).
bool ledge__sleep_wake_paired(ledge_world *world);

/// After the last substep: rest timers, bodies falling asleep, and their
/// contacts moved from the live list to the held one.
void ledge__sleep_end(ledge_world *world, float dt);

/// Wakes the sleeping bodies that touch slot's body (between steps).
void ledge__sleep_wake_touching(ledge_world *world, int slot);

/// Puts dynamic body i to sleep now (between steps; ledge_body_set_awake);
/// false (logged, the body stays awake) when the held list cannot grow.
bool ledge__sleep_body(ledge_world *world, int i);

#endif // LEDGE_SLEEP_H
