// The velocity half of the contact model (world.h says it for users;
// docs/design.md derives the closed forms).
//
// At a contact with unit normal n (pointing out of the surface, toward the
// body), split the velocity into its normal part vn = (v.n) n and its
// tangential part vt = v - vn. Only when the body moves into the surface
// (v.n < 0) the normal part becomes -bounce vn (0 at or under the world's
// bounce threshold) and the tangential part loses friction.
//
// A lone contact (a body against the level, or two bodies meeting in the
// air) answers exactly that: v' = (1 - f) vt - b vn.
//
// Friction may remove more than f |vt|, never more than |vt|: the load the
// contact carries (loads(): the weight resting on its upper body), and
// under Coulomb's friction law (ledge_world_def.friction_law) also
// friction times the normal speed the contact removed, whichever is most. Under Coulomb's law a
// body resting on a slope no steeper than atan(friction) therefore stays put; steeper, it slides
// and N's rule brakes it. Under N's law (the default) a lone contact keeps N's rule, and a contact
// within a pile is Coulomb's (loads()).
//
// Friction acts once per contact per substep: after a contact is answered
// the body no longer moves into it, and a "moving into" no larger than a
// float rounding of the answer (APPROACH_EPS2: 1e-5 of the speed) is only
// removed, without friction or bounce. Without that a second contact with
// the same normal (a seam between two ramp tiles), or the same contact
// answered again, would brake the body a second time for a residue.
//
// Between two bodies the same rule acts on their relative velocity and the
// change is shared by inverse mass (momentum is conserved). The contacts
// are answered once in contact order (Gauss-Seidel; ledge__sort_contacts
// orders them bottom up in a world with gravity). In a world with gravity
// the shock sweep then goes once more from the bottom of each pile up,
// holding the lower body of each contact still (shock propagation,
// Guendelman et al. 2003): a body resting on others then cannot push them
// down into the floor, so a pile comes to rest in one pass instead of
// sinking for as many passes as it is high. A dynamic lower body is held
// without its motion toward the upper one (held_velocity), unless it rests
// on a kinematic body, directly or through others: the sweep slows bodies
// that fall into a pile, never throws them off it, and lifts a stack on a
// platform whole. The sweep aims at the normal speed each contact was to
// leave with, taken before the pass (aim(): a bounce aimed for stays a
// bounce, so a ball dropped on a ball resting on the floor rebounds, the
// floor holding the lower one).
// It answers only a contact the pass left short of that speed, which is a
// new normal impulse and gets its friction; a shortfall within rounding
// gets none.
#include "response.h"
#include "chain_store.h"
#include "contacts.h"
#include "joints.h"
#include "par.h"
#include "push.h"
#include "world_state.h"

#include <string.h>

void ledge__response_destroy(ledge__response *r) {
    void *arrays[] = {r->buckets,    r->sort_key,   r->sort_index,
                      r->sort_count, r->sort_range, r->stacking};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) ledge__free(arrays[k]);
}

// A normal speed smaller than this fraction of the speed is a rounding
// residue, not an approach (squared, as compared). The answer's own
// residue is a few float ulps of |v| (~1e-7 |v|).
#define APPROACH_EPS2 1e-10f

static inline bool residue(vec2s v, float dn) {
    return dn * dn <= APPROACH_EPS2 * v2_len2(v);
}

// The normal speed a contact leaves with (`vn` < 0 its approach).
static inline float bounced(float vn, float bounce, float threshold) {
    return -vn > threshold ? -bounce * vn : 0.0f;
}

// The tangential part vt after friction, the normal speed going from vn to
// out. N's rule keeps (1 - f) vt, and removes at least `cap` (the carried
// load's, loads()); Coulomb's law (`coulomb`) also at least f (out - vn).
// Never more than |vt|.
static inline vec2s rub(vec2s vt, float friction, float vn, float out, bool coulomb, float cap) {
    float keep = 1.0f - friction;
    float floor = coulomb ? maxf(friction * (out - vn), cap) : cap;
    if (floor > 0.0f) {
        float t2 = v2_len2(vt);
        if (floor * floor >= t2) {
            keep = 0.0f;
        } else if (t2 > 0.0f) {
            keep = minf(keep, 1.0f - floor / sqrtf(t2));
        }
    }
    return v2_scale(vt, keep);
}

