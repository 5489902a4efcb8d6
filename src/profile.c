// The step's profile for the game: wall-clock milliseconds per stage of the
// last step (include/ledge/profile.h). The stages are marked by the step
// itself (world.c's stage_mark); this file turns the profile on and off,
// keeps each step's times apart from the running totals the benchmark
// reads, and owns the wall clock.
#define _POSIX_C_SOURCE 200809L // clock_gettime and CLOCK_MONOTONIC

#include "world_state.h"

#include "ledge/profile.h"

#include <string.h>
#include <time.h>

void ledge__profile_begin(ledge__profile *p) {
    if (!p->wall) return;
    p->step_start = ledge__wall_seconds();
    memcpy(p->start, p->total, sizeof p->start);
}

void ledge__profile_end(ledge__profile *p) {
    if (!p->wall) return;
    p->last_step = (float)(1e3 * (ledge__wall_seconds() - p->step_start));
    for (int k = 0; k < LEDGE__STAGE_COUNT; ++k)
        p->last[k] = (float)(1e3 * (p->total[k] - p->start[k]));
}

void ledge_world_enable_profile(ledge_world *world, bool enable) {
    if (world == NULL) {
        LEDGE_ERROR("ledge_world_enable_profile: world is NULL");
        return;
    }
    if (world->stepping) {
        LEDGE_ERROR("ledge_world_enable_profile: the world is stepping");
        return;
    }
    ledge__profile *p = &world->par.profile;
    if (enable && !p->wall) { // a fresh profile: nothing measured yet
        p->last_step = 0.0f;
        memset(p->last, 0, sizeof p->last);
    }
    p->on = enable;
    p->wall = enable;
}

ledge_profile ledge_world_profile(const ledge_world *world) {
    ledge_profile out;
    memset(&out, 0, sizeof out);
    if (world == NULL) {
        LEDGE_ERROR("ledge_world_profile: world is NULL");
        return out;
    }
    const ledge__profile *p = &world->par.profile;
    const float *ms = p->last;
    out.step = p->last_step;
    out.integrate = ms[LEDGE__STAGE_INTEGRATE];
    out.move = ms[LEDGE__STAGE_MOVE];
    out.grid = ms[LEDGE__STAGE_GRID];
    out.pairs = ms[LEDGE__STAGE_PAIRS];
    out.relax = ms[LEDGE__STAGE_RELAX];
    out.sort = ms[LEDGE__STAGE_SORT];
    out.response = ms[LEDGE__STAGE_RESPONSE];
    out.check = ms[LEDGE__STAGE_CHECK];
    out.events = ms[LEDGE__STAGE_EVENTS];
    out.sleep = ms[LEDGE__STAGE_SLEEP];
    return out;
}
