// The world hashes of two runs, printed for tests/check_single_header.py,
// which builds this program twice: against the library (meson), and from
// the single-file build alone (ledge.h with LEDGE_IMPLEMENTATION in another
// translation unit, no libledge), and requires the same lines from both.
// - demo: the sample game (samples/game.c) played by its autopilot for the
//   headless demo's 1,320 frames, every frame's ledge_world_hash folded in;
// - rain: the rain scene (tests/scenes.c) of 1,000 circles for 600 steps,
//   with a body destroyed and re-created every 100 steps, every step's hash
//   folded in.
#include "game.h"
#include "scenes.h"

#include <stdio.h>

#define DEMO_FRAMES 1320
#define RAIN_BODIES 1000
#define RAIN_STEPS  600

// FNV-1a over the 8 bytes of each hash, so that every frame counts.
static uint64_t fold(uint64_t acc, uint64_t h) {
    for (int k = 0; k < 8; ++k) {
        acc ^= (h >> (8 * k)) & 0xffu;
        acc *= 0x100000001b3ull;
    }
    return acc;
}

static int demo(uint64_t *out) {
    game g;
    if (!game_create(&g)) return 1;
    uint64_t acc = 0xcbf29ce484222325ull;
    for (int f = 0; f < DEMO_FRAMES; ++f) {
        game_input in = game_autopilot(&g);
        game_update(&g, &in);
        acc = fold(acc, ledge_world_hash(g.world));
    }
    int reached = g.phase == PHASE_GOAL;
    game_destroy(&g);
    *out = acc;
    return reached ? 0 : 1;
}

static int rain(uint64_t *out) {
    scene s;
    if (!scene_rain(RAIN_BODIES, &s)) return 1;
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, RAIN_RADIUS);
    uint64_t acc = 0xcbf29ce484222325ull;
    for (int k = 0; k < RAIN_STEPS; ++k) {
        if (k % 100 == 50) { // the churn of tests/test_determinism.c
            int victim = (k / 100) * 37 % s.count;
            ledge_body_destroy(s.world, s.bodies[victim]);
            bd.position = (vec2s){{1.5f + (float)(k % 7), (float)s.height - 2.0f}};
            s.bodies[victim] = ledge_body_create(s.world, &bd);
            if (!ledge_body_is_valid(s.world, s.bodies[victim])) return 1;
        }
        ledge_world_step(s.world, 1.0f / 60.0f);
        acc = fold(acc, ledge_world_hash(s.world));
    }
    scene_destroy(&s);
    *out = acc;
    return 0;
}

int main(void) {
    uint64_t d = 0, r = 0;
    if (demo(&d) != 0 || rain(&r) != 0) {
        printf("a run failed\n");
        return 1;
    }
    printf("demo %d frames: %016llx\n", DEMO_FRAMES, (unsigned long long)d);
    printf("rain %d x %d steps: %016llx\n", RAIN_BODIES, RAIN_STEPS, (unsigned long long)r);
    return 0;
}
