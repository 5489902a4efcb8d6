// Tiled tilesets (embedded and external) and the ledge tiles of their gids.
#ifndef LEDGE_TILED_TILESET_H
#define LEDGE_TILED_TILESET_H

#include "tiled_ctx.h"

/// Reads the map's "tilesets" (resolving external ones) into c->tilesets.
bool ledge__tiled_read_tilesets(ledge__tiled_ctx *c, const json_t *map);
/// Frees c->tilesets.
void ledge__tiled_free_tilesets(ledge__tiled_ctx *c);
/// The ledge tile (Tiled frame, before flips) of a gid without flag bits,
/// or -1 (logged, naming `where` and `index`) for an unknown gid. With
/// `material` not NULL, *material is the tile's material as drawn in
/// Tiled, or NULL when it has none.
int ledge__tiled_tile_of_gid(ledge__tiled_ctx *c, uint32_t gid, const char *where, long index,
                             const ledge_material **material);

/// The ledge_friction_mix named `s` ("mean", "min", "max"), or -1.
int ledge__tiled_friction_mix(const char *s);

#endif // LEDGE_TILED_TILESET_H
