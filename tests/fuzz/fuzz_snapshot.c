// Fuzz harness: ledge_world_restore on random and mutated snapshots
// (include/ledge/snapshot.h). The first byte picks the input:
// - 0: the rest of the input is the snapshot, as it is;
// - 1: a snapshot of a small level (tiles, one-way cells, materials of
//   cells, a tile id and bodies, circles, boxes, hexagons, a kinematic
//   platform and belt, a character, one pushing a crate, a sensor,
//   sleepers, events, a dead slot, joints of every type and a dead joint,
//   a static chain of its own material under the bodies, a kinematic belt
//   chain carrying a crate, and a dead chain slot),
//   with the rest of the input as mutations (offset,
//   xor byte pairs; a length change), then its size and checksum mended so
//   that the sections' own checks are reached;
// - 2: the same, not mended (the header's checks).
// Checks, besides "no crash, no sanitizer report": a refused restore
// leaves the world's hash and snapshot as they were; an accepted one gives
// a world that steps (the step's own assertions in this build), whose
// bodies stay finite, and whose snapshot restores into a fresh world of
// the same def, the two then stepping to the same hashes.
#include "fuzz_common.h"
#include "snapshot.h"
#include "world_state.h" // the checksum, to mend mutated snapshots

#define MAX_SNAPSHOT (1 << 16)

static ledge_world_def level_def(void) {
    ledge_world_def wd = ledge_default_world_def();
    wd.map_width = 16;
    wd.map_height = 12;
    wd.enable_sleep = true;
    wd.sleep_time = 0.1f;
    return wd;
}

static vec2s v(float x, float y) {
    vec2s r = {{x, y}};
    return r;
}

