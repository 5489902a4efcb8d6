// Allocation failure and allocation counts, through the allocator hook
// (base.h), public API only.
//
// A scenario builds a world with tiles of several kinds, creates bodies of
// every shape, steps it long enough for the step's buffers to grow, destroys
// some bodies and creates others. It is run once per allocation k it makes,
// refusing the k-th allocation alone, then refusing the k-th and every later
// one: the call that met the refusal must return its documented error and
// log a sentence about the allocation, every other call must succeed, the
// world must keep working once memory is back (no NaN, the right bodies
// alive), and destroying it must free every allocation it made (counted by
// the hook, not left to LeakSanitizer alone).
//
// Then: once warm, stepping the rain scene allocates nothing.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scale.h"

#include <ledge/ledge.h>

#include "alloc_hook.h"
#include "log_capture.h"
#include "scenes.h"

#include <math.h>
#include <stdio.h>

#define MAX_BODIES 256

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// --- one call, watched -----------------------------------------------------

// What the run saw, for the test to assert on.
typedef struct run_record {
    int hit_calls;     ///< Calls during which an allocation was refused.
    int silent_steps;  ///< ledge_world_step calls that met a refusal and logged nothing.
    bool world_failed; ///< ledge_world_create returned NULL.
} run_record;

static long g_fail_before, g_log_before;

static void call_begin(void) {
    g_fail_before = g_alloc.failures;
    g_log_before = g_log.count;
}

// Checks the call just made: `ok` is whether it returned success. A call
// that met a refused allocation must have failed and said so; any other
// call must have succeeded. `checkable` is false for void calls (the step),
// whose only report is the log.
static void call_end(run_record *r, const char *fn, bool ok, bool checkable) {
    bool hit = g_alloc.failures > g_fail_before;
    bool logged = g_log.count > g_log_before;
    if (!hit) {
        if (checkable && !ok)
            fail_msg("%s failed without a refused allocation: %s", fn, g_log.last);
        return;
    }
    r->hit_calls++;
    if (checkable && ok) fail_msg("%s met a refused allocation but reported success", fn);
    if (!checkable && !logged) {
        r->silent_steps++;
        return;
    }
    if (!logged || !log_capture_says(NULL, "alloc")) {
        fail_msg("%s met a refused allocation; last log: \"%s\"", fn, logged ? g_log.last : "");
    }
}

// --- the scenario ------------------------------------------------------------

static void set_tiles(ledge_tilemap *map, int w, int h) {
    static const ledge_tile kinds[] = {
        LEDGE_TILE_45DEG_PP,       LEDGE_TILE_CONCAVE_PP,   LEDGE_TILE_CONVEX_PP,
        LEDGE_TILE_22DEG_SMALL_PP, LEDGE_TILE_22DEG_BIG_PP, LEDGE_TILE_67DEG_SMALL_NP,
        LEDGE_TILE_67DEG_BIG_NP,   LEDGE_TILE_HALF_U,       LEDGE_TILE_45DEG_NP,
    };
    bool ok = true;
    for (int y = 0; y < h; ++y) ok &= ledge_tilemap_set(map, 0, y, LEDGE_TILE_FULL);
    for (int y = 0; y < h; ++y) ok &= ledge_tilemap_set(map, w - 1, y, LEDGE_TILE_FULL);
    for (int x = 0; x < w; ++x) ok &= ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    for (int x = 1; x < w - 1; ++x) {
        ok &= ledge_tilemap_set(map, x, 1, kinds[x % (int)(sizeof kinds / sizeof kinds[0])]);
    }
    for (int x = 4; x < w - 4; x += 6) ok &= ledge_tilemap_set(map, x, 6, LEDGE_TILE_HALF_D);
    assert_true(ok);
}

