// A long chain's cost (chain.h): 1,000 circles and 200 boxes rolling and
// sliding in the valleys of a wavy chain floor, whose length grows from
// 100 m to 10 km (1,000 to 100,000 segments of 0.1 m) while the part under
// the bodies stays the same, so the bodies move the same in every run and
// only the chain's length differs. The step's time at each length is
// reported beside the shortest chain's (the ratio a chain's length costs)
// and beside the same bodies on a floor of tiles of the same waves' cells
// (a 45 degree sawtooth of tiles; not the same motion: the ratio says what
// meeting a chain costs beside meeting tiles). Then the query side: a ray
// down onto the chain and the nearest chain surface to a point, at each
// length.
//
//   meson test -C build-release --benchmark chain -v
#define _POSIX_C_SOURCE 199309L // clock_gettime

#include <ledge/ledge.h>

#include "bench_timing.h"

#include <stdio.h>
#include <string.h>

enum { CIRCLES = 1000, BOXES = 200, SETTLE = 120, TIMED = 240 };

static ledge_world *make_world(void) {
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 256;
    wd.map_height = 64;
    return ledge_world_create(&wd);
}

// The floor: y = 10 + 0.6 sin(2 pi x / 5) from x = -L / 2 + 64 on, 0.1 m a
// segment, right to left (its surface faces up).
static void add_chain(ledge_world *w, int segments) {
    vec2s *p = malloc(sizeof *p * (size_t)(segments + 1));
    double x0 = 64.0 - 0.05 * segments;
    for (int k = 0; k <= segments; ++k) {
        double x = x0 + 0.1 * (segments - k);
        p[k] = v(x, 10.0 + 0.6 * sin(2.0 * 3.14159265358979 * x / 5.0));
    }
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = p;
    cd.count = segments + 1;
    ledge_chain_id id = ledge_chain_create(w, &cd);
    if (!ledge_chain_is_valid(w, id)) {
        fprintf(stderr, "bench_chain: the chain of %d segments was refused\n", segments);
        exit(1);
    }
    free(p);
}

// A tile floor of the same span under the bodies: a 45 degree sawtooth
// one cell high on FULL ground (row 9), top near y = 10.
static void add_tiles(ledge_world *w) {
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 256; ++x) {
        for (int y = 0; y < 9; ++y) ledge_tilemap_set(map, x, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, x, 9, (x & 1) ? LEDGE_TILE_45DEG_PP : LEDGE_TILE_45DEG_NP);
    }
}

static void add_bodies(ledge_world *w) {
    bench_rng = 0x1234567ull;
    for (int k = 0; k < CIRCLES + BOXES; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = k < CIRCLES ? ledge_make_circle(v(0, 0), (float)rnd(0.15, 0.3))
                               : ledge_make_box(v(0, 0), v(rnd(0.15, 0.3), rnd(0.15, 0.3)));
        bd.position = v(20.0 + rnd(0.0, 100.0), 12.0 + rnd(0.0, 30.0));
        bd.friction = (float)rnd(0.0, 0.3);
        ledge_body_create(w, &bd);
    }
}

// The median step time (ms) over TIMED steps after SETTLE, RUNS runs.
static double step_ms(int segments) {
    double runs[RUNS];
    for (int r = 0; r < RUNS; ++r) {
        ledge_world *w = make_world();
        if (segments > 0) {
            add_chain(w, segments);
        } else {
            add_tiles(w);
        }
        add_bodies(w);
        for (int k = 0; k < SETTLE; ++k) ledge_world_step(w, 1.0f / 60.0f);
        double t0 = now_ns();
        for (int k = 0; k < TIMED; ++k) ledge_world_step(w, 1.0f / 60.0f);
        runs[r] = (now_ns() - t0) / 1e6 / TIMED;
        sink = (float)(ledge_world_hash(w) & 0xff);
        ledge_world_destroy(w);
    }
    qsort(runs, RUNS, sizeof runs[0], cmp_double);
    return runs[RUNS / 2];
}

// The ns of a ray cast straight down onto the chain and of the nearest
// chain surface to a point, both at random x under the bodies' span.
static void query_ns(int segments, double *ray, double *nearest) {
    ledge_world *w = make_world();
    add_chain(w, segments);
    enum { N = 2000 };
    vec2s from[N];
    bench_rng = 0x89abcdefull;
    for (int i = 0; i < N; ++i) from[i] = v(rnd(20.0, 120.0), rnd(11.0, 14.0));
    ledge_query_filter f = ledge_default_query_filter();
    f.include_tiles = false;
    ledge_raycast_result hit;
    ledge_nearest_result near;
    TIME_LOOP(*ray, N, 20, {
        ledge_world_raycast(w, from[i], v(0, -6), &f, &hit);
        acc += hit.fraction;
    });
    TIME_LOOP(*nearest, N, 20, {
        ledge_world_nearest_point(w, from[i], 5.0f, &f, &near);
        acc += near.distance.distance;
    });
    ledge_world_destroy(w);
}

int main(void) {
    const int lengths[] = {1000, 10000, 100000};
    printf("bench_chain: %d circles and %d boxes in the valleys of a wavy chain of 0.1 m "
           "segments; median of %d runs of %d steps after %d\n",
           CIRCLES, BOXES, RUNS, TIMED, SETTLE);
    double tiles = step_ms(0);
    printf("  %-28s %8.3f ms a step\n", "tile sawtooth (baseline)", tiles);
    double first = 0.0;
    for (int k = 0; k < 3; ++k) {
        double ms = step_ms(lengths[k]);
        if (k == 0) first = ms;
        printf("  chain of %7d segments    %8.3f ms a step  x%.3f the %d-segment chain, "
               "x%.3f the tiles\n",
               lengths[k], ms, ms / first, lengths[0], ms / tiles);
    }
    for (int k = 0; k < 3; ++k) {
        double ray, nearest;
        query_ns(lengths[k], &ray, &nearest);
        printf("  chain of %7d segments    ray down %7.1f ns, nearest point %7.1f ns\n", lengths[k],
               ray, nearest);
    }
    return 0;
}
