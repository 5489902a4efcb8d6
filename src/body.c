// Bodies: definitions, creation and destruction in generation-checked
// slots, and the per-body getters and setters.
#include "body_store.h"
#include "joints.h"
#include "query_index.h"
#include "resolve.h"
#include "shape.h"
#include "sleep.h"
#include "slots.h"
#include "check.h"
#include "material.h"
#include "world_state.h"

#include <limits.h>

#include <string.h>

ledge_filter ledge_default_filter(void) {
    ledge_filter f = {1u, ~(uint64_t)0, 0};
    return f;
}

ledge_body_def ledge_default_body_def(void) {
    ledge_body_def def;
    memset(&def, 0, sizeof def);
    def.type = LEDGE_BODY_DYNAMIC;
    def.shape.type = LEDGE_SHAPE_INVALID;
    def.density = 1.0f;
    def.gravity_scale = 1.0f;
    def.filter = ledge_default_filter();
    def.max_floor_angle = 50.0f * (float)LEDGE_PI / 180.0f;
    return def;
}

// A unit interval check for friction and bounce.
static bool unit_ok(const char *arg, float v) {
    return ledge__check_unit("ledge_body_create", arg, v);
}

static bool finite_ok(const char *fn, const char *arg, float v, float lo) {
    if (isfinite(v) && v >= lo && v <= LEDGE_MAX_COORDINATE) return true;
    LEDGE_ERROR("%s: %s is %g (must be finite, %g..%g)", fn, arg, (double)v, (double)lo,
                (double)LEDGE_MAX_COORDINATE);
    return false;
}

// The platformer fields: one-way direction, response, floor angle.
static bool platform_ok(const ledge_body_def *d) {
    if ((int)d->one_way < LEDGE_ONE_WAY_NONE || (int)d->one_way > LEDGE_ONE_WAY_RIGHT) {
        LEDGE_ERROR("ledge_body_create: one_way is %d (must be a ledge_one_way)", (int)d->one_way);
        return false;
    }
    if ((int)d->response < LEDGE_RESPONSE_SLIDE || (int)d->response > LEDGE_RESPONSE_CROSS) {
        LEDGE_ERROR("ledge_body_create: response is %d (must be a ledge_response)",
                    (int)d->response);
        return false;
    }
    if (!(d->max_floor_angle >= 0.0f && d->max_floor_angle <= 0.5f * (float)LEDGE_PI)) {
        LEDGE_ERROR("ledge_body_create: max_floor_angle is %g (must be 0..pi/2)",
                    (double)d->max_floor_angle);
        return false;
    }
    return true;
}

// A dynamic body's mass must be a number whose inverse is finite too: a
// density of 1e-30 on a small shape gave a mass whose inverse was
// infinite, and the projection then divided infinity by infinity.
static bool mass_ok(const ledge_body_def *d) {
    if (d->type != LEDGE_BODY_DYNAMIC) return true;
    float mass = d->density * ledge_shape_area(&d->shape);
    if (mass >= LEDGE_MIN_MASS && mass <= LEDGE_MAX_MASS) return true;
    LEDGE_ERROR("ledge_body_create: density %g gives a mass of %g (must be %g..%g)",
                (double)d->density, (double)mass, (double)LEDGE_MIN_MASS, (double)LEDGE_MAX_MASS);
    return false;
}

