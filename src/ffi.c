// Entry points for foreign-function interfaces (ffi.h): the by-pointer
// forms of hot calls, and the queries without callbacks.
#include "body.h"
#include "core.h"
#include "query_index.h"
#include "slots.h"

#include "ledge/ffi.h"

#include <math.h>
#include <string.h>

static bool present(const char *fn, const char *arg, const void *p) {
    if (p != NULL) return true;
    LEDGE_ERROR("%s: %s is NULL", fn, arg);
    return false;
}

bool ledge_body_set_position_ref(ledge_world *world, const ledge_body_id *id,
                                 const vec2s *position) {
    const char *fn = "ledge_body_set_position_ref";
    if (!present(fn, "id", id) || !present(fn, "position", position)) return false;
    return ledge_body_set_position(world, *id, *position);
}

bool ledge_body_position_ref(const ledge_world *world, const ledge_body_id *id, vec2s *out) {
    const char *fn = "ledge_body_position_ref";
    if (!present(fn, "out", out)) return false;
    memset(out, 0, sizeof *out);
    if (!present(fn, "id", id) || !ledge_body_is_valid(world, *id)) {
        if (id) ledge_body_position(world, *id); // logs why the id is refused
        return false;
    }
    *out = ledge_body_position(world, *id);
    return true;
}

bool ledge_body_move_ref(ledge_world *world, const ledge_body_id *id, const vec2s *displacement,
                         const ledge_move_def *def, ledge_move_result *out) {
    const char *fn = "ledge_body_move_ref";
    if (!present(fn, "id", id) || !present(fn, "displacement", displacement)) {
        if (out) memset(out, 0, sizeof *out);
        return false;
    }
    return ledge_body_move(world, *id, *displacement, def, out);
}

// Collects ids for the *_ids queries.
typedef struct id_sink {
    ledge_body_id *out;
    int capacity;
    int count;
} id_sink;

static bool sink_id(ledge_body_id id, void *context) {
    id_sink *s = context;
    if (s->count < s->capacity) s->out[s->count] = id;
    s->count++;
    return true;
}

static bool check_out(const char *fn, const ledge_body_id *out, int capacity) {
    if (capacity >= 0 && (out != NULL || capacity == 0)) return true;
    LEDGE_ERROR("%s: capacity is %d with out %s (must be >= 0, out non-NULL when > 0)", fn,
                capacity, out ? "set" : "NULL");
    return false;
}

int ledge_world_query_aabb_ids(ledge_world *world, const ledge_aabb *aabb,
                               const ledge_query_filter *filter, ledge_body_id *out, int capacity) {
    const char *fn = "ledge_world_query_aabb_ids";
    if (!present(fn, "aabb", aabb) || !check_out(fn, out, capacity)) return -1;
    id_sink s = {out, capacity, 0};
    return ledge_world_query_aabb(world, *aabb, filter, sink_id, &s) < 0 ? -1 : s.count;
}

int ledge_world_query_point_ids(ledge_world *world, const vec2s *point,
                                const ledge_query_filter *filter, ledge_body_id *out,
                                int capacity) {
    const char *fn = "ledge_world_query_point_ids";
    if (!present(fn, "point", point) || !check_out(fn, out, capacity)) return -1;
    id_sink s = {out, capacity, 0};
    return ledge_world_query_point(world, *point, filter, sink_id, &s) < 0 ? -1 : s.count;
}

// Collects (chain, segment) pairs for the chain *_ids queries.
typedef struct chain_sink {
    ledge_chain_id *chains;
    int *segments;
    int capacity;
    int count;
} chain_sink;

static bool sink_chain(ledge_chain_id id, int segment, void *context) {
    chain_sink *s = context;
    if (s->count < s->capacity) {
        s->chains[s->count] = id;
        if (s->segments) s->segments[s->count] = segment;
    }
    s->count++;
    return true;
}

static bool check_chain_out(const char *fn, const ledge_chain_id *chains, int capacity) {
    if (capacity >= 0 && (chains != NULL || capacity == 0)) return true;
    LEDGE_ERROR("%s: capacity is %d with chains %s (must be >= 0, chains non-NULL when > 0)", fn,
                capacity, chains ? "set" : "NULL");
    return false;
}

