// Sleeping: resting dynamic bodies leave the step until something wakes
// them (world.h, "Sleeping"). A sleeping body keeps its place in the grid
// and its contacts; its inverse mass reads 0 while it sleeps, so every
// stage of the step meets it as a static body (a pair of two sleepers, or
// of a sleeper and a static body, is never listed), and the broad phase
// skips the pairs of two bodies that cannot move (broad.c, `active`).
//
// Every decision reads the state at one point of the step, never the
// order in which the bodies are gone through, so the bits do not depend on
// the worker count:
// - at the start of a step, a tilemap edit wakes the sleepers within the
//   margin of the edited cell (every sleeper after more edits than the map
//   remembers), and a kinematic body faster than the sleep speed wakes the
//   sleepers its swept box reaches (both through the index of the queries:
//   the pair search below cannot see them, because a kinematic body and a
//   sleeper are never paired, and tiles are not in the grid);
// - in each substep, after the pair search, an awake dynamic or kinematic
//   body faster than the sleep speed wakes the sleepers it is paired with,
//   and the pairs are searched again where they reach (broad.c), so that
//   the hit moves them;
// - at the end of the step the rest timers advance, bodies that rested
//   long enough fall asleep together unless they touch a dynamic body that
//   did not, and the contacts are sorted into live and held ones.
#include "chain_store.h"
#include "contacts.h"
#include "par.h"
#include "slots.h"
#include "sleep.h"
#include "joints.h"

#include "broad.h"
#include "query_index.h"
#include "resolve.h"
#include "events.h"

#include <string.h>

// The veto's bits (the veto by contacts, below): kept awake; pressed (its
// rest timer starts again); resting on a pressed body, or on one that
// rests on a pressed body (kept awake too).
#define KEPT_AWAKE 1u
#define PRESSED    2u
#define ON_PRESSED 4u

void ledge__sleep_init(ledge__sleep *s, const ledge_world_def *def) {
    s->on = def->enable_sleep;
    s->speed = def->sleep_speed;
    s->time = def->sleep_time;
}

void ledge__sleep_destroy(ledge__sleep *s) {
    ledge__free(s->veto);
    ledge__free(s->fell_asleep);
    ledge__free(s->range_count);
}

bool ledge__sleep_reserve(ledge_world *w, int slots) {
    ledge__sleep *s = w->sleep;
    if (!s->on) return true; // nothing sleeps: no veto
    int blocks = ledge__blocks(slots);
    if (slots > s->veto_cap) {
        int want = slots + slots / 2;
        if (!ledge__array_regrow((void **)&s->veto, sizeof *s->veto, 0, want)) {
            LEDGE_ERROR("ledge_world_step: allocation of the sleep's veto for %d bodies failed",
                        want);
            return false;
        }
        s->veto_cap = want;
    }
    if (blocks > s->block_cap) {
        int want = blocks < 8 ? 8 : blocks + blocks / 2;
        if (!ledge__array_regrow((void **)&s->fell_asleep, sizeof *s->fell_asleep, 0, want) ||
            !ledge__array_regrow((void **)&s->range_count, sizeof *s->range_count, 0, want)) {
            LEDGE_ERROR("ledge_world_step: allocation of the sleep's counts for %d blocks failed",
                        want);
            return false;
        }
        s->block_cap = want;
    }
    return true;
}

static inline bool awake_dynamic(const ledge_world *w, int i) {
    return w->type[i] == LEDGE_BODY_DYNAMIC && !w->asleep[i];
}

// A contact whose bodies are all asleep, static or kinematic (none of the
// step's bodies can change it): kept as it is while they sleep.
static inline bool held_contact(const ledge_world *w, const ledge__contact *c) {
    return !awake_dynamic(w, c->a) && (c->b < 0 || !awake_dynamic(w, c->b));
}

static inline float speed2(const ledge_world *w, int i) {
    return v2_len2(w->velocity[i]);
}

