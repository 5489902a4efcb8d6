// The velocity pass (response.c) against the energy bound, on thousands of
// seeded contact sets: with every bounce 0, contacts between dynamic
// bodies, static bodies and tiles can only take kinetic energy away. The
// pass shares each change by inverse mass, so its energy is that of the
// centre of mass plus mu |v_rel|^2 / 2, and |v_rel| only shrinks; a tile
// or static contact only removes approach and tangential speed. The
// shock sweep holds a lower body still and changes the upper
// one alone: it must only slow the upper body (never throw it at the lower
// one's speed), which is what keeps a deep pile from being pumped up row
// after row, on tiles or on a static body. Friction between two dynamic
// bodies is 0 here: in the sweep it drags the upper body along with the
// lower one, which is how a moving support carries a load and does add
// energy. Friction against tiles and static bodies, Coulomb caps and
// approach speeds are random.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "resolve.h"
#include "response.h"
#include "rng.h"
#include "contacts.h"
#include "par.h"
#include "slots.h"
#include "world_state.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BODIES 12
#define CASES  6000
#define PI     3.14159265358979323846

#define STATICS 2

typedef struct bench {
    ledge_world *world;
    int slot[BODIES];
    int fixed[STATICS]; ///< Static bodies: a contact's lower body, never in the energy.
} bench;

static void bench_create(bench *b, ledge_friction_law model, vec2s gravity) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = gravity;
    wd.map_width = 64; // an empty map around the bodies
    wd.map_height = 64;
    wd.tile_size = 1.0f;
    wd.friction_law = model;
    b->world = ledge_world_create(&wd);
    assert_non_null(b->world);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_DYNAMIC;
    for (int i = 0; i < BODIES; ++i) {
        // Masses over two orders of magnitude (radius 0.1 to 1).
        bd.shape = ledge_make_circle((vec2s){{0.0f, 0.0f}}, 0.1f + 0.9f * (float)i / BODIES);
        bd.position = (vec2s){{4.0f + 4.0f * (float)i, 32.0f}};
        ledge_body_id id = ledge_body_create(b->world, &bd);
        assert_true(ledge_body_is_valid(b->world, id));
        b->slot[i] = ledge__slot_of(b->world, id);
    }
    bd.type = LEDGE_BODY_STATIC;
    bd.shape = ledge_make_circle((vec2s){{0.0f, 0.0f}}, 0.5f);
    for (int i = 0; i < STATICS; ++i) {
        bd.position = (vec2s){{4.0f + 4.0f * (float)i, 50.0f}};
        ledge_body_id id = ledge_body_create(b->world, &bd);
        assert_true(ledge_body_is_valid(b->world, id));
        b->fixed[i] = ledge__slot_of(b->world, id);
    }
    // One step (the bodies far apart) sets what the pass reads: up.
    ledge_world_step(b->world, 1.0f / 60.0f);
    assert_int_equal(b->world->contact_count, 0);
}

// Kinetic energy (times 2) in double.
static double energy(const ledge_world *w, const bench *b) {
    double e = 0.0;
    for (int i = 0; i < BODIES; ++i) {
        int s = b->slot[i];
        vec2s v = w->velocity[s];
        e += ((double)v.x * v.x + (double)v.y * v.y) / (double)w->inv_mass[s];
    }
    return e;
}

// A random unit vector: half of them within 0.6 rad of up or down (the
// sweep's stacked pairs), the rest anywhere (flat pairs among them).
static vec2s random_unit(vec2s up) {
    double a = atan2(up.y, up.x);
    if (rng_unit() < 0.5) {
        a += (rng_unit() - 0.5) * 1.2 + (rng_unit() < 0.3 ? PI : 0.0);
    } else {
        a = rng_unit() * 2 * PI;
    }
    return (vec2s){{(float)cos(a), (float)sin(a)}};
}

