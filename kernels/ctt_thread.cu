// Computation-to-thread (003 3.3, 3.4, 4.3): each thread does one whole computation, word by
// word, as cpu_ref/ctt_*_ref.c do on the host. Warps loop over the batch taking 32 computations
// with one atomic (003 Algorithm 3.1) and reserve the result space of all 32 with one more
// (Algorithm 3.2), so a warp stays full whatever the lengths and atomics stay two per warp and
// step. A rational computation is one thread's too: its steps one after another (003 4.4.2).
#include "ctt.h"
#include "ctt_device.cuh"

namespace {

// 003 4.3.1 "Addition": r = a + b over max(na, nb) + 1 words.
__device__ void add_magnitude(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                              uint32_t nb)
{
    const uint32_t n = na > nb ? na : nb;
    uint32_t carry = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t s = ptx::add_cc(ctt::word(a, na, i), ctt::word(b, nb, i));
        const uint32_t c1 = ptx::addc(0u, 0u);
        r[i] = ptx::add_cc(s, carry);
        carry = ptx::addc(c1, 0u);
    }
    r[n] = carry;
}

__device__ int cmp_magnitude(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    for (uint32_t i = na > nb ? na : nb; i-- > 0;) {
        const uint32_t x = ctt::word(a, na, i), y = ctt::word(b, nb, i);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

// 003 4.3.1 "Subtraction", a >= b: a borrow goes out when x < y, or x == y with one coming in
// (003 prints the condition inverted).
__device__ void sub_magnitude(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                              uint32_t nb)
{
    const uint32_t n = na > nb ? na : nb;
    uint32_t borrow = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t x = ctt::word(a, na, i), y = ctt::word(b, nb, i);
        r[i] = x - y - borrow;
        borrow = x < y || (x == y && borrow);
    }
}

// 003 Algorithm B.1, row by row into result memory; row 0 reads nothing, so the result space
// needs no zeroing (the host zeroes it in 003).
__device__ void mul_schoolbook(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                               uint32_t nb)
{
    for (uint32_t i = 0; i < na; i++) {
        const uint32_t w1 = a[i];
        uint32_t c = 0;
        for (uint32_t j = 0; j < nb; j++) {
            // t = w1 * w2 + r + c < 2^64, in two carry chains.
            uint32_t lo = ptx::mad_lo_cc(w1, b[j], i ? r[i + j] : 0u);
            uint32_t hi = ptx::madc_hi(w1, b[j], 0u);
            r[i + j] = ptx::add_cc(lo, c);
            c = ptx::addc(hi, 0u);
        }
        r[i + nb] = c;
    }
}

__device__ void compute(uint32_t *mem, mpgpu_ctt_comp &c)
{
    uint32_t *r = mem + c.r_off;
    const uint32_t *a = mem + c.a_off, *b = mem + c.b_off;
    bool neg;
    if (c.op == MPGPU_CTT_MUL) {
        mul_schoolbook(r, a, c.a_len, b, c.b_len);
        neg = c.a_neg ^ c.b_neg;
    } else if (ctt_adds_magnitudes(&c)) {
        add_magnitude(r, a, c.a_len, b, c.b_len);
        neg = c.a_neg;
    } else if (cmp_magnitude(a, c.a_len, b, c.b_len) >= 0) {
        sub_magnitude(r, a, c.a_len, b, c.b_len);
        neg = c.a_neg;
    } else {
        sub_magnitude(r, b, c.b_len, a, c.a_len);
        neg = !c.a_neg;
    }
    uint32_t n = ctt_result_capacity(&c);
    while (n > 0 && r[n - 1] == 0)
        n--;
    c.r_len = n;
    c.r_neg = neg && n > 0;
}

// No sync between the steps: one thread wrote what the next step reads.
__device__ void compute(uint32_t *mem, mpgpu_ctt_qcomp &q)
{
    ctt::rational(q, [=](mpgpu_ctt_comp &s) { compute(mem, s); }, [] {});
}

template <class Comp>
__global__ void ctt_thread_kernel(uint32_t *mem, Comp *comps, const uint32_t *index,
                                  uint32_t count, unsigned *counters, uint32_t result_base)
{
    const unsigned lane = threadIdx.x & 31;
    for (;;) {
        // Algorithm 3.1: lane 0 takes 32 computations, the others get the base by shuffle. The
        // loop ends on the base taken (003 tests C_l before the atomic, which other warps may
        // since have moved), and lanes past the end are the guarded tail.
        unsigned first = 0;
        if (lane == 0)
            first = atomicAdd(&counters[CTT_NEXT_COMP], 32u);
        first = __shfl_sync(ctt::full_mask, first, 0);
        if (first >= count)
            return;
        const uint32_t ci = first + lane;
        const bool active = ci < count;
        const uint32_t id = active ? (index ? index[ci] : ci) : 0;
        Comp c = {};
        if (active)
            c = comps[id];
        const uint32_t need = active ? ctt::capacity(c) : 0;
        // Algorithm 3.2: inclusive scan of the sizes by shfl_up (003 writes lane i + l; the
        // part of the sum lane i lacks is at i - l), then one atomic by the last active lane,
        // which holds the warp's total.
        uint32_t n = need;
#pragma unroll
        for (int l = 1; l < 32; l <<= 1) {
            const uint32_t up = __shfl_up_sync(ctt::full_mask, n, l);
            if ((int)lane >= l)
                n += up;
        }
        const int last = 31 - __clz(__ballot_sync(ctt::full_mask, active));
        unsigned start = 0;
        if ((int)lane == last)
            start = atomicAdd(&counters[CTT_NEXT_WORD], n);
        start = __shfl_sync(ctt::full_mask, start, last);
        if (active) {
            ctt::place(c, result_base + start + (n - need));
            compute(mem, c);
            comps[id] = c;
        }
    }
}

} // namespace

extern "C" cudaError_t ctt_launch_thread(uint32_t *mem, void *comps, bool rational,
                                         const uint32_t *index, uint32_t count, unsigned *counters,
                                         uint32_t result_base, int sm_count, cudaStream_t s)
{
    if (count == 0)
        return cudaSuccess;
    // Enough warps to fill the GPU, never more than the batch has groups of 32: Algorithm 3.1
    // lets any number of warps share the batch.
    const uint64_t warps_needed = (count + 31) / 32;
    const uint64_t warps_max = (uint64_t)sm_count * 48;
    const uint64_t warps = warps_needed < warps_max ? warps_needed : warps_max;
    // A batch of few warps (8192 computations are 256) goes one warp a block, so it spreads over
    // all SMs instead of filling half of them four warps deep.
    const unsigned threads = warps < 4 * (uint64_t)sm_count ? 32 : 128;
    const unsigned blocks = (unsigned)((warps * 32 + threads - 1) / threads);
    if (rational)
        ctt_thread_kernel<<<blocks, threads, 0, s>>>(mem, (mpgpu_ctt_qcomp *)comps, index, count, counters,
                                                     result_base);
    else
        ctt_thread_kernel<<<blocks, threads, 0, s>>>(mem, (mpgpu_ctt_comp *)comps, index, count, counters,
                                                     result_base);
    return cudaGetLastError();
}
