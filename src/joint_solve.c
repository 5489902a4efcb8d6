// The joints in the step (joint_solve.h). Bodies translate only, so a
// joint constrains two points, and each of its rows (a rod's distance, a
// weld's x and y, a slider's offset from its axis and its limit, ...) is a
// scalar function C of the two anchors with a gradient g by each. The rows
// between moving bodies form the system (J M^-1 J^T + Gamma) lambda = r,
// whose matrix has an entry for two rows sharing a body. The joints of an
// island form a tree over its bodies unless some close a circle; the
// tree's rows, ordered leaves first, are a perfect elimination order (the
// later neighbours of a row all share one body), so the system factors
// without fill in time linear in the rows (ldl.c). Joints that close a
// circle, and those beyond LEDGE__JOINT_NODE_JOINTS at one body, are swept
// (Gauss-Seidel, a row at a time) around the factorized solve.
//
// Three solves a substep (docs/joints.md derives each):
// - predict, before the bodies move: impulses such that the rigid rows
//   hold where the bodies move to, C(x + h v) = 0, by Newton's method on
//   the factorized system (the gradients of the substep's start, which is
//   SHAKE's step); a spring's row is an implicit step whose discrete
//   motion is the closed form's sampled at the substep; a motor's row
//   aims at its speed within its force;
// - relax, in each relaxation pass beside the contacts' projection: the
//   positions put back onto the rigid rows, by inverse mass;
// - correct, in the velocity pass: no velocity along a rigid row (a rope at
//   its length only pulls). With predict's positions this is RATTLE's
//   velocity half: a pendulum neither gains nor loses energy.
// A one-sided row (a rope, a limit, a pulley) takes part only while it is
// violated or pulling: an active set, solved again when it changes.
#include "joint_solve.h"
#include "broad_tiles.h"
#include "par.h"
#include "slots.h"

#include <float.h>
#include <math.h>
#include <string.h>

// What a row keeps (ledge__joint_row.which).
enum {
    ROW_ROD,    // |d| - length = 0
    ROW_SPRING, // |d| - length, soft
    ROW_ROPE,   // length - |d| >= 0
    ROW_MIN,    // |d| - min_length >= 0 (or = 0)
    ROW_MAX,    // max_length - |d| >= 0
    ROW_WELD_X, // d.x = 0
    ROW_WELD_Y, // d.y = 0
    ROW_PERP,   // d . perp(axis) = 0
    ROW_LOWER,  // d . axis - lower >= 0 (or = 0)
    ROW_UPPER,  // upper - d . axis >= 0
    ROW_MOTOR,  // velocity along the axis = motor_speed
    ROW_PULLEY, // length - |a - ground_a| - ratio |b - ground_b| >= 0
    // A distance row's companions (implicit): across the row (both sides),
    // and across a pulley's two ropes (side a, side b).
    ROW_ACROSS,
    ROW_ACROSS_A,
    ROW_ACROSS_B,
};

// A row's state in a solve.
enum {
    ACTIVE,  // in the system
    FREE,    // one-sided, not violated: its impulse 0
    CLAMPED, // at a bound of its impulse
    FIXED,   // its impulse set before the solve (an explicit spring)
};

enum { PREDICT, RELAX, CORRECT };

// Newton's iterations per solve, and active-set changes, at most.
#define MAX_NEWTON  12
#define MAX_CHANGES 24
// Sweeps of the swept rows around the factorized solve.
#define LOOP_SWEEPS   8
#define BROKEN_SWEEPS 24
// Where Newton's step fails: sweeps a row at a time, at most so often.
#define FALLBACK_SWEEPS 8
#define MAX_FALLBACKS   3
// A pivot this small against its row's diagonal: the row depends on
// earlier ones.
#define DROP 1e-12

typedef struct solve {
    ledge_world *w;
    ledge__joints *t;
    int mode;
    bool again;       ///< Predict's second solve of the substep: its springs and motors are done.
    bool implicit;    ///< The stiff rows' impulses along their gradients where the bodies move to.
    double worst;     ///< Implicit: the largest velocity error of an impulse's direction (measure).
    double violation; ///< The merit of the rows' values alone (measure).
    bool turned;      ///< A factorized solve took all gradients again (tree_solve's `fresh`).
    double h;         // the substep (predict)
    double s;         // what a position row's residual divides by: h (predict) or 1
} solve;

// --- scratch --------------------------------------------------------------

bool ledge__joints_reserve(ledge_world *w) {
    ledge__joints *t = w->joints;
    if (t == NULL || t->live == 0) return true;
    int slots = w->slot_count > 0 ? w->slot_count : 1, joints = t->used;
    int nodes = 2 * t->live, rows = 3 * t->live;
    long long entries = t->entry_bound + 16;
    bool ok = entries <= INT32_MAX / 2 &&
              LEDGE__RESERVE(t->node_of, t->node_of_cap, slots, 0, 64) &&
              LEDGE__RESERVE(t->held, t->held_cap, slots, 0, 64) &&
              LEDGE__RESERVE(t->node_slot, t->node_slot_cap, nodes, 0, 16) &&
              LEDGE__RESERVE(t->node, t->node_cap, nodes, 0, 16) &&
              LEDGE__RESERVE(t->parent, t->parent_cap, nodes, 0, 16) &&
              LEDGE__RESERVE(t->adj_start, t->adj_start_cap, nodes + 1, 0, 16) &&
              LEDGE__RESERVE(t->adj, t->adj_cap, 2 * joints, 0, 16) &&
              LEDGE__RESERVE(t->stack, t->stack_cap, 3 * nodes, 0, 48) &&
              LEDGE__RESERVE(t->kind, t->kind_cap, joints, 0, 16) &&
              LEDGE__RESERVE(t->side, t->side_cap, 2 * joints, 0, 32) &&
              LEDGE__RESERVE(t->order, t->order_cap, joints, 0, 16) &&
              LEDGE__RESERVE(t->loop, t->loop_cap, joints, 0, 16) &&
              LEDGE__RESERVE(t->rows, t->row_cap, rows, 0, 48) &&
              LEDGE__RESERVE(t->node_rows, t->node_rows_cap, 2 * rows, 0, 96) &&
              LEDGE__RESERVE(t->node_row_start, t->node_row_start_cap, nodes + 1, 0, 16) &&
              LEDGE__RESERVE(t->mark, t->mark_cap, rows, 0, 48) &&
              LEDGE__RESERVE(t->where, t->where_cap, rows, 0, 48) &&
              LEDGE__RESERVE(t->active, t->active_cap, rows, 0, 48) &&
              LEDGE__RESERVE(t->rhs, t->rhs_cap, rows, 0, 48) &&
              LEDGE__RESERVE(t->stiff, t->stiff_cap, rows, 0, 48) &&
              ledge__ldl_reserve(&t->ldl, rows, (int)entries);
    if (!ok) {
        LEDGE_ERROR("ledge_world_step: allocation of the joints' scratch for %d joints failed (the "
                    "world is unchanged)",
                    t->live);
    }
    return ok;
}

void ledge__joints_begin_step(ledge_world *w) {
    ledge__joints *t = w->joints;
    if (t == NULL) return;
    for (int k = 0; k < t->used; ++k) t->j[k].impulse[0] = t->j[k].impulse[1] = 0.0;
}

// --- the substep's structure ------------------------------------------------

static int find(int *parent, int i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

// Whether slot s moves in the solve: a dynamic body awake, not frozen.
static bool moves(const ledge_world *w, int s) {
    return s >= 0 && w->alive[s] && w->type[s] == LEDGE_BODY_DYNAMIC && !w->frozen[s] &&
           !w->asleep[s] && w->inv_mass[s] > 0.0f;
}

static void clear_held(ledge__joints *t) {
    for (int n = 0; n < t->node_count; ++n) t->held[t->node_slot[n]] = 0;
    t->node_count = 0;
    t->order_count = t->loop_count = 0;
    t->any = false;
}

// The nodes: each moving body of a joint, in joint order.
static void find_nodes(ledge_world *w, ledge__joints *t) {
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        for (int s = 0; s < 2 && j->alive; ++s) {
            int slot = ledge__joint_slot(w, j, s);
            if (slot >= 0) t->node_of[slot] = -1;
        }
    }
    int n = 0;
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        for (int s = 0; s < 2 && j->alive; ++s) {
            int slot = ledge__joint_slot(w, j, s);
            if (!moves(w, slot) || t->node_of[slot] >= 0) continue;
            t->node_of[slot] = n;
            t->node_slot[n] = slot;
            t->parent[n] = n;
            t->adj_start[n] = 0;
            n++;
        }
    }
    t->node_count = n;
}

