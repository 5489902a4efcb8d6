// The benchmark scenes (docs/benchmarks.md, "The scenes"), their quality
// figures and the integrate-only floor. Public API only: the scene must be
// one that a game (or a peer engine) could build from the spec's words.
#include "peers.h"
#include "scenes.h"

ledge_friction_law scene_friction = LEDGE_FRICTION_N;
int scene_worker_count = 1;
bool scene_sleep = false;
float scene_sleep_time = 0.5f;
bool scene_events = false;
ledge_enqueue_task_fn *scene_enqueue_task;
ledge_finish_task_fn *scene_finish_task;
void *scene_task_context;

ledge_world_def scene_world_def(void) {
    ledge_world_def wd = ledge_default_world_def();
    wd.friction_law = scene_friction;
    wd.worker_count = scene_worker_count;
    wd.enqueue_task = scene_enqueue_task;
    wd.finish_task = scene_finish_task;
    wd.user_task_context = scene_task_context;
    wd.enable_sleep = scene_sleep;
    wd.sleep_time = scene_sleep_time;
    return wd;
}

#include <math.h>
#include <stdlib.h>
#include <string.h>

static vec2s vec(double x, double y) {
    vec2s r = {{(float)x, (float)y}};
    return r;
}

/// ceil(sqrt(n)) exactly: the double square root may round either way near
/// a perfect square, and the spec's layout depends on the exact value.
static int ceil_sqrt(int n) {
    int c = (int)ceil(sqrt((double)n));
    while (c > 1 && (c - 1) * (c - 1) >= n) --c;
    while (c * c < n) ++c;
    return c;
}

// Builds the world of size width x height (cell (0, 0) at (0, origin_y))
// and the rain circles, `cols` to a row; the tiles are the caller's.
static bool build_cols(int n, int cols, int width, int height, float origin_y, scene *out) {
    memset(out, 0, sizeof *out);
    if (n < 2 || cols < 1) return false;
    out->cols = cols;
    out->rows = (n + cols - 1) / cols;
    out->width = width;
    out->height = height;
    out->gravity = vec(0, -10);
    out->gravity_scale = 1.0f;
    out->drag = 0.0f;

    ledge_world_def wd = scene_world_def();
    wd.gravity = out->gravity;
    wd.tile_size = 1.0f;
    wd.map_width = width;
    wd.map_height = height;
    wd.map_origin = vec(0, origin_y);
    wd.body_capacity = n;
    out->world = ledge_world_create(&wd);
    out->bodies = malloc(sizeof *out->bodies * (size_t)n);
    if (out->world == NULL || out->bodies == NULL) {
        scene_destroy(out);
        return false;
    }

    ledge_body_def bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_DYNAMIC;
    bd.shape = ledge_make_circle(vec(0, 0), RAIN_RADIUS);
    bd.density = RAIN_DENSITY;
    bd.friction = RAIN_FRICTION;
    bd.bounce = RAIN_BOUNCE;
    bd.gravity_scale = out->gravity_scale;
    bd.drag = out->drag;
    bd.enable_events = scene_events;
    for (int k = 0; k < n; ++k) {
        bd.position = rain_start(cols, k);
        out->bodies[k] = ledge_body_create(out->world, &bd);
        if (!ledge_body_is_valid(out->world, out->bodies[k])) {
            scene_destroy(out);
            return false;
        }
        out->count = k + 1;
    }
    return true;
}

// build_cols with the rain's ceil(sqrt(N)) circles to a row.
static bool build(int n, int width, int height, float origin_y, scene *out) {
    return build_cols(n, ceil_sqrt(n), width, height, origin_y, out);
}

bool rain_layout_for(int n, rain_layout *out) {
    memset(out, 0, sizeof *out);
    if (n < 2) return false;
    out->count = n;
    out->cols = ceil_sqrt(n);
    out->rows = (n + out->cols - 1) / out->cols;
    out->width = out->cols + 2;
    out->height = out->rows + 10;
    return true;
}

