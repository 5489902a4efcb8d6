// Field instances (of entities and levels) into the result's typed fields
// and values.
#ifndef LEDGE_LDTK_FIELDS_H
#define LEDGE_LDTK_FIELDS_H

#include "ldtk_ctx.h"

/// Where a field owner's Point values lie: cells of side `grid` pixels (0:
/// the map's grid) from (ox, oy) pixels of level `level` (c->levels).
typedef struct ledge__ldtk_grid_frame {
    int grid;
    double ox, oy;
    int level;
} ledge__ldtk_grid_frame;

/// Appends owner["fieldInstances"] to the result; sets *first and *count.
/// `where` names the owner in messages.
bool ledge__ldtk_read_fields(ledge__ldtk_ctx *c, const json_t *owner, const char *where,
                             const ledge__ldtk_grid_frame *frame, int *first, int *count);

/// The field named `name` (any case) among `count` fields from `first`,
/// or NULL.
const ledge_ldtk_field *ledge__ldtk_field_named(const ledge_ldtk_result *r, int first, int count,
                                                const char *name);

/// Frees the strings of the result's fields and values and the arrays.
void ledge__ldtk_free_fields(ledge_ldtk_result *r);

#endif // LEDGE_LDTK_FIELDS_H
