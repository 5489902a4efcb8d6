// The step's workers (workers.h): the game's job system when it gave one,
// else a pool of worker_count - 1 threads started with the world; the
// thread that calls ledge_world_step is worker 0 and takes part.
//
// A task is published by bumping `epoch`; a thread joins it by marking
// its `claim` (below), takes ranges of items from its own lane and then
// from the others' until none are left, then marks the claim done. Between tasks a
// thread spins a short while (the step publishes a dozen tasks per
// substep, a sleep and wake-up costs more than most of them) and then
// sleeps on a condition variable.
// Nothing here allocates after the world is made.
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L // clock_gettime's per-thread clock (the profile)
#endif
#include "workers.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

// Polls of an atomic before a waiting thread sleeps: some microseconds.
#define SPINS 4000

// While a step runs (ledge__workers_awake), a waiting thread then yields
// its core up to this many times before it sleeps: the step's serial parts
// between two tasks last some 0.1 ms, and on a virtual machine a sleeping
// thread takes tens of microseconds to wake, a dozen times a substep. A
// yield returns at once on an idle core and lets other threads run on a
// busy one; the bound caps what a step that stalls costs.
#define AWAKE_YIELDS 1024

// Each thread takes about this many ranges of a task (more: better balance,
// fewer: less contention on a lane's counter).
#define RANGES_PER_THREAD 4

// Thread t's lane: its own share of a task's items, [next, end), the t-th
// of `count` equal shares. Each thread runs its own lane first and then
// takes ranges of the others', so that a block of bodies is mostly worked
// on by the same thread stage after stage and is found in that core's
// cache (one shared counter had each range go to whichever thread came
// first: rain of 10,000 with 2 workers took 1.12x as long). A lane fills a
// cache line of its own (only the thread that owns it and the ones that
// help it touch it).
typedef struct lane {
    atomic_int next; ///< First item of the share not yet taken.
    int end;
    char pad[64 - sizeof(atomic_int) - sizeof(int)];
} lane;

// A thread's part in task e (the e-th epoch) is its `claim`: 2e + 1 while
// it runs ranges of it, 2e once it is through or the caller closed the
// task to it. The caller, through with its own ranges, closes the task to
// every thread that has not joined (a compare-exchange from below 2e) and
// waits only for those that have: a thread that its core's other work
// keeps from running costs the step nothing, where waiting for every
// thread to check in would cost a scheduler's time slice per task. A
// thread reads the task's fields only once joined, and the caller writes
// the next task's only after every joined thread is through.
typedef struct worker_arg {
    struct ledge__workers *pool;
    int index;           ///< 1..count-1 (the caller is 0).
    long ranges;         ///< Ranges this thread ran (written by it alone; tests read it).
    atomic_ullong claim; ///< 2e + 1: running task e; 2e: through with it, or closed.
} worker_arg;

struct ledge__workers {
    int count; ///< worker_count.
    ledge_enqueue_task_fn *enqueue_task;
    ledge_finish_task_fn *finish_task;
    void *user_context;

    int threads_started;
    pthread_t *threads;
    worker_arg *args;
    pthread_mutex_t mutex;
    pthread_cond_t wake;           ///< A new epoch, or quit.
    pthread_cond_t done;           ///< A thread marked its claim through.
    atomic_ullong epoch;           ///< Bumped for every task.
    lane lanes[LEDGE_MAX_WORKERS]; ///< The current task's shares, one a thread.
    atomic_int sleepers;           ///< Threads about to sleep or asleep on `wake`.
    atomic_int caller_sleeping;
    atomic_bool quit;
    atomic_bool awake; ///< A step is running: wait by yielding, not sleeping.
    // The current task: written before epoch is bumped, read after.
    ledge_task_fn *task;
    void *context;
    int range;
};

bool ledge__workers_def_ok(const ledge_world_def *def, const char *fn) {
    if (def->worker_count < 1 || def->worker_count > LEDGE_MAX_WORKERS) {
        LEDGE_ERROR("%s: worker_count is %d (must be 1..%d)", fn, def->worker_count,
                    LEDGE_MAX_WORKERS);
        return false;
    }
    if ((def->enqueue_task == NULL) != (def->finish_task == NULL)) {
        LEDGE_ERROR("%s: enqueue_task and finish_task must be set together (one is NULL)", fn);
        return false;
    }
    return true;
}

