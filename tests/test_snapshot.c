// Snapshots (include/ledge/snapshot.h): a scripted level (tiles, a pile of
// circles, boxes and polygons, a moving platform, a character that reads
// its own state to jump, bodies made, destroyed and pushed, tile edits, a
// sensor, sleep and events on) run straight, then resumed from snapshots:
// every later step's hash, events and game view (contacts, ground state),
// and every later snapshot's bytes, must equal the straight run's. Also
// into a fresh world built the same way, across worker counts, through a
// rollback storm, and for the ids. The refusals (every message) and
// allocation failure at every allocation of a restore.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "alloc_hook.h"
#include "log_capture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT     (1.0f / 60.0f)
#define FRAMES 420
#define MADE   24 // bodies the script makes (and some it destroys)

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// --- the scripted level --------------------------------------------------------

typedef struct level {
    ledge_world *w;
    ledge_body_id pile[64];
    int pile_count;
    ledge_body_id platform, hero, sensor, made[MADE];
    int workers;
} level;

static uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    return x ^ (x >> 33);
}

static ledge_body_id make(ledge_world *w, int kind, vec2s at, bool events) {
    ledge_body_def bd = ledge_default_body_def();
    bd.position = at;
    bd.friction = 0.3f + 0.1f * (float)(kind % 3);
    bd.bounce = kind % 4 == 0 ? 0.3f : 0.0f;
    bd.enable_events = events;
    if (kind % 3 == 0) {
        bd.shape = ledge_make_circle(v(0, 0), 0.3f + 0.05f * (float)(kind % 2));
    } else if (kind % 3 == 1) {
        bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.25f));
    } else {
        vec2s hex[6];
        for (int k = 0; k < 6; ++k) {
            float a = (float)k * 1.0471976f;
            hex[k] = v(0.35f * cosf(a), 0.35f * sinf(a));
        }
        ledge_make_polygon(hex, 6, &bd.shape);
    }
    return ledge_body_create(w, &bd);
}

// The level's world and bodies; the same calls in the same order give the
// same ids in any world.
static bool level_build(level *L, int workers) {
    memset(L, 0, sizeof *L);
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 40;
    wd.map_height = 24;
    wd.enable_sleep = true;
    wd.sleep_time = 0.3f;
    wd.worker_count = workers;
    L->workers = workers;
    L->w = ledge_world_create(&wd);
    if (L->w == NULL) return false;
    ledge_tilemap *map = ledge_world_tilemap(L->w);
    for (int x = 0; x < 40; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    for (int y = 0; y < 24; ++y) {
        ledge_tilemap_set(map, 0, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, 39, y, LEDGE_TILE_FULL);
    }
    ledge_tilemap_set(map, 1, 1, LEDGE_TILE_45DEG_PP);
    ledge_tilemap_set(map, 38, 1, LEDGE_TILE_45DEG_NP);
    for (int x = 24; x < 30; ++x) {
        ledge_tilemap_set(map, x, 6, LEDGE_TILE_HALF_U);
        ledge_tilemap_set_one_way(map, x, 6, LEDGE_ONE_WAY_UP);
    }
    for (int k = 0; k < 48; ++k) {
        vec2s at = v(3.0f + (float)(k % 8) * 0.8f + 0.05f * (float)(k % 3),
                     1.6f + (float)(k / 8) * 0.9f);
        L->pile[L->pile_count++] = make(L->w, k, at, k % 5 == 0);
    }
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(1.5f, 0.2f));
    pd.position = v(18.0f, 3.0f);
    pd.enable_events = true;
    L->platform = ledge_body_create(L->w, &pd);
    ledge_body_def hd = ledge_default_body_def();
    hd.type = LEDGE_BODY_KINEMATIC;
    hd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    hd.position = v(30.0f, 1.5f);
    L->hero = ledge_body_create(L->w, &hd);
    ledge_character_create(L->w, L->hero, NULL);
    ledge_body_def sd = ledge_default_body_def();
    sd.type = LEDGE_BODY_STATIC;
    sd.sensor = true;
    sd.shape = ledge_make_box(v(0, 0), v(1.0f, 1.0f));
    sd.position = v(8.0f, 2.0f);
    L->sensor = ledge_body_create(L->w, &sd);
    return ledge_body_is_valid(L->w, L->sensor);
}

