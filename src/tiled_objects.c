// Object layers: each object's custom properties into the result, its
// geometry into world coordinates, and one body def per convex piece. The
// bodies are created later (tiled.c), after the whole map was accepted.
//
// Polylines become open chains and polygons with the property `chain`
// closed ones (static or kinematic), their points relative to the object's
// position, turned so that the surface faces as the map asks (`facing`,
// `solid`); polylines and polygons of class `path` make nothing and keep
// their points for the game. The chains too are created later.
//
// Geometry: Tiled gives pixels with y down, an object's (x, y) being its
// top-left corner (bottom-left for tile objects) and its rotation turning
// clockwise about that point. Points are rotated, offset by the layer, then
// mapped to the world: x' = origin.x + x * scale, and y' = origin.y +
// (map height in pixels - y) * scale (y up) or origin.y + y * scale
// (y_down). Every body of an object sits at the centre of the object's
// bounds, its shape relative to it.
#include "tiled_objects.h"
#include "tiled_tileset.h"
#include "tiled_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PX_LIMIT 1e9 // pixel coordinates beyond it cannot be a level

typedef struct geom {
    ledge_tiled_shape kind;
    bool box;  ///< Still axis-aligned (a rectangle rotated by a multiple of 90 degrees).
    int count; ///< Points of a polygon, polyline or box.
    double px[LEDGE_TILED_MAX_CHAIN_POINTS], py[LEDGE_TILED_MAX_CHAIN_POINTS]; ///< Pixels.
    double radius; ///< Circle radius in pixels.
} geom;

/// The ledge properties of an object.
typedef struct body_props {
    ledge_body_type type;
    bool sensor, one_way;
    double friction, bounce, density, vx, vy;
    double surface_speed; ///< As drawn: clockwise around the object on screen.
    ledge_friction_mix friction_mix;
} body_props;

// ---------------------------------------------------------------------------
// Properties

static const char *const prop_types[] = {"string", "int",   "float", "bool",
                                         "class",  "color", "file",  "object"};
static const ledge_tiled_property_type prop_kinds[] = {
    LEDGE_TILED_STRING, LEDGE_TILED_INT,    LEDGE_TILED_FLOAT,  LEDGE_TILED_BOOL,
    LEDGE_TILED_CLASS,  LEDGE_TILED_STRING, LEDGE_TILED_STRING, LEDGE_TILED_INT};

/// Reads one {name, type, value} into *p (strings copied).
static bool read_property(ledge__tiled_ctx *c, const json_t *j, const char *where,
                          ledge_tiled_property *p) {
    const char *name, *type;
    if (!ledge__tiled_str(c, j, "name", where, true, NULL, &name) ||
        !ledge__tiled_str(c, j, "type", where, false, "string", &type)) {
        return false;
    }
    int k = 0;
    while (k < 8 && strcmp(type, prop_types[k]) != 0) ++k;
    if (k == 8) {
        return ledge__tiled_fail(c,
                                 "%s: property '%.40s' has type \"%.40s\" (must be string, "
                                 "int, float, bool, color, file, object or class)",
                                 where, name, type);
    }
    const json_t *v = json_object_get(j, "value");
    p->type = prop_kinds[k];
    bool ok = p->type == LEDGE_TILED_STRING  ? json_is_string(v)
              : p->type == LEDGE_TILED_INT   ? json_is_integer(v)
              : p->type == LEDGE_TILED_FLOAT ? json_is_number(v)
              : p->type == LEDGE_TILED_BOOL  ? json_is_boolean(v)
                                             : true;
    char buf[48];
    if (!ok) {
        return ledge__tiled_fail(c, "%s: property '%.40s' of type %s has the value %s", where, name,
                                 type, v ? ledge__tiled_describe(v, buf) : "missing");
    }
    if (json_is_number(v)) p->number = json_number_value(v);
    p->boolean = json_is_true(v);
    p->name = ledge__tiled_strdup(c, name);
    p->string = ledge__tiled_strdup(c, p->type == LEDGE_TILED_STRING ? json_string_value(v) : "");
    return p->name && p->string;
}

