// What the last step found, for the game to read after it (events.h):
// - the contact index: each body's contacts, built on the first question
//   after a step (a counting sort of the contacts by body);
// - ground, wall and ceiling state from those contacts;
// - touch events: the touches of bodies that asked for events, as sorted
//   keys; begin = in this step's keys and not the last's, end = the
//   reverse (a merge of two sorted lists, so the order is the keys');
// - sensor events: sensor pairs from the broad phase tested once after
//   the step, compared the same way;
// - crush events: a dynamic body still overlapping a kinematic (or static)
//   body after the step while a tile pushes it back.
#include "chain_store.h"
#include "characters.h"
#include "events.h"
#include "contacts.h"
#include "par.h"
#include "slots.h"
#include "world_state.h"

#include "ledge/events.h"

#include <stdlib.h>
#include <string.h>

// --- keys -------------------------------------------------------------------

int ledge__key_compare(const ledge__key *x, const ledge__key *y) {
    const int32_t *p = &x->a, *q = &y->a;
    for (int k = 0; k < 6; ++k) {
        if (p[k] != q[k]) return p[k] < q[k] ? -1 : 1;
    }
    return 0;
}

static int key_cmp(const void *x, const void *y) {
    return ledge__key_compare(x, y);
}

static bool grow(void **array, int *cap, int count, size_t size) {
    if (ledge__array_reserve(array, cap, count + 1, count, size, 64)) return true;
    LEDGE_ERROR("ledge_world_step: allocation of %d event entries failed (events beyond %d "
                "are lost this step)",
                2 * *cap, *cap);
    return false;
}

static void push_key(ledge__key_list *l, ledge__key k) {
    if (grow((void **)&l->keys, &l->cap, l->count, sizeof k)) l->keys[l->count++] = k;
}

// Sorts the list and drops repeats.
static void sort_keys(ledge__key_list *l) {
    if (l->count > 1) qsort(l->keys, (size_t)l->count, sizeof *l->keys, key_cmp);
    int n = 0;
    for (int k = 0; k < l->count; ++k) {
        if (n == 0 || ledge__key_compare(&l->keys[n - 1], &l->keys[k]) != 0)
            l->keys[n++] = l->keys[k];
    }
    l->count = n;
}

// The id of handle h with generation gen (kept by an event whose body may
// have died since). Keys hold handles, not slots: they outlive a step, and
// handles stay put when the world reorders its slots (world.c), so the
// keys, and the order of the events they make, never need remapping.
static inline ledge_body_id id_from(const ledge_world *w, int32_t h, int32_t gen) {
    ledge_body_id id = LEDGE_NULL_BODY_ID;
    if (h >= 0) {
        id.index1 = (uint32_t)h + 1u;
        id.generation = (uint32_t)gen;
        id.world = w->serial;
    }
    return id;
}

// --- touch and sensor events ------------------------------------------------

// A touch's key: the bodies' handles and generations, then the tile cell;
// a chain's touch names the chain (b = LEDGE__CHAIN_CONTACT, its slot and
// generation in cx, cy), one key per chain whatever its segments.
static ledge__key pair_key(const ledge_world *w, int a, int b, int cx, int cy) {
    ledge__key k;
    if (b == LEDGE__CHAIN_CONTACT) {
        k.a = w->handle[a];
        k.ga = (int32_t)w->generation[a];
        k.b = LEDGE__CHAIN_CONTACT;
        k.gb = 0;
        k.cx = cx;
        k.cy = (int32_t)w->chains->c[cx].generation;
        return k;
    }
    if (b >= 0 && w->handle[b] < w->handle[a]) {
        int t = a;
        a = b;
        b = t;
    }
    k.a = w->handle[a];
    k.ga = (int32_t)w->generation[a];
    k.b = b >= 0 ? w->handle[b] : -1;
    k.gb = b >= 0 ? (int32_t)w->generation[b] : 0;
    k.cx = b >= 0 ? 0 : cx;
    k.cy = b >= 0 ? 0 : cy;
    return k;
}

// Calls emit(key, begin) for every key in one list and not the other, in
// key order.
typedef void emit_fn(ledge_world *w, const ledge__key *k, bool begin);

