/* GMP reference of `mpgpu fixed` (004, Carlessi and Kashani): what every operation of
 * kernels/fixed_ops.h, applied `chain` times as kernels/fixed_chain.cuh applies it, must give;
 * and the operands and moduli the command line and the tests draw. Numbers are n-word arrays,
 * least significant word first; R = 2^(32n). */
#ifndef MPGPU_FIXED_REF_H
#define MPGPU_FIXED_REF_H

#include <stddef.h>
#include <stdint.h>

#include "fixed_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[0..fixed_r_words) = op applied `chain` (>= 1) times to a (and b, and the odd modulus m
 * for modular ops), with two's-complement wrap-around for add and sub. */
void fixed_ref(enum fixed_op op, unsigned bits, uint64_t chain, const uint32_t *a,
               const uint32_t *b, const uint32_t *m, uint32_t *out);

/* -m0^-1 mod 2^32 for odd m0, and r2 = R^2 mod m (n words). */
uint32_t fixed_neg_inv(uint32_t m0);
void fixed_r2(unsigned n, const uint32_t *m, uint32_t *r2);

/* A random odd modulus of exactly `bits` bits (top bit set) from the seed. */
void fixed_random_modulus(unsigned bits, uint64_t seed, uint32_t *m);

/* Operands of element p, from (seed, p) alone: a, b below 2^bits; for modular ops below m
 * (powm's exponent b below 2^bits; montred's a below mR). */
void fixed_random_operands(enum fixed_op op, unsigned bits, uint64_t seed, uint64_t p,
                           const uint32_t *m, uint32_t *a, uint32_t *b);

/* 1 if x (n words) < y (n words). */
int fixed_less(const uint32_t *x, const uint32_t *y, unsigned n);

#ifdef __cplusplus
}
#endif

#endif
