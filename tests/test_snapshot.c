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
#include "world_state.h" // the reorderings counted (w->debug)

#define XXH_INLINE_ALL
#include <xxhash.h>

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
        vec2s at =
            v(3.0f + (float)(k % 8) * 0.8f + 0.05f * (float)(k % 3), 1.6f + (float)(k / 8) * 0.9f);
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
    for (int k = 0; k < s.end_count; ++k)
        h = fold_id(fold_id(h, s.end[k].sensor), s.end[k].visitor);
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

// Under valgrind (run.sh's memcheck of the suite), every third point only.
static int resume_stride(int normal) {
    return getenv("LEDGE_UNDER_VALGRIND") ? 3 * normal : normal;
}

// The same world, which has run to the end, back to frame f.
static void test_resume_same_world(void **state) {
    (void)state;
    level L;
    assert_true(level_build(&L, 1));
    for (int f = 0; f < FRAMES; ++f) frame(&L, f);
    for (size_t k = 0; k < sizeof g_resume_at / sizeof g_resume_at[0];
         k += (size_t)resume_stride(1)) {
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
        for (size_t k = 0; k < sizeof g_resume_at / sizeof g_resume_at[0];
             k += (size_t)resume_stride(4)) {
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
    for (int workers = 1; workers <= (getenv("LEDGE_UNDER_VALGRIND") ? 1 : 2); ++workers) {
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

// What the stages derive from the slots (dormant and classified blocks, the
// grid's filing, the contact and query indexes) and from the tiles (the
// remembered tile lookups) is forgotten by one path (ledge__world_forget)
// after a restore, a reordering of the slots by space and a tile edit. A
// restore just after a reordering, and a reordering just after a restore,
// in the world that ran and in a fresh one: every later frame as the
// straight run's.
static void test_restore_and_reorder(void **state) {
    (void)state;
    level L;
    assert_true(level_build(&L, 1));
    int reordered = -1; // the first frame after 150 whose step reordered the slots
    for (int f = 0; f < FRAMES && reordered < 0; ++f) {
        uint32_t before = L.w->debug.reorders;
        frame(&L, f);
        if (f + 1 > 150 && L.w->debug.reorders != before) reordered = f + 1;
    }
    assert_true(reordered > 150);
    // A restore after a reordering: the world's own state, of the new slots.
    assert_true(ledge_world_restore(L.w, g_rec.snap[reordered], g_rec.size[reordered]));
    check_resume(&L, reordered);
    // A reordering after a restore: the first step reorders again.
    for (int fresh = 0; fresh < 2; ++fresh) {
        level M;
        assert_true(level_build(&M, 1));
        if (!fresh) {
            for (int f = 0; f < 60; ++f) frame(&M, f);
        }
        int f = reordered - 1;
        assert_true(ledge_world_restore(M.w, g_rec.snap[f], g_rec.size[f]));
        adopt_made(&M, f);
        uint32_t before = M.w->debug.reorders;
        frame(&M, f);
        assert_true(M.w->debug.reorders == before + 1);
        assert_true(ledge_world_restore(M.w, g_rec.snap[f], g_rec.size[f]));
        check_resume(&M, f);
        level_destroy(&M);
    }
    level_destroy(&L);
}

// The rain of 1,000 circles in a walled bin, 34 x 44 cells (with its
// bodies, or only its tiles: a world a snapshot is restored into).
static ledge_body_id g_rain_first; // the rain's first body, in the last world made

static ledge_world *rain_world(const ledge_world_def *wd, bool bodies) {
    ledge_world *w = ledge_world_create(wd);
    assert_non_null(w);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 34; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    for (int y = 0; y < 44; ++y) {
        ledge_tilemap_set(map, 0, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, 33, y, LEDGE_TILE_FULL);
    }
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.4f);
    bd.friction = 0.3f;
    for (int k = 0; bodies && k < 1000; ++k) {
        bd.position = v(1.5f + (float)(k % 32) * 0.95f + 0.03f * (float)(k % 3),
                        3.0f + (float)(k / 32) * 1.0f);
        ledge_body_id id = ledge_body_create(w, &bd);
        if (k == 0) g_rain_first = id;
    }
    return w;
}

// The same in the rain with sleep on, once its sleepers make blocks of
// slots dormant (the stages skip them): a restore just after a reordering
// (in the world that has just made it) and a reordering just after a
// restore (in a world that ran to the end, and in a fresh one), then every
// later step's hash and the last snapshot's bytes as the straight run's.
enum { DORMANT_STEPS = 900 };

static int dormant_blocks(const ledge_world *w) {
    int n = 0;
    for (int b = 0; b < w->par.block_cap; ++b) n += w->par.dormant[b] != 0;
    return n;
}

// Before step 200 (when every block is dormant): the game lifts the first
// body (at the bottom left) onto the pile, which wakes it and stirs its
// block; the next reorderings move the slots again.
enum { LIFT_STEP = 200 };

static void rain_step(ledge_world *w, ledge_body_id first, int s) {
    if (s == LIFT_STEP) assert_true(ledge_body_set_position(w, first, v(16.5f, 40.0f)));
    ledge_world_step(w, DT);
}

static void resume_rain(ledge_world *w, int from, const uint64_t *hash, const unsigned char *last,
                        size_t last_size) {
    for (int s = from; s < DORMANT_STEPS; ++s) {
        ledge_world_step(w, DT);
        if (ledge_world_hash(w) != hash[s + 1])
            fail_msg("the rain resumed at step %d: step %d differs", from, s + 1);
    }
    size_t n;
    unsigned char *b = save_all(w, &n);
    assert_int_equal(n, last_size);
    assert_memory_equal(b, last, n);
    free(b);
}

static void test_restore_and_reorder_dormant(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 34;
    wd.map_height = 44;
    wd.enable_sleep = true;
    // The straight run, and its first reordering after blocks were dormant.
    static uint64_t hash[DORMANT_STEPS + 1];
    ledge_world *w = rain_world(&wd, true);
    int reordered = -1;
    bool dormant = false;
    ledge_body_id first = g_rain_first;
    for (int s = 0; s < DORMANT_STEPS; ++s) {
        uint32_t count = w->debug.reorders;
        rain_step(w, first, s);
        hash[s + 1] = ledge_world_hash(w);
        if (reordered < 0 && s >= LIFT_STEP && dormant && w->debug.reorders != count)
            reordered = s + 1;
        dormant = dormant_blocks(w) > 0;
    }
    assert_true(reordered > LIFT_STEP);
    size_t last_size, before_size, after_size;
    unsigned char *last = save_all(w, &last_size);
    // The step before the reordering, and the one that made it.
    ledge_world *u = rain_world(&wd, true);
    first = g_rain_first;
    for (int s = 0; s < reordered - 1; ++s) rain_step(u, first, s);
    unsigned char *before = save_all(u, &before_size);
    ledge_world_step(u, DT);
    unsigned char *after = save_all(u, &after_size);
    // A restore just after a reordering, in the world that made it.
    assert_true(ledge_world_restore(u, after, after_size));
    resume_rain(u, reordered, hash, last, last_size);
    // A reordering just after a restore.
    assert_true(ledge_world_restore(w, before, before_size));
    resume_rain(w, reordered - 1, hash, last, last_size);
    ledge_world *fresh = rain_world(&wd, false);
    assert_true(ledge_world_restore(fresh, before, before_size));
    uint32_t count = fresh->debug.reorders;
    resume_rain(fresh, reordered - 1, hash, last, last_size);
    assert_true(fresh->debug.reorders > count);
    free(last);
    free(before);
    free(after);
    ledge_world_destroy(w);
    ledge_world_destroy(u);
    ledge_world_destroy(fresh);
}

// The rain scene under both friction laws: resumed from the
// middle of the landing, the same hashes after every step.
static void test_resume_rain(void **state) {
    (void)state;
    for (int model = 0; model < 2; ++model) {
        for (int sleep = 0; sleep < 2; ++sleep) {
            if (getenv("LEDGE_UNDER_VALGRIND") && sleep != model) continue;
            ledge_world_def wd = ledge_default_world_def();
            wd.map_width = 34;
            wd.map_height = 44;
            wd.friction_law = (ledge_friction_law)model;
            wd.enable_sleep = sleep;
            ledge_world *w = rain_world(&wd, true), *u = rain_world(&wd, false);
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

// --- refusals ------------------------------------------------------------------

static level g_lv;
static unsigned char *g_snap;
static size_t g_size;

// A copy of g_snap with byte k changed, its checksum left as it was.
static unsigned char *changed(size_t k, unsigned char to) {
    unsigned char *b = malloc(g_size);
    memcpy(b, g_snap, g_size);
    b[k] = to;
    return b;
}

// The checksum of the bytes after it, written back (a crafted snapshot).
static uint64_t sum64(const unsigned char *p, size_t n);
static void mend(unsigned char *b, size_t n) {
    uint64_t sum = sum64(b + 24, n - 24);
    for (int k = 0; k < 8; ++k) b[16 + k] = (unsigned char)(sum >> (8 * k));
}

// A world of another def (one field changed) refusing g_snap.
static bool other_def(int field) {
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 40;
    wd.map_height = 24;
    wd.enable_sleep = true;
    wd.sleep_time = 0.3f;
    switch (field) {
    case 0:
        wd.map_width = 41;
        break;
    case 1:
        wd.tile_size = 0.5f;
        break;
    case 2:
        wd.cell_size = 2.0f;
        break;
    case 3:
        wd.friction_law = LEDGE_FRICTION_COULOMB;
        break;
    case 4:
        wd.gravity = v(0, -9.8f);
        break;
    case 5:
        wd.iterations = 5;
        break;
    case 6:
        wd.linear_slop = 0.01f;
        break;
    default:
        wd.sleep_time = 0.5f;
        break;
    }
    ledge_world *w = ledge_world_create(&wd);
    bool refused = !ledge_world_restore(w, g_snap, g_size);
    ledge_world_destroy(w);
    return refused;
}

static bool g_inside;
static ledge_response save_inside(ledge_body_id a, ledge_body_id b, int x, int y, vec2s n,
                                  ledge_response proposed, void *context) {
    (void)a, (void)b, (void)x, (void)y, (void)n;
    unsigned char tmp[16];
    if (!g_inside) {
        g_inside = true;
        log_capture_start();
        bool refused = ledge_world_save(context, tmp, sizeof tmp) == 0 &&
                       log_capture_says("ledge_world_save", "stepping");
        log_capture_start();
        refused = refused && !ledge_world_restore(context, g_snap, g_size) &&
                  log_capture_says("ledge_world_restore", "stepping");
        g_log.count = refused ? -100 : -200;
    }
    return proposed;
}

typedef struct refusal {
    const char *what;
    int kind; // 0 size, 1 save, 2 restore
    const char *fn, *word;
} refusal;

static const refusal g_refusals[] = {
    {"size of NULL", 0, "ledge_world_snapshot_size", "world is NULL"},
    {"save of NULL", 1, "ledge_world_save", "world is NULL"},
    {"save into NULL", 1, "ledge_world_save", "buffer is NULL"},
    {"save into a short buffer", 1, "ledge_world_save", "needs"},
    {"restore into NULL", 2, "ledge_world_restore", "world is NULL"},
    {"restore of NULL", 2, "ledge_world_restore", "buffer is NULL"},
    {"restore of 0 bytes", 2, "ledge_world_restore", "size 0"},
    {"restore of a piece of header", 2, "ledge_world_restore", "at least 88"},
    {"restore of a truncated snapshot", 2, "ledge_world_restore", "truncated"},
    {"restore with bytes after it", 2, "ledge_world_restore", "bytes after it"},
    {"restore of another kind of buffer", 2, "ledge_world_restore", "not a ledge snapshot"},
    {"restore of another format version", 2, "ledge_world_restore", "format version 1"},
    {"restore of a corrupted byte", 2, "ledge_world_restore", "checksum"},
    {"restore of a crafted tile run", 2, "ledge_world_restore", "corrupted: "},
    {"restore of a crafted contact", 2, "ledge_world_restore", "corrupted: "},
    {"restore into another map size", 2, "ledge_world_restore", "map is 40 x 24 cells"},
    {"restore into another tile size", 2, "ledge_world_restore", "tiles are"},
    {"restore into another cell size", 2, "ledge_world_restore", "cell_size"},
    {"restore into other response settings", 2, "ledge_world_restore", "answers contacts"},
    {"restore into another gravity", 2, "ledge_world_restore", "gravity"},
    {"restore into other iterations", 2, "ledge_world_restore", "iterations"},
    {"restore into another slop", 2, "ledge_world_restore", "linear_slop"},
    {"restore into other sleep settings", 2, "ledge_world_restore", "sleep settings"},
};

static bool refusal_call(int row) {
    ledge_world *w = g_lv.w;
    unsigned char small[100];
    memset(small, 0xAB, sizeof small);
    unsigned char *b = NULL;
    bool ok = false;
    switch (row) {
    case 0:
        return ledge_world_snapshot_size(NULL) == 0;
    case 1:
        return ledge_world_save(NULL, small, sizeof small) == 0;
    case 2:
        return ledge_world_save(w, NULL, 1000) == 0;
    case 3:
        ok = ledge_world_save(w, small, 60) == 0;
        for (int k = 60; k < 100; ++k) ok = ok && small[k] == 0xAB; // nothing past capacity
        return ok;
    case 4:
        return !ledge_world_restore(NULL, g_snap, g_size);
    case 5:
        return !ledge_world_restore(w, NULL, g_size);
    case 6:
        return !ledge_world_restore(w, g_snap, 0);
    case 7:
        return !ledge_world_restore(w, g_snap, 40);
    case 8:
        return !ledge_world_restore(w, g_snap, g_size - 1);
    case 9:
        b = malloc(g_size + 1);
        memcpy(b, g_snap, g_size);
        b[g_size] = 0;
        ok = !ledge_world_restore(w, b, g_size + 1);
        break;
    case 10:
        b = changed(0, 'X');
        ok = !ledge_world_restore(w, b, g_size);
        break;
    case 11:
        b = changed(4, 1); // (the first format)
        ok = !ledge_world_restore(w, b, g_size);
        break;
    case 12:
        b = changed(g_size / 2, g_snap[g_size / 2] ^ 0x10);
        ok = !ledge_world_restore(w, b, g_size);
        break;
    case 13:
    case 14: {
        // A byte of the bodies' section, or of the contacts, changed and
        // the checksum mended (found on a world of its own, since a change
        // that still makes sense is accepted): the sections' checks refuse.
        level scratch;
        if (!level_build(&scratch, 1)) return false;
        b = malloc(g_size);
        size_t from = row == 13 ? 120 : g_size - 300, at = 0;
        for (size_t k = from; k < g_size && at == 0; ++k) {
            memcpy(b, g_snap, g_size);
            b[k] ^= 0x7F;
            mend(b, g_size);
            log_capture_start();
            if (!ledge_world_restore(scratch.w, b, g_size) && strstr(g_log.last, "corrupted: "))
                at = k;
        }
        level_destroy(&scratch);
        memcpy(b, g_snap, g_size);
        b[at] ^= 0x7F;
        mend(b, g_size);
        log_capture_start();
        ok = at != 0 && !ledge_world_restore(w, b, g_size);
        break;
    }
    default:
        return other_def(row - 15);
    }
    free(b);
    return ok;
}

static void test_refusals(void **state) {
    (void)state;
    assert_true(level_build(&g_lv, 1));
    for (int f = 0; f < 120; ++f) frame(&g_lv, f);
    g_snap = save_all(g_lv.w, &g_size);
    for (size_t row = 0; row < sizeof g_refusals / sizeof g_refusals[0]; ++row) {
        const refusal *rf = &g_refusals[row];
        uint64_t hash = ledge_world_hash(g_lv.w);
        log_capture_start();
        bool refused = refusal_call((int)row);
        if (!refused || !log_capture_says(rf->fn, rf->word))
            fail_msg("%s: refused %d, message \"%s\"", rf->what, refused, g_log.last);
        printf("| %s | `%s` |\n", rf->what, g_log.last);
        // The world as it was.
        assert_int_equal(ledge_world_hash(g_lv.w), hash);
        size_t n;
        unsigned char *b = save_all(g_lv.w, &n);
        assert_int_equal(n, g_size);
        assert_memory_equal(b, g_snap, n);
        free(b);
    }
    // Inside the step (the pre-solve callback): both refused.
    ledge_world_set_pre_solve(g_lv.w, save_inside, g_lv.w);
    g_inside = false;
    for (int f = 120; f < 200 && !g_inside; ++f) frame(&g_lv, f);
    assert_true(g_inside);
    assert_int_equal(g_log.count, -100);
    ledge_world_set_pre_solve(g_lv.w, NULL, NULL);
    free(g_snap);
    level_destroy(&g_lv);
    log_capture_start();
    ledge_set_log_hook(NULL, NULL);
}

// Allocation failure at every allocation of a restore into an empty world
// (its store, contacts, held contacts, event lists and character table
// must all grow): refused and logged, the world as it was; then it works.
static void test_alloc_failures(void **state) {
    (void)state;
    alloc_hook_start(0, false);
    level L;
    assert_true(level_build(&L, 1));
    for (int f = 0; f < 250; ++f) frame(&L, f);
    size_t n;
    unsigned char *b = save_all(L.w, &n);
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 40;
    wd.map_height = 24;
    wd.enable_sleep = true;
    wd.sleep_time = 0.3f;
    int failures = 0;
    for (long k = 1;; ++k) {
        ledge_world *w = ledge_world_create(&wd);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle(v(0, 0), 0.5f);
        bd.position = v(5, 5);
        ledge_body_create(w, &bd);
        ledge_world_step(w, DT);
        size_t n0;
        unsigned char *b0 = save_all(w, &n0);
        log_capture_start();
        g_alloc.fail_at = g_alloc.calls + k;
        bool ok = ledge_world_restore(w, b, n);
        bool failed = g_alloc.failures > 0;
        alloc_hook_heal();
        g_alloc.failures = 0;
        if (ok) {
            assert_false(failed);
            size_t n1;
            unsigned char *b1 = save_all(w, &n1);
            assert_int_equal(n1, n);
            assert_memory_equal(b1, b, n);
            free(b1);
            free(b0);
            ledge_world_destroy(w);
            break;
        }
        assert_true(failed);
        assert_true(log_capture_says("ledge_world_restore", "allocation"));
        size_t n1;
        unsigned char *b1 = save_all(w, &n1);
        assert_int_equal(n1, n0);
        assert_memory_equal(b1, b0, n0);
        ledge_world_step(w, DT); // and it still steps
        free(b1);
        free(b0);
        ledge_world_destroy(w);
        failures++;
    }
    assert_true(failures >= 6);
    free(b);
    level_destroy(&L);
    assert_int_equal(g_alloc.live, 0);
    alloc_hook_stop();
    ledge_set_log_hook(NULL, NULL);
}

// The checksum is xxHash's XXH3 (64 bits, seed 0) of the bytes after it,
// taken here from xxhash.h itself, so that the test can craft snapshots and
// checks the library against xxHash, not against its own code.
static uint64_t rd64(const unsigned char *p) {
    uint64_t x = 0;
    for (int k = 7; k >= 0; --k) x = x << 8 | p[k];
    return x;
}
static uint64_t sum64(const unsigned char *p, size_t n) {
    return (uint64_t)XXH3_64bits(p, n);
}

static void test_checksum(void **state) {
    (void)state;
    // XXH3's published values: the empty input, and "abc".
    assert_true(sum64((const unsigned char *)"", 0) == 0x2D06800538D394C2ull);
    assert_true(sum64((const unsigned char *)"abc", 3) == 0x78AF5F94892F3950ull);
    // The header's checksum is this function of the bytes after it.
    level L;
    assert_true(level_build(&L, 1));
    for (int f = 0; f < 30; ++f) frame(&L, f);
    size_t n;
    unsigned char *b = save_all(L.w, &n);
    assert_true(rd64(b + 16) == sum64(b + 24, n - 24));
    assert_true(rd64(b + 8) == n);
    assert_memory_equal(b, "LDGS", 4);
    free(b);
    level_destroy(&L);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume_same_world),
        cmocka_unit_test(test_resume_other_world),
        cmocka_unit_test(test_rollback_storm),
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_restore_and_reorder),
        cmocka_unit_test(test_restore_and_reorder_dormant),
        cmocka_unit_test(test_resume_rain),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_alloc_failures),
        cmocka_unit_test(test_checksum),
    };
    return cmocka_run_group_tests(tests, setup_record, teardown_record);
}
