// warp-tensor-karatsuba (issue 39): one warp per product, subtractive Karatsuba once to three
// times (kernels/warp_karatsuba.cuh, 001 section III-A) down to leaves of at most 8192 bits,
// each leaf warp-tensor-toeplitz's tensor-core product (kernels/tensor_toeplitz.cuh).
//
// Why: warp-tensor-toeplitz is unrolled for at most 256 words, its accumulators and B tiles in
// registers (168 at 256 words); above 8192 bits mpgpu fell back to thread-rowchain-karatsuba,
// one thread a product, which at 10240 products of 16384 bits fills 80 of 132 SMs and ran at
// 1.15x CGBN (results/cgbn_ratios.md). At 2^20 products the tensor product of 8192 bits costs
// 2.6 times that of 4096 bits for 4 times the work (docs/000-mul.md), so the leaves stay as
// large as the tensor product allows: 129..256 words, padded to 256, for the first half of each
// split (the second may be shorter). The depth is the fewest levels that reach them.
//
// The operands are read in place; each level's |A0 - A1|, |B1 - B0|, middle product and T live
// in a per-product scratch array in device memory (product-major, one warp's passes coalesced),
// the sub-products' own levels after them. The leaf's columns and A's reversed copy use the
// warp's 8 KiB of shared memory, as in warp-tensor-toeplitz.
#include "mul.h"

#include <stddef.h>
#include <stdint.h>

#include "tensor_toeplitz.cuh"
#include "warp_karatsuba.cuh"

namespace {

constexpr unsigned WARPS = 4;                 // products per block, one per warp
constexpr unsigned LEAF_WORDS = TT_MAX_WORDS; // the tensor product's largest size

// A Karatsuba leaf: the tensor product at the largest size, then a warp sync so that the next
// leaf may reuse the shared memory and the passes may read the product.
struct TensorLeaf {
    uint32_t *shared;
    __device__ void operator()(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned n)
    {
        tensor_toeplitz::product<LEAF_WORDS>(a, b, c, n, shared);
        __syncwarp();
    }
};

// One level keeps to the leaf's 168 registers and its three blocks (12 warps) per SM. Two and
// three take 232 and 255 registers, two blocks: held to 168, two levels spill 36 bytes and
// three 456.
template <unsigned DEPTH>
__global__ void __launch_bounds__(32 * WARPS, DEPTH < 2 ? 3 : 2)
    tensor_karatsuba_kernel(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                            size_t count, uint32_t *scratch)
{
    __shared__ __align__(16) uint32_t shared[WARPS][8 * LEAF_WORDS];
    const unsigned warp = threadIdx.x / 32;
    const size_t p = (size_t)blockIdx.x * WARPS + warp;
    if (p >= count)
        return;
    TensorLeaf leaf{shared[warp]};
    warp_karatsuba::mul<DEPTH>(leaf, a + p * words, b + p * words, c + p * 2 * words, words,
                               scratch + p * wk_scratch_words(words, DEPTH));
}

template <unsigned DEPTH>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, uint32_t *scratch, cudaStream_t stream)
{
    const size_t blocks = (count + WARPS - 1) / WARPS;
    tensor_karatsuba_kernel<DEPTH><<<(unsigned)blocks, 32 * WARPS, 0, stream>>>(a, b, c, words,
                                                                               count, scratch);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t mul_tensor_karatsuba_scratch_bytes(unsigned words, size_t count)
{
    return wk_scratch_words(words, wk_depth(words, LEAF_WORDS)) * count * sizeof(uint32_t);
}

extern "C" cudaError_t mul_tensor_karatsuba_launch(const uint32_t *a, const uint32_t *b,
                                                   uint32_t *c, unsigned words, size_t count,
                                                   void *scratch, cudaStream_t stream)
{
    uint32_t *s = (uint32_t *)scratch;
    switch (wk_depth(words, LEAF_WORDS)) {
    case 1:
        return launch<1>(a, b, c, words, count, s, stream);
    case 2:
        return launch<2>(a, b, c, words, count, s, stream);
    case 3:
        return launch<3>(a, b, c, words, count, s, stream);
    default: // the registry admits 257..2048 words: depths 1..3
        return cudaErrorInvalidValue;
    }
}
