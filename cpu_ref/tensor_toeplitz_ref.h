/* The reference twin of warp-tensor-toeplitz (kernels/mul_tensor_toeplitz.cu, issue 13): the
 * same tiles, built the same way, multiplied by a plain-C model of mma.m16n8k32 (u8 x u8 + s32),
 * and the same carry pass, one product at a time.
 *
 * What it shares with the kernel: the schedule of kernels/tensor_toeplitz_plan.h (padding to
 * 32/64/128/256 words, the live tile products), the byte-reversed copy of A and the funnel
 * shifts that cut each lane's Toeplitz registers from it, each lane's B registers, the PTX
 * fragment layouts of m16n8k32 (A row-major 16x32, B column-major 32x8, C 16x8: PTX ISA,
 * "Matrix Fragments for mma.m16n8k32"), the swizzled column store, and the carry pass: lane L
 * turns columns [L N/4, (L+1) N/4) into N/16 words with a 64-bit running sum, adds the carry
 * out of lane L - 1, and the last one-bit carries cross the lanes by carry lookahead.
 * What it checks besides: every lane's registers form exactly the Toeplitz tile
 * A_d[m][k] = a_(32 d + m - k) and the tile X_j[k][n] = b_(32 j + 16 n + k); every column sum
 * stays below 2^31 (the s32 accumulator); every register index stays inside its array; and no
 * carry leaves the top lane. */
#ifndef MPGPU_TENSOR_TOEPLITZ_REF_H
#define MPGPU_TENSOR_TOEPLITZ_REF_H

#include <stdint.h>

struct tt_ref_stats {
    unsigned padded_words; /* N */
    unsigned mmas;         /* m16n8k32 products issued */
    unsigned toeplitz;     /* Toeplitz tiles built */
    uint32_t max_column;   /* largest column sum */
    unsigned lane_carries; /* one-bit carries the lookahead moved into a lane */
};

/* c[0 .. 2w) = a[0 .. w) * b[0 .. w), 1 <= w <= 256; c must not overlap a or b. stats may be
 * NULL. Returns 0; -1 for a size outside the range or when memory runs out; -2 when a check
 * above failed (c is then not the product): a bug in the mapping, not in the caller. */
int ref_mul_tensor_toeplitz(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                            struct tt_ref_stats *stats);

#endif
