// The world: lifecycle, the step's order of stages, bodies frozen when they
// leave the finite range, and the replay hash.
#include "body_store.h"
#include "broad.h"
#include "chain_store.h"
#include "character.h"
#include "fast.h"
#include "joint_solve.h"
#include "order.h"
#include "query_index.h"
#include "resolve.h"
#include "response.h"
#include "sleep.h"
#include "events.h"
#include "contacts.h"
#include "par.h"
#include "profile.h"
#include "push.h"
#include "slots.h"
#include "check.h"
#include "hash.h"
#include "world.h"
#include "world_state.h"

#include <string.h>

ledge_world_def ledge_default_world_def(void) {
    ledge_world_def def;
    memset(&def, 0, sizeof def);
    def.gravity = v2(0.0f, -10.0f);
    def.tile_size = 1.0f;
    def.map_width = 64;
    def.map_height = 64;
    def.map_origin = v2(0.0f, 0.0f);
    def.body_capacity = 0;
    def.iterations = 4;
    def.substeps = 1;
    def.linear_slop = 0.005f;
    def.bounce_threshold = 0.5f;
    def.cell_size = 0.0f;
    def.friction_law = LEDGE_FRICTION_N;
    def.worker_count = 1;
    def.enable_sleep = false;
    def.sleep_speed = 0.05f;
    def.sleep_time = 0.5f;
    return def;
}

// --- lifecycle --------------------------------------------------------------

static bool def_ok(const ledge_world_def *def) {
    if (def == NULL) {
        LEDGE_ERROR("ledge_world_create: def is NULL");
        return false;
    }
    if (!ledge__check_vec("ledge_world_create", "gravity", def->gravity, LEDGE_MAX_COORDINATE)) {
        return false;
    }
    if (def->iterations < 1 || def->iterations > 64 || def->substeps < 1 || def->substeps > 64) {
        LEDGE_ERROR("ledge_world_create: iterations is %d and substeps %d (each must be 1..64)",
                    def->iterations, def->substeps);
        return false;
    }
    if (!(def->linear_slop >= 0.0f && def->linear_slop <= 1.0f) ||
        !(def->bounce_threshold >= 0.0f && def->bounce_threshold <= LEDGE_MAX_COORDINATE) ||
        !(def->cell_size == 0.0f ||
          (def->cell_size >= LEDGE_MIN_CELL_SIZE && def->cell_size <= LEDGE_MAX_COORDINATE))) {
        LEDGE_ERROR("ledge_world_create: linear_slop %g (0..1), bounce_threshold %g (>= 0, finite) "
                    "or cell_size %g (0, or 0.001..1e6) out of range",
                    (double)def->linear_slop, (double)def->bounce_threshold,
                    (double)def->cell_size);
        return false;
    }
    if (def->friction_law != LEDGE_FRICTION_N && def->friction_law != LEDGE_FRICTION_COULOMB) {
        LEDGE_ERROR("ledge_world_create: friction_law is %d (must be a ledge_friction_law)",
                    (int)def->friction_law);
        return false;
    }
    if (!ledge__workers_def_ok(def, "ledge_world_create")) return false;
    if (!(def->sleep_speed >= 0.0f && def->sleep_speed <= LEDGE_MAX_COORDINATE) ||
        !(def->sleep_time >= 0.0f && def->sleep_time <= LEDGE_MAX_COORDINATE)) {
        LEDGE_ERROR("ledge_world_create: sleep_speed %g or sleep_time %g out of range (each must "
                    "be 0..1e6)",
                    (double)def->sleep_speed, (double)def->sleep_time);
        return false;
    }
    if (def->body_capacity < 0 || def->body_capacity > (1 << 26)) {
        LEDGE_ERROR("ledge_world_create: body_capacity is %d (must be 0..%d)", def->body_capacity,
                    1 << 26);
        return false;
    }
    return true;
}

// Each world gets a serial number, carried by its ids so that an id is
// refused by any other world (even one later made at the same address).
// Atomic where the compiler offers it: worlds may be made on several threads.
static uint32_t next_serial(void) {
#if defined(__GNUC__) || defined(__clang__)
    static uint32_t counter;
    uint32_t s = __atomic_add_fetch(&counter, 1u, __ATOMIC_RELAXED);
#else
    static uint32_t counter; // one thread at a time without GNU atomics
    uint32_t s = ++counter;
#endif
    return s == 0 ? 1u : s; // 0 marks an id made by no world
}

