// A loaded map's objects and their properties found by name
// (ledge_tiled_find_object, ledge_tiled_find_property): read-only lookups
// on a result, below both the loader's entry points (tiled.c) and the
// object layers (tiled_objects.c), which reads the properties it turns
// into bodies through them.
#include "ledge/tiled.h"

#include <string.h>

const ledge_tiled_object *ledge_tiled_find_object(const ledge_tiled_result *result,
                                                  const char *name) {
    if (result == NULL || name == NULL) return NULL;
    for (int i = 0; i < result->object_count; ++i) {
        if (strcmp(result->objects[i].name, name) == 0) return &result->objects[i];
    }
    return NULL;
}

const ledge_tiled_property *ledge_tiled_find_property(const ledge_tiled_result *result,
                                                      const ledge_tiled_object *object,
                                                      const char *name) {
    if (result == NULL || object == NULL || name == NULL) return NULL;
    for (int i = 0; i < object->property_count; ++i) {
        const ledge_tiled_property *p = &result->properties[object->first_property + i];
        if (p->name && strcmp(p->name, name) == 0) return p;
    }
    return NULL;
}