// Whether answer() changes v at all.
static inline bool acts(const ledge__contact *c, vec2s v, float resting, bool sweep) {
    float goal = sweep ? c->target : 0.0f;
    return c->policy != LEDGE_RESPONSE_CROSS && goal - v2_dot(v, c->normal) > resting;
}

// The answer to a contact that acts, v's normal speed being vn and the
// normal speed aimed for `goal`.
static inline vec2s split(const ledge_world *w, const ledge__contact *c, vec2s v, float vn,
                          float goal, bool sweep, float dt) {
    vec2s n = c->normal;
    vec2s vt = v2_sub(v, v2_scale(n, vn));
    if (residue(v, goal - vn)) return v2_add(vt, v2_scale(n, goal));
    // The contact's policy (ledge_response): SLIDE is N's response; TOUCH
    // stops the relative motion; BOUNCE reflects it (bounce 1, no friction).
    if (LEDGE_UNLIKELY(c->policy != LEDGE_RESPONSE_SLIDE)) {
        if (c->policy == LEDGE_RESPONSE_TOUCH) return v2(0.0f, 0.0f);
        return v2_add(vt, v2_scale(n, maxf(goal, -vn))); // BOUNCE
    }
    float out = sweep ? goal : bounced(vn, c->bounce, w->bounce_threshold);
    vec2s t = rub(vt, c->friction, vn, out, w->coulomb || c->pile, c->cap * dt);
    return v2_add(t, v2_scale(n, out));
}

// A moving surface (a belt: material.h): N's split of the velocity
// relative to the surface, whose velocity u = speed (ny, -nx) is then
// added back. u is tangential, so the normal speed (and whether the
// contact acts) is v's own. (Apart from split, so that a surface at rest
// keeps the bits it had without belts.)
static LEDGE_NOINLINE vec2s split_moving(const ledge_world *w, const ledge__contact *c, vec2s v,
                                         float vn, float goal, bool sweep, float dt) {
    vec2s u = v2_scale(v2(c->normal.y, -c->normal.x), c->speed);
    return v2_add(split(w, c, v2_sub(v, u), vn, goal, sweep, dt), u);
}

// The answer to contact c of the (relative) velocity v. The pass (`sweep`
// false) answers a body moving into the surface faster than `resting`; the
// shock sweep one whose normal speed is short of the contact's target
// (aim()) by more than `resting`. A shortfall within rounding is made up
// without friction or bounce (friction once per contact).
static inline vec2s answer(const ledge_world *w, const ledge__contact *c, vec2s v, float resting,
                           bool sweep, float dt) {
    float vn = v2_dot(v, c->normal);
    float goal = sweep ? c->target : 0.0f;
    if (c->policy == LEDGE_RESPONSE_CROSS || !(goal - vn > resting)) return v;
    if (LEDGE_UNLIKELY(c->speed != 0.0f)) return split_moving(w, c, v, vn, goal, sweep, dt);
    return split(w, c, v, vn, goal, sweep, dt);
}

// The velocity of the level's surface at a contact, as a body moves: a
// kinematic chain's (a belt's surface speed, the contact's `speed`, is
// answered apart: answer() splits the velocity relative to the belt, so on
// a moving chain that is also a belt the split acts on the velocity
// relative to the chain's frame and then to its belt). False for the
// tiles and static chains, whose frame does not move.
static inline bool surface_velocity(const ledge_world *w, const ledge__contact *c, vec2s *s) {
    if (LEDGE_LIKELY(c->b != LEDGE__CHAIN_CONTACT)) return false;
    const ledge__chain *ch = &w->chains->c[c->cell_x];
    if (ch->type != LEDGE_BODY_KINEMATIC) return false;
    *s = ch->velocity;
    return true;
}

// A contact with the level: the body's velocity relative to the surface's
// frame answered, the frame's own velocity added back.
static inline void respond_tile(ledge_world *w, const ledge__contact *c, float resting, bool sweep,
                                float dt) {
    vec2s s;
    if (LEDGE_UNLIKELY(surface_velocity(w, c, &s))) {
        vec2s rel = v2_sub(w->velocity[c->a], s);
        w->velocity[c->a] = v2_add(answer(w, c, rel, resting, sweep, dt), s);
        return;
    }
    w->velocity[c->a] = answer(w, c, w->velocity[c->a], resting, sweep, dt);
}

