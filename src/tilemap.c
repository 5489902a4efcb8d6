// The tilemap core: storage, edge states, and the point, region and shape
// queries (tilemap.h). Ray casts live in tilemap_ray.c, loaders in
// tilemap_load.c; all three share the layout in tilemap.h.
#include "check.h"
#include "tilemap.h"

#include "shape.h"
#include "tile_collide.h"

#include <stdint.h>
#include <string.h>

// x86-64 always has SSE2: the scan range uses it (ledge__tilemap_scan_range).
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// --- edge states -------------------------------------------------------------

// The covered part [lo, hi] of one side of a unit-cell tile, along the side
// (lo == hi == 0 when nothing is covered). The outline's corners are exact
// (0, 0.5 or 1), so two spans can be compared with ==.
// The state of the side shared by tile a (its side `sa`) and tile b (its
// facing side `sb`). Two covers that are the same set of points make an
// internal seam (OFF): both FULL, both NONE, and also two PARTIAL covers of
// the same half (two HALF_U tiles side by side), which would otherwise make
// a box sliding on a floor of half tiles snag on every seam.
static ledge_edge edge_between(const ledge__tile_geom *a, int sa, const ledge__tile_geom *b,
                               int sb) {
    int ca = a->cover[sa], cb = b->cover[sb];
    if (ca != LEDGE_COVER_PARTIAL && ca == cb) return LEDGE_EDGE_OFF;
    if (ca != LEDGE_COVER_PARTIAL && cb != LEDGE_COVER_PARTIAL) return LEDGE_EDGE_SOLID;
    if (ca == LEDGE_COVER_PARTIAL && cb == LEDGE_COVER_PARTIAL) {
        if (a->span_lo[sa] == b->span_lo[sb] && a->span_hi[sa] == b->span_hi[sb]) {
            return LEDGE_EDGE_OFF;
        }
    }
    return LEDGE_EDGE_INTERESTING;
}

enum { SIDE_XNEG = 0, SIDE_XPOS = 1, SIDE_YNEG = 2, SIDE_YPOS = 3 };

// A new version, and the cell that made it (sleep.c wakes the sleepers near it).
static void note_edit(ledge_tilemap *m, int x, int y) {
    m->version++;
    m->edited[m->version % LEDGE__EDITS_KEPT] = (ledge__cell){x, y};
}

void ledge__tilemap_note_material(ledge_tilemap *m, int x, int y) {
    bool current = m->blocked_ready && m->blocked_version == m->version;
    note_edit(m, x, y);
    if (current) m->blocked_version = m->version; // no side changed
}

void ledge__tilemap_note_all(ledge_tilemap *m) {
    bool current = m->blocked_ready && m->blocked_version == m->version;
    m->version += LEDGE__EDITS_KEPT + 1u; // more than the map remembers: every cell
    if (current) m->blocked_version = m->version;
}

// The side shared by cells (ax, ay) and (bx, by). A one-way cell lets
// bodies in through its other sides, so where it meets a cell that is not
// one-way the side is never an internal seam: a floor under a one-way
// platform holds up a body walking through the platform, instead of
// letting it fall through an OFF side. (Only OFF blocks a side in the
// collision; two one-way cells meet as their shapes do, so a platform's
// own seams stay smooth.)
static ledge_edge edge_of(const ledge_tilemap *m, int ax, int ay, int sa, int bx, int by, int sb) {
    const ledge__tile_geom *a = &m->geom[ledge__tilemap_at(m, ax, ay)];
    const ledge__tile_geom *b = &m->geom[ledge__tilemap_at(m, bx, by)];
    ledge_edge e = edge_between(a, sa, b, sb);
    bool one_way_a = ledge_tilemap_one_way(m, ax, ay) != LEDGE_ONE_WAY_NONE;
    bool one_way_b = ledge_tilemap_one_way(m, bx, by) != LEDGE_ONE_WAY_NONE;
    int ca = a->cover[sa], cb = b->cover[sb];
    if (e != LEDGE_EDGE_OFF || one_way_a == one_way_b ||
        (ca == LEDGE_COVER_NONE && cb == LEDGE_COVER_NONE))
        return e;
    return ca != LEDGE_COVER_PARTIAL && cb != LEDGE_COVER_PARTIAL ? LEDGE_EDGE_SOLID
                                                                  : LEDGE_EDGE_INTERESTING;
}

// Recomputes the vertical side at cell boundary bx (0..width) of row y.
static void update_edge_v(ledge_tilemap *m, int bx, int y) {
    m->edges_v[(size_t)y * (size_t)(m->width + 1) + (size_t)bx] =
        (uint8_t)edge_of(m, bx - 1, y, SIDE_XPOS, bx, y, SIDE_XNEG);
}

// Recomputes the horizontal side at cell boundary by (0..height) of column x.
static void update_edge_h(ledge_tilemap *m, int x, int by) {
    m->edges_h[(size_t)by * (size_t)m->width + (size_t)x] =
        (uint8_t)edge_of(m, x, by - 1, SIDE_YPOS, x, by, SIDE_YNEG);
}

