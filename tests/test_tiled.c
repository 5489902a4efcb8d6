// ledge_tiled: Tiled JSON maps. Maps are written by hand or by the tiny
// writers below (CSV array, base64, base64 + zlib, base64 + gzip) from an
// expected grid and must load back cell for cell; the flip flags are
// checked against the tile geometry itself (a flipped tile's solid region
// is the mirrored region); tile and object properties set materials, a
// belt's direction following flips and the frame; objects become the
// bodies their pixels say;
// every class of bad map is refused with a message naming the problem and
// leaves the target unchanged; the shipped sample level loads to the
// counts of its ASCII drawing; failed allocations leak nothing.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>
#include <ledge/tiled.h>

#include "log_capture.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define FLIP_H 0x80000000u
#define FLIP_V 0x40000000u
#define FLIP_D 0x20000000u

static char g_map[1 << 20]; // the map text of the current test

// ---------------------------------------------------------------------------
// Writers

/// The test tileset: local id k is ledge tile k (as an int property) for
/// k = 1..33; tiles 34 and 35 are decoration (no property). gid = 1 + k.
static const char *tileset_json(void) {
    static char buf[8192];
    if (buf[0]) return buf;
    int n = snprintf(buf, sizeof buf,
                     "[{\"firstgid\":1,\"name\":\"t\",\"tilecount\":36,\"tilewidth\":16,"
                     "\"tileheight\":16,\"tiles\":[");
    for (int k = 1; k < 34; ++k) {
        n += snprintf(buf + n, sizeof buf - (size_t)n,
                      "%s{\"id\":%d,\"properties\":[{\"name\":\"ledge_tile\",\"type\":\"int\","
                      "\"value\":%d}]}",
                      k > 1 ? "," : "", k, k);
    }
    snprintf(buf + n, sizeof buf - (size_t)n, ",{\"id\":34}]}]");
    return buf;
}

/// Writes a map of w x h 16-pixel tiles with the given layers array.
static const char *make_map(int w, int h, const char *layers) {
    snprintf(g_map, sizeof g_map,
             "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"infinite\":false,\"width\":%d,"
             "\"height\":%d,\"tilewidth\":16,\"tileheight\":16,\"tilesets\":%s,\"layers\":%s}",
             w, h, tileset_json(), layers);
    return g_map;
}

static void base64(const unsigned char *in, size_t n, char *out) {
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[k++] = abc[v >> 18 & 63];
        out[k++] = abc[v >> 12 & 63];
        out[k++] = i + 1 < n ? abc[v >> 6 & 63] : '=';
        out[k++] = i + 2 < n ? abc[v & 63] : '=';
    }
    out[k] = '\0';
}

typedef enum encoding { ENC_CSV, ENC_B64, ENC_ZLIB, ENC_GZIP } encoding;

/// gids to little-endian bytes, then compressed per `enc`; returns length.
static size_t pack(const uint32_t *gids, size_t n, encoding enc, unsigned char *out, size_t cap) {
    unsigned char *raw = malloc(n * 4);
    for (size_t i = 0; i < n; ++i) {
        for (int b = 0; b < 4; ++b) raw[4 * i + (size_t)b] = (unsigned char)(gids[i] >> (8 * b));
    }
    size_t len = cap;
    if (enc == ENC_B64) {
        memcpy(out, raw, n * 4);
        len = n * 4;
    } else if (enc == ENC_ZLIB) {
        uLongf zl = (uLongf)cap;
        assert_int_equal(compress(out, &zl, raw, (uLong)(n * 4)), Z_OK);
        len = zl;
    } else {
        z_stream s;
        memset(&s, 0, sizeof s);
        assert_int_equal(deflateInit2(&s, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
                         Z_OK);
        s.next_in = raw;
        s.avail_in = (uInt)(n * 4);
        s.next_out = out;
        s.avail_out = (uInt)cap;
        assert_int_equal(deflate(&s, Z_FINISH), Z_STREAM_END);
        len = s.total_out;
        deflateEnd(&s);
    }
    free(raw);
    return len;
}

static const char *const enc_fields[] = {"\"encoding\":\"csv\"", "\"encoding\":\"base64\"",
                                         "\"encoding\":\"base64\",\"compression\":\"zlib\"",
                                         "\"encoding\":\"base64\",\"compression\":\"gzip\""};

/// A tile layer object holding `gids` (w x h, Tiled row order) in `enc`.
static char *tile_layer(const char *name, int w, int h, const uint32_t *gids, encoding enc) {
    size_t n = (size_t)w * h;
    char *out = malloc(n * 16 + 256);
    int k = sprintf(out,
                    "{\"type\":\"tilelayer\",\"name\":\"%s\",\"width\":%d,\"height\":%d,%s,"
                    "\"data\":",
                    name, w, h, enc_fields[enc]);
    if (enc == ENC_CSV) {
        k += sprintf(out + k, "[");
        for (size_t i = 0; i < n; ++i) k += sprintf(out + k, "%s%u", i ? "," : "", gids[i]);
        k += sprintf(out + k, "]");
    } else {
        unsigned char *bytes = malloc(n * 4 + 1024);
        size_t len = pack(gids, n, enc, bytes, n * 4 + 1024);
        out[k++] = '"';
        base64(bytes, len, out + k);
        k += (int)strlen(out + k);
        out[k++] = '"';
        free(bytes);
    }
    sprintf(out + k, "}");
    return out;
}

/// A map with one tile layer of `gids` in `enc` (result in g_map).
static const char *grid_map(int w, int h, const uint32_t *gids, encoding enc) {
    char *layer = tile_layer("ground", w, h, gids, enc);
    char *layers = malloc(strlen(layer) + 3);
    sprintf(layers, "[%s]", layer);
    make_map(w, h, layers);
    free(layers);
    free(layer);
    return g_map;
}

// ---------------------------------------------------------------------------
// Oracles

/// The same tile seen with y negated, by name: the sign suffixes PN <-> PP,
/// NN <-> NP, and HALF_D <-> HALF_U (written from tiles.h's table).
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
static bool flip_is_mirror(ledge_tile t, bool h, bool v, bool d) {
    ledge_tile f = ledge_tiled_flip(t, h, v, d);
    for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 16; ++j) {
            float x = ((float)i + 0.37f) / 16, y = ((float)j + 0.61f) / 16;
            // Undo the flips in reverse order: V, H, then the transpose.
            float ux = h ? 1 - x : x, uy = v ? 1 - y : y;
            if (d) {
                float tmp = ux;
                ux = uy;
                uy = tmp;
            }
            vec2s p = {{x, y}}, q = {{ux, uy}}, o = {{0, 0}};
            if (ledge_tile_contains(f, o, 1, p) != ledge_tile_contains(t, o, 1, q)) return false;
        }
    }
    return true;
}

// ---------------------------------------------------------------------------
// Flips and frames

static void test_flip_is_the_mirrored_geometry(void **state) {
    (void)state;
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        for (int flags = 0; flags < 8; ++flags) {
            bool h = flags & 1, v = flags & 2, d = flags & 4;
            if (!flip_is_mirror((ledge_tile)t, h, v, d)) {
                fail_msg("tile %s flags h%d v%d d%d", ledge_tile_name((ledge_tile)t), h, v, d);
            }
        }
    }
    // The transpose turns 22 degree slopes into 67 degree ones.
    assert_int_equal(ledge_tiled_flip(LEDGE_TILE_22DEG_SMALL_PN, false, false, true),
                     LEDGE_TILE_67DEG_SMALL_NP);
    assert_int_equal(ledge_tiled_flip(LEDGE_TILE_HALF_D, false, false, true), LEDGE_TILE_HALF_R);
    log_capture_start();
    assert_int_equal(ledge_tiled_flip(34, true, false, false), LEDGE_TILE_EMPTY);
    assert_true(log_capture_says("ledge_tiled_flip", "34"));
    ledge_set_log_hook(NULL, NULL);
}

static void test_negate_sy_oracle_is_a_vertical_mirror(void **state) {
    (void)state; // the name-based oracle agrees with the geometry
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        assert_int_equal(negate_sy((ledge_tile)t), ledge_tiled_flip((ledge_tile)t, 0, 1, 0));
    }
}

/// A hand-checked 3 x 2 map: Tiled's row 0 is ledge's top row and every
/// tile is mirrored in y.
static void test_hand_written_map_y_up_and_y_down(void **state) {
    (void)state;
    // Tiled rows: [FULL, 45DEG_PN, empty] / [HALF_D, 22DEG_SMALL_NN, FULL].
    make_map(3, 2,
             "[{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":3,\"height\":2,"
             "\"data\":[2,3,0,31,16,2]}]");
    ledge_tilemap_def md = ledge_default_tilemap_def();
    md.width = 3;
    md.height = 2;
    ledge_tilemap *map = ledge_tilemap_create(&md);
    assert_true(ledge_tiled_load_tilemap(map, g_map, strlen(g_map), NULL));
    assert_int_equal(ledge_tilemap_get(map, 0, 1), LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_get(map, 1, 1), LEDGE_TILE_45DEG_PP);
    assert_int_equal(ledge_tilemap_get(map, 2, 1), LEDGE_TILE_EMPTY);
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_HALF_U);
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_22DEG_SMALL_NP);
    assert_int_equal(ledge_tilemap_get(map, 2, 0), LEDGE_TILE_FULL);
    // A 45 degree tile whose surface faced up-right in Tiled still does:
    // the point just up-right of its diagonal is free, down-left is solid.
    assert_false(ledge_tilemap_query_point(map, (vec2s){{1.6f, 1.6f}}, NULL));
    assert_true(ledge_tilemap_query_point(map, (vec2s){{1.4f, 1.4f}}, NULL));

    ledge_tiled_def def = ledge_default_tiled_def();
    def.y_down = true;
    assert_true(ledge_tiled_load_tilemap(map, g_map, strlen(g_map), &def));
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_45DEG_PN);
    assert_int_equal(ledge_tilemap_get(map, 2, 0), LEDGE_TILE_EMPTY); // overwritten, not kept
    assert_int_equal(ledge_tilemap_get(map, 0, 1), LEDGE_TILE_HALF_D);
    assert_int_equal(ledge_tilemap_get(map, 1, 1), LEDGE_TILE_22DEG_SMALL_NN);
    ledge_tilemap_destroy(map);
}

