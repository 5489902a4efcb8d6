// Platformer / Crush: on the left a lift carries the player into a low
// ceiling; the platform is never stopped by what it carries, so the
// character's state says crushed (ledge_character_state.crushed), its
// moves pass through the lift until it is clear of it (it falls out
// below), and the scene puts it back on the lift when the lift is down. On the
// right a press comes down on a crate: the step reports a crush event
// (ledge_world_crush_events) while the crate is squeezed against the floor.
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct state {
    ledge_body_id lift, press, crate, player;
    bool squashed; // crushed since it was last put on the lift
    int crushes, events;
    char log[4][SCENE_LINE];
} state;

static const char *const level =
    "########################\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#..######..............#\n" // the low ceiling over the lift (y = 7)
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "########################\n";

static float wave(int frame) { // 0 .. 1 .. 0 over 4 s
    return 0.5f - 0.5f * scene_cos_turns((float)frame * SCENE_DT / 4.0f);
}

static vec2s lift_at(int f) {
    return scene_v2(5.0f, 2.0f + 4.3f * wave(f)); // its top goes up to 6.55: 0.45 under the ceiling
}

static vec2s press_at(int f) {
    return scene_v2(16.0f, 7.0f - 5.3f * wave(f)); // its bottom comes down to 1.2
}

static ledge_body_id kinematic(ledge_world *w, vec2s at, vec2s half) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), half);
    bd.position = at;
    return ledge_body_create(w, &bd);
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world_ascii(level, -SCENE_GRAVITY);
    if (!s->world) return false;
    st->lift = kinematic(s->world, lift_at(0), scene_v2(1.5f, 0.25f));
    st->press = kinematic(s->world, press_at(0), scene_v2(1.0f, 0.5f));
    st->crate = scene_box(s->world, 16.0f, 1.41f, 0.4f, 0.4f, 0.5f);
    st->player = scene_player(s->world, 5.0f, 2.25f + SCENE_PLAYER_HY + 0.01f);
    scene_frame_map(s);
    return ledge_body_is_valid(s->world, st->player);
}

static void note(state *st, const char *line) {
    memmove(st->log[1], st->log[0], sizeof st->log[0] * 3);
    snprintf(st->log[0], sizeof st->log[0], "%s", line);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    // The last step's crush events.
    ledge_crush_events ce = ledge_world_crush_events(s->world);
    for (int k = 0; k < ce.count; ++k, ++st->events) {
        char line[SCENE_LINE];
        snprintf(line, sizeof line, "frame %d: crate crushed by the press, %.3f m deep", s->frame,
                 (double)ce.events[k].depth);
        note(st, line);
    }
    ledge_character_state cs;
    ledge_character_get_state(s->world, st->player, &cs);
    if (cs.crushed && !st->squashed) {
        st->squashed = true;
        ++st->crushes;
    }
    if (st->squashed && wave(s->frame) < 0.01f) { // back on the lift, once it is down
        vec2s p = lift_at(s->frame);
        ledge_body_set_position(s->world, st->player,
                                scene_v2(p.x, p.y + 0.25f + SCENE_PLAYER_HY + 0.01f));
        ledge_character_set_velocity(s->world, st->player, scene_v2(0.0f, 0.0f));
        st->squashed = false;
    }
    ledge_body_set_target(s->world, st->lift, lift_at(s->frame + 1), SCENE_DT);
    ledge_body_set_target(s->world, st->press, press_at(s->frame + 1), SCENE_DT);
    scene_player_move(s->world, st->player, in->autopilot ? 0.0f : scene_input_run(in),
                      !in->autopilot && scene_input_jump(in), false);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_player(s, d, st->player);
    scene_text(s, "the player was crushed %d times; %d crush events of the crate:", st->crushes,
               st->events);
    for (int k = 0; k < 4 && st->log[k][0]; ++k) scene_text(s, "  %s", st->log[k]);
}

const scene_def crush_scene = {
    .name = "crush",
    .category = "Platformer",
    .title = "Crush",
    .caption = "a lift crushes the player into a ceiling; a press squeezes a crate: crush events",
    .keys = "Left/Right run, Space jump",
    .picture_frame = 116,
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
