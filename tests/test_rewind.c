// The testbed's rewind (samples/scenes/rewind.c, hold R): every scene that
// rewinds, played, held R over 200 steps, then played on, gives every step
// the hash it had the first time (and its frame number); the ring goes back
// at most 10 s; the benchmark's scenes do not rewind.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "app.h"
#include "scale.h"

#include <string.h>

enum { PLAY = 300, BACK = 200 };

static void frame(app *a, bool rewind) {
    app_input in;
    memset(&in, 0, sizeof in);
    if (rewind) in.held = scene_key_bit('r');
    app_frame(a, &in, 1);
}

static void test_rewind_replays_every_scene(void **state) {
    (void)state;
    static uint64_t hash[PLAY + 1];
    static app a;
    int rewound = 0;
    for (int i = 0; i < scene_count; ++i) {
        memset(&a, 0, sizeof a);
        assert_true(app_open(&a, i));
        bool bench = strcmp(a.s.def->category, "Benchmark") == 0;
        int play = test_cases(10) == 10 ? PLAY : 60, back = play * 2 / 3;
        hash[0] = ledge_world_hash(a.s.world);
        for (int f = 1; f <= play; ++f) {
            frame(&a, false);
            hash[f] = ledge_world_hash(a.s.world);
        }
        for (int k = 1; k <= back; ++k) {
            frame(&a, true);
            if (bench) {
                assert_int_equal(a.s.frame, play + k); // no rewind: it steps
                continue;
            }
            if (a.s.frame != play - k || ledge_world_hash(a.s.world) != hash[play - k])
                fail_msg("scene %s: %d steps back, frame %d, hash %016llx (want %d, %016llx)",
                         a.s.def->name, k, a.s.frame,
                         (unsigned long long)ledge_world_hash(a.s.world), play - k,
                         (unsigned long long)hash[play - k]);
        }
        if (!bench) {
            for (int f = play - back + 1; f <= play; ++f) {
                frame(&a, false);
                if (ledge_world_hash(a.s.world) != hash[f])
                    fail_msg("scene %s: played on after the rewind, frame %d differs",
                             a.s.def->name, f);
            }
            rewound++;
        }
        app_close(&a);
    }
    assert_true(rewound >= scene_count - 2);
}

// Held past its beginning, the ring stops at the oldest step it keeps: the
// scene's start, or 10 s back.
static void test_rewind_stops_at_the_oldest(void **state) {
    (void)state;
    static app a;
    memset(&a, 0, sizeof a);
    int tower = -1;
    for (int i = 0; i < scene_count; ++i)
        if (strcmp(scene_list[i]->name, "tower") == 0) tower = i;
    assert_true(tower >= 0 && app_open(&a, tower));
    uint64_t start = ledge_world_hash(a.s.world);
    for (int f = 0; f < 100; ++f) frame(&a, false);
    for (int f = 0; f < 150; ++f) frame(&a, true);
    assert_int_equal(a.s.frame, 0);
    assert_int_equal(ledge_world_hash(a.s.world), start);
    int more = test_cases(10) == 10 ? REWIND_FRAMES + 100 : 0;
    for (int f = 0; f < more; ++f) frame(&a, false);
    for (int f = 0; f < more; ++f) frame(&a, true);
    if (more) assert_int_equal(a.s.frame, more - (REWIND_FRAMES - 1));
    app_close(&a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rewind_replays_every_scene),
        cmocka_unit_test(test_rewind_stops_at_the_oldest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
