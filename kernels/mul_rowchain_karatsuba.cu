// thread-rowchain-karatsuba: subtractive Karatsuba (001 section III, Table I) inside one
// thread block, over 32-word leaf products that each thread computes in registers, itself by
// one more Karatsuba level over three 16x16-word operand-scanning row chains (000 Algorithm 1).
//
// Why this shape (GPU.md gives the Hopper ceilings; 001 Table II measured the papers' GPUs):
// - A row-chain word product is one IMAD.WIDE.U32 t = a_j * b_i + (r + hi(t_prev)) plus one
//   add of two words; the sum never exceeds (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1, so no
//   carry flag crosses the rows and the unrolled rows overlap freely. Measured on an H200 at
//   1024 bits, this ran 21% faster than mad.lo.cc / madc.hi.cc chains (4.5e9 against 3.7e9).
// - The schoolbook IMAD limit (GPU.md: 8.4e12 / w^2 products/s) is 5.1e8 at 4096 bits, near the
//   4e8 target, so every size above 1024 bits runs 1-3 Karatsuba levels; |a_lo - a_hi| and
//   |b_lo - b_hi| with a sign keep every sub-product exactly half size. 001 section III found
//   Karatsuba's extra memory traffic the obstacle; here every level stays in shared memory.
// - Above 8192 bits the problems split in device memory, one Karatsuba level per kernel pair,
//   until the sub-problems are 256 words (8192 bits).
// - Operands and products are word-major (A[i * count + p]): lanes are products, so loads and
//   stores move whole 128-byte rows.
#include "mul.h"

#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "ptx_carry.cuh"

