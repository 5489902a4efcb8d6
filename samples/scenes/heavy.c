// Stacking / Heavy on light: a 1 kg crate under crates 10, 100 and 1000
// times heavier. The panel shows how far each heavy crate has pressed the
// light one into the floor (the overlap the projection leaves).
#include "scene.h"

#include <stdio.h>

typedef struct state {
    ledge_body_id light[3], heavy[3];
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(24, 12, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 23, 0, LEDGE_TILE_FULL);
    for (int k = 0; k < 3; ++k) {
        float x = 5.0f + 7.0f * (float)k;
        st->light[k] = scene_box(s->world, x, 1.5f, 0.5f, 0.5f, 0.6f); // 1 m^2 at density 1
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(1.5f, 1.5f)); // 9 m^2
        bd.position = scene_v2(x, 3.5f);
        bd.density = (k == 0 ? 10.0f : k == 1 ? 100.0f : 1000.0f) / 9.0f;
        bd.friction = 0.6f;
        st->heavy[k] = ledge_body_create(s->world, &bd);
    }
    scene_frame_map(s);
    return true;
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    for (int k = 0; k < 3; ++k) {
        ledge_world *w = s->world;
        float light = ledge_body_position(w, st->light[k]).y,
              heavy = ledge_body_position(w, st->heavy[k]).y;
        float ratio = ledge_body_mass(w, st->heavy[k]) / ledge_body_mass(w, st->light[k]);
        char label[64];
        snprintf(label, sizeof label, "%.0f : 1", (double)ratio);
        vec2s at = ledge_body_position(w, st->heavy[k]);
        scene_draw_text(d, scene_v2(at.x - 0.8f, at.y + 1.9f), 0.5f, SCENE_COLOR_TEXT, label);
        // Resting, the light crate's centre is 1.5 m up and the heavy one's 3.5 m.
        scene_text(s, "%4.0f : 1  light crate %.1f mm into the floor, heavy crate %.1f mm into it",
                   (double)ratio, 1e3 * (1.5 - (double)light),
                   1e3 * ((double)(light + 2.0f) - (double)heavy));
    }
}

const scene_def heavy_scene = {
    .name = "heavy_on_light",
    .category = "Stacking",
    .title = "Heavy on light",
    .caption = "a 1 kg crate under crates 10, 100 and 1000 times heavier",
    .show_contacts = true,
    .state_size = sizeof(state),
    .create = create,
    .draw = draw,
};
