// Exact integer arithmetic on the FP64 pipe, shared by the two Montgomery paths that use it:
// --impl fp64 (fixed_fp64.cuh: 52-bit limbs) and --impl hybrid (fixed_mont.cuh: the IMAD path's
// 32-bit words, part of their products on the FP64 pipe). Issue 39; the fused multiply-add
// that truncates toward zero is the method of Emmart, Zheng and Weems (ARITH 2018).
//
// The device and the cpu suite run this same code: on the device __fma_rz, on the host C's
// fma() with the rounding mode set to toward-zero for the call (the host build must have
// -ffp-contract=off -frounding-math, so that only the explicit fma() fuses and nothing is
// evaluated under another mode). Every other floating-point operation here is exact, so its
// rounding mode does not matter.
#ifndef MPGPU_FIXED_FP64_EXACT_CUH
#define MPGPU_FIXED_FP64_EXACT_CUH

#include <stdint.h>
#include <string.h>

#include "fixed_core.cuh"

#if !defined(__CUDA_ARCH__)
#include <fenv.h>
#include <math.h>
#endif

namespace fixed {
namespace fp64 {

// Bit patterns of 2^104 and 2^52: biased exponent << 52, mantissa zero.
constexpr uint64_t hi_pattern = uint64_t(1023 + 104) << 52;
constexpr uint64_t lo_pattern = uint64_t(1023 + 52) << 52;

FIXED_HD uint64_t bits_of(double x)
{
#if defined(__CUDA_ARCH__)
    return (uint64_t)__double_as_longlong(x);
#else
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
#endif
}

FIXED_HD double double_of(uint64_t u)
{
#if defined(__CUDA_ARCH__)
    return __longlong_as_double((long long)u);
#else
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
#endif
}

FIXED_HD double fma_rz(double x, double y, double z)
{
#if defined(__CUDA_ARCH__)
    return __fma_rz(x, y, z);
#else
    return fma(x, y, z); // the caller holds the mode at toward-zero (RoundTowardZero)
#endif
}

#if !defined(__CUDA_ARCH__)
// The host's rounding mode toward zero for one scope, the device's __fma_rz on the host.
struct RoundTowardZero {
    int saved;
    RoundTowardZero() : saved(fegetround()) { fesetround(FE_TOWARDZERO); }
    ~RoundTowardZero() { fesetround(saved); }
    RoundTowardZero(const RoundTowardZero &) = delete;
    RoundTowardZero &operator=(const RoundTowardZero &) = delete;
};
#endif

// A 32-bit word as a double: 2^52 + w has w as its mantissa; the subtraction is exact.
FIXED_HD double word_double(uint32_t w) { return double_of(lo_pattern | w) - 0x1p52; }

// x y = hi 2^32 + lo for words x, y (exact integers below 2^32, as doubles), by two fused
// multiply-adds truncating toward zero and one exact subtraction, the halves that IMAD's
// mad.lo and mad.hi give:
//   * x y < 2^64, so h = fma_rz(x, y, 2^84) lies in [2^84, 2^85), where doubles are spaced
//     2^32 apart: truncation gives 2^84 + hi 2^32 with hi = floor(x y / 2^32) < 2^32, the
//     mantissa of h being hi;
//   * (2^84 + 2^52) - h = 2^52 - hi 2^32 = 2^32 (2^20 - hi) has at most 33 significant bits,
//     a double, so that subtraction is exact;
//   * l = fma_rz(x, y, 2^52 - hi 2^32) = 2^52 + lo, lo = x y mod 2^32, lies in [2^52, 2^53),
//     where doubles are the integers: exact, its mantissa being lo.
// Both halves are the low 32 bits of their double's pattern: no integer work takes them out.
// On the host the caller holds the rounding mode at toward-zero.
struct WordHalves {
    uint32_t hi, lo;
};
FIXED_HD WordHalves word_product(double x, double y)
{
    const double h = fma_rz(x, y, 0x1p84);
    const double l = fma_rz(x, y, (0x1p84 + 0x1p52) - h);
    return {(uint32_t)bits_of(h), (uint32_t)bits_of(l)};
}

} // namespace fp64
} // namespace fixed

#endif
