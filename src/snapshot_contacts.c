// Snapshots: the recorded contacts (the live list the next substep
// replays, then the held ones of sleeping bodies), in their order. Most of
// a contact is what the step would compute again from the bodies where
// they are now: the combined friction and bounce, and, for a pair or tile
// at rest, the normal, depth and point of their overlap (the last pass
// records the overlap it projects; a body that did not move after it
// overlaps the same way). The save computes each of those the way the step
// does and keeps a value only where the bits differ; a restore computes
// the same numbers from the bodies it has just put back.
#include "contacts.h"
#include "snapshot.h"

#include "tilemap.h"

// A contact's kind: which values follow it, and its response policy.
enum {
    K_TILE = 1,     // b is a tile: its cell follows
    K_NORMAL = 2,   // the normal and depth follow
    K_POINT = 4,    // the point follows
    K_FRICTION = 8, // the friction follows
    K_BOUNCE = 16,  // the bounce follows
    K_CAP = 32,     // the Coulomb cap follows (else 0)
    K_STAMP = 64,   // a tile's stamp follows; for a pair, its cell and stamp (else 0)
    K_POLICY = 7,   // the policy (ledge_response) in bits 7 and 8
    K_PILE = 512,   // the contact lies within a pile (response.c)
    K_LIMIT = 1024,
};

/// What the step would record for contact c from where its bodies are now.
typedef struct guess {
    vec2s normal, point;
    float depth, friction, bounce;
    int stamp;
} guess;

static inline vec2s box_center(const ledge_world *w, int i) {
    return v2_add(w->position[i], w->box_offset[i]);
}

// The pair's overlap as the relaxation finds it (resolve.c: the pair's a
// is the contact's b): two circles by their closed form, else the SAT.
static void guess_pair(const ledge_world *w, int a, int b, guess *g) {
    if (w->circle[a] && w->circle[b]) {
        vec2s d = v2_sub(box_center(w, a), box_center(w, b));
        float ra = w->box_half[b].x, r = ra + w->box_half[a].x;
        float dist = sqrtf(v2_len2(d));
        g->normal = v2_unit(d, dist);
        g->depth = r - dist;
        return;
    }
    ledge_manifold m = ledge_collide(&w->shape[b], w->position[b], &w->shape[a], w->position[a]);
    g->normal = m.normal;
    g->depth = m.depth;
    g->point = m.point_count == 2 ? v2_scale(v2_add(m.points[0], m.points[1]), 0.5f) : m.points[0];
}

// A circle pair's point, found when recorded from the normal it keeps
// (resolve.c, point_of).
static vec2s circle_point(const ledge_world *w, int a, int b, vec2s normal) {
    vec2s ca = box_center(w, b), cb = box_center(w, a);
    float ra = w->box_half[b].x, r = ra + w->box_half[a].x;
    float half_depth = 0.5f * (r - v2_dot(v2_sub(cb, ca), normal));
    return v2_add(ca, v2_scale(normal, ra - half_depth));
}

static void guess_tile(const ledge_world *w, int a, int x, int y, guess *g) {
    ledge_manifold m = ledge__tilemap_collide_cell(w->map, x, y, &w->shape[a], w->position[a]);
    g->normal = m.normal;
    g->depth = m.depth;
    g->point = m.point_count == 2 ? v2_scale(v2_add(m.points[0], m.points[1]), 0.5f) : m.points[0];
}

static void guess_materials(const ledge_world *w, int a, int b, guess *g) {
    g->friction = b >= 0 ? sqrtf(w->friction[b] * w->friction[a]) : w->friction[a];
    g->bounce = b >= 0 ? maxf(w->bounce[b], w->bounce[a]) : w->bounce[a];
}

static inline bool same_float(float x, float y) {
    return ledge__f32_bits(x) == ledge__f32_bits(y);
}

// A unit normal's y from its x: the distance of its bits from sqrt(1 - x^2)
// (zigzagged, 1 byte for a unit vector), then its sign.
static void put_normal(ledge__writer *o, vec2s n) {
    float py = sqrtf(maxf(0.0f, 1.0f - n.x * n.x));
    uint32_t ay = ledge__f32_bits(n.y) & 0x7FFFFFFFu;
    int64_t d = (int64_t)ay - (int64_t)ledge__f32_bits(py);
    ledge__put_f32(o, n.x);
    ledge__put_var(o, ledge__zigzag(d) << 1 | (ledge__f32_bits(n.y) >> 31));
}

