// Ray casts through a tilemap (ledge_tilemap_raycast): an Amanatides & Woo
// walk over the cells the segment crosses, in the order it crosses them,
// with each cell's tile tested only over the part of the segment inside it.
//
// The solid region is closed: a tile's boundary is solid, cells outside the
// map are FULL, and the map's border belongs to the outside. So a segment
// that merely touches a solid (grazes a corner, ends on a wall, runs along a
// floor's surface) hits it, exactly as ledge_shape_raycast treats a shape's
// boundary.
//
// What the walk does when it enters a cell through a side (N tutorial B):
// - an EMPTY cell: nothing to hit, keep walking (an OFF or a one-sided edge);
// - the entered tile covers that side fully: a hit at the crossing with the
//   side's axis normal (the SOLID edge). This reads the entered tile's side
//   cover rather than the stored edge state: the state says that one of the
//   two tiles covers the side but not which, while the walk knows it is
//   entering this one, and cells outside the map have no stored edges;
// - anything else (INTERESTING, or a side the tile does not touch): the
//   tile's own test. Every tile is the cell intersected with one more set,
//   so over the interval [ta, tb] where the segment is in the cell the test
//   is that set alone: a half-plane for slopes and half tiles (one clip), a
//   disc for CONVEX (the chord's interval), the outside of a disc for
//   CONCAVE (the chord, then its far root: where the segment leaves the
//   hollow around F).
//
// Tie rules, so that every answer is deterministic:
// - equal fractions keep the cell met first; a segment along a vertical
//   (horizontal) cell boundary lies in both columns (rows), and both are
//   tested over each step, the cell that floor division picks (the one on
//   the +x (+y) side) first;
// - a segment through a corner shared by four cells touches the two side
//   neighbours in that one point: the one across the horizontal boundary is
//   tested first, then the one across the vertical boundary, then the walk
//   enters the diagonal cell as if through its horizontal side (landing on a
//   ledge's corner lands, as in ledge__ray_aabb);
// - a hit at fraction 0 is a start inside the solid: normal -translation/|translation|.
//
// One-way cells (the world's queries, ledge__tilemap_raycast_one_way) are
// solid in ledge_tilemap_raycast. Under the rule of the bodies each one is
// tested as any cell, then its first hit is kept only when it lies on a
// surface facing the cell's allowed side, and is not the start: a segment
// that enters it elsewhere passes the whole cell (as a body that entered
// it is let through until it is out).
#include "check.h"
#include "tilemap.h"
#include "tilemap_ray.h"

#include "ledge/query.h"
#include "ray.h"

/// Entry sides, as indices into ledge__tile_geom.cover; NO_SIDE for the
/// cell the segment starts in.
enum { NO_SIDE = -1, SIDE_XNEG = 0, SIDE_XPOS = 1, SIDE_YNEG = 2, SIDE_YPOS = 3 };

/// Outward normal of each cell side: the normal of a hit on it.
static const vec2s side_normals[4] = {
    {{-1.0f, 0.0f}}, {{1.0f, 0.0f}}, {{0.0f, -1.0f}}, {{0.0f, 1.0f}}};

/// The segment and the map, in the forms the walk reads.
typedef struct walk {
    const ledge_tilemap *map;
    vec2s o;  ///< World origin.
    vec2s d;  ///< World translation.
    vec2s ld; ///< Translation in cell units (d / tile_size).
    /// The point query at the origin. It fills its cell also when the point
    /// is not solid: the floor division's cell, where the walk starts (a
    /// wrong guess would only cost start_cell a few more steps).
    ledge_tile_hit start;
    int one_way;       ///< A ledge_query_one_way: what one-way cells are.
    bool one_way_only; ///< Only one-way cells are tested (the look behind a start).
} walk;

