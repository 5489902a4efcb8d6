// The relaxation passes of a substep: every candidate pair of the broad
// phase, then every body near tiles, projected out of overlap at once
// (Gauss-Seidel, in a fixed order). Projection moves bodies by the depth
// less the slop, shared by inverse mass; kinematic and static bodies have
// none and never move. Velocities are left alone here: the velocity pass
// (response.c) answers the contacts of the last pass.
#include "broad.h"
#include "chain_store.h"
#include "events.h"
#include "resolve.h"
#include "contacts.h"
#include "par.h"
#include "slots.h"
#include "world_state.h"

#include "tilemap.h"

#include <limits.h>
#include <string.h>

// Room for `more` contacts after the recorded ones; the sort's output
// keeps the same capacity. False (logged) when an allocation fails.
bool ledge__contacts_reserve(ledge_world *w, int more) {
    int n = w->contact_count;
    if (more <= w->contact_cap - n) return true;
    int scratch_cap = w->contact_cap;
    if (!LEDGE__RESERVE(w->contacts_scratch, scratch_cap, n + more, 0, 256) ||
        !LEDGE__RESERVE(w->contacts, w->contact_cap, scratch_cap, n, 256)) {
        LEDGE_ERROR("ledge_world_step: allocation of %d contacts failed (their response is "
                    "skipped this step)",
                    n + more);
        return false;
    }
    return true;
}

bool ledge__record_contact(ledge_world *w, const ledge__contact *c) {
    if (!ledge__contacts_reserve(w, 1)) return false;
    w->contacts[w->contact_count++] = *c;
    return true;
}

// (A list of contacts without those of slot, in order.)
static int without_slot(ledge__contact *list, int count, int slot) {
    int n = 0;
    for (int k = 0; k < count; ++k) {
        if (list[k].a != slot && list[k].b != slot) list[n++] = list[k];
    }
    return n;
}

void ledge__forget_contacts(ledge_world *w, int slot) {
    w->contact_count = without_slot(w->contacts, w->contact_count, slot);
    w->held_count = without_slot(w->held, w->held_count, slot);
    ledge__contacts_changed(w); // the contacts moved: the index is rebuilt when asked
}

// --- body pairs -------------------------------------------------------------

static inline bool boxes_overlap(const ledge_world *w, int a, int b) {
    vec2s d = v2_sub(w->step.box_center[a], w->step.box_center[b]);
    vec2s r = v2_add(w->box_half[a], w->box_half[b]);
    return fabsf(d.x) < r.x && fabsf(d.y) < r.y;
}

// Two circles: their bounds' centres are their centres and their half
// widths their radii, so the test reads only the hot per-body arrays (the
// same closed form as ledge_collide's, without contact points). Float
// squares are safe here, unlike in ledge_collide: a pair always has a
// dynamic circle, whose mass bounds keep its radius above ~5.6e-10
// (test_world's test_tiny_circle_pairs).
static inline bool circles_overlap(const ledge_world *w, int a, int b, vec2s *n, float *depth,
                                   vec2s *point) {
    vec2s d = v2_sub(w->step.box_center[b], w->step.box_center[a]);
    float ra = w->box_half[a].x, r = ra + w->box_half[b].x, d2 = v2_len2(d);
    if (d2 >= r * r) return false;
    float dist = sqrtf(d2);
    *n = v2_unit(d, dist);
    *depth = r - dist;
    *point = v2_add(w->step.box_center[a], v2_scale(*n, ra - 0.5f * *depth));
    return true;
}

// Whether normal n is a pile's: within LEDGE__PILE_COSINE of up, either way.
static inline bool pile_normal(const ledge_world *w, vec2s n) {
    float up = v2_dot(n, w->up);
    return up * up > LEDGE__PILE_COSINE * LEDGE__PILE_COSINE;
}

// Whether pair p of two circles found apart (d the offset between their
// centres, d2 its square length, r the sum of the radii) holds its contact,
// at depth 0 along *n: a pile's pair (broad.c, pair_gives_way; its normal
// within LEDGE__PILE_COSINE of up) apart by less than the slop it does not
// keep (the whole slop less the pile's). Such a pair keeps a fifth of the
// slop as overlap, but its contact lasts as long as it did with the whole
// slop. Without that the contact came and went with every sway of a
// millimetre, and with it the support and the loads under the bodies
// above: a pile 1,000 circles deep never came to rest, its bodies dropping
// into the gaps, where keeping the whole slop it rested within 1,500 steps.
static inline bool circles_held(const ledge_world *w, const ledge__pair *p, vec2s d, float d2,
                                float r, vec2s *n) {
    if (!(p->state & LEDGE__PAIR_GIVES)) return false;
    float reach = r + (w->slop - w->pile_slop);
    if (!(d2 < reach * reach)) return false;
    *n = v2_unit(d, sqrtf(d2));
    return pile_normal(w, *n);
}