// Frame f's input, from f and what the world says (never from the run's
// history, so a resumed run gives the same input).
static void level_script(level *L, int f) {
    ledge_world *w = L->w;
    uint64_t r = mix((uint64_t)f + 1u);
    // The platform goes left and right (its target set each frame).
    float px = 18.0f + 4.0f * sinf((float)f * 0.03f);
    ledge_body_set_target(w, L->platform, v(px, 3.0f + (float)(f % 120 < 60) * 0.5f), DT);
    // The character walks to and fro and jumps when its state says it stands.
    ledge_character_state st;
    ledge_character_get_state(w, L->hero, &st);
    vec2s vel = st.velocity;
    vel.x = (f / 90) % 2 ? -4.0f : 4.0f;
    vel.y = st.on_floor ? (f % 45 == 0 ? 9.0f : 0.0f) : vel.y - 20.0f * DT;
    ledge_character_move(w, L->hero, vel, DT, NULL);
    // Bodies made, destroyed and pushed, a tile dug and filled.
    if (f % 15 == 5 && f / 15 < MADE) {
        int k = f / 15;
        L->made[k] = make(w, k + 1, v(6.0f + (float)(r % 20), 18.0f), k % 2 == 0);
    }
    if (f % 40 == 30) ledge_body_destroy(w, L->made[(f / 40) % MADE]);
    if (f % 25 == 12) {
        ledge_body_id b = L->pile[r % (uint64_t)L->pile_count];
        if (ledge_body_is_valid(w, b)) ledge_body_apply_impulse(w, b, v(3.0f, 6.0f));
    }
    if (f % 70 == 33) ledge_body_set_position(w, L->pile[(f / 70) % 48], v(12.0f, 12.0f));
    if (f == 150) ledge_tilemap_set(ledge_world_tilemap(w), 5, 0, LEDGE_TILE_EMPTY);
    if (f == 260) ledge_tilemap_set(ledge_world_tilemap(w), 5, 0, LEDGE_TILE_FULL);
    if (f == 200) ledge_body_set_awake(w, L->pile[3], false);
}

static void level_destroy(level *L) {
    ledge_world_destroy(L->w);
    L->w = NULL;
}

// --- what a frame leaves: the hash, the events and the game's view --------------

static uint64_t fold(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t k = 0; k < n; ++k) h = (h ^ b[k]) * 1099511628211ull;
    return h;
}

static uint64_t fold_id(uint64_t h, ledge_body_id id) {
    uint32_t x[2] = {id.index1, id.generation};
    return fold(h, x, sizeof x);
}

static uint64_t events_digest(ledge_world *w) {
    uint64_t h = 14695981039346656037ull;
    ledge_touch_events t = ledge_world_touch_events(w);
    ledge_sensor_events s = ledge_world_sensor_events(w);
    ledge_crush_events c = ledge_world_crush_events(w);
    int counts[5] = {t.begin_count, t.end_count, s.begin_count, s.end_count, c.count};
    h = fold(h, counts, sizeof counts);
    for (int k = 0; k < t.begin_count; ++k) {
        h = fold_id(fold_id(h, t.begin[k].a), t.begin[k].b);
        h = fold(h, &t.begin[k].cell_x, 2 * sizeof(int));
    }
    for (int k = 0; k < t.end_count; ++k) h = fold_id(fold_id(h, t.end[k].a), t.end[k].b);
    for (int k = 0; k < s.begin_count; ++k)
        h = fold_id(fold_id(h, s.begin[k].sensor), s.begin[k].visitor);
    for (int k = 0; k < s.end_count; ++k) h = fold_id(fold_id(h, s.end[k].sensor), s.end[k].visitor);
    for (int k = 0; k < c.count; ++k) h = fold(fold_id(h, c.events[k].body), &c.events[k].depth, 4);
    return h;
}