// The world and its stages' states, made and freed together: one
// allocation, the world first (its address is the allocation's). Each stage
// reaches its own part through the world (w->order, ...), declared in its
// header; what a part allocates later, its stage's destroy frees.
typedef struct world_parts {
    struct ledge_world world;
    ledge__order order;
    ledge__broad broad;
    ledge__sleep sleep;
    ledge__resolve resolve;
    ledge__fast fast;
    ledge__response response;
    ledge__events events;
} world_parts;

static ledge_world *make_parts(const ledge_world_def *def) {
    world_parts *p = ledge__alloc(sizeof *p);
    if (p == NULL) return NULL;
    memset(p, 0, sizeof *p);
    ledge_world *w = &p->world;
    w->order = &p->order;
    ledge__order_init(w->order);
    w->broad = &p->broad;
    w->sleep = &p->sleep;
    ledge__sleep_init(w->sleep, def);
    w->resolve = &p->resolve;
    w->fast = &p->fast;
    w->response = &p->response;
    w->events = &p->events;
    return w;
}

static void free_parts(ledge_world *w) {
    ledge__broad_destroy(w->broad);
    ledge__sleep_destroy(w->sleep);
    ledge__resolve_destroy(w->resolve);
    ledge__fast_destroy(w->fast);
    ledge__response_destroy(w->response);
    ledge__events_destroy(w->events);
    ledge__free(w); // the parts' allocation (world_parts)
}

ledge_world *ledge_world_create(const ledge_world_def *def) {
    if (!def_ok(def)) return NULL;
    ledge_world *w = make_parts(def);
    if (w == NULL) {
        LEDGE_ERROR("ledge_world_create: allocation failed");
        return NULL;
    }
    w->serial = next_serial();
    w->gravity = def->gravity;
    w->iterations = def->iterations;
    w->substeps = def->substeps;
    w->slop = def->linear_slop;
    w->pile_slop = LEDGE__PILE_SLOP * def->linear_slop;
    w->bounce_threshold = def->bounce_threshold;
    w->cell_size = def->cell_size;
    w->debug.dormant_on = true;
    w->debug.research_on = true;
    w->debug.still_cells_on = true;
    w->debug.reuse_on = true;
    w->debug.skip_on = true;
    w->coulomb = def->friction_law == LEDGE_FRICTION_COULOMB;
    ledge_tilemap_def md = ledge_default_tilemap_def();
    md.width = def->map_width;
    md.height = def->map_height;
    md.tile_size = def->tile_size;
    md.origin = def->map_origin;
    w->map = ledge_tilemap_create(&md); // validates and logs the map fields
    bool workers_ok = false;
    w->par.worker_count = def->worker_count;
    w->debug.fast_room = LEDGE__FAST_ROOM;
    if (w->map != NULL) w->par.workers = ledge__workers_create(def, &workers_ok);
    if (w->map == NULL || !workers_ok ||
        (def->body_capacity > 0 &&
         !ledge__store_grow(w, def->body_capacity, "ledge_world_create"))) {
        ledge_world_destroy(w);
        return NULL;
    }
    return w;
}

void ledge_world_destroy(ledge_world *world) {
    if (world == NULL) return;
    ledge_tilemap_destroy(world->map);
    ledge__store_free(world);
    ledge__grid_free(&world->grid);
    ledge__query_free(world);
    ledge__characters_free(world);
    ledge__chains_free(world);
    ledge__joints_free(world);
    ledge__free(world->step.pairs);
    ledge__free(world->contacts);
    ledge__free(world->contacts_scratch);
    ledge__free(world->held);
    ledge__free(world->step.sensor_pairs);
    ledge__free(world->step.carry_block);
    ledge__par_free(&world->par);
    free_parts(world);
}

ledge_tilemap *ledge_world_tilemap(ledge_world *world) {
    if (world == NULL) {
        LEDGE_ERROR("ledge_world_tilemap: world is NULL");
        return NULL;
    }
    return world->map;
}

void ledge_world_set_pre_solve(ledge_world *world, ledge_pre_solve_fn *fn, void *context) {
    if (world == NULL) {
        LEDGE_ERROR("ledge_world_set_pre_solve: world is NULL");
        return;
    }
    if (world->stepping) {
        LEDGE_ERROR("ledge_world_set_pre_solve: the world is stepping");
        return;
    }
    world->pre_solve = fn;
    world->pre_solve_context = fn ? context : NULL;
}

int ledge_world_body_count(const ledge_world *world) {
    if (world == NULL) {
        LEDGE_ERROR("ledge_world_body_count: world is NULL");
        return 0;
    }
    return world->live_count;
}

// --- the step ---------------------------------------------------------------

