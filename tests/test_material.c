// Surface materials (material.h) against their closed forms, through the
// public API only, with the double-precision oracle of response_oracle.h:
// - the mix rule, value by value (friction by the stronger mode, bounce the
//   larger, surface speeds summed), and that a tile of the default material
//   leaves a body its own friction and bounce bit for bit;
// - N's split with the mixed friction and bounce on every tile id (every
//   group, both facings), circle, box and hexagon, tile materials in steps
//   (friction and bounce 0, 0.25, 0.5, 0.75, 1), every mix mode, moving
//   surfaces (the body's and the tile's), four approach directions, gravity
//   off, -y (y up), +y (y down), -x and +x, both friction laws; the same for
//   body pairs, momentum checked apart;
// - belts: a body carried by a flat belt of tiles at every substep of N's
//   recurrence v(k) = s (1 - (1 - f)^k) (per cell and per tile id, y up, y
//   down and gravity sideways), with drag at the terminal speed s f (1 +
//   h d) / (h d + f), on a 45 degree belt at s - (1 - f) / f g sin(a) h
//   (N's law) and at s where tan(a) <= f (Coulomb's), on a static and a
//   moving kinematic belt body, and stopped by a wall at the belt's end;
// - ice: a crate keeps its speed on an icy cell, stops on the floor beside;
// - the character mover on belts (carried by s dt a move, blocked by a
//   wall, the belt's velocity on leaving, y up and y down, riding off) and
//   on ice (the floor's material in the state, a game's acceleration on it);
// - every refusal, with its message, and the world unchanged after it;
// - determinism with 1 and 2 workers, and a snapshot of a world with
//   materials played on to the same hashes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "response_oracle.h"

static bool under_valgrind(void) {
    return getenv("LEDGE_UNDER_VALGRIND") != NULL;
}

// --- messages -----------------------------------------------------------------------

static char g_last[512];
static int g_messages;

static void capture(ledge_log_level level, const char *message, void *user) {
    (void)level, (void)user;
    snprintf(g_last, sizeof g_last, "%s", message);
    g_messages++;
}

static void listen(void) {
    g_last[0] = '\0';
    g_messages = 0;
    ledge_set_log_hook(capture, NULL);
}

static void expect_message(const char *want) {
    if (g_messages != 1 || strcmp(g_last, want) != 0)
        fail_msg("%d messages, the last \"%s\"; want one: \"%s\"", g_messages, g_last, want);
    g_messages = 0;
    g_last[0] = '\0';
}

static void quiet(void) {
    ledge_set_log_hook(NULL, NULL);
}

// --- the mix --------------------------------------------------------------------------

static ledge_material mat(float f, float b, float s, ledge_friction_mix mix) {
    ledge_material m = ledge_default_material();
    m.friction = f;
    m.bounce = b;
    m.surface_speed = s;
    m.friction_mix = mix;
    return m;
}

// The rule in double: the stronger mode (MAX > MIN > MEAN) decides.
static double mix_friction(double fa, int ma, double fb, int mb) {
    int mode = ma > mb ? ma : mb;
    if (mode == LEDGE_FRICTION_MIX_MAX) return fmax(fa, fb);
    if (mode == LEDGE_FRICTION_MIX_MIN) return fmin(fa, fb);
    return sqrt(fa * fb);
}

static const double steps5[5] = {0.0, 0.25, 0.5, 0.75, 1.0};

static void test_mix_rule(void **state) {
    (void)state;
    ledge_material d = ledge_default_material();
    assert_float_equal(d.friction, 1.0f, 0.0f);
    assert_float_equal(d.bounce, 0.0f, 0.0f);
    assert_float_equal(d.surface_speed, 0.0f, 0.0f);
    assert_int_equal(d.friction_mix, LEDGE_FRICTION_MIX_MIN);
    assert_true(ledge_material_is_valid(&d));
    int cases = 0;
    for (int ma = 0; ma < 3; ++ma)
        for (int mb = 0; mb < 3; ++mb)
            for (int i = 0; i < 5; ++i)
                for (int j = 0; j < 5; ++j) {
                    ledge_material a =
                        mat((float)steps5[i], (float)steps5[j], 1.5f, (ledge_friction_mix)ma);
                    ledge_material b =
                        mat((float)steps5[j], (float)steps5[4 - i], -0.25f, (ledge_friction_mix)mb);
                    ledge_material m = ledge_mix_materials(&a, &b), r = ledge_mix_materials(&b, &a);
                    double want = mix_friction(steps5[i], ma, steps5[j], mb);
                    assert_float_equal(m.friction, want, 1e-7);
                    assert_float_equal(r.friction, m.friction, 0.0f); // symmetric
                    assert_float_equal(m.bounce, fmax(steps5[j], steps5[4 - i]), 0.0f);
                    assert_float_equal(m.surface_speed, 1.25f, 0.0f);
                    assert_int_equal(m.friction_mix, ma > mb ? ma : mb);
                    ++cases;
                }
    assert_int_equal(cases, 225);
    // Against the default material every body keeps its own numbers, bit
    // for bit: that is why contacts with tiles no game gave a material
    // answer as they did before materials.
    for (int i = 0; i <= 1000; ++i) {
        float f = (float)i / 1000.0f, b = (float)((i * 7) % 1001) / 1000.0f;
        ledge_material body = mat(f, b, 0.0f, LEDGE_FRICTION_MIX_MEAN);
        ledge_material m = ledge_mix_materials(&d, &body);
        assert_memory_equal(&m.friction, &f, sizeof f);
        assert_memory_equal(&m.bounce, &b, sizeof b);
    }
    // Two bodies of the default mode: sqrt(fa fb), max(ba, bb) (Box2D's).
    ledge_material a = mat(0.2f, 0.1f, 0, LEDGE_FRICTION_MIX_MEAN);
    ledge_material b = mat(0.5f, 0.7f, 0, LEDGE_FRICTION_MIX_MEAN);
    ledge_material m = ledge_mix_materials(&a, &b);
    assert_float_equal(m.friction, sqrtf(0.2f * 0.5f), 0.0f);
    assert_float_equal(m.bounce, 0.7f, 0.0f);
}

// --- the tile matrix --------------------------------------------------------------------

static dvec g_gravity = {0.0, 0.0};
static ledge_friction_law g_law = LEDGE_FRICTION_N;

static const char *gravity_name(void) {
    if (g_gravity.x != 0.0) return g_gravity.x < 0.0 ? "gravity -x" : "gravity +x";
    return g_gravity.y == 0.0 ? "no gravity" : (g_gravity.y < 0.0 ? "gravity -y" : "gravity +y");
}

static const char *law_name(void) {
    return g_law == LEDGE_FRICTION_N ? "N's law" : "Coulomb's law";
}

// Coulomb's load term of a lone body on a tile (response.c): f |g| h cos,
// where the contact is resting on top (cosine with up over 0.2).
static double tile_load(dvec n, double f) {
    double g = dlen(g_gravity);
    if (!(g > 0.0)) return 0.0;
    double up = -ddot(n, g_gravity) / g;
    return up > 0.2 ? f * g * (double)DT * up : 0.0;
}

// The velocity after a contact with a surface of speed s along (ny, -nx):
// N's split (and Coulomb's floor) of the velocity relative to the surface.
static dvec oracle_moving(dvec vel, dvec n, double f, double b, double s, double load) {
    dvec u = dscale(dv(n.y, -n.x), s);
    return dadd(oracle_loaded(dsub(vel, u), n, f, b, 0.5, g_law, load), u);
}

// The body's own material in the matrices: between the steps of the
// tile's, so that min and max cross over.
#define BODY_F 0.6
#define BODY_B 0.3

