/* The reference twin of split-rowchain (kernels/mul_split_rowchain.cu): the T threads of one
 * product are simulated one after the other, each scanning the same rows of a_j times a window of
 * b into its two column ranges, then the spills between ranges, the carry bits and the
 * carry-lookahead over the 2T ranges are taken step by step as the lanes take them. */
#ifndef MPGPU_SPLIT_ROWCHAIN_REF_H
#define MPGPU_SPLIT_ROWCHAIN_REF_H

#include <stdint.h>

/* What the twin observed in one product. */
struct split_rowchain_stats {
    unsigned products_min, products_max; /* word products per thread, fewest and most */
    unsigned carries_resolved;           /* ranges that took a carry bit from the lookahead */
    unsigned longest_ripple;             /* most all-ones ranges one carry bit crossed */
};

/* c[0 .. 2w) = a[0 .. w) * b[0 .. w), the operands zero-padded to n words, threads | n / 2,
 * n / threads even, threads <= 32, w <= n <= 2048; c must not overlap a or b. */
void split_rowchain_ref_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                            unsigned n, unsigned threads, struct split_rowchain_stats *stats);

/* The carry resolution alone. On entry c[0 .. 2n) holds the low R = n / threads words of the 2T
 * ranges' sums and spill[r] what range r carries into range r + 1 (spill[2T - 1] = 0); on return
 * c holds their sum mod 2^(64 n). Fills the last two fields of stats. */
void split_rowchain_ref_resolve(uint32_t *c, const uint64_t *spill, unsigned n, unsigned threads,
                                struct split_rowchain_stats *stats);

#endif
