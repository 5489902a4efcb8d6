// Queries / Shape cast: a box moved from a fixed start toward the pointer
// (or, without one, round a circle): ledge_world_shape_cast finds where it
// first touches a tile or a body, the contact point and the normal.
#include "scene.h"

#include <stdio.h>

#define START_X 4.0f
#define START_Y 8.0f

typedef struct state {
    vec2s aim;
    ledge_shape box;
} state;

static bool create(scene *s) {
    state *st = s->state;
    st->box = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(0.6f, 0.35f));
    st->aim = scene_v2(START_X + 20.0f, START_Y);
    return scene_query_room(s);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    st->aim = scene_aim(s, in, scene_v2(19.0f, 6.0f), 5.0f, 10.0f);
}

static void box_at(scene_draw *d, const ledge_shape *box, vec2s at, ledge_color color, bool solid) {
    vec2s lo = scene_v2(at.x + box->bounds.lower.x, at.y + box->bounds.lower.y);
    vec2s hi = scene_v2(at.x + box->bounds.upper.x, at.y + box->bounds.upper.y);
    scene_draw_box(d, lo, hi, color, solid);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    vec2s start = scene_v2(START_X, START_Y);
    vec2s move = scene_v2(st->aim.x - start.x, st->aim.y - start.y);
    ledge_raycast_result r;
    box_at(d, &st->box, start, SCENE_COLOR_MARK, false);
    if (!ledge_world_shape_cast(s->world, &st->box, start, move, NULL, &r)) {
        box_at(d, &st->box, st->aim, SCENE_COLOR_GOOD, true);
        scene_draw_segment(d, start, st->aim, SCENE_COLOR_GOOD);
        scene_text(s, "no hit: the box goes all the way");
        return;
    }
    vec2s at = scene_v2(start.x + r.fraction * move.x, start.y + r.fraction * move.y);
    scene_draw_segment(d, start, at, SCENE_COLOR_GOOD);
    scene_draw_segment(d, at, st->aim, SCENE_COLOR_DIM);
    box_at(d, &st->box, at, SCENE_COLOR_GOOD, true);
    scene_draw_point(d, r.point, 7.0f, SCENE_COLOR_MARK);
    scene_draw_arrow(d, r.point, scene_v2(r.point.x + r.normal.x, r.point.y + r.normal.y),
                     LEDGE_COLOR_NORMAL);
    scene_text(s, "hit %s at fraction %.3f: contact (%.2f, %.2f), normal (%.2f, %.2f)",
               r.kind == LEDGE_HIT_TILE ? ledge_tile_name(r.tile) : "a body", (double)r.fraction,
               (double)r.point.x, (double)r.point.y, (double)r.normal.x, (double)r.normal.y);
}

const scene_def shape_cast_scene = {
    .name = "shape_cast",
    .category = "Queries",
    .title = "Shape cast",
    .caption = "a box moved toward the pointer stops where it first touches: point and normal",
    .keys = "move the pointer over the view",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