/// The earliest hit found so far.
typedef struct found {
    float t;         ///< Fraction; INFINITY while nothing is found.
    vec2s normal;    ///< Unit, facing the segment.
    int x, y;        ///< The cell.
    ledge_tile tile; ///< Its tile id.
    int side;        ///< The cell side the hit lies on (its point is snapped to it), or NO_SIDE.
    bool corner;     ///< The hit is the cell corner next to `side` at (cx, cy).
    float cx, cy;    ///< The corner's coordinates when `corner`.
    bool surface;    ///< A one-way cell's hit: at fraction 0, a start on its surface (keep
                     ///< that surface's normal, not the inside's -translation).
} found;

/// World coordinate of cell boundary i along one axis. Every position of a
/// boundary is computed here, so the walk's crossings, the cell of the
/// origin and the cells' local frames agree to the bit.
static inline float boundary(float origin, float size, int i) {
    return origin + (float)i * size;
}

/// The cell holding world coordinate v along one axis, consistent with
/// boundary(): boundary(i) <= v < boundary(i + 1), starting from the guess
/// i (the point query's floor division, which may differ by one from
/// boundary()'s rounding). Returns -1 or n when v lies outside the map's n
/// cells (clamped: the walk never starts outside).
static inline int start_cell(float v, float origin, float size, int i, int n) {
    i = i < -1 ? -1 : (i > n ? n : i);
    while (i >= 0 && v < boundary(origin, size, i)) --i;
    while (i < n && v >= boundary(origin, size, i + 1)) ++i;
    return i;
}

/// Fraction at which the segment reaches the next boundary after cell i
/// along one axis (step = sign of the motion), INFINITY when it does not
/// move. Never NaN: the numerator is finite, the denominator non-zero.
static inline float next_crossing(float o, float d, int step, int i, float origin, float size) {
    if (step == 0) return INFINITY;
    return (boundary(origin, size, i + (step > 0)) - o) / d;
}

static inline void record(found *f, float t, vec2s normal, int x, int y, ledge_tile tile,
                          int side) {
    f->t = t;
    f->normal = normal;
    f->x = x;
    f->y = y;
    f->tile = tile;
    f->side = side;
    f->corner = false;
    f->surface = false;
}

/// The interval [t0, t1] of the line o + t d (local, cell units) inside the
/// disc of radius 1 around the origin of m = o - centre. False when the line
/// misses it or the translation is too small to square. Written so that
/// neither the discriminant nor a root cancels catastrophically (ray.c).
static bool chord(vec2s m, vec2s d, float *t0, float *t1) {
    float a = v2_len2(d), b = v2_dot(m, d);
    if (!(a > 0.0f)) return false;
    vec2s l = v2_sub(m, v2_scale(d, b / a)); // the centre's offset from the line
    float h = 1.0f - v2_len2(l);
    if (!(h >= 0.0f)) return false;
    float s = sqrtf(a * h), q = b >= 0.0f ? -(b + s) : s - b; // -b -+ s, same sign as -b
    if (q == 0.0f) {                                          // tangent at t = 0
        *t0 = *t1 = 0.0f;
        return true;
    }
    float r0 = q / a, r1 = (v2_len2(m) - 1.0f) / q; // the two roots, either order
    *t0 = minf(r0, r1);
    *t1 = maxf(r0, r1);
    return true;
}

