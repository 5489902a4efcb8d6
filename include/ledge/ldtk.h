/// @file ldtk.h
/// Levels from the LDtk level editor (https://ldtk.io): a project (.ldtk,
/// JSON) to a ledge tilemap, or to a world with bodies: one level, or every
/// level placed where LDtk's world map puts it.
///
/// An optional part of ledge: the library `ledge_ldtk` (pkg-config
/// `ledge-ldtk`), built when jansson is found. docs/ldtk.md says how to
/// draw a level for ledge in LDtk; in short:
/// - **IntGrid layers** become tiles through their values' identifiers: a
///   ledge tile name (`FULL`, `45DEG_PN`, `_22DEG_SMALL_NN`: LDtk puts an
///   underscore before a leading digit) or the friendly vocabulary of
///   ledge_ldtk_tile_from_name (`full`, `slope45_up_right`, `half_top`,
///   `one_way`, ...), or through a table the game passes
///   (ledge_ldtk_def.intgrid). A cell whose value has neither is refused,
///   naming the level, layer, cell and value;
/// - **Tiles layers and auto-layers** become tiles through their tileset:
///   an enum tag (the tileset's "tags" enum) whose value is a tile name, or
///   tile custom data `ledge_tile=<name>`. LDtk's flips (X, Y) mirror the
///   tile. Tiles with neither are decoration;
/// - **surface materials**: a tile's custom data `friction=`, `bounce=`,
///   `surface_speed=` (a conveyor belt, clockwise around the tile as
///   drawn) and `friction_mix=` give every cell drawn with it a material of
///   its own (ledge_tilemap_set_cell_material; what it does not say keeps
///   ledge_default_material()'s values). A load leaves the map's cells
///   exactly the level's materials: the other cells lose theirs;
/// - names say the tile **as drawn in LDtk**, whose y axis points down
///   (N's convention: `45DEG_PN` faces up-right on screen). By default the
///   level is turned into ledge's y-up frame (LDtk's top row becomes the
///   top row, y = height - 1, and every tile is mirrored with it), so the
///   level looks in ledge as it looked in LDtk; `y_down` keeps LDtk's
///   frame;
/// - one LDtk grid cell is one ledge cell of side `world.tile_size`: every
///   layer that puts tiles must use the same grid size;
/// - **entity layers** become bodies and sensors by the entity's fields
///   (`body`, `shape`, `one_way`, `sensor`, `path`, `speed`, `loop`,
///   `friction`, `bounce`, `surface_speed`, `friction_mix`, `density`,
///   `velocity_x`, `velocity_y`) or by the game's table of identifiers
///   (ledge_ldtk_def.entity_bodies); every entity, body or not, is handed
///   back in the result with its identifier, iid, position, size and every
///   field in a typed view (Int, Float, Bool, String, Multilines, Enum,
///   Color, Point, EntityRef, FilePath, Tile and arrays of them), for the
///   game to spawn its own (a `material` field, a name of the game's, is
///   only handed back);
/// - a moving platform is an entity with a `path` (Array<Point>): a
///   kinematic body, whose position at any time ledge_ldtk_path_position
///   gives (the game moves it with ledge_body_set_target);
/// - levels saved in separate files (`.ldtkl`, "Save levels separately")
///   are read through def->resolve, or next to the project for the file
///   loaders.
///
/// Every loader takes the project as bytes in memory (not NUL-terminated;
/// the fuzzing entry point) and refuses a bad project whole, with one
/// logged sentence that names the function, what is wrong and where (JSON
/// line and column, level, layer, cell, entity, field); the target tilemap
/// or world is then left unchanged. The JSON parser (jansson) allocates
/// with its own allocator (malloc unless the application calls
/// json_set_alloc_funcs); everything ledge keeps goes through ledge's hook.
#ifndef LEDGE_LDTK_H
#define LEDGE_LDTK_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest number of cells (width * height) of the tilemap a load makes or
/// fills, and of one layer (16M cells).
#define LEDGE_LDTK_MAX_CELLS (1 << 24)
/// Largest number of entities in one load.
#define LEDGE_LDTK_MAX_ENTITIES 65536
/// Largest number of field values (array elements counted one by one) in
/// one load.
#define LEDGE_LDTK_MAX_VALUES (1 << 20)
/// Largest number of points of one path (the entity's own position
/// included).
#define LEDGE_LDTK_MAX_PATH_POINTS 1024
/// Largest pixel coordinate or size the loader accepts (levels, layers,
/// entities, tiles).
#define LEDGE_LDTK_MAX_PIXELS 1000000000

