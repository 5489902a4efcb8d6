// Snapshots: the body store (body_store.h), slot by slot in slot order, so
// that a restored world keeps the slots' order by space and every id.
// Fixed-width columns over every slot (handle, generation, a flags byte,
// position, velocity, rest timer; a dead slot's values 0), the free
// handles, the few values that differ from what most bodies have (a
// kinematic body's velocity of the last substep, where a body the step
// does not move rests) as lists of slots and values, then over the living
// bodies their settings as runs of equal values (a level's bodies share
// most of them). What a body's settings derive (its box, whether it is a
// circle) is found again; what the step rewrites before it reads it is not
// kept.
#include "body_store.h"
#include "shape.h"
#include "sleep.h"
#include "snapshot_bodies.h"

#include <limits.h>

// The flags byte of a slot.
enum {
    F_ALIVE = 1,
    F_ASLEEP = 2,
    F_FROZEN = 4,
    F_MOVED = 8,
    F_IN_ONE_WAY = 16,
    F_DROPPING = 32,
    F_DEAD_KEEPS = F_MOVED | F_IN_ONE_WAY, // what a dead slot may have
    F_ALL = 63,
};

// What the first reading keeps per slot in step.restore_mark (snapshot.h's
// bits, then these), for the checks that need a body's type.
enum { M_DYNAMIC = 4, M_ASLEEP = 8, M_STATIC = 64, M_FROZEN = 128 };

static unsigned kind_of(const ledge_world *w, int i) {
    return (unsigned)w->type[i] | (unsigned)(w->bullet[i] != 0) << 2 |
           (unsigned)(w->sensor[i] != 0) << 3 | (unsigned)(w->touch_events[i] != 0) << 4 |
           (unsigned)w->one_way[i] << 5 | (unsigned)w->policy[i] << 8 |
           (unsigned)w->friction_mix[i] << 10;
}

static inline float mass_of(const ledge_world *w, int i) {
    return w->asleep[i] ? w->sleep_inv_mass[i] : w->inv_mass[i];
}

// --- settings in runs ----------------------------------------------------------

static bool same_material(const ledge_world *w, int i, int j) {
    return ledge__f32_bits(w->friction[i]) == ledge__f32_bits(w->friction[j]) &&
           ledge__f32_bits(w->bounce[i]) == ledge__f32_bits(w->bounce[j]) &&
           ledge__f32_bits(w->surface_speed[i]) == ledge__f32_bits(w->surface_speed[j]) &&
           ledge__f32_bits(w->gravity_scale[i]) == ledge__f32_bits(w->gravity_scale[j]) &&
           ledge__f32_bits(w->drag[i]) == ledge__f32_bits(w->drag[j]) &&
           ledge__f32_bits(w->floor_cos[i]) == ledge__f32_bits(w->floor_cos[j]);
}

// A shape's defining data (ledge__shape_remake reads nothing else).
static bool same_shape(const ledge_shape *a, const ledge_shape *b) {
    if (a->type != b->type || a->count != b->count) return false;
    if (a->type == LEDGE_SHAPE_CIRCLE) {
        return ledge__f32_bits(a->radius) == ledge__f32_bits(b->radius) &&
               ledge__same_vec(a->center, b->center);
    }
    if (a->type == LEDGE_SHAPE_BOX) {
        return ledge__same_vec(a->center, b->center) &&
               ledge__same_vec(a->bounds.lower, b->bounds.lower) &&
               ledge__same_vec(a->bounds.upper, b->bounds.upper);
    }
    return memcmp(a->vertices, b->vertices, sizeof a->vertices[0] * (size_t)a->count) == 0;
}

static bool same_filter(const ledge_world *w, int i, int j) {
    const ledge_filter *a = &w->filter[i], *b = &w->filter[j];
    return a->category == b->category && a->mask == b->mask && a->group == b->group;
}

static void put_shape(ledge__writer *o, const ledge_shape *s) {
    ledge__put_u8(o, (unsigned)s->type);
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        ledge__put_vec(o, s->center);
        ledge__put_f32(o, s->radius);
    } else if (s->type == LEDGE_SHAPE_BOX) {
        ledge__put_vec(o, s->center);
        ledge__put_vec(o, s->bounds.lower);
        ledge__put_vec(o, s->bounds.upper);
    } else {
        ledge__put_u8(o, (unsigned)s->count);
        for (int k = 0; k < s->count; ++k) ledge__put_vec(o, s->vertices[k]);
    }
}

// How far from slot `from` on (below `n`) the values equal slot first's,
// bit for bit: in blocks of 16 with no early exit (which vectorise), then one
// by one. Where every slot lives, a run skips that far at once (equal bits
// are the same setting; where they differ SAME decides).
static int u8_same_until(const uint8_t *a, int first, int from, int n) {
    uint8_t v = a[first];
    int i = from;
    for (; i + 16 <= n; i += 16) {
        unsigned d = 0;
        for (int k = 0; k < 16; ++k) d |= (unsigned)(a[i + k] ^ v);
        if (d) break;
    }
    while (i < n && a[i] == v) ++i;
    return i;
}

static int f32_same_until(const float *a, int first, int from, int n) {
    uint32_t v = ledge__f32_bits(a[first]);
    int i = from;
    for (; i + 16 <= n; i += 16) {
        uint32_t d = 0;
        for (int k = 0; k < 16; ++k) d |= ledge__f32_bits(a[i + k]) ^ v;
        if (d) break;
    }
    while (i < n && ledge__f32_bits(a[i]) == v) ++i;
    return i;
}

