// The step's workers: a pool of threads started with the world (or the
// game's own job system, through ledge_world_def.enqueue_task/finish_task)
// that runs a task over a range of items. The step decomposes its work into
// items fixed by the data (blocks of bodies, grid rows), never by the
// number of workers, so that any worker count gives the same bits.
#ifndef LEDGE_WORKERS_H
#define LEDGE_WORKERS_H

#include "core.h"
#include "ledge/world.h"

typedef struct ledge__workers ledge__workers;

/// Validates the def's worker fields; false (logged, naming `fn`) when
/// worker_count is out of 1..LEDGE_MAX_WORKERS or only one of the two task
/// callbacks is set.
bool ledge__workers_def_ok(const ledge_world_def *def, const char *fn);

/// The workers of a def: NULL for one worker (everything runs on the
/// calling thread); else the game's callbacks or worker_count - 1 threads
/// of the pool. *ok is false (logged) when a thread or an allocation fails.
ledge__workers *ledge__workers_create(const ledge_world_def *def, bool *ok);

/// Stops and joins the pool's threads and frees it. NULL is ignored.
void ledge__workers_destroy(ledge__workers *workers);

/// Runs `task` over the items [0, items) and returns when every range has
/// run. Ranges hold at least `min_range` items (except the last); with no
/// workers (NULL), or too few items to share, the calling thread runs
/// task(0, items, 0, context) itself. Worker indices are below the def's
/// worker_count.
void ledge__workers_run(ledge__workers *workers, ledge_task_fn *task, int items, int min_range,
                        void *context);

/// Tells the pool's threads that a step is running (true) or over (false):
/// while it runs they wait for the next task by yielding their core, not
/// by sleeping, so that the step's dozens of tasks do not each pay a
/// thread's wake-up. Only a hint: results never depend on it. NULL and the
/// game's job system ignore it.
void ledge__workers_awake(ledge__workers *workers, bool awake);

/// Ranges of tasks the pool's thread `worker` (1..count-1) has run: a test
/// checks that the threads do take part. 0 for anything else.
long ledge__workers_ranges(const ledge__workers *workers, int worker);

/// Seconds of the calling thread's CPU time (the process's where the
/// platform has no such clock); only differences matter (workers.c).
double ledge__seconds(void);

/// Seconds of a monotonic wall clock; only differences matter (workers.c).
double ledge__wall_seconds(void);

#endif // LEDGE_WORKERS_H
