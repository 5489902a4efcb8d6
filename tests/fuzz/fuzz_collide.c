// Fuzz harness: the collision primitives (collision.h, tiles.h) on shapes
// decoded from arbitrary bytes, valid, refused or corrupted. Besides "no
// crash, no sanitizer report" it checks what the API promises:
// - a hit has a finite unit normal and a finite depth > 0; no hit has
//   depth 0; the cached test gives the same manifold;
// - moving b by normal * depth leaves the pair touching: the re-test's
//   depth is ~0; the reversed pair has the same depth;
// - a point well inside both shapes means a hit;
// - ray and sweep hits have fractions in [0, 1], unit normals, finite
//   points; a sweep's shapes touch (depth ~0) at its time of impact;
// - a decomposition's pieces are valid and their areas add up to the
//   polygon's;
// - chain segments (segment.h) with arbitrary neighbours: a shape whose
//   centre is behind the segment never touches it; a hit has a finite unit
//   normal that never points across an end where the solid runs on (no
//   snag on a neighbour), and the push along it leaves the pair touching;
//   rays and sweeps stay within [0, 1] and land on the segment's front.
#include "fuzz_common.h"
#include "segment.h"

#include <float.h>

static double extent(const ledge_shape *s) {
    return fmax((double)s->bounds.upper.x - s->bounds.lower.x,
                (double)s->bounds.upper.y - s->bounds.lower.y);
}

static double mag(vec2s v) {
    return fmax(fabs((double)v.x), fabs((double)v.y));
}

// How far a depth may be from its exact value: relative to the shapes'
// size, plus float resolution at the coordinates involved.
static double tolerance(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb) {
    double scale = mag(pa) + mag(pb) + mag(a->bounds.lower) + mag(a->bounds.upper) +
                   mag(b->bounds.lower) + mag(b->bounds.upper);
    return 1e-3 * (extent(a) + extent(b)) + 256.0 * FLT_EPSILON * scale;
}

static void check_manifold(const ledge_manifold *m) {
    if (m->hit) {
        CHECK(vec_finite(m->normal) && unit(m->normal), "normal (%g, %g)", (double)m->normal.x,
              (double)m->normal.y);
        CHECK(isfinite(m->depth) && m->depth > 0.0f, "depth %g", (double)m->depth);
        CHECK(m->point_count >= 1 && m->point_count <= 2, "point_count %d", m->point_count);
        for (int i = 0; i < m->point_count; ++i) CHECK(vec_finite(m->points[i]), "point %d", i);
    } else {
        CHECK(m->depth == 0.0f && m->point_count == 0, "no hit but depth %g, %d points",
              (double)m->depth, m->point_count);
    }
}

static bool same_manifold(const ledge_manifold *x, const ledge_manifold *y) {
    if (x->hit != y->hit || x->point_count != y->point_count) return false;
    if (memcmp(&x->normal, &y->normal, sizeof x->normal) != 0) return false;
    if (memcmp(&x->depth, &y->depth, sizeof x->depth) != 0) return false;
    for (int i = 0; i < x->point_count; ++i) {
        if (memcmp(&x->points[i], &y->points[i], sizeof x->points[i]) != 0) return false;
    }
    return true;
}

static void check_shape(const ledge_shape *s) {
    if (!ledge_shape_is_valid(s)) return;
    size_t n = strlen(g_context);
    snprintf(g_context + n, sizeof g_context - n, "checking shape:\n");
    context_shape("s", s, s->center);
    ledge_aabb box = ledge_shape_aabb(s, s->center);
    CHECK(vec_finite(box.lower) && vec_finite(box.upper), "aabb");
    float area = ledge_shape_area(s);
    CHECK(isfinite(area) && area >= 0.0f, "area %g", (double)area);
}