// One material of the tile matrix's list.
typedef struct cell_material {
    ledge_material tile;
    float body_speed;
} cell_material;

// The list: friction x bounce in steps mixed by MIN (the level default);
// friction in steps mixed by MEAN and by MAX; moving tiles both ways; a
// moving tile under a moving body (a tread on a belt).
static int material_list(cell_material *out) {
    int n = 0;
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j)
            out[n++] = (cell_material){
                mat((float)steps5[i], (float)steps5[j], 0.0f, LEDGE_FRICTION_MIX_MIN), 0.0f};
    for (int m = 0; m < 3; m += 2)
        for (int i = 0; i < 5; ++i)
            out[n++] =
                (cell_material){mat((float)steps5[i], 0.5f, 0.0f, (ledge_friction_mix)m), 0.0f};
    for (int i = 0; i < 5; ++i) {
        out[n++] = (cell_material){mat((float)steps5[i], 0.25f, 2.5f, LEDGE_FRICTION_MIX_MIN), 0};
        out[n++] = (cell_material){mat((float)steps5[i], 0.25f, -1.5f, LEDGE_FRICTION_MIX_MIN), 0};
        out[n++] = (cell_material){mat((float)steps5[i], 0.0f, 2.5f, LEDGE_FRICTION_MIX_MIN), 1.0f};
    }
    return n;
}
#define MATERIALS 50

typedef struct tally {
    int cells;
    double worst;
} tally;

static ledge_world *matrix_world(void) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = fof(g_gravity);
    wd.map_width = wd.map_height = 24;
    wd.friction_law = g_law;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    return w;
}

// One cell: the body starts just off the surface of tile (10, 10) moving at
// `vel` and is stepped until its first contact; the velocity after that
// step must be the oracle's with the mixed material.
static void tile_cell(ledge_world *w, int tile, const target *t, int kind, const cell_material *cm,
                      int dir, tally *out) {
    assert_true(ledge_tilemap_set_cell_material(ledge_world_tilemap(w), 10, 10, &cm->tile));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = make_shape(kind);
    bd.friction = (float)BODY_F;
    bd.bounce = (float)BODY_B;
    bd.surface_speed = cm->body_speed;
    dvec vel;
    ledge_body_id id = start_toward_tile(w, &bd, t, dir, g_gravity, &vel);
    int n;
    int steps = step_to_contact(w, id, NULL, &n);
    const ledge_material *m = &cm->tile;
    char where[256];
    snprintf(where, sizeof where,
             "%s, %s, tile %d (%s), %s, tile f %g b %g s %g mix %d, body s %g, direction %d",
             law_name(), gravity_name(), tile, ledge_tile_name((ledge_tile)tile), shape_names[kind],
             (double)m->friction, (double)m->bounce, (double)m->surface_speed, (int)m->friction_mix,
             (double)cm->body_speed, dir);
    if (n != 1) fail_msg("%s: %d contacts after %d steps (want exactly 1)", where, n, steps);
    dvec nrm = normal_at(t, &bd.shape, dof(ledge_body_position(w, id)));
    double f = mix_friction(m->friction, m->friction_mix, BODY_F, LEDGE_FRICTION_MIX_MEAN);
    double b = fmax(m->bounce, BODY_B), s = (double)m->surface_speed + cm->body_speed;
    dvec pre = dadd(vel, dscale(g_gravity, steps * (double)DT));
    dvec want = oracle_moving(pre, nrm, f, b, s, tile_load(nrm, f));
    dvec got = dof(ledge_body_velocity(w, id));
    double err = dlen(dsub(got, want)) / SPEED;
    if (err > out->worst) out->worst = err;
    out->cells++;
    if (!(err <= 1e-5)) {
        fail_msg("%s: velocity (%.7f, %.7f), closed form (%.7f, %.7f) (normal (%.6f, %.6f)), "
                 "error %.3g of the speed",
                 where, got.x, got.y, want.x, want.y, nrm.x, nrm.y, err);
    }
    ledge_body_destroy(w, id);
}

static void tile_matrix(void) {
    cell_material list[MATERIALS];
    assert_int_equal(material_list(list), MATERIALS);
    int stride = under_valgrind() ? 7 : 1; // a seventh of the cells under valgrind
    tally t = {0, 0.0};
    long k = 0;
    for (int tile = LEDGE_TILE_FULL; tile < LEDGE_TILE_COUNT; ++tile) {
        ledge_world *w = matrix_world();
        assert_true(ledge_tilemap_set(ledge_world_tilemap(w), 10, 10, (ledge_tile)tile));
        target targets[4];
        int nt = tile_targets(tile, targets);
        for (int j = 0; j < nt; ++j)
            for (int kind = 0; kind < SHAPE_KINDS; ++kind)
                for (int m = 0; m < MATERIALS; ++m)
                    for (int d = 0; d < DIRECTIONS; ++d)
                        if (k++ % stride == 0)
                            tile_cell(w, tile, &targets[j], kind, &list[m], d, &t);
        ledge_world_destroy(w);
    }
    print_message("%s, %s, body against tile materials: %d cells, worst error %.3g of the "
                  "speed\n",
                  law_name(), gravity_name(), t.cells, t.worst);
    if (stride == 1) assert_int_equal(t.cells, (4 + 32) * SHAPE_KINDS * MATERIALS * DIRECTIONS);
}

// Gravity off, and pointing every way along the axes: y up (-y), y down
// (+y) and sideways.
static const dvec gravities[5] = {{0.0, 0.0}, {0.0, -10.0}, {0.0, 10.0}, {-10.0, 0.0}, {10.0, 0.0}};

static void test_tile_matrix(void **state) {
    (void)state;
    for (int law = 0; law < 2; ++law)
        for (int g = 0; g < 5; ++g) {
            g_law = (ledge_friction_law)law;
            g_gravity = gravities[g];
            tile_matrix();
        }
    g_gravity = dv(0, 0);
    g_law = LEDGE_FRICTION_N;
}

// --- the pair matrix --------------------------------------------------------------------

// Body b's material in the pair matrix (a's runs through the list).
#define OTHER_F 0.6f
#define OTHER_B 0.3f

static void pair_cell(const pair_kind *pk, const ledge_material *ma, float speed_b, int dir,
                      tally *out) {
    ledge_world *w = matrix_world();
    double a = pk->angle * PI / 180.0;
    dvec n = dv(cos(a), sin(a));
    ledge_body_def ba = ledge_default_body_def(), bb = ledge_default_body_def();
    ba.shape = make_shape(pk->a);
    bb.shape = make_shape(pk->b);
    ba.friction = ma->friction;
    ba.bounce = ma->bounce;
    ba.surface_speed = ma->surface_speed;
    ba.friction_mix = ma->friction_mix;
    bb.friction = OTHER_F;
    bb.bounce = OTHER_B;
    bb.surface_speed = speed_b;
    bb.density = 2.5f;
    ledge_body_id ia, ib;
    start_pair(w, &ba, &bb, n, dir, g_gravity, &ia, &ib);
    dvec va0 = dof(ba.velocity), vb0 = dof(bb.velocity);
    int contacts;
    int steps = step_to_contact(w, ia, NULL, &contacts);
    char where[224];
    snprintf(where, sizeof where,
             "%s, %s, %s on %s along %g deg, a: f %g b %g s %g mix %d, b: s %g, direction %d",
             law_name(), gravity_name(), shape_names[pk->a], shape_names[pk->b], pk->angle,
             (double)ma->friction, (double)ma->bounce, (double)ma->surface_speed,
             (int)ma->friction_mix, (double)speed_b, dir);
    if (contacts != 1) fail_msg("%s: %d contacts (want exactly 1)", where, contacts);
    dvec nrm = n;
    if (pk->a == SHAPE_CIRCLE && pk->b == SHAPE_CIRCLE)
        nrm = dunit(dsub(dof(ledge_body_position(w, ia)), dof(ledge_body_position(w, ib))));
    double f = mix_friction(ma->friction, ma->friction_mix, OTHER_F, LEDGE_FRICTION_MIX_MEAN);
    double b = fmax(ma->bounce, OTHER_B), s = (double)ma->surface_speed + speed_b;
    va0 = dadd(va0, dscale(g_gravity, steps * (double)DT));
    vb0 = dadd(vb0, dscale(g_gravity, steps * (double)DT));
    dvec r0 = dsub(va0, vb0);
    double g = dlen(g_gravity), up = g > 0.0 ? fabs(ddot(nrm, g_gravity)) / g : 0.0;
    double load = up > 0.2 ? f * g * (double)DT * up : 0.0;
    dvec change = dsub(oracle_moving(r0, nrm, f, b, s, load), r0);
    double err = check_pair(w, ia, ib, va0, vb0, change, where);
    if (err > out->worst) out->worst = err;
    out->cells++;
    ledge_world_destroy(w);
}

