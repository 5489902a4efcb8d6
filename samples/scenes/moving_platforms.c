// Platformer / Moving platforms: kinematic bodies driven by position
// (ledge_body_set_target) up and down, sideways and in a circle. Crates
// ride them by friction; the player (a character) is carried by the step
// in every direction, exactly, whatever it stands on.
#include "scene.h"

#include <math.h>

typedef struct state {
    ledge_body_id platform[3], player;
} state;

// Where platform k is at frame f: an elevator, a shuttle, a wheel.
static vec2s target(int k, int f) {
    float t = (float)f * SCENE_DT;
    if (k == 0) return scene_v2(5.0f, 5.0f - 3.0f * scene_cos_turns(t / 4.0f));
    if (k == 1) return scene_v2(14.0f - 4.0f * scene_cos_turns(t / 5.0f), 5.0f);
    return scene_v2(25.0f + 2.5f * scene_cos_turns(t / 5.0f),
                    7.0f + 2.5f * scene_sin_turns(t / 5.0f));
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(32, 15, -SCENE_GRAVITY);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 31, 0, LEDGE_TILE_FULL);
    for (int k = 0; k < 3; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_KINEMATIC;
        bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(1.5f, 0.25f));
        bd.position = target(k, 0);
        st->platform[k] = ledge_body_create(s->world, &bd);
    }
    vec2s e = target(0, 0), h = target(1, 0), w = target(2, 0);
    scene_box(s->world, e.x - 0.6f, e.y + 0.66f, 0.4f, 0.4f, 0.8f);
    scene_box(s->world, h.x + 0.6f, h.y + 0.66f, 0.4f, 0.4f, 0.8f);
    scene_box(s->world, w.x + 0.9f, w.y + 0.56f, 0.3f, 0.3f, 0.8f);
    st->player = scene_player(s->world, w.x - 0.5f, w.y + 0.25f + SCENE_PLAYER_HY + 0.01f);
    scene_frame_map(s);
    return ledge_body_is_valid(s->world, st->player);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    for (int k = 0; k < 3; ++k) // where each will be after this step
        ledge_body_set_target(s->world, st->platform[k], target(k, s->frame + 1), SCENE_DT);
    scene_player_move(s->world, st->player, in->autopilot ? 0.0f : scene_input_run(in),
                      !in->autopilot && scene_input_jump(in), false);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    static const char *const names[] = {"up and down", "sideways", "in a circle"};
    for (int k = 0; k < 3; ++k) {
        vec2s p = ledge_body_position(s->world, st->platform[k]);
        scene_draw_text(d, scene_v2(p.x - 1.4f, p.y - 0.8f), 0.4f, SCENE_COLOR_DIM, names[k]);
    }
    scene_draw_player(s, d, st->player);
    ledge_character_state cs;
    ledge_character_get_state(s->world, st->player, &cs);
    scene_text(s, "platform velocity under the player (%.2f, %.2f)", (double)cs.platform_velocity.x,
               (double)cs.platform_velocity.y);
}

const scene_def moving_platforms_scene = {
    .name = "moving_platforms",
    .category = "Platformer",
    .title = "Moving platforms",
    .caption = "platforms up and down, sideways and in a circle, carrying crates and the player",
    .keys = "Left/Right run, Space jump",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
