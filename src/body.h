// Internal: what body.c (the body API) offers the other public modules.
#ifndef LEDGE_BODY_INTERNAL_H
#define LEDGE_BODY_INTERNAL_H

#include "world_state.h"

/// ledge_body_set_position's work on living slot i, whose id the caller
/// already checked and whose world is not stepping (the bump move checks
/// its item once, not twice): false (logged as "<fn>: position ...", nothing
/// changed) when the position is not finite or beyond LEDGE_MAX_COORDINATE.
bool ledge__body_place(ledge_world *world, int i, vec2s position, const char *fn);

#endif // LEDGE_BODY_INTERNAL_H