/// Each encoding, written by the writers above from a random grid with
/// random flips and decoration tiles, loads back cell for cell.
static void test_encodings_round_trip(void **state) {
    (void)state;
    enum { W = 13, H = 7 };
    for (int enc = ENC_CSV; enc <= ENC_GZIP; ++enc) {
        for (int y_down = 0; y_down < 2; ++y_down) {
            g_rng = 900 + (uint64_t)enc;
            uint32_t gids[W * H];
            ledge_tile expect[W * H]; // in ledge's frame, index y * W + x
            for (int i = 0; i < W * H; ++i) {
                int local = rng_int(0, 35), row = i / W, col = i % W;
                uint32_t flags = (rng_next() & 7u) << 29;
                gids[i] = rng_int(0, 5) == 0 ? 0 : ((uint32_t)local + 1) | flags;
                ledge_tile t = gids[i] == 0 || local >= 34
                                   ? LEDGE_TILE_EMPTY
                                   : ledge_tiled_flip((ledge_tile)local, flags & FLIP_H,
                                                      flags & FLIP_V, flags & FLIP_D);
                int y = y_down ? row : H - 1 - row;
                expect[y * W + col] = y_down ? t : negate_sy(t);
            }
            grid_map(W, H, gids, (encoding)enc);
            ledge_tiled_def def = ledge_default_tiled_def();
            def.y_down = y_down;
            def.world.tile_size = 0.5f;
            ledge_tilemap *map = ledge_tiled_create_tilemap(g_map, strlen(g_map), &def);
            assert_non_null(map);
            ledge_tilemap_def md = ledge_tilemap_get_def(map);
            assert_int_equal(md.width, W);
            assert_int_equal(md.height, H);
            assert_true(md.tile_size == 0.5f);
            for (int y = 0; y < H; ++y) {
                for (int x = 0; x < W; ++x) {
                    if (ledge_tilemap_get(map, x, y) != expect[y * W + x]) {
                        fail_msg("encoding %d y_down %d cell (%d, %d): %s, expected %s", enc,
                                 y_down, x, y, ledge_tile_name(ledge_tilemap_get(map, x, y)),
                                 ledge_tile_name(expect[y * W + x]));
                    }
                }
            }
            ledge_tilemap_destroy(map);
        }
    }
}

/// ledge_tile as a name, any case; layers merge; one layer can be chosen.
static void test_names_layers_and_selection(void **state) {
    (void)state;
    snprintf(g_map, sizeof g_map,
             "{\"orientation\":\"orthogonal\",\"width\":2,\"height\":1,\"tilewidth\":8,"
             "\"tileheight\":8,\"tilesets\":[{\"firstgid\":5,\"tilecount\":2,\"tiles\":["
             "{\"id\":0,\"properties\":[{\"name\":\"ledge_tile\",\"type\":\"string\","
             "\"value\":\"67deg_big_pp\"}]},{\"id\":1,\"properties\":[{\"name\":\"ledge_tile\","
             "\"type\":\"string\",\"value\":\"FULL\"}]}]}],\"layers\":["
             "{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":2,\"height\":1,\"data\":[5,0]},"
             "{\"type\":\"group\",\"name\":\"g\",\"layers\":[{\"type\":\"tilelayer\","
             "\"name\":\"b\",\"visible\":false,\"width\":2,\"height\":1,\"data\":[5,6]}]},"
             "{\"type\":\"imagelayer\",\"name\":\"sky\"}]}");
    ledge_tilemap *map = ledge_tiled_create_tilemap(g_map, strlen(g_map), NULL);
    assert_non_null(map);
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_67DEG_BIG_PN); // sy negated
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_FULL);
    ledge_tilemap_destroy(map);
    ledge_tiled_def def = ledge_default_tiled_def();
    def.tile_layer = "a";
    map = ledge_tiled_create_tilemap(g_map, strlen(g_map), &def);
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_EMPTY);
    ledge_tilemap_destroy(map);
}

// ---------------------------------------------------------------------------
// External tilesets

static const char *resolve_table(const char *source, size_t *len, void *user) {
    (void)user;
    static const char tsj[] = "{\"name\":\"ext\",\"tilecount\":2,\"tiles\":[{\"id\":1,"
                              "\"properties\":[{\"name\":\"ledge_tile\",\"type\":\"int\","
                              "\"value\":32}]}]}";
    static const char tsx[] = "  <?xml version=\"1.0\"?><tileset/>";
    const char *text = strcmp(source, "ext.tsj") == 0   ? tsj
                       : strcmp(source, "old.tsx") == 0 ? tsx
                                                        : NULL;
    if (text) *len = strlen(text);
    return text;
}

static const char *external_map(const char *source) {
    snprintf(g_map, sizeof g_map,
             "{\"orientation\":\"orthogonal\",\"width\":2,\"height\":1,\"tilewidth\":8,"
             "\"tileheight\":8,\"tilesets\":[{\"firstgid\":1,\"source\":\"%s\"}],\"layers\":["
             "{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":2,\"height\":1,\"data\":[2,1]}]}",
             source);
    return g_map;
}

static void test_external_tileset_through_resolver(void **state) {
    (void)state;
    ledge_tiled_def def = ledge_default_tiled_def();
    def.resolve = resolve_table;
    external_map("ext.tsj");
    ledge_tilemap *map = ledge_tiled_create_tilemap(g_map, strlen(g_map), &def);
    assert_non_null(map);
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_HALF_D); // HALF_U, y mirrored
    assert_int_equal(ledge_tilemap_get(map, 1, 0), LEDGE_TILE_EMPTY);  // tile 0: no property
    ledge_tilemap_destroy(map);
}

// ---------------------------------------------------------------------------
// Objects

static const char *objects_map(const char *objects) {
    static char layers[16384];
    snprintf(layers, sizeof layers,
             "[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":10,\"height\":10,\"data\":[%s]},"
             "{\"type\":\"objectgroup\",\"name\":\"things\",\"objects\":[%s]}]",
             "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
             "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
             "0,0,0,0,0,0,0,0,0,0,3,3,3,3,3,3,3,3,3,3",
             objects);
    return make_map(10, 10, layers);
}

static bool near(float a, float b) {
    return fabsf(a - b) <= 1e-5f;
}

static bool vec_near(vec2s a, float x, float y) {
    return near(a.x, x) && near(a.y, y);
}

static void test_objects_become_bodies(void **state) {
    (void)state;
    objects_map(
        "{\"id\":1,\"name\":\"box\",\"x\":16,\"y\":32,\"width\":32,\"height\":16},"
        "{\"id\":2,\"name\":\"ball\",\"x\":48,\"y\":48,\"width\":16,\"height\":16,"
        "\"ellipse\":true,\"properties\":[{\"name\":\"body\",\"type\":\"string\","
        "\"value\":\"dynamic\"},{\"name\":\"bounce\",\"type\":\"float\",\"value\":0.5}]},"
        "{\"id\":3,\"name\":\"tri\",\"x\":80,\"y\":80,\"polygon\":[{\"x\":0,\"y\":0},"
        "{\"x\":32,\"y\":0},{\"x\":0,\"y\":32}]},"
        "{\"id\":4,\"name\":\"ell\",\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":48,"
        "\"y\":0},{\"x\":48,\"y\":16},{\"x\":16,\"y\":16},{\"x\":16,\"y\":48},{\"x\":0,\"y\":48}]},"
        "{\"id\":5,\"name\":\"spawn\",\"type\":\"marker\",\"point\":true,\"x\":8,\"y\":8},"
        "{\"id\":6,\"name\":\"crate\",\"gid\":2,\"x\":32,\"y\":64,\"width\":16,\"height\":16},"
        "{\"id\":7,\"name\":\"turned\",\"x\":64,\"y\":64,\"width\":32,\"height\":16,"
        "\"rotation\":90},"
        "{\"id\":8,\"name\":\"tilted\",\"x\":64,\"y\":16,\"width\":32,\"height\":16,"
        "\"rotation\":45},"
        "{\"id\":9,\"name\":\"label\",\"x\":0,\"y\":0,\"text\":{\"text\":\"hi\"}}");
    ledge_tiled_result *r = NULL;
    ledge_world *w = ledge_tiled_create_world(g_map, strlen(g_map), NULL, &r);
    assert_non_null(w);
    assert_non_null(r);
    assert_int_equal(r->object_count, 8); // the text object makes nothing
    assert_int_equal(ledge_world_body_count(w), r->body_count);

    // A 32 x 16 rectangle at (16, 32) px in a 160 px high map of 16 px cells.
    const ledge_tiled_object *o = ledge_tiled_find_object(r, "box");
    assert_int_equal(o->shape, LEDGE_TILED_BOX);
    assert_int_equal(o->body_count, 1);
    assert_true(vec_near(o->position, 2, 7.5f));
    const ledge_shape *s = ledge_body_shape(w, r->bodies[o->first_body]);
    assert_int_equal(s->type, LEDGE_SHAPE_BOX);
    assert_true(vec_near(s->bounds.upper, 1, 0.5f));
    assert_int_equal(ledge_body_get_type(w, r->bodies[o->first_body]), LEDGE_BODY_STATIC);

    o = ledge_tiled_find_object(r, "ball");
    s = ledge_body_shape(w, r->bodies[o->first_body]);
    assert_int_equal(s->type, LEDGE_SHAPE_CIRCLE);
    assert_true(near(s->radius, 0.5f));
    assert_true(vec_near(ledge_body_position(w, r->bodies[o->first_body]), 3.5f, 6.5f));
    assert_int_equal(o->body_type, LEDGE_BODY_DYNAMIC);
    assert_true(near(o->bounce, 0.5f));

    o = ledge_tiled_find_object(r, "tri"); // (5, 5), (7, 5), (5, 3) in world units
    assert_int_equal(o->body_count, 1);
    s = ledge_body_shape(w, r->bodies[o->first_body]);
    assert_int_equal(s->type, LEDGE_SHAPE_POLYGON);
    assert_true(near(ledge_shape_area(s), 2));
    assert_true(vec_near(o->bounds.lower, 5, 3) && vec_near(o->bounds.upper, 7, 5));

    o = ledge_tiled_find_object(r, "ell"); // L of area 3 + 2 = 5
    assert_true(o->body_count >= 2);
    float area = 0;
    for (int i = 0; i < o->body_count; ++i) {
        area += ledge_shape_area(ledge_body_shape(w, r->bodies[o->first_body + i]));
    }
    assert_true(fabsf(area - 5) < 1e-4f);

    o = ledge_tiled_find_object(r, "spawn");
    assert_int_equal(o->shape, LEDGE_TILED_POINT);
    assert_int_equal(o->body_count, 0);
    assert_string_equal(o->type, "marker");
    assert_string_equal(o->layer, "things");
    assert_true(vec_near(o->position, 0.5f, 9.5f));

    o = ledge_tiled_find_object(r, "crate"); // tile objects hang from their bottom-left
    assert_true(vec_near(o->bounds.lower, 2, 6) && vec_near(o->bounds.upper, 3, 7));

    o = ledge_tiled_find_object(r, "turned"); // clockwise on screen: now 16 x 32 px
    assert_int_equal(o->shape, LEDGE_TILED_BOX);
    assert_true(vec_near(o->bounds.lower, 3, 4) && vec_near(o->bounds.upper, 4, 6));

    o = ledge_tiled_find_object(r, "tilted");
    assert_int_equal(o->shape, LEDGE_TILED_POLYGON);
    s = ledge_body_shape(w, r->bodies[o->first_body]);
    assert_int_equal(s->count, 4);
    assert_true(fabsf(ledge_shape_area(s) - 2) < 1e-4f);

    ledge_tiled_result_destroy(r);
    ledge_world_destroy(w);
}

