// Benchmark helper shared by the bench_* programs: a monotonic clock, the
// median-of-runs timing loop, a sink that keeps results alive, and seeded
// random numbers.
#ifndef LEDGE_BENCH_TIMING_H
#define LEDGE_BENCH_TIMING_H

#include <ledge/base.h>

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

#endif
