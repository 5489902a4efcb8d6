/// @file chain.h
/// Chains: free-form ground. A chain is a polyline, open or closed, that
/// bodies collide with from one side, like Box2D v3's chain shapes: the
/// ground of a level drawn as a line (a hill, a slope of any angle, a
/// curved ramp), beside or instead of tiles.
///
/// Overview
/// --------
///     // A hill, drawn from right to left: the surface faces up.
///     vec2s hill[] = {{{20, 2}}, {{14, 2}}, {{11, 4}}, {{8, 4}}, {{5, 2}}, {{0, 2}}};
///     ledge_chain_def cd = ledge_default_chain_def();
///     cd.points = hill;
///     cd.count = 6;
///     ledge_chain_id ground = ledge_chain_create(world, &cd);
///
/// **One-sided.** Each segment's surface faces to the right of the
/// direction from one point to the next (as Box2D's chains), and the solid
/// lies behind it. With y up, a floor therefore runs from right to left,
/// and a closed chain that runs counter-clockwise is a solid island (one
/// that runs clockwise, a room). With y down (screen coordinates) the same
/// rule reads mirrored on screen: a floor runs from left to right. A body
/// meets a segment only while its centre is in front of the segment's
/// line: bodies pass through a chain from behind.
///
/// **No snags.** A body sliding or rolling over a vertex never meets the
/// end of the next segment: where the chain runs on straight or turns
/// toward the front (a concave corner) the solid behind a segment runs on
/// under its neighbour, so the push is always out through the faces, and a
/// concave corner is met as its two faces; over a convex vertex the push is
/// the exact one out of the corner (a circle rolls over it along the arc
/// around the vertex). An open end is a corner (the solid cut across the
/// end), except where it lies on the surface of a tile: there the chain
/// runs on along the tile's surface, and the tile's side it covers pushes
/// no more than a seam between tiles (docs/chains.md), so a chain can
/// continue a tile floor, ramp or quarter pipe without a seam.
///
/// **Static or kinematic.** A static chain never moves (unless the game
/// places it). A kinematic chain moves by its velocity, like a kinematic
/// body: a moving platform of any shape, which carries the dynamic bodies
/// and the characters that stand on it.
///
/// **Materials.** A chain has a surface material (material.h:
/// ledge_chain_def.material, ledge_chain_set_material), mixed with a
/// body's at each contact by material.h's one rule, as a tile's is: ice, a
/// bouncy rim, or a belt whose surface speed runs along every segment's
/// tangent (ny, -nx) (with y up, on a floor drawn from right to left: to
/// the right). On a kinematic chain that is also a belt, N's split acts on
/// the velocity relative to the moving chain and then to its belt: a body
/// at rest on it moves at the chain's velocity plus the belt's. A
/// character standing on a chain reads the chain's material
/// (ledge_character_state.floor_material): it slides on an icy chain and a
/// belt chain carries it.
///
/// Bodies meet chains in the step (with their filters, as two bodies do),
/// the character mover meets them as it meets tiles (slopes, snapping,
/// step-up, the steep-slope rules), and every world query sees them
/// (ledge_query_filter.include_chains). Contacts, touch events and the
/// ground state name the chain (ledge_contact_data.chain, ...). The cost of
/// a chain is what lies near a body, not its length: each chain keeps a
/// tree of its segments, and the world a tree of its static chains.
///
/// Refused (logged, the null id): fewer than 2 points (3 for a loop), more
/// than LEDGE_MAX_CHAIN_POINTS, a point that is not finite or beyond 1e6,
/// a segment no longer than 1e-5 of its ends' largest coordinate in the
/// chain's frame (a repeated point; floats would not resolve its
/// direction), a chain that folds back on itself at a vertex (two
/// segments over each other), segments that cross or touch one another, a
/// dynamic type, a material that is not valid, and a world that is
/// stepping.
#ifndef LEDGE_CHAIN_H
#define LEDGE_CHAIN_H

#include "material.h"
#include "query.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The most points a chain may have.
#define LEDGE_MAX_CHAIN_POINTS (1 << 20)

/// What a chain is made from. Fill with ledge_default_chain_def.
typedef struct ledge_chain_def {
    const vec2s *points;  ///< The polyline, in the chain's frame (copied). Required.
    int count;            ///< Points, 2 .. LEDGE_MAX_CHAIN_POINTS (3 for a loop).
    bool loop;            ///< Closed: the last point joins the first. Default false.
    ledge_body_type type; ///< LEDGE_BODY_STATIC (default) or LEDGE_BODY_KINEMATIC.
    vec2s position;       ///< Where the chain's frame lies in the world. Default (0, 0).
    vec2s velocity;       ///< A kinematic chain's velocity. Default (0, 0).
    ledge_filter filter;  ///< Which bodies meet it (Box2D's rule, body.h). Default: the default
                          ///< filter.
    void *user_data;      ///< Yours; ledge never reads it.
    /// Its surface (material.h): friction, bounce, a surface speed (a belt
    /// along each segment's tangent (ny, -nx)) and how its friction mixes,
    /// mixed with a body's at each contact as a tile's material is. Default
    /// ledge_default_material() (the body keeps its own friction and
    /// bounce). Must be valid (ledge_material_is_valid).
    ledge_material material;
} ledge_chain_def;

/// A static open chain at the origin with the default filter, the default
/// material and no points (set them).
LEDGE_API ledge_chain_def ledge_default_chain_def(void);

