// The tilemap's text loaders: N's level string and ledge's ASCII form.
// Random maps written by writers in this file (with their own glyph legend,
// copied from docs/tilemap.md by tile name) must load back cell for cell;
// every refusal must leave the map untouched and name the position; the
// shipped crowd map must load and hold every tile group.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "log_capture.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------
// The legend of docs/tilemap.md, by tile name, with the direction the tile's
// open side faces in a y-up view (the signs of its surface normal) as the
// legend describes it: a floor faces up (+y), a ceiling down.

typedef struct legend_row {
    char glyph;
    const char *name;
    int fx, fy; // facing; (0, 0) for EMPTY and FULL
} legend_row;

static const legend_row legend[] = {
    {'.', "EMPTY", 0, 0},
    {'#', "FULL", 0, 0},
    {'/', "45DEG_NP", -1, 1},
    {'\\', "45DEG_PP", 1, 1},
    {'N', "45DEG_NN", -1, -1},
    {'Z', "45DEG_PN", 1, -1},
    {'<', "22DEG_SMALL_NP", -1, 1},
    {'d', "22DEG_BIG_NP", -1, 1},
    {'b', "22DEG_BIG_PP", 1, 1},
    {'>', "22DEG_SMALL_PP", 1, 1},
    {'\'', "22DEG_SMALL_NN", -1, -1},
    {'q', "22DEG_BIG_NN", -1, -1},
    {'p', "22DEG_BIG_PN", 1, -1},
    {'`', "22DEG_SMALL_PN", 1, -1},
    {'D', "67DEG_BIG_NP", -1, 1},
    {'j', "67DEG_SMALL_NP", -1, 1},
    {'B', "67DEG_BIG_PP", 1, 1},
    {'l', "67DEG_SMALL_PP", 1, 1},
    {'Q', "67DEG_BIG_NN", -1, -1},
    {'1', "67DEG_SMALL_NN", -1, -1},
    {'P', "67DEG_BIG_PN", 1, -1},
    {'f', "67DEG_SMALL_PN", 1, -1},
    {'(', "CONVEX_NP", -1, 1},
    {')', "CONVEX_PP", 1, 1},
    {'{', "CONVEX_NN", -1, -1},
    {'}', "CONVEX_PN", 1, -1},
    {'J', "CONCAVE_NP", -1, 1},
    {'L', "CONCAVE_PP", 1, 1},
    {'7', "CONCAVE_NN", -1, -1},
    {'F', "CONCAVE_PN", 1, -1},
    {'_', "HALF_U", 0, 1},
    {'"', "HALF_D", 0, -1},
    {'[', "HALF_L", 1, 0},
    {']', "HALF_R", -1, 0},
};
#define LEGEND_SIZE ((int)(sizeof legend / sizeof legend[0]))

static char glyph_of[LEDGE_TILE_COUNT]; // by tile id, filled from the legend
static int tile_of_glyph[256];          // -1 when not a glyph

static int setup_legend(void **state) {
    (void)state;
    for (int c = 0; c < 256; ++c) tile_of_glyph[c] = -1;
    memset(glyph_of, 0, sizeof glyph_of);
    for (int i = 0; i < LEGEND_SIZE; ++i) {
        int id = ledge_tile_from_name(legend[i].name);
        if (id < 0 || glyph_of[id] != 0 || tile_of_glyph[(unsigned char)legend[i].glyph] >= 0) {
            return -1; // a typo in the legend: a name twice, a glyph twice
        }
        glyph_of[id] = legend[i].glyph;
        tile_of_glyph[(unsigned char)legend[i].glyph] = id;
    }
    return 0;
}

// ---------------------------------------------------------------------------
// Helpers

static ledge_tilemap *make_map(int w, int h) {
    ledge_tilemap_def def = ledge_default_tilemap_def();
    def.width = w;
    def.height = h;
    ledge_tilemap *m = ledge_tilemap_create(&def);
    assert_non_null(m);
    return m;
}

static ledge_tile random_tile(void) {
    return (ledge_tile)rng_int(0, LEDGE_TILE_COUNT - 1);
}

