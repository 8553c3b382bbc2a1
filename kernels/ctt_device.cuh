// What the three mappings of ctt-vs-ctw share on the device: reading a word of an operand
// (zero past its end, as 003 4.3.1 treats the shorter operand), the carry-lookahead of one
// 32-word addition or subtraction across a warp, and what an integer and a rational
// computation look like to a kernel: the space it reserves, where that space goes, and a
// rational one as its integer steps.
#ifndef MPGPU_CTT_DEVICE_CUH
#define MPGPU_CTT_DEVICE_CUH

#include <stdint.h>

#include "ctt.h"
#include "mp_helpers.cuh"
#include "ptx_carry.cuh"

namespace ctt {

constexpr unsigned full_mask = 0xffffffffu;

__device__ __forceinline__ uint32_t word(const uint32_t *x, uint32_t n, uint32_t i)
{
    return i < n ? x[i] : 0u;
}

// One 32-word step of a sum (SUB false) or difference (SUB true) spread over a warp, a word a
// lane: s is this lane's x +- y, carry_in enters word 0. Returns the lane's word with its
// carry (borrow) applied; *carry_out gets the carry out of word 31. A borrow is generated when
// x < y and passed on when x == y, the corrected condition of 003 4.3.1.
template <bool SUB>
__device__ __forceinline__ uint32_t warp_chunk(uint32_t x, uint32_t y, uint32_t carry_in,
                                               uint32_t *carry_out)
{
    const unsigned lane = threadIdx.x & 31;
    const uint32_t s = SUB ? x - y : x + y;
    const bool g = SUB ? x < y : s < x;
    const bool p = SUB ? x == y : s == 0xffffffffu;
    const uint64_t generate = __ballot_sync(full_mask, g);
    const uint64_t either = __ballot_sync(full_mask, g || p);
    const uint64_t c = mp::lookahead_carries(generate, either, carry_in);
    *carry_out = (uint32_t)(c >> 32) & 1;
    const uint32_t mine = (uint32_t)(c >> lane) & 1;
    return SUB ? s - mine : s + mine;
}

// The kernels are templates over the kind of computation; these say what differs.
__device__ __forceinline__ uint32_t capacity(const mpgpu_ctt_comp &c) { return ctt_result_capacity(&c); }
__device__ __forceinline__ uint32_t capacity(const mpgpu_ctt_qcomp &q) { return ctt_q_capacity(&q); }
__device__ __forceinline__ uint32_t block_scratch(const mpgpu_ctt_comp &c) { return ctt_block_scratch(&c); }
__device__ __forceinline__ uint32_t block_scratch(const mpgpu_ctt_qcomp &q) { return ctt_q_block_scratch(&q); }
__device__ __forceinline__ void place(mpgpu_ctt_comp &c, uint32_t off) { c.r_off = off; }
__device__ __forceinline__ void place(mpgpu_ctt_qcomp &q, uint32_t off) { q.x_off = off; }

// A rational computation placed at q.x_off (003 4.4.2): its integer steps one after another,
// each by the mapping's integer routine `integer(step)`, then `sync()`, since a step reads the
// products (qadd, qsub) that the mapping's other threads wrote in the steps before.
template <class Integer, class Sync>
__device__ void rational(mpgpu_ctt_qcomp &q, Integer integer, Sync sync)
{
    mpgpu_ctt_comp s[CTT_Q_MAX_STEPS];
    const unsigned n = ctt_q_steps(&q, s);
    for (unsigned k = 0; k < n; k++) {
        integer(s[k]);
        sync();
    }
    ctt_q_finish(&q, s, n);
}

} // namespace ctt

#endif
