// Stacking / Pyramid: Box2D's pyramid, a base of 20 crates (210 in all).
#include "scene.h"

#define BASE 20

static bool create(scene *s) {
    s->world = scene_world(32, 24, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 31, 0, LEDGE_TILE_FULL);
    for (int row = 0; row < BASE; ++row) {
        for (int k = 0; k < BASE - row; ++k) {
            float x = 16.0f - 0.5f * (float)(BASE - row - 1) + (float)k; // each row half a crate in
            scene_box(s->world, x, 1.5f + (float)row, 0.5f, 0.5f, 0.6f);
        }
    }
    scene_frame_map(s);
    return true;
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)d, (void)view;
    scene_text(s, "%d crates", ledge_world_body_count(s->world));
}

const scene_def pyramid_scene = {
    .name = "pyramid",
    .category = "Stacking",
    .title = "Pyramid",
    .caption = "210 crates in a pyramid of 20 rows on a tile floor",
    .show_contacts = true,
    .create = create,
    .draw = draw,
};
