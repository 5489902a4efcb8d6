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

#include "grid.h"
#include "resolve.h"
#include "response.h"
#include "rng.h"
#include "world.h"

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
        cmocka_unit_test(test_contact_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
