// Internal: the snapshot's byte codec and its sections (snapshot.c and
// snapshot_*.c; docs/rollback.md describes the format). Little-endian on
// every target; integers that are mostly small are LEB128 varints (signed
// ones zigzagged), floats their raw 32 bits.
//
// A save writes each section through a writer (which counts when it has
// no buffer, so that the size is the same code). A restore reads the
// buffer twice through the same section functions: first only to check
// it and learn what room it needs (`apply` false: nothing of the world is
// written, except scratch the step rewrites anyway), then, once that room
// is made, to put the world back (`apply` true), which can no longer fail.
#ifndef LEDGE_SNAPSHOT_INTERNAL_H
#define LEDGE_SNAPSHOT_INTERNAL_H

#include "world_state.h"

#include <string.h>

// --- writing -----------------------------------------------------------------

/// Where a save writes: `cap` bytes at `p` (NULL: count only). `at` counts
/// every byte put, also past `cap`, so that a short buffer still learns
/// the size; nothing is written past `cap`.
typedef struct ledge__writer {
    uint8_t *p;
    size_t at, cap;
} ledge__writer;

static inline void ledge__put_bytes(ledge__writer *o, const void *src, size_t n) {
    if (o->p != NULL && n <= o->cap && o->at <= o->cap - n) memcpy(o->p + o->at, src, n);
    o->at += n;
}

static inline void ledge__put_u8(ledge__writer *o, unsigned v) {
    if (o->p != NULL && o->at < o->cap) o->p[o->at] = (uint8_t)v;
    o->at++;
}

static inline void ledge__put_u32(ledge__writer *o, uint32_t v) {
    if (o->p != NULL && o->cap - o->at >= 4 && o->at <= o->cap) {
        uint8_t *b = o->p + o->at;
        b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16),
        b[3] = (uint8_t)(v >> 24);
    }
    o->at += 4;
}

static inline void ledge__put_u64(ledge__writer *o, uint64_t v) {
    ledge__put_u32(o, (uint32_t)v);
    ledge__put_u32(o, (uint32_t)(v >> 32));
}

static inline uint32_t ledge__f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float ledge__bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline void ledge__put_f32(ledge__writer *o, float f) {
    ledge__put_u32(o, ledge__f32_bits(f));
}

static inline void ledge__put_vec(ledge__writer *o, vec2s v) {
    ledge__put_f32(o, v.x);
    ledge__put_f32(o, v.y);
}

