/* The CPU model of the bulk GCD's binary inner loop (issue 38): Stein's binary GCD on one pair
 * of n-word numbers, step by step as one GPU thread would run it (gcd_bulk_words.h), counting
 * its operations. */
#ifndef MPGPU_GCD_BULK_BINARY_REF_H
#define MPGPU_GCD_BULK_BINARY_REF_H

#include <stdint.h>

#include "gcd_bulk_words.h"

/* g = gcd(a, b), all three of n words (1 <= n <= GCD_BULK_MAX_WORDS; zero top words are how a
 * shorter number is given), gcd(0, b) = b and gcd(0, 0) = 0; the operations are added to
 * *counts. */
void gcd_bulk_binary(uint32_t *g, const uint32_t *a, const uint32_t *b, uint32_t n,
                     struct gcd_bulk_counts *counts);

#endif
