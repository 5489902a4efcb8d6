// The testbed's scenes (samples/scenes, docs/samples.md) headless: each one
// plays itself for 600 frames, drawn every frame as a front end draws it,
// without a single message through the log hook, to the same world hash
// twice; its hash (and one folded over every frame) goes to the file
// LEDGE_SCENES_HASH_OUT, which run.sh compares between the sanitizer and
// release builds (tests/web/hash.test.mjs compares the WebAssembly build's
// with `replay_hashes scenes`). Then the testbed's own controls on a scene:
// pause and single step, restart, the debug draw's switches, dropping and
// dragging with the mouse, and the rain's workers giving the same bits.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scenes/app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ASPECT (16.0f / 9.0f)

static int g_messages;
static char g_first[512];

static void count_messages(ledge_log_level level, const char *message, void *user) {
    (void)level, (void)user;
    if (g_messages++ == 0) snprintf(g_first, sizeof g_first, "%s", message);
}

static int frames(void) {
    return getenv("LEDGE_UNDER_VALGRIND") ? 120 : 600;
}

static int index_of(const char *name) {
    for (int i = 0; i < scene_count; ++i)
        if (strcmp(scene_list[i]->name, name) == 0) return i;
    fail_msg("no scene %s", name);
    return -1;
}

// Plays scene i for n frames as the front ends do (a step, then the
// frame drawn); the world's last hash and a fold of every frame's.
static uint64_t play(app *a, int i, int n, uint64_t *fold) {
    assert_true(app_open(a, i));
    *fold = 0xcbf29ce484222325ull;
    for (int f = 0; f < n; ++f) {
        app_step(a);
        app_draw(a, app_view(a, ASPECT));
        *fold = (*fold ^ a->hash) * 0x100000001b3ull;
    }
    assert_int_equal(a->s.frame, n);
    return a->hash;
}

static void every_scene(void **state) {
    (void)state;
    static app a, b;
    const char *out = getenv("LEDGE_SCENES_HASH_OUT");
    FILE *f = out && !getenv("LEDGE_UNDER_VALGRIND") ? fopen(out, "w") : NULL;
    int n = frames();
    assert_true(scene_count >= 23);
    for (int i = 0; i < scene_count; ++i) {
        const scene_def *d = scene_list[i];
        g_messages = 0;
        ledge_set_log_hook(count_messages, NULL);
        uint64_t fold, fold2;
        uint64_t h = play(&a, i, n, &fold);
        uint64_t h2 = play(&b, i, n, &fold2);
        ledge_set_log_hook(NULL, NULL);
        if (g_messages)
            fail_msg("scene %s: %d messages, the first: %s", d->name, g_messages, g_first);
        assert_true(h == h2 && fold == fold2); // the same scene plays the same bits
        assert_true(a.list.count > 0);         // it drew something
        assert_false(a.list.failed);
        printf("%-18s %016llx %016llx  %d bodies, %d lines\n", d->name, (unsigned long long)h,
               (unsigned long long)fold, ledge_world_body_count(a.s.world), a.s.line_count);
        if (f)
            fprintf(f, "%s %016llx %016llx\n", d->name, (unsigned long long)h,
                    (unsigned long long)fold);
    }
    if (f) fclose(f);
    app_close(&a);
    app_close(&b);
}

// Every scene has a distinct name, fit for a URL and a file name, and says
// what it is.
static void names_and_captions(void **state) {
    (void)state;
    for (int i = 0; i < scene_count; ++i) {
        const scene_def *d = scene_list[i];
        assert_non_null(d->name);
        assert_true(strlen(d->name) > 0 &&
                    strspn(d->name, "abcdefghijklmnopqrstuvwxyz_") == strlen(d->name));
        assert_true(d->category && d->title && d->caption && d->create);
        assert_true(strlen(d->caption) > 20 && strlen(d->caption) < 100);
        assert_ptr_equal(scene_find(d->name), d);
        for (int j = 0; j < i; ++j) assert_string_not_equal(scene_list[j]->name, d->name);
    }
    assert_null(scene_find("no such scene"));
}

static app_input no_input(void) {
    app_input in;
    memset(&in, 0, sizeof in);
    return in;
}

static app_input key(int k) {
    app_input in = no_input();
    in.pressed = scene_key_bit(k);
    return in;
}

