// The snapshot codec's out-of-line parts (snapshot_codec.h): the checks of
// whole columns, the slow path of a varint, counts and the refusal of a
// value out of range.
#include "snapshot_codec.h"

#include <stdarg.h>
#include <stdio.h>

bool ledge__snap_portable = false;

bool ledge__column_within(const uint8_t *p, size_t n, float limit) {
    // On the bits without the sign: a NaN's or an infinity's are above
    // any finite limit's. Compared as signed words, which every SIMD set
    // has, and or'ed: a straight-line loop the compiler vectorises.
    int32_t most = (int32_t)(ledge__f32_bits(limit) & 0x7FFFFFFFu);
    int32_t out = 0;
    for (size_t k = 0; k < n; ++k)
        out |= (int32_t)(ledge__load_u32(p + 4 * k) & 0x7FFFFFFFu) > most;
    return out == 0;
}

size_t ledge__column_first_out(const uint8_t *p, size_t n, float limit) {
    size_t k = 0;
    while (k < n && fabsf(ledge__load_f32(p + 4 * k)) <= limit) ++k;
    return k;
}

bool ledge__read_fail(ledge__reader *r, const char *fmt, ...) {
    if (r->failed) return false;
    r->failed = true;
    va_list args;
    va_start(args, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, args);
    va_end(args);
    r->at = r->end;
    return false;
}

uint64_t ledge__get_var_slow(ledge__reader *r) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        unsigned b = ledge__get_u8(r);
        if (r->failed) return 0;
        if (shift == 63 && b > 1u) break;
        v |= (uint64_t)(b & 0x7Fu) << shift;
        if (b < 0x80u) return v;
    }
    ledge__read_fail(r, "a number is longer than 64 bits");
    return 0;
}

uint64_t ledge__get_count(ledge__reader *r, uint64_t max, const char *what) {
    uint64_t v = ledge__get_var(r);
    if (v > max) {
        ledge__read_fail(r, "%s is %llu (at most %llu)", what, (unsigned long long)v,
                         (unsigned long long)max);
        return 0;
    }
    return v;
}

float ledge__within_fail(ledge__reader *r, float f, float limit, const char *what) {
    ledge__read_fail(r, "%s is %g (finite, at most %g)", what, (double)f, (double)limit);
    return 0.0f;
}
