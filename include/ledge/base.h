/// @file base.h
/// Version, export macro, and the replaceable hooks (log, assert, allocator)
/// every other ledge header relies on.
///
/// ledge never prints, aborts or calls malloc on its own: it reports refused
/// input through the log hook, checks its own invariants through the assert
/// hook (debug builds only), and allocates through the allocator hook. All
/// three have working defaults (stderr, abort in debug builds, malloc/free)
/// and can be replaced once at start-up, before any world exists.
#ifndef LEDGE_BASE_H
#define LEDGE_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cglm/types-struct.h>

/// Marks a public function. Shared builds export only these symbols.
#if defined(_WIN32) && defined(LEDGE_SHARED_BUILD)
#define LEDGE_API __declspec(dllexport)
#elif defined(_WIN32) && defined(LEDGE_SHARED)
#define LEDGE_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define LEDGE_API __attribute__((visibility("default")))
#else
#define LEDGE_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Library version, major part. Changes break the API or ABI.
#define LEDGE_VERSION_MAJOR 0
/// Library version, minor part.
#define LEDGE_VERSION_MINOR 1
/// Library version, patch part.
#define LEDGE_VERSION_PATCH 0

/// The version the library was built as, e.g. "0.1.0".
LEDGE_API const char *ledge_version_string(void);

/// Severity of a message sent to the log hook.
typedef enum ledge_log_level {
    LEDGE_LOG_ERROR = 0, ///< A call was refused; the message names the argument and value.
    LEDGE_LOG_WARN = 1,  ///< Something suspicious that ledge worked around.
    LEDGE_LOG_INFO = 2,  ///< Informational.
} ledge_log_level;

/// Receives every message ledge emits. `message` is a complete sentence
/// without a trailing newline, starting with the name of the refusing
/// function, e.g. "ledge_make_circle: radius is -1 (must be > 0)".
typedef void ledge_log_fn(ledge_log_level level, const char *message, void *user);

/// Called when an internal invariant fails. Return true to break into the
/// debugger / abort, false to continue. Only debug builds call it; release
/// builds never abort.
typedef bool ledge_assert_fn(const char *condition, const char *file, int line);

/// Allocates `size` bytes aligned to at least 16 bytes, or returns NULL.
typedef void *ledge_alloc_fn(size_t size, void *user);
/// Frees memory returned by the matching ledge_alloc_fn. `ptr` may be NULL.
typedef void ledge_free_fn(void *ptr, void *user);

/// Replaces the log hook. NULL restores the default (stderr).
LEDGE_API void ledge_set_log_hook(ledge_log_fn *fn, void *user);

/// A log hook that drops every message. Install it where messages must not
/// reach stderr and the caller reads refusals through ledge_error_count()
/// and ledge_last_error() instead (a binding whose language cannot be
/// called back safely from inside a C call, e.g. LuaJIT's compiled code).
LEDGE_API void ledge_log_discard(ledge_log_level level, const char *message, void *user);

/// How many errors (LEDGE_LOG_ERROR messages) ledge has reported on the
/// calling thread, whatever the log hook. Compare the count before and after
/// a call to learn whether the call was refused, without a log callback.
LEDGE_API uint32_t ledge_error_count(void);

/// The last error message ledge reported on the calling thread ("" before
/// the first), whatever the log hook. Valid until the thread's next error.
LEDGE_API const char *ledge_last_error(void);

/// Replaces the assert hook. NULL restores the default (abort in debug).
LEDGE_API void ledge_set_assert_hook(ledge_assert_fn *fn);

/// Replaces the allocator. Both NULL restores malloc/free. Call before any
/// ledge object exists: memory is freed by the allocator that made it.
LEDGE_API void ledge_set_allocator(ledge_alloc_fn *alloc, ledge_free_fn *free_fn, void *user);

/// Sends one complete sentence to the log hook, as ledge's own modules do
/// (an error counts in ledge_error_count and becomes ledge_last_error).
/// For ledge's optional libraries (ledge_tiled, ledge_ldtk) and for games
/// that want their messages to go the same way; `message` NULL is ignored.
LEDGE_API void ledge_log_message(ledge_log_level level, const char *message);

/// Allocates through the allocator hook (NULL for size 0 or on failure).
/// For ledge's optional libraries, which must share the hook with the core.
LEDGE_API void *ledge_alloc(size_t size);

/// Frees memory from ledge_alloc through the allocator hook. NULL is ignored.
LEDGE_API void ledge_free(void *ptr);

#ifdef __cplusplus
}
#endif

#endif // LEDGE_BASE_H
