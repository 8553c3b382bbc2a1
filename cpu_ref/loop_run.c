#include "loop_run.h"

#include <stddef.h>
#include <time.h>

/* Reports closer than this double `every`, further than REPORT_MAX_MS halve it. */
#define REPORT_MIN_MS 1.0
#define REPORT_MAX_MS 20.0
#define EVERY_MAX (UINT64_C(1) << 16)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

void loop_run_start(struct loop_run *r, const struct loop_watch *watch)
{
    r->watch = watch && watch->tick ? watch : NULL;
    atomic_init(&r->done, 0);
    atomic_init(&r->mask, 0);
    atomic_init(&r->stop, 0);
    atomic_init(&r->reporting, 0);
    r->min_every = 1;
    r->last_report_ms = now_ms();
}

void loop_run_start_blocks(struct loop_run *r, const struct loop_watch *watch, uint64_t block)
{
    loop_run_start(r, watch);
    r->min_every = block;
    atomic_store_explicit(&r->mask, block - 1, memory_order_relaxed);
}

void loop_run_report(struct loop_run *r)
{
    const uint64_t every = atomic_load_explicit(&r->mask, memory_order_relaxed) + 1;
    const uint64_t done = atomic_fetch_add_explicit(&r->done, every, memory_order_relaxed) + every;
    /* The tick (the command line's progress) is not thread-safe: a thread that finds another
     * reporting goes on with its items. */
    if (atomic_exchange_explicit(&r->reporting, 1, memory_order_acquire))
        return;
    const double now = now_ms(), since = now - r->last_report_ms;
    r->last_report_ms = now;
    if (since < REPORT_MIN_MS && every < EVERY_MAX)
        atomic_store_explicit(&r->mask, 2 * every - 1, memory_order_relaxed);
    else if (since > REPORT_MAX_MS && every > r->min_every)
        atomic_store_explicit(&r->mask, every / 2 - 1, memory_order_relaxed);
    if (!r->watch->tick(r->watch->ctx, done))
        atomic_store_explicit(&r->stop, 1, memory_order_relaxed);
    atomic_store_explicit(&r->reporting, 0, memory_order_release);
}
