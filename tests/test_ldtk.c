// ledge_ldtk: LDtk projects. Projects are written by the small writers
// below (the JSON LDtk saves, only the fields the loader reads) from an
// expected grid and must load back cell for cell in both frames; the
// vocabulary and the flips are checked against the tile geometry itself;
// entities become the bodies their pixels say, with every field type read
// into its typed value; moving platforms follow their path; levels are
// placed where the world map puts them (Free, GridVania, linear layouts,
// multi-worlds, separate level files); every class of bad project is
// refused with a message naming the problem and where, leaving the target
// unchanged; tile custom data and entity fields give surface materials
// (cells' own, bodies'), a belt carrying a crate at its speed in both
// frames; the shipped sample loads; every allocation of a load can fail
// without a leak.
#define _POSIX_C_SOURCE 200809L // mkdtemp

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>
#include <ledge/ldtk.h>

#include "alloc_hook.h"
#include "log_capture.h"
#include "rng.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Writers: strings live in an arena freed after each test.

static char *g_arena[4096];
static int g_arena_count;

static const char *S(const char *fmt, ...) {
    va_list a, b;
    va_start(a, fmt);
    va_copy(b, a);
    int n = vsnprintf(NULL, 0, fmt, a);
    va_end(a);
    char *p = malloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, b);
    va_end(b);
    assert_true(g_arena_count < 4096);
    g_arena[g_arena_count++] = p;
    return p;
}

static int arena_free(void **state) {
    (void)state;
    for (int i = 0; i < g_arena_count; ++i) free(g_arena[i]);
    g_arena_count = 0;
    return 0;
}

/// Joins `n` strings with commas.
static const char *join(int n, const char *const *parts) {
    const char *out = "";
    for (int i = 0; i < n; ++i) out = S("%s%s%s", out, i ? "," : "", parts[i]);
    return out;
}

static const char *intgrid_def(int uid, const char *name, const char *values) {
    return S("{\"__type\":\"IntGrid\",\"identifier\":\"%s\",\"uid\":%d,\"gridSize\":16,"
             "\"intGridValues\":[%s]}",
             name, uid, values);
}

static const char *value_def(int value, const char *identifier) {
    return identifier
               ? S("{\"value\":%d,\"identifier\":\"%s\",\"color\":\"#000000\"}", value, identifier)
               : S("{\"value\":%d,\"identifier\":null,\"color\":\"#000000\"}", value);
}

static const char *intgrid_layer(const char *name, int def_uid, int grid, int cw, int ch,
                                 const char *csv, const char *extra) {
    return S("{\"__identifier\":\"%s\",\"__type\":\"IntGrid\",\"__gridSize\":%d,\"__cWid\":%d,"
             "\"__cHei\":%d,\"layerDefUid\":%d,"
             "\"intGridCsv\":[%s],\"gridTiles\":[],\"entityInstances\":[]"
             "%s}",
             name, grid, cw, ch, def_uid, csv, extra ? extra : "");
}

static const char *tiles_layer(const char *type, const char *name, int grid, int cw, int ch,
                               int tileset, const char *tiles, const char *extra) {
    const char *key = strcmp(type, "Tiles") == 0 ? "gridTiles" : "autoLayerTiles";
    return S("{\"__identifier\":\"%s\",\"__type\":\"%s\",\"__gridSize\":%d,\"__cWid\":%d,"
             "\"__cHei\":%d,\"__pxTotalOffsetX\":0,\"__pxTotalOffsetY\":0,\"layerDefUid\":99,"
             "\"__tilesetDefUid\":%d,\"intGridCsv\":[],\"%s\":[%s]%s}",
             name, type, grid, cw, ch, tileset, key, tiles, extra ? extra : "");
}

static const char *tile(int t, int x, int y, int f) {
    return S("{\"px\":[%d,%d],\"src\":[0,0],\"f\":%d,\"t\":%d,\"d\":[0],\"a\":1}", x, y, f, t);
}

static const char *entity_layer(const char *name, int grid, int cw, int ch, int ox, int oy,
                                const char *entities) {
    return S("{\"__identifier\":\"%s\",\"__type\":\"Entities\",\"__gridSize\":%d,\"__cWid\":%d,"
             "\"__cHei\":%d,\"__pxTotalOffsetX\":%d,\"__pxTotalOffsetY\":%d,\"layerDefUid\":98,"
             "\"intGridCsv\":[],\"autoLayerTiles\":[],\"gridTiles\":[],\"entityInstances\":[%s]}",
             name, grid, cw, ch, ox, oy, entities);
}

/// An entity with pivot (px, py) at (x, y) pixels, w x h, and its fields.
static const char *entity(const char *id, const char *iid, int x, int y, int w, int h, double px,
                          double py, const char *fields) {
    return S("{\"__identifier\":\"%s\",\"iid\":\"%s\",\"px\":[%d,%d],\"__grid\":[%d,%d],"
             "\"__pivot\":[%g,%g],\"width\":%d,\"height\":%d,\"defUid\":1,\"__tags\":[],"
             "\"fieldInstances\":[%s]}",
             id, iid, x, y, x / 16, y / 16, px, py, w, h, fields ? fields : "");
}

static const char *field(const char *name, const char *type, const char *value) {
    return S("{\"__identifier\":\"%s\",\"__type\":\"%s\",\"__value\":%s,\"defUid\":1}", name, type,
             value);
}

static const char *level(const char *id, int x, int y, int w, int h, const char *layers,
                         const char *fields) {
    return S("{\"identifier\":\"%s\",\"iid\":\"iid-%s\",\"uid\":1,\"worldX\":%d,\"worldY\":%d,"
             "\"worldDepth\":0,\"pxWid\":%d,\"pxHei\":%d,\"layerInstances\":[%s],"
             "\"fieldInstances\":[%s]}",
             id, id, x, y, w, h, layers, fields ? fields : "");
}

static const char *tileset_def(int uid, const char *name, const char *tags, const char *custom) {
    return S("{\"identifier\":\"%s\",\"uid\":%d,\"tileGridSize\":16,\"pxWid\":96,\"pxHei\":96,"
             "\"enumTags\":[%s],\"customData\":[%s]}",
             name, uid, tags ? tags : "", custom ? custom : "");
}

/// A project with these definitions and levels ("Free" layout).
static const char *project(const char *layer_defs, const char *tilesets, const char *levels,
                           const char *extra) {
    return S("{\"jsonVersion\":\"1.5.3\",\"defaultGridSize\":16,\"worldLayout\":\"Free\","
             "\"defs\":{\"layers\":[%s],\"tilesets\":[%s],\"entities\":[],\"enums\":[]},"
             "\"levels\":[%s]%s}",
             layer_defs ? layer_defs : "", tilesets ? tilesets : "", levels, extra ? extra : "");
}

/// The IntGrid definition whose value k + 1 is ledge tile k (0..33) named
/// as LDtk would keep ledge's name (an underscore before a digit).
static const char *ledge_names_def(int uid, const char *layer) {
    const char *values[LEDGE_TILE_COUNT];
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        const char *n = ledge_tile_name((ledge_tile)t);
        values[t] = value_def(t + 1, S("%s%s", n[0] >= '0' && n[0] <= '9' ? "_" : "", n));
    }
    return intgrid_def(uid, layer, join(LEDGE_TILE_COUNT, values));
}

/// A CSV of `n` ints.
static const char *csv(const int *v, int n) {
    const char *parts[1024];
    assert_true(n <= 1024);
    for (int i = 0; i < n; ++i) parts[i] = S("%d", v[i]);
    return join(n, parts);
}

// ---------------------------------------------------------------------------
// Oracles

/// The same tile seen with y negated, by name: PN <-> PP, NN <-> NP, HALF_D
/// <-> HALF_U (written from tiles.h's table, not from the loader).
static ledge_tile negate_sy(ledge_tile t) {
    char name[32];
    snprintf(name, sizeof name, "%s", ledge_tile_name(t));
    size_t n = strlen(name);
    if (strcmp(name, "HALF_D") == 0) return (ledge_tile)ledge_tile_from_name("HALF_U");
    if (strcmp(name, "HALF_U") == 0) return (ledge_tile)ledge_tile_from_name("HALF_D");
    if (n > 3 && name[n - 3] == '_' && (name[n - 1] == 'N' || name[n - 1] == 'P')) {
        name[n - 1] = name[n - 1] == 'N' ? 'P' : 'N';
    }
    return (ledge_tile)ledge_tile_from_name(name);
}

/// Whether the flipped tile's solid region is the mirrored region of the
/// original, on a grid of points away from every tile boundary.
static bool flip_is_mirror(ledge_tile t, bool fx, bool fy) {
    ledge_tile f = ledge_ldtk_flip(t, fx, fy);
    for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 16; ++j) {
            float x = ((float)i + 0.37f) / 16, y = ((float)j + 0.61f) / 16;
            vec2s p = {{x, y}}, q = {{fx ? 1 - x : x, fy ? 1 - y : y}}, o = {{0, 0}};
            if (ledge_tile_contains(f, o, 1, p) != ledge_tile_contains(t, o, 1, q)) return false;
        }
    }
    return true;
}

static bool near(float a, float b) {
    return fabsf(a - b) <= 1e-4f;
}

static bool vec_near(vec2s a, float x, float y) {
    return near(a.x, x) && near(a.y, y);
}

// ---------------------------------------------------------------------------
// Names and flips

/// Every facing word says where the surface faces on screen (LDtk's y axis
/// points down): the tile's normal has those signs in a y-down frame.
static void test_vocabulary_against_the_geometry(void **state) {
    (void)state;
    static const char *const groups[] = {"slope45",       "concave",     "convex",
                                         "slope22_small", "slope22_big", "slope67_small",
                                         "slope67_big"};
    static const ledge_tile_group want_group[] = {
        LEDGE_TILE_GROUP_45DEG,       LEDGE_TILE_GROUP_CONCAVE,   LEDGE_TILE_GROUP_CONVEX,
        LEDGE_TILE_GROUP_22DEG_SMALL, LEDGE_TILE_GROUP_22DEG_BIG, LEDGE_TILE_GROUP_67DEG_SMALL,
        LEDGE_TILE_GROUP_67DEG_BIG};
    static const char *const facings[][2] = {
        {"up_right", "UR"}, {"up_left", "ul"}, {"down_left", "dl"}, {"down_right", "Dr"}};
    static const int sx[] = {1, -1, -1, 1}, sy[] = {-1, -1, 1, 1}; // screen: up is -y
    for (int g = 0; g < 7; ++g) {
        for (int k = 0; k < 4; ++k) {
            for (int form = 0; form < 2; ++form) {
                int way = 7;
                int t = ledge_ldtk_tile_from_name(S("%s_%s", groups[g], facings[k][form]), &way);
                assert_true(t > 1);
                assert_int_equal(way, LEDGE_ONE_WAY_NONE);
                assert_int_equal(ledge_tile_group_of((ledge_tile)t), want_group[g]);
                vec2s n = ledge_tile_normal((ledge_tile)t);
                if ((n.x > 0 ? 1 : -1) != sx[k] || (n.y > 0 ? 1 : -1) != sy[k]) {
                    fail_msg("%s_%s: normal (%g, %g)", groups[g], facings[k][form], n.x, n.y);
                }
            }
        }
    }
    // Halves name the solid half on screen: top is small y in a y-down frame.
    static const char *const halves[] = {"half_top", "half_bottom", "half_left", "half_right"};
    static const float px[] = {0.5f, 0.5f, 0.25f, 0.75f}, py[] = {0.25f, 0.75f, 0.5f, 0.5f};
    for (int k = 0; k < 4; ++k) {
        int t = ledge_ldtk_tile_from_name(halves[k], NULL);
        assert_int_equal(ledge_tile_group_of((ledge_tile)t), LEDGE_TILE_GROUP_HALF);
        vec2s o = {{0, 0}}, in = {{px[k], py[k]}}, out = {{1 - px[k], 1 - py[k]}};
        assert_true(ledge_tile_contains((ledge_tile)t, o, 1, in));
        assert_false(ledge_tile_contains((ledge_tile)t, o, 1, out));
    }
    // ledge's own names, any case, with LDtk's underscore before a digit.
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        const char *n = ledge_tile_name((ledge_tile)t);
        assert_int_equal(ledge_ldtk_tile_from_name(n, NULL), t);
        assert_int_equal(ledge_ldtk_tile_from_name(S("_%s", n), NULL), t);
        char lower[40];
        for (size_t i = 0; i <= strlen(n); ++i) lower[i] = (char)tolower((unsigned char)n[i]);
        assert_int_equal(ledge_ldtk_tile_from_name(lower, NULL), t);
    }
    const char *const fulls[] = {"full", "Solid", "WALL", "walls"};
    for (int k = 0; k < 4; ++k) assert_int_equal(ledge_ldtk_tile_from_name(fulls[k], NULL), 1);
    assert_int_equal(ledge_ldtk_tile_from_name("empty", NULL), LEDGE_TILE_EMPTY);
    int way = 0;
    assert_int_equal(ledge_ldtk_tile_from_name("one_way", &way), LEDGE_TILE_FULL);
    assert_int_equal(way, LEDGE_ONE_WAY_UP);
    assert_int_equal(ledge_ldtk_tile_from_name("half_top_one_way", &way), LEDGE_TILE_HALF_U);
    assert_int_equal(way, LEDGE_ONE_WAY_UP);
    assert_int_equal(ledge_ldtk_tile_from_name("_45DEG_PN_ONEWAY", &way), LEDGE_TILE_45DEG_PN);
    assert_int_equal(way, LEDGE_ONE_WAY_UP);
    const char *const bad[] = {"slope45", "slope45_up",  "half",      "empty_one_way", "",
                               "fu ll",   "slope45_urx", "walls_one", "one_way_down"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        if (ledge_ldtk_tile_from_name(bad[k], &way) != -1) fail_msg("'%s' named a tile", bad[k]);
        assert_int_equal(way, LEDGE_ONE_WAY_NONE);
    }
    assert_int_equal(ledge_ldtk_tile_from_name(NULL, NULL), -1);
    char longname[200];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(ledge_ldtk_tile_from_name(longname, NULL), -1);
}

static void test_flips_are_the_mirrored_geometry(void **state) {
    (void)state;
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        for (int f = 0; f < 4; ++f) {
            if (!flip_is_mirror((ledge_tile)t, f & 1, f & 2)) {
                fail_msg("tile %s flip %d", ledge_tile_name((ledge_tile)t), f);
            }
        }
        assert_int_equal(ledge_ldtk_flip((ledge_tile)t, false, true), negate_sy((ledge_tile)t));
    }
    log_capture_start();
    assert_int_equal(ledge_ldtk_flip(34, true, false), LEDGE_TILE_EMPTY);
    assert_true(log_capture_says("ledge_ldtk_flip", "34"));
    ledge_set_log_hook(NULL, NULL);
}

// ---------------------------------------------------------------------------
// IntGrid layers

/// A 3 x 2 level of 16-pixel cells whose IntGrid layer holds `cells`.
static const char *small_project(const char *values, const int cells[6]) {
    const char *layer = intgrid_layer("Collisions", 1, 16, 3, 2, csv(cells, 6), NULL);
    return project(intgrid_def(1, "Collisions", values), NULL,
                   level("L", 0, 0, 48, 32, layer, NULL), NULL);
}

static ledge_tilemap *map_of(int w, int h) {
    ledge_tilemap_def md = ledge_default_tilemap_def();
    md.width = w;
    md.height = h;
    return ledge_tilemap_create(&md);
}

