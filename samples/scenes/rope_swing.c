// Joints / Rope swing: a grappling hook. The player fires a hook up and
// ahead; where it meets the ceiling a rope (a rope joint from that world
// point to the player's body) holds it, and the character's moves swing on
// it (ledge_character_state.hanging). Up and Down climb and pay out rope
// (ledge_joint_set_length); letting go (ledge_joint_destroy) keeps the
// swing's velocity. Tiles still stop it. The autopilot swings across the
// pit from hook to hook.
#include "scene.h"

#include <math.h>

static const char *const level = "########################################\n"
                                 "#......................................#\n"
                                 "#......................................#\n"
                                 "#......................................#\n"
                                 "#......................................#\n"
                                 "#......................................#\n"
                                 "#......................................#\n"
                                 "#......................................#\n"
                                 "#......................................#\n"
                                 "#......................................#\n"
                                 "#####..............................#####\n"
                                 "#####..............................#####\n"
                                 "#####..............................#####\n"
                                 "#####..............................#####\n";

#define HOOK_REACH 14.0f // how far the hook flies
#define HOOK_CLIMB 4.0f  // metres a second of climbing or paying out
#define HOOK_LEAST 1.5f  // the shortest rope

typedef struct state {
    ledge_body_id player;
    ledge_joint_id rope;
    int hooks;    // ropes fired
    float best;   // the farthest right the player got
    int cooldown; // frames before the autopilot fires again
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world_ascii(level, -SCENE_GRAVITY);
    if (!s->world) return false;
    st->player = scene_player(s->world, 3.0f, 4.0f + SCENE_PLAYER_HY + 0.01f);
    scene_frame_map(s);
    return ledge_body_is_valid(s->world, st->player);
}

// Fires the hook up and ahead (dir +1 right, -1 left): a rope to where the
// ray meets the map, as long as the distance.
static void fire(scene *s, float dir) {
    state *st = s->state;
    vec2s p = ledge_body_position(s->world, st->player);
    vec2s ray = scene_v2(dir * HOOK_REACH * 0.5f, HOOK_REACH * 0.87f);
    ledge_ray_hit hit;
    if (!ledge_tilemap_raycast(ledge_world_tilemap(s->world), p, ray, &hit)) return;
    ledge_joint_def jd = ledge_default_rope_def();
    jd.anchor_a = hit.point;
    jd.body_b = st->player;
    float dx = p.x - hit.point.x, dy = p.y - hit.point.y;
    jd.length = sqrtf(dx * dx + dy * dy);
    st->rope = ledge_joint_create(s->world, &jd);
    st->hooks++;
}

static void let_go(scene *s) {
    state *st = s->state;
    if (ledge_joint_is_valid(s->world, st->rope)) ledge_joint_destroy(s->world, st->rope);
    st->rope = LEDGE_NULL_JOINT_ID;
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    ledge_character_state cs;
    ledge_character_get_state(s->world, st->player, &cs);
    float run = scene_input_run(in), climb = 0.0f;
    bool jump = scene_input_jump(in) && !cs.hanging, hook = scene_pressed(in, 'x');
    if (in->autopilot) { // run right, fire ahead, climb a little, let go past the bottom
        run = cs.hanging ? 0.0f : 1.0f;
        if (st->cooldown > 0) st->cooldown--;
        if (!cs.hanging && st->cooldown == 0 && cs.position.x < 34.0f &&
            (cs.position.x > 4.0f || cs.on_floor)) {
            hook = true;
            st->cooldown = 30;
        }
        if (cs.hanging && cs.velocity.x > 0.0f && cs.position.x > cs.hang_anchor.x + 2.0f &&
            cs.velocity.y > 0.0f)
            hook = true; // let go rising: the swing's velocity carries on
        if (cs.hanging) climb = cs.position.y < 6.0f ? 1.0f : 0.0f;
        if (s->frame > 0 && cs.position.x > 35.0f && cs.on_floor) { // across: back to the start
            ledge_body_set_position(s->world, st->player,
                                    scene_v2(3.0f, 4.0f + SCENE_PLAYER_HY + 0.01f));
            ledge_character_set_velocity(s->world, st->player, scene_v2(0.0f, 0.0f));
        }
    } else {
        climb = (float)scene_held(in, SCENE_KEY_UP) - (float)scene_held(in, SCENE_KEY_DOWN);
    }
    if (hook) {
        if (cs.hanging) {
            let_go(s);
        } else {
            fire(s, run < 0.0f ? -1.0f : 1.0f);
        }
    }
    if (cs.hanging && climb != 0.0f && ledge_joint_is_valid(s->world, st->rope)) {
        ledge_joint_def jd;
        ledge_joint_get_def(s->world, st->rope, &jd);
        float len = jd.length - climb * HOOK_CLIMB * SCENE_DT;
        ledge_joint_set_length(s->world, st->rope, len < HOOK_LEAST ? HOOK_LEAST : len);
    }
    if (cs.hanging) { // swinging: the arrows pump the swing, gravity does the rest
        vec2s v = scene_v2(cs.velocity.x + run * 8.0f * SCENE_DT,
                           cs.velocity.y + SCENE_GRAVITY * SCENE_DT);
        ledge_character_move(s->world, st->player, v, SCENE_DT, NULL);
    } else {
        scene_player_move(s->world, st->player, run, jump, false);
    }
    ledge_character_get_state(s->world, st->player, &cs);
    if (cs.position.x > st->best) st->best = cs.position.x;
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    scene_draw_player(s, d, st->player);
    ledge_character_state cs;
    ledge_character_get_state(s->world, st->player, &cs);
    if (cs.hanging) {
        scene_text(s, "hanging from (%.1f, %.1f) on %.2f m of rope; hooks fired %d",
                   (double)cs.hang_anchor.x, (double)cs.hang_anchor.y,
                   (double)ledge_joint_current_length(s->world, cs.hang_joint), st->hooks);
    } else {
        scene_text(s, "not hanging; hooks fired %d, farthest x %.1f", st->hooks, (double)st->best);
    }
}

const scene_def rope_swing_scene = {
    .name = "rope_swing",
    .category = "Joints",
    .title = "Rope swing",
    .caption =
        "a grappling hook: a rope from the ceiling to the player, who swings, climbs and lets go",
    .keys = "Left/Right run or pump, Space jump, X fire or let go of the hook, Up/Down climb",
    .claims = "x",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