int ledge_world_query_chains_aabb_ids(ledge_world *world, const ledge_aabb *aabb,
                                      const ledge_query_filter *filter, ledge_chain_id *chains,
                                      int *segments, int capacity) {
    const char *fn = "ledge_world_query_chains_aabb_ids";
    if (!present(fn, "aabb", aabb) || !check_chain_out(fn, chains, capacity)) return -1;
    if (capacity > 0 && segments == NULL) {
        LEDGE_ERROR("%s: segments is NULL (capacity %d)", fn, capacity);
        return -1;
    }
    chain_sink s = {chains, segments, capacity, 0};
    return ledge_world_query_chains_aabb(world, *aabb, filter, sink_chain, &s) < 0 ? -1 : s.count;
}

int ledge_world_query_chains_point_ids(ledge_world *world, const vec2s *point,
                                       const ledge_query_filter *filter, ledge_chain_id *chains,
                                       int capacity) {
    const char *fn = "ledge_world_query_chains_point_ids";
    if (!present(fn, "point", point) || !check_chain_out(fn, chains, capacity)) return -1;
    chain_sink s = {chains, NULL, capacity, 0};
    return ledge_world_query_chains_point(world, *point, filter, sink_chain, &s) < 0 ? -1 : s.count;
}

// --- ledge_bump_move: bump.lua's check with the default slide, in C --------
// The same arithmetic as src/bindings/lua/bump.lua (rect.detectCollision):
// the Minkowski difference of the two rectangles and a Liang-Barsky clip
// of the move against it, in doubles.

#define BUMP_DELTA 1e-10 // bump's tolerance for touching versus overlapping

// One slab of the clip: the inside is p * t <= q. Narrows [*t1, *t2] and
// records the entry side's normal; false when the range becomes empty.
static bool bump_slab(double p, double q, double sx, double sy, double *t1, double *t2, double *nx,
                      double *ny) {
    if (p == 0) return q > 0;
    double r = q / p;
    if (p < 0) {
        if (r > *t2) return false;
        if (r > *t1) *t1 = r, *nx = sx, *ny = sy;
    } else {
        if (r < *t1) return false;
        if (r < *t2) *t2 = r;
    }
    return true;
}

// The segment (0, 0) + t (dx, dy) clipped against d within [*t1, *t2].
static bool bump_clip(ledge_bump_rect d, double dx, double dy, double *t1, double *t2, double *nx,
                      double *ny) {
    *nx = *ny = 0;
    return bump_slab(-dx, -d.x, -1, 0, t1, t2, nx, ny) &&
           bump_slab(dx, d.x + d.w, 1, 0, t1, t2, nx, ny) &&
           bump_slab(-dy, -d.y, 0, -1, t1, t2, nx, ny) &&
           bump_slab(dy, d.y + d.h, 0, 1, t1, t2, nx, ny);
}

