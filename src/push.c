// Characters and dynamic bodies in the step (push.h).
//
// A character is a kinematic body that the mover moves between steps, so
// the step alone cannot tell that it walks into a crate: the move stops it
// against the crate, and its body stands still. What the move would have
// entered the crates it met is kept with the character (character.c), and
// each substep of the next step pushes them here, after the replay's
// friction and before the bodies move:
//
// - The row: the bodies the move met and, through the contacts, every
//   awake dynamic body touching one of them ahead (a contact normal within
//   45 degrees of the push), up to ROW_MAX. A tile, static body or other
//   fixed body ahead of a row body (its contact is no floor to it and faces
//   the push within 60 degrees) stops the whole row: nothing is pushed into
//   a wall, so nothing is squeezed.
// - What holds it back statically, H (a force, across up): for each row
//   body the friction its floor holds whatever its speed (the Coulomb cap
//   of the load it carries, response.c, and Coulomb's f g cos under
//   Coulomb's law or within a pile) and its weight along the floor when
//   pushed uphill, each over the cosine between the floor and the push.
//   The character pushes with at most its push mass M's weight M g, so it
//   meets the row as a body of mass M' = M - H / g (0 or less: too heavy).
// - The meeting: the row's speed across up, relative to each body's floor,
//   becomes the common speed of M' moving at the character's speed w and
//   the row's bodies at theirs, U = (M' w + sum m u) / (M' + sum m), along
//   each body's floor (so that a body on a slope goes up or down it, with
//   the same speed across up as the character, which follows floors so).
//   A body already faster is left alone. Momentum is shared as the response
//   shares it between two bodies; the floor's friction then acts on it in
//   the next substep's replay, as on any body. On a flat floor of friction
//   f under N's law the speed settles where the two balance:
//   U* = w M' / (M' + f m) (docs/character.md).
//
// After the step, the character moves on by what the row moved (never more
// than its move wanted): character.c.
//
// The other way round, a dynamic body moving into a character from the side
// meets it in the response (response.c) as a body of mass M: the response
// gives the character's body a velocity (a shove), which moves it in the
// next substeps (kinematic bodies move by their velocity), along its floor,
// while its legs brake it as friction 1 brakes a sliding body
// (ledge__push_after_move): the body and the character go on together,
// slowing. After the step, a shove that took the character into the level
// is made again from where it began, stopped at the wall (character.c): the
// body that shoved it then overlaps it, and crushes it if deeper than skin.
// A body from above meets the character as the level (it lands on it).
#include "push.h"
#include "chain_store.h"
#include "characters.h"
#include "contacts.h"
#include "slots.h"
#include "world_state.h"

#include <string.h>

enum { ROW_MAX = 16 };

/// A body joins the row through a contact whose normal, from the row body
/// toward it, is within 45 degrees of the push.
#define ROW_COS 0.70710678f
/// A fixed obstacle stops the row when the contact is no floor to the row
/// body and its normal, from the body toward it, is within 60 degrees of
/// the push.
#define WALL_COS 0.5f

typedef struct row {
    int slot[ROW_MAX];
    vec2s along[ROW_MAX];  ///< Unit, along the body's floor, with the push.
    float across[ROW_MAX]; ///< along . dir: the cosine between the floor and the push.
    float speed[ROW_MAX];  ///< Its speed across up relative to its floor.
    vec2s into[ROW_MAX];   ///< What takes out its motion across its floor (a push goes along it).
    int count;
    bool blocked;
} row;

static vec2s up_of(const ledge_world *w, vec2s up) {
    if (up.x != 0.0f || up.y != 0.0f) {
        double x = up.x, y = up.y, l = sqrt(x * x + y * y);
        return v2((float)(x / l), (float)(y / l));
    }
    return w->up.x != 0.0f || w->up.y != 0.0f ? w->up : v2(0.0f, 1.0f);
}

// The character of each listed handle that pushes bodies, with its slot.
static ledge__character *pusher(const ledge_world *w, int k, int *slot) {
    const ledge__characters *t = w->characters;
    ledge__character *c = &t->c[t->list[k]];
    *slot = w->slot_of[t->list[k]];
    return ledge__character_at(w, *slot) != NULL && c->def.push_bodies ? c : NULL;
}

// Whether body i is a character that pushes (the characters' `touching`
// mark is then set by the caller).
static ledge__character *touching_character(const ledge_world *w, int i) {
    if (i < 0 || w->type[i] != LEDGE_BODY_KINEMATIC) return NULL;
    ledge__character *c = ledge__character_at(w, i);
    return c != NULL && c->def.push_bodies ? c : NULL;
}

