// The tensor-core product of one warp (issue 13): kernels/mul_tensor_toeplitz.cu says why it
// is built this way, kernels/tensor_toeplitz_plan.h gives its tiles, cpu_ref/
// tensor_toeplitz_ref.c is its twin. warp-tensor-toeplitz runs it once per warp;
// warp-tensor-karatsuba runs it at the leaves of Karatsuba (issue 39).
#ifndef MPGPU_TENSOR_TOEPLITZ_CUH
#define MPGPU_TENSOR_TOEPLITZ_CUH

#include <stddef.h>
#include <stdint.h>

#include "mp_helpers.cuh"
#include "tensor_toeplitz_plan.h"

namespace tensor_toeplitz {

// D += A X for one 16x8 tile (PTX ISA: mma.m16n8k32, .row.col, u8 x u8 + s32).
__device__ __forceinline__ void mma_u8(uint32_t (&acc)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// c[0, 2 words) = a[0, words) * b[0, words) by the calling warp, words <= N (the operands are
// padded to N words with zeros). `shared` is the warp's own 8 N words of shared memory; c is
// 16-byte aligned when words == N. On return the lanes may still be reading `shared` and the
// product's words are written by their lanes: a caller that reuses either first syncs the warp.
// The operands are not __restrict__: warp-tensor-karatsuba's are written earlier in the same
// kernel, which the read-only cache path would not see.
template <unsigned N>
__device__ __forceinline__ void product(const uint32_t *ap, const uint32_t *bp, uint32_t *cp,
                                        unsigned words, uint32_t *shared)
{
    constexpr int TILES = tt_tiles(N), B_REGS = tt_b_regs(N);
    constexpr unsigned COLUMNS = 8 * N, WORDS = N / 16; // WORDS: product words per lane
    static_assert(tt_rev_words(N) <= COLUMNS, "A's reversed copy shares the columns' space");
    const unsigned lane = threadIdx.x % 32;
    uint32_t *rev = shared;
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
    uint32_t *slots = shared;
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

    cp += lane * WORDS;
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

} // namespace tensor_toeplitz

#endif
