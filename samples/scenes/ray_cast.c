// Queries / Ray cast: a ray from a fixed eye to the pointer (or, without
// one, sweeping round): ledge_world_raycast's closest hit, with its normal,
// and every hit of ledge_world_raycast_all (the bodies the ray enters, then
// the first tile: the tilemap counts as one obstacle).
#include "scene.h"

#include <stdio.h>

#define EYE_X 4.0f
#define EYE_Y 8.0f

typedef struct state {
    vec2s aim;
} state;

static bool create(scene *s) {
    state *st = s->state;
    st->aim = scene_v2(EYE_X + 20.0f, EYE_Y);
    return scene_query_room(s);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    st->aim = scene_aim(s, in, scene_v2(19.0f, 6.0f), 5.0f, 8.0f);
}

typedef struct hits {
    scene_draw *d;
    int count;
} hits;

static float each_hit(const ledge_raycast_result *hit, void *context) {
    hits *h = context;
    scene_draw_point(h->d, hit->point, 9.0f, SCENE_COLOR_DIM);
    ++h->count;
    return 1.0f; // go on, unclipped
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    vec2s eye = scene_v2(EYE_X, EYE_Y), along = scene_v2(st->aim.x - eye.x, st->aim.y - eye.y);
    hits all = {d, 0};
    ledge_world_raycast_all(s->world, eye, along, NULL, each_hit, &all);
    ledge_raycast_result r;
    scene_draw_point(d, eye, 8.0f, SCENE_COLOR_MARK);
    if (!ledge_world_raycast(s->world, eye, along, NULL, &r)) {
        scene_draw_segment(d, eye, st->aim, SCENE_COLOR_GOOD);
        scene_text(s, "no hit");
        return;
    }
    scene_draw_segment(d, eye, r.point, SCENE_COLOR_GOOD);
    scene_draw_segment(d, r.point, st->aim, SCENE_COLOR_DIM);
    scene_draw_point(d, r.point, 6.0f, SCENE_COLOR_MARK);
    scene_draw_arrow(d, r.point, scene_v2(r.point.x + r.normal.x, r.point.y + r.normal.y),
                     LEDGE_COLOR_NORMAL);
    if (r.kind == LEDGE_HIT_TILE)
        scene_text(s, "closest: tile %s in cell (%d, %d) at fraction %.3f, normal (%.2f, %.2f)",
                   ledge_tile_name(r.tile), r.cell_x, r.cell_y, (double)r.fraction,
                   (double)r.normal.x, (double)r.normal.y);
    else
        scene_text(s, "closest: body %u at fraction %.3f, normal (%.2f, %.2f)", r.body.index1,
                   (double)r.fraction, (double)r.normal.x, (double)r.normal.y);
    scene_text(s, "ledge_world_raycast_all: %d hits (grey)", all.count);
}

const scene_def ray_cast_scene = {
    .name = "ray_cast",
    .category = "Queries",
    .title = "Ray cast",
    .caption = "a ray from the eye to the pointer: the closest hit and its normal, and every hit",
    .keys = "move the pointer over the view",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
