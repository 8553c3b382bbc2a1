// Sum-rotate multiplication (000 section 3.3.1, Algorithm 3; 001 section IV, Algorithm 3): one
// warp of 32 lanes multiplies two 1024-bit numbers, lane i holding a_i and b_i. Each row j
// broadcasts b_j, every lane adds a_i * b_j into its column, and the low words rotate one lane
// right, so lane 0 finishes column j and hands it, through lane 31, to the rotating register c'.
// After 32 rows lane i holds c_i in c' and the unpropagated column i + 32 in {u, v}; a warp vote
// loop (lines 16-19) resolves the remaining carries, and lane i stores c_i and c_{i+32}.
//
// This header holds the pieces other kernels reuse:
//  - the exchange policies: warp shuffles (000 Table 3.3 "one warp with warp shuffle functions")
//    or shared memory (000 Table 3.3 "one warp with shared memory"), same algorithm;
//  - the rows of Algorithm 3 (lines 5-15) and its carry loop (lines 16-19);
//  - the product of a segment of fewer than 32 lanes (000 section 3.4: several small products
//    share one warp);
//  - the Comba method over 1024-bit blocks for larger operands (000 section 3.3.2: "each warp
//    sequentially performs Comba method by repeating sum-rotate multiplication");
//  - sumrotate_mul_warp, the entry point the Toom-k kernels call.
//
// Operand and product pointers carry no __restrict__ and are read with plain loads: Karatsuba
// and Toom-k pass operands they wrote earlier in the same kernel, which must not be read
// through the read-only (non-coherent) path.
#ifndef MPGPU_SUMROTATE_CUH
#define MPGPU_SUMROTATE_CUH

#include <stdint.h>

#include "ptx_carry.cuh"

namespace sumrotate {

// One warp handles one 1024-bit block: one word per lane (000 section 3.3.1: w = 32).
constexpr unsigned BLOCK_WORDS = 32;
constexpr unsigned FULL_MASK = 0xffffffffu;

// The lanes [base, base + width) of a warp that compute one product together; rank is this
// lane's index inside them. A full warp is the segment {0, 32}.
struct Segment {
    unsigned mask, base, width, rank;
    unsigned right_src, left_src; // the lanes rank + 1 and rank - 1, circularly (000 Fig. 2.6, 2.7)
    bool last;                    // rank == width - 1: the lane that takes over c' (line 10)

    __device__ __forceinline__ Segment(unsigned base_, unsigned width_, unsigned rank_)
        : mask(width_ == 32 ? FULL_MASK : ((1u << width_) - 1) << base_), base(base_),
          width(width_), rank(rank_),
          right_src(base_ + (rank_ + 1 == width_ ? 0 : rank_ + 1)),
          left_src(base_ + (rank_ == 0 ? width_ - 1 : rank_ - 1)), last(rank_ + 1 == width_)
    {
    }
};

// Data exchange by warp shuffles: broadcast (line 6), right circular shift (lines 8-9) and left
// circular shift (line 17) are each one shfl (001 section II, Fig. 2).
struct ShuffleExchange {
    Segment seg;
    uint32_t b; // this lane's word of the multiplier block being broadcast

    __device__ __forceinline__ explicit ShuffleExchange(const Segment &s) : seg(s), b(0) {}

    __device__ __forceinline__ void set_multiplier(uint32_t word) { b = word; }
    __device__ __forceinline__ uint32_t broadcast_multiplier(unsigned j) const
    {
        return __shfl_sync(seg.mask, b, seg.base + j);
    }
    __device__ __forceinline__ void rotate_right(uint32_t &v, uint32_t &c)
    {
        v = __shfl_sync(seg.mask, v, seg.right_src);
        c = __shfl_sync(seg.mask, c, seg.right_src);
    }
    __device__ __forceinline__ uint32_t rotate_left(uint32_t u)
    {
        return __shfl_sync(seg.mask, u, seg.left_src);
    }
    __device__ __forceinline__ bool any(bool p) const { return __any_sync(seg.mask, p); }
    __device__ __forceinline__ void sync() const { __syncwarp(seg.mask); }
};

// The same exchanges through shared memory (000 Table 3.3, "one warp with shared memory"):
// every lane writes its word to its own slot and reads the slot of the lane it needs. The
// multiplier block is written once per block and read back row by row; the rotations alternate
// between two buffers, so one __syncwarp per rotation suffices (the next write to a buffer comes
// after the following rotation's barrier, which every reader of the buffer has passed).
struct SharedExchange {
    // Words of shared memory one warp needs: the multiplier block, then two buffers for v (and
    // u in the carry loop), then two for c'.
    static constexpr unsigned WORDS = 5 * 32;
    Segment seg;
    uint32_t *buf;
    unsigned parity; // 0 or 32: which buffer of each pair the next rotation uses

