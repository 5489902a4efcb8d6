// Internal: sleeping bodies (sleep.c). Imports the world's types
// (world.h) only; the modules layer as docs/design.md ("Modules") says.
#ifndef LEDGE_SLEEP_H
#define LEDGE_SLEEP_H

#include "world.h"

/// Before the first substep: wakes what a tilemap edit or a moving
/// kinematic body reaches, and takes the held contacts out of the contact
/// list for the step. False (logged, nothing changed) when an allocation
/// fails.
bool ledge__sleep_begin(ledge_world *world, float dt);

/// After a substep's pair search: wakes the sleepers paired with an awake
/// body faster than the sleep speed; true when any woke (the pairs must
/// then be searched again).
bool ledge__sleep_wake_paired(ledge_world *world);

/// After the last substep: rest timers, bodies falling asleep, and the
/// contact list rebuilt as the live contacts followed by the held ones.
void ledge__sleep_end(ledge_world *world, float dt);

/// Wakes the sleeping bodies that touch slot's body (between steps).
void ledge__sleep_wake_touching(ledge_world *world, int slot);

/// Puts dynamic body i to sleep now (between steps; ledge_body_set_awake).
void ledge__sleep_body(ledge_world *world, int i);

#endif // LEDGE_SLEEP_H
