// Joints / Pulley lift: two platforms on ropes over two fixed pulleys
// (length_a + length_b at most the pulley's length); each stays on its
// rail, a slider whose lower limit is the floor. The counterweight on the
// right rests on its stop and holds the empty lift up; crates land on the
// lift one by one until it outweighs the counterweight, and it goes down
// as the counterweight rises. The panel shows the ropes' sum, which never
// exceeds the pulley's length.
#include "scene.h"

typedef struct state {
    ledge_body_id left, right;
    ledge_joint_id pulley;
    int crates;
} state;

static ledge_body_id platform(ledge_world *w, float x, float y, float density, float lowest) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(1.5f, 0.2f));
    bd.position = scene_v2(x, y);
    bd.density = density;
    bd.friction = 0.8f;
    ledge_body_id b = ledge_body_create(w, &bd);
    ledge_joint_def sl = ledge_default_slider_def();
    sl.anchor_a = scene_v2(x, lowest);
    sl.body_b = b;
    sl.axis = scene_v2(0.0f, 1.0f);
    sl.enable_limit = true;
    sl.lower = 0.0f;
    sl.upper = 12.0f;
    ledge_joint_create(w, &sl);
    return b;
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(24, 16, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 23, 0, LEDGE_TILE_FULL);
    st->left = platform(s->world, 7.0f, 8.0f, 2.0f, 1.5f);   // a lift of 2.4 kg, up
    st->right = platform(s->world, 17.0f, 1.5f, 3.0f, 1.5f); // a counterweight of 3.6 kg
    ledge_joint_def pu = ledge_default_pulley_def();
    pu.body_a = st->left;
    pu.body_b = st->right;
    pu.ground_a = scene_v2(7.0f, 14.0f);
    pu.ground_b = scene_v2(17.0f, 14.0f);
    pu.length = 6.0f + 12.5f; // both ropes taut
    st->pulley = ledge_joint_create(s->world, &pu);
    scene_frame_map(s);
    return true;
}

static void step(scene *s, const scene_input *in) {
    (void)in;
    state *st = s->state;
    if (st->crates < 4 && s->frame % 60 == 30) {
        scene_box(s->world, 6.0f + 0.7f * (float)st->crates, 10.0f, 0.3f, 0.3f, 0.8f);
        st->crates++;
    }
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)d, (void)view;
    state *st = s->state;
    ledge_world *w = s->world;
    scene_text(s, "lift at %.2f m, counterweight at %.2f m; ropes %.4f m of 18.5 (%d crates)",
               (double)ledge_body_position(w, st->left).y,
               (double)ledge_body_position(w, st->right).y,
               (double)ledge_joint_current_length(w, st->pulley), st->crates);
}

const scene_def pulley_lift_scene = {
    .name = "pulley_lift",
    .category = "Joints",
    .title = "Pulley lift",
    .caption = "two platforms on a pulley: crates on the left one lift the counterweight",
    .picture_frame = 600,
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
