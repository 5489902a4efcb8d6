// Fuzz harness: the LDtk loader (include/ledge/ldtk.h) on arbitrary
// project text. The first byte picks the def (y down, every level, the
// level by index or by name, one tile layer, the game's tables), the rest
// is the project's JSON; separate level files resolve to the same text.
// Checks, besides "no crash, no sanitizer report, no leak":
// - a refused load says so through the log hook and leaves the target
//   tilemap unchanged (cells' own materials included) and makes no world
//   and no result;
// - ledge_ldtk_load_tilemap and ledge_ldtk_create_tilemap agree cell for
//   cell, one-way flags and cells' own materials included (the load into a
//   map that had materials leaves exactly the level's);
// - a loaded world's result is consistent: its cells add up to the map,
//   so do its cells with a material of their own, every material is in
//   range, its bodies are the world's with their entity's material, each
//   entity's slices (bodies, fields,
//   values, path points) lie inside the arrays, every number is finite and
//   in the world's range, a body sits at the centre of its entity's
//   bounds, entity references point at loaded entities with that iid;
// - the world steps, and ledge_ldtk_path_position stays finite.
//
// Allocations larger than 4 MB fail (through the allocator hook), so that
// a few bytes declaring a huge level exercise the refusal instead of
// spending the run allocating.
#include "fuzz_common.h"

#include <ledge/ldtk.h>

#define MAX_ALLOC (4u << 20)
#define MAP_W     8
#define MAP_H     6

static void *capped_alloc(size_t size, void *user) {
    (void)user;
    return size > MAX_ALLOC ? NULL : malloc(size);
}

static void plain_free(void *p, void *user) {
    (void)user;
    free(p);
}

static const char *g_text;
static size_t g_len;

static const char *resolve_same(const char *path, size_t *len, void *user) {
    (void)path;
    (void)user;
    *len = g_len;
    return g_text;
}

static const ledge_ldtk_intgrid_tile g_intgrid[] = {
    {NULL, "ladder", 0, LEDGE_TILE_EMPTY, 0},
    {"Collisions", NULL, 7, LEDGE_TILE_HALF_U, LEDGE_ONE_WAY_UP},
    {NULL, "*", 0, LEDGE_TILE_FULL, 0},
};
static const ledge_ldtk_entity_body g_bodies[] = {
    {"Crate", LEDGE_LDTK_DYNAMIC, LEDGE_LDTK_BOX, false},
    {"Ball", LEDGE_LDTK_DYNAMIC, LEDGE_LDTK_CIRCLE, false},
    {"Bridge", LEDGE_LDTK_STATIC, LEDGE_LDTK_BOX, true},
};

static ledge_ldtk_def def_of(uint8_t flags) {
    ledge_ldtk_def d = ledge_default_ldtk_def();
    d.y_down = flags & 1;
    d.all_levels = flags & 2;
    if (flags & 4) d.level_index = 1;
    if (flags & 8) d.level = "B";
    if (flags & 16) d.tile_layer = "Collisions";
    if (flags & 32) {
        d.intgrid = g_intgrid;
        d.intgrid_count = 3;
        d.entity_bodies = g_bodies;
        d.entity_body_count = 3;
    }
    if (flags & 64) d.resolve = resolve_same;
    if (flags & 128) d.world.tile_size = 0.25f;
    return d;
}

static bool finite_in_range(vec2s p) {
    return vec_finite(p) && fabsf(p.x) <= LEDGE_MAX_COORDINATE &&
           fabsf(p.y) <= LEDGE_MAX_COORDINATE;
}

static void check_slice(int first, int count, int total, const char *what) {
    CHECK(first >= 0 && count >= 0 && first + count <= total, "%s slice %d + %d of %d", what, first,
          count, total);
}

static void check_fields(const ledge_ldtk_result *r, int first, int count) {
    check_slice(first, count, r->field_count, "fields");
    for (int i = first; i < first + count; ++i) {
        const ledge_ldtk_field *f = &r->fields[i];
        CHECK(f->identifier && f->type_name && f->enum_name, "field %d strings", i);
        check_slice(f->first_value, f->value_count, r->value_count, "values");
        CHECK(f->is_array || f->value_count <= 1, "field %s: %d values", f->identifier,
              f->value_count);
        for (int k = f->first_value; k < f->first_value + f->value_count; ++k) {
            const ledge_ldtk_value *v = &r->values[k];
            CHECK(v->string && v->layer && v->level && v->world, "value %d strings", k);
            if (v->is_null) continue;
            if (f->type == LEDGE_LDTK_FIELD_POINT) CHECK(finite_in_range(v->point), "point %d", k);
            if (f->type == LEDGE_LDTK_FIELD_ENTITY_REF) {
                CHECK(v->entity >= -1 && v->entity < r->entity_count, "ref %d", v->entity);
                if (v->entity >= 0) {
                    CHECK(strcmp(r->entities[v->entity].iid, v->string) == 0, "ref iid %s",
                          v->string);
                }
            }
            if (f->type == LEDGE_LDTK_FIELD_COLOR) {
                CHECK(v->integer >= 0 && v->integer <= 0xFFFFFF, "color %lld", v->integer);
            }
        }
    }
}

