// Snapshots: the chains. Per slot its generation and whether it lives; a
// living chain's points (its segments, trees and the cuts at its ends are
// made again from them, as ledge_chain_create makes them), its type, loop
// and moved flags, position, velocities, filter, material and user data
// (the pointer's bits); then the free slots in their order (so that the chains
// made after a restore get the ids they got after the save) and whether
// the game moved a chain since the last step. The first reading checks
// every chain as ledge_chain_create does and builds them aside; the second
// puts that store in the world's place.
#include "chain_store.h"
#include "snapshot_chains.h"

#include <string.h>

static void put_filter(ledge__writer *o, ledge_filter f) {
    ledge__put_u64(o, f.category);
    ledge__put_u64(o, f.mask);
    ledge__put_svar(o, f.group);
}

// The material as ledge__chain_check checks it (snapshot_tiles.c's order).
static void put_material(ledge__writer *o, const ledge_material *m) {
    ledge__put_f32(o, m->friction);
    ledge__put_f32(o, m->bounce);
    ledge__put_f32(o, m->surface_speed);
    ledge__put_u8(o, (unsigned)m->friction_mix);
}

void ledge__snap_chains_put(const ledge_world *w, ledge__writer *o) {
    const ledge__chains *cs = w->chains;
    int count = cs != NULL ? cs->count : 0;
    ledge__put_var(o, (uint64_t)count);
    for (int s = 0; s < count; ++s) {
        const ledge__chain *c = &cs->c[s];
        ledge__put_var(o, c->generation);
        ledge__put_u8(o, c->alive);
        if (!c->alive) continue;
        ledge__put_u8(o, (unsigned)c->type | (unsigned)c->loop << 1 | (unsigned)c->moved << 2);
        ledge__put_var(o, (uint64_t)c->point_count);
        for (int k = 0; k < c->point_count; ++k) ledge__put_vec(o, c->points[k]);
        ledge__put_vec(o, c->position);
        ledge__put_vec(o, c->velocity);
        ledge__put_vec(o, c->prev_velocity);
        ledge__put_vec(o, c->last_position);
        put_filter(o, c->filter);
        put_material(o, &c->material);
        ledge__put_u64(o, (uint64_t)(uintptr_t)c->user_data);
    }
    int free_count = cs != NULL ? cs->free_count : 0;
    ledge__put_var(o, (uint64_t)free_count);
    for (int k = 0; k < free_count; ++k) ledge__put_var(o, (uint64_t)cs->free_slots[k]);
    ledge__put_u8(o, cs != NULL && cs->any_moved);
}

// One living chain of slot s read and put in the store (false: refused).
static bool get_chain(ledge__reader *r, ledge__chains *cs, int s, uint32_t generation) {
    unsigned flags = ledge__get_u8(r);
    if (flags > 7u) return ledge__read_fail(r, "chain %d's flags are %u", s, flags);
    ledge_chain_def def = ledge_default_chain_def();
    def.type = (flags & 1u) ? LEDGE_BODY_KINEMATIC : LEDGE_BODY_STATIC;
    def.loop = (flags & 2u) != 0;
    uint64_t most = (uint64_t)(r->end - r->at) / 8u;
    def.count = (int)ledge__get_count(
        r, most < LEDGE_MAX_CHAIN_POINTS ? most : LEDGE_MAX_CHAIN_POINTS, "a chain's points");
    if (r->failed) return false;
    vec2s *points = ledge__alloc(sizeof *points * (size_t)(def.count > 0 ? def.count : 1));
    if (points == NULL) {
        r->no_room = true;
        return ledge__read_fail(r, "allocation of a chain of %d points failed", def.count);
    }
    for (int k = 0; k < def.count; ++k) points[k] = ledge__get_vec(r);
    def.points = points;
    def.position = ledge__get_vec(r);
    def.velocity = ledge__get_vec(r);
    vec2s prev = ledge__get_vec_within(r, LEDGE_MAX_COORDINATE, "a chain's velocity");
    vec2s last = ledge__get_vec_within(r, LEDGE_MAX_COORDINATE, "a chain's position");
    def.filter.category = ledge__get_u64(r);
    def.filter.mask = ledge__get_u64(r);
    int64_t group = ledge__get_svar(r);
    def.filter.group = (int32_t)group;
    def.material.friction = ledge__get_f32(r);
    def.material.bounce = ledge__get_f32(r);
    def.material.surface_speed = ledge__get_f32(r);
    def.material.friction_mix = (ledge_friction_mix)ledge__get_u8(r);
    def.user_data = (void *)(uintptr_t)ledge__get_u64(r);
    char why[240];
    bool ok = !r->failed;
    if (ok && (group < INT32_MIN || group > INT32_MAX)) {
        ok = ledge__read_fail(r, "chain %d's filter group is %lld", s, (long long)group);
    } else if (ok && !ledge__chain_check(&def, why, sizeof why)) {
        ok = ledge__read_fail(r, "chain %d: %s", s, why);
    } else if (ok && !ledge__chains_put(cs, s, &def, generation)) {
        r->no_room = true;
        ok = ledge__read_fail(r, "allocation of chain %d failed", s);
    }
    ledge__free(points);
    if (!ok) return false;
    ledge__chain *c = &cs->c[s];
    c->moved = (flags & 4u) != 0;
    c->prev_velocity = def.type == LEDGE_BODY_KINEMATIC ? prev : v2(0.0f, 0.0f);
    c->last_position = last;
    return true;
}