static int filter_same_until(const ledge_filter *a, int first, int from, int n) {
    ledge_filter v = a[first];
    int i = from;
    while (i < n && a[i].category == v.category && a[i].mask == v.mask && a[i].group == v.group)
        ++i;
    return i;
}

static int user_same_until(void *const *a, int first, int from, int n) {
    int i = from;
    while (i < n && a[i] == a[first]) ++i;
    return i;
}

// (Equal entries of the shape table are equal shapes.)
static int entry_same_until(const int32_t *a, int first, int from, int n) {
    int32_t v = a[first];
    int i = from;
    for (; i + 16 <= n; i += 16) {
        uint32_t d = 0;
        for (int k = 0; k < 16; ++k) d |= (uint32_t)(a[i + k] ^ v);
        if (d) break;
    }
    while (i < n && a[i] == v) ++i;
    return i;
}

static int kind_same_until(const ledge_world *w, int first, int from, int n) {
    n = u8_same_until(w->type, first, from, n);
    n = u8_same_until(w->bullet, first, from, n);
    n = u8_same_until(w->sensor, first, from, n);
    n = u8_same_until(w->touch_events, first, from, n);
    n = u8_same_until(w->one_way, first, from, n);
    n = u8_same_until(w->friction_mix, first, from, n);
    return u8_same_until(w->policy, first, from, n);
}

static int material_same_until(const ledge_world *w, int first, int from, int n) {
    n = f32_same_until(w->friction, first, from, n);
    n = f32_same_until(w->bounce, first, from, n);
    n = f32_same_until(w->surface_speed, first, from, n);
    n = f32_same_until(w->gravity_scale, first, from, n);
    n = f32_same_until(w->drag, first, from, n);
    return f32_same_until(w->floor_cos, first, from, n);
}

static int mass_same_until(const ledge_world *w, int first, int from, int n) {
    n = u8_same_until(w->asleep, first, from, n);
    n = f32_same_until(w->sleep_inv_mass, first, from, n);
    return f32_same_until(w->inv_mass, first, from, n);
}

// PUT_RUNS, with FIRST(i) called where a run starts (to keep its value).
#define PUT_RUNS_AT(w, o, SAME, PUT, FIRST, UNTIL)                                                 \
    do {                                                                                           \
        int first_ = -1, run_ = 0, n_ = (w)->slot_count;                                           \
        bool dense_ = (w)->live_count == n_;                                                       \
        for (int i = 0; i < n_; ++i) {                                                             \
            if (dense_ && first_ >= 0) {                                                           \
                int until_ = UNTIL(w, first_, i, n_);                                              \
                run_ += until_ - i;                                                                \
                if ((i = until_) >= n_) break;                                                     \
            }                                                                                      \
            if (!(w)->alive[i]) continue;                                                          \
            if (first_ >= 0 && SAME(i, first_)) {                                                  \
                run_++;                                                                            \
                continue;                                                                          \
            }                                                                                      \
            if (first_ >= 0) {                                                                     \
                ledge__put_var(o, (uint64_t)run_);                                                 \
                PUT(first_);                                                                       \
            }                                                                                      \
            first_ = i;                                                                            \
            FIRST(i);                                                                              \
            run_ = 1;                                                                              \
        }                                                                                          \
        if (first_ >= 0) {                                                                         \
            ledge__put_var(o, (uint64_t)run_);                                                     \
            PUT(first_);                                                                           \
        }                                                                                          \
    } while (0)

// One column of runs over the living slots: (run length, value) pairs,
// a run ending where SAME(i, first) fails; UNTIL(w, first, from, n) is how
// far from `from` the slots' bits equal first's (where every slot lives).
#define NO_FIRST(i)                      ((void)0)
#define PUT_RUNS(w, o, SAME, PUT, UNTIL) PUT_RUNS_AT(w, o, SAME, PUT, NO_FIRST, UNTIL)

static void put_settings(const ledge_world *w, ledge__writer *o) {
    unsigned kind_first = 0;
#define SAME_KIND(i, j) (kind_of(w, i) == kind_first)
#define PUT_KIND(i)     ledge__put_var(o, kind_first)
#define KIND_FIRST(i)   (kind_first = kind_of(w, i))
    PUT_RUNS_AT(w, o, SAME_KIND, PUT_KIND, KIND_FIRST, kind_same_until);
#define SAME_MATERIAL(i, j) same_material(w, i, j)
#define PUT_MATERIAL(i)                                                                            \
    (ledge__put_f32(o, w->friction[i]), ledge__put_f32(o, w->bounce[i]),                           \
     ledge__put_f32(o, w->surface_speed[i]), ledge__put_f32(o, w->gravity_scale[i]),               \
     ledge__put_f32(o, w->drag[i]), ledge__put_f32(o, w->floor_cos[i]))
    PUT_RUNS(w, o, SAME_MATERIAL, PUT_MATERIAL, material_same_until);
#define SAME_MASS(i, j) (ledge__f32_bits(mass_of(w, i)) == ledge__f32_bits(mass_of(w, j)))
#define PUT_MASS(i)     ledge__put_f32(o, mass_of(w, i))
    PUT_RUNS(w, o, SAME_MASS, PUT_MASS, mass_same_until);
#define SAME_SHAPE(i, j)                                                                           \
    (w->shape_id[i] == w->shape_id[j] || same_shape(ledge__shape_of(w, i), ledge__shape_of(w, j)))
#define PUT_SHAPE(i)                   put_shape(o, ledge__shape_of(w, i))
#define SHAPE_UNTIL(w, first, from, n) entry_same_until((w)->shape_id, first, from, n)
    PUT_RUNS(w, o, SAME_SHAPE, PUT_SHAPE, SHAPE_UNTIL);
#define SAME_FILTER(i, j) same_filter(w, i, j)
#define PUT_FILTER(i)                                                                              \
    (ledge__put_u64(o, w->filter[i].category), ledge__put_u64(o, w->filter[i].mask),               \
     ledge__put_svar(o, w->filter[i].group))
#define FILTER_UNTIL(w, first, from, n) filter_same_until((w)->filter, first, from, n)
    PUT_RUNS(w, o, SAME_FILTER, PUT_FILTER, FILTER_UNTIL);
#define SAME_USER(i, j)               (w->user_data[i] == w->user_data[j])
#define PUT_USER(i)                   ledge__put_u64(o, (uint64_t)(uintptr_t)w->user_data[i])
#define USER_UNTIL(w, first, from, n) user_same_until((w)->user_data, first, from, n)
    PUT_RUNS(w, o, SAME_USER, PUT_USER, USER_UNTIL);
}

