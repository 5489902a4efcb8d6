// Test helper: how many random cases a heavy test runs. Under valgrind
// (meson test --setup valgrind sets LEDGE_UNDER_VALGRIND) every case costs
// some 50 times more, so the heavy tests run a tenth of their cases there;
// memcheck looks for memory errors, which a tenth of the cases reach as
// well as all of them. Elsewhere the full count.
#ifndef LEDGE_TEST_SCALE_H
#define LEDGE_TEST_SCALE_H

#include <stdlib.h>

static inline int test_cases(int n) {
    const char *v = getenv("LEDGE_UNDER_VALGRIND");
    if (v == NULL || *v == 0) return n;
    return n / 10 > 1 ? n / 10 : 1;
}

/// The worker count a test's worlds use: LEDGE_TEST_WORKERS (meson runs
/// the allocation and soak tests again with 2), else 1.
static inline int test_workers(void) {
    const char *v = getenv("LEDGE_TEST_WORKERS");
    int n = v != NULL ? atoi(v) : 1;
    return n >= 1 ? n : 1;
}

#endif
