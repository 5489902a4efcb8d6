// The multi-core step (ledge_world_def.worker_count): the same world hash,
// after every step, for 1, 2, 3, 4 and 8 workers and for a game's own job
// system (enqueue_task / finish_task, splitting the work in odd ways), on
// the rain scene (both response models, with bodies destroyed and created
// on the way), the crowd scene and the demo's level (its bowl pile, moving
// platform, one-way platform, bullets and character); fast bodies moved by
// the workers against the serial order; and the refusals of bad worker
// fields. Run also under ThreadSanitizer (run.sh, build/tsan).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "broad.h" // ledge__splice_blocks
#include "game.h"
#include "order.h"    // ledge__order_set_period
#include "contacts.h" // the pool's counts of ranges run (ledge__workers_ranges)
#include "events.h"
#include "fast.h"
#include "par.h"
#include "slots.h"
#include "world_state.h"
#include "log_capture.h"
#include "rng.h"
#include "scale.h"
#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int counts[] = {1, 2, 3, 4, 8};
#define COUNTS     ((int)(sizeof counts / sizeof counts[0]))
#define CONFIGS    (COUNTS + 1) // the last: the game's job system
#define JOB_SYSTEM COUNTS

// --- a game's job system ---------------------------------------------------------

// A toy job system for the callbacks: it runs the ranges at once, on the
// calling thread, but split in a way the built-in pool never would
// (ranges of min_range items, last range first, worker indices cycling),
// so that a result depending on the split would show.
typedef struct job_system {
    int workers;
    long tasks;  ///< Tasks enqueued.
    long ranges; ///< Ranges run.
    int handle;  ///< What enqueue returns (its address).
    int finished;
} job_system;

static void *enqueue(ledge_task_fn *task, int items, int min_range, void *task_context,
                     void *user) {
    job_system *js = user;
    assert_true(items > 0 && min_range >= 1);
    js->tasks++;
    int ranges = (items + min_range - 1) / min_range;
    for (int r = ranges - 1; r >= 0; --r) {
        int start = r * min_range, end = start + min_range < items ? start + min_range : items;
        task(start, end, r % js->workers, task_context);
        js->ranges++;
    }
    // Every other task is "still running": finish_task must be called.
    return js->tasks % 2 ? &js->handle : NULL;
}

static void finish(void *user_task, void *user) {
    job_system *js = user;
    assert_ptr_equal(user_task, &js->handle);
    js->finished++;
}

static job_system g_jobs;

// Sets the scene builders' worker fields for a configuration.
static void use_config(int config) {
    memset(&g_jobs, 0, sizeof g_jobs);
    bool jobs = config == JOB_SYSTEM;
    g_jobs.workers = 3;
    scene_worker_count = jobs ? 3 : counts[config];
    scene_enqueue_task = jobs ? enqueue : NULL;
    scene_finish_task = jobs ? finish : NULL;
    scene_task_context = jobs ? &g_jobs : NULL;
}

static void use_default(void) {
    use_config(0);
    scene_friction = LEDGE_FRICTION_N;
}

// The job system was used (when it was the configuration), and every task
// it was told is running was finished.
static void check_jobs(int config) {
    if (config != JOB_SYSTEM) return;
    assert_true(g_jobs.tasks > 0 && g_jobs.ranges >= g_jobs.tasks);
    assert_int_equal(g_jobs.finished, (g_jobs.tasks + 1) / 2);
}

static const char *config_name(int config) {
    static char name[32];
    if (config == JOB_SYSTEM) return "job system";
    snprintf(name, sizeof name, "%d workers", counts[config]);
    return name;
}

// Compares each configuration's hashes (`steps` each) with 1 worker's.
static void compare(const char *scene_name, uint64_t (*hashes)[CONFIGS], int steps) {
    for (int c = 1; c < CONFIGS; ++c) {
        for (int k = 0; k < steps; ++k) {
            if (hashes[k][c] != hashes[k][0]) {
                fail_msg("%s: %s differ from 1 worker after step %d (%016llx, %016llx)", scene_name,
                         config_name(c), k + 1, (unsigned long long)hashes[k][c],
                         (unsigned long long)hashes[k][0]);
            }
        }
    }
    // The hash sees the state: the scene does change from step to step.
    assert_true(hashes[steps - 1][0] != hashes[steps / 2][0]);
    print_message("%s: %d steps, the same hash after every step for 1, 2, 3, 4, 8 workers and "
                  "a job system (last %016llx)\n",
                  scene_name, steps, (unsigned long long)hashes[steps - 1][0]);
}

// --- rain ----------------------------------------------------------------------

// Steps and frames: the full counts, or under a slow tool (ThreadSanitizer
// in run.sh, which sets LEDGE_UNDER_VALGRIND) a quarter of them.
static int scaled(int n) {
    return test_cases(10) == 10 ? n : n / 4;
}

#define RAIN_N     2500 // five blocks of bodies, dozens of grid rows
#define RAIN_STEPS (g_sleep_steps > 0 ? g_sleep_steps : scaled(240))
#define MAX_STEPS  1320

static uint64_t g_hash[MAX_STEPS][CONFIGS];

static long g_asleep;     // body-steps asleep (1 worker), when the scene sleeps
static int g_sleep_steps; // steps of the sleeping rain (0: RAIN_STEPS' own count)

static void rain_run(int config) {
    use_config(config);
    scene s;
    assert_true(scene_rain(RAIN_N, &s));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.4f);
    for (int k = 0; k < RAIN_STEPS; ++k) {
        // Churn, as test_determinism: a body destroyed and another made.
        if (k % 40 == 20) {
            int victim = (k / 40) * 37 % s.count;
            ledge_body_destroy(s.world, s.bodies[victim]);
            bd.position = (vec2s){{1.5f + (float)(k % 7), (float)s.height - 2.0f}};
            s.bodies[victim] = ledge_body_create(s.world, &bd);
            assert_true(ledge_body_is_valid(s.world, s.bodies[victim]));
        }
        ledge_world_step(s.world, 1.0f / 60.0f);
        g_hash[k][config] = ledge_world_hash(s.world);
        if (scene_sleep && config == 0) {
            for (int b = 0; b < s.count; ++b)
                g_asleep += !ledge_body_is_awake(s.world, s.bodies[b]);
        }
    }
    check_jobs(config);
    // The pool's threads took part (else equal hashes would prove nothing).
    // Not each of them: a thread that is never given a core before the
    // calling thread has taken every range of a task is closed out of it
    // (workers.c), which on 2 cores happens to some of 8 threads in a short run.
    if (config != JOB_SYSTEM && counts[config] > 1) {
        long others = 0;
        for (int t = 1; t < counts[config]; ++t)
            others += ledge__workers_ranges(s.world->par.workers, t);
        if (others == 0) fail_msg("%s: no thread but the caller ran a range", config_name(config));
    }
    scene_destroy(&s);
}

static void rain_model(ledge_friction_law model, const char *name) {
    scene_friction = model;
    for (int c = 0; c < CONFIGS; ++c) rain_run(c);
    use_default();
    compare(name, g_hash, RAIN_STEPS);
}

static void test_rain_stacking(void **state) {
    (void)state;
    rain_model(LEDGE_FRICTION_COULOMB, "rain 2500, Coulomb");
}

static void test_rain_n(void **state) {
    (void)state;
    rain_model(LEDGE_FRICTION_N, "rain 2500, default");
}

