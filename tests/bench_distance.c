// Benchmark of the distance queries (distance.h): nanoseconds per
// ledge_shape_distance call for each pair kind, apart pairs (the usual
// question: how far) and overlapping ones timed apart, with ledge_collide
// over the same pairs measured in the same run as the baseline. Then
// ledge_tilemap_distance, the "how far is the floor" probe. Each figure is
// the median of 5 runs. A second same-run baseline is the empty call: an
// out-of-line function of the same signature that returns its arguments
// (the loop, the call and the 32-byte result without any geometry), so that
// "x call" says how many calls' worth a query costs on any day. Targets (issue 18): box-box and
// circle-polygon under 20 ns, polygon8-polygon8 under 120 ns (apart pairs).
//
// Run: meson test -C <release build> --benchmark distance -v
//  or: <build>/tests/bench_distance [--min]
// --min reports the fastest of 400 short runs instead of the median of 5
// long ones: an estimate of the quiet machine's figures on a loaded one.
// Instruction counts per call (stable on a busy machine): tests/bench_distance_ir.sh,
// which runs `bench_distance --ir KIND` under callgrind.
#define _POSIX_C_SOURCE 199309L
#include <ledge/ledge.h>

#include "bench_timing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PAIRS  512
#define REPEAT 400

typedef bench_pair pair;

// PAIRS apart and PAIRS overlapping pairs, b within 6 units of a.
static void fill(int ta, int tb, pair *apart, pair *over) {
    int na = 0, no = 0;
    while (na < PAIRS || no < PAIRS) {
        pair p = {bench_make_shape(ta), bench_make_shape(tb), v(rnd(-50, 50), rnd(-50, 50)),
                  v(0, 0)};
        p.pb = v(p.pa.x + rnd(-6, 6), p.pa.y + rnd(-6, 6));
        bool hit = ledge_collide(&p.a, p.pa, &p.b, p.pb).hit;
        if (!hit && na < PAIRS) apart[na++] = p;
        if (hit && no < PAIRS) over[no++] = p;
    }
}

/// `--min`: each figure the fastest of many short runs (bench_timing.h).
static bool g_min;

static double time_distance(const pair *p) {
    double t;
    if (g_min) {
        TIME_LOOP_MIN(t, PAIRS, 8, 400,
                      acc += ledge_shape_distance(&p[i].a, p[i].pa, &p[i].b, p[i].pb).distance);
        return t;
    }
    TIME_LOOP(t, PAIRS, REPEAT,
              acc += ledge_shape_distance(&p[i].a, p[i].pa, &p[i].b, p[i].pb).distance);
    return t;
}

// The empty call: the signature of ledge_shape_distance, no geometry (a
// constant result, copied as a query's is written; a result assembled in
// fields is built on the stack by gcc and copied, a store-forwarding stall
// that the queries do not pay). Read
// through a volatile pointer so that the compiler can neither inline it nor
// see what it does.
__attribute__((noinline)) static ledge_distance_result empty_call(const ledge_shape *a, vec2s pa,
                                                                  const ledge_shape *b, vec2s pb) {
    static const ledge_distance_result none = {1.0f, {{0, 0}}, {{0, 0}}, {{0, 1}}, 0};
    (void)a;
    (void)pa;
    (void)b;
    (void)pb;
    return none;
}
typedef ledge_distance_result (*distance_fn)(const ledge_shape *, vec2s, const ledge_shape *,
                                             vec2s);
static distance_fn volatile g_empty = empty_call;

static double time_empty(const pair *p) {
    distance_fn f = g_empty;
    double t;
    if (g_min) {
        TIME_LOOP_MIN(t, PAIRS, 8, 400, acc += f(&p[i].a, p[i].pa, &p[i].b, p[i].pb).distance);
        return t;
    }
    TIME_LOOP(t, PAIRS, REPEAT, acc += f(&p[i].a, p[i].pa, &p[i].b, p[i].pb).distance);
    return t;
}

static double time_collide(const pair *p) {
    if (g_min) {
        double t;
        TIME_LOOP_MIN(t, PAIRS, 8, 400,
                      acc += ledge_collide(&p[i].a, p[i].pa, &p[i].b, p[i].pb).depth);
        return t;
    }
    return bench_time_collide(p, PAIRS, REPEAT);
}

// One pass over the pairs, for callgrind (bench_distance_ir.sh counts the
// instructions inside these two functions).
__attribute__((noinline)) float ir_distance(const pair *p) {
    float acc = 0.0f;
    for (int i = 0; i < PAIRS; ++i) {
        acc += ledge_shape_distance(&p[i].a, p[i].pa, &p[i].b, p[i].pb).distance;
    }
    return acc;
}
__attribute__((noinline)) float ir_empty(const pair *p) {
    distance_fn f = g_empty;
    float acc = 0.0f;
    for (int i = 0; i < PAIRS; ++i) acc += f(&p[i].a, p[i].pa, &p[i].b, p[i].pb).distance;
    return acc;
}
__attribute__((noinline)) float ir_collide(const pair *p) {
    float acc = 0.0f;
    for (int i = 0; i < PAIRS; ++i) acc += ledge_collide(&p[i].a, p[i].pa, &p[i].b, p[i].pb).depth;
    return acc;
}

