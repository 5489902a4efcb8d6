// The joints in the step (joint_solve.c): every joint's rows between the
// moving bodies solved together, exactly, by a sparse factorization of
// the joints' system (ldl.h), at three points of each substep the step
// calls (world.c): before the bodies move, in each relaxation pass, and in
// the velocity pass; and the force each joint carried.
#ifndef LEDGE_JOINT_SOLVE_H
#define LEDGE_JOINT_SOLVE_H

#include "joints.h"

/// Before the step (nothing moves if it fails, logged): room for the
/// solve's scratch for the world's joints and slots.
bool ledge__joints_reserve(ledge_world *world);

/// The step begins: the joints' impulses start from 0.
void ledge__joints_begin_step(ledge_world *world);

/// Each substep, before its first solve: which bodies move in the solve
/// (nodes), the islands, the joints the factorization takes (a forest,
/// leaves first) and those it sweeps (closing a circle), and the bodies
/// held by joints to the world (ledge__joint_held).
void ledge__joints_begin_substep(ledge_world *world);

/// Whether some body the joints hold may carry a load (a held body and a
/// contact in this substep).
bool ledge__joints_hold_any(const ledge_world *world);

/// Before the bodies move (after the replayed contacts' response): the
/// velocities with which every rigid joint holds where the bodies move to
/// (its rows solved at the predicted positions, by Newton's method on the
/// factorized system), a spring's or soft weld's implicit step, a motor.
/// With `loads` (found for the contacts: ledge__body_loads), a body held
/// by joints to the world carries the mass resting on it. `again`: the
/// substep's second (after the shock sweep), which leaves out the springs
/// and motors (their impulses are the first's).
void ledge__joints_predict(ledge_world *world, float h, bool loads, bool again);

/// A relaxation pass: the positions projected back onto every rigid
/// joint, by inverse mass (what the contacts' projection moved). Counts a
/// push for each body it moved.
void ledge__joints_relax(ledge_world *world);

/// The velocity pass: no velocity that would break a rigid joint (a rope
/// at its length pulls, never pushes). `loads` as for
/// ledge__joints_predict.
void ledge__joints_correct(ledge_world *world, float h, bool loads);

/// After the last substep: each joint's force over the step (dt), and the
/// substep's scratch cleared.
void ledge__joints_end_step(ledge_world *world, float dt);

#endif // LEDGE_JOINT_SOLVE_H
