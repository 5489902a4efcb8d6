// The sample game (game.c) in an SDL2 window: the level of the headless
// demo, played with the keyboard (or by the demo's autopilot), drawn at a
// fixed 60 Hz step with interpolated positions, and, on F1, the library's
// debug draw (include/ledge/draw.h) over it.
//
//   platformer [--autopilot] [--debug] [--frames N] [--screenshot OUT.bmp]
//
//   left/right  run            F1      debug draw (contacts, normals, bounds)
//   space       jump           R       restart
//   down        drop through   mouse   left button drops a box, right a ball
//   Escape      quit
//
// --autopilot plays game_autopilot instead of the keyboard; --debug starts
// with the debug draw on; --frames N
// steps N frames as fast as it can (no real-time pacing) and exits;
// --screenshot saves the last frame as a BMP on exit. Together they check
// the window headlessly (e.g. under Xvfb).
//
// Built only when meson finds SDL2 (Debian libsdl2-dev); needs a display.
#include "game.h"

#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW_W        1280
#define WINDOW_H        720
#define SCALE           40.0f              // pixels per metre: the level's 18 rows fill the window
#define VIEW_W          (WINDOW_W / SCALE) // metres across the window
#define MAX_FRAME_TIME  0.25               // s: the most one frame adds to the accumulator
#define SLOTS           (GAME_MAX_BODIES + 2) // player, platform, game.bodies[]
#define CIRCLE_SEGMENTS 24
#define MAX_OUTLINE     (6 + LEDGE_DRAW_ARC_SEGMENTS) // a tile outline with its arc flattened
#define MAX_POINTS      (CIRCLE_SEGMENTS + 2)         // any polygon drawn, closed
#define MAX_TILE_POINTS (GAME_WIDTH * GAME_HEIGHT * 3 * (MAX_OUTLINE - 2))
#define PI_F            3.14159265f

typedef struct app {
    SDL_Window *window;
    SDL_Renderer *renderer;
    game g;
    // Interpolation: each body's position before and after the last step,
    // slot 0 the player, 1 the platform, 2.. game.bodies[].
    vec2s prev[SLOTS], cur[SLOTS];
    int tracked; // slots whose prev/cur are set
    // The map's filled cells as triangles, 3 points each: world positions,
    // and the vertices given to SDL (colours set once, positions per frame).
    vec2s *tile_world;
    SDL_Vertex *tile_vertices;
    int tile_points;
    float cam_x;   // world x at the window's left edge
    float facing;  // +1 or -1: where the player's eyes look
    bool jump_key; // space pressed since the last step (a tap between steps counts)
    bool debug, autopilot, quit;
} app;

static vec2s v2(float x, float y) {
    vec2s o = {{x, y}};
    return o;
}

static SDL_Color rgba(Uint32 rgb, Uint8 a) {
    SDL_Color c = {(Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb, a};
    return c;
}

static SDL_FPoint to_screen(const app *a, vec2s p) {
    SDL_FPoint o = {(p.x - a->cam_x) * SCALE, (float)WINDOW_H - p.y * SCALE};
    return o;
}

static vec2s to_world(const app *a, int x, int y) {
    return v2(a->cam_x + (float)x / SCALE, ((float)WINDOW_H - (float)y) / SCALE);
}

static void set_color(SDL_Renderer *r, SDL_Color c) {
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
}

// ---------------------------------------------------------------------------
// Interpolation.

static int slot_count(const game *g) {
    return 2 + g->body_count;
}

static ledge_body_id slot_body(const game *g, int i) {
    if (i == 0) return g->player;
    return i == 1 ? g->platform : g->bodies[i - 2];
}

// Bodies the game made since the last call start with prev = cur.
static void track_new_bodies(app *a) {
    int n = slot_count(&a->g);
    for (int i = a->tracked; i < n; ++i) {
        a->cur[i] = ledge_body_position(a->g.world, slot_body(&a->g, i));
        a->prev[i] = a->cur[i];
    }
    a->tracked = n;
}

static vec2s lerp(vec2s p, vec2s q, float t) {
    return v2(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y));
}

