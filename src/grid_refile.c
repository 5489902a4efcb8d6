// Filing the loose grid again after the fast bodies moved (grid_refile.h): the
// bodies that did not move keep the cells the substep's first filing found
// for them, so phase 1 of the second filing looks up only the moved
// bodies' cells (the sort that follows is the usual one).
//
// Why the cells are the full filing's: with the same origin, cell side and
// columns, a cell depends on the row count only through the clamp to the
// last row, which changes nothing below min(rows before, rows now) - 1: a
// body that did not move and was filed below that row keeps its cell
// (ledge__grid_index gives (int)f there for both row counts). The others
// (the moved bodies, and those filed in the top rows) get theirs again.
#include "grid_refile.h"

#include <string.h>

bool ledge__grid_refilable(const ledge__grid *before, const ledge__grid *g) {
    // Bits, not values: -0 and +0 would give the same cells, but the proof
    // above then needs no such argument.
    return before->slots > 0 && before->nx == g->nx &&
           memcmp(&before->origin, &g->origin, sizeof g->origin) == 0 &&
           memcmp(&before->cell, &g->cell, sizeof g->cell) == 0;
}

bool ledge__grid_recount(ledge__grid *g, const vec2s *centers, const uint8_t *moved, int before_ny,
                         int begin, int end, int shift, int *count) {
    memset(count, 0, sizeof *count * LEDGE__GRID_BANDS);
    int rows = before_ny < g->ny ? before_ny : g->ny;
    int top = (rows - 1) * g->nx;
    int changed = 0;
    for (int i = begin; i < end; ++i) {
        int c = g->cell_of[i];
        if (c < 0) continue;
        if (moved[i] || c >= top) {
            int now = ledge__grid_cell(g, centers[i]);
            changed |= now != c;
            c = g->cell_of[i] = now;
        }
        count[c >> shift]++;
    }
    return changed != 0;
}
