// Montgomery multiplication with its limb products on the FP64 pipe (issue 39; the method of
// Emmart, Zheng and Weems, ARITH 2018, written anew): a number is held in L limbs of 52 bits,
// each an integer-valued double, and the 104-bit product of two limbs is split into its high
// and low 52 bits by two fused multiply-adds truncating toward zero (product below).
// Each half comes out as a double whose exponent is a known constant, so its bit pattern is that
// constant's plus the half: column sums are kept as 64-bit integers of those patterns, the
// constant subtracted as each half is added (the constant is a multiple of 2^52, so the low 52
// bits of a sum never depend on it and the compiler folds the subtractions together).
//
// R is 2^(32N), as for the IMAD path (fixed_mont.cuh), so the two give the same numbers and the
// GMP checks, powm's R^2 mod m and the chains are shared: rows 0 .. L-2 of the operand scan
// divide by 2^52, the last by 2^s, s = 32N - 52(L-1) (0 <= s <= 51), and L is the least count
// with 52L >= 32N + 1, room for the sum below 2m that precedes the final subtraction.
//
// The device and the cpu suite run this same code, through fixed_fp64_exact.cuh's primitives.
//
// Exactness (docs/004-fixed.md, "Montgomery multiplication on the FP64 pipe"):
//   * a limb x < 2^52 converts to a double exactly; x y < 2^104 for two limbs;
//   * h = fma_rz(x, y, 2^104) lies in [2^104, 2^105), where doubles are spaced 2^52 apart, so
//     truncation gives 2^104 + hi 2^52 with hi = floor(x y / 2^52) < 2^52, the pattern of h
//     being that of 2^104 plus hi;
//   * (2^104 + 2^52) - h = (1 - hi) 2^52 is a double, so that subtraction is exact;
//   * l = fma_rz(x, y, (1 - hi) 2^52) = 2^52 + lo, lo = x y mod 2^52, lies in [2^52, 2^53),
//     where doubles are the integers: exact, the pattern of 2^52 plus lo;
//   * each column sum is at most 4 halves (a_j b_i and q m_j, high and low) per row over at most
//     L rows, plus a carry below 2^7: below (4L + 1) 2^52 < 2^58 for L <= 20 (1024 bits), so no
//     64-bit sum wraps, and carries are resolved once per row (column 0) and once at the end.
#ifndef MPGPU_FIXED_FP64_CUH
#define MPGPU_FIXED_FP64_CUH

#include <stdint.h>

#include "fixed_core.cuh"
#include "fixed_fp64_exact.cuh"
#include "fixed_mont.cuh"

