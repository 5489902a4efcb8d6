// The project's definitions the loader needs: what each IntGrid value of
// each layer definition becomes, and which tiles of each tileset have a
// shape (enum tags, custom data).
#ifndef LEDGE_LDTK_DEFS_H
#define LEDGE_LDTK_DEFS_H

#include "ldtk_ctx.h"

/// Checks the game's tables in the def (tile ids, one-way directions, body
/// kinds, shapes).
bool ledge__ldtk_check_tables(ledge__ldtk_ctx *c);

/// Reads root["defs"]: IntGrid layer definitions and tilesets.
bool ledge__ldtk_read_defs(ledge__ldtk_ctx *c, const json_t *root);

/// Frees what ledge__ldtk_read_defs made.
void ledge__ldtk_free_defs(ledge__ldtk_ctx *c);

/// The IntGrid layer definition of uid `uid`, or NULL.
const ledge__ldtk_layer_def *ledge__ldtk_layer_def_of(const ledge__ldtk_ctx *c, long long uid);

/// The tileset of uid `uid`, or NULL.
const ledge__ldtk_tileset *ledge__ldtk_tileset_of(const ledge__ldtk_ctx *c, long long uid);

/// What tile `id` of a tileset says, or NULL (decoration).
const ledge__ldtk_tile_info *ledge__ldtk_tile_info_of(const ledge__ldtk_tileset *ts, long long id);

/// What value `v` of an IntGrid layer definition becomes, or NULL when the
/// definition has no such value.
const ledge__ldtk_value_tile *ledge__ldtk_value_of(const ledge__ldtk_layer_def *d, long long v);

#endif // LEDGE_LDTK_DEFS_H
