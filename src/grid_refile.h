// Filing the loose grid again after only some bodies moved (grid_refile.c).
#ifndef LEDGE_GRID_REFILE_H
#define LEDGE_GRID_REFILE_H

#include "grid.h"

// Filing again when only some bodies moved since the last
// filing and the grid keeps its origin, cell and columns (its rows may
// differ): phase 1 looks up only the cells that may have changed, with the
// same cells as ledge__grid_count; the other phases are the same.

/// Whether `g`, fitted again, keeps the cells of its filing `before` for the
/// bodies that did not move.
bool ledge__grid_refilable(const ledge__grid *before, const ledge__grid *g);

/// ledge__grid_count for a grid refilable from a filing with `before_ny`
/// rows, the same set of bodies filed (cell_of >= 0) and only those flagged
/// in `moved` moved since. Returns whether any slot's cell_of changed.
bool ledge__grid_recount(ledge__grid *g, const vec2s *centers, const uint8_t *moved, int before_ny,
                         int begin, int end, int shift, int *count);

#endif // LEDGE_GRID_REFILE_H
