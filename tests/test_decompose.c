// Convex decomposition: seeded random simple polygons of several families
// (stars, combs and random-walk bar charts, spirals, letters, collinear-rich
// grid outlines, convex polygons), in both windings and from every kind of
// starting vertex, are split into pieces that are checked independently in
// double: each is convex with at most 8 vertices taken from the input, the
// areas add up, and sampled points inside the input lie in exactly one piece
// (outside in none). Every refusal is checked for its return value and for
// the message it logs.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include "rng.h"

#include "log_capture.h"

#include <math.h>
#include <string.h>

#define MAXP LEDGE_MAX_DECOMPOSE_POINTS
#define PI   3.14159265358979323846

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

// Seeded random numbers come from rng.h (splitmix64): same polygons on every
// platform.

static double uniform(double lo, double hi) {
    return lo + (hi - lo) * rng_unit();
}

// ---------------------------------------------------------------------------
// Polygons.

typedef struct poly {
    int n;
    vec2s p[MAXP];
} poly;

static void push(poly *q, double x, double y) {
    vec2s p = v((float)x, (float)y);
    if (q->n > 0 && q->p[q->n - 1].x == p.x && q->p[q->n - 1].y == p.y) return;
    assert_true(q->n < MAXP);
    q->p[q->n++] = p;
}

static void close_ring(poly *q) { // the last point must not repeat the first
    while (q->n > 1 && q->p[q->n - 1].x == q->p[0].x && q->p[q->n - 1].y == q->p[0].y) q->n--;
}

static double signed_area(const vec2s *p, int n) {
    double a = 0.0;
    for (int i = 0; i < n; ++i) {
        const vec2s u = p[i], w = p[(i + 1) % n];
        a += (double)u.x * w.y - (double)u.y * w.x;
    }
    return 0.5 * a;
}

// The other winding, starting from another vertex: the decomposition must
// not care.
static void reverse_and_rotate(const poly *in, poly *out, int shift) {
    out->n = in->n;
    for (int i = 0; i < in->n; ++i) out->p[i] = in->p[(in->n - 1 - i + shift) % in->n];
}

static void rotate(const poly *in, poly *out, int shift) {
    out->n = in->n;
    for (int i = 0; i < in->n; ++i) out->p[i] = in->p[(i + shift) % in->n];
}

// Rigid placement (turned by `angle`, scaled, moved), rounded to float once.
static void place(poly *q, const double *x, const double *y, int n, double angle, double scale,
                  double ox, double oy) {
    double c = cos(angle), s = sin(angle);
    q->n = 0;
    for (int i = 0; i < n; ++i) {
        push(q, ox + scale * (c * x[i] - s * y[i]), oy + scale * (s * x[i] + c * y[i]));
    }
    close_ring(q);
}

// Star-shaped around a centre: random radii at stratified random angles, so
// that neighbouring angles stay apart and rounding cannot break simplicity.
static void make_star(poly *q, int n) {
    double cx = uniform(-50, 50), cy = uniform(-50, 50), r = uniform(0.5, 20);
    double phase = uniform(0, 2 * PI);
    q->n = 0;
    for (int i = 0; i < n; ++i) {
        double a = phase + 2 * PI * (i + uniform(0.1, 0.9)) / n, ri = r * uniform(0.15, 1.0);
        push(q, cx + ri * cos(a), cy + ri * sin(a));
    }
    close_ring(q);
}

// Strictly convex: points of an ellipse at stratified angles.
static void make_convex(poly *q, int n) {
    double cx = uniform(-10, 10), cy = uniform(-10, 10), rx = uniform(0.5, 5);
    double ry = rx * uniform(0.4, 1.0), phase = uniform(0, 2 * PI);
    q->n = 0;
    for (int i = 0; i < n; ++i) {
        double a = phase + 2 * PI * (i + uniform(0.2, 0.8)) / n;
        push(q, cx + rx * cos(a), cy + ry * sin(a));
    }
    close_ring(q);
}

// An x-monotone "bar chart": columns between x[i] and x[i+1] spanning
// lo..hi at their left and right sides (slanted when they differ). Adjacent
// columns overlap, so the outline is simple. With `grid`, every edge is also
// cut at unit steps: many exactly collinear points.
typedef struct bars {
    int k;
    double x[MAXP], lo_l[MAXP], lo_r[MAXP], hi_l[MAXP], hi_r[MAXP];
} bars;