namespace fixed {
namespace fp64 {

constexpr int limb_bits = 52;
constexpr uint64_t limb_mask = (uint64_t(1) << limb_bits) - 1;

// Limbs of an N-word operand and of the Montgomery sum below 2m (32N + 1 bits).
constexpr int limbs_of(int words) { return (32 * words + 1 + limb_bits - 1) / limb_bits; }
// The division of the last row: the rows together divide by 2^(32N).
constexpr int last_shift(int words) { return 32 * words - limb_bits * (limbs_of(words) - 1); }

// A limb (< 2^52) as a double: 2^52 + v has v as its mantissa; the subtraction is exact.
FIXED_HD double limb_double(uint64_t v) { return double_of(lo_pattern | v) - 0x1p52; }
// And back: the addition is exact for an integer-valued x below 2^52.
FIXED_HD uint64_t limb_value(double x) { return bits_of(x + 0x1p52) - lo_pattern; }

// x y = hi 2^52 + lo for limbs x, y (exact integers below 2^52, as doubles).
struct Halves {
    uint64_t hi, lo;
};
FIXED_HD Halves product(double x, double y)
{
    const double h = fma_rz(x, y, 0x1p104);
    const double l = fma_rz(x, y, (0x1p104 + 0x1p52) - h);
    return {bits_of(h) - hi_pattern, bits_of(l) - lo_pattern};
}

// -m0^-1 mod 2^52 for odd m0: Newton's x <- x (2 - m0 x) from m0, its own inverse to 3 bits.
FIXED_HD uint64_t neg_inv52(uint64_t m0)
{
    uint64_t x = m0;
    for (int k = 0; k < 5; k++) // 3, 6, 12, 24, 48, 96 bits
        x *= 2 - m0 * x;
    return (0 - x) & limb_mask;
}

// An N-word number (least significant word first, zero above N words) in L 52-bit limbs.
template <int N, class W> FIXED_HD void to_limbs(uint64_t (&x)[limbs_of(N)], const W &w)
{
    FIXED_UNROLL
    for (int j = 0; j < limbs_of(N); j++) {
        const int bit = limb_bits * j, k = bit / 32, off = bit % 32;
        // 52 bits from bit `off` of words k, k+1, k+2 (off + 52 <= 83 bits).
        const uint64_t low = (uint64_t)word<N>(w, k) | (uint64_t)word<N>(w, k + 1) << 32;
        uint64_t v = low >> off;
        if (off > 64 - limb_bits)
            v |= (uint64_t)word<N>(w, k + 2) << (64 - off);
        x[j] = v & limb_mask;
    }
}

// The low N words of L limbs.
template <int N, class W> FIXED_HD void to_words(W &&w, const uint64_t (&x)[limbs_of(N)])
{
    constexpr int L = limbs_of(N);
    FIXED_UNROLL
    for (int k = 0; k < N; k++) {
        const int bit = 32 * k, j = bit / limb_bits, off = bit % limb_bits;
        uint64_t v = x[j] >> off;
        if (off > limb_bits - 32 && j + 1 < L)
            v |= x[j + 1] << (limb_bits - off);
        w[k] = (uint32_t)v;
    }
}

// An odd modulus m < 2^(32N) as the limb products and the final subtraction take it.
template <int N> struct Modulus {
    double m[limbs_of(N)];
    uint64_t mw[limbs_of(N)];
    double mp; // -m^-1 mod 2^52
};

template <int N, class W> FIXED_HD void modulus_set(Modulus<N> &M, const W &m_words)
{
    to_limbs<N>(M.mw, m_words);
    FIXED_UNROLL
    for (int j = 0; j < limbs_of(N); j++)
        M.m[j] = limb_double(M.mw[j]);
    M.mp = limb_double(neg_inv52(M.mw[0]));
}

// c[j..j+1] += x v_j 2^(52 j) for all j: one row of the operand scan.
template <int L>
FIXED_HD void add_row(uint64_t (&c)[L + 1], double x, const double (&v)[L])
{
    FIXED_UNROLL
    for (int j = 0; j < L; j++) {
        const Halves p = product(v[j], x);
        c[j] += p.lo;
        c[j + 1] += p.hi;
    }
}

// r = a b 2^(-32N) mod m for a, b < 2^(32N) with a b < m 2^(32N) (one of them below m), in
// limbs. r may be a or b: it is written last.
template <int N>
FIXED_HD void montmul(double (&r)[limbs_of(N)], const double (&a)[limbs_of(N)],
                      const double (&b)[limbs_of(N)], const Modulus<N> &M)
{
#if !defined(__CUDA_ARCH__)
    RoundTowardZero toward_zero;
#endif
    constexpr int L = limbs_of(N), S = last_shift(N);
    uint64_t c[L + 1] = {}; // column sums, column j worth 2^(52 j) after the rows so far
    FIXED_UNROLL
    for (int i = 0; i < L; i++) {
        add_row<L>(c, b[i], a);
        // q = c[0] (-m^-1) mod 2^shift makes column 0 a multiple of the row's divisor.
        const int shift = i < L - 1 ? limb_bits : S;
        const uint64_t q52 = product(limb_double(c[0] & limb_mask), M.mp).lo;
        const uint64_t q = q52 & ((uint64_t(1) << shift) - 1);
        add_row<L>(c, limb_double(q), M.m);
        if (i < L - 1) {
            c[1] += c[0] >> limb_bits; // c[0] is now a multiple of 2^52
            FIXED_UNROLL
            for (int j = 0; j < L; j++)
                c[j] = c[j + 1];
            c[L] = 0;
        }
    }
    // The carries resolved into limbs t[0..L], then t / 2^S (S bits of zeros) < 2m < 2^(52L).
    uint64_t t[L + 1], carry = 0;
    FIXED_UNROLL
    for (int j = 0; j <= L; j++) {
        const uint64_t v = c[j] + carry;
        t[j] = v & limb_mask;
        carry = v >> limb_bits;
    }
    uint64_t s[L], d[L], borrow = 0;
    FIXED_UNROLL
    for (int j = 0; j < L; j++) {
        s[j] = (t[j] >> S | t[j + 1] << (limb_bits - S)) & limb_mask;
        // |s_j - m_j - borrow| < 2^53: the top bit of the 64-bit difference is its sign.
        const uint64_t v = s[j] - M.mw[j] - borrow;
        d[j] = v & limb_mask;
        borrow = v >> 63;
    }
    // s - m when it did not borrow (s >= m), else s (HAC 14.32 step 4).
    const uint64_t keep_s = 0 - borrow;
    FIXED_UNROLL
    for (int j = 0; j < L; j++)
        r[j] = limb_double((s[j] & keep_s) | (d[j] & ~keep_s));
}

// r = x^e mod m for x < 2^(32N) and an N-word e, by fixed_mont.cuh's powm_ladder; r2 = 2^(64N)
// mod m, in limbs.
template <int N, class E>
FIXED_HD void powm(double (&r)[limbs_of(N)], const double (&x)[limbs_of(N)], const E &e,
                   const double (&r2)[limbs_of(N)], const Modulus<N> &M)
{
    constexpr int L = limbs_of(N);
    double one[L] = {1.0};
    double xm[L], acc[L];
    montmul<N>(xm, x, r2, M);
    montmul<N>(acc, r2, one, M);
    powm_ladder<N>(acc, xm, e, [&](double(&out)[L], const double(&a)[L], const double(&b)[L]) {
        montmul<N>(out, a, b, M);
    });
    montmul<N>(r, acc, one, M);
}

} // namespace fp64
} // namespace fixed

#endif