/// The tile's own test: the first t in [ta, tb] at which the segment is in
/// the tile's set besides the cell (the probe), knowing it is in the cell
/// over [ta, tb]. A hit at ta is on the entry side; later ones on the slope
/// or the arc.
static void tile_test(const walk *w, int x, int y, ledge_tile tile, float ta, float tb, int side,
                      found *f) {
    const ledge_tilemap *m = w->map;
    const ledge__tile_probe *p = &m->probe[tile];
    vec2s cell_min =
        v2(boundary(m->origin.x, m->tile_size, x), boundary(m->origin.y, m->tile_size, y));
    vec2s lo = v2_scale(v2_sub(w->o, cell_min), m->inv_tile_size);
    vec2s at = v2_sub(lo, p->at); // the origin relative to the anchor or arc centre
    vec2s face = side >= 0 ? side_normals[side] : v2(0.0f, 1.0f); // (a start: replaced later)
    float t = INFINITY, t0, t1;
    vec2s normal = face;
    switch (p->kind) {
    case LEDGE__PROBE_PLANE: {
        float f0 = v2_dot(at, p->n), fd = v2_dot(w->ld, p->n);
        if (f0 + ta * fd <= 0.0f) {
            t = ta;
        } else if (fd < 0.0f && f0 <= -fd * tb) { // crosses the slope by tb
            t = minf(maxf(f0 / -fd, ta), tb);
            normal = p->n;
        }
        break;
    }
    case LEDGE__PROBE_DISC_IN: // CONVEX: the cell and the disc around R
        if (chord(at, w->ld, &t0, &t1) && maxf(ta, t0) <= minf(tb, t1)) {
            t = maxf(ta, t0);
            if (t0 > ta) normal = v2_normalize(v2_add(at, v2_scale(w->ld, t0)));
        }
        break;
    case LEDGE__PROBE_DISC_OUT: // CONCAVE: the cell outside the disc around F
        if (!chord(at, w->ld, &t0, &t1) || ta <= t0 || ta >= t1) {
            t = ta; // enters the cell outside the hollow
        } else if (t1 <= tb) {
            t = t1; // leaves the hollow inside the cell: the arc, normal toward F
            normal = v2_normalize(v2_neg(v2_add(at, v2_scale(w->ld, t1))));
        }
        break;
    default: // FULL (reached only by the start cell, through rounding)
        t = ta;
        break;
    }
    if (t < f->t) record(f, t, normal, x, y, tile, t == ta ? side : NO_SIDE);
}

/// The cell's one-way direction under the walk's rule: NONE for an
/// ordinary cell, or whatever the cell holds when one-way cells are solid.
static inline ledge_one_way one_way_of(const walk *w, int x, int y) {
    if (w->one_way == LEDGE_QUERY_ONE_WAY_ALWAYS || !ledge__tilemap_one_way_cell(w->map, x, y))
        return LEDGE_ONE_WAY_NONE;
    return (ledge_one_way)w->map->one_way[(size_t)y * (size_t)w->map->width + (size_t)x];
}

/// Whether a hit on a one-way cell of direction `way` counts: under the
/// bodies' rule, a surface whose normal is within 60 degrees of the
/// direction (ledge__one_way_tile_allows's test).
static inline bool one_way_holds(const walk *w, ledge_one_way way, vec2s normal) {
    return w->one_way == LEDGE_QUERY_ONE_WAY_AS_BODIES &&
           v2_dot(normal, ledge_one_way_direction(way)) >= 0.5f;
}

/// Whether the segment comes into cell (x, y) through `side` from inside a
/// one-way cell of the same direction that covers that side too: the two
/// are one platform, and the side between them is not its surface.
static bool from_same_platform(const walk *w, int x, int y, int side, ledge_one_way way) {
    int px = x + (side == SIDE_XNEG ? -1 : side == SIDE_XPOS ? 1 : 0);
    int py = y + (side == SIDE_YNEG ? -1 : side == SIDE_YPOS ? 1 : 0);
    if (one_way_of(w, px, py) != way) return false;
    return w->map->geom[ledge__tilemap_at(w->map, px, py)].cover[side ^ 1] == LEDGE_COVER_FULL;
}

/// The tests of visit for a cell, into f.
static inline void cell_test(const walk *w, int x, int y, ledge_tile tile, float ta, float tb,
                             int side, found *f) {
    if (side >= 0 && w->map->geom[tile].cover[side] == LEDGE_COVER_FULL) {
        if (ta < f->t) record(f, ta, side_normals[side], x, y, tile, side);
        return;
    }
    tile_test(w, x, y, tile, ta, tb, side, f);
}

