// The replaceable log, assert and allocator hooks (base.h), and the version.
#include "hooks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void default_log(ledge_log_level level, const char *message, void *user) {
    (void)user;
    static const char *const names[] = {"error", "warning", "info"};
    fprintf(stderr, "ledge %s: %s\n", names[level <= LEDGE_LOG_INFO ? level : LEDGE_LOG_INFO],
            message);
}

static bool default_assert(const char *cond, const char *file, int line) {
    fprintf(stderr, "ledge assertion failed: %s (%s:%d)\n", cond, file, line);
    return true;
}

static void *default_alloc(size_t size, void *user) {
    (void)user;
    return malloc(size);
}

static void default_free(void *ptr, void *user) {
    (void)user;
    free(ptr);
}

void ledge_log_discard(ledge_log_level level, const char *message, void *user) {
    (void)level;
    (void)message;
    (void)user;
}

static ledge_log_fn *log_fn = default_log;
static void *log_user = NULL;
static ledge_assert_fn *assert_fn = default_assert;
static ledge_alloc_fn *alloc_fn = default_alloc;
static ledge_free_fn *free_fn = default_free;
static void *alloc_user = NULL;

// The calling thread's error count and last error, kept whatever the hook:
// per thread so that a refusal on one thread never shows as another's.
// C11's keyword, or the compilers' own where ledge is built as C99 (the
// single-header build).
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define THREAD_LOCAL _Thread_local
#elif defined(_MSC_VER)
#define THREAD_LOCAL __declspec(thread)
#else
#define THREAD_LOCAL __thread
#endif
static THREAD_LOCAL uint32_t error_count;
static THREAD_LOCAL char last_error[512];

uint32_t ledge_error_count(void) {
    return error_count;
}

const char *ledge_last_error(void) {
    return last_error;
}

const char *ledge_version_string(void) {
    return "0.1.0";
}

void ledge_set_log_hook(ledge_log_fn *fn, void *user) {
    log_fn = fn ? fn : default_log;
    log_user = fn ? user : NULL;
}

void ledge_set_assert_hook(ledge_assert_fn *fn) {
    assert_fn = fn ? fn : default_assert;
}

void ledge_set_allocator(ledge_alloc_fn *alloc, ledge_free_fn *free_hook, void *user) {
    if ((alloc == NULL) != (free_hook == NULL)) {
        ledge__log(LEDGE_LOG_ERROR, "ledge_set_allocator: alloc and free must both be set or "
                                    "both be NULL; allocator unchanged");
        return;
    }
    alloc_fn = alloc ? alloc : default_alloc;
    free_fn = free_hook ? free_hook : default_free;
    alloc_user = alloc ? user : NULL;
}

void ledge__log(ledge_log_level level, const char *fmt, ...) {
    char buf[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    if (level == LEDGE_LOG_ERROR) {
        memcpy(last_error, buf, sizeof last_error);
        error_count++;
    }
    log_fn(level, buf, log_user);
}

bool ledge__assert_failed(const char *cond, const char *file, int line) {
    return assert_fn(cond, file, line);
}

void *ledge__alloc(size_t size) {
    return size ? alloc_fn(size, alloc_user) : NULL;
}

void ledge__free(void *ptr) {
    if (ptr) free_fn(ptr, alloc_user);
}

void ledge_log_message(ledge_log_level level, const char *message) {
    // Through ledge__log, so that the optional libraries' errors count in
    // ledge_error_count and ledge_last_error like the core's.
    if (message) ledge__log(level, "%s", message);
}

void *ledge_alloc(size_t size) {
    return ledge__alloc(size);
}

void ledge_free(void *ptr) {
    ledge__free(ptr);
}
