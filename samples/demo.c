// The headless demo, the README's first command (./run.sh demo): the sample
// game (game.c) played by its autopilot for DEMO_FRAMES fixed frames. It
// prints one line per second of game time and draws two pictures with
// cairo:
//   OUT/demo-final.png  the last frame: tiles, bodies, contact points and
//                       normals, through the library's debug draw
//   OUT/demo-path.png   the player's path over the whole run on the map,
//                       coloured by what the player was touching
//
//   demo [OUT]          (default: the current directory)
//
// Built only when meson finds cairo (Debian libcairo2-dev).
#include "game.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DEMO_FRAMES 1320 // 22 s at 60 Hz
#define SCALE       20.0 // pixels per metre
#define TOP         44.0 // title band
#define BOTTOM      34.0 // legend band
#define PI          3.14159265358979323846

typedef struct rgb {
    double r, g, b;
} rgb;

static rgb rgb_of(ledge_color c) {
    rgb o = {((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0};
    return o;
}

static void set_rgb(cairo_t *cr, rgb c, double alpha) {
    cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

// World (metres, y up) to picture (pixels, y down): the world point
// (x0, y1) lands at the pixel (left, top), at `scale` pixels per metre.
typedef struct view {
    double x0, y1, scale, left, top;
} view;

static view the_view = {0.0, GAME_HEIGHT, SCALE, 0.0, TOP}; // the whole level

static double px(double x) {
    return the_view.left + (x - the_view.x0) * the_view.scale;
}

static double py(double y) {
    return the_view.top + (the_view.y1 - y) * the_view.scale;
}

static void path_of(cairo_t *cr, const vec2s *v, int n) {
    for (int i = 0; i < n; ++i) {
        if (i == 0)
            cairo_move_to(cr, px(v[i].x), py(v[i].y));
        else
            cairo_line_to(cr, px(v[i].x), py(v[i].y));
    }
    cairo_close_path(cr);
}

// ---------------------------------------------------------------------------
// The debug-draw callbacks (include/ledge/draw.h) drawing into cairo.

static void draw_polygon(const vec2s *v, int n, ledge_color color, void *ctx) {
    cairo_t *cr = ctx;
    path_of(cr, v, n);
    if (color == LEDGE_COLOR_TILE) { // tiles filled, so the level reads as solid ground
        cairo_set_source_rgb(cr, 0.30, 0.33, 0.40);
        cairo_fill_preserve(cr);
    }
    set_rgb(cr, rgb_of(color), 1.0);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
}

// A body: the current path filled half-transparent, outlined opaque.
static void fill_and_outline(cairo_t *cr, ledge_color color) {
    set_rgb(cr, rgb_of(color), 0.55);
    cairo_fill_preserve(cr);
    set_rgb(cr, rgb_of(color), 1.0);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
}

static void draw_solid_polygon(const vec2s *v, int n, ledge_color color, void *ctx) {
    path_of(ctx, v, n);
    fill_and_outline(ctx, color);
}

static void draw_solid_circle(vec2s c, float r, ledge_color color, void *ctx) {
    cairo_new_path(ctx);
    cairo_arc(ctx, px(c.x), py(c.y), r * the_view.scale, 0, 2 * PI);
    fill_and_outline(ctx, color);
}

static void draw_segment(vec2s a, vec2s b, ledge_color color, void *ctx) {
    cairo_t *cr = ctx;
    cairo_move_to(cr, px(a.x), py(a.y));
    cairo_line_to(cr, px(b.x), py(b.y));
    set_rgb(cr, rgb_of(color), 1.0);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
}

static void draw_point(vec2s p, float size, ledge_color color, void *ctx) {
    cairo_t *cr = ctx;
    cairo_new_path(cr);
    cairo_arc(cr, px(p.x), py(p.y), size * 0.5 + 0.5, 0, 2 * PI);
    set_rgb(cr, rgb_of(color), 1.0);
    cairo_fill(cr);
}

// ---------------------------------------------------------------------------
// Pictures.

static cairo_t *begin_picture(cairo_surface_t **surface, double extra_height) {
    *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)(GAME_WIDTH * SCALE),
                                          (int)(TOP + GAME_HEIGHT * SCALE + BOTTOM + extra_height));
    cairo_t *cr = cairo_create(*surface);
    cairo_set_source_rgb(cr, 0.11, 0.12, 0.15);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    return cr;
}

static bool end_picture(cairo_t *cr, cairo_surface_t *surface, const char *path) {
    cairo_destroy(cr);
    cairo_status_t st = cairo_surface_write_to_png(surface, path);
    cairo_surface_destroy(surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "demo: cannot write %s: %s\n", path, cairo_status_to_string(st));
        return false;
    }
    printf("wrote %s\n", path);
    return true;
}

