// Characters push dynamic bodies, and bodies answer (character.h, push.c):
// the matrix of pushes against the closed form of docs/character.md (crate
// mass 0.25 to 20 times the default push, friction 0 to 1 under both
// friction laws, every tile group a crate stands on in both facings, one
// crate, a row of three, a tower of three, gravity in all four directions),
// with no overlap beyond 2 x linear_slop, the character never through a
// crate nor under a crate that climbed it; the first-hour scenes on a
// default world; bodies shoving and landing on characters; platforms
// carrying crates on the default friction; the same bits for 1 and 2
// workers and across a snapshot.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ledge/ledge.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float DT = 1.0f / 60.0f;
static const double WALK = 6.0; // the character's speed across up
static const double G = 20.0;   // |gravity|
#define MAP 72

static vec2s v(double x, double y) {
    vec2s r = {{(float)x, (float)y}};
    return r;
}

// Optimised builds run every cell of the matrix. The sanitizer build (-O0,
// some 50 times slower) and valgrind run a sample: y up alone, every other
// mass. Memory errors show on any of them.
static bool reduced(void) {
#ifdef __OPTIMIZE__
    return getenv("LEDGE_UNDER_VALGRIND") != NULL;
#else
    return true;
#endif
}

// --- a frame: the scene built along "up", for the four gravities ------------

// Local coordinates (x across up, y along up) to world ones: gravity along
// -up; "right" (local +x) as events.h defines it (the perpendicular of up
// with a positive x part, +y for sideways gravity). The map's cells map to
// cells; each local tile is the world tile that covers the same points.
typedef struct frame {
    int dir;                           ///< 0: gravity -y (y up), 1: +y (y down), 2: -x, 3: +x.
    vec2s up, right;                   ///< World vectors of local +y and +x.
    int ox, oy;                        ///< World cell of local cell (0, 0).
    ledge_tile tile[LEDGE_TILE_COUNT]; ///< Local tile -> world tile.
} frame;

static const char *dir_name[] = {"y up", "y down", "gravity -x", "gravity +x"};

static vec2s to_world(const frame *f, double x, double y) {
    return v(f->ox + x * f->right.x + y * f->up.x, f->oy + x * f->right.y + y * f->up.y);
}

static vec2s vec_to_world(const frame *f, double x, double y) {
    return v(x * f->right.x + y * f->up.x, x * f->right.y + y * f->up.y);
}

static double local_x(const frame *f, vec2s p) {
    return (p.x - f->ox) * f->right.x + (p.y - f->oy) * f->right.y;
}

static double local_y(const frame *f, vec2s p) {
    return (p.x - f->ox) * f->up.x + (p.y - f->oy) * f->up.y;
}

// The world cell of local cell (cx, cy): its lower corner is the least of
// the mapped corners.
static void cell_to_world(const frame *f, int cx, int cy, int *wx, int *wy) {
    vec2s a = to_world(f, cx, cy), b = to_world(f, cx + 1, cy + 1);
    *wx = (int)lround(fmin(a.x, b.x));
    *wy = (int)lround(fmin(a.y, b.y));
}

static void frame_init(frame *f, int dir) {
    static const float ups[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    f->dir = dir;
    f->up = v(ups[dir][0], ups[dir][1]);
    f->right = dir < 2 ? v(1, 0) : v(0, 1);
    f->ox = f->oy = MAP / 2;
    // Each local tile: the world tile that holds the same of 64 points.
    for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
        f->tile[t] = LEDGE_TILE_EMPTY;
        for (int u = 0; u < LEDGE_TILE_COUNT; ++u) {
            bool same = true;
            for (int k = 0; k < 64 && same; ++k) {
                double px = (k % 8 + 0.5) / 8.0, py = (k / 8 + 0.5) / 8.0; // local, in the cell
                vec2s wp = to_world(f, px, py);
                int wx, wy;
                cell_to_world(f, 0, 0, &wx, &wy);
                vec2s in = v(wp.x - wx, wp.y - wy);
                same = ledge_tile_contains((ledge_tile)t, v(0, 0), 1.0f, v(px, py)) ==
                       ledge_tile_contains((ledge_tile)u, v(0, 0), 1.0f, in);
            }
            if (same) {
                f->tile[t] = (ledge_tile)u;
                break;
            }
        }
    }
}

static ledge_world *frame_world(const frame *f, ledge_friction_law law, int workers) {
    ledge_world_def wd = ledge_default_world_def();
    vec2s g = vec_to_world(f, 0, -G);
    wd.gravity = g;
    wd.map_width = wd.map_height = MAP;
    wd.friction_law = law;
    wd.worker_count = workers;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    return w;
}

static void put_tile(ledge_world *w, const frame *f, int cx, int cy, ledge_tile t) {
    int wx, wy;
    cell_to_world(f, cx, cy, &wx, &wy);
    assert_true(ledge_tilemap_set(ledge_world_tilemap(w), wx, wy, f->tile[t]));
}

// A box of local half extents (hx, hy) at local (x, y).
static ledge_body_id put_box(ledge_world *w, const frame *f, ledge_body_type type, double x,
                             double y, double hx, double hy, double density, double friction) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = type;
    vec2s h = f->dir < 2 ? v(hx, hy) : v(hy, hx);
    bd.shape = ledge_make_box(v(0, 0), h);
    bd.position = to_world(f, x, y);
    bd.density = (float)density;
    bd.friction = (float)friction;
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_true(ledge_body_is_valid(w, id));
    return id;
}

// The character of the tests: a kinematic box 0.6 x 0.9 (mass 0.54 at
// density 1: the default push).
static const double CH_HX = 0.3, CH_HY = 0.45, PUSH = 0.54;

static ledge_body_id put_character(ledge_world *w, const frame *f, double x, double y) {
    ledge_body_id id = put_box(w, f, LEDGE_BODY_KINEMATIC, x, y, CH_HX, CH_HY, 1, 0);
    assert_true(ledge_character_create(w, id, NULL));
    return id;
}

// One frame of the character walking at `speed` across up (falling under
// gravity), then the step.
static void walk(ledge_world *w, const frame *f, ledge_body_id ch, double speed) {
    ledge_character_state s;
    assert_true(ledge_character_get_state(w, ch, &s));
    double vy = (s.velocity.x * f->up.x + s.velocity.y * f->up.y) - G * DT;
    assert_true(ledge_character_move(w, ch, vec_to_world(f, speed, vy), DT, &s));
    ledge_world_step(w, DT);
}

// --- floors ------------------------------------------------------------------

// The floors a crate stands on, every tile group that has a floor, in
// both facings (pushed toward local +x: up or down the slope).
typedef enum floor_kind {
    FLOOR_FULL,
    FLOOR_HALF,
    FLOOR_45_UP,
    FLOOR_45_DOWN,
    FLOOR_26_UP,
    FLOOR_26_DOWN,
    FLOOR_COUNT
} floor_kind;

static const char *floor_name[] = {"FULL", "HALF", "45 up", "45 down", "26.57 up", "26.57 down"};

// The floor's surface: local height at local x, and its slope (dy/dx).
static double floor_slope(floor_kind k) {
    switch (k) {
    case FLOOR_45_UP:
        return 1.0;
    case FLOOR_45_DOWN:
        return -1.0;
    case FLOOR_26_UP:
        return 0.5;
    case FLOOR_26_DOWN:
        return -0.5;
    default:
        return 0.0;
    }
}