// Whether p and four points d around it lie in the shape.
static bool contains_ball(const ledge_shape *s, vec2s pos, vec2s p, float d) {
    vec2s q[5] = {p, {{p.x + d, p.y}}, {{p.x - d, p.y}}, {{p.x, p.y + d}}, {{p.x, p.y - d}}};
    for (int i = 0; i < 5; ++i) {
        if (!ledge_shape_contains(s, pos, q[i])) return false;
    }
    return true;
}

// ledge_shape_distance on the same pair: finite, a unit normal; 0 with
// the MTV's depth between the points on a hit; apart, moving b back along
// the normal by the distance makes the pair touch, and the reversed pair
// agrees.
static void check_distance(const ledge_shape *a, vec2s pa, const ledge_shape *b, vec2s pb,
                           const ledge_manifold *m, double tol) {
    ledge_distance_result d = ledge_shape_distance(a, pa, b, pb);
    bool placed = fabsf(pa.x) <= LEDGE_MAX_COORDINATE && fabsf(pa.y) <= LEDGE_MAX_COORDINATE &&
                  fabsf(pb.x) <= LEDGE_MAX_COORDINATE && fabsf(pb.y) <= LEDGE_MAX_COORDINATE;
    CHECK((d.iterations == -1) == !placed, "refused %d for positions (%g, %g), (%g, %g)",
          d.iterations == -1, (double)pa.x, (double)pa.y, (double)pb.x, (double)pb.y);
    if (!placed) {
        CHECK(isinf(d.distance), "a refused distance is %g", (double)d.distance);
        return;
    }
    CHECK(isfinite(d.distance) && d.distance >= 0.0f, "distance %g", (double)d.distance);
    CHECK(vec_finite(d.point_a) && vec_finite(d.point_b), "distance points");
    CHECK(vec_finite(d.normal) && unit(d.normal), "distance normal (%g, %g)", (double)d.normal.x,
          (double)d.normal.y);
    double gap = hypot((double)d.point_b.x - d.point_a.x, (double)d.point_b.y - d.point_a.y);
    if (m->hit) {
        CHECK(d.distance == 0.0f, "a hit but distance %g", (double)d.distance);
        CHECK(fabs(gap - m->depth) <= tol, "overlap points %g apart, depth %g (tol %g)", gap,
              (double)m->depth, tol);
        return;
    }
    ledge_distance_result rev = ledge_shape_distance(b, pb, a, pa);
    CHECK(fabs((double)d.distance - rev.distance) <= tol, "distance %g reversed %g (tol %g)",
          (double)d.distance, (double)rev.distance, tol);
    if (!(d.distance > tol)) return;
    CHECK(fabs(gap - d.distance) <= tol, "points %g apart, distance %g", gap, (double)d.distance);
    vec2s back = {{pb.x - d.normal.x * d.distance, pb.y - d.normal.y * d.distance}};
    ledge_manifold touch = ledge_collide(a, pa, b, back);
    CHECK(touch.depth <= tol, "moved back by the distance %g the depth is %g (tol %g)",
          (double)d.distance, (double)touch.depth, tol);
    vec2s closer = {{pb.x - d.normal.x * (d.distance - 2.0f * (float)tol),
                     pb.y - d.normal.y * (d.distance - 2.0f * (float)tol)}};
    // Moved back across a long way, b may leave the coordinate range the
    // query accepts (its refusal is checked above): nothing to compare.
    if (!(fabsf(closer.x) <= LEDGE_MAX_COORDINATE && fabsf(closer.y) <= LEDGE_MAX_COORDINATE))
        return;
    ledge_distance_result left = ledge_shape_distance(a, pa, b, closer);
    CHECK(left.distance <= 3.0 * tol, "moved back by all but 2 tol, %g remains (tol %g)",
          (double)left.distance, tol);
}

