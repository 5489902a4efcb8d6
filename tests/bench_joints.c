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

#include <math.h>
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

// --- pendulums --------------------------------------------------------------

// The period of a pendulum of length L let go at angle a:
// 4 sqrt(L / g) K(k), k = sin(a / 2), K(k) = pi / (2 agm(1, sqrt(1 - k^2))).
static double closed_period(double L, double a) {
    double k = sin(a / 2), x = 1.0, y = sqrt(1.0 - k * k);
    for (int i = 0; i < 40 && fabs(x - y) > 1e-16 * x; ++i) {
        double m = (x + y) / 2;
        y = sqrt(x * y);
        x = m;
    }
    double K = 3.14159265358979323846 / (2 * x);
    return 4 * sqrt(L / JS_GRAVITY) * K;
}

// What a run has seen so far: the zero crossings of the first bob's
// offset from the pivot (linearly interpolated in the step), the worst
// length error, the energy at the start and now, the time in the steps.
typedef struct track {
    double e0, e, band, prev_x, first, last, ns;
    float worst;
    int cross, steps;
} track;

static void track_begin(track *t, const js_scene *s, const vec2s *pos, const vec2s *vel) {
    t->e0 = t->e = js_energy(s, pos, vel);
    t->band = 0.0;
    t->prev_x = (double)pos[0].x - s->joint[0].anchor_a.x;
    t->first = t->last = -1.0;
    t->ns = 0.0;
    t->worst = 0.0f;
    t->cross = t->steps = 0;
}

static void track_step(track *t, const js_scene *s, const vec2s *pos, const vec2s *vel, double ns) {
    t->steps++;
    t->ns += ns;
    double x = (double)pos[0].x - s->joint[0].anchor_a.x;
    if ((t->prev_x < 0 && x >= 0) || (t->prev_x > 0 && x <= 0)) {
        double at = (t->steps - 1 + t->prev_x / (t->prev_x - x)) * (double)DT;
        if (t->first < 0) t->first = at;
        t->last = at;
        t->cross++;
    }
    t->prev_x = x;
    float err = js_stretch(s, pos); // rods: |distance - length|
    if (err > t->worst) t->worst = err;
    t->e = js_energy(s, pos, vel);
    t->band = fmax(t->band, fabs(t->e / t->e0 - 1.0));
}

static void pend_row(const char *scene, const char *engine, const track *t, double closed) {
    double drift = 100.0 * (t->e / t->e0 - 1.0), band = 100.0 * t->band,
           ms = t->ns / 1e6 / t->steps;
    if (closed > 0 && t->cross >= 2) {
        double period = 2 * (t->last - t->first) / (t->cross - 1);
        printf("| %s | %s | %.4f | %.4f | %+.3f%% | %.2e | %+.3f%% | %.3f%% | %.4f |\n", scene,
               engine, period, closed, 100.0 * (period / closed - 1.0), (double)t->worst, drift,
               band, ms);
    } else {
        printf("| %s | %s | - | - | - | %.2e | %+.3f%% | %.3f%% | %.4f |\n", scene, engine,
               (double)t->worst, drift, band, ms);
    }
    fflush(stdout);
}

// Runs the scene `steps` steps in each engine, printing a row at each of
// the `marks` step counts (ascending, the last = steps).
static void run_pendulum(const js_scene *s, const char *name, const int *marks, int nmarks,
                         double closed) {
    static ledge_body_id bodies[JS_MAX_BODIES];
    static ledge_joint_id joints[JS_MAX_JOINTS];
    static vec2s pos[JS_MAX_BODIES], vel[JS_MAX_BODIES];
    char label[128];
    track t;
    ledge_world *w = js_ledge(s, bodies, joints);
    for (int i = 0; i < s->bodies; ++i) {
        pos[i] = ledge_body_position(w, bodies[i]);
        vel[i] = ledge_body_velocity(w, bodies[i]);
    }
    track_begin(&t, s, pos, vel);
    for (int m = 0, k = 0; m < nmarks; ++m) {
        for (; k < marks[m]; ++k) {
            double t0 = now_ns();
            ledge_world_step(w, DT);
            double ns = now_ns() - t0;
            for (int i = 0; i < s->bodies; ++i) {
                pos[i] = ledge_body_position(w, bodies[i]);
                vel[i] = ledge_body_velocity(w, bodies[i]);
            }
            track_step(&t, s, pos, vel, ns);
        }
        snprintf(label, sizeof label, "%s, %g s", name, (double)((float)marks[m] * DT));
        pend_row(label, "ledge", &t, closed);
    }
    ledge_world_destroy(w);
#ifdef LEDGE_HAVE_BOX2D_V3
    void *p = peer_v3_joints_create(s);
    peer_v3_joints_read(p, pos, vel);
    track_begin(&t, s, pos, vel);
    for (int m = 0, k = 0; m < nmarks; ++m) {
        for (; k < marks[m]; ++k) {
            double t0 = now_ns();
            peer_v3_joints_step(p, DT);
            double ns = now_ns() - t0;
            peer_v3_joints_read(p, pos, vel);
            track_step(&t, s, pos, vel, ns);
        }
        snprintf(label, sizeof label, "%s, %g s", name, (double)((float)marks[m] * DT));
        pend_row(label, "box2d-v3-locked", &t, closed);
    }
    peer_v3_joints_destroy(p);
#endif
}

static void pendulums(void) {
    printf("\nPendulums at dt 1/60, gravity -10, one thread, the same worlds. The period (s) "
           "from the zero crossings of x beside 4 sqrt(L/g) K(sin(a/2)), the worst |distance - "
           "L| over the steps (m), the energy at the end against the start and the most it strayed "
           "from the start "
           "over the steps, the mean ms a step.\n\n| scene | engine | period | closed form | error "
           "| length error | "
           "energy drift | energy band | ms/step |\n|---|---|---|---|---|---|---|---|---|\n");
    static js_scene s;
    char name[96];
    const float lengths[] = {1.0f, 2.0f, 5.0f};
    const int degrees[] = {30, 90};
    const int marks[] = {STEPS, 6 * STEPS};
    for (int li = 0; li < 3; ++li) {
        for (int ai = 0; ai < 2; ++ai) {
            double a = degrees[ai] * 3.14159265358979323846 / 180.0;
            js_pendulum(&s, lengths[li], (float)a);
            snprintf(name, sizeof name, "pendulum %g m, %d deg", (double)lengths[li], degrees[ai]);
            run_pendulum(&s, name, marks, 2, closed_period(lengths[li], a));
        }
    }
    js_double_pendulum(&s, 3.14159265f / 2);
    run_pendulum(&s, "double pendulum 2 x 1 m, 90 deg", marks, 1, 0.0);
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
    pendulums();
    return 0;
}