// Sleeping (world.h): bodies fall asleep and are woken (by the rain
// landing on them, and by the churn's destroyed bodies) at the same steps
// for every worker count. A short rest time, so that bodies sleep within
// the quarter-length run under ThreadSanitizer too; and never fewer than
// 200 steps (not scaled: the rain takes over 60 to land).
static void test_rain_sleeping(void **state) {
    (void)state;
    g_sleep_steps = 200;
    scene_sleep = true;
    scene_sleep_time = 0.1f;
    g_asleep = 0;
    rain_model(LEDGE_FRICTION_COULOMB, "rain 2500, Coulomb, sleeping");
    scene_sleep = false;
    scene_sleep_time = 0.5f;
    print_message("rain 2500, sleeping: %ld body-steps asleep over %d steps\n", g_asleep,
                  RAIN_STEPS);
    assert_true(g_asleep > (long)RAIN_STEPS * 10); // the sleeping path ran
    g_sleep_steps = 0;
}

// --- dormant blocks ----------------------------------------------------------------

// Blocks of slots whose bodies all sleep skip the stages that do nothing
// for a sleeper (sleep.c, "Dormant blocks"), and after a sleeper is woken
// by the pairs only the blocks of the pair search within its reach are
// searched again (broad.c). The oracle: the same world with both
// shortcuts off (the flags never set, the whole search made again), step
// by step, for 1 and 2 workers (the two ways the search lists its pairs). The scene:
// a yard of 3,000 crates in columns on a floor (six blocks of slots),
// which soon sleeps, and a game that stirs it: bodies destroyed and made
// (a new body in a dormant block's slot), a ball the slots' order by
// space moves into dormant blocks, setters called on sleepers
// (with and without a wake), an impulse, bodies put to sleep by the game,
// tile edits beside the top crates and a platform that passes over them.
#define DORMANT_STEPS 360
#define YARD_COLS     500
#define YARD_ROWS     6
#define YARD_SHAFT    200 // a column left empty

// The runs: flags off and on, for 1 and 2 workers, and for 1 worker
// without the slots' order by space (a body made in a dormant block's
// slot then stays there).
#define DORMANT_RUNS 6
static const int dormant_workers[DORMANT_RUNS] = {1, 2, 1, 2, 1, 1};
static const bool dormant_flags[DORMANT_RUNS] = {false, false, true, true, false, true};
static const bool dormant_ordered[DORMANT_RUNS] = {true, true, true, true, false, false};
static uint64_t g_dormant_hash[DORMANT_STEPS][DORMANT_RUNS];
static long g_researched[DORMANT_RUNS]; // searches made again by blocks, per run

// The world's dormant blocks now.
static int dormant_blocks(const ledge_world *w) {
    int n = 0;
    for (int b = 0; b < ledge__blocks(w->slot_count); ++b) n += w->par.dormant[b];
    return n;
}

typedef struct yard {
    ledge_world *world;
    ledge_body_id crates[YARD_COLS * YARD_ROWS];
    ledge_body_id platform;
    int gone;      ///< A crate destroyed and not made again yet (-1: none).
    vec2s gone_at; ///< Where it was.
} yard;

static void yard_build(yard *y, int workers) {
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = YARD_COLS + 5;
    wd.map_height = 50;
    wd.enable_sleep = true;
    wd.sleep_time = 0.1f;
    wd.friction_law = LEDGE_FRICTION_COULOMB;
    wd.worker_count = workers;
    y->world = ledge_world_create(&wd);
    assert_non_null(y->world);
    ledge_tilemap *map = ledge_world_tilemap(y->world);
    for (int x = 0; x < YARD_COLS + 5; ++x)
        assert_true(ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL));
    for (int h = 0; h < 50; ++h) {
        assert_true(ledge_tilemap_set(map, 0, h, LEDGE_TILE_FULL));
        assert_true(ledge_tilemap_set(map, YARD_COLS + 4, h, LEDGE_TILE_FULL));
    }
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.4f, 0.4f}});
    for (int r = 0; r < YARD_ROWS; ++r) {
        for (int c = 0; c < YARD_COLS; ++c) {
            if (c == YARD_SHAFT) continue;
            bd.position = (vec2s){{1.5f + 1.0f * (float)c, 1.4f + 0.8f * (float)r}};
            y->crates[r * YARD_COLS + c] = ledge_body_create(y->world, &bd);
        }
    }
    // A ball that floats up a shaft through the yard, from row to row: the
    // slots' order by space moves it from block to block, into dormant ones.
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.3f);
    bd.position = (vec2s){{1.5f + (float)YARD_SHAFT, 1.4f}};
    bd.velocity = (vec2s){{0.0f, 1.0f}};
    bd.gravity_scale = 0.0f;
    ledge_body_create(y->world, &bd);
    bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{2.0f, 0.25f}});
    bd.position = (vec2s){{4.0f, 1.4f + 0.8f * YARD_ROWS + 0.1f}};
    y->platform = ledge_body_create(y->world, &bd);
    y->gone = -1;
}

static void stir_the_yard(yard *y, int k) {
    ledge_world *w = y->world;
    int n = YARD_COLS * YARD_ROWS, i = (k * 613) % n;
    if (i % YARD_COLS == YARD_SHAFT) i++;
    // The platform sweeps over the yard, just above its top row.
    float x = 0.5f * YARD_COLS + (0.5f * YARD_COLS - 4.0f) * sinf(0.004f * (float)k);
    assert_true(ledge_body_set_target(w, y->platform, (vec2s){{x, 1.4f + 0.8f * YARD_ROWS + 0.3f}},
                                      1.0f / 60.0f));
    switch (k % 40) {
    case 10: // a crate destroyed (its block wakes, and sleeps again)...
        y->gone_at = ledge_body_position(w, y->crates[i]);
        ledge_body_destroy(w, y->crates[i]);
        y->gone = i;
        break;
    case 38: { // ... and made again in its place: in its old slot, in a dormant block
        if (y->gone < 0) break;
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.4f, 0.4f}});
        bd.position = y->gone_at;
        y->crates[y->gone] = ledge_body_create(w, &bd);
        assert_true(ledge_body_is_valid(w, y->crates[y->gone]));
        y->gone = -1;
        break;
    }
    case 20: // setters that do not wake
        assert_true(ledge_body_set_friction(w, y->crates[i], 0.9f));
        assert_true(ledge_body_set_drag(w, y->crates[(i + 1) % n], 0.5f));
        break;
    case 25: // and ones that do
        assert_true(ledge_body_apply_impulse(w, y->crates[i], (vec2s){{0.0f, 3.0f}}));
        assert_true(ledge_body_set_gravity_scale(w, y->crates[(i + 7) % n], 0.5f));
        break;
    case 30: // the game puts an awake body to sleep
        for (int j = 0; j < n; j += 97) {
            if (ledge_body_is_awake(w, y->crates[j])) {
                assert_true(ledge_body_set_awake(w, y->crates[j], false));
                break;
            }
        }
        break;
    case 35: { // a tile beside the top crates filled, or emptied again
        int cx = 1 + (k / 40) % (YARD_COLS + 3);
        assert_true(ledge_tilemap_set(ledge_world_tilemap(w), cx, YARD_ROWS + 2,
                                      (k / 40) % 2 ? LEDGE_TILE_EMPTY : LEDGE_TILE_FULL));
        break;
    }
    default:
        break;
    }
}

