// Tiles / Every tile group: each of N's nine tile groups once as a floor
// (the tile facing up-right, or up) and once as a ceiling (its mirror
// image), with a crate (friction 1) and a ball (friction 0) on each; the
// ceiling's bodies fall up (gravity scale -1).
#include "scene.h"

// Floors on row 1, ceilings on row 10, one station of 4 cells per group:
// FULL, 45 degrees, CONCAVE, CONVEX, 22 small and big, 67 small and big, HALF.
static const char *const level = "######################################\n"
                                 "######################################\n"
                                 "#.#...Z...F...}...`...p...f...P...\"..#\n"
                                 "#....................................#\n"
                                 "#....................................#\n"
                                 "#....................................#\n"
                                 "#....................................#\n"
                                 "#....................................#\n"
                                 "#....................................#\n"
                                 "#....................................#\n"
                                 "#....................................#\n"
                                 "#.#...\\...L...)...>...b...l...B..._..#\n"
                                 "######################################\n";

static const char *const names[] = {"FULL",        "45DEG",       "CONCAVE",
                                    "CONVEX",      "22DEG_SMALL", "22DEG_BIG",
                                    "67DEG_SMALL", "67DEG_BIG",   "HALF"};

static void drop(ledge_world *w, float x, float y, float up) {
    ledge_body_id box = scene_box(w, x, y, 0.2f, 0.2f, 1.0f);
    ledge_body_id ball = scene_ball(w, x + 0.45f, y + up * 1.5f, 0.2f, 0.0f);
    ledge_body_set_gravity_scale(w, box, up); // up = -1 below the ceilings: fall up
    ledge_body_set_gravity_scale(w, ball, up);
}

static bool create(scene *s) {
    s->world = scene_world_ascii(level, 10.0f);
    if (!s->world) return false;
    for (int k = 0; k < 9; ++k) {
        float x = 2.5f + 4.0f * (float)k;
        drop(s->world, x, 3.0f, 1.0f);  // onto the floor tile
        drop(s->world, x, 9.0f, -1.0f); // up against the ceiling tile
    }
    scene_frame_map(s);
    return true;
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    for (int k = 0; k < 9; ++k)
        scene_draw_text(d, scene_v2(1.1f + 4.0f * (float)k, 6.3f), 0.42f, SCENE_COLOR_DIM,
                        names[k]);
    scene_text(s, "floors on the bottom row, the same groups mirrored as ceilings on the top row");
}

const scene_def tile_groups_scene = {
    .name = "tile_groups",
    .category = "Tiles",
    .title = "Every tile group",
    .caption = "N's nine tile groups as floors and as ceilings, a crate and a ball on each",
    .show_contacts = true,
    .create = create,
    .draw = draw,
};