// The velocity of the kinematic body or chain character c rides, if it
// rides one (character.c found it before the step).
static bool platform_velocity(const ledge_world *w, const ledge__character *c, vec2s *v) {
    if (!c->riding) return false;
    if (c->floor_chain >= 0) {
        *v = w->chains->c[c->floor_chain].velocity;
        return true;
    }
    if (c->floor_slot < 0 || w->type[c->floor_slot] != LEDGE_BODY_KINEMATIC) return false;
    *v = w->velocity[c->floor_slot];
    return true;
}

// A character riding a platform is carried after the step (character.c),
// so the step sees it stand still while the platform and what is on it
// move: a crate on the platform would run into it. A character that
// pushes, or touches a dynamic body, goes with its platform in the step
// instead (its body's velocity is the platform's), and is put back before
// the carry, which stays exact.
static void ride_in_step(ledge_world *w) {
    ledge__characters *t = w->characters;
    bool any = false;
    for (int k = 0; k < t->count; ++k) {
        int i;
        ledge__character *c = pusher(w, k, &i);
        if (c == NULL) continue;
        c->touching = c->push.count > 0;
        vec2s v;
        any |= platform_velocity(w, c, &v);
    }
    if (!any) return;
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *e = &w->contacts[k];
        if (e->b < 0) continue;
        ledge__character *ca = touching_character(w, e->a), *cb = touching_character(w, e->b);
        if (ca != NULL && w->type[e->b] == LEDGE_BODY_DYNAMIC) ca->touching = true;
        if (cb != NULL && w->type[e->a] == LEDGE_BODY_DYNAMIC) cb->touching = true;
    }
    for (int k = 0; k < t->count; ++k) {
        int i;
        ledge__character *c = pusher(w, k, &i);
        vec2s v;
        if (c == NULL || !c->touching || !platform_velocity(w, c, &v)) continue;
        c->base_velocity = v2_add(c->base_velocity, v);
        w->velocity[i] = v2_add(w->velocity[i], v);
    }
}

void ledge__push_begin(ledge_world *w) {
    ledge__characters *t = w->characters;
    if (t == NULL) return;
    t->pushers = t->pushing = 0;
    for (int k = 0; k < t->count; ++k) {
        int i;
        ledge__character *c = pusher(w, k, &i);
        if (c == NULL) continue;
        t->pushers++;
        c->step_start = w->position[i];
        c->game_velocity = c->base_velocity = w->velocity[i];
        w->velocity[i] = v2_add(w->velocity[i], c->shove_velocity);
        c->shove_velocity = c->shove = v2(0.0f, 0.0f);
        c->up = up_of(w, c->def.move.up);
        c->cos_floor = cosf(c->def.move.max_floor_slope);
        int p = c->push.count > 0 ? ledge__live_slot(w, c->push.body[0]) : -1;
        if (p >= 0) {
            c->pushed_start = w->position[p];
            t->pushing++;
        }
    }
    if (t->pushers > 0) ride_in_step(w);
}

float ledge__push_inv_mass(const ledge_world *w, int slot, vec2s n) {
    if (w->type[slot] != LEDGE_BODY_KINEMATIC) return 0.0f;
    const ledge__character *c = ledge__character_at(w, slot);
    if (c == NULL || !c->def.push_bodies || fabsf(v2_dot(n, c->up)) >= c->cos_floor) return 0.0f;
    return 1.0f / c->push_mass;
}

// --- the contacts by body -------------------------------------------------------

static bool any_pusher(const ledge_world *w) {
    const ledge__characters *t = w->characters;
    for (int k = 0; t != NULL && k < t->count; ++k) {
        if (t->c[t->list[k]].def.push_bodies) return true;
    }
    return false;
}

bool ledge__push_reserve(ledge_world *w) {
    if (!any_pusher(w)) return true;
    ledge__characters *t = w->characters;
    if (LEDGE__RESERVE(t->first, t->first_cap, w->slot_count + 2, 0, 64) &&
        LEDGE__RESERVE(t->order, t->order_cap, 2 * w->contact_cap + 1, 0, 64))
        return true;
    LEDGE_ERROR("ledge_world_step: allocation of the pushes' contact index for %d bodies and %d "
                "contacts failed",
                w->slot_count, w->contact_cap);
    return false;
}