// Runs the stirred yard; returns the most dormant blocks seen.
static int dormant_run(int run) {
    yard *y = calloc(1, sizeof *y);
    assert_non_null(y);
    yard_build(y, dormant_workers[run]);
    bool dormant = dormant_flags[run];
    y->world->debug.dormant_on = dormant;
    y->world->debug.research_on = dormant;
    if (!dormant_ordered[run]) ledge__order_set_period(y->world, 0);
    int most = 0;
    for (int k = 0; k < DORMANT_STEPS; ++k) {
        stir_the_yard(y, k);
        ledge_world_step(y->world, 1.0f / 60.0f);
        g_dormant_hash[k][run] = ledge_world_hash(y->world);
        int n = dormant_blocks(y->world);
        most = n > most ? n : most;
        if (!dormant) assert_int_equal(n, 0);
    }
    g_researched[run] = y->world->debug.researched;
    ledge_world_destroy(y->world);
    free(y);
    return most;
}

static void test_dormant_blocks(void **state) {
    (void)state;
    int most[DORMANT_RUNS];
    for (int r = 0; r < DORMANT_RUNS; ++r) most[r] = dormant_run(r);
    for (int k = 0; k < DORMANT_STEPS; ++k) {
        for (int r = 1; r < DORMANT_RUNS; ++r) {
            int oracle = dormant_ordered[r] ? 0 : 4; // the same world with the flags off
            if (g_dormant_hash[k][r] != g_dormant_hash[k][oracle])
                fail_msg("dormant blocks: run %d (%d workers, shortcuts %s, %s) differs after "
                         "step %d",
                         r, dormant_workers[r], dormant_flags[r] ? "on" : "off",
                         dormant_ordered[r] ? "ordered" : "not ordered", k + 1);
        }
    }
    assert_true(g_dormant_hash[DORMANT_STEPS - 1][0] != g_dormant_hash[DORMANT_STEPS / 2][0]);
    print_message("dormant blocks: %d steps of a stirred yard of crates, the same hash with the "
                  "shortcuts off and on, 1 and 2 workers, ordered or not; up to %d and %d of %d "
                  "blocks dormant; %ld and %ld searches made again by blocks\n",
                  DORMANT_STEPS, most[2], most[5], ledge__blocks(YARD_COLS * YARD_ROWS + 2),
                  g_researched[2], g_researched[3]);
    assert_true(most[2] >= 3 && most[3] >= 3 && most[5] >= 3); // the skipping ran
    assert_true(g_researched[2] > 0 && g_researched[3] > 0 && g_researched[5] > 0);
    assert_true(g_researched[0] == 0 && g_researched[1] == 0 && g_researched[4] == 0);
}

// The same oracle over seeded random worlds: walled maps with random tiles
// under gravity in any of the four directions, a mix of circles, boxes and
// hexagons (some static, a few kinematic ones moving), either response
// model, and a game that destroys, makes, pushes, puts to sleep and edits
// at random. Each world runs with the flags off and on; the hashes must
// agree after every step. Bodies start on a loose lattice, so that they
// land in a few layers and most of a world can sleep.
#define RANDOM_WORLDS 24
#define RANDOM_STEPS  300

static ledge_shape random_shape(void) {
    switch (rng_int(0, 2)) {
    case 0:
        return ledge_make_circle((vec2s){{0, 0}}, rng_range(0.2, 0.45));
    case 1:
        return ledge_make_box((vec2s){{0, 0}},
                              (vec2s){{rng_range(0.2, 0.45), rng_range(0.2, 0.45)}});
    default: {
        float r = rng_range(0.25, 0.45);
        vec2s hexagon[6];
        for (int k = 0; k < 6; ++k) {
            float a = 1.04719755f * (float)k;
            hexagon[k] = (vec2s){{r * cosf(a), r * sinf(a)}};
        }
        ledge_shape shape;
        assert_true(ledge_make_polygon(hexagon, 6, &shape));
        return shape;
    }
    }
}

static ledge_body_id random_body(ledge_world *w, int type, vec2s at) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = (ledge_body_type)type;
    bd.shape = random_shape();
    bd.position = at;
    bd.friction = (float)rng_int(0, 4) * 0.25f;
    bd.bounce = (float)rng_int(0, 2) * 0.2f;
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_true(ledge_body_is_valid(w, id));
    return id;
}

// World `seed` stepped RANDOM_STEPS times (the shortcuts on or off), its
// hashes into `hashes`; returns the most dormant blocks seen, and adds the
// searches made again by blocks to *researched.
static int random_world_run(uint64_t seed, bool dormant, uint64_t *hashes, long *researched) {
    g_rng = seed;
    enum { W = 200, H = 20, MOST = 1200 };
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = W;
    wd.map_height = H;
    wd.enable_sleep = true;
    wd.sleep_time = (float)rng_int(1, 2) * 0.05f;
    static const float g[4][2] = {{0, -10}, {0, 10}, {-10, 0}, {10, 0}};
    int d = rng_int(0, 3);
    wd.gravity = (vec2s){{g[d][0], g[d][1]}};
    wd.friction_law = rng_int(0, 3) ? LEDGE_FRICTION_COULOMB : LEDGE_FRICTION_N;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    w->debug.dormant_on = dormant;
    w->debug.research_on = dormant;
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < W; ++x) {
        for (int y = 0; y < H; ++y) {
            int tile = x == 0 || y == 0 || x == W - 1 || y == H - 1 ? LEDGE_TILE_FULL
                       : rng_unit() < 0.04 ? rng_int(1, LEDGE_TILE_COUNT - 1)
                                           : LEDGE_TILE_EMPTY;
            assert_true(ledge_tilemap_set(map, x, y, (ledge_tile_id)tile));
        }
    }
    static ledge_body_id ids[2][MOST];
    ledge_body_id *id = ids[dormant];
    int n = 0;
    for (int y = 2; y < H - 2; y += 3) { // a loose lattice: a few layers once fallen
        for (int x = 2; x < W - 2; x += 2) {
            int type = rng_unit() < 0.05    ? LEDGE_BODY_STATIC
                       : rng_unit() < 0.002 ? LEDGE_BODY_KINEMATIC
                                            : LEDGE_BODY_DYNAMIC;
            id[n++] = random_body(w, type, (vec2s){{(float)x + 0.5f, (float)y + 0.5f}});
        }
    }
    int most = 0;
    for (int k = 0; k < RANDOM_STEPS; ++k) {
        int i = rng_int(0, n - 1);
        bool valid = ledge_body_is_valid(w, id[i]);
        double roll = rng_unit() * 4.0; // a stir in about one step of thirty
        if (valid && ledge_body_get_type(w, id[i]) == LEDGE_BODY_KINEMATIC && roll < 0.4) {
            ledge_body_set_velocity(w, id[i], (vec2s){{rng_range(-3, 3), rng_range(-3, 3)}});
        } else if (roll < 0.03 && valid) {
            ledge_body_destroy(w, id[i]);
        } else if (roll < 0.06 && n < MOST) {
            id[n++] = random_body(w, LEDGE_BODY_DYNAMIC,
                                  (vec2s){{rng_range(2, W - 2), rng_range(2, H - 2)}});
        } else if (roll < 0.08 && valid) {
            ledge_body_apply_impulse(w, id[i], (vec2s){{rng_range(-2, 2), rng_range(-2, 2)}});
        } else if (roll < 0.10 && valid && ledge_body_get_type(w, id[i]) == LEDGE_BODY_DYNAMIC) {
            ledge_body_set_awake(w, id[i], false);
        } else if (roll < 0.12) {
            int x = rng_int(1, W - 2), y = rng_int(1, H - 2);
            ledge_tilemap_set(map, x, y, (ledge_tile_id)rng_int(0, LEDGE_TILE_COUNT - 1));
        } else if (roll < 0.13 && valid) {
            ledge_body_set_friction(w, id[i], rng_range(0, 1));
        }
        ledge_world_step(w, 1.0f / 60.0f);
        hashes[k] = ledge_world_hash(w);
        int blocks = dormant_blocks(w);
        most = blocks > most ? blocks : most;
    }
    *researched += w->debug.researched;
    ledge_world_destroy(w);
    return most;
}