// --- writing ----------------------------------------------------------------------

// (The arrays apart, so that the loop vectorises.)
static void put_flags_of(int n, const uint8_t *restrict alive, const uint8_t *restrict asleep,
                         const uint8_t *restrict frozen, const uint8_t *restrict dropping,
                         const uint8_t *restrict moved, const uint8_t *restrict in_one_way,
                         uint8_t *restrict out) {
    for (int i = 0; i < n; ++i) {
        unsigned kept = (moved[i] ? F_MOVED : 0u) | (in_one_way[i] ? F_IN_ONE_WAY : 0u);
        unsigned live = F_ALIVE | (asleep[i] ? F_ASLEEP : 0u) | (frozen[i] ? F_FROZEN : 0u) |
                        (dropping[i] ? F_DROPPING : 0u);
        out[i] = (uint8_t)(kept | (alive[i] ? live : 0u));
    }
}

static void put_flags(const ledge_world *w, uint8_t *out) {
    put_flags_of(w->slot_count, w->alive, w->asleep, w->frozen, w->dropping, w->moved,
                 w->in_one_way, out);
}

// A column of a vector per slot; a dead slot's is no state: 0.
static void put_vectors(const ledge_world *w, const vec2s *v, uint8_t *out) {
    ledge__column_put(out, v, 2 * (size_t)w->slot_count);
    for (int i = 0; i < w->slot_count; ++i) {
        if (!w->alive[i]) memset(out + 8 * (size_t)i, 0, 8);
    }
}

// The rest timers: 0 where the body sleeps or the slot is dead (no state).
static void put_timers(const ledge_world *w, uint8_t *out) {
    ledge__column_put(out, w->sleep_timer, (size_t)w->slot_count);
    for (int i = 0; i < w->slot_count; ++i) {
        if (!w->alive[i] || w->asleep[i]) memset(out + 4 * (size_t)i, 0, 4);
    }
}

// A list of the slots where `value` differs from `plain` and WHEN holds:
// their count, the slots, the values.
#define PUT_LIST(w, o, WHEN, value, plain)                                                         \
    do {                                                                                           \
        int count_ = 0, n_ = (w)->slot_count;                                                      \
        for (int i = 0; i < n_; ++i)                                                               \
            count_ += (int)(WHEN) & (int)!ledge__same_bits((value)[i], (plain)[i]);                \
        ledge__put_var(o, (uint64_t)count_);                                                       \
        uint8_t *slot_ = ledge__put_span(o, 4 * (size_t)count_);                                   \
        uint8_t *val_ = ledge__put_span(o, 8 * (size_t)count_);                                    \
        for (int i = 0, k = 0; val_ != NULL && k < count_; ++i) {                                  \
            if (!(WHEN) || ledge__same_vec((value)[i], (plain)[i])) continue;                      \
            ledge__store_u32(slot_ + 4 * (size_t)k, (uint32_t)i);                                  \
            ledge__column_put(val_ + 8 * (size_t)k++, &(value)[i], 2);                             \
        }                                                                                          \
    } while (0)

void ledge__snap_bodies_put(const ledge_world *w, ledge__writer *o) {
    size_t n = (size_t)w->slot_count;
    ledge__put_var(o, n);
    uint8_t *p;
    if ((p = ledge__put_span(o, 4 * n)) != NULL) ledge__column_put(p, w->handle, n);
    if ((p = ledge__put_span(o, 4 * n)) != NULL) ledge__column_put(p, w->generation, n);
    if ((p = ledge__put_span(o, n)) != NULL) put_flags(w, p);
    ledge__put_var(o, (uint64_t)w->free_count);
    if ((p = ledge__put_span(o, 4 * (size_t)w->free_count)) != NULL)
        ledge__column_put(p, w->free_handles, (size_t)w->free_count);
    if ((p = ledge__put_span(o, 8 * n)) != NULL) put_vectors(w, w->position, p);
    if ((p = ledge__put_span(o, 8 * n)) != NULL) put_vectors(w, w->velocity, p);
    if ((p = ledge__put_span(o, 4 * n)) != NULL) put_timers(w, p);
    // A kinematic body's velocity of the last substep (its carry), where
    // not its velocity; where a body the step does not move rests, where
    // not its position. (Elsewhere the step rewrites them before reading.)
    const uint8_t *alive = w->alive, *type = w->type, *asleep = w->asleep, *frozen = w->frozen;
    PUT_LIST(w, o, (alive[i] != 0) & (type[i] == LEDGE_BODY_KINEMATIC), w->prev_velocity,
             w->velocity);
    PUT_LIST(w, o,
             (alive[i] != 0) & (((frozen[i] | asleep[i]) != 0) | (type[i] == LEDGE_BODY_STATIC)),
             w->last_position, w->position);
    put_settings(w, o);
}