// Body i falls asleep (the caller counts it in w->sleepers).
static void put_to_sleep(ledge_world *w, int i) {
    w->asleep[i] = 1;
    w->velocity[i] = v2(0.0f, 0.0f);
    w->last_position[i] = w->position[i]; // it stays there (one-way rules, resolve.c)
    w->sleep_inv_mass[i] = w->inv_mass[i];
    w->inv_mass[i] = 0.0f;
}

static void wake_all(ledge_world *w) {
    for (int i = 0; i < w->slot_count && w->sleepers > 0; ++i) {
        if (w->alive[i]) ledge__wake(w, i);
    }
}

// The query index's visit: marks a sleeper to wake (the index must not
// change while it is walked).
static bool mark_sleeper(const ledge_world *w, int slot, void *context) {
    (void)context;
    if (w->asleep[slot]) w->step.sleepy[slot] = 1;
    return true;
}

// Starts the marks of this step's wakes, unless *marked says they are
// started already.
static void start_marks(ledge_world *w, bool *marked) {
    if (!*marked) memset(w->step.sleepy, 0, (size_t)w->slot_count);
    *marked = true;
}

// Marks the sleepers whose boxes overlap `box`. Without room for the query
// index (logged), every sleeper wakes: the step must not keep one an edit
// or a platform reached.
static void mark_in_box(ledge_world *w, ledge_aabb box, bool *marked) {
    if (w->sleepers == 0) return;
    start_marks(w, marked);
    // (Every sleeper, whatever its filter: the default filter's queries do
    // not see a body without the first mask bit, and it still rests on tiles.)
    if (ledge__query_aabb_every(w, box, "ledge_world_step", mark_sleeper, NULL) < 0) wake_all(w);
}

// The sleepers the kinematic bodies faster than the sleep speed reach in
// this step (their boxes grown by the step's motion and the margin).
static void mark_near_kinematic(ledge_world *w, float dt, bool *marked) {
    float s2 = w->sleep->speed * w->sleep->speed;
    for (int b = 0; b < ledge__blocks(w->slot_count); ++b) {
        // (A dormant block holds no kinematic body.)
        for (int i = b * LEDGE__BLOCK, last = ledge__stirred_end(w, b); i < last; ++i) {
            if (!w->alive[i] || w->type[i] != LEDGE_BODY_KINEMATIC || !(speed2(w, i) > s2))
                continue;
            vec2s c = v2_add(w->position[i], w->box_offset[i]);
            vec2s move = v2_scale(w->velocity[i], dt);
            vec2s grow = v2_add(w->box_half[i],
                                v2(fabsf(move.x) + w->step.margin, fabsf(move.y) + w->step.margin));
            mark_in_box(w, (ledge_aabb){v2_sub(c, grow), v2_add(c, grow)}, marked);
        }
    }
}

// The sleepers a kinematic chain faster than the sleep speed reaches in
// this step: its box grown by the step's motion and the margin (a long
// moving chain wakes what lies in its whole box; what it does not touch
// falls asleep again).
static void mark_near_chains(ledge_world *w, float dt, bool *marked) {
    const ledge__chains *cs = w->chains;
    float s2 = w->sleep->speed * w->sleep->speed;
    for (int k = 0; cs != NULL && k < cs->kinematic; ++k) {
        const ledge__chain *c = &cs->c[cs->kinematic_slots[k]];
        if (!(v2_len2(c->velocity) > s2)) continue;
        ledge_aabb b = ledge__chain_box(c);
        vec2s move = v2_scale(c->velocity, dt);
        vec2s grow = v2(fabsf(move.x) + w->step.margin, fabsf(move.y) + w->step.margin);
        mark_in_box(w, (ledge_aabb){v2_sub(b.lower, grow), v2_add(b.upper, grow)}, marked);
    }
}

