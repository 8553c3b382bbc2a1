/* GMP reference of `mpgpu fixed` (004, Carlessi and Kashani): what every operation of libmpgpu
 * (mpgpu.h's mpgpu_fixed_op), applied `chain` times as kernels/fixed_chain.cuh applies it, must
 * give; and the operands and moduli the command line and the tests draw. Numbers are n-word
 * arrays, least significant word first; R = 2^(32n). */
#ifndef MPGPU_FIXED_REF_H
#define MPGPU_FIXED_REF_H

#include <stddef.h>
#include <stdint.h>

#include "mpgpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[0..fixed_r_words) = op applied `chain` (>= 1) times to a (and b, and the odd modulus m
 * for modular ops), with two's-complement wrap-around for add and sub. */
void fixed_ref(mpgpu_fixed_op op, unsigned bits, uint64_t chain, const uint32_t *a,
               const uint32_t *b, const uint32_t *m, uint32_t *out);

/* r2 = R^2 mod m (n words), with GMP: the twin of mpgpu_fixed_modulus_set's. */
void fixed_r2(unsigned n, const uint32_t *m, uint32_t *r2);

/* A random odd modulus of exactly `bits` bits (top bit set) from the seed. */
void fixed_random_modulus(unsigned bits, uint64_t seed, uint32_t *m);

/* Element p's own random odd modulus of exactly `bits` bits, from (seed, p) alone: one modulus
 * per element (`mpgpu fixed --moduli per-element`). */
void fixed_element_modulus(unsigned bits, uint64_t seed, uint64_t p, uint32_t *m);

/* Operands of element p, from (seed, p) alone: a, b below 2^bits; for modular ops below m
 * (powm's exponent b below 2^bits; montred's a below mR). */
void fixed_random_operands(mpgpu_fixed_op op, unsigned bits, uint64_t seed, uint64_t p,
                           const uint32_t *m, uint32_t *a, uint32_t *b);

/* The worst-case operands of element `which` < FIXED_BOUNDARY_CASES, m as for
 * fixed_random_operands: 0: zeros; 1: all ones (of n words for add and sub, of P bits for
 * products), m - 1 for modular ops (powm: exponent all ones of P bits), the largest
 * T = mR - 1 for montred; 2: one; 3: as 1, but for the products the top bit alone. */
#define FIXED_BOUNDARY_CASES 4u
void fixed_boundary_operands(mpgpu_fixed_op op, unsigned bits, const uint32_t *m, unsigned which,
                             uint32_t *a, uint32_t *b);

/* 1 if x (n words) < y (n words). */
int fixed_less(const uint32_t *x, const uint32_t *y, unsigned n);

#ifdef __cplusplus
}
#endif

#endif
