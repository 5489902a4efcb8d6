// The draw list (draw_list.h): the debug draw and the scenes' marks
// recorded as commands of floats, and painted back.
#include "draw_list.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POLYGON 64 // points of one polygon painted (tiles have at most 14)

static bool reserve(scene_draw *d, int floats) {
    if (d->count + floats <= d->cap) return true;
    int cap = d->cap ? d->cap : 4096;
    while (cap < d->count + floats) cap *= 2;
    float *data = realloc(d->data, sizeof *data * (size_t)cap);
    if (!data) {
        d->failed = true;
        return false;
    }
    d->data = data;
    d->cap = cap;
    return true;
}

static void put(scene_draw *d, const float *v, int n) {
    if (!reserve(d, n)) return;
    memcpy(d->data + d->count, v, sizeof *v * (size_t)n);
    d->count += n;
}

static void put_polygon(scene_draw *d, int kind, const vec2s *v, int n, ledge_color color) {
    if (n < 2 || n > MAX_POLYGON || !reserve(d, 3 + 2 * n)) return;
    float head[3] = {(float)kind, (float)color, (float)n};
    put(d, head, 3);
    for (int i = 0; i < n; ++i) put(d, v[i].raw, 2);
}

void scene_draw_polygon(scene_draw *d, const vec2s *v, int n, ledge_color color) {
    put_polygon(d, DRAW_POLYGON, v, n, color);
}

void scene_draw_solid_polygon(scene_draw *d, const vec2s *v, int n, ledge_color color) {
    put_polygon(d, DRAW_SOLID_POLYGON, v, n, color);
}

void scene_draw_circle(scene_draw *d, vec2s c, float r, ledge_color color) {
    float cmd[5] = {DRAW_CIRCLE, (float)color, c.x, c.y, r};
    put(d, cmd, 5);
}

void scene_draw_solid_circle(scene_draw *d, vec2s c, float r, ledge_color color) {
    float cmd[5] = {DRAW_SOLID_CIRCLE, (float)color, c.x, c.y, r};
    put(d, cmd, 5);
}

void scene_draw_segment(scene_draw *d, vec2s a, vec2s b, ledge_color color) {
    float cmd[6] = {DRAW_SEGMENT, (float)color, a.x, a.y, b.x, b.y};
    put(d, cmd, 6);
}

void scene_draw_point(scene_draw *d, vec2s p, float size, ledge_color color) {
    float cmd[5] = {DRAW_POINT, (float)color, size, p.x, p.y};
    put(d, cmd, 5);
}

void scene_draw_box(scene_draw *d, vec2s lower, vec2s upper, ledge_color color, bool solid) {
    vec2s v[4] = {lower, scene_v2(upper.x, lower.y), upper, scene_v2(lower.x, upper.y)};
    put_polygon(d, solid ? DRAW_SOLID_POLYGON : DRAW_POLYGON, v, 4, color);
}

void scene_draw_text(scene_draw *d, vec2s at, float size, ledge_color color, const char *text) {
    int len = (int)strlen(text) + 1;
    if (d->text_count + len > d->text_cap) {
        int cap = d->text_cap ? d->text_cap : 1024;
        while (cap < d->text_count + len) cap *= 2;
        char *t = realloc(d->text, (size_t)cap);
        if (!t) {
            d->failed = true;
            return;
        }
        d->text = t;
        d->text_cap = cap;
    }
    float cmd[6] = {DRAW_TEXT, (float)color, at.x, at.y, size, (float)d->text_count};
    memcpy(d->text + d->text_count, text, (size_t)len);
    d->text_count += len;
    put(d, cmd, 6);
}

