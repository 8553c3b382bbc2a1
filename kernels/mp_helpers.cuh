// Multiword helpers that several kernels share, written on the PTX carry primitives of
// ptx_carry.cuh (as CGBN keeps its arith/ apart from the algorithms of core/). A kernel file
// holds its algorithm; the carry and borrow bookkeeping it has in common with others is here.
#ifndef MPGPU_MP_HELPERS_CUH
#define MPGPU_MP_HELPERS_CUH

#include <stdint.h>

#include "ptx_carry.cuh"

namespace mp {

// d = x - y - borrow over N words in registers; returns the borrow out (000 section 3.3.3:
// carry chains).
template <int N>
__device__ __forceinline__ uint32_t sub_words(uint32_t (&d)[N], const uint32_t (&x)[N],
                                              const uint32_t (&y)[N], uint32_t borrow)
{
    ptx::sub_cc(0u, borrow);
#pragma unroll
    for (int j = 0; j < N; j++)
        d[j] = ptx::subc_cc(x[j], y[j]);
    return ptx::subc(0u, 0u) & 1;
}

// d = |x - y| over N words in registers; returns 1 if x < y. The difference is negated in
// two's complement when it borrowed, without a branch, so a thread's registers stay put.
template <int N>
__device__ __forceinline__ uint32_t abs_diff_words(uint32_t (&d)[N], const uint32_t (&x)[N],
                                                   const uint32_t (&y)[N])
{
    const uint32_t borrow = sub_words<N>(d, x, y, 0);
    const uint32_t flip = 0u - borrow;
    d[0] = ptx::add_cc(d[0] ^ flip, borrow);
#pragma unroll
    for (int j = 1; j < N; j++)
        d[j] = ptx::addc_cc(d[j] ^ flip, 0u);
    return borrow;
}

} // namespace mp

#endif
