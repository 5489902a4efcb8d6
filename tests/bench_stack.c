// Piles a user builds in the first hour (tests/piles.h) on a default world,
// beside Box2D v3 with rotation locked (ledge's model) on the same scene
// when the build has it (meson option box2d_v3): towers of 5, 10 and 20
// boxes, a pyramid of 20, a box of density 100 on one of density 1 and the
// other way up, a pyramid of 20 circles, a bin of 400 circles. Printed per
// scene and engine: the figures after the scene's steps (deepest overlap,
// deepest a body sank, the most one moved along the floor, the fastest
// body), and the mean ms per step, one thread. tests/test_stack.c asserts
// ledge's figures; this prints them beside the peer's.
//
// Run: meson test -C <release build> --benchmark stack -v
//  or: <build>/tests/bench_stack
#define _POSIX_C_SOURCE 199309L
#include "bench_timing.h"
#include "peers.h"
#include "piles.h"

#include <stdio.h>

typedef struct scene_case {
    const char *name;
    int kind; // 0 tower, 1 pyramid, 2 bin
    int size;
    shape_kind shape;
    float top, rest; // towers: densities
    int steps;
} scene_case;

static const scene_case cases[] = {
    {"tower of 5 boxes", 0, 5, SHAPE_BOX, 1, 1, STEPS},
    {"tower of 10 boxes", 0, 10, SHAPE_BOX, 1, 1, STEPS},
    {"tower of 20 boxes", 0, 20, SHAPE_BOX, 1, 1, STEPS},
    {"pyramid of 20 boxes (210)", 1, 20, SHAPE_BOX, 1, 1, STEPS},
    {"box of density 100 on 1", 0, 2, SHAPE_BOX, 100, 1, STEPS},
    {"box of density 1 on 100", 0, 2, SHAPE_BOX, 1, 100, STEPS},
    {"pyramid of 20 circles (210)", 1, 20, SHAPE_CIRCLE, 1, 1, STEPS},
    {"bin of 400 circles", 2, 400, SHAPE_CIRCLE, 1, 1, 2 * STEPS},
};

static void build(pile *p, const scene_case *c, ledge_friction_law law, bool sleep) {
    scene_opts o = DEFAULTS;
    o.law = law;
    o.sleep = sleep;
    if (c->kind == 0) build_tower(p, o, c->size, c->shape, c->top, c->rest);
    if (c->kind == 1) build_pyramid(p, o, c->size, c->shape);
    if (c->kind == 2) build_bin(p, o, c->size);
}

static void print_row(const char *scene, const char *engine, figures f, double ms) {
    printf("| %s | %s | %.4f | %.4f | %.4f | %.4f | %.4f |\n", scene, engine, f.overlap, f.sunk,
           f.drift, f.speed, ms);
    fflush(stdout);
}

static void run_ledge(const scene_case *c, ledge_friction_law law, bool sleep, const char *engine) {
    pile p;
    build(&p, c, law, sleep);
    double t0 = now_ns();
    pile_step(&p, c->steps);
    double ms = (now_ns() - t0) / 1e6 / c->steps;
    print_row(c->name, engine, pile_measure(&p), ms);
    ledge_world_destroy(p.w);
}

#ifdef LEDGE_HAVE_BOX2D_V3
static void run_box2d_v3(const scene_case *c, bool sleep, const char *engine) {
    pile p;
    build(&p, c, LEDGE_FRICTION_N, false); // the scene, read back by the peer
    void *w = peer_v3_pile_create(&p, true, 4, sleep);
    if (!w) {
        printf("| %s | %s | (refused) | | | | |\n", c->name, engine);
        ledge_world_destroy(p.w);
        return;
    }
    double t0 = now_ns();
    for (int k = 0; k < c->steps; ++k) peer_v3_pile_step(w, DT);
    double ms = (now_ns() - t0) / 1e6 / c->steps;
    static vec2s pos[MAX_BODY], vel[MAX_BODY];
    peer_v3_pile_read(w, pos, vel);
    print_row(c->name, engine, pile_measure_at(&p, pos, vel), ms);
    peer_v3_pile_destroy(w);
    ledge_world_destroy(p.w);
}
#endif

int main(void) {
    printf("Piles at dt 1/60 (the bin: 1,200 steps, the others 600), one thread. ledge: default "
           "world (N's friction law, sleeping off), Coulomb's law, and sleeping on");
#ifdef LEDGE_HAVE_BOX2D_V3
    printf("; Box2D v3 with rotation locked, 4 substeps, its defaults otherwise, sleeping off and "
           "on (each engine's awake rows, then its sleeping rows)");
#endif
    printf(".\nMetres and m/s after the last step: deepest overlap, deepest sink below the "
           "start, most moved along the floor, fastest body.\n\n");
    printf("| scene | engine | overlap | sunk | drift | speed | ms/step |\n"
           "|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        run_ledge(&cases[k], LEDGE_FRICTION_N, false, "ledge");
        run_ledge(&cases[k], LEDGE_FRICTION_COULOMB, false, "ledge (Coulomb)");
#ifdef LEDGE_HAVE_BOX2D_V3
        run_box2d_v3(&cases[k], false, "box2d-v3-locked");
#endif
        run_ledge(&cases[k], LEDGE_FRICTION_N, true, "ledge (sleep on)");
#ifdef LEDGE_HAVE_BOX2D_V3
        run_box2d_v3(&cases[k], true, "box2d-v3-locked (sleep on)");
#endif
    }
    return 0;
}
