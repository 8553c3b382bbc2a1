// warp-column-shared, warp-column-shuffle: the parallel column-based multiplication of 000
// Fig. 3.3 and 001 Fig. 4, one warp per product (000 Table 3.3: 1.73 ms with shared memory,
// 1.43 ms with warp shuffles, 100000 products of 1024 bits on a GTX 980).
//
// The 2w - 1 columns of the Comba method (000 Algorithm 2) are dealt out to the lanes, "two
// columns to balance the computation load" (000 section 3.3.1): lane k sums column k, which has
// k + 1 terms, and column k + w, which has w - 1 - k, so every lane does exactly w
// multiply-adds. (Pairing k with 2w - 2 - k would not balance: those two columns have the same
// number of terms.) At step j lane k needs a_j and b_{(k - j) mod w}; steps j <= k go to column
// k and steps j > k to column k + w, so each lane switches columns at its own step, the warp
// divergence 000 section 3.3.1 names as this method's weakness. Each column sum is a
// three-word accumulator {t, u, v} (ptx::mac3).
//
// Lanes fetch the operand words either by warp shuffles from registers that hold a G-word tile
// of A and two of B, or from shared memory holding the whole product (000 chapter 2: shuffles
// exchange registers without a trip through shared memory). The exchange mechanism is the
// template parameter of one kernel; the lane exchanges of the carry step go through it too.
//
// Sizes: a product takes a group of G lanes, G = w rounded up to a power of two, at most 32.
//  - w <= 16: 32 / G products share a warp (as 000 section 3.4 does for sum-rotate); the lanes
//    of a group past w idle in the multiply and the stores.
//  - 16 < w <= 32: one product per warp, lanes w..31 idle.
//  - w > 32: lane r takes the column pairs k = r, r + 32, r + 64, ... < w in turn, and the
//    w steps of a pair run in 32-step tiles of A; the tiles come from device memory (shuffle
//    variant) or from the operands staged in shared memory (shared variant).
//
// Column sums become product words block by block (G columns, one per lane): the words
// v_k + u_{k-1} + t_{k-2} are summed in each lane, and the carries between lanes are resolved
// in one step by carry-lookahead over two warp votes (generate, propagate) instead of the
// __any() loop of 000 Algorithm 3 lines 16-19, so all-ones operands cost no extra rounds.
// The low columns 0..w-1 and the high columns w..2w-1 form two such streams; the carry out of
// the low stream (below 2^44) is the carry into the high stream. For w <= 32 each stream is one
// block and the low one is done first; for w > 32 the high blocks are converted as they come and
// the carry is added to the first one at the end, rippling further up only while non-zero.
#include "mp_helpers.cuh"
#include "mul.h"
#include "ptx_carry.cuh"

namespace {

constexpr unsigned FULL_MASK = 0xffffffffu;
// The papers run one warp per block (000 section 3.4); on Hopper that caps a multiprocessor at
// 32 resident warps (32 blocks), so four warps share a block.
constexpr unsigned WARPS_PER_BLOCK = 4;
// Without the opt-in for more, a block may use 48 KiB of shared memory.
constexpr unsigned SHARED_BYTES_PER_BLOCK = 48 * 1024;

// One column sum of the Comba method: {t, u, v} = t * 2^64 + u * 2^32 + v (000 Algorithm 2).
struct column {
    uint32_t t, u, v;
};

// The carry from one block of product words to the next: below 2^64, as the column sums are
// below w * 2^64 (see columns_to_word).
struct carry2 {
    uint32_t lo, hi;
};

__device__ __forceinline__ unsigned wrap(int x, unsigned w)
{
    const int m = x % (int)w;
    return m < 0 ? m + (int)w : m;
}

// Operands in registers, words exchanged by warp shuffles. For the pair of columns k = r + Gq
// and tile jq (steps j = G jq + jr), lane s holds a_{G jq + s} and the two B words
// b_high = b_{(G(q - jq) + s) mod w} and b_low = b_{(G(q - jq) - G + s) mod w}; lane r's word
// b_{(k - j) mod w} is b_high of lane r - jr when r >= jr and b_low of lane r - jr + G
// otherwise, so the sending lane picks which of its two words to send.
template <unsigned G>
struct shuffle_exchange {
    static constexpr unsigned lanes = G;
    static constexpr unsigned shared_words(unsigned) { return 0; }