// Each living body's contacts and ground state, and the character's state.
static uint64_t view_digest(const level *L) {
    ledge_world *w = L->w;
    uint64_t h = 14695981039346656037ull;
    ledge_body_id all[64 + MADE + 3];
    int n = 0;
    for (int k = 0; k < L->pile_count; ++k) all[n++] = L->pile[k];
    for (int k = 0; k < MADE; ++k) all[n++] = L->made[k];
    all[n++] = L->platform;
    all[n++] = L->hero;
    all[n++] = L->sensor;
    for (int k = 0; k < n; ++k) {
        if (!ledge_body_is_valid(w, all[k])) continue;
        ledge_contact_data d[32];
        int c = ledge_body_contacts(w, all[k], d, 32);
        h = fold(h, &c, sizeof c);
        for (int j = 0; j < c && j < 32; ++j) {
            h = fold_id(h, d[j].other);
            h = fold(h, &d[j].cell_x, 2 * sizeof(int));
            h = fold(h, &d[j].normal, sizeof(vec2s));
            h = fold(h, &d[j].point, sizeof(vec2s));
            h = fold(h, &d[j].depth, sizeof(float));
            h = fold(h, &d[j].response, sizeof d[j].response);
        }
        if (ledge_body_get_type(w, all[k]) == LEDGE_BODY_DYNAMIC ||
            ledge_character_is_valid(w, all[k])) {
            ledge_ground g = ledge_body_ground(w, all[k]);
            h = fold(h, &g.on_ground, 4);
            h = fold(h, &g.ground_normal, sizeof(vec2s));
            h = fold_id(h, g.ground_body);
        }
        h = fold(h, &(int){ledge_body_is_awake(w, all[k])}, sizeof(int));
    }
    ledge_character_state st;
    if (ledge_character_get_state(w, L->hero, &st)) {
        h = fold(h, &st.position, sizeof st.position);
        h = fold(h, &st.velocity, sizeof st.velocity);
        h = fold(h, &st.on_floor, 1);
        h = fold(h, &st.last_move.hit_count, sizeof(int));
        h = fold_id(h, st.floor_body);
    }
    return h;
}

/// The straight run: after each frame its hash, events, view and snapshot.
typedef struct record {
    uint64_t hash[FRAMES + 1], events[FRAMES + 1], view[FRAMES + 1];
    unsigned char *snap[FRAMES + 1];
    size_t size[FRAMES + 1];
} record;

static record g_rec;
static ledge_body_id g_made[MADE]; // the straight run's made bodies

// The ids of the bodies the script made before frame f, for a world that
// did not make them itself (restored into): the same slots and
// generations, with this world's serial number.
static void adopt_made(level *L, int f) {
    for (int k = 0; k < MADE; ++k) {
        L->made[k] = LEDGE_NULL_BODY_ID;
        if (15 * k + 5 >= f) continue;
        L->made[k] = g_made[k];
        L->made[k].world = L->pile[0].world;
    }
}

static unsigned char *save_all(ledge_world *w, size_t *size) {
    size_t n = ledge_world_snapshot_size(w);
    assert_true(n > 0);
    unsigned char *b = malloc(n);
    assert_non_null(b);
    assert_int_equal(ledge_world_save(w, b, n), n);
    *size = n;
    return b;
}

static void note(record *rec, level *L, int f) {
    rec->hash[f] = ledge_world_hash(L->w);
    rec->events[f] = events_digest(L->w);
    rec->view[f] = view_digest(L);
    rec->snap[f] = save_all(L->w, &rec->size[f]);
}

// Frame f + 1 from frame f.
static void frame(level *L, int f) {
    level_script(L, f);
    ledge_world_step(L->w, DT);
}

static int setup_record(void **state) {
    (void)state;
    level L;
    if (!level_build(&L, 1)) return -1;
    note(&g_rec, &L, 0);
    for (int f = 0; f < FRAMES; ++f) {
        frame(&L, f);
        note(&g_rec, &L, f + 1);
    }
    memcpy(g_made, L.made, sizeof g_made);
    level_destroy(&L);
    return 0;
}

static int teardown_record(void **state) {
    (void)state;
    for (int f = 0; f <= FRAMES; ++f) free(g_rec.snap[f]);
    return 0;
}

// From frame f on, every frame must be the record's (hash, events, view,
// and the snapshot's bytes).
static void check_resume(level *L, int f) {
    if (ledge_world_hash(L->w) != g_rec.hash[f] || events_digest(L->w) != g_rec.events[f] ||
        view_digest(L) != g_rec.view[f])
        fail_msg("restored at frame %d: hash %d, events %d, view %d", f,
                 ledge_world_hash(L->w) == g_rec.hash[f], events_digest(L->w) == g_rec.events[f],
                 view_digest(L) == g_rec.view[f]);
    for (int g = f; g < FRAMES; ++g) {
        frame(L, g);
        if (ledge_world_hash(L->w) != g_rec.hash[g + 1])
            fail_msg("resumed at frame %d: frame %d's hash differs", f, g + 1);
        if (events_digest(L->w) != g_rec.events[g + 1])
            fail_msg("resumed at frame %d: frame %d's events differ", f, g + 1);
        if (view_digest(L) != g_rec.view[g + 1])
            fail_msg("resumed at frame %d: frame %d's view differs", f, g + 1);
        size_t n;
        unsigned char *b = save_all(L->w, &n);
        if (n != g_rec.size[g + 1] || memcmp(b, g_rec.snap[g + 1], n) != 0)
            fail_msg("resumed at frame %d: frame %d's snapshot differs (%zu bytes, %zu before)", f,
                     g + 1, n, g_rec.size[g + 1]);
        free(b);
    }
}

