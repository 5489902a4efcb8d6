// The world's chains (chain_store.h): their storage and generational ids,
// each chain's segments with the cuts its vertices make, the trees the
// step and the queries find them through, and where open ends meet the
// tiles.
//
// Junctions with tiles. An open end that lies on the surface of a tile
// (within 1e-4 of the tile size) runs on along that surface: the tile's
// face through the end is the segment's neighbour there, so the end is
// cut only where the chain turns away from the front onto the tile (a
// convex junction), as at any vertex. Where the junction is flat or
// concave the chain hides the tile's side it runs on across (a floor
// chain leaving a tile's top corner sideways covers the tile's side below
// the corner), and that side is blocked as an OFF edge between two tiles
// is (tilemap.h, extra_blocked): a body sliding off the chain onto the
// tile then meets the tile's top, never its side's corner. At a convex
// junction the tile's side is left alone: the tile's surface run on
// across it would rise over the chain coming up to the corner.
#include "chain_store.h"
#include "contacts.h"
#include "slots.h"

#include "tilemap.h"

#include <stdio.h>
#include <string.h>

// --- ids --------------------------------------------------------------------------

int ledge__chain_slot(const ledge_world *w, ledge_chain_id id, const char *fn) {
    if (w == NULL) {
        LEDGE_ERROR("%s: world is NULL", fn);
        return -1;
    }
    const ledge__chains *cs = w->chains;
    uint32_t s = id.index1 - 1u;
    if (id.index1 == 0 || id.world != w->serial || cs == NULL || s >= (uint32_t)cs->count) {
        LEDGE_ERROR("%s: chain id {%u, %u} is not a chain of this world", fn, id.index1,
                    id.generation);
        return -1;
    }
    const ledge__chain *c = &cs->c[s];
    if (!c->alive || c->generation != id.generation) {
        LEDGE_ERROR("%s: chain id {%u, %u} is stale (the chain was destroyed)", fn, id.index1,
                    id.generation);
        return -1;
    }
    return (int)s;
}

ledge_chain_id ledge__chain_id(const ledge_world *w, int s) {
    ledge_chain_id id = LEDGE_NULL_CHAIN_ID;
    if (s >= 0 && w->chains != NULL && s < w->chains->count) {
        id.index1 = (uint32_t)s + 1u;
        id.generation = w->chains->c[s].generation;
        id.world = w->serial;
    }
    return id;
}

// --- storage ----------------------------------------------------------------------

static void chain_release(ledge__chain *c) {
    ledge__free(c->points);
    ledge__free(c->segments);
    ledge__bvh_free(&c->tree);
    c->points = NULL;
    c->segments = NULL;
    c->point_count = c->segment_count = 0;
}

void ledge__chains_free(ledge_world *w) {
    ledge__chains_release(w->chains);
    w->chains = NULL;
}

void ledge__chains_release(ledge__chains *cs) {
    if (cs == NULL) return;
    for (int s = 0; s < cs->count; ++s) chain_release(&cs->c[s]);
    ledge__free(cs->c);
    ledge__free(cs->free_slots);
    ledge__free(cs->kinematic_slots);
    ledge__bvh_free(&cs->tree);
    ledge__free(cs->tree_slot);
    ledge__free(cs->blocks);
    ledge__free(cs->corners);
    ledge__free(cs->hits);
    ledge__free(cs);
}

// Room in store *cs for slot index `need` - 1 (a new store when NULL);
// false when an allocation fails, the store as it was.
static bool reserve(ledge__chains **store, int need) {
    if (*store == NULL) {
        ledge__chains *cs = ledge__alloc(sizeof *cs);
        if (cs == NULL) return false;
        memset(cs, 0, sizeof *cs);
        *store = cs;
    }
    ledge__chains *cs = *store;
    if (need <= cs->cap) return true;
    int cap = cs->cap ? 2 * cs->cap : 8;
    if (cap < need) cap = need;
    ledge__chain *c = ledge__array_copy(cs->c, cs->count, cap, sizeof *c);
    int *free_slots = ledge__array_copy(cs->free_slots, cs->free_count, cap, sizeof(int));
    int *kin = ledge__array_copy(cs->kinematic_slots, cs->kinematic, cap, sizeof(int));
    int *tree_slot = ledge__array_copy(cs->tree_slot, 0, cap, sizeof(int));
    if (c == NULL || free_slots == NULL || kin == NULL || tree_slot == NULL ||
        !ledge__bvh_reserve(&cs->tree, cap)) {
        ledge__free(c);
        ledge__free(free_slots);
        ledge__free(kin);
        ledge__free(tree_slot);
        return false;
    }
    ledge__free(cs->c);
    ledge__free(cs->free_slots);
    ledge__free(cs->kinematic_slots);
    ledge__free(cs->tree_slot);
    cs->c = c;
    cs->free_slots = free_slots;
    cs->kinematic_slots = kin;
    cs->tree_slot = tree_slot;
    cs->cap = cap;
    cs->tree_stale = true; // (its slots' table is new)
    return true;
}

