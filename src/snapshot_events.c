// Snapshots: what the last step reported (events.c): this step's touch and
// sensor keys, which the next step compares its own with, and the event
// arrays the game reads. Ids are kept as handle and generation; a restore
// gives them its own world's serial number.
#include "snapshot_events.h"

#include "events.h"

static void put_id(ledge__writer *o, ledge_body_id id) {
    ledge__put_var(o, id.index1);
    if (id.index1 != 0) ledge__put_var(o, id.generation);
}

static ledge_body_id get_id(ledge__reader *r, const ledge_world *w, int slots) {
    ledge_body_id id = LEDGE_NULL_BODY_ID;
    id.index1 = (uint32_t)ledge__get_count(r, (uint64_t)slots, "an event's body");
    if (id.index1 == 0) return id;
    id.generation = (uint32_t)ledge__get_count(r, UINT32_MAX, "an event's generation");
    id.world = w->serial;
    return id;
}

static void put_chain(ledge__writer *o, ledge_chain_id id) {
    ledge__put_var(o, id.index1);
    if (id.index1 != 0) ledge__put_var(o, id.generation);
}

static ledge_chain_id get_chain(ledge__reader *r, const ledge_world *w) {
    ledge_chain_id id = LEDGE_NULL_CHAIN_ID;
    id.index1 = (uint32_t)ledge__get_count(r, UINT32_MAX, "an event's chain");
    if (id.index1 == 0) return id;
    id.generation = (uint32_t)ledge__get_count(r, UINT32_MAX, "an event's generation");
    id.world = w->serial;
    return id;
}

// A key's b is kept as b + 2: a chain's (-2), a tile's (-1) or a body's.
static void put_keys(ledge__writer *o, const ledge__key_list *l) {
    ledge__put_var(o, (uint64_t)l->count);
    for (int k = 0; k < l->count; ++k) {
        const ledge__key *key = &l->keys[k];
        ledge__put_var(o, (uint64_t)key->a);
        ledge__put_var(o, (uint32_t)key->ga);
        ledge__put_var(o, (uint64_t)((int64_t)key->b + 2));
        ledge__put_var(o, (uint32_t)key->gb);
        ledge__put_svar(o, key->cx);
        ledge__put_svar(o, key->cy);
    }
}

static int get_cell(ledge__reader *r) {
    int64_t v = ledge__get_svar(r);
    if (v < INT32_MIN || v > INT32_MAX) ledge__read_fail(r, "a cell is %lld", (long long)v);
    return (int)v;
}

// A list of keys, strictly ascending (the next step's comparison merges).
static bool get_keys(ledge__reader *r, ledge__key_list *l, int slots, int *count, bool apply) {
    int n = (int)ledge__get_count(r, (uint64_t)(r->end - r->at) / 6u, "the touch keys");
    ledge__key last = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < n && !r->failed; ++k) {
        ledge__key key;
        key.a = (int32_t)ledge__get_count(r, (uint64_t)slots - 1u, "a touch key's body");
        key.ga = (int32_t)(uint32_t)ledge__get_count(r, UINT32_MAX, "a generation");
        key.b = (int32_t)ledge__get_count(r, (uint64_t)slots + 1u, "a touch key's other") - 2;
        key.gb = (int32_t)(uint32_t)ledge__get_count(r, UINT32_MAX, "a generation");
        key.cx = get_cell(r);
        key.cy = get_cell(r);
        if (r->failed) break;
        if (k > 0 && ledge__key_compare(&last, &key) >= 0)
            return ledge__read_fail(r, "the touch keys are out of order");
        last = key;
        if (apply) l->keys[k] = key;
    }
    if (apply) l->count = n;
    *count = n;
    return !r->failed;
}

