// Snapshots (snapshot.h): the entry points, the header (magic, format
// version, size, checksum, the def's fingerprint), the world's scalars and
// the order of a restore: check everything, make room, put back, forget
// what the step derives again. docs/rollback.md describes the format.
#include "chain_store.h"
#include "characters.h"
#include "events.h"
#include "hash.h"
#include "order.h"
#include "sleep.h"
#include "snapshot.h"
#include "snapshot_bodies.h"
#include "snapshot_chains.h"
#include "snapshot_characters.h"
#include "snapshot_contacts.h"
#include "snapshot_events.h"
#include "snapshot_joints.h"
#include "snapshot_tiles.h"
#include "world.h"

#include "ledge/snapshot.h"
#include "tilemap.h"
#include "tilemap_material.h"

#include <limits.h>

#include <stdarg.h>
#include <stdio.h>

// --- the checksum -----------------------------------------------------------------

// XXH3 (64 bits, seed 0: xxHash's XXH3_64bits) over the bytes after the
// checksum field: the same value on every target, and fast where there are
// vectors (hash.c).
uint64_t ledge__snapshot_checksum(const void *data, size_t n) {
    return ledge__hash(data, n, 0);
}

// --- the header ---------------------------------------------------------------------

// The header's layout is snapshot.h's (LEDGE__SNAP_HEADER).
enum { MAGIC = 0x5347444Cu }; // "LDGS"

/// The def's friction law, as one number for the fingerprint and as words
/// for a refusal.
static uint32_t friction_law_code(const ledge_world *w) {
    return w->coulomb ? 1u : 0u;
}

static const char *friction_law_name(uint32_t code) {
    return code == 1u   ? "Coulomb's friction law"
           : code == 0u ? "N's friction law"
                        : "an unknown friction law";
}

/// What a snapshot must share with the world it is restored into: the
/// def's fields the step reads (not the workers nor the capacity).
typedef struct fingerprint {
    uint32_t width, height;
    float tile_size, origin_x, origin_y, gravity_x, gravity_y;
    uint32_t iterations, substeps;
    float slop, bounce_threshold, cell_size;
    uint32_t friction_law, sleep;
    float sleep_speed, sleep_time;
} fingerprint;

static fingerprint fingerprint_of(const ledge_world *w) {
    fingerprint f;
    f.width = (uint32_t)w->map->width;
    f.height = (uint32_t)w->map->height;
    f.tile_size = w->map->tile_size;
    f.origin_x = w->map->origin.x;
    f.origin_y = w->map->origin.y;
    f.gravity_x = w->gravity.x;
    f.gravity_y = w->gravity.y;
    f.iterations = (uint32_t)w->iterations;
    f.substeps = (uint32_t)w->substeps;
    f.slop = w->slop;
    f.bounce_threshold = w->bounce_threshold;
    f.cell_size = w->cell_size;
    f.friction_law = friction_law_code(w);
    f.sleep = w->sleep->on ? 1u : 0u;
    f.sleep_speed = w->sleep->speed;
    f.sleep_time = w->sleep->time;
    return f;
}

static void put_fingerprint(ledge__writer *o, const fingerprint *f) {
    ledge__put_u32(o, f->width);
    ledge__put_u32(o, f->height);
    ledge__put_f32(o, f->tile_size);
    ledge__put_f32(o, f->origin_x);
    ledge__put_f32(o, f->origin_y);
    ledge__put_f32(o, f->gravity_x);
    ledge__put_f32(o, f->gravity_y);
    ledge__put_u32(o, f->iterations);
    ledge__put_u32(o, f->substeps);
    ledge__put_f32(o, f->slop);
    ledge__put_f32(o, f->bounce_threshold);
    ledge__put_f32(o, f->cell_size);
    ledge__put_u32(o, f->friction_law);
    ledge__put_u32(o, f->sleep);
    ledge__put_f32(o, f->sleep_speed);
    ledge__put_f32(o, f->sleep_time);
}

static fingerprint get_fingerprint(ledge__reader *r) {
    fingerprint f;
    f.width = ledge__get_u32(r);
    f.height = ledge__get_u32(r);
    f.tile_size = ledge__get_f32(r);
    f.origin_x = ledge__get_f32(r);
    f.origin_y = ledge__get_f32(r);
    f.gravity_x = ledge__get_f32(r);
    f.gravity_y = ledge__get_f32(r);
    f.iterations = ledge__get_u32(r);
    f.substeps = ledge__get_u32(r);
    f.slop = ledge__get_f32(r);
    f.bounce_threshold = ledge__get_f32(r);
    f.cell_size = ledge__get_f32(r);
    f.friction_law = ledge__get_u32(r);
    f.sleep = ledge__get_u32(r);
    f.sleep_speed = ledge__get_f32(r);
    f.sleep_time = ledge__get_f32(r);
    return f;
}

