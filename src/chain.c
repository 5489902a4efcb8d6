// Chains (chain.h): defs and their refusals, generation-checked ids,
// getters and setters, and the chain queries by box and point.
#include "chain_query.h"
#include "events.h"
#include "sleep.h"
#include "bvh.h"
#include "check.h"
#include "material.h"
#include "world_state.h"

#include "ledge/chain.h"

#include <string.h>

ledge_chain_def ledge_default_chain_def(void) {
    ledge_chain_def d;
    memset(&d, 0, sizeof d);
    d.type = LEDGE_BODY_STATIC;
    d.filter = ledge_default_filter();
    d.material = ledge_default_material();
    return d;
}

// --- refusals ---------------------------------------------------------------------

static bool writable(const ledge_world *w, const char *fn) {
    if (w == NULL) {
        LEDGE_ERROR("%s: world is NULL", fn);
        return false;
    }
    if (w->stepping) {
        LEDGE_ERROR("%s: the world is stepping", fn);
        return false;
    }
    return true;
}

// --- lifecycle --------------------------------------------------------------------

ledge_chain_id ledge_chain_create(ledge_world *world, const ledge_chain_def *def) {
    const char *fn = "ledge_chain_create";
    if (!writable(world, fn)) return LEDGE_NULL_CHAIN_ID;
    if (def == NULL) {
        LEDGE_ERROR("%s: def is NULL", fn);
        return LEDGE_NULL_CHAIN_ID;
    }
    char why[240];
    if (!ledge__chain_check(def, why, sizeof why)) {
        LEDGE_ERROR("%s: %s", fn, why);
        return LEDGE_NULL_CHAIN_ID;
    }
    int s = ledge__chains_add(world, def, fn);
    if (s < 0) return LEDGE_NULL_CHAIN_ID;
    return ledge__chain_id(world, s);
}

// Drops the contacts with chain slot s from a list, waking the sleepers
// among their bodies (what rested on the chain falls). Returns the count
// left.
static int without_chain(ledge_world *w, ledge__contact *list, int count, int s) {
    int n = 0;
    for (int k = 0; k < count; ++k) {
        const ledge__contact *c = &list[k];
        if (c->b == LEDGE__CHAIN_CONTACT && c->cell_x == s) {
            ledge__wake(w, c->a);
            continue;
        }
        list[n++] = *c;
    }
    return n;
}

void ledge_chain_destroy(ledge_world *world, ledge_chain_id id) {
    const char *fn = "ledge_chain_destroy";
    if (!writable(world, fn)) return;
    int s = ledge__chain_slot(world, id, fn);
    if (s < 0) return;
    world->contact_count = without_chain(world, world->contacts, world->contact_count, s);
    world->held_count = without_chain(world, world->held, world->held_count, s);
    ledge__contacts_changed(world);
    ledge__chains_remove(world, s);
}

bool ledge_chain_is_valid(const ledge_world *world, ledge_chain_id id) {
    if (world == NULL || world->chains == NULL || id.index1 == 0 || id.world != world->serial)
        return false;
    uint32_t s = id.index1 - 1u;
    const ledge__chains *cs = world->chains;
    return s < (uint32_t)cs->count && cs->c[s].alive && cs->c[s].generation == id.generation;
}

int ledge_world_chain_count(const ledge_world *world) {
    if (world == NULL) {
        LEDGE_ERROR("ledge_world_chain_count: world is NULL");
        return 0;
    }
    return world->chains ? world->chains->live : 0;
}

// --- getters ----------------------------------------------------------------------

static const ledge__chain *find(const ledge_world *w, ledge_chain_id id, const char *fn) {
    int s = ledge__chain_slot(w, id, fn);
    return s < 0 ? NULL : &w->chains->c[s];
}

ledge_body_type ledge_chain_get_type(const ledge_world *world, ledge_chain_id id) {
    const ledge__chain *c = find(world, id, "ledge_chain_get_type");
    return c ? (ledge_body_type)c->type : LEDGE_BODY_STATIC;
}

