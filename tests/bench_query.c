// Benchmark of the world queries (query.h) in the rain scene
// (docs/benchmarks.md, "The scenes") after 300 steps (the pile settled),
// against a brute-force baseline measured in the same run:
// - closest-hit rays (ledge_world_raycast) vs ledge_tilemap_raycast plus
//   ledge_shape_raycast on every body;
// - AABB queries (ledge_world_query_aabb) vs a bounding-box test of every
//   body;
// - the index rebuild the first query after a step pays.
// Each figure is the median of RUNS runs. The answers of both sides are
// compared (a mismatch aborts); times are printed, never asserted.
//
// Run: meson test -C <release build> --benchmark query -v
//  or: <build>/tests/bench_query [N]   (default 10000)
#define _POSIX_C_SOURCE 199309L
#include "bench_timing.h"
#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { QUERIES = 2000 };

static vec2s origins[QUERIES], moves[QUERIES];
static ledge_aabb boxes[QUERIES];

static bool count_one(ledge_body_id id, void *ctx) {
    (void)id;
    ++*(int *)ctx;
    return true;
}

static float brute_ray(const scene *s, vec2s o, vec2s d) {
    ledge_ray_hit h;
    float best = 2.0f;
    if (ledge_tilemap_raycast(ledge_world_tilemap(s->world), o, d, &h)) best = h.fraction;
    for (int k = 0; k < s->count; ++k) {
        const ledge_shape *sh = ledge_body_shape(s->world, s->bodies[k]);
        vec2s p = ledge_body_position(s->world, s->bodies[k]);
        if (ledge_shape_raycast(sh, p, o, d, &h) && h.fraction < best) best = h.fraction;
    }
    return best;
}

static int brute_aabb(const scene *s, const ledge_shape *const *shapes, const vec2s *pos,
                      ledge_aabb q) {
    int n = 0;
    for (int k = 0; k < s->count; ++k) {
        ledge_aabb b = ledge_shape_aabb(shapes[k], pos[k]);
        n += b.lower.x <= q.upper.x && b.upper.x >= q.lower.x && b.lower.y <= q.upper.y &&
             b.upper.y >= q.lower.y;
    }
    return n;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    scene s;
    if (n < 2 || !scene_rain(n, &s)) {
        fprintf(stderr, "bench_query: cannot build the rain scene for N = %d\n", n);
        return 1;
    }
    for (int k = 0; k < 300; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    bench_rng = 0x51ed;
    for (int i = 0; i < QUERIES; ++i) {
        origins[i] = v(rnd(1, s.width - 1), rnd(1, s.height - 1));
        double a = rnd(0, 6.283185307179586), len = rnd(1, 10);
        moves[i] = v(len * cos(a), len * sin(a));
        double hx = rnd(0.5, 2), hy = rnd(0.5, 2);
        boxes[i].lower = v(origins[i].x - hx, origins[i].y - hy);
        boxes[i].upper = v(origins[i].x + hx, origins[i].y + hy);
    }
    const ledge_shape **shapes = malloc(sizeof *shapes * (size_t)s.count);
    vec2s *pos = malloc(sizeof *pos * (size_t)s.count);
    for (int k = 0; k < s.count; ++k) {
        shapes[k] = ledge_body_shape(s.world, s.bodies[k]);
        pos[k] = ledge_body_position(s.world, s.bodies[k]);
    }
    // Same answers on both sides (also warms the index).
    for (int i = 0; i < QUERIES; ++i) {
        ledge_raycast_result r;
        float want = brute_ray(&s, origins[i], moves[i]);
        bool hit = ledge_world_raycast(s.world, origins[i], moves[i], NULL, &r);
        int c = 0;
        ledge_world_query_aabb(s.world, boxes[i], NULL, count_one, &c);
        if ((hit ? r.fraction : 2.0f) != want || c != brute_aabb(&s, shapes, pos, boxes[i])) {
            fprintf(stderr, "bench_query: query %d disagrees with brute force\n", i);
            return 1;
        }
    }
    double ray_ns, ray_brute_ns, aabb_ns, aabb_brute_ns, rebuild_ns;
    ledge_raycast_result r;
    TIME_LOOP(ray_ns, QUERIES, 5, {
        ledge_world_raycast(s.world, origins[i], moves[i], NULL, &r);
        acc += r.fraction;
    });
    TIME_LOOP(ray_brute_ns, QUERIES / 20, 1, acc += brute_ray(&s, origins[i], moves[i]));
    TIME_LOOP(aabb_ns, QUERIES, 5, {
        int c = 0;
        ledge_world_query_aabb(s.world, boxes[i], NULL, count_one, &c);
        acc += (float)c;
    });
    TIME_LOOP(aabb_brute_ns, QUERIES / 20, 1, acc += (float)brute_aabb(&s, shapes, pos, boxes[i]));
    // A teleport to where the body already is marks the index stale; the
    // next query rebuilds it (minus one clean query's cost).
    vec2s p0 = ledge_body_position(s.world, s.bodies[0]);
    TIME_LOOP(rebuild_ns, 20, 1, {
        ledge_body_set_position(s.world, s.bodies[0], p0);
        ledge_world_raycast(s.world, origins[i], moves[i], NULL, &r);
        acc += r.fraction;
    });
    rebuild_ns -= ray_ns;
    printf("rain N = %d after 300 steps, %d queries, median of %d runs\n", s.count, QUERIES, RUNS);
    printf("  raycast (closest, 1..10 long): %8.0f ns  %10.0f /s   brute force %10.0f ns  "
           "%8.0f /s  (x%.0f)\n",
           ray_ns, 1e9 / ray_ns, ray_brute_ns, 1e9 / ray_brute_ns, ray_brute_ns / ray_ns);
    printf("  query_aabb (half 0.5..2):      %8.0f ns  %10.0f /s   brute force %10.0f ns  "
           "%8.0f /s  (x%.0f)\n",
           aabb_ns, 1e9 / aabb_ns, aabb_brute_ns, 1e9 / aabb_brute_ns, aabb_brute_ns / aabb_ns);
    printf("  index rebuild (first query after a step): %.3f ms\n", rebuild_ns * 1e-6);
    free(shapes);
    free(pos);
    scene_destroy(&s);
    return 0;
}
