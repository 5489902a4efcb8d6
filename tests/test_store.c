// The body store (src/body_store.h): the one list of per-body arrays
// generates arrays that growth keeps whole and sizes alike, and the id <->
// slot mapping stays an inverse pair. The slots' order by space
// (src/order.c): a reordering keeps every id on its own body's data (every
// stored field, byte for byte), sorts the slots by cell then id, and the
// contacts, events and characters follow their bodies.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "order.h"
#include "contacts.h" // the store's arrays, through the list itself
#include "par.h"
#include "slots.h"
#include "world_state.h"

#include "log_capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BODIES = 300 };

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// Body k's definition: every property a function of k, so that any field
// copied wrongly by a growth shows.
static ledge_body_def def_of(int k) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = k % 3 == 0   ? LEDGE_BODY_STATIC
              : k % 3 == 1 ? LEDGE_BODY_DYNAMIC
                           : LEDGE_BODY_KINEMATIC;
    bd.shape = k % 2 ? ledge_make_circle(v(0, 0), 0.1f + 0.001f * (float)k)
                     : ledge_make_box(v(0, 0), v(0.2f + 0.001f * (float)k, 0.3f));
    bd.position = v((float)k, 0.5f * (float)k);
    bd.velocity = v(0.25f * (float)k, -1.0f);
    bd.friction = (float)(k % 10) / 10.0f;
    bd.bounce = (float)(k % 7) / 7.0f;
    bd.gravity_scale = 1.0f + (float)k;
    bd.drag = 0.01f * (float)k;
    bd.filter.category = (uint64_t)1 << (k % 60);
    bd.filter.group = k % 5 - 2;
    bd.user_data = (void *)(uintptr_t)(1000 + k);
    bd.bullet = k % 4 == 0;
    bd.sensor = k % 11 == 0;
    return bd;
}

// The bytes of slot i of every stored array, in list order.
#define FIELD_SIZE(class, T, name) LEDGE__STORED(class)(+sizeof(T))
enum { STORED_BYTES = 0 LEDGE__BODY_FIELDS(FIELD_SIZE) };

static void snapshot(const ledge_world *w, int i, unsigned char *out) {
    size_t at = 0;
#define COPY(class, T, name)                                                                       \
    LEDGE__STORED(class)(memcpy(out + at, &w->name[i], sizeof(T)); at += sizeof(T);)
    LEDGE__BODY_FIELDS(COPY)
#undef COPY
    assert_int_equal(at, STORED_BYTES);
}

// Growth from no capacity through several doublings keeps every stored
// field of every body (compared byte for byte with its state when made).
static void test_growth_keeps_every_field(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.body_capacity = 0;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    unsigned char *made = malloc((size_t)BODIES * STORED_BYTES);
    unsigned char now[STORED_BYTES];
    assert_non_null(made);
    int growths = 0, cap = w->capacity;
    for (int k = 0; k < BODIES; ++k) {
        ledge_body_def bd = def_of(k);
        ledge_body_id id = ledge_body_create(w, &bd);
        assert_true(ledge_body_is_valid(w, id));
        assert_int_equal(id.index1, (uint32_t)k + 1u); // fresh handles in creation order
        snapshot(w, k, made + (size_t)k * STORED_BYTES);
        if (w->capacity != cap) growths++, cap = w->capacity;
    }
    assert_true(growths >= 5); // 16, 32, 64, 128, 256, 512
    for (int k = 0; k < BODIES; ++k) {
        snapshot(w, k, now);
        assert_memory_equal(now, made + (size_t)k * STORED_BYTES, STORED_BYTES);
        ledge_body_def bd = def_of(k);
        ledge_body_id id = ledge__body_id(w, k);
        assert_int_equal(ledge_body_get_type(w, id), bd.type);
        assert_ptr_equal(ledge_body_user_data(w, id), bd.user_data);
        assert_int_equal(ledge_body_filter(w, id).category, bd.filter.category);
        assert_memory_equal(ledge_body_shape(w, id), &bd.shape, sizeof bd.shape);
    }
    free(made);
    ledge_world_destroy(w);
}