static void push_segment(poly *q, double x0, double y0, double x1, double y1, bool grid) {
    int steps = grid ? (int)fmax(fabs(x1 - x0), fabs(y1 - y0)) : 1;
    for (int s = 0; s < steps; ++s) {
        push(q, x0 + (x1 - x0) * s / steps, y0 + (y1 - y0) * s / steps);
    }
}

static void bars_outline(const bars *b, poly *q, bool grid) {
    q->n = 0;
    double px = b->x[0], py = b->lo_l[0];
    for (int i = 0; i < b->k; ++i) { // bottom, left to right
        push_segment(q, px, py, b->x[i], b->lo_l[i], grid);
        push_segment(q, b->x[i], b->lo_l[i], b->x[i + 1], b->lo_r[i], grid);
        px = b->x[i + 1];
        py = b->lo_r[i];
    }
    for (int i = b->k - 1; i >= 0; --i) { // top, right to left
        push_segment(q, px, py, b->x[i + 1], b->hi_r[i], grid);
        push_segment(q, b->x[i + 1], b->hi_r[i], b->x[i], b->hi_l[i], grid);
        px = b->x[i];
        py = b->hi_l[i];
    }
    push_segment(q, px, py, b->x[0], b->lo_l[0], grid);
    close_ring(q);
}

// Comb: teeth of random height and width on a base, tops slanted at random.
static void make_comb(poly *q, int teeth) {
    bars b;
    b.k = 2 * teeth + 1;
    b.x[0] = uniform(-5, 5);
    for (int i = 0; i < b.k; ++i) {
        b.x[i + 1] = b.x[i] + uniform(0.2, 2.0);
        bool tooth = i % 2 == 1;
        b.lo_l[i] = b.lo_r[i] = 0.0;
        b.hi_l[i] = tooth ? uniform(2.5, 10) : uniform(0.3, 1.0); // slant keeps tops above gaps
        b.hi_r[i] = tooth ? b.hi_l[i] + uniform(-1, 1) : b.hi_l[i];
    }
    bars_outline(&b, q, false);
}

// Random walk: top and bottom heights wander; neighbours keep an overlap.
static void make_walk(poly *q, int k, bool grid) {
    // Heights are whole numbers of `unit`, so that equal heights give equal
    // points and different ones differ by a unit: nearly equal points are
    // refused (as ledge_make_polygon refuses them), not what is tested here.
    bars b;
    double unit = grid ? 1.0 : 0.05;
    int step = grid ? 2 : 30, gap = grid ? 1 : 20, lo = 0, hi = grid ? 4 : rng_int(20, 60);
    b.k = k;
    b.x[0] = 0;
    for (int i = 0; i < k; ++i) {
        b.x[i + 1] = b.x[i] + (grid ? rng_int(1, 3) : uniform(0.3, 2));
        int nlo = lo + rng_int(-step, step), nhi = hi + rng_int(-step, step);
        if (nlo > hi - gap) nlo = hi - gap; // keep an overlap with the previous column
        if (nhi < lo + gap) nhi = lo + gap;
        if (nhi < nlo + gap) nhi = nlo + gap;
        lo = nlo;
        hi = nhi;
        b.lo_l[i] = b.lo_r[i] = lo * unit;
        b.hi_l[i] = b.hi_r[i] = hi * unit;
    }
    bars_outline(&b, q, grid);
}

// Thick spiral of m steps, per_turn to a turn: out along the outer curve,
// back along the inner one (2 m + 2 points).
static void make_spiral(poly *q, int m, int per_turn) {
    double r0 = 1.5, pitch = 1.0, width = uniform(0.3, 0.6), phase = uniform(0, 2 * PI);
    double cx = uniform(-20, 20), cy = uniform(-20, 20), s = uniform(0.5, 3);
    double sense = rng_int(0, 1) ? 1.0 : -1.0;
    q->n = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i <= m; ++i) {
            int j = pass == 0 ? i : m - i;
            double t = 2 * PI * j / per_turn, r = r0 + pitch * t / (2 * PI) - (pass ? width : 0);
            push(q, cx + s * r * cos(sense * t + phase), cy + s * r * sin(sense * t + phase));
        }
    }
    close_ring(q);
}

