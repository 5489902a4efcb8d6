// Tiles / Slopes and friction: a crate on each of N's three slopes (26.6,
// 45 and 63.4 degrees), with friction 0, 0.25, 0.5, 0.75 and 1, one lane
// each, side by side. What a crate does on a slope is the response's
// business (world.h): the panel shows each crate's speed along its slope.
#include "scene.h"

#include <math.h>
#include <stdio.h>

#define LANES   5  // frictions
#define RISE    4  // each slope climbs 4 cells
#define LANE_H  6  // rows per lane
#define BLOCK_W 16 // cells per slope and its run-out
#define MAP_W   (3 * BLOCK_W + 1)
#define MAP_H   (LANES * LANE_H + 1)

typedef struct state {
    ledge_body_id crate[3][LANES];
} state;

static const float run_per_rise[3] = {2.0f, 1.0f, 0.5f}; // 26.6, 45, 63.4 degrees

// A slope falling to the right whose top edge starts at (x, top), on solid
// ground down to row `base`, in N's tiles: b> pairs, \ cells, l over B.
static void slope(ledge_tilemap *map, int x, int top, int base, int kind) {
    for (int k = 0; k < RISE; ++k) {
        int y = top - 1 - k; // the row of the slope's k-th cell down
        if (kind == 0) {
            ledge_tilemap_set(map, x + 2 * k, y, LEDGE_TILE_22DEG_BIG_PP);
            ledge_tilemap_set(map, x + 2 * k + 1, y, LEDGE_TILE_22DEG_SMALL_PP);
            for (int yy = base; yy < y; ++yy) {
                ledge_tilemap_set(map, x + 2 * k, yy, LEDGE_TILE_FULL);
                ledge_tilemap_set(map, x + 2 * k + 1, yy, LEDGE_TILE_FULL);
            }
        } else if (kind == 1) {
            ledge_tilemap_set(map, x + k, y, LEDGE_TILE_45DEG_PP);
            for (int yy = base; yy < y; ++yy) ledge_tilemap_set(map, x + k, yy, LEDGE_TILE_FULL);
        } else if (k % 2 == 0) { // two rows per column: l on top of B
            int cx = x + k / 2;
            ledge_tilemap_set(map, cx, y, LEDGE_TILE_67DEG_SMALL_PP);
            ledge_tilemap_set(map, cx, y - 1, LEDGE_TILE_67DEG_BIG_PP);
            for (int yy = base; yy < y - 1; ++yy) ledge_tilemap_set(map, cx, yy, LEDGE_TILE_FULL);
        }
    }
}

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(MAP_W, MAP_H, 10.0f);
    if (!s->world) return false;
    ledge_tilemap *map = ledge_world_tilemap(s->world);
    for (int lane = 0; lane < LANES; ++lane) {
        int base = lane * LANE_H; // the lane's floor row
        scene_fill(s->world, 0, base, MAP_W - 1, base, LEDGE_TILE_FULL);
        for (int kind = 0; kind < 3; ++kind) {
            int x = kind * BLOCK_W + 1;
            int top = base + 1 + RISE;
            scene_fill(s->world, x - 1, base + 1, x - 1, top - 1,
                       LEDGE_TILE_FULL); // the top's ledge
            slope(map, x, top, base + 1, kind);
            scene_fill(s->world, (kind + 1) * BLOCK_W, base + 1, (kind + 1) * BLOCK_W, base + 2,
                       LEDGE_TILE_FULL); // the run-out's end wall
            // A crate of 0.6 m a little above the slope, a quarter of the way down.
            float sx = (float)x + 0.25f * run_per_rise[kind] * RISE;
            float sy = (float)top - 0.25f * RISE + 0.5f;
            float f = 0.25f * (float)lane;
            st->crate[kind][lane] = scene_box(s->world, sx, sy, 0.3f, 0.3f, f);
        }
    }
    scene_frame_map(s);
    return true;
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    for (int kind = 0; kind < 3; ++kind) {
        char line[SCENE_LINE];
        int n = snprintf(line, sizeof line, "%4.1f deg: speed",
                         atan(1.0 / run_per_rise[kind]) * 57.29578);
        for (int lane = 0; lane < LANES; ++lane) {
            ledge_body_id c = st->crate[kind][lane];
            vec2s v = ledge_body_velocity(s->world, c), p = ledge_body_position(s->world, c);
            float speed = sqrtf(v.x * v.x + v.y * v.y);
            n += snprintf(line + n, sizeof line - (size_t)n, "  f %.2f: %5.2f", 0.25 * lane,
                          (double)speed);
            char label[16];
            snprintf(label, sizeof label, "f %.2f", 0.25 * lane);
            scene_draw_text(d, scene_v2(p.x - 0.4f, p.y + 0.5f), 0.4f, SCENE_COLOR_TEXT, label);
            if (n >= (int)sizeof line) break;
        }
        scene_text(s, "%s m/s", line);
    }
}

const scene_def slopes_scene = {
    .name = "slopes",
    .category = "Tiles",
    .title = "Slopes and friction",
    .caption = "a crate on each slope (26.6, 45, 63.4 degrees), friction 0 to 1 lane by lane",
    .state_size = sizeof(state),
    .create = create,
    .draw = draw,
};
