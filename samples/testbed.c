// The testbed in an SDL2 window (docs/samples.md): every scene of
// samples/scenes, the same as in the browser, with the keys of Box2D's
// samples and the library's debug draw.
//
//   testbed [--scene NAME] [--autopilot] [--frames N] [--all] [--screenshot OUT.bmp]
//   testbed --list    the scenes' names
//
//   Tab  the scene list (click a name)   [ ]  previous / next scene
//   P pause   O single step   R held: rewind   Backspace restart   Escape quit
//   F1 tiles  F2 bodies  F3 contacts  F4 normals  F5 bounding boxes
//   mouse: drag a body; click on nothing drops a box, right click a ball;
//   the wheel zooms. The scene's own keys are in its panel (arrows, space, ...).
//
// --autopilot keeps every scene playing itself (keys do not take over);
// --frames N steps N frames as fast as it can and exits (with --all: N
// frames of each scene in turn, 60 by default), exit status 1 when a scene
// could not be made or the library logged a message; --screenshot saves
// the last frame as a BMP. Together they check the window headlessly
// (run.sh runs `testbed --all --autopilot` under Xvfb).
//
// Built only when meson finds SDL2 (Debian libsdl2-dev); needs a display.
#include "scenes/app.h"

#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW_W      1280
#define WINDOW_H      720
#define LIST_W        260 // the scene list's width (Tab)
#define MAX_STEPS     2   // fixed steps a drawn frame may take (a slow scene slows down)
#define CIRCLE_POINTS 24
#define MAX_POINTS    64
#define PI_F          3.14159265f

typedef struct testbed {
    SDL_Window *window;
    SDL_Renderer *renderer;
    app a;
    ledge_aabb view;
    float scale; // pixels per metre
    bool list, autopilot_only, quit;
    int messages; // logged by the library
    app_input in; // this frame's, gathered from the events
} testbed;

