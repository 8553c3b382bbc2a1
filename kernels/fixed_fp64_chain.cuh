// One element of `mpgpu fixed --impl fp64 --chain K` (montmul and powm only): the chain of
// fixed_chain.cuh with the arithmetic of fixed_fp64.cuh. Operands, modulus and result keep
// mpgpu's 32-bit words in memory and the same R = 2^(32N), so the GMP reference
// (cpu_ref/fixed_ref.c) is the same; the words become 52-bit limbs once, before the chain, and
// come back once, after it.
//   montmul  x <- x b R^-1 mod m, x0 = a b R^-1 mod m
//   powm     x <- x^b mod m
#ifndef MPGPU_FIXED_FP64_CHAIN_CUH
#define MPGPU_FIXED_FP64_CHAIN_CUH

#include "fixed_fp64.cuh"
#include "fixed_ops.h"

namespace fixed {
namespace fp64 {

// The limbs of an N-word number as doubles.
template <int N, class W> FIXED_HD void load(double (&x)[limbs_of(N)], const W &w)
{
    uint64_t v[limbs_of(N)];
    to_limbs<N>(v, w);
    FIXED_UNROLL
    for (int j = 0; j < limbs_of(N); j++)
        x[j] = limb_double(v[j]);
}

template <int N, class W> FIXED_HD void store(W &&w, const double (&x)[limbs_of(N)])
{
    uint64_t v[limbs_of(N)];
    FIXED_UNROLL
    for (int j = 0; j < limbs_of(N); j++)
        v[j] = limb_value(x[j]);
    to_words<N>(w, v);
}

template <int P, int OP, class R, class A, class B, class M, class R2>
FIXED_HD void run_chain(R &&r, const A &a, const B &b, const M &m, const R2 &r2, uint64_t chain)
{
    static_assert(OP == FIXED_MONTMUL || OP == FIXED_POWM, "fp64 has montmul and powm");
    constexpr int N = words_of(P), L = limbs_of(N);
    Modulus<N> mod;
    modulus_set<N>(mod, m);
    double x[L];
    load<N>(x, a);
    if constexpr (OP == FIXED_MONTMUL) {
        double y[L];
        load<N>(y, b);
        FIXED_NO_UNROLL
        for (uint64_t k = 0; k < chain; k++)
            montmul<N>(x, x, y, mod);
    } else {
        uint32_t e[N]; // the exponent stays in words: powm reads its bits
        FIXED_UNROLL
        for (int j = 0; j < N; j++)
            e[j] = b[j];
        double r2l[L];
        load<N>(r2l, r2);
        FIXED_NO_UNROLL
        for (uint64_t k = 0; k < chain; k++)
            powm<N>(x, x, e, r2l, mod);
    }
    store<N>(r, x);
}

} // namespace fp64
} // namespace fixed

#endif
