// R^2 mod m (R = 2^(32N)) on the device, for a modulus that arrives with its element (one modulus
// per element, CGBN's setting) rather than with the launch, where the host computes it
// (mpgpu_fixed_modulus_set): powm brings its base into Montgomery form with it. By doubling:
// x <- 2x mod m, 64N times from x = 1. With x < m, 2x < 2m needs one conditional subtraction,
// and 2x may carry out of N words (m close to R), which also means 2x >= m. Branch-free, so
// every thread of a warp runs the same instructions whatever its modulus; 64N steps of about
// 3N word operations each, against powm's 2 x 32N Montgomery multiplications of about 4N^2.
#ifndef MPGPU_FIXED_R2_CUH
#define MPGPU_FIXED_R2_CUH

#include "fixed_core.cuh"

namespace fixed {

template <int N, class M> FIXED_HD void r2_mod(uint32_t (&r2)[N], const M &m)
{
    uint32_t x[N] = {1u}, d[N];
    FIXED_NO_UNROLL
    for (int k = 0; k < 64 * N; k++) {
        const uint32_t carry = add_ext<N, N, N, Impl::c>(x, x, x);
        const uint32_t borrow = sub_ext<N, N, N, Impl::c>(d, x, m);
        // Keep 2x - m when 2x carried out of N words or did not borrow (2x >= m).
        select<N>(x, 0u - (carry | (borrow ^ 1u)), d, x);
    }
    copy<N>(r2, x);
}

} // namespace fixed

#endif
