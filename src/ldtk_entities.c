// Entity instances. Every entity goes into the result with its fields; the
// ones that ask for a body say so through their fields (any case):
//   body     String/Enum  static, kinematic, dynamic, sensor or none
//   shape    String/Enum  box or circle
//   one_way  Bool         a one-way platform (solid from above as drawn)
//   sensor   Bool         reports overlaps, never collides
//   path     Array<Point> a moving platform's points (cells), with
//   speed    Float/Int    world units per second along it, and
//   loop     Bool         back to the start after the last point (else back and forth)
//   friction, bounce, density, velocity_x, velocity_y   Float/Int
//   surface_speed Float/Int  the body's surface speed (clockwise as drawn)
//   friction_mix  String/Enum mean, min or max
//   material      String/Enum the game's name for it: handed back only
// or through the game's table of identifiers (def->entity_bodies), which the
// fields override. `one_way`, `sensor` or a path alone ask for a body too.
// The geometry stays in map pixels until the grid is known (ldtk_place.c).
#include "ldtk_entities.h"
#include "ldtk_fields.h"
#include "ldtk_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PX LEDGE_LDTK_MAX_PIXELS

/// The ledge fields of one entity (-1: not given).
typedef struct ledge_fields {
    int body, shape, one_way, sensor, loop, friction_mix;
    double speed, friction, bounce, density, vx, vy, surface_speed;
    const ledge_ldtk_field *path, *material;
} ledge_fields;

/// The field `name` of the entity being read, non-null, or NULL.
static const ledge_ldtk_field *given(const ledge__ldtk_ctx *c, const ledge_ldtk_entity *e,
                                     const char *name) {
    const ledge_ldtk_field *f =
        ledge__ldtk_field_named(c->result, e->first_field, e->field_count, name);
    if (f == NULL || f->value_count == 0) return NULL;
    if (!f->is_array && c->result->values[f->first_value].is_null) return NULL;
    return f;
}

static bool bad_type(ledge__ldtk_ctx *c, const char *where, const ledge_ldtk_field *f,
                     const char *want) {
    return ledge__ldtk_fail(c, "%s: field '%s' is %s (must be %s)", where, f->identifier,
                            f->type_name, want);
}

/// A String/Enum field that must be one of `words` (any case): its index.
static bool word_field(ledge__ldtk_ctx *c, const ledge_ldtk_entity *e, const char *where,
                       const char *name, const char *const *words, int n, const char *list,
                       int *out) {
    const ledge_ldtk_field *f = given(c, e, name);
    if (f == NULL) return true;
    if (f->is_array || (f->type != LEDGE_LDTK_FIELD_STRING && f->type != LEDGE_LDTK_FIELD_ENUM))
        return bad_type(c, where, f, "String or an Enum");
    const char *s = c->result->values[f->first_value].string;
    for (int k = 0; k < n; ++k) {
        if (ledge__ldtk_same_name(s, words[k])) return *out = k, true;
    }
    return ledge__ldtk_fail(c, "%s: field '%s' is \"%.40s\" (must be %s)", where, f->identifier, s,
                            list);
}

static bool bool_field(ledge__ldtk_ctx *c, const ledge_ldtk_entity *e, const char *where,
                       const char *name, int *out) {
    const ledge_ldtk_field *f = given(c, e, name);
    if (f == NULL) return true;
    if (f->is_array || f->type != LEDGE_LDTK_FIELD_BOOL) return bad_type(c, where, f, "Bool");
    *out = c->result->values[f->first_value].boolean;
    return true;
}

static bool num_field(ledge__ldtk_ctx *c, const ledge_ldtk_entity *e, const char *where,
                      const char *name, double lo, double hi, double *out) {
    const ledge_ldtk_field *f = given(c, e, name);
    if (f == NULL) return true;
    if (f->is_array || (f->type != LEDGE_LDTK_FIELD_FLOAT && f->type != LEDGE_LDTK_FIELD_INT))
        return bad_type(c, where, f, "Float or Int");
    double x = c->result->values[f->first_value].number;
    if (!(x >= lo && x <= hi)) {
        return ledge__ldtk_fail(c, "%s: field '%s' is %g (must be %g..%g)", where, f->identifier, x,
                                lo, hi);
    }
    *out = x;
    return true;
}

