// Piles on a default world: towers, pyramids, a heavy body on a light one
// and a bin of circles come to rest (include/ledge/world.h, "The
// response"), asserted scene by scene over a matrix of sizes, shapes,
// mass ratios, floors, gravity directions, worker counts and sleep.
//
// Each scene is built in a frame of its own: "up" against gravity, "along"
// the floor, the floor's surface at height 0 (a row of tiles along the
// map's edge on the gravity side), bodies placed touching (towers and
// pyramids) so that where each one should end is known. After the scene's
// steps, with sleeping off unless said:
// - the deepest overlap of two bodies, or of a body and a tile, is at most
//   2 * linear_slop;
// - no body has sunk below where it started by more than linear_slop per
//   contact under it (along the contact's normal: slop / cos 30 for circles
//   packed in hexagons), plus 0.005 m;
// - no body has moved along the floor by more than 0.01 m;
// - no body is faster than 0.01 m/s (the bin: 0.05 m/s);
// - no centre lies in a solid tile or outside the map.
// A lone contact still answers N's split: tests/test_response.c asserts
// that matrix on the default world.
#include "scale.h"

#include <ledge/ledge.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define DT        (1.0f / 60.0f)
#define MAX_BODY  512
#define MAP       64
#define CENTRE    32.0f
#define STEPS     600

typedef enum shape_kind { SHAPE_BOX, SHAPE_CIRCLE, SHAPE_HEXAGON, SHAPE_QUAD, SHAPE_KINDS } shape_kind;
static const char *const shape_name[SHAPE_KINDS] = {"boxes", "circles", "hexagons", "quads"};

/// A scene's world, its bodies and where each should rest.
typedef struct pile {
    ledge_world *w;
    ledge_body_id id[MAX_BODY];
    float along0[MAX_BODY]; ///< Start position along the floor.
    float height0[MAX_BODY]; ///< Start height above the floor's surface.
    float allow[MAX_BODY];  ///< How far it may sink: linear_slop per contact under it, along
                            ///< their normals, plus 0.005 m.
    int n;
    vec2s up, along; ///< Unit vectors of the frame.
    float base;      ///< dot(point, up) of the floor's surface.
    int gravity;     ///< 0 (0, -10), 1 (0, +10: y down), 2 (-10, 0), 3 (+10, 0).
    float slop;
} pile;

/// What a scene ended with.
typedef struct figures {
    float overlap, sunk_excess, drift, speed;
    int escaped;
} figures;

static const vec2s gravities[4] = {{{0, -10}}, {{0, 10}}, {{-10, 0}}, {{10, 0}}};

// `along` from the map's centre, `height` above the floor's surface.
static vec2s frame_point(const pile *p, float along, float height) {
    vec2s c = {{CENTRE, CENTRE}};
    float c_height = c.x * p->up.x + c.y * p->up.y - p->base;
    float dh = height - c_height;
    return (vec2s){{c.x + p->along.x * along + p->up.x * dh, c.y + p->along.y * along + p->up.y * dh}};
}

static float height_of(const pile *p, vec2s q) { return q.x * p->up.x + q.y * p->up.y - p->base; }
static float along_of(const pile *p, vec2s q) { return q.x * p->along.x + q.y * p->along.y; }

/// The cell holding the point at (along, height) of the frame.
static void frame_cell(const pile *p, float along, float height, int *x, int *y) {
    vec2s q = frame_point(p, along, height);
    *x = (int)floorf(q.x);
    *y = (int)floorf(q.y);
}