// circles_held for pair p of two circles that do not overlap, with
// circles_overlap's outputs.
static inline bool circles_held_at(const ledge_world *w, const ledge__pair *p, vec2s *n,
                                   float *depth, vec2s *point) {
    vec2s d = v2_sub(w->step.box_center[p->b], w->step.box_center[p->a]);
    float ra = w->box_half[p->a].x, r = ra + w->box_half[p->b].x;
    if (!circles_held(w, p, d, v2_len2(d), r, n)) return false;
    *depth = 0.0f;
    *point = v2_add(w->step.box_center[p->a], v2_scale(*n, ra));
    return true;
}

static inline bool shapes_overlap(const ledge_world *w, const ledge__pair *p, vec2s *n,
                                  float *depth, vec2s *point) {
    int a = p->a, b = p->b;
    if (p->kind & LEDGE__PAIR_CIRCLES) return circles_overlap(w, a, b, n, depth, point);
    if (!boxes_overlap(w, a, b)) return false;
    ledge_manifold m =
        ledge_collide(ledge__shape_of(w, a), w->position[a], ledge__shape_of(w, b), w->position[b]);
    *n = m.normal;
    *depth = m.depth;
    *point = m.point_count == 2 ? v2_scale(v2_add(m.points[0], m.points[1]), 0.5f) : m.points[0];
    return m.hit;
}

// --- platformer rules: one-way platforms, responses ---------------------------

// Whether body `o` meets one-way platform body `p` (normal n from p toward
// o): pushed out toward the allowed side, not dropping through, and not
// already inside it when the substep began (so it was on the allowed side).
static bool one_way_body_allows(const ledge_world *w, int p, int o, vec2s n) {
    vec2s d = ledge_one_way_direction((ledge_one_way)w->one_way[p]);
    if (w->dropping[o] || v2_dot(n, d) < 0.5f) return false;
    ledge_manifold then = ledge_collide(ledge__shape_of(w, p), w->last_position[p],
                                        ledge__shape_of(w, o), w->last_position[o]);
    return !then.hit || then.depth <= 2.0f * w->slop;
}

bool ledge__one_way_tile_allows(ledge_world *w, int a, int x, int y, const ledge_manifold *m) {
    ledge_one_way way =
        (ledge_one_way)w->map->one_way[(size_t)y * (size_t)w->map->width + (size_t)x];
    w->in_one_way[a] = 1;
    if (w->dropping[a] || v2_dot(m->normal, ledge_one_way_direction(way)) < 0.5f) return false;
    ledge_manifold then =
        ledge__tilemap_collide_cell(w->map, x, y, ledge__shape_of(w, a), w->last_position[a]);
    return !then.hit || then.depth <= 2.0f * w->slop;
}

// The pair's response: the stronger of the two bodies', unless the game's
// pre-solve callback says otherwise. Asked once per pair and substep.
static uint8_t pair_policy(ledge_world *w, int a, int b, vec2s n) {
    ledge_response r = (ledge_response)(w->policy[a] > w->policy[b] ? w->policy[a] : w->policy[b]);
    if (w->pre_solve)
        r = w->pre_solve(ledge__body_id(w, b), ledge__body_id(w, a), 0, 0, n, r,
                         w->pre_solve_context);
    return (uint8_t)(r >= LEDGE_RESPONSE_SLIDE && r <= LEDGE_RESPONSE_CROSS ? r
                                                                            : LEDGE_RESPONSE_SLIDE);
}

static uint8_t tile_policy(ledge_world *w, int a, int x, int y, vec2s n) {
    ledge_response r = (ledge_response)w->policy[a];
    if (w->pre_solve) {
        ledge_body_id none = LEDGE_NULL_BODY_ID;
        r = w->pre_solve(ledge__body_id(w, a), none, x, y, n, r, w->pre_solve_context);
    }
    return (uint8_t)(r >= LEDGE_RESPONSE_SLIDE && r <= LEDGE_RESPONSE_CROSS ? r
                                                                            : LEDGE_RESPONSE_SLIDE);
}

