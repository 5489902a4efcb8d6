// One Tiled load's context (ledge_tiled, include/ledge/tiled.h). A load runs
// in two phases: everything is read and checked into the context (tiles
// into `cells`, objects into `result` and `bodies`) while the JSON is alive,
// and only then is the target tilemap or world touched, so that a refused
// map changes nothing.
#ifndef LEDGE_TILED_CTX_H
#define LEDGE_TILED_CTX_H

#include "ledge/chain.h"
#include "ledge/tiled.h"

#include <jansson.h>

/// One tileset: the gids [firstgid, firstgid + span) and the ledge tiles of
/// its tiles that carry a `ledge_tile` property, sorted by local id.
typedef struct ledge__tiled_tileset {
    uint32_t firstgid;
    uint32_t span;     ///< max(tilecount, largest tile id + 1): image collections have gaps.
    int tile_count;    ///< Entries in ids / tiles.
    uint32_t *ids;     ///< Local tile ids with a ledge_tile property, ascending.
    ledge_tile *tiles; ///< The ledge tile of each (in Tiled's y-down frame).
    /// The material of each, as drawn in Tiled (a surface speed clockwise
    /// on screen), where has_material says it has material properties.
    ledge_material *materials;
    uint8_t *has_material;
    char name[64]; ///< For messages (truncated).
} ledge__tiled_tileset;

/// A body waiting to be created: its def and the object it belongs to.
typedef struct ledge__tiled_body {
    ledge_body_def def;
    int object;
} ledge__tiled_body;

/// A chain waiting to be created: its def (points in the context's `points`
/// from `first_point`, relative to def.position) and its object.
typedef struct ledge__tiled_chain {
    ledge_chain_def def;
    int first_point;
    int object;
} ledge__tiled_chain;

/// A cell given its tile's material: its index (y * width + x, ledge's
/// frame) and the material, the surface speed turned into ledge's frame.
typedef struct ledge__tiled_cell_material {
    uint32_t cell;
    ledge_material material;
} ledge__tiled_cell_material;

/// An external tileset's text read from a file (freed after the load).
typedef struct ledge__tiled_file {
    char *text;
    size_t len;
} ledge__tiled_file;

typedef struct ledge__tiled_ctx {
    const char *fn;             ///< The public function, first word of every message.
    const ledge_tiled_def *def; ///< Never NULL (defaults filled in).
    const char *map_path;       ///< File loads: the map's path (for external tilesets).
    ledge__tiled_file *files;   ///< External tileset texts read from files.
    int file_count, file_cap;
    bool want_objects; ///< World loads read object layers; tilemap loads skip them.
    bool failed;       ///< Set by ledge__tiled_fail (only the first message is logged).

    int width, height; ///< Map size in cells.
    double tile_px;    ///< Tiled's tile side in pixels.
    double scale;      ///< World units per pixel.
    float tile_size;   ///< World side of a cell.
    vec2s origin;      ///< World position of cell (0, 0)'s lower corner.

    ledge__tiled_tileset *tilesets;
    int tileset_count;

    ledge_tile *cells; ///< width * height, index y * width + x in ledge's frame.
    uint32_t *gids;    ///< Scratch: one tile layer's decoded gids.
    int tile_layers;   ///< Tile layers read.
    /// The cells whose tile has material properties, in the order read
    /// (sorted by cell before they are applied).
    ledge__tiled_cell_material *cell_materials;
    int cell_material_count, cell_material_cap;
    int layer_index; ///< Running index of the layer being read (groups included).

    ledge_tiled_result *result; ///< Objects and properties (world loads).
    int object_cap, property_cap;
    ledge__tiled_body *bodies; ///< Bodies to create, in object order.
    int body_count, body_cap;
    ledge__tiled_chain *chains; ///< Chains to create, in object order.
    int chain_count, chain_cap;
    vec2s *points; ///< The chains' points, in their frames (relative to their positions).
    int point_count, point_cap;
    int result_point_cap; ///< Room of result->points.
    int *path_ids;        ///< Per object: the object id its `path` property names, or -1.
    int path_id_cap;
} ledge__tiled_ctx;

#endif // LEDGE_TILED_CTX_H
