// The joint table (joints.c): every joint of a world, its ids, the
// joints of each body, and the per-step work around the solve: which
// bodies may collide, waking and sleeping together, and the scratch the
// solve (joint_solve.c) reserves before the step. The state lives in one
// struct the world points to; none of it is loose in the world.
#ifndef LEDGE_JOINTS_H
#define LEDGE_JOINTS_H

#include "ldl.h"
#include "world_state.h"

#include "ledge/joint.h"

/// Joints of one body the factorization takes (joint_solve.c); more are
/// swept, so that a body holding thousands of ropes costs no more than
/// their count squared per substep.
#define LEDGE__JOINT_NODE_JOINTS 32

/// A joint's flags (ledge__joint.flags).
#define LEDGE__JOINT_COLLIDE 1u ///< collide_connected.
#define LEDGE__JOINT_LIMIT   2u ///< A slider's enable_limit.
#define LEDGE__JOINT_MOTOR   4u ///< A slider's enable_motor.

/// One joint: its def as it stands, by body handle (stable while the
/// store reorders the slots), and what the step leaves for the game.
typedef struct ledge__joint {
    uint32_t generation; ///< Bumped when the joint dies.
    uint8_t alive;
    uint8_t type;  ///< A ledge_joint_type.
    uint8_t flags; ///< LEDGE__JOINT_*.
    int body[2];   ///< Body handles of a and b, or -1 for a world point.
    int next[2];   ///< The next joint in body[k]'s list (-1: the last).
    vec2s anchor[2];
    float length, min_length, max_length, hertz, damping, lower, upper;
    float motor_speed, max_motor_force, ratio;
    vec2s axis; ///< Unit (a slider's).
    vec2s ground[2];
    void *user_data;
    double impulse[2]; ///< The step's impulse on body b so far (joint_solve.c).
    vec2s force;       ///< The last step's force on body b.
} ledge__joint;

/// A side of a joint as a solve sees it (joint_solve.c).
typedef struct ledge__joint_side {
    int node;     ///< The moving body's node, or -1 (fixed: a world point or a body that
                  ///< does not move in the solve).
    int slot;     ///< The body's slot, or -1 (a world point).
    double o[2];  ///< The anchor's offset from a node's position.
    double p0[2]; ///< A fixed side's anchor where the rows' gradients are taken.
    double p[2];  ///< A fixed side's anchor where the solve's positions are (predicted).
    double u[2];  ///< A fixed side's velocity.
} ledge__joint_side;

/// A moving body in a solve (joint_solve.c).
typedef struct ledge__joint_node {
    double im;         ///< Inverse mass.
    double x[2];       ///< Position when the solve began.
    double v[2];       ///< Velocity when the solve began.
    double d[2];       ///< What the solve's impulses changed: velocity, or a relaxation's position.
    double d0[2];      ///< d when Newton's iteration began (the linear model's origin).
    double welded;     ///< The mass of its bodies welded together (joint_solve.c, stiff_rows).
    double kept[2][2]; ///< d kept (joint_solve.c, keep): before a solve, before the implicit one.
} ledge__joint_node;

/// A row of the joints' system (joint_solve.c).
typedef struct ledge__joint_row {
    int joint;           ///< Index in the table.
    uint8_t which;       ///< What it keeps (joint_solve.c's row kinds).
    uint8_t linear;      ///< Its residual is a velocity, linear in the impulses.
    uint8_t state;       ///< In the system, free (one-sided, apart) or clamped at a bound.
    double g[2][2];      ///< The gradient of its value by each side's point.
    double gamma;        ///< A soft row's compliance (added to its diagonal).
    double bias;         ///< A linear row's constant term.
    double target;       ///< What a position row's value is to be (its error kept, before moving).
    double lo, hi;       ///< The impulse's bounds.
    double lambda;       ///< Its impulse in this solve (along its gradients as they were).
    double ib[2];        ///< The impulse on body b in this solve.
    double r;            ///< Its residual (scratch).
    double saved;        ///< Its impulse before Newton's last step.
    double step;         ///< Newton's last step for it.
    uint8_t saved_state; ///< Its state then.
    uint8_t stiff;       ///< Its gradients are taken again each iteration (joint_solve.c).
    int parent;          ///< A companion's distance row (joint_solve.c, implicit).
    double gn[2][2];     ///< Its gradients where the solve is (scratch).
    double kept[2][3];   ///< Impulse and impulse on b kept (joint_solve.c, keep), gradients
    double kept_g[2][2][2]; ///< and state.
    uint8_t kept_state[2];
} ledge__joint_row;

