// Snapshots: the recorded contacts (the live list the next substep
// replays, then the held ones of sleeping bodies), in their order: per
// contact a record of 44 bytes (the bodies' slots, the normal, the
// friction, bounce and Coulomb cap, the depth, the point, the surface
// speed: eleven 32-bit words, the order of ledge__contact, which a
// little-endian host copies as they are), then a byte each of the
// response policy and the pile mark, then the tile cell and stamp of the
// contacts that have them (every tile contact; a chain contact, b = -2,
// its chain's slot, segment and generation there). Kept as they are:
// nothing is computed again, so a restore copies and checks them in
// straight-line loops.
#include "chain_store.h"
#include "contacts.h"
#include "snapshot_contacts.h"

#include <stddef.h>

// The byte of a contact.
enum {
    B_POLICY = 3, // its ledge_response
    B_PILE = 4,   // it lies within a pile (response.c)
    B_CELL = 8,   // its cell and stamp follow (a tile contact; a pair's when not 0)
    B_ALL = 15,
};

// The bytes of a contact's record, of a contact without its cell, of a cell.
enum { REC_BYTES = 44, CONTACT_BYTES = 45, CELL_BYTES = 12 };

// The record is ledge__contact's first eleven words, in its order.
_Static_assert(offsetof(ledge__contact, a) == 0 && offsetof(ledge__contact, b) == 4 &&
                   offsetof(ledge__contact, normal) == 8 &&
                   offsetof(ledge__contact, friction) == 16 &&
                   offsetof(ledge__contact, bounce) == 20 && offsetof(ledge__contact, cap) == 24 &&
                   offsetof(ledge__contact, depth) == 28 && offsetof(ledge__contact, point) == 32 &&
                   offsetof(ledge__contact, speed) == 40 && sizeof(vec2s) == 8,
               "a contact's record is the first 44 bytes of ledge__contact");

static inline bool has_cell(const ledge__contact *c) {
    return c->b < 0 || (c->cell_x | c->cell_y | c->stamp) != 0;
}

void ledge__snap_contacts_put(const ledge__contact *list, int count, ledge__writer *o) {
    size_t m = (size_t)count;
    ledge__put_var(o, m);
    uint8_t *rec = ledge__put_span(o, REC_BYTES * m);
    uint8_t *bits = ledge__put_span(o, m);
    size_t cells = 0;
    if (bits == NULL) { // (counting, or past the capacity: the size only)
        for (size_t k = 0; k < m; ++k) cells += has_cell(&list[k]);
        ledge__put_span(o, CELL_BYTES * cells);
        return;
    }
    bool copies = ledge__snap_copies();
    for (size_t k = 0; k < m; ++k) {
        const ledge__contact *c = &list[k];
        if (copies) {
            memcpy(rec + REC_BYTES * k, c, REC_BYTES);
        } else {
            ledge__column_put(rec + REC_BYTES * k, c, REC_BYTES / 4);
        }
        bool cell = has_cell(c);
        bits[k] = (uint8_t)(c->policy | (c->pile ? B_PILE : 0u) | (cell ? B_CELL : 0u));
        cells += cell;
    }
    uint8_t *cell = ledge__put_span(o, CELL_BYTES * cells);
    for (size_t k = 0, j = 0; cell != NULL && k < m; ++k) {
        const ledge__contact *c = &list[k];
        if (!(bits[k] & B_CELL)) continue;
        uint8_t *q = cell + CELL_BYTES * j++;
        ledge__store_u32(q, (uint32_t)c->cell_x);
        ledge__store_u32(q + 4, (uint32_t)c->cell_y);
        ledge__store_u32(q + 8, (uint32_t)c->stamp);
    }
}

// The limits of a record's floats, as the bits of their magnitude.
#define TWO_BITS   0x40000000u // 2.0f
#define ONE_BITS   0x3F800000u // 1.0f
#define MINUS_ZERO 0x80000000u

static inline uint32_t magnitude(const uint8_t *q) {
    return ledge__load_u32(q) & 0x7FFFFFFFu;
}

// b of a chain contact, as stored.
#define CHAIN_B ((uint32_t)LEDGE__CHAIN_CONTACT)

// Whether contact k's ids and byte are right: a a living body, b one too
// (not a) or a tile (UINT32_MAX) or a chain (CHAIN_B), with its cell.
static inline bool ids_ok(const uint8_t *q, unsigned bits, const uint8_t *mark, uint32_t slots) {
    uint32_t a = ledge__load_u32(q), b = ledge__load_u32(q + 4);
    unsigned a_ok = (a < slots) & ((mark[a < slots ? a : 0] & LEDGE__SNAP_ALIVE) != 0);
    unsigned b_ok = b >= CHAIN_B ? (bits & B_CELL) != 0
                                 : (b < slots) & (b != a) &
                                       ((mark[b < slots ? b : 0] & LEDGE__SNAP_ALIVE) != 0);
    return a_ok & b_ok & (bits <= B_ALL) & ((bits & B_POLICY) <= LEDGE_RESPONSE_CROSS);
}

// Whether its floats are in range: the normal's components within 2,
// depth, point and surface speed within `far` (4 LEDGE_MAX_COORDINATE),
// friction and bounce within 0 .. 1, the cap within 0 .. far; every one
// finite.
static inline bool floats_ok(const uint8_t *q, uint32_t far) {
    uint32_t nx = magnitude(q + 8), ny = magnitude(q + 12), depth = magnitude(q + 28);
    uint32_t px = magnitude(q + 32), py = magnitude(q + 36), speed = magnitude(q + 40);
    uint32_t friction = ledge__load_u32(q + 16), bounce = ledge__load_u32(q + 20);
    uint32_t cap = ledge__load_u32(q + 24);
    return (nx <= TWO_BITS) & (ny <= TWO_BITS) & (depth <= far) & (px <= far) & (py <= far) &
           (speed <= far) & ((friction <= ONE_BITS) | (friction == MINUS_ZERO)) &
           ((bounce <= ONE_BITS) | (bounce == MINUS_ZERO)) & ((cap <= far) | (cap == MINUS_ZERO));
}