// The sleepers holding a tile contact whose cell an edit changed (its
// stamp no longer the cell's). A contact is found where the body was in
// the substep, before the push out of the overlap: a body that fell far in
// one step can come to rest cells away from a tile it met on the way, out
// of reach of the boxes below, and must not keep that contact.
static void mark_held_edited(ledge_world *w, bool *marked) {
    for (int k = 0; k < w->held_count; ++k) {
        const ledge__contact *c = &w->held[k];
        if (c->b >= 0 || !w->asleep[c->a] || !ledge__tile_contact_changed(w->map, c)) continue;
        start_marks(w, marked);
        w->step.sleepy[c->a] = 1;
    }
}

// The sleepers near the cells edited since the last step: an edit changes
// the cell's tile or one-way setting and the sides it shares with its four
// neighbours, all within the cell's box, and the broad phase looks for a
// body's tiles within the margin of its box (broad.c, tile_span_of), so a
// body farther away finds no new contact there. (The slop on top covers
// the rounding of both tests.) Then those holding a contact the edit
// changed. After more edits than the map remembers, every sleeper wakes.
static void mark_near_edits(ledge_world *w, bool *marked) {
    const ledge_tilemap *map = w->map;
    uint32_t edits = map->version - w->sleep->map_version;
    if (edits > LEDGE__EDITS_KEPT) {
        wake_all(w);
        return;
    }
    float size = map->tile_size, grow = w->step.margin + w->slop;
    for (uint32_t k = 1; k <= edits; ++k) {
        ledge__cell c = map->edited[(w->sleep->map_version + k) % LEDGE__EDITS_KEPT];
        vec2s lower = v2_add(map->origin, v2(size * (float)c.x, size * (float)c.y));
        vec2s upper = v2_add(lower, v2(size, size));
        mark_in_box(w, (ledge_aabb){v2_sub(lower, v2(grow, grow)), v2_add(upper, v2(grow, grow))},
                    marked);
    }
    mark_held_edited(w, marked);
}

// Wakes what the edits and the kinematic bodies reach: marked first, then
// woken in slot order, as the index is walked in no fixed order.
static void wake_near(ledge_world *w, float dt) {
    bool marked = false;
    if (w->map->version != w->sleep->map_version) mark_near_edits(w, &marked);
    if (w->sleepers > 0) mark_near_kinematic(w, dt, &marked);
    if (w->sleepers > 0) mark_near_chains(w, dt, &marked);
    if (!marked) return;
    for (int i = 0; i < w->slot_count && w->sleepers > 0; ++i) {
        if (w->step.sleepy[i]) ledge__wake(w, i);
    }
}

// Keeps the held contacts whose bodies all still sleep (or are static or
// kinematic); a woken body's are found again by the step.
static void keep_held(ledge_world *w) {
    int n = 0;
    for (int k = 0; k < w->held_count; ++k) {
        if (held_contact(w, &w->held[k])) w->held[n++] = w->held[k];
    }
    w->held_count = n;
}

void ledge__sleep_begin(ledge_world *w, float dt) {
    if (!w->sleep->on || (w->sleepers == 0 && w->held_count == 0)) return;
    if (w->sleepers > 0) wake_near(w, dt);
    ledge__joints_wake(w, ledge__wake); // joined bodies wake together
    if (!w->sleep->woke) return;
    // The held contacts of bodies woken since the last step (by the game,
    // an edit or a platform) rejoin the live ones: the platform's carry
    // and the replay answer them, as they would have had it never slept.
    int back = 0;
    for (int k = 0; k < w->held_count; ++k) back += !held_contact(w, &w->held[k]);
    if (back == 0) return;
    bool room = ledge__contacts_reserve(w, back); // else dropped: the step finds them again
    int n = 0;
    for (int k = 0; k < w->held_count; ++k) {
        if (held_contact(w, &w->held[k])) {
            w->held[n++] = w->held[k];
        } else if (room) {
            w->contacts[w->contact_count++] = w->held[k];
        }
    }
    w->held_count = n;
    ledge__contacts_changed(w);
}