static void pair_matrix(void) {
    tally t = {0, 0.0};
    int stride = under_valgrind() ? 7 : 1;
    long k = 0;
    for (int p = 0; p < PAIR_KINDS; ++p)
        for (int d = 0; d < DIRECTIONS; ++d) {
            for (int i = 0; i < 5; ++i) {
                for (int j = 0; j < 5; ++j) {
                    ledge_material m =
                        mat((float)steps5[i], (float)steps5[j], 0.0f, LEDGE_FRICTION_MIX_MEAN);
                    if (k++ % stride == 0) pair_cell(&pair_kinds[p], &m, 0.0f, d, &t);
                }
                for (int mode = 1; mode <= 2; ++mode) {
                    ledge_material m = mat((float)steps5[i], 0.5f, 0.0f, (ledge_friction_mix)mode);
                    if (k++ % stride == 0) pair_cell(&pair_kinds[p], &m, 0.0f, d, &t);
                }
                // A moving body (a belt) under it, and a tread on a belt.
                ledge_material m = mat((float)steps5[i], 0.25f, 0.0f, LEDGE_FRICTION_MIX_MEAN);
                if (k++ % stride == 0) pair_cell(&pair_kinds[p], &m, 2.0f, d, &t);
                m.surface_speed = -0.75f;
                if (k++ % stride == 0) pair_cell(&pair_kinds[p], &m, 2.0f, d, &t);
            }
        }
    print_message("%s, %s, body against body materials: %d cells, worst error %.3g of the "
                  "speed\n",
                  law_name(), gravity_name(), t.cells, t.worst);
    if (stride == 1) assert_int_equal(t.cells, PAIR_KINDS * DIRECTIONS * 5 * (5 + 2 + 2));
}

static void test_pair_matrix(void **state) {
    (void)state;
    for (int law = 0; law < 2; ++law)
        for (int g = 0; g < 5; ++g) {
            g_law = (ledge_friction_law)law;
            g_gravity = gravities[g];
            pair_matrix();
        }
    g_gravity = dv(0, 0);
    g_law = LEDGE_FRICTION_N;
}

// --- belts: the carried speed against its closed forms ----------------------------------

// A floor of FULL tiles whose surface faces `up` (gravity against it), the
// body resting on it at rest; the belt's cells moving at s (per cell, or
// the FULL id's material with `by_id`). Returns the world; *body the box.
typedef struct belt_case {
    dvec gravity;
    int substeps;
    float drag;
    bool by_id;
} belt_case;

// The floor: a row (gravity along y) or column (along x) of FULL cells
// through cell 20, the body on the side `up` points to.
static ledge_world *belt_world(const belt_case *bc, const ledge_material *m, float body_f,
                               ledge_body_id *body, dvec *n) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = fof(bc->gravity);
    wd.substeps = bc->substeps;
    wd.friction_law = g_law;
    wd.map_width = wd.map_height = 64;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    *n = dunit(dscale(bc->gravity, -1.0));
    bool along_y = bc->gravity.x == 0.0;
    for (int k = 0; k < 64; ++k) {
        int x = along_y ? k : 20, y = along_y ? 20 : k;
        assert_true(ledge_tilemap_set(map, x, y, LEDGE_TILE_FULL));
        if (!bc->by_id) assert_true(ledge_tilemap_set_cell_material(map, x, y, m));
    }
    if (bc->by_id) assert_true(ledge_tilemap_set_tile_material(map, LEDGE_TILE_FULL, m));
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
    bd.friction = body_f;
    bd.drag = bc->drag;
    // Resting on the face: the cell's centre (20.5) plus half a cell and
    // the box's half side, less the slop the projection leaves.
    dvec face = dadd(dv(32.5, 32.5), dscale(*n, 0.0));
    if (along_y)
        face.y = 20.5;
    else
        face.x = 20.5;
    bd.position = fof(dadd(face, dscale(*n, 0.5 + 0.3 - 0.005)));
    *body = ledge_body_create(w, &bd);
    return w;
}

// N's law: from rest every substep answers the contact once, so the speed
// along the belt's tangent t is v(m) = (1 - f) (v(m - 1) / (1 + h d) - s) + s
// after m substeps (v(0) = 0): s (1 - (1 - f)^m) without drag, settling at
// s f (1 + h d) / (h d + f).
static void flat_belt_case(const belt_case *bc, double f, double s, double *worst) {
    ledge_material m = mat((float)f, 0.0f, (float)s, LEDGE_FRICTION_MIX_MIN);
    ledge_body_id id;
    dvec n;
    ledge_world *w = belt_world(bc, &m, 1.0f, &id, &n);
    dvec t = dv(n.y, -n.x);
    double h = (double)DT / bc->substeps, d = bc->drag, vt = 0.0;
    dvec p0 = dof(ledge_body_position(w, id));
    for (int k = 1; k <= 90; ++k) {
        ledge_world_step(w, DT);
        for (int j = 0; j < bc->substeps; ++j) vt = (1.0 - f) * (vt / (1.0 + h * d) - s) + s;
        dvec vel = dof(ledge_body_velocity(w, id));
        double along = ddot(vel, t), across = ddot(vel, n);
        double want = g_law == LEDGE_FRICTION_N ? vt : s; // Coulomb's: at s once caught up
        double err = fabs(along - want);
        bool check = g_law == LEDGE_FRICTION_N || k >= 60;
        if (check && err > *worst) *worst = err;
        if (check && !(err <= 2e-5 * fmax(1.0, fabs(s)))) {
            fail_msg("%s, gravity (%g, %g), %d substeps, drag %g, %s, f %g, s %g, step %d: speed "
                     "along the belt %.7f, closed form %.7f",
                     law_name(), bc->gravity.x, bc->gravity.y, bc->substeps, d,
                     bc->by_id ? "by tile id" : "by cell", f, s, k, along, want);
        }
        assert_true(fabs(across) < 1e-4);
    }
    if (d > 0.0 && g_law == LEDGE_FRICTION_N) {
        double terminal = s * f * (1.0 + h * d) / (h * d + f);
        double along = ddot(dof(ledge_body_velocity(w, id)), t);
        assert_true(fabs(along - terminal) <= 1e-4 * fabs(s));
    }
    // Carried along t, on the floor.
    dvec p1 = dof(ledge_body_position(w, id));
    assert_true(ddot(dsub(p1, p0), t) * s > 0.0);
    assert_true(fabs(ddot(dsub(p1, p0), n)) < 0.01);
    ledge_world_destroy(w);
}