static void op_collide(reader *r, ledge_sat_cache *cache) {
    bool bad_a, bad_b;
    ledge_shape a = rd_shape(r, true, &bad_a), b = rd_shape(r, true, &bad_b);
    vec2s pa = rd_vec(r), pb = rd_vec(r);
    g_context[0] = 0;
    context_shape("a", &a, pa);
    context_shape("b", &b, pb);
    if (!bad_a) check_shape(&a);
    if (!bad_b) check_shape(&b);
    ledge_manifold m = ledge_collide(&a, pa, &b, pb);
    ledge_manifold mc = ledge_collide_cached(&a, pa, &b, pb, cache);
    bool valid = ledge_shape_is_valid(&a) && ledge_shape_is_valid(&b);
    // Garbage that still passes ledge_shape_is_valid may give garbage
    // numbers; it must only never crash.
    // Corrupted bytes that keep a known type and counts get only the cheap
    // structural check per call (docs/design.md): whatever comes out, it
    // must not crash. Refused constructors collide with nothing.
    if (bad_a || bad_b) return;
    if (!valid) {
        CHECK(!m.hit && !mc.hit, "an invalid shape collided");
        return;
    }
    check_manifold(&m);
    CHECK(same_manifold(&m, &mc), "cached result differs");
    mc = ledge_collide_cached(&a, pa, &b, pb, cache);
    CHECK(same_manifold(&m, &mc), "cached result differs on the second call");
    double tol = tolerance(&a, pa, &b, pb);
    vec2s cb = {{b.center.x + pb.x, b.center.y + pb.y}};
    if (contains_ball(&a, pa, cb, (float)tol) && contains_ball(&b, pb, cb, (float)tol)) {
        CHECK(m.hit, "a point well inside both shapes but no hit (tol %g)", tol);
    }
    ledge_manifold rev = ledge_collide(&b, pb, &a, pa);
    if (m.hit && rev.hit) {
        CHECK(fabs((double)m.depth - rev.depth) <= tol, "depth %g reversed %g (tol %g)",
              (double)m.depth, (double)rev.depth, tol);
    }
    check_distance(&a, pa, &b, pb, &m, tol);
    if (!m.hit) return;
    vec2s pushed = {{pb.x + m.normal.x * m.depth, pb.y + m.normal.y * m.depth}};
    ledge_manifold after = ledge_collide(&a, pa, &b, pushed);
    CHECK(after.depth <= tol, "after the push the depth is %g (was %g, tol %g)",
          (double)after.depth, (double)m.depth, tol);
}

static void op_ray(reader *r) {
    bool bad;
    ledge_shape s = rd_shape(r, true, &bad);
    vec2s pos = rd_vec(r), origin = rd_vec(r), move = rd_vec(r);
    g_context[0] = 0;
    context_shape("shape", &s, pos);
    size_t n = strlen(g_context);
    snprintf(g_context + n, sizeof g_context - n, "ray from (%.9g, %.9g) by (%.9g, %.9g)",
             (double)origin.x, (double)origin.y, (double)move.x, (double)move.y);
    ledge_ray_hit hit;
    bool got = ledge_shape_raycast(&s, pos, origin, move, &hit);
    if (!got) return;
    CHECK(ledge_shape_is_valid(&s), "an invalid shape was hit");
    if (bad) return;
    CHECK(hit.fraction >= 0.0f && hit.fraction <= 1.0f, "fraction %g", (double)hit.fraction);
    CHECK(vec_finite(hit.point), "point");
    CHECK(vec_finite(hit.normal) && unit(hit.normal), "normal (%g, %g)", (double)hit.normal.x,
          (double)hit.normal.y);
    double scale = mag(pos) + mag(origin) + mag(move) + extent(&s);
    double ex = (double)origin.x + (double)hit.fraction * move.x;
    double ey = (double)origin.y + (double)hit.fraction * move.y;
    CHECK(fabs(ex - hit.point.x) + fabs(ey - hit.point.y) <= 1e-4 * scale + 1e-6,
          "point off the ray");
}

