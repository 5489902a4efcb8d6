// Entity layers: each entity into the result (identifier, iid, fields), its
// rectangle in map pixels, and what body it asks for.
#ifndef LEDGE_LDTK_ENTITIES_H
#define LEDGE_LDTK_ENTITIES_H

#include "ldtk_ctx.h"

/// The layer an entity list comes from.
typedef struct ledge__ldtk_entity_layer {
    const char *where; ///< "level 'A', layer 'Entities'".
    const char *name;  ///< The layer's identifier.
    int level;         ///< Index in result->levels (and c->levels).
    int grid;          ///< The layer's grid size.
    double ox, oy;     ///< The layer's offset in its level, pixels.
} ledge__ldtk_entity_layer;

/// Reads layer["entityInstances"].
bool ledge__ldtk_read_entities(ledge__ldtk_ctx *c, const json_t *layer,
                               const ledge__ldtk_entity_layer *from);

/// Frees the strings of the result's entities and the array.
void ledge__ldtk_free_entities(ledge_ldtk_result *r);

#endif // LEDGE_LDTK_ENTITIES_H