bool ledge__sleep_wake_paired(ledge_world *w) {
    if (w->sleepers == 0) return false;
    float s2 = w->sleep->speed * w->sleep->speed;
    bool any = false;
    for (int k = 0; k < w->step.pair_count; ++k) {
        int a = w->step.pairs[k].a, b = w->step.pairs[k].b;
        if (w->asleep[a] == w->asleep[b]) continue;
        int s = w->asleep[a] ? a : b, o = s == a ? b : a;
        if (w->type[o] == LEDGE_BODY_STATIC || !(speed2(w, o) > s2)) continue;
        ledge__wake(w, s);
        w->step.active[s] = w->step.in_grid[s];
        ledge__broad_woken(w, s);
        any = true;
    }
    return any;
}

// Whether body i blocks its touching bodies from falling asleep: a dynamic
// body that has not rested long enough, or a kinematic one that moves.
static inline bool keeps_awake(const ledge_world *w, int i, float s2) {
    if (w->type[i] == LEDGE_BODY_KINEMATIC) return speed2(w, i) > s2;
    return awake_dynamic(w, i) && !(w->sleep_timer[i] >= w->sleep->time);
}

// The rest timers, and which bodies may fall asleep (step.sleepy).
// Per body, so on the workers by blocks of slots.
typedef struct timer_task {
    ledge_world *w;
    float dt;
} timer_task;

static void timers_run(int start, int end, int worker, void *context) {
    (void)worker;
    const timer_task *t = context;
    ledge_world *w = t->w;
    float s2 = w->sleep->speed * w->sleep->speed;
    for (int b = start; b < end; ++b) {
        for (int i = b * LEDGE__BLOCK, last = ledge__stirred_end(w, b); i < last; ++i) {
            w->step.sleepy[i] = 0;
            atomic_store_explicit(&w->sleep->veto[i], 0, memory_order_relaxed);
            if (!w->alive[i] || !awake_dynamic(w, i) || w->frozen[i] || w->sensor[i]) continue;
            w->sleep_timer[i] = speed2(w, i) <= s2 ? w->sleep_timer[i] + t->dt : 0.0f;
            w->step.sleepy[i] = w->sleep_timer[i] >= w->sleep->time;
        }
    }
}

static void advance_timers(ledge_world *w, float dt) {
    timer_task t = {w, dt};
    ledge__run(w, timers_run, ledge__blocks(w->slot_count), 1, &t);
}

// --- dormant blocks -----------------------------------------------------------
//
// A settled level is mostly sleepers, and most stages go through every
// slot. A block of slots whose bodies all sleep (or are static or dead)
// becomes dormant at the end of the step that put its last body to sleep:
// its bodies' per-body scratch then gets what those stages write for a
// sleeper (not fast, not sleepy, not vetoed, not in the tile list, no tile
// answer standing at its anchor, anchored at its box's centre, which a
// sleeper never moves), and the stages that have nothing else to do for a
// sleeper skip the block (ledge__stirred_end): the velocities, positions
// and their range check, the rest timers, the tile list, the loads, the
// kinematic bodies' wake. Waking a body, making one in the block, any
// setter called on one of its bodies, and the slots' order by space stir
// the block (ledge__stir); the next step's end finds it again. The flags
// are a fact about the slots, never about the workers, and a skipped stage
// would have written the same bits: the results do not change
// (test_workers compares them with the flags off).

// Whether block b's bodies all sleep, are static or are dead (the
// skipped stages do for a static body what they do for a sleeper).
static bool all_asleep(const ledge_world *w, int b) {
    for (int i = b * LEDGE__BLOCK; i < ledge__block_end(b, w->slot_count); ++i) {
        if (w->alive[i] && !w->asleep[i] && w->type[i] != LEDGE_BODY_STATIC) return false;
    }
    return true;
}

