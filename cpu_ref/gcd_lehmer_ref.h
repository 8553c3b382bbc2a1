/* The sequential CPU twin of the Lehmer GCD kernel (kernels/gcd_lehmer.h; beyond 002): the
 * same steps in the same order, and the block's word arithmetic chunk by chunk, phase by phase,
 * as its threads do it, ripple rounds and negations included, so that the cpu suite checks the
 * kernel's carry scheme where no GPU is. */
#ifndef MPGPU_GCD_LEHMER_REF_H
#define MPGPU_GCD_LEHMER_REF_H

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "gcd_lehmer.h"

/* One step on the words [0, w) of A (words a, its top word below w) and B (words b, nb of
 * them), in place, with chunks of k words, as the block runs it: phase 1, phase 2, the ripple
 * rounds, and the negation of a ONE step gone below 0; scratch holds 4 w carries. Returns false
 * when the result does not fit in w words, or is below 0 after a PAIR or SHIFT step, or when a
 * PAIR step has a multiplier of 2^31 or more (gcd_lehmer_pair_words). */
bool gcd_lehmer_apply(const struct gcd_lehmer_step *st, uint32_t *a, uint32_t *b, uint32_t w,
                      uint32_t nb, uint32_t k, int64_t *scratch, struct gcd_lehmer_stats *stats);

/* The reduction of U >= V > 0 with chunks of `chunk` words: g = gcd(U, V). Returns false when a
 * PAIR or SHIFT step left a number below 0 or past its headroom (the file's bounds broken). */
bool gcd_lehmer_reduce(mpz_t g, const mpz_t u, const mpz_t v, uint32_t chunk,
                       struct gcd_lehmer_stats *stats);

/* gcd(a, b) as mpz_gcd gives it (zeros and signs as GMP), chunks of gcd_lehmer_shape's size
 * unless `chunk` is not 0. Returns gcd_lehmer_reduce's verdict (true when it did not run). */
bool gcd_lehmer_ref(mpz_t g, const mpz_t a, const mpz_t b, uint32_t chunk,
                    struct gcd_lehmer_stats *stats);

#endif
