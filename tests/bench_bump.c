// The scene "bump crowd" (docs/benchmarks.md, "ledge for LÖVE"): N moving
// 16 x 16 pixel boxes in a walled box, y down, each moved once per frame
// with bump's default slide, its velocity negated when the move collided.
// Three C versions:
// - "same work": what src/bindings/lua/bump.lua does for world:move, in C:
//   the rectangles in doubles, ledge's query index as the broad phase
//   (ledge_world_query_aabb_ids over the swept box, ledge_body_set_position
//   after the move), bump's sweep and slide. Its checksum must equal the
//   Lua module's (tests/lua/bench_bump.lua): the difference in time is the
//   cost of Lua and of the FFI crossings;
// - "ledge_bump_move": the library's one-call form of the same move, which
//   the Lua module calls (once per world:move);
// - "mover": ledge's own character mover (ledge_body_move) per item, for
//   scale (sub-moves and projection instead of bump's sweep).
// Prints CPU ms per frame (median of RUNS runs) for N = 100, 1,000, 10,000.
//   bench_bump --callgrind N   59 untimed frames of ledge_bump_move, then the
//                              60th with callgrind's instrumentation on
//                              (tests/bench_callgrind_bump.sh)
#define _POSIX_C_SOURCE 199309L // clock_gettime

#include <ledge/ledge.h>

#include "bench_timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LEDGE_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#endif

enum { FRAMES = 60, MAX_COLS = 64 };

// CPU time of the process: steadier than wall time on a shared machine.
static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

// Park-Miller's minimal standard generator: exact in doubles, so that the
// Lua benchmark draws the same velocities.
static double pm_state;
static double pm_next(void) {
    pm_state = fmod(pm_state * 16807.0, 2147483647.0);
    return pm_state / 2147483647.0;
}

typedef struct rect {
    double x, y, w, h;
} rect;

typedef struct scene {
    ledge_world *world;
    ledge_body_id *ids;
    float *vx, *vy;
    double *dvx, *dvy; // the velocities as the Lua module keeps them
    rect *rects;       // by body slot (index1 - 1): the items' rectangles in doubles
    int *item_of;      // by body slot: the item index, or -1 for a wall
    int n;
} scene;

static ledge_body_id add_box(ledge_world *w, double x, double y, double wd, double ht, int type) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = (ledge_body_type)type;
    bd.shape = ledge_make_box(v(0, 0), v(wd / 2, ht / 2));
    bd.position = v(x + wd / 2, y + ht / 2);
    return ledge_body_create(w, &bd);
}

// The module's world: no gravity, a 2 x 2 map of empty 1e6 tiles centred
// on the origin (the tilemap is solid outside), the query index's finest cells of 4 (bump's 64 /
// 16).
static scene make_scene(int n) {
    scene s = {0};
    int cols = 2 * (int)ceil(sqrt((double)n));
    double W = cols * 24.0, H = ceil((double)n / cols) * 24.0 * 2 + 48;
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, 0);
    wd.map_width = 2;
    wd.map_height = 2;
    wd.tile_size = 1e6f;
    wd.map_origin = v(-1e6, -1e6);
    wd.cell_size = 64.0f / 16; // bump.newWorld(64): its query cells are a sixteenth
    s.world = ledge_world_create(&wd);
    add_box(s.world, -16, 0, 16, H, LEDGE_BODY_STATIC);
    add_box(s.world, W, 0, 16, H, LEDGE_BODY_STATIC);
    add_box(s.world, 0, -16, W, 16, LEDGE_BODY_STATIC);
    add_box(s.world, 0, H, W, 16, LEDGE_BODY_STATIC);
    s.n = n;
    s.ids = malloc(sizeof *s.ids * (size_t)n);
    s.vx = malloc(sizeof *s.vx * (size_t)n);
    s.vy = malloc(sizeof *s.vy * (size_t)n);
    s.dvx = malloc(sizeof *s.dvx * (size_t)n);
    s.dvy = malloc(sizeof *s.dvy * (size_t)n);
    s.rects = malloc(sizeof *s.rects * (size_t)(n + 4));
    s.item_of = malloc(sizeof *s.item_of * (size_t)(n + 4));
    const rect walls[4] = {{-16, 0, 16, H}, {W, 0, 16, H}, {0, -16, W, 16}, {0, H, W, 16}};
    for (int k = 0; k < 4; ++k) {
        s.rects[k] = walls[k];
        s.item_of[k] = -1;
    }
    pm_state = 42;
    for (int k = 0; k < n; ++k) {
        s.ids[k] = add_box(s.world, (k % cols) * 24 + 4, (k / cols) * 24 + 4, 16, 16,
                           LEDGE_BODY_KINEMATIC);
        s.dvx[k] = pm_next() * 200 - 100;
        s.dvy[k] = pm_next() * 200 - 100;
        s.vx[k] = (float)s.dvx[k];
        s.vy[k] = (float)s.dvy[k];
        int slot = (int)s.ids[k].index1 - 1;
        s.rects[slot] = (rect){(k % cols) * 24 + 4, floor((double)k / cols) * 24 + 4, 16, 16};
        s.item_of[slot] = k;
    }
    return s;
}