static void test_flat_belts(void **state) {
    (void)state;
    const dvec gs[4] = {{0, -10}, {0, 10}, {-10, 0}, {10, 0}};
    double worst = 0.0;
    int cases = 0;
    for (int law = 0; law < 2; ++law)
        for (int g = 0; g < 4; ++g)
            for (int sub = 1; sub <= 3; sub += 2)
                for (int by_id = 0; by_id < 2; ++by_id)
                    for (int i = 1; i < 5; ++i)
                        for (int sp = 0; sp < 2; ++sp) {
                            g_law = (ledge_friction_law)law;
                            belt_case bc = {gs[g], sub, 0.0f, by_id};
                            flat_belt_case(&bc, steps5[i], sp ? -2.0 : 3.0, &worst);
                            if (g == 0 && !by_id && law == LEDGE_FRICTION_N) {
                                bc.drag = 2.0f;
                                flat_belt_case(&bc, steps5[i], sp ? -2.0 : 3.0, &worst);
                                ++cases;
                            }
                            ++cases;
                        }
    g_law = LEDGE_FRICTION_N;
    print_message("%d flat belts: worst error %.3g m/s of the carried speed\n", cases, worst);
}

// A 45 degree belt (45DEG_NP staircase over FULL, every slope cell moving
// at s along its tangent (ny, -nx): up the slope for s > 0). N's law:
// per substep v = (1 - f) (v + (g . t) h - s) + s settles at
// s - (1 - f) / f g sin(a) h; Coulomb's holds the body at s where
// tan(a) <= f (steeper, N's terminal speed).
static void slope_belt_case(double f, double s, int substeps, int kind, double *worst) {
    ledge_world_def wd = ledge_default_world_def();
    wd.substeps = substeps;
    wd.friction_law = g_law;
    wd.map_width = wd.map_height = 64;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int k = 0; k < 60; ++k) {
        for (int y = 0; y < k; ++y) ledge_tilemap_set(map, k, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, k, k, LEDGE_TILE_45DEG_NP);
    }
    ledge_material m = mat((float)f, 0.0f, (float)s, LEDGE_FRICTION_MIX_MIN);
    assert_true(ledge_tilemap_set_tile_material(map, LEDGE_TILE_45DEG_NP, &m));
    dvec n = dunit(dv(-1, 1)), t = dv(n.y, -n.x);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = make_shape(kind);
    bd.friction = 1.0f;
    dvec on = dv(30.5, 30.5); // the slope passes through the cell's centre
    bd.position = fof(dadd(on, dscale(n, reach(&bd.shape, n) - 0.004)));
    ledge_body_id id = ledge_body_create(w, &bd);
    for (int k = 0; k < 240; ++k) ledge_world_step(w, DT);
    double h = (double)DT / substeps, a = PI / 4.0, g = 10.0;
    double want = s - (1.0 - f) / f * g * sin(a) * h;
    if (g_law == LEDGE_FRICTION_COULOMB && tan(a) <= f + 1e-12) want = s;
    for (int k = 0; k < 3; ++k) {
        ledge_world_step(w, DT);
        dvec vel = dof(ledge_body_velocity(w, id));
        double err = fabs(ddot(vel, t) - want) / fmax(fabs(want), 0.05);
        if (err > *worst) *worst = err;
        if (!(err <= 0.01))
            fail_msg("%s, %s on a 45 degree belt, f %g, s %g, %d substeps: speed along it %.6f, "
                     "closed form %.6f",
                     law_name(), shape_names[kind], f, s, substeps, ddot(vel, t), want);
        assert_true(fabs(ddot(vel, n)) < 1e-3);
    }
    ledge_world_destroy(w);
}

static void test_slope_belts(void **state) {
    (void)state;
    double worst = 0.0;
    int cases = 0;
    for (int law = 0; law < 2; ++law)
        for (int i = 1; i < 5; ++i)
            for (int sp = 0; sp < 2; ++sp)
                for (int sub = 1; sub <= 3; sub += 2)
                    for (int kind = 0; kind < SHAPE_KINDS; ++kind) {
                        g_law = (ledge_friction_law)law;
                        slope_belt_case(steps5[i], sp ? -1.0 : 1.0, sub, kind, &worst);
                        ++cases;
                    }
    g_law = LEDGE_FRICTION_N;
    print_message("%d 45 degree belts: worst error %.3g%% of the terminal speed\n", cases,
                  100.0 * worst);
}

// Belts made of bodies: a static belt body carries a crate at its surface
// speed, a kinematic one moving at vp at vp + s; y up and y down.
static void test_body_belts(void **state) {
    (void)state;
    for (int law = 0; law < 2; ++law)
        for (int flip = 0; flip < 2; ++flip)
            for (int kinematic = 0; kinematic < 2; ++kinematic) {
                double sy = flip ? -1.0 : 1.0;
                ledge_world_def wd = ledge_default_world_def();
                wd.gravity = v(0, (float)(-10.0 * sy));
                wd.friction_law = (ledge_friction_law)law;
                wd.map_width = 128;
                ledge_world *w = ledge_world_create(&wd);
                ledge_body_def belt = ledge_default_body_def();
                belt.type = kinematic ? LEDGE_BODY_KINEMATIC : LEDGE_BODY_STATIC;
                belt.shape = ledge_make_box(v(0, 0), v(40.0f, 0.25f));
                belt.position = v(50.0f, 30.0f);
                belt.friction = 0.5f;
                belt.surface_speed = 1.5f;
                if (kinematic) belt.velocity = v(0.5f, 0.0f);
                ledge_body_id bid = ledge_body_create(w, &belt);
                ledge_body_def bd = ledge_default_body_def();
                bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
                bd.friction = 0.5f;
                bd.position = v(40.0f, (float)(30.0 + sy * (0.25 + 0.3 - 0.004)));
                ledge_body_id crate = ledge_body_create(w, &bd);
                for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
                vec2s vel = ledge_body_velocity(w, crate);
                // The belt's outward normal at its face toward the crate is
                // (0, sy): its tangent (sy, 0).
                double want = (kinematic ? 0.5 : 0.0) + 1.5 * sy;
                if (!(fabs(vel.x - want) < 1e-4))
                    fail_msg("law %d, %s, %s belt: crate at %.6f m/s, want %.6f", law,
                             flip ? "y down" : "y up", kinematic ? "kinematic" : "static",
                             (double)vel.x, want);
                assert_true(fabsf(vel.y) < 1e-3f);
                // Turned off: carried at the belt body's own velocity again.
                assert_true(ledge_body_set_surface_speed(w, bid, 0.0f));
                for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
                assert_float_equal(ledge_body_velocity(w, crate).x, kinematic ? 0.5f : 0.0f, 1e-4f);
                ledge_world_destroy(w);
            }
}

// A belt into a wall: the crate is carried to the wall and held there,
// neither through it nor climbing it.
static void test_belt_into_wall(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    ledge_material belt = mat(0.5f, 0.0f, 3.0f, LEDGE_FRICTION_MIX_MIN);
    for (int x = 0; x < 64; ++x) {
        ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
        ledge_tilemap_set_cell_material(map, x, 0, &belt);
    }
    for (int y = 1; y < 4; ++y) ledge_tilemap_set(map, 30, y, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.4f, 0.4f));
    bd.friction = 1.0f;
    bd.position = v(20.0f, 1.4f);
    ledge_body_id crate = ledge_body_create(w, &bd);
    for (int k = 0; k < 600; ++k) ledge_world_step(w, DT);
    vec2s p = ledge_body_position(w, crate), vel = ledge_body_velocity(w, crate);
    assert_float_equal(p.x, 30.0f - 0.4f, 0.02f);
    assert_float_equal(p.y, 1.4f, 0.02f);
    assert_true(fabsf(vel.x) < 0.2f && fabsf(vel.y) < 0.2f);
    ledge_world_destroy(w);
}

// --- ice ----------------------------------------------------------------------------

