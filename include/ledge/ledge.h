/// @file ledge.h
/// Umbrella header: includes every public ledge header.
#ifndef LEDGE_H
#define LEDGE_H

#include "base.h"
#include "collision.h"
#include "tiles.h"
#include "material.h"
#include "tilemap.h"
#include "body.h"
#include "world.h"
#include "events.h"
#include "query.h"
#include "chain.h"
#include "draw.h"
#include "move.h"
#include "distance.h"
#include "joint.h"
#include "character.h"
#include "ffi.h"
#include "profile.h"
#include "snapshot.h"

#endif // LEDGE_H