static void op_sweep(reader *r) {
    ledge_shape a = rd_shape(r, false, NULL), b = rd_shape(r, false, NULL);
    vec2s pa = rd_vec(r), ma = rd_vec(r), pb = rd_vec(r), mb = rd_vec(r);
    ledge_toi toi;
    bool got = ledge_sweep(&a, pa, ma, &b, pb, mb, &toi);
    if (!got) return;
    CHECK(ledge_shape_is_valid(&a) && ledge_shape_is_valid(&b), "an invalid shape was hit");
    CHECK(toi.fraction >= 0.0f && toi.fraction <= 1.0f, "fraction %g", (double)toi.fraction);
    CHECK(vec_finite(toi.normal) && unit(toi.normal), "normal (%g, %g)", (double)toi.normal.x,
          (double)toi.normal.y);
    CHECK(vec_finite(toi.point), "point");
    vec2s qa = {{pa.x + toi.fraction * ma.x, pa.y + toi.fraction * ma.y}};
    vec2s qb = {{pb.x + toi.fraction * mb.x, pb.y + toi.fraction * mb.y}};
    ledge_manifold m = ledge_collide(&a, qa, &b, qb);
    double tol = tolerance(&a, qa, &b, qb) + 1e-4 * (mag(ma) + mag(mb));
    if (toi.fraction > 0.0f) {
        CHECK(m.depth <= tol, "depth %g at the time of impact %g (tol %g)", (double)m.depth,
              (double)toi.fraction, tol);
    }
}

static void op_sweep_closed(reader *r) {
    vec2s ca = rd_vec(r), cb = rd_vec(r), ma = rd_vec(r), mb = rd_vec(r);
    ledge_toi toi;
    bool got;
    if (rd_u8(r) & 1) {
        float ra = rd_float(r), rb = rd_float(r);
        got = ledge_sweep_circles(ca, ra, ma, cb, rb, mb, &toi);
    } else {
        vec2s ha = rd_vec(r), hb = rd_vec(r);
        got = ledge_sweep_boxes(ca, ha, ma, cb, hb, mb, &toi);
    }
    if (!got) return;
    CHECK(toi.fraction >= 0.0f && toi.fraction <= 1.0f, "fraction %g", (double)toi.fraction);
    CHECK(vec_finite(toi.normal) && unit(toi.normal), "normal");
    CHECK(vec_finite(toi.point), "point");
}

static void op_decompose(reader *r) {
    vec2s pts[40];
    int count = rd_u8(r) % 40;
    for (int i = 0; i < count; ++i) pts[i] = rd_vec(r);
    ledge_shape out[40];
    int max_out = rd_u8(r) % 41;
    int n = ledge_decompose(pts, count, out, max_out);
    if (n < 0) return;
    CHECK(n >= 1 && n <= count - 2 && n <= max_out, "%d pieces for %d points", n, count);
    double area = 0.0, sum = 0.0, ext = 0.0;
    for (int i = 0; i < count; ++i) {
        vec2s a = pts[i], b = pts[(i + 1) % count];
        area += (double)a.x * b.y - (double)a.y * b.x;
        ext = fmax(ext, mag(a));
    }
    area = fabs(area) / 2.0;
    for (int i = 0; i < n; ++i) {
        CHECK(ledge_shape_is_valid(&out[i]) && out[i].type == LEDGE_SHAPE_POLYGON, "piece %d", i);
        sum += ledge_shape_area(&out[i]);
    }
    // Each point where the outline turns with a sine of at most 1e-5 (nearly
    // straight, or a needle folding back) is dropped with the sliver it spans:
    // at most 0.5e-5 |a - k| |k - c| <= 4e-5 ext^2 of area, count - 3 times.
    double dropped = 4e-5 * ext * ext * (count - 3);
    CHECK(fabs(sum - area) <= 1e-3 * area + 1e-5 * ext * ext + dropped,
          "pieces' area %g, polygon's %g", sum, area);
}

