// Debug draw (draw.h): the tiles in a region from the library's own tile
// outlines, the bodies coloured by type, the chains, the joints, and the
// last step's contacts, through the game's callbacks. Reads the world,
// never changes it.
#include "chain_store.h"
#include "contacts.h"
#include "check.h"
#include "joints.h"
#include "world_state.h"

#include "ledge/draw.h"
#include "tilemap.h"
#include "tilemap_material.h"

#include <string.h>

ledge_debug_draw ledge_default_debug_draw(void) {
    ledge_debug_draw d;
    memset(&d, 0, sizeof d);
    d.normal_length = 0.5f;
    d.draw_tiles = true;
    d.draw_bodies = true;
    d.draw_contacts = true;
    d.draw_normals = true;
    d.draw_chains = true;
    d.draw_joints = true;
    d.draw_materials = true;
    return d;
}

// Enough for the longest outline (6 points) with its arc flattened.
enum { MAX_DRAW_POINTS = 6 + LEDGE_DRAW_ARC_SEGMENTS };

// The outline with its arc edge (if any) replaced by segments: the arc
// runs from points[e] to points[e + 1] around arc_center, the short way
// (a quarter circle).
static int flatten(const ledge_tile_outline *ol, vec2s *out) {
    int n = 0;
    for (int i = 0; i < ol->count; ++i) {
        out[n++] = ol->points[i];
        if (i != ol->arc_edge) continue;
        vec2s c = ol->arc_center, p0 = ol->points[i], p1 = ol->points[(i + 1) % ol->count];
        double a0 = atan2((double)(p0.y - c.y), (double)(p0.x - c.x));
        double a1 = atan2((double)(p1.y - c.y), (double)(p1.x - c.x));
        double da = a1 - a0;
        if (da > LEDGE_PI) da -= 2.0 * LEDGE_PI;
        if (da < -LEDGE_PI) da += 2.0 * LEDGE_PI;
        for (int k = 1; k < LEDGE_DRAW_ARC_SEGMENTS; ++k) {
            double a = a0 + da * k / LEDGE_DRAW_ARC_SEGMENTS;
            out[n++] =
                v2(c.x + ol->arc_radius * (float)cos(a), c.y + ol->arc_radius * (float)sin(a));
        }
    }
    return n;
}

// An arrow of length `len` centred on p along unit direction t.
static void draw_arrow(const ledge_debug_draw *d, vec2s p, vec2s t, float len) {
    vec2s half = v2_scale(t, 0.5f * len), tip = v2_add(p, half);
    vec2s back = v2_scale(t, -0.25f * len), side = v2_scale(v2(-t.y, t.x), 0.18f * len);
    d->draw_segment(v2_sub(p, half), tip, LEDGE_COLOR_BELT, d->context);
    d->draw_segment(tip, v2_add(tip, v2_add(back, side)), LEDGE_COLOR_BELT, d->context);
    d->draw_segment(tip, v2_add(tip, v2_sub(back, side)), LEDGE_COLOR_BELT, d->context);
}

// The arrow of the edge p0 -> p1 of a counter-clockwise outline whose
// surface moves at `speed`: its outward normal n = (dy, -dx) / |d| gives
// the tangent (ny, -nx) the surface moves along (material.h).
static void draw_edge_arrow(const ledge_debug_draw *d, vec2s p0, vec2s p1, float speed, float len) {
    vec2s e = v2_sub(p1, p0);
    float l = v2_len(e);
    if (!(l > 0.0f)) return;
    vec2s n = v2_scale(v2(e.y, -e.x), 1.0f / l);
    vec2s t = v2_scale(v2(n.y, -n.x), speed > 0.0f ? 1.0f : -1.0f);
    draw_arrow(d, v2_scale(v2_add(p0, p1), 0.5f), t, len);
}

// The side of cell (x, y) of corner cmin and side `size` an outline edge
// lies on (both ends on it), or -1.
static int edge_side(vec2s p0, vec2s p1, vec2s cmin, float size) {
    vec2s cmax = v2_add(cmin, v2(size, size));
    if (p0.x == cmin.x && p1.x == cmin.x) return LEDGE_SIDE_XNEG;
    if (p0.x == cmax.x && p1.x == cmax.x) return LEDGE_SIDE_XPOS;
    if (p0.y == cmin.y && p1.y == cmin.y) return LEDGE_SIDE_YNEG;
    if (p0.y == cmax.y && p1.y == cmax.y) return LEDGE_SIDE_YPOS;
    return -1;
}

