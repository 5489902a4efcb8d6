// The LDtk loader's helpers: the one refusal message of a load, memory
// through ledge's allocator, files, and typed access to JSON fields.
#ifndef LEDGE_LDTK_JSON_H
#define LEDGE_LDTK_JSON_H

#include "ldtk_ctx.h"

/// Logs "<fn>: <message>" (first failure only) and marks the load failed.
/// Always returns false, so that `return ledge__ldtk_fail(...)` reads well.
bool ledge__ldtk_fail(ledge__ldtk_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Grows *array (elements of `elem` bytes, capacity *cap) to hold `need`.
bool ledge__ldtk_reserve(ledge__ldtk_ctx *c, void **array, int *cap, int need, size_t elem);

/// A copy of `s` through ledge's allocator; the empty string is not copied
/// (ledge__ldtk_empty). NULL (logged) on failure.
const char *ledge__ldtk_strdup(ledge__ldtk_ctx *c, const char *s);

/// Frees a string from ledge__ldtk_strdup (the shared empty string and NULL
/// are ignored).
void ledge__ldtk_free_string(const char *s);

/// The empty string every "" of a result points to.
extern const char ledge__ldtk_empty[1];

/// "a string", "the number 3.5", "an array", ... for messages.
const char *ledge__ldtk_describe(const json_t *v, char buf[48]);

/// Reads obj[key] as an integer in [min, max]. Absent or null: *out =
/// fallback when !required, refused otherwise. `where` names obj.
bool ledge__ldtk_int(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                     bool required, long long min, long long max, long long fallback,
                     long long *out);
/// Reads obj[key] as a finite number (int or real) in [min, max].
bool ledge__ldtk_num(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                     bool required, double min, double max, double fallback, double *out);
/// Reads obj[key] as a string (absent or null: `fallback` unless required).
bool ledge__ldtk_str(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                     bool required, const char *fallback, const char **out);
/// Reads obj[key] as a boolean (absent or null: `fallback`).
bool ledge__ldtk_bool(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool fallback, bool *out);
/// Reads obj[key] as an array (absent or null: NULL unless required).
bool ledge__ldtk_array(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                       bool required, const json_t **out);
/// Reads obj[key] as an object (absent or null: NULL unless required).
bool ledge__ldtk_object(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                        bool required, const json_t **out);
/// Reads obj[key] as an array of exactly two integers in [min, max].
bool ledge__ldtk_pair(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                      long long min, long long max, long long out[2]);

/// Parses `len` bytes of JSON text (duplicate keys refused) into an object;
/// `what` names the text in messages. NULL (logged) on failure.
json_t *ledge__ldtk_parse(ledge__ldtk_ctx *c, const char *text, size_t len, const char *what);

/// Reads the whole file at `path` into a new NUL-terminated buffer (limit
/// 256 MB). Refuses (logged, naming the path after `what`, "" or a prefix
/// such as "level 'A': ") what cannot be read.
bool ledge__ldtk_read_file(ledge__ldtk_ctx *c, const char *what, const char *path, char **text,
                           size_t *len);

/// Case-insensitive string equality (ASCII).
bool ledge__ldtk_same_name(const char *a, const char *b);

#endif // LEDGE_LDTK_JSON_H
