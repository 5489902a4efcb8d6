// Tiles / Free-form ground: chains (docs/chains.md) beside tiles. A tile
// floor runs on into a chain hill (a smooth bump of 48 segments) and a
// valley, and the valley's far side runs out onto tiles again, both ends
// lying on the tiles' top; a rock (a closed chain) sits on the hill's far
// slope, and a curved kinematic chain swings above the valley, carrying
// what lands on it. Balls and crates roll and slide over every vertex and
// across both junctions; the player walks the hill and the valley. The
// panel names what the player stands on.
#include "scene.h"

#include <stdio.h>

#define MAP_W  64
#define MAP_H  24
#define FLOOR  4.0f // the ground's height
#define HILL_N 48
#define BOWL_N 16
#define DROPS  40

typedef struct state {
    ledge_body_id player;
    ledge_chain_id ground, rock, swing;
    int dropped;
    float dir;
} state;

// The ground chain, y up from right to left: from x = 52 (on the right
// floor's corner) through the valley (x 40 .. 48, 2 m deep), over the hill
// (x 16 .. 32, 3 m high, half a sine wave) to x = 12 (on the left floor's
// corner).
static int ground_points(vec2s *p) {
    int n = 0;
    p[n++] = scene_v2(52.0f, FLOOR);
    p[n++] = scene_v2(48.0f, FLOOR);
    p[n++] = scene_v2(46.0f, FLOOR - 2.0f);
    p[n++] = scene_v2(42.0f, FLOOR - 2.0f);
    p[n++] = scene_v2(40.0f, FLOOR);
    p[n++] = scene_v2(32.0f, FLOOR);
    for (int k = 1; k < HILL_N; ++k) {
        float t = (float)k / (float)HILL_N; // 0 .. 1 from x = 32 to 16
        p[n++] = scene_v2(32.0f - 16.0f * t, FLOOR + 3.0f * scene_sin_turns(0.5f * t));
    }
    p[n++] = scene_v2(16.0f, FLOOR);
    p[n++] = scene_v2(12.0f, FLOOR);
    return n;
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(MAP_W, MAP_H, -SCENE_GRAVITY);
    if (!s->world) return false;
    // Tile floors to the left and right of the chain, walls at the ends.
    scene_fill(s->world, 0, 0, 11, (int)FLOOR - 1, LEDGE_TILE_FULL);
    scene_fill(s->world, 52, 0, MAP_W - 1, (int)FLOOR - 1, LEDGE_TILE_FULL);
    scene_fill(s->world, 0, (int)FLOOR, 0, MAP_H - 1, LEDGE_TILE_FULL);
    scene_fill(s->world, MAP_W - 1, (int)FLOOR, MAP_W - 1, MAP_H - 1, LEDGE_TILE_FULL);
    vec2s p[HILL_N + 8];
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = p;
    cd.count = ground_points(p);
    st->ground = ledge_chain_create(s->world, &cd);
    // A rock on the hill's far slope: an octagon, counter-clockwise (an island).
    vec2s rock[8];
    for (int k = 0; k < 8; ++k) {
        float t = (float)k / 8.0f;
        rock[k] = scene_v2(28.0f + 1.0f * scene_cos_turns(t), 5.8f + 0.9f * scene_sin_turns(t));
    }
    cd.points = rock;
    cd.count = 8;
    cd.loop = true;
    st->rock = ledge_chain_create(s->world, &cd);
    // A bowl that swings above the valley: a half circle, right to left
    // along its bottom (its inside faces up).
    vec2s bowl[BOWL_N + 1];
    for (int k = 0; k <= BOWL_N; ++k) {
        float t = 0.5f * (float)k / (float)BOWL_N; // half a turn
        bowl[k] = scene_v2(2.5f * scene_cos_turns(t), -1.5f * scene_sin_turns(t));
    }
    cd.points = bowl;
    cd.count = BOWL_N + 1;
    cd.loop = false;
    cd.type = LEDGE_BODY_KINEMATIC;
    cd.position = scene_v2(44.0f, 12.0f);
    st->swing = ledge_chain_create(s->world, &cd);
    st->player = scene_player(s->world, 6.0f, FLOOR + SCENE_PLAYER_HY + 0.01f);
    st->dir = 1.0f;
    scene_frame_map(s);
    return ledge_chain_is_valid(s->world, st->ground) && ledge_chain_is_valid(s->world, st->rock) &&
           ledge_chain_is_valid(s->world, st->swing) && ledge_body_is_valid(s->world, st->player);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    // The bowl swings 6 m from side to side every 4 seconds.
    float phase = (float)s->frame * SCENE_DT / 4.0f;
    vec2s target = scene_v2(44.0f + 3.0f * scene_sin_turns(phase + SCENE_DT / 4.0f), 12.0f);
    ledge_chain_set_target(s->world, st->swing, target, SCENE_DT);
    // A ball or a crate from the top left every 20 frames, the first 40.
    if (s->frame % 20 == 0 && st->dropped < DROPS) {
        float x = 3.0f + 0.37f * (float)(st->dropped % 7);
        ledge_body_id b = st->dropped % 3 == 2 ? scene_box(s->world, x, 20.0f, 0.35f, 0.3f, 0.0f)
                                               : scene_ball(s->world, x, 20.0f, 0.3f, 0.02f);
        ledge_body_set_velocity(s->world, b, scene_v2(13.0f, 0.0f));
        st->dropped++;
    }
    float run = scene_input_run(in);
    bool jump = scene_input_jump(in);
    if (in->autopilot) {
        ledge_character_state cs;
        ledge_character_get_state(s->world, st->player, &cs);
        if (cs.position.x > 58.0f) st->dir = -1.0f;
        if (cs.position.x < 4.0f) st->dir = 1.0f;
        run = st->dir;
        jump = cs.on_floor && cs.on_wall && (float)cs.wall_side == st->dir; // the rock
    }
    scene_player_move(s->world, st->player, run, jump, scene_input_drop(in));
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_player(s, d, st->player);
    ledge_character_state cs;
    ledge_character_get_state(s->world, st->player, &cs);
    const char *floor = !cs.on_floor                                 ? "nothing (in the air)"
                        : cs.floor_chain.index1 == st->ground.index1 ? "the ground chain"
                        : cs.floor_chain.index1 == st->rock.index1   ? "the rock (a closed chain)"
                        : cs.floor_chain.index1 == st->swing.index1  ? "the swinging chain"
                        : cs.floor_is_tile                           ? "tiles"
                                                                     : "a body";
    scene_text(s, "the player stands on %s", floor);
    scene_text(s, "%d chains, %d + %d + %d segments; %d bodies dropped",
               ledge_world_chain_count(s->world), ledge_chain_segment_count(s->world, st->ground),
               ledge_chain_segment_count(s->world, st->rock),
               ledge_chain_segment_count(s->world, st->swing), st->dropped);
}

const scene_def chains_scene = {
    .name = "chains",
    .category = "Tiles",
    .title = "Free-form ground",
    .caption = "a chain hill and valley continuing tile floors, a rock, a swinging chain bowl",
    .keys = "Left/Right run, Space jump",
    .picture_frame = 420,
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