// The node of joint j's side s, or -1.
static int node_of_side(const ledge_world *w, const ledge__joints *t, const ledge__joint *j,
                        int s) {
    int slot = ledge__joint_slot(w, j, s);
    return moves(w, slot) ? t->node_of[slot] : -1;
}

// Each joint's kind: factorized while it joins two trees (or hangs a tree
// from a fixed point) and its nodes hold fewer than LEDGE__JOINT_NODE_JOINTS
// factorized joints; swept otherwise. adj_start counts each node's.
static void classify(ledge_world *w, ledge__joints *t) {
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        t->kind[k] = 0;
        if (!j->alive) continue;
        int a = node_of_side(w, t, j, 0), b = node_of_side(w, t, j, 1);
        if (a < 0 && b < 0) continue;
        bool crowded = (a >= 0 && t->adj_start[a] >= LEDGE__JOINT_NODE_JOINTS) ||
                       (b >= 0 && t->adj_start[b] >= LEDGE__JOINT_NODE_JOINTS);
        bool circle = false;
        if (a >= 0 && b >= 0 && !crowded) {
            int ra = find(t->parent, a), rb = find(t->parent, b);
            circle = ra == rb;
            if (!circle) t->parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
        }
        if (crowded || circle) {
            t->kind[k] = 2;
            t->loop[t->loop_count++] = k;
            continue;
        }
        t->kind[k] = 1;
        if (a >= 0) t->adj_start[a]++;
        if (b >= 0) t->adj_start[b]++;
    }
}

// The bodies held by joints to the world: an island (swept joints
// included) with a joint to a fixed side.
static void find_held(ledge_world *w, ledge__joints *t) {
    int *flag = t->stack; // per root
    for (int n = 0; n < t->node_count; ++n) flag[n] = 0;
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        if (t->kind[k] == 0) continue;
        int a = node_of_side(w, t, j, 0), b = node_of_side(w, t, j, 1);
        if (t->kind[k] == 2 && a >= 0 && b >= 0) { // a swept joint joins its islands too
            int ra = find(t->parent, a), rb = find(t->parent, b);
            if (ra != rb) {
                int lo = ra < rb ? ra : rb, hi = ra < rb ? rb : ra;
                flag[lo] |= flag[hi];
                t->parent[hi] = lo;
            }
        }
        if (a < 0 || b < 0) flag[find(t->parent, a >= 0 ? a : b)] = 1;
    }
    for (int n = 0; n < t->node_count; ++n) {
        t->held[t->node_slot[n]] = (uint8_t)flag[find(t->parent, n)];
    }
}

// The factorized joints by node (adj), from the counts in adj_start.
static void adjacency(ledge_world *w, ledge__joints *t) {
    int at = 0;
    for (int n = 0; n < t->node_count; ++n) {
        int c = t->adj_start[n];
        t->adj_start[n] = at;
        at += c;
    }
    t->adj_start[t->node_count] = at;
    int *fill = t->parent; // per node: where its next joint goes (the islands are done)
    for (int n = 0; n < t->node_count; ++n) fill[n] = t->adj_start[n];
    for (int k = 0; k < t->used; ++k) {
        if (t->kind[k] != 1) continue;
        for (int s = 0; s < 2; ++s) {
            int n = node_of_side(w, t, &t->j[k], s);
            if (n >= 0) t->adj[fill[n]++] = k;
        }
    }
}

// The factorized joints leaves first: a depth-first walk of each tree from
// its first node, a joint listed after the subtree below it. Then a row's
// later neighbours all share the body above it (ldl.h).
static void elimination_order(ledge_world *w, ledge__joints *t) {
    int *seen = t->parent; // -1 once visited
    for (int n = 0; n < t->node_count; ++n) seen[n] = 0;
    for (int root = 0; root < t->node_count; ++root) {
        if (seen[root] < 0) continue;
        int top = 0;
        int *st = t->stack;
        st[0] = root, st[1] = -1, st[2] = t->adj_start[root];
        seen[root] = -1;
        top = 1;
        while (top > 0) {
            int *e = &st[3 * (top - 1)];
            int node = e[0], up = e[1];
            if (e[2] < t->adj_start[node + 1]) {
                int k = t->adj[e[2]++];
                if (k == up) continue;
                const ledge__joint *j = &t->j[k];
                int a = node_of_side(w, t, j, 0), b = node_of_side(w, t, j, 1);
                int other = a == node ? b : a;
                if (other < 0) {
                    t->order[t->order_count++] = k; // a leaf: hangs from a fixed side
                } else if (seen[other] == 0) {
                    seen[other] = -1;
                    int *f = &st[3 * top++];
                    f[0] = other, f[1] = k, f[2] = t->adj_start[other];
                }
                continue;
            }
            top--;
            if (up >= 0) t->order[t->order_count++] = up;
        }
    }
}

void ledge__joints_begin_substep(ledge_world *w) {
    ledge__joints *t = w->joints;
    if (t == NULL) return;
    clear_held(t);
    t->broken = false;
    if (t->live == 0) return;
    find_nodes(w, t);
    if (t->node_count == 0) return;
    classify(w, t);
    find_held(w, t);
    adjacency(w, t);
    elimination_order(w, t);
    t->any = t->order_count + t->loop_count > 0;
}

// --- rows -------------------------------------------------------------------

static inline void set2(double *o, double x, double y) {
    o[0] = x;
    o[1] = y;
}

// |b - a| and the unit direction from a to b (up when they coincide).
static double direction(const double a[2], const double b[2], double n[2]) {
    double dx = b[0] - a[0], dy = b[1] - a[1], len = sqrt(dx * dx + dy * dy);
    if (len > 1e-12) {
        set2(n, dx / len, dy / len);
    } else {
        set2(n, 0.0, 1.0);
    }
    return len;
}

// Row `which` of joint j at anchors pa and pb: its value, and its gradient
// by each anchor into ga and gb.
static double row_eval(const ledge__joint *j, int which, const double pa[2], const double pb[2],
                       double ga[2], double gb[2]) {
    double n[2], d[2] = {pb[0] - pa[0], pb[1] - pa[1]}, len;
    double ax = j->axis.x, ay = j->axis.y;
    switch (which) {
    case ROW_ROD:
    case ROW_SPRING:
    case ROW_MIN:
        len = direction(pa, pb, n);
        set2(gb, n[0], n[1]);
        set2(ga, -n[0], -n[1]);
        return len - (which == ROW_MIN ? (double)j->min_length : (double)j->length);
    case ROW_ROPE:
    case ROW_MAX:
        len = direction(pa, pb, n);
        set2(gb, -n[0], -n[1]);
        set2(ga, n[0], n[1]);
        return (which == ROW_MAX ? (double)j->max_length : (double)j->length) - len;
    case ROW_WELD_X:
        set2(gb, 1.0, 0.0);
        set2(ga, -1.0, 0.0);
        return d[0];
    case ROW_WELD_Y:
        set2(gb, 0.0, 1.0);
        set2(ga, 0.0, -1.0);
        return d[1];
    case ROW_PERP:
        set2(gb, -ay, ax);
        set2(ga, ay, -ax);
        return -ay * d[0] + ax * d[1];
    case ROW_LOWER:
    case ROW_MOTOR:
        set2(gb, ax, ay);
        set2(ga, -ax, -ay);
        return which == ROW_MOTOR ? 0.0 : ax * d[0] + ay * d[1] - (double)j->lower;
    case ROW_UPPER:
        set2(gb, -ax, -ay);
        set2(ga, ax, ay);
        return (double)j->upper - (ax * d[0] + ay * d[1]);
    default: { // ROW_PULLEY
        double ground_a[2] = {j->ground[0].x, j->ground[0].y};
        double ground_b[2] = {j->ground[1].x, j->ground[1].y}, nb[2];
        double la = direction(ground_a, pa, n), lb = direction(ground_b, pb, nb);
        set2(ga, -n[0], -n[1]);
        set2(gb, -(double)j->ratio * nb[0], -(double)j->ratio * nb[1]);
        return (double)j->length - la - (double)j->ratio * lb;
    }
    }
}

