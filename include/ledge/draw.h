/// @file draw.h
/// Debug draw: the world's tiles, bodies and contacts through callbacks of
/// yours, so that a game can see the physics in its own renderer.
///
/// Overview
/// --------
///     ledge_debug_draw dd = ledge_default_debug_draw();
///     dd.draw_polygon = my_polygon;         // any callback may stay NULL
///     dd.draw_solid_circle = my_circle;
///     dd.context = my_renderer;
///     ledge_world_draw(world, &dd, camera_box);
///
/// What is drawn, in this order:
/// - tiles (`draw_tiles`): every non-empty map cell overlapping the region,
///   row-major, as a closed outline through `draw_polygon` from
///   ledge_tile_outline_get; an arc edge (CONVEX, CONCAVE) is flattened into
///   LEDGE_DRAW_ARC_SEGMENTS segments, so a CONCAVE outline is not convex;
///   colour LEDGE_COLOR_TILE, or with `draw_materials` LEDGE_COLOR_MATERIAL
///   for a cell whose material (material.h) is not the default;
/// - belts (`draw_materials`): after each tile whose surface moves, an
///   arrow through `draw_segment` at the middle of each outline edge that
///   is a surface (not an internal seam), along the direction the surface
///   moves (material.h's tangent times the speed's sign), half a tile long,
///   colour LEDGE_COLOR_BELT; likewise after each drawn body whose surface
///   moves, at the middle of each edge (four points around a circle);
/// - chains (`draw_chains`): every chain segment whose box overlaps the
///   region, by chain index and in each chain's order, through
///   `draw_segment` (LEDGE_COLOR_CHAIN; kinematic chains
///   LEDGE_COLOR_KINEMATIC; with `draw_materials` LEDGE_COLOR_MATERIAL for
///   a chain whose material is not the default), and with `draw_normals` a
///   tick of half `normal_length` from each segment's middle along its
///   surface's normal (the side bodies meet); with `draw_materials` a belt
///   chain's arrow (LEDGE_COLOR_BELT, as long as a third of the segment, at
///   most `normal_length`) at each segment's middle;
/// - bodies (`draw_bodies`): every body whose bounding box overlaps the
///   region, in body index order: circles through `draw_solid_circle`,
///   boxes and polygons through `draw_solid_polygon` (convex, world
///   coordinates), coloured by type (LEDGE_COLOR_STATIC, _KINEMATIC,
///   _DYNAMIC; bullets LEDGE_COLOR_BULLET);
/// - bounds (`draw_bounds`): each drawn body's bounding box and the map's
///   border, through `draw_polygon`, colour LEDGE_COLOR_BOUNDS;
/// - joints (`draw_joints`): every joint with an anchor in the region, in
///   joint index order: a segment from anchor a to anchor b (a pulley's
///   through its two ground points; a slider's axis through anchor a, over
///   its limits when it has them, else a unit either way), LEDGE_COLOR_JOINT
///   (a spring LEDGE_COLOR_SPRING, a rope not taut LEDGE_COLOR_SLACK), and
///   each anchor as a point (`draw_point`, LEDGE_COLOR_ANCHOR);
/// - contacts (`draw_contacts`): the contacts of the last step's last
///   substep, each at its contact point (`draw_point`, LEDGE_COLOR_CONTACT;
///   midway between the two surfaces). With `draw_normals` a segment of
///   `normal_length` along the normal follows (LEDGE_COLOR_NORMAL). Only
///   contacts whose point lies in the region are drawn.
#ifndef LEDGE_DRAW_H
#define LEDGE_DRAW_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A colour packed as 0xRRGGBB.
typedef uint32_t ledge_color;

#define LEDGE_COLOR_TILE      0x9A9A9Au ///< Tile outlines (grey).
#define LEDGE_COLOR_STATIC    0x80E080u ///< Static bodies (green).
#define LEDGE_COLOR_KINEMATIC 0x8080E6u ///< Kinematic bodies (blue).
#define LEDGE_COLOR_DYNAMIC   0xE6B366u ///< Dynamic bodies (orange).
#define LEDGE_COLOR_BULLET    0xE64D4Du ///< Dynamic bodies flagged bullet (red).
#define LEDGE_COLOR_BOUNDS    0xE6E64Du ///< Bounding boxes and the map border (yellow).
#define LEDGE_COLOR_CONTACT   0xFF4DFFu ///< Contact points (magenta).
#define LEDGE_COLOR_NORMAL    0x4DFFFFu ///< Contact normals (cyan).
#define LEDGE_COLOR_CHAIN     0xC8C8C8u ///< Static chains (light grey).
#define LEDGE_COLOR_JOINT     0xD9D9D9u ///< Rods, ropes, welds, sliders, pulleys (light grey).
#define LEDGE_COLOR_SPRING    0xB380E6u ///< Springs (violet).
#define LEDGE_COLOR_SLACK     0x6B6B6Bu ///< Ropes shorter than their length (dark grey).
#define LEDGE_COLOR_ANCHOR    0xFFFFFFu ///< Joint anchors (white).
#define LEDGE_COLOR_MATERIAL                                                                       \
    0x80B3FFu ///< Tiles and chains whose material is not the default (light blue).
#define LEDGE_COLOR_BELT 0xB3FF4Du ///< The direction a moving surface carries (lime).

/// Segments an arc edge of a round tile is drawn with.
#define LEDGE_DRAW_ARC_SEGMENTS 8

/// The callbacks and what to draw. Fill with ledge_default_debug_draw;
/// a NULL callback skips what it would draw.
typedef struct ledge_debug_draw {
    /// A closed outline (may be non-convex for CONCAVE tiles).
    void (*draw_polygon)(const vec2s *vertices, int count, ledge_color color, void *context);
    /// A filled convex polygon, counter-clockwise.
    void (*draw_solid_polygon)(const vec2s *vertices, int count, ledge_color color, void *context);
    /// A circle outline (unused by ledge_world_draw today; for the game's own use).
    void (*draw_circle)(vec2s center, float radius, ledge_color color, void *context);
    /// A filled circle.
    void (*draw_solid_circle)(vec2s center, float radius, ledge_color color, void *context);
    /// A line segment.
    void (*draw_segment)(vec2s p1, vec2s p2, ledge_color color, void *context);
    /// A point of `size` pixels.
    void (*draw_point)(vec2s p, float size, ledge_color color, void *context);
    void *context;       ///< Passed to every callback.
    float normal_length; ///< Length of a drawn contact normal (world units). Default 0.5.
    bool draw_tiles;     ///< Default true.
    bool draw_bodies;    ///< Default true.
    bool draw_contacts;  ///< Default true.
    bool draw_normals;   ///< Default true.
    bool draw_bounds;    ///< Body bounding boxes and the map border. Default false.
    bool draw_joints;    ///< Joints: their segments and anchors. Default true.
    bool draw_materials; ///< Tiles with a material of their own, belts' directions. Default true.
    bool draw_chains;    ///< Chain segments (chain.h). Default true.
} ledge_debug_draw;

/// No callbacks; tiles, chains, bodies, joints, contacts, normals and
/// materials on, bounds off.
LEDGE_API ledge_debug_draw ledge_default_debug_draw(void);

/// Draws what `draw` asks for inside `region` (see the file comment).
/// Refused (logged, nothing drawn) for a NULL world or draw, a region that
/// is non-finite or has lower > upper, a non-finite or negative
/// normal_length, and while the world is stepping.
LEDGE_API void ledge_world_draw(ledge_world *world, const ledge_debug_draw *draw,
                                ledge_aabb region);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_DRAW_H
