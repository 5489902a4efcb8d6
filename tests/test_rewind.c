// The samples' rewind ring (samples/rewind.c): the sample game played by
// its autopilot, rewound, then played on, gives every frame the hash (and
// the game's own state) it had the first time; the ring keeps 10 s.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rewind.h"

#include <string.h>

enum { PLAY = 900, BACK = 250 };

static void test_rewind_replays(void **state) {
    (void)state;
    static uint64_t hash[PLAY + 1];
    static game g;
    static rewind_ring ring;
    assert_true(game_create(&g));
    assert_true(rewind_init(&ring));
    assert_true(rewind_push(&ring, &g));
    hash[0] = ledge_world_hash(g.world);
    for (int f = 1; f <= PLAY; ++f) {
        game_input in = game_autopilot(&g);
        game_update(&g, &in);
        assert_true(rewind_push(&ring, &g));
        hash[f] = ledge_world_hash(g.world);
    }
    for (int k = 1; k <= BACK; ++k) {
        assert_true(rewind_back(&ring, &g));
        assert_int_equal(g.frame, PLAY - k);
        assert_int_equal(ledge_world_hash(g.world), hash[PLAY - k]);
    }
    for (int f = PLAY - BACK + 1; f <= PLAY; ++f) {
        game_input in = game_autopilot(&g);
        game_update(&g, &in);
        assert_true(rewind_push(&ring, &g));
        assert_int_equal(ledge_world_hash(g.world), hash[f]);
    }
    // At most REWIND_FRAMES - 1 frames back.
    int back = 0;
    while (rewind_back(&ring, &g)) ++back;
    assert_int_equal(back, REWIND_FRAMES - 1);
    assert_int_equal(ledge_world_hash(g.world), hash[PLAY - REWIND_FRAMES + 1]);
    rewind_free(&ring);
    game_destroy(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_rewind_replays)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