namespace {

constexpr unsigned LEAF = 32;           // words per leaf operand
constexpr unsigned FUSED_MAX_LEVELS = 3; // 3^3 leaves x 256 B per product fit in shared memory

constexpr unsigned pow3(unsigned e) { return e == 0 ? 1 : 3 * pow3(e - 1); }

// c[0 .. 2N) = a * b by operand scanning: row i adds a * b_i into the window r of words
// i .. i + N; word i is final after row i and leaves at once.
template <int N, class LoadB, class StoreC>
__device__ __forceinline__ void rowchain_product(const uint32_t (&a)[N], LoadB load_b,
                                                 StoreC store_c)
{
    uint32_t r[N];
#pragma unroll
    for (int j = 0; j < N; j++)
        r[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        uint32_t b = load_b(i);
        uint64_t t = (uint64_t)a[0] * b + r[0];
        store_c(i, (uint32_t)t);
#pragma unroll
        for (int j = 1; j < N; j++) {
            uint64_t x = (uint64_t)r[j] + (uint32_t)(t >> 32);
            t = (uint64_t)a[j] * b + x;
            r[j - 1] = (uint32_t)t;
        }
        r[N - 1] = (uint32_t)(t >> 32);
    }
#pragma unroll
    for (int j = 0; j < N; j++)
        store_c(N + j, r[j]);
}

// ---- Karatsuba inside one thread block ----------------------------------------------------
//
// A problem of LEAF << K words has 3^K leaves, one per path of K digits (0: low halves,
// 1: high halves, 2: |low - high|). Each operand owns 3^K slots of LEAF words in shared memory.
// Slots are grouped by which digits of the path are 2 (a bit mask, groups in mask order), and
// ordered within a group by the remaining 0/1 digits read as a binary number. Then every node
// of the tree has its value in consecutive slots: the root (mask 0) is the operand itself, a
// node's low and high halves are its children 0 and 1, and its child 2 lies in the group with
// one more bit. A leaf's product replaces its operands (low half in the a slot, high half in
// the b slot), and each level of recombination does the same one level up, so nothing else is
// stored: 256 B per leaf, which is what bounds the products per SM.

// Products per block, threads per block and registers per thread. Each of the SM's 4
// schedulers holds 16384 registers for the warps it is given (round robin), which caps the
// registers: 18 warps put 5 on one scheduler (96 registers), 16 or fewer put 4 (128).
// K = 0, 1, 2: several blocks share an SM, so one block's formation and recombination overlap
// another's leaves. K = 3: one block of 32 products fills shared memory (221 KB); its 16 warps
// take the 864 leaves (27 warps' worth) in two rounds, 7, 7, 7 and 6 on the four schedulers,
// where 14 warps gave one scheduler 8 and left the others waiting at the barrier. Measured on
// an H200 at 8192 bits, 2^20 products: two blocks of 16 products per SM 7.5e7/s (two phases'
// code at once also missed the instruction cache), one block of 32 with 9 warps 1.0e8/s, with
// 14 warps 1.18e8/s, with 16 warps (and recombine_level's segments) 1.30e8/s.
template <unsigned K> struct fused_shape;
template <> struct fused_shape<0> {
    static constexpr unsigned P = 128, THREADS = 128, REGS = 128;
};
template <> struct fused_shape<1> {
    static constexpr unsigned P = 32, THREADS = 96, REGS = 128;
};
template <> struct fused_shape<2> {
    static constexpr unsigned P = 32, THREADS = 288, REGS = 96;
};
template <> struct fused_shape<3> {
    static constexpr unsigned P = 32, THREADS = 512, REGS = 128;
};

// Shared-memory word index of word i (slot i / LEAF) of product p: a warp's lanes are
// consecutive products of one word, so they hit distinct banks.
template <unsigned P> __device__ __forceinline__ unsigned sidx(unsigned i, unsigned p)
{
    return i * P + p;
}

// First slot of the group of leaves whose paths have 2s exactly where `mask` has bits: the
// group sizes 2^(K - popcount(m)) of the smaller masks m, summed at compile time and packed
// one byte per mask (3^3 < 256).
template <unsigned K> constexpr uint64_t group_slot_table()
{
    uint64_t table = 0, slot = 0;
    for (unsigned m = 0; m < (1u << K); m++) {
        table |= slot << (8 * m);
        slot += 1u << (K - __builtin_popcount(m));
    }
    return table;
}

template <unsigned K> __device__ __forceinline__ unsigned group_slot(unsigned mask)
{
    return (unsigned)(group_slot_table<K>() >> (8 * mask)) & 0xff;
}

// First slot of the value of node `node` (base-3 digits of the path, most significant first)
// at depth LEVEL; the value spans 2^(K - LEVEL) slots.
template <unsigned K, unsigned LEVEL> __device__ __forceinline__ unsigned node_slot(unsigned node)
{
    unsigned mask = 0, bin = 0;
#pragma unroll
    for (unsigned d = 0; d + 1 <= LEVEL; d++) {
        unsigned digit = node / pow3(LEVEL - 1 - d) % 3;
        if (digit == 2)
            mask |= 1u << d;
        else
            bin = 2 * bin + digit;
    }
    return group_slot<K>(mask) + (bin << (K - LEVEL));
}

// d = x - y - borrow over N words; returns the borrow out (000 section 3.3.3: carry chains).
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
        borrow = sub_words<LEAF>(u, u, v, borrow);
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

// d = |x - y| over N words in registers; returns 1 if x < y. The difference is negated in
// two's complement when it borrowed.
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

// A leaf's 32x32-word product, in place, by one more Karatsuba level inside the thread: three
// 16x16-word row-chain products M = |a0 - a1| |b0 - b1|, L = a0 b0, H = a1 b1 take a quarter
// fewer IMAD.WIDE than the 32x32 row chain (GPU.md: IMAD issue limit). Measured on an H200,
// 2^20 products: 1024 bits 4.7e9/s against 4.3e9/s, 4096 bits 4.04e8/s against 3.94e8/s
// with the 32x32 row chain as the leaf. The leaf's own slots hold what does not fit in
// registers: M in the a slot once a is in registers, then P = L + X^16 (L -+ M) (X = 2^32)
// across both slots once b0 is used, and finally Z = P + X^16 H + X^32 H.
template <unsigned P>
__device__ __forceinline__ void karatsuba_leaf(uint32_t *sh, unsigned ra, unsigned rb, unsigned p)
{
    constexpr int N = LEAF / 2;
    // Slot positions: product word q lives at a slot word q (q < 2N), else b slot word q - 2N.
    auto at = [&](unsigned q) { return sidx<P>(q < 2 * N ? ra + q : rb + q - 2 * N, p); };
    uint32_t db[N], sb;
    {
        uint32_t b0[N], b1[N];
#pragma unroll
        for (int j = 0; j < N; j++) {
            b0[j] = sh[sidx<P>(rb + j, p)];
            b1[j] = sh[sidx<P>(rb + N + j, p)];
        }
        sb = abs_diff_words<N>(db, b0, b1);
    }
    uint32_t a0[N], a1[N], da[N];
#pragma unroll
    for (int j = 0; j < N; j++) {
        a0[j] = sh[sidx<P>(ra + j, p)];
        a1[j] = sh[sidx<P>(ra + N + j, p)];
    }
    const bool subtract = abs_diff_words<N>(da, a0, a1) == sb;
    rowchain_product<N>(
        da, [&](unsigned i) { return db[i]; },
        [&](unsigned q, uint32_t v) { sh[sidx<P>(ra + q, p)] = v; });

    int64_t carry = 0; // P's signed top, at column 3N
    {
        uint32_t l[2 * N], m[2 * N];
        rowchain_product<N>(
            a0, [&](unsigned i) { return sh[sidx<P>(rb + i, p)]; },
            [&](unsigned q, uint32_t v) { l[q] = v; });
#pragma unroll
        for (int q = 0; q < 2 * N; q++)
            m[q] = sh[sidx<P>(ra + q, p)];
#pragma unroll
        for (int q = 0; q < 3 * N; q++) {
            if (q >= N) {
                int64_t mq = m[q - N];
                carry += (int64_t)l[q - N] + (q < 2 * N ? l[q] : 0u) + (subtract ? -mq : mq);
            } else {
                carry = l[q];
            }
            sh[at(q)] = (uint32_t)carry;
            carry = q >= N ? carry >> 32 : 0;
        }
    }
    uint32_t h[2 * N];
    rowchain_product<N>(
        a1, [&](unsigned i) { return sh[sidx<P>(rb + N + i, p)]; },
        [&](unsigned q, uint32_t v) { h[q] = v; });
    int64_t z = 0;
#pragma unroll
    for (int q = N; q < 4 * N; q++) {
        z += q < 3 * N ? (int64_t)sh[at(q)] + h[q - N] : (q == 3 * N ? carry : 0);
        if (q >= 2 * N)
            z += h[q - 2 * N];
        sh[at(q)] = (uint32_t)z;
        z >>= 32;
    }
}

// One thread per leaf product, in place.
template <unsigned K> __device__ __forceinline__ void leaf_products(uint32_t *sh)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned LEAVES = pow3(K), REGION = LEAVES * LEAF;
    for (unsigned task = threadIdx.x; task < LEAVES * P; task += T) {
        const unsigned p = task % P, slot = task / P;
        karatsuba_leaf<P>(sh, slot * LEAF, REGION + slot * LEAF, p);
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

// ---- Operand views ------------------------------------------------------------------------
//
// Above 8192 bits the problems split in device memory (see below). Of a problem's three
// sub-problems only |low - high| is new data; the halves are read where they already are, in
// the caller's operands or in a parent's difference. Not copying them cut the split's writes
// by two thirds. Problem q of level j (0 <= q < 3^j count) is sub-problem u = q / n of its
// parent q mod n at level j - 1 (n = 3^(j-1) count), so a problem's operand is found by
// walking up from it: words [u h_j, (u + 1) h_j) of the parent for u = 0, 1, and the parent's
// stored difference for u = 2.

constexpr unsigned MAX_DEVICE_LEVELS = 8;

struct level_chain {
    const uint32_t *a, *b; // level 0: count problems of w words each (zero above w)
    size_t count;
    unsigned w;
    // diff[j], j >= 1: |low - high| of the 3^(j-1) count problems of level j - 1, h[j] words
    // of operand a (word i of problem q at [i * 3^(j-1) count + q]), then as many of b.
    const uint32_t *diff[MAX_DEVICE_LEVELS + 1];
    unsigned h[MAX_DEVICE_LEVELS + 1];
};

// Word i of a problem's operands is a[i * stride], b[i * stride]; words from `valid` on are 0.
struct operand_view {
    const uint32_t *a, *b;
    size_t stride;
    unsigned valid;
};

__device__ operand_view view_of(const level_chain &ch, unsigned level, size_t q)
{
    size_t n = ch.count; // problems of level j - 1
    for (unsigned j = 1; j < level; j++)
        n *= 3;
    unsigned offset = 0;
    for (unsigned j = level; j > 0; j--, n /= 3) {
        const unsigned u = q >= 2 * n ? 2 : q >= n; // q / n, without a 64-bit division
        q -= u * n;
        if (u == 2) {
            const uint32_t *d = ch.diff[j] + (size_t)offset * n + q;
            return {d, d + (size_t)ch.h[j] * n, n, ~0u};
        }
        offset += u * ch.h[j];
    }
    if (offset >= ch.w)
        return {ch.a, ch.b, 0, 0};
    return {ch.a + (size_t)offset * ch.count + q, ch.b + (size_t)offset * ch.count + q, ch.count,
            ch.w - offset};
}

// Operands in and product out, word-major: a warp moves whole 128-byte rows, 16 bytes per
// lane when the layout allows (VEC), else 4.
template <unsigned K, bool VEC, class View>
__device__ __forceinline__ void load_operands(uint32_t *sh, View view_of_product)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned REGION = pow3(K) * LEAF, WPAD = LEAF << K, V = VEC ? 4 : 1;
    constexpr unsigned LANES = P / V, STEP = T / LANES, ROUNDS = (WPAD + STEP - 1) / STEP;
    static_assert(T % LANES == 0, "a thread keeps its product (and view) in every round");
    using word = typename std::conditional<VEC, uint4, uint32_t>::type;
    // All loads first, then all stores: a loop that stored each pair before loading the next
    // waited a memory latency per pair. With VEC, products p .. p + 3 share p's view.
    const unsigned p = threadIdx.x % LANES * V, i0 = threadIdx.x / LANES;
    const operand_view v = view_of_product(p);
    word x[ROUNDS], y[ROUNDS];
#pragma unroll
    for (unsigned r = 0; r < ROUNDS; r++) {
        const unsigned i = i0 + r * STEP;
        const bool ok = i < WPAD && i < v.valid;
        x[r] = ok ? *(const word *)(v.a + i * v.stride) : word{};
        y[r] = ok ? *(const word *)(v.b + i * v.stride) : word{};
    }
#pragma unroll
    for (unsigned r = 0; r < ROUNDS; r++) {
        const unsigned i = i0 + r * STEP;
        if (i < WPAD) {
            *(word *)&sh[sidx<P>(i, p)] = x[r];
            *(word *)&sh[sidx<P>(REGION + i, p)] = y[r];
        }
    }
}

// The loader of the smaller sizes (K < FUSED_MAX_LEVELS), where several blocks share an SM
// and hide each other's loads: on an H200 the loader above (and the prefetch) took 1024 bits x
// 2^20 products from 4.7e9 to 3.8e9 products/s and 4096 bits from 4.0e8 to 3.8e8.
template <unsigned K, bool VEC>
__device__ __forceinline__ void load_operands_shared_sm(uint32_t *sh, const uint32_t *a,
                                                        const uint32_t *b, unsigned w,
                                                        size_t count, size_t p0)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned REGION = pow3(K) * LEAF, WPAD = LEAF << K, V = VEC ? 4 : 1;
    using word = typename std::conditional<VEC, uint4, uint32_t>::type;
    for (unsigned idx = threadIdx.x; idx < WPAD * P / V; idx += T) {
        const unsigned i = idx / (P / V), p = idx % (P / V) * V;
        const bool live = i < w && p0 + p < count;
        const size_t g = i * count + p0 + p;
        *(word *)&sh[sidx<P>(i, p)] = live ? *(const word *)(a + g) : word{};
        *(word *)&sh[sidx<P>(REGION + i, p)] = live ? *(const word *)(b + g) : word{};
    }
}

