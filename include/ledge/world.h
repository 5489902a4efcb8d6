/// @file world.h
/// The world a game steps once per frame: bodies (body.h) and one tilemap
/// (tilemap.h).
///
/// Overview
/// --------
///     ledge_world_def wd = ledge_default_world_def();
///     wd.map_width = 64; wd.map_height = 32;
///     ledge_world *world = ledge_world_create(&wd);
///     ledge_tilemap_set(ledge_world_tilemap(world), 3, 0, LEDGE_TILE_FULL);
///     ledge_body_def bd = ledge_default_body_def();
///     bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.4f);
///     bd.position = (vec2s){{3.5f, 5}};
///     ledge_body_id ball = ledge_body_create(world, &bd);
///     for (int i = 0; i < 60; ++i) ledge_world_step(world, 1.0f / 60.0f);
///
/// The step (docs/design.md draws the pipeline), once per substep of
/// h = dt / ledge_world_def.substeps:
/// 1. kinematic platforms carry what stands on them; velocities integrate:
///    v += gravity * gravity_scale * h; v *= 1 / (1 + h * drag);
/// 2. the previous substep's contacts are answered (the response below),
///    so that friction acts on resting and sliding bodies before they move
///    (not those of a body whose position or velocity the game set since
///    the last step, nor those of a tile cell the game changed);
/// 3. positions integrate (semi-implicit Euler: the new velocity moves the
///    body); fast bodies are multisampled and bullets swept
///    (ledge_body_def.bullet);
/// 4. broad phase: a uniform loose grid; narrow phase against the tilemap
///    and other bodies; `iterations` passes of projection out of overlap
///    (projection moves bodies, it never changes a velocity);
/// 5. the response to the contacts the last projection pass found.
/// After the last substep the game's view is built: contacts per body,
/// ground state, touch, sensor and crush events (events.h).
///
/// The response. At a contact with unit normal n (out of the surface,
/// toward the body) split the velocity v (for two bodies: the relative
/// velocity va - vb) into vn = (v . n) n and vt = v - vn. A contact is
/// answered only while the body moves into the surface (v . n < 0), and at
/// most once per substep: a contact it already answered (also a second
/// contact with the same normal at a tile seam) then has v . n >= 0; what
/// rounding leaves of an approach (under 1e-5 of the speed) is removed
/// without friction or bounce.
/// - A lone contact (a body against the level, or two bodies meeting in
///   the air) answers N's split exactly:
///   v' = (1 - f) vt - b vn, with b = 0 when |v . n| <= bounce_threshold
///   (so that a resting body with b > 0 does not hop by b g h forever; set
///   the threshold to 0 for N's rule without exception).
///   Friction f is the fraction of the tangential speed removed, bounce b
///   the fraction of the normal speed returned: a lone body slides down a
///   slope unless f = 1 (terminal speed (1 - f) / f * |g| sin(slope) * h,
///   docs/design.md).
/// - Piles carry their weight to what supports them. After the contacts
///   are answered in order, a second pass from the bottom of each pile up
///   holds each lower body still and brings each contact's normal speed up
///   to what it was to leave with (shock propagation: a bounce aimed for is
///   kept, off another body only if that body was at rest), with friction
///   only where that adds approach; and projection leans each push up the
///   pile (a dynamic body under another counts twice as heavy). Friction in
///   a pile also holds the weight it carries: a contact removes at least
///   f times the load resting on its upper body (times |g| h), and a
///   contact whose lower body is itself a dynamic body resting on the level
///   is Coulomb's (below). So towers, pyramids and piles of crates and
///   balls come to rest, a heavy crate stands on a light one, and the
///   bodies a pile rests on do not creep.
/// - ledge_world_def.friction_law = LEDGE_FRICTION_COULOMB makes every
///   contact Coulomb's: friction removes at least f times the normal speed
///   the contact removed, or f times the whole load it carries (the body's
///   own weight included), whichever is more, never more than |vt|. A
///   lone body then rests on slopes no steeper than atan(f).
/// Two bodies: the change of the relative velocity is shared by inverse
/// mass (va += ma' dv, vb -= mb' dv with ma' = (1/ma) / (1/ma + 1/mb)),
/// which conserves momentum.
///
/// Materials: f, b and the surface speed s of a contact mix the two
/// surfaces' materials by one rule (material.h): friction by the stronger
/// mix mode of the two (MAX over MIN over MEAN): sqrt(fa * fb) for two
/// bodies of the default mode, the lower against a tile (whose default
/// material, friction 1 by MIN, leaves a body its own f), the higher
/// against a grippy surface; bounce the larger of the two; surface speeds
/// summed. Why: a level's ice must make every crate slide and a bouncy pad
/// bounce every body whatever their own numbers (Godot's per-tile
/// materials mix friction by the lower too), while two crates keep Box2D's
/// geometric mean. A kinematic body of the default mode mixes by MAX: it
/// holds what touches it as the level does, so a platform made with the
/// default def (friction 0) carries a crate by the crate's friction (body.h).
/// A character that pushes bodies answers a dynamic body from its side
/// with its push mass (character.h). A moving surface (a conveyor belt: a tile, cell or body
/// with surface_speed s) moves along its tangent t = (ny, -nx), n its
/// outward normal, and the split above acts on the velocity relative to
/// it: v' = (1 - f) (vt - s t) + s t - b vn against a tile (for two bodies
/// va - vb - s t), so what rests on a belt is carried as by a platform
/// moving at s (docs/tilemap.md, "Materials", gives its closed forms).
/// A body's tile contacts on one surface split by seams are answered
/// once: with the material of the cell under the body's centre.
///
/// Projection leaves `linear_slop` of overlap so that contacts persist
/// from step to step: against the level, a static or kinematic body, and
/// between bodies side by side. Two moving bodies one on the other (their
/// normal within 37 degrees of up) keep a fifth of it, so that a pile does
/// not sink a slop for each body in it: the top of a tower of n boxes
/// rests `linear_slop` (1 + (n - 1) / 5) below where the boxes touch. A
/// sleeping body counts as a moving one here. Two circles of such a pair
/// keep their contact until they are the rest of the slop (four fifths)
/// apart, as long as they would with the whole slop, so a circle can rest
/// up to that far above a dynamic circle under it.
///
/// Sleeping (ledge_world_def.enable_sleep). A dynamic body slower than
/// sleep_speed for sleep_time seconds falls asleep at the end of a step,
/// unless it touches a dynamic body that has not rested as long or a
/// kinematic body moving faster than sleep_speed, or one of its contacts
/// is deeper than 1.25 times linear_slop (the projection has not pushed
/// it out yet). Such a pressed body also restarts its rest time, and
/// wakes the sleeping bodies it touches, so that bodies pressed between
/// sleepers can push them apart instead of staying awake. The bodies
/// resting on a pressed body (and those resting on them, up to the top of
/// the stack) do not fall asleep while it is pressed, and a sleeping body
/// resting on one of them wakes: a sleeping top crate would hold the
/// press of a tall column in place. A sleeping body keeps
/// its position and contacts (the game's view, the ground state and the
/// events do not change), its velocity is 0, and the step skips it: its
/// pairs with other sleeping or static bodies and with tiles are not
/// looked at, and an awake body touching it meets it as a static one.
/// It wakes when an awake dynamic body or a kinematic body faster than
/// sleep_speed comes within the broad phase's margin of it (in that
/// substep, before the projection, so that a hit moves it), when the game
/// sets its position, velocity, gravity scale or filter, applies an
/// impulse, makes it drop through platforms, destroys a body it touches
/// or edits a tile or one-way setting within the margin of it (the 64
/// latest edits are remembered by cell; more than 64 between two steps
/// wake every sleeping body), and through ledge_body_set_awake. Waking and
/// falling asleep depend on the state only, so the bits stay the same for
/// every worker count. A settled level costs little: the stages that have
/// nothing to do for a sleeping body skip whole blocks of sleeping bodies.
///
/// Determinism: the same world, inputs and step sequence give bit-identical
/// states (ledge_world_hash), across runs, builds and worker counts
/// (ledge_world_def.worker_count).
#ifndef LEDGE_WORLD_H
#define LEDGE_WORLD_H