static bool same_float(float a, float b) {
    return ledge__f32_bits(a) == ledge__f32_bits(b);
}

// Names the first field of the def that differs (one sentence, logged).
static bool fingerprint_matches(const fingerprint *s, const fingerprint *w) {
    const char *fn = "ledge_world_restore";
    if (s->width != w->width || s->height != w->height) {
        LEDGE_ERROR("%s: the snapshot's map is %u x %u cells, this world's %u x %u", fn, s->width,
                    s->height, w->width, w->height);
    } else if (!same_float(s->tile_size, w->tile_size) || !same_float(s->origin_x, w->origin_x) ||
               !same_float(s->origin_y, w->origin_y)) {
        LEDGE_ERROR("%s: the snapshot's tiles are %g wide from (%g, %g), this world's %g from "
                    "(%g, %g)",
                    fn, (double)s->tile_size, (double)s->origin_x, (double)s->origin_y,
                    (double)w->tile_size, (double)w->origin_x, (double)w->origin_y);
    } else if (!same_float(s->cell_size, w->cell_size)) {
        LEDGE_ERROR("%s: the snapshot's cell_size is %g, this world's %g", fn, (double)s->cell_size,
                    (double)w->cell_size);
    } else if (s->friction_law != w->friction_law) {
        LEDGE_ERROR("%s: the snapshot's world answers contacts with %s, this one with %s", fn,
                    friction_law_name(s->friction_law), friction_law_name(w->friction_law));
    } else if (!same_float(s->gravity_x, w->gravity_x) || !same_float(s->gravity_y, w->gravity_y)) {
        LEDGE_ERROR("%s: the snapshot's gravity is (%g, %g), this world's (%g, %g)", fn,
                    (double)s->gravity_x, (double)s->gravity_y, (double)w->gravity_x,
                    (double)w->gravity_y);
    } else if (s->iterations != w->iterations || s->substeps != w->substeps) {
        LEDGE_ERROR("%s: the snapshot's world runs %u iterations and %u substeps, this one %u and "
                    "%u",
                    fn, s->iterations, s->substeps, w->iterations, w->substeps);
    } else if (!same_float(s->slop, w->slop) ||
               !same_float(s->bounce_threshold, w->bounce_threshold)) {
        LEDGE_ERROR("%s: the snapshot's linear_slop and bounce_threshold are %g and %g, this "
                    "world's %g and %g",
                    fn, (double)s->slop, (double)s->bounce_threshold, (double)w->slop,
                    (double)w->bounce_threshold);
    } else if (s->sleep != w->sleep || !same_float(s->sleep_speed, w->sleep_speed) ||
               !same_float(s->sleep_time, w->sleep_time)) {
        LEDGE_ERROR("%s: the snapshot's sleep settings (enable_sleep %u, sleep_speed %g, "
                    "sleep_time %g) are not this world's (%u, %g, %g)",
                    fn, s->sleep, (double)s->sleep_speed, (double)s->sleep_time, w->sleep,
                    (double)w->sleep_speed, (double)w->sleep_time);
    } else {
        return true;
    }
    return false;
}

// --- the world's scalars ----------------------------------------------------------------

enum { ANY_MOVED = 1, SLEEP_WOKE = 2, SLEEP_STEPPED = 4, CONTACTS_EDITED = 8 };

static void snap_world_put(const ledge_world *w, ledge__writer *o) {
    ledge__put_f32(o, w->max_extent);
    ledge__put_var(o, (uint64_t)w->order->clock);
    unsigned flags = (w->any_moved ? ANY_MOVED : 0u) | (w->sleep->woke ? SLEEP_WOKE : 0u) |
                     (w->sleep->stepped ? SLEEP_STEPPED : 0u) |
                     (w->map->version != w->contact_map_version ? CONTACTS_EDITED : 0u);
    ledge__put_u8(o, flags);
    // The edits the sleepers have not seen yet (sleep.c wakes those near
    // them at the next step), oldest first; more than the map remembers
    // wake every sleeper, and are kept as that.
    uint32_t pending = w->map->version - w->sleep->map_version;
    if (pending > LEDGE__EDITS_KEPT) pending = LEDGE__EDITS_KEPT + 1;
    ledge__put_var(o, pending);
    for (uint32_t k = 1; pending <= LEDGE__EDITS_KEPT && k <= pending; ++k) {
        ledge__cell c = w->map->edited[(w->sleep->map_version + k) % LEDGE__EDITS_KEPT];
        ledge__put_var(o, (uint64_t)c.x);
        ledge__put_var(o, (uint64_t)c.y);
    }
}