/// LDtk's row 0 is ledge's top row, every tile mirrored; one-way cells
/// are solid from above as drawn.
static void test_intgrid_y_up_and_y_down(void **state) {
    (void)state;
    const char *values =
        join(4, (const char *const[]){value_def(1, "full"), value_def(2, "slope45_up_right"),
                                      value_def(3, "half_bottom"), value_def(4, "one_way")});
    const int cells[6] = {1, 2, 0, 3, 4, 1};
    const char *p = small_project(values, cells);
    ledge_tilemap *map = map_of(3, 2);
    ledge_tilemap_set_one_way(map, 2, 1, LEDGE_ONE_WAY_LEFT); // must be cleared by the load
    assert_true(ledge_ldtk_load_tilemap(map, p, strlen(p), NULL));
    assert_int_equal(ledge_tilemap_get(map, 0, 1), LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_get(map, 1, 1), LEDGE_TILE_45DEG_PP);
    assert_int_equal(ledge_tilemap_get(map, 2, 1), LEDGE_TILE_EMPTY);
    assert_int_equal(ledge_tilemap_one_way(map, 2, 1), LEDGE_ONE_WAY_NONE);
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_HALF_U);
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_one_way(map, 1, 0), LEDGE_ONE_WAY_UP);
    assert_int_equal(ledge_tilemap_get(map, 2, 0), LEDGE_TILE_FULL);
    // The slope faced up-right in LDtk and still does: up-right of its
    // diagonal is free, down-left solid; the half tile is solid below.
    assert_false(ledge_tilemap_query_point(map, (vec2s){{1.6f, 1.6f}}, NULL));
    assert_true(ledge_tilemap_query_point(map, (vec2s){{1.4f, 1.4f}}, NULL));
    assert_true(ledge_tilemap_query_point(map, (vec2s){{0.5f, 0.25f}}, NULL));
    assert_false(ledge_tilemap_query_point(map, (vec2s){{0.5f, 0.75f}}, NULL));

    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.y_down = true;
    assert_true(ledge_ldtk_load_tilemap(map, p, strlen(p), &def));
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_45DEG_PN);
    assert_int_equal(ledge_tilemap_get(map, 2, 0), LEDGE_TILE_EMPTY); // overwritten
    assert_int_equal(ledge_tilemap_get(map, 0, 1), LEDGE_TILE_HALF_D);
    assert_int_equal(ledge_tilemap_one_way(map, 1, 1), LEDGE_ONE_WAY_DOWN); // up on screen
    assert_int_equal(ledge_tilemap_one_way(map, 1, 0), LEDGE_ONE_WAY_NONE);
    ledge_tilemap_destroy(map);
}

/// The game's table: by identifier, by value (unnamed values), per layer,
/// "*" for the rest; the first entry that matches wins; it overrides the
/// vocabulary.
static void test_intgrid_table(void **state) {
    (void)state;
    const char *values =
        join(4, (const char *const[]){value_def(1, "dirt"), value_def(2, NULL),
                                      value_def(3, "ladder"), value_def(4, "full")});
    const int cells[6] = {1, 2, 3, 4, 0, 0};
    const char *p = small_project(values, cells);
    ledge_ldtk_intgrid_tile table[] = {
        {"Other", "dirt", 0, LEDGE_TILE_HALF_L, 0},        // another layer: not this one
        {"Collisions", "dirt", 0, LEDGE_TILE_45DEG_NN, 0}, // dirt
        {NULL, NULL, 2, LEDGE_TILE_HALF_R, LEDGE_ONE_WAY_LEFT},
        {NULL, "full", 0, LEDGE_TILE_22DEG_BIG_PN, 0}, // overrides the vocabulary
        {NULL, "*", 0, LEDGE_TILE_EMPTY, 0},           // ladder: not solid
        {NULL, "dirt", 0, LEDGE_TILE_FULL, 0},         // never reached
    };
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.intgrid = table;
    def.intgrid_count = 6;
    def.y_down = true;
    ledge_tilemap *map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
    assert_non_null(map);
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_45DEG_NN);
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_HALF_R);
    assert_int_equal(ledge_tilemap_one_way(map, 1, 0), LEDGE_ONE_WAY_LEFT);
    assert_int_equal(ledge_tilemap_get(map, 2, 0), LEDGE_TILE_EMPTY);
    assert_int_equal(ledge_tilemap_get(map, 0, 1), LEDGE_TILE_22DEG_BIG_PN);
    ledge_tilemap_destroy(map);
}

/// def->tile_layer reads one layer's tiles (two layers that would conflict
/// load one at a time); ledge_ldtk_load_world adds to a world that has
/// bodies of its own.
static void test_one_tile_layer_and_load_world(void **state) {
    (void)state;
    const char *two[] = {intgrid_layer("A", 1, 16, 3, 2, "1,0,0,0,0,0", NULL),
                         intgrid_layer("B", 2, 16, 3, 2, "1,0,0,0,0,1", NULL),
                         entity_layer("Things", 16, 3, 2, 0, 0,
                                      entity("Box", "box", 16, 0, 16, 16, 0, 0,
                                             field("body", "String", "\"dynamic\"")))};
    const char *defs = S("%s,%s", intgrid_def(1, "A", value_def(1, "full")),
                         intgrid_def(2, "B", value_def(1, "slope45_ul")));
    const char *p = project(defs, NULL, level("L", 0, 0, 48, 32, join(3, two), NULL), NULL);
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.tile_layer = "B";
    def.y_down = true;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 3;
    wd.map_height = 2;
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.25f);
    bd.position = (vec2s){{2.5f, 0.5f}};
    ledge_body_id mine = ledge_body_create(w, &bd);
    ledge_ldtk_result *r = NULL;
    assert_true(ledge_ldtk_load_world(w, p, strlen(p), &def, &r));
    ledge_tilemap *m = ledge_world_tilemap(w);
    assert_int_equal(ledge_tilemap_get(m, 0, 0), LEDGE_TILE_45DEG_NN);
    assert_int_equal(ledge_tilemap_get(m, 2, 1), LEDGE_TILE_45DEG_NN);
    assert_int_equal(r->tile_counts[LEDGE_TILE_45DEG_NN], 2);
    assert_int_equal(r->body_count, 1);
    assert_int_equal(ledge_world_body_count(w), 2);
    assert_true(ledge_body_is_valid(w, mine));
    assert_true(vec_near(ledge_body_position(w, r->bodies[0]), 1.5f, 0.5f));
    ledge_ldtk_result_destroy(r);
    def.tile_layer = "A";
    ledge_tilemap *a = ledge_ldtk_create_tilemap(p, strlen(p), &def);
    assert_int_equal(ledge_tilemap_get(a, 0, 0), LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_get(a, 2, 1), LEDGE_TILE_EMPTY);
    ledge_tilemap_destroy(a);
    ledge_world_destroy(w);
}

// ---------------------------------------------------------------------------
// Tilesets: enum tags and custom data

static const char *shapes_tileset(void) {
    const char *tags =
        join(3, (const char *const[]){"{\"enumValueId\":\"slope45_up_right\",\"tileIds\":[3]}",
                                      "{\"enumValueId\":\"Water\",\"tileIds\":[4,5]}",
                                      "{\"enumValueId\":\"FULL\",\"tileIds\":[1]}"});
    const char *custom = join(
        5, (const char *const[]){
               "{\"tileId\":6,\"data\":\" ledge_tile = half_top\\none_way = up;friction=0.1\"}",
               "{\"tileId\":7,\"data\":\"{\\\"ledge_tile\\\":\\\"_22DEG_SMALL_NN\\\","
               "\\\"bounce\\\":0.5,\\\"hp\\\":3}\"}",
               "{\"tileId\":8,\"data\":\"slope67_big_ul\"}", "{\"tileId\":9,\"data\":\"spikes\"}",
               "{\"tileId\":4,\"data\":\"ledge_tile=30\"}"});
    return tileset_def(10, "shapes", tags, custom);
}

/// Tiles, auto-layer and an IntGrid layer's rule tiles, with flips.
static void test_tiles_layers(void **state) {
    (void)state;
    // Tiles layer: cells (0..4, 0), tiles 1 3 3(flip x) 6 7(flip y); cell
    // (0, 1): tile 9 (decoration); AutoLayer: (1, 1) tile 8 flipped both;
    // IntGrid's rule tiles: (2, 1) tile 4 (custom data 30: HALF_D).
    const char *t1 =
        join(6, (const char *const[]){tile(1, 0, 0, 0), tile(3, 16, 0, 0), tile(3, 32, 0, 1),
                                      tile(6, 48, 0, 0), tile(7, 64, 0, 2), tile(9, 0, 16, 0)});
    const char *t2 = tile(8, 16, 16, 3);
    const int zeros[10] = {0};
    const char *grid =
        intgrid_layer("Walls", 1, 16, 5, 2, csv(zeros, 10),
                      S(",\"__tilesetDefUid\":10,\"autoLayerTiles\":[%s]", tile(4, 32, 16, 0)));
    const char *layers[] = {tiles_layer("Tiles", "Shapes", 16, 5, 2, 10, t1, NULL),
                            tiles_layer("AutoLayer", "Auto", 16, 5, 2, 10, t2, NULL)};
    const char *p = project(intgrid_def(1, "Walls", value_def(1, "full")), shapes_tileset(),
                            level("L", 0, 0, 80, 32, join(2, layers), NULL), NULL);
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.y_down = true;
    ledge_tilemap *map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
    assert_non_null(map);
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_45DEG_PN);
    assert_int_equal(ledge_tilemap_get(map, 2, 0), LEDGE_TILE_45DEG_NN); // flipped in x
    assert_int_equal(ledge_tilemap_get(map, 3, 0), LEDGE_TILE_HALF_U);
    assert_int_equal(ledge_tilemap_one_way(map, 3, 0), LEDGE_ONE_WAY_DOWN);    // up on screen
    assert_int_equal(ledge_tilemap_get(map, 4, 0), LEDGE_TILE_22DEG_SMALL_NP); // flipped in y
    assert_int_equal(ledge_tilemap_get(map, 0, 1), LEDGE_TILE_EMPTY);          // "spikes"
    assert_int_equal(ledge_tilemap_get(map, 1, 1), LEDGE_TILE_67DEG_BIG_PP);   // NN, both flips
    ledge_tilemap_destroy(map);

    // y up: every tile mirrored vertically, one-way still up on screen.
    map = ledge_ldtk_create_tilemap(p, strlen(p), NULL);
    assert_int_equal(ledge_tilemap_get(map, 1, 1), LEDGE_TILE_45DEG_PP);
    assert_int_equal(ledge_tilemap_get(map, 3, 1), LEDGE_TILE_HALF_D);
    assert_int_equal(ledge_tilemap_one_way(map, 3, 1), LEDGE_ONE_WAY_UP);
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_67DEG_BIG_PN);
    ledge_tilemap_destroy(map);

    // An IntGrid layer's rule tiles count too.
    const char *layers2[] = {grid};
    p = project(intgrid_def(1, "Walls", value_def(1, "full")), shapes_tileset(),
                level("L", 0, 0, 80, 32, join(1, layers2), NULL), NULL);
    map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
    assert_non_null(map);
    assert_int_equal(ledge_tilemap_get(map, 2, 1), LEDGE_TILE_HALF_D);
    ledge_tilemap_destroy(map);
}

/// Random IntGrid cells named with ledge's names and, where they are
/// empty, tileset tiles with random flips: every cell in both frames, at
/// another tile size.
static void test_random_levels_round_trip(void **state) {
    (void)state;
    enum { W = 11, H = 7 };
    const char *tags[LEDGE_TILE_COUNT];
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        const char *n = ledge_tile_name((ledge_tile)t);
        tags[t] = S("{\"enumValueId\":\"%s%s\",\"tileIds\":[%d]}",
                    n[0] >= '0' && n[0] <= '9' ? "_" : "", n, t + 100);
    }
    const char *ts = tileset_def(10, "ids", join(LEDGE_TILE_COUNT, tags), NULL);
    for (int round = 0; round < 8; ++round) {
        g_rng = 4200 + (uint64_t)round;
        int values[W * H];
        const char *tiles[W * H];
        int ntiles = 0;
        ledge_tile drawn[W * H]; // as drawn, LDtk's row order
        for (int i = 0; i < W * H; ++i) {
            bool grid_cell = rng_int(0, 1) == 0;
            values[i] = grid_cell ? rng_int(0, LEDGE_TILE_COUNT) : 0;
            drawn[i] = values[i] ? (ledge_tile)(values[i] - 1) : LEDGE_TILE_EMPTY;
            if (!grid_cell && rng_int(0, 3) > 0) {
                int k = rng_int(0, LEDGE_TILE_COUNT + 2), f = rng_int(0, 3); // > 33: decoration
                tiles[ntiles++] = tile(k + 100, (i % W) * 16, (i / W) * 16, f);
                if (k < LEDGE_TILE_COUNT) drawn[i] = ledge_ldtk_flip((ledge_tile)k, f & 1, f & 2);
            }
        }
        const char *layers[] = {
            tiles_layer("Tiles", "Art", 16, W, H, 10, join(ntiles, tiles), NULL),
            intgrid_layer("Grid", 1, 16, W, H, csv(values, W * H), NULL)};
        const char *p = project(ledge_names_def(1, "Grid"), ts,
                                level("L", 0, 0, W * 16, H * 16, join(2, layers), NULL), NULL);
        for (int y_down = 0; y_down < 2; ++y_down) {
            ledge_ldtk_def def = ledge_default_ldtk_def();
            def.y_down = y_down;
            def.world.tile_size = 0.5f;
            ledge_tilemap *map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
            assert_non_null(map);
            ledge_tilemap_def md = ledge_tilemap_get_def(map);
            assert_int_equal(md.width, W);
            assert_int_equal(md.height, H);
            assert_true(md.tile_size == 0.5f);
            for (int i = 0; i < W * H; ++i) {
                int x = i % W, row = i / W, y = y_down ? row : H - 1 - row;
                ledge_tile want = y_down ? drawn[i] : negate_sy(drawn[i]);
                if (ledge_tilemap_get(map, x, y) != want) {
                    fail_msg("round %d y_down %d cell (%d, %d): %s, expected %s", round, y_down, x,
                             y, ledge_tile_name(ledge_tilemap_get(map, x, y)),
                             ledge_tile_name(want));
                }
            }
            ledge_tilemap_destroy(map);
        }
    }
}

// ---------------------------------------------------------------------------
// Entities and fields

#define CRATE_IID "c0ffee00-0000-0000-0000-000000000001"

