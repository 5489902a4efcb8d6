// The testbed's pictures (docs/samples.md): each scene stepped headless for
// a fixed number of frames, as its autopilot plays it, and drawn with
// cairo through the same draw list the browser and the SDL window paint.
//
//   gallery OUT [--frames N] [NAME...]   OUT/NAME.png for each scene (all
//                                        by default) after N frames (by
//                                        default the scene's picture_frame)
//   gallery --list                       the scenes: name, category, title, caption
//
// `./run.sh demo` writes them to out/scenes/. Built only when meson finds
// cairo (Debian libcairo2-dev).
#include "scenes/app.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH  960
#define HEIGHT 540 // the view: 16:9
#define TOP    56  // the title band
#define PANEL  14  // pixels per line of the scene's text, under the view
#define PI     3.14159265358979323846

typedef struct painter {
    cairo_t *cr;
    ledge_aabb view;
    double scale; // pixels per metre
} painter;

static double px(const painter *p, float x) {
    return (x - p->view.lower.x) * p->scale;
}

static double py(const painter *p, float y) {
    return TOP + (p->view.upper.y - y) * p->scale;
}

static void rgb(cairo_t *cr, ledge_color c, double alpha) {
    cairo_set_source_rgba(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
                          (c & 255) / 255.0, alpha);
}

static void paint_polygon(const vec2s *v, int n, ledge_color color, bool solid, void *ctx) {
    painter *p = ctx;
    for (int i = 0; i < n; ++i) {
        if (i == 0)
            cairo_move_to(p->cr, px(p, v[i].x), py(p, v[i].y));
        else
            cairo_line_to(p->cr, px(p, v[i].x), py(p, v[i].y));
    }
    cairo_close_path(p->cr);
    if (color == LEDGE_COLOR_TILE && !solid) { // the ground, filled
        cairo_set_source_rgb(p->cr, 0.30, 0.33, 0.40);
        cairo_fill_preserve(p->cr);
        rgb(p->cr, 0x7B8596u, 1.0);
        cairo_set_line_width(p->cr, 1.0);
        cairo_stroke(p->cr);
        return;
    }
    if (solid) {
        rgb(p->cr, color, 0.5);
        cairo_fill_preserve(p->cr);
    }
    rgb(p->cr, color, 1.0);
    cairo_set_line_width(p->cr, 1.5);
    cairo_stroke(p->cr);
}

static void paint_circle(vec2s c, float r, ledge_color color, bool solid, void *ctx) {
    painter *p = ctx;
    cairo_new_path(p->cr);
    cairo_arc(p->cr, px(p, c.x), py(p, c.y), r * p->scale, 0, 2 * PI);
    if (solid) {
        rgb(p->cr, color, 0.5);
        cairo_fill_preserve(p->cr);
    }
    rgb(p->cr, color, 1.0);
    cairo_set_line_width(p->cr, 1.5);
    cairo_stroke(p->cr);
}

static void paint_segment(vec2s a, vec2s b, ledge_color color, void *ctx) {
    painter *p = ctx;
    cairo_move_to(p->cr, px(p, a.x), py(p, a.y));
    cairo_line_to(p->cr, px(p, b.x), py(p, b.y));
    rgb(p->cr, color, 1.0);
    cairo_set_line_width(p->cr, 1.5);
    cairo_stroke(p->cr);
}

static void paint_point(vec2s at, float size, ledge_color color, void *ctx) {
    painter *p = ctx;
    cairo_new_path(p->cr);
    cairo_arc(p->cr, px(p, at.x), py(p, at.y), 0.5 * size + 0.5, 0, 2 * PI);
    rgb(p->cr, color, 1.0);
    cairo_fill(p->cr);
}

static void paint_text(vec2s at, float size, ledge_color color, const char *text, void *ctx) {
    painter *p = ctx;
    cairo_set_font_size(p->cr, size * p->scale);
    cairo_move_to(p->cr, px(p, at.x), py(p, at.y));
    rgb(p->cr, color, 1.0);
    cairo_show_text(p->cr, text);
}

static void line(cairo_t *cr, double x, double y, double size, ledge_color c, const char *s) {
    cairo_set_font_size(cr, size);
    cairo_move_to(cr, x, y);
    rgb(cr, c, 1.0);
    cairo_show_text(cr, s);
}

// The picture: the title band, the view, then the scene's lines.
static bool write_png(app *a, const char *path) {
    int lines = a->s.line_count;
    int height = TOP + HEIGHT + (lines ? 8 + PANEL * lines : 0);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, WIDTH, height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 0.11, 0.12, 0.15);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    painter p = {cr, app_view(a, (float)WIDTH / HEIGHT), (double)HEIGHT / a->s.height / a->zoom};
    app_draw(a, p.view);
    cairo_save(cr);
    cairo_rectangle(cr, 0, TOP, WIDTH, HEIGHT);
    cairo_clip(cr);
    cairo_set_source_rgb(cr, 0.13, 0.14, 0.17);
    cairo_paint(cr);
    draw_painter dp = {paint_polygon, paint_circle, paint_segment, paint_point, paint_text, &p};
    draw_list_paint(&a->list, &dp);
    cairo_restore(cr);
    const scene_def *d = a->s.def;
    char s[256];
    snprintf(s, sizeof s, "%s / %s", d->category, d->title);
    line(cr, 12, 22, 16, 0xF2F2F2u, s);
    snprintf(s, sizeof s, "%s  (frame %d)", d->caption, a->s.frame);
    line(cr, 12, 44, 13, 0xB8BCC4u, s);
    for (int k = 0; k < lines; ++k)
        line(cr, 12, TOP + HEIGHT + 4 + PANEL * (k + 1), 12, SCENE_COLOR_TEXT, a->s.lines[k]);
    cairo_destroy(cr);
    cairo_status_t st = cairo_surface_write_to_png(surface, path);
    cairo_surface_destroy(surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "gallery: cannot write %s: %s\n", path, cairo_status_to_string(st));
        return false;
    }
    printf("wrote %s\n", path);
    return true;
}

static bool wanted(const char *name, int argc, char **argv, int first) {
    if (first >= argc) return true;
    for (int i = first; i < argc; ++i)
        if (strcmp(argv[i], name) == 0) return true;
    return false;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < scene_count; ++i)
            printf("%s\t%s\t%s\t%s\n", scene_list[i]->name, scene_list[i]->category,
                   scene_list[i]->title, scene_list[i]->caption);
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: gallery OUT [--frames N] [NAME...] | gallery --list\n");
        return 2;
    }
    const char *out = argv[1];
    int frames = 0, first = 2; // 0: each scene's own
    if (argc > 3 && strcmp(argv[2], "--frames") == 0) {
        frames = atoi(argv[3]);
        first = 4;
    }
    static app a;
    bool ok = true;
    for (int i = 0; i < scene_count; ++i) {
        if (!wanted(scene_list[i]->name, argc, argv, first)) continue;
        if (!app_open(&a, i)) {
            fprintf(stderr, "gallery: scene %s could not be made\n", scene_list[i]->name);
            ok = false;
            continue;
        }
        int n = frames ? frames : scene_list[i]->picture_frame ? scene_list[i]->picture_frame : 240;
        for (int f = 0; f < n; ++f) {
            app_step(&a);
            if (a.s.def->draw) app_draw(&a, app_view(&a, (float)WIDTH / HEIGHT)); // as on screen
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.png", out, scene_list[i]->name);
        ok = write_png(&a, path) && ok;
    }
    app_close(&a);
    return ok ? 0 : 1;
}
