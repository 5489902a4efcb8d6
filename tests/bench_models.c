// The friction laws side by side (docs/benchmarks.md): the rain, crowd and
// bowl scenes (docs/benchmarks.md, "The scenes") and a floor of bodies at
// rest on tiles (below) stepped under N's friction law (the default) and
// under Coulomb's, in the same program run, each figure the median of 3
// runs. Printed per scene and law: mean ms/step over all steps and over the
// last 100, the ratio Coulomb / N, and the scene's quality figures after
// the last step.
// Times are printed, never asserted (tests/test_rain.c, test_response.c
// and test_demo.c assert the behaviour).
//
// Run: meson test -C <release build> --benchmark models -v
//  or: <build>/tests/bench_models   (from the source root or tests/)
#define _POSIX_C_SOURCE 199309L
#define RUNS            3
#include "bench_timing.h"
#include "game.h"
#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 600
#define LAST  100
#define DT    (1.0f / 60.0f)

typedef struct figures {
    double all, last; // ms/step
    int count, escaped, inside_solid, moving;
    double max_overlap, max_speed;
} figures;

static double median3(double a, double b, double c) {
    double x[3] = {a, b, c};
    qsort(x, 3, sizeof x[0], cmp_double);
    return x[1];
}

static figures median_of(const figures *f) {
    figures m = f[RUNS - 1]; // quality: deterministic, any run's
    m.all = median3(f[0].all, f[1].all, f[2].all);
    m.last = median3(f[0].last, f[1].last, f[2].last);
    return m;
}

static const char *model_name(ledge_friction_law m) {
    return m == LEDGE_FRICTION_N ? "N (default)" : "Coulomb";
}

static void print_row(const char *scene, int n, ledge_friction_law m, figures f, double n_all) {
    printf("| %s | %d | %s | %.3f / %.3f | %.2f | %d, %d | %.4f m | %d of %d | %.3f m/s |\n", scene,
           n, model_name(m), f.all, f.last, f.all / n_all, f.escaped, f.inside_solid, f.max_overlap,
           f.moving, f.count, f.max_speed);
}

// --- rain -----------------------------------------------------------------------

static figures rain_run(int n, ledge_friction_law m) {
    scene s;
    scene_friction = m;
    if (!scene_rain(n, &s)) {
        fprintf(stderr, "bench_models: the rain scene was refused\n");
        exit(1);
    }
    scene_friction = LEDGE_FRICTION_N;
    double t0 = now_ns(), tl = t0;
    for (int i = 0; i < STEPS; ++i) {
        if (i == STEPS - LAST) tl = now_ns();
        ledge_world_step(s.world, DT);
    }
    double t1 = now_ns();
    scene_figures q = scene_quality(&s);
    figures f = {(t1 - t0) / 1e6 / STEPS,
                 (t1 - tl) / 1e6 / LAST,
                 q.count,
                 q.escaped,
                 q.inside_solid,
                 q.moving,
                 q.max_body_overlap,
                 q.max_speed};
    scene_destroy(&s);
    return f;
}

// --- crowd ------------------------------------------------------------------------

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *s = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long len = ftell(f);
        if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (s = malloc((size_t)len + 1)) != NULL) {
            if (fread(s, 1, (size_t)len, f) == (size_t)len) {
                s[len] = '\0';
            } else {
                free(s);
                s = NULL;
            }
        }
    }
    fclose(f);
    return s;
}

