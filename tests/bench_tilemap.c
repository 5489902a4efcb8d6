// Benchmark of the tilemap queries on the "crowd" scene's map
// (docs/benchmarks.md, "The scenes"): point queries and ray casts per second
// on tests/data/crowd.txt (256 x 64 cells, made by tests/gen_crowd.c), each
// beside a floor measured in the same run on the same inputs:
// - point query floor: the cell index (two floors and a bounds check) and
//   the tile byte read, i.e. everything a point query must do before any
//   tile geometry;
// - ray floor: a bare Amanatides & Woo walk over the same segments that
//   stops at the first non-empty cell, i.e. the grid walk without edge
//   states or tile geometry.
// Each figure is the median of 5 runs. Targets (the tilemap issue): a point
// query under 10 ns, a 20-cell ray under 200 ns. Times are printed, never
// asserted.
//
// Run: meson test -C <release build> --benchmark tilemap -v
//  or: cd tests && <build>/tests/bench_tilemap
#define _POSIX_C_SOURCE 199309L
#include <ledge/ledge.h>

#include "bench_timing.h"
#include "tilemap.h" // the internal layout, for the floors

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POINTS 4096
#define RAYS   2048

// --- loading ----------------------------------------------------------------

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

static ledge_tilemap *load_crowd(void) {
    // meson runs the benchmark in tests/; by hand it may run from the root.
    char *text = read_file("data/crowd.txt");
    if (!text) text = read_file("tests/data/crowd.txt");
    if (!text) {
        fprintf(stderr, "bench_tilemap: data/crowd.txt not found (run from tests/)\n");
        return NULL;
    }
    ledge_tilemap_def def = ledge_default_tilemap_def();
    def.width = 256;
    def.height = 64;
    ledge_tilemap *map = ledge_tilemap_create(&def);
    if (map && !ledge_tilemap_load_ascii(map, text)) {
        ledge_tilemap_destroy(map);
        map = NULL;
    }
    free(text);
    return map;
}

// --- inputs -------------------------------------------------------------------

/// The ground surface of column x: the lowest cell that is not FULL.
static int surface(const ledge_tilemap *m, int x) {
    int y = 0;
    while (y < m->height && ledge_tilemap_get(m, x, y) == LEDGE_TILE_FULL) ++y;
    return y;
}

static void uniform_points(const ledge_tilemap *m, vec2s *p) {
    for (int i = 0; i < POINTS; ++i) p[i] = v(rnd(0, m->width), rnd(0, m->height));
}

/// Probes as a character makes them: feet and knees next to the surface,
/// from a little below the surface cell's bottom to a little above its top.
static void probe_points(const ledge_tilemap *m, vec2s *p) {
    for (int i = 0; i < POINTS; ++i) {
        int x = (int)rnd(1, m->width - 1);
        double s = surface(m, x);
        p[i] = v(x + rnd(0, 1), s + rnd(-0.2, 1.2));
    }
}

typedef struct ray {
    vec2s origin, translation;
} ray;

/// Rays about 20 cells long in any direction, from empty space.
static void long_rays(const ledge_tilemap *m, ray *r) {
    for (int i = 0; i < RAYS;) {
        vec2s o = v(rnd(0, m->width), rnd(0, m->height));
        if (ledge_tilemap_query_point(m, o, NULL)) continue;
        double a = rnd(0, 6.283185307179586), len = rnd(18, 22);
        r[i].origin = o;
        r[i].translation = v(len * cos(a), len * sin(a));
        ++i;
    }
}

/// Ground probes: straight down 1.5 cells from just above the surface.
static void ground_rays(const ledge_tilemap *m, ray *r) {
    for (int i = 0; i < RAYS; ++i) {
        int x = (int)rnd(1, m->width - 1);
        double s = surface(m, x);
        r[i].origin = v(x + rnd(0, 1), s + 1.0 + rnd(0.05, 0.5));
        r[i].translation = v(0, -1.5);
    }
}

// --- floors -------------------------------------------------------------------

/// floor() as an int for cell coordinates of this map (far from INT_MAX),
/// without a library call: the x86-64 baseline has no rounding instruction
/// and floorf would cost more than the rest of the floor.
static inline int floor_int(float f) {
    int t = (int)f; // truncates toward zero: one too many below 0
    return t - (f < (float)t);
}

/// The cell index and the tile byte of a point: what any point query pays.
static inline ledge_tile floor_point(const ledge_tilemap *m, vec2s p) {
    int x = floor_int((p.x - m->origin.x) * m->inv_tile_size);
    int y = floor_int((p.y - m->origin.y) * m->inv_tile_size);
    return ledge__tilemap_at(m, x, y);
}

