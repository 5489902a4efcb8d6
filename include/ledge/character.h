/// @file character.h
/// Characters: a kinematic body that ledge moves with the mover (move.h)
/// and whose state it keeps, as Godot's CharacterBody2D and Unity's
/// CharacterController do: on floor, wall and ceiling with their normals,
/// the body or tile stood on, the platform's velocity, the time since the
/// last floor (coyote time), the last move's hits and the real velocity.
/// The world carries a character standing on a moving body with it in
/// every direction, inside ledge_world_step, so whatever the order of the
/// game's calls in a frame the character never trails its platform.
///
/// Overview
/// --------
///     ledge_body_def bd = ledge_default_body_def();
///     bd.type = LEDGE_BODY_KINEMATIC;              // the step never moves it itself
///     bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.3f, 0.45f}});
///     ledge_body_id player = ledge_body_create(world, &bd);
///     ledge_character_def cd = ledge_default_character_def();
///     ledge_character_create(world, player, &cd);
///     // each frame:
///     ledge_character_state s;
///     ledge_character_get_state(world, player, &s);
///     vec2s vel = s.velocity;                      // what the last move left of it
///     vel.x = input * 6.0f;
///     vel.y -= 20.0f * dt;
///     if (jump && s.time_since_floor < 0.1f) vel.y = 9.0f;   // coyote time
///     ledge_character_move(world, player, vel, dt, &s);
///     ledge_world_step(world, dt);                 // carries it on platforms
///
/// A character is addressed by the id of its body: ledge_character_create
/// makes a living kinematic body a character, and the character ends with
/// its body (ledge_body_destroy) or with ledge_character_destroy (the body
/// stays). Ids carry the world's serial number, so another world's id is
/// refused with a message.
///
/// Platforms: after a move that ends on a body (a floor), each following
/// ledge_world_step moves the character by exactly what that body moved in
/// the step (a teleport: the relative position is kept to rounding, up,
/// down, sideways, in circles), unless the body was placed elsewhere
/// (ledge_body_set_position) since that move. The documented frame orders, (1) set
/// platform targets, move characters, step, and (2) step, then move
/// characters, both keep the character on the platform every frame. A
/// character standing on another character is carried after it (by what
/// it really moved), whatever order they were created in. A
/// carry that would push the character into a wall or ceiling stops it
/// against it inside the step (moved again from where it stood, the body
/// carrying it and the characters carried in the same step no obstacles),
/// and on_wall / on_ceiling, their normals and the floor are updated then.
/// A platform is never blocked by what it carries (it follows its target):
/// when it goes on into a character stopped against a ceiling or wall, the
/// character is crushed, which the state reports (crushed, crushed_by, as
/// Box2D's mover reports a crush and Celeste-like games squash); the game
/// decides (a platformer usually kills), and otherwise the character's
/// moves pass through the crushing body until it is clear of it (it falls
/// out below or walks out), never through the ceiling. When a move leaves a
/// body it stood on (a jump, walking off), platform_on_leave adds the body's velocity to the
/// character's.
///
/// Pushing (push_bodies, the default): a move that walks into a dynamic
/// body stops against it, as against a wall, and remembers how far it would
/// have gone into it. The next ledge_world_step pushes that body and the
/// row of dynamic bodies ahead of it as one: each substep, after the
/// floor's friction, the row meets the character as a body of mass
/// push_mass moving at the character's speed (their momentum shared, no
/// bounce), push_mass first paying for what holds the row back statically
/// (the load it carries, Coulomb's friction, its weight up a slope). After
/// the step the character moves on by what the row moved, never further
/// than its move wanted: slower behind a heavy row, stopped where the row
/// stops (a wall, a row too heavy for it). On a flat floor of friction f,
/// under N's friction law, a row of mass m reaches the speed w M / (M + f m),
/// w the character's speed and M its push_mass (docs/character.md derives
/// it). Bodies answer: one moving into a character from the side meets the
/// same mass and shoves it along the floor (a wall stops it: crushed when
/// the body goes on into it by more than skin); one landing on it rests on
/// it (on_ceiling and ceiling_body say so) and, while it stands on a floor,
/// pins it: crushed, crushed_by and a crush event (events.h).
///
/// Hanging (a grappling hook): a character whose body is joined by a rope
/// or rod (joint.h) hangs from it. Each move then keeps the joint's length
/// from the anchor at its other end, as the step keeps a body's: the
/// move's velocity first gets what keeps the length where the character
/// moves to (a rope only while it would be stretched, so below its length
/// it falls freely; SHAKE's step: the swing keeps its energy), tiles and
/// bodies still stop it, and the velocity kept in the state loses its
/// part along the rope away from the anchor. Climb or pay out with
/// ledge_joint_set_length, let go with ledge_joint_destroy (the velocity
/// kept is the swing's). The state says it hangs (hanging, hang_joint,
/// hang_anchor); with several, the joint of the lowest index.
///
/// Belts: a move that starts on a floor whose surface moves (a tile, cell or
/// body with a surface speed: material.h) is carried along the floor by
/// it, speed * (ny, -nx) * dt with n the floor's normal, on top of the
/// game's velocity, and stops against what it meets like any move; leaving
/// a belt adds its surface velocity as platform_on_leave says. Ice: the
/// mover never slides by itself (the game owns the velocity); the state's
/// floor_material says what the character stands on, and the game's
/// acceleration reads it (docs/character.md, "Ice and belts").
///
/// Everything is deterministic and allocation-free after
/// ledge_character_create (which may grow the world's character table).
#ifndef LEDGE_CHARACTER_H
#define LEDGE_CHARACTER_H

