// Fixed-precision numbers of the EPFL study (004, Carlessi and Kashani): a P-bit number is
// N = ceil(P/32) 32-bit words, least significant first (004 section 3.1.2, Fig. 3.2). Every
// operation is a C++ template with compile-time word counts, so each precision gets its own
// straight-line code (what the study generated with scripts, 004 section 3.3) and the same
// source builds for the GPU and, with `__host__ __device__`, for the host, where the cpu-suite
// test checks it against GMP.
//
// Two implementations, chosen by a template parameter (004 section 3.3, "Assembly vs. C"):
//   Impl::ptx  carry chains in PTX (the add.cc / addc / mad.lo.cc family of ptx_carry.cuh);
//   Impl::c    plain C carries through 64-bit sums.
// A host build has no PTX, so there Impl::ptx runs the C path: the host test checks the
// algorithms and their word bounds, the gpu suite the PTX. Two more have montmul and powm
// alone: Impl::fp64, in 52-bit limbs on the FP64 pipe (fixed_fp64.cuh), and Impl::hybrid, the
// PTX path with part of its word products on the FP64 pipe (fixed_mont.cuh's RowTerms).
//
// The study's slips are not repeated: a 64-bit sum keeps the carry that Listing 3.1 drops when
// both words are all ones and a carry comes in; a borrow chain continues with subc (Listing
// 3.12 wrote sub.cc); each chain's links are the `volatile` primitives of ptx_carry.cuh with
// nothing in between that touches the flag, and outputs are never also inputs of "=r" operands
// (Listings 3.18, 3.19).
#ifndef MPGPU_FIXED_CORE_CUH
#define MPGPU_FIXED_CORE_CUH

#include <stdint.h>

#if defined(__CUDACC__)
#include "ptx_carry.cuh"
#define FIXED_HD __host__ __device__ __forceinline__
#else
#define FIXED_HD inline
#endif
// Unrolling is asked of the device pass only: host code is for the tests.
#if defined(__CUDA_ARCH__)
#define FIXED_UNROLL _Pragma("unroll")
#define FIXED_NO_UNROLL _Pragma("unroll 1")
#else
#define FIXED_UNROLL
#define FIXED_NO_UNROLL
#endif

