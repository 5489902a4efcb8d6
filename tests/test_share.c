// The projection's share of a push (broad.c, pair_share) against its
// closed form, and what leaning it upward is for. By inverse mass; in the
// step a dynamic body whose centre lies under the other's
// (within the stacked cosine of up) counts twice as heavy. The closed form
// is written here in double, from the bodies' masses and the angle between
// their centres, on about 48,000 seeded pairs of circles and boxes of
// random sizes and densities (dynamic, static and kinematic: only two
// dynamic bodies lean), under gravity down, up, left, right, at a slant
// and none, in both response models. Then a column of circles
// stacked 0.1 m deep into each other in a one-cell shaft, under gravity in
// all four directions, with friction 0, 0.3 and 1 and bounce 0, 0.5 and 1
// (36 cells), must push its overlaps out to the slop: shared by
// inverse mass alone, the overlap spreads by diffusion and a column 60
// deep still holds it hundreds of steps later.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "rng.h"
#include "contacts.h"
#include "par.h"
#include "slots.h"
#include "world_state.h"

#include <math.h>
#include <stdio.h>

#define BODIES 36
#define ROUNDS 120

// Mass from the shape, in double: a circle's pi r^2, a box's 4 hx hy.
static double mass_of(bool circle, double r, double hx, double hy, double density) {
    return density * (circle ? 3.14159265358979323846 * r * r : 4.0 * hx * hy);
}

typedef struct body_rec {
    ledge_body_id id;
    double mass; ///< 0 for a static or kinematic body (it cannot be pushed).
    double x, y; ///< Centre.
} body_rec;

// Expected share of body a (its part of the push) for the pair (a, b).
static double expected_share(const body_rec *a, const body_rec *b, double ux, double uy,
                             bool stacking, bool *leaned, bool *near_edge) {
    double ia = a->mass > 0 ? 1.0 / a->mass : 0.0, ib = b->mass > 0 ? 1.0 / b->mass : 0.0;
    *leaned = false;
    *near_edge = false;
    double up_len = hypot(ux, uy);
    if (stacking && ia > 0 && ib > 0 && up_len > 0) {
        // The angle between the centres' offset and up.
        double dx = b->x - a->x, dy = b->y - a->y;
        double angle = atan2(dx * uy - dy * ux, dx * ux + dy * uy); // from up to b - a
        double c = cos(angle);
        *near_edge = fabs(fabs(c) - LEDGE__STACKED_COSINE) < 1e-3;
        if (fabs(c) > LEDGE__STACKED_COSINE) {
            *leaned = true;
            if (c > 0) { // b above a: a counts twice as heavy
                ia *= 0.5;
            } else {
                ib *= 0.5;
            }
        }
    }
    return ia / (ia + ib);
}