ledge__chains *ledge__chains_make(int slots) {
    ledge__chains *cs = NULL;
    if (!reserve(&cs, slots > 0 ? slots : 1)) {
        ledge__chains_release(cs);
        return NULL;
    }
    return cs;
}

// The segments of chain c from its points: each one's cuts from its
// neighbours (open ends cut across; the junctions with tiles are found by
// ledge__chains_sync).
static void make_segments(ledge__chain *c) {
    int n = c->point_count, m = c->segment_count;
    for (int k = 0; k < m; ++k) {
        ledge__segment_make(&c->segments[k], c->points[k], c->points[(k + 1) % n]);
    }
    for (int k = 0; k < m; ++k) {
        ledge__segment *s = &c->segments[k];
        bool first = k == 0, last = k == m - 1;
        if (!first || c->loop)
            s->cp = ledge__segment_cut(c->segments[(k + m - 1) % m].e, s->e, false);
        if (!last || c->loop) s->cq = ledge__segment_cut(s->e, c->segments[(k + 1) % m].e, true);
    }
}

// Chain slot s's kinematic list entry, kept in slot order.
static void list_kinematic(ledge__chains *cs, int s) {
    int k = cs->kinematic;
    while (k > 0 && cs->kinematic_slots[k - 1] > s) {
        cs->kinematic_slots[k] = cs->kinematic_slots[k - 1];
        --k;
    }
    cs->kinematic_slots[k] = s;
    cs->kinematic++;
}

static void unlist_kinematic(ledge__chains *cs, int s) {
    int n = 0;
    for (int k = 0; k < cs->kinematic; ++k) {
        if (cs->kinematic_slots[k] != s) cs->kinematic_slots[n++] = cs->kinematic_slots[k];
    }
    cs->kinematic = n;
}

bool ledge__chains_put(ledge__chains *cs, int s, const ledge_chain_def *def, uint32_t generation) {
    int n = def->count, m = def->loop ? n : n - 1;
    ledge__chain fresh;
    memset(&fresh, 0, sizeof fresh);
    fresh.points = ledge__alloc(sizeof *fresh.points * (size_t)n);
    fresh.segments = ledge__alloc(sizeof *fresh.segments * (size_t)m);
    ledge_aabb *boxes = ledge__alloc(sizeof *boxes * (size_t)m);
    if (fresh.points == NULL || fresh.segments == NULL || boxes == NULL ||
        !ledge__bvh_reserve(&fresh.tree, m)) {
        chain_release(&fresh);
        ledge__free(boxes);
        return false;
    }
    memcpy(fresh.points, def->points, sizeof *fresh.points * (size_t)n);
    fresh.point_count = n;
    fresh.segment_count = m;
    fresh.loop = def->loop;
    double area = 0.0;
    for (int k = 0; k < n; ++k) {
        vec2s a = def->points[k], b = def->points[(k + 1) % n];
        area += (double)a.x * b.y - (double)a.y * b.x;
    }
    fresh.ccw = area > 0.0;
    make_segments(&fresh);
    for (int k = 0; k < m; ++k) boxes[k] = ledge__segment_box(&fresh.segments[k]);
    ledge__bvh_build(&fresh.tree, boxes, m, false);
    ledge__free(boxes);
    fresh.bounds = fresh.tree.nodes[0].box;
    fresh.generation = generation;
    fresh.alive = 1;
    fresh.type = (uint8_t)def->type;
    fresh.position = fresh.last_position = def->position;
    fresh.velocity = fresh.prev_velocity =
        def->type == LEDGE_BODY_KINEMATIC ? def->velocity : v2(0.0f, 0.0f);
    fresh.filter = def->filter;
    fresh.material = def->material;
    fresh.user_data = def->user_data;
    if (s >= cs->count) cs->count = s + 1;
    cs->c[s] = fresh;
    cs->live++;
    if (def->type == LEDGE_BODY_KINEMATIC) {
        list_kinematic(cs, s);
    } else {
        cs->tree_stale = true;
    }
    cs->junction_stale = true;
    return true;
}