// Block b's bodies' scratch as the stages it skips would leave it.
static void make_dormant(ledge_world *w, int b) {
    for (int i = b * LEDGE__BLOCK; i < ledge__block_end(b, w->slot_count); ++i) {
        w->step.fast[i] = 0;
        w->step.sleepy[i] = 0;
        atomic_store_explicit(&w->sleep->veto[i], 0, memory_order_relaxed);
        ledge__broad_forget_anchor(w, i);
    }
    ledge__broad_dormant(w, b); // its bodies may have changed since it was last dormant
    w->par.dormant[b] = 1;
}

// The marked bodies fall asleep (each block counts its own), and blocks
// whose bodies all sleep now become dormant.
static void sleep_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    for (int b = start; b < end; ++b) {
        int n = 0;
        for (int i = b * LEDGE__BLOCK, last = ledge__stirred_end(w, b); i < last; ++i) {
            unsigned veto = atomic_load_explicit(&w->sleep->veto[i], memory_order_relaxed);
            if (veto & PRESSED) w->sleep_timer[i] = 0.0f;
            if (!w->step.sleepy[i] || veto) continue;
            put_to_sleep(w, i);
            ++n;
        }
        w->sleep->fell_asleep[b] = n;
        if (!ledge__dormant(w, b) && w->debug.dormant_on && all_asleep(w, b)) make_dormant(w, b);
    }
}

static void fall_asleep(ledge_world *w) {
    int blocks = ledge__blocks(w->slot_count);
    ledge__run(w, sleep_run, blocks, 1, w);
    for (int b = 0; b < blocks; ++b) w->sleepers += w->sleep->fell_asleep[b];
}

// The veto by contacts: a body touching one that keeps it awake stays
// awake, and both bodies of a contact deeper than 1.25 times the slop are
// pressed (press(): a pile that has not finished pushing its bodies apart
// would sleep with the overlap). A sleeper touching a pressed body, or
// deep in contact with an awake one, wakes: bodies pressed between
// sleepers could not push them apart, and would stay pressed, and awake,
// for ever. Every decision reads the state before the veto (the rest
// timers, who sleeps, the depths), never another decision, so the
// contacts are split into ranges on the workers: each marks the bodies it
// keeps awake or presses in its veto (atomic: two ranges may mark one
// body); then, if any body is pressed, each range counts its contacts
// that wake a sleeper, and the calling thread wakes those in contact order.
typedef struct veto_task {
    ledge_world *w;
    int per; ///< Contacts per range.
    float s2, deep;
} veto_task;

static inline void keep_awake(ledge_world *w, int i) {
    atomic_fetch_or_explicit(&w->sleep->veto[i], KEPT_AWAKE, memory_order_relaxed);
}

// A deep contact presses its awake dynamic bodies: they stay awake, and
// their rest timers start again (sleep_run), so that they keep the bodies
// touching them awake in turn (keeps_awake). Without that, a column hit
// from above was pressed, its upper bodies fell asleep again while the
// lower ones were still pressed, and held the press in place. Returns
// whether it pressed a body.
static inline int press(ledge_world *w, int i) {
    if (!awake_dynamic(w, i)) return 0;
    atomic_fetch_or_explicit(&w->sleep->veto[i], KEPT_AWAKE | PRESSED, memory_order_relaxed);
    return 1;
}

// The end of range r of the contacts.
static inline int range_end(const veto_task *t, int r) {
    return ledge__part_end(r, t->per, t->w->contact_count);
}

static void veto_run(int start, int end, int worker, void *context) {
    (void)worker;
    const veto_task *t = context;
    ledge_world *w = t->w;
    for (int r = start; r < end; ++r) {
        int k1 = range_end(t, r), pressed = 0;
        const uint8_t *sleepy = w->step.sleepy;
        for (int k = r * t->per; k < k1; ++k) {
            const ledge__contact *c = &w->contacts[k];
            if (c->depth > t->deep) {
                pressed += press(w, c->a);
                if (c->b >= 0) pressed += press(w, c->b);
            } else if (c->b >= 0) {
                // (sleepy first: most bodies of a landing pile are not, and
                // then their partner's state is not read.)
                if (sleepy[c->a] && keeps_awake(w, c->b, t->s2)) keep_awake(w, c->a);
                if (sleepy[c->b] && keeps_awake(w, c->a, t->s2)) keep_awake(w, c->b);
            } else if (c->b == LEDGE__CHAIN_CONTACT && sleepy[c->a] &&
                       v2_len2(w->chains->c[c->cell_x].velocity) > t->s2) {
                keep_awake(w, c->a); // on a chain that moves
            }
        }
        w->sleep->range_count[r] = pressed;
    }
}