// Asks L2 for the operands of block `block` while this block computes: with one block per SM
// (K = 3) nothing else hides the load phase. The blocks `resident` further on are the ones
// that start next. On an H200 at 8192 bits x 196608 products the load phase took 0.22 of
// 1.83 ms; loading all before storing and this prefetch brought the kernel to 1.70 ms.
template <unsigned K, class View>
__device__ __forceinline__ void prefetch_operands(View view_of_product, unsigned w)
{
    constexpr unsigned P = fused_shape<K>::P, WARPS = fused_shape<K>::THREADS / 32;
    const unsigned lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned g = 0; g < P / 32; g++) {
        const operand_view v = view_of_product(g * 32 + lane);
        for (unsigned i = threadIdx.x / 32; i < w; i += WARPS) {
            if (i < v.valid) {
                ptx::prefetch_l2(v.a + i * v.stride);
                ptx::prefetch_l2(v.b + i * v.stride);
            }
        }
    }
}

template <unsigned K, bool VEC>
__device__ __forceinline__ void store_product(const uint32_t *sh, uint32_t *c, unsigned w,
                                              size_t count, size_t p0)
{
    constexpr unsigned P = fused_shape<K>::P, T = fused_shape<K>::THREADS;
    constexpr unsigned REGION = pow3(K) * LEAF, WPAD = LEAF << K, V = VEC ? 4 : 1;
    for (unsigned idx = threadIdx.x; idx < 2 * w * P / V; idx += T) {
        const unsigned q = idx / (P / V), p = idx % (P / V) * V;
        if (p0 + p >= count)
            continue;
        const unsigned s = sidx<P>(q < WPAD ? q : REGION + q - WPAD, p);
        if (VEC)
            *(uint4 *)(c + q * count + p0 + p) = *(const uint4 *)&sh[s];
        else
            c[q * count + p0 + p] = sh[s];
    }
}