#include "joint.h"
#include "move.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What leaving a moving body (jumping or walking off) does to the
/// character's velocity (Godot's platform_on_leave).
typedef enum ledge_platform_leave {
    LEDGE_PLATFORM_LEAVE_ADD_VELOCITY = 0, ///< Add the body's whole velocity (default).
    LEDGE_PLATFORM_LEAVE_ADD_UPWARD,       ///< Add only its part along up, when it goes up.
    LEDGE_PLATFORM_LEAVE_NOTHING           ///< Keep the character's own velocity.
} ledge_platform_leave;

/// How a character moves. Fill with ledge_default_character_def.
typedef struct ledge_character_def {
    ledge_move_def move; ///< The mover's options (slopes, snapping, skin, up, ...).
    ledge_platform_leave platform_on_leave; ///< Default LEDGE_PLATFORM_LEAVE_ADD_VELOCITY.
    bool ride_platforms; ///< Carried by the body stood on in each step, and by the floor's
                         ///< surface speed in each move (a belt: material.h). Default true.
    bool push_bodies;    ///< Pushes the dynamic bodies it walks into, is shoved by those that
                         ///< move into it from the side and pinned by those landing on it (see
                         ///< the file comment). False: they are walls to it and it is a wall to
                         ///< them. Default true.
    float push_mass;     ///< The mass it pushes and is shoved as, 0..1e30 (0, the default: the
                         ///< mass of its own shape at density 1, so that it meets a crate of its
                         ///< own size and density 1 as its equal). Its weight under the world's
                         ///< gravity is the most it pushes with against what holds a row back.
} ledge_character_def;