// A belt's arrows: one on each edge of the tile's outline that is a
// surface (an edge on a cell side whose state is OFF is an internal seam;
// an arc is drawn on its chord).
static void draw_belt(const ledge_tilemap *m, const ledge_debug_draw *d, int x, int y,
                      const ledge_tile_outline *ol, vec2s cmin, float speed) {
    for (int i = 0; i < ol->count; ++i) {
        vec2s p0 = ol->points[i], p1 = ol->points[(i + 1) % ol->count];
        int side = edge_side(p0, p1, cmin, m->tile_size);
        if (side >= 0 && ledge_tilemap_edge(m, x, y, (ledge_side)side) == LEDGE_EDGE_OFF) continue;
        draw_edge_arrow(d, p0, p1, speed, 0.5f * m->tile_size);
    }
}

// The non-empty map cells overlapping the region, as
// ledge_tilemap_query_region lists them.
static void draw_tiles(const ledge_world *w, const ledge_debug_draw *d, ledge_aabb r) {
    if (d->draw_polygon == NULL) return;
    const ledge_tilemap *m = w->map;
    int x0 = ledge__tilemap_cell(r.lower.x, m->origin.x, m->inv_tile_size);
    int y0 = ledge__tilemap_cell(r.lower.y, m->origin.y, m->inv_tile_size);
    int x1 = ledge__tilemap_cell(r.upper.x, m->origin.x, m->inv_tile_size);
    int y1 = ledge__tilemap_cell(r.upper.y, m->origin.y, m->inv_tile_size);
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > m->width - 1 ? m->width - 1 : x1;
    y1 = y1 > m->height - 1 ? m->height - 1 : y1;
    vec2s pts[MAX_DRAW_POINTS];
    ledge_material def = ledge_default_material();
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            ledge_tile t = m->tiles[(size_t)y * (size_t)m->width + (size_t)x];
            if (t == LEDGE_TILE_EMPTY) continue;
            vec2s cmin = v2_add(m->origin, v2((float)x * m->tile_size, (float)y * m->tile_size));
            ledge_tile_outline ol;
            if (!ledge_tile_outline_get(t, cmin, m->tile_size, &ol)) continue;
            const ledge_material *mat = ledge__tilemap_material(m, x, y, t);
            bool own = d->draw_materials && !ledge__same_material(mat, &def);
            d->draw_polygon(pts, flatten(&ol, pts), own ? LEDGE_COLOR_MATERIAL : LEDGE_COLOR_TILE,
                            d->context);
            if (own && mat->surface_speed != 0.0f && d->draw_segment)
                draw_belt(m, d, x, y, &ol, cmin, mat->surface_speed);
        }
    }
}

// A chain's colour: by type, or the materials' when it has its own.
static ledge_color chain_color(const ledge_debug_draw *d, const ledge__chain *c) {
    ledge_material def = ledge_default_material();
    if (d->draw_materials && !ledge__same_material(&c->material, &def)) return LEDGE_COLOR_MATERIAL;
    return c->type == LEDGE_BODY_KINEMATIC ? LEDGE_COLOR_KINEMATIC : LEDGE_COLOR_CHAIN;
}

// The chain segments overlapping the region, by chain slot and in order.
static void draw_chains(const ledge_world *w, const ledge_debug_draw *d, ledge_aabb r) {
    const ledge__chains *cs = w->chains;
    if (d->draw_segment == NULL || cs == NULL) return;
    for (int s = 0; s < cs->count; ++s) {
        const ledge__chain *c = &cs->c[s];
        if (!c->alive) continue;
        ledge_color color = chain_color(d, c);
        float speed = d->draw_materials ? c->material.surface_speed : 0.0f;
        ledge_aabb local = {v2_sub(r.lower, c->position), v2_sub(r.upper, c->position)};
        ledge__bvh_iter it;
        ledge__bvh_begin(&it, &c->tree, local);
        for (int k; (k = ledge__bvh_next(&it)) >= 0;) {
            const ledge__segment *g = &c->segments[k];
            vec2s a = v2_add(g->p, c->position), b = v2_add(g->q, c->position);
            d->draw_segment(a, b, color, d->context);
            vec2s mid = v2_scale(v2_add(a, b), 0.5f);
            if (speed != 0.0f) {
                float len = minf(v2_len(v2_sub(b, a)) / 3.0f, d->normal_length);
                vec2s t = v2_scale(v2(g->n.y, -g->n.x), speed > 0.0f ? 1.0f : -1.0f);
                draw_arrow(d, mid, t, len);
            }
            if (!d->draw_normals) continue;
            d->draw_segment(mid, v2_add(mid, v2_scale(g->n, 0.5f * d->normal_length)), color,
                            d->context);
        }
    }
}

