// Platformer / Push puzzle: the player (a character, push_bodies on by
// default) pushes two crates onto two switches, a boulder off a ledge and
// down a slope, and a tower of four crates from its bottom crate, which
// carries the three above it. A push is as fast as the closed form of
// docs/character.md says: a crate of 1 kg with friction 0.6 goes at 6 x
// 0.54 / (0.54 + 0.6) = 2.84 m/s when the player runs at 6.
#include "scene.h"

#include <math.h>

static const char *const level =
    "########################################################\n"
    "#......................................................#\n"
    "#......................................................#\n"
    "#......................................................#\n"
    "#......................................................#\n"
    "#......................................................#\n"
    "#......................................................#\n"
    "#......................................................#\n"
    "#......................................................#\n"
    "#......................................................#\n"
    "#............................/######b>.................#\n" // the plateau, its top at y 5
    "#.........................../#########b>...............#\n"
    "#........................../############b>.............#\n"
    "#........................./###############b>...........#\n"
    "########################################################\n";

enum { CRATES = 2, TOWER = 4 };

typedef struct state {
    ledge_body_id player, crate[CRATES], boulder, tower[TOWER];
    int phase;    // the autopilot's: 0, 1 the crates, 2 the boulder, 3 the tower, 4 done
    bool jumping; // over the crate just placed
    float switch_x[CRATES];
} state;

static bool create(scene *s) {
    state *st = s->state;
    s->world = scene_world_ascii(level, -SCENE_GRAVITY);
    if (!s->world) return false;
    // Two switches (sensors: they never collide) and a crate for each.
    for (int k = 0; k < CRATES; ++k) {
        st->switch_x[k] = 9.5f + 9.0f * (float)k;
        ledge_body_def sd = ledge_default_body_def();
        sd.type = LEDGE_BODY_STATIC;
        sd.sensor = true;
        sd.shape = ledge_make_box(scene_v2(0.0f, 0.0f), scene_v2(0.5f, 0.05f));
        sd.position = scene_v2(st->switch_x[k], 1.05f);
        ledge_body_create(s->world, &sd);
        st->crate[k] = scene_box(s->world, 5.0f + 9.0f * (float)k, 1.5f, 0.5f, 0.5f, 0.6f);
    }
    // The boulder, on the plateau's edge: nearly frictionless, it slides
    // down the slope once pushed off.
    st->boulder = scene_ball(s->world, 34.8f, 5.5f, 0.5f, 0.02f);
    // The tower: four crates of 0.6, friction 0.6, on the floor past the slope.
    for (int k = 0; k < TOWER; ++k)
        st->tower[k] = scene_box(s->world, 48.0f, 1.3f + 0.6f * (float)k, 0.3f, 0.3f, 0.6f);
    st->player = scene_player(s->world, 2.5f, 1.0f + SCENE_PLAYER_HY + 0.01f);
    // Strong enough for the tower: its floor holds 0.6 of the 1.08 kg on
    // the bottom crate, more than the default push (0.54, its own mass).
    ledge_character_def cd = ledge_default_character_def();
    cd.push_mass = 2.0f;
    if (!ledge_character_set_def(s->world, st->player, &cd)) return false;
    scene_frame_map(s);
    return true;
}

static bool on_switch(const state *st, ledge_world *w, int k) {
    vec2s p = ledge_body_position(w, st->crate[k]);
    return fabsf(p.x - st->switch_x[k]) < 0.3f && p.y < 1.6f;
}

// The autopilot: push each crate until it stands on its switch, jump over
// it, climb the ramp, push the boulder off the plateau, follow it down and
// walk the tower along gently.
static void autopilot(scene *s, float *run, bool *jump) {
    state *st = s->state;
    ledge_character_state cs;
    ledge_character_get_state(s->world, st->player, &cs);
    *run = 1.0f;
    *jump = false;
    if (st->phase < CRATES) {
        int k = st->phase;
        vec2s c = ledge_body_position(s->world, st->crate[k]);
        if (!st->jumping && on_switch(st, s->world, k)) {
            *run = 0.0f; // on the switch: stop, then jump straight up
            st->jumping = cs.on_floor;
            *jump = cs.on_floor;
        } else if (st->jumping) {
            // Over the crate's top, run on; past it, the next one.
            *run =
                cs.position.y - SCENE_PLAYER_HY > c.y + 0.55f || cs.position.x > c.x ? 1.0f : 0.0f;
            if (cs.on_floor && cs.position.x > c.x + 0.5f) {
                st->jumping = false;
                st->phase++;
            }
        }
    } else if (st->phase == CRATES) {
        // Pushed off the plateau, the boulder slides down on its own: watch it.
        vec2s b = ledge_body_position(s->world, st->boulder);
        if (b.x > 37.0f) *run = 0.0f;
        if (b.y < 1.6f) st->phase++;
    } else if (st->phase == CRATES + 1) {
        *run = cs.position.x > 46.0f ? 0.3f : 1.0f; // the tower, gently
        if (ledge_body_position(s->world, st->tower[0]).x > 52.0f) st->phase++;
    } else {
        *run = 0.0f;
    }
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    float run = scene_input_run(in);
    bool jump = scene_input_jump(in);
    if (in->autopilot) autopilot(s, &run, &jump);
    scene_player_move(s->world, st->player, run, jump, false);
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    (void)view;
    state *st = s->state;
    for (int k = 0; k < CRATES; ++k) {
        bool on = on_switch(st, s->world, k);
        float x = st->switch_x[k];
        scene_draw_box(d, scene_v2(x - 0.5f, 1.0f), scene_v2(x + 0.5f, 1.1f),
                       on ? SCENE_COLOR_GOOD : SCENE_COLOR_MARK, true);
    }
    scene_draw_player(s, d, st->player);
    ledge_character_state cs;
    ledge_character_get_state(s->world, st->player, &cs);
    scene_text(s, "switches %s %s;  pushing %s", on_switch(st, s->world, 0) ? "on" : "off",
               on_switch(st, s->world, 1) ? "on" : "off",
               !cs.pushing                                     ? "nothing"
               : LEDGE_ID_EQUALS(cs.pushed_body, st->boulder)  ? "the boulder"
               : LEDGE_ID_EQUALS(cs.pushed_body, st->tower[0]) ? "the tower"
                                                               : "a crate");
    vec2s t0 = ledge_body_position(s->world, st->tower[0]);
    vec2s t3 = ledge_body_position(s->world, st->tower[TOWER - 1]);
    scene_text(s, "tower at x %.2f, %.2f m/s; its top crate %+.3f m off the bottom one",
               (double)t0.x, (double)ledge_body_velocity(s->world, st->tower[0]).x,
               (double)(t3.x - t0.x));
}

const scene_def push_scene = {
    .name = "push",
    .category = "Platformer",
    .title = "Push puzzle",
    .caption = "crates pushed onto switches, a boulder off a ledge, a tower pushed from below",
    .keys = "Left/Right run (and push), Space jump",
    .picture_frame = 600,
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
};
