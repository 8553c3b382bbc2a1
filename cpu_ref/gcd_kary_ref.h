/* The sequential CPU twin of the k-ary modular GCD (kernels/gcd_kary.h; beyond 002): the same
 * moduli, pivots, vectors, bounds and zero checks as the GPU kernel (kernels/gcd_kary.cu), one
 * step after another over every modulus.
 *
 * Per modulus (largest first, as struct gcd_moduli; the pivots are taken in that order, so the
 * moduli consumed are always a prefix): the residues a, b of S A and S B and S itself, S the
 * product of the pivots consumed so far. A step (struct gcd_kary_step) applied to a modulus q
 * with P = p mod q:
 *   PAIR       a <- (y1 a - x1 b) P2,  b <- (y2 a - x2 b) P1,  S <- S P1 P2
 *   REPLACE_A  a <- y a - x b,         b <- b P,               S <- S P
 *   REPLACE_B  a <- a P,               b <- y a - x b,         S <- S P
 *   COMMON     S <- S P                (p divides A and B; it joins the GCD's common factor)
 * At DONE the live residues of the nonzero number are divided by S and read back by Fig. 2's
 * mixed-radix recovery (gcd_mixed_radix_recover); the host multiplies in the common factors and
 * removes the spurious ones with two divisions (gcd_kary_clean). */
#ifndef MPGPU_GCD_KARY_REF_H
#define MPGPU_GCD_KARY_REF_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#include "gcd_kary.h"
#include "gcd_kary_host.h"
#include "gcd_modular_ref.h"
#include "gcd_moduli.h"

/* One attempt on U >= V > 0 with the n_q largest moduli, pivots paired only inside groups of
 * `group` consecutive moduli (the GPU's warp). Sets g on GCD_OK; leaves it alone on
 * GCD_SHORTAGE. */
enum gcd_status gcd_kary_attempt(mpz_t g, const mpz_t u, const mpz_t v,
                                 const struct gcd_moduli *M, size_t n_q, size_t group,
                                 struct gcd_run *run, struct gcd_kary_stats *stats);

/* gcd(a, b) as mpz_gcd gives it: prepare, then attempts from first_nq moduli (0: gcd_kary_nq)
 * doubling after a shortage (gcd_modular_retry_nq), rounded to GCD_KARY_ROUND as the GPU's;
 * GCD_TOO_LARGE when M runs out. */
void gcd_kary(mpz_t g, const mpz_t a, const mpz_t b, const struct gcd_moduli *M, size_t group,
              size_t first_nq, struct gcd_run *run, struct gcd_kary_stats *stats);

#endif
