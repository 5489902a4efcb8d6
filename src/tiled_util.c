// ledge_tiled's shared helpers: the one refusal message of a load, memory
// through ledge's allocator hook, and typed access to JSON fields that names
// the field, its owner and the offending value when the type or range is
// wrong. ledge_tiled is a separate library, so it reaches the hooks through
// the public ledge_log_message / ledge_alloc / ledge_free.
#include "tiled_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool ledge__tiled_fail(ledge__tiled_ctx *c, const char *fmt, ...) {
    if (c->failed) return false; // the first problem is the one to fix
    c->failed = true;
    char body[448], line[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(body, sizeof body, fmt, args);
    va_end(args);
    snprintf(line, sizeof line, "%s: %s", c->fn, body);
    ledge_log_message(LEDGE_LOG_ERROR, line);
    return false;
}

bool ledge__tiled_reserve(ledge__tiled_ctx *c, void **array, int *cap, int need, size_t elem) {
    if (need <= *cap) return true;
    int n = *cap > 0 ? *cap : 8;
    while (n < need) n *= 2;
    void *p = ledge_alloc((size_t)n * elem);
    if (p == NULL) return ledge__tiled_fail(c, "out of memory (%d elements)", n);
    if (*cap > 0) memcpy(p, *array, (size_t)*cap * elem);
    ledge_free(*array);
    *array = p;
    *cap = n;
    return true;
}

char *ledge__tiled_strdup(ledge__tiled_ctx *c, const char *s) {
    size_t n = strlen(s) + 1;
    char *p = ledge_alloc(n);
    if (p == NULL) {
        ledge__tiled_fail(c, "out of memory (a string of %zu bytes)", n);
        return NULL;
    }
    memcpy(p, s, n);
    return p;
}

const char *ledge__tiled_describe(const json_t *v, char buf[48]) {
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        snprintf(buf, 48, "the integer %lld", (long long)json_integer_value(v));
        return buf;
    case JSON_REAL:
        snprintf(buf, 48, "the number %g", json_real_value(v));
        return buf;
    case JSON_TRUE:
        return "true";
    case JSON_FALSE:
        return "false";
    default:
        return "null";
    }
}

/// Looks up obj[key]; refuses a missing required field. *out NULL = absent.
static bool field(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                  bool required, const json_t **out) {
    *out = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    if (*out == NULL && required) return ledge__tiled_fail(c, "%s has no \"%s\"", where, key);
    return true;
}

bool ledge__tiled_int(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool required, long long min, long long max, long long fallback,
                      long long *out) {
    const json_t *v;
    if (!field(c, obj, key, where, required, &v)) return false;
    *out = fallback;
    if (v == NULL) return true;
    char buf[48];
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
        return ledge__tiled_fail(c, "%s: \"%s\" is %s (must be an integer %lld..%lld)", where, key,
                                 ledge__tiled_describe(v, buf), min, max);
    }
    *out = (long long)json_integer_value(v);
    return true;
}

bool ledge__tiled_num(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool required, double min, double max, double fallback, double *out) {
    const json_t *v;
    if (!field(c, obj, key, where, required, &v)) return false;
    *out = fallback;
    if (v == NULL) return true;
    char buf[48];
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    if (!(x >= min && x <= max)) {
        return ledge__tiled_fail(c, "%s: \"%s\" is %s (must be a number %g..%g)", where, key,
                                 ledge__tiled_describe(v, buf), min, max);
    }
    *out = x;
    return true;
}

bool ledge__tiled_str(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool required, const char *fallback, const char **out) {
    const json_t *v;
    if (!field(c, obj, key, where, required, &v)) return false;
    *out = fallback;
    if (v == NULL) return true;
    char buf[48];
    if (!json_is_string(v)) {
        return ledge__tiled_fail(c, "%s: \"%s\" is %s (must be a string)", where, key,
                                 ledge__tiled_describe(v, buf));
    }
    *out = json_string_value(v);
    return true;
}

bool ledge__tiled_bool(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                       bool fallback, bool *out) {
    const json_t *v;
    if (!field(c, obj, key, where, false, &v)) return false;
    *out = fallback;
    if (v == NULL) return true;
    char buf[48];
    if (!json_is_boolean(v)) {
        return ledge__tiled_fail(c, "%s: \"%s\" is %s (must be true or false)", where, key,
                                 ledge__tiled_describe(v, buf));
    }
    *out = json_is_true(v);
    return true;
}

bool ledge__tiled_array(ledge__tiled_ctx *c, const json_t *obj, const char *key, const char *where,
                        bool required, const json_t **out) {
    if (!field(c, obj, key, where, required, out)) return false;
    char buf[48];
    if (*out != NULL && !json_is_array(*out)) {
        return ledge__tiled_fail(c, "%s: \"%s\" is %s (must be an array)", where, key,
                                 ledge__tiled_describe(*out, buf));
    }
    return true;
}

const json_t *ledge__tiled_find_prop(const json_t *props, const char *name) {
    size_t i;
    const json_t *p;
    json_array_foreach(props, i, p) {
        const json_t *n = json_object_get(p, "name");
        if (json_is_string(n) && strcmp(json_string_value(n), name) == 0) return p;
    }
    return NULL;
}

#define MAX_FILE_BYTES (256u << 20)

bool ledge__tiled_read_file(ledge__tiled_ctx *c, const char *path, char **text, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return ledge__tiled_fail(c, "cannot open \"%s\"", path);
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n < 0 || (unsigned long)n > MAX_FILE_BYTES || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return ledge__tiled_fail(c, "cannot read \"%s\" (unreadable or larger than %u bytes)", path,
                                 MAX_FILE_BYTES);
    }
    *text = ledge_alloc((size_t)n + 1);
    size_t got = *text ? fread(*text, 1, (size_t)n, f) : 0;
    fclose(f);
    if (*text == NULL || got != (size_t)n) {
        ledge_free(*text);
        *text = NULL;
        return ledge__tiled_fail(c, "cannot read \"%s\"", path);
    }
    (*text)[n] = '\0';
    *len = (size_t)n;
    return true;
}
