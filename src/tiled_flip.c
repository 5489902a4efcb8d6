// Tiled's flip flags as ledge tile ids. A tile id is a group and the signs
// (sx, sy) of its surface normal (tiles.h), so a mirror only changes signs:
// a horizontal flip negates sx, a vertical one sy, and the diagonal flip (a
// transpose, x and y swapped) swaps them and turns a 22 degree slope into
// the 67 degree slope of the same size (the transpose of triangle R, P,
// c + (-sx w, 0) is triangle R', Q', c + (0, -sy' w)). HALF tiles carry
// their normal itself. Every group is closed under the eight mirrors, so
// every flipped tile exists.
#include "ledge/tiled.h"

#include <stdio.h>

/// First id of the groups with four orientations, in id order.
static int oriented_first(ledge_tile t) {
    return t >= LEDGE_TILE_45DEG_PN && t <= LEDGE_TILE_67DEG_BIG_PP ? 2 + (t - 2) / 4 * 4 : -1;
}

/// Normal signs of orientation k (PN, NN, NP, PP) and back.
static void signs_of(int k, int *sx, int *sy) {
    *sx = k == 0 || k == 3 ? 1 : -1;
    *sy = k >= 2 ? 1 : -1;
}
static int orientation_of(int sx, int sy) {
    return sy < 0 ? (sx > 0 ? 0 : 1) : (sx < 0 ? 2 : 3);
}

/// The 22 <-> 67 degree partner of a group's first id (others unchanged).
static int transposed_group(int first) {
    switch (first) {
    case LEDGE_TILE_22DEG_SMALL_PN:
        return LEDGE_TILE_67DEG_SMALL_PN;
    case LEDGE_TILE_67DEG_SMALL_PN:
        return LEDGE_TILE_22DEG_SMALL_PN;
    case LEDGE_TILE_22DEG_BIG_PN:
        return LEDGE_TILE_67DEG_BIG_PN;
    case LEDGE_TILE_67DEG_BIG_PN:
        return LEDGE_TILE_22DEG_BIG_PN;
    default:
        return first;
    }
}

static ledge_tile flip_oriented(ledge_tile t, bool h, bool v, bool d) {
    int first = oriented_first(t), sx, sy;
    signs_of(t - first, &sx, &sy);
    if (d) {
        int tmp = sx;
        sx = sy;
        sy = tmp;
        first = transposed_group(first);
    }
    if (h) sx = -sx;
    if (v) sy = -sy;
    return (ledge_tile)(first + orientation_of(sx, sy));
}

static ledge_tile flip_half(ledge_tile t, bool h, bool v, bool d) {
    static const int nx[4] = {0, -1, 0, 1}, ny[4] = {-1, 0, 1, 0}; // D, R, U, L
    int x = nx[t - LEDGE_TILE_HALF_D], y = ny[t - LEDGE_TILE_HALF_D];
    if (d) {
        int tmp = x;
        x = y;
        y = tmp;
    }
    if (h) x = -x;
    if (v) y = -y;
    for (int k = 0; k < 4; ++k) {
        if (nx[k] == x && ny[k] == y) return (ledge_tile)(LEDGE_TILE_HALF_D + k);
    }
    return t; // unreachable: the four normals are closed under the mirrors
}

ledge_tile ledge_tiled_flip(ledge_tile tile, bool horizontal, bool vertical, bool diagonal) {
    if (tile >= LEDGE_TILE_COUNT) {
        char line[128];
        snprintf(line, sizeof line, "ledge_tiled_flip: tile is %d (must be 0..%d)", tile,
                 LEDGE_TILE_COUNT - 1);
        ledge_log_message(LEDGE_LOG_ERROR, line);
        return LEDGE_TILE_EMPTY;
    }
    if (tile >= LEDGE_TILE_HALF_D) return flip_half(tile, horizontal, vertical, diagonal);
    if (oriented_first(tile) >= 0) return flip_oriented(tile, horizontal, vertical, diagonal);
    return tile; // EMPTY and FULL look the same every way
}