    const uint32_t *a, *b;
    unsigned w, r;
    uint32_t a_tile, b_high, b_low;

    __device__ shuffle_exchange(uint32_t *, const uint32_t *a_, const uint32_t *b_, unsigned w_,
                                unsigned lane)
        : a(a_), b(b_), w(w_), r(lane % G)
    {
    }
    __device__ void begin_pair(unsigned q) { b_high = b[wrap((int)(G * q + r), w)]; }
    __device__ void begin_tile(unsigned q, unsigned jq)
    {
        const unsigned j = G * jq + r;
        a_tile = j < w ? a[j] : 0;
        b_low = b[wrap((int)(G * q) - (int)(G * jq) - (int)G + (int)r, w)];
    }
    __device__ void end_tile() { b_high = b_low; }
    __device__ uint32_t a_word(unsigned jr) const { return __shfl_sync(FULL_MASK, a_tile, jr, G); }
    __device__ uint32_t b_word(unsigned jr) const
    {
        return __shfl_sync(FULL_MASK, r < G - jr ? b_high : b_low, (int)r - (int)jr, G);
    }
    // x of lane src of this lane's group.
    __device__ uint32_t from(uint32_t x, unsigned src) const
    {
        return __shfl_sync(FULL_MASK, x, src, G);
    }
    // x of lane r - d, 0 for r < d.
    __device__ uint32_t up(uint32_t x, unsigned d) const
    {
        const uint32_t y = __shfl_up_sync(FULL_MASK, x, d, G);
        return r >= d ? y : 0;
    }
};

// Operands in shared memory: per product, A (w words) and B rotated so that lane r reads
// b_{(k - j) mod w} at a fixed base minus jr, without a wrap test per step:
// sb[y] = b_{(y - (G - 1)) mod w} for 0 <= y < w + G - 1. The stride 2w + G - 1 between
// products is odd, so the groups of a warp read a_j from distinct banks. A 32-word slot per
// warp carries the lane exchanges of the carry step.
template <unsigned G>
struct shared_exchange {
    static constexpr unsigned lanes = G;
    static constexpr unsigned shared_words(unsigned w) { return 32 + (32 / G) * (2 * w + G - 1); }

    uint32_t *slot, *sa, *sb;
    const uint32_t *a_tile;
    const uint32_t *b_tile;
    unsigned w, r, lane;

