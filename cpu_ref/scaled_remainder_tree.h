/* The batch GCD by a scaled remainder tree (Bernstein, "Scaled remainder trees", 2004): the
 * CPU model of the GPU tree that issue 38 asks for, which mpgpu does not have yet
 * (docs/shared-factors.md). Bernstein's batch GCD needs z_i = P mod N_i^2 for P the product of
 * all moduli; its remainder tree divides at every node, and mpgpu has no division. The scaled
 * tree keeps instead, at every node v of the product tree, the fraction y_v = frac(P / T_v^2)
 * (T_v the product of the moduli below v), to p_v = bits(T_v^2) + guard bits; a child's is the
 * fractional part of its parent's times its sibling's square, y_v = frac(y_u T_s^2): every step
 * below the root is a multiplication and a truncation, of the sizes mpgpu mul batches. Only the
 * root takes a division (2^p / P). At a leaf z_i = N_i^2 y_i, and g_i = gcd(z_i / N_i, N_i) =
 * gcd(N_i, product of the other moduli).
 *
 * Precision: each fraction is truncated toward zero, so its error e_v is in [0, c_v 2^-p_v) with
 * c_root = 1 and c_v = 2 c_u + 1, since T_s^2 < 2^(p_u - p_v + 1); at depth D the leaves' error
 * times N_i^2 is below 2^(D + 1 - guard). With guard = D + 3 that is below 1/4, and z_i is the
 * integer just at or above N_i^2 Y_i / 2^p_i (mod N_i^2). */
#ifndef MPGPU_SCALED_REMAINDER_TREE_H
#define MPGPU_SCALED_REMAINDER_TREE_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

/* The tree's shape, level by level, leaves (level 0) up to the root: how many nodes, and the
 * widest operand of the multiplications that make the level's fractions (level 0: also the
 * leaves' N_i^2 y_i), the size a batched GPU multiplication of the level would take. */
#define SCALED_TREE_MAX_LEVELS 64
struct scaled_tree_shape {
    unsigned levels; /* depth + 1 */
    unsigned guard;  /* guard bits, depth + 3 */
    size_t nodes[SCALED_TREE_MAX_LEVELS];
    uint64_t widest_operand_bits[SCALED_TREE_MAX_LEVELS]; /* 0 at the root: its one division */
};

/* g[i] = gcd(N_i, product of the other moduli) for n >= 2 moduli N_i >= 2 (g: n initialised
 * mpz_t); the tree's shape into *shape (NULL: not wanted). */
void scaled_tree_g(size_t n, const mpz_t *N, mpz_t *g, struct scaled_tree_shape *shape);

#endif