// Whether two positions hold the same bits.
static inline bool same_bits(vec2s a, vec2s b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

// Body i projected to `to`; whether it moved. A push below the resolution
// of the position (a settled pile makes thousands per pass) leaves it as
// it was, and is not counted: a pass that changed no position's bits is
// repeated exactly by the passes after it, which the relaxation skips.
static inline bool move_body(ledge_world *w, int i, vec2s to, int worker) {
    if (same_bits(to, w->position[i])) return false;
    w->position[i] = to;
    w->step.box_center[i] = v2_add(to, w->box_offset[i]);
    ledge__recheck_if_far(w, i, worker);
    return true;
}

// The overlap pair p keeps (n its normal): a pile's pair, two bodies that
// give way (a sleeper too: broad.c, pair_gives_way) one on the other, keeps
// the pile's slop; any other pair the whole slop (world_state.h says why).
static inline float kept(const ledge_world *w, const ledge__pair *p, vec2s n) {
    return (p->state & LEDGE__PAIR_GIVES) && pile_normal(w, n) ? w->pile_slop : w->slop;
}

// Pair p pushed apart by `push` along n (from a toward b), shared as the
// pair says; whether a body moved.
static inline bool push_apart(ledge_world *w, const ledge__pair *p, vec2s n, float push,
                              int worker) {
    vec2s to_a = v2_sub(w->position[p->a], v2_scale(n, push * p->share));
    vec2s to_b = v2_add(w->position[p->b], v2_scale(n, push * (1.0f - p->share)));
    bool moved_a = move_body(w, p->a, to_a, worker);
    bool moved_b = move_body(w, p->b, to_b, worker);
    return moved_a || moved_b;
}

static void project_pair(ledge_world *w, ledge__pair *p, int worker) {
    int a = p->a, b = p->b;
    // n points from a toward b: b moves along n, a against it.
    vec2s n, point;
    float depth;
    if (!shapes_overlap(w, p, &n, &depth, &point) &&
        !((p->kind & LEDGE__PAIR_CIRCLES) && circles_held_at(w, p, &n, &depth, &point)))
        return;
    if (LEDGE_UNLIKELY(!(p->kind & LEDGE__PAIR_PLAIN) && (w->one_way[a] | w->one_way[b]))) {
        bool ok = w->one_way[a] ? one_way_body_allows(w, a, b, n)
                                : one_way_body_allows(w, b, a, v2_neg(n));
        if (w->one_way[a]) w->in_one_way[b] = 1;
        if (w->one_way[b]) w->in_one_way[a] = 1;
        if (!ok) return;
    }
    if (!(p->state & LEDGE__PAIR_DECIDED)) {
        p->state |= LEDGE__PAIR_DECIDED;
        p->policy = (w->policy[a] | w->policy[b] | (w->pre_solve != NULL))
                        ? pair_policy(w, a, b, n)
                        : (uint8_t)LEDGE_RESPONSE_SLIDE;
    }
    p->normal = n;
    // A plain circle pair's point is found when it is recorded, from a's
    // centre (point_of); any other pair keeps its point.
    if (p->kind != (LEDGE__PAIR_CIRCLES | LEDGE__PAIR_PLAIN)) p->tested = point;
    p->depth = depth;
    p->state |= LEDGE__PAIR_TOUCHED;
    if (p->policy == LEDGE_RESPONSE_CROSS) return;
    float push = depth - kept(w, p, n);
    if (push > 0.0f) w->par.counter[worker].pushes += push_apart(w, p, n, push, worker);
}

// The pile's case, two circles of a plain pair (no one-way body, no policy,
// no callback: it slides): project_pair's closed form without its rules,
// reading only the hot arrays and the pair. Returns whether its push moved
// a body (the caller counts the pushes).
//
// In a settled pile most bodies come back each pass to the very bits they
// had (pushed up by one neighbour, back down by another), so a pair mostly
// meets the offset between its box centres of its last test again: the
// test, which reads that offset and the radii alone, would compute the
// same bits, which the pair holds (its normal and depth; the touch needs no
// rewrite), and only its push, if it pushed, is made again, from them. The
// result never depends on the shortcut. (The offset, not both centres: 8
// bytes a pair fewer for the passes to stream, and a pair whose two bodies
// moved together is not tested again.)
static inline int project_plain_circles(ledge_world *w, ledge__pair *p, int worker) {
    int a = p->a, b = p->b;
    const vec2s *center = w->step.box_center;
    vec2s d = v2_sub(center[b], center[a]), n;
    float push;
    if ((p->state & LEDGE__PAIR_TESTED) && same_bits(d, p->tested)) {
        if (!(p->state & LEDGE__PAIR_PUSHED)) return 0;
        n = p->normal;
        push = p->depth - kept(w, p, n);
    } else {
        p->state &= (uint8_t)~LEDGE__PAIR_PUSHED;
        float ra = w->box_half[a].x, r = ra + w->box_half[b].x, d2 = v2_len2(d);
        if (d2 >= r * r) {
            if (circles_held(w, p, d, d2, r, &n)) {
                p->tested = d;
                p->normal = n;
                p->depth = 0.0f;
                p->state |= LEDGE__PAIR_TOUCHED | LEDGE__PAIR_TESTED;
                return 0;
            }
            // Apart. A pair that touched keeps its last overlap's normal and
            // depth for its contact, and is tested again next pass.
            if (p->state & LEDGE__PAIR_TOUCHED) {
                p->state &= (uint8_t)~LEDGE__PAIR_TESTED;
            } else {
                p->state |= LEDGE__PAIR_TESTED;
            }
            p->tested = d;
            return 0;
        }
        p->tested = d;
        float dist = sqrtf(d2), depth = r - dist;
        n = v2_unit(d, dist);
        p->normal = n;
        p->depth = depth;
        p->state |= LEDGE__PAIR_TOUCHED | LEDGE__PAIR_TESTED;
        push = depth - kept(w, p, n);
        if (!(push > 0.0f)) return 0;
        p->state |= LEDGE__PAIR_PUSHED;
    }
    return push_apart(w, p, n, push, worker);
}

void ledge__tile_contact(const ledge_world *w, int a, int x, int y, const ledge_manifold *m,
                         uint8_t policy, ledge__contact *c) {
    // Field by field into place: a contact built aside and copied costs
    // the copy's wide loads a stall on the narrow stores still in flight.
    c->a = a;
    c->b = -1;
    c->normal = m->normal;
    ledge__tile_contact_material(w, a, x, y, c);
    c->cap = 0.0f;
    c->pile = 0;
    c->depth = m->depth;
    c->point =
        m->point_count == 2 ? v2_scale(v2_add(m->points[0], m->points[1]), 0.5f) : m->points[0];
    c->cell_x = x;
    c->cell_y = y;
    c->policy = policy;
    c->target = 0.0f;
    c->stamp = ledge__cell_stamp(w->map, x, y);
}

void ledge__chain_contact(const ledge_world *w, int a, int chain, int segment,
                          const ledge_manifold *m, uint8_t policy, ledge__contact *c) {
    c->a = a;
    c->b = LEDGE__CHAIN_CONTACT;
    c->normal = m->normal;
    // The chain's material mixed with the body's, as a tile's is.
    ledge__surface_contact_material(w, a, &w->chains->c[chain].material, c);
    c->cap = 0.0f;
    c->pile = 0;
    c->depth = m->depth;
    c->point =
        m->point_count == 2 ? v2_scale(v2_add(m->points[0], m->points[1]), 0.5f) : m->points[0];
    c->cell_x = chain;
    c->cell_y = segment;
    c->policy = policy;
    c->target = 0.0f;
    c->stamp = (int)w->chains->c[chain].generation;
}

// --- bodies against chains ----------------------------------------------------

// Body a's box grown by the margin: what its passes may reach.
static ledge_aabb reach_box(const ledge_world *w, int a) {
    vec2s c = v2_add(w->position[a], w->box_offset[a]);
    vec2s h = v2_add(w->box_half[a], v2(w->step.margin, w->step.margin));
    ledge_aabb b = {v2_sub(c, h), v2_add(c, h)};
    return b;
}

// Body a against the chain segments near it, one segment at a time in the
// walk's order, each projected before the next (as the tiles are). Writes
// only body a's entries. The contacts go to `out` when recording (or to
// the world's list when `out` is NULL); returns how many went to `out`.
static int project_chains(ledge_world *w, int a, bool record, int worker, ledge__contact *out) {
    const ledge__chains *cs = w->chains;
    ledge__chain_walk walk;
    ledge__chain_walk_begin(&walk, cs, reach_box(w, a));
    int chain, segment, n = 0;
    uint8_t policy = (uint8_t)w->policy[a];
    while (ledge__chain_walk_next(&walk, &chain, &segment)) {
        const ledge__chain *c = &cs->c[chain];
        if (!ledge__filters_allow(&w->filter[a], &c->filter)) continue;
        ledge_manifold m = ledge__segment_collide(&c->segments[segment], ledge__shape_of(w, a),
                                                  v2_sub(w->position[a], c->position));
        if (!m.hit) continue;
        for (int k = 0; k < m.point_count; ++k) m.points[k] = v2_add(m.points[k], c->position);
        float push = m.depth - w->slop;
        if (push > 0.0f && policy != LEDGE_RESPONSE_CROSS) {
            vec2s to = v2_add(w->position[a], v2_scale(m.normal, push));
            if (!same_bits(to, w->position[a])) {
                w->par.counter[worker].pushes++;
                w->position[a] = to;
            }
        }
        if (!record) continue;
        if (out != NULL) {
            ledge__chain_contact(w, a, chain, segment, &m, policy, &out[n++]);
        } else if (ledge__contacts_reserve(w, 1)) {
            ledge__chain_contact(w, a, chain, segment, &m, policy,
                                 &w->contacts[w->contact_count++]);
        }
    }
    return n;
}

// How many contacts body a can make with chain segments (a bound for the
// recording pass's room).
static int chain_bound(const ledge_world *w, int a) {
    ledge__chain_walk walk;
    ledge__chain_walk_begin(&walk, w->chains, reach_box(w, a));
    int chain, segment, n = 0;
    while (ledge__chain_walk_next(&walk, &chain, &segment)) ++n;
    return n;
}

static inline bool any_chain(const ledge_world *w) {
    return w->chains != NULL && w->chains->live > 0;
}

// --- bodies against tiles ---------------------------------------------------

// Whether two tile contacts of a body are one surface (split by a seam):
// the same normal, to rounding.
static inline bool same_surface(const ledge__contact *p, const ledge__contact *q) {
    return v2_len2(v2_sub(p->normal, q->normal)) <= 1e-8f;
}

// How far contact c's point lies from `center` along its surface.
static inline float off_center(const ledge__contact *c, vec2s center) {
    return fabsf(v2_dot(v2_sub(c->point, center), v2(c->normal.y, -c->normal.x)));
}

// A body's level contacts on one surface split by seams (between tiles,
// or between a tile and a chain, or two segments of a chain) are answered
// once: the first in order, the others then finding the body no longer
// moving into it (response.c). So that the material answering is the one
// under the body, whichever way it moves, they all take the material of
// the contact nearest the body's centre along the surface (the first on a
// tie): a crate moving from the floor onto a belt, or off ice, changes
// over when its centre does. Only on maps with materials or worlds with
// chains; the materials of the others are what they were.
static void share_surface_materials(const ledge_world *w, int a, ledge__contact *c, int n) {
    vec2s center = v2_add(w->position[a], w->box_offset[a]);
    for (int i = 0; i < n; ++i) {
        bool first = true;
        for (int j = 0; j < i && first; ++j) first = !same_surface(&c[j], &c[i]);
        if (!first) continue;
        int best = i;
        float best_off = off_center(&c[i], center);
        for (int j = i + 1; j < n; ++j) {
            if (!same_surface(&c[i], &c[j])) continue;
            float off = off_center(&c[j], center);
            if (off < best_off) best = j, best_off = off;
        }
        for (int j = i; j < n && best != i; ++j) {
            if (j == best || !same_surface(&c[i], &c[j])) continue;
            c[j].friction = c[best].friction;
            c[j].bounce = c[best].bounce;
            c[j].speed = c[best].speed;
        }
    }
}

// One cell at a time, each contact projected before the next cell is tested
// (N's order): two floor tiles under a seam then push once, not twice.
// When recording, the contacts go to `out` (returns how many), or straight
// to the world's list when `out` is NULL (the calling thread only). Writes
// only body a's own entries, so the bodies of the tile list can be
// projected on several workers at once.
static int project_tiles(ledge_world *w, int a, bool record, int worker, ledge__contact *out) {
    int x0, y0, x1, y1, n = 0, first = out == NULL ? w->contact_count : 0;
    ledge__tilemap_scan_range(w->map, ledge__shape_of(w, a), w->position[a], &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            ledge_manifold m =
                ledge__tilemap_collide_cell(w->map, x, y, ledge__shape_of(w, a), w->position[a]);
            if (!m.hit) continue;
            if (ledge__tilemap_inside(w->map, x, y) &&
                LEDGE_UNLIKELY(w->map->one_way[(size_t)y * (size_t)w->map->width + (size_t)x]) &&
                !ledge__one_way_tile_allows(w, a, x, y, &m)) {
                continue;
            }
            if (LEDGE_UNLIKELY(w->chains != NULL && w->chains->corner_count > 0) &&
                ledge__chains_hide_tile_contact(w->chains, x, y, m.normal,
                                                v2_add(w->position[a], w->box_offset[a]))) {
                continue; // a chain leaves the tile's corner downhill: its push
            }
            uint8_t policy = (w->policy[a] || w->pre_solve) ? tile_policy(w, a, x, y, m.normal)
                                                            : (uint8_t)LEDGE_RESPONSE_SLIDE;
            float push = m.depth - w->slop;
            if (push > 0.0f && policy != LEDGE_RESPONSE_CROSS) {
                vec2s to = v2_add(w->position[a], v2_scale(m.normal, push));
                if (!same_bits(to, w->position[a])) {
                    w->par.counter[worker].pushes++;
                    w->position[a] = to;
                }
            }
            if (record) {
                if (out != NULL) {
                    ledge__tile_contact(w, a, x, y, &m, policy, &out[n++]);
                } else if (ledge__contacts_reserve(w, 1)) {
                    ledge__tile_contact(w, a, x, y, &m, policy, &w->contacts[w->contact_count++]);
                }
            }
        }
    }
    if (LEDGE_UNLIKELY(any_chain(w)))
        n += project_chains(w, a, record, worker, out ? out + n : NULL);
    // (A chain's contacts take part: a crate crossing from a tile floor
    // onto a chain that continues it changes material where its centre
    // crosses, as between two tiles.)
    if (record && LEDGE_UNLIKELY(ledge__tilemap_has_materials(w->map) || any_chain(w))) {
        ledge__contact *mine = out != NULL ? out : w->contacts + first;
        int count = out != NULL ? n : w->contact_count - first;
        if (count >= 2) share_surface_materials(w, a, mine, count);
    }
    // The last pass: a body the pile pressed into a buried cell, which no
    // tile contact above could push out, goes back out the way it came.
    if (record && w->policy[a] != LEDGE_RESPONSE_CROSS && w->pre_solve == NULL) ledge__unbury(w, a);
    w->step.box_center[a] = v2_add(w->position[a], w->box_offset[a]);
    ledge__recheck_if_far(w, a, worker);
    return n;
}

