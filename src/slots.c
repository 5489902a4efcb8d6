// Ids and slots (slots.h): an id checked and turned into its body's slot.
#include "slots.h"

int ledge__world_slot(const ledge_world *world, ledge_body_id id, const char *fn) {
    if (world == NULL) {
        LEDGE_ERROR("%s: world is NULL", fn);
        return -1;
    }
    if (id.index1 != 0 && id.world != world->serial) {
        LEDGE_ERROR("%s: body id {%u, %u} is not a body of this world (made by world %u, "
                    "this is world %u)",
                    fn, id.index1, id.generation, id.world, world->serial);
        return -1;
    }
    int slot = ledge__slot_of(world, id);
    if (slot < 0) {
        LEDGE_ERROR("%s: body id {%u, %u} is not a body of this world", fn, id.index1,
                    id.generation);
        return -1;
    }
    if (!world->alive[slot] || world->generation[slot] != id.generation) {
        LEDGE_ERROR("%s: body id {%u, %u} is stale (the body was destroyed)", fn, id.index1,
                    id.generation);
        return -1;
    }
    return slot;
}
