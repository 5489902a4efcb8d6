// What the scenes share (scene.h): worlds, boxes and balls, the player of
// docs/character.md, the marks of one-way cells, the panel's text and keys.
#include "scene.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

uint64_t scene_key_bit(int key) {
    if (key >= 'A' && key <= 'Z') key += 'a' - 'A';
    if (key > 0 && key < SCENE_KEY_COUNT_SPECIAL) return 1ull << (key - 1);
    if (key >= 'a' && key <= 'z') return 1ull << (8 + key - 'a');
    if (key >= '0' && key <= '9') return 1ull << (40 + key - '0');
    if (key >= 256 && key < 256 + 14) return 1ull << (50 + key - 256); // the testbed's (app.h)
    return 0;
}

bool scene_held(const scene_input *in, int key) {
    return (in->held & scene_key_bit(key)) != 0;
}

bool scene_pressed(const scene_input *in, int key) {
    return (in->pressed & scene_key_bit(key)) != 0;
}

const scene_def *scene_find(const char *name) {
    for (int i = 0; i < scene_count; ++i)
        if (strcmp(scene_list[i]->name, name) == 0) return scene_list[i];
    return NULL;
}

void scene_text(scene *s, const char *format, ...) {
    if (s->line_count >= SCENE_MAX_LINES) return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(s->lines[s->line_count++], SCENE_LINE, format, ap);
    va_end(ap);
}

// sin x for |x| <= pi by its Taylor series to x^23 (the error is under
// 1e-10, far below a float's rounding): additions and multiplications
// only, in double, which round the same everywhere.
static double sin_series(double x) {
    double x2 = x * x, term = x, sum = x;
    for (int k = 1; k <= 11; ++k) {
        term *= -x2 / (double)((2 * k) * (2 * k + 1));
        sum += term;
    }
    return sum;
}

float scene_sin_turns(float turns) {
    double t = (double)turns - floor((double)turns + 0.5); // -0.5 .. 0.5 of a turn
    return (float)sin_series(6.283185307179586 * t);
}

float scene_cos_turns(float turns) {
    return scene_sin_turns(turns + 0.25f);
}

ledge_world *scene_world(int w, int h, float g) {
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = w;
    wd.map_height = h;
    wd.gravity = scene_v2(0.0f, -g);
    return ledge_world_create(&wd);
}

ledge_world *scene_world_ascii(const char *level, float g) {
    int width = 0, height = 0;
    for (const char *line = level; line && *line;) {
        const char *end = strchr(line, '\n');
        int len = end ? (int)(end - line) : (int)strlen(line);
        if (len > 0 && line[len - 1] == '\r') --len;
        if (len > 0 && line[0] != ';' && height++ == 0) width = len;
        line = end ? end + 1 : NULL;
    }
    ledge_world *world = scene_world(width, height, g);
    if (world && !ledge_tilemap_load_ascii(ledge_world_tilemap(world), level)) {
        ledge_world_destroy(world);
        return NULL;
    }
    return world;
}

void scene_frame_map(scene *s) {
    ledge_tilemap_def md = ledge_tilemap_get_def(ledge_world_tilemap(s->world));
    float w = md.tile_size * (float)md.width, h = md.tile_size * (float)md.height;
    s->center = scene_v2(md.origin.x + 0.5f * w, md.origin.y + 0.5f * h);
    s->height = (h > w * 9.0f / 16.0f ? h : w * 9.0f / 16.0f) + 0.5f;
}

static const char *const query_room = "##############################\n"
                                      "#F..........'q............Z\"N#\n"
                                      "#............................#\n"
                                      "#............................#\n"
                                      "#...............}{...........#\n"
                                      "#............................#\n"
                                      "#......_...................[.#\n"
                                      "#..........................[.#\n"
                                      "#............................#\n"
                                      "#..................()........#\n"
                                      "#.................(##).....<d#\n"
                                      "#L...../\\..............J.<d###\n"
                                      "##.....##\\..........##########\n"
                                      "##############################\n";

bool scene_query_room(scene *s) {
    s->world = scene_world_ascii(query_room, 10.0f);
    if (!s->world) return false;
    scene_box(s->world, 12.5f, 1.41f, 0.4f, 0.4f, 0.6f);
    scene_box(s->world, 13.5f, 1.41f, 0.4f, 0.4f, 0.6f);
    scene_box(s->world, 13.0f, 2.25f, 0.4f, 0.4f, 0.6f);
    scene_ball(s->world, 15.0f, 1.35f, 0.35f, 0.3f);
    scene_ball(s->world, 21.5f, 2.6f, 0.5f, 0.3f);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_STATIC;
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(0.75f, 1.25f));
    bd.position = scene_v2(8.0f, 9.25f);
    ledge_body_create(s->world, &bd);
    scene_frame_map(s);
    return true;
}

vec2s scene_aim(const scene *s, const scene_input *in, vec2s around, float radius, float period) {
    if (in->mouse_in) return in->mouse;
    float turns = (float)s->frame * SCENE_DT / period;
    return scene_v2(around.x + radius * scene_cos_turns(turns),
                    around.y + radius * scene_sin_turns(turns));
}

void scene_fill(ledge_world *world, int x0, int y0, int x1, int y1, ledge_tile tile) {
    ledge_tilemap *map = ledge_world_tilemap(world);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) ledge_tilemap_set(map, x, y, tile);
}

ledge_body_id scene_box(ledge_world *world, float x, float y, float hx, float hy, float friction) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(hx, hy));
    bd.position = scene_v2(x, y);
    bd.friction = friction;
    return ledge_body_create(world, &bd);
}

