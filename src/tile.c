// The 34 tile shapes: names, unit-cell geometry, side coverage, outlines and
// the point test. Everything is derived from the named corners R, P, Q, F
// and the normal signs (sx, sy) defined in include/ledge/tiles.h.
#include "check.h"
#include "tile.h"

#include <ctype.h>
#include <string.h>

static const char *const tile_names[LEDGE_TILE_COUNT] = {
    "EMPTY",          "FULL",           "45DEG_PN",       "45DEG_NN",       "45DEG_NP",
    "45DEG_PP",       "CONCAVE_PN",     "CONCAVE_NN",     "CONCAVE_NP",     "CONCAVE_PP",
    "CONVEX_PN",      "CONVEX_NN",      "CONVEX_NP",      "CONVEX_PP",      "22DEG_SMALL_PN",
    "22DEG_SMALL_NN", "22DEG_SMALL_NP", "22DEG_SMALL_PP", "22DEG_BIG_PN",   "22DEG_BIG_NN",
    "22DEG_BIG_NP",   "22DEG_BIG_PP",   "67DEG_SMALL_PN", "67DEG_SMALL_NN", "67DEG_SMALL_NP",
    "67DEG_SMALL_PP", "67DEG_BIG_PN",   "67DEG_BIG_NN",   "67DEG_BIG_NP",   "67DEG_BIG_PP",
    "HALF_D",         "HALF_R",         "HALF_U",         "HALF_L",
};

// Groups of four orientations start at these ids, in N's order pn, nn, np, pp.
static const struct {
    ledge_tile first;
    ledge_tile_group group;
} oriented_groups[] = {
    {LEDGE_TILE_45DEG_PN, LEDGE_TILE_GROUP_45DEG},
    {LEDGE_TILE_CONCAVE_PN, LEDGE_TILE_GROUP_CONCAVE},
    {LEDGE_TILE_CONVEX_PN, LEDGE_TILE_GROUP_CONVEX},
    {LEDGE_TILE_22DEG_SMALL_PN, LEDGE_TILE_GROUP_22DEG_SMALL},
    {LEDGE_TILE_22DEG_BIG_PN, LEDGE_TILE_GROUP_22DEG_BIG},
    {LEDGE_TILE_67DEG_SMALL_PN, LEDGE_TILE_GROUP_67DEG_SMALL},
    {LEDGE_TILE_67DEG_BIG_PN, LEDGE_TILE_GROUP_67DEG_BIG},
    {LEDGE_TILE_HALF_D, LEDGE_TILE_GROUP_HALF},
};