int ledge__chains_add(ledge_world *w, const ledge_chain_def *def, const char *fn) {
    ledge__chains *cs = w->chains;
    bool room =
        (cs != NULL && cs->free_count > 0) || reserve(&w->chains, (cs != NULL ? cs->count : 0) + 1);
    cs = w->chains;
    if (!room) {
        LEDGE_ERROR("%s: allocation of the chain store failed", fn);
        return -1;
    }
    int s = cs->free_count > 0 ? cs->free_slots[cs->free_count - 1] : cs->count;
    // A dead slot's generation was bumped when it died (0 for a new slot).
    if (!ledge__chains_put(cs, s, def, cs->c[s].generation)) {
        LEDGE_ERROR("%s: allocation of a chain of %d points failed", fn, def->count);
        return -1;
    }
    if (cs->free_count > 0 && cs->free_slots[cs->free_count - 1] == s) cs->free_count--;
    return s;
}

void ledge__chains_remove(ledge_world *w, int s) {
    ledge__chains *cs = w->chains;
    ledge__chain *c = &cs->c[s];
    if (c->type == LEDGE_BODY_KINEMATIC) {
        unlist_kinematic(cs, s);
    } else {
        cs->tree_stale = true;
    }
    chain_release(c);
    uint32_t generation = c->generation + 1u;
    memset(c, 0, sizeof *c);
    c->generation = generation;
    cs->free_slots[cs->free_count++] = s;
    cs->live--;
    cs->junction_stale = true;
}

// --- refusals ----------------------------------------------------------------------

static bool vec_ok(vec2s v) {
    return ledge__finite_within(v.x, LEDGE_MAX_COORDINATE) &&
           ledge__finite_within(v.y, LEDGE_MAX_COORDINATE);
}

static bool fields_ok(const ledge_chain_def *d, char *why, size_t n) {
    if (d->points == NULL) {
        snprintf(why, n, "def->points is NULL");
        return false;
    }
    int least = d->loop ? 3 : 2;
    if (d->count < least || d->count > LEDGE_MAX_CHAIN_POINTS) {
        snprintf(why, n, "def->count is %d (must be %d..%d for %s chain)", d->count, least,
                 LEDGE_MAX_CHAIN_POINTS, d->loop ? "a closed" : "an open");
        return false;
    }
    if (d->type != LEDGE_BODY_STATIC && d->type != LEDGE_BODY_KINEMATIC) {
        snprintf(why, n, "def->type is %d (a chain is static or kinematic)", (int)d->type);
        return false;
    }
    if (!vec_ok(d->position) || !vec_ok(d->velocity)) {
        snprintf(why, n, "def->position (%g, %g) or def->velocity (%g, %g) is not finite within %g",
                 (double)d->position.x, (double)d->position.y, (double)d->velocity.x,
                 (double)d->velocity.y, (double)LEDGE_MAX_COORDINATE);
        return false;
    }
    const ledge_material *m = &d->material;
    if (!ledge_material_is_valid(m)) {
        snprintf(why, n,
                 "def->material is friction %g, bounce %g, surface_speed %g, friction_mix %d "
                 "(friction and bounce 0..1, the speed finite within %g, the mix a "
                 "ledge_friction_mix)",
                 (double)m->friction, (double)m->bounce, (double)m->surface_speed,
                 (int)m->friction_mix, (double)LEDGE_MAX_COORDINATE);
        return false;
    }
    for (int i = 0; i < d->count; ++i) {
        vec2s p = d->points[i];
        if (!vec_ok(p) || !vec_ok(v2_add(p, d->position))) {
            snprintf(why, n,
                     "points[%d] is (%g, %g) (must be finite, within %g where def->position "
                     "puts it)",
                     i, (double)p.x, (double)p.y, (double)LEDGE_MAX_COORDINATE);
            return false;
        }
    }
    return true;
}

static int def_segments(const ledge_chain_def *d) {
    return d->loop ? d->count : d->count - 1;
}

