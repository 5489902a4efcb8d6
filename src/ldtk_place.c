// From LDtk's pixels to the world: a map pixel (x, y) (y down, from the
// map's top-left corner) is at x' = origin.x + x * scale and y' = origin.y
// + (map height in pixels - y) * scale (y up) or origin.y + y * scale
// (y_down), scale = tile_size / grid. Every body of an entity sits at the
// centre of its rectangle; a path's points are the body's centre at each
// stop: its own, then each Point of `path` moved by whole cells (the
// entity's cell, `__grid`, goes to the point's cell), so that the
// platform stops where the designer put the points.
#include "ldtk_place.h"
#include "ldtk_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/// Pixel (px, py) of level k in the world.
static vec2s to_world(const ledge__ldtk_ctx *c, int k, double px, double py) {
    px += (double)(c->levels[k].x - c->min_x);
    py += (double)(c->levels[k].y - c->min_y);
    double y = c->def->y_down ? py : (double)c->height * c->grid - py;
    return (vec2s){{(float)(c->origin.x + px * c->scale), (float)(c->origin.y + y * c->scale)}};
}

static bool in_range(vec2s p) {
    return isfinite(p.x) && isfinite(p.y) && fabsf(p.x) <= LEDGE_MAX_COORDINATE &&
           fabsf(p.y) <= LEDGE_MAX_COORDINATE;
}

/// World bounds of a pixel rectangle of level k; false when it lies out of
/// range.
static bool rect(const ledge__ldtk_ctx *c, int k, double left, double top, double w, double h,
                 ledge_aabb *out) {
    vec2s a = to_world(c, k, left, top), b = to_world(c, k, left + w, top + h);
    out->lower = (vec2s){{fminf(a.x, b.x), fminf(a.y, b.y)}};
    out->upper = (vec2s){{fmaxf(a.x, b.x), fmaxf(a.y, b.y)}};
    return in_range(a) && in_range(b);
}

static bool place_levels(ledge__ldtk_ctx *c) {
    ledge_ldtk_result *r = c->result;
    for (int i = 0; i < r->level_count; ++i) {
        const ledge__ldtk_level *lv = &c->levels[i];
        ledge_ldtk_level *l = &r->levels[i];
        long long lx = (lv->x - c->min_x) / c->grid, ly = (lv->y - c->min_y) / c->grid;
        l->cell_width = (int)((lv->w + c->grid - 1) / c->grid);
        l->cell_height = (int)((lv->h + c->grid - 1) / c->grid);
        l->cell_x = (int)lx;
        l->cell_y = (int)(c->def->y_down ? ly : c->height - ly - l->cell_height);
        if (!rect(c, i, 0, 0, (double)lv->w, (double)lv->h, &l->bounds)) {
            return ledge__ldtk_fail(c, "level '%s' lies beyond %g world units", lv->name,
                                    (double)LEDGE_MAX_COORDINATE);
        }
    }
    return true;
}

/// Appends the entity's pending body.
static bool add_body(ledge__ldtk_ctx *c, int index, const ledge_shape *shape, vec2s at) {
    const ledge_ldtk_entity *e = &c->result->entities[index];
    const ledge__ldtk_ent *x = &c->ents[index];
    if (!ledge__ldtk_reserve(c, (void **)&c->bodies, &c->body_cap, c->body_count + 1,
                             sizeof *c->bodies)) {
        return false;
    }
    ledge_body_def *d = &c->bodies[c->body_count++];
    *d = ledge_default_body_def();
    d->type = e->body_type;
    d->shape = *shape;
    d->position = at;
    d->velocity = (vec2s){{(float)x->vx, (float)x->vy}};
    d->density = e->density;
    d->friction = e->friction;
    d->bounce = e->bounce;
    d->surface_speed = e->surface_speed;
    d->friction_mix = e->friction_mix;
    d->sensor = e->sensor;
    // One-way toward the drawing's "up": +y in ledge's frame, -y when the
    // game keeps LDtk's y-down frame.
    if (e->one_way) d->one_way = c->def->y_down ? LEDGE_ONE_WAY_DOWN : LEDGE_ONE_WAY_UP;
    return true;
}

/// The path's stops: the body's centre, then one per point.
static bool add_path(ledge__ldtk_ctx *c, int index, vec2s centre) {
    ledge_ldtk_result *r = c->result;
    ledge_ldtk_entity *e = &r->entities[index];
    const ledge__ldtk_ent *x = &c->ents[index];
    e->first_path_point = r->path_point_count;
    e->path_point_count = x->path_count + 1;
    double step = (double)x->grid * c->scale, sy = c->def->y_down ? step : -step;
    r->path_points[r->path_point_count++] = centre;
    for (int k = 0; k < x->path_count; ++k) {
        const int *d = &c->path_cells[2 * (x->path_first + k)];
        vec2s p = {{(float)(centre.x + d[0] * step), (float)(centre.y + d[1] * sy)}};
        if (!in_range(p)) {
            return ledge__ldtk_fail(c, "%s: its path's point %d lies beyond %g world units",
                                    x->where, k, (double)LEDGE_MAX_COORDINATE);
        }
        r->path_points[r->path_point_count++] = p;
    }
    return true;
}