// Body a against body b (n points from b toward a), the change shared by
// the weights wa and wb (which add up to 1).
static inline void respond_pair(ledge_world *w, const ledge__contact *c, float wa, float wb,
                                float resting, bool sweep, float dt) {
    vec2s rel = v2_sub(w->velocity[c->a], w->velocity[c->b]);
    vec2s after = answer(w, c, rel, resting, sweep, dt);
    vec2s change = v2_sub(after, rel);
    w->velocity[c->a] = v2_add(w->velocity[c->a], v2_scale(change, wa));
    w->velocity[c->b] = v2_sub(w->velocity[c->b], v2_scale(change, wb));
}

// A contact's velocity of a relative to b (or to the tile).
static inline vec2s relative(const ledge_world *w, const ledge__contact *c) {
    vec2s s;
    if (c->b < 0)
        return surface_velocity(w, c, &s) ? v2_sub(w->velocity[c->a], s) : w->velocity[c->a];
    return v2_sub(w->velocity[c->a], w->velocity[c->b]);
}

// A character that pushes bodies meets a dynamic body coming at it from the
// side as a body of its push mass (push.c): the body shares its momentum
// with it and shoves it, instead of stopping dead as against the level.
static inline bool weights(const ledge_world *w, const ledge__contact *c, float *wa, float *wb) {
    float ima = w->inv_mass[c->a], imb = w->inv_mass[c->b];
    if (LEDGE_UNLIKELY((ima == 0.0f || imb == 0.0f) && ledge__push_any(w))) {
        if (ima == 0.0f) ima = ledge__push_inv_mass(w, c->a, c->normal);
        if (imb == 0.0f) imb = ledge__push_inv_mass(w, c->b, c->normal);
    }
    float sum = ima + imb;
    if (!(sum > 0.0f)) return false;
    *wa = ima / sum;
    *wb = imb / sum;
    return true;
}

// Which body of a contact rests on the other: the upper one's slot (or -1
// when the contact is flatter than LEDGE__STACKED_COSINE, which is then
// shared by inverse mass, or the upper body cannot move), its lower one (-1
// for a tile) and the cosine of the normal with up.
static inline int stacked(const ledge_world *w, const ledge__contact *c, int *lower,
                          float *cosine) {
    if (c->policy == LEDGE_RESPONSE_CROSS) return -1;
    int u = ledge__upper_body(w, c);
    if (u < 0) return -1;
    *lower = u == c->a ? c->b : c->a;
    *cosine = fabsf(v2_dot(c->normal, w->up));
    return w->inv_mass[u] > 0.0f ? u : -1;
}

// Whether the shock sweep holds body i as it moves: a kinematic body (its
// motion is real: no contact changes it), or one the sweep has found
// stacked on one, directly or through others (a stack on a rising
// platform is lifted whole). A static body does not move, and neither does
// a sleeper: held either way, they mark nothing, so a pile on a static
// body is swept as a pile on tiles.
static inline bool held_as_it_moves(const ledge_world *w, int i) {
    return w->type[i] == LEDGE_BODY_KINEMATIC || w->step.held_moving[i] || ledge__joint_held(w, i);
}

// The lower body's velocity as the shock sweep holds it: as it moves
// (held_as_it_moves), or else without its motion toward the upper one.
// Holding a dynamic body still lends it infinite mass, and with its
// approach kept the upper body would be thrown off at the lower one's
// speed, whatever the pass shared between them. In a deep pile that
// compounds: a body on two lower ones takes both their approaches, so its
// speed squared grows by their sum, row after row (rain of 100,000: 569
// circles still moving after 600 steps, 61 without; a column 1,000
// circles deep threw them at 66 m/s once its landing pairs were found).
// Without it the sweep only slows the upper body along the normal, to the
// lower one's speed away from it: it holds piles up, and never pushes
// them.
static inline vec2s held_velocity(const ledge_world *w, const ledge__contact *c, int upper,
                                  int lower) {
    vec2s v = w->velocity[lower];
    if (held_as_it_moves(w, lower)) return v;
    vec2s n = upper == c->a ? c->normal : v2_neg(c->normal); // lower toward upper
    float toward = v2_dot(v, n);
    return toward > 0.0f ? v2_sub(v, v2_scale(n, toward)) : v;
}

