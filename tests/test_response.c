// The response against its closed forms (world.h, docs/design.md), on the
// default world under both friction laws (N's, the default, and Coulomb's),
// through the public API only, with an oracle in double precision:
// - the conformance matrix: every tile id (every group, every facing) and
//   body pairs; circle, box and polygon; bounce 0, 0.5, 1; friction 0,
//   0.1, 0.3, 0.7, 1; four approach directions (head-on, grazing, two
//   oblique); both laws: the velocity after the step that made the
//   contact within 1e-5 of the speed of the formula's (each a lone
//   contact: N's split exactly under N's law);
// - slides down seamed ramps of every slope group at the law's
//   closed-form terminal speed, within 1%;
// - a teleport forgets the contacts; a bounce-1 ball dropped on a resting
//   bounce-1 ball rebounds.
#include "ledge/ledge.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "response_oracle.h"

static const char *model_name(ledge_friction_law m) {
    return m == LEDGE_FRICTION_N ? "N's friction" : "Coulomb's friction";
}

// The gravity the matrices run with: off, (0, -10) (y up) or (0, +10) (a
// y-down game: the world's up is -y). The tile cells are the same in all
// three: a y-down map (ledge_tilemap_load_n, Tiled's y_down) flips the
// tile ids, not the shapes, so every surface normal is covered each way.
static dvec g_gravity = {0.0, 0.0};

static const char *gravity_name(void) {
    return g_gravity.y == 0.0 ? "no gravity" : (g_gravity.y < 0.0 ? "gravity -y" : "gravity +y");
}

// Coulomb's load term for a body alone on a tile (response.c,
// loads): its own weight, times the normal's cosine with up when the
// contact counts as resting on top (cosine over 0.2): f |g| h cos.
static double tile_load(dvec n, double f) {
    double g = dlen(g_gravity);
    if (!(g > 0.0)) return 0.0;
    double up = -ddot(n, g_gravity) / g;
    return up > 0.2 ? f * g * (double)DT * up : 0.0;
}

static ledge_world *gravity_free_world(ledge_friction_law model) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, 0);
    wd.map_width = wd.map_height = 24;
    wd.friction_law = model;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    return w;
}

static ledge_world *matrix_world(ledge_friction_law model) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = fof(g_gravity);
    wd.map_width = wd.map_height = 24;
    wd.friction_law = model;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    return w;
}

static const double bounces[] = {0.0, 0.5, 1.0};
static const double frictions[] = {0.0, 0.1, 0.3, 0.7, 1.0};
#define NB (int)(sizeof bounces / sizeof bounces[0])
#define NF (int)(sizeof frictions / sizeof frictions[0])

typedef struct tally {
    int cells, worst_cell;
    double worst;
} tally;

// One cell of the matrix: the body starts just off the surface moving at
// `vel`, and is stepped until its first contact; the velocity after that
// step must be the oracle's.
static void tile_cell(ledge_friction_law model, int tile, const target *t, int kind, double b,
                      double f, int dir, tally *out) {
    ledge_world *w = matrix_world(model);
    assert_true(ledge_tilemap_set(ledge_world_tilemap(w), 10, 10, (ledge_tile)tile));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = make_shape(kind);
    bd.friction = (float)f;
    bd.bounce = (float)b;
    dvec vel;
    ledge_body_id id = start_toward_tile(w, &bd, t, dir, g_gravity, &vel);
    ledge_contact_data cd[4];
    int n;
    int steps = step_to_contact(w, id, cd, &n);
    char where[160];
    snprintf(where, sizeof where, "%s, %s, tile %d (%s), %s, b %g, f %g, direction %d",
             model_name(model), gravity_name(), tile, ledge_tile_name((ledge_tile)tile),
             shape_names[kind], b, f, dir);
    if (n != 1) fail_msg("%s: %d contacts after %d steps (want exactly 1)", where, n, steps);
    dvec pos = dof(ledge_body_position(w, id));
    dvec nrm = normal_at(t, &bd.shape, pos);
    // Each step first adds g dt (world.h, step 1), then the contact found
    // in the step is answered.
    dvec pre = dadd(vel, dscale(g_gravity, steps * (double)DT));
    dvec want = oracle_loaded(pre, nrm, f, b, 0.5, model, tile_load(nrm, f));
    dvec got = dof(ledge_body_velocity(w, id));
    double err = dlen(dsub(got, want)) / SPEED;
    if (err > out->worst) out->worst = err;
    out->cells++;
    if (!(err <= 1e-5)) {
        fail_msg("%s: velocity (%.7f, %.7f), closed form (%.7f, %.7f) (normal (%.6f, %.6f), "
                 "reported (%.6f, %.6f)), error %.3g of the speed",
                 where, got.x, got.y, want.x, want.y, nrm.x, nrm.y, (double)cd[0].normal.x,
                 (double)cd[0].normal.y, err);
    }
    ledge_world_destroy(w);
}