static void test_object_properties(void **state) {
    (void)state;
    objects_map("{\"id\":1,\"name\":\"lift\",\"x\":0,\"y\":0,\"width\":32,\"height\":8,"
                "\"properties\":[{\"name\":\"body\",\"type\":\"string\",\"value\":\"kinematic\"},"
                "{\"name\":\"velocity_x\",\"type\":\"float\",\"value\":2},"
                "{\"name\":\"friction\",\"type\":\"float\",\"value\":0.25},"
                "{\"name\":\"colour\",\"type\":\"color\",\"value\":\"#ff00ff00\"},"
                "{\"name\":\"hp\",\"type\":\"int\",\"value\":7}]},"
                "{\"id\":2,\"name\":\"trap\",\"type\":\"sensor\",\"x\":0,\"y\":32,\"width\":16,"
                "\"height\":16},"
                "{\"id\":3,\"name\":\"bridge\",\"x\":0,\"y\":64,\"width\":48,\"height\":4,"
                "\"properties\":[{\"name\":\"one_way\",\"type\":\"bool\",\"value\":true}]}");
    ledge_tiled_result *r = NULL;
    ledge_world *w = ledge_tiled_create_world(g_map, strlen(g_map), NULL, &r);
    assert_non_null(w);
    const ledge_tiled_object *lift = ledge_tiled_find_object(r, "lift");
    ledge_body_id id = r->bodies[lift->first_body];
    assert_int_equal(ledge_body_get_type(w, id), LEDGE_BODY_KINEMATIC);
    assert_true(vec_near(ledge_body_velocity(w, id), 2, 0));
    assert_true(near(lift->friction, 0.25f));
    assert_int_equal(lift->property_count, 5);
    const ledge_tiled_property *p = ledge_tiled_find_property(r, lift, "hp");
    assert_int_equal(p->type, LEDGE_TILED_INT);
    assert_true(p->number == 7);
    assert_string_equal(ledge_tiled_find_property(r, lift, "colour")->string, "#ff00ff00");
    assert_null(ledge_tiled_find_property(r, lift, "nope"));
    assert_null(ledge_tiled_find_object(r, "nope"));

    const ledge_tiled_object *trap = ledge_tiled_find_object(r, "trap"); // sensor by class
    assert_true(trap->sensor);
    ledge_body_id trap_id = r->bodies[trap->first_body];
    assert_int_equal(ledge_body_get_type(w, trap_id), LEDGE_BODY_STATIC);
    // A sensor body: a ball dropped into it is reported, not stopped.
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.1f);
    bd.position = ledge_body_position(w, trap_id);
    bd.gravity_scale = 0.0f;
    ledge_body_id ball = ledge_body_create(w, &bd);
    ledge_world_step(w, 1.0f / 60.0f);
    ledge_sensor_events se = ledge_world_sensor_events(w);
    assert_int_equal(se.begin_count, 1);
    assert_true(se.begin[0].sensor.index1 == trap_id.index1);
    assert_true(se.begin[0].visitor.index1 == ball.index1);

    const ledge_tiled_object *bridge = ledge_tiled_find_object(r, "bridge");
    assert_true(bridge->one_way);
    assert_false(bridge->sensor);
    // A one-way body: a ball rising into it from below passes.
    vec2s bp = ledge_body_position(w, r->bodies[bridge->first_body]);
    ledge_body_set_position(w, ball, (vec2s){{bp.x, bp.y - 0.3f}});
    ledge_body_set_velocity(w, ball, (vec2s){{0, 6}});
    for (int s = 0; s < 10; ++s) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_position(w, ball).y > bp.y + 0.2f);
    ledge_tiled_result_destroy(r);
    ledge_world_destroy(w);
}

static void test_y_down_objects_and_load_world(void **state) {
    (void)state;
    objects_map("{\"id\":1,\"name\":\"box\",\"x\":16,\"y\":32,\"width\":32,\"height\":16}");
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 10;
    wd.map_height = 10;
    wd.map_origin = (vec2s){{100, 0}};
    ledge_world *w = ledge_world_create(&wd);
    ledge_tiled_def def = ledge_default_tiled_def();
    def.y_down = true;
    ledge_tiled_result *r = NULL;
    assert_true(ledge_tiled_load_world(w, g_map, strlen(g_map), &def, &r));
    assert_true(vec_near(r->objects[0].position, 102, 2.5f));
    assert_int_equal(ledge_tilemap_get(ledge_world_tilemap(w), 3, 9), LEDGE_TILE_45DEG_PN);
    assert_int_equal(r->tile_counts[LEDGE_TILE_45DEG_PN], 10);
    assert_int_equal(r->tile_counts[LEDGE_TILE_EMPTY], 90);
    ledge_tiled_result_destroy(r);

    // A world of another size is refused and keeps its body.
    wd.map_width = 9;
    ledge_world *small = ledge_world_create(&wd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.5f);
    ledge_body_create(small, &bd);
    log_capture_start();
    assert_false(ledge_tiled_load_world(small, g_map, strlen(g_map), &def, &r));
    assert_null(r);
    assert_true(log_capture_says("ledge_tiled_load_world: ", "is 9 x 10"));
    assert_int_equal(ledge_world_body_count(small), 1);
    ledge_set_log_hook(NULL, NULL);
    ledge_world_destroy(small);
    ledge_world_destroy(w);
}

/// The chain of object `name`, its points in the world (from the chain) in
/// `out`; returns how many.
static int chain_world_points(ledge_world *w, const ledge_tiled_result *r, const char *name,
                              vec2s *out, int cap) {
    const ledge_tiled_object *o = ledge_tiled_find_object(r, name);
    assert_non_null(o);
    assert_true(ledge_chain_is_valid(w, o->chain));
    int n = ledge_chain_points(w, o->chain, out, cap);
    vec2s at = ledge_chain_position(w, o->chain);
    for (int i = 0; i < n && i < cap; ++i) out[i] = (vec2s){{out[i].x + at.x, out[i].y + at.y}};
    // The result holds the same points, in the same order.
    assert_int_equal(o->point_count, n);
    for (int i = 0; i < n && i < cap; ++i) {
        vec2s q = r->points[o->first_point + i];
        assert_true(fabsf(q.x - out[i].x) < 1e-5f && fabsf(q.y - out[i].y) < 1e-5f);
    }
    return n;
}

/// The sum of the chain's segment normals.
static vec2s chain_facing(ledge_world *w, ledge_chain_id id) {
    vec2s sum = {{0, 0}};
    for (int i = 0; i < ledge_chain_segment_count(w, id); ++i) {
        vec2s a, b, n;
        assert_true(ledge_chain_segment(w, id, i, &a, &b, &n));
        sum = (vec2s){{sum.x + n.x, sum.y + n.y}};
    }
    return sum;
}

#define PROP_S(name, value) "{\"name\":\"" name "\",\"type\":\"string\",\"value\":\"" value "\"}"

/// A hill drawn left to right as a polyline: its surface faces up; a
/// ceiling faces down, a wall left; a polygon with `chain` is a loop solid
/// inside (or outside); a kinematic polyline moves and names its path; a
/// path makes nothing.
static const char *const chain_objects =
    "{\"id\":1,\"name\":\"hill\",\"x\":16,\"y\":64,\"polyline\":[{\"x\":0,\"y\":0},"
    "{\"x\":32,\"y\":-16},{\"x\":64,\"y\":0}]},"
    "{\"id\":2,\"name\":\"ceiling\",\"x\":16,\"y\":16,\"polyline\":[{\"x\":0,\"y\":0},"
    "{\"x\":48,\"y\":0}],\"properties\":[" PROP_S(
        "facing",
        "down") "]},"
                "{\"id\":3,\"name\":\"wall\",\"x\":144,\"y\":16,\"polyline\":[{\"x\":0,\"y\":0},"
                "{\"x\":0,\"y\":32}],\"properties\":[" PROP_S(
                    "facing",
                    "left") "]},"
                            "{\"id\":4,\"name\":\"island\",\"x\":96,\"y\":48,\"polygon\":[{\"x\":0,"
                            "\"y\":0},"
                            "{\"x\":32,\"y\":0},{\"x\":32,\"y\":16},{\"x\":0,\"y\":16}],"
                            "\"properties\":[{\"name\":\"chain\",\"type\":\"bool\",\"value\":true}]"
                            "},"
                            "{\"id\":5,\"name\":\"room\",\"x\":96,\"y\":80,\"polygon\":[{\"x\":0,"
                            "\"y\":0},"
                            "{\"x\":0,\"y\":32},{\"x\":32,\"y\":32},{\"x\":32,\"y\":0}],"
                            "\"properties\":[{\"name\":\"chain\",\"type\":\"bool\",\"value\":true}"
                            "," PROP_S(
                                "solid",
                                "outside") "]},"
                                           "{\"id\":6,\"name\":\"raft\",\"x\":16,\"y\":112,"
                                           "\"polyline\":[{\"x\":0,\"y\":0},"
                                           "{\"x\":16,\"y\":4},{\"x\":32,\"y\":0}],\"properties\":"
                                           "[" PROP_S(
                                               "body",
                                               "kinematic") ",{\"name\":\"velocity_x\",\"type\":"
                                                            "\"float\",\"value\":2},"
                                                            "{\"name\":\"path\",\"type\":"
                                                            "\"object\",\"value\":7}]},"
                                                            "{\"id\":7,\"name\":\"route\",\"type\":"
                                                            "\"path\",\"x\":24,\"y\":120,"
                                                            "\"polyline\":["
                                                            "{\"x\":0,\"y\":0},{\"x\":64,\"y\":0},{"
                                                            "\"x\":64,\"y\":-32}]}";