// Semi-implicit Euler: the velocity is updated first and the new velocity
// moves the body, which keeps resting contact and orbits stable where the
// explicit form gains energy.
// A body whose velocity or position leaves the finite range (forces of the
// game's, a runaway fall) is reported and frozen where it last was, so
// that it never hands a NaN or an infinity to its neighbours. Setting its
// position or velocity wakes it.
// The message names the body by the id the game holds (its handle + 1),
// never by its slot, which the slots' order by space changes.
static void freeze(ledge_world *w, int i, const char *what) {
    ledge_body_id id = ledge__body_id(w, i);
    LEDGE_ERROR("ledge_world_step: body {%u, %u}'s %s left the finite range (beyond 1e6); it is "
                "frozen at (%g, %g) until its position or velocity is set",
                id.index1, id.generation, what, (double)w->last_position[i].x,
                (double)w->last_position[i].y);
    w->frozen[i] = 1;
    w->position[i] = w->last_position[i];
    w->velocity[i] = v2(0.0f, 0.0f);
    ledge__forget_contacts(w, i);
}

static inline bool moving(const ledge_world *w, int i) {
    return w->alive[i] && !w->frozen[i] && !w->asleep[i] && w->type[i] != LEDGE_BODY_STATIC;
}

static inline bool in_range(vec2s p) {
    return ledge__finite_within(p.x, LEDGE_MAX_COORDINATE) &&
           ledge__finite_within(p.y, LEDGE_MAX_COORDINATE);
}

// The integration stages run on the workers, a block of slots per item;
// what must happen in slot order on one thread (freezing a body logs and
// edits the contact list) is flagged per block and done afterwards.
typedef struct integrate_task {
    ledge_world *w;
    float dt;
} integrate_task;

static void velocity_run(int start, int end, int worker, void *context) {
    (void)worker;
    const integrate_task *t = context;
    ledge_world *w = t->w;
    for (int b = start; b < end; ++b) {
        bool bad = false;
        for (int i = b * LEDGE__BLOCK, last = ledge__stirred_end(w, b); i < last; ++i) {
            // A kinematic body's velocity, for the next substep's carry().
            if (w->type[i] == LEDGE_BODY_KINEMATIC) w->prev_velocity[i] = w->velocity[i];
            if (!moving(w, i) || w->type[i] != LEDGE_BODY_DYNAMIC) continue;
            vec2s v = v2_add(w->velocity[i], v2_scale(w->gravity, w->gravity_scale[i] * t->dt));
            w->velocity[i] = v2_scale(v, 1.0f / (1.0f + t->dt * w->drag[i]));
            bad |= !in_range(w->velocity[i]);
        }
        w->par.block_flag[b] = bad;
    }
}

static void integrate_velocity(ledge_world *w, float dt) {
    integrate_task t = {w, dt};
    int blocks = ledge__blocks(w->slot_count);
    ledge__run(w, velocity_run, blocks, 1, &t);
    for (int b = 0; b < blocks; ++b) {
        if (!w->par.block_flag[b]) continue;
        for (int i = b * LEDGE__BLOCK; i < ledge__block_end(b, w->slot_count); ++i) {
            if (!moving(w, i) || w->type[i] != LEDGE_BODY_DYNAMIC || in_range(w->velocity[i]))
                continue;
            w->last_position[i] = w->position[i];
            freeze(w, i, "velocity");
        }
    }
}

static void check_positions_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    for (int b = start; b < end; ++b) {
        bool bad = false;
        for (int i = b * LEDGE__BLOCK, last = ledge__stirred_end(w, b); i < last; ++i) {
            bad |= moving(w, i) && !in_range(w->position[i]);
        }
        w->par.block_flag[b] = bad;
    }
}

// After the substep: positions out of range go back to where they were.
static void check_positions(ledge_world *w) {
    int blocks = ledge__blocks(w->slot_count);
    ledge__run(w, check_positions_run, blocks, 1, w);
    for (int b = 0; b < blocks; ++b) {
        if (!w->par.block_flag[b]) continue;
        for (int i = b * LEDGE__BLOCK; i < ledge__block_end(b, w->slot_count); ++i) {
            if (moving(w, i) && !in_range(w->position[i])) freeze(w, i, "position");
        }
    }
}

static void position_run(int start, int end, int worker, void *context) {
    (void)worker;
    const integrate_task *t = context;
    ledge_world *w = t->w;
    for (int b = start; b < end; ++b) {
        bool any = false;
        for (int i = b * LEDGE__BLOCK, last = ledge__stirred_end(w, b); i < last; ++i) {
            w->step.fast[i] = 0;
            if (!moving(w, i)) continue;
            w->last_position[i] = w->position[i];
            vec2s move = v2_scale(w->velocity[i], t->dt);
            if (w->type[i] == LEDGE_BODY_DYNAMIC && ledge__fast_begin(w, i, move)) {
                any = true;
                continue;
            }
            w->position[i] = v2_add(w->position[i], move);
        }
        w->par.block_flag[b] = any;
    }
}

