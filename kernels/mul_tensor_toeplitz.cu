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

#include "mp_helpers.cuh"
#include "tensor_toeplitz_plan.h"

namespace {

constexpr unsigned WARPS = 4; // products per block, one per warp

// D += A X for one 16x8 tile (PTX ISA: mma.m16n8k32, .row.col, u8 x u8 + s32).
__device__ __forceinline__ void mma_u8(uint32_t (&acc)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <unsigned N>
__global__ void __launch_bounds__(32 * WARPS)
    tensor_toeplitz_kernel(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,
                           uint32_t *__restrict__ c, unsigned words, size_t count)
{
    constexpr int TILES = tt_tiles(N), B_REGS = tt_b_regs(N);
    constexpr unsigned COLUMNS = 8 * N, WORDS = N / 16; // WORDS: product words per lane
    static_assert(tt_rev_words(N) <= COLUMNS, "A's reversed copy shares the columns' space");
    __shared__ __align__(16) uint32_t shared[WARPS][COLUMNS];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t p = (size_t)blockIdx.x * WARPS + warp;
    if (p >= count)
        return;
    const uint32_t *ap = a + p * words, *bp = b + p * words;
    uint32_t *rev = shared[warp];
    for (unsigned q = lane; q < tt_rev_words(N); q += 32) {
        const int i = (int)N + 3 - (int)q;
        rev[q] = i >= 0 && i < (int)words ? __byte_perm(ap[i], 0, 0x0123) : 0;
    }
    uint32_t bt[B_REGS];
#pragma unroll
    for (int u = 0; u < B_REGS; u++) {
        const int i = tt_b_word(u, lane);
        bt[u] = i >= 0 && i < (int)words ? bp[i] : 0;
    }
    __syncwarp();

    uint32_t acc[TILES][4] = {};
    const unsigned shift = 8 * tt_rev_shift(lane);
    const int q0 = tt_rev_q0(N, lane);
#pragma unroll
    for (int d = 0; d <= tt_d_last(N); d++) {
        const uint32_t *r = rev + (q0 - 8 * d);
        const uint32_t at[4] = {__funnelshift_r(r[0], r[1], shift), __funnelshift_r(r[-2], r[-1], shift),
                                __funnelshift_r(r[4], r[5], shift), __funnelshift_r(r[2], r[3], shift)};
#pragma unroll
        for (int t = 0; t < TILES; t++) {
            const int j = 4 * t - d;
            if (tt_live(N, t, j))
                mma_u8(acc[t], at, bt[2 * j + 8], bt[2 * j + 9]);
        }
    }

    // The carry pass. The columns overwrite A's copy once every lane has cut its last tile.
    __syncwarp();
    uint32_t *slots = shared[warp];
#pragma unroll
    for (int t = 0; t < TILES; t++)
#pragma unroll
        for (unsigned i = 0; i < 4; i++)
            slots[tt_column_slot(tt_column(t, lane, i))] = acc[t][i];
    __syncwarp();
    uint32_t out[WORDS];
    uint64_t run = 0;
#pragma unroll
    for (unsigned w = 0; w < WORDS; w++) {
        const uint4 v = *(const uint4 *)&slots[tt_column_slot(lane * (N / 4) + 4 * w)];
        run += v.x + ((uint64_t)v.y << 8) + ((uint64_t)v.z << 16) + ((uint64_t)v.w << 24);
        out[w] = (uint32_t)run;
        run >>= 32;
    }
    // The carry out of the lane below (below 2^20), then one-bit carries by lookahead.
    uint32_t carry = __shfl_up_sync(0xffffffffu, (uint32_t)run, 1);
    carry = lane ? carry : 0;
    out[0] = ptx::add_cc(out[0], carry);
#pragma unroll
    for (unsigned w = 1; w < WORDS; w++)
        out[w] = ptx::addc_cc(out[w], 0);
    const uint32_t generate = ptx::addc(0, 0);
    uint32_t all_ones = out[0];
#pragma unroll
    for (unsigned w = 1; w < WORDS; w++)
        all_ones &= out[w];
    const uint64_t g = __ballot_sync(0xffffffffu, generate),
                   gp = g | __ballot_sync(0xffffffffu, all_ones == 0xffffffffu);
    out[0] = ptx::add_cc(out[0], (uint32_t)(mp::lookahead_carries(g, gp, 0) >> lane) & 1);
#pragma unroll
    for (unsigned w = 1; w < WORDS; w++)
        out[w] = ptx::addc_cc(out[w], 0);

    uint32_t *cp = c + p * 2 * words + lane * WORDS;
    if (words == N && WORDS % 4 == 0) {
#pragma unroll
        for (unsigned w = 0; w < WORDS; w += 4)
            *(uint4 *)(cp + w) = make_uint4(out[w], out[w + 1], out[w + 2], out[w + 3]);
    } else {
#pragma unroll
        for (unsigned w = 0; w < WORDS; w++)
            if (lane * WORDS + w < 2 * words)
                cp[w] = out[w];
    }
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