static vec2s seg_from(const ledge_chain_def *d, int k) {
    return d->points[k];
}

static vec2s seg_to(const ledge_chain_def *d, int k) {
    return d->points[(k + 1) % d->count];
}

// Every segment longer than 1e-5 of its ends' largest coordinate (in the
// chain's frame: floats resolve its direction to 0.001 degrees), and no
// vertex where the chain runs back over itself.
static bool segments_ok(const ledge_chain_def *d, char *why, size_t n) {
    int m = def_segments(d);
    for (int k = 0; k < m; ++k) {
        vec2s a = seg_from(d, k), b = seg_to(d, k);
        double dx = (double)b.x - a.x, dy = (double)b.y - a.y, len = sqrt(dx * dx + dy * dy);
        double least = 1.0e-5 * fmax(fmax(fabs(a.x), fabs(a.y)), fmax(fabs(b.x), fabs(b.y)));
        if (!(len > least) || !(len > 0.0)) {
            snprintf(why, n,
                     "segment %d, points[%d] (%g, %g) to points[%d] (%g, %g), is %g long "
                     "(must be longer than 1e-5 of its ends' coordinates, %g)",
                     k, k, (double)a.x, (double)a.y, (k + 1) % d->count, (double)b.x, (double)b.y,
                     len, least);
            return false;
        }
    }
    for (int k = 0; k + (d->loop ? 0 : 1) < m; ++k) {
        vec2s a = seg_from(d, k), b = seg_to(d, k), c = seg_to(d, (k + 1) % m);
        double ux = (double)b.x - a.x, uy = (double)b.y - a.y, vx = (double)c.x - b.x,
               vy = (double)c.y - b.y;
        double lu = sqrt(ux * ux + uy * uy), lv = sqrt(vx * vx + vy * vy);
        double sine = (ux * vy - uy * vx) / (lu * lv), cosine = (ux * vx + uy * vy) / (lu * lv);
        if (fabs(sine) < 1.0e-4 && cosine < 0.0) {
            snprintf(why, n, "the chain runs back over itself at points[%d] (%g, %g)",
                     (k + 1) % d->count, (double)b.x, (double)b.y);
            return false;
        }
    }
    return true;
}

// The sign of the orientation of (a, b, c), in double.
static int orient(vec2s a, vec2s b, vec2s c) {
    double v =
        ((double)b.x - a.x) * ((double)c.y - a.y) - ((double)b.y - a.y) * ((double)c.x - a.x);
    return (v > 0.0) - (v < 0.0);
}

static bool on_segment(vec2s a, vec2s b, vec2s p) {
    return minf(a.x, b.x) <= p.x && p.x <= maxf(a.x, b.x) && minf(a.y, b.y) <= p.y &&
           p.y <= maxf(a.y, b.y);
}

// Whether segments ab and cd meet (touching counts).
static bool segments_meet(vec2s a, vec2s b, vec2s c, vec2s d) {
    int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (o1 != o2 && o3 != o4) return true;
    return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) ||
           (o3 == 0 && on_segment(c, d, a)) || (o4 == 0 && on_segment(c, d, b));
}

// Whether segments j and k are neighbours along the chain.
static bool neighbours(const ledge_chain_def *d, int j, int k) {
    int m = def_segments(d);
    return k == j + 1 || j == k + 1 ||
           (d->loop && ((j == 0 && k == m - 1) || (k == 0 && j == m - 1)));
}

// No two segments that are not neighbours meet (through a tree of their
// boxes: the chain's length times what each box meets).
static bool no_crossing(const ledge_chain_def *d, char *why, size_t n) {
    int m = def_segments(d);
    ledge__bvh tree;
    memset(&tree, 0, sizeof tree);
    ledge_aabb *boxes = ledge__alloc(sizeof *boxes * (size_t)m);
    if (boxes == NULL || !ledge__bvh_reserve(&tree, m)) {
        ledge__free(boxes);
        snprintf(why, n, "allocation for the check of %d segments failed", m);
        return false;
    }
    for (int k = 0; k < m; ++k) {
        vec2s a = seg_from(d, k), b = seg_to(d, k);
        boxes[k] =
            (ledge_aabb){v2(minf(a.x, b.x), minf(a.y, b.y)), v2(maxf(a.x, b.x), maxf(a.y, b.y))};
    }
    ledge__bvh_build(&tree, boxes, m, false);
    bool ok = true;
    for (int j = 0; j < m && ok; ++j) {
        ledge__bvh_iter it;
        ledge__bvh_begin(&it, &tree, boxes[j]);
        for (int k; ok && (k = ledge__bvh_next(&it)) >= 0;) {
            if (k <= j || neighbours(d, j, k)) continue;
            if (segments_meet(seg_from(d, j), seg_to(d, j), seg_from(d, k), seg_to(d, k))) {
                snprintf(why, n,
                         "segments %d and %d of the chain cross or touch (from points[%d] "
                         "(%g, %g) and points[%d] (%g, %g))",
                         j, k, j, (double)seg_from(d, j).x, (double)seg_from(d, j).y, k,
                         (double)seg_from(d, k).x, (double)seg_from(d, k).y);
                ok = false;
            }
        }
    }
    ledge__bvh_free(&tree);
    ledge__free(boxes);
    return ok;
}

