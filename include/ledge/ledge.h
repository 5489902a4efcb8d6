/// @file ledge.h
/// Umbrella header: includes every public ledge header.
#ifndef LEDGE_H
#define LEDGE_H

#include "base.h"
#include "collision.h"

#endif // LEDGE_H
