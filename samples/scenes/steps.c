// Platformer / Steps and steep slopes: the same course twice, half steps,
// a 45 degree slope (a floor) and a 63.4 degree one (a wall: the mover's
// max_floor_slope is 50 degrees). The lower player's mover has
// step_height 0.55 and walks up the half steps; the upper one's has none
// and must jump them. Both are stopped by the steep slope until they jump.
#include "scene.h"

static const char *const level =
    "##############################\n"
    "#............................#\n" // the upper course: no step_height
    "#............................#\n"
    "#................j############\n"
    "#................D############\n"
    "#........../##################\n"
    "#....._#######################\n"
    "##############################\n"
    "#............................#\n" // the lower course: step_height 0.55
    "#............................#\n"
    "#................j############\n"
    "#................D############\n"
    "#........../##################\n"
    "#....._#######################\n"
    "##############################\n";

typedef struct state {
    ledge_body_id player[2];
    float dir[2];
    int blocked[2]; // frames pushed against a wall going this way
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world_ascii(level, -SCENE_GRAVITY);
    if (!s->world) return false;
    for (int k = 0; k < 2; ++k) {
        st->player[k] =
            scene_player(s->world, 2.5f, 1.0f + 7.0f * (float)k + SCENE_PLAYER_HY + 0.01f);
        st->dir[k] = 1.0f;
    }
    ledge_character_def cd = ledge_default_character_def();
    cd.move.step_height = 0.55f; // a HALF tile's 0.5, and a little
    if (!ledge_character_set_def(s->world, st->player[0], &cd)) return false;
    scene_frame_map(s);
    return true;
}

// The autopilot runs on; pushed against a wall for a third of a second it
// jumps, and if that does not get it past, it turns round.
static void autopilot(scene *s, int k, float *run, bool *jump) {
    state *st = s->state;
    ledge_character_state cs;
    ledge_character_get_state(s->world, st->player[k], &cs);
    bool against = cs.on_wall && (float)cs.wall_side == st->dir[k];
    st->blocked[k] = against ? st->blocked[k] + 1 : 0;
    if (st->blocked[k] == 20) *jump = true;
    if (st->blocked[k] == 60) {
        st->dir[k] = -st->dir[k];
        st->blocked[k] = 0;
    }
    if (cs.position.x < 2.0f) st->dir[k] = 1.0f;
    *run = st->dir[k];
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    for (int k = 0; k < 2; ++k) {
        float run = scene_input_run(in);
        bool jump = scene_input_jump(in);
        if (in->autopilot) {
            jump = false;
            autopilot(s, k, &run, &jump);
        }
        scene_player_move(s->world, st->player[k], run, jump, false);
    }
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_text(d, scene_v2(1.5f, 12.4f), 0.45f, SCENE_COLOR_DIM,
                    "step_height 0 (the default)");
    scene_draw_text(d, scene_v2(1.5f, 5.4f), 0.45f, SCENE_COLOR_DIM, "step_height 0.55");
    scene_draw_player(s, d, st->player[0]);
    scene_draw_player(s, d, st->player[1]);
}

const scene_def steps_scene = {
    .name = "steps",
    .category = "Platformer",
    .title = "Steps and steep slopes",
    .caption =
        "half steps climbed with step_height (below) or jumped (above); 63 degrees is a wall",
    .keys = "Left/Right run both, Space jump",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
