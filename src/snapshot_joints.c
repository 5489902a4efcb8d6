// Snapshots: the joint table (joints.h): the indices used, the free list
// in its order (it decides the ids the next joints get), each index's
// generation, and each living joint's def as it stands (its body handles,
// anchors, lengths, limits, spring, motor, pulley), user data and last
// force. What the table derives (each body's joints, its degree, the
// bodies kept apart) is made again; the solve keeps nothing across steps.
#include "joints.h"
#include "snapshot_joints.h"

#include <string.h>

enum { FLAGS = LEDGE__JOINT_COLLIDE | LEDGE__JOINT_LIMIT | LEDGE__JOINT_MOTOR };

void ledge__snap_joints_put(const ledge_world *w, ledge__writer *o) {
    const ledge__joints *t = w->joints;
    int used = t != NULL ? t->used : 0;
    ledge__put_var(o, (uint64_t)used);
    if (used == 0) return;
    ledge__put_var(o, (uint64_t)t->free_count);
    for (int k = 0; k < t->free_count; ++k) ledge__put_var(o, (uint64_t)t->free[k]);
    for (int k = 0; k < used; ++k) {
        const ledge__joint *j = &t->j[k];
        ledge__put_var(o, j->generation);
        ledge__put_u8(o, j->alive);
        if (!j->alive) continue;
        ledge__put_u8(o, j->type);
        ledge__put_u8(o, j->flags);
        ledge__put_svar(o, j->body[0]);
        ledge__put_svar(o, j->body[1]);
        ledge__put_vec(o, j->anchor[0]);
        ledge__put_vec(o, j->anchor[1]);
        const float f[] = {j->length, j->min_length, j->max_length,  j->hertz,           j->damping,
                           j->lower,  j->upper,      j->motor_speed, j->max_motor_force, j->ratio};
        for (size_t e = 0; e < sizeof f / sizeof f[0]; ++e) ledge__put_f32(o, f[e]);
        ledge__put_vec(o, j->axis);
        ledge__put_vec(o, j->ground[0]);
        ledge__put_vec(o, j->ground[1]);
        ledge__put_u64(o, (uint64_t)(uintptr_t)j->user_data);
        ledge__put_vec(o, j->force);
    }
}

// A body handle of the snapshot: -1 (a world point) or a living body's.
// slot_of: step.order by handle (made from the body section's handles).
static int get_body(ledge__reader *r, const ledge_world *w, int slots) {
    int64_t h = ledge__get_svar(r);
    if (r->failed) return -1;
    if (h < -1 || h >= slots) {
        ledge__read_fail(r, "a joint's body handle is %lld (-1..%d)", (long long)h, slots - 1);
        return -1;
    }
    if (h >= 0 && !ledge__snap_alive(w, w->step.order[h])) {
        ledge__read_fail(r, "a joint's body %lld is dead", (long long)h);
        return -1;
    }
    return (int)h;
}

// A joint's def, checked as ledge_joint_create checks it (the ranges).
static bool get_joint(ledge__reader *r, const ledge_world *w, int slots, ledge__joint *j) {
    const float far = LEDGE_MAX_COORDINATE, most = LEDGE_JOINT_MAX_LENGTH;
    j->type = (uint8_t)ledge__get_count(r, LEDGE_JOINT_PULLEY, "a joint's type");
    j->flags = ledge__get_u8(r);
    if (j->flags & ~(unsigned)FLAGS) return ledge__read_fail(r, "a joint's flags are %u", j->flags);
    j->body[0] = get_body(r, w, slots);
    j->body[1] = get_body(r, w, slots);
    if (r->failed) return false;
    if (j->body[0] == j->body[1])
        return ledge__read_fail(r, "a joint joins body %d to itself", j->body[0]);
    j->anchor[0] = ledge__get_vec_within(r, far, "a joint's anchor");
    j->anchor[1] = ledge__get_vec_within(r, far, "a joint's anchor");
    j->length = ledge__get_within(r, most, "a joint's length");
    j->min_length = ledge__get_within(r, most, "a joint's min_length");
    j->max_length = ledge__get_within(r, most, "a joint's max_length");
    j->hertz = ledge__get_within(r, most, "a joint's hertz");
    j->damping = ledge__get_within(r, most, "a joint's damping");
    j->lower = ledge__get_within(r, most, "a joint's lower");
    j->upper = ledge__get_within(r, most, "a joint's upper");
    j->motor_speed = ledge__get_within(r, far, "a joint's motor speed");
    j->max_motor_force = ledge__get_within(r, LEDGE_MAX_MASS, "a joint's motor force");
    j->ratio = ledge__get_within(r, most, "a joint's ratio");
    j->axis = ledge__get_vec_within(r, 2.0f, "a joint's axis");
    j->ground[0] = ledge__get_vec_within(r, far, "a joint's ground");
    j->ground[1] = ledge__get_vec_within(r, far, "a joint's ground");
    j->user_data = (void *)(uintptr_t)ledge__get_u64(r);
    j->force = ledge__get_vec_within(r, 3.0e38f, "a joint's force");
    if (r->failed) return false;
    float axis = v2_len(j->axis);
    if (!(j->length >= 0.0f && j->min_length >= 0.0f && j->max_length >= j->min_length &&
          j->hertz >= 0.0f && j->damping >= 0.0f && j->lower <= j->upper &&
          j->max_motor_force >= 0.0f && j->ratio >= 1e-6f && axis > 0.999f && axis < 1.001f) ||
        (j->type == LEDGE_JOINT_ROPE && j->min_length > j->length) ||
        (j->type == LEDGE_JOINT_SPRING && !(j->hertz > 0.0f)))
        return ledge__read_fail(r, "a joint's def is out of its ranges");
    return true;
}