bool ledge__chain_check(const ledge_chain_def *def, char *why, size_t why_size) {
    return fields_ok(def, why, why_size) && segments_ok(def, why, why_size) &&
           no_crossing(def, why, why_size);
}

// --- the tree of static chains ------------------------------------------------------

// The static chains' boxes are written in the tree's own table (in slot
// order, tree_slot naming each item's chain), which the build reads.
static void build_tree(ledge__chains *cs) {
    int n = 0;
    for (int s = 0; s < cs->count; ++s) {
        const ledge__chain *c = &cs->c[s];
        if (!c->alive || c->type != LEDGE_BODY_STATIC) continue;
        cs->tree_slot[n] = s;
        cs->tree.boxes[n] = ledge__chain_box(c);
        ++n;
    }
    ledge__bvh_build(&cs->tree, cs->tree.boxes, n, true);
    cs->tree_stale = false;
}

// --- junctions with tiles -----------------------------------------------------------

/// The tile surface a chain's open end E meets, if any: the outward normal
/// m of the face through E that faces the chain's front (within 60
/// degrees) with the chain leaving outside the tile (`away`: from E along
/// the chain), the cell, and the sides of that cell through E the chain
/// leaves across.
typedef struct surface {
    vec2s m;
    int x, y;
    unsigned sides;
} surface;

static inline bool has_cut(vec2s c) {
    return c.x != 0.0f || c.y != 0.0f;
}

static const unsigned side_bits[4] = {LEDGE_SIDE_XNEG, LEDGE_SIDE_XPOS, LEDGE_SIDE_YNEG,
                                      LEDGE_SIDE_YPOS};

/// The cell side (0..3: XNEG, XPOS, YNEG, YPOS) a unit-cell edge a -> b lies
/// on, or -1.
static int edge_side(vec2s a, vec2s b) {
    if (a.x == b.x && (a.x == 0.0f || a.x == 1.0f)) return a.x == 0.0f ? 0 : 1;
    if (a.y == b.y && (a.y == 0.0f || a.y == 1.0f)) return a.y == 0.0f ? 2 : 3;
    return -1;
}

static float point_segment_distance(vec2s u, vec2s a, vec2s b) {
    vec2s d = v2_sub(b, a);
    float l2 = v2_len2(d), t = l2 > 0.0f ? v2_dot(v2_sub(u, a), d) / l2 : 0.0f;
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return v2_len(v2_sub(u, v2_add(a, v2_scale(d, t))));
}

// A candidate face of normal m of cell (x, y) (tile geometry g, E at u in
// the unit cell): kept when it faces the chain's front better than the
// best so far and the chain leaves E outside the tile (across the face,
// or past the face's corner down the tile's side).
static void candidate(surface *best, float *score, const ledge__tile_geom *g, vec2s u, vec2s m,
                      vec2s front, vec2s away, int x, int y) {
    float sc = v2_dot(m, front);
    if (!(sc > 0.5f) || !(sc > *score)) return;
    vec2s ahead = v2_add(u, v2_add(v2_scale(away, 1.0e-3f), v2_scale(m, 1.0e-5f)));
    if (ledge__tile_contains_unit(g, ahead)) return;
    *score = sc;
    best->m = m;
    best->x = x;
    best->y = y;
}