void ledge__snap_events_put(const ledge_world *w, ledge__writer *o) {
    const ledge__events *ev = w->events;
    put_keys(o, &ev->touch_now);
    put_keys(o, &ev->sensor_now);
    const ledge_touch_event *touch[2] = {ev->touch_begin, ev->touch_end};
    int touch_count[2] = {ev->touch_begin_count, ev->touch_end_count};
    for (int s = 0; s < 2; ++s) {
        ledge__put_var(o, (uint64_t)touch_count[s]);
        for (int k = 0; k < touch_count[s]; ++k) {
            put_id(o, touch[s][k].a);
            put_id(o, touch[s][k].b);
            ledge__put_svar(o, touch[s][k].cell_x);
            ledge__put_svar(o, touch[s][k].cell_y);
            put_chain(o, touch[s][k].chain);
        }
    }
    const ledge_sensor_event *sensor[2] = {ev->sensor_begin, ev->sensor_end};
    int sensor_count[2] = {ev->sensor_begin_count, ev->sensor_end_count};
    for (int s = 0; s < 2; ++s) {
        ledge__put_var(o, (uint64_t)sensor_count[s]);
        for (int k = 0; k < sensor_count[s]; ++k) {
            put_id(o, sensor[s][k].sensor);
            put_id(o, sensor[s][k].visitor);
        }
    }
    ledge__put_var(o, (uint64_t)ev->crush_count);
    for (int k = 0; k < ev->crush_count; ++k) {
        put_id(o, ev->crush[k].body);
        put_id(o, ev->crush[k].crusher);
        ledge__put_f32(o, ev->crush[k].depth);
    }
}

bool ledge__snap_events_get(ledge__reader *r, ledge_world *w, ledge__snap_plan *plan, bool apply) {
    ledge__events *ev = w->events;
    int n = plan->slots;
    if (!get_keys(r, &ev->touch_now, n, &plan->touch_keys, apply) ||
        !get_keys(r, &ev->sensor_now, n, &plan->sensor_keys, apply))
        return false;
    uint64_t most = (uint64_t)(r->end - r->at) / 2u;
    ledge_touch_event *touch[2] = {ev->touch_begin, ev->touch_end};
    int *touch_count[2] = {&plan->touch_begin, &plan->touch_end};
    for (int s = 0; s < 2 && !r->failed; ++s) {
        int count = (int)ledge__get_count(r, most, "the touch events");
        for (int k = 0; k < count && !r->failed; ++k) {
            ledge_touch_event e;
            e.a = get_id(r, w, n);
            e.b = get_id(r, w, n);
            e.cell_x = get_cell(r);
            e.cell_y = get_cell(r);
            e.chain = get_chain(r, w);
            if (apply) touch[s][k] = e;
        }
        *touch_count[s] = count;
    }
    ledge_sensor_event *sensor[2] = {ev->sensor_begin, ev->sensor_end};
    int *sensor_count[2] = {&plan->sensor_begin, &plan->sensor_end};
    for (int s = 0; s < 2 && !r->failed; ++s) {
        int count = (int)ledge__get_count(r, most, "the sensor events");
        for (int k = 0; k < count && !r->failed; ++k) {
            ledge_sensor_event e;
            e.sensor = get_id(r, w, n);
            e.visitor = get_id(r, w, n);
            if (apply) sensor[s][k] = e;
        }
        *sensor_count[s] = count;
    }
    plan->crush = (int)ledge__get_count(r, most, "the crush events");
    for (int k = 0; k < plan->crush && !r->failed; ++k) {
        ledge_crush_event e;
        e.body = get_id(r, w, n);
        e.crusher = get_id(r, w, n);
        e.depth = ledge__get_within(r, 4.0f * LEDGE_MAX_COORDINATE, "a crush depth");
        if (apply) ev->crush[k] = e;
    }
    if (r->failed) return false;
    if (apply) {
        ev->touch_begin_count = plan->touch_begin;
        ev->touch_end_count = plan->touch_end;
        ev->sensor_begin_count = plan->sensor_begin;
        ev->sensor_end_count = plan->sensor_end;
        ev->crush_count = plan->crush;
    }
    return true;
}