/// A default world (friction law, workers and sleep as asked) with gravity
/// `g`, whose floor is the row of cells along the map's edge on the gravity
/// side, from along -half to +half around the map's centre, of tile
/// `floor`; walls two cells high... `wall` cells tall at +-wall_at.
static void pile_begin(pile *p, int g, int workers, bool sleep, ledge_friction_law law) {
    memset(p, 0, sizeof *p);
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = gravities[g];
    wd.map_width = MAP;
    wd.map_height = MAP;
    wd.worker_count = workers;
    wd.enable_sleep = sleep;
    wd.friction_law = law;
    p->w = ledge_world_create(&wd);
    assert_non_null(p->w);
    p->gravity = g;
    p->slop = wd.linear_slop;
    p->up = (vec2s){{-gravities[g].x / 10.0f, -gravities[g].y / 10.0f}};
    p->along = (vec2s){{p->up.y, -p->up.x}};
    // The floor's surface: one cell in from the map's edge on the gravity side.
    float edge = p->up.x + p->up.y > 0.0f ? 0.0f : -(float)MAP; // dot(edge point, up)
    p->base = edge + 1.0f;
}

static void set_cell(pile *p, float along, float height, ledge_tile t) {
    int x, y;
    frame_cell(p, along, height, &x, &y);
    assert_true(ledge_tilemap_set(ledge_world_tilemap(p->w), x, y, t));
}

/// FULL floor cells from along -half to +half, and walls `wall_height`
/// cells tall whose inner faces are at along +-wall_at (0: none).
static void pile_floor(pile *p, int half, int wall_at, int wall_height) {
    for (int k = -half; k < half; ++k) set_cell(p, (float)k + 0.5f, -0.5f, LEDGE_TILE_FULL);
    for (int j = 0; wall_at > 0 && j < wall_height; ++j) {
        set_cell(p, -(float)wall_at - 0.5f, (float)j + 0.5f, LEDGE_TILE_FULL);
        set_cell(p, (float)wall_at + 0.5f, (float)j + 0.5f, LEDGE_TILE_FULL);
    }
}

/// A shape of height 1 in the frame (half extent 0.5 along up and along).
static ledge_shape make_shape(const pile *p, shape_kind kind) {
    bool upright = p->up.y != 0.0f;
    switch (kind) {
    case SHAPE_CIRCLE:
        return ledge_make_circle((vec2s){{0, 0}}, 0.5f);
    case SHAPE_HEXAGON:
    case SHAPE_QUAD: {
        // Flat on the floor and on top: a hexagon with two faces along the
        // floor, or a square made as a polygon (the SAT's polygon path).
        vec2s q[6];
        int n = kind == SHAPE_QUAD ? 4 : 6;
        for (int k = 0; k < n; ++k) {
            float a, h;
            if (kind == SHAPE_QUAD) {
                static const float qa[4] = {0.5f, 0.5f, -0.5f, -0.5f}, qh[4] = {-0.5f, 0.5f, 0.5f, -0.5f};
                a = qa[k];
                h = qh[k];
            } else {
                float t = (float)k * 1.04719755f; // 60 degrees
                a = 0.57735027f * cosf(t);          // circumradius 0.5 / cos 30
                h = 0.57735027f * sinf(t);
            }
            q[k] = (vec2s){{p->along.x * a + p->up.x * h, p->along.y * a + p->up.y * h}};
        }
        // Counter-clockwise in the world: the frame may be mirrored.
        float cross = p->along.x * p->up.y - p->along.y * p->up.x;
        if (cross < 0.0f) {
            for (int k = 0; k < n / 2; ++k) {
                vec2s t = q[k];
                q[k] = q[n - 1 - k];
                q[n - 1 - k] = t;
            }
        }
        ledge_shape s;
        assert_true(ledge_make_polygon(q, n, &s));
        return s;
    }
    default:
        (void)upright;
        return ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.5f, 0.5f}});
    }
}

// `below`: the contacts between the body and the floor, `cosine` their
// normals' cosine with up (an overlap of the slop along a normal at 30
// degrees lowers the body by slop / cos 30).
static ledge_body_id pile_add(pile *p, ledge_shape shape, float along, float height, int below,
                              float cosine, float density, float friction, float bounce) {
    assert_true(p->n < MAX_BODY);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = shape;
    bd.position = frame_point(p, along, height);
    bd.density = density;
    bd.friction = friction;
    bd.bounce = bounce;
    ledge_body_id id = ledge_body_create(p->w, &bd);
    assert_true(ledge_body_is_valid(p->w, id));
    p->id[p->n] = id;
    p->along0[p->n] = along_of(p, bd.position);
    p->height0[p->n] = height_of(p, bd.position);
    p->allow[p->n] = p->slop * (float)below / cosine + 0.005f;
    p->n++;
    return id;
}

