// Internals of ledge_tiled (include/ledge/tiled.h): one load's context and
// the modules' entry points. A load runs in two phases: everything is read
// and checked into the context (tiles into `cells`, objects into `result`
// and `bodies`) while the JSON is alive, and only then is the target
// tilemap or world touched, so that a refused map changes nothing.
#ifndef LEDGE_TILED_INTERNAL_H
#define LEDGE_TILED_INTERNAL_H

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
    char name[64];     ///< For messages (truncated).
} ledge__tiled_tileset;

/// A body waiting to be created: its def and the object it belongs to.
typedef struct ledge__tiled_body {
    ledge_body_def def;
    int object;
} ledge__tiled_body;

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
    int layer_index;   ///< Running index of the layer being read (groups included).

    ledge_tiled_result *result; ///< Objects and properties (world loads).
    int object_cap, property_cap;
    ledge__tiled_body *bodies; ///< Bodies to create, in object order.
    int body_count, body_cap;
} ledge__tiled_ctx;

// tiled_util.c: messages, allocation, typed JSON access ---------------------

/// Logs "<fn>: <message>" (first failure only) and marks the load failed.
/// Always returns false, so that `return ledge__tiled_fail(...)` reads well.
bool ledge__tiled_fail(ledge__tiled_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Grows *array (elements of `elem` bytes, capacity *cap) to hold `need`.
bool ledge__tiled_reserve(ledge__tiled_ctx *c, void **array, int *cap, int need, size_t elem);

/// A copy of `s` through ledge's allocator (NULL logged on failure).
char *ledge__tiled_strdup(ledge__tiled_ctx *c, const char *s);

/// "a string", "the number 3.5", "an array", ... for messages.
const char *ledge__tiled_describe(const json_t *v, char buf[48]);

/// Reads obj[key] as an integer in [min, max]. Absent: *out = fallback
/// when !required, refused otherwise. `where` names obj in messages.
bool ledge__tiled_int(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool required, long long min, long long max, long long fallback,
                      long long *out);
/// Reads obj[key] as a finite number (int or real) in [min, max].
bool ledge__tiled_num(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool required, double min, double max, double fallback, double *out);
/// Reads obj[key] as a string (absent: `fallback` unless required).
bool ledge__tiled_str(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool required, const char *fallback, const char **out);
/// Reads obj[key] as a boolean (absent: `fallback`).
bool ledge__tiled_bool(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                       bool fallback, bool *out);
/// Reads obj[key] as an array (absent: NULL unless required).
bool ledge__tiled_array(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                        bool required, const json_t **out);

/// The property object named `name` in a Tiled "properties" array, or NULL.
const json_t *ledge__tiled_find_prop(const json_t *props, const char *name);

/// Reads the whole file at `path` into a new NUL-terminated buffer (limit
/// 256 MB). Refuses (logged, naming the path) what cannot be read.
bool ledge__tiled_read_file(ledge__tiled_ctx *c, const char *path, char **text, size_t *len);

// tiled_data.c: tile layer data -------------------------------------------

/// Decodes a tile layer's "data" (array, or base64 string with optional
/// zlib/gzip compression) into c->gids (width * height values).
bool ledge__tiled_decode(ledge__tiled_ctx *c, const json_t *layer, const char *where);

// tiled_tileset.c ---------------------------------------------------------

/// Reads the map's "tilesets" (resolving external ones) into c->tilesets.
bool ledge__tiled_read_tilesets(ledge__tiled_ctx *c, const json_t *map);
/// Frees c->tilesets.
void ledge__tiled_free_tilesets(ledge__tiled_ctx *c);
/// The ledge tile (Tiled frame, before flips) of a gid without flag bits,
/// or -1 (logged, naming `where` and `index`) for an unknown gid.
int ledge__tiled_tile_of_gid(ledge__tiled_ctx *c, uint32_t gid, const char *where, long index);

// tiled_layers.c ----------------------------------------------------------

/// Reads every layer (groups included) of the map into c->cells and, when
/// c->want_objects, the objects into c->result / c->bodies.
bool ledge__tiled_read_layers(ledge__tiled_ctx *c, const json_t *map);

// tiled_objects.c ---------------------------------------------------------

/// Reads one object layer's objects. `where` names the layer; `offset` is
/// the layer's pixel offset (offsetx, offsety).
bool ledge__tiled_read_objects(ledge__tiled_ctx *c, const json_t *layer, const char *where,
                               const char *layer_name, double offset_x, double offset_y);

/// Frees a result under construction or finished (NULL ignored).
void ledge__tiled_free_result(ledge_tiled_result *r);

#endif // LEDGE_TILED_INTERNAL_H