namespace fixed {

enum class Impl { ptx, c, fp64, hybrid };

// Words of a P-bit number.
constexpr int words_of(int bits) { return (bits + 31) / 32; }
constexpr int max_of(int x, int y) { return x > y ? x : y; }
constexpr int min_of(int x, int y) { return x < y ? x : y; }

// Word j of an NX-word number, zero above it: one operand may be shorter than the result
// (004 Listing 3.11 adds 0 where the shorter operand has run out).
template <int NX, class X> FIXED_HD uint32_t word(const X &x, int j) { return j < NX ? x[j] : 0u; }

// r[0..NR) = x[0..NX) + y[0..NY) (each zero-extended); returns the carry out of word NR-1.
template <int NR, int NX, int NY, Impl I, class R, class X, class Y>
FIXED_HD uint32_t add_ext(R &&r, const X &x, const Y &y)
{
#if defined(__CUDA_ARCH__)
    if constexpr (I == Impl::ptx) {
        r[0] = ptx::add_cc(word<NX>(x, 0), word<NY>(y, 0));
        FIXED_UNROLL
        for (int j = 1; j < NR; j++)
            r[j] = ptx::addc_cc(word<NX>(x, j), word<NY>(y, j));
        return ptx::addc(0u, 0u);
    } else
#endif
    {
        uint32_t carry = 0;
        FIXED_UNROLL
        for (int j = 0; j < NR; j++) {
            const uint64_t s = (uint64_t)word<NX>(x, j) + word<NY>(y, j) + carry;
            r[j] = (uint32_t)s;
            carry = (uint32_t)(s >> 32);
        }
        return carry;
    }
}

// r[0..NR) = x[0..NX) - y[0..NY) (each zero-extended); returns the borrow out (0 or 1).
template <int NR, int NX, int NY, Impl I, class R, class X, class Y>
FIXED_HD uint32_t sub_ext(R &&r, const X &x, const Y &y)
{
#if defined(__CUDA_ARCH__)
    if constexpr (I == Impl::ptx) {
        r[0] = ptx::sub_cc(word<NX>(x, 0), word<NY>(y, 0));
        FIXED_UNROLL
        for (int j = 1; j < NR; j++)
            r[j] = ptx::subc_cc(word<NX>(x, j), word<NY>(y, j));
        return ptx::subc(0u, 0u) & 1u;
    } else
#endif
    {
        uint32_t borrow = 0;
        FIXED_UNROLL
        for (int j = 0; j < NR; j++) {
            const uint64_t d = (uint64_t)word<NX>(x, j) - word<NY>(y, j) - borrow;
            r[j] = (uint32_t)d;
            borrow = (uint32_t)(d >> 63);
        }
        return borrow;
    }
}

// (hi, acc[0..N)) = acc[0..N) + u * y[0..N): one row of an operand-scanning product. The sum is
// below 2^(32(N+1)), so hi is a word. PTX: one chain adds the low halves of the N word
// products, a second the high halves one word up, its last link taking the first chain's carry.
template <int N, Impl I, class Acc, class Y>
FIXED_HD uint32_t mad_row(Acc &&acc, uint32_t u, const Y &y)
{
    static_assert(N >= 2, "a row of one word has no second chain");
#if defined(__CUDA_ARCH__)
    if constexpr (I == Impl::ptx) {
        acc[0] = ptx::mad_lo_cc(u, y[0], acc[0]);
        FIXED_UNROLL
        for (int j = 1; j < N; j++)
            acc[j] = ptx::madc_lo_cc(u, y[j], acc[j]);
        const uint32_t low_carry = ptx::addc(0u, 0u);
        acc[1] = ptx::mad_hi_cc(u, y[0], acc[1]);
        FIXED_UNROLL
        for (int j = 1; j < N - 1; j++)
            acc[j + 1] = ptx::madc_hi_cc(u, y[j], acc[j + 1]);
        return ptx::madc_hi(u, y[N - 1], low_carry);
    } else
#endif
    {
        uint32_t carry = 0;
        FIXED_UNROLL
        for (int j = 0; j < N; j++) {
            const uint64_t s = (uint64_t)u * y[j] + acc[j] + carry;
            acc[j] = (uint32_t)s;
            carry = (uint32_t)(s >> 32);
        }
        return carry;
    }
}

// One carry chain, as PTX writes it (a *_cc link sets the carry flag, *c_cc links consume and
// set it, a *c link ends it), for code that is written once and runs three ways: Impl::ptx
// (and Impl::hybrid) on the GPU issues the PTX of ptx_carry.cuh; Impl::c on the GPU, and all
// on the host, keep the flag in `carry` and add through 64-bit sums, so the cpu-suite test runs
// the very sequence of links that the GPU runs. Each method is one link; lo/hi are the halves
// of the word product.
template <Impl I> struct Chain {
    uint32_t carry = 0;

    FIXED_HD uint32_t link(uint64_t s)
    {
        carry = (uint32_t)(s >> 32);
        return (uint32_t)s;
    }
    static FIXED_HD uint32_t lo(uint32_t a, uint32_t b) { return a * b; }
    static FIXED_HD uint32_t hi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }

#if defined(__CUDA_ARCH__)
#define FIXED_CHAIN_PTX(call) if constexpr (I == Impl::ptx || I == Impl::hybrid) return call;
#else
#define FIXED_CHAIN_PTX(call)
#endif
    FIXED_HD uint32_t add_cc(uint32_t a, uint32_t b)
    {
        FIXED_CHAIN_PTX(ptx::add_cc(a, b))
        return link((uint64_t)a + b);
    }
    FIXED_HD uint32_t addc_cc(uint32_t a, uint32_t b)
    {
        FIXED_CHAIN_PTX(ptx::addc_cc(a, b))
        return link((uint64_t)a + b + carry);
    }
    FIXED_HD uint32_t addc(uint32_t a, uint32_t b)
    {
        FIXED_CHAIN_PTX(ptx::addc(a, b))
        return a + b + carry;
    }
    FIXED_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c)
    {
        FIXED_CHAIN_PTX(ptx::mad_lo_cc(a, b, c))
        return link((uint64_t)lo(a, b) + c);
    }
    FIXED_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c)
    {
        FIXED_CHAIN_PTX(ptx::madc_lo_cc(a, b, c))
        return link((uint64_t)lo(a, b) + c + carry);
    }
    FIXED_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c)
    {
        FIXED_CHAIN_PTX(ptx::madc_hi_cc(a, b, c))
        return link((uint64_t)hi(a, b) + c + carry);
    }
    FIXED_HD uint32_t sub_cc(uint32_t a, uint32_t b)
    {
        FIXED_CHAIN_PTX(ptx::sub_cc(a, b))
        return link((uint64_t)a - b);
    }
    FIXED_HD uint32_t subc_cc(uint32_t a, uint32_t b)
    {
        FIXED_CHAIN_PTX(ptx::subc_cc(a, b))
        return link((uint64_t)a - b - (carry & 1u));
    }
    // The borrow of a chain of subtractions: 1 when it went below zero.
    FIXED_HD uint32_t borrow_out()
    {
        FIXED_CHAIN_PTX(ptx::subc(0u, 0u) & 1u)
        return carry & 1u;
    }
#undef FIXED_CHAIN_PTX
};

// r = mask ? x : y, word by word, for mask all ones or zero: a choice without a branch, so the
// threads of a warp never diverge on their data (004 section 3.6.6).
template <int N, class R, class X, class Y>
FIXED_HD void select(R &&r, uint32_t mask, const X &x, const Y &y)
{
    FIXED_UNROLL
    for (int j = 0; j < N; j++)
        r[j] = (x[j] & mask) | (y[j] & ~mask);
}

template <int N, class R, class X> FIXED_HD void copy(R &&r, const X &x)
{
    FIXED_UNROLL
    for (int j = 0; j < N; j++)
        r[j] = x[j];
}

} // namespace fixed

#endif