/// A one-way cell under the bodies' rule (or NEVER): its first hit kept
/// only when it counts (see the file comment).
LEDGE_NOINLINE static void visit_one_way(const walk *w, int x, int y, ledge_tile tile,
                                         ledge_one_way way, float ta, float tb, int side,
                                         found *f) {
    if (w->one_way == LEDGE_QUERY_ONE_WAY_NEVER) return;
    found g;
    g.t = INFINITY;
    cell_test(w, x, y, tile, ta, tb, side, &g);
    if (!(g.t < f->t) || !one_way_holds(w, way, g.normal)) return;
    if (g.t == ta && side < 0) return; // a start inside it (the look behind came first)
    if (g.t == ta && side >= 0 && from_same_platform(w, x, y, side, way)) return;
    *f = g;
    f->surface = true; // (at fraction 0: a start on its surface, whose normal it keeps)
}

/// Tests cell (x, y) over [ta, tb], entered through `side`.
static inline void visit(const walk *w, int x, int y, float ta, float tb, int side, found *f) {
    ledge_tile tile = ledge__tilemap_at(w->map, x, y);
    if (tile == LEDGE_TILE_EMPTY) return;
    ledge_one_way way = one_way_of(w, x, y);
    if (LEDGE_UNLIKELY(way != LEDGE_ONE_WAY_NONE)) {
        visit_one_way(w, x, y, tile, way, ta, tb, side, f);
        return;
    }
    if (LEDGE_UNLIKELY(w->one_way_only)) return;
    cell_test(w, x, y, tile, ta, tb, side, f);
}

/// The segment passes at fraction t through the corner of cell (x, y) at
/// unit-cell position (u, v) (each 0 or 1) without entering the cell: a hit
/// when the tile's closed solid holds that corner. `side` is the cell side
/// the segment touches there. The probe is evaluated at the exact corner, so
/// the answer does not depend on rounding.
static void corner_touch(const walk *w, int x, int y, float u, float v, float t, int side,
                         found *f) {
    ledge_tile tile = ledge__tilemap_at(w->map, x, y);
    const ledge__tile_probe *p = &w->map->probe[tile];
    float du = u - p->at.x, dv = v - p->at.y;
    bool solid;
    switch (p->kind) {
    case LEDGE__PROBE_EMPTY:
        solid = false;
        break;
    case LEDGE__PROBE_PLANE:
        solid = du * p->n.x + dv * p->n.y <= 0.0f;
        break;
    case LEDGE__PROBE_DISC_IN:
        solid = du * du + dv * dv <= 1.0f;
        break;
    case LEDGE__PROBE_DISC_OUT:
        solid = du * du + dv * dv >= 1.0f;
        break;
    default:
        solid = true;
        break;
    }
    if (!solid || !(t < f->t)) return;
    ledge_one_way way = one_way_of(w, x, y);
    if (LEDGE_UNLIKELY(way != LEDGE_ONE_WAY_NONE ? !one_way_holds(w, way, side_normals[side])
                                                 : w->one_way_only)) {
        return;
    }
    const ledge_tilemap *m = w->map;
    record(f, t, side_normals[side], x, y, tile, NO_SIDE);
    f->corner = true;
    f->cx = boundary(m->origin.x, m->tile_size, x + (u > 0.0f));
    f->cy = boundary(m->origin.y, m->tile_size, y + (v > 0.0f));
}

