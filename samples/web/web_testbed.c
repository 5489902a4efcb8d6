// The testbed (samples/scenes/app.h) for the browser's page (index.html,
// main.mjs): the page passes keys, the pointer and the number of fixed
// steps due, and paints the draw list it reads out of the module's memory
// (draw_list.h). Linked into the page's WebAssembly module with the
// library and the binding (src/bindings/js/build.sh demo), so the page
// can also reach the scene's world through the binding.
#include "../scenes/app.h"

#include <emscripten/emscripten.h>
#include <stdio.h>
#include <string.h>

#define WEB_API EMSCRIPTEN_KEEPALIVE

static app the_app;
static app_input input; // gathered between frames
static float view_box[4];
static char hash_text[17];

WEB_API int tb_scene_count(void) {
    return scene_count;
}

static const scene_def *def(int i) {
    return i >= 0 && i < scene_count ? scene_list[i] : NULL;
}

WEB_API const char *tb_scene_name(int i) {
    return def(i) ? def(i)->name : "";
}

WEB_API const char *tb_scene_category(int i) {
    return def(i) ? def(i)->category : "";
}

WEB_API const char *tb_scene_title(int i) {
    return def(i) ? def(i)->title : "";
}

WEB_API const char *tb_scene_caption(int i) {
    return def(i) ? def(i)->caption : "";
}

WEB_API const char *tb_scene_keys(int i) {
    return def(i) && def(i)->keys ? def(i)->keys : "";
}

/// Opens scene i (again: a restart); 1 when it was made.
WEB_API int tb_open(int i) {
    the_app.interactive = true;
    return app_open(&the_app, i);
}

WEB_API int tb_index(void) {
    return the_app.index;
}

/// A key went down (1) or up (0): SCENE_KEY_*, APP_KEY_*, 'a'..'z', '0'..'9'.
WEB_API void tb_key(int key, int down) {
    uint64_t bit = scene_key_bit(key);
    if (down && !(input.held & bit)) input.pressed |= bit;
    if (down)
        input.held |= bit;
    else
        input.held &= ~bit;
}

/// Every key up (the page lost the focus).
WEB_API void tb_keys_up(void) {
    input.held = 0;
}

/// The pointer at world (x, y), over the view or not; shift down or not.
WEB_API void tb_pointer(float x, float y, int inside, int shift) {
    input.mouse = scene_v2(x, y);
    input.mouse_in = inside != 0;
    input.shift = shift != 0;
}

/// A button (0 left, 2 right) went down (1) or up (0), where tb_pointer last put the pointer.
WEB_API void tb_button(int button, int down) {
    if (button == 0) {
        if (down && !input.left) input.left_pressed = true, input.left_at = input.mouse;
        input.left = down != 0;
    } else if (button == 2) {
        if (down && !input.right) input.right_pressed = true, input.right_at = input.mouse;
        input.right = down != 0;
    }
}

/// One displayed frame with `steps` fixed steps due (app_frame).
WEB_API void tb_frame(int steps) {
    app_frame(&the_app, &input, steps);
    input.pressed = 0;
    input.left_pressed = input.right_pressed = false;
}

/// Records the frame for a view of this width / height ratio; returns the
/// draw list's floats (tb_draw_count of them); tb_view has the view.
WEB_API const float *tb_draw(float aspect) {
    ledge_aabb v = app_view(&the_app, aspect);
    view_box[0] = v.lower.x, view_box[1] = v.lower.y, view_box[2] = v.upper.x,
    view_box[3] = v.upper.y;
    app_draw(&the_app, v);
    return the_app.list.data;
}

WEB_API int tb_draw_count(void) {
    return the_app.list.count;
}

WEB_API const char *tb_draw_text(void) {
    return the_app.list.text;
}

/// lower x, lower y, upper x, upper y of the last tb_draw's view.
WEB_API const float *tb_view(void) {
    return view_box;
}

/// Zooms by `factor` (below 1: in) about world (x, y).
WEB_API void tb_zoom(float factor, float x, float y) {
    app_zoom(&the_app, factor, scene_v2(x, y));
}

/// The HUD's lines, then the scene's (tb_draw writes them).
WEB_API int tb_line_count(void) {
    return the_app.hud_count + the_app.s.line_count;
}

WEB_API const char *tb_line(int k) {
    if (k < 0) return "";
    if (k < the_app.hud_count) return the_app.hud[k];
    k -= the_app.hud_count;
    return k < the_app.s.line_count ? the_app.s.lines[k] : "";
}

WEB_API int tb_hud_count(void) {
    return the_app.hud_count;
}

WEB_API int tb_frame_count(void) {
    return the_app.s.frame;
}

WEB_API int tb_paused(void) {
    return the_app.paused;
}

WEB_API int tb_flags(void) {
    return (int)the_app.draw_flags;
}

WEB_API void tb_set_flags(int flags) {
    the_app.draw_flags = (unsigned)flags;
}

WEB_API int tb_autopilot(void) {
    return the_app.autopilot;
}

WEB_API float tb_step_ms(void) {
    return the_app.step_ms;
}

WEB_API int tb_contacts(void) {
    return the_app.contacts;
}

WEB_API const char *tb_hash(void) {
    snprintf(hash_text, sizeof hash_text, "%016llx", (unsigned long long)the_app.hash);
    return hash_text;
}

/// The running scene's world (for the binding: ledge.World._adopt); it
/// changes with the scene, and when a scene makes its world again.
WEB_API ledge_world *tb_world(void) {
    return the_app.s.world;
}

/// The body being dragged: its index + 1 in the world (0: none).
WEB_API int tb_dragged(void) {
    return ledge_body_is_valid(the_app.s.world, the_app.dragged) ? (int)the_app.dragged.index1 : 0;
}
