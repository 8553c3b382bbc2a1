// Montgomery multiplication with each word product split between the pipes that run together
// (issue 39): its low word by a 32-bit IMAD, exact, into the column's low word; the product
// itself by a DFMA into the column's sum as a double, approximate. With operands from the
// kernel's parameters, 32-bit IMAD and DFMA run side by side on the H200, where the IMAD.WIDE
// and IMAD.HI that the IMAD path's word products need run at half the rate
// (experiments/pipe_overlap.cu). Used by the probe experiments/fixed_pipes.cu, not by the
// library: measured slower than the IMAD path, the register file's operand reads being what the
// measurements point to (docs/004-fixed.md, "An element on each pipe, a word product split
// between them").
//
// Product scanning with the reduction folded in column by column (Koc, Acar and Kaliski's FIPS):
// column i sums a_j b_(i-j) and q_j m_(i-j) and the carry of column i - 1; in the low columns
// q_i = (the column's low word) (-m^-1) mod 2^32 makes the low word zero. Per column:
//   * L, its exact value mod 2^32: a chain of IMADs (x y + L, the low word of each product);
//   * S, its approximate value: DFMAs, the carry in added last. A column sums at most 2N + 1
//     terms below 2^64 + 2^37, so |S| < 2^70 for N <= 16 and each rounding is at most 2^17:
//     S is within 2^23 of the column's value, which is H 2^32 + L;
//   * so H = round((S - L) 2^-32) exactly (the error is below 2^-9 after the scaling), by one
//     DFMA onto 1.5 2^52, where doubles are the integers: the carry y = 1.5 2^52 + H holds H in
//     its mantissa, so the next column's L starts from y's low word (H mod 2^32) and its S from y
//     itself, offset and all, with no conversion.
// Each kind is summed in two chains, and the terms that wait on column i - 1 (q_(i-1) m_1 and
// the carry) come last, so that a column's chains run while the column before is still resolving
// its carry. In a low column L is zero once q_i m_0 is in, so H = round(S 2^-32) minus the
// offsets, one DFMA; in a high column S - (2^52 + L) takes one DADD first, 2^52 + L being the
// double whose bit pattern is L under 2^52's exponent. The words of a, b, m and each q_j are also
// held as doubles, by the same pattern and one exact DADD.
//
// R = 2^(32N), the IMAD path's: the result (t + 2^(32N) H_top, below 2m) takes the final
// subtraction of HAC 14.32 step 4.
// The device, the probe's host check and the cpu suite (tests/test_fixed_probe_paths.cc, against
// GMP) run this same code: every DFMA and DADD rounds to nearest, which C's fma() and + do too.
#ifndef MPGPU_FIXED_FP64_CARRIES_CUH
#define MPGPU_FIXED_FP64_CARRIES_CUH

#include <stdint.h>

#include "../kernels/fixed_core.cuh"
#include "../kernels/fixed_fp64_exact.cuh"
#include "fixed_fp64_rn.cuh"

