// The joint table (joints.h): joints by index with generations, a LIFO
// free list (the same calls hand out the same ids), each body's joints as
// a list by body handle (handles stay put when the store reorders its
// slots), which bodies a joint keeps apart, and the sleeping rules of
// joined bodies: they fall asleep and wake together.
#include "characters.h"
#include "joints.h"
#include "par.h" // ledge__stir
#include "slots.h"

#include <string.h>

ledge__joints *ledge__joints_of(ledge_world *w) {
    if (w->joints == NULL) {
        ledge__joints *t = ledge__alloc(sizeof *t);
        if (t == NULL) return NULL;
        memset(t, 0, sizeof *t);
        w->joints = t;
    }
    return w->joints;
}

void ledge__joints_free(ledge_world *w) {
    ledge__joints *t = w->joints;
    if (t == NULL) return;
    void *arrays[] = {t->j,     t->free,      t->first,     t->degree,         t->node_of,
                      t->held,  t->node_slot, t->node,      t->parent,         t->adj_start,
                      t->adj,   t->stack,     t->kind,      t->side,           t->order,
                      t->loop,  t->rows,      t->node_rows, t->node_row_start, t->mark,
                      t->where, t->active,    t->rhs,       t->stiff};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) ledge__free(arrays[k]);
    ledge__ldl_free(&t->ldl);
    ledge__free(t);
    w->joints = NULL;
}

void ledge__joints_forget(ledge_world *w, ledge__stale why) {
    ledge__joints *t = w->joints;
    if (t == NULL || !(why & LEDGE__STALE_SLOTS)) return;
    if (t->held_cap > 0) memset(t->held, 0, (size_t)t->held_cap);
    t->node_count = 0;
    t->order_count = t->loop_count = 0;
    t->any = false;
}

ledge_joint_id ledge__joint_id(const ledge_world *w, int k) {
    ledge_joint_id id = {(uint32_t)k + 1u, w->joints->j[k].generation, w->serial};
    return id;
}

ledge__joint *ledge__joint_find(const ledge_world *w, ledge_joint_id id, const char *fn) {
    if (w == NULL) {
        LEDGE_ERROR("%s: world is NULL", fn);
        return NULL;
    }
    if (id.index1 != 0 && id.world != w->serial) {
        LEDGE_ERROR("%s: joint id {%u, %u} is not a joint of this world (made by world %u, this "
                    "is world %u)",
                    fn, id.index1, id.generation, id.world, w->serial);
        return NULL;
    }
    const ledge__joints *t = w->joints;
    if (id.index1 == 0 || t == NULL || id.index1 > (uint32_t)t->used) {
        LEDGE_ERROR("%s: joint id {%u, %u} is not a joint of this world", fn, id.index1,
                    id.generation);
        return NULL;
    }
    ledge__joint *j = &t->j[id.index1 - 1u];
    if (!j->alive || j->generation != id.generation) {
        LEDGE_ERROR("%s: joint id {%u, %u} is stale (the joint was destroyed, or one of its "
                    "bodies)",
                    fn, id.index1, id.generation);
        return NULL;
    }
    return j;
}

// The factorization's entries a body of `degree` joints may bring: its
// rows (at most 3 a joint, at most LEDGE__JOINT_NODE_JOINTS joints in the
// factorization) pairwise.
static long long entries_of(int degree) {
    long long r = 3LL * (degree < LEDGE__JOINT_NODE_JOINTS ? degree : LEDGE__JOINT_NODE_JOINTS);
    return r * r;
}

int ledge__joint_take(ledge_world *w, int handles, const char *fn) {
    ledge__joints *t = ledge__joints_of(w);
    if (t == NULL) {
        LEDGE_ERROR("%s: allocation of the joint table failed", fn);
        return -1;
    }
    int old_first = t->first_cap;
    if (!LEDGE__RESERVE(t->j, t->cap, t->used + 1, t->used, 16) ||
        !LEDGE__RESERVE(t->free, t->free_cap, t->cap, t->free_count, 16) ||
        !LEDGE__RESERVE(t->first, t->first_cap, handles, old_first, 16) ||
        !LEDGE__RESERVE(t->degree, t->degree_cap, handles, old_first, 16)) {
        LEDGE_ERROR("%s: allocation of the joint table for %d joints failed", fn, t->used + 1);
        return -1;
    }
    for (int h = old_first; h < t->first_cap; ++h) t->first[h] = -1;
    int k = t->free_count > 0 ? t->free[--t->free_count] : t->used++;
    uint32_t generation = t->j[k].generation;
    memset(&t->j[k], 0, sizeof t->j[k]);
    t->j[k].generation = generation == 0 ? 1u : generation;
    return k;
}

