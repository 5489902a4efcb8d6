/// @file move.h
/// The character mover: move a body by the displacement a game wants this
/// frame and slide along what it meets, the way Godot's
/// CharacterBody2D.move_and_slide and Box2D v3's character mover do, on N's
/// tiles and with the tilemap's edge states (so seams never snag).
///
/// Overview
/// --------
///     ledge_move_def md = ledge_default_move_def();
///     vel.x = input * 6.0f;                        // the game's own velocity
///     vel.y += gravity * dt;
///     if (jump && was_on_ground) vel.y = 9.0f;
///     ledge_move_result r;
///     ledge_body_move(world, player, (vec2s){{vel.x * dt, vel.y * dt}}, &md, &r);
///     vel = ledge_move_clip_velocity(&r, vel);    // stop falling on the floor
///     was_on_ground = r.on_ground;
///
/// What a move does, in order (docs/character.md says why):
/// 1. **Ground at the start**: the shape lowered by 2 * skin against "up"
///    meets a floor (a surface whose normal is within max_floor_slope of
///    up). When it does and the move does not go up, the move follows that
///    floor: its sideways part is kept (constant horizontal speed up and
///    down slopes; projected onto the floor without
///    constant_speed_on_slopes) and its downward part is absorbed
///    (stop_on_slope) or slid along the floor.
/// 2. **Sub-moves and projection**: the move is cut into pieces no longer
///    than half the thinnest of the mover, the bodies near its path and a
///    quarter tile, so nothing is tunnelled. After each piece the overlaps
///    with the tiles (per cell, with edge states: the contacts the world
///    uses) and with the bodies are solved together, up to max_slides
///    rounds: floors push along up (no sliding down, x kept exactly), walls
///    straight across "up" with block_on_wall (a 63 degree wall blocks
///    instead of being climbed; slide_on_steep slides down it off the
///    ground), else along their normal, ceilings along their normal. A piece that cannot be solved
///    to within skin is undone (the body stays where it was, `stuck` is set).
/// 3. **Ground snapping**: a body that started on the ground, did not move
///    up and has lost the floor is lowered by up to snap_length until it
///    meets one again (walking down slopes, over convex arcs and off
///    small ledges keeps it on the ground).
/// 4. **Flags**: on_ground from a final floor probe; on_wall and on_ceiling
///    from the surfaces the move pushed against.
///
/// The body is placed like ledge_body_set_position (a teleport, nothing
/// else of the world changes); its velocity is left alone unless
/// `set_velocity` asks for it to be clipped. Use a kinematic body with zero
/// velocity in the world (the step then never moves it) and keep the
/// character's velocity in the game. Steps up onto ledges (HALF tiles) are
/// taken only with step_height.
///
/// Sensors and bodies whose response is to cross are passed through;
/// one-way platforms hold the mover only from their allowed side, as in the
/// step.
///
/// Deterministic: the same world and calls give the same bits. Refused
/// (logged) while the world is stepping.
#ifndef LEDGE_MOVE_H
#define LEDGE_MOVE_H

#include "query.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Hits a ledge_move_result holds (further obstacles are not listed).
#define LEDGE_MOVE_MAX_HITS 8

/// The largest max_floor_slope accepted (radians, 80 degrees): floors push
/// along up by depth / cos(slope), which grows without bound near 90.
#define LEDGE_MOVE_MAX_FLOOR_SLOPE 1.3962634f

/// How a move behaves. Fill with ledge_default_move_def, then change what
/// you need. Lengths are world units (the defaults suit 1-unit tiles).
typedef struct ledge_move_def {
    int max_slides;        ///< Rounds of contact solving per sub-move, 1..16. Default 4.
    float max_floor_slope; ///< Largest floor angle from up, radians, 0..LEDGE_MOVE_MAX_FLOOR_SLOPE.
                           ///< Default 50 degrees: 45 is a floor, 63.43 a wall.
    float snap_length;     ///< Ground snapping reach, >= 0 (0: no snapping). Default 0.25.
    float skin;            ///< Contact offset, > 0: the ground probe's reach is twice it, and no
                           ///< overlap deeper than it is left. Default 0.01.
    bool stop_on_slope;    ///< On a floor, a move's downward part is absorbed rather than slid
                           ///< down the slope. Default true.
    bool set_velocity;     ///< Also clip the body's velocity (ledge_move_clip_velocity). Default
                           ///< false.
    vec2s up;              ///< "Up": (0, 0) means opposite to the world's gravity ((0, 1) without
                           ///< gravity); else a nonzero vector (normalized). Default (0, 0).
    bool slide_on_steep;   ///< Off the ground, a surface facing up but steeper than
                           ///< max_floor_slope pushes along its normal: the body slides down it
                           ///< (and ledge_move_clip_velocity keeps the speed along it) instead of
                           ///< falling past it. On the ground it still blocks. Default false.
    float step_height;     ///< A grounded move blocked by a wall steps up onto a ledge up to this
                           ///< high (along up) when it then stands on a floor further on, e.g.
                           ///< 0.55 for HALF tiles. 0..LEDGE_MAX_COORDINATE; default 0 (none).
    bool constant_speed_on_slopes; ///< On a floor, the move's part across up is kept whole and the
                                   ///< height follows the floor: the speed across up (horizontal)
                                   ///< is the same on every slope, |v| / cos(slope) along it.
                                   ///< False: that part is projected onto the floor, so the speed
                                   ///< along a slope of angle a is |v| cos(a) (|v| cos^2(a) across
                                   ///< up). Default true. (Godot's floor_constant_speed keeps |v|
                                   ///< along the slope instead.)
    bool block_on_wall;            ///< A wall (neither floor nor ceiling) pushes the body straight
                                   ///< across up: walking or falling into a steep face stops
                                   ///< against it, never climbs it nor is lifted along it, and a
                                   ///< grounded move whose floor-following climbed onto a wall is
                                   ///< made again sideways (Godot's floor_block_on_wall). False: a
                                   ///< wall pushes along its normal, so the body slides along it
                                   ///< (up a steep face it walks into). Default true.
} ledge_move_def;

