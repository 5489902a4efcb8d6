// Shared by the fuzz harnesses: a reader that decodes the fuzzer's bytes
// into numbers and shapes (never failing: past the end it reads zeros), a
// quiet log hook that counts refusals, and CHECK, which aborts with a
// message when an invariant breaks (libFuzzer then saves the input).
#ifndef LEDGE_FUZZ_COMMON_H
#define LEDGE_FUZZ_COMMON_H

#include <ledge/ledge.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/// What the current operation works on, printed when an invariant breaks
/// (so that a saved crash input explains itself).
static char g_context[2048];

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "invariant failed: %s (%s:%d): ", #cond, __FILE__, __LINE__);          \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n%s\n", g_context);                                                  \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/// Appends a description of a shape at pos to g_context.
static inline void context_shape(const char *name, const ledge_shape *s, vec2s pos) {
    size_t n = strlen(g_context);
    n += (size_t)snprintf(g_context + n, sizeof g_context - n,
                          "%s: type %d at (%.9g, %.9g), radius %.9g, centre (%.9g, %.9g), vertices",
                          name, (int)s->type, (double)pos.x, (double)pos.y, (double)s->radius,
                          (double)s->center.x, (double)s->center.y);
    for (int i = 0; i < s->count && i < LEDGE_MAX_POLYGON_VERTICES && n < sizeof g_context; ++i) {
        n += (size_t)snprintf(g_context + n, sizeof g_context - n, " (%.9g, %.9g)",
                              (double)s->vertices[i].x, (double)s->vertices[i].y);
    }
    if (n < sizeof g_context) snprintf(g_context + n, sizeof g_context - n, "\n");
}

typedef struct reader {
    const uint8_t *p;
    size_t n, at;
} reader;

static inline bool rd_more(const reader *r) {
    return r->at < r->n;
}

static inline uint8_t rd_u8(reader *r) {
    return r->at < r->n ? r->p[r->at++] : 0;
}

static inline uint16_t rd_u16(reader *r) {
    uint16_t lo = rd_u8(r);
    return (uint16_t)(lo | (uint16_t)(rd_u8(r) << 8));
}

static inline uint32_t rd_u32(reader *r) {
    uint32_t lo = rd_u16(r);
    return lo | ((uint32_t)rd_u16(r) << 16);
}

/// Any float bits at all: NaN, infinities, subnormals, huge values.
static inline float rd_raw_float(reader *r) {
    uint32_t u = rd_u32(r);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/// A float on a 1/64 grid in [-64, 64): where the geometry is interesting
/// (touching, containment, shared edges) far more often than raw bits.
static inline float rd_grid_float(reader *r) {
    return (float)(int16_t)rd_u16(r) / 512.0f;
}

/// Mostly grid floats; one tag value in 16 switches to raw bits, another to
/// a grid float scaled far out (up to and past LEDGE_MAX_COORDINATE).
static inline float rd_float(reader *r) {
    uint8_t tag = rd_u8(r);
    if (tag == 0xFF) return rd_raw_float(r);
    if (tag == 0xFE) return rd_grid_float(r) * 3.0e4f;
    if (tag == 0xFD) return rd_grid_float(r) * 1.0e-4f;
    return rd_grid_float(r);
}

static inline vec2s rd_vec(reader *r) {
    vec2s v;
    v.x = rd_float(r);
    v.y = rd_float(r);
    return v;
}

/// A shape made through the public constructors from arbitrary values (so
/// possibly refused: then LEDGE_SHAPE_INVALID), or, rarely, arbitrary bytes
/// copied over a valid shape (a game's memory corruption: must not crash).
static inline ledge_shape rd_shape(reader *r, bool allow_corrupt, bool *corrupted) {
    ledge_shape s;
    if (corrupted) *corrupted = false;
    uint8_t kind = rd_u8(r);
    switch (kind % 4) {
    case 0: {
        vec2s c = rd_vec(r);
        s = ledge_make_circle(c, rd_float(r));
        break;
    }
    case 1: {
        vec2s c = rd_vec(r);
        s = ledge_make_box(c, rd_vec(r));
        break;
    }
    default: {
        vec2s pts[12];
        int count = rd_u8(r) % 12;
        for (int i = 0; i < count; ++i) pts[i] = rd_vec(r);
        ledge_make_polygon(pts, count, &s);
        break;
    }
    }
    if (allow_corrupt && kind >= 0xF8) {
        if (corrupted) *corrupted = true;
        size_t at = rd_u8(r) % sizeof s, len = rd_u8(r) % 16;
        for (size_t i = 0; i < len && at + i < sizeof s; ++i) ((uint8_t *)&s)[at + i] = rd_u8(r);
    }
    return s;
}

static long g_refusals;

static void quiet_log(ledge_log_level level, const char *message, void *user) {
    (void)user;
    (void)message;
    if (level == LEDGE_LOG_ERROR) g_refusals++;
}

/// Silences ledge's log (refusals are expected; printing them would slow
/// the fuzzer to a crawl).
static inline void fuzz_init(void) {
    static bool done;
    if (done) return;
    done = true;
    ledge_set_log_hook(quiet_log, NULL);
}

static inline bool vec_finite(vec2s v) {
    return isfinite(v.x) && isfinite(v.y);
}

static inline bool unit(vec2s v) {
    double l = sqrt((double)v.x * v.x + (double)v.y * v.y);
    return fabs(l - 1.0) <= 1e-4;
}

#endif
