/* --devices all|LIST (issue 14): the GPUs a run uses, one host thread each, and the scheduler
 * that hands a range out to them in chunks. A faster GPU takes more chunks; the chunks' results
 * are merged in range order whatever order they finish in, so totals, lists and the checkpointed
 * finished prefix are those of a one-GPU run. */
#ifndef MPGPU_MULTI_DEVICE_H
#define MPGPU_MULTI_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "progress.h"

#define MD_MAX_DEVICES 64

/* The help line of --devices, the same in every subcommand that takes it. */
#define MD_DEVICES_HELP                                                                            \
    "GPUs to run on, one host thread each: 'all' or a comma list of device indices (default: "     \
    "--device, one GPU). An index may repeat: that GPU then runs one thread and stream per "      \
    "mention (so one GPU tests the split)"

struct md_devices {
    const char *arg; /* --devices as given; NULL: the one --device */
    bool all;
    int ids[MD_MAX_DEVICES];
    size_t n;
};

/* Reads --devices: 'all', or a comma list of at most MD_MAX_DEVICES indices in 0..1023 with no
 * empty item. Anything else exits 2 with one line. */
void md_parse(struct md_devices *d, const char *arg);

/* Resolves the list against this machine: without --devices the one `device` (--device); 'all'
 * becomes every GPU. Returns false with the reason in why when there is no GPU. An index past
 * the last GPU exits 2, naming it and the GPUs there are, before any work. */
bool md_resolve(struct md_devices *d, int device, char *why, size_t why_len);

/* "0,0,1": the devices, for the CSV row's params. */
void md_format(const struct md_devices *d, char *out, size_t len);

/* What one worker did in a pass: items (numbers, products) and the wall time it spent in its
 * chunks, for its rate. */
struct md_stats {
    uint64_t items;
    double busy_ms;
};

/* A pass over [from, from + n) in chunks that end on multiples of 2^chunk_bits (or at the end).
 * begin(ctx, w) runs once on worker w's thread first (it selects the worker's GPU). take() runs
 * under the scheduler's lock when a chunk is handed out, in range order (it may snapshot state
 * that the commits so far have built; NULL: nothing to snapshot). run() computes the chunk on
 * worker w into its slot, concurrently with other workers. commit() merges a finished chunk,
 * one at a time and strictly in range order; done_after counts the numbers finished through the
 * chunk. A slot is slot_size bytes, zeroed before take(); commit() must free what run() put
 * there. */
struct md_chunk_ops {
    size_t slot_size;
    void (*begin)(void *ctx, size_t worker);
    void (*take)(void *ctx, void *slot);
    void (*run)(void *ctx, size_t worker, uint64_t first, uint64_t last, void *slot);
    void (*commit)(void *ctx, uint64_t first, uint64_t last, uint64_t done_after, void *slot);
};

/* Runs the pass on `workers` threads (one: the caller's thread), with progress on pg. Stops
 * handing out chunks at Ctrl-C; the chunks in flight finish and are committed, so the return
 * value, the numbers committed, is an exact prefix. stats (workers entries) receive each
 * worker's share. */
uint64_t md_schedule(size_t workers, uint64_t from, uint64_t n, unsigned chunk_bits,
                     const struct md_chunk_ops *ops, void *ctx, struct progress *pg,
                     struct md_stats *stats);

#endif
