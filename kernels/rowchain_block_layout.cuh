// thread-rowchain-karatsuba: what one thread block holds and where. A block multiplies P
// products of LEAF << K words each by K subtractive Karatsuba levels (001 section III) over
// 3^K leaves; this header gives its shape (products, threads, registers) and the shared-memory
// place of every word and every node of the Karatsuba tree.
#ifndef MPGPU_ROWCHAIN_BLOCK_LAYOUT_CUH
#define MPGPU_ROWCHAIN_BLOCK_LAYOUT_CUH

#include <stdint.h>

namespace rowchain {

constexpr unsigned LEAF = 32;           // words per leaf operand
constexpr unsigned FUSED_MAX_LEVELS = 3; // 3^3 leaves x 256 B per product fit in shared memory

constexpr unsigned pow3(unsigned e) { return e == 0 ? 1 : 3 * pow3(e - 1); }

// Karatsuba levels above the leaves for operands of `words` words: ceil(log2(ceil(words /
// LEAF))), the in-block ones and those in device memory together.
inline unsigned levels_above_leaves(unsigned words)
{
    const unsigned leaves = (words + LEAF - 1) / LEAF;
    unsigned e = 0;
    while ((1u << e) < leaves)
        e++;
    return e;
}

// ---- The Karatsuba tree in shared memory --------------------------------------------------
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

} // namespace rowchain

#endif