/// Appends the object's "properties" to the result; sets first/count.
static bool read_properties(ledge__tiled_ctx *c, const json_t *obj, const char *where,
                            ledge_tiled_object *o) {
    const json_t *props;
    ledge_tiled_result *r = c->result;
    if (!ledge__tiled_array(c, obj, "properties", where, false, &props)) return false;
    o->first_property = r->property_count;
    size_t n = props ? json_array_size(props) : 0;
    for (size_t i = 0; i < n; ++i) {
        if (!ledge__tiled_reserve(c, (void **)&r->properties, &c->property_cap,
                                  r->property_count + 1, sizeof *r->properties)) {
            return false;
        }
        ledge_tiled_property *p = &r->properties[r->property_count++];
        memset(p, 0, sizeof *p);
        if (!read_property(c, json_array_get(props, i), where, p)) return false;
        o->property_count++;
    }
    return true;
}

/// A numeric ledge property in [min, max], or `fallback` when absent.
static bool num_prop(ledge__tiled_ctx *c, const ledge_tiled_object *o, const char *where,
                     const char *name, double min, double max, double fallback, double *out) {
    const ledge_tiled_property *p = ledge_tiled_find_property(c->result, o, name);
    *out = fallback;
    if (p == NULL) return true;
    if ((p->type != LEDGE_TILED_INT && p->type != LEDGE_TILED_FLOAT) || !(p->number >= min) ||
        !(p->number <= max)) {
        return ledge__tiled_fail(c, "%s: property '%s' must be a number %g..%g", where, name, min,
                                 max);
    }
    *out = p->number;
    return true;
}

/// The body type named by `body` (or, without it, by the object's class).
static bool body_type_prop(ledge__tiled_ctx *c, const ledge_tiled_object *o, const char *where,
                           body_props *b) {
    static const char *const names[] = {"static", "kinematic", "dynamic", "sensor"};
    const ledge_tiled_property *p = ledge_tiled_find_property(c->result, o, "body");
    const char *s = p ? p->string : o->type;
    int k = 0;
    while (k < 4 && strcmp(s, names[k]) != 0) ++k;
    if (p && (p->type != LEDGE_TILED_STRING || k == 4)) {
        return ledge__tiled_fail(c,
                                 "%s: property 'body' is \"%.40s\" (must be static, kinematic, "
                                 "dynamic or sensor)",
                                 where, s);
    }
    b->type = k == 1 ? LEDGE_BODY_KINEMATIC : k == 2 ? LEDGE_BODY_DYNAMIC : LEDGE_BODY_STATIC;
    b->sensor = k == 3;
    return true;
}

static bool read_body_props(ledge__tiled_ctx *c, const ledge_tiled_object *o, const char *where,
                            body_props *b) {
    const ledge_tiled_property *ow = ledge_tiled_find_property(c->result, o, "one_way");
    if (ow && ow->type != LEDGE_TILED_BOOL) {
        return ledge__tiled_fail(c, "%s: property 'one_way' must be a bool", where);
    }
    b->one_way = ow && ow->boolean;
    const ledge_tiled_property *mix = ledge_tiled_find_property(c->result, o, "friction_mix");
    int m = mix && mix->type == LEDGE_TILED_STRING ? ledge__tiled_friction_mix(mix->string) : 0;
    if (mix && m < 0) {
        return ledge__tiled_fail(c,
                                 "%s: property 'friction_mix' is \"%.40s\" (must be \"mean\", "
                                 "\"min\" or \"max\")",
                                 where, mix->string);
    }
    if (mix && mix->type != LEDGE_TILED_STRING) {
        return ledge__tiled_fail(c, "%s: property 'friction_mix' must be a string", where);
    }
    b->friction_mix = (ledge_friction_mix)m;
    const double v = LEDGE_MAX_COORDINATE;
    return body_type_prop(c, o, where, b) &&
           num_prop(c, o, where, "friction", 0, 1, 0, &b->friction) &&
           num_prop(c, o, where, "bounce", 0, 1, 0, &b->bounce) &&
           num_prop(c, o, where, "density", 1e-6, 1e6, 1, &b->density) &&
           num_prop(c, o, where, "surface_speed", -v, v, 0, &b->surface_speed) &&
           num_prop(c, o, where, "velocity_x", -v, v, 0, &b->vx) &&
           num_prop(c, o, where, "velocity_y", -v, v, 0, &b->vy);
}

