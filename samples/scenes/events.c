// Queries / Sensors and events: balls with enable_events drop one by one
// through a sensor (a static body that reports overlaps and never
// collides) onto the floor and a seesaw of crates; a kinematic shuttle
// passes through a second sensor. The panel lists the touch and sensor
// events of each step as they fire (ledge_world_touch_events,
// ledge_world_sensor_events).
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BALLS 10
#define LOG   8

typedef struct state {
    ledge_body_id sensor[2], shuttle, ball[BALLS];
    int dropped, touches, visits;
    char log[LOG][SCENE_LINE];
} state;

static ledge_body_id sensor(ledge_world *w, vec2s at, vec2s half) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_STATIC;
    bd.sensor = true;
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), half);
    bd.position = at;
    return ledge_body_create(w, &bd);
}

static vec2s shuttle_at(int f) {
    return scene_v2(19.0f + 4.0f * scene_sin_turns((float)f * SCENE_DT / 5.0f), 6.0f);
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(26, 12, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 25, 0, LEDGE_TILE_FULL);
    scene_fill(s->world, 12, 1, 12, 2, LEDGE_TILE_FULL); // a low wall the balls bounce off
    st->sensor[0] = sensor(s->world, scene_v2(7.0f, 5.0f), scene_v2(2.0f, 1.0f));
    st->sensor[1] = sensor(s->world, scene_v2(19.0f, 6.0f), scene_v2(1.0f, 2.0f));
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(0.75f, 0.25f));
    bd.position = shuttle_at(0);
    bd.enable_events = true;
    st->shuttle = ledge_body_create(s->world, &bd);
    scene_frame_map(s);
    return true;
}

static void note(state *st, int frame, const char *what) {
    memmove(st->log[1], st->log[0], sizeof st->log[0] * (LOG - 1));
    snprintf(st->log[0], sizeof st->log[0], "frame %4d  %s", frame, what);
}

static const char *name(const state *st, ledge_body_id id, char *buf, size_t n) {
    if (LEDGE_ID_EQUALS(id, st->sensor[0])) return "sensor A";
    if (LEDGE_ID_EQUALS(id, st->sensor[1])) return "sensor B";
    if (LEDGE_ID_EQUALS(id, st->shuttle)) return "the shuttle";
    snprintf(buf, n, "body %u", id.index1);
    return buf;
}

// The events of the step just taken.
static void read_events(scene *s) {
    state *st = s->state;
    char line[80], a[32], b[32];
    ledge_touch_events t = ledge_world_touch_events(s->world);
    for (int k = 0; k < t.begin_count; ++k, ++st->touches) {
        const ledge_touch_event *e = &t.begin[k];
        if (LEDGE_ID_EQUALS(e->b, LEDGE_NULL_BODY_ID))
            snprintf(line, sizeof line, "touch begins: %s - tile (%d, %d)", name(st, e->a, a, 32),
                     e->cell_x, e->cell_y);
        else
            snprintf(line, sizeof line, "touch begins: %s - %s", name(st, e->a, a, 32),
                     name(st, e->b, b, 32));
        note(st, s->frame, line);
    }
    ledge_sensor_events se = ledge_world_sensor_events(s->world);
    for (int k = 0; k < se.begin_count; ++k, ++st->visits) {
        snprintf(line, sizeof line, "%s: %s enters", name(st, se.begin[k].sensor, a, 32),
                 name(st, se.begin[k].visitor, b, 32));
        note(st, s->frame, line);
    }
    for (int k = 0; k < se.end_count; ++k) {
        snprintf(line, sizeof line, "%s: %s leaves", name(st, se.end[k].sensor, a, 32),
                 name(st, se.end[k].visitor, b, 32));
        note(st, s->frame, line);
    }
}

static void step(scene *s, const scene_input *in) {
    (void)in;
    state *st = s->state;
    if (s->frame > 0) read_events(s);
    ledge_body_set_target(s->world, st->shuttle, shuttle_at(s->frame + 1), SCENE_DT);
    if (s->frame % 50 == 0) { // a ball a little under a second, the oldest taken away
        int slot = st->dropped++ % BALLS;
        if (ledge_body_is_valid(s->world, st->ball[slot]))
            ledge_body_destroy(s->world, st->ball[slot]);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle(scene_v2(0.0f, 0.0f), 0.3f);
        bd.position = scene_v2(5.5f + 0.7f * (float)(slot % 5), 10.5f);
        bd.velocity = scene_v2(2.0f, 0.0f);
        bd.bounce = 0.6f;
        bd.enable_events = true;
        st->ball[slot] = ledge_body_create(s->world, &bd);
    }
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_text(d, scene_v2(5.4f, 6.3f), 0.45f, SCENE_COLOR_TEXT, "sensor A");
    scene_draw_text(d, scene_v2(18.0f, 8.3f), 0.45f, SCENE_COLOR_TEXT, "sensor B");
    scene_text(s, "%d touches and %d sensor visits so far; the latest first:", st->touches,
               st->visits);
    for (int k = 0; k < LOG && st->log[k][0]; ++k) scene_text(s, "  %s", st->log[k]);
}

const scene_def events_scene = {
    .name = "events",
    .category = "Queries",
    .title = "Sensors and events",
    .caption = "touch and sensor events listed as they fire: balls, two sensors, a shuttle",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
