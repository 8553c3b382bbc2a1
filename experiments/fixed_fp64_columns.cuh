// Montgomery multiplication whose column sums are doubles (issue 39): 23-bit limbs, each limb
// product a single fused multiply-add on the FP64 pipe into its column, exact with no splitting.
// Used by the probe experiments/fixed_pipes.cu, not by the library: beside the IMAD path it did
// not pay (docs/004-fixed.md, "An element on each pipe, a word product split between them").
//
// Why: the 52-bit limbs of fixed_fp64.cuh split every limb product into two halves and sum them
// as 64-bit integers, so that path keeps the ALU pipe busier than the FP64 pipe
// (docs/004-fixed.md). With 23-bit limbs a product is below 2^46 and a column's sum of at most
// 2L of them stays below 2^52: every sum is an integer-valued double added exactly by one DFMA,
// and the ALU only finds each row's reduction factor q. This leaves the IMAD pipe free, for a
// second element on the IMAD path in the same thread.
//
// A column is held as 2^52 + V, V < 2^52: its exponent is fixed, so V's low 32 bits are the low
// word of its bit pattern, and q = V mp mod 2^23 needs one IMAD and one AND. Its carry out,
// V / 2^23 once q m has been added, is exact too: (2^52 + V) 2^-23 - 2^29.
//
// R is 2^(23L) here, not mpgpu's 2^(32N): R > 2^20 m at 256 bits (2^7 m at 384), so products of
// operands below 2m come out below 2m and no row ends in a subtraction (Walter's bound). The
// probe's chain multiplies by b' = b 2^(23L - 32N) mod m, so each step is still
// x b 2^(-32N) mod m, and subtracts m once at its end: the GMP checks are those of the IMAD path.
//
// Bounds (docs/004-fixed.md): a limb of the fixed factor, of m and q are below 2^23; a limb of x
// that the previous step left unnormalised is below 2^24 + 2^6 (split_columns). A column takes at
// most L products a_j x_i and L products q m_j and a carry below 2^30, below
// L (2^47 + 2^30 + 2^46) + 2^30 < 2^52 for L <= 21 (up to 480 bits).
//
// The device, the probe's host check and the cpu suite (tests/test_fixed_probe_paths.cc, against
// GMP) run this same code; every floating-point operation is exact, so the rounding mode does not
// matter.
#ifndef MPGPU_FIXED_FP64_COLUMNS_CUH
#define MPGPU_FIXED_FP64_COLUMNS_CUH

#include <stdint.h>

#include "../kernels/fixed_add.cuh"
#include "../kernels/fixed_core.cuh"
#include "../kernels/fixed_fp64_exact.cuh"
#include "fixed_fp64_rn.cuh"

