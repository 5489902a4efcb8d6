// Field instances: LDtk's {__identifier, __type, __value} into typed
// values. `__type` is "Int", "Float", "Bool", "String", "Multilines",
// "Color", "Point", "FilePath", "EntityRef", "Tile", "LocalEnum.X" or
// "ExternEnum.X", or "Array<...>" of one of them; a value may be null. A
// type this version does not know is kept without values (skipped, not
// refused: a newer LDtk may add one); a value of the wrong JSON type for a
// known type is refused, naming the field and its owner. A Point's world
// position needs the map's grid, so only its grid frame is kept here
// (point_px) and ldtk_place.c computes it.
#include "ldtk_fields.h"
#include "ldtk_json.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PX LEDGE_LDTK_MAX_PIXELS

/// The element type named `t` (no Array<>); enum name into *enum_name.
static ledge_ldtk_field_type type_of(const char *t, const char **enum_name) {
    static const char *const names[] = {"Int",        "Float",    "Bool",  "String",
                                        "Multilines", "Text",     "Color", "Point",
                                        "EntityRef",  "FilePath", "Tile"};
    static const ledge_ldtk_field_type types[] = {
        LEDGE_LDTK_FIELD_INT,       LEDGE_LDTK_FIELD_FLOAT,  LEDGE_LDTK_FIELD_BOOL,
        LEDGE_LDTK_FIELD_STRING,    LEDGE_LDTK_FIELD_STRING, LEDGE_LDTK_FIELD_STRING,
        LEDGE_LDTK_FIELD_COLOR,     LEDGE_LDTK_FIELD_POINT,  LEDGE_LDTK_FIELD_ENTITY_REF,
        LEDGE_LDTK_FIELD_FILE_PATH, LEDGE_LDTK_FIELD_TILE};
    *enum_name = "";
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
        if (strcmp(t, names[k]) == 0) return types[k];
    }
    if (strncmp(t, "LocalEnum.", 10) == 0) return *enum_name = t + 10, LEDGE_LDTK_FIELD_ENUM;
    if (strncmp(t, "ExternEnum.", 11) == 0) return *enum_name = t + 11, LEDGE_LDTK_FIELD_ENUM;
    return LEDGE_LDTK_FIELD_UNKNOWN;
}

