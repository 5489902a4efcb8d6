// Chains and bridges (tests/joint_scenes.h) on a default ledge world,
// beside Box2D v3 with rotation locked on the same scenes when the build
// has it (meson option box2d_v3): chains of 10, 20 and 50 links hanging
// straight down, with a crate 1, 100 and 1000 times a link's mass; rope
// bridges of 10 and 30 planks let go straight, with and without three
// 0.5 kg crates dropped on them. After 600 steps (10 s): the worst
// stretch of a joint (its distance less its length), the fastest body,
// and the mean ms a step, one thread. tests/test_joints.c asserts ledge's figures (at
// rest, stretch within the slop); this prints them beside the peer's.
//
// Run: meson test -C <release build> --benchmark joints -v
//  or: <build>/tests/bench_joints
#define _POSIX_C_SOURCE 199309L
#include "bench_timing.h"
#include "joint_scenes.h"
#include "peers.h"

#include <stdio.h>

#define STEPS 600
#define DT    (1.0f / 60.0f)

static void row(const char *scene, const char *engine, float stretch, float fastest, double ms) {
    printf("| %s | %s | %.2e | %.4f | %.4f |\n", scene, engine, (double)stretch, (double)fastest,
           ms);
    fflush(stdout);
}

static void run(const js_scene *s, const char *name) {
    static ledge_body_id bodies[JS_MAX_BODIES];
    static ledge_joint_id joints[JS_MAX_JOINTS];
    static vec2s pos[JS_MAX_BODIES], vel[JS_MAX_BODIES];
    ledge_world *w = js_ledge(s, bodies, joints);
    double t0 = now_ns();
    for (int k = 0; k < STEPS; ++k) ledge_world_step(w, DT);
    double ms = (now_ns() - t0) / 1e6 / STEPS;
    for (int i = 0; i < s->bodies; ++i) {
        pos[i] = ledge_body_position(w, bodies[i]);
        vel[i] = ledge_body_velocity(w, bodies[i]);
    }
    row(name, "ledge", js_stretch(s, pos), js_fastest(s, vel), ms);
    ledge_world_destroy(w);
#ifdef LEDGE_HAVE_BOX2D_V3
    void *p = peer_v3_joints_create(s);
    t0 = now_ns();
    for (int k = 0; k < STEPS; ++k) peer_v3_joints_step(p, DT);
    ms = (now_ns() - t0) / 1e6 / STEPS;
    peer_v3_joints_read(p, pos, vel);
    row(name, "box2d-v3-locked", js_stretch(s, pos), js_fastest(s, vel), ms);
    peer_v3_joints_destroy(p);
#endif
}

int main(void) {
    printf("Chains and bridges at dt 1/60, 600 steps (10 s), one thread. ledge: default world");
#ifdef LEDGE_HAVE_BOX2D_V3
    printf("; Box2D v3 with rotation locked, 4 substeps, its defaults otherwise");
#endif
    printf(".\nAfter the last step: the worst stretch of a joint (m), the fastest body (m/s); "
           "the mean ms a step.\n\n| scene | engine | stretch | fastest | ms/step |\n"
           "|---|---|---|---|---|\n");
    static js_scene s;
    char name[96];
    const int links[] = {10, 20, 50};
    const float loads[] = {0.05f, 5.0f, 50.0f};
    for (int li = 0; li < 3; ++li) {
        for (int ci = 0; ci < 3; ++ci) {
            js_chain(&s, links[li], loads[ci], true);
            snprintf(name, sizeof name, "chain of %d, crate 1:%g", links[li],
                     (double)(loads[ci] / 0.05f));
            run(&s, name);
        }
    }
    const int planks[] = {10, 30};
    for (int pi = 0; pi < 2; ++pi) {
        for (int c = 0; c <= 3; c += 3) {
            js_bridge(&s, planks[pi], c);
            snprintf(name, sizeof name, "bridge of %d%s", planks[pi], c ? ", 3 crates" : "");
            run(&s, name);
        }
    }
    return 0;
}