// The four sides of cell (x, y), after its tile or one-way setting changed.
static void update_edges_around(ledge_tilemap *m, int x, int y) {
    update_edge_v(m, x, y);
    update_edge_v(m, x + 1, y);
    update_edge_h(m, x, y);
    update_edge_h(m, x, y + 1);
}

// The state of side `side` (0..3) of any cell. Sides that are not stored
// lie between two cells outside the map, both FULL: OFF.
static ledge_edge side_state(const ledge_tilemap *m, int64_t x, int64_t y, int side) {
    if (side < 2) {
        int64_t bx = x + (side == SIDE_XPOS);
        if (y < 0 || y >= m->height || bx < 0 || bx > m->width) return LEDGE_EDGE_OFF;
        return (ledge_edge)m->edges_v[(size_t)y * (size_t)(m->width + 1) + (size_t)bx];
    }
    int64_t by = y + (side == SIDE_YPOS);
    if (x < 0 || x >= m->width || by < 0 || by > m->height) return LEDGE_EDGE_OFF;
    return (ledge_edge)m->edges_h[(size_t)by * (size_t)m->width + (size_t)x];
}

// --- point test table --------------------------------------------------------

static ledge__tile_probe probe_of(const ledge__tile_geom *g) {
    ledge__tile_probe p;
    memset(&p, 0, sizeof p);
    if (g->group == LEDGE_TILE_GROUP_EMPTY) {
        p.kind = LEDGE__PROBE_EMPTY;
        p.c = 1.0f;
    } else if (g->group == LEDGE_TILE_GROUP_FULL) {
        p.kind = LEDGE__PROBE_FULL;
        p.c = -1.0f;
    } else if (g->arc != LEDGE__ARC_NONE) {
        // Radius 1 in unit-cell coordinates: the disc's radius is the side.
        LEDGE_ASSERT(g->arc_radius == 1.0f);
        bool convex = g->arc == LEDGE__ARC_CONVEX;
        p.kind = convex ? LEDGE__PROBE_DISC_IN : LEDGE__PROBE_DISC_OUT;
        p.a = convex ? 1.0f : -1.0f;
        p.c = -p.a;
        p.at = g->arc_center;
    } else {
        p.kind = LEDGE__PROBE_PLANE;
        p.n = g->normal;
        p.at = g->anchor;
    }
    return p;
}

// The tile's point test at unit-cell coordinates (u, v) in [0, 1]^2 (see
// ledge__tile_probe). For discs, q - 1 and 1 - q are exact near q = 1
// (Sterbenz), so the comparison is exactly q <= 1 or q >= 1.
static inline bool probe_solid(const ledge__tile_probe *p, float u, float v) {
    float dx = u - p->at.x, dy = v - p->at.y;
    return p->a * (dx * dx + dy * dy) + (dx * p->n.x + dy * p->n.y) + p->c <= 0.0f;
}

// The cell (floor) of cell coordinate f, and that floor as a float in
// *fl, without a floorf call (the x86-64 baseline has no rounding
// instruction). From 2^23 on every float is an integer; far cells are
// clamped like ledge__tilemap_cell so that the int stays defined.
static inline int floor_cell(float f, float *fl) {
    if (LEDGE_UNLIKELY(!(fabsf(f) < 8388608.0f))) {
        *fl = f;
        return f < -2.0e9f ? -2000000000 : f > 2.0e9f ? 2000000000 : (int)f;
    }
    int i = (int)f;    // truncates toward zero:
    i -= (float)i > f; // one less below 0
    *fl = (float)i;
    return i;
}

// --- create / destroy / get / set --------------------------------------------

ledge_tilemap_def ledge_default_tilemap_def(void) {
    ledge_tilemap_def def;
    memset(&def, 0, sizeof def);
    def.width = 16;
    def.height = 16;
    def.tile_size = 1.0f;
    def.origin = v2(0.0f, 0.0f);
    return def;
}

static bool check_side_count(const char *arg, int n) {
    if (n >= 1 && n <= LEDGE_MAX_TILEMAP_SIDE) return true;
    LEDGE_ERROR("ledge_tilemap_create: def->%s is %d (must be 1..%d)", arg, n,
                LEDGE_MAX_TILEMAP_SIDE);
    return false;
}

// The far edge of the map along one axis must stay a representable
// coordinate, or cell positions near it would lose all precision.
static bool check_extent(const char *axis, float origin, float size, int cells) {
    double far = (double)origin + (double)size * (double)cells;
    if (far <= (double)LEDGE_MAX_COORDINATE) return true;
    LEDGE_ERROR("ledge_tilemap_create: the map reaches %s = %g (origin.%s + tile_size * cells "
                "must be <= %g)",
                axis, far, axis, (double)LEDGE_MAX_COORDINATE);
    return false;
}