/// One obstacle a move met.
typedef struct ledge_move_hit {
    ledge_hit_kind kind;  ///< LEDGE_HIT_TILE, LEDGE_HIT_CHAIN or LEDGE_HIT_BODY.
    ledge_body_id body;   ///< The body (LEDGE_HIT_BODY), else the null id.
    ledge_chain_id chain; ///< The chain (LEDGE_HIT_CHAIN), else the null id.
    int segment;          ///< Its segment (LEDGE_HIT_CHAIN; the first met), else 0.
    int cell_x;           ///< The cell (LEDGE_HIT_TILE; may lie outside the map, as FULL).
    int cell_y;           ///< The cell (LEDGE_HIT_TILE).
    ledge_tile tile;      ///< The tile id (LEDGE_HIT_TILE).
    vec2s normal;         ///< Unit, from the obstacle toward the mover, when first met.
    vec2s point;          ///< A contact point when first met.
    vec2s push;           ///< Unit direction the mover was pushed out along: up for floors,
                          ///< the normal (or its part across up) for walls, the normal for
                          ///< ceilings. ledge_move_clip_velocity clips along it.
    float fraction;       ///< Part of the (floor-following) move done when first met, 0..1;
                          ///< 1 for a floor found only by the final probe.
} ledge_move_hit;

/// What a move did.
typedef struct ledge_move_result {
    vec2s position;       ///< Where the body is now.
    vec2s displacement;   ///< position minus the position before the call (bit-exact).
    vec2s velocity;       ///< The body's velocity clipped against the hits
                          ///< (ledge_move_clip_velocity); stored in the body with set_velocity.
    bool on_ground;       ///< A floor is within 2 * skin below (or was snapped to).
    bool on_wall;         ///< The move pushed against a wall (neither floor nor ceiling).
    bool on_ceiling;      ///< The move pushed against a ceiling (normal within max_floor_slope
                          ///< of down).
    bool snapped;         ///< Ground snapping lowered the body.
    bool stuck;           ///< A sub-move could not be solved and was undone.
    int wall_side;        ///< +1: the wall is on the right (its normal points left), -1: on
                          ///< the left, 0: no wall. Right as in events.h: the perpendicular
                          ///< of up with a positive x part, the same on screen y up or down.
    vec2s ground_normal;  ///< The floor's normal (the one closest to up), or (0, 0).
    vec2s wall_normal;    ///< The wall's normal (the first met), or (0, 0).
    vec2s ceiling_normal; ///< The ceiling's normal (the first met), or (0, 0).
    vec2s up;             ///< The up direction used (unit).
    int ground_hit;       ///< Index in hits of the floor stood on, or -1.
    int hit_count;        ///< Obstacles in hits, in the order they were met.
    ledge_move_hit hits[LEDGE_MOVE_MAX_HITS]; ///< Each obstacle once.
} ledge_move_result;

/// max_slides 4, max_floor_slope 50 degrees, snap_length 0.25, skin 0.01,
/// stop_on_slope, velocity left alone, up from gravity, constant speed on
/// slopes, block on wall.
LEDGE_API ledge_move_def ledge_default_move_def(void);

/// Moves body `id` by `displacement` (world units, this frame), sliding
/// along tiles and the bodies its filter lets it touch (Box2D's rule, as in
/// the step; itself excluded), then snaps it to the ground (see the file
/// comment). Any body type may be moved. `def` NULL means the defaults.
/// Returns true and fills `*out`; returns false (logged, body untouched,
/// `*out` zeroed when not NULL) for a NULL world or out, a stale id, a
/// displacement that is not finite or beyond 1e6, a bad def, or a world
/// that is stepping.
LEDGE_API bool ledge_body_move(ledge_world *world, ledge_body_id id, vec2s displacement,
                               const ledge_move_def *def, ledge_move_result *out);

/// `velocity` without its parts into the surfaces the move met, as the move
/// solved them: against floors the part along -up (the fall stops, the
/// horizontal speed is kept), against walls the part into the wall (across
/// up when the move started on the ground), against ceilings the part
/// into the ceiling. Returns `velocity` unchanged (logged) for a NULL
/// result or a non-finite velocity.
LEDGE_API vec2s ledge_move_clip_velocity(const ledge_move_result *result, vec2s velocity);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_MOVE_H