static bool body_def_ok(const ledge_body_def *d) {
    const char *fn = "ledge_body_create";
    if (d->type != LEDGE_BODY_STATIC && d->type != LEDGE_BODY_KINEMATIC &&
        d->type != LEDGE_BODY_DYNAMIC) {
        LEDGE_ERROR("ledge_body_create: type is %d (must be a ledge_body_type)", (int)d->type);
        return false;
    }
    if (!ledge_shape_is_valid(&d->shape)) {
        LEDGE_ERROR("ledge_body_create: shape is invalid (make it with ledge_make_*)");
        return false;
    }
    if (!ledge__shape_is_made(&d->shape)) {
        LEDGE_ERROR("ledge_body_create: shape was changed after ledge_make_* made it (its "
                    "centre, bounds, normals or axes disagree with its vertices, or it is no "
                    "longer convex)");
        return false;
    }
    return ledge__check_vec(fn, "position", d->position, LEDGE_MAX_COORDINATE) &&
           ledge__check_vec(fn, "velocity", d->velocity, LEDGE_MAX_COORDINATE) &&
           (d->type != LEDGE_BODY_DYNAMIC || ledge__check_size(fn, "density", d->density)) &&
           unit_ok("friction", d->friction) && unit_ok("bounce", d->bounce) &&
           ledge__check_speed(fn, "surface_speed", d->surface_speed) &&
           ledge__check_friction_mix(fn, "friction_mix", (int)d->friction_mix) &&
           finite_ok(fn, "gravity_scale", d->gravity_scale, -LEDGE_MAX_COORDINATE) &&
           finite_ok(fn, "drag", d->drag, 0.0f) && platform_ok(d) && mass_ok(d);
}

ledge_body_id ledge_body_create(ledge_world *world, const ledge_body_def *def) {
    ledge_body_id none = LEDGE_NULL_BODY_ID;
    if (world == NULL || def == NULL) {
        LEDGE_ERROR("ledge_body_create: %s is NULL", world == NULL ? "world" : "def");
        return none;
    }
    if (world->stepping) {
        LEDGE_ERROR("ledge_body_create: the world is stepping");
        return none;
    }
    if (!body_def_ok(def)) return none;
    // Room for its shape first: nothing below fails once the slot is taken.
    if (!ledge__shapes_reserve(&world->shapes, 1)) {
        LEDGE_ERROR("ledge_body_create: allocation of the shape table failed");
        return none;
    }
    int i = ledge__store_take_slot(world);
    if (i < 0) return none;
    world->alive[i] = 1;
    ledge__stir(world, i);
    world->type[i] = (uint8_t)def->type;
    world->bullet[i] = def->bullet;
    world->position[i] = def->position;
    // Where it was when the substep began, for a body the step does not
    // move (static, asleep, frozen): where it is (one-way rules, resolve.c).
    world->last_position[i] = def->position;
    world->velocity[i] = def->type == LEDGE_BODY_STATIC ? v2(0.0f, 0.0f) : def->velocity;
    float mass = def->density * ledge_shape_area(&def->shape);
    world->inv_mass[i] = def->type == LEDGE_BODY_DYNAMIC && mass > 0.0f ? 1.0f / mass : 0.0f;
    world->friction[i] = def->friction;
    world->bounce[i] = def->bounce;
    world->surface_speed[i] = def->surface_speed;
    world->friction_mix[i] = (uint8_t)def->friction_mix;
    world->gravity_scale[i] = def->gravity_scale;
    world->drag[i] = def->drag;
    world->filter[i] = def->filter;
    world->user_data[i] = def->user_data;
    world->shape_id[i] = ledge__shapes_add(&world->shapes, &def->shape, 1);
    world->circle[i] = def->shape.type == LEDGE_SHAPE_CIRCLE;
    world->tile_seen[i].x0 = INT_MIN; // nothing remembered for this slot's new body
    world->tile_seen_near[i] = 0;
    world->frozen[i] = 0;
    world->sensor[i] = def->sensor;
    world->touch_events[i] = def->enable_events;
    world->event_bodies += def->enable_events;
    world->one_way[i] = (uint8_t)def->one_way;
    world->floor_cos[i] = cosf(def->max_floor_angle);
    world->policy[i] = (uint8_t)def->response;
    world->dropping[i] = 0;
    world->joined[i] = 0;
    world->asleep[i] = 0;
    world->sleep_timer[i] = 0.0f;
    world->sleep_inv_mass[i] = 0.0f;
    world->prev_velocity[i] = world->velocity[i];
    ledge_aabb b = def->shape.bounds;
    world->box_offset[i] = v2_scale(v2_add(b.lower, b.upper), 0.5f);
    world->box_half[i] = v2_scale(v2_sub(b.upper, b.lower), 0.5f);
    // The grid's cells follow the largest dynamic body; larger static and
    // kinematic bodies (level geometry, platforms) are handled apart.
    float extent = 2.0f * maxf(world->box_half[i].x, world->box_half[i].y);
    if (def->type == LEDGE_BODY_DYNAMIC) world->max_extent = maxf(world->max_extent, extent);
    world->live_count++;
    ledge__query_refile(world, i);
    return ledge__body_id(world, i);
}