/// Walks the cells from the origin's; fills `f` with the first hit, if any.
static void walk_cells(const walk *w, found *f) {
    const ledge_tilemap *m = w->map;
    const float s = m->tile_size;
    const int sx = w->d.x > 0.0f ? 1 : (w->d.x < 0.0f ? -1 : 0);
    const int sy = w->d.y > 0.0f ? 1 : (w->d.y < 0.0f ? -1 : 0);
    int ix = start_cell(w->o.x, m->origin.x, s, w->start.x, m->width);
    int iy = start_cell(w->o.y, m->origin.y, s, w->start.y, m->height);
    // Along a boundary the segment lies in the cells on both sides of it.
    const bool along_x = sx == 0 && w->o.x == boundary(m->origin.x, s, ix);
    const bool along_y = sy == 0 && w->o.y == boundary(m->origin.y, s, iy);
    // The n-th boundary after the first is crossed at t1 + n * dt: two
    // non-negative terms, so nothing cancels far from the map's origin, and
    // nothing accumulates (a running sum t += dt would drift over a long
    // ray). One multiply-add per step instead of a division.
    const float t1x = next_crossing(w->o.x, w->d.x, sx, ix, m->origin.x, s);
    const float t1y = next_crossing(w->o.y, w->d.y, sy, iy, m->origin.y, s);
    const float dtx = sx ? s / fabsf(w->d.x) : 0.0f, dty = sy ? s / fabsf(w->d.y) : 0.0f;
    float nx = 0.0f, ny = 0.0f;
    float tx = t1x, ty = t1y;
    float ta = 0.0f;
    int side = NO_SIDE;
    for (;;) {
        float tn = minf(tx, ty), tb = minf(tn, 1.0f);
        visit(w, ix, iy, ta, tb, side, f);
        if (along_x) visit(w, ix - 1, iy, ta, tb, side, f);
        if (along_y) visit(w, ix, iy - 1, ta, tb, side, f);
        // Cells outside the map are FULL, so the walk ends at the border.
        if (f->t <= 1.0f || !(tn <= 1.0f)) return;
        ta = tn;
        if (tx < ty) {
            ix += sx;
            side = sx > 0 ? SIDE_XNEG : SIDE_XPOS;
            nx += 1.0f;
            tx = t1x + nx * dtx;
        } else if (ty < tx) {
            iy += sy;
            side = sy > 0 ? SIDE_YNEG : SIDE_YPOS;
            ny += 1.0f;
            ty = t1y + ny * dty;
        } else { // through the corner: touch both side neighbours, enter the diagonal
            float cu = sx > 0 ? 1.0f : 0.0f, cv = sy > 0 ? 1.0f : 0.0f;
            corner_touch(w, ix, iy + sy, cu, 1.0f - cv, tn, sy > 0 ? SIDE_YNEG : SIDE_YPOS, f);
            corner_touch(w, ix + sx, iy, 1.0f - cu, cv, tn, sx > 0 ? SIDE_XNEG : SIDE_XPOS, f);
            if (f->t <= 1.0f) return;
            ix += sx;
            iy += sy;
            side = sy > 0 ? SIDE_YNEG : SIDE_YPOS;
            nx += 1.0f;
            ny += 1.0f;
            tx = t1x + nx * dtx;
            ty = t1y + ny * dty;
        }
    }
}

/// The public hit from what the walk found: the point on the segment,
/// snapped onto the cell side or corner it lies on.
static void fill_hit(const walk *w, const found *f, ledge_ray_hit *out) {
    const ledge_tilemap *m = w->map;
    out->cell_x = f->x;
    out->cell_y = f->y;
    out->tile = f->tile;
    if (!(f->t > 0.0f)) { // at the start: inside the solid
        ledge__ray_inside(w->o, w->d, out);
        if (f->surface) out->normal = f->normal; // (on a one-way surface: that surface's)
        return;
    }
    out->fraction = f->t;
    out->normal = f->normal;
    out->point = v2_add(w->o, v2_scale(w->d, f->t));
    if (f->corner) {
        out->point = v2(f->cx, f->cy);
    } else if (f->side == SIDE_XNEG || f->side == SIDE_XPOS) {
        out->point.x = boundary(m->origin.x, m->tile_size, f->x + (f->side == SIDE_XPOS));
    } else if (f->side == SIDE_YNEG || f->side == SIDE_YPOS) {
        out->point.y = boundary(m->origin.y, m->tile_size, f->y + (f->side == SIDE_YPOS));
    }
}

LEDGE_NOINLINE static bool refuse(const ledge_tilemap *map, vec2s origin, vec2s translation) {
    const char *fn = "ledge_tilemap_raycast";
    if (map == NULL) {
        LEDGE_ERROR("ledge_tilemap_raycast: map is NULL");
        return false;
    }
    // A translation may cross the whole world, hence twice the coordinate limit.
    if (ledge__check_vec(fn, "origin", origin, LEDGE_MAX_COORDINATE)) {
        ledge__check_vec(fn, "translation", translation, 2.0f * LEDGE_MAX_COORDINATE);
    }
    return false;
}

