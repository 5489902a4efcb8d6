// The step's collision stages: body pairs from the loose grid and bodies
// against the tilemap, each overlap projected out at once (Gauss-Seidel, in a
// fixed order) followed by N's response, and the velocity pass that replays
// the last substep's contacts.
//
// N's response: split the velocity at a contact into its normal part
// vn = (v.n) n and its tangential part vt = v - vn; only when the body moves
// into the surface (v.n < 0) it becomes (1 - friction) vt - bounce vn, with
// no bounce below the world's bounce threshold. Between two bodies the same
// rule acts on their relative velocity, and the change is shared by inverse
// mass. Projection moves bodies by the depth less the slop, shared by
// inverse mass; kinematic and static bodies have none and never move.
#include "world.h"

#include "tilemap.h"

#include <string.h>

// --- contacts ---------------------------------------------------------------

static void record(ledge_world *w, int a, int b, vec2s n, float friction, float bounce) {
    if (w->contact_count == w->contact_cap) {
        int want = w->contact_cap < 64 ? 64 : w->contact_cap * 2;
        ledge__contact *fresh = ledge__alloc(sizeof *fresh * (size_t)want);
        if (fresh == NULL) return; // the contact still resolved; only its replay is lost
        if (w->contact_count) memcpy(fresh, w->contacts, sizeof *fresh * (size_t)w->contact_count);
        ledge__free(w->contacts);
        w->contacts = fresh;
        w->contact_cap = want;
    }
    w->contacts[w->contact_count++] = (ledge__contact){a, b, n, friction, bounce};
}

// The relative velocity after N's response along unit normal n (pointing
// toward the body whose velocity this is relative to the surface).
static vec2s respond(vec2s v, vec2s n, float friction, float bounce, float threshold) {
    float vn = v2_dot(v, n);
    if (!(vn < 0.0f)) return v;
    vec2s vt = v2_sub(v, v2_scale(n, vn));
    float out = -vn > threshold ? -bounce * vn : 0.0f;
    return v2_add(v2_scale(vt, 1.0f - friction), v2_scale(n, out));
}

static void respond_tile(ledge_world *w, int a, vec2s n, float friction, float bounce) {
    w->velocity[a] = respond(w->velocity[a], n, friction, bounce, w->bounce_threshold);
}

// Body a against body b, n pointing from b toward a.
static void respond_pair(ledge_world *w, int a, int b, vec2s n, float friction, float bounce) {
    float ima = w->inv_mass[a], imb = w->inv_mass[b], sum = ima + imb;
    if (sum <= 0.0f) return;
    vec2s rel = v2_sub(w->velocity[a], w->velocity[b]);
    vec2s change = v2_sub(respond(rel, n, friction, bounce, w->bounce_threshold), rel);
    w->velocity[a] = v2_add(w->velocity[a], v2_scale(change, ima / sum));
    w->velocity[b] = v2_sub(w->velocity[b], v2_scale(change, imb / sum));
}

void ledge__apply_contacts(ledge_world *w) {
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        if (!w->alive[c->a] || (c->b >= 0 && !w->alive[c->b])) continue;
        if (c->b < 0) {
            respond_tile(w, c->a, c->normal, c->friction, c->bounce);
        } else {
            respond_pair(w, c->a, c->b, c->normal, c->friction, c->bounce);
        }
    }
}

// --- body pairs -------------------------------------------------------------

