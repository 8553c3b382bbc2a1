// thread-rowchain-karatsuba: the subtractive Karatsuba levels inside one thread block (001
// section III, Table I), in shared memory laid out as rowchain_block_layout.cuh says: the
// formation of the |low - high| children from the root down, then, after the leaves, the
// recombination from the leaves up.
#ifndef MPGPU_ROWCHAIN_LEVELS_CUH
#define MPGPU_ROWCHAIN_LEVELS_CUH

#include <stdint.h>

#include "mp_helpers.cuh"
#include "rowchain_block_layout.cuh"

namespace rowchain {

// d = |X - Y| for the h-word values at shared words x and y of product p (h a multiple of
// LEAF), written LEAF words at a time through `put`. The top words decide which is larger, so
// the difference is one borrow chain and never negated. Returns 1 if X < Y.
template <unsigned P, class Put>
__device__ __forceinline__ unsigned abs_diff(const uint32_t *sh, unsigned x, unsigned y,
                                             unsigned h, unsigned p, Put put)
{
    unsigned j = h - 1;
    while (j > 0 && sh[sidx<P>(x + j, p)] == sh[sidx<P>(y + j, p)])
        j--;
    const unsigned x_smaller = sh[sidx<P>(x + j, p)] < sh[sidx<P>(y + j, p)];
    const unsigned big = x_smaller ? y : x, small = x_smaller ? x : y;
    uint32_t borrow = 0;
    for (unsigned blk = 0; blk < h; blk += LEAF) {
        uint32_t u[LEAF], v[LEAF];
#pragma unroll
        for (unsigned i = 0; i < LEAF; i++) {
            u[i] = sh[sidx<P>(big + blk + i, p)];
            v[i] = sh[sidx<P>(small + blk + i, p)];
        }
        borrow = mp::sub_words<LEAF>(u, u, v, borrow);
        put(blk, u);
    }
    return x_smaller;
}

// Formation of the children 2 at depth LEVEL + 1, one thread per node and operand.
// sign[operand][slot][p] records which half was larger, at the first slot of the child's
// value. The last level cannot be left to the leaf threads: their products overwrite the
// halves it reads.
template <unsigned K, unsigned LEVEL>
__device__ __forceinline__ void form_level(uint32_t *sh, unsigned char *sign)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned LEAVES = pow3(K), REGION = LEAVES * LEAF;
    constexpr unsigned NODES = pow3(LEVEL), H = LEAF << (K - LEVEL - 1);
    for (unsigned task = threadIdx.x; task < 2 * NODES * P; task += T) {
        unsigned p = task % P, node = task / P % NODES, operand = task / P / NODES;
        unsigned lo = operand * REGION + node_slot<K, LEVEL>(node) * LEAF;
        unsigned child = node_slot<K, LEVEL + 1>(3 * node + 2);
        unsigned dst = operand * REGION + child * LEAF;
        sign[(operand * LEAVES + child) * P + p] =
            abs_diff<P>(sh, lo, lo + H, H, p, [&](unsigned blk, const uint32_t (&d)[LEAF]) {
#pragma unroll
                for (unsigned i = 0; i < LEAF; i++)
                    sh[sidx<P>(dst + blk + i, p)] = d[i];
            });
    }
}

template <unsigned K, unsigned LEVEL>
__device__ __forceinline__ void form_levels(uint32_t *sh, unsigned char *sign)
{
    if constexpr (LEVEL < K) {
        form_level<K, LEVEL>(sh, sign);
        __syncthreads();
        form_levels<K, LEVEL + 1>(sh, sign);
    }
}

// Segments per recombined node: as many as the block's threads allow, each a whole number of
// column groups (groups is how many the node has).
constexpr unsigned recombine_segments(unsigned spare_threads, unsigned groups)
{
    return spare_threads >= 2 && groups >= 2 && groups % 2 == 0
               ? 2 * recombine_segments(spare_threads / 2, groups / 2)
               : 1;
}