// --- the settings' runs, read ------------------------------------------------------

// Reads one column of runs covering the `alive` living slots (listed in
// step.restore_slot by then): for each run, GET reads its value once (checking
// it, false to stop; `at` is where the run starts in the list), then PUT
// writes it to each slot i of the run (second reading only), or, where
// every slot lives (`dense`: the list is 0 .. alive - 1), FILL writes it
// to the slots lo .. hi - 1 at once.
#define GET_RUNS(r, w, alive, apply, what, GET, PUT, FILL)                                         \
    do {                                                                                           \
        const int *live_ = (w)->step.restore_slot;                                                 \
        for (int at = 0; at < (alive) && !(r)->failed;) {                                          \
            int run_ = (int)ledge__get_count(r, (uint64_t)((alive)-at), what " run");              \
            if (run_ == 0) {                                                                       \
                ledge__read_fail(r, "a " what " run is empty");                                    \
                break;                                                                             \
            }                                                                                      \
            if (!(GET)) break;                                                                     \
            if ((apply) && dense) {                                                                \
                int lo = at, hi = at + run_;                                                       \
                FILL;                                                                              \
            } else if (apply) {                                                                    \
                for (int k_ = at; k_ < at + run_; ++k_) {                                          \
                    int i = live_[k_];                                                             \
                    PUT;                                                                           \
                }                                                                                  \
            }                                                                                      \
            at += run_;                                                                            \
        }                                                                                          \
    } while (0)

static bool get_kind(ledge__reader *r, ledge_world *w, int at, int run, unsigned *kind,
                     bool apply) {
    *kind = (unsigned)ledge__get_count(r, 0xFFFu, "a body's kind");
    unsigned type = *kind & 3u, one_way = *kind >> 5 & 7u, mix = *kind >> 10;
    if (type > LEDGE_BODY_DYNAMIC || one_way > LEDGE_ONE_WAY_RIGHT || mix > LEDGE_FRICTION_MIX_MAX)
        return ledge__read_fail(r, "a body's type %u, one-way setting %u or friction mix %u", type,
                                one_way, mix);
    // The marks of the run's slots: their type, checked against the flags.
    for (int k = at; !apply && k < at + run; ++k) {
        int i = w->step.restore_slot[k];
        uint8_t *m = &w->step.restore_mark[i];
        *m = (uint8_t)(*m & ~(LEDGE__SNAP_KINEMATIC | M_DYNAMIC | M_STATIC));
        *m |= type == LEDGE_BODY_KINEMATIC ? LEDGE__SNAP_KINEMATIC
              : type == LEDGE_BODY_DYNAMIC ? M_DYNAMIC
                                           : M_STATIC;
        if ((*m & M_ASLEEP) && type != LEDGE_BODY_DYNAMIC)
            return ledge__read_fail(r, "body slot %d sleeps and is not dynamic", i);
    }
    return !r->failed;
}

static void put_kind(ledge_world *w, int i, unsigned kind) {
    w->type[i] = (uint8_t)(kind & 3u);
    w->bullet[i] = (uint8_t)(kind >> 2 & 1u);
    w->sensor[i] = (uint8_t)(kind >> 3 & 1u);
    w->touch_events[i] = (uint8_t)(kind >> 4 & 1u);
    w->one_way[i] = (uint8_t)(kind >> 5 & 7u);
    w->policy[i] = (uint8_t)(kind >> 8 & 3u);
    w->friction_mix[i] = (uint8_t)(kind >> 10);
}

typedef struct material {
    float friction, bounce, surface_speed, gravity_scale, drag, floor_cos;
} material;

static bool get_material(ledge__reader *r, material *m) {
    m->friction = ledge__get_f32(r);
    m->bounce = ledge__get_f32(r);
    m->surface_speed = ledge__get_within(r, LEDGE_MAX_COORDINATE, "a surface speed");
    m->gravity_scale = ledge__get_within(r, LEDGE_MAX_COORDINATE, "a gravity scale");
    m->drag = ledge__get_within(r, LEDGE_MAX_COORDINATE, "a drag");
    m->floor_cos = ledge__get_within(r, 1.0f, "a floor cosine");
    if (!(m->friction >= 0.0f && m->friction <= 1.0f && m->bounce >= 0.0f && m->bounce <= 1.0f &&
          m->drag >= 0.0f))
        return ledge__read_fail(r, "a friction %g, bounce %g or drag %g is out of range",
                                (double)m->friction, (double)m->bounce, (double)m->drag);
    return !r->failed;
}

static bool get_mass(ledge__reader *r, ledge_world *w, int at, int run, float *inv, bool apply) {
    *inv = ledge__get_f32(r);
    bool any = *inv >= 1.0f / LEDGE_MAX_MASS && *inv <= 1.0f / LEDGE_MIN_MASS;
    for (int k = at; !apply && k < at + run && !r->failed; ++k) {
        int i = w->step.restore_slot[k];
        bool dynamic = w->step.restore_mark[i] & M_DYNAMIC;
        if (dynamic ? !any : ledge__f32_bits(*inv) != 0u)
            ledge__read_fail(r, "body slot %d's inverse mass is %g", i, (double)*inv);
    }
    return !r->failed;
}