namespace fixed {
namespace carries {

static_assert(sizeof(double) == 8, "IEEE binary64");

// 2^52 + w, whose bit pattern is w under 2^52's exponent (w itself is fp64::word_double's).
FIXED_HD double offset_double(uint32_t w) { return fp64::double_of(fp64::lo_pattern | w); }

constexpr double carry_base = 0x1.8p52; // y = carry_base + H

// An N-word number and its words as doubles.
template <int N> struct Number {
    uint32_t w[N];
    double d[N];
};

template <int N, class W> FIXED_HD void number_set(Number<N> &x, const W &w)
{
    FIXED_UNROLL
    for (int j = 0; j < N; j++) {
        x.w[j] = w[j];
        x.d[j] = fp64::word_double(w[j]);
    }
}

// r = a b 2^(-32N) mod m for a, b < m; r may be a or b (it is written last).
template <int N>
FIXED_HD void montmul(Number<N> &r, const Number<N> &a, const Number<N> &b, const Number<N> &m,
                      uint32_t mp)
{
    uint32_t q[N], t[N];
    double qd[N];
    double y = carry_base; // the carry into the column: carry_base + H
    FIXED_UNROLL
    for (int i = 0; i < 2 * N - 1; i++) {
        // The terms that do not wait on column i - 1 first, in two chains of each kind so that
        // each chain is half as long: a_j b_(i-j), and q_j m_(i-j) for j < i - 1.
        uint32_t L0 = 0, L1 = 0;
        double S0 = 0, S1 = 0;
        int n = 0; // terms so far: even ones into chain 0, odd ones into chain 1
        FIXED_UNROLL
        for (int j = 0; j < N; j++) { // a constant trip count, so that it unrolls whole
            const int k = i - j;
            if (k < 0 || k >= N)
                continue;
            if (n++ % 2 == 0) {
                L0 = a.w[j] * b.w[k] + L0;
                S0 = fp64::fma_rn(a.d[j], b.d[k], S0);
            } else {
                L1 = a.w[j] * b.w[k] + L1;
                S1 = fp64::fma_rn(a.d[j], b.d[k], S1);
            }
            if (k >= 2) {
                if (n++ % 2 == 0) {
                    L0 = q[j] * m.w[k] + L0;
                    S0 = fp64::fma_rn(qd[j], m.d[k], S0);
                } else {
                    L1 = q[j] * m.w[k] + L1;
                    S1 = fp64::fma_rn(qd[j], m.d[k], S1);
                }
            }
        }
        // Then what column i - 1 just gave: q_(i-1) m_1, and its carry.
        if (i >= 1 && i - 1 < N) {
            L0 = q[i - 1] * m.w[1] + L0;
            S0 = fp64::fma_rn(qd[i - 1], m.d[1], S0);
        }
        uint32_t L = L0 + L1 + (uint32_t)fp64::bits_of(y); // H mod 2^32
        double S = (S0 + S1) + y;
        if (i < N) {
            // The low word becomes zero: q_i m_0 = -L mod 2^32, so only S takes it.
            q[i] = L * mp;
            qd[i] = fp64::word_double(q[i]);
            S = fp64::fma_rn(qd[i], m.d[0], S);
            // S = 1.5 2^52 + H 2^32 + err: S 2^-32 = 1.5 2^20 + H + err 2^-32.
            y = fp64::fma_rn(S, 0x1p-32, carry_base - 0x1.8p20);
        } else {
            t[i - N] = L;
            // S - (2^52 + L) = 2^51 + H 2^32 + err: times 2^-32, 2^19 + H + err 2^-32.
            y = fp64::fma_rn(S - offset_double(L), 0x1p-32, carry_base - 0x1p19);
        }
    }
    // Column 2N - 1 holds only the carry: word N - 1 and the top bit.
    const uint32_t top_carry = (uint32_t)fp64::bits_of(y);
    t[N - 1] = top_carry;
    const uint32_t top = (uint32_t)(fp64::bits_of(y) >> 32) & 1u; // H < 2^33: bit 32 of H
    uint32_t d[N];
    const uint32_t borrow = sub_ext<N, N, N, Impl::ptx>(d, t, m.w);
    const uint32_t keep_difference = 0u - (top | (borrow ^ 1u));
    select<N>(r.w, keep_difference, d, t);
    FIXED_UNROLL
    for (int j = 0; j < N; j++)
        r.d[j] = fp64::word_double(r.w[j]);
}

// The chain x <- x b 2^(-32N) mod m on this path, as the probe runs it. a, b < m.
template <int N> struct Chain {
    Number<N> b, x, m;
    uint32_t mp;
    FIXED_HD Chain(const uint32_t (&a)[N], const uint32_t (&bw)[N], const uint32_t (&mw)[N],
                   uint32_t mp32)
        : mp(mp32)
    {
        number_set<N>(b, bw);
        number_set<N>(x, a);
        number_set<N>(m, mw);
    }
    // One step; returns 0 (columns::Chain's step returns what its limbs leave over), or 1 if a
    // double no longer equals its word.
    FIXED_HD uint32_t step()
    {
        montmul<N>(x, x, b, m, mp);
        uint32_t differs = 0;
        FIXED_UNROLL
        for (int j = 0; j < N; j++)
            differs |= x.d[j] != fp64::word_double(x.w[j]);
        return differs;
    }
    FIXED_HD void result(uint32_t (&r)[N]) { copy<N>(r, x.w); }
};

} // namespace carries
} // namespace fixed

#endif