/// Finds the text of a separate level file (`externalRelPath`, relative to
/// the project). Return its JSON text and length, or NULL when there is
/// none (the load is then refused, naming the path). The text must stay
/// valid until the load call returns; ledge copies nothing out of it
/// afterwards.
typedef const char *ledge_ldtk_resolve_fn(const char *path, size_t *len, void *user);

/// What an IntGrid value becomes: an entry of the game's table
/// (ledge_ldtk_def.intgrid). The first entry that matches a value wins;
/// values no entry matches are looked up by their identifier with
/// ledge_ldtk_tile_from_name.
typedef struct ledge_ldtk_intgrid_tile {
    const char *layer;      ///< The IntGrid layer's identifier; NULL: any layer.
    const char *identifier; ///< The value's identifier; "*": every value; NULL: match `value`.
    int value;              ///< The value (1..) to match when `identifier` is NULL.
    int tile;    ///< The ledge tile as drawn in LDtk (y down), 0..33; LEDGE_TILE_EMPTY: not solid.
    int one_way; ///< A ledge_one_way as drawn in LDtk (UP: solid from above on screen), or NONE.
} ledge_ldtk_intgrid_tile;

/// What an entity becomes.
typedef enum ledge_ldtk_body_kind {
    LEDGE_LDTK_NO_BODY = 0,   ///< Nothing: the game's own entity, only in the result.
    LEDGE_LDTK_STATIC = 1,    ///< A static body.
    LEDGE_LDTK_KINEMATIC = 2, ///< A kinematic body (a moving platform when it has a path).
    LEDGE_LDTK_DYNAMIC = 3,   ///< A dynamic body.
    LEDGE_LDTK_SENSOR = 4,    ///< A sensor body: static, or kinematic when it has a path.
} ledge_ldtk_body_kind;

/// The shape of an entity's body.
typedef enum ledge_ldtk_shape {
    LEDGE_LDTK_BOX = 0,    ///< The entity's rectangle.
    LEDGE_LDTK_CIRCLE = 1, ///< A circle filling the entity's square (width = height).
} ledge_ldtk_shape;

/// An entry of the game's table of entity identifiers
/// (ledge_ldtk_def.entity_bodies): the body every entity of that
/// identifier gets unless its own fields say otherwise.
typedef struct ledge_ldtk_entity_body {
    const char *identifier;    ///< The entity identifier (exact).
    ledge_ldtk_body_kind body; ///< Its body kind.
    ledge_ldtk_shape shape;    ///< Its shape.
    bool one_way;              ///< A one-way platform (solid from above as drawn).
} ledge_ldtk_entity_body;

/// How a project is read. Fill with ledge_default_ldtk_def.
typedef struct ledge_ldtk_def {
    /// The world to create (gravity, tile_size, map_origin, ...). Its
    /// map_width and map_height are replaced by the level's. Used by
    /// ledge_ldtk_create_world and (tile_size, map_origin only)
    /// ledge_ldtk_create_tilemap.
    ledge_world_def world;
    /// Keep LDtk's y-down frame (LDtk's row 0 is y = 0, names unchanged,
    /// entity y grows downward), for games whose gravity points to +y.
    /// Default false.
    bool y_down;
    /// The level to load, by identifier or iid; NULL: `level_index`.
    /// Default NULL.
    const char *level;
    /// The level to load when `level` is NULL: its index in the project's
    /// (or the world's) level array. Default 0.
    int level_index;
    /// Load every level of the world instead, each placed at its worldX,
    /// worldY (Free and GridVania layouts; side by side in array order for
    /// LinearHorizontal and LinearVertical): the tilemap covers them all.
    /// Default false.
    bool all_levels;
    /// Multi-world projects: the world to read, by identifier or iid; NULL:
    /// the project's only world. Default NULL.
    const char *ldtk_world;
    /// Read tiles only from the layers of this identifier (refused when no
    /// loaded level has one); NULL: every IntGrid, Tiles and AutoLayer
    /// layer (two different tiles in one cell are refused). Default NULL.
    const char *tile_layer;
    /// The game's IntGrid table (may be NULL), `intgrid_count` entries.
    const ledge_ldtk_intgrid_tile *intgrid;
    int intgrid_count; ///< Entries of `intgrid`.
    /// The game's entity table (may be NULL), `entity_body_count` entries.
    const ledge_ldtk_entity_body *entity_bodies;
    int entity_body_count; ///< Entries of `entity_bodies`.
    /// Finds separate level files. NULL: the file loaders read them from
    /// files relative to the project; the memory loaders refuse levels
    /// that use them.
    ledge_ldtk_resolve_fn *resolve;
    void *resolve_user; ///< Passed to `resolve`.
} ledge_ldtk_def;