// The whole product of P problems of level `level` (count of them, up to LEAF << K words per
// operand) in one block, written word-major to c. SPLIT: level > 0, the operands are views
// into the device-memory levels, found once per block into shared memory; level 0 needs no walk
// up the levels, so it reads the caller's operands directly, without that table and its barrier.
// VEC: the level-0 count is a multiple of 4 and every buffer 16-byte aligned.
template <unsigned K, bool VEC, bool SPLIT>
__global__ void __maxnreg__(fused_shape<K>::REGS)
    karatsuba_block_kernel(const level_chain chain, unsigned level, size_t count, unsigned w,
                           uint32_t *c, unsigned resident)
{
    constexpr unsigned P = fused_shape<K>::P, LEAVES = pow3(K);
    extern __shared__ uint4 shared_words[];
    uint32_t *sh = (uint32_t *)shared_words;
    unsigned char *sign = (unsigned char *)(sh + 2 * LEAVES * LEAF * P); // [operand][slot][p]
    const size_t p0 = (size_t)blockIdx.x * P, next = p0 + (size_t)resident * P;
    auto top_view = [&](size_t q) {
        return q < count ? operand_view{chain.a + q, chain.b + q, count, w} : operand_view{};
    };
    if constexpr (SPLIT) {
        __shared__ operand_view views[2][P]; // this block's products, then the block `resident` on
        for (unsigned t = threadIdx.x; t < 2 * P; t += fused_shape<K>::THREADS) {
            const size_t q = (t < P ? p0 : next) + t % P;
            views[t / P][t % P] = q < count ? view_of(chain, level, q) : operand_view{};
        }
        __syncthreads();
        load_operands<K, VEC>(sh, [&](unsigned p) { return views[0][p]; });
        __syncthreads();
        prefetch_operands<K>([&](unsigned p) { return views[1][p]; }, w);
    } else if constexpr (K == FUSED_MAX_LEVELS) {
        load_operands<K, VEC>(sh, [&](unsigned p) { return top_view(p0 + p); });
        __syncthreads();
        prefetch_operands<K>([&](unsigned p) { return top_view(next + p); }, w);
    } else {
        load_operands_shared_sm<K, VEC>(sh, chain.a, chain.b, w, count, p0);
        __syncthreads();
    }
    form_levels<K, 0>(sh, sign);
    leaf_products<K>(sh);
    __syncthreads();
    recombine_levels<K, (int)K - 1>(sh, sign);
    store_product<K, VEC>(sh, c, w, count, p0);
}