/// A 10 x 8 level (160 x 128 pixels) with a floor, and entities of every
/// kind on a layer offset by `ox` pixels.
static const char *entities_project(int ox) {
    int floor[80] = {0};
    for (int x = 0; x < 10; ++x) floor[70 + x] = 1;
    const char *player_fields = join(
        17,
        (const char *const[]){
            field("hp", "Int", "7"), field("Speed", "Float", "1.5"), field("alive", "Bool", "true"),
            field("name", "String", "\"Bob\""), field("note", "Multilines", "\"a\\nb\""),
            field("item", "LocalEnum.Item", "\"Sword\""), field("ext", "ExternEnum.Other", "\"X\""),
            field("tint", "Color", "\"#FF8000\""), field("spawn", "Point", "{\"cx\":2,\"cy\":3}"),
            field("target", "EntityRef",
                  "{\"entityIid\":\"" CRATE_IID "\",\"layerIid\":\"l\",\"levelIid\":\"v\","
                  "\"worldIid\":\"w\"}"),
            field("lost", "EntityRef", "{\"entityIid\":\"nobody\"}"),
            field("file", "FilePath", "\"a.png\""),
            field("icon", "Tile", "{\"tilesetUid\":10,\"x\":16,\"y\":32,\"w\":16,\"h\":8}"),
            field("hps", "Array<Int>", "[1,2,3]"), field("nothing", "Int", "null"),
            field("items", "Array<LocalEnum.Item>", "[\"A\",null]"),
            field("future", "Vector3", "[1,2,3]")});
    const char *ents[] = {
        entity("Crate", CRATE_IID, 32, 96, 16, 16, 0, 0, field("body", "String", "\"dynamic\"")),
        entity("Ball", "ball", 80, 40, 16, 16, 0.5, 0.5,
               join(3, (const char *const[]){field("Body", "LocalEnum.Kind", "\"Dynamic\""),
                                             field("shape", "String", "\"circle\""),
                                             field("bounce", "Float", "0.5")})),
        entity("Bridge", "bridge", 96, 64, 48, 8, 0, 0, field("one_way", "Bool", "true")),
        entity("Pit", "pit", 0, 80, 32, 16, 0, 0, field("sensor", "Bool", "true")),
        entity("Lift", "lift", 16, 16, 32, 16, 0, 0,
               join(3, (const char *const[]){field("path", "Array<Point>",
                                                   "[{\"cx\":1,\"cy\":4},{\"cx\":6,\"cy\":4}]"),
                                             field("speed", "Float", "2"),
                                             field("loop", "Bool", "false")})),
        entity("Player", "player", 64, 96, 16, 16, 0.5, 1, player_fields),
        entity("Spring", "spring", 128, 96, 16, 16, 0, 0, NULL),
        entity("Ghost", "ghost", 144, 96, 16, 16, 0, 0, field("body", "String", "\"none\"")),
        entity("Sign", "sign", 0, 0, 16, 16, 0, 0,
               join(2, (const char *const[]){field("one_way", "Bool", "false"),
                                             field("sensor", "Bool", "null")}))};
    const char *layers[] = {entity_layer("Entities", 16, 10, 8, ox, 0, join(9, ents)),
                            intgrid_layer("Collisions", 1, 16, 10, 8, csv(floor, 80), NULL)};
    const char *lfields =
        join(2, (const char *const[]){field("music", "String", "\"calm\""),
                                      field("start", "Point", "{\"cx\":1,\"cy\":2}")});
    return project(intgrid_def(1, "Collisions", value_def(1, "full")), NULL,
                   level("Room", 0, 0, 160, 128, join(2, layers), lfields), NULL);
}

static const ledge_ldtk_entity_body g_table[] = {
    {"Spring", LEDGE_LDTK_DYNAMIC, LEDGE_LDTK_CIRCLE, false},
    {"Ghost", LEDGE_LDTK_DYNAMIC, LEDGE_LDTK_BOX, false},
};

static ledge_world *load_entities(int ox, bool y_down, ledge_ldtk_result **r) {
    const char *p = entities_project(ox);
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.entity_bodies = g_table;
    def.entity_body_count = 2;
    def.y_down = y_down;
    return ledge_ldtk_create_world(p, strlen(p), &def, r);
}

static const ledge_ldtk_value *value_of(const ledge_ldtk_result *r, const ledge_ldtk_entity *e,
                                        const char *name, int k) {
    const ledge_ldtk_field *f = ledge_ldtk_entity_field(r, e, name);
    if (f == NULL) fail_msg("no field %s", name);
    assert_true(k < f->value_count);
    return &r->values[f->first_value + k];
}

static void test_entities_become_bodies(void **state) {
    (void)state;
    ledge_ldtk_result *r = NULL;
    ledge_world *w = load_entities(0, false, &r);
    assert_non_null(w);
    assert_int_equal(r->entity_count, 9);
    assert_int_equal(r->body_count, 6);
    assert_int_equal(ledge_world_body_count(w), 6);
    assert_int_equal(r->width, 10);
    assert_int_equal(r->height, 8);
    assert_int_equal(r->grid_px, 16);
    assert_int_equal(r->tile_counts[LEDGE_TILE_FULL], 10);

    // The crate: pixels [32, 48] x [96, 112] of a 128-pixel-high level.
    const ledge_ldtk_entity *e = ledge_ldtk_find_entity(r, "Crate");
    assert_int_equal(e->body, LEDGE_LDTK_DYNAMIC);
    assert_int_equal(e->body_type, LEDGE_BODY_DYNAMIC);
    assert_true(vec_near(e->position, 2, 2)); // the pivot: its top-left corner
    assert_true(vec_near(e->bounds.lower, 2, 1) && vec_near(e->bounds.upper, 3, 2));
    ledge_body_id id = r->bodies[e->first_body];
    assert_true(vec_near(ledge_body_position(w, id), 2.5f, 1.5f));
    const ledge_shape *s = ledge_body_shape(w, id);
    assert_int_equal(s->type, LEDGE_SHAPE_BOX);
    assert_true(vec_near(s->bounds.upper, 0.5f, 0.5f));
    assert_ptr_equal(ledge_ldtk_find_entity(r, CRATE_IID), e);
    assert_int_equal(e->px_x, 32);
    assert_int_equal(e->cx, 2);
    assert_int_equal(e->cy, 6);
    assert_string_equal(e->layer, "Entities");
    assert_int_equal(e->level, 0);

    e = ledge_ldtk_find_entity(r, "Ball"); // Enum and any case; pivot at its centre
    s = ledge_body_shape(w, r->bodies[e->first_body]);
    assert_int_equal(s->type, LEDGE_SHAPE_CIRCLE);
    assert_true(near(s->radius, 0.5f));
    assert_true(vec_near(e->position, 5, 5.5f));
    assert_true(vec_near(ledge_body_position(w, r->bodies[e->first_body]), 5, 5.5f));
    assert_true(near(e->bounce, 0.5f));

    e = ledge_ldtk_find_entity(r, "Bridge");
    assert_int_equal(e->body, LEDGE_LDTK_STATIC);
    assert_true(e->one_way);
    e = ledge_ldtk_find_entity(r, "Pit");
    assert_int_equal(e->body, LEDGE_LDTK_SENSOR);
    assert_true(e->sensor);
    assert_int_equal(e->body_type, LEDGE_BODY_STATIC);

    e = ledge_ldtk_find_entity(r, "Lift"); // a path: kinematic; stops by whole cells
    assert_int_equal(e->body, LEDGE_LDTK_KINEMATIC);
    assert_int_equal(e->body_type, LEDGE_BODY_KINEMATIC);
    assert_int_equal(e->path_point_count, 3);
    const vec2s *pp = r->path_points + e->first_path_point;
    assert_true(vec_near(pp[0], 2, 6.5f) && vec_near(pp[1], 2, 3.5f) && vec_near(pp[2], 7, 3.5f));
    assert_true(near(e->path_speed, 2));
    assert_false(e->path_loop);

    e = ledge_ldtk_find_entity(r, "Spring"); // from the game's table
    assert_int_equal(e->body, LEDGE_LDTK_DYNAMIC);
    assert_int_equal(ledge_body_shape(w, r->bodies[e->first_body])->type, LEDGE_SHAPE_CIRCLE);
    e = ledge_ldtk_find_entity(r, "Ghost"); // "none" beats the table
    assert_int_equal(e->body, LEDGE_LDTK_NO_BODY);
    assert_int_equal(e->body_count, 0);
    e = ledge_ldtk_find_entity(r, "Sign");
    assert_int_equal(e->body, LEDGE_LDTK_NO_BODY);

    // The player: the game's own, with its pivot at its feet.
    e = ledge_ldtk_find_entity(r, "Player");
    assert_int_equal(e->body, LEDGE_LDTK_NO_BODY);
    assert_true(vec_near(e->position, 4, 2));
    assert_true(vec_near(e->bounds.lower, 3.5f, 2) && vec_near(e->bounds.upper, 4.5f, 3));
    assert_int_equal(e->field_count, 17);

    // The level and its fields; a level Point uses the map's grid.
    assert_int_equal(r->level_count, 1);
    const ledge_ldtk_level *l = ledge_ldtk_find_level(r, "Room");
    assert_ptr_equal(ledge_ldtk_find_level(r, "iid-Room"), l);
    assert_int_equal(l->cell_width, 10);
    assert_true(vec_near(l->bounds.lower, 0, 0) && vec_near(l->bounds.upper, 10, 8));
    assert_string_equal(r->values[ledge_ldtk_level_field(r, l, "music")->first_value].string,
                        "calm");
    assert_true(
        vec_near(r->values[ledge_ldtk_level_field(r, l, "start")->first_value].point, 1.5f, 5.5f));
    assert_null(ledge_ldtk_level_field(r, l, "nope"));
    assert_null(ledge_ldtk_find_entity(r, "nope"));
    assert_null(ledge_ldtk_find_level(r, "nope"));
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
}

static void test_every_field_type(void **state) {
    (void)state;
    ledge_ldtk_result *r = NULL;
    ledge_world *w = load_entities(0, false, &r);
    const ledge_ldtk_entity *e = ledge_ldtk_find_entity(r, "Player");
    const ledge_ldtk_value *v = value_of(r, e, "hp", 0);
    assert_int_equal(ledge_ldtk_entity_field(r, e, "hp")->type, LEDGE_LDTK_FIELD_INT);
    assert_true(v->integer == 7 && v->number == 7);
    assert_true(value_of(r, e, "Speed", 0)->number == 1.5);
    assert_true(value_of(r, e, "alive", 0)->boolean);
    assert_string_equal(value_of(r, e, "name", 0)->string, "Bob");
    assert_string_equal(value_of(r, e, "note", 0)->string, "a\nb");
    assert_int_equal(ledge_ldtk_entity_field(r, e, "note")->type, LEDGE_LDTK_FIELD_STRING);
    const ledge_ldtk_field *f = ledge_ldtk_entity_field(r, e, "item");
    assert_int_equal(f->type, LEDGE_LDTK_FIELD_ENUM);
    assert_string_equal(f->enum_name, "Item");
    assert_string_equal(f->type_name, "LocalEnum.Item");
    assert_string_equal(value_of(r, e, "item", 0)->string, "Sword");
    assert_string_equal(ledge_ldtk_entity_field(r, e, "ext")->enum_name, "Other");
    v = value_of(r, e, "tint", 0);
    assert_int_equal(ledge_ldtk_entity_field(r, e, "tint")->type, LEDGE_LDTK_FIELD_COLOR);
    assert_true(v->integer == 0xFF8000);
    assert_string_equal(v->string, "#FF8000");
    v = value_of(r, e, "spawn", 0); // cell (2, 3): its centre (40, 56) px
    assert_int_equal(v->cx, 2);
    assert_int_equal(v->cy, 3);
    assert_true(vec_near(v->point, 2.5f, 4.5f));
    v = value_of(r, e, "target", 0);
    assert_int_equal(ledge_ldtk_entity_field(r, e, "target")->type, LEDGE_LDTK_FIELD_ENTITY_REF);
    assert_string_equal(v->string, CRATE_IID);
    assert_string_equal(v->layer, "l");
    assert_string_equal(v->level, "v");
    assert_string_equal(v->world, "w");
    assert_ptr_equal(&r->entities[v->entity], ledge_ldtk_find_entity(r, "Crate"));
    assert_int_equal(value_of(r, e, "lost", 0)->entity, -1);
    assert_string_equal(value_of(r, e, "file", 0)->string, "a.png");
    v = value_of(r, e, "icon", 0);
    assert_true(v->tileset_uid == 10 && v->x == 16 && v->y == 32 && v->w == 16 && v->h == 8);
    f = ledge_ldtk_entity_field(r, e, "hps");
    assert_true(f->is_array);
    assert_int_equal(f->value_count, 3);
    assert_true(r->values[f->first_value + 2].integer == 3);
    f = ledge_ldtk_entity_field(r, e, "nothing");
    assert_int_equal(f->value_count, 1);
    assert_true(r->values[f->first_value].is_null);
    f = ledge_ldtk_entity_field(r, e, "items");
    assert_int_equal(f->value_count, 2);
    assert_false(r->values[f->first_value].is_null);
    assert_true(r->values[f->first_value + 1].is_null);
    f = ledge_ldtk_entity_field(r, e, "future"); // a type this version does not know: skipped
    assert_int_equal(f->type, LEDGE_LDTK_FIELD_UNKNOWN);
    assert_int_equal(f->value_count, 0);
    assert_string_equal(f->type_name, "Vector3");
    assert_null(ledge_ldtk_entity_field(r, e, "Hp")); // the lookup is exact
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
}

/// y down and a layer offset: positions follow LDtk's pixels directly.
static void test_entities_y_down_and_offset(void **state) {
    (void)state;
    ledge_ldtk_result *r = NULL;
    ledge_world *w = load_entities(8, true, &r);
    assert_non_null(w);
    const ledge_ldtk_entity *e = ledge_ldtk_find_entity(r, "Crate");
    assert_true(vec_near(e->position, 2.5f, 6)); // (32 + 8, 96) px
    assert_true(vec_near(ledge_body_position(w, r->bodies[e->first_body]), 3, 6.5f));
    e = ledge_ldtk_find_entity(r, "Lift");
    const vec2s *pp = r->path_points + e->first_path_point;
    assert_true(vec_near(pp[0], 2.5f, 1.5f) && vec_near(pp[1], 2.5f, 4.5f) &&
                vec_near(pp[2], 7.5f, 4.5f));
    e = ledge_ldtk_find_entity(r, "Player");
    assert_true(vec_near(value_of(r, e, "spawn", 0)->point, 3, 3.5f));
    ledge_body_def bd = ledge_default_body_def(); // the bridge is solid from above on screen: -y
    assert_int_equal(bd.one_way, LEDGE_ONE_WAY_NONE);
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
}

/// The bodies behave as their fields say: a ball rises through the
/// one-way bridge, the pit reports it, the lift follows its path.
static void test_entities_in_the_step(void **state) {
    (void)state;
    ledge_ldtk_result *r = NULL;
    ledge_world *w = load_entities(0, false, &r);
    const ledge_ldtk_entity *bridge = ledge_ldtk_find_entity(r, "Bridge");
    const ledge_ldtk_entity *pit = ledge_ldtk_find_entity(r, "Pit");
    const ledge_ldtk_entity *lift = ledge_ldtk_find_entity(r, "Lift");
    ledge_body_id lift_id = r->bodies[lift->first_body];
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.1f);
    vec2s bp = ledge_body_position(w, r->bodies[bridge->first_body]);
    bd.position = (vec2s){{bp.x, bp.y - 0.4f}};
    bd.velocity = (vec2s){{0, 8}};
    bd.gravity_scale = 0;
    ledge_body_id ball = ledge_body_create(w, &bd);
    bd.position = ledge_body_position(w, r->bodies[pit->first_body]);
    bd.velocity = (vec2s){{0, 0}};
    ledge_body_id visitor = ledge_body_create(w, &bd);
    int sensed = 0;
    const float dt = 1.0f / 60.0f;
    for (int s = 0; s < 120; ++s) {
        vec2s to = ledge_ldtk_path_position(r, lift, (double)(s + 1) * dt);
        assert_true(ledge_body_set_target(w, lift_id, to, dt));
        ledge_world_step(w, dt);
        ledge_sensor_events se = ledge_world_sensor_events(w);
        for (int k = 0; k < se.begin_count; ++k) {
            sensed += se.begin[k].visitor.index1 == visitor.index1 &&
                      se.begin[k].sensor.index1 == r->bodies[pit->first_body].index1;
        }
        if (s == 59) { // the lift is where the path says, 2 units per second along it
            vec2s at = ledge_body_position(w, lift_id);
            assert_true(fabsf(at.x - 2) < 1e-3f && fabsf(at.y - 4.5f) < 1e-3f);
        }
    }
    assert_true(ledge_body_position(w, ball).y > bp.y + 0.2f); // through the bridge
    assert_int_equal(sensed, 1);
    vec2s at = ledge_body_position(w, lift_id); // 4 units: 3 down, then 1 right
    assert_true(fabsf(at.x - 3) < 1e-3f && fabsf(at.y - 3.5f) < 1e-3f);
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
}

static const char *entity_project(const char *entities);

