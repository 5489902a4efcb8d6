// Joints / Chain bridge: planks on ropes across a pit (ropes 1.5 times the
// gaps they span; the planks' drag lets the bridge settle), crates dropped
// on it every two seconds. The bridge sags under them and holds them at
// rest; the panel shows the ropes' force at its ends against the weight it
// carries, and the worst stretch of a rope.
#include "scene.h"

#include <math.h>

#define PLANKS 12
#define CRATES 6

typedef struct state {
    ledge_body_id planks[PLANKS], crates[CRATES];
    ledge_joint_id ropes[PLANKS + 1];
    int dropped;
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(32, 16, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 9, 9, LEDGE_TILE_FULL); // the cliffs
    scene_fill(s->world, 22, 0, 31, 9, LEDGE_TILE_FULL);
    float pw = 0.45f, gap = 0.1f, x0 = 10.0f, y = 10.0f;
    for (int i = 0; i < PLANKS; ++i) {
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(pw, 0.06f));
        bd.position = scene_v2(x0 + gap + pw + (float)i * (2.0f * pw + gap), y - 0.06f);
        bd.drag = 2.0f;
        bd.friction = 0.6f;
        st->planks[i] = ledge_body_create(s->world, &bd);
    }
    float span = (float)PLANKS * (2.0f * pw + gap) + gap; // 12 m: cliff to cliff
    for (int i = 0; i <= PLANKS; ++i) {
        ledge_joint_def jd = ledge_default_rope_def();
        jd.body_a = i == 0 ? LEDGE_NULL_BODY_ID : st->planks[i - 1];
        jd.anchor_a = i == 0 ? scene_v2(x0, y) : scene_v2(pw, 0.0f);
        jd.body_b = i == PLANKS ? LEDGE_NULL_BODY_ID : st->planks[i];
        jd.anchor_b = i == PLANKS ? scene_v2(x0 + span, y) : scene_v2(-pw, 0.0f);
        jd.length = 1.5f * gap;
        st->ropes[i] = ledge_joint_create(s->world, &jd);
    }
    scene_frame_map(s);
    return true;
}

static void step(scene *s, const scene_input *in) {
    (void)in;
    state *st = s->state;
    if (st->dropped < CRATES && s->frame % 120 == 60) {
        float x = 12.0f + 1.6f * (float)st->dropped;
        st->crates[st->dropped++] = scene_box(s->world, x, 13.0f, 0.35f, 0.35f, 0.6f);
    }
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)d, (void)view;
    state *st = s->state;
    ledge_world *w = s->world;
    double weight = 0.0, stretch = 0.0;
    for (int i = 0; i < PLANKS; ++i) weight += ledge_body_mass(w, st->planks[i]);
    for (int c = 0; c < st->dropped; ++c) weight += ledge_body_mass(w, st->crates[c]);
    for (int i = 0; i <= PLANKS; ++i) {
        ledge_joint_def jd;
        ledge_joint_get_def(w, st->ropes[i], &jd);
        double over = (double)ledge_joint_current_length(w, st->ropes[i]) - (double)jd.length;
        if (over > stretch) stretch = over;
    }
    double held = (double)ledge_joint_force(w, st->ropes[0]).y -
                  (double)ledge_joint_force(w, st->ropes[PLANKS]).y;
    scene_text(s, "the end ropes hold %.1f N of %.1f N (%d crates); worst stretch %.1e m", held,
               10.0 * weight, st->dropped, stretch);
}

const scene_def chain_bridge_scene = {
    .name = "chain_bridge",
    .category = "Joints",
    .title = "Chain bridge",
    .caption =
        "twelve planks on ropes across a pit, crates dropped on them: it sags and holds them",
    .picture_frame = 900,
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
