/// @file ffi.h
/// Entry points for foreign-function interfaces (the LuaJIT binding,
/// src/bindings/lua): the calls a binding makes on its hot paths, with
/// every struct passed by pointer and no callbacks.
///
/// LuaJIT compiles an FFI call only when no struct is passed or returned
/// by value, and cannot make a callback that takes one; ledge's own API
/// passes `ledge_body_id` and `vec2s` by value. Each function here does
/// exactly what the function it names does (same checks, same messages,
/// which name that function), after refusing (logged) a NULL pointer.
#ifndef LEDGE_FFI_H
#define LEDGE_FFI_H

#include "chain.h"
#include "move.h"

#ifdef __cplusplus
extern "C" {
#endif

/// ledge_body_set_position with the id and position by pointer.
LEDGE_API bool ledge_body_set_position_ref(ledge_world *world, const ledge_body_id *id,
                                           const vec2s *position);

/// ledge_body_position into `*out`; returns false (logged, `*out` zeroed)
/// for an invalid id or a NULL pointer.
LEDGE_API bool ledge_body_position_ref(const ledge_world *world, const ledge_body_id *id,
                                       vec2s *out);

/// ledge_body_move with the id and displacement by pointer.
LEDGE_API bool ledge_body_move_ref(ledge_world *world, const ledge_body_id *id,
                                   const vec2s *displacement, const ledge_move_def *def,
                                   ledge_move_result *out);

/// ledge_world_query_aabb without a callback: writes up to `capacity` ids
/// to `out` (may be NULL when capacity is 0), in increasing body index,
/// and returns how many bodies there are in all; -1 (logged) when refused
/// as ledge_world_query_aabb would be, or for a NULL aabb, a negative
/// capacity or a NULL out with capacity > 0.
LEDGE_API int ledge_world_query_aabb_ids(ledge_world *world, const ledge_aabb *aabb,
                                         const ledge_query_filter *filter, ledge_body_id *out,
                                         int capacity);

/// ledge_world_query_point without a callback; the same contract as
/// ledge_world_query_aabb_ids.
LEDGE_API int ledge_world_query_point_ids(ledge_world *world, const vec2s *point,
                                          const ledge_query_filter *filter, ledge_body_id *out,
                                          int capacity);

/// ledge_world_query_chains_aabb without a callback: writes up to
/// `capacity` segments found, their chains to `chains` and their indices
/// to `segments` (both may be NULL when capacity is 0), in the order the
/// callback would get them, and returns how many there are in all; -1
/// (logged) when refused as ledge_world_query_chains_aabb would be, or for
/// a NULL aabb, a negative capacity or NULL arrays with capacity > 0.
LEDGE_API int ledge_world_query_chains_aabb_ids(ledge_world *world, const ledge_aabb *aabb,
                                                const ledge_query_filter *filter,
                                                ledge_chain_id *chains, int *segments,
                                                int capacity);

/// ledge_world_query_chains_point without a callback: the closed chains
/// that hold the point, to `chains`; the same contract as
/// ledge_world_query_chains_aabb_ids.
LEDGE_API int ledge_world_query_chains_point_ids(ledge_world *world, const vec2s *point,
                                                 const ledge_query_filter *filter,
                                                 ledge_chain_id *chains, int capacity);

/// A rectangle of the bump-compatible module (src/bindings/lua/bump.lua):
/// top-left corner and size in doubles, y down (bump's exact arithmetic;
/// the body under it stores floats).
typedef struct ledge_bump_rect {
    double x; ///< left
    double y; ///< top
    double w; ///< width (> 0)
    double h; ///< height (> 0)
} ledge_bump_rect;

/// One collision of ledge_bump_move: bump.lua's `col` table without its
/// Lua-only fields (item, type: always "slide"), in the order bump's
/// world:check reports them.
typedef struct ledge_bump_col {
    uint32_t other; ///< the other item's id's index1
    bool overlaps;  ///< the item overlapped the other before moving
    double ti;      ///< fraction of the move at the touch (minus the overlap area when overlapping)
    double move_x;  ///< the move being resolved: goal minus item_rect's corner
    double move_y;  ///< see move_x
    double normal_x;           ///< the other's side that was hit (-1, 0 or 1)
    double normal_y;           ///< see normal_x
    double touch_x;            ///< where the item's corner touches the other
    double touch_y;            ///< see touch_x
    double slide_x;            ///< the goal after sliding along the other
    double slide_y;            ///< see slide_x
    ledge_bump_rect item_rect; ///< the item's rectangle when this collision was found
} ledge_bump_col;

/// bump.lua's world:check (`update` false) or world:move (`update` true)
/// of the item whose body is `*item`, toward the corner (goal_x, goal_y),
/// with the default filter and bump's "slide" response for every other
/// item, done in one call: project, take the nearest collision (smallest
/// ti, then centre distance, then lowest index1), slide, project again
/// without the items met so far, until nothing is in the way.
///
/// `rects[s]` is the rectangle of the body whose id's index1 is s (so
/// rects[0] is unused) for every body of the world: the query index finds
/// the candidates and `rects` gives their exact rectangles; a candidate
/// index1 >= rect_count is an error. The collisions go to `cols` in order
/// and `*actual_x`, `*actual_y` receive where the item ends; when
/// `update`, `rects[item->index1]` and the body's position (its centre)
/// are moved there too. Returns the number of collisions; capacity + 1
/// (nothing changed, nothing logged) when `cols` is too small: call again
/// with a larger one. Returns -1 (logged, nothing changed) for a NULL
/// pointer, an invalid id, a non-finite goal, a negative capacity, an
/// item index1 >= rect_count or a world that is stepping.
LEDGE_API int ledge_bump_move(ledge_world *world, ledge_bump_rect *rects, int rect_count,
                              const ledge_body_id *item, double goal_x, double goal_y, bool update,
                              ledge_bump_col *cols, int capacity, double *actual_x,
                              double *actual_y);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_FFI_H
