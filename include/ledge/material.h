/// @file material.h
/// Surface materials: the friction, bounce and surface speed of a surface,
/// and the one rule that mixes the two surfaces of a contact.
///
/// Overview
/// --------
///     ledge_material ice = ledge_default_material();
///     ice.friction = 0.0f;                               // everything slides on it
///     ledge_tilemap_set_cell_material(map, 4, 0, &ice);  // one cell
///     ledge_material belt = ledge_default_material();
///     belt.surface_speed = 2.0f;                         // carries toward +x on its top
///     ledge_tilemap_set_tile_material(map, LEDGE_TILE_HALF_U, &belt); // every HALF_U cell
///     ledge_body_set_surface_speed(world, platform, -1.5f);           // a body's surface
///
/// Every surface has a material: each tile id of a tilemap (with a sparse
/// override per cell), and each body (ledge_body_def.friction, bounce,
/// surface_speed and friction_mix). A contact uses the mix of its two
/// surfaces (ledge_mix_materials), and world.h's response answers it.
///
/// The mix, one rule for every pair of surfaces:
/// - **friction**: each material says how its friction mixes
///   (ledge_friction_mix), and the contact takes the stronger mode of the
///   two (MAX over MIN over MEAN): the geometric mean sqrt(fa fb) when both
///   say MEAN (bodies' default: Box2D's rule), the lower when one says MIN
///   (level surfaces' default: a tile of friction 1 leaves the body its own,
///   ice makes everything slide), the higher when one says MAX (a grippy
///   surface holds everything);
/// - **bounce**: the larger of the two (a bouncy pad bounces every body,
///   a bouncy ball bounces off every surface);
/// - **surface speed**: the sum. A surface with speed s moves along its
///   tangent (ny, -nx), n its outward normal: clockwise around the solid
///   in a y-up view (a floor carries toward +x, a ceiling toward -x, a
///   block's left face up and its right face down). In a y-down world (gravity
///   +y) that tangent runs counter-clockwise on screen: a floor with s > 0
///   carries toward -x, so negate the speeds a y-up level was drawn with.
///   Two belts facing each other (their tangents opposite) add up: the
///   contact's relative surface speed. This is Box2D v3's tangentSpeed.
///
/// What the response does with a contact's surface speed: N's split
/// v' = (1 - f) vt - b vn acts on the velocity relative to the moving
/// surface (v - s t for a tile, va - vb - s t for two bodies), so a body
/// on a belt is carried as by a platform moving at s, friction bringing
/// it to that speed (docs/tilemap.md, "Materials", gives the closed forms).
#ifndef LEDGE_MATERIAL_H
#define LEDGE_MATERIAL_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How a surface's friction mixes with the other surface's at a contact.
/// The contact uses the stronger mode of its two surfaces: MAX over MIN over
/// MEAN.
typedef enum ledge_friction_mix {
    /// The geometric mean sqrt(fa * fb) (Box2D's rule): the default of bodies.
    LEDGE_FRICTION_MIX_MEAN = 0,
    /// The lower of the two: the default of level surfaces (tiles), so that a
    /// tile of friction 1 leaves a body its own friction and an icy tile
    /// makes every body slide.
    LEDGE_FRICTION_MIX_MIN = 1,
    /// The higher of the two: a grippy surface holds every body.
    LEDGE_FRICTION_MIX_MAX = 2,
} ledge_friction_mix;

/// What a surface is made of. Fill with ledge_default_material.
typedef struct ledge_material {
    /// f, 0..1: the fraction of the tangential speed (relative to the
    /// surface) a contact removes each substep while a body moves into it
    /// (world.h, "The response"), before mixing.
    float friction;
    /// b, 0..1: the fraction of the normal speed a contact returns, before
    /// mixing.
    float bounce;
    /// Speed of the surface along its tangent (ny, -nx) of its outward
    /// normal n, world units per second, finite, within
    /// LEDGE_MAX_COORDINATE: a conveyor belt. 0 for a surface at rest.
    float surface_speed;
    /// How the friction mixes (ledge_friction_mix).
    ledge_friction_mix friction_mix;
} ledge_material;

/// The material of a level surface nothing was set for (what every tile
/// id has when a tilemap is made): friction 1 mixed by MIN, bounce 0,
/// speed 0. A contact against it uses the body's own friction and bounce.
LEDGE_API ledge_material ledge_default_material(void);

/// The material of a contact between surfaces a and b: friction by the
/// stronger mix mode (returned as that mode), bounce the larger, surface
/// speed the sum (see the file comment). Symmetric. NULL arguments are
/// refused (logged) and give the default material.
LEDGE_API ledge_material ledge_mix_materials(const ledge_material *a, const ledge_material *b);

/// Whether the material's numbers are in range (friction and bounce 0..1,
/// surface_speed finite within LEDGE_MAX_COORDINATE, friction_mix a
/// ledge_friction_mix). False (no message) for NULL.
LEDGE_API bool ledge_material_is_valid(const ledge_material *material);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_MATERIAL_H
