// The loose grid broad phase (grid.h): rebuilt by a counting sort, which is
// O(bodies + cells), allocation-free once warm and deterministic (bodies of
// a cell stay in slot order).
#include "grid.h"

#include <string.h>

// Grows *array to hold n ints; keeps the old array when allocation fails.
static bool grow_ints(int **array, int *cap, int n) {
    if (n <= *cap) return true;
    int want = n > *cap * 2 ? n : *cap * 2;
    int *fresh = ledge__alloc(sizeof(int) * (size_t)want);
    if (fresh == NULL) {
        LEDGE_ERROR("ledge_world_step: broad phase allocation of %d entries failed", want);
        return false;
    }
    ledge__free(*array);
    *array = fresh;
    *cap = want;
    return true;
}

bool ledge__grid_prepare(ledge__grid *g, vec2s lower, vec2s upper, float cell, int bodies) {
    int nx = (int)ceilf((upper.x - lower.x) / cell) + 1;
    int ny = (int)ceilf((upper.y - lower.y) / cell) + 1;
    // A world much larger than its bodies would need a huge dense grid: cap
    // the cell count by growing the cells (still correct, only coarser).
    while ((double)nx * (double)ny > 4.0 * 1048576.0) {
        cell *= 2.0f;
        nx = (int)ceilf((upper.x - lower.x) / cell) + 1;
        ny = (int)ceilf((upper.y - lower.y) / cell) + 1;
    }
    int cells = nx * ny;
    int cell_cap = g->cell_cap, body_cap = g->body_cap;
    if (!grow_ints(&g->cell_start, &cell_cap, cells + 1)) return false;
    g->cell_cap = cell_cap;
    int cap_of = g->body_cap, cap_sorted = g->body_cap;
    if (!grow_ints(&g->cell_of, &cap_of, bodies)) return false;
    if (!grow_ints(&g->sorted, &cap_sorted, bodies)) return false;
    body_cap = cap_of < cap_sorted ? cap_of : cap_sorted;
    g->body_cap = body_cap;
    g->cell = cell;
    g->inv_cell = 1.0f / cell;
    g->origin = lower;
    g->nx = nx;
    g->ny = ny;
    return true;
}

void ledge__grid_free(ledge__grid *g) {
    ledge__free(g->cell_start);
    ledge__free(g->cell_of);
    ledge__free(g->sorted);
    memset(g, 0, sizeof *g);
}

static inline int clamp_index(float f, int n) {
    // Compare as floats first so that far-away (or huge) values never reach
    // an out-of-range int conversion.
    if (!(f >= 0.0f)) return 0;
    if (f >= (float)(n - 1)) return n - 1;
    return (int)f;
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
        int cx = clamp_index((centers[i].x - g->origin.x) * g->inv_cell, g->nx);
        int cy = clamp_index((centers[i].y - g->origin.y) * g->inv_cell, g->ny);
        int c = cy * g->nx + cx;
        g->cell_of[i] = c;
        g->cell_start[c + 1]++;
    }
    for (int c = 0; c < cells; ++c) g->cell_start[c + 1] += g->cell_start[c];
    g->count = g->cell_start[cells];
    // Place each body at its cell's next free position; cell_start[c] is
    // used as the cursor and restored afterwards by shifting back.
    for (int i = 0; i < slot_count; ++i) {
        int c = g->cell_of[i];
        if (c >= 0) g->sorted[g->cell_start[c]++] = i;
    }
    for (int c = cells; c > 0; --c) g->cell_start[c] = g->cell_start[c - 1];
    g->cell_start[0] = 0;
}
