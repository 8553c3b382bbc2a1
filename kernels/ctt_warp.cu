// Computation-to-warp (003 4.5, after Langer, CESCG 2015): one warp per computation. Add and
// sub walk the operands in 32-word chunks, a word a lane, the carry (borrow) carried across the
// warp by carry-lookahead over two votes and on to the next chunk. Mul maps each schoolbook row
// a_i * b (003 Fig. 4.3) to the warp: a lane's 64-bit a_i b_j + r_{i+j} gives its low word, its
// high word moves one lane up (the multiplication's carry), and the sums of low and high words
// carry by lookahead (the addition's carry) - the two carry steps of 003 4.5. A rational
// computation is one warp's too: its steps one after another (003 4.4.2), each by the warp.
#include "ctt.h"
#include "ctt_device.cuh"

namespace {

template <bool SUB>
__device__ uint32_t warp_addsub(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                                uint32_t nb, uint32_t n)
{
    const unsigned lane = threadIdx.x & 31;
    uint32_t carry = 0;
    for (uint32_t base = 0; base < n; base += 32) {
        const uint32_t i = base + lane;
        const uint32_t s = ctt::warp_chunk<SUB>(ctt::word(a, na, i), ctt::word(b, nb, i), carry,
                                                &carry);
        if (i < n)
            r[i] = s;
        // The carry out of word n - 1 enters word n, which the last chunk holds unless n ends it:
        // that lane's operand words are zero, so its sum is the carry (its difference the
        // borrow's -1). The chunk's carry out is that of word base + 31, not of word n - 1.
        if (n - base < 32)
            return __shfl_sync(ctt::full_mask, s, n - base) & 1;
    }
    return carry;
}

// The highest word where a and b differ decides, found chunk by chunk from the top.
__device__ int warp_cmp(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    const unsigned lane = threadIdx.x & 31;
    const uint32_t n = na > nb ? na : nb;
    if (n == 0)
        return 0;
    for (uint32_t base = (n - 1) / 32 * 32 + 32; base > 0;) {
        base -= 32;
        const uint32_t x = ctt::word(a, na, base + lane), y = ctt::word(b, nb, base + lane);
        const unsigned differ = __ballot_sync(ctt::full_mask, x != y);
        if (differ) {
            const int top = 31 - __clz(differ);
            return __shfl_sync(ctt::full_mask, x > y, top) ? 1 : -1;
        }
    }
    return 0;
}

__device__ void warp_mul(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                         uint32_t nb)
{
    const unsigned lane = threadIdx.x & 31;
    for (uint32_t i = 0; i < na; i++) {
        const uint32_t w1 = a[i];
        uint32_t high_in = 0, carry = 0;
        // Row i covers words i .. i + nb; word i + nb takes the row's last high word. Row 0
        // reads no result word, row i those that row i - 1 wrote.
        for (uint32_t base = 0; base <= nb; base += 32) {
            const uint32_t j = base + lane;
            const uint32_t bj = ctt::word(b, nb, j);
            const uint32_t prev = (i > 0 && j < nb) ? r[i + j] : 0u;
            const uint32_t lo = ptx::mad_lo_cc(w1, bj, prev);
            const uint32_t hi = ptx::madc_hi(w1, bj, 0u);
            uint32_t from_below = __shfl_up_sync(ctt::full_mask, hi, 1);
            if (lane == 0)
                from_below = high_in;
            const uint32_t s = ctt::warp_chunk<false>(lo, from_below, carry, &carry);
            if (j <= nb)
                r[i + j] = s;
            high_in = __shfl_sync(ctt::full_mask, hi, 31);
        }
        __syncwarp(); // row i + 1 reads what other lanes wrote in row i
    }
}

// Result words below the highest nonzero one, plus one, found chunk by chunk from the top.
__device__ uint32_t warp_length(const uint32_t *r, uint32_t n)
{
    const unsigned lane = threadIdx.x & 31;
    for (uint32_t base = (n + 31) / 32 * 32; base > 0;) {
        base -= 32;
        const unsigned nonzero = __ballot_sync(ctt::full_mask, ctt::word(r, n, base + lane) != 0);
        if (nonzero)
            return base + 32 - __clz(nonzero);
    }
    return 0;
}

// One integer computation placed at c.r_off, by the whole warp; every lane ends with its
// r_len and r_neg.
__device__ void compute(uint32_t *mem, mpgpu_ctt_comp &c)
{
    const unsigned lane = threadIdx.x & 31;
    const uint32_t need = ctt_result_capacity(&c);
    uint32_t *r = mem + c.r_off;
    const uint32_t *a = mem + c.a_off, *b = mem + c.b_off;
    const uint32_t n = c.a_len > c.b_len ? c.a_len : c.b_len;
    bool neg;
    if (c.op == MPGPU_CTT_MUL) {
        warp_mul(r, a, c.a_len, b, c.b_len);
        neg = c.a_neg ^ c.b_neg;
    } else if (ctt_adds_magnitudes(&c)) {
        const uint32_t carry = warp_addsub<false>(r, a, c.a_len, b, c.b_len, n);
        if (lane == 0)
            r[n] = carry;
        neg = c.a_neg;
    } else if (warp_cmp(a, c.a_len, b, c.b_len) >= 0) {
        warp_addsub<true>(r, a, c.a_len, b, c.b_len, n);
        neg = c.a_neg;
    } else {
        warp_addsub<true>(r, b, c.b_len, a, c.a_len, n);
        neg = !c.a_neg;
    }
    __syncwarp(); // the length is read from words other lanes wrote
    c.r_len = warp_length(r, need);
    c.r_neg = neg && c.r_len > 0;
}

__device__ void compute(uint32_t *mem, mpgpu_ctt_qcomp &q)
{
    ctt::rational(q, [=](mpgpu_ctt_comp &s) { compute(mem, s); }, [] { __syncwarp(); });
}

template <class Comp>
__global__ void ctt_warp_kernel(uint32_t *mem, Comp *comps, const uint32_t *index,
                                uint32_t count, unsigned *counters, uint32_t result_base)
{
    const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x & 31;
    if (warp >= count)
        return; // the whole warp: a block holds whole warps
    const uint32_t id = index ? index[warp] : (uint32_t)warp;
    Comp c = comps[id];
    // One computation per warp: one atomic reserves its result space (003 4.5 saves "the
    // position and length of the result").
    unsigned start = 0;
    if (lane == 0)
        start = atomicAdd(&counters[CTT_NEXT_WORD], ctt::capacity(c));
    ctt::place(c, result_base + __shfl_sync(ctt::full_mask, start, 0));
    compute(mem, c);
    if (lane == 0)
        comps[id] = c;
}

} // namespace

extern "C" cudaError_t ctt_launch_warp(uint32_t *mem, void *comps, bool rational,
                                       const uint32_t *index, uint32_t count, unsigned *counters,
                                       uint32_t result_base, cudaStream_t s)
{
    if (count == 0)
        return cudaSuccess;
    const unsigned threads = 128, per_block = threads / 32;
    const unsigned blocks = (count + per_block - 1) / per_block;
    if (rational)
        ctt_warp_kernel<<<blocks, threads, 0, s>>>(mem, (mpgpu_ctt_qcomp *)comps, index, count, counters,
                                                   result_base);
    else
        ctt_warp_kernel<<<blocks, threads, 0, s>>>(mem, (mpgpu_ctt_comp *)comps, index, count, counters,
                                                   result_base);
    return cudaGetLastError();
}