static double floor_height(floor_kind k, double x) {
    return k == FLOOR_HALF ? -0.5 : floor_slope(k) * x;
}

// Lays the floor from local x = x0 to x1 (cells), solid two cells deep.
static void lay_floor(ledge_world *w, const frame *f, floor_kind k, int x0, int x1) {
    for (int x = x0; x <= x1; ++x) {
        switch (k) {
        case FLOOR_FULL:
            put_tile(w, f, x, -1, LEDGE_TILE_FULL);
            put_tile(w, f, x, -2, LEDGE_TILE_FULL);
            break;
        case FLOOR_HALF:
            put_tile(w, f, x, -1, LEDGE_TILE_HALF_U);
            put_tile(w, f, x, -2, LEDGE_TILE_FULL);
            break;
        case FLOOR_45_UP:     // surface y = x: cell (x, x) holds the slope
        case FLOOR_45_DOWN: { // surface y = -x: cell (x, -x - 1)
            bool up = k == FLOOR_45_UP;
            int y = up ? x : -x - 1;
            put_tile(w, f, x, y, up ? LEDGE_TILE_45DEG_NP : LEDGE_TILE_45DEG_PP);
            put_tile(w, f, x, y - 1, LEDGE_TILE_FULL);
            put_tile(w, f, x, y - 2, LEDGE_TILE_FULL);
            break;
        }
        case FLOOR_26_UP:
        case FLOOR_26_DOWN: { // surface y = +-x / 2: two cells per row
            bool up = k == FLOOR_26_UP;
            int xx = up ? x : -x - 1; // mirrored for down
            int y = (int)floor(xx / 2.0);
            bool small = ((xx % 2) + 2) % 2 == 0;
            ledge_tile t = up ? (small ? LEDGE_TILE_22DEG_SMALL_NP : LEDGE_TILE_22DEG_BIG_NP)
                              : (small ? LEDGE_TILE_22DEG_SMALL_PP : LEDGE_TILE_22DEG_BIG_PP);
            put_tile(w, f, x, y, t);
            put_tile(w, f, x, y - 1, LEDGE_TILE_FULL);
            put_tile(w, f, x, y - 2, LEDGE_TILE_FULL);
            break;
        }
        default:
            break;
        }
    }
}

// The local y at which a box of half extents (hx, hy) centred at x rests
// on the floor (its lowest corner on the surface).
static double rest_y(floor_kind k, double x, double hx, double hy) {
    double s = floor_slope(k);
    double lowest = fmax(floor_height(k, x - hx), floor_height(k, x + hx));
    (void)s;
    return lowest + hy;
}

// A ray straight down (local) onto the floor: its height at x.
static double probe_floor(ledge_world *w, const frame *f, double x) {
    vec2s from = to_world(f, x, 34), to = to_world(f, x, -34);
    ledge_ray_hit hit;
    if (!ledge_tilemap_raycast(ledge_world_tilemap(w), from, v(to.x - from.x, to.y - from.y), &hit))
        return NAN;
    return local_y(f, hit.point);
}

// --- the closed form -----------------------------------------------------------

typedef enum layout { ONE, ROW, TOWER, LAYOUT_COUNT } layout;
static const char *layout_name[] = {"one crate", "a row of 3", "a tower of 3"};

typedef struct push_case {
    int dir;
    ledge_friction_law law;
    double friction, ratio; // crate friction; crate mass / the default push
    floor_kind floor;
    layout lay;
} push_case;

// The push of docs/character.md substep by substep, in double: the row's
// speed along its floor (s) takes gravity along the slope, then its floor's
// friction (N's rule, or the larger of the Coulomb terms), then the push
// (the row meets the push mass, less what holds it statically, at the
// character's speed). `substeps` substeps from rest; returns the speed
// across up, and in *settled whether it is a fixed point.
static double closed_form(const push_case *pc, int substeps, bool *settled) {
    double a = atan(floor_slope(pc->floor)), ca = cos(a), sa = sin(a);
    double h = DT, f = pc->friction, m = pc->ratio * PUSH, g = G;
    double n = pc->lay == ROW ? 3.0 : 1.0, load = pc->lay == TOWER ? 2.0 * m : 0.0;
    bool coulomb = pc->law == LEDGE_FRICTION_COULOMB;
    // Per unit mass, per second: the floor's Coulomb cap (the load's; under
    // Coulomb's law the crate's own weight too) and Coulomb's f g cos.
    double cap = f * g * ((coulomb ? m + load : load) / m) * ca;
    double hold = coulomb ? fmax(cap, f * g * ca) : cap;
    double strength = PUSH - n * m * (fmax(g * sa, 0.0) + hold) / ca / g;
    double s = 0.0, last = 0.0;
    for (int k = 0; k < substeps; ++k) {
        last = s;
        s -= g * sa * h;
        double floor_ = coulomb ? fmax(f * g * ca * h, cap * h) : cap * h, keep = 1.0 - f;
        if (floor_ > 0.0)
            keep = floor_ * floor_ >= s * s ? 0.0 : fmin(keep, 1.0 - floor_ / fabs(s));
        s *= keep;
        double across = s * ca;
        if (strength > 0.0) {
            double u = (strength * WALK + n * m * across) / (strength + n * m);
            if (u > across) s = u / ca;
        }
    }
    *settled = fabs(s - last) < 1e-9 * WALK;
    return s * ca;
}

typedef struct push_result {
    double speed;     ///< The pushed crate's speed across up at the end.
    double character; ///< The character's, over the last second.
    double crate;     ///< The crate's, over the last second.
    double overlap;   ///< The deepest overlap of any two bodies or a body and the tiles.
    double gap;       ///< The largest gap between the character and the crate while it pushes.
    bool through;     ///< The character got past the crate.
    bool climbed;     ///< A crate of the row got on top of the character.
    bool pushing;     ///< The character's state said so every frame it touched.
    bool riders_off;  ///< A tower's riders are no longer on its bottom crate at the end.
    bool burdened;    ///< A crate came to rest on the character's head.
} push_result;

static double depth_of(const ledge_world *w, ledge_body_id a, ledge_body_id b) {
    ledge_manifold m = ledge_collide(ledge_body_shape(w, a), ledge_body_position(w, a),
                                     ledge_body_shape(w, b), ledge_body_position(w, b));
    return m.hit ? m.depth : 0.0;
}

static double tile_depth(ledge_world *w, ledge_body_id a) {
    ledge_tile_contact c[16];
    int n = ledge_tilemap_collide(ledge_world_tilemap(w), ledge_body_shape(w, a),
                                  ledge_body_position(w, a), c, 16);
    double d = 0.0;
    for (int i = 0; i < n; ++i) d = fmax(d, c[i].manifold.depth);
    return d;
}

// Crate half extents: the character's own size.
static const double CR_HX = 0.3, CR_HY = 0.45;

enum { SETTLE = 12 };

// Runs one cell of the matrix for `frames` frames, after SETTLE frames of
// standing still.
// The four frames, made once (frame_init samples every tile pair).
static const frame *frame_of(int dir) {
    static frame frames[4];
    static bool made[4];
    if (!made[dir]) frame_init(&frames[dir], dir);
    made[dir] = true;
    return &frames[dir];
}