// A crate of friction 0.5 slides over an icy run of cells (friction 0)
// at exactly its speed, and stops on the default floor after it; y up and
// y down.
static void test_ice(void **state) {
    (void)state;
    for (int law = 0; law < 2; ++law)
        for (int flip = 0; flip < 2; ++flip) {
            ledge_world_def wd = ledge_default_world_def();
            wd.gravity = v(0, flip ? 10.0f : -10.0f);
            wd.friction_law = (ledge_friction_law)law;
            ledge_world *w = ledge_world_create(&wd);
            ledge_tilemap *map = ledge_world_tilemap(w);
            int row = flip ? 40 : 10;
            ledge_material ice = mat(0.0f, 0.0f, 0.0f, LEDGE_FRICTION_MIX_MIN);
            for (int x = 0; x < 64; ++x) {
                ledge_tilemap_set(map, x, row, LEDGE_TILE_FULL);
                if (x >= 5 && x < 30) ledge_tilemap_set_cell_material(map, x, row, &ice);
            }
            float face = flip ? 40.0f : 11.0f, up = flip ? -1.0f : 1.0f;
            ledge_body_def bd = ledge_default_body_def();
            bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
            bd.friction = 0.5f;
            bd.position = v(8.0f, face + up * (0.3f - 0.004f));
            bd.velocity = v(4.0f, 0.0f);
            ledge_body_id crate = ledge_body_create(w, &bd);
            int on_ice = 0;
            while (ledge_body_position(w, crate).x < 29.6f && on_ice < 600) { // all on the ice
                assert_float_equal(ledge_body_velocity(w, crate).x, 4.0f, 0.0f);
                ledge_world_step(w, DT);
                ++on_ice;
            }
            assert_int_equal(on_ice, 324); // (29.6 - 8) / 4 m/s, in steps of 1/60 s
            for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
            float x = ledge_body_position(w, crate).x;
            if (!(x > 30.0f && x < 31.5f))
                fail_msg("law %d, %s: the crate stopped at x %.4f (the ice ends at 30)", law,
                         flip ? "y down" : "y up", (double)x);
            assert_float_equal(ledge_body_velocity(w, crate).x, 0.0f, 1e-6f);
            ledge_world_destroy(w);
        }
}

// --- the mover on belts and ice ------------------------------------------------------

typedef struct hero {
    ledge_world *w;
    ledge_body_id id;
    float sy; // +1 y up, -1 y down
} hero;

