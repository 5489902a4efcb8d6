// Stacking / Tower: two columns of ten crates on a tiled floor, one
// straight, one with each crate 4 cm off the one below.
#include "scene.h"

typedef struct state {
    ledge_body_id top; // the straight column's top crate
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(24, 16, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 23, 0, LEDGE_TILE_FULL); // the floor
    for (int k = 0; k < 10; ++k) {
        float y = 1.5f + 1.0f * (float)k; // crates of 1 m, stacked from the floor up
        st->top = scene_box(s->world, 7.5f, y, 0.5f, 0.5f, 0.6f);
        scene_box(s->world, 15.5f + 0.04f * (float)k, y, 0.5f, 0.5f, 0.6f);
    }
    scene_frame_map(s);
    return true;
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)d, (void)view;
    state *st = s->state;
    scene_text(s, "the straight column's top crate at y %.3f (10.5 if the crates did not overlap)",
               (double)ledge_body_position(s->world, st->top).y);
    scene_text(s, "drag a crate out with the mouse; click drops another");
}

const scene_def tower_scene = {
    .name = "tower",
    .category = "Stacking",
    .title = "Tower",
    .caption = "two columns of ten crates: one straight, one leaning 4 cm a crate",
    .show_contacts = true,
    .state_size = sizeof(state),
    .create = create,
    .draw = draw,
};