/// ledge_ldtk_path_position against the closed forms of a ping-pong and a
/// loop along a right angle of legs 3 and 4.
static void test_path_position(void **state) {
    (void)state;
    ledge_ldtk_result *r = NULL;
    ledge_world *w = load_entities(0, false, &r);
    ledge_ldtk_entity *lift = (ledge_ldtk_entity *)ledge_ldtk_find_entity(r, "Lift");
    // Stops (2, 6.5), (2, 3.5), (7, 3.5): legs 3 and 5.
    const float t_cases[] = {0, 0.5f, 1.5f, 2.5f, 4, 5.5f, 8, 9, -1};
    for (size_t k = 0; k < sizeof t_cases / sizeof t_cases[0]; ++k) {
        double t = t_cases[k], d = fmod(2.0 * t, 16.0);
        if (d < 0) d += 16;
        if (d > 8) d = 16 - d;
        vec2s want = d <= 3 ? (vec2s){{2, (float)(6.5 - d)}} : (vec2s){{(float)(2 + d - 3), 3.5f}};
        vec2s got = ledge_ldtk_path_position(r, lift, t);
        if (!vec_near(got, want.x, want.y)) {
            fail_msg("ping-pong t %g: (%g, %g), expected (%g, %g)", t, got.x, got.y, want.x,
                     want.y);
        }
    }
    lift->path_loop = true; // the closing leg: (7, 3.5) to (2, 6.5), length sqrt(34)
    double L = 8 + sqrt(34.0);
    for (int k = 0; k < 20; ++k) {
        double t = k * 0.7, d = fmod(2.0 * t, L);
        vec2s got = ledge_ldtk_path_position(r, lift, t), want;
        if (d <= 3) {
            want = (vec2s){{2, (float)(6.5 - d)}};
        } else if (d <= 8) {
            want = (vec2s){{(float)(d - 1), 3.5f}};
        } else {
            double u = (d - 8) / sqrt(34.0);
            want = (vec2s){{(float)(7 - 5 * u), (float)(3.5 + 3 * u)}};
        }
        if (!vec_near(got, want.x, want.y)) {
            fail_msg("loop t %g: (%g, %g), expected (%g, %g)", t, got.x, got.y, want.x, want.y);
        }
    }
    lift->path_speed = 0;
    assert_true(vec_near(ledge_ldtk_path_position(r, lift, 3), 2, 6.5f));
    const ledge_ldtk_entity *crate = ledge_ldtk_find_entity(r, "Crate"); // no path: its centre
    assert_true(vec_near(ledge_ldtk_path_position(r, crate, 3), 2.5f, 1.5f));
    log_capture_start();
    assert_true(vec_near(ledge_ldtk_path_position(r, lift, NAN), 0, 0));
    assert_true(log_capture_says("ledge_ldtk_path_position", "not finite"));
    ledge_ldtk_entity other = *lift;
    assert_true(vec_near(ledge_ldtk_path_position(r, &other, 1), 0, 0));
    assert_true(log_capture_says("ledge_ldtk_path_position", "not one of the result's"));
    ledge_set_log_hook(NULL, NULL);
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
    // A path alone makes a kinematic platform moving at 1 unit per second.
    const char *p = entity_project(entity("Lift", "l", 0, 0, 32, 8, 0, 0,
                                          field("path", "Array<Point>", "[{\"cx\":2,\"cy\":0}]")));
    w = ledge_ldtk_create_world(p, strlen(p), NULL, &r);
    assert_non_null(w);
    assert_int_equal(r->entities[0].body, LEDGE_LDTK_KINEMATIC);
    assert_true(r->entities[0].path_speed == 1.0f);
    assert_true(vec_near(ledge_ldtk_path_position(r, &r->entities[0], 1.5), 2.5f, 1.75f));
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
}

// ---------------------------------------------------------------------------
// Levels and worlds

/// A level of w x h cells, all FULL, with one entity "Mark" at its top-left.
static const char *full_level(const char *id, int x, int y, int w, int h) {
    int cells[64];
    for (int i = 0; i < w * h; ++i) cells[i] = 1;
    const char *layers[] = {entity_layer("Things", 16, w, h, 0, 0,
                                         entity("Mark", S("mark-%s", id), 0, 0, 4, 4, 0, 0, NULL)),
                            intgrid_layer("Ground", 1, 16, w, h, csv(cells, w * h), NULL)};
    return level(id, x, y, w * 16, h * 16, join(2, layers), NULL);
}

static const char *three_levels(const char *layout, bool linear) {
    const char *levels[] = {full_level("A", linear ? -1 : 0, linear ? -1 : 0, 4, 2),
                            full_level("B", linear ? -1 : 64, linear ? -1 : -32, 2, 2),
                            full_level("C", linear ? -1 : -32, linear ? -1 : 32, 2, 1)};
    const char *p =
        project(intgrid_def(1, "Ground", value_def(1, "full")), NULL, join(3, levels), NULL);
    const char *at = strstr(p, "\"Free\"");
    return S("%.*s\"%s\"%s", (int)(at - p), p, layout, at + 6);
}

/// Every level at its place on the world map (Free and GridVania), or side
/// by side (linear layouts); one level by identifier, iid or index.
static void test_levels_placed_on_the_world_map(void **state) {
    (void)state;
    for (int k = 0; k < 2; ++k) {
        const char *p = three_levels(k ? "GridVania" : "Free", false);
        ledge_ldtk_def def = ledge_default_ldtk_def();
        def.all_levels = true;
        ledge_ldtk_result *r = NULL;
        ledge_world *w = ledge_ldtk_create_world(p, strlen(p), &def, &r);
        assert_non_null(w);
        // Bounds: x -32..96, y -32..48 pixels: 8 x 5 cells.
        assert_int_equal(r->width, 8);
        assert_int_equal(r->height, 5);
        assert_int_equal(r->tile_counts[LEDGE_TILE_FULL], 14);
        assert_int_equal(r->level_count, 3);
        const ledge_ldtk_level *a = ledge_ldtk_find_level(r, "A");
        assert_int_equal(a->cell_x, 2);
        assert_int_equal(a->cell_y, 1);
        assert_int_equal(a->world_x, 0);
        assert_true(vec_near(a->bounds.lower, 2, 1) && vec_near(a->bounds.upper, 6, 3));
        const ledge_ldtk_level *b = ledge_ldtk_find_level(r, "B");
        assert_true(b->cell_x == 6 && b->cell_y == 3 && b->world_y == -32);
        const ledge_ldtk_level *c = ledge_ldtk_find_level(r, "C");
        assert_true(c->cell_x == 0 && c->cell_y == 0);
        ledge_tilemap *m = ledge_world_tilemap(w);
        assert_int_equal(ledge_tilemap_get(m, 2, 1), LEDGE_TILE_FULL);
        assert_int_equal(ledge_tilemap_get(m, 1, 1), LEDGE_TILE_EMPTY);
        assert_int_equal(ledge_tilemap_get(m, 7, 4), LEDGE_TILE_FULL);
        assert_int_equal(ledge_tilemap_get(m, 1, 0), LEDGE_TILE_FULL);
        const ledge_ldtk_entity *mark = ledge_ldtk_find_entity(r, "mark-B");
        assert_true(vec_near(mark->position, 6, 5));
        assert_int_equal(mark->level, 1);
        ledge_ldtk_result_destroy(r);
        ledge_world_destroy(w);

        def.all_levels = false; // one level: the map is that level
        def.level = "B";
        r = NULL;
        w = ledge_ldtk_create_world(p, strlen(p), &def, &r);
        assert_int_equal(r->width, 2);
        assert_int_equal(r->height, 2);
        assert_true(vec_near(ledge_ldtk_find_entity(r, "mark-B")->position, 0, 2));
        assert_int_equal(r->levels[0].index, 1);
        ledge_ldtk_result_destroy(r);
        ledge_world_destroy(w);
        def.level = "iid-C";
        ledge_tilemap *map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
        assert_int_equal(ledge_tilemap_get_def(map).width, 2);
        assert_int_equal(ledge_tilemap_get_def(map).height, 1);
        ledge_tilemap_destroy(map);
        def.level = NULL;
        def.level_index = 1;
        map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
        assert_int_equal(ledge_tilemap_get_def(map).height, 2);
        ledge_tilemap_destroy(map);
    }
    const char *const layouts[] = {"LinearHorizontal", "LinearVertical"};
    for (int k = 0; k < 2; ++k) {
        const char *p = three_levels(layouts[k], true);
        ledge_ldtk_def def = ledge_default_ldtk_def();
        def.all_levels = true;
        def.y_down = true;
        ledge_ldtk_result *r = NULL;
        ledge_world *w = ledge_ldtk_create_world(p, strlen(p), &def, &r);
        assert_non_null(w);
        assert_int_equal(r->width, k ? 4 : 8);
        assert_int_equal(r->height, k ? 5 : 2);
        const ledge_ldtk_level *c = ledge_ldtk_find_level(r, "C");
        assert_int_equal(k ? c->cell_y : c->cell_x, k ? 4 : 6);
        assert_int_equal(r->tile_counts[LEDGE_TILE_FULL], 14);
        ledge_ldtk_result_destroy(r);
        ledge_world_destroy(w);
    }
    // A linear layout takes whole cells: a level 24 pixels high takes two
    // 16-pixel rows, and the next one starts on the grid.
    const char *odd[] = {
        level("D", -1, -1, 32, 24, intgrid_layer("Ground", 1, 16, 2, 2, "1,0,0,1", NULL), NULL),
        full_level("E", -1, -1, 2, 1)};
    const char *p = project(intgrid_def(1, "Ground", value_def(1, "full")), NULL, join(2, odd),
                            ",\"worldLayout\":\"LinearVertical\"");
    p = S("%.*s%s", (int)(strstr(p, "\"worldLayout\":\"Free\",") - p), p,
          strstr(p, "\"worldLayout\":\"Free\",") + 21);
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.all_levels = true;
    def.y_down = true;
    ledge_ldtk_result *r = NULL;
    ledge_world *w = ledge_ldtk_create_world(p, strlen(p), &def, &r);
    assert_non_null(w);
    assert_int_equal(r->height, 3);
    assert_int_equal(ledge_ldtk_find_level(r, "E")->cell_y, 2);
    assert_int_equal(ledge_tilemap_get(ledge_world_tilemap(w), 1, 1), LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_get(ledge_world_tilemap(w), 0, 2), LEDGE_TILE_FULL);
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
}

static void test_multi_worlds(void **state) {
    (void)state;
    const char *worlds =
        S(",\"worlds\":[{\"identifier\":\"W1\",\"iid\":\"w1\",\"worldLayout\":\"Free\","
          "\"levels\":[%s]},{\"identifier\":\"W2\",\"iid\":\"w2\",\"worldLayout\":\"Free\","
          "\"levels\":[%s,%s]}]",
          full_level("A", 0, 0, 4, 2), full_level("B", 0, 0, 2, 2), full_level("C", 32, 0, 2, 1));
    const char *p = project(intgrid_def(1, "Ground", value_def(1, "full")), NULL, "", worlds);
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.ldtk_world = "w2";
    def.all_levels = true;
    ledge_tilemap *map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
    assert_non_null(map);
    assert_int_equal(ledge_tilemap_get_def(map).width, 4);
    ledge_tilemap_destroy(map);
    def.ldtk_world = "W1";
    def.all_levels = false;
    map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
    assert_int_equal(ledge_tilemap_get_def(map).width, 4);
    assert_int_equal(ledge_tilemap_get_def(map).height, 2);
    ledge_tilemap_destroy(map);
}

// Separate level files: the project names "rooms/A.ldtkl".
static const char *g_level_text;

static const char *resolve_level(const char *path, size_t *len, void *user) {
    (void)user;
    if (strcmp(path, "rooms/A.ldtkl") != 0) return NULL;
    *len = strlen(g_level_text);
    return g_level_text;
}

static const char *external_project(void) {
    return project(intgrid_def(1, "Ground", value_def(1, "full")), NULL,
                   "{\"identifier\":\"A\",\"iid\":\"a\",\"worldX\":0,\"worldY\":0,\"pxWid\":64,"
                   "\"pxHei\":32,\"layerInstances\":null,\"externalRelPath\":\"rooms/A.ldtkl\"}",
                   NULL);
}

static void test_separate_level_files(void **state) {
    (void)state;
    g_level_text = full_level("A", 0, 0, 4, 2);
    const char *p = external_project();
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.resolve = resolve_level;
    ledge_ldtk_result *r = NULL;
    ledge_world *w = ledge_ldtk_create_world(p, strlen(p), &def, &r);
    assert_non_null(w);
    assert_int_equal(r->tile_counts[LEDGE_TILE_FULL], 8);
    assert_non_null(ledge_ldtk_find_entity(r, "mark-A"));
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);

    // From files: the level next to the project.
    char dir[] = "/tmp/ledge_ldtk_XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *sub = S("%s/rooms", dir), *proj = S("%s/p.ldtk", dir), *lvl = S("%s/A.ldtkl", sub);
    assert_int_equal(mkdir(sub, 0700), 0);
    FILE *f = fopen(proj, "w");
    fputs(p, f);
    fclose(f);
    f = fopen(lvl, "w");
    fputs(g_level_text, f);
    fclose(f);
    w = ledge_ldtk_create_world_file(proj, NULL, &r);
    assert_non_null(w);
    assert_int_equal(r->tile_counts[LEDGE_TILE_FULL], 8);
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
    ledge_tilemap *map = ledge_ldtk_create_tilemap_file(proj, NULL);
    assert_int_equal(ledge_tilemap_get(map, 3, 1), LEDGE_TILE_FULL);
    ledge_tilemap_destroy(map);
    remove(lvl);
    log_capture_start();
    assert_null(ledge_ldtk_create_world_file(proj, NULL, &r));
    assert_null(r);
    assert_true(log_capture_says("level 'A': its file \"rooms/A.ldtkl\"", "cannot open"));
    ledge_set_log_hook(NULL, NULL);
    remove(proj);
    rmdir(sub);
    rmdir(dir);
}

// ---------------------------------------------------------------------------
// Refusals

/// `p` must be refused by ledge_ldtk_load_tilemap into a 3 x 2 map holding
/// a sentinel, with a message holding w1 and w2; the map untouched.
static void refuse_tilemap(const char *p, const char *w1, const char *w2,
                           const ledge_ldtk_def *def) {
    ledge_tilemap *map = map_of(3, 2);
    ledge_tilemap_set(map, 1, 1, LEDGE_TILE_HALF_L);
    ledge_tilemap_set_one_way(map, 1, 1, LEDGE_ONE_WAY_LEFT);
    ledge_material own = ledge_default_material();
    own.bounce = 0.5f;
    ledge_tilemap_set_cell_material(map, 1, 1, &own);
    log_capture_start();
    bool ok = ledge_ldtk_load_tilemap(map, p, strlen(p), def);
    if (ok || !log_capture_says(w1, w2) ||
        strncmp(g_log.last, "ledge_ldtk_load_tilemap: ", 25) != 0 || g_log.count != 1) {
        fail_msg("expected one refusal naming '%s' '%s', got %s (%d messages): '%s'", w1,
                 w2 ? w2 : "", ok ? "success" : "failure", g_log.count, g_log.last);
    }
    assert_int_equal(ledge_tilemap_get(map, 1, 1), LEDGE_TILE_HALF_L);
    assert_int_equal(ledge_tilemap_one_way(map, 1, 1), LEDGE_ONE_WAY_LEFT);
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_EMPTY);
    assert_true(ledge_tilemap_cell_material(map, 1, 1).bounce == 0.5f);
    assert_false(ledge_tilemap_cell_has_material(map, 0, 0));
    ledge_set_log_hook(NULL, NULL);
    ledge_tilemap_destroy(map);
}