static bool snap_world_get(ledge__reader *r, const ledge_world *w, ledge__snap_plan *plan) {
    plan->max_extent = ledge__get_within(r, 4.0f * LEDGE_MAX_COORDINATE, "max_extent");
    if (plan->max_extent < 0.0f) return ledge__read_fail(r, "max_extent is negative");
    plan->order_clock = (int)ledge__get_count(r, INT32_MAX, "the reordering clock");
    unsigned flags = ledge__get_u8(r);
    if (flags > 15u) return ledge__read_fail(r, "the world's flags are %u", flags);
    plan->any_moved = flags & ANY_MOVED;
    plan->sleep_woke = flags & SLEEP_WOKE;
    plan->sleep_stepped = flags & SLEEP_STEPPED;
    plan->contacts_edited = flags & CONTACTS_EDITED;
    plan->pending = (uint32_t)ledge__get_count(r, LEDGE__EDITS_KEPT + 1, "the pending edits");
    for (uint32_t k = 0; plan->pending <= LEDGE__EDITS_KEPT && k < plan->pending; ++k) {
        int x = (int)ledge__get_count(r, (uint64_t)w->map->width - 1u, "an edited cell's x");
        int y = (int)ledge__get_count(r, (uint64_t)w->map->height - 1u, "an edited cell's y");
        plan->pending_cell[k] = (ledge__cell){x, y};
    }
    return !r->failed;
}

// --- the whole ----------------------------------------------------------------------

static void encode(const ledge_world *w, ledge__writer *o) {
    fingerprint f = fingerprint_of(w);
    ledge__put_u32(o, MAGIC);
    ledge__put_u32(o, LEDGE_SNAPSHOT_VERSION);
    ledge__put_u64(o, 0); // size, then checksum: filled in at the end
    ledge__put_u64(o, 0);
    put_fingerprint(o, &f);
    snap_world_put(w, o);
    ledge__snap_tiles_put(w, o);
    ledge__snap_bodies_put(w, o);
    ledge__snap_chains_put(w, o);
    ledge__snap_contacts_put(w->contacts, w->contact_count, o);
    ledge__snap_contacts_put(w->held, w->held_count, o);
    ledge__snap_events_put(w, o);
    ledge__snap_characters_put(w, o);
    ledge__snap_joints_put(w, o);
}

static bool world_ok(const ledge_world *w, const char *fn) {
    if (w == NULL) {
        LEDGE_ERROR("%s: world is NULL", fn);
        return false;
    }
    if (w->stepping) {
        LEDGE_ERROR("%s: the world is stepping", fn);
        return false;
    }
    return true;
}

size_t ledge_world_snapshot_size(const ledge_world *world) {
    if (!world_ok(world, "ledge_world_snapshot_size")) return 0;
    ledge__writer o = {NULL, 0, 0};
    encode(world, &o);
    return o.at;
}

size_t ledge_world_save(const ledge_world *world, void *buffer, size_t capacity) {
    const char *fn = "ledge_world_save";
    if (!world_ok(world, fn)) return 0;
    if (buffer == NULL) {
        LEDGE_ERROR("%s: buffer is NULL (capacity %zu)", fn, capacity);
        return 0;
    }
    ledge__writer o = {buffer, 0, capacity};
    encode(world, &o);
    if (o.at > capacity) {
        LEDGE_ERROR("%s: the snapshot needs %zu bytes, the buffer holds %zu "
                    "(ledge_world_snapshot_size)",
                    fn, o.at, capacity);
        return 0;
    }
    uint8_t *b = buffer;
    ledge__writer head = {b, LEDGE__SNAP_SIZE_AT, capacity};
    ledge__put_u64(&head, (uint64_t)o.at);
    ledge__put_u64(&head,
                   ledge__snapshot_checksum(b + LEDGE__SNAP_SUM_FROM, o.at - LEDGE__SNAP_SUM_FROM));
    return o.at;
}

