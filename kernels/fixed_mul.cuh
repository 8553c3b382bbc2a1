// Full products of fixed-precision numbers: the study's column-order schoolbook product (004
// section 3.6.8) and one level of Karatsuba over it (004 section 3.6.9).
#ifndef MPGPU_FIXED_MUL_CUH
#define MPGPU_FIXED_MUL_CUH

#include "fixed_core.cuh"

namespace fixed {

// {t, u, v} += x * y: the column accumulator, t the column's one carry register (004 section
// 3.6.8, Listing 3.18, where the carry register collects the carries of every multiply-add).
template <Impl I>
FIXED_HD void column_mac(uint32_t &t, uint32_t &u, uint32_t &v, uint32_t x, uint32_t y)
{
#if defined(__CUDA_ARCH__)
    if constexpr (I == Impl::ptx) {
        ptx::mac3(t, u, v, x, y);
    } else
#endif
    {
        const uint64_t p = (uint64_t)x * y;
        const uint64_t s = (((uint64_t)u << 32) | v) + p;
        t += s < p;
        u = (uint32_t)(s >> 32);
        v = (uint32_t)s;
    }
}

// r[0..NA+NB) = a[0..NA) * b[0..NB) in column order (004 Fig. 3.14b): each result word is
// final before the next column starts, which is what let the study keep its carries. The
// column's carry register becomes the next column's middle word (Listing 3.19), never a
// value that one asm statement resets while another still reads it.
template <int NA, int NB, Impl I, class R, class A, class B>
FIXED_HD void mul_columns(R &&r, const A &a, const B &b)
{
    uint32_t t = 0, u = 0, v = 0;
    FIXED_UNROLL
    for (int k = 0; k < NA + NB - 1; k++) {
        FIXED_UNROLL
        for (int i = max_of(0, k - NB + 1); i <= min_of(k, NA - 1); i++)
            column_mac<I>(t, u, v, a[i], b[k - i]);
        r[k] = v;
        v = u;
        u = t;
        t = 0;
    }
    r[NA + NB - 1] = v;
}

template <int N, Impl I, class R, class A, class B>
FIXED_HD void mul(R &&r, const A &a, const B &b)
{
    mul_columns<N, N, I>(r, a, b);
}

// r[0..2N) = a * b for P-bit a, b by one Karatsuba level (004 section 3.6.9): a = a1 B^h + a0
// with the smaller part h = floor(N/2) in the low words (004 Fig. 3.15), c0 = a0 b0,
// c2 = a1 b1, c1 = (a0 + a1)(b0 + b1) - c0 - c2, all three products in column order. The
// sums a0 + a1 have max(32h, P - 32h) + 1 bits: a word more than a1 when that crosses a word
// boundary, which is when the study found Karatsuba slower (its add_loc_exact_generic).
template <int P, Impl I, class R, class A, class B>
FIXED_HD void karatsuba(R &&r, const A &a, const B &b)
{
    constexpr int N = words_of(P);
    constexpr int h = N / 2, H = N - h;
    constexpr int KW = words_of(max_of(32 * h, P - 32 * h) + 1);
    static_assert(h >= 1, "Karatsuba splits at least two words");
    uint32_t a0[h], a1[H], b0[h], b1[H];
    FIXED_UNROLL
    for (int j = 0; j < N; j++) {
        if (j < h) {
            a0[j] = a[j];
            b0[j] = b[j];
        } else {
            a1[j - h] = a[j];
            b1[j - h] = b[j];
        }
    }
    uint32_t out[2 * N];
    mul_columns<h, h, I>(out, a0, b0);
    mul_columns<H, H, I>(out + 2 * h, a1, b1);
    uint32_t sa[KW], sb[KW], mid[2 * KW];
    add_ext<KW, h, H, I>(sa, a0, a1);
    add_ext<KW, h, H, I>(sb, b0, b1);
    mul_columns<KW, KW, I>(mid, sa, sb);
    sub_ext<2 * KW, 2 * KW, 2 * h, I>(mid, mid, out);
    sub_ext<2 * KW, 2 * KW, 2 * H, I>(mid, mid, out + 2 * h);
    // c1 = a0 b1 + a1 b0 < 2^(P+1): its words above 2N - h are zero.
    constexpr int L = min_of(2 * KW, 2 * N - h);
    add_ext<2 * N - h, 2 * N - h, L, I>(out + h, out + h, mid);
    copy<2 * N>(r, out);
}

} // namespace fixed

#endif
