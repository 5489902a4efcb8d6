// Snapshots: the character table (characters.h): each character's def,
// its state (the last move's result with it), where its last move ended
// and what it left for the next step to push, in creation order (the order
// the step carries them in). What the step notes for a carry (the floor
// stood on, riding) and a push (where the bodies were) is found again at
// the next step.
#include "characters.h"
#include "snapshot_characters.h"

static void put_id(ledge__writer *o, ledge_body_id id) {
    ledge__put_var(o, id.index1);
    if (id.index1 != 0) ledge__put_var(o, id.generation);
}

static ledge_body_id get_id(ledge__reader *r, const ledge_world *w, int slots) {
    ledge_body_id id = LEDGE_NULL_BODY_ID;
    id.index1 = (uint32_t)ledge__get_count(r, (uint64_t)slots, "a character's body id");
    if (id.index1 == 0) return id;
    id.generation = (uint32_t)ledge__get_count(r, UINT32_MAX, "a generation");
    id.world = w->serial;
    return id;
}

static void put_chain(ledge__writer *o, ledge_chain_id id) {
    ledge__put_var(o, id.index1);
    if (id.index1 != 0) ledge__put_var(o, id.generation);
}

// A chain id as kept (a character's floor or hit may name a chain that
// died since: the id is then stale, as a body's would be).
static ledge_chain_id get_chain(ledge__reader *r, const ledge_world *w) {
    ledge_chain_id id = LEDGE_NULL_CHAIN_ID;
    id.index1 = (uint32_t)ledge__get_count(r, UINT32_MAX, "a character's chain id");
    if (id.index1 == 0) return id;
    id.generation = (uint32_t)ledge__get_count(r, UINT32_MAX, "a generation");
    id.world = w->serial;
    return id;
}

static void put_move_def(ledge__writer *o, const ledge_move_def *d) {
    ledge__put_var(o, (uint64_t)d->max_slides);
    ledge__put_f32(o, d->max_floor_slope);
    ledge__put_f32(o, d->snap_length);
    ledge__put_f32(o, d->skin);
    ledge__put_vec(o, d->up);
    ledge__put_f32(o, d->step_height);
    ledge__put_u8(o, (unsigned)d->stop_on_slope | (unsigned)d->set_velocity << 1 |
                         (unsigned)d->slide_on_steep << 2 |
                         (unsigned)d->constant_speed_on_slopes << 3 |
                         (unsigned)d->block_on_wall << 4);
}

static bool get_move_def(ledge__reader *r, ledge_move_def *d) {
    d->max_slides = (int)ledge__get_count(r, 16, "a character's max_slides");
    d->max_floor_slope = ledge__get_f32(r);
    d->snap_length = ledge__get_f32(r);
    d->skin = ledge__get_f32(r);
    d->up = ledge__get_vec_within(r, LEDGE_MAX_COORDINATE, "a character's up");
    d->step_height = ledge__get_f32(r);
    unsigned b = ledge__get_u8(r);
    d->stop_on_slope = b & 1u;
    d->set_velocity = b >> 1 & 1u;
    d->slide_on_steep = b >> 2 & 1u;
    d->constant_speed_on_slopes = b >> 3 & 1u;
    d->block_on_wall = b >> 4 & 1u;
    // ledge_character_create's checks (the mover's ranges).
    if (!r->failed &&
        (d->max_slides < 1 || b > 31u ||
         !(d->max_floor_slope >= 0.0f && d->max_floor_slope <= LEDGE_MOVE_MAX_FLOOR_SLOPE) ||
         !(d->snap_length >= 0.0f && d->snap_length <= LEDGE_MAX_COORDINATE) ||
         !(d->skin > 0.0f && d->skin <= LEDGE_MAX_COORDINATE) ||
         !(d->step_height >= 0.0f && d->step_height <= LEDGE_MAX_COORDINATE)))
        ledge__read_fail(r, "a character's move def is out of its ranges");
    return !r->failed;
}

static vec2s get_vec(ledge__reader *r) {
    return ledge__get_vec_within(r, 3.0e38f, "a character's vector");
}

