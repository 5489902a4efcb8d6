// The chains and bridges of tests/joint_scenes.h in Box2D v3, for
// tests/bench_joints.c: built only when the meson option box2d_v3 points at
// a Box2D v3 tree built with CMake. Rotation locked (ledge's model),
// Box2D's defaults otherwise (4 substeps, soft contacts and joints); a
// rope is a distance joint with its spring off and its limit on (0 ..
// length), a rod a rigid distance joint. The tile floor is a static box.
#include "joint_scenes.h"
#include "peers.h"

#include <box2d/box2d.h>
#include <stdlib.h>

typedef struct v3_joints {
    b2WorldId world;
    b2BodyId bodies[JS_MAX_BODIES];
    int count;
} v3_joints;

void *peer_v3_joints_create(const js_scene *s) {
    v3_joints *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    b2WorldDef wd = b2DefaultWorldDef();
    wd.gravity = (b2Vec2){0.0f, -10.0f};
    w->world = b2CreateWorld(&wd);
    b2BodyDef gd = b2DefaultBodyDef();
    b2BodyId ground = b2CreateBody(w->world, &gd);
    b2Polygon floor =
        b2MakeOffsetBox(32.0f, 0.5f, (b2Vec2){32.0f, (float)s->floor_y + 0.5f}, b2Rot_identity);
    b2ShapeDef fd = b2DefaultShapeDef();
    b2CreatePolygonShape(ground, &fd, &floor);
    for (int i = 0; i < s->bodies; ++i) {
        const js_body *b = &s->body[i];
        b2BodyDef bd = b2DefaultBodyDef();
        bd.type = b2_dynamicBody;
        bd.position = (b2Vec2){b->position.x, b->position.y};
        bd.motionLocks.angularZ = true;
        bd.linearDamping = b->drag;
        b2BodyId id = b2CreateBody(w->world, &bd);
        b2ShapeDef sd = b2DefaultShapeDef();
        sd.material.friction = b->friction;
        if (b->half.y > 0.0f) {
            sd.density = b->mass / (4.0f * b->half.x * b->half.y);
            b2Polygon box = b2MakeBox(b->half.x, b->half.y);
            b2CreatePolygonShape(id, &sd, &box);
        } else {
            sd.density = b->mass / (3.14159265f * b->half.x * b->half.x);
            b2Circle c = {{0.0f, 0.0f}, b->half.x};
            b2CreateCircleShape(id, &sd, &c);
        }
        w->bodies[w->count++] = id;
    }
    for (int k = 0; k < s->joints; ++k) {
        const js_joint *j = &s->joint[k];
        b2DistanceJointDef jd = b2DefaultDistanceJointDef();
        jd.base.bodyIdA = j->a >= 0 ? w->bodies[j->a] : ground;
        jd.base.bodyIdB = j->b >= 0 ? w->bodies[j->b] : ground;
        jd.base.localFrameA.p = (b2Vec2){j->anchor_a.x, j->anchor_a.y};
        jd.base.localFrameB.p = (b2Vec2){j->anchor_b.x, j->anchor_b.y};
        jd.length = j->length;
        jd.enableSpring = false;
        if (j->rope) {
            jd.enableLimit = true;
            jd.minLength = 0.0f;
            jd.maxLength = j->length;
        }
        b2CreateDistanceJoint(w->world, &jd);
    }
    return w;
}

void peer_v3_joints_step(void *world, float dt) {
    v3_joints *w = world;
    b2World_Step(w->world, dt, 4);
}

void peer_v3_joints_read(void *world, vec2s *pos, vec2s *vel) {
    v3_joints *w = world;
    for (int i = 0; i < w->count; ++i) {
        b2Vec2 p = b2Body_GetPosition(w->bodies[i]), u = b2Body_GetLinearVelocity(w->bodies[i]);
        pos[i] = (vec2s){{p.x, p.y}};
        vel[i] = (vec2s){{u.x, u.y}};
    }
}

void peer_v3_joints_destroy(void *world) {
    v3_joints *w = world;
    if (!w) return;
    b2DestroyWorld(w->world);
    free(w);
}
