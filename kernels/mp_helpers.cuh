// Multiword helpers that several kernels share, written on the PTX carry primitives of
// ptx_carry.cuh (as CGBN keeps its arith/ apart from the algorithms of core/). A kernel file
// holds its algorithm; the carry and borrow bookkeeping it has in common with others is here.
#ifndef MPGPU_MP_HELPERS_CUH
#define MPGPU_MP_HELPERS_CUH

#include <stdint.h>

#include "ptx_carry.cuh"

namespace mp {

// d = x - y - borrow over N words in registers; returns the borrow out (000 section 3.3.3:
// carry chains).
template <int N>
__device__ __forceinline__ uint32_t sub_words(uint32_t (&d)[N], const uint32_t (&x)[N],
                                              const uint32_t (&y)[N], uint32_t borrow)
{
    ptx::sub_cc(0u, borrow);
#pragma unroll
    for (int j = 0; j < N; j++)
        d[j] = ptx::subc_cc(x[j], y[j]);
    return ptx::subc(0u, 0u) & 1;
}

// d = |x - y| over N words in registers; returns 1 if x < y. The difference is negated in
// two's complement when it borrowed, without a branch, so a thread's registers stay put.
template <int N>
__device__ __forceinline__ uint32_t abs_diff_words(uint32_t (&d)[N], const uint32_t (&x)[N],
                                                   const uint32_t (&y)[N])
{
    const uint32_t borrow = sub_words<N>(d, x, y, 0);
    const uint32_t flip = 0u - borrow;
    d[0] = ptx::add_cc(d[0] ^ flip, borrow);
#pragma unroll
    for (int j = 1; j < N; j++)
        d[j] = ptx::addc_cc(d[j] ^ flip, 0u);
    return borrow;
}

// ---- Words in 16-byte vectors ------------------------------------------------------------

// x[0 .. N) from the N / 4 vectors at v (N a multiple of 4), one 128-bit load each, from shared
// or device memory: a quarter of the load instructions of word loads.
template <int N>
__device__ __forceinline__ void words_from_vectors(uint32_t (&x)[N], const uint4 *v)
{
    static_assert(N % 4 == 0, "whole vectors");
#pragma unroll
    for (int k = 0; k < N / 4; k++) {
        const uint4 q = v[k];
        x[4 * k] = q.x;
        x[4 * k + 1] = q.y;
        x[4 * k + 2] = q.z;
        x[4 * k + 3] = q.w;
    }
}

// The N / 4 vectors at v from x[0 .. N), one 128-bit store each.
template <int N>
__device__ __forceinline__ void words_to_vectors(uint4 *v, const uint32_t (&x)[N])
{
    static_assert(N % 4 == 0, "whole vectors");
#pragma unroll
    for (int k = 0; k < N / 4; k++)
        v[k] = make_uint4(x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]);
}

// ---- Three-word values --------------------------------------------------------------------

// A value of three words, least significant first: Toom-k's signed interpolation sums
// (mul_toom.cu) and the Collatz kernels' values below 2^96 (000 section 4.4.1).
struct u96 {
    uint32_t w0, w1, w2;
};

// n += x 2^SHIFT and n -= x 2^SHIFT for a 64-bit x, 0 <= SHIFT < 32: one carry chain each.
template <int SHIFT> __device__ __forceinline__ void add_shifted(u96 &n, uint64_t x)
{
    n.w0 = ptx::add_cc(n.w0, (uint32_t)(x << SHIFT));
    n.w1 = ptx::addc_cc(n.w1, (uint32_t)(x >> (32 - SHIFT) % 64));
    n.w2 = ptx::addc(n.w2, SHIFT ? (uint32_t)(x >> (64 - SHIFT) % 64) : 0);
}
template <int SHIFT> __device__ __forceinline__ void sub_shifted(u96 &n, uint64_t x)
{
    n.w0 = ptx::sub_cc(n.w0, (uint32_t)(x << SHIFT));
    n.w1 = ptx::subc_cc(n.w1, (uint32_t)(x >> (32 - SHIFT) % 64));
    n.w2 = ptx::subc(n.w2, SHIFT ? (uint32_t)(x >> (64 - SHIFT) % 64) : 0);
}

// ---- Carries across the lanes of a warp ---------------------------------------------------

// The carries of one addition spread over up to 32 lanes, a word each: carry-lookahead over
// two warp votes, where 000 Algorithm 3 (lines 16-19) moves a carry one lane per step. Bit i of
// `generate` says word i carries out by itself, bit i of `generate_or_propagate` that it does or
// passes a carry on (all ones; all zeros in a difference), and carry_in enters word 0. Bit i of
// the result is the carry into word i and the bit above the top word the carry out: the
// carries of the one addition generate + generate_or_propagate + carry_in.
__device__ __forceinline__ uint64_t lookahead_carries(uint64_t generate,
                                                      uint64_t generate_or_propagate,
                                                      uint32_t carry_in)
{
    return (generate + generate_or_propagate + carry_in) ^ generate ^ generate_or_propagate;
}

