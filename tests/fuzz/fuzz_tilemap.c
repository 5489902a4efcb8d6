// Fuzz harness: the tilemap (tilemap.h) loaded from arbitrary text by both
// loaders, then driven by arbitrary set/get/edge/query/raycast/collide
// calls. Checks, besides "no crash, no sanitizer report":
// - a refused load leaves the map unchanged; a refused set too; a set that
//   succeeds is what get returns;
// - a cell side has one state seen from both cells, and it is the one the
//   two tiles imply for FULL/EMPTY pairs;
// - a point deep inside a FULL cell is solid, deep inside an EMPTY cell
//   (with EMPTY neighbours) it is not;
// - region queries list non-empty cells of the map that meet the box, in
//   row-major order; ray hits have fractions in [0, 1], unit normals and a
//   solid cell; a ray starting in solid hits at fraction 0; contacts have
//   unit normals and finite depths.
//
// Input: 6 header bytes (width, height, tile size, origin, loader), the
// level text up to the first 0 byte, then the calls.
#include "fuzz_common.h"

#define MAX_SIDE 40

typedef struct snapshot {
    int w, h;
    ledge_tile t[MAX_SIDE * MAX_SIDE];
} snapshot;

static void take(const ledge_tilemap *m, int w, int h, snapshot *s) {
    s->w = w;
    s->h = h;
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) s->t[y * w + x] = ledge_tilemap_get(m, x, y);
    }
}

static bool same(const snapshot *a, const snapshot *b) {
    return memcmp(a->t, b->t, sizeof(ledge_tile) * (size_t)(a->w * a->h)) == 0;
}

static void check_side(const ledge_tilemap *m, int x, int y) {
    ledge_edge e = ledge_tilemap_edge(m, x, y, LEDGE_SIDE_XPOS);
    CHECK(e == ledge_tilemap_edge(m, x + 1, y, LEDGE_SIDE_XNEG), "side x (%d, %d)", x, y);
    ledge_edge f = ledge_tilemap_edge(m, x, y, LEDGE_SIDE_YPOS);
    CHECK(f == ledge_tilemap_edge(m, x, y + 1, LEDGE_SIDE_YNEG), "side y (%d, %d)", x, y);
    ledge_tile a = ledge_tilemap_get(m, x, y);
    ledge_tile b = ledge_tilemap_get(m, x + 1, y), c = ledge_tilemap_get(m, x, y + 1);
    bool plain_a = a == LEDGE_TILE_FULL || a == LEDGE_TILE_EMPTY;
    if (plain_a && (b == LEDGE_TILE_FULL || b == LEDGE_TILE_EMPTY)) {
        CHECK(e == (a == b ? LEDGE_EDGE_OFF : LEDGE_EDGE_SOLID), "edge %d between %d and %d", e, a,
              b);
    }
    if (plain_a && (c == LEDGE_TILE_FULL || c == LEDGE_TILE_EMPTY)) {
        CHECK(f == (a == c ? LEDGE_EDGE_OFF : LEDGE_EDGE_SOLID), "edge %d between %d and %d", f, a,
              c);
    }
}

static bool all_empty_around(const ledge_tilemap *m, int x, int y) {
    for (int j = y - 1; j <= y + 1; ++j) {
        for (int i = x - 1; i <= x + 1; ++i) {
            if (ledge_tilemap_get(m, i, j) != LEDGE_TILE_EMPTY) return false;
        }
    }
    return true;
}

static void op_point(const ledge_tilemap *m, const ledge_tilemap_def *d, reader *r) {
    int x = (int)(rd_u8(r) % (MAX_SIDE + 4)) - 2, y = (int)(rd_u8(r) % (MAX_SIDE + 4)) - 2;
    float u = 0.1f + 0.8f * (float)rd_u8(r) / 255.0f, w = 0.1f + 0.8f * (float)rd_u8(r) / 255.0f;
    vec2s p = {
        {d->origin.x + ((float)x + u) * d->tile_size, d->origin.y + ((float)y + w) * d->tile_size}};
    int cx, cy;
    ledge_tilemap_cell_at(m, p, &cx, &cy);
    CHECK(cx == x && cy == y, "cell_at (%d, %d) for a point in (%d, %d)", cx, cy, x, y);
    ledge_tile_hit hit;
    bool solid = ledge_tilemap_query_point(m, p, &hit);
    ledge_tile t = ledge_tilemap_get(m, x, y);
    if (t == LEDGE_TILE_FULL) CHECK(solid, "a point in FULL (%d, %d) is not solid", x, y);
    if (all_empty_around(m, x, y)) CHECK(!solid, "a point in EMPTY (%d, %d) is solid", x, y);
    if (solid) {
        // A ray from a solid point hits at once.
        vec2s move = {{(float)(int8_t)rd_u8(r) / 16.0f, (float)(int8_t)rd_u8(r) / 16.0f}};
        ledge_ray_hit rh;
        CHECK(ledge_tilemap_raycast(m, p, move, &rh) && rh.fraction == 0.0f,
              "a ray from a solid point");
    }
}