/// The type of a field's values (for arrays: of each element).
typedef enum ledge_ldtk_field_type {
    LEDGE_LDTK_FIELD_UNKNOWN = 0,    ///< A type this version does not read: no values.
    LEDGE_LDTK_FIELD_INT = 1,        ///< Int: `integer` (and `number`).
    LEDGE_LDTK_FIELD_FLOAT = 2,      ///< Float: `number`.
    LEDGE_LDTK_FIELD_BOOL = 3,       ///< Bool: `boolean` (and `integer` 0 or 1).
    LEDGE_LDTK_FIELD_STRING = 4,     ///< String, Multilines (Text): `string`.
    LEDGE_LDTK_FIELD_ENUM = 5,       ///< LocalEnum.X, ExternEnum.X: the value's id in `string`.
    LEDGE_LDTK_FIELD_COLOR = 6,      ///< Color: "#rrggbb" in `string`, 0xRRGGBB in `integer`.
    LEDGE_LDTK_FIELD_POINT = 7,      ///< Point: `cx`, `cy` and the cell's centre in `point`.
    LEDGE_LDTK_FIELD_ENTITY_REF = 8, ///< EntityRef: iids, and `entity` when it was loaded.
    LEDGE_LDTK_FIELD_FILE_PATH = 9,  ///< FilePath: `string`.
    LEDGE_LDTK_FIELD_TILE = 10,      ///< Tile: a rectangle of a tileset (`tileset_uid`, `x`..`h`).
} ledge_ldtk_field_type;

/// One value of a field (one element of an array field). The members the
/// field's type does not use are 0, "" or -1 (`entity`).
typedef struct ledge_ldtk_value {
    bool is_null;       ///< A null value (a field that "can be null", or an array element).
    long long integer;  ///< INT; BOOL (0 or 1); COLOR (0xRRGGBB).
    double number;      ///< FLOAT; INT too.
    bool boolean;       ///< BOOL.
    const char *string; ///< STRING, ENUM, COLOR, FILE_PATH; ENTITY_REF: the entity's iid.
    int cx;      ///< POINT: the cell's column in the grid of the entity's layer (the level's).
    int cy;      ///< POINT: the cell's row (0 at the top, as in LDtk).
    vec2s point; ///< POINT: the world position of that cell's centre.
    int entity;  ///< ENTITY_REF: index in result->entities, -1 when not loaded.
    const char *layer; ///< ENTITY_REF: the iid of the entity's layer.
    const char *level; ///< ENTITY_REF: the iid of the entity's level.
    const char *world; ///< ENTITY_REF: the iid of the entity's world.
    int tileset_uid;   ///< TILE: the tileset's uid.
    int x;             ///< TILE: the rectangle's left in the tileset image, pixels.
    int y;             ///< TILE: its top, pixels.
    int w;             ///< TILE: its width, pixels.
    int h;             ///< TILE: its height, pixels.
} ledge_ldtk_value;

/// One field of an entity or a level.
typedef struct ledge_ldtk_field {
    const char *identifier; ///< The field's identifier.
    const char *type_name;  ///< LDtk's type as written: "Int", "Array<Point>", "LocalEnum.Item".
    ledge_ldtk_field_type type; ///< The type of its values.
    const char *enum_name;      ///< ENUM: the enum's identifier ("Item"); "" otherwise.
    bool is_array;              ///< An Array<...> field.
    int first_value;            ///< Its values are result->values[first_value .. + value_count).
    int value_count; ///< 1 for a single value (maybe null), the length for an array, 0 for UNKNOWN.
} ledge_ldtk_field;

/// One loaded level.
typedef struct ledge_ldtk_level {
    const char *identifier; ///< Its identifier.
    const char *iid;        ///< Its iid.
    int index;              ///< Its index in the project's (or world's) level array.
    int world_x;            ///< Its left on LDtk's world map, pixels (worldX).
    int world_y;            ///< Its top on LDtk's world map, pixels (worldY).
    int px_width;           ///< Its width in pixels.
    int px_height;          ///< Its height in pixels.
    int cell_x;      ///< The tilemap column of its corner nearest cell (0, 0) (lower-left in y up).
    int cell_y;      ///< The tilemap row of that corner.
    int cell_width;  ///< Its width in cells.
    int cell_height; ///< Its height in cells.
    ledge_aabb bounds; ///< Its world bounds.
    int first_field;   ///< Its fields: result->fields[first_field ..).
    int field_count;   ///< How many fields it has.
} ledge_ldtk_level;

