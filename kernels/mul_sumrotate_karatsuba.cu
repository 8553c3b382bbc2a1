// sumrotate-{shuffle,shared}-karatsuba{,2}: one warp per product, Karatsuba applied once
// (twice) on top of the warp's Comba over 1024-bit blocks (001 section III-A and Table II, rows
// "one warp ... Karatsuba" and "Karatsuba^2"; the sub-products are sumrotate::mul_blocks).
//
// The split keeps the halves whole 1024-bit blocks: A = A0 + A1 beta^h with h = ceil(n / 2)
// rounded up to a multiple of 32 words, so A0 has h words and A1 the remaining m = n - h <= h
// (001 runs Karatsuba on powers of two, where m = h; other sizes pad A1 with zero words that
// are never read). The middle term uses the subtractive form
//     A0 B1 + A1 B0 = A0 B0 + A1 B1 + s |A0 - A1| |B1 - B0|,  s = sign(A0 - A1) sign(B1 - B0),
// so the middle product has h-word factors and no extra carry word.
//
// Per level: |A0 - A1| and |B1 - B0| go to scratch; A0 B0 goes to c[0, 2h) and A1 B1 to
// c[2h, 2n) directly; the middle product to scratch; then T = A0 B0 + A1 B1 +- middle (2h + 1
// words, in scratch) and c[h, 2n) += T. Each of these is a pass over 32-word chunks, lane i on
// word i of the chunk (coalesced, product-major scratch per warp), with the carries between lanes
// resolved by two ballots (carry look-ahead) instead of a loop.
#include "mp_helpers.cuh"
#include "mul.h"
#include "sumrotate.cuh"