static void test_dormant_random_worlds(void **state) {
    (void)state;
    static uint64_t off[RANDOM_STEPS], on[RANDOM_STEPS];
    int worlds = test_cases(RANDOM_WORLDS), with_dormant = 0;
    long researched[2] = {0, 0};
    for (int s = 0; s < worlds; ++s) {
        uint64_t seed = 0xd0c0ffee00ull + (uint64_t)s;
        random_world_run(seed, false, off, &researched[0]);
        with_dormant += random_world_run(seed, true, on, &researched[1]) > 0;
        for (int k = 0; k < RANDOM_STEPS; ++k) {
            if (off[k] != on[k])
                fail_msg("random world %d: the shortcuts on differ from off after step %d", s,
                         k + 1);
        }
    }
    print_message("dormant blocks: %d random worlds of %d steps, the same hash with the "
                  "shortcuts off and on; %d had dormant blocks, %ld searches made again by "
                  "blocks\n",
                  worlds, RANDOM_STEPS, with_dormant, researched[1]);
    assert_true(researched[0] == 0 && researched[1] > 0);
    // Random heaps keep some bodies awake in most blocks (N's model keeps
    // piles creeping; stacked mixed shapes settle slowly): the yard above
    // is the test that exercises dormant blocks most, these vary the rest.
    if (worlds == RANDOM_WORLDS) assert_true(with_dormant >= 2);
}

// --- the boxes of dormant blocks, reused ----------------------------------------------

// A dormant block's boxes, grid coordinates, flags and cells are kept
// from the step that found them while it was dormant (broad.c, "classify"
// and "count_run"), until the block is stirred or what they depend on
// besides its bodies changes. The oracle: the same world with the reuse
// off, stepped beside it; after every step the hashes and each body's
// broad-phase scratch (filed or big, box centre, grid coordinates, active,
// cell) must agree. The world: a fixed cell of 1 m and crates of half size
// 0.48 (filed, 0.96 + margin 0.02 < 1), several blocks of them asleep on
// the floor under any of four gravities, sleep_time 0 (a woken body may
// sleep again in the step that woke it) or 0.05 s: 8 worlds (under
// valgrind and ThreadSanitizer, a tenth of them). The game, at
// random: drops balls on the pile, moves, refilters and destroys
// sleepers, sets and clears a pre-solve callback, and once makes a large
// dynamic circle far away, which widens the margin so that every crate is
// now too large for a cell (a change of the key, with the crates' blocks
// dormant).
#define REUSE_COLS   40
#define REUSE_ROWS   15
#define REUSE_STEPS  240
#define REUSE_WORLDS 8

static ledge_response reuse_pre_solve(ledge_body_id body, ledge_body_id other, int cell_x,
                                      int cell_y, vec2s normal, ledge_response proposed,
                                      void *context) {
    (void)body, (void)other, (void)cell_x, (void)cell_y, (void)normal, (void)context;
    return proposed;
}

typedef struct reuse_world {
    ledge_world *w;
    ledge_body_id ids[REUSE_COLS * REUSE_ROWS + REUSE_STEPS];
    int n;
} reuse_world;

static void reuse_build(reuse_world *r, bool reuse, int gravity, float sleep_time, int workers) {
    static const float g[4][2] = {{0, -10}, {0, 10}, {-10, 0}, {10, 0}};
    enum { SIDE = 80 };
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = (vec2s){{g[gravity][0], g[gravity][1]}};
    wd.enable_sleep = true;
    wd.sleep_time = sleep_time;
    wd.cell_size = 1.0f;
    wd.worker_count = workers;
    wd.friction_law = LEDGE_FRICTION_COULOMB;
    r->w = scene_walled_world(wd, SIDE);
    assert_non_null(r->w);
    r->w->debug.reuse_on = reuse;
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.45f, 0.45f}});
    r->n = 0;
    // Columns against the wall gravity points at, touching: they land in
    // a few steps and sleep.
    for (int row = 0; row < REUSE_ROWS; ++row) {
        for (int col = 0; col < REUSE_COLS; ++col) {
            float along = 10.0f + (float)col, off = 1.5f + (float)row;
            vec2s at = gravity == 0   ? (vec2s){{along, off}}
                       : gravity == 1 ? (vec2s){{along, SIDE - off}}
                       : gravity == 2 ? (vec2s){{off, along}}
                                      : (vec2s){{SIDE - off, along}};
            bd.position = at;
            r->ids[r->n++] = ledge_body_create(r->w, &bd);
            assert_true(ledge_body_is_valid(r->w, r->ids[r->n - 1]));
        }
    }
}

// One of the game's moves of step k (the same for both worlds: the rng is
// seeded per step).
static void reuse_game(reuse_world *r, int k, uint64_t seed) {
    g_rng = seed * 1000003ull + (uint64_t)k;
    ledge_world *w = r->w;
    int i = rng_int(0, REUSE_COLS * REUSE_ROWS - 1);
    bool valid = ledge_body_is_valid(w, r->ids[i]);
    int roll = k < 60 ? 99 : rng_int(0, 143); // a move in about one step of 24, after 60
    if (k == REUSE_STEPS / 2) {               // the margin widens: a large circle, far away
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle((vec2s){{0, 0}}, 1.5f);
        bd.position = (vec2s){{70.0f, 70.0f}};
        bd.gravity_scale = 0.0f;
        r->ids[r->n++] = ledge_body_create(w, &bd);
    } else if (roll == 0 && valid) {
        vec2s p = ledge_body_position(w, r->ids[i]);
        ledge_body_set_position(w, r->ids[i], (vec2s){{p.x + 0.01f, p.y + 0.01f}});
    } else if (roll == 1 && valid) {
        ledge_filter f = ledge_default_filter();
        f.group = rng_int(0, 1) ? -1 : 0;
        ledge_body_set_filter(w, r->ids[i], f);
    } else if (roll == 2 && valid) {
        ledge_body_destroy(w, r->ids[i]);
    } else if (roll == 3) {
        ledge_world_set_pre_solve(w, rng_int(0, 1) ? reuse_pre_solve : NULL, NULL);
    } else if (roll <= 5 && r->n < (int)(sizeof r->ids / sizeof r->ids[0])) {
        // A ball over a random column of the pile.
        vec2s p = valid ? ledge_body_position(w, r->ids[i]) : (vec2s){{40.0f, 40.0f}};
        vec2s up = v2_scale(w->up, 3.0f);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.3f);
        bd.position = v2_add(p, up);
        r->ids[r->n++] = ledge_body_create(w, &bd);
    }
}

// Every body's broad-phase scratch in both worlds (slots are the same: the
// same calls in the same order).
static void reuse_compare(const ledge_world *a, const ledge_world *b, const char *what, int k) {
    assert_int_equal(a->slot_count, b->slot_count);
    for (int i = 0; i < a->slot_count; ++i) {
        if (!a->alive[i] || a->frozen[i]) continue;
        bool same = a->step.in_grid[i] == b->step.in_grid[i];
        if (same && a->step.in_grid[i]) {
            same = memcmp(&a->step.box_center[i], &b->step.box_center[i], sizeof(vec2s)) == 0 &&
                   memcmp(&a->step.grid_center[i], &b->step.grid_center[i], sizeof(vec2s)) == 0 &&
                   a->step.active[i] == b->step.active[i] &&
                   a->grid.cell_of[i] == b->grid.cell_of[i];
        }
        if (!same)
            fail_msg("%s: slot %d's broad-phase scratch differs after step %d", what, i, k + 1);
    }
    // The filing: the same list of bodies by cell (a kept filing is the
    // one the step would have made).
    assert_int_equal(a->grid.count, b->grid.count);
    if (memcmp(a->grid.sorted, b->grid.sorted, sizeof(int) * (size_t)a->grid.count) != 0)
        fail_msg("%s: the grid's sorted bodies differ after step %d", what, k + 1);
}