static void put_result(ledge__writer *o, const ledge_move_result *m) {
    ledge__put_vec(o, m->position);
    ledge__put_vec(o, m->displacement);
    ledge__put_vec(o, m->velocity);
    ledge__put_u8(o, (unsigned)m->on_ground | (unsigned)m->on_wall << 1 |
                         (unsigned)m->on_ceiling << 2 | (unsigned)m->snapped << 3 |
                         (unsigned)m->stuck << 4);
    ledge__put_svar(o, m->wall_side);
    ledge__put_vec(o, m->ground_normal);
    ledge__put_vec(o, m->wall_normal);
    ledge__put_vec(o, m->ceiling_normal);
    ledge__put_vec(o, m->up);
    ledge__put_svar(o, m->ground_hit);
    ledge__put_var(o, (uint64_t)m->hit_count);
    for (int k = 0; k < m->hit_count; ++k) {
        const ledge_move_hit *h = &m->hits[k];
        ledge__put_var(o, (uint64_t)h->kind);
        put_id(o, h->body);
        put_chain(o, h->chain);
        ledge__put_svar(o, h->segment);
        ledge__put_svar(o, h->cell_x);
        ledge__put_svar(o, h->cell_y);
        ledge__put_var(o, h->tile);
        ledge__put_vec(o, h->normal);
        ledge__put_vec(o, h->point);
        ledge__put_vec(o, h->push);
        ledge__put_f32(o, h->fraction);
    }
}

static int get_small(ledge__reader *r, int lo, int hi, const char *what) {
    int64_t v = ledge__get_svar(r);
    if (v < lo || v > hi) {
        ledge__read_fail(r, "%s is %lld (%d..%d)", what, (long long)v, lo, hi);
        return 0;
    }
    return (int)v;
}

static bool get_result(ledge__reader *r, const ledge_world *w, int slots, ledge_move_result *m) {
    m->position = get_vec(r);
    m->displacement = get_vec(r);
    m->velocity = get_vec(r);
    unsigned b = ledge__get_u8(r);
    if (b > 31u) return ledge__read_fail(r, "a move result's flags are %u", b);
    m->on_ground = b & 1u;
    m->on_wall = b >> 1 & 1u;
    m->on_ceiling = b >> 2 & 1u;
    m->snapped = b >> 3 & 1u;
    m->stuck = b >> 4 & 1u;
    m->wall_side = get_small(r, -1, 1, "a wall side");
    m->ground_normal = get_vec(r);
    m->wall_normal = get_vec(r);
    m->ceiling_normal = get_vec(r);
    m->up = get_vec(r);
    m->ground_hit = get_small(r, -1, LEDGE_MOVE_MAX_HITS - 1, "a ground hit");
    m->hit_count = (int)ledge__get_count(r, LEDGE_MOVE_MAX_HITS, "a move's hits");
    if (m->ground_hit >= m->hit_count) return ledge__read_fail(r, "the ground hit is no hit");
    for (int k = 0; k < m->hit_count && !r->failed; ++k) {
        ledge_move_hit *h = &m->hits[k];
        h->kind = (ledge_hit_kind)ledge__get_count(r, LEDGE_HIT_CHAIN, "a hit's kind");
        h->body = get_id(r, w, slots);
        h->chain = get_chain(r, w);
        h->segment = get_small(r, 0, INT32_MAX, "a hit's segment");
        h->cell_x = get_small(r, INT32_MIN, INT32_MAX, "a hit's cell");
        h->cell_y = get_small(r, INT32_MIN, INT32_MAX, "a hit's cell");
        h->tile = (ledge_tile)ledge__get_count(r, LEDGE_TILE_COUNT - 1, "a hit's tile");
        h->normal = get_vec(r);
        h->point = get_vec(r);
        h->push = get_vec(r);
        h->fraction = ledge__get_within(r, 3.0e38f, "a hit's fraction");
    }
    return !r->failed;
}

