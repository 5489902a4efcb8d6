// The peer engines of the rain benchmark (tests/bench_peers.c): each one
// builds docs/benchmarks.md, "The scenes"'s rain scene in its own translation
// unit, compiled only when meson finds the engine, behind this C interface.
#ifndef LEDGE_TEST_PEERS_H
#define LEDGE_TEST_PEERS_H

#include "scenes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One engine, driven the same way for every size.
typedef struct peer_engine {
    const char *name;     ///< As printed in the table.
    const char *settings; ///< One line: solver settings and anything not default.
    /// Builds the rain scene of `l`: one static box or triangle per solid
    /// cell of `map` (made by rain_map_create), and l->count circles at
    /// rain_start. Returns NULL when the engine cannot.
    void *(*create)(const rain_layout *l, const ledge_tilemap *map);
    /// One step of dt seconds.
    void (*step)(void *world, float dt);
    /// Writes circle k's centre and velocity to pos/vel[2k], [2k+1].
    void (*read)(void *world, double *pos, double *vel);
    void (*destroy)(void *world);
    /// Bodies awake (not sleeping) now, or -1 when the engine has no sleep.
    int (*awake)(void *world);
    /// Whether create() honours peer_workers (a multi-threaded step).
    bool threaded;
} peer_engine;

/// Threads a threaded peer's world steps on (bench_peers --workers): 1
/// unless set.
extern int peer_workers;

// Each engine twice: its circles rotating (the engine's own model), and
// with rotation locked (ledge's model: infinite moment in Chipmunk,
// fixedRotation in Box2D), printed beside each other.
#ifdef LEDGE_HAVE_CHIPMUNK
extern const peer_engine peer_chipmunk;
extern const peer_engine peer_chipmunk_locked;
#endif
#ifdef LEDGE_HAVE_BOX2D
extern const peer_engine peer_box2d;
extern const peer_engine peer_box2d_locked;
#endif
#ifdef LEDGE_HAVE_BOX2D_V3
extern const peer_engine peer_box2d_v3;
extern const peer_engine peer_box2d_v3_locked;

/// The same pile (tests/piles.h) in Box2D v3 (tests/bench_stack.c): its
/// tiles and bodies, shapes, masses, friction and bounce read back from the
/// pile's world; `locked` locks rotation; `substeps` per step; `sleep`
/// allows sleeping.
struct pile;
void *peer_v3_pile_create(const struct pile *p, bool locked, int substeps, bool sleep);
void peer_v3_pile_step(void *world, float dt);
/// Body i's position and velocity, in the pile's order.
void peer_v3_pile_read(void *world, vec2s *pos, vec2s *vel);
void peer_v3_pile_destroy(void *world);

/// A chain or bridge of tests/joint_scenes.h in Box2D v3
/// (tests/bench_joints.c): rotation locked, 4 substeps.
struct js_scene;
void *peer_v3_joints_create(const struct js_scene *s);
void peer_v3_joints_step(void *world, float dt);
/// Body i's position and velocity, in the scene's order.
void peer_v3_joints_read(void *world, vec2s *pos, vec2s *vel);
void peer_v3_joints_destroy(void *world);
#endif

/// The solid cells of a rain map that a peer turns into static shapes: a
/// FULL cell is a unit box, a 45 degree slope the triangle of its solid
/// half. Calls `fn` once per solid cell with its lower-left corner and the
/// shape's vertices (counter-clockwise, 3 or 4 of them). Any other tile id
/// is refused (false): the rain scene has none.
typedef void peer_tile_fn(void *user, const double *xy, int count);
bool peer_each_tile(const ledge_tilemap *map, peer_tile_fn *fn, void *user);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_TEST_PEERS_H