static void pile_step(pile *p, int steps) {
    for (int k = 0; k < steps; ++k) ledge_world_step(p->w, DT);
}

static figures pile_measure(const pile *p) {
    figures f = {0};
    f.sunk_excess = -INFINITY;
    ledge_tilemap *map = ledge_world_tilemap(p->w);
    for (int i = 0; i < p->n; ++i) {
        vec2s q = ledge_body_position(p->w, p->id[i]);
        vec2s v = ledge_body_velocity(p->w, p->id[i]);
        const ledge_shape *s = ledge_body_shape(p->w, p->id[i]);
        f.speed = fmaxf(f.speed, sqrtf(v.x * v.x + v.y * v.y));
        f.drift = fmaxf(f.drift, fabsf(along_of(p, q) - p->along0[i]));
        float sunk = p->height0[i] - height_of(p, q);
        f.sunk_excess = fmaxf(f.sunk_excess, sunk - p->allow[i]);
        bool outside = !(q.x > 0.0f && q.y > 0.0f && q.x < (float)MAP && q.y < (float)MAP);
        f.escaped += outside || ledge_tilemap_query_point(map, q, NULL);
        ledge_tile_contact tc[16];
        int nc = ledge_tilemap_collide(map, s, q, tc, 16);
        for (int k = 0; k < nc && k < 16; ++k) f.overlap = fmaxf(f.overlap, tc[k].manifold.depth);
        for (int j = i + 1; j < p->n; ++j) {
            vec2s r = ledge_body_position(p->w, p->id[j]);
            if (fabsf(r.x - q.x) > 2.0f || fabsf(r.y - q.y) > 2.0f) continue;
            ledge_manifold m = ledge_collide(s, q, ledge_body_shape(p->w, p->id[j]), r);
            if (m.hit) f.overlap = fmaxf(f.overlap, m.depth);
        }
    }
    return f;
}

/// Asserts the scene's figures (speed limit `max_speed`; `check_place`
/// false skips the sunk and drift bounds, for piles poured in).
static void pile_check(const pile *p, const char *what, float max_speed, bool check_place) {
    figures f = pile_measure(p);
    bool ok = f.overlap <= 2.0f * p->slop && f.speed <= max_speed && f.escaped == 0 &&
              (!check_place || (f.sunk_excess <= 0.0f && f.drift <= 0.01f));
    if (!ok || getenv("LEDGE_TEST_VERBOSE")) {
        printf("%s, gravity (%g, %g): overlap %.4f m, sunk beyond allowance %.4f m, drift %.4f m, "
               "speed %.4f m/s, escaped or in solid %d\n",
               what, gravities[p->gravity].x, gravities[p->gravity].y, f.overlap,
               check_place ? f.sunk_excess : 0.0f, check_place ? f.drift : 0.0f, f.speed,
               f.escaped);
    }
    if (!ok) fail_msg("%s does not come to rest as it should", what);
}

// --- the scenes ------------------------------------------------------------------

typedef struct scene_opts {
    int gravity, workers;
    bool sleep;
    ledge_friction_law law;
} scene_opts;

static const scene_opts DEFAULTS = {0, 1, false, LEDGE_FRICTION_N};

/// n bodies of `kind`, one on another; the top one of density `top`, the
/// others `rest`.
static void build_tower(pile *p, scene_opts o, int n, shape_kind kind, float top, float rest) {
    pile_begin(p, o.gravity, o.workers, o.sleep, o.law);
    pile_floor(p, 6, 0, 0);
    for (int i = 0; i < n; ++i) {
        pile_add(p, make_shape(p, kind), 0.0f, 0.5f + (float)i, i + 1, 1.0f, i == n - 1 ? top : rest,
                 0.6f, 0.0f);
    }
}

