// Determinism: the same world, inputs and step sequence give bit-identical
// states. Two runs of a 1,000-body rain scene for 1,000 steps (bodies
// destroyed and re-created on the way) must end with equal hashes; the hash
// is also written to the file named by LEDGE_HASH_OUT so that run.sh can
// compare the sanitizer and release builds, which must agree too.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scale.h"

#include <ledge/ledge.h>

#include "scenes.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t run_scene(int steps) {
    scene s;
    assert_true(scene_rain(1000, &s));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.4f);
    for (int k = 0; k < steps; ++k) {
        // Churn: every 100 steps destroy one body and create another in the
        // same order, which must reuse the slot the same way every run.
        if (k % 100 == 50) {
            int victim = (k / 100) * 37 % s.count;
            ledge_body_destroy(s.world, s.bodies[victim]);
            bd.position = (vec2s){{1.5f + (float)(k % 7), (float)s.height - 2.0f}};
            s.bodies[victim] = ledge_body_create(s.world, &bd);
            assert_true(ledge_body_is_valid(s.world, s.bodies[victim]));
        }
        ledge_world_step(s.world, 1.0f / 60.0f);
    }
    uint64_t h = ledge_world_hash(s.world);
    scene_destroy(&s);
    return h;
}

static void test_two_runs_agree(void **state) {
    (void)state;
    // Under valgrind a tenth of the steps, and no hash file: run.sh compares
    // the files of the full runs.
    int steps = test_cases(1000);
    uint64_t a = run_scene(steps), b = run_scene(steps);
    assert_true(a == b);
    assert_true(a != run_scene(steps - 1)); // the hash does see the state
    const char *path = getenv("LEDGE_HASH_OUT");
    if (path != NULL && steps == 1000) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "%016llx\n", (unsigned long long)a);
        fclose(f);
    }
    print_message("rain 1000 x %d steps: hash %016llx\n", steps, (unsigned long long)a);
}

// The shortcuts for plain circles (broad.c: a pair of dynamic circles whose
// filters let everything through, with no sensor, one-way body, policy or
// pre-solve callback, skips consider_near's tests; resolve.c: such a pair
// relaxes in its own kernel) must give the bits of the general path. The
// general path is forced without changing what happens: a pre-solve
// callback that returns what it is proposed (both shortcuts off), or a
// filter mask missing one bit no body uses (the broad phase's off).
typedef enum path { PATH_PLAIN, PATH_CALLBACK, PATH_FILTER } path;

static ledge_response same_response(ledge_body_id body, ledge_body_id other, int cell_x, int cell_y,
                                    vec2s normal, ledge_response proposed, void *context) {
    (void)body, (void)other, (void)cell_x, (void)cell_y, (void)normal;
    ++*(long *)context;
    return proposed;
}

static uint64_t run_path(path how, int steps, long *calls) {
    scene s;
    assert_true(scene_rain(400, &s));
    *calls = 0;
    if (how == PATH_CALLBACK) ledge_world_set_pre_solve(s.world, same_response, calls);
    if (how == PATH_FILTER) {
        ledge_filter f = ledge_default_filter();
        f.mask &= ~((uint64_t)1 << 63);
        for (int k = 0; k < s.count; ++k)
            assert_true(ledge_body_set_filter(s.world, s.bodies[k], f));
    }
    for (int k = 0; k < steps; ++k) ledge_world_step(s.world, 1.0f / 60.0f);
    uint64_t h = ledge_world_hash(s.world);
    scene_destroy(&s);
    return h;
}

static void test_plain_paths_agree(void **state) {
    (void)state;
    // Under valgrind at least 120 steps: the rain must have landed, or the
    // general path would hardly run (66 callbacks after 40 steps).
    int steps = test_cases(400) < 120 ? 120 : test_cases(400);
    ledge_friction_law models[2] = {LEDGE_FRICTION_N, LEDGE_FRICTION_COULOMB};
    for (int m = 0; m < 2; ++m) {
        scene_friction = models[m];
        long calls_plain, calls_callback, calls_filter;
        uint64_t plain = run_path(PATH_PLAIN, steps, &calls_plain);
        uint64_t callback = run_path(PATH_CALLBACK, steps, &calls_callback);
        uint64_t filter = run_path(PATH_FILTER, steps, &calls_filter);
        assert_true(calls_callback > 1000); // the general path did run, pair by pair
        assert_true(plain == callback);
        assert_true(plain == filter);
        // (Coulomb's pile of 400 is at rest, bit for bit, by step
        // 200, so the hash's sensitivity is shown while the rain still falls.)
        assert_true(plain != run_path(PATH_PLAIN, steps / 8, &calls_plain));
        print_message("rain 400 x %d steps, model %d: hash %016llx on all three paths (%ld "
                      "callbacks)\n",
                      steps, m, (unsigned long long)plain, calls_callback);
    }
    scene_friction = LEDGE_FRICTION_N;
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_two_runs_agree),
                                       cmocka_unit_test(test_plain_paths_agree)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