// The sweep's answer to pair contact c: a stacked pair changes its upper
// body alone, against the lower one held (held_velocity); a flat pair, or
// one whose upper body cannot move, is shared by inverse mass as in the
// pass. Returns whether it marked the upper body held as it moves.
static inline bool sweep_pair(ledge_world *w, const ledge__contact *c, float resting, float dt) {
    int lower;
    float cosine, wa, wb;
    int u = stacked(w, c, &lower, &cosine);
    if (u < 0) {
        if (acts(c, relative(w, c), resting, true) && weights(w, c, &wa, &wb))
            respond_pair(w, c, wa, wb, resting, true, dt);
        return false;
    }
    vec2s held = held_velocity(w, c, u, lower), vu = w->velocity[u];
    bool marks = held_as_it_moves(w, lower) && !w->step.held_moving[u];
    if (marks) w->step.held_moving[u] = 1;
    vec2s rel = u == c->a ? v2_sub(vu, held) : v2_sub(held, vu); // a's relative to b's
    if (!acts(c, rel, resting, true)) return marks;
    vec2s change = v2_sub(answer(w, c, rel, resting, true, dt), rel);
    w->velocity[u] = u == c->a ? v2_add(vu, change) : v2_sub(vu, change);
    return marks;
}

// --- loads ------------------------------------------------------------------

// Friction in a pile. N's rule scales the tangential speed, and the normal
// speed a contact removes in a step is only what gravity added to the body
// above it: a body deep in a pile would then feel the friction of its own
// weight, not of the pile above it, and the pile would creep forever. So
// before responding, each contact gets the load it carries: every body's
// weight (mass times gravity scale) plus what rests on it, passed down from
// the top of the pile to each support in proportion to the support's share
// of "up" (the cosine of its normal with up), and the contact's cap is
// friction * g * dt * (normal load) / mass of the upper body, with the
// normal load the vertical share times the cosine. (Kept per second in the
// contact, so that the next substep's replay can use it at its own dt.)
//
// Which load, by the friction law (world.h):
// - Coulomb's: all of it, the upper body's own weight included.
// - N's: only what rests on the upper body, so that a lone body (on a tile,
//   or two bodies meeting in the air) keeps exactly N's rule; except in a
//   pile, where the contact's upper body rests on a dynamic body that
//   itself rests on the level (a tile, a static or kinematic body, a
//   sleeper, or such a body again, found bottom up): that contact is
//   Coulomb's (`pile`). With N's rule alone the tops of a pile slid off
//   forever at N's terminal speed (a bin of 400 circles still flowed at
//   0.2 m/s after 80 s; a pyramid of circles' apex crept 0.01 m a minute).
//
// The sums go in contact order (rounding depends on it) and stay on the
// calling thread; all the rest runs on the workers: each body's weight,
// each contact's upper and lower body and cosine (so that the serial sums
// read only those), and the caps.

// Item b: the weights of block b of slots and who rests on whom in block b
// of contacts (one task for both: one dispatch fewer per substep).
static void weight_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    float *W = w->step.load, *S = w->step.support;
    for (int b = start; b < end; ++b) {
        // A sleeper is never the upper body of a contact (its inverse mass
        // reads 0), so its load, support and mark are never read: a
        // dormant block (sleep.c) is left as it is.
        int last = b < ledge__blocks(w->slot_count) ? ledge__stirred_end(w, b) : 0;
        for (int i = b * LEDGE__BLOCK; i < last; ++i) {
            W[i] = w->inv_mass[i] > 0.0f ? w->gravity_scale[i] / w->inv_mass[i] : 0.0f;
            S[i] = 0.0f;
            w->step.supported[i] = 0;
        }
        last = ledge__block_end(b, w->contact_count);
        for (int k = b * LEDGE__BLOCK; k < last; ++k) {
            ledge__stacking *st = &w->response->stacking[k];
            st->lower = -1;
            st->cosine = 0.0f;
            st->upper = stacked(w, &w->contacts[k], &st->lower, &st->cosine);
        }
    }
}

