/* The reference twin of thread-rowchain-karatsuba (kernels/mul_rowchain_karatsuba.cu and the
 * rowchain_* files it lists): the same algorithm in plain C, one product at a time, step by
 * step, as GMP's tests/refmpn.c keeps a simple twin of every fast routine.
 *
 * What it shares with the kernels:
 * - the plan: w-word operands are padded with zero words to wpad = 32 * 2^t words,
 *   t = ceil(log2(ceil(w / 32))); t - 3 subtractive Karatsuba levels (when t > 3) run in device
 *   memory, the remaining K = min(t, 3) inside one thread block, down to 3^t leaves of 32 words;
 * - a device-memory level: each operand's |low - high| and which half was larger, found in 8
 *   chunks (the top differing word of the top chunk that has one decides), each chunk's borrow
 *   chain started from 0 and the borrows carried across chunks in rounds; the join's three
 *   column streams Z = L + (L + H - s M) X^h + H X^2h in the same 8 chunks with the same
 *   rounds, and at the top level only the 2w words of the product written;
 * - the in-block levels: formation from the root down (compare from the top word, then one
 *   borrow chain), the leaves, then recombination from the leaves up with -M added as its one's
 *   complement (+1 at column h, -1 at column 3h); at K = 3 each node's columns in as many
 *   segments as recombine_level cuts them, each from carry 0, then the carry-in, ripple and
 *   run-on passes;
 * - the leaf, the same in the block kernel and in the direct kernel at exactly 32 words
 *   (rowchain_direct.cu): |a0 - a1| and |b0 - b1| by one borrow chain and a negation, then three
 *   16x16-word products by product scanning (comba_product: each column summed into a 96-bit
 *   accumulator), merged in direct_leaf's order, M = |a0 - a1| |b0 - b1|, then L with
 *   S = L -+ M formed as L's words come, then each word of H completing a column of Z.
 * What it does not share: every intermediate has an array of its own, where the kernels reuse
 * shared and device memory in place (the slot layout of rowchain_block_layout.cuh and the
 * operand views of rowchain_operand_view.cuh are addressing, not arithmetic). Instead it checks
 * that every intermediate fits where the kernels keep it: a segment's carry in a signed char, a
 * node's or leaf's product in its words, a chunk chain's borrow inside its operand. */
#ifndef MPGPU_ROWCHAIN_KARATSUBA_REF_H
#define MPGPU_ROWCHAIN_KARATSUBA_REF_H

#include <stdint.h>

/* What one product took, for tests that must reach every path. */
struct rowchain_ref_stats {
    unsigned device_levels; /* Karatsuba levels in device memory */
    unsigned block_levels;  /* K, the levels inside one thread block */
    unsigned leaves;        /* 32-word leaf products: 3^(device_levels + block_levels) */
    unsigned chunk_rounds;  /* most rounds one chunk carry resolution of a split or join took */
    unsigned run_ons;       /* in-block recombinations whose carry ran past a segment's end */
    unsigned direct;        /* 1: exactly one leaf, the direct kernel's product (no block) */
};

/* c[0 .. 2w) = a[0 .. w) * b[0 .. w); c must not overlap a or b. stats may be NULL. w may be
 * anything the kernels' launcher takes: 1 <= w and at most 8 device-memory levels (32 << 11
 * words; `mpgpu mul` registers 2 .. 2048). Returns 0; -1 for a size outside that range or when
 * memory runs out; -2 when an intermediate left the place the kernels keep it in (c is then not
 * the product): a bug in the algorithm, not in the caller. */
int ref_mul_rowchain_karatsuba(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                               struct rowchain_ref_stats *stats);

#endif
