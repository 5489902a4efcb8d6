// Benchmark scene "narrow" (docs/benchmarks.md, "The scenes"): nanoseconds per
// ledge_collide call for each pair kind, hits and misses timed apart, with
// the cost of a plain world-AABB overlap test over the same pairs measured
// in the same run as the floor. Each figure is the median of 5 runs.
//
// Run: meson test -C <release build> --benchmark narrow -v
//  or: <build>/tests/bench_narrow
#define _POSIX_C_SOURCE 199309L
#include <ledge/ledge.h>

#include "bench_timing.h"
#include "tile_collide.h" // the path a tilemap takes: geometry precomputed

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAIRS  512
#define REPEAT 400

typedef bench_pair pair;

typedef struct kind {
    const char *name;
    int ta, tb; // 0 circle, 1 box, 2 polygon 3..8, 3 octagon-like 8-gon
} kind;

static double time_collide(const pair *p, int n) {
    return bench_time_collide(p, n, REPEAT);
}

// Misses with a warm separating-axis cache per pair (frame coherence: the
// pair has not moved since the cache was filled).
static double time_cached(const pair *p, int n) {
    static ledge_sat_cache cache[PAIRS];
    memset(cache, 0, sizeof cache);
    for (int i = 0; i < n; ++i) ledge_collide_cached(&p[i].a, p[i].pa, &p[i].b, p[i].pb, &cache[i]);
    double t;
    TIME_LOOP(t, n, REPEAT,
              acc += ledge_collide_cached(&p[i].a, p[i].pa, &p[i].b, p[i].pb, &cache[i]).depth);
    return t;
}

static bool aabb_overlap(const pair *q) {
    const ledge_shape *a = &q->a, *b = &q->b;
    return a->bounds.upper.x + q->pa.x >= b->bounds.lower.x + q->pb.x &&
           b->bounds.upper.x + q->pb.x >= a->bounds.lower.x + q->pa.x &&
           a->bounds.upper.y + q->pa.y >= b->bounds.lower.y + q->pb.y &&
           b->bounds.upper.y + q->pb.y >= a->bounds.lower.y + q->pa.y;
}

static double time_aabb(const pair *p, int n) {
    double t;
    TIME_LOOP(t, n, REPEAT, acc += (float)aabb_overlap(&p[i]));
    return t;
}

// Fills PAIRS hits and PAIRS misses of one kind. Misses are near misses:
// placed within the sum of the shapes' sizes, as a broad phase hands them on.
static void fill(const kind *k, pair *hits, pair *misses) {
    int nh = 0, nm = 0;
    while (nh < PAIRS || nm < PAIRS) {
        pair p;
        p.a = bench_make_shape(k->ta);
        p.b = bench_make_shape(k->tb);
        p.pa = v(rnd(-50, 50), rnd(-50, 50));
        double reach = 3.2;
        p.pb = v(p.pa.x + rnd(-reach, reach), p.pa.y + rnd(-reach, reach));
        bool hit = ledge_collide(&p.a, p.pa, &p.b, p.pb).hit;
        if (hit && nh < PAIRS) hits[nh++] = p;
        if (!hit && nm < PAIRS) misses[nm++] = p;
    }
}

// --- shapes vs tiles ---------------------------------------------------------

typedef struct tile_pair {
    ledge_tile tile;
    ledge_shape s;
    vec2s pos;
} tile_pair;