/// `p` must be refused by ledge_ldtk_create_world and, into a 3 x 2 world
/// holding a body, by ledge_ldtk_load_world, with w1 and w2; the world
/// keeps its one body and its tiles.
static void refuse_world(const char *p, const char *w1, const char *w2, const ledge_ldtk_def *def) {
    ledge_ldtk_result *r = (ledge_ldtk_result *)&g_log; // must be reset to NULL
    log_capture_start();
    ledge_world *w = ledge_ldtk_create_world(p, strlen(p), def, &r);
    if (w || !log_capture_says(w1, w2) ||
        strncmp(g_log.last, "ledge_ldtk_create_world: ", 25) != 0 || g_log.count != 1) {
        fail_msg("expected one refusal naming '%s' '%s', got %d messages: '%s'", w1, w2 ? w2 : "",
                 g_log.count, g_log.last);
    }
    assert_null(r);
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 3;
    wd.map_height = 2;
    w = ledge_world_create(&wd);
    ledge_tilemap_set(ledge_world_tilemap(w), 2, 1, LEDGE_TILE_FULL);
    ledge_material own = ledge_default_material();
    own.surface_speed = 3;
    ledge_tilemap_set_cell_material(ledge_world_tilemap(w), 2, 1, &own);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.25f);
    bd.position = (vec2s){{0.5f, 0.5f}};
    ledge_body_create(w, &bd);
    r = (ledge_ldtk_result *)&g_log;
    log_capture_start();
    assert_false(ledge_ldtk_load_world(w, p, strlen(p), def, &r));
    assert_null(r);
    if (!log_capture_says(w1, w2) || strncmp(g_log.last, "ledge_ldtk_load_world: ", 23) != 0) {
        fail_msg("load_world: expected a refusal naming '%s' '%s', got '%s'", w1, w2 ? w2 : "",
                 g_log.last);
    }
    assert_int_equal(ledge_world_body_count(w), 1);
    assert_int_equal(ledge_tilemap_get(ledge_world_tilemap(w), 2, 1), LEDGE_TILE_FULL);
    assert_true(ledge_tilemap_cell_material(ledge_world_tilemap(w), 2, 1).surface_speed == 3);
    assert_false(ledge_tilemap_cell_has_material(ledge_world_tilemap(w), 0, 0));
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(w);
}

/// `p` must be refused by ledge_ldtk_create_world (and, when the problem
/// is no entity's, by ledge_ldtk_create_tilemap: both read def->world) with
/// w1.
static void refuse_create(const char *p, const char *w1, const ledge_ldtk_def *def) {
    ledge_ldtk_result *r = (ledge_ldtk_result *)&g_log;
    log_capture_start();
    assert_null(ledge_ldtk_create_world(p, strlen(p), def, &r));
    assert_null(r);
    if (!log_capture_says("ledge_ldtk_create_world: ", w1)) fail_msg("got '%s'", g_log.last);
    if (strstr(w1, "entity") == NULL) {
        assert_null(ledge_ldtk_create_tilemap(p, strlen(p), def));
        if (!log_capture_says("ledge_ldtk_create_tilemap: ", w1)) fail_msg("got '%s'", g_log.last);
    }
    ledge_set_log_hook(NULL, NULL);
}

/// A 3 x 2 level with one IntGrid layer of `values` holding `cells`.
static const char *grid_project(const char *values, const char *cells, const char *extra) {
    const char *layer = intgrid_layer("Collisions", 1, 16, 3, 2, cells, extra);
    return project(intgrid_def(1, "Collisions", values), NULL,
                   level("L", 0, 0, 48, 32, layer, NULL), NULL);
}

static const char *plain_project(void) {
    return grid_project(value_def(1, "full"), "1,0,0,0,0,1", NULL);
}

/// A 3 x 2 level with a floor and one entity layer holding `entities`.
static const char *entity_project(const char *entities) {
    const char *layers[] = {entity_layer("Things", 16, 3, 2, 0, 0, entities),
                            intgrid_layer("Collisions", 1, 16, 3, 2, "0,0,0,1,1,1", NULL)};
    return project(intgrid_def(1, "Collisions", value_def(1, "full")), NULL,
                   level("L", 0, 0, 48, 32, join(2, layers), NULL), NULL);
}

/// A 3 x 2 level with a Tiles layer of `grid`-pixel cells using `ts`.
static const char *tile_project(const char *ts, const char *tiles, int grid) {
    const char *layer = tiles_layer("Tiles", "Art", grid, 48 / grid, 32 / grid, 10, tiles, NULL);
    return project(NULL, ts, level("L", 0, 0, 48, 32, layer, NULL), NULL);
}

static void test_refuses_bad_json_and_headers(void **state) {
    (void)state;
    refuse_tilemap("{\"jsonVersion\":\n \"1.5\",,}", "not valid JSON at line 2, column", NULL,
                   NULL);
    refuse_tilemap("{\"a\":1,\"a\":2}", "the project is not valid JSON", "duplicate", NULL);
    refuse_tilemap("[1, 2]", "the project is not a JSON object", NULL, NULL);
    refuse_tilemap("{\"jsonVersion\":\"0.9.3\"}", "jsonVersion is \"0.9.3\"", "LDtk 1.5", NULL);
    refuse_tilemap("{\"jsonVersion\":\"1.5.3\"}", "the project has no \"defs\"", NULL, NULL);
    refuse_tilemap("{\"defaultGridSize\":0}", "\"defaultGridSize\" is the integer 0", NULL, NULL);
    refuse_tilemap("{\"defs\":{\"layers\":{},\"tilesets\":[]}}", "\"layers\" is an object",
                   "must be an array", NULL);
    refuse_tilemap("{\"defs\":{\"layers\":[],\"tilesets\":[]}}", "the project has no \"levels\"",
                   NULL, NULL);
    refuse_tilemap(project(NULL, NULL, "3", NULL), "level 0 is not an object", NULL, NULL);
    refuse_tilemap(project(NULL, NULL, level("L", 0, 0, 0, 32, "", NULL), NULL),
                   "level 'L': \"pxWid\" is the integer 0", NULL, NULL);
    refuse_tilemap(project(intgrid_def(1, "G", S("%s,%s", value_def(1, "a"), value_def(1, "b"))),
                           NULL, level("L", 0, 0, 48, 32, "", NULL), NULL),
                   "layer definition 'G': value 1 is defined twice", NULL, NULL);
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.world.tile_size = 0;
    refuse_create(plain_project(), "tile_size is 0 (must be 0.0001..1e+06)", &def);
    def.world.tile_size = 1;
    def.world.map_origin = (vec2s){{NAN, 0}};
    refuse_create(plain_project(), "map origin is (nan, 0)", &def);
    def = ledge_default_ldtk_def();
    def.level_index = -1;
    refuse_tilemap(plain_project(), "level_index is -1", NULL, &def);
}

static void test_refuses_bad_levels(void **state) {
    (void)state;
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.level = "Cave";
    refuse_tilemap(plain_project(), "the project has no level 'Cave' (its levels: 'L')", NULL,
                   &def);
    def = ledge_default_ldtk_def();
    def.level_index = 3;
    refuse_tilemap(plain_project(), "level_index is 3 (the project has 1 levels)", NULL, &def);
    def = ledge_default_ldtk_def();
    def.all_levels = true;
    refuse_tilemap(project(NULL, NULL, "", NULL), "the project has no level", NULL, &def);
    // Worlds.
    const char *w2 = S(",\"worlds\":[{\"identifier\":\"W1\",\"levels\":[]},{\"identifier\":"
                       "\"W2\",\"levels\":[]}]");
    refuse_tilemap(project(NULL, NULL, "", w2), "the project has 2 worlds", "def->ldtk_world",
                   NULL);
    def = ledge_default_ldtk_def();
    def.ldtk_world = "Q";
    refuse_tilemap(project(NULL, NULL, "", w2), "the project has no world 'Q'", NULL, &def);
    // Separate level files.
    g_level_text = "{\"identifier\":";
    refuse_tilemap(external_project(), "level 'A': its file \"rooms/A.ldtkl\": a separate level",
                   "needs def->resolve", NULL);
    def = ledge_default_ldtk_def();
    def.resolve = resolve_level;
    refuse_tilemap(external_project(), "its file \"rooms/A.ldtkl\" is not valid JSON", NULL, &def);
    const char *p = external_project();
    char *q = strstr((char *)p, "rooms/A");
    q[0] = 'R'; // "Rooms/A.ldtkl": the resolver knows no such file
    refuse_tilemap(p, "its file \"Rooms/A.ldtkl\" was not found by the resolver", NULL, &def);
    // Levels off the grid, overlapping, too far apart.
    def = ledge_default_ldtk_def();
    def.all_levels = true;
    const char *two = S("%s,%s", full_level("A", 0, 0, 3, 2), full_level("B", 56, 0, 2, 2));
    refuse_world(project(intgrid_def(1, "Ground", value_def(1, "full")), NULL, two, NULL),
                 "level 'B' lies at (56, 0) pixels on the world map, off the 16-pixel grid", NULL,
                 &def);
    const char *values = S("%s,%s", value_def(1, "full"), value_def(2, "half_top"));
    const char *overlap =
        S("%s,%s", full_level("A", 0, 0, 3, 2),
          level("B", 32, 16, 16, 16, intgrid_layer("Ground", 1, 16, 1, 1, "2", NULL), NULL));
    refuse_world(project(intgrid_def(1, "Ground", values), NULL, overlap, NULL),
                 "level 'B', layer 'Ground': cell (0, 0) is HALF_D",
                 "another layer (or level) put FULL there", &def);
    const char *far = S("%s,%s", full_level("A", 0, 0, 3, 2), full_level("B", 16 << 17, 0, 2, 2));
    refuse_world(project(intgrid_def(1, "Ground", value_def(1, "full")), NULL, far, NULL),
                 "the map is 131074 x 2 cells of 16 pixels", "at most 65536 a side", &def);
    def.tile_layer = "Nope";
    def.all_levels = false;
    refuse_tilemap(plain_project(), "no loaded level has a layer named 'Nope'", NULL, &def);
    ledge_tilemap *map = map_of(4, 2); // a tilemap of another size
    log_capture_start();
    assert_false(ledge_ldtk_load_tilemap(map, plain_project(), strlen(plain_project()), NULL));
    assert_true(log_capture_says("the level is 3 x 2 cells but the tilemap is 4 x 2", NULL));
    ledge_set_log_hook(NULL, NULL);
    ledge_tilemap_destroy(map);
}

static void test_refuses_bad_layers(void **state) {
    (void)state;
    const char *vals =
        S("%s,%s,%s", value_def(1, "full"), value_def(2, "ladder"), value_def(3, "slope45"));
    refuse_tilemap(grid_project(vals, "1,0,0,0,0", NULL),
                   "level 'L', layer 'Collisions': \"intGridCsv\" has 5 values",
                   "__cWid x __cHei = 3 x 2 = 6", NULL);
    refuse_tilemap(grid_project(vals, "1,\"x\",0,0,0,0", NULL),
                   "layer 'Collisions': cell (1, 0) is a string", "IntGrid value", NULL);
    refuse_tilemap(grid_project(vals, "1,0,9,0,0,0", NULL),
                   "cell (2, 0) holds value 9, which the layer's definition does not list", NULL,
                   NULL);
    refuse_tilemap(grid_project(vals, "1,0,0,0,2,0", NULL),
                   "cell (1, 1) holds value 2 'ladder', which is no tile name",
                   "def->intgrid does not map", NULL);
    refuse_tilemap(grid_project(vals, "1,0,0,0,0,3", NULL), "value 3 'slope45'",
                   "say which way it faces: _up_right", NULL);
    refuse_tilemap(grid_project(value_def(1, NULL), "1,0,0,0,0,0", NULL),
                   "cell (0, 0) holds value 1, which has no identifier", "e.g. full", NULL);
    refuse_tilemap(grid_project(vals, "1,0,0,0,0,0", ",\"__pxTotalOffsetX\":8"),
                   "layer 'Collisions' is offset by (8, 0) pixels", NULL, NULL);
    // A layer whose cells hold nothing solid may be offset, or of any grid.
    const char *quiet[] = {intgrid_layer("Regions", 2, 8, 6, 4,
                                         "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1",
                                         ",\"__pxTotalOffsetY\":4"),
                           intgrid_layer("Collisions", 1, 16, 3, 2, "1,0,0,0,0,0", NULL)};
    const char *p = project(S("%s,%s", intgrid_def(1, "Collisions", vals),
                              intgrid_def(2, "Regions", value_def(1, "water"))),
                            NULL, level("L", 0, 0, 48, 32, join(2, quiet), NULL), NULL);
    ledge_ldtk_intgrid_tile water = {"Regions", "*", 0, LEDGE_TILE_EMPTY, 0};
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.intgrid = &water;
    def.intgrid_count = 1;
    ledge_tilemap *map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
    assert_non_null(map);
    assert_int_equal(ledge_tilemap_get_def(map).width, 3);
    ledge_tilemap_destroy(map);
    const char *layers[] = {
        intgrid_layer("Collisions", 1, 16, 3, 2, "1,0,0,0,0,0", NULL),
        intgrid_layer("Fine", 1, 8, 6, 4, "1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", NULL)};
    refuse_tilemap(project(intgrid_def(1, "Collisions", vals), NULL,
                           level("L", 0, 0, 48, 32, join(2, layers), NULL), NULL),
                   "layer 'Fine' has cells of 8 pixels, but the map's are 16", NULL, NULL);
    refuse_tilemap(
        project(intgrid_def(1, "Collisions", vals), NULL,
                level("L", 0, 0, 64, 32,
                      intgrid_layer("Collisions", 1, 16, 3, 2, "1,0,0,0,0,0", NULL), NULL),
                NULL),
        "layer 'Collisions' is 3 x 2 cells, but its level (64 x 32 pixels) is 4 x 2", NULL, NULL);
    refuse_tilemap(project(intgrid_def(1, "Collisions", vals), NULL,
                           level("L", 0, 0, 48, 32,
                                 intgrid_layer("Collisions", 1, 16, 65536, 65536, "", NULL), NULL),
                           NULL),
                   "layer 'Collisions' is 65536 x 65536 cells (at most 16777216)", NULL, NULL);
    refuse_tilemap(
        project(intgrid_def(1, "Collisions", vals), NULL,
                level("L", 0, 0, 48, 32,
                      intgrid_layer("Collisions", 7, 16, 3, 2, "1,0,0,0,0,0", NULL), NULL),
                NULL),
        "its definition (uid 7) is no IntGrid layer", NULL, NULL);
    const char *two[] = {intgrid_layer("A", 1, 16, 3, 2, "1,0,0,0,0,0", NULL),
                         intgrid_layer("B", 2, 16, 3, 2, "1,0,0,0,0,0", NULL)};
    const char *defs = S("%s,%s", intgrid_def(1, "A", value_def(1, "full")),
                         intgrid_def(2, "B", value_def(1, "slope45_ul")));
    refuse_tilemap(project(defs, NULL, level("L", 0, 0, 48, 32, join(2, two), NULL), NULL),
                   "layer 'B': cell (0, 0) is 45DEG_NP", "another layer (or level) put FULL", NULL);
    const char *odd = S("{\"__identifier\":\"P\",\"__type\":\"Parallax\",\"__gridSize\":16,"
                        "\"__cWid\":3,\"__cHei\":2}");
    refuse_tilemap(project(NULL, NULL, level("L", 0, 0, 48, 32, odd, NULL), NULL),
                   "level 'L', layer 'P': __type \"Parallax\" is unknown", NULL, NULL);
}