typedef enum letter { LETTER_L, LETTER_U, LETTER_T, LETTER_PLUS, LETTER_STAIRS } letter;

// Letter shapes with random proportions, turned by a random angle (or not,
// keeping their edges axis-aligned).
static void make_letter(poly *q, letter which, bool turned) {
    double x[64], y[64], w = uniform(2, 6), h = uniform(2, 6), t = uniform(0.3, 0.9);
    int n = 0;
#define P(a, b) (x[n] = (a), y[n] = (b), n++)
    switch (which) {
    case LETTER_L:
        P(0, 0), P(w, 0), P(w, t), P(t, t), P(t, h), P(0, h);
        break;
    case LETTER_U:
        P(0, 0), P(w, 0), P(w, h), P(w - t, h), P(w - t, t), P(t, t), P(t, h), P(0, h);
        break;
    case LETTER_T:
        P(w / 2 - t / 2, 0), P(w / 2 + t / 2, 0), P(w / 2 + t / 2, h - t), P(w, h - t), P(w, h),
            P(0, h), P(0, h - t), P(w / 2 - t / 2, h - t);
        break;
    case LETTER_PLUS:
        P(-t, -h), P(t, -h), P(t, -t), P(w, -t), P(w, t), P(t, t), P(t, h), P(-t, h), P(-t, t),
            P(-w, t), P(-w, -t), P(-t, -t);
        break;
    case LETTER_STAIRS: {
        int steps = rng_int(2, 20);
        P(0, 0);
        for (int i = 0; i < steps; ++i) P(i + 1.0, i * 1.0), P(i + 1.0, i + 1.0);
        P(0, steps);
        break;
    }
    }
#undef P
    place(q, x, y, n, turned ? uniform(0, 2 * PI) : 0.0, uniform(0.5, 4), uniform(-100, 100),
          uniform(-100, 100));
}

// ---------------------------------------------------------------------------
// Independent checks, in double.

static bool piece_convex(const ledge_shape *s) {
    for (int i = 0; i < s->count; ++i) {
        vec2s a = s->vertices[i], b = s->vertices[(i + 1) % s->count];
        vec2s c = s->vertices[(i + 2) % s->count];
        double cross =
            ((double)b.x - a.x) * ((double)c.y - b.y) - ((double)b.y - a.y) * ((double)c.x - b.x);
        if (!(cross > 0.0)) return false;
    }
    return true;
}

static bool is_input_point(const poly *q, vec2s p) {
    for (int i = 0; i < q->n; ++i) {
        if (q->p[i].x == p.x && q->p[i].y == p.y) return true;
    }
    return false;
}

static double segment_distance(double px, double py, vec2s a, vec2s b) {
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y;
    double t = ((px - a.x) * dx + (py - a.y) * dy) / (dx * dx + dy * dy);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double ex = a.x + t * dx - px, ey = a.y + t * dy - py;
    return sqrt(ex * ex + ey * ey);
}

// Even-odd rule; *edge_distance receives the distance to the outline.
static bool in_polygon(const vec2s *p, int n, double x, double y, double *edge_distance) {
    bool in = false;
    double d = INFINITY;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        double xi = p[i].x, yi = p[i].y, xj = p[j].x, yj = p[j].y;
        if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) in = !in;
        d = fmin(d, segment_distance(x, y, p[j], p[i]));
    }
    *edge_distance = d;
    return in;
}

typedef struct stats {
    int polygons, pieces, vertices, max_pieces, samples;
} stats;

static stats g_stats;