#include "body.h"
#include "tilemap.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A chain handle (chain.h): slot index + 1 (0 is the null id), the slot's
/// generation when the chain was made, and the serial number of the world
/// that made it, as ledge_body_id.
typedef struct ledge_chain_id {
    uint32_t index1;     ///< Slot index plus one; 0 for the null id.
    uint32_t generation; ///< Must match the slot's current generation.
    uint32_t world;      ///< Serial number of the world that made it.
} ledge_chain_id;

/// The null chain id (never valid). A value in C and in C++.
#ifdef __cplusplus
#define LEDGE_NULL_CHAIN_ID (ledge_chain_id{0u, 0u, 0u})
#else
#define LEDGE_NULL_CHAIN_ID ((ledge_chain_id){0u, 0u, 0u})
#endif

/// The longest step ledge_world_step accepts (seconds).
#define LEDGE_MAX_STEP 1.0f

/// The smallest broad-phase cell side a world def may ask for.
#define LEDGE_MIN_CELL_SIZE 0.001f

/// What friction does at a contact (ledge_world_def.friction_law; the header
/// comment above says exactly how, docs/design.md gives the closed forms).
/// The rest of the response (bounce, projection, how a pile carries its
/// weight) is the same for both.
typedef enum ledge_friction_law {
    /// N's friction, the default: a contact removes f times the tangential
    /// speed, so a lone body slides down every slope (f < 1) at N's
    /// terminal speed. In a pile, a contact also holds, Coulomb-like, the
    /// weight of the bodies resting on its upper body, so the bodies under
    /// a pile do not creep.
    LEDGE_FRICTION_N = 0,
    /// Coulomb's friction: at least f times the normal speed the contact
    /// removes, or f times the whole weight it carries (the body's own
    /// included), never more than the tangential speed: a body rests on a
    /// slope no steeper than atan(f). For games whose crates must stay put
    /// on gentle slopes.
    LEDGE_FRICTION_COULOMB = 1,
} ledge_friction_law;