vec2s rain_start(int cols, int k) {
    // The spec's formula, integer division and remainder as written.
    return vec(1.5 + (k % cols) + 0.01 * ((7 * k) % 11 - 5), 7 + (k / cols));
}

bool scene_rain(int n, scene *out) {
    rain_layout l;
    if (!rain_layout_for(n, &l)) {
        memset(out, 0, sizeof *out);
        return false;
    }
    if (!build(n, l.width, l.height, 0.0f, out)) return false;
    if (!rain_fill_map(ledge_world_tilemap(out->world), l.width, l.height)) {
        scene_destroy(out);
        return false;
    }
    return true;
}

bool scene_rain_column(int cols, int rows, scene *out) {
    int width = cols + 2, height = rows + 10;
    if (!build_cols(cols * rows, cols, width, height, 0.0f, out)) return false;
    if (!rain_fill_map(ledge_world_tilemap(out->world), width, height)) {
        scene_destroy(out);
        return false;
    }
    return true;
}

ledge_tilemap *rain_map_create(const rain_layout *l) {
    ledge_tilemap_def md = ledge_default_tilemap_def();
    md.width = l->width;
    md.height = l->height;
    md.tile_size = 1.0f;
    md.origin = vec(0, 0);
    ledge_tilemap *map = ledge_tilemap_create(&md);
    if (map && !rain_fill_map(map, l->width, l->height)) {
        ledge_tilemap_destroy(map);
        map = NULL;
    }
    return map;
}

bool rain_fill_map(ledge_tilemap *map, int w, int h) {
    bool ok = true;
    for (int j = 0; j < h; ++j) {
        ok &= ledge_tilemap_set(map, 0, j, LEDGE_TILE_FULL);
        ok &= ledge_tilemap_set(map, w - 1, j, LEDGE_TILE_FULL);
    }
    for (int i = 1; i <= w - 2; ++i) {
        ok &= ledge_tilemap_set(map, i, 0, LEDGE_TILE_FULL);
        if (i % 8 == 0) ok &= ledge_tilemap_set(map, i, 4, LEDGE_TILE_FULL);
    }
    // The slope ids name the signs of the surface normal (tiles.h) and the
    // solid right-angle corner is R = centre - (sx, sy) / 2. Left triangle
    // (1,1)(2,1)(1,2): right angle at (1,1), the cell's lower-left corner,
    // so (sx, sy) = (+1, +1): 45DEG_PP, normal up and to the right, toward
    // the inside. Right triangle (W-2,1)(W-1,1)(W-1,2): right angle at
    // (W-1,1), the lower-right corner, so (-1, +1): 45DEG_NP, normal up and
    // to the left. (In N's y-down levels these would be NN and PN.)
    ok &= ledge_tilemap_set(map, 1, 1, LEDGE_TILE_45DEG_PP);
    ok &= ledge_tilemap_set(map, w - 2, 1, LEDGE_TILE_45DEG_NP);
    return ok;
}

