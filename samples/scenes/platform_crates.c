// Stacking / Crates on a moving platform: a kinematic platform driven by
// ledge_body_set_target swings 6 m left and right under a stack of crates
// and a pyramid of three; friction carries them along.
#include "scene.h"

#include <math.h>

typedef struct state {
    ledge_body_id platform;
} state;

static vec2s target(int frame) {
    float t = (float)frame * SCENE_DT;
    return scene_v2(16.0f + 6.0f * scene_sin_turns(t / 6.0f), 3.0f); // 6 s a swing
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(32, 16, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 31, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(4.0f, 0.25f));
    bd.position = target(0);
    st->platform = ledge_body_create(s->world, &bd);
    for (int k = 0; k < 4; ++k)
        scene_box(s->world, 14.0f, 3.75f + 1.0f * (float)k, 0.5f, 0.5f, 0.8f);
    scene_box(s->world, 17.0f, 3.75f, 0.5f, 0.5f, 0.8f);
    scene_box(s->world, 18.1f, 3.75f, 0.5f, 0.5f, 0.8f);
    scene_box(s->world, 17.55f, 4.75f, 0.5f, 0.5f, 0.8f);
    scene_frame_map(s);
    return true;
}

static void step(scene *s, const scene_input *in) {
    (void)in;
    state *st = s->state;
    ledge_body_set_target(s->world, st->platform, target(s->frame + 1), SCENE_DT);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)d, (void)view;
    state *st = s->state;
    vec2s v = ledge_body_velocity(s->world, st->platform);
    scene_text(s, "platform at x %.2f, %.2f m/s",
               (double)ledge_body_position(s->world, st->platform).x, (double)v.x);
}

const scene_def platform_crates_scene = {
    .name = "platform_crates",
    .category = "Stacking",
    .title = "Crates on a moving platform",
    .caption = "a kinematic platform swings 6 m each way under a stack and a pyramid of crates",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
