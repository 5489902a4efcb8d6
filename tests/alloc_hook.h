// Test helper: an allocator hook (base.h) that counts live allocations and
// can fail chosen ones, so that tests can prove a call reports an
// allocation failure, leaks nothing, and that a phase allocates nothing.
#ifndef LEDGE_TEST_ALLOC_HOOK_H
#define LEDGE_TEST_ALLOC_HOOK_H

#include <ledge/base.h>

#include <stdlib.h>
#include <string.h>

typedef struct alloc_hook {
    long calls;     ///< Allocation requests so far (failed ones included).
    long live;      ///< Allocations handed out and not yet freed.
    long fail_at;   ///< 1-based request number to refuse; 0: none.
    bool fail_rest; ///< Refuse fail_at and every request after it too.
    long failures;  ///< Requests refused so far.
} alloc_hook;

static alloc_hook g_alloc;

static void *alloc_hook_alloc(size_t size, void *user) {
    (void)user;
    long n = ++g_alloc.calls;
    if (g_alloc.fail_at > 0 &&
        (n == g_alloc.fail_at || (g_alloc.fail_rest && n > g_alloc.fail_at))) {
        g_alloc.failures++;
        return NULL;
    }
    void *p = malloc(size); // glibc's malloc aligns to 16 on 64-bit targets
    if (p) g_alloc.live++;
    return p;
}

static void alloc_hook_free(void *ptr, void *user) {
    (void)user;
    if (ptr == NULL) return;
    g_alloc.live--;
    free(ptr);
}

/// Installs the counting hook with a fresh record (no ledge object may
/// exist: memory is freed by the allocator that made it).
static inline void alloc_hook_start(long fail_at, bool fail_rest) {
    memset(&g_alloc, 0, sizeof g_alloc);
    g_alloc.fail_at = fail_at;
    g_alloc.fail_rest = fail_rest;
    ledge_set_allocator(alloc_hook_alloc, alloc_hook_free, NULL);
}

/// Stops refusing allocations; keeps counting.
static inline void alloc_hook_heal(void) {
    g_alloc.fail_at = 0;
    g_alloc.fail_rest = false;
}

/// Restores malloc/free (every ledge object made through the hook must be
/// gone by then).
static inline void alloc_hook_stop(void) {
    ledge_set_allocator(NULL, NULL, NULL);
}

#endif