// Runs ranges of lane l of the current task until none is left; returns
// how many.
static long run_lane(ledge__workers *p, int index, lane *l) {
    long ran = 0;
    for (;;) {
        int start = atomic_fetch_add_explicit(&l->next, p->range, memory_order_relaxed);
        if (start >= l->end) return ran;
        int end = l->end - start < p->range ? l->end : start + p->range;
        p->task(start, end, index, p->context);
        ran++;
    }
}

// Runs ranges of the current task, its own lane first, until none is left;
// returns how many.
static long run_ranges(ledge__workers *p, int index) {
    long ran = 0;
    for (int k = 0; k < p->count; ++k) ran += run_lane(p, index, &p->lanes[(index + k) % p->count]);
    return ran;
}

// Waits until the epoch differs from `seen` (or quit); returns it.
// A thread that came too late for any range of the last task (its core is
// shared with other work) sleeps instead of yielding: a woken thread is
// scheduled at once, a yielding one only in its turn.
static unsigned long long wait_epoch(ledge__workers *p, unsigned long long seen, bool may_yield) {
    for (int k = 0; k < SPINS + AWAKE_YIELDS; ++k) {
        unsigned long long e = atomic_load_explicit(&p->epoch, memory_order_acquire);
        if (e != seen || atomic_load_explicit(&p->quit, memory_order_acquire)) return e;
        if (k < SPINS) continue;
        if (!may_yield || !atomic_load_explicit(&p->awake, memory_order_relaxed)) break;
        sched_yield();
    }
    pthread_mutex_lock(&p->mutex);
    // Counted before the epoch is read again: the caller bumps the epoch
    // and then reads `sleepers`, so one of the two sees the other.
    atomic_fetch_add(&p->sleepers, 1);
    while (atomic_load(&p->epoch) == seen && !atomic_load(&p->quit)) {
        pthread_cond_wait(&p->wake, &p->mutex);
    }
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->mutex);
    return atomic_load_explicit(&p->epoch, memory_order_acquire);
}

// Joins task e unless the caller already closed it to this thread.
static bool join(worker_arg *a, unsigned long long e) {
    unsigned long long c = atomic_load(&a->claim);
    while (c < 2 * e) {
        if (atomic_compare_exchange_weak(&a->claim, &c, 2 * e + 1)) return true;
    }
    return false;
}

static void *worker_main(void *arg) {
    worker_arg *a = arg;
    ledge__workers *p = a->pool;
    unsigned long long seen = 0;
    long ran = 0;
    for (;;) {
        seen = wait_epoch(p, seen, ran > 0);
        if (atomic_load_explicit(&p->quit, memory_order_acquire)) return NULL;
        ran = 0;
        if (!join(a, seen)) continue;
        ran = run_ranges(p, a->index);
        a->ranges += ran;
        // Sequentially consistent with the caller's caller_sleeping and
        // its read of the claim: one of the two sees the other, so no
        // wake-up is lost.
        atomic_store(&a->claim, 2 * seen);
        if (atomic_load(&p->caller_sleeping)) {
            pthread_mutex_lock(&p->mutex);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mutex);
        }
    }
}

// The caller, through with its ranges of task e: closes it to the threads
// that have not joined and waits for those that have.
static void close_task(ledge__workers *p, unsigned long long e) {
    for (int k = 0; k < p->threads_started; ++k) {
        atomic_ullong *claim = &p->args[k].claim;
        unsigned long long c = atomic_load(claim);
        while (c < 2 * e && !atomic_compare_exchange_weak(claim, &c, 2 * e)) {
        }
        if (c != 2 * e + 1) continue; // closed now, or through already
        for (int s = 0; s < SPINS && atomic_load_explicit(claim, memory_order_acquire) != 2 * e;
             ++s) {
        }
        if (atomic_load(claim) == 2 * e) continue;
        pthread_mutex_lock(&p->mutex);
        atomic_store(&p->caller_sleeping, 1);
        while (atomic_load(claim) != 2 * e) pthread_cond_wait(&p->done, &p->mutex);
        atomic_store(&p->caller_sleeping, 0);
        pthread_mutex_unlock(&p->mutex);
    }
}

static void stop_threads(ledge__workers *p) {
    pthread_mutex_lock(&p->mutex);
    atomic_store(&p->quit, true);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mutex);
    for (int k = 0; k < p->threads_started; ++k) pthread_join(p->threads[k], NULL);
    p->threads_started = 0;
}