/// A pyramid with `base` bodies in its bottom row, each row resting on the
/// one under it (circles packed in hexagons, the others brick-like).
static void build_pyramid(pile *p, scene_opts o, int base, shape_kind kind) {
    pile_begin(p, o.gravity, o.workers, o.sleep, o.law);
    pile_floor(p, base / 2 + 4, 0, 0);
    float row_height = kind == SHAPE_CIRCLE ? 0.8660254f : 1.0f;
    for (int r = 0; r < base; ++r) {
        for (int i = 0; i < base - r; ++i) {
            float along = -0.5f * (float)(base - r - 1) + (float)i;
            pile_add(p, make_shape(p, kind), along, 0.5f + row_height * (float)r, r + 1,
                     kind == SHAPE_CIRCLE ? row_height : 1.0f, 1.0f, 0.6f, 0.0f);
        }
    }
}

/// `n` circles (radius 0.4, friction 0.3, bounce 0.1) poured into a bin 12
/// wide from rows 0.9 apart, each nudged along by up to 0.05.
static void build_bin(pile *p, scene_opts o, int n) {
    pile_begin(p, o.gravity, o.workers, o.sleep, o.law);
    pile_floor(p, 8, 6, 50);
    uint32_t rng = 12345u;
    for (int i = 0; i < n; ++i) {
        rng = rng * 1664525u + 1013904223u;
        float nudge = (float)((rng >> 8) & 0xffff) / 65536.0f * 0.1f - 0.05f;
        pile_add(p, ledge_make_circle((vec2s){{0, 0}}, 0.4f), -5.5f + (float)(i % 12) + nudge,
                 0.5f + 0.9f * (float)(i / 12), 0, 1.0f, 1.0f, 0.3f, 0.1f);
    }
}

static void run_tower(scene_opts o, int n, shape_kind kind, float top, float rest) {
    pile p;
    build_tower(&p, o, n, kind, top, rest);
    pile_step(&p, STEPS);
    char what[128];
    snprintf(what, sizeof what, "tower of %d %s (top density %g, others %g)", n, shape_name[kind],
             top, rest);
    pile_check(&p, what, 0.01f, true);
    ledge_world_destroy(p.w);
}

static void run_pyramid(scene_opts o, int base, shape_kind kind) {
    pile p;
    build_pyramid(&p, o, base, kind);
    pile_step(&p, STEPS);
    char what[128];
    snprintf(what, sizeof what, "pyramid of %s, base %d", shape_name[kind], base);
    pile_check(&p, what, 0.01f, true);
    ledge_world_destroy(p.w);
}

// --- the six scenes, in every direction of gravity -----------------------

static int directions(void);

static void test_first_hour_scenes(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        run_tower(o, 5, SHAPE_BOX, 1.0f, 1.0f);
        run_tower(o, 10, SHAPE_BOX, 1.0f, 1.0f);
        run_tower(o, 20, SHAPE_BOX, 1.0f, 1.0f);
        run_pyramid(o, 20, SHAPE_BOX);
        run_tower(o, 2, SHAPE_BOX, 100.0f, 1.0f);
        run_tower(o, 2, SHAPE_BOX, 1.0f, 100.0f);
        pile p;
        build_bin(&p, o, 400);
        pile_step(&p, 2 * STEPS);
        pile_check(&p, "bin of 400 circles", 0.05f, false);
        ledge_world_destroy(p.w);
    }
}

// --- the matrix -------------------------------------------------------------------

// Optimised builds run every cell. The sanitizer build (-O0, some 20
// times slower) and valgrind (some 50 times) run a sample: every
// `stride`-th size (always the largest), gravity (0, -10) alone where a
// test says so. Memory errors show on any of them.
static bool reduced(void) {
#ifdef __OPTIMIZE__
    return test_cases(10) != 10; // under valgrind
#else
    return true;
#endif
}

static int stride(int n) { return reduced() ? n : 1; }

/// How many gravity directions a test goes through.
static int directions(void) { return reduced() ? 1 : 4; }

