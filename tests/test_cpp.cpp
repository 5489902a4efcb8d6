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

    // LEDGE_NULL_BODY_ID is a value in C++ too: a world refuses it, and a
    // body it made is not it.
    ledge_world_def wd = ledge_default_world_def();
    ledge_world *world = ledge_world_create(&wd);
    ledge_body_def bd = ledge_default_body_def();
    bd.shape = b;
    ledge_body_id id = ledge_body_create(world, &bd);
    const ledge_body_id null_id = LEDGE_NULL_BODY_ID;
    bool ids_ok = world != nullptr && !ledge_body_is_valid(world, LEDGE_NULL_BODY_ID) &&
                  ledge_body_is_valid(world, id) && id.index1 != null_id.index1 &&
                  null_id.index1 == 0 && null_id.generation == 0 && null_id.world == 0;
    // Ids compare with LEDGE_ID_EQUALS (and ledge_body_id_equals) in C++ too.
    const ledge_body_id same = id;
    ids_ok = ids_ok && LEDGE_ID_EQUALS(id, same) && !LEDGE_ID_EQUALS(id, LEDGE_NULL_BODY_ID) &&
             LEDGE_ID_EQUALS(null_id, LEDGE_NULL_BODY_ID) && ledge_body_id_equals(id, same) &&
             !ledge_body_id_equals(id, null_id);
    // A one-way body's direction is the enum, assigned without a cast.
    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_STATIC;
    pd.shape = a;
    pd.position = v(0, -4);
    pd.one_way = LEDGE_ONE_WAY_UP;
    ids_ok = ids_ok && ledge_body_is_valid(world, ledge_body_create(world, &pd));
    ledge_world_destroy(world);
    std::printf("C++: LEDGE_NULL_BODY_ID, LEDGE_ID_EQUALS, one_way -> %s\n", ids_ok ? "ok" : "WRONG");
    ok = ok && ids_ok;
    return ok ? 0 : 1;
}