/// Fills the map with random tiles through ledge_tilemap_set.
static void fill_random(ledge_tilemap *m, ledge_tile *cells) {
    ledge_tilemap_def d = ledge_tilemap_get_def(m);
    for (int y = 0; y < d.height; ++y) {
        for (int x = 0; x < d.width; ++x) {
            ledge_tile t = random_tile();
            if (cells) cells[y * d.width + x] = t;
            assert_true(ledge_tilemap_set(m, x, y, t));
        }
    }
}

/// Everything observable about a map's cells: tiles and the four edges.
typedef struct snapshot {
    int w, h;
    uint8_t *data;
} snapshot;

static snapshot take(const ledge_tilemap *m) {
    ledge_tilemap_def d = ledge_tilemap_get_def(m);
    snapshot s = {d.width, d.height, malloc((size_t)d.width * d.height * 5)};
    assert_non_null(s.data);
    static const ledge_side sides[4] = {LEDGE_SIDE_XNEG, LEDGE_SIDE_XPOS, LEDGE_SIDE_YNEG,
                                        LEDGE_SIDE_YPOS};
    uint8_t *p = s.data;
    for (int y = 0; y < d.height; ++y) {
        for (int x = 0; x < d.width; ++x) {
            *p++ = ledge_tilemap_get(m, x, y);
            for (int k = 0; k < 4; ++k) *p++ = (uint8_t)ledge_tilemap_edge(m, x, y, sides[k]);
        }
    }
    return s;
}

static void assert_same(snapshot a, snapshot b) {
    assert_int_equal(a.w, b.w);
    assert_int_equal(a.h, b.h);
    assert_memory_equal(a.data, b.data, (size_t)a.w * a.h * 5);
    free(a.data);
    free(b.data);
}

/// A growable text buffer.
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *s) {
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    memcpy(t->s + t->len, s, n + 1);
    t->len += n;
}

static void putc_(text *t, char c) {
    char s[2] = {c, 0};
    put(t, s);
}

/// Random whitespace that N's format must skip.
static void put_noise(text *t) {
    static const char *const ws[] = {" ", "\n", "\r\n", "\t", "  \n "};
    if (rng_int(0, 3) == 0) put(t, ws[rng_int(0, 4)]);
}

// Writers, independent of the loaders: N's string is column-major from
// y = 0, the ASCII form row by row from the top (largest y).

static char *write_n(const ledge_tile *cells, int w, int h) {
    text t = {0};
    put(&t, "");
    for (int x = 0; x < w; ++x) {
        for (int y = 0; y < h; ++y) {
            put_noise(&t);
            putc_(&t, (char)('0' + cells[y * w + x]));
        }
    }
    put_noise(&t);
    return t.s;
}

static char *write_ascii(const ledge_tile *cells, int w, int h) {
    text t = {0};
    put(&t, "");
    if (rng_int(0, 1)) put(&t, "; a comment before the rows\n");
    bool crlf = rng_int(0, 1);
    for (int y = h - 1; y >= 0; --y) {
        for (int x = 0; x < w; ++x) putc_(&t, glyph_of[cells[y * w + x]]);
        bool last = y == 0;
        if (!last || rng_int(0, 2) > 0) put(&t, crlf ? "\r\n" : "\n");
        if (!last && rng_int(0, 9) == 0) put(&t, rng_int(0, 1) ? ";; between rows\n" : "\n");
    }
    if (rng_int(0, 3) == 0) put(&t, "\n; trailing comment, no newline");
    return t.s;
}

/// Compares every cell of the map with `cells`.
static void assert_cells(const ledge_tilemap *m, const ledge_tile *cells, int w, int h) {
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            if (ledge_tilemap_get(m, x, y) != cells[y * w + x]) {
                fail_msg("cell (%d, %d) is %s, expected %s", x, y,
                         ledge_tile_name(ledge_tilemap_get(m, x, y)),
                         ledge_tile_name(cells[y * w + x]));
            }
        }
    }
}

