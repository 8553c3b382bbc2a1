/* Beyond 002: the modular inverse by Fermat's little theorem, v^-1 = v^(q-2) mod q, with 32-bit
 * Montgomery multiplication (Montgomery 1985; HAC 14.36), the reference twin of the GPU's
 * (kernels/gcd_arith.cuh, operation for operation).
 *
 * Why. The inverse of 002 section 3.2, an extended Euclid whose quotients come from a
 * floating-point reciprocal, is a chain of about 19 dependent divisions on average (26 for the
 * slowest lane of a warp), each a double conversion, a reciprocal, its refinement, a product and
 * a truncation: Nsight Compute on the H200 put 41 % of the kernel's time, 2.7 us of each
 * reduction step at 16 Kibit, in that loop. The reduction step of Fig. 2 is one inverse per
 * modulus, all at once, so its latency is the step's. Fermat's power is a fixed chain of 31
 * Montgomery squarings (five integer multiply-adds each) with the multiplications beside it:
 * the same work, a third of the latency, no data-dependent loop, no divergence.
 *
 * Forms. R = 2^32. montmul(a, b) = a b R^-1 mod q. The power below is taken on the plain residue
 * a, so that every product carries one R^-1 too many: with P(k) = a^k R^-(k-1), montmul(P(j),
 * P(k)) = P(j + k), and P(q - 2) = a^-1 R^-(q-3) = a^-1 R^2, since R^(q-1) = 1 mod q. The result
 * is that "inverse handle" h = a^-1 R^2; x a^-1 = montmul(montmul(x, 1), h). Converting a into
 * Montgomery form first would cost one more product on the critical path. */
#ifndef MPGPU_GCD_FERMAT_H
#define MPGPU_GCD_FERMAT_H

#include <stdint.h>

/* -q^-1 mod 2^32 for odd q, by Newton's iteration x <- x (2 - q x): q q = 1 mod 8, so q is
 * right to 3 bits and four steps give 48. */
static inline uint32_t gcd_mont_qinv(uint32_t q)
{
    uint32_t x = q;
    for (int i = 0; i < 4; i++)
        x *= 2u - q * x;
    return 0u - x;
}

/* a b R^-1 mod q for a, b < q < 2^32, q odd. t + m q is a multiple of R with m = t qinv mod R;
 * its low words add to 0 or R, so the carry out of them is (t mod R != 0). The quotient is below
 * (q^2 + R q) / R < 2q, so one conditional subtraction, in 64 bits because 2q may exceed R. */
static inline uint32_t gcd_montmul(uint32_t a, uint32_t b, uint32_t q, uint32_t qinv)
{
    const uint64_t t = (uint64_t)a * b;
    const uint32_t m = (uint32_t)t * qinv;
    const uint64_t mq = (uint64_t)m * q;
    const uint64_t r = (t >> 32) + (mq >> 32) + ((uint32_t)t != 0);
    return (uint32_t)(r >= q ? r - q : r);
}

/* The inverse handle a^-1 R^2 mod q of a in [1, q - 1], q an odd prime: right-to-left binary
 * powering by q - 2, the squarings base <- base^2 one chain, acc <- acc base (taken or not by a
 * select, never a branch) the other. acc starts at P(0) = R mod q. */
static inline uint32_t gcd_fermat_handle(uint32_t a, uint32_t q, uint32_t qinv, uint32_t r_mod_q)
{
    uint32_t e = q - 2, base = a, acc = r_mod_q;
    for (int i = 0; i < 32; i++) {
        const uint32_t with = gcd_montmul(acc, base, q, qinv);
        acc = e & 1 ? with : acc;
        base = gcd_montmul(base, base, q, qinv);
        e >>= 1;
    }
    return acc;
}

/* x a^-1 mod q from the handle h of a. */
static inline uint32_t gcd_fermat_mul_inverse(uint32_t x, uint32_t h, uint32_t q, uint32_t qinv)
{
    return gcd_montmul(gcd_montmul(x, 1, q, qinv), h, q, qinv);
}

/* a^-1 mod q in [1, q - 1] (the handle times 1). */
uint32_t gcd_modinv_fermat(uint32_t a, uint32_t q);

#endif
