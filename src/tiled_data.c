// A tile layer's "data" to gids: a JSON array (Tiled's "CSV" in JSON maps),
// or a base64 string of little-endian 32-bit gids, optionally zlib or gzip
// compressed. The output size is known (width * height gids), so inflating
// writes into a buffer of exactly that size and a stream that holds more
// or less is refused: compressed data cannot make the loader allocate more
// than the map's declared size.
#include "tiled_data.h"
#include "tiled_util.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

/// The 6-bit value of base64 character ch, or -1.
static int b64_value(unsigned char ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

/// Decodes padded base64 `s` (`n` characters) into a new buffer (*out,
/// *out_len bytes). Refuses bad characters, bad padding and lengths that
/// are not a multiple of 4, naming the offset.
static bool b64_decode(ledge__tiled_ctx *c, const char *where, const char *s, size_t n,
                       unsigned char **out, size_t *out_len) {
    if (n % 4 != 0) {
        return ledge__tiled_fail(c,
                                 "%s: base64 data has %zu characters (must be a multiple of "
                                 "4: truncated?)",
                                 where, n);
    }
    size_t pad = n >= 1 && s[n - 1] == '=' ? (n >= 2 && s[n - 2] == '=' ? 2 : 1) : 0;
    size_t len = n / 4 * 3 - pad;
    unsigned char *buf = ledge_alloc(len ? len : 1);
    if (buf == NULL) return ledge__tiled_fail(c, "%s: out of memory (%zu bytes)", where, len);
    size_t k = 0;
    for (size_t i = 0; i < n; i += 4) {
        uint32_t acc = 0;
        for (size_t j = 0; j < 4; ++j) {
            int v = i + j >= n - pad ? 0 : b64_value((unsigned char)s[i + j]);
            if (v < 0) {
                ledge_free(buf);
                return ledge__tiled_fail(c, "%s: base64 data has a bad character at offset %zu",
                                         where, i + j);
            }
            acc = acc << 6 | (uint32_t)v;
        }
        for (int j = 0; j < 3 && k < len; ++j) buf[k++] = (unsigned char)(acc >> (16 - 8 * j));
    }
    *out = buf;
    *out_len = len;
    return true;
}

static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
    (void)opaque;
    return (size_t)items * size > 0 ? ledge_alloc((size_t)items * size) : NULL;
}

static void z_free(voidpf opaque, voidpf ptr) {
    (void)opaque;
    ledge_free(ptr);
}