/// A map holding `cells`, built by ledge_tilemap_set in a random order, to
/// compare edge states with a loaded map.
static ledge_tilemap *build_shuffled(const ledge_tile *cells, int w, int h) {
    ledge_tilemap *m = make_map(w, h);
    int n = w * h;
    int *order = malloc(sizeof(int) * (size_t)n);
    assert_non_null(order);
    for (int i = 0; i < n; ++i) order[i] = i;
    for (int i = n - 1; i > 0; --i) {
        int j = rng_int(0, i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < n; ++i) {
        assert_true(ledge_tilemap_set(m, order[i] % w, order[i] / w, cells[order[i]]));
    }
    free(order);
    return m;
}

// ---------------------------------------------------------------------------
// Round trips

static void round_trip(bool ascii, uint64_t seed) {
    g_rng = seed;
    bool seen[LEDGE_TILE_COUNT] = {0};
    for (int round = 0; round < 150; ++round) {
        int w = rng_int(1, 40), h = rng_int(1, 40);
        if (round % 10 == 0) w = 1;
        if (round % 10 == 1) h = 1;
        ledge_tile *cells = malloc((size_t)w * h);
        assert_non_null(cells);
        for (int i = 0; i < w * h; ++i) {
            cells[i] = random_tile();
            seen[cells[i]] = true;
        }
        char *s = ascii ? write_ascii(cells, w, h) : write_n(cells, w, h);
        ledge_tilemap *m = make_map(w, h);
        fill_random(m, NULL); // the load must overwrite every cell
        log_capture_start();
        bool ok = ascii ? ledge_tilemap_load_ascii(m, s) : ledge_tilemap_load_n(m, s);
        if (!ok) fail_msg("round %d (%d x %d) refused: %s", round, w, h, g_log.last);
        assert_int_equal(g_log.count, 0);
        assert_cells(m, cells, w, h);
        ledge_tilemap *ref = build_shuffled(cells, w, h);
        assert_same(take(m), take(ref));
        ledge_tilemap_destroy(ref);
        ledge_tilemap_destroy(m);
        free(s);
        free(cells);
    }
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) assert_true(seen[t]);
}

static void test_n_round_trip(void **state) {
    (void)state;
    round_trip(false, 0x4E4E4Eull);
}

static void test_ascii_round_trip(void **state) {
    (void)state;
    round_trip(true, 0x415343ull);
}

/// Every byte: a 1 x 1 map loads it as the legend's tile or refuses it. So
/// the loader knows exactly the 34 glyphs of the legend, no more.
static void test_ascii_every_byte(void **state) {
    (void)state;
    ledge_tilemap *m = make_map(1, 1);
    int accepted = 0;
    for (int c = 1; c < 256; ++c) {
        if (c == '\n' || c == '\r' || c == ';') continue; // line structure, see below
        char s[3] = {(char)c, '\n', 0};
        assert_true(ledge_tilemap_set(m, 0, 0, LEDGE_TILE_HALF_L));
        log_capture_start();
        bool ok = ledge_tilemap_load_ascii(m, s);
        if (tile_of_glyph[c] >= 0) {
            if (!ok) fail_msg("glyph '%c' refused: %s", c, g_log.last);
            assert_int_equal(ledge_tilemap_get(m, 0, 0), tile_of_glyph[c]);
            ++accepted;
        } else {
            if (ok)
                fail_msg("byte 0x%02X accepted as %s", c,
                         ledge_tile_name(ledge_tilemap_get(m, 0, 0)));
            assert_int_equal(ledge_tilemap_get(m, 0, 0), LEDGE_TILE_HALF_L);
            assert_true(log_capture_says("line 1, column 1", "not a tile glyph"));
        }
    }
    assert_int_equal(accepted, LEDGE_TILE_COUNT);
    // ';' starts a comment and '\r' ends a line: as the only content they
    // leave no row.
    static const char *const no_rows[] = {";\n", "\r\n", "\r", ";#\n#"};
    for (int i = 0; i < 3; ++i) {
        log_capture_start();
        assert_false(ledge_tilemap_load_ascii(m, no_rows[i]));
        assert_true(log_capture_says("ends after 0 rows", "must be 1"));
    }
    assert_true(ledge_tilemap_load_ascii(m, no_rows[3]));
    assert_int_equal(ledge_tilemap_get(m, 0, 0), LEDGE_TILE_FULL);
    ledge_tilemap_destroy(m);
}

