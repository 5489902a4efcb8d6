// Chains, bridges and pendulums as plain data (joint_scenes.h), and their ledge world.
#include "joint_scenes.h"

#include <math.h>
#include <string.h>

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static int add_body(js_scene *s, vec2s p, vec2s half, float mass, float drag) {
    js_body *b = &s->body[s->bodies];
    b->position = p;
    b->half = half;
    b->mass = mass;
    b->drag = drag;
    b->friction = 0.5f;
    return s->bodies++;
}

static void add_joint(js_scene *s, int a, int b, vec2s pa, vec2s pb, float length, bool rope) {
    js_joint *j = &s->joint[s->joints++];
    j->a = a;
    j->b = b;
    j->anchor_a = pa;
    j->anchor_b = pb;
    j->length = length;
    j->rope = rope;
}

void js_chain(js_scene *s, int n, float load, bool rope) {
    memset(s, 0, sizeof *s);
    s->name = "chain";
    s->floor_y = 0;
    vec2s top = v(32.0f, 60.0f);
    int prev = -1;
    for (int i = 0; i < n; ++i) {
        int k = add_body(s, v(top.x, top.y - 0.25f * (float)(i + 1)), v(0.08f, 0.0f), 0.05f, 0.0f);
        add_joint(s, prev, k, prev < 0 ? top : v(0, 0), v(0, 0), 0.25f, rope);
        prev = k;
    }
    if (load > 0.0f) {
        vec2s at = s->body[prev].position;
        int k = add_body(s, v(at.x, at.y - 0.55f), v(0.3f, 0.3f), load, 0.0f);
        add_joint(s, prev, k, v(0, 0), v(0, 0), 0.55f, rope);
    }
}

void js_bridge(js_scene *s, int n, int crates) {
    memset(s, 0, sizeof *s);
    s->name = "bridge";
    s->floor_y = 0;
    float pw = 0.4f, gap = 0.1f, span = (float)n * (2 * pw + gap) + gap, x0 = 32.0f - span / 2;
    for (int i = 0; i < n; ++i)
        add_body(s, v(x0 + gap + pw + (float)i * (2 * pw + gap), 40.0f), v(pw, 0.05f), 0.08f, 2.0f);
    for (int i = 0; i <= n; ++i) {
        int a = i == 0 ? -1 : i - 1, b = i == n ? -1 : i;
        add_joint(s, a, b, a < 0 ? v(x0, 40.0f) : v(pw, 0), b < 0 ? v(x0 + span, 40.0f) : v(-pw, 0),
                  1.5f * gap, true);
    }
    for (int c = 0; c < crates; ++c)
        add_body(s, v(x0 + span * (float)(c + 1) / (float)(crates + 1), 40.4f), v(0.25f, 0.25f),
                 0.5f, 0.0f);
}

void js_pendulum(js_scene *s, float length, float angle) {
    memset(s, 0, sizeof *s);
    s->name = "pendulum";
    s->floor_y = 0;
    vec2s pivot = v(32.0f, 30.0f);
    int k = add_body(s, v(pivot.x + length * sinf(angle), pivot.y - length * cosf(angle)),
                     v(0.1f, 0.0f), 1.0f, 0.0f);
    add_joint(s, -1, k, pivot, v(0, 0), length, false);
}

void js_double_pendulum(js_scene *s, float angle) {
    memset(s, 0, sizeof *s);
    s->name = "double pendulum";
    s->floor_y = 0;
    vec2s pivot = v(32.0f, 30.0f);
    int prev = -1;
    for (int i = 1; i <= 2; ++i) {
        int k = add_body(s, v(pivot.x + (float)i * sinf(angle), pivot.y - (float)i * cosf(angle)),
                         v(0.1f, 0.0f), 1.0f, 0.0f);
        add_joint(s, prev, k, prev < 0 ? pivot : v(0, 0), v(0, 0), 1.0f, false);
        prev = k;
    }
}

ledge_world *js_ledge(const js_scene *s, ledge_body_id *bodies, ledge_joint_id *joints) {
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *w = ledge_world_create(&wd);
    if (!w) return NULL;
    for (int x = 0; x < 64; ++x)
        ledge_tilemap_set(ledge_world_tilemap(w), x, s->floor_y, LEDGE_TILE_FULL);
    for (int i = 0; i < s->bodies; ++i) {
        const js_body *b = &s->body[i];
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = b->half.y > 0.0f ? ledge_make_box(v(0, 0), b->half)
                                    : ledge_make_circle(v(0, 0), b->half.x);
        bd.position = b->position;
        bd.density = b->mass / ledge_shape_area(&bd.shape);
        bd.drag = b->drag;
        bd.friction = b->friction;
        bodies[i] = ledge_body_create(w, &bd);
    }
    for (int k = 0; k < s->joints; ++k) {
        const js_joint *j = &s->joint[k];
        ledge_joint_def jd = j->rope ? ledge_default_rope_def() : ledge_default_rod_def();
        jd.body_a = j->a >= 0 ? bodies[j->a] : LEDGE_NULL_BODY_ID;
        jd.body_b = j->b >= 0 ? bodies[j->b] : LEDGE_NULL_BODY_ID;
        jd.anchor_a = j->anchor_a;
        jd.anchor_b = j->anchor_b;
        jd.length = j->length;
        joints[k] = ledge_joint_create(w, &jd);
    }
    return w;
}

static vec2s anchor(const vec2s *at, int body, vec2s offset) {
    return body < 0 ? offset : v(at[body].x + offset.x, at[body].y + offset.y);
}

float js_stretch(const js_scene *s, const vec2s *at) {
    float worst = 0.0f;
    for (int k = 0; k < s->joints; ++k) {
        const js_joint *j = &s->joint[k];
        vec2s a = anchor(at, j->a, j->anchor_a), b = anchor(at, j->b, j->anchor_b);
        float d = sqrtf((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)) - j->length;
        if (!j->rope) d = fabsf(d);
        if (d > worst) worst = d;
    }
    return worst;
}

float js_fastest(const js_scene *s, const vec2s *vel) {
    float worst = 0.0f;
    for (int i = 0; i < s->bodies; ++i) {
        float sp = sqrtf(vel[i].x * vel[i].x + vel[i].y * vel[i].y);
        if (sp > worst) worst = sp;
    }
    return worst;
}

double js_energy(const js_scene *s, const vec2s *at, const vec2s *vel) {
    double low[JS_MAX_BODIES] = {0};
    for (int k = 0; k < s->joints; ++k) {
        const js_joint *j = &s->joint[k];
        if (j->b >= 0) low[j->b] = (j->a < 0 ? (double)j->anchor_a.y : low[j->a]) - j->length;
    }
    double e = 0.0;
    for (int i = 0; i < s->bodies; ++i) {
        double vx = vel[i].x, vy = vel[i].y;
        e += s->body[i].mass * ((vx * vx + vy * vy) / 2 + JS_GRAVITY * ((double)at[i].y - low[i]));
    }
    return e;
}
