// Characters (character.h): the mover plus the state a platformer keeps,
// kept by ledge in a table indexed by body slot, and the carry by the body
// stood on, done inside ledge_world_step.
//
// Why the carry is in the step: a platform moves during the step, after
// the game's move (frame order 1) or before it (order 2). Carrying inside
// the move would have to guess whether a step follows (order 1: it does,
// and the move must not resolve against the platform where it stood before
// the step, which is what made vertical platforms lag by v * dt). In the
// step the platform's displacement is known exactly, whatever the order,
// and a rigid teleport by it keeps the relative position to rounding.
#include "move.h"
#include "chain_store.h"
#include "character.h"
#include "contacts.h"
#include "events.h"
#include "joints.h"
#include "query_index.h"
#include "slots.h"
#include "check.h"
#include "world_state.h"

#include "ledge/character.h"
#include "ledge/events.h"

#include <string.h>

ledge_character_def ledge_default_character_def(void) {
    ledge_character_def d;
    memset(&d, 0, sizeof d);
    d.move = ledge_default_move_def();
    d.platform_on_leave = LEDGE_PLATFORM_LEAVE_ADD_VELOCITY;
    d.ride_platforms = true;
    d.push_bodies = true;
    d.push_mass = 0.0f;
    return d;
}

static bool check_def(const char *fn, const ledge_character_def *d) {
    if ((unsigned)d->platform_on_leave > (unsigned)LEDGE_PLATFORM_LEAVE_NOTHING) {
        LEDGE_ERROR("%s: def->platform_on_leave is %d (not a ledge_platform_leave)", fn,
                    (int)d->platform_on_leave);
        return false;
    }
    // The mover checks its own def; a zero move checks it without moving.
    if (d->move.max_slides < 1 || d->move.max_slides > 16 ||
        !(d->move.max_floor_slope >= 0.0f &&
          d->move.max_floor_slope <= LEDGE_MOVE_MAX_FLOOR_SLOPE) ||
        !(d->move.snap_length >= 0.0f && d->move.snap_length <= LEDGE_MAX_COORDINATE) ||
        !(d->move.skin > 0.0f && d->move.skin <= LEDGE_MAX_COORDINATE) ||
        !ledge__vec_within(d->move.up, LEDGE_MAX_COORDINATE)) {
        LEDGE_ERROR("%s: def->move is invalid (see ledge_move_def's ranges)", fn);
        return false;
    }
    if (!(d->push_mass >= 0.0f && d->push_mass <= LEDGE_MAX_MASS)) {
        LEDGE_ERROR("%s: def->push_mass is %g (must be 0..%g)", fn, (double)d->push_mass,
                    (double)LEDGE_MAX_MASS);
        return false;
    }
    return true;
}

static bool writable(const ledge_world *w, const char *fn) {
    if (!w->stepping) return true;
    LEDGE_ERROR("%s: the world is stepping", fn);
    return false;
}

bool ledge_character_create(ledge_world *world, ledge_body_id id, const ledge_character_def *def) {
    const char *fn = "ledge_character_create";
    int i = ledge__world_slot(world, id, fn);
    if (i < 0 || !writable(world, fn)) return false;
    ledge_character_def d = def ? *def : ledge_default_character_def();
    if (!check_def(fn, &d)) return false;
    if (world->type[i] != LEDGE_BODY_KINEMATIC) {
        LEDGE_ERROR("%s: body {%u, %u} is not kinematic (the step would move it itself)", fn,
                    id.index1, id.generation);
        return false;
    }
    if (ledge__character_at(world, i) != NULL) {
        LEDGE_ERROR("%s: body {%u, %u} is already a character", fn, id.index1, id.generation);
        return false;
    }
    int h = world->handle[i];
    if (!ledge__characters_reserve_handle(world, h, fn)) return false;
    ledge__characters *t = world->characters;
    ledge__character *c = &t->c[h];
    if (c->id.index1 == 0) t->list[t->count++] = h; // else a dead body's entry, still listed
    memset(c, 0, sizeof *c);
    c->id = id;
    c->def = d;
    c->push_mass = ledge__character_push_mass(world, i, &d);
    c->floor_slot = -1;
    c->floor_chain = -1;
    c->last_position = c->state.position = world->position[i];
    c->state.last_move.ground_hit = -1;
    c->state.floor_material = ledge_default_material();
    return true;
}