/// N's characters: '0' + id for the 34 ids, anything else but whitespace is
/// refused.
static void test_n_every_byte(void **state) {
    (void)state;
    ledge_tilemap *m = make_map(1, 1);
    for (int c = 1; c < 256; ++c) {
        if (c == ' ' || (c >= '\t' && c <= '\r')) continue;
        char s[2] = {(char)c, 0};
        assert_true(ledge_tilemap_set(m, 0, 0, LEDGE_TILE_HALF_L));
        log_capture_start();
        bool ok = ledge_tilemap_load_n(m, s);
        int id = c - '0';
        if (id >= 0 && id < LEDGE_TILE_COUNT) {
            assert_true(ok);
            assert_int_equal(ledge_tilemap_get(m, 0, 0), id);
        } else {
            assert_false(ok);
            assert_int_equal(ledge_tilemap_get(m, 0, 0), LEDGE_TILE_HALF_L);
            assert_true(log_capture_says("cell 0 (x 0, y 0)", "must be '0'..'Q'"));
        }
    }
    ledge_tilemap_destroy(m);
}

/// The legend's descriptions match the geometry: the glyph's tile faces the
/// way the legend says (normal signs), its solid side is the opposite one
/// (a point near that side is solid, one near the facing side is empty),
/// and a floor covers its cell's bottom side fully, a ceiling its top side.
static void test_legend_matches_geometry(void **state) {
    (void)state;
    vec2s o = {{0, 0}};
    for (int i = 0; i < LEGEND_SIZE; ++i) {
        const legend_row *r = &legend[i];
        ledge_tile t = (ledge_tile)tile_of_glyph[(unsigned char)r->glyph];
        vec2s n = ledge_tile_normal(t);
        int sx = (n.x > 0.01f) - (n.x < -0.01f), sy = (n.y > 0.01f) - (n.y < -0.01f);
        if (sx != r->fx || sy != r->fy) {
            fail_msg("'%c' %s faces (%d, %d), legend says (%d, %d)", r->glyph, r->name, sx, sy,
                     r->fx, r->fy);
        }
        if (r->fx == 0 && r->fy == 0) continue;
        // Points just inside the cell, on the solid side and on the facing side.
        vec2s solid = {{0.5f - 0.45f * (float)r->fx, 0.5f - 0.45f * (float)r->fy}};
        vec2s open = {{0.5f + 0.45f * (float)r->fx, 0.5f + 0.45f * (float)r->fy}};
        assert_true(ledge_tile_contains(t, o, 1.0f, solid));
        assert_false(ledge_tile_contains(t, o, 1.0f, open));
        // The thin 67 degree wedges stand on half of their side.
        int base = ledge_tile_group_of(t) == LEDGE_TILE_GROUP_67DEG_SMALL ? LEDGE_COVER_PARTIAL
                                                                          : LEDGE_COVER_FULL;
        if (r->fy > 0) assert_int_equal(ledge_tile_cover(t, LEDGE_SIDE_YNEG), base);
        if (r->fy < 0) assert_int_equal(ledge_tile_cover(t, LEDGE_SIDE_YPOS), base);
    }
}

// ---------------------------------------------------------------------------
// A hand-drawn level, checked cell by cell (y up: the last line is y = 0).