void ledge_body_destroy(ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_destroy");
    if (i < 0) return;
    if (world->stepping) {
        LEDGE_ERROR("ledge_body_destroy: the world is stepping");
        return;
    }
    ledge__wake(world, i);
    ledge__sleep_wake_touching(world, i);             // what it held up falls
    ledge__joints_forget_body(world, i, ledge__wake); // its joints die with it
    ledge__forget_contacts(world, i);
    ledge__store_release(world, i);
    ledge__query_refile(world, i);
}

bool ledge_body_id_equals(ledge_body_id a, ledge_body_id b) {
    return LEDGE_ID_EQUALS(a, b);
}

bool ledge_body_is_valid(const ledge_world *world, ledge_body_id id) {
    if (world == NULL) return false;
    return ledge__live_slot(world, id) >= 0;
}

vec2s ledge_body_position(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_position");
    return i < 0 ? v2(0.0f, 0.0f) : world->position[i];
}

vec2s ledge_body_velocity(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_velocity");
    return i < 0 ? v2(0.0f, 0.0f) : world->velocity[i];
}

ledge_body_type ledge_body_get_type(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_get_type");
    return i < 0 ? LEDGE_BODY_STATIC : (ledge_body_type)world->type[i];
}

const ledge_shape *ledge_body_shape(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_shape");
    return i < 0 ? NULL : ledge__shape_of(world, i);
}

float ledge_body_mass(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_mass");
    if (i < 0) return 0.0f;
    float inv = world->asleep[i] ? world->sleep_inv_mass[i] : world->inv_mass[i];
    return inv == 0.0f ? 0.0f : 1.0f / inv;
}

ledge_filter ledge_body_filter(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_filter");
    return i < 0 ? ledge_default_filter() : world->filter[i];
}

void *ledge_body_user_data(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_user_data");
    return i < 0 ? NULL : world->user_data[i];
}

// Setters share the id and stepping checks.
static int writable_slot(ledge_world *world, ledge_body_id id, const char *fn) {
    int i = ledge__world_slot(world, id, fn);
    if (i >= 0 && world->stepping) {
        LEDGE_ERROR("%s: the world is stepping", fn);
        return -1;
    }
    if (i >= 0) ledge__stir(world, i); // what the step skips for a sleeper may change
    return i;
}

bool ledge__body_place(ledge_world *world, int i, vec2s position, const char *fn) {
    // ledge__check_vec's test inline (a call per move of the bump crowd);
    // NaN compares false. The call only logs the refusal.
    if (!(fabsf(position.x) <= LEDGE_MAX_COORDINATE && fabsf(position.y) <= LEDGE_MAX_COORDINATE))
        return ledge__check_vec(fn, "position", position, LEDGE_MAX_COORDINATE);
    world->position[i] = position;
    world->last_position[i] = position; // (a static body's stays where it is put)
    world->frozen[i] = 0;
    ledge__wake(world, i);
    ledge__sleep_wake_touching(world, i); // what rested on it or against it
    ledge__forget_replay(world, i);
    ledge__query_refile(world, i);
    return true;
}