void ledge__joint_refresh_joined(ledge_world *w, int k) {
    const ledge__joints *t = w->joints;
    const ledge__joint *j = &t->j[k];
    for (int s = 0; s < 2; ++s) {
        if (j->body[s] < 0) continue;
        uint8_t apart = 0;
        for (int e = t->first[j->body[s]]; e >= 0 && !apart;) {
            const ledge__joint *o = &t->j[e];
            apart = o->alive && !(o->flags & LEDGE__JOINT_COLLIDE);
            e = o->body[0] == j->body[s] ? o->next[0] : o->next[1];
        }
        int slot = w->slot_of[j->body[s]];
        if (w->joined[slot] != apart) ledge__stir(w, slot); // the broad phase's plain flag
        w->joined[slot] = apart;
    }
}

static void degree_add(ledge__joints *t, int h, int by) {
    t->entry_bound += entries_of(t->degree[h] + by) - entries_of(t->degree[h]);
    t->degree[h] += by;
}

void ledge__joint_link(ledge_world *w, int k) {
    ledge__joints *t = w->joints;
    ledge__joint *j = &t->j[k];
    j->alive = 1;
    for (int s = 0; s < 2; ++s) {
        j->next[s] = -1;
        if (j->body[s] < 0) continue;
        j->next[s] = t->first[j->body[s]];
        t->first[j->body[s]] = k;
        degree_add(t, j->body[s], 1);
    }
    t->live++;
    ledge__joint_refresh_joined(w, k);
}

// Joint k out of body handle h's list.
static void unlink_from(ledge__joints *t, int h, int k) {
    int *at = &t->first[h];
    while (*at >= 0 && *at != k) {
        ledge__joint *o = &t->j[*at];
        at = o->body[0] == h ? &o->next[0] : &o->next[1];
    }
    if (*at == k) {
        ledge__joint *j = &t->j[k];
        *at = j->body[0] == h ? j->next[0] : j->next[1];
    }
}

// A character hanging from joint k (at either end) hangs no more.
static void unhang(ledge_world *w, int k) {
    const ledge__joint *j = &w->joints->j[k];
    for (int s = 0; s < 2; ++s) {
        ledge__character *c = ledge__character_at(w, ledge__joint_slot(w, j, s));
        if (c == NULL || c->state.hang_joint.index1 != (uint32_t)k + 1u ||
            c->state.hang_joint.generation != j->generation)
            continue;
        c->state.hanging = false;
        c->state.hang_joint = LEDGE_NULL_JOINT_ID;
        c->state.hang_anchor = v2(0.0f, 0.0f);
    }
}

void ledge__joint_kill(ledge_world *w, int k) {
    ledge__joints *t = w->joints;
    ledge__joint *j = &t->j[k];
    unhang(w, k);
    for (int s = 0; s < 2; ++s) {
        if (j->body[s] < 0) continue;
        unlink_from(t, j->body[s], k);
        degree_add(t, j->body[s], -1);
    }
    j->alive = 0;
    ledge__joint_refresh_joined(w, k);
    j->generation++;
    if (j->generation == 0) j->generation = 1;
    t->free[t->free_count++] = k;
    t->live--;
}

void ledge__joints_forget_body(ledge_world *w, int i, ledge__wake_fn *wake) {
    ledge__joints *t = w->joints;
    if (t == NULL || t->live == 0) return;
    int h = w->handle[i];
    if (h >= t->first_cap) return;
    while (t->first[h] >= 0) {
        int k = t->first[h];
        const ledge__joint *j = &t->j[k];
        int other = j->body[0] == h ? j->body[1] : j->body[0];
        if (other >= 0) wake(w, w->slot_of[other]);
        ledge__joint_kill(w, k);
    }
}

