// The rain scene (docs/benchmarks.md, "The scenes") in ledge and in the peer
// engines found at build time (Chipmunk2D 7, Box2D 2.4, and Box2D v3 with
// -Dbox2d_v3; tests/peers.h),
// side by side in one run, with the integrate-only floor. For each N, one
// row per engine: mean ms/step over all 600 steps and over the last 100
// (settled), median of the runs; the ratio to the floor; the ratio peer /
// ledge (above 1: ledge is faster); and the spec's quality figures after
// the last step, measured for every engine by the same function
// (circles_quality in tests/scenes.c) against the same tilemap.
//
//   bench_peers [options] [N ...]   default N = 1000 10000
//     --big            add N = 100000 and 1000000
//     --runs R         runs per figure (default 3; the median is printed)
//     --steps S        steps per run (default 600; the last 100 are "settled")
//     --peers-max N    skip the peers above this N (default 100000)
//     --max ENGINE N   skip that engine above this N (e.g. --max box2d 10000)
//     --csv FILE       also write the rows as CSV (tests/bench_plot.sh)
//     --no-crowd       skip the crowd scene (ledge only; N <= 10000; reads
//                      data/crowd.txt from tests/ or tests/data/crowd.txt)
//   bench_peers --memory [N]         bytes per body and per tile cell, and
//                                    allocations during stepping, counted
//                                    through ledge's allocator hook
//     --workers W      ledge and each threaded peer (Box2D v3 locked) on 1
//                      and on W workers (rows named -Ww), their runs taken
//                      in turn; a -Ww row's /ledge column is against
//                      ledge-Ww (the other peers do not run)
//     --coulomb-row    after ledge's row, ledge under LEDGE_FRICTION_COULOMB
//     --sleep          ledge's bodies may sleep (the Box2Ds' do by default)
//   bench_peers [--coulomb] --callgrind N K [engine]   K untimed steps,
//                                    then one step with callgrind's
//                                    instrumentation on (tests/bench_callgrind.sh);
//                                    --coulomb: ledge under Coulomb's friction law
//                                    (LEDGE_FRICTION_COULOMB); --sleep (before
//                                    --callgrind or the sizes): ledge's bodies may sleep
//
// Times are printed, never asserted.
#define _POSIX_C_SOURCE 199309L
#include "bench_timing.h"
#include "peers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifdef LEDGE_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#define CALLGRIND_TOGGLE_COLLECT
#endif

#define DT       (1.0f / 60.0f)
#define MAX_RUNS 15

static int g_steps = 600, g_runs = 3;
static const int LAST = 100;

// --- timing --------------------------------------------------------------------

/// Mean ms/step over all steps and over the last LAST.
typedef struct timing {
    double all, last;
} timing;

/// Times `step` over g_steps steps: three clock reads per run, not two per
/// step (the floor's step at N = 1,000 is about a microsecond).
#define TIME_STEPS(result, step)                                                                   \
    do {                                                                                           \
        double t0_ = now_ns(), tm_ = t0_;                                                          \
        for (int s_ = 0; s_ < g_steps; ++s_) {                                                     \
            if (s_ == g_steps - LAST) tm_ = now_ns();                                              \
            step;                                                                                  \
        }                                                                                          \
        double t1_ = now_ns();                                                                     \
        (result).all = (t1_ - t0_) / g_steps * 1e-6;                                               \
        (result).last = (t1_ - tm_) / LAST * 1e-6;                                                 \
    } while (0)

/// The median of each mean over the runs, taken separately.
static timing median_timing(const timing *runs, int n) {
    double all[MAX_RUNS], last[MAX_RUNS];
    for (int r = 0; r < n; ++r) {
        all[r] = runs[r].all;
        last[r] = runs[r].last;
    }
    qsort(all, (size_t)n, sizeof all[0], cmp_double);
    qsort(last, (size_t)n, sizeof last[0], cmp_double);
    timing t = {all[n / 2], last[n / 2]};
    return t;
}

/// One table row.
typedef struct row {
    const char *engine;
    int n;
    timing t;
    bool has_quality;
    scene_figures q;
    int awake; ///< -1: no sleeping in that engine.
} row;

