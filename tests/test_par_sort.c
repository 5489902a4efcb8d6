// The step's sorts that run on the workers (the grid's counting sort by
// bands, the contact sort by groups of buckets: docs/design.md, "The
// multi-core step") against brute force: a comparison sort, stable by
// index, on thousands of seeded cases. They must give exactly the stable
// order whatever the split into blocks, bands and workers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "broad.h"
#include "grid_refile.h"
#include "resolve.h"
#include "response.h"
#include "rng.h"
#include "contacts.h"
#include "par.h"
#include "slots.h"
#include "world_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// --- the grid ----------------------------------------------------------------

typedef struct filed {
    int cell, slot;
} filed;

static int filed_cmp(const void *pa, const void *pb) {
    const filed *a = pa, *b = pb;
    if (a->cell != b->cell) return a->cell < b->cell ? -1 : 1;
    return (a->slot > b->slot) - (a->slot < b->slot);
}

// The cell of a centre by the grid's rule (grid.h): the offset from the
// origin in float (as the grid computes it: the key is the rule, the sort
// is what is checked), floored and clamped.
static int cell_of(const ledge__grid *g, vec2s c) {
    float fx = (c.x - g->origin.x) * g->inv_cell, fy = (c.y - g->origin.y) * g->inv_cell;
    int cx = !(fx >= 0.0f) ? 0 : fx >= (float)(g->nx - 1) ? g->nx - 1 : (int)fx;
    int cy = !(fy >= 0.0f) ? 0 : fy >= (float)(g->ny - 1) ? g->ny - 1 : (int)fy;
    return cy * g->nx + cx;
}

