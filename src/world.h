// Internal layout of a world: bodies stored as parallel arrays (one per
// field, indexed by slot) so that each stage of the step streams only the
// fields it reads.
#ifndef LEDGE_WORLD_INTERNAL_H
#define LEDGE_WORLD_INTERNAL_H

#include "core.h"
#include "grid.h"
#include "ledge/world.h"

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
    int cell_x;     ///< The tile cell, for a tile contact.
    int cell_y;
    int policy; ///< A ledge_response.
} ledge__contact;

/// A rectangle of tile cells, inclusive.
typedef struct ledge__range {
    int x0, y0, x1, y1;
} ledge__range;

/// A candidate pair from the broad phase: the bounding boxes, grown by the
/// world's margin, overlap and the filters let the bodies touch. The
/// relaxation passes of the substep test only these.
typedef struct ledge__pair {
    int a, b;       ///< Body slots.
    float friction; ///< Combined: sqrt(fa * fb).
    float bounce;   ///< Combined: max(ba, bb).
    vec2s normal;   ///< Of the last overlap found this substep (from a toward b).
    vec2s point;    ///< Its contact point.
    float depth;    ///< Its depth.
    bool touched;   ///< Whether any relaxation pass found them overlapping.
    bool decided;   ///< Whether `policy` was chosen this substep (at the first touch).
    uint8_t policy; ///< A ledge_response for the pair.
} ledge__pair;

/// A touch or sensor overlap as a sortable key: body slots and
/// generations, then the tile cell (b = -1 for a tile) (events.c).
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

struct ledge_world {
    uint32_t serial; ///< This world's serial number, carried by its ids (never 0).
    vec2s gravity;
    ledge_tilemap *map;
    int iterations;         ///< Relaxation passes per substep.
    int substeps;           ///< Substeps per step.
    float slop;             ///< Overlap left in place so that contacts persist.
    float bounce_threshold; ///< Approach speed below which nothing bounces.
    float cell_size;        ///< Broad-phase cell override (0: automatic).
    float max_extent;       ///< Largest dynamic body's extent seen (grows only).
    float margin;           ///< Broad-phase growth of the boxes (this step).
    float cap_dt;           ///< The velocity pass's dt (response.c).
    int pushes;             ///< Projections made by the current relaxation pass.
    uint32_t map_version;   ///< The tilemap version tile_seen was found for (broad.c).
    vec2s up;               ///< Unit vector against gravity ((0, 0) without gravity).
    int up_axis;            ///< Grid rows run along: 0 +y, 1 -y, 2 +x, 3 -x (closest to up).
    ledge__grid grid;
    ledge__pair *pairs; ///< Candidate pairs of this substep (broad.c).
    int pair_count, pair_cap;
    ledge__pair *sensor_pairs; ///< A sensor (a) and a body near it (b) (broad.c).
    int sensor_pair_count, sensor_pair_cap;
    ledge__event_arrays ev; ///< The last step's events (events.c).
    int *contact_first;     ///< Contact index: each slot's contacts (events.c), built lazily.
    int *contact_order;
    int contact_first_cap, contact_order_cap;
    bool contact_index_dirty;
    ledge_pre_solve_fn *pre_solve; ///< The game's contact filter, or NULL.
    void *pre_solve_context;
    int tile_count; ///< Entries in tile_list (dynamic bodies near non-empty cells).
    int big_count;  ///< Entries in big_list (bodies larger than a grid cell).
    ledge__contact *contacts;
    ledge__contact *contacts_scratch; ///< Same capacity: the sort's output.
    int contact_count, contact_cap;
    int *buckets; ///< The contact sort's counters.
    int bucket_cap;
    bool stepping;    ///< Set during ledge_world_step: API calls that change the world are refused.
    bool query_dirty; ///< Bodies moved, came or went since the query index was built (query.c).
    struct ledge__query_index *query; ///< The queries' own grid (query.c); NULL until asked.

    int capacity;   ///< Slots allocated in every array below.
    int slot_count; ///< Slots ever used: slots >= slot_count are untouched.
    int live_count; ///< Living bodies.
    int free_count; ///< Entries in free_slots (LIFO: deterministic reuse).
    int *free_slots;

