// Snapshots: the recorded contacts (the live list the next substep
// replays, then the held ones of sleeping bodies), in their order, as
// fixed-width columns: the bodies' slots, the normal, depth and point, the
// friction, bounce and Coulomb cap, a byte of the response policy and the
// pile mark; then the tile cell and stamp of the contacts that have them
// (every tile contact). Kept as they are: nothing is computed again, so a
// restore copies and checks them in loops without branches.
#include "snapshot.h"

// The byte of a contact.
enum {
    B_POLICY = 3, // its ledge_response
    B_PILE = 4,   // it lies within a pile (response.c)
    B_CELL = 8,   // its cell and stamp follow (a tile contact; a pair's when not 0)
    B_ALL = 15,
};

// The bytes of a contact without its cell, and of a cell.
enum { CONTACT_BYTES = 41, CELL_BYTES = 12 };

static inline bool has_cell(const ledge__contact *c) {
    return c->b < 0 || (c->cell_x | c->cell_y | c->stamp) != 0;
}

void ledge__snap_contacts_put(const ledge__contact *list, int count, ledge__writer *o) {
    size_t m = (size_t)count;
    ledge__put_var(o, m);
    uint8_t *a = ledge__put_span(o, 4 * m), *b = ledge__put_span(o, 4 * m);
    uint8_t *normal = ledge__put_span(o, 8 * m), *depth = ledge__put_span(o, 4 * m);
    uint8_t *point = ledge__put_span(o, 8 * m), *friction = ledge__put_span(o, 4 * m);
    uint8_t *bounce = ledge__put_span(o, 4 * m), *cap = ledge__put_span(o, 4 * m);
    uint8_t *bits = ledge__put_span(o, m);
    size_t cells = 0;
    if (bits == NULL) { // (counting, or past the capacity: the size only)
        for (size_t k = 0; k < m; ++k) cells += has_cell(&list[k]);
        ledge__put_span(o, CELL_BYTES * cells);
        return;
    }
    for (size_t k = 0; k < m; ++k) {
        const ledge__contact *c = &list[k];
        ledge__store_u32(a + 4 * k, (uint32_t)c->a);
        ledge__store_u32(b + 4 * k, (uint32_t)c->b);
        ledge__column_put(normal + 8 * k, &c->normal, 2);
        ledge__column_put(depth + 4 * k, &c->depth, 1);
        ledge__column_put(point + 8 * k, &c->point, 2);
        ledge__column_put(friction + 4 * k, &c->friction, 1);
        ledge__column_put(bounce + 4 * k, &c->bounce, 1);
        ledge__column_put(cap + 4 * k, &c->cap, 1);
        bool cell = has_cell(c);
        bits[k] = (uint8_t)(c->policy | (c->pile ? B_PILE : 0u) | (cell ? B_CELL : 0u));
        cells += cell;
    }
    uint8_t *cx = ledge__put_span(o, 4 * cells), *cy = ledge__put_span(o, 4 * cells);
    uint8_t *stamp = ledge__put_span(o, 4 * cells);
    for (size_t k = 0, j = 0; stamp != NULL && k < m; ++k) {
        const ledge__contact *c = &list[k];
        if (!(bits[k] & B_CELL)) continue;
        ledge__store_u32(cx + 4 * j, (uint32_t)c->cell_x);
        ledge__store_u32(cy + 4 * j, (uint32_t)c->cell_y);
        ledge__store_u32(stamp + 4 * j++, (uint32_t)c->stamp);
    }
}

// The first contact whose ids or byte are wrong, named (after the loop
// without branches found one).
static bool ids_fail(ledge__reader *r, const ledge_world *w, int slots,
                     const ledge__snap_contact_cols *c) {
    const uint8_t *mark = w->step.order_mark;
    for (int k = 0; k < c->count; ++k) {
        uint32_t a = ledge__load_u32(c->a + 4 * (size_t)k),
                 b = ledge__load_u32(c->b + 4 * (size_t)k);
        unsigned bits = c->bits[k];
        if (a >= (uint32_t)slots || !(mark[a] & LEDGE__SNAP_ALIVE))
            return ledge__read_fail(r, "a contact's body slot %u is not a living body", a);
        if (b == UINT32_MAX ? !(bits & B_CELL)
                            : b >= (uint32_t)slots || b == a || !(mark[b] & LEDGE__SNAP_ALIVE))
            return ledge__read_fail(r, "a contact's other slot %d is not a living body or tile",
                                    (int)b);
        if (bits > B_ALL || (bits & B_POLICY) > LEDGE_RESPONSE_CROSS)
            return ledge__read_fail(r, "a contact's byte is %u", bits);
    }
    return ledge__read_fail(r, "a contact is wrong"); // (not reached)
}

