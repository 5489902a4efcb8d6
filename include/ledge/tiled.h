/// @file tiled.h
/// Levels from the Tiled map editor (https://www.mapeditor.org): JSON maps
/// (.tmj / .json) to a ledge tilemap, or to a world with bodies.
///
/// An optional part of ledge: the library `ledge_tiled` (pkg-config
/// `ledge-tiled`), built when jansson and zlib are found. docs/tiled.md says
/// how to author a map; in short:
/// - orthogonal, finite maps with square tiles; tile layer data as a JSON
///   array (CSV), base64, base64 + zlib or base64 + gzip;
/// - a tileset tile becomes a ledge tile through its custom property
///   `ledge_tile` (int id 0..33, or a name as ledge_tile_name spells it);
///   tiles without it are decoration and load as EMPTY;
/// - the property names the tile as drawn in Tiled, whose y axis points
///   down (N's convention: `45DEG_PN` faces up-right on screen). By default
///   the map is turned into ledge's y-up frame: Tiled's row 0 becomes the
///   top row (y = height - 1) and every tile's sy is negated, so the level
///   looks in ledge as it looked in Tiled. `y_down` keeps Tiled's frame;
/// - Tiled's flip flags map to the mirrored tile (every group has one);
/// - object layers become bodies: rectangles and tile objects (boxes),
///   ellipses with equal sides (circles), polygons (convex, or decomposed
///   into convex pieces, one static or kinematic body each); point objects
///   are reported without a body. Custom properties `body` (static,
///   kinematic, dynamic, sensor), `one_way`, `friction`, `bounce`,
///   `surface_speed`, `friction_mix`, `density`, `velocity_x`, `velocity_y`
///   set up the body;
/// - polylines become chains (chain.h): open, one-sided, facing up as
///   drawn unless `facing` says otherwise; a polygon with the property
///   `chain` becomes a closed chain (solid inside, or outside with
///   `solid` = "outside"). `body` = kinematic makes a kinematic chain (with
///   `velocity_x`, `velocity_y`), and `path` (an object property) names
///   the polyline or polygon of class `path` it is meant to follow: paths
///   make nothing, their points are in the result for the game to move the
///   chain along (ledge_chain_set_target). A chain's material is the
///   default level material (material.h) with the object's `friction`,
///   `bounce`, `surface_speed` and `friction_mix` properties, as a tileset
///   tile's;
/// - materials (material.h): a tileset tile's custom properties `friction`,
///   `bounce`, `surface_speed` and `friction_mix` give every cell drawn
///   with it that material (ledge_tilemap_set_cell_material; the other
///   cells' own materials are taken away). A surface speed turns clockwise
///   around the tile or object as drawn (on a floor: to the right), a
///   flipped tile's the other way.
///
/// A `sensor` object becomes a static sensor body (ledge_body_def.sensor:
/// it reports overlaps and never collides) and a `one_way` object a one-way
/// platform body, solid for bodies coming from above as drawn in Tiled
/// (LEDGE_ONE_WAY_UP; LEDGE_ONE_WAY_DOWN with `y_down`); both are flagged
/// in the result too.
///
/// Every loader takes the map as bytes in memory (not NUL-terminated; the
/// fuzzing entry point) and refuses a bad map whole, with one logged
/// sentence that names the function, what is wrong and where (JSON line and
/// column, layer, tileset, tile index or object id); the target tilemap or
/// world is then left unchanged. The JSON parser (jansson) allocates with
/// its own allocator (malloc unless the application calls
/// json_set_alloc_funcs); everything ledge keeps goes through ledge's hook.
#ifndef LEDGE_TILED_H
#define LEDGE_TILED_H

#include "chain.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest number of cells (width * height) of a map ledge_tiled accepts
/// (16M cells: 64 MB of decoded tile data).
#define LEDGE_TILED_MAX_CELLS (1 << 24)
/// Largest number of tiles in one tileset (its `tilecount`).
#define LEDGE_TILED_MAX_TILESET_TILES (1 << 20)
/// Largest number of objects in one map.
#define LEDGE_TILED_MAX_OBJECTS 65536

/// Largest number of points of a polyline (or of a polygon made a chain).
#define LEDGE_TILED_MAX_CHAIN_POINTS 4096
/// Deepest nesting of group layers.
#define LEDGE_TILED_MAX_GROUP_DEPTH 16