static SDL_Color rgba(Uint32 rgb, Uint8 alpha) {
    SDL_Color c = {(Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb, alpha};
    return c;
}

static void set_color(SDL_Renderer *r, SDL_Color c) {
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
}

static SDL_FPoint to_screen(const testbed *t, vec2s p) {
    SDL_FPoint o = {(p.x - t->view.lower.x) * t->scale, (t->view.upper.y - p.y) * t->scale};
    return o;
}

static vec2s to_world(const testbed *t, int x, int y) {
    return scene_v2(t->view.lower.x + (float)x / t->scale, t->view.upper.y - (float)y / t->scale);
}

// ---------------------------------------------------------------------------
// Text in a 3 x 5 pixel font (SDL2 has none): capitals, digits and the
// punctuation the panels use; small letters are drawn as capitals.

static const char glyph_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.:/=(),'+_%!?;<>[]\"*#";
// One octal digit per row, top row first; bit 4 is the left column.
static const unsigned short glyph_rows[] = {
    025755, 065656, 034443, 065556, 074647, 074644, 034553, 055755, 072227, 011152, 055655, 044447,
    057755, 065555, 025552, 065644, 025563, 065655, 034216, 072222, 055557, 055552, 055775, 055255,
    055222, 071247, 075557, 026227, 061247, 061216, 055711, 074616, 034757, 071222, 075757, 075716,
    000700, 000002, 002020, 011244, 007070, 024442, 021112, 000024, 022000, 002720, 000007, 051245,
    022202, 061202, 002024, 012421, 042124, 064446, 031113, 055000, 005250, 057575};

static void draw_text(SDL_Renderer *r, float x, float y, float px, SDL_Color c, const char *s) {
    set_color(r, c);
    for (; *s; ++s, x += 4.0f * px) {
        int ch = *s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s;
        const char *at = ch ? strchr(glyph_chars, ch) : NULL;
        if (ch == ' ' || !at) continue;
        unsigned bits = glyph_rows[at - glyph_chars];
        SDL_FRect dots[15];
        int n = 0;
        for (int i = 0; i < 15; ++i) {
            if (!(bits >> (14 - i) & 1u)) continue;
            SDL_FRect d = {x + (float)(i % 3) * px, y + (float)(i / 3) * px, px, px};
            dots[n++] = d;
        }
        SDL_RenderFillRectsF(r, dots, n);
    }
}

// ---------------------------------------------------------------------------
// The draw list (draw_list.h) painted with SDL's renderer.

static float cross3(SDL_FPoint a, SDL_FPoint b, SDL_FPoint c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// A fan from one corner covers a tile's outline when none of its triangles
// turns the other way: any corner of a convex outline, the corner facing
// the arc of a CONCAVE one (a square less a quarter disc). Screen y points
// down, so a counter-clockwise outline turns clockwise here.
static int fan_corner(const SDL_FPoint *p, int n) {
    for (int from = 0; from < n; ++from) {
        bool ok = true;
        for (int k = 1; k + 1 < n && ok; ++k)
            ok = cross3(p[from], p[(from + k) % n], p[(from + k + 1) % n]) <= 1e-3f;
        if (ok) return from;
    }
    return 0;
}

static void fill(SDL_Renderer *r, const SDL_FPoint *p, int n, SDL_Color c) {
    SDL_Vertex v[3 * MAX_POINTS];
    int m = 0, from = fan_corner(p, n);
    for (int k = 1; k + 1 < n; ++k) {
        SDL_FPoint tri[3] = {p[from], p[(from + k) % n], p[(from + k + 1) % n]};
        for (int j = 0; j < 3; ++j) {
            SDL_Vertex vx = {tri[j], c, {0.0f, 0.0f}};
            v[m++] = vx;
        }
    }
    SDL_RenderGeometry(r, NULL, v, m, NULL, 0);
}

static void outline(SDL_Renderer *r, const SDL_FPoint *p, int n, SDL_Color c) {
    SDL_FPoint loop[MAX_POINTS + 1];
    memcpy(loop, p, sizeof *p * (size_t)n);
    loop[n] = p[0];
    set_color(r, c);
    SDL_RenderDrawLinesF(r, loop, n + 1);
}

static void paint_polygon(const vec2s *v, int n, ledge_color color, bool solid, void *ctx) {
    testbed *t = ctx;
    SDL_FPoint p[MAX_POINTS];
    n = n > MAX_POINTS ? MAX_POINTS : n;
    for (int i = 0; i < n; ++i) p[i] = to_screen(t, v[i]);
    if (color == LEDGE_COLOR_TILE && !solid) { // the ground, filled
        fill(t->renderer, p, n, rgba(0x4A5263u, 255));
        outline(t->renderer, p, n, rgba(0x7B8596u, 255));
        return;
    }
    if (solid) fill(t->renderer, p, n, rgba(color, 110));
    outline(t->renderer, p, n, rgba(color, 255));
}

static void paint_circle(vec2s c, float radius, ledge_color color, bool solid, void *ctx) {
    vec2s v[CIRCLE_POINTS];
    for (int i = 0; i < CIRCLE_POINTS; ++i) {
        float a = 2.0f * PI_F * (float)i / CIRCLE_POINTS;
        v[i] = scene_v2(c.x + radius * cosf(a), c.y + radius * sinf(a));
    }
    paint_polygon(v, CIRCLE_POINTS, color, solid, ctx);
}

static void paint_segment(vec2s a, vec2s b, ledge_color color, void *ctx) {
    testbed *t = ctx;
    SDL_FPoint p = to_screen(t, a), q = to_screen(t, b);
    set_color(t->renderer, rgba(color, 255));
    SDL_RenderDrawLineF(t->renderer, p.x, p.y, q.x, q.y);
}

static void paint_point(vec2s at, float size, ledge_color color, void *ctx) {
    testbed *t = ctx;
    SDL_FPoint p = to_screen(t, at);
    SDL_FRect r = {p.x - 0.5f * size, p.y - 0.5f * size, size, size};
    set_color(t->renderer, rgba(color, 255));
    SDL_RenderFillRectF(t->renderer, &r);
}

static void paint_text(vec2s at, float size, ledge_color color, const char *text, void *ctx) {
    testbed *t = ctx;
    SDL_FPoint p = to_screen(t, at);
    float px = fmaxf(1.0f, floorf(size * t->scale / 6.0f)); // a glyph is 5 dots high, plus a gap
    draw_text(t->renderer, p.x, p.y - 5.0f * px, px, rgba(color, 255), text);
}

// ---------------------------------------------------------------------------
// The frame: the world, the panel, the list, the help line.

static void draw_panel(testbed *t) {
    SDL_Renderer *r = t->renderer;
    const app *a = &t->a;
    int lines = a->hud_count + a->s.line_count;
    float x = t->list ? LIST_W + 10.0f : 10.0f, y = 10.0f;
    SDL_FRect back = {x - 6.0f, 4.0f, WINDOW_W - x, 14.0f * (float)lines + 10.0f};
    set_color(r, rgba(0x0C0E12u, 190));
    SDL_RenderFillRectF(r, &back);
    for (int k = 0; k < a->hud_count; ++k, y += 14.0f)
        draw_text(r, x, y, 2.0f, rgba(k == 0 ? 0xF2F2F2u : 0xB8BCC4u, 255), a->hud[k]);
    for (int k = 0; k < a->s.line_count; ++k, y += 14.0f)
        draw_text(r, x, y, 2.0f, rgba(SCENE_COLOR_TEXT, 255), a->s.lines[k]);
    draw_text(r, x, WINDOW_H - 16.0f, 2.0f, rgba(0x9AA3B2u, 255),
              "TAB list  [ ] scene  P pause  O step  R rewind  BKSP restart  F1-F5 tiles bodies "
              "contacts normals "
              "boxes  mouse drag / drop  wheel zoom");
}

static const char *switch_names[] = {"F1 tiles", "F2 bodies", "F3 contacts", "F4 normals",
                                     "F5 boxes"};

// The scene list by category, and the debug draw's switches under it.
static void draw_list(testbed *t) {
    SDL_Renderer *r = t->renderer;
    SDL_FRect back = {0.0f, 0.0f, LIST_W, WINDOW_H};
    set_color(r, rgba(0x15171Cu, 235));
    SDL_RenderFillRectF(r, &back);
    float y = 10.0f;
    const char *category = "";
    for (int i = 0; i < scene_count; ++i) {
        const scene_def *d = scene_list[i];
        if (strcmp(d->category, category) != 0) {
            category = d->category;
            y += 6.0f;
            draw_text(r, 10.0f, y, 2.0f, rgba(0x9AA3B2u, 255), category);
            y += 14.0f;
        }
        if (i == t->a.index) {
            SDL_FRect hi = {14.0f, y - 3.0f, LIST_W - 24.0f, 16.0f};
            set_color(r, rgba(0x33415Cu, 255));
            SDL_RenderFillRectF(r, &hi);
        }
        draw_text(r, 22.0f, y, 2.0f, rgba(0xE8ECF2u, 255), d->title);
        y += 16.0f;
    }
    y += 10.0f;
    for (int k = 0; k < 5; ++k, y += 14.0f)
        draw_text(r, 10.0f, y, 2.0f, rgba(t->a.draw_flags & (1u << k) ? 0x59D959u : 0x6A707Cu, 255),
                  switch_names[k]);
}

// The scene under a click in the list, or -1.
static int list_hit(int mx, int my) {
    float y = 10.0f;
    const char *category = "";
    for (int i = 0; i < scene_count; ++i) {
        if (strcmp(scene_list[i]->category, category) != 0) {
            category = scene_list[i]->category;
            y += 20.0f;
        }
        if (mx < LIST_W && my >= y - 3.0f && my < y + 13.0f) return i;
        y += 16.0f;
    }
    return -1;
}

static void draw(testbed *t) {
    t->view = app_view(&t->a, (float)WINDOW_W / WINDOW_H);
    t->scale = (float)WINDOW_H / (t->view.upper.y - t->view.lower.y);
    app_draw(&t->a, t->view);
    SDL_SetRenderDrawColor(t->renderer, 0x1C, 0x1F, 0x27, 255);
    SDL_RenderClear(t->renderer);
    draw_painter p = {paint_polygon, paint_circle, paint_segment, paint_point, paint_text, t};
    draw_list_paint(&t->a.list, &p);
    if (t->list) draw_list(t);
    draw_panel(t);
}

// ---------------------------------------------------------------------------
// Input.

static int key_of(SDL_Keycode k) {
    if (k >= SDLK_a && k <= SDLK_z) return 'a' + (int)(k - SDLK_a);
    if (k >= SDLK_0 && k <= SDLK_9) return '0' + (int)(k - SDLK_0);
    switch (k) {
    case SDLK_LEFT:
        return SCENE_KEY_LEFT;
    case SDLK_RIGHT:
        return SCENE_KEY_RIGHT;
    case SDLK_UP:
        return SCENE_KEY_UP;
    case SDLK_DOWN:
        return SCENE_KEY_DOWN;
    case SDLK_SPACE:
        return SCENE_KEY_SPACE;
    case SDLK_F1:
        return APP_KEY_F1;
    case SDLK_F2:
        return APP_KEY_F2;
    case SDLK_F3:
        return APP_KEY_F3;
    case SDLK_F4:
        return APP_KEY_F4;
    case SDLK_F5:
        return APP_KEY_F5;
    case SDLK_BACKSPACE:
        return APP_KEY_BACKSPACE;
    case SDLK_LEFTBRACKET:
        return APP_KEY_PREV;
    case SDLK_RIGHTBRACKET:
        return APP_KEY_NEXT;
    default:
        return 0;
    }
}

static void open_scene(testbed *t, int index) {
    if (!app_open(&t->a, index))
        fprintf(stderr, "testbed: scene %s could not be made\n", scene_list[index]->name);
}

static void on_event(testbed *t, const SDL_Event *e) {
    app_input *in = &t->in;
    switch (e->type) {
    case SDL_QUIT:
        t->quit = true;
        break;
    case SDL_KEYDOWN:
        if (e->key.keysym.sym == SDLK_ESCAPE) t->quit = true;
        if (e->key.keysym.sym == SDLK_TAB && !e->key.repeat) t->list = !t->list;
        if (!e->key.repeat) in->pressed |= scene_key_bit(key_of(e->key.keysym.sym));
        break;
    case SDL_MOUSEBUTTONDOWN:
        if (t->list && e->button.x < LIST_W) {
            int i = list_hit(e->button.x, e->button.y);
            if (i >= 0) open_scene(t, i);
            break;
        }
        if (e->button.button == SDL_BUTTON_LEFT) {
            in->left_pressed = true;
            in->left_at = to_world(t, e->button.x, e->button.y);
        }
        if (e->button.button == SDL_BUTTON_RIGHT) {
            in->right_pressed = true;
            in->right_at = to_world(t, e->button.x, e->button.y);
        }
        break;
    case SDL_MOUSEWHEEL: {
        int mx, my;
        SDL_GetMouseState(&mx, &my);
        app_zoom(&t->a, e->wheel.y > 0 ? 0.9f : 1.0f / 0.9f, to_world(t, mx, my));
        break;
    }
    default:
        break;
    }
}

// The frame's input: the events since the last frame, then what is held.
static void gather_input(testbed *t) {
    memset(&t->in, 0, sizeof t->in);
    SDL_Event e;
    while (SDL_PollEvent(&e)) on_event(t, &e);
    app_input *in = &t->in;
    const Uint8 *key = SDL_GetKeyboardState(NULL);
    static const SDL_Scancode held[] = {SDL_SCANCODE_LEFT, SDL_SCANCODE_RIGHT, SDL_SCANCODE_UP,
                                        SDL_SCANCODE_DOWN, SDL_SCANCODE_SPACE};
    for (int k = 0; k < 5; ++k)
        if (key[held[k]]) in->held |= scene_key_bit(SCENE_KEY_LEFT + k);
    for (int c = 0; c < 26; ++c)
        if (key[SDL_SCANCODE_A + c]) in->held |= scene_key_bit('a' + c);
    in->shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
    int mx, my;
    Uint32 buttons = SDL_GetMouseState(&mx, &my);
    in->left = (buttons & SDL_BUTTON_LMASK) != 0;
    in->right = (buttons & SDL_BUTTON_RMASK) != 0;
    in->mouse_in = !(t->list && mx < LIST_W) && (SDL_GetMouseFocus() == t->window);
    in->mouse = to_world(t, mx, my);
    if (t->autopilot_only) in->held = 0; // the scenes play themselves
}

// ---------------------------------------------------------------------------
// The loops.

// Real time: SCENE_DT steps as the wall clock asks for them, at most
// MAX_STEPS a drawn frame (a scene slower than real time slows down).
static void run_real_time(testbed *t) {
    Uint64 freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter();
    double acc = 0.0;
    while (!t->quit) {
        gather_input(t);
        Uint64 now = SDL_GetPerformanceCounter();
        acc += (double)(now - last) / (double)freq;
        last = now;
        int steps = (int)(acc / SCENE_DT);
        acc -= steps * (double)SCENE_DT;
        if (steps > MAX_STEPS) steps = MAX_STEPS, acc = 0.0;
        app_frame(&t->a, &t->in, steps);
        draw(t);
        SDL_RenderPresent(t->renderer);
        SDL_Delay(1); // without vsync (e.g. under Xvfb), do not spin
    }
}

// --frames N: one step per drawn frame, as fast as it goes.
static void run_frames(testbed *t, int frames) {
    for (int f = 0; f < frames && !t->quit; ++f) {
        gather_input(t);
        app_frame(&t->a, &t->in, 1);
        draw(t);
        SDL_RenderPresent(t->renderer);
    }
}

// Draws the frame again and saves it (the back buffer is undefined after
// SDL_RenderPresent, so it is read before presenting).
static bool save_screenshot(testbed *t, const char *path) {
    draw(t);
    int w, h;
    SDL_GetRendererOutputSize(t->renderer, &w, &h);
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    bool ok = s &&
              SDL_RenderReadPixels(t->renderer, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels,
                                   s->pitch) == 0 &&
              SDL_SaveBMP(s, path) == 0;
    if (ok)
        printf("wrote %s\n", path);
    else
        fprintf(stderr, "testbed: cannot save %s: %s\n", path, SDL_GetError());
    SDL_FreeSurface(s);
    return ok;
}

static void count_message(ledge_log_level level, const char *message, void *user) {
    ++((testbed *)user)->messages;
    fprintf(stderr, "ledge: %s%s\n", level == LEDGE_LOG_ERROR ? "" : "(not an error) ", message);
}

typedef struct options {
    int frames; // 0: real time until quit
    const char *scene, *screenshot;
    bool autopilot, all;
} options;

static bool parse_options(int argc, char **argv, options *o) {
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--autopilot") == 0) {
            o->autopilot = true;
        } else if (strcmp(argv[i], "--all") == 0) {
            o->all = true;
        } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 10000000) return false;
            o->frames = (int)n;
        } else if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc) {
            o->scene = argv[++i];
        } else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) {
            o->screenshot = argv[++i];
        } else {
            return false;
        }
    }
    return !o->scene || scene_find(o->scene);
}

