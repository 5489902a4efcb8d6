// The tilemap's text loaders: N's level string and ledge's readable ASCII
// form (docs/tilemap.md). Both validate the whole text before touching the
// map, so a refused text leaves the map exactly as it was; the second pass
// then sets every cell through ledge_tilemap_set, which keeps the edge
// states right without the loaders knowing how they are derived.
#include "tilemap.h"

#include <string.h>

// ---------------------------------------------------------------------------
// Shared helpers

/// Whitespace that both formats skip or treat as line structure.
static bool is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/// Writes a readable form of one byte of input for a refusal message:
/// 'x' when printable, "byte 0x1B" otherwise (control bytes, UTF-8).
static const char *describe_byte(unsigned char c, char buf[16]) {
    if (c >= 0x20 && c < 0x7F) {
        buf[0] = '\'';
        buf[1] = (char)c;
        buf[2] = '\'';
        buf[3] = '\0';
    } else {
        static const char hex[] = "0123456789ABCDEF";
        memcpy(buf, "byte 0x", 7);
        buf[7] = hex[c >> 4];
        buf[8] = hex[c & 15];
        buf[9] = '\0';
    }
    return buf;
}

/// The arguments both loaders share: logs and refuses a NULL map or text.
static bool check_args(const char *fn, const ledge_tilemap *map, const char *text) {
    if (map == NULL) {
        LEDGE_ERROR("%s: map is NULL", fn);
        return false;
    }
    if (text == NULL) {
        LEDGE_ERROR("%s: text is NULL", fn);
        return false;
    }
    return true;
}

// ---------------------------------------------------------------------------
// N's level string: '0' + id per cell, x outer, y inner.

/// The tile id of N's character c, or -1.
static int n_tile_of(unsigned char c) {
    return c >= '0' && c < '0' + LEDGE_TILE_COUNT ? c - '0' : -1;
}

/// Checks the whole string: every character a tile or whitespace, exactly
/// width * height cells. Logs the first problem.
static bool n_validate(const ledge_tilemap *map, const char *text) {
    static const char fn[] = "ledge_tilemap_load_n";
    const int64_t cells = (int64_t)map->width * map->height;
    int64_t k = 0;
    char buf[16];
    for (const unsigned char *p = (const unsigned char *)text; *p; ++p) {
        if (is_space(*p)) continue;
        if (k == cells) {
            LEDGE_ERROR("%s: %s at text offset %td is one cell too many (the %d x %d map has "
                        "%lld cells)",
                        fn, describe_byte(*p, buf), (const char *)p - text, map->width, map->height,
                        (long long)cells);
            return false;
        }
        if (n_tile_of(*p) < 0) {
            LEDGE_ERROR("%s: cell %lld (x %d, y %d) is %s (must be '0'..'Q', i.e. '0' + tile id "
                        "0..33)",
                        fn, (long long)k, (int)(k / map->height), (int)(k % map->height),
                        describe_byte(*p, buf));
            return false;
        }
        ++k;
    }
    if (k != cells) {
        LEDGE_ERROR("%s: text has %lld cells (must be %lld, width %d x height %d)", fn,
                    (long long)k, (long long)cells, map->width, map->height);
        return false;
    }
    return true;
}

bool ledge_tilemap_load_n(ledge_tilemap *map, const char *text) {
    if (!check_args("ledge_tilemap_load_n", map, text) || !n_validate(map, text)) return false;
    int64_t k = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; ++p) {
        if (is_space(*p)) continue;
        ledge_tilemap_set(map, (int)(k / map->height), (int)(k % map->height),
                          (ledge_tile)n_tile_of(*p));
        ++k;
    }
    ledge__tilemap_refresh_blocked(map); // a loaded level collides at full speed at once
    return true;
}

// ---------------------------------------------------------------------------
// ledge's ASCII form: one line per row, the first line is the top row (the
// largest y), one glyph per cell. The legend lives in docs/tilemap.md; the
// table is written by name so that it reads as the legend does.

/// glyph_tile[c] is 1 + the tile id of glyph c, or 0 when c is no glyph.
static const uint8_t glyph_tile[128] = {
    ['.'] = 1 + LEDGE_TILE_EMPTY,          ['#'] = 1 + LEDGE_TILE_FULL,
    ['Z'] = 1 + LEDGE_TILE_45DEG_PN,       ['N'] = 1 + LEDGE_TILE_45DEG_NN,
    ['/'] = 1 + LEDGE_TILE_45DEG_NP,       ['\\'] = 1 + LEDGE_TILE_45DEG_PP,
    ['F'] = 1 + LEDGE_TILE_CONCAVE_PN,     ['7'] = 1 + LEDGE_TILE_CONCAVE_NN,
    ['J'] = 1 + LEDGE_TILE_CONCAVE_NP,     ['L'] = 1 + LEDGE_TILE_CONCAVE_PP,
    ['}'] = 1 + LEDGE_TILE_CONVEX_PN,      ['{'] = 1 + LEDGE_TILE_CONVEX_NN,
    ['('] = 1 + LEDGE_TILE_CONVEX_NP,      [')'] = 1 + LEDGE_TILE_CONVEX_PP,
    ['`'] = 1 + LEDGE_TILE_22DEG_SMALL_PN, ['\''] = 1 + LEDGE_TILE_22DEG_SMALL_NN,
    ['<'] = 1 + LEDGE_TILE_22DEG_SMALL_NP, ['>'] = 1 + LEDGE_TILE_22DEG_SMALL_PP,
    ['p'] = 1 + LEDGE_TILE_22DEG_BIG_PN,   ['q'] = 1 + LEDGE_TILE_22DEG_BIG_NN,
    ['d'] = 1 + LEDGE_TILE_22DEG_BIG_NP,   ['b'] = 1 + LEDGE_TILE_22DEG_BIG_PP,
    ['f'] = 1 + LEDGE_TILE_67DEG_SMALL_PN, ['1'] = 1 + LEDGE_TILE_67DEG_SMALL_NN,
    ['j'] = 1 + LEDGE_TILE_67DEG_SMALL_NP, ['l'] = 1 + LEDGE_TILE_67DEG_SMALL_PP,
    ['P'] = 1 + LEDGE_TILE_67DEG_BIG_PN,   ['Q'] = 1 + LEDGE_TILE_67DEG_BIG_NN,
    ['D'] = 1 + LEDGE_TILE_67DEG_BIG_NP,   ['B'] = 1 + LEDGE_TILE_67DEG_BIG_PP,
    ['"'] = 1 + LEDGE_TILE_HALF_D,         [']'] = 1 + LEDGE_TILE_HALF_R,
    ['_'] = 1 + LEDGE_TILE_HALF_U,         ['['] = 1 + LEDGE_TILE_HALF_L,
};

