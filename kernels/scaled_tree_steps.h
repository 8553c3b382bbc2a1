/* The two word steps of tree-gpu's scaled remainder tree that are not multiplications
 * (scaled_tree_shape.h says what the tree is): one thread a node, numbers product-major. */
#ifndef MPGPU_SCALED_TREE_STEPS_H
#define MPGPU_SCALED_TREE_STEPS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A step's window: for each of `count` nodes, y = (high half of lo_product + low half of
 * hi_product) mod 2^(32 m), where the products have 2 m words and y has m: the middle m words of
 * the parent's Y times the sibling's square (the products of Y's halves by that square). */
cudaError_t scaled_tree_window(const uint32_t *lo_product, const uint32_t *hi_product, uint32_t *y,
                               size_t count, size_t m, cudaStream_t stream);

/* A leaf's remainder: for each of `count` leaves, z = ceil(x / 2^(32 m)) for x of 2 m words (x
 * = S_i Y_i < 2^(64 m), so z has m words). */
cudaError_t scaled_tree_leaf_ceiling(const uint32_t *x, uint32_t *z, size_t count, size_t m,
                                     cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