static bool check_def(const ledge_tilemap_def *def) {
    const char *fn = "ledge_tilemap_create";
    if (def == NULL) {
        LEDGE_ERROR("ledge_tilemap_create: def is NULL");
        return false;
    }
    if (!check_side_count("width", def->width) || !check_side_count("height", def->height)) {
        return false;
    }
    int64_t cells = (int64_t)def->width * (int64_t)def->height;
    if (cells > LEDGE_MAX_TILEMAP_CELLS) {
        LEDGE_ERROR("ledge_tilemap_create: def->width * def->height is %lld (must be <= %d)",
                    (long long)cells, LEDGE_MAX_TILEMAP_CELLS);
        return false;
    }
    if (!ledge__check_size(fn, "def->tile_size", def->tile_size)) return false;
    // Queries multiply by 1 / tile_size: a subnormal size would make it
    // infinite and turn cell indices into NaN conversions.
    if (def->tile_size < LEDGE_MIN_TILE_SIZE) {
        LEDGE_ERROR("ledge_tilemap_create: def->tile_size is %g (must be >= %g)",
                    (double)def->tile_size, (double)LEDGE_MIN_TILE_SIZE);
        return false;
    }
    return ledge__check_vec(fn, "def->origin", def->origin, LEDGE_MAX_COORDINATE) &&
           check_extent("x", def->origin.x, def->tile_size, def->width) &&
           check_extent("y", def->origin.y, def->tile_size, def->height);
}

static unsigned blocked_sides(const ledge_tilemap *m, const ledge__tile_geom *g, int x, int y);

// Recomputes the kept blocked sides of cells x0..x1 x y0..y1 (clamped to
// the map and its ring).
static void refresh_blocked_cells(ledge_tilemap *m, int x0, int y0, int x1, int y1) {
    x0 = x0 > -1 ? x0 : -1;
    y0 = y0 > -1 ? y0 : -1;
    x1 = x1 < m->width ? x1 : m->width;
    y1 = y1 < m->height ? y1 : m->height;
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            size_t k = (size_t)(y + 1) * (size_t)(m->width + 2) + (size_t)(x + 1);
            m->blocked[k] = (uint8_t)blocked_sides(m, &m->geom[ledge__tilemap_at(m, x, y)], x, y);
        }
    }
}

ledge_tilemap *ledge_tilemap_create(const ledge_tilemap_def *def) {
    if (!check_def(def)) return NULL;
    size_t w = (size_t)def->width, h = (size_t)def->height;
    size_t n_tiles = w * h, n_v = (w + 1) * h, n_h = w * (h + 1);
    // One block: the struct, then the tiles, both edge arrays, the one-way
    // directions and the blocked sides of the cells and their ring (bytes).
    size_t n_ring = (w + 2) * (h + 2);
    size_t bytes = sizeof(ledge_tilemap) + n_tiles + n_v + n_h + n_tiles + n_ring;
    unsigned char *block = ledge__alloc(bytes);
    if (block == NULL) {
        LEDGE_ERROR("ledge_tilemap_create: allocating %zu bytes for a %d x %d map failed", bytes,
                    def->width, def->height);
        return NULL;
    }
    ledge_tilemap *m = (ledge_tilemap *)(void *)block;
    memset(m, 0, sizeof *m);
    m->width = def->width;
    m->height = def->height;
    m->tile_size = def->tile_size;
    m->inv_tile_size = 1.0f / def->tile_size;
    m->origin = def->origin;
    m->tiles = block + sizeof(ledge_tilemap);
    m->edges_v = m->tiles + n_tiles;
    m->edges_h = m->edges_v + n_v;
    m->one_way = m->edges_h + n_h;
    m->blocked = m->one_way + n_tiles;
    memset(m->tiles, LEDGE_TILE_EMPTY, n_tiles);
    memset(m->one_way, LEDGE_ONE_WAY_NONE, n_tiles);
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        m->tile_material[t] = ledge_default_material();
        ledge__tile_geom_of((ledge_tile)t, &m->geom[t]);
        m->probe[t] = probe_of(&m->geom[t]);
        for (unsigned b = 0; b < 16; ++b)
            ledge__ptile_init(&m->geom[t], m->tile_size, b, &m->ptile[t][b]);
    }
    for (int y = 0; y < m->height; ++y) {
        for (int bx = 0; bx <= m->width; ++bx) update_edge_v(m, bx, y);
    }
    for (int by = 0; by <= m->height; ++by) {
        for (int x = 0; x < m->width; ++x) update_edge_h(m, x, by);
    }
    return m; // the store of blocked sides is made when first refreshed
}

void ledge_tilemap_destroy(ledge_tilemap *map) {
    if (map == NULL) return;
    ledge__free(map->extra_blocked);
    ledge__free(map->cell_material); // the one allocation apart (tilemap_material.c)
    ledge__free(map);                // one block (see ledge_tilemap_create), and the overlay
}

static bool check_map(const char *fn, const ledge_tilemap *map) {
    if (map != NULL) return true;
    LEDGE_ERROR("%s: map is NULL", fn);
    return false;
}