static ledge_aabb body_box(const ledge_world *w, int i) {
    return ledge_shape_aabb(ledge__shape_of(w, i), w->position[i]);
}

static bool overlaps(ledge_aabb a, ledge_aabb b) {
    return a.lower.x <= b.upper.x && a.upper.x >= b.lower.x && a.lower.y <= b.upper.y &&
           a.upper.y >= b.lower.y;
}

static ledge_color body_color(const ledge_world *w, int i) {
    if (w->type[i] == LEDGE_BODY_STATIC) return LEDGE_COLOR_STATIC;
    if (w->type[i] == LEDGE_BODY_KINEMATIC) return LEDGE_COLOR_KINEMATIC;
    return w->bullet[i] ? LEDGE_COLOR_BULLET : LEDGE_COLOR_DYNAMIC;
}

static void draw_box(const ledge_debug_draw *d, ledge_aabb b, ledge_color color) {
    if (d->draw_polygon == NULL) return;
    vec2s p[4] = {b.lower, v2(b.upper.x, b.lower.y), b.upper, v2(b.lower.x, b.upper.y)};
    d->draw_polygon(p, 4, color, d->context);
}

static void draw_body(const ledge_world *w, const ledge_debug_draw *d, int i) {
    const ledge_shape *s = ledge__shape_of(w, i);
    vec2s pos = w->position[i];
    ledge_color color = body_color(w, i);
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        if (d->draw_solid_circle) {
            d->draw_solid_circle(v2_add(pos, s->center), s->radius, color, d->context);
        }
        return;
    }
    if (d->draw_solid_polygon == NULL) return;
    vec2s p[LEDGE_MAX_POLYGON_VERTICES];
    for (int k = 0; k < s->count; ++k) p[k] = v2_add(pos, s->vertices[k]);
    d->draw_solid_polygon(p, s->count, color, d->context);
}

