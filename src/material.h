// Surface materials (material.c, ledge/material.h): the one rule that mixes
// the two surfaces of a contact, inline for the stages that record
// contacts, and the check of a material the setters share.
#ifndef LEDGE_MATERIAL_INTERNAL_H
#define LEDGE_MATERIAL_INTERNAL_H

#include "core.h"

#include "ledge/material.h"

/// The friction of a contact between a surface of friction fa mixed by
/// mode ma and one of fb mixed by mb (ledge_friction_mix): the stronger
/// mode decides (MAX over MIN over MEAN). On a tie of MIN or MAX the
/// second surface's value is kept bit for bit, so a body passed second
/// against a tile of friction 1 mixed by MIN keeps its own friction.
static inline float ledge__mix_friction(float fa, unsigned ma, float fb, unsigned mb) {
    unsigned mode = ma > mb ? ma : mb;
    if (LEDGE_UNLIKELY(mode == LEDGE_FRICTION_MIX_MAX)) return maxf(fa, fb);
    if (mode == LEDGE_FRICTION_MIX_MIN) return minf(fa, fb);
    return sqrtf(fa * fb);
}

/// The bounce of a contact: the larger (the second's on a tie).
static inline float ledge__mix_bounce(float ba, float bb) {
    return maxf(ba, bb);
}

/// Whether `m` is a valid material; else false and one logged sentence
/// "<fn>: <arg>.<field> is <value> (...)" (NULL named as such).
bool ledge__check_material(const char *fn, const char *arg, const ledge_material *m);

/// A unit-interval material number (friction, bounce), logged as
/// "<fn>: <arg> is <value> (must be 0..1)".
bool ledge__check_unit(const char *fn, const char *arg, float v);

/// A surface speed: finite, |v| <= LEDGE_MAX_COORDINATE.
bool ledge__check_speed(const char *fn, const char *arg, float v);

/// A ledge_friction_mix value.
bool ledge__check_friction_mix(const char *fn, const char *arg, int mix);

#endif // LEDGE_MATERIAL_INTERNAL_H