ledge_tilemap_def ledge_tilemap_get_def(const ledge_tilemap *map) {
    ledge_tilemap_def def;
    memset(&def, 0, sizeof def);
    if (!check_map("ledge_tilemap_get_def", map)) return def;
    def.width = map->width;
    def.height = map->height;
    def.tile_size = map->tile_size;
    def.origin = map->origin;
    return def;
}

bool ledge_tilemap_set(ledge_tilemap *map, int x, int y, ledge_tile tile) {
    if (!check_map("ledge_tilemap_set", map)) return false;
    if (!ledge__tilemap_inside(map, x, y)) {
        LEDGE_ERROR("ledge_tilemap_set: cell is (%d, %d) (must be in 0..%d x 0..%d)", x, y,
                    map->width - 1, map->height - 1);
        return false;
    }
    if (!ledge__check_tile("ledge_tilemap_set", tile)) return false;
    map->tiles[(size_t)y * (size_t)map->width + (size_t)x] = tile;
    note_edit(map, x, y);
    update_edges_around(map, x, y);
    return true;
}

bool ledge_tilemap_set_one_way(ledge_tilemap *map, int x, int y, ledge_one_way way) {
    if (!check_map("ledge_tilemap_set_one_way", map)) return false;
    if (!ledge__tilemap_inside(map, x, y)) {
        LEDGE_ERROR("ledge_tilemap_set_one_way: cell is (%d, %d) (must be in 0..%d x 0..%d)", x, y,
                    map->width - 1, map->height - 1);
        return false;
    }
    if ((int)way < LEDGE_ONE_WAY_NONE || (int)way > LEDGE_ONE_WAY_RIGHT) {
        LEDGE_ERROR("ledge_tilemap_set_one_way: way is %d (must be a ledge_one_way)", (int)way);
        return false;
    }
    map->one_way[(size_t)y * (size_t)map->width + (size_t)x] = (uint8_t)way;
    note_edit(map, x, y);
    update_edges_around(map, x, y);
    return true;
}

ledge_one_way ledge_tilemap_one_way(const ledge_tilemap *map, int x, int y) {
    if (!check_map("ledge_tilemap_one_way", map)) return LEDGE_ONE_WAY_NONE;
    if (!ledge__tilemap_inside(map, x, y)) return LEDGE_ONE_WAY_NONE;
    return (ledge_one_way)map->one_way[(size_t)y * (size_t)map->width + (size_t)x];
}

vec2s ledge_one_way_direction(ledge_one_way way) {
    switch (way) {
    case LEDGE_ONE_WAY_UP:
        return v2(0.0f, 1.0f);
    case LEDGE_ONE_WAY_DOWN:
        return v2(0.0f, -1.0f);
    case LEDGE_ONE_WAY_LEFT:
        return v2(-1.0f, 0.0f);
    case LEDGE_ONE_WAY_RIGHT:
        return v2(1.0f, 0.0f);
    default:
        return v2(0.0f, 0.0f);
    }
}

ledge_tile ledge_tilemap_get(const ledge_tilemap *map, int x, int y) {
    if (!check_map("ledge_tilemap_get", map)) return LEDGE_TILE_EMPTY;
    return ledge__tilemap_at(map, x, y);
}

ledge_edge ledge_tilemap_edge(const ledge_tilemap *map, int x, int y, ledge_side side) {
    if (!check_map("ledge_tilemap_edge", map)) return LEDGE_EDGE_OFF;
    if (side != LEDGE_SIDE_XNEG && side != LEDGE_SIDE_XPOS && side != LEDGE_SIDE_YNEG &&
        side != LEDGE_SIDE_YPOS) {
        LEDGE_ERROR("ledge_tilemap_edge: side is %d (must be one LEDGE_SIDE_ bit)", (int)side);
        return LEDGE_EDGE_OFF;
    }
    return side_state(map, x, y, ledge__side_index(side));
}

static bool check_finite_point(const char *fn, vec2s p) {
    if (isfinite(p.x) && isfinite(p.y)) return true;
    LEDGE_ERROR("%s: point is (%g, %g) (must be finite)", fn, (double)p.x, (double)p.y);
    return false;
}

void ledge_tilemap_cell_at(const ledge_tilemap *map, vec2s point, int *x, int *y) {
    int cx = 0, cy = 0;
    if (check_map("ledge_tilemap_cell_at", map) &&
        check_finite_point("ledge_tilemap_cell_at", point)) {
        cx = ledge__tilemap_cell(point.x, map->origin.x, map->inv_tile_size);
        cy = ledge__tilemap_cell(point.y, map->origin.y, map->inv_tile_size);
    }
    if (x) *x = cx;
    if (y) *y = cy;
}

// --- point query ---------------------------------------------------------------

