// ledge_ldtk's shared helpers: the one refusal message of a load, memory
// through ledge's allocator hook, files, and typed access to JSON fields
// that names the field, its owner and the offending value when the type or
// range is wrong. LDtk writes null for many absent values: an optional
// field that is null reads as its fallback. ledge_ldtk is a separate
// library, so it reaches the hooks through the public ledge_log_message /
// ledge_alloc / ledge_free.
#include "ldtk_json.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char ledge__ldtk_empty[1] = "";

bool ledge__ldtk_fail(ledge__ldtk_ctx *c, const char *fmt, ...) {
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

bool ledge__ldtk_reserve(ledge__ldtk_ctx *c, void **array, int *cap, int need, size_t elem) {
    if (need <= *cap) return true;
    int n = *cap > 0 ? *cap : 8;
    while (n < need) n *= 2;
    void *p = ledge_alloc((size_t)n * elem);
    if (p == NULL) return ledge__ldtk_fail(c, "out of memory (%d elements)", n);
    if (*cap > 0) memcpy(p, *array, (size_t)*cap * elem);
    ledge_free(*array);
    *array = p;
    *cap = n;
    return true;
}

const char *ledge__ldtk_strdup(ledge__ldtk_ctx *c, const char *s) {
    if (s == NULL || s[0] == '\0') return ledge__ldtk_empty;
    size_t n = strlen(s) + 1;
    char *p = ledge_alloc(n);
    if (p == NULL) {
        ledge__ldtk_fail(c, "out of memory (a string of %zu bytes)", n);
        return NULL;
    }
    memcpy(p, s, n);
    return p;
}

void ledge__ldtk_free_string(const char *s) {
    if (s != NULL && s != ledge__ldtk_empty) ledge_free((void *)s);
}

const char *ledge__ldtk_describe(const json_t *v, char buf[48]) {
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

/// Looks up obj[key]; refuses a missing required field. *out NULL = absent
/// (or null when not required).
static bool field(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                  bool required, const json_t **out) {
    *out = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    if (*out == NULL && required) return ledge__ldtk_fail(c, "%s has no \"%s\"", where, key);
    if (*out != NULL && json_is_null(*out) && !required) *out = NULL;
    return true;
}

bool ledge__ldtk_int(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                     bool required, long long min, long long max, long long fallback,
                     long long *out) {
    const json_t *v;
    if (!field(c, obj, key, where, required, &v)) return false;
    *out = fallback;
    if (v == NULL) return true;
    char buf[48];
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
        return ledge__ldtk_fail(c, "%s: \"%s\" is %s (must be an integer %lld..%lld)", where, key,
                                ledge__ldtk_describe(v, buf), min, max);
    }
    *out = (long long)json_integer_value(v);
    return true;
}

bool ledge__ldtk_num(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                     bool required, double min, double max, double fallback, double *out) {
    const json_t *v;
    if (!field(c, obj, key, where, required, &v)) return false;
    *out = fallback;
    if (v == NULL) return true;
    char buf[48];
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    if (!(x >= min && x <= max)) {
        return ledge__ldtk_fail(c, "%s: \"%s\" is %s (must be a number %g..%g)", where, key,
                                ledge__ldtk_describe(v, buf), min, max);
    }
    *out = x;
    return true;
}

bool ledge__ldtk_str(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                     bool required, const char *fallback, const char **out) {
    const json_t *v;
    if (!field(c, obj, key, where, required, &v)) return false;
    *out = fallback;
    if (v == NULL) return true;
    char buf[48];
    if (!json_is_string(v)) {
        return ledge__ldtk_fail(c, "%s: \"%s\" is %s (must be a string)", where, key,
                                ledge__ldtk_describe(v, buf));
    }
    *out = json_string_value(v);
    return true;
}

bool ledge__ldtk_bool(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                      bool fallback, bool *out) {
    const json_t *v;
    if (!field(c, obj, key, where, false, &v)) return false;
    *out = fallback;
    if (v == NULL) return true;
    char buf[48];
    if (!json_is_boolean(v)) {
        return ledge__ldtk_fail(c, "%s: \"%s\" is %s (must be true or false)", where, key,
                                ledge__ldtk_describe(v, buf));
    }
    *out = json_is_true(v);
    return true;
}

bool ledge__ldtk_array(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                       bool required, const json_t **out) {
    if (!field(c, obj, key, where, required, out)) return false;
    char buf[48];
    if (*out != NULL && !json_is_array(*out)) {
        return ledge__ldtk_fail(c, "%s: \"%s\" is %s (must be an array)", where, key,
                                ledge__ldtk_describe(*out, buf));
    }
    return true;
}

bool ledge__ldtk_object(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                        bool required, const json_t **out) {
    if (!field(c, obj, key, where, required, out)) return false;
    char buf[48];
    if (*out != NULL && !json_is_object(*out)) {
        return ledge__ldtk_fail(c, "%s: \"%s\" is %s (must be an object)", where, key,
                                ledge__ldtk_describe(*out, buf));
    }
    return true;
}

bool ledge__ldtk_pair(ledge__ldtk_ctx *c, const json_t *obj, const char *key, const char *where,
                      long long min, long long max, long long out[2]) {
    const json_t *v;
    if (!ledge__ldtk_array(c, obj, key, where, true, &v)) return false;
    const json_t *a = json_array_get(v, 0), *b = json_array_get(v, 1);
    if (json_array_size(v) != 2 || !json_is_integer(a) || !json_is_integer(b) ||
        json_integer_value(a) < min || json_integer_value(a) > max || json_integer_value(b) < min ||
        json_integer_value(b) > max) {
        return ledge__ldtk_fail(c, "%s: \"%s\" must be [x, y], two integers %lld..%lld", where, key,
                                min, max);
    }
    out[0] = (long long)json_integer_value(a);
    out[1] = (long long)json_integer_value(b);
    return true;
}

json_t *ledge__ldtk_parse(ledge__ldtk_ctx *c, const char *text, size_t len, const char *what) {
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (root == NULL) {
        ledge__ldtk_fail(c, "%s is not valid JSON at line %d, column %d: %s", what, err.line,
                         err.column, err.text);
    } else if (!json_is_object(root)) {
        ledge__ldtk_fail(c, "%s is not a JSON object", what);
        json_decref(root);
        root = NULL;
    }
    return root;
}

#define MAX_FILE_BYTES (256u << 20)

bool ledge__ldtk_read_file(ledge__ldtk_ctx *c, const char *what, const char *path, char **text,
                           size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return ledge__ldtk_fail(c, "%scannot open \"%s\"", what, path);
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n < 0 || (unsigned long)n > MAX_FILE_BYTES || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return ledge__ldtk_fail(c, "%scannot read \"%s\" (unreadable or larger than %u bytes)",
                                what, path, MAX_FILE_BYTES);
    }
    *text = ledge_alloc((size_t)n + 1);
    size_t got = *text ? fread(*text, 1, (size_t)n, f) : 0;
    fclose(f);
    if (*text == NULL || got != (size_t)n) {
        ledge_free(*text);
        *text = NULL;
        return ledge__ldtk_fail(c, "%scannot read \"%s\"", what, path);
    }
    (*text)[n] = '\0';
    *len = (size_t)n;
    return true;
}

bool ledge__ldtk_same_name(const char *a, const char *b) {
    while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b)) ++a, ++b;
    return *a == '\0' && *b == '\0';
}