static void test_hand_drawn_level(void **state) {
    (void)state;
    static const char level[] = "; a small level, y up\r\n"
                                "##########\r\n"
                                "#F..\"\"..7#\r\n"
                                "#..(##)..#\r\n"
                                "#./####\\.#\r\n"
                                "<d######b>\r\n"
                                "##########\r\n";
    ledge_tilemap *m = make_map(10, 6);
    assert_true(ledge_tilemap_load_ascii(m, level));
    static const struct {
        int x, y;
        ledge_tile t;
    } expect[] = {
        {0, 0, LEDGE_TILE_FULL},           {9, 0, LEDGE_TILE_FULL},
        {0, 1, LEDGE_TILE_22DEG_SMALL_NP}, {1, 1, LEDGE_TILE_22DEG_BIG_NP},
        {2, 1, LEDGE_TILE_FULL},           {8, 1, LEDGE_TILE_22DEG_BIG_PP},
        {9, 1, LEDGE_TILE_22DEG_SMALL_PP}, {0, 2, LEDGE_TILE_FULL},
        {1, 2, LEDGE_TILE_EMPTY},          {2, 2, LEDGE_TILE_45DEG_NP},
        {7, 2, LEDGE_TILE_45DEG_PP},       {3, 3, LEDGE_TILE_CONVEX_NP},
        {4, 3, LEDGE_TILE_FULL},           {6, 3, LEDGE_TILE_CONVEX_PP},
        {1, 4, LEDGE_TILE_CONCAVE_PN},     {4, 4, LEDGE_TILE_HALF_D},
        {5, 4, LEDGE_TILE_HALF_D},         {8, 4, LEDGE_TILE_CONCAVE_NN},
        {9, 4, LEDGE_TILE_FULL},           {5, 5, LEDGE_TILE_FULL},
    };
    for (unsigned i = 0; i < sizeof expect / sizeof expect[0]; ++i) {
        if (ledge_tilemap_get(m, expect[i].x, expect[i].y) != expect[i].t) {
            fail_msg("(%d, %d) is %s, expected %s", expect[i].x, expect[i].y,
                     ledge_tile_name(ledge_tilemap_get(m, expect[i].x, expect[i].y)),
                     ledge_tile_name(expect[i].t));
        }
    }
    // The other cells by count, as read off the picture: 38 '#', 10 '.'.
    int empty = 0, full = 0;
    for (int y = 0; y < 6; ++y) {
        for (int x = 0; x < 10; ++x) {
            empty += ledge_tilemap_get(m, x, y) == LEDGE_TILE_EMPTY;
            full += ledge_tilemap_get(m, x, y) == LEDGE_TILE_FULL;
        }
    }
    assert_int_equal(empty, 10);
    assert_int_equal(full, 38);
    // The picture is y up: the '/' at (2, 2) is a floor rising to the right,
    // solid at its lower right, open at its upper left.
    assert_true(ledge_tilemap_query_point(m, (vec2s){{2.9f, 2.1f}}, NULL));
    assert_false(ledge_tilemap_query_point(m, (vec2s){{2.1f, 2.9f}}, NULL));
    // The '"' at (4, 4) is solid above its middle only.
    assert_true(ledge_tilemap_query_point(m, (vec2s){{4.5f, 4.9f}}, NULL));
    assert_false(ledge_tilemap_query_point(m, (vec2s){{4.5f, 4.1f}}, NULL));
    ledge_tilemap_destroy(m);
}

// ---------------------------------------------------------------------------
// Refusals: each leaves the map as it was and names the position.

typedef bool load_fn(ledge_tilemap *, const char *);

static void refuse(load_fn *load, int w, int h, const char *s, const char *w1, const char *w2,
                   const char *w3) {
    ledge_tilemap *m = make_map(w, h);
    fill_random(m, NULL);
    snapshot before = take(m);
    log_capture_start();
    assert_false(load(m, s));
    assert_int_equal(g_log.count, 1);
    assert_int_equal(g_log.level, LEDGE_LOG_ERROR);
    const char *words[3] = {w1, w2, w3};
    for (int i = 0; i < 3; ++i) {
        if (words[i] && !strstr(g_log.last, words[i])) {
            fail_msg("expected '%s' in: %s", words[i], g_log.last);
        }
    }
    assert_same(before, take(m));
    ledge_tilemap_destroy(m);
}

