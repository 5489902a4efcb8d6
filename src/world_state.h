// The world's state: its types and nothing else. The body store
// (body_store.h: parallel arrays, one per field, indexed by slot, so that
// each stage of the step streams only the fields it reads), the contacts,
// the grid, the event arrays and the step context (per-substep scratch).
// The functions over them are declared by the modules that define them
// (slots.h, par.h, contacts.h, and each stage's header).
#ifndef LEDGE_WORLD_STATE_H
#define LEDGE_WORLD_STATE_H

#include "array.h"
#include "body_fields.h"
#include "core.h"
#include "grid.h"
#include "ledge/events.h"
#include "ledge/world.h"
#include "tilemap.h"
#include "workers.h"

#include <stdatomic.h>

/// A contact found by the last relaxation pass of a substep. The substep's
/// velocity pass responds to it, and the next substep replays it before its
/// bodies move (so that resting and sliding bodies feel friction every step).
typedef struct ledge__contact {
    int a;          ///< Body slot.
    int b;          ///< Other body slot, or -1 for a tile.
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
    uint8_t state;  ///< LEDGE__PAIR_TOUCHED, _DECIDED, _TESTED, _PUSHED (one byte: the passes
                    ///< stream 36 bytes a pair).
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

/// ledge__pair.kind: both bodies are circles.
#define LEDGE__PAIR_CIRCLES 1u
/// ledge__pair.kind: no one-way body, no response policy, no pre-solve
/// callback: the pair slides and its relaxation skips those rules.
#define LEDGE__PAIR_PLAIN 2u

/// A touch or sensor overlap as a sortable key: body handles (an id's
/// index1 - 1, stable when slots are reordered) and generations, then the
/// tile cell (b = -1 for a tile) (events.c).
typedef struct ledge__key {
    int32_t a, ga, b, gb, cx, cy;
} ledge__key;

/// A growing list of keys.
typedef struct ledge__key_list {
    ledge__key *keys;
    int count, cap;
} ledge__key_list;

/// The event arrays the game reads after a step (events.c).
typedef struct ledge__event_arrays {
    ledge__key_list touch_old, touch_now, sensor_old, sensor_now;
    struct ledge_touch_event *touch_begin, *touch_end;
    int touch_begin_count, touch_begin_cap, touch_end_count, touch_end_cap;
    struct ledge_sensor_event *sensor_begin, *sensor_end;
    int sensor_begin_count, sensor_begin_cap, sensor_end_count, sensor_end_cap;
    struct ledge_crush_event *crush;
    int crush_count, crush_cap;
} ledge__event_arrays;

/// Per-substep scratch: rewritten by each substep before it is read, so
/// never reordered with the bodies and never part of the world's state.
typedef struct ledge__step {
    LEDGE__BODY_SCRATCH_MEMBERS // the per-body scratch arrays (body_store.h)
        ledge__pair *pairs;     ///< Candidate pairs of this substep (broad.c).
    int pair_count, pair_cap;
    ledge__pair *sensor_pairs; ///< A sensor (a) and a body near it (b) (broad.c).
    int sensor_pair_count, sensor_pair_cap;
    int tile_count;     ///< Entries in tile_list (dynamic bodies near non-empty cells).
    int big_count;      ///< Entries in big_list (bodies larger than a grid cell).
    bool count_active;  ///< active_upto is counted (bodies sleep; broad.c).
    int pushes;         ///< Projections made by the current relaxation pass.
    uint64_t *far_keys; ///< The pairs found after far pushes this substep, a hash set (broad.c).
    int far_key_cap;    ///< Its slots (a power of two, or 0).
    int far_key_count;  ///< Its keys.
    float margin;       ///< Broad-phase growth of the boxes (this step).
    float cap_dt;       ///< The velocity pass's dt (response.c).
    int *buckets;       ///< The contact sort's counters.
    int bucket_cap;
    int *sort_key;     ///< Per contact: its bucket (the contact sort, response.c).
    int *sort_index;   ///< The contacts' indices, by groups of buckets.
    int *sort_count;   ///< Per block of contacts: its count, then its place, per group.
    float *sort_range; ///< Per block of contacts: its lowest and highest pair height.
    int sort_key_cap, sort_index_cap, sort_count_cap, sort_range_cap;
    uint8_t *carry_block; ///< Per block of contacts: any against a kinematic body (world.c);
                          ///< after the step, what events it may hold (events.c).
    int carry_block_cap;
    struct ledge__stacking *stacking; ///< Per contact: who rests on whom (the loads, response.c).
    int stacking_cap;
    bool still_any; ///< Grid bodies not fast this substep: bounds of their centres (broad.c).
    vec2s still_lower, still_upper;
    ledge__cell_rect still_cells; ///< The cells of those bounds, for the fast paths (fast.c).
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

/// Stacking model: how many times heavier a dynamic body under another
/// counts when the projection shares their overlap (broad.c, pair_share).
/// Measured on a column of 20 x 1,000 circles (rain map and material,
/// sleeping; worst overlap at step 1,500 and bodies faster than 0.1 m/s at
/// step 800): 1 (by inverse mass) 0.0226 m, 5; 2: 0.0063 m, 27; 4: 0.0062
/// m, 161; infinite (the lower body held still): 0.0063 m, 452.
#define LEDGE__LOWER_WEIGHT 2.0f

/// A list of pairs written by one block of the broad phase (broad.c). A
/// worker never allocates: a block that runs out of room counts what it
/// missed and is run again by the calling thread after growing the list.
typedef struct ledge__pair_list {
    ledge__pair *pairs;
    int count, cap;
    bool overflow; ///< Pairs were left out for want of room.
} ledge__pair_list;

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


/// What a block's boxes, grid coordinates and flags depend on besides its
/// bodies (broad.c, "classify").
typedef struct ledge__classify_key {
    float cell, margin;
    int up_axis;
    bool pre_solve;
} ledge__classify_key;

/// What the grid's cells of the bodies depend on besides their centres,
/// and the arrays that hold its filing (broad.c, "file_bodies").
typedef struct ledge__grid_key {
    vec2s origin;
    float cell;
    int nx, ny;
    const int *cell_of, *cell_start, *sorted;
} ledge__grid_key;

/// The step's parallel scratch (workers.h): per-block outputs, concatenated
/// in block order by the calling thread.
typedef struct ledge__par {
    ledge__workers *workers;   ///< NULL: one worker.
    int block_cap;             ///< Entries in each per-block array below.
    ledge__pair_list *pairs;   ///< Per block of sorted grid bodies: its candidate pairs.
    ledge__pair_list *sensors; ///< Per block: its sensor pairs.
    int *block_count;          ///< Per block: entries it wrote to `items`.
    uint8_t *block_flag;       ///< Per block: a body needs the calling thread's follow-up.
    /// Per block of slots: every body in it sleeps, is static or is dead, and its
    /// per-body scratch holds what the step writes for sleepers, so the
    /// stages that have nothing to do for a sleeper skip the block (sleep.c,
    /// "Dormant blocks"). Cleared by anything that may change that.
    uint8_t *dormant;
    /// Per block of slots: the classify stamp under which the broad phase
    /// last found the boxes of the block while it was dormant, or 0. Its
    /// bodies' boxes, grid coordinates and flags are then still the ones
    /// found, and the broad phase reuses them (broad.c, "classify").
    /// Cleared with `dormant` by ledge__stir.
    uint32_t *classified;
    uint8_t *classified_still; ///< Per block: it had grid bodies when classified.
    /// Changes whenever something the boxes depend on besides the bodies
    /// (the key) changes: a block classified under an older stamp is found again.
    uint32_t classify_stamp;
    ledge__classify_key classify_key;
    bool reuse_on; ///< Dormant blocks' boxes are reused (tests turn it off).
    /// A relaxation pass that moved nothing skips to the last (world.c; tests turn it off).
    bool skip_on;
    long passes; ///< Relaxation passes run (tests).
    /// Per block of slots: the grid stamp under which a reusable block's
    /// cells were counted (its counts then in saved_count), or 0.
    uint32_t *counted;
    int *saved_count;       ///< Per block: LEDGE__GRID_BANDS counts of a reusable block.
    uint8_t *cells_changed; ///< Per block of slots: a body's cell changed in this filing.
    /// Changes whenever the grid's cells or its cell_of array change.
    uint32_t grid_stamp;
    ledge__grid_key grid_key;
    vec2s *block_lower; ///< Per block, two: still, fast grid bodies' bounds (broad.c).
    vec2s *block_upper;
    int items_cap; ///< Entries in `items`.
    int *items;    ///< Per slot: each block's output at its own offset.
    /// Per slot (items_cap): kept awake by a contact this step (sleep.c;
    /// atomic: two ranges of contacts may mark one body).
    atomic_uchar *veto;
    int *row_start; ///< Grid row r's pairs: row_start[r] .. row_start[r + 1].
    int row_cap;
    int *block_offset; ///< Per block: where its output starts (resolve.c's tile contacts).
    int *grid_count;   ///< Per block: LEDGE__GRID_BANDS counts, then places (broad.c).
    ledge__contact *tile_contacts; ///< The tile list's blocks' contacts (resolve.c).
    int tile_contact_cap;
    int *record_offset; ///< Per block of pairs: where its contacts go (resolve.c).
    int record_offset_cap;
    int grid_pair_count;   ///< Pairs found through the grid (before the big bodies').
    int grid_sensor_count; ///< Sensor pairs found through the grid (likewise).
    /// Per block of sorted grid bodies: where its pairs and sensor pairs
    /// start in the step's lists (the substep's first search, broad.c).
    int *pair_start, *sensor_start;
    /// Per block, two: where a block searched again starts in one worker's
    /// lists of the blocks searched again (broad.c).
    int *fresh_start;
    /// Per block of sorted grid bodies: a body woken after the pair search
    /// is within reach of its bodies, so its search is made again (broad.c).
    uint8_t *research;
    /// Per block of sorted grid bodies: the active bodies of the blocks
    /// before it, while bodies sleep (broad.c's count_active).
    int *active_before;
    int *splice_to;    ///< Per block: where its pairs go when a search again is spliced (broad.c).
    bool research_all; ///< A woken body is not in the grid: every block is searched again.
    bool research_on;  ///< Blocks are searched again, not the whole grid (tests turn it off).
    /// The fast paths skip the cells that hold no still body (fast.c; tests
    /// turn it off).
    bool still_cells_on;
    long researched;        ///< Searches made again by blocks (tests).
    int worker_count;       ///< The def's worker_count: worker indices are below it.
    int *fast_near;         ///< Per worker: LEDGE__FAST_ROOM bodies near a fast path (fast.c).
    int fast_room;          ///< Of those, used (tests lower it; -1: the calling thread does all).
    long fast_left;         ///< Fast bodies the workers left to the calling thread (tests).
    ledge__profile profile; ///< Stage times, for the benchmark.
    struct ledge__counter {
        int pushes;    ///< Projections made (resolve.c).
        int rechecked; ///< Bodies that joined the tile list (broad.c).
        int far_moved; ///< Bodies pushed beyond the margin (broad.c).
        char pad[52];  ///< One cache line per worker.
    } counter[LEDGE_MAX_WORKERS];
} ledge__par;




struct ledge_world {
    uint32_t serial; ///< This world's serial number, carried by its ids (never 0).
    vec2s gravity;
    ledge_tilemap *map;
    int iterations;               ///< Relaxation passes per substep.
    int substeps;                 ///< Substeps per step.
    float slop;                   ///< Overlap left in place so that contacts persist.
    float bounce_threshold;       ///< Approach speed below which nothing bounces.
    float cell_size;              ///< Broad-phase cell override (0: automatic).
    bool coulomb;                 ///< LEDGE_FRICTION_COULOMB (else N's friction law).
    uint32_t contact_map_version; ///< The tilemap version the recorded contacts were found at.
    bool any_moved;               ///< Some body's `moved` is set.
    float max_extent;             ///< Largest dynamic body's extent seen (grows only).
    uint32_t map_version;         ///< The tilemap version tile_seen was found for (broad.c).
    float tile_margin;            ///< The broad-phase margin tile_seen was found with (broad.c).
    vec2s up;                     ///< Unit vector against gravity ((0, 0) without gravity).
    int up_axis;                  ///< Grid rows run along: 0 +y, 1 -y, 2 +x, 3 -x (closest to up).
    ledge__grid grid;
    ledge__event_arrays ev; ///< The last step's events (events.c).
    int *contact_first;     ///< Contact index: each slot's contacts (events.c), built lazily.
    int *contact_order;
    int contact_first_cap, contact_order_cap;
    bool contact_index_dirty;
    ledge_pre_solve_fn *pre_solve; ///< The game's contact filter, or NULL.
    void *pre_solve_context;
    ledge__contact *contacts;
    ledge__contact *contacts_scratch; ///< Same capacity: the sort's output.
    int contact_count, contact_cap;
    /// Held contacts: those of sleeping bodies with each other, static and
    /// kinematic bodies and tiles, kept as they were when the bodies fell
    /// asleep (sleep.c). The game's view is `contacts` then `held`
    /// (ledge__view_contact); the step reads and rebuilds `contacts` only.
    ledge__contact *held;
    int held_count, held_cap;
    bool sleep_on;              ///< ledge_world_def.enable_sleep.
    float sleep_speed;          ///< ledge_world_def.sleep_speed.
    float sleep_time;           ///< ledge_world_def.sleep_time.
    int sleepers;               ///< Bodies asleep.
    uint32_t sleep_map_version; ///< The tilemap version the sleepers fell asleep at.
    bool sleep_woke;            ///< A sleeper woke since the held contacts were last sorted.
    bool sleep_stepped; ///< A step has ended (before, no contact exists for an edit to change).
    bool stepping;    ///< Set during ledge_world_step: API calls that change the world are refused.
    bool query_dirty; ///< The query index must be rebuilt before the next query (query.c).
    struct ledge__query_index *query;     ///< The queries' own grid (query.c); NULL until asked.
    struct ledge__characters *characters; ///< Character states (character.c); NULL until one.
    ledge__step step;                     ///< Per-substep scratch.
    bool dormant_on;   ///< Blocks of sleepers may become dormant (tests turn it off; sleep.c).
    int order_period;  ///< Steps between reorderings of the slots by space (0: never; order.c).
    int order_clock;   ///< Steps ended since the last reordering (order.c).
    uint32_t reorders; ///< Reorderings that moved bodies (order.c; tests read it).
    ledge__par par;    ///< The workers and their scratch (workers.h).

    // The body store (body_store.h): its arrays, named directly (w->position[i]).
    LEDGE__BODY_STORE_MEMBERS
};

#endif // LEDGE_WORLD_STATE_H
