/* cpu suite: the CPU models of the bulk GCD's inner loops (issue 38;
 * cpu_ref/gcd_bulk_binary_ref.c, cpu_ref/gcd_bulk_lehmer_ref.c), one pair of n-word numbers
 * as one GPU thread holds them.
 * - both models against mpz_gcd on seeded random pairs of 64, 96, 1024, 2048, 4096 and 8192
 *   bits (uniform words, and GMP's long runs of ones and zeros), each in its own width and with
 *   the shorter one of the pair given in the longer's width;
 * - issue 10's cases up to 8192 bits (tests/gcd_cases.h: planted factors, U = V, V | U, V = 1,
 *   U much longer than V, one to three words, all-ones words, zeros, moduli as factors);
 * - zero and one against numbers of every size, equal numbers, powers of two (and a power of
 *   two times an odd number), 2^(32 m) - 1 against 2^(32 k) - 1 (words of all ones: the GCD is
 *   2^(32 gcd(m, k)) - 1), one word against 8192 bits (and dividing them), products with a
 *   shared random prime of 32 to 4096 bits, and consecutive Fibonacci numbers up to 8192 bits
 *   (Euclid's worst case: every quotient 1);
 * - the operation counts on uniform random pairs: every GCD counted once, and each iteration
 *   taking at least 16 bits off the two numbers together (a Lehmer step) or 1 (a binary round);
 *   the mean counts per GCD at 1024, 2048 and 4096 bits printed for docs/shared-factors.md. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcd_bulk_binary_ref.h"
#include "gcd_bulk_lehmer_ref.h"
#include "gcd_cases.h"
#include "test_seed.h"

static gmp_randstate_t rng;

static uint32_t word_count(const mpz_t x)
{
    return mpz_sgn(x) ? (uint32_t)((mpz_sizeinbase(x, 2) + 31) / 32) : 0;
}

/* Both models on |a|, |b| in `width` words (0: the longer's), against mpz_gcd: two checks. */
static void check_pair_in(const mpz_t a, const mpz_t b, uint32_t width, const char *what,
                          struct gcd_bulk_counts counts[2])
{
    uint32_t n = word_count(a) > word_count(b) ? word_count(a) : word_count(b);
    n = width > n ? width : n ? n : 1;
    if (n > GCD_BULK_MAX_WORDS) {
        CHECK(0, "%s: %u words, past the models' %u", what, n, GCD_BULK_MAX_WORDS);
        return;
    }
    uint32_t wa[GCD_BULK_MAX_WORDS] = {0}, wb[GCD_BULK_MAX_WORDS] = {0}, g[GCD_BULK_MAX_WORDS];
    mpz_export(wa, NULL, -1, sizeof *wa, 0, 0, a);
    mpz_export(wb, NULL, -1, sizeof *wb, 0, 0, b);
    mpz_t want, got;
    mpz_inits(want, got, NULL);
    mpz_gcd(want, a, b);
    gcd_bulk_binary(g, wa, wb, n, &counts[0]);
    mpz_import(got, n, -1, sizeof *g, 0, 0, g);
    CHECK(mpz_cmp(got, want) == 0,
          "binary, %s: %zu and %zu bits in %u words, %zu-bit gcd, got %zu bits", what,
          mpz_sizeinbase(a, 2), mpz_sizeinbase(b, 2), n, mpz_sizeinbase(want, 2),
          mpz_sizeinbase(got, 2));
    const bool ok = gcd_bulk_lehmer(g, wa, wb, n, &counts[1]);
    mpz_import(got, n, -1, sizeof *g, 0, 0, g);
    CHECK(ok && mpz_cmp(got, want) == 0,
          "lehmer, %s: %zu and %zu bits in %u words, %zu-bit gcd, got %zu bits%s", what,
          mpz_sizeinbase(a, 2), mpz_sizeinbase(b, 2), n, mpz_sizeinbase(want, 2),
          mpz_sizeinbase(got, 2), ok ? "" : " (a step broke its bounds)");
    mpz_clears(want, got, NULL);
}

static struct gcd_bulk_counts scratch_counts[2];

static void check_pair(const mpz_t a, const mpz_t b, const char *what)
{
    check_pair_in(a, b, 0, what, scratch_counts);
}

static void check_case(void *ctx, const mpz_t a, const mpz_t b, const char *what)
{
    (void)ctx;
    check_pair(a, b, what);
}

/* `pairs` random pairs of `bits` bits each; GMP's rrandomb (long runs of ones and zeros) for
 * every other pair. The counts of the uniform pairs are added to counts[]. */
static void random_pairs(unsigned bits, unsigned pairs, struct gcd_bulk_counts counts[2])
{
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    for (unsigned i = 0; i < pairs; i++) {
        const bool runs = i % 2;
        (runs ? mpz_rrandomb : mpz_urandomb)(a, rng, bits);
        (runs ? mpz_rrandomb : mpz_urandomb)(b, rng, bits);
        check_pair_in(a, b, (bits + 31) / 32, runs ? "random pair, runs" : "random pair",
                      runs ? scratch_counts : counts);
    }
    /* The shorter number in the longer's width. */
    for (unsigned i = 0; i < pairs / 8 + 1; i++) {
        mpz_urandomb(a, rng, bits);
        mpz_urandomb(b, rng, 1 + (unsigned)gmp_urandomm_ui(rng, bits));
        check_pair_in(a, b, (bits + 31) / 32, "random pair, unequal lengths", scratch_counts);
    }
    mpz_clears(a, b, NULL);
}