static void free_scene(scene *s) {
    ledge_world_destroy(s->world);
    free(s->ids);
    free(s->vx);
    free(s->vy);
    free(s->dvx);
    free(s->dvy);
    free(s->rects);
    free(s->item_of);
}

// --- bump's sweep and slide, as src/bindings/lua/bump.lua does them --------

#define DELTA 1e-10

typedef struct col {
    int slot;
    double ti, nx, ny, tx, ty, dist;
} col;

// Liang-Barsky clipping of (x1, y1) + t (dx, dy) against the rectangle,
// within [*t1, *t2]; the entry side's normal into (*nx, *ny).
static bool clip(rect r, double x1, double y1, double dx, double dy, double *t1, double *t2,
                 double *nx, double *ny) {
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {x1 - r.x, r.x + r.w - x1, y1 - r.y, r.y + r.h - y1};
    const double sx[4] = {-1, 1, 0, 0}, sy[4] = {0, 0, -1, 1};
    *nx = *ny = 0;
    for (int k = 0; k < 4; ++k) {
        if (p[k] == 0) {
            if (q[k] <= 0) return false;
            continue;
        }
        double t = q[k] / p[k];
        if (p[k] < 0) {
            if (t > *t2) return false;
            if (t > *t1) *t1 = t, *nx = sx[k], *ny = sy[k];
        } else {
            if (t < *t1) return false;
            if (t < *t2) *t2 = t;
        }
    }
    return true;
}