static void test_polylines_become_chains(void **state) {
    (void)state;
    objects_map(chain_objects);
    ledge_tiled_result *r = NULL;
    ledge_world *w = ledge_tiled_create_world(g_map, strlen(g_map), NULL, &r);
    assert_non_null(w);
    assert_int_equal(r->object_count, 7);
    assert_int_equal(r->chain_count, 6);
    assert_int_equal(ledge_world_chain_count(w), 6);
    assert_int_equal(r->body_count, 0);

    // The hill: (1, 6), (3, 7), (5, 6) in the world (a 160 px high map),
    // turned to run right to left so that its surface faces up.
    vec2s p[8];
    const ledge_tiled_object *o = ledge_tiled_find_object(r, "hill");
    assert_int_equal(o->shape, LEDGE_TILED_POLYLINE);
    assert_int_equal(o->body_count, 0);
    assert_int_equal(chain_world_points(w, r, "hill", p, 8), 3);
    assert_true(vec_near(p[0], 5, 6) && vec_near(p[1], 3, 7) && vec_near(p[2], 1, 6));
    assert_true(chain_facing(w, o->chain).y > 0.5f);
    assert_false(ledge_chain_is_loop(w, o->chain));
    assert_int_equal(ledge_chain_get_type(w, o->chain), LEDGE_BODY_STATIC);
    assert_true(vec_near(o->bounds.lower, 1, 6) && vec_near(o->bounds.upper, 5, 7));

    o = ledge_tiled_find_object(r, "ceiling");
    assert_true(chain_facing(w, o->chain).y < -0.5f);
    o = ledge_tiled_find_object(r, "wall");
    assert_true(chain_facing(w, o->chain).x < -0.5f);

    // Loops: each segment's normal points away from the square's centre
    // (solid inside), or toward it (solid outside: a room).
    const char *const loops[2] = {"island", "room"};
    for (int k = 0; k < 2; ++k) {
        o = ledge_tiled_find_object(r, loops[k]);
        assert_int_equal(o->shape, LEDGE_TILED_POLYGON);
        assert_true(ledge_chain_is_loop(w, o->chain));
        assert_int_equal(ledge_chain_segment_count(w, o->chain), 4);
        vec2s c = o->position;
        for (int i = 0; i < 4; ++i) {
            vec2s a, b, n;
            assert_true(ledge_chain_segment(w, o->chain, i, &a, &b, &n));
            float out = ((a.x + b.x) / 2 - c.x) * n.x + ((a.y + b.y) / 2 - c.y) * n.y;
            assert_true(k == 0 ? out > 0.4f : out < -0.4f);
        }
    }

    // The raft: kinematic, moving right, its path the route's index.
    o = ledge_tiled_find_object(r, "raft");
    assert_int_equal(ledge_chain_get_type(w, o->chain), LEDGE_BODY_KINEMATIC);
    assert_true(vec_near(ledge_chain_velocity(w, o->chain), 2, 0));
    assert_true(chain_facing(w, o->chain).y > 0.5f);
    assert_true(o->path >= 0);
    const ledge_tiled_object *route = &r->objects[o->path];
    assert_string_equal(route->name, "route");
    assert_true(route->is_path);
    assert_false(ledge_chain_is_valid(w, route->chain));
    assert_int_equal(route->point_count, 3); // as drawn, in the world
    vec2s *rp = r->points + route->first_point;
    assert_true(vec_near(rp[0], 1.5f, 2.5f) && vec_near(rp[1], 5.5f, 2.5f) &&
                vec_near(rp[2], 5.5f, 4.5f));
    assert_int_equal(ledge_tiled_find_object(r, "hill")->path, -1);

    // A ball dropped on the hill's top lands on it; one dropped on the
    // island rests on the island; one inside the room stays inside.
    ledge_chain_set_velocity(w, o->chain, (vec2s){{0, 0}}); // the raft stays out of the room
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.25f);
    bd.position = (vec2s){{3, 8}};
    ledge_body_id on_hill = ledge_body_create(w, &bd);
    bd.position = (vec2s){{7, 8}};
    ledge_body_id on_island = ledge_body_create(w, &bd);
    bd.position = (vec2s){{7, 4}};
    ledge_body_id in_room = ledge_body_create(w, &bd);
    for (int s = 0; s < 40; ++s) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_position(w, on_hill).y > 6.9f);
    for (int s = 0; s < 80; ++s) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(ledge_body_position(w, on_island).y > 7.2f);
    vec2s ir = ledge_body_position(w, in_room);
    assert_true(ir.y > 3.2f && ir.y < 3.3f && ir.x > 6 && ir.x < 8); // on the room's floor
    ledge_tiled_result_destroy(r);
    ledge_world_destroy(w);

    // Tiled's y-down frame: "up as drawn" is -y, the hill at y 4 .. 3.
    ledge_tiled_def def = ledge_default_tiled_def();
    def.y_down = true;
    w = ledge_tiled_create_world(g_map, strlen(g_map), &def, &r);
    assert_non_null(w);
    o = ledge_tiled_find_object(r, "hill");
    assert_int_equal(chain_world_points(w, r, "hill", p, 8), 3);
    assert_true(vec_near(p[0], 1, 4) && vec_near(p[1], 3, 3) && vec_near(p[2], 5, 4));
    assert_true(chain_facing(w, o->chain).y < -0.5f);
    assert_true(chain_facing(w, ledge_tiled_find_object(r, "ceiling")->chain).y > 0.5f);
    assert_true(chain_facing(w, ledge_tiled_find_object(r, "wall")->chain).x < -0.5f);
    o = ledge_tiled_find_object(r, "island");
    for (int i = 0; i < 4; ++i) {
        vec2s a, b, n;
        assert_true(ledge_chain_segment(w, o->chain, i, &a, &b, &n));
        float out =
            ((a.x + b.x) / 2 - o->position.x) * n.x + ((a.y + b.y) / 2 - o->position.y) * n.y;
        assert_true(out > 0.4f);
    }
    ledge_tiled_result_destroy(r);
    ledge_world_destroy(w);
}

/// A chain continuing the tile floor: a box slides from the floor over a
/// low bump drawn from the floor's surface and on along the floor, caught
/// by no seam on the way.
static void test_chain_meets_tiles(void **state) {
    (void)state;
    // A floor of full tiles (gid 2: tile 1), its top at y 1 (144 px down
    // in a 160 px map); the bump from (2, 1) up to (4, 1.25) and back
    // down to (6, 1).
    char layers[4096];
    char data[512] = "";
    for (int i = 0; i < 100; ++i) strcat(data, i == 0 ? "0" : i >= 90 ? ",2" : ",0");
    snprintf(layers, sizeof layers,
             "[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":10,\"height\":10,\"data\":[%s]},"
             "{\"type\":\"objectgroup\",\"name\":\"things\",\"objects\":[{\"id\":1,\"name\":"
             "\"bump\",\"x\":32,\"y\":144,\"polyline\":[{\"x\":0,\"y\":0},{\"x\":32,\"y\":-4},"
             "{\"x\":64,\"y\":0}]}]}]",
             data);
    make_map(10, 10, layers);
    ledge_tiled_result *r = NULL;
    ledge_world *w = ledge_tiled_create_world(g_map, strlen(g_map), NULL, &r);
    assert_non_null(w);
    assert_int_equal(ledge_tilemap_get(ledge_world_tilemap(w), 0, 0), LEDGE_TILE_FULL);
    assert_int_equal(ledge_tilemap_get(ledge_world_tilemap(w), 0, 1), LEDGE_TILE_EMPTY);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.2f, 0.2f}});
    bd.position = (vec2s){{0.5f, 1.2f}};
    bd.velocity = (vec2s){{4, 0}};
    bd.friction = 0.0f;
    ledge_body_id box = ledge_body_create(w, &bd);
    for (int s = 0; s < 120; ++s) {
        ledge_world_step(w, 1.0f / 60.0f);
        vec2s at = ledge_body_position(w, box);
        if (at.x < 1.75f || at.x > 6.5f) assert_true(fabsf(at.y - 1.2f) < 0.01f); // on the floor
        assert_true(ledge_body_velocity(w, box).x > 3.0f); // never caught on a seam
    }
    assert_true(ledge_body_position(w, box).x > 7.0f);
    assert_true(ledge_body_velocity(w, box).x > 3.5f);
    ledge_tiled_result_destroy(r);
    ledge_world_destroy(w);
}

// ---------------------------------------------------------------------------
// Refusals

/// Loads g_map into a 2 x 2 tilemap holding a sentinel: must be refused with
/// a message holding w1 and w2, the tilemap untouched.
static void refuse_tilemap(const char *w1, const char *w2, const ledge_tiled_def *def) {
    ledge_tilemap_def md = ledge_default_tilemap_def();
    md.width = 2;
    md.height = 2;
    ledge_tilemap *map = ledge_tilemap_create(&md);
    ledge_tilemap_set(map, 1, 1, LEDGE_TILE_HALF_L);
    log_capture_start();
    bool ok = ledge_tiled_load_tilemap(map, g_map, strlen(g_map), def);
    if (ok || !log_capture_says(w1, w2) ||
        strncmp(g_log.last, "ledge_tiled_load_tilemap: ", 26) != 0) {
        fail_msg("expected a refusal naming '%s' '%s', got %s: '%s'", w1, w2 ? w2 : "",
                 ok ? "success" : "failure", g_log.last);
    }
    assert_int_equal(ledge_tilemap_get(map, 1, 1), LEDGE_TILE_HALF_L);
    assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_EMPTY);
    ledge_set_log_hook(NULL, NULL);
    ledge_tilemap_destroy(map);
}

/// g_map must be refused by ledge_tiled_create_world with w1 and w2.
static void refuse_world(const char *w1, const char *w2) {
    ledge_tiled_result *r = (ledge_tiled_result *)&g_log; // must be reset to NULL
    log_capture_start();
    ledge_world *w = ledge_tiled_create_world(g_map, strlen(g_map), NULL, &r);
    if (w || !log_capture_says(w1, w2) ||
        strncmp(g_log.last, "ledge_tiled_create_world: ", 26) != 0) {
        fail_msg("expected a refusal naming '%s' '%s', got '%s'", w1, w2 ? w2 : "", g_log.last);
    }
    assert_null(r);
    ledge_set_log_hook(NULL, NULL);
}

/// A 2 x 2 map whose only layer has `fields` (encoding and data).
static void layer_map(const char *fields) {
    char layers[4096];
    snprintf(layers, sizeof layers,
             "[{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":2,\"height\":2,%s}]", fields);
    make_map(2, 2, layers);
}

// ---------------------------------------------------------------------------
// Materials

