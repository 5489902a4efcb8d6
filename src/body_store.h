// The body store (body_store.c): growing every per-body array of the list
// (body_fields.h) at once, taking and releasing slots, and moving bodies
// between slots behind their ids (the slots' order by space, order.c).
#ifndef LEDGE_BODY_STORE_H
#define LEDGE_BODY_STORE_H

#include "world_state.h"

/// Grows every array of the store and the step's scratch to `capacity`
/// slots. All new arrays are allocated before any old one is released, so
/// a failure (logged, naming `fn`) leaves the world exactly as it was.
bool ledge__store_grow(ledge_world *w, int capacity, const char *fn);

/// Frees every array of the store and the scratch, and the shape tables.
void ledge__store_free(ledge_world *w);

/// A slot for a new body: the most recently freed handle's slot, else the
/// next unused one (growing the arrays), or -1 (logged) when allocation
/// fails.
int ledge__store_take_slot(ledge_world *w);

/// Kills slot i's body: its generation moves on, its handle is freed and
/// its shape's entry released (shape_table.h).
void ledge__store_release(ledge_world *w, int i);

/// Moves the bodies between slots: new slot k takes old slot order[k]
/// (a permutation of 0 .. slot_count - 1), in every stored array, in place
/// (cycle by cycle: no buffer of the largest element; the step's
/// order_mark scratch marks the slots done). slot_of follows, so every id
/// still names its body.
void ledge__store_permute(ledge_world *w, const int *order);

#endif // LEDGE_BODY_STORE_H