bool ledge_tilemap_raycast(const ledge_tilemap *map, vec2s origin, vec2s translation,
                           ledge_ray_hit *out) {
    const float lim = LEDGE_MAX_COORDINATE, tlim = 2.0f * LEDGE_MAX_COORDINATE;
    if (LEDGE_UNLIKELY(map == NULL || !ledge__finite_within(origin.x, lim) ||
                       !ledge__finite_within(origin.y, lim) ||
                       !ledge__finite_within(translation.x, tlim) ||
                       !ledge__finite_within(translation.y, tlim))) {
        return refuse(map, origin, translation);
    }
    walk w = {map,         origin,
              translation, v2_scale(translation, map->inv_tile_size),
              {0, 0, 0},   LEDGE_QUERY_ONE_WAY_ALWAYS,
              false};
    found f;
    f.t = INFINITY;
    f.surface = false;
    // The start: the point query's closed test (boundaries, the outside).
    if (ledge_tilemap_query_point(map, origin, &w.start)) {
        f.t = 0.0f;
        f.side = NO_SIDE;
        f.x = w.start.x;
        f.y = w.start.y;
        f.tile = w.start.tile;
    } else if (translation.x != 0.0f || translation.y != 0.0f) {
        walk_cells(&w, &f);
    }
    if (!(f.t <= 1.0f)) return false;
    if (out) fill_hit(&w, &f, out);
    return true;
}

/// A segment starting in the solid of one-way cells only: whether the
/// `reach` before its origin enters one of them, the one holding the
/// origin, through a surface that counts. Fills f (fraction 0) when it does.
static bool start_on_surface(const walk *w, float reach, found *f) {
    float len = v2_len(w->d);
    if (!(len > 0.0f) || !(reach > 0.0f)) return false;
    vec2s back = v2_scale(w->d, reach / len);
    walk b = *w;
    b.o = v2_sub(w->o, back);
    b.d = v2_scale(back, 1.001f); // a little past the origin: a start on the surface, rounded
    b.ld = v2_scale(b.d, w->map->inv_tile_size);
    b.one_way_only = true;
    ledge_tilemap_query_point(w->map, b.o, &b.start); // (the cell the look starts from)
    found g;
    g.t = INFINITY;
    walk_cells(&b, &g);
    if (!(g.t <= 1.0f) || !ledge__tilemap_cell_holds(w->map, g.x, g.y, w->o)) return false;
    *f = g;
    f->t = 0.0f;
    f->side = NO_SIDE;
    f->corner = false;
    f->surface = true;
    return true;
}

bool ledge__tilemap_raycast_one_way(const ledge_tilemap *map, vec2s origin, vec2s translation,
                                    int one_way, float reach, ledge_ray_hit *out) {
    if (one_way == LEDGE_QUERY_ONE_WAY_ALWAYS)
        return ledge_tilemap_raycast(map, origin, translation, out);
    walk w = {map,       origin,  translation, v2_scale(translation, map->inv_tile_size),
              {0, 0, 0}, one_way, false};
    found f;
    f.t = INFINITY;
    f.surface = false;
    ledge_tile_hit solid;
    bool starts_solid = ledge_tilemap_query_point(map, origin, &w.start); // (one-way cells too)
    if (starts_solid && ledge__tilemap_solid_point(map, origin, false, &solid)) {
        f.t = 0.0f; // inside an ordinary cell's solid
        f.side = NO_SIDE;
        f.x = solid.x;
        f.y = solid.y;
        f.tile = solid.tile;
    } else if (!(starts_solid && one_way == LEDGE_QUERY_ONE_WAY_AS_BODIES &&
                 start_on_surface(&w, reach, &f)) &&
               (translation.x != 0.0f || translation.y != 0.0f)) {
        walk_cells(&w, &f);
    }
    if (!(f.t <= 1.0f)) return false;
    if (out) fill_hit(&w, &f, out);
    return true;
}