void scene_draw_arrow(scene_draw *d, vec2s a, vec2s b, ledge_color color) {
    vec2s ab = scene_v2(b.x - a.x, b.y - a.y);
    float len = sqrtf(ab.x * ab.x + ab.y * ab.y);
    scene_draw_segment(d, a, b, color);
    if (len <= 0.0f) return;
    float head = fminf(0.25f, 0.4f * len);
    vec2s u = scene_v2(ab.x / len * head, ab.y / len * head); // back along the arrow
    scene_draw_segment(d, b, scene_v2(b.x - u.x - 0.5f * u.y, b.y - u.y + 0.5f * u.x), color);
    scene_draw_segment(d, b, scene_v2(b.x - u.x + 0.5f * u.y, b.y - u.y - 0.5f * u.x), color);
}

void draw_list_clear(scene_draw *d) {
    d->count = 0;
    d->text_count = 0;
    d->failed = false;
}

void draw_list_free(scene_draw *d) {
    free(d->data);
    free(d->text);
    memset(d, 0, sizeof *d);
}

// ---------------------------------------------------------------------------
// The library's debug draw into the list.

static void dd_polygon(const vec2s *v, int n, ledge_color color, void *ctx) {
    scene_draw_polygon(ctx, v, n, color);
}

static void dd_solid_polygon(const vec2s *v, int n, ledge_color color, void *ctx) {
    scene_draw_solid_polygon(ctx, v, n, color);
}

static void dd_circle(vec2s c, float r, ledge_color color, void *ctx) {
    scene_draw_circle(ctx, c, r, color);
}

static void dd_solid_circle(vec2s c, float r, ledge_color color, void *ctx) {
    scene_draw_solid_circle(ctx, c, r, color);
}

static void dd_segment(vec2s a, vec2s b, ledge_color color, void *ctx) {
    scene_draw_segment(ctx, a, b, color);
}

static void dd_point(vec2s p, float size, ledge_color color, void *ctx) {
    scene_draw_point(ctx, p, size, color);
}

ledge_debug_draw scene_draw_callbacks(scene_draw *d) {
    ledge_debug_draw dd = ledge_default_debug_draw();
    dd.draw_polygon = dd_polygon;
    dd.draw_solid_polygon = dd_solid_polygon;
    dd.draw_circle = dd_circle;
    dd.draw_solid_circle = dd_solid_circle;
    dd.draw_segment = dd_segment;
    dd.draw_point = dd_point;
    dd.context = d;
    return dd;
}

// ---------------------------------------------------------------------------
// Painting.

void draw_list_paint(const scene_draw *d, const draw_painter *p) {
    const float *f = d->data, *end = d->data + d->count;
    vec2s v[MAX_POLYGON];
    while (f < end) {
        int kind = (int)f[0];
        ledge_color color = (ledge_color)f[1];
        switch (kind) {
        case DRAW_POLYGON:
        case DRAW_SOLID_POLYGON: {
            int n = (int)f[2];
            for (int i = 0; i < n; ++i) v[i] = scene_v2(f[3 + 2 * i], f[4 + 2 * i]);
            if (p->polygon) p->polygon(v, n, color, kind == DRAW_SOLID_POLYGON, p->ctx);
            f += 3 + 2 * n;
            break;
        }
        case DRAW_CIRCLE:
        case DRAW_SOLID_CIRCLE:
            if (p->circle)
                p->circle(scene_v2(f[2], f[3]), f[4], color, kind == DRAW_SOLID_CIRCLE, p->ctx);
            f += 5;
            break;
        case DRAW_SEGMENT:
            if (p->segment) p->segment(scene_v2(f[2], f[3]), scene_v2(f[4], f[5]), color, p->ctx);
            f += 6;
            break;
        case DRAW_POINT:
            if (p->point) p->point(scene_v2(f[3], f[4]), f[2], color, p->ctx);
            f += 5;
            break;
        case DRAW_TEXT:
            if (p->text) p->text(scene_v2(f[2], f[3]), f[4], color, d->text + (int)f[5], p->ctx);
            f += 6;
            break;
        default:
            return; // not a command: the list is damaged
        }
    }
}
