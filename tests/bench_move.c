// The character mover (move.h): what one ledge_body_move costs, walking
// back and forth over floors, 45 and 26.57 degree slopes and their seams,
// against a naive baseline (teleport, then one projection out of the tile
// contacts along their normals, N's way, no sub-moves, snapping or flags),
// and among many bodies, where every move makes the queries' index stale
// for the next one.
#define _POSIX_C_SOURCE 199309L // clock_gettime

#include <ledge/ledge.h>

#include "bench_timing.h"

#include <stdio.h>
#include <string.h>

enum { WIDTH = 64, HEIGHT = 8, FRAMES = 1200 };

// Repeats a 16-cell pattern on a FULL floor: flat, a 45 degree hill one
// cell high, flat, a 26.57 degree hill.
static void build_level(ledge_tilemap *map) {
    static const char pattern[] = "..../##\\..<d##b>";
    for (int x = 0; x < WIDTH; ++x) {
        char c = pattern[x % 16];
        ledge_tile t = c == '#'    ? LEDGE_TILE_FULL
                       : c == '/'  ? LEDGE_TILE_45DEG_NP
                       : c == '\\' ? LEDGE_TILE_45DEG_PP
                       : c == '<'  ? LEDGE_TILE_22DEG_SMALL_NP
                       : c == 'd'  ? LEDGE_TILE_22DEG_BIG_NP
                       : c == 'b'  ? LEDGE_TILE_22DEG_BIG_PP
                       : c == '>'  ? LEDGE_TILE_22DEG_SMALL_PP
                                   : LEDGE_TILE_EMPTY;
        ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, x, 1, t);
    }
}

static ledge_world *make_world(void) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, -20);
    wd.map_width = WIDTH;
    wd.map_height = HEIGHT;
    ledge_world *w = ledge_world_create(&wd);
    build_level(ledge_world_tilemap(w));
    return w;
}

static ledge_body_id add_character(ledge_world *w, double x) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(0.3, 0.45));
    bd.position = v(x, 3.5);
    return ledge_body_create(w, &bd);
}

// The baseline: one projection pass along the contacts' normals.
static void naive_move(ledge_world *w, ledge_body_id id, vec2s d) {
    const ledge_shape *s = ledge_body_shape(w, id);
    vec2s p = ledge_body_position(w, id);
    p.x += d.x;
    p.y += d.y;
    ledge_tile_contact c[16];
    int n = ledge_tilemap_collide(ledge_world_tilemap(w), s, p, c, 16);
    for (int k = 0; k < n && k < 16; ++k) {
        p.x += c[k].manifold.normal.x * c[k].manifold.depth;
        p.y += c[k].manifold.normal.y * c[k].manifold.depth;
    }
    ledge_body_set_position(w, id, p);
}

// Walks `count` characters for FRAMES frames (turning every 300); returns
// ns per move, the median of RUNS runs.
static double run(int count, int crates, bool naive, int *stuck, int *grounded) {
    double t[RUNS];
    for (int r = 0; r < RUNS; ++r) {
        ledge_world *w = make_world();
        bench_rng = 0x1234567ull;
        for (int k = 0; k < crates; ++k) {
            ledge_body_def bd = ledge_default_body_def();
            bd.type = LEDGE_BODY_STATIC;
            bd.shape = ledge_make_box(v(0, 0), v(0.1, 0.1));
            bd.position = v(rnd(1, WIDTH - 1), rnd(5.5, HEIGHT - 0.5)); // above the walkers
            ledge_body_create(w, &bd);
        }
        ledge_body_id ids[256];
        vec2s vel[256];
        for (int k = 0; k < count; ++k) {
            ids[k] = add_character(w, 1.0 + (WIDTH - 2.0) * k / count);
            vel[k] = v(0, 0);
        }
        ledge_move_def md = ledge_default_move_def();
        ledge_move_result res;
        *stuck = *grounded = 0;
        double t0 = now_ns();
        for (int f = 0; f < FRAMES; ++f) {
            float vx = (f / 300) % 2 == 0 ? 6.0f : -6.0f;
            for (int k = 0; k < count; ++k) {
                vel[k].x = vx;
                vel[k].y += -20.0f / 60.0f;
                vec2s d = v(vel[k].x / 60.0f, vel[k].y / 60.0f);
                if (naive) {
                    naive_move(w, ids[k], d);
                    vel[k].y = 0;
                } else {
                    ledge_body_move(w, ids[k], d, &md, &res);
                    vel[k] = ledge_move_clip_velocity(&res, vel[k]);
                    *stuck += res.stuck;
                    *grounded += f >= 60 && res.on_ground; // after the first landing
                }
            }
        }
        t[r] = (now_ns() - t0) / ((double)FRAMES * count);
        sink += ledge_body_position(w, ids[0]).x;
        ledge_world_destroy(w);
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    return t[RUNS / 2];
}

int main(void) {
    printf("ledge_body_move, box characters walking over floors and 45/26.57 degree hills\n");
    printf("%-44s %12s %14s %10s\n", "case", "ns/move", "moves/s", "grounded");
    struct {
        const char *name;
        int count, crates;
        bool naive;
    } cases[] = {
        {"1 character, tiles only", 1, 0, false},
        {"1 character, naive baseline (1 projection)", 1, 0, true},
        {"64 characters, tiles + each other", 64, 0, false},
        {"64 characters, naive baseline", 64, 0, true},
        {"64 characters + 2000 static bodies", 64, 2000, false},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        int stuck = 0, grounded = 0;
        double ns = run(cases[k].count, cases[k].crates, cases[k].naive, &stuck, &grounded);
        double moves = (double)FRAMES * cases[k].count;
        printf("%-44s %12.0f %14.0f %9.1f%%\n", cases[k].name, ns, 1e9 / ns,
               cases[k].naive ? 0.0 : 100.0 * grounded / (moves - 60.0 * cases[k].count));
        if (stuck) printf("  (%d moves stuck)\n", stuck);
    }
    return 0;
}
