/* The long loops of the CPU side (generating a batch, converting it for GMP, the GMP baseline's
 * pass) over millions of items can take minutes. A loop_watch lets the caller see how far one
 * got and stop it early: the command line shows progress and stops at Ctrl-C through it. */
#ifndef MPGPU_LOOP_WATCH_H
#define MPGPU_LOOP_WATCH_H

#include <stdbool.h>
#include <stdint.h>

/* Returned by a watched function that its watch stopped. */
#define LOOP_STOPPED 1

struct loop_watch {
    /* Called now and then, from one thread at a time, with the items done so far; returns false
     * to stop the loop. */
    bool (*tick)(void *ctx, uint64_t done);
    void *ctx;
};

#endif
