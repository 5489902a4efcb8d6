// A crowd of characters (issue 15): what a character costs per frame (one
// ledge_body_move and one ray, the wall probe) alone and beside 10,000
// resting bodies in another part of the map, measured in the same run; a
// thousand characters in a 512 x 128 map; and one move on flat ground.
// The world is not stepped: the characters are kinematic with zero
// velocity and the resting bodies static, so a step would move nothing
// (and its broad phase among 10,000 static boxes would only make the run
// long); the figures are the moves and rays alone.
#define _POSIX_C_SOURCE 199309L // clock_gettime

#define RUNS 3
#include <ledge/ledge.h>

#include "bench_timing.h"

#include <stdio.h>
#include <string.h>

#ifdef LEDGE_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#endif

// CPU time of this thread, not wall time: the shared machine the figures
// are taken on runs many jobs at once, and wall time then measures them.
static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

enum { FRAMES = 120, MAX_CHARS = 1000 };

typedef struct crowd {
    ledge_world *w;
    ledge_body_id ids[MAX_CHARS];
    vec2s vel[MAX_CHARS];
    int count;
} crowd;

// A FULL floor with a 45 degree hill every 16 cells and a shelf every 8
// rows; characters spread over the left `span` cells, resting static boxes
// (`others` of them) piled right of x = width / 2.
static void make(crowd *c, int width, int height, int chars, double span, int others) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, -20);
    wd.map_width = width;
    wd.map_height = height;
    c->w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(c->w);
    for (int y = 0; y < height; y += 8) {
        for (int x = 0; x < width; ++x) {
            ledge_tilemap_set(map, x, y, LEDGE_TILE_FULL);
            if (x % 16 == 5) ledge_tilemap_set(map, x, y + 1, LEDGE_TILE_45DEG_NP);
            if (x % 16 == 6) ledge_tilemap_set(map, x, y + 1, LEDGE_TILE_45DEG_PP);
        }
    }
    bench_rng = 0x51ed5eedull;
    for (int k = 0; k < others; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_STATIC;
        bd.shape = ledge_make_box(v(0, 0), v(0.2, 0.2));
        bd.position = v(rnd(width / 2 + 1, width - 1), rnd(1.2, height - 1));
        ledge_body_create(c->w, &bd);
    }
    c->count = chars;
    int rows = height / 8;
    for (int k = 0; k < chars; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_KINEMATIC;
        bd.shape = ledge_make_box(v(0, 0), v(0.3, 0.45));
        int row = k % rows;
        bd.position = v(1.0 + (span - 2.0) * (k / rows) / ((chars + rows - 1) / rows), 8 * row + 2);
        c->ids[k] = ledge_body_create(c->w, &bd);
        c->vel[k] = v(k % 2 ? 5.0 : -5.0, 0);
    }
}

// Frame fr of the crowd: a move and a ray per character; returns how many
// stood on the ground after their move.
static int frame(crowd *c, int fr) {
    const float dt = 1.0f / 60.0f;
    ledge_move_def md = ledge_default_move_def();
    ledge_query_filter f = ledge_default_query_filter();
    int grounded = 0;
    for (int k = 0; k < c->count; ++k) {
        vec2s *vel = &c->vel[k];
        if ((fr + k) % 120 == 0) vel->x = -vel->x;
        vel->y -= 20.0f * dt;
        ledge_move_result res;
        ledge_body_move(c->w, c->ids[k], v(vel->x * dt, vel->y * dt), &md, &res);
        *vel = ledge_move_clip_velocity(&res, *vel);
        grounded += res.on_ground;
        ledge_raycast_result hit;
        f.ignore = c->ids[k];
        ledge_world_raycast(c->w, res.position, v(vel->x > 0 ? 1.0 : -1.0, 0), &f, &hit);
        sink += hit.fraction;
    }
    return grounded;
}

// ns per character per frame (move + ray), the median of RUNS runs.
static double run(int width, int height, int chars, double span, int others, int *grounded) {
    double t[RUNS];
    for (int r = 0; r < RUNS; ++r) {
        crowd c;
        make(&c, width, height, chars, span, others);
        double total = 0.0;
        *grounded = 0;
        for (int fr = 0; fr < FRAMES; ++fr) {
            double t0 = cpu_ns();
            *grounded += frame(&c, fr);
            total += cpu_ns() - t0;
        }
        t[r] = total / ((double)FRAMES * chars);
        ledge_world_destroy(c.w);
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    return t[RUNS / 2];
}

// One character landed on a FULL floor (no hills), 64 x 8 cells.
static ledge_world *flat_world(ledge_body_id *id) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, -20);
    wd.map_width = 64;
    wd.map_height = 8;
    ledge_world *w = ledge_world_create(&wd);
    for (int x = 0; x < 64; ++x) ledge_tilemap_set(ledge_world_tilemap(w), x, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(0.3, 0.45));
    bd.position = v(10, 1.45);
    *id = ledge_body_create(w, &bd);
    ledge_move_result res;
    ledge_body_move(w, *id, v(0, -0.1), NULL, &res); // land
    return w;
}

