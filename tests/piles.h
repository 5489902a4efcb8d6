// Piles on a default world for the tests and benchmarks (tests/test_stack.c,
// tests/bench_stack.c): towers, pyramids and a bin of circles built in a
// frame of their own ("up" against gravity, "along" the floor, the floor's
// surface at height 0 on the map's edge on the gravity side), so that where
// each body should rest is known, and the figures a pile ended with.
#ifndef LEDGE_TEST_PILES_H
#define LEDGE_TEST_PILES_H

#include <ledge/ledge.h>

#include <stdbool.h>

#define DT       (1.0f / 60.0f)
#define MAX_BODY 512
#define MAP      64
#define CENTRE   32.0f
#define STEPS    600

typedef enum shape_kind {
    SHAPE_BOX,
    SHAPE_CIRCLE,
    SHAPE_HEXAGON,
    SHAPE_QUAD,
    SHAPE_KINDS
} shape_kind;
extern const char *const shape_name[SHAPE_KINDS];

/// A scene's world, its bodies and where each should rest.
typedef struct pile {
    ledge_world *w;
    ledge_body_id id[MAX_BODY];
    float along0[MAX_BODY];  ///< Start position along the floor.
    float height0[MAX_BODY]; ///< Start height above the floor's surface.
    float allow[MAX_BODY];   ///< How far it may sink: linear_slop for the floor's contact and a
                             ///< fifth of it per pair under it, along their normals, plus 0.005 m.
    float friction[MAX_BODY], bounce[MAX_BODY]; ///< As made (a peer engine builds the same).
    int n;
    vec2s up, along; ///< Unit vectors of the frame.
    float base;      ///< dot(point, up) of the floor's surface.
    int gravity;     ///< 0 (0, -10), 1 (0, +10: y down), 2 (-10, 0), 3 (+10, 0).
    float slop;
} pile;

/// What a scene ended with.
typedef struct figures {
    float overlap;     ///< Deepest overlap of two bodies, or of a body and a tile.
    float sunk;        ///< Deepest a body sank below where it started.
    float sunk_excess; ///< The most a body sank beyond its allowance (pile.allow).
    float drift;       ///< The most a body moved along the floor.
    float speed;       ///< The fastest body's speed.
    int escaped;       ///< Centres in a solid tile or outside the map.
} figures;

/// Gravity 0 (0, -10), 1 (0, +10: y down), 2 (-10, 0), 3 (+10, 0).
extern const vec2s gravities[4];

/// How a scene's world is made.
typedef struct scene_opts {
    int gravity, workers;
    bool sleep;
    ledge_friction_law law;
} scene_opts;

/// Gravity (0, -10), one worker, no sleep, N's friction law.
extern const scene_opts DEFAULTS;

/// `along` from the map's centre, `height` above the floor's surface.
vec2s frame_point(const pile *p, float along, float height);
/// A point's height above the floor's surface, and its place along it.
float height_of(const pile *p, vec2s q);
float along_of(const pile *p, vec2s q);

/// A default world (64 x 64 cells of 1 m) with gravity `g`, the friction
/// law, workers and sleep asked for; no tiles, no bodies yet.
void pile_begin(pile *p, int g, int workers, bool sleep, ledge_friction_law law);
/// Sets the cell holding the frame's point (along, height).
void set_cell(pile *p, float along, float height, ledge_tile t);
/// FULL floor cells from along -half to +half, and walls `wall_height`
/// cells tall whose inner faces are at along +-wall_at (0: none).
void pile_floor(pile *p, int half, int wall_at, int wall_height);
/// A shape of height 1 in the frame (half extent 0.5 along up and along).
ledge_shape make_shape(const pile *p, shape_kind kind);
/// Adds a body; `below`: the contacts between it and the floor, `cosine`
/// their normals' cosine with up (its sink allowance).
ledge_body_id pile_add(pile *p, ledge_shape shape, float along, float height, int below,
                       float cosine, float density, float friction, float bounce);
void pile_step(pile *p, int steps);
/// The figures of the pile's world now, or of the bodies at `pos` with
/// velocities `vel` (a peer engine's, read back in the pile's order).
figures pile_measure(const pile *p);
figures pile_measure_at(const pile *p, const vec2s *pos, const vec2s *vel);

/// n bodies of `kind`, one on another; the top one of density `top`, the
/// others `rest`; friction 0.6.
void build_tower(pile *p, scene_opts o, int n, shape_kind kind, float top, float rest);
/// A pyramid with `base` bodies in its bottom row, each row resting on the
/// one under it (circles packed in hexagons, the others brick-like).
void build_pyramid(pile *p, scene_opts o, int base, shape_kind kind);
/// `n` circles (radius 0.4, friction 0.3, bounce 0.1) poured into a bin 12
/// wide from rows 0.9 apart, each nudged along by up to 0.05.
void build_bin(pile *p, scene_opts o, int n);

/// The floor's surface in the frame: height rise * (along0 - along) (a
/// ramp going down toward +along when rise > 0; flat when 0), over the
/// floor's cells, filled with the tile of each cell that covers exactly
/// what lies under it (found by sampling each cell against every tile).
typedef struct ramp {
    float rise;  ///< Drop per unit along (0, 0.5, 1, 2; negative: going up).
    float shift; ///< The flat floor's surface height (a half tile: -0.5).
} ramp;

float ramp_height(ramp r, float along);
/// The floor `r` over along -half..half, every cell the tile that covers
/// exactly what lies under the surface (found by sampling).
void fill_ramp(pile *p, ramp r, int half);

#endif
