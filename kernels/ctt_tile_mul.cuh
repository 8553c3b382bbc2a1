// auto's tile bin, beyond 003: the column sums of one long product by a block, each thread
// summing CTT_TILE_COLS columns at a time in registers, folded so that every thread gets as
// many word products (ctt_tile_shape.h explains the fold; cpu_ref/ctt_tile_mul_model.c is the
// CPU model that the cpu suite checks against GMP, step for step the code below).
//
// Why it is faster than the product scanning of ctt_block.cu's block_mul: the operands come
// from shared memory as 128-bit loads (a window of 16 words of b and 8 words of a serve 64 word
// products), a thread writes its columns once, where block_mul writes three words a column to
// global memory and reads two back, and a row of a tile is a row chain (000 Algorithm 1, as
// thread-rowchain-karatsuba's block leaf had until issue 39): each word product one
// IMAD.WIDE.U32 t = x y_j + (acc_j + hi(t_prev)), whose sum never passes 2^64 - 1, plus the add
// of two words, so no carry flag links the rows and ptxas overlaps them. In the SASS of the loop
// that is 3.4 instructions a word product (the IMAD.WIDE, an IADD3, the carry word as IMAD.X,
// and moves), where the mad.lo.cc / madc.hi.cc chains of fixed::mad_row take 4.5 (each link an
// IMAD and an IADD3.X); on the H200, 8192 products of 512 words, 0.537 ms against 0.572 ms with
// mad_row.
#ifndef MPGPU_CTT_TILE_MUL_CUH
#define MPGPU_CTT_TILE_MUL_CUH

#include <stdint.h>

#include "ctt_tile_shape.h"
#include "mp_helpers.cuh"
#include "ptx_carry.cuh"

namespace ctt_tile {

constexpr uint32_t C = CTT_TILE_COLS;

// Words [at, at + N) of shared memory into registers, 4 at a time (at and N multiples of 4).
template <int N>
__device__ __forceinline__ void load_words(uint32_t (&w)[N], const uint32_t *at)
{
    mp::words_from_vectors<N>(w, reinterpret_cast<const uint4 *>(at));
}

// acc[0..C + 2) += x * y[0..C): one row of a tile. The row's top word hi(t) goes to acc[C],
// its carry to acc[C + 1] (a tile's sum has C + 2 words).
__device__ __forceinline__ void row(uint32_t (&acc)[C + 2], uint32_t x, const uint32_t *y)
{
    uint64_t t = (uint64_t)x * y[0] + acc[0];
    acc[0] = (uint32_t)t;
#pragma unroll
    for (uint32_t j = 1; j < C; j++) {
        t = (uint64_t)x * y[j] + ((uint64_t)acc[j] + (uint32_t)(t >> 32));
        acc[j] = (uint32_t)t;
    }
    acc[C] = ptx::add_cc(acc[C], (uint32_t)(t >> 32));
    acc[C + 1] = ptx::addc(acc[C + 1], 0u);
}

// The tiles of r[0..na + nb) = a * b (na, nb >= 1) by the block: r gets every tile's column
// words, and the returned shared array the two overflow words of each tile, which the caller
// adds (ctt_tile_overflow gives word i of that addend). `smem` holds
// ctt_tile_shared_words(longer) words, 16-byte aligned. Ends with the block synchronized.
template <int THREADS>
__device__ const uint32_t *columns(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                                   uint32_t nb, uint32_t *smem)
{
    if (na > nb) {
        const uint32_t *t = a;
        const uint32_t nt = na;
        a = b, na = nb, b = t, nb = nt;
    }
    const uint32_t f = ctt_tile_fold(nb), tiles = f / C, blocks = ctt_tile_row_blocks(na);
    const uint32_t n = na + nb;
    uint32_t *as = smem, *ys = as + blocks * C, *ov = ys + f + 2 * C;
    for (uint32_t k = threadIdx.x; k < blocks * C; k += THREADS)
        as[k] = k < na ? a[k] : 0u;
    for (uint32_t k = threadIdx.x; k < f + 2 * C; k += THREADS)
        ys[k] = k >= C && k - C < nb ? b[k - C] : 0u;
    __syncthreads();
    for (uint32_t t = threadIdx.x; t < tiles; t += THREADS) {
        const uint32_t low_steps = ctt_tile_low_steps(t, blocks), steps = ctt_tile_steps(t, blocks);
        uint32_t acc[C + 2];
#pragma unroll
        for (uint32_t c = 0; c < C + 2; c++)
            acc[c] = 0;
#pragma unroll 1
        for (uint32_t s = 0; s < steps; s++) {
            const bool high = s >= low_steps;
            const uint32_t rb = ctt_tile_row_block(s, low_steps);
            uint32_t w[2 * C], x[C];
            load_words(w, ys + ctt_tile_window(t, rb, high, f));
            load_words(x, as + C * rb);
#pragma unroll
            for (uint32_t u = 0; u < C; u++)
                row(acc, x[u], w + C - u);
            if (s + 1 == low_steps || s + 1 == steps)
                ctt_tile_flush(r, ov, acc, high ? tiles + t : t, n);
        }
    }
    __syncthreads();
    return ov;
}

} // namespace ctt_tile

#endif
