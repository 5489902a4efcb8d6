// Shapes against the round tiles (tile_round.c), in the tile's (u, v) frame:
// R at the origin and the cell at [0, s]^2, the blocked sides through R
// given as bu (u = 0) and bv (v = 0). Each fills *out with the smallest push
// out of the solid extruded across the blocked sides, and returns whether
// the shape touches the tile itself.
#ifndef LEDGE_TILE_ROUND_H
#define LEDGE_TILE_ROUND_H

#include "tile_push.h"

/// The frame of a round tile: R, and the signs mapping (u, v) to (x, y).
typedef struct tc_frame {
    vec2s R;
    float sx, sy;
} tc_frame;

static inline vec2s tc_to_uv(const tc_frame *f, vec2s p) {
    return v2(f->sx * (p.x - f->R.x), f->sy * (p.y - f->R.y));
}
static inline vec2s tc_from_uv(const tc_frame *f, vec2s p) {
    return v2(f->R.x + f->sx * p.x, f->R.y + f->sy * p.y);
}
static inline vec2s tc_dir_uv(const tc_frame *f, vec2s d) {
    return v2(f->sx * d.x, f->sy * d.y);
}

/// Whether a push along d (in uv) leaves through no blocked side: the two
/// full sides through R have outward normals -u and -v.
static inline bool tc_uv_allowed(vec2s d, bool bu, bool bv) {
    return !(bu && d.x < -TC_LEAN) && !(bv && d.y < -TC_LEAN);
}

static inline void tc_poly_to_uv(const tc_poly *p, const tc_frame *f, tc_poly *q) {
    q->n = p->n;
    for (int i = 0; i < p->n; ++i) {
        q->v[i] = tc_to_uv(f, p->v[i]);
        q->nrm[i] = tc_dir_uv(f, p->nrm[i]);
    }
}

bool ledge__round_circle_vs_convex(vec2s c, float r, float s, bool bu, bool bv, tc_push *out);
bool ledge__round_box_vs_convex(vec2s bl, vec2s bh, float s, bool bu, bool bv, tc_push *out);
bool ledge__round_poly_vs_convex(const tc_poly *p, float s, bool bu, bool bv, tc_push *out);
bool ledge__round_circle_vs_concave(vec2s c, float r, float s, bool bu, bool bv, tc_push *out);
bool ledge__round_box_vs_concave(vec2s bl, vec2s bh, float s, bool bu, bool bv, tc_push *out);
bool ledge__round_poly_vs_concave(const tc_poly *p, float s, bool bu, bool bv, float tol,
                                  tc_push *out);

#endif // LEDGE_TILE_ROUND_H