static void op_region(const ledge_tilemap *m, reader *r) {
    ledge_aabb box;
    box.lower = rd_vec(r);
    box.upper = rd_vec(r);
    ledge_tile_hit out[64];
    int max_out = rd_u8(r) % 65;
    int n = ledge_tilemap_query_region(m, box, max_out ? out : NULL, max_out);
    CHECK(n >= 0, "region count %d", n);
    ledge_tilemap_def d = ledge_tilemap_get_def(m);
    for (int i = 0; i < n && i < max_out; ++i) {
        CHECK(out[i].x >= 0 && out[i].y >= 0 && out[i].x < d.width && out[i].y < d.height,
              "region cell (%d, %d) outside the map", out[i].x, out[i].y);
        CHECK(out[i].tile != LEDGE_TILE_EMPTY && out[i].tile < LEDGE_TILE_COUNT, "region tile %d",
              out[i].tile);
        CHECK(out[i].tile == ledge_tilemap_get(m, out[i].x, out[i].y), "region tile mismatch");
        if (i > 0) {
            CHECK(out[i].y > out[i - 1].y || (out[i].y == out[i - 1].y && out[i].x > out[i - 1].x),
                  "region order");
        }
    }
}

static void op_ray(const ledge_tilemap *m, reader *r) {
    vec2s o = rd_vec(r), t = rd_vec(r);
    ledge_ray_hit h;
    if (!ledge_tilemap_raycast(m, o, t, &h)) return;
    CHECK(h.fraction >= 0.0f && h.fraction <= 1.0f, "fraction %g", (double)h.fraction);
    CHECK(vec_finite(h.point), "point");
    CHECK(vec_finite(h.normal) && unit(h.normal), "normal (%g, %g)", (double)h.normal.x,
          (double)h.normal.y);
    CHECK(h.tile != LEDGE_TILE_EMPTY && h.tile == ledge_tilemap_get(m, h.cell_x, h.cell_y),
          "hit tile %d at (%d, %d)", h.tile, h.cell_x, h.cell_y);
}

static void op_collide(const ledge_tilemap *m, reader *r) {
    bool bad;
    ledge_shape s = rd_shape(r, true, &bad);
    vec2s pos = rd_vec(r);
    ledge_tile_contact out[16];
    int max_out = rd_u8(r) % 17;
    int n = ledge_tilemap_collide(m, &s, pos, max_out ? out : NULL, max_out);
    if (n < 0 || bad) return;
    for (int i = 0; i < n && i < max_out; ++i) {
        const ledge_manifold *c = &out[i].manifold;
        CHECK(c->hit && vec_finite(c->normal) && unit(c->normal), "contact normal (%g, %g)",
              (double)c->normal.x, (double)c->normal.y);
        CHECK(isfinite(c->depth) && c->depth > 0.0f, "contact depth %g", (double)c->depth);
        CHECK(out[i].tile == ledge_tilemap_get(m, out[i].x, out[i].y), "contact tile");
    }
    // The nearest tile within a reach taken from the same bytes (the
    // decoding of later operations stays as it was).
    float reach = (float)(max_out % 5);
    ledge_tilemap_distance_result d;
    bool found = ledge_tilemap_distance(m, &s, pos, reach, &d);
    if (n > 0)
        CHECK(found && d.distance.distance == 0.0f, "a contact but distance %g",
              (double)d.distance.distance);
    if (!found) return;
    CHECK(d.distance.distance >= 0.0f && d.distance.distance <= reach, "distance %g, reach %g",
          (double)d.distance.distance, (double)reach);
    CHECK(vec_finite(d.distance.normal) && unit(d.distance.normal), "distance normal (%g, %g)",
          (double)d.distance.normal.x, (double)d.distance.normal.y);
    CHECK(vec_finite(d.distance.point_a) && vec_finite(d.distance.point_b), "distance points");
    CHECK(d.tile == ledge_tilemap_get(m, d.cell_x, d.cell_y) && d.tile != LEDGE_TILE_EMPTY,
          "distance tile %d at (%d, %d)", d.tile, d.cell_x, d.cell_y);
}