static void tile_matrix(ledge_friction_law model) {
    tally t = {0};
    for (int tile = LEDGE_TILE_FULL; tile < LEDGE_TILE_COUNT; ++tile) {
        target targets[4];
        int nt = tile_targets(tile, targets);
        for (int k = 0; k < nt; ++k)
            for (int kind = 0; kind < SHAPE_KINDS; ++kind)
                for (int ib = 0; ib < NB; ++ib)
                    for (int jf = 0; jf < NF; ++jf)
                        for (int d = 0; d < DIRECTIONS; ++d)
                            tile_cell(model, tile, &targets[k], kind, bounces[ib], frictions[jf], d,
                                      &t);
    }
    print_message("%s, %s, body against tile: %d cells, worst error %.3g of the speed\n",
                  model_name(model), gravity_name(), t.cells, t.worst);
    assert_int_equal(t.cells, (4 + 32) * SHAPE_KINDS * NB * NF * DIRECTIONS);
}

// The matrix with gravity off, pointing -y (y up) and +y (y down).
static void tile_matrix_all_gravities(ledge_friction_law model) {
    const dvec gs[3] = {{0.0, 0.0}, {0.0, -10.0}, {0.0, 10.0}};
    for (int k = 0; k < 3; ++k) {
        g_gravity = gs[k];
        tile_matrix(model);
    }
    g_gravity = dv(0, 0);
}

static void test_tile_matrix_n(void **state) {
    (void)state;
    tile_matrix_all_gravities(LEDGE_FRICTION_N);
}

static void test_tile_matrix_stacking(void **state) {
    (void)state;
    tile_matrix_all_gravities(LEDGE_FRICTION_COULOMB);
}

// --- body pairs -------------------------------------------------------------------

static void pair_cell(ledge_friction_law model, const pair_kind *pk, double b, double f, int dir,
                      tally *out) {
    ledge_world *w = matrix_world(model);
    double a = pk->angle * PI / 180.0;
    dvec n = dv(cos(a), sin(a));
    // Body a (density 1, bounce b, friction f) moves into body b (density
    // 2.5, bounce 0, friction 1: the pair uses max(b, 0) = b and
    // sqrt(f * 1) = sqrt(f), so f^2 gives the matrix's f).
    ledge_body_def ba = ledge_default_body_def(), bb = ledge_default_body_def();
    ba.shape = make_shape(pk->a);
    bb.shape = make_shape(pk->b);
    ba.friction = (float)(f * f);
    ba.bounce = (float)b;
    bb.friction = 1.0f;
    bb.density = 2.5f;
    ledge_body_id ia, ib; // b moves too: only the relative velocity matters
    start_pair(w, &ba, &bb, n, dir, g_gravity, &ia, &ib);
    dvec va0 = dof(ba.velocity), vb0 = dof(bb.velocity);
    int contacts;
    int steps = step_to_contact(w, ia, NULL, &contacts);
    char where[160];
    snprintf(where, sizeof where, "%s, %s, %s on %s along %g deg, b %g, f %g, direction %d",
             model_name(model), gravity_name(), shape_names[pk->a], shape_names[pk->b], pk->angle,
             b, f, dir);
    if (contacts != 1) fail_msg("%s: %d contacts (want exactly 1)", where, contacts);
    dvec nrm = n;
    if (pk->a == SHAPE_CIRCLE && pk->b == SHAPE_CIRCLE) { // along the centres
        nrm = dunit(dsub(dof(ledge_body_position(w, ia)), dof(ledge_body_position(w, ib))));
    }
    double combined_f = sqrt((double)ba.friction * 1.0);
    // Each step first adds g dt to both (world.h, step 1): the relative
    // velocity is unchanged, each body's is not. Coulomb's load
    // term for two bodies one on the other (|cos| with up over 0.2): the
    // upper one's weight, f |g| h |cos|.
    va0 = dadd(va0, dscale(g_gravity, steps * (double)DT));
    vb0 = dadd(vb0, dscale(g_gravity, steps * (double)DT));
    dvec r0 = dsub(va0, vb0);
    double g = dlen(g_gravity), up = g > 0.0 ? fabs(ddot(nrm, g_gravity)) / g : 0.0;
    double load = up > 0.2 ? combined_f * g * (double)DT * up : 0.0;
    dvec change = dsub(oracle_loaded(r0, nrm, combined_f, b, 0.5, model, load), r0);
    double err = check_pair(w, ia, ib, va0, vb0, change, where);
    if (err > out->worst) out->worst = err;
    out->cells++;
    ledge_world_destroy(w);
}

