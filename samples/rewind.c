// The sample game's rewind ring (rewind.h).
#include "rewind.h"

#include <stdlib.h>
#include <string.h>

bool rewind_init(rewind_ring *r) {
    memset(r, 0, sizeof *r);
    r->frames = calloc(REWIND_FRAMES, sizeof *r->frames);
    return r->frames != NULL;
}

bool rewind_push(rewind_ring *r, const game *g) {
    int at = (r->newest + 1) % REWIND_FRAMES;
    rewind_frame *f = &r->frames[at];
    size_t need = ledge_world_snapshot_size(g->world);
    if (need > f->cap) {
        unsigned char *grown = realloc(f->bytes, need + need / 4);
        if (grown == NULL) return false;
        f->bytes = grown;
        f->cap = need + need / 4;
    }
    f->size = ledge_world_save(g->world, f->bytes, f->cap);
    if (f->size == 0) return false;
    f->state = *g;
    r->newest = at;
    if (r->count < REWIND_FRAMES) r->count++;
    return true;
}

bool rewind_back(rewind_ring *r, game *g) {
    if (r->count < 2) return false;
    int before = (r->newest + REWIND_FRAMES - 1) % REWIND_FRAMES;
    const rewind_frame *f = &r->frames[before];
    if (!ledge_world_restore(g->world, f->bytes, f->size)) return false;
    ledge_world *world = g->world;
    double spent = g->step_seconds;
    *g = f->state;
    g->world = world;
    g->step_seconds = spent;
    r->newest = before;
    r->count--;
    return true;
}

void rewind_clear(rewind_ring *r) {
    r->count = 0;
}

void rewind_free(rewind_ring *r) {
    for (int k = 0; r->frames != NULL && k < REWIND_FRAMES; ++k) free(r->frames[k].bytes);
    free(r->frames);
    memset(r, 0, sizeof *r);
}
