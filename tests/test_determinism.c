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

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_two_runs_agree)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