bool ledge__snap_chains_check(ledge__reader *r, ledge__snap_plan *plan) {
    plan->chains = NULL;
    int count = (int)ledge__get_count(r, (uint64_t)(r->end - r->at) / 2u, "the chain slots");
    if (r->failed) return false;
    ledge__chains *cs = NULL;
    if (count > 0) {
        cs = ledge__chains_make(count);
        if (cs == NULL) {
            r->no_room = true;
            return ledge__read_fail(r, "allocation of %d chain slots failed", count);
        }
        cs->count = count;
    }
    plan->chains = cs;
    for (int s = 0; s < count && !r->failed; ++s) {
        uint32_t generation = (uint32_t)ledge__get_count(r, UINT32_MAX, "a chain's generation");
        unsigned alive = ledge__get_u8(r);
        if (alive > 1u) return ledge__read_fail(r, "chain %d's life is %u", s, alive);
        if (alive) {
            if (!get_chain(r, cs, s, generation)) return false;
        } else if (!r->failed) {
            cs->c[s].generation = generation;
        }
    }
    int free_count = (int)ledge__get_count(r, (uint64_t)count, "the free chain slots");
    for (int k = 0; k < free_count && !r->failed; ++k) {
        int s = (int)ledge__get_count(r, (uint64_t)count - 1u, "a free chain slot");
        if (r->failed) break;
        if (cs->c[s].alive || cs->c[s].point_count < 0)
            return ledge__read_fail(r, "free chain slot %d is a living chain or listed twice", s);
        cs->c[s].point_count = -1; // (listed: cleared below)
        cs->free_slots[k] = s;
    }
    unsigned moved = ledge__get_u8(r);
    if (r->failed) return false;
    if (moved > 1u) return ledge__read_fail(r, "the chains' moved flag is %u", moved);
    if (cs == NULL) return true;
    cs->free_count = free_count;
    cs->any_moved = moved != 0;
    int dead = 0;
    for (int s = 0; s < count; ++s) {
        if (cs->c[s].point_count < 0) cs->c[s].point_count = 0;
        dead += !cs->c[s].alive;
    }
    if (dead != free_count)
        return ledge__read_fail(r, "%d chain slots are dead but %d are free", dead, free_count);
    return true;
}

void ledge__snap_chains_apply(ledge_world *w, ledge__snap_plan *plan) {
    ledge__chains_unblock(w); // the map's sides the old chains' ends blocked
    ledge__chains_free(w);
    w->chains = plan->chains;
    plan->chains = NULL; // what it derives is forgotten with the rest (ledge__world_forget)
}