static vec2s get_normal(ledge__reader *r) {
    vec2s n;
    n.x = ledge__get_within(r, 2.0f, "a contact normal");
    uint64_t u = ledge__get_var(r);
    float py = sqrtf(maxf(0.0f, 1.0f - n.x * n.x));
    uint64_t z = u >> 1;
    int64_t d = (z & 1u) ? -(int64_t)(z >> 1) - 1 : (int64_t)(z >> 1);
    int64_t ay = (int64_t)ledge__f32_bits(py) + d;
    if (ay < 0 || ay > 0x7F7FFFFF) {
        ledge__read_fail(r, "a contact normal's y is not a finite number");
        return v2(0.0f, 0.0f);
    }
    n.y = ledge__bits_f32((uint32_t)ay | (uint32_t)(u & 1u) << 31);
    if (!(fabsf(n.y) <= 2.0f)) ledge__read_fail(r, "a contact normal's y is %g", (double)n.y);
    return n;
}

// The kind of contact c: what differs from the guesses (and the guesses).
static unsigned kind_of(const ledge_world *w, const ledge__contact *c, guess *g) {
    unsigned k = (unsigned)c->policy << K_POLICY | (c->pile ? K_PILE : 0u);
    guess_materials(w, c->a, c->b, g);
    if (c->b < 0) {
        k |= K_TILE;
        guess_tile(w, c->a, c->cell_x, c->cell_y, g);
        g->stamp = ledge__cell_stamp(w->map, c->cell_x, c->cell_y);
        if (c->stamp != g->stamp) k |= K_STAMP;
    } else {
        guess_pair(w, c->a, c->b, g);
        if (c->cell_x != 0 || c->cell_y != 0 || c->stamp != 0) k |= K_STAMP;
    }
    if (!ledge__same_vec(c->normal, g->normal) || !same_float(c->depth, g->depth)) k |= K_NORMAL;
    if (c->b >= 0 && w->circle[c->a] && w->circle[c->b])
        g->point = circle_point(w, c->a, c->b, c->normal);
    if (!ledge__same_vec(c->point, g->point)) k |= K_POINT;
    if (!same_float(c->friction, g->friction)) k |= K_FRICTION;
    if (!same_float(c->bounce, g->bounce)) k |= K_BOUNCE;
    if (ledge__f32_bits(c->cap) != 0u) k |= K_CAP;
    return k;
}

void ledge__snap_contacts_put(const ledge_world *w, const ledge__contact *list, int count,
                              ledge__writer *o) {
    ledge__put_var(o, (uint64_t)count);
    unsigned last_kind = 0;
    int last_a = 0;
    for (int k = 0; k < count; ++k) {
        const ledge__contact *c = &list[k];
        guess g;
        unsigned kind = kind_of(w, c, &g);
        bool changed = kind != last_kind;
        ledge__put_var(o, ledge__zigzag((int64_t)c->a - last_a) << 1 | (changed ? 1u : 0u));
        if (changed) ledge__put_var(o, kind);
        last_kind = kind;
        last_a = c->a;
        if (c->b >= 0) {
            ledge__put_svar(o, (int64_t)c->b - c->a);
        } else {
            ledge__put_svar(o, c->cell_x);
            ledge__put_svar(o, c->cell_y);
        }
        if (kind & K_NORMAL) {
            put_normal(o, c->normal);
            ledge__put_f32(o, c->depth);
        }
        if (kind & K_POINT) ledge__put_vec(o, c->point);
        if (kind & K_FRICTION) ledge__put_f32(o, c->friction);
        if (kind & K_BOUNCE) ledge__put_f32(o, c->bounce);
        if (kind & K_CAP) ledge__put_f32(o, c->cap);
        if ((kind & K_STAMP) && c->b >= 0) {
            ledge__put_svar(o, c->cell_x);
            ledge__put_svar(o, c->cell_y);
        }
        if (kind & K_STAMP) ledge__put_svar(o, c->stamp);
    }
}

static int get_int(ledge__reader *r, const char *what) {
    int64_t v = ledge__get_svar(r);
    if (v < INT32_MIN || v > INT32_MAX) {
        ledge__read_fail(r, "%s is %lld (an int)", what, (long long)v);
        return 0;
    }
    return (int)v;
}