    // buf: WORDS words of shared memory owned by this warp.
    __device__ __forceinline__ SharedExchange(const Segment &s, uint32_t *buf_)
        : seg(s), buf(buf_), parity(0)
    {
    }

    __device__ __forceinline__ void set_multiplier(uint32_t word)
    {
        __syncwarp(seg.mask); // every lane has read the previous block's words
        buf[seg.base + seg.rank] = word;
        __syncwarp(seg.mask);
    }
    __device__ __forceinline__ uint32_t broadcast_multiplier(unsigned j) const
    {
        return buf[seg.base + j];
    }
    __device__ __forceinline__ void rotate_right(uint32_t &v, uint32_t &c)
    {
        uint32_t *rv = buf + 32 + parity, *rc = buf + 96 + parity;
        parity ^= 32;
        rv[seg.base + seg.rank] = v;
        rc[seg.base + seg.rank] = c;
        __syncwarp(seg.mask);
        v = rv[seg.right_src];
        c = rc[seg.right_src];
    }
    __device__ __forceinline__ uint32_t rotate_left(uint32_t u)
    {
        uint32_t *ru = buf + 32 + parity;
        parity ^= 32;
        ru[seg.base + seg.rank] = u;
        __syncwarp(seg.mask);
        return ru[seg.left_src];
    }
    __device__ __forceinline__ bool any(bool p) const { return __any_sync(seg.mask, p); }
    __device__ __forceinline__ void sync() const { __syncwarp(seg.mask); }
};

// 000 Algorithm 3, lines 5-15: `rows` rows of the segment. `a` is this lane's multiplicand word,
// the multiplier words are broadcast from the exchange. On entry {u, v} is the lane's pending
// value at column rank (relative to the block); on exit c' holds the finished column rank and
// {u, v} the pending value at column rank + rows. ROWS = 32 unrolls a full-warp block; ROWS = 0
// takes the row count at run time (segments narrower than a warp).
//
// Bounds: a * b' + {u, v} < 2^65, so t is one bit; after line 14 {u, v} < 3 * 2^32 whatever
// {u, v} was on entry (below 2^64), so u <= 2 on exit.
template <unsigned ROWS, class Exchange>
__device__ __forceinline__ void rows(Exchange &x, uint32_t a, unsigned rows_rt, uint32_t &u,
                                     uint32_t &v, uint32_t &c_prime)
{
    const unsigned n = ROWS ? ROWS : rows_rt;
#pragma unroll
    for (unsigned j = 0; j < n; j++) {
        uint32_t b_j = x.broadcast_multiplier(j);              // line 6
        uint32_t t = 0;
        ptx::mac3(t, u, v, a, b_j);                            // line 7: {t, u, v} = a b' + {u, v}
        uint32_t v_in = v;
        x.rotate_right(v_in, c_prime);                         // lines 8-9
        c_prime = x.seg.last ? v_in : c_prime;                 // lines 10-12, as selects
        v_in = x.seg.last ? 0 : v_in;
        v = ptx::add_cc(u, v_in);                              // line 14: {u, v} = {t, u} + v
        u = ptx::addc(t, 0);
    }
}

// 000 Algorithm 3, lines 16-19: {u, v} of lane i is the pending value at column i of the top
// half; carries move one lane left per iteration until the warp vote finds none. The top lane's
// u is zero (the product fits), so the circular shift brings zero into lane 0, and after
// iteration k only lanes >= k can hold a carry: at most width - 1 iterations.
template <class Exchange>
__device__ __forceinline__ void carry_loop(Exchange &x, uint32_t &u, uint32_t &v)
{
    while (x.any(u != 0)) {
        uint32_t u_in = x.rotate_left(u); // line 17
        v = ptx::add_cc(v, u_in);         // line 18: {u, v} = u + v
        u = ptx::addc(0, 0);
    }
}

// c[0 .. 2w) = a[0 .. w) * b[0 .. w) by the `w` lanes of one segment, w <= 32 (000 Algorithm 3
// with w lanes; 000 section 3.4 for w < 32). Lane rank loads a_rank, b_rank and stores c_rank
// and c_{rank+w}: consecutive segments hold consecutive products, so the warp's loads and
// stores are coalesced.
template <class Exchange>
__device__ __forceinline__ void mul_segment(Exchange &x, const uint32_t *a, const uint32_t *b,
                                            uint32_t *c, unsigned w)
{
    const unsigned i = x.seg.rank;
    uint32_t u = 0, v = 0, c_prime = 0;
    x.set_multiplier(b[i]);
    if (w == BLOCK_WORDS)
        rows<BLOCK_WORDS>(x, a[i], w, u, v, c_prime);
    else
        rows<0>(x, a[i], w, u, v, c_prime);
    carry_loop(x, u, v);
    c[i] = c_prime;
    c[i + w] = v;
}

// c[0 .. 2w) = a[0 .. w) * b[0 .. w) by one full warp, any w >= 1: the Comba method over
// 1024-bit blocks (000 section 3.3.2), each block product a sum-rotate pass.
//
// The operands are n = ceil(w / 32) blocks, padded with zero words in registers (never read
// beyond w). Block column s collects the block products A_k B_{s-k}. The first pass of a column
// starts from the pending state the previous column left, {u, v} at column 32 s + lane; each
// pass leaves the column's 32 low words exact in c' (carries already pushed into {u, v}), which
// the next pass of the column takes as its starting v, and its pending top half {u, v}, which is
// summed per lane into hi (at most n sums of values below 3 * 2^32: hi < 2^40, two words). hi is
// the pending state of the next column. The last column's hi goes through the carry loop once.
// Lane i stores word 32 s + i of each column: coalesced, and never beyond 2w.
template <class Exchange>
__device__ void mul_blocks(Exchange &x, const uint32_t *a, const uint32_t *b, uint32_t *c,
                           unsigned w)
{
    const unsigned lane = x.seg.rank, n = (w + BLOCK_WORDS - 1) / BLOCK_WORDS;
    uint32_t pending_u = 0, pending_v = 0;
    for (unsigned s = 0; s + 1 < 2 * n; s++) {
        const unsigned k_lo = s < n ? 0 : s - n + 1, k_hi = s < n ? s : n - 1;
        uint32_t lo = 0, hi_u = 0, hi_v = 0;
        for (unsigned k = k_lo; k <= k_hi; k++) {
            const unsigned ia = k * BLOCK_WORDS + lane, ib = (s - k) * BLOCK_WORDS + lane;
            uint32_t a_word = ia < w ? a[ia] : 0;
            x.set_multiplier(ib < w ? b[ib] : 0);
            uint32_t u = k == k_lo ? pending_u : 0, v = k == k_lo ? pending_v : lo;
            rows<BLOCK_WORDS>(x, a_word, BLOCK_WORDS, u, v, lo);
            hi_v = ptx::add_cc(hi_v, v);
            hi_u = ptx::addc(hi_u, u);
        }
        const unsigned ic = s * BLOCK_WORDS + lane;
        if (ic < 2 * w)
            c[ic] = lo;
        pending_u = hi_u;
        pending_v = hi_v;
    }
    carry_loop(x, pending_u, pending_v);
    const unsigned ic = (2 * n - 1) * BLOCK_WORDS + lane;
    if (ic < 2 * w)
        c[ic] = pending_v;
}

} // namespace sumrotate

