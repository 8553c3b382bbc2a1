// thread-rowchain-karatsuba: subtractive Karatsuba (001 section III, Table I) inside one
// thread block, over 32-word leaf products that each thread computes in registers, itself by
// one more Karatsuba level over three 16x16-word products by product scanning (000 Algorithm
// 2). The name is the leaf's first form, operand-scanning row chains (000 Algorithm 1), which
// product scanning replaced: at 1024 bits in issue 13, in the block kernel in issue 39.
// This file is the host planner: how many levels run in device memory and in one block, and
// where their scratch lies. The pieces, one idea a file:
//   rowchain_leaf.cuh            the leaf: one thread, three product-scanning products
//   rowchain_direct.cu           1024 bits: one leaf a thread, no block, no shared memory
//   rowchain_block_layout.cuh    a block's shape and the Karatsuba tree in shared memory
//   rowchain_levels.cuh          the in-block levels: formation and recombination
//   rowchain_loader.cuh          operands in, product out
//   rowchain_block.cu            the in-block kernel and its launch
//   rowchain_operand_view.cuh    where a problem's operands are under device-memory levels
//   rowchain_device_levels.cu    the device-memory levels: split and join kernels
//
// Why this shape (GPU.md gives the Hopper ceilings; 001 Table II measured the papers' GPUs):
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

#include "rowchain_block_layout.cuh"
#include "rowchain_launch.cuh"

namespace {

using rowchain::FUSED_MAX_LEVELS;
using rowchain::LEAF;
using rowchain::MAX_DEVICE_LEVELS;

// Device-memory levels above the in-block ones: `levels` of them for `words`-word operands.
struct split_plan {
    unsigned levels, wpad;
};

split_plan plan_for(unsigned words)
{
    unsigned total = rowchain::levels_above_leaves(words);
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
    if (words == LEAF)
        return rowchain::direct_launch(a, b, c, count, stream);
    split_plan s = plan_for(words);
    if (s.levels > MAX_DEVICE_LEVELS)
        return cudaErrorInvalidValue;
    rowchain::level_chain chain = {a, b, count, words, {}, {}};
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
        cudaError_t err = rowchain::split_launch(chain, j - 1, problems_at(j - 1, count),
                                                 chain.h[j], (uint32_t *)chain.diff[j], flags[j],
                                                 stream);
        if (err != cudaSuccess)
            return err;
    }
    const unsigned leaf_words = s.levels ? chain.h[s.levels] : words;
    cudaError_t err = rowchain::block_launch(chain, s.levels, problems_at(s.levels, count),
                                             leaf_words, prod[s.levels], stream);
    if (err != cudaSuccess)
        return err;
    for (unsigned j = s.levels; j >= 1; j--) {
        const unsigned out_words = j == 1 ? 2 * words : 4 * chain.h[j];
        err = rowchain::join_launch(prod[j], flags[j], problems_at(j - 1, count), chain.h[j],
                                    prod[j - 1], out_words, stream);
        if (err != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}
