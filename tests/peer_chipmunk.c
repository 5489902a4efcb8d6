// The rain scene in Chipmunk2D 7 (Debian libchipmunk-dev), for bench_peers.
// Settings beside the engine's defaults, and why:
// - the spatial hash (cpSpaceUseSpatialHash), as the spec asks, with cells
//   of 1 m (the tile side; circles are 0.8 m across: Chipmunk's advice is
//   the average shape size) and 10 cells per shape (its advice for count);
// - collision slop 0.005 m, as ledge's linear_slop and Box2D's b2_linearSlop:
//   Chipmunk's default 0.1 is meant for pixel units and would let circles
//   of radius 0.4 m sink 25% of their radius into each other;
// - Chipmunk multiplies the two shapes' friction and elasticity, so every
//   shape gets sqrt(0.3) and sqrt(0.1): each pair, circle-circle or
//   circle-tile, then has the spec's 0.3 and 0.1 (ledge: sqrt(fa fb) and
//   max(ba, bb), i.e. the same).
// Default iterations (10), no sleeping (Chipmunk's default), double cpFloat.
#include "peers.h"

#include <chipmunk/chipmunk.h>
#include <math.h>
#include <stdlib.h>

#define HASH_DIM        1.0
#define CELLS_PER_SHAPE 10
#define SLOP            0.005

typedef struct cm_world {
    cpSpace *space;
    cpBody **bodies; // circle k's body
    cpShape **shapes;
    int count, shape_count, shape_cap;
} cm_world;

static bool keep_shape(cm_world *w, cpShape *s) {
    if (w->shape_count == w->shape_cap) {
        int cap = w->shape_cap ? 2 * w->shape_cap : 1024;
        cpShape **grown = realloc(w->shapes, sizeof *grown * (size_t)cap);
        if (!grown) return false;
        w->shapes = grown;
        w->shape_cap = cap;
    }
    w->shapes[w->shape_count++] = s;
    return true;
}

typedef struct tile_ctx {
    cm_world *w;
    bool ok;
} tile_ctx;

static void add_tile(void *user, const double *xy, int count) {
    tile_ctx *c = user;
    cpVect verts[8];
    for (int i = 0; i < count; ++i) verts[i] = cpv(xy[2 * i], xy[2 * i + 1]);
    cpShape *s = cpPolyShapeNewRaw(cpSpaceGetStaticBody(c->w->space), count, verts, 0.0);
    cpShapeSetFriction(s, sqrt(RAIN_FRICTION));
    cpShapeSetElasticity(s, sqrt(RAIN_BOUNCE));
    cpSpaceAddShape(c->w->space, s);
    c->ok &= keep_shape(c->w, s);
}

static void cm_destroy(void *world) {
    cm_world *w = world;
    if (!w) return;
    if (w->space) cpSpaceFree(w->space);
    for (int i = 0; i < w->shape_count; ++i) cpShapeFree(w->shapes[i]);
    for (int k = 0; k < w->count; ++k) cpBodyFree(w->bodies[k]);
    free(w->shapes);
    free(w->bodies);
    free(w);
}

// Rotation locked (ledge's model): the circles get an infinite moment
// (cpBodySetMoment after the shape's density set the mass, which would
// otherwise set the moment from the area too).
static void *create(const rain_layout *l, const ledge_tilemap *map, bool locked) {
    cm_world *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->space = cpSpaceNew();
    w->bodies = malloc(sizeof *w->bodies * (size_t)l->count);
    if (!w->space || !w->bodies) {
        cm_destroy(w);
        return NULL;
    }
    int tiles = 2 * l->height + l->width; // about: walls, floor, ledges
    cpSpaceUseSpatialHash(w->space, HASH_DIM, CELLS_PER_SHAPE * (l->count + tiles));
    cpSpaceSetGravity(w->space, cpv(0, -10));
    cpSpaceSetCollisionSlop(w->space, SLOP);
    tile_ctx c = {w, true};
    if (!peer_each_tile(map, add_tile, &c) || !c.ok) {
        cm_destroy(w);
        return NULL;
    }
    for (int k = 0; k < l->count; ++k) {
        vec2s p = rain_start(l->cols, k);
        cpBody *b = cpSpaceAddBody(w->space, cpBodyNew(0.0, 0.0));
        cpBodySetPosition(b, cpv(p.x, p.y));
        w->bodies[w->count++] = b;
        cpShape *s = cpCircleShapeNew(b, RAIN_RADIUS, cpvzero);
        cpShapeSetDensity(s, RAIN_DENSITY); // mass and moment from the area
        cpShapeSetFriction(s, sqrt(RAIN_FRICTION));
        cpShapeSetElasticity(s, sqrt(RAIN_BOUNCE));
        cpSpaceAddShape(w->space, s);
        if (locked) cpBodySetMoment(b, INFINITY); // after the shape: it sets the moment too
        if (!keep_shape(w, s)) {
            cm_destroy(w);
            return NULL;
        }
    }
    return w;
}

static void *cm_create(const rain_layout *l, const ledge_tilemap *map) {
    return create(l, map, false);
}

static void *cm_create_locked(const rain_layout *l, const ledge_tilemap *map) {
    return create(l, map, true);
}

static void cm_step(void *world, float dt) {
    cpSpaceStep(((cm_world *)world)->space, dt);
}

static void cm_read(void *world, double *pos, double *vel) {
    cm_world *w = world;
    for (int k = 0; k < w->count; ++k) {
        cpVect p = cpBodyGetPosition(w->bodies[k]), u = cpBodyGetVelocity(w->bodies[k]);
        pos[2 * k] = p.x;
        pos[2 * k + 1] = p.y;
        vel[2 * k] = u.x;
        vel[2 * k + 1] = u.y;
    }
}

const peer_engine peer_chipmunk = {
    "chipmunk",
    "Chipmunk2D 7.0.3: spatial hash (dim 1 m, 10 cells per shape), 10 iterations (default), "
    "slop 0.005 m, no sleeping",
    cm_create,
    cm_step,
    cm_read,
    cm_destroy,
    NULL, // sleeping is off by default in Chipmunk
    false,
};

const peer_engine peer_chipmunk_locked = {
    "chipmunk-locked",
    "Chipmunk2D 7.0.3 as above, rotation locked (infinite moment of inertia)",
    cm_create_locked,
    cm_step,
    cm_read,
    cm_destroy,
    NULL,
    false,
};