bool ledge_body_set_position(ledge_world *world, ledge_body_id id, vec2s position) {
    const char *fn = "ledge_body_set_position";
    int i = writable_slot(world, id, fn);
    return i >= 0 && ledge__body_place(world, i, position, fn);
}

bool ledge_body_set_velocity(ledge_world *world, ledge_body_id id, vec2s velocity) {
    const char *fn = "ledge_body_set_velocity";
    int i = writable_slot(world, id, fn);
    if (i < 0 || !ledge__check_vec(fn, "velocity", velocity, LEDGE_MAX_COORDINATE)) return false;
    if (world->type[i] != LEDGE_BODY_STATIC) world->velocity[i] = velocity;
    world->frozen[i] = 0;
    ledge__wake(world, i);
    ledge__forget_replay(world, i);
    return true;
}

bool ledge_body_apply_impulse(ledge_world *world, ledge_body_id id, vec2s impulse) {
    const char *fn = "ledge_body_apply_impulse";
    int i = writable_slot(world, id, fn);
    if (i < 0 || !ledge__check_vec(fn, "impulse", impulse, LEDGE_MAX_COORDINATE)) return false;
    float inv = world->asleep[i] ? world->sleep_inv_mass[i] : world->inv_mass[i];
    vec2s v = v2_add(world->velocity[i], v2_scale(impulse, inv));
    if (!ledge__check_vec(fn, "resulting velocity", v, LEDGE_MAX_COORDINATE)) return false;
    ledge__wake(world, i);
    world->velocity[i] = v;
    return true;
}

bool ledge_body_set_gravity_scale(ledge_world *world, ledge_body_id id, float scale) {
    const char *fn = "ledge_body_set_gravity_scale";
    int i = writable_slot(world, id, fn);
    if (i < 0 || !finite_ok(fn, "scale", scale, -LEDGE_MAX_COORDINATE)) return false;
    world->gravity_scale[i] = scale;
    ledge__wake(world, i);
    return true;
}

bool ledge_body_set_drag(ledge_world *world, ledge_body_id id, float drag) {
    const char *fn = "ledge_body_set_drag";
    int i = writable_slot(world, id, fn);
    if (i < 0 || !finite_ok(fn, "drag", drag, 0.0f)) return false;
    world->drag[i] = drag;
    return true;
}

bool ledge_body_set_filter(ledge_world *world, ledge_body_id id, ledge_filter filter) {
    int i = writable_slot(world, id, "ledge_body_set_filter");
    if (i < 0) return false;
    world->filter[i] = filter;
    ledge__wake(world, i);
    ledge__sleep_wake_touching(world, i);  // they may no longer meet
    ledge__query_filter_changed(world, i); // the index keeps whether the default filter sees it
    return true;
}

bool ledge_body_set_user_data(ledge_world *world, ledge_body_id id, void *user_data) {
    int i = writable_slot(world, id, "ledge_body_set_user_data");
    if (i < 0) return false;
    world->user_data[i] = user_data;
    return true;
}

bool ledge_body_is_frozen(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_is_frozen");
    return i >= 0 && world->frozen[i];
}

bool ledge_body_is_awake(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_is_awake");
    return i >= 0 && !world->asleep[i];
}

bool ledge_body_set_awake(ledge_world *world, ledge_body_id id, bool awake) {
    const char *fn = "ledge_body_set_awake";
    int i = writable_slot(world, id, fn);
    if (i < 0) return false;
    if (awake) {
        ledge__wake(world, i);
        return true;
    }
    if (!world->sleep->on || world->type[i] != LEDGE_BODY_DYNAMIC || world->sensor[i]) {
        LEDGE_ERROR("%s: body {%u, %u} cannot sleep (%s)", fn, id.index1, id.generation,
                    !world->sleep->on                      ? "the world's enable_sleep is false"
                    : world->type[i] != LEDGE_BODY_DYNAMIC ? "it is not dynamic"
                                                           : "it is a sensor");
        return false;
    }
    return ledge__sleep_body(world, i);
}

