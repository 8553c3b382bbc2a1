/* What the shared-factor search's tests share: a set of n RSA-like moduli of `bits` bits from
 * --make-moduli's generator (cpu_ref/rsa_moduli.c) with every relation planted, made on one
 * thread from set_seed; abort() when the generator cannot plant them (too few moduli). Free it
 * with mpz_array_free(N, n). */
#ifndef MPGPU_TEST_PLANTED_MODULI_H
#define MPGPU_TEST_PLANTED_MODULI_H

#include <stdlib.h>

#include "mpz_arrays.h"
#include "rsa_moduli.h"

static inline mpz_t *planted_moduli(size_t n, unsigned bits, uint64_t set_seed)
{
    mpz_t *N = mpz_array_new(n);
    struct rsa_planted planted[RSA_PLANT_KINDS];
    size_t n_planted = 0;
    if (rsa_moduli_make(N, n, bits, set_seed, RSA_PLANT_ALL, 1, NULL, planted, &n_planted) != 0)
        abort();
    return N;
}

#endif