static void text(cairo_t *cr, double x, double y, double size, rgb c, const char *s) {
    cairo_set_font_size(cr, size);
    cairo_move_to(cr, x, y);
    set_rgb(cr, c, 1.0);
    cairo_show_text(cr, s);
}

static void title(cairo_t *cr, const char *s) {
    rgb white = {0.95, 0.95, 0.95};
    text(cr, 12, 28, 18, white, s);
}

// What each part of the level is: its name high in the sky (two rows, so
// that neighbours do not overlap), with a faint line down to the part.
static void label_level(cairo_t *cr) {
    static const struct {
        float x, top;
        const char *s;
    } labels[] = {
        {3.0f, 5.0f, "start"},
        {12.0f, 6.0f, "45\xc2\xb0 hill"},
        {19.0f, 5.0f, "26.6\xc2\xb0 hill"},
        {29.0f, 4.0f, "moving platform over a bowl with a pile"},
        {41.0f, 6.0f, "one-way platform"},
        {48.5f, 6.0f, "63.4\xc2\xb0 slope"},
        {57.0f, 10.0f, "every ceiling tile"},
        {64.0f, 6.0f, "45\xc2\xb0 down"},
        {71.0f, 4.5f, "half tiles"},
        {77.0f, 5.0f, "convex hump"},
        {82.75f, 5.0f, "half wall"},
        {92.0f, 4.5f, "goal"},
    };
    rgb c = {0.85, 0.85, 0.70};
    cairo_set_font_size(cr, 13);
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; ++i) {
        double row = i % 2 ? 12.4 : 13.6;
        cairo_text_extents_t e;
        cairo_text_extents(cr, labels[i].s, &e);
        text(cr, px(labels[i].x) - e.x_advance / 2, py(row), 13, c, labels[i].s);
        cairo_move_to(cr, px(labels[i].x), py(row) + 4);
        cairo_line_to(cr, px(labels[i].x), py(labels[i].top + 0.2));
        cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.35);
        cairo_set_line_width(cr, 1.0);
        cairo_stroke(cr);
    }
}

// The one-way cells get an arrow-marked top edge in the library's colour
// for kinematic things, so they read differently from solid ground.
static void mark_one_way(cairo_t *cr, const game *g) {
    const ledge_tilemap *map = ledge_world_tilemap(g->world);
    for (int y = 0; y < GAME_HEIGHT; ++y) {
        for (int x = 0; x < GAME_WIDTH; ++x) {
            if (ledge_tilemap_one_way(map, x, y) != LEDGE_ONE_WAY_UP) continue;
            cairo_rectangle(cr, px(x), py(y + 1), the_view.scale, the_view.scale);
            cairo_set_source_rgb(cr, 0.11, 0.12, 0.15);
            cairo_fill(cr);
            cairo_set_source_rgb(cr, 0.55, 0.75, 1.0);
            cairo_set_line_width(cr, 3.0);
            cairo_move_to(cr, px(x), py(y + 1) + 1.5);
            cairo_line_to(cr, px(x + 1), py(y + 1) + 1.5);
            cairo_stroke(cr);
            cairo_move_to(cr, px(x + 0.5), py(y + 0.2)); // an up arrow: passable from below
            cairo_line_to(cr, px(x + 0.5), py(y + 0.8));
            cairo_line_to(cr, px(x + 0.35), py(y + 0.6));
            cairo_move_to(cr, px(x + 0.5), py(y + 0.8));
            cairo_line_to(cr, px(x + 0.65), py(y + 0.6));
            cairo_set_line_width(cr, 1.5);
            cairo_stroke(cr);
        }
    }
}

