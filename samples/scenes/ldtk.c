// Levels / An LDtk project: samples/level.ldtk, drawn in the LDtk editor
// (two levels side by side on its world map), loaded whole by ledge_ldtk
// (include/ledge/ldtk.h) into one world: the IntGrid values and the
// tileset's tags name the tiles (slopes, round corners, one-way cells), the
// entities' fields make bodies (crates, a ball, a one-way bridge, spikes
// that are a sensor, two moving platforms that follow the paths drawn in
// LDtk), and the game's own entities come back as a list: the player's
// start, coins with a value, a key and the door that refers to it, a sign.
//
// Built where ledge_ldtk is (it needs jansson): the native testbed reads the
// project from samples/, the browser's WebAssembly module has it compiled
// in (SCENES_LDTK_EMBEDDED, src/bindings/js/build.sh).
#include "scene.h"

#include <ledge/ldtk.h>

#include <string.h>

#define MAX_COINS     32
#define MAX_PLATFORMS 8

typedef struct state {
    ledge_ldtk_result *level; // the levels and entities: where, which bodies, their fields
    ledge_body_id player;
    int platforms[MAX_PLATFORMS]; // entities with a path
    int platform_count;
    int coins[MAX_COINS]; // the game's coins (entity indices)
    int coin_count;
    uint32_t taken; // a bit per coin picked up
    int score;      // the coins' `value` fields
    int spike_hits;
} state;

/// The Int field `name` of entity e, or `fallback`.
static int int_field(const ledge_ldtk_result *r, const ledge_ldtk_entity *e, const char *name,
                     int fallback) {
    const ledge_ldtk_field *f = ledge_ldtk_entity_field(r, e, name);
    if (f == NULL || f->type != LEDGE_LDTK_FIELD_INT || f->value_count != 1) return fallback;
    const ledge_ldtk_value *v = &r->values[f->first_value];
    return v->is_null ? fallback : (int)v->integer;
}

#ifdef SCENES_LDTK_EMBEDDED
extern const unsigned char scenes_ldtk_level[]; // samples/level.ldtk's bytes
extern const unsigned long scenes_ldtk_level_size;
#endif

static bool create(scene *s) {
    state *st = s->state;
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.all_levels = true; // both levels, where LDtk's world map puts them
    def.world.gravity = scene_v2(0.0f, SCENE_GRAVITY);
#ifdef SCENES_LDTK_EMBEDDED
    s->world = ledge_ldtk_create_world((const char *)scenes_ldtk_level,
                                       (size_t)scenes_ldtk_level_size, &def, &st->level);
#else
    s->world = ledge_ldtk_create_world_file(SCENES_DATA_DIR "/level.ldtk", &def, &st->level);
#endif
    if (!s->world) return false;
    const ledge_ldtk_result *r = st->level;
    const ledge_ldtk_entity *start = ledge_ldtk_find_entity(r, "Player");
    if (!start) return false;
    for (int i = 0; i < r->entity_count; ++i) {
        const ledge_ldtk_entity *e = &r->entities[i];
        if (e->path_point_count > 0 && st->platform_count < MAX_PLATFORMS)
            st->platforms[st->platform_count++] = i;
        if (strcmp(e->identifier, "Coin") == 0 && st->coin_count < MAX_COINS)
            st->coins[st->coin_count++] = i;
    }
    // The player's pivot is at its feet (bottom centre).
    st->player = scene_player(s->world, start->position.x, start->position.y + SCENE_PLAYER_HY);
    scene_frame_map(s);
    return ledge_body_is_valid(s->world, st->player);
}

