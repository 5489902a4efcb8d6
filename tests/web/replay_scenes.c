// The testbed's scenes replayed (samples/scenes, docs/samples.md): each
// scene played by itself for a number of frames, drawn each frame as
// tests/test_scenes.c draws it, and the world's hashes of every frame
// folded together (FNV-1a). Built natively into `replay_hashes`
// (`replay_hashes scenes FRAMES` prints them) and into the WebAssembly
// replay module, whose exports tests/web/hash.test.mjs calls: the two
// must agree for every scene the browser has.
#include "../../samples/scenes/app.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define REPLAY_API EMSCRIPTEN_KEEPALIVE
#else
#define REPLAY_API
#endif

static uint32_t high_word;

REPLAY_API int replay_scene_count(void) {
    return scene_count;
}

REPLAY_API const char *replay_scene_name(int i) {
    return i >= 0 && i < scene_count ? scene_list[i]->name : "";
}

/// The high 32 bits of the last replay_scene (JavaScript has no uint64 return).
REPLAY_API uint32_t replay_scene_high(void) {
    return high_word;
}

/// Scene i for `frames` frames: the low 32 bits of the fold of its hashes
/// (0 when the scene could not be made).
REPLAY_API uint32_t replay_scene(int i, int frames) {
    static app a;
    uint64_t fold = 0;
    if (app_open(&a, i)) {
        fold = 0xcbf29ce484222325ull;
        for (int f = 0; f < frames; ++f) {
            app_step(&a);
            app_draw(&a, app_view(&a, 16.0f / 9.0f));
            fold = (fold ^ a.hash) * 0x100000001b3ull;
        }
    }
    app_close(&a);
    high_word = (uint32_t)(fold >> 32);
    return (uint32_t)fold;
}