static push_result run_case(const push_case *pc, int frames, int workers, uint64_t *hash) {
    frame f = *frame_of(pc->dir);
    ledge_world *w = frame_world(&f, pc->law, workers);
    lay_floor(w, &f, pc->floor, -33, 33);
    double density = pc->ratio * PUSH / (4.0 * CR_HX * CR_HY);
    double x0 = -12.0; // room for a climb of 15 m, and for a slide back as long
    ledge_body_id crate[3];
    int n = pc->lay == ONE ? 1 : 3;
    for (int k = 0; k < n; ++k) {
        double x = pc->lay == ROW ? x0 + (2.0 * CR_HX - 0.002) * k : x0; // touching
        double y = rest_y(pc->floor, x, CR_HX, CR_HY) + (pc->lay == TOWER ? 2.0 * CR_HY * k : 0.0);
        crate[k] = put_box(w, &f, LEDGE_BODY_DYNAMIC, x, y, CR_HX, CR_HY, density, pc->friction);
    }
    double cx = x0 - CR_HX - CH_HX - 0.02;
    ledge_body_id ch = put_character(w, &f, cx, rest_y(pc->floor, cx, CH_HX, CH_HY) + 0.001);
    push_result r;
    memset(&r, 0, sizeof r);
    r.pushing = true;
    double start = 0.0, crate_start = 0.0;
    for (int fr = 0; fr < SETTLE; ++fr) walk(w, &f, ch, 0.0); // everything lands first
    for (int fr = 0; fr < frames; ++fr) {
        if (fr == frames - 60) {
            start = local_x(&f, ledge_body_position(w, ch));
            crate_start = local_x(&f, ledge_body_position(w, crate[0]));
        }
        walk(w, &f, ch, WALK);
        // A row sliding down (frictionless) shoves the character down the
        // slope: the run stops before the floor laid for it ends.
        if (fabs(local_x(&f, ledge_body_position(w, ch))) > 30.0) break;
        ledge_character_state s;
        ledge_character_get_state(w, ch, &s);
        vec2s pc_ = ledge_body_position(w, ch), p0 = ledge_body_position(w, crate[0]);
        double gap = local_x(&f, p0) - CR_HX - (local_x(&f, pc_) + CH_HX);
        r.through |= local_x(&f, pc_) > local_x(&f, p0);
        r.overlap = fmax(r.overlap, tile_depth(w, ch));
        if (getenv("PUSH_WHY")) {
            printf("fr %d char %.4f %.4f tile %.4f crushed %d stuck %d disp %.4f %.4f hits %d wall "
                   "%d ceil %d floor %d",
                   fr, local_x(&f, pc_), local_y(&f, pc_), tile_depth(w, ch), s.crushed,
                   s.last_move.stuck, s.last_move.displacement.x, s.last_move.displacement.y,
                   s.last_move.hit_count, s.on_wall, s.on_ceiling, s.on_floor);
            for (int k = 0; k < n; ++k) {
                vec2s p = ledge_body_position(w, crate[k]);
                vec2s vv = ledge_body_velocity(w, crate[k]);
                printf(" | c%d %.4f %.4f v %.3f %.3f dch %.4f dt %.4f", k, local_x(&f, p),
                       local_y(&f, p), vv.x, vv.y, depth_of(w, ch, crate[k]),
                       tile_depth(w, crate[k]));
            }
            printf("\n");
        }
        for (int k = 0; k < n; ++k) {
            vec2s p = ledge_body_position(w, crate[k]);
            r.overlap = fmax(r.overlap, fmax(depth_of(w, ch, crate[k]), tile_depth(w, crate[k])));
            for (int j = 0; j < k; ++j)
                r.overlap = fmax(r.overlap, depth_of(w, crate[j], crate[k]));
            bool above = local_y(&f, p) - CR_HY > local_y(&f, pc_) + CH_HY - 0.01;
            bool over = fabs(local_x(&f, p) - local_x(&f, pc_)) < CR_HX + CH_HX;
            if (pc->lay != TOWER || k == 0) r.climbed |= above && over;
        }
        r.burdened |= s.ceiling_body.index1 != 0;
        if (gap < 0.02 && fr > 2) {
            r.pushing &= s.pushing;
            if (fr > frames / 2) r.gap = fmax(r.gap, gap);
        }
    }
    if (pc->lay == TOWER) {
        double bottom = local_x(&f, ledge_body_position(w, crate[0]));
        for (int k = 1; k < n; ++k)
            r.riders_off |= fabs(local_x(&f, ledge_body_position(w, crate[k])) - bottom) > CR_HX;
    }
    vec2s vel = ledge_body_velocity(w, crate[0]);
    r.speed = vel.x * f.right.x + vel.y * f.right.y;
    r.character = (local_x(&f, ledge_body_position(w, ch)) - start) / (60 * DT);
    r.crate = (local_x(&f, ledge_body_position(w, crate[0])) - crate_start) / (60 * DT);
    if (hash) *hash = ledge_world_hash(w);
    ledge_world_destroy(w);
    return r;
}

static const double FRICTIONS[] = {0.0, 0.3, 0.6, 1.0};
static const double RATIOS[] = {0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0};
enum { FRAMES = 120 };

// What one cell of the matrix must give, from the closed form: `lo` to
// `hi` for the pushed crate's speed across up at the end (the fixed point;
// where the push converges slowly, anything between where the closed form
// stands after the frames run and its fixed point), and whether the
// character must move on at that speed.
typedef struct expect {
    double lo, hi;
    bool follows;
    const char *why;
} expect;

static expect expected(const push_case *pc) {
    const double tol = 2e-3 * WALK;
    bool settled, unused;
    double fixed = closed_form(pc, 5000, &settled);
    double now = closed_form(pc, FRAMES, &unused);
    expect e;
    if (!settled) { // f = 0 on a slope: gravity wins
        e.lo = floor_slope(pc->floor) < 0.0 ? WALK - tol : -1e9;
        e.hi = floor_slope(pc->floor) < 0.0 ? 1e9 : tol;
        e.follows = false;
        e.why = floor_slope(pc->floor) < 0.0 ? "runs away downhill" : "slides back";
    } else if (fixed < 0.0) { // too heavy to go up: it slides back, the character holds it
        e.lo = fixed - tol;
        e.hi = tol;
        e.follows = false;
        e.why = "too heavy to climb";
    } else {
        e.lo = fmin(now, fixed) - tol;
        e.hi = fmax(now, fixed) + tol;
        e.follows = true;
        e.why = fixed < tol ? "too heavy" : "pushed";
    }
    return e;
}

typedef struct matrix_stats {
    int cells, pushed, too_heavy, slid_back, ran_away, riders_slid, burdened, slope_towers,
        converged;
    double worst_error, worst_overlap, worst_gap;
} matrix_stats;

