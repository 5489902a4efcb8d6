// Queries / Nearest surface: a ball at the pointer (or, without one,
// wandering round the room) and the nearest tile surface or body within
// 4 m (ledge_world_nearest), drawn by ledge_distance_draw: the closest
// points, the gap between them and the surface's normal.
#include "scene.h"

#include <stdio.h>

typedef struct state {
    vec2s at;
    ledge_shape ball;
} state;

static bool create(scene *s) {
    state *st = s->state;
    st->ball = ledge_make_circle(scene_v2(0.0f, 0.0f), 0.3f);
    st->at = scene_v2(15.0f, 7.0f);
    return scene_query_room(s);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    st->at = scene_aim(s, in, scene_v2(15.0f, 7.0f), 5.5f, 9.0f);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_circle(d, st->at, st->ball.radius, SCENE_COLOR_MARK);
    ledge_nearest_result r;
    if (!ledge_world_nearest(s->world, &st->ball, st->at, 4.0f, NULL, &r)) {
        scene_text(s, "nothing within 4 m");
        return;
    }
    ledge_debug_draw dd = scene_draw_callbacks(d);
    dd.normal_length = 0.8f;
    ledge_distance_draw(&r.distance, &dd);
    if (r.kind == LEDGE_HIT_TILE)
        scene_text(s, "nearest: tile %s in cell (%d, %d), %.3f m away", ledge_tile_name(r.tile),
                   r.cell_x, r.cell_y, (double)r.distance.distance);
    else
        scene_text(s, "nearest: body %u, %.3f m away", r.body.index1, (double)r.distance.distance);
}

const scene_def nearest_scene = {
    .name = "nearest",
    .category = "Queries",
    .title = "Nearest surface",
    .caption = "the nearest tile or body to a ball at the pointer: closest points and normal",
    .keys = "move the pointer over the view",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