static hero hero_world(bool y_down, float floor_speed) {
    hero h;
    h.sy = y_down ? -1.0f : 1.0f;
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v(0, -20.0f * h.sy);
    h.w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(h.w);
    int row = y_down ? 40 : 10;
    ledge_material belt = mat(1.0f, 0.0f, floor_speed, LEDGE_FRICTION_MIX_MIN);
    for (int x = 0; x < 64; ++x) {
        ledge_tilemap_set(map, x, row, LEDGE_TILE_FULL);
        if (x >= 5 && x < 40) ledge_tilemap_set_cell_material(map, x, row, &belt);
    }
    for (int k = 1; k < 4; ++k)
        ledge_tilemap_set(map, 40, row + (y_down ? -k : k), LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    float face = y_down ? 40.0f : 11.0f;
    bd.position = v(10.0f, face + h.sy * 0.46f);
    h.id = ledge_body_create(h.w, &bd);
    assert_true(ledge_character_create(h.w, h.id, NULL));
    return h;
}

// One frame of a game: its own velocity (no input: only the fall), a
// move, a step.
static ledge_character_state frame(hero *h, float vx, bool jump) {
    ledge_character_state s;
    ledge_character_get_state(h->w, h->id, &s);
    vec2s vel = v(vx, s.velocity.y - 20.0f * h->sy * DT);
    if (jump && s.on_floor) vel.y = 8.0f * h->sy;
    assert_true(ledge_character_move(h->w, h->id, vel, DT, &s));
    ledge_world_step(h->w, DT);
    ledge_character_get_state(h->w, h->id, &s);
    return s;
}

static void test_mover_on_belts(void **state) {
    (void)state;
    for (int flip = 0; flip < 2; ++flip) {
        hero h = hero_world(flip, 2.0f);
        ledge_character_state s = frame(&h, 0.0f, false);
        for (int k = 0; k < 10; ++k) s = frame(&h, 0.0f, false); // landed, carried
        assert_true(s.on_floor && s.floor_is_tile);
        assert_float_equal(s.floor_material.surface_speed, 2.0f, 0.0f);
        // The floor's tangent (ny, -nx): +x y up, -x y down.
        float dir = h.sy;
        assert_float_equal(s.platform_velocity.x, 2.0f * dir, 1e-6f);
        float x0 = ledge_body_position(h.w, h.id).x;
        for (int k = 0; k < 30; ++k) {
            float before = ledge_body_position(h.w, h.id).x;
            s = frame(&h, 0.0f, false);
            // Carried by s dt each move, exactly (to rounding), on the floor.
            assert_float_equal(ledge_body_position(h.w, h.id).x - before, 2.0f * dir * DT, 1e-5f);
            assert_true(s.on_floor);
            assert_float_equal(s.velocity.x, 0.0f, 0.0f); // the game's velocity is its own
            assert_float_equal(s.real_velocity.x, 2.0f * dir, 1e-3f);
        }
        assert_float_equal(ledge_body_position(h.w, h.id).x - x0, 60.0f * dir * DT, 1e-4f);
        // Walking against the belt at its speed: standing still.
        float x1 = ledge_body_position(h.w, h.id).x;
        for (int k = 0; k < 30; ++k) frame(&h, -2.0f * dir, false);
        assert_float_equal(ledge_body_position(h.w, h.id).x, x1, 1e-4f);
        // Jumping off: the belt's velocity added (platform_on_leave).
        s = frame(&h, 0.0f, true);
        assert_false(s.on_floor);
        assert_float_equal(s.velocity.x, 2.0f * dir, 1e-6f);
        ledge_world_destroy(h.w);
    }
    // Into the wall at x = 40 (y up): carried there, then held against it.
    hero h = hero_world(false, 2.0f);
    for (int k = 0; k < 60 * 20; ++k) frame(&h, 0.0f, false);
    assert_float_equal(ledge_body_position(h.w, h.id).x, 40.0f - 0.3f, 0.02f);
    ledge_character_state s = frame(&h, 0.0f, false);
    assert_true(s.on_wall && s.on_floor);
    ledge_world_destroy(h.w);
    // ride_platforms off: not carried.
    h = hero_world(false, 2.0f);
    ledge_character_def cd = ledge_default_character_def();
    cd.ride_platforms = false;
    assert_true(ledge_character_set_def(h.w, h.id, &cd));
    for (int k = 0; k < 11; ++k) frame(&h, 0.0f, false);
    float x = ledge_body_position(h.w, h.id).x;
    for (int k = 0; k < 30; ++k) frame(&h, 0.0f, false);
    assert_float_equal(ledge_body_position(h.w, h.id).x, x, 0.0f);
    ledge_world_destroy(h.w);
    // A belt body: a static box moving its surface at -1.5 carries too,
    // and the state names its material.
    h = hero_world(false, 0.0f);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_STATIC;
    bd.shape = ledge_make_box(v(0, 0), v(4.0f, 0.25f));
    bd.position = v(20.0f, 13.0f);
    bd.surface_speed = -1.5f;
    bd.friction = 0.25f;
    ledge_body_id belt = ledge_body_create(h.w, &bd);
    ledge_body_set_position(h.w, h.id, v(20.0f, 13.25f + 0.46f));
    for (int k = 0; k < 5; ++k) s = frame(&h, 0.0f, false);
    assert_true(s.on_floor && s.floor_body.index1 == belt.index1);
    assert_float_equal(s.floor_material.surface_speed, -1.5f, 0.0f);
    assert_float_equal(s.floor_material.friction, 0.25f, 0.0f);
    x = ledge_body_position(h.w, h.id).x;
    for (int k = 0; k < 30; ++k) frame(&h, 0.0f, false);
    assert_float_equal(ledge_body_position(h.w, h.id).x - x, -1.5f * 30.0f * DT, 1e-4f);
    ledge_world_destroy(h.w);
}

// Ice, as a Celeste-like game does it: its run acceleration scaled by the
// floor's friction (the state's floor_material). Running at 6 m/s onto an
// icy run of cells and letting go, the character slides on at what the
// game's own deceleration leaves: the distance is the game's sum, to
// rounding (the mover adds no friction of its own); on the default floor
// it stops at once.
static void test_mover_on_ice(void **state) {
    (void)state;
    for (int icy = 0; icy < 2; ++icy) {
        hero h = hero_world(false, 0.0f);
        ledge_material ice = mat(0.05f, 0.0f, 0.0f, LEDGE_FRICTION_MIX_MIN);
        for (int x = 12; x < 40; ++x)
            if (icy) ledge_tilemap_set_cell_material(ledge_world_tilemap(h.w), x, 10, &ice);
        for (int k = 0; k < 10; ++k) frame(&h, 0.0f, false);
        ledge_body_set_position(h.w, h.id, v(14.0f, 11.46f));
        for (int k = 0; k < 3; ++k) frame(&h, 0.0f, false);
        ledge_character_state s;
        ledge_character_get_state(h.w, h.id, &s);
        assert_true(s.on_floor);
        assert_float_equal(s.floor_material.friction, icy ? 0.05f : 1.0f, 0.0f);
        const float decel = 60.0f; // m/s^2 at full grip
        float vx = 6.0f;
        double travelled = 0.0;
        float x0 = ledge_body_position(h.w, h.id).x;
        for (int k = 0; k < 120; ++k) {
            ledge_character_get_state(h.w, h.id, &s);
            float grip = s.on_floor ? s.floor_material.friction : 0.0f;
            float dv_ = decel * grip * DT;
            vx = vx > dv_ ? vx - dv_ : 0.0f;
            travelled += (double)vx * DT;
            frame(&h, vx, false);
        }
        double got = ledge_body_position(h.w, h.id).x - x0;
        // Ice: 6 / (60 * 0.05) = 2 s to stop, 6 m; the floor: 0.1 s.
        double want = icy ? 6.0 : 0.3;
        assert_float_equal(got, travelled, 1e-3);
        assert_float_equal(got, want, 0.06);
        ledge_world_destroy(h.w);
    }
}

// A crate straddling the edge of a belt (or of ice) is answered by the
// material under its centre, whichever side the belt lies on: the
// material changes over where the centre crosses the seam, both ways.
static void test_material_under_centre(void **state) {
    (void)state;
    for (int belt_left = 0; belt_left < 2; ++belt_left)
        for (int k = 0; k < 7; ++k) {
            ledge_world_def wd = ledge_default_world_def();
            ledge_world *w = ledge_world_create(&wd);
            ledge_tilemap *map = ledge_world_tilemap(w);
            ledge_material belt = mat(0.5f, 0.0f, 0.5f, LEDGE_FRICTION_MIX_MIN);
            for (int x = 0; x < 64; ++x) {
                ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
                if ((x < 20) == (bool)belt_left) ledge_tilemap_set_cell_material(map, x, 0, &belt);
            }
            // Centres from 19.7 to 20.3: the box (half width 0.35) always
            // on both cells.
            float cx = 19.7f + 0.1f * (float)k;
            ledge_body_def bd = ledge_default_body_def();
            bd.shape = ledge_make_box(v(0, 0), v(0.35f, 0.3f));
            bd.friction = 1.0f;
            bd.position = v(cx, 1.3f - 0.004f);
            ledge_body_id crate = ledge_body_create(w, &bd);
            ledge_world_step(w, DT);
            assert_int_equal(ledge_body_contacts(w, crate, NULL, 0), 2);
            bool on_belt = belt_left ? cx < 19.999f : cx > 20.001f;
            float want = on_belt ? 0.5f * 0.5f : 0.0f;   // one substep: s (1 - (1 - f))
            if (k == 3) want = belt_left ? 0.25f : 0.0f; // a tie: the first cell's (19)
            float got = ledge_body_velocity(w, crate).x;
            if (!(fabsf(got - want) < 1e-6f))
                fail_msg("belt %s of x = 20, centre %.2f: %.6f m/s after a step, want %.6f",
                         belt_left ? "left" : "right", (double)cx, (double)got, (double)want);
            ledge_world_destroy(w);
        }
}

// --- sleep --------------------------------------------------------------------------

// A crate asleep on the floor wakes when a belt starts under it: by a
// cell's material, by the tile id's, and by a belt body's speed.
static void test_belts_wake_sleepers(void **state) {
    (void)state;
    for (int how = 0; how < 3; ++how) {
        ledge_world_def wd = ledge_default_world_def();
        wd.enable_sleep = true;
        ledge_world *w = ledge_world_create(&wd);
        ledge_tilemap *map = ledge_world_tilemap(w);
        for (int x = 0; x < 64; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
        bd.friction = 0.5f;
        bd.position = v(20.4f, 1.3f); // over cell 20 (it touches 19 too)
        ledge_body_id belt_body = LEDGE_NULL_BODY_ID;
        if (how == 2) {
            ledge_body_def bb = ledge_default_body_def();
            bb.type = LEDGE_BODY_STATIC;
            bb.shape = ledge_make_box(v(0, 0), v(5.0f, 0.25f));
            bb.position = v(20.0f, 1.25f);
            bb.friction = 0.5f; // (a body's default is 0: no grip, a belt carries nothing)
            belt_body = ledge_body_create(w, &bb);
            bd.position = v(20.0f, 1.8f);
        }
        ledge_body_id crate = ledge_body_create(w, &bd);
        for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
        assert_false(ledge_body_is_awake(w, crate));
        ledge_material belt = mat(1.0f, 0.0f, 2.0f, LEDGE_FRICTION_MIX_MIN);
        for (int x = 15; x < 40 && how == 0; ++x)
            assert_true(ledge_tilemap_set_cell_material(map, x, 0, &belt));
        if (how == 1) assert_true(ledge_tilemap_set_tile_material(map, LEDGE_TILE_FULL, &belt));
        if (how == 2) assert_true(ledge_body_set_surface_speed(w, belt_body, 2.0f));
        for (int k = 0; k < 30; ++k) ledge_world_step(w, DT);
        if (!ledge_body_is_awake(w, crate))
            fail_msg("case %d: the crate sleeps on at (%.3f, %.3f)", how,
                     (double)ledge_body_position(w, crate).x,
                     (double)ledge_body_position(w, crate).y);
        if (!(ledge_body_velocity(w, crate).x > 1.9f))
            fail_msg("case %d: the woken crate moves at %.4f m/s (the belt at 2)", how,
                     (double)ledge_body_velocity(w, crate).x);
        ledge_world_destroy(w);
    }
}

// --- refusals -------------------------------------------------------------------------

static void test_refusals(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 8;
    wd.map_height = 6;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *map = ledge_world_tilemap(w);
    ledge_material ok = mat(0.5f, 0.5f, 1.0f, LEDGE_FRICTION_MIX_MAX);
    ledge_material d = ledge_default_material();
    listen();
    // Tile ids.
    assert_false(ledge_tilemap_set_tile_material(NULL, 1, &ok));
    expect_message("ledge_tilemap_set_tile_material: map is NULL");
    assert_false(ledge_tilemap_set_tile_material(map, LEDGE_TILE_EMPTY, &ok));
    expect_message("ledge_tilemap_set_tile_material: tile is 0 (EMPTY has no surface: must be "
                   "1..33)");
    assert_false(ledge_tilemap_set_tile_material(map, (ledge_tile)34, &ok));
    expect_message("ledge_tilemap_set_tile_material: tile is 34 (must be 0..33)");
    assert_false(ledge_tilemap_set_tile_material(map, (ledge_tile)255, &ok));
    expect_message("ledge_tilemap_set_tile_material: tile is 255 (must be 0..33)");
    assert_false(ledge_tilemap_set_tile_material(map, 1, NULL));
    expect_message("ledge_tilemap_set_tile_material: material is NULL");
    struct bad {
        ledge_material m;
        const char *why;
    } bads[] = {
        {mat(-0.5f, 0, 0, 0), "material->friction is -0.5 (must be 0..1)"},
        {mat(1.25f, 0, 0, 0), "material->friction is 1.25 (must be 0..1)"},
        {mat(NAN, 0, 0, 0), "material->friction is nan (must be 0..1)"},
        {mat(0, 1.5f, 0, 0), "material->bounce is 1.5 (must be 0..1)"},
        {mat(0, -INFINITY, 0, 0), "material->bounce is -inf (must be 0..1)"},
        {mat(0, 0, INFINITY, 0), "material->surface_speed is inf (must be finite, |x| <= 1e+06)"},
        {mat(0, 0, NAN, 0), "material->surface_speed is nan (must be finite, |x| <= 1e+06)"},
        {mat(0, 0, -2e6f, 0), "material->surface_speed is -2e+06 (must be finite, |x| <= 1e+06)"},
        {mat(0, 0, 0, (ledge_friction_mix)3),
         "material->friction_mix is 3 (must be a ledge_friction_mix: 0 MEAN, 1 MIN, 2 MAX)"},
        {mat(0, 0, 0, (ledge_friction_mix)-1),
         "material->friction_mix is -1 (must be a ledge_friction_mix: 0 MEAN, 1 MIN, 2 MAX)"},
    };
    char want[256];
    for (size_t k = 0; k < sizeof bads / sizeof bads[0]; ++k) {
        assert_false(ledge_material_is_valid(&bads[k].m));
        assert_false(ledge_tilemap_set_tile_material(map, 1, &bads[k].m));
        snprintf(want, sizeof want, "ledge_tilemap_set_tile_material: %s", bads[k].why);
        expect_message(want);
        assert_false(ledge_tilemap_set_cell_material(map, 2, 2, &bads[k].m));
        snprintf(want, sizeof want, "ledge_tilemap_set_cell_material: %s", bads[k].why);
        expect_message(want);
    }
    assert_false(ledge_material_is_valid(NULL));
    ledge_material got = ledge_tilemap_tile_material(map, (ledge_tile)40);
    expect_message("ledge_tilemap_tile_material: tile is 40 (must be 0..33)");
    assert_memory_equal(&got, &d, sizeof d);
    got = ledge_tilemap_tile_material(NULL, 1);
    expect_message("ledge_tilemap_tile_material: map is NULL");
    // Cells.
    const int cells[][2] = {{-1, 0}, {0, -1}, {8, 0}, {0, 6}, {-2000000000, 3}};
    for (size_t k = 0; k < sizeof cells / sizeof cells[0]; ++k) {
        assert_false(ledge_tilemap_set_cell_material(map, cells[k][0], cells[k][1], &ok));
        snprintf(want, sizeof want,
                 "ledge_tilemap_set_cell_material: cell is (%d, %d) (must be in 0..7 x 0..5)",
                 cells[k][0], cells[k][1]);
        expect_message(want);
        assert_false(ledge_tilemap_set_cell_material(map, cells[k][0], cells[k][1], NULL));
        expect_message(want);
        assert_false(ledge_tilemap_cell_has_material(map, cells[k][0], cells[k][1]));
    }
    assert_false(ledge_tilemap_set_cell_material(NULL, 0, 0, &ok));
    expect_message("ledge_tilemap_set_cell_material: map is NULL");
    got = ledge_tilemap_cell_material(NULL, 0, 0);
    expect_message("ledge_tilemap_cell_material: map is NULL");
    assert_false(ledge_tilemap_cell_has_material(NULL, 0, 0));
    expect_message("ledge_tilemap_cell_has_material: map is NULL");
    ledge_tilemap_clear_cell_materials(NULL);
    expect_message("ledge_tilemap_clear_cell_materials: map is NULL");
    assert_false(ledge_tilemap_reserve_cell_materials(NULL, 1));
    expect_message("ledge_tilemap_reserve_cell_materials: map is NULL");
    assert_false(ledge_tilemap_reserve_cell_materials(map, -1));
    expect_message("ledge_tilemap_reserve_cell_materials: count is -1 (must be 0..48, the "
                   "map's cells)");
    assert_false(ledge_tilemap_reserve_cell_materials(map, 49));
    expect_message("ledge_tilemap_reserve_cell_materials: count is 49 (must be 0..48, the "
                   "map's cells)");
    // Nothing changed: every id's and cell's material the default.
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        got = ledge_tilemap_tile_material(map, (ledge_tile)t);
        assert_memory_equal(&got, &d, sizeof d);
    }
    for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 8; ++x) assert_false(ledge_tilemap_cell_has_material(map, x, y));
    // Outside the map the FULL tile's material, without a message.
    assert_true(ledge_tilemap_set_tile_material(map, LEDGE_TILE_FULL, &ok));
    got = ledge_tilemap_cell_material(map, -3, 100);
    assert_memory_equal(&got, &ok, sizeof ok);
    assert_int_equal(g_messages, 0);
    // Bodies.
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
    bd.position = v(3, 3);
    bd.surface_speed = NAN;
    assert_int_equal(ledge_body_create(w, &bd).index1, 0);
    expect_message("ledge_body_create: surface_speed is nan (must be finite, |x| <= 1e+06)");
    bd.surface_speed = 1e7f;
    assert_int_equal(ledge_body_create(w, &bd).index1, 0);
    expect_message("ledge_body_create: surface_speed is 1e+07 (must be finite, |x| <= 1e+06)");
    bd.surface_speed = 0.0f;
    bd.friction_mix = (ledge_friction_mix)7;
    assert_int_equal(ledge_body_create(w, &bd).index1, 0);
    expect_message("ledge_body_create: friction_mix is 7 (must be a ledge_friction_mix: 0 MEAN, 1 "
                   "MIN, 2 MAX)");
    bd.friction_mix = LEDGE_FRICTION_MIX_MEAN;
    bd.friction = 0.25f;
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_int_not_equal(id.index1, 0);
    ledge_material before = ledge_body_material(w, id);
    assert_false(ledge_body_set_surface_speed(w, id, INFINITY));
    expect_message("ledge_body_set_surface_speed: speed is inf (must be finite, |x| <= 1e+06)");
    assert_false(ledge_body_set_material(w, id, NULL));
    expect_message("ledge_body_set_material: material is NULL");
    for (size_t k = 0; k < sizeof bads / sizeof bads[0]; ++k) {
        assert_false(ledge_body_set_material(w, id, &bads[k].m));
        snprintf(want, sizeof want, "ledge_body_set_material: %s", bads[k].why);
        expect_message(want);
    }
    got = ledge_body_material(w, id);
    assert_memory_equal(&got, &before, sizeof got);
    assert_float_equal(got.friction, 0.25f, 0.0f);
    ledge_body_id stale = id;
    ledge_body_destroy(w, id);
    got = ledge_body_material(w, stale);
    snprintf(want, sizeof want,
             "ledge_body_material: body id {%u, %u} is stale (the body was "
             "destroyed)",
             stale.index1, stale.generation);
    expect_message(want);
    assert_memory_equal(&got, &d, sizeof d);
    assert_false(ledge_body_set_surface_speed(w, stale, 1.0f));
    snprintf(want, sizeof want,
             "ledge_body_set_surface_speed: body id {%u, %u} is stale (the "
             "body was destroyed)",
             stale.index1, stale.generation);
    expect_message(want);
    // The mix.
    got = ledge_mix_materials(NULL, &ok);
    expect_message("ledge_mix_materials: a is NULL");
    assert_memory_equal(&got, &d, sizeof d);
    got = ledge_mix_materials(&ok, NULL);
    expect_message("ledge_mix_materials: b is NULL");
    quiet();
    // The world still steps.
    ledge_world_step(w, DT);
    ledge_world_destroy(w);
}