// Each slot's contacts (a counting sort of the contacts by body): slot i's
// are order[first[i] .. first[i + 1]). The room is made before the step
// (ledge__push_reserve); only contacts the step records beyond what the
// world has held before grow it here, as they grow the contacts. False
// when there is no room (the pushes wait for a substep that has it; logged).
static bool index_contacts(ledge_world *w) {
    ledge__characters *t = w->characters;
    int n = w->slot_count, m = w->contact_count;
    if (!LEDGE__RESERVE(t->first, t->first_cap, n + 2, 0, 64) ||
        !LEDGE__RESERVE(t->order, t->order_cap, 2 * m + 1, 0, 64)) {
        LEDGE_ERROR("ledge_world_step: allocation of the pushes' contact index for %d contacts "
                    "failed (nothing is pushed this substep)",
                    m);
        return false;
    }
    int *first = t->first;
    memset(first, 0, sizeof *first * (size_t)(n + 2));
    for (int k = 0; k < m; ++k) {
        first[w->contacts[k].a + 2]++;
        if (w->contacts[k].b >= 0) first[w->contacts[k].b + 2]++;
    }
    for (int i = 2; i < n + 2; ++i) first[i] += first[i - 1];
    for (int k = 0; k < m; ++k) {
        t->order[first[w->contacts[k].a + 1]++] = k;
        if (w->contacts[k].b >= 0) t->order[first[w->contacts[k].b + 1]++] = k;
    }
    return true;
}

// --- the row ----------------------------------------------------------------

static bool pushable(const ledge_world *w, int i) {
    return i >= 0 && w->alive[i] && w->type[i] == LEDGE_BODY_DYNAMIC && !w->asleep[i] &&
           !w->frozen[i] && !w->sensor[i] && w->inv_mass[i] > 0.0f &&
           w->policy[i] != LEDGE_RESPONSE_CROSS;
}

static bool in_row(const row *r, int i) {
    for (int k = 0; k < r->count; ++k) {
        if (r->slot[k] == i) return true;
    }
    return false;
}

// Whether body i stops a row: a tile, a static body, or a kinematic one
// that answers bodies as the level (any but a character that pushes, which
// the response shoves instead).
static bool fixed(const ledge_world *w, int i) {
    if (i < 0 || w->type[i] == LEDGE_BODY_STATIC) return true;
    if (w->type[i] != LEDGE_BODY_KINEMATIC) return false;
    const ledge__character *c = ledge__character_at(w, i);
    return c == NULL || !c->def.push_bodies;
}

// The normal of contact c from body i toward the other (or the tile).
static vec2s normal_from(const ledge__contact *c, int i) {
    return c->a == i ? v2_neg(c->normal) : c->normal;
}

// Adds the bodies ahead of the row, breadth first, and notes whether
// anything fixed stands ahead of it.
static void grow_row(const ledge_world *w, int self, vec2s dir, row *r) {
    const ledge__characters *t = w->characters;
    for (int q = 0; q < r->count; ++q) {
        int i = r->slot[q];
        for (int e = t->first[i]; e < t->first[i + 1]; ++e) {
            const ledge__contact *c = &w->contacts[t->order[e]];
            if (c->policy == LEDGE_RESPONSE_CROSS) continue;
            int other = c->a == i ? c->b : c->a;
            if (other == self) continue;
            vec2s n = normal_from(c, i); // toward the other
            float ahead = v2_dot(n, dir);
            if (fixed(w, other)) {
                bool floor = -v2_dot(n, w->up) >= w->floor_cos[i];
                if (!floor && ahead >= WALL_COS) r->blocked = true;
            } else if (ahead >= ROW_COS && pushable(w, other) && !in_row(r, other) &&
                       r->count < ROW_MAX) {
                r->slot[r->count++] = other;
            }
        }
    }
}

typedef struct floor_of {
    vec2s normal;          ///< Of its first floor contact, toward the body; (0, 0): no floor.
    vec2s velocity;        ///< The floor's velocity (a body's, or a kinematic chain's).
    float hold;            ///< What the floor holds whatever the speed, per unit mass.
    ledge__contact *first; ///< Its first floor contact, in the replay's order, or NULL.
} floor_of;