// Every array the list generates (stored and scratch) holds `capacity`
// elements: the last element of each is written (ASan reports an array
// sized short), and the step still runs afterwards.
static void test_every_array_has_capacity(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    for (int k = 0; k < 40; ++k) {
        ledge_body_def bd = def_of(k);
        ledge_body_create(w, &bd);
    }
    int last = w->capacity - 1;
    assert_true(last >= 39);
    int arrays = 0;
#define TOUCH_STORED(class, T, name)                                                               \
    LEDGE__STORED(class)(assert_non_null(w->name); memset(&w->name[last], 0, sizeof(T)); ++arrays;)
#define TOUCH_SCRATCH(class, T, name)                                                              \
    LEDGE__SCRATCHED(class)                                                                        \
    (assert_non_null(w->step.name); memset(&w->step.name[last], 0, sizeof(T)); ++arrays;)
    LEDGE__BODY_FIELDS(TOUCH_STORED)
    LEDGE__BODY_FIELDS(TOUCH_SCRATCH)
    assert_int_equal(arrays, LEDGE__BODY_FIELD_COUNT);
    w->free_handles[last] = 0;
    w->slot_of[last] = 0;
    for (int s = 0; s < 10; ++s) ledge_world_step(w, 1.0f / 60.0f);
    ledge_world_destroy(w);
}

// Handles and slots stay inverse through deaths and reuse; a reused slot's
// id has the next generation and the old id is refused.
static void test_handles_and_reuse(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_body_id ids[64];
    for (int k = 0; k < 64; ++k) {
        ledge_body_def bd = def_of(k);
        ids[k] = ledge_body_create(w, &bd);
    }
    for (int k = 0; k < 64; k += 3) ledge_body_destroy(w, ids[k]);
    for (int k = 0; k < 64; k += 3) {
        ledge_body_def bd = def_of(k);
        ledge_body_id id = ledge_body_create(w, &bd);
        assert_false(ledge_body_is_valid(w, ids[k]) && id.generation == ids[k].generation);
        assert_int_equal(id.generation, ids[k].generation + 1u);
        ids[k] = id;
    }
    for (int i = 0; i < w->slot_count; ++i) assert_int_equal(w->slot_of[w->handle[i]], i);
    for (int k = 0; k < 64; ++k) {
        assert_true(ledge_body_is_valid(w, ids[k]));
        assert_int_equal(ledge_body_position(w, ids[k]).x, (float)k);
    }
    ledge_world_destroy(w);
}

// --- the order by space ------------------------------------------------------

// A pile of circles (ids in a scattered creation order, some destroyed and
// remade) on the floor of a closed map, some with touch events, and a
// platform carrying a character; ordering off until the caller turns it on.
typedef struct pile {
    ledge_world *w;
    ledge_body_id ids[400];
    int count;
    ledge_body_id platform, hero;
} pile;

static void make_pile(pile *p, ledge_friction_law model) {
    memset(p, 0, sizeof *p);
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 40;
    wd.map_height = 40;
    wd.friction_law = model;
    p->w = ledge_world_create(&wd);
    assert_non_null(p->w);
    ledge__order_set_period(p->w, 0);
    ledge_tilemap *map = ledge_world_tilemap(p->w);
    for (int x = 0; x < 40; ++x) {
        ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, x, 39, LEDGE_TILE_FULL);
    }
    for (int y = 0; y < 40; ++y) {
        ledge_tilemap_set(map, 0, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, 39, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, 22, y, LEDGE_TILE_FULL); // keeps the pile off the platform
    }
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.3f);
    p->count = 400;
    for (int k = 0; k < p->count; ++k) {
        int j = (k * 97) % p->count; // scattered: creation order is not space order
        bd.position = v(2.0f + 0.7f * (float)(j % 25), 12.0f + 0.7f * (float)(j / 25));
        bd.enable_events = k % 3 == 0;
        bd.user_data = (void *)(uintptr_t)(k + 1);
        p->ids[k] = ledge_body_create(p->w, &bd);
    }
    for (int k = 0; k < p->count; k += 7) ledge_body_destroy(p->w, p->ids[k]);
    for (int k = 0; k < p->count; k += 7) {
        bd.position = v(3.0f + 0.05f * (float)k, 30.0f);
        bd.user_data = (void *)(uintptr_t)(k + 1);
        p->ids[k] = ledge_body_create(p->w, &bd);
    }
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(1.5f, 0.25f));
    pd.position = v(30.0f, 5.0f);
    pd.velocity = v(0.3f, 0.1f);
    p->platform = ledge_body_create(p->w, &pd);
    ledge_body_def hd = ledge_default_body_def();
    hd.type = LEDGE_BODY_KINEMATIC;
    hd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    hd.position = v(30.0f, 5.25f + 0.45f);
    p->hero = ledge_body_create(p->w, &hd);
    assert_true(ledge_character_create(p->w, p->hero, NULL));
    ledge_character_state st;
    assert_true(ledge_character_move(p->w, p->hero, v(0, 0), 1.0f / 60.0f, &st));
}