// Decomposes q and checks everything; returns the piece count.
static int check_decomposition(const poly *q) {
    static ledge_shape out[MAXP], again[MAXP];
    log_capture_start();
    int count = ledge_decompose(q->p, q->n, out, MAXP);
    if (count < 1) fail_msg("refused a simple polygon of %d points: %s", q->n, g_log.last);
    assert_int_equal(g_log.count, 0);
    assert_true(count <= q->n - 2);

    double area = fabs(signed_area(q->p, q->n)), sum = 0.0;
    for (int i = 0; i < count; ++i) {
        const ledge_shape *s = &out[i];
        assert_int_equal(s->type, LEDGE_SHAPE_POLYGON);
        assert_true(ledge_shape_is_valid(s));
        assert_true(s->count >= 3 && s->count <= LEDGE_MAX_POLYGON_VERTICES);
        if (!piece_convex(s)) fail_msg("piece %d of %d is not convex", i, count);
        for (int k = 0; k < s->count; ++k) assert_true(is_input_point(q, s->vertices[k]));
        sum += signed_area(s->vertices, s->count);
    }
    if (fabs(sum - area) > 1e-5 * area) {
        fail_msg("pieces cover %.9g, polygon %.9g (%d points, %d pieces)", sum, area, q->n, count);
    }

    // Sampled points: inside the input -> in exactly one piece; outside ->
    // in none. Points within a thin band of any boundary are skipped.
    float lx = q->p[0].x, ly = q->p[0].y, ux = lx, uy = ly;
    for (int i = 1; i < q->n; ++i) {
        lx = fminf(lx, q->p[i].x), ly = fminf(ly, q->p[i].y);
        ux = fmaxf(ux, q->p[i].x), uy = fmaxf(uy, q->p[i].y);
    }
    double ext = fmax((double)ux - lx, (double)uy - ly), band = 1e-4 * ext;
    int samples = q->n > 100 ? 150 : 300;
    for (int sidx = 0; sidx < samples; ++sidx) {
        double x = uniform(lx - 0.05 * ext, ux + 0.05 * ext);
        double y = uniform(ly - 0.05 * ext, uy + 0.05 * ext), d;
        bool inside = in_polygon(q->p, q->n, x, y, &d);
        if (d < band) continue;
        int holders = 0;
        bool ambiguous = false;
        for (int i = 0; i < count && !ambiguous; ++i) {
            if (in_polygon(out[i].vertices, out[i].count, x, y, &d)) holders++;
            ambiguous = d < band;
        }
        if (ambiguous) continue;
        g_stats.samples++;
        if (holders != (inside ? 1 : 0)) {
            fail_msg("point (%g, %g) %s the polygon lies in %d pieces", x, y,
                     inside ? "inside" : "outside", holders);
        }
    }

    // Same input, same bits.
    int count2 = ledge_decompose(q->p, q->n, again, MAXP);
    assert_int_equal(count, count2);
    assert_memory_equal(out, again, (size_t)count * sizeof out[0]);

    g_stats.polygons++;
    g_stats.pieces += count;
    g_stats.vertices += q->n;
    if (count > g_stats.max_pieces) g_stats.max_pieces = count;
    return count;
}

// Checks q, its other winding from a random start, and q from a random
// start. Returns the piece count of q itself.
static int check_all_ways(const poly *q) {
    poly r;
    int count = check_decomposition(q);
    reverse_and_rotate(q, &r, rng_int(0, q->n - 1));
    check_decomposition(&r);
    rotate(q, &r, rng_int(0, q->n - 1));
    check_decomposition(&r);
    return count;
}

static void report(const char *family) {
    print_message("%-8s %4d polygons, %6d points, %5d pieces (max %d), %6d sample points\n", family,
                  g_stats.polygons, g_stats.vertices, g_stats.pieces, g_stats.max_pieces,
                  g_stats.samples);
    memset(&g_stats, 0, sizeof g_stats);
}

// ---------------------------------------------------------------------------
// Random families.

static void test_random_stars(void **state) {
    (void)state;
    static poly q;
    g_rng = 1;
    for (int i = 0; i < 150; ++i) {
        make_star(&q, i < 140 ? rng_int(3, 40) : rng_int(200, MAXP));
        check_all_ways(&q);
    }
    report("stars");
}

static void test_random_convex(void **state) {
    (void)state;
    static poly q;
    g_rng = 2;
    for (int i = 0; i < 200; ++i) {
        int n = rng_int(3, 24);
        make_convex(&q, n);
        assert_int_equal(q.n, n);
        int count = check_all_ways(&q);
        if (n <= LEDGE_MAX_POLYGON_VERTICES) assert_int_equal(count, 1);
        if (n > LEDGE_MAX_POLYGON_VERTICES) assert_true(count >= 2);
        // Pieces cut from a convex polygon by diagonals have k_i - 2 summing
        // to n - 2, and k_i <= 8.
        assert_true(count >= (n - 2 + 5) / 6);
    }
    report("convex");
}

static void test_random_combs(void **state) {
    (void)state;
    static poly q;
    g_rng = 3;
    for (int i = 0; i < 100; ++i) {
        make_comb(&q, rng_int(1, 40));
        check_all_ways(&q);
    }
    report("combs");
}

