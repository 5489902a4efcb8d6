// The testbed's scenes (docs/samples.md): each one a short program of the
// public API in a file of its own (samples/scenes/*.c), written once and run
// by every front end: the browser (samples/web), the SDL window
// (samples/testbed.c), the headless picture writer (samples/gallery.c) and
// the tests (tests/test_scenes.c).
//
// A scene makes its world in `create`, may act before each step in `step`
// (input, scripted moves, queries) and may draw over the world in `draw`
// (lines, labels, the text of its panel). The testbed (testbed.h) owns the
// rest: stepping at SCENE_DT, pause, single step, restart, the debug draw,
// dragging bodies and dropping boxes and balls with the mouse, the HUD.
//
// Scenes never read the clock or anything else outside their input, so a
// scene run headless gives the same world hash in every build (release,
// sanitizers, WebAssembly). When nobody touches the keys a scene plays
// itself (`scene_input.autopilot`), so its picture and its hash show what
// it is about.
#ifndef LEDGE_SAMPLE_SCENE_H
#define LEDGE_SAMPLE_SCENE_H

#include <ledge/ledge.h>

#define SCENE_DT        (1.0f / 60.0f) // every scene steps at 60 Hz
#define SCENE_MAX_LINES 12             // lines of text a scene writes per frame
#define SCENE_LINE      96             // characters per line, with the NUL

/// The keys a front end passes on (letters and digits by their character).
enum {
    SCENE_KEY_LEFT = 1,
    SCENE_KEY_RIGHT,
    SCENE_KEY_UP,
    SCENE_KEY_DOWN,
    SCENE_KEY_SPACE,
    SCENE_KEY_COUNT_SPECIAL
};

/// One frame of input, in world units.
typedef struct scene_input {
    vec2s mouse;      ///< The pointer's world position.
    bool mouse_in;    ///< The pointer is over the view.
    bool autopilot;   ///< Nobody plays: the scene plays itself.
    uint64_t held;    ///< Keys down (scene_key_bit).
    uint64_t pressed; ///< Keys that went down since the last frame.
} scene_input;

/// The bit of a key in scene_input.held / pressed: SCENE_KEY_* or a
/// letter 'a'..'z' (either case) or a digit '0'..'9' (or one of the
/// testbed's own, 256 and up, app.h); 0 for anything else.
uint64_t scene_key_bit(int key);
bool scene_held(const scene_input *in, int key);
bool scene_pressed(const scene_input *in, int key);

typedef struct scene_def scene_def;
typedef struct scene_draw scene_draw;

/// A running scene.
typedef struct scene {
    const scene_def *def;
    ledge_world *world; ///< Made by create; destroyed by the testbed.
    void *state;        ///< def->state_size bytes, zeroed, the scene's own.
    int frame;          ///< Steps taken since create.
    vec2s center;       ///< What the view looks at (world units) ...
    float height;       ///< ... and how much of the world it shows from bottom to top.
    char lines[SCENE_MAX_LINES][SCENE_LINE]; ///< The scene's panel text, written by draw.
    int line_count;
} scene;

/// A scene: its name (the URL's and its picture's), where the list shows it
/// and what it does.
struct scene_def {
    const char *name;     ///< "pyramid": ?scene=pyramid, docs/samples/pyramid.png.
    const char *category; ///< "Stacking", "Tiles", ...
    const char *title;    ///< "Pyramid".
    const char *caption;  ///< One line: what the scene shows (panel, gallery).
    const char *keys;     ///< The scene's own keys, or NULL.
    const char *claims;   ///< Letters the scene takes from the testbed (e.g. "r"), or NULL.
    bool show_contacts;   ///< Start with contact points drawn (a switch of the testbed).
    int picture_frame;    ///< The frame samples/gallery.c pictures (0: 240, four seconds in).
    size_t state_size;    ///< Bytes of scene.state.
    /// Makes the world and what is in it; sets center and height. False
    /// when it could not (the library logged why).
    bool (*create)(scene *s);
    /// Before each step (optional).
    void (*step)(scene *s, const scene_input *in);
    /// Over the world, after it is drawn (optional): lines, labels and the
    /// panel's text (scene_text). `view` is the part of the world on screen.
    void (*draw)(scene *s, scene_draw *d, ledge_aabb view);
    /// Frees what create allocated besides the world (optional); called
    /// after a failed create too (the state starts zeroed).
    void (*destroy)(scene *s);
};

/// Every scene, in the order the lists show them (scenes.c).
extern const scene_def *const scene_list[];
extern const int scene_count;

/// The scene named `name`, or NULL.
const scene_def *scene_find(const char *name);