/// A tileset whose tiles carry materials: 1 an icy FULL, 2 a FULL belt at
/// 2 units/s (clockwise as drawn), 3 a bouncy HALF_D mixed by max, 4 a
/// plain FULL, 5 a decoration tile with a friction of the game's own.
static const char *material_tileset(void) {
    return "[{\"firstgid\":1,\"name\":\"m\",\"tilecount\":6,\"tilewidth\":16,"
           "\"tileheight\":16,\"tiles\":["
           "{\"id\":1,\"properties\":[{\"name\":\"ledge_tile\",\"value\":\"FULL\"},"
           "{\"name\":\"friction\",\"type\":\"float\",\"value\":0.05}]},"
           "{\"id\":2,\"properties\":[{\"name\":\"ledge_tile\",\"value\":\"FULL\"},"
           "{\"name\":\"surface_speed\",\"type\":\"float\",\"value\":2}]},"
           "{\"id\":3,\"properties\":[{\"name\":\"ledge_tile\",\"value\":\"HALF_D\"},"
           "{\"name\":\"bounce\",\"type\":\"float\",\"value\":0.75},"
           "{\"name\":\"friction_mix\",\"type\":\"string\",\"value\":\"max\"}]},"
           "{\"id\":4,\"properties\":[{\"name\":\"ledge_tile\",\"value\":\"FULL\"}]},"
           "{\"id\":5,\"properties\":[{\"name\":\"friction\",\"type\":\"float\","
           "\"value\":0.5}]}]}]";
}

/// A 4 x 2 map of the material tileset: the top row on screen 0, gid 4
/// (bouncy, gid = id + 1), 0, gid 3 turned (diagonal + horizontal flip:
/// a rotation); the bottom row ice, belt, belt flipped, plain.
static const char *material_map(void) {
    char layers[1024];
    snprintf(layers, sizeof layers,
             "[{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":4,\"height\":2,"
             "\"data\":[0,4,6,%u,2,3,%u,5]}]",
             3u | FLIP_D | FLIP_H, 3u | FLIP_H);
    snprintf(g_map, sizeof g_map,
             "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"infinite\":false,"
             "\"width\":4,\"height\":2,\"tilewidth\":16,\"tileheight\":16,\"tilesets\":%s,"
             "\"layers\":%s}",
             material_tileset(), layers);
    return g_map;
}

static void expect_material(const ledge_tilemap *map, int x, int y, float f, float b, float s,
                            ledge_friction_mix mix) {
    assert_true(ledge_tilemap_cell_has_material(map, x, y));
    ledge_material m = ledge_tilemap_cell_material(map, x, y);
    if (!(near(m.friction, f) && near(m.bounce, b) && near(m.surface_speed, s) &&
          m.friction_mix == mix))
        fail_msg("cell (%d, %d): friction %g bounce %g speed %g mix %d, want %g %g %g %d", x, y,
                 (double)m.friction, (double)m.bounce, (double)m.surface_speed, (int)m.friction_mix,
                 (double)f, (double)b, (double)s, (int)mix);
}

// Tileset tile properties give the cells drawn with the tile their own
// material; a surface speed turns clockwise as drawn, so a flipped belt
// runs the other way, a turned one (two mirrors) the same way, and in
// Tiled's y-down frame (a mirror of material.h's tangent) the sign flips.
static void test_tile_materials(void **state) {
    (void)state;
    for (int y_down = 0; y_down < 2; ++y_down) {
        material_map();
        ledge_tiled_def def = ledge_default_tiled_def();
        def.y_down = y_down;
        // Into a map that had cells with materials of their own: the load
        // leaves exactly the map's.
        ledge_tilemap_def md = ledge_default_tilemap_def();
        md.width = 4;
        md.height = 2;
        ledge_tilemap *map = ledge_tilemap_create(&md);
        ledge_material old = ledge_default_material();
        old.bounce = 0.5f;
        ledge_tilemap_set_cell_material(map, 2, y_down ? 0 : 1, &old);
        assert_true(ledge_tiled_load_tilemap(map, g_map, strlen(g_map), &def));
        int bottom = y_down ? 1 : 0, top = 1 - bottom;
        float sign = y_down ? -1.0f : 1.0f;
        expect_material(map, 0, bottom, 0.05f, 0, 0, LEDGE_FRICTION_MIX_MIN);
        expect_material(map, 1, bottom, 1, 0, 2.0f * sign, LEDGE_FRICTION_MIX_MIN);
        expect_material(map, 2, bottom, 1, 0, -2.0f * sign, LEDGE_FRICTION_MIX_MIN);
        assert_false(ledge_tilemap_cell_has_material(map, 3, bottom)); // plain FULL
        expect_material(map, 1, top, 1, 0.75f, 0, LEDGE_FRICTION_MIX_MAX);
        assert_false(ledge_tilemap_cell_has_material(map, 2, top)); // decoration: EMPTY
        assert_int_equal(ledge_tilemap_get(map, 2, top), LEDGE_TILE_EMPTY);
        expect_material(map, 3, top, 1, 0, 2.0f * sign, LEDGE_FRICTION_MIX_MIN);
        ledge_tilemap_destroy(map);
    }
    // A world from it: a crate dropped on the belt cell is carried along it.
    material_map();
    ledge_tiled_result *r = NULL;
    ledge_world *w = ledge_tiled_create_world(g_map, strlen(g_map), NULL, &r);
    assert_non_null(w);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.2f, 0.2f}});
    bd.friction = 1.0f;
    bd.position = (vec2s){{2.5f, 1.2f}}; // on the flipped belt, under an empty cell
    ledge_body_id crate = ledge_body_create(w, &bd);
    for (int k = 0; k < 5; ++k) ledge_world_step(w, 1.0f / 60.0f);
    assert_true(fabsf(ledge_body_velocity(w, crate).x + 2.0f) < 1e-3f);
    ledge_tiled_result_destroy(r);
    ledge_world_destroy(w);
}

