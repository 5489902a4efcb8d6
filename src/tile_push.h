// A push of a shape out of one tile, as the tile collision modules compute
// it (tile_collide.c, tile_round.c): the candidate normal and depth, what
// touches, and the shape placed as a polygon in the tile's frame.
#ifndef LEDGE_TILE_PUSH_H
#define LEDGE_TILE_PUSH_H

#include "core.h"

#include "ledge/collision.h"

#define TC_INF INFINITY

/// How far a push direction may lean across a blocked side: the rounding of
/// polygon edge normals (a box's faces are exact).
#define TC_LEAN 1.0e-5f

enum { TC_MAXV = LEDGE_MAX_POLYGON_VERTICES };

/// What touches in the chosen push, so that contact points can be placed.
typedef enum tc_contact {
    TC_SUPPORT = 0, ///< Faces or vertices found by projecting both on the normal.
    TC_CIRCLE,      ///< The circle's deepest point.
    TC_VERTEX,      ///< Shape vertex a against a curved surface.
    TC_VERTEX_PAIR, ///< Shape vertices a and b against the CONCAVE arc.
    TC_TIP,         ///< Tile tip b (0 = P, 1 = Q) against a face of the shape.
    TC_VERTEX_TIP,  ///< Vertex a against the arc and tip b against a face.
} tc_contact;

/// A push of the shape, in the frame it was computed in.
typedef struct tc_push {
    vec2s normal;       ///< Unit, from the tile toward the shape.
    float depth;        ///< How far the shape moves along normal; TC_INF for none yet.
    tc_contact contact; ///< How to place the contact points.
    int a, b;           ///< Vertex and tip indices, per `contact`.
} tc_push;

/// A convex polygon shape placed in a frame (a box is one too).
typedef struct tc_poly {
    int n;
    vec2s v[TC_MAXV];   ///< Vertices.
    vec2s nrm[TC_MAXV]; ///< Outward unit normal of edge i -> i+1.
} tc_poly;

static inline float tc_clamp(float x, float lo, float hi) {
    return x < lo ? lo : (x > hi ? hi : x);
}

static inline tc_push tc_no_push(void) {
    tc_push p = {{{0.0f, 0.0f}}, TC_INF, TC_SUPPORT, -1, -1};
    return p;
}

static inline void tc_consider(tc_push *best, vec2s n, float depth, tc_contact c, int a, int b) {
    if (depth < best->depth) {
        best->normal = n;
        best->depth = depth;
        best->contact = c;
        best->a = a;
        best->b = b;
    }
}

/// Smallest projection of the polygon on d.
static inline float tc_poly_min(const tc_poly *p, vec2s d) {
    float m = v2_dot(p->v[0], d);
    for (int i = 1; i < p->n; ++i) m = minf(m, v2_dot(p->v[i], d));
    return m;
}

/// The shape's vertices and normals moved by `off` (boxes are stored as
/// 4-vertex polygons, so this serves them too).
static inline void tc_poly_place(const ledge_shape *s, vec2s off, tc_poly *p) {
    p->n = s->count;
    for (int i = 0; i < s->count; ++i) {
        p->v[i] = v2_add(s->vertices[i], off);
        p->nrm[i] = s->normals[i];
    }
}

#endif // LEDGE_TILE_PUSH_H