// --- determinism and snapshots ---------------------------------------------------------------

// A level with every material: an icy run, a bouncy pad, belts of cells
// both ways, a belt tile id, a belt body and a grippy body; crates and
// balls over them.
static ledge_world *material_level(int workers, bool with_materials) {
    ledge_world_def wd = ledge_default_world_def();
    wd.worker_count = workers;
    wd.map_width = 48;
    wd.map_height = 24;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < 48; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    for (int y = 1; y < 24; ++y) {
        ledge_tilemap_set(map, 0, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, 47, y, LEDGE_TILE_FULL);
    }
    for (int x = 20; x < 28; ++x) ledge_tilemap_set(map, x, 6, LEDGE_TILE_HALF_U);
    ledge_tilemap_set(map, 19, 6, LEDGE_TILE_45DEG_NP);
    ledge_tilemap_set(map, 28, 6, LEDGE_TILE_45DEG_PP);
    if (with_materials) {
        ledge_material ice = mat(0.0f, 0.0f, 0.0f, LEDGE_FRICTION_MIX_MIN);
        ledge_material pad = mat(1.0f, 0.9f, 0.0f, LEDGE_FRICTION_MIX_MIN);
        ledge_material right = mat(0.6f, 0.0f, 2.0f, LEDGE_FRICTION_MIX_MIN);
        ledge_material left = mat(0.6f, 0.0f, -3.0f, LEDGE_FRICTION_MIX_MIN);
        for (int x = 2; x < 10; ++x) ledge_tilemap_set_cell_material(map, x, 0, &ice);
        for (int x = 12; x < 14; ++x) ledge_tilemap_set_cell_material(map, x, 0, &pad);
        for (int x = 15; x < 30; ++x) ledge_tilemap_set_cell_material(map, x, 0, &right);
        for (int x = 30; x < 46; ++x) ledge_tilemap_set_cell_material(map, x, 0, &left);
        ledge_tilemap_set_tile_material(map, LEDGE_TILE_HALF_U, &left);
    }
    ledge_body_def bb = ledge_default_body_def();
    bb.type = LEDGE_BODY_KINEMATIC;
    bb.shape = ledge_make_box(v(0, 0), v(3.0f, 0.25f));
    bb.position = v(36.0f, 10.0f);
    bb.velocity = v(0.0f, 0.5f);
    bb.friction = 0.5f;
    if (with_materials) bb.surface_speed = 1.5f;
    ledge_body_create(w, &bb);
    for (int k = 0; k < 60; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.shape =
            k % 2 ? ledge_make_circle(v(0, 0), 0.25f) : ledge_make_box(v(0, 0), v(0.25f, 0.25f));
        bd.position = v(2.5f + (float)(k % 20) * 2.1f, 3.0f + (float)(k / 20) * 4.0f);
        bd.friction = 0.3f + 0.1f * (float)(k % 5);
        bd.bounce = k % 3 ? 0.0f : 0.4f;
        if (with_materials && k % 7 == 0) bd.friction_mix = LEDGE_FRICTION_MIX_MAX;
        if (with_materials && k % 11 == 0) bd.surface_speed = 0.5f;
        ledge_body_create(w, &bd);
    }
    return w;
}

