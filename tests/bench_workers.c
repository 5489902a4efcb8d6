// Benchmark of the multi-core step (ledge_world_def.worker_count) on the
// rain scene (docs/benchmarks.md, "The scenes") on the default world,
// optionally also under Coulomb's friction law (--coulomb).
//
// Printed per N:
// - ms/step with 1 and with each other worker count (mean over all steps,
//   median of RUNS runs, setup untimed), the speed-up over 1 worker, and
//   whether every run of every worker count ended with the same world hash
//   (they must: the step's work is split by the data, never by the
//   workers);
// - per stage of the step (one profiled 1-worker run, CPU time of the
//   thread, so that the figures hold on a loaded machine): its share of
//   the step, the part of it spent in tasks the workers share (its
//   parallel fraction), and its CPU ms/step;
// - the whole step's parallel fraction p and Amdahl's prediction
//   1 / ((1 - p) + p / n) for 2, 8 and 16 cores;
// - per stage and worker count, the wall clock over the second half of a
//   run (the first brings the rain down), and of it the time outside the
//   workers' tasks: what the calling thread does alone.
// Wall-clock times on a loaded machine say little (the speed-up above all:
// a second worker needs a free core): the profile's fractions and Amdahl's
// predictions hold whatever the load.
//
// Run: meson test -C <release build> --benchmark workers -v
//  or: <build>/tests/bench_workers [--coulomb] [--sleep] [--steps S] [--workers W ...] [N ...]
//      (default N: 10000 100000; workers 2; steps 600; --sleep: bodies may
//      sleep, ledge_world_def.enable_sleep)
#define _POSIX_C_SOURCE 199309L
#define RUNS            3
#include "bench_timing.h"
#include "scenes.h"
#include "contacts.h"
#include "par.h"
#include "slots.h"
#include "world_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)

static int g_steps = 600;

typedef struct result {
    double ms;                           ///< Median mean ms/step.
    uint64_t hash;                       ///< The last run's world hash.
    bool same;                           ///< All runs ended with that hash.
    scene_figures quality;               ///< After the last run.
    int asleep;                          ///< Bodies asleep after the last run.
    double stage[LEDGE__STAGE_COUNT];    ///< Profiled run: CPU seconds per stage.
    double parallel[LEDGE__STAGE_COUNT]; ///< Of those, in shared tasks.
    double wall[LEDGE__STAGE_COUNT];     ///< Wall-clock run, second half: seconds per stage.
    double alone[LEDGE__STAGE_COUNT];    ///< Of those, outside the workers' tasks.
} result;

static double median3(double *x) {
    qsort(x, RUNS, sizeof x[0], cmp_double);
    return x[RUNS / 2];
}

static void build(int n, int workers, scene *s) {
    scene_worker_count = workers;
    if (!scene_rain(n, s)) {
        fprintf(stderr, "bench_workers: cannot build the rain scene for N = %d\n", n);
        exit(1);
    }
}

static result measure(int n, int workers) {
    result r;
    memset(&r, 0, sizeof r);
    double ms[RUNS];
    r.same = true;
    for (int k = 0; k < RUNS; ++k) {
        scene s;
        build(n, workers, &s);
        double t0 = now_ns();
        for (int i = 0; i < g_steps; ++i) ledge_world_step(s.world, DT);
        ms[k] = (now_ns() - t0) / g_steps * 1e-6;
        scene_figures q = scene_quality(&s);
        r.asleep = 0;
        for (int b = 0; b < s.count; ++b) r.asleep += !ledge_body_is_awake(s.world, s.bodies[b]);
        if (k > 0 && q.hash != r.hash) r.same = false;
        r.hash = q.hash;
        r.quality = q;
        scene_destroy(&s);
    }
    r.ms = median3(ms);
    // The wall clock per stage over the second half of a run (the first
    // brings the rain down): the time the calling thread spends outside
    // the workers' tasks is the step's serial part, as this machine runs it.
    scene s;
    build(n, workers, &s);
    for (int i = 0; i < g_steps / 2; ++i) ledge_world_step(s.world, DT);
    ledge_world_enable_profile(s.world, true);
    for (int i = g_steps / 2; i < g_steps; ++i) ledge_world_step(s.world, DT);
    for (int k = 0; k < LEDGE__STAGE_COUNT; ++k) {
        r.wall[k] = s.world->par.profile.total[k];
        r.alone[k] = s.world->par.profile.total[k] - s.world->par.profile.parallel[k];
    }
    if (scene_quality(&s).hash != r.hash) r.same = false;
    scene_destroy(&s);
    if (workers != 1) return r;
    // One more run with the stage clock on (it reads the clock twice per
    // stage and task, so it is not the headline time): the calling
    // thread's CPU time per stage, and in shared tasks. With one worker
    // that is all the step's work, whatever the load of the machine.
    build(n, workers, &s);
    s.world->par.profile.on = true;
    for (int i = 0; i < g_steps; ++i) ledge_world_step(s.world, DT);
    for (int k = 0; k < LEDGE__STAGE_COUNT; ++k) {
        r.stage[k] = s.world->par.profile.total[k];
        r.parallel[k] = s.world->par.profile.parallel[k];
    }
    if (scene_quality(&s).hash != r.hash) r.same = false;
    scene_destroy(&s);
    return r;
}

static double amdahl(double p, int n) {
    return 1.0 / ((1.0 - p) + p / n);
}