static bool filters_allow(const ledge_filter *a, const ledge_filter *b) {
    if (a->group != 0 && a->group == b->group) return a->group > 0;
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

static bool boxes_overlap(const ledge_world *w, int a, int b) {
    vec2s d = v2_sub(w->box_center[a], w->box_center[b]);
    vec2s r = v2_add(w->box_half[a], w->box_half[b]);
    return fabsf(d.x) < r.x && fabsf(d.y) < r.y;
}

static void collide_pair(ledge_world *w, int a, int b) {
    if (w->inv_mass[a] + w->inv_mass[b] <= 0.0f) return; // neither can move
    if (!boxes_overlap(w, a, b) || !filters_allow(&w->filter[a], &w->filter[b])) return;
    // n points from a toward b: b moves along n, a against it.
    ledge_manifold m = ledge_collide(&w->shape[a], w->position[a], &w->shape[b], w->position[b]);
    if (!m.hit) return;
    float ima = w->inv_mass[a], imb = w->inv_mass[b], sum = ima + imb;
    float push = m.depth - w->slop;
    if (push > 0.0f) {
        w->position[a] = v2_sub(w->position[a], v2_scale(m.normal, push * ima / sum));
        w->position[b] = v2_add(w->position[b], v2_scale(m.normal, push * imb / sum));
        w->box_center[a] = v2_add(w->position[a], w->box_offset[a]);
        w->box_center[b] = v2_add(w->position[b], w->box_offset[b]);
    }
    float friction = sqrtf(w->friction[a] * w->friction[b]);
    float bounce = maxf(w->bounce[a], w->bounce[b]);
    respond_pair(w, b, a, m.normal, friction, bounce);
    record(w, b, a, m.normal, friction, bounce);
}

// Each cell against itself and four of its neighbours (east, north-west,
// north, north-east): every adjacent pair of cells is visited once.
static void collide_cell_pairs(ledge_world *w, int cx, int cy) {
    const ledge__grid *g = &w->grid;
    static const int dx[4] = {1, -1, 0, 1}, dy[4] = {0, 1, 1, 1};
    int c = cy * g->nx + cx;
    for (int p = g->cell_start[c]; p < g->cell_start[c + 1]; ++p) {
        int a = g->sorted[p];
        for (int q = p + 1; q < g->cell_start[c + 1]; ++q) collide_pair(w, a, g->sorted[q]);
        for (int k = 0; k < 4; ++k) {
            int nx = cx + dx[k], ny = cy + dy[k];
            if (nx < 0 || nx >= g->nx || ny >= g->ny) continue;
            int d = ny * g->nx + nx;
            for (int q = g->cell_start[d]; q < g->cell_start[d + 1]; ++q) {
                collide_pair(w, a, g->sorted[q]);
            }
        }
    }
}

// --- bodies against tiles ---------------------------------------------------

// One cell at a time, each contact projected before the next cell is tested
// (N's order): two floor tiles under a seam then push once, not twice.
static void collide_tiles(ledge_world *w, int a) {
    int x0, y0, x1, y1;
    ledge__tilemap_scan_range(w->map, &w->shape[a], w->position[a], &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            ledge_manifold m =
                ledge__tilemap_collide_cell(w->map, x, y, &w->shape[a], w->position[a]);
            if (!m.hit) continue;
            float push = m.depth - w->slop;
            if (push > 0.0f) w->position[a] = v2_add(w->position[a], v2_scale(m.normal, push));
            respond_tile(w, a, m.normal, w->friction[a], w->bounce[a]);
            record(w, a, -1, m.normal, w->friction[a], w->bounce[a]);
        }
    }
    w->box_center[a] = v2_add(w->position[a], w->box_offset[a]);
}

void ledge__resolve_pass(ledge_world *w) {
    for (int i = 0; i < w->slot_count; ++i) {
        w->box_center[i] = v2_add(w->position[i], w->box_offset[i]);
    }
    ledge__grid_build(&w->grid, w->box_center, w->alive, w->slot_count);
    for (int cy = 0; cy < w->grid.ny; ++cy) {
        for (int cx = 0; cx < w->grid.nx; ++cx) collide_cell_pairs(w, cx, cy);
    }
    for (int i = 0; i < w->slot_count; ++i) {
        if (w->alive[i] && w->type[i] == LEDGE_BODY_DYNAMIC) collide_tiles(w, i);
    }
}
