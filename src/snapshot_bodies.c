// Snapshots: the body store (body_store.h), slot by slot in slot order, so
// that a restored world keeps the slots' order by space and every id. In
// columns: the free handles, each slot's handle and generation, a flags
// byte, then over the living bodies their settings as runs of equal values
// (a level's bodies share most of them), positions, velocities (when not
// zero) and the few values only some bodies need. What a body's settings
// derive (its box, whether it is a circle) is found again; what the step
// rewrites before it reads it is not kept.
#include "body_store.h"
#include "shape.h"
#include "snapshot.h"

#include <limits.h>

// The flags byte of a slot.
enum {
    F_ALIVE = 1,
    F_ASLEEP = 2,
    F_FROZEN = 4,
    F_MOVED = 8,
    F_IN_ONE_WAY = 16,
    F_DROPPING = 32,
    F_VELOCITY = 64, // its velocity follows (else it is zero)
    F_EXTRA = 128,   // an extras byte follows
};

// The extras byte: values that follow for the few bodies that need them.
enum {
    X_TIMER = 1, // the rest timer (else 0)
    X_PREV = 2,  // a kinematic body's last substep's velocity (else its velocity)
    X_LAST = 4,  // where a body the step does not move rests (else its position)
};

// What the first reading keeps per slot in step.order_mark (snapshot.h's
// bits, then these), so that both readings check the same way.
enum { M_DYNAMIC = 4, M_ASLEEP = 8, M_VELOCITY = 16, M_EXTRA = 32, M_STATIC = 64, M_FROZEN = 128 };

static inline bool moving(const ledge_world *w, int i) {
    return !w->frozen[i] && !w->asleep[i] && w->type[i] != LEDGE_BODY_STATIC;
}

static unsigned flags_of(const ledge_world *w, int i) {
    unsigned f = (w->moved[i] ? F_MOVED : 0u) | (w->in_one_way[i] ? F_IN_ONE_WAY : 0u);
    if (!w->alive[i]) return f;
    vec2s zero = {{0.0f, 0.0f}};
    f |= F_ALIVE | (w->asleep[i] ? F_ASLEEP : 0u) | (w->frozen[i] ? F_FROZEN : 0u) |
         (w->dropping[i] ? F_DROPPING : 0u) |
         (ledge__same_vec(w->velocity[i], zero) ? 0u : F_VELOCITY);
    return f;
}

static unsigned extras_of(const ledge_world *w, int i) {
    if (!w->alive[i]) return 0;
    unsigned x = 0;
    if (!w->asleep[i] && ledge__f32_bits(w->sleep_timer[i]) != 0u) x |= X_TIMER;
    if (w->type[i] == LEDGE_BODY_KINEMATIC && !ledge__same_vec(w->prev_velocity[i], w->velocity[i]))
        x |= X_PREV;
    if (!moving(w, i) && !ledge__same_vec(w->last_position[i], w->position[i])) x |= X_LAST;
    return x;
}

static unsigned kind_of(const ledge_world *w, int i) {
    return (unsigned)w->type[i] | (unsigned)(w->bullet[i] != 0) << 2 |
           (unsigned)(w->sensor[i] != 0) << 3 | (unsigned)(w->events[i] != 0) << 4 |
           (unsigned)w->one_way[i] << 5 | (unsigned)w->response[i] << 8;
}

static inline float mass_of(const ledge_world *w, int i) {
    return w->asleep[i] ? w->sleep_inv_mass[i] : w->inv_mass[i];
}

// --- settings in runs ----------------------------------------------------------