static void legend(cairo_t *cr, const char *const *names, const rgb *colors, int n, double extra) {
    double x = 12, y = TOP + GAME_HEIGHT * SCALE + extra + 22;
    cairo_set_font_size(cr, 13);
    for (int i = 0; i < n; ++i) {
        cairo_rectangle(cr, x, y - 10, 12, 12);
        set_rgb(cr, colors[i], 1.0);
        cairo_fill(cr);
        rgb white = {0.9, 0.9, 0.9};
        text(cr, x + 18, y, 13, white, names[i]);
        cairo_text_extents_t e;
        cairo_text_extents(cr, names[i], &e);
        x += 18 + e.x_advance + 28;
    }
}

static ledge_debug_draw cairo_debug_draw(cairo_t *cr) {
    ledge_debug_draw dd = ledge_default_debug_draw();
    dd.draw_polygon = draw_polygon;
    dd.draw_solid_polygon = draw_solid_polygon;
    dd.draw_solid_circle = draw_solid_circle;
    dd.draw_segment = draw_segment;
    dd.draw_point = draw_point;
    dd.context = cr;
    dd.normal_length = 0.6f;
    return dd;
}

static ledge_aabb whole_map(void) {
    ledge_aabb box = {{{-1.0f, -1.0f}}, {{GAME_WIDTH + 1.0f, GAME_HEIGHT + 1.0f}}};
    return box;
}

#define ZOOM        3.0 // the bowl panel's magnification
#define ZOOM_X0     21.0
#define ZOOM_X1     37.0
#define ZOOM_Y0     0.5
#define ZOOM_Y1     5.5
#define ZOOM_HEIGHT ((ZOOM_Y1 - ZOOM_Y0) * SCALE * ZOOM + 16.0)

// The player's box at p, outlined in white (`alpha`, `width` pixels).
static void outline_player(cairo_t *cr, vec2s p, double alpha, double width) {
    cairo_rectangle(cr, px(p.x - GAME_PLAYER_HX), py(p.y + GAME_PLAYER_HY),
                    2 * GAME_PLAYER_HX * the_view.scale, 2 * GAME_PLAYER_HY * the_view.scale);
    cairo_set_source_rgba(cr, 1, 1, 1, alpha);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

// The world through the debug draw, clipped to the view's rectangle.
static void draw_view(cairo_t *cr, const game *g, ledge_aabb region) {
    cairo_save(cr);
    cairo_rectangle(cr, px(region.lower.x), py(region.upper.y),
                    (region.upper.x - region.lower.x) * the_view.scale,
                    (region.upper.y - region.lower.y) * the_view.scale);
    cairo_clip(cr);
    ledge_debug_draw dd = cairo_debug_draw(cr);
    ledge_world_draw(g->world, &dd, region);
    mark_one_way(cr, g);
    outline_player(cr, g->state.position, 1.0, 2.0);
    cairo_restore(cr);
}

static bool draw_final(const game *g, const char *path) {
    cairo_surface_t *surface;
    cairo_t *cr = begin_picture(&surface, ZOOM_HEIGHT);
    draw_view(cr, g, whole_map());
    label_level(cr);
    // The bowl again, magnified, under the level, with a frame round both.
    view whole = the_view;
    double zoom_top = TOP + GAME_HEIGHT * SCALE + 16.0;
    cairo_rectangle(cr, px(ZOOM_X0), py(ZOOM_Y1), (ZOOM_X1 - ZOOM_X0) * SCALE,
                    (ZOOM_Y1 - ZOOM_Y0) * SCALE);
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.95);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
    view zoom = {ZOOM_X0, ZOOM_Y1, SCALE * ZOOM,
                 (GAME_WIDTH * SCALE - (ZOOM_X1 - ZOOM_X0) * SCALE * ZOOM) / 2, zoom_top};
    the_view = zoom;
    ledge_aabb region = {{{(float)ZOOM_X0, (float)ZOOM_Y0}}, {{(float)ZOOM_X1, (float)ZOOM_Y1}}};
    draw_view(cr, g, region);
    cairo_rectangle(cr, px(ZOOM_X0), py(ZOOM_Y1), (ZOOM_X1 - ZOOM_X0) * the_view.scale,
                    (ZOOM_Y1 - ZOOM_Y0) * the_view.scale);
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.95);
    cairo_stroke(cr);
    rgb c = {0.85, 0.85, 0.70};
    text(cr, px(ZOOM_X0) + 8, py(ZOOM_Y1) + 20, 14, c,
         "the framed part, 3x: the pile, the bullets in it, the moving platform");
    the_view = whole;
    char s[160];
    snprintf(s, sizeof s,
             "ledge demo, last frame (%d, t = %.1f s): tiles, bodies, contact points and normals",
             g->frame, g->frame * GAME_DT);
    title(cr, s);
    const char *names[] = {"player (white)", "moving platform", "boxes and balls", "bullets",
                           "contact point",  "contact normal",  "one-way platform"};
    rgb colors[] = {{1, 1, 1},
                    rgb_of(LEDGE_COLOR_KINEMATIC),
                    rgb_of(LEDGE_COLOR_DYNAMIC),
                    rgb_of(LEDGE_COLOR_BULLET),
                    rgb_of(LEDGE_COLOR_CONTACT),
                    rgb_of(LEDGE_COLOR_NORMAL),
                    {0.55, 0.75, 1.0}};
    legend(cr, names, colors, 7, ZOOM_HEIGHT);
    return end_picture(cr, surface, path);
}