// Every stored field of every living body, by id (slot_of), in handle order.
static unsigned char *snapshot_all(const ledge_world *w) {
    unsigned char *out = malloc((size_t)w->slot_count * STORED_BYTES);
    assert_non_null(out);
    for (int h = 0; h < w->slot_count; ++h)
        snapshot(w, w->slot_of[h], out + (size_t)h * STORED_BYTES);
    return out;
}

// A contact by ids, as the game reads it.
typedef struct id_contact {
    uint32_t a, b, ga, gb;
    int cx, cy;
    float nx, ny, depth;
} id_contact;

static int contacts_by_id(const ledge_world *w, id_contact *out) {
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        ledge_body_id a = ledge__body_id(w, c->a), b = ledge__body_id(w, c->b);
        id_contact e = {a.index1,  b.index1,    a.generation, b.generation, c->cell_x,
                        c->cell_y, c->normal.x, c->normal.y,  c->depth};
        out[k] = e;
    }
    return w->contact_count;
}

// One reordering, called directly: every id keeps its body's data byte for
// byte, the slots come out sorted by (cell of the last build, handle), and
// the recorded contacts name the same bodies in the same order.
static void test_reorder_keeps_every_body(void **state) {
    (void)state;
    pile p;
    make_pile(&p, LEDGE_FRICTION_COULOMB);
    for (int s = 0; s < 120; ++s) ledge_world_step(p.w, 1.0f / 60.0f);
    ledge_world *w = p.w;
    int n = w->slot_count;
    unsigned char *before = snapshot_all(w);
    int *cell_before = malloc(sizeof(int) * (size_t)n);
    id_contact *ca = malloc(sizeof(id_contact) * (size_t)w->contact_count + 1);
    id_contact *cb = malloc(sizeof(id_contact) * (size_t)w->contact_count + 1);
    assert_true(cell_before && ca && cb);
    assert_int_equal(w->grid.slots, n);
    memcpy(cell_before, w->grid.cell_of, sizeof(int) * (size_t)n);
    int *slot_before = malloc(sizeof(int) * (size_t)n);
    memcpy(slot_before, w->slot_of, sizeof(int) * (size_t)n);
    int contacts = contacts_by_id(w, ca);
    assert_true(contacts > 300);

    ledge__order_set_period(w, 1);
    ledge__order_bodies(w);
    assert_int_equal(w->debug.reorders, 1u);

    unsigned char *after = snapshot_all(w);
    assert_memory_equal(before, after, (size_t)n * STORED_BYTES);
    int moved = 0;
    for (int h = 0; h < n; ++h) moved += w->slot_of[h] != slot_before[h];
    assert_true(moved > n / 2);
    // sorted by (old cell, handle); slots in no cell last
    long last = -1;
    for (int k = 0; k < n; ++k) {
        int old = slot_before[w->handle[k]];
        long key = cell_before[old] >= 0 ? cell_before[old] : 1L << 40;
        key = key * 4096 + w->handle[k];
        assert_true(key > last);
        last = key;
    }
    assert_int_equal(contacts_by_id(w, cb), contacts);
    assert_memory_equal(ca, cb, sizeof(id_contact) * (size_t)contacts);
    for (int k = 0; k < p.count; ++k) {
        assert_true(ledge_body_is_valid(w, p.ids[k]));
        assert_ptr_equal(ledge_body_user_data(w, p.ids[k]), (void *)(uintptr_t)(k + 1));
    }
    free(before);
    free(after);
    free(cell_before);
    free(slot_before);
    free(ca);
    free(cb);
    ledge_world_destroy(w);
}

// The touch events of a run with a reordering every step, by id: a pile
// that settles keeps its touches, so after it settles each step's begins
// and ends must match those of a run that never reorders in count, and
// every event names living bodies of the pile.
static void count_events(ledge_world *w, int *begins, int *ends) {
    ledge_touch_events t = ledge_world_touch_events(w);
    *begins += t.begin_count;
    *ends += t.end_count;
    for (int k = 0; k < t.begin_count; ++k) assert_true(ledge_body_is_valid(w, t.begin[k].a));
}