// The point lies on a cell boundary (u or v is 0 or 1): it belongs to the
// closed squares of up to four cells, and is solid when it is in the closed
// solid region of any of them (its own cell first, then row-major). `hit`
// holds its own cell; it is replaced by the first cell found solid. Rare,
// so kept out of the hot path.
LEDGE_NOINLINE static bool query_boundary(const ledge_tilemap *m, float u, float v,
                                          ledge_tile_hit *hit) {
    if (probe_solid(&m->probe[hit->tile], u, v)) return true;
    for (int dy = -1; dy <= 1; ++dy) {
        float lv = v - (float)dy;
        if (lv < 0.0f || lv > 1.0f) continue;
        for (int dx = -1; dx <= 1; ++dx) {
            float lu = u - (float)dx;
            if ((dx == 0 && dy == 0) || lu < 0.0f || lu > 1.0f) continue;
            int nx = hit->x + dx, ny = hit->y + dy; // cells are clamped far from INT_MAX
            ledge_tile t = ledge__tilemap_at(m, nx, ny);
            if (probe_solid(&m->probe[t], lu, lv)) {
                hit->x = nx;
                hit->y = ny;
                hit->tile = t;
                return true;
            }
        }
    }
    return false;
}

LEDGE_NOINLINE static bool refuse_point(const ledge_tilemap *map, vec2s point) {
    if (check_map("ledge_tilemap_query_point", map)) {
        check_finite_point("ledge_tilemap_query_point", point);
    }
    return false;
}

// Written for the common case to have no data-dependent branch: the tile
// test is a branch-free formula and only the rare boundary case branches.
bool ledge_tilemap_query_point(const ledge_tilemap *map, vec2s point, ledge_tile_hit *out) {
    if (LEDGE_UNLIKELY(map == NULL || !ledge__finite4(point.x, point.y, 0.0f, 0.0f))) {
        return refuse_point(map, point);
    }
    float fx = (point.x - map->origin.x) * map->inv_tile_size;
    float fy = (point.y - map->origin.y) * map->inv_tile_size;
    float flx, fly;
    ledge_tile_hit hit;
    hit.x = floor_cell(fx, &flx);
    hit.y = floor_cell(fy, &fly);
    float u = fx - flx, v = fy - fly; // in [0, 1]: 1 when fx is a tiny negative number
    hit.tile = ledge__tilemap_at(map, hit.x, hit.y);
    bool solid;
    if (LEDGE_UNLIKELY((u == 0.0f) | (v == 0.0f) | (u == 1.0f) | (v == 1.0f))) {
        solid = query_boundary(map, u, v, &hit);
    } else {
        solid = probe_solid(&map->probe[hit.tile], u, v);
    }
    if (out) *out = hit;
    return solid;
}

// --- one-way cells in the queries ---------------------------------------------

// The closed solid test of cell (x, y)'s tile at map coordinates (fx, fy)
// (world coordinates minus the origin, over the tile size): the frame
// ledge_tilemap_query_point reads, so both answer alike on boundaries.
static bool cell_holds_at(const ledge_tilemap *m, int x, int y, float fx, float fy) {
    float u = fx - (float)x, v = fy - (float)y;
    if (!(u >= 0.0f && u <= 1.0f && v >= 0.0f && v <= 1.0f)) return false;
    return probe_solid(&m->probe[ledge__tilemap_at(m, x, y)], u, v);
}

bool ledge__tilemap_cell_holds(const ledge_tilemap *m, int x, int y, vec2s point) {
    return cell_holds_at(m, x, y, (point.x - m->origin.x) * m->inv_tile_size,
                         (point.y - m->origin.y) * m->inv_tile_size);
}

bool ledge__tilemap_one_way_cell(const ledge_tilemap *m, int x, int y) {
    return ledge__tilemap_inside(m, x, y) &&
           m->one_way[(size_t)y * (size_t)m->width + (size_t)x] != LEDGE_ONE_WAY_NONE;
}

bool ledge__tilemap_solid_point(const ledge_tilemap *m, vec2s point, bool one_way_too,
                                ledge_tile_hit *out) {
    float fx = (point.x - m->origin.x) * m->inv_tile_size;
    float fy = (point.y - m->origin.y) * m->inv_tile_size;
    float flx, fly;
    int x = floor_cell(fx, &flx), y = floor_cell(fy, &fly);
    for (int k = -1; k < 9; ++k) { // its own cell first, then the 3 x 3 around it row-major
        int dx = k < 0 ? 0 : k % 3 - 1, dy = k < 0 ? 0 : k / 3 - 1;
        if (k == 4) continue; // (its own, done)
        if (!one_way_too && ledge__tilemap_one_way_cell(m, x + dx, y + dy)) continue;
        if (cell_holds_at(m, x + dx, y + dy, fx, fy)) {
            out->x = x + dx;
            out->y = y + dy;
            out->tile = ledge__tilemap_at(m, x + dx, y + dy);
            return true;
        }
    }
    return false;
}

// --- region query ------------------------------------------------------------

static bool check_out(const char *fn, const void *out, int max_out) {
    if (max_out < 0) {
        LEDGE_ERROR("%s: max_out is %d (must be >= 0)", fn, max_out);
        return false;
    }
    if (out == NULL && max_out > 0) {
        LEDGE_ERROR("%s: out is NULL with max_out %d (must be non-NULL when max_out > 0)", fn,
                    max_out);
        return false;
    }
    return true;
}