static inline void ledge__put_var(ledge__writer *o, uint64_t v) {
    if (o->p != NULL && o->at <= o->cap && o->cap - o->at >= 10) { // (the usual case)
        uint8_t *b = o->p + o->at;
        size_t n = 0;
        while (v >= 0x80u) {
            b[n++] = (uint8_t)(v | 0x80u);
            v >>= 7;
        }
        b[n++] = (uint8_t)v;
        o->at += n;
        return;
    }
    uint8_t b[10];
    size_t n = 0;
    while (v >= 0x80u) {
        b[n++] = (uint8_t)(v | 0x80u);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    ledge__put_bytes(o, b, n);
}

static inline uint64_t ledge__zigzag(int64_t v) {
    return v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1u : (uint64_t)v << 1;
}

static inline void ledge__put_svar(ledge__writer *o, int64_t v) {
    ledge__put_var(o, ledge__zigzag(v));
}

/// Bits of two vectors equal (the save's test of a prediction).
static inline bool ledge__same_vec(vec2s a, vec2s b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

// --- reading -----------------------------------------------------------------

/// What a restore reads. The first problem ends the reading: `failed` is
/// set, `message` says what is wrong, and every later read gives zeros.
typedef struct ledge__reader {
    const uint8_t *p;
    size_t at, end;
    bool failed;
    bool no_room; ///< It failed for want of memory, not for the bytes.
    char message[200];
} ledge__reader;

/// Marks the reading failed with a message (the first one stays); false.
bool ledge__read_fail(ledge__reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static inline bool ledge__have(ledge__reader *r, size_t n) {
    if (!r->failed && n <= r->end - r->at) return true;
    if (!r->failed) ledge__read_fail(r, "a section runs past the end of the snapshot");
    return false;
}

static inline unsigned ledge__get_u8(ledge__reader *r) {
    return ledge__have(r, 1) ? r->p[r->at++] : 0u;
}

static inline uint32_t ledge__get_u32(ledge__reader *r) {
    if (!ledge__have(r, 4)) return 0;
    const uint8_t *b = r->p + r->at;
    r->at += 4;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline uint64_t ledge__get_u64(ledge__reader *r) {
    uint64_t lo = ledge__get_u32(r);
    return lo | (uint64_t)ledge__get_u32(r) << 32;
}

static inline float ledge__get_f32(ledge__reader *r) {
    return ledge__bits_f32(ledge__get_u32(r));
}

static inline vec2s ledge__get_vec(ledge__reader *r) {
    vec2s v;
    v.x = ledge__get_f32(r);
    v.y = ledge__get_f32(r);
    return v;
}

/// A varint of at most 64 bits (10 bytes); a longer one fails the reading.
uint64_t ledge__get_var_slow(ledge__reader *r);

static inline uint64_t ledge__get_var(ledge__reader *r) {
    const uint8_t *p = r->p + r->at;
    if (r->end - r->at >= 3) { // (the usual one to three bytes inline)
        if (p[0] < 0x80u) {
            r->at += 1;
            return p[0];
        }
        if (p[1] < 0x80u) {
            r->at += 2;
            return (uint64_t)(p[0] & 0x7Fu) | (uint64_t)p[1] << 7;
        }
        if (p[2] < 0x80u) {
            r->at += 3;
            return (uint64_t)(p[0] & 0x7Fu) | (uint64_t)(p[1] & 0x7Fu) << 7 | (uint64_t)p[2] << 14;
        }
    }
    return ledge__get_var_slow(r);
}

static inline int64_t ledge__get_svar(ledge__reader *r) {
    uint64_t z = ledge__get_var(r);
    return (z & 1u) ? -(int64_t)(z >> 1) - 1 : (int64_t)(z >> 1);
}

/// A varint at most `max`, or a failed reading naming `what`.
uint64_t ledge__get_count(ledge__reader *r, uint64_t max, const char *what);

/// The failure of ledge__get_within (out of line).
float ledge__within_fail(ledge__reader *r, float f, float limit, const char *what);

/// A float that is finite and within `limit` in magnitude, or a failed
/// reading naming `what`.
static inline float ledge__get_within(ledge__reader *r, float limit, const char *what) {
    float f = ledge__get_f32(r);
    return ledge__finite_within(f, limit) ? f : ledge__within_fail(r, f, limit, what);
}

static inline vec2s ledge__get_vec_within(ledge__reader *r, float limit, const char *what) {
    vec2s v;
    v.x = ledge__get_within(r, limit, what);
    v.y = ledge__get_within(r, limit, what);
    return v;
}

/// The checksum a header holds: of the `n` bytes from the byte after the
/// checksum field to the snapshot's end (snapshot.c; the fuzz harness
/// mends mutated snapshots with it to reach the sections' checks).
uint64_t ledge__snapshot_checksum(const void *data, size_t n);

/// Where the checksum field lies and where the bytes it covers start.
#define LEDGE__SNAP_SUM_AT   16
#define LEDGE__SNAP_SUM_FROM 24
#define LEDGE__SNAP_HEADER   88

// --- the sections --------------------------------------------------------------

/// What the first reading learns: the room the second needs, and the
/// world's scalars, which are put back once the tiles are.
typedef struct ledge__snap_plan {
    int slots;          ///< Body slots.
    int contacts, held; ///< Live and held contacts.
    int touch_keys, sensor_keys;
    int touch_begin, touch_end, sensor_begin, sensor_end, crush;
    int characters;     ///< Character entries listed.
    int character_room; ///< Handles the character table must hold.
    float max_extent;
    int order_clock;
    bool any_moved, sleep_woke, sleep_stepped;
    bool contacts_edited;         ///< A tile edit since the contacts were found.
    uint32_t pending;             ///< Edits the sleepers have not seen (> 64: all).
    ledge__cell pending_cell[64]; ///< Those cells, oldest first (pending <= 64).
} ledge__snap_plan;

/// The world's scalars, the tilemap, the body store, the contacts (live
/// then held), the events, the characters: each written by *_put and read
/// by *_get (snapshot_*.c), in this order.
void ledge__snap_world_put(const ledge_world *w, ledge__writer *o);
bool ledge__snap_world_get(ledge__reader *r, const ledge_world *w, ledge__snap_plan *plan);

void ledge__snap_tiles_put(const ledge_world *w, ledge__writer *o);
bool ledge__snap_tiles_get(ledge__reader *r, ledge_world *w, bool apply);

void ledge__snap_bodies_put(const ledge_world *w, ledge__writer *o);
/// The first reading also grows the store to the snapshot's slots, and
/// leaves in the scratch what the later sections check ids against
/// (ledge__snap_alive and friends).
bool ledge__snap_bodies_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan, bool apply);

void ledge__snap_contacts_put(const ledge_world *w, const ledge__contact *list, int count,
                              ledge__writer *o);
/// Checked against the snapshot's `slots`; with `apply`, into `list` (room
/// for the count the first reading put in *count).
bool ledge__snap_contacts_get(ledge__reader *r, ledge_world *w, int slots, ledge__contact *list,
                              int *count, bool apply);

void ledge__snap_events_put(const ledge_world *w, ledge__writer *o);
bool ledge__snap_events_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan, bool apply);

void ledge__snap_characters_put(const ledge_world *w, ledge__writer *o);
bool ledge__snap_characters_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan,
                                bool apply);

// What the body section's first reading leaves in the store's scratch
// (order_mark by slot, order by handle, order_key by slot), for the later
// sections' checks. The step rewrites that scratch before it reads it.
#define LEDGE__SNAP_ALIVE     1u
#define LEDGE__SNAP_KINEMATIC 2u

/// Whether slot i of the snapshot holds a living body (first reading).
static inline bool ledge__snap_alive(const ledge_world *w, int i) {
    return (w->step.order_mark[i] & LEDGE__SNAP_ALIVE) != 0;
}

#endif // LEDGE_SNAPSHOT_INTERNAL_H
