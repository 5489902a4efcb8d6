// Internal: the queries' own index (query.c), kept in step with the bodies.
// Imports the world's types (world.h) only; the modules layer as
// docs/design.md ("Modules") says.
#ifndef LEDGE_QUERY_INDEX_H
#define LEDGE_QUERY_INDEX_H

#include "world.h"

/// Frees the queries' index (query.c); the world's destructor calls it.
void ledge__query_free(ledge_world *world);

/// Refiles body slot i in the queries' index after it was created, placed
/// or destroyed (query.c): that body alone, O(1).
void ledge__query_refile(ledge_world *world, int i);

/// Refiles the bodies whose cell changed in the step (query.c).
void ledge__query_sync(ledge_world *world);

#endif // LEDGE_QUERY_INDEX_H