static ledge_body_def body_def(int k) {
    static const vec2s tri[3] = {{{-0.3f, -0.25f}}, {{0.3f, -0.25f}}, {{0.0f, 0.3f}}};
    static const vec2s hex[6] = {{{0.3f, 0.0f}},  {{0.15f, 0.26f}},   {{-0.15f, 0.26f}},
                                 {{-0.3f, 0.0f}}, {{-0.15f, -0.26f}}, {{0.15f, -0.26f}}};
    ledge_body_def bd = ledge_default_body_def();
    switch (k % 4) {
    case 0:
        bd.shape = ledge_make_circle(v(0, 0), 0.3f);
        break;
    case 1:
        bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.25f));
        break;
    case 2:
        assert_true(ledge_make_polygon(tri, 3, &bd.shape));
        break;
    default:
        assert_true(ledge_make_polygon(hex, 6, &bd.shape));
        break;
    }
    bd.position = v(2.0f + (float)(k % 14) * 2.0f, 8.0f + (float)(k / 14) * 1.0f);
    bd.velocity = v((float)(k % 5) - 2.0f, 0.0f);
    bd.friction = 0.2f;
    bd.bounce = 0.1f;
    if (k % 17 == 5) bd.type = LEDGE_BODY_KINEMATIC;
    return bd;
}

typedef struct bodies {
    ledge_body_id id[MAX_BODIES];
    int count;
} bodies;

static void create_bodies(ledge_world *w, bodies *b, int first, int n, run_record *r) {
    for (int k = first; k < first + n; ++k) {
        ledge_body_def bd = body_def(k);
        call_begin();
        ledge_body_id id = ledge_body_create(w, &bd);
        bool ok = ledge_body_is_valid(w, id);
        call_end(r, "ledge_body_create", ok, true);
        if (ok) b->id[b->count++] = id;
        assert_true(b->count <= MAX_BODIES);
    }
}

static void step(ledge_world *w, int n, run_record *r) {
    for (int i = 0; i < n; ++i) {
        call_begin();
        ledge_world_step(w, 1.0f / 60.0f);
        call_end(r, "ledge_world_step", true, false);
    }
}

// Every body the scenario kept is alive, finite and inside the map's
// neighbourhood, and the world counts exactly those.
static void check_world(ledge_world *w, const bodies *b) {
    assert_int_equal(ledge_world_body_count(w), b->count);
    for (int i = 0; i < b->count; ++i) {
        assert_true(ledge_body_is_valid(w, b->id[i]));
        vec2s p = ledge_body_position(w, b->id[i]), u = ledge_body_velocity(w, b->id[i]);
        assert_true(isfinite(p.x) && isfinite(p.y) && isfinite(u.x) && isfinite(u.y));
        assert_true(p.x > -1.0f && p.x < 33.0f && p.y > -1.0f && p.y < 25.0f);
    }
}

// A sleeper keeps no contact with a cell an edit emptied: the edit woke
// it, even when the query index behind that wake was refused. (The
// contact index behind ledge_body_contacts may be refused too: it then
// reads the contacts without it, silently.)
static void check_sleepers(ledge_world *w, const bodies *b, run_record *r) {
    for (int i = 0; i < b->count; ++i) {
        if (ledge_body_is_awake(w, b->id[i])) continue;
        ledge_contact_data c[8];
        call_begin();
        int n = ledge_body_contacts(w, b->id[i], c, 8);
        call_end(r, "ledge_body_contacts", n >= 0, false);
        for (int k = 0; k < n && k < 8; ++k) {
            if (c[k].other.index1 != 0) continue;
            assert_int_not_equal(
                ledge_tilemap_get(ledge_world_tilemap(w), c[k].cell_x, c[k].cell_y),
                LEDGE_TILE_EMPTY);
        }
    }
}

// Runs the scenario with allocation `fail_at` refused (and every later one
// when `fail_rest`); 0 refuses nothing. Returns how many allocations it
// asked for, and asserts that nothing is left allocated at the end.
static long g_heal_calls; // allocations made before memory comes back
static bool g_sleep;      // the scenario's world lets bodies sleep (soon)