static void step(scene *s, const scene_input *in) {
    state *st = s->state;
    const ledge_ldtk_result *r = st->level;
    double next = (double)(s->frame + 1) * SCENE_DT;
    for (int k = 0; k < st->platform_count; ++k) { // where each will be after this step
        const ledge_ldtk_entity *e = &r->entities[st->platforms[k]];
        ledge_body_set_target(s->world, r->bodies[e->first_body],
                              ledge_ldtk_path_position(r, e, next), SCENE_DT);
    }
    vec2s p = ledge_body_position(s->world, st->player);
    for (int k = 0; k < st->coin_count; ++k) { // the game's own entities: coins picked up
        const ledge_ldtk_entity *e = &r->entities[st->coins[k]];
        float dx = e->position.x - p.x, dy = e->position.y - p.y;
        if (!(st->taken >> k & 1u) && dx * dx + dy * dy < 0.6f * 0.6f) {
            st->taken |= 1u << k;
            st->score += int_field(r, e, "value", 1);
        }
    }
    ledge_sensor_events se = ledge_world_sensor_events(s->world);
    for (int k = 0; k < se.begin_count; ++k) {
        st->spike_hits += LEDGE_ID_EQUALS(se.begin[k].visitor, st->player);
    }
    scene_player_move(s->world, st->player, scene_input_run(in), scene_input_jump(in),
                      scene_input_drop(in));
}

static void draw(scene *s, scene_draw *d, ledge_aabb view) {
    state *st = s->state;
    scene_mark_one_way(s->world, d, view); // the one-way cells of the IntGrid and the tileset
    const ledge_ldtk_result *r = st->level;
    for (int k = 0; k < st->platform_count; ++k) { // the paths drawn in LDtk
        const ledge_ldtk_entity *e = &r->entities[st->platforms[k]];
        const vec2s *pts = r->path_points + e->first_path_point;
        int n = e->path_point_count, segs = e->path_loop ? n : n - 1;
        for (int i = 0; i < segs; ++i) {
            scene_draw_segment(d, pts[i], pts[(i + 1) % n], SCENE_COLOR_DIM);
        }
    }
    for (int i = 0; i < r->entity_count; ++i) { // the game's entities, by identifier
        const ledge_ldtk_entity *e = &r->entities[i];
        if (e->body != LEDGE_LDTK_NO_BODY || strcmp(e->identifier, "Player") == 0) continue;
        bool coin = strcmp(e->identifier, "Coin") == 0;
        int k = 0;
        while (coin && k < st->coin_count && st->coins[k] != i) ++k;
        if (coin && (st->taken >> k & 1u)) continue;
        scene_draw_box(d, e->bounds.lower, e->bounds.upper, SCENE_COLOR_MARK, false);
        scene_draw_text(d, scene_v2(e->bounds.lower.x, e->bounds.upper.y + 0.15f), 0.35f,
                        SCENE_COLOR_MARK, e->identifier);
        const ledge_ldtk_field *key = ledge_ldtk_entity_field(r, e, "key"); // an EntityRef
        if (key && key->value_count == 1 && r->values[key->first_value].entity >= 0) {
            const ledge_ldtk_entity *to = &r->entities[r->values[key->first_value].entity];
            scene_draw_arrow(d, e->position, to->position, SCENE_COLOR_DIM);
        }
    }
    scene_draw_player(s, d, st->player);
    scene_text(s, "%d levels, %d x %d cells of %d pixels, %d entities, %d bodies from the project",
               r->level_count, r->width, r->height, r->grid_px, r->entity_count, r->body_count);
    int taken = 0;
    for (int k = 0; k < st->coin_count; ++k) taken += st->taken >> k & 1u;
    scene_text(s, "coins %d of %d (score %d), spikes (a sensor) touched %d times", taken,
               st->coin_count, st->score, st->spike_hits);
}

static void destroy(scene *s) {
    state *st = s->state;
    ledge_ldtk_result_destroy(st->level);
}

const scene_def ldtk_scene = {
    .name = "ldtk",
    .category = "Levels",
    .title = "An LDtk project",
    .caption = "samples/level.ldtk by ledge_ldtk: two levels, slopes, one-way cells, platforms "
               "on paths, coins",
    .keys = "Left/Right run, Space jump, Down drop through",
    .state_size = sizeof(state),
    .create = create,
    .step = step,
    .draw = draw,
    .destroy = destroy,
};
