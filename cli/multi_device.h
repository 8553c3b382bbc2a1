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

/* "0/0/1": the devices, for the CSV row's params (a comma would need quoting in the CSV). */
void md_format(const struct md_devices *d, char *out, size_t len);

/* The workers of a run: this process's (one per --devices entry, or one CPU worker) and, under
 * `mpirun -np N` (cli/mpi_ranks.h), every rank's, numbered rank by rank. Rank 0 keeps each
 * worker's rank and GPU (-1: the CPU twin) for the summary's per-worker rates. */
struct md_team {
    size_t local;  /* this process's workers */
    size_t first;  /* the number of this process's first worker among all ranks' */
    size_t total;  /* every rank's workers */
    int ranks;
    int *rank, *device; /* per worker, on rank 0 (NULL elsewhere) */
};

/* The team of this run: a collective call under MPI (every rank makes it, with its own
 * devices; NULL: one CPU worker). Exits 2 when the workers of all ranks are too many to number. */
void md_team_join(struct md_team *t, const struct md_devices *devices);
void md_team_free(struct md_team *t);

/* Refuses (exit 2, one line from rank 0) a run whose ranks were given other parameters that
 * its totals depend on (params, as the checkpoint names them): each rank computes the chunks it
 * is handed with its own tables. A collective call under MPI. */
void md_ranks_agree(const char *params);

/* "GPU 0" or "rank 1 GPU 0" (or "CPU"): worker w of the team, for the summary's lines. */
void md_team_label(const struct md_team *t, size_t w, char *out, size_t len);
/* The workers' devices for the CSV row's params, rank by rank: "0/0" (one process), "0/1+0/1"
 * (two ranks of two GPUs), "host+host" (two ranks' CPU twins). On rank 0. */
void md_team_format(const struct md_team *t, char *out, size_t len);

/* What one worker did in a pass: items (numbers, products) and the wall time it spent in its
 * chunks, for its rate. */
struct md_stats {
    uint64_t items;
    double busy_ms;
};

/* A pass over [from, from + n) in chunks that end on multiples of 2^chunk_bits (or at the end).
 * begin(ctx, w) runs once on worker w's thread first (it selects the worker's GPU). take() runs
 * on rank 0 under the scheduler's lock when a chunk is handed out, in range order: it returns a
 * hint from the state that the commits so far have built (delay: the running maximum), which
 * run() receives (NULL: hint 0). run() computes the chunk on worker w (this process's numbering)
 * into its slot, concurrently with other workers. commit() merges a finished chunk, on rank 0,
 * one at a time and strictly in range order; done_after counts the numbers finished through the
 * chunk. A slot is slot_size bytes, zeroed before run(); commit() must free what run() put
 * there. Across MPI ranks a slot travels as bytes: pack() returns them (malloc'ed, NULL when out
 * of memory) and frees the slot's contents, unpack() fills a zeroed slot from them (returns 0,
 * or -1 when they are malformed or memory is short). */
struct md_chunk_ops {
    size_t slot_size;
    void (*begin)(void *ctx, size_t worker);
    int64_t (*take)(void *ctx);
    void (*run)(void *ctx, size_t worker, uint64_t first, uint64_t last, int64_t hint, void *slot);
    void (*commit)(void *ctx, uint64_t first, uint64_t last, uint64_t done_after, void *slot);
    void *(*pack)(void *ctx, void *slot, size_t *len);
    int (*unpack)(void *ctx, const void *bytes, size_t len, void *slot);
};

/* A chunk's bytes, for pack() and unpack(): values and counted arrays, in the order written.
 * The ranks run one binary on one kind of host, so values travel as they lie in memory. */
struct md_writer {
    unsigned char *p;
    size_t len, cap;
    bool failed; /* host memory was short */
};
void md_put(struct md_writer *w, const void *v, size_t len);
void md_put_array(struct md_writer *w, const void *v, size_t n, size_t size);
/* pack()'s return: the bytes (NULL when memory was short, which frees them). */
void *md_writer_bytes(struct md_writer *w, size_t *len);
struct md_reader {
    const unsigned char *at;
    size_t left;
    bool failed; /* the bytes ended early, or host memory was short */
};
void md_get(struct md_reader *r, void *v, size_t len);
/* A counted array into a malloc'ed *v of *n items (NULL when empty). */
void md_get_array(struct md_reader *r, void **v, size_t *n, size_t size);

/* Runs the pass on rank 0, on this process's team->local workers (one: the caller's thread) and,
 * under MPI, on the other ranks' (which are in md_follow), with progress on pg. Stops handing out
 * chunks at Ctrl-C (or after the first MPGPU_STOP_AFTER_CHUNKS chunks, the tests' Ctrl-C);
 * the chunks in flight finish and are committed, so the return value, the numbers committed, is
 * an exact prefix. stats (team->total entries) receive each worker's share. */
uint64_t md_schedule(const struct md_team *team, uint64_t from, uint64_t n, unsigned chunk_bits,
                     const struct md_chunk_ops *ops, void *ctx, struct progress *pg,
                     struct md_stats *stats);

/* On a rank other than 0: runs the chunks rank 0 hands this rank's workers, pass after pass,
 * until rank 0 ends the run (ranks_finish). */
void md_follow(const struct md_team *team, const struct md_chunk_ops *ops, void *ctx);

#endif