// --- buried bodies --------------------------------------------------------------

// Whether point c lies in the solid part of its cell (a one-way cell is
// never solid here: bodies pass through it). Fills the cell.
static bool solid_at(const ledge_world *w, vec2s c, int *x, int *y) {
    const ledge_tilemap *m = w->map;
    *x = ledge__tilemap_cell(c.x, m->origin.x, m->inv_tile_size);
    *y = ledge__tilemap_cell(c.y, m->origin.y, m->inv_tile_size);
    ledge_tile t = ledge__tilemap_at(m, *x, *y);
    if (t == LEDGE_TILE_EMPTY) return false;
    if (ledge__tilemap_inside(m, *x, *y) && m->one_way[(size_t)*y * (size_t)m->width + (size_t)*x])
        return false;
    vec2s corner =
        v2(m->origin.x + (float)*x * m->tile_size, m->origin.y + (float)*y * m->tile_size);
    return ledge__tile_contains_unit(&m->geom[t], v2_scale(v2_sub(c, corner), m->inv_tile_size));
}

// Whether point c lies buried: solid, in a cell whose four sides are all
// blocked.
static bool buried_at(const ledge_world *w, vec2s c, int *x, int *y) {
    return solid_at(w, c, x, y) && ledge__tilemap_blocked(w->map, *x, *y) == 0xFu;
}

