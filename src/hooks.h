// The hooks (hooks.c): the log hook refusals are reported through, the
// assert hook internal invariants are checked through, and the allocator
// hook every allocation goes through.
#ifndef LEDGE_HOOKS_H
#define LEDGE_HOOKS_H

#include "ledge/base.h"

#include <stdlib.h>

/// Formats a message and sends it to the log hook.
void ledge__log(ledge_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Calls the assert hook; returns its verdict.
bool ledge__assert_failed(const char *cond, const char *file, int line);

void *ledge__alloc(size_t size);
void ledge__free(void *ptr);

#define LEDGE_ERROR(...) ledge__log(LEDGE_LOG_ERROR, __VA_ARGS__)

// Internal invariants: checked in debug builds through the assert hook,
// compiled out in release builds (which must never abort).
#ifdef NDEBUG
#define LEDGE_ASSERT(c) ((void)0)
#else
#define LEDGE_ASSERT(c)                                                                            \
    do {                                                                                           \
        if (!(c) && ledge__assert_failed(#c, __FILE__, __LINE__)) abort();                         \
    } while (0)
#endif

#endif // LEDGE_HOOKS_H