// Side s of joint k's anchor where the rows' gradients are taken (the
// solve's start).
static void anchor0(const solve *sv, int k, int s, double p[2]) {
    const ledge__joint_side *e = &sv->t->side[2 * k + s];
    if (e->node < 0) {
        set2(p, e->p0[0], e->p0[1]);
        return;
    }
    const ledge__joint_node *n = &sv->t->node[e->node];
    set2(p, n->x[0] + e->o[0], n->x[1] + e->o[1]);
}

// Side s of joint k's anchor at the solve's present iterate.
static void anchor_now(const solve *sv, int k, int s, double p[2]) {
    const ledge__joint_side *e = &sv->t->side[2 * k + s];
    if (e->node < 0) {
        set2(p, e->p[0], e->p[1]);
        return;
    }
    const ledge__joint_node *n = &sv->t->node[e->node];
    double f = sv->mode == PREDICT ? sv->h : 1.0;
    double vx = sv->mode == PREDICT ? n->v[0] : 0.0, vy = sv->mode == PREDICT ? n->v[1] : 0.0;
    set2(p, n->x[0] + e->o[0] + f * (vx + n->d[0]), n->x[1] + e->o[1] + f * (vy + n->d[1]));
}

// Side s of joint k's velocity at the present iterate.
static void velocity_now(const solve *sv, int k, int s, double u[2]) {
    const ledge__joint_side *e = &sv->t->side[2 * k + s];
    if (e->node < 0) {
        set2(u, e->u[0], e->u[1]);
        return;
    }
    const ledge__joint_node *n = &sv->t->node[e->node];
    set2(u, n->v[0] + n->d[0], n->v[1] + n->d[1]);
}

// The residual of row r at the present iterate: a position row's value
// less its target, over s, or a velocity row's g . u + bias + gamma lambda.
static double residual(const solve *sv, const ledge__joint_row *r) {
    if (r->linear) {
        double ua[2], ub[2];
        velocity_now(sv, r->joint, 0, ua);
        velocity_now(sv, r->joint, 1, ub);
        return r->g[0][0] * ua[0] + r->g[0][1] * ua[1] + r->g[1][0] * ub[0] + r->g[1][1] * ub[1] +
               r->bias + r->gamma * r->lambda;
    }
    double pa[2], pb[2], ga[2], gb[2];
    anchor_now(sv, r->joint, 0, pa);
    anchor_now(sv, r->joint, 1, pb);
    return (row_eval(&sv->t->j[r->joint], r->which, pa, pb, ga, gb) - r->target) / sv->s;
}

// How close to 0 a row's residual must come: 0.1 um (and 1e-7 of the
// joint's length) for a position row, 0.1 um/s for a velocity row.
static double tolerance(const solve *sv, const ledge__joint_row *r) {
    if (r->linear) return 1e-7;
    const ledge__joint *j = &sv->t->j[r->joint];
    return (1e-7 + 1e-7 * fabs((double)j->length)) / sv->s;
}

// Row r's impulse changed by `by`: its moving sides' velocities (or, when
// relaxing, positions) by inverse mass.
static void apply(const solve *sv, ledge__joint_row *r, double by) {
    r->ib[0] += r->g[1][0] * by;
    r->ib[1] += r->g[1][1] * by;
    for (int s = 0; s < 2; ++s) {
        int n = sv->t->side[2 * r->joint + s].node;
        if (n < 0) continue;
        ledge__joint_node *node = &sv->t->node[n];
        node->d[0] += node->im * r->g[s][0] * by;
        node->d[1] += node->im * r->g[s][1] * by;
    }
}

// Row r's own entry of the system: sum of im |g|^2 over its moving sides.
static double own_mass(const solve *sv, const ledge__joint_row *r) {
    double a = 0.0;
    for (int s = 0; s < 2; ++s) {
        int n = sv->t->side[2 * r->joint + s].node;
        if (n >= 0) a += sv->t->node[n].im * (r->g[s][0] * r->g[s][0] + r->g[s][1] * r->g[s][1]);
    }
    return a;
}

// A spring's implicit step. With the row's own mass m (1 / own_mass), the
// one-body oscillator of frequency w = 2 pi hertz and damping ratio z,
// stepped as v1 = v0 + lambda / m, x1 = x0 + h v1 with the row
// v1 + (beta / h) C0 + gamma lambda = 0, has the discrete motion
//   C1 = (1 - q beta) C0 + (1 - q) h v0,   q = 1 / (1 + m gamma),
// whose amplification matrix has determinant 1 - q and trace 2 - q - q beta.
// Setting them to the closed form's over one substep (r^2 and 2 r cos th
// for r = exp(-z w h), th = w sqrt(1 - z^2) h; e1 e2 and e1 + e2 when
// overdamped) makes the discrete motion the closed form's, sampled. Stable
// at any stiffness (r <= 1); th is kept at most pi / 2, so that a spring
// stiffer than the substep resolves swings at a quarter of the substep
// rate rather than aliasing. Returns q and a = q beta.
//
// exp and cos are the library's own (series of + * /): the C libraries'
// may round differently (glibc and emscripten's musl), and the step must
// give the same bits everywhere.
static double exp_neg(double x) { // e^x for x <= 0
    if (x < -700.0) return 0.0;
    double k = floor(x / 0.69314718055994530942 + 0.5);
    double r = x - k * 0.69314718055994530942, term = 1.0, sum = 1.0;
    for (int n = 1; n <= 20; ++n) {
        term = term * r / (double)n;
        sum += term;
    }
    return ldexp(sum, (int)k);
}

static double cos_quarter(double x) { // cos x for 0 <= x <= pi / 2
    double x2 = x * x, term = 1.0, sum = 1.0;
    for (int n = 1; n <= 12; ++n) {
        term = -term * x2 / (double)((2 * n - 1) * (2 * n));
        sum += term;
    }
    return sum;
}

static void spring_step(double hertz, double zeta, double h, double *q, double *a) {
    double w = 2.0 * LEDGE_PI * hertz;
    if (zeta < 1.0) {
        double r = exp_neg(-zeta * w * h), th = w * sqrt(1.0 - zeta * zeta) * h;
        if (th > 0.5 * LEDGE_PI) th = 0.5 * LEDGE_PI;
        *q = 1.0 - r * r;
        *a = 1.0 + r * r - 2.0 * r * cos_quarter(th);
    } else {
        double root = sqrt(zeta * zeta - 1.0);
        double e1 = exp_neg(-(zeta - root) * w * h), e2 = exp_neg(-(zeta + root) * w * h);
        *q = 1.0 - e1 * e2;
        *a = (1.0 - e1) * (1.0 - e2);
    }
}

// The sampled motion's rest under a steady pull f along the row (gravity
// pulling its bodies apart) is (1 - q) f h^2 / a, not the closed form's
// f / w^2 (0.94 of it for the default spring, 0.81 critically damped):
// the row's constant term is shifted so that it rests where the closed
// form does. It moves the rest only; frequency and decay are the same.
// Bodies pulled alike (a spring between two bodies under the same
// gravity) have f = 0 and no shift.
static double gravity_shift(const solve *sv, const ledge__joint_row *r, double q, double a) {
    const ledge_world *w = sv->w;
    const ledge__joint *j = &sv->t->j[r->joint];
    double f = 0.0;
    for (int s = 0; s < 2; ++s) {
        int n = sv->t->side[2 * r->joint + s].node;
        if (n < 0) continue;
        double gs = (double)w->gravity_scale[sv->t->node_slot[n]];
        f += gs * (r->g[s][0] * (double)w->gravity.x + r->g[s][1] * (double)w->gravity.y);
    }
    if (f == 0.0) return 0.0;
    double wh = 2.0 * LEDGE_PI * (double)j->hertz * sv->h;
    return -(a / (wh * wh) - (1.0 - q)) / q * f * sv->h;
}

