// Loads the Tiled sample level (samples/level.tmj, drawn for the demo) into
// a world, prints what it holds, then steps it for two seconds and says
// where the loose objects came to rest.
//     tiled_demo [path/to/map.tmj]
#include <ledge/ledge.h>
#include <ledge/tiled.h>

#include <stdio.h>

#ifndef LEDGE_SAMPLE_LEVEL
#define LEDGE_SAMPLE_LEVEL "samples/level.tmj"
#endif

static const char *const group_names[] = {
    "empty",           "full",          "45 degree",       "concave",       "convex",
    "22 degree small", "22 degree big", "67 degree small", "67 degree big", "half"};
static const char *const shape_names[] = {"point", "box", "circle", "polygon"};
static const char *const type_names[] = {"static", "kinematic", "dynamic"};

static void print_tiles(const ledge_tiled_result *r) {
    int groups[10] = {0};
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t)
        groups[ledge_tile_group_of((ledge_tile)t)] += r->tile_counts[t];
    printf("%d x %d cells; tiles per group:", r->width, r->height);
    for (int g = 1; g < 10; ++g) printf(" %s %d%s", group_names[g], groups[g], g < 9 ? "," : "\n");
}

static void print_objects(const ledge_tiled_result *r) {
    printf("%d objects, %d bodies:\n", r->object_count, r->body_count);
    for (int i = 0; i < r->object_count; ++i) {
        const ledge_tiled_object *o = &r->objects[i];
        printf("  %-12s %-8s %-9s %d bod%s at (%6.2f, %5.2f)%s%s\n", o->name, shape_names[o->shape],
               o->sensor ? "sensor" : type_names[o->body_type], o->body_count,
               o->body_count == 1 ? "y " : "ies", (double)o->position.x, (double)o->position.y,
               o->one_way ? "  one-way" : "", o->sensor ? "  (static, touches nothing)" : "");
    }
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : LEDGE_SAMPLE_LEVEL;
    ledge_tiled_def def = ledge_default_tiled_def();
    ledge_tiled_result *r = NULL;
    ledge_world *world = ledge_tiled_create_world_file(path, &def, &r);
    if (world == NULL) return 1;
    printf("loaded %s\n", path);
    print_tiles(r);
    print_objects(r);
    for (int i = 0; i < 120; ++i) ledge_world_step(world, 1.0f / 60.0f);
    printf("after 2 s:\n");
    for (int i = 0; i < r->object_count; ++i) {
        const ledge_tiled_object *o = &r->objects[i];
        if (o->body_count == 0 || o->body_type == LEDGE_BODY_STATIC) continue;
        vec2s p = ledge_body_position(world, r->bodies[o->first_body]);
        printf("  %-12s at (%6.2f, %5.2f)\n", o->name, (double)p.x, (double)p.y);
    }
    ledge_tiled_result_destroy(r);
    ledge_world_destroy(world);
    return 0;
}