static void check_world(ledge_world *w, const ledge_ldtk_result *r) {
    long cells = 0;
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) cells += r->tile_counts[t];
    CHECK(cells == (long)r->width * r->height, "%ld cells in a %d x %d map", cells, r->width,
          r->height);
    ledge_tilemap_def md = ledge_tilemap_get_def(ledge_world_tilemap(w));
    CHECK(md.width == r->width && md.height == r->height, "map %d x %d", md.width, md.height);
    CHECK(r->body_count == ledge_world_body_count(w), "%d bodies, world has %d", r->body_count,
          ledge_world_body_count(w));
    CHECK(r->grid_px >= 1, "grid %d", r->grid_px);
    int own = 0;
    for (int y = 0; y < r->height; ++y) {
        for (int x = 0; x < r->width; ++x) {
            ledge_material m = ledge_tilemap_cell_material(ledge_world_tilemap(w), x, y);
            CHECK(ledge_material_is_valid(&m), "cell (%d, %d) material", x, y);
            own += ledge_tilemap_cell_has_material(ledge_world_tilemap(w), x, y);
        }
    }
    CHECK(own == r->material_cells, "%d cells with a material, result says %d", own,
          r->material_cells);
    for (int i = 0; i < r->level_count; ++i) {
        const ledge_ldtk_level *l = &r->levels[i];
        check_fields(r, l->first_field, l->field_count);
        CHECK(l->cell_x >= 0 && l->cell_y >= 0 && l->cell_x + l->cell_width <= r->width &&
                  l->cell_y + l->cell_height <= r->height,
              "level %d cells (%d, %d) + %d x %d", i, l->cell_x, l->cell_y, l->cell_width,
              l->cell_height);
    }
    int bodies = 0;
    for (int i = 0; i < r->entity_count; ++i) {
        const ledge_ldtk_entity *e = &r->entities[i];
        CHECK(e->level >= 0 && e->level < r->level_count, "entity %d level %d", i, e->level);
        CHECK(finite_in_range(e->position) && finite_in_range(e->bounds.lower) &&
                  finite_in_range(e->bounds.upper),
              "entity %d position", i);
        CHECK(e->bounds.lower.x <= e->bounds.upper.x && e->bounds.lower.y <= e->bounds.upper.y,
              "entity %d bounds", i);
        check_fields(r, e->first_field, e->field_count);
        check_slice(e->first_body, e->body_count, r->body_count, "bodies");
        check_slice(e->first_path_point, e->path_point_count, r->path_point_count, "path");
        CHECK((e->body == LEDGE_LDTK_NO_BODY) == (e->body_count == 0), "entity %d body", i);
        bodies += e->body_count;
        if (e->body_count) {
            ledge_body_id id = r->bodies[e->first_body];
            CHECK(ledge_body_is_valid(w, id), "entity %d body id", i);
            vec2s p = ledge_body_position(w, id);
            vec2s c = {{(e->bounds.lower.x + e->bounds.upper.x) / 2,
                        (e->bounds.lower.y + e->bounds.upper.y) / 2}};
            float tol = 1e-5f * (1 + fabsf(c.x) + fabsf(c.y));
            CHECK(fabsf(p.x - c.x) <= tol && fabsf(p.y - c.y) <= tol, "entity %d body at (%g, %g)",
                  i, p.x, p.y);
            ledge_material m = ledge_body_material(w, id);
            CHECK(ledge_material_is_valid(&m) && m.friction == e->friction &&
                      m.bounce == e->bounce && m.surface_speed == e->surface_speed &&
                      m.friction_mix == e->friction_mix,
                  "entity %d body material", i);
        }
        for (int k = 0; k < e->path_point_count; ++k) {
            CHECK(finite_in_range(r->path_points[e->first_path_point + k]), "path point");
        }
        CHECK(vec_finite(ledge_ldtk_path_position(r, e, 12.375)), "path position");
    }
    CHECK(bodies == r->body_count, "%d bodies by entity, %d in all", bodies, r->body_count);
}