/// The tile id of glyph c, or -1.
static int ascii_tile_of(unsigned char c) {
    return c < 128 ? (int)glyph_tile[c] - 1 : -1;
}

/// One physical line of the text: [begin, end) without its '\n' or "\r\n".
typedef struct ascii_line {
    const char *begin, *end;
    const char *next; ///< Start of the following line, or NULL at the end of the text.
    long long number; ///< 1-based line number, for messages (a text may hold any number
                      ///< of comment lines, so not an int).
} ascii_line;

/// Splits off the line starting at `p` (line number `number`).
static ascii_line ascii_line_at(const char *p, long long number) {
    ascii_line l;
    l.begin = p;
    l.number = number;
    const char *e = p;
    while (*e && *e != '\n') ++e;
    // A final '\n' ends the last line; it does not start an empty one.
    l.next = *e && e[1] ? e + 1 : NULL;
    // "\r\n" ends a line as "\n" does; so does a '\r' that ends the text.
    if (e > p && e[-1] == '\r' && (*e == '\n' || *e == '\0')) --e;
    l.end = e;
    return l;
}

/// Comment lines (';' first) and empty lines are not rows: an empty line
/// can never be a row (a map is at least one cell wide), so skipping them
/// lets a file end with blank lines without any ambiguity.
static bool ascii_is_row(const ascii_line *l) {
    return l->end > l->begin && l->begin[0] != ';';
}

/// Checks one row line against the map's width; logs the first problem.
static bool ascii_validate_row(const ledge_tilemap *map, const ascii_line *l) {
    static const char fn[] = "ledge_tilemap_load_ascii";
    char buf[16];
    int col = 0;
    for (const char *c = l->begin; c < l->end; ++c, ++col) {
        if (col == map->width) {
            LEDGE_ERROR("%s: line %lld, column %d: the row is longer than the map's width of %d "
                        "cells (%td cells)",
                        fn, l->number, col + 1, map->width, l->end - l->begin);
            return false;
        }
        if (ascii_tile_of((unsigned char)*c) < 0) {
            LEDGE_ERROR("%s: line %lld, column %d: %s is not a tile glyph (see the legend in "
                        "docs/tilemap.md)",
                        fn, l->number, col + 1, describe_byte((unsigned char)*c, buf));
            return false;
        }
    }
    if (col < map->width) {
        LEDGE_ERROR("%s: line %lld, column %d: the row ends after %d cells (must be %d, the map's "
                    "width)",
                    fn, l->number, col + 1, col, map->width);
        return false;
    }
    return true;
}

/// Checks every line and the row count; logs the first problem.
static bool ascii_validate(const ledge_tilemap *map, const char *text) {
    static const char fn[] = "ledge_tilemap_load_ascii";
    int rows = 0;
    long long number = 1;
    for (const char *p = text; p != NULL; ++number) {
        ascii_line l = ascii_line_at(p, number);
        p = l.next;
        if (!ascii_is_row(&l)) continue;
        if (rows == map->height) {
            LEDGE_ERROR("%s: line %lld, column 1: one row too many (the map's height is %d rows)",
                        fn, l.number, map->height);
            return false;
        }
        if (!ascii_validate_row(map, &l)) return false;
        ++rows;
    }
    if (rows < map->height) {
        LEDGE_ERROR("%s: line %lld: the text ends after %d rows (must be %d, the map's height)", fn,
                    number - 1, rows, map->height);
        return false;
    }
    return true;
}

bool ledge_tilemap_load_ascii(ledge_tilemap *map, const char *text) {
    if (!check_args("ledge_tilemap_load_ascii", map, text) || !ascii_validate(map, text)) {
        return false;
    }
    int y = map->height - 1; // the first row is the top of a y-up map
    for (const char *p = text; p != NULL;) {
        ascii_line l = ascii_line_at(p, 0);
        p = l.next;
        if (!ascii_is_row(&l)) continue;
        for (int x = 0; x < map->width; ++x) {
            ledge_tilemap_set(map, x, y, (ledge_tile)ascii_tile_of((unsigned char)l.begin[x]));
        }
        --y;
    }
    ledge__tilemap_refresh_blocked(map); // a loaded level collides at full speed at once
    return true;
}
