// The scripted scene of the binding's parity test (tests/web/parity.test.mjs,
// docs/web.md): bodies of every type and shape, one-way tiles and bodies, a
// sensor, a bullet, a moving platform, a crusher, a character, the
// pre-solve filter, every setter, tile edits, a snapshot saved and
// restored, and every query, run through the C API here and through the
// JavaScript binding in tests/web/parity.mjs, which must print the same
// trace: one line per result, floats as their bits. `replay_hashes parity`
// prints it.
#include "parity.h"

#include <ledge/ledge.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;

static void tag(const char *t) {
    fputs(t, out);
}
static void end(void) {
    fputc('\n', out);
}
static void i_(int v) {
    fprintf(out, " %d", v);
}
static void f_(float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    fprintf(out, " %08x", (unsigned)u);
}
static void b_(bool v) {
    fputs(v ? " T" : " F", out);
}
static void v_(vec2s v) {
    f_(v.x);
    f_(v.y);
}
static void id_(ledge_body_id id) {
    if (id.index1 == 0)
        fputs(" -", out);
    else
        fprintf(out, " %u:%u", (unsigned)id.index1, (unsigned)id.generation);
}
static void h_(uint64_t h) {
    fprintf(out, " %016llx", (unsigned long long)h);
}

static vec2s v2(float x, float y) {
    return (vec2s){{x, y}};
}

enum { BODIES = 12 };

typedef struct parity {
    ledge_world *w;
    ledge_body_id b[BODIES]; // player, platform, crate1, crate2, crate3, ball, triangle,
                             // sensor, ledge, bullet, crusher, squeezed
    vec2s vel;
    unsigned char snapshot[1 << 16];
    size_t snapshot_size;
} parity;

enum {
    PLAYER,
    PLATFORM,
    CRATE1,
    CRATE2,
    CRATE3,
    BALL,
    TRIANGLE,
    SENSOR,
    LEDGE,
    BULLET,
    CRUSHER,
    SQUEEZED
};

static parity P;

static ledge_response pre_solve(ledge_body_id body, ledge_body_id other, int cell_x, int cell_y,
                                vec2s normal, ledge_response proposed, void *context) {
    parity *p = context;
    (void)cell_x, (void)cell_y;
    bool tri = body.index1 == p->b[TRIANGLE].index1 || other.index1 == p->b[TRIANGLE].index1;
    bool ball = body.index1 == p->b[BALL].index1 || other.index1 == p->b[BALL].index1;
    if (tri && ball) return LEDGE_RESPONSE_CROSS;
    if (ball && other.index1 == 0 && normal.y > 0.9f) return LEDGE_RESPONSE_BOUNCE;
    return proposed;
}

static ledge_body_id body(ledge_body_type type, ledge_shape shape, vec2s pos) {
    ledge_body_def d = ledge_default_body_def();
    d.type = type;
    d.shape = shape;
    d.position = pos;
    d.enable_events = true;
    return ledge_body_create(P.w, &d);
}