static void test_workers_same_bits(void **state) {
    (void)state;
    ledge_world *a = material_level(1, true), *b = material_level(2, true);
    ledge_world *plain = material_level(1, false);
    bool differ = false;
    for (int k = 0; k < 300; ++k) {
        ledge_world_step(a, DT);
        ledge_world_step(b, DT);
        ledge_world_step(plain, DT);
        assert_true(ledge_world_hash(a) == ledge_world_hash(b));
        differ |= ledge_world_hash(a) != ledge_world_hash(plain);
    }
    assert_true(differ); // the materials did something
    ledge_world_destroy(a);
    ledge_world_destroy(b);
    ledge_world_destroy(plain);
}

// Saved at step 120, played on 120 steps; restored (into the same world
// and into a world of the same level made without its materials: they are
// state), the same hashes every step, and the same snapshot bytes.
static void test_snapshot_materials(void **state) {
    (void)state;
    ledge_world *w = material_level(1, true);
    for (int k = 0; k < 120; ++k) ledge_world_step(w, DT);
    size_t cap = ledge_world_snapshot_size(w);
    unsigned char *snap = malloc(cap), *again = malloc(cap);
    size_t n = ledge_world_save(w, snap, cap);
    assert_true(n > 0);
    uint64_t hashes[120];
    for (int k = 0; k < 120; ++k) {
        ledge_world_step(w, DT);
        hashes[k] = ledge_world_hash(w);
    }
    // Changed after the save: put back by the restore.
    ledge_material changed = mat(0.1f, 0.2f, 9.0f, LEDGE_FRICTION_MIX_MEAN);
    ledge_tilemap_set_cell_material(ledge_world_tilemap(w), 40, 0, &changed);
    ledge_tilemap_set_cell_material(ledge_world_tilemap(w), 41, 0, NULL);
    ledge_tilemap_set_tile_material(ledge_world_tilemap(w), LEDGE_TILE_HALF_U, &changed);
    for (int into = 0; into < 2; ++into) {
        ledge_world *t = into ? material_level(1, false) : w;
        assert_true(ledge_world_restore(t, snap, n));
        assert_int_equal(ledge_world_save(t, again, cap), n);
        assert_memory_equal(snap, again, n);
        ledge_material got = ledge_tilemap_cell_material(ledge_world_tilemap(t), 40, 0);
        assert_float_equal(got.surface_speed, -3.0f, 0.0f);
        assert_true(ledge_tilemap_cell_has_material(ledge_world_tilemap(t), 41, 0));
        got = ledge_tilemap_tile_material(ledge_world_tilemap(t), LEDGE_TILE_HALF_U);
        assert_float_equal(got.surface_speed, -3.0f, 0.0f);
        for (int k = 0; k < 120; ++k) {
            ledge_world_step(t, DT);
            if (ledge_world_hash(t) != hashes[k])
                fail_msg("restored %s: step %d's hash differs", into ? "elsewhere" : "in place", k);
        }
        if (into) ledge_world_destroy(t);
    }
    free(snap);
    free(again);
    ledge_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mix_rule),
        cmocka_unit_test(test_tile_matrix),
        cmocka_unit_test(test_pair_matrix),
        cmocka_unit_test(test_flat_belts),
        cmocka_unit_test(test_slope_belts),
        cmocka_unit_test(test_body_belts),
        cmocka_unit_test(test_belt_into_wall),
        cmocka_unit_test(test_ice),
        cmocka_unit_test(test_material_under_centre),
        cmocka_unit_test(test_mover_on_belts),
        cmocka_unit_test(test_mover_on_ice),
        cmocka_unit_test(test_belts_wake_sleepers),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_workers_same_bits),
        cmocka_unit_test(test_snapshot_materials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
