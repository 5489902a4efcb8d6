// One LDtk load's context (ledge_ldtk, include/ledge/ldtk.h). A load runs
// in three phases: everything is read and checked into the context while
// the JSON is alive (tiles into `cells`, entities and fields into `result`
// with their pixel geometry in `ents` and `point_px`), then placed in the
// world's frame once the grid is known (ldtk_place.c), and only then is the
// target tilemap or world touched, so that a refused project changes
// nothing.
#ifndef LEDGE_LDTK_CTX_H
#define LEDGE_LDTK_CTX_H

#include "ledge/ldtk.h"

#include <jansson.h>

/// A cell's tile as the loader keeps it: the tile in ledge's frame, its
/// one-way direction (ledge's frame) and its material (0: none).
typedef struct ledge__ldtk_cell {
    uint8_t tile;
    uint8_t one_way;
    uint16_t material;
} ledge__ldtk_cell;

/// Surface properties read from tile custom data (`friction`, `bounce`,
/// `surface_speed`, `friction_mix`), as drawn; the ones not given keep
/// ledge_default_material()'s values. A cell drawn with such a tile gets
/// the material of its own (ledge__ldtk_ctx.materials, in ledge's frame).
typedef struct ledge__ldtk_material {
    float friction, bounce, surface_speed;
    uint8_t friction_mix; ///< A ledge_friction_mix.
    uint8_t has;          ///< LEDGE__LDTK_HAS_* bits: which of the four were given.
} ledge__ldtk_material;

#define LEDGE__LDTK_HAS_FRICTION 1
#define LEDGE__LDTK_HAS_BOUNCE   2
#define LEDGE__LDTK_HAS_SPEED    4
#define LEDGE__LDTK_HAS_MIX      8

/// A tileset tile that says something to ledge: its shape (as drawn, -1:
/// none), one-way direction (as drawn) and material.
typedef struct ledge__ldtk_tile_info {
    uint32_t id;
    int8_t tile;
    uint8_t one_way;
    ledge__ldtk_material material;
} ledge__ldtk_tile_info;

/// A tileset definition: the tiles that say something, sorted by id.
typedef struct ledge__ldtk_tileset {
    long long uid;
    int grid; ///< tileGridSize.
    int count;
    ledge__ldtk_tile_info *tiles;
    char name[64]; ///< For messages (truncated).
} ledge__ldtk_tileset;

/// What one IntGrid value of a layer definition becomes.
#define LEDGE__LDTK_UNMAPPED (-1)
typedef struct ledge__ldtk_value_tile {
    long long value;
    const char *identifier; ///< Into the project's JSON (alive while reading); may be NULL.
    int tile;               ///< As drawn; LEDGE__LDTK_UNMAPPED: refused when a cell uses it.
    int one_way;            ///< As drawn.
} ledge__ldtk_value_tile;

/// An IntGrid layer definition.
typedef struct ledge__ldtk_layer_def {
    long long uid;
    int count;
    ledge__ldtk_value_tile *values; ///< Sorted by value.
} ledge__ldtk_layer_def;

/// A level chosen for the load, with its place on the map.
typedef struct ledge__ldtk_level {
    const json_t *json; ///< The level object (inside `root`, or an external file's root).
    json_t *external;   ///< A separate level file's parsed JSON (owned), or NULL.
    int index;          ///< In the level array.
    long long x, y;     ///< Top-left corner on the world map, pixels (linear layouts: laid out
                        ///< once the grid is known).
    long long world_x, world_y; ///< Top-left corner as LDtk gives it (worldX, worldY).
    long long w, h;             ///< Size in pixels.
    char name[64];              ///< Identifier (for messages, truncated).
} ledge__ldtk_level;

/// An entity's geometry and body in pixels, until the grid is known: its
/// level's pixels (layer offset included), y down.
typedef struct ledge__ldtk_ent {
    int level;              ///< Index in c->levels.
    double px, py;          ///< The pivot.
    double left, top, w, h; ///< The rectangle.
    int grid;               ///< The entity layer's grid size.
    int path_first;         ///< Its path's cell steps: path_cells[path_first ..).
    int path_count;         ///< Points named in `path` (the entity's own not counted).
    double vx, vy;          ///< `velocity_x`, `velocity_y` (world units per second, world axes).
    char where[160];        ///< For messages: level, layer, entity.
} ledge__ldtk_ent;

/// Where a POINT value's grid lies, until the grid is known: the cell is
/// value.cx, value.cy of a grid of side `grid` (0: the map's) whose origin
/// is (ox, oy) pixels of level `level`.
typedef struct ledge__ldtk_point_px {
    double ox, oy;
    int grid, level;
} ledge__ldtk_point_px;

/// A separate level file read from disk (freed after the load).
typedef struct ledge__ldtk_file {
    char *text;
    size_t len;
} ledge__ldtk_file;

typedef struct ledge__ldtk_ctx {
    const char *fn;            ///< The public function, first word of every message.
    const ledge_ldtk_def *def; ///< Never NULL (defaults filled in).
    const char *project_path;  ///< File loads: the project's path (for separate levels).
    ledge__ldtk_file *files;   ///< Separate level texts read from files.
    int file_count, file_cap;
    bool want_entities; ///< World loads read entity layers and fields; tilemap loads skip them.
    bool failed;        ///< Set by ledge__ldtk_fail (only the first message is logged).

    ledge__ldtk_layer_def *layer_defs;
    int layer_def_count;
    ledge__ldtk_tileset *tilesets;
    int tileset_count;

    ledge__ldtk_level *levels; ///< The levels to load, in array order.
    int level_count;
    int linear;               ///< Every level of a linear layout: 1 horizontal, 2 vertical.
    long long min_x, min_y;   ///< The map's top-left corner on the world map, pixels.
    long long span_x, span_y; ///< The map's size in pixels (all levels' bounds).

    int grid;                  ///< Pixels per cell; 0 until a layer with tiles fixes it.
    int fallback_grid;         ///< The grid when no layer puts a tile.
    int width, height;         ///< Map size in cells (once the grid is known).
    float tile_size;           ///< World side of a cell.
    vec2s origin;              ///< World position of cell (0, 0)'s lower corner.
    double scale;              ///< World units per pixel (once the grid is known).
    ledge__ldtk_cell *cells;   ///< width * height, index y * width + x in ledge's frame.
    ledge__ldtk_cell *scratch; ///< One layer's cells as drawn (its own size).
    size_t scratch_cap;
    bool tile_layer_seen; ///< A layer of def->tile_layer's identifier was read.

    ledge_material *materials; ///< Distinct cell materials (ledge's frame); index k + 1 in cells.
    int material_count, material_cap;

    ledge_ldtk_result *result; ///< Levels, entities, fields, values (world loads).
    int level_cap, entity_cap, field_cap, value_cap, point_cap, ent_cap;
    ledge__ldtk_ent *ents;          ///< One per result entity.
    ledge__ldtk_point_px *point_px; ///< One per result value.
    int *path_cells;                ///< (dcx, dcy) pairs: a path's steps from the entity's cell.
    int path_cell_count, path_cell_cap;
    ledge_body_def *bodies; ///< Bodies to create, in entity order.
    int body_count, body_cap;
} ledge__ldtk_ctx;

#endif // LEDGE_LDTK_CTX_H
