// Benchmark / Rain: N balls (1,000 to 100,000) rain into a box with a
// ledge every few cells, stepped by 1 or 2 workers (ledge_world_def.
// worker_count; the same bits either way), and the step's time per stage
// (ledge_world_profile, profile.h) as a bar, averaged over half a second.
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STAGES  10
#define AVERAGE 30 // steps

static const int counts[] = {1000, 10000, 100000};
static const char *const stage_names[STAGES] = {
    "integrate", "move", "grid", "pairs", "relax", "sort", "response", "check", "events", "sleep"};
static const ledge_color stage_colors[STAGES] = {0x4E79A7u, 0xF28E2Bu, 0xE15759u, 0x76B7B2u,
                                                 0x59A14Fu, 0xEDC948u, 0xB07AA1u, 0xFF9DA7u,
                                                 0x9C755Fu, 0xBAB0ACu};

typedef struct state {
    int count_index, workers;
    float stage_ms[AVERAGE][STAGES + 1]; // the last steps' stages, then the whole step
} state;

// The box: walls, a floor, a ledge in every fourth cell of row 4 and a
// slope into each bottom corner; balls in rows from 7 m up.
static ledge_world *rain(int n, int workers) {
    int cols = (int)ceil(sqrt((double)n)), rows = (n + cols - 1) / cols;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = cols + 2;
    wd.map_height = rows + 10;
    wd.body_capacity = n;
    wd.worker_count = workers;
    ledge_world *w = ledge_world_create(&wd);
    if (!w) return NULL;
    scene_fill(w, 0, 0, cols + 1, 0, LEDGE_TILE_FULL);
    scene_fill(w, 0, 0, 0, rows + 9, LEDGE_TILE_FULL);
    scene_fill(w, cols + 1, 0, cols + 1, rows + 9, LEDGE_TILE_FULL);
    for (int x = 4; x < cols; x += 4)
        ledge_tilemap_set(ledge_world_tilemap(w), x, 4, LEDGE_TILE_HALF_U);
    ledge_tilemap_set(ledge_world_tilemap(w), 1, 1, LEDGE_TILE_45DEG_PP);
    ledge_tilemap_set(ledge_world_tilemap(w), cols, 1, LEDGE_TILE_45DEG_NP);
    for (int k = 0; k < n; ++k) {
        ledge_body_id b =
            scene_ball(w, 1.5f + (float)(k % cols) + 0.01f * (float)((7 * k) % 11 - 5),
                       7.0f + (float)(k / cols), 0.4f, 0.3f);
        ledge_body_set_bounce(w, b, 0.1f);
    }
    ledge_world_enable_profile(w, true);
    return w;
}

static void frame_it(scene *s, int n) {
    int cols = (int)ceil(sqrt((double)n)), rows = (n + cols - 1) / cols;
    float w = (float)cols + 2.0f, h = (float)rows + 10.0f;
    s->center = scene_v2(0.5f * w, 0.5f * h + 0.1f * h);
    s->height = fmaxf(1.25f * h, 0.75f * w);
}

static bool create(scene *s) {
    state *st = s->state;
    st->workers = 1;
    s->world = rain(counts[0], 1);
    frame_it(s, counts[0]);
    return s->world != NULL;
}

// Another count or worker count: a new world in place of the old.
static void remake(scene *s, int count_index, int workers) {
    state *st = s->state;
    ledge_world *w = rain(counts[count_index], workers);
    if (!w) return; // logged; the old world goes on
    ledge_world_destroy(s->world);
    s->world = w;
    s->frame = 0;
    st->count_index = count_index;
    st->workers = workers;
    memset(st->stage_ms, 0, sizeof st->stage_ms);
    frame_it(s, counts[count_index]);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    if (s->frame > 0) { // the profile of the step just taken
        ledge_profile p = ledge_world_profile(s->world);
        float v[STAGES + 1] = {p.integrate, p.move,  p.grid,   p.pairs, p.relax, p.sort,
                               p.response,  p.check, p.events, p.sleep, p.step};
        memcpy(st->stage_ms[s->frame % AVERAGE], v, sizeof v);
    }
    for (int k = 0; k < 3; ++k)
        if (scene_pressed(in, '1' + k)) remake(s, k, st->workers);
#ifndef __EMSCRIPTEN__ // the browser's module has no threads
    if (scene_pressed(in, 'w')) remake(s, st->count_index, 3 - st->workers);
#endif
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    state *st = s->state;
    float mean[STAGES + 1] = {0};
    int n = s->frame < AVERAGE ? s->frame : AVERAGE;
    for (int k = 0; k < n; ++k)
        for (int j = 0; j <= STAGES; ++j) mean[j] += st->stage_ms[k][j] / (float)n;
    // The bar: 16.7 ms (a frame at 60 Hz) spans 60% of the view, or the
    // step if it is longer; under it each stage's name and time.
    float vw = view.upper.x - view.lower.x, vh = view.upper.y - view.lower.y;
    float full = fmaxf(1000.0f / 60.0f, mean[STAGES]);
    float x = view.lower.x + 0.03f * vw, y = view.upper.y - 0.08f * vh, bar = 0.035f * vh;
    float text = 0.022f * vh, per_ms = 0.6f * vw / full;
    scene_draw_box(d, scene_v2(x, y), scene_v2(x + per_ms * 1000.0f / 60.0f, y + bar),
                   SCENE_COLOR_DIM, false);
    float at = x;
    for (int j = 0; j < STAGES; ++j) {
        float len = per_ms * mean[j];
        if (len > 0.0f)
            scene_draw_box(d, scene_v2(at, y), scene_v2(at + len, y + bar), stage_colors[j], true);
        at += len;
        char label[48];
        snprintf(label, sizeof label, "%s %.2f", stage_names[j], (double)mean[j]);
        float lx = x + (float)(j % 5) * 0.13f * vw, ly = y - (1.6f + 1.3f * (float)(j / 5)) * text;
        scene_draw_box(d, scene_v2(lx, ly), scene_v2(lx + 0.6f * text, ly + 0.6f * text),
                       stage_colors[j], true);
        scene_draw_text(d, scene_v2(lx + 0.9f * text, ly), text, SCENE_COLOR_TEXT, label);
    }
    char label[64];
    snprintf(label, sizeof label, "step %.2f ms  (the frame of the box: 16.7 ms)",
             (double)mean[STAGES]);
    scene_draw_text(d, scene_v2(x, y + bar + 0.5f * text), text, SCENE_COLOR_TEXT, label);
    scene_text(s, "%d balls, %d worker%s: step %.3f ms on average over the last %d steps",
               counts[st->count_index], st->workers, st->workers > 1 ? "s" : "",
               (double)mean[STAGES], n);
#ifdef __EMSCRIPTEN__
    scene_text(s, "this WebAssembly build has no threads: 1 worker (the native testbed has W)");
#endif
}

const scene_def rain_scene = {
    .name = "rain",
    .category = "Benchmark",
    .title = "Rain",
    .caption =
        "1,000 to 100,000 balls rain into a box on 1 or 2 workers; the step's stages as a bar",
    .keys = "1 1,000 balls, 2 10,000, 3 100,000, W 1 or 2 workers",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