static void check_shares(ledge_friction_law model, vec2s gravity, int round, int *leaned_total,
                         int *checked_total) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = gravity;
    wd.friction_law = model;
    wd.map_width = 32;
    wd.map_height = 32;
    wd.tile_size = 1.0f;
    wd.linear_slop = 1.0f;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    body_rec rec[BODIES];
    int slot_to_rec[4 * BODIES];
    for (int i = 0; i < 4 * BODIES; ++i) slot_to_rec[i] = -1;
    ledge_body_def bd = ledge_default_body_def();
    // Still bodies (gravity scale 0, no velocity) and a slop whose share
    // a pile keeps (0.2 of it) is larger than any overlap of theirs: no push
    // moves them, so the pairs' shares are those of the positions placed
    // here.
    bd.gravity_scale = 0.0f;
    for (int i = 0; i < BODIES; ++i) {
        bool circle = rng_unit() < 0.6;
        double r = rng_range(0.02, 0.09), hx = rng_range(0.02, 0.09), hy = rng_range(0.02, 0.09);
        double density = rng_range(0.2, 5.0);
        double type = rng_unit();
        bd.type = type < 0.1   ? LEDGE_BODY_STATIC
                  : type < 0.2 ? LEDGE_BODY_KINEMATIC
                               : LEDGE_BODY_DYNAMIC;
        bd.density = (float)density;
        bd.shape = circle ? ledge_make_circle((vec2s){{0, 0}}, (float)r)
                          : ledge_make_box((vec2s){{0, 0}}, (vec2s){{(float)hx, (float)hy}});
        // At random in a small square: pairs at every angle.
        rec[i].x = (float)rng_range(10.0, 11.5);
        rec[i].y = (float)rng_range(10.0, 11.5);
        bd.position = (vec2s){{(float)rec[i].x, (float)rec[i].y}};
        rec[i].id = ledge_body_create(w, &bd);
        assert_true(ledge_body_is_valid(w, rec[i].id));
        rec[i].mass = bd.type == LEDGE_BODY_DYNAMIC
                          ? mass_of(circle, (float)r, (float)hx, (float)hy, (float)density)
                          : 0.0;
        int s = ledge__slot_of(w, rec[i].id);
        assert_true(s >= 0 && s < 4 * BODIES);
        slot_to_rec[s] = i;
    }
    ledge_world_step(w, 1.0f / 60.0f);
    // Nothing moved: the shares below are of the positions above.
    for (int i = 0; i < BODIES; ++i) {
        vec2s p = ledge_body_position(w, rec[i].id);
        assert_true(p.x == (float)rec[i].x && p.y == (float)rec[i].y);
    }
    assert_true(w->step.pair_count > 0);
    double ux = -gravity.x, uy = -gravity.y;
    for (int k = 0; k < w->step.pair_count; ++k) {
        const ledge__pair *p = &w->step.pairs[k];
        int ra = slot_to_rec[p->a], rb = slot_to_rec[p->b];
        assert_true(ra >= 0 && rb >= 0);
        bool leaned, edge;
        double want = expected_share(&rec[ra], &rec[rb], ux, uy, true, &leaned, &edge);
        if (edge) continue; // on the stacked cosine's edge: float rounding decides
        if (fabs((double)p->share - want) > 1e-5 * (1.0 + want)) {
            fail_msg("round %d, gravity (%g, %g), model %d: pair %d-%d share %.7f, closed form "
                     "%.7f (leaned %d)",
                     round, gravity.x, gravity.y, (int)model, ra, rb, p->share, want, leaned);
        }
        *leaned_total += leaned;
        ++*checked_total;
    }
    ledge_world_destroy(w);
}

static void test_share_closed_form(void **state) {
    (void)state;
    static const vec2s gravity[] = {{{0, -10}}, {{0, 10}},        {{-10, 0}},
                                    {{10, 0}},  {{-6.0f, -8.0f}}, {{0, 0}}};
    const int n = (int)(sizeof gravity / sizeof gravity[0]);
    g_rng = 0x5ba2e000u;
    for (int model = 0; model < 2; ++model) {
        ledge_friction_law m = model ? LEDGE_FRICTION_COULOMB : LEDGE_FRICTION_N;
        int leaned = 0, checked = 0;
        for (int r = 0; r < ROUNDS; ++r) check_shares(m, gravity[r % n], r, &leaned, &checked);
        printf("friction law %s: %d pairs checked, %d leaned upward\n", model ? "Coulomb" : "N",
               checked, leaned);
        assert_true(checked > 2000);
        // The push leans for most pairs, whatever the friction law.
        assert_true(leaned > checked / 4);
    }
}

// Maps a point of the shaft's frame (x across, y along up) into the world
// for up number u (0: +y, 1: -y, 2: +x, 3: -x) in a size x size map.
static vec2s shaft_point(int u, double x, double y, int size) {
    switch (u) {
    case 0:
        return (vec2s){{(float)x, (float)y}};
    case 1:
        return (vec2s){{(float)x, (float)(size - y)}};
    case 2:
        return (vec2s){{(float)y, (float)x}};
    default:
        return (vec2s){{(float)(size - y), (float)x}};
    }
}

