// The bodies' fields: every per-body array of a world, declared once in
// LEDGE__BODY_FIELDS. The list generates the arrays (the store's and the
// step's scratch, members of the world's state: world_state.h), their
// count, their growth and their reordering (body_store.c).
#ifndef LEDGE_BODY_FIELDS_H
#define LEDGE_BODY_FIELDS_H

#include "array.h"
#include "core.h"
#include "ledge/body.h"
#include "shape_table.h"

/// A rectangle of tile cells, inclusive.
typedef struct ledge__range {
    int x0, y0, x1, y1;
} ledge__range;

// Every per-body array: X(class, element type, name). Classes:
// - HOT: persistent, read by every step (kept in the store, reordered);
// - COLD: persistent, read by the API and rarely by the step (kept in the
//   store, reordered);
// - SCRATCH: rewritten by each substep before it is read (kept in the step
//   context, never reordered).
// Adding a body property is one line here (and its setter in body.c).
#define LEDGE__BODY_FIELDS(X)                                                                      \
    X(HOT, uint8_t, alive)                                                                         \
    X(HOT, uint8_t, type) /* ledge_body_type */                                                    \
    X(HOT, uint8_t, bullet)                                                                        \
    X(HOT, uint8_t, circle) /* the shape is a circle (fast path in resolve.c) */                   \
    X(HOT, vec2s, position)                                                                        \
    X(HOT, vec2s, velocity)                                                                        \
    X(HOT, float, inv_mass) /* 0 for static and kinematic bodies */                                \
    X(HOT, float, friction)                                                                        \
    X(HOT, float, bounce)                                                                          \
    X(HOT, float, surface_speed)  /* along the tangent of its outward normal (material.h) */       \
    X(HOT, uint8_t, friction_mix) /* a ledge_friction_mix */                                       \
    X(HOT, float, gravity_scale)                                                                   \
    X(HOT, float, drag)                                                                            \
    X(HOT, int32_t, shape_id)       /* its entry in the shape table (shape_table.h; alive only) */ \
    X(HOT, vec2s, box_offset)       /* centre of the shape's local bounds */                       \
    X(HOT, vec2s, box_half)         /* half extents of the shape's local bounds */                 \
    X(HOT, uint8_t, sensor)         /* reports overlaps, never collides (events.c) */              \
    X(HOT, uint8_t, touch_events)   /* touch begin/end events wanted (events.c) */                 \
    X(HOT, uint8_t, one_way)        /* a ledge_one_way: a one-way platform body */                 \
    X(HOT, float, floor_cos)        /* cos(max_floor_angle): ground when n . up >= it */           \
    X(HOT, uint8_t, policy)         /* a ledge_response: its contacts' policy */                   \
    X(HOT, uint8_t, dropping)       /* ignoring one-way platforms until clear of them */           \
    X(HOT, uint8_t, in_one_way)     /* overlapped a one-way platform this step */                  \
    X(HOT, vec2s, prev_velocity)    /* kinematic: velocity of the last substep (carry) */          \
    X(HOT, uint8_t, frozen)         /* left the finite range: kept still (world.c) */              \
    X(HOT, uint8_t, moved)          /* set by the game since the last step: no replay */           \
    X(HOT, uint8_t, joined)         /* has a joint that keeps its bodies apart (joints.c) */       \
    X(HOT, vec2s, last_position)    /* before the substep moved it; else where it rests */         \
    X(HOT, ledge__range, tile_seen) /* the tile cells last looked at near it (broad.c) */          \
    X(HOT, uint8_t, tile_seen_near) /* whether one of them held a tile, and more (broad.c) */      \
    X(HOT, vec2s, tile_anchor)      /* box centre when the broad phase looked for tiles */         \
    X(HOT, uint8_t, asleep)         /* out of the step until woken (sleep.c) */                    \
    X(HOT, float, sleep_timer)      /* seconds it has been slower than the sleep speed */          \
    X(COLD, float, sleep_inv_mass)  /* inv_mass while asleep (inv_mass is then 0) */               \
    X(COLD, uint32_t, generation)   /* bumped when the body dies */                                \
    X(COLD, int, handle)            /* the id's index1 - 1: stable while the slot moves */         \
    X(COLD, ledge_filter, filter)                                                                  \
    X(COLD, void *, user_data)                                                                     \
    X(SCRATCH, vec2s, box_center)  /* world centre of the bounds (per pass) */                     \
    X(SCRATCH, vec2s, grid_center) /* box_center in grid coordinates (rows along up) */            \
    X(SCRATCH, uint8_t, in_grid)   /* filed in the grid (alive, not larger than a cell) */         \
    X(SCRATCH, uint8_t, plain)     /* a dynamic circle that meets any such plainly (broad.c) */    \
    X(SCRATCH, uint8_t, active)    /* in the grid and may move or sense this substep (broad.c) */  \
    X(SCRATCH, int, active_upto)   /* active bodies in its block up to p (broad.c) */              \
    X(SCRATCH, int, active_at)     /* its block's active bodies' places (broad.c) */               \
    X(SCRATCH, uint8_t, sleepy)    /* may fall asleep at the end of this step (sleep.c) */         \
    X(SCRATCH, int, tile_list)     /* see ledge__step.tile_count */                                \
    X(SCRATCH, int, big_list)      /* see ledge__step.big_count */                                 \
    X(SCRATCH, uint8_t, tile_listed)  /* in tile_list this substep */                              \
    X(SCRATCH, uint8_t, fast)         /* moving far this substep (fast.c) */                       \
    X(SCRATCH, vec2s, path)           /* the substep's displacement of a fast body */              \
    X(SCRATCH, int, near)             /* bodies near a fast body's path (fast.c) */                \
    X(SCRATCH, uint8_t, carried)      /* got its platform's velocity change this substep */        \
    X(SCRATCH, vec2s, carry_change)   /* that change (world.c, carry) */                           \
    X(SCRATCH, uint8_t, far_moved)    /* pushed beyond the margin this pass (broad.c) */           \
    X(SCRATCH, uint8_t, held_moving)  /* the shock sweep holds it as it moves (response.c) */      \
    X(SCRATCH, float, load)           /* weight carried by each body (response.c) */               \
    X(SCRATCH, float, support)        /* sum of the up-cosines of its supports */                  \
    X(SCRATCH, uint8_t, supported)    /* rests on the level, through a pile or not (response.c) */ \
    X(SCRATCH, int, order)            /* reordering: the old slot of each new slot (order.c) */    \
    X(SCRATCH, int, order_key)        /* reordering: each slot's grid cell, then its new slot */   \
    X(SCRATCH, uint8_t, order_mark)   /* reordering: slots already moved (body_store.c) */         \
    X(SCRATCH, int, restore_slot)     /* restore's check: slot by handle, then the living ones */  \
    X(SCRATCH, uint8_t, restore_mark) /* restore's check: each slot's marks (snapshot_codec.h) */  \
    X(SCRATCH, uint8_t, restore_listed) /* restore's check: a character's handle is listed */

