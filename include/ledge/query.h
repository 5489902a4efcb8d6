/// @file query.h
/// Questions a game asks the world between steps: what does this ray hit,
/// which bodies are in this box or under this point, where does this shape
/// stop when moved along a path. Tiles and bodies are answered together.
///
/// Overview
/// --------
///     ledge_query_filter f = ledge_default_query_filter();
///     f.ignore = player;                       // not the caster itself
///     ledge_raycast_result r;
///     if (ledge_world_raycast(world, eye, (vec2s){{8, 0}}, &f, &r)) {
///         // r.kind says tile (r.cell_x, r.cell_y, r.tile) or body (r.body)
///     }
///
/// Bodies are found through a loose grid of the queries' own (bodies larger
/// than its cells in a separate list), rebuilt lazily on the first query
/// after anything moved: a step, ledge_body_create, ledge_body_destroy or
/// ledge_body_set_position. Queries therefore always see the current
/// positions, and cost nothing while nobody asks.
///
/// Every result is deterministic: ties are broken by kind (tiles first) and
/// then by body index (ledge_body_id.index1), never by memory order.
///
/// Queries are refused (logged) while the world is stepping, for a NULL
/// world, output or callback, non-finite or out-of-range numbers, an
/// invalid shape, and a filter whose `ignore` id is stale.
///
/// Cheap wall probes: a point test against the tilemap
/// (`ledge_tilemap_query_point` on `ledge_world_tilemap(world)`) plus
/// `ledge_world_query_point` for bodies answers "is there a wall 0.05 to my
/// left at knee height" in a few nanoseconds (docs/queries.md).
#ifndef LEDGE_QUERY_H
#define LEDGE_QUERY_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a cast does at a one-way platform: a one-way tile
/// (ledge_tilemap_set_one_way) or body (ledge_body_def.one_way).
typedef enum ledge_query_one_way {
    /// As the step treats a body (the default): the platform is hit only
    /// where the ray or shape enters it through a surface facing its
    /// allowed side (a normal within 60 degrees of the direction), so a
    /// ray falling onto a LEDGE_ONE_WAY_UP ledge hits its top, while one
    /// rising through it, or passing along it sideways, goes on. A cast
    /// that starts inside the platform passes it, unless it starts within
    /// twice the world's linear_slop behind such a surface (where a body
    /// resting on the platform is): it then hits it at fraction 0.
    LEDGE_QUERY_ONE_WAY_AS_BODIES = 0,
    LEDGE_QUERY_ONE_WAY_ALWAYS = 1, ///< Solid from every side, like any tile or body.
    LEDGE_QUERY_ONE_WAY_NEVER = 2,  ///< Never hit: casts and ledge_world_nearest pass it.
} ledge_query_one_way;

/// Which bodies (and whether tiles) a query sees. A body is seen when
/// `(category & body.mask) != 0 && (body.category & mask) != 0`, as two
/// bodies' ledge_filters are matched (groups do not apply to queries).
typedef struct ledge_query_filter {
    uint64_t category;           ///< What the query is (bits). Default 1.
    uint64_t mask;               ///< What it sees (bits). Default all.
    bool include_tiles;          ///< Whether tiles are hit (casts only). Default true.
    bool include_chains;         ///< Whether chains are seen (chain.h; with category and mask
                                 ///< matched against the chain's filter as against a body's).
                                 ///< Default true.
    ledge_query_one_way one_way; ///< One-way tiles and bodies in ray and shape casts and
                                 ///< ledge_world_nearest. Default LEDGE_QUERY_ONE_WAY_AS_BODIES.
                                 ///< Chains are one-sided under every rule: hit from the front.
    ledge_body_id ignore;        ///< A body never reported (the caller's own); null for none.
} ledge_query_filter;

/// Category 1, every mask bit, tiles included, one-way platforms as bodies
/// meet them, nothing ignored. A NULL filter pointer means this filter.
LEDGE_API ledge_query_filter ledge_default_query_filter(void);

/// What a cast hit.
typedef enum ledge_hit_kind {
    LEDGE_HIT_NONE = 0,  ///< Nothing.
    LEDGE_HIT_TILE = 1,  ///< A tile: cell_x, cell_y, tile.
    LEDGE_HIT_BODY = 2,  ///< A body: body.
    LEDGE_HIT_CHAIN = 3, ///< A chain: chain, segment.
} ledge_hit_kind;