// P stops the frames, O takes exactly one step (and pauses), Backspace
// restarts with the switches kept, F3 turns the contact points on.
static void pause_step_restart(void **state) {
    (void)state;
    static app a;
    assert_true(app_open(&a, index_of("pyramid")));
    app_input none = no_input(), p = key('p'), o = key('o'), r = key(APP_KEY_BACKSPACE),
              f3 = key(APP_KEY_F3);
    app_frame(&a, &none, 3);
    assert_int_equal(a.s.frame, 3);
    app_frame(&a, &p, 1);
    assert_true(a.paused);
    uint64_t h = a.hash;
    for (int k = 0; k < 10; ++k) app_frame(&a, &none, 2);
    assert_int_equal(a.s.frame, 3);
    assert_true(a.hash == h);
    app_frame(&a, &o, 5);
    assert_int_equal(a.s.frame, 4);
    assert_true(a.paused);
    app_frame(&a, &o, 0);
    assert_int_equal(a.s.frame, 5);
    app_frame(&a, &p, 1); // on again: this frame steps
    assert_int_equal(a.s.frame, 6);
    unsigned flags = a.draw_flags;
    app_frame(&a, &f3, 0);
    assert_int_equal(a.draw_flags, flags ^ APP_DRAW_CONTACTS);
    app_frame(&a, &r, 1);
    assert_int_equal(a.s.frame, 0); // a fresh pyramid, the switches kept
    assert_int_equal(a.draw_flags, flags ^ APP_DRAW_CONTACTS);
    app_input next = key(APP_KEY_NEXT);
    app_frame(&a, &next, 0);
    assert_int_equal(a.index, index_of("pyramid") + 1);
    app_close(&a);
}

typedef struct highest {
    ledge_world *world;
    ledge_body_id id;
    float y;
} highest;

static bool take_highest(ledge_body_id body, void *context) {
    highest *h = context;
    float y = ledge_body_position(h->world, body).y;
    if (y > h->y) h->y = y, h->id = body;
    return true;
}

// A click on nothing drops a box, a right click a ball, a click inside a
// tile nothing; a crate held by the mouse follows it, and stays put once
// let go of elsewhere.
static void mouse(void **state) {
    (void)state;
    static app a;
    assert_true(app_open(&a, index_of("pyramid")));
    ledge_world *w = a.s.world;
    int bodies = ledge_world_body_count(w);
    app_input in = no_input();
    in.mouse_in = true;
    in.mouse = in.left_at = scene_v2(3.0f, 15.0f); // empty sky
    in.left = in.left_pressed = true;
    app_frame(&a, &in, 1);
    assert_int_equal(ledge_world_body_count(w), bodies + 1);
    in = no_input();
    in.mouse_in = true;
    in.mouse = in.right_at = scene_v2(29.0f, 15.0f);
    in.right = in.right_pressed = true;
    app_frame(&a, &in, 1);
    assert_int_equal(ledge_world_body_count(w), bodies + 2);
    in.mouse = in.right_at = scene_v2(5.0f, 0.5f); // inside the floor
    app_frame(&a, &in, 1);
    assert_int_equal(ledge_world_body_count(w), bodies + 2); // nothing dropped into a wall
    // Two clicks in one frame, each where it was made: a box and a ball.
    in = no_input();
    in.mouse_in = true;
    in.left = in.left_pressed = in.right = in.right_pressed = true;
    in.left_at = scene_v2(4.0f, 15.0f);
    in.mouse = in.right_at = scene_v2(6.0f, 15.0f);
    app_frame(&a, &in, 1);
    assert_int_equal(ledge_world_body_count(w), bodies + 4);
    in.left = in.right = false;
    app_frame(&a, &in, 1);
    // The top crate of the pyramid, dragged 1.5 m up and 3 m to the right.
    highest h = {w, LEDGE_NULL_BODY_ID, -1e9f};
    ledge_aabb box = {{{10.0f, 5.0f}}, {{22.0f, 40.0f}}};
    ledge_world_query_aabb(w, box, NULL, take_highest, &h);
    assert_true(ledge_body_is_valid(w, h.id));
    vec2s start = ledge_body_position(w, h.id);
    in = no_input();
    in.mouse_in = true;
    in.mouse = in.left_at = start;
    in.left = in.left_pressed = true;
    app_frame(&a, &in, 1);
    assert_true(LEDGE_ID_EQUALS(a.dragged, h.id));
    in.left_pressed = false;
    vec2s target = scene_v2(start.x + 3.0f, start.y + 1.5f);
    in.mouse = target;
    for (int k = 0; k < 60; ++k) app_frame(&a, &in, 1);
    vec2s p = ledge_body_position(w, h.id);
    printf("dragged from (%.3f, %.3f) to (%.3f, %.3f), the mouse at (%.3f, %.3f)\n",
           (double)start.x, (double)start.y, (double)p.x, (double)p.y, (double)target.x,
           (double)target.y);
    assert_true(fabsf(p.x - target.x) < 0.1f && fabsf(p.y - target.y) < 0.1f);
    in.left = false;
    app_frame(&a, &in, 1);
    assert_true(a.dragged.index1 == 0);
    assert_int_equal(ledge_world_body_count(w), bodies + 4);
    app_close(&a);
}

