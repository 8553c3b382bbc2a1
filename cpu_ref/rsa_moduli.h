/* RSA-like test moduli for the shared-factor search: N_i = p_i q_i, two random primes of half
 * the size each (top two bits set, so N_i has the size asked for), from the seed, with planted
 * relations: moduli that share one prime, a duplicated modulus, a modulus whose two primes are
 * each shared with another modulus, and a modulus with a small prime factor. Modulus i depends
 * only on (seed, i) and the plants, not on the threads. */
#ifndef MPGPU_RSA_MODULI_H
#define MPGPU_RSA_MODULI_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#include "loop_watch.h"

/* What can be planted, each at most once a set (bits of rsa_moduli_make's plants). */
enum rsa_plant {
    RSA_PLANT_SHARED = 1,    /* three moduli share one prime: p q1, p q2, p q3 */
    RSA_PLANT_DUPLICATE = 2, /* two moduli are equal */
    RSA_PLANT_BOTH = 4,      /* p q shares p with p r and q with q s: its GCD is itself */
    RSA_PLANT_SMALL = 8,     /* a modulus s r with s a prime below 2^16 */
    RSA_PLANT_ALL = 15,
};
#define RSA_PLANT_KINDS 4

/* The plants' names, in the order of their bits: "shared", "duplicate", "both", "small". */
extern const char *const rsa_plant_names[RSA_PLANT_KINDS];

/* Moduli each plant takes. */
unsigned rsa_plant_moduli(unsigned plants);

/* Where a plant went: its moduli's indices (the first `count` of index). */
struct rsa_planted {
    enum rsa_plant kind;
    unsigned count;
    size_t index[3];
};

/* n moduli of `bits` bits (even, 64..65536) into N (n initialised mpz_t) with the plants (n at
 * least rsa_plant_moduli(plants)), their places from the seed; `planted` (room for
 * RSA_PLANT_KINDS) says where each went, *n_planted how many. threads >= 1; watch (NULL: none)
 * sees the moduli made and may stop the loop. Returns 0, or LOOP_STOPPED (N then partial). */
int rsa_moduli_make(mpz_t *N, size_t n, unsigned bits, uint64_t seed, unsigned plants,
                    int threads, const struct loop_watch *watch, struct rsa_planted *planted,
                    size_t *n_planted);

#endif
