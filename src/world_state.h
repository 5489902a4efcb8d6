// The world's state: the world struct and the types every stage shares
// (contacts, candidate pairs, the step's scratch, the blocks of slots, why
// derived state is forgotten, the tests' switches). Each stage's own state
// is declared in its own header (struct ledge_world below says where). The
// functions over them are declared by the modules that define them
// (slots.h, par.h, contacts.h, and each stage's header).
#ifndef LEDGE_WORLD_STATE_H
#define LEDGE_WORLD_STATE_H

#include "array.h"
#include "body_fields.h"
#include "core.h"
#include "grid.h"
#include "ledge/world.h"
#include "tilemap.h"
#include "workers.h"

/// A contact found by the last relaxation pass of a substep. The substep's
/// velocity pass responds to it, and the next substep replays it before its
/// bodies move (so that resting and sliding bodies feel friction every step).
typedef struct ledge__contact {
    int a;          ///< Body slot.
    int b;          ///< Other body slot, -1 for a tile, LEDGE__CHAIN_CONTACT (-2) for a chain
                    ///< (chain_store.h: cell_x its slot, cell_y its segment, stamp its
                    ///< generation). b < 0: the level.
    vec2s normal;   ///< Unit, pointing from b (or the tile) toward a.
    float friction; ///< Combined friction of the pair.
    float bounce;   ///< Combined bounce of the pair.
    float cap;      ///< Coulomb cap from the load it carries (response.c), per second.
    float depth;    ///< Overlap when found (0 for a bullet stopped short of it).
    vec2s point;    ///< World point midway between the surfaces.
    float speed;    ///< Combined surface speed of the pair along (normal.y, -normal.x): the
                    ///< sum of the two surfaces' (material.h); 0 for surfaces at rest.
    int cell_x;     ///< The tile cell, for a tile contact.
    int cell_y;
    uint8_t policy; ///< A ledge_response.
    uint8_t pile;   ///< Its upper body rests on a dynamic body that rests on the level: within a
                    ///< pile, friction is Coulomb's (response.c, loads).
    float target;   ///< The normal speed the shock sweep aims for, from before the pass
                    ///< (response.c).
    int stamp;      ///< A tile contact: its cell's tile and one-way setting when found
                    ///< (ledge__cell_stamp); a tile edit that changes them forgets the contact.
} ledge__contact;

/// A contact's `b` for a contact with a chain (chain_store.h): cell_x holds
/// the chain's slot, cell_y its segment, stamp its generation.
#define LEDGE__CHAIN_CONTACT (-2)

/// A candidate pair from the broad phase: the bounding boxes, grown by the
/// world's margin, overlap and the filters let the bodies touch. The
/// relaxation passes of the substep test only these.
typedef struct ledge__pair {
    int a, b;     ///< Body slots (friction and bounce are combined when recorded).
    vec2s normal; ///< Of the last overlap found this substep (from a toward b).
    float depth;  ///< Its depth.
    float share;  ///< Body a's share of a push: by inverse mass, leaned up (broad.c, pair_share).
    /// A plain circle pair (kind LEDGE__PAIR_CIRCLES | LEDGE__PAIR_PLAIN): b's box centre less
    /// a's at its last test, valid when LEDGE__PAIR_TESTED (the test's answer depends on that
    /// offset alone; the contact point is found from a's centre when recorded: resolve.c). Any
    /// other pair: the contact point of its last overlap.
    vec2s tested;
    uint8_t state; ///< LEDGE__PAIR_TOUCHED, _DECIDED, _TESTED, _PUSHED, _GIVES (one byte: the
                   ///< passes stream 36 bytes a pair).
    uint8_t policy; ///< A ledge_response for the pair.
    uint8_t kind;   ///< LEDGE__PAIR_CIRCLES, LEDGE__PAIR_PLAIN (broad.c, once per substep).
} ledge__pair;

/// ledge__pair.state: a relaxation pass found the bodies overlapping.
#define LEDGE__PAIR_TOUCHED 1u
/// ledge__pair.state: `policy` was chosen this substep (at the first touch).
#define LEDGE__PAIR_DECIDED 2u
/// ledge__pair.state: a plain circle pair tested this substep (`tested` set).
#define LEDGE__PAIR_TESTED 4u
/// ledge__pair.state: a plain circle pair whose last test pushed (by depth
/// less the slop).
#define LEDGE__PAIR_PUSHED 8u
/// ledge__pair.state: both bodies give way to a push (broad.c,
/// pair_gives_way), a sleeper counted as awake: a pile's pair when one
/// rests on the other (resolve.c, kept).
#define LEDGE__PAIR_GIVES 16u

