// Joints (joint.h): the defs and their checks, creation and destruction in
// generation-checked slots (joints.c), the getters and setters.
#include "check.h"
#include "joints.h"
#include "sleep.h"
#include "slots.h"

#include <string.h>

static ledge_joint_def base_def(ledge_joint_type type) {
    ledge_joint_def d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.length = 1.0f;
    d.max_length = LEDGE_JOINT_MAX_LENGTH;
    d.axis = v2(1.0f, 0.0f);
    d.lower = -1.0f;
    d.upper = 1.0f;
    d.ground_a = v2(-1.0f, 1.0f);
    d.ground_b = v2(1.0f, 1.0f);
    d.ratio = 1.0f;
    return d;
}

ledge_joint_def ledge_default_rod_def(void) {
    return base_def(LEDGE_JOINT_ROD);
}

ledge_joint_def ledge_default_rope_def(void) {
    return base_def(LEDGE_JOINT_ROPE);
}

ledge_joint_def ledge_default_spring_def(void) {
    ledge_joint_def d = base_def(LEDGE_JOINT_SPRING);
    d.hertz = 2.0f;
    d.damping_ratio = 0.3f;
    return d;
}

ledge_joint_def ledge_default_weld_def(void) {
    ledge_joint_def d = base_def(LEDGE_JOINT_WELD);
    d.damping_ratio = 1.0f;
    return d;
}

ledge_joint_def ledge_default_slider_def(void) {
    return base_def(LEDGE_JOINT_SLIDER);
}

ledge_joint_def ledge_default_pulley_def(void) {
    ledge_joint_def d = base_def(LEDGE_JOINT_PULLEY);
    d.length = 4.0f;
    return d;
}

// --- checks -----------------------------------------------------------------

// A number in lo..hi (finite).
static bool within(const char *fn, const char *arg, float v, float lo, float hi) {
    if (isfinite(v) && v >= lo && v <= hi) return true;
    LEDGE_ERROR("%s: %s is %g (must be finite, %g..%g)", fn, arg, (double)v, (double)lo,
                (double)hi);
    return false;
}

static bool length_ok(const char *fn, const char *arg, float v) {
    return within(fn, arg, v, 0.0f, LEDGE_JOINT_MAX_LENGTH);
}

// lo <= hi, both already checked.
static bool ordered(const char *fn, const char *lo_arg, float lo, const char *hi_arg, float hi) {
    if (lo <= hi) return true;
    LEDGE_ERROR("%s: %s is %g, above %s %g", fn, lo_arg, (double)lo, hi_arg, (double)hi);
    return false;
}

static bool spring_ok(const char *fn, ledge_joint_type type, float hertz, float damping) {
    if (type == LEDGE_JOINT_SPRING && !(hertz > 0.0f)) {
        LEDGE_ERROR("%s: hertz is %g (a spring's must be > 0)", fn, (double)hertz);
        return false;
    }
    return within(fn, "hertz", hertz, 0.0f, LEDGE_JOINT_MAX_LENGTH) &&
           within(fn, "damping_ratio", damping, 0.0f, LEDGE_JOINT_MAX_LENGTH);
}

static bool limits_ok(const char *fn, const ledge_joint_def *d) {
    switch (d->type) {
    case LEDGE_JOINT_ROPE:
        return length_ok(fn, "min_length", d->min_length) &&
               ordered(fn, "min_length", d->min_length, "length", d->length);
    case LEDGE_JOINT_SPRING:
        return length_ok(fn, "min_length", d->min_length) &&
               length_ok(fn, "max_length", d->max_length) &&
               ordered(fn, "min_length", d->min_length, "max_length", d->max_length);
    case LEDGE_JOINT_SLIDER:
        return within(fn, "lower", d->lower, -LEDGE_JOINT_MAX_LENGTH, LEDGE_JOINT_MAX_LENGTH) &&
               within(fn, "upper", d->upper, -LEDGE_JOINT_MAX_LENGTH, LEDGE_JOINT_MAX_LENGTH) &&
               ordered(fn, "lower", d->lower, "upper", d->upper);
    default:
        return true;
    }
}