vec2s ledge_chain_position(const ledge_world *world, ledge_chain_id id) {
    const ledge__chain *c = find(world, id, "ledge_chain_position");
    return c ? c->position : v2(0.0f, 0.0f);
}

vec2s ledge_chain_velocity(const ledge_world *world, ledge_chain_id id) {
    const ledge__chain *c = find(world, id, "ledge_chain_velocity");
    return c ? c->velocity : v2(0.0f, 0.0f);
}

bool ledge_chain_is_loop(const ledge_world *world, ledge_chain_id id) {
    const ledge__chain *c = find(world, id, "ledge_chain_is_loop");
    return c ? c->loop != 0 : false;
}

int ledge_chain_points(const ledge_world *world, ledge_chain_id id, vec2s *out, int capacity) {
    const char *fn = "ledge_chain_points";
    const ledge__chain *c = find(world, id, fn);
    if (c == NULL) return -1;
    if (capacity < 0 || (capacity > 0 && out == NULL)) {
        LEDGE_ERROR("%s: capacity is %d with out %s (need out for capacity > 0)", fn, capacity,
                    out ? "set" : "NULL");
        return -1;
    }
    int n = c->point_count < capacity ? c->point_count : capacity;
    if (n > 0) memcpy(out, c->points, sizeof *out * (size_t)n);
    return c->point_count;
}

int ledge_chain_segment_count(const ledge_world *world, ledge_chain_id id) {
    const ledge__chain *c = find(world, id, "ledge_chain_segment_count");
    return c ? c->segment_count : -1;
}

bool ledge_chain_segment(const ledge_world *world, ledge_chain_id id, int index, vec2s *from,
                         vec2s *to, vec2s *normal) {
    const char *fn = "ledge_chain_segment";
    const ledge__chain *c = find(world, id, fn);
    if (c == NULL) return false;
    if (index < 0 || index >= c->segment_count) {
        LEDGE_ERROR("%s: index is %d (the chain has %d segments)", fn, index, c->segment_count);
        return false;
    }
    const ledge__segment *s = &c->segments[index];
    if (from) *from = v2_add(s->p, c->position);
    if (to) *to = v2_add(s->q, c->position);
    if (normal) *normal = s->n;
    return true;
}

ledge_filter ledge_chain_filter(const ledge_world *world, ledge_chain_id id) {
    const ledge__chain *c = find(world, id, "ledge_chain_filter");
    return c ? c->filter : ledge_default_filter();
}

ledge_material ledge_chain_material(const ledge_world *world, ledge_chain_id id) {
    const ledge__chain *c = find(world, id, "ledge_chain_material");
    return c ? c->material : ledge_default_material();
}

void *ledge_chain_user_data(const ledge_world *world, ledge_chain_id id) {
    const ledge__chain *c = find(world, id, "ledge_chain_user_data");
    return c ? c->user_data : NULL;
}

// --- setters ----------------------------------------------------------------------

static ledge__chain *find_writable(ledge_world *w, ledge_chain_id id, const char *fn) {
    if (!writable(w, fn)) return NULL;
    int s = ledge__chain_slot(w, id, fn);
    return s < 0 ? NULL : &w->chains->c[s];
}

// What touched the chain is not replayed (a teleport, or a new velocity,
// is the game's).
static void mark_moved(ledge_world *w, ledge__chain *c) {
    c->moved = 1;
    w->chains->any_moved = true;
}

