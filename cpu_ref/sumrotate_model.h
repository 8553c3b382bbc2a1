/* A CPU model of sum-rotate multiplication (000 Algorithm 3, 001 Algorithm 3), the reference
 * twin of kernels/sumrotate.cuh: the lanes of a warp are simulated step by step, each with its
 * registers a, b, t, u, v and c'; shfl broadcasts and circular shifts are array permutations and
 * the warp vote any() is a loop over the lanes. It follows the kernel's decomposition:
 *  - w <= 32 words: one segment of w lanes runs Algorithm 3 as printed (000 section 3.4 uses
 *    segments of w < 32 lanes for small products);
 *  - w > 32: 32 lanes run the Comba method over 1024-bit blocks (000 section 3.3.2), one
 *    Algorithm 3 pass per block product, the pending top half of a block column summed per lane
 *    and handed to the next column, and one carry loop at the end. */
#ifndef MPGPU_SUMROTATE_MODEL_H
#define MPGPU_SUMROTATE_MODEL_H

#include <stdint.h>

/* What the model observed while computing one product, to check the bounds the kernel's
 * register use relies on. */
struct sumrotate_model_stats {
    unsigned lanes;            /* lanes of the segment: w for w <= 32, else 32 */
    unsigned carry_iterations; /* iterations of the carry loop (000: "at most w - 1 times") */
    uint32_t max_row_u;        /* largest u after line 14 of any row (the kernel assumes <= 2) */
    uint32_t max_pending_u;    /* largest high word of a block column's pending sum (w > 32) */
};

/* c[0 .. 2w) = a[0 .. w) * b[0 .. w), 1 <= w <= 2048; c must not overlap a or b. */
void sumrotate_model_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                         struct sumrotate_model_stats *stats);

#endif