static bool get_shape(ledge__reader *r, ledge_shape *out) {
    ledge_shape s;
    memset(&s, 0, sizeof s);
    s.type = (ledge_shape_type)ledge__get_u8(r);
    if (s.type == LEDGE_SHAPE_CIRCLE) {
        s.center = ledge__get_vec(r);
        s.radius = ledge__get_f32(r);
    } else if (s.type == LEDGE_SHAPE_BOX) {
        s.center = ledge__get_vec(r);
        s.bounds.lower = ledge__get_vec(r);
        s.bounds.upper = ledge__get_vec(r);
    } else if (s.type == LEDGE_SHAPE_POLYGON) {
        s.count = (int)ledge__get_count(r, LEDGE_MAX_POLYGON_VERTICES, "a polygon's vertices");
        for (int k = 0; k < s.count; ++k) s.vertices[k] = ledge__get_vec(r);
    }
    if (r->failed) return false;
    if (!ledge__shape_remake(&s, out))
        return ledge__read_fail(r, "a body's shape (type %d) is no shape ledge_make_* makes",
                                (int)s.type);
    return true;
}

// A run's shape: the first reading interns it in shapes_next, counting the
// run's bodies (the room it needs is found there, before the world
// changes); the second, with shapes_next become the world's table, finds
// its entry there.
static bool get_shape_entry(ledge__reader *r, ledge_world *w, int run, bool apply, int *entry) {
    ledge_shape s;
    if (!get_shape(r, &s)) return false;
    if (apply) {
        *entry = ledge__shapes_find(&w->shapes, &s);
        LEDGE_ASSERT(*entry >= 0); // interned by the first reading
        return true;
    }
    if (!ledge__shapes_reserve(&w->shapes_next, 1)) {
        r->no_room = true;
        return ledge__read_fail(r, "allocation of the shape table failed");
    }
    *entry = ledge__shapes_add(&w->shapes_next, &s, (uint32_t)run);
    return true;
}

static void put_shape_at(ledge_world *w, int i, int entry) {
    w->shape_id[i] = entry;
    const ledge_shape *s = ledge__shape_of(w, i);
    ledge_aabb b = s->bounds;
    w->box_offset[i] = v2_scale(v2_add(b.lower, b.upper), 0.5f);
    w->box_half[i] = v2_scale(v2_sub(b.upper, b.lower), 0.5f);
    w->circle[i] = s->type == LEDGE_SHAPE_CIRCLE;
}

// --- the settings' runs, filled where every slot lives ----------------------------------

static void fill_f32(float *restrict to, int lo, int hi, float v) {
    for (int i = lo; i < hi; ++i) to[i] = v;
}

static void fill_vec(vec2s *restrict to, int lo, int hi, vec2s v) {
    for (int i = lo; i < hi; ++i) to[i] = v;
}

static void fill_kind(ledge_world *w, int lo, int hi, unsigned kind) {
    size_t n = (size_t)(hi - lo);
    memset(w->type + lo, (int)(kind & 3u), n);
    memset(w->bullet + lo, (int)(kind >> 2 & 1u), n);
    memset(w->sensor + lo, (int)(kind >> 3 & 1u), n);
    memset(w->touch_events + lo, (int)(kind >> 4 & 1u), n);
    memset(w->one_way + lo, (int)(kind >> 5 & 7u), n);
    memset(w->policy + lo, (int)(kind >> 8 & 3u), n);
    memset(w->friction_mix + lo, (int)(kind >> 10), n);
}

static void fill_material(ledge_world *w, int lo, int hi, const material *m) {
    fill_f32(w->friction, lo, hi, m->friction);
    fill_f32(w->bounce, lo, hi, m->bounce);
    fill_f32(w->surface_speed, lo, hi, m->surface_speed);
    fill_f32(w->gravity_scale, lo, hi, m->gravity_scale);
    fill_f32(w->drag, lo, hi, m->drag);
    fill_f32(w->floor_cos, lo, hi, m->floor_cos);
}

static void fill_inv_mass(float *restrict inv_mass, const uint8_t *restrict asleep, int lo, int hi,
                          float inv) {
    for (int i = lo; i < hi; ++i) inv_mass[i] = asleep[i] ? 0.0f : inv;
}

static void fill_shape(ledge_world *w, int lo, int hi, int entry) {
    int32_t *restrict shape_id = w->shape_id;
    for (int i = lo; i < hi; ++i) shape_id[i] = entry;
    const ledge_shape *s = &w->shapes.shapes[entry];
    ledge_aabb b = s->bounds;
    fill_vec(w->box_offset, lo, hi, v2_scale(v2_add(b.lower, b.upper), 0.5f));
    fill_vec(w->box_half, lo, hi, v2_scale(v2_sub(b.upper, b.lower), 0.5f));
    memset(w->circle + lo, s->type == LEDGE_SHAPE_CIRCLE, (size_t)(hi - lo));
}

static void fill_filter(ledge_filter *restrict to, int lo, int hi, ledge_filter f) {
    for (int i = lo; i < hi; ++i) to[i] = f;
}

static void fill_user(void **restrict to, int lo, int hi, void *v) {
    for (int i = lo; i < hi; ++i) to[i] = v;
}

