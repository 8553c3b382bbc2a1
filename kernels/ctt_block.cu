// auto's mappings beyond 003: one thread block per computation, of 256 threads for the longest,
// so a computation of thousands of words is not left to one warp (CTW) or one thread (CTT), and
// of 32 (one warp) for auto's middle bin of mul, where product scanning keeps a lane's column
// sum in registers instead of CTW's read and write of every result word in every row; and of
// 64, 128 or 256 for auto's tile bins of long products, which sum the columns in tiles
// (ctt_tile_mul.cuh) instead.
// Add and sub: chunks of a word a thread, the carry across the block by lookahead within each warp (two
// votes) and across the block's warps through shared memory. Mul: product scanning, thread t
// summing columns t, t + 256, ... of the schoolbook in three words, then the three word rows of
// the column sums added (low + middle * 2^32 + high * 2^64) with the same block addition; or
// the tiles' column words and overflow words added so.
// A rational computation is one block's too: its steps one after another (003 4.4.2), each by
// the block, its products sharing one scratch region as long as the longest.
#include "ctt.h"
#include "ctt_device.cuh"
#include "ctt_tile_mul.cuh"

namespace {

// r[0..n) = x +- y, x and y read through the loaders (word index -> word), THREADS words a step;
// returns the carry (borrow) out of word n - 1. r may be x's storage: each thread reads and
// writes only its own words.
template <int THREADS, bool SUB, class LoadX, class LoadY>
__device__ uint32_t block_addsub(uint32_t *r, uint32_t n, LoadX x, LoadY y)
{
    constexpr int warps_per_block = THREADS / 32;
    __shared__ uint32_t warp_carry[warps_per_block]; // bit 0: out with no carry in, bit 1: with one
    __shared__ uint32_t carry_into_n;
    const unsigned lane = threadIdx.x & 31, w = threadIdx.x / 32;
    uint32_t carry = 0;
    for (uint32_t base = 0; base < n; base += THREADS) {
        const uint32_t i = base + threadIdx.x;
        const uint32_t xi = i < n ? x(i) : 0u, yi = i < n ? y(i) : 0u;
        const uint32_t s = SUB ? xi - yi : xi + yi;
        const bool g = SUB ? xi < yi : s < xi;
        const bool p = SUB ? xi == yi : s == 0xffffffffu;
        const uint64_t gen = __ballot_sync(ctt::full_mask, g);
        const uint64_t either = __ballot_sync(ctt::full_mask, g || p);
        if (lane == 0)
            warp_carry[w] = (uint32_t)(mp::lookahead_carries(gen, either, 0) >> 32 & 1) |
                            (uint32_t)(mp::lookahead_carries(gen, either, 1) >> 32 & 1) << 1;
        __syncthreads();
        // The carry into each warp, and out of the chunk, from the warps' two possible outs.
        uint32_t into_mine = 0;
        for (int v = 0; v < warps_per_block; v++) {
            if (v == (int)w)
                into_mine = carry;
            carry = warp_carry[v] >> carry & 1;
        }
        const uint32_t mine = (uint32_t)(mp::lookahead_carries(gen, either, into_mine) >> lane) & 1;
        if (i < n)
            r[i] = SUB ? s - mine : s + mine;
        else if (i == n)
            carry_into_n = mine;
        __syncthreads(); // warp_carry is rewritten by the next chunk
    }
    // A chunk's carry out is that of its top word. When n ends the last chunk short of it, the
    // words past n - 1 are 0 + 0, which stop a carry (and pass a borrow on): the carry out of
    // word n - 1 is the one word n took in (as warp_addsub in ctt_warp.cu).
    return n % THREADS ? carry_into_n : carry;
}

template <int THREADS>
__device__ int block_cmp(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    __shared__ unsigned long long top; // (index + 1) * 2 + (a word > b word) of the highest difference
    const uint32_t n = na > nb ? na : nb;
    if (threadIdx.x == 0)
        top = 0;
    __syncthreads();
    if (n == 0)
        return 0;
    for (uint32_t base = (n - 1) / THREADS * THREADS + THREADS; base > 0;) {
        base -= THREADS;
        const uint32_t i = base + threadIdx.x;
        const uint32_t x = ctt::word(a, na, i), y = ctt::word(b, nb, i);
        if (x != y)
            atomicMax(&top, ((unsigned long long)i + 1) * 2 + (x > y));
        if (__syncthreads_or(x != y))
            break;
    }
    const unsigned long long t = top;
    return t == 0 ? 0 : (t & 1) ? 1 : -1;
}

template <int THREADS>
__device__ uint32_t block_length(const uint32_t *r, uint32_t n)
{
    __shared__ unsigned top;
    if (threadIdx.x == 0)
        top = 0;
    __syncthreads();
    for (uint32_t base = (n + THREADS - 1) / THREADS * THREADS; base > 0;) {
        base -= THREADS;
        const uint32_t i = base + threadIdx.x;
        const bool nonzero = ctt::word(r, n, i) != 0;
        if (nonzero)
            atomicMax(&top, i + 1);
        if (__syncthreads_or(nonzero))
            break;
    }
    return top;
}

// Column k of a * b summed in three words {hi, mid, lo}: lo goes to r, mid and hi to scratch.
template <int THREADS>
__device__ void block_mul(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                          uint32_t nb, uint32_t *mid, uint32_t *high)
{
    const uint32_t n = na + nb;
    for (uint32_t k = threadIdx.x; k < n; k += THREADS) {
        uint32_t t = 0, u = 0, v = 0;
        const uint32_t i_lo = k + 1 > nb ? k + 1 - nb : 0, i_hi = k < na ? k : na - 1;
        for (uint32_t i = i_lo; i <= i_hi; i++)
            ptx::mac3(t, u, v, a[i], b[k - i]);
        r[k] = v;
        mid[k] = u;
        high[k] = t;
    }
    __syncthreads();
    block_addsub<THREADS, false>(r, n, [=](uint32_t i) { return r[i]; },
                        [=](uint32_t i) { return i >= 1 ? mid[i - 1] : 0u; });
    __syncthreads();
    block_addsub<THREADS, false>(r, n, [=](uint32_t i) { return r[i]; },
                        [=](uint32_t i) { return i >= 2 ? high[i - 2] : 0u; });
}

// r[0..na + nb) = a * b by tiles (ctt_tile_mul.cuh), then their overflow words added.
template <int THREADS>
__device__ void tile_mul(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                         uint32_t nb, uint32_t *smem)
{
    const uint32_t *ov = ctt_tile::columns<THREADS>(r, a, na, b, nb, smem);
    block_addsub<THREADS, false>(r, na + nb, [=](uint32_t i) { return r[i]; },
                                 [=](uint32_t i) { return ctt_tile_overflow(ov, i); });
}

// One integer computation placed at c.r_off, by the whole block; a product's column sums go to
// `scratch` (ctt_block_scratch words), or with TILE its tiles to `smem` (dynamic shared memory
// of ctt_tile_shared_words words). Every thread ends with its r_len and r_neg.
template <int THREADS, bool TILE>
__device__ void compute(uint32_t *mem, mpgpu_ctt_comp &c, uint32_t *scratch, uint32_t *smem)
{
    const uint32_t need = ctt_result_capacity(&c);
    uint32_t *r = mem + c.r_off;
    const uint32_t *a = mem + c.a_off, *b = mem + c.b_off;
    const uint32_t na = c.a_len, nb = c.b_len, n = na > nb ? na : nb;
    const auto load_a = [=](uint32_t i) { return ctt::word(a, na, i); };
    const auto load_b = [=](uint32_t i) { return ctt::word(b, nb, i); };
    bool neg;
    if (c.op == MPGPU_CTT_MUL) {
        if constexpr (TILE)
            tile_mul<THREADS>(r, a, na, b, nb, smem);
        else
            block_mul<THREADS>(r, a, na, b, nb, scratch, scratch + need);
        neg = c.a_neg ^ c.b_neg;
    } else if (ctt_adds_magnitudes(&c)) {
        const uint32_t carry = block_addsub<THREADS, false>(r, n, load_a, load_b);
        if (threadIdx.x == 0)
            r[n] = carry;
        neg = c.a_neg;
    } else if (block_cmp<THREADS>(a, na, b, nb) >= 0) {
        block_addsub<THREADS, true>(r, n, load_a, load_b);
        neg = c.a_neg;
    } else {
        block_addsub<THREADS, true>(r, n, load_b, load_a);
        neg = !c.a_neg;
    }
    __syncthreads(); // the length is read from words other threads wrote
    c.r_len = block_length<THREADS>(r, need);
    c.r_neg = neg && c.r_len > 0;
}

template <int THREADS, bool TILE>
__device__ void compute(uint32_t *mem, mpgpu_ctt_qcomp &q, uint32_t *scratch, uint32_t *smem)
{
    ctt::rational(q, [=](mpgpu_ctt_comp &s) { compute<THREADS, TILE>(mem, s, scratch, smem); },
                  [] { __syncthreads(); });
}

template <int THREADS, bool TILE, class Comp>
__global__ void __launch_bounds__(THREADS)
ctt_block_kernel(uint32_t *mem, Comp *comps, const uint32_t *index, unsigned *counters,
                 uint32_t result_base, uint32_t *scratch)
{
    extern __shared__ uint4 tile_smem[];
    __shared__ unsigned start, scratch_start;
    const uint32_t id = index ? index[blockIdx.x] : blockIdx.x;
    Comp c = comps[id];
    if (threadIdx.x == 0) {
        start = atomicAdd(&counters[CTT_NEXT_WORD], ctt::capacity(c));
        const uint32_t words = TILE ? 0 : ctt::block_scratch(c);
        scratch_start = words ? atomicAdd(&counters[CTT_NEXT_SCRATCH], words) : 0;
    }
    __syncthreads();
    ctt::place(c, result_base + start);
    compute<THREADS, TILE>(mem, c, scratch + scratch_start, reinterpret_cast<uint32_t *>(tile_smem));
    if (threadIdx.x == 0)
        comps[id] = c;
}

template <class Comp>
cudaError_t launch(uint32_t *mem, Comp *comps, const uint32_t *index, uint32_t count,
                   unsigned *counters, uint32_t result_base, uint32_t *scratch, enum ctt_bin kind,
                   uint32_t longest, cudaStream_t s)
{
    if (kind == CTT_BIN_WARP_COLUMNS)
        ctt_block_kernel<32, false><<<count, 32, 0, s>>>(mem, comps, index, counters, result_base,
                                                          scratch);
    else if (kind == CTT_BIN_TILE64)
        ctt_block_kernel<64, true><<<count, 64, ctt_tile_shared_words(longest) * 4, s>>>(
            mem, comps, index, counters, result_base, scratch);
    else if (kind == CTT_BIN_TILE128)
        ctt_block_kernel<128, true><<<count, 128, ctt_tile_shared_words(longest) * 4, s>>>(
            mem, comps, index, counters, result_base, scratch);
    else if (kind == CTT_BIN_TILE256)
        ctt_block_kernel<256, true><<<count, 256, ctt_tile_shared_words(longest) * 4, s>>>(
            mem, comps, index, counters, result_base, scratch);
    else
        ctt_block_kernel<CTT_BLOCK_THREADS, false><<<count, CTT_BLOCK_THREADS, 0, s>>>(
            mem, comps, index, counters, result_base, scratch);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t ctt_launch_block(uint32_t *mem, void *comps, bool rational,
                                        const uint32_t *index, uint32_t count, unsigned *counters,
                                        uint32_t result_base, uint32_t *scratch,
                                        enum ctt_bin kind, uint32_t longest, cudaStream_t s)
{
    if (count == 0)
        return cudaSuccess;
    if (rational)
        return launch(mem, (mpgpu_ctt_qcomp *)comps, index, count, counters, result_base, scratch,
                      kind, longest, s);
    return launch(mem, (mpgpu_ctt_comp *)comps, index, count, counters, result_base, scratch, kind,
                  longest, s);
}

extern "C" cudaError_t ctt_block_resident(bool rational, int *blocks_per_sm)
{
    if (rational)
        return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            blocks_per_sm, ctt_block_kernel<CTT_BLOCK_THREADS, false, mpgpu_ctt_qcomp>, CTT_BLOCK_THREADS, 0);
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        blocks_per_sm, ctt_block_kernel<CTT_BLOCK_THREADS, false, mpgpu_ctt_comp>, CTT_BLOCK_THREADS, 0);
}
