// Internal layout of a world: bodies stored as parallel arrays (one per
// field, indexed by slot) so that each stage of the step streams only the
// fields it reads.
#ifndef LEDGE_WORLD_INTERNAL_H
#define LEDGE_WORLD_INTERNAL_H

#include "core.h"
#include "ledge/world.h"

struct ledge_world {
    vec2s gravity;
    ledge_tilemap *map;
    bool stepping; ///< Set during ledge_world_step: API calls that change the world are refused.

    int capacity;   ///< Slots allocated in every array below.
    int slot_count; ///< Slots ever used: slots >= slot_count are untouched.
    int live_count; ///< Living bodies.
    int free_count; ///< Entries in free_slots (LIFO: deterministic reuse).
    int *free_slots;

    uint32_t *generation; ///< Bumped when a slot's body dies.
    uint8_t *alive;
    uint8_t *type; ///< ledge_body_type
    uint8_t *bullet;
    vec2s *position;
    vec2s *velocity;
    float *inv_mass; ///< 0 for static and kinematic bodies.
    float *friction;
    float *bounce;
    float *gravity_scale;
    float *drag;
    ledge_filter *filter;
    void **user_data;
    ledge_shape *shape;
};

/// The slot of a living body named by `id`, or -1. Logs the refusal as
/// "<fn>: id ... is stale / not a body of this world".
int ledge__world_slot(const ledge_world *world, ledge_body_id id, const char *fn);

/// A slot for a new body: the most recently freed one, else the next unused
/// one (growing the arrays), or -1 (logged) when allocation fails.
int ledge__world_take_slot(ledge_world *world);

#endif // LEDGE_WORLD_INTERNAL_H