// The wheel's zoom keeps the point under the pointer where it was on
// screen (the same fraction of the view across and up), and stops at its
// limits.
static void zoom_keeps_the_point(void **state) {
    (void)state;
    static app a;
    assert_true(app_open(&a, index_of("pyramid")));
    vec2s at = scene_v2(20.0f, 7.0f);
    for (int k = 0; k < 8; ++k) {
        ledge_aabb v0 = app_view(&a, ASPECT);
        app_zoom(&a, k % 3 ? 0.9f : 1.0f / 0.9f, at);
        ledge_aabb v1 = app_view(&a, ASPECT);
        float fx0 = (at.x - v0.lower.x) / (v0.upper.x - v0.lower.x);
        float fx1 = (at.x - v1.lower.x) / (v1.upper.x - v1.lower.x);
        float fy0 = (at.y - v0.lower.y) / (v0.upper.y - v0.lower.y);
        float fy1 = (at.y - v1.lower.y) / (v1.upper.y - v1.lower.y);
        assert_float_equal(fx0, fx1, 1e-4f);
        assert_float_equal(fy0, fy1, 1e-4f);
    }
    for (int k = 0; k < 200; ++k) app_zoom(&a, 0.5f, at);
    assert_true(a.zoom >= 0.05f);
    app_close(&a);
}

// The rain's W: the same world on two workers, the same bits.
static void rain_workers(void **state) {
    (void)state;
    static app a, b;
    assert_true(app_open(&a, index_of("rain")));
    assert_true(app_open(&b, index_of("rain")));
    app_input w = key('w'), none = no_input();
    app_frame(&b, &w, 0); // b: 2 workers from the start
    app_frame(&b, &none, 0);
    assert_int_equal(b.s.frame, 0);
    for (int k = 0; k < 120; ++k) {
        app_frame(&a, &none, 1);
        app_frame(&b, &none, 1);
        assert_true(a.hash == b.hash);
    }
    app_draw(&b, app_view(&b, ASPECT));
    assert_non_null(strstr(b.s.lines[0], "2 workers"));
    app_close(&a);
    app_close(&b);
}

// The panel's line of scene `name` that starts with `start`, after `n` frames.
static void line_after(const char *name, int n, const char *start, char *out, size_t size) {
    static app a;
    assert_true(app_open(&a, index_of(name)));
    for (int f = 0; f < n; ++f) app_step(&a);
    app_draw(&a, app_view(&a, ASPECT));
    out[0] = 0;
    for (int k = 0; k < a.s.line_count; ++k)
        if (strncmp(a.s.lines[k], start, strlen(start)) == 0)
            snprintf(out, size, "%s", a.s.lines[k]);
    app_close(&a);
    if (!out[0]) fail_msg("scene %s: no line starting with \"%s\"", name, start);
}

// What docs/samples.md says the scenes show, after 600 frames: no bullet
// through the wall, no fast ball out of its box, no seam slowing a slide,
// both crates of the push puzzle on their switches and its tower carried.
static void what_the_scenes_show(void **state) {
    (void)state;
    char line[SCENE_LINE];
    line_after("bullets", frames(), "", line, sizeof line);
    assert_non_null(strstr(line, "; 0 got through the wall"));
    for (int k = 0; k < 2; ++k) {
        line_after("no_tunnel", frames(), k ? "ordinary ball" : "bullet", line, sizeof line);
        assert_non_null(strstr(line, "50.0 m/s, left the box 0 times"));
    }
    static const char *const rows[] = {"FULL row, crate", "FULL row, ball", "HALF row, crate",
                                       "HALF row, ball"};
    for (int k = 0; k < 4; ++k) {
        line_after("seams", frames(), rows[k], line, sizeof line);
        assert_non_null(strstr(line, "lowest since 6.00 m/s"));
    }
    if (frames() >= 600) { // both crates on their switches, the tower on its way
        line_after("push", frames(), "switches", line, sizeof line);
        assert_non_null(strstr(line, "switches on on;  pushing the boulder"));
        line_after("push", frames(), "tower at x", line, sizeof line);
        float x = 0.0f, off = 1.0f;
        assert_int_equal(sscanf(line, "tower at x %f, %*f m/s; its top crate %f", &x, &off), 2);
        assert_true(x > 49.0f && fabsf(off) < 0.05f);
    }
}

// docs/samples.md shows every scene: its picture (docs/samples/NAME.png,
// there) and its line (**NAME**).
static void samples_doc(void **state) {
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/samples.md", LEDGE_SOURCE_DIR);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char doc[1 << 16];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = 0;
    for (int i = 0; i < scene_count; ++i) {
        char want[128];
        snprintf(want, sizeof want, "](samples/%s.png)", scene_list[i]->name);
        if (!strstr(doc, want))
            fail_msg("docs/samples.md has no picture of %s", scene_list[i]->name);
        snprintf(want, sizeof want, "**%s**", scene_list[i]->name);
        if (!strstr(doc, want)) fail_msg("docs/samples.md has no line of %s", scene_list[i]->name);
        snprintf(path, sizeof path, "%s/docs/samples/%s.png", LEDGE_SOURCE_DIR,
                 scene_list[i]->name);
        FILE *png = fopen(path, "rb");
        if (!png) fail_msg("%s is missing (samples/gallery docs/samples)", path);
        fclose(png);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_and_captions),
        cmocka_unit_test(pause_step_restart),
        cmocka_unit_test(mouse),
        cmocka_unit_test(rain_workers),
        cmocka_unit_test(zoom_keeps_the_point),
        cmocka_unit_test(what_the_scenes_show),
        cmocka_unit_test(samples_doc),
        cmocka_unit_test(every_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
