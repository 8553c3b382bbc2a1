/* The modular inverse of 002 section 3.2: the extended Euclidean algorithm (Knuth, TAOCP vol. 2,
 * Algorithm 4.5.2X) whose quotients come from a floating-point reciprocal of the divisor instead
 * of an integer division, corrected when one too small. The GPU kernel repeats this arithmetic
 * operation for operation.
 *
 * Precision. Section 3.2 says only "floating point reciprocal" and that the quotient "may
 * sometimes be one too small". Here it is double precision, where that holds for every pair of
 * 32-bit operands with one rounding per operation (gcd_modinv_quotient). Single precision cannot
 * do it in one step: a 24-bit significand does not even hold a 32-bit dividend (q = 4294967291,
 * v = 1 would give the quotient 2^32). */
#ifndef MPGPU_GCD_MODINV_H
#define MPGPU_GCD_MODINV_H

#include <stdint.h>

/* floor(a / d) for d >= 1, from the reciprocal of d.
 * With IEEE round-to-nearest, 1/d and the product a (1/d) each carry a relative error of at most
 * 2^-53, so y' = a (1/d) (1 + eta) with |eta| < 2^-51 and y = a / d < 2^32:
 * |y' - y| < 2^-51 * 2^32 / d < 1 / d. When d does not divide a, y lies at least 1/d from
 * either neighbouring integer, so y' truncates to floor(y); when d divides a, y' may fall just
 * below y and truncate to y - 1 (a = d = 49 does), and the remainder a - k d = d says so. The
 * correction is arithmetic, not a branch, so the threads of a warp never diverge on it
 * (002 section 3.2). y' < 2^32, so the conversion cannot overflow. On the GPU: a division (or
 * __drcp_rn), __dmul_rn and __double2uint_rz give the same bits.
 * Inside gcd_modinv the correction never changes k: with gcd(q, v) = 1 the only exact division
 * of the Euclidean sequence is its last, by d = 1, and a (1/1) = a exactly. */
static inline uint32_t gcd_modinv_quotient(uint32_t a, uint32_t d)
{
    uint32_t k = (uint32_t)((double)a * (1.0 / (double)d));
    return k + (a - k * d >= d);
}

/* v^-1 mod q in [1, q - 1], for q an odd prime below 2^32 and v in [1, q - 1]. */
uint32_t gcd_modinv(uint32_t v, uint32_t q);

#endif