static bool get_settings(ledge__reader *r, ledge_world *w, int alive, int slots, bool apply) {
    bool dense = alive == slots;
    unsigned kind = 0;
    GET_RUNS(r, w, alive, apply, "kind", get_kind(r, w, at, run_, &kind, apply),
             put_kind(w, i, kind), fill_kind(w, lo, hi, kind));
    material m;
    GET_RUNS(r, w, alive, apply, "material", get_material(r, &m),
             (w->friction[i] = m.friction, w->bounce[i] = m.bounce,
              w->surface_speed[i] = m.surface_speed, w->gravity_scale[i] = m.gravity_scale,
              w->drag[i] = m.drag, w->floor_cos[i] = m.floor_cos),
             fill_material(w, lo, hi, &m));
    float inv = 0.0f;
    GET_RUNS(r, w, alive, apply, "mass", get_mass(r, w, at, run_, &inv, apply),
             (w->sleep_inv_mass[i] = inv, w->inv_mass[i] = w->asleep[i] ? 0.0f : inv),
             (fill_f32(w->sleep_inv_mass, lo, hi, inv),
              fill_inv_mass(w->inv_mass, w->asleep, lo, hi, inv)));
    int entry = 0;
    GET_RUNS(r, w, alive, apply, "shape", get_shape_entry(r, w, run_, apply, &entry),
             put_shape_at(w, i, entry), fill_shape(w, lo, hi, entry));
    ledge_filter f;
    GET_RUNS(r, w, alive, apply, "filter",
             (f.category = ledge__get_u64(r), f.mask = ledge__get_u64(r),
              f.group = (int32_t)ledge__get_svar(r), !r->failed),
             w->filter[i] = f, fill_filter(w->filter, lo, hi, f));
    uint64_t user = 0;
    GET_RUNS(r, w, alive, apply, "user data", (user = ledge__get_u64(r), !r->failed),
             w->user_data[i] = (void *)(uintptr_t)user,
             fill_user(w->user_data, lo, hi, (void *)(uintptr_t)user));
    return !r->failed;
}

// --- the first reading: checks -----------------------------------------------------

// Each slot's handle: a permutation of 0..n-1, checked through step.restore_slot
// (by handle: its slot).
static bool check_handles(ledge__reader *r, ledge_world *w, const ledge__snap_body_cols *c) {
    int n = c->slots, *slot_of = w->step.restore_slot;
    for (int h = 0; h < n; ++h) slot_of[h] = -1;
    for (int i = 0; i < n; ++i) {
        uint32_t h = ledge__load_u32(c->handle + 4 * (size_t)i);
        if (h >= (uint32_t)n || slot_of[h] >= 0)
            return ledge__read_fail(r, "slot %d's handle %u is out of range or taken twice", i, h);
        slot_of[h] = i;
    }
    return true;
}

// The flags: a dead slot keeps only F_DEAD_KEEPS, a body sleeps only in a
// world that lets it. Leaves each slot's marks in step.restore_mark.
static bool check_flags(ledge__reader *r, ledge_world *w, ledge__snap_body_cols *c) {
    const uint8_t *flags = c->flags;
    uint8_t *mark = w->step.restore_mark;
    unsigned sleep_ok = w->sleep->on ? F_ASLEEP : 0u;
    int n = c->slots, alive = 0;
    bool ok = true;
    for (int i = 0; i < n; ++i) {
        unsigned f = flags[i], live = f & F_ALIVE;
        ok &= (f & ~(live ? F_ALL & ~(F_ASLEEP & ~sleep_ok) : F_DEAD_KEEPS)) == 0;
        alive += (int)live;
        mark[i] =
            (uint8_t)(live | ((f & F_ASLEEP) ? M_ASLEEP : 0u) | ((f & F_FROZEN) ? M_FROZEN : 0u));
    }
    for (int i = 0; !ok && i < n; ++i) {
        unsigned f = flags[i], live = f & F_ALIVE;
        if (f & ~(live ? F_ALL & ~(F_ASLEEP & ~sleep_ok) : F_DEAD_KEEPS))
            return ledge__read_fail(r, "slot %d's flags %u do not go together", i, f);
    }
    c->alive = alive;
    return true;
}

// The free handles: exactly those of the dead slots, in the order they will
// be taken again (LIFO), each once.
static bool check_free(ledge__reader *r, ledge_world *w, const ledge__snap_body_cols *c) {
    int n = c->slots;
    if (c->free_count != n - c->alive)
        return ledge__read_fail(r, "%d handles are free for %d dead slots", c->free_count,
                                n - c->alive);
    uint8_t *mark = w->step.restore_mark;
    bool ok = true;
    for (int k = 0; k < c->free_count && ok; ++k) {
        uint32_t h = ledge__load_u32(c->free + 4 * (size_t)k);
        // (A dead slot's mark becomes 2 once its handle is listed.)
        ok = h < (uint32_t)n && mark[w->step.restore_slot[h]] == 0;
        if (!ok)
            return ledge__read_fail(r, "free handle %u is alive, listed twice or past the slots",
                                    h);
        mark[w->step.restore_slot[h]] = 2u;
    }
    for (int i = 0; i < n; ++i) {
        if (mark[i] == 2u) mark[i] = 0;
    }
    return true;
}

// The living slots in step.restore_slot (free once the handles are checked).
static void list_alive(ledge_world *w, const uint8_t *flags, int n) {
    int k = 0;
    for (int i = 0; i < n; ++i) {
        w->step.restore_slot[k] = i;
        k += flags[i] & F_ALIVE;
    }
}

