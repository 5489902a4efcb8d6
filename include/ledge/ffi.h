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

#ifdef __cplusplus
}
#endif

#endif // LEDGE_FFI_H