static ledge_world *level(void) {
    ledge_world_def wd = level_def();
    ledge_world *w = ledge_world_create(&wd);
    ledge_tilemap *m = ledge_world_tilemap(w);
    for (int x = 0; x < 16; ++x) ledge_tilemap_set(m, x, 0, LEDGE_TILE_FULL);
    for (int y = 0; y < 12; ++y) {
        ledge_tilemap_set(m, 0, y, LEDGE_TILE_FULL);
        ledge_tilemap_set(m, 15, y, LEDGE_TILE_45DEG_NP);
    }
    ledge_tilemap_set(m, 8, 4, LEDGE_TILE_HALF_U);
    ledge_tilemap_set_one_way(m, 8, 4, LEDGE_ONE_WAY_UP);
    // Materials: a belt of cells, an icy run, a bouncy half tile id.
    ledge_material mt = ledge_default_material();
    mt.surface_speed = 1.5f;
    for (int x = 2; x < 7; ++x) ledge_tilemap_set_cell_material(m, x, 0, &mt);
    mt.surface_speed = 0.0f;
    mt.friction = 0.0f;
    for (int x = 9; x < 12; ++x) ledge_tilemap_set_cell_material(m, x, 0, &mt);
    mt.friction = 1.0f;
    mt.bounce = 0.75f;
    ledge_tilemap_set_tile_material(m, LEDGE_TILE_HALF_U, &mt);
    ledge_body_def bd = ledge_default_body_def();
    vec2s hex[6];
    for (int k = 0; k < 6; ++k)
        hex[k] = v(0.3f * cosf((float)k * 1.0471976f), 0.3f * sinf((float)k * 1.0471976f));
    ledge_body_id ids[14];
    for (int k = 0; k < 12; ++k) {
        bd.position = v(2.0f + (float)(k % 6) * 0.9f, 1.5f + (float)(k / 6) * 0.8f);
        bd.enable_events = k % 3 == 0;
        if (k % 3 == 0) bd.shape = ledge_make_circle(v(0, 0), 0.35f);
        if (k % 3 == 1) bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.3f));
        if (k % 3 == 2) ledge_make_polygon(hex, 6, &bd.shape);
        ids[k] = ledge_body_create(w, &bd);
    }
    bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(1.0f, 0.2f));
    bd.position = v(11.0f, 2.0f);
    bd.velocity = v(0.5f, 0.0f);
    bd.surface_speed = -1.0f; // a moving belt
    bd.friction = 0.5f;
    bd.friction_mix = LEDGE_FRICTION_MIX_MAX;
    ids[12] = ledge_body_create(w, &bd);
    bd.surface_speed = 0.0f;
    bd.friction = 0.0f;
    bd.friction_mix = LEDGE_FRICTION_MIX_MEAN;
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.4f));
    bd.position = v(12.0f, 4.0f);
    bd.velocity = v(0.0f, 0.0f);
    ids[13] = ledge_body_create(w, &bd);
    ledge_character_create(w, ids[13], NULL);
    bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_STATIC;
    bd.sensor = true;
    bd.shape = ledge_make_box(v(0, 0), v(1.0f, 1.0f));
    bd.position = v(4.0f, 1.5f);
    ledge_body_create(w, &bd);
    // Joints: one of each type, the character on a rope, a dead one.
    ledge_joint_def jd[7] = {ledge_default_rod_def(),    ledge_default_rope_def(),
                             ledge_default_spring_def(), ledge_default_weld_def(),
                             ledge_default_slider_def(), ledge_default_pulley_def(),
                             ledge_default_rope_def()};
    for (int k = 0; k < 7; ++k) {
        jd[k].body_a = k == 6 ? LEDGE_NULL_BODY_ID : ids[k];
        jd[k].anchor_a = k == 6 ? v(12.5f, 7.0f) : v(0, 0);
        jd[k].body_b = k == 6 ? ids[13] : ids[k + 6];
        jd[k].length = 2.0f;
        jd[k].enable_limit = k == 4;
        jd[k].enable_motor = k == 4;
        jd[k].max_motor_force = 5.0f;
        ledge_joint_create(w, &jd[k]);
    }
    ledge_joint_destroy(w, ledge_joint_create(w, &jd[1]));
    // Chains: a low icy ridge under the bodies (drawn right to left: it
    // faces up), a kinematic belt carrying a crate, and a dead slot.
    vec2s ridge[3] = {v(7.0f, 1.2f), v(4.5f, 1.3f), v(1.2f, 1.2f)};
    ledge_chain_def cd = ledge_default_chain_def();
    cd.points = ridge;
    cd.count = 3;
    cd.material.friction = 0.3f;
    cd.material.bounce = 0.25f;
    ledge_chain_create(w, &cd);
    vec2s deck[2] = {v(1.0f, 0.0f), v(-1.0f, 0.0f)};
    cd = ledge_default_chain_def();
    cd.points = deck;
    cd.count = 2;
    cd.type = LEDGE_BODY_KINEMATIC;
    cd.position = v(9.0f, 5.0f);
    cd.velocity = v(0.2f, 0.0f);
    cd.material.surface_speed = 0.8f;
    cd.material.friction_mix = LEDGE_FRICTION_MIX_MAX;
    ledge_chain_create(w, &cd);
    ledge_chain_destroy(w, ledge_chain_create(w, &cd));
    bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.25f, 0.25f));
    bd.position = v(9.0f, 5.6f);
    ledge_body_create(w, &bd);
    // A second character walking a crate along: the snapshot holds the push
    // its last move left and the shove state of its answer.
    bd = ledge_default_body_def();
    bd.shape = ledge_make_box(v(0, 0), v(0.4f, 0.4f));
    bd.position = v(9.5f, 1.45f);
    bd.friction = 0.5f;
    ledge_body_create(w, &bd);
    bd = ledge_default_body_def();
    bd.type = LEDGE_BODY_KINEMATIC;
    bd.shape = ledge_make_box(v(0, 0), v(0.3f, 0.45f));
    bd.position = v(8.6f, 1.46f);
    ledge_body_id pusher = ledge_body_create(w, &bd);
    ledge_character_create(w, pusher, NULL);
    for (int s = 0; s < 40; ++s) {
        ledge_character_move(w, ids[13], v(-2.0f, -5.0f), 1.0f / 60.0f, NULL);
        ledge_character_move(w, pusher, v(3.0f, -5.0f), 1.0f / 60.0f, NULL);
        ledge_world_step(w, 1.0f / 60.0f);
    }
    ledge_character_move(w, pusher, v(3.0f, -5.0f), 1.0f / 60.0f, NULL); // a push left
    ledge_body_destroy(w, ids[4]);
    ledge_body_set_position(w, ids[5], v(6.0f, 6.0f));
    ledge_tilemap_set(m, 3, 0, LEDGE_TILE_EMPTY);
    return w;
}