static void pair_matrix(ledge_friction_law model) {
    tally t = {0};
    for (int k = 0; k < PAIR_KINDS; ++k)
        for (int ib = 0; ib < NB; ++ib)
            for (int jf = 0; jf < NF; ++jf)
                for (int d = 0; d < DIRECTIONS; ++d)
                    pair_cell(model, &pair_kinds[k], bounces[ib], frictions[jf], d, &t);
    print_message("%s, %s, body against body: %d cells, worst error %.3g of the speed\n",
                  model_name(model), gravity_name(), t.cells, t.worst);
    assert_int_equal(t.cells, PAIR_KINDS * NB * NF * DIRECTIONS);
}

static void pair_matrix_all_gravities(ledge_friction_law model) {
    const dvec gs[3] = {{0.0, 0.0}, {0.0, -10.0}, {0.0, 10.0}};
    for (int k = 0; k < 3; ++k) {
        g_gravity = gs[k];
        pair_matrix(model);
    }
    g_gravity = dv(0, 0);
}

static void test_pair_matrix_n(void **state) {
    (void)state;
    pair_matrix_all_gravities(LEDGE_FRICTION_N);
}

static void test_pair_matrix_stacking(void **state) {
    (void)state;
    pair_matrix_all_gravities(LEDGE_FRICTION_COULOMB);
}

// --- sliding down seamed ramps --------------------------------------------------------

// A long ramp of one slope group, descending to the left (`mirror`: to the
// right), every cell a separate tile (seams everywhere), FULL cells under
// it. Returns the slope angle; *top is a point on the surface near the top.
enum { RAMP_45, RAMP_22, RAMP_67, RAMPS };
static const char *const ramp_names[RAMPS] = {"45", "22 (26.57)", "67 (63.43)"};

static void put(ledge_tilemap *map, int width, bool mirror, int x, int y, int tile_np,
                int tile_pp) {
    assert_true(ledge_tilemap_set(map, mirror ? width - 1 - x : x, y,
                                  (ledge_tile)(mirror ? tile_pp : tile_np)));
}

static double build_ramp(ledge_tilemap *map, int width, int ramp, bool mirror, dvec *top) {
    int cells = 0;
    double angle = 0.0;
    if (ramp == RAMP_45) { // one cell per column: rises 1 per 1
        cells = 56;
        for (int k = 0; k < cells; ++k) {
            for (int y = 0; y < k; ++y)
                put(map, width, mirror, k, y, LEDGE_TILE_FULL, LEDGE_TILE_FULL);
            put(map, width, mirror, k, k, LEDGE_TILE_45DEG_NP, LEDGE_TILE_45DEG_PP);
        }
        angle = PI / 4.0;
        *top = dv(cells - 2.5, cells - 2.5);
    } else if (ramp == RAMP_22) { // SMALL then BIG in each row: rises 1 per 2
        cells = 48;
        for (int k = 0; k < cells; ++k) {
            for (int y = 0; y < k; ++y) {
                put(map, width, mirror, 2 * k, y, LEDGE_TILE_FULL, LEDGE_TILE_FULL);
                put(map, width, mirror, 2 * k + 1, y, LEDGE_TILE_FULL, LEDGE_TILE_FULL);
            }
            put(map, width, mirror, 2 * k, k, LEDGE_TILE_22DEG_SMALL_NP, LEDGE_TILE_22DEG_SMALL_PP);
            put(map, width, mirror, 2 * k + 1, k, LEDGE_TILE_22DEG_BIG_NP, LEDGE_TILE_22DEG_BIG_PP);
        }
        angle = atan(0.5);
        *top = dv(2.0 * cells - 3.0, cells - 1.5);
    } else { // BIG under SMALL in each column: rises 2 per 1
        cells = 30;
        for (int k = 0; k < cells; ++k) {
            for (int y = 0; y < 2 * k; ++y)
                put(map, width, mirror, k, y, LEDGE_TILE_FULL, LEDGE_TILE_FULL);
            put(map, width, mirror, k, 2 * k, LEDGE_TILE_67DEG_BIG_NP, LEDGE_TILE_67DEG_BIG_PP);
            put(map, width, mirror, k, 2 * k + 1, LEDGE_TILE_67DEG_SMALL_NP,
                LEDGE_TILE_67DEG_SMALL_PP);
        }
        angle = atan(2.0);
        *top = dv(cells - 2.0, 2.0 * cells - 3.0);
    }
    if (mirror) top->x = width - top->x;
    return angle;
}

