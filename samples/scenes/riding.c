// Platformer / Riding a character: one character stands on another, which
// stands on a platform going round in a circle. The step carries each
// character by what the body under it really moved: the platform, then
// the one below, whatever order they were made in (character.h). The
// arrows walk the lower one (the rider stays put: walk it out from under
// the rider and the rider falls).
#include "scene.h"

#include <math.h>

typedef struct state {
    ledge_body_id platform, walker, rider;
} state;

static vec2s target(int f) {
    float turns = (float)f * SCENE_DT / 6.0f; // a turn in 6 s
    return scene_v2(12.0f + 3.0f * scene_sin_turns(turns), 4.5f - 2.0f * scene_cos_turns(turns));
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(24, 12, -SCENE_GRAVITY);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 23, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(3.0f, 0.25f));
    bd.position = target(0);
    st->platform = ledge_body_create(s->world, &bd);
    // The rider first: its place in the world's lists does not matter.
    vec2s p = target(0);
    float top = p.y + 0.25f + 2.0f * SCENE_PLAYER_HY + 0.02f;
    st->rider = scene_player(s->world, p.x, top + SCENE_PLAYER_HY + 0.01f);
    st->walker = scene_player(s->world, p.x, p.y + 0.25f + SCENE_PLAYER_HY + 0.01f);
    scene_frame_map(s);
    return ledge_body_is_valid(s->world, st->walker) && ledge_body_is_valid(s->world, st->rider);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    ledge_body_set_target(s->world, st->platform, target(s->frame + 1), SCENE_DT);
    scene_player_move(s->world, st->walker, scene_input_run(in), scene_input_jump(in), false);
    scene_player_move(s->world, st->rider, 0.0f, false, false); // stands still on the walker's head
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_player(s, d, st->walker);
    scene_draw_player(s, d, st->rider);
    vec2s a = ledge_body_position(s->world, st->walker),
          b = ledge_body_position(s->world, st->rider);
    scene_text(s, "rider - walker: (%.3f, %.3f) m (above: the lower one's state, then the rider's)",
               (double)(b.x - a.x), (double)(b.y - a.y));
}

const scene_def riding_scene = {
    .name = "riding",
    .category = "Platformer",
    .title = "Riding a character",
    .caption = "a character standing on a character on a platform going round: both carried",
    .keys = "Left/Right walk the lower one, Space jump",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
