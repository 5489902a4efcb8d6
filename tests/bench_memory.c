// Peak resident memory of the rain scene (tests/scenes.c, docs/benchmarks.md,
// "The scenes"): each engine builds the rain of N circles and steps it 120
// times at 1/60 s in a child process of its own, whose peak resident set
// size (wait4's ru_maxrss) is the figure; beside Box2D v3's when built with
// -Dbox2d_v3 (tests/peer_box2d_v3.c), as a ratio. Usage: bench_memory
// [N ...] (default 10,000 and 100,000).
#define _DEFAULT_SOURCE // wait4
#include "peers.h"
#include "scenes.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

enum { STEPS = 120 };
#define DT (1.0f / 60.0f)

static int run_ledge(int n) {
    scene s;
    if (!scene_rain(n, &s)) return 1;
    for (int k = 0; k < STEPS; ++k) ledge_world_step(s.world, DT);
    scene_destroy(&s);
    return 0;
}

#ifdef LEDGE_HAVE_BOX2D_V3
static int run_peer(const peer_engine *e, int n) {
    rain_layout l;
    ledge_tilemap *map = NULL;
    if (!rain_layout_for(n, &l) || !(map = rain_map_create(&l))) return 1;
    void *w = e->create(&l, map);
    if (w == NULL) return 1;
    for (int k = 0; k < STEPS; ++k) e->step(w, DT);
    e->destroy(w);
    ledge_tilemap_destroy(map);
    return 0;
}
#endif

// The peak resident set size in KiB of a child running engine `which`
// (0: ledge, 1: Box2D v3) on the rain of n, or -1 when it failed.
static long peak_kib(int which, int n) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int rc = 1;
        if (which == 0) rc = run_ledge(n);
#ifdef LEDGE_HAVE_BOX2D_V3
        if (which == 1) rc = run_peer(&peer_box2d_v3_locked, n);
#endif
        _exit(rc);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return ru.ru_maxrss;
}

int main(int argc, char **argv) {
    int sizes[16] = {10000, 100000}, count = 2;
    if (argc > 1) {
        count = 0;
        for (int k = 1; k < argc && count < 16; ++k) sizes[count++] = atoi(argv[k]);
    }
    printf("Peak resident memory of the rain after %d steps (MB = 10^6 bytes)\n", STEPS);
    printf("%9s | %10s %10s", "N", "ledge MB", "bytes/body");
#ifdef LEDGE_HAVE_BOX2D_V3
    printf(" | %12s %12s", "Box2D v3 MB", "ledge / v3");
#endif
    printf("\n");
    int failed = 0;
    for (int k = 0; k < count; ++k) {
        int n = sizes[k];
        long mine = peak_kib(0, n);
        failed |= mine < 0;
        printf("%9d | %10.1f %10.0f", n, (double)mine * 1024.0 / 1e6,
               (double)mine * 1024.0 / (double)n);
#ifdef LEDGE_HAVE_BOX2D_V3
        long peer = peak_kib(1, n);
        failed |= peer < 0;
        printf(" | %12.1f %12.2f", (double)peer * 1024.0 / 1e6, (double)mine / (double)peer);
#endif
        printf("\n");
    }
    return failed;
}
