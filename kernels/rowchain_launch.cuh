// thread-rowchain-karatsuba: the launches the host planner (mul_rowchain_karatsuba.cu) drives,
// one per kind of kernel. Each returns cudaGetLastError() after its launch.
#ifndef MPGPU_ROWCHAIN_LAUNCH_CUH
#define MPGPU_ROWCHAIN_LAUNCH_CUH

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "rowchain_operand_view.cuh"

namespace rowchain {

// The whole products of count problems of exactly LEAF words, one thread each, straight from
// and to device memory (rowchain_direct.cu).
cudaError_t direct_launch(const uint32_t *a, const uint32_t *b, uint32_t *c, size_t count,
                          cudaStream_t stream);

// The whole products of the count problems of level `level` (w words per operand, at most
// LEAF << FUSED_MAX_LEVELS; not exactly LEAF at level 0, which is direct_launch's), one
// thread block per fused_shape<K>::P of them, K the levels their size needs; written
// word-major to c (rowchain_block.cu).
cudaError_t block_launch(const level_chain &chain, unsigned level, size_t count, unsigned w,
                         uint32_t *c, cudaStream_t stream);

// One device-memory Karatsuba level (rowchain_device_levels.cu). The split writes |low - high|
// of both operands of the n problems of level `level` (2h words per operand) to diff and their
// sign flags to subtract; the join recombines the n parents' three sub-products from sub into
// the first out_words words of each product in c.
cudaError_t split_launch(const level_chain &chain, unsigned level, size_t n, unsigned h,
                         uint32_t *diff, unsigned char *subtract, cudaStream_t stream);
cudaError_t join_launch(const uint32_t *sub, const unsigned char *subtract, size_t n, unsigned h,
                        uint32_t *c, unsigned out_words, cudaStream_t stream);

} // namespace rowchain

#endif