template <unsigned K> constexpr size_t fused_shared_bytes()
{
    return 2 * pow3(K) * LEAF * fused_shape<K>::P * sizeof(uint32_t) + 2 * pow3(K) * fused_shape<K>::P;
}

template <unsigned K, bool VEC, bool SPLIT>
cudaError_t launch_block(const level_chain &chain, unsigned level, size_t count, unsigned w,
                         uint32_t *c, cudaStream_t stream)
{
    static bool attribute_set; // the kernel's shared-memory limit is raised once per process
    static unsigned resident;  // blocks that run at once on the device
    constexpr size_t shared = fused_shared_bytes<K>();
    if (!attribute_set) {
        // The largest carveout, or the driver may size shared memory for one block per SM.
        cudaError_t err = cudaFuncSetAttribute(karatsuba_block_kernel<K, VEC, SPLIT>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               (int)shared);
        if (err == cudaSuccess)
            err = cudaFuncSetAttribute(karatsuba_block_kernel<K, VEC, SPLIT>,
                                       cudaFuncAttributePreferredSharedMemoryCarveout,
                                       cudaSharedmemCarveoutMaxShared);
        int device = 0, sms = 0, per_sm = 0;
        if (err == cudaSuccess)
            err = cudaGetDevice(&device);
        if (err == cudaSuccess)
            err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (err == cudaSuccess)
            err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &per_sm, karatsuba_block_kernel<K, VEC, SPLIT>, fused_shape<K>::THREADS, shared);
        if (err != cudaSuccess)
            return err;
        resident = (unsigned)(sms * per_sm);
        attribute_set = true;
    }
    constexpr unsigned P = fused_shape<K>::P;
    karatsuba_block_kernel<K, VEC, SPLIT><<<(unsigned)((count + P - 1) / P),
                                            fused_shape<K>::THREADS, shared, stream>>>(
        chain, level, count, w, c, resident);
    return cudaGetLastError();
}

template <unsigned K>
cudaError_t launch_block(const level_chain &chain, unsigned level, size_t count, unsigned w,
                         uint32_t *c, cudaStream_t stream)
{
    uintptr_t bits = (uintptr_t)chain.a | (uintptr_t)chain.b | (uintptr_t)c;
    for (unsigned j = 1; j <= level; j++)
        bits |= (uintptr_t)chain.diff[j];
    const bool vec = chain.count % 4 == 0 && bits % 16 == 0;
    // Only the largest in-block size sits under device-memory levels (plan_for).
    constexpr bool SPLIT = K == FUSED_MAX_LEVELS;
    if (SPLIT && level > 0)
        return vec ? launch_block<K, true, SPLIT>(chain, level, count, w, c, stream)
                   : launch_block<K, false, SPLIT>(chain, level, count, w, c, stream);
    return vec ? launch_block<K, true, false>(chain, level, count, w, c, stream)
               : launch_block<K, false, false>(chain, level, count, w, c, stream);
}