// Quality of the crowd: characters outside the map or not finite, centres
// inside a solid part of a tile, and the largest speed.
static figures crowd_run(int n, const char *text, ledge_friction_law m) {
    scene s;
    scene_friction = m;
    if (!scene_crowd(n, text, 256, 64, &s)) {
        fprintf(stderr, "bench_models: the crowd scene was refused\n");
        exit(1);
    }
    scene_friction = LEDGE_FRICTION_N;
    double step = 0.0, last = 0.0;
    for (int i = 0; i < STEPS; ++i) {
        scene_crowd_control(&s);
        double t0 = now_ns();
        ledge_world_step(s.world, DT);
        double dt = now_ns() - t0;
        step += dt;
        if (i >= STEPS - LAST) last += dt;
    }
    figures f = {step / 1e6 / STEPS, last / 1e6 / LAST, n, 0, 0, 0, 0.0, 0.0};
    ledge_tilemap *map = ledge_world_tilemap(s.world);
    for (int k = 0; k < n; ++k) {
        vec2s p = ledge_body_position(s.world, s.bodies[k]);
        vec2s v = ledge_body_velocity(s.world, s.bodies[k]);
        double speed = sqrt((double)v.x * v.x + (double)v.y * v.y);
        if (!isfinite(p.x) || !isfinite(p.y) || p.x < 0 || p.y < 0 || p.x > 256 || p.y > 64) {
            f.escaped++;
            continue;
        }
        if (ledge_tilemap_query_point(map, p, NULL)) f.inside_solid++;
        if (speed > f.max_speed) f.max_speed = speed;
        if (speed > 0.1) f.moving++;
    }
    scene_destroy(&s);
    return f;
}

// --- floor ----------------------------------------------------------------------------

// A platformer's commonest case: bodies resting on tiles and on nothing
// else. FLOOR_N bodies (circles of radius 0.4 and 0.25, boxes 0.8 x 0.6,
// in turn) in one row 2 m apart, dropped from 0 to 0.4 m above a floor of
// FULL tiles, with a 45 degree slope or a concave quarter circle every 9
// cells to settle against; timed after they land, like the rest.
#define FLOOR_N 10000