// ---------------------------------------------------------------------------
// Geometry in pixels

static void add_point(geom *g, double x, double y) {
    g->px[g->count] = x;
    g->py[g->count] = y;
    g->count++;
}

static void add_rect(geom *g, double x0, double y0, double w, double h) {
    add_point(g, x0, y0);
    add_point(g, x0 + w, y0);
    add_point(g, x0 + w, y0 + h);
    add_point(g, x0, y0 + h);
}

/// A polygon's or polyline's points (`line`), offset by the object's (x, y).
static bool read_polygon(ledge__tiled_ctx *c, const json_t *pts, const char *where, double x,
                         double y, bool line, geom *g) {
    size_t n = json_array_size(pts), least = line ? 2 : 3;
    const char *what = line ? "polyline" : "polygon";
    if (n < least || n > LEDGE_TILED_MAX_CHAIN_POINTS) {
        return ledge__tiled_fail(c, "%s: %s has %zu points (must be %zu..%d)", where, what, n,
                                 least, LEDGE_TILED_MAX_CHAIN_POINTS);
    }
    for (size_t i = 0; i < n; ++i) {
        char pw[160];
        double px, py;
        snprintf(pw, sizeof pw, "%.120s: %s point %zu", where, what, i);
        if (!ledge__tiled_num(c, json_array_get(pts, i), "x", pw, true, -PX_LIMIT, PX_LIMIT, 0,
                              &px) ||
            !ledge__tiled_num(c, json_array_get(pts, i), "y", pw, true, -PX_LIMIT, PX_LIMIT, 0,
                              &py)) {
            return false;
        }
        add_point(g, x + px, y + py);
    }
    g->kind = line ? LEDGE_TILED_POLYLINE : LEDGE_TILED_POLYGON;
    return true;
}

/// Rotates every point by `deg` clockwise on screen (y down) about (x, y).
/// Multiples of 90 degrees use exact sines, so that boxes stay boxes.
static void rotate(geom *g, double x, double y, double deg) {
    double turns = deg / 90.0;
    bool right = turns == floor(turns);
    double rad = deg * 3.14159265358979323846 / 180.0;
    int q = right ? (int)fmod(fmod(turns, 4.0) + 4.0, 4.0) : 0;
    double cs = right ? (double)((int[]){1, 0, -1, 0})[q] : cos(rad);
    double sn = right ? (double)((int[]){0, 1, 0, -1})[q] : sin(rad);
    for (int i = 0; i < g->count; ++i) {
        double dx = g->px[i] - x, dy = g->py[i] - y;
        g->px[i] = x + dx * cs - dy * sn;
        g->py[i] = y + dx * sn + dy * cs;
    }
    if (!right && g->kind == LEDGE_TILED_BOX) {
        g->kind = LEDGE_TILED_POLYGON;
        g->box = false;
    }
}

/// Reads the object's geometry in pixels (before the layer offset).
static bool read_geometry(ledge__tiled_ctx *c, const json_t *obj, const char *where, geom *g) {
    double x, y, w, h, rot;
    const json_t *poly, *line;
    bool point, ellipse;
    if (!ledge__tiled_num(c, obj, "x", where, true, -PX_LIMIT, PX_LIMIT, 0, &x) ||
        !ledge__tiled_num(c, obj, "y", where, true, -PX_LIMIT, PX_LIMIT, 0, &y) ||
        !ledge__tiled_num(c, obj, "width", where, false, 0, PX_LIMIT, 0, &w) ||
        !ledge__tiled_num(c, obj, "height", where, false, 0, PX_LIMIT, 0, &h) ||
        !ledge__tiled_num(c, obj, "rotation", where, false, -1e6, 1e6, 0, &rot) ||
        !ledge__tiled_bool(c, obj, "point", where, false, &point) ||
        !ledge__tiled_bool(c, obj, "ellipse", where, false, &ellipse) ||
        !ledge__tiled_array(c, obj, "polygon", where, false, &poly) ||
        !ledge__tiled_array(c, obj, "polyline", where, false, &line)) {
        return false;
    }
    g->count = 0;
    g->box = false;
    if (point) {
        g->kind = LEDGE_TILED_POINT;
        add_point(g, x, y);
    } else if (poly || line) {
        if (!read_polygon(c, poly ? poly : line, where, x, y, poly == NULL, g)) return false;
    } else if (w <= 0 || h <= 0) {
        return ledge__tiled_fail(c, "%s: size is %g x %g pixels (must be > 0)", where, w, h);
    } else if (ellipse) {
        if (fabs(w - h) > 1e-4 * fmax(w, h)) {
            return ledge__tiled_fail(c,
                                     "%s: ellipse is %g x %g pixels (only circles, with equal "
                                     "width and height, are supported; use a polygon)",
                                     where, w, h);
        }
        g->kind = LEDGE_TILED_CIRCLE;
        g->radius = (w + h) / 4;
        add_point(g, x + w / 2, y + h / 2); // the centre
    } else {
        g->kind = LEDGE_TILED_BOX;
        g->box = true;
        // Tile objects hang from their bottom-left corner.
        add_rect(g, x, json_object_get(obj, "gid") ? y - h : y, w, h);
    }
    if (rot != 0) rotate(g, x, y, rot);
    return true;
}