// Whether a body rests on the level (N's law): a tile (-1), a dynamic body
// found resting on the level earlier in the bottom-up order (only ever the
// upper body of a stacked contact is marked `supported`), a sleeper, or a
// body that does not move with the pile (static, kinematic).
static inline bool rests_on_level(const ledge_world *w, int i) {
    return i < 0 || w->step.supported[i] || w->asleep[i] || w->type[i] != LEDGE_BODY_DYNAMIC ||
           ledge__joint_held(w, i);
}

// Whether a contact whose lower body is `lower` lies within a pile: that
// body is dynamic and rests on the level (then the contact's friction is
// Coulomb's under N's law too). Sleepers are dynamic.
static inline bool in_pile(const ledge_world *w, int lower) {
    return lower >= 0 && (w->step.supported[lower] || w->asleep[lower]);
}

// Each contact's cap from the loads (a block of contacts per item).
static void cap_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    const float *W = w->step.load, *S = w->step.support;
    float g = v2_len(w->gravity);
    for (int b = start; b < end; ++b) {
        int last = ledge__block_end(b, w->contact_count);
        for (int k = b * LEDGE__BLOCK; k < last; ++k) {
            ledge__contact *c = &w->contacts[k];
            const ledge__stacking *st = &w->response->stacking[k];
            int u = st->upper;
            if (u < 0) { // (pile is 0 since the contact was recorded)
                c->cap = 0.0f;
                continue;
            }
            float load = fabsf(W[u]); // u's own weight and what rests on it
            if (!w->coulomb) {
                c->pile = in_pile(w, st->lower);
                if (!c->pile) load = fabsf(W[u] - w->gravity_scale[u] / w->inv_mass[u]);
            }
            c->cap = c->friction * g * load * w->inv_mass[u] * st->cosine * st->cosine / S[u];
        }
    }
}

bool ledge__body_loads(ledge_world *w) {
    if (!LEDGE__RESERVE(w->response->stacking, w->response->stacking_cap, w->contact_count, 0,
                        256)) {
        LEDGE_ERROR("ledge_world_step: allocation of the loads' scratch for %d contacts failed "
                    "(no contact gets a load this substep)",
                    w->contact_count);
        return false;
    }
    float *W = w->step.load, *S = w->step.support;
    const ledge__stacking *st = w->response->stacking;
    int slot_blocks = ledge__blocks(w->slot_count),
        contact_blocks = ledge__blocks(w->contact_count);
    ledge__run(w, weight_run, slot_blocks > contact_blocks ? slot_blocks : contact_blocks, 1, w);
    for (int k = 0; k < w->contact_count; ++k) { // bottom up
        int u = st[k].upper;
        if (u < 0) continue;
        S[u] += st[k].cosine;
        if (!w->coulomb && rests_on_level(w, st[k].lower)) w->step.supported[u] = 1;
    }
    for (int k = w->contact_count - 1; k >= 0; --k) { // top down
        int u = st[k].upper, lower = st[k].lower;
        if (u >= 0 && lower >= 0) W[lower] += fabsf(W[u]) * st[k].cosine / S[u];
    }
    return true;
}

bool ledge__contact_loads(ledge_world *w) {
    if (!ledge__body_loads(w)) {
        for (int k = 0; k < w->contact_count; ++k) {
            w->contacts[k].cap = 0.0f;
            w->contacts[k].pile = 0;
        }
        return false;
    }
    if (w->up.x == 0.0f && w->up.y == 0.0f) return true; // no gravity, no loads (caps stay 0)
    ledge__run(w, cap_run, ledge__blocks(w->contact_count), 1, w);
    return true;
}

// --- order -----------------------------------------------------------------

// The sort runs on the workers, over blocks of SORT_BLOCK contacts: each
// block finds its range of heights, then the keys (buckets) of its contacts
// and how many fall in each of at most SORT_GROUPS groups of consecutive
// buckets; prefix sums over (group, block) give each block its place in
// each group, so the blocks scatter their contacts' indices by group, in
// contact order; each group then sorts its own indices by bucket. That is
// the one stable counting sort, whatever the number of workers.
#define SORT_BLOCK  1024
#define SORT_GROUPS 64