// Adds row `which` of joint k: `one_sided` impulses only push its value
// up, `soft` rows are springs (predict only).
static void add_row(solve *sv, int k, int which, bool one_sided, bool soft) {
    ledge__joints *t = sv->t;
    const ledge__joint *j = &t->j[k];
    double pa[2], pb[2];
    anchor0(sv, k, 0, pa);
    anchor0(sv, k, 1, pb);
    ledge__joint_row *r = &t->rows[t->row_count];
    memset(r, 0, sizeof *r);
    r->joint = k;
    r->which = (uint8_t)which;
    double c0 = row_eval(j, which, pa, pb, r->g[0], r->g[1]);
    r->lo = one_sided ? 0.0 : -DBL_MAX;
    r->hi = DBL_MAX;
    r->state = one_sided ? FREE : ACTIVE;
    // Before the bodies move, a row keeps the error it has (a contact's
    // push in the last passes, rounding): the relaxation passes take it
    // back by moving the bodies, as they do a contact's overlap. Taken
    // back by a velocity, it would become one (a plank pressed down by a
    // crate would throw the crate up).
    if (sv->mode == PREDICT) r->target = one_sided ? fmin(c0, 0.0) : c0;
    if (sv->mode == CORRECT) {
        // At its bound (within rounding) or not at all: a slack rope does
        // nothing to the velocities.
        if (one_sided && c0 > 1e-5 * (1.0 + fabs((double)j->length))) return;
        r->linear = 1;
    }
    if (which == ROW_MOTOR) {
        double f = (double)j->max_motor_force * sv->h;
        r->linear = 1;
        r->bias = -(double)j->motor_speed;
        r->lo = -f;
        r->hi = f;
        r->state = ACTIVE;
    } else if (soft) {
        double m = own_mass(sv, r), q, a;
        if (!(m > 0.0)) return;
        m = 1.0 / m;
        spring_step(j->hertz, j->damping, sv->h, &q, &a);
        r->linear = 1;
        if (q < 1e-9) { // undamped: the row is explicit (gamma infinite)
            r->lambda = -a * c0 / sv->h * m;
            r->state = FIXED;
        } else {
            r->gamma = (1.0 - q) / (q * m);
            r->bias = a / q * c0 / sv->h + gravity_shift(sv, r, q, a);
            r->state = ACTIVE;
        }
    }
    t->row_count++;
}

// A distance row's companion across it (predict): idle (FIXED, no
// impulse) until the row proves stiff (implicit, regrade).
static void add_across(solve *sv, int k, int which, int parent) {
    ledge__joints *t = sv->t;
    ledge__joint_row *r = &t->rows[t->row_count++];
    memset(r, 0, sizeof *r);
    r->joint = k;
    r->which = (uint8_t)which;
    r->linear = 1;
    r->lo = -DBL_MAX;
    r->hi = DBL_MAX;
    r->state = FIXED;
    r->parent = parent;
}

// A row whose gradients turn as its bodies move (a distance, a pulley's
// ropes), with its companions when predicting. A pulley's companions
// (each on one side) come before it, so that the rows stay a perfect
// elimination order.
static void distance_row(solve *sv, int k, int which, bool one_sided) {
    ledge__joints *t = sv->t;
    int at = t->row_count;
    if (sv->mode != PREDICT) {
        add_row(sv, k, which, one_sided, false);
    } else if (which == ROW_PULLEY) {
        add_across(sv, k, ROW_ACROSS_A, at + 2);
        add_across(sv, k, ROW_ACROSS_B, at + 2);
        add_row(sv, k, which, one_sided, false);
        if (t->row_count != at + 3) t->row_count = at;
    } else {
        add_row(sv, k, which, one_sided, false);
        if (t->row_count == at + 1) add_across(sv, k, ROW_ACROSS, at);
    }
}

// The rows of joint k for the solve's mode (relax and correct keep the
// rigid ones). Of two limits the one nearer is listed (both cannot be
// violated); equal limits make one two-sided row.
static void joint_rows(solve *sv, int k) {
    const ledge__joint *j = &sv->t->j[k];
    bool predict = sv->mode == PREDICT, forces = predict && !sv->again;
    double pa[2], pb[2], n[2];
    anchor0(sv, k, 0, pa);
    anchor0(sv, k, 1, pb);
    double len = direction(pa, pb, n);
    switch (j->type) {
    case LEDGE_JOINT_ROD:
        distance_row(sv, k, ROW_ROD, false);
        break;
    case LEDGE_JOINT_ROPE:
        if (j->min_length >= j->length) {
            distance_row(sv, k, ROW_ROD, false);
        } else if (j->min_length > 0.0f && len < 0.5 * ((double)j->min_length + j->length)) {
            distance_row(sv, k, ROW_MIN, true);
        } else {
            distance_row(sv, k, ROW_ROPE, true);
        }
        break;
    case LEDGE_JOINT_SPRING: {
        bool has_min = j->min_length > 0.0f, has_max = j->max_length < LEDGE_JOINT_MAX_LENGTH;
        if (has_min && has_max && j->min_length >= j->max_length) {
            distance_row(sv, k, ROW_MIN, false);
            break;
        }
        if (forces) add_row(sv, k, ROW_SPRING, false, true);
        double mid = 0.5 * ((double)j->min_length + j->max_length);
        if (has_min && (!has_max || len < mid)) {
            distance_row(sv, k, ROW_MIN, true);
        } else if (has_max) {
            distance_row(sv, k, ROW_MAX, true);
        }
        break;
    }
    case LEDGE_JOINT_WELD:
        if (j->hertz > 0.0f && !forces) break;
        add_row(sv, k, ROW_WELD_X, false, j->hertz > 0.0f);
        add_row(sv, k, ROW_WELD_Y, false, j->hertz > 0.0f);
        break;
    case LEDGE_JOINT_SLIDER:
        add_row(sv, k, ROW_PERP, false, false);
        if (j->flags & LEDGE__JOINT_LIMIT) {
            double along = j->axis.x * (pb[0] - pa[0]) + j->axis.y * (pb[1] - pa[1]);
            if (j->lower >= j->upper) {
                add_row(sv, k, ROW_LOWER, false, false);
            } else {
                bool low = along < 0.5 * ((double)j->lower + j->upper);
                add_row(sv, k, low ? ROW_LOWER : ROW_UPPER, true, false);
            }
        }
        if (forces && (j->flags & LEDGE__JOINT_MOTOR)) add_row(sv, k, ROW_MOTOR, false, false);
        break;
    default:
        distance_row(sv, k, ROW_PULLEY, true);
        break;
    }
}

// --- the factorized solve -----------------------------------------------------

