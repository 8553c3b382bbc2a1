/* The caller's progress function (mpgpu_progress_fn) of one long library call, shared by the
 * call's threads: it is called under a lock, at most a few thousand times a call, and its verdict
 * read by every thread before each piece of work, so that a call it cancels ends within one
 * piece. Header only, as the libraries that use it are linked apart (the tests link one alone). */
#ifndef MPGPU_CALL_PROGRESS_H
#define MPGPU_CALL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "mpgpu.h"

struct call_progress {
    mpgpu_progress_fn fn; /* NULL: none, and never cancelled */
    void *ctx;
    uint64_t done, total, next_call;
    bool cancelled;
};

static inline struct call_progress call_progress_start(mpgpu_progress_fn fn, void *ctx, uint64_t total)
{
    return (struct call_progress){fn, ctx, 0, total, 0, false};
}

/* Tells the caller that the work starts, its allocations made (done 0): a malloc of gigabytes can
 * take seconds (filled, under MALLOC_PERTURB_), which is no part of the work's rate. */
static inline void call_progress_begin(struct call_progress *p)
{
    if (p->fn && p->fn(p->ctx, 0, p->total))
        p->cancelled = true;
}

/* Counts `steps` more done. */
static inline void call_progress_step(struct call_progress *p, uint64_t steps)
{
#pragma omp critical(call_progress)
    {
        p->done += steps;
        if (p->fn && (p->done >= p->next_call || p->done == p->total)) {
            p->next_call = p->done + p->total / 4096 + 1;
            if (p->fn(p->ctx, p->done, p->total))
                p->cancelled = true;
        }
    }
}

static inline bool call_progress_cancelled(struct call_progress *p)
{
    bool c;
#pragma omp atomic read
    c = p->cancelled;
    return c;
}

#endif
