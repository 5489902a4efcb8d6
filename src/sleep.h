// Internal: sleeping bodies (sleep.c).
// A stage of the step: it includes the world's state and the stages below
// it only (docs/design.md, "How the modules layer").
#ifndef LEDGE_SLEEP_H
#define LEDGE_SLEEP_H

#include "par.h"
#include "world_state.h"

#include <stdatomic.h>

/// Sleep's state (w->sleep): the def's settings, what the sleepers have
/// seen, and the veto's scratch. (Who sleeps is the bodies' own: asleep,
/// sleep_timer and sleep_inv_mass in the store, and its count `sleepers`;
/// the held contacts are the world's, beside the live ones.)
typedef struct ledge__sleep {
    bool on;              ///< ledge_world_def.enable_sleep.
    float speed;          ///< ledge_world_def.sleep_speed.
    float time;           ///< ledge_world_def.sleep_time.
    uint32_t map_version; ///< The tilemap version the sleepers fell asleep at.
    bool woke;            ///< A sleeper woke since the held contacts were last sorted.
    bool stepped;         ///< A step has ended (before, no contact exists for an edit to change).
    /// Per slot (veto_cap): kept awake or pressed by a contact this step
    /// (atomic: two ranges of contacts may mark one body).
    atomic_uchar *veto;
    int veto_cap;
    int *fell_asleep; ///< Per block of slots: its bodies that fell asleep this step.
    int *range_count; ///< Per range of contacts: its pressed bodies, then its woken sleepers.
    int block_cap;    ///< Entries in fell_asleep and range_count.
} ledge__sleep;

/// A new world's (the def's settings).
void ledge__sleep_init(ledge__sleep *sleep, const ledge_world_def *def);

/// Frees the veto's scratch.
void ledge__sleep_destroy(ledge__sleep *sleep);

/// Room for `slots` slots before the step moves anything (the workers
/// never allocate); false (logged) when an allocation fails.
bool ledge__sleep_reserve(ledge_world *world, int slots);

/// Wakes body i if it sleeps, and restarts its rest timer.
static inline void ledge__wake(ledge_world *w, int i) {
    ledge__stir(w, i);
    w->sleep_timer[i] = 0.0f;
    if (!w->asleep[i]) return;
    w->asleep[i] = 0;
    w->inv_mass[i] = w->sleep_inv_mass[i];
    w->sleepers--;
    w->sleep->woke = true;
}

/// Before the first substep: wakes what a tilemap edit or a moving
/// kinematic body reaches, and moves the held contacts of bodies woken
/// since the last step back to the live ones (a contact that finds no
/// room is dropped: the step finds it again).
void ledge__sleep_begin(ledge_world *world, float dt);

/// After a substep's pair search: wakes the sleepers paired with an awake
/// body faster than the sleep speed; true when any woke (the pairs must
/// then be searched again).
bool ledge__sleep_wake_paired(ledge_world *world);

/// After the last substep: rest timers, bodies falling asleep, and their
/// contacts moved from the live list to the held one.
void ledge__sleep_end(ledge_world *world, float dt);

/// Wakes the sleeping bodies that touch slot's body (between steps).
void ledge__sleep_wake_touching(ledge_world *world, int slot);

/// Puts dynamic body i to sleep now (between steps; ledge_body_set_awake);
/// false (logged, the body stays awake) when the held list cannot grow.
bool ledge__sleep_body(ledge_world *world, int i);

#endif // LEDGE_SLEEP_H
