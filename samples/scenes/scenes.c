// The testbed's list of scenes (scene.h), in the order the lists show them:
// by category, as docs/samples.md shows them.
#include "scene.h"

extern const scene_def tower_scene, pyramid_scene, heavy_scene, bin_scene, platform_crates_scene,
    tile_groups_scene, slopes_scene, seams_scene, tile_edit_scene, chains_scene, materials_scene,
    character_scene, one_way_scene, moving_platforms_scene, riding_scene, steps_scene, crush_scene,
    push_scene, bullets_scene, no_tunnel_scene, ray_cast_scene, shape_cast_scene, nearest_scene,
    events_scene, level_scene, tiled_scene, ldtk_scene, rain_scene, rope_swing_scene,
    chain_bridge_scene, spring_board_scene, pulley_lift_scene, welded_cart_scene,
    wrecking_ball_scene;

const scene_def *const scene_list[] = {
    &tower_scene,
    &pyramid_scene,
    &heavy_scene,
    &bin_scene,
    &platform_crates_scene,
    &tile_groups_scene,
    &slopes_scene,
    &seams_scene,
    &tile_edit_scene,
    &chains_scene,
    &materials_scene,
    &character_scene,
    &one_way_scene,
    &moving_platforms_scene,
    &riding_scene,
    &steps_scene,
    &crush_scene,
    &push_scene,
    &rope_swing_scene,
    &chain_bridge_scene,
    &spring_board_scene,
    &pulley_lift_scene,
    &welded_cart_scene,
    &wrecking_ball_scene,
    &bullets_scene,
    &no_tunnel_scene,
    &ray_cast_scene,
    &shape_cast_scene,
    &nearest_scene,
    &events_scene,
    &level_scene,
#ifdef SCENES_HAVE_TILED
    &tiled_scene,
#endif
#ifdef SCENES_HAVE_LDTK
    &ldtk_scene,
#endif
    &rain_scene,
};

const int scene_count = (int)(sizeof scene_list / sizeof scene_list[0]);