/// ledge__pair.kind: both bodies are circles.
#define LEDGE__PAIR_CIRCLES 1u
/// ledge__pair.kind: no one-way body, no response policy, no pre-solve
/// callback: the pair slides and its relaxation skips those rules.
#define LEDGE__PAIR_PLAIN 2u

/// The step's scratch (w->step): the per-body scratch arrays (body_fields.h,
/// SCRATCH: each named for its one use) and what one stage hands the next
/// within a step. Rewritten before it is read, so never reordered with the
/// bodies, never in a snapshot, never forgotten. A stage's scratch that no
/// other stage reads is in the stage's own state (w->broad, w->response ...).
typedef struct ledge__step {
    LEDGE__BODY_SCRATCH_MEMBERS // the per-body scratch arrays (body_fields.h)
        ledge__pair *pairs;     ///< Candidate pairs of this substep (broad.c).
    int pair_count, pair_cap;
    ledge__pair *sensor_pairs; ///< A sensor (a) and a body near it (b) (broad.c).
    int sensor_pair_count, sensor_pair_cap;
    int tile_count;        ///< Entries in tile_list (dynamic bodies near non-empty cells).
    int big_count;         ///< Entries in big_list (bodies larger than a grid cell).
    int grid_pair_count;   ///< Of the pairs, those found through the grid (the big bodies' follow).
    int grid_sensor_count; ///< Of the sensor pairs, likewise.
    float margin;          ///< Broad-phase growth of the boxes (this step).
    uint8_t *carry_block;  ///< Per block of contacts: any against a kinematic body (the carry).
    int carry_block_cap;
    bool still_any; ///< Grid bodies not fast this substep: bounds of their centres (broad.c).
    vec2s still_lower, still_upper;
} ledge__step;

/// Bodies per block: the fixed unit of the step's parallel work over body
/// slots (and over the grid's sorted bodies). Fixed, so that the work's
/// decomposition, and with it every result, never depends on the workers.
#define LEDGE__BLOCK 512

/// Contacts whose normal is within this of the up direction (cosine) count
/// as "one body on top of the other": for the velocity pass's shock sweep
/// and the loads (response.c), and for what rests on a pressed body
/// (sleep.c); flatter ones are side by side.
#define LEDGE__STACKED_COSINE 0.2f

/// The share of linear_slop a pair of two moving bodies, one on the other
/// (the normal within LEDGE__PILE_COSINE of up), keeps as overlap
/// (resolve.c): the top of a pile n high then sinks the floor's slop and
/// n - 1 fifths of it, not n slops. The pair's contact still lasts: it
/// touched in a pass (the relaxation records it) and keeps a positive
/// overlap. Side by side, or against a body that does not give way (a
/// character, a platform), a pair keeps the whole slop as a tile contact
/// does: what the character's move leaves in place (move.c) is not pushed,
/// and a row of crates meets as before.
#define LEDGE__PILE_SLOP   0.2f
#define LEDGE__PILE_COSINE 0.8f

/// How many times heavier a dynamic body under another
/// counts when the projection shares their overlap (broad.c, pair_share).
/// Measured on a column of 20 x 1,000 circles (rain map and material,
/// sleeping; worst overlap at step 1,500 and bodies faster than 0.1 m/s at
/// step 800): 1 (by inverse mass) 0.0226 m, 5; 2: 0.0063 m, 27; 4: 0.0062
/// m, 161; infinite (the lower body held still): 0.0063 m, 452.
#define LEDGE__LOWER_WEIGHT 2.0f

/// The stages of the step, as the benchmark's profile names them
/// (tests/bench_workers.c prints ledge__stage_names).
typedef enum ledge__stage {
    LEDGE__STAGE_INTEGRATE, ///< Carry, gravity and drag, the replayed contacts' response.
    LEDGE__STAGE_MOVE,      ///< Positions integrate.
    LEDGE__STAGE_GRID,      ///< Boxes, the grid filed, fast bodies moved.
    LEDGE__STAGE_PAIRS,     ///< Candidate pairs, the tile list.
    LEDGE__STAGE_RELAX,     ///< The relaxation passes (narrow phase, projection).
    LEDGE__STAGE_SORT,      ///< The contacts sorted, their loads.
    LEDGE__STAGE_RESPONSE,  ///< The velocity pass.
    LEDGE__STAGE_CHECK,     ///< Positions out of range frozen.
    LEDGE__STAGE_EVENTS,    ///< After the step: events, contact index, queries, characters.
    LEDGE__STAGE_SLEEP,     ///< Wakes before the step, rest timers and held contacts after it.
    LEDGE__STAGE_COUNT
} ledge__stage;

/// Stage names, for the profile.
extern const char *const ledge__stage_names[LEDGE__STAGE_COUNT];

