/* The report of the shared-factor search (mpgpu_shared_factors_classify): from the moduli N_i
 * and g_i = gcd(N_i, prod over j != i of N_j), every modulus with g_i > 1 or a small prime
 * factor, its kind, its partners and the factor common to each. Partners come from the distinct
 * g_i alone, since gcd(N_i, N_j) = gcd(g_i, g_j) for i != j (each prime power of N_i shared
 * with N_j is in g_i and g_j whole): the moduli with one g_i form a group whose members all
 * share g_i, and two groups are linked by the GCD of their values when it exceeds 1. */
#ifndef MPGPU_SHARED_FACTORS_CLASSIFY_H
#define MPGPU_SHARED_FACTORS_CLASSIFY_H

#include <gmp.h>
#include <stddef.h>

#include "mpgpu.h"

/* The report of n >= 2 moduli (odd, > 1) and their g (each dividing its modulus, not checked
 * here), on `threads` >= 1 threads: MPGPU_OK or MPGPU_ERR_OUT_OF_HOST_MEMORY. */
mpgpu_status shared_factors_classify(size_t n, const mpz_t *N, const mpz_t *g, int threads,
                                     mpgpu_shared_factors_report **report);

/* Share s of finding k (as mpgpu_shared_factors_report_share): its factor (read only, the
 * report's) and its partners in input order into `partners`. */
void shared_factors_share(const mpgpu_shared_factors_report *r, size_t k, size_t s,
                          mpz_srcptr *factor, size_t *partners, size_t *n_partners);

#endif