bool ledge_body_drop_through(ledge_world *world, ledge_body_id id) {
    int i = writable_slot(world, id, "ledge_body_drop_through");
    if (i < 0) return false;
    world->dropping[i] = 1;
    ledge__wake(world, i);
    return true;
}

bool ledge_body_set_target(ledge_world *world, ledge_body_id id, vec2s target, float dt) {
    const char *fn = "ledge_body_set_target";
    int i = writable_slot(world, id, fn);
    if (i < 0 || !ledge__check_vec(fn, "target", target, LEDGE_MAX_COORDINATE)) return false;
    if (!(dt > 0.0f && dt <= LEDGE_MAX_STEP)) {
        LEDGE_ERROR("%s: dt is %g (must be > 0 and at most %g s)", fn, (double)dt,
                    (double)LEDGE_MAX_STEP);
        return false;
    }
    if (world->type[i] != LEDGE_BODY_KINEMATIC) {
        LEDGE_ERROR("%s: body {%u, %u} is not kinematic", fn, id.index1, id.generation);
        return false;
    }
    vec2s v = v2_scale(v2_sub(target, world->position[i]), 1.0f / dt);
    if (!ledge__check_vec(fn, "resulting velocity", v, LEDGE_MAX_COORDINATE)) return false;
    world->velocity[i] = v;
    world->frozen[i] = 0;
    ledge__forget_replay(world, i);
    return true;
}

static bool unit_set(ledge_world *world, ledge_body_id id, const char *fn, const char *arg,
                     float value, float *field) {
    int i = writable_slot(world, id, fn);
    if (i < 0) return false;
    if (!(value >= 0.0f && value <= 1.0f)) {
        LEDGE_ERROR("%s: %s is %g (must be 0..1)", fn, arg, (double)value);
        return false;
    }
    field[i] = value;
    return true;
}

bool ledge_body_set_friction(ledge_world *world, ledge_body_id id, float friction) {
    return world != NULL ? unit_set(world, id, "ledge_body_set_friction", "friction", friction,
                                    world->friction)
                         : ledge__world_slot(world, id, "ledge_body_set_friction") >= 0;
}

bool ledge_body_set_bounce(ledge_world *world, ledge_body_id id, float bounce) {
    return world != NULL
               ? unit_set(world, id, "ledge_body_set_bounce", "bounce", bounce, world->bounce)
               : ledge__world_slot(world, id, "ledge_body_set_bounce") >= 0;
}

bool ledge_body_set_surface_speed(ledge_world *world, ledge_body_id id, float speed) {
    const char *fn = "ledge_body_set_surface_speed";
    int i = writable_slot(world, id, fn);
    if (i < 0 || !ledge__check_speed(fn, "speed", speed)) return false;
    world->surface_speed[i] = speed;
    ledge__wake(world, i);
    ledge__sleep_wake_touching(world, i); // what rests on a belt moves with it
    return true;
}

bool ledge_body_set_material(ledge_world *world, ledge_body_id id, const ledge_material *material) {
    const char *fn = "ledge_body_set_material";
    int i = writable_slot(world, id, fn);
    if (i < 0 || !ledge__check_material(fn, "material", material)) return false;
    world->friction[i] = material->friction;
    world->bounce[i] = material->bounce;
    world->surface_speed[i] = material->surface_speed;
    world->friction_mix[i] = (uint8_t)material->friction_mix;
    ledge__wake(world, i);
    ledge__sleep_wake_touching(world, i);
    return true;
}

ledge_material ledge_body_material(const ledge_world *world, ledge_body_id id) {
    int i = ledge__world_slot(world, id, "ledge_body_material");
    ledge_material m = ledge_default_material();
    if (i < 0) return m;
    m.friction = world->friction[i];
    m.bounce = world->bounce[i];
    m.surface_speed = world->surface_speed[i];
    m.friction_mix = (ledge_friction_mix)world->friction_mix[i];
    return m;
}