/// Where the step's time goes, when asked for (`on`): seconds per stage on
/// the calling thread's CPU clock (ledge__seconds), and of those the part
/// spent in tasks the workers share. Meant for one worker: it gives each
/// stage's parallel fraction whatever else runs on the machine.
/// With `wall` (ledge_world_enable_profile, profile.c) the clock is the
/// monotonic wall clock instead, and each step's stage times are kept in
/// `last` for the game.
typedef struct ledge__profile {
    bool on;
    bool wall; ///< Wall-clock times for ledge_world_profile (profile.c).
    int stage; ///< The stage running now.
    double total[LEDGE__STAGE_COUNT];
    double parallel[LEDGE__STAGE_COUNT];
    double step_start;                ///< Wall clock when the step began (`wall`).
    double start[LEDGE__STAGE_COUNT]; ///< `total` when the step began (`wall`).
    float last_step;                  ///< The last step's milliseconds (`wall`).
    float last[LEDGE__STAGE_COUNT];   ///< Its stages' milliseconds (`wall`).
} ledge__profile;

/// The step's parallel scratch (par.h): the workers, the blocks of slots
/// every per-body stage goes through and which of them are dormant, and
/// the outputs a task leaves the calling thread, read right after it.
typedef struct ledge__par {
    ledge__workers *workers; ///< NULL: one worker.
    int worker_count;        ///< The def's worker_count: worker indices are below it.
    int block_cap;           ///< Entries in each per-block array below.
    /// Per block of slots: every body in it sleeps, is static or is dead, and
    /// its per-body scratch holds what the step writes for sleepers, so the
    /// stages that have nothing to do for a sleeper skip the block (set by
    /// sleep.c, "Dormant blocks"; cleared by ledge__stir and by
    /// ledge__par_forget).
    uint8_t *dormant;
    /// Per block of slots: a body needs the calling thread's follow-up
    /// (world.c: out of range, fast).
    uint8_t *block_flag;
    /// Per slot (items_cap): a block's list for the calling thread at the
    /// block's offset, and its length per block in block_count (the big
    /// bodies of classify, the tile list's blocks, the fast bodies left
    /// over), read right after the task that wrote it.
    int *items;
    int items_cap;
    int *block_count;
    /// Grid row r's candidate pairs: row_start[r] .. row_start[r + 1]
    /// (broad.c lists them, the relaxation's bands read them).
    int *row_start;
    int row_cap;
    ledge__profile profile; ///< Stage times, for the game's profile and the benchmark.
    struct ledge__counter {
        int pushes;    ///< Projections made (resolve.c).
        int rechecked; ///< Bodies that joined the tile list (broad_tiles.c).
        int far_moved; ///< Bodies pushed beyond the margin (broad_tiles.c).
        char pad[52];  ///< One cache line per worker.
    } counter[LEDGE_MAX_WORKERS];
} ledge__par;

/// Why derived state may be stale (ledge__world_forget, world.h): each
/// stage's forget (`ledge__<stage>_forget`) drops what depends on it.
typedef enum ledge__stale {
    LEDGE__STALE_SLOTS = 1, ///< The bodies moved between slots (the slots' order by space).
    LEDGE__STALE_TILES = 2, ///< The tilemap changed since the step last read it.
    LEDGE__STALE_ALL = 3,   ///< The state was put back whole (a restore): everything.
} ledge__stale;

/// What the tests turn and read, apart from the world's state: switches
/// of the step's shortcuts (each on by default; off, the step must give the
/// same bits the slower way), and counters the product never reads.
typedef struct ledge__debug {
    bool dormant_on;     ///< Blocks of sleepers may become dormant (sleep.c).
    bool reuse_on;       ///< Dormant blocks' boxes and counts are reused (broad_file.c).
    bool research_on;    ///< After wakes, blocks are searched again, not the whole grid (broad.c).
    bool skip_on;        ///< A relaxation pass that moved nothing skips to the last (world.c).
    bool still_cells_on; ///< The fast paths skip the cells that hold no still body (fast.c).
    /// Of a worker's room for bodies near a fast path (LEDGE__FAST_ROOM),
    /// the part used (fast.c; -1: the calling thread takes every path).
    int fast_room;
    long passes;       ///< Relaxation passes run (world.c).
    long researched;   ///< Pair searches made again by blocks (broad.c).
    long fast_left;    ///< Fast bodies the workers left to the calling thread (fast.c).
    uint32_t reorders; ///< Reorderings that moved bodies (order.c).
} ledge__debug;