/// The largest ledge_world_def.worker_count a world accepts.
#define LEDGE_MAX_WORKERS 64

/// A piece of the step's work, handed to the game's job system through
/// ledge_world_def.enqueue_task: run it over the items [start, end) on the
/// worker numbered `worker_index` (0 .. worker_count - 1; no two ranges
/// running at the same time may share a worker index). Items may be split
/// into ranges in any way: the result does not depend on the split.
typedef void ledge_task_fn(int start, int end, int worker_index, void *task_context);

/// Hands a task over `item_count` items to the game's job system (as Box2D
/// v3's b2EnqueueTaskCallback): split them into ranges of at least
/// `min_range` items (except the last), run `task` over every range on up
/// to worker_count workers, and return a handle that finish_task waits on.
/// It may instead run `task(0, item_count, 0, task_context)` itself and
/// return NULL (then finish_task is not called).
typedef void *ledge_enqueue_task_fn(ledge_task_fn *task, int item_count, int min_range,
                                    void *task_context, void *user_context);

/// Waits until every range of the task enqueue_task returned has run.
typedef void ledge_finish_task_fn(void *user_task, void *user_context);

/// What a world is made from. Fill with ledge_default_world_def.
typedef struct ledge_world_def {
    vec2s gravity;     ///< Acceleration of dynamic bodies. Default (0, -10).
    float tile_size;   ///< Side of a tilemap cell. Default 1.
    int map_width;     ///< Tilemap cells along x. Default 64.
    int map_height;    ///< Tilemap cells along y. Default 64.
    vec2s map_origin;  ///< World position of cell (0, 0)'s lower corner. Default (0, 0).
    int body_capacity; ///< Bodies to reserve room for up front (0: grow as needed).
    int iterations;    ///< Relaxation passes per substep, 1..64 (piles sink less with more).
                       ///< Default 4.
    int substeps;      ///< Substeps per step, 1..64 (stiffer stacks). Default 1.
    float linear_slop; ///< Overlap left in place so that resting contacts persist, 0..1. Default
                       ///< 0.005.
    float bounce_threshold; ///< Approach speed (|v . n|) at or below which b counts as 0, so
                            ///< that resting bodies do not jitter. Default 0.5.
    float cell_size;        ///< Broad-phase cell side: 0 follows the largest dynamic body's extent,
                            ///< else LEDGE_MIN_CELL_SIZE..1e6 (larger bodies are handled apart);
                            ///< below a quarter tile it is also the query index's finest cell.
                            ///< Default 0.
    /// What friction does (ledge_friction_law). Default LEDGE_FRICTION_N: a
    /// lone body slides down every slope as in N, piles stand. A choice
    /// because games differ here: N's slides are part of N's feel, while a
    /// game whose crates must stay put on gentle slopes wants Coulomb's.
    ledge_friction_law friction_law;
    /// Resting dynamic bodies fall asleep and leave the step until
    /// something wakes them (see "Sleeping" above). Default false: N's
    /// friction gives a lone body slides slower than any sleep speed (on a
    /// 45 degree slope with f = 0.5 and 3 substeps it slides at 0.039 m/s),
    /// and a sleeping body would stop them; turn it on for piles of crates.
    bool enable_sleep;
    /// Speed (m/s) under which a dynamic body counts as resting, 0..1e6.
    /// Default 0.05.
    float sleep_speed;
    /// Seconds a body must rest, and every dynamic body it touches be
    /// resting, before it falls asleep, 0..1e6. Default 0.5.
    float sleep_time;
    /// Threads that run the step, 1..LEDGE_MAX_WORKERS. Default 1: the
    /// calling thread alone. More: the world starts worker_count - 1
    /// threads of its own (joined by ledge_world_destroy), unless
    /// enqueue_task and finish_task are set. Results are bit-identical for
    /// every worker count: the step splits its work by the bodies and the
    /// grid, never by the workers (docs/design.md, "The multi-core step").
    int worker_count;
    /// The game's job system (both set, or neither): the step hands its
    /// parallel parts to it instead of the world's own threads, with
    /// worker indices below worker_count. NULL: the world's threads.
    ledge_enqueue_task_fn *enqueue_task;
    ledge_finish_task_fn *finish_task; ///< Waits for a task of enqueue_task (see there).
    void *user_task_context;           ///< Passed to enqueue_task and finish_task.
} ledge_world_def;