// ---------------------------------------------------------------------------
// World geometry and bodies

static vec2s to_world(const ledge__tiled_ctx *c, double px, double py) {
    double y = c->def->y_down ? py : c->height * c->tile_px - py;
    vec2s r = {{(float)(c->origin.x + px * c->scale), (float)(c->origin.y + y * c->scale)}};
    return r;
}

static bool in_range(vec2s p) {
    return isfinite(p.x) && isfinite(p.y) && fabsf(p.x) <= LEDGE_MAX_COORDINATE &&
           fabsf(p.y) <= LEDGE_MAX_COORDINATE;
}

/// Whether the points (any winding) form a strictly convex polygon.
static bool is_convex(const vec2s *p, int n) {
    int sign = 0;
    for (int i = 0; i < n; ++i) {
        vec2s a = p[i], b = p[(i + 1) % n], d = p[(i + 2) % n];
        double cr =
            ((double)b.x - a.x) * ((double)d.y - b.y) - ((double)b.y - a.y) * ((double)d.x - b.x);
        int s = cr > 0 ? 1 : cr < 0 ? -1 : 0;
        if (s == 0 || (sign != 0 && s != sign)) return false;
        sign = s;
    }
    return true;
}

/// The surface speed in the world's frame: clockwise on screen as drawn,
/// which Tiled's y-down frame (kept with y_down) turns the other way
/// round in material.h's terms; the default frame's mirror keeps it.
static float body_surface_speed(const ledge__tiled_ctx *c, const body_props *b) {
    return (float)(c->def->y_down ? -b->surface_speed : b->surface_speed);
}

static bool add_body(ledge__tiled_ctx *c, const ledge_shape *shape, const body_props *b,
                     ledge_tiled_object *o) {
    if (!ledge__tiled_reserve(c, (void **)&c->bodies, &c->body_cap, c->body_count + 1,
                              sizeof *c->bodies)) {
        return false;
    }
    ledge__tiled_body *nb = &c->bodies[c->body_count++];
    nb->def = ledge_default_body_def();
    nb->def.type = b->type;
    nb->def.shape = *shape;
    nb->def.position = o->position;
    nb->def.velocity = (vec2s){{(float)b->vx, (float)b->vy}};
    nb->def.density = (float)b->density;
    nb->def.friction = (float)b->friction;
    nb->def.bounce = (float)b->bounce;
    nb->def.surface_speed = body_surface_speed(c, b);
    nb->def.friction_mix = b->friction_mix;
    nb->def.sensor = b->sensor;
    // One-way toward the drawing's "up": +y in ledge's frame, -y when the
    // game keeps Tiled's y-down frame.
    if (b->one_way) nb->def.one_way = c->def->y_down ? LEDGE_ONE_WAY_DOWN : LEDGE_ONE_WAY_UP;
    nb->object = c->result->object_count - 1;
    o->body_count++;
    return true;
}

