// Benchmark of ledge_world_step on the "rain" scene
// (docs/benchmarks.md, "The scenes"): N circles dropped onto a walled map
// with ledges and two corner slopes, 600 steps at dt = 1/60. Only the
// stepping loop is timed (the scene is rebuilt, untimed, for every run).
// Printed per N, each the median of 3 runs:
// - the mean ms/step over all 600 steps and over the last 100 (the pile
//   settled);
// - the integrate-only floor in the same run: the same bodies stepped by the
//   world's stage 1 alone, over plain arrays (tests/scenes.h says why not a
//   world with filters off), and the ratio step / floor;
// - "open": the same circles in a map with no tiles, falling together so
//   that nothing ever touches: the step's machinery with no contact to
//   solve, checked to end bit-equal to the floor;
// - the spec's quality figures after the last step (deterministic: every
//   run must give the same world hash).
// Times are printed, never asserted; test_rain asserts the quality.
//
// The rain is stepped under each friction law asked for (--friction n,
// coulomb or both; default both: N's is the world's default, Coulomb's the
// other choice). Each table names its law. The memory the rain world holds (through the allocator
// hook) is printed per body. With --order both (the default) each rain row is run with the slots
// ordered by space (src/order.c) and without, in the same run, and the ratio printed; --order on /
// off runs one of them.
//
// Run: meson test -C <release build> --benchmark world -v
//  or: <build>/tests/bench_world [--friction n|coulomb|both] [--runs R]
//      [--order on|off|both] [--period P] [--cpu] [--steps S] [--rain-only] [--sleep]
//      [--dig] [N ...]   (default 1000 10000; e.g.
//      add 100000, or 1000000 where it fits in memory; --rain-only skips the floor and the open
//      scene; --sleep lets the bodies sleep, ledge_world_def.enable_sleep; --dig
//      edits a tile far above the pile before every step)
#define _POSIX_C_SOURCE 199309L
#define RUNS            9 // room for --runs; the spec's "at least 3 runs, quote the median"
#include "bench_timing.h"
#include "order.h" // the slots' order by space, switched off for the comparison
#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Bytes the library holds (through the allocator hook), now and at most.
typedef struct mem_count {
    size_t live, peak;
} mem_count;
static mem_count mem;
/// The live bytes after the last timed rain run's steps.
static size_t held_bytes;

// A size header in front of each block (16 bytes keeps malloc's alignment).
static void *count_alloc(size_t size, void *user) {
    (void)user;
    size_t *p = malloc(size + 16);
    if (p == NULL) return NULL;
    p[0] = size;
    mem.live += size;
    if (mem.live > mem.peak) mem.peak = mem.live;
    return (char *)p + 16;
}

static void count_free(void *ptr, void *user) {
    (void)user;
    if (ptr == NULL) return;
    size_t *p = (size_t *)((char *)ptr - 16);
    mem.live -= p[0];
    free(p);
}

/// Steps per run (--steps, default 600: the spec's) and the settled tail
/// (the last 100, or all of them for a shorter run).
static int step_count = 600;
#define LAST (step_count < 100 ? step_count : 100)
#define DT   (1.0f / 60.0f)

/// Mean ms/step over all steps and over the last LAST steps.
typedef struct timing {
    double all, last;
} timing;

/// Steps between reorderings of the rain worlds' slots (0: never), and
/// the period of the "on" rows (--period; default the library's).
static int order_period = LEDGE__ORDER_PERIOD, period_on = LEDGE__ORDER_PERIOD;

/// Times with the process's CPU clock instead of the wall clock (--cpu):
/// on a machine shared with other jobs, waiting for a core then does not
/// count (cache misses caused by the other jobs still do).
static bool cpu_clock;
// --dig: before every step the game sets one tile far above the pile (the
// top row's cell 1, EMPTY and FULL in turn), as a game digging through its
// level while a pile sleeps.
static bool dig;

// One step of the timed loop (with --dig, the edit before it).
static void step_rain(scene *s, int k) {
    if (dig) {
        ledge_tilemap_set(ledge_world_tilemap(s->world), 1, s->height - 1,
                          k % 2 ? LEDGE_TILE_FULL : LEDGE_TILE_EMPTY);
    }
    ledge_world_step(s->world, DT);
}

