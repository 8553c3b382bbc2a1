/* The chunks of the last timed pass of `mpgpu collatz` and `mpgpu delay`, as their workers
 * computed them, kept for the check (issue 36): each chunk's range, the worker (of any rank) that
 * ran it, and its results (the subcommand's fixed-size struct, with each list as a count and a
 * hash), so that the check recomputes a sample of them, or all, on the CPU twin and compares.
 * Rank 0 records a chunk when it commits it, so the chunks of every GPU and every rank are here.
 *
 * One chunk costs sizeof(struct collatz_chunk_place) + the result + 8 bytes of order: about 112
 * bytes for delay, 72 for collatz. A pass holds one chunk per 2^seg_bits numbers (plus one when
 * its start is not aligned): 2^40 numbers are 1 or 2 chunks of collatz on the GPU (2^44 each),
 * 64 of delay (2^34), 256 and 2^16 on the CPU twin (2^32, 2^24). */
#ifndef MPGPU_COLLATZ_CHUNKS_H
#define MPGPU_COLLATZ_CHUNKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct collatz_chunk_place {
    uint64_t first, last;
    uint32_t worker; /* among all ranks' workers, as md_team numbers them */
};

struct collatz_chunks {
    size_t result_size;                 /* bytes of one chunk's results */
    size_t n, cap;                      /* chunks recorded, and room */
    struct collatz_chunk_place *place;  /* in the order recorded: range order */
    unsigned char *results;             /* n results of result_size bytes */
    size_t *order;                      /* element e of the check is chunk order[e] */
    size_t workers;                     /* worker numbers are below this */
    uint64_t *per_worker;               /* chunks each worker ran (collatz_chunks_order) */
    uint64_t *checked;                  /* of them, those the check compared */
    uint64_t *differ;                   /* and of those, the ones that differed */
};

/* An empty store for results of result_size bytes from `workers` workers. Returns 0, or -1 when
 * host memory is short. */
int collatz_chunks_init(struct collatz_chunks *k, size_t result_size, size_t workers);
void collatz_chunks_free(struct collatz_chunks *k);

/* Forgets the chunks recorded (a new pass begins); keeps the room. */
void collatz_chunks_clear(struct collatz_chunks *k);

/* Appends a chunk (chunks come in range order). Returns 0, or -1 when host memory is short. */
int collatz_chunks_add(struct collatz_chunks *k, uint64_t first, uint64_t last, uint32_t worker,
                       const void *result);

static inline const void *collatz_chunks_result(const struct collatz_chunks *k, size_t i)
{
    return k->results + i * k->result_size;
}

/* Orders the elements of the check and returns the size of the spread sample it should take:
 * budget chunks, but at least one of every worker that ran one. The elements are the chunks in
 * range order, so that the sample is spread over the pass, except that a worker the sample would
 * miss has one of its chunks swapped into the place of one the sample takes, of a worker it takes
 * more than once. Counts each worker's chunks and zeroes the checked and differing counts. */
uint64_t collatz_chunks_order(struct collatz_chunks *k, uint64_t budget);

/* A hash of a list of numbers that does not depend on their order (the GPU appends overflows
 * in whatever order its threads meet them): the sum of a mix of each. */
uint64_t collatz_chunks_hash(const uint64_t *v, size_t n);
/* The same for one (n, delay) pair, added up over a list by the caller. */
uint64_t collatz_chunks_pair_hash(uint64_t n, uint32_t delay);

#endif