static bool check_box(const char *fn, ledge_aabb box) {
    bool finite = isfinite(box.lower.x) && isfinite(box.lower.y) && isfinite(box.upper.x) &&
                  isfinite(box.upper.y);
    if (finite && box.lower.x <= box.upper.x && box.lower.y <= box.upper.y) return true;
    LEDGE_ERROR("%s: box is (%g, %g)-(%g, %g) (must be finite with lower <= upper)", fn,
                (double)box.lower.x, (double)box.lower.y, (double)box.upper.x, (double)box.upper.y);
    return false;
}

// Cells [*x0, *x1] x [*y0, *y1] holding a point of the box (floor division),
// clamped to the map grown by `ring` cells on every side. Empty when
// *x0 > *x1 or *y0 > *y1.
static void cell_range(const ledge_tilemap *m, ledge_aabb box, int ring, int *x0, int *y0, int *x1,
                       int *y1) {
    int lx = ledge__tilemap_cell(box.lower.x, m->origin.x, m->inv_tile_size);
    int ly = ledge__tilemap_cell(box.lower.y, m->origin.y, m->inv_tile_size);
    int ux = ledge__tilemap_cell(box.upper.x, m->origin.x, m->inv_tile_size);
    int uy = ledge__tilemap_cell(box.upper.y, m->origin.y, m->inv_tile_size);
    *x0 = lx > -ring ? lx : -ring;
    *y0 = ly > -ring ? ly : -ring;
    *x1 = ux < m->width - 1 + ring ? ux : m->width - 1 + ring;
    *y1 = uy < m->height - 1 + ring ? uy : m->height - 1 + ring;
}

int ledge_tilemap_query_region(const ledge_tilemap *map, ledge_aabb box, ledge_tile_hit *out,
                               int max_out) {
    const char *fn = "ledge_tilemap_query_region";
    if (!check_map(fn, map) || !check_box(fn, box) || !check_out(fn, out, max_out)) return 0;
    int x0, y0, x1, y1, n = 0;
    cell_range(map, box, 0, &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; ++y) {
        const ledge_tile *row = map->tiles + (size_t)y * (size_t)map->width;
        for (int x = x0; x <= x1; ++x) {
            if (row[x] == LEDGE_TILE_EMPTY) continue;
            if (n < max_out) {
                out[n].x = x;
                out[n].y = y;
                out[n].tile = row[x];
            }
            ++n;
        }
    }
    return n;
}

// --- shape contacts -------------------------------------------------------------

/// LEDGE_SIDE_ bits of sides 0..3 (SIDE_XNEG, SIDE_XPOS, SIDE_YNEG, SIDE_YPOS).
static const unsigned side_bit[4] = {LEDGE_SIDE_XNEG, LEDGE_SIDE_XPOS, LEDGE_SIDE_YNEG,
                                     LEDGE_SIDE_YPOS};

// Whether the untouched side `s` of cell (x, y), tile geometry g, may stay
// blocked. Blocking an untouched side lets the tile's surface run on across
// it (the tips of a 45 degree staircase). Next to a blocked FULL-covered
// side p, whose extrusion spreads the tile over the neighbour across p,
// that surface would then run over the neighbour's own top: a box resting
// on `##\` with a corner over the slope was pushed 0.4 along the slope. So
// the side stays blocked at such a corner only when the cell diagonally
// across it may continue the surface (neither EMPTY nor FULL).
static bool untouched_side_stays_blocked(const ledge_tilemap *m, const ledge__tile_geom *g, int x,
                                         int y, int s, unsigned blocked) {
    static const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
    int perpendicular[2] = {s < 2 ? SIDE_YNEG : SIDE_XNEG, s < 2 ? SIDE_YPOS : SIDE_XPOS};
    for (int k = 0; k < 2; ++k) {
        int p = perpendicular[k];
        if (!(blocked & side_bit[p]) || g->cover[p] != LEDGE_COVER_FULL) continue;
        ledge_tile diagonal = ledge__tilemap_at(m, x + dx[s] + dx[p], y + dy[s] + dy[p]);
        if (diagonal == LEDGE_TILE_EMPTY || diagonal == LEDGE_TILE_FULL) return false;
    }
    return true;
}

// LEDGE_SIDE_ bits of the sides of cell (x, y) (tile geometry g) whose
// edge is OFF: an internal seam or a side neither tile touches, less the
// untouched sides that must not stay blocked (above). The tile must not
// push across them (tile_collide.h).
static unsigned blocked_sides(const ledge_tilemap *m, const ledge__tile_geom *g, int x, int y) {
    unsigned blocked = 0;
    for (int s = 0; s < 4; ++s) {
        if (side_state(m, x, y, s) == LEDGE_EDGE_OFF) blocked |= side_bit[s];
    }
    unsigned kept = blocked;
    for (int s = 0; s < 4; ++s) {
        if ((blocked & side_bit[s]) && g->cover[s] == LEDGE_COVER_NONE &&
            !untouched_side_stays_blocked(m, g, x, y, s, blocked)) {
            kept &= ~side_bit[s];
        }
    }
    if (LEDGE_UNLIKELY(m->extra_blocked != NULL) && ledge__tilemap_inside(m, x, y))
        kept |= m->extra_blocked[(size_t)y * (size_t)m->width + (size_t)x];
    return kept;
}

