// Tiled's layer tree (groups, tile layers, object layers) read into the context.
#ifndef LEDGE_TILED_LAYERS_H
#define LEDGE_TILED_LAYERS_H

#include "tiled_ctx.h"

/// Reads every layer (groups included) of the map into c->cells and, when
/// c->want_objects, the objects into c->result / c->bodies.
bool ledge__tiled_read_layers(ledge__tiled_ctx *c, const json_t *map);

#endif // LEDGE_TILED_LAYERS_H
