// The scripted scene of the binding's parity test (parity.c).
#ifndef LEDGE_TESTS_PARITY_H
#define LEDGE_TESTS_PARITY_H

#include <stdbool.h>
#include <stdio.h>

/// Runs the scripted scene for `steps` steps through the C API, writing
/// its trace to `to` (tests/web/parity.mjs writes the same through the
/// JavaScript binding).
int parity_main(FILE *to, int steps);

/// Runs the moving parts' scene (a pushing character, materials of cells,
/// tile ids and bodies, belts, joints of four kinds, a snapshot restored)
/// for `steps` steps, writing its trace to `to` (tests/web/parity.mjs's
/// partsTrace writes the same through the JavaScript binding).
int parity_parts(FILE *to, int steps);

/// The chains' scene (tests/web/parity.mjs: chainsTrace).
int parity_chains(FILE *to, int steps);

/// Makes a world from the Tiled map in `file` (ledge_tiled_create_world,
/// y down or not) and writes its objects, bodies and the hash after 120
/// steps to `to` (tests/web/parity.mjs's tiledTrace writes the same from
/// the JavaScript loader). Returns nonzero when the map is refused.
int parity_tiled(FILE *to, const char *file, bool y_down);

/// Makes a world from the LDtk project in `file` with the def the
/// binding's `options` (JSON) say and writes the result, path positions
/// and the hashes after the load and after `steps` steps to `to` as JSON
/// (tests/web/ldtk.test.mjs builds the same from World.fromLdtk).
int parity_ldtk(FILE *to, const char *file, const char *options, int steps);

#endif