// The nearest way out of the solid from buried point c along the grid's
// axes: cell by cell up (the axis closest to -gravity; +y without
// gravity), along the two axes across it and down, to the face of the
// first cell not solid there, the nearest of the four (up first on a tie).
// Every cell outside the map is solid, so each walk covers only the cells
// of its row or column inside the map (a body far outside the map starts
// at the map's edge): at most the map's width or height. False when none.
static bool way_out(const ledge_world *w, vec2s c, int x, int y, vec2s *point, vec2s *normal) {
    static const int step[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    static const int order[4][4] = {{0, 2, 3, 1}, {1, 2, 3, 0}, {2, 0, 1, 3}, {3, 0, 1, 2}};
    int axis = w->up.x == 0.0f && w->up.y == 0.0f ? 0 : w->up_axis;
    const ledge_tilemap *m = w->map;
    long long best = LLONG_MAX;
    for (int o = 0; o < 4; ++o) {
        int dx = step[order[axis][o]][0], dy = step[order[axis][o]][1];
        // The walk's coordinate and the map's cells along it; the other
        // coordinate must lie in the map, or the whole line is solid.
        long long at = dx ? x : y, across = dx ? y : x, d = dx ? dx : dy;
        long long size = dx ? m->width : m->height, size_across = dx ? m->height : m->width;
        if (across < 0 || across >= size_across) continue;
        // Cells at + d k inside [0, size - 1], for k >= 1.
        long long k0 = d > 0 ? -at : at - (size - 1), k1 = d > 0 ? size - 1 - at : at;
        if (k0 < 1) k0 = 1;
        for (long long k = k0; k <= k1 && k < best; ++k) {
            vec2s mid = v2(m->origin.x + ((float)(x + dx * k) + 0.5f) * m->tile_size,
                           m->origin.y + ((float)(y + dy * k) + 0.5f) * m->tile_size);
            int cx, cy;
            if (solid_at(w, mid, &cx, &cy)) continue;
            // The face between cell k - 1 and cell k, at c's other coordinate.
            float face = dx ? m->origin.x + (float)(x + dx * k + (dx < 0)) * m->tile_size
                            : m->origin.y + (float)(y + dy * k + (dy < 0)) * m->tile_size;
            *point = dx ? v2(face, c.y) : v2(c.x, face);
            *normal = v2((float)dx, (float)dy);
            best = k;
        }
    }
    return best < LLONG_MAX;
}

bool ledge__tile_buried(const ledge_world *w, vec2s point) {
    int x, y;
    return buried_at(w, point, &x, &y);
}

bool ledge__unbury(ledge_world *w, int i) {
    vec2s c = v2_add(w->position[i], w->box_offset[i]);
    int x, y, fx, fy;
    if (!buried_at(w, c, &x, &y)) return false;
    vec2s from = v2_add(w->last_position[i], w->box_offset[i]), point = c, n = v2(0.0f, 1.0f);
    ledge_ray_hit hit;
    if (!buried_at(w, from, &fx, &fy) &&
        ledge_tilemap_raycast(w->map, from, v2_sub(c, from), &hit) && hit.fraction > 0.0f) {
        point = hit.point; // where it crossed into the solid
        n = hit.normal;
    } else if (!way_out(w, c, x, y, &point, &n)) {
        return false;
    }
    // The shape's extent along n (its bounds'), less the slop: it ends
    // touching the surface as a resting contact would; unless that puts its
    // centre in the solid again (a body wider than the room beyond the
    // surface), then just past the surface, whose open side the tile
    // contacts push it out through.
    float extent = fabsf(n.x) * w->box_half[i].x + fabsf(n.y) * w->box_half[i].y;
    vec2s to = v2_add(point, v2_scale(n, maxf(extent - w->slop, 0.0f)));
    if (buried_at(w, to, &x, &y))
        to = v2_add(point, v2_scale(n, maxf(w->slop, 1e-3f * w->map->tile_size)));
    w->position[i] = v2_sub(to, w->box_offset[i]);
    float into = v2_dot(w->velocity[i], n);
    if (into < 0.0f) w->velocity[i] = v2_sub(w->velocity[i], v2_scale(n, into));
    return true;
}

// --- the tile list on the workers ---------------------------------------------

// Items are blocks of LEDGE__BLOCK entries of the tile list. A recording
// pass first bounds each block's contacts by the cells its bodies will
// scan (their positions no longer change before their own projection), so
// that each block writes its contacts at its own offset of one scratch
// list; they are appended in block order afterwards: the list's order.
typedef struct tiles_task {
    ledge_world *w;
    bool record;
} tiles_task;

static inline int tiles_end(const ledge_world *w, int b) {
    return ledge__block_end(b, w->step.tile_count);
}

static void tiles_bound_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    for (int b = start; b < end; ++b) {
        long long bound = 0;
        for (int k = b * LEDGE__BLOCK; k < tiles_end(w, b); ++k) {
            int a = w->step.tile_list[k], x0, y0, x1, y1;
            ledge__tilemap_scan_range(w->map, ledge__shape_of(w, a), w->position[a], &x0, &y0, &x1,
                                      &y1);
            if (x1 >= x0 && y1 >= y0) bound += (long long)(x1 - x0 + 1) * (long long)(y1 - y0 + 1);
            if (LEDGE_UNLIKELY(any_chain(w))) bound += chain_bound(w, a);
            if (bound > INT_MAX / 4) bound = INT_MAX / 4;
        }
        w->resolve->tile_offset[b] = (int)bound;
    }
}