/// Inflates `in` (zlib or gzip framing) into exactly `out_len` bytes.
static bool inflate_exact(ledge__tiled_ctx *c, const char *where, const char *kind,
                          const unsigned char *in, size_t in_len, unsigned char *out,
                          size_t out_len) {
    if (in_len > UINT_MAX) return ledge__tiled_fail(c, "%s: %s data is too long", where, kind);
    z_stream s;
    memset(&s, 0, sizeof s);
    s.zalloc = z_alloc;
    s.zfree = z_free;
    if (inflateInit2(&s, strcmp(kind, "gzip") == 0 ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK) {
        return ledge__tiled_fail(c, "%s: out of memory (zlib)", where);
    }
    s.next_in = (Bytef *)(uintptr_t)in;
    s.avail_in = (uInt)in_len;
    s.next_out = out;
    s.avail_out = (uInt)out_len;
    int ret = inflate(&s, Z_FINISH);
    size_t got = out_len - s.avail_out, left = s.avail_in;
    const char *msg = s.msg ? s.msg : "unknown error";
    char why[96] = "";
    if (ret == Z_DATA_ERROR) strncat(why, msg, sizeof why - 1);
    inflateEnd(&s);
    if (ret == Z_STREAM_END && got == out_len && left == 0) return true;
    if (ret == Z_STREAM_END && got < out_len) {
        return ledge__tiled_fail(c,
                                 "%s: %s data holds %zu bytes of tiles (must be %zu: 4 per "
                                 "cell)",
                                 where, kind, got, out_len);
    }
    if (ret == Z_STREAM_END) {
        return ledge__tiled_fail(c, "%s: %s data has %zu bytes after the end of its stream", where,
                                 kind, left);
    }
    if (ret == Z_DATA_ERROR) {
        return ledge__tiled_fail(c, "%s: %s data is corrupt (%s) after %zu bytes of tiles", where,
                                 kind, why, got);
    }
    if (ret == Z_MEM_ERROR) return ledge__tiled_fail(c, "%s: out of memory (zlib)", where);
    if (got == out_len && left > 0) {
        return ledge__tiled_fail(c, "%s: %s data holds more than %zu bytes of tiles (4 per cell)",
                                 where, kind, out_len);
    }
    return ledge__tiled_fail(c, "%s: %s data is truncated after %zu bytes of tiles", where, kind,
                             got);
}

/// Little-endian bytes to gids, in place (each gid reads its own 4 bytes).
static void bytes_to_gids(uint32_t *gids, size_t cells) {
    const unsigned char *b = (const unsigned char *)gids;
    for (size_t i = 0; i < cells; ++i) {
        const unsigned char *p = b + 4 * i;
        gids[i] =
            (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

static bool decode_array(ledge__tiled_ctx *c, const json_t *data, const char *where, size_t cells) {
    if (json_array_size(data) != cells) {
        return ledge__tiled_fail(c,
                                 "%s: \"data\" has %zu tiles (must be width x height = %d x %d "
                                 "= %zu)",
                                 where, json_array_size(data), c->width, c->height, cells);
    }
    for (size_t i = 0; i < cells; ++i) {
        const json_t *v = json_array_get(data, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > (json_int_t)UINT32_MAX) {
            char buf[48];
            return ledge__tiled_fail(c,
                                     "%s: tile %zu (column %zu, row %zu) is %s (must be a gid "
                                     "0..4294967295)",
                                     where, i, i % (size_t)c->width, i / (size_t)c->width,
                                     ledge__tiled_describe(v, buf));
        }
        c->gids[i] = (uint32_t)json_integer_value(v);
    }
    return true;
}

static bool decode_base64(ledge__tiled_ctx *c, const json_t *data, const char *where,
                          const char *compression, size_t cells) {
    const bool raw = compression[0] == '\0';
    if (!raw && strcmp(compression, "zlib") != 0 && strcmp(compression, "gzip") != 0) {
        return ledge__tiled_fail(c,
                                 "%s: compression \"%s\" is not supported (use zlib, gzip or "
                                 "none)",
                                 where, compression);
    }
    unsigned char *bytes = NULL;
    size_t n = 0;
    if (!b64_decode(c, where, json_string_value(data), json_string_length(data), &bytes, &n)) {
        return false;
    }
    bool ok = true;
    if (raw && n != cells * 4) {
        ok = ledge__tiled_fail(c,
                               "%s: base64 data holds %zu bytes (must be 4 x width x height = "
                               "%zu)",
                               where, n, cells * 4);
    } else if (raw) {
        memcpy(c->gids, bytes, n);
    } else {
        ok = inflate_exact(c, where, compression, bytes, n, (unsigned char *)c->gids, cells * 4);
    }
    ledge_free(bytes);
    if (ok) bytes_to_gids(c->gids, cells);
    return ok;
}

bool ledge__tiled_decode(ledge__tiled_ctx *c, const json_t *layer, const char *where) {
    const size_t cells = (size_t)c->width * (size_t)c->height;
    const char *encoding, *compression;
    if (!ledge__tiled_str(c, layer, "encoding", where, false, "csv", &encoding) ||
        !ledge__tiled_str(c, layer, "compression", where, false, "", &compression)) {
        return false;
    }
    const json_t *data = json_object_get(layer, "data");
    if (data == NULL && json_object_get(layer, "chunks") != NULL) {
        return ledge__tiled_fail(c,
                                 "%s has \"chunks\" (infinite maps are not supported: untick "
                                 "Map Properties > Infinite)",
                                 where);
    }
    if (data == NULL) return ledge__tiled_fail(c, "%s has no \"data\"", where);
    if (json_is_array(data) && strcmp(encoding, "csv") == 0) {
        return decode_array(c, data, where, cells);
    }
    if (json_is_string(data) && strcmp(encoding, "base64") == 0) {
        return decode_base64(c, data, where, compression, cells);
    }
    char buf[48];
    return ledge__tiled_fail(c,
                             "%s: \"data\" is %s with encoding \"%s\" (must be an array with "
                             "csv or a string with base64)",
                             where, ledge__tiled_describe(data, buf), encoding);
}
