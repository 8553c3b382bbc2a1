// Addition and subtraction of fixed-precision numbers (004 sections 3.6.4 to 3.6.7).
//
// add and sub work in two's complement held in the operand width, as the study's add_loc and
// sub_loc: the N-word result is the sum or difference modulo 2^(32N), and a negative difference
// has leading ones (004 Fig. 3.3). They also return the carry or borrow out of the top word.
//
// addm and subm are the branch-free modular forms of 004 Listings 3.14 and 3.16 for 0 <= a, b < m:
// the modulus is subtracted (or added back) through a mask made from the borrow, never through a
// branch. The study excluded precisions that are multiples of 32 so that a + b always fits the
// operand words; here they are supported too, so addm also keeps the carry out of a + b: a + b - m
// is negative only when a + b did not carry out and the subtraction borrowed.
#ifndef MPGPU_FIXED_ADD_CUH
#define MPGPU_FIXED_ADD_CUH

#include "fixed_core.cuh"

namespace fixed {

template <int N, Impl I, class R, class A, class B>
FIXED_HD uint32_t add(R &&r, const A &a, const B &b)
{
    return add_ext<N, N, N, I>(r, a, b);
}

template <int N, Impl I, class R, class A, class B>
FIXED_HD uint32_t sub(R &&r, const A &a, const B &b)
{
    return sub_ext<N, N, N, I>(r, a, b);
}

// r = (a + b) mod m for a, b < m (004 Listing 3.14, with the carry out of a + b).
template <int N, Impl I, class R, class A, class B, class M>
FIXED_HD void addm(R &&r, const A &a, const B &b, const M &m)
{
    uint32_t s[N];
    const uint32_t carry = add_ext<N, N, N, I>(s, a, b);
    const uint32_t borrow = sub_ext<N, N, N, I>(s, s, m);
    const uint32_t mask = 0u - (borrow & ~carry);
    uint32_t back[N];
    FIXED_UNROLL
    for (int j = 0; j < N; j++)
        back[j] = m[j] & mask;
    add_ext<N, N, N, I>(r, s, back);
}

// r = (a - b) mod m for a, b < m (004 Listing 3.16).
template <int N, Impl I, class R, class A, class B, class M>
FIXED_HD void subm(R &&r, const A &a, const B &b, const M &m)
{
    uint32_t d[N];
    const uint32_t mask = 0u - sub_ext<N, N, N, I>(d, a, b);
    uint32_t back[N];
    FIXED_UNROLL
    for (int j = 0; j < N; j++)
        back[j] = m[j] & mask;
    add_ext<N, N, N, I>(r, d, back);
}

} // namespace fixed

#endif
