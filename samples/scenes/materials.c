// Tiles / Materials: surface materials (material.h) on the cells of one
// floor: an icy run (friction 0.005) that a shoved crate slides across, a
// bouncy pad (bounce 0.9) under a dropped ball, two belts carrying crates
// into a wall and switching direction every six seconds, and a platform
// that is a belt too (a kinematic body with a surface speed). The player
// runs with an acceleration scaled by the friction of the floor it stands
// on (ledge_character_state.floor_material: on ice it keeps sliding) and
// rides the belts.
#include "scene.h"

#include <math.h>

#define ICE_X0  2
#define ICE_X1  9
#define PAD_X   11
#define BELT_X0 13
#define BELT_X1 21
#define WALL_X  22
#define LEFT_X0 24
#define LEFT_X1 30

typedef struct state {
    ledge_body_id player, platform, slider, ball;
    float vx;     // the player's run speed, the game's own
    float dir;    // the autopilot's way
    float belt;   // the belts' speed now
    int switched; // frames since the belts last turned
} state;

static ledge_material material(float friction, float bounce, float speed) {
    ledge_material m = ledge_default_material();
    m.friction = friction;
    m.bounce = bounce;
    m.surface_speed = speed;
    return m;
}

// The belts' cells at `speed`: BELT_X0..BELT_X1 one way, LEFT_X0..LEFT_X1
// the other (both carry toward the wall between them at first).
static void set_belts(ledge_world *w, float speed) {
    ledge_tilemap *map = ledge_world_tilemap(w);
    ledge_material belt = material(0.6f, 0.0f, speed), back = material(0.6f, 0.0f, -speed);
    for (int x = BELT_X0; x <= BELT_X1; ++x) ledge_tilemap_set_cell_material(map, x, 0, &belt);
    for (int x = LEFT_X0; x <= LEFT_X1; ++x) ledge_tilemap_set_cell_material(map, x, 0, &back);
}

static vec2s platform_at(int frame) {
    float t = (float)frame * SCENE_DT;
    return scene_v2(16.0f - 3.0f * scene_cos_turns(t / 10.0f), 6.5f);
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(33, 14, -SCENE_GRAVITY);
    if (!s->world) return false;
    ledge_world *w = s->world;
    ledge_tilemap *map = ledge_world_tilemap(w);
    scene_fill(w, 0, 0, 32, 0, LEDGE_TILE_FULL);
    scene_fill(w, 0, 1, 0, 13, LEDGE_TILE_FULL);
    scene_fill(w, 32, 1, 32, 13, LEDGE_TILE_FULL);
    scene_fill(w, WALL_X, 1, WALL_X, 2, LEDGE_TILE_FULL);
    ledge_material ice = material(0.005f, 0.0f, 0.0f), pad = material(1.0f, 0.9f, 0.0f);
    for (int x = ICE_X0; x <= ICE_X1; ++x) ledge_tilemap_set_cell_material(map, x, 0, &ice);
    ledge_tilemap_set_cell_material(map, PAD_X, 0, &pad);
    st->belt = 2.0f;
    set_belts(w, st->belt);
    // The belt platform: a kinematic body swinging slowly, its surface
    // moving at 1.5 m/s (clockwise: its top carries toward +x).
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(3.0f, 0.2f));
    bd.position = platform_at(0);
    bd.friction = 0.6f;
    bd.surface_speed = 1.5f;
    st->platform = ledge_body_create(w, &bd);
    scene_box(w, 15.0f, 7.2f, 0.4f, 0.4f, 0.6f); // rides the platform's belt
    // Crates on the belts, a crate shoved across the ice, a ball over the pad.
    for (int k = 0; k < 3; ++k) scene_box(w, 14.0f + 2.0f * (float)k, 1.4f, 0.4f, 0.4f, 0.6f);
    for (int k = 0; k < 2; ++k) scene_box(w, 25.0f + 2.5f * (float)k, 1.4f, 0.4f, 0.4f, 0.6f);
    st->slider = scene_box(w, 3.0f, 1.4f, 0.4f, 0.4f, 0.6f);
    ledge_body_set_velocity(w, st->slider, scene_v2(3.0f, 0.0f));
    st->ball = scene_ball(w, (float)PAD_X + 0.5f, 6.0f, 0.35f, 0.3f);
    st->player = scene_player(w, 5.0f, 1.0f + SCENE_PLAYER_HY + 0.01f);
    st->dir = 1.0f;
    scene_frame_map(s);
    return ledge_body_is_valid(w, st->player);
}

// The game's run: it keeps its own horizontal speed and moves it toward
// the input's at an acceleration scaled by a grip it makes of the floor's
// friction (1 on an ordinary floor; on the ice, whose 0.005 is what a
// crate needs to slide a long way, sqrt gives 0.07: the player keeps
// sliding but can still turn), with some air control off the floor. The
// belts carry the player by themselves.
static void run_player(scene *s, float run, bool jump) {
    state *st = s->state;
    ledge_character_state cs;
    if (!ledge_character_get_state(s->world, st->player, &cs)) return;
    float grip = cs.on_floor ? sqrtf(cs.floor_material.friction) : 0.3f;
    float want = run * SCENE_RUN, step = 40.0f * grip * SCENE_DT;
    st->vx = want > st->vx ? fminf(want, st->vx + step) : fmaxf(want, st->vx - step);
    if (cs.on_wall && (float)cs.wall_side * st->vx > 0.0f) st->vx = 0.0f;
    vec2s vel = scene_v2(st->vx, cs.velocity.y + SCENE_GRAVITY * SCENE_DT);
    if (jump && cs.time_since_floor < SCENE_COYOTE) vel.y = SCENE_JUMP;
    ledge_character_move(s->world, st->player, vel, SCENE_DT, NULL);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    ledge_body_set_target(s->world, st->platform, platform_at(s->frame + 1), SCENE_DT);
    if (++st->switched >= 360) { // the belts turn around every six seconds
        st->switched = 0;
        st->belt = -st->belt;
        set_belts(s->world, st->belt);
    }
    float run = scene_input_run(in);
    bool jump = scene_input_jump(in);
    if (in->autopilot) {
        ledge_character_state cs;
        ledge_character_get_state(s->world, st->player, &cs);
        float x = cs.position.x;
        if (x > 19.0f) st->dir = -1.0f; // back and forth over the ice, the pad and a belt
        if (x < 2.5f) st->dir = 1.0f;
        if (cs.on_wall && (float)cs.wall_side == st->dir) st->dir = -st->dir; // a crate
        run = st->dir;
        jump = cs.on_floor && x > 10.0f && x < 11.0f; // over the pad
    }
    run_player(s, run, jump);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_player(s, d, st->player);
    ledge_character_state cs;
    ledge_character_get_state(s->world, st->player, &cs);
    scene_text(s, "floor friction %.3f, bounce %.2f, surface speed %+.2f m/s; run %+.2f m/s",
               (double)cs.floor_material.friction, (double)cs.floor_material.bounce,
               (double)cs.floor_material.surface_speed, (double)st->vx);
    vec2s sv = ledge_body_velocity(s->world, st->slider),
          bv = ledge_body_velocity(s->world, st->ball);
    scene_text(s, "crate on the ice %+.2f m/s, ball on the pad %+.2f m/s; belts %+.1f m/s",
               (double)sv.x, (double)bv.y, (double)st->belt);
}

const scene_def materials_scene = {
    .name = "materials",
    .category = "Tiles",
    .title = "Materials",
    .caption = "ice, a bouncy pad and belts on the floor, a belt platform; the player slides on "
               "ice, rides belts",
    .keys = "Left/Right run, Space jump",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
