// The rain scene in Box2D v3 (C), for bench_peers, and the piles of
// tests/piles.h, for bench_stack: built only when the
// meson option box2d_v3 points at a Box2D v3 source tree built with CMake
// (docs/benchmarks.md says how). Everything at Box2D v3's defaults: 4
// substeps, soft contacts, sleeping allowed, continuous collision on, one
// worker (the others run single-threaded too) unless bench_peers'
// --workers asks for more (peer_workers). It mixes friction as
// sqrt(fa fb) and restitution as max(ra, rb), like ledge, so the tiles get
// the circles' 0.3 and 0.1. One static body holds every tile as its own
// polygon (a box or a triangle), as a game would load a tile layer.
#include "peers.h"
#include "piles.h"

#include <box2d/box2d.h>
#include <stdlib.h>

#define SUBSTEPS 4

int peer_workers = 1;

typedef struct v3_rain {
    b2WorldId world;
    b2BodyId *bodies; // circle k's body
    int count;
} v3_rain;

static void add_tile(void *user, const double *xy, int count) {
    b2BodyId ground = *(const b2BodyId *)user;
    b2Vec2 verts[8];
    for (int i = 0; i < count; ++i) verts[i] = (b2Vec2){(float)xy[2 * i], (float)xy[2 * i + 1]};
    b2Hull hull = b2ComputeHull(verts, count);
    b2Polygon poly = b2MakePolygon(&hull, 0.0f);
    b2ShapeDef sd = b2DefaultShapeDef();
    sd.material.friction = RAIN_FRICTION;
    sd.material.restitution = RAIN_BOUNCE;
    b2CreatePolygonShape(ground, &sd, &poly);
}

static void v3_destroy(void *world) {
    v3_rain *w = world;
    if (!w) return;
    if (b2World_IsValid(w->world)) b2DestroyWorld(w->world);
    free(w->bodies);
    free(w);
}

// Rotation locked (ledge's model): b2BodyDef.motionLocks.angularZ.
static void *create(const rain_layout *l, const ledge_tilemap *map, bool locked) {
    v3_rain *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->bodies = malloc(sizeof *w->bodies * (size_t)l->count);
    if (!w->bodies) {
        v3_destroy(w);
        return NULL;
    }
    b2WorldDef wd = b2DefaultWorldDef();
    wd.gravity = (b2Vec2){0.0f, -10.0f};
    wd.workerCount = peer_workers; // above 1: Box2D's own scheduler and threads
    w->world = b2CreateWorld(&wd);
    b2BodyDef gd = b2DefaultBodyDef();
    b2BodyId ground = b2CreateBody(w->world, &gd);
    if (!peer_each_tile(map, add_tile, &ground)) {
        v3_destroy(w);
        return NULL;
    }
    b2ShapeDef sd = b2DefaultShapeDef();
    sd.density = RAIN_DENSITY;
    sd.material.friction = RAIN_FRICTION;
    sd.material.restitution = RAIN_BOUNCE;
    b2Circle circle = {{0.0f, 0.0f}, RAIN_RADIUS};
    for (int k = 0; k < l->count; ++k) {
        vec2s p = rain_start(l->cols, k);
        b2BodyDef bd = b2DefaultBodyDef();
        bd.type = b2_dynamicBody;
        bd.position = (b2Vec2){p.x, p.y};
        bd.motionLocks.angularZ = locked;
        b2BodyId b = b2CreateBody(w->world, &bd);
        b2CreateCircleShape(b, &sd, &circle);
        w->bodies[w->count++] = b;
    }
    return w;
}

static void *v3_create(const rain_layout *l, const ledge_tilemap *map) {
    return create(l, map, false);
}

static void *v3_create_locked(const rain_layout *l, const ledge_tilemap *map) {
    return create(l, map, true);
}

static void v3_step(void *world, float dt) {
    b2World_Step(((v3_rain *)world)->world, dt, SUBSTEPS);
}

static void v3_read(void *world, double *pos, double *vel) {
    v3_rain *w = world;
    for (int k = 0; k < w->count; ++k) {
        b2Vec2 p = b2Body_GetPosition(w->bodies[k]), u = b2Body_GetLinearVelocity(w->bodies[k]);
        pos[2 * k] = p.x;
        pos[2 * k + 1] = p.y;
        vel[2 * k] = u.x;
        vel[2 * k + 1] = u.y;
    }
}

static int v3_awake(void *world) {
    return b2World_GetAwakeBodyCount(((v3_rain *)world)->world);
}