static game_input keyboard_input(app *a) {
    const Uint8 *key = SDL_GetKeyboardState(NULL);
    game_input in = {0.0f, false, false};
    in.run = (float)key[SDL_SCANCODE_RIGHT] - (float)key[SDL_SCANCODE_LEFT];
    in.jump = a->jump_key || key[SDL_SCANCODE_SPACE];
    in.drop = key[SDL_SCANCODE_DOWN];
    a->jump_key = false;
    return in;
}

// One fixed GAME_DT frame; the positions before it become `prev`.
static void step(app *a) {
    game_input in = a->autopilot ? game_autopilot(&a->g) : keyboard_input(a);
    if (in.run != 0.0f) a->facing = in.run > 0.0f ? 1.0f : -1.0f;
    memcpy(a->prev, a->cur, sizeof a->cur[0] * (size_t)a->tracked);
    game_update(&a->g, &in);
    for (int i = 0; i < a->tracked; ++i)
        a->cur[i] = ledge_body_position(a->g.world, slot_body(&a->g, i));
    track_new_bodies(a);
}

// ---------------------------------------------------------------------------
// The map, made into triangles once (it does not change).

static float cross3(vec2s a, vec2s b, vec2s c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// A fan from p[from] covers the polygon when none of its triangles turns
// clockwise. Every tile outline has such a corner: a convex outline any, a
// CONCAVE one (a square less a quarter disc) the corner facing the arc.
static bool fan_covers(const vec2s *p, int n, int from) {
    for (int k = 1; k + 1 < n; ++k)
        if (cross3(p[from], p[(from + k) % n], p[(from + k + 1) % n]) < -1e-6f) return false;
    return true;
}

static int fan_corner(const vec2s *p, int n) {
    for (int i = 0; i < n; ++i)
        if (fan_covers(p, n, i)) return i;
    return 0;
}

// One tile outline from the library's debug draw (arcs already flattened,
// world coordinates) made into triangles; the cell is the one holding the
// outline's mean point, and a checkerboard shade shows the grid.
static void add_tile(const vec2s *p, int n, ledge_color color, void *context) {
    (void)color;
    app *a = context;
    vec2s mean = v2(0.0f, 0.0f);
    for (int i = 0; i < n; ++i) mean = v2(mean.x + p[i].x / (float)n, mean.y + p[i].y / (float)n);
    int x = (int)floorf(mean.x), y = (int)floorf(mean.y);
    // The one-way cells are drawn as planks (draw_one_way).
    if (n > MAX_OUTLINE ||
        ledge_tilemap_one_way(ledge_world_tilemap(a->g.world), x, y) != LEDGE_ONE_WAY_NONE)
        return;
    int from = fan_corner(p, n);
    SDL_Color c = rgba((x + y) % 2 ? 0x4A5263u : 0x465062u, 255);
    for (int k = 1; k + 1 < n; ++k) {
        vec2s tri[3] = {p[from], p[(from + k) % n], p[(from + k + 1) % n]};
        for (int j = 0; j < 3; ++j) {
            SDL_Vertex v = {{0.0f, 0.0f}, c, {0.0f, 0.0f}};
            a->tile_world[a->tile_points] = tri[j];
            a->tile_vertices[a->tile_points++] = v;
        }
    }
}

// The map's cells, listed once through ledge_world_draw (tiles only).
static bool build_tiles(app *a) {
    a->tile_world = malloc(MAX_TILE_POINTS * sizeof *a->tile_world);
    a->tile_vertices = malloc(MAX_TILE_POINTS * sizeof *a->tile_vertices);
    if (!a->tile_world || !a->tile_vertices) return false;
    a->tile_points = 0;
    ledge_debug_draw dd = ledge_default_debug_draw();
    dd.draw_polygon = add_tile;
    dd.context = a;
    dd.draw_bodies = false;
    dd.draw_contacts = false;
    ledge_aabb map = {{{0.0f, 0.0f}}, {{(float)GAME_WIDTH, (float)GAME_HEIGHT}}};
    ledge_world_draw(a->g.world, &dd, map);
    return true;
}

// ---------------------------------------------------------------------------
// Drawing primitives (screen points).

static void fill_convex(SDL_Renderer *r, const SDL_FPoint *p, int n, SDL_Color c) {
    SDL_Vertex v[3 * MAX_POINTS];
    int m = 0;
    for (int k = 1; k + 1 < n && m + 3 <= 3 * MAX_POINTS; ++k) {
        const SDL_FPoint *tri[3] = {&p[0], &p[k], &p[k + 1]};
        for (int j = 0; j < 3; ++j) {
            SDL_Vertex vx = {*tri[j], c, {0.0f, 0.0f}};
            v[m++] = vx;
        }
    }
    SDL_RenderGeometry(r, NULL, v, m, NULL, 0);
}

static void stroke_closed(SDL_Renderer *r, const SDL_FPoint *p, int n, SDL_Color c) {
    SDL_FPoint loop[MAX_POINTS + 1];
    if (n > MAX_POINTS) n = MAX_POINTS;
    memcpy(loop, p, sizeof *p * (size_t)n);
    loop[n] = p[0];
    set_color(r, c);
    SDL_RenderDrawLinesF(r, loop, n + 1);
}

static int circle_points(const app *a, vec2s c, float radius, SDL_FPoint *out) {
    for (int i = 0; i < CIRCLE_SEGMENTS; ++i) {
        float t = 2.0f * PI_F * (float)i / CIRCLE_SEGMENTS;
        out[i] = to_screen(a, v2(c.x + radius * cosf(t), c.y + radius * sinf(t)));
    }
    return CIRCLE_SEGMENTS;
}

static int polygon_points(const app *a, const vec2s *v, int n, vec2s at, SDL_FPoint *out) {
    if (n > MAX_POINTS) n = MAX_POINTS;
    for (int i = 0; i < n; ++i) out[i] = to_screen(a, v2(at.x + v[i].x, at.y + v[i].y));
    return n;
}

static void fill_rect(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color c) {
    SDL_FRect rect = {x, y, w, h};
    set_color(r, c);
    SDL_RenderFillRectF(r, &rect);
}

// ---------------------------------------------------------------------------
// The scene: tiles, one-way planks, the goal, bodies, the player.

static void draw_tiles(app *a) {
    for (int i = 0; i < a->tile_points; ++i)
        a->tile_vertices[i].position = to_screen(a, a->tile_world[i]);
    SDL_RenderGeometry(a->renderer, NULL, a->tile_vertices, a->tile_points, NULL, 0);
}

// A light plank along each one-way cell's top with an up chevron under it:
// passable from below.
static void draw_one_way(app *a) {
    const ledge_tilemap *map = ledge_world_tilemap(a->g.world);
    SDL_Color c = rgba(0x8CBFFFu, 255);
    for (int x = GAME_ONE_WAY_X0; x <= GAME_ONE_WAY_X1; ++x) {
        if (ledge_tilemap_one_way(map, x, GAME_ONE_WAY_Y) == LEDGE_ONE_WAY_NONE) continue;
        SDL_FPoint top = to_screen(a, v2((float)x, GAME_ONE_WAY_Y + 1.0f));
        fill_rect(a->renderer, top.x, top.y, SCALE, 0.25f * SCALE, c);
        SDL_FPoint chevron[3] = {to_screen(a, v2(x + 0.3f, GAME_ONE_WAY_Y + 0.35f)),
                                 to_screen(a, v2(x + 0.5f, GAME_ONE_WAY_Y + 0.6f)),
                                 to_screen(a, v2(x + 0.7f, GAME_ONE_WAY_Y + 0.35f))};
        set_color(a->renderer, rgba(0x8CBFFFu, 220));
        SDL_RenderDrawLinesF(a->renderer, chevron, 3);
    }
}

static void draw_goal(app *a) {
    SDL_FPoint foot = to_screen(a, v2(GAME_GOAL_X, 4.0f));
    fill_rect(a->renderer, foot.x - 2.0f, foot.y - 3.0f * SCALE, 4.0f, 3.0f * SCALE,
              rgba(0xE0E0E0u, 255));
    SDL_FPoint flag[3] = {{foot.x + 2.0f, foot.y - 3.0f * SCALE},
                          {foot.x + 2.0f + 1.2f * SCALE, foot.y - 2.6f * SCALE},
                          {foot.x + 2.0f, foot.y - 2.2f * SCALE}};
    fill_convex(a->renderer, flag, 3, rgba(0xFFD23Fu, 255));
}

// The game's bullets are its only small circles.
static SDL_Color body_color(const ledge_shape *s) {
    if (s->type != LEDGE_SHAPE_CIRCLE) return rgba(LEDGE_COLOR_DYNAMIC, 255);
    return s->radius < 0.2f ? rgba(LEDGE_COLOR_BULLET, 255) : rgba(0xF2D36Bu, 255);
}

static void draw_shape(app *a, const ledge_shape *s, vec2s at, SDL_Color fill) {
    SDL_FPoint p[MAX_POINTS];
    int n = s->type == LEDGE_SHAPE_CIRCLE
                ? circle_points(a, v2(at.x + s->center.x, at.y + s->center.y), s->radius, p)
                : polygon_points(a, s->vertices, s->count, at, p);
    fill_convex(a->renderer, p, n, fill);
    SDL_Color edge = {(Uint8)(fill.r / 2), (Uint8)(fill.g / 2), (Uint8)(fill.b / 2), 255};
    stroke_closed(a->renderer, p, n, edge);
}

static void draw_bodies(app *a, float alpha) {
    for (int i = 1; i < a->tracked; ++i) {
        const ledge_shape *s = ledge_body_shape(a->g.world, slot_body(&a->g, i));
        if (!s) continue;
        SDL_Color c = i == 1 ? rgba(LEDGE_COLOR_KINEMATIC, 255) : body_color(s);
        draw_shape(a, s, lerp(a->prev[i], a->cur[i], alpha), c);
    }
}

// A green box with two eyes looking where it runs.
static void draw_player(app *a, vec2s p) {
    const ledge_shape *s = ledge_body_shape(a->g.world, a->g.player);
    if (!s) return;
    draw_shape(a, s, p, rgba(0x3DDC84u, 255));
    for (int e = 0; e < 2; ++e) {
        float ex = p.x + a->facing * (0.06f + 0.14f * (float)e) - 0.04f;
        SDL_FPoint eye = to_screen(a, v2(ex, p.y + 0.28f));
        fill_rect(a->renderer, eye.x, eye.y, 0.08f * SCALE, 0.14f * SCALE, rgba(0x10141Cu, 255));
    }
}

// ---------------------------------------------------------------------------
// The debug draw through SDL. It draws the world as the last step left it,
// not the interpolated positions, so at rates above 60 Hz its outlines
// lag the filled bodies under them by up to one step.

static void dd_polygon(const vec2s *v, int n, ledge_color color, void *ctx) {
    SDL_FPoint p[MAX_POINTS];
    n = polygon_points(ctx, v, n, v2(0, 0), p);
    stroke_closed(((app *)ctx)->renderer, p, n, rgba(color, 255));
}

static void dd_solid_polygon(const vec2s *v, int n, ledge_color color, void *ctx) {
    SDL_FPoint p[MAX_POINTS];
    n = polygon_points(ctx, v, n, v2(0, 0), p);
    fill_convex(((app *)ctx)->renderer, p, n, rgba(color, 70));
    stroke_closed(((app *)ctx)->renderer, p, n, rgba(color, 255));
}

static void dd_solid_circle(vec2s c, float radius, ledge_color color, void *ctx) {
    SDL_FPoint p[MAX_POINTS];
    int n = circle_points(ctx, c, radius, p);
    fill_convex(((app *)ctx)->renderer, p, n, rgba(color, 70));
    stroke_closed(((app *)ctx)->renderer, p, n, rgba(color, 255));
}

static void dd_segment(vec2s p, vec2s q, ledge_color color, void *ctx) {
    app *a = ctx;
    SDL_FPoint s = to_screen(a, p), t = to_screen(a, q);
    set_color(a->renderer, rgba(color, 255));
    SDL_RenderDrawLineF(a->renderer, s.x, s.y, t.x, t.y);
}

static void dd_point(vec2s p, float size, ledge_color color, void *ctx) {
    app *a = ctx;
    SDL_FPoint s = to_screen(a, p);
    size += 2.0f;
    fill_rect(a->renderer, s.x - size / 2, s.y - size / 2, size, size, rgba(color, 255));
}

static void draw_debug(app *a) {
    ledge_debug_draw dd = ledge_default_debug_draw();
    dd.draw_polygon = dd_polygon;
    dd.draw_solid_polygon = dd_solid_polygon;
    dd.draw_solid_circle = dd_solid_circle;
    dd.draw_segment = dd_segment;
    dd.draw_point = dd_point;
    dd.context = a;
    dd.normal_length = 0.6f;
    dd.draw_bounds = true;
    ledge_aabb view = {{{a->cam_x - 1.0f, -1.0f}},
                       {{a->cam_x + VIEW_W + 1.0f, GAME_HEIGHT + 1.0f}}};
    ledge_world_draw(a->g.world, &dd, view);
}

// ---------------------------------------------------------------------------
// The HUD, in a 3 x 5 pixel font (SDL2 has no text): what the player
// touches, the keys, the time.

static const char glyph_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.:/=";
// One octal digit per row, top row first; bit 4 is the left column.
static const unsigned short glyph_rows[] = {
    025755, 065656, 034443, 065556, 074647, 074644, 034553, 055755, 072227, 011152, 055655,
    044447, 057755, 065555, 025552, 065644, 025563, 065655, 034216, 072222, 055557, 055552,
    055775, 055255, 055222, 071247, 075557, 026227, 061247, 061216, 055711, 074616, 034757,
    071222, 075757, 075716, 000700, 000002, 002020, 011244, 007070};

static void draw_text(SDL_Renderer *r, float x, float y, float px, SDL_Color c, const char *s) {
    set_color(r, c);
    for (; *s; ++s, x += 4.0f * px) {
        const char *at = strchr(glyph_chars, *s);
        if (*s == ' ' || !at) continue;
        unsigned bits = glyph_rows[at - glyph_chars];
        SDL_FRect dots[15];
        int n = 0;
        for (int i = 0; i < 15; ++i) {
            if (!(bits >> (14 - i) & 1u)) continue;
            SDL_FRect d = {x + (float)(i % 3) * px, y + (float)(i / 3) * px, px, px};
            dots[n++] = d;
        }
        SDL_RenderFillRectsF(r, dots, n);
    }
}

// A square lit in `on` colour when `lit`, dim otherwise, and its label.
static float indicator(SDL_Renderer *r, float x, bool lit, Uint32 on, const char *label) {
    fill_rect(r, x, 12.0f, 16.0f, 16.0f, lit ? rgba(on, 255) : rgba(0x30343Cu, 255));
    draw_text(r, x + 24.0f, 13.0f, 3.0f, rgba(lit ? 0xF0F0F0u : 0x8A8F99u, 255), label);
    return x + 24.0f + 12.0f * (float)strlen(label) + 24.0f;
}

static void draw_hud(app *a) {
    SDL_Renderer *r = a->renderer;
    const game_player_state *s = &a->g.state;
    fill_rect(r, 0.0f, 0.0f, (float)WINDOW_W, 60.0f, rgba(0x0C0E12u, 230));
    float x = indicator(r, 12.0f, s->on_ground, 0x59D959u, "GROUND");
    x = indicator(r, x, s->on_wall, 0xFF594Du, "WALL");
    x = indicator(r, x, s->on_ceiling, 0xFF66FFu, "CEILING");
    x = indicator(r, x, s->on_platform, 0xF2CC4Du, "PLATFORM");
    x = indicator(r, x, s->on_one_way, 0x8CBFFFu, "ONE-WAY");
    indicator(r, x, a->debug, LEDGE_COLOR_NORMAL, "DEBUG");
    char line[96];
    snprintf(line, sizeof line, "T %.1f  BODIES %d%s", (double)(a->g.frame * GAME_DT),
             ledge_world_body_count(a->g.world), a->autopilot ? "  AUTOPILOT" : "");
    draw_text(r, (float)WINDOW_W - 8.0f * (float)strlen(line) - 12.0f, 40.0f, 2.0f,
              rgba(0xF0F0F0u, 255), line);
    draw_text(r, 12.0f, 40.0f, 2.0f, rgba(0xB8BCC4u, 255),
              "ARROWS RUN  SPACE JUMP  DOWN DROP  F1 DEBUG  R RESTART  MOUSE L/R BOX/BALL  "
              "ESC QUIT");
}

// The whole frame at `alpha` (0..1) of the way from the last step's
// positions to the current ones.
static void draw(app *a, float alpha) {
    vec2s player = lerp(a->prev[0], a->cur[0], alpha);
    float cam = player.x - VIEW_W / 2.0f;
    a->cam_x = cam < 0.0f ? 0.0f : cam > GAME_WIDTH - VIEW_W ? GAME_WIDTH - VIEW_W : cam;
    SDL_SetRenderDrawColor(a->renderer, 0x1C, 0x1F, 0x27, 255);
    SDL_RenderClear(a->renderer);
    draw_tiles(a);
    draw_one_way(a);
    draw_goal(a);
    draw_bodies(a, alpha);
    draw_player(a, player);
    if (a->debug) draw_debug(a);
    draw_hud(a);
}

// ---------------------------------------------------------------------------
// Input and the main loops.

static bool start_game(app *a) {
    if (!game_create(&a->g)) return false;
    a->tracked = 0;
    a->facing = 1.0f;
    track_new_bodies(a);
    return true;
}

static void restart(app *a) {
    game_destroy(&a->g);
    if (!start_game(a)) {
        fprintf(stderr, "platformer: the game could not be made again\n");
        a->quit = true;
    }
}

static void on_key(app *a, const SDL_KeyboardEvent *k) {
    if (k->repeat) return;
    switch (k->keysym.sym) {
    case SDLK_ESCAPE:
        a->quit = true;
        break;
    case SDLK_F1:
        a->debug = !a->debug;
        break;
    case SDLK_r:
        restart(a);
        break;
    case SDLK_SPACE:
        a->jump_key = true;
        break;
    default:
        break;
    }
}

static void on_click(app *a, const SDL_MouseButtonEvent *b) {
    if (b->button != SDL_BUTTON_LEFT && b->button != SDL_BUTTON_RIGHT) return;
    game_spawn(&a->g, to_world(a, b->x, b->y), b->button == SDL_BUTTON_RIGHT);
    track_new_bodies(a);
}

static void handle_events(app *a) {
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (e.type == SDL_QUIT) a->quit = true;
        if (e.type == SDL_KEYDOWN) on_key(a, &e.key);
        if (e.type == SDL_MOUSEBUTTONDOWN) on_click(a, &e.button);
    }
}