static void diff(ledge_world *w, const ledge__key_list *old, const ledge__key_list *now,
                 emit_fn *emit) {
    int i = 0, j = 0;
    while (i < old->count || j < now->count) {
        int c = i == old->count   ? 1
                : j == now->count ? -1
                                  : ledge__key_compare(&old->keys[i], &now->keys[j]);
        if (c < 0)
            emit(w, &old->keys[i++], false);
        else if (c > 0)
            emit(w, &now->keys[j++], true);
        else
            ++i, ++j;
    }
}

static void emit_touch(ledge_world *w, const ledge__key *k, bool begin) {
    ledge_touch_event e = {id_from(w, k->a, k->ga), id_from(w, k->b, k->gb), k->cx, k->cy,
                           LEDGE_NULL_CHAIN_ID};
    if (k->b == LEDGE__CHAIN_CONTACT) {
        e.cell_x = e.cell_y = 0;
        e.chain.index1 = (uint32_t)k->cx + 1u;
        e.chain.generation = (uint32_t)k->cy;
        e.chain.world = w->serial;
    }
    ledge__events *ev = w->events;
    if (begin) {
        if (grow((void **)&ev->touch_begin, &ev->touch_begin_cap, ev->touch_begin_count,
                 sizeof e)) {
            ev->touch_begin[ev->touch_begin_count++] = e;
        }
    } else if (grow((void **)&ev->touch_end, &ev->touch_end_cap, ev->touch_end_count, sizeof e)) {
        ev->touch_end[ev->touch_end_count++] = e;
    }
}

static void emit_sensor(ledge_world *w, const ledge__key *k, bool begin) {
    ledge_sensor_event e = {id_from(w, k->a, k->ga), id_from(w, k->b, k->gb)};
    ledge__events *ev = w->events;
    if (begin) {
        if (grow((void **)&ev->sensor_begin, &ev->sensor_begin_cap, ev->sensor_begin_count,
                 sizeof e)) {
            ev->sensor_begin[ev->sensor_begin_count++] = e;
        }
    } else if (grow((void **)&ev->sensor_end, &ev->sensor_end_cap, ev->sensor_end_count,
                    sizeof e)) {
        ev->sensor_end[ev->sensor_end_count++] = e;
    }
}

// --- the scan on the workers --------------------------------------------------

// Before the events, the workers flag the blocks of contacts that hold any
// touch of a body that asked for events (TOUCH) or any dynamic body
// against a kinematic or static one (CRUSH), so that the calling thread
// goes, in contact order, through those blocks only; and they finish each
// body's one-way state (per body, so in any order). Without room for the
// flags (an allocation failed) the calling thread goes through every block.
enum { TOUCH = 1, CRUSH = 2 };

static inline bool touches(const ledge_world *w, const ledge__contact *c) {
    return w->touch_events[c->a] || (c->b >= 0 && w->touch_events[c->b]);
}

static inline bool crush_candidate(const ledge_world *w, const ledge__contact *c) {
    int d, p;
    vec2s n;
    return ledge__dynamic_against_fixed(w, c, &d, &p, &n);
}

typedef struct scan {
    ledge_world *w;
    bool flags; ///< There is room for the blocks' flags.
} scan;

// Item b: block b of contacts (when there is room for the flags) and
// block b of slots.
static void scan_run(int start, int end, int worker, void *context) {
    (void)worker;
    const scan *t = context;
    ledge_world *w = t->w;
    for (int b = start; b < end; ++b) {
        if (t->flags && b < ledge__blocks(w->contact_count)) {
            int flags = 0;
            for (int k = b * LEDGE__BLOCK; k < ledge__block_end(b, w->contact_count); ++k) {
                const ledge__contact *c = &w->contacts[k];
                flags |= (touches(w, c) ? TOUCH : 0) | (crush_candidate(w, c) ? CRUSH : 0);
            }
            w->events->block_flags[b] = (uint8_t)flags;
        }
        int last = ledge__block_end(b, w->slot_count);
        for (int i = b * LEDGE__BLOCK; i < last; ++i) {
            if (w->dropping[i] && !w->in_one_way[i]) w->dropping[i] = 0; // clear of the platform
            w->in_one_way[i] = 0;
        }
    }
}

// Whether block b of contacts may hold a contact of kind `flag`.
static inline bool block_has(const ledge_world *w, bool flags, int b, int flag) {
    return !flags || (w->events->block_flags[b] & flag) != 0;
}

