// The rain scene in Box2D 2.4 (Debian libbox2d-dev), for bench_peers.
// Everything at Box2D's defaults: the dynamic tree broad phase, 8 velocity
// and 3 position iterations (the values the manual and testbed use; Step
// has no default), sleeping allowed, continuous collision on (it only
// sweeps dynamic bodies against static ones). Box2D mixes friction as
// sqrt(fa fb) and restitution as max(ra, rb), like ledge, so the tiles get
// the circles' 0.3 and 0.1. One static body holds every tile as its own
// fixture (a box or a triangle), as a game would load a tile layer.
#include "peers.h"

#include <box2d/box2d.h>

#include <new>
#include <vector>

namespace {

const int VELOCITY_ITERATIONS = 8;
const int POSITION_ITERATIONS = 3;

struct b2_rain {
    b2World world{b2Vec2(0.0f, -10.0f)};
    std::vector<b2Body *> bodies; // circle k's body
};

void add_tile(void *user, const double *xy, int count) {
    b2Body *ground = static_cast<b2Body *>(user);
    b2Vec2 verts[8];
    for (int i = 0; i < count; ++i) verts[i].Set((float)xy[2 * i], (float)xy[2 * i + 1]);
    b2PolygonShape poly;
    poly.Set(verts, count);
    b2FixtureDef fd;
    fd.shape = &poly;
    fd.friction = RAIN_FRICTION;
    fd.restitution = RAIN_BOUNCE;
    ground->CreateFixture(&fd);
}

// Rotation locked (ledge's model): b2BodyDef.fixedRotation.
void *create_rain(const rain_layout *l, const ledge_tilemap *map, bool locked) {
    b2_rain *w = new (std::nothrow) b2_rain;
    if (!w) return nullptr;
    b2BodyDef gd;
    b2Body *ground = w->world.CreateBody(&gd);
    if (!peer_each_tile(map, add_tile, ground)) {
        delete w;
        return nullptr;
    }
    b2CircleShape circle;
    circle.m_radius = RAIN_RADIUS;
    b2FixtureDef fd;
    fd.shape = &circle;
    fd.density = RAIN_DENSITY;
    fd.friction = RAIN_FRICTION;
    fd.restitution = RAIN_BOUNCE;
    w->bodies.reserve((size_t)l->count);
    for (int k = 0; k < l->count; ++k) {
        vec2s p = rain_start(l->cols, k);
        b2BodyDef bd;
        bd.type = b2_dynamicBody;
        bd.fixedRotation = locked;
        bd.position.Set(p.raw[0], p.raw[1]); // C++ sees no anonymous x, y
        b2Body *b = w->world.CreateBody(&bd);
        b->CreateFixture(&fd);
        w->bodies.push_back(b);
    }
    return w;
}

void *create(const rain_layout *l, const ledge_tilemap *map) {
    return create_rain(l, map, false);
}

void *create_locked(const rain_layout *l, const ledge_tilemap *map) {
    return create_rain(l, map, true);
}

void step(void *world, float dt) {
    static_cast<b2_rain *>(world)->world.Step(dt, VELOCITY_ITERATIONS, POSITION_ITERATIONS);
}

void read(void *world, double *pos, double *vel) {
    b2_rain *w = static_cast<b2_rain *>(world);
    for (size_t k = 0; k < w->bodies.size(); ++k) {
        b2Vec2 p = w->bodies[k]->GetPosition(), u = w->bodies[k]->GetLinearVelocity();
        pos[2 * k] = p.x;
        pos[2 * k + 1] = p.y;
        vel[2 * k] = u.x;
        vel[2 * k + 1] = u.y;
    }
}

void destroy(void *world) {
    delete static_cast<b2_rain *>(world);
}

int awake(void *world) {
    b2_rain *w = static_cast<b2_rain *>(world);
    int n = 0;
    for (b2Body *b : w->bodies) n += b->IsAwake();
    return n;
}

} // namespace

extern "C" const peer_engine peer_box2d = {
    "box2d",
    "Box2D 2.4.1: dynamic tree, 8 velocity + 3 position iterations, sleeping allowed (defaults)",
    create,
    step,
    read,
    destroy,
    awake,
    false,
};

extern "C" const peer_engine peer_box2d_locked = {
    "box2d-locked", "Box2D 2.4.1 as above, rotation locked (b2BodyDef.fixedRotation)",
    create_locked,  step,
    read,           destroy,
    awake,          false,
};