// One contact: checked (ids against the first reading's marks), and with
// `apply` completed from the guesses into *c.
static bool get_contact(ledge__reader *r, ledge_world *w, int slots, unsigned *kind, int *last_a,
                        ledge__contact *c, bool apply) {
    uint64_t head = ledge__get_var(r);
    if (head & 1u) *kind = (unsigned)ledge__get_count(r, K_LIMIT - 1u, "a contact's kind");
    uint64_t z = head >> 1;
    int64_t a = (int64_t)*last_a + ((z & 1u) ? -(int64_t)(z >> 1) - 1 : (int64_t)(z >> 1));
    if (r->failed) return false;
    if (a < 0 || a >= slots || !ledge__snap_alive(w, (int)a))
        return ledge__read_fail(r, "a contact's body slot %lld is not a living body", (long long)a);
    *last_a = (int)a;
    unsigned k = *kind;
    if ((k >> K_POLICY & 3u) > LEDGE_RESPONSE_CROSS)
        return ledge__read_fail(r, "a contact's response is %u", k >> K_POLICY & 3u);
    int b = -1, cx = 0, cy = 0;
    if (k & K_TILE) {
        cx = get_int(r, "a tile contact's cell");
        cy = get_int(r, "a tile contact's cell");
    } else {
        int64_t bb = a + ledge__get_svar(r);
        if (bb < 0 || bb >= slots || bb == a || !ledge__snap_alive(w, (int)bb))
            return ledge__read_fail(r, "a contact's other slot %lld is not a living body",
                                    (long long)bb);
        b = (int)bb;
    }
    guess g = {{{0.0f, 0.0f}}, {{0.0f, 0.0f}}, 0.0f, 0.0f, 0.0f, 0};
    const float far = 4.0f * LEDGE_MAX_COORDINATE;
    vec2s normal = (k & K_NORMAL) ? get_normal(r) : g.normal;
    float depth = (k & K_NORMAL) ? ledge__get_within(r, far, "a contact depth") : 0.0f;
    vec2s point = (k & K_POINT) ? ledge__get_vec_within(r, far, "a contact point") : g.point;
    float friction = (k & K_FRICTION) ? ledge__get_f32(r) : 0.0f;
    float bounce = (k & K_BOUNCE) ? ledge__get_f32(r) : 0.0f;
    float cap = (k & K_CAP) ? ledge__get_within(r, far, "a contact's cap") : 0.0f;
    if (!(friction >= 0.0f && friction <= 1.0f && bounce >= 0.0f && bounce <= 1.0f && cap >= 0.0f))
        return ledge__read_fail(r, "a contact's friction %g, bounce %g or cap %g is out of range",
                                (double)friction, (double)bounce, (double)cap);
    if ((k & K_STAMP) && b >= 0) {
        cx = get_int(r, "a contact's cell");
        cy = get_int(r, "a contact's cell");
    }
    int stamp = (k & K_STAMP) ? get_int(r, "a contact's stamp") : 0;
    if (r->failed || !apply) return !r->failed;
    // The guesses, from the bodies and tiles just put back.
    guess_materials(w, (int)a, b, &g);
    if (b < 0) {
        if (!(k & K_NORMAL) || !(k & K_POINT)) guess_tile(w, (int)a, cx, cy, &g);
        if (!(k & K_STAMP)) stamp = ledge__cell_stamp(w->map, cx, cy);
    } else if (!(k & K_NORMAL) || (!(k & K_POINT) && !(w->circle[a] && w->circle[b]))) {
        guess_pair(w, (int)a, b, &g);
    }
    c->a = (int)a;
    c->b = b;
    c->normal = (k & K_NORMAL) ? normal : g.normal;
    c->depth = (k & K_NORMAL) ? depth : g.depth;
    if (!(k & K_POINT) && b >= 0 && w->circle[a] && w->circle[b]) {
        point = circle_point(w, (int)a, b, c->normal);
    } else if (!(k & K_POINT)) {
        point = g.point;
    }
    c->point = point;
    c->friction = (k & K_FRICTION) ? friction : g.friction;
    c->bounce = (k & K_BOUNCE) ? bounce : g.bounce;
    c->cap = cap;
    c->cell_x = cx;
    c->cell_y = cy;
    c->policy = (uint8_t)(k >> K_POLICY & 3u);
    c->pile = (k & K_PILE) ? 1 : 0;
    c->target = 0.0f;
    c->stamp = stamp;
    return true;
}

bool ledge__snap_contacts_get(ledge__reader *r, ledge_world *w, int slots, ledge__contact *list,
                              int *count, bool apply) {
    int n = (int)ledge__get_count(r, (uint64_t)(r->end - r->at) / 2u, "the contacts");
    if (r->failed) return false;
    unsigned kind = 0;
    int last_a = 0;
    for (int k = 0; k < n; ++k) {
        if (!get_contact(r, w, slots, &kind, &last_a, apply ? &list[k] : NULL, apply)) return false;
    }
    *count = n;
    return true;
}