static bool start_threads(ledge__workers *p) {
    int n = p->count - 1;
    p->threads = ledge__alloc(sizeof *p->threads * (size_t)n);
    p->args = ledge__alloc(sizeof *p->args * (size_t)n);
    if (p->threads == NULL || p->args == NULL) {
        LEDGE_ERROR("ledge_world_create: allocation of %d worker threads failed", n);
        return false;
    }
    for (int k = 0; k < n; ++k) {
        p->args[k].pool = p;
        p->args[k].index = k + 1;
        p->args[k].ranges = 0; // the allocation is not zeroed (a test read garbage counts)
        atomic_init(&p->args[k].claim, 0ull);
        int err = pthread_create(&p->threads[k], NULL, worker_main, &p->args[k]);
        if (err != 0) {
            LEDGE_ERROR("ledge_world_create: starting worker thread %d of %d failed (error %d)",
                        k + 1, n, err);
            return false;
        }
        p->threads_started = k + 1;
    }
    return true;
}

ledge__workers *ledge__workers_create(const ledge_world_def *def, bool *ok) {
    *ok = true;
    if (def->worker_count <= 1) return NULL;
    ledge__workers *p = ledge__alloc(sizeof *p);
    if (p == NULL) {
        LEDGE_ERROR("ledge_world_create: allocation of the worker pool failed");
        *ok = false;
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->count = def->worker_count;
    atomic_init(&p->epoch, 0ull);
    for (int k = 0; k < LEDGE_MAX_WORKERS; ++k) atomic_init(&p->lanes[k].next, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->caller_sleeping, 0);
    atomic_init(&p->quit, false);
    atomic_init(&p->awake, false);
    if (def->enqueue_task != NULL) {
        p->enqueue_task = def->enqueue_task;
        p->finish_task = def->finish_task;
        p->user_context = def->user_task_context;
        return p;
    }
    pthread_mutex_init(&p->mutex, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    if (!start_threads(p)) {
        ledge__workers_destroy(p);
        *ok = false;
        return NULL;
    }
    return p;
}

void ledge__workers_destroy(ledge__workers *p) {
    if (p == NULL) return;
    if (p->enqueue_task == NULL) {
        stop_threads(p);
        pthread_cond_destroy(&p->done);
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mutex);
    }
    ledge__free(p->threads);
    ledge__free(p->args);
    ledge__free(p);
}

void ledge__workers_run(ledge__workers *p, ledge_task_fn *task, int items, int min_range,
                        void *context) {
    if (items <= 0) return;
    if (min_range < 1) min_range = 1;
    if (p == NULL || items <= min_range) {
        task(0, items, 0, context);
        return;
    }
    if (p->enqueue_task != NULL) {
        void *handle = p->enqueue_task(task, items, min_range, context, p->user_context);
        if (handle != NULL) p->finish_task(handle, p->user_context);
        return;
    }
    int share = (items + p->count * RANGES_PER_THREAD - 1) / (p->count * RANGES_PER_THREAD);
    p->task = task;
    p->context = context;
    p->range = share > min_range ? share : min_range;
    for (int k = 0; k < p->count; ++k) {
        atomic_store_explicit(&p->lanes[k].next, (int)((long long)items * k / p->count),
                              memory_order_relaxed);
        p->lanes[k].end = (int)((long long)items * (k + 1) / p->count);
    }
    // Publishes the task (sequentially consistent).
    unsigned long long e = atomic_fetch_add(&p->epoch, 1ull) + 1;
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->mutex);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mutex);
    }
    run_ranges(p, 0);
    close_task(p, e);
}

void ledge__workers_awake(ledge__workers *p, bool awake) {
    if (p == NULL || p->enqueue_task != NULL) return;
    atomic_store_explicit(&p->awake, awake, memory_order_relaxed);
}

long ledge__workers_ranges(const ledge__workers *p, int worker) {
    if (p == NULL || p->enqueue_task != NULL || worker < 1 || worker > p->threads_started) return 0;
    return p->args[worker - 1].ranges;
}

// The calling thread's CPU time where POSIX offers it: the profile then
// measures the work done, not the time other processes took the core.
// (The process's CPU time elsewhere, e.g. in a single-file build whose
// includes came before the feature macro above.)
double ledge__seconds(void) {
#if defined(CLOCK_THREAD_CPUTIME_ID)
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
#else
    return (double)clock() / CLOCKS_PER_SEC; // the process's CPU time
#endif
}

// POSIX's monotonic clock where there is one; else C11's calendar clock
// (which may jump when the system time is set); else, in C99 without POSIX
// (a single-file build whose includes came before the feature macro above),
// the process's CPU time.
double ledge__wall_seconds(void) {
#if defined(CLOCK_MONOTONIC)
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
#elif defined(TIME_UTC)
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}