static void unlist(ledge__characters *t, int i) {
    for (int k = 0; k < t->count; ++k) {
        if (t->list[k] != i) continue;
        memmove(&t->list[k], &t->list[k + 1], sizeof(int) * (size_t)(t->count - k - 1));
        t->count--;
        break;
    }
    memset(&t->c[i], 0, sizeof t->c[i]);
}

void ledge_character_destroy(ledge_world *world, ledge_body_id id) {
    const char *fn = "ledge_character_destroy";
    if (ledge__character_find(world, id, fn) == NULL || !writable(world, fn)) return;
    unlist(world->characters, (int)id.index1 - 1);
}

bool ledge_character_is_valid(const ledge_world *world, ledge_body_id id) {
    return ledge_body_is_valid(world, id) &&
           ledge__character_at(world, ledge__slot_of(world, id)) != NULL;
}

bool ledge_character_set_def(ledge_world *world, ledge_body_id id, const ledge_character_def *def) {
    const char *fn = "ledge_character_set_def";
    ledge__character *c = ledge__character_find(world, id, fn);
    if (c == NULL) return false;
    if (def == NULL) {
        LEDGE_ERROR("%s: def is NULL", fn);
        return false;
    }
    if (!check_def(fn, def)) return false;
    c->def = *def;
    c->push_mass = ledge__character_push_mass(world, ledge__slot_of(world, id), def);
    if (!def->push_bodies) c->push.count = 0;
    return true;
}

bool ledge_character_get_state(const ledge_world *world, ledge_body_id id,
                               ledge_character_state *out) {
    const char *fn = "ledge_character_get_state";
    if (out == NULL) {
        LEDGE_ERROR("%s: out is NULL", fn);
        return false;
    }
    memset(out, 0, sizeof *out);
    out->last_move.ground_hit = -1;
    const ledge__character *c = ledge__character_find(world, id, fn);
    if (c == NULL) return false;
    *out = c->state;
    return true;
}

bool ledge_character_set_velocity(ledge_world *world, ledge_body_id id, vec2s velocity) {
    const char *fn = "ledge_character_set_velocity";
    ledge__character *c = ledge__character_find(world, id, fn);
    if (c == NULL || !ledge__check_vec(fn, "velocity", velocity, LEDGE_MAX_COORDINATE)) {
        return false;
    }
    c->state.velocity = velocity;
    return true;
}

// --- the move ---------------------------------------------------------------

// The surface velocity of a floor of material m whose normal is n (a belt:
// material.h's tangent (ny, -nx)); (0, 0) for a floor at rest.
static vec2s surface_velocity(const ledge_material *m, vec2s n) {
    if (m->surface_speed == 0.0f) return v2(0.0f, 0.0f);
    return v2_scale(v2(n.y, -n.x), m->surface_speed);
}

// The floor's material now: the cell's (outside the map, FULL's), the
// body's or the chain's; the default when the state has no floor (or its
// body or chain is gone).
static ledge_material floor_material_of(const ledge_world *w, const ledge_character_state *s) {
    if (s->on_floor && s->floor_is_tile)
        return ledge_tilemap_cell_material(w->map, s->floor_cell_x, s->floor_cell_y);
    if (s->on_floor && ledge_body_is_valid(w, s->floor_body))
        return ledge_body_material(w, s->floor_body);
    if (s->on_floor && ledge_chain_is_valid(w, s->floor_chain))
        return w->chains->c[s->floor_chain.index1 - 1u].material;
    return ledge_default_material();
}