static int reusable_blocks(const ledge_world *w) {
    int n = 0;
    for (int b = 0; b < ledge__blocks(w->slot_count); ++b)
        n += w->par.dormant[b] && w->broad->classified[b] == w->broad->classify_stamp &&
             w->broad->counted[b] == w->broad->grid_stamp;
    return n;
}

static void test_reuse_dormant_blocks(void **state) {
    (void)state;
    static const float sleep_times[2] = {0.0f, 0.05f};
    long reused = 0, runs = 0, kept = 0;
    int made_big = 0, worlds = test_cases(REUSE_WORLDS);
    for (int gravity = 0; gravity < 4; ++gravity) {
        for (int t = 0; t < 2 && runs < worlds; ++t) {
            int workers = 1 + (gravity + t) % 2;
            reuse_world *off = calloc(1, sizeof *off), *on = calloc(1, sizeof *on);
            assert_non_null(off);
            assert_non_null(on);
            reuse_build(off, false, gravity, sleep_times[t], workers);
            reuse_build(on, true, gravity, sleep_times[t], workers);
            char what[96];
            snprintf(what, sizeof what, "reuse: gravity %d, sleep_time %g, %d workers", gravity,
                     (double)sleep_times[t], workers);
            uint64_t seed = (uint64_t)(gravity * 2 + t + 1);
            long kept_before = 0;
            for (int k = 0; k < REUSE_STEPS; ++k) {
                reuse_game(off, k, seed);
                reuse_game(on, k, seed);
                ledge_world_step(off->w, 1.0f / 60.0f);
                ledge_world_step(on->w, 1.0f / 60.0f);
                if (ledge_world_hash(off->w) != ledge_world_hash(on->w))
                    fail_msg("%s: the hashes differ after step %d", what, k + 1);
                reuse_compare(off->w, on->w, what, k);
                reused += reusable_blocks(on->w);
                kept += on->w->grid.kept - kept_before;
                kept_before = on->w->grid.kept;
                assert_int_equal(off->w->grid.kept, 0);
                assert_int_equal(reusable_blocks(off->w), 0);
            }
            // The crates are now too large for a cell (the big bodies' list).
            made_big += on->w->step.big_count >= REUSE_COLS * REUSE_ROWS / 2;
            runs++;
            ledge_world_destroy(off->w);
            ledge_world_destroy(on->w);
            free(off);
            free(on);
        }
    }
    print_message("reuse: %ld worlds of %d steps, the same hash, broad-phase scratch and filing "
                  "with the dormant blocks' boxes reused and the unchanged filings kept as with "
                  "both found again; %ld block-steps reused, %ld filings kept; the crates became "
                  "big bodies in %d worlds\n",
                  runs, REUSE_STEPS, reused, kept, made_big);
    assert_true(reused > 0 && kept > 0);
    assert_int_equal(made_big, runs);
}

// --- the search again by blocks ----------------------------------------------------

// The shortcut where a woken body's reach crosses from one block of the
// sorted grid bodies into the next, which the worlds above meet seldom: a
// row of 1,500 sleeping circles on a floor (three blocks of the sorted
// list), and a ball dropped every 8 steps somewhere along the row, most
// near the blocks' boundaries, some past the row's ends (the first and
// last sleepers are in other blocks than the balls). Each ball, filed in
// the row above, finds the sleepers below it as inactive partners; once
// they wake, they find it themselves, and the ball's block, in the next
// column of cells, must be searched again. The oracle: the whole search
// made again. 1 and 2 workers (the in-place list and the blocks' lists).
#define ROW_BODIES 1500
#define ROW_STEPS  240

static void row_run(int workers, bool shortcut, uint64_t *hashes, long *researched) {
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = (int)(0.81f * ROW_BODIES) + 4;
    wd.map_height = 12;
    wd.enable_sleep = true;
    wd.sleep_time = 0.1f;
    wd.worker_count = workers;
    wd.friction_law = LEDGE_FRICTION_COULOMB;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    w->debug.research_on = shortcut;
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < wd.map_width; ++x)
        assert_true(ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.4f);
    for (int k = 0; k < ROW_BODIES; ++k) {
        bd.position = (vec2s){{2.0f + 0.81f * (float)k, 1.4f}};
        assert_true(ledge_body_is_valid(w, ledge_body_create(w, &bd)));
    }
    g_rng = 0x70b10c5ull;
    for (int k = 0; k < ROW_STEPS; ++k) {
        if (k >= 30 && k % 8 == 0) {
            // Near one of the two boundaries between blocks, anywhere, or
            // past either end of the row (a ball that wakes only the
            // sleeper on one side of it).
            int roll = rng_int(0, 7);
            int at = roll == 0   ? -1
                     : roll == 1 ? ROW_BODIES
                     : roll == 2 ? rng_int(0, ROW_BODIES - 1)
                                 : rng_int(1, 2) * 512 + rng_int(-12, 12);
            bd.position = (vec2s){{2.0f + 0.81f * (float)at + rng_range(-0.4, 0.4), 4.0f}};
            assert_true(ledge_body_is_valid(w, ledge_body_create(w, &bd)));
        }
        ledge_world_step(w, 1.0f / 60.0f);
        hashes[k] = ledge_world_hash(w);
    }
    *researched += w->debug.researched;
    ledge_world_destroy(w);
}

static void test_research_across_blocks(void **state) {
    (void)state;
    static uint64_t oracle[ROW_STEPS], on[ROW_STEPS];
    long researched[2] = {0, 0};
    for (int workers = 1; workers <= 2; ++workers) {
        row_run(workers, false, oracle, &researched[0]);
        row_run(workers, true, on, &researched[1]);
        for (int k = 0; k < ROW_STEPS; ++k) {
            if (on[k] != oracle[k])
                fail_msg("a row of sleepers, %d workers: the search again by blocks differs from "
                         "the whole search after step %d",
                         workers, k + 1);
        }
    }
    print_message("a row of %d sleepers hit by balls: the same hash with the search made again "
                  "by blocks (%ld times) and whole, 1 and 2 workers\n",
                  ROW_BODIES, researched[1]);
    assert_true(researched[0] == 0 && researched[1] >= 20);
}