// Fills PAIRS hits and misses of shape kind `kind` against the tiles of one
// group (cell [0, 1]^2, no blocked sides), shapes of 0.3..1.5 cells placed
// within reach of the cell.
static void fill_tiles(int kind, ledge_tile_group group, tile_pair *hits, tile_pair *misses) {
    ledge_tile ids[4];
    int n_ids = 0;
    for (int t = 1; t < LEDGE_TILE_COUNT; ++t) {
        if (ledge_tile_group_of((ledge_tile)t) == group) ids[n_ids++] = (ledge_tile)t;
    }
    int nh = 0, nm = 0;
    while (nh < PAIRS || nm < PAIRS) {
        tile_pair p;
        p.tile = ids[(nh + nm) % n_ids];
        p.s = bench_make_shape(kind);
        p.pos = v(rnd(-1.2, 2.2), rnd(-1.2, 2.2));
        bool hit = ledge_collide_tile(p.tile, v(0, 0), 1.0f, 0, &p.s, p.pos).hit;
        if (hit && nh < PAIRS) hits[nh++] = p;
        if (!hit && nm < PAIRS) misses[nm++] = p;
    }
}

static double time_tiles(const tile_pair *p, int n) {
    static ledge__tile_geom geom[LEDGE_TILE_COUNT];
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) ledge__tile_geom_of((ledge_tile)t, &geom[t]);
    double t;
    TIME_LOOP(
        t, n, REPEAT / 4,
        acc +=
        ledge__tile_collide(&geom[p[i].tile], NULL, v(0, 0), 1.0f, 0, &p[i].s, p[i].pos).depth);
    return t;
}

static void bench_tiles(void) {
    static const char *const kind_names[] = {"circle", "box", "polygon"};
    static const char *const group_names[] = {
        "",          "FULL",        "45DEG",     "CONCAVE", "CONVEX", "22DEG_SMALL",
        "22DEG_BIG", "67DEG_SMALL", "67DEG_BIG", "HALF"};
    static tile_pair hits[PAIRS], misses[PAIRS];
    printf("\nshape vs tile (the tilemap's per-cell path, geometry precomputed), ns per test\n");
    printf("%-12s", "group");
    for (int k = 0; k < 3; ++k) printf(" %9s hit %5s miss", kind_names[k], "");
    printf("\n");
    for (int g = LEDGE_TILE_GROUP_FULL; g <= LEDGE_TILE_GROUP_HALF; ++g) {
        printf("%-12s", group_names[g]);
        for (int k = 0; k < 3; ++k) {
            fill_tiles(k == 2 ? 2 : k, (ledge_tile_group)g, hits, misses);
            printf(" %13.2f %10.2f", time_tiles(hits, PAIRS), time_tiles(misses, PAIRS));
        }
        printf("\n");
    }
}

int main(int argc, char **argv) {
    bench_rng = 0x853C49E6748FEA9Bull;
    static const kind kinds[] = {
        {"circle-circle", 0, 0},     {"circle-box", 0, 1},  {"box-box", 1, 1},
        {"circle-polygon", 0, 2},    {"box-polygon", 1, 2}, {"polygon-polygon", 2, 2},
        {"polygon8-polygon8", 3, 3},
    };
    static pair hits[PAIRS], misses[PAIRS];
    ledge_set_log_hook(bench_quiet_log, NULL);
    printf("scene narrow: ns per ledge_collide, median of %d runs of %d x %d pairs\n", RUNS, REPEAT,
           PAIRS);
    printf("floor: a world-AABB overlap test over the same pairs, same run\n\n");
    printf("%-20s %9s %9s %12s %9s %9s %10s\n", "pair", "hit ns", "miss ns", "cached miss",
           "aabb ns", "hit/aabb", "miss/aabb");
    for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) {
        if (argc > 1 && strcmp(argv[1], kinds[i].name) != 0) continue; // one kind, for profiling
        fill(&kinds[i], hits, misses);
        double th = time_collide(hits, PAIRS), tm = time_collide(misses, PAIRS);
        double tc = time_cached(misses, PAIRS);
        double ta = 0.5 * (time_aabb(hits, PAIRS) + time_aabb(misses, PAIRS));
        printf("%-20s %9.2f %9.2f %12.2f %9.2f %9.1f %10.1f\n", kinds[i].name, th, tm, tc, ta,
               th / ta, tm / ta);
    }
    if (argc <= 1 || strcmp(argv[1], "tiles") == 0) bench_tiles();
    return 0;
}