// The floor of the move's result into the state.
static void take_floor(const ledge_world *w, ledge_character_state *s, const ledge_move_result *r) {
    s->floor_body = LEDGE_NULL_BODY_ID;
    s->floor_chain = LEDGE_NULL_CHAIN_ID;
    s->floor_is_tile = false;
    s->floor_cell_x = s->floor_cell_y = 0;
    s->floor_tile = LEDGE_TILE_EMPTY;
    s->floor_material = ledge_default_material();
    s->platform_velocity = v2(0.0f, 0.0f);
    if (!r->on_ground || r->ground_hit < 0) return;
    const ledge_move_hit *h = &r->hits[r->ground_hit];
    if (h->kind == LEDGE_HIT_BODY) {
        s->floor_body = h->body;
        s->platform_velocity = w->velocity[ledge__slot_of(w, h->body)];
    } else if (h->kind == LEDGE_HIT_CHAIN) {
        s->floor_chain = h->chain;
        s->platform_velocity = w->chains->c[h->chain.index1 - 1u].velocity;
    } else {
        s->floor_is_tile = true;
        s->floor_cell_x = h->cell_x;
        s->floor_cell_y = h->cell_y;
        s->floor_tile = h->tile;
    }
    s->floor_material = floor_material_of(w, s);
    if (s->floor_material.surface_speed != 0.0f)
        s->platform_velocity =
            v2_add(s->platform_velocity, surface_velocity(&s->floor_material, s->floor_normal));
}

// What the floor's surface carries the character by in a move of dt (a
// belt), when it rides: its surface velocity now times dt, else (0, 0).
static vec2s belt_move(const ledge_world *w, const ledge__character *c, float dt) {
    if (!c->def.ride_platforms || !c->state.on_floor) return v2(0.0f, 0.0f);
    ledge_material m = floor_material_of(w, &c->state);
    return v2_scale(surface_velocity(&m, c->state.floor_normal), dt);
}

// platform_on_leave: the velocity of the body just left, as the def asks.
static vec2s leave_velocity(const ledge__character *c, vec2s up) {
    vec2s pv = c->state.platform_velocity;
    switch (c->def.platform_on_leave) {
    case LEDGE_PLATFORM_LEAVE_ADD_VELOCITY:
        return pv;
    case LEDGE_PLATFORM_LEAVE_ADD_UPWARD: {
        float u = v2_dot(pv, up);
        return u > 0.0f ? v2_scale(up, u) : v2(0.0f, 0.0f);
    }
    default:
        return v2(0.0f, 0.0f);
    }
}

// Whether body slot `by` overlaps character slot i by more than its skin.
static bool overlaps(const ledge_world *w, int i, int by, float skin) {
    ledge_manifold m = ledge_collide(ledge__shape_of(w, by), w->position[by], ledge__shape_of(w, i),
                                     w->position[i]);
    return m.hit && m.depth > skin;
}

// Whether dynamic body `by` rests on character slot i from above: it
// touches the character raised by 2 * skin along up.
static bool rests_on(const ledge_world *w, int i, int by, vec2s up, float skin) {
    if (by < 0 || w->type[by] != LEDGE_BODY_DYNAMIC) return false;
    vec2s p = v2_add(w->position[i], v2_scale(up, 2.0f * skin));
    return ledge_collide(ledge__shape_of(w, by), w->position[by], ledge__shape_of(w, i), p).hit;
}

// The crush by body slot `by` (-1: none) into the state: kept while that
// body still overlaps the character, or while a body that pinned it from
// above still rests on it and it stands on a floor; cleared once it is
// clear.
static void take_crush(const ledge_world *w, int i, int by, const ledge_move_result *r,
                       ledge_character_state *s) {
    const ledge__character *c = &w->characters->c[w->handle[i]];
    float skin = c->def.move.skin;
    s->crushed =
        by >= 0 && (overlaps(w, i, by, skin) || (r->on_ground && rests_on(w, i, by, r->up, skin)));
    if (!s->crushed) s->crushed_by = LEDGE_NULL_BODY_ID;
}

// The body resting on the character from above (the last step found it)
// is kept while it still does: on_ceiling stays set.
static void take_ceiling(const ledge_world *w, int i, const ledge_move_result *r,
                         ledge_character_state *s) {
    const ledge__character *c = &w->characters->c[w->handle[i]];
    int by = ledge_body_is_valid(w, s->ceiling_body) ? ledge__slot_of(w, s->ceiling_body) : -1;
    if (!rests_on(w, i, by, r->up, c->def.move.skin)) {
        s->ceiling_body = LEDGE_NULL_BODY_ID;
        return;
    }
    if (!s->on_ceiling) {
        s->on_ceiling = true;
        s->ceiling_normal = v2_neg(r->up);
    }
}

