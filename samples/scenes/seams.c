// Tiles / Seams: crates and balls without friction sliding along rows of
// FULL tiles, of HALF tiles, and down a 45 degree slope and on down a 26.6
// degree one, both of many tiles. The tilemap's edge states (tilemap.h) make the seams
// between tiles no surface: nothing catches on them. At a row's end each
// body goes back to its start; the panel shows the lowest speed each one
// had on its flat row (a snag would show as a drop).
#include "scene.h"

#include <math.h>

static const char *const level =
    "##########################################\n"
    "#........................................#\n"
    "#........................................#\n"
    "#........................................#\n"
    "#........................................#\n"
    "##########################################\n" // y = 18: FULL tiles
    "#........................................#\n"
    "#........................................#\n"
    "#........................................#\n"
    "#________________________________________#\n" // y = 14: HALF tiles
    "#........................................#\n"
    "#\\.......................................#\n"
    "##\\......................................#\n"
    "###\\.....................................#\n"
    "####\\....................................#\n"
    "#####\\...................................#\n"
    "######\\..................................#\n"
    "#######\\.................................#\n"
    "########\\................................#\n" // 45 degrees, 8 tiles
    "#########b>..............................#\n"
    "###########b>............................#\n"
    "#############b>..........................#\n"
    "###############b>........................#\n" // 26.6 degrees, 4 pairs
    "##########################################\n";

#define BODIES 6

typedef struct state {
    ledge_body_id body[BODIES];
    vec2s start[BODIES], velocity[BODIES];
    float lowest[BODIES]; // the lowest speed on the flat rows since the last lap
    int laps[BODIES];
} state;

static void add(scene *s, int k, vec2s at, vec2s v, bool ball) {
    state *st = s->state;
    st->body[k] = ball ? scene_ball(s->world, at.x, at.y, 0.3f, 0.0f)
                       : scene_box(s->world, at.x, at.y, 0.3f, 0.3f, 0.0f);
    ledge_body_set_velocity(s->world, st->body[k], v);
    st->start[k] = at;
    st->velocity[k] = v;
    st->lowest[k] = INFINITY;
}

static bool create(scene *s) {
    s->world = scene_world_ascii(level, 10.0f);
    if (!s->world) return false;
    vec2s fast = scene_v2(6.0f, 0.0f), still = scene_v2(0.0f, 0.0f);
    add(s, 0, scene_v2(2.0f, 19.31f), fast, false); // on the FULL row (its top: y = 19)
    add(s, 1, scene_v2(5.0f, 19.31f), fast, true);
    add(s, 2, scene_v2(2.0f, 14.81f), fast, false); // on the HALF row (its top: y = 14.5)
    add(s, 3, scene_v2(5.0f, 14.81f), fast, true);
    add(s, 4, scene_v2(2.0f, 12.7f), still, false); // down the 45 degree slope, on down
    add(s, 5, scene_v2(4.0f, 10.5f), still, true);  // the 26.6 degree one, along the floor
    scene_frame_map(s);
    return true;
}

static void step(scene *s, const scene_input *in) {
    (void)in;
    state *st = s->state;
    for (int k = 0; k < BODIES; ++k) {
        vec2s p = ledge_body_position(s->world, st->body[k]);
        vec2s v = ledge_body_velocity(s->world, st->body[k]);
        if (k < 4 && s->frame > 2) st->lowest[k] = fminf(st->lowest[k], fabsf(v.x));
        if (p.x > 38.0f) { // the end of the row: back to the start
            ledge_body_set_position(s->world, st->body[k], st->start[k]);
            ledge_body_set_velocity(s->world, st->body[k], st->velocity[k]);
            ++st->laps[k];
        }
    }
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)d, (void)view;
    state *st = s->state;
    static const char *const rows[] = {"FULL row, crate", "FULL row, ball", "HALF row, crate",
                                       "HALF row, ball"};
    for (int k = 0; k < 4; ++k)
        scene_text(s, "%-16s  started at 6.00 m/s, lowest since %.2f m/s, %d laps", rows[k],
                   (double)(isinf(st->lowest[k]) ? 6.0f : st->lowest[k]), st->laps[k]);
    for (int k = 4; k < BODIES; ++k) {
        vec2s v = ledge_body_velocity(s->world, st->body[k]);
        scene_text(s, "slopes, %s: %.2f m/s, %d laps", k % 2 ? "ball " : "crate",
                   (double)sqrtf(v.x * v.x + v.y * v.y), st->laps[k]);
    }
}

const scene_def seams_scene = {
    .name = "seams",
    .category = "Tiles",
    .title = "Seams",
    .caption =
        "frictionless crates and balls slide over rows and slopes of many tiles without a snag",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
