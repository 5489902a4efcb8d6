// Argument checks (check.c) shared by the public entry points: each true
// when the argument is acceptable, else false and one logged sentence
// "<fn>: <arg> is <value> (<what is allowed>)".
#ifndef LEDGE_CHECK_H
#define LEDGE_CHECK_H

#include "core.h"

/// Whether both components are finite with |x| <= limit.
bool ledge__vec_within(vec2s v, float limit);
/// Argument checks (check.c): true when acceptable, else false and one
/// logged sentence "<fn>: <arg> is <value> (<what is allowed>)".
bool ledge__check_vec(const char *fn, const char *arg, vec2s v, float limit);
/// A size (radius, length): > 0 and <= LEDGE_MAX_COORDINATE.
bool ledge__check_size(const char *fn, const char *arg, float s);
/// Half extents: both > 0 and <= LEDGE_MAX_COORDINATE.
bool ledge__check_half_extents(const char *fn, const char *arg, vec2s h);

/// Every point finite and within LEDGE_MAX_COORDINATE; names the first
/// offending index.
bool ledge__check_points(const char *fn, const vec2s *p, int count);

/// A query filter's `one_way`: a ledge_query_one_way (query.h), logged as
/// "<fn>: filter->one_way is <value> (...)" when not.
bool ledge__check_query_one_way(const char *fn, int one_way);

#endif // LEDGE_CHECK_H