// Through a reordering every step: the character rides its platform exactly
// as without reordering (kinematic motion does not depend on the order),
// touch events name living bodies and are no more frequent, the
// contact index answers by id, and two runs give the same hash.
static void test_reorder_every_step(void **state) {
    (void)state;
    pile on, off, again;
    make_pile(&on, LEDGE_FRICTION_COULOMB);
    make_pile(&off, LEDGE_FRICTION_COULOMB);
    make_pile(&again, LEDGE_FRICTION_COULOMB);
    ledge__order_set_period(on.w, 1);
    ledge__order_set_period(again.w, 1);
    int begins_on = 0, ends_on = 0, begins_off = 0, ends_off = 0;
    for (int s = 0; s < 600; ++s) {
        pile *ps[3] = {&on, &off, &again};
        for (int k = 0; k < 3; ++k) {
            ledge_character_state st;
            assert_true(ledge_character_move(ps[k]->w, ps[k]->hero, v(0, 0), 1.0f / 60.0f, &st));
            ledge_world_step(ps[k]->w, 1.0f / 60.0f);
        }
        if (s >= 500) {
            count_events(on.w, &begins_on, &ends_on);
            count_events(off.w, &begins_off, &ends_off);
        }
        vec2s a = ledge_body_position(on.w, on.hero), b = ledge_body_position(off.w, off.hero);
        assert_memory_equal(&a, &b, sizeof a);
        ledge_character_state st;
        assert_true(ledge_character_get_state(on.w, on.hero, &st));
        assert_true(st.on_floor);
    }
    assert_true(on.w->debug.reorders > 10u);
    assert_int_equal(ledge_world_hash(on.w), ledge_world_hash(again.w));
    // The reordering adds no touches. (The pile does not rest: without
    // sleeping, its touches at the slop begin and end some 1,400 to 2,300
    // times in these 100 steps, with or without reordering, and which of
    // the two runs has more is chance; the bound is twice the other's.)
    assert_true(begins_on + ends_on <= 2 * (begins_off + ends_off) + 4);
    // The contact index, rebuilt after reorderings, lists each body's contacts by id.
    for (int k = 0; k < on.count; ++k) {
        ledge_contact_data cd[16];
        int m = ledge_body_contacts(on.w, on.ids[k], cd, 16);
        assert_true(m >= 0);
        for (int j = 0; j < m && j < 16; ++j) {
            assert_true(cd[j].other.index1 == 0 || ledge_body_is_valid(on.w, cd[j].other));
        }
    }
    // Every id still answers with its own user data.
    for (int k = 0; k < on.count; ++k) {
        assert_ptr_equal(ledge_body_user_data(on.w, on.ids[k]), (void *)(uintptr_t)(k + 1));
    }
    ledge_world_destroy(on.w);
    ledge_world_destroy(off.w);
    ledge_world_destroy(again.w);
}

// Every message of the step that names a body names the id the game holds,
// never the slot the store keeps the body in: 64 circles made right to
// left, so that the slots' order by space (left to right) moves nearly
// every one, then each message provoked in turn on a body whose slot is
// not its id's: a velocity beyond the finite range (a dynamic body), a
// position beyond it (a kinematic one).
enum { ROW = 64 };

static bool says_body(ledge_body_id id, const char *what) {
    char want[64];
    snprintf(want, sizeof want, "body {%u, %u}'s %s left the finite range", id.index1,
             id.generation, what);
    return log_capture_says("ledge_world_step", want);
}

static void test_messages_name_ids(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_id ids[ROW];
    for (int k = 0; k < ROW; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle(v(0, 0), 0.4f);
        bd.position = v(63.0f - 0.9f * (float)k, 3.0f);
        if (k == 6) bd.type = LEDGE_BODY_KINEMATIC; // the seventh
        ids[k] = ledge_body_create(w, &bd);
    }
    for (int s = 0; s < 40; ++s) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(w->debug.reorders > 0u);
    ledge_body_id fast = ids[5], far = ids[6];
    assert_int_equal(fast.index1, 6);
    assert_int_not_equal(w->slot_of[fast.index1 - 1], (int)fast.index1 - 1);
    assert_int_not_equal(w->slot_of[far.index1 - 1], (int)far.index1 - 1);

    log_capture_start();
    assert_true(ledge_body_set_gravity_scale(w, fast, 1e6f));
    assert_true(ledge_body_set_velocity(w, fast, v(0.0f, -9e5f)));
    ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_is_frozen(w, fast));
    assert_int_equal(g_log.count, 1);
    assert_true(says_body(fast, "velocity"));

    log_capture_start();
    assert_true(ledge_body_set_position(w, far, v(10.0f, 999990.0f)));
    assert_true(ledge_body_set_velocity(w, far, v(0.0f, 1e6f)));
    ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_is_frozen(w, far));
    assert_int_equal(g_log.count, 1);
    assert_true(says_body(far, "position"));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