// ---------------------------------------------------------------------------
// The player's path.

enum { PATH_GROUND, PATH_AIR, PATH_WALL, PATH_CEILING, PATH_PLATFORM };

typedef struct path_point {
    vec2s p;
    int kind;
} path_point;

static int kind_of(const game_player_state *s) {
    if (s->on_ceiling) return PATH_CEILING;
    if (s->on_wall) return PATH_WALL;
    if (s->on_platform) return PATH_PLATFORM;
    return s->on_ground ? PATH_GROUND : PATH_AIR;
}

static const rgb path_colors[] = {
    {0.35, 0.85, 0.35}, // ground
    {0.45, 0.70, 1.00}, // air
    {1.00, 0.35, 0.30}, // wall
    {1.00, 0.40, 1.00}, // ceiling
    {0.95, 0.80, 0.30}, // on the moving platform
};

static void draw_path_line(cairo_t *cr, const path_point *path, int n) {
    cairo_set_line_width(cr, 3.0);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (int i = 1; i < n; ++i) {
        cairo_move_to(cr, px(path[i - 1].p.x), py(path[i - 1].p.y));
        cairo_line_to(cr, px(path[i].p.x), py(path[i].p.y));
        set_rgb(cr, path_colors[path[i].kind], 1.0);
        cairo_stroke(cr);
    }
}

// Every second: a tick and the time; every 2 s the player's box.
static void draw_path_times(cairo_t *cr, const path_point *path, int n) {
    rgb white = {0.95, 0.95, 0.95};
    int second = (int)(1.0f / GAME_DT + 0.5f);
    vec2s last = path[0].p;
    for (int i = 0; i < n; i += second) {
        vec2s p = path[i].p;
        if (i % (2 * second) == 0) outline_player(cr, p, 0.5, 1.0);
        cairo_new_path(cr);
        cairo_arc(cr, px(p.x), py(p.y), 3.0, 0, 2 * PI);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill(cr);
        char s[16];
        snprintf(s, sizeof s, "%ds", i / second);
        // Labels closer than a metre would overlap: write the first only.
        if (i == 0 || fabsf(p.x - last.x) > 1.0f || fabsf(p.y - last.y) > 0.6f) {
            text(cr, px(p.x) - 8, py(p.y + GAME_PLAYER_HY) - 6, 12, white, s);
            last = p;
        }
    }
}