/// One hit of a ray or shape cast.
typedef struct ledge_raycast_result {
    ledge_hit_kind kind;  ///< Tile, chain, body or none.
    ledge_body_id body;   ///< The body hit (LEDGE_HIT_BODY), else the null id.
    ledge_chain_id chain; ///< The chain hit (LEDGE_HIT_CHAIN), else the null id.
    int segment;          ///< Its segment (LEDGE_HIT_CHAIN), else 0.
    int cell_x;           ///< The cell hit (LEDGE_HIT_TILE; may lie outside the map).
    int cell_y;           ///< The cell hit (LEDGE_HIT_TILE).
    ledge_tile tile;      ///< The tile id hit (LEDGE_HIT_TILE; FULL outside the map).
    vec2s point;          ///< Where: on the surface hit (shape casts: the contact point).
    vec2s normal;         ///< Unit surface normal facing the incoming ray or shape.
    float fraction;       ///< At origin + fraction * translation, in [0, 1].
} ledge_raycast_result;

/// Receives each hit of ledge_world_raycast_all; returns how to go on, as
/// Box2D's b2CastResultFcn: < 0 ignore this hit and go on unchanged, 0 stop,
/// a value in (0, 1) clip the ray there (later hits beyond it are dropped),
/// >= 1 go on unclipped. NaN stops.
typedef float ledge_raycast_fn(const ledge_raycast_result *hit, void *context);

/// Receives each body found by an AABB or point query; return false to
/// stop.
typedef bool ledge_body_query_fn(ledge_body_id body, void *context);

/// The closest hit of the segment origin -> origin + translation among the
/// tiles (ledge_tilemap_raycast) and the bodies the filter sees
/// (ledge_shape_raycast). A ray that starts inside a tile or body hits it at
/// fraction 0. Equal fractions: the tile wins, then the lower body index.
/// Returns false when nothing is hit or the call is refused (logged); `*out`
/// is then {kind = LEDGE_HIT_NONE, fraction = 1}.
LEDGE_API bool ledge_world_raycast(ledge_world *world, vec2s origin, vec2s translation,
                                   const ledge_query_filter *filter, ledge_raycast_result *out);

/// Every hit of the segment, through `fn`, in order of increasing fraction
/// (equal fractions: the tile first, then by body index). Each body is hit
/// at most once, where the segment enters it. The tilemap counts as one
/// obstacle: its first hit is reported, never the cells behind it (a ray
/// does not go through walls). Returns the number of hits delivered, or -1
/// (logged) when refused.
LEDGE_API int ledge_world_raycast_all(ledge_world *world, vec2s origin, vec2s translation,
                                      const ledge_query_filter *filter, ledge_raycast_fn *fn,
                                      void *context);

/// Every body the filter sees whose bounding box overlaps `aabb` (touching
/// counts), through `fn`, in increasing body index. Tiles are not listed
/// (ledge_tilemap_query_region does that). Returns the number of bodies
/// delivered, or -1 (logged) when refused.
LEDGE_API int ledge_world_query_aabb(ledge_world *world, ledge_aabb aabb,
                                     const ledge_query_filter *filter, ledge_body_query_fn *fn,
                                     void *context);

/// Every body the filter sees whose shape contains `point` (the boundary
/// counts: ledge_shape_contains), through `fn`, in increasing body index.
/// Returns the number delivered, or -1 (logged) when refused.
LEDGE_API int ledge_world_query_point(ledge_world *world, vec2s point,
                                      const ledge_query_filter *filter, ledge_body_query_fn *fn,
                                      void *context);

/// Distance tolerance of shape casts against round tiles (CONVEX and
/// CONCAVE), in units of the tile size: the first contact is found to
/// within this distance along the path, and a graze shallower than it may
/// be missed. Straight tiles and bodies are exact (ledge_sweep).
#define LEDGE_SHAPE_CAST_TOLERANCE 1.0e-3f

/// The first time of impact of `shape` at `position` moved by
/// `translation`, against the tiles (cells outside the map are FULL) and
/// the bodies the filter sees. A shape that starts overlapping something
/// hits it at fraction 0, including resting contact (bodies rest with
/// linear_slop of overlap: lift the shape by twice that first). Tiles are
/// tested one cell at a time, ignoring edge states: straight tiles exactly
/// (ledge_sweep against the tile's polygon), round ones by sampling and
/// bisection to LEDGE_SHAPE_CAST_TOLERANCE. Equal fractions: tiles first
/// in row-major cell order, then by body index. Returns false when nothing
/// is hit or the call is refused (logged); `*out` is then
/// {kind = LEDGE_HIT_NONE, fraction = 1}.
LEDGE_API bool ledge_world_shape_cast(ledge_world *world, const ledge_shape *shape, vec2s position,
                                      vec2s translation, const ledge_query_filter *filter,
                                      ledge_raycast_result *out);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_QUERY_H