/// A bare Amanatides & Woo walk: returns the fraction at which the segment
/// enters the first non-empty cell (1 when it meets none). No edge states,
/// no tile geometry. Counts the cells it reads into *visited (may be NULL:
/// the timed loops pass NULL, and the count folds away once inlined).
static inline float floor_walk(const ledge_tilemap *m, vec2s o, vec2s d, int *visited) {
    float inv = m->inv_tile_size;
    float px = (o.x - m->origin.x) * inv, py = (o.y - m->origin.y) * inv;
    int x = floor_int(px), y = floor_int(py);
    int sx = d.x > 0 ? 1 : -1, sy = d.y > 0 ? 1 : -1;
    float dx = d.x * inv, dy = d.y * inv;
    float tdx = dx != 0 ? fabsf(1.0f / dx) : INFINITY, tdy = dy != 0 ? fabsf(1.0f / dy) : INFINITY;
    float tx = dx != 0 ? ((sx > 0 ? (float)(x + 1) - px : px - (float)x) * tdx) : INFINITY;
    float ty = dy != 0 ? ((sy > 0 ? (float)(y + 1) - py : py - (float)y) * tdy) : INFINITY;
    float t = 0.0f;
    while (t <= 1.0f) {
        if (visited) ++*visited;
        if (ledge__tilemap_at(m, x, y) != LEDGE_TILE_EMPTY) return t;
        if (tx < ty) {
            t = tx;
            tx += tdx;
            x += sx;
        } else {
            t = ty;
            ty += tdy;
            y += sy;
        }
    }
    return 1.0f;
}

// --- main -------------------------------------------------------------------

static void report(const char *what, double t, double floor_t, const char *floor_name,
                   const char *target) {
    printf("%-26s %8.2f ns %9.1f M/s   %-22s %6.2f ns   x%5.1f   %s\n", what, t, 1e3 / t,
           floor_name, floor_t, t / floor_t, target);
}

int main(void) {
    bench_rng = 0x9E3779B97F4A7C15ull;
    ledge_tilemap *m = load_crowd();
    if (!m) return 1;
    static vec2s pts[POINTS];
    static ray rays[RAYS];
    double t, f;

    printf("scene crowd (tests/data/crowd.txt, 256 x 64): median of %d runs\n", RUNS);
    printf("%-26s %11s %13s   %-22s %9s   %6s   %s\n", "query", "time", "rate", "floor", "time",
           "ratio", "target");

    uniform_points(m, pts);
    int solid = 0;
    for (int i = 0; i < POINTS; ++i) solid += ledge_tilemap_query_point(m, pts[i], NULL);
    TIME_LOOP(t, POINTS, 2000, acc += (float)ledge_tilemap_query_point(m, pts[i], NULL));
    TIME_LOOP(f, POINTS, 2000, acc += (float)floor_point(m, pts[i]));
    report("point, uniform", t, f, "cell index + tile byte", "< 10 ns");
    printf("%-26s %d%% of the points solid\n", "", 100 * solid / POINTS);

    probe_points(m, pts);
    TIME_LOOP(t, POINTS, 2000, acc += (float)ledge_tilemap_query_point(m, pts[i], NULL));
    TIME_LOOP(f, POINTS, 2000, acc += (float)floor_point(m, pts[i]));
    report("point, probes at surface", t, f, "cell index + tile byte", "< 10 ns");

    ledge_ray_hit hit;
    long_rays(m, rays);
    int hits = 0;
    for (int i = 0; i < RAYS; ++i) {
        hits += ledge_tilemap_raycast(m, rays[i].origin, rays[i].translation, &hit);
    }
    TIME_LOOP(t, RAYS, 100,
              acc += ledge_tilemap_raycast(m, rays[i].origin, rays[i].translation, &hit)
                         ? hit.fraction
                         : 1.0f);
    TIME_LOOP(f, RAYS, 100, acc += floor_walk(m, rays[i].origin, rays[i].translation, NULL));
    report("ray, ~20 cells", t, f, "bare grid walk", "< 200 ns");
    int cells = 0;
    for (int i = 0; i < RAYS; ++i) floor_walk(m, rays[i].origin, rays[i].translation, &cells);
    printf("%-26s %d%% of the rays hit; the bare walk reads %.1f cells per ray\n", "",
           100 * hits / RAYS, (double)cells / RAYS);

    ground_rays(m, rays);
    hits = 0;
    for (int i = 0; i < RAYS; ++i) {
        hits += ledge_tilemap_raycast(m, rays[i].origin, rays[i].translation, &hit);
    }
    TIME_LOOP(t, RAYS, 500,
              acc += ledge_tilemap_raycast(m, rays[i].origin, rays[i].translation, &hit)
                         ? hit.fraction
                         : 1.0f);
    TIME_LOOP(f, RAYS, 500, acc += floor_walk(m, rays[i].origin, rays[i].translation, NULL));
    report("ray, ground probe 1.5", t, f, "bare grid walk", "");
    printf("%-26s %d%% of the probes hit\n", "", 100 * hits / RAYS);

    ledge_tilemap_destroy(m);
    return 0;
}
