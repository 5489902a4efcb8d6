/// @file body.h
/// Bodies: what a world moves. Created from a `ledge_body_def`, addressed by
/// a `ledge_body_id` value.
///
/// A body id is an index plus a generation, passed by value. Destroying a
/// body bumps its slot's generation, so an id kept by the game after the body
/// died is refused by every call (logged, neutral result) instead of
/// reaching whatever body reuses the slot. `ledge_body_is_valid` tells.
///
/// Body types:
/// - dynamic: moved by gravity, velocity and contacts;
/// - kinematic: moved only by its velocity; pushes dynamic bodies and is not
///   pushed (moving platforms);
/// - static: never moves (non-tile level geometry).
#ifndef LEDGE_BODY_H
#define LEDGE_BODY_H

#include "collision.h"
#include "material.h"
#include "tilemap.h"

#ifdef __cplusplus
extern "C" {
#endif

/// An opaque world (world.h).
typedef struct ledge_world ledge_world;

/// A body handle: the body's index + 1 (0 is the null id), the index's
/// generation when the body was created, and the serial number of the world
/// that made it, so that an id handed to another world is refused, not
/// obeyed. A body keeps its index for its whole life, wherever the world
/// stores it; a dead body's index is reused, with the next generation.
typedef struct ledge_body_id {
    uint32_t index1;     ///< The body's index plus one; 0 for the null id.
    uint32_t generation; ///< Must match the index's current generation.
    uint32_t world;      ///< Serial number of the world that made it (never 0 for a made id).
} ledge_body_id;

/// The null body id (never valid). A value in C and in C++.
#ifdef __cplusplus
#define LEDGE_NULL_BODY_ID (ledge_body_id{0u, 0u, 0u})
#else
#define LEDGE_NULL_BODY_ID ((ledge_body_id){0u, 0u, 0u})
#endif

/// Whether two ids are the same id (Box2D's B2_ID_EQUALS): the same slot,
/// generation and world. An expression in C and in C++; each argument is
/// evaluated twice. Two null ids are equal; an id equal to a living body's
/// names that body (a stale id never equals a living one: the generations
/// differ).
#define LEDGE_ID_EQUALS(a, b)                                                                      \
    ((a).index1 == (b).index1 && (a).generation == (b).generation && (a).world == (b).world)

/// LEDGE_ID_EQUALS as a function, for bindings and for arguments with side
/// effects.
LEDGE_API bool ledge_body_id_equals(ledge_body_id a, ledge_body_id b);

/// How a body moves.
typedef enum ledge_body_type {
    LEDGE_BODY_STATIC = 0,    ///< Never moves.
    LEDGE_BODY_KINEMATIC = 1, ///< Moved by its velocity only; pushes, is not pushed.
    LEDGE_BODY_DYNAMIC = 2,   ///< Moved by gravity, velocity and contacts.
} ledge_body_type;

/// Which bodies may touch (Box2D's rule): two bodies collide when each one's
/// category bits meet the other's mask, unless they share a nonzero group:
/// a positive shared group always collides, a negative one never does.
typedef struct ledge_filter {
    uint64_t category; ///< What this body is (bits).
    uint64_t mask;     ///< What this body collides with (bits).
    int32_t group;     ///< Shared group override (0: none).
} ledge_filter;

/// How a body answers a contact (bump.lua's responses). A pair uses the
/// stronger of its two bodies' (CROSS > BOUNCE > TOUCH > SLIDE), or what
/// the world's pre-solve callback says (ledge_world_set_pre_solve).
typedef enum ledge_response {
    LEDGE_RESPONSE_SLIDE = 0,  ///< N's response: bounce and friction (the default).
    LEDGE_RESPONSE_TOUCH = 1,  ///< Pushed out and stopped: the relative velocity becomes 0.
    LEDGE_RESPONSE_BOUNCE = 2, ///< Pushed out and reflected (bounce 1, no friction).
    LEDGE_RESPONSE_CROSS = 3,  ///< Passes through: reported (contacts, events), not resolved.
} ledge_response;

/// The range of a dynamic body's mass (density times area) that
/// ledge_body_create accepts: its lower bound.
#define LEDGE_MIN_MASS 1e-12f
/// The upper bound of the mass range ledge_body_create accepts.
#define LEDGE_MAX_MASS 1e30f

/// What a body is made from. Fill with ledge_default_body_def, then change
/// what you need.
typedef struct ledge_body_def {
    ledge_body_type type; ///< Default dynamic.
    ledge_shape shape;    ///< Local shape, as ledge_make_* made it. Required.
    vec2s position;       ///< World position of the shape's local origin.
    vec2s velocity;       ///< Initial velocity (units per second).
    float density;        ///< Mass per area, > 0 for dynamic bodies. Default 1.
    float friction;       ///< f, 0..1: the fraction of the tangential speed a contact removes each
                          ///< substep while the body moves into it (in a pile, or under Coulomb's
                          ///< friction law, it may remove more: world.h). Mixed with the other
                          ///< surface's (material.h): sqrt(fa * fb) with a body, its own against
                          ///< a tile of the default material, the larger of the two against a
                          ///< kinematic body of the default mix (a kinematic body is level that
                          ///< moves and holds what touches it as a tile does, so that a platform
                          ///< made with the default def carries a crate by the crate's
                          ///< friction). Default 0.
    float bounce;         ///< b, 0..1: the fraction of the normal speed a contact returns (0 at or
                          ///< under the world's bounce_threshold). A contact uses the larger of
                          ///< its two surfaces' bounces. Default 0.
    /// Speed of the body's surface along the tangent (ny, -nx) of its
    /// outward normal n (material.h): a conveyor belt (a static or kinematic
    /// body carries what rests on it), or a tread. Finite, within
    /// LEDGE_MAX_COORDINATE. Default 0.
    float surface_speed;
    /// How its friction mixes with another surface's (material.h). Default
    /// LEDGE_FRICTION_MIX_MEAN.
    ledge_friction_mix friction_mix;
    float gravity_scale; ///< Multiplies the world's gravity. Default 1.
    float drag;          ///< Linear damping per second, >= 0: v *= 1 / (1 + dt * drag). Default 0.
    bool bullet;         ///< Swept against walls and bodies: never tunnels. Default false.
    bool sensor;         ///< Reports overlaps (ledge_world_sensor_events), never collides. Default
                         ///< false.
    bool enable_events;  ///< Its touches begin and end events (ledge_world_touch_events).
                         ///< Default false.
    ledge_one_way one_way;   ///< A one-way platform body (static or kinematic) when not
                             ///< LEDGE_ONE_WAY_NONE: solid only for bodies on the side the
                             ///< direction names (tilemap.h). Default LEDGE_ONE_WAY_NONE.
    float max_floor_angle;   ///< Steepest surface (radians from up) that counts as ground for
                             ///< ledge_body_ground. Default 50 degrees: 45 degree slopes are
                             ///< floors, 63 degree ones walls.
    ledge_response response; ///< Default LEDGE_RESPONSE_SLIDE.
    ledge_filter filter;     ///< Default: category 1, mask all, group 0.
    void *user_data;         ///< Yours; ledge never reads it.
} ledge_body_def;

/// A dynamic body with density 1, no friction, no bounce, no surface
/// speed, friction mixed by its geometric mean, gravity scale 1, no drag,
/// the default filter, and an invalid shape (set one).
LEDGE_API ledge_body_def ledge_default_body_def(void);

/// The default filter: category 1, mask all bits, group 0.
LEDGE_API ledge_filter ledge_default_filter(void);

/// Adds a body to the world. Returns the null id (logged) when the def is
/// invalid (no valid shape, non-finite numbers, density <= 0 for a dynamic
/// body or a mass outside LEDGE_MIN_MASS..LEDGE_MAX_MASS, friction or bounce outside 0..1, a
/// surface_speed that is not finite or beyond 1e6, a friction_mix that is no ledge_friction_mix,
/// negative drag), the world is stepping, or allocation fails.
LEDGE_API ledge_body_id ledge_body_create(ledge_world *world, const ledge_body_def *def);

/// Removes a body. Stale or foreign ids are refused (logged).
LEDGE_API void ledge_body_destroy(ledge_world *world, ledge_body_id id);

/// Whether `id` names a living body of `world`.
LEDGE_API bool ledge_body_is_valid(const ledge_world *world, ledge_body_id id);

/// The body's position ((0, 0), logged, for an invalid id).
LEDGE_API vec2s ledge_body_position(const ledge_world *world, ledge_body_id id);

/// The body's velocity ((0, 0), logged, for an invalid id).
LEDGE_API vec2s ledge_body_velocity(const ledge_world *world, ledge_body_id id);

/// The body's type (LEDGE_BODY_STATIC, logged, for an invalid id).
LEDGE_API ledge_body_type ledge_body_get_type(const ledge_world *world, ledge_body_id id);

/// The body's shape (NULL, logged, for an invalid id). The pointer is valid
/// until the world's bodies next change: the next ledge_world_step (which
/// may reorder the bodies in memory), or a body's creation or destruction.
/// Copy the shape to keep it longer.
LEDGE_API const ledge_shape *ledge_body_shape(const ledge_world *world, ledge_body_id id);

/// Moves the body to `position` (a teleport: no velocity change). The
/// body's contacts are forgotten: nothing of where it was is answered
/// again in the next step.
LEDGE_API bool ledge_body_set_position(ledge_world *world, ledge_body_id id, vec2s position);

/// Sets the body's velocity. The body's contacts are forgotten: the next
/// step starts from exactly this velocity (plus gravity) and answers only
/// the contacts it then finds.
LEDGE_API bool ledge_body_set_velocity(ledge_world *world, ledge_body_id id, vec2s velocity);

/// Changes a dynamic body's velocity by impulse / mass.
LEDGE_API bool ledge_body_apply_impulse(ledge_world *world, ledge_body_id id, vec2s impulse);

/// The body's mass (0 for static and kinematic bodies).
LEDGE_API float ledge_body_mass(const ledge_world *world, ledge_body_id id);

/// Sets the multiplier of the world's gravity for this body.
LEDGE_API bool ledge_body_set_gravity_scale(ledge_world *world, ledge_body_id id, float scale);

/// Sets the body's friction (0..1).
LEDGE_API bool ledge_body_set_friction(ledge_world *world, ledge_body_id id, float friction);

/// Sets the body's bounce (0..1).
LEDGE_API bool ledge_body_set_bounce(ledge_world *world, ledge_body_id id, float bounce);

/// Sets the speed of the body's surface (ledge_body_def.surface_speed):
/// turns a belt on, off or around. Wakes the body and the sleeping bodies
/// it touches. False (logged) for an invalid id, a speed that is not
/// finite or beyond 1e6, or a stepping world.
LEDGE_API bool ledge_body_set_surface_speed(ledge_world *world, ledge_body_id id, float speed);

/// Sets the body's friction, bounce, surface speed and friction mix at
/// once (material.h). Wakes the body and the sleeping bodies it touches.
/// False (logged, nothing changed) for an invalid id, a NULL or
/// out-of-range material, or a stepping world.
LEDGE_API bool ledge_body_set_material(ledge_world *world, ledge_body_id id,
                                       const ledge_material *material);

/// The body's material: its friction, bounce, surface speed and friction
/// mix (the default material, logged, for an invalid id).
LEDGE_API ledge_material ledge_body_material(const ledge_world *world, ledge_body_id id);

/// Sets the linear damping per second (>= 0).
LEDGE_API bool ledge_body_set_drag(ledge_world *world, ledge_body_id id, float drag);

/// Sets the collision filter.
LEDGE_API bool ledge_body_set_filter(ledge_world *world, ledge_body_id id, ledge_filter filter);

/// The collision filter (the default filter, logged, for an invalid id).
LEDGE_API ledge_filter ledge_body_filter(const ledge_world *world, ledge_body_id id);

/// Stores a pointer of yours with the body.
LEDGE_API bool ledge_body_set_user_data(ledge_world *world, ledge_body_id id, void *user_data);

/// Whether the step froze the body: its velocity or position left the
/// finite range (beyond 1e6, e.g. from the game's forces), so it was put
/// back where it was before that substep, reported through the log hook,
/// and left out of the step until ledge_body_set_position or
/// ledge_body_set_velocity is called. False (logged) for an invalid id.
LEDGE_API bool ledge_body_is_frozen(const ledge_world *world, ledge_body_id id);

/// Whether the body takes part in the step: false only for a sleeping
/// dynamic body (world.h, "Sleeping"). False (logged) for an invalid id.
LEDGE_API bool ledge_body_is_awake(const ledge_world *world, ledge_body_id id);

/// Wakes a sleeping body (`awake` true), or puts a dynamic body to sleep
/// now (`awake` false; its velocity becomes 0, and its contacts of the
/// last step are kept as a sleeping body's, except those of a body the
/// game has moved since; a world with enable_sleep false refuses it). False (logged) for an invalid
/// id, a static or kinematic body put to sleep, or a stepping world.
LEDGE_API bool ledge_body_set_awake(ledge_world *world, ledge_body_id id, bool awake);

/// Lets the body fall through the one-way platforms (tiles and bodies) it
/// stands on: they are ignored until it no longer overlaps any of them.
LEDGE_API bool ledge_body_drop_through(ledge_world *world, ledge_body_id id);

/// Moves a kinematic body to `target` over the next step of `dt` seconds
/// (sets its velocity to (target - position) / dt): a moving platform
/// driven by positions. Refused (logged) for other body types. Like
/// ledge_body_set_velocity, forgets the body's contacts.
LEDGE_API bool ledge_body_set_target(ledge_world *world, ledge_body_id id, vec2s target, float dt);

/// The pointer stored with the body (NULL for an invalid id).
LEDGE_API void *ledge_body_user_data(const ledge_world *world, ledge_body_id id);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_BODY_H
