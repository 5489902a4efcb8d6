// Fast bodies / No tunnelling: two small balls at 50 m/s, a little under a
// metre a step, bounce without loss inside a box of walls half a tile
// thick, with no gravity. One is a bullet (swept); the other is an
// ordinary body, which the step multisamples along its path. The panel
// counts any that ever leave the box.
#include "scene.h"

#include <math.h>

static const char *const level = "####################\n"
                                 "#..................#\n"
                                 "#.#\"\"\"\"\"\"\"\"\"\"\"\"\"\"#.#\n"
                                 "#.[..............].#\n"
                                 "#.[..............].#\n"
                                 "#.[..............].#\n"
                                 "#.[..............].#\n"
                                 "#.[..............].#\n"
                                 "#.[..............].#\n"
                                 "#.#______________#.#\n"
                                 "#..................#\n"
                                 "####################\n";

#define TRAIL 12 // positions of the last steps, drawn as a trail

typedef struct state {
    ledge_body_id ball[2];
    int escapes[2];
    vec2s trail[2][TRAIL];
} state;

static ledge_body_id ball(ledge_world *w, vec2s at, vec2s v, bool bullet) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(scene_v2(0.0f, 0.0f), 0.1f);
    bd.position = at;
    bd.velocity = v;
    bd.bounce = 1.0f;
    bd.bullet = bullet;
    return ledge_body_create(w, &bd);
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world_ascii(level, 0.0f);
    if (!s->world) return false;
    st->ball[0] = ball(s->world, scene_v2(6.0f, 5.0f), scene_v2(40.0f, 30.0f), true);
    st->ball[1] = ball(s->world, scene_v2(12.0f, 6.0f), scene_v2(-30.0f, 40.0f), false);
    scene_frame_map(s);
    return true;
}

static void step(scene *s, const scene_input *in) {
    (void)in;
    state *st = s->state;
    for (int k = 0; k < 2; ++k) { // the walls' inner faces: x 2.5 .. 17.5, y 2.5 .. 9.5
        vec2s p = ledge_body_position(s->world, st->ball[k]);
        st->trail[k][s->frame % TRAIL] = p;
        if (p.x < 2.5f || p.x > 17.5f || p.y < 2.5f || p.y > 9.5f) {
            ++st->escapes[k];
            ledge_body_set_position(s->world, st->ball[k], scene_v2(10.0f, 6.0f));
        }
    }
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    for (int k = 0; k < 2; ++k) {
        for (int j = 1; j < TRAIL && j < s->frame; ++j) // older to newer
            scene_draw_segment(d, st->trail[k][(s->frame + j - 1) % TRAIL],
                               st->trail[k][(s->frame + j) % TRAIL],
                               k ? LEDGE_COLOR_DYNAMIC : LEDGE_COLOR_BULLET);
        vec2s v = ledge_body_velocity(s->world, st->ball[k]);
        scene_text(s, "%s: %.1f m/s, left the box %d times", k ? "ordinary ball" : "bullet       ",
                   (double)sqrtf(v.x * v.x + v.y * v.y), st->escapes[k]);
    }
}

const scene_def no_tunnel_scene = {
    .name = "no_tunnel",
    .category = "Fast bodies",
    .title = "No tunnelling",
    .caption =
        "a bullet and an ordinary ball at 50 m/s bounce in a box of thin walls, never leaving it",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
