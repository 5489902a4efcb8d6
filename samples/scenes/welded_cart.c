// Joints / Welded cart: a cart on a rail (a slider with limits and a motor
// that turns at each end), a crate welded on top of it, 20 times the
// cart's mass, and loose crates riding behind. The weld holds the rider
// where it was put, however hard the motor shakes the pair.
#include "scene.h"

#include <math.h>

typedef struct state {
    ledge_body_id cart, rider;
    ledge_joint_id rail, weld;
    float worst; // the weld's largest error seen
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world(28, 12, 10.0f);
    if (!s->world) return false;
    scene_fill(s->world, 0, 0, 27, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(1.5f, 0.3f));
    bd.position = scene_v2(14.0f, 2.0f);
    bd.friction = 0.8f;
    st->cart = ledge_body_create(s->world, &bd);
    ledge_joint_def rail = ledge_default_slider_def();
    rail.anchor_a = scene_v2(14.0f, 2.0f);
    rail.body_b = st->cart;
    rail.enable_limit = true;
    rail.lower = -9.0f;
    rail.upper = 9.0f;
    rail.enable_motor = true;
    rail.motor_speed = 4.0f;
    rail.max_motor_force = 600.0f;
    st->rail = ledge_joint_create(s->world, &rail);
    bd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(0.5f, 0.5f));
    bd.position = scene_v2(13.0f, 2.8f);
    bd.density = 20.0f * 1.8f; // 20 times the cart (1.8 kg)
    st->rider = ledge_body_create(s->world, &bd);
    ledge_joint_def weld = ledge_default_weld_def();
    weld.body_a = st->cart;
    weld.body_b = st->rider;
    weld.anchor_a = scene_v2(-1.0f, 0.8f); // where the rider sits
    st->weld = ledge_joint_create(s->world, &weld);
    scene_box(s->world, 14.6f, 2.75f, 0.25f, 0.25f, 0.8f); // loose crates
    scene_box(s->world, 15.2f, 2.75f, 0.25f, 0.25f, 0.8f);
    scene_box(s->world, 14.9f, 3.3f, 0.25f, 0.25f, 0.8f);
    scene_frame_map(s);
    return true;
}

static void step(scene *s, const scene_input *in) {
    (void)in;
    state *st = s->state;
    float t = ledge_joint_current_length(s->world, st->rail);
    ledge_joint_def jd;
    ledge_joint_get_def(s->world, st->rail, &jd);
    if (t > 8.5f && jd.motor_speed > 0.0f)
        ledge_joint_set_motor(s->world, st->rail, true, -4.0f, 600.0f);
    if (t < -8.5f && jd.motor_speed < 0.0f)
        ledge_joint_set_motor(s->world, st->rail, true, 4.0f, 600.0f);
    vec2s c = ledge_body_position(s->world, st->cart), r = ledge_body_position(s->world, st->rider);
    float ex = r.x - c.x + 1.0f, ey = r.y - c.y - 0.8f, e = sqrtf(ex * ex + ey * ey);
    if (e > st->worst) st->worst = e;
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)d, (void)view;
    state *st = s->state;
    vec2s f = ledge_joint_force(s->world, st->weld);
    scene_text(s, "cart at %+.2f m on its rail; the weld holds %.0f N, off by at most %.1e m",
               (double)ledge_joint_current_length(s->world, st->rail),
               (double)sqrtf(f.x * f.x + f.y * f.y), (double)st->worst);
}

const scene_def welded_cart_scene = {
    .name = "welded_cart",
    .category = "Joints",
    .title = "Welded cart",
    .caption = "a motor drives a cart along a rail; a crate 20 times heavier is welded on top",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