// splitmix64: a small seeded generator, so that the scene is the same on
// every machine.
static double next_unit(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

bool scene_bullets(int n, uint64_t seed, bool bullet, float speed, scene *out) {
    memset(out, 0, sizeof *out);
    if (n < 1) return false;
    out->width = out->height = 64;
    out->gravity = vec(0, -10);
    out->gravity_scale = 1.0f;
    ledge_world_def wd = scene_world_def();
    wd.gravity = out->gravity;
    wd.map_width = wd.map_height = 64;
    wd.body_capacity = n;
    out->world = ledge_world_create(&wd);
    out->bodies = malloc(sizeof *out->bodies * (size_t)n);
    out->bay = malloc(sizeof *out->bay * (size_t)n);
    if (out->world == NULL || out->bodies == NULL || out->bay == NULL) {
        scene_destroy(out);
        return false;
    }
    ledge_tilemap *map = ledge_world_tilemap(out->world);
    bool ok = true;
    for (int i = 0; i < 64; i += 8) {
        for (int j = 0; j < 64; ++j) ok &= ledge_tilemap_set(map, i, j, LEDGE_TILE_FULL);
    }
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_circle(vec(0, 0), BULLET_RADIUS);
    bd.bullet = bullet;
    uint64_t state = seed;
    for (int k = 0; k < n && ok; ++k) {
        int bay = (int)(next_unit(&state) * 7.0); // 0..6: between walls 8 bay and 8 bay + 8
        double x = 8.0 * bay + 1.0 + 0.1 + 6.8 * next_unit(&state);
        double y = 0.5 + 63.0 * next_unit(&state);
        double dir = next_unit(&state) < 0.5 ? -1.0 : 1.0;
        bd.position = vec(x, y);
        bd.velocity = vec(dir * speed, 0);
        out->bodies[k] = ledge_body_create(out->world, &bd);
        out->bay[k] = bay;
        ok = ledge_body_is_valid(out->world, out->bodies[k]);
        out->count = k + 1;
    }
    if (!ok) scene_destroy(out);
    return ok;
}

int scene_bullets_crossed(const scene *s) {
    int crossed = 0;
    for (int k = 0; k < s->count; ++k) {
        vec2s p = ledge_body_position(s->world, s->bodies[k]);
        double bay = floor((double)p.x / 8.0);
        if (!isfinite(p.x) || !isfinite(p.y) || bay != (double)s->bay[k]) crossed++;
    }
    return crossed;
}

bool scene_rain_open(int n, int steps, float dt, scene *out) {
    if (n < 2 || steps < 0 || !(dt > 0.0f)) {
        memset(out, 0, sizeof *out);
        return false;
    }
    int cols = ceil_sqrt(n), rows = (n + cols - 1) / cols;
    // Semi-implicit Euler from rest falls g dt^2 s (s + 1) / 2 in s steps;
    // two cells of margin for the radius and rounding.
    double drop = 10.0 * (double)dt * dt * steps * (steps + 1.0) / 2.0;
    int below = (int)ceil(drop) + 2;
    return build(n, cols + 2, rows + 10 + below, (float)-below, out);
}

bool scene_crowd(int n, const char *map_text, int width, int height, scene *out) {
    memset(out, 0, sizeof *out);
    if (n < 1) return false;
    ledge_world_def wd = scene_world_def();
    wd.map_width = width;
    wd.map_height = height;
    wd.body_capacity = n;
    out->world = ledge_world_create(&wd);
    out->bodies = malloc(sizeof *out->bodies * (size_t)n);
    out->dir = malloc((size_t)n);
    out->width = width;
    out->height = height;
    out->gravity = wd.gravity;
    out->gravity_scale = 1.0f;
    if (!out->world || !out->bodies || !out->dir ||
        !ledge_tilemap_load_ascii(ledge_world_tilemap(out->world), map_text)) {
        scene_destroy(out);
        return false;
    }
    ledge_tilemap *map = ledge_world_tilemap(out->world);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = ledge_make_box(vec(0, 0), vec(CROWD_HALF_X, CROWD_HALF_Y));
    for (int j = height - 1; j >= 0 && out->count < n; --j) {
        for (int i = 0; i < width && out->count < n; ++i) {
            if (ledge_tilemap_get(map, i, j) != LEDGE_TILE_EMPTY) continue;
            int k = out->count;
            out->dir[k] = (signed char)(k % 2 ? -1 : 1);
            bd.position = vec(i + 0.5, j + 0.5);
            bd.velocity = vec(out->dir[k] * CROWD_RUN, 0);
            out->bodies[k] = ledge_body_create(out->world, &bd);
            if (!ledge_body_is_valid(out->world, out->bodies[k])) {
                scene_destroy(out);
                return false;
            }
            out->count = k + 1;
        }
    }
    if (out->count < n) scene_destroy(out);
    return out->world != NULL;
}

int scene_crowd_control(scene *s) {
    ledge_tilemap *map = ledge_world_tilemap(s->world);
    float right = (float)s->width - 1.0f;
    for (int k = 0; k < s->count; ++k) {
        vec2s p = ledge_body_position(s->world, s->bodies[k]);
        vec2s u = ledge_body_velocity(s->world, s->bodies[k]);
        if (p.x < 1.0f) s->dir[k] = 1;
        if (p.x > right) s->dir[k] = -1;
        float d = s->dir[k];
        float feet = p.y - CROWD_HALF_Y;
        bool ground = ledge_tilemap_query_point(map, vec(p.x, feet - 0.05f), NULL);
        bool wall = ledge_tilemap_query_point(
            map, vec(p.x + d * (CROWD_HALF_X + 0.05f), feet + 0.25f), NULL);
        if (ground && wall) u.y = CROWD_JUMP;
        u.x = d * CROWD_RUN;
        ledge_body_set_velocity(s->world, s->bodies[k], u);
    }
    return 2 * s->count;
}

void scene_destroy(scene *s) {
    ledge_world_destroy(s->world);
    free(s->bodies);
    free(s->bay);
    free(s->dir);
    memset(s, 0, sizeof *s);
}

// --- quality ----------------------------------------------------------------

/// A body that is measured against the others.
typedef struct probe {
    double x, y, r;
} probe;

/// The largest circle-circle penetration among `p`: a counting-sort uniform
/// grid of cells at least one diameter wide, so that every overlapping pair
/// lies in neighbouring cells, and each pair tested once, in double.
static double max_circle_overlap(const probe *p, int n, double x0, double y0, double x1,
                                 double y1) {
    if (n < 2) return 0.0;
    double rmax = 0.0;
    for (int i = 0; i < n; ++i) rmax = fmax(rmax, p[i].r);
    double h = 2.0 * rmax;
    int gx = (int)((x1 - x0) / h) + 1, gy = (int)((y1 - y0) / h) + 1;
    int *start = calloc((size_t)gx * gy + 1, sizeof *start);
    int *cell = malloc(sizeof *cell * (size_t)n);
    int *order = malloc(sizeof *order * (size_t)n);
    if (!start || !cell || !order) {
        free(start);
        free(cell);
        free(order);
        return INFINITY; // cannot measure: fail loudly rather than report 0
    }
    for (int i = 0; i < n; ++i) {
        int cx = (int)((p[i].x - x0) / h), cy = (int)((p[i].y - y0) / h);
        cx = cx < 0 ? 0 : cx >= gx ? gx - 1 : cx;
        cy = cy < 0 ? 0 : cy >= gy ? gy - 1 : cy;
        cell[i] = cy * gx + cx;
        start[cell[i] + 1]++;
    }
    for (int c = 0; c < gx * gy; ++c) start[c + 1] += start[c];
    {
        int *fill = malloc(sizeof *fill * (size_t)gx * gy);
        if (!fill) {
            free(start);
            free(cell);
            free(order);
            return INFINITY;
        }
        memcpy(fill, start, sizeof *fill * (size_t)gx * gy);
        for (int i = 0; i < n; ++i) order[fill[cell[i]]++] = i;
        free(fill);
    }
    double worst = 0.0;
    for (int i = 0; i < n; ++i) {
        int cx = cell[i] % gx, cy = cell[i] / gx;
        for (int yy = cy - 1; yy <= cy + 1; ++yy) {
            if (yy < 0 || yy >= gy) continue;
            for (int xx = cx - 1; xx <= cx + 1; ++xx) {
                if (xx < 0 || xx >= gx) continue;
                int c = yy * gx + xx;
                for (int s = start[c]; s < start[c + 1]; ++s) {
                    int j = order[s];
                    if (j <= i) continue; // each pair once
                    double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y;
                    double pen = p[i].r + p[j].r - sqrt(dx * dx + dy * dy);
                    if (pen > worst) worst = pen;
                }
            }
        }
    }
    free(start);
    free(cell);
    free(order);
    return worst;
}

scene_figures circles_quality(const ledge_tilemap *map, int n, const double *pos, const double *vel,
                              double radius) {
    scene_figures q;
    memset(&q, 0, sizeof q);
    q.count = n;
    ledge_tilemap_def md = ledge_tilemap_get_def(map);
    double x0 = md.origin.x, y0 = md.origin.y;
    double x1 = x0 + (double)md.width * md.tile_size, y1 = y0 + (double)md.height * md.tile_size;
    probe *p = malloc(sizeof *p * (size_t)(n > 0 ? n : 1));
    if (!p) {
        q.escaped = n; // cannot measure: fail loudly
        return q;
    }
    ledge_shape circle = ledge_make_circle(vec(0, 0), (float)radius);
    int np = 0;
    for (int k = 0; k < n; ++k) {
        double cx = pos[2 * k], cy = pos[2 * k + 1], vx = vel[2 * k], vy = vel[2 * k + 1];
        bool finite = isfinite(cx) && isfinite(cy) && isfinite(vx) && isfinite(vy);
        if (!finite || !(cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1)) {
            q.escaped++;
            continue;
        }
        double speed = hypot(vx, vy);
        q.max_speed = fmax(q.max_speed, speed);
        q.moving += speed > RAIN_MOVING_SPEED;
        q.inside_solid += ledge_tilemap_query_point(map, vec(cx, cy), NULL);
        // A circle touches at most 3 x 3 cells here (diameter < 1 cell, the
        // scan grown by a few ulps); 16 leaves room for any of them.
        ledge_tile_contact contacts[16];
        int nc = ledge_tilemap_collide(map, &circle, vec(cx, cy), contacts, 16);
        for (int c = 0; c < nc && c < 16; ++c) {
            q.max_tile_overlap = fmax(q.max_tile_overlap, contacts[c].manifold.depth);
        }
        p[np].x = cx;
        p[np].y = cy;
        p[np].r = radius;
        ++np;
    }
    q.max_body_overlap = max_circle_overlap(p, np, x0, y0, x1, y1);
    free(p);
    return q;
}

scene_figures scene_quality(const scene *s) {
    size_t n = (size_t)(s->count > 0 ? s->count : 1);
    double *pos = malloc(sizeof *pos * 2 * n), *vel = malloc(sizeof *vel * 2 * n);
    double radius = 0.0;
    if (!pos || !vel) {
        free(pos);
        free(vel);
        scene_figures q;
        memset(&q, 0, sizeof q);
        q.count = q.escaped = s->count; // cannot measure: fail loudly
        return q;
    }
    for (int k = 0; k < s->count; ++k) {
        vec2s p = ledge_body_position(s->world, s->bodies[k]);
        vec2s u = ledge_body_velocity(s->world, s->bodies[k]);
        const ledge_shape *shape = ledge_body_shape(s->world, s->bodies[k]);
        pos[2 * k] = (double)p.x + shape->center.x;
        pos[2 * k + 1] = (double)p.y + shape->center.y;
        vel[2 * k] = u.x;
        vel[2 * k + 1] = u.y;
        radius = shape->radius; // every rain body has the same circle
    }
    scene_figures q = circles_quality(ledge_world_tilemap(s->world), s->count, pos, vel, radius);
    q.hash = ledge_world_hash(s->world);
    free(pos);
    free(vel);
    return q;
}

// --- the integrate-only floor ----------------------------------------------

bool scene_floor_create(const scene *s, scene_floor *out) {
    memset(out, 0, sizeof *out);
    size_t n = (size_t)(s->count > 0 ? s->count : 1);
    out->count = s->count;
    out->gravity = s->gravity;
    out->alive = malloc(n);
    out->type = malloc(n);
    out->position = malloc(sizeof *out->position * n);
    out->velocity = malloc(sizeof *out->velocity * n);
    out->gravity_scale = malloc(sizeof *out->gravity_scale * n);
    out->drag = malloc(sizeof *out->drag * n);
    if (!out->alive || !out->type || !out->position || !out->velocity || !out->gravity_scale ||
        !out->drag) {
        scene_floor_destroy(out);
        return false;
    }
    for (int k = 0; k < s->count; ++k) {
        out->alive[k] = 1;
        out->type[k] = (uint8_t)ledge_body_get_type(s->world, s->bodies[k]);
        out->position[k] = ledge_body_position(s->world, s->bodies[k]);
        out->velocity[k] = ledge_body_velocity(s->world, s->bodies[k]);
        out->gravity_scale[k] = s->gravity_scale;
        out->drag[k] = s->drag;
    }
    return true;
}

// The world's stage 1, operation for operation and in the same two passes
// (src/world.c: integrate_velocity, then integrate_position; the world
// replays contacts between them), so that a contact-free world and the floor
// agree to the bit and the ratio step / floor is what collision costs.
void scene_floor_step(scene_floor *f, float dt) {
    vec2s g = f->gravity;
    for (int i = 0; i < f->count; ++i) {
        if (!f->alive[i] || f->type[i] != LEDGE_BODY_DYNAMIC) continue;
        float s = f->gravity_scale[i] * dt;
        vec2s v = f->velocity[i];
        v.x = v.x + g.x * s;
        v.y = v.y + g.y * s;
        float k = 1.0f / (1.0f + dt * f->drag[i]);
        f->velocity[i].x = v.x * k;
        f->velocity[i].y = v.y * k;
    }
    for (int i = 0; i < f->count; ++i) {
        if (!f->alive[i] || f->type[i] == LEDGE_BODY_STATIC) continue;
        f->position[i].x = f->position[i].x + f->velocity[i].x * dt;
        f->position[i].y = f->position[i].y + f->velocity[i].y * dt;
    }
}

void scene_floor_destroy(scene_floor *f) {
    free(f->alive);
    free(f->type);
    free(f->position);
    free(f->velocity);
    free(f->gravity_scale);
    free(f->drag);
    memset(f, 0, sizeof *f);
}

ledge_world *scene_walled_world(ledge_world_def wd, int size) {
    wd.map_width = size;
    wd.map_height = size;
    ledge_world *w = ledge_world_create(&wd);
    if (w == NULL) return NULL;
    ledge_tilemap *m = ledge_world_tilemap(w);
    bool ok = true;
    for (int k = 0; k < size; ++k) {
        ok &= ledge_tilemap_set(m, k, 0, LEDGE_TILE_FULL);
        ok &= ledge_tilemap_set(m, k, size - 1, LEDGE_TILE_FULL);
        ok &= ledge_tilemap_set(m, 0, k, LEDGE_TILE_FULL);
        ok &= ledge_tilemap_set(m, size - 1, k, LEDGE_TILE_FULL);
    }
    if (!ok) {
        ledge_world_destroy(w);
        return NULL;
    }
    return w;
}

// --- the peers' static shapes (peers.h) ----------------------------------------

bool peer_each_tile(const ledge_tilemap *map, peer_tile_fn *fn, void *user) {
    ledge_tilemap_def md = ledge_tilemap_get_def(map);
    for (int j = 0; j < md.height; ++j) {
        for (int i = 0; i < md.width; ++i) {
            ledge_tile t = ledge_tilemap_get(map, i, j);
            if (t == LEDGE_TILE_EMPTY) continue;
            vec2s corner = {
                {md.origin.x + (float)i * md.tile_size, md.origin.y + (float)j * md.tile_size}};
            ledge_tile_outline o;
            if (!ledge_tile_outline_get(t, corner, md.tile_size, &o) || o.arc_edge >= 0 ||
                o.count > 4) {
                return false; // boxes and triangles only
            }
            double xy[8];
            for (int k = 0; k < o.count; ++k) {
                xy[2 * k] = o.points[k].x;
                xy[2 * k + 1] = o.points[k].y;
            }
            fn(user, xy, o.count);
        }
    }
    return true;
}
