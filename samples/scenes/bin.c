// Stacking / Bin of circles: 400 balls of four sizes poured into a bin
// whose bottom corners are quarter pipes.
#include "scene.h"

static const char *const level = "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##......................##\n"
                                 "##L....................J##\n"
                                 "##########################\n";

static bool create(scene *s) {
    s->world = scene_world_ascii(level, 10.0f);
    if (!s->world) return false;
    for (int k = 0; k < 400; ++k) {
        float r = 0.2f + 0.05f * (float)(k % 4);
        float x = 3.0f + 0.9f * (float)(k % 22) + (k / 22 % 2 ? 0.4f : 0.0f);
        ledge_body_id b = scene_ball(s->world, x, 2.0f + 0.9f * (float)(k / 22), r, 0.3f);
        ledge_body_set_bounce(s->world, b, 0.1f);
    }
    scene_frame_map(s);
    return true;
}

const scene_def bin_scene = {
    .name = "bin",
    .category = "Stacking",
    .title = "Bin of circles",
    .caption = "400 balls of four sizes poured into a bin with rounded corners",
    .create = create,
};