static void test_random_walks(void **state) {
    (void)state;
    static poly q;
    g_rng = 4;
    for (int i = 0; i < 100; ++i) {
        make_walk(&q, rng_int(1, 60), false);
        check_all_ways(&q);
    }
    report("walks");
}

// Grid outlines cut at every unit: most input points are collinear, and many
// non-neighbouring ones share a line.
static void test_random_grid(void **state) {
    (void)state;
    static poly q;
    g_rng = 5;
    for (int i = 0; i < 100; ++i) {
        do {
            make_walk(&q, rng_int(1, 12), true);
        } while (q.n > MAXP);
        for (int k = 0; k < q.n && i % 2; ++k) q.p[k] = v(q.p[k].y, q.p[k].x); // y-monotone
        check_all_ways(&q);
    }
    report("grid");
}

static void test_random_spirals(void **state) {
    (void)state;
    static poly q;
    g_rng = 6;
    for (int i = 0; i < 30; ++i) {
        int per_turn = rng_int(16, 40);
        make_spiral(
            &q,
            rng_int(per_turn / 2, (MAXP - 2) / 2 < 3 * per_turn ? (MAXP - 2) / 2 : 3 * per_turn),
            per_turn);
        check_all_ways(&q);
    }
    report("spirals");
}

static void test_random_letters(void **state) {
    (void)state;
    static poly q;
    g_rng = 7;
    for (int i = 0; i < 200; ++i) {
        make_letter(&q, (letter)(i % 5), i % 3 == 0);
        check_all_ways(&q);
    }
    report("letters");
}

// ---------------------------------------------------------------------------
// Hand-made cases.

static int decompose_ok(const vec2s *p, int n) {
    static poly q;
    q.n = n;
    memcpy(q.p, p, (size_t)n * sizeof p[0]);
    return check_all_ways(&q);
}

static void test_known_counts(void **state) {
    (void)state;
    ledge_shape out[MAXP];
    g_rng = 8;
    const vec2s tri[] = {v(0, 0), v(1, 0), v(0, 1)};
    assert_int_equal(decompose_ok(tri, 3), 1);
    const vec2s l_shape[] = {v(0, 0), v(3, 0), v(3, 1), v(1, 1), v(1, 3), v(0, 3)};
    assert_int_equal(decompose_ok(l_shape, 6), 2);
    const vec2s u_shape[] = {v(0, 0), v(3, 0), v(3, 3), v(2, 3),
                             v(2, 1), v(1, 1), v(1, 3), v(0, 3)};
    assert_int_equal(decompose_ok(u_shape, 8), 3);
    const vec2s t_shape[] = {v(1, 0), v(2, 0), v(2, 2), v(3, 2),
                             v(3, 3), v(0, 3), v(0, 2), v(1, 2)};
    assert_int_equal(decompose_ok(t_shape, 8), 2);

    // Collinear midpoints vanish: a square with 8 points is one 4-vertex piece.
    const vec2s square8[] = {v(0, 0), v(1, 0), v(2, 0), v(2, 1),
                             v(2, 2), v(1, 2), v(0, 2), v(0, 1)};
    assert_int_equal(ledge_decompose(square8, 8, out, 1), 1);
    assert_int_equal(out[0].count, 4);
    // So does a point off the line by less than ledge_make_polygon's tolerance.
    const vec2s nearly[] = {v(0, 0), v(1, 1e-7f), v(2, 0), v(2, 2), v(0, 2)};
    assert_int_equal(ledge_decompose(nearly, 5, out, 1), 1);
    assert_int_equal(out[0].count, 4);

    // A needle folding back on itself turns by a sine below 1e-5 too (the
    // collide fuzz's finding): a sliver of 0.0107 and a needle of 4.4e-4
    // share the edge A-C (0.002 long, nearly along the needle); the needle's
    // tip goes with its area, the sliver stays.
    const vec2s folded[] = {v(-5.5234375f, 5.52148438f), v(5.52148438f, -5.97851562f),
                            v(-5.5234375f, 5.5234375f), v(-5.97265625f, -5.5234375f)};
    assert_int_equal(ledge_decompose(folded, 4, out, 2), 1);
    assert_int_equal(out[0].count, 3);
    double kept = fabs(signed_area(folded, 3));
    double whole = fabs(signed_area(folded, 4));
    assert_true(fabs(ledge_shape_area(&out[0]) - kept) <= 1e-6 * kept);
    assert_true(whole - kept > 4e-4 && whole - kept < 4.5e-4);

    // A regular octagon is one piece of 8; a 9-gon needs two.
    vec2s gon[9];
    for (int i = 0; i < 8; ++i) gon[i] = v((float)cos(i * PI / 4), (float)sin(i * PI / 4));
    assert_int_equal(ledge_decompose(gon, 8, out, 1), 1);
    assert_int_equal(out[0].count, 8);
    for (int i = 0; i < 9; ++i) gon[i] = v((float)cos(i * PI / 4.5), (float)sin(i * PI / 4.5));
    assert_int_equal(ledge_decompose(gon, 9, out, 2), 2);
    assert_int_equal(out[0].count + out[1].count, 9 + 2);
}

