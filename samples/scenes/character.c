// Platformer / Character state: the player of docs/character.md (a
// kinematic box made a character, moved with ledge_character_move) and
// what ledge keeps of it (ledge_character_state): on floor, wall and
// ceiling, and the time since the last floor, coyote time, which lets a
// jump count a moment after running off a ledge. The autopilot runs back
// and forth, jumps at walls and under the low ceiling.
#include "scene.h"

static const char *const level =
    "##############################\n"
    "#............................#\n"
    "#............................#\n"
    "#............................#\n"
    "#............................#\n"
    "#............................#\n"
    "#............................#\n"
    "#...........######...........#\n" // a low ceiling: jumps bump it
    "#............................#\n"
    "#......................#######\n" // a ledge to jump onto and run off
    "#......................#######\n"
    "##############################\n";

typedef struct state {
    ledge_body_id player;
    float dir; // the autopilot's way, +1 or -1
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world_ascii(level, -SCENE_GRAVITY);
    if (!s->world) return false;
    st->player = scene_player(s->world, 3.0f, 1.0f + SCENE_PLAYER_HY + 0.01f);
    st->dir = 1.0f;
    scene_frame_map(s);
    return ledge_body_is_valid(s->world, st->player);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    float run = scene_input_run(in);
    bool jump = scene_input_jump(in);
    if (in->autopilot) {
        ledge_character_state cs;
        ledge_character_get_state(s->world, st->player, &cs);
        float x = cs.position.x;
        if (x > 28.0f) st->dir = -1.0f; // the far ends: turn
        if (x < 2.0f) st->dir = 1.0f;
        run = st->dir;
        jump = cs.on_floor && ((cs.on_wall && (float)cs.wall_side == st->dir) || // climb
                               (x > 13.0f && x < 16.0f && s->frame % 120 < 60)); // bump the ceiling
    }
    scene_player_move(s->world, st->player, run, jump, scene_input_drop(in));
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_player(s, d, st->player);
}

const scene_def character_scene = {
    .name = "character",
    .category = "Platformer",
    .title = "Character state",
    .caption = "the player's floor, wall, ceiling and coyote time, as ledge keeps them",
    .keys = "Left/Right run, Space jump",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
