// Internal layout of a world: bodies stored as parallel arrays (one per
// field, indexed by slot) so that each stage of the step streams only the
// fields it reads.
#ifndef LEDGE_WORLD_INTERNAL_H
#define LEDGE_WORLD_INTERNAL_H

#include "core.h"
#include "grid.h"
#include "ledge/world.h"

/// A contact found by the last substep, kept for the next substep's
/// velocity pass (so that resting and sliding bodies feel friction every
/// step, before they move).
typedef struct ledge__contact {
    int a;          ///< Body slot.
    int b;          ///< Other body slot, or -1 for a tile.
    vec2s normal;   ///< Unit, pointing from b (or the tile) toward a.
    float friction; ///< Combined friction of the pair.
    float bounce;   ///< Combined bounce of the pair.
} ledge__contact;

struct ledge_world {
    vec2s gravity;
    ledge_tilemap *map;
    int iterations;         ///< Relaxation passes per substep.
    int substeps;           ///< Substeps per step.
    float slop;             ///< Overlap left in place so that contacts persist.
    float bounce_threshold; ///< Approach speed below which nothing bounces.
    float cell_size;        ///< Broad-phase cell override (0: automatic).
    float max_extent;       ///< Largest body extent seen (grows only).
    ledge__grid grid;
    ledge__contact *contacts;
    int contact_count, contact_cap;
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
    vec2s *box_offset; ///< Centre of the shape's local bounds.
    vec2s *box_half;   ///< Half extents of the shape's local bounds.
    vec2s *box_center; ///< World centre of the bounds (scratch, per pass).
};

/// The slot of a living body named by `id`, or -1. Logs the refusal as
/// "<fn>: id ... is stale / not a body of this world".
int ledge__world_slot(const ledge_world *world, ledge_body_id id, const char *fn);

/// A slot for a new body: the most recently freed one, else the next unused
/// one (growing the arrays), or -1 (logged) when allocation fails.
int ledge__world_take_slot(ledge_world *world);

/// The step's collision stages (resolve.c): one relaxation pass over body
/// pairs from the grid and over each body's tiles, projecting out of
/// overlap and applying N's response; contacts are recorded for the next
/// substep's velocity pass.
void ledge__resolve_pass(ledge_world *world);

/// The velocity pass: N's response for the contacts of the last substep.
void ledge__apply_contacts(ledge_world *world);

#endif // LEDGE_WORLD_INTERNAL_H