static bool read_ledge_fields(ledge__ldtk_ctx *c, const ledge_ldtk_entity *e, const char *where,
                              ledge_fields *b) {
    static const char *const bodies[] = {"none", "static", "kinematic", "dynamic", "sensor"};
    static const char *const shapes[] = {"box", "circle"};
    const double v = LEDGE_MAX_COORDINATE;
    static const char *const mixes[] = {"mean", "min", "max"}; // ledge_friction_mix order
    *b = (ledge_fields){.body = -1,
                        .shape = -1,
                        .one_way = -1,
                        .sensor = -1,
                        .loop = -1,
                        .friction_mix = LEDGE_FRICTION_MIX_MEAN,
                        .speed = 1,
                        .density = 1};
    if (!word_field(c, e, where, "body", bodies, 5, "static, kinematic, dynamic, sensor or none",
                    &b->body) ||
        !word_field(c, e, where, "shape", shapes, 2, "box or circle", &b->shape) ||
        !bool_field(c, e, where, "one_way", &b->one_way) ||
        !bool_field(c, e, where, "sensor", &b->sensor) ||
        !bool_field(c, e, where, "loop", &b->loop) ||
        !num_field(c, e, where, "speed", 0, v, &b->speed) ||
        !num_field(c, e, where, "friction", 0, 1, &b->friction) ||
        !num_field(c, e, where, "bounce", 0, 1, &b->bounce) ||
        !num_field(c, e, where, "density", 1e-6, 1e6, &b->density) ||
        !num_field(c, e, where, "velocity_x", -v, v, &b->vx) ||
        !num_field(c, e, where, "velocity_y", -v, v, &b->vy) ||
        !num_field(c, e, where, "surface_speed", -v, v, &b->surface_speed) ||
        !word_field(c, e, where, "friction_mix", mixes, 3, "mean, min or max", &b->friction_mix)) {
        return false;
    }
    b->path = given(c, e, "path");
    if (b->path && b->path->type != LEDGE_LDTK_FIELD_POINT)
        return bad_type(c, where, b->path, "Array<Point>");
    b->material = given(c, e, "material");
    if (b->material && (b->material->is_array || (b->material->type != LEDGE_LDTK_FIELD_STRING &&
                                                  b->material->type != LEDGE_LDTK_FIELD_ENUM))) {
        return bad_type(c, where, b->material, "String or an Enum");
    }
    return true;
}

/// The path's points as cell steps from the entity's own cell.
static bool read_path(ledge__ldtk_ctx *c, const ledge_fields *b, const char *where,
                      ledge__ldtk_ent *x, const ledge_ldtk_entity *e) {
    x->path_first = c->path_cell_count;
    x->path_count = 0;
    if (b->path == NULL) return true;
    for (int i = 0; i < b->path->value_count; ++i) {
        const ledge_ldtk_value *p = &c->result->values[b->path->first_value + i];
        if (p->is_null) continue;
        if (x->path_count + 1 >= LEDGE_LDTK_MAX_PATH_POINTS) {
            return ledge__ldtk_fail(c, "%s: its path has more than %d points", where,
                                    LEDGE_LDTK_MAX_PATH_POINTS - 1);
        }
        if (!ledge__ldtk_reserve(c, (void **)&c->path_cells, &c->path_cell_cap,
                                 2 * (c->path_cell_count + 1), sizeof *c->path_cells)) {
            return false;
        }
        c->path_cells[2 * c->path_cell_count] = p->cx - e->cx;
        c->path_cells[2 * c->path_cell_count + 1] = p->cy - e->cy;
        c->path_cell_count++;
        x->path_count++;
    }
    return true;
}

/// The game's table entry for the identifier, or NULL.
static const ledge_ldtk_entity_body *table_entry(const ledge__ldtk_ctx *c, const char *id) {
    for (int i = 0; i < c->def->entity_body_count; ++i) {
        if (strcmp(c->def->entity_bodies[i].identifier, id) == 0) return &c->def->entity_bodies[i];
    }
    return NULL;
}