static void edge_cases(void)
{
    mpz_t a, b, p;
    mpz_inits(a, b, p, NULL);
    const unsigned sizes[] = {1, 31, 32, 33, 64, 65, 96, 1024, 4095, 8192};
    for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        gcd_case_bits(a, rng, sizes[i]);
        mpz_set_ui(b, 0);
        check_pair_in(b, a, 256, "zero and a number, 256 words", scratch_counts);
        check_pair(a, b, "a number and zero");
        mpz_set_ui(b, 1);
        check_pair(a, b, "a number and one");
        check_pair(b, a, "one and a number");
        check_pair(a, a, "equal numbers");
        mpz_set_ui(b, 0);
        mpz_setbit(b, sizes[i] - 1);
        check_pair(a, b, "a number and a power of two");
        mpz_mul_2exp(p, a, 8192 - sizes[i]);
        check_pair(p, b, "a number times 2^k and a power of two");
    }
    mpz_set_ui(a, 0);
    check_pair_in(a, a, 7, "gcd(0, 0), 7 words", scratch_counts);
    for (unsigned i = 0; i <= 8191; i += 455)
        for (unsigned j = 0; j <= 8191; j += 1023) {
            mpz_set_ui(a, 0);
            mpz_setbit(a, i);
            mpz_set_ui(b, 0);
            mpz_setbit(b, j);
            check_pair(a, b, "powers of two");
        }
    for (unsigned m = 1; m <= 256; m = m * 3 + 1)
        for (unsigned k = 1; k <= 256; k += 37) {
            mpz_set_ui(a, 0);
            mpz_setbit(a, 32 * m);
            mpz_sub_ui(a, a, 1);
            mpz_set_ui(b, 0);
            mpz_setbit(b, 32 * k);
            mpz_sub_ui(b, b, 1);
            check_pair(a, b, "words of all ones");
        }
    for (unsigned i = 0; i < 20; i++) {
        gcd_case_bits(a, rng, 8192);
        mpz_set_ui(b, (uint32_t)gmp_urandomb_ui(rng, 32) | 1);
        check_pair(a, b, "one word and 8192 bits");
        check_pair(b, a, "8192 bits and one word");
        gcd_case_bits(a, rng, 8160);
        mpz_mul(a, a, b);
        check_pair(a, b, "one word dividing 8192 bits");
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
            check_pair(a, b, "a shared random prime");
        }
    /* F(k) has about 0.694 k bits: up to 8192 bits. */
    for (unsigned k = 2; k <= 11800; k += k < 200 ? 1 : 97) {
        mpz_fib2_ui(a, b, k);
        check_pair(a, b, "consecutive Fibonacci numbers");
        check_pair(b, a, "consecutive Fibonacci numbers, the smaller first");
    }
    mpz_clears(a, b, p, NULL);
}

static double per_gcd(uint64_t x, const struct gcd_bulk_counts *c)
{
    return (double)x / (double)c->gcds;
}

/* The mean counts per GCD of uniform random pairs of `bits` bits, a markdown row a model; and
 * the floor of progress each model must make: bits a Lehmer step, bits a binary round. */
static void mean_counts(unsigned bits, unsigned pairs)
{
    struct gcd_bulk_counts counts[2] = {{0}, {0}};
    random_pairs(bits, 2 * pairs, counts);
    const char *names[2] = {"binary", "lehmer"};
    const double min_bits_per_iteration[2] = {1.0, 16.0};
    for (int m = 0; m < 2; m++) {
        const struct gcd_bulk_counts *c = &counts[m];
        const double it = per_gcd(c->iterations, c);
        printf("| %u | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f | %.0f | %.2f |\n", bits,
               names[m], it, per_gcd(c->word_madds, c), per_gcd(c->word_addsubs, c),
               per_gcd(c->word_shifts, c), per_gcd(c->word_reads, c), per_gcd(c->swaps, c),
               per_gcd(c->digit_quotients, c), per_gcd(c->trivial_steps, c));
        CHECK(c->gcds == pairs && it > 0 && 2.0 * bits / it >= min_bits_per_iteration[m],
              "%s at %u bits: %llu gcds counted (%u wanted), %.1f iterations a GCD", names[m],
              bits, (unsigned long long)c->gcds, pairs, it);
    }
}

int main(void)
{
    seed = test_seed();
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, (unsigned long)seed);
    const double t0 = test_seconds();
    const unsigned bits[] = {64, 96, 1024, 2048, 4096, 8192};
    const unsigned pairs[] = {4000, 4000, 400, 200, 60, 20};
    for (unsigned i = 0; i < 6; i++)
        random_pairs(bits[i], pairs[i], scratch_counts);
    const uint32_t q[3] = {4294967291u, 4294967279u, 4294967231u};
    gcd_cases(rng, 8192, 4, 50, q, check_case, NULL);
    edge_cases();
    printf("model counts per GCD, uniform random pairs (not measurements):\n"
           "| bits | model | iterations | word madds | word adds/subs | word shifts | words read "
           "| swaps | digit quotients | trivial steps |\n"
           "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    mean_counts(1024, 200);
    mean_counts(2048, 100);
    mean_counts(4096, 50);
    printf("%.1f s\n", test_seconds() - t0);
    gmp_randclear(rng);
    return test_finish("gcd_bulk_reference");
}