// Whether contact c wakes its sleeper: deep, its other body pressed, or
// the sleeper resting on a body that rests on a pressed one.
static inline bool wakes_sleeper(const ledge_world *w, const ledge__contact *c, float deep) {
    if (c->b < 0 || w->asleep[c->a] == w->asleep[c->b]) return false;
    int sleeper = w->asleep[c->a] ? c->a : c->b, other = sleeper == c->a ? c->b : c->a;
    unsigned bits = atomic_load_explicit(&w->sleep->veto[other], memory_order_relaxed);
    return c->depth > deep || (bits & PRESSED) ||
           ((bits & ON_PRESSED) && ledge__upper_body(w, c) == sleeper);
}

static void lids_run(int start, int end, int worker, void *context) {
    (void)worker;
    const veto_task *t = context;
    for (int r = start; r < end; ++r) {
        int n = 0;
        for (int k = r * t->per; k < range_end(t, r); ++k)
            n += wakes_sleeper(t->w, &t->w->contacts[k], t->deep);
        t->w->sleep->range_count[r] = n;
    }
}

// The awake bodies resting on a pressed body, and in turn those resting on
// them, up to the top of the pile, stay awake. Without that the bodies
// above a press came to rest and fell asleep while it lasted, and the top
// one, asleep, read as a static lid: a column of 10 crates hit from above
// was squeezed between the floor and its sleeping top crate, the press
// could not leave through the top, and the column never slept again. The
// contacts are sorted from the bottom of each pile up (response.c), so one
// pass in contact order carries the mark up a column. On the calling
// thread, and only in a step that pressed a body: each mark reads the
// marks of the contacts before it.
static void veto_above_pressed(ledge_world *w) {
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        if (c->b < 0) continue;
        int upper = ledge__upper_body(w, c);
        if (upper < 0 || !awake_dynamic(w, upper)) continue;
        int lower = upper == c->a ? c->b : c->a;
        unsigned bits = atomic_load_explicit(&w->sleep->veto[lower], memory_order_relaxed);
        if (bits & (PRESSED | ON_PRESSED))
            atomic_fetch_or_explicit(&w->sleep->veto[upper], KEPT_AWAKE | ON_PRESSED,
                                     memory_order_relaxed);
    }
}

static void veto_by_contacts(ledge_world *w) {
    if (w->contact_count == 0) return;
    int ranges = ledge__blocks(w->slot_count); // the room of range_count
    veto_task t = {w, (w->contact_count + ranges - 1) / ranges, w->sleep->speed * w->sleep->speed,
                   1.25f * w->slop};
    ranges = (w->contact_count + t.per - 1) / t.per;
    ledge__run(w, veto_run, ranges, 1, &t);
    bool any = false;
    for (int r = 0; r < ranges && !any; ++r) any = w->sleep->range_count[r] > 0;
    if (!any) return;
    veto_above_pressed(w);
    if (w->sleepers == 0) return;
    ledge__run(w, lids_run, ranges, 1, &t);
    for (int r = 0; r < ranges; ++r) {
        if (w->sleep->range_count[r] == 0) continue;
        for (int k = r * t.per; k < range_end(&t, r); ++k) {
            const ledge__contact *c = &w->contacts[k];
            if (wakes_sleeper(w, c, t.deep)) ledge__wake(w, w->asleep[c->a] ? c->a : c->b);
        }
    }
}

