// Snapshots: the recorded contacts (snapshot_contacts.c), as 40-byte
// records; checked, then applied.
#ifndef LEDGE_SNAPSHOT_CONTACTS_H
#define LEDGE_SNAPSHOT_CONTACTS_H

#include "snapshot_codec.h"

void ledge__snap_contacts_put(const ledge__contact *list, int count, ledge__writer *o);
/// Checked against the snapshot's `slots` (after the bodies' check) and
/// its chains (after theirs; NULL: none).
bool ledge__snap_contacts_check(ledge__reader *r, const ledge_world *w, int slots,
                                const struct ledge__chains *chains, ledge__snap_contact_cols *cols);
/// Into `list`, room for cols->count.
void ledge__snap_contacts_apply(const ledge__snap_contact_cols *cols, ledge__contact *list);

#endif // LEDGE_SNAPSHOT_CONTACTS_H
