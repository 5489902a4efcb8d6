/// @file profile.h
/// Where the step's time goes: the wall-clock time of each stage of the last
/// ledge_world_step, for a game's performance overlay (as Box2D v3's
/// b2World_GetProfile).
///
/// Overview
/// --------
///     ledge_world_enable_profile(world, true);
///     ledge_world_step(world, 1.0f / 60.0f);
///     ledge_profile p = ledge_world_profile(world);
///     printf("step %.3f ms, of which relax %.3f ms\n", p.step, p.relax);
///
/// Profiling is off by default: reading the clock some twenty times a step
/// costs little, but nothing at all when nobody looks. While it is on, each
/// step measures its stages with a monotonic wall clock (clock_gettime's
/// CLOCK_MONOTONIC where there is one; C11's timespec_get, or in C99 the
/// process's CPU time, where there is not): with several workers a stage's time
/// is the time until the last worker is done, which is what the frame
/// waits for. A stage's time sums its work over the substeps. The stages
/// together cover most of the step; `step` is the whole call, so
/// `step` minus their sum is the bookkeeping between them.
///
/// Times are measurements, not state: they differ from run to run and
/// never enter the world's hash or any result of the step.
#ifndef LEDGE_PROFILE_H
#define LEDGE_PROFILE_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Milliseconds of the last step (ledge_world_profile), whole and per stage,
/// in the order the step runs them (docs/design.md draws the pipeline).
typedef struct ledge_profile {
    float step;      ///< The whole ledge_world_step call.
    float integrate; ///< Platforms' carry, gravity and drag, the replayed contacts' response.
    float move;      ///< Positions integrate.
    float grid;      ///< Bounding boxes, the broad phase's grid filed, fast bodies moved.
    float pairs;     ///< Candidate pairs and the bodies near tiles.
    float relax;     ///< The relaxation passes: narrow phase and projection.
    float sort;      ///< The contacts sorted for the response.
    float response;  ///< The response: bounce and friction.
    float check;     ///< Positions out of range frozen.
    float events;    ///< After the step: events, contacts per body, queries, characters.
    float sleep;     ///< Sleeping: wakes before the step, rest timers after it.
} ledge_profile;

/// Turns the profile on or off. Turning it off leaves the last profile
/// readable; turning it on zeroes it until the next step. Refused (logged)
/// for a NULL world and while the world is stepping.
LEDGE_API void ledge_world_enable_profile(ledge_world *world, bool enable);

/// The stage times of the last step since the profile was turned on (all
/// zero before that step). All zero, logged, for a NULL world.
LEDGE_API ledge_profile ledge_world_profile(const ledge_world *world);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_PROFILE_H
