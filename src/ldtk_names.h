// The LDtk loader's tile vocabulary and frames: names to tiles
// (ledge_ldtk_tile_from_name), LDtk's flips, and the turn from LDtk's
// y-down frame into ledge's.
#ifndef LEDGE_LDTK_NAMES_H
#define LEDGE_LDTK_NAMES_H

#include "ledge/ldtk.h"

/// A one-way direction (a ledge_one_way, as drawn) mirrored by LDtk's flip
/// bits: X swaps LEFT and RIGHT, Y swaps UP and DOWN.
int ledge__ldtk_flip_one_way(int way, bool flip_x, bool flip_y);

/// A tile and one-way direction as drawn in LDtk into ledge's frame: with
/// y up the tile is mirrored vertically (LDtk's rows grow downward); a
/// one-way direction names the screen, so with y down UP and DOWN swap.
void ledge__ldtk_to_frame(bool y_down, int *tile, int *one_way);

/// The group words of the friendly vocabulary, for refusals that suggest a
/// facing: true when `name` starts with one ("slope45", "concave", ...).
bool ledge__ldtk_names_a_group(const char *name);

#endif // LEDGE_LDTK_NAMES_H