// Recombination of the nodes at depth LEVEL: with L, H, M the products of children 0, 1, 2
// (2h words each) and s = +1 when a_lo - a_hi and b_lo - b_hi have the same sign,
//   Z = L + (L + H - s M) X^h + H X^2h,  X = 2^32.
// Z's words [h, 2h) and [2h, 3h) take the places of H's and L's words [0, h), so both column
// sums run in one pass, each with its own carry, and the carries then ripple into Z's words
// from 2h and 3h on. -M is added as its one's complement, +1 at column h and -1 at column 3h,
// so the column sums stay unsigned. Each group of G columns is read whole before it is written.
//
// With one block per SM (K = 3), the levels near the root have too few nodes to busy its warps
// (a single warp at the root), and recombination took 0.28 of 1.60 ms on an H200 (8192 bits,
// 196608 products). There each node's columns are cut into S segments, a thread each (both
// sums, so no thread reads what another writes), every carry starting from 0. Then each
// segment of Z's words [h, 4h) (S of each sum, and the top h words) takes the carry out of the
// one below, rippling no further than its own end; what would run on (only through words all 0
// or all ones) is added by one thread per node afterwards.
template <unsigned K, unsigned LEVEL>
__device__ __forceinline__ void recombine_level(uint32_t *sh, const unsigned char *sign)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned LEAVES = pow3(K), REGION = LEAVES * LEAF;
    constexpr unsigned NODES = pow3(LEVEL), H = LEAF << (K - LEVEL - 1), G = 8;
    constexpr unsigned S =
        K == FUSED_MAX_LEVELS ? recombine_segments(T / (NODES * P), H / G) : 1;
    constexpr unsigned SEG = H / S, CHAIN = 2 * S + 1; // segments of Z's words [h, 4h)
    // carry_in[k][node * P + p]: the carry into segment k; carry_on: what ran past its end.
    __shared__ signed char carry_in[S > 1 ? CHAIN : 1][S > 1 ? NODES * P : 1];
    __shared__ signed char carry_on[S > 1 ? CHAIN : 1][S > 1 ? NODES * P : 1];
    struct node_of_task {
        unsigned p, node, seg, o0;
    };
    auto node_of = [&](unsigned task) {
        const unsigned node = task / P % NODES;
        const unsigned seg = S == 1 ? 0 : task / P / NODES; // a constant lets S = 1 unroll
        return node_of_task{task % P, node, seg, node_slot<K, LEVEL>(node) * LEAF};
    };
    // Z's words [h, 2h) lie at shared words o0 + h .., and [2h, 4h) at REGION + o0 ..; segment k
    // of the chain starts at shared word chain_start(o0, k).
    auto chain_start = [&](unsigned o0, unsigned k) {
        return k < S ? o0 + H + k * SEG : REGION + o0 + (k - S) * SEG;
    };
    // Adds carry to product p's shared words [i, end); returns what runs past end.
    auto ripple = [&](unsigned p, unsigned i, unsigned end, int64_t carry) {
        for (; carry != 0 && i < end; i++) {
            const int64_t v = (int64_t)sh[sidx<P>(i, p)] + carry;
            sh[sidx<P>(i, p)] = (uint32_t)v;
            carry = v >> 32;
        }
        return carry;
    };
    for (unsigned task = threadIdx.x; task < S * NODES * P; task += T) {
        const node_of_task n = node_of(task);
        const unsigned p = n.p, o0 = n.o0, o1 = o0 + H;
        const unsigned child = node_slot<K, LEVEL + 1>(3 * n.node + 2), o2 = child * LEAF;
        const uint32_t subtract = sign[child * P + p] == sign[(LEAVES + child) * P + p];
        const uint32_t flip = 0u - subtract;
        uint64_t c1 = n.seg == 0 ? (uint64_t)subtract << 32 : 0, c2 = 0;
        for (unsigned j0 = n.seg * SEG; j0 < n.seg * SEG + SEG; j0 += G) {
            uint32_t l0[G], l1[G], h0[G], h1[G], m0[G], m1[G];
#pragma unroll
            for (unsigned j = 0; j < G; j++) {
                l0[j] = sh[sidx<P>(o0 + j0 + j, p)];
                l1[j] = sh[sidx<P>(REGION + o0 + j0 + j, p)];
                h0[j] = sh[sidx<P>(o1 + j0 + j, p)];
                h1[j] = sh[sidx<P>(REGION + o1 + j0 + j, p)];
                m0[j] = sh[sidx<P>(o2 + j0 + j, p)];
                m1[j] = sh[sidx<P>(REGION + o2 + j0 + j, p)];
            }
#pragma unroll
            for (unsigned j = 0; j < G; j++) {
                uint64_t shared_part = (uint64_t)l1[j] + h0[j];
                c1 = (c1 >> 32) + shared_part + l0[j] + (m0[j] ^ flip);
                c2 = (c2 >> 32) + shared_part + h1[j] + (m1[j] ^ flip);
                h0[j] = (uint32_t)c1;
                l1[j] = (uint32_t)c2;
            }
#pragma unroll
            for (unsigned j = 0; j < G; j++) {
                sh[sidx<P>(o1 + j0 + j, p)] = h0[j];
                sh[sidx<P>(REGION + o0 + j0 + j, p)] = l1[j];
            }
        }
        // Sum 0's segment is segment seg of the chain, sum 1's is S + seg; the -1 at column 3h
        // goes with the carry into the top words.
        const int64_t out0 = (int64_t)(c1 >> 32);
        const int64_t out1 = (int64_t)(c2 >> 32) - (n.seg == S - 1 ? subtract : 0);
        if constexpr (S == 1) {
            // Z's words [2h, 4h) are REGION + o0 .. REGION + o0 + 2h. (Through `ripple`, with
            // its bound, this cost 4096 bits 4% on an H200.)
            int64_t carry = out0;
            for (unsigned j = 0; carry != 0; j++) {
                const int64_t v = (int64_t)sh[sidx<P>(REGION + o0 + j, p)] + carry;
                sh[sidx<P>(REGION + o0 + j, p)] = (uint32_t)v;
                carry = v >> 32;
            }
            carry = out1;
            for (unsigned j = H; carry != 0; j++) {
                const int64_t v = (int64_t)sh[sidx<P>(REGION + o0 + j, p)] + carry;
                sh[sidx<P>(REGION + o0 + j, p)] = (uint32_t)v;
                carry = v >> 32;
            }
        } else {
            carry_in[n.seg + 1][n.node * P + p] = (signed char)out0;
            carry_in[S + n.seg + 1][n.node * P + p] = (signed char)out1;
        }
    }
    if constexpr (S > 1) {
        __syncthreads();
        bool ran_on = false;
        for (unsigned task = threadIdx.x; task < S * NODES * P; task += T) {
            const node_of_task n = node_of(task);
            const unsigned q = n.node * P + n.p;
            // This thread's segments of the chain are seg, S + seg and, for seg 0, the top
            // words (2S). A carry nearly always stops in a segment's first word, so the first
            // words are done together, and only a carry left over walks on.
            int64_t carry[3];
#pragma unroll
            for (unsigned m = 0; m < 3; m++) {
                const unsigned k = n.seg + m * S;
                carry[m] = k > 0 && k < CHAIN ? carry_in[k][q] : 0;
                if (k > 0 && k < CHAIN) {
                    const unsigned i = sidx<P>(chain_start(n.o0, k), n.p);
                    const int64_t v = (int64_t)sh[i] + carry[m];
                    sh[i] = (uint32_t)v;
                    carry[m] = v >> 32;
                }
            }
#pragma unroll
            for (unsigned m = 0; m < 3; m++) {
                const unsigned k = n.seg + m * S, i = chain_start(n.o0, k);
                if (k == 0 || k >= CHAIN)
                    continue;
                const unsigned end = k == 2 * S ? REGION + n.o0 + 2 * H : i + SEG;
                const int64_t left = ripple(n.p, i + 1, end, carry[m]);
                if (k + 1 < CHAIN)
                    carry_on[k + 1][q] = (signed char)left;
                ran_on |= left != 0;
            }
        }
        if (__syncthreads_or(ran_on)) {
            for (unsigned task = threadIdx.x; task < NODES * P; task += T) {
                const node_of_task n = node_of(task);
                // Z's words [h, 2h) run on into [2h, 4h).
                for (unsigned k = 2; k < CHAIN; k++) {
                    int64_t left = carry_on[k][task];
                    if (k < S)
                        left = ripple(n.p, chain_start(n.o0, k), n.o0 + 2 * H, left);
                    ripple(n.p, k < S ? REGION + n.o0 : chain_start(n.o0, k),
                           REGION + n.o0 + 2 * H, left);
                }
            }
        }
    }
}

template <unsigned K, int LEVEL>
__device__ __forceinline__ void recombine_levels(uint32_t *sh, const unsigned char *sign)
{
    if constexpr (LEVEL >= 0) {
        recombine_level<K, LEVEL>(sh, sign);
        __syncthreads();
        recombine_levels<K, LEVEL - 1>(sh, sign);
    }
}

} // namespace rowchain

#endif
