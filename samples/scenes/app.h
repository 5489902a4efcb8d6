// The testbed itself, shared by its front ends (the browser's
// web/web_testbed.c, the SDL window's testbed.c, the headless gallery.c and
// the tests): the scene running, stepping at SCENE_DT, pause and single
// step, restart and the scene list's neighbours, the debug draw's
// switches, the mouse (drag a body, drop boxes and balls), zoom, and the
// HUD's figures (the step's time, bodies, contacts, the world's hash). A
// front end turns its events into an app_input, calls app_frame once per
// displayed frame with the number of fixed steps due, and paints what
// app_draw recorded (draw_list.h) with the HUD's and the scene's lines.
//
// The keys (Box2D's samples use the same letters):
//   P pause   O single step   Backspace restart   [ ] previous / next scene
//   R held: rewind, one step back per step due, through the last 10 s
//   (rewind.h; not in the benchmark's scenes, whose worlds are large)
//   F1 tiles  F2 bodies  F3 contacts  F4 normals  F5 bounding boxes
//   mouse: drag a body; click on nothing drops a box, right or shift click a ball;
//   the wheel zooms (the front ends)
#ifndef LEDGE_SAMPLE_APP_H
#define LEDGE_SAMPLE_APP_H

#include "draw_list.h"
#include "rewind.h"

/// The testbed's own keys (scene_key_bit maps them too).
enum {
    APP_KEY_F1 = 256,
    APP_KEY_F2,
    APP_KEY_F3,
    APP_KEY_F4,
    APP_KEY_F5,
    APP_KEY_BACKSPACE,
    APP_KEY_PREV, // '['
    APP_KEY_NEXT, // ']'
};

/// What the debug draw shows (app.draw_flags).
enum {
    APP_DRAW_TILES = 1,
    APP_DRAW_BODIES = 2,
    APP_DRAW_CONTACTS = 4,
    APP_DRAW_NORMALS = 8,
    APP_DRAW_BOUNDS = 16,
};

/// One displayed frame of input from a front end.
typedef struct app_input {
    vec2s mouse;        ///< The pointer's world position (app_view's frame).
    bool mouse_in;      ///< The pointer is over the view.
    bool left, right;   ///< Buttons down now.
    bool left_pressed;  ///< Went down since the last frame ...
    vec2s left_at;      ///< ... here (world units): two clicks may come in one frame.
    bool right_pressed; ///< Went down since the last frame ...
    vec2s right_at;     ///< ... here.
    bool shift;         ///< Shift is down.
    uint64_t held;      ///< Keys down (scene_key_bit).
    uint64_t pressed;   ///< Keys that went down since the last frame.
} app_input;

#define APP_HUD_LINES 3

typedef struct app {
    scene s;
    int index;           ///< The scene's place in scene_list.
    bool open;           ///< The scene was made (its create succeeded).
    bool paused;         ///< Frames do not step (single steps still do).
    bool single_step;    ///< One step at the next frame, paused or not.
    bool autopilot;      ///< The scene plays itself; a move key takes over.
    bool interactive;    ///< A person may take over (not the headless runs).
    unsigned draw_flags; ///< APP_DRAW_*.
    float zoom;          ///< The view shows scene.height * zoom.
    vec2s pan;           ///< And looks at scene.center + pan.
    ledge_body_id dragged;
    vec2s drag_target;
    scene_input input; ///< The last frame's keys and pointer, for the next step;
                       ///< `pressed` gathers the keys since the last step.
    // The HUD's figures.
    float step_ms;         ///< The step's time, smoothed over frames (ms).
    ledge_profile profile; ///< The last step's (profile.h).
    int contacts;          ///< Contact points of the last step.
    uint64_t hash;         ///< ledge_world_hash after the last step.
    int spawned;           ///< Boxes and balls dropped by the mouse.
    rewind_ring rewind;    ///< The last steps, to go back through with R held.
    bool rewinding;        ///< R is held: the last frame went back.
    scene_draw list;       ///< What app_draw recorded.
    char hud[APP_HUD_LINES][2 * SCENE_LINE];
    int hud_count;
} app;

/// Starts scene `index` of scene_list (a restart when it is the running
/// one: the debug draw's switches carry over; another scene starts with
/// its own); the pause carries over. False when the scene
/// could not be made (logged by the library); the app then holds no world.
bool app_open(app *a, int index);
/// Frees the scene and the draw list.
void app_close(app *a);
/// One displayed frame: the testbed's keys and the mouse, then `steps`
/// fixed steps unless paused (one if a single step was asked for).
void app_frame(app *a, const app_input *in, int steps);
/// One fixed step of the scene with the input of the last frame.
void app_step(app *a);
/// The part of the world a view of this width / height ratio shows.
ledge_aabb app_view(const app *a, float aspect);
/// Multiplies the zoom (less than 1 zooms in), keeping `at` in place.
void app_zoom(app *a, float factor, vec2s at);
/// Records the frame in a->list (the world and the scene's marks in
/// `view`) and writes the HUD's lines and the scene's.
void app_draw(app *a, ledge_aabb view);

#endif
