// Contacts as the stages read them: what a tile contact depends on, which
// body of a contact rests on the other, the game's view (the live contacts,
// then the held ones of sleepers). Inline only: the contacts are the
// world's state (world_state.h).
#ifndef LEDGE_CONTACTS_H
#define LEDGE_CONTACTS_H

#include "material.h"
#include "tilemap_material.h"
#include "world_state.h"

/// What a tile contact depends on in its cell: the tile and its one-way
/// setting (-1 outside the map, which never changes).
static inline int ledge__cell_stamp(const ledge_tilemap *map, int x, int y) {
    if (x < 0 || y < 0 || x >= map->width || y >= map->height) return -1;
    size_t k = (size_t)y * (size_t)map->width + (size_t)x;
    return (int)map->tiles[k] | (int)map->one_way[k] << 8;
}

/// A contact's friction, bounce and surface speed between body a and a
/// level surface of material m (a tile, a cell, a chain): material.h's
/// rule, the surface's material first, so that against the default
/// material the body keeps its own bits.
static inline void ledge__surface_contact_material(const ledge_world *w, int a,
                                                   const ledge_material *m, ledge__contact *c) {
    c->friction =
        ledge__mix_friction(m->friction, m->friction_mix, w->friction[a], w->friction_mix[a]);
    c->bounce = ledge__mix_bounce(m->bounce, w->bounce[a]);
    c->speed = m->surface_speed + w->surface_speed[a];
}

/// A tile contact's: body a against the material of cell (x, y).
static inline void ledge__tile_contact_material(const ledge_world *w, int a, int x, int y,
                                                ledge__contact *c) {
    const ledge_material *m =
        ledge__tilemap_material(w->map, x, y, ledge__tilemap_at(w->map, x, y));
    ledge__surface_contact_material(w, a, m, c);
}

/// How body a's friction mixes in a contact with another body: its own
/// mode, except that a kinematic body of the default mode (the mean) holds
/// what touches it as the level does, by the larger friction (MAX). A
/// platform made with the default def (friction 0) then carries a crate
/// by the crate's friction, as a tile holds it; one given a friction grips
/// even a frictionless body; one given MIN (an icy platform) stays icy.
/// (The geometric mean made every body slide on a default platform: a
/// crate of friction 0.6 on one that starts at 1 m/s stayed where it was
/// while the platform moved out from under it.)
static inline unsigned ledge__body_friction_mix(const ledge_world *w, int a) {
    unsigned m = w->friction_mix[a];
    return w->type[a] == LEDGE_BODY_KINEMATIC && m == LEDGE_FRICTION_MIX_MEAN
               ? (unsigned)LEDGE_FRICTION_MIX_MAX
               : m;
}

/// A contact's friction, bounce and surface speed between bodies a and b
/// (material.h's rule, with ledge__body_friction_mix's modes).
static inline void ledge__pair_contact_material(const ledge_world *w, int a, int b,
                                                ledge__contact *c) {
    c->friction = ledge__mix_friction(w->friction[a], ledge__body_friction_mix(w, a),
                                      w->friction[b], ledge__body_friction_mix(w, b));
    c->bounce = ledge__mix_bounce(w->bounce[a], w->bounce[b]);
    c->speed = w->surface_speed[a] + w->surface_speed[b];
}

/// Whether a tile contact's cell was edited since it was found (its stamp
/// is no longer the cell's): the contact no longer holds.
static inline bool ledge__tile_contact_changed(const ledge_tilemap *map, const ledge__contact *c) {
    if (c->b == LEDGE__CHAIN_CONTACT) return false; // a chain's, not a cell's
    return c->stamp != ledge__cell_stamp(map, c->cell_x, c->cell_y);
}

/// For a body-body contact answered between a dynamic body and a static or
/// kinematic one: the dynamic body d, the other p and the normal n from p
/// toward d. False for any other contact.
static inline bool ledge__dynamic_against_fixed(const ledge_world *w, const ledge__contact *c,
                                                int *d, int *p, vec2s *n) {
    if (c->b < 0 || c->policy == LEDGE_RESPONSE_CROSS) return false;
    bool a_dynamic = w->type[c->a] == LEDGE_BODY_DYNAMIC;
    *d = a_dynamic ? c->a : c->b;
    *p = a_dynamic ? c->b : c->a;
    *n = a_dynamic ? c->normal : v2_neg(c->normal);
    return w->type[*d] == LEDGE_BODY_DYNAMIC && w->type[*p] != LEDGE_BODY_DYNAMIC;
}

/// The body of contact c that rests on the other: c->a or c->b when the
/// normal is within LEDGE__STACKED_COSINE of up, else -1 (a tile, c->b < 0,
/// never rests on a body). c->normal points from b toward a.
static inline int ledge__upper_body(const ledge_world *w, const ledge__contact *c) {
    float up = v2_dot(c->normal, w->up);
    if (up > LEDGE__STACKED_COSINE) return c->a;
    return up < -LEDGE__STACKED_COSINE && c->b >= 0 ? c->b : -1;
}

/// Contacts in the game's view: the last substep's, then the held ones.
static inline int ledge__view_count(const ledge_world *w) {
    return w->contact_count + w->held_count;
}

/// Contact k (0 .. ledge__view_count - 1) of the game's view.
static inline const ledge__contact *ledge__view_contact(const ledge_world *w, int k) {
    return k < w->contact_count ? &w->contacts[k] : &w->held[k - w->contact_count];
}

#endif // LEDGE_CONTACTS_H