// The splice itself, against a list built afresh: 5,000 seeded lists of
// 1 to 24 segments of 0 to 6 pairs, each segment replaced or kept at
// random by 0 to 8 fresh pairs, so that segments move both ways (the
// search again only ever moves them right) and lists grow and shrink.
static void test_splice_blocks(void **state) {
    (void)state;
    enum { MOST = 24 * 8 };
    g_rng = 0x5911ceull;
    int moved_left = 0, moved_right = 0, cases = test_cases(5000);
    for (int c = 0; c < cases; ++c) {
        int blocks = rng_int(1, 24), start[24], to[24], fresh_start[24], n = 0, f = 0;
        uint8_t again[24];
        ledge__pair fresh[MOST], expect[MOST];
        int cap = rng_int(0, 1) ? 8 : 256, e = 0;
        // (The library's allocator: the splice grows the list through it.)
        ledge__pair *list = ledge__alloc(sizeof *list * (size_t)cap);
        assert_non_null(list);
        for (int b = 0; b < blocks; ++b) {
            start[b] = n;
            int old = rng_int(0, 6);
            for (int k = 0; k < old; ++k) {
                if (n == cap) { // (8 room: grown here as the step grows its lists)
                    ledge__pair *more = ledge__alloc(sizeof *list * (size_t)(2 * cap));
                    assert_non_null(more);
                    memcpy(more, list, sizeof *list * (size_t)n);
                    ledge__free(list);
                    list = more;
                    cap *= 2;
                }
                memset(&list[n], 0, sizeof list[n]);
                list[n].a = b, list[n].b = k, list[n++].kind = 1;
            }
            again[b] = (uint8_t)rng_int(0, 1);
            fresh_start[b] = f;
            int made = again[b] ? rng_int(0, 8) : 0;
            for (int k = 0; k < made; ++k) {
                memset(&fresh[f], 0, sizeof fresh[f]);
                fresh[f].a = b, fresh[f].b = 100 + k, fresh[f++].kind = 2;
            }
            for (int k = 0; k < (again[b] ? made : old); ++k) {
                expect[e++] = again[b] ? fresh[fresh_start[b] + k] : list[start[b] + k];
            }
        }
        ledge__fresh_list fl = {fresh, fresh_start, 1, f};
        assert_true(ledge__splice_blocks(&list, &n, &cap, start, again, &fl, blocks, to));
        assert_int_equal(n, e);
        for (int k = 0; k < e; ++k) {
            if (list[k].a != expect[k].a || list[k].b != expect[k].b ||
                list[k].kind != expect[k].kind)
                fail_msg("case %d: pair %d is (%d, %d, %d), not (%d, %d, %d)", c, k, list[k].a,
                         list[k].b, list[k].kind, expect[k].a, expect[k].b, expect[k].kind);
        }
        for (int b = 0; b < blocks; ++b) {
            moved_left += !again[b] && to[b] < start[b];
            moved_right += !again[b] && to[b] > start[b];
        }
        ledge__free(list);
    }
    print_message("splice: %d seeded lists rebuilt as a fresh build gives them (%d segments "
                  "moved left, %d right)\n",
                  cases, moved_left, moved_right);
    assert_true(moved_left > 0 && moved_right > 0);
}

// --- touch events ----------------------------------------------------------------

// The workers flag the blocks of contacts that hold a touch of a body that
// asked for events, and the calling thread reads only those (events.c).
// The oracle: the distinct touches of the contacts themselves, counted
// here. A few bodies of the rain ask for events, so that most blocks of
// contacts hold none (a flag that misses a block would lose its touches).
// Not scaled under ThreadSanitizer: a quarter of the steps ends before the
// rain reaches the floor, with no touches to check.
#define TOUCH_STEPS 200

static int key_cmp(const void *x, const void *y) {
    return memcmp(x, y, sizeof(ledge__key));
}

// The distinct touches of bodies with events among the contacts.
static int touches_of_contacts(const ledge_world *w, ledge__key *keys) {
    int n = 0;
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        int a = c->a, b = c->b;
        if (!(w->touch_events[a] || (b >= 0 && w->touch_events[b]))) continue;
        if (b >= 0 && w->handle[b] < w->handle[a]) a = c->b, b = c->a;
        ledge__key key = {w->handle[a],
                          (int32_t)w->generation[a],
                          b >= 0 ? w->handle[b] : -1,
                          b >= 0 ? (int32_t)w->generation[b] : 0,
                          b >= 0 ? 0 : c->cell_x,
                          b >= 0 ? 0 : c->cell_y};
        keys[n++] = key;
    }
    qsort(keys, (size_t)n, sizeof *keys, key_cmp);
    int distinct = 0;
    for (int k = 0; k < n; ++k) distinct += k == 0 || key_cmp(&keys[k - 1], &keys[k]) != 0;
    return distinct;
}

static void test_touch_blocks(void **state) {
    (void)state;
    scene_friction = LEDGE_FRICTION_COULOMB;
    static int counts_seen[CONFIGS];
    for (int c = 0; c < CONFIGS; ++c) {
        use_config(c);
        scene s;
        assert_true(scene_rain(RAIN_N, &s));
        ledge_world *w = s.world;
        for (int i = 0; i < w->slot_count; i += 61) w->touch_events[i] = 1;
        int most = 0, blocks = 0;
        counts_seen[c] = 0;
        for (int k = 0; k < TOUCH_STEPS; ++k) {
            ledge_world_step(w, 1.0f / 60.0f);
            ledge__key *keys = malloc(sizeof *keys * (size_t)(w->contact_count + 1));
            assert_non_null(keys);
            int want = touches_of_contacts(w, keys);
            free(keys);
            if (w->events->touch_now.count != want) {
                fail_msg("touches, %s, step %d: %d listed, %d in the contacts", config_name(c),
                         k + 1, w->events->touch_now.count, want);
            }
            counts_seen[c] += ledge_world_touch_events(w).begin_count;
            most = want > most ? want : most;
            blocks =
                ledge__blocks(w->contact_count) > blocks ? ledge__blocks(w->contact_count) : blocks;
        }
        // Touches there were, and blocks of contacts without any.
        assert_true(most > 0 && blocks > 2 && most < blocks * LEDGE__BLOCK / 8);
        check_jobs(c);
        scene_destroy(&s);
        if (counts_seen[c] != counts_seen[0])
            fail_msg("touches, %s: %d touches began, 1 worker %d", config_name(c), counts_seen[c],
                     counts_seen[0]);
    }
    use_default();
    print_message("touch events of 1 body in 61 of the rain: as the contacts say, for every "
                  "worker count (%d began)\n",
                  counts_seen[0]);
}

// --- fast paths ------------------------------------------------------------------

// Fast bodies (fast.c) are moved by the workers, block by block, except the
// bullets and the paths near more bodies than a worker's room: those the
// calling thread takes after, in slot order. The oracle is the serial
// order itself: debug.fast_room = -1 leaves every fast body to the calling
// thread, one path after another as before the workers took them. The
// landing rain (most circles fast) with bullets fired into the pile,
// against it with the full room, a room of 1 body (paths near two or more
// left over) and 0 (only paths near nothing taken by the workers),
// for every worker count and the job system: the same hash after every
// step.
// At least 100 steps under a slow tool: the rain falls fast from step 72.
#define FAST_STEPS   (scaled(160) < 100 ? 100 : scaled(160))
#define FAST_BULLETS 24
#define FAST_ROOMS   4
static const int fast_rooms[FAST_ROOMS] = {-1, LEDGE__FAST_ROOM, 1, 0};

static uint64_t g_fast_hash[MAX_STEPS];

// Runs the scene; returns how many fast bodies the workers left over.
static long fast_run(int room, int config, bool oracle) {
    use_config(config);
    scene s;
    assert_true(scene_rain(RAIN_N, &s));
    s.world->debug.fast_room = room;
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.2f);
    bd.bullet = true;
    for (int k = 0; k < FAST_STEPS; ++k) {
        if (k % 6 == 3 && k / 6 < FAST_BULLETS) { // into the falling rain and the pile
            float side = (k / 6) % 2 ? 1.0f : -1.0f;
            bd.position = (vec2s){{side > 0 ? 1.6f : (float)s.width - 1.6f, 2.0f + (float)(k % 5)}};
            bd.velocity = (vec2s){{60.0f * side, 5.0f}};
            assert_true(ledge_body_is_valid(s.world, ledge_body_create(s.world, &bd)));
        }
        ledge_world_step(s.world, 1.0f / 60.0f);
        uint64_t h = ledge_world_hash(s.world);
        if (oracle) {
            g_fast_hash[k] = h;
        } else if (h != g_fast_hash[k]) {
            fail_msg("fast paths, room %d, %s: the hash differs from the serial order after step "
                     "%d (%016llx, %016llx)",
                     room, config_name(config), k + 1, (unsigned long long)h,
                     (unsigned long long)g_fast_hash[k]);
        }
    }
    check_jobs(config);
    long left = s.world->debug.fast_left;
    scene_destroy(&s);
    return left;
}