static void op_tile(reader *r) {
    ledge_tile tile = (ledge_tile)(rd_u8(r) % 40);
    vec2s cell = rd_vec(r);
    float size = rd_float(r);
    unsigned blocked = rd_u8(r);
    bool bad;
    ledge_shape s = rd_shape(r, true, &bad);
    vec2s pos = rd_vec(r), p = rd_vec(r);
    ledge_manifold m = ledge_collide_tile(tile, cell, size, blocked & 0x1F, &s, pos);
    if (m.hit && !bad) {
        CHECK(vec_finite(m.normal) && unit(m.normal),
              "tile %d, cell (%.9g, %.9g), size %.9g, blocked %u, shape at (%.9g, %.9g): normal "
              "(%.9g, %.9g)",
              (int)tile, (double)cell.x, (double)cell.y, (double)size, blocked & 0x1F,
              (double)pos.x, (double)pos.y, (double)m.normal.x, (double)m.normal.y);
        CHECK(isfinite(m.depth) && m.depth >= 0.0f, "tile depth %g", (double)m.depth);
    }
    ledge_distance_result d = ledge_tile_distance(tile, cell, size, blocked & 0x1F, &s, pos);
    if (!bad && d.iterations >= 0 && isfinite(d.distance)) {
        CHECK(d.distance >= 0.0f && unit(d.normal), "tile distance %g normal (%g, %g)",
              (double)d.distance, (double)d.normal.x, (double)d.normal.y);
        CHECK(vec_finite(d.point_a) && vec_finite(d.point_b), "tile distance points");
        if (m.hit) CHECK(d.distance == 0.0f, "a tile hit but distance %g", (double)d.distance);
    }
    (void)ledge_tile_contains(tile, cell, size, p);
    ledge_tile_outline o;
    if (ledge_tile_outline_get(tile, cell, size, &o)) {
        CHECK(o.count >= 0 && o.count <= 6, "outline count %d", o.count);
        for (int i = 0; i < o.count; ++i) CHECK(vec_finite(o.points[i]), "outline point");
    }
    (void)ledge_tile_cover(tile, (ledge_side)(1u << (blocked & 3)));
    (void)ledge_tile_normal(tile);
    (void)ledge_tile_name(tile);
}

// A direction from the bytes, or (0, 0) (none): a neighbour's.
static vec2s rd_direction(reader *r) {
    if (rd_u8(r) < 0x40) return (vec2s){{0.0f, 0.0f}};
    vec2s d = rd_vec(r);
    double l = sqrt((double)d.x * d.x + (double)d.y * d.y);
    if (!(l > 1e-6) || !isfinite(l)) return (vec2s){{0.0f, 0.0f}};
    return (vec2s){{(float)(d.x / l), (float)(d.y / l)}};
}