static void test_refuses_bad_tiles(void **state) {
    (void)state;
    const char *ts = shapes_tileset();
    refuse_tilemap(tile_project(ts, tile(1, 5, 0, 0), 16),
                   "layer 'Art', gridTiles[0]: tile 1 at (5, 0) pixels is off the layer's 3 x 2",
                   NULL, NULL);
    refuse_tilemap(tile_project(ts, tile(1, 48, 0, 0), 16), "tile 1 at (48, 0) pixels is off", NULL,
                   NULL);
    refuse_tilemap(tile_project(ts, tile(1, 0, 0, 5), 16), "gridTiles[0]: \"f\" is the integer 5",
                   NULL, NULL);
    refuse_tilemap(tile_project(ts, S("%s,%s", tile(1, 0, 0, 0), tile(3, 0, 0, 0)), 16),
                   "cell (0, 0) holds two tiles, FULL and 45DEG_PN", NULL, NULL);
    refuse_tilemap(tile_project(ts, tile(1, 0, 0, 0), 8),
                   "tile 1 of tileset 'shapes' has a shape, but the tileset's tiles are 16 pixels "
                   "and the layer's cells 8",
                   NULL, NULL);
    const char *p = tile_project(ts, tile(1, 0, 0, 0), 16);
    char *u = strstr((char *)p, "\"__tilesetDefUid\":10");
    u[18] = '5';
    refuse_tilemap(p, "its tileset (uid 50) is not in the project's defs", NULL, NULL);
    const char *const custom[][3] = {
        {"ledge_tile=slope", "tileset 'bad', tile 2: custom data ledge_tile \"slope\"",
         "not a tile name"},
        {"ledge_tile=34", "custom data ledge_tile \"34\"", NULL},
        {"one_way=sideways", "custom data one_way \"sideways\" must be up", NULL},
        {"friction=2", "custom data friction \"2\" must be a number 0..1", NULL},
        {"bounce=x", "custom data bounce \"x\"", NULL},
        {"{\\\"ledge_tile\\\":", "custom data starts with '{' but is not a JSON object", NULL},
        {"{\\\"ledge_tile\\\":\\\"nope\\\"}", "custom data ledge_tile \"nope\"", NULL},
    };
    for (size_t k = 0; k < sizeof custom / sizeof custom[0]; ++k) {
        const char *bad =
            tileset_def(10, "bad", NULL, S("{\"tileId\":2,\"data\":\"%s\"}", custom[k][0]));
        refuse_tilemap(tile_project(bad, tile(1, 0, 0, 0), 16), custom[k][1], custom[k][2], NULL);
    }
    const char *both = tileset_def(10, "both", "{\"enumValueId\":\"FULL\",\"tileIds\":[1]}",
                                   "{\"tileId\":1,\"data\":\"half_top\"}");
    refuse_tilemap(tile_project(both, tile(1, 0, 0, 0), 16),
                   "tileset 'both': tile 1 is tagged both FULL and HALF_U", NULL, NULL);
    const char *ids = tileset_def(10, "ids", "{\"enumValueId\":\"FULL\",\"tileIds\":[-1]}", NULL);
    refuse_tilemap(tile_project(ids, tile(1, 0, 0, 0), 16), "enumTags[0]: tileIds[0] must be", NULL,
                   NULL);
}

