// The world's chains (chain_store.c): their points and segments in their
// own frames, a tree of each chain's segments, a tree of the static
// chains, the ends that meet tiles, generational ids. Kept apart from the
// body store: a chain is level geometry (static, or kinematic: moved by
// its velocity), met by the bodies near it, never a body itself.
#ifndef LEDGE_CHAIN_STORE_H
#define LEDGE_CHAIN_STORE_H

#include "bvh.h"
#include "segment.h"
#include "world_state.h"

#include "ledge/chain.h"

/// One chain.
typedef struct ledge__chain {
    uint32_t generation; ///< Bumped when the chain dies (its ids are then refused).
    uint8_t alive;
    uint8_t type;  ///< LEDGE_BODY_STATIC or LEDGE_BODY_KINEMATIC.
    uint8_t loop;  ///< Closed: the last point joins the first.
    uint8_t moved; ///< Placed or given a velocity by the game since the last step: its
                   ///< contacts are not replayed (as a body's, world.c).
    uint8_t ccw;   ///< A loop that runs counter-clockwise (y up): its solid is inside.
    int point_count;
    vec2s *points; ///< In the chain's frame.
    int segment_count;
    ledge__segment *segments; ///< In the chain's frame; the open ends' cuts follow the tiles.
    ledge__bvh tree;          ///< The segments, in order.
    ledge_aabb bounds;        ///< Of the points, in the chain's frame.
    vec2s position;           ///< Where the chain's frame lies in the world.
    vec2s velocity;           ///< A kinematic chain's (0 for a static one).
    vec2s prev_velocity;      ///< Its velocity in the last substep (the carry, world.c).
    vec2s last_position;      ///< Where it was before the substep moved it.
    ledge_filter filter;
    ledge_material material; ///< Its surface (material.h), mixed with a body's at a contact.
    void *user_data;
    /// Where each open end meets a tile's surface (chain_store.c,
    /// junctions): the tile surface's outward normal there, or (0, 0).
    vec2s end_surface[2];
} ledge__chain;

/// A side a chain's end blocks: cell (x, y) of the map, LEDGE_SIDE_ bits.
typedef struct ledge__chain_block {
    int x, y;
    unsigned sides;
} ledge__chain_block;

/// A tile corner where a chain's end leaves the tile's surface downhill (a
/// convex junction): cell (x, y), the corner e (world), the tile face's
/// normal fn and the chain segment's rn there. The tile's contacts at
/// that corner that push beyond rn are the chain's to make (resolve.c,
/// move.c): what lies past rn is the chain's surface, not the tile's side.
typedef struct ledge__chain_corner {
    int x, y;
    vec2s e, fn, rn;
} ledge__chain_corner;

/// The world's chains (ledge_world.chains; NULL until the first is made).
typedef struct ledge__chains {
    ledge__chain *c; ///< By slot (an id's index1 - 1): slots never move.
    int cap;         ///< Slots allocated.
    int count;       ///< Slots ever used.
    int live;        ///< Living chains.
    int kinematic;   ///< Living kinematic chains.
    int *free_slots; ///< Dead slots, reused last in first out (cap entries).
    int free_count;
    int *kinematic_slots; ///< The living kinematic chains' slots, in slot order (cap entries).
    /// The static chains by their world boxes (queries and the broad
    /// phase), made again when the static chains change (`tree_stale`).
    ledge__bvh tree;
    int *tree_slot; ///< Each item's chain slot (tree.cap entries).
    bool tree_stale;
    /// The ends that meet tiles, found for the map's version
    /// `junction_version` unless `junction_stale` (chain_store.c,
    /// junctions); the sides their ends block, as set in the map.
    uint32_t junction_version;
    bool junction_stale;
    ledge__chain_block *blocks;
    int block_count, block_cap;
    ledge__chain_corner *corners; ///< The convex junctions, by cell (y, then x).
    int corner_count;
    bool any_moved;                ///< Some chain's `moved` is set.
    struct ledge__chain_hit *hits; ///< Scratch of the queries (chain_query.c), hit_cap entries.
    int hit_cap;
} ledge__chains;

/// Frees the world's chains.
void ledge__chains_free(ledge_world *world);

/// Frees a chain store (NULL is ignored).
void ledge__chains_release(ledge__chains *chains);