static void die(const char *what, int n) {
    fprintf(stderr, "bench_peers: cannot build %s for N = %d\n", what, n);
    exit(1);
}

static row run_floor(int n) {
    row out = {"floor", n, {0, 0}, false, {0}, -1};
    timing runs[MAX_RUNS];
    for (int r = 0; r < g_runs; ++r) {
        scene s;
        scene_floor f;
        if (!scene_rain(n, &s) || !scene_floor_create(&s, &f)) die("the floor", n);
        scene_destroy(&s);
        TIME_STEPS(runs[r], scene_floor_step(&f, DT));
        sink = f.position[n - 1].y;
        scene_floor_destroy(&f);
    }
    out.t = median_timing(runs, g_runs);
    return out;
}

/// One run of ledge's rain on `workers` workers.
static scene_figures ledge_once(int n, int workers, timing *t) {
    scene s;
    scene_worker_count = workers;
    if (!scene_rain(n, &s)) die("ledge's rain", n);
    scene_worker_count = 1;
    TIME_STEPS(*t, ledge_world_step(s.world, DT));
    scene_figures q = scene_quality(&s);
    scene_destroy(&s);
    return q;
}

static row run_ledge(int n, const char *name) {
    row out = {name, n, {0, 0}, true, {0}, -1};
    timing runs[MAX_RUNS];
    for (int r = 0; r < g_runs; ++r) {
        scene_figures q = ledge_once(n, 1, &runs[r]);
        if (r > 0 && q.hash != out.q.hash) {
            printf("WARNING: ledge runs at N = %d ended in different states\n", n);
        }
        out.q = q;
    }
    out.t = median_timing(runs, g_runs);
    return out;
}

static scene_figures peer_quality(const peer_engine *e, void *w, const ledge_tilemap *map, int n) {
    double *pos = malloc(sizeof *pos * 2 * (size_t)n), *vel = malloc(sizeof *vel * 2 * (size_t)n);
    if (!pos || !vel) die("the quality arrays", n);
    e->read(w, pos, vel);
    scene_figures q = circles_quality(map, n, pos, vel, RAIN_RADIUS);
    free(pos);
    free(vel);
    return q;
}

/// One run of a peer's rain on `workers` workers (above 1: a threaded peer).
static scene_figures peer_once(const peer_engine *e, int n, int workers, timing *t, int *awake) {
    rain_layout l;
    ledge_tilemap *map = NULL;
    if (!rain_layout_for(n, &l) || !(map = rain_map_create(&l))) die("the rain map", n);
#ifdef LEDGE_HAVE_BOX2D_V3 // (the only threaded peer)
    peer_workers = workers;
#else
    (void)workers;
#endif
    void *w = e->create(&l, map);
#ifdef LEDGE_HAVE_BOX2D_V3
    peer_workers = 1;
#endif
    if (!w) die(e->name, n);
    TIME_STEPS(*t, e->step(w, DT));
    scene_figures q = peer_quality(e, w, map, n);
    *awake = e->awake ? e->awake(w) : -1;
    e->destroy(w);
    ledge_tilemap_destroy(map);
    return q;
}

static row run_peer(const peer_engine *e, int n) {
    row out = {e->name, n, {0, 0}, true, {0}, -1};
    timing runs[MAX_RUNS];
    for (int r = 0; r < g_runs; ++r) out.q = peer_once(e, n, 1, &runs[r], &out.awake);
    out.t = median_timing(runs, g_runs);
    return out;
}

// --- the table -------------------------------------------------------------------

static void print_header(void) {
    printf("%-9s %8s | %9s %9s | %8s %8s | %7s %7s | %7s %7s %9s %9s %8s %7s\n", "engine", "N",
           "ms/step", "last 100", "x floor", "last", "/ledge", "last", "escaped", "in solid",
           "max c-c", "max c-t", "moving", "awake");
}