// The terminal speed along a slope (docs/design.md): per substep h gravity
// adds g sin(a) h along it and the contact keeps (1 - f) of that, so
// v = (1 - f) (v + g sin(a) h) settles at (1 - f) / f g sin(a) h. The
// Coulomb's floor stops the body where tan(a) <= f; steeper,
// N's term is the larger one at that speed, so the same closed form.
static double terminal_speed(ledge_friction_law model, double f, double angle, double g, double h) {
    if (model == LEDGE_FRICTION_COULOMB && tan(angle) <= f) return 0.0;
    return (1.0 - f) / f * g * sin(angle) * h;
}

static void slide_case(ledge_friction_law model, int ramp, bool mirror, int kind, double f,
                       int substeps, double *worst) {
    ledge_world_def wd = ledge_default_world_def();
    wd.friction_law = model;
    wd.substeps = substeps;
    wd.map_width = 112;
    wd.map_height = 64;
    ledge_world *w = ledge_world_create(&wd);
    dvec top;
    double angle = build_ramp(ledge_world_tilemap(w), wd.map_width, ramp, mirror, &top);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = make_shape(kind);
    bd.friction = (float)f;
    dvec n = dv(mirror ? sin(angle) : -sin(angle), cos(angle));
    bd.position = fof(dadd(top, dscale(n, reach(&bd.shape, n) + 0.01)));
    ledge_body_id id = ledge_body_create(w, &bd);
    for (int s = 0; s < 240; ++s) ledge_world_step(w, DT);
    double want = terminal_speed(model, f, angle, 10.0, (double)DT / substeps);
    double speeds[3];
    for (int s = 0; s < 3; ++s) { // three steps in a row: terminal, not passing through it
        ledge_world_step(w, DT);
        speeds[s] = dlen(dof(ledge_body_velocity(w, id)));
    }
    dvec p = dof(ledge_body_position(w, id));
    for (int s = 0; s < 3; ++s) {
        double err = fabs(speeds[s] - want) / fmax(want, 1e-3);
        if (err > *worst) *worst = err;
        if (!(err <= 0.01)) {
            fail_msg("%s, %s ramp %s, %s, f %g, %d substeps: speed %.6f m/s, closed form "
                     "%.6f m/s (at (%.2f, %.2f))",
                     model_name(model), ramp_names[ramp],
                     mirror ? "descending right" : "descending left", shape_names[kind], f,
                     substeps, speeds[s], want, p.x, p.y);
        }
    }
    // Still on the ramp, not at its foot.
    assert_true(p.y > 3.0);
    ledge_world_destroy(w);
}

static void slides(ledge_friction_law model) {
    static const double fs[] = {0.1, 0.3, 0.5, 0.7, 1.0};
    double worst = 0.0;
    int cases = 0;
    for (int ramp = 0; ramp < RAMPS; ++ramp)
        for (int mirror = 0; mirror < 2; ++mirror)
            for (int kind = 0; kind < SHAPE_KINDS; ++kind)
                for (int k = 0; k < 5; ++k)
                    for (int sub = 1; sub <= 3; sub += 2) {
                        slide_case(model, ramp, mirror, kind, fs[k], sub, &worst);
                        ++cases;
                    }
    print_message("%s: %d slides down seamed ramps, worst error %.3g%% of the terminal "
                  "speed\n",
                  model_name(model), cases, 100.0 * worst);
}

static void test_ramp_slides_n(void **state) {
    (void)state;
    slides(LEDGE_FRICTION_N);
}

static void test_ramp_slides_stacking(void **state) {
    (void)state;
    slides(LEDGE_FRICTION_COULOMB);
}