// What the move would have gone into the dynamic bodies it walked into,
// for the next step to push (push.c): the bodies it met as walls (neither
// floor nor ceiling to it), the direction across up into the first of
// them (and the others within 45 degrees of it), and the part of the move
// along it that was not done. The bodies are woken.
static void take_push(ledge_world *w, ledge__character *c, vec2s velocity, float dt,
                      const ledge_move_result *r) {
    ledge__push *p = &c->push;
    ledge_character_state *s = &c->state;
    p->count = 0;
    s->pushing = false;
    s->pushed_body = LEDGE_NULL_BODY_ID;
    if (!c->def.push_bodies) return;
    float cos_floor = cosf(c->def.move.max_floor_slope);
    for (int k = 0; k < r->hit_count && p->count < LEDGE__PUSHED_MAX; ++k) {
        const ledge_move_hit *h = &r->hits[k];
        int b = h->kind == LEDGE_HIT_BODY ? ledge__slot_of(w, h->body) : -1;
        if (b < 0 || w->type[b] != LEDGE_BODY_DYNAMIC || w->frozen[b]) continue;
        float nu = v2_dot(h->normal, r->up);
        if (fabsf(nu) >= cos_floor) continue; // stood on, or met from below
        vec2s into = v2_neg(v2_sub(h->normal, v2_scale(r->up, nu)));
        float l = v2_len(into);
        if (!(l > 0.0f)) continue;
        into = v2_scale(into, 1.0f / l);
        if (p->count == 0) {
            p->dir = into;
        } else if (v2_dot(into, p->dir) < 0.70710678f) {
            continue;
        }
        p->body[p->count++] = h->body;
    }
    float entry = v2_dot(velocity, p->dir) * dt - v2_dot(r->displacement, p->dir);
    if (p->count == 0 || !(entry > 0.0f)) {
        p->count = 0;
        return;
    }
    p->entry = entry;
    p->speed = entry / dt;
    for (int k = 0; k < p->count; ++k) {
        if (!ledge_body_is_awake(w, p->body[k])) ledge_body_set_awake(w, p->body[k], true);
    }
    s->pushing = true;
    s->pushed_body = p->body[0];
}

// --- hanging -----------------------------------------------------------------

// The rope or rod of lowest index that joins body slot i (its side in
// *side), or -1.
static int hang_joint(const ledge_world *w, int i, int *side) {
    const ledge__joints *t = w->joints;
    int h = w->handle[i];
    if (t == NULL || t->live == 0) return -1;
    for (int k = 0; k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        if (!j->alive || (j->type != LEDGE_JOINT_ROPE && j->type != LEDGE_JOINT_ROD)) continue;
        if (j->body[0] == h || j->body[1] == h) {
            *side = j->body[1] == h;
            return k;
        }
    }
    return -1;
}

// The velocity with which moving by it for dt keeps the joint: from the
// character's anchor p (offset d from the anchor it hangs from, unit n),
// the velocity's part along n such that |d + dt v| is the length (a rope
// only when it would be longer: slack, it falls freely). The closed form
// of one row of the step's predict solve (joint_solve.c): SHAKE's step.
static vec2s hang_velocity(vec2s d, vec2s v, float dt, float length, bool rope) {
    float dist = v2_len(d);
    if (!(dist > 1e-6f)) return v;
    vec2s n = v2_scale(d, 1.0f / dist), u = v2_add(d, v2_scale(v, dt));
    float u2 = v2_len2(u), un = v2_dot(u, n);
    if (rope && u2 <= length * length) return v;
    float disc = un * un - u2 + length * length;
    float k = disc > 0.0f ? -un + sqrtf(disc) : -un; // beyond reach: as near as it gets
    return v2_add(v, v2_scale(n, k / dt));
}

// After a hanging move: the kept velocity without its part along the
// rope away from the anchor (a rod's both ways), taut or rod.
static vec2s hang_clip(vec2s d, vec2s v, float length, bool rope) {
    float dist = v2_len(d);
    if (!(dist > 1e-6f) || (rope && dist < length - 1e-4f * (1.0f + length))) return v;
    vec2s n = v2_scale(d, 1.0f / dist);
    float out = v2_dot(v, n);
    return rope && out < 0.0f ? v : v2_sub(v, v2_scale(n, out));
}