// One cell, asserted: the speed against the closed form (a tower whose
// riders slid off at the push is a lone crate), the character on behind
// it, nothing deeper than 2 x linear_slop, the character never past a
// crate nor under one it pushes.
static void check_cell(const push_case *pc, matrix_stats *st) {
    push_result r = run_case(pc, FRAMES, 1, NULL);
    push_case lone = *pc;
    if (pc->lay == TOWER && r.riders_off) {
        lone.lay = ONE;
        st->riders_slid++;
    }
    expect e = expected(&lone);
    if (pc->lay == TOWER && floor_slope(pc->floor) != 0.0) {
        // On a slope the riders of a pushed tower slide off, forward, back
        // or onto the character, at no time the closed form can tell: the
        // bottom crate goes no faster than alone, no slower than sliding
        // back, and the character follows it up to then.
        push_case tower = *pc;
        expect t = expected(&tower);
        e.lo = fmin(
            fmin(e.lo, t.lo),
            fmin(0.0,
                 expected(&(push_case){pc->dir, pc->law, pc->friction, 1e3, pc->floor, ONE}).lo));
        e.hi = fmax(fmax(e.hi, t.hi), WALK + 2e-3 * WALK);
        e.follows = false;
        e.why = "a tower on a slope";
        st->slope_towers++;
    } else if (r.burdened) { // a rider slid off onto its head: it cannot climb under it
        st->burdened++;
        // (Some of its weight is off the bottom crate: anything from the
        // tower's speed to a lone crate's.)
        expect one =
            expected(&(push_case){pc->dir, pc->law, pc->friction, pc->ratio, pc->floor, ONE});
        e.lo = fmin(fmin(e.lo, one.lo), -WALK);
        e.hi = fmax(e.hi, one.hi);
        e.follows = false;
        e.why = "a rider fell on the character";
    }
    char name[160];
    snprintf(name, sizeof name, "%s, %s, %s law, friction %.1f, mass %.2f x the push, %s",
             dir_name[pc->dir], floor_name[pc->floor],
             pc->law == LEDGE_FRICTION_N ? "N's" : "Coulomb's", pc->friction, pc->ratio,
             layout_name[pc->lay]);
    if (!(r.speed >= e.lo && r.speed <= e.hi))
        fail_msg("%s (%s): the crate goes at %.5f, the closed form says %.5f..%.5f", name, e.why,
                 r.speed, e.lo, e.hi);
    if (e.follows && !(fabs(r.character - r.crate) <= 1e-3 * WALK))
        fail_msg("%s: the character goes at %.5f behind a crate at %.5f", name, r.character,
                 r.crate);
    // A frictionless row sliding down into the character hits it at up to 8
    // m/s, as it would hit a static body: the relaxation leaves an overlap
    // of up to 0.036 for a step then (measured against a static box too).
    double most = e.follows || e.lo > 0.0 || pc->friction > 0.0 ? 2.0 * 0.005 + 1e-5 : 0.06;
    if (!(r.overlap <= most))
        fail_msg("%s: an overlap of %.5f (more than %.3f)", name, r.overlap, most);
    // (Frictionless crates sliding down a slope at 10 to 17 m/s throw the
    // character off it and slide on under it: those cells assert overlaps.)
    if ((e.follows || (pc->lay == TOWER && pc->friction > 0.0)) && r.through)
        fail_msg("%s: the character got past the crate", name);
    if (e.follows && r.climbed) fail_msg("%s: a pushed crate got on top of the character", name);
    if (e.follows && !r.pushing) fail_msg("%s: touching, but its state did not say pushing", name);
    st->cells++;
    st->pushed += e.follows && e.hi > 2e-3 * WALK;
    st->too_heavy += e.follows && e.hi <= 2e-3 * WALK;
    st->slid_back += !e.follows && e.lo < 0.0;
    st->ran_away += !e.follows && e.lo > 0.0;
    bool settled, unused;
    double fixed = closed_form(&lone, 5000, &settled), now = closed_form(&lone, FRAMES, &unused);
    if (e.follows && fabs(now - fixed) < 1e-5) { // converged: against the fixed point itself
        st->converged++;
        st->worst_error = fmax(st->worst_error, fabs(r.speed - fixed));
    }
    st->worst_overlap = fmax(st->worst_overlap, r.overlap);
    if (e.follows) st->worst_gap = fmax(st->worst_gap, r.gap);
}

// The matrix: 4 gravities x 2 friction laws x 4 frictions x 7 masses x 6
// floors x 3 layouts, 4,032 cells (reduced(): y up only, and every other
// mass: 576).
static void test_push_matrix(void **state) {
    (void)state;
    matrix_stats st;
    memset(&st, 0, sizeof st);
    if (getenv("PUSH_CASE")) { // one cell: "floor layout law friction ratio dir"
        int fl, lay, law, d;
        double fr, ra;
        assert_int_equal(
            sscanf(getenv("PUSH_CASE"), "%d %d %d %lf %lf %d", &fl, &lay, &law, &fr, &ra, &d), 6);
        push_case pc = {
            d,          law ? LEDGE_FRICTION_COULOMB : LEDGE_FRICTION_N, fr, ra, (floor_kind)fl,
            (layout)lay};
        check_cell(&pc, &st);
        return;
    }
    int dirs = reduced() ? 1 : 4, step = reduced() ? 2 : 1;
    for (int d = 0; d < dirs; ++d)
        for (int fl = 0; fl < FLOOR_COUNT; ++fl)
            for (int lay = 0; lay < LAYOUT_COUNT; ++lay)
                for (int law = 0; law < 2; ++law)
                    for (int fi = 0; fi < 4; ++fi)
                        for (int mi = 0; mi < 7; mi += step) {
                            push_case pc = {d,
                                            law ? LEDGE_FRICTION_COULOMB : LEDGE_FRICTION_N,
                                            FRICTIONS[fi],
                                            RATIOS[mi],
                                            (floor_kind)fl,
                                            (layout)lay};
                            check_cell(&pc, &st);
                        }
    print_message("%d cells: %d pushed (%d settled within the run: worst error %.2g m/s against "
                  "the fixed point), %d too heavy, %d slid back down, %d ran away downhill, %d "
                  "towers whose riders slid off (%d onto the character); worst overlap %.4f, worst "
                  "gap behind a pushed crate %.4f\n",
                  st.cells, st.pushed, st.converged, st.worst_error, st.too_heavy, st.slid_back,
                  st.ran_away, st.riders_slid, st.burdened, st.worst_overlap, st.worst_gap);
}

static void test_frames(void **state) {
    (void)state;
    for (int d = 0; d < 4; ++d) {
        frame f;
        frame_init(&f, d);
        for (int t = 0; t < LEDGE_TILE_COUNT; ++t) {
            if (f.tile[t] == LEDGE_TILE_EMPTY && t != LEDGE_TILE_EMPTY)
                fail_msg("%s: tile %s has no image", dir_name[d], ledge_tile_name((ledge_tile)t));
        }
        assert_int_equal(f.tile[LEDGE_TILE_FULL], LEDGE_TILE_FULL);
        // Each floor's surface where floor_height says it is.
        for (int k = 0; k < FLOOR_COUNT; ++k) {
            ledge_world *w = frame_world(&f, LEDGE_FRICTION_N, 1);
            lay_floor(w, &f, (floor_kind)k, -30, 30);
            for (double x = -20.25; x < 20; x += 2.5) {
                double y = probe_floor(w, &f, x), want = floor_height((floor_kind)k, x);
                if (!(fabs(y - want) < 1e-4))
                    fail_msg("%s, %s: the floor at x %g is at %g, not %g", dir_name[d],
                             floor_name[k], x, y, want);
            }
            ledge_world_destroy(w);
        }
    }
}