// The header: what the buffer is, that it is whole, and of a world like
// this one. Logs the refusal.
static bool header_ok(const ledge_world *w, const uint8_t *b, size_t size) {
    const char *fn = "ledge_world_restore";
    if (size < LEDGE__SNAP_HEADER) {
        LEDGE_ERROR("%s: size is %zu bytes (a snapshot has at least %d)", fn, size,
                    LEDGE__SNAP_HEADER);
        return false;
    }
    ledge__reader r = {b, 0, LEDGE__SNAP_HEADER, false, false, {0}};
    uint32_t magic = ledge__get_u32(&r), version = ledge__get_u32(&r);
    uint64_t total = ledge__get_u64(&r), sum = ledge__get_u64(&r);
    if (magic != MAGIC) {
        LEDGE_ERROR("%s: the buffer is not a ledge snapshot (no \"LDGS\" at its start)", fn);
        return false;
    }
    if (version != LEDGE_SNAPSHOT_VERSION) {
        LEDGE_ERROR("%s: the snapshot is of format version %u; this library reads version %d", fn,
                    version, LEDGE_SNAPSHOT_VERSION);
        return false;
    }
    if (total != (uint64_t)size) {
        LEDGE_ERROR("%s: size is %zu bytes, the snapshot holds %llu (%s)", fn, size,
                    (unsigned long long)total, total > size ? "truncated" : "bytes after it");
        return false;
    }
    uint64_t actual =
        ledge__snapshot_checksum(b + LEDGE__SNAP_SUM_FROM, size - LEDGE__SNAP_SUM_FROM);
    if (actual != sum) {
        LEDGE_ERROR("%s: the snapshot is corrupted (checksum %016llx, its header says %016llx)", fn,
                    (unsigned long long)actual, (unsigned long long)sum);
        return false;
    }
    fingerprint s = get_fingerprint(&r), mine = fingerprint_of(w);
    return fingerprint_matches(&s, &mine);
}

// The first reading: every section checked, the plan filled (the room the
// second needs, where the columns lie). Nothing of the world is written
// but the step's scratch and the store's capacity.
static bool check_sections(ledge_world *w, const uint8_t *b, size_t size, ledge__snap_plan *plan,
                           char *why, size_t why_size, bool *no_room) {
    ledge__reader r = {b, LEDGE__SNAP_HEADER, size, false, false, {0}};
    bool ok = snap_world_get(&r, w, plan);
    plan->tiles_at = r.at;
    ok = ok && ledge__snap_tiles_get(&r, w, false, &plan->cell_materials) &&
         ledge__snap_bodies_check(&r, w, plan) && ledge__snap_chains_check(&r, plan) &&
         ledge__snap_contacts_check(&r, w, plan->slots, plan->chains, &plan->live) &&
         ledge__snap_contacts_check(&r, w, plan->slots, plan->chains, &plan->held);
    plan->events_at = r.at;
    ok = ok && ledge__snap_events_get(&r, w, plan, false) &&
         ledge__snap_characters_get(&r, w, plan, false) &&
         ledge__snap_joints_get(&r, w, plan, false);
    if (ok && r.at != r.end)
        ok = ledge__read_fail(&r, "%zu bytes follow the last section", r.end - r.at);
    if (!ok) snprintf(why, why_size, "%s", r.message);
    *no_room = r.no_room;
    return ok;
}

// The second reading, which cannot fail: the world put back.
static void apply_sections(ledge_world *w, const uint8_t *b, size_t size, ledge__snap_plan *plan) {
    ledge__snap_plan again = *plan; // (the small sections count into it again)
    ledge__reader r = {b, plan->tiles_at, size, false, false, {0}};
    int cell_materials = 0;
    bool ok = ledge__snap_tiles_get(&r, w, true, &cell_materials);
    ledge__snap_bodies_apply(w, plan, b, size);
    ledge__snap_chains_apply(w, plan);
    ledge__snap_contacts_apply(&plan->live, w->contacts);
    w->contact_count = plan->live.count;
    ledge__snap_contacts_apply(&plan->held, w->held);
    w->held_count = plan->held.count;
    r.at = plan->events_at;
    ok = ok && ledge__snap_events_get(&r, w, &again, true) &&
         ledge__snap_characters_get(&r, w, &again, true) &&
         ledge__snap_joints_get(&r, w, &again, true);
    LEDGE_ASSERT(ok); // the first reading checked everything the second reads
    (void)ok;
}