/// A concave (or > 8 point) polygon: one body per convex piece.
static bool add_pieces(ledge__tiled_ctx *c, const vec2s *local, int n, const char *where,
                       const body_props *b, ledge_tiled_object *o) {
    ledge_shape *pieces = ledge_alloc((size_t)n * sizeof *pieces);
    if (pieces == NULL) return ledge__tiled_fail(c, "%s: out of memory", where);
    int k = ledge_decompose(local, n, pieces, n);
    bool ok = k > 0;
    if (!ok) {
        ledge__tiled_fail(c,
                          "%s: polygon is not simple (it crosses itself, repeats a point or "
                          "has no area)",
                          where);
    } else if (k > 1 && b->type == LEDGE_BODY_DYNAMIC) {
        ok = ledge__tiled_fail(c,
                               "%s: a dynamic polygon must be convex with at most %d points "
                               "(its %d pieces would fall apart)",
                               where, LEDGE_MAX_POLYGON_VERTICES, k);
    }
    for (int i = 0; ok && i < k; ++i) ok = add_body(c, &pieces[i], b, o);
    ledge_free(pieces);
    return ok;
}

static bool make_bodies(ledge__tiled_ctx *c, const geom *g, const char *where, const body_props *b,
                        ledge_tiled_object *o) {
    ledge_shape s;
    vec2s local[LEDGE_MAX_DECOMPOSE_POINTS];
    if (g->kind == LEDGE_TILED_POINT) return true;
    if (g->kind == LEDGE_TILED_POLYGON && g->count > LEDGE_MAX_DECOMPOSE_POINTS) {
        return ledge__tiled_fail(c,
                                 "%s: polygon has %d points (a polygon of bodies has 3..%d; "
                                 "make it a chain with the property 'chain')",
                                 where, g->count, LEDGE_MAX_DECOMPOSE_POINTS);
    }
    if (g->kind == LEDGE_TILED_CIRCLE) {
        s = ledge_make_circle((vec2s){{0, 0}}, (float)(g->radius * c->scale));
    } else if (g->box) {
        vec2s half = {{(o->bounds.upper.x - o->bounds.lower.x) / 2,
                       (o->bounds.upper.y - o->bounds.lower.y) / 2}};
        s = ledge_make_box((vec2s){{0, 0}}, half);
    } else {
        for (int i = 0; i < g->count; ++i) {
            vec2s w = to_world(c, g->px[i], g->py[i]);
            local[i] = (vec2s){{w.x - o->position.x, w.y - o->position.y}};
        }
        if (g->count > LEDGE_MAX_POLYGON_VERTICES || !is_convex(local, g->count)) {
            return add_pieces(c, local, g->count, where, b, o);
        }
        ledge_make_polygon(local, g->count, &s);
    }
    if (!ledge_shape_is_valid(&s)) {
        return ledge__tiled_fail(c,
                                 "%s: its shape is refused (too small, too large or "
                                 "degenerate in world units)",
                                 where);
    }
    return add_body(c, &s, b, o);
}

/// World bounds and position of the geometry (offset by the layer).
static bool place(ledge__tiled_ctx *c, geom *g, double ox, double oy, const char *where,
                  ledge_tiled_object *o) {
    for (int i = 0; i < g->count; ++i) {
        g->px[i] += ox;
        g->py[i] += oy;
    }
    vec2s lo = to_world(c, g->px[0], g->py[0]), hi = lo;
    for (int i = 0; i < g->count; ++i) {
        vec2s p = to_world(c, g->px[i], g->py[i]);
        lo = (vec2s){{fminf(lo.x, p.x), fminf(lo.y, p.y)}};
        hi = (vec2s){{fmaxf(hi.x, p.x), fmaxf(hi.y, p.y)}};
    }
    if (g->kind == LEDGE_TILED_CIRCLE) {
        float r = (float)(g->radius * c->scale);
        lo = (vec2s){{lo.x - r, lo.y - r}};
        hi = (vec2s){{hi.x + r, hi.y + r}};
    }
    if (!in_range(lo) || !in_range(hi)) {
        return ledge__tiled_fail(c, "%s: lies beyond %g world units", where,
                                 (double)LEDGE_MAX_COORDINATE);
    }
    o->bounds = (ledge_aabb){lo, hi};
    o->position = (vec2s){{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2}};
    return true;
}

// ---------------------------------------------------------------------------
// Objects

