// Builders for the benchmark scenes of docs/benchmarks.md, "The scenes", made
// with the public API only, so that a peer engine can build the same scene
// from the same description, plus the spec's quality figures and the
// "integrate-only" floor. Shared by bench_world.c and test_rain.c.
#ifndef LEDGE_TEST_SCENES_H
#define LEDGE_TEST_SCENES_H

#include <ledge/ledge.h>

#ifdef __cplusplus
extern "C" { // peer_box2d.cpp
#endif

/// Circle radius of the rain scene.
#define RAIN_RADIUS 0.4f
/// Density, friction and bounce of the rain circles.
#define RAIN_DENSITY  1.0f
#define RAIN_FRICTION 0.3f
#define RAIN_BOUNCE   0.1f
/// The speed above which a circle counts as still moving (m/s).
#define RAIN_MOVING_SPEED 0.1

/// A built scene: the world and its bodies, in creation order (body k is
/// the spec's circle k).
typedef struct scene {
    ledge_world *world;    ///< Owned; freed by scene_destroy.
    ledge_body_id *bodies; ///< `count` ids, owned.
    int count;             ///< Bodies created (N).
    int cols;              ///< ceil(sqrt(N)): circles per row at the start.
    int rows;              ///< ceil(N / cols).
    int width;             ///< Map width W in tiles.
    int height;            ///< Map height H in tiles.
    vec2s gravity;         ///< The world's gravity.
    float gravity_scale;   ///< What every body was created with (the floor needs it).
    float drag;            ///< Likewise.
    int *bay;              ///< Bullets scene: the bay (x / 8) each bullet started in. Owned.

    signed char *dir; ///< Crowd only: running direction of body k, -1 or +1 (owned).
} scene;

/// The rain scene's sizes for N circles, from the spec's formulas.
typedef struct rain_layout {
    int count;  ///< N.
    int cols;   ///< ceil(sqrt(N)): circles per row at the start.
    int rows;   ///< ceil(N / cols).
    int width;  ///< Map width W = cols + 2.
    int height; ///< Map height H = rows + 10.
} rain_layout;

/// Fills *out for `n` >= 2 circles; false (zeroed) otherwise.
bool rain_layout_for(int n, rain_layout *out);

/// Start position of rain circle k in a scene of `cols` columns (rounded to
/// float once, so that every engine starts from the same bits).
vec2s rain_start(int cols, int k);

/// Sets the rain tiles (walls, floor, row-4 ledges, corner slopes) into a
/// map of w x h cells. False when the map refuses a cell. The one place
/// that writes the layout: the peers build their static shapes by reading
/// such a map back.
bool rain_fill_map(ledge_tilemap *map, int w, int h);

/// The rain as a column: `cols` circles to a row (at rain_start(cols, k)),
/// `rows` rows, in a map cols + 2 wide and rows + 10 high with the rain's
/// tiles: a deep narrow pile (1,000 rows of 24 land some 750 m deep, as the
/// rain of 1,000,000 does) at a fortieth of its cost. False (zeroed) when
/// it cannot be built.
bool scene_rain_column(int cols, int rows, scene *out);

/// A standalone tilemap holding the rain tiles of `l`, or NULL.
ledge_tilemap *rain_map_create(const rain_layout *l);

/// The response model of the worlds the scene builders make (default N's,
/// the library's default).
extern ledge_friction_law scene_friction;

/// The worker count of the worlds the scene builders make (default 1), and
/// the game's job system they use (default none: the world's own threads).
extern int scene_worker_count;
extern ledge_enqueue_task_fn *scene_enqueue_task;
extern ledge_finish_task_fn *scene_finish_task;
extern void *scene_task_context;

/// Whether the scene builders' worlds let bodies sleep (default false,
/// the library's default).
extern bool scene_sleep;
/// Their sleep_time (default 0.5 s, the library's default).
extern float scene_sleep_time;

/// Whether the rain's circles report their touches (enable_events; default
/// false, the library's default).
extern bool scene_events;

/// ledge_default_world_def with scene_friction, scene_sleep, scene_worker_count and the
/// scene_*task* callbacks.
ledge_world_def scene_world_def(void);

/// Builds the rain scene for `n` >= 2 circles (two, so that the two slope
/// cells are distinct): a W x H map of FULL walls, floor and row-4 ledges,
/// a 45 degree slope facing inward in each bottom corner, and n circles at
/// rest at the spec's start positions. Returns false (scene zeroed) when
/// the library refuses something.
bool scene_rain(int n, scene *out);

/// The same circles at the same start positions, in a map as wide as the
/// rain map with no tiles at all, reaching far enough below them that
/// `steps` steps of `dt` seconds of free fall keep them inside. The circles
/// start 0.1 m apart and fall together, so nothing ever touches: stepping
/// it costs the step's whole machinery with no contact to solve, and the
/// positions must stay bit-equal to the integrate-only floor's.
bool scene_rain_open(int n, int steps, float dt, scene *out);

/// Bullet radius and speed of the bullets scene.
#define BULLET_RADIUS 0.05f
#define BULLET_SPEED  300.0f

/// Builds the bullets scene: a 64 x 64 map with FULL walls one tile thick
/// in every column x % 8 == 0 (so seven bays 7 tiles wide), and n circles
/// of radius 0.05, flagged as bullets (or not, with `bullet` false), each
/// placed at a random height in a random bay (from `seed`) and fired
/// horizontally at `speed` (the spec's is BULLET_SPEED), left or right at
/// random.
bool scene_bullets(int n, uint64_t seed, bool bullet, float speed, scene *out);

/// How many bullets are now outside the bay they started in (or
/// non-finite): a bullet that crossed a wall.
int scene_bullets_crossed(const scene *s);

/// Crowd character: half size, running and jumping speed (m, m/s).
#define CROWD_HALF_X 0.3f
#define CROWD_HALF_Y 0.45f
#define CROWD_RUN    6.0f
#define CROWD_JUMP   9.0f

/// Builds the crowd scene: the ASCII map `map_text` (tests/data/crowd.txt,
/// width x height cells) and n box characters in its EMPTY cells, one per
/// cell centre, scanning rows from the top and columns from the left,
/// running left and right alternately. False (zeroed) when the map refuses
/// the text or has too few empty cells.
bool scene_crowd(int n, const char *map_text, int width, int height, scene *out);

/// The crowd's game logic for one frame, before the step: each character
/// probes the ground (a point 0.05 m below its feet) and the wall ahead (a
/// point 0.05 m ahead at knee height) with ledge_tilemap_query_point,
/// jumps when both hit, turns at the map's edges, and runs. Returns the
/// point queries made.
int scene_crowd_control(scene *s);

/// A world of `wd` on a size x size map walled on all four sides with FULL
/// tiles (so that every gravity has a floor), or NULL when it is refused.
ledge_world *scene_walled_world(ledge_world_def wd, int size);

/// Frees the world and the ids. Safe on a zeroed scene.
void scene_destroy(scene *s);

/// The spec's quality figures after a run.
typedef struct scene_figures {
    int count;               ///< Bodies measured.
    int escaped;             ///< Centre outside the map, or position/velocity non-finite.
    int inside_solid;        ///< Of the others: centre inside a solid part of a tile.
    double max_body_overlap; ///< Largest circle-circle penetration (m), 0 when none.
    double max_tile_overlap; ///< Largest circle-tile penetration depth (m), 0 when none.
    int moving;              ///< Speed above RAIN_MOVING_SPEED.
    double max_speed;        ///< Largest speed of a finite body (m/s).
    uint64_t hash;           ///< ledge_world_hash: equal runs must agree.
} scene_figures;

/// The quality figures of n circles of one radius, centres and velocities
/// given as interleaved (x, y) doubles, against the tiles of `map`: the one
/// measurement every engine's result goes through (hash left 0). Circles
/// with a centre outside the map's rectangle count as escaped.
scene_figures circles_quality(const ledge_tilemap *map, int n, const double *pos, const double *vel,
                              double radius);

/// Measures a circle scene (bodies must be circles) with circles_quality. Circle-circle overlaps
/// are found by brute force over the 3 x 3 neighbourhood of a uniform grid
/// of the test's own, in double, so it does not trust the library's broad
/// phase; circle-tile overlaps use ledge_tilemap_collide's depths.
scene_figures scene_quality(const scene *s);

/// The integrate-only floor: the scene's bodies copied into plain arrays
/// laid out as the world keeps them, stepped by a copy of the world's stage
/// 1 (gravity, drag, semi-implicit Euler) and nothing else.
///
/// Why not a world whose bodies have a filter mask of 0 and an empty map:
/// cells outside a map are FULL and tiles are not filtered, so such bodies
/// would still be pushed by (and pay for) the map's border once they fall
/// out of it, and a step may run its broad phase before it looks at
/// filters. Only a plain loop is free of collision work by construction;
/// scene_rain_open measures the world's step with nothing to hit.
typedef struct scene_floor {
    int count;
    vec2s gravity;
    uint8_t *alive; ///< The world's per-slot checks, kept so that the floor pays them too.
    uint8_t *type;
    vec2s *position;
    vec2s *velocity;
    float *gravity_scale;
    float *drag;
} scene_floor;

/// Copies the bodies of `s` (current positions and velocities) into a
/// floor. Returns false when allocation fails.
bool scene_floor_create(const scene *s, scene_floor *out);

/// One integrate-only step, the same arithmetic as ledge_world_step's
/// stage 1.
void scene_floor_step(scene_floor *f, float dt);

/// Frees the arrays. Safe on a zeroed floor.
void scene_floor_destroy(scene_floor *f);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_TEST_SCENES_H
