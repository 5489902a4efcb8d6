// Chains, bridges and pendulums as plain data (tests/joint_scenes.c), which ledge and
// Box2D v3 (tests/peer_box2d_v3_joints.c) each build their world from, for
// tests/bench_joints.c: the same bodies, masses and joints in both.
#ifndef LEDGE_TEST_JOINT_SCENES_H
#define LEDGE_TEST_JOINT_SCENES_H

#include <ledge/ledge.h>

#define JS_MAX_BODIES 128
#define JS_MAX_JOINTS 128

typedef struct js_body {
    vec2s position;
    vec2s half; ///< A box's half extents, or (r, 0) for a circle of radius r.
    float mass;
    float drag; ///< Linear damping per second.
    float friction;
} js_body;

typedef struct js_joint {
    int a, b; ///< Body indices, -1 for a fixed point (anchor_a / anchor_b in the world).
    vec2s anchor_a, anchor_b;
    float length;
    bool rope; ///< At most `length` (else a rod: exactly it).
} js_joint;

typedef struct js_scene {
    const char *name;
    js_body body[JS_MAX_BODIES];
    js_joint joint[JS_MAX_JOINTS];
    int bodies, joints;
    int floor_y; ///< A row of FULL tiles (Box2D: a static box) with its top at floor_y + 1.
} js_scene;

/// A chain of n links (circles of 0.08 m, 0.05 kg, 0.25 m apart) hanging
/// straight down from (32, 60), a crate of `load` kg (0: none) at its end.
void js_chain(js_scene *s, int n, float load, bool rope);

/// A bridge of n planks (0.8 x 0.1 m, 0.08 kg, drag 2) on ropes 1.5 times
/// the 0.1 m gaps, let go straight between two fixed points at height 40,
/// and `crates` crates of 0.5 kg dropped on it.
void js_bridge(js_scene *s, int n, int crates);

/// A pendulum: a bob of 1 kg (a circle of 0.1 m, no drag) on a rod of
/// `length` from the fixed point (32, 30), let go at rest `angle` rad from
/// straight down (towards +x).
void js_pendulum(js_scene *s, float length, float angle);

/// A double pendulum: two bobs of 1 kg on two rods of 1 m, the first from
/// the fixed point (32, 30), let go at rest in a straight line `angle` rad
/// from straight down (towards +x).
void js_double_pendulum(js_scene *s, float angle);

/// The scene in a default ledge world (ids in order into bodies/joints).
ledge_world *js_ledge(const js_scene *s, ledge_body_id *bodies, ledge_joint_id *joints);

/// The worst stretch of a joint (distance less length; a rope's only when
/// longer) at the bodies' positions `at`, and the fastest body of `vel`.
float js_stretch(const js_scene *s, const vec2s *at);
float js_fastest(const js_scene *s, const vec2s *vel);

/// The gravity of both worlds (m/s^2, down).
#define JS_GRAVITY 10.0

/// The energy (J: kinetic plus potential, in double) of a chain hung from
/// a fixed point (its joints in order from the top, each body the b of
/// one), its potential from where each body hangs at rest straight down.
double js_energy(const js_scene *s, const vec2s *at, const vec2s *vel);

#endif
