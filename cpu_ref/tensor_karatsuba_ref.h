/* The reference twin of warp-tensor-karatsuba (kernels/mul_tensor_karatsuba.cu, issue 39) and of
 * the warp Karatsuba levels it shares with sumrotate-*-karatsuba* (kernels/warp_karatsuba.cuh):
 * the same split into whole 32-word chunks and the same number of levels
 * (kernels/warp_karatsuba_plan.h), the same bookkeeping per level (|A0 - A1| and |B1 - B0|, the
 * two outer products straight into c, the middle product beside them, T = A0 B0 + A1 B1 +-
 * middle in 2h + 1 words, c[h, 2n) += T over t_len words), and the tensor twin
 * (cpu_ref/tensor_toeplitz_ref.c) at the leaves, in plain C, one product at a time.
 * What it checks besides: every level leaves its high half non-empty, every leaf has at most
 * the tensor product's 256 words, T's words past c's end are zero, and no carry leaves c. */
#ifndef MPGPU_TENSOR_KARATSUBA_REF_H
#define MPGPU_TENSOR_KARATSUBA_REF_H

#include <stdint.h>

struct tk_ref_stats {
    unsigned depth;         /* Karatsuba levels */
    unsigned leaves;        /* tensor products */
    unsigned largest_leaf;  /* words of the largest leaf */
    unsigned negative_mids; /* middle products subtracted (the two differences' signs differ) */
};

/* c[0 .. 2w) = a[0 .. w) * b[0 .. w), 257 <= w <= 2048 (the method's sizes); c must not overlap
 * a or b. stats may be NULL. Returns 0; -1 for a size outside the range or when memory runs
 * out; -2 when a check above failed (c is then not the product). */
int ref_mul_tensor_karatsuba(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                             struct tk_ref_stats *stats);

#endif