// --- the first hour, on a default world -------------------------------------

// A default world (gravity (0, -10)) with a floor of FULL tiles on row 0.
static ledge_world *default_level(int workers) {
    ledge_world_def wd = ledge_default_world_def();
    wd.worker_count = workers;
    ledge_world *w = ledge_world_create(&wd);
    assert_non_null(w);
    for (int x = 0; x < 64; ++x)
        assert_true(ledge_tilemap_set(ledge_world_tilemap(w), x, 0, LEDGE_TILE_FULL));
    return w;
}

static ledge_body_id crate_at(ledge_world *w, double x, double y, double hx, double hy,
                              double friction) {
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(hx, hy));
    bd.position = v(x, y);
    bd.friction = (float)friction;
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_true(ledge_body_is_valid(w, id));
    return id;
}

static ledge_body_id hero_at(ledge_world *w, double x, double y) {
    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(CH_HX, CH_HY));
    bd.position = v(x, y);
    ledge_body_id id = ledge_body_create(w, &bd);
    assert_true(ledge_character_create(w, id, NULL));
    return id;
}

// One frame of the README's idiom: run at `speed`, fall at 10 m/s^2.
static void run_frame(ledge_world *w, ledge_body_id hero, double speed) {
    ledge_character_state s;
    ledge_character_get_state(w, hero, &s);
    assert_true(ledge_character_move(w, hero, v(speed, s.velocity.y - 10.0 * DT), DT, &s));
    ledge_world_step(w, DT);
}

// The gap between the hero's right side and the left side of a box of half
// width hx (negative: overlap).
static double gap_to(ledge_world *w, ledge_body_id hero, ledge_body_id box, double hx) {
    return ledge_body_position(w, box).x - hx - (ledge_body_position(w, hero).x + CH_HX);
}

// The scenes: a character 0.6 x 0.9 runs at 6 m/s into a unit
// crate (density 1, mass 1.85 times its own 0.54) of friction 0 and 0.6,
// and into a tower of five. The crate reaches the closed form's speed and
// the character runs on touching it; a tower of five at friction 0.6 is
// too heavy (its floor holds 0.6 x 4 of what rests on it, more than the
// push's 0.54) until push_mass says otherwise; walked into at 1 m/s, the
// top crate of a tower of two rides.
static void test_first_hour(void **state) {
    (void)state;
    for (int fi = 0; fi < 2; ++fi) {
        double f = fi ? 0.6 : 0.0, want = WALK * PUSH / (PUSH + f * 1.0);
        ledge_world *w = default_level(1);
        ledge_body_id crate = crate_at(w, 10.0, 1.5, 0.5, 0.5, f);
        ledge_body_id hero = hero_at(w, 8.0, 1.45);
        double worst_gap = 0.0;
        for (int fr = 0; fr < 120; ++fr) {
            run_frame(w, hero, WALK);
            if (fr > 30) worst_gap = fmax(worst_gap, fabs(gap_to(w, hero, crate, 0.5)));
        }
        double speed = ledge_body_velocity(w, crate).x;
        ledge_character_state s;
        ledge_character_get_state(w, hero, &s);
        if (!(fabs(speed - want) < 1e-3) || !(worst_gap <= 0.005 + 1e-6) || !s.pushing ||
            s.pushed_body.index1 != crate.index1)
            fail_msg("a unit crate of friction %g: %.5f m/s (the closed form %.5f), the character "
                     "%.4f from it at most, pushing %d",
                     f, speed, want, worst_gap, s.pushing);
        print_message("unit crate, friction %.1f: %.4f m/s, w M / (M + f m) = %.4f\n", f, speed,
                      want);
        ledge_world_destroy(w);
    }
    for (int fi = 0; fi < 2; ++fi) { // a tower of five unit crates
        double f = fi ? 0.6 : 0.0;
        for (int strong = 0; strong < 1 + fi; ++strong) {
            ledge_world *w = default_level(1);
            ledge_body_id tower[5];
            for (int k = 0; k < 5; ++k) tower[k] = crate_at(w, 10.0, 1.5 + k, 0.5, 0.5, f);
            ledge_body_id hero = hero_at(w, 8.0, 1.45);
            if (strong) {
                ledge_character_def cd = ledge_default_character_def();
                cd.push_mass = 10.0f;
                assert_true(ledge_character_set_def(w, hero, &cd));
            }
            for (int fr = 0; fr < 30; ++fr) run_frame(w, hero, 0.0); // the tower settles
            double x0 = ledge_body_position(w, tower[0]).x;
            for (int fr = 0; fr < 90; ++fr) run_frame(w, hero, WALK);
            double moved = ledge_body_position(w, tower[0]).x - x0;
            ledge_character_state s;
            ledge_character_get_state(w, hero, &s);
            if (fi && !strong) {
                if (!(fabs(moved) < 1e-3) || !s.on_wall || !s.pushing ||
                    !(fabs(gap_to(w, hero, tower[0], 0.5)) <= 0.006))
                    fail_msg("a tower of 5 at friction 0.6 moved %.4f (too heavy: 0), on_wall %d, "
                             "pushing %d",
                             moved, s.on_wall, s.pushing);
            } else if (!(moved > 1.0)) {
                fail_msg("a tower of 5 at friction %g (push_mass %s) moved only %.4f", f,
                         strong ? "10" : "default", moved);
            }
            print_message("tower of 5, friction %.1f, push_mass %s: the bottom crate moved %.3f m "
                          "in 1.5 s\n",
                          f, strong ? "10" : "default", moved);
            ledge_world_destroy(w);
        }
    }
    { // walked into at 1 m/s, the top crate of a tower of two rides
        ledge_world *w = default_level(1);
        ledge_body_id low = crate_at(w, 10.0, 1.5, 0.5, 0.5, 0.6);
        ledge_body_id top = crate_at(w, 10.0, 2.5, 0.5, 0.5, 0.6);
        ledge_body_id hero = hero_at(w, 9.2, 1.45);
        ledge_character_def cd = ledge_default_character_def();
        cd.push_mass = 5.0f;
        assert_true(ledge_character_set_def(w, hero, &cd));
        for (int fr = 0; fr < 30; ++fr) run_frame(w, hero, 0.0);
        double x0 = ledge_body_position(w, low).x, worst = 0.0;
        for (int fr = 0; fr < 120; ++fr) {
            run_frame(w, hero, 1.0);
            worst =
                fmax(worst, fabs(ledge_body_position(w, top).x - ledge_body_position(w, low).x));
        }
        double moved = ledge_body_position(w, low).x - x0;
        if (!(moved > 1.0) || !(worst < 0.01))
            fail_msg("a tower of two pushed at 1 m/s: moved %.3f, the top slid %.4f on it", moved,
                     worst);
        print_message("tower of 2 pushed at 1 m/s: moved %.3f m, the top crate %.5f m off the "
                      "bottom one at most\n",
                      moved, worst);
        ledge_world_destroy(w);
    }
}

// --- bodies answer -------------------------------------------------------------

static double overlap_of(ledge_world *w, ledge_body_id a, ledge_body_id b) {
    return depth_of(w, a, b);
}

