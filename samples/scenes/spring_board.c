// Joints / Spring board: a board on a spring (3 Hz, damping ratio 0.05)
// and a slider that keeps it upright, pressed down and let go every three
// seconds; it throws the ball resting on it into the air. The spring is a
// soft joint, solved implicitly: its period is the closed form's at any
// stiffness the step resolves.
#include "scene.h"

typedef struct state {
    ledge_body_id board, ball;
    ledge_joint_id spring;
    float highest;
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(24, 16, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 23, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(1.5f, 0.15f));
    bd.position = scene_v2(12.0f, 3.0f);
    bd.density = 2.0f;
    st->board = ledge_body_create(s->world, &bd);
    ledge_joint_def sp = ledge_default_spring_def();
    sp.anchor_a = scene_v2(12.0f, 1.0f);
    sp.body_b = st->board;
    sp.length = 2.0f;
    sp.hertz = 3.0f;
    sp.damping_ratio = 0.05f;
    sp.min_length = 0.5f; // a stop under the board
    st->spring = ledge_joint_create(s->world, &sp);
    ledge_joint_def sl = ledge_default_slider_def(); // upright: it moves along y only
    sl.anchor_a = scene_v2(12.0f, 1.0f);
    sl.body_b = st->board;
    sl.axis = scene_v2(0.0f, 1.0f);
    ledge_joint_create(s->world, &sl);
    st->ball = scene_ball(s->world, 12.0f, 3.55f, 0.4f, 0.5f);
    scene_frame_map(s);
    return true;
}

static void step(scene *s, const scene_input *in) {
    (void)in;
    state *st = s->state;
    if (s->frame % 180 == 60) // pressed down 1.2 m
        ledge_body_set_position(s->world, st->board, scene_v2(12.0f, 1.8f));
    float y = ledge_body_position(s->world, st->ball).y;
    if (y > st->highest) st->highest = y;
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)d, (void)view;
    state *st = s->state;
    float y = ledge_body_position(s->world, st->board).y;
    scene_text(s,
               "board at %.2f m (rests near 2.9 m), spring force %.1f N; the ball reached %.2f m",
               (double)y, (double)ledge_joint_force(s->world, st->spring).y, (double)st->highest);
}

const scene_def spring_board_scene = {
    .name = "spring_board",
    .category = "Joints",
    .title = "Spring board",
    .caption = "a board on a 3 Hz spring pressed down and let go throws a ball into the air",
    .picture_frame = 72,
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
