// Internal: the velocity pass (response.c): N's response, the contact order and the loads.
// A stage of the step: it includes the world's state and the stages below
// it only (docs/design.md, "How the modules layer").
#ifndef LEDGE_RESPONSE_H
#define LEDGE_RESPONSE_H

#include "world_state.h"

/// A contact as the loads see it: upper rests on lower (-1: a tile) with
/// this cosine of its normal with up; upper -1 when neither rests on the
/// other (response.c, stacked()).
typedef struct ledge__stacking {
    int upper, lower;
    float cosine;
} ledge__stacking;

/// The velocity pass's state (w->response): the scratch of the contact
/// sort and of the loads, rewritten by each substep before it is read.
typedef struct ledge__response {
    int *buckets;      ///< The contact sort's counters, per bucket of a group.
    int *sort_key;     ///< Per contact: its bucket.
    int *sort_index;   ///< The contacts' indices, by groups of buckets.
    int *sort_count;   ///< Per block of contacts: its count, then its place, per group.
    float *sort_range; ///< Per block of contacts: its lowest and highest pair height.
    int bucket_cap, sort_key_cap, sort_index_cap, sort_count_cap, sort_range_cap;
    ledge__stacking *stacking; ///< Per contact: who rests on whom (the loads).
    int stacking_cap;
} ledge__response;

/// Frees the velocity pass's scratch.
void ledge__response_destroy(ledge__response *response);

/// The velocity pass (response.c): N's response for the recorded contacts,
/// in contact order, then once more from the bottom of each pile up with
/// the lower body held still (shock propagation). Contacts approaching
/// slower than `resting` are left alone.
void ledge__velocity_pass(ledge_world *world, float resting, float dt);

/// The velocity pass's first half: the sweep's aims (with gravity), then
/// N's response for the recorded contacts in contact order (the step calls
/// the sweep after it, joints between: world.c).
void ledge__contact_pass(ledge_world *world, float resting, float dt);

/// The shock sweep (ledge__velocity_pass calls it after the
/// pass; tests call it alone): each contact once more in list order, a
/// stacked pair answered against its lower body held (response.c,
/// held_velocity), toward the targets the pass's aim set; `dt` is the
/// substep's, for the contacts' Coulomb caps (per second).
void ledge__shock_sweep(ledge_world *world, float resting, float dt);

/// Orders the recorded contacts from the bottom of each pile up: tile
/// contacts first, then pairs by the height of their lower body (along up),
/// a stable counting sort over slices of a tenth of a grid cell.
void ledge__sort_contacts(ledge_world *world);

/// The weight each body carries (step.load: its own and what rests on it,
/// passed down the recorded contacts, which must be sorted bottom up), and
/// which bodies rest on the level (step.supported). False when its scratch
/// could not grow (logged; nothing was found).
bool ledge__body_loads(ledge_world *world);

/// The load each recorded contact carries and its Coulomb cap (response.c):
/// once per substep, after the contacts are sorted. False when its scratch
/// could not grow (logged; no contact got a load, and the bodies' loads
/// were not found).
bool ledge__contact_loads(ledge_world *world);

#endif // LEDGE_RESPONSE_H
