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
    while (nx * ny > (double)(g->cell_cap - 1)) {
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

void ledge__grid_build(ledge__grid *g, const vec2s *centers, const uint8_t *include,
                       int slot_count) {
    int cells = g->nx * g->ny;
    memset(g->cell_start, 0, sizeof(int) * (size_t)(cells + 1));
    for (int i = 0; i < slot_count; ++i) {
        if (!include[i]) {
            g->cell_of[i] = -1;
            continue;
        }
        int cx = ledge__grid_index((centers[i].x - g->origin.x) * g->inv_cell, g->nx);
        int cy = ledge__grid_index((centers[i].y - g->origin.y) * g->inv_cell, g->ny);
        int c = cy * g->nx + cx;
        g->cell_of[i] = c;
        g->cell_start[c + 1]++;
    }
    for (int c = 0; c < cells; ++c) g->cell_start[c + 1] += g->cell_start[c];
    g->count = g->cell_start[cells];
    g->slots = slot_count;
    // Place each body at its cell's next free position; cell_start[c] is
    // used as the cursor and restored afterwards by shifting back.
    for (int i = 0; i < slot_count; ++i) {
        int c = g->cell_of[i];
        if (c >= 0) g->sorted[g->cell_start[c]++] = i;
    }
    for (int c = cells; c > 0; --c) g->cell_start[c] = g->cell_start[c - 1];
    g->cell_start[0] = 0;
}
