// Snapshots (snapshot.c): the header's layout and its checksum, which the
// fuzz harness uses to mend mutated snapshots. The entry points are public
// (include/ledge/snapshot.h); each section has its own module
// (snapshot_tiles.h, snapshot_bodies.h, snapshot_contacts.h,
// snapshot_events.h, snapshot_characters.h). A snapshot holds, after the
// header, the world's scalars, the tilemap, the body store, the contacts
// (live then held), the events and the characters, each written by its
// *_put in this order and read by *_get (the small sections: both
// readings, `apply` the second) or *_check then *_apply (the columns).
#ifndef LEDGE_SNAPSHOT_INTERNAL_H
#define LEDGE_SNAPSHOT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/// The checksum a header holds: of the `n` bytes from the byte after the
/// checksum field to the snapshot's end (snapshot.c; the fuzz harness
/// mends mutated snapshots with it to reach the sections' checks).
uint64_t ledge__snapshot_checksum(const void *data, size_t n);

/// The header's layout (snapshot.c writes it): the magic (4 bytes) and the
/// format version (4), the size (8) at LEDGE__SNAP_SIZE_AT, the checksum
/// (8) at LEDGE__SNAP_SUM_AT, covering the bytes from LEDGE__SNAP_SUM_FROM
/// to the end, then the def's fingerprint (16 x 4): LEDGE__SNAP_HEADER
/// bytes in all.
#define LEDGE__SNAP_SIZE_AT  8
#define LEDGE__SNAP_SUM_AT   16
#define LEDGE__SNAP_SUM_FROM 24
#define LEDGE__SNAP_HEADER   88

#endif // LEDGE_SNAPSHOT_INTERNAL_H