// The system of the active factorized rows (place order: their order in
// the rows), factored. False when the order met fill (never for a forest).
static bool factor(solve *sv) {
    ledge__joints *t = sv->t;
    ledge__ldl *m = &t->ldl;
    int count = 0;
    for (int i = 0; i < t->tree_rows; ++i) {
        if (t->rows[i].state == ACTIVE) t->active[count++] = i;
    }
    for (int n = 0; n <= t->node_count; ++n) t->node_row_start[n] = 0;
    for (int p = 0; p < count; ++p) {
        const ledge__joint_row *r = &t->rows[t->active[p]];
        for (int s = 0; s < 2; ++s) {
            int n = t->side[2 * r->joint + s].node;
            if (n >= 0) t->node_row_start[n + 1]++;
        }
    }
    for (int n = 0; n < t->node_count; ++n) t->node_row_start[n + 1] += t->node_row_start[n];
    for (int p = 0; p < count; ++p) {
        const ledge__joint_row *r = &t->rows[t->active[p]];
        for (int s = 0; s < 2; ++s) {
            int n = t->side[2 * r->joint + s].node;
            if (n < 0) continue;
            // node_row_start[n] moves on as its rows are filed (put back below).
            t->node_rows[t->node_row_start[n]++] = 2 * p + s;
        }
    }
    for (int n = t->node_count; n > 0; --n) t->node_row_start[n] = t->node_row_start[n - 1];
    t->node_row_start[0] = 0;
    for (int p = 0; p < count; ++p) t->mark[p] = -1;
    int e = 0;
    for (int p = 0; p < count; ++p) {
        const ledge__joint_row *r = &t->rows[t->active[p]];
        m->start[p] = e;
        m->diag[p] = r->gamma;
        for (int s = 0; s < 2; ++s) {
            int n = t->side[2 * r->joint + s].node;
            if (n < 0) continue;
            double im = t->node[n].im;
            const double *g = r->g[s];
            m->diag[p] += im * (g[0] * g[0] + g[1] * g[1]);
            for (int q = t->node_row_start[n]; q < t->node_row_start[n + 1]; ++q) {
                int p2 = t->node_rows[q] >> 1, s2 = t->node_rows[q] & 1;
                if (p2 <= p) continue;
                if (t->mark[p2] != p) {
                    if (e >= m->col_cap || e >= m->val_cap) return false;
                    t->mark[p2] = p;
                    t->where[p2] = e;
                    m->col[e] = p2;
                    m->val[e] = 0.0;
                    e++;
                }
                const double *g2 = t->rows[t->active[p2]].g[s2];
                m->val[t->where[p2]] += im * (g[0] * g2[0] + g[1] * g2[1]);
            }
        }
    }
    m->start[count] = e;
    m->n = count;
    return ledge__ldl_factor(m, DROP);
}

// Whether a row out of the system must join it: a one-sided row violated
// (or, at the solve's first iteration, `first`, taut: the ropes of a
// hanging chain all pull at once, instead of joining one per iteration as
// the one above stops), or a clamped one that wants back within its
// bounds.
static bool wants_in(const solve *sv, const ledge__joint_row *r, double res, bool first) {
    double tol = tolerance(sv, r);
    if (r->state == FREE && first)
        return res * sv->s < 1e-4 * (1.0 + fabs((double)sv->t->j[r->joint].length));
    if (r->state == FREE) return res < -tol;
    if (r->state == CLAMPED) return r->lambda >= r->hi ? res > tol : res < -tol;
    return false;
}

// How far a unit impulse of row r along gradients g moves its bodies'
// velocities (the sum over its moving sides of im |g|).
static double moved_by(const solve *sv, const ledge__joint_row *r, double g[2][2]) {
    double m = 0.0;
    for (int s = 0; s < 2; ++s) {
        int n = sv->t->side[2 * r->joint + s].node;
        if (n >= 0) m += sv->t->node[n].im * sqrt(g[s][0] * g[s][0] + g[s][1] * g[s][1]);
    }
    return m;
}

// The residuals of the factorized rows, and the solve's merit: the squared
// residuals of the rows in the system and of the one-sided rows violated,
// each over its tolerance.
static double measure(solve *sv) {
    ledge__joints *t = sv->t;
    double merit = 0.0;
    sv->worst = 0.0;
    sv->violation = 0.0;
    for (int i = 0; i < t->tree_rows; ++i) {
        ledge__joint_row *r = &t->rows[i];
        if (r->which >= ROW_ACROSS) { // its own linear model only (regrade)
            r->r = 0.0;
            if (r->state == ACTIVE) {
                double e = fabs(r->lambda) * moved_by(sv, r, r->g);
                sv->worst = fmax(sv->worst, e);
                merit += (e / 1e-7) * (e / 1e-7);
            }
            continue;
        }
        if (r->state == FIXED) continue;
        r->r = residual(sv, r);
        double x = r->r / tolerance(sv, r);
        if (r->state == ACTIVE || (r->state == FREE && x < 0.0)) {
            merit += x * x;
            sv->violation += x * x;
        }
        if (sv->implicit && r->stiff && r->lambda != 0.0) {
            // The impulse's direction: its gradients where the solve is.
            double pa[2], pb[2], g[2][2];
            anchor_now(sv, r->joint, 0, pa);
            anchor_now(sv, r->joint, 1, pb);
            row_eval(&t->j[r->joint], r->which, pa, pb, g[0], g[1]);
            for (int s = 0; s < 2; ++s) {
                g[s][0] -= r->g[s][0];
                g[s][1] -= r->g[s][1];
            }
            double e = fabs(r->lambda) * moved_by(sv, r, g);
            sv->worst = fmax(sv->worst, e);
            merit += (e / 1e-7) * (e / 1e-7);
        }
    }
    return merit;
}

// Whether the rows are solved: those in the system within their
// tolerance, none out of it wanting in.
static bool solved(const solve *sv) {
    ledge__joints *t = sv->t;
    if (sv->implicit && sv->worst > 1e-7) return false;
    for (int i = 0; i < t->tree_rows; ++i) {
        const ledge__joint_row *r = &t->rows[i];
        if (r->which >= ROW_ACROSS) continue;
        if (r->state == ACTIVE ? fabs(r->r) > tolerance(sv, r) : wants_in(sv, r, r->r, false))
            return false;
    }
    return true;
}

// Row r's residual in the linear model of this iteration: as measured,
// plus what the impulses changed since (its gradient by the nodes' change).
static double model(const solve *sv, const ledge__joint_row *r) {
    double res = r->r + r->gamma * (r->lambda - r->saved);
    for (int s = 0; s < 2; ++s) {
        int n = sv->t->side[2 * r->joint + s].node;
        if (n < 0) continue;
        const ledge__joint_node *node = &sv->t->node[n];
        res += r->g[s][0] * (node->d[0] - node->d0[0]) + r->g[s][1] * (node->d[1] - node->d0[1]);
    }
    return res;
}

// Row r's impulse moved by `by` (applied).
static void move_row(const solve *sv, ledge__joint_row *r, double by) {
    r->lambda += by;
    apply(sv, r, by);
}

// The linear model's complementarity problem, by a primal active-set
// method: solve the rows in the system; if a step would take an impulse
// past its bound, go as far as the first bound and let those rows out;
// else let in the rows the model now violates; until neither happens.
// The first iteration lets in the taut rows too (a hanging chain's ropes
// all pull at once, instead of joining one per round as the one above
// stops).
static void complementarity(solve *sv, bool first) {
    ledge__joints *t = sv->t;
    for (int i = 0; i < t->tree_rows; ++i) {
        ledge__joint_row *r = &t->rows[i];
        if (r->state != ACTIVE && r->state != FIXED && wants_in(sv, r, r->r, first))
            r->state = ACTIVE;
    }
    for (int round = 0; round < MAX_CHANGES; ++round) {
        if (!factor(sv)) {
            t->broken = true;
            return;
        }
        int count = t->ldl.n;
        for (int p = 0; p < count; ++p) t->rhs[p] = -model(sv, &t->rows[t->active[p]]);
        ledge__ldl_solve(&t->ldl, t->rhs);
        double alpha = 1.0;
        for (int p = 0; p < count; ++p) {
            const ledge__joint_row *r = &t->rows[t->active[p]];
            double d = t->rhs[p], to = r->lambda + d;
            if (to < r->lo && d < 0.0) alpha = fmin(alpha, fmax(0.0, (r->lo - r->lambda) / d));
            if (to > r->hi && d > 0.0) alpha = fmin(alpha, fmax(0.0, (r->hi - r->lambda) / d));
        }
        bool out = false;
        for (int p = 0; p < count; ++p) {
            ledge__joint_row *r = &t->rows[t->active[p]];
            double to = r->lambda + alpha * t->rhs[p];
            double slack = 1e-12 * (1.0 + fabs(r->lambda) + fabs(t->rhs[p]));
            bool blocked = (t->rhs[p] < 0.0 && to <= r->lo + slack) ||
                           (t->rhs[p] > 0.0 && to >= r->hi - slack);
            if (alpha < 1.0 && blocked) { // at the bound it was heading past: out
                to = to <= r->lo + slack ? r->lo : r->hi;
                r->state = (r->lo == 0.0 && to == 0.0) ? FREE : CLAMPED;
                out = true;
            }
            move_row(sv, r, to - r->lambda);
        }
        if (out) continue;
        bool in = false;
        for (int i = 0; i < t->tree_rows; ++i) {
            ledge__joint_row *r = &t->rows[i];
            if (r->state == ACTIVE || r->state == FIXED || !wants_in(sv, r, model(sv, r), false))
                continue;
            r->state = ACTIVE;
            in = true;
        }
        if (!in) return;
    }
}