static void test_n_refusals(void **state) {
    (void)state;
    g_rng = 11;
    load_fn *n = ledge_tilemap_load_n;
    // 3 x 2 map: cells 0, 1 are column x = 0 (y = 0, 1), cells 2, 3 x = 1...
    refuse(n, 3, 2, "01 2z\n45", "ledge_tilemap_load_n", "cell 3 (x 1, y 1) is 'z'", NULL);
    refuse(n, 3, 2, "01234R", NULL, "cell 5 (x 2, y 1) is 'R'", "'0'..'Q'");
    refuse(n, 3, 2, "/12345", NULL, "cell 0 (x 0, y 0) is '/'", NULL);
    refuse(n, 3, 2,
           "0\x01"
           "2345",
           NULL, "cell 1 (x 0, y 1) is byte 0x01", NULL);
    refuse(n, 3, 2,
           "012\xC3\xA9"
           "5",
           NULL, "cell 3 (x 1, y 1) is byte 0xC3", NULL);
    refuse(n, 3, 2, "01234", NULL, "text has 5 cells", "must be 6, width 3 x height 2");
    refuse(n, 3, 2, "", NULL, "text has 0 cells", NULL);
    refuse(n, 3, 2, " \n\t ", NULL, "text has 0 cells", NULL);
    refuse(n, 3, 2, "012345 6", NULL, "'6' at text offset 7 is one cell too many", "6 cells");
    refuse(n, 3, 2, NULL, "ledge_tilemap_load_n", "text is NULL", NULL);
    log_capture_start();
    assert_false(ledge_tilemap_load_n(NULL, "0"));
    assert_true(log_capture_says("ledge_tilemap_load_n", "map is NULL"));
}

static void test_ascii_refusals(void **state) {
    (void)state;
    g_rng = 12;
    load_fn *a = ledge_tilemap_load_ascii;
    const char *fn = "ledge_tilemap_load_ascii";
    // 4 x 3 maps.
    refuse(a, 4, 3, "####\n#x.#\n####\n", fn, "line 2, column 2: 'x' is not a tile glyph", NULL);
    refuse(a, 4, 3, "; c\n####\n#..#\n###\t\n", fn, "line 4, column 4: byte 0x09", NULL);
    refuse(a, 4, 3, "####\r\n#. #\r\n####\r\n", NULL, "line 2, column 3: ' '", NULL);
    refuse(a, 4, 3, "####\n#.\r.\n####\n", NULL, "line 2, column 3: byte 0x0D", NULL);
    refuse(a, 4, 3, "\xEF\xBB\xBF####\n#..#\n####\n", NULL, "line 1, column 1: byte 0xEF", NULL);
    refuse(a, 4, 3, "####\n#..\n####\n", fn, "line 2, column 4: the row ends after 3 cells",
           "must be 4");
    refuse(a, 4, 3, "####\n;\n\n#...#\n####\n", NULL, "line 4, column 5: the row is longer",
           "width of 4");
    refuse(a, 4, 3, "####\n#..#\n####\n####\n", NULL, "line 4, column 1: one row too many",
           "height is 3");
    refuse(a, 4, 3, "####\r\n\r\n; only two\r\n####\r\n", NULL, "line 4",
           "ends after 2 rows (must be 3");
    refuse(a, 4, 3, "####\n#..#", NULL, "line 2: the text ends after 2 rows", NULL);
    refuse(a, 4, 3, "", NULL, "line 1: the text ends after 0 rows", NULL);
    refuse(a, 4, 3, NULL, fn, "text is NULL", NULL);
    log_capture_start();
    assert_false(ledge_tilemap_load_ascii(NULL, "#"));
    assert_true(log_capture_says(fn, "map is NULL"));
}

// ---------------------------------------------------------------------------
// The shipped crowd map

/// Reads a whole file, or returns NULL.
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    text t = {0};
    put(&t, "");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf - 1, f)) > 0) {
        buf[n] = 0;
        put(&t, buf);
    }
    fclose(f);
    return t.s;
}

/// tests/data/crowd.txt: found next to this source file (meson runs the
/// tests in the build directory and compiles with a relative __FILE__), or
/// from the repository root or tests/.
static char *read_crowd(void) {
    char path[1024];
    const char *slash = strrchr(__FILE__, '/');
    if (slash) {
        snprintf(path, sizeof path, "%.*s/data/crowd.txt", (int)(slash - __FILE__), __FILE__);
        char *s = read_file(path);
        if (s) return s;
    }
    static const char *const others[] = {"data/crowd.txt", "tests/data/crowd.txt",
                                         "../tests/data/crowd.txt"};
    for (int i = 0; i < 3; ++i) {
        char *s = read_file(others[i]);
        if (s) return s;
    }
    fail_msg("tests/data/crowd.txt not found (from %s)", __FILE__);
    return NULL;
}