static bool chosen(int k, int first, int last, int every) {
    return k == last || (k - first) % every == 0;
}

// Towers of 1 to 30 of every shape, gravity all round.
static void test_towers(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        for (int kind = 0; kind < SHAPE_KINDS; ++kind) {
            for (int n = 1; n <= 30; ++n) {
                if (chosen(n, 1, 30, stride(7))) run_tower(o, n, (shape_kind)kind, 1.0f, 1.0f);
            }
        }
    }
}

// Pyramids with bases 2 to 30: boxes, squares made as polygons, circles.
static void test_pyramids(void **state) {
    (void)state;
    static const shape_kind kinds[] = {SHAPE_BOX, SHAPE_QUAD, SHAPE_CIRCLE};
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        for (int k = 0; k < 3; ++k) {
            for (int base = 2; base <= 30; ++base) {
                // Gravity (0, -10) every base; the other directions every
                // fourth (same code, turned).
                if (chosen(base, 2, 30, reduced() ? 7 : (g == 0 ? 1 : 4)))
                    run_pyramid(o, base, kinds[k]);
            }
        }
    }
}

// Mass ratios 1:1 to 1:1000 either way up: a body on one other, and a
// tower of 10 whose top, or whose nine others, are the heavy ones.
static void test_mass_ratios(void **state) {
    (void)state;
    static const float ratio[] = {1.0f, 3.0f, 10.0f, 30.0f, 100.0f, 300.0f, 1000.0f};
    static const shape_kind kinds[] = {SHAPE_BOX, SHAPE_CIRCLE, SHAPE_HEXAGON};
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        for (int k = 0; k < 3; ++k) {
            for (int r = 0; r < 7; ++r) {
                if (!chosen(r, 0, 6, stride(3))) continue;
                run_tower(o, 2, kinds[k], ratio[r], 1.0f);
                run_tower(o, 2, kinds[k], 1.0f, ratio[r]);
                run_tower(o, 10, kinds[k], ratio[r], 1.0f);
                run_tower(o, 10, kinds[k], 1.0f, ratio[r]);
            }
        }
    }
}

// --- floors of every tile group -----------------------------------------------------

/// The floor's surface in the frame: height rise * (along0 - along) (a
/// ramp going down toward +along when rise > 0; flat when 0), over the
/// floor's cells, filled with the tile of each cell that covers exactly
/// what lies under it (found by sampling each cell against every tile).
typedef struct ramp {
    float rise;  ///< Drop per unit along (0, 0.5, 1, 2; negative: going up).
    float shift; ///< The flat floor's surface height (a half tile: -0.5).
} ramp;

static float ramp_height(ramp r, float along) { return r.shift - r.rise * along; }

// Sample point k of 16 in the cell at `corner`, off every line a tile's
// edge can follow (x - y, x - 2y, 2x - y never an integer there).
static vec2s sample(vec2s corner, int k) {
    return (vec2s){{corner.x + 0.11f + 0.26f * (float)(k % 4),
                    corner.y + 0.07f + 0.26f * (float)(k / 4)}};
}

static void fill_ramp(pile *p, ramp r, int half) {
    ledge_tilemap *map = ledge_world_tilemap(p->w);
    for (int x = 0; x < MAP; ++x) {
        for (int y = 0; y < MAP; ++y) {
            vec2s corner = {{(float)x, (float)y}};
            bool want[16], any = false, all = true;
            for (int k = 0; k < 16; ++k) {
                vec2s q = sample(corner, k);
                float a = along_of(p, q) - along_of(p, frame_point(p, 0.0f, 0.0f));
                float h = height_of(p, q);
                want[k] = fabsf(a) < (float)half && h < ramp_height(r, a);
                any |= want[k];
                all &= want[k];
            }
            if (!any) continue;
            int found = -1;
            for (int t = 1; t < LEDGE_TILE_COUNT && found < 0; ++t) {
                bool same = true;
                for (int k = 0; k < 16 && same; ++k) {
                    vec2s q = sample(corner, k);
                    same = ledge_tile_contains((ledge_tile)t, corner, 1.0f, q) == want[k];
                }
                if (same) found = t;
            }
            if (all) found = LEDGE_TILE_FULL;
            if (found < 0) fail_msg("no tile covers cell (%d, %d) of the ramp", x, y);
            assert_true(ledge_tilemap_set(map, x, y, (ledge_tile)found));
        }
    }
}