static void tiles_run(int start, int end, int worker, void *context) {
    const tiles_task *t = context;
    ledge_world *w = t->w;
    for (int b = start; b < end; ++b) {
        ledge__contact *out =
            t->record ? w->resolve->tile_contacts + w->resolve->tile_offset[b] : NULL;
        int n = 0;
        for (int k = b * LEDGE__BLOCK; k < tiles_end(w, b); ++k) {
            n += project_tiles(w, w->step.tile_list[k], t->record, worker, out ? out + n : NULL);
        }
        w->resolve->tile_found[b] = n;
    }
}

// Runs the tile list's blocks on the workers, or on the calling thread when
// the game's pre-solve callback may be called.
static void run_tiles(ledge_world *w, tiles_task *t, int blocks) {
    if (w->pre_solve != NULL) {
        tiles_run(0, blocks, 0, t);
    } else {
        ledge__run(w, tiles_run, blocks, 1, t);
    }
}

// The recording pass: the blocks' bounds become offsets into the scratch
// list. False (the tiles then run one by one, recording directly) when the
// bound is out of proportion (huge bodies over many cells) or the scratch
// cannot grow.
static bool tile_offsets(ledge_world *w, int blocks) {
    ledge__run(w, tiles_bound_run, blocks, 1, w);
    long long at = 0;
    for (int b = 0; b < blocks; ++b) {
        int n = w->resolve->tile_offset[b];
        w->resolve->tile_offset[b] = (int)at;
        at += n;
    }
    if (at > 64LL * w->step.tile_count + 65536) return false;
    return LEDGE__RESERVE(w->resolve->tile_contacts, w->resolve->tile_contact_cap, (int)at + 1, 0,
                          256);
}