static void put_state(ledge__writer *o, const ledge_character_state *s) {
    ledge__put_vec(o, s->position);
    ledge__put_vec(o, s->velocity);
    ledge__put_vec(o, s->real_velocity);
    ledge__put_u8(o, (unsigned)s->on_floor | (unsigned)s->on_wall << 1 |
                         (unsigned)s->on_ceiling << 2 | (unsigned)s->floor_is_tile << 3 |
                         (unsigned)s->crushed << 4 | (unsigned)s->hanging << 5);
    ledge__put_svar(o, s->wall_side);
    ledge__put_vec(o, s->floor_normal);
    ledge__put_vec(o, s->wall_normal);
    ledge__put_vec(o, s->ceiling_normal);
    put_id(o, s->floor_body);
    put_chain(o, s->floor_chain);
    ledge__put_svar(o, s->floor_cell_x);
    ledge__put_svar(o, s->floor_cell_y);
    ledge__put_var(o, s->floor_tile);
    ledge__put_f32(o, s->floor_material.friction);
    ledge__put_f32(o, s->floor_material.bounce);
    ledge__put_f32(o, s->floor_material.surface_speed);
    ledge__put_u8(o, (unsigned)s->floor_material.friction_mix);
    ledge__put_vec(o, s->platform_velocity);
    ledge__put_f32(o, s->time_since_floor);
    put_result(o, &s->last_move);
    put_id(o, s->crushed_by);
    ledge__put_u8(o, s->pushing);
    put_id(o, s->pushed_body);
    put_id(o, s->ceiling_body);
    ledge__put_var(o, s->hang_joint.index1);
    if (s->hang_joint.index1 != 0) ledge__put_var(o, s->hang_joint.generation);
    ledge__put_vec(o, s->hang_anchor);
}

static bool get_state(ledge__reader *r, const ledge_world *w, int slots, ledge_character_state *s) {
    s->position = get_vec(r);
    s->velocity = get_vec(r);
    s->real_velocity = get_vec(r);
    unsigned b = ledge__get_u8(r);
    if (b > 63u) return ledge__read_fail(r, "a character's flags are %u", b);
    s->on_floor = b & 1u;
    s->on_wall = b >> 1 & 1u;
    s->on_ceiling = b >> 2 & 1u;
    s->floor_is_tile = b >> 3 & 1u;
    s->crushed = b >> 4 & 1u;
    s->hanging = b >> 5 & 1u;
    s->wall_side = get_small(r, -1, 1, "a wall side");
    s->floor_normal = get_vec(r);
    s->wall_normal = get_vec(r);
    s->ceiling_normal = get_vec(r);
    s->floor_body = get_id(r, w, slots);
    s->floor_chain = get_chain(r, w);
    s->floor_cell_x = get_small(r, INT32_MIN, INT32_MAX, "a floor cell");
    s->floor_cell_y = get_small(r, INT32_MIN, INT32_MAX, "a floor cell");
    s->floor_tile = (ledge_tile)ledge__get_count(r, LEDGE_TILE_COUNT - 1, "a floor tile");
    s->floor_material.friction = ledge__get_f32(r);
    s->floor_material.bounce = ledge__get_f32(r);
    s->floor_material.surface_speed =
        ledge__get_within(r, LEDGE_MAX_COORDINATE, "a floor's surface speed");
    s->floor_material.friction_mix = (ledge_friction_mix)ledge__get_u8(r);
    if (!r->failed && !ledge_material_is_valid(&s->floor_material))
        return ledge__read_fail(r, "a character's floor material is out of range");
    s->platform_velocity = get_vec(r);
    s->time_since_floor = ledge__get_within(r, 3.0e38f, "a time since the floor");
    if (!get_result(r, w, slots, &s->last_move)) return false;
    s->crushed_by = get_id(r, w, slots);
    unsigned pushing = ledge__get_u8(r);
    if (pushing > 1u) return ledge__read_fail(r, "a character's pushing is %u", pushing);
    s->pushing = pushing != 0;
    s->pushed_body = get_id(r, w, slots);
    s->ceiling_body = get_id(r, w, slots);
    // The joint it hangs from (an id as the game holds it: a stale one is
    // refused by every call, as after any step).
    s->hang_joint.index1 = (uint32_t)ledge__get_count(r, UINT32_MAX, "a hang joint");
    if (s->hang_joint.index1 != 0) {
        s->hang_joint.generation = (uint32_t)ledge__get_count(r, UINT32_MAX, "a generation");
        s->hang_joint.world = w->serial;
    }
    s->hang_anchor = get_vec(r);
    return !r->failed;
}

// What the last move left for the next step to push, and a shove the last
// substep gave it (push.c); the rest of the push's notes are the step's.
static void put_push(ledge__writer *o, const ledge__character *c) {
    ledge__put_var(o, (uint64_t)c->push.count);
    for (int k = 0; k < c->push.count; ++k) put_id(o, c->push.body[k]);
    if (c->push.count > 0) {
        ledge__put_vec(o, c->push.dir);
        ledge__put_f32(o, c->push.entry);
        ledge__put_f32(o, c->push.speed);
    }
    ledge__put_vec(o, c->shove_velocity);
}

