// The testbed shared by its front ends (app.h).
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRAG_GAIN      0.5f  // of the way to the mouse per step
#define DRAG_MAX_SPEED 40.0f // m/s
#define DROP_HALF      0.3f  // dropped boxes' half side and balls' radius

static void close_scene(app *a) {
    scene *s = &a->s;
    rewind_clear(&a->rewind);
    if (s->def && s->state && s->def->destroy) s->def->destroy(s); // also after a failed create
    ledge_world_destroy(s->world);
    free(s->state);
    memset(s, 0, sizeof *s);
    a->open = false;
}

// Whether R held rewinds the scene: not in the benchmark's scenes (their
// worlds are large, and a snapshot every step would weigh on the step's
// figures), nor where the scene takes R for itself.
static bool rewinds(const app *a) {
    const scene_def *d = a->s.def;
    return d != NULL && strcmp(d->category, "Benchmark") != 0 &&
           !(d->claims && strchr(d->claims, 'r'));
}

bool app_open(app *a, int index) {
    bool restart = a->open && index == a->index;
    close_scene(a);
    if (index < 0 || index >= scene_count) return false;
    a->index = index;
    a->zoom = 1.0f;
    a->pan = scene_v2(0.0f, 0.0f);
    a->dragged = LEDGE_NULL_BODY_ID;
    memset(&a->input, 0, sizeof a->input);
    a->autopilot = true;
    a->step_ms = 0.0f;
    a->spawned = 0;
    memset(&a->profile, 0, sizeof a->profile);
    scene *s = &a->s;
    s->def = scene_list[index];
    s->state = calloc(1, s->def->state_size ? s->def->state_size : 1);
    s->height = 20.0f;
    if (!s->state || !s->def->create(s) || !s->world) {
        close_scene(a);
        return false;
    }
    a->open = true;
    if (!restart) // a restart keeps the switches; another scene starts with its own
        a->draw_flags =
            APP_DRAW_TILES | APP_DRAW_BODIES | (s->def->show_contacts ? APP_DRAW_CONTACTS : 0u);
    ledge_world_enable_profile(s->world, true);
    a->hash = ledge_world_hash(s->world);
    a->rewinding = false;
    if (rewinds(a)) rewind_push(&a->rewind, s); // the start, to rewind to
    return true;
}

void app_close(app *a) {
    close_scene(a);
    rewind_free(&a->rewind);
    draw_list_free(&a->list);
}

// Box2D's mouse joint, without a joint: the dragged body's velocity is set
// before each step to cover part of the way to the mouse.
static void drag(app *a) {
    ledge_world *w = a->s.world;
    vec2s p = ledge_body_position(w, a->dragged);
    vec2s v = scene_v2((a->drag_target.x - p.x) * DRAG_GAIN / SCENE_DT,
                       (a->drag_target.y - p.y) * DRAG_GAIN / SCENE_DT);
    float speed = sqrtf(v.x * v.x + v.y * v.y);
    if (speed > DRAG_MAX_SPEED)
        v = scene_v2(v.x * DRAG_MAX_SPEED / speed, v.y * DRAG_MAX_SPEED / speed);
    ledge_body_set_velocity(w, a->dragged, v);
}

void app_step(app *a) {
    if (!a->open) return;
    scene *s = &a->s;
    scene_input in = a->input;
    in.autopilot = a->autopilot;
    a->input.pressed = 0;
    if (s->def->step) s->def->step(s, &in);
    if (ledge_body_is_valid(s->world, a->dragged))
        drag(a);
    else
        a->dragged = LEDGE_NULL_BODY_ID;
    ledge_world_step(s->world, SCENE_DT);
    ++s->frame;
    a->profile = ledge_world_profile(s->world);
    a->step_ms = a->step_ms > 0.0f ? 0.9f * a->step_ms + 0.1f * a->profile.step : a->profile.step;
    a->hash = ledge_world_hash(s->world);
    if (rewinds(a)) rewind_push(&a->rewind, s);
}

// One step back (R held): the world and the scene's state as they were a
// step ago; false at the oldest step kept.
static bool step_back(app *a) {
    if (!rewind_back(&a->rewind, &a->s)) return false;
    a->dragged = LEDGE_NULL_BODY_ID;
    a->hash = ledge_world_hash(a->s.world);
    return true;
}