static bool open_window(testbed *t) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) return false;
    t->window = SDL_CreateWindow("ledge testbed", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                 WINDOW_W, WINDOW_H, 0);
    if (!t->window) return false;
    t->renderer = SDL_CreateRenderer(t->window, -1, SDL_RENDERER_PRESENTVSYNC);
    if (!t->renderer) return false;
    SDL_SetRenderDrawBlendMode(t->renderer, SDL_BLENDMODE_BLEND);
    return true;
}

static int index_of(const char *name) {
    for (int i = 0; i < scene_count; ++i)
        if (strcmp(scene_list[i]->name, name) == 0) return i;
    return 0;
}

// --all: every scene for `frames` frames; false when one could not be made.
static bool run_all(testbed *t, int frames) {
    bool ok = true;
    for (int i = 0; i < scene_count && !t->quit; ++i) {
        int before = t->messages;
        if (!app_open(&t->a, i)) {
            fprintf(stderr, "testbed: scene %s could not be made\n", scene_list[i]->name);
            ok = false;
            continue;
        }
        t->a.interactive = false;
        run_frames(t, frames);
        printf("testbed: %-18s %d frames, %d bodies, hash %016llx%s\n", scene_list[i]->name,
               t->a.s.frame, ledge_world_body_count(t->a.s.world), (unsigned long long)t->a.hash,
               t->messages > before ? "  (messages logged)" : "");
    }
    return ok;
}