// The factorized rows' impulses at `alpha` of the last Newton step (from
// the saved ones), the states the step found kept.
static void step_to(const solve *sv, double alpha) {
    ledge__joints *t = sv->t;
    for (int i = 0; i < t->tree_rows; ++i) {
        ledge__joint_row *r = &t->rows[i];
        move_row(sv, r, r->saved + alpha * r->step - r->lambda);
    }
}

// A stiff row's companions where the solve is (pa, pb its anchors): their
// gradients across it (gn) and their compliance. The row's impulse
// lambda along gradients that turn with the bodies adds to Newton's
// matrix its second-order term, lambda times the gradients' derivative:
// for a distance of length l, (lambda / l) times the projection across
// it. Pulling, that is a stiffness k = |lambda| / l across the row, the
// taut rope's own (stabilizing); as a companion row across it with
// compliance 1 / (h k) it stays in the factorized system's form (the
// rows of a joint between the same bodies). Pushing (a rod in
// compression), the term would destabilize: it is left out.
static void across_at(const solve *sv, int p, const double pa[2], const double pb[2]) {
    ledge__joints *t = sv->t;
    const ledge__joint_row *r = &t->rows[p];
    const ledge__joint *j = &t->j[r->joint];
    double n[2];
    if (r->which == ROW_PULLEY) {
        double ground[2][2] = {{j->ground[0].x, j->ground[0].y}, {j->ground[1].x, j->ground[1].y}};
        for (int s = 0; s < 2; ++s) {
            ledge__joint_row *c = &t->rows[p - 2 + s];
            double l = direction(ground[s], s == 0 ? pa : pb, n);
            double k = r->lambda * (s == 0 ? 1.0 : (double)j->ratio) / fmax(l, 1e-9);
            set2(c->gn[s], -n[1], n[0]);
            set2(c->gn[1 - s], 0.0, 0.0);
            c->gamma = k > 0.0 ? 1.0 / (sv->h * k) : 0.0;
        }
        return;
    }
    ledge__joint_row *c = &t->rows[p + 1];
    double l = direction(pa, pb, n);
    double sign = (r->which == ROW_ROD || r->which == ROW_MIN) ? 1.0 : -1.0;
    double k = -sign * r->lambda / fmax(l, 1e-9);
    set2(c->gn[0], n[1], -n[0]);
    set2(c->gn[1], -n[1], n[0]);
    c->gamma = k > 0.0 ? 1.0 / (sv->h * k) : 0.0;
}

// The position rows' gradients taken again where the solve now is: all
// of them (`all`), or the stiff ones (stiff_rows). Implicit, a stiff
// row's impulse so far is turned onto its new gradients (the velocities
// change with it: where the solve is then is the linear model's point),
// and its companions start again from no impulse, with their new
// gradients and compliance; so the impulses converge to ones along the
// gradients where the bodies move to.
static void regrade(const solve *sv, bool all) {
    ledge__joints *t = sv->t;
    for (int i = 0; i < t->tree_rows; ++i) { // where the solve is, before anything moves
        ledge__joint_row *r = &t->rows[i];
        if (r->which >= ROW_ACROSS || r->linear || !(all || r->stiff)) continue;
        double pa[2], pb[2];
        anchor_now(sv, r->joint, 0, pa);
        anchor_now(sv, r->joint, 1, pb);
        row_eval(&t->j[r->joint], r->which, pa, pb, r->gn[0], r->gn[1]);
        if (sv->implicit && r->stiff) across_at(sv, i, pa, pb);
    }
    for (int i = 0; i < t->tree_rows; ++i) {
        ledge__joint_row *r = &t->rows[i];
        bool turn = sv->implicit && (r->which >= ROW_ACROSS ? t->rows[r->parent].stiff : r->stiff);
        if (r->which >= ROW_ACROSS) {
            if (!turn) continue;
            apply(sv, r, -r->lambda);
            r->lambda = 0.0;
            memcpy(r->g, r->gn, sizeof r->g);
            r->state = r->gamma > 0.0 ? ACTIVE : FIXED;
            continue;
        }
        if (r->linear || !(all || r->stiff)) continue;
        if (turn) apply(sv, r, -r->lambda);
        memcpy(r->g, r->gn, sizeof r->g);
        if (turn) apply(sv, r, r->lambda);
    }
}

static void sweep_row(const solve *sv, ledge__joint_row *r);

// Sweeps of the factorized rows a row at a time (Gauss-Seidel, forward
// and back), where Newton's step failed: one row's projection moves its
// bodies no farther than its own error, and the sweeps smooth the kinks a
// taut chain of light links under a heavy load takes, which make the
// linear model useless (the links' lateral freedom, that the tension
// would stiffen); Newton's method then goes on from there.
static void relax_rows(const solve *sv) {
    ledge__joints *t = sv->t;
    for (int k = 0; k < FALLBACK_SWEEPS; ++k) {
        for (int i = 0; i < t->tree_rows; ++i) {
            int at = (k & 1) ? t->tree_rows - 1 - i : i;
            sweep_row(sv, &t->rows[at]);
        }
    }
}

// Keeps the solve's impulses and velocities in `slot` (or puts them
// back): a factorized solve that ends worse than it began (rows nearly
// dependent, a chain whipping round) gives back its start (slot 0); where
// the implicit solve fails to converge, the solve before it, if that held
// the rows better (slot 1).
enum { KEEP_START, KEEP_EXPLICIT };
static void keep(solve *sv, int slot, bool back) {
    ledge__joints *t = sv->t;
    for (int n = 0; n < t->node_count; ++n) {
        ledge__joint_node *node = &t->node[n];
        if (back) {
            set2(node->d, node->kept[slot][0], node->kept[slot][1]);
        } else {
            set2(node->kept[slot], node->d[0], node->d[1]);
        }
    }
    for (int i = 0; i < t->row_count; ++i) {
        ledge__joint_row *r = &t->rows[i];
        if (back) {
            r->lambda = r->kept[slot][0];
            set2(r->ib, r->kept[slot][1], r->kept[slot][2]);
            memcpy(r->g, r->kept_g[slot], sizeof r->g);
            r->state = r->kept_state[slot];
        } else {
            r->kept[slot][0] = r->lambda;
            set2(r->kept[slot] + 1, r->ib[0], r->ib[1]);
            memcpy(r->kept_g[slot], r->g, sizeof r->g);
            r->kept_state[slot] = r->state;
        }
    }
}

// How far the solve has moved a body since it began (its velocity's
// change, or its position's when relaxing).
static double moved(const solve *sv) {
    const ledge__joints *t = sv->t;
    double m = 0.0;
    for (int n = 0; n < t->node_count; ++n) {
        const ledge__joint_node *node = &t->node[n];
        double dx = node->d[0] - node->kept[KEEP_START][0],
               dy = node->d[1] - node->kept[KEEP_START][1];
        m = fmax(m, sqrt(dx * dx + dy * dy));
    }
    return m;
}