// The shape table (src/shape_table.h): equal shapes are stored once and
// counted by their bodies; an entry nobody uses is freed and reused first
// (LIFO); each body reads back the very bytes it was made with, through a
// reordering and a restore, which interns the snapshot's shapes again.
static int entry_count_sum(const ledge__shape_table *t) {
    int sum = 0;
    for (int e = 0; e < t->count; ++e) sum += (int)t->refs[e];
    return sum;
}

static void assert_shape_is(const ledge_world *w, ledge_body_id id, const ledge_shape *s) {
    const ledge_shape *got = ledge_body_shape(w, id);
    assert_non_null(got);
    assert_memory_equal(got, s, sizeof *s);
}

enum { RAIN = 1000, CRATES = 300 };

static void test_shapes_interned(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    static ledge_body_id rain[RAIN], crate[CRATES];
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.25f);
    ledge_shape ball = bd.shape;
    for (int k = 0; k < RAIN; ++k) {
        bd.position = v((float)(k % 40), 5.0f + (float)(k / 40));
        rain[k] = ledge_body_create(w, &bd);
    }
    assert_int_equal(ledge__shapes_live(&w->shapes), 1); // a rain holds one shape
    int ball_entry = w->shape_id[0];
    assert_int_equal(w->shapes.refs[ball_entry], RAIN);
    ledge_shape sizes[3];
    for (int k = 0; k < 3; ++k) sizes[k] = ledge_make_box(v(0, 0), v(0.2f + 0.1f * (float)k, 0.3f));
    for (int k = 0; k < CRATES; ++k) {
        bd.shape = sizes[k % 3];
        bd.position = v((float)(k % 40), -5.0f - (float)(k / 40));
        crate[k] = ledge_body_create(w, &bd);
    }
    assert_int_equal(ledge__shapes_live(&w->shapes), 4); // and crates of three sizes three more
    assert_int_equal(entry_count_sum(&w->shapes), RAIN + CRATES);
    for (int s = 0; s < 30; ++s) ledge_world_step(w, 1.0f / 60.0f);
    ledge__order_set_period(w, 1);
    ledge__order_bodies(w); // (moves ids, not shapes)
    for (int k = 0; k < RAIN; ++k) assert_shape_is(w, rain[k], &ball);
    for (int k = 0; k < CRATES; ++k) assert_shape_is(w, crate[k], &sizes[k % 3]);

    // A snapshot keeps the shapes by value; a restore interns them again.
    size_t cap = ledge_world_snapshot_size(w);
    unsigned char *snap = malloc(cap);
    assert_non_null(snap);
    size_t n = ledge_world_save(w, snap, cap);
    assert_true(n > 0);
    uint64_t hash = ledge_world_hash(w);

    // Every ball goes: its entry is freed, and the next new shape takes it.
    for (int k = 0; k < RAIN; ++k) ledge_body_destroy(w, rain[k]);
    assert_int_equal(ledge__shapes_live(&w->shapes), 3);
    assert_int_equal(w->shapes.refs[ball_entry], 0);
    vec2s tri[3] = {v(0, 0), v(1, 0), v(0, 1)};
    assert_true(ledge_make_polygon(tri, 3, &bd.shape));
    ledge_body_id poly = ledge_body_create(w, &bd);
    assert_int_equal(w->shape_id[ledge__slot_of(w, poly)], ball_entry);
    assert_int_equal(ledge__shapes_live(&w->shapes), 4);

    assert_true(ledge_world_restore(w, snap, n));
    assert_int_equal(ledge_world_hash(w), hash);
    assert_int_equal(ledge__shapes_live(&w->shapes), 4);
    assert_int_equal(entry_count_sum(&w->shapes), RAIN + CRATES);
    for (int k = 0; k < RAIN; ++k) assert_shape_is(w, rain[k], &ball);
    for (int k = 0; k < CRATES; ++k) assert_shape_is(w, crate[k], &sizes[k % 3]);
    for (int s = 0; s < 10; ++s) ledge_world_step(w, 1.0f / 60.0f);

    // Everything goes: the table is empty.
    for (int k = 0; k < RAIN; ++k) ledge_body_destroy(w, rain[k]);
    for (int k = 0; k < CRATES; ++k) ledge_body_destroy(w, crate[k]);
    assert_int_equal(ledge__shapes_live(&w->shapes), 0);
    free(snap);
    ledge_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_growth_keeps_every_field),
        cmocka_unit_test(test_every_array_has_capacity),
        cmocka_unit_test(test_handles_and_reuse),
        cmocka_unit_test(test_reorder_keeps_every_body),
        cmocka_unit_test(test_reorder_every_step),
        cmocka_unit_test(test_messages_name_ids),
        cmocka_unit_test(test_shapes_interned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