typedef struct sort_task {
    ledge_world *w;
    float lo, inv;
    int buckets; ///< Keys are 0 (tile contacts) .. buckets - 1.
    int shift;   ///< A key's group: key >> shift.
    int groups;
    int group_start[SORT_GROUPS + 1]; ///< Group g's indices: [group_start[g], group_start[g + 1]).
} sort_task;

static float contact_height(const ledge_world *w, const ledge__contact *c) {
    float ha = v2_dot(w->position[c->a], w->up), hb = v2_dot(w->position[c->b], w->up);
    return minf(ha, hb);
}

static inline int sort_block_end(const ledge_world *w, int b) {
    return ledge__part_end(b, SORT_BLOCK, w->contact_count);
}

// A block's lowest and highest pair contact (lo > hi when it has none).
static void range_run(int start, int end, int worker, void *context) {
    (void)worker;
    const sort_task *t = context;
    ledge_world *w = t->w;
    for (int b = start; b < end; ++b) {
        float lo = INFINITY, hi = -INFINITY;
        for (int k = b * SORT_BLOCK; k < sort_block_end(w, b); ++k) {
            const ledge__contact *c = &w->contacts[k];
            if (c->b < 0) continue;
            float h = contact_height(w, c);
            lo = minf(lo, h);
            hi = maxf(hi, h);
        }
        w->response->sort_range[2 * b] = lo;
        w->response->sort_range[2 * b + 1] = hi;
    }
}

// A block's keys and its count per group.
static void key_run(int start, int end, int worker, void *context) {
    (void)worker;
    const sort_task *t = context;
    ledge_world *w = t->w;
    const float lo = t->lo, inv = t->inv;
    const int last_bucket = t->buckets - 1, shift = t->shift;
    for (int b = start; b < end; ++b) {
        int *count = w->response->sort_count + b * SORT_GROUPS;
        memset(count, 0, sizeof *count * SORT_GROUPS);
        // Neighbouring contacts mostly share a group: a run is counted in
        // a register and added once (an increment in memory per contact
        // made one long chain of dependent loads and stores).
        int group = 0, run = 0;
        for (int k = b * SORT_BLOCK, k1 = sort_block_end(w, b); k < k1; ++k) {
            const ledge__contact *c = &w->contacts[k];
            int key = c->b < 0
                          ? 0
                          : 1 + ledge__grid_index((contact_height(w, c) - lo) * inv, last_bucket);
            w->response->sort_key[k] = key;
            if (key >> shift != group) {
                count[group] += run;
                group = key >> shift;
                run = 0;
            }
            run++;
        }
        count[group] += run;
    }
}

// A block's indices to its places in the groups (its counts became offsets).
static void scatter_run(int start, int end, int worker, void *context) {
    (void)worker;
    const sort_task *t = context;
    ledge_world *w = t->w;
    for (int b = start; b < end; ++b) {
        int *place = w->response->sort_count + b * SORT_GROUPS;
        for (int k = b * SORT_BLOCK; k < sort_block_end(w, b); ++k) {
            w->response->sort_index[place[w->response->sort_key[k] >> t->shift]++] = k;
        }
    }
}

// A group's contacts, by bucket, into the scratch list (a counting sort
// over the group's own buckets, which no other group touches).
static void group_run(int start, int end, int worker, void *context) {
    (void)worker;
    const sort_task *t = context;
    ledge_world *w = t->w;
    const int *index = w->response->sort_index, *key = w->response->sort_key;
    for (int g = start; g < end; ++g) {
        int first = g << t->shift, width = 1 << t->shift;
        int *place = w->response->buckets + first;
        memset(place, 0, sizeof *place * (size_t)width);
        int i0 = t->group_start[g], i1 = t->group_start[g + 1];
        for (int i = i0; i < i1; ++i) place[key[index[i]] - first]++;
        int at = i0;
        for (int j = 0; j < width; ++j) {
            int n = place[j];
            place[j] = at;
            at += n;
        }
        for (int i = i0; i < i1; ++i) {
            int k = index[i];
            w->contacts_scratch[place[key[k] - first]++] = w->contacts[k];
        }
    }
}

