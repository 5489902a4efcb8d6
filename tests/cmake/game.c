// Steps a world: a ball dropped on a floor of tiles comes to rest on it.
// Prints "ball rests at y = 1.4 (hash ...)" and exits 0 when it does.
#include <ledge/ledge.h>

#include <math.h>
#include <stdio.h>

int main(void) {
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 8;
    wd.map_height = 8;
    ledge_world *world = ledge_world_create(&wd);
    if (!world) return 1;
    for (int x = 0; x < 8; ++x)
        ledge_tilemap_set(ledge_world_tilemap(world), x, 0, LEDGE_TILE_FULL);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.4f);
    bd.position = (vec2s){{3.5f, 5.0f}};
    ledge_body_id ball = ledge_body_create(world, &bd);
    for (int i = 0; i < 180; ++i) ledge_world_step(world, 1.0f / 60.0f);
    vec2s p = ledge_body_position(world, ball);
    unsigned long long hash = (unsigned long long)ledge_world_hash(world);
    ledge_world_destroy(world);
    // The floor's top is y = 1; the ball's centre rests one radius above,
    // less the contact slop.
    int ok = fabsf(p.y - 1.4f) < 0.01f && fabsf(p.x - 3.5f) < 1e-4f;
    printf("ball rests at y = %.3f (hash %016llx): %s\n", p.y, hash, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
