// Argument checks shared by every public entry point: each returns whether
// the value is acceptable and, when it is not, logs one sentence naming the
// function, the argument and its value.
#include "check.h"

#include "ledge/collision.h"
#include "ledge/query.h"

bool ledge__vec_within(vec2s v, float limit) {
    return ledge__finite_within(v.x, limit) && ledge__finite_within(v.y, limit);
}

bool ledge__check_vec(const char *fn, const char *arg, vec2s v, float limit) {
    if (ledge__vec_within(v, limit)) return true;
    LEDGE_ERROR("%s: %s is (%g, %g) (must be finite, |x| <= %g)", fn, arg, (double)v.x, (double)v.y,
                (double)limit);
    return false;
}

bool ledge__check_size(const char *fn, const char *arg, float s) {
    if (s > 0.0f && ledge__finite_within(s, LEDGE_MAX_COORDINATE)) return true;
    LEDGE_ERROR("%s: %s is %g (must be > 0 and <= %g)", fn, arg, (double)s,
                (double)LEDGE_MAX_COORDINATE);
    return false;
}

bool ledge__check_half_extents(const char *fn, const char *arg, vec2s h) {
    if (h.x > 0.0f && h.y > 0.0f && ledge__vec_within(h, LEDGE_MAX_COORDINATE)) return true;
    LEDGE_ERROR("%s: %s is (%g, %g) (both must be > 0 and <= %g)", fn, arg, (double)h.x,
                (double)h.y, (double)LEDGE_MAX_COORDINATE);
    return false;
}

bool ledge__check_points(const char *fn, const vec2s *p, int count) {
    for (int i = 0; i < count; ++i) {
        if (!ledge__vec_within(p[i], LEDGE_MAX_COORDINATE)) {
            LEDGE_ERROR("%s: points[%d] is (%g, %g) (must be finite, |x| <= %g)", fn, i,
                        (double)p[i].x, (double)p[i].y, (double)LEDGE_MAX_COORDINATE);
            return false;
        }
    }
    return true;
}

bool ledge__check_query_one_way(const char *fn, int one_way) {
    if (one_way == LEDGE_QUERY_ONE_WAY_AS_BODIES || one_way == LEDGE_QUERY_ONE_WAY_ALWAYS ||
        one_way == LEDGE_QUERY_ONE_WAY_NEVER) {
        return true;
    }
    LEDGE_ERROR("%s: filter->one_way is %d (must be a ledge_query_one_way: "
                "LEDGE_QUERY_ONE_WAY_AS_BODIES, _ALWAYS or _NEVER)",
                fn, one_way);
    return false;
}
