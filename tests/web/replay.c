// The replay hashes the browser build must reproduce (docs/web.md): the
// sample game (samples/game.c) played by its autopilot, the rain scene
// (tests/scenes.c) and the testbed's scenes (replay_scenes.c). Built twice: natively as the
// `replay_hashes` program, which prints them, and into a WebAssembly module
// (src/bindings/js/build.sh test) whose exports tests/web/hash.test.mjs calls; the two must print
// the same numbers.
#include "../../samples/game.h"
#include "../scenes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define REPLAY_API EMSCRIPTEN_KEEPALIVE
#else
#define REPLAY_API
#endif

static uint32_t high_word;

/// The high 32 bits of the last hash returned (JavaScript has no uint64 return).
REPLAY_API uint32_t replay_high(void) {
    return high_word;
}

static uint32_t split(uint64_t h) {
    high_word = (uint32_t)(h >> 32);
    return (uint32_t)h;
}

/// The sample game after `frames` frames of its autopilot, with the
/// world's hashes after every frame folded in (FNV-1a over them), so that
/// a difference on any frame shows. 0 when the game could not be made.
REPLAY_API uint32_t replay_demo(int frames) {
    game g;
    if (!game_create(&g)) return split(0);
    uint64_t fold = 0xcbf29ce484222325ull;
    for (int f = 0; f < frames; ++f) {
        game_input in = game_autopilot(&g);
        game_update(&g, &in);
        fold = (fold ^ ledge_world_hash(g.world)) * 0x100000001b3ull;
    }
    game_destroy(&g);
    return split(fold);
}