static long run_scenario(long fail_at, bool fail_rest, run_record *r) {
    memset(r, 0, sizeof *r);
    alloc_hook_start(fail_at, fail_rest);
    log_capture_start();
    ledge_world_def wd = ledge_default_world_def();
    wd.worker_count = test_workers();
    wd.map_width = 32;
    wd.map_height = 24;
    wd.enable_sleep = g_sleep;
    wd.sleep_time = 0.1f;
    call_begin();
    ledge_world *w = ledge_world_create(&wd);
    call_end(r, "ledge_world_create", w != NULL, true);
    if (w == NULL) {
        r->world_failed = true;
        assert_int_equal(g_alloc.live, 0);
        alloc_hook_stop();
        return g_alloc.calls;
    }
    set_tiles(ledge_world_tilemap(w), 32, 24);
    static bodies b;
    b.count = 0;
    create_bodies(w, &b, 0, 90, r); // 30 circles, 30 boxes, 30 polygons (two kinds)
    step(w, 60, r);
    // The slopes of row 1 go (30 edits): the bodies asleep on them wake.
    for (int x = 1; x < 31 && g_sleep; ++x)
        assert_true(ledge_tilemap_set(ledge_world_tilemap(w), x, 1, LEDGE_TILE_EMPTY));
    // Destroy every third body, then make new ones (slots are reused first).
    int kept = 0;
    for (int i = 0; i < b.count; ++i) {
        if (i % 3 == 1) {
            // Destroying a body wakes the sleepers it touches, through the
            // contact index (which may be refused: then read without it).
            call_begin();
            ledge_body_destroy(w, b.id[i]);
            call_end(r, "ledge_body_destroy", true, false);
            assert_false(ledge_body_is_valid(w, b.id[i]));
        } else {
            b.id[kept++] = b.id[i];
        }
    }
    b.count = kept;
    create_bodies(w, &b, 90, 60, r);
    step(w, 10, r);
    // Memory is back: the world must work as if nothing had happened. (A
    // lone refusal stays armed: its k may come later.)
    g_heal_calls = g_alloc.calls;
    if (fail_rest) alloc_hook_heal();
    create_bodies(w, &b, 150, 4, r);
    step(w, 20, r);
    check_sleepers(w, &b, r);
    check_world(w, &b);
    ledge_world_destroy(w);
    assert_int_equal(g_alloc.live, 0);
    alloc_hook_stop();
    return g_alloc.calls;
}

static void check_every_k(bool fail_rest) {
    run_record r;
    long total = run_scenario(0, false, &r);
    assert_int_equal(r.hit_calls, 0);
    // A world, its tilemap, body arrays growing several times, the broad
    // phase and the contact buffer: well over a handful.
    assert_true(total >= 20);
    // Refusing k and every later allocation only reaches the allocations
    // made before the scenario's healing point.
    long last = fail_rest ? g_heal_calls : total;
    int silent = 0, world_failed = 0;
    // Under valgrind every 8th k: memcheck needs the paths,
    // not every one of them.
    long stride = test_cases(10) == 10 ? 1 : 8;
    for (long k = 1; k <= last; k += stride) {
        run_scenario(k, fail_rest, &r);
        if (r.hit_calls < 1) fail_msg("allocation %ld of %ld was not refused", k, total);
        if (!fail_rest) assert_int_equal(r.hit_calls, 1);
        silent += r.silent_steps;
        world_failed += r.world_failed;
    }
    print_message(
        "%s: k = 1..%ld of %ld allocations in the scenario; world creation refused for %d k, "
        "ledge_world_step met a refused allocation without logging it %d times\n",
        fail_rest ? "fail k and every later allocation" : "fail allocation k alone", last, total,
        world_failed, silent);
}

static void test_fail_one_allocation(void **state) {
    (void)state;
    check_every_k(false);
}

// The same with sleeping bodies: the held contacts' buffer and the
// query behind the platforms' wake are allocations too.
static void test_fail_one_allocation_sleeping(void **state) {
    (void)state;
    g_sleep = true;
    check_every_k(false);
    check_every_k(true);
    g_sleep = false;
}