// One warp computes c[0..2w) = a[0..w) * b[0..w), w a multiple of 32 words, 32 <= w <= 2048;
// a, b, c are contiguous word arrays in global memory (c must not overlap a or b);
// all 32 lanes of the warp call it together.
//
// SHUFFLE selects the exchange: warp shuffles (true) or shared memory (false). The shared
// variant uses a static buffer of SharedExchange::WORDS words per warp for up to 32 warps per
// block (20 KiB of shared memory in every kernel that instantiates it). The call begins and ends
// with __syncwarp(), so operands the warp just wrote are visible to it, and the product is
// visible to every lane of the warp on return (other warps need their own synchronisation).
template <bool SHUFFLE>
__device__ void sumrotate_mul_warp(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned w)
{
    const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const sumrotate::Segment warp(0, 32, tid % 32);
    __syncwarp();
    if constexpr (SHUFFLE) {
        sumrotate::ShuffleExchange x(warp);
        sumrotate::mul_blocks(x, a, b, c, w);
    } else {
        __shared__ uint32_t buf[32][sumrotate::SharedExchange::WORDS];
        sumrotate::SharedExchange x(warp, buf[tid / 32]);
        sumrotate::mul_blocks(x, a, b, c, w);
    }
    __syncwarp();
}

#endif
