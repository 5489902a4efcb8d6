// Levels / A Tiled map: samples/level.tmj, drawn in the Tiled editor with
// the tileset samples/ledge_tiles.tsj, loaded by ledge_tiled
// (include/ledge/tiled.h) into a world: its tile layers become the
// tilemap, its objects bodies (crates, a ball, a lift, a one-way bridge, a
// sensor pit, a decomposed rock). The lift's velocity comes from the map;
// the scene turns it round every 4 seconds. A player starts at the map's
// spawn point.
//
// Built where ledge_tiled is (it needs jansson): the native testbed, not
// the browser's WebAssembly module (samples/scenes/meson.build).
#include "scene.h"

#include <ledge/tiled.h>

#include <stdio.h>

typedef struct state {
    ledge_tiled_result *map; // the objects: names, where, which bodies
    ledge_body_id lift, player;
    int pit_visits;
} state;

static bool create(scene *s) {
    state *st = s->state;
    ledge_tiled_def def = ledge_default_tiled_def();
    def.world.gravity = scene_v2(0.0f, SCENE_GRAVITY);
    s->world = ledge_tiled_create_world_file(SCENES_DATA_DIR "/level.tmj", &def, &st->map);
    if (!s->world) return false;
    const ledge_tiled_object *lift = ledge_tiled_find_object(st->map, "lift");
    const ledge_tiled_object *spawn = ledge_tiled_find_object(st->map, "spawn");
    if (!lift || !spawn) return false;
    st->lift = st->map->bodies[lift->first_body];
    st->player = scene_player(s->world, spawn->position.x, spawn->position.y + SCENE_PLAYER_HY);
    scene_frame_map(s);
    return ledge_body_is_valid(s->world, st->player);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    if (s->frame > 0 && s->frame % 240 == 0) { // the lift turns round
        vec2s v = ledge_body_velocity(s->world, st->lift);
        ledge_body_set_velocity(s->world, st->lift, scene_v2(-v.x, v.y));
    }
    st->pit_visits += ledge_world_sensor_events(s->world).begin_count;
    scene_player_move(s->world, st->player, scene_input_run(in), scene_input_jump(in),
                      scene_input_drop(in));
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    for (int k = 0; k < st->map->object_count; ++k) { // each object's name where it is now
        const ledge_tiled_object *o = &st->map->objects[k];
        vec2s at = o->body_count > 0 ? ledge_body_position(s->world, st->map->bodies[o->first_body])
                                     : o->position;
        scene_draw_text(d, scene_v2(at.x - 0.5f, at.y + 0.9f), 0.45f, SCENE_COLOR_MARK, o->name);
    }
    scene_draw_player(s, d, st->player);
    scene_text(s,
               "%d x %d cells, %d objects, %d bodies from the map; the pit (a sensor) was entered "
               "%d times",
               st->map->width, st->map->height, st->map->object_count, st->map->body_count,
               st->pit_visits);
}

static void destroy(scene *s) {
    state *st = s->state;
    ledge_tiled_result_destroy(st->map);
}

const scene_def tiled_scene = {
    .name = "tiled",
    .category = "Levels",
    .title = "A Tiled map",
    .caption =
        "samples/level.tmj loaded by ledge_tiled: tiles, crates, a lift, a bridge, a sensor pit",
    .keys = "Left/Right run, Space jump, Down drop through",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
    .destroy = destroy,
};
