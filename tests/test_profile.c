// The step's profile (include/ledge/profile.h): off until asked for, then
// each step's stage times, plausible against the step's own time and
// against what the scene gives the stages to do; never a change to the
// state; refusals with a message.
#define _POSIX_C_SOURCE 200809L // clock_gettime and CLOCK_MONOTONIC
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"

#include <string.h>
#include <time.h>

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// A box of tiles holding a heap of `n` circles and boxes that collide
// from the first step on; `workers` threads step it.
static ledge_world *heap(int n, int workers) {
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 24;
    wd.map_height = 40;
    wd.worker_count = workers;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 24; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    for (int y = 0; y < 40; ++y) {
        ledge_tilemap_set(map, 0, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, 23, y, LEDGE_TILE_FULL);
    }
    for (int k = 0; k < n; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.shape =
            k % 2 ? ledge_make_circle(v(0, 0), 0.3f) : ledge_make_box(v(0, 0), v(0.3f, 0.3f));
        bd.position = v(1.5f + (float)(k % 20), 1.4f + 0.55f * (float)(k / 20));
        bd.friction = 0.4f;
        assert_true(ledge_body_is_valid(w, ledge_body_create(w, &bd)));
    }
    return w;
}

static float stage_sum(const ledge_profile *p) {
    return p->integrate + p->move + p->grid + p->pairs + p->relax + p->sort + p->response +
           p->check + p->events + p->sleep;
}

static bool all_zero(const ledge_profile *p) {
    ledge_profile zero;
    memset(&zero, 0, sizeof zero);
    return memcmp(p, &zero, sizeof zero) == 0;
}

static void off_by_default(void **state) {
    (void)state;
    ledge_world *w = heap(200, 1);
    for (int k = 0; k < 5; ++k) ledge_world_step(w, 1.0f / 60.0f);
    ledge_profile p = ledge_world_profile(w);
    assert_true(all_zero(&p));
    ledge_world_destroy(w);
}

// With 1 and 2 workers: every step of a settling heap has a positive time,
// every stage a time in [0, step], their sum at most the step's (the
// stages are inside the call), the relaxation passes a positive share
// (the heap collides), and nothing measured changes the state.
static void stages_within_the_step(void **state) {
    (void)state;
    for (int workers = 1; workers <= 2; ++workers) {
        ledge_world *w = heap(400, workers);
        ledge_world *plain = heap(400, workers);
        ledge_world_enable_profile(w, true);
        ledge_profile p = ledge_world_profile(w);
        assert_true(all_zero(&p));
        double relax = 0.0;
        for (int k = 0; k < 60; ++k) {
            ledge_world_step(w, 1.0f / 60.0f);
            ledge_world_step(plain, 1.0f / 60.0f);
            p = ledge_world_profile(w);
            assert_true(p.step > 0.0f);
            const float f[10] = {p.integrate, p.move,     p.grid,  p.pairs,  p.relax,
                                 p.sort,      p.response, p.check, p.events, p.sleep};
            for (int s = 0; s < 10; ++s) {
                assert_true(f[s] >= 0.0f);
                assert_true(f[s] <= p.step);
            }
            assert_true(stage_sum(&p) <= p.step * 1.0001f + 1e-4f);
            relax += p.relax;
        }
        assert_true(relax > 0.0);
        assert_true(ledge_world_hash(w) == ledge_world_hash(plain));
        ledge_world_destroy(w);
        ledge_world_destroy(plain);
    }
}

// Each profile is the last step's, not a running sum: read after every
// step and added up, the profiles stay within the time the test itself
// measured around the step calls with the same clock (a running sum would
// count the first steps 30 times over), stage by stage too.
static double wall_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static void last_step_only(void **state) {
    (void)state;
    ledge_world *w = heap(300, 1);
    ledge_world_enable_profile(w, true);
    double measured = 0.0, steps = 0.0, stages = 0.0;
    for (int k = 0; k < 30; ++k) {
        double t0 = wall_ms();
        ledge_world_step(w, 1.0f / 60.0f);
        measured += wall_ms() - t0;
        ledge_profile p = ledge_world_profile(w);
        steps += p.step;
        stages += stage_sum(&p);
    }
    assert_true(steps > 0.0);
    assert_true(steps <= measured * 1.0001 + 1e-3);
    assert_true(stages <= measured * 1.0001 + 1e-3);
    ledge_world_destroy(w);
}

// Off keeps the last profile; on again starts from zero.
static void off_keeps_on_zeroes(void **state) {
    (void)state;
    ledge_world *w = heap(100, 1);
    ledge_world_enable_profile(w, true);
    ledge_world_step(w, 1.0f / 60.0f);
    ledge_profile p = ledge_world_profile(w);
    assert_true(p.step > 0.0f);
    ledge_world_enable_profile(w, false);
    ledge_world_step(w, 1.0f / 60.0f);
    ledge_profile q = ledge_world_profile(w);
    assert_memory_equal(&p, &q, sizeof p);
    ledge_world_enable_profile(w, true);
    q = ledge_world_profile(w);
    assert_true(all_zero(&q));
    ledge_world_step(w, 1.0f / 60.0f);
    q = ledge_world_profile(w);
    assert_true(q.step > 0.0f);
    ledge_world_destroy(w);
}

static ledge_world *g_inside;
static int g_refused;

static ledge_response enable_inside(ledge_body_id body, ledge_body_id other, int cell_x, int cell_y,
                                    vec2s normal, ledge_response proposed, void *context) {
    (void)body, (void)other, (void)cell_x, (void)cell_y, (void)normal, (void)context;
    uint32_t before = ledge_error_count();
    ledge_world_enable_profile(g_inside, false);
    if (ledge_error_count() == before + 1 && strstr(ledge_last_error(), "stepping")) ++g_refused;
    return proposed;
}

static void refusals(void **state) {
    (void)state;
    log_capture_start();
    ledge_world_enable_profile(NULL, true);
    assert_true(log_capture_says("ledge_world_enable_profile", "NULL"));
    log_capture_start();
    ledge_profile p = ledge_world_profile(NULL);
    assert_true(all_zero(&p));
    assert_true(log_capture_says("ledge_world_profile", "NULL"));
    // Inside the step (from the contact filter): refused, the profile stays on.
    g_inside = heap(50, 1);
    ledge_world_enable_profile(g_inside, true);
    ledge_world_set_pre_solve(g_inside, enable_inside, NULL);
    log_capture_start();
    g_refused = 0;
    ledge_world_step(g_inside, 1.0f / 60.0f);
    assert_true(g_refused > 0);
    ledge_world_set_pre_solve(g_inside, NULL, NULL);
    ledge_world_step(g_inside, 1.0f / 60.0f);
    assert_true(ledge_world_profile(g_inside).step > 0.0f);
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(g_inside);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(off_by_default), cmocka_unit_test(stages_within_the_step),
        cmocka_unit_test(last_step_only), cmocka_unit_test(off_keeps_on_zeroes),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