// Whether the whole store of blocked sides is behind: never made, or more
// edits since it was than the map remembers.
static bool blocked_all_stale(const ledge_tilemap *m) {
    return !m->blocked_ready || m->version - m->blocked_version > LEDGE__EDITS_KEPT;
}

// The cell the i-th edit since the store was made changed (i from 0; fewer
// than version - blocked_version, the store not all stale).
static ledge__cell edit_since_blocked(const ledge_tilemap *m, uint32_t i) {
    return m->edited[(m->blocked_version + 1 + i) % LEDGE__EDITS_KEPT];
}

// Whether the map's store of blocked sides is behind for cell (x, y): all
// of it, or an edit since in the 3 x 3 cells around (x, y).
static LEDGE_NOINLINE bool blocked_stale(const ledge_tilemap *m, int x, int y) {
    if (blocked_all_stale(m)) return true;
    for (uint32_t i = 0; i < m->version - m->blocked_version; ++i) {
        ledge__cell e = edit_since_blocked(m, i);
        if (e.x - x <= 1 && x - e.x <= 1 && e.y - y <= 1 && y - e.y <= 1) return true;
    }
    return false;
}

// blocked_sides of cell (x, y), from the map's store where it has one and
// it is up to date there.
static inline unsigned cell_blocked(const ledge_tilemap *m, const ledge__tile_geom *g, int x,
                                    int y) {
    if (x < -1 || y < -1 || x > m->width || y > m->height) return blocked_sides(m, g, x, y);
    if (LEDGE_UNLIKELY(m->version != m->blocked_version || !m->blocked_ready) &&
        blocked_stale(m, x, y)) {
        return blocked_sides(m, g, x, y);
    }
    return m->blocked[(size_t)(y + 1) * (size_t)(m->width + 2) + (size_t)(x + 1)];
}

bool ledge__tilemap_set_extra_blocked(ledge_tilemap *m, int x, int y, unsigned sides) {
    size_t k = (size_t)y * (size_t)m->width + (size_t)x;
    if (m->extra_blocked == NULL) {
        if (sides == 0) return true;
        size_t n = (size_t)m->width * (size_t)m->height;
        m->extra_blocked = ledge__alloc(n);
        if (m->extra_blocked == NULL) return false;
        memset(m->extra_blocked, 0, n);
    }
    if (m->extra_blocked[k] == (uint8_t)sides) return true;
    m->extra_blocked[k] = (uint8_t)sides;
    // The store is made again, whole, when next refreshed: chains are made
    // and their ends met far less often than tiles are edited.
    m->blocked_ready = false;
    return true;
}

void ledge__tilemap_refresh_blocked(ledge_tilemap *m) {
    if (blocked_all_stale(m)) {
        refresh_blocked_cells(m, -1, -1, m->width, m->height);
    } else {
        for (uint32_t i = 0; i < m->version - m->blocked_version; ++i) {
            ledge__cell e = edit_since_blocked(m, i);
            refresh_blocked_cells(m, e.x - 1, e.y - 1, e.x + 1, e.y + 1);
        }
    }
    m->blocked_version = m->version;
    m->blocked_ready = true;
}

static bool check_collide(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                          const ledge_tile_contact *out, int max_out) {
    const char *fn = "ledge_tilemap_collide";
    if (!check_map(fn, map)) return false;
    if (!ledge_shape_is_valid(shape)) {
        LEDGE_ERROR("ledge_tilemap_collide: shape is NULL or invalid");
        return false;
    }
    return ledge__check_vec(fn, "pos", pos, LEDGE_MAX_COORDINATE) && check_out(fn, out, max_out);
}

// A shape's scan covers its world bounds grown by a few float ulps of the
// coordinates: the tile test works in the cell's frame (pos - cell_min),
// whose rounding can make a shape whose world bounds just touch a cell
// overlap it by an ulp. Scanning a cell too many only costs one early-out.
// The growth, relative to the bounds' size plus a tile: 2^-18, about 32
// ulps.
#define SCAN_GROWTH (1.0f / 262144.0f)

#if defined(__SSE2__)
static inline __m128i select_i(__m128i mask, __m128i a, __m128i b) { // mask ? a : b, by lane
    return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b));
}
#else
// The shape's world bounds, grown for the scan.
static ledge_aabb scan_bounds(const ledge_tilemap *m, const ledge_shape *s, vec2s pos) {
    const float k = SCAN_GROWTH;
    ledge_aabb b = ledge_shape_aabb_fast(s, pos);
    b.lower.x -= (fabsf(b.lower.x) + m->tile_size) * k;
    b.lower.y -= (fabsf(b.lower.y) + m->tile_size) * k;
    b.upper.x += (fabsf(b.upper.x) + m->tile_size) * k;
    b.upper.y += (fabsf(b.upper.y) + m->tile_size) * k;
    return b;
}
#endif

