// What a frame draws, as a list the front ends paint (draw.c): the
// library's debug draw and the scenes' marks go in as commands of floats,
// in world units; cairo (gallery.c), SDL (testbed.c) and the browser's
// canvas (web/main.mjs reads the floats out of the WebAssembly memory)
// each paint the same list.
//
// Each command is its kind, its colour (0xRRGGBB, exact in a float), then:
//   DRAW_POLYGON, DRAW_SOLID_POLYGON  n, then n points (x, y)
//   DRAW_CIRCLE, DRAW_SOLID_CIRCLE    cx, cy, r
//   DRAW_SEGMENT                      x1, y1, x2, y2
//   DRAW_POINT                        size (pixels), x, y
//   DRAW_TEXT                         x, y, size, offset of its text in `text`
// Tile outlines are DRAW_POLYGON in LEDGE_COLOR_TILE: painters fill them.
#ifndef LEDGE_SAMPLE_DRAW_LIST_H
#define LEDGE_SAMPLE_DRAW_LIST_H

#include "scene.h"

enum {
    DRAW_POLYGON = 1,
    DRAW_SOLID_POLYGON = 2,
    DRAW_CIRCLE = 3,
    DRAW_SOLID_CIRCLE = 4,
    DRAW_SEGMENT = 5,
    DRAW_POINT = 6,
    DRAW_TEXT = 7,
};

struct scene_draw {
    float *data; ///< The commands.
    int count, cap;
    char *text; ///< The labels' characters, each NUL-terminated.
    int text_count, text_cap;
    bool failed; ///< An allocation failed: the list is short.
};

/// Empties the list (keeps its memory).
void draw_list_clear(scene_draw *d);
void draw_list_free(scene_draw *d);

/// A painter: the commands back as calls (the C front ends).
typedef struct draw_painter {
    void (*polygon)(const vec2s *v, int n, ledge_color color, bool solid, void *ctx);
    void (*circle)(vec2s c, float r, ledge_color color, bool solid, void *ctx);
    void (*segment)(vec2s a, vec2s b, ledge_color color, void *ctx);
    void (*point)(vec2s p, float size, ledge_color color, void *ctx);
    void (*text)(vec2s at, float size, ledge_color color, const char *text, void *ctx);
    void *ctx;
} draw_painter;

/// Calls the painter for each command, in order.
void draw_list_paint(const scene_draw *d, const draw_painter *p);

#endif
