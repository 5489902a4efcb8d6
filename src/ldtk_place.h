// Once every level was read and the grid is known: levels, entities, their
// bodies and paths, and Point values in world coordinates; entity
// references resolved.
#ifndef LEDGE_LDTK_PLACE_H
#define LEDGE_LDTK_PLACE_H

#include "ldtk_ctx.h"

/// Places everything the read phase kept in pixels (world loads) and
/// prepares the bodies (c->bodies). The grid must be fixed.
bool ledge__ldtk_place(ledge__ldtk_ctx *c);

#endif // LEDGE_LDTK_PLACE_H