/// Finds the text of an external tileset (a tileset entry with `source`).
/// Return its JSON text and length, or NULL when there is none (the load is
/// then refused, naming `source`). The text must stay valid until the load
/// call returns; ledge copies nothing out of it afterwards.
typedef const char *ledge_tiled_resolve_fn(const char *source, size_t *len, void *user);

/// How a map is read. Fill with ledge_default_tiled_def.
typedef struct ledge_tiled_def {
    /// The world to create (gravity, tile_size, map_origin, ...). Its
    /// map_width and map_height are replaced by the map's. Used by
    /// ledge_tiled_create_world and (tile_size, map_origin only)
    /// ledge_tiled_create_tilemap.
    ledge_world_def world;
    /// Keep Tiled's y-down frame (row 0 is y = 0, ids unchanged, object y
    /// grows downward), for games whose gravity points to +y. Default false.
    bool y_down;
    /// Read only the tile layer of this name (refused when missing); NULL
    /// merges every tile layer (two different non-empty tiles in one cell are
    /// refused). Default NULL.
    const char *tile_layer;
    /// Finds external tilesets. NULL: the file loaders read them from files
    /// relative to the map; the memory loaders refuse maps that use them.
    ledge_tiled_resolve_fn *resolve;
    void *resolve_user; ///< Passed to `resolve`.
} ledge_tiled_def;

/// What an object's geometry became.
typedef enum ledge_tiled_shape {
    LEDGE_TILED_POINT = 0,    ///< A point object: a marker, no body.
    LEDGE_TILED_BOX = 1,      ///< A rectangle or tile object: one box body.
    LEDGE_TILED_CIRCLE = 2,   ///< An ellipse with equal width and height: one circle body.
    LEDGE_TILED_POLYGON = 3,  ///< A polygon: one body per convex piece (or a closed chain).
    LEDGE_TILED_POLYLINE = 4, ///< A polyline: an open chain (or a path).
} ledge_tiled_shape;

/// The type of a custom property's value.
typedef enum ledge_tiled_property_type {
    LEDGE_TILED_STRING = 0, ///< string, color ("#AARRGGBB") and file properties: `string`.
    LEDGE_TILED_INT = 1,    ///< int and object (an object id) properties: `number`.
    LEDGE_TILED_FLOAT = 2,  ///< float properties: `number`.
    LEDGE_TILED_BOOL = 3,   ///< bool properties: `boolean`.
    LEDGE_TILED_CLASS = 4,  ///< class properties: their members are not read.
} ledge_tiled_property_type;

/// One custom property of an object.
typedef struct ledge_tiled_property {
    const char *name;               ///< The property's name.
    ledge_tiled_property_type type; ///< Which of the value fields holds it.
    const char *string;             ///< STRING value ("" for the other types).
    double number;                  ///< INT and FLOAT value.
    bool boolean;                   ///< BOOL value.
} ledge_tiled_property;

/// One object of an object layer, as loaded.
typedef struct ledge_tiled_object {
    int id;                    ///< Tiled's object id.
    const char *name;          ///< Its name ("" when unnamed).
    const char *type;          ///< Its class / type ("" when none).
    const char *layer;         ///< The name of its object layer.
    ledge_tiled_shape shape;   ///< What its geometry became.
    ledge_body_type body_type; ///< The type of its bodies (STATIC for sensors).
    bool sensor;               ///< `body` = sensor: a static sensor body.
    bool one_way;              ///< `one_way` = true: a one-way platform body (up as drawn).
    float friction;            ///< From the `friction` property, else 0.
    float bounce;              ///< From the `bounce` property, else 0.
    float surface_speed;       ///< From `surface_speed`, in the world's frame (material.h), else 0.
    /// From `friction_mix`, else LEDGE_FRICTION_MIX_MEAN.
    ledge_friction_mix friction_mix;
    vec2s position;       ///< World centre of its bounds; every body of it sits here.
    ledge_aabb bounds;    ///< World bounds of its geometry (a point for POINT).
    int first_body;       ///< Its bodies are result->bodies[first_body .. + body_count).
    int body_count;       ///< 0 for points, 1 for boxes and circles, >= 1 for polygons.
    int first_property;   ///< Its properties: result->properties[first_property ..).
    int property_count;   ///< How many custom properties it has.
    ledge_chain_id chain; ///< The chain a polyline or `chain` polygon made, else the null id.
    bool is_path;         ///< A polyline or polygon of class `path`: no chain, no body.
    int path;             ///< The path its `path` property names (an index in `objects`), or
                          ///< -1.
    int first_point;      ///< A chain's or a path's points (world, in order, a chain's as
                          ///< made): result->points[first_point .. + point_count).
    int point_count;      ///< 0 for other objects.
} ledge_tiled_object;

