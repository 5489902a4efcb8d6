/// @file joint.h
/// Joints: ropes, rods, springs, welds, sliders and pulleys between two
/// bodies, or between a body and a fixed point of the world. Created from a
/// `ledge_joint_def` that one of the `ledge_default_*_def()` functions
/// fills, addressed by a `ledge_joint_id` value (an index, a generation and
/// the world's serial number, as a body id).
///
/// Bodies never rotate, so every joint holds two points: anchor a (body a's
/// position plus a fixed offset, or a world point when body a is the null
/// id) and anchor b. What each kind keeps, with d = anchor b - anchor a:
/// - rod: |d| = length;
/// - rope: min_length <= |d| <= length (slack in between; min_length 0);
/// - spring: a force toward |d| = length, of `hertz` cycles per second and
///   `damping_ratio`, solved implicitly (stable at any stiffness); optional
///   hard limits min_length <= |d| <= max_length;
/// - weld: d = 0 (anchor b stays on anchor a: body b keeps its offset from
///   body a); `hertz` > 0 makes it soft;
/// - slider: d stays along `axis` (anchor b moves on the line through anchor
///   a), between lower and upper (d . axis) when enable_limit, with an
///   optional motor (a speed along the axis and the most force it uses);
/// - pulley: two ropes over the fixed points ground_a and ground_b:
///   |anchor a - ground_a| + ratio * |anchor b - ground_b| <= length.
///
/// Overview
/// --------
///     ledge_joint_def jd = ledge_default_rope_def();
///     jd.body_a = LEDGE_NULL_BODY_ID;           // a fixed point of the world
///     jd.anchor_a = (vec2s){{10, 12}};
///     jd.body_b = crate;                        // the crate's centre
///     jd.length = 4;
///     ledge_joint_id rope = ledge_joint_create(world, &jd);
///     ...
///     ledge_world_step(world, dt);
///     if (v2_len(ledge_joint_force(world, rope)) > 500) ledge_joint_destroy(world, rope);
///
/// The step solves the joints with the contacts, exactly: the rows of every
/// joint between moving bodies are solved together (a sparse factorization
/// of the joints' system, not an iteration), at the velocity level before
/// the bodies move (so that where they move to keeps the joints), in the
/// relaxation passes beside the contacts' projection, and in the velocity
/// pass beside the contacts' response. A rope is never longer than its
/// length by more than rounding, whatever the mass ratio, and a pendulum
/// keeps its energy (docs/joints.md gives each closed form and the tests
/// that check it).
///
/// A joint dies with either body (ledge_body_destroy) or with
/// ledge_joint_destroy. Joined bodies do not collide with each other unless
/// `collide_connected`. Sleeping bodies of a joint fall asleep and wake
/// together. A character (character.h) hanging from a rope or rod swings
/// on it in its moves (ledge_character_state.hanging).
#ifndef LEDGE_JOINT_H
#define LEDGE_JOINT_H

#include "body.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A joint handle: slot index + 1 (0 is the null id), the slot's generation
/// when the joint was created, and the serial number of the world.
typedef struct ledge_joint_id {
    uint32_t index1;     ///< Slot index plus one; 0 for the null id.
    uint32_t generation; ///< Must match the slot's current generation.
    uint32_t world;      ///< Serial number of the world that made it.
} ledge_joint_id;

/// The null joint id (never valid). A value in C and in C++.
#ifdef __cplusplus
#define LEDGE_NULL_JOINT_ID (ledge_joint_id{0u, 0u, 0u})
#else
#define LEDGE_NULL_JOINT_ID ((ledge_joint_id){0u, 0u, 0u})
#endif

/// What a joint keeps (the file comment says each one's rule).
typedef enum ledge_joint_type {
    LEDGE_JOINT_ROD = 0,    ///< The anchors' distance stays `length`.
    LEDGE_JOINT_ROPE = 1,   ///< The distance stays at most `length` (and at least min_length).
    LEDGE_JOINT_SPRING = 2, ///< A soft force toward `length` (hertz, damping_ratio), with limits.
    LEDGE_JOINT_WELD = 3,   ///< Anchor b stays on anchor a.
    LEDGE_JOINT_SLIDER = 4, ///< Anchor b stays on the line through anchor a along `axis`.
    LEDGE_JOINT_PULLEY = 5, ///< Two ropes over ground_a and ground_b: a + ratio * b <= length.
} ledge_joint_type;