// The list's parts, by class.
#define LEDGE__IF_HOT(...)  __VA_ARGS__
#define LEDGE__IF_COLD(...) __VA_ARGS__
#define LEDGE__IF_SCRATCH(...)
#define LEDGE__IF_NOT_HOT(...)
#define LEDGE__IF_NOT_COLD(...)
#define LEDGE__IF_NOT_SCRATCH(...) __VA_ARGS__
#define LEDGE__STORED(class)       LEDGE__IF_##class
#define LEDGE__SCRATCHED(class)    LEDGE__IF_NOT_##class

#define LEDGE__DECLARE_STORED(class, T, name)  LEDGE__STORED(class)(T * name;)
#define LEDGE__DECLARE_SCRATCH(class, T, name) LEDGE__SCRATCHED(class)(T * name;)
#define LEDGE__COUNT_FIELD(class, T, name)     +1

/// How many per-body arrays the list declares (checked by test_world).
enum { LEDGE__BODY_FIELD_COUNT = 0 LEDGE__BODY_FIELDS(LEDGE__COUNT_FIELD) };

/// The store's members: the persistent arrays, the slot counts and the id
/// <-> slot mapping. (A macro: the world holds them as its own members, so
/// that code names them directly, `w->position[i]`; world.h.)
#define LEDGE__BODY_STORE_MEMBERS                                                                  \
    LEDGE__BODY_FIELDS(LEDGE__DECLARE_STORED)                                                      \
    int capacity;              /* slots allocated in every array */                                \
    int slot_count;            /* slots ever used: slots >= slot_count are untouched */            \
    int live_count;            /* living bodies */                                                 \
    int event_bodies;          /* living bodies with events on (their touches are reported) */     \
    int sleepers;              /* living bodies asleep (sleep.c) */                                \
    int free_count;            /* entries in free_handles (LIFO: deterministic reuse) */           \
    int *free_handles;         /* handles of dead bodies, capacity entries */                      \
    int *slot_of;              /* each handle's slot, capacity entries (the inverse of handle) */  \
    ledge__shape_table shapes; /* the bodies' shapes, each once (ledge__shape_of) */               \
    ledge__shape_table                                                                             \
        shapes_next; /* restore's scratch: the snapshot's shapes (snapshot_bodies.c) */

/// The per-body scratch arrays of the step (members of ledge__step).
#define LEDGE__BODY_SCRATCH_MEMBERS LEDGE__BODY_FIELDS(LEDGE__DECLARE_SCRATCH)

/// Box2D's filter rule (body.h): a shared nonzero group decides (positive:
/// always, negative: never), else each category must meet the other mask.
static inline bool ledge__filters_allow(const ledge_filter *a, const ledge_filter *b) {
    if (a->group != 0 && a->group == b->group) return a->group > 0;
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

#endif // LEDGE_BODY_FIELDS_H