static void build(void) {
    ledge_world_def wd = ledge_default_world_def();
    wd.gravity = v2(0, -20);
    wd.map_width = 32;
    wd.map_height = 16;
    P.w = ledge_world_create(&wd);
    ledge_tilemap *m = ledge_world_tilemap(P.w);
    for (int x = 0; x < 32; ++x) ledge_tilemap_set(m, x, 0, LEDGE_TILE_FULL);
    for (int y = 0; y < 16; ++y) {
        ledge_tilemap_set(m, 0, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(m, 31, y, LEDGE_TILE_FULL);
    }
    ledge_tilemap_set(m, 9, 1, LEDGE_TILE_45DEG_PP);
    ledge_tilemap_set(m, 10, 1, LEDGE_TILE_FULL);
    ledge_tilemap_set(m, 11, 1, LEDGE_TILE_45DEG_NP);
    ledge_tilemap_set(m, 14, 1, LEDGE_TILE_HALF_D);
    for (int x = 3; x < 7; ++x) {
        ledge_tilemap_set(m, x, 5, LEDGE_TILE_FULL);
        ledge_tilemap_set_one_way(m, x, 5, LEDGE_ONE_WAY_UP);
    }
    for (int x = 24; x < 31; ++x) ledge_tilemap_set(m, x, 4, LEDGE_TILE_FULL);

    vec2s zero = v2(0, 0);
    P.b[PLAYER] = body(LEDGE_BODY_KINEMATIC, ledge_make_box(zero, v2(0.3f, 0.45f)), v2(3, 1.46f));
    P.b[PLATFORM] = body(LEDGE_BODY_KINEMATIC, ledge_make_box(zero, v2(1.5f, 0.2f)), v2(19, 3));
    P.b[CRATE1] = body(LEDGE_BODY_DYNAMIC, ledge_make_box(zero, v2(0.5f, 0.5f)), v2(7, 1.5f));
    P.b[CRATE2] = body(LEDGE_BODY_DYNAMIC, ledge_make_box(zero, v2(0.5f, 0.5f)), v2(7.1f, 2.6f));
    P.b[CRATE3] = body(LEDGE_BODY_DYNAMIC, ledge_make_box(zero, v2(0.4f, 0.4f)), v2(5, 7));
    P.b[BALL] = body(LEDGE_BODY_DYNAMIC, ledge_make_circle(zero, 0.3f), v2(13, 8));
    vec2s tri[3] = {v2(-0.5f, -0.4f), v2(0.5f, -0.4f), v2(0, 0.5f)};
    ledge_shape ts;
    ledge_make_polygon(tri, 3, &ts);
    P.b[TRIANGLE] = body(LEDGE_BODY_DYNAMIC, ts, v2(13.2f, 5));
    ledge_body_def sd = ledge_default_body_def();
    sd.type = LEDGE_BODY_STATIC;
    sd.shape = ledge_make_box(zero, v2(1, 1));
    sd.position = v2(6, 1.5f);
    sd.sensor = true;
    P.b[SENSOR] = ledge_body_create(P.w, &sd);
    ledge_body_def ld = ledge_default_body_def();
    ld.type = LEDGE_BODY_STATIC;
    ld.shape = ledge_make_box(zero, v2(1, 0.1f));
    ld.position = v2(22, 6);
    ld.one_way = LEDGE_ONE_WAY_UP;
    P.b[LEDGE] = ledge_body_create(P.w, &ld);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(zero, 0.1f);
    bd.position = v2(2, 10);
    bd.velocity = v2(30, -5);
    bd.bullet = true;
    bd.friction = 0.2f;
    P.b[BULLET] = ledge_body_create(P.w, &bd);
    P.b[CRUSHER] = body(LEDGE_BODY_KINEMATIC, ledge_make_box(zero, v2(0.6f, 0.3f)), v2(27, 3.2f));
    P.b[SQUEEZED] = body(LEDGE_BODY_DYNAMIC, ledge_make_box(zero, v2(0.4f, 0.4f)), v2(27, 1.4f));

    ledge_character_def cd = ledge_default_character_def();
    ledge_character_create(P.w, P.b[PLAYER], &cd);
    ledge_world_set_pre_solve(P.w, pre_solve, &P);
    ledge_body_set_friction(P.w, P.b[CRATE1], 0.5f);
    P.vel = v2(0, 0);
}

static void trace_move(const ledge_move_result *r) {
    v_(r->position), v_(r->displacement), v_(r->velocity);
    b_(r->on_ground), b_(r->on_wall), b_(r->on_ceiling), b_(r->snapped), b_(r->stuck);
    i_(r->wall_side), v_(r->ground_normal), v_(r->wall_normal), v_(r->ceiling_normal), v_(r->up);
    i_(r->ground_hit), i_(r->hit_count);
    for (int k = 0; k < r->hit_count; ++k) {
        const ledge_move_hit *h = &r->hits[k];
        i_((int)h->kind), id_(h->body), i_(h->cell_x), i_(h->cell_y), i_(h->tile);
        v_(h->normal), v_(h->point), v_(h->push), f_(h->fraction);
    }
}

static void trace_character(const ledge_character_state *s) {
    tag("character");
    v_(s->position), v_(s->velocity), v_(s->real_velocity);
    b_(s->on_floor), b_(s->on_wall), b_(s->on_ceiling), i_(s->wall_side);
    v_(s->floor_normal), v_(s->wall_normal), v_(s->ceiling_normal);
    id_(s->floor_body), b_(s->floor_is_tile), i_(s->floor_cell_x), i_(s->floor_cell_y);
    i_(s->floor_tile), v_(s->platform_velocity), f_(s->time_since_floor);
    b_(s->crushed), id_(s->crushed_by);
    trace_move(&s->last_move);
    end();
}

static void trace_events(void) {
    ledge_touch_events t = ledge_world_touch_events(P.w);
    ledge_sensor_events s = ledge_world_sensor_events(P.w);
    ledge_crush_events c = ledge_world_crush_events(P.w);
    tag("touch");
    for (int k = 0; k < t.begin_count; ++k)
        id_(t.begin[k].a), id_(t.begin[k].b), i_(t.begin[k].cell_x), i_(t.begin[k].cell_y);
    tag(" |");
    for (int k = 0; k < t.end_count; ++k)
        id_(t.end[k].a), id_(t.end[k].b), i_(t.end[k].cell_x), i_(t.end[k].cell_y);
    end();
    tag("sensor");
    for (int k = 0; k < s.begin_count; ++k) id_(s.begin[k].sensor), id_(s.begin[k].visitor);
    tag(" |");
    for (int k = 0; k < s.end_count; ++k) id_(s.end[k].sensor), id_(s.end[k].visitor);
    end();
    tag("crush");
    for (int k = 0; k < c.count; ++k)
        id_(c.events[k].body), id_(c.events[k].crusher), f_(c.events[k].depth);
    end();
}

static void trace_contacts(void) {
    ledge_contact_data cs[64];
    for (int k = 0; k < BODIES; ++k) {
        if (!ledge_body_is_valid(P.w, P.b[k])) continue;
        int n = ledge_body_contacts(P.w, P.b[k], cs, 64);
        tag("contacts"), i_(k), i_(n);
        for (int i = 0; i < n && i < 64; ++i) {
            id_(cs[i].other), i_(cs[i].cell_x), i_(cs[i].cell_y), v_(cs[i].normal);
            v_(cs[i].point), f_(cs[i].depth), i_((int)cs[i].response);
        }
        end();
        if (ledge_body_get_type(P.w, P.b[k]) != LEDGE_BODY_DYNAMIC) continue;
        ledge_ground g = ledge_body_ground(P.w, P.b[k]);
        tag("ground"), i_(k), b_(g.on_ground), b_(g.on_ceiling), b_(g.on_wall_left);
        b_(g.on_wall_right), v_(g.ground_normal), v_(g.wall_normal), id_(g.ground_body);
        i_(g.ground_cell_x), i_(g.ground_cell_y);
        end();
        tag("body"), i_(k), v_(ledge_body_position(P.w, P.b[k])),
            v_(ledge_body_velocity(P.w, P.b[k]));
        b_(ledge_body_is_awake(P.w, P.b[k])), f_(ledge_body_mass(P.w, P.b[k]));
        end();
    }
}

static void trace_cast(const char *what, bool hit, const ledge_raycast_result *r) {
    tag(what), b_(hit);
    if (hit) {
        i_((int)r->kind), id_(r->body), i_(r->cell_x), i_(r->cell_y), i_(r->tile);
        v_(r->point), v_(r->normal), f_(r->fraction);
    }
    end();
}

static float all_hits(const ledge_raycast_result *hit, void *context) {
    (void)context;
    tag("rayall"), i_((int)hit->kind), id_(hit->body), v_(hit->point), f_(hit->fraction);
    end();
    return hit->kind == LEDGE_HIT_BODY && hit->fraction > 0.5f ? 0.0f : 1.0f;
}

static bool list_body(ledge_body_id id, void *context) {
    (void)context;
    id_(id);
    return true;
}

static void trace_distance(const ledge_distance_result *d) {
    f_(d->distance), v_(d->point_a), v_(d->point_b), v_(d->normal), i_(d->iterations);
}

static void trace_nearest(const char *what, bool hit, const ledge_nearest_result *r) {
    tag(what), b_(hit);
    if (hit) {
        i_((int)r->kind), id_(r->body), i_(r->cell_x), i_(r->cell_y), i_(r->tile);
        trace_distance(&r->distance);
    }
    end();
}

static void trace_queries(int step) {
    float s = (float)step * 0.01f;
    ledge_query_filter q = ledge_default_query_filter();
    ledge_raycast_result r;
    bool hit = ledge_world_raycast(P.w, v2(1.5f + s, 9), v2(20, -8), &q, &r);
    trace_cast("raycast", hit, &r);
    q.ignore = P.b[PLAYER];
    ledge_world_raycast_all(P.w, v2(1, 2), v2(29, 0.5f), &q, all_hits, NULL);
    q = ledge_default_query_filter();
    ledge_shape probe = ledge_make_box(v2(0, 0), v2(0.25f, 0.25f));
    hit = ledge_world_shape_cast(P.w, &probe, v2(4 + s, 9), v2(10, -8), &q, &r);
    trace_cast("shapecast", hit, &r);
    ledge_aabb box = {v2(5, 0), v2(15, 6)};
    tag("aabb");
    ledge_world_query_aabb(P.w, box, &q, list_body, NULL);
    end();
    tag("point");
    ledge_world_query_point(P.w, v2(7, 1.5f), &q, list_body, NULL);
    end();
    ledge_nearest_result n;
    ledge_shape c = ledge_make_circle(v2(0, 0), 0.2f);
    hit = ledge_world_nearest(P.w, &c, v2(12 + s, 4), 3, &q, &n);
    trace_nearest("nearest", hit, &n);
    hit = ledge_world_nearest_point(P.w, v2(20, 5 - s), 2, &q, &n);
    trace_nearest("nearestpoint", hit, &n);
    ledge_tilemap_distance_result td;
    hit = ledge_tilemap_distance(ledge_world_tilemap(P.w), &c, v2(9.5f, 2.5f + s), 2, &td);
    tag("tiledistance"), b_(hit);
    if (hit) i_(td.cell_x), i_(td.cell_y), i_(td.tile), trace_distance(&td.distance);
    end();
    ledge_distance_result d = ledge_shape_distance(&probe, v2(s, 1), &c, v2(0.3f, -0.2f));
    tag("shapedistance"), trace_distance(&d), end();
    d = ledge_tile_distance(LEDGE_TILE_45DEG_PP, v2(0, 0), 1, 0, &c, v2(0.6f + s, 0.7f));
    tag("onetile"), trace_distance(&d), end();
    ledge_tile_hit th;
    const ledge_tilemap *m = ledge_world_tilemap(P.w);
    hit = ledge_tilemap_query_point(m, v2(9.7f, 1.2f + s), &th);
    tag("tilepoint"), b_(hit);
    if (hit) i_(th.x), i_(th.y), i_(th.tile);
    end();
    ledge_tile_hit cells[64];
    ledge_aabb region = {v2(8.5f, 0.5f), v2(14.5f, 1.5f + s)};
    int nc = ledge_tilemap_query_region(m, region, cells, 64);
    tag("region"), i_(nc);
    for (int k = 0; k < nc && k < 64; ++k) i_(cells[k].x), i_(cells[k].y), i_(cells[k].tile);
    end();
    ledge_ray_hit rh;
    hit = ledge_tilemap_raycast(m, v2(8 + s, 3), v2(4, -3), &rh);
    tag("tileray"), b_(hit);
    if (hit)
        v_(rh.point), v_(rh.normal), f_(rh.fraction), i_(rh.cell_x), i_(rh.cell_y), i_(rh.tile);
    end();
}

static void script(int k, float dt) {
    ledge_world *w = P.w;
    ledge_character_state st;
    ledge_character_get_state(w, P.b[PLAYER], &st);
    P.vel = st.velocity;
    P.vel.x = k < 100 ? 4.0f : -3.0f;
    P.vel.y -= 20.0f * dt;
    if ((k == 30 || k == 105) && st.time_since_floor < 0.1f) P.vel.y = 9;
    ledge_character_move(w, P.b[PLAYER], P.vel, dt, &st);
    trace_character(&st);
    int phase = k % 120;
    float px = 19 + (phase < 60 ? (float)phase / 20.0f : (float)(120 - phase) / 20.0f);
    ledge_body_set_target(w, P.b[PLATFORM], v2(px, 3), dt);
    float cy = 3.2f - (float)(k < 90 ? k : 90) * 0.015f;
    ledge_body_set_target(w, P.b[CRUSHER], v2(27, cy), dt);
    switch (k) {
    case 20:
        ledge_body_apply_impulse(w, P.b[CRATE1], v2(3, 0));
        break;
    case 40:
        ledge_body_set_gravity_scale(w, P.b[BALL], 0.5f);
        break;
    case 50:
        ledge_body_set_bounce(w, P.b[BALL], 0.6f);
        break;
    case 55:
        ledge_body_set_drag(w, P.b[CRATE3], 0.5f);
        break;
    case 60: {
        ledge_filter f = ledge_default_filter();
        f.category = 2;
        f.mask = ~(uint64_t)4;
        f.group = -1;
        ledge_body_set_filter(w, P.b[TRIANGLE], f);
        break;
    }
    case 70:
        ledge_body_set_position(w, P.b[BALL], v2(12, 9));
        break;
    case 75:
        ledge_body_set_velocity(w, P.b[CRATE2], v2(-1, 2));
        break;
    case 80:
        ledge_body_drop_through(w, P.b[CRATE3]);
        break;
    case 85: {
        ledge_move_def md = ledge_default_move_def();
        md.snap_length = 0.1f;
        ledge_move_result r;
        ledge_body_move(w, P.b[CRUSHER], v2(0.01f, 0), &md, &r);
        tag("bodymove"), trace_move(&r);
        vec2s cv = ledge_move_clip_velocity(&r, v2(1, -1));
        v_(cv), end();
        break;
    }
    case 90:
        P.snapshot_size = ledge_world_save(w, P.snapshot, sizeof P.snapshot);
        tag("saved"), i_((int)P.snapshot_size), h_(ledge_world_hash(w)), end();
        break;
    case 100:
        ledge_tilemap_set(ledge_world_tilemap(w), 12, 1, LEDGE_TILE_FULL);
        ledge_tilemap_set_one_way(ledge_world_tilemap(w), 12, 1, LEDGE_ONE_WAY_UP);
        break;
    case 110:
        ledge_body_destroy(w, P.b[CRATE2]);
        break;
    case 120: {
        ledge_world_restore(w, P.snapshot, P.snapshot_size);
        tag("restored"), h_(ledge_world_hash(w)), b_(ledge_body_is_valid(w, P.b[CRATE2])), end();
        break;
    }
    case 130:
        ledge_character_set_velocity(w, P.b[PLAYER], v2(-5, 6));
        break;
    case 140: {
        ledge_character_def cd = ledge_default_character_def();
        cd.move.snap_length = 0;
        cd.platform_on_leave = LEDGE_PLATFORM_LEAVE_NOTHING;
        ledge_character_set_def(w, P.b[PLAYER], &cd);
        break;
    }
    case 150:
        ledge_body_set_awake(w, P.b[CRATE1], true);
        break;
    case 160: {
        ledge_body_def d = ledge_default_body_def();
        d.shape = ledge_make_circle(v2(0, 0), 0.25f);
        d.position = v2(10, 10);
        d.enable_events = true;
        P.b[CRATE2] = ledge_body_create(w, &d);
        break;
    }
    default:
        break;
    }
}

int parity_main(FILE *to, int steps) {
    out = to;
    build();
    const float dt = 1.0f / 60.0f;
    for (int k = 0; k < steps; ++k) {
        script(k, dt);
        ledge_world_step(P.w, dt);
        tag("step"), i_(k), h_(ledge_world_hash(P.w)), i_(ledge_world_body_count(P.w)), end();
        trace_events();
        if (k % 10 == 0) {
            trace_contacts();
            trace_queries(k);
        }
    }
    ledge_world_destroy(P.w);
    return 0;
}

// ---- the moving parts: pushing, materials, joints ----

static void jid_(ledge_joint_id id) {
    if (id.index1 == 0)
        fputs(" -", out);
    else
        fprintf(out, " %u:%u", (unsigned)id.index1, (unsigned)id.generation);
}

static void trace_material(ledge_material m) {
    f_(m.friction), f_(m.bounce), f_(m.surface_speed), i_((int)m.friction_mix);
}

static ledge_material material(float f, float b, float s, ledge_friction_mix mix) {
    ledge_material m = ledge_default_material();
    m.friction = f, m.bounce = b, m.surface_speed = s, m.friction_mix = mix;
    return m;
}

static ledge_body_id part(ledge_world *w, ledge_body_type type, ledge_shape shape, vec2s pos,
                          float friction) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = type, bd.shape = shape, bd.position = pos, bd.friction = friction;
    return ledge_body_create(w, &bd);
}

