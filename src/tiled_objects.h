// Tiled object layers: objects into bodies, sensors and properties.
#ifndef LEDGE_TILED_OBJECTS_H
#define LEDGE_TILED_OBJECTS_H

#include "tiled_ctx.h"

/// Reads one object layer's objects. `where` names the layer; `offset` is
/// the layer's pixel offset (offsetx, offsety).
bool ledge__tiled_read_objects(ledge__tiled_ctx *c, const json_t *layer, const char *where,
                               const char *layer_name, double offset_x, double offset_y);

/// Frees a result under construction or finished (NULL ignored).
void ledge__tiled_free_result(ledge_tiled_result *r);

#endif // LEDGE_TILED_OBJECTS_H
