// A Tiled tile layer's data: array, or base64 with zlib or gzip.
#ifndef LEDGE_TILED_DATA_H
#define LEDGE_TILED_DATA_H

#include "tiled_ctx.h"

/// Decodes a tile layer's "data" (array, or base64 string with optional
/// zlib/gzip compression) into c->gids (width * height values).
bool ledge__tiled_decode(ledge__tiled_ctx *c, const json_t *layer, const char *where);

#endif // LEDGE_TILED_DATA_H
