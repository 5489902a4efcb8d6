// One segment of a chain as collision reads it (segment.c): one-sided,
// with what its neighbours make of its ends, against circles, boxes and
// convex polygons (exact minimum translation), rays, sweeps and distances.
// Everything is in the chain's own frame: callers pass a shape's position
// less the chain's.
#ifndef LEDGE_SEGMENT_H
#define LEDGE_SEGMENT_H

#include "core.h"

#include "ledge/collision.h"
#include "ledge/distance.h"

/// A segment p -> q. Its front faces n, to the right of its direction (a
/// chain that runs counter-clockwise in a y-up frame faces out), and the
/// solid lies behind it. At each end the solid is cut by the plane of
/// normal cp (at p) or cq (at q) where the chain turns away from the front
/// (a convex vertex: the neighbour's own normal) or ends (the segment's
/// direction, outward); where it runs on or turns toward the front (a flat
/// or concave vertex) there is no cut (normal (0, 0)): the solid behind the
/// segment runs on under its neighbour, which is what keeps a body sliding
/// over the vertex from meeting the neighbour's end.
typedef struct ledge__segment {
    vec2s p, q;   ///< The ends, in the chain's order.
    vec2s e;      ///< Unit direction p -> q.
    vec2s n;      ///< Unit front normal, (e.y, -e.x).
    float len;    ///< |q - p|.
    vec2s cp, cq; ///< The cuts' outward normals at p and q; (0, 0): none.
} ledge__segment;

/// A segment p -> q (p != q) with open ends (cp = -e, cq = e).
void ledge__segment_make(ledge__segment *s, vec2s p, vec2s q);

/// The cut at a vertex between a piece of unit direction `before` and one
/// of direction `after` (the chain turning from one to the other): the
/// normal of `before`'s piece, or of `after`'s (`for_after`), when the turn
/// is convex (away from the front), else (0, 0). Seen from the piece after
/// the vertex the cut is the one before it (for_after false), and from the
/// piece before, the one after (for_after true).
vec2s ledge__segment_cut(vec2s before, vec2s after, bool for_after);

/// The segment's bounding box.
static inline ledge_aabb ledge__segment_box(const ledge__segment *s) {
    ledge_aabb b = {{{minf(s->p.x, s->q.x), minf(s->p.y, s->q.y)}},
                    {{maxf(s->p.x, s->q.x), maxf(s->p.y, s->q.y)}}};
    return b;
}

/// Whether the point c (a shape's centre) lies in front of the segment's
/// line or on it: the only shapes a one-sided segment meets.
static inline bool ledge__segment_faces(const ledge__segment *s, vec2s c) {
    return v2_dot(s->n, v2_sub(c, s->p)) >= 0.0f;
}

/// Collides the segment (as a) with `shape` at `off` (as b). The shape
/// touches when its centre is in front (ledge__segment_faces) and it
/// overlaps the region behind the segment between its ends; the push is
/// then the exact minimum translation out of the solid the cuts leave (a
/// flat or concave vertex's neighbour extends it). Normal from the segment
/// toward the shape; points midway between the surfaces (chain frame).
ledge_manifold ledge__segment_collide(const ledge__segment *s, const ledge_shape *shape, vec2s off);

/// The ray o -> o + d against the segment's front: it hits where it crosses
/// the segment's line coming from the front (touching the ends counts); a
/// ray starting on the line and going in hits at 0, one starting behind it
/// passes. Of two segments sharing a vertex a ray through it hits at least
/// one (the test is on the same numbers for both). Fills out's fraction,
/// point and normal (n).
bool ledge__segment_raycast(const ledge__segment *s, vec2s o, vec2s d, ledge_ray_hit *out);

/// The first time of contact of `shape` at `off` moved by `move` with the
/// segment's front: fraction 0 when it touches at the start (as
/// ledge__segment_collide finds), else the first touch whose shape centre
/// is in front of the segment's line; a shape coming from behind touches
/// when its centre crosses the line while it overlaps the segment (where
/// the step would push it out through the front). Normal from the segment
/// toward the shape, point on the segment. The segment's own ends, not its
/// cuts: a cast along a chain meets each segment as it is.
bool ledge__segment_sweep(const ledge__segment *s, const ledge_shape *shape, vec2s off, vec2s move,
                          ledge_toi *out);

/// The distance from the segment (as a) to `shape` at `off` (as b): 0 and
/// ledge__segment_collide's push when they touch; INFINITY when the shape's
/// centre lies behind the segment's line (a one-sided segment is no
/// surface from behind).
ledge_distance_result ledge__segment_distance(const ledge__segment *s, const ledge_shape *shape,
                                              vec2s off);

#endif // LEDGE_SEGMENT_H