// A crate sliding (friction 0) at 4 m/s into a character that stands still
// shoves it along the floor: the crate slows, sharing its momentum with the
// character's push mass substep after substep, the character goes the
// crate's way, ends touching it, never inside it or a tile. Against a wall
// it is pinned: crushed (state and event) by that crate, never in the wall.
static void test_shoves(void **state) {
    (void)state;
    for (int wall = 0; wall < 2; ++wall) {
        ledge_world *w = default_level(1);
        if (wall)
            for (int y = 1; y < 4; ++y)
                ledge_tilemap_set(ledge_world_tilemap(w), 12, y, LEDGE_TILE_FULL);
        ledge_body_id hero = hero_at(w, wall ? 11.7 : 10.0, 1.45);
        ledge_body_id crate = crate_at(w, 4.0, 1.5, 0.5, 0.5, 0.0);
        ledge_body_set_velocity(w, crate, v(4.0, 0.0));
        double x0 = ledge_body_position(w, hero).x, worst = 0.0, worst_tile = 0.0;
        int crushed = 0, events = 0;
        for (int fr = 0; fr < 150; ++fr) {
            run_frame(w, hero, 0.0);
            ledge_character_state s;
            ledge_character_get_state(w, hero, &s);
            crushed += s.crushed && s.crushed_by.index1 == crate.index1;
            ledge_crush_events ce = ledge_world_crush_events(w);
            for (int k = 0; k < ce.count; ++k)
                events += ce.events[k].body.index1 == hero.index1 &&
                          ce.events[k].crusher.index1 == crate.index1;
            if (!s.crushed) worst = fmax(worst, overlap_of(w, hero, crate));
            worst_tile = fmax(worst_tile, tile_depth(w, hero));
        }
        double moved = ledge_body_position(w, hero).x - x0;
        double speed = ledge_body_velocity(w, crate).x;
        if (!wall) {
            // The crate (1 kg at 4 m/s) and the character (0.54) go on
            // together at u m / (m + M), braked by the character's legs at
            // M g / (m + M): about u^2 m^2 / (2 M g (m + M)) = 0.96 m.
            double reach = 16.0 / (2.0 * PUSH * 10.0 * (1.0 + PUSH));
            if (!(moved > 0.8 * reach && moved < 1.1 * reach) || !(speed < 0.05) ||
                !(worst <= 0.01) || !(worst_tile <= 0.01) || crushed)
                fail_msg(
                    "shoved on open floor: moved %.3f, the crate at %.3f m/s, overlap %.4f, tiles "
                    "%.4f, crushed %d frames",
                    moved, speed, worst, worst_tile, crushed);
            print_message("a crate at 4 m/s into a standing character: shoved %.3f m (%.3f by the "
                          "momentum it shares), the crate at %.3f m/s after 2.5 s\n",
                          moved, reach, speed);
        } else {
            if (!(crushed > 0) || !(events > 0) || !(worst_tile <= 0.01) || !(moved <= 0.01))
                fail_msg("pinned against a wall: crushed %d frames, %d events, in the wall %.4f, "
                         "moved %.4f",
                         crushed, events, worst_tile, moved);
            print_message("pinned against a wall by a crate at 4 m/s: crushed for %d frames (%d "
                          "crush events), never in the wall\n",
                          crushed, events);
        }
        ledge_world_destroy(w);
    }
}

// A crate dropped on a character standing on the floor lands on it (its
// bottom on the character's top, within 2 x linear_slop), the character's
// state and ground say so (on_ceiling, ceiling_body), and it is pinned:
// crushed by the crate, a crush event each step; it walks out from under
// it and the crate falls to the floor. Dropped on a character in the air
// (falling), the crate lands on it and it is not crushed.
static void test_landing(void **state) {
    (void)state;
    for (int air = 0; air < 2; ++air) {
        ledge_world *w = default_level(1);
        // In the air: both fall from rest, the crate 6 m/s faster; it
        // lands on the character long before the character reaches the floor.
        ledge_body_id hero = hero_at(w, 10.0, air ? 30.0 : 1.45);
        ledge_body_id crate = crate_at(w, 10.0, air ? 32.0 : 5.0, 0.4, 0.4, 0.5);
        if (air) ledge_body_set_velocity(w, crate, v(0.0, -6.0));
        int pinned = 0, events = 0, ceiling = 0;
        double worst = 0.0;
        for (int fr = 0; fr < 90; ++fr) {
            run_frame(w, hero, 0.0);
            ledge_character_state s;
            ledge_character_get_state(w, hero, &s);
            if (air && s.on_floor) break;
            ledge_ground g = ledge_body_ground(w, hero);
            ceiling += s.on_ceiling && g.on_ceiling && s.ceiling_body.index1 == crate.index1;
            pinned += s.crushed && s.crushed_by.index1 == crate.index1;
            ledge_crush_events ce = ledge_world_crush_events(w);
            for (int k = 0; k < ce.count; ++k) events += ce.events[k].body.index1 == hero.index1;
            worst = fmax(worst, overlap_of(w, hero, crate));
        }
        double bottom = ledge_body_position(w, crate).y - 0.4,
               top = ledge_body_position(w, hero).y + CH_HY;
        if (!air) {
            if (!(fabs(bottom - top) <= 0.01) || ceiling < 30 || pinned < 30 || events < 30 ||
                !(worst <= 0.01))
                fail_msg("a crate dropped on a standing character: %.4f from its top, on_ceiling "
                         "%d frames, crushed %d, %d crush events, overlap %.4f",
                         bottom - top, ceiling, pinned, events, worst);
            // It walks out from under the crate, which falls to the floor.
            for (int fr = 0; fr < 60; ++fr) run_frame(w, hero, 3.0);
            ledge_character_state s;
            ledge_character_get_state(w, hero, &s);
            if (!(ledge_body_position(w, hero).x > 11.0) ||
                !(ledge_body_position(w, crate).y < 1.5) || s.crushed || s.on_ceiling)
                fail_msg("walking out from under the crate: at %.3f, the crate at height %.3f, "
                         "crushed %d, on_ceiling %d",
                         ledge_body_position(w, hero).x, ledge_body_position(w, crate).y, s.crushed,
                         s.on_ceiling);
            print_message("a crate dropped on a standing character: rests %.4f from its top, "
                          "on_ceiling %d frames, crushed %d (%d crush events); walked out, the "
                          "crate fell to the floor\n",
                          bottom - top, ceiling, pinned, events);
        } else {
            // (The step sees the character as still, its moves being the
            // mover's: the crate lands on it, is stopped, falls after it
            // and lands again, rather than riding it down.)
            if (pinned || ceiling < 1 || !(worst <= 0.01))
                fail_msg("a crate on a character in the air: on_ceiling %d frames, crushed %d, "
                         "overlap %.4f",
                         ceiling, pinned, worst);
            print_message("a crate dropped on a character in the air: on_ceiling %d frames, never "
                          "crushed\n",
                          ceiling);
        }
        ledge_world_destroy(w);
    }
}