static bool draw_path(const game *g, const path_point *path, int n, const char *path_png) {
    cairo_surface_t *surface;
    cairo_t *cr = begin_picture(&surface, 0.0);
    ledge_debug_draw dd = cairo_debug_draw(cr);
    dd.draw_bodies = false; // the map alone under the path
    dd.draw_contacts = false;
    ledge_world_draw(g->world, &dd, whole_map());
    mark_one_way(cr, g);
    label_level(cr);
    draw_path_line(cr, path, n);
    draw_path_times(cr, path, n);
    char s[160];
    snprintf(s, sizeof s, "ledge demo, the player's path over %.0f s (its centre; a box every 2 s)",
             n * GAME_DT);
    title(cr, s);
    const char *names[] = {"on the ground", "in the air", "against a wall", "against a ceiling",
                           "on the moving platform"};
    legend(cr, names, path_colors, 5, 0.0);
    return end_picture(cr, surface, path_png);
}

// ---------------------------------------------------------------------------
// The run.

static const char *phase_name(game_phase p) {
    static const char *const names[] = {"running",  "waiting",  "riding",     "jumping up",
                                        "standing", "dropping", "at the goal"};
    return names[p];
}

static int contact_count(game *g) {
    int n = 0;
    for (int i = 0; i < g->body_count; ++i)
        n += ledge_body_contacts(g->world, g->bodies[i], NULL, 0);
    n += ledge_body_contacts(g->world, g->platform, NULL, 0);
    return n + ledge_body_contacts(g->world, g->player, NULL, 0);
}

// What the player touched during the last second, frame by frame.
typedef struct second_tally {
    int ground, wall, ceiling;
    double step_seconds; // g->step_seconds when the second began
} second_tally;

static void tally_frame(second_tally *t, const game_player_state *s) {
    t->ground += s->on_ground;
    t->wall += s->on_wall;
    t->ceiling += s->on_ceiling;
}

// One line per game second: where the player is, how many of the second's
// frames it spent on the ground, against a wall or a ceiling, what the
// autopilot is doing, the contacts in the world, and the step's cost.
static void print_second(game *g, second_tally *t) {
    const game_player_state *s = &g->state;
    int frames = (int)(1.0f / GAME_DT + 0.5f);
    printf("t %4.1f s  player (%5.2f, %5.2f)  ground %2d/%d  wall %2d  ceiling %2d  %-11s  "
           "contacts %3d  %.3f ms/step\n",
           g->frame * GAME_DT, s->position.x, s->position.y, t->ground, frames, t->wall, t->ceiling,
           phase_name(g->phase), contact_count(g),
           1000.0 * (g->step_seconds - t->step_seconds) / frames);
    second_tally next = {0, 0, 0, g->step_seconds};
    *t = next;
}

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : ".";
    static game g;
    static path_point path[DEMO_FRAMES];
    if (!game_create(&g)) return 1;
    printf("ledge %s demo: %d x %d tiles, %d bodies, %d frames of %.4f s\n", ledge_version_string(),
           GAME_WIDTH, GAME_HEIGHT, ledge_world_body_count(g.world), DEMO_FRAMES, GAME_DT);
    second_tally tally = {0, 0, 0, 0.0};
    int goal_frame = -1;
    for (int f = 0; f < DEMO_FRAMES; ++f) {
        game_input in = game_autopilot(&g);
        game_update(&g, &in);
        path[f].p = g.state.position;
        path[f].kind = kind_of(&g.state);
        if (goal_frame < 0 && g.phase == PHASE_GOAL) goal_frame = g.frame;
        tally_frame(&tally, &g.state);
        if (g.frame % 60 == 0) print_second(&g, &tally);
    }
    printf("%s after %.2f s; %d bodies, %d bullets fired; %.3f ms per step on average\n",
           goal_frame >= 0 ? "goal reached" : "goal NOT reached", goal_frame * GAME_DT,
           ledge_world_body_count(g.world), g.bullet_count, 1000.0 * g.step_seconds / DEMO_FRAMES);
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/demo-final.png", out);
    snprintf(b, sizeof b, "%s/demo-path.png", out);
    bool ok = draw_final(&g, a) && draw_path(&g, path, DEMO_FRAMES, b);
    game_destroy(&g);
    return ok && goal_frame >= 0 ? 0 : 1;
}
