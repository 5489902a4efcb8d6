// Benchmark helper shared by the bench_* programs: a monotonic clock, the
// median-of-runs timing loop, a sink that keeps results alive, seeded
// random numbers, and the random shape pairs and quiet log hook of the
// pair benchmarks (bench_narrow, bench_distance).
#ifndef LEDGE_BENCH_TIMING_H
#define LEDGE_BENCH_TIMING_H

#include <ledge/base.h>
#include <ledge/collision.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/// Runs per figure; each figure is the median of them.
#ifndef RUNS
#define RUNS 5
#endif

static inline double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/// Seeded random numbers (xorshift64): each program sets bench_rng first.
static uint64_t bench_rng = 0x9E3779B97F4A7C15ull;
static inline double rnd(double lo, double hi) {
    bench_rng ^= bench_rng << 13;
    bench_rng ^= bench_rng >> 7;
    bench_rng ^= bench_rng << 17;
    return lo + (hi - lo) * ((double)(bench_rng >> 11) / 9007199254740992.0);
}

/// A vec2s from doubles.
static inline vec2s v(double x, double y) {
    vec2s r = {{(float)x, (float)y}};
    return r;
}

/// Where timed loops store their accumulated results, so that the compiler
/// cannot drop the work.
static volatile float sink;

/// Times `body` (one operation on item i, adding to `acc`) over n items,
/// `repeat` times per run, RUNS runs, and stores the median ns per
/// operation in `result`. A macro rather than a function pointer, so that the
/// timed loop compiles the way a game's own loop would.
#define TIME_LOOP(result, n, repeat, body)                                                         \
    do {                                                                                           \
        double runs_[RUNS];                                                                        \
        for (int r_ = 0; r_ < RUNS; ++r_) {                                                        \
            float acc = 0.0f;                                                                      \
            double t0_ = now_ns();                                                                 \
            for (int k_ = 0; k_ < (repeat); ++k_) {                                                \
                for (int i = 0; i < (n); ++i) {                                                    \
                    body;                                                                          \
                }                                                                                  \
            }                                                                                      \
            runs_[r_] = (now_ns() - t0_) / ((double)(repeat) * (n));                               \
            sink = acc;                                                                            \
        }                                                                                          \
        qsort(runs_, RUNS, sizeof runs_[0], cmp_double);                                           \
        (result) = runs_[RUNS / 2];                                                                \
    } while (0)

/// TIME_LOOP's figure as the fastest of `runs` short runs instead of the
/// median of RUNS long ones: on a loaded machine a run of some 0.1 ms
/// often goes uninterrupted, so the minimum approaches the quiet machine's
/// figure where the median does not (an estimate; the median on a quiet
/// machine is the figure of record).
#define TIME_LOOP_MIN(result, n, repeat, runs, body)                                               \
    do {                                                                                           \
        double best_ = INFINITY;                                                                   \
        for (int r_ = 0; r_ < (runs); ++r_) {                                                      \
            float acc = 0.0f;                                                                      \
            double t0_ = now_ns();                                                                 \
            for (int k_ = 0; k_ < (repeat); ++k_) {                                                \
                for (int i = 0; i < (n); ++i) {                                                    \
                    body;                                                                          \
                }                                                                                  \
            }                                                                                      \
            double t_ = (now_ns() - t0_) / ((double)(repeat) * (n));                               \
            best_ = t_ < best_ ? t_ : best_;                                                       \
            sink = acc;                                                                            \
        }                                                                                          \
        (result) = best_;                                                                          \
    } while (0)

/// Two shapes and their positions: one pair of a pair benchmark.
typedef struct bench_pair {
    ledge_shape a, b;
    vec2s pa, pb;
} bench_pair;

/// A random shape 0.3 to 1.5 across: t = 0 a circle, 1 a box, 2 a convex
/// polygon of 3 to 8 vertices, 3 an 8-gon (points near an ellipse, retried
/// until the constructor accepts them).
static inline ledge_shape bench_make_shape(int t) {
    double s = rnd(0.3, 1.5);
    if (t == 0) return ledge_make_circle(v(rnd(-0.2, 0.2), rnd(-0.2, 0.2)), (float)s);
    if (t == 1) return ledge_make_box(v(rnd(-0.2, 0.2), rnd(-0.2, 0.2)), v(s, rnd(0.3, 1.5)));
    ledge_shape p;
    for (;;) {
        int n = t == 3 ? 8 : 3 + (int)rnd(0, 5.999);
        vec2s pts[8];
        double phase = rnd(0, 6.283), squash = rnd(0.6, 1.0);
        for (int i = 0; i < n; ++i) {
            double a = phase + 6.283185307 * i / n + rnd(-0.15, 0.15) * 6.283185307 / n;
            pts[i] = v(s * cos(a), s * squash * sin(a));
        }
        if (ledge_make_polygon(pts, n, &p)) return p;
    }
}

/// ns per ledge_collide over p[0..n), `repeat` passes per run: the
/// baseline of the pair benchmarks.
static inline double bench_time_collide(const bench_pair *p, int n, int repeat) {
    double t;
    TIME_LOOP(t, n, repeat, acc += ledge_collide(&p[i].a, p[i].pa, &p[i].b, p[i].pb).depth);
    return t;
}

/// A log hook that drops messages: random polygons are retried until
/// convex, and their refusals are not news.
static inline void bench_quiet_log(ledge_log_level level, const char *message, void *user) {
    (void)level;
    (void)message;
    (void)user;
}

#endif
