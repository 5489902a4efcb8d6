// Benchmark of snapshots (include/ledge/snapshot.h) on the rain scene
// (tests/scenes.c): N circles after 600 steps at dt = 1/60, then, in the
// same run, the median of 15 of
// - one ledge_world_save (into a buffer of ledge_world_snapshot_size),
// - one ledge_world_restore of that snapshot into the same world,
// - one ledge_world_step of the world as it goes on (no restore between),
// - the first step after a restore (which finds the grid, the query index
//   and the sleeping blocks again),
// - one ledge_world_hash (the replay hash) of the world,
// and the snapshot's bytes per body. Each response model asked for
// (--friction n|coulomb|both, default both); --sleep lets the bodies sleep.
// Printed, never asserted (tests/test_snapshot.c checks the bits).
//
// Run: meson test -C <release build> --benchmark snapshot -v
//  or: <build>/tests/bench_snapshot [--friction n|coulomb|both] [--sleep] [N ...] (default 10000)
//
// In instructions (tests/bench_callgrind_snapshot.sh): --callgrind
// save|restore|step runs the 600 steps, one save and one restore untimed,
// then that one call with callgrind's instrumentation on (N's model, or
// --friction coulomb).
#define _POSIX_C_SOURCE 199309L
#define RUNS            15
#include "bench_timing.h"
#include "scenes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LEDGE_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#define CALLGRIND_TOGGLE_COLLECT
#endif

static double median(double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return t[n / 2];
}

static int run(int n, ledge_friction_law model) {
    scene_friction = model;
    scene s;
    if (!scene_rain(n, &s)) return 1;
    for (int k = 0; k < 600; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    size_t cap = ledge_world_snapshot_size(s.world);
    unsigned char *buf = malloc(cap);
    if (buf == NULL) return 1;
    size_t size = 0;
    double save[RUNS], restore[RUNS], step[RUNS], after[RUNS];
    for (int r = 0; r < RUNS; ++r) {
        double t0 = now_ns();
        size = ledge_world_save(s.world, buf, cap);
        double t1 = now_ns();
        bool ok = ledge_world_restore(s.world, buf, size);
        double t2 = now_ns();
        if (size == 0 || !ok) return 1;
        save[r] = (t1 - t0) * 1e-6;
        restore[r] = (t2 - t1) * 1e-6;
    }
    uint64_t hash = 0;
    double hashing[RUNS];
    for (int r = 0; r < RUNS; ++r) {
        double t0 = now_ns();
        hash = ledge_world_hash(s.world);
        hashing[r] = (now_ns() - t0) * 1e-6;
    }
    for (int r = 0; r < RUNS; ++r) {
        double t0 = now_ns();
        ledge_world_step(s.world, 1.0f / 60.0f);
        step[r] = (now_ns() - t0) * 1e-6;
    }
    for (int r = 0; r < RUNS; ++r) {
        ledge_world_restore(s.world, buf, size);
        double t0 = now_ns();
        ledge_world_step(s.world, 1.0f / 60.0f);
        after[r] = (now_ns() - t0) * 1e-6;
    }
    ledge_world_restore(s.world, buf, size);
    int bodies = ledge_world_body_count(s.world);
    double ms_save = median(save, RUNS), ms_restore = median(restore, RUNS);
    double ms_step = median(step, RUNS), ms_after = median(after, RUNS);
    double ms_hash = median(hashing, RUNS);
    printf("%8d %-9s %10zu %9.1f %9.3f %9.3f %9.3f %9.3f %10.3f %9.4f  %016llx\n", n,
           model == LEDGE_FRICTION_N ? "N" : "Coulomb", size, (double)size / bodies, ms_save,
           ms_restore, ms_step, ms_after, (ms_save + ms_restore) / ms_step, ms_hash,
           (unsigned long long)hash);
    free(buf);
    scene_destroy(&s);
    return 0;
}

// One save, restore or step of the rain of n after 600 steps (and one
// save and restore, so that the restore has its room), under callgrind.
static int run_callgrind(int n, ledge_friction_law model, const char *what) {
    scene_friction = model;
    scene s;
    if (!scene_rain(n, &s)) return 1;
    for (int k = 0; k < 600; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    size_t cap = ledge_world_snapshot_size(s.world);
    unsigned char *buf = malloc(cap);
    if (buf == NULL) return 1;
    size_t size = ledge_world_save(s.world, buf, cap);
    if (size == 0 || !ledge_world_restore(s.world, buf, size)) return 1;
    for (int k = 0; k < 3; ++k) ledge_world_step(s.world, 1.0f / 60.0f); // (found again)
    size = ledge_world_save(s.world, buf, cap);
    bool ok = size > 0;
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_TOGGLE_COLLECT;
    if (!strcmp(what, "save")) {
        ok = ledge_world_save(s.world, buf, cap) == size;
    } else if (!strcmp(what, "restore")) {
        ok = ledge_world_restore(s.world, buf, size);
    } else {
        ledge_world_step(s.world, 1.0f / 60.0f);
    }
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("rain of %d after 603 steps, %s model: one %s measured (snapshot %zu bytes)\n", n,
           model == LEDGE_FRICTION_N ? "N's" : "Coulomb's", what, size);
    free(buf);
    scene_destroy(&s);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    int models = 3, sizes[16], count = 0;
    const char *callgrind = NULL;
    for (int a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "--callgrind") && a + 1 < argc) {
            callgrind = argv[++a];
        } else if (!strcmp(argv[a], "--friction") && a + 1 < argc) {
            ++a;
            models = !strcmp(argv[a], "n") ? 1 : !strcmp(argv[a], "coulomb") ? 2 : 3;
        } else if (!strcmp(argv[a], "--sleep")) {
            scene_sleep = true;
        } else if (count < 16 && atoi(argv[a]) >= 2) {
            sizes[count++] = atoi(argv[a]);
        } else {
            fprintf(stderr, "usage: bench_snapshot [--friction n|coulomb|both] [--sleep] "
                            "[--callgrind save|restore|step] [N ...]\n");
            return 2;
        }
    }
    if (count == 0) sizes[count++] = 10000;
    if (callgrind != NULL)
        return run_callgrind(sizes[0], models == 2 ? LEDGE_FRICTION_COULOMB : LEDGE_FRICTION_N,
                             callgrind);
    printf("rain after 600 steps%s, median of %d: save, restore, a step, the first step after a "
           "restore, ledge_world_hash (ms)\n",
           scene_sleep ? " (sleeping)" : "", RUNS);
    printf("%8s %-9s %10s %9s %9s %9s %9s %9s %10s %9s  %s\n", "N", "model", "bytes", "B/body",
           "save", "restore", "step", "step*", "(s+r)/step", "hash ms", "hash");
    for (int k = 0; k < count; ++k) {
        if ((models & 1) && run(sizes[k], LEDGE_FRICTION_N)) return 1;
        if ((models & 2) && run(sizes[k], LEDGE_FRICTION_COULOMB)) return 1;
    }
    return 0;
}