static void project_all_tiles(ledge_world *w, bool record) {
    int blocks = ledge__blocks(w->step.tile_count);
    tiles_task t = {w, record};
    if (!record) {
        run_tiles(w, &t, blocks);
        return;
    }
    if (!tile_offsets(w, blocks)) {
        for (int k = 0; k < w->step.tile_count; ++k)
            project_tiles(w, w->step.tile_list[k], true, 0, NULL);
        return;
    }
    run_tiles(w, &t, blocks);
    for (int b = 0; b < blocks; ++b) {
        int n = w->resolve->tile_found[b];
        if (n == 0 || !ledge__contacts_reserve(w, n)) continue;
        memcpy(w->contacts + w->contact_count,
               w->resolve->tile_contacts + w->resolve->tile_offset[b],
               sizeof *w->contacts * (size_t)n);
        w->contact_count += n;
    }
}

// --- recording the pairs ------------------------------------------------------

// Blocks of RECORD_BLOCK pairs: each counts its touched pairs, the counts
// become offsets after the contacts already recorded, and each block then
// writes its contacts there: the pairs' order, on any number of workers.
#define RECORD_BLOCK 2048

static inline int record_end(const ledge_world *w, int b) {
    return ledge__part_end(b, RECORD_BLOCK, w->step.pair_count);
}

static void touched_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    for (int b = start; b < end; ++b) {
        int n = 0;
        for (int k = b * RECORD_BLOCK; k < record_end(w, b); ++k)
            n += (w->step.pairs[k].state & LEDGE__PAIR_TOUCHED) != 0;
        w->resolve->record_offset[b] = n;
    }
}

// A pair's contact point. A plain circle pair's is found here, midway
// between the two surfaces along its normal where the passes left the
// bodies (for a pair at rest, the point of its last overlap; for one a
// push parted, where they touch), so that the pair need not keep it (8
// bytes a pair more for the relaxation passes to stream). Any other pair
// keeps the point of its last overlap.
static inline vec2s point_of(const ledge_world *w, const ledge__pair *p) {
    if (p->kind != (LEDGE__PAIR_CIRCLES | LEDGE__PAIR_PLAIN)) return p->tested;
    vec2s ca = w->step.box_center[p->a], cb = w->step.box_center[p->b];
    float ra = w->box_half[p->a].x, r = ra + w->box_half[p->b].x;
    float half_depth = 0.5f * (r - v2_dot(v2_sub(cb, ca), p->normal));
    return v2_add(ca, v2_scale(p->normal, ra - half_depth));
}

static void record_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    for (int b = start; b < end; ++b) {
        ledge__contact *out = w->contacts + w->resolve->record_offset[b];
        for (int k = b * RECORD_BLOCK; k < record_end(w, b); ++k) {
            const ledge__pair *p = &w->step.pairs[k];
            if (!(p->state & LEDGE__PAIR_TOUCHED)) continue;
            // Combined here, for the pairs that touched, not for every
            // candidate. Written field by field: a contact built aside and
            // copied stalled the copy's wide loads on the narrow stores
            // (three quarters of the recording's time).
            out->a = p->b;
            out->b = p->a;
            out->normal = p->normal;
            ledge__pair_contact_material(w, p->a, p->b, out);
            out->cap = 0.0f;
            out->pile = 0;
            out->depth = p->depth;
            out->point = point_of(w, p);
            out->cell_x = out->cell_y = 0;
            out->policy = p->policy;
            out->target = 0.0f;
            out->stamp = 0;
            out++;
        }
    }
}