/// Appends a line to the scene's panel text (printf format; cut to fit).
void scene_text(scene *s, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

// ---------------------------------------------------------------------------
// Drawing over the world (draw.c): the debug draw's primitives plus text, in
// world units, recorded into a list that each front end paints.

/// The debug draw that records into `d` (the world's own drawing goes
/// through it too).
ledge_debug_draw scene_draw_callbacks(scene_draw *d);
void scene_draw_segment(scene_draw *d, vec2s a, vec2s b, ledge_color color);
void scene_draw_polygon(scene_draw *d, const vec2s *v, int n, ledge_color color);
void scene_draw_solid_polygon(scene_draw *d, const vec2s *v, int n, ledge_color color);
void scene_draw_circle(scene_draw *d, vec2s c, float r, ledge_color color);
void scene_draw_solid_circle(scene_draw *d, vec2s c, float r, ledge_color color);
void scene_draw_point(scene_draw *d, vec2s p, float size, ledge_color color);
/// A box from `lower` to `upper`, filled (solid) or outlined.
void scene_draw_box(scene_draw *d, vec2s lower, vec2s upper, ledge_color color, bool solid);
/// A label whose baseline starts at `at`, `size` world units high.
void scene_draw_text(scene_draw *d, vec2s at, float size, ledge_color color, const char *text);
/// An arrow from a to b.
void scene_draw_arrow(scene_draw *d, vec2s a, vec2s b, ledge_color color);

// ---------------------------------------------------------------------------
// Helpers the scenes share (util.c): the few lines every scene would repeat.

/// vec2s from two floats.
static inline vec2s scene_v2(float x, float y) {
    vec2s o = {{x, y}};
    return o;
}

/// sin and cos of a whole turn times `turns` (2 pi turns radians), the
/// same bits on every platform. The C library's sinf and cosf are not
/// (glibc and emscripten's musl may round differently), and a scene's
/// hash must be the same in the browser: what moves a body uses these.
float scene_sin_turns(float turns);
float scene_cos_turns(float turns);

/// A world of w x h one-metre tiles with gravity (0, -g), default otherwise.
ledge_world *scene_world(int w, int h, float g);
/// A world the size of `level`, a map in ledge's ASCII form (docs/tilemap.md:
/// one line per row, the top row first), with gravity (0, -g) and the map
/// loaded; NULL (logged) when the level is refused.
ledge_world *scene_world_ascii(const char *level, float g);
/// Sets the view (center, height) to show the whole map in a 16:9 view.
void scene_frame_map(scene *s);
/// The room the query scenes look into (30 x 14): slopes, round tiles,
/// half tiles and ceilings, three crates and two balls, a static block;
/// `s->center` and `height` frame it.
bool scene_query_room(scene *s);
/// Where a query scene aims: the pointer when it is over the view, else a
/// point circling `around` at `radius`, once every `period` seconds.
vec2s scene_aim(const scene *s, const scene_input *in, vec2s around, float radius, float period);
/// Fills the cells [x0, x1] x [y0, y1] with `tile`.
void scene_fill(ledge_world *world, int x0, int y0, int x1, int y1, ledge_tile tile);
/// A dynamic box (half extents hx, hy) or ball (radius r) at (x, y).
ledge_body_id scene_box(ledge_world *world, float x, float y, float hx, float hy, float friction);
ledge_body_id scene_ball(ledge_world *world, float x, float y, float r, float friction);
/// The up-arrows and planks that mark one-way cells in `view` (the debug
/// draw shows them as ordinary tiles).
void scene_mark_one_way(ledge_world *world, scene_draw *d, ledge_aabb view);

/// The platformer's player, as docs/character.md builds it: a kinematic
/// box made a character, moved by the character idiom (run, jump with
/// coyote time, drop through one-way platforms) at these speeds, in a
/// world whose gravity is SCENE_GRAVITY.
#define SCENE_GRAVITY   (-20.0f)
#define SCENE_RUN       6.0f
#define SCENE_JUMP      10.0f
#define SCENE_PLAYER_HX 0.3f
#define SCENE_PLAYER_HY 0.45f
#define SCENE_COYOTE    0.1f // seconds after leaving a floor a jump still counts

ledge_body_id scene_player(ledge_world *world, float x, float y);
/// One frame of the player; false when the character refused the move.
bool scene_player_move(ledge_world *world, ledge_body_id player, float run, bool jump, bool drop);
/// The arrows' run (-1..1), jump (space or up pressed) and drop (down pressed).
float scene_input_run(const scene_input *in);
bool scene_input_jump(const scene_input *in);
bool scene_input_drop(const scene_input *in);
/// The player outlined with the sides it touches marked (floor, walls,
/// ceiling) and its state as the panel's first lines.
void scene_draw_player(scene *s, scene_draw *d, ledge_body_id player);

/// Colours the scenes use for their own marks.
#define SCENE_COLOR_TEXT    0xE8ECF2u
#define SCENE_COLOR_DIM     0x9AA3B2u
#define SCENE_COLOR_GOOD    0x59D959u
#define SCENE_COLOR_BAD     0xFF594Du
#define SCENE_COLOR_MARK    0xFFD23Fu
#define SCENE_COLOR_ONE_WAY 0x8CBFFFu
#define SCENE_COLOR_PLAYER  0x3DDC84u

#endif
