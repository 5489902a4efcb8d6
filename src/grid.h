// The broad phase: a uniform loose grid. Each body lives in the cell that
// holds the centre of its bounding box; cells are at least as large as the
// largest body, so two bodies can only touch when their cells are the same
// or adjacent, and each pair is met once by scanning a cell against itself
// and four of its eight neighbours (tutorial B).
#ifndef LEDGE_GRID_H
#define LEDGE_GRID_H

#include "core.h"

typedef struct ledge__grid {
    float cell; ///< Cell side (>= the largest body's extent).
    float inv_cell;
    vec2s origin;    ///< World position of cell (0, 0)'s lower corner.
    int nx, ny;      ///< Cells along x and y (bodies outside are clamped in).
    int cell_cap;    ///< Capacity of cell_start (cells + 1).
    int body_cap;    ///< Capacity of cell_of and sorted.
    int *cell_start; ///< Bodies of cell c are sorted[cell_start[c] .. cell_start[c + 1]).
    int *cell_of;    ///< Cell of each body slot (-1 for slots not in the grid).
    int *sorted;     ///< Body slots, by cell, then by slot (a stable counting sort).
    int count;       ///< Bodies in `sorted`.
} ledge__grid;

/// Sets the cell size and the covered rectangle, and makes room for
/// `bodies` slots. Allocates only when the grid must grow; returns false
/// (logged) when an allocation fails, leaving the grid as it was.
bool ledge__grid_prepare(ledge__grid *g, vec2s lower, vec2s upper, float cell, int bodies);

/// Frees the grid's arrays.
void ledge__grid_free(ledge__grid *g);

/// Files the bodies whose `include` flag is set by the cells of `centers`
/// (slots 0..slot_count-1). O(bodies + cells), no allocation.
void ledge__grid_build(ledge__grid *g, const vec2s *centers, const uint8_t *include,
                       int slot_count);

#endif // LEDGE_GRID_H