// --- teleports, edits, stacked bounce ---------------------------------------------------

static ledge_world *floor_world(ledge_friction_law model) {
    ledge_world_def wd = ledge_default_world_def();
    wd.friction_law = model;
    ledge_world *w = ledge_world_create(&wd);
    for (int x = 0; x < 64; ++x) ledge_tilemap_set(ledge_world_tilemap(w), x, 0, LEDGE_TILE_FULL);
    return w;
}

// A box resting on the floor, teleported far away with a new velocity: the
// next step is free flight, v = (3, -5) + g dt, under both friction laws. A velocity
// set while resting is answered once, by the contact the step finds.
static void test_teleport_forgets_contacts(void **state) {
    (void)state;
    for (int m = 0; m < 2; ++m) {
        ledge_world *w = floor_world((ledge_friction_law)m);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box(v(0, 0), v(0.5f, 0.5f));
        bd.position = v(10.0f, 1.5f);
        bd.friction = 0.5f;
        ledge_body_id box = ledge_body_create(w, &bd);
        for (int s = 0; s < 60; ++s) ledge_world_step(w, DT);
        assert_true(ledge_body_contacts(w, box, NULL, 0) >= 1); // resting on the floor
        assert_true(ledge_body_set_position(w, box, v(40.0f, 40.0f)));
        assert_true(ledge_body_set_velocity(w, box, v(3.0f, -5.0f)));
        ledge_world_step(w, DT);
        vec2s vel = ledge_body_velocity(w, box);
        assert_float_equal(vel.x, 3.0f, 1e-6f);
        assert_float_equal(vel.y, -5.0f - 10.0f * DT, 1e-6f);
        // A velocity set while resting: sliding along the floor at (4, 0)
        // after one step, friction applied once (N: 4 (1 - f)).
        ledge_body_set_position(w, box, v(20.0f, 1.5f - 0.004f));
        ledge_body_set_velocity(w, box, v(0.0f, 0.0f));
        for (int s = 0; s < 30; ++s) ledge_world_step(w, DT);
        assert_true(ledge_body_set_velocity(w, box, v(4.0f, 0.0f)));
        ledge_world_step(w, DT);
        vel = ledge_body_velocity(w, box);
        double want = m == LEDGE_FRICTION_N ? 4.0 * 0.5 : 4.0 * 0.5; // f|vt| > f g h here
        assert_float_equal(vel.x, want, 1e-5);
        assert_float_equal(vel.y, 0.0f, 1e-5);
        ledge_world_destroy(w);
    }
}

// A kinematic wall given a target far away in one step (ledge_body_set_target,
// teleport-style): the contacts of the bodies touching it are not replayed
// with its new velocity. A box pressed into the wall's side and the floor
// by a slanted gravity (5, -10), f = 0.8 (the wall's side is no floor for
// it, so the wall does not carry it); the wall jumps 6 m up in one step
// (300 m/s). A stale replay would answer the box's small approach into the
// wall with friction against 300 m/s of sliding and kick it up (288 m/s
// measured with the forget removed from set_target); forgotten, the box
// only rests against the floor: its speed stays under 1 m/s (measured
// 0.017), under both friction laws, y up and y down. The wall's friction is set too:
// the pair's is sqrt(fa fb).
static void test_set_target_forgets_contacts(void **state) {
    (void)state;
    for (int m = 0; m < 2; ++m) {
        for (int flip = 0; flip < 2; ++flip) {
            double sy = flip ? -1.0 : 1.0; // y down: the mirror image
            ledge_world_def wd = ledge_default_world_def();
            wd.friction_law = (ledge_friction_law)m;
            wd.gravity = v(5.0f, (float)(-10.0 * sy));
            ledge_world *w = ledge_world_create(&wd);
            assert_non_null(w);
            int floor_row = flip ? 20 : 0;
            for (int x = 0; x < 64; ++x)
                ledge_tilemap_set(ledge_world_tilemap(w), x, floor_row, LEDGE_TILE_FULL);
            double top = flip ? 20.0 : 1.0; // the floor's surface
            ledge_body_def wall = ledge_default_body_def();
            wall.type = LEDGE_BODY_KINEMATIC;
            wall.shape = ledge_make_box(v(0, 0), v(0.5f, 0.5f));
            wall.friction = 0.8f; // the pair's friction: sqrt(0.8 * 0.8)
            wall.position = v(11.0f, (float)(top + sy * 0.55));
            ledge_body_id wid = ledge_body_create(w, &wall);
            ledge_body_def bd = ledge_default_body_def();
            bd.shape = ledge_make_box(v(0, 0), v(0.25f, 0.25f));
            bd.position = v(10.25f, (float)(top + sy * 0.25));
            bd.friction = 0.8f;
            ledge_body_id box = ledge_body_create(w, &bd);
            for (int s = 0; s < 60; ++s) ledge_world_step(w, DT);
            ledge_contact_data cd[4];
            int n = ledge_body_contacts(w, box, cd, 4);
            bool on_wall = false;
            for (int k = 0; k < n; ++k)
                on_wall |=
                    cd[k].other.index1 == wid.index1 && cd[k].other.generation == wid.generation;
            assert_true(on_wall); // pressed into the wall's side
            vec2s before = ledge_body_velocity(w, box);
            assert_true(fabsf(before.x) + fabsf(before.y) < 0.5f); // at rest
            vec2s wp = ledge_body_position(w, wid);
            assert_true(ledge_body_set_target(w, wid, v(wp.x, (float)(wp.y + sy * 6.0)), DT));
            ledge_world_step(w, DT);
            vec2s after = ledge_body_velocity(w, box);
            double speed = hypot(after.x, after.y);
            if (!(speed < 1.0)) {
                fail_msg("%s, %s: the box left at (%.3f, %.3f) (a stale replay kicks it to "
                         "288 m/s)",
                         model_name((ledge_friction_law)m), flip ? "y down" : "y up",
                         (double)after.x, (double)after.y);
            }
            ledge_world_destroy(w);
        }
    }
}