namespace fixed {
namespace columns {

constexpr int limb_bits = 23;
constexpr uint32_t limb_mask = (1u << limb_bits) - 1;

// Limbs of an N-word number and of a value below 2m (32N + 1 bits).
constexpr int limbs_of(int words) { return (32 * words + 1 + limb_bits - 1) / limb_bits; }
// R = 2^(23L) = 2^(32N) 2^excess.
constexpr int excess_bits(int words) { return limb_bits * limbs_of(words) - 32 * words; }
constexpr bool fits(int words) { return limbs_of(words) <= 21; }

// The low word of V for a column 2^52 + V.
FIXED_HD uint32_t column_low(double c) { return (uint32_t)fp64::bits_of(c); }

// An odd modulus m below 2^(32N) in limbs, and -m^-1 mod 2^23 (the low bits of mont_neg_inv's).
template <int N> struct Modulus {
    double m[limbs_of(N)];
    uint32_t mp;
};

// x[0..L) = the 23-bit limbs of an N-word number w.
template <int N, class W> FIXED_HD void to_limbs(double (&x)[limbs_of(N)], const W &w)
{
    FIXED_UNROLL
    for (int j = 0; j < limbs_of(N); j++) {
        const int bit = limb_bits * j, k = bit / 32, off = bit % 32;
        const uint64_t two = (uint64_t)word<N>(w, k) | (uint64_t)word<N>(w, k + 1) << 32;
        x[j] = fp64::word_double((uint32_t)(two >> off) & limb_mask);
    }
}

template <int N, class W> FIXED_HD void modulus_set(Modulus<N> &M, const W &m, uint32_t mp32)
{
    to_limbs<N>(M.m, m);
    M.mp = mp32 & limb_mask;
}

// c = the columns of a x 2^(-23L) mod m, below 2m when a x < 2m m, for a's limbs below 2^23 and
// x's below 2^24 + 2^6 (CIOS: each row a x_i followed by its reduction row and the division by
// 2^23). c may not alias a or x.
template <int N>
FIXED_HD void montmul_columns(double (&c)[limbs_of(N)], const double (&a)[limbs_of(N)],
                              const double (&x)[limbs_of(N)], const Modulus<N> &M)
{
    constexpr int L = limbs_of(N);
    static_assert(fits(N), "columns stay below 2^52 up to 21 limbs");
    FIXED_UNROLL
    for (int j = 0; j < L; j++)
        c[j] = 0x1p52;
    FIXED_UNROLL
    for (int i = 0; i < L; i++) {
        FIXED_UNROLL
        for (int j = 0; j < L; j++)
            c[j] = fp64::fma_rn(a[j], x[i], c[j]);
        const double q = fp64::word_double((column_low(c[0]) * M.mp) & limb_mask);
        FIXED_UNROLL
        for (int j = 0; j < L; j++)
            c[j] = fp64::fma_rn(q, M.m[j], c[j]);
        // V_0 is now a multiple of 2^23: its quotient goes up one column, and the rest down one.
        c[1] += fp64::fma_rn(c[0], 0x1p-23, -0x1p29);
        FIXED_UNROLL
        for (int j = 0; j + 1 < L; j++)
            c[j] = c[j + 1];
        c[L - 1] = 0x1p52;
    }
}

// x = the columns c as limbs below 2^24 + 2^6, with the same value, without a carry ripple: V_j's
// low 23 bits stay in limb j, the next 23 go to limb j + 1, the top 6 (V_j < 2^52) to limb j + 2.
// Nothing is left above limb L - 1 when the value is below 2^(23L). Returns what would be (zero;
// the probe's host check and the cpu suite require it).
template <int L> FIXED_HD uint32_t split_columns(double (&x)[L], const double (&c)[L])
{
    uint32_t mid = 0, top = 0, top2 = 0; // from columns j - 1, j - 1 and j - 2
    FIXED_UNROLL
    for (int j = 0; j < L; j++) {
        const uint64_t u = fp64::bits_of(c[j]);
        const uint32_t high = (uint32_t)(u >> limb_bits); // V >> 23 below bit 29, exponent above
        x[j] = fp64::word_double(((uint32_t)u & limb_mask) + mid + top2);
        top2 = top;
        top = high >> limb_bits & 63;
        mid = high & limb_mask;
    }
    return mid | top | top2;
}

// The N + 1 low words of the value of limbs x[0..L), each below 2^24 + 2^6 (run once, at the end
// of a chain).
template <int N> FIXED_HD void limbs_to_words(uint32_t (&w)[N + 1], const double (&x)[limbs_of(N)])
{
    constexpr int L = limbs_of(N);
    uint32_t v[L + 2];
    uint64_t carry = 0;
    FIXED_UNROLL
    for (int j = 0; j < L; j++) { // each limb below 2^23; the value is below 2^(23L)
        const uint64_t t = (uint64_t)x[j] + carry;
        v[j] = (uint32_t)t & limb_mask;
        carry = t >> limb_bits;
    }
    v[L] = v[L + 1] = 0;
    FIXED_UNROLL
    for (int k = 0; k <= N; k++) { // bits 32k .. 32k + 31 lie in limbs j, j + 1 and j + 2
        const int bit = 32 * k, j = bit / limb_bits, off = bit % limb_bits;
        if (j >= L) {
            w[k] = 0;
            continue;
        }
        const uint64_t three = (uint64_t)v[j] | (uint64_t)v[j + 1] << limb_bits |
                               (uint64_t)v[j + 2] << (2 * limb_bits);
        w[k] = (uint32_t)(three >> off);
    }
}

// The chain x <- x b 2^(-32N) mod m on this path, as the probe runs it: b' = b 2^(23L - 32N)
// mod m (by modular doublings) and x in limbs first, each step montmul_columns and split_columns,
// and one subtraction of m at the end (x < 2m throughout). a, b < m.
template <int N> struct Chain {
    static constexpr int L = limbs_of(N);
    Modulus<N> M;
    uint32_t m[N];
    double b[L], x[L], c[L];
    FIXED_HD Chain(const uint32_t (&a)[N], const uint32_t (&bw)[N], const uint32_t (&mw)[N],
                   uint32_t mp32)
    {
        uint32_t bs[N];
        copy<N>(m, mw);
        copy<N>(bs, bw);
        FIXED_NO_UNROLL
        for (int k = 0; k < excess_bits(N); k++)
            addm<N, Impl::ptx>(bs, bs, bs, m);
        modulus_set<N>(M, m, mp32);
        to_limbs<N>(b, bs);
        to_limbs<N>(x, a);
    }
    // One step; returns split_columns' leftover above the top limb (zero).
    FIXED_HD uint32_t step()
    {
        montmul_columns<N>(c, b, x, M);
        return split_columns<L>(x, c);
    }
    FIXED_HD void result(uint32_t (&r)[N])
    {
        uint32_t s[N + 1], d[N];
        limbs_to_words<N>(s, x);
        const uint32_t borrow = sub_ext<N, N, N, Impl::ptx>(d, s, m);
        select<N>(r, 0u - (s[N] | (borrow ^ 1u)), d, s);
    }
};

} // namespace columns
} // namespace fixed

#endif