// A crate standing on a kinematic platform made with the default body def
// (friction 0) rides it: up and down exactly, sideways by the crate's own
// friction (a contact with a kinematic body uses the larger friction of the
// two). From rest, easing in: within 1 mm; starting at 1 m/s on its first
// frame: it slips once (u / f of a substep's travel), then rides.
static void test_platform_carries_crate(void **state) {
    (void)state;
    for (int mode = 0; mode < 3; ++mode) { // eased sideways, 1 m/s at once, up and down
        ledge_world *w = default_level(1);
        ledge_body_def pd = ledge_default_body_def();
        pd.type = LEDGE_BODY_KINEMATIC;
        pd.shape = ledge_make_box(v(0, 0), v(3.0, 0.25));
        pd.position = v(20.0, 5.0);
        ledge_body_id plat = ledge_body_create(w, &pd);
        ledge_body_id crate = crate_at(w, 20.0, 5.75, 0.5, 0.5, 0.6);
        double worst = 0.0;
        for (int fr = 0; fr < 360; ++fr) {
            double t = (fr + 1) * (double)DT;
            double dx = mode == 0 ? (t < 1.0 ? 0.5 * t * t : t - 0.5) : mode == 1 ? t : 0.0;
            double dy = mode == 2 ? 1.5 * sin(t) : 0.0;
            ledge_body_set_target(w, plat, v(20.0 + dx, 5.0 + dy), DT);
            ledge_world_step(w, DT);
            vec2s pp = ledge_body_position(w, plat), cp = ledge_body_position(w, crate);
            worst = fmax(worst, fabs(cp.x - pp.x));
        }
        double slip = mode == 1 ? 1.0 * DT / 0.6 + 1e-3 : 1e-3;
        if (!(worst <= slip))
            fail_msg(
                "a crate of friction 0.6 on a default platform (%s): slipped %.5f (at most %.5f)",
                mode == 0   ? "eased in"
                : mode == 1 ? "1 m/s at once"
                            : "up and down",
                worst, slip);
        print_message("a crate on a default platform, %s: slipped %.5f m at most over 6 s\n",
                      mode == 0   ? "eased in sideways"
                      : mode == 1 ? "1 m/s from its first frame"
                                  : "up and down",
                      worst);
        ledge_world_destroy(w);
    }
}

// Pushing where the floor is not plain tiles: a crate pushed off a ledge
// falls (and the character never overlaps it); a crate on a one-way
// platform (a row of one-way tiles, and a one-way body) goes at the closed
// form's speed; a character standing on a crate rides it while another
// pushes it; a character and a crate on a platform moving sideways at 2
// m/s, either way (a kinematic body, or a kinematic chain): the crate goes
// at the closed form's speed relative to the platform, and the character
// follows it.
static void test_push_places(void **state) {
    (void)state;
    const double f = 0.3, m = 1.0, want = WALK * PUSH / (PUSH + f * m);
    { // off a ledge
        ledge_world *w = default_level(1);
        for (int x = 14; x < 64; ++x)
            ledge_tilemap_set(ledge_world_tilemap(w), x, 0, LEDGE_TILE_EMPTY);
        ledge_body_id crate = crate_at(w, 12.0, 1.5, 0.5, 0.5, f);
        ledge_body_id hero = hero_at(w, 10.0, 1.45);
        double worst = 0.0;
        for (int fr = 0; fr < 150; ++fr) {
            run_frame(w, hero, 3.0);
            worst = fmax(worst, overlap_of(w, hero, crate));
        }
        if (!(ledge_body_position(w, crate).y < 1.0) || !(worst <= 0.01))
            fail_msg("a crate pushed off a ledge: at height %.3f, overlap %.4f",
                     ledge_body_position(w, crate).y, worst);
        ledge_world_destroy(w);
    }
    for (int body = 0; body < 2; ++body) { // one-way platforms
        ledge_world *w = default_level(1);
        ledge_tilemap *map = ledge_world_tilemap(w);
        if (!body) {
            for (int x = 2; x < 60; ++x) {
                ledge_tilemap_set(map, x, 4, LEDGE_TILE_HALF_U);
                ledge_tilemap_set_one_way(map, x, 4, LEDGE_ONE_WAY_UP);
            }
        } else {
            ledge_body_def pd = ledge_default_body_def();
            pd.type = LEDGE_BODY_STATIC;
            pd.shape = ledge_make_box(v(0, 0), v(28.0, 0.25));
            pd.position = v(31.0, 4.25);
            pd.one_way = LEDGE_ONE_WAY_UP;
            pd.friction = (float)f; // a static body: the pair's sqrt(f f) = f
            ledge_body_create(w, &pd);
        }
        ledge_body_id crate = crate_at(w, 12.0, 5.0, 0.5, 0.5, f);
        ledge_body_id hero = hero_at(w, 10.0, 4.95);
        for (int fr = 0; fr < 20; ++fr) run_frame(w, hero, 0.0);
        for (int fr = 0; fr < 120; ++fr) run_frame(w, hero, WALK);
        double speed = ledge_body_velocity(w, crate).x;
        if (!(fabs(speed - want) < 1e-3))
            fail_msg("a crate pushed on a one-way %s: %.5f m/s, the closed form %.5f",
                     body ? "body" : "tile row", speed, want);
        ledge_world_destroy(w);
    }
    { // a character standing on a crate that another pushes rides it
        ledge_world *w = default_level(1);
        ledge_body_id crate = crate_at(w, 12.0, 1.5, 0.5, 0.5, f);
        ledge_body_id pusher = hero_at(w, 10.0, 1.45);
        ledge_body_id rider = hero_at(w, 12.0, 2.45 + 0.005);
        for (int fr = 0; fr < 20; ++fr) {
            run_frame(w, rider, 0.0);
        }
        double off0 = ledge_body_position(w, rider).x - ledge_body_position(w, crate).x,
               worst = 0.0;
        for (int fr = 0; fr < 90; ++fr) {
            ledge_character_state s;
            ledge_character_get_state(w, rider, &s);
            ledge_character_move(w, rider, v(0.0, s.velocity.y - 10.0 * DT), DT, &s);
            run_frame(w, pusher, 3.0);
            worst = fmax(worst, fabs(ledge_body_position(w, rider).x -
                                     ledge_body_position(w, crate).x - off0));
        }
        ledge_character_state s;
        ledge_character_get_state(w, rider, &s);
        if (!(ledge_body_position(w, crate).x > 13.0) || !(worst < 1e-3) ||
            s.floor_body.index1 != crate.index1)
            fail_msg("riding a pushed crate: the crate at %.3f, the rider off its place by %.5f",
                     ledge_body_position(w, crate).x, worst);
        ledge_world_destroy(w);
    }
    // On a moving platform: a kinematic body, or a kinematic chain (its
    // top face as a chain: the same surface, the same friction 0.3).
    for (int chain = 0; chain < 2; ++chain)
        for (int dir = -1; dir <= 1; dir += 2) {
            ledge_world *w = default_level(1);
            ledge_body_id plat = LEDGE_NULL_BODY_ID;
            ledge_chain_id deck = LEDGE_NULL_CHAIN_ID;
            if (!chain) {
                ledge_body_def pd = ledge_default_body_def();
                pd.type = LEDGE_BODY_KINEMATIC;
                pd.shape = ledge_make_box(v(0, 0), v(8.0, 0.25));
                pd.position = v(30.0, 5.0);
                plat = ledge_body_create(w, &pd);
            } else {
                vec2s top[2] = {v(8.0, 0.25), v(-8.0, 0.25)}; // faces up
                ledge_chain_def cd = ledge_default_chain_def();
                cd.points = top;
                cd.count = 2;
                cd.type = LEDGE_BODY_KINEMATIC;
                cd.position = v(30.0, 5.0);
                deck = ledge_chain_create(w, &cd);
            }
            ledge_body_id crate = crate_at(w, 28.0, 5.75, 0.5, 0.5, f);
            ledge_body_id hero = hero_at(w, 26.6, 5.70 + 0.001);
            for (int fr = 0; fr < 20; ++fr) {
                if (!chain) ledge_body_set_target(w, plat, v(30.0, 5.0), DT);
                if (chain) ledge_chain_set_target(w, deck, v(30.0, 5.0), DT);
                run_frame(w, hero, 0.0);
            }
            double speed = 0.0, worst_gap = 0.0;
            for (int fr = 0; fr < 90; ++fr) {
                vec2s p = chain ? ledge_chain_position(w, deck) : ledge_body_position(w, plat);
                vec2s to = v(p.x + dir * 2.0 * DT, p.y);
                if (!chain) ledge_body_set_target(w, plat, to, DT);
                if (chain) ledge_chain_set_target(w, deck, to, DT);
                ledge_character_state s;
                ledge_character_get_state(w, hero, &s);
                // The game moves the character by its own speed; the step carries it.
                ledge_character_move(w, hero, v(3.0, s.velocity.y - 10.0 * DT), DT, &s);
                ledge_world_step(w, DT);
                vec2s pv = chain ? ledge_chain_velocity(w, deck) : ledge_body_velocity(w, plat);
                speed = ledge_body_velocity(w, crate).x - pv.x;
                if (fr > 45) worst_gap = fmax(worst_gap, fabs(gap_to(w, hero, crate, 0.5)));
            }
            double platform_want = 3.0 * PUSH / (PUSH + f * m);
            if (!(fabs(speed - platform_want) < 2e-3) || !(worst_gap <= 0.006))
                fail_msg("pushing on a %s moving at %+g m/s: %.5f m/s relative to it (the "
                         "closed form %.5f), the character %.4f from the crate",
                         chain ? "chain" : "platform", dir * 2.0, speed, platform_want, worst_gap);
            print_message("pushing at 3 m/s on a %s moving at %+.0f m/s: the crate at %.4f m/s "
                          "relative to it (closed form %.4f)\n",
                          chain ? "chain" : "platform", dir * 2.0, speed, platform_want);
            ledge_world_destroy(w);
        }
}