static const float orient_sx[4] = {1.0f, -1.0f, -1.0f, 1.0f}; // pn, nn, np, pp
static const float orient_sy[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
static const vec2s half_normals[4] = {
    {{0.0f, -1.0f}}, {{-1.0f, 0.0f}}, {{0.0f, 1.0f}}, {{1.0f, 0.0f}}};

#define INV_SQRT2 0.70710678118654752f
#define INV_SQRT5 0.44721359549995794f

static void set_points(ledge__tile_geom *g, int count, const vec2s *pts) {
    g->count = count;
    for (int i = 0; i < count; ++i) g->points[i] = pts[i];
}

// The outline is listed in cyclic order but in either winding; make it
// counter-clockwise, keeping the arc on the edge between the same corners.
static void make_ccw(ledge__tile_geom *g) {
    float area = 0.0f;
    for (int i = 0; i < g->count; ++i) {
        area += v2_cross(g->points[i], g->points[(i + 1) % g->count]);
    }
    if (area >= 0.0f) return;
    for (int i = 0, j = g->count - 1; i < j; ++i, --j) {
        vec2s t = g->points[i];
        g->points[i] = g->points[j];
        g->points[j] = t;
    }
    if (g->arc_edge >= 0) g->arc_edge = g->count - 2 - g->arc_edge;
}

// The part of one side the outline covers: the straight edges lying on it
// (an arc only touches a side at its ends). Tiles are convex along their
// sides, so the covered part is one interval; [0, 0] when there is none.
static void side_span(ledge__tile_geom *g, int side) {
    int axis = side < 2 ? 0 : 1; // x sides are lines x = const
    float at = (side == 0 || side == 2) ? 0.0f : 1.0f;
    float lo = 1.0f, hi = 0.0f;
    for (int i = 0; i < g->count; ++i) {
        if (i == g->arc_edge) continue;
        vec2s a = g->points[i], b = g->points[(i + 1) % g->count];
        if (a.raw[axis] != at || b.raw[axis] != at) continue;
        lo = minf(lo, minf(a.raw[1 - axis], b.raw[1 - axis]));
        hi = maxf(hi, maxf(a.raw[1 - axis], b.raw[1 - axis]));
    }
    if (lo >= hi) lo = hi = 0.0f;
    g->span_lo[side] = lo;
    g->span_hi[side] = hi;
    g->cover[side] = hi - lo >= 1.0f ? LEDGE_COVER_FULL
                     : hi > lo       ? LEDGE_COVER_PARTIAL
                                     : LEDGE_COVER_NONE;
}

static void oriented_geom(ledge_tile_group group, float sx, float sy, ledge__tile_geom *g) {
    const vec2s c = v2(0.5f, 0.5f);
    const float w = 0.5f;
    vec2s R = v2(c.x - sx * w, c.y - sy * w), P = v2(c.x + sx * w, c.y - sy * w);
    vec2s Q = v2(c.x - sx * w, c.y + sy * w), F = v2(c.x + sx * w, c.y + sy * w);
    g->sx = sx;
    g->sy = sy;
    g->anchor = c;
    switch (group) {
    case LEDGE_TILE_GROUP_45DEG:
        g->normal = v2(sx * INV_SQRT2, sy * INV_SQRT2);
        set_points(g, 3, (vec2s[]){R, P, Q});
        break;
    case LEDGE_TILE_GROUP_CONCAVE:
    case LEDGE_TILE_GROUP_CONVEX:
        g->normal = v2(sx * INV_SQRT2, sy * INV_SQRT2);
        set_points(g, 3, (vec2s[]){R, P, Q});
        g->arc_edge = 1; // P -> Q
        g->arc = group == LEDGE_TILE_GROUP_CONVEX ? LEDGE__ARC_CONVEX : LEDGE__ARC_CONCAVE;
        g->arc_center = group == LEDGE_TILE_GROUP_CONVEX ? R : F;
        g->arc_radius = 2.0f * w;
        break;
    case LEDGE_TILE_GROUP_22DEG_SMALL:
        g->normal = v2(sx * INV_SQRT5, 2.0f * sy * INV_SQRT5);
        g->anchor = P;
        set_points(g, 3, (vec2s[]){R, P, v2(c.x - sx * w, c.y)});
        break;
    case LEDGE_TILE_GROUP_22DEG_BIG:
        g->normal = v2(sx * INV_SQRT5, 2.0f * sy * INV_SQRT5);
        g->anchor = Q;
        set_points(g, 4, (vec2s[]){R, P, v2(c.x + sx * w, c.y), Q});
        break;
    case LEDGE_TILE_GROUP_67DEG_SMALL:
        g->normal = v2(2.0f * sx * INV_SQRT5, sy * INV_SQRT5);
        g->anchor = Q;
        set_points(g, 3, (vec2s[]){R, Q, v2(c.x, c.y - sy * w)});
        break;
    default: // LEDGE_TILE_GROUP_67DEG_BIG
        g->normal = v2(2.0f * sx * INV_SQRT5, sy * INV_SQRT5);
        g->anchor = P;
        set_points(g, 4, (vec2s[]){R, P, v2(c.x, c.y + sy * w), Q});
        break;
    }
}

// A half tile keeps the half of the cell opposite to its normal n.
static void half_geom(vec2s n, ledge__tile_geom *g) {
    g->sx = n.x;
    g->sy = n.y;
    g->normal = n;
    g->anchor = v2(0.5f, 0.5f);
    float x0 = n.x > 0.0f ? 0.0f : (n.x < 0.0f ? 0.5f : 0.0f);
    float x1 = n.x > 0.0f ? 0.5f : 1.0f;
    float y0 = n.y > 0.0f ? 0.0f : (n.y < 0.0f ? 0.5f : 0.0f);
    float y1 = n.y > 0.0f ? 0.5f : 1.0f;
    set_points(g, 4, (vec2s[]){v2(x0, y0), v2(x1, y0), v2(x1, y1), v2(x0, y1)});
}

// Edge normals, solid bounds and the fully covered sides: what collision
// reads on every call, computed once here. The slope edge takes the exact
// surface normal so that both agree bit for bit.
static void derive_collision_data(ledge__tile_geom *g) {
    static const unsigned side_bits[4] = {LEDGE_SIDE_XNEG, LEDGE_SIDE_XPOS, LEDGE_SIDE_YNEG,
                                          LEDGE_SIDE_YPOS};
    g->bounds.lower = v2(1.0f, 1.0f);
    g->bounds.upper = v2(0.0f, 0.0f);
    for (int i = 0; i < g->count; ++i) {
        vec2s a = g->points[i], b = g->points[(i + 1) % g->count];
        g->bounds.lower = v2(minf(g->bounds.lower.x, a.x), minf(g->bounds.lower.y, a.y));
        g->bounds.upper = v2(maxf(g->bounds.upper.x, a.x), maxf(g->bounds.upper.y, a.y));
        if (i == g->arc_edge) continue;
        vec2s e = v2_sub(b, a);
        vec2s n = v2_normalize(v2(e.y, -e.x)); // outward for a CCW outline
        if (n.x != 0.0f && n.y != 0.0f) n = g->normal;
        g->normals[i] = n;
    }
    g->full_sides = 0;
    for (int side = 0; side < 4; ++side) {
        if (g->cover[side] == LEDGE_COVER_FULL) g->full_sides |= (uint8_t)side_bits[side];
    }
}

void ledge__tile_geom_of(ledge_tile tile, ledge__tile_geom *g) {
    memset(g, 0, sizeof *g);
    g->arc_edge = -1;
    if (tile == LEDGE_TILE_EMPTY) return;
    if (tile == LEDGE_TILE_FULL) {
        g->group = LEDGE_TILE_GROUP_FULL;
        set_points(g, 4, (vec2s[]){v2(0, 0), v2(1, 0), v2(1, 1), v2(0, 1)});
    } else {
        int k = 0;
        while (k + 1 < (int)(sizeof oriented_groups / sizeof oriented_groups[0]) &&
               tile >= oriented_groups[k + 1].first) {
            ++k;
        }
        int o = tile - oriented_groups[k].first;
        g->group = oriented_groups[k].group;
        if (g->group == LEDGE_TILE_GROUP_HALF) {
            half_geom(half_normals[o], g);
        } else {
            oriented_geom(g->group, orient_sx[o], orient_sy[o], g);
        }
        make_ccw(g);
    }
    for (int side = 0; side < 4; ++side) side_span(g, side);
    derive_collision_data(g);
}

bool ledge__tile_contains_unit(const ledge__tile_geom *g, vec2s p) {
    if (g->group == LEDGE_TILE_GROUP_EMPTY) return false;
    if (p.x < 0.0f || p.x > 1.0f || p.y < 0.0f || p.y > 1.0f) return false;
    switch (g->arc) {
    case LEDGE__ARC_CONVEX:
        return v2_len2(v2_sub(p, g->arc_center)) <= g->arc_radius * g->arc_radius;
    case LEDGE__ARC_CONCAVE:
        return v2_len2(v2_sub(p, g->arc_center)) >= g->arc_radius * g->arc_radius;
    default:
        return g->group == LEDGE_TILE_GROUP_FULL || v2_dot(v2_sub(p, g->anchor), g->normal) <= 0.0f;
    }
}

// --- public API -----------------------------------------------------------

bool ledge__check_tile(const char *fn, ledge_tile tile) {
    if (tile < LEDGE_TILE_COUNT) return true;
    LEDGE_ERROR("%s: tile is %d (must be 0..%d)", fn, (int)tile, LEDGE_TILE_COUNT - 1);
    return false;
}

const char *ledge_tile_name(ledge_tile tile) {
    return tile < LEDGE_TILE_COUNT ? tile_names[tile] : "INVALID";
}

int ledge_tile_from_name(const char *name) {
    if (name == NULL) return -1;
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        const char *a = tile_names[t], *b = name;
        while (*a && toupper((unsigned char)*b) == *a) ++a, ++b;
        if (*a == '\0' && *b == '\0') return t;
    }
    return -1;
}