static void print_row(const row *r, const row *floor_row, const row *ledge_row, FILE *csv) {
    printf("%-9s %8d | %9.4f %9.4f | %8.1f %8.1f | ", r->engine, r->n, r->t.all, r->t.last,
           r->t.all / floor_row->t.all, r->t.last / floor_row->t.last);
    if (ledge_row && r != ledge_row && r != floor_row) {
        printf("%7.2f %7.2f | ", r->t.all / ledge_row->t.all, r->t.last / ledge_row->t.last);
    } else {
        printf("%7s %7s | ", "-", "-");
    }
    if (r->has_quality) {
        printf("%7d %7d %9.4f %9.4f %8d", r->q.escaped, r->q.inside_solid, r->q.max_body_overlap,
               r->q.max_tile_overlap, r->q.moving);
    } else {
        printf("%7s %7s %9s %9s %8s", "-", "-", "-", "-", "-");
    }
    if (r->awake >= 0) {
        printf(" %7d\n", r->awake);
    } else {
        printf(" %7s\n", "-");
    }
    if (csv) {
        fprintf(csv, "%s,%d,%.6f,%.6f,%d,%d,%.6f,%.6f,%d\n", r->engine, r->n, r->t.all, r->t.last,
                r->has_quality ? r->q.escaped : -1, r->has_quality ? r->q.inside_solid : -1,
                r->q.max_body_overlap, r->q.max_tile_overlap, r->has_quality ? r->q.moving : -1);
    }
    fflush(stdout);
}

static const peer_engine *const peers[] = {
#ifdef LEDGE_HAVE_CHIPMUNK
    &peer_chipmunk, &peer_chipmunk_locked,
#endif
#ifdef LEDGE_HAVE_BOX2D_V3
    &peer_box2d_v3, &peer_box2d_v3_locked,
#endif
#ifdef LEDGE_HAVE_BOX2D
    &peer_box2d,    &peer_box2d_locked,
#endif
    NULL,
};

/// Per-peer size limits (--peers-max, --max).
static int g_peer_max[8];

/// --coulomb-row: a row of ledge under LEDGE_FRICTION_COULOMB after ledge's.
static bool g_coulomb_row;

/// --workers W: ledge, and each threaded peer, also on W workers.
static int g_workers = 1;

/// --workers W: ledge, then each threaded peer, on 1 and on W workers, run
/// in turn (one run of each, then the next runs), so that a machine whose
/// speed drifts between runs moves every row alike; the medians printed.
/// The W rows' /ledge column is against ledge on W workers.
static void run_workers_group(int n, const row *fl, FILE *csv) {
    enum { MAX_ROWS = 8 };
    row rows[MAX_ROWS];
    const peer_engine *engine[MAX_ROWS];
    int workers[MAX_ROWS], count = 0;
    static char names[MAX_ROWS][64];
    for (int p = -1; (p < 0 || peers[p]) && count + 2 <= MAX_ROWS; ++p) {
        if (p >= 0 && (!peers[p]->threaded || n > g_peer_max[p])) continue;
        for (int k = 0; k < 2; ++k) {
            engine[count] = p < 0 ? NULL : peers[p];
            workers[count] = k == 0 ? 1 : g_workers;
            const char *base = p < 0 ? "ledge" : peers[p]->name;
            if (k == 0) {
                snprintf(names[count], sizeof names[count], "%s", base);
            } else {
                snprintf(names[count], sizeof names[count], "%s-%dw", base, g_workers);
            }
            rows[count] = (row){names[count], n, {0, 0}, true, {0}, -1};
            count++;
        }
    }
    timing runs[MAX_ROWS][MAX_RUNS];
    for (int r = 0; r < g_runs; ++r) {
        for (int i = 0; i < count; ++i) {
            scene_figures q = engine[i]
                                  ? peer_once(engine[i], n, workers[i], &runs[i][r], &rows[i].awake)
                                  : ledge_once(n, workers[i], &runs[i][r]);
            if (r > 0 && q.hash != rows[i].q.hash && !engine[i]) {
                printf("WARNING: ledge runs at N = %d ended in different states\n", n);
            }
            rows[i].q = q;
        }
    }
    if (rows[1].q.hash != rows[0].q.hash) {
        printf("WARNING: ledge on %d workers ended elsewhere than on 1\n", g_workers);
    }
    for (int i = 0; i < count; ++i) {
        rows[i].t = median_timing(runs[i], g_runs);
        print_row(&rows[i], fl, i % 2 == 0 ? &rows[0] : &rows[1], csv);
    }
}