static bool check_move(ledge_world *w, ledge_body_id id, vec2s velocity, float dt,
                       ledge__character **c) {
    const char *fn = "ledge_character_move";
    *c = ledge__character_find(w, id, fn);
    if (*c == NULL || !writable(w, fn) ||
        !ledge__check_vec(fn, "velocity", velocity, LEDGE_MAX_COORDINATE)) {
        return false;
    }
    if (!(dt > 0.0f && dt <= LEDGE_MAX_STEP)) {
        LEDGE_ERROR("%s: dt is %g (must be > 0 and at most %g s)", fn, (double)dt,
                    (double)LEDGE_MAX_STEP);
        return false;
    }
    return true;
}

bool ledge_character_move(ledge_world *world, ledge_body_id id, vec2s velocity, float dt,
                          ledge_character_state *out) {
    ledge__character *c;
    if (out != NULL) {
        memset(out, 0, sizeof *out);
        out->last_move.ground_hit = -1;
    }
    if (!check_move(world, id, velocity, dt, &c)) return false;
    int i = ledge__slot_of(world, id);
    ledge_move_def md = c->def.move;
    md.set_velocity = false;
    // The mover marks in_one_way while it overlaps a one-way platform: a
    // drop-through ends as soon as a move is clear of them all.
    world->in_one_way[i] = 0;
    ledge_move_result r;
    ledge_character_state *s = &c->state;
    int crusher = s->crushed && ledge_body_is_valid(world, s->crushed_by)
                      ? ledge__slot_of(world, s->crushed_by)
                      : -1;
    int side = 0, hang = hang_joint(world, i, &side);
    const ledge__joint *j = hang >= 0 ? &world->joints->j[hang] : NULL;
    vec2s anchor = v2(0.0f, 0.0f), own = v2(0.0f, 0.0f);
    bool rope = j != NULL && j->type == LEDGE_JOINT_ROPE;
    if (j != NULL) {
        anchor = ledge__joint_anchor(world, j, 1 - side);
        own = j->anchor[side];
        vec2s d = v2_sub(v2_add(world->position[i], own), anchor);
        velocity = hang_velocity(d, velocity, dt, j->length, rope);
    }
    vec2s move = v2_scale(velocity, dt), belt = belt_move(world, c, dt);
    if (belt.x != 0.0f || belt.y != 0.0f) move = v2_add(move, belt);
    // Only a body still overlapping it is passed through (one pinning it
    // from above is a ceiling).
    int ignore = crusher >= 0 && overlaps(world, i, crusher, md.skin) ? crusher : -1;
    if (!ledge__move_ignoring(world, id, move, &md, &r, ignore)) return false;
    if (world->dropping[i] && !world->in_one_way[i]) world->dropping[i] = 0;
    take_crush(world, i, crusher, &r, s);
    // Leaving a body or a chain, or a level surface that moved (a belt).
    bool moving_floor = s->floor_body.index1 != 0 || s->floor_chain.index1 != 0 ||
                        (s->floor_is_tile && s->floor_material.surface_speed != 0.0f);
    bool left = s->on_floor && moving_floor && !r.on_ground;
    vec2s v = ledge_move_clip_velocity(&r, velocity);
    if (left) v = v2_add(v, leave_velocity(c, r.up));
    if (j != NULL) v = hang_clip(v2_sub(v2_add(r.position, own), anchor), v, j->length, rope);
    s->hanging = j != NULL;
    s->hang_joint = j != NULL ? ledge__joint_id(world, hang) : LEDGE_NULL_JOINT_ID;
    s->hang_anchor = anchor;
    s->position = r.position;
    s->velocity = v;
    s->real_velocity = v2_scale(v2_sub(r.position, c->last_position), 1.0f / dt);
    c->last_position = r.position;
    s->on_floor = r.on_ground;
    s->on_wall = r.on_wall;
    s->on_ceiling = r.on_ceiling;
    s->wall_side = r.wall_side;
    s->floor_normal = r.ground_normal;
    s->wall_normal = r.wall_normal;
    s->ceiling_normal = r.ceiling_normal;
    take_floor(world, s, &r);
    take_ceiling(world, i, &r, s);
    take_push(world, c, v2_scale(move, 1.0f / dt), dt, &r); // a belt's part pushes too
    s->time_since_floor = r.on_ground ? 0.0f : s->time_since_floor + dt;
    s->last_move = r;
    if (out != NULL) *out = *s;
    return true;
}