bool ledge_chain_set_position(ledge_world *world, ledge_chain_id id, vec2s position) {
    const char *fn = "ledge_chain_set_position";
    ledge__chain *c = find_writable(world, id, fn);
    if (c == NULL || !ledge__check_vec(fn, "position", position, LEDGE_MAX_COORDINATE))
        return false;
    if (!ledge__vec_within(v2_add(c->bounds.lower, position), LEDGE_MAX_COORDINATE) ||
        !ledge__vec_within(v2_add(c->bounds.upper, position), LEDGE_MAX_COORDINATE)) {
        LEDGE_ERROR("%s: position (%g, %g) puts the chain beyond %g", fn, (double)position.x,
                    (double)position.y, (double)LEDGE_MAX_COORDINATE);
        return false;
    }
    c->position = c->last_position = position;
    mark_moved(world, c);
    if (c->type == LEDGE_BODY_STATIC) world->chains->tree_stale = true;
    world->chains->junction_stale = true;
    return true;
}

bool ledge_chain_set_velocity(ledge_world *world, ledge_chain_id id, vec2s velocity) {
    const char *fn = "ledge_chain_set_velocity";
    ledge__chain *c = find_writable(world, id, fn);
    if (c == NULL || !ledge__check_vec(fn, "velocity", velocity, LEDGE_MAX_COORDINATE))
        return false;
    if (c->type != LEDGE_BODY_KINEMATIC) {
        LEDGE_ERROR("%s: chain {%u, %u} is static (only a kinematic chain moves)", fn, id.index1,
                    id.generation);
        return false;
    }
    c->velocity = velocity;
    mark_moved(world, c);
    return true;
}

bool ledge_chain_set_target(ledge_world *world, ledge_chain_id id, vec2s target, float dt) {
    const char *fn = "ledge_chain_set_target";
    ledge__chain *c = find_writable(world, id, fn);
    if (c == NULL || !ledge__check_vec(fn, "target", target, LEDGE_MAX_COORDINATE)) return false;
    if (!(dt > 0.0f && dt <= LEDGE_MAX_STEP)) {
        LEDGE_ERROR("%s: dt is %g (must be > 0 and at most %g s)", fn, (double)dt,
                    (double)LEDGE_MAX_STEP);
        return false;
    }
    vec2s v = v2_scale(v2_sub(target, c->position), 1.0f / dt);
    if (!ledge__vec_within(v, LEDGE_MAX_COORDINATE)) {
        LEDGE_ERROR("%s: reaching (%g, %g) in %g s needs a velocity beyond %g", fn,
                    (double)target.x, (double)target.y, (double)dt, (double)LEDGE_MAX_COORDINATE);
        return false;
    }
    return ledge_chain_set_velocity(world, id, v);
}

bool ledge_chain_set_filter(ledge_world *world, ledge_chain_id id, ledge_filter filter) {
    ledge__chain *c = find_writable(world, id, "ledge_chain_set_filter");
    if (c == NULL) return false;
    c->filter = filter;
    return true;
}

// Wakes the sleepers that touch chain slot s (their contacts are held).
static void wake_touching(ledge_world *w, int s) {
    if (w->sleepers == 0) return;
    for (int k = 0; k < w->held_count; ++k) {
        const ledge__contact *c = &w->held[k];
        if (c->b == LEDGE__CHAIN_CONTACT && c->cell_x == s) ledge__wake(w, c->a);
    }
}

bool ledge_chain_set_material(ledge_world *world, ledge_chain_id id,
                              const ledge_material *material) {
    const char *fn = "ledge_chain_set_material";
    ledge__chain *c = find_writable(world, id, fn);
    if (c == NULL || !ledge__check_material(fn, "material", material)) return false;
    c->material = *material;
    // What touches it meets the new surface in the next substep (its
    // contacts are found again, not replayed), and what sleeps on it
    // wakes (a belt switched on carries what rests on it).
    mark_moved(world, c);
    wake_touching(world, (int)(c - world->chains->c));
    return true;
}

bool ledge_chain_set_user_data(ledge_world *world, ledge_chain_id id, void *user_data) {
    ledge__chain *c = find_writable(world, id, "ledge_chain_set_user_data");
    if (c == NULL) return false;
    c->user_data = user_data;
    return true;
}