static ledge_joint_id joint_of(ledge_world *w, ledge_joint_def jd) {
    return ledge_joint_create(w, &jd);
}

enum { PART_JOINTS = 4 };

int parity_parts(FILE *to, int steps) {
    out = to;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 48, wd.map_height = 24;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *m = ledge_world_tilemap(w);
    for (int x = 0; x < 48; ++x) ledge_tilemap_set(m, x, 0, LEDGE_TILE_FULL);
    for (int y = 0; y < 24; ++y) {
        ledge_tilemap_set(m, 0, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(m, 47, y, LEDGE_TILE_FULL);
    }
    ledge_material belt = material(0.5f, 0, 2, LEDGE_FRICTION_MIX_MIN);
    ledge_material ice = material(0, 0, 0, LEDGE_FRICTION_MIX_MIN);
    ledge_material pad = material(0.2f, 0.3f, 0, LEDGE_FRICTION_MIX_MAX);
    for (int x = 8; x < 12; ++x) ledge_tilemap_set_cell_material(m, x, 0, &belt);
    for (int x = 12; x < 16; ++x) ledge_tilemap_set_cell_material(m, x, 0, &ice);
    ledge_tilemap_set(m, 35, 1, LEDGE_TILE_HALF_D);
    ledge_tilemap_set(m, 36, 1, LEDGE_TILE_HALF_D);
    ledge_tilemap_set_tile_material(m, LEDGE_TILE_HALF_D, &pad);

    ledge_body_id hero =
        part(w, LEDGE_BODY_KINEMATIC, ledge_make_box(v2(0, 0), v2(0.3f, 0.45f)), v2(4, 1.45f), 0);
    ledge_character_def cd = ledge_default_character_def();
    cd.push_mass = 0.8f;
    ledge_character_create(w, hero, &cd);
    ledge_body_id crate =
        part(w, LEDGE_BODY_DYNAMIC, ledge_make_box(v2(0, 0), v2(0.5f, 0.5f)), v2(7, 1.5f), 0.4f);
    ledge_body_id rider =
        part(w, LEDGE_BODY_DYNAMIC, ledge_make_box(v2(0, 0), v2(0.4f, 0.4f)), v2(22, 1.4f), 0.5f);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v2(0, 0), v2(2, 0.2f));
    bd.position = v2(40, 4), bd.type = LEDGE_BODY_STATIC, bd.friction = 0.6f;
    bd.surface_speed = -1.5f, bd.friction_mix = LEDGE_FRICTION_MIX_MAX;
    ledge_body_id belt_body = ledge_body_create(w, &bd);
    ledge_body_id parcel = part(w, LEDGE_BODY_DYNAMIC, ledge_make_box(v2(0, 0), v2(0.25f, 0.25f)),
                                v2(40, 4.45f), 0.3f);
    ledge_body_id bob =
        part(w, LEDGE_BODY_DYNAMIC, ledge_make_circle(v2(0, 0), 0.2f), v2(9.5f, 14), 0);
    ledge_body_id weight =
        part(w, LEDGE_BODY_DYNAMIC, ledge_make_box(v2(0, 0), v2(0.3f, 0.3f)), v2(10, 11), 0.2f);
    ledge_body_id hung =
        part(w, LEDGE_BODY_DYNAMIC, ledge_make_box(v2(0, 0), v2(0.3f, 0.3f)), v2(30, 9), 0.2f);
    ledge_body_id all[] = {hero, crate, rider, belt_body, parcel, bob, weight, hung};

    ledge_joint_id j[PART_JOINTS];
    ledge_joint_def jd = ledge_default_rod_def();
    jd.anchor_a = v2(8, 14), jd.body_b = bob, jd.length = 1.5f;
    j[0] = joint_of(w, jd);
    jd = ledge_default_spring_def();
    jd.body_a = bob, jd.body_b = weight, jd.length = 2, jd.hertz = 3, jd.damping_ratio = 0.2f;
    j[1] = joint_of(w, jd);
    jd = ledge_default_rope_def();
    jd.anchor_a = v2(30, 12), jd.body_b = hung, jd.length = 3.5f;
    j[2] = joint_of(w, jd);
    jd = ledge_default_slider_def();
    jd.body_a = hung, jd.body_b = weight, jd.anchor_b = v2(0.1f, 0), jd.axis = v2(1, 1);
    jd.enable_limit = true, jd.lower = -30, jd.upper = 30;
    j[3] = joint_of(w, jd);

    unsigned char *snap = NULL;
    size_t snap_size = 0;
    const float dt = 1.0f / 60.0f;
    for (int k = 0; k < steps; ++k) {
        ledge_character_state st;
        ledge_character_get_state(w, hero, &st);
        vec2s vel = st.velocity;
        vel.x = k < 150 ? 5.0f : -2.0f;
        vel.y -= 10.0f * dt;
        ledge_character_move(w, hero, vel, dt, &st);
        tag("hero"), v_(st.position), v_(st.velocity), b_(st.on_floor), b_(st.on_wall);
        b_(st.pushing), id_(st.pushed_body), id_(st.ceiling_body), b_(st.crushed);
        id_(st.crushed_by), trace_material(st.floor_material), b_(st.hanging);
        jid_(st.hang_joint), v_(st.hang_anchor), v_(st.platform_velocity), end();
        switch (k) {
        case 40:
            ledge_body_set_surface_speed(w, belt_body, 1.0f);
            break;
        case 60: {
            ledge_material mm = material(0.9f, 0.1f, 0, LEDGE_FRICTION_MIX_MEAN);
            ledge_body_set_material(w, crate, &mm);
            ledge_joint_set_length(w, j[2], 2.5f);
            break;
        }
        case 80:
            ledge_joint_set_spring(w, j[1], 5, 0.5f);
            ledge_joint_set_motor(w, j[3], true, 0.5f, 20);
            ledge_tilemap_set_cell_material(m, 13, 0, NULL);
            break;
        case 100:
            snap_size = ledge_world_snapshot_size(w);
            snap = malloc(snap_size);
            snap_size = ledge_world_save(w, snap, snap_size);
            break;
        case 110:
            ledge_joint_destroy(w, j[1]);
            ledge_joint_set_limits(w, j[2], 0.5f, 3);
            break;
        case 120:
            ledge_body_destroy(w, weight);
            break;
        case 130:
            ledge_world_restore(w, snap, snap_size);
            tag("restored"), h_(ledge_world_hash(w)), end();
            break;
        default:
            break;
        }
        ledge_world_step(w, dt);
        tag("step"), i_(k), h_(ledge_world_hash(w)), i_(ledge_world_joint_count(w)), end();
        for (int q = 0; q < PART_JOINTS; ++q) {
            tag("joint"), jid_(j[q]), b_(ledge_joint_is_valid(w, j[q]));
            if (ledge_joint_is_valid(w, j[q])) {
                i_((int)ledge_joint_get_type(w, j[q])), id_(ledge_joint_body_a(w, j[q]));
                id_(ledge_joint_body_b(w, j[q])), v_(ledge_joint_anchor_a(w, j[q]));
                v_(ledge_joint_anchor_b(w, j[q])), f_(ledge_joint_current_length(w, j[q]));
                v_(ledge_joint_force(w, j[q]));
            }
            end();
        }
        for (size_t b = 0; b < sizeof all / sizeof all[0]; ++b) {
            tag("body"), id_(all[b]), b_(ledge_body_is_valid(w, all[b]));
            if (ledge_body_is_valid(w, all[b])) {
                v_(ledge_body_position(w, all[b])), v_(ledge_body_velocity(w, all[b]));
                trace_material(ledge_body_material(w, all[b]));
                ledge_joint_id ids[8];
                int n = ledge_body_joints(w, all[b], ids, 8);
                i_(n);
                for (int q = 0; q < n && q < 8; ++q) jid_(ids[q]);
            }
            end();
        }
        if (k % 20 == 0) {
            tag("cells"), trace_material(ledge_tilemap_cell_material(m, 13, 0));
            b_(ledge_tilemap_cell_has_material(m, 13, 0));
            trace_material(ledge_tilemap_tile_material(m, LEDGE_TILE_HALF_D));
            ledge_material a = ledge_body_material(w, crate),
                           b = ledge_tilemap_cell_material(m, 9, 0);
            trace_material(ledge_mix_materials(&a, &b)), end();
        }
    }
    free(snap);
    ledge_world_destroy(w);
    return 0;
}