/// The world's joint table and the solve's scratch.
typedef struct ledge__joints {
    ledge__joint *j; ///< By index (an id's index1 - 1).
    int cap;         ///< Entries in j.
    int used;        ///< Indices ever used.
    int live;        ///< Living joints.
    int *free;       ///< Dead indices, LIFO (cap entries).
    int free_count, free_cap;
    int *first; ///< Per body handle: its first joint, or -1.
    int first_cap, degree_cap;
    int *degree;           ///< Per body handle: its joints.
    long long entry_bound; ///< The factorization's entries at most (joint_solve.c).
    // The solve's scratch (joint_solve.c), reserved before the step.
    int *node_of;  ///< Per slot: its node in this substep, or -1 (also the islands' union-find).
    uint8_t *held; ///< Per slot: held by joints to the world this substep.
    int node_of_cap, held_cap;
    int *node_slot; ///< Per node: its slot.
    ledge__joint_node *node;
    int *parent;    ///< Per node: the islands' union-find.
    int *adj_start; ///< Per node + 1: where its tree joints start in adj.
    int *adj;       ///< The tree joints by node.
    int *stack;     ///< The depth-first walk's, three per node.
    int node_slot_cap, node_cap, parent_cap, adj_start_cap, adj_cap, stack_cap;
    int node_count;
    uint8_t *kind;           ///< Per joint: 0 not solved, 1 in the factorization, 2 swept.
    ledge__joint_side *side; ///< Per joint, two.
    int *order;              ///< The factorized joints, leaves first.
    int *loop;               ///< The swept joints.
    int kind_cap, side_cap, order_cap, loop_cap;
    int order_count, loop_count;
    ledge__joint_row *rows; ///< The rows of a solve: the factorized joints' first, in order.
    int row_count, tree_rows, row_cap;
    int *node_rows;      ///< Per node: the active rows touching it (row * 2 + side), by place.
    int *node_row_start; ///< Per node + 1.
    int *mark, *where;   ///< Per active row: the matrix's build.
    int *active;         ///< The active rows, by place.
    double *rhs;         ///< Per active row.
    uint8_t *stiff;      ///< Per row: stiff (joint_solve.c).
    int node_rows_cap, node_row_start_cap, mark_cap, where_cap, active_cap, rhs_cap, stiff_cap;
    ledge__ldl ldl;
    bool any;    ///< Some joint has a moving body in this substep.
    bool broken; ///< The factorization met fill: this substep sweeps every row.
} ledge__joints;

/// The world's joint table, made when the first joint is (NULL before).
ledge__joints *ledge__joints_of(ledge_world *world);

/// Frees the joint table.
void ledge__joints_free(ledge_world *world);

/// The joints' part of ledge__world_forget (joints.c): after the slots
/// moved (LEDGE__STALE_SLOTS), the solve's marks by slot (which bodies the
/// joints hold, the nodes' slots) are dropped; the next substep finds them
/// again from the joints, which name their bodies by handle.
void ledge__joints_forget(ledge_world *world, ledge__stale why);

/// Whether the world has a living joint.
static inline bool ledge__joints_any(const ledge_world *w) {
    return w->joints != NULL && w->joints->live > 0;
}

/// Whether body slot i is held by joints to the world in this substep (a
/// world point, a static, kinematic or sleeping body, through any chain of
/// joints): the shock sweep holds it as it moves and the loads count it
/// as resting on the level (response.c).
static inline bool ledge__joint_held(const ledge_world *w, int i) {
    return w->joints != NULL && w->joints->any && w->joints->held[i];
}

/// The joint named by id, or NULL (logged as `fn` refusing it).
ledge__joint *ledge__joint_find(const ledge_world *world, ledge_joint_id id, const char *fn);

/// The id of joint index k.
ledge_joint_id ledge__joint_id(const ledge_world *world, int k);

/// A new joint's index (its entry zeroed but for the generation), or -1
/// (logged, naming fn) when the table cannot grow. Room for the body
/// handles' lists up to `handles`.
int ledge__joint_take(ledge_world *world, int handles, const char *fn);

/// Links joint k into its bodies' lists and updates their `joined` flags.
void ledge__joint_link(ledge_world *world, int k);

/// Unlinks joint k from its bodies' lists, kills it and frees its index.
void ledge__joint_kill(ledge_world *world, int k);

/// The bodies' `joined` flags again (a body with a joint that keeps its
/// bodies apart), for the bodies of joint k.
void ledge__joint_refresh_joined(ledge_world *world, int k);

/// Wakes body slot i (sleep's ledge__wake: the joints find whom to wake,
/// sleep wakes them, so that neither module calls the other back).
typedef void ledge__wake_fn(ledge_world *world, int i);

/// Whether body slot i may not fall asleep at the end of this step (sleep
/// decides: awake and kept awake by its speed or its contacts).
typedef bool ledge__stays_fn(const ledge_world *world, int i);

/// Kills the joints of body slot i (it is being destroyed), waking the
/// bodies at their other ends with `wake`.
void ledge__joints_forget_body(ledge_world *world, int i, ledge__wake_fn *wake);

/// Whether slots a and b are joined by a joint that keeps them apart
/// (collide_connected false). Call only when both are `joined`.
bool ledge__joints_keep_apart(const ledge_world *world, int a, int b);

/// The slot of joint side k's body, or -1 (a world point).
int ledge__joint_slot(const ledge_world *world, const ledge__joint *j, int k);

/// Anchor k of joint j in world coordinates.
vec2s ledge__joint_anchor(const ledge_world *world, const ledge__joint *j, int k);

/// Before the step: wakes (with `wake`) the sleepers joined (through any
/// chain of joints) to an awake dynamic body or a kinematic one.
void ledge__joints_wake(ledge_world *world, ledge__wake_fn *wake);

/// At the end of the step, before bodies fall asleep: the bodies joined to
/// one that `stays` awake, or to a kinematic body, may not fall asleep
/// either (step.sleepy cleared).
void ledge__joints_keep_awake(ledge_world *world, ledge__stays_fn *stays);

#endif // LEDGE_JOINTS_H
