// The README's main job until the platformer demo exists: collide a few
// shapes the way a platformer meets them and print what ledge reports.
#include <ledge/ledge.h>

#include <stdio.h>

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static void show(const char *what, const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    ledge_manifold m = ledge_collide(a, pa, b, pb);
    printf("%-44s ", what);
    if (!m.hit) {
        printf("no contact\n");
        return;
    }
    printf("hit  normal (%+.3f, %+.3f)  depth %.4f  points", (double)m.normal.x, (double)m.normal.y,
           (double)m.depth);
    for (int i = 0; i < m.point_count; ++i) {
        printf(" (%.3f, %.3f)", (double)m.points[i].x, (double)m.points[i].y);
    }
    printf("\n");
}

// A small level in ledge's ASCII form (docs/tilemap.md), y up: a floor of
// FULL tiles, a 45 degree ramp, half tiles and a wall.
static const char *const level = "..........\n"
                                 "........#.\n"
                                 "....../##.\n"
                                 "..__./###.\n"
                                 "##########\n";

static void tile_level(void) {
    ledge_tilemap_def def = ledge_default_tilemap_def();
    def.width = 10;
    def.height = 5;
    ledge_tilemap *map = ledge_tilemap_create(&def);
    if (map == NULL || !ledge_tilemap_load_ascii(map, level)) return;
    printf("\na 10 x 5 tile level:\n%s", level);

    // The wall probe: is there a wall 0.05 to the right of a character's knee?
    vec2s knee = v(7.98f, 3.3f), probe = v(knee.x + 0.05f, knee.y);
    ledge_tile_hit hit;
    bool wall = ledge_tilemap_query_point(map, probe, &hit);
    printf("wall probe at (%.2f, %.2f): %s", (double)probe.x, (double)probe.y,
           wall ? "solid" : "free");
    if (wall) printf(" (cell %d,%d, %s)", hit.x, hit.y, ledge_tile_name(hit.tile));
    printf("\n");

    // Where does a bullet fired down-right from the air land?
    ledge_ray_hit ray;
    if (ledge_tilemap_raycast(map, v(3.2f, 4.5f), v(4, -3), &ray)) {
        printf("ray from (3.2, 4.5) hits cell %d,%d (%s) at (%.3f, %.3f), normal (%+.3f, %+.3f)\n",
               ray.cell_x, ray.cell_y, ledge_tile_name((ledge_tile)ray.tile), (double)ray.point.x,
               (double)ray.point.y, (double)ray.normal.x, (double)ray.normal.y);
    }

    // A box sunk 0.02 into the floor right over the seam between two FULL
    // tiles: both contacts push straight up (edge states), none sideways.
    ledge_shape box = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    ledge_tile_contact c[8];
    int n = ledge_tilemap_collide(map, &box, v(1.0f, 1.43f), c, 8);
    for (int i = 0; i < n && i < 8; ++i) {
        printf("box over the seam: cell %d,%d normal (%+.3f, %+.3f) depth %.4f\n", c[i].x, c[i].y,
               (double)c[i].manifold.normal.x, (double)c[i].manifold.normal.y,
               (double)c[i].manifold.depth);
    }
    ledge_tilemap_destroy(map);
}

int main(void) {
    printf("ledge %s: shape vs shape manifolds (normal points from a to b;\n"
           "moving b by normal * depth separates the pair)\n\n",
           ledge_version_string());

    ledge_shape player = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    ledge_shape ground = ledge_make_box(v(0, 0), v(4.0f, 0.5f));
    ledge_shape ball = ledge_make_circle(v(0, 0), 0.4f);
    vec2s ramp_pts[3] = {v(0, 0), v(2, 0), v(2, 2)}; // a 45 degree ramp rising to the right
    ledge_shape ramp;
    ledge_make_polygon(ramp_pts, 3, &ramp);
    vec2s gem_pts[8];
    for (int i = 0; i < 8; ++i) { // an octagon
        static const float c[8] = {1, 0.7071f, 0, -0.7071f, -1, -0.7071f, 0, 0.7071f};
        gem_pts[i] = v(c[i] * 0.5f, c[(i + 2) % 8] * 0.5f);
    }
    ledge_shape gem;
    ledge_make_polygon(gem_pts, 8, &gem);

    show("ground vs player sunk 0.05 into it", &ground, v(0, 0), &player, v(1, 0.9f));
    show("ground vs player standing just above", &ground, v(0, 0), &player, v(1, 0.96f));
    show("player vs ball at its right shoulder", &player, v(0, 0), &ball, v(0.6f, 0.6f));
    show("ramp vs ball resting on the slope", &ramp, v(0, 0), &ball, v(1.2f, 1.05f));
    show("ramp vs player (box) on the slope", &ramp, v(0, 0), &player, v(1.2f, 1.2f));
    show("octagon vs octagon, overlapping", &gem, v(0, 0), &gem, v(0.8f, 0.3f));
    show("ground contains a small ball (containment)", &ground, v(0, 0), &ball, v(3.0f, -0.05f));

    tile_level();

    vec2s l_pts[6] = {v(0, 0), v(3, 0), v(3, 1), v(1, 1), v(1, 3), v(0, 3)};
    ledge_shape pieces[4];
    int n = ledge_decompose(l_pts, 6, pieces, 4);
    printf("\nan L-shaped wall decomposes into %d convex piece(s)\n", n);

    ledge_toi toi;
    if (ledge_sweep_circles(v(0, 0), 0.05f, v(5, 0), v(2.5f, 0), 0.4f, v(0, 0), &toi)) {
        printf("a bullet moving 5 units hits a ball 2.5 away at fraction %.4f\n",
               (double)toi.fraction);
    }
    return 0;
}
