/* The shape of the scaled remainder tree that the shared-factor search's tree-gpu method runs
 * (shared_factors_tree_gpu.c), shared with its CPU model (cpu_ref/scaled_remainder_tree.c).
 *
 * Bernstein's batch GCD needs z_i = P mod N_i^2, P the product of all moduli. The scaled tree
 * ("Scaled remainder trees", 2004) keeps at each node v, with T_v the product of the moduli
 * below it and S_v = T_v^2, the fraction y_v = frac(P / S_v), and makes a child's from its
 * parent's u and its sibling's s by a multiplication: y_v = frac(y_u S_s). Here every level has
 * one width: a node of level k is w_k = w_0 2^k words, w_0 = floor(b / 32) + 1 for moduli of at
 * most b bits (at least 2, mpgpu mul's narrowest operand), and y_v is kept to P_k = 64 w_k bits
 * (the width of S_v) as the integer Y_v = floor-ish(2^P_k y_v). Then a step of level k is
 *     Y_v = floor(Y_u S_s / 2^P_k) mod 2^P_k,
 * the middle 2 w_k words of a 4 w_k by 2 w_k word product, and at a leaf
 *     z_i = ceil(S_i Y_i / 2^P_0) (mod N_i^2).
 * A level with an odd number of nodes (above 1) gets a node T = 1 after its last, so that every
 * level is pairs (its parent is the last node alone).
 *
 * Precision: Y_G of the top level G the GPU takes is exact to below 1 (the host makes it from
 * the exact remainder P mod S_v), and each step truncates once: with y_v's error e_v taken
 * mod 1, e_v < e_u S_s + 2^-P_k. Since S_s < 2^(2 b 2^k) <= 2^(P_k - 2^(k+1)), an error of
 * c 2^-P_(k+1) above becomes (1 + c 2^-(2^(k+1))) 2^-P_k, so c <= 4/3 at every level, and at a
 * leaf N_i^2 e_i < 2^(2b) (4/3) 2^(-2b-2) = 1/3: the ceiling is z_i exactly, or N_i^2 when z_i
 * is 0 (both multiples of N_i^2, so the GCD that follows is the same). */
#ifndef MPGPU_SCALED_TREE_SHAPE_H
#define MPGPU_SCALED_TREE_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#define SCALED_TREE_MAX_LEVELS 64
/* The widest operand of mpgpu mul, in words (65536 bits): the GPU takes level k while a step's
 * operands, 2 w_k words, fit. */
#define SCALED_TREE_GPU_MAX_WORDS 2048u

struct scaled_tree_shape {
    unsigned depth;      /* levels above the leaves: the root is level `depth` */
    unsigned leaf_words; /* w_0 */
    unsigned gpu_levels; /* G: levels 0 .. G - 1 have steps whose operands fit mpgpu mul (at
                          * most depth); Y_G is the host's */
    size_t nodes[SCALED_TREE_MAX_LEVELS];  /* the real nodes of level k */
    size_t padded[SCALED_TREE_MAX_LEVELS]; /* with the node T = 1 of an odd level */
};

/* The shape for n >= 1 moduli of at most `bits` bits; 0 when n is 0, bits 0, or the leaves'
 * steps do not fit mpgpu mul (bits above 32 SCALED_TREE_GPU_MAX_WORDS / 2 - 1). */
static inline int scaled_tree_shape_of(size_t n, uint64_t bits, struct scaled_tree_shape *s)
{
    const uint64_t w0 = bits / 32 + 1 < 2 ? 2 : bits / 32 + 1;
    if (n == 0 || bits == 0 || 2 * w0 > SCALED_TREE_GPU_MAX_WORDS)
        return 0;
    s->leaf_words = (unsigned)w0;
    s->depth = 0;
    s->nodes[0] = n;
    while (s->nodes[s->depth] > 1 && s->depth + 1 < SCALED_TREE_MAX_LEVELS) {
        const size_t c = s->nodes[s->depth];
        s->padded[s->depth] = c + (c & 1);
        s->nodes[s->depth + 1] = s->padded[s->depth] / 2;
        s->depth++;
    }
    s->padded[s->depth] = s->nodes[s->depth];
    s->gpu_levels = 0;
    while (s->gpu_levels < s->depth && 2 * (w0 << s->gpu_levels) <= SCALED_TREE_GPU_MAX_WORDS)
        s->gpu_levels++;
    return 1;
}

#endif