static bool same_material(const ledge_world *w, int i, int j) {
    return ledge__f32_bits(w->friction[i]) == ledge__f32_bits(w->friction[j]) &&
           ledge__f32_bits(w->bounce[i]) == ledge__f32_bits(w->bounce[j]) &&
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

// PUT_RUNS, with FIRST(i) called where a run starts (to keep its value).
#define PUT_RUNS_AT(w, o, SAME, PUT, FIRST)                                                        \
    do {                                                                                           \
        int first_ = -1, run_ = 0;                                                                 \
        for (int i = 0; i < (w)->slot_count; ++i) {                                                \
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
// a run ending where SAME(i, first) fails.
#define PUT_RUNS(w, o, SAME, PUT)                                                                  \
    do {                                                                                           \
        int first_ = -1, run_ = 0;                                                                 \
        for (int i = 0; i < (w)->slot_count; ++i) {                                                \
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
            run_ = 1;                                                                              \
        }                                                                                          \
        if (first_ >= 0) {                                                                         \
            ledge__put_var(o, (uint64_t)run_);                                                     \
            PUT(first_);                                                                           \
        }                                                                                          \
    } while (0)

static void put_settings(const ledge_world *w, ledge__writer *o) {
    unsigned kind_first = 0;
#define SAME_KIND(i, j) (kind_of(w, i) == kind_first)
#define PUT_KIND(i)     ledge__put_var(o, kind_first)
#define KIND_FIRST(i)   (kind_first = kind_of(w, i))
    PUT_RUNS_AT(w, o, SAME_KIND, PUT_KIND, KIND_FIRST);
#define SAME_MATERIAL(i, j) same_material(w, i, j)
#define PUT_MATERIAL(i)                                                                            \
    (ledge__put_f32(o, w->friction[i]), ledge__put_f32(o, w->bounce[i]),                           \
     ledge__put_f32(o, w->gravity_scale[i]), ledge__put_f32(o, w->drag[i]),                        \
     ledge__put_f32(o, w->floor_cos[i]))
    PUT_RUNS(w, o, SAME_MATERIAL, PUT_MATERIAL);
#define SAME_MASS(i, j) (ledge__f32_bits(mass_of(w, i)) == ledge__f32_bits(mass_of(w, j)))
#define PUT_MASS(i)     ledge__put_f32(o, mass_of(w, i))
    PUT_RUNS(w, o, SAME_MASS, PUT_MASS);
#define SAME_SHAPE(i, j) same_shape(&w->shape[i], &w->shape[j])
#define PUT_SHAPE(i)     put_shape(o, &w->shape[i])
    PUT_RUNS(w, o, SAME_SHAPE, PUT_SHAPE);
#define SAME_FILTER(i, j) same_filter(w, i, j)
#define PUT_FILTER(i)                                                                              \
    (ledge__put_u64(o, w->filter[i].category), ledge__put_u64(o, w->filter[i].mask),               \
     ledge__put_svar(o, w->filter[i].group))
    PUT_RUNS(w, o, SAME_FILTER, PUT_FILTER);
#define SAME_USER(i, j) (w->user_data[i] == w->user_data[j])
#define PUT_USER(i)     ledge__put_u64(o, (uint64_t)(uintptr_t)w->user_data[i])
    PUT_RUNS(w, o, SAME_USER, PUT_USER);
}

void ledge__snap_bodies_put(const ledge_world *w, ledge__writer *o) {
    int n = w->slot_count;
    ledge__put_var(o, (uint64_t)n);
    for (int i = 0, last = -1; i < n; last = w->handle[i++])
        ledge__put_svar(o, (int64_t)w->handle[i] - (int64_t)last - 1);
    // Generations in runs (most are 0).
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && w->generation[j] == w->generation[i]) ++j;
        ledge__put_var(o, (uint64_t)(j - i));
        ledge__put_var(o, w->generation[i]);
        i = j;
    }
    for (int i = 0; i < n; ++i) {
        unsigned x = extras_of(w, i);
        ledge__put_u8(o, flags_of(w, i) | (x ? F_EXTRA : 0u));
        if (!x) continue;
        ledge__put_u8(o, x);
        if (x & X_TIMER) ledge__put_f32(o, w->sleep_timer[i]);
        if (x & X_PREV) ledge__put_vec(o, w->prev_velocity[i]);
        if (x & X_LAST) ledge__put_vec(o, w->last_position[i]);
    }
    ledge__put_var(o, (uint64_t)w->free_count);
    for (int k = 0; k < w->free_count; ++k) ledge__put_var(o, (uint64_t)w->free_handles[k]);
    put_settings(w, o);
    for (int i = 0; i < n; ++i) {
        if (w->alive[i]) ledge__put_vec(o, w->position[i]);
    }
    vec2s zero = {{0.0f, 0.0f}};
    for (int i = 0; i < n; ++i) {
        if (w->alive[i] && !ledge__same_vec(w->velocity[i], zero))
            ledge__put_vec(o, w->velocity[i]);
    }
}

// --- reading ----------------------------------------------------------------------

// Reads one column of runs covering the `alive` living slots (listed in
// step.order by then): for each run, GET reads its value once (checking
// it, false to stop; `at` is where the run starts in the list), then PUT
// writes it to each slot i of the run (second reading only).
#define GET_RUNS(r, w, alive, apply, what, GET, PUT)                                               \
    do {                                                                                           \
        const int *live_ = (w)->step.order;                                                        \
        for (int at = 0; at < (alive) && !(r)->failed;) {                                          \
            int run_ = (int)ledge__get_count(r, (uint64_t)((alive)-at), what " run");              \
            if (run_ == 0) {                                                                       \
                ledge__read_fail(r, "a " what " run is empty");                                    \
                break;                                                                             \
            }                                                                                      \
            if (!(GET)) break;                                                                     \
            if (apply) {                                                                           \
                for (int k_ = at; k_ < at + run_; ++k_) {                                          \
                    int i = live_[k_];                                                             \
                    PUT;                                                                           \
                }                                                                                  \
            }                                                                                      \
            at += run_;                                                                            \
        }                                                                                          \
    } while (0)

static bool get_kind(ledge__reader *r, ledge_world *w, int at, int run, unsigned *kind) {
    *kind = (unsigned)ledge__get_count(r, 0x3FFu, "a body's kind");
    unsigned type = *kind & 3u, one_way = *kind >> 5 & 7u;
    if (type > LEDGE_BODY_DYNAMIC || one_way > LEDGE_ONE_WAY_RIGHT)
        return ledge__read_fail(r, "a body's type %u or one-way setting %u", type, one_way);
    // The marks of the run's slots: their type, checked against the flags.
    for (int k = at; k < at + run; ++k) {
        int i = w->step.order[k];
        uint8_t *m = &w->step.order_mark[i];
        *m = (uint8_t)(*m & ~(LEDGE__SNAP_KINEMATIC | M_DYNAMIC | M_STATIC));
        *m |= type == LEDGE_BODY_KINEMATIC ? LEDGE__SNAP_KINEMATIC
              : type == LEDGE_BODY_DYNAMIC ? M_DYNAMIC
                                           : M_STATIC;
        if ((*m & M_ASLEEP) && type != LEDGE_BODY_DYNAMIC)
            return ledge__read_fail(r, "body slot %d sleeps and is not dynamic", i);
        if ((*m & M_VELOCITY) && type == LEDGE_BODY_STATIC)
            return ledge__read_fail(r, "static body slot %d has a velocity", i);
    }
    return !r->failed;
}

static void put_kind(ledge_world *w, int i, unsigned kind) {
    w->type[i] = (uint8_t)(kind & 3u);
    w->bullet[i] = (uint8_t)(kind >> 2 & 1u);
    w->sensor[i] = (uint8_t)(kind >> 3 & 1u);
    w->events[i] = (uint8_t)(kind >> 4 & 1u);
    w->one_way[i] = (uint8_t)(kind >> 5 & 7u);
    w->response[i] = (uint8_t)(kind >> 8 & 3u);
}

typedef struct material {
    float friction, bounce, gravity_scale, drag, floor_cos;
} material;

static bool get_material(ledge__reader *r, material *m) {
    m->friction = ledge__get_f32(r);
    m->bounce = ledge__get_f32(r);
    m->gravity_scale = ledge__get_within(r, LEDGE_MAX_COORDINATE, "a gravity scale");
    m->drag = ledge__get_within(r, LEDGE_MAX_COORDINATE, "a drag");
    m->floor_cos = ledge__get_within(r, 1.0f, "a floor cosine");
    if (!(m->friction >= 0.0f && m->friction <= 1.0f && m->bounce >= 0.0f && m->bounce <= 1.0f &&
          m->drag >= 0.0f))
        return ledge__read_fail(r, "a friction %g, bounce %g or drag %g is out of range",
                                (double)m->friction, (double)m->bounce, (double)m->drag);
    return !r->failed;
}

static bool get_mass(ledge__reader *r, ledge_world *w, int at, int run, float *inv) {
    *inv = ledge__get_f32(r);
    bool any = *inv >= 1.0f / LEDGE_MAX_MASS && *inv <= 1.0f / LEDGE_MIN_MASS;
    for (int k = at; k < at + run && !r->failed; ++k) {
        int i = w->step.order[k];
        bool dynamic = w->step.order_mark[i] & M_DYNAMIC;
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

static void put_shape_at(ledge_world *w, int i, const ledge_shape *s) {
    // (Written only where it differs: a rollback finds most shapes in place.)
    if (!same_shape(&w->shape[i], s)) w->shape[i] = *s;
    ledge_aabb b = s->bounds;
    w->box_offset[i] = v2_scale(v2_add(b.lower, b.upper), 0.5f);
    w->box_half[i] = v2_scale(v2_sub(b.upper, b.lower), 0.5f);
    w->circle[i] = s->type == LEDGE_SHAPE_CIRCLE;
}

static bool get_settings(ledge__reader *r, ledge_world *w, int alive, bool apply) {
    unsigned kind = 0;
    GET_RUNS(r, w, alive, apply, "kind", get_kind(r, w, at, run_, &kind), put_kind(w, i, kind));
    material m;
    GET_RUNS(r, w, alive, apply, "material", get_material(r, &m),
             (w->friction[i] = m.friction, w->bounce[i] = m.bounce,
              w->gravity_scale[i] = m.gravity_scale, w->drag[i] = m.drag,
              w->floor_cos[i] = m.floor_cos));
    float inv = 0.0f;
    GET_RUNS(r, w, alive, apply, "mass", get_mass(r, w, at, run_, &inv),
             (w->sleep_inv_mass[i] = inv, w->inv_mass[i] = w->asleep[i] ? 0.0f : inv));
    ledge_shape s;
    GET_RUNS(r, w, alive, apply, "shape", get_shape(r, &s), put_shape_at(w, i, &s));
    ledge_filter f;
    GET_RUNS(r, w, alive, apply, "filter",
             (f.category = ledge__get_u64(r), f.mask = ledge__get_u64(r),
              f.group = (int32_t)ledge__get_svar(r), !r->failed),
             w->filter[i] = f);
    uint64_t user = 0;
    GET_RUNS(r, w, alive, apply, "user data", (user = ledge__get_u64(r), !r->failed),
             w->user_data[i] = (void *)(uintptr_t)user);
    return !r->failed;
}

// Each slot's handle: a permutation of 0..n-1, checked through step.order
// (by handle: its slot).
static bool get_handles(ledge__reader *r, ledge_world *w, int n, bool apply) {
    int *slot_of = w->step.order;
    for (int h = 0; h < n; ++h) slot_of[h] = -1;
    for (int i = 0, last = -1; i < n && !r->failed; ++i) {
        int64_t h = (int64_t)last + 1 + ledge__get_svar(r);
        if (h < 0 || h >= n || slot_of[h] >= 0)
            return ledge__read_fail(r, "slot %d's handle %lld is out of range or taken twice", i,
                                    (long long)h);
        slot_of[h] = i;
        last = (int)h;
        if (apply) {
            w->handle[i] = (int)h;
            w->slot_of[h] = i;
        }
    }
    return !r->failed;
}

// The free handles: exactly those of the dead slots, in the order they will
// be taken again (LIFO), each once.
static bool get_free(ledge__reader *r, ledge_world *w, int n, int dead, bool apply) {
    int count = (int)ledge__get_count(r, (uint64_t)n, "the free handles");
    if (count != dead)
        return ledge__read_fail(r, "%d handles are free for %d dead slots", count, dead);
    for (int k = 0; k < count && !r->failed; ++k) {
        int h = (int)ledge__get_count(r, (uint64_t)n - 1u, "a free handle");
        int i = w->step.order[h];
        if (r->failed || i < 0) break;
        // (A dead slot's mark becomes 2 once its handle is listed.)
        if (w->step.order_mark[i] != 0)
            return ledge__read_fail(r, "free handle %d is alive or listed twice", h);
        w->step.order_mark[i] = 2u;
        if (apply) w->free_handles[k] = h;
    }
    for (int i = 0; i < n; ++i) {
        if (w->step.order_mark[i] == 2u) w->step.order_mark[i] = 0;
    }
    if (apply) w->free_count = count;
    return !r->failed;
}

static bool get_generations(ledge__reader *r, ledge_world *w, int n, bool apply) {
    for (int i = 0; i < n && !r->failed;) {
        int run = (int)ledge__get_count(r, (uint64_t)(n - i), "a generation run");
        uint32_t g = (uint32_t)ledge__get_count(r, UINT32_MAX, "a generation");
        if (run == 0) return ledge__read_fail(r, "a generation run is empty");
        for (int k = 0; k < run; ++k, ++i) {
            if (apply) w->generation[i] = g;
        }
    }
    return !r->failed;
}

// The extras' values of slot i (their kinds are checked against the
// body's type in get_motion, once the settings are read).
static bool get_extras(ledge__reader *r, ledge_world *w, int i, unsigned x, bool apply) {
    float timer = (x & X_TIMER) ? ledge__get_f32(r) : 0.0f;
    if (!(timer >= 0.0f && isfinite(timer)))
        return ledge__read_fail(r, "slot %d's rest timer is %g", i, (double)timer);
    vec2s zero = {{0.0f, 0.0f}};
    vec2s prev = (x & X_PREV) ? ledge__get_vec_within(r, LEDGE_MAX_COORDINATE, "a velocity") : zero;
    vec2s last = (x & X_LAST) ? ledge__get_vec_within(r, LEDGE_MAX_COORDINATE, "a position") : zero;
    if (!apply || r->failed) return !r->failed;
    w->sleep_timer[i] = timer;
    w->prev_velocity[i] = prev;
    w->last_position[i] = last;
    return true;
}

static bool get_flags(ledge__reader *r, ledge_world *w, int n, int *alive, bool apply) {
    *alive = 0;
    for (int i = 0; i < n && !r->failed; ++i) {
        unsigned f = ledge__get_u8(r), x = (f & F_EXTRA) ? ledge__get_u8(r) : 0u;
        bool live = f & F_ALIVE;
        unsigned dead_ok = F_MOVED | F_IN_ONE_WAY;
        if ((!live && (f & ~dead_ok)) || ((f & F_EXTRA) && (x == 0u || x > 7u)) ||
            ((f & F_ASLEEP) && ((f & F_VELOCITY) || !w->sleep_on || (x & X_TIMER))))
            return ledge__read_fail(r, "slot %d's flags %u/%u do not go together", i, f, x);
        if (x && !get_extras(r, w, i, x, apply)) return false;
        *alive += live;
        w->step.order_mark[i] =
            (uint8_t)((live ? LEDGE__SNAP_ALIVE : 0u) | ((f & F_ASLEEP) ? M_ASLEEP : 0u) |
                      ((f & F_VELOCITY) ? M_VELOCITY : 0u) | ((f & F_FROZEN) ? M_FROZEN : 0u) |
                      (x ? M_EXTRA : 0u));
        w->step.order_key[i] = (int)x; // the extras' kinds, for get_motion
        if (!apply) continue;
        w->alive[i] = live;
        w->moved[i] = (f & F_MOVED) != 0;
        w->in_one_way[i] = (f & F_IN_ONE_WAY) != 0;
        w->asleep[i] = (f & F_ASLEEP) != 0;
        w->frozen[i] = (f & F_FROZEN) != 0;
        w->dropping[i] = (f & F_DROPPING) != 0;
        if (!live) w->events[i] = 0;
    }
    return !r->failed;
}

// Positions, velocities and the extras' values of the living slots.
static bool get_motion(ledge__reader *r, ledge_world *w, int n, int alive, bool apply) {
    const uint8_t *mark = w->step.order_mark;
    const int *extras = w->step.order_key;
    if (!ledge__have(r, (size_t)alive * 8u)) return false;
    for (int i = 0; i < n; ++i) {
        if (!(mark[i] & LEDGE__SNAP_ALIVE)) continue;
        vec2s p = ledge__get_vec_within(r, LEDGE_MAX_COORDINATE, "a position");
        if (!apply) continue;
        w->position[i] = p;
        if (!(extras[i] & X_LAST)) w->last_position[i] = p;
        if (!(extras[i] & X_TIMER)) w->sleep_timer[i] = 0.0f;
    }
    vec2s zero = {{0.0f, 0.0f}};
    for (int i = 0; i < n && !r->failed; ++i) {
        if (!(mark[i] & LEDGE__SNAP_ALIVE)) continue;
        unsigned x = (unsigned)extras[i];
        if (((x & X_PREV) && !(mark[i] & LEDGE__SNAP_KINEMATIC)) ||
            ((x & X_LAST) && !(mark[i] & (M_STATIC | M_ASLEEP | M_FROZEN))))
            return ledge__read_fail(r, "slot %d keeps a value its body does not have", i);
        vec2s v = (mark[i] & M_VELOCITY)
                      ? ledge__get_vec_within(r, LEDGE_MAX_COORDINATE, "a velocity")
                      : zero;
        if (!apply) continue;
        w->velocity[i] = v;
        if (!(x & X_PREV)) w->prev_velocity[i] = v;
    }
    return !r->failed;
}

// The living slots in step.order (free after the handles' check).
static bool list_alive(ledge_world *w, int n) {
    int k = 0;
    for (int i = 0; i < n; ++i) {
        if (ledge__snap_alive(w, i)) w->step.order[k++] = i;
    }
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

bool ledge__snap_bodies_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan, bool apply) {
    int n = (int)ledge__get_count(r, 1u << 26, "the body slots");
    if (r->failed) return false;
    if (n > w->capacity && !ledge__store_grow(w, n, "ledge_world_restore")) {
        r->no_room = true;
        return ledge__read_fail(r, "allocation of %d body slots failed", n);
    }
    int alive = 0;
    if (!get_handles(r, w, n, apply) || !get_generations(r, w, n, apply) ||
        !get_flags(r, w, n, &alive, apply) || !get_free(r, w, n, n - alive, apply) ||
        !list_alive(w, n) || !get_settings(r, w, alive, apply) ||
        !get_motion(r, w, n, alive, apply))
        return false;
    plan->slots = n;
    if (!apply) return true;
    int old = w->slot_count;
    w->slot_count = n;
    w->live_count = alive;
    w->sleepers = 0;
    w->event_bodies = 0;
    for (int i = 0; i < n; ++i) {
        if (!w->alive[i]) continue;
        w->sleepers += w->asleep[i];
        w->event_bodies += w->events[i];
    }
    clear_slots(w, n, old);
    return true;
}