// Moves k0..k1-1 of the walk on flat ground (0.1 a frame, turning every
// 500); false when a move ended off the ground.
static bool flat_walk(ledge_world *w, ledge_body_id id, int k0, int k1) {
    ledge_move_result res;
    bool ground = true;
    for (int k = k0; k < k1; ++k) {
        float vx = (k / 500) % 2 ? -0.1f : 0.1f;
        ledge_body_move(w, id, v(vx, -20.0 / 3600.0), NULL, &res);
        sink += res.position.x;
        ground &= res.on_ground;
    }
    return ground;
}

// ns per move of one character walking on a FULL floor (no hills).
static double flat_move(void) {
    double t[RUNS];
    for (int r = 0; r < RUNS; ++r) {
        ledge_body_id id;
        ledge_world *w = flat_world(&id);
        const int n = 5000;
        double t0 = cpu_ns();
        bool ground = flat_walk(w, id, 0, n);
        t[r] = (cpu_ns() - t0) / n;
        if (!ground) printf("flat move: not on the ground!\n");
        ledge_world_destroy(w);
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    return t[RUNS / 2];
}

// --callgrind flat|crowd: the instructions of 1,000 flat-ground moves (after
// 1,000 untimed), or of one frame of the 1,000-character crowd (after 60
// untimed), with callgrind's instrumentation on for them alone
// (tests/bench_callgrind_move.sh divides).
static int run_callgrind(const char *what) {
#ifdef LEDGE_HAVE_CALLGRIND
    if (strcmp(what, "flat") == 0) {
        ledge_body_id id;
        ledge_world *w = flat_world(&id);
        flat_walk(w, id, 0, 1000);
        CALLGRIND_START_INSTRUMENTATION;
        CALLGRIND_TOGGLE_COLLECT;
        bool ground = flat_walk(w, id, 1000, 2000);
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_STOP_INSTRUMENTATION;
        ledge_world_destroy(w);
        return ground ? 0 : 1;
    }
    if (strcmp(what, "crowd") == 0) {
        crowd c;
        make(&c, 512, 128, 1000, 256.0, 0);
        for (int fr = 0; fr < 60; ++fr) frame(&c, fr);
        CALLGRIND_START_INSTRUMENTATION;
        CALLGRIND_TOGGLE_COLLECT;
        frame(&c, 60);
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_STOP_INSTRUMENTATION;
        ledge_world_destroy(c.w);
        return 0;
    }
#endif
    fprintf(stderr,
            "bench_crowd --callgrind %s: built without valgrind/callgrind.h or unknown "
            "case (flat, crowd)\n",
            what);
    return 2;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--callgrind") == 0) return run_callgrind(argv[2]);
    int g0, g1, g2;
    printf("characters: one ledge_body_move + one ledge_world_raycast each per frame (thread CPU "
           "time, median of %d runs)\n",
           RUNS);
    double alone = run(256, 32, 200, 100.0, 0, &g0);
    double beside = run(256, 32, 200, 100.0, 10000, &g1);
    printf("%-52s %9.0f ns/character  (on ground %.0f%%)\n", "200 characters alone (256x32 map)",
           alone, 100.0 * g0 / (200.0 * FRAMES));
    printf("%-52s %9.0f ns/character  (on ground %.0f%%)\n",
           "200 characters beside 10,000 resting bodies", beside, 100.0 * g1 / (200.0 * FRAMES));
    printf("ratio beside / alone: %.2fx (target <= 1.5x)\n", beside / alone);
    double big = run(512, 128, 1000, 256.0, 0, &g2);
    printf("%-52s %9.3f ms/frame (target < 2 ms; on ground %.0f%%)\n",
           "1,000 characters in a 512x128 map", big * 1000.0 / 1e6, 100.0 * g2 / (1000.0 * FRAMES));
    double flat = flat_move();
    printf("%-52s %9.0f ns/move (target < 1500)\n", "one move on flat ground", flat);
    return 0;
}
