/// @file snapshot.h
/// Snapshots of a world, for rollback netcode, replays and save games.
///
/// Overview
/// --------
/// A snapshot is the world's state as bytes: restore it into the world
/// that saved it, or into another world made from the same def and the
/// same level, and every step after it gives the same bits as the steps
/// that followed the save (the same ledge_world_hash, contacts and
/// events), with any worker count, natively and in WebAssembly alike.
///     size_t cap = ledge_world_snapshot_size(world);
///     void *snap = malloc(cap);
///     size_t n = ledge_world_save(world, snap, cap);  // 0 when refused
///     ... steps ...
///     ledge_world_restore(world, snap, n);            // back to the save
///
/// What is saved: every body (its slot, id, settings, position, velocity,
/// sleep and frozen state, what the game set since the last step), the
/// contacts the next step replays and the game reads (ledge_body_contacts,
/// ledge_body_ground), the last step's events, the characters' defs and
/// states, the tilemap's tiles, one-way settings and materials (each tile
/// id's and each cell's own), and the step's own
/// clocks. What the step derives (the broad phase's grid, the query index,
/// per-step scratch) is not saved: it is found again, with the same bits.
/// Not saved: the pre-solve callback and the worker settings (the world's
/// own stay), and user data only as the pointer's bits (meaningful in the
/// process that saved it).
///
/// Ids: a restore brings back the slots and generations of the save, so a
/// body made after the save is invalid after the restore (made again in
/// the same order, it gets the same id as the first time) and a body
/// destroyed after it is valid again. Ids carry their world's serial
/// number: in another world, the ids that world made for the same slots
/// and generations name the restored bodies (a client that built the level
/// in the same order keeps its ids); the ids of ledge_body_contacts,
/// events and queries are then this world's.
///
/// Format (docs/rollback.md): a header with a magic ("LDGS"), the format
/// version (LEDGE_SNAPSHOT_VERSION), the size, a checksum over the rest
/// (xxHash's XXH3, 64 bits) and the def's fingerprint (map size, tile size
/// and origin, cell size, friction law, gravity, iterations,
/// substeps, slop, bounce threshold, sleep settings), then the state,
/// little-endian on every target. The same state gives the same bytes.
#ifndef LEDGE_SNAPSHOT_H
#define LEDGE_SNAPSHOT_H

#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The snapshot format this library writes and reads.
#define LEDGE_SNAPSHOT_VERSION 3

/// The bytes ledge_world_save needs for the world as it is now (as much
/// work as a save: keep a buffer that is large enough and ask again only
/// when a save returns 0). 0 (logged) for a NULL or stepping world.
LEDGE_API size_t ledge_world_snapshot_size(const ledge_world *world);

/// Writes the world's state into `buffer` and returns the bytes written.
/// Returns 0 (logged) when the buffer is NULL or smaller than the
/// snapshot (nothing is then written past `capacity`), or the world is
/// NULL or stepping. Never allocates.
LEDGE_API size_t ledge_world_save(const ledge_world *world, void *buffer, size_t capacity);

/// Puts the world back to the state in the `size` bytes at `buffer` (a
/// snapshot of ledge_world_save). Returns false (logged, the world
/// unchanged) for a NULL or empty buffer, a truncated or corrupted
/// snapshot, one of another format version, one saved by a world of
/// another def (the message names the field), a stepping world, or a
/// failed allocation. Allocates only to make room for more bodies,
/// contacts, events or characters than the world has held.
LEDGE_API bool ledge_world_restore(ledge_world *world, const void *buffer, size_t size);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_SNAPSHOT_H