/// What a load made. Free with ledge_tiled_result_destroy.
typedef struct ledge_tiled_result {
    int width;                         ///< Map width in cells.
    int height;                        ///< Map height in cells.
    int tile_counts[LEDGE_TILE_COUNT]; ///< Cells per tile id in the loaded tilemap.
    int object_count;                  ///< Objects loaded, in layer and file order.
    ledge_tiled_object *objects;       ///< The objects.
    int body_count;                    ///< Bodies created.
    ledge_body_id *bodies;             ///< Their ids, grouped by object.
    int property_count;                ///< Custom properties of all objects.
    ledge_tiled_property *properties;  ///< The properties, grouped by object.
    int chain_count;                   ///< Chains created.
    int point_count;                   ///< The chains' and paths' points, grouped by object.
    vec2s *points;                     ///< Those points (world coordinates).
} ledge_tiled_result;

/// The default def: the default world def, y up, every tile layer, no
/// resolver.
LEDGE_API ledge_tiled_def ledge_default_tiled_def(void);

/// Fills `map` from the tile layers of the Tiled JSON map `json` (`len`
/// bytes, not necessarily NUL-terminated). The map must have the Tiled
/// map's width and height. Object layers are not read. Returns false
/// (logged, map unchanged) for bad arguments or a bad map. `def` may be
/// NULL (defaults).
LEDGE_API bool ledge_tiled_load_tilemap(ledge_tilemap *map, const char *json, size_t len,
                                        const ledge_tiled_def *def);

/// A new tilemap the size of the Tiled map, with def->world's tile_size and
/// map_origin, filled like ledge_tiled_load_tilemap; NULL (logged) on
/// failure.
LEDGE_API ledge_tilemap *ledge_tiled_create_tilemap(const char *json, size_t len,
                                                    const ledge_tiled_def *def);

/// A new world made from def->world with the map's size, its tiles, and one
/// or more bodies per object. Writes a result describing the objects to
/// `*result` when `result` is not NULL (NULL on failure). Returns NULL
/// (logged; nothing allocated) on failure.
LEDGE_API ledge_world *ledge_tiled_create_world(const char *json, size_t len,
                                                const ledge_tiled_def *def,
                                                ledge_tiled_result **result);

/// Loads the map into an existing world: its tilemap (which must have the
/// map's width and height) and new bodies. def->world is not used. On
/// failure (logged) the world is unchanged.
LEDGE_API bool ledge_tiled_load_world(ledge_world *world, const char *json, size_t len,
                                      const ledge_tiled_def *def, ledge_tiled_result **result);

/// ledge_tiled_create_tilemap reading the map from the file at `path`;
/// external tilesets are read relative to it unless def->resolve is set.
LEDGE_API ledge_tilemap *ledge_tiled_create_tilemap_file(const char *path,
                                                         const ledge_tiled_def *def);

/// ledge_tiled_create_world reading the map from the file at `path`;
/// external tilesets are read relative to it unless def->resolve is set.
LEDGE_API ledge_world *ledge_tiled_create_world_file(const char *path, const ledge_tiled_def *def,
                                                     ledge_tiled_result **result);

/// Frees a result. NULL is ignored.
LEDGE_API void ledge_tiled_result_destroy(ledge_tiled_result *result);

/// The first object named `name`, or NULL.
LEDGE_API const ledge_tiled_object *ledge_tiled_find_object(const ledge_tiled_result *result,
                                                            const char *name);

/// The custom property `name` of `object` (from `result`), or NULL.
LEDGE_API const ledge_tiled_property *ledge_tiled_find_property(const ledge_tiled_result *result,
                                                                const ledge_tiled_object *object,
                                                                const char *name);

/// The tile drawn when `tile` (in Tiled's y-down frame) carries Tiled's
/// flip flags: the diagonal flip (a transpose: x and y swap, 22 degree
/// slopes become 67 degree ones) first, then the horizontal flip (sx
/// negated), then the vertical one (sy negated), as Tiled renders them.
/// Invalid ids give EMPTY (logged).
LEDGE_API ledge_tile ledge_tiled_flip(ledge_tile tile, bool horizontal, bool vertical,
                                      bool diagonal);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_TILED_H