// Fast dynamic bodies stay where they are until the grid can tell what
// their paths meet (fast.c). Returns whether there are any.
static bool integrate_position(ledge_world *w, float dt) {
    integrate_task t = {w, dt};
    int blocks = ledge__blocks(w->slot_count);
    ledge__run(w, position_run, blocks, 1, &t);
    bool any = false;
    for (int b = 0; b < blocks; ++b) any |= w->par.block_flag[b];
    return any;
}

// Under this approach speed a contact the replay already answered counts
// as resting: float rounding of the replayed response must not apply
// friction a second time in the same substep.
#define RESTING_SPEED 1e-4f

// The relaxation passes. A pass that moved nothing (changed no position's
// bits: a push below the resolution is not a move) would be repeated
// exactly by the next ones, so after it only the last (recording) pass
// runs: a scene at rest pays two passes without gravity and three with it
// (the first pushes out what gravity sank in), not `iterations`.
// Joints (joint_solve.c) are put back onto their rows at the start of
// each pass, so that the contacts' and the tiles' projections have the
// last word where they meet (no link ends a pass inside a tile).
static void relax(ledge_world *w) {
    bool joints = ledge__joints_any(w);
    for (int it = 0; it < w->iterations; ++it) {
        bool last = it == w->iterations - 1;
        if (joints) ledge__joints_relax(w);
        int pushes = ledge__resolve_pass(w, last);
        w->debug.passes++;
        if (!last && pushes == 0 && w->debug.skip_on) it = w->iterations - 2;
    }
}

// Moving platforms carry what stands on them: a dynamic body resting on a
// kinematic body (its floor, by its max_floor_angle) takes the change of
// the platform's velocity since the last substep, so it keeps moving with
// the platform when the platform turns or speeds up, instead of slipping
// until friction catches up. (Friction still brings a body that lands on a
// moving platform to its speed.)
//
// Only contacts against a kinematic body can carry; the workers find the
// blocks of contacts that hold any (and note the kinematic bodies'
// velocities), and the calling thread goes through those blocks in contact
// order, the first floor contact of a body carrying it.
// A contact with a kinematic chain (a moving platform of any shape).
static inline const ledge__chain *moving_chain(const ledge_world *w, const ledge__contact *c) {
    if (c->b != LEDGE__CHAIN_CONTACT || c->policy == LEDGE_RESPONSE_CROSS) return NULL;
    const ledge__chain *ch = &w->chains->c[c->cell_x];
    return ch->type == LEDGE_BODY_KINEMATIC ? ch : NULL;
}

static inline bool carries(const ledge_world *w, const ledge__contact *c) {
    int d, p;
    vec2s n;
    if (c->b == LEDGE__CHAIN_CONTACT) return moving_chain(w, c) != NULL;
    return ledge__dynamic_against_fixed(w, c, &d, &p, &n) && w->type[p] == LEDGE_BODY_KINEMATIC;
}

// A dynamic body standing on a kinematic chain takes the change of the
// chain's velocity, as on a kinematic body.
static bool carry_by_chain(ledge_world *w, const ledge__contact *c) {
    const ledge__chain *ch = moving_chain(w, c);
    int d = c->a;
    if (ch == NULL || w->type[d] != LEDGE_BODY_DYNAMIC || w->step.carried[d] ||
        v2_dot(c->normal, w->up) < w->floor_cos[d]) {
        return false;
    }
    w->step.carried[d] = 1;
    w->step.carry_change[d] = v2_sub(ch->velocity, ch->prev_velocity);
    w->velocity[d] = v2_add(w->velocity[d], w->step.carry_change[d]);
    return true;
}

static void carry_find_run(int start, int end, int worker, void *context) {
    (void)worker;
    ledge_world *w = context;
    for (int b = start; b < end; ++b) {
        int last = ledge__block_end(b, w->contact_count);
        bool any = false;
        for (int k = b * LEDGE__BLOCK; k < last && !any; ++k) any = carries(w, &w->contacts[k]);
        w->step.carry_block[b] = any;
    }
}

