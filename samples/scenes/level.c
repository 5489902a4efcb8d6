// Levels / The sample level: the game of samples/game.c (the headless
// demo's, the SDL window's and the browser's level before the testbed),
// whose player its autopilot plays until you take the arrows. The game
// moves its player and platform before each step; the testbed steps.
#include "../game.h"
#include "scene.h"

static void follow(scene *s, const game *g) {
    float x = ledge_body_position(g->world, g->player).x, half = 16.0f; // a 16:9 view's half width
    s->center = scene_v2(x < half                ? half
                         : x > GAME_WIDTH - half ? GAME_WIDTH - half
                                                 : x,
                         0.5f * GAME_HEIGHT);
}

static bool create(scene *s) {
    game *g = s->state;
    if (!game_create_from(g, ledge_default_world_def())) return false;
    s->world = g->world; // the testbed destroys it
    s->height = GAME_HEIGHT + 0.5f;
    follow(s, g);
    return true;
}

static void step(scene *s, const scene_input *in) {
    game *g = s->state;
    if (s->frame > 0) game_after_step(g); // the game's view of the step just taken
    game_input gi = {scene_input_run(in), scene_input_jump(in) || scene_held(in, SCENE_KEY_SPACE),
                     scene_input_drop(in)};
    if (in->autopilot) gi = game_autopilot(g);
    game_before_step(g, &gi);
    follow(s, g);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    game *g = s->state;
    scene_mark_one_way(s->world, d, view);
    vec2s p = ledge_body_position(g->world, g->player);
    scene_draw_box(d, scene_v2(p.x - GAME_PLAYER_HX, p.y - GAME_PLAYER_HY),
                   scene_v2(p.x + GAME_PLAYER_HX, p.y + GAME_PLAYER_HY), SCENE_COLOR_PLAYER, true);
    const game_player_state *st = &g->state;
    scene_text(s, "player (%.2f, %.2f)%s%s%s%s%s", (double)st->position.x, (double)st->position.y,
               st->on_ground ? "  ground" : "", st->on_wall ? "  wall" : "",
               st->on_ceiling ? "  ceiling" : "", st->on_platform ? "  platform" : "",
               st->on_one_way ? "  one-way" : "");
}

const scene_def level_scene = {
    .name = "level",
    .category = "Levels",
    .title = "The sample level",
    .caption =
        "samples/game.c: every tile group, a bowl of crates under a moving platform, bullets",
    .keys = "Left/Right run, Space jump, Down drop through",
    .picture_frame = 420,
    .state_size = sizeof(game),
    .create = create,
    .step = step,
    .draw = draw,
};