static int run_table(const int *sizes, int count, FILE *csv) {
    printf("scene rain: %d steps at dt = 1/60, mean ms/step over all steps and the last %d, "
           "median of %d runs, setup untimed, single-threaded but for the rows named -Ww (W "
           "workers)\n",
           g_steps, LAST, g_runs);
    printf("floor: integrate-only loop over the same bodies (ledge's stage 1 arithmetic)\n");
    printf("ledge: 4 iterations, 1 substep, linear slop 0.005 (world defaults)\n");
    for (int p = 0; peers[p]; ++p) printf("%s: %s\n", peers[p]->name, peers[p]->settings);
    printf("/ledge: peer ms / ledge ms (above 1: ledge is faster). Quality after the last "
           "step, metres; moving: speed > %.1f m/s; awake: bodies not asleep\n\n",
           RAIN_MOVING_SPEED);
    // A throwaway build of each peer first, so that a library's banner
    // (Debian's Chipmunk prints one at its first space) comes before the table.
    for (int p = 0; peers[p]; ++p) {
        rain_layout l;
        ledge_tilemap *map = NULL;
        if (!rain_layout_for(2, &l) || !(map = rain_map_create(&l))) die("the rain map", 2);
        void *w = peers[p]->create(&l, map);
        if (!w) die(peers[p]->name, 2);
        peers[p]->destroy(w);
        ledge_tilemap_destroy(map);
    }
    fflush(stdout);
    print_header();
    if (csv) fprintf(csv, "engine,n,ms_all,ms_last,escaped,inside,max_cc,max_ct,moving\n");
    for (int i = 0; i < count; ++i) {
        int n = sizes[i];
        row fl = run_floor(n);
        print_row(&fl, &fl, NULL, csv);
        if (g_workers > 1) {
            run_workers_group(n, &fl, csv);
            continue;
        }
        row le = run_ledge(n, "ledge");
        print_row(&le, &fl, &le, csv);
        if (g_coulomb_row) { // the same world under Coulomb's friction law, for comparison
            scene_friction = LEDGE_FRICTION_COULOMB;
            row lc = run_ledge(n, "ledge-coulomb");
            scene_friction = LEDGE_FRICTION_N;
            print_row(&lc, &fl, &le, csv);
        }
        for (int p = 0; peers[p]; ++p) {
            if (n > g_peer_max[p]) {
                printf("%-9s %8d | skipped (above its limit %d: --peers-max, --max)\n",
                       peers[p]->name, n, g_peer_max[p]);
                continue;
            }
            row pr = run_peer(peers[p], n);
            print_row(&pr, &fl, &le, csv);
        }
    }
    return 0;
}

// --- the crowd scene (ledge only) ------------------------------------------------

#define CROWD_W 256
#define CROWD_H 64

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *s = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (s = malloc((size_t)n + 1)) != NULL) {
            if (fread(s, 1, (size_t)n, f) == (size_t)n) {
                s[n] = '\0';
            } else {
                free(s);
                s = NULL;
            }
        }
    }
    fclose(f);
    return s;
}