ledge_body_id scene_ball(ledge_world *world, float x, float y, float r, float friction) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(scene_v2(0.0f, 0.0f), r);
    bd.position = scene_v2(x, y);
    bd.friction = friction;
    return ledge_body_create(world, &bd);
}

void scene_mark_one_way(ledge_world *world, scene_draw *d, ledge_aabb view) {
    const ledge_tilemap *map = ledge_world_tilemap(world);
    ledge_tilemap_def md = ledge_tilemap_get_def(map);
    int x0, y0, x1, y1;
    ledge_tilemap_cell_at(map, view.lower, &x0, &y0);
    ledge_tilemap_cell_at(map, view.upper, &x1, &y1);
    x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
    x1 = x1 >= md.width ? md.width - 1 : x1, y1 = y1 >= md.height ? md.height - 1 : y1;
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            ledge_one_way way = ledge_tilemap_one_way(map, x, y);
            if (way == LEDGE_ONE_WAY_NONE) continue;
            vec2s dir = ledge_one_way_direction(way);
            float s = md.tile_size;
            vec2s c =
                scene_v2(md.origin.x + ((float)x + 0.5f) * s, md.origin.y + ((float)y + 0.5f) * s);
            // The solid side's edge, and an arrow the way bodies pass through.
            vec2s side = scene_v2(dir.y * 0.5f * s, -dir.x * 0.5f * s);
            vec2s edge = scene_v2(c.x + dir.x * 0.45f * s, c.y + dir.y * 0.45f * s);
            scene_draw_segment(d, scene_v2(edge.x - side.x, edge.y - side.y),
                               scene_v2(edge.x + side.x, edge.y + side.y), SCENE_COLOR_ONE_WAY);
            scene_draw_arrow(d, scene_v2(c.x - dir.x * 0.3f * s, c.y - dir.y * 0.3f * s),
                             scene_v2(c.x + dir.x * 0.25f * s, c.y + dir.y * 0.25f * s),
                             SCENE_COLOR_ONE_WAY);
        }
    }
}

// ---------------------------------------------------------------------------
// The player.

ledge_body_id scene_player(ledge_world *world, float x, float y) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC; // the step never moves it: ledge_character_move does
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(SCENE_PLAYER_HX, SCENE_PLAYER_HY));
    bd.position = scene_v2(x, y);
    ledge_body_id id = ledge_body_create(world, &bd);
    if (!ledge_character_create(world, id, NULL)) return LEDGE_NULL_BODY_ID;
    return id;
}

bool scene_player_move(ledge_world *world, ledge_body_id player, float run, bool jump, bool drop) {
    ledge_character_state st;
    if (!ledge_character_get_state(world, player, &st)) return false;
    vec2s vel = scene_v2(run * SCENE_RUN, st.velocity.y + SCENE_GRAVITY * SCENE_DT);
    if (jump && st.time_since_floor < SCENE_COYOTE) vel.y = SCENE_JUMP;
    if (drop && st.on_floor) ledge_body_drop_through(world, player);
    return ledge_character_move(world, player, vel, SCENE_DT, NULL);
}

float scene_input_run(const scene_input *in) {
    return (float)scene_held(in, SCENE_KEY_RIGHT) - (float)scene_held(in, SCENE_KEY_LEFT);
}

bool scene_input_jump(const scene_input *in) {
    return scene_pressed(in, SCENE_KEY_SPACE) || scene_pressed(in, SCENE_KEY_UP);
}

bool scene_input_drop(const scene_input *in) {
    return scene_pressed(in, SCENE_KEY_DOWN);
}

void scene_draw_player(scene *s, scene_draw *d, ledge_body_id player) {
    ledge_character_state st;
    if (!ledge_character_get_state(s->world, player, &st)) return;
    vec2s p = st.position, h = scene_v2(SCENE_PLAYER_HX, SCENE_PLAYER_HY);
    vec2s lo = scene_v2(p.x - h.x, p.y - h.y), hi = scene_v2(p.x + h.x, p.y + h.y);
    scene_draw_box(d, lo, hi, st.crushed ? SCENE_COLOR_BAD : SCENE_COLOR_PLAYER, true);
    // A thick line on each side that touches something.
    float t = 0.06f;
    if (st.on_floor)
        scene_draw_box(d, scene_v2(lo.x, lo.y), scene_v2(hi.x, lo.y + t), SCENE_COLOR_GOOD, true);
    if (st.on_ceiling)
        scene_draw_box(d, scene_v2(lo.x, hi.y - t), scene_v2(hi.x, hi.y), SCENE_COLOR_MARK, true);
    if (st.on_wall && st.wall_side > 0)
        scene_draw_box(d, scene_v2(hi.x - t, lo.y), scene_v2(hi.x, hi.y), SCENE_COLOR_BAD, true);
    if (st.on_wall && st.wall_side < 0)
        scene_draw_box(d, scene_v2(lo.x, lo.y), scene_v2(lo.x + t, hi.y), SCENE_COLOR_BAD, true);
    scene_text(s, "floor %s  wall %s  ceiling %s  coyote %.2f s%s", st.on_floor ? "yes" : "no",
               st.on_wall ? (st.wall_side > 0 ? "right" : "left") : "no",
               st.on_ceiling ? "yes" : "no", (double)st.time_since_floor,
               st.crushed ? "  CRUSHED" : "");
    scene_text(s, "velocity (%.2f, %.2f)  on %s", (double)st.velocity.x, (double)st.velocity.y,
               !st.on_floor                                     ? "nothing"
               : st.floor_is_tile                               ? ledge_tile_name(st.floor_tile)
               : ledge_body_is_valid(s->world, st.floor_body)   ? "a body"
               : ledge_chain_is_valid(s->world, st.floor_chain) ? "a chain"
                                                                : "?");
}
