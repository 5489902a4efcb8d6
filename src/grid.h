// The broad phase's data structure: a uniform loose grid. Each body lives in
// the cell that holds the centre of its bounding box; cells are at least as
// large as the bodies filed in them, so two of those bodies can only touch
// when their cells are the same or adjacent, and each pair is met once by
// scanning a cell against itself and four of its eight neighbours
// (tutorial B). The grid covers only the rectangle its bodies occupy, so an
// empty map costs nothing however large it is.
#ifndef LEDGE_GRID_H
#define LEDGE_GRID_H

#include "core.h"

typedef struct ledge__grid {
    float cell; ///< Cell side.
    float inv_cell;
    vec2s origin; ///< Position of cell (0, 0)'s lower corner.
    int nx, ny;   ///< Cells along x and y.
    int cell_cap; ///< Capacity of cell_start (cells + 1).
    /// Cells a fit may lay (ledge__grid_fit): the last reservation's, never
    /// the capacity, which depends on how the arrays grew (a world restored
    /// from a snapshot must lay the cells the world that saved it laid).
    int cell_limit;
    int body_cap;    ///< Capacity of cell_of and sorted.
    int *cell_start; ///< Bodies of cell c are sorted[cell_start[c] .. cell_start[c + 1]).
    int *cell_of;    ///< Cell of each body slot (-1 for slots not in the grid).
    int *sorted;     ///< Body slots, by cell, then by slot (a stable counting sort).
    int count;       ///< Bodies in `sorted`.
    int slots;       ///< Slots filed by the last build (cell_of is valid below it; 0: none).
    long refiled;    ///< Filings made by ledge__grid_recount (for the tests).
    long kept;       ///< Filings that found every cell as it was and kept the last (broad.c).
} ledge__grid;

/// Makes room for `bodies` slots and `cells` cells, and lets fits lay up to
/// `cells` cells. Allocates only when the grid must grow; returns false
/// (logged) when an allocation fails, leaving the grid as it was.
bool ledge__grid_reserve(ledge__grid *g, int bodies, int cells);

/// Frees the grid's arrays.
void ledge__grid_free(ledge__grid *g);

/// Lays cells of side >= `cell` over [lower, upper], doubling the side
/// until they are at most cell_limit (still correct, only coarser).
void ledge__grid_fit(ledge__grid *g, vec2s lower, vec2s upper, float cell);

/// The cell column or row of coordinate f (relative to the origin, times
/// inv_cell), clamped into 0..n-1.
static inline int ledge__grid_index(float f, int n) {
    // Compare as floats first so that far-away (or huge) values never reach
    // an out-of-range int conversion.
    if (!(f >= 0.0f)) return 0;
    if (f >= (float)(n - 1)) return n - 1;
    return (int)f;
}

/// Filing the bodies is a stable counting sort by cell (bodies of a cell in
/// slot order) in three phases that split over workers: blocks of slots
/// count their bodies per band of 1 << shift consecutive cells; prefix sums
/// over (band, block) make those counts the blocks' places in each band
/// (ledge__grid_band_places); the blocks scatter their slots by band into
/// `by_band`; each band then sorts its own slots by cell. The result is the
/// one stable sort for any split.

/// The band shift for the grid's cells: at most LEDGE__GRID_BANDS bands.
#define LEDGE__GRID_BANDS 64
int ledge__grid_band_shift(const ledge__grid *g);

/// A rectangle of grid cells: columns x0 .. x1, rows y0 .. y1 (empty when
/// x0 > x1 or y0 > y1).
typedef struct ledge__cell_rect {
    int x0, y0, x1, y1;
} ledge__cell_rect;

/// The column and row of the cell of a centre (grid coordinates): the one
/// rule every filing uses.
static inline void ledge__grid_xy(const ledge__grid *g, vec2s c, int *cx, int *cy) {
    *cx = ledge__grid_index((c.x - g->origin.x) * g->inv_cell, g->nx);
    *cy = ledge__grid_index((c.y - g->origin.y) * g->inv_cell, g->ny);
}

/// The cell of a centre (grid coordinates).
static inline int ledge__grid_cell(const ledge__grid *g, vec2s c) {
    int cx, cy;
    ledge__grid_xy(g, c, &cx, &cy);
    return cy * g->nx + cx;
}

/// Phase 1 for slots [begin, end): their cells (cell_of, -1 for those whose
/// `include` flag is clear) and `count[band]` of the block (zeroed first).
/// Returns whether any slot's cell_of changed.
bool ledge__grid_count(ledge__grid *g, const vec2s *centers, const uint8_t *include, int begin,
                       int end, int shift, int *count);

/// Phase 2, on one thread: the blocks' counts (`blocks` rows of
/// LEDGE__GRID_BANDS) become their places; band_start[band] (bands + 1
/// entries) where each band starts. Sets count and slots.
void ledge__grid_band_places(ledge__grid *g, int *counts, int blocks, int shift, int slot_count,
                             int *band_start);

/// Phase 3 for slots [begin, end): each to its place in `by_band`.
void ledge__grid_scatter(const ledge__grid *g, int begin, int end, int shift, int *place,
                         int *by_band);

/// Phase 4 for one band: its cells' starts and its slots into `sorted`.
void ledge__grid_sort_band(ledge__grid *g, int band, int shift, const int *band_start,
                           const int *by_band);

#endif // LEDGE_GRID_H