/// Times the crowd's step and its game logic (the probes) apart, and prints
/// one row: ms/step (the world step; the logic is not in it), the logic's
/// ms/step, point queries per second over the logic's time (a lower bound:
/// that time includes reading and setting velocities), and how many
/// characters ended outside the map or with the centre inside a solid tile.
static void run_crowd(int n, const char *text) {
    timing runs[MAX_RUNS];
    double logic[MAX_RUNS], queries = 0;
    int escaped = 0, inside = 0;
    for (int r = 0; r < g_runs; ++r) {
        scene s;
        if (!scene_crowd(n, text, CROWD_W, CROWD_H, &s)) die("the crowd", n);
        double t0 = 0, tm = 0, spent = 0;
        queries = 0;
        for (int k = 0; k < g_steps; ++k) {
            double a = now_ns();
            queries += scene_crowd_control(&s);
            double b = now_ns();
            if (k == 0) t0 = b;
            if (k == g_steps - LAST) tm = b;
            ledge_world_step(s.world, DT);
            if (k > 0) t0 += b - a; // the logic's time is not the step's
            if (k > g_steps - LAST) tm += b - a;
            spent += b - a;
        }
        double t1 = now_ns();
        runs[r].all = (t1 - t0) / g_steps * 1e-6;
        runs[r].last = (t1 - tm) / LAST * 1e-6;
        logic[r] = spent;
        ledge_tilemap *map = ledge_world_tilemap(s.world);
        escaped = inside = 0;
        for (int k = 0; k < s.count; ++k) {
            vec2s p = ledge_body_position(s.world, s.bodies[k]);
            bool in_map = p.x >= 0 && p.x <= CROWD_W && p.y >= 0 && p.y <= CROWD_H;
            if (!in_map) {
                ++escaped;
            } else {
                inside += ledge_tilemap_query_point(map, p, NULL);
            }
        }
        scene_destroy(&s);
    }
    timing t = median_timing(runs, g_runs);
    qsort(logic, (size_t)g_runs, sizeof logic[0], cmp_double);
    double lt = logic[g_runs / 2];
    printf("%-9s %8d | %9.4f %9.4f | %9.4f %12.0f | %7d %8d\n", "ledge", n, t.all, t.last,
           lt / g_steps * 1e-6, queries / (lt * 1e-9), escaped, inside);
    fflush(stdout);
}

static void run_crowd_table(const int *sizes, int count) {
    char *text = read_text("data/crowd.txt");
    if (!text) text = read_text("tests/data/crowd.txt");
    if (!text) {
        printf("\nscene crowd: skipped (data/crowd.txt not found: run from tests/ or the root)\n");
        return;
    }
    printf("\nscene crowd (tests/data/crowd.txt, 256 x 64): %d steps, median of %d runs; box "
           "characters 0.6 x 0.9 m running at %.0f m/s, jumping at %.0f m/s at walls\n",
           g_steps, g_runs, CROWD_RUN, CROWD_JUMP);
    printf("step: the world step only; logic: the probes and velocity setting before it\n\n");
    printf("%-9s %8s | %9s %9s | %9s %12s | %7s %8s\n", "engine", "N", "ms/step", "last 100",
           "logic ms", "queries/s", "escaped", "in solid");
    for (int i = 0; i < count; ++i) {
        if (sizes[i] <= 10000) run_crowd(sizes[i], text);
    }
    free(text);
}

// --- memory, through the allocator hook -------------------------------------------

/// What ledge holds: each block carries its size in a 16-byte header (the
/// hook's alignment).
static struct {
    size_t live, peak;
    long allocs, frees;
} g_mem;

static void *count_alloc(size_t size, void *user) {
    (void)user;
    unsigned char *p = malloc(size + 16);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    g_mem.live += size;
    if (g_mem.live > g_mem.peak) g_mem.peak = g_mem.live;
    g_mem.allocs++;
    return p + 16;
}

static void count_free(void *ptr, void *user) {
    (void)user;
    if (!ptr) return;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t size;
    memcpy(&size, p, sizeof size);
    g_mem.live -= size;
    g_mem.frees++;
    free(p);
}

/// Allocations (and frees) made by `steps` steps of `w`.
static void count_steps(ledge_world *w, int steps, long *allocs, long *frees) {
    long a0 = g_mem.allocs, f0 = g_mem.frees;
    for (int s = 0; s < steps; ++s) ledge_world_step(w, DT);
    *allocs = g_mem.allocs - a0;
    *frees = g_mem.frees - f0;
}

static void tilemap_bytes(int w, int h) {
    ledge_tilemap_def md = ledge_default_tilemap_def();
    md.width = w;
    md.height = h;
    size_t before = g_mem.live;
    ledge_tilemap *map = ledge_tilemap_create(&md);
    if (!map) die("a tilemap", w * h);
    size_t bytes = g_mem.live - before;
    printf("tilemap %5d x %-5d %10zu bytes  %6.2f bytes per cell\n", w, h, bytes,
           (double)bytes / ((double)w * h));
    ledge_tilemap_destroy(map);
}