// The sort's scratch for the current contacts (on the calling thread).
static bool reserve_sort(ledge_world *w, int blocks) {
    ledge__response *s = w->response;
    int n = w->contact_count;
    return LEDGE__RESERVE(s->sort_key, s->sort_key_cap, n, 0, 256) &&
           LEDGE__RESERVE(s->sort_index, s->sort_index_cap, n, 0, 256) &&
           LEDGE__RESERVE(s->sort_count, s->sort_count_cap, blocks * SORT_GROUPS, 0, 256) &&
           LEDGE__RESERVE(s->sort_range, s->sort_range_cap, 2 * blocks, 0, 16);
}

// The pair contacts' range of heights, from the blocks' (false: none).
static bool height_range(ledge_world *w, sort_task *t, int blocks, float *lo, float *hi) {
    ledge__run(w, range_run, blocks, 1, t);
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int b = 0; b < blocks; ++b) {
        *lo = minf(*lo, w->response->sort_range[2 * b]);
        *hi = maxf(*hi, w->response->sort_range[2 * b + 1]);
    }
    return *lo <= *hi;
}

// The groups' starts, and each block's counts become its places in them.
static void group_offsets(ledge_world *w, sort_task *t, int blocks) {
    int at = 0;
    for (int g = 0; g < t->groups; ++g) {
        t->group_start[g] = at;
        for (int b = 0; b < blocks; ++b) {
            int *count = &w->response->sort_count[b * SORT_GROUPS + g];
            int n = *count;
            *count = at;
            at += n;
        }
    }
    t->group_start[t->groups] = at;
}

void ledge__sort_contacts(ledge_world *w) {
    if (w->contact_count < 2 || (w->up.x == 0.0f && w->up.y == 0.0f)) return;
    float slice = 0.1f * w->grid.cell;
    if (!(slice > 0.0f)) return;
    int blocks = (w->contact_count + SORT_BLOCK - 1) / SORT_BLOCK;
    if (!reserve_sort(w, blocks)) {
        LEDGE_ERROR("ledge_world_step: allocation of the contact sort's scratch for %d contacts "
                    "failed (contacts keep their order)",
                    w->contact_count);
        return;
    }
    sort_task t;
    memset(&t, 0, sizeof t);
    t.w = w;
    float lo, hi;
    if (!height_range(w, &t, blocks, &lo, &hi)) lo = hi = 0.0f;
    // Bucket 0 holds the tile contacts; pairs go to 1 + their slice. Very
    // tall worlds get thicker slices (still bottom-up, only coarser).
    double range = ((double)hi - (double)lo) / (double)slice;
    while (range > 4.0 * (double)w->contact_count + 1024.0) {
        slice *= 2.0f;
        range *= 0.5;
    }
    t.buckets = (int)range + 3;
    while (((t.buckets - 1) >> t.shift) >= SORT_GROUPS) t.shift++;
    t.groups = ((t.buckets - 1) >> t.shift) + 1;
    if (!LEDGE__RESERVE(w->response->buckets, w->response->bucket_cap, t.groups << t.shift, 0,
                        16)) {
        LEDGE_ERROR("ledge_world_step: allocation of %d contact buckets failed (contacts keep "
                    "their order)",
                    t.groups << t.shift);
        return;
    }
    t.lo = lo;
    t.inv = 1.0f / slice;
    ledge__run(w, key_run, blocks, 1, &t);
    group_offsets(w, &t, blocks);
    ledge__run(w, scatter_run, blocks, 1, &t);
    ledge__run(w, group_run, t.groups, 1, &t);
    ledge__contact *swap = w->contacts;
    w->contacts = w->contacts_scratch;
    w->contacts_scratch = swap;
}

// --- the pass ---------------------------------------------------------------

// Whether the sweep may bounce a stacked pair off its lower body: only
// when that body rests before the pass (moves no faster than REST_FRACTION
// of the bounce threshold: 0.1 m/s by default), as a ball resting on the
// floor does. The sweep holds the lower body still, which conserves
// momentum only if its own support holds it too. A lower body that still
// moves (a row of rain landing on the row below it, a pile giving way
// under it) would throw the upper one off at its own speed plus the
// bounce; that one lands and throws the next, and a pile does not settle
// (rain, 10,000 circles: 208 still moving after 600 steps, 1 with this
// rule; 100,000: 522 at the full threshold, 189 at 0.2 of it, 176 when
// only an exactly still body counts). The pass's bounce, shared by inverse
// mass, still answers such a contact, and flat pairs, which the sweep
// shares too, keep their aim.
#define REST_FRACTION 0.2f