// Per stage and worker count, wall-clock ms a step over the second half of
// a run, and of it outside the workers' tasks (on the calling thread alone).
static void report_wall(const int *workers, int count, const result *res) {
    printf("\n%10s", "stage");
    for (int w = 0; w < count; ++w) printf("   %2d w: ms    alone", workers[w]);
    printf("   (wall clock, steps %d to %d)\n", g_steps / 2, g_steps);
    int steps = g_steps - g_steps / 2;
    double sum[8][2] = {{0}};
    for (int k = 0; k < LEDGE__STAGE_COUNT; ++k) {
        printf("%10s", ledge__stage_names[k]);
        for (int w = 0; w < count; ++w) {
            printf("   %8.4f %8.4f", 1e3 * res[w].wall[k] / steps, 1e3 * res[w].alone[k] / steps);
            sum[w][0] += res[w].wall[k];
            sum[w][1] += res[w].alone[k];
        }
        printf("\n");
    }
    printf("%10s", "step");
    for (int w = 0; w < count; ++w)
        printf("   %8.4f %8.4f", 1e3 * sum[w][0] / steps, 1e3 * sum[w][1] / steps);
    printf("\n");
}

static void report(int n, const int *workers, int count, const result *res) {
    const result *one = &res[0];
    printf("\nN = %d (%d steps, N's friction law unless said)\n", n, g_steps);
    printf("%8s %10s %9s  %s\n", "workers", "ms/step", "speed-up", "hash");
    bool same = true;
    for (int w = 0; w < count; ++w) {
        same = same && res[w].same && res[w].hash == one->hash;
        printf("%8d %10.3f %8.2fx  %016llx%s\n", workers[w], res[w].ms, one->ms / res[w].ms,
               (unsigned long long)res[w].hash, res[w].same ? "" : " (runs DIFFER)");
    }
    printf("%8s %s\n", "", same ? "every worker count: the same hash" : "HASHES DIFFER");
    const scene_figures *q = &one->quality;
    printf("quality: %d escaped, %d in solid, max overlap %.5f m (circle), %.5f m (tile), %d of "
           "%d moving, %d asleep\n",
           q->escaped, q->inside_solid, q->max_body_overlap, q->max_tile_overlap, q->moving,
           q->count, one->asleep);

    double total = 0.0, par = 0.0;
    for (int k = 0; k < LEDGE__STAGE_COUNT; ++k) {
        total += one->stage[k];
        par += one->parallel[k];
    }
    printf("\n%10s %8s %10s %12s   (profiled 1-worker run, CPU time of the thread)\n", "stage",
           "share", "parallel", "ms/step");
    for (int k = 0; k < LEDGE__STAGE_COUNT; ++k) {
        double t = one->stage[k];
        printf("%10s %7.1f%% %9.1f%% %12.4f\n", ledge__stage_names[k], 100.0 * t / total,
               t > 0.0 ? 100.0 * one->parallel[k] / t : 0.0, 1e3 * t / g_steps);
    }
    double p = total > 0.0 ? par / total : 0.0;
    printf("%10s %7.1f%% %9.1f%% %12.4f\n", "step", 100.0, 100.0 * p, 1e3 * total / g_steps);
    printf("Amdahl with p = %.3f: %.2fx on 2 cores, %.2fx on 8, %.2fx on 16\n", p, amdahl(p, 2),
           amdahl(p, 8), amdahl(p, 16));
    report_wall(workers, count, res);
}

static int usage(void) {
    fprintf(stderr,
            "usage: bench_workers [--coulomb] [--sleep] [--steps S] [--workers W ...] [N ...]\n");
    return 2;
}

int main(int argc, char **argv) {
    int sizes[8] = {10000, 100000}, size_count = 0;
    int workers[8] = {1, 2}, worker_count = 1;
    bool coulomb = false;
    for (int i = 1; i < argc; ++i) {
        char *end;
        if (strcmp(argv[i], "--coulomb") == 0) {
            coulomb = true;
        } else if (strcmp(argv[i], "--sleep") == 0) {
            scene_sleep = true;
        } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            g_steps = (int)strtol(argv[++i], &end, 10);
            if (*end != '\0' || g_steps < 1) return usage();
        } else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc && worker_count < 8) {
            long w = strtol(argv[++i], &end, 10);
            if (*end != '\0' || w < 2 || w > LEDGE_MAX_WORKERS) return usage();
            workers[worker_count++] = (int)w;
        } else {
            long n = strtol(argv[i], &end, 10);
            if (*end != '\0' || n < 2 || n > 10000000 || size_count == 8) return usage();
            sizes[size_count++] = (int)n;
        }
    }
    if (worker_count == 1) workers[worker_count++] = 2; // the default: 1 and 2
    if (size_count == 0) size_count = 2;

    printf("rain, ms/step (mean over %d steps, median of %d runs, setup untimed)%s\n", g_steps,
           RUNS, scene_sleep ? ", bodies may sleep" : "");
    for (int m = 0; m < (coulomb ? 2 : 1); ++m) {
        scene_friction = m == 0 ? LEDGE_FRICTION_N : LEDGE_FRICTION_COULOMB;
        if (m == 1) printf("\n--- N's response model (its pile sinks: an open problem) ---\n");
        for (int i = 0; i < size_count; ++i) {
            result res[8];
            for (int w = 0; w < worker_count; ++w) res[w] = measure(sizes[i], workers[w]);
            report(sizes[i], workers, worker_count, res);
            fflush(stdout);
        }
    }
    return 0;
}