// max_out exactly the piece count succeeds and writes nothing beyond it;
// one less is refused and writes nothing at all.
static void test_max_out(void **state) {
    (void)state;
    const vec2s u_shape[] = {v(0, 0), v(3, 0), v(3, 3), v(2, 3),
                             v(2, 1), v(1, 1), v(1, 3), v(0, 3)};
    ledge_shape out[4];
    memset(out, 0xAB, sizeof out);
    log_capture_start();
    assert_int_equal(ledge_decompose(u_shape, 8, out, 3), 3);
    assert_int_equal(g_log.count, 0);
    unsigned char sentinel[sizeof out[3]];
    memset(sentinel, 0xAB, sizeof sentinel);
    assert_memory_equal(&out[3], sentinel, sizeof sentinel);

    memset(out, 0xAB, sizeof out);
    log_capture_start();
    assert_int_equal(ledge_decompose(u_shape, 8, out, 2), -1);
    assert_true(log_capture_says("ledge_decompose", "max_out is 2"));
    assert_true(log_capture_says("needs 3 pieces", NULL));
    assert_memory_equal(&out[0], sentinel, sizeof sentinel);
}

static void refuse(const vec2s *p, int n, int max_out, const char *w1, const char *w2) {
    ledge_shape out[8];
    log_capture_start();
    int r = ledge_decompose(p, n, out, max_out);
    if (r != -1) fail_msg("accepted (%d pieces), expected '%s' '%s'", r, w1, w2 ? w2 : "");
    if (!log_capture_says("ledge_decompose: ", w1) || !log_capture_says(w2, NULL)) {
        fail_msg("expected '%s' '%s' in: '%s'", w1, w2 ? w2 : "", g_log.last);
    }
}