// What each kind reads of the def, checked.
static bool kind_ok(const char *fn, const ledge_joint_def *d) {
    switch (d->type) {
    case LEDGE_JOINT_ROD:
    case LEDGE_JOINT_ROPE:
        return length_ok(fn, "length", d->length) && limits_ok(fn, d);
    case LEDGE_JOINT_SPRING:
        return length_ok(fn, "length", d->length) && limits_ok(fn, d) &&
               spring_ok(fn, d->type, d->hertz, d->damping_ratio);
    case LEDGE_JOINT_WELD:
        return spring_ok(fn, d->type, d->hertz, d->damping_ratio);
    case LEDGE_JOINT_SLIDER:
        if (!ledge__check_vec(fn, "axis", d->axis, LEDGE_MAX_COORDINATE)) return false;
        if (!(v2_len(d->axis) > 1e-6f)) {
            LEDGE_ERROR("%s: axis is (%g, %g) (must not be zero)", fn, (double)d->axis.x,
                        (double)d->axis.y);
            return false;
        }
        return limits_ok(fn, d) &&
               within(fn, "motor_speed", d->motor_speed, -LEDGE_MAX_COORDINATE,
                      LEDGE_MAX_COORDINATE) &&
               within(fn, "max_motor_force", d->max_motor_force, 0.0f, LEDGE_MAX_MASS);
    default: // pulley
        return ledge__check_vec(fn, "ground_a", d->ground_a, LEDGE_MAX_COORDINATE) &&
               ledge__check_vec(fn, "ground_b", d->ground_b, LEDGE_MAX_COORDINATE) &&
               length_ok(fn, "length", d->length) &&
               within(fn, "ratio", d->ratio, 1e-6f, LEDGE_JOINT_MAX_LENGTH);
    }
}

// The bodies: one may be the null id (a world point), not both, and not
// one body twice. Fills their slots (-1: none).
static bool bodies_ok(const ledge_world *w, const ledge_joint_def *d, int *a, int *b) {
    const char *fn = "ledge_joint_create";
    *a = *b = -1;
    if (d->body_a.index1 == 0 && d->body_b.index1 == 0) {
        LEDGE_ERROR("%s: body_a and body_b are both the null id (a joint needs a body)", fn);
        return false;
    }
    if (d->body_a.index1 != 0 && (*a = ledge__world_slot(w, d->body_a, fn)) < 0) return false;
    if (d->body_b.index1 != 0 && (*b = ledge__world_slot(w, d->body_b, fn)) < 0) return false;
    if (*a >= 0 && *a == *b) {
        LEDGE_ERROR("%s: body_a and body_b are the same body {%u, %u} (a body joined to itself)",
                    fn, d->body_a.index1, d->body_a.generation);
        return false;
    }
    return true;
}

static bool def_ok(const ledge_world *w, const ledge_joint_def *d, int *a, int *b) {
    const char *fn = "ledge_joint_create";
    if ((unsigned)d->type > (unsigned)LEDGE_JOINT_PULLEY) {
        LEDGE_ERROR("%s: type is %d (must be a ledge_joint_type)", fn, (int)d->type);
        return false;
    }
    return bodies_ok(w, d, a, b) &&
           ledge__check_vec(fn, "anchor_a", d->anchor_a, LEDGE_MAX_COORDINATE) &&
           ledge__check_vec(fn, "anchor_b", d->anchor_b, LEDGE_MAX_COORDINATE) && kind_ok(fn, d);
}

// --- lifecycle ----------------------------------------------------------------

static bool writable(const ledge_world *w, const char *fn) {
    if (!w->stepping) return true;
    LEDGE_ERROR("%s: the world is stepping", fn);
    return false;
}

// Wakes the bodies of joint j (its rule changed).
static void wake_bodies(ledge_world *w, const ledge__joint *j) {
    for (int s = 0; s < 2; ++s) {
        int slot = ledge__joint_slot(w, j, s);
        if (slot >= 0) ledge__wake(w, slot);
    }
}