    __device__ shared_exchange(uint32_t *smem, const uint32_t *a, const uint32_t *b, unsigned w_,
                               unsigned lane_)
        : w(w_), r(lane_ % G), lane(lane_)
    {
        slot = smem;
        sa = smem + 32 + lane / G * (2 * w + G - 1);
        sb = sa + w;
        for (unsigned i = r; i < w; i += G)
            sa[i] = a[i];
        for (unsigned y = r; y < w + G - 1; y += G)
            sb[y] = b[wrap((int)y - (int)(G - 1), w)];
        __syncwarp();
    }
    __device__ void begin_pair(unsigned) {}
    __device__ void begin_tile(unsigned q, unsigned jq)
    {
        a_tile = sa + G * jq;
        b_tile = sb + wrap((int)(G * q) - (int)(G * jq) + (int)r, w) + (G - 1);
    }
    __device__ void end_tile() {}
    __device__ uint32_t a_word(unsigned jr) const { return a_tile[jr]; }
    __device__ uint32_t b_word(unsigned jr) const { return *(b_tile - jr); }
    __device__ uint32_t from(uint32_t x, unsigned src) const
    {
        slot[lane] = x;
        __syncwarp();
        const uint32_t y = slot[lane / G * G + src];
        __syncwarp();
        return y;
    }
    __device__ uint32_t up(uint32_t x, unsigned d) const
    {
        const uint32_t y = from(x, r >= d ? r - d : r);
        return r >= d ? y : 0;
    }
};

// One tile of steps j = G jq + jr, jr < n. Below the diagonal tile (jq < q) every step belongs
// to column k, above it to column k + w. In the diagonal tile lane r switches after step jr = r:
// it keeps adding to column k and copies the sum at step r, so the column k + w part is the
// difference and no multiply-add is predicated.
enum tile_kind { TILE_LOW, TILE_HIGH, TILE_DIAGONAL };

template <tile_kind KIND, class X>
__device__ __forceinline__ void mac_step(const X &x, column &acc, column &at_switch, unsigned r,
                                         unsigned jr)
{
    ptx::mac3(acc.t, acc.u, acc.v, x.a_word(jr), x.b_word(jr));
    if (KIND == TILE_DIAGONAL && jr == r)
        at_switch = acc;
}

template <tile_kind KIND, class X>
__device__ __forceinline__ void mac_tile(const X &x, column &acc, column &at_switch, unsigned r,
                                         unsigned n)
{
    if (n == X::lanes) {
#pragma unroll
        for (unsigned jr = 0; jr < X::lanes; jr++)
            mac_step<KIND>(x, acc, at_switch, r, jr);
    } else {
        for (unsigned jr = 0; jr < n; jr++)
            mac_step<KIND>(x, acc, at_switch, r, jr);
    }
}

// {t, u, v} of a - b, for a >= b.
__device__ __forceinline__ column column_sub(column a, column b)
{
    column d;
    d.v = ptx::sub_cc(a.v, b.v);
    d.u = ptx::subc_cc(a.u, b.u);
    d.t = ptx::subc(a.t, b.t);
    return d;
}

// Turns one block of G column sums (lane r holds column r of the block) plus the carry from
// the block below into G product words, and returns the carry into the next block.
// Word r is v_r + u_{r-1} + t_{r-2} + carry-in (t < w <= 2048, so the high part h_r of that sum
// is at most 2), plus h_{r-1}, plus the carry from the words below. A word generates a carry
// when adding h_{r-1} wraps it and propagates one when it is all ones; mp::lookahead_carries
// gives the carry into every lane of the group.
template <class X>
__device__ uint32_t columns_to_word(const X &x, column s, carry2 &carry, unsigned r)
{
    constexpr unsigned G = X::lanes;
    constexpr uint32_t GROUP_BITS = G == 32 ? FULL_MASK : (1u << G) - 1;
    const uint32_t u1 = x.up(s.u, 1), t1 = x.up(s.t, 1), t2 = x.up(t1, 1);
    const uint64_t sum =
        (uint64_t)s.v + u1 + t2 + (r == 0 ? carry.lo : r == 1 ? carry.hi : 0);
    const uint32_t low = (uint32_t)sum, h = (uint32_t)(sum >> 32);
    const uint32_t d = low + x.up(h, 1);
    const unsigned group_shift = (threadIdx.x % 32) / G * G;
    const uint64_t generate = (__ballot_sync(FULL_MASK, d < low) >> group_shift) & GROUP_BITS;
    const uint64_t propagate =
        (__ballot_sync(FULL_MASK, d == FULL_MASK) >> group_shift) & GROUP_BITS;
    const uint64_t carries = mp::lookahead_carries(generate, generate | propagate, 0);
    const uint64_t top = (uint64_t)s.u + t1 + h + ((carries >> G) & 1);
    carry.lo = x.from((uint32_t)top, G - 1);
    carry.hi = x.from(s.t + (uint32_t)(top >> 32), G - 1);
    return d + (uint32_t)((carries >> r) & 1);
}

// floor(L / 2^(32 w)) for the low stream L = sum of columns 0..w-1, read off its last block
// (n = w - G(T - 1) real columns, zero columns above) and that block's carry out; below 2^64.
template <class X>
__device__ carry2 carry_above_low_half(const X &x, uint32_t last_word, carry2 out, unsigned n)
{
    constexpr unsigned G = X::lanes;
    const uint32_t word_n = x.from(last_word, n % G), word_n1 = x.from(last_word, (n + 1) % G);
    carry2 v;
    v.lo = n < G ? word_n : out.lo;
    v.hi = n + 1 < G ? word_n1 : n + 1 == G ? out.lo : out.hi;
    return v;
}

template <class X>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
    warp_column_kernel(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,
                       uint32_t *__restrict__ c, unsigned w, size_t count)
{
    constexpr unsigned G = X::lanes;
    extern __shared__ uint32_t warp_column_smem[];
    const unsigned lane = threadIdx.x % 32, r = lane % G;
    const size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32 * (32 / G);
    if (first >= count)
        return;
    // Lanes of a product past `count` keep the warp whole for the shuffles and votes; they
    // work on the last product and store nothing.
    const size_t p = first + lane / G;
    const bool live = p < count;
    const size_t pc = live ? p : count - 1;
    X x(warp_column_smem + threadIdx.x / 32 * X::shared_words(w), a + pc * w, b + pc * w, w, lane);
    uint32_t *cp = c + pc * 2 * w;
    const unsigned tiles = (w + G - 1) / G;

    carry2 low_carry = {0, 0}, high_carry = {0, 0}, above = {0, 0};
    uint32_t high_first = 0;
    for (unsigned q = 0; q < tiles; q++) {
        const unsigned k = r + G * q;
        column lo = {0, 0, 0}, hi = {0, 0, 0};
        x.begin_pair(q);
        for (unsigned jq = 0; jq < tiles; jq++) {
            const unsigned n = min(G, w - G * jq);
            x.begin_tile(q, jq);
            if (jq < q) {
                mac_tile<TILE_LOW>(x, lo, lo, r, n);
            } else if (jq > q) {
                mac_tile<TILE_HIGH>(x, hi, hi, r, n);
            } else {
                column at_switch = lo;
                mac_tile<TILE_DIAGONAL>(x, lo, at_switch, r, n);
                hi = column_sub(lo, at_switch);
                lo = at_switch;
            }
            x.end_tile();
        }
        if (k >= w)
            lo = hi = column{0, 0, 0};

        const uint32_t low_word = columns_to_word(x, lo, low_carry, r);
        if (live && k < w)
            cp[k] = low_word;
        if (q == tiles - 1)
            above = carry_above_low_half(x, low_word, low_carry, w - G * (tiles - 1));
        // With one block per stream the low stream is done before the high one starts.
        if (tiles == 1)
            high_carry = above;
        const uint32_t high_word = columns_to_word(x, hi, high_carry, r);
        if (q == 0 && tiles > 1)
            high_first = high_word;
        else if (live && k < w)
            cp[w + k] = high_word;
    }
    if (tiles > 1) {
        // w > 32: one product per warp (G = 32), so the loop condition is warp-uniform.
        carry2 carry = above;
        cp[w + r] = columns_to_word(x, column{0, 0, high_first}, carry, r);
        for (unsigned q = 1; q < tiles && (carry.lo | carry.hi); q++) {
            const unsigned k = r + G * q;
            const uint32_t word = columns_to_word(x, column{0, 0, k < w ? cp[w + k] : 0}, carry, r);
            if (k < w)
                cp[w + k] = word;
        }
    }
}

template <class X>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, cudaStream_t stream)
{
    constexpr unsigned G = X::lanes;
    const size_t warp_bytes = (size_t)X::shared_words(words) * sizeof(uint32_t);
    unsigned warps_per_block = WARPS_PER_BLOCK;
    if (warp_bytes && warps_per_block * warp_bytes > SHARED_BYTES_PER_BLOCK)
        warps_per_block = (unsigned)(SHARED_BYTES_PER_BLOCK / warp_bytes);
    const size_t warps = (count + 32 / G - 1) / (32 / G);
    const size_t blocks = (warps + warps_per_block - 1) / warps_per_block;
    warp_column_kernel<X><<<(unsigned)blocks, 32 * warps_per_block, warps_per_block * warp_bytes,
                            stream>>>(a, b, c, words, count);
    return cudaGetLastError();
}

template <template <unsigned> class X>
cudaError_t launch_for_size(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                            size_t count, cudaStream_t stream)
{
    if (words <= 2)
        return launch<X<2>>(a, b, c, words, count, stream);
    if (words <= 4)
        return launch<X<4>>(a, b, c, words, count, stream);
    if (words <= 8)
        return launch<X<8>>(a, b, c, words, count, stream);
    if (words <= 16)
        return launch<X<16>>(a, b, c, words, count, stream);
    return launch<X<32>>(a, b, c, words, count, stream);
}

} // namespace

extern "C" cudaError_t mul_warp_column_shared_launch(const uint32_t *a, const uint32_t *b,
                                                     uint32_t *c, unsigned words, size_t count,
                                                     void *scratch, cudaStream_t stream)
{
    (void)scratch;
    return launch_for_size<shared_exchange>(a, b, c, words, count, stream);
}

extern "C" cudaError_t mul_warp_column_shuffle_launch(const uint32_t *a, const uint32_t *b,
                                                      uint32_t *c, unsigned words, size_t count,
                                                      void *scratch, cudaStream_t stream)
{
    (void)scratch;
    return launch_for_size<shuffle_exchange>(a, b, c, words, count, stream);
}