static void find_touch_events(ledge_world *w, bool flags) {
    ledge__key_list t = w->events->touch_old;
    w->events->touch_old = w->events->touch_now;
    w->events->touch_now = t;
    w->events->touch_now.count = 0;
    for (int b = 0; b < ledge__blocks(w->contact_count); ++b) {
        if (!block_has(w, flags, b, TOUCH)) continue;
        for (int k = b * LEDGE__BLOCK; k < ledge__block_end(b, w->contact_count); ++k) {
            const ledge__contact *c = &w->contacts[k];
            if (!touches(w, c)) continue;
            push_key(&w->events->touch_now, pair_key(w, c->a, c->b, c->cell_x, c->cell_y));
        }
    }
    // The sleeping bodies' held contacts still touch (sleep.c). (None
    // does when no body has events on: a settled pile's held contacts are
    // then not gone through every step.)
    for (int k = 0; w->event_bodies > 0 && k < w->held_count; ++k) {
        const ledge__contact *c = &w->held[k];
        if (touches(w, c))
            push_key(&w->events->touch_now, pair_key(w, c->a, c->b, c->cell_x, c->cell_y));
    }
    sort_keys(&w->events->touch_now);
    diff(w, &w->events->touch_old, &w->events->touch_now, emit_touch);
}

static void find_sensor_events(ledge_world *w) {
    ledge__key_list t = w->events->sensor_old;
    w->events->sensor_old = w->events->sensor_now;
    w->events->sensor_now = t;
    w->events->sensor_now.count = 0;
    for (int k = 0; k < w->step.sensor_pair_count; ++k) {
        int s = w->step.sensor_pairs[k].a, o = w->step.sensor_pairs[k].b;
        if (!w->alive[s] || !w->alive[o]) continue;
        ledge_manifold m = ledge_collide(ledge__shape_of(w, s), w->position[s],
                                         ledge__shape_of(w, o), w->position[o]);
        if (!m.hit) continue;
        ledge__key key = {
            w->handle[s], (int32_t)w->generation[s], w->handle[o], (int32_t)w->generation[o], 0, 0};
        push_key(&w->events->sensor_now, key);
    }
    sort_keys(&w->events->sensor_now);
    diff(w, &w->events->sensor_old, &w->events->sensor_now, emit_sensor);
}

// --- crushes ----------------------------------------------------------------

// Whether dynamic body d has a tile contact pushing against n (the pusher's
// push on it).
static bool tile_pushes_back(const ledge_world *w, int d, vec2s n) {
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        if (c->a == d && c->b < 0 && v2_dot(c->normal, n) < -0.5f) return true;
    }
    return false;
}

// Contact k's crush event, if it is one.
static void crush_event(ledge_world *w, int k) {
    ledge__events *ev = w->events;
    const ledge__contact *c = &w->contacts[k];
    int d, p;
    vec2s n; // from p toward d
    if (!ledge__dynamic_against_fixed(w, c, &d, &p, &n)) return;
    ledge_manifold m =
        ledge_collide(ledge__shape_of(w, p), w->position[p], ledge__shape_of(w, d), w->position[d]);
    float limit = 0.2f * minf(w->box_half[d].x, w->box_half[d].y);
    if (!m.hit || m.depth <= maxf(limit, 4.0f * w->slop) || !tile_pushes_back(w, d, n)) return;
    ledge_crush_event e = {ledge__body_id(w, d), ledge__body_id(w, p), m.depth};
    if (grow((void **)&ev->crush, &ev->crush_cap, ev->crush_count, sizeof e)) {
        ev->crush[ev->crush_count++] = e;
    }
}

void ledge__crush_event_add(ledge_world *w, int body, int crusher, float depth) {
    ledge__events *ev = w->events;
    ledge_crush_event e = {ledge__body_id(w, body), ledge__body_id(w, crusher), depth};
    if (grow((void **)&ev->crush, &ev->crush_cap, ev->crush_count, sizeof e)) {
        ev->crush[ev->crush_count++] = e;
    }
}

static void crush_events(ledge_world *w, bool flags) {
    for (int b = 0; b < ledge__blocks(w->contact_count); ++b) {
        if (!block_has(w, flags, b, CRUSH)) continue;
        for (int k = b * LEDGE__BLOCK; k < ledge__block_end(b, w->contact_count); ++k)
            crush_event(w, k);
    }
}