// --- the step ---------------------------------------------------------------

void ledge__characters_before_step(ledge_world *w) {
    ledge__characters *t = w->characters;
    if (t == NULL) return;
    for (int k = 0; k < t->count; ++k) {
        ledge__character *c = &t->c[t->list[k]];
        c->floor_slot = -1;
        c->floor_chain = -1;
        c->riding = false;
        int i = w->slot_of[t->list[k]];
        vec2s p = w->position[i], was = c->state.position;
        if (ledge__character_at(w, i) == NULL || !c->def.ride_platforms || !c->state.on_floor ||
            p.x != was.x || p.y != was.y) {
            continue; // not riding, or placed elsewhere since its last move
        }
        ledge_chain_id fc = c->state.floor_chain;
        if (ledge_chain_is_valid(w, fc) &&
            w->chains->c[fc.index1 - 1u].type == LEDGE_BODY_KINEMATIC) {
            c->floor_chain = (int)fc.index1 - 1;
            c->floor_before = w->chains->c[c->floor_chain].position;
            c->riding = true;
            continue;
        }
        ledge_body_id f = c->state.floor_body;
        if (!ledge_body_is_valid(w, f)) continue;
        c->floor_slot = ledge__slot_of(w, f);
        c->floor_before = w->position[c->floor_slot];
        c->riding = true;
    }
}

static bool riding(const ledge_world *w, int slot) {
    const ledge__character *c = ledge__character_at(w, slot);
    return c != NULL && c->riding;
}

// The flags of a carry stopped against a wall or ceiling into the state.
static void take_carry(const ledge_world *w, ledge_character_state *s, const ledge_move_result *r) {
    s->on_floor = r->on_ground;
    s->on_wall = r->on_wall;
    s->on_ceiling = r->on_ceiling;
    s->wall_side = r->wall_side;
    s->floor_normal = r->ground_normal;
    s->wall_normal = r->wall_normal;
    s->ceiling_normal = r->ceiling_normal;
    take_floor(w, s, r);
}

// Moves character slot i by what its floor body moved in the step; a carry
// into a wall or ceiling stops against it (ledge__move_carry), the flags
// updated. *synced: the query index is up to date (the bodies the step
// moved refiled), which the resolution's body search needs.
static void carry_one(ledge_world *w, int i, bool *synced) {
    ledge__character *c = &w->characters->c[w->handle[i]];
    int floor = c->floor_slot, chain = c->floor_chain;
    const ledge__chain *ch = chain >= 0 ? &w->chains->c[chain] : NULL;
    vec2s d = v2_sub(ch ? ch->position : w->position[floor], c->floor_before);
    vec2s from = w->position[i], p = v2_add(from, d);
    c->floor_slot = c->floor_chain = -1;
    if ((d.x == 0.0f && d.y == 0.0f) || !ledge__vec_within(p, LEDGE_MAX_COORDINATE)) return;
    if (!*synced) ledge__query_sync(w);
    *synced = true;
    w->position[i] = p;
    ledge__query_refile(w, i);
    ledge_move_def md = c->def.move;
    ledge_move_result r;
    if (ledge__move_carry(w, i, from, floor, -1, chain, riding, &md, &r)) {
        take_carry(w, &c->state, &r);
        // Stopped short, the platform went on into it: crushed.
        if (ch == NULL && overlaps(w, i, floor, md.skin)) {
            c->state.crushed = true;
            c->state.crushed_by = ledge__body_id(w, floor);
        }
    }
    c->state.platform_velocity = ch ? ch->velocity : w->velocity[floor];
    if (c->state.floor_material.surface_speed != 0.0f)
        c->state.platform_velocity =
            v2_add(c->state.platform_velocity,
                   surface_velocity(&c->state.floor_material, c->state.floor_normal));
}

// Whether character c stands on a character not carried yet.
static bool floor_waits(const ledge_world *w, const ledge__character *c) {
    const ledge__character *f = ledge__character_at(w, c->floor_slot);
    return f != NULL && f->floor_slot >= 0;
}