static void cid_(ledge_chain_id id) {
    if (id.index1 == 0)
        fputs(" -", out);
    else
        fprintf(out, " %u:%u", (unsigned)id.index1, (unsigned)id.generation);
}

static void chain_cast(const char *t, ledge_raycast_result r) {
    tag(t), i_((int)r.kind), id_(r.body), cid_(r.chain), i_(r.segment), v_(r.point), v_(r.normal);
    f_(r.fraction), end();
}

// Chains: a static hill whose ends lie on the tile floor, a kinematic
// platform chain (velocity, then a target), two crates and a walking
// character, events, contacts, ground states, rays from the front and from
// behind, the box query, a chain destroyed and brought back by a snapshot.
int parity_chains(FILE *to, int steps) {
    out = to;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 40, wd.map_height = 12;
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *m = ledge_world_tilemap(w);
    for (int x = 0; x < 40; ++x) ledge_tilemap_set(m, x, 0, LEDGE_TILE_FULL);
    vec2s hill_points[] = {{{14, 1}}, {{11, 3}}, {{7, 3}}, {{4, 1}}};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = hill_points, cd.count = 4;
    ledge_chain_id hill = ledge_chain_create(w, &cd);
    vec2s lift_points[] = {{{2, 0}}, {{-2, 0}}};
    cd = ledge_default_chain_def();
    cd.points = lift_points, cd.count = 2, cd.type = LEDGE_BODY_KINEMATIC;
    cd.position = v2(24, 4), cd.velocity = v2(1, 0);
    cd.material = material(0.8f, 0, 0, LEDGE_FRICTION_MIX_MAX);
    ledge_chain_id lift = ledge_chain_create(w, &cd);

    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_DYNAMIC, bd.shape = ledge_make_box(v2(0, 0), v2(0.4f, 0.4f));
    bd.position = v2(9, 6), bd.friction = 0.5f, bd.enable_events = true;
    ledge_body_id crate_a = ledge_body_create(w, &bd);
    bd.position = v2(24, 5), bd.friction = 0.8f, bd.enable_events = false;
    ledge_body_id crate_b = ledge_body_create(w, &bd);
    ledge_body_id hero =
        part(w, LEDGE_BODY_KINEMATIC, ledge_make_box(v2(0, 0), v2(0.3f, 0.45f)), v2(2, 1.45f), 0);
    ledge_character_def chd = ledge_default_character_def();
    ledge_character_create(w, hero, &chd);
    ledge_body_id crates[] = {crate_a, crate_b};

    unsigned char *snap = NULL;
    size_t snap_size = 0;
    const float dt = 1.0f / 60.0f;
    for (int k = 0; k < steps; ++k) {
        ledge_character_state st;
        ledge_character_get_state(w, hero, &st);
        vec2s vel = st.velocity;
        vel.x = k < 100 ? 3.0f : -3.0f;
        vel.y -= 10.0f * dt;
        ledge_character_move(w, hero, vel, dt, &st);
        tag("hero"), v_(st.position), v_(st.velocity), b_(st.on_floor), cid_(st.floor_chain);
        id_(st.floor_body), v_(st.floor_normal), v_(st.platform_velocity);
        trace_material(st.floor_material), end();
        switch (k) {
        case 50:
            ledge_chain_set_velocity(w, lift, v2(-1, 0));
            break;
        case 70:
            ledge_chain_set_target(w, lift, v2(23.5f, 4.1f), dt);
            break;
        case 71:
            ledge_chain_set_velocity(w, lift, v2(0, 0));
            break;
        case 100:
            snap_size = ledge_world_snapshot_size(w);
            snap = malloc(snap_size);
            snap_size = ledge_world_save(w, snap, snap_size);
            break;
        case 110:
            ledge_chain_destroy(w, hill);
            break;
        case 120:
            ledge_world_restore(w, snap, snap_size);
            tag("restored"), h_(ledge_world_hash(w)), i_(ledge_world_chain_count(w)), end();
            break;
        default:
            break;
        }
        ledge_world_step(w, dt);
        tag("step"), i_(k), h_(ledge_world_hash(w)), i_(ledge_world_chain_count(w));
        b_(ledge_chain_is_valid(w, hill)), v_(ledge_chain_position(w, lift));
        v_(ledge_chain_velocity(w, lift)), end();
        for (int b = 0; b < 2; ++b) {
            ledge_ground g = ledge_body_ground(w, crates[b]);
            ledge_contact_data c[4];
            int n = ledge_body_contacts(w, crates[b], c, 4);
            tag("crate"), v_(ledge_body_position(w, crates[b]));
            v_(ledge_body_velocity(w, crates[b])), b_(g.on_ground), cid_(g.ground_chain);
            v_(g.ground_normal), i_(n);
            for (int q = 0; q < n && q < 4; ++q)
                cid_(c[q].chain), i_(c[q].segment), v_(c[q].normal);
            end();
        }
        ledge_touch_events te = ledge_world_touch_events(w);
        for (int q = 0; q < te.begin_count; ++q) {
            tag("touch"), id_(te.begin[q].a), id_(te.begin[q].b), cid_(te.begin[q].chain), end();
        }
        if (k % 20 == 0) {
            ledge_query_filter qf = ledge_default_query_filter();
            ledge_raycast_result r;
            ledge_world_raycast(w, v2(12.5f, 8), v2(0, -10), &qf, &r);
            chain_cast("down", r);
            qf.include_tiles = false;
            ledge_world_raycast(w, v2(12.5f, 1.2f), v2(0, 5), &qf, &r);
            chain_cast("up", r);
            ledge_chain_id ids[8];
            int segs[8];
            ledge_aabb box = {v2(5, 0), v2(13, 4)};
            int n = ledge_world_query_chains_aabb_ids(w, &box, NULL, ids, segs, 8);
            tag("query"), i_(n);
            for (int q = 0; q < n && q < 8; ++q) cid_(ids[q]), i_(segs[q]);
            end();
        }
    }
    free(snap);
    ledge_world_destroy(w);
    return 0;
}