    uint32_t *generation; ///< Bumped when a slot's body dies.
    uint8_t *alive;
    uint8_t *type; ///< ledge_body_type
    uint8_t *bullet;
    uint8_t *circle; ///< The shape is a circle (fast path in resolve.c).
    vec2s *position;
    vec2s *velocity;
    float *inv_mass; ///< 0 for static and kinematic bodies.
    float *friction;
    float *bounce;
    float *gravity_scale;
    float *drag;
    ledge_filter *filter;
    void **user_data;
    ledge_shape *shape;
    vec2s *box_offset;       ///< Centre of the shape's local bounds.
    vec2s *box_half;         ///< Half extents of the shape's local bounds.
    vec2s *box_center;       ///< World centre of the bounds (scratch, per pass).
    vec2s *grid_center;      ///< box_center in grid coordinates (rows along up).
    uint8_t *in_grid;        ///< Filed in the grid (alive and not larger than a cell).
    int *tile_list;          ///< Scratch: see tile_count.
    int *big_list;           ///< Scratch: see big_count.
    uint8_t *fast;           ///< Moving far this substep (fast.c).
    vec2s *path;             ///< The substep's displacement of a fast body.
    int *near;               ///< Scratch: bodies near a fast body's path (fast.c).
    uint8_t *sensor;         ///< Reports overlaps, never collides (events.c).
    uint8_t *events;         ///< Touch begin/end events wanted (events.c).
    uint8_t *one_way;        ///< A ledge_one_way: a one-way platform body.
    float *floor_cos;        ///< cos(max_floor_angle): ground when normal . up >= it.
    uint8_t *response;       ///< A ledge_response.
    uint8_t *dropping;       ///< Ignoring one-way platforms until clear of them.
    uint8_t *in_one_way;     ///< Overlapped a one-way platform this step.
    vec2s *prev_velocity;    ///< Kinematic: velocity of the last substep (platform carry).
    uint8_t *carried;        ///< Scratch: got its platform's velocity change this substep.
    uint8_t *frozen;         ///< Left the finite range: kept still, out of the step (world.c).
    vec2s *last_position;    ///< Position before the substep moved it.
    ledge__range *tile_seen; ///< The tile cells last looked at near each body (broad.c).
    uint8_t *tile_seen_near; ///< Whether one of them held a tile.
    uint8_t *tile_listed;    ///< In tile_list this substep.
    vec2s *tile_anchor;      ///< Box centre when the broad phase looked for tiles.
    float *load;             ///< Scratch: weight carried by each body (response.c).
    float *support;          ///< Scratch: sum of the up-cosines of its supports.
};

/// Frees the queries' index (query.c); the world's destructor calls it.
void ledge__query_free(ledge_world *world);

/// Body slot i was placed (set_position): keeps the query index fresh when
/// the body stays within half a cell of where it was filed, else marks it
/// stale (query.c).
void ledge__query_moved(ledge_world *world, int i);

/// The slot of a living body named by `id`, or -1. Logs the refusal as
/// "<fn>: id ... is stale / not a body of this world".
int ledge__world_slot(const ledge_world *world, ledge_body_id id, const char *fn);
/// The id of slot i's body (i < 0: the null id).
ledge_body_id ledge__body_id(const ledge_world *world, int i);

/// A slot for a new body: the most recently freed one, else the next unused
/// one (growing the arrays), or -1 (logged) when allocation fails.
int ledge__world_take_slot(ledge_world *world);

/// Marks body i fast when `move` (its displacement this substep) is long
/// for its size, or it is a bullet, and keeps the move (fast.c). Returns
/// whether it is.
bool ledge__fast_begin(ledge_world *world, int i, vec2s move);

/// Moves the fast bodies along their paths (multisampling, bullet sweeps),
/// finding what their paths meet through the grid, and records the contacts
/// where a bullet's path was cut (fast.c).
void ledge__fast_move(ledge_world *world);

/// The broad phase, first half (broad.c): files the bodies in the loose
/// grid (bodies larger than a cell go to the big list instead).
void ledge__broad_build(ledge_world *world);

/// The broad phase, second half (broad.c): lists the candidate body pairs
/// and the bodies near non-empty tiles, for the relaxation passes.
void ledge__broad_pairs(ledge_world *world);