// Room for everything the second reading writes, kept contents and all:
// a failure leaves the world as it was (logged).
static bool make_room(ledge_world *w, const ledge__snap_plan *p) {
    const char *fn = "ledge_world_restore";
    int scratch_cap = w->contact_cap;
    ledge__events *ev = w->events;
    bool ok =
        LEDGE__RESERVE(w->contacts_scratch, scratch_cap, p->live.count, 0, 256) &&
        LEDGE__RESERVE(w->contacts, w->contact_cap, scratch_cap, w->contact_count, 256) &&
        LEDGE__RESERVE(w->held, w->held_cap, p->held.count, w->held_count, 256) &&
        LEDGE__RESERVE(ev->touch_now.keys, ev->touch_now.cap, p->touch_keys, ev->touch_now.count,
                       64) &&
        LEDGE__RESERVE(ev->sensor_now.keys, ev->sensor_now.cap, p->sensor_keys,
                       ev->sensor_now.count, 64) &&
        LEDGE__RESERVE(ev->touch_begin, ev->touch_begin_cap, p->touch_begin, ev->touch_begin_count,
                       64) &&
        LEDGE__RESERVE(ev->touch_end, ev->touch_end_cap, p->touch_end, ev->touch_end_count, 64) &&
        LEDGE__RESERVE(ev->sensor_begin, ev->sensor_begin_cap, p->sensor_begin,
                       ev->sensor_begin_count, 64) &&
        LEDGE__RESERVE(ev->sensor_end, ev->sensor_end_cap, p->sensor_end, ev->sensor_end_count,
                       64) &&
        LEDGE__RESERVE(ev->crush, ev->crush_cap, p->crush, ev->crush_count, 64) &&
        ledge__characters_reserve(w, p->character_room, fn) && ledge__snap_joints_reserve(w, p) &&
        ledge__tilemap_reserve_cell_materials(w->map, p->cell_materials);
    if (!ok) LEDGE_ERROR("%s: allocation failed (the world is unchanged)", fn);
    return ok;
}

// After the second reading: the scalars, the tilemap's bookkeeping, and
// everything the step derives again, forgotten (rebuilt when next needed:
// the same bits, as the tests compare).
static void finish(ledge_world *w, const ledge__snap_plan *p) {
    ledge_tilemap *map = w->map;
    ledge__tilemap_refresh_blocked(map); // its edit ring is rewritten below
    uint32_t v = map->version;
    ledge__world_set_up(w);
    w->max_extent = p->max_extent;
    w->order->clock = p->order_clock;
    w->any_moved = p->any_moved;
    w->sleep->woke = p->sleep_woke;
    w->sleep->stepped = p->sleep_stepped;
    w->contact_map_version = p->contacts_edited ? v - 1u : v;
    w->sleep->map_version = v - p->pending;
    for (uint32_t k = 1; p->pending <= LEDGE__EDITS_KEPT && k <= p->pending; ++k)
        map->edited[(w->sleep->map_version + k) % LEDGE__EDITS_KEPT] = p->pending_cell[k - 1];
    ledge__world_forget(w, LEDGE__STALE_ALL); // found again by the next step and query
}

bool ledge_world_restore(ledge_world *world, const void *buffer, size_t size) {
    const char *fn = "ledge_world_restore";
    if (!world_ok(world, fn)) return false;
    if (buffer == NULL || size == 0) {
        LEDGE_ERROR("%s: buffer is %s and size %zu (a snapshot from ledge_world_save is needed)",
                    fn, buffer ? "set" : "NULL", size);
        return false;
    }
    const uint8_t *b = buffer;
    if (!header_ok(world, b, size)) return false;
    ledge__snap_plan plan;
    memset(&plan, 0, sizeof plan);
    char why[200];
    bool no_room = false;
    if (!check_sections(world, b, size, &plan, why, sizeof why, &no_room)) {
        ledge__chains_release(plan.chains);
        LEDGE_ERROR(no_room ? "%s: %s (the world is unchanged)"
                            : "%s: the snapshot is corrupted: %s (the world is unchanged)",
                    fn, why);
        return false;
    }
    if (!make_room(world, &plan)) {
        ledge__chains_release(plan.chains);
        return false;
    }
    apply_sections(world, b, size, &plan);
    finish(world, &plan);
    return true;
}