static bool place_entity(ledge__ldtk_ctx *c, int index) {
    ledge_ldtk_entity *e = &c->result->entities[index];
    const ledge__ldtk_ent *x = &c->ents[index];
    e->position = to_world(c, x->level, x->px, x->py);
    if (!in_range(e->position) || !rect(c, x->level, x->left, x->top, x->w, x->h, &e->bounds)) {
        return ledge__ldtk_fail(c, "%s lies beyond %g world units", x->where,
                                (double)LEDGE_MAX_COORDINATE);
    }
    if (e->body == LEDGE_LDTK_NO_BODY) return true;
    vec2s centre = {
        {(e->bounds.lower.x + e->bounds.upper.x) / 2, (e->bounds.lower.y + e->bounds.upper.y) / 2}};
    vec2s half = {
        {(e->bounds.upper.x - e->bounds.lower.x) / 2, (e->bounds.upper.y - e->bounds.lower.y) / 2}};
    ledge_shape s = e->shape == LEDGE_LDTK_CIRCLE ? ledge_make_circle((vec2s){{0, 0}}, half.x)
                                                  : ledge_make_box((vec2s){{0, 0}}, half);
    if (!ledge_shape_is_valid(&s)) {
        return ledge__ldtk_fail(c,
                                "%s: its shape (%g x %g world units) is refused (too small or "
                                "too large)",
                                x->where, 2.0 * half.x, 2.0 * half.y);
    }
    e->first_body = c->body_count;
    e->body_count = 1;
    return add_body(c, index, &s, centre) && (x->path_count == 0 || add_path(c, index, centre));
}

static bool place_points(ledge__ldtk_ctx *c) {
    const ledge_ldtk_result *r = c->result;
    for (int i = 0; i < r->field_count; ++i) {
        const ledge_ldtk_field *f = &r->fields[i];
        if (f->type != LEDGE_LDTK_FIELD_POINT) continue;
        for (int k = f->first_value; k < f->first_value + f->value_count; ++k) {
            ledge_ldtk_value *v = &r->values[k];
            const ledge__ldtk_point_px *p = &c->point_px[k];
            double g = p->grid ? p->grid : c->grid;
            if (v->is_null) continue;
            v->point = to_world(c, p->level, p->ox + (v->cx + 0.5) * g, p->oy + (v->cy + 0.5) * g);
            if (!in_range(v->point)) {
                return ledge__ldtk_fail(c, "field '%s': point (%d, %d) lies beyond %g world units",
                                        f->identifier, v->cx, v->cy, (double)LEDGE_MAX_COORDINATE);
            }
        }
    }
    return true;
}

typedef struct iid_index {
    const char *iid;
    int entity;
} iid_index;

static int cmp_iid(const void *a, const void *b) {
    const iid_index *x = a, *y = b;
    int d = strcmp(x->iid, y->iid);
    return d ? d : (x->entity > y->entity) - (x->entity < y->entity);
}

/// Entity references to the entities of this load (by iid).
static bool resolve_refs(ledge__ldtk_ctx *c) {
    const ledge_ldtk_result *r = c->result;
    if (r->entity_count == 0) return true;
    iid_index *index = ledge_alloc((size_t)r->entity_count * sizeof *index);
    if (index == NULL) return ledge__ldtk_fail(c, "out of memory (%d entities)", r->entity_count);
    for (int i = 0; i < r->entity_count; ++i) index[i] = (iid_index){r->entities[i].iid, i};
    qsort(index, (size_t)r->entity_count, sizeof *index, cmp_iid);
    for (int i = 0; i < r->field_count; ++i) {
        const ledge_ldtk_field *f = &r->fields[i];
        if (f->type != LEDGE_LDTK_FIELD_ENTITY_REF) continue;
        for (int k = f->first_value; k < f->first_value + f->value_count; ++k) {
            ledge_ldtk_value *v = &r->values[k];
            iid_index key = {v->string, -1};
            int lo = 0, hi = r->entity_count - 1, found = -1;
            while (lo <= hi && !v->is_null && v->string[0]) { // the first entity of that iid
                int mid = lo + (hi - lo) / 2, d = strcmp(index[mid].iid, key.iid);
                if (d == 0) found = index[mid].entity;
                if (d >= 0)
                    hi = mid - 1;
                else
                    lo = mid + 1;
            }
            v->entity = found;
        }
    }
    ledge_free(index);
    return true;
}

bool ledge__ldtk_place(ledge__ldtk_ctx *c) {
    ledge_ldtk_result *r = c->result;
    if (!place_levels(c) || !place_points(c) || !resolve_refs(c)) return false;
    int points = 0;
    for (int i = 0; i < r->entity_count; ++i) {
        if (r->entities[i].body != LEDGE_LDTK_NO_BODY && c->ents[i].path_count)
            points += c->ents[i].path_count + 1;
    }
    r->path_points = ledge_alloc((points ? (size_t)points : 1) * sizeof *r->path_points);
    if (r->path_points == NULL) return ledge__ldtk_fail(c, "out of memory (%d points)", points);
    for (int i = 0; i < r->entity_count; ++i) {
        if (!place_entity(c, i)) return false;
    }
    return true;
}
