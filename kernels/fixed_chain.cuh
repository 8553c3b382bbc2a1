// One element of `mpgpu fixed --chain K`: the operation applied K times, each time to the
// previous result, so that arithmetic and not memory is measured (issue 12; the study looped
// around its macros for the same reason, 004 section 3.9.1). The kernels and the host test run
// this same code; cpu_ref/fixed_ref.c computes what it must give with GMP:
//   add, sub      x <- x + b, x <- x - b            (mod 2^(32n)),  x0 = a
//   addm, subm    x <- x + b mod m, x <- x - b mod m
//   mul, karatsuba x <- x b mod 2^P, and the last product in full (2n words)
//   montred       x <- x R^-1 mod m, x0 = T = a (2n words)
//   montmul       x <- x b R^-1 mod m
//   powm          x <- x^b mod m
// With r a register array the chain stays in registers (004's _loc); with r a view of device
// memory every link reads and writes it there (004's _glo, section 3.6.3).
#ifndef MPGPU_FIXED_CHAIN_CUH
#define MPGPU_FIXED_CHAIN_CUH

#include "fixed_add.cuh"
#include "fixed_fp64_chain.cuh"
#include "fixed_mont.cuh"
#include "fixed_mul.cuh"
#include "fixed_ops.h"

namespace fixed {

template <int P, int OP, Impl I, class R, class A, class B, class M, class R2>
FIXED_HD void run_chain(R &&r, const A &a, const B &b, const M &m, uint32_t mp, const R2 &r2,
                        uint64_t chain)
{
    constexpr int N = words_of(P);
    if constexpr (I == Impl::fp64) {
        fp64::run_chain<P, OP>(r, a, b, m, r2, chain);
    } else if constexpr (OP == FIXED_ADD || OP == FIXED_SUB || OP == FIXED_ADDM || OP == FIXED_SUBM) {
        copy<N>(r, a);
        FIXED_NO_UNROLL
        for (uint64_t k = 0; k < chain; k++) {
            if constexpr (OP == FIXED_ADD)
                add<N, I>(r, r, b);
            else if constexpr (OP == FIXED_SUB)
                sub<N, I>(r, r, b);
            else if constexpr (OP == FIXED_ADDM)
                addm<N, I>(r, r, b, m);
            else
                subm<N, I>(r, r, b, m);
        }
    } else if constexpr (OP == FIXED_MUL || OP == FIXED_KARATSUBA) {
        // Karatsuba's split assumes P-bit operands, so each link keeps x below 2^P.
        constexpr uint32_t top_mask = P % 32 ? (1u << (P % 32)) - 1 : ~0u;
        uint32_t x[N], full[2 * N];
        copy<N>(x, a);
        FIXED_NO_UNROLL
        for (uint64_t k = 1; k < chain; k++) {
            if constexpr (OP == FIXED_MUL)
                mul<N, I>(full, x, b);
            else
                karatsuba<P, I>(full, x, b);
            copy<N>(x, full);
            x[N - 1] &= top_mask;
        }
        if constexpr (OP == FIXED_MUL)
            mul<N, I>(r, x, b);
        else
            karatsuba<P, I>(r, x, b);
    } else if constexpr (OP == FIXED_MONTRED) {
        uint32_t t[2 * N];
        copy<2 * N>(t, a);
        FIXED_NO_UNROLL
        for (uint64_t k = 1; k < chain; k++) {
            montred<N, I>(t, t, m, mp);
            FIXED_UNROLL
            for (int j = N; j < 2 * N; j++)
                t[j] = 0;
        }
        montred<N, I>(r, t, m, mp);
    } else if constexpr (OP == FIXED_MONTMUL) {
        montmul<N, I>(r, a, b, m, mp);
        FIXED_NO_UNROLL
        for (uint64_t k = 1; k < chain; k++)
            montmul<N, I>(r, r, b, m, mp);
    } else {
        static_assert(OP == FIXED_POWM, "an operation of fixed_ops.h");
        powm<N, I>(r, a, b, m, mp, r2);
        FIXED_NO_UNROLL
        for (uint64_t k = 1; k < chain; k++)
            powm<N, I>(r, r, b, m, mp, r2);
    }
}

} // namespace fixed

#endif