// ---- Karatsuba levels in device memory ----------------------------------------------------
//
// A level turns n problems with 2h-word operands into 3n problems with h-word operands
// (q = u n + parent, u = 0 low halves, 1 high halves, 2 |low - high|); the split stores only
// the differences (see operand views). The sub-products are stored word-major, word i of
// problem q's 2h-word product at prod[i * 3n + q], and the join combines them.
//
// A split or join is linear work that only moves memory (GPU.md: about 4.3 TB/s), so it must
// keep enough loads in flight. One thread per problem walking all its words left 2^14 threads
// at 32768 bits, latency-bound: 2.8 ms against 1.36 ms for the sub-products. Here a block is
// 32 problems (the lanes, so every load and store is a whole 128-byte row of the word-major
// layout) times SPLIT_CHUNKS warps, and warp c owns the c-th chunk of every word range. Each
// chunk runs its carry chain from carry-in 0; resolve_chunk_carries then adds the carry-ins,
// which on random data stop at the first word of the next chunk.

constexpr unsigned SPLIT_CHUNKS = 8;

// Words [begin, end) of chunk c when `words` words are cut into SPLIT_CHUNKS chunks.
struct chunk_range {
    unsigned begin, end;
};

__device__ __forceinline__ chunk_range chunk_of(unsigned words, unsigned c)
{
    const unsigned size = (words + SPLIT_CHUNKS - 1) / SPLIT_CHUNKS;
    const unsigned begin = min(c * size, words);
    return {begin, min(begin + size, words)};
}

// Chunk threadIdx.y has written S segments, segment k its words r[k] of out (stride `stride`),
// each from carry-in 0, and holds their signed carry-outs; segment k of chunk c is number
// k SPLIT_CHUNKS + c in the carry order. This adds each segment's carry-in, round after round,
// so that a carry running through a whole segment (words all 0 or all ones, the worst case)
// reaches the next one. The last segment's carry-out is dropped: the value is exact modulo the
// words written. `pending` is shared, S SPLIT_CHUNKS x 32.
template <unsigned S>
__device__ void resolve_chunk_carries(uint32_t *out, size_t stride, const chunk_range (&r)[S],
                                      int64_t (&carry_out)[S], int64_t *pending)
{
    constexpr unsigned LAST = S * SPLIT_CHUNKS - 1;
    const unsigned c = threadIdx.y, lane = threadIdx.x;
    for (;;) {
#pragma unroll
        for (unsigned k = 0; k < S; k++) {
            const unsigned seg = k * SPLIT_CHUNKS + c;
            if (seg < LAST)
                pending[(seg + 1) * 32 + lane] = carry_out[k];
        }
        __syncthreads();
        int64_t carry[S];
#pragma unroll
        for (unsigned k = 0; k < S; k++) {
            const unsigned seg = k * SPLIT_CHUNKS + c;
            carry[k] = seg > 0 ? pending[seg * 32 + lane] : 0;
        }
        __syncthreads(); // every carry-in is read before the next round writes
        bool more = false;
#pragma unroll
        for (unsigned k = 0; k < S; k++) {
            for (unsigned i = r[k].begin; i < r[k].end && carry[k] != 0; i++) {
                const int64_t v = (int64_t)out[i * stride] + carry[k];
                out[i * stride] = (uint32_t)v;
                carry[k] = v >> 32;
            }
            carry_out[k] = carry[k];
            more |= k * SPLIT_CHUNKS + c < LAST && carry[k] != 0;
        }
        if (!__syncthreads_or(more))
            return;
    }
}

