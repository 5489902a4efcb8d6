// Internal helpers shared by every module: small vector helpers on cglm's
// vec2s, finiteness tests, the compiler's hints; and the hooks (hooks.h),
// which every module reports through.
#ifndef LEDGE_CORE_H
#define LEDGE_CORE_H

#include "hooks.h"

#include <math.h>
#include <stdlib.h>

#if defined(__GNUC__)
#define LEDGE_NOINLINE    __attribute__((noinline))
#define LEDGE_INLINE      inline __attribute__((always_inline))
#define LEDGE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LEDGE_LIKELY(x)   __builtin_expect(!!(x), 1)
#else
#define LEDGE_NOINLINE
#define LEDGE_INLINE      inline
#define LEDGE_UNLIKELY(x) (x)
#define LEDGE_LIKELY(x)   (x)
#endif

#define LEDGE_PI 3.14159265358979323846

static inline vec2s v2(float x, float y) {
    vec2s r;
    r.x = x;
    r.y = y;
    return r;
}
static inline vec2s v2_add(vec2s a, vec2s b) {
    return v2(a.x + b.x, a.y + b.y);
}
static inline vec2s v2_sub(vec2s a, vec2s b) {
    return v2(a.x - b.x, a.y - b.y);
}
static inline vec2s v2_scale(vec2s a, float s) {
    return v2(a.x * s, a.y * s);
}
static inline vec2s v2_neg(vec2s a) {
    return v2(-a.x, -a.y);
}
static inline float v2_dot(vec2s a, vec2s b) {
    return a.x * b.x + a.y * b.y;
}
static inline float v2_cross(vec2s a, vec2s b) {
    return a.x * b.y - a.y * b.x;
}
static inline float v2_len2(vec2s a) {
    return v2_dot(a, a);
}
/// |a|. Where its float square is subnormal or 0 (|a| below about 1e-15)
/// it is taken in double, since such a square keeps few digits or none (a
/// length of 2.6e-23 came out 3.7e-23, and a normal divided by it 1.0008
/// long); elsewhere sqrtf of the float square.
static inline float v2_len(vec2s a) {
    float l2 = v2_dot(a, a);
    if (LEDGE_LIKELY(l2 >= 1e-30f)) return sqrtf(l2);
    return (float)sqrt((double)a.x * a.x + (double)a.y * a.y);
}
static inline vec2s v2_lerp(vec2s a, vec2s b, float t) {
    return v2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
}
/// Unit vector of a, or (0, 1) for a zero vector (an arbitrary but fixed
/// choice, so that coincident centres still give a deterministic normal).
static inline vec2s v2_normalize(vec2s a) {
    float l = v2_len(a);
    if (l > 1e-18f && l < 1e18f) return v2(a.x / l, a.y / l);
    // Tiny or huge: the squares underflow or overflow (a length of 1e-23
    // came out 0.707 times too long), so scale the largest part to 1 first.
    float m = fabsf(a.x) > fabsf(a.y) ? fabsf(a.x) : fabsf(a.y);
    if (!(m > 0.0f) || !isfinite(m)) return v2(0.0f, 1.0f);
    a = v2(a.x / m, a.y / m);
    l = v2_len(a);
    return v2(a.x / l, a.y / l);
}

/// "Right" for a body whose up is `up` (unit): the perpendicular of up
/// whose x part is positive (+y when up is horizontal). Left and right then
/// follow the x axis on screen whether the game draws y up or y down (up
/// (0, 1) and (0, -1) both give (1, 0)); up turned clockwise would mirror
/// them in a y-down game.
static inline vec2s ledge__right_of(vec2s up) {
    vec2s r = {{up.y, -up.x}};
    if (r.x < 0.0f || (r.x == 0.0f && r.y < 0.0f)) r = (vec2s){{-r.x, -r.y}};
    return r;
}

/// d divided by its length len (= |d|), as a unit vector: the division as
/// written when len is an ordinary number, and v2_normalize (which scales
/// first) when it is tiny or huge, where the squares behind len lose
/// precision (a length of 1e-23 gave a "unit" vector 0.71 long).
static inline vec2s v2_unit(vec2s d, float len) {
    return len > 1e-18f && len < 1e18f ? v2_scale(d, 1.0f / len) : v2_normalize(d);
}

static inline float minf(float a, float b) {
    return a < b ? a : b;
}
static inline float maxf(float a, float b) {
    return a > b ? a : b;
}

/// True when x is finite and |x| <= LEDGE_MAX_COORDINATE-like bound `limit`.
static inline bool ledge__finite_within(float x, float limit) {
    return isfinite(x) && fabsf(x) <= limit;
}
/// Cheap finiteness check of four floats: x - x is 0 for finite x, NaN else.
static inline bool ledge__finite4(float a, float b, float c, float d) {
    return ((a - a) + (b - b) + (c - c) + (d - d)) == 0.0f;
}

#endif // LEDGE_CORE_H