// The contacts of block b that carry (on the calling thread, in order).
// Returns whether any did.
static bool carry_block(ledge_world *w, int b) {
    int last = ledge__block_end(b, w->contact_count);
    bool any = false;
    for (int k = b * LEDGE__BLOCK; k < last; ++k) {
        const ledge__contact *c = &w->contacts[k];
        int d, p;
        vec2s n; // from p toward d
        if (LEDGE_UNLIKELY(c->b == LEDGE__CHAIN_CONTACT)) {
            any |= carry_by_chain(w, c);
            continue;
        }
        if (!ledge__dynamic_against_fixed(w, c, &d, &p, &n) || w->type[p] != LEDGE_BODY_KINEMATIC)
            continue;
        if (w->step.carried[d] || v2_dot(n, w->up) < w->floor_cos[d]) continue;
        w->step.carried[d] = 1;
        w->step.carry_change[d] = v2_sub(w->velocity[p], w->prev_velocity[p]);
        w->velocity[d] = v2_add(w->velocity[d], w->step.carry_change[d]);
        any = true;
    }
    return any;
}

// What rests on a carried body rides with it: in contact order (bottom up,
// as the last substep sorted them), a dynamic body standing on a carried
// body (its floor, by its max_floor_angle) takes the same change, and so on
// up. Left to friction, each change was shared with the bodies above, and
// a stack of four crates slid off a platform swinging 8 m in 8 s (with
// friction 0 between crate and platform the stack rode at half the
// platform's speed). A single serial pass, in worlds where a body was
// carried; the marks are cleared after.
static void carry_stacks(ledge_world *w) {
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        if (c->b < 0) continue;
        int u = ledge__upper_body(w, c);
        if (u < 0) continue;
        int l = u == c->a ? c->b : c->a;
        if (!w->step.carried[l] || w->step.carried[u] || w->type[u] != LEDGE_BODY_DYNAMIC ||
            !(w->inv_mass[u] > 0.0f))
            continue;
        vec2s n = u == c->a ? c->normal : v2_neg(c->normal); // from l toward u
        if (v2_dot(n, w->up) < w->floor_cos[u]) continue;
        w->step.carried[u] = 1;
        w->step.carry_change[u] = w->step.carry_change[l];
        w->velocity[u] = v2_add(w->velocity[u], w->step.carry_change[u]);
    }
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        w->step.carried[c->a] = 0;
        if (c->b >= 0) w->step.carried[c->b] = 0;
    }
}

// The kinematic chains' velocities of this substep, for the next one's
// carry (before they move, as velocity_task notes the bodies').
static void note_chain_velocities(ledge_world *w) {
    ledge__chains *cs = w->chains;
    for (int k = 0; cs != NULL && k < cs->kinematic; ++k) {
        ledge__chain *c = &cs->c[cs->kinematic_slots[k]];
        c->prev_velocity = c->velocity;
    }
}

// The kinematic chains move by their velocities (on the calling thread:
// there are few, and the step's walks read them after this).
static void move_chains(ledge_world *w, float h) {
    ledge__chains *cs = w->chains;
    for (int k = 0; cs != NULL && k < cs->kinematic; ++k) {
        ledge__chain *c = &cs->c[cs->kinematic_slots[k]];
        c->last_position = c->position;
        vec2s to = v2_add(c->position, v2_scale(c->velocity, h));
        if (in_range(v2_add(to, c->bounds.lower)) && in_range(v2_add(to, c->bounds.upper))) {
            c->position = to;
        } else {
            LEDGE_ERROR("ledge_world_step: kinematic chain {%d, %u} would leave the finite range "
                        "(beyond 1e6); it stops at (%g, %g)",
                        cs->kinematic_slots[k] + 1, c->generation, (double)c->position.x,
                        (double)c->position.y);
            c->velocity = c->prev_velocity = v2(0.0f, 0.0f);
        }
    }
}

static void carry(ledge_world *w) {
    int blocks = ledge__blocks(w->contact_count);
    // Without room for the blocks' flags (an allocation failed) the calling
    // thread goes through every block.
    bool flags = LEDGE__RESERVE(w->step.carry_block, w->step.carry_block_cap, blocks, 0, 16);
    if (flags) {
        ledge__run(w, carry_find_run, blocks, 1, w);
    } else {
        LEDGE_ERROR("ledge_world_step: allocation of %d carry flags failed (the contacts are gone "
                    "through on one thread)",
                    blocks);
    }
    bool any = false;
    for (int b = 0; b < blocks; ++b) {
        if (!flags || w->step.carry_block[b]) any |= carry_block(w, b);
    }
    if (any) carry_stacks(w);
    note_chain_velocities(w);
    // The kinematic bodies' velocities are noted for the next substep by
    // velocity_run, which runs next (one dispatch fewer).
}

// What the replay must not answer: the contacts of a body the game moved
// or gave a velocity since the last step (ledge_body_set_position, ...),
// and tile contacts whose cell was edited since they were found. (The
// contacts stay listed for the game's view of the last step until the
// step records new ones.)
static inline bool chain_moved(const ledge_world *w, const ledge__contact *c) {
    return c->b == LEDGE__CHAIN_CONTACT && w->chains->c[c->cell_x].moved;
}