// The faces of cell (x, y)'s tile through the point u (unit-cell frame).
static void cell_faces(const ledge_tilemap *map, int x, int y, vec2s u, vec2s front, vec2s away,
                       surface *best, float *score) {
    const float eps = 1.0e-4f;
    size_t k = (size_t)y * (size_t)map->width + (size_t)x;
    ledge_tile t = map->tiles[k];
    if (t == LEDGE_TILE_EMPTY || map->one_way[k] != LEDGE_ONE_WAY_NONE) return;
    const ledge__tile_geom *g = &map->geom[t];
    for (int i = 0; i < g->count; ++i) {
        vec2s a = g->points[i], b = g->points[(i + 1) % g->count];
        if (i == g->arc_edge) { // its ends, with the arc's normal there
            for (int j = 0; j < 2; ++j) {
                vec2s at = j ? b : a;
                if (v2_len(v2_sub(u, at)) > eps) continue;
                vec2s r = g->arc == LEDGE__ARC_CONVEX ? v2_sub(at, g->arc_center)
                                                      : v2_sub(g->arc_center, at);
                candidate(best, score, g, u, v2_normalize(r), front, away, x, y);
            }
            continue;
        }
        if (point_segment_distance(u, a, b) > eps) continue;
        int side = edge_side(a, b);
        if (side >= 0 &&
            ledge_tilemap_edge(map, x, y, (ledge_side)side_bits[side]) == LEDGE_EDGE_OFF) {
            continue; // a seam inside the level, no surface
        }
        candidate(best, score, g, u, g->normals[i], front, away, x, y);
    }
}

static bool tile_surface(const ledge_tilemap *map, vec2s e, vec2s front, vec2s away, surface *out) {
    float ux = (e.x - map->origin.x) * map->inv_tile_size;
    float uy = (e.y - map->origin.y) * map->inv_tile_size;
    if (!(fabsf(ux) < 1.0e8f && fabsf(uy) < 1.0e8f)) return false;
    const float eps = 1.0e-4f;
    int x0 = (int)floorf(ux - eps), x1 = (int)floorf(ux + eps);
    int y0 = (int)floorf(uy - eps), y1 = (int)floorf(uy + eps);
    float score = -INFINITY;
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            if (!ledge__tilemap_inside(map, x, y)) continue;
            cell_faces(map, x, y, v2(ux - (float)x, uy - (float)y), front, away, out, &score);
        }
    }
    if (score == -INFINITY) return false;
    // The cell's sides through the end that the chain leaves across.
    vec2s u = v2(ux - (float)out->x, uy - (float)out->y);
    static const vec2s outward[4] = {
        {{-1.0f, 0.0f}}, {{1.0f, 0.0f}}, {{0.0f, -1.0f}}, {{0.0f, 1.0f}}};
    out->sides = 0;
    for (int s = 0; s < 4; ++s) {
        float across = s < 2 ? u.x : u.y, along = s < 2 ? u.y : u.x;
        float at = (s & 1) ? 1.0f : 0.0f;
        if (fabsf(across - at) > eps || along < -eps || along > 1.0f + eps) continue;
        if (v2_dot(outward[s], out->m) > 0.999f) continue; // the surface itself
        if (v2_dot(away, outward[s]) > 1.0e-3f) out->sides |= side_bits[s];
    }
    return true;
}

// Sorts the blocks by cell and merges those of one cell.
static int merge_blocks(ledge__chain_block *b, int n) {
    for (int i = 1; i < n; ++i) {
        ledge__chain_block v = b[i];
        int j = i;
        while (j > 0 && (b[j - 1].y > v.y || (b[j - 1].y == v.y && b[j - 1].x > v.x))) {
            b[j] = b[j - 1];
            --j;
        }
        b[j] = v;
    }
    int m = 0;
    for (int i = 0; i < n; ++i) {
        if (m > 0 && b[m - 1].x == b[i].x && b[m - 1].y == b[i].y) {
            b[m - 1].sides |= b[i].sides;
        } else {
            b[m++] = b[i];
        }
    }
    return m;
}

