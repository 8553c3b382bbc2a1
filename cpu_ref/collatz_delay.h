/* Delays of a range of 64-bit numbers (000 Algorithm 6), the CPU twin of
 * kernels/collatz_delay.cu: the same tables B, C, J and A, the same shared prefix, the same
 * 96-bit limit, on one thread as in the paper or on all cores with OpenMP.
 *
 * D(n) counts odd and even operations until the value is 1. A table operation stands for J[n_L]
 * of them; once the value is below t = 2^a, A holds the rest. The numbers of one work item share
 * their low Y = ops * d bits (Fig. 4.1), so their first `ops` table operations read the same
 * entries and are applied once per item (collatz_table_prefix). That is exact for the delay as
 * long as the trajectory cannot reach 1 inside those operations, which holds for n >= 2^(Y+1). */
#ifndef MPGPU_COLLATZ_DELAY_H
#define MPGPU_COLLATZ_DELAY_H

#include <stdbool.h>
#include <stdint.h>

#include "collatz_list.h"
#include "collatz_tables.h"

/* Totals of a pass; sums and maxima over numbers, so passes over adjacent ranges combine into
 * one pass over their union (collatz_delay_add). */
struct collatz_delay_totals {
    uint64_t numbers;   /* delays computed, overflows included once resolved */
    uint64_t sum;       /* the sum of all delays: a checksum of every one of them */
    uint32_t max;       /* the largest delay ... */
    uint64_t argmax;    /* ... and the smallest n that has it */
    uint64_t overflows; /* numbers whose interim value reached 2^96, resolved by plain iteration */
};

static inline void collatz_delay_add(struct collatz_delay_totals *t, const struct collatz_delay_totals *x)
{
    if (x->numbers && (t->numbers == 0 || x->max > t->max || (x->max == t->max && x->argmax < t->argmax))) {
        t->max = x->max;
        t->argmax = x->argmax;
    }
    t->numbers += x->numbers;
    t->sum += x->sum;
    t->overflows += x->overflows;
}

/* The shared table operations of a pass over [first, first + count) with base bits d: as many
 * as keep 2^(Y+1) <= first for Y = ops * d (so they cannot pass through 1) and still give each
 * residue about COLLATZ_RUN_LEN numbers, with Y <= COLLATZ_PREFIX_MAX_BITS. Both twins use it. */
unsigned collatz_delay_prefix_ops(unsigned d, uint64_t first, uint64_t count);

/* D(n) as the fast paths compute it with `ops` shared table operations (n >= 2^(ops*d+1) when
 * ops > 0). Returns 0, or 1 on overflow (then *delay is not set). */
int collatz_delay_one(uint64_t n, const struct collatz_bc_table *bc, const uint16_t *a,
                      unsigned a_bits, unsigned ops, uint32_t *delay);

/* Delays of [first, last] (1 <= first <= last) on `threads` threads (0: all cores). Adds to
 * *totals all numbers except those that overflowed, which go to *overflows (unsorted); when
 * candidates is not NULL, every n with D(n) > floor goes there (unsorted). floor is the largest
 * delay below first, -1 for a range from 1 (1 is the first record, D(1) = 0). Requires a_bits >
 * bc->bits, so that a table operation from a value >= 2^a cannot pass through 1. Returns 0, or
 * -1 when memory is short. */
int collatz_delay_cpu(const struct collatz_bc_table *bc, const uint16_t *a, unsigned a_bits,
                      uint64_t first, uint64_t last, int64_t floor, int threads,
                      struct collatz_delay_totals *totals, struct collatz_pairs *candidates,
                      struct collatz_list *overflows);

/* Resolves the overflowed numbers by plain iteration (collatz_plain.h, GMP beyond 128 bits):
 * adds their delays to *totals (and the ones above floor to candidates, when not NULL).
 * Returns 0, or -1 when a trajectory ran past COLLATZ_PLAIN_MAX_OPS (then *runaway holds it)
 * or memory is short. */
int collatz_delay_resolve(const struct collatz_list *overflows, int64_t floor, int threads,
                          struct collatz_delay_totals *totals, struct collatz_pairs *candidates,
                          uint64_t *runaway);

/* Delay records among candidates (sorted here by n): appends each n whose delay exceeds *floor
 * and every earlier candidate's to *records, raising *floor. With *floor = the largest delay
 * below the first candidate's range, these are the records of 000 section 4.1. */
int collatz_records_extract(struct collatz_pairs *candidates, int64_t *floor,
                            struct collatz_pairs *records);

#endif
