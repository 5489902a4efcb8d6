// Which levels a load reads and where they lie: the world (multi-world
// projects), the level by identifier, iid or index (or every level), their
// places on LDtk's world map, separate level files, and the map's grid.
#ifndef LEDGE_LDTK_LEVELS_H
#define LEDGE_LDTK_LEVELS_H

#include "ldtk_ctx.h"

/// Chooses the levels of the load into c->levels (reading separate level
/// files) and their bounds on the world map.
bool ledge__ldtk_select_levels(ledge__ldtk_ctx *c, const json_t *root);

/// Frees the chosen levels (and the separate level files' JSON).
void ledge__ldtk_free_levels(ledge__ldtk_ctx *c);

/// Fixes the map's grid at `grid` pixels: the levels of a linear layout are
/// laid out; every level must lie on the grid; the map's bounds and size in
/// cells follow; the cells are allocated (EMPTY). `where` names the layer
/// that fixes it.
bool ledge__ldtk_fix_grid(ledge__ldtk_ctx *c, int grid, const char *where);

#endif // LEDGE_LDTK_LEVELS_H