/// A pile on a floor `r`: a tower of three boxes and a pyramid of six
/// circles (three rows) side by side, dropped 0.05 m above the surface,
/// friction `f`. Asserts rest: after 600 steps no body moves faster than
/// 0.01 m/s, none moved along the floor by more than 0.01 m over the last
/// 300 steps, overlaps at most 2 * slop, nothing in a solid tile.
static void run_floor(scene_opts o, ramp r, float f, const char *what) {
    pile p;
    pile_begin(&p, o.gravity, o.workers, o.sleep, o.law);
    fill_ramp(&p, r, 14);
    float slope = sqrtf(1.0f + r.rise * r.rise); // 1 / cos of the slope
    // The tower: the box's lowest corner 0.05 above the surface.
    float corner = r.rise >= 0.0f ? -3.5f : -4.5f;
    for (int i = 0; i < 3; ++i) {
        pile_add(&p, make_shape(&p, SHAPE_BOX), -4.0f, ramp_height(r, corner) + 0.55f + (float)i,
                 0, 1.0f, 1.0f, f, 0.0f);
    }
    // The circles: each 0.05 above the surface under it, rows resting in the
    // pockets of the row below (as laid on a flat floor, then lifted).
    for (int row = 0; row < 3; ++row) {
        for (int i = 0; i < 3 - row; ++i) {
            float a = 3.0f - 0.5f * (float)(2 - row) + (float)i;
            pile_add(&p, ledge_make_circle((vec2s){{0, 0}}, 0.5f), a,
                     ramp_height(r, a) + 0.5f * slope + 0.05f + 0.8660254f * (float)row +
                         (row > 0 ? 0.05f : 0.0f),
                     0, 1.0f, 1.0f, f, 0.0f);
        }
    }
    pile_step(&p, STEPS / 2);
    for (int i = 0; i < p.n; ++i) p.along0[i] = along_of(&p, ledge_body_position(p.w, p.id[i]));
    pile_step(&p, STEPS / 2);
    figures m = pile_measure(&p);
    bool ok = m.overlap <= 2.0f * p.slop && m.speed <= 0.01f && m.drift <= 0.01f && m.escaped == 0;
    if (!ok || getenv("LEDGE_TEST_VERBOSE")) {
        printf("%s, friction %g, %s law, gravity (%g, %g): overlap %.4f m, speed %.4f m/s, moved "
               "%.4f m over the last 300 steps, escaped or in solid %d\n",
               what, f, o.law == LEDGE_FRICTION_N ? "N's" : "Coulomb's", gravities[o.gravity].x,
               gravities[o.gravity].y, m.overlap, m.speed, m.drift, m.escaped);
    }
    if (!ok) fail_msg("a pile on %s does not rest", what);
    ledge_world_destroy(p.w);
}

// Full and half tiles, and ramps of every slope group facing either way,
// where the friction holds a body: f = 1 under N's law (a lone body stops
// dead), and Coulomb's law with f = 1 where tan(slope) <= f. (A pile on a
// ramp needs more friction than a lone body: the pyramid's lower circles
// carry its sideways push too; at f = 0.6 on the 26.6 degree ramp under
// Coulomb's law it rearranges for some 400 steps before it rests.)
static void test_floors(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        scene_opts o = DEFAULTS;
        o.gravity = g;
        run_floor(o, (ramp){0.0f, 0.0f}, 0.6f, "full tiles");
        run_floor(o, (ramp){0.0f, -0.5f}, 0.6f, "half tiles");
        static const float rises[3] = {1.0f, 0.5f, 2.0f};
        static const char *const names[3] = {"a 45 degree ramp", "a 26.6 degree ramp",
                                             "a 63.4 degree ramp"};
        for (int k = 0; k < 3; ++k) {
            for (int facing = -1; facing <= 1; facing += 2) {
                ramp r = {rises[k] * (float)facing, 13.0f}; // all of it inside the map
                o.law = LEDGE_FRICTION_N;
                run_floor(o, r, 1.0f, names[k]);
                if (rises[k] <= 1.0f) { // tan(slope) <= f: Coulomb's law holds a lone body
                    o.law = LEDGE_FRICTION_COULOMB;
                    run_floor(o, r, 1.0f, names[k]);
                }
            }
        }
    }
}