// ---------------------------------------------------------------------------
// The mouse.

static bool pick(ledge_body_id body, void *context) {
    ledge_body_id *out = context;
    *out = body;
    return false; // the first (lowest index) dynamic body under the pointer
}

static ledge_body_id body_at(ledge_world *w, vec2s p) {
    ledge_body_id found = LEDGE_NULL_BODY_ID;
    ledge_world_query_point(w, p, NULL, pick, &found);
    return found;
}

static void drop(app *a, vec2s at, bool ball) {
    ledge_world *w = a->s.world;
    if (ledge_tilemap_query_point(ledge_world_tilemap(w), at, NULL)) return;
    if (ledge_body_is_valid(w, body_at(w, at))) return;
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ball ? ledge_make_circle(scene_v2(0.0f, 0.0f), DROP_HALF)
                    : ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(DROP_HALF, DROP_HALF));
    bd.position = at;
    bd.friction = 0.5f;
    bd.bounce = ball ? 0.3f : 0.0f;
    if (ledge_body_is_valid(w, ledge_body_create(w, &bd))) ++a->spawned;
}

static void mouse(app *a, const app_input *in) {
    ledge_world *w = a->s.world;
    if (!in->left) a->dragged = LEDGE_NULL_BODY_ID;
    a->drag_target = in->mouse;
    if (in->left_pressed && in->shift) {
        drop(a, in->left_at, true);
    } else if (in->left_pressed) {
        ledge_body_id b = body_at(w, in->left_at);
        if (ledge_body_is_valid(w, b) && ledge_body_get_type(w, b) == LEDGE_BODY_DYNAMIC)
            a->dragged = b;
        else if (!ledge_body_is_valid(w, b))
            drop(a, in->left_at, false);
    }
    if (in->right_pressed) drop(a, in->right_at, true); // both may have gone down this frame
}

// ---------------------------------------------------------------------------
// A frame.

static bool pressed(const app_input *in, int key) {
    return (in->pressed & scene_key_bit(key)) != 0;
}

// The testbed's keys; true when the scene changed (the frame ends there).
static bool keys(app *a, const app_input *in) {
    static const int flag_keys[] = {APP_KEY_F1, APP_KEY_F2, APP_KEY_F3, APP_KEY_F4, APP_KEY_F5};
    for (int k = 0; k < 5; ++k)
        if (pressed(in, flag_keys[k])) a->draw_flags ^= 1u << k;
    if (pressed(in, 'p')) a->paused = !a->paused;
    if (pressed(in, 'o')) {
        a->paused = true; // Box2D's O: pause, and one step
        a->single_step = true;
    }
    bool restart = pressed(in, APP_KEY_BACKSPACE);
    int next = a->index;
    if (pressed(in, APP_KEY_PREV)) next = (a->index + scene_count - 1) % scene_count;
    if (pressed(in, APP_KEY_NEXT)) next = (a->index + 1) % scene_count;
    if (restart || next != a->index) {
        app_open(a, next);
        return true;
    }
    // Arrows or space take the controls from the autopilot.
    static const int play[] = {SCENE_KEY_LEFT, SCENE_KEY_RIGHT, SCENE_KEY_UP, SCENE_KEY_DOWN,
                               SCENE_KEY_SPACE};
    for (int k = 0; k < 5; ++k)
        if (a->interactive && pressed(in, play[k])) a->autopilot = false;
    return false;
}

void app_frame(app *a, const app_input *in, int steps) {
    if (keys(a, in) || !a->open) return;
    mouse(a, in);
    a->input.held = in->held;
    a->input.pressed |= in->pressed;
    a->input.mouse = in->mouse;
    a->input.mouse_in = in->mouse_in;
    a->rewinding = rewinds(a) && (in->held & scene_key_bit('r')) != 0;
    if (a->rewinding) { // back one step per step due (paused: per frame)
        int back = a->paused ? 1 : steps;
        for (int k = 0; k < back && step_back(a); ++k) {
        }
        return;
    }
    if (a->single_step) {
        a->single_step = false;
        app_step(a);
        return;
    }
    if (a->paused) return;
    for (int k = 0; k < steps; ++k) app_step(a);
}

// ---------------------------------------------------------------------------
// The view and the picture.

