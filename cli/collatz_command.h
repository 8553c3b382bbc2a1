/* The one command skeleton of `mpgpu collatz` and `mpgpu delay` (collatz_command.c): the options
 * both take, the order of parsing, setup, checkpoint and range, the devices and their tables,
 * the passes of the run loop and what a pass keeps. What differs between the two is a table of
 * callbacks (struct collatz_kind): the options and help of their own, the tables, the kernel call
 * of a chunk (its md_chunk_ops), the record bookkeeping and the CSV row's extras. */
#ifndef MPGPU_COLLATZ_COMMAND_H
#define MPGPU_COLLATZ_COMMAND_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "collatz_cli.h"
#include "mpgpu.h"

/* The totals of either command's pass. */
union collatz_totals {
    mpgpu_collatz_conv_totals conv;
    mpgpu_collatz_delay_totals delay;
};

/* What a pass keeps: its totals, its overflowed values (sorted once it ends), delay's records
 * and running maximum, and the time their settlement took. */
struct collatz_pass {
    union collatz_totals t;
    mpgpu_collatz_list overflows;
    mpgpu_collatz_pairs records;
    int64_t floor;
    double overflow_ms;
};

/* A command's state begins with this (and this with its collatz_bench, so that the run loop's
 * shared callbacks take it as their ctx). */
struct collatz_command {
    struct collatz_bench cb;
    const struct collatz_kind *kind;
    /* The options both commands take. */
    struct collatz_range_args range;
    unsigned bc_bits;
    bool bc_bits_set;
    mpgpu_collatz_table_memory memory;
    unsigned interleave;
    const char *checkpoint;
    struct md_devices devices;
    char params[128];                 /* the parameters a checkpoint must share */
    mpgpu_collatz_bc_table bc;        /* B and C (and J for the delay), on the host */
    int64_t floor;                    /* delay's record floor below the range's unfinished part */
    /* The case in hand. */
    union collatz_totals base;        /* what the resumed checkpoint finished */
    struct collatz_pass ref, cur;     /* pass 1, and the pass running now */
};

struct collatz_kind {
    const char *command;              /* "collatz" or "delay" */
    struct cli_spec spec;             /* its handle and ctx are the skeleton's */
    uint64_t default_count_gpu, default_count_cpu;
    unsigned default_bc_bits_gpu;     /* --bc-bits when not given ... */
    unsigned default_bc_bits_cpu;     /* ... and for the CPU twin alone */
    size_t list_cap, cand_cap;        /* a launch's overflows and record candidates */
    bool with_j;                      /* the tables include J */
    const struct collatz_twin *twin;
    const struct md_chunk_ops *chunk_ops;
    /* An option of the command's own (id >= OPT_COLLATZ_FIRST_OWN). */
    void (*option)(struct collatz_command *r, int id, const char *arg);
    /* After parsing: returns an exit status to end there (collatz --tables), or -1 to go on. */
    int (*parsed)(struct collatz_command *r, int argc, char **argv);
    /* After --method: the CPU twin's defaults, the checks of the options together, r->params,
     * and cb.check_budget. */
    void (*configure)(struct collatz_command *r, bool gpu);
    /* After the range and the checkpoint are settled (delay: its record floor); may be NULL. */
    void (*resolved)(struct collatz_command *r);
    /* Builds the tables on the host and uploads them (collatz_command_upload). */
    void (*build_tables)(struct collatz_command *r, bool gpu);
    void (*free_tables)(struct collatz_command *r);
    /* The totals the resumed checkpoint holds, into r->base. */
    void (*load_base)(struct collatz_command *r);
    unsigned (*seg_bits)(const struct collatz_command *r);
    bool (*same_totals)(const union collatz_totals *x, const union collatz_totals *y);
    void (*describe)(struct collatz_command *r, bool gpu, char *params, size_t len);
    void (*summary)(struct collatz_command *r, const struct bench_case *c, FILE *out);
};

/* `mpgpu <kind->command>`: r zeroed but for the command's own options' defaults. */
int collatz_command_main(int argc, char **argv, const struct collatz_kind *kind, struct collatz_command *r);

/* Copies B and C (and J) and what upload() adds (S, or A) to every --devices entry's state;
 * a GPU named twice holds two copies. */
void collatz_command_upload(struct collatz_command *r, mpgpu_status (*upload)(struct collatz_command *r, mpgpu_collatz *dev));

/* The begin() of both commands' chunk ops: the worker's GPU on its thread. */
void collatz_command_chunk_begin(void *ctx, size_t worker);

/* Merges a chunk's overflowed values and their settlement time into the pass running now. */
void collatz_command_merge(struct collatz_command *r, const mpgpu_collatz_list *overflows, double overflow_ms);

/* "shared", "global", or "host" for the CPU twin, as the CSV row says it. */
const char *collatz_command_memory(const struct collatz_command *r, bool gpu);

#endif
