// Test helper: seeded random numbers (splitmix64), the same cases on every
// platform and compiler. Set g_rng to a test's seed before drawing.
#ifndef LEDGE_TEST_RNG_H
#define LEDGE_TEST_RNG_H

#include <stdint.h>

static uint64_t g_rng;

static inline uint64_t rng_next(void) {
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/// Uniform in [0, 1).
static inline double rng_unit(void) {
    return (double)(rng_next() >> 11) * 0x1.0p-53;
}
/// Uniform in [lo, hi), rounded to float.
static inline float rng_range(double lo, double hi) {
    return (float)(lo + (hi - lo) * rng_unit());
}
/// Uniform integer in [lo, hi].
static inline int rng_int(int lo, int hi) {
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

#endif
