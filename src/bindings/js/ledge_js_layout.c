// The binding's table of C structs: for each struct the JavaScript side
// reads or writes, its size and each field's offset and kind, with the
// names of the enums' values, handed to ledge.mjs as one JSON text. The
// JavaScript objects (defs in, states, events and results out) are made
// from this table, so a field added to a public struct is bound by adding
// its line here (and its declaration to ledge.d.ts, which a test checks).
//
// Field kinds: f32, i32, u32, u8, bool, vec2 (two floats), ivec2 (two
// ints, e.g. cell_x and cell_y read as one {x, y}), id (a ledge_body_id:
// a Body or null), joint (a ledge_joint_id: a Joint or null), chain (a
// ledge_chain_id: a Chain or null), u64 (a filter's bits), shape (a
// ledge_shape built from its description), enum:NAME, struct:NAME, array:NAME:COUNT_FIELD:MAX.
#include "ledge_js.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct js_field {
    const char *c_name;  ///< The C field.
    const char *js_name; ///< Its JavaScript name; NULL: the C name in camelCase.
    int offset;
    const char *kind;
} js_field;

typedef struct js_layout {
    const char *name;
    int size;
    const js_field *fields;
    int count;
} js_layout;

#define F(T, f, kind)                                                                              \
    { #f, NULL, (int)offsetof(T, f), kind }
#define FA(T, f, js, kind)                                                                         \
    { #f, js, (int)offsetof(T, f), kind }
#define LAYOUT(name, T, list)                                                                      \
    { name, (int)sizeof(T), list, (int)(sizeof list / sizeof list[0]) }

static const js_field world_def[] = {
    F(ledge_world_def, gravity, "vec2"),
    F(ledge_world_def, tile_size, "f32"),
    FA(ledge_world_def, map_width, "width", "i32"),
    FA(ledge_world_def, map_height, "height", "i32"),
    FA(ledge_world_def, map_origin, "origin", "vec2"),
    F(ledge_world_def, body_capacity, "i32"),
    F(ledge_world_def, iterations, "i32"),
    F(ledge_world_def, substeps, "i32"),
    F(ledge_world_def, linear_slop, "f32"),
    F(ledge_world_def, bounce_threshold, "f32"),
    F(ledge_world_def, cell_size, "f32"),
    F(ledge_world_def, friction_law, "enum:friction_law"),
    F(ledge_world_def, enable_sleep, "bool"),
    F(ledge_world_def, sleep_speed, "f32"),
    F(ledge_world_def, sleep_time, "f32"),
};

static const js_field filter[] = {
    F(ledge_filter, category, "u64"),
    F(ledge_filter, mask, "u64"),
    F(ledge_filter, group, "i32"),
};

static const js_field body_def[] = {
    F(ledge_body_def, type, "enum:body_type"),
    F(ledge_body_def, shape, "shape"),
    F(ledge_body_def, position, "vec2"),
    F(ledge_body_def, velocity, "vec2"),
    F(ledge_body_def, density, "f32"),
    F(ledge_body_def, friction, "f32"),
    F(ledge_body_def, bounce, "f32"),
    F(ledge_body_def, gravity_scale, "f32"),
    F(ledge_body_def, drag, "f32"),
    F(ledge_body_def, bullet, "bool"),
    F(ledge_body_def, sensor, "bool"),
    F(ledge_body_def, enable_events, "bool"),
    F(ledge_body_def, one_way, "enum:one_way"),
    F(ledge_body_def, max_floor_angle, "f32"),
    F(ledge_body_def, response, "enum:response"),
    F(ledge_body_def, filter, "struct:filter"),
    F(ledge_body_def, surface_speed, "f32"),
    F(ledge_body_def, friction_mix, "enum:friction_mix"),
};

static const js_field material[] = {
    F(ledge_material, friction, "f32"),
    F(ledge_material, bounce, "f32"),
    F(ledge_material, surface_speed, "f32"),
    F(ledge_material, friction_mix, "enum:friction_mix"),
};

static const js_field joint_def[] = {
    F(ledge_joint_def, type, "enum:joint_type"),
    F(ledge_joint_def, body_a, "id"),
    F(ledge_joint_def, body_b, "id"),
    F(ledge_joint_def, anchor_a, "vec2"),
    F(ledge_joint_def, anchor_b, "vec2"),
    F(ledge_joint_def, length, "f32"),
    F(ledge_joint_def, min_length, "f32"),
    F(ledge_joint_def, max_length, "f32"),
    F(ledge_joint_def, hertz, "f32"),
    F(ledge_joint_def, damping_ratio, "f32"),
    F(ledge_joint_def, axis, "vec2"),
    F(ledge_joint_def, enable_limit, "bool"),
    F(ledge_joint_def, lower, "f32"),
    F(ledge_joint_def, upper, "f32"),
    F(ledge_joint_def, enable_motor, "bool"),
    F(ledge_joint_def, motor_speed, "f32"),
    F(ledge_joint_def, max_motor_force, "f32"),
    F(ledge_joint_def, ground_a, "vec2"),
    F(ledge_joint_def, ground_b, "vec2"),
    F(ledge_joint_def, ratio, "f32"),
    F(ledge_joint_def, collide_connected, "bool"),
};

static const js_field chain_def[] = {
    F(ledge_chain_def, loop, "bool"),
    F(ledge_chain_def, type, "enum:body_type"),
    F(ledge_chain_def, position, "vec2"),
    F(ledge_chain_def, velocity, "vec2"),
    F(ledge_chain_def, filter, "struct:filter"),
    F(ledge_chain_def, material, "struct:material"),
};

static const js_field query_filter[] = {
    F(ledge_query_filter, category, "u64"),
    F(ledge_query_filter, mask, "u64"),
    F(ledge_query_filter, include_tiles, "bool"),
    F(ledge_query_filter, include_chains, "bool"),
    F(ledge_query_filter, one_way, "enum:query_one_way"),
    F(ledge_query_filter, ignore, "id"),
};

static const js_field move_def[] = {
    F(ledge_move_def, max_slides, "i32"),
    F(ledge_move_def, max_floor_slope, "f32"),
    F(ledge_move_def, snap_length, "f32"),
    F(ledge_move_def, skin, "f32"),
    F(ledge_move_def, stop_on_slope, "bool"),
    F(ledge_move_def, set_velocity, "bool"),
    F(ledge_move_def, up, "vec2"),
    F(ledge_move_def, slide_on_steep, "bool"),
    F(ledge_move_def, step_height, "f32"),
    F(ledge_move_def, constant_speed_on_slopes, "bool"),
    F(ledge_move_def, block_on_wall, "bool"),
};

static const js_field move_hit[] = {
    F(ledge_move_hit, kind, "enum:hit_kind"),
    F(ledge_move_hit, body, "id"),
    F(ledge_move_hit, chain, "chain"),
    F(ledge_move_hit, segment, "i32"),
    FA(ledge_move_hit, cell_x, "cell", "ivec2"),
    F(ledge_move_hit, tile, "u8"),
    F(ledge_move_hit, normal, "vec2"),
    F(ledge_move_hit, point, "vec2"),
    F(ledge_move_hit, push, "vec2"),
    F(ledge_move_hit, fraction, "f32"),
};

#define MOVE_HITS_KIND "array:move_hit:hit_count:8"
_Static_assert(LEDGE_MOVE_MAX_HITS == 8, "MOVE_HITS_KIND names LEDGE_MOVE_MAX_HITS");

static const js_field move_result[] = {
    F(ledge_move_result, position, "vec2"),    F(ledge_move_result, displacement, "vec2"),
    F(ledge_move_result, velocity, "vec2"),    F(ledge_move_result, on_ground, "bool"),
    F(ledge_move_result, on_wall, "bool"),     F(ledge_move_result, on_ceiling, "bool"),
    F(ledge_move_result, snapped, "bool"),     F(ledge_move_result, stuck, "bool"),
    F(ledge_move_result, wall_side, "i32"),    F(ledge_move_result, ground_normal, "vec2"),
    F(ledge_move_result, wall_normal, "vec2"), F(ledge_move_result, ceiling_normal, "vec2"),
    F(ledge_move_result, up, "vec2"),          F(ledge_move_result, ground_hit, "i32"),
    F(ledge_move_result, hit_count, "i32"),    F(ledge_move_result, hits, MOVE_HITS_KIND),
};

static const js_field character_def[] = {
    F(ledge_character_def, move, "struct:move_def"),
    F(ledge_character_def, platform_on_leave, "enum:platform_leave"),
    F(ledge_character_def, ride_platforms, "bool"),
    F(ledge_character_def, push_bodies, "bool"),
    F(ledge_character_def, push_mass, "f32"),
};

static const js_field character_state[] = {
    F(ledge_character_state, position, "vec2"),
    F(ledge_character_state, velocity, "vec2"),
    F(ledge_character_state, real_velocity, "vec2"),
    F(ledge_character_state, on_floor, "bool"),
    F(ledge_character_state, on_wall, "bool"),
    F(ledge_character_state, on_ceiling, "bool"),
    F(ledge_character_state, wall_side, "i32"),
    F(ledge_character_state, floor_normal, "vec2"),
    F(ledge_character_state, wall_normal, "vec2"),
    F(ledge_character_state, ceiling_normal, "vec2"),
    F(ledge_character_state, floor_body, "id"),
    F(ledge_character_state, floor_chain, "chain"),
    F(ledge_character_state, floor_is_tile, "bool"),
    FA(ledge_character_state, floor_cell_x, "floorCell", "ivec2"),
    F(ledge_character_state, floor_tile, "u8"),
    F(ledge_character_state, platform_velocity, "vec2"),
    F(ledge_character_state, time_since_floor, "f32"),
    F(ledge_character_state, last_move, "struct:move_result"),
    F(ledge_character_state, crushed, "bool"),
    F(ledge_character_state, crushed_by, "id"),
    F(ledge_character_state, pushing, "bool"),
    F(ledge_character_state, pushed_body, "id"),
    F(ledge_character_state, ceiling_body, "id"),
    F(ledge_character_state, floor_material, "struct:material"),
    F(ledge_character_state, hanging, "bool"),
    F(ledge_character_state, hang_joint, "joint"),
    F(ledge_character_state, hang_anchor, "vec2"),
};

static const js_field contact_data[] = {
    F(ledge_contact_data, other, "id"),    FA(ledge_contact_data, cell_x, "cell", "ivec2"),
    F(ledge_contact_data, chain, "chain"), F(ledge_contact_data, segment, "i32"),
    F(ledge_contact_data, normal, "vec2"), F(ledge_contact_data, point, "vec2"),
    F(ledge_contact_data, depth, "f32"),   F(ledge_contact_data, response, "enum:response"),
};

static const js_field ground[] = {
    F(ledge_ground, on_ground, "bool"),     F(ledge_ground, on_ceiling, "bool"),
    F(ledge_ground, on_wall_left, "bool"),  F(ledge_ground, on_wall_right, "bool"),
    F(ledge_ground, ground_normal, "vec2"), F(ledge_ground, wall_normal, "vec2"),
    F(ledge_ground, ground_body, "id"),     FA(ledge_ground, ground_cell_x, "groundCell", "ivec2"),
    F(ledge_ground, ground_chain, "chain"),
};

static const js_field touch_event[] = {
    F(ledge_touch_event, a, "id"),
    F(ledge_touch_event, b, "id"),
    FA(ledge_touch_event, cell_x, "cell", "ivec2"),
    F(ledge_touch_event, chain, "chain"),
};

static const js_field sensor_event[] = {
    F(ledge_sensor_event, sensor, "id"),
    F(ledge_sensor_event, visitor, "id"),
};

static const js_field crush_event[] = {
    F(ledge_crush_event, body, "id"),
    F(ledge_crush_event, crusher, "id"),
    F(ledge_crush_event, depth, "f32"),
};

static const js_field profile[] = {
    F(ledge_profile, step, "f32"),  F(ledge_profile, integrate, "f32"),
    F(ledge_profile, move, "f32"),  F(ledge_profile, grid, "f32"),
    F(ledge_profile, pairs, "f32"), F(ledge_profile, relax, "f32"),
    F(ledge_profile, sort, "f32"),  F(ledge_profile, response, "f32"),
    F(ledge_profile, check, "f32"), F(ledge_profile, events, "f32"),
    F(ledge_profile, sleep, "f32"),
};

static const js_field raycast_result[] = {
    F(ledge_raycast_result, kind, "enum:hit_kind"),
    F(ledge_raycast_result, body, "id"),
    F(ledge_raycast_result, chain, "chain"),
    F(ledge_raycast_result, segment, "i32"),
    FA(ledge_raycast_result, cell_x, "cell", "ivec2"),
    F(ledge_raycast_result, tile, "u8"),
    F(ledge_raycast_result, point, "vec2"),
    F(ledge_raycast_result, normal, "vec2"),
    F(ledge_raycast_result, fraction, "f32"),
};

static const js_field distance_result[] = {
    F(ledge_distance_result, distance, "f32"),
    FA(ledge_distance_result, point_a, "pointA", "vec2"),
    FA(ledge_distance_result, point_b, "pointB", "vec2"),
    F(ledge_distance_result, normal, "vec2"),
    F(ledge_distance_result, iterations, "i32"),
};

static const js_field nearest_result[] = {
    F(ledge_nearest_result, kind, "enum:hit_kind"),
    F(ledge_nearest_result, body, "id"),
    F(ledge_nearest_result, chain, "chain"),
    F(ledge_nearest_result, segment, "i32"),
    FA(ledge_nearest_result, cell_x, "cell", "ivec2"),
    F(ledge_nearest_result, tile, "u8"),
    F(ledge_nearest_result, distance, "struct:distance_result"),
};

static const js_field tilemap_distance_result[] = {
    F(ledge_tilemap_distance_result, distance, "struct:distance_result"),
    FA(ledge_tilemap_distance_result, cell_x, "cell", "ivec2"),
    F(ledge_tilemap_distance_result, tile, "u8"),
};

static const js_field tile_hit[] = {
    FA(ledge_tile_hit, x, "cell", "ivec2"),
    F(ledge_tile_hit, tile, "u8"),
};

static const js_field ray_hit[] = {
    F(ledge_ray_hit, point, "vec2"),   F(ledge_ray_hit, normal, "vec2"),
    F(ledge_ray_hit, fraction, "f32"), FA(ledge_ray_hit, cell_x, "cell", "ivec2"),
    F(ledge_ray_hit, tile, "i32"),
};

static const js_field tile_outline[] = {
    F(ledge_tile_outline, count, "i32"),
    FA(ledge_tile_outline, points, "points", "array:vec2:count:6"),
    F(ledge_tile_outline, arc_edge, "i32"),
    F(ledge_tile_outline, arc_center, "vec2"),
    F(ledge_tile_outline, arc_radius, "f32"),
    F(ledge_tile_outline, arc_concave, "bool"),
};

static const js_field shape[] = {
    F(ledge_shape, type, "enum:shape_type"),
    F(ledge_shape, count, "i32"),
    F(ledge_shape, radius, "f32"),
    F(ledge_shape, center, "vec2"),
    FA(ledge_shape, vertices, "points", "array:vec2:count:8"),
};
_Static_assert(LEDGE_MAX_POLYGON_VERTICES == 8, "shape's points kind names the vertex limit");

static const js_layout layouts[] = {
    LAYOUT("world_def", ledge_world_def, world_def),
    LAYOUT("filter", ledge_filter, filter),
    LAYOUT("body_def", ledge_body_def, body_def),
    LAYOUT("material", ledge_material, material),
    LAYOUT("joint_def", ledge_joint_def, joint_def),
    LAYOUT("chain_def", ledge_chain_def, chain_def),
    LAYOUT("query_filter", ledge_query_filter, query_filter),
    LAYOUT("move_def", ledge_move_def, move_def),
    LAYOUT("move_hit", ledge_move_hit, move_hit),
    LAYOUT("move_result", ledge_move_result, move_result),
    LAYOUT("character_def", ledge_character_def, character_def),
    LAYOUT("character_state", ledge_character_state, character_state),
    LAYOUT("contact_data", ledge_contact_data, contact_data),
    LAYOUT("ground", ledge_ground, ground),
    LAYOUT("touch_event", ledge_touch_event, touch_event),
    LAYOUT("sensor_event", ledge_sensor_event, sensor_event),
    LAYOUT("crush_event", ledge_crush_event, crush_event),
    LAYOUT("profile", ledge_profile, profile),
    LAYOUT("raycast_result", ledge_raycast_result, raycast_result),
    LAYOUT("distance_result", ledge_distance_result, distance_result),
    LAYOUT("nearest_result", ledge_nearest_result, nearest_result),
    LAYOUT("tilemap_distance_result", ledge_tilemap_distance_result, tilemap_distance_result),
    LAYOUT("tile_hit", ledge_tile_hit, tile_hit),
    LAYOUT("ray_hit", ledge_ray_hit, ray_hit),
    LAYOUT("tile_outline", ledge_tile_outline, tile_outline),
    LAYOUT("shape", ledge_shape, shape),
};

/// An enum's values by JavaScript name, in the C values' order (0, 1, ...).
typedef struct js_enum {
    const char *name;
    const char *values; ///< Comma-separated.
} js_enum;

static const js_enum enums[] = {
    {"body_type", "static,kinematic,dynamic"},
    {"response", "slide,touch,bounce,cross"},
    {"friction_law", "n,coulomb"},
    {"one_way", "none,up,down,left,right"},
    {"query_one_way", "asBodies,always,never"},
    {"hit_kind", "none,tile,body,chain"},
    {"platform_leave", "addVelocity,addUpward,nothing"},
    {"shape_type", "invalid,circle,box,polygon"},
    {"friction_mix", "mean,min,max"},
    {"joint_type", "rod,rope,spring,weld,slider,pulley"},
};
_Static_assert(LEDGE_RESPONSE_CROSS == 3 && LEDGE_FRICTION_COULOMB == 1 &&
                   LEDGE_ONE_WAY_RIGHT == 4 && LEDGE_HIT_CHAIN == 3 &&
                   LEDGE_QUERY_ONE_WAY_NEVER == 2 && LEDGE_PLATFORM_LEAVE_NOTHING == 2 &&
                   LEDGE_BODY_DYNAMIC == 2 && LEDGE_FRICTION_MIX_MAX == 2 &&
                   LEDGE_JOINT_PULLEY == 5,
               "the enums' value lists follow the C values");

/// Constants the JavaScript side needs.
typedef struct js_const {
    const char *name;
    double value;
} js_const;

static const js_const consts[] = {
    {"MAX_POLYGON_VERTICES", LEDGE_MAX_POLYGON_VERTICES},
    {"MAX_DECOMPOSE_POINTS", LEDGE_MAX_DECOMPOSE_POINTS},
    {"MOVE_MAX_HITS", LEDGE_MOVE_MAX_HITS},
    {"MAX_STEP", LEDGE_MAX_STEP},
    {"MAX_COORDINATE", LEDGE_MAX_COORDINATE},
    {"TILE_COUNT", LEDGE_TILE_COUNT},
    {"SNAPSHOT_VERSION", LEDGE_SNAPSHOT_VERSION},
    {"ID_BYTES", sizeof(ledge_body_id)},
    {"JOINT_ID_BYTES", sizeof(ledge_joint_id)},
    {"CHAIN_ID_BYTES", sizeof(ledge_chain_id)},
    {"MAX_CHAIN_POINTS", LEDGE_MAX_CHAIN_POINTS},
    {"JOINT_MAX_LENGTH", LEDGE_JOINT_MAX_LENGTH},
    {"SHAPE_BYTES", sizeof(ledge_shape)},
};

// The JSON text (built once; about 11 KB).
static char text[24576];
static int used;

static void put(const char *fmt, const char *a, int n) {
    if (used < 0) return;
    int k = snprintf(text + used, sizeof text - (size_t)used, fmt, a, n);
    used = k < 0 || used + k >= (int)sizeof text ? -1 : used + k;
}

/// The table as JSON: {"structs": {name: {"size": n, "fields": [[c, js,
/// offset, kind], ...]}}, "enums": {name: [values]}, "consts": {name: n},
/// "version": "x.y.z"}; NULL if it did not fit (a build error, caught by
/// every test).
JS_API const char *ledge_js_layout(void) {
    if (used > 0) return text;
    used = 0;
    put("{\"structs\":{", "", 0);
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; ++l) {
        const js_layout *t = &layouts[l];
        put(l ? ",\"%s\":{\"size\":%d,\"fields\":[" : "\"%s\":{\"size\":%d,\"fields\":[", t->name,
            t->size);
        for (int k = 0; k < t->count; ++k) {
            const js_field *f = &t->fields[k];
            put(k ? ",[\"%s\"," : "[\"%s\",", f->c_name, 0);
            if (f->js_name)
                put("\"%s\",", f->js_name, 0);
            else
                put("null,", "", 0);
            put("%s%d,", "", f->offset);
            put("\"%s\"]", f->kind, 0);
        }
        put("]}", "", 0);
    }
    put("},\"enums\":{", "", 0);
    for (size_t e = 0; e < sizeof enums / sizeof enums[0]; ++e) {
        put(e ? ",\"%s\":" : "\"%s\":", enums[e].name, 0);
        put("\"%s\"", enums[e].values, 0);
    }
    put("},\"consts\":{", "", 0);
    for (size_t c = 0; c < sizeof consts / sizeof consts[0]; ++c) {
        char num[32];
        snprintf(num, sizeof num, "%.9g", consts[c].value);
        put(c ? ",\"%s\":" : "\"%s\":", consts[c].name, 0);
        put("%s", num, 0);
    }
    put("},\"version\":\"%s\"}", ledge_version_string(), 0);
    return used > 0 ? text : NULL;
}

/// Fills `out` with the named struct's defaults (ledge_default_*), or
/// zeroes for structs without a default; returns its size (0: unknown).
JS_API int ledge_js_default(const char *name, void *out) {
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; ++l) {
        if (strcmp(layouts[l].name, name) != 0) continue;
        memset(out, 0, (size_t)layouts[l].size);
        if (strcmp(name, "world_def") == 0) {
            *(ledge_world_def *)out = ledge_default_world_def();
        } else if (strcmp(name, "body_def") == 0) {
            *(ledge_body_def *)out = ledge_default_body_def();
        } else if (strcmp(name, "filter") == 0) {
            *(ledge_filter *)out = ledge_default_filter();
        } else if (strcmp(name, "query_filter") == 0) {
            *(ledge_query_filter *)out = ledge_default_query_filter();
        } else if (strcmp(name, "move_def") == 0) {
            *(ledge_move_def *)out = ledge_default_move_def();
        } else if (strcmp(name, "character_def") == 0) {
            *(ledge_character_def *)out = ledge_default_character_def();
        } else if (strcmp(name, "material") == 0) {
            *(ledge_material *)out = ledge_default_material();
        } else if (strcmp(name, "joint_def") == 0) {
            *(ledge_joint_def *)out = ledge_default_rope_def();
        } else if (strcmp(name, "chain_def") == 0) {
            *(ledge_chain_def *)out = ledge_default_chain_def();
        }
        return layouts[l].size;
    }
    return 0;
}