static void shaft_cell(ledge_tilemap *map, int u, int x, int y, int size) {
    int cx = x, cy = y;
    switch (u) {
    case 0:
        break;
    case 1:
        cy = size - 1 - y;
        break;
    case 2:
        cx = y, cy = x;
        break;
    default:
        cx = size - 1 - y, cy = x;
        break;
    }
    assert_true(ledge_tilemap_set(map, cx, cy, LEDGE_TILE_FULL));
}

#define COLUMN 60
#define STEPS  240

// The worst overlap of two circles of the column (brute force, double).
static double worst_overlap(ledge_world *w, const ledge_body_id *ids, double radius) {
    double worst = 0.0;
    for (int i = 0; i < COLUMN; ++i) {
        vec2s p = ledge_body_position(w, ids[i]);
        for (int j = i + 1; j < COLUMN; ++j) {
            vec2s q = ledge_body_position(w, ids[j]);
            double d = 2.0 * radius - hypot((double)p.x - q.x, (double)p.y - q.y);
            if (d > worst) worst = d;
        }
    }
    return worst;
}

static void test_deep_column_pushed_out(void **state) {
    (void)state;
    const int size = COLUMN + 12;
    const double radius = 0.4;
    static const vec2s up[4] = {{{0, 1}}, {{0, -1}}, {{1, 0}}, {{-1, 0}}};
    static const float friction[3] = {0.0f, 0.3f, 1.0f}, bounce[3] = {0.0f, 0.5f, 1.0f};
    for (int cell = 0; cell < 4 * 9; ++cell) {
        int u = cell / 9;
        float fr = friction[cell % 3], bo = bounce[cell / 3 % 3];
        ledge_world_def wd = ledge_default_world_def();
        wd.gravity = (vec2s){{-10.0f * up[u].x, -10.0f * up[u].y}};
        wd.friction_law = LEDGE_FRICTION_COULOMB;
        wd.map_width = size;
        wd.map_height = size;
        wd.tile_size = 1.0f;
        ledge_world *w = ledge_world_create(&wd);
        assert_non_null(w);
        ledge_tilemap *map = ledge_world_tilemap(w);
        // A shaft one cell wide: floor at row 0, walls in columns 4 and 6.
        for (int x = 3; x <= 7; ++x) shaft_cell(map, u, x, 0, size);
        for (int y = 1; y < size - 1; ++y) {
            shaft_cell(map, u, 4, y, size);
            shaft_cell(map, u, 6, y, size);
        }
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_DYNAMIC;
        bd.shape = ledge_make_circle((vec2s){{0, 0}}, (float)radius);
        bd.friction = fr;
        bd.bounce = bo;
        ledge_body_id ids[COLUMN];
        for (int k = 0; k < COLUMN; ++k) {
            // Each circle 0.1 m into the one under it, the lowest on the floor.
            bd.position = shaft_point(u, 5.5, 1.0 + radius + 0.7 * k, size);
            ids[k] = ledge_body_create(w, &bd);
            assert_true(ledge_body_is_valid(w, ids[k]));
        }
        double start = worst_overlap(w, ids, radius);
        for (int s = 0; s < STEPS; ++s) ledge_world_step(w, 1.0f / 60.0f);
        double end = worst_overlap(w, ids, radius);
        printf("up (%g, %g), friction %.1f, bounce %.1f: worst overlap %.4f m at the start, %.4f "
               "m after %d steps\n",
               up[u].x, up[u].y, fr, bo, start, end, STEPS);
        assert_true(start > 0.099);
        // At the slop, as a pile at rest (with the float rounding of a
        // column 60 deep on top).
        assert_true(end < 1.5 * (double)w->slop);
        ledge_world_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_share_closed_form),
        cmocka_unit_test(test_deep_column_pushed_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