static bool same_material(ledge_material a, ledge_material b) {
    return a.friction == b.friction && a.bounce == b.bounce && a.surface_speed == b.surface_speed &&
           a.friction_mix == b.friction_mix;
}

/// Both tilemap loaders: the same cells, or both refuse; a refused load
/// leaves the map as it was.
static void check_tilemaps(const ledge_ldtk_def *def) {
    ledge_tilemap_def md = ledge_default_tilemap_def();
    md.width = MAP_W;
    md.height = MAP_H;
    md.tile_size = def->world.tile_size;
    ledge_tilemap *fixed = ledge_tilemap_create(&md);
    CHECK(fixed != NULL, "tilemap");
    ledge_tilemap_set(fixed, 3, 2, LEDGE_TILE_HALF_L);
    ledge_tilemap_set_one_way(fixed, 3, 2, LEDGE_ONE_WAY_LEFT);
    ledge_material old = ledge_default_material();
    old.bounce = 0.5f;
    old.surface_speed = -3;
    ledge_tilemap_set_cell_material(fixed, 3, 2, &old);
    ledge_tilemap_set_cell_material(fixed, 0, 0, &old);
    long before = g_refusals;
    bool loaded = ledge_ldtk_load_tilemap(fixed, g_text, g_len, def);
    CHECK(loaded || g_refusals > before, "a refused load said nothing");
    if (!loaded) {
        for (int y = 0; y < MAP_H; ++y) {
            for (int x = 0; x < MAP_W; ++x) {
                bool sentinel = x == 3 && y == 2;
                CHECK(ledge_tilemap_get(fixed, x, y) ==
                          (sentinel ? LEDGE_TILE_HALF_L : LEDGE_TILE_EMPTY),
                      "refused load changed (%d, %d)", x, y);
                CHECK(ledge_tilemap_one_way(fixed, x, y) ==
                          (sentinel ? LEDGE_ONE_WAY_LEFT : LEDGE_ONE_WAY_NONE),
                      "refused load changed one-way (%d, %d)", x, y);
                bool has = sentinel || (x == 0 && y == 0);
                CHECK(ledge_tilemap_cell_has_material(fixed, x, y) == has &&
                          (!has || same_material(ledge_tilemap_cell_material(fixed, x, y), old)),
                      "refused load changed the material of (%d, %d)", x, y);
            }
        }
    }
    ledge_tilemap *made = ledge_ldtk_create_tilemap(g_text, g_len, def);
    if (loaded) {
        CHECK(made != NULL, "load_tilemap loaded what create_tilemap refused");
        for (int y = 0; y < MAP_H; ++y) {
            for (int x = 0; x < MAP_W; ++x) {
                CHECK(ledge_tilemap_get(fixed, x, y) == ledge_tilemap_get(made, x, y) &&
                          ledge_tilemap_one_way(fixed, x, y) == ledge_tilemap_one_way(made, x, y),
                      "the loaders disagree at (%d, %d)", x, y);
                ledge_material a = ledge_tilemap_cell_material(fixed, x, y);
                CHECK(ledge_tilemap_cell_has_material(fixed, x, y) ==
                              ledge_tilemap_cell_has_material(made, x, y) &&
                          same_material(a, ledge_tilemap_cell_material(made, x, y)) &&
                          ledge_material_is_valid(&a),
                      "the loaders disagree on the material of (%d, %d)", x, y);
            }
        }
    }
    ledge_tilemap_destroy(made);
    ledge_tilemap_destroy(fixed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_init();
    if (size < 1) return 0;
    ledge_set_allocator(capped_alloc, plain_free, NULL);
    ledge_ldtk_def def = def_of(data[0]);
    g_text = (const char *)data + 1;
    g_len = size - 1;
    snprintf(g_context, sizeof g_context, "def flags 0x%02x, %zu bytes of JSON", data[0], g_len);
    check_tilemaps(&def);
    ledge_ldtk_result *r = (ledge_ldtk_result *)&g_len; // must be reset
    long before = g_refusals;
    ledge_world *w = ledge_ldtk_create_world(g_text, g_len, &def, &r);
    if (w == NULL) {
        CHECK(r == NULL, "a refused load returned a result");
        CHECK(g_refusals > before, "a refused load said nothing");
    } else {
        CHECK(r != NULL, "no result");
        check_world(w, r);
        for (int s = 0; s < 3; ++s) ledge_world_step(w, 1.0f / 60.0f);
        ledge_ldtk_result_destroy(r);
        ledge_world_destroy(w);
    }
    ledge_set_allocator(NULL, NULL, NULL);
    return 0;
}