// Newton's method on the factorized rows: each iteration solves the
// linear model's complementarity problem from the factors. The velocity
// pass's rows are linear: one iteration solves them. The position rows
// are not. Before the bodies move, the impulses keep the gradients of the
// substep's start (SHAKE's step, which keeps a pendulum's energy) while
// that lowers the merit; where it does not (a chain whipping round by
// half a radian a substep), and in the relaxation passes, the gradients
// are taken again each iteration (Newton's method proper, quadratic). A
// step that still does not lower the merit is halved, and taken back
// after five halvings; the relaxation passes finish what is left.
static void tree_solve(solve *sv) {
    ledge__joints *t = sv->t;
    bool linear = sv->mode == CORRECT, fresh = sv->mode == RELAX;
    double last = DBL_MAX, alpha = 1.0, first = -1.0, reach = 0.0;
    int fallbacks = 0;
    keep(sv, KEEP_START, false);
    for (int it = 0, tries = 0; it < MAX_NEWTON && tries < 4 * MAX_NEWTON; ++tries) {
        double merit = measure(sv);
        if (first < 0.0) {
            first = merit;
            for (int i = 0; i < t->tree_rows; ++i) {
                const ledge__joint_row *r = &t->rows[i];
                if (r->state == ACTIVE || (r->state != FIXED && r->r < 0.0)) reach += fabs(r->r);
            }
        }
        if (it > 0 && !linear && !(merit < last)) {
            if (!fresh && alpha == 1.0) { // from the last iterate, with its own gradients
                step_to(sv, 0.0);
                for (int i = 0; i < t->tree_rows; ++i) t->rows[i].state = t->rows[i].saved_state;
                fresh = true;
                sv->turned = true;
                it--;
                last = DBL_MAX;
                continue;
            }
            if (alpha < 0.05) { // from the last iterate, a row at a time (relax_rows)
                step_to(sv, 0.0);
                for (int i = 0; i < t->tree_rows; ++i) t->rows[i].state = t->rows[i].saved_state;
                if (++fallbacks > MAX_FALLBACKS) break;
                relax_rows(sv);
                alpha = 1.0;
                last = DBL_MAX;
                it++;
                continue;
            }
            alpha *= 0.5;
            step_to(sv, alpha);
            continue;
        }
        last = merit;
        alpha = 1.0;
        if (solved(sv)) return;
        for (int n = 0; n < t->node_count; ++n) {
            set2(t->node[n].d0, t->node[n].d[0], t->node[n].d[1]);
        }
        regrade(sv, fresh);
        for (int i = 0; i < t->tree_rows; ++i) {
            ledge__joint_row *r = &t->rows[i];
            r->saved = r->lambda;
            r->saved_state = r->state;
        }
        complementarity(sv, it == 0);
        if (t->broken || linear) return;
        for (int i = 0; i < t->tree_rows; ++i)
            t->rows[i].step = t->rows[i].lambda - t->rows[i].saved;
        it++;
    }
    // Unsolved: a step that moved a body much farther than the rows'
    // errors at the start call for (nearly dependent rows: a taut chain
    // pulled straight between heavy bodies) is given back, and the rows
    // are swept a row at a time instead (each sweep moves its bodies no
    // farther than its own error).
    if (!sv->implicit && !linear && moved(sv) > 4.0 * reach + 1e-9) {
        keep(sv, KEEP_START, true);
        relax_rows(sv);
    }
}

// A position row's gradients taken where the solve is.
static void turn_row(const solve *sv, ledge__joint_row *r) {
    double pa[2], pb[2];
    anchor_now(sv, r->joint, 0, pa);
    anchor_now(sv, r->joint, 1, pb);
    row_eval(&sv->t->j[r->joint], r->which, pa, pb, r->g[0], r->g[1]);
}

// One row alone (a swept row): Newton's step on its own diagonal, twice
// for a position row, within its bounds. Relaxing, with its gradients
// where the bodies are (a projection then moves them no farther than its
// error, however far they have turned); before they move, with the
// substep's (SHAKE's).
static void sweep_row(const solve *sv, ledge__joint_row *r) {
    if (r->state == FIXED || r->which >= ROW_ACROSS) return;
    for (int it = 0; it < (r->linear ? 1 : 2); ++it) {
        if (sv->mode == RELAX) turn_row(sv, r);
        double a = own_mass(sv, r) + r->gamma;
        if (!(a > 0.0)) return;
        double res = residual(sv, r);
        if (r->state != ACTIVE && !wants_in(sv, r, res, false)) return;
        double to = r->lambda - res / a;
        to = to < r->lo ? r->lo : to > r->hi ? r->hi : to;
        apply(sv, r, to - r->lambda);
        r->lambda = to;
        r->state = (r->lo == 0.0 && to == 0.0)    ? FREE
                   : (to <= r->lo || to >= r->hi) ? CLAMPED
                                                  : ACTIVE;
    }
}

// --- a solve --------------------------------------------------------------------

// The nodes and the fixed sides where the solve begins.
static void load_bodies(solve *sv) {
    ledge_world *w = sv->w;
    ledge__joints *t = sv->t;
    for (int n = 0; n < t->node_count; ++n) {
        int i = t->node_slot[n];
        ledge__joint_node *node = &t->node[n];
        node->im = w->inv_mass[i];
        set2(node->x, w->position[i].x, w->position[i].y);
        set2(node->v, w->velocity[i].x, w->velocity[i].y);
        set2(node->d, 0.0, 0.0);
    }
    for (int k = 0; k < t->used; ++k) {
        if (t->kind[k] == 0) continue;
        const ledge__joint *j = &t->j[k];
        for (int s = 0; s < 2; ++s) {
            ledge__joint_side *e = &t->side[2 * k + s];
            int slot = ledge__joint_slot(w, j, s);
            e->slot = slot;
            e->node = node_of_side(w, t, j, s);
            set2(e->o, j->anchor[s].x, j->anchor[s].y);
            if (e->node >= 0) continue;
            if (slot < 0) {
                set2(e->p0, j->anchor[s].x, j->anchor[s].y);
                set2(e->u, 0.0, 0.0);
            } else {
                set2(e->p0, (double)w->position[slot].x + e->o[0],
                     (double)w->position[slot].y + e->o[1]);
                set2(e->u, w->velocity[slot].x, w->velocity[slot].y);
            }
            double f = sv->mode == PREDICT ? sv->h : 0.0;
            set2(e->p, e->p0[0] + f * e->u[0], e->p0[1] + f * e->u[1]);
        }
    }
}

static void build_rows(solve *sv) {
    ledge__joints *t = sv->t;
    t->row_count = 0;
    if (!t->broken) {
        for (int q = 0; q < t->order_count; ++q) joint_rows(sv, t->order[q]);
    }
    t->tree_rows = t->row_count;
    if (t->broken) {
        for (int q = 0; q < t->order_count; ++q) joint_rows(sv, t->order[q]);
    }
    for (int q = 0; q < t->loop_count; ++q) joint_rows(sv, t->loop[q]);
    for (int i = 0; i < t->row_count; ++i) {
        if (t->rows[i].state == FIXED) apply(sv, &t->rows[i], t->rows[i].lambda);
    }
}

// The rows' solve: the factorized rows by Newton's method, the swept ones
// a row at a time around it.
static void solve_rows(solve *sv) {
    ledge__joints *t = sv->t;
    bool swept = t->row_count > t->tree_rows;
    int sweeps = t->broken ? BROKEN_SWEEPS : swept ? LOOP_SWEEPS : 1;
    for (int k = 0; k < sweeps; ++k) {
        if (t->tree_rows > 0) tree_solve(sv);
        if (t->broken && t->tree_rows > 0) { // fill met: every row swept from here
            for (int i = 0; i < t->tree_rows; ++i) sweep_row(sv, &t->rows[i]);
            sweeps = BROKEN_SWEEPS;
        }
        for (int i = t->tree_rows; i < t->row_count; ++i) sweep_row(sv, &t->rows[i]);
    }
}

static void run(solve *sv) {
    build_rows(sv);
    solve_rows(sv);
}

// The velocities the solve found, and each joint's impulse on body b.
static void store_velocities(solve *sv) {
    ledge_world *w = sv->w;
    ledge__joints *t = sv->t;
    for (int n = 0; n < t->node_count; ++n) {
        const ledge__joint_node *node = &t->node[n];
        int i = t->node_slot[n];
        w->velocity[i] = v2((float)(node->v[0] + node->d[0]), (float)(node->v[1] + node->d[1]));
    }
    for (int i = 0; i < t->row_count; ++i) {
        const ledge__joint_row *r = &t->rows[i];
        ledge__joint *j = &t->j[r->joint];
        j->impulse[0] += r->ib[0];
        j->impulse[1] += r->ib[1];
    }
}