ledge_tile_group ledge_tile_group_of(ledge_tile tile) {
    if (tile >= LEDGE_TILE_COUNT) return LEDGE_TILE_GROUP_EMPTY;
    ledge__tile_geom g;
    ledge__tile_geom_of(tile, &g);
    return g.group;
}

vec2s ledge_tile_normal(ledge_tile tile) {
    if (!ledge__check_tile("ledge_tile_normal", tile)) return v2(0.0f, 0.0f);
    ledge__tile_geom g;
    ledge__tile_geom_of(tile, &g);
    return g.normal;
}

ledge_cover ledge_tile_cover(ledge_tile tile, ledge_side side) {
    if (!ledge__check_tile("ledge_tile_cover", tile)) return LEDGE_COVER_NONE;
    if (side != LEDGE_SIDE_XNEG && side != LEDGE_SIDE_XPOS && side != LEDGE_SIDE_YNEG &&
        side != LEDGE_SIDE_YPOS) {
        LEDGE_ERROR("ledge_tile_cover: side is %d (must be one LEDGE_SIDE_ bit)", (int)side);
        return LEDGE_COVER_NONE;
    }
    ledge__tile_geom g;
    ledge__tile_geom_of(tile, &g);
    return (ledge_cover)g.cover[ledge__side_index(side)];
}