// The first contact that is wrong, named (after the straight-line loop
// found one).
static bool contact_fail(ledge__reader *r, const ledge__snap_contact_cols *c, const uint8_t *mark,
                         uint32_t slots, uint32_t far) {
    for (int k = 0; k < c->count; ++k) {
        const uint8_t *q = c->rec + REC_BYTES * (size_t)k;
        unsigned bits = c->bits[k];
        uint32_t a = ledge__load_u32(q), b = ledge__load_u32(q + 4);
        if (a >= slots || !(mark[a] & LEDGE__SNAP_ALIVE))
            return ledge__read_fail(r, "a contact's body slot %u is not a living body", a);
        if (b >= CHAIN_B ? !(bits & B_CELL)
                         : b >= slots || b == a || !(mark[b] & LEDGE__SNAP_ALIVE))
            return ledge__read_fail(r, "a contact's other slot %d is not a living body or tile",
                                    (int)b);
        if (bits > B_ALL || (bits & B_POLICY) > LEDGE_RESPONSE_CROSS)
            return ledge__read_fail(r, "a contact's byte is %u", bits);
        if (!floats_ok(q, far))
            return ledge__read_fail(
                r,
                "contact %d's normal (%g, %g), depth %g, point (%g, %g), friction %g, bounce %g, "
                "cap %g or surface speed %g is out of range",
                k, (double)ledge__load_f32(q + 8), (double)ledge__load_f32(q + 12),
                (double)ledge__load_f32(q + 28), (double)ledge__load_f32(q + 32),
                (double)ledge__load_f32(q + 36), (double)ledge__load_f32(q + 16),
                (double)ledge__load_f32(q + 20), (double)ledge__load_f32(q + 24),
                (double)ledge__load_f32(q + 40));
    }
    return ledge__read_fail(r, "a contact is wrong"); // (not reached)
}

// Whether the chain contacts name a segment of a living chain of the
// snapshot's, with its generation.
static bool chains_ok(ledge__reader *r, const ledge__snap_contact_cols *c,
                      const ledge__chains *chains) {
    for (int k = 0, j = 0; k < c->count; ++k) {
        if (!(c->bits[k] & B_CELL)) continue;
        const uint8_t *p = c->cell + CELL_BYTES * (size_t)j++;
        if (ledge__load_u32(c->rec + REC_BYTES * (size_t)k + 4) != CHAIN_B) continue;
        uint32_t s = ledge__load_u32(p), segment = ledge__load_u32(p + 4);
        uint32_t generation = ledge__load_u32(p + 8);
        const ledge__chain *ch =
            chains != NULL && s < (uint32_t)chains->count ? &chains->c[s] : NULL;
        if (ch == NULL || !ch->alive || segment >= (uint32_t)ch->segment_count ||
            ch->generation != generation) {
            return ledge__read_fail(r, "contact %d names no segment of a living chain (%u, %u)", k,
                                    s, segment);
        }
    }
    return true;
}

bool ledge__snap_contacts_check(ledge__reader *r, const ledge_world *w, int slots,
                                const ledge__chains *chains, ledge__snap_contact_cols *c) {
    size_t m =
        (size_t)ledge__get_count(r, (uint64_t)(r->end - r->at) / CONTACT_BYTES, "the contacts");
    c->count = (int)m;
    c->rec = ledge__get_span(r, REC_BYTES * m);
    c->bits = ledge__get_span(r, m);
    if (r->failed) return false;
    const uint8_t *mark = w->step.restore_mark;
    uint32_t far = ledge__f32_bits(4.0f * LEDGE_MAX_COORDINATE);
    unsigned ok = 1;
    size_t cells = 0;
    for (size_t k = 0; k < m; ++k) {
        const uint8_t *q = c->rec + REC_BYTES * k;
        unsigned bits = c->bits[k];
        unsigned good = ids_ok(q, bits, mark, (uint32_t)slots);
        ok &= good & (unsigned)floats_ok(q, far);
        cells += (bits & B_CELL) != 0;
    }
    if (!ok) return contact_fail(r, c, mark, (uint32_t)slots, far);
    c->cells = (int)cells;
    c->cell = ledge__get_span(r, CELL_BYTES * cells);
    return !r->failed && chains_ok(r, c, chains);
}

void ledge__snap_contacts_apply(const ledge__snap_contact_cols *c, ledge__contact *list) {
    bool copies = ledge__snap_copies();
    for (size_t k = 0, j = 0; k < (size_t)c->count; ++k) {
        ledge__contact *t = &list[k];
        const uint8_t *q = c->rec + REC_BYTES * k;
        if (copies) {
            memcpy(t, q, REC_BYTES);
        } else {
            ledge__column_get(t, q, REC_BYTES / 4);
        }
        unsigned bits = c->bits[k];
        t->policy = (uint8_t)(bits & B_POLICY);
        t->pile = (bits & B_PILE) ? 1 : 0;
        t->target = 0.0f;
        if (bits & B_CELL) {
            const uint8_t *p = c->cell + CELL_BYTES * j++;
            t->cell_x = (int)ledge__load_u32(p);
            t->cell_y = (int)ledge__load_u32(p + 4);
            t->stamp = (int)ledge__load_u32(p + 8);
        } else {
            t->cell_x = t->cell_y = t->stamp = 0;
        }
    }
}