// A crate asleep on a ledge; the tile under it goes, and every allocation
// of the next step is refused, the query index's first among them (the
// world never needed it before: no query, no moving platform). The step
// says so in the log, and wakes every sleeper rather than none: the crate
// falls.
static void test_edit_wake_without_the_query_index(void **state) {
    (void)state;
    alloc_hook_start(0, false);
    log_capture_start();
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 16;
    wd.map_height = 8;
    wd.enable_sleep = true;
    wd.sleep_time = 0.1f;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_tilemap *m = ledge_world_tilemap(w);
    for (int x = 0; x < 16; ++x) assert_true(ledge_tilemap_set(m, x, 0, LEDGE_TILE_FULL));
    for (int x = 4; x < 9; ++x) assert_true(ledge_tilemap_set(m, x, 3, LEDGE_TILE_FULL));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
    bd.position = v(6.5f, 4.35f);
    ledge_body_id crate = ledge_body_create(w, &bd);
    for (int k = 0; k < 60; ++k) ledge_world_step(w, 1.0f / 60.0f);
    assert_false(ledge_body_is_awake(w, crate));
    assert_true(ledge_tilemap_set(m, 6, 3, LEDGE_TILE_EMPTY));
    g_alloc.fail_at = g_alloc.calls + 1;
    g_alloc.fail_rest = true;
    long failed = g_alloc.failures, logged = g_log.count;
    ledge_world_step(w, 1.0f / 60.0f);
    assert_true(g_alloc.failures > failed);
    assert_true(g_log.count > logged && log_capture_says(NULL, "query index"));
    assert_true(ledge_body_is_awake(w, crate));
    alloc_hook_heal();
    for (int k = 0; k < 60; ++k) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_position(w, crate).y < 2.0f); // on the floor (row 0's top at 1)
    ledge_world_destroy(w);
    assert_int_equal(g_alloc.live, 0);
    alloc_hook_stop();
}

static void test_fail_from_k_on(void **state) {
    (void)state;
    check_every_k(true);
}

// --- allocation-free stepping ------------------------------------------------

#define RAIN_N        1000
#define RAIN_WARMUP   120
#define RAIN_WARMUP_N 300
#define RAIN_STEPS    test_cases(600)

static void rain_allocations(ledge_friction_law model, int warmup, bool sleep) {
    alloc_hook_start(0, false);
    scene s;
    scene_friction = model;
    scene_sleep = sleep;
    scene_worker_count = test_workers();
    bool made = scene_rain(RAIN_N, &s);
    scene_friction = LEDGE_FRICTION_N;
    scene_sleep = false;
    assert_true(made);
    for (int i = 0; i < warmup; ++i) ledge_world_step(s.world, 1.0f / 60.0f);
    long before = g_alloc.calls;
    for (int i = 0; i < RAIN_STEPS; ++i) ledge_world_step(s.world, 1.0f / 60.0f);
    long during = g_alloc.calls - before;
    print_message("rain N=%d (%s model%s, %d workers): %ld allocations during %d steps after %d "
                  "warm-up steps\n",
                  RAIN_N, model == LEDGE_FRICTION_N ? "N" : "stacking", sleep ? ", sleeping" : "",
                  test_workers(), during, RAIN_STEPS, warmup);
    scene_destroy(&s);
    assert_int_equal(g_alloc.live, 0);
    alloc_hook_stop();
    assert_int_equal(during, 0);
}

static void test_rain_steps_allocate_nothing(void **state) {
    (void)state;
    rain_allocations(LEDGE_FRICTION_COULOMB, RAIN_WARMUP, false);
    // N's pile keeps sinking and finding contacts for longer: its contact
    // list reaches its size later.
    rain_allocations(LEDGE_FRICTION_N, RAIN_WARMUP_N, false);
    // A sleeping pile's held contacts grow while it falls asleep.
    rain_allocations(LEDGE_FRICTION_COULOMB, RAIN_WARMUP_N, true);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fail_one_allocation),
        cmocka_unit_test(test_fail_from_k_on),
        cmocka_unit_test(test_fail_one_allocation_sleeping),
        cmocka_unit_test(test_edit_wake_without_the_query_index),
        cmocka_unit_test(test_rain_steps_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