/// Appends a zeroed object with its strings; NULL on failure.
static ledge_tiled_object *new_object(ledge__tiled_ctx *c, const json_t *obj, const char *where,
                                      const char *layer_name, long long id) {
    ledge_tiled_result *r = c->result;
    const char *name, *type;
    if (r->object_count >= LEDGE_TILED_MAX_OBJECTS) {
        ledge__tiled_fail(c, "%s: the map has more than %d objects", where,
                          LEDGE_TILED_MAX_OBJECTS);
        return NULL;
    }
    if (!ledge__tiled_str(c, obj, "name", where, false, "", &name) ||
        !ledge__tiled_str(c, obj, "type", where, false, NULL, &type) ||
        (type == NULL && !ledge__tiled_str(c, obj, "class", where, false, "", &type)) ||
        !ledge__tiled_reserve(c, (void **)&r->objects, &c->object_cap, r->object_count + 1,
                              sizeof *r->objects)) {
        return NULL;
    }
    ledge_tiled_object *o = &r->objects[r->object_count++];
    memset(o, 0, sizeof *o);
    o->id = (int)id;
    o->first_body = c->body_count;
    o->name = ledge__tiled_strdup(c, name);
    o->type = ledge__tiled_strdup(c, type);
    o->layer = ledge__tiled_strdup(c, layer_name);
    return o->name && o->type && o->layer ? o : NULL;
}

/// Objects that make nothing: text (decoration); templates are refused.
/// Returns 1 to read the object, 0 to skip it, -1 refused.
static int classify(ledge__tiled_ctx *c, const json_t *obj, const char *where) {
    if (json_object_get(obj, "template")) {
        ledge__tiled_fail(c,
                          "%s uses a template (not supported: detach it, or export with "
                          "templates resolved)",
                          where);
        return -1;
    }
    return json_object_get(obj, "text") ? 0 : 1;
}

// ---------------------------------------------------------------------------
// Chains and paths

/// The object's points (world coordinates) appended to the result.
static bool keep_points(ledge__tiled_ctx *c, const vec2s *p, int n, ledge_tiled_object *o) {
    ledge_tiled_result *r = c->result;
    if (!ledge__tiled_reserve(c, (void **)&r->points, &c->result_point_cap, r->point_count + n,
                              sizeof *r->points)) {
        return false;
    }
    o->first_point = r->point_count;
    o->point_count = n;
    memcpy(r->points + r->point_count, p, sizeof *p * (size_t)n);
    r->point_count += n;
    return true;
}

/// A string property that must be one of `names` (the first when absent);
/// its index in *k.
static bool choice_prop(ledge__tiled_ctx *c, const ledge_tiled_object *o, const char *where,
                        const char *name, const char *const *names, int count, int *k) {
    const ledge_tiled_property *p = ledge_tiled_find_property(c->result, o, name);
    *k = 0;
    if (p == NULL) return true;
    while (*k < count && (p->type != LEDGE_TILED_STRING || strcmp(p->string, names[*k]) != 0)) ++*k;
    if (*k < count) return true;
    char list[96] = "";
    for (int i = 0; i < count; ++i) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%s", i ? (i + 1 == count ? " or " : ", ") : "",
                 names[i]);
    }
    return ledge__tiled_fail(c, "%s: property '%s' must be %s", where, name, list);
}