// Cells outside the map are FULL. Beyond the one-cell ring around the map
// every cell is surrounded by FULL cells, so all four of its sides are
// internal seams (OFF) and it can never push: the scan is clamped to the
// ring, which bounds the work for a huge shape or one far outside.
#if defined(__SSE2__)
// The step asks this for every body near tiles in every pass: on x86-64
// the four bounds go through scan_bounds, ledge__tilemap_cell and
// cell_range side by side in one register (lanes lower x, lower y, upper
// x, upper y), with the same IEEE operations lane by lane, so the same
// cells. Floor: truncation, less one where it went up (a negative
// fraction); exact here, the values being clamped to +-2e9 first.
void ledge__tilemap_scan_range(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                               int *x0, int *y0, int *x1, int *y1) {
    const ledge_aabb *b = &shape->bounds;
    __m128 p = _mm_setr_ps(pos.x, pos.y, pos.x, pos.y);
    __m128 box = _mm_add_ps(_mm_setr_ps(b->lower.x, b->lower.y, b->upper.x, b->upper.y), p);
    const __m128 sign = _mm_castsi128_ps(_mm_set1_epi32(INT32_MIN));
    const __m128 lower_lanes = _mm_castsi128_ps(_mm_setr_epi32(-1, -1, 0, 0));
    __m128 grow = _mm_mul_ps(_mm_add_ps(_mm_andnot_ps(sign, box), _mm_set1_ps(map->tile_size)),
                             _mm_set1_ps(SCAN_GROWTH));
    box = _mm_add_ps(box, _mm_xor_ps(grow, _mm_and_ps(sign, lower_lanes))); // lower - g, upper + g
    __m128 origin = _mm_setr_ps(map->origin.x, map->origin.y, map->origin.x, map->origin.y);
    __m128 f = _mm_mul_ps(_mm_sub_ps(box, origin), _mm_set1_ps(map->inv_tile_size));
    __m128 valid = _mm_cmpge_ps(f, _mm_set1_ps(-2.0e9f)); // false for NaN
    __m128 above = _mm_cmpgt_ps(f, _mm_set1_ps(2.0e9f));
    __m128 safe = _mm_and_ps(f, _mm_andnot_ps(above, valid));
    __m128i t = _mm_cvttps_epi32(safe);
    t = _mm_add_epi32(t, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), safe)));
    __m128i low = _mm_set1_epi32(-2000000000), high = _mm_set1_epi32(2000000000);
    t = select_i(_mm_castps_si128(valid), t, low);
    t = select_i(_mm_castps_si128(above), high, t);
    // The ring: lower lanes at least -1, upper ones at most the far cell + 1.
    __m128i limit = _mm_setr_epi32(-1, -1, map->width, map->height);
    __m128i keep = select_i(_mm_castps_si128(lower_lanes), _mm_cmpgt_epi32(t, limit),
                            _mm_cmpgt_epi32(limit, t));
    int out[4];
    _mm_storeu_si128((__m128i *)out, select_i(keep, t, limit));
    *x0 = out[0];
    *y0 = out[1];
    *x1 = out[2];
    *y1 = out[3];
}
#else
void ledge__tilemap_scan_range(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                               int *x0, int *y0, int *x1, int *y1) {
    cell_range(map, scan_bounds(map, shape, pos), 1, x0, y0, x1, y1);
}
#endif

ledge_manifold ledge__tilemap_collide_tile(const ledge_tilemap *map, int x, int y, ledge_tile t,
                                           const ledge_shape *shape, vec2s pos) {
    vec2s cell_min =
        v2(map->origin.x + (float)x * map->tile_size, map->origin.y + (float)y * map->tile_size);
    const ledge__tile_geom *g = &map->geom[t];
    unsigned blocked = cell_blocked(map, g, x, y);
    return ledge__tile_collide(g, &map->ptile[t][blocked], cell_min, map->tile_size, blocked, shape,
                               pos);
}

unsigned ledge__tilemap_blocked(const ledge_tilemap *map, int x, int y) {
    return cell_blocked(map, &map->geom[ledge__tilemap_at(map, x, y)], x, y);
}

unsigned ledge__tilemap_blocked_afresh(const ledge_tilemap *map, int x, int y) {
    return blocked_sides(map, &map->geom[ledge__tilemap_at(map, x, y)], x, y);
}

int ledge_tilemap_collide(const ledge_tilemap *map, const ledge_shape *shape, vec2s pos,
                          ledge_tile_contact *out, int max_out) {
    if (!check_collide(map, shape, pos, out, max_out)) return -1;
    int x0, y0, x1, y1, n = 0;
    ledge__tilemap_scan_range(map, shape, pos, &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            ledge_manifold m = ledge__tilemap_collide_cell(map, x, y, shape, pos);
            if (!m.hit) continue;
            if (n < max_out) {
                out[n].manifold = m;
                out[n].x = x;
                out[n].y = y;
                out[n].tile = ledge__tilemap_at(map, x, y);
            }
            ++n;
        }
    }
    return n;
}
