/* The computation-to-warp multiplication of kernels/ctt_warp.cu (003 4.5: each schoolbook row
 * a_i * b mapped to the warp) simulated lane by lane on the host: 32 lanes take a word of b
 * each, a lane's 64-bit a_i b_j + r_{i+j} splits into a low word and a high word that moves one
 * lane up (the multiplication's carry), and the sums carry by lookahead over the warp's
 * generate and propagate votes (the addition's carry), chunk after chunk. The test compares it
 * with GMP, so the kernel's carry design is checked where no GPU is. */
#ifndef MPGPU_CTW_MUL_MODEL_H
#define MPGPU_CTW_MUL_MODEL_H

#include <stdint.h>

/* r = a * b over na + nb words, na, nb >= 1. */
void ctw_mul_model(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);

#endif