// --- after the step ---------------------------------------------------------

void ledge__after_step(ledge_world *w) {
    ledge__events *ev = w->events;
    ev->touch_begin_count = ev->touch_end_count = 0;
    ev->sensor_begin_count = ev->sensor_end_count = 0;
    ev->crush_count = 0;
    int contact_blocks = ledge__blocks(w->contact_count),
        slot_blocks = ledge__blocks(w->slot_count);
    bool flags = LEDGE__RESERVE(ev->block_flags, ev->block_flags_cap, contact_blocks, 0, 16);
    if (!flags) {
        LEDGE_ERROR("ledge_world_step: allocation of %d event flags failed (the contacts are gone "
                    "through on one thread)",
                    contact_blocks);
    }
    scan t = {w, flags};
    ledge__run(w, scan_run, flags && contact_blocks > slot_blocks ? contact_blocks : slot_blocks, 1,
               &t);
    find_touch_events(w, flags);
    find_sensor_events(w);
    crush_events(w, flags);
    w->events->index_dirty = true;
}

void ledge__events_destroy(ledge__events *ev) {
    ledge__free(ev->touch_old.keys);
    ledge__free(ev->touch_now.keys);
    ledge__free(ev->sensor_old.keys);
    ledge__free(ev->sensor_now.keys);
    ledge__free(ev->touch_begin);
    ledge__free(ev->touch_end);
    ledge__free(ev->sensor_begin);
    ledge__free(ev->sensor_end);
    ledge__free(ev->crush);
    ledge__free(ev->contact_first);
    ledge__free(ev->contact_order);
    ledge__free(ev->block_flags);
    memset(ev, 0, sizeof *ev);
}

// --- the contact index ------------------------------------------------------

// Every contact listed under both its bodies: contact_order[contact_first[i]
// .. contact_first[i + 1]) are the contacts of slot i, in contact order.
void ledge__events_forget(ledge_world *w, ledge__stale why) {
    if (why & LEDGE__STALE_SLOTS) w->events->index_dirty = true;
}

bool ledge__contact_index(ledge_world *w) {
    if (!w->events->index_dirty && w->events->contact_first_cap > w->slot_count) return true;
    int slots = w->slot_count, count = ledge__view_count(w), entries = 2 * count;
    if (!LEDGE__RESERVE(w->events->contact_first, w->events->contact_first_cap, slots + 1, 0, 16) ||
        !LEDGE__RESERVE(w->events->contact_order, w->events->contact_order_cap, entries, 0, 16)) {
        return false;
    }
    int *first = w->events->contact_first;
    memset(first, 0, sizeof(int) * (size_t)(slots + 1));
    for (int k = 0; k < count; ++k) {
        const ledge__contact *c = ledge__view_contact(w, k);
        first[c->a + 1]++;
        if (c->b >= 0) first[c->b + 1]++;
    }
    for (int i = 0; i < slots; ++i) first[i + 1] += first[i];
    for (int k = 0; k < count; ++k) {
        const ledge__contact *c = ledge__view_contact(w, k);
        w->events->contact_order[first[c->a]++] = k;
        if (c->b >= 0) w->events->contact_order[first[c->b]++] = k;
    }
    for (int i = slots; i > 0; --i) first[i] = first[i - 1];
    first[0] = 0;
    w->events->index_dirty = false;
    return true;
}

// Contact k as seen from slot i: the other body and the normal toward i.
static ledge_contact_data seen_from(const ledge_world *w, int k, int i) {
    const ledge__contact *c = ledge__view_contact(w, k);
    ledge_contact_data d;
    memset(&d, 0, sizeof d);
    bool mine = c->a == i;
    int other = mine ? c->b : c->a;
    d.other = ledge__body_id(w, other);
    d.cell_x = c->cell_x;
    d.cell_y = c->cell_y;
    if (c->b == LEDGE__CHAIN_CONTACT) {
        d.chain = ledge__chain_id(w, c->cell_x);
        d.segment = c->cell_y;
        d.cell_x = d.cell_y = 0;
    }
    d.normal = mine ? c->normal : v2_neg(c->normal);
    d.point = c->point;
    d.depth = c->depth;
    d.response = (ledge_response)c->policy;
    return d;
}