// step.order by handle: each handle's slot in the snapshot (the body
// section's handles; the sections before this one are done with it).
static void slots_by_handle(ledge_world *w, const ledge__snap_plan *plan) {
    const ledge__snap_body_cols *c = &plan->bodies;
    for (int i = 0; i < c->slots; ++i)
        w->step.order[ledge__load_u32(c->handle + 4 * (size_t)i)] = i;
}

// The first reading's check of the free list (each index once, each a
// dead joint's, all of them), with `mark` one byte per joint: 1 alive.
static bool check_free(ledge__reader *r, uint8_t *mark, int used, int free_count, size_t at) {
    int dead = 0;
    for (int k = 0; k < used; ++k) dead += mark[k] == 0;
    if (free_count != dead)
        return ledge__read_fail(r, "%d joints are free of %d dead", free_count, dead);
    ledge__reader again = *r;
    again.at = at;
    for (int k = 0; k < free_count; ++k) {
        int e = (int)ledge__get_count(&again, (uint64_t)used - 1u, "a free joint");
        if (mark[e] != 0) return ledge__read_fail(r, "free joint %d is alive or listed twice", e);
        mark[e] = 2;
    }
    return true;
}

bool ledge__snap_joints_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan, bool apply) {
    int slots = plan->slots;
    int used = (int)ledge__get_count(r, (uint64_t)(r->end - r->at), "the joints");
    plan->joints = used;
    plan->joint_handles = slots;
    ledge__joints *t = w->joints;
    if (apply && t != NULL) { // the table empties; what it derives is found again below
        t->used = t->live = t->free_count = 0;
        for (int h = 0; h < t->first_cap; ++h) t->first[h] = -1;
        if (t->degree_cap > 0) memset(t->degree, 0, sizeof *t->degree * (size_t)t->degree_cap);
        t->entry_bound = 0;
    }
    if (apply) memset(w->joined, 0, (size_t)w->slot_count);
    if (used == 0 || r->failed) return !r->failed;
    uint8_t *mark = NULL;
    if (!apply) {
        slots_by_handle(w, plan);
        t = ledge__joints_of(w);
        if (t == NULL || !LEDGE__RESERVE(t->kind, t->kind_cap, used, 0, 16)) {
            r->no_room = true;
            return ledge__read_fail(r, "allocation for %d joints failed", used);
        }
        mark = t->kind; // the solve's scratch, free between steps
    }
    int free_count = (int)ledge__get_count(r, (uint64_t)used, "the free joints");
    size_t free_at = r->at;
    for (int k = 0; k < free_count && !r->failed; ++k) {
        int e = (int)ledge__get_count(r, (uint64_t)used - 1u, "a free joint");
        if (apply) t->free[k] = e;
    }
    for (int k = 0; k < used && !r->failed; ++k) {
        ledge__joint j;
        memset(&j, 0, sizeof j);
        j.generation = (uint32_t)ledge__get_count(r, UINT32_MAX, "a joint's generation");
        unsigned alive = ledge__get_u8(r);
        if (alive > 1u) return ledge__read_fail(r, "a joint's alive flag is %u", alive);
        j.alive = (uint8_t)alive;
        if (alive && !get_joint(r, w, slots, &j)) break;
        if (apply) {
            j.next[0] = j.next[1] = -1;
            t->j[k] = j;
        } else {
            mark[k] = (uint8_t)alive;
        }
    }
    if (r->failed) return false;
    if (!apply) return check_free(r, mark, used, free_count, free_at);
    t->used = used;
    t->free_count = free_count;
    for (int k = 0; k < used; ++k) {
        if (t->j[k].alive) ledge__joint_link(w, k);
    }
    return true;
}

bool ledge__snap_joints_reserve(ledge_world *w, const ledge__snap_plan *plan) {
    if (plan->joints == 0) return true;
    ledge__joints *t = ledge__joints_of(w);
    int handles = plan->joint_handles;
    int old_first = t != NULL ? t->first_cap : 0;
    if (t == NULL || !LEDGE__RESERVE(t->j, t->cap, plan->joints, t->used, 16) ||
        !LEDGE__RESERVE(t->free, t->free_cap, t->cap, t->free_count, 16) ||
        !LEDGE__RESERVE(t->first, t->first_cap, handles, old_first, 16) ||
        !LEDGE__RESERVE(t->degree, t->degree_cap, handles, old_first, 16))
        return false;
    for (int h = old_first; h < t->first_cap; ++h) t->first[h] = -1;
    return true;
}