static inline bool lower_at_rest(const ledge_world *w, const ledge__contact *c) {
    int lower;
    float cosine;
    if (stacked(w, c, &lower, &cosine) < 0) return true;
    float t = REST_FRACTION * w->bounce_threshold;
    return v2_len2(w->velocity[lower]) <= t * t;
}

typedef struct aim_task {
    ledge_world *w;
    float resting;
} aim_task;

// The shock sweep's aim: the normal speed each contact is to leave with, from the
// velocities before the pass (what the first pass's bounce aims at); a
// block of contacts per item (each writes only its own contacts).
static void aim_run(int start, int end, int worker, void *context) {
    (void)worker;
    const aim_task *t = context;
    ledge_world *w = t->w;
    for (int b = start; b < end; ++b) {
        int last = ledge__block_end(b, w->contact_count);
        for (int k = b * LEDGE__BLOCK; k < last; ++k) {
            ledge__contact *c = &w->contacts[k];
            vec2s v = relative(w, c);
            float vn = v2_dot(v, c->normal);
            c->target = 0.0f;
            if (!(vn < -t->resting) || residue(v, -vn)) continue;
            if (c->policy == LEDGE_RESPONSE_SLIDE) {
                if (c->b >= 0 && !lower_at_rest(w, c)) continue;
                c->target = bounced(vn, c->bounce, w->bounce_threshold);
            } else if (c->policy == LEDGE_RESPONSE_BOUNCE) {
                c->target = -vn;
            }
        }
    }
}

static void aim(ledge_world *w, float resting) {
    aim_task t = {w, resting};
    ledge__run(w, aim_run, ledge__blocks(w->contact_count), 1, &t);
}

// A body resting on a kinematic chain is held as it moves for what rests
// on it (a stack on a moving chain is lifted whole, as on a kinematic
// body). Returns whether it marked the body.
static inline bool held_by_chain(ledge_world *w, const ledge__contact *c) {
    vec2s s;
    if (LEDGE_LIKELY(!surface_velocity(w, c, &s)) || c->policy == LEDGE_RESPONSE_CROSS ||
        !(v2_dot(c->normal, w->up) > LEDGE__STACKED_COSINE) || w->step.held_moving[c->a]) {
        return false;
    }
    w->step.held_moving[c->a] = 1;
    return true;
}

void ledge__shock_sweep(ledge_world *w, float resting, float dt) {
    // Bottom up (ledge__sort_contacts): the tiles hold the bottom of every
    // pile, then each pair holds its lower body still.
    bool marked = false;
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        if (c->b < 0) {
            respond_tile(w, c, resting, true, dt);
            marked |= held_by_chain(w, c);
        } else {
            marked |= sweep_pair(w, c, resting, dt);
        }
    }
    if (!marked) return;
    // The marks are the sweep's own: cleared for the next one (only the
    // bodies of pair contacts and of chain contacts were marked).
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        w->step.held_moving[c->a] = 0;
        if (c->b >= 0) w->step.held_moving[c->b] = 0;
    }
}

void ledge__contact_pass(ledge_world *w, float resting, float dt) {
    float wa, wb;
    bool sweep = !(w->up.x == 0.0f && w->up.y == 0.0f);
    if (sweep) aim(w, resting);
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        // A pair the answer leaves alone (most of a resting pile's) skips
        // its weights and the bodies' updates.
        if (c->b < 0) {
            respond_tile(w, c, resting, false, dt);
        } else if (acts(c, relative(w, c), resting, false) && weights(w, c, &wa, &wb)) {
            respond_pair(w, c, wa, wb, resting, false, dt);
        }
    }
}

void ledge__velocity_pass(ledge_world *w, float resting, float dt) {
    ledge__contact_pass(w, resting, dt);
    if (w->up.x != 0.0f || w->up.y != 0.0f) ledge__shock_sweep(w, resting, dt);
}