#ifdef LEDGE_REPLAY_TILED
#include <ledge/tiled.h>

static void trace_shape(const ledge_shape *s) {
    i_((int)s->type), i_(s->count), f_(s->radius), v_(s->center);
    for (int k = 0; k < s->count; ++k) v_(s->vertices[k]);
}

int parity_tiled(FILE *to, const char *file, bool y_down) {
    out = to;
    ledge_tiled_def def = ledge_default_tiled_def();
    def.y_down = y_down;
    def.world.gravity = v2(0, y_down ? 10.0f : -10.0f);
    ledge_tiled_result *r = NULL;
    ledge_world *w = ledge_tiled_create_world_file(file, &def, &r);
    if (w == NULL) return 1;
    tag("map"), i_(r->width), i_(r->height), i_(r->object_count), i_(r->body_count);
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) i_(r->tile_counts[t]);
    end();
    for (int k = 0; k < r->object_count; ++k) {
        const ledge_tiled_object *o = &r->objects[k];
        fprintf(out, "object %d [%s] [%s] [%s]", o->id, o->name, o->type, o->layer);
        i_((int)o->shape), i_((int)o->body_type), b_(o->sensor), b_(o->one_way);
        f_(o->friction), f_(o->bounce), v_(o->position), v_(o->bounds.lower), v_(o->bounds.upper);
        i_(o->property_count);
        end();
        for (int b = o->first_body; b < o->first_body + o->body_count; ++b) {
            tag("body"), id_(r->bodies[b]), i_((int)ledge_body_get_type(w, r->bodies[b]));
            v_(ledge_body_position(w, r->bodies[b])), v_(ledge_body_velocity(w, r->bodies[b]));
            f_(ledge_body_mass(w, r->bodies[b]));
            trace_shape(ledge_body_shape(w, r->bodies[b]));
            end();
        }
        if (o->point_count > 0 || o->is_path) {
            tag("points"), b_(o->is_path), i_(o->path), i_(o->point_count);
            for (int p = 0; p < o->point_count; ++p) v_(r->points[o->first_point + p]);
            end();
        }
        if (ledge_chain_is_valid(w, o->chain)) {
            ledge_chain_id ch = o->chain;
            ledge_material m = ledge_chain_material(w, ch);
            fprintf(out, "chain %u:%u", (unsigned)ch.index1, (unsigned)ch.generation);
            i_((int)ledge_chain_get_type(w, ch)), b_(ledge_chain_is_loop(w, ch));
            v_(ledge_chain_position(w, ch)), v_(ledge_chain_velocity(w, ch));
            f_(m.friction), f_(m.bounce), f_(m.surface_speed), i_((int)m.friction_mix);
            vec2s pts[64];
            int n = ledge_chain_points(w, ch, pts, 64);
            i_(n);
            for (int p = 0; p < n && p < 64; ++p) v_(pts[p]);
            end();
        }
    }
    for (int k = 0; k < 120; ++k) ledge_world_step(w, 1.0f / 60.0f);
    tag("stepped"), h_(ledge_world_hash(w)), end();
    ledge_tiled_result_destroy(r);
    ledge_world_destroy(w);
    return 0;
}
#endif