static void op_segment(reader *r) {
    vec2s p = rd_vec(r), q = rd_vec(r), before = rd_direction(r), after = rd_direction(r);
    bool bad;
    ledge_shape s = rd_shape(r, false, &bad);
    vec2s off = rd_vec(r), move = rd_vec(r);
    double len = hypot((double)q.x - p.x, (double)q.y - p.y);
    double big = fmax(fmax(fabs(p.x), fabs(p.y)), fmax(fabs(q.x), fabs(q.y)));
    if (!vec_finite(p) || !vec_finite(q) || !(len > 1e-5 * big) || big > 1e6 ||
        !ledge_shape_is_valid(&s) || !vec_finite(off) || fabs(off.x) > 1e6 || fabs(off.y) > 1e6 ||
        !vec_finite(move) || fabs(move.x) > 1e6 || fabs(move.y) > 1e6) {
        return;
    }
    ledge__segment g;
    ledge__segment_make(&g, p, q);
    if (before.x != 0.0f || before.y != 0.0f) g.cp = ledge__segment_cut(before, g.e, false);
    if (after.x != 0.0f || after.y != 0.0f) g.cq = ledge__segment_cut(g.e, after, true);
    g_context[0] = 0;
    context_shape("shape", &s, off);
    size_t n = strlen(g_context);
    snprintf(g_context + n, sizeof g_context - n,
             "segment (%.9g, %.9g) -> (%.9g, %.9g), cuts (%.9g, %.9g) (%.9g, %.9g)\n", (double)p.x,
             (double)p.y, (double)q.x, (double)q.y, (double)g.cp.x, (double)g.cp.y, (double)g.cq.x,
             (double)g.cq.y);
    double tol = 1e-3 * (len + extent(&s)) + 256.0 * FLT_EPSILON * (big + mag(off) + extent(&s));
    vec2s centre = {{s.center.x + off.x, s.center.y + off.y}};
    bool faces = ledge__segment_faces(&g, centre);
    ledge_manifold m = ledge__segment_collide(&g, &s, off);
    check_manifold(&m);
    if (!faces) CHECK(!m.hit, "a shape whose centre is behind the segment touched it");
    if (m.hit) {
        // No push across an end where the solid runs on under the neighbour.
        bool cut_p = g.cp.x != 0.0f || g.cp.y != 0.0f, cut_q = g.cq.x != 0.0f || g.cq.y != 0.0f;
        float back = -(m.normal.x * g.e.x + m.normal.y * g.e.y);
        if (!cut_p) CHECK(back <= 1e-4f, "pushed back across a flat end (%g)", (double)back);
        if (!cut_q) CHECK(-back <= 1e-4f, "pushed on across a flat end (%g)", (double)-back);
        vec2s pushed = {{off.x + m.normal.x * m.depth, off.y + m.normal.y * m.depth}};
        ledge_manifold again = ledge__segment_collide(&g, &s, pushed);
        CHECK(again.depth <= tol, "after the push the depth is %g (was %g, tol %g)",
              (double)again.depth, (double)m.depth, tol);
    }
    ledge_ray_hit h;
    vec2s o = off;
    if (ledge__segment_raycast(&g, o, move, &h)) {
        CHECK(h.fraction >= 0.0f && h.fraction <= 1.0f, "ray fraction %g", (double)h.fraction);
        CHECK(vec_finite(h.point), "ray point");
        double side = (double)g.n.x * ((double)o.x - p.x) + (double)g.n.y * ((double)o.y - p.y);
        CHECK(side >= -tol, "a ray from behind (%g) hit", side);
    }
    ledge_toi toi;
    if (ledge__segment_sweep(&g, &s, off, move, &toi)) {
        CHECK(toi.fraction >= 0.0f && toi.fraction <= 1.0f, "sweep fraction %g",
              (double)toi.fraction);
        CHECK(vec_finite(toi.point) && vec_finite(toi.normal) && unit(toi.normal),
              "sweep's numbers");
    }
    ledge_distance_result d = ledge__segment_distance(&g, &s, off);
    CHECK(faces ? isfinite(d.distance) && d.distance >= 0.0f : d.distance == INFINITY,
          "distance %g (centre %s)", (double)d.distance, faces ? "in front" : "behind");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_init();
    reader r = {data, size, 0};
    ledge_sat_cache cache;
    memset(&cache, 0, sizeof cache);
    for (int ops = 0; rd_more(&r) && ops < 64; ++ops) {
        uint8_t op = rd_u8(&r);
        if (op >= 0xF8) { // chain segments (the old seeds keep their meaning)
            op_segment(&r);
            continue;
        }
        switch (op % 6) {
        case 0:
            op_collide(&r, &cache);
            break;
        case 1:
            op_ray(&r);
            break;
        case 2:
            op_sweep(&r);
            break;
        case 3:
            op_sweep_closed(&r);
            break;
        case 4:
            op_decompose(&r);
            break;
        default:
            op_tile(&r);
            break;
        }
    }
    return 0;
}
