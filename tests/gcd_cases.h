/* Issue 10's list of GCD inputs, for the CPU twin's test and the GPU's alike: random pairs of the
 * same and of different sizes, planted common factors of 1, 64, 1000 and N/2 bits, U = V, V | U,
 * V = 1, U much longer than V, one to three words (all-ones words included), zeros and signs as
 * mpz_gcd has them, and three moduli as common factors (their residues stay 0 through the
 * reduction loop). Each pair goes to check(ctx, a, b, what). */
#ifndef MPGPU_TESTS_GCD_CASES_H
#define MPGPU_TESTS_GCD_CASES_H

#include <stdint.h>
#include <gmp.h>

typedef void (*gcd_case_fn)(void *ctx, const mpz_t a, const mpz_t b, const char *what);

/* x: a random number of exactly `bits` bits (0 for bits 0). */
static inline void gcd_case_bits(mpz_t x, gmp_randstate_t rng, unsigned bits)
{
    mpz_urandomb(x, rng, bits);
    if (bits)
        mpz_setbit(x, bits - 1);
}

/* a = f x and b = f y, f of `common` bits and x, y of `bits` and `bits - shorter` bits: a pair
 * whose GCD has at least the planted factor f. */
static inline void gcd_case_planted(mpz_t a, mpz_t b, gmp_randstate_t rng, unsigned bits,
                                    unsigned shorter, unsigned common)
{
    mpz_t f;
    mpz_init(f);
    gcd_case_bits(f, rng, common);
    gcd_case_bits(a, rng, bits);
    gcd_case_bits(b, rng, bits - shorter);
    mpz_mul(a, a, f);
    mpz_mul(b, b, f);
    mpz_clear(f);
}

/* The cases up to n bits: `pairs` random pairs at each power-of-two size from 32 bits,
 * `few_words` random pairs of each length of one to three words; q holds three moduli. */
static inline void gcd_cases(gmp_randstate_t rng, unsigned n, unsigned pairs, unsigned few_words,
                             const uint32_t q[3], gcd_case_fn check, void *ctx)
{
    mpz_t a, b, f;
    mpz_inits(a, b, f, NULL);
    for (unsigned bits = 32; bits <= n; bits *= 2)
        for (unsigned i = 0; i < pairs; i++) {
            gcd_case_bits(a, rng, bits);
            gcd_case_bits(b, rng, bits - (unsigned)gmp_urandomm_ui(rng, bits / 4 + 1));
            check(ctx, a, b, "random pair");
        }
    const unsigned planted[] = {1, 64, 1000, n / 2};
    for (int i = 0; i < 4; i++) {
        if (planted[i] >= n)
            continue;
        gcd_case_planted(a, b, rng, n - planted[i], 3, planted[i]);
        check(ctx, a, b, "planted factor");
    }
    gcd_case_bits(a, rng, n);
    check(ctx, a, a, "U = V");
    gcd_case_bits(b, rng, n / 2);
    gcd_case_bits(f, rng, n / 2);
    mpz_mul(a, b, f);
    check(ctx, a, b, "V | U");
    mpz_set_ui(b, 1);
    check(ctx, a, b, "V = 1");
    gcd_case_bits(a, rng, n);
    gcd_case_bits(b, rng, 40);
    check(ctx, a, b, "U much longer than V");
    for (unsigned words = 1; words <= 3; words++) {
        for (unsigned i = 0; i < few_words; i++) {
            gcd_case_bits(a, rng, 1 + (unsigned)gmp_urandomm_ui(rng, 32 * words));
            gcd_case_bits(b, rng, 1 + (unsigned)gmp_urandomm_ui(rng, 32 * words));
            check(ctx, a, b, "few words");
        }
        mpz_set_ui(a, 0);
        mpz_setbit(a, 32 * words);
        mpz_sub_ui(a, a, 1);
        mpz_set_ui(b, 0xffffffffu);
        check(ctx, a, b, "all-ones words");
        mpz_set_ui(b, 3);
        check(ctx, a, b, "all-ones and 3");
    }
    mpz_set_ui(a, 0);
    mpz_set_ui(b, 0);
    check(ctx, a, b, "gcd(0, 0)");
    gcd_case_bits(b, rng, 100);
    check(ctx, a, b, "gcd(0, V)");
    check(ctx, b, a, "gcd(U, 0)");
    mpz_neg(b, b);
    check(ctx, a, b, "gcd(0, -V)");
    gcd_case_bits(a, rng, 300);
    mpz_neg(a, a);
    check(ctx, a, b, "gcd(-U, -V)");
    mpz_set_ui(a, 1);
    check(ctx, a, a, "gcd(1, 1)");
    mpz_set_ui(f, q[0]);
    mpz_mul_ui(f, f, q[1]);
    mpz_mul_ui(f, f, q[2]);
    gcd_case_bits(a, rng, n / 2);
    gcd_case_bits(b, rng, n / 3);
    mpz_mul(a, a, f);
    mpz_mul(b, b, f);
    check(ctx, a, b, "moduli as common factors");
    mpz_clears(a, b, f, NULL);
}

#endif