// A box resting on a tile that the game removes falls freely from the next
// step: the removed tile's contact is not answered.
static void test_tile_edit_forgets_contacts(void **state) {
    (void)state;
    for (int m = 0; m < 2; ++m) {
        ledge_world *w = floor_world((ledge_friction_law)m);
        ledge_tilemap *map = ledge_world_tilemap(w);
        for (int x = 0; x < 64; ++x) ledge_tilemap_set(map, x, 10, LEDGE_TILE_FULL);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
        bd.position = v(20.5f, 11.3f);
        bd.friction = 1.0f;
        ledge_body_id box = ledge_body_create(w, &bd);
        for (int s = 0; s < 30; ++s) ledge_world_step(w, DT);
        assert_int_equal(ledge_body_contacts(w, box, NULL, 0), 1);
        assert_true(ledge_tilemap_set(map, 20, 10, LEDGE_TILE_EMPTY));
        ledge_world_step(w, DT);
        assert_float_equal(ledge_body_velocity(w, box).y, -10.0f * DT, 1e-6f);
        ledge_world_destroy(w);
    }
}

// A bounce-1 ball dropped 4 m onto a bounce-1 ball resting on the floor
// rebounds to at least half its drop height, under both friction laws.
static void test_stacked_bounce(void **state) {
    (void)state;
    for (int m = 0; m < 2; ++m) {
        ledge_world *w = floor_world((ledge_friction_law)m);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle(v(0, 0), 0.5f);
        bd.bounce = 1.0f;
        bd.position = v(20.0f, 1.5f);
        ledge_body_id lower = ledge_body_create(w, &bd);
        for (int s = 0; s < 30; ++s) ledge_world_step(w, DT);
        float rest = ledge_body_position(w, lower).y;
        bd.position = v(20.0f, rest + 1.0f + 4.0f); // 4 m above touching
        ledge_body_id upper = ledge_body_create(w, &bd);
        float low = 1e9f, high = -1e9f;
        bool hit = false;
        for (int s = 0; s < 240; ++s) {
            ledge_world_step(w, DT);
            float y = ledge_body_position(w, upper).y;
            if (!hit && ledge_body_velocity(w, upper).y > 0.0f) hit = true;
            if (!hit) low = fminf(low, y);
            if (hit) high = fmaxf(high, y);
        }
        float drop = 4.0f;
        print_message("%s: dropped %.2f m onto a resting ball, rebounds %.3f m\n",
                      model_name((ledge_friction_law)m), (double)drop, (double)(high - low));
        assert_true(hit);
        assert_true(high - low >= 0.5f * drop);
        // Not an explosion either (measured: 3.94 m for 4 m).
        assert_true(high - low <= 1.25f * drop);
        ledge_world_destroy(w);
    }
}