/// Decides the entity's body from its fields and the table; refuses what
/// ledge cannot make.
static bool decide_body(ledge__ldtk_ctx *c, ledge_ldtk_entity *e, const ledge_fields *b,
                        const ledge__ldtk_ent *x, const char *where) {
    const ledge_ldtk_entity_body *t = table_entry(c, e->identifier);
    int kind = b->body >= 0 ? b->body : t ? (int)t->body : LEDGE_LDTK_NO_BODY;
    bool one_way = b->one_way >= 0 ? b->one_way : t && t->one_way;
    bool sensor = b->sensor > 0 || kind == LEDGE_LDTK_SENSOR;
    bool path = x->path_count > 0;
    if (kind == LEDGE_LDTK_NO_BODY && b->body != LEDGE_LDTK_NO_BODY) { // "none" is final
        kind = sensor    ? LEDGE_LDTK_SENSOR
               : one_way ? LEDGE_LDTK_STATIC
               : path    ? LEDGE_LDTK_KINEMATIC
                         : LEDGE_LDTK_NO_BODY;
    }
    if (kind == LEDGE_LDTK_STATIC && path) kind = LEDGE_LDTK_KINEMATIC;
    e->body = (ledge_ldtk_body_kind)kind;
    e->shape = (ledge_ldtk_shape)(b->shape >= 0 ? b->shape : t ? (int)t->shape : LEDGE_LDTK_BOX);
    e->one_way = kind != LEDGE_LDTK_NO_BODY && one_way;
    e->sensor = kind != LEDGE_LDTK_NO_BODY && sensor;
    e->body_type = kind == LEDGE_LDTK_DYNAMIC             ? LEDGE_BODY_DYNAMIC
                   : kind == LEDGE_LDTK_KINEMATIC || path ? LEDGE_BODY_KINEMATIC
                                                          : LEDGE_BODY_STATIC;
    if (kind == LEDGE_LDTK_NO_BODY) return true;
    if (kind == LEDGE_LDTK_DYNAMIC && path) {
        return ledge__ldtk_fail(c, "%s: a dynamic body cannot follow a path (make it kinematic)",
                                where);
    }
    if (e->one_way && e->body_type == LEDGE_BODY_DYNAMIC) {
        return ledge__ldtk_fail(c, "%s: a one-way platform must be static or kinematic", where);
    }
    if (e->px_width <= 0 || e->px_height <= 0) {
        return ledge__ldtk_fail(c, "%s: a body needs a size, and it is %d x %d pixels", where,
                                e->px_width, e->px_height);
    }
    if (e->shape == LEDGE_LDTK_CIRCLE && e->px_width != e->px_height) {
        return ledge__ldtk_fail(c, "%s: a circle must be as wide as high, and it is %d x %d pixels",
                                where, e->px_width, e->px_height);
    }
    return true;
}

/// Appends a zeroed entity with its names; NULL on failure.
static ledge_ldtk_entity *new_entity(ledge__ldtk_ctx *c, const char *id, const char *iid,
                                     const ledge__ldtk_entity_layer *from, const char *where) {
    ledge_ldtk_result *r = c->result;
    if (r->entity_count >= LEDGE_LDTK_MAX_ENTITIES) {
        ledge__ldtk_fail(c, "%s: the load has more than %d entities", where,
                         LEDGE_LDTK_MAX_ENTITIES);
        return NULL;
    }
    if (!ledge__ldtk_reserve(c, (void **)&r->entities, &c->entity_cap, r->entity_count + 1,
                             sizeof *r->entities) ||
        !ledge__ldtk_reserve(c, (void **)&c->ents, &c->ent_cap, r->entity_count + 1,
                             sizeof *c->ents)) {
        return NULL;
    }
    memset(&c->ents[r->entity_count], 0, sizeof c->ents[0]);
    ledge_ldtk_entity *e = &r->entities[r->entity_count++];
    memset(e, 0, sizeof *e);
    e->identifier = e->iid = e->layer = e->material = ledge__ldtk_empty;
    e->level = from->level;
    e->density = 1;
    e->identifier = ledge__ldtk_strdup(c, id);
    e->iid = ledge__ldtk_strdup(c, iid);
    e->layer = ledge__ldtk_strdup(c, from->name);
    return e->identifier && e->iid && e->layer ? e : NULL;
}

