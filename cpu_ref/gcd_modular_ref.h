/* The sequential CPU twin of the modular integer GCD as 002 implements it (Fig. 2): the same
 * moduli, keys, choices and order as the GPU kernel, which repeats it step by step.
 *
 * What one GPU thread block holds, per modulus (one thread each, moduli in the order of
 * struct gcd_moduli, largest first):
 *   q       the modulus (u32), one of the N_Q largest of M (Fig. 2 line 4);
 *   m       its fast-remainder multiplier (u64, gcd_fastrem_multiplier, 002 section 3.1);
 *   u, v    the residues of the current pair, kept in [0, q) (002 section 3: the operations run
 *           on [0, q - 1] and the symmetric range is used only where a value leaves the modulus:
 *           the key, b and the digits g);
 *   key     gcd_key(q, u/v mod q), or GCD_KEY_INF when v = 0 or q has left Q (u64);
 *   active  whether q is still in Q.
 * and, identical in every block, the scalars N_Q, N_u, N_v (Fig. 2), the proven size bounds
 * B_u, B_v (below), and the broadcast pair (p, b) or (p_k, g_k). The digits (p_k, g_k) go to the
 * host, which forms G with GMP (Fig. 2 line 29; gcd_mixed_radix_to_mpz).
 *
 * One reduction step for every q in Q other than p (Fig. 2 lines 12-14), with b_q = b mod q and
 * p_q = p mod q, each one conditional add or subtract, as all moduli are L-bit (|b| < 2^(L-1) < q
 * and p < 2q):
 *   w = u - b_q v;  u <- v;  if w = 0: v <- 0, key <- INF;
 *   else x = (p_q w)^-1, v <- w^2 x (= w / p), t = v_old p_q^2 x (= v_old p / w = u / v),
 *        key <- gcd_key(q, t).
 * One inverse per modulus and step instead of two (p^-1 and w^-1 are w x and p x).
 *
 * Tie rules, so that every block and the twin make the same choices: the minimum key is unique
 * (it contains q, 002 section 4.2); "choose any" (section 4.3) takes the lowest index with
 * u != 0, i.e. the largest such modulus.
 *
 * Never a wrong answer. The residues always hold the integers of the sequence u' = v,
 * v' = (u - b v) / p that the chosen (p, b) define (p divides u - b v because b = u/v mod p), and
 * that sequence keeps gcd(u, v) (p does not divide v, so p is not in the GCD). They can be read
 * back only while |u| and |v| are below the product P of the moduli left. The twin tracks proven
 * bounds |u| < 2^B_u, |v| < 2^B_v: B_u' = B_v, B_v' = max(B_u, B_v + bits(b)) + 2 - L, as
 * |u - b v| / p < (2^B_u + 2^(B_v + bits(b))) / 2^(L-1). When the reduction loop ends with n moduli
 * left (P > 2^(n (L-1))), B_v <= n (L-1) proves v = 0 from v = 0 mod P, and B_u <= n (L-1) - 1
 * proves |u| < P/2, so the mixed-radix digits give u exactly. Otherwise, or when Fig. 2's own
 * test (line 16, a size estimate, not a bound) fires first, the result is GCD_SHORTAGE and the
 * caller retries with more moduli. The loop always ends: each step removes one modulus. */
#ifndef MPGPU_GCD_MODULAR_REF_H
#define MPGPU_GCD_MODULAR_REF_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gcd_modular.h"
#include "gcd_moduli.h"

/* malloc for the twins (this one and cpu_ref/gcd_kary_ref.c): memory is short only for inputs
 * far past one GPU's reach, and then it says so and aborts, as GMP does. */
void *gcd_ref_alloc(size_t bytes);

/* Fig. 2 lines 4-7 for the first n moduli of M: the fast-remainder multipliers (into m, unless
 * NULL) and U mod q, V mod q by gcd_residue_words, from U and V exported as 32-bit words. */
void gcd_residues(const mpz_t u, const mpz_t v, const struct gcd_moduli *M, size_t n,
                  uint64_t *m, uint32_t *ru, uint32_t *rv);

/* One attempt of Fig. 2 on U >= V > 0 with the n_q largest moduli of M (n_q <= M->count).
 * Sets g on GCD_OK; leaves it alone on GCD_SHORTAGE. */
enum gcd_status gcd_modular_attempt(mpz_t g, const mpz_t u, const mpz_t v,
                                    const struct gcd_moduli *M, size_t n_q, struct gcd_run *run);

/* gcd(a, b) as mpz_gcd gives it: prepare, then attempts from first_nq moduli (0: the formula,
 * gcd_modular_nq) growing by the retry policy until one succeeds. run->status is GCD_OK with g
 * set, or GCD_TOO_LARGE (g untouched) when M has too few moduli for the pair. */
void gcd_modular(mpz_t g, const mpz_t a, const mpz_t b, const struct gcd_moduli *M, size_t block,
                 size_t first_nq, struct gcd_run *run);

/* Fig. 2 lines 21-30 on the moduli q[i] with active[i] set, u[i] the residues of G: the
 * mixed-radix recovery with the k <- k + 1 that the printed figure lost (lines 22-27 find a new
 * pair (p_k, g_k) each time, the "choose any" taking the lowest index with u != 0; line 29 reads
 * them all back). Sets g = |G| with GMP, consumes u and active, returns the digits found. */
uint64_t gcd_mixed_radix_recover(mpz_t g, const uint32_t *q, uint32_t *u, unsigned char *active,
                                 size_t n);

#endif