// Floors before what stands on them: a character standing on a character
// is carried after it (by what it really moved), whatever the creation
// order. Each pass carries, in creation order, every character whose floor
// is carried; a stack n high takes n passes. A pass that carries none (a
// cycle, which standing cannot make but a teleport can) carries the rest
// in creation order, so at most count passes run.
static bool nothing(const ledge_world *w, int slot) {
    (void)w;
    (void)slot;
    return false;
}

// Crushed by body `by` (depth: their overlap), with a crush event.
static void crush(ledge_world *w, ledge__character *c, int i, int by, float depth) {
    c->state.crushed = true;
    c->state.crushed_by = ledge__body_id(w, by);
    ledge__crush_event_add(w, i, by, depth);
}

typedef struct shover_search {
    const ledge_world *w;
    int self;
    vec2s at;    ///< Where the character was when the step began.
    float depth; ///< The deepest overlap there so far.
    int slot;    ///< Its body, or -1.
} shover_search;

static bool shover_visit(ledge_body_id id, void *context) {
    shover_search *q = context;
    const ledge_world *w = q->w;
    int b = ledge__slot_of(w, id);
    if (b < 0 || b == q->self || w->type[b] != LEDGE_BODY_DYNAMIC) return true;
    ledge_manifold m =
        ledge_collide(ledge__shape_of(w, b), w->position[b], ledge__shape_of(w, q->self), q->at);
    if (m.hit && m.depth > q->depth) {
        q->depth = m.depth;
        q->slot = b;
    }
    return true;
}

// The body that shoved character slot i: it went with the character in
// the step, so it overlaps most where the character was when the step
// began (-1: none does).
static int find_shover(ledge_world *w, const ledge__character *c, int i) {
    shover_search q = {w, i, c->step_start, 0.0f, -1};
    ledge_query_filter f = ledge_default_query_filter();
    f.category = f.mask = ~(uint64_t)0;
    f.include_tiles = false;
    f.ignore = c->id;
    ledge_world_query_aabb(w, ledge_shape_aabb(ledge__shape_of(w, i), c->step_start), &f,
                           shover_visit, &q);
    return q.slot;
}

// What shoves moved character slot i by in the step (push.c), against the
// level: a shove into a wall or ceiling is made again from where the step
// began, stopped against it (the body that shoved it and the body or
// kinematic chain it stands on, which the carry then follows, no
// obstacles); the shoving body
// then goes on into it, and crushes it when deeper than skin.
static void resolve_shove(ledge_world *w, ledge__character *c, int i, bool *synced) {
    if (c->shove.x == 0.0f && c->shove.y == 0.0f) return;
    if (!*synced) ledge__query_sync(w);
    *synced = true;
    ledge__query_refile(w, i);
    int by = find_shover(w, c, i);
    ledge_move_def md = c->def.move;
    ledge_move_result r;
    if (ledge__move_carry(w, i, c->step_start, by, c->floor_slot, c->floor_chain, nothing, &md, &r))
        take_carry(w, &c->state, &r);
    if (by < 0) return;
    ledge_manifold m = ledge_collide(ledge__shape_of(w, by), w->position[by], ledge__shape_of(w, i),
                                     w->position[i]);
    if (m.hit && m.depth > md.skin) crush(w, c, i, by, m.depth);
}

void ledge__characters_carry(ledge_world *w) {
    ledge__characters *t = w->characters;
    if (t == NULL) return;
    bool synced = false;
    for (int k = 0; t->pushers > 0 && k < t->count; ++k) {
        ledge__character *c = &t->c[t->list[k]];
        int i = w->slot_of[t->list[k]];
        if (ledge__character_at(w, i) != NULL && c->def.push_bodies)
            resolve_shove(w, c, i, &synced);
    }
    for (bool left = true, force = false; left;) {
        bool progress = false;
        left = false;
        for (int k = 0; k < t->count; ++k) {
            ledge__character *c = &t->c[t->list[k]];
            int i = w->slot_of[t->list[k]];
            if (c->floor_slot < 0 && c->floor_chain < 0) continue;
            if (ledge__character_at(w, i) == NULL) {
                c->floor_slot = c->floor_chain = -1;
                continue;
            }
            if (!force && floor_waits(w, c)) {
                left = true;
                continue;
            }
            carry_one(w, i, &synced);
            progress = true;
        }
        force = !progress;
    }
    // The one place the state takes the body's position after the step:
    // carries and shoves moved it, and so did a velocity of its own; the
    // next step's riding test (placed elsewhere since?) compares with it.
    for (int k = 0; k < t->count; ++k)
        t->c[t->list[k]].state.position = w->position[w->slot_of[t->list[k]]];
}

