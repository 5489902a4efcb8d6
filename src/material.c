// Surface materials (ledge/material.h): the default level material, the
// public mix, and the checks every setter of a material shares. The mix
// itself is inline in material.h, for the stages that record contacts.
#include "material.h"

#include "ledge/collision.h"

#include <stdio.h>
#include <string.h>

ledge_material ledge_default_material(void) {
    ledge_material m;
    memset(&m, 0, sizeof m);
    m.friction = 1.0f;
    m.bounce = 0.0f;
    m.surface_speed = 0.0f;
    m.friction_mix = LEDGE_FRICTION_MIX_MIN;
    return m;
}

ledge_material ledge_mix_materials(const ledge_material *a, const ledge_material *b) {
    if (a == NULL || b == NULL) {
        LEDGE_ERROR("ledge_mix_materials: %s is NULL", a == NULL ? "a" : "b");
        return ledge_default_material();
    }
    ledge_material m;
    memset(&m, 0, sizeof m);
    unsigned ma = (unsigned)a->friction_mix, mb = (unsigned)b->friction_mix;
    m.friction = ledge__mix_friction(a->friction, ma, b->friction, mb);
    m.bounce = ledge__mix_bounce(a->bounce, b->bounce);
    m.surface_speed = a->surface_speed + b->surface_speed;
    m.friction_mix = (ledge_friction_mix)(ma > mb ? ma : mb);
    return m;
}

bool ledge_material_is_valid(const ledge_material *m) {
    return m != NULL && m->friction >= 0.0f && m->friction <= 1.0f && m->bounce >= 0.0f &&
           m->bounce <= 1.0f && ledge__finite_within(m->surface_speed, LEDGE_MAX_COORDINATE) &&
           (unsigned)m->friction_mix <= (unsigned)LEDGE_FRICTION_MIX_MAX;
}

bool ledge__check_unit(const char *fn, const char *arg, float v) {
    if (v >= 0.0f && v <= 1.0f) return true;
    LEDGE_ERROR("%s: %s is %g (must be 0..1)", fn, arg, (double)v);
    return false;
}

bool ledge__check_speed(const char *fn, const char *arg, float v) {
    if (ledge__finite_within(v, LEDGE_MAX_COORDINATE)) return true;
    LEDGE_ERROR("%s: %s is %g (must be finite, |x| <= %g)", fn, arg, (double)v,
                (double)LEDGE_MAX_COORDINATE);
    return false;
}

bool ledge__check_friction_mix(const char *fn, const char *arg, int mix) {
    if (mix >= LEDGE_FRICTION_MIX_MEAN && mix <= LEDGE_FRICTION_MIX_MAX) return true;
    LEDGE_ERROR("%s: %s is %d (must be a ledge_friction_mix: 0 MEAN, 1 MIN, 2 MAX)", fn, arg, mix);
    return false;
}

bool ledge__check_material(const char *fn, const char *arg, const ledge_material *m) {
    if (m == NULL) {
        LEDGE_ERROR("%s: %s is NULL", fn, arg);
        return false;
    }
    char field[64];
    snprintf(field, sizeof field, "%s->friction", arg);
    if (!ledge__check_unit(fn, field, m->friction)) return false;
    snprintf(field, sizeof field, "%s->bounce", arg);
    if (!ledge__check_unit(fn, field, m->bounce)) return false;
    snprintf(field, sizeof field, "%s->surface_speed", arg);
    if (!ledge__check_speed(fn, field, m->surface_speed)) return false;
    snprintf(field, sizeof field, "%s->friction_mix", arg);
    return ledge__check_friction_mix(fn, field, (int)m->friction_mix);
}