static uint8_t g_base[MAX_SNAPSHOT];
static size_t g_base_size;

static void base_init(void) {
    if (g_base_size > 0) return;
    ledge_world *w = level();
    g_base_size = ledge_world_save(w, g_base, sizeof g_base);
    CHECK(g_base_size > 0, "the level's snapshot");
    ledge_world_destroy(w);
}

static void mend(uint8_t *b, size_t n) {
    if (n < LEDGE__SNAP_HEADER) return;
    uint64_t size = n,
             sum = ledge__snapshot_checksum(b + LEDGE__SNAP_SUM_FROM, n - LEDGE__SNAP_SUM_FROM);
    for (int k = 0; k < 8; ++k) {
        b[8 + k] = (uint8_t)(size >> (8 * k));
        b[LEDGE__SNAP_SUM_AT + k] = (uint8_t)(sum >> (8 * k));
    }
}

static bool finite_world(const ledge_world *w) {
    for (int i = 0; i < w->slot_count; ++i) {
        if (w->alive[i] && !(vec_finite(w->position[i]) && vec_finite(w->velocity[i])))
            return false;
    }
    return true;
}

static uint8_t *save(ledge_world *w, size_t *n) {
    *n = ledge_world_snapshot_size(w);
    uint8_t *b = malloc(*n ? *n : 1);
    CHECK(b != NULL, "malloc");
    CHECK(ledge_world_save(w, b, *n) == *n, "a save of %zu bytes", *n);
    return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_init();
    base_init();
    reader r = {data, size, 0};
    unsigned mode = rd_u8(&r) % 3;
    static uint8_t buf[MAX_SNAPSHOT + 256];
    size_t n;
    if (mode == 0) {
        n = size - 1 < sizeof buf ? size - 1 : sizeof buf;
        if (size > 1) memcpy(buf, data + 1, n);
    } else {
        memcpy(buf, g_base, g_base_size);
        n = g_base_size;
        int cut = (int8_t)rd_u8(&r);
        if (cut < 0 && (size_t)-cut < n) n -= (size_t)-cut;
        if (cut > 0) {
            memset(buf + n, cut, (size_t)cut);
            n += (size_t)cut;
        }
        while (rd_more(&r)) {
            size_t at = LEDGE__SNAP_SUM_FROM + rd_u16(&r) % (n - LEDGE__SNAP_SUM_FROM);
            buf[at] ^= rd_u8(&r);
        }
        if (mode == 1) mend(buf, n);
    }
    ledge_world_def wd = level_def();
    ledge_world *w = level();
    uint64_t before = ledge_world_hash(w);
    size_t n0;
    uint8_t *s0 = save(w, &n0);
    snprintf(g_context, sizeof g_context, "mode %u, %zu bytes", mode, n);
    if (!ledge_world_restore(w, n ? buf : NULL, n)) {
        // Refused: the world as it was.
        size_t n1;
        uint8_t *s1 = save(w, &n1);
        CHECK(ledge_world_hash(w) == before, "a refused restore changed the hash");
        CHECK(n1 == n0 && memcmp(s0, s1, n0) == 0, "a refused restore changed the world");
        free(s1);
    } else {
        // Accepted: its snapshot goes into a fresh world, and both step alike.
        size_t n1;
        uint8_t *s1 = save(w, &n1);
        ledge_world *u = ledge_world_create(&wd);
        CHECK(ledge_world_restore(u, s1, n1), "a world's own snapshot was refused");
        size_t n2;
        uint8_t *s2 = save(u, &n2);
        CHECK(n2 == n1 && memcmp(s1, s2, n1) == 0, "the snapshot of a restored world differs");
        for (int s = 0; s < 8; ++s) {
            ledge_world_step(w, 1.0f / 60.0f);
            ledge_world_step(u, 1.0f / 60.0f);
            CHECK(ledge_world_hash(w) == ledge_world_hash(u), "step %d differs", s);
        }
        CHECK(finite_world(w), "a body is not finite");
        free(s1);
        free(s2);
        ledge_world_destroy(u);
    }
    free(s0);
    ledge_world_destroy(w);
    return 0;
}
