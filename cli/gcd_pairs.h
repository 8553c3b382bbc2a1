/* The pairs `mpgpu gcd` works on: random pairs from the seed with a planted common factor, or
 * pairs read from a file of hexadecimal lines. */
#ifndef MPGPU_GCD_PAIRS_H
#define MPGPU_GCD_PAIRS_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

struct gcd_pairs {
    size_t count;
    unsigned bits; /* the widest number's size (random pairs: the size asked for) */
    mpz_t *a, *b;
};

/* n initialised mpz_t (exits 2 when host memory is short), and their release. */
mpz_t *gcd_mpz_array(size_t n);
void gcd_mpz_array_free(mpz_t *x, size_t n);

/* Pair i of size N: U = A F, V = B F with F of gcd_bits bits and A, B of N - gcd_bits bits (a
 * number of 0 bits is 1), each with its top bit set and from its own stream of the seed, so a
 * pair does not depend on count. */
void gcd_pairs_random(struct gcd_pairs *p, size_t count, unsigned bits, uint64_t gcd_bits,
                      uint64_t seed);

/* "HEX_U HEX_V" lines through hex_lines (cli/hexio.h), numbers of at most CLI_BITS_MAX bits (what
 * --bits accepts). A file without pairs exits with status 2 naming it. */
void gcd_pairs_read(struct gcd_pairs *p, const char *path);

void gcd_pairs_free(struct gcd_pairs *p);

#endif