static double sgn(double v) {
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

static bool detect(rect a, rect b, double gx, double gy, col *c) {
    double dx = gx - a.x, dy = gy - a.y;
    rect d = {b.x - a.x - a.w, b.y - a.y - a.h, a.w + b.w, a.h + b.h};
    if (-d.x > DELTA && -d.y > DELTA && d.x + d.w > DELTA && d.y + d.h > DELTA) {
        double px = fabs(d.x) < fabs(d.x + d.w) ? d.x : d.x + d.w;
        double py = fabs(d.y) < fabs(d.y + d.h) ? d.y : d.y + d.h;
        c->ti = -fmin(a.w, fabs(px)) * fmin(a.h, fabs(py));
        if (dx == 0 && dy == 0) {
            if (fabs(px) < fabs(py))
                py = 0;
            else
                px = 0;
            c->nx = sgn(px), c->ny = sgn(py);
            c->tx = a.x + px, c->ty = a.y + py;
        } else {
            double t1 = -INFINITY, t2 = 1;
            if (!clip(d, 0, 0, dx, dy, &t1, &t2, &c->nx, &c->ny)) return false;
            c->tx = a.x + dx * t1, c->ty = a.y + dy * t1;
        }
        return true;
    }
    double t1 = -INFINITY, t2 = INFINITY;
    if (!clip(d, 0, 0, dx, dy, &t1, &t2, &c->nx, &c->ny)) return false;
    if (!(t1 < 1 && fabs(t1 - t2) >= DELTA && (0 < t1 + DELTA || (t1 == 0 && t2 > 0)))) {
        return false;
    }
    c->ti = t1;
    c->tx = a.x + dx * t1, c->ty = a.y + dy * t1;
    return true;
}

static double sq_dist(rect a, rect b) {
    double dx = a.x - b.x + (a.w - b.w) / 2, dy = a.y - b.y + (a.h - b.h) / 2;
    return dx * dx + dy * dy;
}

static bool before(const col *a, const col *b) {
    return a->ti == b->ti ? a->dist < b->dist : a->ti < b->ti;
}

// The collisions of item (slot self) moving from r to (gx, gy), skipping
// the visited slots, sorted by ti then distance; returns the count.
static int project(scene *s, int self, rect r, double gx, double gy, const int *visited,
                   int nvisited, col *out) {
    static ledge_body_id ids[256];
    double x0 = fmin(r.x, gx), y0 = fmin(r.y, gy), x1 = fmax(r.x, gx) + r.w,
           y1 = fmax(r.y, gy) + r.h;
    double pad = 1e-3 + 1e-6 * fmax(fmax(fabs(x0), fabs(y0)), fmax(fabs(x1), fabs(y1)));
    ledge_aabb box = {{{(float)(x0 - pad), (float)(y0 - pad)}},
                      {{(float)(x1 + pad), (float)(y1 + pad)}}};
    int n = ledge_world_query_aabb_ids(s->world, &box, NULL, ids, 256), count = 0;
    for (int i = 0; i < n && i < 256; ++i) {
        int slot = (int)ids[i].index1 - 1;
        bool seen = slot == self;
        for (int v = 0; v < nvisited && !seen; ++v) seen = visited[v] == slot;
        col c;
        if (seen || count >= MAX_COLS || !detect(r, s->rects[slot], gx, gy, &c)) continue;
        c.slot = slot;
        c.dist = sq_dist(r, s->rects[slot]);
        int j = count++; // insertion sort
        while (j > 0 && before(&c, &out[j - 1])) {
            out[j] = out[j - 1];
            --j;
        }
        out[j] = c;
    }
    return count;
}

// world:move(item, gx, gy) with the default slide; returns the collisions.
static int bump_move(scene *s, int k, double gx, double gy) {
    int self = (int)s->ids[k].index1 - 1, visited[MAX_COLS] = {0}, len = 0;
    rect r = s->rects[self];
    col cols[MAX_COLS];
    int n = project(s, self, r, gx, gy, visited, 0, cols);
    while (n > 0 && len < MAX_COLS) {
        col c = cols[0];
        visited[len++] = c.slot;
        if (gx - r.x != 0 || gy - r.y != 0) { // slide
            if (c.nx != 0)
                gx = c.tx;
            else
                gy = c.ty;
        }
        r.x = c.tx, r.y = c.ty;
        n = project(s, self, r, gx, gy, visited, len, cols);
    }
    s->rects[self].x = gx;
    s->rects[self].y = gy;
    vec2s p = v(gx + 8, gy + 8);
    ledge_body_set_position_ref(s->world, &s->ids[k], &p);
    return len;
}

static void frame_same_work(scene *s) {
    const double dt = 1.0 / 60.0;
    for (int k = 0; k < s->n; ++k) {
        int slot = (int)s->ids[k].index1 - 1;
        rect r = s->rects[slot];
        if (bump_move(s, k, r.x + s->dvx[k] * dt, r.y + s->dvy[k] * dt) > 0) {
            s->dvx[k] = -s->dvx[k];
            s->dvy[k] = -s->dvy[k];
        }
    }
}

// The same move through the library's one-call form, ledge_bump_move (what
// the Lua module calls once per world:move): Lua's time minus this one is
// the cost of the FFI crossing and of building bump's `cols` tables.
static void frame_library(scene *s, ledge_bump_rect *by_index1, ledge_bump_col *cols) {
    const double dt = 1.0 / 60.0;
    for (int k = 0; k < s->n; ++k) {
        ledge_bump_rect r = by_index1[s->ids[k].index1];
        double ax, ay;
        int len = ledge_bump_move(s->world, by_index1, s->n + 5, &s->ids[k], r.x + s->dvx[k] * dt,
                                  r.y + s->dvy[k] * dt, true, cols, MAX_COLS, &ax, &ay);
        if (len > 0) {
            s->dvx[k] = -s->dvx[k];
            s->dvy[k] = -s->dvy[k];
        }
    }
}

static double checksum_rects(scene *s) {
    double sum = 0;
    for (int k = 0; k < s->n; ++k) {
        rect r = s->rects[s->ids[k].index1 - 1];
        sum += r.x + 3.0 * r.y;
    }
    return sum;
}

static ledge_move_def bump_move_def(void) {
    ledge_move_def md = ledge_default_move_def();
    md.snap_length = 0;       // bump never snaps
    md.up = v(0, -1);         // y down
    md.stop_on_slope = false; // bump's slide keeps the whole tangential part
    return md;
}

static void frame(scene *s, const ledge_move_def *md) {
    const float dt = 1.0f / 60.0f;
    for (int k = 0; k < s->n; ++k) {
        ledge_move_result r;
        ledge_body_move(s->world, s->ids[k], v(s->vx[k] * dt, s->vy[k] * dt), md, &r);
        if (r.hit_count > 0) {
            s->vx[k] = -s->vx[k];
            s->vy[k] = -s->vy[k];
        }
    }
}

static double checksum(scene *s) {
    double sum = 0;
    for (int k = 0; k < s->n; ++k) {
        vec2s p = ledge_body_position(s->world, s->ids[k]);
        sum += p.x + 3.0 * p.y;
    }
    return sum;
}

// Rectangles by index1 (what the Lua module keeps) from the scene's.
static ledge_bump_rect *rects_by_index1(const scene *s) {
    ledge_bump_rect *by_index1 = calloc((size_t)s->n + 5, sizeof *by_index1);
    for (int slot = 0; slot < s->n + 4; ++slot) {
        rect r = s->rects[slot];
        by_index1[slot + 1] = (ledge_bump_rect){r.x, r.y, r.w, r.h};
    }
    return by_index1;
}

// One frame of ledge_bump_move under callgrind after FRAMES - 1 untimed ones.
static int run_callgrind(int n) {
#ifndef LEDGE_HAVE_CALLGRIND
    fprintf(stderr, "bench_bump: built without valgrind/callgrind.h (N %d)\n", n);
    return 1;
#else
    scene s = make_scene(n);
    ledge_bump_rect *by_index1 = rects_by_index1(&s);
    ledge_bump_col cols[MAX_COLS];
    for (int f = 0; f < FRAMES - 1; ++f) frame_library(&s, by_index1, cols);
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_TOGGLE_COLLECT;
    frame_library(&s, by_index1, cols);
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("bump crowd N=%d: frame %d of ledge_bump_move measured\n", n, FRAMES);
    free(by_index1);
    free_scene(&s);
    return 0;
#endif
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--callgrind") == 0) return run_callgrind(atoi(argv[2]));
    static const int sizes[] = {100, 1000, 10000};
    ledge_move_def md = bump_move_def();
    for (int i = 0; i < 3; ++i) {
        for (int mode = 0; mode < 3; ++mode) {
            static const char *names[] = {"same work", "ledge_bump_move", "mover"};
            double t[RUNS], sum = 0;
            for (int run = 0; run < RUNS; ++run) {
                scene s = make_scene(sizes[i]);
                ledge_bump_rect *by_index1 = rects_by_index1(&s);
                ledge_bump_col cols[MAX_COLS];
                double t0 = cpu_ns();
                for (int f = 0; f < FRAMES; ++f) {
                    if (mode == 0)
                        frame_same_work(&s);
                    else if (mode == 1)
                        frame_library(&s, by_index1, cols);
                    else
                        frame(&s, &md);
                }
                t[run] = (cpu_ns() - t0) / 1e6 / FRAMES;
                if (mode == 1) {
                    for (int slot = 0; slot < s.n + 4; ++slot) {
                        ledge_bump_rect r = by_index1[slot + 1];
                        s.rects[slot] = (rect){r.x, r.y, r.w, r.h};
                    }
                }
                sum = mode < 2 ? checksum_rects(&s) : checksum(&s);
                free(by_index1);
                free_scene(&s);
            }
            qsort(t, RUNS, sizeof t[0], cmp_double);
            printf("bump crowd C (%s) N=%d: %.3f ms/frame (median of %d), checksum %.3f\n",
                   names[mode], sizes[i], t[RUNS / 2], RUNS, sum);
        }
    }
    // The other side of the FFI crossing measured by tests/lua/bench_bump.lua:
    // the same cheap call from C.
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = wd.map_height = 4;
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.3f);
    bd.position = v(1, 1);
    ledge_body_id id = ledge_body_create(w, &bd);
    double t[RUNS];
    volatile float sink = 0;
    for (int run = 0; run < RUNS; ++run) {
        double t0 = cpu_ns();
        for (int k = 0; k < 1000000; ++k) {
            vec2s out;
            ledge_body_position_ref(w, &id, &out);
            sink += out.x;
        }
        t[run] = (cpu_ns() - t0) / 1e6;
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    printf("C call (ledge_body_position_ref): %.1f ns per call\n", t[RUNS / 2]);
    ledge_world_destroy(w);
    return 0;
}
