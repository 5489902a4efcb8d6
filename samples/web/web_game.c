// The sample game (samples/game.c) for the web page (index.html): the same
// level, player and pile, stepped by the page at 60 Hz. Linked into the
// page's WebAssembly module with the binding (src/bindings/js/build.sh
// demo); the page reads the game's world through the binding.
#include "../game.h"

#include <emscripten/emscripten.h>
#include <stdlib.h>

#define WEB_API EMSCRIPTEN_KEEPALIVE

// Floats per body in web_game_bodies: x, y, kind (0 box, 1 circle, 2
// player, 3 platform), half width or radius, half height.
enum { BODY_FLOATS = 5 };

static float body_buffer[(GAME_MAX_BODIES + 2) * BODY_FLOATS];
static float player_buffer[8];

/// A new game, or NULL (the library logged why).
WEB_API game *web_game_create(void) {
    game *g = malloc(sizeof *g);
    if (g && !game_create(g)) {
        free(g);
        g = NULL;
    }
    return g;
}

WEB_API void web_game_destroy(game *g) {
    if (!g) return;
    game_destroy(g);
    free(g);
}

/// One fixed frame with this input (run -1..1; jump, drop 0 or 1).
WEB_API void web_game_update(game *g, float run, int jump, int drop) {
    game_input in = {run, jump != 0, drop != 0};
    game_update(g, &in);
}

/// One fixed frame played by the autopilot (the headless demo's input).
WEB_API void web_game_autopilot(game *g) {
    game_input in = game_autopilot(g);
    game_update(g, &in);
}

WEB_API ledge_world *web_game_world(game *g) {
    return g->world;
}

WEB_API int web_game_frame(const game *g) {
    return g->frame;
}

/// The player: x, y, vx, vy, on ground, on wall, on ceiling, on platform.
WEB_API float *web_game_player(const game *g) {
    const game_player_state *s = &g->state;
    vec2s p = ledge_body_position(g->world, g->player);
    float v[8] = {p.x,          p.y,        s->velocity.x, s->velocity.y,
                  s->on_ground, s->on_wall, s->on_ceiling, s->on_platform};
    for (int k = 0; k < 8; ++k) player_buffer[k] = v[k];
    return player_buffer;
}

static void put_body(int at, const game *g, ledge_body_id id, float kind) {
    float *b = body_buffer + BODY_FLOATS * at;
    vec2s p = ledge_body_position(g->world, id);
    const ledge_shape *s = ledge_body_shape(g->world, id);
    b[0] = p.x, b[1] = p.y, b[2] = kind;
    if (s && s->type == LEDGE_SHAPE_CIRCLE) {
        b[2] = kind == 0 ? 1 : kind;
        b[3] = s->radius, b[4] = s->radius;
    } else if (s) {
        b[3] = 0.5f * (s->bounds.upper.x - s->bounds.lower.x);
        b[4] = 0.5f * (s->bounds.upper.y - s->bounds.lower.y);
    }
}

/// Every body the game keeps (player, platform, then the pile, bullets and
/// dropped ones in creation order) as BODY_FLOATS floats; returns the count.
WEB_API int web_game_bodies(const game *g) {
    put_body(0, g, g->player, 2);
    put_body(1, g, g->platform, 3);
    for (int k = 0; k < g->body_count; ++k) put_body(2 + k, g, g->bodies[k], 0);
    return 2 + g->body_count;
}

WEB_API float *web_game_body_buffer(void) {
    return body_buffer;
}

/// Drops a box (ball 0) or a ball (ball 1) at (x, y); false when it does not fit.
WEB_API int web_game_spawn(game *g, float x, float y, int ball) {
    vec2s at = {{x, y}};
    return game_spawn(g, at, ball != 0);
}
