// Internal: the queries' own index (query.c), kept in step with the bodies.
// Imports the world's types (world.h) only; the modules layer as
// docs/design.md ("Modules") says.
#ifndef LEDGE_QUERY_INDEX_H
#define LEDGE_QUERY_INDEX_H

#include "world_state.h"

/// Frees the queries' index (query.c); the world's destructor calls it.
void ledge__query_free(ledge_world *world);

/// Refiles body slot i in the queries' index after it was created, placed
/// or destroyed (query.c): that body alone, O(1).
void ledge__query_refile(ledge_world *world, int i);

/// Notes that body slot i's filter changed (query.c): the index keeps
/// whether the default filter sees each body.
void ledge__query_filter_changed(ledge_world *world, int i);

/// Refiles the bodies whose cell changed in the step (query.c).
void ledge__query_sync(ledge_world *world);

/// Called with each body slot a query finds; false stops the query.
typedef bool ledge__slot_visit_fn(const ledge_world *world, int slot, void *context);

/// ledge_world_query_aabb with the default filter, for callers that order
/// the results themselves (the bump module's nearest collision): the slots
/// in no defined order, without the sort by id, each passed to `visit` as
/// the index is walked (so visit must not change the world). A body's box
/// is its centre offset plus and minus its half extents, which may differ
/// from the other queries' (position plus shape bounds) by a rounding: none
/// for a centred box, and callers pad their boxes by more. Refusals are
/// logged as "<fn>: ..."; returns the bodies visited, or -1.
int ledge__query_aabb_unordered(ledge_world *world, ledge_aabb aabb, const char *fn,
                                ledge__slot_visit_fn *visit, void *context);

/// ledge__query_aabb_unordered over every body whatever its filter (the
/// sleepers an edit or a platform reaches: a filter that hides a body from
/// the queries does not keep it off the tiles).
int ledge__query_aabb_every(ledge_world *world, ledge_aabb aabb, const char *fn,
                            ledge__slot_visit_fn *visit, void *context);

/// The same query of `aabb` answered from `slots`, every slot an earlier
/// ledge__query_aabb_unordered of a box containing `aabb` visited, with
/// no body changed since: visits those whose boxes overlap `aabb`, which
/// are exactly the bodies that query would find (each overlaps the larger
/// box too). Returns the bodies visited.
int ledge__query_aabb_among(ledge_world *world, ledge_aabb aabb, const int *slots, int count,
                            ledge__slot_visit_fn *visit, void *context);

#endif // LEDGE_QUERY_INDEX_H