static void test_refusals(void **state) {
    (void)state;
    ledge_shape out[4];
    const vec2s sq[] = {v(0, 0), v(1, 0), v(1, 1), v(0, 1)};
    log_capture_start();
    assert_int_equal(ledge_decompose(NULL, 4, out, 4), -1);
    assert_true(log_capture_says("ledge_decompose", "points is NULL"));
    log_capture_start();
    assert_int_equal(ledge_decompose(sq, 4, NULL, 4), -1);
    assert_true(log_capture_says("ledge_decompose", "out is NULL"));

    refuse(sq, 2, 4, "count is 2", "3..256");
    refuse(sq, 0, 4, "count is 0", NULL);
    refuse(sq, -1, 4, "count is -1", NULL);
    static vec2s many[MAXP + 1];
    for (int i = 0; i <= MAXP; ++i) {
        double a = 2 * PI * i / (MAXP + 1);
        many[i] = v((float)cos(a), (float)sin(a));
    }
    refuse(many, MAXP + 1, 4, "count is 257", NULL);
    refuse(sq, 4, 0, "max_out is 0", ">= 1");
    refuse(sq, 4, -3, "max_out is -3", NULL);

    const float bad[] = {NAN, INFINITY, -INFINITY, 2.0e6f, -1.0e6f * 1.5f};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        vec2s p[4] = {v(0, 0), v(1, 0), v(1, 1), v(0, 1)};
        p[2].y = bad[i];
        refuse(p, 4, 4, "points[2] is", "must be finite");
        p[2].y = 1;
        p[1].x = bad[i];
        refuse(p, 4, 4, "points[1] is", "must be finite");
    }

    const vec2s dup_next[] = {v(0, 0), v(1, 0), v(1, 0), v(1, 1), v(0, 1)};
    refuse(dup_next, 5, 4, "points[1] and points[2] are the same point", NULL);
    const vec2s dup_closing[] = {v(0, 0), v(1, 0), v(1, 1), v(0, 1), v(0, 0)};
    refuse(dup_closing, 5, 4, "points[0] and points[4] are the same point", NULL);
    // Two lobes meeting at one point: equal but not consecutive.
    const vec2s pinch[] = {v(0, 0), v(2, 0), v(1, 1), v(2, 2), v(0, 2), v(1, 1)};
    refuse(pinch, 6, 4, "points[2] and points[5] are the same point", NULL);
    const vec2s close_pts[] = {v(0, 0), v(1, 0), v(1, 1e-6f), v(1, 1), v(0, 1)};
    refuse(close_pts, 5, 4, "points[1] and points[2] are nearly the same point", "apart");

    const vec2s bowtie[] = {v(0, 0), v(1, 1), v(1, 0), v(0, 1)};
    refuse(bowtie, 4, 4, "edges 0-1 and 2-3 cross", NULL);
    const vec2s crossing[] = {v(0, 0), v(4, 4), v(4, 0), v(2, 5), v(0, 4)};
    refuse(crossing, 5, 4, "edges 0-1 and 2-3 cross", "self-intersecting");
    // A notch whose tip touches the bottom edge.
    const vec2s notch[] = {v(0, 0), v(4, 0), v(4, 4), v(3, 4), v(2, 0), v(1, 4), v(0, 4)};
    refuse(notch, 7, 4, "points[4] touches edge 0-1", NULL);
    // The same touch through the closing edge.
    const vec2s notch2[] = {v(4, 0), v(4, 4), v(3, 4), v(2, 0), v(1, 4), v(0, 4), v(0, 0)};
    refuse(notch2, 7, 4, "points[3] touches edge 6-0", NULL);
    // points[3] lies exactly on edge 0-1 (the line through the origin, scaled
    // down by 2^30), but rounded double arithmetic puts it 1e-6 off the line:
    // only an exact predicate sees the touch.
    const float big_x = 93325.1953125f, big_y = 45094.3046875f, s = 0x1p-30f;
    const vec2s exact[] = {v(-big_x, -big_y), v(big_x, big_y), v(0, 150000),
                           v(big_x * s, big_y * s), v(-150000, 0)};
    refuse(exact, 5, 4, "points[3] touches edge 0-1", NULL);
    const vec2s folds[] = {v(0, 0), v(2, 0), v(1, 0), v(1, 1)};
    refuse(folds, 4, 4, "edges 0-1 and 1-2 overlap", "doubles back at points[1]");
    // A slit: the outline runs back along a stretch of itself.
    const vec2s slit[] = {v(0, 0), v(4, 0), v(4, 1), v(2, 1), v(3, 1), v(3, 2), v(0, 2)};
    refuse(slit, 7, 4, "overlap", NULL);

    const vec2s line[] = {v(0, 0), v(1, 1), v(3, 3), v(2, 2)};
    refuse(line, 4, 4, "all 4 points are collinear", "zero area");
    const vec2s sliver[] = {v(0, 0), v(10, 0), v(5, 1e-5f)};
    refuse(sliver, 3, 4, "zero area after removing collinear points", NULL);
}

// The largest accepted input works, in both windings.
static void test_largest(void **state) {
    (void)state;
    static poly q;
    g_rng = 9;
    make_star(&q, MAXP);
    assert_int_equal(q.n, MAXP);
    check_all_ways(&q);
    make_convex(&q, MAXP);
    assert_int_equal(q.n, MAXP);
    check_all_ways(&q);
    make_spiral(&q, MAXP / 2 - 1, 42);
    assert_int_equal(q.n, MAXP);
    check_all_ways(&q);
    report("largest");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),       cmocka_unit_test(test_max_out),
        cmocka_unit_test(test_known_counts),   cmocka_unit_test(test_random_convex),
        cmocka_unit_test(test_random_stars),   cmocka_unit_test(test_random_combs),
        cmocka_unit_test(test_random_walks),   cmocka_unit_test(test_random_grid),
        cmocka_unit_test(test_random_spirals), cmocka_unit_test(test_random_letters),
        cmocka_unit_test(test_largest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