/// Turns the points so that the chain's surface faces as the map asks: an
/// open chain the way `facing` says (up as drawn by default: the summed
/// normals of its segments point that way), a closed one with its solid
/// inside (counter-clockwise in the world frame) unless `solid` is
/// "outside".
static bool orient(ledge__tiled_ctx *c, const ledge_tiled_object *o, const char *where, vec2s *p,
                   int n, bool closed) {
    static const char *const facings[] = {"up", "down", "left", "right"};
    static const char *const solids[] = {"inside", "outside"};
    int k;
    double turn;
    if (closed) {
        if (!choice_prop(c, o, where, "solid", solids, 2, &k)) return false;
        double area = 0.0;
        for (int i = 0; i < n; ++i) {
            vec2s a = p[i], b = p[(i + 1) % n];
            area += (double)a.x * b.y - (double)a.y * b.x;
        }
        turn = k == 0 ? area : -area;
    } else {
        if (!choice_prop(c, o, where, "facing", facings, 4, &k)) return false;
        double up = c->def->y_down ? -1.0 : 1.0; // as drawn in Tiled
        double fx = k == 2 ? -1.0 : k == 3 ? 1.0 : 0.0, fy = k == 0 ? up : k == 1 ? -up : 0.0;
        double sx = 0.0, sy = 0.0; // the segments' normals (chain.h: right of the direction)
        for (int i = 0; i + 1 < n; ++i) {
            sx += (double)p[i + 1].y - p[i].y;
            sy -= (double)p[i + 1].x - p[i].x;
        }
        turn = sx * fx + sy * fy;
    }
    if (turn < 0.0) {
        for (int i = 0, j = n - 1; i < j; ++i, --j) {
            vec2s t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
    }
    return true;
}

/// The `path` property (an object reference) kept for the resolution after
/// every layer is read.
static bool path_prop(ledge__tiled_ctx *c, const ledge_tiled_object *o, const char *where) {
    int index = c->result->object_count - 1;
    if (!ledge__tiled_reserve(c, (void **)&c->path_ids, &c->path_id_cap, index + 1,
                              sizeof *c->path_ids)) {
        return false;
    }
    c->path_ids[index] = -1;
    const ledge_tiled_property *p = ledge_tiled_find_property(c->result, o, "path");
    if (p == NULL || (p->type == LEDGE_TILED_INT && p->number == 0)) return true; // Tiled's none
    if (p->type != LEDGE_TILED_INT || !(p->number >= 1) || !(p->number <= INT32_MAX))
        return ledge__tiled_fail(c, "%s: property 'path' must be an object (a path's id)", where);
    c->path_ids[index] = (int)p->number;
    return true;
}

/// A chain (a polyline, or a polygon with `chain`) to create later, or a
/// path's points: `o`'s geometry in world coordinates.
/// A chain object's material: the level's default (material.h) with the
/// material properties the object has (`friction`, `bounce`,
/// `surface_speed`, `friction_mix`), as a tileset tile's.
static ledge_material chain_material(const ledge__tiled_ctx *c, const body_props *b,
                                     const ledge_tiled_object *o) {
    ledge_material m = ledge_default_material();
    if (ledge_tiled_find_property(c->result, o, "friction")) m.friction = (float)b->friction;
    if (ledge_tiled_find_property(c->result, o, "bounce")) m.bounce = (float)b->bounce;
    if (ledge_tiled_find_property(c->result, o, "friction_mix")) m.friction_mix = b->friction_mix;
    if (ledge_tiled_find_property(c->result, o, "surface_speed"))
        m.surface_speed = body_surface_speed(c, b);
    return m;
}

static bool make_chain(ledge__tiled_ctx *c, const geom *g, const char *where, const body_props *b,
                       ledge_tiled_object *o) {
    bool closed = g->kind == LEDGE_TILED_POLYGON;
    vec2s *p = ledge_alloc(sizeof *p * (size_t)g->count);
    if (p == NULL) return ledge__tiled_fail(c, "%s: out of memory", where);
    for (int i = 0; i < g->count; ++i) p[i] = to_world(c, g->px[i], g->py[i]);
    bool ok = true;
    if (o->is_path) {
        ok = keep_points(c, p, g->count, o);
    } else if (b->type == LEDGE_BODY_DYNAMIC || b->sensor || b->one_way) {
        ok = ledge__tiled_fail(c,
                               "%s: a chain is static or kinematic, never %s (a chain is one-sided "
                               "already)",
                               where,
                               b->one_way  ? "one-way"
                               : b->sensor ? "a sensor"
                                           : "dynamic");
    } else {
        ok = orient(c, o, where, p, g->count, closed) && keep_points(c, p, g->count, o) &&
             ledge__tiled_reserve(c, (void **)&c->points, &c->point_cap, c->point_count + g->count,
                                  sizeof *c->points) &&
             ledge__tiled_reserve(c, (void **)&c->chains, &c->chain_cap, c->chain_count + 1,
                                  sizeof *c->chains);
        if (ok) {
            ledge__tiled_chain *ch = &c->chains[c->chain_count++];
            ch->def = ledge_default_chain_def();
            ch->def.count = g->count;
            ch->def.loop = closed;
            ch->def.type = b->type;
            ch->def.position = o->position;
            ch->def.velocity = (vec2s){{(float)b->vx, (float)b->vy}};
            ch->def.material = chain_material(c, b, o);
            ch->first_point = c->point_count;
            ch->object = c->result->object_count - 1;
            for (int i = 0; i < g->count; ++i) {
                c->points[c->point_count++] =
                    (vec2s){{p[i].x - o->position.x, p[i].y - o->position.y}};
            }
        }
    }
    ledge_free(p);
    return ok;
}

static bool read_object(ledge__tiled_ctx *c, const json_t *obj, const char *layer_where,
                        const char *layer_name, double ox, double oy) {
    char where[192];
    long long id;
    const char *name = json_string_value(json_object_get(obj, "name"));
    if (!ledge__tiled_int(c, obj, "id", layer_where, true, 0, INT32_MAX, 0, &id)) return false;
    snprintf(where, sizeof where, "%s, object %lld '%.40s'", layer_where, id, name ? name : "");
    int kind = classify(c, obj, where);
    if (kind <= 0) return kind == 0;
    geom *g = ledge_alloc(sizeof *g); // 64 KB: off the stack
    if (g == NULL) return ledge__tiled_fail(c, "%s: out of memory", where);
    body_props b = {LEDGE_BODY_STATIC, false, false, 0, 0, 1, 0, 0, 0, LEDGE_FRICTION_MIX_MEAN};
    ledge_tiled_object *o = new_object(c, obj, where, layer_name, id);
    bool ok = o && read_properties(c, obj, where, o) && read_body_props(c, o, where, &b) &&
              read_geometry(c, obj, where, g) && place(c, g, ox, oy, where, o);
    if (ok) {
        o->shape = g->kind;
        o->body_type = b.type;
        o->sensor = b.sensor;
        o->one_way = b.one_way;
        o->friction = (float)b.friction;
        o->bounce = (float)b.bounce;
        o->surface_speed = body_surface_speed(c, &b);
        o->friction_mix = b.friction_mix;
        o->path = -1;
        o->is_path = (g->kind == LEDGE_TILED_POLYLINE || g->kind == LEDGE_TILED_POLYGON) &&
                     strcmp(o->type, "path") == 0;
        const ledge_tiled_property *chain = ledge_tiled_find_property(c->result, o, "chain");
        if (chain && chain->type != LEDGE_TILED_BOOL) {
            ok = ledge__tiled_fail(c, "%s: property 'chain' must be a bool", where);
        } else if (chain && chain->boolean && g->kind != LEDGE_TILED_POLYGON &&
                   g->kind != LEDGE_TILED_POLYLINE) {
            ok = ledge__tiled_fail(c, "%s: only a polygon or polyline can be a chain", where);
        } else if (chain && !chain->boolean && g->kind == LEDGE_TILED_POLYLINE) {
            ok = ledge__tiled_fail(c, "%s: a polyline is always a chain (or a path)", where);
        }
        bool as_chain = g->kind == LEDGE_TILED_POLYLINE || (chain && chain->boolean) || o->is_path;
        ok = ok && path_prop(c, o, where) &&
             (as_chain ? make_chain(c, g, where, &b, o) : make_bodies(c, g, where, &b, o));
    }
    ledge_free(g);
    return ok;
}

bool ledge__tiled_read_objects(ledge__tiled_ctx *c, const json_t *layer, const char *where,
                               const char *layer_name, double offset_x, double offset_y) {
    const json_t *objects;
    if (!ledge__tiled_array(c, layer, "objects", where, true, &objects)) return false;
    for (size_t i = 0; i < json_array_size(objects); ++i) {
        if (!read_object(c, json_array_get(objects, i), where, layer_name, offset_x, offset_y)) {
            return false;
        }
    }
    return true;
}

void ledge__tiled_free_result(ledge_tiled_result *r) {
    if (r == NULL) return;
    for (int i = 0; i < r->object_count; ++i) {
        ledge_free((void *)r->objects[i].name);
        ledge_free((void *)r->objects[i].type);
        ledge_free((void *)r->objects[i].layer);
    }
    for (int i = 0; i < r->property_count; ++i) {
        ledge_free((void *)r->properties[i].name);
        ledge_free((void *)r->properties[i].string);
    }
    ledge_free(r->objects);
    ledge_free(r->properties);
    ledge_free(r->bodies);
    ledge_free(r->points);
    ledge_free(r);
}
