/// @file events.h
/// What the last step found, read after it: each body's contacts and
/// ground/wall/ceiling state, and the world's begin/end touch events,
/// sensor events and crush events, as arrays in a deterministic order.
///
/// Overview
/// --------
///     ledge_world_step(world, dt);
///     ledge_ground g = ledge_body_ground(world, player);
///     if (g.on_ground && jump_pressed) ledge_body_set_velocity(world, player, ...);
///     ledge_touch_events t = ledge_world_touch_events(world);
///     for (int i = 0; i < t.begin_count; ++i) { ... t.begin[i].a, t.begin[i].b ... }
///
/// "Up" is opposite to the world's gravity ((0, 1) without gravity). A
/// contact whose normal (pointing toward the body) is within the body's
/// max_floor_angle of up is ground; within it of down, ceiling; anything
/// else is a wall, on the left when the normal points right, on the right
/// otherwise. "Right" is the perpendicular of up with a positive x part, so
/// left and right mean the same on screen in a y-up and a y-down game
/// (gravity (0, -g) or (0, +g)); with sideways gravity it is +y.
///
/// The arrays returned stay valid until the next step (or until the world
/// is destroyed). Body ids in end events may name bodies destroyed since.
#ifndef LEDGE_EVENTS_H
#define LEDGE_EVENTS_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One contact of a body after the last step.
typedef struct ledge_contact_data {
    ledge_body_id other;     ///< The other body, or the null id for a tile or a chain.
    int cell_x;              ///< The tile cell (tile contacts).
    int cell_y;              ///< The tile cell (tile contacts).
    ledge_chain_id chain;    ///< The chain (chain contacts), else the null id.
    int segment;             ///< The chain's segment (chain contacts), else 0.
    vec2s normal;            ///< Unit, from the other body (or tile) toward this body.
    vec2s point;             ///< World point midway between the two surfaces (two circles: along
                             ///< the normal, where the step left them; else at the overlap).
    float depth;             ///< Overlap when found (0 for a bullet stopped short of it).
    ledge_response response; ///< How it was answered.
} ledge_contact_data;

/// Writes up to `capacity` contacts of the body from the last step (its
/// last substep) to `out` (may be NULL with capacity 0) and returns how
/// many it has in all; -1 (logged) for an invalid id. Bodies that touch
/// nothing have 0. Tile contacts come one per cell, chain contacts one per
/// segment.
LEDGE_API int ledge_body_contacts(ledge_world *world, ledge_body_id id, ledge_contact_data *out,
                                  int capacity);

/// Where a body touches, from its last-step contacts.
typedef struct ledge_ground {
    bool on_ground;              ///< Standing on a floor (tile, chain or body).
    bool on_ceiling;             ///< Touching a ceiling.
    bool on_wall_left;           ///< A wall on its left (the normal points right, see above).
    bool on_wall_right;          ///< A wall on its right.
    vec2s ground_normal;         ///< The floor's normal most aligned with up; (0, 0) when none.
    vec2s wall_normal;           ///< A wall's normal; (0, 0) when none.
    ledge_body_id ground_body;   ///< The body stood on, or the null id for a tile or chain (or
                                 ///< none).
    int ground_cell_x;           ///< The tile stood on (when on_ground on a tile).
    int ground_cell_y;           ///< Its y (with ground_cell_x).
    ledge_chain_id ground_chain; ///< The chain stood on, or the null id.
} ledge_ground;

/// The body's ground, wall and ceiling state: for a character
/// (character.h) its state after its last move, exactly; for a dynamic
/// body, from its contacts of the last step. All false, logged, for an
/// invalid id and for static and kinematic bodies that are not characters
/// (the step keeps no ground state for them).
LEDGE_API ledge_ground ledge_body_ground(ledge_world *world, ledge_body_id id);

/// A touch between two bodies (or a body and a tile cell, or a body and a
/// chain) that began or ended in the last step. Only touches of bodies
/// created with enable_events are reported. A body touches a chain once,
/// whatever segments it touches.
typedef struct ledge_touch_event {
    ledge_body_id a;      ///< The body with the lower index.
    ledge_body_id b;      ///< The other body, or the null id for a tile or a chain.
    int cell_x;           ///< The tile cell (tile touches).
    int cell_y;           ///< Its y (with cell_x).
    ledge_chain_id chain; ///< The chain (chain touches), else the null id.
} ledge_touch_event;

/// The last step's touch events, each array sorted by (a, b, cell); a
/// body's chain touches come before its tile touches, by chain index.
typedef struct ledge_touch_events {
    const ledge_touch_event *begin; ///< Touches that began.
    int begin_count;                ///< How many `begin` holds.
    const ledge_touch_event *end;   ///< Touches that ended.
    int end_count;                  ///< How many `end` holds.
} ledge_touch_events;

/// The touch events of the last step (empty, logged, for a NULL world).
LEDGE_API ledge_touch_events ledge_world_touch_events(const ledge_world *world);

/// A body that began or stopped overlapping a sensor in the last step.
typedef struct ledge_sensor_event {
    ledge_body_id sensor;  ///< The sensor body.
    ledge_body_id visitor; ///< The body (not static, not a sensor) that entered or left.
} ledge_sensor_event;

/// The last step's sensor events, each array sorted by (sensor, visitor).
typedef struct ledge_sensor_events {
    const ledge_sensor_event *begin; ///< Visitors that began overlapping a sensor.
    int begin_count;                 ///< How many `begin` holds.
    const ledge_sensor_event *end;   ///< Visitors that stopped overlapping a sensor.
    int end_count;                   ///< How many `end` holds.
} ledge_sensor_events;

/// The sensor events of the last step (empty, logged, for a NULL world).
LEDGE_API ledge_sensor_events ledge_world_sensor_events(const ledge_world *world);

/// A dynamic body squeezed between a kinematic or static body and the
/// tiles: still overlapping the pusher deeper than a fifth of its smallest
/// half extent after the step, with a tile pushing back. The tiles win
/// (it is never pushed through them); what happens next is the game's.
/// Also a character that pushes bodies (character.h) pinned by a dynamic
/// body: resting on it while it stands on a floor (depth 0), or shoving it
/// into a wall deeper than its skin; `body` is the character and `crusher`
/// the dynamic body.
typedef struct ledge_crush_event {
    ledge_body_id body;    ///< The squeezed body (or the pinned character).
    ledge_body_id crusher; ///< The kinematic (or static) body pressing it (a dynamic body for a
                           ///< character).
    float depth;           ///< Their overlap after the step.
} ledge_crush_event;

/// The last step's crush events: the squeezed bodies' in the order of the
/// step's contacts, then the pinned characters' (a deterministic order).
typedef struct ledge_crush_events {
    const ledge_crush_event *events; ///< The crushed bodies.
    int count;                       ///< How many `events` holds.
} ledge_crush_events;

/// The crush events of the last step (empty, logged, for a NULL world).
LEDGE_API ledge_crush_events ledge_world_crush_events(const ledge_world *world);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_EVENTS_H