static figures floor_run(ledge_friction_law m) {
    int width = 2 * FLOOR_N + 4;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = width;
    wd.map_height = 8;
    wd.body_capacity = FLOOR_N;
    wd.friction_law = m;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = w ? ledge_world_tilemap(w) : NULL;
    ledge_body_id *ids = malloc(sizeof *ids * FLOOR_N);
    if (map == NULL || ids == NULL) {
        fprintf(stderr, "bench_models: the floor scene was refused\n");
        exit(1);
    }
    for (int x = 0; x < width; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    for (int x = 5; x < width; x += 9)
        ledge_tilemap_set(map, x, 1, (x / 9) % 2 ? LEDGE_TILE_45DEG_PP : LEDGE_TILE_CONCAVE_PP);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_DYNAMIC;
    bd.friction = 0.3f;
    bd.bounce = 0.2f;
    for (int k = 0; k < FLOOR_N; ++k) {
        vec2s o = {{0.0f, 0.0f}}, half = {{0.4f, 0.3f}};
        bd.shape = k % 3 == 0   ? ledge_make_box(o, half)
                   : k % 3 == 1 ? ledge_make_circle(o, 0.4f)
                                : ledge_make_circle(o, 0.25f);
        bd.position = (vec2s){{2.5f + 2.0f * (float)k, 1.5f + 0.1f * (float)(k % 5)}};
        ids[k] = ledge_body_create(w, &bd);
    }
    double step = 0.0, last = 0.0;
    for (int i = 0; i < STEPS; ++i) {
        double t0 = now_ns();
        ledge_world_step(w, DT);
        double dt = now_ns() - t0;
        step += dt;
        if (i >= STEPS - LAST) last += dt;
    }
    figures f = {step / 1e6 / STEPS, last / 1e6 / LAST, FLOOR_N, 0, 0, 0, NAN, 0.0};
    for (int k = 0; k < FLOOR_N; ++k) {
        vec2s p = ledge_body_position(w, ids[k]);
        vec2s v = ledge_body_velocity(w, ids[k]);
        double speed = sqrt((double)v.x * v.x + (double)v.y * v.y);
        if (!isfinite(p.x) || !isfinite(p.y) || p.x < 0 || p.y < 0 || p.x > width || p.y > 8) {
            f.escaped++;
            continue;
        }
        if (ledge_tilemap_query_point(map, p, NULL)) f.inside_solid++;
        if (speed > f.max_speed) f.max_speed = speed;
        if (speed > 0.1) f.moving++;
    }
    free(ids);
    ledge_world_destroy(w);
    return f;
}

// --- bowl ---------------------------------------------------------------------------

// The demo's level played by its autopilot; the pile's bodies are measured
// (escaped: outside the map; inside_solid: centre in a tile; moving).
static figures bowl_run(ledge_friction_law m) {
    static game g;
    if (!game_create_with(&g, m)) {
        fprintf(stderr, "bench_models: the demo's world was refused\n");
        exit(1);
    }
    double last = 0.0;
    for (int i = 0; i < STEPS; ++i) {
        game_input in = game_autopilot(&g);
        double before = g.step_seconds;
        game_update(&g, &in);
        if (i >= STEPS - LAST) last += g.step_seconds - before;
    }
    figures f = {g.step_seconds * 1e3 / STEPS, last * 1e3 / LAST, 0, 0, 0, 0, 0.0, 0.0};
    ledge_tilemap *map = ledge_world_tilemap(g.world);
    for (int k = 0; k < g.body_count; ++k) {
        if (!ledge_body_is_valid(g.world, g.bodies[k])) continue;
        const ledge_shape *sh = ledge_body_shape(g.world, g.bodies[k]);
        if (sh->type == LEDGE_SHAPE_CIRCLE && sh->radius < 0.2f) continue; // a bullet
        f.count++;
        vec2s p = ledge_body_position(g.world, g.bodies[k]);
        vec2s v = ledge_body_velocity(g.world, g.bodies[k]);
        double speed = sqrt((double)v.x * v.x + (double)v.y * v.y);
        if (!isfinite(p.x) || !isfinite(p.y) || p.x < 0 || p.y < 0 || p.x > GAME_WIDTH ||
            p.y > GAME_HEIGHT) {
            f.escaped++;
            continue;
        }
        if (ledge_tilemap_query_point(map, p, NULL)) f.inside_solid++;
        if (speed > f.max_speed) f.max_speed = speed;
        if (speed > 0.1) f.moving++;
    }
    game_destroy(&g);
    return f;
}

int main(void) {
    char *text = read_text("data/crowd.txt");
    if (!text) text = read_text("tests/data/crowd.txt");
    printf("Friction laws: %d steps at dt 1/60, median of %d runs (ms/step all / last %d)\n\n",
           STEPS, RUNS, LAST);
    printf("| scene | N | friction law | ms/step, all / last 100 | / N's law | escaped, in solid | "
           "max body overlap | moving > 0.1 m/s | max speed "
           "|\n|---|---|---|---|---|---|---|---|---|\n");
    static const int rain_sizes[] = {1000, 10000};
    for (int k = 0; k < 2; ++k) {
        double n_all = 0.0;
        for (int m = 0; m < 2; ++m) {
            figures runs[RUNS];
            for (int r = 0; r < RUNS; ++r) runs[r] = rain_run(rain_sizes[k], (ledge_friction_law)m);
            figures f = median_of(runs);
            if (m == 0) n_all = f.all;
            print_row("rain", rain_sizes[k], (ledge_friction_law)m, f, n_all);
        }
    }
    if (text) {
        double n_all = 0.0;
        for (int m = 0; m < 2; ++m) {
            figures runs[RUNS];
            for (int r = 0; r < RUNS; ++r) runs[r] = crowd_run(1000, text, (ledge_friction_law)m);
            figures f = median_of(runs);
            f.max_overlap = NAN; // not measured for boxes
            if (m == 0) n_all = f.all;
            print_row("crowd", 1000, (ledge_friction_law)m, f, n_all);
        }
    } else {
        printf("(crowd skipped: data/crowd.txt not found; run from the source root or tests/)\n");
    }
    double n_all = 0.0;
    for (int m = 0; m < 2; ++m) {
        figures runs[RUNS];
        for (int r = 0; r < RUNS; ++r) runs[r] = floor_run((ledge_friction_law)m);
        figures f = median_of(runs);
        if (m == 0) n_all = f.all;
        print_row("floor", FLOOR_N, (ledge_friction_law)m, f, n_all);
    }
    for (int m = 0; m < 2; ++m) {
        figures runs[RUNS];
        for (int r = 0; r < RUNS; ++r) runs[r] = bowl_run((ledge_friction_law)m);
        figures f = median_of(runs);
        f.max_overlap = NAN;
        if (m == 0) n_all = f.all;
        print_row("bowl", f.count, (ledge_friction_law)m, f, n_all);
    }
    free(text);
    return 0;
}