// A moving body surface's arrows: at the middle of each edge of a box or
// polygon (counter-clockwise), at four points around a circle.
static void draw_body_belt(const ledge_world *w, const ledge_debug_draw *d, int i) {
    const ledge_shape *s = ledge__shape_of(w, i);
    vec2s pos = w->position[i];
    float speed = w->surface_speed[i];
    if (s->type == LEDGE_SHAPE_CIRCLE) {
        static const float dirs[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
        vec2s c = v2_add(pos, s->center);
        for (int k = 0; k < 4; ++k) {
            vec2s n = v2(dirs[k][0], dirs[k][1]);
            vec2s t = v2_scale(v2(n.y, -n.x), speed > 0.0f ? 1.0f : -1.0f);
            draw_arrow(d, v2_add(c, v2_scale(n, s->radius)), t, s->radius);
        }
        return;
    }
    ledge_aabb b = s->bounds;
    float len = 0.5f * minf(b.upper.x - b.lower.x, b.upper.y - b.lower.y);
    for (int k = 0; k < s->count; ++k) {
        vec2s p0 = v2_add(pos, s->vertices[k]), p1 = v2_add(pos, s->vertices[(k + 1) % s->count]);
        draw_edge_arrow(d, p0, p1, speed, len);
    }
}

static void draw_bodies(const ledge_world *w, const ledge_debug_draw *d, ledge_aabb r) {
    for (int i = 0; i < w->slot_count; ++i) {
        if (!w->alive[i]) continue;
        ledge_aabb b = body_box(w, i);
        if (!overlaps(b, r)) continue;
        if (d->draw_bodies) draw_body(w, d, i);
        if (d->draw_bodies && d->draw_materials && d->draw_segment && w->surface_speed[i] != 0.0f)
            draw_body_belt(w, d, i);
        if (d->draw_bounds) draw_box(d, b, LEDGE_COLOR_BOUNDS);
    }
}

static bool inside(ledge_aabb r, vec2s p) {
    return p.x >= r.lower.x && p.x <= r.upper.x && p.y >= r.lower.y && p.y <= r.upper.y;
}

static void draw_contacts(const ledge_world *w, const ledge_debug_draw *d, ledge_aabb r) {
    for (int k = 0; k < ledge__view_count(w); ++k) {
        const ledge__contact *c = ledge__view_contact(w, k);
        if (c->a < 0 || c->a >= w->slot_count || !w->alive[c->a]) continue;
        vec2s p = c->point;
        if (!inside(r, p)) continue;
        if (d->draw_point) d->draw_point(p, 5.0f, LEDGE_COLOR_CONTACT, d->context);
        if (d->draw_normals && d->draw_segment) {
            vec2s q = v2_add(p, v2_scale(c->normal, d->normal_length));
            d->draw_segment(p, q, LEDGE_COLOR_NORMAL, d->context);
        }
    }
}

// A joint's line: anchor a to anchor b, through a pulley's ground points;
// a slider's axis through anchor a first.
static void draw_joint(const ledge_world *w, const ledge_debug_draw *d, const ledge__joint *j) {
    vec2s a = ledge__joint_anchor(w, j, 0), b = ledge__joint_anchor(w, j, 1);
    ledge_color c = j->type == LEDGE_JOINT_SPRING ? LEDGE_COLOR_SPRING : LEDGE_COLOR_JOINT;
    if (j->type == LEDGE_JOINT_ROPE &&
        v2_len(v2_sub(b, a)) < j->length - 1e-3f * (1.0f + j->length))
        c = LEDGE_COLOR_SLACK;
    if (d->draw_segment) {
        if (j->type == LEDGE_JOINT_PULLEY) {
            d->draw_segment(a, j->ground[0], c, d->context);
            d->draw_segment(j->ground[0], j->ground[1], c, d->context);
            d->draw_segment(j->ground[1], b, c, d->context);
        } else {
            if (j->type == LEDGE_JOINT_SLIDER) {
                bool limited = (j->flags & LEDGE__JOINT_LIMIT) != 0;
                vec2s lo = v2_add(a, v2_scale(j->axis, limited ? j->lower : -1.0f));
                vec2s hi = v2_add(a, v2_scale(j->axis, limited ? j->upper : 1.0f));
                d->draw_segment(lo, hi, LEDGE_COLOR_SLACK, d->context);
            }
            d->draw_segment(a, b, c, d->context);
        }
    }
    if (d->draw_point) {
        d->draw_point(a, 4.0f, LEDGE_COLOR_ANCHOR, d->context);
        d->draw_point(b, 4.0f, LEDGE_COLOR_ANCHOR, d->context);
    }
}

static void draw_joints(const ledge_world *w, const ledge_debug_draw *d, ledge_aabb r) {
    const ledge__joints *t = w->joints;
    for (int k = 0; t != NULL && k < t->used; ++k) {
        const ledge__joint *j = &t->j[k];
        if (!j->alive) continue;
        if (!inside(r, ledge__joint_anchor(w, j, 0)) && !inside(r, ledge__joint_anchor(w, j, 1)))
            continue;
        draw_joint(w, d, j);
    }
}

static bool draw_ok(const ledge_world *w, const ledge_debug_draw *d, ledge_aabb r) {
    const char *fn = "ledge_world_draw";
    if (w == NULL || d == NULL) {
        LEDGE_ERROR("%s: %s is NULL", fn, w == NULL ? "world" : "draw");
        return false;
    }
    if (w->stepping) {
        LEDGE_ERROR("%s: the world is stepping (draw between steps)", fn);
        return false;
    }
    if (!ledge__vec_within(r.lower, LEDGE_MAX_COORDINATE) ||
        !ledge__vec_within(r.upper, LEDGE_MAX_COORDINATE) || r.lower.x > r.upper.x ||
        r.lower.y > r.upper.y) {
        LEDGE_ERROR("%s: region is (%g, %g)..(%g, %g) (must be finite, |x| <= %g, lower <= upper)",
                    fn, (double)r.lower.x, (double)r.lower.y, (double)r.upper.x, (double)r.upper.y,
                    (double)LEDGE_MAX_COORDINATE);
        return false;
    }
    if (!(d->normal_length >= 0.0f && d->normal_length <= LEDGE_MAX_COORDINATE)) {
        LEDGE_ERROR("%s: draw->normal_length is %g (must be 0..%g)", fn, (double)d->normal_length,
                    (double)LEDGE_MAX_COORDINATE);
        return false;
    }
    return true;
}

void ledge_world_draw(ledge_world *world, const ledge_debug_draw *draw, ledge_aabb region) {
    if (!draw_ok(world, draw, region)) return;
    if (draw->draw_tiles) draw_tiles(world, draw, region);
    if (draw->draw_chains) draw_chains(world, draw, region);
    if (draw->draw_bodies || draw->draw_bounds) draw_bodies(world, draw, region);
    if (draw->draw_bounds) {
        const ledge_tilemap *m = world->map;
        ledge_aabb b = {m->origin, v2_add(m->origin, v2((float)m->width * m->tile_size,
                                                        (float)m->height * m->tile_size))};
        draw_box(draw, b, LEDGE_COLOR_BOUNDS);
    }
    if (draw->draw_joints) draw_joints(world, draw, region);
    if (draw->draw_contacts) draw_contacts(world, draw, region);
}
