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
#include "gcd_bulk_cases.h"
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

/* The shared pairs' checker: ctx, the counts of the counted pairs. */
static void check_bulk_case(const mpz_t a, const mpz_t b, uint32_t width, const char *what,
                            bool counted, void *ctx)
{
    check_pair_in(a, b, width, what, counted ? ctx : scratch_counts);
}

static void random_pairs(unsigned bits, unsigned pairs, struct gcd_bulk_counts counts[2])
{
    gcd_bulk_random_pairs(rng, bits, pairs, check_bulk_case, counts);
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
    gcd_bulk_random_sizes(rng, 100, check_bulk_case, scratch_counts);
    const uint32_t q[3] = {4294967291u, 4294967279u, 4294967231u};
    gcd_cases(rng, 8192, 4, 50, q, check_case, NULL);
    gcd_bulk_edge_cases(rng, check_bulk_case, scratch_counts);
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
