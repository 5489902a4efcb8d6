// Tiles / Editing under a pile: crates rest (and fall asleep: the world
// has enable_sleep) on a floor over a basin; every two seconds a tile
// under them changes (ledge_tilemap_set): a hole opens, closes, the floor
// becomes a half step and a slope. An edit wakes the sleepers around it
// (world.h, "Sleeping"); E makes the next edit now.
#include "scene.h"

#include <stdio.h>

#define CRATES 18
#define EVERY  120 // frames between edits

typedef struct state {
    ledge_body_id crate[CRATES];
    int edits;
    char last[64];
} state;

static const char *const level =
    "########################\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#.####################.#\n" // the floor the crates rest on (y = 5)
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "#......................#\n"
    "########################\n";

// The edits, in turn: a cell and what it becomes.
static const struct {
    int x, y;
    ledge_tile tile;
} edits[] = {
    {11, 5, LEDGE_TILE_EMPTY}, {12, 5, LEDGE_TILE_EMPTY},  {11, 5, LEDGE_TILE_FULL},
    {12, 5, LEDGE_TILE_FULL},  {10, 5, LEDGE_TILE_HALF_U}, {13, 5, LEDGE_TILE_45DEG_PP},
    {10, 5, LEDGE_TILE_FULL},  {13, 5, LEDGE_TILE_FULL},
};
#define EDIT_COUNT ((int)(sizeof edits / sizeof edits[0]))

static bool create(scene *s) {
    state *st = s->state;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 24;
    wd.map_height = 14;
    wd.enable_sleep = true;
    s->world = ledge_world_create(&wd);
    if (!s->world || !ledge_tilemap_load_ascii(ledge_world_tilemap(s->world), level)) return false;
    for (int k = 0; k < CRATES; ++k) // three rows of six, staggered
        st->crate[k] = scene_box(s->world, 9.5f + (float)(k % 6) + (k / 6 % 2 ? 0.5f : 0.0f),
                                 6.5f + (float)(k / 6), 0.45f, 0.45f, 0.6f);
    snprintf(st->last, sizeof st->last, "none yet");
    scene_frame_map(s);
    return true;
}

static void edit(scene *s) {
    state *st = s->state;
    int k = st->edits++ % EDIT_COUNT;
    ledge_tilemap_set(ledge_world_tilemap(s->world), edits[k].x, edits[k].y, edits[k].tile);
    snprintf(st->last, sizeof st->last, "frame %d: cell (%d, %d) -> %s", s->frame, edits[k].x,
             edits[k].y, ledge_tile_name(edits[k].tile));
}

static void step(scene *s, const scene_input *in) {
    if (scene_pressed(in, 'e') || (s->frame > 0 && s->frame % EVERY == 0)) edit(s);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    int asleep = 0;
    for (int k = 0; k < CRATES; ++k) {
        if (ledge_body_is_awake(s->world, st->crate[k])) continue;
        ++asleep;
        vec2s p = ledge_body_position(s->world, st->crate[k]);
        scene_draw_text(d, scene_v2(p.x - 0.15f, p.y - 0.15f), 0.45f, SCENE_COLOR_DIM, "z");
    }
    scene_text(s, "asleep %d of %d crates (z)   last edit: %s", asleep, CRATES, st->last);
}

const scene_def tile_edit_scene = {
    .name = "tile_edit",
    .category = "Tiles",
    .title = "Editing under a pile",
    .caption = "tiles change under resting, sleeping crates: a hole, a half step, a slope",
    .keys = "E edit now",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
