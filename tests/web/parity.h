// The scripted scene of the binding's parity test (parity.c).
#ifndef LEDGE_TESTS_PARITY_H
#define LEDGE_TESTS_PARITY_H

#include <stdio.h>

/// Runs the scripted scene for `steps` steps through the C API, writing
/// its trace to `to` (tests/web/parity.mjs writes the same through the
/// JavaScript binding).
int parity_main(FILE *to, int steps);

#endif