static void test_refuses_bad_entities(void **state) {
    (void)state;
    const char *const cases[][3] = {
        {entity("Box", "b", 0, 0, 16, 16, 0, 0, field("body", "String", "\"ghost\"")),
         "level 'L', layer 'Things', entity 0 'Box': field 'body' is \"ghost\"",
         "static, kinematic, dynamic, sensor or none"},
        {entity("Box", "b", 0, 0, 16, 16, 0, 0, field("body", "Int", "3")),
         "field 'body' is Int (must be String or an Enum)", NULL},
        {entity("Box", "b", 0, 0, 16, 16, 0, 0, field("one_way", "String", "\"yes\"")),
         "field 'one_way' is String (must be Bool)", NULL},
        {entity("Box", "b", 0, 0, 16, 16, 0, 0, field("friction", "Float", "1.5")),
         "field 'friction' is 1.5 (must be 0..1)", NULL},
        {entity("Box", "b", 0, 0, 16, 16, 0, 0, field("shape", "String", "\"star\"")),
         "field 'shape' is \"star\" (must be box or circle)", NULL},
        {entity("Ball", "b", 0, 0, 16, 8, 0, 0,
                join(2, (const char *const[]){field("body", "String", "\"dynamic\""),
                                              field("shape", "String", "\"circle\"")})),
         "entity 0 'Ball': a circle must be as wide as high, and it is 16 x 8 pixels", NULL},
        {entity("Lift", "b", 0, 0, 16, 16, 0, 0,
                join(2, (const char *const[]){field("body", "String", "\"dynamic\""),
                                              field("path", "Array<Point>",
                                                    "[{\"cx\":2,\"cy\":0}]")})),
         "a dynamic body cannot follow a path", NULL},
        {entity("Plank", "b", 0, 0, 16, 16, 0, 0,
                join(2, (const char *const[]){field("body", "String", "\"dynamic\""),
                                              field("one_way", "Bool", "true")})),
         "a one-way platform must be static or kinematic", NULL},
        {entity("Flat", "b", 0, 0, 0, 16, 0, 0, field("sensor", "Bool", "true")),
         "a body needs a size, and it is 0 x 16 pixels", NULL},
        {entity("Lift", "b", 0, 0, 16, 16, 0, 0, field("path", "Array<Int>", "[1]")),
         "field 'path' is Array<Int> (must be Array<Point>)", NULL},
        {entity("Npc", "b", 0, 0, 16, 16, 0, 0, field("hp", "Int", "\"ten\"")),
         "entity 0 'Npc': field 'hp' of type Int has the value a string", NULL},
        {entity("Npc", "b", 0, 0, 16, 16, 0, 0, field("hp", "Float", "true")),
         "field 'hp' of type Float has the value true", NULL},
        {entity("Npc", "b", 0, 0, 16, 16, 0, 0, field("hp", "Array<Int>", "3")),
         "field 'hp' of type Array<Int> has the value the integer 3", NULL},
        {entity("Npc", "b", 0, 0, 16, 16, 0, 0, field("tint", "Color", "\"red\"")),
         "field 'tint': color \"red\" must be #rrggbb", NULL},
        {entity("Npc", "b", 0, 0, 16, 16, 0, 0, field("at", "Point", "{\"cx\":1}")),
         "field 'at' has no \"cy\"", NULL},
        {entity("Npc", "b", 0, 0, 16, 16, 0, 0, field("to", "EntityRef", "{}")),
         "field 'to' has no \"entityIid\"", NULL},
        {entity("Npc", "b", 0, 0, 16, 16, 0, 0, field("icon", "Tile", "{\"tilesetUid\":1}")),
         "field 'icon' has no \"x\"", NULL},
        {entity("Npc", "b", 0, 0, 16, 16, 0, 0, field("material", "Int", "1")),
         "field 'material' is Int (must be String or an Enum)", NULL},
        {"{\"__identifier\":\"Npc\",\"width\":1,\"height\":1}", "entity 0 'Npc' has no \"px\"",
         NULL},
        {"{\"__identifier\":\"Npc\",\"px\":[0,0],\"width\":1,\"height\":1,\"__pivot\":[2,0]}",
         "entity 0 'Npc': \"__pivot\" must be [x, y], two numbers 0..1", NULL},
        {"{\"px\":[0,0]}", "level 'L', layer 'Things', entity 0 has no \"__identifier\"", NULL},
        {"{\"__identifier\":\"Npc\",\"px\":[0,0],\"width\":1,\"height\":1,\"fieldInstances\":"
         "[{\"__type\":\"Int\",\"__value\":1}]}",
         "entity 0 'Npc' has no \"__identifier\"", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        refuse_world(entity_project(cases[k][0]), cases[k][1], cases[k][2], NULL);
    }
    // A path of more than LEDGE_LDTK_MAX_PATH_POINTS - 1 points.
    const char *pts[LEDGE_LDTK_MAX_PATH_POINTS];
    for (int k = 0; k < LEDGE_LDTK_MAX_PATH_POINTS; ++k) pts[k] = "{\"cx\":1,\"cy\":1}";
    refuse_world(entity_project(entity("Lift", "l", 0, 0, 16, 16, 0, 0,
                                       field("path", "Array<Point>",
                                             S("[%s]", join(LEDGE_LDTK_MAX_PATH_POINTS, pts))))),
                 "entity 0 'Lift': its path has more than 1023 points", NULL, NULL);
    // Out of the world's range: a huge tile size.
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.world.tile_size = 1e5f;
    refuse_create(entity_project(entity("Far", "f", 0, 1000000, 16, 16, 0, 0, NULL)),
                  "entity 0 'Far' lies beyond 1e+06 world units", &def);
    // The game's tables.
    ledge_ldtk_intgrid_tile bad_tile = {NULL, "full", 0, 40, 0};
    def = ledge_default_ldtk_def();
    def.intgrid = &bad_tile;
    def.intgrid_count = 1;
    refuse_world(plain_project(), "def->intgrid[0].tile is 40 (must be 0..33)", NULL, &def);
    bad_tile.tile = 1;
    bad_tile.one_way = 9;
    refuse_world(plain_project(), "def->intgrid[0].one_way is 9", NULL, &def);
    def.intgrid = NULL;
    refuse_world(plain_project(), "def->intgrid is NULL with intgrid_count 1", NULL, &def);
    ledge_ldtk_entity_body bad_body = {NULL, LEDGE_LDTK_DYNAMIC, LEDGE_LDTK_BOX, false};
    def = ledge_default_ldtk_def();
    def.entity_bodies = &bad_body;
    def.entity_body_count = 1;
    refuse_world(plain_project(), "def->entity_bodies[0] has a NULL identifier", NULL, &def);
}

/// More entities than LEDGE_LDTK_MAX_ENTITIES.
static void test_refuses_too_many_entities(void **state) {
    (void)state;
    size_t n = LEDGE_LDTK_MAX_ENTITIES + 1;
    const char *one = "{\"__identifier\":\"E\",\"px\":[0,0],\"width\":1,\"height\":1},";
    size_t len = strlen(one);
    char *list = malloc(n * len + 1);
    for (size_t i = 0; i < n; ++i) memcpy(list + i * len, one, len);
    list[n * len - 1] = '\0';
    const char *p = entity_project(list);
    free(list);
    log_capture_start();
    ledge_ldtk_result *r = NULL;
    assert_null(ledge_ldtk_create_world(p, strlen(p), NULL, &r));
    assert_true(log_capture_says("entity 65536 'E': the load has more than 65536 entities", NULL));
    ledge_set_log_hook(NULL, NULL);
}

static void test_refuses_null_arguments(void **state) {
    (void)state;
    log_capture_start();
    assert_false(ledge_ldtk_load_tilemap(NULL, "{}", 2, NULL));
    assert_true(log_capture_says("ledge_ldtk_load_tilemap: map is NULL", NULL));
    assert_null(ledge_ldtk_create_world(NULL, 0, NULL, NULL));
    assert_true(log_capture_says("ledge_ldtk_create_world: json is NULL", NULL));
    assert_null(ledge_ldtk_create_tilemap(NULL, 0, NULL));
    assert_true(log_capture_says("ledge_ldtk_create_tilemap: json is NULL", NULL));
    assert_false(ledge_ldtk_load_world(NULL, "{}", 2, NULL, NULL));
    assert_true(log_capture_says("ledge_ldtk_load_world: world is NULL", NULL));
    assert_null(ledge_ldtk_create_world_file("/nonexistent/level.ldtk", NULL, NULL));
    assert_true(log_capture_says(
        "ledge_ldtk_create_world_file: /nonexistent/level.ldtk: cannot open", NULL));
    assert_null(ledge_ldtk_create_tilemap_file(NULL, NULL));
    assert_true(log_capture_says("path is NULL", NULL));
    ledge_set_log_hook(NULL, NULL);
    ledge_ldtk_result_destroy(NULL);
    assert_null(ledge_ldtk_find_entity(NULL, "x"));
    assert_null(ledge_ldtk_find_level(NULL, "x"));
    assert_null(ledge_ldtk_entity_field(NULL, NULL, "x"));
    assert_null(ledge_ldtk_level_field(NULL, NULL, "x"));
}

// ---------------------------------------------------------------------------
// Surface materials

/// A tileset whose tiles' custom data give materials: 1 icy (friction
/// only), 2 bouncy (bounce only), 3 a belt at 2 units per second (clockwise
/// as drawn), 4 grippy (friction_mix only, any case), 5 a half tile with
/// all four (a JSON object), 6 a plain FULL, 7 a decoration tile with a
/// friction of the game's, 8 a belt written another way (the same
/// material as 3), 9 a belt the other way (-2).
static const char *material_tileset(void) {
    const char *custom = join(
        9, (const char *const[]){
               "{\"tileId\":1,\"data\":\"ledge_tile=full\\nfriction=0.05\"}",
               "{\"tileId\":2,\"data\":\"ledge_tile=full\\nbounce=0.75\"}",
               "{\"tileId\":3,\"data\":\"ledge_tile=full\\nsurface_speed=2\"}",
               "{\"tileId\":4,\"data\":\"ledge_tile=full;friction_mix=MAX\"}",
               "{\"tileId\":5,\"data\":\"{\\\"ledge_tile\\\":\\\"half_bottom\\\",\\\"friction\\\":"
               "0.25,\\\"bounce\\\":0.5,\\\"surface_speed\\\":-1.5,\\\"friction_mix\\\":"
               "\\\"mean\\\"}\"}",
               "{\"tileId\":6,\"data\":\"ledge_tile=full\"}",
               "{\"tileId\":7,\"data\":\"friction=0.5\"}",
               "{\"tileId\":8,\"data\":\"surface_speed = 2.0\\nledge_tile = FULL\"}",
               "{\"tileId\":9,\"data\":\"ledge_tile=full\\nsurface_speed=-2\"}"});
    return tileset_def(10, "m", NULL, custom);
}

/// A 6 x 2 level of the material tileset, as drawn: the top row tile 5,
/// then the belt flipped in x, in y, in both, the decoration tile, nothing;
/// the bottom row tiles 1, 2, 3, 4, 6, nothing.
static const char *material_project(void) {
    const char *tiles =
        join(10, (const char *const[]){tile(5, 0, 0, 0), tile(3, 16, 0, 1), tile(3, 32, 0, 2),
                                       tile(3, 48, 0, 3), tile(7, 64, 0, 0), tile(1, 0, 16, 0),
                                       tile(2, 16, 16, 0), tile(3, 32, 16, 0), tile(4, 48, 16, 0),
                                       tile(6, 64, 16, 0)});
    const char *layer = tiles_layer("Tiles", "Art", 16, 6, 2, 10, tiles, NULL);
    return project(NULL, material_tileset(), level("L", 0, 0, 96, 32, layer, NULL), NULL);
}

static void expect_material(const ledge_tilemap *map, int x, int y, float f, float b, float s,
                            ledge_friction_mix mix) {
    if (!ledge_tilemap_cell_has_material(map, x, y))
        fail_msg("cell (%d, %d) has no material of its own", x, y);
    ledge_material m = ledge_tilemap_cell_material(map, x, y);
    if (!(near(m.friction, f) && near(m.bounce, b) && near(m.surface_speed, s) &&
          m.friction_mix == mix))
        fail_msg("cell (%d, %d): friction %g bounce %g speed %g mix %d, want %g %g %g %d", x, y,
                 (double)m.friction, (double)m.bounce, (double)m.surface_speed, (int)m.friction_mix,
                 (double)f, (double)b, (double)s, (int)mix);
}

/// Every material key alone and together, in both frames: a cell drawn
/// with a tile that has material custom data gets that material of its
/// own (the keys it lacks keep the default material's values); a surface
/// speed turns clockwise as drawn, so a belt flipped once runs the other
/// way, one flipped twice the same way, and in LDtk's y-down frame (a
/// mirror of material.h's tangent) the sign flips. The load leaves exactly
/// the level's cell materials; the tile ids' materials stay the game's.
static void test_tile_materials(void **state) {
    (void)state;
    const char *p = material_project();
    for (int y_down = 0; y_down < 2; ++y_down) {
        ledge_ldtk_def def = ledge_default_ldtk_def();
        def.y_down = y_down;
        ledge_tilemap *map = map_of(6, 2);
        ledge_material old = ledge_default_material();
        old.bounce = 0.5f;
        for (int k = 0; k < 12; ++k) ledge_tilemap_set_cell_material(map, k % 6, k / 6, &old);
        ledge_material game = ledge_default_material();
        game.friction = 0.5f;
        ledge_tilemap_set_tile_material(map, LEDGE_TILE_FULL, &game);
        assert_true(ledge_ldtk_load_tilemap(map, p, strlen(p), &def));
        int top = y_down ? 0 : 1, bottom = 1 - top;
        float sign = y_down ? -1.0f : 1.0f;
        expect_material(map, 0, bottom, 0.05f, 0, 0, LEDGE_FRICTION_MIX_MIN);
        expect_material(map, 1, bottom, 1, 0.75f, 0, LEDGE_FRICTION_MIX_MIN);
        expect_material(map, 2, bottom, 1, 0, 2 * sign, LEDGE_FRICTION_MIX_MIN);
        expect_material(map, 3, bottom, 1, 0, 0, LEDGE_FRICTION_MIX_MAX);
        assert_false(ledge_tilemap_cell_has_material(map, 4, bottom)); // plain: the game's FULL
        assert_true(near(ledge_tilemap_cell_material(map, 4, bottom).friction, 0.5f));
        assert_false(ledge_tilemap_cell_has_material(map, 5, bottom)); // lost the old one
        expect_material(map, 0, top, 0.25f, 0.5f, -1.5f * sign, LEDGE_FRICTION_MIX_MEAN);
        expect_material(map, 1, top, 1, 0, -2 * sign, LEDGE_FRICTION_MIX_MIN); // flipped in x
        expect_material(map, 2, top, 1, 0, -2 * sign, LEDGE_FRICTION_MIX_MIN); // flipped in y
        expect_material(map, 3, top, 1, 0, 2 * sign, LEDGE_FRICTION_MIX_MIN);  // turned
        assert_int_equal(ledge_tilemap_get(map, 4, top), LEDGE_TILE_EMPTY);    // decoration
        assert_false(ledge_tilemap_cell_has_material(map, 4, top));
        assert_false(ledge_tilemap_cell_has_material(map, 5, top));
        assert_true(near(ledge_tilemap_tile_material(map, LEDGE_TILE_FULL).friction, 0.5f));
        ledge_tilemap_destroy(map);

        // The other entry points give the same cells.
        map = ledge_ldtk_create_tilemap(p, strlen(p), &def);
        assert_non_null(map);
        expect_material(map, 1, top, 1, 0, -2 * sign, LEDGE_FRICTION_MIX_MIN);
        assert_false(ledge_tilemap_cell_has_material(map, 4, bottom));
        ledge_tilemap_destroy(map);
        ledge_ldtk_result *r = NULL;
        ledge_world *w = ledge_ldtk_create_world(p, strlen(p), &def, &r);
        assert_non_null(w);
        assert_int_equal(r->material_cells, 8);
        expect_material(ledge_world_tilemap(w), 0, top, 0.25f, 0.5f, -1.5f * sign,
                        LEDGE_FRICTION_MIX_MEAN);
        ledge_ldtk_result_destroy(r);
        ledge_world_destroy(w);
        ledge_world_def wd = ledge_default_world_def();
        wd.map_width = 6;
        wd.map_height = 2;
        w = ledge_world_create(&wd);
        ledge_tilemap_set_cell_material(ledge_world_tilemap(w), 5, 0, &old);
        assert_true(ledge_ldtk_load_world(w, p, strlen(p), &def, NULL));
        expect_material(ledge_world_tilemap(w), 2, bottom, 1, 0, 2 * sign, LEDGE_FRICTION_MIX_MIN);
        assert_false(ledge_tilemap_cell_has_material(ledge_world_tilemap(w), 5, 0));
        ledge_world_destroy(w);
    }
}

/// A 6 x 2 level: the bottom row (as drawn) of belt tiles `belt` flipped
/// by `f`, and a dynamic crate of friction 1 resting on it.
static const char *belt_project(int belt, int f) {
    const char *tiles[6];
    for (int k = 0; k < 6; ++k) tiles[k] = tile(belt, 16 * k, 16, f);
    const char *crate = entity("Crate", "crate", 34, 2, 12, 14, 0, 0,
                               join(2, (const char *const[]){field("body", "String", "\"dynamic\""),
                                                             field("friction", "Float", "1")}));
    const char *layers[] = {entity_layer("Things", 16, 6, 2, 0, 0, crate),
                            tiles_layer("Tiles", "Art", 16, 6, 2, 10, join(6, tiles), NULL)};
    return project(NULL, material_tileset(), level("L", 0, 0, 96, 32, join(2, layers), NULL), NULL);
}

/// Steps `w` half a second; the body's x velocity must be `want` (and it
/// must have moved by about want / 2).
static void expect_carried(ledge_world *w, ledge_body_id id, float want, const char *what) {
    float x0 = ledge_body_position(w, id).x;
    for (int k = 0; k < 30; ++k) ledge_world_step(w, 1.0f / 60.0f);
    vec2s v = ledge_body_velocity(w, id);
    float moved = ledge_body_position(w, id).x - x0;
    if (!(fabsf(v.x - want) < 1e-3f && fabsf(v.y) < 1e-2f && fabsf(moved - want / 2) < 0.1f))
        fail_msg("%s: velocity (%g, %g) after moving %g, want (%g, 0) and %g", what, (double)v.x,
                 (double)v.y, (double)moved, (double)want, (double)want / 2);
}

/// A crate on a belt of speed s is carried at s (friction 1 removes the
/// whole relative tangential speed each substep, so it reaches s at once):
/// to the right on screen for a belt drawn so, in both frames (the y-down
/// world's gravity points to +y); flipped once, the other way.
static void test_belt_carries_a_crate(void **state) {
    (void)state;
    for (int y_down = 0; y_down < 2; ++y_down) {
        for (int f = 0; f < 4; ++f) {
            for (int belt = 3; belt <= 9; belt += 6) {
                const char *p = belt_project(belt, f);
                ledge_ldtk_def def = ledge_default_ldtk_def();
                def.y_down = y_down;
                def.world.gravity = (vec2s){{0, y_down ? 10.0f : -10.0f}};
                ledge_ldtk_result *r = NULL;
                ledge_world *w = ledge_ldtk_create_world(p, strlen(p), &def, &r);
                assert_non_null(w);
                assert_int_equal(r->material_cells, 6);
                ledge_body_id crate = r->bodies[ledge_ldtk_find_entity(r, "Crate")->first_body];
                float want = (belt == 3 ? 2.0f : -2.0f) * (((f & 1) ^ (f >> 1)) ? -1.0f : 1.0f);
                expect_carried(w, crate, want,
                               S("belt %d, flips %d, %s", belt, f, y_down ? "y down" : "y up"));
                ledge_ldtk_result_destroy(r);
                ledge_world_destroy(w);
            }
        }
    }
}

/// An entity's surface_speed (Float or Int) and friction_mix (String or
/// Enum, any case) are its body's, the speed clockwise as drawn (negated
/// in LDtk's y-down frame); `material` is the game's name, handed back
/// only. A crate on a static belt entity is carried at its speed.
static void test_entity_materials(void **state) {
    (void)state;
    const char *ents[] = {
        entity("Pad", "pad", 0, 0, 16, 16, 0, 0,
               join(5, (const char *const[]){field("body", "String", "\"static\""),
                                             field("surface_speed", "Float", "1.5"),
                                             field("friction_mix", "String", "\"min\""),
                                             field("friction", "Float", "0.5"),
                                             field("material", "String", "\"rubber\"")})),
        entity("Grip", "grip", 16, 0, 16, 16, 0, 0,
               join(3, (const char *const[]){field("body", "String", "\"dynamic\""),
                                             field("Friction_Mix", "LocalEnum.Mix", "\"Max\""),
                                             field("surface_speed", "Int", "-2")})),
        entity("Plain", "plain", 32, 0, 16, 16, 0, 0, field("body", "String", "\"dynamic\""))};
    const char *p = entity_project(join(3, ents));
    for (int y_down = 0; y_down < 2; ++y_down) {
        ledge_ldtk_def def = ledge_default_ldtk_def();
        def.y_down = y_down;
        float sign = y_down ? -1.0f : 1.0f;
        ledge_ldtk_result *r = NULL;
        ledge_world *w = ledge_ldtk_create_world(p, strlen(p), &def, &r);
        assert_non_null(w);
        const ledge_ldtk_entity *e = ledge_ldtk_find_entity(r, "Pad");
        assert_true(near(e->surface_speed, 1.5f * sign));
        assert_int_equal(e->friction_mix, LEDGE_FRICTION_MIX_MIN);
        assert_string_equal(e->material, "rubber");
        ledge_material m = ledge_body_material(w, r->bodies[e->first_body]);
        assert_true(near(m.surface_speed, 1.5f * sign) && near(m.friction, 0.5f));
        assert_true(m.bounce == 0);
        assert_int_equal(m.friction_mix, LEDGE_FRICTION_MIX_MIN);
        e = ledge_ldtk_find_entity(r, "Grip");
        m = ledge_body_material(w, r->bodies[e->first_body]);
        assert_true(near(e->surface_speed, -2 * sign) && near(m.surface_speed, -2 * sign));
        assert_int_equal(e->friction_mix, LEDGE_FRICTION_MIX_MAX);
        assert_int_equal(m.friction_mix, LEDGE_FRICTION_MIX_MAX);
        assert_string_equal(e->material, "");
        e = ledge_ldtk_find_entity(r, "Plain");
        m = ledge_body_material(w, r->bodies[e->first_body]);
        assert_true(m.surface_speed == 0 && !signbit(m.surface_speed) && m.friction == 0);
        assert_int_equal(m.friction_mix, LEDGE_FRICTION_MIX_MEAN);
        assert_int_equal(e->friction_mix, LEDGE_FRICTION_MIX_MEAN);
        ledge_ldtk_result_destroy(r);
        ledge_world_destroy(w);

        // A static belt entity at 2 units per second, drawn so that it
        // carries to the right on screen.
        const char *belt_ents[] = {
            entity("Belt", "belt", 0, 16, 96, 16, 0, 0,
                   join(3, (const char *const[]){field("body", "String", "\"static\""),
                                                 field("surface_speed", "Float", "2"),
                                                 field("friction", "Float", "1")})),
            entity("Crate", "crate", 34, 2, 12, 14, 0, 0,
                   join(2, (const char *const[]){field("body", "String", "\"dynamic\""),
                                                 field("friction", "Float", "1")}))};
        const char *bp =
            project(NULL, NULL,
                    level("L", 0, 0, 96, 32,
                          entity_layer("Things", 16, 6, 2, 0, 0, join(2, belt_ents)), NULL),
                    NULL);
        def.world.gravity = (vec2s){{0, y_down ? 10.0f : -10.0f}};
        w = ledge_ldtk_create_world(bp, strlen(bp), &def, &r);
        assert_non_null(w);
        expect_carried(w, r->bodies[ledge_ldtk_find_entity(r, "Crate")->first_body], 2.0f,
                       y_down ? "belt entity, y down" : "belt entity, y up");
        ledge_ldtk_result_destroy(r);
        ledge_world_destroy(w);
    }
}

/// A 3 x 2 level of the material tileset with two Tiles layers, A and B.
static const char *two_layer_project(const char *a, const char *b) {
    const char *layers[] = {tiles_layer("Tiles", "A", 16, 3, 2, 10, a, NULL),
                            tiles_layer("Tiles", "B", 16, 3, 2, 10, b, NULL)};
    return project(NULL, material_tileset(), level("L", 0, 0, 48, 32, join(2, layers), NULL), NULL);
}

/// Two layers (or two stacked tiles) giving one cell two different
/// materials are refused, naming the cell, the target unchanged; the same
/// material twice, or a material and a plain tile, load. Bad values are
/// refused naming the tile.
static void test_refuses_bad_materials(void **state) {
    (void)state;
    refuse_tilemap(two_layer_project(tile(3, 0, 16, 0), tile(1, 0, 16, 0)),
                   "level 'L', layer 'B': cell (0, 1) gets the material friction 0.05, bounce 0, "
                   "surface_speed 0, friction_mix min",
                   "gave it friction 1, bounce 0, surface_speed 2, friction_mix min", NULL);
    refuse_world(two_layer_project(tile(3, 16, 0, 0), tile(3, 16, 0, 1)),
                 "layer 'B': cell (1, 0) gets the material", "surface_speed -2", NULL);
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.y_down = true;
    refuse_world(two_layer_project(tile(2, 32, 16, 0), tile(4, 32, 16, 0)),
                 "cell (2, 1) gets the material friction 1, bounce 0, surface_speed 0, "
                 "friction_mix max",
                 "another layer (or level) gave it", &def);
    refuse_tilemap(two_layer_project(S("%s,%s", tile(3, 0, 0, 0), tile(9, 0, 0, 0)), ""),
                   "layer 'A': cell (0, 0) holds two tiles with different materials", NULL, NULL);

    // The same material from two tiles, and a material over a plain tile
    // (either order): loaded, the cell keeps the material.
    const char *same[][2] = {{tile(3, 0, 16, 0), tile(8, 0, 16, 0)},
                             {tile(3, 0, 16, 0), tile(6, 0, 16, 0)},
                             {tile(6, 0, 16, 0), tile(3, 0, 16, 0)},
                             {S("%s,%s", tile(6, 0, 16, 0), tile(3, 0, 16, 0)), ""},
                             {S("%s,%s", tile(3, 0, 16, 0), tile(6, 0, 16, 0)), ""}};
    for (size_t k = 0; k < sizeof same / sizeof same[0]; ++k) {
        const char *p = two_layer_project(same[k][0], same[k][1]);
        ledge_tilemap *map = map_of(3, 2);
        assert_true(ledge_ldtk_load_tilemap(map, p, strlen(p), NULL));
        expect_material(map, 0, 0, 1, 0, 2, LEDGE_FRICTION_MIX_MIN);
        assert_false(ledge_tilemap_cell_has_material(map, 1, 0));
        ledge_tilemap_destroy(map);
    }

    const char *const bad[][3] = {
        {"ledge_tile=full\\nfriction=1.5", "tileset 'bad', tile 2: custom data friction \"1.5\"",
         "must be a number 0..1"},
        {"ledge_tile=full\\nbounce=-1", "tile 2: custom data bounce \"-1\" must be a number 0..1",
         NULL},
        {"ledge_tile=full\\nsurface_speed=2e7", "tile 2: custom data surface_speed \"2e7\"",
         "-1e+06..1e+06"},
        {"ledge_tile=full\\nsurface_speed=fast", "tile 2: custom data surface_speed \"fast\"",
         NULL},
        {"ledge_tile=full\\nsurface_speed=nan", "tile 2: custom data surface_speed \"nan\"", NULL},
        {"ledge_tile=full\\nfriction_mix=rough",
         "tile 2: custom data friction_mix \"rough\" must be mean, min or max", NULL},
        {"{\\\"ledge_tile\\\":\\\"full\\\",\\\"bounce\\\":2}", "tile 2: custom data bounce \"2\"",
         NULL},
        {"{\\\"ledge_tile\\\":\\\"full\\\",\\\"friction_mix\\\":1}",
         "tile 2: custom data friction_mix \"1\"", NULL},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        const char *ts =
            tileset_def(10, "bad", NULL, S("{\"tileId\":2,\"data\":\"%s\"}", bad[k][0]));
        refuse_tilemap(tile_project(ts, tile(2, 0, 0, 0), 16), bad[k][1], bad[k][2], NULL);
        refuse_world(tile_project(ts, tile(2, 0, 0, 0), 16), bad[k][1], bad[k][2], NULL);
    }

    // Entities' values.
    const char *const ents[][3] = {
        {entity("Box", "b", 0, 0, 16, 16, 0, 0, field("friction_mix", "String", "\"rough\"")),
         "level 'L', layer 'Things', entity 0 'Box': field 'friction_mix' is \"rough\"",
         "(must be mean, min or max)"},
        {entity("Box", "b", 0, 0, 16, 16, 0, 0, field("friction_mix", "Int", "1")),
         "entity 0 'Box': field 'friction_mix' is Int (must be String or an Enum)", NULL},
        {entity("Box", "b", 0, 0, 16, 16, 0, 0, field("surface_speed", "Float", "2e7")),
         "entity 0 'Box': field 'surface_speed' is 2e+07", "-1e+06..1e+06"},
        {entity("Box", "b", 0, 0, 16, 16, 0, 0, field("surface_speed", "String", "\"fast\"")),
         "field 'surface_speed' is String (must be Float or Int)", NULL},
        {entity("Box", "b", 0, 0, 16, 16, 0, 0,
                field("friction_mix", "Array<String>", "[\"min\"]")),
         "field 'friction_mix' is Array<String> (must be String or an Enum)", NULL},
    };
    for (size_t k = 0; k < sizeof ents / sizeof ents[0]; ++k) {
        refuse_world(entity_project(ents[k][0]), ents[k][1], ents[k][2], NULL);
    }
}

// ---------------------------------------------------------------------------
// The sample level

#ifndef LEDGE_SAMPLES_DIR
#define LEDGE_SAMPLES_DIR "samples"
#endif

/// Counts from the levels' drawings in samples/make_ldtk_level.py (by
/// glyph): both levels, 50 x 15 cells: full 217 (one-way 3), 45 degree 6,
/// concave 1, convex 2, each 22 and 67 degree half 2, half 8 (one-way 6);
/// 17 entities, 9 of them bodies.
static void test_sample_level(void **state) {
    (void)state;
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.all_levels = true;
    ledge_ldtk_result *r = NULL;
    ledge_world *w = ledge_ldtk_create_world_file(LEDGE_SAMPLES_DIR "/level.ldtk", &def, &r);
    assert_non_null(w);
    static const int expect[10] = {508, 217, 6, 1, 2, 2, 2, 2, 2, 8};
    int groups[10] = {0};
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        groups[ledge_tile_group_of((ledge_tile)t)] += r->tile_counts[t];
    }
    for (int g = 0; g < 10; ++g) assert_int_equal(groups[g], expect[g]);
    assert_int_equal(r->one_way_cells, 9);
    assert_int_equal(r->width, 50);
    assert_int_equal(r->height, 15);
    assert_int_equal(r->grid_px, 32);
    assert_int_equal(r->entity_count, 17);
    assert_int_equal(r->body_count, 9);
    assert_int_equal(ledge_world_body_count(w), 9);
    ledge_tilemap *map = ledge_world_tilemap(w);
    // The steep wall of the cave, drawn with X-flipped tiles: LDtk's row 8,
    // column 30 + 18, a 67 degree slope rising to the right (facing up-left
    // on screen, y up: 67DEG_BIG_NP).
    assert_int_equal(ledge_tilemap_get(map, 48, 15 - 1 - 8), LEDGE_TILE_67DEG_BIG_NP);
    assert_int_equal(ledge_tilemap_get(map, 1, 15 - 1 - 12), LEDGE_TILE_CONCAVE_PP);
    assert_int_equal(ledge_tilemap_one_way(map, 41, 15 - 1 - 5), LEDGE_ONE_WAY_UP); // tile 30
    assert_int_equal(ledge_tilemap_get(map, 6, 15 - 1 - 12), LEDGE_TILE_EMPTY);     // a flower
    const ledge_ldtk_level *cave = ledge_ldtk_find_level(r, "Cave");
    assert_int_equal(cave->cell_x, 30);
    assert_true(r->values[ledge_ldtk_level_field(r, cave, "dark")->first_value].boolean);
    const ledge_ldtk_entity *door = ledge_ldtk_find_entity(r, "Door");
    const ledge_ldtk_value *key = &r->values[ledge_ldtk_entity_field(r, door, "key")->first_value];
    assert_string_equal(r->entities[key->entity].identifier, "Key");
    const ledge_ldtk_entity *lift = &r->entities[door - r->entities - 2];
    assert_string_equal(lift->identifier, "Platform");
    assert_int_equal(lift->path_point_count, 2);
    assert_true(near(r->path_points[lift->first_path_point + 1].y -
                         r->path_points[lift->first_path_point].y,
                     9));
    const ledge_ldtk_entity *ball = ledge_ldtk_find_entity(r, "Ball");
    assert_int_equal(ledge_body_shape(w, r->bodies[ball->first_body])->type, LEDGE_SHAPE_CIRCLE);
    for (int s = 0; s < 120; ++s) ledge_world_step(w, 1.0f / 60.0f);
    for (int i = 0; i < r->body_count; ++i) { // nothing fell out of the level
        vec2s p = ledge_body_position(w, r->bodies[i]);
        assert_true(p.x > 0 && p.x < 50 && p.y > 2 && p.y < 15);
    }
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
}

