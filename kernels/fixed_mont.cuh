// Montgomery arithmetic on fixed-precision numbers: reduction (HAC Algorithm 14.32, which 004
// section 3.7 could not make work), multiplication and modular exponentiation on it (beyond the
// study).
//
// R = 2^(32N), the word base to the number's word count, as HAC's R = b^n; not 2^P. The study
// shifted by P = 131 bits (004 section 3.7, step 3), which divides by the wrong power of two
// whenever P is not a multiple of 32: that is the likely cause of its wrong results. The
// accumulator has 2N + 1 words: T < mR < 2^(64N), but T + sum u_i m b^i can reach 2mR, one bit
// more, which matters when P is a multiple of 32 (m close to R).
//
// The modulus m is odd, below R, and the same for every number of a run (a field of elliptic-curve
// cryptography, 004 section 3.1.2); mp = -m^-1 mod 2^32 is computed once by mont_neg_inv.
#ifndef MPGPU_FIXED_MONT_CUH
#define MPGPU_FIXED_MONT_CUH

#include "fixed_core.cuh"
#include "fixed_fp64_exact.cuh"

namespace fixed {

// -m0^-1 mod 2^32 for odd m0: m0 is its own inverse to 3 bits, and each Newton step
// x <- x (2 - m0 x) doubles the correct bits (3, 6, 12, 24, 48).
FIXED_HD uint32_t mont_neg_inv(uint32_t m0)
{
    uint32_t x = m0;
    for (int k = 0; k < 4; k++)
        x *= 2u - m0 * x;
    return 0u - x;
}

// Row i of HAC 14.32 step 2.2 on the accumulator: acc[i..i+N) += u m, the carry out of word
// i+N-1 and the previous row's carry into word i+N go into acc[i+N], whose own carry comes
// back in *top (word i+N+1, not yet touched by any row, holds it until the next row).
template <int N, Impl I, class M>
FIXED_HD void mont_row(uint32_t *acc, uint32_t u, const M &m, uint32_t &top)
{
#if defined(__CUDA_ARCH__)
    if constexpr (I == Impl::ptx) {
        // The low halves of u m[j] in one chain that runs on into acc[N] with the carry of the
        // row before; the high halves one word up in a second chain into acc[N].
        acc[0] = ptx::mad_lo_cc(u, m[0], acc[0]);
        FIXED_UNROLL
        for (int j = 1; j < N; j++)
            acc[j] = ptx::madc_lo_cc(u, m[j], acc[j]);
        acc[N] = ptx::addc_cc(acc[N], top);
        const uint32_t carry = ptx::addc(0u, 0u);
        acc[1] = ptx::mad_hi_cc(u, m[0], acc[1]);
        FIXED_UNROLL
        for (int j = 1; j < N; j++)
            acc[j + 1] = ptx::madc_hi_cc(u, m[j], acc[j + 1]);
        top = ptx::addc(carry, 0u);
    } else
#endif
    {
        const uint64_t s = (uint64_t)acc[N] + mad_row<N, I>(acc, u, m) + top;
        acc[N] = (uint32_t)s;
        top = (uint32_t)(s >> 32);
    }
}

// r = T R^-1 mod m for T = acc[0..2N) < mR (HAC 14.32); acc is overwritten. The division by R
// is taking words N..2N of the accumulator (step 3); the final subtraction (step 4) is a
// branch-free choice between A and A - m over N + 1 words, A < 2m.
template <int N, Impl I, class R, class M>
FIXED_HD void mont_reduce_acc(R &&r, uint32_t (&acc)[2 * N], const M &m, uint32_t mp)
{
    uint32_t top = 0; // word 2N of the accumulator
    FIXED_UNROLL
    for (int i = 0; i < N; i++)
        mont_row<N, I>(acc + i, acc[i] * mp, m, top);
    uint32_t d[N];
    const uint32_t borrow = sub_ext<N, N, N, I>(d, acc + N, m);
    const uint32_t keep_difference = 0u - (top | (borrow ^ 1u));
    select<N>(r, keep_difference, d, acc + N);
}

// r = T R^-1 mod m for T = t[0..2N) < mR.
template <int N, Impl I, class R, class T, class M>
FIXED_HD void montred(R &&r, const T &t, const M &m, uint32_t mp)
{
    uint32_t acc[2 * N];
    copy<2 * N>(acc, t);
    mont_reduce_acc<N, I>(r, acc, m, mp);
}

// Montgomery multiplication by coarsely integrated operand scanning (CIOS: each row of the
// product a b_i is followed at once by its reduction row and the division by the word base),
// with the accumulator T split in two, T = E + O 2^32, so that each row is two carry chains that
// never meet: E takes the products of the even words of a (or m), a_j b_i for even j filling
// words j and j + 1 of E; O takes those of the odd words one word down. The row then needs no
// chain of low halves and a second one of high halves added on top (mont_row above): each link
// is one multiply-add, and on the GPU the two chains interleave. After the division by the base,
// T/2^32 = E[1..] + O[0..] is split again without adding: O becomes the new E, with E[1] folded
// into its word 0 by one addition whose carry starts the next odd chain, and E[2..] the new O.
// On the H200 this did 256-bit multiplications 1.5x as fast as the product-then-reduce order
// (SOS) that montred keeps: ptxas turns each link of the SOS rows' low-half chain into a multiply
// and a separate add with carry, and here it does not (docs/004-fixed.md, the Montgomery target).
// The words of a and m are taken in pairs, so an odd word count runs with one zero word more
// (NP).
//
// Bounds: every T_i < 2m < 2R (HAC 14.36), and E, O < T_i + 2^32 (a + m) each, below 2^(32NP+2):
// NP + 1 words hold each half, with no carry out of the top word.

// The two halves of E += x v, O += x v 2^-32 (the halves of x v at the even and at the odd
// words of v, zero above its N words), given E and O as they stand.
template <int N, Impl I, class V>
FIXED_HD void mont_eo_mad(Chain<I> &c, uint32_t (&E)[N + (N & 1) + 1], uint32_t (&O)[N + (N & 1) + 1],
                          uint32_t x, const V &v)
{
    constexpr int NP = N + (N & 1);
    E[0] = c.mad_lo_cc(word<N>(v, 0), x, E[0]);
    FIXED_UNROLL
    for (int k = 1; k < NP; k++)
        E[k] = k & 1 ? c.madc_hi_cc(word<N>(v, k - 1), x, E[k]) : c.madc_lo_cc(word<N>(v, k), x, E[k]);
    E[NP] = c.addc(E[NP], 0u);
    O[0] = c.mad_lo_cc(word<N>(v, 1), x, O[0]);
    FIXED_UNROLL
    for (int k = 1; k < NP; k++)
        O[k] = k & 1 ? c.madc_hi_cc(word<N>(v, k), x, O[k]) : c.madc_lo_cc(word<N>(v, k + 1), x, O[k]);
    O[NP] = c.addc(O[NP], 0u);
}

// The word products x v_j of one row, j < NP (zero from N on), as the links of a carry chain
// take them: by IMAD's multiply-adds with carry, as Impl::ptx; or, with FP_EVEN (--impl hybrid,
// issue 39), those of even j on the FP64 pipe, fp64::word_product, both halves computed here and
// added by add-with-carry links. Why: the IMAD path keeps the FMA-heavy pipe 90 % busy with the
// FP64 pipe idle (docs/004-fixed.md). Why even j of the product rows: these products depend on
// a and b_i alone, not on the reduction's q, so their FP64 latency can run ahead of the carry
// chains. Of five probe builds on an H200 (the reduction rows' products, all or the even ones;
// the product rows', all or the even ones; the even ones of both) this one was the fastest at
// 384 and 512 bits and in powm, and level with the reduction rows' even products in 256-bit
// montmul; every one was slower than the IMAD path (docs/004-fixed.md, "Both pipes").
template <int N, Impl I, bool FP_EVEN, class V> struct RowTerms {
    static constexpr int NP = N + (N & 1);
    Chain<I> &c;
    uint32_t x;
    const V &v;
    uint32_t lo[NP], hi[NP]; // the halves of x v_j for even j < N, when FP_EVEN

    static constexpr bool fp(int j) { return FP_EVEN && j % 2 == 0 && j < N; }

    FIXED_HD RowTerms(Chain<I> &c_, uint32_t x_, const V &v_, const double (&vd)[N])
        : c(c_), x(x_), v(v_)
    {
        if constexpr (FP_EVEN) {
#if !defined(__CUDA_ARCH__)
            fp64::RoundTowardZero toward_zero;
#endif
            const double xd = fp64::word_double(x);
            FIXED_UNROLL
            for (int j = 0; j < N; j += 2) {
                const fp64::WordHalves p = fp64::word_product(xd, vd[j]);
                lo[j] = p.lo;
                hi[j] = p.hi;
            }
        }
    }
    // acc + lo(x v_j), opening a chain; acc + lo(x v_j) or hi(x v_j) + the carry, carrying on.
    FIXED_HD uint32_t lo_cc(int j, uint32_t acc)
    {
        return fp(j) ? c.add_cc(acc, lo[j]) : c.mad_lo_cc(word<N>(v, j), x, acc);
    }
    FIXED_HD uint32_t loc_cc(int j, uint32_t acc)
    {
        return fp(j) ? c.addc_cc(acc, lo[j]) : c.madc_lo_cc(word<N>(v, j), x, acc);
    }
    FIXED_HD uint32_t hic_cc(int j, uint32_t acc)
    {
        return fp(j) ? c.addc_cc(acc, hi[j]) : c.madc_hi_cc(word<N>(v, j), x, acc);
    }
};

// r = a b R^-1 mod m for a, b < m (or one of them below R and the other below m).
template <int N, Impl I, class R, class A, class B, class M>
FIXED_HD void montmul(R &&r, const A &a, const B &b, const M &m, uint32_t mp)
{
    constexpr int NP = N + (N & 1);
    constexpr bool hybrid = I == Impl::hybrid;
    Chain<I> c;
    double ad[N]; // --impl hybrid: the words of a as doubles, for RowTerms
    if constexpr (hybrid) {
        FIXED_UNROLL
        for (int j = 0; j < N; j++)
            ad[j] = fp64::word_double(a[j]);
    }
    uint32_t E[NP + 1], O[NP + 1];
    // Row 0 of the product: each word product lands in words of its own, no carries.
    const uint32_t b0 = b[0];
    FIXED_UNROLL
    for (int k = 0; k < NP; k += 2) {
        E[k] = Chain<I>::lo(word<N>(a, k), b0);
        E[k + 1] = Chain<I>::hi(word<N>(a, k), b0);
        O[k] = Chain<I>::lo(word<N>(a, k + 1), b0);
        O[k + 1] = Chain<I>::hi(word<N>(a, k + 1), b0);
    }
    E[NP] = O[NP] = 0;
    mont_eo_mad<N, I>(c, E, O, E[0] * mp, m);
    FIXED_UNROLL
    for (int i = 1; i < N; i++) {
        // T/2^32 = E[1..NP] + O[0..NP]: the new E is O with E[1] added to its word 0, the new
        // O is E[2..NP] (word k + 1 of T is word k of O), so the carry of that one addition
        // is the first link of the odd chain of row i.
        const uint32_t bi = b[i];
        RowTerms<N, I, hybrid, A> t(c, bi, a, ad);
        uint32_t E2[NP + 1], O2[NP + 1];
        E2[0] = c.add_cc(O[0], E[1]);
        FIXED_UNROLL
        for (int k = 0; k < NP - 1; k++)
            O2[k] = k & 1 ? t.hic_cc(k, E[k + 2]) : t.loc_cc(k + 1, E[k + 2]);
        O2[NP - 1] = t.hic_cc(NP - 1, 0u);
        O2[NP] = c.addc(0u, 0u);
        E2[0] = t.lo_cc(0, E2[0]);
        FIXED_UNROLL
        for (int k = 1; k < NP; k++)
            E2[k] = k & 1 ? t.hic_cc(k - 1, O[k]) : t.loc_cc(k, O[k]);
        E2[NP] = c.addc(O[NP], 0u);
        mont_eo_mad<N, I>(c, E2, O2, E2[0] * mp, m);
        copy<NP + 1>(E, E2);
        copy<NP + 1>(O, O2);
    }
    // S = T/2^32 = E[1..] + O < 2m, one word more than m; then S or S - m (HAC 14.32 step 4).
    uint32_t S[N + 1], d[N];
    S[0] = c.add_cc(O[0], E[1]);
    FIXED_UNROLL
    for (int k = 1; k < N; k++)
        S[k] = c.addc_cc(O[k], E[k + 1]);
    S[N] = c.addc(O[N], word<NP + 1>(E, N + 1));
    d[0] = c.sub_cc(S[0], m[0]);
    FIXED_UNROLL
    for (int k = 1; k < N; k++)
        d[k] = c.subc_cc(S[k], m[k]);
    const uint32_t keep_difference = 0u - (S[N] | (c.borrow_out() ^ 1u));
    select<N>(r, keep_difference, d, S);
}

// acc <- acc^(2^(32N)) xm^e in Montgomery form for an N-word exponent e, with mul(r, a, b) the
// Montgomery multiplication of W-limb numbers of type T: left-to-right binary exponentiation,
// both the square and the multiply every bit and the kept one chosen without a branch, so every
// thread runs the same instructions whatever its exponent. Shared by powm here and the FP64
// path's (fixed_fp64.cuh).
template <int N, class T, int W, class E, class Mul>
FIXED_HD void powm_ladder(T (&acc)[W], const T (&xm)[W], const E &e, Mul mul)
{
    T t[W];
    FIXED_NO_UNROLL
    for (int w = N - 1; w >= 0; w--) {
        uint32_t ew = 0; // e[w] without indexing a register array at a run-time index
        FIXED_UNROLL
        for (int j = 0; j < N; j++)
            ew = j == w ? e[j] : ew;
        FIXED_NO_UNROLL
        for (int bit = 31; bit >= 0; bit--) {
            mul(acc, acc, acc);
            mul(t, acc, xm);
            const bool take = (ew >> bit) & 1u;
            FIXED_UNROLL
            for (int j = 0; j < W; j++)
                acc[j] = take ? t[j] : acc[j];
        }
    }
}

// r = x^e mod m for x < R, e < R, in Montgomery form (powm_ladder); r2 = R^2 mod m brings x
// into it.
template <int N, Impl I, class R, class X, class E, class M, class R2>
FIXED_HD void powm(R &&r, const X &x, const E &e, const M &m, uint32_t mp, const R2 &r2)
{
    uint32_t one[N] = {1u};
    uint32_t xm[N], acc[N];
    montmul<N, I>(xm, x, r2, m, mp);
    montmul<N, I>(acc, r2, one, m, mp);
    powm_ladder<N>(acc, xm, e, [&](uint32_t(&out)[N], const uint32_t(&a)[N], const uint32_t(&b)[N]) {
        montmul<N, I>(out, a, b, m, mp);
    });
    montmul<N, I>(r, acc, one, m, mp);
}

} // namespace fixed

#endif