static bool get_push(ledge__reader *r, const ledge_world *w, int slots, ledge__character *c) {
    c->push.count = (int)ledge__get_count(r, LEDGE__PUSHED_MAX, "a character's pushed bodies");
    for (int k = 0; k < c->push.count && !r->failed; ++k) {
        c->push.body[k] = get_id(r, w, slots);
        if (c->push.body[k].index1 == 0) return ledge__read_fail(r, "a pushed body is the null id");
    }
    if (c->push.count > 0) {
        c->push.dir = ledge__get_vec_within(r, 1.5f, "a push's direction");
        c->push.entry = ledge__get_within(r, 3.0e38f, "a push's entry");
        c->push.speed = ledge__get_within(r, 3.0e38f, "a push's speed");
        if (!r->failed && !(c->push.entry > 0.0f && c->push.speed > 0.0f))
            return ledge__read_fail(r, "a push's entry or speed is not positive");
    }
    c->shove_velocity = get_vec(r);
    return !r->failed;
}

void ledge__snap_characters_put(const ledge_world *w, ledge__writer *o) {
    const ledge__characters *t = w->characters;
    int count = t != NULL ? t->count : 0;
    ledge__put_var(o, (uint64_t)count);
    for (int k = 0; k < count; ++k) {
        const ledge__character *c = &t->c[t->list[k]];
        ledge__put_var(o, (uint64_t)t->list[k]);
        ledge__put_var(o, c->id.generation);
        put_move_def(o, &c->def.move);
        ledge__put_var(o, (uint64_t)c->def.platform_on_leave);
        ledge__put_u8(o, (unsigned)c->def.ride_platforms | (unsigned)c->def.push_bodies << 1);
        ledge__put_f32(o, c->def.push_mass);
        put_state(o, &c->state);
        ledge__put_vec(o, c->last_position);
        put_push(o, c);
    }
}

bool ledge__snap_characters_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan,
                                bool apply) {
    int n = plan->slots;
    int count = (int)ledge__get_count(r, (uint64_t)n, "the characters");
    ledge__characters *t = w->characters;
    if (apply && t != NULL) {
        memset(t->c, 0, sizeof *t->c * (size_t)t->cap);
        t->count = 0;
    }
    plan->characters = count;
    plan->character_room = 0;
    if (!apply && n > 0) memset(w->step.restore_listed, 0, (size_t)n);
    for (int k = 0; k < count && !r->failed; ++k) {
        ledge__character c;
        memset(&c, 0, sizeof c);
        int h = (int)ledge__get_count(r, (uint64_t)n - 1u, "a character's handle");
        c.id.index1 = (uint32_t)h + 1u;
        c.id.generation = (uint32_t)ledge__get_count(r, UINT32_MAX, "a generation");
        c.id.world = w->serial;
        if (!get_move_def(r, &c.def.move)) break;
        c.def.platform_on_leave = (ledge_platform_leave)ledge__get_count(
            r, LEDGE_PLATFORM_LEAVE_NOTHING, "a platform_on_leave");
        unsigned flags = ledge__get_u8(r);
        if (flags > 3u) return ledge__read_fail(r, "a character's flags are %u", flags);
        c.def.ride_platforms = (flags & 1u) != 0;
        c.def.push_bodies = (flags & 2u) != 0;
        c.def.push_mass = ledge__get_within(r, LEDGE_MAX_MASS, "a character's push_mass");
        if (!r->failed && !(c.def.push_mass >= 0.0f))
            return ledge__read_fail(r, "a character's push_mass is negative");
        if (!get_state(r, w, n, &c.state)) break;
        c.last_position = get_vec(r);
        if (!get_push(r, w, n, &c)) break;
        c.floor_slot = -1;
        c.floor_chain = -1;
        if (r->failed) break;
        if (h + 1 > plan->character_room) plan->character_room = h + 1;
        if (!apply) {
            // A handle listed twice would be two characters of one body.
            if (w->step.restore_listed[h])
                return ledge__read_fail(r, "character handle %d is listed twice", h);
            w->step.restore_listed[h] = 1;
            continue;
        }
        c.push_mass = ledge__character_push_mass(w, w->slot_of[h], &c.def);
        t->c[h] = c;
        t->list[t->count++] = h;
    }
    return !r->failed;
}