/// Steps the sample's world from `from` to `to` (frames of 1/60 s), its
/// platforms moved along their paths; returns the world's hash.
static uint64_t run_sample(ledge_world *w, const ledge_ldtk_result *r, int from, int to) {
    const float dt = 1.0f / 60.0f;
    for (int s = from; s < to; ++s) {
        for (int e = 0; e < r->entity_count; ++e) {
            const ledge_ldtk_entity *en = &r->entities[e];
            if (en->path_point_count < 2 || en->body_count != 1) continue;
            vec2s next = ledge_ldtk_path_position(r, en, (double)(s + 1) * dt);
            assert_true(ledge_body_set_target(w, r->bodies[en->first_body], next, dt));
        }
        ledge_world_step(w, dt);
    }
    return ledge_world_hash(w);
}

/// A loaded level is deterministic and in snapshots: two loads of the
/// sample give the same hash frame for frame (and on 2 workers), and a
/// snapshot taken mid-run and restored replays the rest to the same bits.
static void test_sample_deterministic_and_in_snapshots(void **state) {
    (void)state;
    ledge_ldtk_def def = ledge_default_ldtk_def();
    def.all_levels = true;
    ledge_ldtk_result *r = NULL, *r2 = NULL, *r3 = NULL;
    ledge_world *a = ledge_ldtk_create_world_file(LEDGE_SAMPLES_DIR "/level.ldtk", &def, &r);
    ledge_world *b = ledge_ldtk_create_world_file(LEDGE_SAMPLES_DIR "/level.ldtk", &def, &r2);
    def.world.worker_count = 2;
    ledge_world *c = ledge_ldtk_create_world_file(LEDGE_SAMPLES_DIR "/level.ldtk", &def, &r3);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_int_equal(ledge_world_hash(a), ledge_world_hash(b));
    assert_int_equal(ledge_world_hash(a), ledge_world_hash(c));
    for (int k = 0; k < 4; ++k) { // frame for frame, 30 frames at a time
        uint64_t ha = run_sample(a, r, k * 30, k * 30 + 30);
        assert_int_equal(ha, run_sample(b, r2, k * 30, k * 30 + 30));
        assert_int_equal(ha, run_sample(c, r3, k * 30, k * 30 + 30));
    }
    size_t size = ledge_world_snapshot_size(a);
    void *snap = malloc(size);
    assert_int_equal(ledge_world_save(a, snap, size), size);
    uint64_t straight = run_sample(a, r, 120, 240);
    assert_int_not_equal(straight, ledge_world_hash(b)); // the platforms moved on
    assert_true(ledge_world_restore(a, snap, size));
    assert_int_equal(ledge_world_hash(a), ledge_world_hash(b));
    assert_int_equal(run_sample(a, r, 120, 240), straight);
    assert_int_equal(run_sample(b, r2, 120, 240), straight);
    free(snap);
    ledge_ldtk_result_destroy(r);
    ledge_ldtk_result_destroy(r2);
    ledge_ldtk_result_destroy(r3);
    ledge_world_destroy(a);
    ledge_world_destroy(b);
    ledge_world_destroy(c);
}

// ---------------------------------------------------------------------------
// Allocation failures

typedef struct alloc_case {
    const char *name;
    const char *project;
    ledge_ldtk_def def;
    int kind; ///< 0: create_world, 1: create_tilemap, 2: load_world, 3: world from the file,
              ///< 4: load_tilemap into a 6 x 2 map with a cell material of its own
} alloc_case;

/// alloc_load's kind 4: a refused load leaves the map's cell materials.
static bool alloc_load_tilemap(const alloc_case *a) {
    ledge_tilemap *m = map_of(6, 2);
    if (m == NULL) return false;
    ledge_material own = ledge_default_material();
    own.bounce = 0.5f;
    bool ok = ledge_tilemap_set_cell_material(m, 5, 1, &own) &&
              ledge_ldtk_load_tilemap(m, a->project, strlen(a->project), &a->def);
    if (ok) {
        assert_false(ledge_tilemap_cell_has_material(m, 5, 1));
        assert_true(ledge_tilemap_cell_has_material(m, 0, 0));
    } else if (ledge_tilemap_cell_has_material(m, 5, 1)) {
        assert_true(ledge_tilemap_cell_material(m, 5, 1).bounce == 0.5f);
        assert_false(ledge_tilemap_cell_has_material(m, 0, 0));
        assert_int_equal(ledge_tilemap_get(m, 0, 0), LEDGE_TILE_EMPTY);
    }
    ledge_tilemap_destroy(m);
    return ok;
}

/// One load under the counting hook; true when it succeeded. Everything it
/// made is freed before it returns.
static bool alloc_load(const alloc_case *a) {
    if (a->kind == 4) return alloc_load_tilemap(a);
    if (a->kind == 1) {
        ledge_tilemap *m = ledge_ldtk_create_tilemap(a->project, strlen(a->project), &a->def);
        ledge_tilemap_destroy(m);
        return m != NULL;
    }
    ledge_ldtk_result *r = (ledge_ldtk_result *)&g_log;
    ledge_world *w = NULL;
    bool ok;
    if (a->kind == 2) {
        ledge_world_def wd = ledge_default_world_def();
        wd.map_width = 10;
        wd.map_height = 8;
        w = ledge_world_create(&wd);
        if (w == NULL) return false;
        ok = ledge_ldtk_load_world(w, a->project, strlen(a->project), &a->def, &r);
    } else if (a->kind == 3) {
        w = ledge_ldtk_create_world_file(a->project, &a->def, &r);
        ok = w != NULL;
    } else {
        w = ledge_ldtk_create_world(a->project, strlen(a->project), &a->def, &r);
        ok = w != NULL;
    }
    if (!ok) assert_null(r);
    if (ok) assert_non_null(r);
    ledge_ldtk_result_destroy(r);
    ledge_world_destroy(w);
    return ok;
}

/// Every allocation of each load refused in turn (alone, and with every
/// later one): the load fails with a message, and nothing leaks (the
/// hook's count of live allocations is 0 afterwards).
static void test_allocation_failures(void **state) {
    (void)state;
    ledge_ldtk_def plain = ledge_default_ldtk_def();
    ledge_ldtk_def table = plain;
    table.entity_bodies = g_table;
    table.entity_body_count = 2;
    ledge_ldtk_def all = plain;
    all.all_levels = true;
    ledge_ldtk_def ext = plain;
    ext.resolve = resolve_level;
    g_level_text = full_level("A", 0, 0, 4, 2);
    alloc_case cases[] = {
        {"entities", entities_project(0), table, 0},
        {"entities into a world", entities_project(0), table, 2},
        {"tiles",
         tile_project(shapes_tileset(), S("%s,%s", tile(6, 0, 0, 0), tile(7, 16, 16, 1)), 16),
         plain, 1},
        {"materials", material_project(), plain, 0},
        {"materials into a map", material_project(), plain, 4},
        {"levels", three_levels("Free", false), all, 0},
        {"separate level", external_project(), ext, 0},
        {"sample", LEDGE_SAMPLES_DIR "/level.ldtk", plain, 3},
    };
    bool quick = getenv("LEDGE_UNDER_VALGRIND") != NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        ledge_set_log_hook(ledge_log_discard, NULL);
        alloc_hook_start(0, false);
        assert_true(alloc_load(&cases[i]));
        long total = g_alloc.calls;
        assert_int_equal(g_alloc.live, 0);
        alloc_hook_stop();
        assert_true(total > 5);
        for (long k = 1; k <= total; k += quick ? 7 : 1) {
            for (int rest = 0; rest < 2; ++rest) {
                log_capture_start();
                alloc_hook_start(k, rest);
                bool ok = alloc_load(&cases[i]);
                if (ok || g_alloc.failures == 0 || !log_capture_says(NULL, NULL) ||
                    g_alloc.live != 0) {
                    fail_msg("%s: refusing allocation %ld of %ld%s: %s, %ld refused, %ld live, "
                             "'%s'",
                             cases[i].name, k, total, rest ? " and the rest" : "",
                             ok ? "loaded" : "refused", g_alloc.failures, g_alloc.live, g_log.last);
                }
                alloc_hook_stop();
            }
        }
        ledge_set_log_hook(NULL, NULL);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_vocabulary_against_the_geometry, arena_free),
        cmocka_unit_test_teardown(test_flips_are_the_mirrored_geometry, arena_free),
        cmocka_unit_test_teardown(test_intgrid_y_up_and_y_down, arena_free),
        cmocka_unit_test_teardown(test_intgrid_table, arena_free),
        cmocka_unit_test_teardown(test_one_tile_layer_and_load_world, arena_free),
        cmocka_unit_test_teardown(test_tiles_layers, arena_free),
        cmocka_unit_test_teardown(test_random_levels_round_trip, arena_free),
        cmocka_unit_test_teardown(test_entities_become_bodies, arena_free),
        cmocka_unit_test_teardown(test_every_field_type, arena_free),
        cmocka_unit_test_teardown(test_entities_y_down_and_offset, arena_free),
        cmocka_unit_test_teardown(test_entities_in_the_step, arena_free),
        cmocka_unit_test_teardown(test_path_position, arena_free),
        cmocka_unit_test_teardown(test_levels_placed_on_the_world_map, arena_free),
        cmocka_unit_test_teardown(test_multi_worlds, arena_free),
        cmocka_unit_test_teardown(test_separate_level_files, arena_free),
        cmocka_unit_test_teardown(test_refuses_bad_json_and_headers, arena_free),
        cmocka_unit_test_teardown(test_refuses_bad_levels, arena_free),
        cmocka_unit_test_teardown(test_refuses_bad_layers, arena_free),
        cmocka_unit_test_teardown(test_refuses_bad_tiles, arena_free),
        cmocka_unit_test_teardown(test_refuses_bad_entities, arena_free),
        cmocka_unit_test_teardown(test_refuses_too_many_entities, arena_free),
        cmocka_unit_test_teardown(test_refuses_null_arguments, arena_free),
        cmocka_unit_test_teardown(test_tile_materials, arena_free),
        cmocka_unit_test_teardown(test_belt_carries_a_crate, arena_free),
        cmocka_unit_test_teardown(test_entity_materials, arena_free),
        cmocka_unit_test_teardown(test_refuses_bad_materials, arena_free),
        cmocka_unit_test_teardown(test_sample_level, arena_free),
        cmocka_unit_test_teardown(test_sample_deterministic_and_in_snapshots, arena_free),
        cmocka_unit_test_teardown(test_allocation_failures, arena_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