static void drop_stale_contacts(ledge_world *w) {
    bool edited = w->map->version != w->contact_map_version;
    bool chains = w->chains != NULL && w->chains->any_moved;
    if (!w->any_moved && !edited && !chains) return;
    int n = 0;
    for (int k = 0; k < w->contact_count; ++k) {
        const ledge__contact *c = &w->contacts[k];
        bool stale =
            w->moved[c->a] ||
            (c->b >= 0 ? w->moved[c->b] != 0 : edited && ledge__tile_contact_changed(w->map, c)) ||
            (chains && chain_moved(w, c));
        if (!stale) w->contacts[n++] = *c;
    }
    w->contact_count = n;
    if (w->any_moved) memset(w->moved, 0, (size_t)w->slot_count);
    w->any_moved = false;
    if (chains) {
        for (int s = 0; s < w->chains->count; ++s) w->chains->c[s].moved = 0;
        w->chains->any_moved = false;
    }
}

const char *const ledge__stage_names[LEDGE__STAGE_COUNT] = {
    "integrate", "move", "grid", "pairs", "relax", "sort", "response", "check", "events", "sleep"};

// The profile's clock (only when the benchmark asked for a profile): the
// stage running gets the time since `since` (unless 0), and `next` starts.
static double stage_mark(ledge_world *w, ledge__stage next, double since) {
    ledge__profile *p = &w->par.profile;
    if (!LEDGE_UNLIKELY(p->on)) return 0.0;
    double now = ledge__profile_clock(p);
    if (since > 0.0) p->total[p->stage] += now - since;
    p->stage = (int)next;
    return now;
}

// The velocity pass with joints: the contacts' response, the joints
// (predicting where the bodies move to, before they move; else holding
// their velocities), the shock sweep, which holds what the joints hold as
// it moves, and the joints again for what the sweep changed. With
// `loads`, what rests on a body the joints hold moves with it in their
// solve (joint_solve.c).
static void velocity_pass_with_joints(ledge_world *w, float resting, float h, bool predict,
                                      bool loads) {
    ledge__contact_pass(w, resting, h);
    if (predict) {
        ledge__joints_predict(w, h, loads, false);
    } else {
        ledge__joints_correct(w, h, loads);
    }
    if (w->up.x != 0.0f || w->up.y != 0.0f) {
        ledge__shock_sweep(w, resting, h);
        if (predict) {
            ledge__joints_predict(w, h, loads, true);
        } else {
            ledge__joints_correct(w, h, loads);
        }
    }
}

// One substep:
// 1. moving platforms carry what stands on them (carry(): a body resting on
//    a kinematic body takes the change of its velocity since the last
//    substep, and what rests on it the same);
// 2. gravity and drag change the velocities (a velocity out of the finite
//    range freezes its body);
// 3. the last substep's contacts are answered again (N's response), so that
//    a body resting or sliding on a surface feels its friction, and a pile
//    its support, before anything moves (otherwise gravity would make it
//    creep down a slope however large its friction); the contacts of a body
//    the game moved, and of an edited tile, are not; with joints, the
//    joints are solved with them, predicting where the bodies move to
//    (velocity_pass_with_joints);
// 4. the velocities move the bodies; fast bodies wait at their starts;
// 5. the broad phase files the bodies in the grid; fast bodies move along
//    their paths (fast.c), and if there were any the grid is filed again;
//    then it lists candidate pairs and bodies near tiles (a sleeper paired
//    with a moving body wakes, and the pairs are searched again where it
//    lies);
// 6. `iterations` relaxation passes project the bodies out of overlap, the
//    last one recording the contacts (each pass puts the joints back onto
//    their rows first);
// 7. the contacts are sorted from the bottom of each pile up, and their
//    loads found;
// 8. N's response to those contacts (the velocity pass), the joints'
//    velocities held with it;
// 9. a position out of the finite range freezes its body where it was.
static void substep(ledge_world *w, float h) {
    double t = stage_mark(w, LEDGE__STAGE_INTEGRATE, 0.0);
    bool joints = ledge__joints_any(w);
    carry(w);
    integrate_velocity(w, h);
    ledge__push_rows(w, h); // characters push what their moves walked into
    drop_stale_contacts(w);
    if (joints) {
        // The loads of the replayed contacts (sorted by the last substep),
        // for the bodies the joints hold.
        ledge__joints_begin_substep(w);
        bool loads = ledge__joints_hold_any(w) && ledge__body_loads(w);
        velocity_pass_with_joints(w, 0.0f, h, true, loads);
    } else {
        ledge__velocity_pass(w, 0.0f, h);
    }
    ledge__push_shoves(w, h); // and bodies that came at them shove them
    t = stage_mark(w, LEDGE__STAGE_MOVE, t);
    bool fast = integrate_position(w, h);
    move_chains(w, h);
    ledge__push_after_move(w, h); // a shoved character's legs brake the shove
    w->contact_count = 0;
    t = stage_mark(w, LEDGE__STAGE_GRID, t);
    ledge__broad_build(w, fast ? LEDGE__FILING_BEFORE : LEDGE__FILING_ONLY);
    if (fast) {
        ledge__fast_move(w);
        ledge__broad_build(w, LEDGE__FILING_AFTER);
    }
    t = stage_mark(w, LEDGE__STAGE_PAIRS, t);
    ledge__broad_pairs(w);
    if (ledge__sleep_wake_paired(w)) ledge__broad_pairs_again(w); // the woken bodies' pairs too
    t = stage_mark(w, LEDGE__STAGE_RELAX, t);
    relax(w);
    t = stage_mark(w, LEDGE__STAGE_SORT, t);
    ledge__sort_contacts(w);
    bool loads = ledge__contact_loads(w);
    t = stage_mark(w, LEDGE__STAGE_RESPONSE, t);
    if (joints) {
        velocity_pass_with_joints(w, RESTING_SPEED, h, false, loads);
    } else {
        ledge__velocity_pass(w, RESTING_SPEED, h);
    }
    w->contact_map_version = w->map->version;
    t = stage_mark(w, LEDGE__STAGE_CHECK, t);
    check_positions(w);
    stage_mark(w, LEDGE__STAGE_CHECK, t);
}

