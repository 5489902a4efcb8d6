// The loose grid (grid.h): rebuilt by a counting sort, which is
// O(bodies + cells), allocation-free once warm and deterministic (bodies of
// a cell stay in slot order).
#include "grid.h"

#include "array.h"

#include <string.h>

// Grows *array to hold n ints (contents not kept: the grid is rebuilt);
// keeps the old array when allocation fails.
static bool grow_ints(int **array, int *cap, int n) {
    if (LEDGE__RESERVE(*array, *cap, n, 0, 16)) return true;
    LEDGE_ERROR("ledge_world_step: broad phase allocation of %d entries failed", n);
    return false;
}

bool ledge__grid_reserve(ledge__grid *g, int bodies, int cells) {
    if (!grow_ints(&g->cell_start, &g->cell_cap, cells + 1)) return false;
    int cap_of = g->body_cap, cap_sorted = g->body_cap;
    bool ok = grow_ints(&g->cell_of, &cap_of, bodies) && grow_ints(&g->sorted, &cap_sorted, bodies);
    g->body_cap = cap_of < cap_sorted ? cap_of : cap_sorted;
    if (ok) g->cell_limit = cells;
    return ok;
}

void ledge__grid_free(ledge__grid *g) {
    ledge__free(g->cell_start);
    ledge__free(g->cell_of);
    ledge__free(g->sorted);
    memset(g, 0, sizeof *g);
}

void ledge__grid_fit(ledge__grid *g, vec2s lower, vec2s upper, float cell) {
    double w = (double)upper.x - (double)lower.x, h = (double)upper.y - (double)lower.y;
    double nx = floor(w / cell) + 1.0, ny = floor(h / cell) + 1.0;
    while (nx * ny > (double)g->cell_limit) {
        cell *= 2.0f;
        nx = floor(w / cell) + 1.0;
        ny = floor(h / cell) + 1.0;
    }
    g->cell = cell;
    g->inv_cell = 1.0f / cell;
    g->origin = lower;
    g->nx = (int)nx;
    g->ny = (int)ny;
}

int ledge__grid_band_shift(const ledge__grid *g) {
    int cells = g->nx * g->ny, shift = 0;
    while (((cells - 1) >> shift) >= LEDGE__GRID_BANDS) shift++;
    return shift;
}

bool ledge__grid_count(ledge__grid *g, const vec2s *centers, const uint8_t *include, int begin,
                       int end, int shift, int *count) {
    memset(count, 0, sizeof *count * LEDGE__GRID_BANDS);
    int changed = 0;
    for (int i = begin; i < end; ++i) {
        int c = include[i] ? ledge__grid_cell(g, centers[i]) : -1;
        changed |= g->cell_of[i] != c;
        g->cell_of[i] = c;
        if (c >= 0) count[c >> shift]++;
    }
    return changed != 0;
}

void ledge__grid_band_places(ledge__grid *g, int *counts, int blocks, int shift, int slot_count,
                             int *band_start) {
    int bands = ((g->nx * g->ny - 1) >> shift) + 1, at = 0;
    for (int band = 0; band < bands; ++band) {
        band_start[band] = at;
        for (int b = 0; b < blocks; ++b) {
            int n = counts[b * LEDGE__GRID_BANDS + band];
            counts[b * LEDGE__GRID_BANDS + band] = at;
            at += n;
        }
    }
    band_start[bands] = at;
    g->cell_start[g->nx * g->ny] = at;
    g->count = at;
    g->slots = slot_count;
}

void ledge__grid_scatter(const ledge__grid *g, int begin, int end, int shift, int *place,
                         int *by_band) {
    for (int i = begin; i < end; ++i) {
        int c = g->cell_of[i];
        if (c >= 0) by_band[place[c >> shift]++] = i;
    }
}

void ledge__grid_sort_band(ledge__grid *g, int band, int shift, const int *band_start,
                           const int *by_band) {
    int cells = g->nx * g->ny;
    int first = band << shift, last = (band + 1) << shift;
    if (last > cells) last = cells;
    int *start = g->cell_start;
    // Only the band's own entries start[first .. last - 1] are written (the
    // band after it owns start[last]; start[cells] is set with the places):
    // counts, then where each cell starts, then each start[c] is cell c's
    // cursor (ending where cell c + 1 starts) and is shifted back.
    for (int c = first; c < last; ++c) start[c] = 0;
    int i0 = band_start[band], i1 = band_start[band + 1];
    for (int i = i0; i < i1; ++i) start[g->cell_of[by_band[i]]]++;
    for (int c = first, at = i0; c < last; ++c) {
        int n = start[c];
        start[c] = at;
        at += n;
    }
    for (int i = i0; i < i1; ++i) g->sorted[start[g->cell_of[by_band[i]]]++] = by_band[i];
    for (int c = last - 1; c > first; --c) start[c] = start[c - 1];
    start[first] = i0;
}