/// One entity, as loaded.
typedef struct ledge_ldtk_entity {
    const char *identifier;    ///< The entity's identifier ("Player", "Crate").
    const char *iid;           ///< Its iid.
    const char *layer;         ///< The identifier of its layer.
    int level;                 ///< Index of its level in result->levels.
    int px_x;                  ///< Its pivot's x in its level, pixels (LDtk's `px`).
    int px_y;                  ///< Its pivot's y in its level, pixels (y down).
    int px_width;              ///< Its width in pixels.
    int px_height;             ///< Its height in pixels.
    int cx;                    ///< Its cell's column in its layer's grid (`__grid`).
    int cy;                    ///< Its cell's row (0 at the top).
    vec2s position;            ///< World position of its pivot.
    ledge_aabb bounds;         ///< World bounds of its rectangle.
    ledge_ldtk_body_kind body; ///< What it became (NO_BODY: the game's own).
    ledge_ldtk_shape shape;    ///< Its body's shape.
    ledge_body_type body_type; ///< Its body's type (STATIC for a sensor without path).
    bool sensor;               ///< A sensor body: reports overlaps, never collides.
    bool one_way;              ///< A one-way platform body (up as drawn).
    float friction;            ///< From `friction`, else 0.
    float bounce;              ///< From `bounce`, else 0.
    float density;             ///< From `density`, else 1.
    float surface_speed;       ///< From `surface_speed`, else 0 (negated with y_down).
    const char *material;      ///< From `material`, else "": the game's name (not applied).
    int first_body;            ///< Its bodies are result->bodies[first_body .. + body_count).
    int body_count;            ///< 0 or 1.
    int first_field;           ///< Its fields: result->fields[first_field ..).
    int field_count;           ///< How many fields it has.
    int first_path_point;      ///< Its path: result->path_points[first_path_point ..).
    int path_point_count;      ///< 0 without a path; else its own position and the points.
    float path_speed;          ///< World units per second along the path.
    bool path_loop;            ///< Back to the first point after the last; else back and forth.
    /// From `friction_mix` (mean, min, max), else MEAN.
    ledge_friction_mix friction_mix;
} ledge_ldtk_entity;

/// What a load made. Free with ledge_ldtk_result_destroy.
typedef struct ledge_ldtk_result {
    int width;                         ///< Tilemap width in cells.
    int height;                        ///< Tilemap height in cells.
    int grid_px;                       ///< LDtk's grid size in pixels (one cell).
    int tile_counts[LEDGE_TILE_COUNT]; ///< Cells per tile id in the loaded tilemap.
    int one_way_cells;                 ///< Cells made one-way.
    int material_cells;                ///< Cells given a material of their own.
    int level_count;                   ///< Levels loaded.
    ledge_ldtk_level *levels;          ///< The levels, in the project's order.
    int entity_count;                  ///< Entities loaded, in level, layer and file order.
    ledge_ldtk_entity *entities;       ///< The entities.
    int body_count;                    ///< Bodies created.
    ledge_body_id *bodies;             ///< Their ids, grouped by entity.
    int field_count;                   ///< Fields of all entities and levels.
    ledge_ldtk_field *fields;          ///< The fields, grouped by owner.
    int value_count;                   ///< Values of all fields.
    ledge_ldtk_value *values;          ///< The values, grouped by field.
    int path_point_count;              ///< Points of all paths.
    vec2s *path_points;                ///< World positions of each path's body centre.
} ledge_ldtk_result;

/// The default def: the default world def, y up, the first level, every
/// tile layer, no tables, no resolver.
LEDGE_API ledge_ldtk_def ledge_default_ldtk_def(void);

/// Fills `map` from the level(s)' tile layers: every cell's tile, one-way
/// direction and own material (cells without one lose theirs; the tile
/// ids' materials stay as they were). The map must have the level's size
/// in cells. Entity layers are not read. Returns false
/// (logged, map unchanged) for bad arguments or a bad project. `def` may
/// be NULL (defaults).
LEDGE_API bool ledge_ldtk_load_tilemap(ledge_tilemap *map, const char *json, size_t len,
                                       const ledge_ldtk_def *def);

/// A new tilemap the size of the level(s), with def->world's tile_size and
/// map_origin, filled like ledge_ldtk_load_tilemap; NULL (logged) on
/// failure.
LEDGE_API ledge_tilemap *ledge_ldtk_create_tilemap(const char *json, size_t len,
                                                   const ledge_ldtk_def *def);