// One random contact set; returns the number of contacts.
static int random_case(ledge_world *w, const bench *b) {
    for (int i = 0; i < BODIES; ++i) {
        float speed = rng_unit() < 0.2 ? 0.0f : rng_range(0.0, 12.0);
        vec2s d = random_unit(w->up);
        w->velocity[b->slot[i]] = (vec2s){{d.x * speed, d.y * speed}};
    }
    int count = rng_int(1, BODIES / 2);
    w->contact_count = 0;
    assert_true(ledge__contacts_reserve(w, count));
    for (int k = 0; k < count; ++k) {
        ledge__contact c;
        memset(&c, 0, sizeof c);
        c.a = b->slot[rng_int(0, BODIES - 1)];
        c.b = -1;
        double kind = rng_unit();
        if (kind < 0.1) {
            // A static body below (the pile's floor is a body, not tiles:
            // the sweep must hold what rests on it as it holds a pile on
            // tiles).
            c.b = b->fixed[rng_int(0, STATICS - 1)];
        } else if (kind < 0.8) {
            do {
                c.b = b->slot[rng_int(0, BODIES - 1)];
            } while (c.b == c.a);
        }
        c.normal = random_unit(w->up);
        bool fixed = c.b < 0 || c.b == b->fixed[0] || c.b == b->fixed[1];
        c.friction = fixed ? rng_range(0.0, 1.0) : 0.0f;
        c.bounce = 0.0f;
        c.cap = fixed ? rng_range(0.0, 20.0) : 0.0f;
        c.depth = rng_range(0.0, 0.1);
        c.policy = LEDGE_RESPONSE_SLIDE;
        w->contacts[w->contact_count++] = c;
    }
    return count;
}

// The whole velocity pass (`sweep_only` false) or the stacking sweep
// alone, on random states such as a pass may leave (contacts still
// approaching, lower bodies moving up into upper ones), under gravity
// down, up, left and right (y up and y down, and sideways).
static void check(ledge_friction_law model, bool sweep_only) {
    static const vec2s gravity[4] = {{{0, -10}}, {{0, 10}}, {{-10, 0}}, {{10, 0}}};
    const char *what = sweep_only                        ? "the shock sweep"
                       : model == LEDGE_FRICTION_COULOMB ? "the pass under Coulomb's law"
                                                         : "N's pass";
    g_rng = 0x5eed0000u + (uint64_t)model + (sweep_only ? 7u : 0u);
    double worst = 0.0;
    int acted = 0;
    bench b;
    for (int t = 0; t < CASES; ++t) {
        if (t % (CASES / 4) == 0) bench_create(&b, model, gravity[t / (CASES / 4)]);
        ledge_world *w = b.world;
        random_case(w, &b);
        if (t % 2) ledge__sort_contacts(w); // bottom up, as the step answers them
        double before = energy(w, &b);
        if (sweep_only) {
            ledge__shock_sweep(w, 0.01f, 1.0f / 240.0f);
        } else {
            ledge__velocity_pass(w, 0.01f, 1.0f / 240.0f);
        }
        double after = energy(w, &b);
        acted += after != before;
        double gain = (after - before) / (before + 1e-9);
        if (gain > worst) worst = gain;
        if (after > before * (1.0 + 1e-5) + 1e-9) {
            fail_msg("case %d (gravity %g, %g), %s raised the kinetic energy (sum of m v^2) from "
                     "%.9g to %.9g",
                     t, w->gravity.x, w->gravity.y, what, before, after);
        }
        if ((t + 1) % (CASES / 4) == 0) {
            w->contact_count = 0;
            ledge_world_destroy(w);
        }
    }
    printf("%s: %d cases, %d changed the energy, worst relative gain %.3g\n", what, CASES, acted,
           worst);
    // The check could fail: most cases take energy away.
    assert_true(acted > CASES / 2);
}

static void test_pass_never_adds_energy_n(void **state) {
    (void)state;
    check(LEDGE_FRICTION_N, false);
}

static void test_pass_never_adds_energy_stacking(void **state) {
    (void)state;
    check(LEDGE_FRICTION_COULOMB, false);
}

static void test_sweep_never_adds_energy(void **state) {
    (void)state;
    check(LEDGE_FRICTION_COULOMB, true);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_never_adds_energy_n),
        cmocka_unit_test(test_pass_never_adds_energy_stacking),
        cmocka_unit_test(test_sweep_never_adds_energy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