// Positions and velocities finite and within range, a dead slot's 0, a
// sleeping or static body's velocity 0; rest timers finite and not
// negative, 0 where the body sleeps or the slot is dead.
static bool check_motion(ledge__reader *r, const ledge_world *w, const ledge__snap_body_cols *c) {
    size_t n = (size_t)c->slots;
    const float far = LEDGE_MAX_COORDINATE;
    const uint8_t *column[2] = {c->position, c->velocity};
    const char *what[2] = {"a position", "a velocity"};
    for (int k = 0; k < 2; ++k) {
        if (ledge__column_within(column[k], 2 * n, far)) continue;
        size_t at = ledge__column_first_out(column[k], 2 * n, far);
        return ledge__read_fail(r, "%s of body slot %zu is %g (finite, at most %g)", what[k],
                                at / 2, (double)ledge__load_f32(column[k] + 4 * at), (double)far);
    }
    const uint8_t *mark = w->step.restore_mark;
    bool ok = true;
    for (size_t i = 0; i < n; ++i) {
        uint32_t p =
            ledge__load_u32(c->position + 8 * i) | ledge__load_u32(c->position + 8 * i + 4);
        uint32_t v =
            ledge__load_u32(c->velocity + 8 * i) | ledge__load_u32(c->velocity + 8 * i + 4);
        uint32_t t = ledge__load_u32(c->timer + 4 * i);
        unsigned m = mark[i];
        bool live = m & LEDGE__SNAP_ALIVE, timed = live && !(m & M_ASLEEP);
        bool still = !live || (m & (M_ASLEEP | M_STATIC));
        ok &= (live || p == 0) & (!still || v == 0) &
              (timed ? t < 0x7F800000u || t == 0x80000000u : t == 0);
    }
    for (size_t i = 0; !ok && i < n; ++i) {
        uint32_t p =
            ledge__load_u32(c->position + 8 * i) | ledge__load_u32(c->position + 8 * i + 4);
        uint32_t v =
            ledge__load_u32(c->velocity + 8 * i) | ledge__load_u32(c->velocity + 8 * i + 4);
        uint32_t t = ledge__load_u32(c->timer + 4 * i);
        unsigned m = mark[i];
        bool live = m & LEDGE__SNAP_ALIVE, timed = live && !(m & M_ASLEEP);
        bool still = !live || (m & (M_ASLEEP | M_STATIC));
        if (!live && p != 0) return ledge__read_fail(r, "dead slot %zu has a position", i);
        if (still && v != 0)
            return ledge__read_fail(r, "body slot %zu has a velocity (it is %s)", i,
                                    !live            ? "dead"
                                    : (m & M_ASLEEP) ? "asleep"
                                                     : "static");
        if (timed ? !(t < 0x7F800000u || t == 0x80000000u) : t != 0)
            return ledge__read_fail(r, "slot %zu's rest timer is %g", i,
                                    (double)ledge__load_f32(c->timer + 4 * i));
    }
    return true;
}

// A list of slots and values: slots ascending, each a living body `allowed`
// by its marks, values within range.
static bool check_list(ledge__reader *r, const ledge_world *w, int slots, int count,
                       const uint8_t *slot, const uint8_t *value, unsigned allowed,
                       const char *what) {
    const uint8_t *mark = w->step.restore_mark;
    for (int k = 0; k < count; ++k) {
        uint32_t i = ledge__load_u32(slot + 4 * (size_t)k);
        if (i >= (uint32_t)slots || (k > 0 && i <= ledge__load_u32(slot + 4 * (size_t)k - 4)) ||
            !(mark[i] & LEDGE__SNAP_ALIVE) || !(mark[i] & allowed))
            return ledge__read_fail(r, "%s of slot %u: out of order or not of such a body", what,
                                    i);
    }
    if (!ledge__column_within(value, 2 * (size_t)count, LEDGE_MAX_COORDINATE))
        return ledge__read_fail(r, "%s is not finite or out of range", what);
    return true;
}

bool ledge__snap_bodies_check(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan) {
    ledge__snap_body_cols *c = &plan->bodies;
    int n = (int)ledge__get_count(r, 1u << 26, "the body slots");
    if (r->failed) return false;
    if (n > w->capacity && !ledge__store_grow(w, n, "ledge_world_restore")) {
        r->no_room = true;
        return ledge__read_fail(r, "allocation of %d body slots failed", n);
    }
    size_t un = (size_t)n;
    c->slots = n;
    c->handle = ledge__get_span(r, 4 * un);
    c->generation = ledge__get_span(r, 4 * un);
    c->flags = ledge__get_span(r, un);
    if (r->failed || !check_handles(r, w, c) || !check_flags(r, w, c)) return false;
    c->free_count = (int)ledge__get_count(r, un, "the free handles");
    c->free = ledge__get_span(r, 4 * (size_t)c->free_count);
    if (r->failed || !check_free(r, w, c)) return false;
    c->position = ledge__get_span(r, 8 * un);
    c->velocity = ledge__get_span(r, 8 * un);
    c->timer = ledge__get_span(r, 4 * un);
    c->carries = (int)ledge__get_count(r, un, "the kinematic carries");
    c->carry_slot = ledge__get_span(r, 4 * (size_t)c->carries);
    c->carry_value = ledge__get_span(r, 8 * (size_t)c->carries);
    c->rests = (int)ledge__get_count(r, un, "the resting positions");
    c->rest_slot = ledge__get_span(r, 4 * (size_t)c->rests);
    c->rest_value = ledge__get_span(r, 8 * (size_t)c->rests);
    if (r->failed) return false;
    list_alive(w, c->flags, n);
    c->settings_at = r->at;
    // (The table of the snapshot's shapes is made apart, the world's kept.)
    ledge__shapes_clear(&w->shapes_next);
    if (!ledge__shapes_reserve(&w->shapes_next, 1)) {
        r->no_room = true;
        return ledge__read_fail(r, "allocation of the shape table failed");
    }
    // (The settings leave each body's type in its marks, for the rest.)
    if (!get_settings(r, w, c->alive, n, false) || !check_motion(r, w, c) ||
        !check_list(r, w, n, c->carries, c->carry_slot, c->carry_value, LEDGE__SNAP_KINEMATIC,
                    "a kinematic carry") ||
        !check_list(r, w, n, c->rests, c->rest_slot, c->rest_value, M_STATIC | M_ASLEEP | M_FROZEN,
                    "a resting position"))
        return false;
    plan->slots = n;
    return true;
}