/// The greatest `length`, limit or force a joint def accepts (and the
/// default max_length of a spring: no limit).
#define LEDGE_JOINT_MAX_LENGTH 1e6f

/// What a joint is made from. Fill with one of the ledge_default_*_def
/// functions (which set `type`), then change what you need. Fields a kind
/// does not read are ignored.
typedef struct ledge_joint_def {
    ledge_joint_type type; ///< What it keeps: set by the ledge_default_*_def function.
    ledge_body_id body_a;  ///< The first body, or the null id: anchor_a is then a world point.
    ledge_body_id body_b;  ///< The second body, or the null id (not both null, not body_a).
    vec2s anchor_a;        ///< Offset of anchor a from body a's position (bodies do not rotate, so
                           ///< it stays in world axes), or a world point. Default (0, 0).
    vec2s anchor_b;        ///< Likewise for body b. Default (0, 0).
    float length;     ///< Rod: the distance kept; rope: the most; spring: the rest length; pulley:
                      ///< the most of length_a + ratio * length_b. >= 0. Default 1.
    float min_length; ///< Rope and spring: the least distance (0: none). Default 0.
    float max_length; ///< Spring: the most distance. Default LEDGE_JOINT_MAX_LENGTH (none).
    float hertz;      ///< Spring: its frequency, > 0 (default 2); weld: 0 rigid (default) or soft.
    float damping_ratio;    ///< Spring and soft weld: 0 none, 1 critical, >= 0. Default 0.3 for
                            ///< a spring, 1 for a weld.
    vec2s axis;             ///< Slider: the direction it slides along (any length > 0). Default
                            ///< (1, 0).
    bool enable_limit;      ///< Slider: keep lower <= d . axis <= upper. Default false.
    float lower;            ///< Slider: the least translation. Default -1.
    float upper;            ///< Slider: the most translation. Default 1.
    bool enable_motor;      ///< Slider: drive body b along the axis at motor_speed. Default false.
    float motor_speed;      ///< Slider: the motor's speed along the unit axis (m/s). Default 0.
    float max_motor_force;  ///< Slider: the most force the motor uses (N), >= 0. Default 0.
    vec2s ground_a;         ///< Pulley: the fixed point rope a runs over. Default (-1, 1).
    vec2s ground_b;         ///< Pulley: the fixed point rope b runs over. Default (1, 1).
    float ratio;            ///< Pulley: how much rope b counts, > 0. Default 1.
    bool collide_connected; ///< The two bodies collide with each other. Default false.
    void *user_data;        ///< Yours; ledge never reads it.
} ledge_joint_def;

/// A rod: length 1 between the bodies' positions.
LEDGE_API ledge_joint_def ledge_default_rod_def(void);
/// A rope: at most 1 between the bodies' positions.
LEDGE_API ledge_joint_def ledge_default_rope_def(void);
/// A spring: rest length 1, 2 Hz, damping ratio 0.3, no limits.
LEDGE_API ledge_joint_def ledge_default_spring_def(void);
/// A rigid weld of the anchors (both (0, 0): set anchor_a to body b's
/// position less body a's to weld them where they are).
LEDGE_API ledge_joint_def ledge_default_weld_def(void);
/// A slider along (1, 0), no limit, no motor.
LEDGE_API ledge_joint_def ledge_default_slider_def(void);
/// A pulley over (-1, 1) and (1, 1), ratio 1, length 4.
LEDGE_API ledge_joint_def ledge_default_pulley_def(void);

/// Adds a joint. Returns the null id (logged, nothing changed) for a NULL
/// world or def, a stepping world, an unknown type, two null bodies, a
/// stale or foreign body id, a body joined to itself, a non-finite anchor,
/// axis or ground point, a zero axis, a negative or non-finite length or
/// limit (or min above max, lower above upper), a spring's hertz <= 0, a
/// negative hertz, damping or motor force, a pulley's ratio <= 0, or a
/// failed allocation. Both bodies wake.
LEDGE_API ledge_joint_id ledge_joint_create(ledge_world *world, const ledge_joint_def *def);

/// Removes a joint (its bodies wake). Stale or foreign ids are refused
/// (logged).
LEDGE_API void ledge_joint_destroy(ledge_world *world, ledge_joint_id id);