// --- workers and sleep ----------------------------------------------------------------

typedef void scene_builder(pile *p, scene_opts o);

static void tower20(pile *p, scene_opts o) { build_tower(p, o, 20, SHAPE_BOX, 1.0f, 1.0f); }
static void pyramid20(pile *p, scene_opts o) { build_pyramid(p, o, 20, SHAPE_BOX); }
static void circles15(pile *p, scene_opts o) { build_pyramid(p, o, 15, SHAPE_CIRCLE); }
static void heavy1000(pile *p, scene_opts o) { build_tower(p, o, 10, SHAPE_HEXAGON, 1000.0f, 1.0f); }
static void bin400(pile *p, scene_opts o) { build_bin(p, o, 400); }

static scene_builder *const builders[] = {tower20, pyramid20, circles15, heavy1000, bin400};
static const char *const builder_name[] = {"tower of 20 boxes", "pyramid of 20 boxes",
                                           "pyramid of 15 circles", "hexagon of 1000 on 9",
                                           "bin of 400 circles"};
#define BUILDERS ((int)(sizeof builders / sizeof builders[0]))

// One worker and two give the same bits after every step.
static void test_workers_same_bits(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        for (int b = 0; b < (reduced() ? 3 : BUILDERS); b += reduced() ? 2 : 1) {
            scene_opts o = DEFAULTS;
            o.gravity = g;
            pile one, two;
            builders[b](&one, o);
            o.workers = 2;
            builders[b](&two, o);
            for (int k = 0; k < STEPS; ++k) {
                ledge_world_step(one.w, DT);
                ledge_world_step(two.w, DT);
                if (ledge_world_hash(one.w) != ledge_world_hash(two.w))
                    fail_msg("%s, gravity %d: 1 and 2 workers differ at step %d", builder_name[b],
                             g, k + 1);
            }
            ledge_world_destroy(one.w);
            ledge_world_destroy(two.w);
        }
    }
}

// With sleeping on, the piles come to rest as well and fall asleep; woken
// all at once, they stay as they were.
static void test_sleep_on_and_off(void **state) {
    (void)state;
    for (int g = 0; g < directions(); ++g) {
        for (int b = 0; b < (reduced() ? 3 : BUILDERS); b += reduced() ? 2 : 1) {
            scene_opts o = DEFAULTS;
            o.gravity = g;
            o.sleep = true;
            pile p;
            builders[b](&p, o);
            bool poured = builders[b] == bin400;
            float limit = poured ? 0.05f : 0.01f;
            pile_step(&p, poured ? 2 * STEPS : STEPS);
            int awake = 0;
            for (int i = 0; i < p.n; ++i) awake += ledge_body_is_awake(p.w, p.id[i]);
            char what[160];
            snprintf(what, sizeof what, "%s, sleeping (%d of %d awake)", builder_name[b], awake,
                     p.n);
            pile_check(&p, what, limit, !poured);
            if (awake * 10 > p.n) fail_msg("%s: most bodies should sleep", what);
            for (int i = 0; i < p.n; ++i) assert_true(ledge_body_set_awake(p.w, p.id[i], true));
            pile_step(&p, STEPS);
            snprintf(what, sizeof what, "%s, woken and stepped %d times", builder_name[b], STEPS);
            pile_check(&p, what, limit, !poured);
            ledge_world_destroy(p.w);
        }
    }
}

