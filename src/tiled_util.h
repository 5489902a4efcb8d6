// The Tiled loader's helpers: messages, allocation, files and typed JSON access.
#ifndef LEDGE_TILED_UTIL_H
#define LEDGE_TILED_UTIL_H

#include "tiled_ctx.h"

/// Logs "<fn>: <message>" (first failure only) and marks the load failed.
/// Always returns false, so that `return ledge__tiled_fail(...)` reads well.
bool ledge__tiled_fail(ledge__tiled_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Grows *array (elements of `elem` bytes, capacity *cap) to hold `need`.
bool ledge__tiled_reserve(ledge__tiled_ctx *c, void **array, int *cap, int need, size_t elem);

/// A copy of `s` through ledge's allocator (NULL logged on failure).
char *ledge__tiled_strdup(ledge__tiled_ctx *c, const char *s);

/// "a string", "the number 3.5", "an array", ... for messages.
const char *ledge__tiled_describe(const json_t *v, char buf[48]);

/// Reads obj[key] as an integer in [min, max]. Absent: *out = fallback
/// when !required, refused otherwise. `where` names obj in messages.
bool ledge__tiled_int(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool required, long long min, long long max, long long fallback,
                      long long *out);
/// Reads obj[key] as a finite number (int or real) in [min, max].
bool ledge__tiled_num(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool required, double min, double max, double fallback, double *out);
/// Reads obj[key] as a string (absent: `fallback` unless required).
bool ledge__tiled_str(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool required, const char *fallback, const char **out);
/// Reads obj[key] as a boolean (absent: `fallback`).
bool ledge__tiled_bool(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                       bool fallback, bool *out);
/// Reads obj[key] as an array (absent: NULL unless required).
bool ledge__tiled_array(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                        bool required, const json_t **out);

/// The property object named `name` in a Tiled "properties" array, or NULL.
const json_t *ledge__tiled_find_prop(const json_t *props, const char *name);

/// Reads the whole file at `path` into a new NUL-terminated buffer (limit
/// 256 MB). Refuses (logged, naming the path) what cannot be read.
bool ledge__tiled_read_file(ledge__tiled_ctx *c, const char *path, char **text, size_t *len);

#endif // LEDGE_TILED_UTIL_H
