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

#include "collatz_pass.h"
#include "collatz_tables.h"

/* D(n) as the fast paths compute it with `ops` shared table operations (n >= 2^(ops*d+1) when
 * ops > 0). Returns 0, or 1 on overflow (then *delay is not set). */
int collatz_delay_one(uint64_t n, const struct mpgpu_collatz_bc_table *bc, const uint16_t *a,
                      unsigned a_bits, unsigned ops, uint32_t *delay);

/* Delays of [first, last] (1 <= first <= last) on `threads` threads (0: all cores). Adds to
 * *totals all numbers except those that overflowed, which go to *overflows (unsorted); when
 * candidates is not NULL, every n with D(n) > floor goes there (unsorted). floor is the largest
 * delay below first, -1 for a range from 1 (1 is the first record, D(1) = 0). Requires a_bits >
 * bc->bits, so that a table operation from a value >= 2^a cannot pass through 1. Returns 0, or
 * -1 when memory is short. */
int collatz_delay_cpu(const struct mpgpu_collatz_bc_table *bc, const uint16_t *a, unsigned a_bits,
                      uint64_t first, uint64_t last, int64_t floor, int threads,
                      struct mpgpu_collatz_delay_totals *totals, struct mpgpu_collatz_pairs *candidates,
                      struct mpgpu_collatz_list *overflows);

#endif
