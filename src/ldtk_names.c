// The names a level designer gives tiles in LDtk, and LDtk's flips as tile
// ids. A name says the tile as drawn (LDtk's y axis points down, N's
// convention): ledge's own names (`45DEG_PN`, any case, with LDtk's
// underscore before a leading digit), or words that say on screen which
// way a surface faces (`slope45_up_right`) or which half is solid
// (`half_top`). A flip negates one sign of the tile's normal (tiles.h):
// X negates sx, Y negates sy, and half tiles carry their normal itself.
#include "ldtk_names.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

// The groups with four orientations, in tile id order (first id 2 + 4 k).
static const char *const group_words[7] = {
    "slope45", "concave", "convex", "slope22_small", "slope22_big", "slope67_small", "slope67_big"};
// Facings on screen, in the orientation order PN, NN, NP, PP: a normal
// (+1, -1) in LDtk's y-down frame faces up-right on screen.
static const char *const facing_long[4] = {"up_right", "up_left", "down_left", "down_right"};
static const char *const facing_short[4] = {"ur", "ul", "dl", "dr"};
// Half tiles in id order (HALF_D .. HALF_L): the solid half on screen.
static const char *const half_words[4] = {"half_bottom", "half_right", "half_top", "half_left"};
static const char *const full_words[4] = {"full", "solid", "wall", "walls"};

/// `s` lowercased into buf (false when too long).
static bool lower(const char *s, char *buf, size_t cap) {
    size_t n = strlen(s);
    if (n + 1 > cap) return false;
    for (size_t i = 0; i <= n; ++i) buf[i] = (char)tolower((unsigned char)s[i]);
    return true;
}

/// Strips a suffix when `s` ends with it.
static bool strip_suffix(char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    if (n <= k || strcmp(s + n - k, suffix) != 0) return false;
    s[n - k] = '\0';
    return true;
}

/// A friendly name (lowercase, no one-way suffix) to a tile, or -1.
static int friendly(const char *s) {
    if (strcmp(s, "empty") == 0) return LEDGE_TILE_EMPTY;
    for (int k = 0; k < 4; ++k) {
        if (strcmp(s, full_words[k]) == 0) return LEDGE_TILE_FULL;
        if (strcmp(s, half_words[k]) == 0) return LEDGE_TILE_HALF_D + k;
    }
    for (int g = 0; g < 7; ++g) {
        size_t n = strlen(group_words[g]);
        if (strncmp(s, group_words[g], n) != 0 || s[n] != '_') continue;
        for (int k = 0; k < 4; ++k) {
            if (strcmp(s + n + 1, facing_long[k]) == 0 || strcmp(s + n + 1, facing_short[k]) == 0)
                return 2 + 4 * g + k;
        }
    }
    return -1;
}

int ledge_ldtk_tile_from_name(const char *name, int *one_way) {
    if (one_way) *one_way = LEDGE_ONE_WAY_NONE;
    if (name == NULL) return -1;
    char buf[64];
    if (!lower(name, buf, sizeof buf)) return -1;
    const char *s = buf[0] == '_' ? buf + 1 : buf; // LDtk's underscore before a digit
    bool way = strcmp(s, "one_way") == 0 || strcmp(s, "oneway") == 0;
    int tile = way ? LEDGE_TILE_FULL : -1;
    if (!way) {
        way = strip_suffix(buf, "_one_way") || strip_suffix(buf, "_oneway");
        tile = ledge_tile_from_name(s);
        if (tile < 0) tile = friendly(s);
    }
    if (tile < 0 || (way && tile == LEDGE_TILE_EMPTY)) return -1;
    if (one_way && way) *one_way = LEDGE_ONE_WAY_UP;
    return tile;
}

bool ledge__ldtk_names_a_group(const char *name) {
    char buf[64];
    if (name == NULL || !lower(name, buf, sizeof buf)) return false;
    for (int g = 0; g < 7; ++g) {
        if (strncmp(buf, group_words[g], strlen(group_words[g])) == 0) return true;
    }
    return strncmp(buf, "half", 4) == 0;
}

ledge_tile ledge_ldtk_flip(ledge_tile tile, bool flip_x, bool flip_y) {
    static const int sx[4] = {1, -1, -1, 1}, sy[4] = {-1, -1, 1, 1}; // PN, NN, NP, PP
    static const int hx[4] = {0, -1, 0, 1}, hy[4] = {-1, 0, 1, 0};   // HALF_D, R, U, L
    if (tile >= LEDGE_TILE_COUNT) {
        char line[128];
        snprintf(line, sizeof line, "ledge_ldtk_flip: tile is %d (must be 0..%d)", tile,
                 LEDGE_TILE_COUNT - 1);
        ledge_log_message(LEDGE_LOG_ERROR, line);
        return LEDGE_TILE_EMPTY;
    }
    const int *xs = tile >= LEDGE_TILE_HALF_D ? hx : sx, *ys = tile >= LEDGE_TILE_HALF_D ? hy : sy;
    int first = tile >= LEDGE_TILE_HALF_D ? LEDGE_TILE_HALF_D : 2 + (tile - 2) / 4 * 4;
    if (tile <= LEDGE_TILE_FULL) return tile; // EMPTY and FULL look the same every way
    int k = tile - first;
    int x = flip_x ? -xs[k] : xs[k], y = flip_y ? -ys[k] : ys[k];
    for (int j = 0; j < 4; ++j) {
        if (xs[j] == x && ys[j] == y) return (ledge_tile)(first + j);
    }
    return tile; // unreachable: each group is closed under both mirrors
}

int ledge__ldtk_flip_one_way(int way, bool flip_x, bool flip_y) {
    if (flip_x && (way == LEDGE_ONE_WAY_LEFT || way == LEDGE_ONE_WAY_RIGHT))
        return way == LEDGE_ONE_WAY_LEFT ? LEDGE_ONE_WAY_RIGHT : LEDGE_ONE_WAY_LEFT;
    if (flip_y && (way == LEDGE_ONE_WAY_UP || way == LEDGE_ONE_WAY_DOWN))
        return way == LEDGE_ONE_WAY_UP ? LEDGE_ONE_WAY_DOWN : LEDGE_ONE_WAY_UP;
    return way;
}

void ledge__ldtk_to_frame(bool y_down, int *tile, int *one_way) {
    if (y_down) {
        *one_way = ledge__ldtk_flip_one_way(*one_way, false, true);
    } else {
        *tile = ledge_ldtk_flip((ledge_tile)*tile, false, true);
    }
}
