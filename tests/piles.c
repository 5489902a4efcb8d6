// Piles on a default world for the tests and benchmarks (tests/piles.h).
#include "piles.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pile_require(bool ok, const char *what) {
    if (ok) return;
    fprintf(stderr, "piles: %s failed\n", what);
    abort();
}

const char *const shape_name[SHAPE_KINDS] = {"boxes", "circles", "hexagons", "quads"};

const vec2s gravities[4] = {{{0, -10}}, {{0, 10}}, {{-10, 0}}, {{10, 0}}};

// `along` from the map's centre, `height` above the floor's surface.
vec2s frame_point(const pile *p, float along, float height) {
    vec2s c = {{CENTRE, CENTRE}};
    float c_height = c.x * p->up.x + c.y * p->up.y - p->base;
    float dh = height - c_height;
    return (vec2s){
        {c.x + p->along.x * along + p->up.x * dh, c.y + p->along.y * along + p->up.y * dh}};
}

float height_of(const pile *p, vec2s q) {
    return q.x * p->up.x + q.y * p->up.y - p->base;
}
float along_of(const pile *p, vec2s q) {
    return q.x * p->along.x + q.y * p->along.y;
}

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
void pile_begin(pile *p, int g, int workers, bool sleep, ledge_friction_law law) {
    memset(p, 0, sizeof *p);
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = gravities[g];
    wd.map_width = MAP;
    wd.map_height = MAP;
    wd.worker_count = workers;
    wd.enable_sleep = sleep;
    wd.friction_law = law;
    p->w = ledge_world_create(&wd);
    pile_require(p->w != NULL, "ledge_world_create");
    p->gravity = g;
    p->slop = wd.linear_slop;
    p->up = (vec2s){{-gravities[g].x / 10.0f, -gravities[g].y / 10.0f}};
    p->along = (vec2s){{p->up.y, -p->up.x}};
    // The floor's surface: one cell in from the map's edge on the gravity side.
    float edge = p->up.x + p->up.y > 0.0f ? 0.0f : -(float)MAP; // dot(edge point, up)
    p->base = edge + 1.0f;
}

void set_cell(pile *p, float along, float height, ledge_tile t) {
    int x, y;
    frame_cell(p, along, height, &x, &y);
    pile_require(ledge_tilemap_set(ledge_world_tilemap(p->w), x, y, t),
                 "ledge_tilemap_set(ledge_world_tilemap(p->w), x, y, t)");
}

/// FULL floor cells from along -half to +half, and walls `wall_height`
/// cells tall whose inner faces are at along +-wall_at (0: none).
void pile_floor(pile *p, int half, int wall_at, int wall_height) {
    for (int k = -half; k < half; ++k) set_cell(p, (float)k + 0.5f, -0.5f, LEDGE_TILE_FULL);
    for (int j = 0; wall_at > 0 && j < wall_height; ++j) {
        set_cell(p, -(float)wall_at - 0.5f, (float)j + 0.5f, LEDGE_TILE_FULL);
        set_cell(p, (float)wall_at + 0.5f, (float)j + 0.5f, LEDGE_TILE_FULL);
    }
}

/// A shape of height 1 in the frame (half extent 0.5 along up and along).
ledge_shape make_shape(const pile *p, shape_kind kind) {
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
                static const float qa[4] = {0.5f, 0.5f, -0.5f, -0.5f},
                                   qh[4] = {-0.5f, 0.5f, 0.5f, -0.5f};
                a = qa[k];
                h = qh[k];
            } else {
                float t = (float)k * 1.04719755f; // 60 degrees
                a = 0.57735027f * cosf(t);        // circumradius 0.5 / cos 30
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
        pile_require(ledge_make_polygon(q, n, &s), "ledge_make_polygon(q, n, &s)");
        return s;
    }
    default:
        (void)upright;
        return ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.5f, 0.5f}});
    }
}

// `below`: the contacts between the body and the floor, `cosine` their
// normals' cosine with up (an overlap of the slop along a normal at 30
// degrees lowers the body by slop / cos 30). The floor's contact keeps
// linear_slop, each pair of the pile a fifth of it (world.h).
ledge_body_id pile_add(pile *p, ledge_shape shape, float along, float height, int below,
                       float cosine, float density, float friction, float bounce) {
    pile_require(p->n < MAX_BODY, "p->n < MAX_BODY");
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = shape;
    bd.position = frame_point(p, along, height);
    bd.density = density;
    bd.friction = friction;
    bd.bounce = bounce;
    ledge_body_id id = ledge_body_create(p->w, &bd);
    pile_require(ledge_body_is_valid(p->w, id), "ledge_body_is_valid(p->w, id)");
    p->id[p->n] = id;
    p->along0[p->n] = along_of(p, bd.position);
    p->height0[p->n] = height_of(p, bd.position);
    float kept = below > 0 ? p->slop + 0.2f * p->slop * (float)(below - 1) : 0.0f;
    p->allow[p->n] = kept / cosine + 0.005f;
    p->friction[p->n] = friction;
    p->bounce[p->n] = bounce;
    p->n++;
    return id;
}