// Each float column within its range: the normal's components within 2,
// depth, point and cap within 4 LEDGE_MAX_COORDINATE, the cap not
// negative, friction and bounce within 0 .. 1.
static bool check_floats(ledge__reader *r, const ledge__snap_contact_cols *c) {
    size_t m = (size_t)c->count;
    const float far = 4.0f * LEDGE_MAX_COORDINATE;
    const uint8_t *column[4] = {c->normal, c->depth, c->point, c->cap};
    const size_t floats[4] = {2 * m, m, 2 * m, m};
    const float limit[4] = {2.0f, far, far, far};
    const char *what[4] = {"a contact normal", "a contact depth", "a contact point",
                           "a contact's cap"};
    for (int k = 0; k < 4; ++k) {
        if (ledge__column_within(column[k], floats[k], limit[k])) continue;
        size_t at = ledge__column_first_out(column[k], floats[k], limit[k]);
        return ledge__read_fail(r, "%s is %g (finite, at most %g)", what[k],
                                (double)ledge__load_f32(column[k] + 4 * at), (double)limit[k]);
    }
    bool ok = true;
    for (size_t k = 0; k < m; ++k) {
        float f = ledge__load_f32(c->friction + 4 * k), e = ledge__load_f32(c->bounce + 4 * k);
        float cap = ledge__load_f32(c->cap + 4 * k);
        ok &= (f >= 0.0f) & (f <= 1.0f) & (e >= 0.0f) & (e <= 1.0f) & (cap >= 0.0f);
    }
    for (size_t k = 0; !ok && k < m; ++k) {
        float f = ledge__load_f32(c->friction + 4 * k), e = ledge__load_f32(c->bounce + 4 * k);
        float cap = ledge__load_f32(c->cap + 4 * k);
        if (!(f >= 0.0f && f <= 1.0f && e >= 0.0f && e <= 1.0f && cap >= 0.0f))
            return ledge__read_fail(r,
                                    "a contact's friction %g, bounce %g or cap %g is out of range",
                                    (double)f, (double)e, (double)cap);
    }
    return true;
}

bool ledge__snap_contacts_check(ledge__reader *r, const ledge_world *w, int slots,
                                ledge__snap_contact_cols *c) {
    size_t m =
        (size_t)ledge__get_count(r, (uint64_t)(r->end - r->at) / CONTACT_BYTES, "the contacts");
    c->count = (int)m;
    c->a = ledge__get_span(r, 4 * m);
    c->b = ledge__get_span(r, 4 * m);
    c->normal = ledge__get_span(r, 8 * m);
    c->depth = ledge__get_span(r, 4 * m);
    c->point = ledge__get_span(r, 8 * m);
    c->friction = ledge__get_span(r, 4 * m);
    c->bounce = ledge__get_span(r, 4 * m);
    c->cap = ledge__get_span(r, 4 * m);
    c->bits = ledge__get_span(r, m);
    if (r->failed) return false;
    // The ids: living bodies (b, a tile: UINT32_MAX, with its cell).
    const uint8_t *mark = w->step.order_mark;
    bool ok = true;
    size_t cells = 0;
    for (size_t k = 0; k < m; ++k) {
        uint32_t a = ledge__load_u32(c->a + 4 * k), b = ledge__load_u32(c->b + 4 * k);
        unsigned bits = c->bits[k];
        bool a_ok = a < (uint32_t)slots && (mark[a < (uint32_t)slots ? a : 0] & LEDGE__SNAP_ALIVE);
        bool b_ok = b == UINT32_MAX ? (bits & B_CELL) != 0
                                    : b < (uint32_t)slots && b != a &&
                                          (mark[b < (uint32_t)slots ? b : 0] & LEDGE__SNAP_ALIVE);
        ok &= a_ok & b_ok & (bits <= B_ALL) & ((bits & B_POLICY) <= LEDGE_RESPONSE_CROSS);
        cells += (bits & B_CELL) != 0;
    }
    if (!ok) return ids_fail(r, w, slots, c);
    if (!check_floats(r, c)) return false;
    c->cells = (int)cells;
    c->cell_x = ledge__get_span(r, 4 * cells);
    c->cell_y = ledge__get_span(r, 4 * cells);
    c->stamp = ledge__get_span(r, 4 * cells);
    return !r->failed;
}

void ledge__snap_contacts_apply(const ledge__snap_contact_cols *c, ledge__contact *list) {
    for (size_t k = 0, j = 0; k < (size_t)c->count; ++k) {
        ledge__contact *t = &list[k];
        unsigned bits = c->bits[k];
        t->a = (int)ledge__load_u32(c->a + 4 * k);
        t->b = (int)ledge__load_u32(c->b + 4 * k);
        ledge__column_get(&t->normal, c->normal + 8 * k, 2);
        ledge__column_get(&t->depth, c->depth + 4 * k, 1);
        ledge__column_get(&t->point, c->point + 8 * k, 2);
        ledge__column_get(&t->friction, c->friction + 4 * k, 1);
        ledge__column_get(&t->bounce, c->bounce + 4 * k, 1);
        ledge__column_get(&t->cap, c->cap + 4 * k, 1);
        t->policy = (uint8_t)(bits & B_POLICY);
        t->pile = (bits & B_PILE) ? 1 : 0;
        t->target = 0.0f;
        if (bits & B_CELL) {
            t->cell_x = (int)ledge__load_u32(c->cell_x + 4 * j);
            t->cell_y = (int)ledge__load_u32(c->cell_y + 4 * j);
            t->stamp = (int)ledge__load_u32(c->stamp + 4 * j++);
        } else {
            t->cell_x = t->cell_y = t->stamp = 0;
        }
    }
}