/// Adds a chain to the world. Returns the null id (logged) when the def is
/// refused (see the file comment) or allocation fails.
LEDGE_API ledge_chain_id ledge_chain_create(ledge_world *world, const ledge_chain_def *def);

/// Removes a chain: its contacts are forgotten and the sleeping bodies they
/// held woken. Stale or foreign ids are refused (logged).
LEDGE_API void ledge_chain_destroy(ledge_world *world, ledge_chain_id id);

/// Whether `id` names a living chain of `world`.
LEDGE_API bool ledge_chain_is_valid(const ledge_world *world, ledge_chain_id id);

/// Number of living chains.
LEDGE_API int ledge_world_chain_count(const ledge_world *world);

/// The chain's type (LEDGE_BODY_STATIC, logged, for an invalid id).
LEDGE_API ledge_body_type ledge_chain_get_type(const ledge_world *world, ledge_chain_id id);

/// Where the chain's frame lies ((0, 0), logged, for an invalid id).
LEDGE_API vec2s ledge_chain_position(const ledge_world *world, ledge_chain_id id);

/// A kinematic chain's velocity ((0, 0) for a static chain; logged for an
/// invalid id).
LEDGE_API vec2s ledge_chain_velocity(const ledge_world *world, ledge_chain_id id);

/// Moves the chain's frame to `position` (a teleport: what touched it is
/// not answered again in the next step). Bodies are not pushed along.
LEDGE_API bool ledge_chain_set_position(ledge_world *world, ledge_chain_id id, vec2s position);

/// Sets a kinematic chain's velocity (refused, logged, for a static chain).
LEDGE_API bool ledge_chain_set_velocity(ledge_world *world, ledge_chain_id id, vec2s velocity);

/// Moves a kinematic chain to `target` over the next step of `dt` seconds
/// (sets its velocity to (target - position) / dt), as
/// ledge_body_set_target does for a body.
LEDGE_API bool ledge_chain_set_target(ledge_world *world, ledge_chain_id id, vec2s target,
                                      float dt);

/// Whether the chain is closed (false, logged, for an invalid id).
LEDGE_API bool ledge_chain_is_loop(const ledge_world *world, ledge_chain_id id);

/// Writes up to `capacity` of the chain's points (in its frame) to `out`
/// (may be NULL with capacity 0) and returns how many it has; -1 (logged)
/// for an invalid id.
LEDGE_API int ledge_chain_points(const ledge_world *world, ledge_chain_id id, vec2s *out,
                                 int capacity);

/// The chain's segments: count - 1 for an open chain, count for a loop; -1
/// (logged) for an invalid id.
LEDGE_API int ledge_chain_segment_count(const ledge_world *world, ledge_chain_id id);

/// Segment `index` in world coordinates: its ends (from, to: the chain's
/// order) and the unit normal of its surface. False (logged) for an
/// invalid id or index; the outputs (each may be NULL) are then untouched.
LEDGE_API bool ledge_chain_segment(const ledge_world *world, ledge_chain_id id, int index,
                                   vec2s *from, vec2s *to, vec2s *normal);

/// The chain's filter (the default filter, logged, for an invalid id).
LEDGE_API ledge_filter ledge_chain_filter(const ledge_world *world, ledge_chain_id id);

/// Sets which bodies meet the chain.
LEDGE_API bool ledge_chain_set_filter(ledge_world *world, ledge_chain_id id, ledge_filter filter);

/// The chain's material (the default material, logged, for an invalid id).
LEDGE_API ledge_material ledge_chain_material(const ledge_world *world, ledge_chain_id id);

/// Sets the chain's material (refused, logged, when not valid). What
/// touches the chain meets the new surface from the next step on, and what
/// sleeps on it wakes.
LEDGE_API bool ledge_chain_set_material(ledge_world *world, ledge_chain_id id,
                                        const ledge_material *material);

/// The pointer stored with the chain (NULL for an invalid id).
LEDGE_API void *ledge_chain_user_data(const ledge_world *world, ledge_chain_id id);

/// Stores a pointer of yours with the chain.
LEDGE_API bool ledge_chain_set_user_data(ledge_world *world, ledge_chain_id id, void *user_data);

/// Receives a chain segment found by a query; return false to stop.
typedef bool ledge_chain_query_fn(ledge_chain_id chain, int segment, void *context);

/// Every segment of the chains the filter sees that meets `aabb` (touching
/// counts), through `fn`: by chain index (ledge_chain_id.index1), each
/// chain's segments in order. Returns the number delivered, or -1 (logged)
/// when refused (as ledge_world_query_aabb).
LEDGE_API int ledge_world_query_chains_aabb(ledge_world *world, ledge_aabb aabb,
                                            const ledge_query_filter *filter,
                                            ledge_chain_query_fn *fn, void *context);

/// Every closed chain the filter sees whose solid holds `point` (the
/// region inside a counter-clockwise loop, y up; outside a clockwise one;
/// the chain itself counts), through `fn` with segment -1, by chain index.
/// An open chain holds no point. Returns the number delivered, or -1
/// (logged) when refused.
LEDGE_API int ledge_world_query_chains_point(ledge_world *world, vec2s point,
                                             const ledge_query_filter *filter,
                                             ledge_chain_query_fn *fn, void *context);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_CHAIN_H