int ledge_body_contacts(ledge_world *world, ledge_body_id id, ledge_contact_data *out,
                        int capacity) {
    const char *fn = "ledge_body_contacts";
    int i = ledge__world_slot(world, id, fn);
    if (i < 0) return -1;
    if (capacity < 0 || (capacity > 0 && out == NULL)) {
        LEDGE_ERROR("%s: capacity is %d with out %s (need out for capacity > 0)", fn, capacity,
                    out ? "set" : "NULL");
        return -1;
    }
    if (!ledge__contact_index(world)) {
        LEDGE_ERROR("%s: allocation of the contact index failed", fn);
        return -1;
    }
    int first = world->events->contact_first[i], n = world->events->contact_first[i + 1] - first;
    for (int k = 0; k < n && k < capacity; ++k) {
        out[k] = seen_from(world, world->events->contact_order[first + k], i);
    }
    return n;
}

ledge_ground ledge_body_ground(ledge_world *world, ledge_body_id id) {
    ledge_ground g;
    memset(&g, 0, sizeof g);
    int i = ledge__world_slot(world, id, "ledge_body_ground");
    if (i < 0) return g;
    if (ledge__character_ground(world, i, &g)) return g; // one truth: the character's state
    if (world->type[i] != LEDGE_BODY_DYNAMIC) {
        // The step meets tiles and static bodies with dynamic bodies only.
        LEDGE_ERROR("ledge_body_ground: body {%u, %u} is %s and not a character: the step keeps "
                    "no ground state for it (ledge_character_create, or the move's result)",
                    id.index1, id.generation,
                    world->type[i] == LEDGE_BODY_STATIC ? "static" : "kinematic");
        return g;
    }
    if (!ledge__contact_index(world)) {
        LEDGE_ERROR("ledge_body_ground: allocation of the contact index failed");
        return g;
    }
    vec2s up = world->up.x == 0.0f && world->up.y == 0.0f ? v2(0.0f, 1.0f) : world->up;
    vec2s right = ledge__right_of(up);
    float floor_cos = world->floor_cos[i], best = -2.0f;
    for (int k = world->events->contact_first[i]; k < world->events->contact_first[i + 1]; ++k) {
        ledge_contact_data d = seen_from(world, world->events->contact_order[k], i);
        if (d.response == LEDGE_RESPONSE_CROSS) continue;
        float u = v2_dot(d.normal, up);
        if (u >= floor_cos) {
            g.on_ground = true;
            if (u > best) {
                best = u;
                g.ground_normal = d.normal;
                g.ground_body = d.other;
                g.ground_cell_x = d.cell_x;
                g.ground_cell_y = d.cell_y;
                g.ground_chain = d.chain;
            }
        } else if (u <= -floor_cos) {
            g.on_ceiling = true;
        } else {
            if (v2_dot(d.normal, right) > 0.0f)
                g.on_wall_left = true;
            else
                g.on_wall_right = true;
            g.wall_normal = d.normal;
        }
    }
    return g;
}

// --- the world's event arrays -------------------------------------------------

static bool events_ok(const ledge_world *w, const char *fn) {
    if (w != NULL) return true;
    LEDGE_ERROR("%s: world is NULL", fn);
    return false;
}

ledge_touch_events ledge_world_touch_events(const ledge_world *world) {
    ledge_touch_events e = {NULL, 0, NULL, 0};
    if (!events_ok(world, "ledge_world_touch_events")) return e;
    e.begin = world->events->touch_begin;
    e.begin_count = world->events->touch_begin_count;
    e.end = world->events->touch_end;
    e.end_count = world->events->touch_end_count;
    return e;
}

ledge_sensor_events ledge_world_sensor_events(const ledge_world *world) {
    ledge_sensor_events e = {NULL, 0, NULL, 0};
    if (!events_ok(world, "ledge_world_sensor_events")) return e;
    e.begin = world->events->sensor_begin;
    e.begin_count = world->events->sensor_begin_count;
    e.end = world->events->sensor_end;
    e.end_count = world->events->sensor_end_count;
    return e;
}

ledge_crush_events ledge_world_crush_events(const ledge_world *world) {
    ledge_crush_events e = {NULL, 0};
    if (!events_ok(world, "ledge_world_crush_events")) return e;
    e.events = world->events->crush;
    e.count = world->events->crush_count;
    return e;
}