// Real time: the accumulator takes in the frame's wall-clock time (at
// most MAX_FRAME_TIME, so that a slow frame cannot demand ever more steps)
// and pays it out in GAME_DT steps; what is left is drawn as alpha.
static float run_real_time(app *a) {
    Uint64 freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter();
    double acc = 0.0;
    while (!a->quit) {
        handle_events(a);
        Uint64 now = SDL_GetPerformanceCounter();
        double elapsed = (double)(now - last) / (double)freq;
        last = now;
        acc += elapsed < MAX_FRAME_TIME ? elapsed : MAX_FRAME_TIME;
        while (acc >= GAME_DT && !a->quit) {
            step(a);
            acc -= GAME_DT;
        }
        draw(a, (float)(acc / GAME_DT));
        SDL_RenderPresent(a->renderer);
        SDL_Delay(1); // without vsync (e.g. under Xvfb), do not spin
    }
    return (float)(acc / GAME_DT);
}

// --frames N: one step per drawn frame, as fast as it goes.
static float run_frames(app *a, int frames) {
    for (int f = 0; f < frames && !a->quit; ++f) {
        handle_events(a);
        step(a);
        draw(a, 1.0f);
        SDL_RenderPresent(a->renderer);
    }
    return 1.0f;
}

// Draws the frame again and saves it (the back buffer is undefined after
// SDL_RenderPresent, so it is read before presenting).
static bool save_screenshot(app *a, float alpha, const char *path) {
    draw(a, alpha);
    int w, h;
    SDL_GetRendererOutputSize(a->renderer, &w, &h);
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    bool ok = s &&
              SDL_RenderReadPixels(a->renderer, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels,
                                   s->pitch) == 0 &&
              SDL_SaveBMP(s, path) == 0;
    if (ok)
        printf("wrote %s\n", path);
    else
        fprintf(stderr, "platformer: cannot save %s: %s\n", path, SDL_GetError());
    SDL_FreeSurface(s);
    return ok;
}