bool ledge__joints_keep_apart(const ledge_world *w, int a, int b) {
    const ledge__joints *t = w->joints;
    int ha = w->handle[a], hb = w->handle[b];
    if (t == NULL || ha >= t->first_cap) return false;
    for (int e = t->first[ha]; e >= 0;) {
        const ledge__joint *j = &t->j[e];
        int side = j->body[0] == ha ? 0 : 1;
        if (!(j->flags & LEDGE__JOINT_COLLIDE) && j->body[1 - side] == hb) return true;
        e = j->next[side];
    }
    return false;
}

int ledge__joint_slot(const ledge_world *w, const ledge__joint *j, int k) {
    return j->body[k] < 0 ? -1 : w->slot_of[j->body[k]];
}

vec2s ledge__joint_anchor(const ledge_world *w, const ledge__joint *j, int k) {
    int s = ledge__joint_slot(w, j, k);
    return s < 0 ? j->anchor[k] : v2_add(w->position[s], j->anchor[k]);
}

// --- sleeping together ----------------------------------------------------------
//
// The islands of dynamic bodies joined to each other, found by a
// union-find over their slots (node_of is the solve's scratch, free
// between substeps), in joint order.

static int find(int *parent, int i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static bool dynamic(const ledge_world *w, int s) {
    return s >= 0 && w->type[s] == LEDGE_BODY_DYNAMIC;
}

// The islands, and each root's flag in `held` (0). Returns false when the
// scratch is not there (no step has reserved it yet).
static bool islands(ledge_world *w) {
    ledge__joints *t = w->joints;
    if (t->node_of_cap < w->slot_count || t->held_cap < w->slot_count) return false;
    int *parent = t->node_of;
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        for (int s = 0; s < 2 && j->alive; ++s) {
            int slot = ledge__joint_slot(w, j, s);
            if (slot < 0) continue;
            parent[slot] = slot;
            t->held[slot] = 0;
        }
    }
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        int a = ledge__joint_slot(w, j, 0), b = ledge__joint_slot(w, j, 1);
        if (!j->alive || !dynamic(w, a) || !dynamic(w, b)) continue;
        int ra = find(parent, a), rb = find(parent, b);
        if (ra != rb) parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
    }
    return true;
}

// Flags the island of every dynamic side of joint j whose island `keeps`
// says must stay awake.
static void flag_islands(ledge_world *w, ledge__stays_fn *keeps) {
    ledge__joints *t = w->joints;
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        if (!j->alive) continue;
        for (int s = 0; s < 2; ++s) {
            int mine = ledge__joint_slot(w, j, s), other = ledge__joint_slot(w, j, 1 - s);
            if (!dynamic(w, mine)) continue;
            // A kinematic body at the other end (a platform, a character
            // hanging from it) keeps the island awake.
            bool kin = other >= 0 && w->type[other] == LEDGE_BODY_KINEMATIC;
            if (kin || keeps(w, mine)) t->held[find(t->node_of, mine)] = 1;
        }
    }
}

// The islands' flags back to 0: `held` is 0 between substeps but for
// the bodies a substep holds.
static void clear_flags(ledge_world *w) {
    ledge__joints *t = w->joints;
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        for (int s = 0; s < 2 && j->alive; ++s) {
            int slot = ledge__joint_slot(w, j, s);
            if (slot >= 0) t->held[slot] = 0;
        }
    }
}

static bool awake_body(const ledge_world *w, int s) {
    return !w->asleep[s];
}

void ledge__joints_wake(ledge_world *w, ledge__wake_fn *wake) {
    ledge__joints *t = w->joints;
    if (t == NULL || t->live == 0 || w->sleepers == 0 || !islands(w)) return;
    flag_islands(w, awake_body);
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        for (int s = 0; s < 2 && j->alive; ++s) {
            int slot = ledge__joint_slot(w, j, s);
            if (dynamic(w, slot) && w->asleep[slot] && t->held[find(t->node_of, slot)])
                wake(w, slot);
        }
    }
    clear_flags(w);
}

void ledge__joints_keep_awake(ledge_world *w, ledge__stays_fn *stays) {
    ledge__joints *t = w->joints;
    if (t == NULL || t->live == 0 || !islands(w)) return;
    flag_islands(w, stays);
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        for (int s = 0; s < 2 && j->alive; ++s) {
            int slot = ledge__joint_slot(w, j, s);
            if (dynamic(w, slot) && t->held[find(t->node_of, slot)]) w->step.sleepy[slot] = 0;
        }
    }
    clear_flags(w);
}