ledge_joint_id ledge_joint_create(ledge_world *world, const ledge_joint_def *def) {
    const char *fn = "ledge_joint_create";
    ledge_joint_id none = LEDGE_NULL_JOINT_ID;
    if (world == NULL || def == NULL) {
        LEDGE_ERROR("%s: %s is NULL", fn, world == NULL ? "world" : "def");
        return none;
    }
    int a, b;
    if (!writable(world, fn) || !def_ok(world, def, &a, &b)) return none;
    int handles = 0;
    if (a >= 0) handles = world->handle[a] + 1;
    if (b >= 0 && world->handle[b] + 1 > handles) handles = world->handle[b] + 1;
    int k = ledge__joint_take(world, handles, fn);
    if (k < 0) return none;
    ledge__joint *j = &world->joints->j[k];
    j->type = (uint8_t)def->type;
    j->flags = (uint8_t)((def->collide_connected ? LEDGE__JOINT_COLLIDE : 0u) |
                         (def->enable_limit ? LEDGE__JOINT_LIMIT : 0u) |
                         (def->enable_motor ? LEDGE__JOINT_MOTOR : 0u));
    j->body[0] = a >= 0 ? world->handle[a] : -1;
    j->body[1] = b >= 0 ? world->handle[b] : -1;
    j->anchor[0] = def->anchor_a;
    j->anchor[1] = def->anchor_b;
    j->length = def->length;
    j->min_length = def->min_length;
    j->max_length = def->type == LEDGE_JOINT_SPRING ? def->max_length : LEDGE_JOINT_MAX_LENGTH;
    j->hertz = def->hertz;
    j->damping = def->damping_ratio;
    j->lower = def->lower;
    j->upper = def->upper;
    j->motor_speed = def->motor_speed;
    j->max_motor_force = def->max_motor_force;
    j->ratio = def->type == LEDGE_JOINT_PULLEY ? def->ratio : 1.0f;
    j->axis = def->type == LEDGE_JOINT_SLIDER ? v2_normalize(def->axis) : v2(1.0f, 0.0f);
    j->ground[0] = def->ground_a;
    j->ground[1] = def->ground_b;
    j->user_data = def->user_data;
    ledge__joint_link(world, k);
    wake_bodies(world, j);
    return ledge__joint_id(world, k);
}

void ledge_joint_destroy(ledge_world *world, ledge_joint_id id) {
    const char *fn = "ledge_joint_destroy";
    ledge__joint *j = ledge__joint_find(world, id, fn);
    if (j == NULL || !writable(world, fn)) return;
    wake_bodies(world, j);
    ledge__joint_kill(world, (int)id.index1 - 1);
}

bool ledge_joint_is_valid(const ledge_world *world, ledge_joint_id id) {
    if (world == NULL || world->joints == NULL || id.index1 == 0 || id.world != world->serial ||
        id.index1 > (uint32_t)world->joints->used)
        return false;
    const ledge__joint *j = &world->joints->j[id.index1 - 1u];
    return j->alive && j->generation == id.generation;
}

// --- getters ----------------------------------------------------------------------

static ledge_body_id body_id(const ledge_world *w, const ledge__joint *j, int s) {
    return ledge__body_id(w, ledge__joint_slot(w, j, s));
}

ledge_joint_type ledge_joint_get_type(const ledge_world *world, ledge_joint_id id) {
    const ledge__joint *j = ledge__joint_find(world, id, "ledge_joint_get_type");
    return j == NULL ? LEDGE_JOINT_ROD : (ledge_joint_type)j->type;
}

bool ledge_joint_get_def(const ledge_world *world, ledge_joint_id id, ledge_joint_def *out) {
    const char *fn = "ledge_joint_get_def";
    if (out == NULL) {
        LEDGE_ERROR("%s: out is NULL", fn);
        return false;
    }
    memset(out, 0, sizeof *out);
    const ledge__joint *j = ledge__joint_find(world, id, fn);
    if (j == NULL) return false;
    out->type = (ledge_joint_type)j->type;
    out->body_a = body_id(world, j, 0);
    out->body_b = body_id(world, j, 1);
    out->anchor_a = j->anchor[0];
    out->anchor_b = j->anchor[1];
    out->length = j->length;
    out->min_length = j->min_length;
    out->max_length = j->max_length;
    out->hertz = j->hertz;
    out->damping_ratio = j->damping;
    out->axis = j->axis;
    out->enable_limit = (j->flags & LEDGE__JOINT_LIMIT) != 0;
    out->lower = j->lower;
    out->upper = j->upper;
    out->enable_motor = (j->flags & LEDGE__JOINT_MOTOR) != 0;
    out->motor_speed = j->motor_speed;
    out->max_motor_force = j->max_motor_force;
    out->ground_a = j->ground[0];
    out->ground_b = j->ground[1];
    out->ratio = j->ratio;
    out->collide_connected = (j->flags & LEDGE__JOINT_COLLIDE) != 0;
    out->user_data = j->user_data;
    return true;
}