typedef struct options {
    int frames; // 0: real time until quit
    const char *screenshot;
    bool autopilot, debug;
} options;

static bool parse_options(int argc, char **argv, options *o) {
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--autopilot") == 0) {
            o->autopilot = true;
        } else if (strcmp(argv[i], "--debug") == 0) {
            o->debug = true;
        } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 10000000) return false;
            o->frames = (int)n;
        } else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) {
            o->screenshot = argv[++i];
        } else {
            return false;
        }
    }
    return true;
}

static bool open_window(app *a) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) return false;
    a->window = SDL_CreateWindow("ledge platformer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                 WINDOW_W, WINDOW_H, 0);
    if (!a->window) return false;
    a->renderer = SDL_CreateRenderer(a->window, -1, SDL_RENDERER_PRESENTVSYNC);
    if (!a->renderer) return false;
    SDL_SetRenderDrawBlendMode(a->renderer, SDL_BLENDMODE_BLEND);
    return true;
}

static void close_all(app *a) {
    if (a->g.world) game_destroy(&a->g);
    free(a->tile_world);
    free(a->tile_vertices);
    if (a->renderer) SDL_DestroyRenderer(a->renderer);
    if (a->window) SDL_DestroyWindow(a->window);
    SDL_Quit();
}

int main(int argc, char **argv) {
    static app a;
    options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: platformer [--autopilot] [--debug] [--frames N] "
                        "[--screenshot OUT.bmp]\n");
        return 2;
    }
    a.autopilot = o.autopilot;
    a.debug = o.debug;
    bool ok = open_window(&a);
    if (!ok) fprintf(stderr, "platformer: SDL: %s\n", SDL_GetError());
    ok = ok && start_game(&a) && build_tiles(&a);
    if (ok) {
        float alpha = o.frames > 0 ? run_frames(&a, o.frames) : run_real_time(&a);
        if (o.screenshot) ok = save_screenshot(&a, alpha, o.screenshot);
    }
    close_all(&a);
    return ok ? 0 : 1;
}
