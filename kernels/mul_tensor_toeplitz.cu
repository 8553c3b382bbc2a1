// warp-tensor-toeplitz (issue 13): one warp per product, the limb products on the tensor cores.
// A product is the convolution of the operands' byte limbs; written in 16x8 tiles of output
// columns it is a sum of small integer matrix products, Toeplitz tiles of A's bytes times
// tiles of B's bytes, each one mma.sync.m16n8k32 with u8 x u8 -> s32 (kernels/
// tensor_toeplitz_plan.h gives the tiling, cpu_ref/tensor_toeplitz_ref.c is the twin). A column
// sums at most NB = 1024 byte products below 2^16 each, so the s32 sums are exact; a carry pass
// turns the 2 NB columns into 2 N words.
//
// Why this mapping:
// - The issue's premise: Hopper's tensor cores multiply-add 8-bit integers at about 1e15/s
//   (dense), about 7x the IMAD pipe's rate counted in bit products.
// - The tile of output columns f = 128 t + m + 16 n makes the A tile depend on 4t - j only and
//   the B tile on j only, so each of the N/8 + 1 Toeplitz tiles is cut once (four funnel shifts
//   of a byte-reversed copy of A in shared memory: the usual byte-shift cost, paid once per
//   tile, not per product) and meets every tile of B in registers, where B's tiles are plain
//   32-bit words of b (a warp load of 32 consecutive words each), no shifting at all.
// - A tile product whose terms are all outside the operands is not issued (tt_live): 84
//   m16n8k32 at 4096 bits against 64 if no byte were zero, 296 at 8192 against 256, 9 at 1024
//   against 4 (the corner tiles are half empty).
// - mma.sync, not wgmma: wgmma's operands come from shared memory descriptors in fixed
//   swizzled layouts, which a Toeplitz tile (every row the previous one shifted by a byte) does
//   not have; it would need the tiles written out to shared memory first, 32x the bytes of A.
// - The carry pass: each lane's accumulators go to shared memory (swizzled, conflict-free) and
//   come back as N/4 consecutive columns per lane, which one 64-bit running sum turns into N/16
//   words; the lane's carry out enters the next lane, and what that leaves (one bit) crosses the
//   lanes by carry lookahead over two warp votes (mp::lookahead_carries).
//
// Measured on an H200, 2^20 products (docs/000-mul.md, the tensor-core method): 6.48e8/s at
// 4096 bits and 2.53e8/s at 8192, 1.5x and 1.9x thread-rowchain-karatsuba; 1.97e9/s at 1024
// bits, 0.42x. mma.sync u8 alone completes 0.60 m16n8k32 per SM per clock
// (experiments/tensor_mma_rate.cu: 6.4e14 MAC/s, a third of the dense wgmma rate), so the
// tensor pipe's floor is 34 % of the time at 4096 bits and 47 % at 8192; the rest is the scalar work
// around it, 826 and 1586 warp instructions per product (84 and 296 of them IMMA), on L1 and
// shared-memory wavefronts (75 % busy at 4096) and, at 8192, on latency: 168 registers leave
// 12 warps per SM. Tried and dropped: each Toeplitz tile by four 64-bit loads from two
// word-shifted copies of A (5.87e8/s at 4096: more registers, no fewer wavefronts).
#include "mul.h"

#include <stddef.h>
#include <stdint.h>

#include "tensor_toeplitz.cuh"

namespace {

constexpr unsigned WARPS = 4; // products per block, one per warp

template <unsigned N>
__global__ void __launch_bounds__(32 * WARPS)
    tensor_toeplitz_kernel(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,
                           uint32_t *__restrict__ c, unsigned words, size_t count)
{
    __shared__ __align__(16) uint32_t shared[WARPS][8 * N];
    const unsigned warp = threadIdx.x / 32;
    const size_t p = (size_t)blockIdx.x * WARPS + warp;
    if (p >= count)
        return;
    tensor_toeplitz::product<N>(a + p * words, b + p * words, c + p * 2 * words, words,
                                shared[warp]);
}

template <unsigned N>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, cudaStream_t stream)
{
    const size_t blocks = (count + WARPS - 1) / WARPS;
    tensor_toeplitz_kernel<N><<<(unsigned)blocks, 32 * WARPS, 0, stream>>>(a, b, c, words, count);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t mul_tensor_toeplitz_launch(const uint32_t *a, const uint32_t *b,
                                                  uint32_t *c, unsigned words, size_t count,
                                                  void *, cudaStream_t stream)
{
    switch (tt_padded_words(words)) {
    case 32:
        return launch<32>(a, b, c, words, count, stream);
    case 64:
        return launch<64>(a, b, c, words, count, stream);
    case 128:
        return launch<128>(a, b, c, words, count, stream);
    default:
        return launch<256>(a, b, c, words, count, stream);
    }
}
