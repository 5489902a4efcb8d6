// The world queries' part about chains (chain_query.c): rays, shape casts,
// nearest surfaces and box and point queries over the chains a query
// filter sees. The public queries (query.c, distance_world.c, chain.c)
// merge these with the tiles' and the bodies'.
#ifndef LEDGE_CHAIN_QUERY_H
#define LEDGE_CHAIN_QUERY_H

#include "chain_store.h"

#include "ledge/query.h"

/// A query's order key of a hit (query.c's ties): tiles first, then chains
/// by slot, then bodies by handle (>= 0).
#define LEDGE__KEY_TILE INT32_MIN
static inline int ledge__chain_key(int slot) {
    return INT32_MIN + 1 + slot;
}

/// Whether the filter sees chain c.
static inline bool ledge__filter_sees_chain(const ledge_query_filter *f, const ledge__chain *c) {
    return f->include_chains && (f->category & c->filter.mask) != 0 &&
           (c->filter.category & f->mask) != 0;
}

/// A chain hit: the chain's slot, the segment, and where.
typedef struct ledge__chain_hit {
    int chain, segment;
    float fraction;
    vec2s point, normal;
} ledge__chain_hit;

/// The first chain segment the ray o -> o + d hits from the front among the
/// chains the filter sees, if before fraction `best` (equal fractions:
/// lower chain slot, then segment). False when none.
bool ledge__chains_raycast(const ledge_world *world, vec2s o, vec2s d,
                           const ledge_query_filter *filter, float best, ledge__chain_hit *out);

/// The first hit of each chain the filter sees, in slot order, into the
/// chains' scratch (world->chains->hits, grown here: between steps only);
/// returns how many, or -1 when the scratch cannot grow (logged as `fn`).
int ledge__chains_raycast_all(ledge_world *world, vec2s o, vec2s d,
                              const ledge_query_filter *filter, const char *fn);

/// The first contact of `shape` at pos moved by d with a chain the filter
/// sees (ledge__segment_sweep), if before `best`.
bool ledge__chains_shape_cast(const ledge_world *world, const ledge_shape *shape, vec2s pos,
                              vec2s d, const ledge_query_filter *filter, float best,
                              ledge__chain_hit *out);

/// The nearest chain surface within max_distance of `shape` at pos among
/// the chains the filter sees (ledge__segment_distance: a = the chain),
/// if nearer than `best` (equal: lower slot, then segment).
bool ledge__chains_nearest(const ledge_world *world, const ledge_shape *shape, vec2s pos,
                           float max_distance, const ledge_query_filter *filter, float best,
                           int *chain, int *segment, ledge_distance_result *out);

/// Whether the closed chain c holds the world point p (its solid side;
/// the chain itself counts). False for an open chain.
bool ledge__chain_holds(const ledge__chain *c, vec2s p);

/// Whether segment `segment` of chain c meets the world box (touching
/// counts).
bool ledge__chain_segment_meets(const ledge__chain *c, int segment, ledge_aabb box);

#endif // LEDGE_CHAIN_QUERY_H