// One case: random bodies over a random grid, the phases run with blocks of
// `block` slots and the bands in a shuffled order.
static void grid_case(ledge__grid *g, int n, vec2s *centers, uint8_t *include, filed *want,
                      int *by_band, int *counts) {
    g->nx = rng_int(1, 40);
    g->ny = rng_int(1, 40);
    g->cell = 1.0f;
    g->inv_cell = 1.0f;
    g->origin = (vec2s){{rng_range(-5, 5), rng_range(-5, 5)}};
    int wanted = 0;
    for (int i = 0; i < n; ++i) {
        // Mostly on the grid, some off it (clamped), centres on cell lines too.
        centers[i] = (vec2s){
            {g->origin.x + rng_range(-2, g->nx + 2), g->origin.y + rng_range(-2, g->ny + 2)}};
        if (rng_int(0, 7) == 0) centers[i].x = g->origin.x + (float)rng_int(0, g->nx);
        include[i] = rng_int(0, 5) != 0;
        if (include[i]) want[wanted++] = (filed){cell_of(g, centers[i]), i};
    }
    qsort(want, (size_t)wanted, sizeof *want, filed_cmp);

    int block = rng_int(1, 64), blocks = (n + block - 1) / block;
    int shift = ledge__grid_band_shift(g), bands = ((g->nx * g->ny - 1) >> shift) + 1;
    int band_start[LEDGE__GRID_BANDS + 1];
    for (int b = 0; b < blocks; ++b) {
        int end = (b + 1) * block < n ? (b + 1) * block : n;
        ledge__grid_count(g, centers, include, b * block, end, shift,
                          counts + b * LEDGE__GRID_BANDS);
    }
    ledge__grid_band_places(g, counts, blocks, shift, n, band_start);
    for (int b = blocks - 1; b >= 0; --b) { // any order: each block has its own places
        int end = (b + 1) * block < n ? (b + 1) * block : n;
        ledge__grid_scatter(g, b * block, end, shift, counts + b * LEDGE__GRID_BANDS, by_band);
    }
    int order[LEDGE__GRID_BANDS];
    for (int k = 0; k < bands; ++k) order[k] = k;
    for (int k = bands - 1; k > 0; --k) {
        int j = rng_int(0, k), t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    for (int k = 0; k < bands; ++k) ledge__grid_sort_band(g, order[k], shift, band_start, by_band);

    assert_int_equal(g->count, wanted);
    for (int k = 0; k < wanted; ++k) {
        assert_int_equal(g->sorted[k], want[k].slot);
        assert_int_equal(g->cell_of[want[k].slot], want[k].cell);
    }
    int cells = g->nx * g->ny, k = 0;
    for (int c = 0; c < cells; ++c) {
        assert_int_equal(g->cell_start[c], k);
        while (k < wanted && want[k].cell == c) k++;
    }
    assert_int_equal(g->cell_start[cells], wanted);
    for (int i = 0; i < n; ++i) {
        if (!include[i]) assert_int_equal(g->cell_of[i], -1);
    }
}

static void test_grid_sort(void **state) {
    (void)state;
    g_rng = 1616;
    enum { MAX_N = 2000 };
    ledge__grid g;
    memset(&g, 0, sizeof g);
    assert_true(ledge__grid_reserve(&g, MAX_N, 40 * 40));
    vec2s *centers = malloc(sizeof *centers * MAX_N);
    uint8_t *include = malloc(MAX_N);
    filed *want = malloc(sizeof *want * MAX_N);
    int *by_band = malloc(sizeof *by_band * MAX_N);
    int *counts = malloc(sizeof *counts * MAX_N * LEDGE__GRID_BANDS);
    assert_non_null(centers);
    assert_non_null(include);
    assert_non_null(want);
    assert_non_null(by_band);
    assert_non_null(counts);
    for (int c = 0; c < 3000; ++c) {
        int n = rng_int(1, c < 2900 ? 300 : MAX_N);
        grid_case(&g, n, centers, include, want, by_band, counts);
    }
    free(centers);
    free(include);
    free(want);
    free(by_band);
    free(counts);
    ledge__grid_free(&g);
}

// --- the grid filed again (grid_refile.c) -------------------------------------

// Files slots [0, n) of g by blocks of `block` slots: phase 1 by `count`
// (ledge__grid_count when before_ny is 0, ledge__grid_recount otherwise),
// then the usual phases.
static void file_grid(ledge__grid *g, int n, const vec2s *centers, const uint8_t *include,
                      const uint8_t *moved, int before_ny, int block, int *by_band, int *counts) {
    int blocks = (n + block - 1) / block;
    int shift = ledge__grid_band_shift(g), bands = ((g->nx * g->ny - 1) >> shift) + 1;
    int band_start[LEDGE__GRID_BANDS + 1];
    for (int b = 0; b < blocks; ++b) {
        int end = (b + 1) * block < n ? (b + 1) * block : n;
        int *count = counts + b * LEDGE__GRID_BANDS;
        if (before_ny > 0) {
            ledge__grid_recount(g, centers, moved, before_ny, b * block, end, shift, count);
        } else {
            ledge__grid_count(g, centers, include, b * block, end, shift, count);
        }
    }
    ledge__grid_band_places(g, counts, blocks, shift, n, band_start);
    for (int b = 0; b < blocks; ++b) {
        int end = (b + 1) * block < n ? (b + 1) * block : n;
        ledge__grid_scatter(g, b * block, end, shift, counts + b * LEDGE__GRID_BANDS, by_band);
    }
    for (int band = 0; band < bands; ++band) {
        ledge__grid_sort_band(g, band, shift, band_start, by_band);
    }
}

// Whether two filings of n slots are the same: cells, order and starts.
static void assert_same_filing(const ledge__grid *a, const ledge__grid *b, int n) {
    assert_int_equal(a->nx, b->nx);
    assert_int_equal(a->ny, b->ny);
    assert_int_equal(a->count, b->count);
    for (int i = 0; i < n; ++i) assert_int_equal(a->cell_of[i], b->cell_of[i]);
    for (int k = 0; k < a->count; ++k) assert_int_equal(a->sorted[k], b->sorted[k]);
    for (int c = 0; c <= a->nx * a->ny; ++c) assert_int_equal(a->cell_start[c], b->cell_start[c]);
}

// One case: a filing, then some bodies move and the rows change (the
// origin, cell and columns kept, as ledge__grid_refilable asks); the
// refiling must equal a full filing of the new positions. Centres off the
// grid and on its last row's lines test the clamps.
static void refile_case(ledge__grid *g, ledge__grid *full, int n, vec2s *centers, uint8_t *include,
                        uint8_t *moved, int *by_band, int *counts) {
    g->nx = rng_int(1, 30);
    g->ny = rng_int(1, 30);
    g->cell = rng_range(0.5, 2.0);
    g->inv_cell = 1.0f / g->cell;
    g->origin = (vec2s){{rng_range(-5, 5), rng_range(-5, 5)}};
    for (int i = 0; i < n; ++i) {
        centers[i] = (vec2s){{g->origin.x + g->cell * rng_range(-1, g->nx + 1),
                              g->origin.y + g->cell * rng_range(-1, g->ny + 2)}};
        if (rng_int(0, 5) == 0) centers[i].y = g->origin.y + g->cell * (float)rng_int(0, g->ny + 1);
        include[i] = rng_int(0, 5) != 0;
    }
    int block = rng_int(1, 64);
    file_grid(g, n, centers, include, NULL, 0, block, by_band, counts);
    ledge__grid before = *g;
    g->ny = rng_int(0, 2) == 0 ? before.ny : rng_int(1, 32);
    int share = rng_int(0, 4); // moved in (share / 4)
    for (int i = 0; i < n; ++i) {
        moved[i] = (uint8_t)(rng_int(0, 3) < share);
        if (!moved[i]) continue;
        if (rng_int(0, 1)) {
            centers[i].y -= g->cell * rng_range(0, 1.5); // falling a little
        } else {
            centers[i] = (vec2s){{g->origin.x + g->cell * rng_range(-1, g->nx + 1),
                                  g->origin.y + g->cell * rng_range(-1, g->ny + 2)}};
        }
    }
    assert_true(ledge__grid_refilable(&before, g));
    file_grid(g, n, centers, include, moved, before.ny, rng_int(1, 64), by_band, counts);
    full->nx = g->nx;
    full->ny = g->ny;
    full->cell = g->cell;
    full->inv_cell = g->inv_cell;
    full->origin = g->origin;
    file_grid(full, n, centers, include, NULL, 0, block, by_band, counts);
    assert_same_filing(g, full, n);
}

static void test_grid_refile(void **state) {
    (void)state;
    g_rng = 1617;
    enum { MAX_N = 1500 };
    ledge__grid g, full;
    memset(&g, 0, sizeof g);
    memset(&full, 0, sizeof full);
    assert_true(ledge__grid_reserve(&g, MAX_N, 32 * 32));
    assert_true(ledge__grid_reserve(&full, MAX_N, 32 * 32));
    vec2s *centers = malloc(sizeof *centers * MAX_N);
    uint8_t *include = malloc(MAX_N), *moved = malloc(MAX_N);
    int *by_band = malloc(sizeof *by_band * MAX_N);
    int *counts = malloc(sizeof *counts * MAX_N * LEDGE__GRID_BANDS);
    assert_true(centers && include && moved && by_band && counts);
    for (int c = 0; c < 3000; ++c) {
        refile_case(&g, &full, rng_int(1, c < 2900 ? 300 : MAX_N), centers, include, moved, by_band,
                    counts);
    }
    // Only the rows may change.
    ledge__grid other = g;
    other.nx++;
    assert_false(ledge__grid_refilable(&g, &other));
    other = g;
    other.origin.x = nextafterf(other.origin.x, 1e9f);
    assert_false(ledge__grid_refilable(&g, &other));
    other = g;
    other.cell *= 2.0f;
    assert_false(ledge__grid_refilable(&g, &other));
    other = g;
    other.ny += 3;
    assert_true(ledge__grid_refilable(&g, &other));
    free(centers);
    free(include);
    free(moved);
    free(by_band);
    free(counts);
    ledge__grid_free(&g);
    ledge__grid_free(&full);
}

// What a filing leaves for the rest of the substep.
typedef struct filing_copy {
    ledge__grid grid;
    vec2s *box_center, *grid_center;
    uint8_t *in_grid, *plain;
    int *big, big_count;
} filing_copy;

static void copy_filing(const ledge_world *w, filing_copy *f) {
    int n = w->slot_count;
    assert_true(ledge__grid_reserve(&f->grid, n, w->grid.nx * w->grid.ny));
    int *cell_start = f->grid.cell_start, *cell_of = f->grid.cell_of, *sorted = f->grid.sorted;
    int cell_cap = f->grid.cell_cap, body_cap = f->grid.body_cap;
    f->grid = w->grid;
    f->grid.cell_start = cell_start, f->grid.cell_of = cell_of, f->grid.sorted = sorted;
    f->grid.cell_cap = cell_cap, f->grid.body_cap = body_cap;
    memcpy(cell_start, w->grid.cell_start,
           sizeof *cell_start * (size_t)(w->grid.nx * w->grid.ny + 1));
    memcpy(cell_of, w->grid.cell_of, sizeof *cell_of * (size_t)n);
    memcpy(sorted, w->grid.sorted, sizeof *sorted * (size_t)w->grid.count);
    f->box_center = realloc(f->box_center, sizeof *f->box_center * (size_t)n);
    f->grid_center = realloc(f->grid_center, sizeof *f->grid_center * (size_t)n);
    f->in_grid = realloc(f->in_grid, (size_t)n);
    f->plain = realloc(f->plain, (size_t)n);
    f->big = realloc(f->big, sizeof *f->big * (size_t)(w->step.big_count + 1));
    assert_true(f->box_center && f->grid_center && f->in_grid && f->plain && f->big);
    memcpy(f->box_center, w->step.box_center, sizeof *f->box_center * (size_t)n);
    memcpy(f->grid_center, w->step.grid_center, sizeof *f->grid_center * (size_t)n);
    memcpy(f->in_grid, w->step.in_grid, (size_t)n);
    memcpy(f->plain, w->step.plain, (size_t)n);
    memcpy(f->big, w->step.big_list, sizeof *f->big * (size_t)w->step.big_count);
    f->big_count = w->step.big_count;
}

static void free_filing(filing_copy *f) {
    ledge__grid_free(&f->grid);
    free(f->box_center);
    free(f->grid_center);
    free(f->in_grid);
    free(f->plain);
    free(f->big);
}

// A world's substep filings (ledge__broad_build) driven by hand: filed
// before the fast bodies move, some bodies moved as fast.c would move them
// (only those flagged fast), filed again; that second filing (bounds from
// the fast bodies only, cells looked up for those only) against a full
// filing of the same positions. Falling circles over a floor, between
// steps that let them land and pile up.
static void test_world_refile(void **state) {
    (void)state;
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 48;
    wd.map_height = 64;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_tilemap *map = ledge_world_tilemap(w);
    for (int x = 0; x < wd.map_width; ++x) ledge_tilemap_set(map, x, 0, LEDGE_TILE_FULL);
    for (int y = 0; y < wd.map_height; ++y) {
        ledge_tilemap_set(map, 0, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(map, wd.map_width - 1, y, LEDGE_TILE_FULL);
    }
    g_rng = 1618;
    for (int k = 0; k < 1500; ++k) {
        ledge_body_def bd = ledge_default_body_def();
        bd.type = LEDGE_BODY_DYNAMIC;
        bd.shape = ledge_make_circle((vec2s){{0.0f, 0.0f}}, rng_range(0.1, 0.3));
        if (k % 100 == 0) bd.shape = ledge_make_circle((vec2s){{0.0f, 0.0f}}, 1.5f); // big
        bd.position = (vec2s){{rng_range(2, wd.map_width - 2), rng_range(2, wd.map_height - 2)}};
        bd.velocity = (vec2s){{rng_range(-3, 3), rng_range(-30, 5)}};
        assert_true(ledge_body_is_valid(w, ledge_body_create(w, &bd)));
    }
    filing_copy again, full;
    memset(&again, 0, sizeof again);
    memset(&full, 0, sizeof full);
    long refiled = 0;
    for (int step = 0; step < 200; ++step) {
        ledge_world_step(w, 1.0f / 60.0f);
        int share = rng_int(0, 4); // fast in (share / 4)
        for (int i = 0; i < w->slot_count; ++i) {
            w->step.fast[i] = (uint8_t)(w->alive[i] && !w->frozen[i] && rng_int(0, 3) < share);
        }
        ledge__broad_build(w, LEDGE__FILING_BEFORE);
        for (int i = 0; i < w->slot_count; ++i) {
            if (!w->step.fast[i]) continue;
            float reach = step % 4 == 0 && rng_int(0, 9) == 0 ? 12.0f : 0.4f; // far: new bounds
            w->position[i].x += rng_range(-reach, reach);
            w->position[i].y += rng_range(-reach, reach * 0.25);
        }
        long before = w->grid.refiled;
        ledge__broad_build(w, LEDGE__FILING_AFTER);
        refiled += w->grid.refiled - before;
        copy_filing(w, &again);
        ledge__broad_build(w, LEDGE__FILING_ONLY);
        copy_filing(w, &full);
        assert_true(again.grid.origin.x == full.grid.origin.x);
        assert_true(again.grid.origin.y == full.grid.origin.y);
        assert_true(again.grid.cell == full.grid.cell);
        assert_same_filing(&again.grid, &full.grid, w->slot_count);
        size_t n = (size_t)w->slot_count;
        assert_memory_equal(again.box_center, full.box_center, sizeof *again.box_center * n);
        assert_memory_equal(again.grid_center, full.grid_center, sizeof *again.grid_center * n);
        assert_memory_equal(again.in_grid, full.in_grid, n);
        assert_memory_equal(again.plain, full.plain, n);
        assert_int_equal(again.big_count, full.big_count);
        assert_memory_equal(again.big, full.big, sizeof *again.big * (size_t)again.big_count);
        for (int i = 0; i < w->slot_count; ++i) w->step.fast[i] = 0;
    }
    // Both kinds of second filing ran (66 of 200 refiled for this seed).
    assert_true(refiled > 40 && refiled < 160);
    free_filing(&again);
    free_filing(&full);
    ledge_world_destroy(w);
}

// --- the contacts --------------------------------------------------------------

typedef struct keyed {
    int key, index;
} keyed;

static int keyed_cmp(const void *pa, const void *pb) {
    const keyed *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static float height(const ledge_world *w, const ledge__contact *c) {
    float ha = v2_dot(w->position[c->a], w->up), hb = v2_dot(w->position[c->b], w->up);
    return ha < hb ? ha : hb;
}

// The documented order (response.h): tile contacts first, then pairs by
// the slice (a tenth of a grid cell, thicker for very tall worlds) of the
// lower body's height, each in the order recorded.
static void expected_order(const ledge_world *w, const ledge__contact *in, int n, keyed *out) {
    float lo = 0.0f, hi = 0.0f;
    bool any = false;
    for (int k = 0; k < n; ++k) {
        if (in[k].b < 0) continue;
        float h = height(w, &in[k]);
        lo = !any || h < lo ? h : lo;
        hi = !any || h > hi ? h : hi;
        any = true;
    }
    float slice = 0.1f * w->grid.cell;
    double range = ((double)hi - (double)lo) / (double)slice;
    while (range > 4.0 * (double)n + 1024.0) {
        slice *= 2.0f;
        range *= 0.5;
    }
    int buckets = (int)range + 3;
    float inv = 1.0f / slice;
    for (int k = 0; k < n; ++k) {
        out[k].index = k;
        out[k].key =
            in[k].b < 0 ? 0 : 1 + ledge__grid_index((height(w, &in[k]) - lo) * inv, buckets - 1);
    }
    qsort(out, (size_t)n, sizeof *out, keyed_cmp);
}

// A world of `bodies` circles spread over `spread` metres of height, with
// `workers` workers, stepped once (the grid and up are set), then given n
// random contacts (tagged by cell_x) to sort.
static void contact_case(int workers, int n, float spread, ledge__contact *in, keyed *want) {
    ledge_world_def wd = ledge_default_world_def();
    wd.worker_count = workers;
    wd.map_width = 8;
    wd.map_height = 8;
    wd.gravity = rng_int(0, 3) == 0 ? (vec2s){{0.0f, 10.0f}} : wd.gravity; // y down too
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_DYNAMIC;
    bd.shape = ledge_make_circle((vec2s){{0, 0}}, 0.25f);
    bd.gravity_scale = 0.0f;
    enum { BODIES = 64 };
    for (int i = 0; i < BODIES; ++i) {
        bd.position = (vec2s){{rng_range(-100, 100), rng_range(-spread, spread)}};
        ledge_body_create(w, &bd);
    }
    ledge_world_step(w, 1.0f / 60.0f);
    w->contact_count = 0;
    for (int k = 0; k < n; ++k) {
        ledge__contact c;
        memset(&c, 0, sizeof c);
        c.a = rng_int(0, BODIES - 1);
        c.b = rng_int(0, 4) == 0 ? -1 : rng_int(0, BODIES - 1);
        c.cell_x = k; // the tag
        in[k] = c;
        assert_true(ledge__record_contact(w, &c));
    }
    expected_order(w, in, n, want);
    ledge__sort_contacts(w);
    assert_int_equal(w->contact_count, n);
    for (int k = 0; k < n; ++k) assert_int_equal(w->contacts[k].cell_x, want[k].index);
    ledge_world_destroy(w);
}

static void test_contact_sort(void **state) {
    (void)state;
    g_rng = 1617;
    enum { MAX_N = 5000 };
    ledge__contact *in = malloc(sizeof *in * MAX_N);
    keyed *want = malloc(sizeof *want * MAX_N);
    assert_non_null(in);
    assert_non_null(want);
    static const int workers[] = {1, 2, 3};
    static const float spreads[] = {0.5f, 5.0f, 50.0f, 5000.0f}; // one group .. thicker slices
    for (int c = 0; c < 240; ++c) {
        int n = rng_int(2, c % 8 == 0 ? MAX_N : 600);
        contact_case(workers[c % 3], n, spreads[(c / 3) % 4], in, want);
    }
    free(in);
    free(want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_sort),
        cmocka_unit_test(test_grid_refile),
        cmocka_unit_test(test_world_refile),
        cmocka_unit_test(test_contact_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
