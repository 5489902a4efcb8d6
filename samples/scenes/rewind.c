// The testbed's rewind ring (rewind.h).
#include "rewind.h"

#include <stdlib.h>
#include <string.h>

static bool frames_made(rewind_ring *r, size_t state_size) {
    if (r->frames != NULL) return true;
    r->frames = calloc(REWIND_FRAMES, sizeof *r->frames);
    if (r->frames == NULL) return false;
    for (int k = 0; k < REWIND_FRAMES; ++k) {
        r->frames[k].state = calloc(1, state_size ? state_size : 1);
        if (r->frames[k].state == NULL) {
            rewind_free(r);
            return false;
        }
    }
    return true;
}

bool rewind_push(rewind_ring *r, const scene *s) {
    size_t state_size = s->def->state_size;
    if (r->world != s->world) { // a new world: the frames kept are of another
        rewind_free(r);
        r->world = s->world;
    }
    if (!frames_made(r, state_size)) return false;
    size_t need = ledge_world_snapshot_size(s->world);
    int most = need > 0 && REWIND_BYTES / need < REWIND_FRAMES ? (int)(REWIND_BYTES / need)
                                                               : REWIND_FRAMES;
    if (most < 2) { // too large to keep two frames: no rewind for it
        r->count = 0;
        return false;
    }
    if (r->count >= most) r->count = most - 1; // the oldest go
    int at = (r->newest + 1) % REWIND_FRAMES;
    rewind_frame *f = &r->frames[at];
    if (need > f->cap) {
        unsigned char *grown = realloc(f->bytes, need + need / 4);
        if (grown == NULL) {
            r->count = 0;
            return false;
        }
        f->bytes = grown;
        f->cap = need + need / 4;
    }
    f->size = ledge_world_save(s->world, f->bytes, f->cap);
    if (f->size == 0) {
        r->count = 0;
        return false;
    }
    memcpy(f->state, s->state, state_size);
    f->frame = s->frame;
    r->newest = at;
    r->count++;
    return true;
}

bool rewind_back(rewind_ring *r, scene *s) {
    if (r->count < 2 || r->world != s->world) return false;
    int before = (r->newest + REWIND_FRAMES - 1) % REWIND_FRAMES;
    const rewind_frame *f = &r->frames[before];
    if (!ledge_world_restore(s->world, f->bytes, f->size)) return false;
    memcpy(s->state, f->state, s->def->state_size);
    s->frame = f->frame;
    r->newest = before;
    r->count--;
    return true;
}

void rewind_clear(rewind_ring *r) {
    r->count = 0;
    r->world = NULL;
}

void rewind_free(rewind_ring *r) {
    for (int k = 0; r->frames != NULL && k < REWIND_FRAMES; ++k) {
        free(r->frames[k].bytes);
        free(r->frames[k].state);
    }
    free(r->frames);
    memset(r, 0, sizeof *r);
}
