// Fast bodies / Bullets: a gun fires small fast balls flagged as bullets
// (ledge_body_def.bullet: swept against tiles and bodies) into a pile of
// crates on the left and at a wall of half tiles, 0.5 m thick, on the
// right. None gets through the wall; the panel counts them.
#include "scene.h"

#include <stdio.h>

#define MAX_BULLETS 24
#define SPEED       60.0f // m/s: a metre a frame

static const char *const level = "##############################\n"
                                 "#............................#\n"
                                 "#............................#\n"
                                 "#............................#\n"
                                 "#............................#\n"
                                 "#..........................[.#\n"
                                 "#..........................[.#\n"
                                 "#..........................[.#\n"
                                 "#..........................[.#\n"
                                 "#..........................[.#\n"
                                 "##############################\n";

typedef struct state {
    ledge_body_id bullet[MAX_BULLETS];
    int fired, through; // bullets fired; found beyond the wall
} state;

static bool create(scene *s) {
    s->world = scene_world_ascii(level, 10.0f);
    if (!s->world) return false;
    for (int row = 0; row < 4; ++row) // a pyramid of ten crates
        for (int k = 0; k < 4 - row; ++k)
            scene_box(s->world, 4.5f + 0.5f * (float)row + (float)k, 1.5f + (float)row, 0.5f, 0.5f,
                      0.6f);
    scene_frame_map(s);
    return true;
}

static void fire(scene *s) {
    state *st = s->state;
    int slot = st->fired % MAX_BULLETS;
    if (ledge_body_is_valid(s->world, st->bullet[slot]))
        ledge_body_destroy(s->world, st->bullet[slot]);
    bool left = st->fired % 2 == 0;
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(scene_v2(0.0f, 0.0f), 0.1f);
    bd.position = scene_v2(15.0f, 2.0f + (float)(st->fired % 5)); // five heights in turn
    bd.velocity = scene_v2(left ? -SPEED : SPEED, left ? -2.0f : 0.0f);
    bd.bullet = true;
    bd.density = 20.0f;
    bd.bounce = 0.3f;
    st->bullet[slot] = ledge_body_create(s->world, &bd);
    ++st->fired;
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    if (s->frame % 20 == 0 || scene_pressed(in, 'f')) fire(s);
    for (int k = 0; k < MAX_BULLETS; ++k) // the wall's far side is x >= 28
        if (ledge_body_is_valid(s->world, st->bullet[k]) &&
            ledge_body_position(s->world, st->bullet[k]).x >= 28.0f) {
            ++st->through;
            ledge_body_destroy(s->world, st->bullet[k]);
        }
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_point(d, scene_v2(15.0f, 4.0f), 8.0f, SCENE_COLOR_MARK); // the gun
    scene_text(s, "%d bullets fired at %.0f m/s; %d got through the wall", st->fired, (double)SPEED,
               st->through);
}

const scene_def bullets_scene = {
    .name = "bullets",
    .category = "Fast bodies",
    .title = "Bullets",
    .caption = "bullets at 60 m/s into a pile of crates and at a wall half a tile thick",
    .keys = "F fire",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