void pile_step(pile *p, int steps) {
    for (int k = 0; k < steps; ++k) ledge_world_step(p->w, DT);
}

figures pile_measure_at(const pile *p, const vec2s *pos, const vec2s *vel) {
    figures f = {0};
    f.sunk_excess = -INFINITY;
    ledge_tilemap *map = ledge_world_tilemap(p->w);
    for (int i = 0; i < p->n; ++i) {
        vec2s q = pos[i], v = vel[i];
        const ledge_shape *s = ledge_body_shape(p->w, p->id[i]);
        f.speed = fmaxf(f.speed, sqrtf(v.x * v.x + v.y * v.y));
        f.drift = fmaxf(f.drift, fabsf(along_of(p, q) - p->along0[i]));
        float sunk = p->height0[i] - height_of(p, q);
        f.sunk_excess = fmaxf(f.sunk_excess, sunk - p->allow[i]);
        f.sunk = fmaxf(f.sunk, sunk);
        bool outside = !(q.x > 0.0f && q.y > 0.0f && q.x < (float)MAP && q.y < (float)MAP);
        f.escaped += outside || ledge_tilemap_query_point(map, q, NULL);
        ledge_tile_contact tc[16];
        int nc = ledge_tilemap_collide(map, s, q, tc, 16);
        for (int k = 0; k < nc && k < 16; ++k) f.overlap = fmaxf(f.overlap, tc[k].manifold.depth);
        for (int j = i + 1; j < p->n; ++j) {
            vec2s r = pos[j];
            if (fabsf(r.x - q.x) > 2.0f || fabsf(r.y - q.y) > 2.0f) continue;
            ledge_manifold m = ledge_collide(s, q, ledge_body_shape(p->w, p->id[j]), r);
            if (m.hit) f.overlap = fmaxf(f.overlap, m.depth);
        }
    }
    return f;
}

figures pile_measure(const pile *p) {
    static vec2s pos[MAX_BODY], vel[MAX_BODY];
    for (int i = 0; i < p->n; ++i) {
        pos[i] = ledge_body_position(p->w, p->id[i]);
        vel[i] = ledge_body_velocity(p->w, p->id[i]);
    }
    return pile_measure_at(p, pos, vel);
}

// --- the scenes ------------------------------------------------------------------

const scene_opts DEFAULTS = {0, 1, false, LEDGE_FRICTION_N};

/// n bodies of `kind`, one on another; the top one of density `top`, the
/// others `rest`.
void build_tower(pile *p, scene_opts o, int n, shape_kind kind, float top, float rest) {
    pile_begin(p, o.gravity, o.workers, o.sleep, o.law);
    pile_floor(p, 6, 0, 0);
    for (int i = 0; i < n; ++i) {
        pile_add(p, make_shape(p, kind), 0.0f, 0.5f + (float)i, i + 1, 1.0f,
                 i == n - 1 ? top : rest, 0.6f, 0.0f);
    }
}

/// A pyramid with `base` bodies in its bottom row, each row resting on the
/// one under it (circles packed in hexagons, the others brick-like).
void build_pyramid(pile *p, scene_opts o, int base, shape_kind kind) {
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
void build_bin(pile *p, scene_opts o, int n) {
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

float ramp_height(ramp r, float along) {
    return r.shift - r.rise * along;
}

// Sample point k of 16 in the cell at `corner`, off every line a tile's
// edge can follow (x - y, x - 2y, 2x - y never an integer there).
static vec2s sample(vec2s corner, int k) {
    return (vec2s){
        {corner.x + 0.11f + 0.26f * (float)(k % 4), corner.y + 0.07f + 0.26f * (float)(k / 4)}};
}

void fill_ramp(pile *p, ramp r, int half) {
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
            if (found < 0) {
                fprintf(stderr, "piles: no tile covers cell (%d, %d) of the ramp\n", x, y);
                abort();
            }
            pile_require(ledge_tilemap_set(map, x, y, (ledge_tile)found),
                         "ledge_tilemap_set(map, x, y, (ledge_tile)found)");
        }
    }
}