// Rain into a well 20 circles wide and 100 rows high, on the default world:
// every row lands on the one below it at up to 45 m/s, and 600 steps
// later nothing moves faster than 0.1 m/s. With the sweep bouncing pairs
// off lower bodies that still moved, 23 circles still moved (5 m/s at
// 900 steps); the whole rain at 10,000 circles had 208.
static void test_tall_pile_settles(void **state) {
    (void)state;
    enum { COLS = 20, ROWS = 100, WIDTH = COLS + 2, HEIGHT = ROWS + 12 };
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = WIDTH;
    wd.map_height = HEIGHT;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int j = 0; j < HEIGHT; ++j) {
        ledge_tilemap_set(map, 0, j, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, WIDTH - 1, j, LEDGE_TILE_FULL);
    }
    for (int i = 0; i < WIDTH; ++i) ledge_tilemap_set(map, i, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(v(0, 0), 0.4f);
    bd.friction = 0.3f;
    bd.bounce = 0.1f;
    static ledge_body_id ids[COLS * ROWS];
    for (int k = 0; k < COLS * ROWS; ++k) {
        bd.position = v(1.5f + (float)(k % COLS) + 0.01f * (float)((7 * k) % 11 - 5),
                        7.0f + (float)(k / COLS));
        ids[k] = ledge_body_create(w, &bd);
    }
    for (int s = 0; s < 600; ++s) ledge_world_step(w, DT);
    int moving = 0;
    float top = 0.0f;
    for (int k = 0; k < COLS * ROWS; ++k) {
        vec2s vel = ledge_body_velocity(w, ids[k]);
        float speed = sqrtf(vel.x * vel.x + vel.y * vel.y);
        moving += speed > 0.1f;
        top = fmaxf(top, speed);
        assert_true(ledge_body_position(w, ids[k]).y > 1.0f); // above the floor
    }
    print_message("well of %d circles: %d moving > 0.1 m/s after 600 steps, fastest %.4f m/s\n",
                  COLS * ROWS, moving, (double)top);
    assert_int_equal(moving, 0);
    ledge_world_destroy(w);
}

// The issue's example, figures worked by hand: a circle hitting a 45 degree
// slope (normal (-1, 1) / sqrt 2) at (8, -2), b = 1, f = 0.3: vn = (5, -5),
// vt = (3, 3), N: 0.7 (3, 3) - (5, -5) = (-2.9, 7.1). Coulomb's
// floor removes f (|out| + |vn|) = 0.3 * 14.14 = 4.24 of |vt| =
// 4.24: all of it, (-5, 5).
static void test_issue_example(void **state) {
    (void)state;
    const float want[2][2] = {{-2.9f, 7.1f}, {-5.0f, 5.0f}};
    for (int m = 0; m < 2; ++m) {
        ledge_world *w = gravity_free_world((ledge_friction_law)m);
        ledge_tilemap_set(ledge_world_tilemap(w), 10, 10, LEDGE_TILE_45DEG_NP);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle(v(0, 0), 0.25f);
        bd.bounce = 1.0f;
        bd.friction = 0.3f;
        // Touching the hypotenuse at the cell's centre after one step.
        float r = 0.25f / sqrtf(2.0f) - 0.01f;
        bd.position = v(10.5f - r - 8.0f * DT, 10.5f + r + 2.0f * DT);
        bd.velocity = v(8.0f, -2.0f);
        ledge_body_id id = ledge_body_create(w, &bd);
        ledge_world_step(w, DT);
        vec2s got = ledge_body_velocity(w, id);
        assert_int_equal(ledge_body_contacts(w, id, NULL, 0), 1);
        assert_float_equal(got.x, want[m][0], 1e-4f);
        assert_float_equal(got.y, want[m][1], 1e-4f);
        ledge_world_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue_example),
        cmocka_unit_test(test_tile_matrix_n),
        cmocka_unit_test(test_tile_matrix_stacking),
        cmocka_unit_test(test_pair_matrix_n),
        cmocka_unit_test(test_pair_matrix_stacking),
        cmocka_unit_test(test_ramp_slides_n),
        cmocka_unit_test(test_ramp_slides_stacking),
        cmocka_unit_test(test_teleport_forgets_contacts),
        cmocka_unit_test(test_tile_edit_forgets_contacts),
        cmocka_unit_test(test_set_target_forgets_contacts),
        cmocka_unit_test(test_stacked_bounce),
        cmocka_unit_test(test_tall_pile_settles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