/// A character's state after its last move (and the carries of the steps
/// since). Floors, walls and ceilings are told apart by the move's
/// max_floor_slope against its up.
typedef struct ledge_character_state {
    vec2s position;             ///< Where the body is.
    vec2s velocity;             ///< The velocity of the last move without its parts into the
                                ///< surfaces met (ledge_move_clip_velocity), plus the platform's on
                                ///< leaving it: what the game keeps for the next frame.
    vec2s real_velocity;        ///< (position now - position after the previous move) / dt of the
                                ///< last move: carries and collisions included.
    bool on_floor;              ///< A floor is within 2 * skin below.
    bool on_wall;               ///< The last move pushed against a wall.
    bool on_ceiling;            ///< The last move pushed against a ceiling.
    int wall_side;              ///< +1 wall on the right, -1 on the left, 0 none (right as in
                                ///< events.h: the same on screen y up or y down).
    vec2s floor_normal;         ///< The floor's normal, or (0, 0).
    vec2s wall_normal;          ///< The wall's normal, or (0, 0).
    vec2s ceiling_normal;       ///< The ceiling's normal, or (0, 0).
    ledge_body_id floor_body;   ///< The body stood on, or the null id (a tile, a chain, or no
                                ///< floor).
    ledge_chain_id floor_chain; ///< The chain stood on, or the null id.
    bool floor_is_tile;         ///< The floor is a tile: floor_cell_x/y and floor_tile say which.
    int floor_cell_x;           ///< The tile cell stood on (floor_is_tile).
    int floor_cell_y;           ///< Its y.
    ledge_tile floor_tile;      ///< Its tile id.
    /// The material of the floor stood on (the cell's, floor_body's or
    /// floor_chain's: material.h), what a game's acceleration reads on ice
    /// (docs/character.md, "Ice and belts"); the default material off the
    /// floor.
    ledge_material floor_material;
    vec2s platform_velocity;     ///< The velocity of the floor's surface: floor_body's or
                                 ///< floor_chain's velocity plus its surface speed along the floor
                                 ///< (a belt: tile, body or chain), or (0, 0).
    float time_since_floor;      ///< Seconds since a move last ended on a floor (0 while on one;
                                 ///< counts the dt of the moves off it): coyote time.
    ledge_move_result last_move; ///< The last move's full result (hits, flags, displacement).
    bool crushed;                ///< The body it rode (crushed_by) was carried into it by more
                                 ///< than skin: the carry stopped it against a wall or ceiling
                                 ///< and the body moved on. Stays true while that body overlaps
                                 ///< it; its moves pass through that body meanwhile.
    ledge_body_id crushed_by;    ///< The body that crushed it, or the null id.
    bool pushing;                ///< The last move walked into a dynamic body it pushes: the next
                                 ///< step moves that body, and the character on behind it.
    ledge_body_id pushed_body;   ///< The body the last move pushed (the first met), or the null
                                 ///< id.
    ledge_body_id ceiling_body;  ///< A dynamic body resting on it from above (on_ceiling is then
                                 ///< set too), or the null id: found by each step, kept by the
                                 ///< moves while it still touches.
                                 ///
    bool hanging;                ///< It hangs from a rope or rod (hang_joint): its moves swing.
    ledge_joint_id hang_joint;   ///< The rope or rod it hangs from, or the null id.
    vec2s hang_anchor;           ///< The point it hangs from (the joint's other anchor), or (0, 0).
} ledge_character_state;

/// The move's defaults (ledge_default_move_def), platform_on_leave
/// LEDGE_PLATFORM_LEAVE_ADD_VELOCITY, riding platforms, pushing bodies as
/// the mass of its own shape at density 1 (push_mass 0).
LEDGE_API ledge_character_def ledge_default_character_def(void);

/// Makes the living kinematic body `id` a character (`def` NULL: the
/// defaults). Its state starts off the floor, at rest. Returns false
/// (logged, nothing changed) for a stale id, a body that is not kinematic
/// or already a character, a bad def, a stepping world, or a failed
/// allocation.
LEDGE_API bool ledge_character_create(ledge_world *world, ledge_body_id id,
                                      const ledge_character_def *def);

/// Ends the character of body `id` (the body stays). Logged when `id` is
/// not a character.
LEDGE_API void ledge_character_destroy(ledge_world *world, ledge_body_id id);

/// Whether `id` names a living character of this world (no message).
LEDGE_API bool ledge_character_is_valid(const ledge_world *world, ledge_body_id id);

/// Replaces the character's def. False (logged) for a bad def or id.
LEDGE_API bool ledge_character_set_def(ledge_world *world, ledge_body_id id,
                                       const ledge_character_def *def);

/// Moves the character by `velocity` * `dt` with the mover and updates its
/// state (copied to `*out` when not NULL). Ends a drop-through
/// (ledge_body_drop_through) as soon as the character is clear of the
/// one-way platforms, without waiting for a step. Returns false (logged,
/// nothing changed, `*out` zeroed) for a stale id or one that is not a
/// character, a velocity that is not finite, dt outside (0,
/// LEDGE_MAX_STEP], or a stepping world.
LEDGE_API bool ledge_character_move(ledge_world *world, ledge_body_id id, vec2s velocity, float dt,
                                    ledge_character_state *out);

/// Copies the character's state to `*out`. False (logged, `*out` zeroed)
/// when `id` is not a character or out is NULL.
LEDGE_API bool ledge_character_get_state(const ledge_world *world, ledge_body_id id,
                                         ledge_character_state *out);

/// Sets the velocity kept in the state (what the next frame starts from),
/// e.g. a knock-back. False (logged) for a bad id or a non-finite velocity.
LEDGE_API bool ledge_character_set_velocity(ledge_world *world, ledge_body_id id, vec2s velocity);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_CHARACTER_H
