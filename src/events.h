// Internal: what the step reports (events.c): touch, sensor and crush events, the contact index.
// A stage of the step: it includes the world's state and the stages below
// it only (docs/design.md, "How the modules layer").
#ifndef LEDGE_EVENTS_INTERNAL_H
#define LEDGE_EVENTS_INTERNAL_H

#include "world_state.h"

/// After the last substep: touch, sensor and crush events, drop-through
/// flags, and the contact index marked stale (events.c).
void ledge__after_step(ledge_world *world);

/// Adds a crush event of `body` by `crusher` (slots) after the step's own:
/// a character pinned by a dynamic body (character.c).
void ledge__crush_event_add(ledge_world *world, int body, int crusher, float depth);

/// Frees the event arrays and the contact index (events.c).
void ledge__events_free(ledge_world *world);

/// Builds the contact index if it is stale (events.c): contact_order[
/// contact_first[i] .. contact_first[i + 1]) are slot i's contacts. False
/// (nothing logged) when an allocation fails.
bool ledge__contact_index(ledge_world *world);

/// Orders two keys (events.c).
int ledge__key_compare(const ledge__key *x, const ledge__key *y);

#endif // LEDGE_EVENTS_INTERNAL_H