/// A new world made from def->world with the level(s)' size, tiles, and a
/// body per entity that asks for one. Writes a result describing the
/// levels and entities to `*result` when `result` is not NULL (NULL on
/// failure). Returns NULL (logged; nothing allocated) on failure.
LEDGE_API ledge_world *ledge_ldtk_create_world(const char *json, size_t len,
                                               const ledge_ldtk_def *def,
                                               ledge_ldtk_result **result);

/// Loads the level(s) into an existing world: its tilemap (which must have
/// the level's size) and new bodies. def->world is not used. On failure
/// (logged) the world is unchanged.
LEDGE_API bool ledge_ldtk_load_world(ledge_world *world, const char *json, size_t len,
                                     const ledge_ldtk_def *def, ledge_ldtk_result **result);

/// ledge_ldtk_create_tilemap reading the project from the file at `path`;
/// separate level files are read relative to it unless def->resolve is set.
LEDGE_API ledge_tilemap *ledge_ldtk_create_tilemap_file(const char *path,
                                                        const ledge_ldtk_def *def);

/// ledge_ldtk_create_world reading the project from the file at `path`;
/// separate level files are read relative to it unless def->resolve is set.
LEDGE_API ledge_world *ledge_ldtk_create_world_file(const char *path, const ledge_ldtk_def *def,
                                                    ledge_ldtk_result **result);

/// Frees a result. NULL is ignored.
LEDGE_API void ledge_ldtk_result_destroy(ledge_ldtk_result *result);

/// The first loaded level whose identifier or iid is `name`, or NULL.
LEDGE_API const ledge_ldtk_level *ledge_ldtk_find_level(const ledge_ldtk_result *result,
                                                        const char *name);

/// The first entity whose identifier or iid is `name`, or NULL.
LEDGE_API const ledge_ldtk_entity *ledge_ldtk_find_entity(const ledge_ldtk_result *result,
                                                          const char *name);

/// The field `name` of `entity` (from `result`), or NULL.
LEDGE_API const ledge_ldtk_field *ledge_ldtk_entity_field(const ledge_ldtk_result *result,
                                                          const ledge_ldtk_entity *entity,
                                                          const char *name);

/// The field `name` of `level` (from `result`), or NULL.
LEDGE_API const ledge_ldtk_field *ledge_ldtk_level_field(const ledge_ldtk_result *result,
                                                         const ledge_ldtk_level *level,
                                                         const char *name);

/// Where the body of an entity with a path is `time` seconds after the
/// load: it leaves its own position at path_speed, passes every point in
/// order, and then comes back the same way (or, with path_loop, goes on to
/// the first point). Its position when it has no path (or speed 0); (0, 0)
/// (logged) for bad arguments. Move the body there with
/// ledge_body_set_target(world, id, ledge_ldtk_path_position(r, e, t + dt),
/// dt) before each step.
LEDGE_API vec2s ledge_ldtk_path_position(const ledge_ldtk_result *result,
                                         const ledge_ldtk_entity *entity, double time);

/// The tile a name says, as drawn in LDtk (y down), or -1: a ledge tile
/// name in any case (`FULL`, `45DEG_PN`, with or without LDtk's leading
/// underscore), or the friendly vocabulary: `empty`; `full` (also `solid`,
/// `wall`, `walls`); `half_top`, `half_bottom`, `half_left`, `half_right`
/// (the solid half); `<group>_<facing>` with group `slope45`,
/// `slope22_small`, `slope22_big`, `slope67_small`, `slope67_big`,
/// `concave` (a quarter pipe) or `convex` (a round corner) and facing (the
/// way the surface faces on screen) `up_right`, `up_left`, `down_left`,
/// `down_right` (or `ur`, `ul`, `dl`, `dr`). A name may end in `_one_way`
/// (and `one_way` alone is a full one-way cell): then `*one_way` (when not
/// NULL) is LEDGE_ONE_WAY_UP (solid from above as drawn), else NONE.
LEDGE_API int ledge_ldtk_tile_from_name(const char *name, int *one_way);

/// The tile drawn when `tile` (as drawn in LDtk) is mirrored by LDtk's flip
/// bits: X (sx negated) and Y (sy negated). Invalid ids give EMPTY (logged).
LEDGE_API ledge_tile ledge_ldtk_flip(ledge_tile tile, bool flip_x, bool flip_y);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_LDTK_H