// |low - high| of both operands of each problem q of level `level` (n of them, 2h words per
// operand) into diff (h words of a, then of b, word-major), and subtract[q] = 1 when both
// differences have the same sign.
__global__ void __launch_bounds__(32 * SPLIT_CHUNKS)
    karatsuba_split_kernel(const level_chain chain, unsigned level, size_t n, unsigned h,
                           uint32_t *__restrict__ diff, unsigned char *__restrict__ subtract)
{
    __shared__ int64_t pending[2 * SPLIT_CHUNKS * 32];
    __shared__ int order[SPLIT_CHUNKS][2][32];
    const unsigned c = threadIdx.y, lane = threadIdx.x;
    const size_t q = (size_t)blockIdx.x * 32 + lane;
    const operand_view v = q < n ? view_of(chain, level, q) : operand_view{};
    const chunk_range r = chunk_of(h, c);
    // Both operands at once, so that twice the loads are in flight: the kernel waits on memory
    // (one operand after the other took 0.150 ms against 0.119 on an H200, 16384 bits x 2^16).
    auto word = [&](unsigned operand, unsigned i) {
        return i < v.valid ? (operand ? v.b : v.a)[i * v.stride] : 0u;
    };
    // Which half is larger: the top differing word of the top chunk that has one.
    int cmp[2] = {0, 0};
    for (unsigned i = r.end; i-- > r.begin && (cmp[0] == 0 || cmp[1] == 0);) {
#pragma unroll
        for (unsigned operand = 0; operand < 2; operand++) {
            const uint32_t lo = word(operand, i), hi = word(operand, h + i);
            if (cmp[operand] == 0)
                cmp[operand] = lo < hi ? -1 : lo > hi;
        }
    }
    order[c][0][lane] = cmp[0];
    order[c][1][lane] = cmp[1];
    __syncthreads();
    bool smaller[2];
#pragma unroll
    for (unsigned operand = 0; operand < 2; operand++) {
        int top = 0;
        for (unsigned k = SPLIT_CHUNKS; k-- > 0 && top == 0;)
            top = order[k][operand][lane];
        smaller[operand] = top < 0;
    }

    // Operand b's difference follows a's (h words on), so the two form one chain of 2
    // SPLIT_CHUNKS chunks for resolve_chunk_carries: the borrow out of a's top is exactly 0.
    uint32_t *out = diff + q;
    uint32_t borrow[2] = {0, 0};
#pragma unroll 8
    for (unsigned i = r.begin; i < r.end; i++) {
#pragma unroll
        for (unsigned operand = 0; operand < 2; operand++) {
            const uint32_t lo = word(operand, i), hi = word(operand, h + i);
            const uint64_t d = smaller[operand] ? (uint64_t)hi - lo - borrow[operand]
                                                : (uint64_t)lo - hi - borrow[operand];
            if (q < n)
                out[(operand * h + i) * n] = (uint32_t)d;
            borrow[operand] = (uint32_t)(d >> 63);
        }
    }
    // Each chunk of the difference started without the borrow from below (a lane past n has
    // only zeros, so it never carries and never touches memory).
    const chunk_range ranges[2] = {r, {h + r.begin, h + r.end}};
    int64_t carries[2] = {-(int64_t)borrow[0], -(int64_t)borrow[1]};
    resolve_chunk_carries<2>(out, n, ranges, carries, pending);
    if (q < n && c == 0)
        subtract[q] = smaller[0] == smaller[1];
}

// Z = L + (L + H - s M) X^h + H X^2h for parent q from its three sub-products (2h words each);
// the first `out_words` words of Z go to c (word-major, n problems). As in recombine_level,
// one pass over j in [0, h) reads each word of L, H and M once and writes Z's columns j,
// h + j, 2h + j and 3h + j: column j is L's word, the other three are column sums with their
// own carries (streams 0, 1, 2). Chunk threadIdx.y takes its chunk of j for all streams.
__global__ void __launch_bounds__(32 * SPLIT_CHUNKS)
    karatsuba_join_kernel(const uint32_t *__restrict__ sub,
                          const unsigned char *__restrict__ subtract, size_t n, unsigned h,
                          uint32_t *__restrict__ c, unsigned out_words)
{
    __shared__ int64_t pending[3 * SPLIT_CHUNKS * 32];
    const size_t q = (size_t)blockIdx.x * 32 + threadIdx.x;
    const bool live = q < n;
    const chunk_range r = live ? chunk_of(h, threadIdx.y) : chunk_range{0, 0};
    const size_t n3 = 3 * n;
    const uint32_t *L = sub + q, *H = sub + n + q, *M = sub + 2 * n + q;
    uint32_t *z = c + q;
    const int64_t flip = live && subtract[q] ? -1 : 1; // s: M is subtracted
    int64_t acc[3] = {0, 0, 0};
    // Columns beyond out_words are not written (the top level's product has 2 w words).
    auto put = [&](unsigned col, int64_t v) {
        if (col < out_words)
            z[col * n] = (uint32_t)v;
    };
#pragma unroll 4
    for (unsigned j = r.begin; j < r.end; j++) {
        const uint32_t l0 = L[j * n3], l1 = L[(h + j) * n3], h0 = H[j * n3],
                       h1 = H[(h + j) * n3], m0 = M[j * n3], m1 = M[(h + j) * n3];
        const int64_t middle = (int64_t)l1 + h0;
        put(j, l0);
        acc[0] += middle + l0 + flip * m0;
        acc[1] += middle + h1 + flip * m1;
        acc[2] += h1;
        put(h + j, acc[0]);
        put(2 * h + j, acc[1]);
        put(3 * h + j, acc[2]);
#pragma unroll
        for (unsigned k = 0; k < 3; k++)
            acc[k] >>= 32;
    }
    auto clip = [&](unsigned from) {
        return chunk_range{min(from + r.begin, out_words), min(from + r.end, out_words)};
    };
    const chunk_range ranges[3] = {clip(h), clip(2 * h), clip(3 * h)};
    resolve_chunk_carries<3>(z, n, ranges, acc, pending);
}