static double bump_sign(double v) {
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

static double bump_nearest(double x, double a, double b) {
    return fabs(a - x) < fabs(b - x) ? a : b;
}

// Item rectangle a moving to (gx, gy) against b: bump's detectCollision.
static bool bump_detect(ledge_bump_rect a, ledge_bump_rect b, double gx, double gy,
                        ledge_bump_col *c) {
    double dx = gx - a.x, dy = gy - a.y;
    ledge_bump_rect d = {b.x - a.x - a.w, b.y - a.y - a.h, a.w + b.w, a.h + b.h};
    double t1, t2;
    c->overlaps =
        -d.x > BUMP_DELTA && -d.y > BUMP_DELTA && d.x + d.w > BUMP_DELTA && d.y + d.h > BUMP_DELTA;
    if (c->overlaps) {
        double px = bump_nearest(0, d.x, d.x + d.w), py = bump_nearest(0, d.y, d.y + d.h);
        c->ti = -fmin(a.w, fabs(px)) * fmin(a.h, fabs(py)); // deeper first
        if (dx == 0 && dy == 0) { // out along the shorter axis of the nearest corner
            if (fabs(px) < fabs(py))
                py = 0;
            else
                px = 0;
            c->normal_x = bump_sign(px), c->normal_y = bump_sign(py);
            c->touch_x = a.x + px, c->touch_y = a.y + py;
        } else { // back along the move until out
            t1 = -INFINITY, t2 = 1;
            if (!bump_clip(d, dx, dy, &t1, &t2, &c->normal_x, &c->normal_y)) return false;
            c->touch_x = a.x + dx * t1, c->touch_y = a.y + dy * t1;
        }
    } else {
        t1 = -INFINITY, t2 = INFINITY;
        if (!bump_clip(d, dx, dy, &t1, &t2, &c->normal_x, &c->normal_y)) return false;
        // A hit enters within the move and is not a graze along a side.
        if (!(t1 < 1 && fabs(t1 - t2) >= BUMP_DELTA &&
              (0 < t1 + BUMP_DELTA || (t1 == 0 && t2 > 0))))
            return false;
        c->ti = t1;
        c->touch_x = a.x + dx * t1, c->touch_y = a.y + dy * t1;
    }
    c->move_x = dx, c->move_y = dy;
    c->item_rect = a;
    return true;
}

// Squared distance between the centres: bump's tie-break of equal ti.
static double bump_sq_dist(ledge_bump_rect a, ledge_bump_rect b) {
    double dx = a.x - b.x + (a.w - b.w) / 2, dy = a.y - b.y + (a.h - b.h) / 2;
    return dx * dx + dy * dy;
}

enum { BUMP_CANDIDATES = 32 }; // candidates kept for the move's later projections

// One projection: the nearest collision of `item` moving from r to the
// goal, skipping itself and the collisions found so far (bump's visited
// filter). Only the first of bump's sorted list is ever used by a slide.
typedef struct bump_projection {
    const ledge_bump_rect *rects;
    int rect_count;
    uint32_t self;
    const ledge_bump_col *found; // the visited items
    int found_count;
    ledge_bump_rect r;
    double gx, gy;
    bool any, bad_slot;
    double best_dist;
    ledge_bump_col best;
    // The slots the move's first query found, and its box: a slide's next
    // projection lies within that box (unless an overlap pushed the item
    // back), so it is answered from these instead of the index.
    ledge_aabb cand_box;
    int cand[BUMP_CANDIDATES];
    int cand_count; // -1: none kept (no query yet, or more than BUMP_CANDIDATES)
    bool keep;      // this query fills cand
} bump_projection;

// Whether c (at squared distance dist, body index1) comes before the best
// so far in bump's order: ti, then distance, then (full ties) the lowest
// index1, which bump's sort by the query's order of ids picks.
static bool bump_before(const bump_projection *p, const ledge_bump_col *c, double dist,
                        uint32_t index1) {
    if (!p->any || c->ti < p->best.ti) return true;
    if (c->ti != p->best.ti) return false;
    return dist < p->best_dist || (dist == p->best_dist && index1 < p->best.other);
}

static bool bump_visit(const ledge_world *world, int slot, void *context) {
    bump_projection *p = context;
    if (p->keep) {
        if (p->cand_count < BUMP_CANDIDATES)
            p->cand[p->cand_count++] = slot;
        else
            p->keep = false, p->cand_count = -1;
    }
    uint32_t index1 = (uint32_t)world->handle[slot] + 1u; // as ledge__body_id
    if (index1 == p->self) return true;
    if (index1 >= (uint32_t)p->rect_count) {
        p->bad_slot = true;
        return false;
    }
    for (int v = 0; v < p->found_count; ++v)
        if (p->found[v].other == index1) return true;
    ledge_bump_col c;
    ledge_bump_rect o = p->rects[index1];
    if (!bump_detect(p->r, o, p->gx, p->gy, &c)) return true;
    double dist = bump_sq_dist(p->r, o);
    if (bump_before(p, &c, dist, index1)) {
        c.other = index1;
        p->best = c, p->best_dist = dist, p->any = true;
    }
    return true;
}

static bool box_within(ledge_aabb inner, ledge_aabb outer) {
    return inner.lower.x >= outer.lower.x && inner.lower.y >= outer.lower.y &&
           inner.upper.x <= outer.upper.x && inner.upper.y <= outer.upper.y;
}

static double bump_min(double a, double b) {
    return a < b ? a : b; // finite values: no fmin call
}

static double bump_max(double a, double b) {
    return a > b ? a : b;
}

static int bump_project(ledge_world *world, bump_projection *p) {
    ledge_bump_rect r = p->r;
    double x0 = bump_min(r.x, p->gx), y0 = bump_min(r.y, p->gy);
    double x1 = bump_max(r.x, p->gx) + r.w, y1 = bump_max(r.y, p->gy) + r.h;
    // ledge's index holds floats: grown so that rounding never loses one.
    double pad = 1e-3 + 1e-6 * bump_max(bump_max(fabs(x0), fabs(y0)), bump_max(fabs(x1), fabs(y1)));
    ledge_aabb box = {{{(float)(x0 - pad), (float)(y0 - pad)}},
                      {{(float)(x1 + pad), (float)(y1 + pad)}}};
    p->any = false;
    if (p->cand_count >= 0 && box_within(box, p->cand_box)) {
        p->keep = false;
        ledge__query_aabb_among(world, box, p->cand, p->cand_count, bump_visit, p);
    } else {
        p->keep = true, p->cand_count = 0, p->cand_box = box;
        // Unordered: bump_before orders the candidates as the sorted query would.
        if (ledge__query_aabb_unordered(world, box, "ledge_bump_move", bump_visit, p) < 0)
            return -1;
        if (!p->keep) p->cand_count = -1;
    }
    if (p->bad_slot) {
        LEDGE_ERROR("ledge_bump_move: a body's slot is >= rect_count %d", p->rect_count);
        return -1;
    }
    return p->any ? 1 : 0;
}

// The item's body slot once every argument is checked, or -1 (logged).
// The placement at the end reuses the slot: the id is checked once.
static int bump_args_ok(ledge_world *world, const ledge_bump_rect *rects, int rect_count,
                        const ledge_body_id *item, double gx, double gy, const ledge_bump_col *cols,
                        int capacity, const double *ax, const double *ay) {
    const char *fn = "ledge_bump_move";
    if (!present(fn, "rects", rects) || !present(fn, "item", item) ||
        !present(fn, "actual_x", ax) || !present(fn, "actual_y", ay))
        return -1;
    if (capacity < 0 || (cols == NULL && capacity > 0)) {
        LEDGE_ERROR("%s: capacity is %d with cols %s (must be >= 0, cols non-NULL when > 0)", fn,
                    capacity, cols ? "set" : "NULL");
        return -1;
    }
    if (!isfinite(gx) || !isfinite(gy)) {
        LEDGE_ERROR("%s: goal (%g, %g) is not finite", fn, gx, gy);
        return -1;
    }
    int slot = world != NULL ? ledge__slot_of(world, *item) : -1;
    if (slot < 0 || !world->alive[slot] || world->generation[slot] != item->generation) {
        ledge_body_position(world, *item); // logs why the id is refused
        return -1;
    }
    if (item->index1 >= (uint32_t)(rect_count > 0 ? rect_count : 0)) {
        LEDGE_ERROR("%s: item slot %u is >= rect_count %d", fn, (unsigned)item->index1, rect_count);
        return -1;
    }
    if (world->stepping) {
        LEDGE_ERROR("%s: the world is stepping", fn);
        return -1;
    }
    return slot;
}

int ledge_bump_move(ledge_world *world, ledge_bump_rect *rects, int rect_count,
                    const ledge_body_id *item, double goal_x, double goal_y, bool update,
                    ledge_bump_col *cols, int capacity, double *actual_x, double *actual_y) {
    int slot = bump_args_ok(world, rects, rect_count, item, goal_x, goal_y, cols, capacity,
                            actual_x, actual_y);
    if (slot < 0) return -1;
    // Field by field, not an initializer: that zeroed all 330 bytes (the
    // kept candidates, the best col) on every move, 66 instructions of it.
    bump_projection p;
    p.rects = rects, p.rect_count = rect_count, p.self = item->index1;
    p.found = cols, p.found_count = 0;
    p.r = rects[item->index1], p.gx = goal_x, p.gy = goal_y;
    p.any = p.bad_slot = p.keep = false;
    p.best_dist = 0, p.cand_count = -1;
    int len = 0, got;
    while ((got = bump_project(world, &p)) > 0) {
        if (len == capacity) return capacity + 1;
        ledge_bump_col c = p.best;
        if (c.move_x != 0 || c.move_y != 0) { // slide: keep the goal along the side hit
            if (c.normal_x != 0)
                p.gx = c.touch_x;
            else
                p.gy = c.touch_y;
        }
        c.slide_x = p.gx, c.slide_y = p.gy;
        cols[len++] = c;
        p.found_count = len;
        p.r.x = c.touch_x, p.r.y = c.touch_y;
    }
    if (got < 0) return -1;
    *actual_x = p.gx, *actual_y = p.gy;
    if (update) {
        // The body first: a refused update (logged) leaves the rectangle
        // where it was too, so the two never disagree.
        ledge_bump_rect *r = &rects[item->index1];
        vec2s centre = {{(float)(p.gx + r->w / 2), (float)(p.gy + r->h / 2)}};
        if (!ledge__body_place(world, slot, centre, "ledge_bump_move")) return -1;
        r->x = p.gx, r->y = p.gy;
    }
    return len;
}