// --- pushes and shoves, after the step ----------------------------------------

// Moves character slot i by d with the mover after the step (a push's
// follow, a shove): its position and floor into the state, and a wall it
// met. Returns how far it went along d (0 when the move was refused).
static float move_on(ledge_world *w, ledge__character *c, int i, vec2s d) {
    ledge_character_state *s = &c->state;
    ledge_move_def md = c->def.move;
    md.set_velocity = false;
    int crusher =
        s->crushed && ledge_body_is_valid(w, s->crushed_by) ? ledge__slot_of(w, s->crushed_by) : -1;
    int ignore = crusher >= 0 && overlaps(w, i, crusher, md.skin) ? crusher : -1;
    uint8_t in_one_way = w->in_one_way[i];
    ledge_move_result r;
    bool ok = ledge__move_ignoring(w, c->id, d, &md, &r, ignore);
    w->in_one_way[i] = in_one_way;
    if (!ok) return 0.0f;
    s->position = r.position;
    s->on_floor = r.on_ground;
    s->floor_normal = r.ground_normal;
    take_floor(w, s, &r);
    if (r.on_wall && !s->on_wall) {
        s->on_wall = true;
        s->wall_side = r.wall_side;
        s->wall_normal = r.wall_normal;
    }
    float l = v2_len(d);
    return l > 0.0f ? v2_dot(r.displacement, d) / l : 0.0f;
}

// A push's follow: the character moves on by what the body it pushed
// moved along the push in the step (beyond what the step moved the
// character itself: a platform's carry, a shove), never further than its
// move wanted. The push is used up.
static void follow(ledge_world *w, ledge__character *c, int i) {
    ledge__push *p = &c->push;
    if (p->count == 0) return;
    p->count = 0;
    if (!ledge_body_is_valid(w, p->body[0])) return;
    int b = ledge__slot_of(w, p->body[0]);
    float moved = v2_dot(v2_sub(w->position[b], c->pushed_start), p->dir) -
                  v2_dot(v2_sub(w->position[i], c->step_start), p->dir);
    float along = minf(moved, p->entry);
    if (along > 0.0f) move_on(w, c, i, v2_scale(p->dir, along));
}

// The contacts of the step between characters that push and dynamic
// bodies: a body resting on one from above is its ceiling, and pins it
// while it stands on a floor: crushed.
static void answered(ledge_world *w) {
    int n = ledge__view_count(w);
    for (int k = 0; k < n; ++k) {
        const ledge__contact *e = ledge__view_contact(w, k);
        if (e->b < 0 || e->policy == LEDGE_RESPONSE_CROSS) continue;
        int ch = w->type[e->a] == LEDGE_BODY_KINEMATIC ? e->a : e->b, by = ch == e->a ? e->b : e->a;
        if (w->type[by] != LEDGE_BODY_DYNAMIC || !w->alive[by]) continue;
        ledge__character *c = ledge__character_at(w, ch);
        if (c == NULL || !c->def.push_bodies) continue;
        ledge_character_state *s = &c->state;
        vec2s n = ch == e->a ? v2_neg(e->normal) : e->normal; // toward the body
        if (v2_dot(n, c->up) >= c->cos_floor) {
            if (!rests_on(w, ch, by, c->up, c->def.move.skin)) continue;
            s->ceiling_body = ledge__body_id(w, by);
            s->on_ceiling = true;
            s->ceiling_normal = v2_neg(n);
            if (s->on_floor) crush(w, c, ch, by, 0.0f);
        }
    }
}

void ledge__characters_after_push(ledge_world *w) {
    ledge__characters *t = w->characters;
    if (t == NULL || t->pushers == 0) return;
    ledge__query_sync(w);
    for (int k = 0; k < t->count; ++k) {
        ledge__character *c = &t->c[t->list[k]];
        int i = w->slot_of[t->list[k]];
        if (ledge__character_at(w, i) == NULL || !c->def.push_bodies) continue;
        c->state.ceiling_body = LEDGE_NULL_BODY_ID;
        follow(w, c, i);
    }
    answered(w);
}