static double mean_iterations(const pair *p) {
    double sum = 0.0;
    for (int i = 0; i < PAIRS; ++i) {
        sum += ledge_shape_distance(&p[i].a, p[i].pa, &p[i].b, p[i].pb).iterations;
    }
    return sum / PAIRS;
}

// A 64 x 16 level: a floor, steps, slopes and round tiles; a player-sized
// box probed for the floor within 2 tiles from random places.
enum { FLOOR_N = 256 };
static ledge_tilemap *floor_map(vec2s *pos) {
    ledge_tilemap_def def = ledge_default_tilemap_def();
    def.width = 64;
    def.height = 16;
    ledge_tilemap *map = ledge_tilemap_create(&def);
    for (int x = 0; x < 64; ++x) {
        ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
        if (rnd(0, 1) < 0.4) ledge_tilemap_set(map, x, 1, (ledge_tile)(1 + (int)rnd(0, 32.999)));
    }
    for (int i = 0; i < FLOOR_N; ++i) pos[i] = v(rnd(2, 62), rnd(2.5, 5));
    return map;
}

__attribute__((noinline)) float ir_floor(const ledge_tilemap *map, const vec2s *pos) {
    ledge_shape player = ledge_make_box(v(0, 0), v(0.4, 0.9));
    ledge_tilemap_distance_result r;
    float acc = 0.0f;
    for (int i = 0; i < FLOOR_N; ++i) {
        ledge_tilemap_distance(map, &player, pos[i], 2.0f, &r);
        acc += r.distance.distance;
    }
    return acc;
}

static void bench_floor(void) {
    enum { N = FLOOR_N };
    static vec2s pos[N];
    ledge_tilemap *map = floor_map(pos);
    ledge_shape player = ledge_make_box(v(0, 0), v(0.4, 0.9));
    ledge_tilemap_distance_result r;
    double t;
    TIME_LOOP(t, N, REPEAT / 8, {
        ledge_tilemap_distance(map, &player, pos[i], 2.0f, &r);
        acc += r.distance.distance;
    });
    printf("\nledge_tilemap_distance, 0.8 x 1.8 box, reach 2 tiles, over a bumpy floor: %.1f ns\n",
           t);
    ledge_tilemap_destroy(map);
}

int main(int argc, char **argv) {
    bench_rng = 0x853C49E6748FEA9Bull;
    ledge_set_log_hook(bench_quiet_log, NULL);
    static const struct {
        const char *name;
        int ta, tb;
        double target;
    } kinds[] = {
        {"circle-circle", 0, 0, 0},   {"circle-box", 0, 1, 0},          {"box-box", 1, 1, 20},
        {"circle-polygon", 0, 2, 20}, {"polygon-circle", 2, 0, 20},     {"box-polygon", 1, 2, 0},
        {"polygon-polygon", 2, 2, 0}, {"polygon8-polygon8", 3, 3, 120},
    };
    static pair apart[PAIRS], over[PAIRS];
    if (argc == 3 && strcmp(argv[1], "--ir") == 0 && strcmp(argv[2], "floor") == 0) {
        static vec2s pos[FLOOR_N];
        ledge_tilemap *map = floor_map(pos);
        sink = ir_floor(map, pos);
        ledge_tilemap_destroy(map);
        printf("%d\n", FLOOR_N);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--ir") == 0) {
        for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
            if (strcmp(argv[2], kinds[k].name) != 0) continue;
            fill(kinds[k].ta, kinds[k].tb, apart, over);
            sink = ir_distance(apart) + ir_collide(apart) + ir_empty(apart);
            printf("%d\n", PAIRS);
            return 0;
        }
        return 1;
    }
    g_min = argc == 2 && strcmp(argv[1], "--min") == 0;
    if (g_min) {
        printf("scene distance: ns per ledge_shape_distance, fastest of 400 runs of 8 x %d pairs "
               "(--min: an estimate for a loaded machine)\n",
               PAIRS);
    } else {
        printf("scene distance: ns per ledge_shape_distance, median of %d runs of %d x %d pairs\n",
               RUNS, REPEAT, PAIRS);
    }
    printf("baselines, same run: an empty call of the same signature (\"x call\"), and\n"
           "ledge_collide over the same pairs (\"x collide\")\n\n");
    printf("%-18s %9s %7s %8s %7s %11s %9s %10s %9s %7s\n", "pair", "apart ns", "target", "call ns",
           "x call", "collide ns", "x collide", "overlap ns", "x collide", "GJK its");
    for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        fill(kinds[k].ta, kinds[k].tb, apart, over);
        double da = time_distance(apart), ea = time_empty(apart), ca = time_collide(apart);
        double dover = time_distance(over), cover = time_collide(over);
        char target[16] = "-";
        if (kinds[k].target > 0) snprintf(target, sizeof target, "< %.0f", kinds[k].target);
        printf("%-18s %9.2f %7s %8.2f %7.2f %11.2f %9.2f %10.2f %9.2f %7.2f\n", kinds[k].name, da,
               target, ea, da / ea, ca, da / ca, dover, dover / cover, mean_iterations(apart));
    }
    printf("\ninstructions per call (steady under load): tests/bench_distance_ir.sh <build dir>\n");
    bench_floor();
    return 0;
}
