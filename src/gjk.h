// GJK on two convex vertex sets (gjk.c): the closest points of their
// Minkowski difference to the origin, as Box2D's b2Distance does it.
#ifndef LEDGE_GJK_H
#define LEDGE_GJK_H

#include "core.h"

/// The two vertex sets GJK runs on: b's vertices are moved by `off` (so a
/// shape's own vertices serve without a copy).
typedef struct ledge__gjk_pair {
    const vec2s *va, *vb;
    int na, nb;
    vec2s off;
    vec2s dir; // a guess of the direction from a toward b; (0, 0): none
} ledge__gjk_pair;

/// Runs GJK on the unrounded vertex sets. Returns the simplex size at the
/// end (3: the origin is enclosed, the sets overlap) and the witness points.
int ledge__gjk(const ledge__gjk_pair *p, vec2s *pa, vec2s *pb, int *iters);

#endif // LEDGE_GJK_H