// Body i's floor among its contacts: the first within its max_floor_angle
// in the contacts' order (the one the replay answers; a second floor
// contact under a seam then meets no approach). What it holds statically:
// the Coulomb caps of all its floor contacts (each carries its share of
// the load: response.c), or Coulomb's f g cos under Coulomb's law or
// within a pile, if more.
static floor_of find_floor(ledge_world *w, int i) {
    const ledge__characters *t = w->characters;
    floor_of f = {v2(0.0f, 0.0f), v2(0.0f, 0.0f), 0.0f, NULL};
    float caps = 0.0f;
    for (int e = t->first[i]; e < t->first[i + 1]; ++e) {
        ledge__contact *c = &w->contacts[t->order[e]];
        if (c->policy == LEDGE_RESPONSE_CROSS) continue;
        vec2s n = v2_neg(normal_from(c, i)); // toward i
        if (!(v2_dot(n, w->up) >= w->floor_cos[i])) continue;
        caps += c->cap;
        if (f.first != NULL) continue;
        f.first = c;
        f.normal = n;
        int under = c->a == i ? c->b : c->a;
        if (under >= 0) f.velocity = w->velocity[under];
        if (under == LEDGE__CHAIN_CONTACT) f.velocity = w->chains->c[c->cell_x].velocity;
    }
    if (f.first == NULL) return f;
    float g = v2_len(w->gravity) * w->gravity_scale[i];
    float coulomb =
        w->coulomb || f.first->pile ? f.first->friction * g * v2_dot(f.normal, w->up) : 0.0f;
    f.hold = maxf(caps, coulomb);
    return f;
}

// Body i's velocity relative to its floor f as the replay would leave it
// after answering that floor (the approach taken out, the friction law on
// what goes along it: response.c's rub), for a floor it rests on (an
// approach under the bounce threshold); else unchanged, in *rel. Whether
// the push answers it (then the replay must not: its floor contacts lose
// their friction for this substep).
static bool answer_floor(const ledge_world *w, const floor_of *f, float h, vec2s *rel) {
    const ledge__contact *c = f->first;
    if (c == NULL || c->policy != LEDGE_RESPONSE_SLIDE) return false;
    float vn = v2_dot(*rel, f->normal);
    if (!(vn < 0.0f) || -vn > w->bounce_threshold) return false;
    vec2s vt = v2_sub(*rel, v2_scale(f->normal, vn));
    float keep = 1.0f - c->friction, t2 = v2_len2(vt);
    float hold = maxf(w->coulomb || c->pile ? c->friction * -vn : 0.0f, c->cap * h);
    if (hold > 0.0f) {
        if (hold * hold >= t2) {
            keep = 0.0f;
        } else if (t2 > 0.0f) {
            keep = minf(keep, 1.0f - hold / sqrtf(t2));
        }
    }
    *rel = v2_scale(vt, keep);
    return true;
}

// Body i's floor contacts add no friction in this substep's replay: the
// push answered them (answer_floor).
static void floor_answered(ledge_world *w, int i) {
    const ledge__characters *t = w->characters;
    for (int e = t->first[i]; e < t->first[i + 1]; ++e) {
        ledge__contact *c = &w->contacts[t->order[e]];
        if (!(-v2_dot(normal_from(c, i), w->up) >= w->floor_cos[i])) continue;
        c->friction = 0.0f;
        c->cap = 0.0f;
        c->pile = 0;
    }
}

// The push of character c (slot self) on its row, this substep, before
// the replay: what holds the row statically is read from the last
// substep's contacts, the row's floors are answered as the replay would
// (so that a pile's pairs, which press the bodies under them into their
// floors, do not brake them twice), then the row meets the character.
static void push_row(ledge_world *w, ledge__character *c, int self, float h) {
    row r;
    r.count = 0;
    r.blocked = false;
    for (int k = 0; k < c->push.count; ++k) {
        int i = ledge__live_slot(w, c->push.body[k]);
        if (i >= 0 && pushable(w, i) && !in_row(&r, i)) r.slot[r.count++] = i;
    }
    if (r.count == 0) return;
    vec2s dir = c->push.dir;
    grow_row(w, self, dir, &r);
    if (r.blocked) return;
    float g = v2_len(w->gravity), hold = 0.0f, mass = 0.0f, momentum = 0.0f;
    floor_of floors[ROW_MAX];
    for (int k = 0; k < r.count; ++k) {
        floors[k] = find_floor(w, r.slot[k]);
    }
    vec2s lead = dir; // along the first body's floor: a body of the row in the air goes so too
    for (int k = 0; k < r.count; ++k) {
        int i = r.slot[k];
        const floor_of *f = &floors[k];
        vec2s along = v2_sub(dir, v2_scale(f->normal, v2_dot(dir, f->normal)));
        float len = v2_len(along);
        along = len > 0.0f ? v2_scale(along, 1.0f / len) : lead;
        if (k == 0) lead = along;
        float m = 1.0f / w->inv_mass[i], across = v2_dot(along, dir);
        float uphill = g * w->gravity_scale[i] * v2_dot(along, w->up);
        hold += m * (maxf(uphill, 0.0f) + f->hold) / across;
        r.along[k] = along;
        r.across[k] = across;
    }
    float strength = g > 0.0f ? c->push_mass - hold / g : c->push_mass;
    if (!(strength > 0.0f)) return; // too heavy: its floor holds it
    for (int k = 0; k < r.count; ++k) {
        int i = r.slot[k];
        // A pushed body goes along its floor, braked once by it: what it
        // has across it is taken out (the friction of the pairs of a row
        // passes velocity between them across the push; the floor would
        // answer it after it moved, with friction, or it would hop off).
        vec2s rel = v2_sub(w->velocity[i], floors[k].velocity);
        if (answer_floor(w, &floors[k], h, &rel)) floor_answered(w, i);
        r.into[k] = v2_sub(v2_add(floors[k].velocity, rel), w->velocity[i]);
        r.speed[k] = v2_dot(rel, dir);
        float m = 1.0f / w->inv_mass[i];
        mass += m;
        momentum += m * r.speed[k];
    }
    float u = (strength * c->push.speed + momentum) / (strength + mass);
    for (int k = 0; k < r.count; ++k) {
        int i = r.slot[k];
        float more = maxf(u - r.speed[k], 0.0f);
        vec2s change = v2_add(r.into[k], v2_scale(r.along[k], more / r.across[k]));
        w->velocity[i] = v2_add(w->velocity[i], change);
    }
}