static int run_memory(int n) {
    rain_layout l;
    if (!rain_layout_for(n, &l)) die("the layout", n);
    printf("memory held by ledge (allocator hook), rain scene N = %d, map %d x %d\n\n", n, l.width,
           l.height);
    tilemap_bytes(l.width, l.height);
    tilemap_bytes(1024, 1024);

    // The same world as the scene's, without bodies or reserved room.
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = l.width;
    wd.map_height = l.height;
    size_t before = g_mem.live;
    ledge_world *empty = ledge_world_create(&wd);
    if (!empty) die("an empty world", n);
    size_t empty_bytes = g_mem.live - before;
    ledge_world_destroy(empty);

    scene s;
    before = g_mem.live;
    g_mem.peak = g_mem.live;
    if (!scene_rain(n, &s)) die("ledge's rain", n);
    size_t built = g_mem.live - before;
    long a1, f1, a2, f2, a3, f3;
    count_steps(s.world, 1, &a1, &f1);
    size_t stepped = g_mem.live - before;
    count_steps(s.world, g_steps - 1, &a2, &f2);
    size_t warm = g_mem.live - before;
    count_steps(s.world, g_steps, &a3, &f3);
    char label[64];
    printf("%-32s %10zu bytes\n", "world, no bodies", empty_bytes);
    snprintf(label, sizeof label, "world + %d bodies, built", n);
    printf("%-32s %10zu bytes  %7.1f bytes per body beyond the empty world\n", label, built,
           (double)(built - empty_bytes) / n);
    printf("%-32s %10zu bytes  %7.1f bytes per body\n", "after the first step", stepped,
           (double)(stepped - empty_bytes) / n);
    snprintf(label, sizeof label, "after %d steps", g_steps);
    printf("%-32s %10zu bytes  %7.1f bytes per body\n", label, warm,
           (double)(warm - empty_bytes) / n);
    snprintf(label, sizeof label, "after %d more steps", g_steps);
    printf("%-32s %10zu bytes  (peak %zu)\n", label, g_mem.live - before, g_mem.peak - before);
    printf("\nallocations (frees): first step %ld (%ld); steps 2..%d: %ld (%ld); "
           "steps %d..%d, after warm-up: %ld (%ld)\n",
           a1, f1, g_steps, a2, f2, g_steps + 1, 2 * g_steps, a3, f3);
    scene_destroy(&s);
    return 0;
}

// --- one step under callgrind ---------------------------------------------------

static int run_callgrind(int n, int warm, const char *engine) {
    if (strcmp(engine, "ledge") == 0) {
        scene s;
        if (!scene_rain(n, &s)) die("ledge's rain", n);
        for (int k = 0; k < warm; ++k) ledge_world_step(s.world, DT);
        CALLGRIND_START_INSTRUMENTATION;
        CALLGRIND_TOGGLE_COLLECT;
        ledge_world_step(s.world, DT);
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_STOP_INSTRUMENTATION;
        printf("ledge N = %d: step %d measured, hash %016llx\n", n, warm + 1,
               (unsigned long long)ledge_world_hash(s.world));
        scene_destroy(&s);
        return 0;
    }
    for (int p = 0; peers[p]; ++p) {
        if (strcmp(engine, peers[p]->name) != 0) continue;
        rain_layout l;
        ledge_tilemap *map = NULL;
        if (!rain_layout_for(n, &l) || !(map = rain_map_create(&l))) die("the rain map", n);
        void *w = peers[p]->create(&l, map);
        if (!w) die(engine, n);
        for (int k = 0; k < warm; ++k) peers[p]->step(w, DT);
        CALLGRIND_START_INSTRUMENTATION;
        CALLGRIND_TOGGLE_COLLECT;
        peers[p]->step(w, DT);
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_STOP_INSTRUMENTATION;
        printf("%s N = %d: step %d measured\n", engine, n, warm + 1);
        peers[p]->destroy(w);
        ledge_tilemap_destroy(map);
        return 0;
    }
    fprintf(stderr, "bench_peers: unknown engine '%s' (ledge", engine);
    for (int p = 0; peers[p]; ++p) fprintf(stderr, ", %s", peers[p]->name);
    fprintf(stderr, ")\n");
    return 2;
}