// One open end of static chain c: `start` (its first point) or its last.
// Sets the end segment's cut and c->end_surface; appends the side it
// blocks to `out` (room kept by the caller). Returns the blocks added.
static int meet_end(const ledge_tilemap *map, ledge__chain *c, bool start, ledge__chain_block *out,
                    ledge__chain_corner *corner, int *corners) {
    ledge__segment *s = &c->segments[start ? 0 : c->segment_count - 1];
    vec2s e = v2_add(c->position, start ? s->p : s->q);
    vec2s away = start ? s->e : v2_neg(s->e);
    surface f = {{{0.0f, 0.0f}}, 0, 0, 0u};
    c->end_surface[start ? 0 : 1] = v2(0.0f, 0.0f);
    if (start) s->cp = v2_neg(s->e);
    if (!start) s->cq = s->e;
    if (!tile_surface(map, e, s->n, away, &f)) return 0;
    c->end_surface[start ? 0 : 1] = f.m;
    vec2s along = v2(-f.m.y, f.m.x); // the tile's surface, in the chain's direction
    vec2s cut =
        start ? ledge__segment_cut(along, s->e, false) : ledge__segment_cut(s->e, along, true);
    if (start) {
        s->cp = cut;
    } else {
        s->cq = cut;
    }
    if (v2_dot(away, f.m) < -1.0e-3f) { // downhill: a convex junction at the tile's corner
        corner[*corners] = (ledge__chain_corner){f.x, f.y, e, f.m, s->n};
        ++*corners;
    }
    if (has_cut(cut) || f.sides == 0) return 0;
    out->x = f.x;
    out->y = f.y;
    out->sides = f.sides;
    return 1;
}

static bool corner_before(const ledge__chain_corner *a, const ledge__chain_corner *b) {
    return a->y < b->y || (a->y == b->y && a->x < b->x);
}

// Sorts the corners by cell (insertion: they are few).
static void sort_corners(ledge__chain_corner *c, int n) {
    for (int i = 1; i < n; ++i) {
        ledge__chain_corner v = c[i];
        int j = i;
        while (j > 0 && corner_before(&v, &c[j - 1])) {
            c[j] = c[j - 1];
            --j;
        }
        c[j] = v;
    }
}

bool ledge__chains_hide_tile_contact(const ledge__chains *cs, int x, int y, vec2s n, vec2s centre) {
    int lo = 0, hi = cs->corner_count;
    ledge__chain_corner key = {x, y, {{0.0f, 0.0f}}, {{0.0f, 0.0f}}, {{0.0f, 0.0f}}};
    while (lo < hi) { // the first corner not before the cell
        int mid = (lo + hi) / 2;
        if (corner_before(&cs->corners[mid], &key))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int k = lo; k < cs->corner_count && cs->corners[k].x == x && cs->corners[k].y == y; ++k) {
        const ledge__chain_corner *c = &cs->corners[k];
        // Beyond rn: turned from rn on past it, away from fn (and near rn).
        float turn = v2_cross(c->fn, c->rn);
        bool beyond = turn > 0.0f ? v2_cross(c->rn, n) > 1.0e-6f : v2_cross(c->rn, n) < -1.0e-6f;
        if (beyond && v2_dot(n, c->rn) > 0.0f && v2_dot(v2_sub(centre, c->e), c->rn) > 0.0f)
            return true;
    }
    return false;
}

static void find_junctions(ledge_world *w) {
    ledge__chains *cs = w->chains;
    ledge_tilemap *map = w->map;
    // Room for two blocks per chain (kept from the last time on failure:
    // the ends are then left as they were, logged).
    int room = 2 * cs->count + cs->block_count;
    ledge__chain_block *fresh = ledge__alloc(sizeof *fresh * (size_t)(room > 0 ? room : 1));
    if (fresh == NULL) {
        LEDGE_ERROR("ledge_world_step: allocation of the chains' junctions failed (chain ends "
                    "keep the tiles they met)");
        return;
    }
    ledge__chain_corner *corners = ledge__alloc(sizeof *corners * (size_t)(room > 0 ? room : 1));
    if (corners == NULL) {
        ledge__free(fresh);
        LEDGE_ERROR("ledge_world_step: allocation of the chains' junctions failed (chain ends "
                    "keep the tiles they met)");
        return;
    }
    int n = 0, nc = 0;
    for (int s = 0; s < cs->count; ++s) {
        ledge__chain *c = &cs->c[s];
        if (!c->alive || c->loop || c->type != LEDGE_BODY_STATIC) continue;
        n += meet_end(map, c, true, fresh + n, corners, &nc);
        n += meet_end(map, c, false, fresh + n, corners, &nc);
    }
    sort_corners(corners, nc);
    ledge__free(cs->corners);
    cs->corners = corners;
    cs->corner_count = nc;
    n = merge_blocks(fresh, n);
    bool same = n == cs->block_count;
    for (int k = 0; same && k < n; ++k) {
        same = fresh[k].x == cs->blocks[k].x && fresh[k].y == cs->blocks[k].y &&
               fresh[k].sides == cs->blocks[k].sides;
    }
    if (!same) {
        bool ok = true;
        for (int k = 0; k < cs->block_count; ++k) {
            ok &= ledge__tilemap_set_extra_blocked(map, cs->blocks[k].x, cs->blocks[k].y, 0u);
        }
        for (int k = 0; k < n; ++k) {
            ok &= ledge__tilemap_set_extra_blocked(map, fresh[k].x, fresh[k].y, fresh[k].sides);
        }
        if (!ok) {
            LEDGE_ERROR("ledge_world_step: allocation of the tile sides chains block failed (the "
                        "tiles' sides at chain ends are left open)");
        }
        ledge__free(cs->blocks);
        cs->blocks = fresh;
        cs->block_count = n;
        cs->block_cap = room;
    } else {
        ledge__free(fresh);
    }
    cs->junction_version = map->version;
    cs->junction_stale = false;
}