namespace {

constexpr unsigned WARPS_PER_BLOCK = 4;
constexpr unsigned THREADS = WARPS_PER_BLOCK * 32;

// The low half of a Karatsuba split of n words: whole 1024-bit blocks (see above).
__host__ __device__ constexpr unsigned split_words(unsigned n)
{
    return ((n + 1) / 2 + sumrotate::BLOCK_WORDS - 1) / sumrotate::BLOCK_WORDS *
           sumrotate::BLOCK_WORDS;
}

// Scratch words of one level on n words: |A0 - A1| (h), |B1 - B0| (h), the middle product (2h),
// T (2h + 1, padded to keep every array on whole chunks).
__host__ __device__ constexpr unsigned level_words(unsigned n)
{
    return 6 * split_words(n) + sumrotate::BLOCK_WORDS;
}

// Scratch words per product for `depth` levels: the three sub-products of a level run one after
// another and share the next level's scratch; the largest of them has h words.
__host__ __device__ constexpr size_t scratch_words(unsigned n, unsigned depth)
{
    size_t words = 0;
    for (; depth > 0; depth--, n = split_words(n))
        words += level_words(n);
    return words;
}

// dst[0, len) = x +- y (x read as xlen words, y as ylen, both zero-extended to len); returns the
// carry (borrow) out of word len - 1. dst may be x or y: each lane reads its word of a chunk
// before any lane writes it (the ballots order them). Lane i of a chunk generates a carry when
// its own sum overflows and propagates one when the sum is all ones (all zeros for a difference);
// mp::lookahead_carries gives the carries into the lanes. Lanes past len propagate, so the
// chunk's carry out is the one out of len - 1.
__device__ uint32_t add_sub(uint32_t *dst, const uint32_t *x, unsigned xlen, const uint32_t *y,
                            unsigned ylen, unsigned len, bool subtract)
{
    const unsigned lane = threadIdx.x % 32;
    uint32_t carry = 0;
    for (unsigned base = 0; base < len; base += 32) {
        const unsigned i = base + lane;
        const uint32_t xi = i < xlen ? x[i] : 0, yi = i < ylen ? y[i] : 0;
        uint32_t r = subtract ? xi - yi : xi + yi;
        const bool in = i < len;
        const bool gen = in && (subtract ? xi < yi : r < xi);
        const bool prop = !in || r == (subtract ? 0u : 0xffffffffu);
        const uint32_t g = __ballot_sync(sumrotate::FULL_MASK, gen);
        const uint32_t gp = __ballot_sync(sumrotate::FULL_MASK, gen || prop);
        const uint64_t carries = mp::lookahead_carries(g, gp, carry);
        const uint32_t carry_in = (uint32_t)carries >> lane & 1;
        r = subtract ? r - carry_in : r + carry_in;
        if (in)
            dst[i] = r;
        carry = (uint32_t)(carries >> 32);
    }
    __syncwarp();
    return carry;
}

// The sign of x - y for two numbers of len words (x read as xlen words, y as ylen, zero-extended):
// the most significant differing word decides, found from the top chunk down by a ballot.
__device__ int compare(const uint32_t *x, unsigned xlen, const uint32_t *y, unsigned ylen,
                       unsigned len)
{
    const unsigned lane = threadIdx.x % 32;
    for (unsigned base = (len - 1) / 32 * 32;; base -= 32) {
        const unsigned i = base + lane;
        const uint32_t xi = i < xlen ? x[i] : 0, yi = i < ylen ? y[i] : 0;
        const uint32_t differ = __ballot_sync(sumrotate::FULL_MASK, xi != yi);
        if (differ) {
            const unsigned top = 31 - __clz(differ);
            return __shfl_sync(sumrotate::FULL_MASK, xi > yi, top) ? 1 : -1;
        }
        if (base == 0)
            return 0;
    }
}

// dst[0, len) = |x - y|; returns true when x < y.
__device__ bool abs_diff(uint32_t *dst, const uint32_t *x, unsigned xlen, const uint32_t *y,
                         unsigned ylen, unsigned len)
{
    const bool negative = compare(x, xlen, y, ylen, len) < 0;
    if (negative)
        add_sub(dst, y, ylen, x, xlen, len, true);
    else
        add_sub(dst, x, xlen, y, ylen, len, true);
    return negative;
}

// c[0, 2n) = a[0, n) * b[0, n), Karatsuba DEPTH times over sumrotate::mul_blocks. Every level's
// n must exceed one block (n > 32), so that A1 is not empty: the registered minimum sizes ensure
// it (64 words for one level; 128 words for two, where m >= 33).
template <unsigned DEPTH, class Exchange>
__device__ void karatsuba(Exchange &x, const uint32_t *a, const uint32_t *b, uint32_t *c,
                          unsigned n, uint32_t *scratch)
{
    if constexpr (DEPTH == 0) {
        sumrotate::mul_blocks(x, a, b, c, n);
        __syncwarp();
    } else {
        const unsigned h = split_words(n), m = n - h;
        uint32_t *da = scratch, *db = da + h, *middle = db + h, *t = middle + 2 * h;
        uint32_t *next = scratch + level_words(n);
        const bool a_negative = abs_diff(da, a, h, a + h, m, h);     // |A0 - A1|
        const bool b_negative = abs_diff(db, b + h, m, b, h, h);     // |B1 - B0|
        karatsuba<DEPTH - 1>(x, a, b, c, h, next);                   // A0 B0
        karatsuba<DEPTH - 1>(x, a + h, b + h, c + 2 * h, m, next);   // A1 B1
        karatsuba<DEPTH - 1>(x, da, db, middle, h, next);            // |A0 - A1| |B1 - B0|
        add_sub(t, c, 2 * h, c + 2 * h, 2 * m, 2 * h + 1, false);   // A0 B0 + A1 B1
        add_sub(t, t, 2 * h + 1, middle, 2 * h, 2 * h + 1, a_negative != b_negative);
        // T < beta^(2n - h) since the product fits, so its words past c's end are zero.
        const unsigned t_len = 2 * h + 1 < 2 * n - h ? 2 * h + 1 : 2 * n - h;
        add_sub(c + h, c + h, 2 * n - h, t, t_len, 2 * n - h, false);
    }
}

template <bool SHUFFLE, unsigned DEPTH>
__global__ void __launch_bounds__(THREADS)
    sumrotate_karatsuba_kernel(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned w,
                               size_t count, uint32_t *scratch)
{
    const unsigned lane = threadIdx.x % 32, warp_in_block = threadIdx.x / 32;
    const size_t p = (size_t)blockIdx.x * WARPS_PER_BLOCK + warp_in_block;
    if (p >= count)
        return;
    const sumrotate::Segment seg(0, 32, lane);
    uint32_t *sp = scratch + p * scratch_words(w, DEPTH);
    if constexpr (SHUFFLE) {
        sumrotate::ShuffleExchange x(seg);
        karatsuba<DEPTH>(x, a + p * w, b + p * w, c + p * 2 * w, w, sp);
    } else {
        __shared__ uint32_t exchange_buf[WARPS_PER_BLOCK][sumrotate::SharedExchange::WORDS];
        sumrotate::SharedExchange x(seg, exchange_buf[warp_in_block]);
        karatsuba<DEPTH>(x, a + p * w, b + p * w, c + p * 2 * w, w, sp);
    }
}

template <bool SHUFFLE, unsigned DEPTH>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, void *scratch, cudaStream_t stream)
{
    const size_t blocks = (count + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    sumrotate_karatsuba_kernel<SHUFFLE, DEPTH><<<(unsigned)blocks, THREADS, 0, stream>>>(
        a, b, c, words, count, (uint32_t *)scratch);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t mul_sumrotate_karatsuba_scratch_bytes(unsigned words, size_t count)
{
    return scratch_words(words, 1) * count * sizeof(uint32_t);
}

extern "C" size_t mul_sumrotate_karatsuba2_scratch_bytes(unsigned words, size_t count)
{
    return scratch_words(words, 2) * count * sizeof(uint32_t);
}

#define SUMROTATE_KARATSUBA_LAUNCH(name, shuffle, depth)                                    \
    extern "C" cudaError_t name(const uint32_t *a, const uint32_t *b, uint32_t *c,          \
                                unsigned words, size_t count, void *scratch,                \
                                cudaStream_t stream)                                        \
    {                                                                                       \
        return launch<shuffle, depth>(a, b, c, words, count, scratch, stream);              \
    }

SUMROTATE_KARATSUBA_LAUNCH(mul_sumrotate_shuffle_karatsuba_launch, true, 1)
SUMROTATE_KARATSUBA_LAUNCH(mul_sumrotate_shared_karatsuba_launch, false, 1)
SUMROTATE_KARATSUBA_LAUNCH(mul_sumrotate_shuffle_karatsuba2_launch, true, 2)
SUMROTATE_KARATSUBA_LAUNCH(mul_sumrotate_shared_karatsuba2_launch, false, 2)
