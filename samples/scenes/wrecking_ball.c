// Joints / Wrecking ball: a 60 kg ball on a chain of ten 0.2 kg links (a
// 1:300 mass ratio), let go from the side, swings into a pile of crates.
// The chain never stretches by more than the slop; the panel shows the
// top link's force.
#include "scene.h"

#include <math.h>

#define LINKS 10

typedef struct state {
    ledge_body_id ball, links[LINKS];
    ledge_joint_id ropes[LINKS + 1];
    float worst; // the chain's worst stretch seen
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(32, 18, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 31, 0, LEDGE_TILE_FULL);
    vec2s top = scene_v2(14.0f, 15.0f);
    float seg = 0.5f;
    ledge_body_id prev = LEDGE_NULL_BODY_ID;
    for (int i = 0; i < LINKS; ++i) { // the chain held out to the left
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle(scene_v2(0.0f, 0.0f), 0.12f);
        bd.position = scene_v2(top.x - seg * (float)(i + 1), top.y);
        bd.density = 0.2f / (3.14159265f * 0.12f * 0.12f);
        st->links[i] = ledge_body_create(s->world, &bd);
        ledge_joint_def jd = ledge_default_rod_def();
        jd.body_a = prev;
        jd.anchor_a = i == 0 ? top : scene_v2(0.0f, 0.0f);
        jd.body_b = st->links[i];
        jd.length = seg;
        st->ropes[i] = ledge_joint_create(s->world, &jd);
        prev = st->links[i];
    }
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(scene_v2(0.0f, 0.0f), 0.8f);
    bd.position = scene_v2(top.x - seg * (float)LINKS - 0.9f, top.y);
    bd.density = 60.0f / (3.14159265f * 0.64f);
    bd.friction = 0.3f;
    st->ball = ledge_body_create(s->world, &bd);
    ledge_joint_def jd = ledge_default_rod_def();
    jd.body_a = prev;
    jd.body_b = st->ball;
    jd.length = 0.9f;
    st->ropes[LINKS] = ledge_joint_create(s->world, &jd);
    for (int row = 0; row < 6; ++row) { // the pile, right of the lowest point
        for (int col = 0; col < 6 - row; ++col)
            scene_box(s->world, 18.0f + 1.02f * (float)col + 0.51f * (float)row,
                      1.5f + 1.0f * (float)row, 0.5f, 0.5f, 0.6f);
    }
    scene_frame_map(s);
    return true;
}

static void step(scene *s, const scene_input *in) {
    (void)in;
    state *st = s->state;
    for (int i = 0; i <= LINKS; ++i) {
        ledge_joint_def jd;
        ledge_joint_get_def(s->world, st->ropes[i], &jd);
        float over = fabsf(ledge_joint_current_length(s->world, st->ropes[i]) - jd.length);
        if (over > st->worst) st->worst = over;
    }
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)d, (void)view;
    state *st = s->state;
    vec2s f = ledge_joint_force(s->world, st->ropes[0]),
          v = ledge_body_velocity(s->world, st->ball);
    scene_text(s, "ball at %.1f m/s; the top link holds %.0f N; worst stretch %.1e m",
               (double)sqrtf(v.x * v.x + v.y * v.y), (double)sqrtf(f.x * f.x + f.y * f.y),
               (double)st->worst);
}

const scene_def wrecking_ball_scene = {
    .name = "wrecking_ball",
    .category = "Joints",
    .title = "Wrecking ball",
    .caption = "a 60 kg ball on a chain of ten light links swings into a pile of crates",
    .picture_frame = 100,
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
