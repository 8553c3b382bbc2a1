// Subtractive Karatsuba in one warp (001 section III-A), over any warp product of the leaves:
// sumrotate::mul_blocks for sumrotate-*-karatsuba* (001 Table II), the tensor-core Toeplitz
// product for warp-tensor-karatsuba (issue 39). kernels/warp_karatsuba_plan.h splits the sizes.
//
// The middle term uses the subtractive form
//     A0 B1 + A1 B0 = A0 B0 + A1 B1 + s |A0 - A1| |B1 - B0|,  s = sign(A0 - A1) sign(B1 - B0),
// so the middle product has h-word factors and no extra carry word.
//
// Per level: |A0 - A1| and |B1 - B0| go to scratch; A0 B0 goes to c[0, 2h) and A1 B1 to
// c[2h, 2n) directly; the middle product to scratch; then T = A0 B0 + A1 B1 +- middle (2h + 1
// words, in scratch) and c[h, 2n) += T. Each of these is a pass over 32-word chunks, lane i on
// word i of the chunk (coalesced, product-major scratch per warp), with the carries between lanes
// resolved by two ballots (carry look-ahead) instead of a loop.
#ifndef MPGPU_WARP_KARATSUBA_CUH
#define MPGPU_WARP_KARATSUBA_CUH

#include <stdint.h>

#include "mp_helpers.cuh"
#include "warp_karatsuba_plan.h"

namespace warp_karatsuba {

constexpr uint32_t FULL_MASK = 0xffffffffu;

// Chunks a pass loads before it resolves their carries: each lane issues their loads together,
// so that a pass waits on memory once per PASS_CHUNKS chunks, not once per chunk (the passes
// read and write L2-resident scratch; latency, not bandwidth, bounds them).
constexpr unsigned PASS_CHUNKS = 4;

// dst[0, len) = x +- y (x read as xlen words, y as ylen, both zero-extended to len); returns the
// carry (borrow) out of word len - 1. dst may be x or y at the same offset: each lane reads its
// words before it writes them, and no lane touches another's. Lane i of a chunk generates a carry
// when its own sum overflows and propagates one when the sum is all ones (all zeros for a
// difference); mp::lookahead_carries gives the carries into the lanes. Lanes past len propagate,
// so the chunk's carry out is the one out of len - 1.
__device__ inline uint32_t add_sub(uint32_t *dst, const uint32_t *x, unsigned xlen,
                                   const uint32_t *y, unsigned ylen, unsigned len, bool subtract)
{
    const unsigned lane = threadIdx.x % 32;
    uint32_t carry = 0;
    for (unsigned base = 0; base < len; base += 32 * PASS_CHUNKS) {
        uint32_t xs[PASS_CHUNKS], ys[PASS_CHUNKS];
#pragma unroll
        for (unsigned k = 0; k < PASS_CHUNKS; k++) {
            const unsigned i = base + 32 * k + lane;
            xs[k] = i < xlen ? x[i] : 0;
            ys[k] = i < ylen ? y[i] : 0;
        }
#pragma unroll
        for (unsigned k = 0; k < PASS_CHUNKS; k++) {
            const unsigned i = base + 32 * k + lane;
            uint32_t r = subtract ? xs[k] - ys[k] : xs[k] + ys[k];
            const bool in = i < len;
            const bool gen = in && (subtract ? xs[k] < ys[k] : r < xs[k]);
            const bool prop = !in || r == (subtract ? 0u : 0xffffffffu);
            const uint32_t g = __ballot_sync(FULL_MASK, gen);
            const uint32_t gp = __ballot_sync(FULL_MASK, gen || prop);
            const uint64_t carries = mp::lookahead_carries(g, gp, carry);
            const uint32_t carry_in = (uint32_t)carries >> lane & 1;
            r = subtract ? r - carry_in : r + carry_in;
            if (in)
                dst[i] = r;
            carry = (uint32_t)(carries >> 32);
        }
    }
    __syncwarp();
    return carry;
}

// The sign of x - y for two numbers of len words (x read as xlen words, y as ylen, zero-extended):
// the most significant differing word decides, found from the top chunk down by a ballot.
__device__ inline int compare(const uint32_t *x, unsigned xlen, const uint32_t *y, unsigned ylen,
                              unsigned len)
{
    const unsigned lane = threadIdx.x % 32;
    for (unsigned base = (len - 1) / 32 * 32;; base -= 32) {
        const unsigned i = base + lane;
        const uint32_t xi = i < xlen ? x[i] : 0, yi = i < ylen ? y[i] : 0;
        const uint32_t differ = __ballot_sync(FULL_MASK, xi != yi);
        if (differ) {
            const unsigned top = 31 - __clz(differ);
            return __shfl_sync(FULL_MASK, xi > yi, top) ? 1 : -1;
        }
        if (base == 0)
            return 0;
    }
}

// dst[0, len) = |x - y|; returns true when x < y.
__device__ inline bool abs_diff(uint32_t *dst, const uint32_t *x, unsigned xlen,
                                const uint32_t *y, unsigned ylen, unsigned len)
{
    const bool negative = compare(x, xlen, y, ylen, len) < 0;
    if (negative)
        add_sub(dst, y, ylen, x, xlen, len, true);
    else
        add_sub(dst, x, xlen, y, ylen, len, true);
    return negative;
}

// c[0, 2n) = a[0, n) * b[0, n), Karatsuba DEPTH times over leaf(a, b, c, n), which multiplies
// n-word operands into c[0, 2n) and returns with the warp's writes visible to the warp. Every
// level's n must exceed one chunk (n > 32), so that A1 is not empty. The three sub-products of a
// level run in one loop, so that the leaf, however large, is inlined once per level.
template <unsigned DEPTH, class Leaf>
__device__ void mul(Leaf &leaf, const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned n,
                    uint32_t *scratch)
{
    if constexpr (DEPTH == 0) {
        leaf(a, b, c, n);
    } else {
        const unsigned h = wk_split_words(n), m = n - h;
        uint32_t *da = scratch, *db = da + h, *middle = db + h, *t = middle + 2 * h;
        uint32_t *next = scratch + wk_level_words(n);
        const bool a_negative = abs_diff(da, a, h, a + h, m, h); // |A0 - A1|
        const bool b_negative = abs_diff(db, b + h, m, b, h, h); // |B1 - B0|
#pragma unroll 1
        for (int k = 0; k < 3; k++) { // A0 B0, A1 B1, |A0 - A1| |B1 - B0|
            const uint32_t *x = k == 0 ? a : k == 1 ? a + h : da;
            const uint32_t *y = k == 0 ? b : k == 1 ? b + h : db;
            uint32_t *z = k == 0 ? c : k == 1 ? c + 2 * h : middle;
            mul<DEPTH - 1>(leaf, x, y, z, k == 1 ? m : h, next);
        }
        add_sub(t, c, 2 * h, c + 2 * h, 2 * m, 2 * h + 1, false); // A0 B0 + A1 B1
        add_sub(t, t, 2 * h + 1, middle, 2 * h, 2 * h + 1, a_negative != b_negative);
        // T < beta^(2n - h) since the product fits, so its words past c's end are zero.
        const unsigned t_len = 2 * h + 1 < 2 * n - h ? 2 * h + 1 : 2 * n - h;
        add_sub(c + h, c + h, 2 * n - h, t, t_len, 2 * n - h, false);
    }
}

} // namespace warp_karatsuba

#endif