static void record_pairs(ledge_world *w) {
    int blocks = (w->step.pair_count + RECORD_BLOCK - 1) / RECORD_BLOCK;
    if (blocks == 0) return;
    if (!LEDGE__RESERVE(w->resolve->record_offset, w->resolve->record_offset_cap, blocks, 0, 16)) {
        LEDGE_ERROR("ledge_world_step: allocation of %d contact blocks failed (the pairs' "
                    "response is skipped this step)",
                    blocks);
        return;
    }
    ledge__run(w, touched_run, blocks, 1, w);
    int at = w->contact_count;
    for (int b = 0; b < blocks; ++b) {
        int n = w->resolve->record_offset[b];
        w->resolve->record_offset[b] = at;
        at += n;
    }
    // Nothing touched: nothing to write (the list may not exist yet).
    if (at == w->contact_count || !ledge__contacts_reserve(w, at - w->contact_count)) return;
    ledge__run(w, record_run, blocks, 1, w);
    w->contact_count = at;
}

// The grid's pairs in two colours, by the parity of their band of
// BAND_ROWS grid rows: a pair listed under row r (its first body's) joins
// bodies of rows r and r + 1, so a band's pairs reach one row past it, and
// the bands of one parity share no body: their pairs can be projected at
// the same time, each band's bottom up in list order. The order depends on
// the bodies alone, never on the workers: every worker count gives the
// same bits. (The game's pre-solve callback is called on the calling
// thread.) Bands rather than single rows keep most of the serial order's
// bottom-up sweep, which settles a pile in fewer passes.
#define BAND_ROWS 4
typedef struct rows_task {
    ledge_world *w;
    int parity;
} rows_task;

static void rows_run(int start, int end, int worker, void *context) {
    const rows_task *t = context;
    ledge_world *w = t->w;
    const int *row_start = w->par.row_start;
    int rows = w->grid.ny, pushes = 0;
    for (int j = start; j < end; ++j) {
        int r0 = (2 * j + t->parity) * BAND_ROWS;
        int r1 = r0 + BAND_ROWS < rows ? r0 + BAND_ROWS : rows;
        for (int k = row_start[r0]; k < row_start[r1]; ++k) {
            ledge__pair *p = &w->step.pairs[k];
            if (p->kind == (LEDGE__PAIR_CIRCLES | LEDGE__PAIR_PLAIN)) {
                pushes += project_plain_circles(w, p, worker);
            } else {
                project_pair(w, p, worker);
            }
        }
    }
    w->par.counter[worker].pushes += pushes;
}

static void project_grid_pairs(ledge_world *w) {
    int bands = (w->grid.ny + BAND_ROWS - 1) / BAND_ROWS;
    for (int parity = 0; parity < 2; ++parity) {
        rows_task t = {w, parity};
        int items = (bands - parity + 1) / 2;
        if (w->pre_solve != NULL) {
            rows_run(0, items, 0, &t);
        } else {
            ledge__run(w, rows_run, items, 1, &t);
        }
    }
}

// A pair that touched in any pass keeps its contact, even when a later
// pass left it a hair apart: a body resting in a pile is supported whether
// or not the last push happened to separate it by a rounding error.
int ledge__resolve_pass(ledge_world *w, bool record) {
    project_grid_pairs(w);
    for (int k = w->step.grid_pair_count; k < w->step.pair_count; ++k) {
        project_pair(w, &w->step.pairs[k], 0);
    }
    ledge__append_rechecked(w);
    project_all_tiles(w, record);
    int pushes = ledge__take_pushes(w);
    // New pairs make the next pass move something.
    pushes += ledge__far_pairs(w, !record);
    if (record) record_pairs(w);
    return pushes;
}

bool ledge__resolve_reserve(ledge_world *w, int slots) {
    ledge__resolve *r = w->resolve;
    int blocks = ledge__blocks(slots);
    if (blocks <= r->tile_block_cap) return true;
    int want = blocks < 8 ? 8 : blocks + blocks / 2;
    int offset_cap = r->tile_block_cap, found_cap = r->tile_block_cap;
    if (!LEDGE__RESERVE(r->tile_offset, offset_cap, want, 0, 8) ||
        !LEDGE__RESERVE(r->tile_found, found_cap, want, 0, 8)) {
        LEDGE_ERROR("ledge_world_step: allocation of the relaxation's scratch for %d blocks failed",
                    want);
        return false; // (tile_block_cap stays: both grow again next time)
    }
    r->tile_block_cap = offset_cap < found_cap ? offset_cap : found_cap;
    return true;
}

void ledge__resolve_destroy(ledge__resolve *r) {
    ledge__free(r->tile_contacts);
    ledge__free(r->tile_offset);
    ledge__free(r->tile_found);
    ledge__free(r->record_offset);
}
