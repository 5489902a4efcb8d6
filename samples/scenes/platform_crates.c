// Stacking / Crates on a moving platform: a kinematic platform driven by
// ledge_body_set_target swings 8 m left and right under a stack of crates
// and a pyramid of three; the step carries what stands on it.
#include "scene.h"

#include <math.h>

typedef struct state {
    ledge_body_id platform, bottom; // the platform, the stack's bottom crate
} state;

static vec2s target(int frame) {
    float t = (float)frame * SCENE_DT;
    // From rest at x = 12 (the step carries a crate by the platform's
    // changes of velocity, so they start together) to 20 and back in 8 s.
    return scene_v2(16.0f - 4.0f * scene_cos_turns(t / 8.0f), 3.0f);
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
    // The default friction (0): a contact with a kinematic body takes the
    // larger of the two frictions, so the crates hold on by their own 0.8.
    st->platform = ledge_body_create(s->world, &bd);
    for (int k = 3; k >= 0; --k) // a stack of four on the left half, the bottom one last
        st->bottom = scene_box(s->world, 10.0f, 3.75f + 1.0f * (float)k, 0.5f, 0.5f, 0.8f);
    scene_box(s->world, 13.0f, 3.75f, 0.5f, 0.5f, 0.8f); // a pyramid of three on the right
    scene_box(s->world, 14.1f, 3.75f, 0.5f, 0.5f, 0.8f);
    scene_box(s->world, 13.55f, 4.75f, 0.5f, 0.5f, 0.8f);
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
    vec2s p = ledge_body_position(s->world, st->platform);
    float slip =
        ledge_body_position(s->world, st->bottom).x - p.x + 2.0f; // it started 2 m left of centre
    scene_text(s, "platform at x %.2f, %.2f m/s; the stack has slipped %+.3f m along it",
               (double)p.x, (double)v.x, (double)slip);
}

const scene_def platform_crates_scene = {
    .name = "platform_crates",
    .category = "Stacking",
    .title = "Crates on a moving platform",
    .caption = "a kinematic platform swings 8 m to and fro under a stack and a pyramid of crates",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