// The live contacts whose bodies all sleep now (or are static or
// kinematic) move to the held ones, after those already held; false
// (logged) when the held list cannot grow.
static bool hold_contacts(ledge_world *w, const char *fn) {
    int n = w->contact_count, live = 0;
    if (!LEDGE__RESERVE(w->held, w->held_cap, w->held_count + n, w->held_count, 256)) {
        LEDGE_ERROR("%s: allocation of %d held contacts failed (the sleeping bodies are woken)", fn,
                    w->held_count + n);
        return false;
    }
    for (int k = 0; k < n; ++k) {
        const ledge__contact *c = &w->contacts[k];
        // The game moved one of its bodies since the step found it
        // (ledge_body_set_awake after ledge_body_set_position): the next
        // step would not replay it, and a held copy would outlive that.
        if (w->any_moved && (w->moved[c->a] || (c->b >= 0 && w->moved[c->b]))) continue;
        if (held_contact(w, c)) {
            w->held[w->held_count++] = *c;
        } else {
            w->contacts[live++] = *c;
        }
    }
    w->contact_count = live;
    return true;
}

// A body that will not fall asleep at the end of this step: awake, and
// not sleepy or kept awake by a contact (the joints keep what is joined to
// it awake too).
static bool stays_awake(const ledge_world *w, int s) {
    return !w->asleep[s] && (!w->step.sleepy[s] ||
                             atomic_load_explicit(&w->sleep->veto[s], memory_order_relaxed) != 0);
}

void ledge__sleep_end(ledge_world *w, float dt) {
    if (!w->sleep->on) return;
    advance_timers(w, dt);
    veto_by_contacts(w);
    ledge__joints_keep_awake(w, stays_awake); // joined bodies fall asleep together
    fall_asleep(w);
    w->sleep->map_version = w->map->version;
    w->sleep->stepped = true;
    // Bodies woken in the step found their contacts again: their held
    // copies go.
    if (w->sleep->woke) keep_held(w);
    w->sleep->woke = false;
    if (w->sleepers == 0 && w->held_count == 0) return;
    if (!hold_contacts(w, "ledge_world_step")) { // the next step finds their contacts again
        wake_all(w);
        w->held_count = 0;
        w->sleep->woke = false;
    }
    ledge__contacts_changed(w);
}

// Through the contact index (built once per step when asked), so that a
// character mover's set_position per frame does not scan every contact;
// without room for the index, through every contact.
void ledge__sleep_wake_touching(ledge_world *w, int slot) {
    if (w->sleepers == 0) return;
    bool indexed = ledge__contact_index(w);
    int first = indexed ? w->events->contact_first[slot] : 0;
    int end = indexed ? w->events->contact_first[slot + 1] : ledge__view_count(w);
    for (int e = first; e < end; ++e) {
        const ledge__contact *c = ledge__view_contact(w, indexed ? w->events->contact_order[e] : e);
        if (c->a == slot && c->b >= 0) ledge__wake(w, c->b);
        if (c->b == slot) ledge__wake(w, c->a);
    }
}

bool ledge__sleep_body(ledge_world *w, int i) {
    if (w->asleep[i]) return true;
    put_to_sleep(w, i);
    w->sleepers++;
    w->sleep_timer[i] = w->sleep->time;
    // Moved by the game since the last step: its contacts, live or still
    // held from an earlier sleep, are of where it was.
    if (w->moved[i]) ledge__forget_contacts(w, i);
    // Before the first step no body has a contact an edit could make
    // stale: crates put to sleep once the level's map is built (more edits
    // than the map remembers) do not wake at the first step.
    if (!w->sleep->stepped) w->sleep->map_version = w->map->version;
    // Its live contacts that are now held move to the held ones (the
    // replay must not meet a contact between two bodies that cannot move).
    if (!hold_contacts(w, "ledge_body_set_awake")) {
        ledge__wake(w, i); // logged; it stays awake
        return false;
    }
    ledge__contacts_changed(w);
    return true;
}
