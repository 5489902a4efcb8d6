// The headers and the library from C++, through the CMake package.
#include <ledge/ledge.h>

#include <cstdio>

int main() {
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *world = ledge_world_create(&wd);
    ledge_body_def bd = ledge_default_body_def();
    vec2s centre;
    centre.raw[0] = 0.0f;
    centre.raw[1] = 0.0f;
    bd.shape = ledge_make_circle(centre, 0.5f);
    bd.position.raw[0] = 10.0f;
    bd.position.raw[1] = 10.0f;
    ledge_body_id id = ledge_body_create(world, &bd);
    ledge_world_step(world, 1.0f / 60.0f);
    bool ok = ledge_body_is_valid(world, id) && !ledge_body_is_valid(world, LEDGE_NULL_BODY_ID) &&
              ledge_body_position(world, id).raw[1] < 10.0f;
    ledge_world_destroy(world);
    std::printf("C++ through CMake: %s\n", ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