/// The rain scene of `n` circles after `steps` steps of 1/60 s: its hash.
REPLAY_API uint32_t replay_rain(int n, int steps) {
    scene s;
    if (!scene_rain(n, &s)) return split(0);
    for (int k = 0; k < steps; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    uint64_t h = ledge_world_hash(s.world);
    scene_destroy(&s);
    return split(h);
}

#ifdef LEDGE_REPLAY_TILED
#include <ledge/tiled.h>

// `replay_hashes tiled FILE [y_down]`: the C loader's cells of a Tiled map, top row
// first, for the JavaScript loader's test (tests/web/binding.test.mjs).
static int print_tiled(const char *file, bool y_down) {
    ledge_tiled_def def = ledge_default_tiled_def();
    def.y_down = y_down;
    ledge_tilemap *map = ledge_tiled_create_tilemap_file(file, &def);
    if (map == NULL) return 1;
    ledge_tilemap_def d = ledge_tilemap_get_def(map);
    printf("%d %d\n", d.width, d.height);
    for (int y = d.height - 1; y >= 0; --y) {
        for (int x = 0; x < d.width; ++x) printf(x ? ",%d" : "%d", ledge_tilemap_get(map, x, y));
        printf("\n");
    }
    ledge_tilemap_destroy(map);
    return 0;
}
#endif

#ifndef __EMSCRIPTEN__
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

// `replay_hashes bench N STEPS`: the rain scene's step cost, the native
// side of the browser benchmark (tests/web/bench.mjs): ms per step over
// STEPS steps from the start, and the end hash (the wasm run must agree).
static int bench_rain(int n, int steps) {
    scene s;
    if (!scene_rain(n, &s)) return 1;
    double t0 = now_ms();
    for (int k = 0; k < steps; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    double ms = (now_ms() - t0) / steps;
    printf("bench %d %d %.4f %016llx\n", n, steps, ms,
           (unsigned long long)ledge_world_hash(s.world));
    scene_destroy(&s);
    return 0;
}

// `replay_hashes rain_sleep N STEPS LAW`: the rain scene in a world with
// enable_sleep and friction law LAW (0 N's, 1 Coulomb's) after STEPS
// steps of 1/60 s: its hash and how many circles sleep, for the binding's
// enableSleep / frictionLaw test (tests/web/binding.test.mjs).
static int rain_sleep(int n, int steps, int model) {
    scene_sleep = true;
    scene_friction = (ledge_friction_law)model;
    scene s;
    if (!scene_rain(n, &s)) return 1;
    for (int k = 0; k < steps; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    int asleep = 0;
    for (int k = 0; k < s.count; ++k) asleep += !ledge_body_is_awake(s.world, s.bodies[k]);
    printf("rain_sleep %016llx %d\n", (unsigned long long)ledge_world_hash(s.world), asleep);
    scene_destroy(&s);
    return 0;
}

// The testbed's scenes (replay_scenes.c; its header's `scene` is another
// type than tests/scenes.h's, so only these are declared here).
int replay_scene_count(void);
const char *replay_scene_name(int i);
uint32_t replay_scene_high(void);
uint32_t replay_scene(int i, int frames);

// `replay_hashes scenes FRAMES`: each testbed scene's name and the fold of
// its hashes over FRAMES frames (tests/web/hash.test.mjs compares).
static int print_scenes(int frames) {
    for (int i = 0; i < replay_scene_count(); ++i) {
        uint32_t low = replay_scene(i, frames);
        printf("%s %08x%08x\n", replay_scene_name(i), (unsigned)replay_scene_high(), (unsigned)low);
    }
    return 0;
}

// `replay_hashes snapshot_save N STEPS FILE`: the rain scene after STEPS
// steps, its snapshot written to FILE and its hash printed; `replay_hashes
// snapshot_resume FILE N MORE`: a fresh rain scene of N circles restored
// from FILE, stepped MORE times, its hash printed (tests/web/snapshot.test.mjs:
// a native snapshot resumed in wasm and a wasm one resumed natively).
static int snapshot_save(int n, int steps, const char *file) {
    scene s;
    if (!scene_rain(n, &s)) return 1;
    for (int k = 0; k < steps; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    size_t size = ledge_world_snapshot_size(s.world);
    unsigned char *b = malloc(size);
    FILE *f = fopen(file, "wb");
    if (b == NULL || f == NULL || ledge_world_save(s.world, b, size) != size ||
        fwrite(b, 1, size, f) != size) {
        if (f) fclose(f);
        free(b);
        return 1;
    }
    fclose(f);
    free(b);
    printf("snapshot_save %016llx %zu\n", (unsigned long long)ledge_world_hash(s.world), size);
    scene_destroy(&s);
    return 0;
}

static int snapshot_resume(const char *file, int n, int more) {
    FILE *f = fopen(file, "rb");
    if (f == NULL) return 1;
    static unsigned char b[1 << 24];
    size_t size = fread(b, 1, sizeof b, f);
    fclose(f);
    scene s;
    if (!scene_rain(n, &s) || !ledge_world_restore(s.world, b, size)) return 1;
    uint64_t restored = ledge_world_hash(s.world);
    for (int k = 0; k < more; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    printf("snapshot_resume %016llx %016llx\n", (unsigned long long)restored,
           (unsigned long long)ledge_world_hash(s.world));
    scene_destroy(&s);
    return 0;
}

static void print(const char *what, uint32_t low) {
    printf("%s %08x%08x\n", what, (unsigned)high_word, (unsigned)low);
}

#include "parity.h"

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "parity") == 0) return parity_main(stdout, atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "parts") == 0) return parity_parts(stdout, atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "chains") == 0) return parity_chains(stdout, atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "scenes") == 0) return print_scenes(atoi(argv[2]));
    if (argc == 4 && strcmp(argv[1], "bench") == 0) return bench_rain(atoi(argv[2]), atoi(argv[3]));
    if (argc == 5 && strcmp(argv[1], "snapshot_save") == 0)
        return snapshot_save(atoi(argv[2]), atoi(argv[3]), argv[4]);
    if (argc == 5 && strcmp(argv[1], "snapshot_resume") == 0)
        return snapshot_resume(argv[2], atoi(argv[3]), atoi(argv[4]));
    if (argc == 5 && strcmp(argv[1], "rain_sleep") == 0)
        return rain_sleep(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
#ifdef LEDGE_REPLAY_TILED
    if (argc >= 3 && strcmp(argv[1], "tiled_world") == 0)
        return parity_tiled(stdout, argv[2], argc == 4 && strcmp(argv[3], "y_down") == 0);
    if (argc >= 3 && strcmp(argv[1], "tiled") == 0)
        return print_tiled(argv[2], argc == 4 && strcmp(argv[3], "y_down") == 0);
#endif
#ifdef LEDGE_REPLAY_LDTK
    if (argc == 5 && strcmp(argv[1], "ldtk") == 0)
        return parity_ldtk(stdout, argv[2], argv[3], atoi(argv[4]));
#endif
    int frames = argc > 1 ? atoi(argv[1]) : 1500;
    int rain_n = argc > 2 ? atoi(argv[2]) : 1000;
    int rain_steps = argc > 3 ? atoi(argv[3]) : 300;
    print("demo", replay_demo(frames));
    print("rain", replay_rain(rain_n, rain_steps));
    return 0;
}
#endif
