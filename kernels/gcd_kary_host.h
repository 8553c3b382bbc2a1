/* What the k-ary modular GCD on the GPU (kernels/gcd_kary.cu, its host driver gcd_device.c)
 * shares with its CPU twin (cpu_ref/gcd_kary_ref.h, which describes the method): how many moduli
 * an attempt takes, the host's clean-up of the result, and the statistics both report. */
#ifndef MPGPU_GCD_KARY_HOST_H
#define MPGPU_GCD_KARY_HOST_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#include "gcd_modular.h"

/* The moduli of an attempt are rounded up to a multiple of this (and of every GPU warp's 32 K
 * moduli), the first as the retries. */
#define GCD_KARY_ROUND 256u

/* The moduli of the first attempt for |U| < 2^n_u, |V| < 2^n_v: each pivot takes the bound sum
 * down by about L/2 - 2 bits (|x|, |y| about sqrt(p), one bit for the sum), and the bounds left
 * at the end need a few more; rounded up to `group`, at most `available`. GCD_TOO_LARGE when
 * even that exceeds `available`. */
enum gcd_status gcd_kary_nq(uint64_t n_u, uint64_t n_v, unsigned L, size_t group,
                            uint64_t available, size_t *n_q);

/* gcd(U, V) from the result H of the reduction (up to spurious factors, with the common factors
 * multiplied in): gcd(H, U mod H, V mod H). Returns the bits the spurious factors took. */
uint64_t gcd_kary_clean(mpz_t g, const mpz_t h, const mpz_t u, const mpz_t v);

/* What an attempt found beyond struct gcd_run. */
struct gcd_kary_stats {
    uint64_t pairs, replaces, commons, checks; /* steps by kind */
    uint64_t consumed;                         /* pivots */
    uint64_t spurious_bits;                    /* removed by gcd_kary_clean */
};

#endif
