// Draws the 34 tiles, each labelled with its id and name, from the
// library's own outlines (ledge_tile_outline_get), into a PNG with cairo:
// the picture in docs/tiles.png and the README.
//
//   tile_atlas [out.png]      (default tiles.png)
//
// Built only when meson finds cairo (Debian libcairo2-dev).
#include <ledge/ledge.h>

#include <cairo.h>
#include <math.h>
#include <stdio.h>

#define COLS  7
#define CELL  84.0 // pixels per tile side
#define PAD   18.0 // around each tile
#define LABEL 34.0 // room for the two label lines under each tile
#define PI    3.14159265358979323846

// Polyline of the outline in tile units (cell (0, 0)), arcs as 16 chords.
static int outline_points(const ledge_tile_outline *o, double *xs, double *ys) {
    int n = 0;
    for (int i = 0; i < o->count; ++i) {
        vec2s a = o->points[i], b = o->points[(i + 1) % o->count];
        xs[n] = a.x;
        ys[n] = a.y;
        ++n;
        if (i != o->arc_edge) continue;
        double a0 = atan2(a.y - o->arc_center.y, a.x - o->arc_center.x);
        double a1 = atan2(b.y - o->arc_center.y, b.x - o->arc_center.x);
        double sweep = a1 - a0;
        while (sweep > PI) sweep -= 2.0 * PI;
        while (sweep < -PI) sweep += 2.0 * PI;
        for (int k = 1; k < 16; ++k) {
            double t = a0 + sweep * k / 16.0;
            xs[n] = o->arc_center.x + o->arc_radius * cos(t);
            ys[n] = o->arc_center.y + o->arc_radius * sin(t);
            ++n;
        }
    }
    return n;
}

static void draw_tile(cairo_t *cr, ledge_tile t, double left, double top) {
    // The cell: a light square with a thin frame.
    cairo_rectangle(cr, left, top, CELL, CELL);
    cairo_set_source_rgb(cr, 0.96, 0.96, 0.94);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.75, 0.75, 0.72);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
    ledge_tile_outline o;
    vec2s origin = {{0.0f, 0.0f}};
    if (t != LEDGE_TILE_EMPTY && ledge_tile_outline_get(t, origin, 1.0f, &o) && o.count > 0) {
        double xs[6 * 16], ys[6 * 16];
        int n = outline_points(&o, xs, ys);
        for (int i = 0; i < n; ++i) { // y up in the tile, down in the image
            double px = left + xs[i] * CELL, py = top + (1.0 - ys[i]) * CELL;
            if (i == 0)
                cairo_move_to(cr, px, py);
            else
                cairo_line_to(cr, px, py);
        }
        cairo_close_path(cr);
        cairo_set_source_rgb(cr, 0.20, 0.42, 0.62);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.08, 0.20, 0.32);
        cairo_set_line_width(cr, 2.0);
        cairo_stroke(cr);
        // The surface normal as a short arrow from the cell's centre.
        vec2s nrm = ledge_tile_normal(t);
        if (nrm.x != 0.0f || nrm.y != 0.0f) {
            double cx = left + CELL / 2, cy = top + CELL / 2;
            cairo_move_to(cr, cx, cy);
            cairo_line_to(cr, cx + nrm.x * CELL * 0.3, cy - nrm.y * CELL * 0.3);
            cairo_set_source_rgb(cr, 0.85, 0.35, 0.10);
            cairo_set_line_width(cr, 2.5);
            cairo_stroke(cr);
        }
    }
    char id[16];
    snprintf(id, sizeof id, "%d", (int)t);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 13.0);
    cairo_move_to(cr, left, top + CELL + 15.0);
    cairo_show_text(cr, id);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 10.5);
    cairo_move_to(cr, left, top + CELL + 29.0);
    cairo_show_text(cr, ledge_tile_name(t));
}

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : "tiles.png";
    int rows = (LEDGE_TILE_COUNT + COLS - 1) / COLS;
    double w = COLS * (CELL + 2 * PAD + 20.0), h = 50.0 + rows * (CELL + 2 * PAD + LABEL);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 16.0);
    cairo_move_to(cr, PAD, 30.0);
    cairo_show_text(cr, "ledge: the 34 tiles (y up; blue = solid, orange = surface normal)");
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        double left = PAD + (t % COLS) * (CELL + 2 * PAD + 20.0);
        double top = 50.0 + PAD + (t / COLS) * (CELL + 2 * PAD + LABEL);
        draw_tile(cr, (ledge_tile)t, left, top);
    }
    cairo_status_t st = cairo_surface_write_to_png(surface, out);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "tile_atlas: writing %s failed: %s\n", out, cairo_status_to_string(st));
        return 1;
    }
    printf("tile_atlas: wrote %s (%d tiles)\n", out, LEDGE_TILE_COUNT);
    return 0;
}
