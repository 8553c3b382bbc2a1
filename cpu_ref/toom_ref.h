/* Toom-k multiplication, k = 2..9, in plain C: the reference twin of kernels/mul_toom.cu and the
 * instrumented model behind `mpgpu toom --count-ops` (000 sections 3.2.3, 3.3.2, Table 3.2).
 *
 * The algorithm, shared step for step with the GPU:
 *  1. Split A and B (w words each) into k pieces of s = ceil(w / k) words; the last pieces are
 *     shorter or empty when w does not split evenly.
 *  2. For each of the 2k-1 points of toom_points.h, evaluate A(x_i) and B(x_i) as sign and
 *     magnitude. A magnitude has at most s + 1 words; its low S words (S = s rounded up to a
 *     multiple of 32, the unit of the GPU's sum-rotate warp product) are multiplied as an
 *     S-word product, and a word beyond them (only when s is a multiple of 32) is added back as
 *     a linear correction, as 000 Table 3.2's linear terms do.
 *  3. Interpolate C_0 .. C_{2k-2} from the point products V_i with the exact integer matrix of
 *     toom_points.h, low word first, dividing exactly by 2^e * d as it goes.
 *  4. Recombine C = sum_m C_m 2^(32 s m).
 */
#ifndef MPGPU_TOOM_REF_H
#define MPGPU_TOOM_REF_H

#include <stdint.h>

#include "toom_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operation counts of one product, as 000 Table 3.2 counts them: word multiplications of the
 * sub-products, multiplications by small constants (evaluation weights, corrections,
 * interpolation constants, exact-division steps), and global-memory word reads and writes of
 * the GPU design (sub-products counted as the Comba method of 000 Table 3.1, as the paper
 * does; the two layout transposes of the GPU implementation are counted apart). */
struct toom_op_counts {
    uint64_t word_mults;
    uint64_t const_mults;
    uint64_t reads, writes;
    uint64_t transpose_reads, transpose_writes;
};

/* c[0 .. 2w) = a[0 .. w) * b[0 .. w) by Toom-k. 2 <= k <= 9, w >= 1. c must not overlap a or b.
 * ops, when not NULL, gets the counts of this product added. Returns 0, or -1 when memory runs
 * out. */
int toom_ref_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w, unsigned k,
                 struct toom_op_counts *ops);

/* Point i of toom_points.h as x = p / q (q = 0: infinity). */
void toom_point(unsigned i, int *p, int *q);

#ifdef __cplusplus
}
#endif
#endif