const peer_engine peer_box2d_v3 = {
    "box2d-v3",
    "Box2D v3: 4 substeps, soft contacts, sleeping allowed, continuous on, 1 worker (defaults)",
    v3_create,
    v3_step,
    v3_read,
    v3_destroy,
    v3_awake,
    false,
};

const peer_engine peer_box2d_v3_locked = {
    "box2d-v3-locked",
    "Box2D v3 as above, rotation locked (b2BodyDef.motionLocks.angularZ); with --workers W also "
    "on W workers (b2WorldDef.workerCount, Box2D's own scheduler)",
    v3_create_locked,
    v3_step,
    v3_read,
    v3_destroy,
    v3_awake,
    true,
};

// --- piles (bench_stack) ------------------------------------------------------------

typedef struct v3_pile {
    b2WorldId world;
    b2BodyId body[MAX_BODY];
    int count;
    int substeps;
} v3_pile;

typedef struct pile_tile_ctx {
    b2BodyId ground;
    float friction;
} pile_tile_ctx;

static void add_pile_tile(void *user, const double *xy, int count) {
    const pile_tile_ctx *c = user;
    b2Vec2 verts[8];
    for (int i = 0; i < count; ++i) verts[i] = (b2Vec2){(float)xy[2 * i], (float)xy[2 * i + 1]};
    b2Hull hull = b2ComputeHull(verts, count);
    b2Polygon poly = b2MakePolygon(&hull, 0.0f);
    b2ShapeDef sd = b2DefaultShapeDef();
    sd.material.friction = c->friction;
    b2CreatePolygonShape(c->ground, &sd, &poly);
}

void *peer_v3_pile_create(const pile *p, bool locked, int substeps, bool sleep) {
    v3_pile *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->substeps = substeps;
    b2WorldDef wd = b2DefaultWorldDef();
    wd.gravity = (b2Vec2){gravities[p->gravity].x, gravities[p->gravity].y};
    wd.enableSleep = sleep;
    w->world = b2CreateWorld(&wd);
    b2BodyDef gd = b2DefaultBodyDef();
    // The tiles take the bodies' friction (the scenes use one friction):
    // Box2D mixes sqrt(fa fb), ledge uses a body's own against a tile.
    pile_tile_ctx c = {b2CreateBody(w->world, &gd), p->n > 0 ? p->friction[0] : 0.6f};
    if (!peer_each_tile(ledge_world_tilemap(p->w), add_pile_tile, &c)) {
        peer_v3_pile_destroy(w);
        return NULL;
    }
    for (int i = 0; i < p->n; ++i) {
        const ledge_shape *s = ledge_body_shape(p->w, p->id[i]);
        vec2s at = ledge_body_position(p->w, p->id[i]);
        b2BodyDef bd = b2DefaultBodyDef();
        bd.type = b2_dynamicBody;
        bd.position = (b2Vec2){at.x, at.y};
        bd.motionLocks.angularZ = locked;
        b2BodyId b = b2CreateBody(w->world, &bd);
        b2ShapeDef sd = b2DefaultShapeDef();
        sd.density = ledge_body_mass(p->w, p->id[i]) / ledge_shape_area(s); // the same masses
        sd.material.friction = p->friction[i];
        sd.material.restitution = p->bounce[i];
        if (s->type == LEDGE_SHAPE_CIRCLE) {
            b2Circle circle = {{s->center.x, s->center.y}, s->radius};
            b2CreateCircleShape(b, &sd, &circle);
        } else {
            b2Vec2 verts[8];
            int n = s->count < 8 ? s->count : 8;
            for (int k = 0; k < n; ++k) verts[k] = (b2Vec2){s->vertices[k].x, s->vertices[k].y};
            b2Hull hull = b2ComputeHull(verts, n);
            b2Polygon poly = b2MakePolygon(&hull, 0.0f);
            b2CreatePolygonShape(b, &sd, &poly);
        }
        w->body[w->count++] = b;
    }
    return w;
}

void peer_v3_pile_step(void *world, float dt) {
    v3_pile *w = world;
    b2World_Step(w->world, dt, w->substeps);
}

void peer_v3_pile_read(void *world, vec2s *pos, vec2s *vel) {
    v3_pile *w = world;
    for (int i = 0; i < w->count; ++i) {
        b2Vec2 q = b2Body_GetPosition(w->body[i]), u = b2Body_GetLinearVelocity(w->body[i]);
        pos[i] = (vec2s){{q.x, q.y}};
        vel[i] = (vec2s){{u.x, u.y}};
    }
}

void peer_v3_pile_destroy(void *world) {
    v3_pile *w = world;
    if (!w) return;
    if (b2World_IsValid(w->world)) b2DestroyWorld(w->world);
    free(w);
}