static void test_fast_paths(void **state) {
    (void)state;
    scene_friction = LEDGE_FRICTION_COULOMB;
    long all = fast_run(-1, 0, true); // every fast body, on the calling thread
    long left[FAST_ROOMS];
    for (int r = 1; r < FAST_ROOMS; ++r) {
        for (int c = 0; c < CONFIGS; ++c) left[r] = fast_run(fast_rooms[r], c, false);
    }
    use_default();
    print_message("fast paths: %d steps, %ld fast bodies; left to the calling thread with the "
                  "full room %ld, a room of 1 %ld, 0 %ld; the same hash as the serial order\n",
                  FAST_STEPS, all, left[1], left[2], left[3]);
    // Both ways were taken in every room: the workers moved some fast
    // bodies and left others (the bullets at least) to the calling thread.
    assert_true(all > 20 * FAST_BULLETS);
    for (int r = 1; r < FAST_ROOMS; ++r) assert_true(left[r] > 0 && left[r] < all);
    assert_true(left[1] < left[2] && left[2] <= left[3]);
}

// --- fast paths and the still bodies' cells ------------------------------------

// A fast path reads the grid's cells only where they may hold a still
// body: inside the bounds of the still bodies' centres (fast.c,
// reaches_still_cells). The oracle reads every cell the path reaches
// (debug.still_cells_on off). A small cluster of static bodies in an open
// map, so that the bounds are small and many paths end or pass at their
// edges, and fast bodies (a third of them bullets) shot at it from all
// round at 12 to 80 m/s, under five gravities (the grid turns with up):
// the same hash after every step.
#define STILL_WORLDS scaled(80)
#define STILL_STEPS  60

static void still_cells_run(uint64_t seed, bool shortcut, uint64_t *hashes) {
    g_rng = seed;
    enum { W = 48, H = 48 };
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = W;
    wd.map_height = H;
    static const float g[5][2] = {{0, -10}, {0, 10}, {-10, 0}, {10, 0}, {0, 0}};
    int d = (int)(seed % 5);
    wd.gravity = (vec2s){{g[d][0], g[d][1]}};
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    w->debug.still_cells_on = shortcut;
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < W; ++x) {
        for (int y = 0; y < H; ++y) {
            bool wall = x == 0 || y == 0 || x == W - 1 || y == H - 1;
            assert_true(ledge_tilemap_set(map, x, y, wall ? LEDGE_TILE_FULL : LEDGE_TILE_EMPTY));
        }
    }
    vec2s centre = {{rng_range(16, W - 16), rng_range(16, H - 16)}};
    for (int k = rng_int(1, 6); k > 0; --k)
        random_body(w, LEDGE_BODY_STATIC,
                    (vec2s){{centre.x + rng_range(-2, 2), centre.y + rng_range(-2, 2)}});
    for (int k = 0; k < STILL_STEPS; ++k) {
        for (int shot = rng_int(0, 3); shot > 0; --shot) {
            float from = rng_range(0, 6.2831853), dist = rng_range(3, 12);
            float aim = from + 3.14159265f + rng_range(-0.5, 0.5), speed = rng_range(12, 80);
            ledge_body_def bd = ledge_default_body_def();
            bd.shape = random_shape();
            bd.position = (vec2s){{centre.x + dist * cosf(from), centre.y + dist * sinf(from)}};
            bd.velocity = (vec2s){{speed * cosf(aim), speed * sinf(aim)}};
            bd.bullet = rng_int(0, 2) == 0;
            assert_true(ledge_body_is_valid(w, ledge_body_create(w, &bd)));
        }
        ledge_world_step(w, 1.0f / 60.0f);
        hashes[k] = ledge_world_hash(w);
    }
    ledge_world_destroy(w);
}

static void test_still_cells(void **state) {
    (void)state;
    uint64_t off[STILL_STEPS], on[STILL_STEPS];
    for (int s = 0; s < STILL_WORLDS; ++s) {
        uint64_t seed = 0x5711ce11ull + (uint64_t)s;
        still_cells_run(seed, false, off);
        still_cells_run(seed, true, on);
        for (int k = 0; k < STILL_STEPS; ++k) {
            if (off[k] != on[k])
                fail_msg("still cells, world %d (gravity %d): the shortcut differs from reading "
                         "every cell after step %d",
                         s, (int)(seed % 5), k + 1);
        }
    }
    print_message("still cells: %d worlds of %d steps, fast bodies shot at a cluster of static "
                  "bodies: the same hash as reading every cell\n",
                  STILL_WORLDS, STILL_STEPS);
}

// --- crowd ---------------------------------------------------------------------

#define CROWD_N     1500
#define CROWD_STEPS scaled(200)

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static void test_crowd(void **state) {
    (void)state;
    const char *path = getenv("LEDGE_CROWD_MAP");
    const char *text = read_text(path ? path : "tests/data/crowd.txt");
    if (text == NULL) fail_msg("cannot read the crowd map (LEDGE_CROWD_MAP)");
    for (int c = 0; c < CONFIGS; ++c) {
        use_config(c);
        scene s;
        assert_true(scene_crowd(CROWD_N, text, 256, 64, &s));
        for (int k = 0; k < CROWD_STEPS; ++k) {
            scene_crowd_control(&s);
            ledge_world_step(s.world, 1.0f / 60.0f);
            g_hash[k][c] = ledge_world_hash(s.world);
        }
        check_jobs(c);
        scene_destroy(&s);
    }
    use_default();
    compare("crowd 1500", g_hash, CROWD_STEPS);
}

// --- the demo's level ------------------------------------------------------------

#define DEMO_FRAMES scaled(1320) // as samples/demo.c: the autopilot reaches the goal

static void test_demo_level(void **state) {
    (void)state;
    for (int model = 0; model < 2; ++model) {
        for (int c = 0; c < CONFIGS; ++c) {
            use_config(c);
            scene_friction = (ledge_friction_law)model;
            static game g;
            assert_true(game_create_from(&g, scene_world_def()));
            for (int f = 0; f < DEMO_FRAMES; ++f) {
                game_input in = game_autopilot(&g);
                game_update(&g, &in);
                g_hash[f][c] = ledge_world_hash(g.world);
            }
            // As test_demo (when the run is long enough to get there).
            if (model == 0 && DEMO_FRAMES == 1320) assert_true(g.phase == PHASE_GOAL);
            check_jobs(c);
            game_destroy(&g);
        }
        use_default();
        compare(model == 0 ? "demo level (bowl), default" : "demo level (bowl), Coulomb", g_hash,
                DEMO_FRAMES);
    }
}

// --- refusals ------------------------------------------------------------------

static void refused(ledge_world_def wd, const char *w1, const char *w2) {
    log_capture_start();
    ledge_world *w = ledge_world_create(&wd);
    assert_null(w);
    if (!log_capture_says(w1, w2))
        fail_msg("expected an error naming %s, got '%s'", w1, g_log.last);
    ledge_set_log_hook(NULL, NULL);
}