// --- nothing escapes ---------------------------------------------------------------

// A body pushed into a floor deeper than a cell lies in cells whose four
// sides are blocked, where no tile contact can push it out: it is pushed
// back out the way it came. A kinematic slab (it ignores tiles) driven
// down into a floor of 0.1 m tiles presses a small ball ahead of it at 0.33
// m a step; without the rule the ball went through the floor and out of
// the map. Gravity all round.
static void test_buried_bodies_come_out(void **state) {
    (void)state;
    for (int g = 0; g < 4; ++g) {
        ledge_world_def wd = ledge_default_world_def();
        wd.gravity = gravities[g];
        wd.map_width = wd.map_height = 160;
        wd.tile_size = 0.1f;
        ledge_world *w = ledge_world_create(&wd);
        assert_non_null(w);
        vec2s up = {{-gravities[g].x / 10.0f, -gravities[g].y / 10.0f}};
        // The floor: 4 m of tiles along the map's edge on the gravity side.
        for (int x = 0; x < 160; ++x) {
            for (int y = 0; y < 160; ++y) {
                float h = up.x > 0.0f ? (float)x : up.x < 0.0f ? 159.0f - (float)x
                          : up.y > 0.0f ? (float)y : 159.0f - (float)y;
                if (h < 40.0f) ledge_tilemap_set(ledge_world_tilemap(w), x, y, LEDGE_TILE_FULL);
            }
        }
        vec2s centre = {{8.0f, 8.0f}}; // the floor's surface lies 4 m from it along -up
        float surface = 4.0f - 8.0f; // the floor's surface, from the centre along up
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.05f);
        bd.position = (vec2s){{centre.x + up.x * (surface + 0.05f), centre.y + up.y * (surface + 0.05f)}};
        ledge_body_id ball = ledge_body_create(w, &bd);
        bd.type = LEDGE_BODY_KINEMATIC;
        bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.5f, 0.5f}});
        bd.position = (vec2s){{centre.x + up.x * (surface + 0.7f), centre.y + up.y * (surface + 0.7f)}};
        bd.velocity = (vec2s){{-up.x * 20.0f, -up.y * 20.0f}};
        ledge_body_id slab = ledge_body_create(w, &bd);
        assert_true(ledge_body_is_valid(w, ball) && ledge_body_is_valid(w, slab));
        for (int k = 0; k < 60; ++k) {
            ledge_world_step(w, DT);
            vec2s p = ledge_body_position(w, ball);
            float height = (p.x - centre.x) * up.x + (p.y - centre.y) * up.y - surface;
            // Pressed, it may sink into the floor's top row (whose open side
            // pushes it out), never deeper.
            if (height < -0.1f)
                fail_msg("gravity %d, step %d: the ball lies %.3f m under the floor's surface", g,
                         k + 1, -height);
        }
        vec2s end = ledge_body_position(w, ball);
        assert_false(ledge_tilemap_query_point(ledge_world_tilemap(w), end, NULL));
        // A body put inside the floor by the game (no way it came) comes
        // out against gravity, onto the surface.
        vec2s deep = {{centre.x + up.x * (surface - 2.0f), centre.y + up.y * (surface - 2.0f)}};
        assert_true(ledge_body_set_position(w, ball, deep));
        ledge_world_step(w, DT);
        vec2s p = ledge_body_position(w, ball);
        float height = (p.x - centre.x) * up.x + (p.y - centre.y) * up.y - surface;
        if (!(height > 0.0f && height < 0.1f))
            fail_msg("gravity %d: put 2 m into the floor, the ball ends %.3f m above it", g, height);
        ledge_world_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_hour_scenes),
        cmocka_unit_test(test_towers),
        cmocka_unit_test(test_pyramids),
        cmocka_unit_test(test_mass_ratios),
        cmocka_unit_test(test_floors),
        cmocka_unit_test(test_workers_same_bits),
        cmocka_unit_test(test_sleep_on_and_off),
        cmocka_unit_test(test_buried_bodies_come_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
