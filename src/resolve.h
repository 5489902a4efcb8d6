// Internal: the relaxation passes (resolve.c) and the recorded contacts.
// A stage of the step: it includes the world's state and the stages below
// it only (docs/design.md, "How the modules layer").
#ifndef LEDGE_RESOLVE_H
#define LEDGE_RESOLVE_H

#include "world_state.h"

/// The relaxation's state (w->resolve): the scratch of the recording pass,
/// rewritten each substep before it is read.
typedef struct ledge__resolve {
    /// The tile list's blocks' contacts, each block at its own offset.
    ledge__contact *tile_contacts;
    int tile_contact_cap;
    int *tile_offset; ///< Per block of the tile list: where its contacts go (or their bound).
    int *tile_found;  ///< Per block of the tile list: the contacts it found.
    int tile_block_cap;
    int *record_offset; ///< Per block of pairs: its touched pairs, then where its contacts go.
    int record_offset_cap;
} ledge__resolve;

/// Room for the blocks of a tile list of up to `slots` bodies (before the
/// step: the workers never allocate); false (logged) when it cannot grow.
bool ledge__resolve_reserve(ledge_world *world, int slots);

/// Frees the relaxation's scratch.
void ledge__resolve_destroy(ledge__resolve *resolve);

/// One relaxation pass (resolve.c): every candidate pair, then every body
/// near tiles (one cell at a time, in N's order), projected out of overlap.
/// Pairs remember whether they touched in any pass; with `record` (the last
/// pass) the tile contacts found are recorded, and then every pair that
/// touched. Returns the projections it made, and the pairs it found after
/// far pushes (ledge__far_pairs): 0 when the pass moved nothing.
int ledge__resolve_pass(ledge_world *world, bool record);

/// Drops the recorded contacts of a slot (its body died), keeping the order
/// of the others.
void ledge__forget_contacts(ledge_world *world, int slot);

/// Makes room for `more` contacts past contact_count (and as many in the
/// sort's scratch); false (logged) when an allocation fails.
bool ledge__contacts_reserve(ledge_world *world, int more);

/// Appends a contact; returns false (the contact still resolved, only its
/// response is lost) when the array cannot grow.
bool ledge__record_contact(ledge_world *world, const ledge__contact *contact);

/// Pushes dynamic body i out of the tiles when its centre lies buried in a
/// solid cell whose four sides are blocked (no tile contact can push it:
/// each needs an open side, so it would fall through the map): back along
/// the way it came this substep, to the surface it crossed, or when it
/// started the substep buried too, to the nearest cell not solid along the
/// grid's axes (against gravity first on a tie). Its velocity loses its
/// part into that surface. Writes only body i; true when it moved it.
bool ledge__unbury(ledge_world *world, int i);

/// Whether `point` lies buried: in the solid part of a cell whose four
/// sides are blocked (not a one-way cell).
bool ledge__tile_buried(const ledge_world *world, vec2s point);

/// Whether one-way tile cell (x, y) (inside the map) meets body a with
/// manifold m: pushed out toward its allowed side, a not dropping through,
/// and not already inside it at the start of the substep. Marks a as having
/// overlapped a one-way platform (resolve.c).
bool ledge__one_way_tile_allows(ledge_world *world, int a, int x, int y, const ledge_manifold *m);

/// Writes *c: the contact of body a with tile cell (x, y) (manifold m),
/// its friction, bounce and policy (a ledge_response).
void ledge__tile_contact(const ledge_world *world, int a, int x, int y, const ledge_manifold *m,
                         uint8_t policy, ledge__contact *c);

/// Writes *c: the contact of body a with segment `segment` of chain slot
/// `chain` (manifold m, world points), its friction, bounce and policy.
void ledge__chain_contact(const ledge_world *world, int a, int chain, int segment,
                          const ledge_manifold *m, uint8_t policy, ledge__contact *c);

#endif // LEDGE_RESOLVE_H
