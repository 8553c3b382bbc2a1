// The 96-bit arithmetic both Collatz kernels share: the table operation on three registers with
// the PTX mad.lo.cc/madc chain (000 section 4.4.3), the shared prefix of a residue, and the
// start value of a thread's run. All carries go through kernels/ptx_carry.cuh.
#ifndef MPGPU_COLLATZ_ARITH_CUH
#define MPGPU_COLLATZ_ARITH_CUH

#include <stdint.h>

#include "mp_helpers.cuh"
#include "ptx_carry.cuh"

namespace collatz {

// A value below 2^96, least significant word first.
using u96 = mp::u96;

// n <- B * (n >> d) + C for the entry e = {B, C} of n's low d bits (000 Algorithm 5, line 7).
// Returns the word above the 96 bits: nonzero means the value overflowed (000 section 4.4.1).
__device__ __forceinline__ uint32_t table_op(u96 &n, uint2 e, unsigned d)
{
    const uint32_t h0 = __funnelshift_r(n.w0, n.w1, d);
    const uint32_t h1 = __funnelshift_r(n.w1, n.w2, d);
    const uint32_t h2 = n.w2 >> d;
    // Two chains: the low halves of B * h_i (with C), then the high halves one word up.
    uint32_t r0 = ptx::mad_lo_cc(h0, e.x, e.y);
    uint32_t r1 = ptx::madc_lo_cc(h1, e.x, 0);
    uint32_t r2 = ptx::madc_lo_cc(h2, e.x, 0);
    uint32_t r3 = ptx::addc(0, 0);
    r1 = ptx::mad_hi_cc(h0, e.x, r1);
    r2 = ptx::madc_hi_cc(h1, e.x, r2);
    r3 = ptx::madc_hi(h2, e.x, r3);
    n.w0 = r0;
    n.w1 = r1;
    n.w2 = r2;
    return r3;
}

__device__ __forceinline__ bool below(const u96 &n, uint64_t m)
{
    return n.w2 == 0 && ((uint64_t)n.w1 << 32 | n.w0) < m;
}

// The first `ops` table operations of every n = 2^(ops*d) * q + r read the same entries and
// leave 3^j * q + c (cpu_ref collatz_table_prefix, 000 section 4.4.2), standing for `count`
// odd/even operations (the sum of J); j, c < 3^40 fit 64 bits, the intermediate w = 3^j * l + c
// needs 96.
__device__ __forceinline__ void table_prefix(const uint2 *bc, const uint8_t *ops_table, unsigned d,
                                             uint64_t r, unsigned ops, uint64_t &p3, uint64_t &c,
                                             uint32_t &count)
{
    const uint32_t mask = (1u << d) - 1;
    p3 = 1;
    c = 0;
    count = 0;
    for (unsigned i = 0; i < ops; i++) {
        const uint32_t l = (uint32_t)(r >> (i * d)) & mask;
        const uint32_t p0 = (uint32_t)p3, p1 = (uint32_t)(p3 >> 32);
        uint32_t w0 = (uint32_t)c, w1 = (uint32_t)(c >> 32), w2 = 0;
        ptx::mac3(w2, w1, w0, p0, l); // {w2, w1, w0} = c + p0 l
        w1 = ptx::mad_lo_cc(p1, l, w1);
        w2 = ptx::madc_hi(p1, l, w2);
        const uint32_t wl = w0 & mask;
        const uint64_t wh = (uint64_t)__funnelshift_r(w1, w2, d) << 32 | __funnelshift_r(w0, w1, d);
        const uint2 e = bc[wl];
        p3 *= e.x;
        c = e.x * wh + e.y;
        count += ops_table[wl];
    }
}

// p * q + c for p * q + c < 2^96 (the start of a thread's run after its shared prefix): every
// partial sum is at most the result, so no carry leaves the three words.
__device__ __forceinline__ u96 mul_add_64(uint64_t p, uint64_t q, uint64_t c)
{
    const uint32_t p0 = (uint32_t)p, p1 = (uint32_t)(p >> 32);
    const uint32_t q0 = (uint32_t)q, q1 = (uint32_t)(q >> 32);
    u96 r = {(uint32_t)c, (uint32_t)(c >> 32), 0};
    ptx::mac3(r.w2, r.w1, r.w0, p0, q0); // c + p0 q0
    r.w1 = ptx::mad_lo_cc(p1, q0, r.w1);
    r.w2 = ptx::madc_hi(p1, q0, r.w2);
    r.w1 = ptx::mad_lo_cc(p0, q1, r.w1);
    r.w2 = ptx::madc_hi(p0, q1, r.w2);
    r.w2 += p1 * q1;
    return r;
}

__device__ __forceinline__ u96 from_64(uint64_t x)
{
    return u96{(uint32_t)x, (uint32_t)(x >> 32), 0};
}

// Block-wide sum; every thread passes its value, thread 0 gets the total. `scratch` holds one
// word per warp.
__device__ __forceinline__ unsigned long long block_sum(unsigned long long v, unsigned long long *scratch)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    __syncthreads();
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        v = 0;
        for (unsigned w = 0; w < blockDim.x / 32; w++)
            v += scratch[w];
    }
    return v;
}

} // namespace collatz

#endif