// --- queries ------------------------------------------------------------------------

static bool query_begin(ledge_world *w, const ledge_query_filter *filter, bool has_fn,
                        const char *fn, ledge_query_filter *f) {
    if (w == NULL) {
        LEDGE_ERROR("%s: world is NULL", fn);
        return false;
    }
    if (w->stepping) {
        LEDGE_ERROR("%s: the world is stepping (query between steps)", fn);
        return false;
    }
    if (!has_fn) {
        LEDGE_ERROR("%s: callback is NULL", fn);
        return false;
    }
    *f = filter ? *filter : ledge_default_query_filter();
    // (The one_way rule concerns one-way tiles and bodies, which these
    // queries do not see; a value outside the enum is refused all the same.)
    return ledge__check_query_one_way(fn, (int)f->one_way);
}

int ledge_world_query_chains_aabb(ledge_world *world, ledge_aabb aabb,
                                  const ledge_query_filter *filter, ledge_chain_query_fn *fn,
                                  void *context) {
    const char *name = "ledge_world_query_chains_aabb";
    ledge_query_filter f;
    if (!query_begin(world, filter, fn != NULL, name, &f)) return -1;
    if (!ledge__vec_within(aabb.lower, LEDGE_MAX_COORDINATE) ||
        !ledge__vec_within(aabb.upper, LEDGE_MAX_COORDINATE) || !(aabb.lower.x <= aabb.upper.x) ||
        !(aabb.lower.y <= aabb.upper.y)) {
        LEDGE_ERROR("%s: aabb is (%g, %g)..(%g, %g) (must be finite, |x| <= %g, lower <= upper)",
                    name, (double)aabb.lower.x, (double)aabb.lower.y, (double)aabb.upper.x,
                    (double)aabb.upper.y, (double)LEDGE_MAX_COORDINATE);
        return -1;
    }
    const ledge__chains *cs = world->chains;
    int n = 0;
    for (int s = 0; cs != NULL && s < cs->count; ++s) {
        const ledge__chain *c = &cs->c[s];
        if (!c->alive || !ledge__filter_sees_chain(&f, c) ||
            !ledge__aabb_meet(ledge__chain_box(c), aabb)) {
            continue;
        }
        ledge_aabb local = {v2_sub(aabb.lower, c->position), v2_sub(aabb.upper, c->position)};
        ledge__bvh_iter it;
        ledge__bvh_begin(&it, &c->tree, local);
        for (int k; (k = ledge__bvh_next(&it)) >= 0;) {
            if (!ledge__chain_segment_meets(c, k, aabb)) continue;
            ++n;
            if (!fn(ledge__chain_id(world, s), k, context)) return n;
        }
    }
    return n;
}

int ledge_world_query_chains_point(ledge_world *world, vec2s point,
                                   const ledge_query_filter *filter, ledge_chain_query_fn *fn,
                                   void *context) {
    const char *name = "ledge_world_query_chains_point";
    ledge_query_filter f;
    if (!query_begin(world, filter, fn != NULL, name, &f) ||
        !ledge__check_vec(name, "point", point, LEDGE_MAX_COORDINATE)) {
        return -1;
    }
    const ledge__chains *cs = world->chains;
    int n = 0;
    for (int s = 0; cs != NULL && s < cs->count; ++s) {
        const ledge__chain *c = &cs->c[s];
        if (!c->alive || !c->loop || !ledge__filter_sees_chain(&f, c)) continue;
        // A counter-clockwise loop holds only points in its box; a
        // clockwise one (a room) every point outside it too.
        if (c->ccw && !ledge__aabb_meet(ledge__chain_box(c), (ledge_aabb){point, point})) continue;
        if (!ledge__chain_holds(c, point)) continue;
        ++n;
        if (!fn(ledge__chain_id(world, s), -1, context)) break;
    }
    return n;
}
