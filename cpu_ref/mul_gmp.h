/* The GMP baseline of `mpgpu mul` (mpn_mul_n per product, as the papers' CPU column) and the
 * reference product every GPU product is checked against (gmp_mul_words). Operands are arrays
 * of 32-bit words, least significant first, product-major: operand p is words
 * [p * words, (p + 1) * words). */
#ifndef MPGPU_MUL_GMP_H
#define MPGPU_MUL_GMP_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "loop_watch.h"

/* Operands converted once to GMP limbs, so the timed region is mpn_mul_n alone. */
struct gmp_batch {
    unsigned words;
    size_t limbs; /* limbs per operand */
    size_t count;
    mp_limb_t *a, *b, *c; /* c holds 2 * limbs limbs per product */
};

/* Returns 0, or -1 when memory runs out. watch (loop_watch.h; NULL: none) sees the operand
 * pairs converted and may stop it: then LOOP_STOPPED (gmp_batch_free frees g). */
int gmp_batch_init(struct gmp_batch *g, unsigned words, size_t count, const uint32_t *a,
                   const uint32_t *b, const struct loop_watch *watch);
void gmp_batch_free(struct gmp_batch *g);
/* All count products, on `threads` OpenMP threads (1: sequential, as the papers). Returns 0, or
 * LOOP_STOPPED when watch (as above) stopped it part-way. */
int gmp_batch_multiply(struct gmp_batch *g, int threads, const struct loop_watch *watch);
/* Product p as 2 * words 32-bit words. */
void gmp_batch_product_words(const struct gmp_batch *g, size_t p, uint32_t *out);

/* The full product of one pair: out gets 2 * words words. */
void gmp_mul_words(uint32_t *out, const uint32_t *a, const uint32_t *b, unsigned words);

#endif
