/* The CPU model of the shared-factor search's tree-gpu method: the batch GCD by a scaled
 * remainder tree of fixed-width levels, step by step as the GPU takes it
 * (kernels/scaled_tree_shape.h says what the tree is, its widths and why its precision
 * suffices; kernels/shared_factors_tree_gpu.c runs it). Plain GMP on one thread: a model to
 * check the algorithm and its precision against the all-pairs twin, not a fast path. */
#ifndef MPGPU_SCALED_REMAINDER_TREE_H
#define MPGPU_SCALED_REMAINDER_TREE_H

#include <gmp.h>
#include <stddef.h>

#include "scaled_tree_shape.h"

/* g[i] = gcd(N_i, product of the other moduli) for n >= 2 moduli N_i >= 2 of at most 32767
 * bits (g: n initialised mpz_t). The fractions of level `top` (at most the depth; larger is the
 * root) come from the exact remainders P mod S_v, as the host makes them for the GPU; each level
 * below is a scaled step, made as the GPU makes it: the parent's Y split in halves, each
 * multiplied by the sibling's square, the high half of the one and the low half of the other
 * added. The shape into *shape (NULL: not wanted). */
void scaled_tree_g(size_t n, const mpz_t *N, mpz_t *g, unsigned top,
                   struct scaled_tree_shape *shape);

#endif