static bool read_entity(ledge__ldtk_ctx *c, const json_t *j, size_t index,
                        const ledge__ldtk_entity_layer *from) {
    const char *id, *iid;
    long long px[2], size[2], cell[2];
    double pivot[2];
    char where[160];
    snprintf(where, sizeof where, "%.110s, entity %zu", from->where, index);
    if (!ledge__ldtk_str(c, j, "__identifier", where, true, NULL, &id)) return false;
    snprintf(where, sizeof where, "%.100s, entity %zu '%.40s'", from->where, index, id);
    if (!ledge__ldtk_str(c, j, "iid", where, false, "", &iid) ||
        !ledge__ldtk_pair(c, j, "px", where, -PX, PX, px) ||
        !ledge__ldtk_int(c, j, "width", where, true, 0, PX, 0, &size[0]) ||
        !ledge__ldtk_int(c, j, "height", where, true, 0, PX, 0, &size[1])) {
        return false;
    }
    const json_t *pv = json_object_get(j, "__pivot"), *grid = json_object_get(j, "__grid");
    pivot[0] = json_number_value(json_array_get(pv, 0));
    pivot[1] = json_number_value(json_array_get(pv, 1));
    if (pv && !(json_array_size(pv) == 2 && pivot[0] >= 0 && pivot[0] <= 1 && pivot[1] >= 0 &&
                pivot[1] <= 1)) {
        return ledge__ldtk_fail(c, "%s: \"__pivot\" must be [x, y], two numbers 0..1", where);
    }
    cell[0] = (long long)floor((double)px[0] / from->grid);
    cell[1] = (long long)floor((double)px[1] / from->grid);
    if (grid && !ledge__ldtk_pair(c, j, "__grid", where, -PX, PX, cell)) return false;
    ledge_ldtk_entity *e = new_entity(c, id, iid, from, where);
    if (e == NULL) return false;
    ledge__ldtk_ent *x = &c->ents[c->result->entity_count - 1];
    e->px_x = (int)px[0];
    e->px_y = (int)px[1];
    e->px_width = (int)size[0];
    e->px_height = (int)size[1];
    e->cx = (int)cell[0];
    e->cy = (int)cell[1];
    x->level = from->level;
    x->px = from->ox + (double)px[0];
    x->py = from->oy + (double)px[1];
    x->w = (double)size[0];
    x->h = (double)size[1];
    x->left = x->px - pivot[0] * x->w;
    x->top = x->py - pivot[1] * x->h;
    x->grid = from->grid;
    snprintf(x->where, sizeof x->where, "%s", where);
    ledge__ldtk_grid_frame frame = {from->grid, from->ox, from->oy, from->level};
    ledge_fields b;
    if (!ledge__ldtk_read_fields(c, j, where, &frame, &e->first_field, &e->field_count) ||
        !read_ledge_fields(c, e, where, &b) || !read_path(c, &b, where, x, e) ||
        !decide_body(c, e, &b, x, where)) {
        return false;
    }
    e->friction = (float)b.friction;
    e->bounce = (float)b.bounce;
    e->density = (float)b.density;
    // Clockwise around the entity as drawn: material.h's sense in the
    // default frame (it looks as in LDtk), the opposite one in LDtk's y-down
    // frame, a mirror of it.
    e->surface_speed =
        (float)(c->def->y_down && b.surface_speed != 0 ? -b.surface_speed : b.surface_speed);
    e->friction_mix = (ledge_friction_mix)b.friction_mix;
    e->path_speed = x->path_count ? (float)b.speed : 0.0f;
    e->path_loop = x->path_count && b.loop > 0;
    x->vx = b.vx;
    x->vy = b.vy;
    if (b.material) {
        e->material = ledge__ldtk_strdup(c, c->result->values[b.material->first_value].string);
        if (e->material == NULL) return false;
    }
    return true;
}

bool ledge__ldtk_read_entities(ledge__ldtk_ctx *c, const json_t *layer,
                               const ledge__ldtk_entity_layer *from) {
    const json_t *list;
    if (!ledge__ldtk_array(c, layer, "entityInstances", from->where, true, &list)) return false;
    for (size_t i = 0; i < json_array_size(list); ++i) {
        if (!read_entity(c, json_array_get(list, i), i, from)) return false;
    }
    return true;
}

void ledge__ldtk_free_entities(ledge_ldtk_result *r) {
    for (int i = 0; i < r->entity_count; ++i) {
        ledge__ldtk_free_string(r->entities[i].identifier);
        ledge__ldtk_free_string(r->entities[i].iid);
        ledge__ldtk_free_string(r->entities[i].layer);
        ledge__ldtk_free_string(r->entities[i].material);
    }
    ledge_free(r->entities);
}