ledge_body_id ledge_joint_body_a(const ledge_world *world, ledge_joint_id id) {
    const ledge__joint *j = ledge__joint_find(world, id, "ledge_joint_body_a");
    return j == NULL ? LEDGE_NULL_BODY_ID : body_id(world, j, 0);
}

ledge_body_id ledge_joint_body_b(const ledge_world *world, ledge_joint_id id) {
    const ledge__joint *j = ledge__joint_find(world, id, "ledge_joint_body_b");
    return j == NULL ? LEDGE_NULL_BODY_ID : body_id(world, j, 1);
}

vec2s ledge_joint_anchor_a(const ledge_world *world, ledge_joint_id id) {
    const ledge__joint *j = ledge__joint_find(world, id, "ledge_joint_anchor_a");
    return j == NULL ? v2(0.0f, 0.0f) : ledge__joint_anchor(world, j, 0);
}

vec2s ledge_joint_anchor_b(const ledge_world *world, ledge_joint_id id) {
    const ledge__joint *j = ledge__joint_find(world, id, "ledge_joint_anchor_b");
    return j == NULL ? v2(0.0f, 0.0f) : ledge__joint_anchor(world, j, 1);
}

float ledge_joint_current_length(const ledge_world *world, ledge_joint_id id) {
    const ledge__joint *j = ledge__joint_find(world, id, "ledge_joint_current_length");
    if (j == NULL) return 0.0f;
    vec2s a = ledge__joint_anchor(world, j, 0), b = ledge__joint_anchor(world, j, 1);
    switch (j->type) {
    case LEDGE_JOINT_SLIDER:
        return v2_dot(v2_sub(b, a), j->axis);
    case LEDGE_JOINT_PULLEY:
        return v2_len(v2_sub(a, j->ground[0])) + j->ratio * v2_len(v2_sub(b, j->ground[1]));
    default:
        return v2_len(v2_sub(b, a));
    }
}

vec2s ledge_joint_force(const ledge_world *world, ledge_joint_id id) {
    const ledge__joint *j = ledge__joint_find(world, id, "ledge_joint_force");
    return j == NULL ? v2(0.0f, 0.0f) : j->force;
}

void *ledge_joint_user_data(const ledge_world *world, ledge_joint_id id) {
    const ledge__joint *j = ledge__joint_find(world, id, "ledge_joint_user_data");
    return j == NULL ? NULL : j->user_data;
}

int ledge_world_joint_count(const ledge_world *world) {
    if (world == NULL) {
        LEDGE_ERROR("ledge_world_joint_count: world is NULL");
        return 0;
    }
    return world->joints != NULL ? world->joints->live : 0;
}

int ledge_body_joints(const ledge_world *world, ledge_body_id body, ledge_joint_id *out,
                      int capacity) {
    const char *fn = "ledge_body_joints";
    int i = ledge__world_slot(world, body, fn);
    if (i < 0) return -1;
    if (capacity < 0 || (out == NULL && capacity > 0)) {
        LEDGE_ERROR("%s: out is %s and capacity %d (need room for capacity ids)", fn,
                    out ? "set" : "NULL", capacity);
        return -1;
    }
    const ledge__joints *t = world->joints;
    int h = world->handle[i], n = 0;
    for (int k = 0; t != NULL && k < t->used; ++k) { // by index: the order restores keep
        const ledge__joint *j = &t->j[k];
        if (!j->alive || (j->body[0] != h && j->body[1] != h)) continue;
        if (n < capacity) out[n] = ledge__joint_id(world, k);
        n++;
    }
    return n;
}

// --- setters ------------------------------------------------------------------------

// The joint of id, writable (not stepping), or NULL (logged).
static ledge__joint *writable_joint(ledge_world *w, ledge_joint_id id, const char *fn) {
    ledge__joint *j = ledge__joint_find(w, id, fn);
    return j != NULL && writable(w, fn) ? j : NULL;
}

static bool kind_is(const char *fn, const ledge__joint *j, unsigned kinds, const char *what) {
    if (kinds & (1u << j->type)) return true;
    LEDGE_ERROR("%s: the joint is of type %d (%s)", fn, (int)j->type, what);
    return false;
}

