// The snapshot's byte codec and what its sections share (snapshot.c and
// snapshot_*.c; docs/rollback.md describes the format). Little-endian on
// every target. The bulk of a snapshot (the bodies' ids, flags, positions,
// velocities and timers, the contacts' fields) is fixed-width columns,
// which a little-endian host copies as they are and checks in loops the
// compiler vectorises; the small sections (the world's scalars, the tiles,
// the bodies' settings as runs, the events, the characters) are LEB128
// varints (signed ones zigzagged) and raw 32-bit floats.
//
// A save writes each section through a writer (which counts when it has
// no buffer, so that the size is the same code). A restore reads in two
// stages: first it checks everything and learns the room it needs and
// where each column lies (nothing of the world is written, except scratch
// the step rewrites anyway); then, once that room is made, it puts the
// world back from the columns and the small sections read again, which
// can no longer fail.
#ifndef LEDGE_SNAPSHOT_CODEC_H
#define LEDGE_SNAPSHOT_CODEC_H

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

/// Whether two vectors have the same bits (as one 64-bit word: no jump).
static inline bool ledge__same_bits(vec2s a, vec2s b) {
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

// --- columns -------------------------------------------------------------------

// A little-endian host copies a column's bytes as they are; any other reads
// and writes them byte by byte (the same bytes).
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#define LEDGE__HOST_LE (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#elif defined(_MSC_VER)
#define LEDGE__HOST_LE 1 // (every target of MSVC)
#else
#define LEDGE__HOST_LE 0
#endif

/// Set, the columns go byte by byte on a little-endian host too: the path
/// of a big-endian host, which the tests compare with the copies.
extern bool ledge__snap_portable;

static inline bool ledge__snap_copies(void) {
    return LEDGE__HOST_LE && !ledge__snap_portable;
}

/// Room for `n` bytes where the writer is: where to write them, or NULL
/// when it counts or they pass its capacity (it moves on either way; a
/// later span fits only if every earlier one did).
static inline uint8_t *ledge__put_span(ledge__writer *o, size_t n) {
    uint8_t *at = o->p != NULL && o->at <= o->cap && n <= o->cap - o->at ? o->p + o->at : NULL;
    o->at += n;
    return at;
}

/// The 32-bit word at p (little-endian).
static inline uint32_t ledge__load_u32(const uint8_t *p) {
#if LEDGE__HOST_LE
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

static inline void ledge__store_u32(uint8_t *p, uint32_t v) {
#if LEDGE__HOST_LE
    memcpy(p, &v, sizeof v);
#else
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16),
    p[3] = (uint8_t)(v >> 24);
#endif
}

static inline float ledge__load_f32(const uint8_t *p) {
    float f;
#if LEDGE__HOST_LE
    memcpy(&f, p, sizeof f);
#else
    uint32_t v = ledge__load_u32(p);
    memcpy(&f, &v, sizeof f);
#endif
    return f;
}

/// `n` 32-bit words (ints, floats, vec2s as two) from `src` to a column.
static inline void ledge__column_put(uint8_t *dst, const void *src, size_t n) {
    if (ledge__snap_copies()) {
        memcpy(dst, src, 4 * n);
        return;
    }
    const uint8_t *s = (const uint8_t *)src;
    for (size_t k = 0; k < n; ++k) {
        uint32_t v;
        memcpy(&v, s + 4 * k, sizeof v);
        dst[4 * k] = (uint8_t)v, dst[4 * k + 1] = (uint8_t)(v >> 8);
        dst[4 * k + 2] = (uint8_t)(v >> 16), dst[4 * k + 3] = (uint8_t)(v >> 24);
    }
}

/// `n` 32-bit words from a column to `dst`.
static inline void ledge__column_get(void *dst, const uint8_t *src, size_t n) {
    if (ledge__snap_copies()) {
        memcpy(dst, src, 4 * n);
        return;
    }
    uint8_t *d = (uint8_t *)dst;
    for (size_t k = 0; k < n; ++k) {
        const uint8_t *b = src + 4 * k;
        uint32_t v =
            (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        memcpy(d + 4 * k, &v, sizeof v);
    }
}

/// Whether the `n` floats of a column are finite and within `limit` in
/// magnitude (a loop the compiler vectorises; no early exit).
bool ledge__column_within(const uint8_t *p, size_t n, float limit);

/// The first float of a column that is not (its index), for the message.
size_t ledge__column_first_out(const uint8_t *p, size_t n, float limit);

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

/// The next `n` bytes (a column), or NULL with the reading failed.
static inline const uint8_t *ledge__get_span(ledge__reader *r, size_t n) {
    if (!ledge__have(r, n)) return NULL;
    const uint8_t *p = r->p + r->at;
    r->at += n;
    return p;
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

// --- the sections --------------------------------------------------------------

/// Where the body section's columns lie (the first reading finds them).
typedef struct ledge__snap_body_cols {
    int slots, alive;
    const uint8_t *handle, *generation, *flags; ///< Per slot.
    int free_count;
    const uint8_t *free;
    const uint8_t *position, *velocity, *timer; ///< Per slot.
    int carries, rests;                         ///< The lists of slots and values.
    const uint8_t *carry_slot, *carry_value, *rest_slot, *rest_value;
    size_t settings_at; ///< Where the settings' runs start.
} ledge__snap_body_cols;

/// Where a contact list's records lie.
typedef struct ledge__snap_contact_cols {
    int count, cells;    ///< Contacts, and those with a cell.
    const uint8_t *rec;  ///< Per contact its 40 bytes (snapshot_contacts.c).
    const uint8_t *bits; ///< Per contact its byte.
    const uint8_t *cell; ///< Per contact with a cell: cell x, y and stamp.
} ledge__snap_contact_cols;

/// What the first reading learns: the room the second needs, where the
/// columns and the small sections lie, and the world's scalars, which are
/// put back once the tiles are.
typedef struct ledge__snap_plan {
    int slots;                           ///< Body slots.
    ledge__snap_body_cols bodies;        ///< The body section.
    ledge__snap_contact_cols live, held; ///< The live and the held contacts.
    size_t tiles_at, events_at;          ///< Where the tiles and the events start.
    int touch_keys, sensor_keys;
    int touch_begin, touch_end, sensor_begin, sensor_end, crush;
    int cell_materials; ///< The tilemap's per-cell materials listed.
    int characters;     ///< Character entries listed.
    int character_room; ///< Handles the character table must hold.
    int joints;         ///< Joint indices listed.
    int joint_handles;  ///< Body handles the joint table must hold.
    float max_extent;
    int order_clock;
    bool any_moved, sleep_woke, sleep_stepped;
    bool contacts_edited;         ///< A tile edit since the contacts were found.
    uint32_t pending;             ///< Edits the sleepers have not seen (> 64: all).
    ledge__cell pending_cell[64]; ///< Those cells, oldest first (pending <= 64).
    struct ledge__chains *chains; ///< The chains, built aside by the first reading.
} ledge__snap_plan;

// What the body section's first reading leaves in the step's per-body
// scratch (restore_mark by slot; restore_slot: the living slots), for the
// later sections' checks. Nothing else reads those arrays.
#define LEDGE__SNAP_ALIVE     1u
#define LEDGE__SNAP_KINEMATIC 2u

/// Whether slot i of the snapshot holds a living body (first reading).
static inline bool ledge__snap_alive(const ledge_world *w, int i) {
    return (w->step.restore_mark[i] & LEDGE__SNAP_ALIVE) != 0;
}

#endif // LEDGE_SNAPSHOT_CODEC_H