static void test_refusals(void **state) {
    (void)state;
    int bad[] = {0, -1, LEDGE_MAX_WORKERS + 1, 1000000, -2147483647 - 1};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        ledge_world_def wd = ledge_default_world_def();
        wd.worker_count = bad[k];
        refused(wd, "ledge_world_create", "worker_count");
    }
    ledge_world_def wd = ledge_default_world_def();
    wd.worker_count = 2;
    wd.enqueue_task = enqueue;
    refused(wd, "enqueue_task", "finish_task");
    wd.enqueue_task = NULL;
    wd.finish_task = finish;
    refused(wd, "enqueue_task", "finish_task");
    // The default is one worker, and the largest count is accepted.
    assert_int_equal(ledge_default_world_def().worker_count, 1);
    wd = ledge_default_world_def();
    wd.worker_count = LEDGE_MAX_WORKERS;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.4f);
    bd.position = (vec2s){{5.5f, 5.0f}};
    ledge_body_id b = ledge_body_create(w, &bd);
    for (int k = 0; k < 10; ++k) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_position(w, b).y < 5.0f);
    ledge_world_destroy(w);
}

// --- the relaxation's early exit ------------------------------------------------

// A relaxation pass that changed no position's bits skips to the last
// (world.c): the passes it skips would have repeated it exactly, so the
// world must end with the bits of one that runs every pass. Two scenes,
// under each gravity (and none), in both models, awake and sleeping, on 1
// and 2 workers: bodies of every shape and material in rings along the
// four walls and in mid-air, thrown in random directions (sliding, piling
// and tumbling off slopes and round tiles: few passes skip); and a row of
// them set down at rest on the floor, whose pushes after the first pass
// are below the resolution of their positions: once landed, a step must
// run at most 3 passes (2 without gravity), against 4.
typedef struct skip_result {
    uint64_t hash;
    long passes, tail; ///< Passes in all, and over the last 60 steps.
} skip_result;

static void skip_bodies(ledge_world *w, int gravity, bool rest, int side_len) {
    ledge_body_def bd = ledge_default_body_def();
    vec2s o = {{0, 0}};
    vec2s tri[3] = {{{-0.4f, -0.3f}}, {{0.4f, -0.3f}}, {{0.0f, 0.4f}}};
    ledge_shape triangle;
    assert_true(ledge_make_polygon(tri, 3, &triangle));
    float top = (float)side_len;
    for (int k = 0; k < (rest ? 40 : 160); ++k) {
        int kind = k % 4;
        bd.shape = kind == 0 ? ledge_make_circle(o, rng_range(0.15, 0.45))
                   : kind == 1
                       ? ledge_make_box(o, (vec2s){{rng_range(0.2, 0.45), rng_range(0.2, 0.45)}})
                   : kind == 2 ? triangle
                               : ledge_make_circle(o, 0.3f);
        bd.friction = rest ? 0.5f : (float)(k % 3) * 0.5f;
        bd.bounce = !rest && k % 5 == 0 ? 0.5f : 0.0f;
        // At rest: one row on the wall gravity points at (the floor
        // without gravity), 1 m apart. Else rings along the four walls and
        // a few in mid-air.
        int side = rest ? (gravity == 4 ? 0 : gravity) : k % 5;
        int at = rest ? 4 + k : 3 + (k / 5) % 40;
        float off = rest ? 1.5f : 1.5f + (float)((k / 5) / 40), along = (float)at + 0.5f;
        bd.position = side == 0   ? (vec2s){{along, off}}
                      : side == 1 ? (vec2s){{along, top - off}}
                      : side == 2 ? (vec2s){{off, along}}
                      : side == 3 ? (vec2s){{top - off, along}}
                                  : (vec2s){{along, 20.0f + rng_range(0, 8)}};
        bd.velocity = rest ? o : (vec2s){{rng_range(-2, 2), rng_range(-2, 2)}};
        assert_true(ledge_body_is_valid(w, ledge_body_create(w, &bd)));
    }
}

static skip_result skip_run(int gravity, int model, bool sleep, int workers, bool skip, bool rest) {
    static const float g[5][2] = {{0, -10}, {0, 10}, {-10, 0}, {10, 0}, {0, 0}};
    enum { SIDE = 48, STEPS = 240 };
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = (vec2s){{g[gravity][0], g[gravity][1]}};
    wd.friction_law = model ? LEDGE_FRICTION_COULOMB : LEDGE_FRICTION_N;
    wd.enable_sleep = sleep;
    wd.worker_count = workers;
    ledge_world *w = scene_walled_world(wd, SIDE);
    assert_non_null(w);
    w->debug.skip_on = skip;
    ledge_tilemap *map = ledge_world_tilemap(w);
    if (!rest) { // a slope and round tiles to slide off
        assert_true(ledge_tilemap_set(map, 20, 1, LEDGE_TILE_45DEG_PP));
        assert_true(ledge_tilemap_set(map, 30, SIDE - 2, LEDGE_TILE_CONCAVE_NN));
        assert_true(ledge_tilemap_set(map, 1, 25, LEDGE_TILE_CONVEX_PP));
        assert_true(ledge_tilemap_set(map, SIDE - 2, 12, LEDGE_TILE_22DEG_SMALL_PN));
    }
    g_rng = 0x5EED00ull + (uint64_t)(gravity * 8 + model * 2 + sleep);
    skip_bodies(w, gravity, rest, SIDE);
    skip_result r = {0, 0, 0};
    for (int k = 0; k < STEPS; ++k) {
        if (k == STEPS - 60) r.tail = w->debug.passes;
        ledge_world_step(w, 1.0f / 60.0f);
    }
    r.hash = ledge_world_hash(w);
    r.passes = w->debug.passes;
    r.tail = r.passes - r.tail;
    ledge_world_destroy(w);
    return r;
}

static void test_skip_agrees(void **state) {
    (void)state;
    long skipped[2] = {0, 0}, all[2] = {0, 0};
    for (int rest = 0; rest < 2; ++rest) {
        for (int gravity = 0; gravity < 5; ++gravity) {
            for (int cell = 0; cell < 8; ++cell) { // model, sleep, workers
                int model = cell & 1, sleep = cell >> 1 & 1, workers = 1 + (cell >> 2);
                skip_result on = skip_run(gravity, model, sleep, workers, true, rest);
                skip_result off = skip_run(gravity, model, sleep, workers, false, rest);
                if (on.hash != off.hash)
                    fail_msg("%s, gravity %d, model %d, sleep %d, %d workers: hash %016llx with "
                             "the skip, %016llx without",
                             rest ? "at rest" : "thrown", gravity, model, sleep, workers,
                             (unsigned long long)on.hash, (unsigned long long)off.hash);
                assert_int_equal(off.passes, 240 * 4);
                assert_true(on.passes <= off.passes);
                if (rest) assert_true(on.tail <= 60 * (gravity == 4 ? 2 : 3));
                skipped[rest] += off.passes - on.passes;
                all[rest] += off.passes;
            }
        }
    }
    print_message("the early exit: 80 worlds, the same bits with and without it; passes skipped: "
                  "%ld of %ld thrown, %ld of %ld at rest\n",
                  skipped[0], all[0], skipped[1], all[1]);
    assert_true(skipped[0] > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_rain_stacking),
        cmocka_unit_test(test_rain_n),
        cmocka_unit_test(test_crowd),
        cmocka_unit_test(test_demo_level),
        cmocka_unit_test(test_fast_paths),
        cmocka_unit_test(test_still_cells),
        cmocka_unit_test(test_touch_blocks),
        cmocka_unit_test(test_rain_sleeping),
        cmocka_unit_test(test_dormant_blocks),
        cmocka_unit_test(test_dormant_random_worlds),
        cmocka_unit_test(test_reuse_dormant_blocks),
        cmocka_unit_test(test_research_across_blocks),
        cmocka_unit_test(test_splice_blocks),
        cmocka_unit_test(test_skip_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