bool ledge_joint_set_length(ledge_world *world, ledge_joint_id id, float length) {
    const char *fn = "ledge_joint_set_length";
    ledge__joint *j = writable_joint(world, id, fn);
    unsigned kinds = 1u << LEDGE_JOINT_ROD | 1u << LEDGE_JOINT_ROPE | 1u << LEDGE_JOINT_SPRING |
                     1u << LEDGE_JOINT_PULLEY;
    if (j == NULL || !kind_is(fn, j, kinds, "a rod, rope, spring or pulley has a length") ||
        !length_ok(fn, "length", length))
        return false;
    if (j->type == LEDGE_JOINT_ROPE && !ordered(fn, "min_length", j->min_length, "length", length))
        return false;
    j->length = length;
    wake_bodies(world, j);
    return true;
}

bool ledge_joint_set_limits(ledge_world *world, ledge_joint_id id, float lower, float upper) {
    const char *fn = "ledge_joint_set_limits";
    ledge__joint *j = writable_joint(world, id, fn);
    unsigned kinds = 1u << LEDGE_JOINT_ROPE | 1u << LEDGE_JOINT_SPRING | 1u << LEDGE_JOINT_SLIDER;
    if (j == NULL || !kind_is(fn, j, kinds, "a rope, spring or slider has limits")) return false;
    if (j->type == LEDGE_JOINT_SLIDER) {
        if (!within(fn, "lower", lower, -LEDGE_JOINT_MAX_LENGTH, LEDGE_JOINT_MAX_LENGTH) ||
            !within(fn, "upper", upper, -LEDGE_JOINT_MAX_LENGTH, LEDGE_JOINT_MAX_LENGTH) ||
            !ordered(fn, "lower", lower, "upper", upper))
            return false;
        j->lower = lower;
        j->upper = upper;
        j->flags |= LEDGE__JOINT_LIMIT;
    } else {
        if (!length_ok(fn, "lower", lower) || !length_ok(fn, "upper", upper) ||
            !ordered(fn, "lower", lower, "upper", upper))
            return false;
        j->min_length = lower;
        if (j->type == LEDGE_JOINT_ROPE) {
            j->length = upper;
        } else {
            j->max_length = upper;
        }
    }
    wake_bodies(world, j);
    return true;
}

bool ledge_joint_set_spring(ledge_world *world, ledge_joint_id id, float hertz,
                            float damping_ratio) {
    const char *fn = "ledge_joint_set_spring";
    ledge__joint *j = writable_joint(world, id, fn);
    unsigned kinds = 1u << LEDGE_JOINT_SPRING | 1u << LEDGE_JOINT_WELD;
    if (j == NULL || !kind_is(fn, j, kinds, "a spring or weld has a frequency") ||
        !spring_ok(fn, (ledge_joint_type)j->type, hertz, damping_ratio))
        return false;
    j->hertz = hertz;
    j->damping = damping_ratio;
    wake_bodies(world, j);
    return true;
}

bool ledge_joint_set_motor(ledge_world *world, ledge_joint_id id, bool enable, float speed,
                           float max_force) {
    const char *fn = "ledge_joint_set_motor";
    ledge__joint *j = writable_joint(world, id, fn);
    if (j == NULL || !kind_is(fn, j, 1u << LEDGE_JOINT_SLIDER, "a slider has a motor") ||
        !within(fn, "speed", speed, -LEDGE_MAX_COORDINATE, LEDGE_MAX_COORDINATE) ||
        !within(fn, "max_force", max_force, 0.0f, LEDGE_MAX_MASS))
        return false;
    j->flags = (uint8_t)(enable ? j->flags | LEDGE__JOINT_MOTOR : j->flags & ~LEDGE__JOINT_MOTOR);
    j->motor_speed = speed;
    j->max_motor_force = max_force;
    wake_bodies(world, j);
    return true;
}

bool ledge_joint_set_collide_connected(ledge_world *world, ledge_joint_id id, bool collide) {
    const char *fn = "ledge_joint_set_collide_connected";
    ledge__joint *j = writable_joint(world, id, fn);
    if (j == NULL) return false;
    j->flags =
        (uint8_t)(collide ? j->flags | LEDGE__JOINT_COLLIDE : j->flags & ~LEDGE__JOINT_COLLIDE);
    ledge__joint_refresh_joined(world, (int)id.index1 - 1);
    wake_bodies(world, j);
    return true;
}

bool ledge_joint_set_user_data(ledge_world *world, ledge_joint_id id, void *user_data) {
    ledge__joint *j = writable_joint(world, id, "ledge_joint_set_user_data");
    if (j == NULL) return false;
    j->user_data = user_data;
    return true;
}