void ledge__chains_sync(ledge_world *w) {
    ledge__chains *cs = w->chains;
    if (cs == NULL) return;
    if (cs->tree_stale) build_tree(cs);
    if (cs->junction_stale || cs->junction_version != w->map->version) find_junctions(w);
}

void ledge__chains_unblock(ledge_world *w) {
    ledge__chains *cs = w->chains;
    if (cs == NULL) return;
    for (int k = 0; k < cs->block_count; ++k)
        ledge__tilemap_set_extra_blocked(w->map, cs->blocks[k].x, cs->blocks[k].y, 0u);
    cs->block_count = 0;
    cs->corner_count = 0;
    cs->junction_stale = true;
}

void ledge__chains_forget(ledge_world *w, ledge__stale why) {
    ledge__chains *cs = w->chains;
    if (cs == NULL) return;
    if (why == LEDGE__STALE_ALL) cs->tree_stale = true;
    if (why & LEDGE__STALE_TILES) cs->junction_stale = true;
}

// --- walks ----------------------------------------------------------------------------

void ledge__chain_walk_begin(ledge__chain_walk *wk, const ledge__chains *cs, ledge_aabb box) {
    wk->cs = cs;
    wk->box = box;
    wk->kinematic = 0;
    wk->chain = -1;
    if (cs != NULL) ledge__bvh_begin(&wk->chains, &cs->tree, box);
}

bool ledge__chain_walk_next(ledge__chain_walk *wk, int *chain, int *segment) {
    const ledge__chains *cs = wk->cs;
    if (cs == NULL) return false;
    for (;;) {
        if (wk->chain >= 0) {
            int k = ledge__bvh_next(&wk->segments);
            if (k >= 0) {
                *chain = wk->chain;
                *segment = k;
                return true;
            }
            wk->chain = -1;
        }
        int next = -1;
        int item = ledge__bvh_next(&wk->chains);
        if (item >= 0) {
            next = cs->tree_slot[item];
        } else {
            while (wk->kinematic < cs->kinematic && next < 0) {
                int s = cs->kinematic_slots[wk->kinematic++];
                if (ledge__aabb_meet(ledge__chain_box(&cs->c[s]), wk->box)) next = s;
            }
            if (next < 0) return false;
        }
        const ledge__chain *c = &cs->c[next];
        ledge_aabb local = {v2_sub(wk->box.lower, c->position), v2_sub(wk->box.upper, c->position)};
        wk->chain = next;
        ledge__bvh_begin(&wk->segments, &c->tree, local);
    }
}

bool ledge__chains_near(const ledge__chains *cs, ledge_aabb box) {
    ledge__chain_walk wk;
    int chain, segment;
    ledge__chain_walk_begin(&wk, cs, box);
    return ledge__chain_walk_next(&wk, &chain, &segment);
}

int ledge__chain_count_near(const ledge__chain *c, ledge_aabb box) {
    ledge_aabb local = {v2_sub(box.lower, c->position), v2_sub(box.upper, c->position)};
    ledge__bvh_iter it;
    ledge__bvh_begin(&it, &c->tree, local);
    int n = 0;
    while (ledge__bvh_next(&it) >= 0) ++n;
    return n;
}
