/* The bulk GCD's test pairs (issue 38), for the CPU models' test (test_gcd_bulk_ref.c) and the
 * kernel steps' twin (test_gcd_bulk_steps.c) alike: seeded random pairs (uniform words, GMP's
 * long runs of ones and zeros, unequal lengths) and the edge cases of every size up to 8192
 * bits. Each pair goes to check(a, b, width, what, counted, ctx): width, the words to give the
 * pair in (0: the longer's); counted, whether it is a uniform random pair (the models count
 * their operations on those alone). */
#ifndef MPGPU_TESTS_GCD_BULK_CASES_H
#define MPGPU_TESTS_GCD_BULK_CASES_H

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "gcd_cases.h"

typedef void (*gcd_bulk_check_fn)(const mpz_t a, const mpz_t b, uint32_t width, const char *what,
                                  bool counted, void *ctx);

/* `pairs` random pairs of `bits` bits each; GMP's rrandomb (long runs of ones and zeros) for
 * every other pair; then pairs with the shorter number in the longer's width. The uniform pairs
 * are the ones `counted`. */
static inline void gcd_bulk_random_pairs(gmp_randstate_t rng, unsigned bits, unsigned pairs,
                                         gcd_bulk_check_fn check, void *ctx)
{
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    for (unsigned i = 0; i < pairs; i++) {
        const bool runs = i % 2;
        (runs ? mpz_rrandomb : mpz_urandomb)(a, rng, bits);
        (runs ? mpz_rrandomb : mpz_urandomb)(b, rng, bits);
        check(a, b, (bits + 31) / 32, runs ? "random pair, runs" : "random pair", !runs, ctx);
    }
    /* The shorter number in the longer's width. */
    for (unsigned i = 0; i < pairs / 8 + 1; i++) {
        mpz_urandomb(a, rng, bits);
        mpz_urandomb(b, rng, 1 + (unsigned)gmp_urandomm_ui(rng, bits));
        check(a, b, (bits + 31) / 32, "random pair, unequal lengths", false, ctx);
    }
    mpz_clears(a, b, NULL);
}

/* Zero and one against numbers of every size, equal numbers, powers of two, words of all ones,
 * one word against 8192 bits, shared random primes, consecutive Fibonacci numbers. */
static inline void gcd_bulk_edge_cases(gmp_randstate_t rng, gcd_bulk_check_fn check, void *ctx)
{
    mpz_t a, b, p;
    mpz_inits(a, b, p, NULL);
    const unsigned sizes[] = {1, 31, 32, 33, 64, 65, 96, 1024, 4095, 8192};
    for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        gcd_case_bits(a, rng, sizes[i]);
        mpz_set_ui(b, 0);
        check(b, a, 256, "zero and a number, 256 words", false, ctx);
        check(a, b, 0, "a number and zero", false, ctx);
        mpz_set_ui(b, 1);
        check(a, b, 0, "a number and one", false, ctx);
        check(b, a, 0, "one and a number", false, ctx);
        check(a, a, 0, "equal numbers", false, ctx);
        mpz_set_ui(b, 0);
        mpz_setbit(b, sizes[i] - 1);
        check(a, b, 0, "a number and a power of two", false, ctx);
        mpz_mul_2exp(p, a, 8192 - sizes[i]);
        check(p, b, 0, "a number times 2^k and a power of two", false, ctx);
    }
    mpz_set_ui(a, 0);
    check(a, a, 7, "gcd(0, 0), 7 words", false, ctx);
    for (unsigned i = 0; i <= 8191; i += 455)
        for (unsigned j = 0; j <= 8191; j += 1023) {
            mpz_set_ui(a, 0);
            mpz_setbit(a, i);
            mpz_set_ui(b, 0);
            mpz_setbit(b, j);
            check(a, b, 0, "powers of two", false, ctx);
        }
    for (unsigned m = 1; m <= 256; m = m * 3 + 1)
        for (unsigned k = 1; k <= 256; k += 37) {
            mpz_set_ui(a, 0);
            mpz_setbit(a, 32 * m);
            mpz_sub_ui(a, a, 1);
            mpz_set_ui(b, 0);
            mpz_setbit(b, 32 * k);
            mpz_sub_ui(b, b, 1);
            check(a, b, 0, "words of all ones", false, ctx);
        }
    for (unsigned i = 0; i < 20; i++) {
        gcd_case_bits(a, rng, 8192);
        mpz_set_ui(b, (uint32_t)gmp_urandomb_ui(rng, 32) | 1);
        check(a, b, 0, "one word and 8192 bits", false, ctx);
        check(b, a, 0, "8192 bits and one word", false, ctx);
        gcd_case_bits(a, rng, 8160);
        mpz_mul(a, a, b);
        check(a, b, 0, "one word dividing 8192 bits", false, ctx);
    }
    const unsigned prime_bits[] = {32, 64, 100, 512, 1024, 2048, 4096};
    for (unsigned i = 0; i < sizeof prime_bits / sizeof *prime_bits; i++)
        for (unsigned r = 0; r < 4; r++) {
            gcd_case_bits(p, rng, prime_bits[i]);
            mpz_nextprime(p, p);
            const unsigned rest = 8192 - prime_bits[i] - 1;
            gcd_case_bits(a, rng, 1 + (unsigned)gmp_urandomm_ui(rng, rest));
            gcd_case_bits(b, rng, 1 + (unsigned)gmp_urandomm_ui(rng, rest));
            mpz_mul(a, a, p);
            mpz_mul(b, b, p);
            check(a, b, 0, "a shared random prime", false, ctx);
        }
    /* F(k) has about 0.694 k bits: up to 8192 bits. */
    for (unsigned k = 2; k <= 11800; k += k < 200 ? 1 : 97) {
        mpz_fib2_ui(a, b, k);
        check(a, b, 0, "consecutive Fibonacci numbers", false, ctx);
        check(b, a, 0, "consecutive Fibonacci numbers, the smaller first", false, ctx);
    }
    mpz_clears(a, b, p, NULL);
}

/* Random pairs of 64, 96, 1024, 2048, 4096 and 8192 bits: `scale` x (40, 40, 4, 2, 0.6, 0.2)
 * pairs of each (scale a multiple of 5). */
static inline void gcd_bulk_random_sizes(gmp_randstate_t rng, unsigned scale,
                                         gcd_bulk_check_fn check, void *ctx)
{
    const unsigned bits[] = {64, 96, 1024, 2048, 4096, 8192};
    const unsigned per_100[] = {4000, 4000, 400, 200, 60, 20};
    for (unsigned i = 0; i < 6; i++)
        gcd_bulk_random_pairs(rng, bits[i], per_100[i] * scale / 100, check, ctx);
}

#endif