static void op_set(ledge_tilemap *m, const ledge_tilemap_def *d, reader *r) {
    int x = (int)(rd_u8(r) % (MAX_SIDE + 6)) - 3, y = (int)(rd_u8(r) % (MAX_SIDE + 6)) - 3;
    ledge_tile t = (ledge_tile)(rd_u8(r) % 40);
    ledge_tile before = ledge_tilemap_get(m, x, y);
    bool ok = ledge_tilemap_set(m, x, y, t);
    bool inside = x >= 0 && y >= 0 && x < d->width && y < d->height;
    CHECK(ok == (inside && t < LEDGE_TILE_COUNT), "set (%d, %d) to %d returned %d", x, y, t, ok);
    CHECK(ledge_tilemap_get(m, x, y) == (ok ? t : before), "get after set");
    check_side(m, x - 1, y);
    check_side(m, x, y - 1);
    check_side(m, x, y);
}

static void load(ledge_tilemap *m, const ledge_tilemap_def *d, reader *r, bool ascii) {
    size_t end = r->at;
    while (end < r->n && r->p[end] != 0) ++end;
    size_t len = end - r->at;
    char *text = malloc(len + 1);
    if (text == NULL) return;
    memcpy(text, r->p + r->at, len);
    text[len] = 0;
    r->at = end < r->n ? end + 1 : end;
    static snapshot before, after;
    take(m, d->width, d->height, &before);
    bool ok = ascii ? ledge_tilemap_load_ascii(m, text) : ledge_tilemap_load_n(m, text);
    take(m, d->width, d->height, &after);
    if (!ok) CHECK(same(&before, &after), "a refused load changed the map");
    for (int i = 0; i < d->width * d->height; ++i) CHECK(after.t[i] < LEDGE_TILE_COUNT, "tile id");
    for (int y = -1; y < d->height; ++y) {
        for (int x = -1; x < d->width; ++x) check_side(m, x, y);
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_init();
    reader r = {data, size, 0};
    ledge_tilemap_def d = ledge_default_tilemap_def();
    d.width = 1 + rd_u8(&r) % MAX_SIDE;
    d.height = 1 + rd_u8(&r) % MAX_SIDE;
    static const float sizes[] = {1.0f, 0.5f, 2.0f, 16.0f, 0.01f, 1.0e-4f, 3.0f, 24.0f};
    d.tile_size = sizes[rd_u8(&r) % 8];
    d.origin.x = (float)(int8_t)rd_u8(&r) / 4.0f;
    d.origin.y = (float)(int8_t)rd_u8(&r) / 4.0f;
    uint8_t loader = rd_u8(&r);
    ledge_tilemap *m = ledge_tilemap_create(&d);
    if (m == NULL) return 0;
    load(m, &d, &r, loader & 1);
    for (int ops = 0; rd_more(&r) && ops < 256; ++ops) {
        switch (rd_u8(&r) % 6) {
        case 0:
            op_set(m, &d, &r);
            break;
        case 1:
            op_point(m, &d, &r);
            break;
        case 2:
            op_region(m, &r);
            break;
        case 3:
            op_ray(m, &r);
            break;
        case 4:
            op_collide(m, &r);
            break;
        default: {
            int x = (int)(int8_t)rd_u8(&r), y = (int)(int8_t)rd_u8(&r);
            ledge_edge e = ledge_tilemap_edge(m, x, y, (ledge_side)rd_u8(&r));
            CHECK(e <= LEDGE_EDGE_INTERESTING, "edge %d", e);
            break;
        }
        }
    }
    ledge_tilemap_destroy(m);
    return 0;
}