/// "#rrggbb" as 0xRRGGBB, or -1.
static long long color_of(const char *s) {
    if (s[0] != '#' || strlen(s) != 7) return -1;
    long long v = 0;
    for (int i = 1; i < 7; ++i) {
        int ch = tolower((unsigned char)s[i]);
        int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/// A value of the wrong JSON type for its field.
static bool wrong(ledge__ldtk_ctx *c, const char *where, const char *field, const char *type,
                  const json_t *v) {
    char buf[48];
    return ledge__ldtk_fail(c, "%s: field '%.40s' of type %.40s has the value %s", where, field,
                            type, ledge__ldtk_describe(v, buf));
}

static bool str_value(ledge__ldtk_ctx *c, const char *s, const char **out) {
    *out = ledge__ldtk_strdup(c, s);
    return *out != NULL;
}

/// Reads one non-null JSON value `v` of type `t` into *out.
static bool read_value(ledge__ldtk_ctx *c, const char *where, const ledge_ldtk_field *f,
                       const json_t *v, ledge_ldtk_value *out) {
    char fw[200];
    snprintf(fw, sizeof fw, "%.120s, field '%.40s'", where, f->identifier);
    switch (f->type) {
    case LEDGE_LDTK_FIELD_INT:
        if (!json_is_integer(v)) return wrong(c, where, f->identifier, f->type_name, v);
        out->integer = (long long)json_integer_value(v);
        out->number = (double)out->integer;
        return true;
    case LEDGE_LDTK_FIELD_FLOAT:
        if (!json_is_number(v)) return wrong(c, where, f->identifier, f->type_name, v);
        out->number = json_number_value(v);
        return true;
    case LEDGE_LDTK_FIELD_BOOL:
        if (!json_is_boolean(v)) return wrong(c, where, f->identifier, f->type_name, v);
        out->boolean = json_is_true(v);
        out->integer = out->boolean;
        return true;
    case LEDGE_LDTK_FIELD_COLOR:
        if (!json_is_string(v) || color_of(json_string_value(v)) < 0) {
            if (json_is_string(v)) {
                return ledge__ldtk_fail(c, "%s: color \"%.20s\" must be #rrggbb", fw,
                                        json_string_value(v));
            }
            return wrong(c, where, f->identifier, f->type_name, v);
        }
        out->integer = color_of(json_string_value(v));
        return str_value(c, json_string_value(v), &out->string);
    case LEDGE_LDTK_FIELD_POINT: {
        long long cx, cy;
        if (!json_is_object(v)) return wrong(c, where, f->identifier, f->type_name, v);
        if (!ledge__ldtk_int(c, v, "cx", fw, true, -PX, PX, 0, &cx) ||
            !ledge__ldtk_int(c, v, "cy", fw, true, -PX, PX, 0, &cy)) {
            return false;
        }
        out->cx = (int)cx;
        out->cy = (int)cy;
        return true;
    }
    case LEDGE_LDTK_FIELD_ENTITY_REF: {
        const char *e, *l, *lv, *w;
        if (!json_is_object(v)) return wrong(c, where, f->identifier, f->type_name, v);
        return ledge__ldtk_str(c, v, "entityIid", fw, true, NULL, &e) &&
               ledge__ldtk_str(c, v, "layerIid", fw, false, "", &l) &&
               ledge__ldtk_str(c, v, "levelIid", fw, false, "", &lv) &&
               ledge__ldtk_str(c, v, "worldIid", fw, false, "", &w) &&
               str_value(c, e, &out->string) && str_value(c, l, &out->layer) &&
               str_value(c, lv, &out->level) && str_value(c, w, &out->world);
    }
    case LEDGE_LDTK_FIELD_TILE: {
        long long uid, x, y, w, h;
        if (!json_is_object(v)) return wrong(c, where, f->identifier, f->type_name, v);
        if (!ledge__ldtk_int(c, v, "tilesetUid", fw, true, INT32_MIN, INT32_MAX, 0, &uid) ||
            !ledge__ldtk_int(c, v, "x", fw, true, 0, PX, 0, &x) ||
            !ledge__ldtk_int(c, v, "y", fw, true, 0, PX, 0, &y) ||
            !ledge__ldtk_int(c, v, "w", fw, true, 0, PX, 0, &w) ||
            !ledge__ldtk_int(c, v, "h", fw, true, 0, PX, 0, &h)) {
            return false;
        }
        out->tileset_uid = (int)uid;
        out->x = (int)x;
        out->y = (int)y;
        out->w = (int)w;
        out->h = (int)h;
        return true;
    }
    default: // STRING, ENUM, FILE_PATH
        if (!json_is_string(v)) return wrong(c, where, f->identifier, f->type_name, v);
        return str_value(c, json_string_value(v), &out->string);
    }
}

/// Appends one value (null or of the field's type) to the result.
static bool add_value(ledge__ldtk_ctx *c, const char *where, ledge_ldtk_field *f, const json_t *v,
                      const ledge__ldtk_grid_frame *frame) {
    ledge_ldtk_result *r = c->result;
    if (r->value_count >= LEDGE_LDTK_MAX_VALUES) {
        return ledge__ldtk_fail(c, "%s: the load has more than %d field values", where,
                                LEDGE_LDTK_MAX_VALUES);
    }
    if (!ledge__ldtk_reserve(c, (void **)&r->values, &c->value_cap, r->value_count + 1,
                             sizeof *r->values) ||
        !ledge__ldtk_reserve(c, (void **)&c->point_px, &c->point_cap, r->value_count + 1,
                             sizeof *c->point_px)) {
        return false;
    }
    ledge__ldtk_point_px *p = &c->point_px[r->value_count];
    ledge_ldtk_value *out = &r->values[r->value_count++];
    memset(out, 0, sizeof *out);
    out->entity = -1;
    out->string = out->layer = out->level = out->world = ledge__ldtk_empty;
    p->grid = frame->grid;
    p->ox = frame->ox;
    p->oy = frame->oy;
    p->level = frame->level;
    f->value_count++;
    out->is_null = v == NULL || json_is_null(v);
    return out->is_null || read_value(c, where, f, v, out);
}

/// Reads one field instance into the result.
static bool read_field(ledge__ldtk_ctx *c, const json_t *j, const char *where,
                       const ledge__ldtk_grid_frame *frame) {
    ledge_ldtk_result *r = c->result;
    const char *id, *type;
    char fw[200];
    if (!ledge__ldtk_str(c, j, "__identifier", where, true, NULL, &id)) return false;
    snprintf(fw, sizeof fw, "%.120s, field '%.40s'", where, id);
    if (!ledge__ldtk_str(c, j, "__type", fw, true, NULL, &type) ||
        !ledge__ldtk_reserve(c, (void **)&r->fields, &c->field_cap, r->field_count + 1,
                             sizeof *r->fields)) {
        return false;
    }
    ledge_ldtk_field *f = &r->fields[r->field_count++];
    memset(f, 0, sizeof *f);
    f->identifier = f->type_name = f->enum_name = ledge__ldtk_empty;
    f->first_value = r->value_count;
    char inner[128];
    size_t n = strlen(type);
    f->is_array = n > 7 && strncmp(type, "Array<", 6) == 0 && type[n - 1] == '>';
    snprintf(inner, sizeof inner, "%.*s", f->is_array ? (int)(n - 7) : (int)n,
             f->is_array ? type + 6 : type);
    const char *enum_name;
    f->type = type_of(inner, &enum_name);
    f->identifier = ledge__ldtk_strdup(c, id);
    f->type_name = ledge__ldtk_strdup(c, type);
    f->enum_name = ledge__ldtk_strdup(c, enum_name);
    if (!f->identifier || !f->type_name || !f->enum_name) return false;
    const json_t *v = json_object_get(j, "__value");
    if (f->type == LEDGE_LDTK_FIELD_UNKNOWN) return true; // a newer type: kept, no values
    if (!f->is_array) return add_value(c, where, f, v, frame);
    if (v != NULL && !json_is_null(v) && !json_is_array(v)) {
        return wrong(c, where, id, type, v);
    }
    for (size_t i = 0; i < json_array_size(v); ++i) {
        if (!add_value(c, where, f, json_array_get(v, i), frame)) return false;
    }
    return true;
}

bool ledge__ldtk_read_fields(ledge__ldtk_ctx *c, const json_t *owner, const char *where,
                             const ledge__ldtk_grid_frame *frame, int *first, int *count) {
    const json_t *list;
    *first = c->result->field_count;
    *count = 0;
    if (!ledge__ldtk_array(c, owner, "fieldInstances", where, false, &list)) return false;
    for (size_t i = 0; i < json_array_size(list); ++i) {
        if (!read_field(c, json_array_get(list, i), where, frame)) return false;
        *count += 1;
    }
    return true;
}

const ledge_ldtk_field *ledge__ldtk_field_named(const ledge_ldtk_result *r, int first, int count,
                                                const char *name) {
    for (int i = 0; i < count; ++i) {
        const ledge_ldtk_field *f = &r->fields[first + i];
        if (ledge__ldtk_same_name(f->identifier, name)) return f;
    }
    return NULL;
}

void ledge__ldtk_free_fields(ledge_ldtk_result *r) {
    for (int i = 0; i < r->field_count; ++i) {
        ledge__ldtk_free_string(r->fields[i].identifier);
        ledge__ldtk_free_string(r->fields[i].type_name);
        ledge__ldtk_free_string(r->fields[i].enum_name);
    }
    for (int i = 0; i < r->value_count; ++i) {
        ledge__ldtk_free_string(r->values[i].string);
        ledge__ldtk_free_string(r->values[i].layer);
        ledge__ldtk_free_string(r->values[i].level);
        ledge__ldtk_free_string(r->values[i].world);
    }
    ledge_free(r->fields);
    ledge_free(r->values);
}