static const int g_resume_at[] = {1, 2, 16, 17, 31, 45, 99, 151, 152, 201, 263, 333, 400, 419};

// The same world, which has run to the end, back to frame f.
static void test_resume_same_world(void **state) {
    (void)state;
    level L;
    assert_true(level_build(&L, 1));
    for (int f = 0; f < FRAMES; ++f) frame(&L, f);
    for (size_t k = 0; k < sizeof g_resume_at / sizeof g_resume_at[0]; ++k) {
        int f = g_resume_at[k];
        assert_true(ledge_world_restore(L.w, g_rec.snap[f], g_rec.size[f]));
        size_t n;
        unsigned char *b = save_all(L.w, &n);
        assert_int_equal(n, g_rec.size[f]);
        assert_memory_equal(b, g_rec.snap[f], n); // the same bytes for the same state
        free(b);
        check_resume(&L, f);
    }
    level_destroy(&L);
}

// A fresh world built the same way (a client that joins), and one with two
// workers; a snapshot of a two-worker world back in a one-worker one.
static void test_resume_other_world(void **state) {
    (void)state;
    for (int workers = 1; workers <= 2; ++workers) {
        for (size_t k = 0; k < sizeof g_resume_at / sizeof g_resume_at[0]; k += 3) {
            level L;
            assert_true(level_build(&L, workers));
            int f = g_resume_at[k];
            assert_true(ledge_world_restore(L.w, g_rec.snap[f], g_rec.size[f]));
            adopt_made(&L, f);
            check_resume(&L, f);
            level_destroy(&L);
        }
    }
    // Saved with two workers, the same bytes as with one.
    level L;
    assert_true(level_build(&L, 2));
    for (int f = 0; f < 200; ++f) frame(&L, f);
    size_t n;
    unsigned char *b = save_all(L.w, &n);
    assert_int_equal(n, g_rec.size[200]);
    assert_memory_equal(b, g_rec.snap[200], n);
    free(b);
    level_destroy(&L);
}

// A rollback storm: save every frame, go back 1 to 8 frames at random and
// run again; the frames must end as the straight run did.
static void test_rollback_storm(void **state) {
    (void)state;
    for (int workers = 1; workers <= 2; ++workers) {
        level L;
        assert_true(level_build(&L, workers));
        unsigned char *ring[FRAMES + 1] = {0};
        size_t size[FRAMES + 1] = {0};
        uint64_t seed = 0x5eed0000u + (uint64_t)workers;
        int f = 0, rollbacks = 0;
        ring[0] = save_all(L.w, &size[0]);
        while (f < FRAMES) {
            frame(&L, f);
            ++f;
            free(ring[f]);
            ring[f] = save_all(L.w, &size[f]);
            assert_int_equal(ledge_world_hash(L.w), g_rec.hash[f]);
            seed = mix(seed);
            if (seed % 8 == 0 && f > 8) {
                int back = 1 + (int)((seed >> 8) % 8u);
                f -= back;
                assert_true(ledge_world_restore(L.w, ring[f], size[f]));
                rollbacks++;
            }
        }
        assert_true(rollbacks > 30);
        assert_int_equal(ledge_world_hash(L.w), g_rec.hash[FRAMES]);
        assert_int_equal(size[FRAMES], g_rec.size[FRAMES]);
        assert_memory_equal(ring[FRAMES], g_rec.snap[FRAMES], size[FRAMES]);
        for (int k = 0; k <= FRAMES; ++k) free(ring[k]);
        level_destroy(&L);
    }
}