/// Whether `id` names a living joint of `world` (no message).
LEDGE_API bool ledge_joint_is_valid(const ledge_world *world, ledge_joint_id id);

/// The joint's type (LEDGE_JOINT_ROD, logged, for an invalid id).
LEDGE_API ledge_joint_type ledge_joint_get_type(const ledge_world *world, ledge_joint_id id);

/// Copies the joint's def as it stands now (its setters' changes in) to
/// *out. False (logged, *out zeroed) for an invalid id or out NULL.
LEDGE_API bool ledge_joint_get_def(const ledge_world *world, ledge_joint_id id,
                                   ledge_joint_def *out);

/// Body a (the null id for a world point, or for an invalid id, logged).
LEDGE_API ledge_body_id ledge_joint_body_a(const ledge_world *world, ledge_joint_id id);

/// Body b (the null id for a world point, or for an invalid id, logged).
LEDGE_API ledge_body_id ledge_joint_body_b(const ledge_world *world, ledge_joint_id id);

/// Anchor a in world coordinates now ((0, 0), logged, for an invalid id).
LEDGE_API vec2s ledge_joint_anchor_a(const ledge_world *world, ledge_joint_id id);

/// Anchor b in world coordinates now ((0, 0), logged, for an invalid id).
LEDGE_API vec2s ledge_joint_anchor_b(const ledge_world *world, ledge_joint_id id);

/// What the joint measures now: the anchors' distance (rod, rope, spring,
/// weld), the translation d . axis (slider, unit axis), or length_a + ratio
/// * length_b (pulley). 0, logged, for an invalid id.
LEDGE_API float ledge_joint_current_length(const ledge_world *world, ledge_joint_id id);

/// Sets the length of a rod, rope, spring or pulley (a grappling hook
/// climbs or pays out by it); >= 0, and not below a rope's min_length.
/// The bodies wake. False (logged) for another type or a bad value.
LEDGE_API bool ledge_joint_set_length(ledge_world *world, ledge_joint_id id, float length);

/// Sets a joint's limits: a rope's min_length and length (lower, upper); a
/// spring's min_length and max_length; a slider's lower and upper (and
/// turns its limit on). 0 <= lower <= upper for lengths, lower <= upper for
/// a slider. False (logged) for a rod, weld or pulley, or bad values.
LEDGE_API bool ledge_joint_set_limits(ledge_world *world, ledge_joint_id id, float lower,
                                      float upper);

/// Sets a spring's (hertz > 0) or a weld's (hertz 0: rigid) frequency and
/// damping ratio (>= 0). False (logged) for another type or bad values.
LEDGE_API bool ledge_joint_set_spring(ledge_world *world, ledge_joint_id id, float hertz,
                                      float damping_ratio);

/// Sets a slider's motor: on or off, its speed along the unit axis and the
/// most force it uses (>= 0). False (logged) for another type or bad
/// values.
LEDGE_API bool ledge_joint_set_motor(ledge_world *world, ledge_joint_id id, bool enable,
                                     float speed, float max_force);

/// The force the joint applied to body b over the last step (the impulses
/// of its substeps over dt, in N): a rope's tension along it, a weld's
/// hold. Body a took the opposite (a pulley's body a the tension along its
/// own rope); saturated at +-3e38 (a tiny dt can make the quotient
/// overflow a float). (0, 0), logged, for an invalid id.
LEDGE_API vec2s ledge_joint_force(const ledge_world *world, ledge_joint_id id);

/// Lets the joined bodies collide with each other, or not.
LEDGE_API bool ledge_joint_set_collide_connected(ledge_world *world, ledge_joint_id id,
                                                 bool collide);

/// Stores a pointer of yours with the joint.
LEDGE_API bool ledge_joint_set_user_data(ledge_world *world, ledge_joint_id id, void *user_data);

/// The pointer stored with the joint (NULL for an invalid id, logged).
LEDGE_API void *ledge_joint_user_data(const ledge_world *world, ledge_joint_id id);

/// The number of living joints.
LEDGE_API int ledge_world_joint_count(const ledge_world *world);

/// Writes the ids of the joints of body `body` (up to `capacity`) to `out`
/// by joint index, and returns how many it has (-1, logged, for an
/// invalid body or a NULL out with capacity > 0).
LEDGE_API int ledge_body_joints(const ledge_world *world, ledge_body_id body, ledge_joint_id *out,
                                int capacity);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_JOINT_H