// --- arguments -------------------------------------------------------------------

static int usage(void) {
    fprintf(stderr, "usage: bench_peers [--big] [--runs R] [--steps S] [--peers-max N] "
                    "[--max ENGINE N] [--csv FILE] [--no-crowd] [--workers W] [N ...]\n"
                    "       bench_peers [--steps S] --memory [N]\n"
                    "       bench_peers [--coulomb] --callgrind N K [ledge|chipmunk|box2d]\n");
    return 2;
}

/// Parses a decimal integer in [lo, hi]; false otherwise.
static bool parse_int(const char *s, long lo, long hi, int *out) {
    char *end;
    long x = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || x < lo || x > hi) return false;
    *out = (int)x;
    return true;
}

int main(int argc, char **argv) {
    int sizes[16] = {1000, 10000}, count = 0, peers_max = 100000;
    bool big = false, crowd = true;
    FILE *csv = NULL;
    int own_max[8];
    for (int p = 0; p < 8; ++p) own_max[p] = -1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (strcmp(a, "--big") == 0) {
            big = true;
        } else if (strcmp(a, "--no-crowd") == 0) {
            crowd = false;
        } else if (strcmp(a, "--runs") == 0 && more) {
            if (!parse_int(argv[++i], 1, MAX_RUNS, &g_runs)) return usage();
        } else if (strcmp(a, "--steps") == 0 && more) {
            if (!parse_int(argv[++i], LAST, 1000000, &g_steps)) return usage();
        } else if (strcmp(a, "--peers-max") == 0 && more) {
            if (!parse_int(argv[++i], 0, 100000000, &peers_max)) return usage();
        } else if (strcmp(a, "--max") == 0 && i + 2 < argc) {
            int p = 0;
            while (peers[p] && strcmp(peers[p]->name, argv[i + 1]) != 0) ++p;
            if (!peers[p]) {
                fprintf(stderr, "bench_peers: --max: no engine '%s' in this build\n", argv[i + 1]);
                return 2;
            }
            if (!parse_int(argv[i + 2], 0, 100000000, &own_max[p])) return usage();
            i += 2;
        } else if (strcmp(a, "--csv") == 0 && more) {
            csv = fopen(argv[++i], "w");
            if (!csv) {
                perror(argv[i]);
                return 1;
            }
        } else if (strcmp(a, "--memory") == 0) {
            int n = 10000;
            if (more && !parse_int(argv[++i], 2, 10000000, &n)) return usage();
            ledge_set_allocator(count_alloc, count_free, NULL); // before any ledge object
            return run_memory(n);
        } else if (strcmp(a, "--coulomb") == 0) {
            scene_friction = LEDGE_FRICTION_COULOMB;
        } else if (strcmp(a, "--workers") == 0 && more) {
            if (!parse_int(argv[++i], 2, LEDGE_MAX_WORKERS, &g_workers)) return usage();
        } else if (strcmp(a, "--coulomb-row") == 0) {
            g_coulomb_row = true;
        } else if (strcmp(a, "--sleep") == 0) {
            scene_sleep = true; // ledge's bodies may sleep (Box2D's sleep by default)
        } else if (strcmp(a, "--callgrind") == 0 && i + 2 < argc) {
            int n, warm;
            if (!parse_int(argv[i + 1], 2, 10000000, &n) ||
                !parse_int(argv[i + 2], 0, 1000000, &warm)) {
                return usage();
            }
            return run_callgrind(n, warm, i + 3 < argc ? argv[i + 3] : "ledge");
        } else if (count < 14 && parse_int(a, 2, 10000000, &sizes[count])) {
            ++count;
        } else {
            return usage();
        }
    }
    if (count == 0) count = 2;
    if (big) {
        sizes[count++] = 100000;
        sizes[count++] = 1000000;
    }
    for (int p = 0; p < 8; ++p) g_peer_max[p] = own_max[p] >= 0 ? own_max[p] : peers_max;
    int rc = run_table(sizes, count, csv);
    if (crowd) run_crowd_table(sizes, count);
    if (csv) fclose(csv);
    return rc;
}