static void test_crowd_map(void **state) {
    (void)state;
    char *s = read_crowd();
    ledge_tilemap *m = make_map(256, 64);
    log_capture_start();
    if (!ledge_tilemap_load_ascii(m, s)) fail_msg("crowd.txt refused: %s", g_log.last);
    // A 256 x 64 map does not load into any other size.
    ledge_tilemap *wrong = make_map(255, 64);
    log_capture_start();
    assert_false(ledge_tilemap_load_ascii(wrong, s));
    assert_true(log_capture_says("the row is longer", "width of 255"));
    ledge_tilemap_destroy(wrong);
    wrong = make_map(256, 65);
    log_capture_start();
    assert_false(ledge_tilemap_load_ascii(wrong, s));
    assert_true(log_capture_says("ends after 64 rows", "must be 65"));
    ledge_tilemap_destroy(wrong);

    // The same cells as this test's own reading of the text with its legend.
    int rows = 0, counts[LEDGE_TILE_COUNT] = {0};
    for (const char *line = s; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 0 && line[len - 1] == '\r') --len;
        if (len > 0 && line[0] != ';') {
            assert_int_equal(len, 256);
            int y = 63 - rows++;
            for (int x = 0; x < 256; ++x) {
                int id = tile_of_glyph[(unsigned char)line[x]];
                assert_true(id >= 0);
                assert_int_equal(ledge_tilemap_get(m, x, y), id);
                counts[id]++;
            }
        }
        line = end ? end + 1 : line + strlen(line);
    }
    assert_int_equal(rows, 64);
    // Every tile id, hence every group, appears; the bottom row is solid
    // ground and the top row is sky.
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        if (counts[t] == 0) fail_msg("crowd.txt has no %s", ledge_tile_name((ledge_tile)t));
    }
    bool groups[LEDGE_TILE_GROUP_HALF + 1] = {0};
    for (int y = 0; y < 64; ++y) {
        for (int x = 0; x < 256; ++x) groups[ledge_tile_group_of(ledge_tilemap_get(m, x, y))] = 1;
    }
    for (int g = 0; g <= LEDGE_TILE_GROUP_HALF; ++g) assert_true(groups[g]);
    for (int x = 0; x < 256; ++x) {
        assert_int_equal(ledge_tilemap_get(m, x, 0), LEDGE_TILE_FULL);
        assert_int_equal(ledge_tilemap_get(m, x, 63), LEDGE_TILE_EMPTY);
    }
    // Floor pieces sit on solid ground: the cell below a tile facing up
    // covers its top side at least as much as the tile covers its bottom.
    for (int y = 1; y < 64; ++y) {
        for (int x = 0; x < 256; ++x) {
            ledge_tile t = ledge_tilemap_get(m, x, y), below = ledge_tilemap_get(m, x, y - 1);
            if (ledge_tile_normal(t).y > 0.01f &&
                ledge_tile_cover(below, LEDGE_SIDE_YPOS) < ledge_tile_cover(t, LEDGE_SIDE_YNEG)) {
                fail_msg("floor %s at (%d, %d) floats over %s", ledge_tile_name(t), x, y,
                         ledge_tile_name(below));
            }
        }
    }
    ledge_tilemap_destroy(m);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n_round_trip),
        cmocka_unit_test(test_ascii_round_trip),
        cmocka_unit_test(test_ascii_every_byte),
        cmocka_unit_test(test_n_every_byte),
        cmocka_unit_test(test_legend_matches_geometry),
        cmocka_unit_test(test_hand_drawn_level),
        cmocka_unit_test(test_n_refusals),
        cmocka_unit_test(test_ascii_refusals),
        cmocka_unit_test(test_crowd_map),
    };
    return cmocka_run_group_tests(tests, setup_legend, NULL);
}