// Slots [from, to) as a world that never used them has them: zero in every
// array (body_create does not set them all).
static void clear_slots(ledge_world *w, int from, int to) {
    if (from >= to) return;
    size_t k = (size_t)(to - from);
#define CLEAR_STORED(class, T, name) LEDGE__STORED(class)(memset(w->name + from, 0, sizeof(T) * k);)
#define CLEAR_SCRATCH(class, T, name)                                                              \
    LEDGE__SCRATCHED(class)(memset(w->step.name + from, 0, sizeof(T) * k);)
    LEDGE__BODY_FIELDS(CLEAR_STORED)
    LEDGE__BODY_FIELDS(CLEAR_SCRATCH)
}

// --- the second reading: the world put back --------------------------------------------

// (The arrays apart, so that the loop vectorises.)
static void apply_flags_to(int n, const uint8_t *restrict flags, uint8_t *restrict alive,
                           uint8_t *restrict moved, uint8_t *restrict in_one_way,
                           uint8_t *restrict asleep, uint8_t *restrict frozen,
                           uint8_t *restrict dropping) {
    for (int i = 0; i < n; ++i) {
        unsigned f = flags[i];
        alive[i] = (uint8_t)(f & F_ALIVE);
        moved[i] = (uint8_t)((f & F_MOVED) != 0);
        in_one_way[i] = (uint8_t)((f & F_IN_ONE_WAY) != 0);
        asleep[i] = (uint8_t)((f & F_ASLEEP) != 0);
        frozen[i] = (uint8_t)((f & F_FROZEN) != 0);
        dropping[i] = (uint8_t)((f & F_DROPPING) != 0);
    }
}

static void apply_flags(ledge_world *w, const uint8_t *flags, int n) {
    apply_flags_to(n, flags, w->alive, w->moved, w->in_one_way, w->asleep, w->frozen, w->dropping);
}

static void apply_list(vec2s *to, int count, const uint8_t *slot, const uint8_t *value) {
    for (int k = 0; k < count; ++k)
        ledge__column_get(&to[ledge__load_u32(slot + 4 * (size_t)k)], value + 8 * (size_t)k, 2);
}

void ledge__snap_bodies_apply(ledge_world *w, const ledge__snap_plan *plan, const uint8_t *b,
                              size_t size) {
    const ledge__snap_body_cols *c = &plan->bodies;
    int n = c->slots;
    size_t un = (size_t)n;
    ledge__column_get(w->handle, c->handle, un);
    for (int i = 0; i < n; ++i) w->slot_of[w->handle[i]] = i;
    ledge__column_get(w->generation, c->generation, un);
    apply_flags(w, c->flags, n);
    ledge__column_get(w->free_handles, c->free, (size_t)c->free_count);
    w->free_count = c->free_count;
    ledge__column_get(w->position, c->position, 2 * un);
    ledge__column_get(w->velocity, c->velocity, 2 * un);
    ledge__column_get(w->sleep_timer, c->timer, un);
    memcpy(w->last_position, w->position, sizeof *w->position * un);
    memcpy(w->prev_velocity, w->velocity, sizeof *w->velocity * un);
    apply_list(w->prev_velocity, c->carries, c->carry_slot, c->carry_value);
    apply_list(w->last_position, c->rests, c->rest_slot, c->rest_value);
    list_alive(w, c->flags, n);
    // The snapshot's shapes, interned by the first reading, become the table.
    ledge__shape_table was = w->shapes;
    w->shapes = w->shapes_next;
    w->shapes_next = was;
    ledge__shapes_clear(&w->shapes_next);
    memset(w->shape_id, 0, sizeof *w->shape_id * un); // (a dead slot's names no shape)
    ledge__reader r = {b, c->settings_at, size, false, false, {0}};
    bool again = get_settings(&r, w, c->alive, n, true);
    LEDGE_ASSERT(again); // checked by the first reading
    (void)again;
    int old = w->slot_count;
    w->slot_count = n;
    w->live_count = c->alive;
    w->sleepers = 0;
    w->event_bodies = 0;
    for (int i = 0; i < n; ++i) {
        if (!w->alive[i]) {
            w->touch_events[i] = 0;
            continue;
        }
        w->sleepers += w->asleep[i];
        w->event_bodies += w->touch_events[i];
    }
    clear_slots(w, n, old);
}