// A shove s of character c along the floor it stands on: its part across
// the character's up kept, its height following the floor. In the air, s.
static vec2s along_floor(const ledge__character *c, vec2s s) {
    vec2s n = c->state.floor_normal;
    if (!c->state.on_floor || (n.x == 0.0f && n.y == 0.0f)) return s;
    vec2s across = v2_sub(s, v2_scale(c->up, v2_dot(s, c->up)));
    float d = v2_dot(n, c->up);
    if (!(d > 0.0f)) return s;
    // The move across up, lifted or lowered so that it stays on the floor.
    return v2_sub(across, v2_scale(c->up, v2_dot(across, n) / d));
}

void ledge__push_rows(ledge_world *w, float h) {
    ledge__characters *t = w->characters;
    if (t == NULL || t->pushing == 0 || !index_contacts(w)) return;
    for (int k = 0; k < t->count; ++k) {
        int i;
        ledge__character *c = pusher(w, k, &i);
        if (c != NULL && c->push.count > 0) push_row(w, c, i, h);
    }
}

void ledge__push_shoves(ledge_world *w, float h) {
    ledge__characters *t = w->characters;
    if (t == NULL || t->pushers == 0) return;
    // What the responses gave a character's body (a shove) moves it in this
    // substep, along its floor when it stands on one, as a pushed body goes.
    for (int k = 0; k < t->count; ++k) {
        int i;
        ledge__character *c = pusher(w, k, &i);
        if (c == NULL) continue;
        vec2s s = v2_sub(w->velocity[i], c->base_velocity);
        if (s.x == 0.0f && s.y == 0.0f) continue;
        s = along_floor(c, s);
        w->velocity[i] = v2_add(c->base_velocity, s);
        c->shove = v2_add(c->shove, v2_scale(s, h));
    }
}

// A shoved character's legs brake its shove as a body of its push mass
// sliding on friction 1 is braked (by g h a substep; its own speed is the
// game's, kept in its body's velocity); without gravity a shove lasts one
// substep.
void ledge__push_after_move(ledge_world *w, float h) {
    ledge__characters *t = w->characters;
    if (t == NULL || t->pushers == 0) return;
    float brake = v2_len(w->gravity) * h;
    for (int k = 0; k < t->count; ++k) {
        int i;
        ledge__character *c = pusher(w, k, &i);
        if (c == NULL) continue;
        vec2s s = v2_sub(w->velocity[i], c->base_velocity);
        float l = v2_len(s);
        s = brake > 0.0f && l > brake ? v2_scale(s, 1.0f - brake / l) : v2(0.0f, 0.0f);
        w->velocity[i] = v2_add(c->base_velocity, s);
    }
}

void ledge__push_end(ledge_world *w) {
    ledge__characters *t = w->characters;
    if (t == NULL || t->pushers == 0) return;
    for (int k = 0; k < t->count; ++k) {
        int i;
        ledge__character *c = pusher(w, k, &i);
        if (c == NULL) continue;
        c->shove_velocity = v2_sub(w->velocity[i], c->base_velocity);
        w->velocity[i] = c->game_velocity;
        // Gone with its platform in the step: back to where the carry
        // takes it from, with what shoves moved it by.
        if (c->base_velocity.x != c->game_velocity.x || c->base_velocity.y != c->game_velocity.y)
            w->position[i] = v2_add(c->step_start, c->shove);
    }
}
