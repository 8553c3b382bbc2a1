/* Convergence verification of a range of 64-bit starting values (000 Algorithm 5), the CPU twin
 * of kernels/collatz_convergence.cu: the same tables, the same first step, the same 96-bit limit
 * on interim values, on one thread as in the paper or on all cores with OpenMP.
 *
 * A starting value m is verified when its trajectory reaches a value below m: then m converges
 * if every smaller number does (000 section 4.3.1), so a range verified from the bottom up
 * proves the conjecture up to its end. Starting values whose low k bits are not in S are
 * skipped: they provably fall below m. */
#ifndef MPGPU_COLLATZ_CONVERGENCE_H
#define MPGPU_COLLATZ_CONVERGENCE_H

#include <stdint.h>

#include "collatz_pass.h"
#include "collatz_tables.h"

/* One starting value m >= 3, as the fast paths iterate it with S base bits k (the jump covers
 * the low k bits of m). Returns 0 when the value fell below m, 1 on overflow. *steps gets the
 * table operations; *lo, *hi the last value (the one below m, or the one that overflowed; the
 * overflowed value is exact below 2^128). */
int collatz_conv_one(uint64_t m, const struct mpgpu_collatz_bc_table *bc, unsigned k,
                     enum collatz_first_step first, uint64_t *steps, uint64_t *lo, uint64_t *hi);

/* Verifies [first, last] (1 <= first <= last) on `threads` threads (0: all cores): adds to
 * *totals and appends the overflowed starting values to *overflows (unsorted). Values below
 * 2^k are all iterated, as S needs m_H >= 1. Returns 0, or -1 when memory is short. */
int collatz_conv_cpu(const struct mpgpu_collatz_s_table *s, const struct mpgpu_collatz_bc_table *bc,
                     enum collatz_first_step first_step, uint64_t first, uint64_t last,
                     int threads, struct mpgpu_collatz_conv_totals *totals,
                     struct mpgpu_collatz_list *overflows);

/* The number of starting values in [first, last] that a pass iterates: those >= 3 that are below
 * 2^k or whose low k bits are in S. A pass that iterated fewer skipped work. */
uint64_t collatz_conv_expected(const struct mpgpu_collatz_s_table *s, uint64_t first, uint64_t last,
                               int threads);

#endif