// x[0 .. N) += y[0 .. N); returns top + the carry out. Either array may hold a word past the N
// summed (top is then that word of x or of y: the chunk and share sums of the comba-reg
// exchange).
template <int N, int NX, int NY>
__device__ __forceinline__ uint32_t add_words(uint32_t (&x)[NX], const uint32_t (&y)[NY],
                                              uint32_t top)
{
    static_assert(NX >= N && NY >= N, "add_words: fewer words than summed");
    x[0] = ptx::add_cc(x[0], y[0]);
#pragma unroll
    for (int k = 1; k < N; k++)
        x[k] = ptx::addc_cc(x[k], y[k]);
    return ptx::addc(top, 0u);
}

// x = x + spill over R words (R >= 2); returns the carry out of x.
template <int R>
__device__ __forceinline__ uint32_t add_spill(uint32_t (&x)[R], uint64_t spill)
{
    x[0] = ptx::add_cc(x[0], (uint32_t)spill);
    x[1] = ptx::addc_cc(x[1], (uint32_t)(spill >> 32));
#pragma unroll
    for (int q = 2; q < R; q++)
        x[q] = ptx::addc_cc(x[q], 0u);
    return ptx::addc(0u, 0u);
}

template <int R> __device__ __forceinline__ bool all_ones(const uint32_t (&x)[R])
{
    uint32_t v = x[0];
#pragma unroll
    for (int q = 1; q < R; q++)
        v &= x[q];
    return v == 0xffffffffu;
}

// x = x + bit over R words, dropping the carry out.
template <int R> __device__ __forceinline__ void add_bit(uint32_t (&x)[R], uint32_t bit)
{
    x[0] = ptx::add_cc(x[0], bit);
#pragma unroll
    for (int q = 1; q < R; q++)
        x[q] = ptx::addc_cc(x[q], 0u);
}

// The carries between the 2T R-word ranges of a product that T consecutive lanes hold, lane t
// (= lane % T) ranges t (low) and T + t (high), each summed with a spill (what it carries out,
// below 2^64) into the next range: split-rowchain and [pair|quad|octo]-comba-reg. The spills
// move one lane up by shuffles (range T - 1's into range T, lane 0's high), each range adds the
// one it receives, which can carry out of it once more, but only if the range is not then all
// ones, and those carries are resolved at once by lookahead over ballots. When no range of the
// warp carried out (random operands all but always), no carry moves, and one vote skips the
// lookahead: its ballots, arithmetic and additions are the last dependent chain of every warp,
// and at 10240 products on an H200 the skip took quad-comba-reg at 512 bits from 4.32-4.42 to
// 4.06-4.19 us and octo-comba-reg at 1024 bits from 6.21-6.27 to 6.08-6.18 (three rounds of one
// run of both builds, docs/000-mul.md). No carry may leave range 2T - 1 (the product fits): none
// crosses into the next product's lanes. Every lane of the warp must take part.
template <int R, int T>
__device__ __forceinline__ void resolve_range_carries(uint32_t (&low)[R], uint32_t (&high)[R],
                                                      uint64_t low_spill, uint64_t high_spill)
{
    static_assert((T & (T - 1)) == 0 && T <= 32, "T lanes of a warp a product");
    const unsigned t = threadIdx.x % T, from = (t + T - 1) % T;
    const uint64_t in_low = __shfl_sync(0xffffffffu, low_spill, from, T);
    const uint64_t in_high = __shfl_sync(0xffffffffu, high_spill, from, T);
    const uint32_t g_low = add_spill<R>(low, t ? in_low : 0);
    const uint32_t g_high = add_spill<R>(high, t ? in_high : in_low);
    if (!__any_sync(0xffffffffu, g_low | g_high))
        return;
    const unsigned shift = threadIdx.x % 32 / T * T;
    const uint64_t mask = T == 32 ? 0xffffffffu : (1ull << T) - 1;
    const uint64_t gen = (__ballot_sync(0xffffffffu, g_low) >> shift & mask) |
                         (__ballot_sync(0xffffffffu, g_high) >> shift & mask) << T;
    const uint64_t prop = (__ballot_sync(0xffffffffu, all_ones<R>(low)) >> shift & mask) |
                          (__ballot_sync(0xffffffffu, all_ones<R>(high)) >> shift & mask) << T;
    const uint64_t carries = lookahead_carries(gen, gen | prop, 0);
    add_bit<R>(low, (uint32_t)(carries >> t) & 1);
    add_bit<R>(high, (uint32_t)(carries >> (T + t)) & 1);
}

} // namespace mp

#endif
