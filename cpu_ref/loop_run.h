/* Inside a watched loop (loop_watch.h), C only: the state its threads share. */
#ifndef MPGPU_LOOP_RUN_H
#define MPGPU_LOOP_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "loop_watch.h"

/* A loop reports every `every` items (a power of two), which adapts so that reports come about
 * every millisecond: one per item would cost a timed pass of small items (64-bit products) a clock
 * read each, while a fixed number of the largest (a schoolbook product of 16384 words) would
 * take seconds. */
struct loop_run {
    const struct loop_watch *watch; /* NULL: never stops */
    atomic_uint_fast64_t done;
    atomic_uint_fast64_t mask; /* every - 1 */
    atomic_int stop, reporting;
    uint64_t min_every;        /* every never falls below it (loop_run_start_blocks) */
    double last_report_ms;     /* the reporting thread's own */
};

void loop_run_start(struct loop_run *r, const struct loop_watch *watch);

/* For a timed loop whose items are too small to pay the check each (a GMP product of 64 bits:
 * one check an item made the pass 18 % slower): the items go in blocks of `block` (a power of
 * two), a block of consecutive indices at a time, and loop_run_stopped and loop_run_item_done
 * (with the block's last index) are called once a block. */
void loop_run_start_blocks(struct loop_run *r, const struct loop_watch *watch, uint64_t block);

/* Counts `every` items done and, unless another thread is reporting, calls the tick. */
void loop_run_report(struct loop_run *r);

/* Whether the loop was told to stop: each item starts with this check (one relaxed load), so
 * that every thread skips what is left. */
static inline bool loop_run_stopped(struct loop_run *r)
{
    return atomic_load_explicit(&r->stop, memory_order_relaxed) != 0;
}

/* After the loop's item i (its index). The threads' shares are runs of consecutive indices (as
 * OpenMP's static and (dynamic, k) schedules hand them out), so the items whose index ends in
 * every - 1 come about every `every` items of each thread. */
static inline void loop_run_item_done(struct loop_run *r, uint64_t i)
{
    const uint64_t mask = atomic_load_explicit(&r->mask, memory_order_relaxed);
    if (r->watch && (i & mask) == mask)
        loop_run_report(r);
}

#endif