static bool cell_ok(const char *fn, vec2s cell_min, float size) {
    return ledge__check_vec(fn, "cell_min", cell_min, LEDGE_MAX_COORDINATE) &&
           ledge__check_size(fn, "size", size);
}

bool ledge_tile_outline_get(ledge_tile tile, vec2s cell_min, float size, ledge_tile_outline *out) {
    if (out == NULL) {
        LEDGE_ERROR("ledge_tile_outline_get: out is NULL");
        return false;
    }
    memset(out, 0, sizeof *out);
    out->arc_edge = -1;
    if (!ledge__check_tile("ledge_tile_outline_get", tile) ||
        !cell_ok("ledge_tile_outline_get", cell_min, size)) {
        return false;
    }
    ledge__tile_geom g;
    ledge__tile_geom_of(tile, &g);
    out->count = g.count;
    for (int i = 0; i < g.count; ++i)
        out->points[i] = v2_add(cell_min, v2_scale(g.points[i], size));
    out->arc_edge = g.arc_edge;
    if (g.arc != LEDGE__ARC_NONE) {
        out->arc_center = v2_add(cell_min, v2_scale(g.arc_center, size));
        out->arc_radius = g.arc_radius * size;
        out->arc_concave = g.arc == LEDGE__ARC_CONCAVE;
    }
    return true;
}

bool ledge_tile_contains(ledge_tile tile, vec2s cell_min, float size, vec2s point) {
    if (!ledge__check_tile("ledge_tile_contains", tile) ||
        !cell_ok("ledge_tile_contains", cell_min, size) ||
        !ledge__check_vec("ledge_tile_contains", "point", point, LEDGE_MAX_COORDINATE)) {
        return false;
    }
    ledge__tile_geom g;
    ledge__tile_geom_of(tile, &g);
    vec2s local = v2_scale(v2_sub(point, cell_min), 1.0f / size);
    return ledge__tile_contains_unit(&g, local);
}