// A body held by joints to the world carries what rests on it: the shock
// sweep holds it as it moves, so what rests on it moves with it, and the
// joints' solve counts that mass in its inverse mass (the loads of the
// substep's contacts, less its own weight). Then a bridge sags under its
// crates and a rope's force counts them; without it the crates' weight
// went to the sweep, which holds the plank still, and a plank kicked by
// their weight alone moved 60 times too fast.
static void add_loads(solve *sv) {
    ledge_world *w = sv->w;
    ledge__joints *t = sv->t;
    for (int n = 0; n < t->node_count; ++n) {
        int i = t->node_slot[n];
        if (!t->held[i]) continue;
        ledge__joint_node *node = &t->node[n];
        double own = (double)w->gravity_scale[i] / node->im;
        double extra = (double)w->step.load[i] - own;
        if (extra > 0.0) node->im = 1.0 / (1.0 / node->im + extra);
    }
}

// Each node's mass with the bodies welded to it (rigidly: a soft weld
// does not count), through a union-find over the welds (parent is free
// once the substep's structure is built).
static void welded_masses(const solve *sv) {
    ledge__joints *t = sv->t;
    for (int n = 0; n < t->node_count; ++n) {
        t->parent[n] = n;
        t->node[n].welded = 0.0;
    }
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        if (t->kind[k] == 0 || j->type != LEDGE_JOINT_WELD || j->hertz > 0.0f) continue;
        int a = t->side[2 * k].node, b = t->side[2 * k + 1].node;
        if (a < 0 || b < 0) continue;
        int ra = find(t->parent, a), rb = find(t->parent, b);
        if (ra != rb) t->parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
    }
    for (int n = 0; n < t->node_count; ++n) {
        t->node[find(t->parent, n)].welded += 1.0 / t->node[n].im;
    }
    for (int n = 0; n < t->node_count; ++n) {
        t->node[n].welded = t->node[find(t->parent, n)].welded;
    }
}

// Which distance rows (and pulleys) are stiff: their tension swings the
// light bodies across them faster than the substep resolves. A row of
// impulse lambda over a distance L between bodies of inverse masses ia
// and ib (each with what is welded to it) is, across itself, a spring of
// stiffness lambda / (h L); held
// with the gradients of the substep's start (SHAKE's step, explicit
// across the row) it is stable only while lambda h (ia + ib) / L stays
// below about 2 (a plank between two taut ropes of a bridge, a light link
// of a chain under a heavy crate). Those rows are solved again with their
// gradients taken where the bodies move to (implicit across the row,
// which takes a little energy, as Box2D's soft step does); a pendulum's
// rod, at 0.01 or less, keeps SHAKE's exact step. Returns how many.
#define STIFF 0.1
static int stiff_rows(const solve *sv, uint8_t *flag) {
    ledge__joints *t = sv->t;
    int count = 0;
    welded_masses(sv);
    for (int i = 0; i < t->tree_rows; ++i) {
        const ledge__joint_row *r = &t->rows[i];
        flag[i] = 0;
        if (r->linear || (r->which >= ROW_WELD_X && r->which != ROW_PULLEY)) continue;
        double pa[2], pb[2], n[2], len;
        anchor0(sv, r->joint, 0, pa);
        anchor0(sv, r->joint, 1, pb);
        if (r->which == ROW_PULLEY) {
            const ledge__joint *j = &t->j[r->joint];
            double ga[2] = {j->ground[0].x, j->ground[0].y},
                   gb[2] = {j->ground[1].x, j->ground[1].y};
            len = fmin(direction(ga, pa, n), direction(gb, pb, n));
        } else {
            len = direction(pa, pb, n);
        }
        double im = 0.0;
        for (int s = 0; s < 2; ++s) {
            int n = t->side[2 * r->joint + s].node;
            if (n >= 0) im += 1.0 / t->node[n].welded;
        }
        double e = fabs(r->lambda) * sv->h * im / fmax(len, 1e-6);
        flag[i] = e > STIFF;
        count += flag[i];
    }
    return count;
}

// Predict: SHAKE's step first (every row held with its gradients at the
// substep's start). Where some rows prove stiff (stiff_rows) and that
// solve converged with those gradients, it goes on implicit from there:
// the stiff rows' impulses are turned to lie along their gradients where
// the bodies move to, Newton's matrix counting the turn (their companions
// across them, across_at), which is implicit Euler across the row and
// damps what SHAKE's step would keep swinging (a light plank between two
// taut ropes rocks at the substep's rate, for ever, once their tension
// lambda h (ia + ib) / l passes about 1). Should that not converge, the
// first solve stands if it held the rows better. Where the first solve
// itself did not converge (a chain whipping round), it starts again with
// the stiff rows' gradients taken as it goes.
void ledge__joints_predict(ledge_world *w, float h, bool loads, bool again) {
    ledge__joints *t = w->joints;
    if (t == NULL || !t->any) return;
    solve sv = {w, t, PREDICT, again, false, 0.0, 0.0, false, h, h};
    load_bodies(&sv);
    if (loads) add_loads(&sv);
    run(&sv);
    if (!t->broken && stiff_rows(&sv, t->stiff) > 0) {
        measure(&sv);
        double before = sv.violation;
        bool on = solved(&sv) && !sv.turned;
        if (!on) {
            load_bodies(&sv);
            if (loads) add_loads(&sv);
            build_rows(&sv);
        } else {
            keep(&sv, KEEP_EXPLICIT, false);
        }
        for (int i = 0; i < t->tree_rows; ++i) t->rows[i].stiff = t->stiff[i];
        sv.implicit = on;
        solve_rows(&sv);
        if (on) {
            measure(&sv);
            if (!solved(&sv) && !(sv.violation < before)) keep(&sv, KEEP_EXPLICIT, true);
        }
    }
    store_velocities(&sv);
}

void ledge__joints_relax(ledge_world *w) {
    ledge__joints *t = w->joints;
    if (t == NULL || !t->any) return;
    solve sv = {w, t, RELAX, false, false, 0.0, 0.0, false, 0.0, 1.0};
    load_bodies(&sv);
    run(&sv);
    int moved = 0;
    for (int n = 0; n < t->node_count; ++n) {
        const ledge__joint_node *node = &t->node[n];
        if (node->d[0] == 0.0 && node->d[1] == 0.0) continue;
        int i = t->node_slot[n];
        vec2s to = v2((float)(node->x[0] + node->d[0]), (float)(node->x[1] + node->d[1]));
        if (to.x == w->position[i].x && to.y == w->position[i].y) continue;
        w->position[i] = to;
        w->step.box_center[i] = v2_add(to, w->box_offset[i]);
        ledge__recheck_if_far(w, i, 0);
        moved++;
    }
    w->par.counter[0].pushes += moved;
}

void ledge__joints_correct(ledge_world *w, float h, bool loads) {
    ledge__joints *t = w->joints;
    if (t == NULL || !t->any) return;
    solve sv = {w, t, CORRECT, false, false, 0.0, 0.0, false, h, 1.0};
    load_bodies(&sv);
    if (loads) add_loads(&sv);
    run(&sv);
    store_velocities(&sv);
}

bool ledge__joints_hold_any(const ledge_world *w) {
    const ledge__joints *t = w->joints;
    if (t == NULL || !t->any || w->contact_count == 0) return false;
    for (int n = 0; n < t->node_count; ++n) {
        if (t->held[t->node_slot[n]]) return true;
    }
    return false;
}

// impulse / dt, saturated to the range a snapshot keeps: a step of 1e-30 s
// turns any impulse into a force past what a float holds.
static float force_of(double impulse, float dt) {
    double f = impulse / dt;
    return (float)(f > 3.0e38 ? 3.0e38 : f < -3.0e38 ? -3.0e38 : f);
}

void ledge__joints_end_step(ledge_world *w, float dt) {
    ledge__joints *t = w->joints;
    if (t == NULL) return;
    clear_held(t);
    for (int k = 0; k < t->used; ++k) {
        ledge__joint *j = &t->j[k];
        j->force = j->alive ? v2(force_of(j->impulse[0], dt), force_of(j->impulse[1], dt))
                            : v2(0.0f, 0.0f);
    }
}