void ledge__world_set_up(ledge_world *w) {
    float g = v2_len(w->gravity);
    w->up = g > 0.0f ? v2_scale(w->gravity, -1.0f / g) : v2(0.0f, 0.0f);
    w->up_axis = fabsf(w->gravity.y) >= fabsf(w->gravity.x) ? (w->gravity.y <= 0.0f ? 0 : 1)
                                                            : (w->gravity.x <= 0.0f ? 2 : 3);
}

// Everything the step may need to allocate, before anything moves: a
// failure leaves the world as it was. (Pair and contact lists still grow
// inside the step while the world warms up; after that the step allocates
// nothing.)
static bool prepare(ledge_world *w) {
    if (w->map->version != w->map_version) ledge__world_forget(w, LEDGE__STALE_TILES);
    ledge__chains_sync(w);                  // the static chains' tree, their ends on the tiles
    ledge__tilemap_refresh_blocked(w->map); // before the workers collide with tiles
    int cells = w->slot_count < 256 ? 1024 : 4 * w->slot_count;
    if (!ledge__grid_reserve(&w->grid, w->slot_count, cells)) return false;
    if (!ledge__par_reserve(w, w->slot_count, w->grid.cell_cap)) return false;
    if (!ledge__joints_reserve(w)) return false;
    if (!ledge__broad_reserve(w, w->slot_count)) return false;
    if (!ledge__sleep_reserve(w, w->slot_count)) return false;
    if (!ledge__resolve_reserve(w, w->slot_count)) return false;
    if (!ledge__fast_reserve(w)) return false;
    if (!ledge__push_reserve(w)) return false;
    ledge__world_set_up(w);
    w->step.margin = maxf(4.0f * w->slop, 0.05f * w->max_extent);
    return true;
}

void ledge_world_step(ledge_world *world, float dt) {
    if (world == NULL) {
        LEDGE_ERROR("ledge_world_step: world is NULL");
        return;
    }
    if (!(dt > 0.0f && dt <= LEDGE_MAX_STEP)) {
        LEDGE_ERROR("ledge_world_step: dt is %g (must be > 0 and at most %g s)", (double)dt,
                    (double)LEDGE_MAX_STEP);
        return;
    }
    if (world->stepping) {
        LEDGE_ERROR("ledge_world_step: the world is already stepping");
        return;
    }
    if (LEDGE_UNLIKELY(world->par.profile.on)) ledge__profile_begin(&world->par.profile);
    if (!prepare(world)) return; // logged; the world is unchanged
    double t = stage_mark(world, LEDGE__STAGE_SLEEP, 0.0);
    ledge__sleep_begin(world, dt); // wakes; woken bodies' held contacts rejoin the live ones
    stage_mark(world, LEDGE__STAGE_SLEEP, t);
    ledge__characters_before_step(world); // where the platforms stood on start
    ledge__push_begin(world);             // and the characters, and what they push
    world->stepping = true;
    ledge__workers_awake(world->par.workers, true);
    ledge__joints_begin_step(world);
    float h = dt / (float)world->substeps;
    for (int k = 0; k < world->substeps; ++k) substep(world, h);
    ledge__joints_end_step(world, dt);
    ledge__push_end(world); // a character a shove moved is moved again after the step
    t = stage_mark(world, LEDGE__STAGE_SLEEP, 0.0);
    ledge__sleep_end(world, dt);
    t = stage_mark(world, LEDGE__STAGE_EVENTS, t);
    ledge__after_step(world);
    ledge__workers_awake(world->par.workers, false);
    world->stepping = false;
    ledge__characters_carry(world);      // characters follow the bodies they stand on
    ledge__characters_after_push(world); // and the bodies they push, and shoves
    ledge__query_sync(world);            // the queries' index refiles the bodies that changed cell
    // Before every period-th step: slots by space, and what the stages
    // derived from the old slots forgotten.
    if (ledge__order_bodies(world)) ledge__world_forget(world, LEDGE__STALE_SLOTS);
    stage_mark(world, LEDGE__STAGE_EVENTS, t);
    if (LEDGE_UNLIKELY(world->par.profile.on)) ledge__profile_end(&world->par.profile);
}