/// A body pushed by a pair beyond what the broad phase saw (a crowd can
/// push one further than the margin in a substep) joins the tile list if
/// it now reaches a tile, so that tiles always have the last word (broad.c).
void ledge__recheck_tiles(ledge_world *world, int i);

/// The grid cells (as floats: column, row) that the box (centre c, half
/// extents h, world coordinates) grown by `reach` covers (broad.c).
void ledge__grid_rect(const ledge_world *world, vec2s c, vec2s h, float reach, vec2s *lo,
                      vec2s *hi);

/// Whether any tile cell within the margin of the box (c, h) is non-empty
/// (cells outside the map count as FULL, as in the tilemap's queries).
bool ledge__tiles_near(const ledge_world *world, vec2s c, vec2s h);

/// Whether the box (c, h) comes within the margin of body o's box.
bool ledge__boxes_near(const ledge_world *world, vec2s c, vec2s h, int o);

/// One relaxation pass (resolve.c): every candidate pair, then every body
/// near tiles (one cell at a time, in N's order), projected out of overlap.
/// Pairs remember whether they touched in any pass; with `record` (the last
/// pass) the tile contacts found are recorded, and then every pair that
/// touched. Counts its projections in world->pushes.
void ledge__resolve_pass(ledge_world *world, bool record);

/// The velocity pass (response.c): N's response for the recorded contacts,
/// in contact order, then once more from the bottom of each pile up with
/// the lower body held still (shock propagation). Contacts approaching
/// slower than `resting` are left alone.
void ledge__velocity_pass(ledge_world *world, float resting, float dt);

/// Orders the recorded contacts from the bottom of each pile up: tile
/// contacts first, then pairs by the height of their lower body (along up),
/// a stable counting sort over slices of a tenth of a grid cell.
void ledge__sort_contacts(ledge_world *world);

/// The load each recorded contact carries and its Coulomb cap (response.c):
/// once per substep, after the contacts are sorted.
void ledge__contact_loads(ledge_world *world);

/// For a body-body contact answered between a dynamic body and a static or
/// kinematic one: the dynamic body d, the other p and the normal n from p
/// toward d. False for any other contact.
static inline bool ledge__dynamic_against_fixed(const ledge_world *w, const ledge__contact *c,
                                                int *d, int *p, vec2s *n) {
    if (c->b < 0 || c->policy == LEDGE_RESPONSE_CROSS) return false;
    bool a_dynamic = w->type[c->a] == LEDGE_BODY_DYNAMIC;
    *d = a_dynamic ? c->a : c->b;
    *p = a_dynamic ? c->b : c->a;
    *n = a_dynamic ? c->normal : v2_neg(c->normal);
    return w->type[*d] == LEDGE_BODY_DYNAMIC && w->type[*p] != LEDGE_BODY_DYNAMIC;
}

/// Box2D's filter rule (body.h): a shared nonzero group decides (positive:
/// always, negative: never), else each category must meet the other mask.
static inline bool ledge__filters_allow(const ledge_filter *a, const ledge_filter *b) {
    if (a->group != 0 && a->group == b->group) return a->group > 0;
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

/// After the last substep: touch, sensor and crush events, drop-through
/// flags, and the contact index marked stale (events.c).
void ledge__after_step(ledge_world *world);

/// Frees the event arrays and the contact index (events.c).
void ledge__events_free(ledge_world *world);

/// Orders two keys (events.c).
int ledge__key_compare(const ledge__key *x, const ledge__key *y);

/// Drops the recorded contacts of a slot (its body died), keeping the order
/// of the others.
void ledge__forget_contacts(ledge_world *world, int slot);

/// Appends a contact; returns false (the contact still resolved, only its
/// response is lost) when the array cannot grow.
bool ledge__record_contact(ledge_world *world, const ledge__contact *contact);

/// Whether one-way tile cell (x, y) (inside the map) meets body a with
/// manifold m: pushed out toward its allowed side, a not dropping through,
/// and not already inside it at the start of the substep. Marks a as having
/// overlapped a one-way platform (resolve.c).
bool ledge__one_way_tile_allows(ledge_world *world, int a, int x, int y, const ledge_manifold *m);

/// A contact of body a with tile cell (x, y), its friction and bounce.
ledge__contact ledge__tile_contact(const ledge_world *world, int a, int x, int y,
                                   const ledge_manifold *m);

#endif // LEDGE_WORLD_INTERNAL_H
