// Platformer / One-way platforms: two rows of one-way tiles
// (ledge_tilemap_set_one_way, LEDGE_ONE_WAY_UP) and a one-way body
// (ledge_body_def.one_way) with crates on them. The player jumps up
// through them and drops through with Down (ledge_body_drop_through); the
// autopilot goes up two floors and down again.
#include "scene.h"

static const char *const level =
    "##########################\n"
    "#........................#\n"
    "#........................#\n"
    "#........................#\n"
    "#........................#\n"
    "#........................#\n"
    "#...########.............#\n" // one-way (made so in create), y = 4
    "#........................#\n"
    "#...########.............#\n" // one-way, y = 2
    "#........................#\n"
    "##########################\n";

typedef struct state {
    ledge_body_id player;
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world_ascii(level, -SCENE_GRAVITY);
    if (!s->world) return false;
    ledge_tilemap *map = ledge_world_tilemap(s->world);
    for (int x = 4; x <= 11; ++x) {
        ledge_tilemap_set_one_way(map, x, 2, LEDGE_ONE_WAY_UP);
        ledge_tilemap_set_one_way(map, x, 4, LEDGE_ONE_WAY_UP);
    }
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_STATIC;
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(3.0f, 0.25f));
    bd.position = scene_v2(19.0f, 3.75f);
    bd.one_way = LEDGE_ONE_WAY_UP; // a one-way body: solid from above only
    ledge_body_create(s->world, &bd);
    scene_box(s->world, 10.5f, 5.6f, 0.4f, 0.4f, 0.6f); // crates on the one-way floors
    scene_box(s->world, 10.5f, 3.6f, 0.4f, 0.4f, 0.6f);
    scene_box(s->world, 18.0f, 4.6f, 0.4f, 0.4f, 0.6f);
    scene_box(s->world, 20.0f, 4.6f, 0.4f, 0.4f, 0.6f);
    scene_box(s->world, 19.0f, 5.4f, 0.4f, 0.4f, 0.6f);
    st->player = scene_player(s->world, 7.0f, 1.0f + SCENE_PLAYER_HY + 0.01f);
    scene_frame_map(s);
    return ledge_body_is_valid(s->world, st->player);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    float run = scene_input_run(in);
    bool jump = scene_input_jump(in), drop = scene_input_drop(in);
    if (in->autopilot) { // each second: up, up, down, down
        int phase = s->frame % 240;
        jump = phase == 30 || phase == 90;
        drop = phase == 150 || phase == 210;
    }
    scene_player_move(s->world, st->player, run, jump, drop);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    state *st = s->state;
    scene_mark_one_way(s->world, d, view);
    scene_draw_text(d, scene_v2(16.4f, 3.0f), 0.4f, SCENE_COLOR_ONE_WAY, "a one-way body");
    scene_draw_player(s, d, st->player);
}

const scene_def one_way_scene = {
    .name = "one_way",
    .category = "Platformer",
    .title = "One-way platforms",
    .caption = "one-way tiles and a one-way body: jump up through them, Down drops through",
    .keys = "Left/Right run, Space jump, Down drop through",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