// --- forgetting what is derived -----------------------------------------------

void ledge__world_forget(ledge_world *w, ledge__stale why) {
    ledge__par_forget(w, why);
    ledge__broad_forget(w, why);
    ledge__events_forget(w, why);
    ledge__query_forget(w, why);
    ledge__chains_forget(w, why);
    ledge__joints_forget(w, why);
    if (why & LEDGE__STALE_TILES) w->map_version = w->map->version;
}

// --- replay hash ------------------------------------------------------------

// Bodies hashed per run: each run's records in a buffer on the stack, then
// one XXH3 call over it (hash.c), so the hash costs a copy of the fields
// and xxHash's speed, not a call per field.
enum {
    HASH_RUN = 64, // bodies per run
    // handle and generation, type and asleep, position and velocity
    HASH_RECORD_MAX = 2 * sizeof(uint32_t) + 2 * sizeof(uint8_t) + 2 * sizeof(vec2s),
};

static size_t put_bytes(unsigned char *at, const void *data, size_t n) {
    memcpy(at, data, n);
    return n;
}

uint64_t ledge_world_hash(const ledge_world *world) {
    if (world == NULL) {
        LEDGE_ERROR("ledge_world_hash: world is NULL");
        return 0;
    }
    // By handle (an id's index1 - 1), which the slots' order by space
    // (order.c) does not change: the hash is that of the bodies, not of
    // where the store keeps them. Each record is the bytes of the body's
    // handle (u32), generation (u32), type (u8), position and velocity
    // (2 x f32 each), then, for a sleeping body only, its asleep byte (1):
    // the native bytes, little-endian on every target ledge is built for.
    unsigned char run[HASH_RUN * HASH_RECORD_MAX];
    size_t at = 0;
    int in_run = 0;
    uint64_t h = 0;
    bool hashed = false;
    for (int k = 0; k < world->slot_count; ++k) {
        int i = world->slot_of[k];
        if (!world->alive[i]) continue;
        uint32_t handle = (uint32_t)k;
        at += put_bytes(run + at, &handle, sizeof handle);
        at += put_bytes(run + at, &world->generation[i], sizeof world->generation[i]);
        at += put_bytes(run + at, &world->type[i], sizeof world->type[i]);
        at += put_bytes(run + at, &world->position[i], sizeof world->position[i]);
        at += put_bytes(run + at, &world->velocity[i], sizeof world->velocity[i]);
        if (world->asleep[i]) at += put_bytes(run + at, &world->asleep[i], sizeof world->asleep[i]);
        if (++in_run == HASH_RUN) {
            h = ledge__hash(run, at, h); // the next run is seeded with this one's hash
            hashed = true;
            at = 0;
            in_run = 0;
        }
    }
    if (in_run > 0 || !hashed) h = ledge__hash(run, at, h); // (no body: the empty run's hash)
    // Then the chains, by slot, each record seeded with the hash so far:
    // slot (u32), generation (u32), position and velocity (2 x f32 each).
    // Only a world with chains adds them: worlds without keep their hashes.
    const ledge__chains *cs = world->chains;
    for (int s = 0; cs != NULL && s < cs->count; ++s) {
        const ledge__chain *c = &cs->c[s];
        if (!c->alive) continue;
        uint32_t slot = (uint32_t)s;
        at = put_bytes(run, &slot, sizeof slot);
        at += put_bytes(run + at, &c->generation, sizeof c->generation);
        at += put_bytes(run + at, &c->position, sizeof c->position);
        at += put_bytes(run + at, &c->velocity, sizeof c->velocity);
        h = ledge__hash(run, at, h);
    }
    return h;
}