// --- the same bits -------------------------------------------------------------

// A scene with everything at once: two characters pushing a row and a
// tower, a crate sliding into a third, a crate dropped on it, a platform
// carrying a crate and a pushing character.
typedef struct busy {
    ledge_world *w;
    ledge_body_id hero[3], plat;
} busy;

static void busy_make(busy *b, int workers) {
    b->w = default_level(workers);
    ledge_world *w = b->w;
    for (int k = 0; k < 3; ++k) crate_at(w, 6.0 + 1.0 * k, 1.5, 0.5, 0.5, 0.3);
    for (int k = 0; k < 3; ++k) crate_at(w, 16.0, 1.5 + k, 0.5, 0.5, 0.6);
    ledge_body_id slider = crate_at(w, 22.0, 1.5, 0.5, 0.5, 0.0);
    ledge_body_set_velocity(w, slider, v(3.0, 0.0));
    crate_at(w, 28.0, 6.0, 0.4, 0.4, 0.5);
    b->hero[0] = hero_at(w, 4.0, 1.45);
    b->hero[1] = hero_at(w, 14.0, 1.45);
    b->hero[2] = hero_at(w, 28.0, 1.45);
    ledge_character_def cd = ledge_default_character_def();
    cd.push_mass = 6.0f;
    assert_true(ledge_character_set_def(w, b->hero[1], &cd));
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v(0, 0), v(4.0, 0.25));
    pd.position = v(44.0, 5.0);
    b->plat = ledge_body_create(w, &pd);
    crate_at(w, 45.0, 5.75, 0.5, 0.5, 0.6);
}

static void busy_frame(busy *b, int fr) {
    ledge_world *w = b->w;
    double t = (fr + 1) * (double)DT;
    ledge_body_set_target(w, b->plat, v(44.0 + 2.0 * sin(t), 5.0), DT);
    for (int k = 0; k < 3; ++k) {
        ledge_character_state s;
        ledge_character_get_state(w, b->hero[k], &s);
        double speed = k == 0 ? 4.0 : k == 1 ? 1.5 : (fr > 100 ? 3.0 : 0.0);
        assert_true(
            ledge_character_move(w, b->hero[k], v(speed, s.velocity.y - 10.0 * DT), DT, &s));
    }
    ledge_world_step(w, DT);
}

// The same bits for 1 and 2 workers, every frame, and after a snapshot
// taken mid-push is restored into a fresh world: the same hashes, events
// and character states as the run that never restored.
static void test_push_deterministic(void **state) {
    (void)state;
    busy one, two, later;
    busy_make(&one, 1);
    busy_make(&two, 2);
    static uint8_t snap[1 << 16];
    size_t size = 0;
    int frames = reduced() ? 90 : 180;
    for (int fr = 0; fr < frames; ++fr) {
        busy_frame(&one, fr);
        busy_frame(&two, fr);
        if (ledge_world_hash(one.w) != ledge_world_hash(two.w))
            fail_msg("frame %d: 1 and 2 workers differ", fr);
        if (fr == frames / 2) {
            size = ledge_world_save(one.w, snap, sizeof snap);
            assert_true(size > 0);
            // A world built in the same order: its ids name the restored bodies.
            busy_make(&later, 1);
            assert_true(ledge_world_restore(later.w, snap, size));
        }
        if (fr > frames / 2) {
            busy_frame(&later, fr);
            if (ledge_world_hash(later.w) != ledge_world_hash(one.w))
                fail_msg("frame %d: the restored world differs", fr);
            ledge_crush_events a = ledge_world_crush_events(one.w),
                               c = ledge_world_crush_events(later.w);
            assert_int_equal(a.count, c.count);
            for (int k = 0; k < 3; ++k) {
                ledge_character_state x, y;
                assert_true(ledge_character_get_state(one.w, one.hero[k], &x));
                assert_true(ledge_character_get_state(later.w, later.hero[k], &y));
                if (memcmp(&x.position, &y.position, sizeof x.position) || x.pushing != y.pushing ||
                    x.crushed != y.crushed || x.on_ceiling != y.on_ceiling)
                    fail_msg("frame %d: character %d's state differs after the restore", fr, k);
            }
        }
    }
    ledge_character_state s;
    ledge_character_get_state(one.w, one.hero[0], &s);
    assert_true(s.pushing || ledge_body_position(one.w, one.hero[0]).x > 6.0);
    ledge_world_destroy(one.w);
    ledge_world_destroy(two.w);
    ledge_world_destroy(later.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_deterministic),
        cmocka_unit_test(test_frames),
        cmocka_unit_test(test_first_hour),
        cmocka_unit_test(test_shoves),
        cmocka_unit_test(test_landing),
        cmocka_unit_test(test_platform_carries_crate),
        cmocka_unit_test(test_push_places),
        cmocka_unit_test(test_push_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