static double clock_ns(void) {
    if (!cpu_clock) return now_ns();
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/// Runs per figure (--runs, default 3), at most RUNS.
static int run_count = 3;

static double median(double *x) {
    qsort(x, (size_t)run_count, sizeof x[0], cmp_double);
    return x[run_count / 2];
}

/// The median over the runs of each mean, taken separately.
static timing median_timing(timing *runs) {
    double all[RUNS], last[RUNS];
    for (int r = 0; r < run_count; ++r) {
        all[r] = runs[r].all;
        last[r] = runs[r].last;
    }
    timing t = {median(all), median(last)};
    return t;
}

// Three clock reads per run rather than two per step: the floor's step at
// N = 1,000 is about a microsecond, and a read costs a few percent of that.
#define TIME_STEPS(result, step)                                                                   \
    do {                                                                                           \
        double t0_ = clock_ns(), tm_ = t0_;                                                        \
        for (int s_ = 0; s_ < step_count; ++s_) {                                                  \
            if (s_ == step_count - LAST) tm_ = clock_ns();                                         \
            step;                                                                                  \
        }                                                                                          \
        double t1_ = clock_ns();                                                                   \
        (result).all = (t1_ - t0_) / step_count * 1e-6;                                            \
        (result).last = (t1_ - tm_) / LAST * 1e-6;                                                 \
    } while (0)

/// Times the world step on the rain scene (open = false) or the open scene.
/// Fills *q from the last run and says whether all runs ended alike.
static bool time_world(int n, bool open, timing *out, scene_figures *q, scene *keep) {
    timing runs[RUNS];
    bool same = true;
    for (int r = 0; r < run_count; ++r) {
        scene s;
        bool built = open ? scene_rain_open(n, step_count, DT, &s) : scene_rain(n, &s);
        if (!built) {
            fprintf(stderr, "bench_world: cannot build the scene for N = %d\n", n);
            exit(1);
        }
        ledge__order_set_period(s.world, order_period);
        TIME_STEPS(runs[r], step_rain(&s, s_));
        scene_figures f = scene_quality(&s);
        if (r > 0 && f.hash != q->hash) same = false;
        *q = f;
        held_bytes = mem.live;
        if (keep && r == run_count - 1) {
            *keep = s; // the caller compares it with the floor
        } else {
            scene_destroy(&s);
        }
    }
    *out = median_timing(runs);
    return same;
}

/// Times the integrate-only floor on the rain scene's bodies; keeps the
/// last run's floor in *keep.
static timing time_floor(int n, scene_floor *keep) {
    timing runs[RUNS];
    for (int r = 0; r < run_count; ++r) {
        scene s;
        scene_floor f;
        if (!scene_rain(n, &s) || !scene_floor_create(&s, &f)) {
            fprintf(stderr, "bench_world: cannot build the floor for N = %d\n", n);
            exit(1);
        }
        scene_destroy(&s);
        TIME_STEPS(runs[r], scene_floor_step(&f, DT));
        sink = f.position[n - 1].y;
        if (r == run_count - 1) {
            *keep = f;
        } else {
            scene_floor_destroy(&f);
        }
    }
    return median_timing(runs);
}

/// Whether the open world's bodies ended bit-equal to the floor's.
static bool same_as_floor(const scene *s, const scene_floor *f) {
    for (int k = 0; k < s->count; ++k) {
        vec2s p = ledge_body_position(s->world, s->bodies[k]);
        vec2s u = ledge_body_velocity(s->world, s->bodies[k]);
        if (memcmp(&p, &f->position[k], sizeof p) != 0) return false;
        if (memcmp(&u, &f->velocity[k], sizeof u) != 0) return false;
    }
    return true;
}

static void print_quality(int n, const char *order, const scene_figures *q) {
    double r = RAIN_RADIUS;
    printf("%8d %5s %8d %9d %9.5f m %5.1f%% r %9.5f m %5.1f%% r %8d %5.1f%% %9.4f\n", n, order,
           q->escaped, q->inside_solid, q->max_body_overlap, 100.0 * q->max_body_overlap / r,
           q->max_tile_overlap, 100.0 * q->max_tile_overlap / r, q->moving,
           100.0 * q->moving / q->count, q->max_speed);
}

int main(int argc, char **argv) {
    int sizes[16] = {1000, 10000}, count = 0;
    bool models[2] = {true, true}; // Coulomb, N
    bool rain_only = false;
    bool orders[2] = {true, true}; // on, off
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--friction") == 0 && i + 1 < argc) {
            const char *m = argv[++i];
            models[0] = strcmp(m, "coulomb") == 0 || strcmp(m, "both") == 0;
            models[1] = strcmp(m, "n") == 0 || strcmp(m, "both") == 0;
            if (!models[0] && !models[1]) goto usage;
            continue;
        }
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            run_count = atoi(argv[++i]);
            if (run_count < 1 || run_count > RUNS) goto usage;
            continue;
        }
        if (strcmp(argv[i], "--order") == 0 && i + 1 < argc) {
            const char *o = argv[++i];
            orders[0] = strcmp(o, "on") == 0 || strcmp(o, "both") == 0;
            orders[1] = strcmp(o, "off") == 0 || strcmp(o, "both") == 0;
            if (!orders[0] && !orders[1]) goto usage;
            continue;
        }
        if (strcmp(argv[i], "--period") == 0 && i + 1 < argc) {
            period_on = atoi(argv[++i]);
            if (period_on < 1) goto usage;
            continue;
        }
        if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            step_count = atoi(argv[++i]);
            if (step_count < 1) goto usage;
            continue;
        }
        if (strcmp(argv[i], "--cpu") == 0) {
            cpu_clock = true;
            continue;
        }
        if (strcmp(argv[i], "--rain-only") == 0) {
            rain_only = true;
            continue;
        }
        if (strcmp(argv[i], "--dig") == 0) {
            dig = true;
            continue;
        }
        if (strcmp(argv[i], "--sleep") == 0) {
            scene_sleep = true;
            continue;
        }
        char *end;
        long n = strtol(argv[i], &end, 10);
        if (*end != '\0' || n < 2 || n > 10000000 || count == 16) goto usage;
        sizes[count++] = (int)n;
    }
    if (count == 0) count = 2;
    ledge_set_allocator(count_alloc, count_free, NULL);

    printf("scene rain: %d steps at dt = 1/60, mean ms/step, median of %d runs, setup untimed%s\n",
           step_count, run_count, cpu_clock ? " (process CPU time, --cpu)" : "");
    if (!rain_only) {
        printf("floor: integrate-only (the world's stage 1 over the same bodies in plain "
               "arrays)\n");
        printf("open: the same circles, no tiles, never touching (the step with nothing to "
               "hit)\n\n");
        printf("%8s | %9s %9s | %9s %9s | %s\n", "N", "floor", "last 100", "open", "last 100",
               "open == floor");
        for (int i = 0; i < count; ++i) {
            int n = sizes[i];
            timing floor_t, open_t;
            scene_floor f;
            scene open;
            scene_figures open_q;
            floor_t = time_floor(n, &f);
            bool open_same = time_world(n, true, &open_t, &open_q, &open);
            bool match = same_as_floor(&open, &f);
            scene_destroy(&open);
            scene_floor_destroy(&f);
            printf("%8d | %9.4f %9.4f | %9.3f %9.3f | %s%s\n", n, floor_t.all, floor_t.last,
                   open_t.all, open_t.last, match ? "bit-equal" : "DIFFERS",
                   open_same ? "" : "  WARNING: runs ended in different states");
            fflush(stdout);
        }
    }

    static const char *names[2] = {"LEDGE_FRICTION_COULOMB", "LEDGE_FRICTION_N"};
    static const ledge_friction_law model_of[2] = {LEDGE_FRICTION_COULOMB, LEDGE_FRICTION_N};
    for (int m = 0; m < 2; ++m) {
        if (!models[m]) continue;
        scene_friction = model_of[m];
        scene_figures quality[2][16];
        printf("\nrain, friction law %s; slots ordered by space every %d steps (on) or never "
               "(off)\n",
               names[m], period_on);
        printf("%8s %5s | %9s %9s | %11s %9s | %9s | %s\n", "N", "order", "step", "last 100",
               "time/t(N0)", "N/N0", "on/off", "bytes/body held");
        double first[2] = {0.0, 0.0};
        for (int i = 0; i < count; ++i) {
            int n = sizes[i];
            timing step[2];
            for (int o = 0; o < 2; ++o) {
                if (!orders[o]) continue;
                order_period = o == 0 ? period_on : 0;
                bool same = time_world(n, false, &step[o], &quality[o][i], NULL);
                if (i == 0) first[o] = step[o].all;
                printf("%8d %5s | %9.3f %9.3f | %11.2f %9.1f | ", n, o == 0 ? "on" : "off",
                       step[o].all, step[o].last, step[o].all / first[o], (double)n / sizes[0]);
                if (o == 1 && orders[0]) {
                    printf("%9.2f | ", step[0].all / step[1].all);
                } else {
                    printf("%9s | ", "");
                }
                printf("%.0f%s\n", (double)held_bytes / n,
                       same ? "" : "  WARNING: runs ended in different states (world hash)");
                fflush(stdout);
            }
        }
        printf("quality after the last step (must be 0: escaped or non-finite, centre in solid)\n");
        printf("%8s %5s %8s %9s %20s %20s %14s %9s\n", "N", "order", "escaped", "in solid",
               "max circle-circle", "max circle-tile", "moving >0.1", "max m/s");
        for (int o = 0; o < 2; ++o) {
            if (!orders[o]) continue;
            for (int i = 0; i < count; ++i)
                print_quality(sizes[i], o == 0 ? "on" : "off", &quality[o][i]);
        }
    }
    scene_friction = LEDGE_FRICTION_N;
    return 0;
usage:
    fprintf(stderr,
            "usage: bench_world [--friction n|coulomb|both] [--runs 1..%d] [--order on|off|both] "
            "[--period P] [--cpu] [--steps S] [--rain-only] [--sleep] [--dig] "
            "[N ...]   (2 <= N <= 10000000)\n",
            RUNS);
    return 2;
}