/// The world (world.c makes it), its state by owner:
/// - the def's settings, and what the step derives from them (up);
/// - the body store (body_fields.h): every per-body array, named directly
///   (w->position[i]), and the store's counts; ids and slots (slots.h);
///   the bodies' shapes, each once, in the store's shape table (w->shapes,
///   shape_table.h), read through ledge__shape_of;
/// - the contacts (contacts.h): the live ones the step records and the held
///   ones of sleepers, kept across steps and in a snapshot;
/// - the grid: the last substep's filing (broad_file.c files it; the fast
///   bodies, the relaxation, the contact sort and the slots' order read it);
/// - each stage's own state, declared in the stage's header and reached
///   through it: w->order (order.h), w->broad (broad_file.h), w->resolve
///   (resolve.h), w->fast (fast.h), w->response (response.h), w->sleep
///   (sleep.h), w->events (events.h), made with the world in one
///   allocation (world.c); w->query (query_index.h), w->characters
///   (characters.h), w->chains (chain_store.h) and w->joints (joints.h),
///   made when first needed;
/// - the step's scratch: w->step (per-body arrays, and what one stage hands
///   the next within a step) and w->par (the workers, the blocks of slots);
///   one field per use, never read before the step writes it;
/// - w->debug: the tests' switches and counters, never the world's state.
/// What a stage derives and keeps only to go faster, it forgets in its own
/// `ledge__<stage>_forget`, which ledge__world_forget (world.h) calls.
struct ledge_world {
    // --- the def's settings, and what the step derives from them
    uint32_t serial; ///< This world's serial number, carried by its ids (never 0).
    vec2s gravity;
    ledge_tilemap *map;
    int iterations;         ///< Relaxation passes per substep.
    int substeps;           ///< Substeps per step.
    float slop;             ///< Overlap left in place so that contacts persist.
    float pile_slop;        ///< What a pile's pair keeps (LEDGE__PILE_SLOP of the slop).
    float bounce_threshold; ///< Approach speed below which nothing bounces.
    float cell_size;        ///< Broad-phase cell override (0: automatic).
    bool coulomb;           ///< LEDGE_FRICTION_COULOMB (else N's friction law).
    // --- the world between calls
    uint32_t contact_map_version; ///< The tilemap version the recorded contacts were found at.
    bool any_moved;               ///< Some body's `moved` is set.
    float max_extent;             ///< Largest dynamic body's extent seen (grows only).
    uint32_t map_version; ///< The tilemap version the stages last derived from (world.c, forget).
    vec2s up;             ///< Unit vector against gravity ((0, 0) without gravity).
    int up_axis;          ///< Grid rows run along: 0 +y, 1 -y, 2 +x, 3 -x (closest to up).
    ledge__grid grid;     ///< The last substep's filing.
    ledge_pre_solve_fn *pre_solve; ///< The game's contact filter, or NULL.
    void *pre_solve_context;
    // --- the contacts (contacts.h)
    ledge__contact *contacts;
    ledge__contact *contacts_scratch; ///< Same capacity: the sort's output.
    int contact_count, contact_cap;
    /// Held contacts: those of sleeping bodies with each other, static and
    /// kinematic bodies and tiles, kept as they were when the bodies fell
    /// asleep (sleep.c). The game's view is `contacts` then `held`
    /// (ledge__view_contact); the step reads and rebuilds `contacts` only.
    ledge__contact *held;
    int held_count, held_cap;
    bool stepping; ///< Set during ledge_world_step: API calls that change the world are refused.
    // --- the stages' states, each declared in its stage's header
    struct ledge__query_index *query;     ///< The queries' index (query_index.h); NULL until asked.
    struct ledge__characters *characters; ///< The character table (characters.h); NULL until one.
    struct ledge__chains *chains;         ///< The chains (chain_store.h); NULL until one.
    struct ledge__joints *joints;         ///< The joint table (joints.h); NULL until one.
    ledge__step step;                     ///< The step's scratch.
    struct ledge__order *order;           ///< The slots' order by space (order.h).
    struct ledge__broad *broad;           ///< The broad phase (broad_file.h).
    struct ledge__sleep *sleep;           ///< Sleeping bodies (sleep.h).
    struct ledge__resolve *resolve;       ///< The relaxation passes (resolve.h).
    struct ledge__fast *fast;             ///< The fast bodies' paths (fast.h).
    struct ledge__events *events;         ///< The events and the contact index (events.h).
    struct ledge__response *response;     ///< The velocity pass (response.h).
    ledge__par par;                       ///< The workers and the blocks of slots (par.h).
    ledge__debug debug;                   ///< The tests' switches and counters.

    // --- the body store (body_fields.h): its arrays, named directly (w->position[i])
    LEDGE__BODY_STORE_MEMBERS
};

/// Body slot i's shape: its entry in the world's shape table. Every reader
/// of a body's shape goes through here. (Valid for a living body; the
/// pointer until the next body is created or the world restored.)
static inline const ledge_shape *ledge__shape_of(const ledge_world *w, int i) {
    return &w->shapes.shapes[w->shape_id[i]];
}

#endif // LEDGE_WORLD_STATE_H
