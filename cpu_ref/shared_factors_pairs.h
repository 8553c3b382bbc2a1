/* The all-pairs twin of the shared-factor search (mpgpu_shared_factors_*): what the batch GCD
 * tree and its report must give, from mpz_gcd of pairs and products modulo one modulus, with
 * no tree and no groups. Quadratic in the moduli: for checks and small sets. */
#ifndef MPGPU_SHARED_FACTORS_PAIRS_H
#define MPGPU_SHARED_FACTORS_PAIRS_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

/* g = gcd(N_i, prod over j != i of N_j), as the product of the others modulo N_i. */
void shared_factors_pairs_g(size_t n, const mpz_t *N, size_t i, mpz_t g);

/* Every j != i with gcd(N_i, N_j) > 1, in input order, into partners (room for n), and that
 * GCD into common[k] (n initialised mpz_t); returns how many. */
size_t shared_factors_pairs_partners(size_t n, const mpz_t *N, size_t i, size_t *partners,
                                     mpz_t *common);

/* The smallest prime below `limit` that divides x, by trial division; 0 when none does. */
uint32_t shared_factors_pairs_small_prime(const mpz_t x, uint32_t limit);

#endif