int main(int argc, char **argv) {
    static testbed t;
    options o;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) { // the scenes' names, no window
        for (int i = 0; i < scene_count; ++i) printf("%s\n", scene_list[i]->name);
        return 0;
    }
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: testbed [--scene NAME] [--autopilot] [--frames N] [--all] "
                        "[--screenshot OUT.bmp]\n");
        return 2;
    }
    ledge_set_log_hook(count_message, &t);
    t.autopilot_only = o.autopilot;
    bool ok = open_window(&t);
    if (!ok) fprintf(stderr, "testbed: SDL: %s\n", SDL_GetError());
    if (ok && o.all) {
        ok = run_all(&t, o.frames ? o.frames : 60);
    } else if (ok) {
        ok = app_open(&t.a, o.scene ? index_of(o.scene) : index_of("level"));
        t.a.interactive = !o.autopilot;
        if (ok && o.frames > 0)
            run_frames(&t, o.frames);
        else if (ok)
            run_real_time(&t);
    }
    if (ok && o.screenshot) ok = save_screenshot(&t, o.screenshot);
    app_close(&t.a);
    if (t.renderer) SDL_DestroyRenderer(t.renderer);
    if (t.window) SDL_DestroyWindow(t.window);
    SDL_Quit();
    return ok && t.messages == 0 ? 0 : 1;
}