/// A new empty store with room for `slots` slots, or NULL when an
/// allocation fails (silent: the caller logs).
ledge__chains *ledge__chains_make(int slots);

/// Puts a living chain made from `def` (checked: ledge__chain_check) in
/// free slot s of the store (s < its room), with that generation. False
/// when an allocation fails (silent), the store as it was.
bool ledge__chains_put(ledge__chains *chains, int s, const ledge_chain_def *def,
                       uint32_t generation);

/// Whether a def's chain can be made: the points, count, type, position,
/// velocity and material in range, no degenerate segment, no fold, no
/// crossing.
/// Else false with one sentence (without the function's name) in `why`.
/// Allocates a check's scratch; false, saying so, when that fails.
bool ledge__chain_check(const ledge_chain_def *def, char *why, size_t why_size);

/// The slot of a living chain named by `id`, or -1 (logged as `fn`
/// refusing it).
int ledge__chain_slot(const ledge_world *world, ledge_chain_id id, const char *fn);

/// The id of chain slot s.
ledge_chain_id ledge__chain_id(const ledge_world *world, int s);

/// Adds a chain of `count` points (checked by the caller: finite, in
/// range, no repeated point, at least 2, 3 for a loop) in the def's frame;
/// returns its slot, or -1 (logged as `fn`) when allocation fails.
int ledge__chains_add(ledge_world *world, const ledge_chain_def *def, const char *fn);

/// Removes chain slot s (its contacts already dropped by the caller,
/// ledge_chain_destroy, which wakes the bodies they held).
void ledge__chains_remove(ledge_world *world, int s);

/// Brings what the chains derive up to date on the calling thread: the
/// tree of static chains and where the open ends of the static chains meet
/// the tiles (recomputed when the chains or the map changed). Before the
/// step and before every query or move that reads the chains.
void ledge__chains_sync(ledge_world *world);

/// Clears the tile sides the chains' ends block (chain_store.c, junctions)
/// from the map: before the chains are replaced.
void ledge__chains_unblock(ledge_world *world);

/// Forgets what the chains derive (made again when next synced): where
/// their ends meet the tiles after a tile edit, and the tree of static
/// chains too after a restore (LEDGE__STALE_ALL). The bodies' slots are
/// not in it. Called by ledge__world_forget.
void ledge__chains_forget(ledge_world *world, ledge__stale why);

/// Whether a contact of normal n that the tile in cell (x, y) makes with a
/// body whose centre is `centre` is the chain's to make (a corner above):
/// it pushes beyond the chain segment's normal at a convex junction and the
/// body lies in front of that segment.
bool ledge__chains_hide_tile_contact(const ledge__chains *chains, int x, int y, vec2s n,
                                     vec2s centre);

/// The world box of chain c.
static inline ledge_aabb ledge__chain_box(const ledge__chain *c) {
    ledge_aabb b = {v2_add(c->bounds.lower, c->position), v2_add(c->bounds.upper, c->position)};
    return b;
}

/// A walk of the chain segments whose boxes meet a world box: the static
/// chains through their tree, then the kinematic ones in slot order, each
/// chain's segments in order. Reads only (safe on the workers while the
/// chains do not change).
typedef struct ledge__chain_walk {
    const ledge__chains *cs;
    ledge_aabb box;
    ledge__bvh_iter chains; ///< The static chains.
    int kinematic;          ///< The next kinematic chain to look at (index in kinematic_slots).
    int chain;              ///< The chain being walked, or -1.
    ledge__bvh_iter segments;
} ledge__chain_walk;

/// Starts a walk over the chains (NULL: none) for a world box.
void ledge__chain_walk_begin(ledge__chain_walk *walk, const ledge__chains *cs, ledge_aabb box);

/// The next segment met: true with its chain's slot and its index, false at
/// the end.
bool ledge__chain_walk_next(ledge__chain_walk *walk, int *chain, int *segment);

/// Whether any chain segment's box meets the world box.
bool ledge__chains_near(const ledge__chains *cs, ledge_aabb box);

/// The segments of chain c whose boxes meet the world box (a bound of the
/// contacts a body there can make with c).
int ledge__chain_count_near(const ledge__chain *c, ledge_aabb box);

#endif // LEDGE_CHAIN_STORE_H