// Ids: a body made after the save is invalid after the restore and made
// again gets the same id; one destroyed after it is valid again.
static void test_ids(void **state) {
    (void)state;
    level L;
    assert_true(level_build(&L, 1));
    for (int f = 0; f < 100; ++f) frame(&L, f);
    size_t n;
    unsigned char *b = save_all(L.w, &n);
    ledge_body_id gone = L.pile[7];
    ledge_body_destroy(L.w, gone);
    ledge_body_id fresh = make(L.w, 3, v(10, 10), false);
    ledge_body_id fresh2 = make(L.w, 4, v(12, 10), false);
    assert_true(ledge_body_is_valid(L.w, fresh) && ledge_body_is_valid(L.w, fresh2));
    assert_false(ledge_body_is_valid(L.w, gone));
    int bodies = ledge_world_body_count(L.w);
    assert_true(ledge_world_restore(L.w, b, n));
    assert_int_equal(ledge_world_body_count(L.w), bodies - 1);
    assert_true(ledge_body_is_valid(L.w, gone));
    assert_false(ledge_body_is_valid(L.w, fresh));
    assert_false(ledge_body_is_valid(L.w, fresh2));
    ledge_body_destroy(L.w, gone);
    ledge_body_id again = make(L.w, 3, v(10, 10), false);
    ledge_body_id again2 = make(L.w, 4, v(12, 10), false);
    assert_memory_equal(&again, &fresh, sizeof again);
    assert_memory_equal(&again2, &fresh2, sizeof again2);
    // Another world: its own serial number, the same slots and generations.
    level M;
    assert_true(level_build(&M, 1));
    assert_true(ledge_world_restore(M.w, b, n));
    assert_true(ledge_body_is_valid(M.w, M.pile[7]));
    assert_false(ledge_body_is_valid(M.w, L.pile[7])); // L's ids name L's bodies
    vec2s p = ledge_body_position(M.w, M.pile[7]);
    ledge_world_restore(L.w, b, n);
    vec2s q = ledge_body_position(L.w, L.pile[7]);
    assert_memory_equal(&p, &q, sizeof p);
    free(b);
    level_destroy(&M);
    level_destroy(&L);
}

// The rain scene in N's model and in the stacking model: resumed from the
// middle of the landing, the same hashes after every step.
static void test_resume_rain(void **state) {
    (void)state;
    for (int model = 0; model < 2; ++model) {
        for (int sleep = 0; sleep < 2; ++sleep) {
            ledge_world_def wd = ledge_default_world_def();
            wd.map_width = 34;
            wd.map_height = 44;
            wd.response_model = (ledge_response_model)model;
            wd.enable_sleep = sleep;
            ledge_world *w = ledge_world_create(&wd), *u = ledge_world_create(&wd);
            ledge_tilemap *maps[2] = {ledge_world_tilemap(w), ledge_world_tilemap(u)};
            for (int m = 0; m < 2; ++m) {
                for (int x = 0; x < 34; ++x) ledge_tilemap_set(maps[m], x, 0, LEDGE_TILE_FULL);
                for (int y = 0; y < 44; ++y) {
                    ledge_tilemap_set(maps[m], 0, y, LEDGE_TILE_FULL);
                    ledge_tilemap_set(maps[m], 33, y, LEDGE_TILE_FULL);
                }
            }
            ledge_body_def bd = ledge_default_body_def();
            bd.shape = ledge_make_circle(v(0, 0), 0.4f);
            bd.friction = 0.3f;
            for (int k = 0; k < 1000; ++k) {
                bd.position = v(1.5f + (float)(k % 32) * 0.95f + 0.03f * (float)(k % 3),
                                3.0f + (float)(k / 32) * 1.0f);
                ledge_body_create(w, &bd);
            }
            uint64_t hash[301];
            unsigned char *snap = NULL;
            size_t size = 0;
            for (int s = 0; s < 300; ++s) {
                ledge_world_step(w, DT);
                hash[s + 1] = ledge_world_hash(w);
                if (s + 1 == 90) snap = save_all(w, &size);
            }
            assert_true(ledge_world_restore(u, snap, size));
            assert_int_equal(ledge_world_hash(u), hash[90]);
            assert_true(ledge_world_restore(w, snap, size));
            for (int s = 90; s < 300; ++s) {
                ledge_world_step(w, DT);
                ledge_world_step(u, DT);
                if (ledge_world_hash(w) != hash[s + 1] || ledge_world_hash(u) != hash[s + 1])
                    fail_msg("rain (model %d, sleep %d) resumed at 90: step %d differs", model,
                             sleep, s + 1);
            }
            free(snap);
            ledge_world_destroy(w);
            ledge_world_destroy(u);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume_same_world), cmocka_unit_test(test_resume_other_world),
        cmocka_unit_test(test_rollback_storm),    cmocka_unit_test(test_ids),
        cmocka_unit_test(test_resume_rain),
    };
    return cmocka_run_group_tests(tests, setup_record, teardown_record);
}