ledge_aabb app_view(const app *a, float aspect) {
    float hh = 0.5f * a->s.height * a->zoom, hw = hh * aspect;
    vec2s c = scene_v2(a->s.center.x + a->pan.x, a->s.center.y + a->pan.y);
    ledge_aabb v = {{{c.x - hw, c.y - hh}}, {{c.x + hw, c.y + hh}}};
    return v;
}

void app_zoom(app *a, float factor, vec2s at) {
    float z = a->zoom * factor;
    if (z < 0.05f || z > 20.0f) return;
    // Keep `at` where it is on screen: the centre moves toward it by 1 - factor.
    vec2s c = scene_v2(a->s.center.x + a->pan.x, a->s.center.y + a->pan.y);
    a->pan.x += (at.x - c.x) * (1.0f - factor);
    a->pan.y += (at.y - c.y) * (1.0f - factor);
    a->zoom = z;
}

static void count_point(vec2s p, float size, ledge_color color, void *ctx) {
    (void)p, (void)size, (void)color;
    ++*(int *)ctx;
}

// Contact points of the last step over the whole map (the debug draw's
// contacts, counted).
static int count_contacts(ledge_world *w) {
    ledge_tilemap_def md = ledge_tilemap_get_def(ledge_world_tilemap(w));
    float s = md.tile_size;
    ledge_aabb all = {
        {{md.origin.x - s, md.origin.y - s}},
        {{md.origin.x + s * (float)(md.width + 1), md.origin.y + s * (float)(md.height + 1)}}};
    int n = 0;
    ledge_debug_draw dd = ledge_default_debug_draw();
    dd.draw_tiles = dd.draw_bodies = dd.draw_normals = false;
    dd.draw_point = count_point;
    dd.context = &n;
    ledge_world_draw(w, &dd, all);
    return n;
}

static void write_hud(app *a) {
    const scene_def *d = a->s.def;
    a->hud_count = 0;
    snprintf(a->hud[a->hud_count++], sizeof a->hud[0], "%s / %s: %s", d->category, d->title,
             d->caption);
    // The scenes that play with the arrows and space play themselves until
    // one of those is pressed (keys()).
    bool plays = d->keys && (strstr(d->keys, "Left") || strstr(d->keys, "Space"));
    if (d->keys)
        snprintf(a->hud[a->hud_count++], sizeof a->hud[0], "keys: %s%s", d->keys,
                 plays && a->autopilot && a->interactive ? " (the autopilot plays until you do)"
                                                         : "");
    snprintf(a->hud[a->hud_count++], sizeof a->hud[0],
             "frame %d  step %.3f ms  bodies %d  contacts %d  hash %016llx%s", a->s.frame,
             (double)a->step_ms, ledge_world_body_count(a->s.world), a->contacts,
             (unsigned long long)a->hash,
             a->rewinding ? "  REWINDING"
             : a->paused  ? "  PAUSED"
                          : "");
}

void app_draw(app *a, ledge_aabb view) {
    draw_list_clear(&a->list);
    a->s.line_count = 0;
    if (!a->open) return;
    ledge_world *w = a->s.world;
    ledge_debug_draw dd = scene_draw_callbacks(&a->list);
    dd.draw_tiles = (a->draw_flags & APP_DRAW_TILES) != 0;
    dd.draw_bodies = (a->draw_flags & APP_DRAW_BODIES) != 0;
    dd.draw_contacts = (a->draw_flags & (APP_DRAW_CONTACTS | APP_DRAW_NORMALS)) != 0;
    dd.draw_normals = (a->draw_flags & APP_DRAW_NORMALS) != 0;
    dd.draw_bounds = (a->draw_flags & APP_DRAW_BOUNDS) != 0;
    dd.normal_length = 0.02f * (view.upper.y - view.lower.y);
    ledge_world_draw(w, &dd, view);
    if (a->s.def->draw) a->s.def->draw(&a->s, &a->list, view);
    if (ledge_body_is_valid(w, a->dragged)) {
        vec2s p = ledge_body_position(w, a->dragged);
        scene_draw_segment(&a->list, p, a->drag_target, SCENE_COLOR_MARK);
        scene_draw_point(&a->list, a->drag_target, 6.0f, SCENE_COLOR_MARK);
    }
    a->contacts = count_contacts(w);
    write_hud(a);
}