/// The optional contact filter called inside the step (the only callback
/// there): for a body touching another body (`other` valid) or a tile cell
/// (`other` the null id, the cell in cell_x, cell_y), with the normal
/// pointing toward `body`, return how the contact is answered; `proposed`
/// is what the bodies' own responses say. Called once per body pair and
/// substep, at their first overlap; for tiles at every overlap found. It
/// must not call back into the world.
typedef ledge_response ledge_pre_solve_fn(ledge_body_id body, ledge_body_id other, int cell_x,
                                          int cell_y, vec2s normal, ledge_response proposed,
                                          void *context);

/// Gravity (0, -10), a 64 x 64 map of 1-unit tiles at the origin.
LEDGE_API ledge_world_def ledge_default_world_def(void);

/// Creates a world with an empty tilemap, or NULL (logged) for a bad def or
/// when allocation fails.
LEDGE_API ledge_world *ledge_world_create(const ledge_world_def *def);

/// Frees the world, its bodies and its tilemap. NULL is ignored.
LEDGE_API void ledge_world_destroy(ledge_world *world);

/// Advances the world by dt seconds (0 < dt <= LEDGE_MAX_STEP; refused,
/// logged, otherwise). A body whose velocity or position leaves the finite
/// range during the step is reported and frozen (ledge_body_is_frozen).
LEDGE_API void ledge_world_step(ledge_world *world, float dt);

/// The world's tilemap (owned by the world).
LEDGE_API ledge_tilemap *ledge_world_tilemap(ledge_world *world);

/// Sets (or with NULL clears) the pre-solve contact filter.
LEDGE_API void ledge_world_set_pre_solve(ledge_world *world, ledge_pre_solve_fn *fn, void *context);

/// Number of living bodies.
LEDGE_API int ledge_world_body_count(const ledge_world *world);

/// A 64-bit hash (xxHash's XXH3) of every living body's id, type, position
/// and velocity bits and whether it sleeps, in id order: equal hashes mean
/// equal states, so a game can check a replay or two machines against each
/// other. The same state gives the same value on every target. 0 (logged)
/// for a NULL world.
LEDGE_API uint64_t ledge_world_hash(const ledge_world *world);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_WORLD_H
