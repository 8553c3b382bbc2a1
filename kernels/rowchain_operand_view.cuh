// thread-rowchain-karatsuba: where a problem's operands are, at any device-memory level.
//
// Above 8192 bits the problems split in device memory (rowchain_device_levels.cu). Of a
// problem's three sub-problems only |low - high| is new data; the halves are read where they
// already are, in the caller's operands or in a parent's difference. Not copying them cut the
// split's writes by two thirds. Problem q of level j (0 <= q < 3^j count) is sub-problem
// u = q / n of its parent q mod n at level j - 1 (n = 3^(j-1) count), so a problem's operand is
// found by walking up from it: words [u h_j, (u + 1) h_j) of the parent for u = 0, 1, and the
// parent's stored difference for u = 2.
#ifndef MPGPU_ROWCHAIN_OPERAND_VIEW_CUH
#define MPGPU_ROWCHAIN_OPERAND_VIEW_CUH

#include <stddef.h>
#include <stdint.h>

namespace rowchain {

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

// The operands of problem q of level `level`, found by walking up the levels.
__device__ inline operand_view view_of(const level_chain &ch, unsigned level, size_t q)
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

} // namespace rowchain

#endif
