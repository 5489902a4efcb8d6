// A level's layers: IntGrid, Tiles and AutoLayer layers into the map's
// cells, entity layers to ldtk_entities.c, and the level's own fields.
#ifndef LEDGE_LDTK_LAYERS_H
#define LEDGE_LDTK_LAYERS_H

#include "ldtk_ctx.h"

/// Reads level `k` of c->levels: its fields and entities (world loads)
/// and its tiles.
bool ledge__ldtk_read_level(ledge__ldtk_ctx *c, int k);

#endif // LEDGE_LDTK_LAYERS_H