unsigned level_blocks(size_t problems)
{
    return (unsigned)((problems + 31) / 32);
}

unsigned ceil_log2(unsigned x)
{
    unsigned e = 0;
    while ((1u << e) < x)
        e++;
    return e;
}

// Device-memory levels above the in-block ones: `levels` of them for `words`-word operands.
struct split_plan {
    unsigned levels, wpad;
};

split_plan plan_for(unsigned words)
{
    unsigned total = ceil_log2((words + LEAF - 1) / LEAF);
    split_plan s;
    s.levels = total > FUSED_MAX_LEVELS ? total - FUSED_MAX_LEVELS : 0;
    s.wpad = LEAF << total;
    return s;
}

size_t problems_at(unsigned level, size_t count)
{
    for (unsigned l = 0; l < level; l++)
        count *= 3;
    return count;
}

// Bytes of level j's sub-products (3^j count products of 2 (wpad >> j) words), of level j's
// differences (3^(j-1) count problems, wpad >> j words per operand) and of its parents' sign
// flags, each rounded up to keep every buffer 16-byte aligned.
struct level_bytes {
    size_t prod, diff, flags;
};

level_bytes bytes_of(const split_plan &s, unsigned j, size_t count)
{
    const size_t parents = problems_at(j - 1, count), h = s.wpad >> j;
    auto round = [](size_t x) { return (x + 15) / 16 * 16; };
    return {round(3 * parents * 2 * h * sizeof(uint32_t)),
            round(parents * 2 * h * sizeof(uint32_t)), round(parents)};
}

cudaError_t launch_in_block(const level_chain &chain, unsigned level, size_t count, unsigned w,
                            uint32_t *c, cudaStream_t stream)
{
    switch (ceil_log2((w + LEAF - 1) / LEAF)) {
    case 0:
        return launch_block<0>(chain, level, count, w, c, stream);
    case 1:
        return launch_block<1>(chain, level, count, w, c, stream);
    case 2:
        return launch_block<2>(chain, level, count, w, c, stream);
    default:
        return launch_block<3>(chain, level, count, w, c, stream);
    }
}

} // namespace

extern "C" size_t mul_rowchain_karatsuba_scratch(unsigned words, size_t count)
{
    split_plan s = plan_for(words);
    size_t bytes = 0;
    for (unsigned j = 1; j <= s.levels; j++) {
        level_bytes l = bytes_of(s, j, count);
        bytes += l.prod + l.diff + l.flags;
    }
    return bytes;
}

extern "C" cudaError_t mul_rowchain_karatsuba_launch(const uint32_t *a, const uint32_t *b,
                                                     uint32_t *c, unsigned words, size_t count,
                                                     void *scratch, cudaStream_t stream)
{
    split_plan s = plan_for(words);
    if (s.levels > MAX_DEVICE_LEVELS)
        return cudaErrorInvalidValue;
    level_chain chain = {a, b, count, words, {}, {}};
    uint32_t *prod[MAX_DEVICE_LEVELS + 1] = {c};
    unsigned char *flags[MAX_DEVICE_LEVELS + 1] = {};
    char *next = (char *)scratch;
    for (unsigned j = 1; j <= s.levels; j++) {
        level_bytes l = bytes_of(s, j, count);
        prod[j] = (uint32_t *)next;
        chain.diff[j] = (const uint32_t *)(next + l.prod);
        flags[j] = (unsigned char *)(next + l.prod + l.diff);
        chain.h[j] = s.wpad >> j;
        next += l.prod + l.diff + l.flags;
    }
    for (unsigned j = 1; j <= s.levels; j++) {
        const size_t parents = problems_at(j - 1, count);
        karatsuba_split_kernel<<<level_blocks(parents), dim3(32, SPLIT_CHUNKS), 0, stream>>>(
            chain, j - 1, parents, chain.h[j], (uint32_t *)chain.diff[j], flags[j]);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess)
            return err;
    }
    const unsigned leaf_words = s.levels ? chain.h[s.levels] : words;
    cudaError_t err = launch_in_block(chain, s.levels, problems_at(s.levels, count), leaf_words,
                                      prod[s.levels], stream);
    if (err != cudaSuccess)
        return err;
    for (unsigned j = s.levels; j >= 1; j--) {
        const size_t parents = problems_at(j - 1, count);
        const unsigned out_words = j == 1 ? 2 * words : 4 * chain.h[j];
        karatsuba_join_kernel<<<level_blocks(parents), dim3(32, SPLIT_CHUNKS), 0, stream>>>(
            prod[j], flags[j], parents, chain.h[j], prod[j - 1], out_words);
        err = cudaGetLastError();
        if (err != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}
