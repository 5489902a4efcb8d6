// The public headers compile as C++ (extern "C", no C-only constructs in
// declarations) and the library links and answers from a C++ program.
#include <ledge/ledge.h>
#include <ledge/tiled.h> // optional library; its header must compile as C++ too

#include <cstdio>

static vec2s v(float x, float y) {
    vec2s r;
    r.raw[0] = x;
    r.raw[1] = y;
    return r;
}

int main() {
    ledge_shape a = ledge_make_box(v(0, 0), v(1, 1));
    ledge_shape b = ledge_make_circle(v(0, 0), 0.5f);
    ledge_manifold m = ledge_collide(&a, v(0, 0), &b, v(0, 1.25f));
    bool ok = m.hit && m.normal.raw[1] > 0.999f && m.depth > 0.249f && m.depth < 0.251f;
    std::printf("C++: hit %d depth %g -> %s\n", m.hit, static_cast<double>(m.depth),
                ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