// Object properties surface_speed and friction_mix; bad values refused.
static void test_object_materials(void **state) {
    (void)state;
    for (int y_down = 0; y_down < 2; ++y_down) {
        objects_map("{\"id\":1,\"name\":\"belt\",\"x\":0,\"y\":0,\"width\":64,\"height\":8,"
                    "\"properties\":[{\"name\":\"surface_speed\",\"type\":\"float\","
                    "\"value\":1.5},{\"name\":\"friction_mix\",\"type\":\"string\","
                    "\"value\":\"min\"},{\"name\":\"friction\",\"type\":\"float\","
                    "\"value\":0.5}]}");
        ledge_tiled_def def = ledge_default_tiled_def();
        def.y_down = y_down;
        ledge_tiled_result *r = NULL;
        ledge_world *w = ledge_tiled_create_world(g_map, strlen(g_map), &def, &r);
        assert_non_null(w);
        const ledge_tiled_object *o = ledge_tiled_find_object(r, "belt");
        float want = y_down ? -1.5f : 1.5f;
        assert_true(near(o->surface_speed, want));
        assert_int_equal(o->friction_mix, LEDGE_FRICTION_MIX_MIN);
        ledge_material m = ledge_body_material(w, r->bodies[o->first_body]);
        assert_true(near(m.surface_speed, want) && near(m.friction, 0.5f));
        assert_int_equal(m.friction_mix, LEDGE_FRICTION_MIX_MIN);
        ledge_tiled_result_destroy(r);
        ledge_world_destroy(w);
    }
    const char *const cases[][3] = {
        {"{\"id\":1,\"name\":\"b\",\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":"
         "[{\"name\":\"friction_mix\",\"type\":\"string\",\"value\":\"rough\"}]}",
         "object 1 'b': property 'friction_mix' is \"rough\"", "\"mean\", \"min\" or \"max\""},
        {"{\"id\":1,\"name\":\"b\",\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":"
         "[{\"name\":\"friction_mix\",\"type\":\"int\",\"value\":1}]}",
         "object 1 'b': property 'friction_mix' must be a string", NULL},
        {"{\"id\":1,\"name\":\"b\",\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":"
         "[{\"name\":\"surface_speed\",\"type\":\"float\",\"value\":2e7}]}",
         "object 1 'b': property 'surface_speed' must be a number", "-1e+06..1e+06"},
        {"{\"id\":1,\"name\":\"b\",\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":"
         "[{\"name\":\"surface_speed\",\"type\":\"string\",\"value\":\"fast\"}]}",
         "object 1 'b': property 'surface_speed' must be a number", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        objects_map(cases[i][0]);
        refuse_world(cases[i][1], cases[i][2]);
    }
}

// Chain objects take material properties too: on top of the default
// level material (friction 1 mixed by min), the surface speed clockwise as
// drawn (on a floor: to the right, y up or y down); a crate on the belt
// is carried that way on screen. A bad value is refused as for a body.
static void test_chain_materials(void **state) {
    (void)state;
    for (int y_down = 0; y_down < 2; ++y_down) {
        objects_map("{\"id\":1,\"name\":\"belt\",\"x\":16,\"y\":64,\"polyline\":[{\"x\":0,"
                    "\"y\":0},{\"x\":128,\"y\":0}],\"properties\":[{\"name\":"
                    "\"surface_speed\",\"type\":\"float\",\"value\":1.5},{\"name\":"
                    "\"friction_mix\",\"type\":\"string\",\"value\":\"max\"},{\"name\":"
                    "\"friction\",\"type\":\"float\",\"value\":0.5}]},"
                    "{\"id\":2,\"name\":\"pad\",\"x\":16,\"y\":32,\"polyline\":[{\"x\":0,"
                    "\"y\":0},{\"x\":32,\"y\":0}],\"properties\":[{\"name\":\"bounce\","
                    "\"type\":\"float\",\"value\":0.75}]},"
                    "{\"id\":3,\"name\":\"plain\",\"x\":80,\"y\":32,\"polyline\":[{\"x\":0,"
                    "\"y\":0},{\"x\":32,\"y\":0}]}");
        ledge_tiled_def def = ledge_default_tiled_def();
        def.y_down = y_down;
        def.world.gravity = (vec2s){{0.0f, y_down ? 10.0f : -10.0f}};
        ledge_tiled_result *r = NULL;
        ledge_world *w = ledge_tiled_create_world(g_map, strlen(g_map), &def, &r);
        assert_non_null(w);
        const ledge_tiled_object *o = ledge_tiled_find_object(r, "belt");
        float want = y_down ? -1.5f : 1.5f;
        ledge_material m = ledge_chain_material(w, o->chain);
        assert_true(near(m.surface_speed, want) && near(m.friction, 0.5f) && m.bounce == 0.0f);
        assert_int_equal(m.friction_mix, LEDGE_FRICTION_MIX_MAX);
        assert_true(near(o->surface_speed, want));
        m = ledge_chain_material(w, ledge_tiled_find_object(r, "pad")->chain);
        ledge_material d = ledge_default_material();
        assert_true(near(m.bounce, 0.75f) && m.friction == d.friction &&
                    m.friction_mix == d.friction_mix && m.surface_speed == 0.0f);
        m = ledge_chain_material(w, ledge_tiled_find_object(r, "plain")->chain);
        assert_memory_equal(&m, &d, sizeof m);
        // A crate dropped on the belt goes right on screen (+x either way).
        ledge_body_def bd = ledge_default_body_def();
        bd.shape = ledge_make_box((vec2s){{0, 0}}, (vec2s){{0.25f, 0.25f}});
        vec2s at = o->position;
        bd.position = (vec2s){{at.x, at.y + (y_down ? -0.5f : 0.5f)}};
        ledge_body_id crate = ledge_body_create(w, &bd);
        for (int k = 0; k < 120; ++k) ledge_world_step(w, 1.0f / 60.0f);
        assert_true(near(ledge_body_velocity(w, crate).x, 1.5f));
        ledge_tiled_result_destroy(r);
        ledge_world_destroy(w);
    }
    const char *const cases[][3] = {
        {"{\"id\":1,\"name\":\"c\",\"x\":0,\"y\":8,\"polyline\":[{\"x\":0,\"y\":0},"
         "{\"x\":8,\"y\":0}],\"properties\":[{\"name\":\"friction\",\"type\":\"float\","
         "\"value\":1.5}]}",
         "object 1 'c': property 'friction'", NULL},
        {"{\"id\":1,\"name\":\"c\",\"x\":0,\"y\":8,\"polyline\":[{\"x\":0,\"y\":0},"
         "{\"x\":8,\"y\":0}],\"properties\":[{\"name\":\"friction_mix\",\"type\":"
         "\"string\",\"value\":\"rough\"}]}",
         "object 1 'c': property 'friction_mix' is \"rough\"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        objects_map(cases[i][0]);
        refuse_world(cases[i][1], cases[i][2]);
    }
}

static void test_refuses_bad_materials(void **state) {
    (void)state;
    const char *layers = "[{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":2,\"height\":2,"
                         "\"data\":[2,0,0,0]}]";
    const char *const cases[][3] = {
        {"[{\"firstgid\":1,\"tilecount\":2,\"tiles\":[{\"id\":1,\"properties\":[{\"name\":"
         "\"ledge_tile\",\"value\":1},{\"name\":\"friction\",\"type\":\"float\",\"value\":"
         "1.5}]}]}]",
         "tileset 0 '', tile 1: property 'friction' is the number 1.5", "must be a number 0..1"},
        {"[{\"firstgid\":1,\"tilecount\":2,\"tiles\":[{\"id\":1,\"properties\":[{\"name\":"
         "\"ledge_tile\",\"value\":1},{\"name\":\"bounce\",\"type\":\"int\",\"value\":-1}]}"
         "]}]",
         "tile 1: property 'bounce' is the integer -1", "must be a number 0..1"},
        {"[{\"firstgid\":1,\"tilecount\":2,\"tiles\":[{\"id\":1,\"properties\":[{\"name\":"
         "\"ledge_tile\",\"value\":1},{\"name\":\"surface_speed\",\"type\":\"string\","
         "\"value\":\"fast\"}]}]}]",
         "tile 1: property 'surface_speed' is a string", "-1e+06..1e+06"},
        {"[{\"firstgid\":1,\"tilecount\":2,\"tiles\":[{\"id\":1,\"properties\":[{\"name\":"
         "\"ledge_tile\",\"value\":1},{\"name\":\"friction_mix\",\"type\":\"string\","
         "\"value\":\"MAX\"}]}]}]",
         "tile 1: property 'friction_mix' is a string", "\"mean\", \"min\" or \"max\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        snprintf(g_map, sizeof g_map,
                 "{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":8,"
                 "\"tileheight\":8,\"tilesets\":%s,\"layers\":%s}",
                 cases[i][0], layers);
        refuse_tilemap(cases[i][1], cases[i][2], NULL);
    }
    // Two tile layers giving one cell the same tile with two materials.
    char two[1024];
    snprintf(two, sizeof two,
             "[{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":4,\"height\":2,"
             "\"data\":[0,0,0,0,2,0,0,0]},{\"type\":\"tilelayer\",\"name\":\"b\","
             "\"width\":4,\"height\":2,\"data\":[0,0,0,0,3,0,0,0]}]");
    snprintf(g_map, sizeof g_map,
             "{\"orientation\":\"orthogonal\",\"width\":4,\"height\":2,\"tilewidth\":16,"
             "\"tileheight\":16,\"tilesets\":%s,\"layers\":%s}",
             material_tileset(), two);
    refuse_world("the tile layers give the cell at column 0, row 1 two different materials", NULL);
}

static void test_refuses_bad_json_and_headers(void **state) {
    (void)state;
    snprintf(g_map, sizeof g_map, "{\"orientation\":\"orthogonal\",\n \"width\": 2,,}");
    refuse_tilemap("line 2, column", "not valid JSON", NULL);
    snprintf(g_map, sizeof g_map, "{\"width\":1,\"width\":2}");
    refuse_tilemap("duplicate", NULL, NULL);
    snprintf(g_map, sizeof g_map, "[1, 2]");
    refuse_tilemap("not a JSON object", NULL, NULL);
    snprintf(g_map, sizeof g_map, "{\"orientation\":\"isometric\",\"width\":2,\"height\":2}");
    refuse_tilemap("orientation", "isometric", NULL);
    snprintf(g_map, sizeof g_map, "{\"orientation\":\"orthogonal\",\"infinite\":true}");
    refuse_tilemap("infinite", NULL, NULL);
    snprintf(g_map, sizeof g_map, "{\"orientation\":\"orthogonal\",\"width\":\"2\"}");
    refuse_tilemap("\"width\" is a string", NULL, NULL);
    snprintf(g_map, sizeof g_map,
             "{\"orientation\":\"orthogonal\",\"width\":65536,\"height\":65536,"
             "\"tilewidth\":8,\"tileheight\":8}");
    refuse_tilemap("4294967296 cells", "at most", NULL);
    snprintf(g_map, sizeof g_map,
             "{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":8,"
             "\"tileheight\":16}");
    refuse_tilemap("8 x 16 pixels", "square", NULL);
    make_map(3, 2, "[]");
    refuse_tilemap("3 x 2 cells", "tilemap is 2 x 2", NULL);
    snprintf(g_map, sizeof g_map,
             "{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":8,"
             "\"tileheight\":8}");
    refuse_tilemap("no \"layers\"", NULL, NULL);
    make_map(2, 2, "[{\"type\":\"objectgroup\",\"name\":\"o\",\"objects\":[]}]");
    refuse_tilemap("no tile layer", NULL, NULL);
    layer_map("\"data\":[0,0,0,0]");
    ledge_tiled_def def = ledge_default_tiled_def();
    def.tile_layer = "walls";
    refuse_tilemap("no tile layer named 'walls'", NULL, &def);
    make_map(2, 2, "[{\"type\":\"parallax\",\"name\":\"p\"}]");
    refuse_tilemap("layer 0 'p'", "\"parallax\" is unknown", NULL);
    def = ledge_default_tiled_def();
    def.world.tile_size = 0;
    layer_map("\"data\":[0,0,0,0]");
    ledge_tilemap *m;
    log_capture_start();
    m = ledge_tiled_create_tilemap(g_map, strlen(g_map), &def);
    assert_null(m);
    assert_true(log_capture_says("ledge_tiled_create_tilemap: tile_size is 0", NULL));
    ledge_set_log_hook(NULL, NULL);
}

static void test_refuses_bad_tile_data(void **state) {
    (void)state;
    layer_map("\"data\":[1,2,3]");
    refuse_tilemap("layer 0 'ground'", "has 3 tiles (must be width x height = 2 x 2 = 4)", NULL);
    layer_map("\"data\":[1,2,\"x\",4]");
    refuse_tilemap("tile 2 (column 0, row 1) is a string", NULL, NULL);
    layer_map("\"data\":[1,2,4294967296,4]");
    refuse_tilemap("tile 2", "4294967296", NULL);
    layer_map("\"data\":[1,99,0,0]");
    refuse_tilemap("tile 1 (column 1, row 0) has gid 99", "no tileset", NULL);
    layer_map("\"data\":[1,0,0,268435458]"); // 0x10000002: hexagonal rotation
    refuse_tilemap("tile 3 (column 1, row 1)", "hexagonal", NULL);
    layer_map("\"encoding\":\"base64\",\"data\":\"AAAA*AAA\"");
    refuse_tilemap("bad character at offset 4", NULL, NULL);
    layer_map("\"encoding\":\"base64\",\"data\":\"AAAAAAA\"");
    refuse_tilemap("7 characters", "multiple of 4", NULL);
    layer_map("\"encoding\":\"base64\",\"data\":\"AAAAAAAAAAA=\"");
    refuse_tilemap("holds 8 bytes", "16", NULL);
    layer_map("\"encoding\":\"base64\",\"compression\":\"zstd\",\"data\":\"AAAA\"");
    refuse_tilemap("\"zstd\" is not supported", NULL, NULL);
    layer_map("\"encoding\":\"csv\",\"data\":\"AAAA\"");
    refuse_tilemap("is a string with encoding \"csv\"", NULL, NULL);
    layer_map("\"chunks\":[]");
    refuse_tilemap("chunks", "infinite", NULL);
    layer_map("\"offsetx\":4,\"data\":[0,0,0,0]");
    refuse_tilemap("offset by (4, 0)", NULL, NULL);
    make_map(2, 2,
             "[{\"type\":\"tilelayer\",\"name\":\"w\",\"width\":3,\"height\":2,"
             "\"data\":[0,0,0,0,0,0]}]");
    refuse_tilemap("\"width\" is the integer 3", "2..2", NULL);

    // Compressed streams that are corrupt, short, long, or followed by junk.
    uint32_t gids[6] = {1, 2, 3, 4, 5, 6};
    unsigned char z[256];
    char b64[512], fields[1024];
    size_t n = pack(gids, 4, ENC_ZLIB, z, sizeof z);
    z[n / 2] ^= 0x55;
    base64(z, n, b64);
    snprintf(fields, sizeof fields, "%s,\"data\":\"%s\"", enc_fields[ENC_ZLIB], b64);
    layer_map(fields);
    refuse_tilemap("zlib data", "corrupt", NULL);
    n = pack(gids, 4, ENC_ZLIB, z, sizeof z);
    base64(z, n - 6, b64);
    snprintf(fields, sizeof fields, "%s,\"data\":\"%s\"", enc_fields[ENC_ZLIB], b64);
    layer_map(fields);
    refuse_tilemap("zlib data is truncated", NULL, NULL);
    n = pack(gids, 6, ENC_GZIP, z, sizeof z);
    base64(z, n, b64);
    snprintf(fields, sizeof fields, "%s,\"data\":\"%s\"", enc_fields[ENC_GZIP], b64);
    layer_map(fields);
    refuse_tilemap("gzip data holds more than 16 bytes", NULL, NULL);
    n = pack(gids, 3, ENC_ZLIB, z, sizeof z);
    base64(z, n, b64);
    snprintf(fields, sizeof fields, "%s,\"data\":\"%s\"", enc_fields[ENC_ZLIB], b64);
    layer_map(fields);
    refuse_tilemap("zlib data holds 12 bytes of tiles", "must be 16", NULL);
    n = pack(gids, 4, ENC_ZLIB, z, sizeof z);
    z[n] = 0;
    z[n + 1] = 0;
    z[n + 2] = 0;
    base64(z, n + 3, b64);
    snprintf(fields, sizeof fields, "%s,\"data\":\"%s\"", enc_fields[ENC_ZLIB], b64);
    layer_map(fields);
    refuse_tilemap("3 bytes after the end", NULL, NULL);

    // Two layers that disagree about a cell.
    make_map(2, 2,
             "[{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":2,\"height\":2,"
             "\"data\":[0,2,0,0]},{\"type\":\"tilelayer\",\"name\":\"b\",\"width\":2,"
             "\"height\":2,\"data\":[0,3,0,0]}]");
    refuse_tilemap("layer 1 'b': tile 1 (column 1, row 0) is 45DEG_PP", "earlier", NULL);
}

static void test_refuses_bad_tilesets(void **state) {
    (void)state;
    const char *layers = "[{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":2,\"height\":2,"
                         "\"data\":[0,0,0,0]}]";
    const char *const cases[][3] = {
        {"[{\"firstgid\":1,\"tilecount\":2,\"tiles\":[{\"id\":0,\"properties\":[{\"name\":"
         "\"ledge_tile\",\"type\":\"int\",\"value\":40}]}]}]",
         "tileset 0 '', tile 0", "ledge_tile is the integer 40"},
        {"[{\"firstgid\":1,\"tilecount\":2,\"tiles\":[{\"id\":1,\"properties\":[{\"name\":"
         "\"ledge_tile\",\"type\":\"string\",\"value\":\"SLOPE\"}]}]}]",
         "tile 1: ledge_tile \"SLOPE\"", "not a tile name"},
        {"[{\"firstgid\":1,\"tilecount\":4},{\"firstgid\":3,\"tilecount\":2}]",
         "tileset 1 '': firstgid 3 overlaps tileset 0", "1..4"},
        {"[{\"firstgid\":1,\"tilecount\":2,\"tiles\":[{\"id\":1,\"properties\":[{\"name\":"
         "\"ledge_tile\",\"value\":1}]},{\"id\":1,\"properties\":[{\"name\":\"ledge_tile\","
         "\"value\":2}]}]}]",
         "tile 1 is listed twice", NULL},
        {"[{\"firstgid\":1,\"tilecount\":99999999}]", "\"tilecount\"", "99999999"},
        {"[{\"firstgid\":0,\"tilecount\":2}]", "tileset 0", "\"firstgid\" is the integer 0"},
        {"[{\"firstgid\":1,\"source\":\"ext.tsj\"}]", "\"ext.tsj\"", "needs def->resolve"},
        {"[{\"firstgid\":1,\"source\":\"none.tsj\"}]", "resolver found no \"none.tsj\"", NULL},
        {"[{\"firstgid\":1,\"source\":\"old.tsx\"}]", "XML tileset", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        snprintf(g_map, sizeof g_map,
                 "{\"orientation\":\"orthogonal\",\"width\":2,\"height\":2,\"tilewidth\":8,"
                 "\"tileheight\":8,\"tilesets\":%s,\"layers\":%s}",
                 cases[i][0], layers);
        ledge_tiled_def def = ledge_default_tiled_def();
        if (i >= 7) def.resolve = resolve_table;
        refuse_tilemap(cases[i][1], cases[i][2], &def);
    }
}

#define LINE "{\"id\":4,\"x\":0,\"y\":0,\"polyline\":[{\"x\":0,\"y\":0},{\"x\":16,\"y\":0}]"
#define SQUARE                                                                                     \
    "{\"id\":4,\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":16,\"y\":0},"                 \
    "{\"x\":16,\"y\":16},{\"x\":0,\"y\":16}]"

/// A map whose only object is a polygon or polyline of n points on a
/// circle.
static void many_points_map(const char *kind, int n, const char *props) {
    size_t cap = (size_t)n * 48 + 1024;
    char *objects = malloc(cap), *layers = malloc(cap + 1024), zeros[256] = "0";
    for (int i = 1; i < 100; ++i) strcat(zeros, ",0");
    int k = snprintf(objects, cap, "{\"id\":4,\"x\":80,\"y\":80,\"%s\":[", kind);
    for (int i = 0; i < n; ++i) {
        double a = 6.283185307179586 * i / n;
        k += snprintf(objects + k, cap - (size_t)k, "%s{\"x\":%.6f,\"y\":%.6f}", i ? "," : "",
                      60 * cos(a), 60 * sin(a));
    }
    snprintf(objects + k, cap - (size_t)k, "]%s}", props);
    snprintf(layers, cap + 1024,
             "[{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":10,\"height\":10,"
             "\"data\":[%s]},{\"type\":\"objectgroup\",\"name\":\"things\",\"objects\":[%s]}]",
             zeros, objects);
    make_map(10, 10, layers);
    free(objects);
    free(layers);
}

static void test_refuses_bad_objects(void **state) {
    (void)state;
    const char *const cases[][3] = {
        {"{\"id\":4,\"name\":\"rope\",\"x\":0,\"y\":0,\"polyline\":[{\"x\":0,\"y\":0}]}",
         "layer 1 'things', object 4 'rope'", "polyline has 1 points (must be 2..4096)"},
        {LINE ",\"properties\":[" PROP_S("facing", "sideways") "]}",
         "property 'facing' must be up, down, left or right", NULL},
        {SQUARE ",\"properties\":[{\"name\":\"chain\",\"type\":\"bool\",\"value\":true}," PROP_S(
             "solid", "middle") "]}",
         "property 'solid' must be inside or outside", NULL},
        {SQUARE ",\"properties\":[" PROP_S("chain", "yes") "]}", "'chain' must be a bool", NULL},
        {"{\"id\":4,\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":[{\"name\":\"chain\","
         "\"type\":\"bool\",\"value\":true}]}",
         "object 4", "only a polygon or polyline can be a chain"},
        {LINE ",\"properties\":[{\"name\":\"chain\",\"type\":\"bool\",\"value\":false}]}",
         "a polyline is always a chain", NULL},
        {LINE ",\"properties\":[" PROP_S("body", "dynamic") "]}", "object 4",
         "static or kinematic, never dynamic"},
        {LINE ",\"type\":\"sensor\"}", "object 4", "never a sensor"},
        {LINE ",\"properties\":[{\"name\":\"one_way\",\"type\":\"bool\",\"value\":true}]}",
         "object 4", "never one-way"},
        {LINE ",\"properties\":[{\"name\":\"path\",\"type\":\"object\",\"value\":9}]}",
         "object 4 '': property 'path' names object 9, which the map does not have", NULL},
        {LINE ",\"properties\":[{\"name\":\"path\",\"type\":\"object\",\"value\":5}]},"
              "{\"id\":5,\"x\":0,\"y\":0,\"width\":8,\"height\":8}",
         "names object 5, which is not a path", NULL},
        {LINE ",\"properties\":[" PROP_S("path", "5") "]}", "property 'path' must be an object",
         NULL},
        {"{\"id\":4,\"x\":0,\"y\":0,\"polyline\":[{\"x\":3,\"y\":3},{\"x\":3,\"y\":3}]}",
         "the world refused the chain of object 4", NULL},
        {"{\"id\":4,\"template\":\"a.tx\",\"x\":0,\"y\":0}", "object 4", "template"},
        {"{\"id\":4,\"x\":0,\"y\":0,\"width\":16,\"height\":8,\"ellipse\":true}", "16 x 8",
         "only circles"},
        {"{\"id\":4,\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":1,\"y\":1}]}",
         "polygon has 2 points", NULL},
        {"{\"id\":4,\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":16,\"y\":16},"
         "{\"x\":16,\"y\":0},{\"x\":0,\"y\":16}]}",
         "object 4", "not simple"},
        {"{\"id\":4,\"x\":0,\"y\":0,\"polygon\":[{\"x\":0,\"y\":0},{\"x\":48,\"y\":0},"
         "{\"x\":48,\"y\":16},{\"x\":16,\"y\":16},{\"x\":16,\"y\":48},{\"x\":0,\"y\":48}],"
         "\"properties\":[{\"name\":\"body\",\"value\":\"dynamic\"}]}",
         "dynamic polygon", "convex"},
        {"{\"id\":4,\"x\":0,\"y\":0,\"width\":0,\"height\":8}", "size is 0 x 8", NULL},
        {"{\"id\":4,\"x\":1e8,\"y\":0,\"width\":8,\"height\":8}", "object 4", "beyond"},
        {"{\"id\":4,\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":[{\"name\":"
         "\"body\",\"value\":\"ghost\"}]}",
         "property 'body' is \"ghost\"", NULL},
        {"{\"id\":4,\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":[{\"name\":"
         "\"friction\",\"type\":\"float\",\"value\":1.5}]}",
         "'friction' must be a number 0..1", NULL},
        {"{\"id\":4,\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":[{\"name\":"
         "\"one_way\",\"type\":\"bool\",\"value\":\"yes\"}]}",
         "'one_way' of type bool has the value a string", NULL},
        {"{\"id\":4,\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":[{\"name\":"
         "\"one_way\",\"type\":\"string\",\"value\":\"yes\"}]}",
         "'one_way' must be a bool", NULL},
        {"{\"id\":4,\"x\":0,\"y\":0,\"width\":8,\"height\":8,\"properties\":[{\"name\":"
         "\"x\",\"type\":\"vector\",\"value\":1}]}",
         "type \"vector\"", NULL},
        {"{\"id\":\"4\",\"x\":0,\"y\":0}", "layer 1 'things'", "\"id\" is a string"},
        {"{\"id\":4,\"y\":0}", "object 4", "no \"x\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        objects_map(cases[i][0]);
        refuse_world(cases[i][1], cases[i][2]);
    }
    // Polylines of up to 4096 points; a polygon of bodies up to 256, of a
    // chain up to 4096.
    many_points_map("polyline", LEDGE_TILED_MAX_CHAIN_POINTS + 1, "");
    refuse_world("object 4", "polyline has 4097 points (must be 2..4096)");
    many_points_map("polygon", 300, "");
    refuse_world("polygon has 300 points", "make it a chain with the property 'chain'");
    const char *const chain_prop =
        ",\"properties\":[{\"name\":\"chain\",\"type\":\"bool\",\"value\":true}]";
    for (int k = 0; k < 2; ++k) {
        many_points_map(k ? "polygon" : "polyline", LEDGE_TILED_MAX_CHAIN_POINTS,
                        k ? chain_prop : "");
        ledge_tiled_result *r = NULL;
        ledge_world *w = ledge_tiled_create_world(g_map, strlen(g_map), NULL, &r);
        assert_non_null(w);
        assert_int_equal(ledge_chain_segment_count(w, r->objects[0].chain),
                         LEDGE_TILED_MAX_CHAIN_POINTS - 1 + k);
        ledge_tiled_result_destroy(r);
        ledge_world_destroy(w);
    }
    // A refused chain takes back what the load made: the world keeps only
    // its own body, chain and tiles.
    char objects[8192];
    snprintf(objects, sizeof objects,
             "%s,{\"id\":9,\"x\":0,\"y\":0,\"polyline\":[{\"x\":3,\"y\":3},{\"x\":3,"
             "\"y\":3}]}",
             chain_objects);
    objects_map(objects);
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 10;
    wd.map_height = 10;
    ledge_world *w = ledge_world_create(&wd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.5f);
    ledge_body_create(w, &bd);
    vec2s two[2] = {{{0, 0}}, {{1, 0}}};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = two;
    cd.count = 2;
    assert_true(ledge_chain_is_valid(w, ledge_chain_create(w, &cd)));
    ledge_tiled_result *r = NULL;
    log_capture_start();
    assert_false(ledge_tiled_load_world(w, g_map, strlen(g_map), NULL, &r));
    assert_true(log_capture_says("ledge_tiled_load_world: ", "refused the chain of object 9"));
    ledge_set_log_hook(NULL, NULL);
    assert_null(r);
    assert_int_equal(ledge_world_body_count(w), 1);
    assert_int_equal(ledge_world_chain_count(w), 1);
    assert_int_equal(ledge_tilemap_get(ledge_world_tilemap(w), 0, 0), LEDGE_TILE_EMPTY);
    ledge_world_destroy(w);

    // Group layers nest at most LEDGE_TILED_MAX_GROUP_DEPTH deep.
    char layers[4096] = "";
    for (int i = 0; i < LEDGE_TILED_MAX_GROUP_DEPTH + 1; ++i) {
        strcat(layers, "{\"type\":\"group\",\"name\":\"g\",\"layers\":[");
    }
    for (int i = 0; i < LEDGE_TILED_MAX_GROUP_DEPTH + 1; ++i) strcat(layers, "]}");
    char wrapped[4200];
    snprintf(wrapped, sizeof wrapped, "[%s]", layers);
    make_map(2, 2, wrapped);
    refuse_world("nest deeper than 16", NULL);
}

static void test_refuses_null_arguments(void **state) {
    (void)state;
    log_capture_start();
    assert_false(ledge_tiled_load_tilemap(NULL, "{}", 2, NULL));
    assert_true(log_capture_says("ledge_tiled_load_tilemap: map is NULL", NULL));
    assert_null(ledge_tiled_create_world(NULL, 0, NULL, NULL));
    assert_true(log_capture_says("ledge_tiled_create_world: json is NULL", NULL));
    assert_false(ledge_tiled_load_world(NULL, "{}", 2, NULL, NULL));
    assert_true(log_capture_says("ledge_tiled_load_world: world is NULL", NULL));
    assert_null(ledge_tiled_create_world_file("/nonexistent/level.tmj", NULL, NULL));
    assert_true(log_capture_says("cannot open \"/nonexistent/level.tmj\"", NULL));
    assert_null(ledge_tiled_create_tilemap_file(NULL, NULL));
    assert_true(log_capture_says("path is NULL", NULL));
    ledge_set_log_hook(NULL, NULL);
    ledge_tiled_result_destroy(NULL);
}

// ---------------------------------------------------------------------------
// The sample level

#ifndef LEDGE_SAMPLES_DIR
#define LEDGE_SAMPLES_DIR "samples"
#endif

/// Counts from the level's drawing in samples/make_tiled_level.py (counted
/// there by glyph): full 234, 45 degree 7, concave 1, convex 2, 22 small 2,
/// 22 big 2, 67 small 2, 67 big 2, half 22; 10 objects.
static void test_sample_level(void **state) {
    (void)state;
    ledge_tiled_result *r = NULL;
    ledge_world *w = ledge_tiled_create_world_file(LEDGE_SAMPLES_DIR "/level.tmj", NULL, &r);
    assert_non_null(w);
    static const int expect[10] = {526, 234, 7, 1, 2, 2, 2, 2, 2, 22};
    int groups[10] = {0};
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        groups[ledge_tile_group_of((ledge_tile)t)] += r->tile_counts[t];
    }
    for (int g = 0; g < 10; ++g) assert_int_equal(groups[g], expect[g]);
    assert_int_equal(r->width, 40);
    assert_int_equal(r->height, 20);
    ledge_tilemap *map = ledge_world_tilemap(w);
    // Tiled row 13, column 38: the 67 degree tile written as a transposed
    // 22 degree one; it rises to the right, facing up-left in y-up.
    assert_int_equal(ledge_tilemap_get(map, 38, 20 - 1 - 13), LEDGE_TILE_67DEG_SMALL_NP);
    assert_int_equal(ledge_tilemap_get(map, 1, 20 - 1 - 1), LEDGE_TILE_45DEG_PN); // ceiling
    assert_int_equal(ledge_tilemap_get(map, 4, 20 - 1 - 16), LEDGE_TILE_EMPTY);   // a flower
    assert_int_equal(r->object_count, 10);
    assert_int_equal(r->body_count, ledge_world_body_count(w));
    const ledge_tiled_object *rock = ledge_tiled_find_object(r, "rock");
    assert_int_equal(rock->shape, LEDGE_TILED_POLYGON);
    assert_true(rock->body_count >= 2);
    float area = 0;
    for (int i = 0; i < rock->body_count; ++i) {
        area += ledge_shape_area(ledge_body_shape(w, r->bodies[rock->first_body + i]));
    }
    assert_true(fabsf(area - 3) < 1e-4f);
    assert_true(ledge_tiled_find_object(r, "bridge")->one_way);
    assert_true(ledge_tiled_find_object(r, "pit")->sensor);
    assert_int_equal(ledge_tiled_find_object(r, "lift")->body_type, LEDGE_BODY_KINEMATIC);
    assert_int_equal(ledge_tiled_find_object(r, "spawn")->shape, LEDGE_TILED_POINT);
    ledge_tiled_result_destroy(r);
    ledge_world_destroy(w);
}

// ---------------------------------------------------------------------------
// Allocation failures

static int g_allocs_left;

static void *failing_alloc(size_t size, void *user) {
    (void)user;
    if (g_allocs_left-- <= 0) return NULL;
    return malloc(size);
}

static void plain_free(void *p, void *user) {
    (void)user;
    free(p);
}

static void quiet(ledge_log_level level, const char *message, void *user) {
    (void)level, (void)message, (void)user;
}

/// Every allocation of a sample level load fails in turn: each load must
/// fail cleanly (LeakSanitizer checks nothing leaks), until one succeeds.
static void test_allocation_failures_leak_nothing(void **state) {
    (void)state;
    ledge_set_log_hook(quiet, NULL);
    ledge_set_allocator(failing_alloc, plain_free, NULL);
    int budget = 0;
    ledge_world *w = NULL;
    ledge_tiled_result *r = NULL;
    for (; budget < 10000 && w == NULL; ++budget) {
        g_allocs_left = budget;
        w = ledge_tiled_create_world_file(LEDGE_SAMPLES_DIR "/level.tmj", NULL, &r);
        if (w == NULL) assert_null(r);
    }
    assert_non_null(w);
    assert_true(budget > 20); // the load did allocate, and failed on the way
    ledge_tiled_result_destroy(r);
    ledge_world_destroy(w);
    // Materials into an existing map: every failure leaves it as it was
    // (its tiles, and its one cell with a material of its own).
    ledge_set_allocator(NULL, NULL, NULL);
    ledge_tilemap_def md = ledge_default_tilemap_def();
    md.width = 4;
    md.height = 2;
    ledge_tilemap *map = ledge_tilemap_create(&md);
    ledge_material own = ledge_default_material();
    own.bounce = 0.5f;
    ledge_tilemap_set_cell_material(map, 3, 1, &own);
    material_map();
    ledge_set_allocator(failing_alloc, plain_free, NULL);
    bool ok = false;
    for (budget = 0; budget < 10000 && !ok; ++budget) {
        g_allocs_left = budget;
        ok = ledge_tiled_load_tilemap(map, g_map, strlen(g_map), NULL);
        if (ok) break;
        assert_int_equal(ledge_tilemap_get(map, 0, 0), LEDGE_TILE_EMPTY);
        assert_true(ledge_tilemap_cell_material(map, 3, 1).bounce == 0.5f);
        assert_false(ledge_tilemap_cell_has_material(map, 0, 0));
    }
    assert_true(ok && budget > 3);
    assert_true(ledge_tilemap_cell_material(map, 3, 1).bounce == 0.0f); // the map's belt now
    assert_true(ledge_tilemap_cell_has_material(map, 0, 0));
    ledge_set_allocator(NULL, NULL, NULL);
    ledge_tilemap_destroy(map);
    ledge_set_log_hook(NULL, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flip_is_the_mirrored_geometry),
        cmocka_unit_test(test_negate_sy_oracle_is_a_vertical_mirror),
        cmocka_unit_test(test_hand_written_map_y_up_and_y_down),
        cmocka_unit_test(test_encodings_round_trip),
        cmocka_unit_test(test_names_layers_and_selection),
        cmocka_unit_test(test_external_tileset_through_resolver),
        cmocka_unit_test(test_objects_become_bodies),
        cmocka_unit_test(test_object_properties),
        cmocka_unit_test(test_y_down_objects_and_load_world),
        cmocka_unit_test(test_polylines_become_chains),
        cmocka_unit_test(test_chain_meets_tiles),
        cmocka_unit_test(test_tile_materials),
        cmocka_unit_test(test_object_materials),
        cmocka_unit_test(test_chain_materials),
        cmocka_unit_test(test_refuses_bad_materials),
        cmocka_unit_test(test_refuses_bad_json_and_headers),
        cmocka_unit_test(test_refuses_bad_tile_data),
        cmocka_unit_test(test_refuses_bad_tilesets),
        cmocka_unit_test(test_refuses_bad_objects),
        cmocka_unit_test(test_refuses_null_arguments),
        cmocka_unit_test(test_sample_level),
        cmocka_unit_test(test_allocation_failures_leak_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
