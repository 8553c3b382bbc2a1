/* cpu suite: the references every GPU product is judged by, each against computations that do
 * not share its code.
 * - The oracle: mpz_mul on operands brought in by mpz_import, and, with no GMP at all, the
 *   residues modulo the prime 2^61 - 1: (A mod q)(B mod q) = C (mod q) for every product below.
 * - ref_mul_school (the School twin of the GPU methods) and gmp_mul_words (what the verifier and
 *   the tests compare GPU products with) agree with the oracle on every operand pattern of
 *   tests/mul_operands.h, seeded random and the worst cases, at sizes around their edges, and
 *   write no word past the product; the school reference also on unequal lengths.
 * - gmp_batch (the timed GMP baseline, one and several threads) agrees with the oracle.
 * Which products a run checks, and how a mismatch is named, is the run loop's (test_bench_check). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul_gmp.h"
#include "mul_operands.h"
#include "mul_school_ref.h"
#include "test_seed.h"

/* Words past a product that nothing may write. */
#define CANARY_WORDS 4
#define CANARY 0xc0ffee11u

/* out[0 .. wa + wb) = a * b through mpz, a route into GMP that shares nothing with
 * gmp_mul_words' limb packing or mpn_mul_n's equal-length operands. */
static void oracle_mul(uint32_t *out, const uint32_t *a, unsigned wa, const uint32_t *b,
                       unsigned wb)
{
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    mpz_import(x, wa, -1, sizeof *a, 0, 0, a);
    mpz_import(y, wb, -1, sizeof *b, 0, 0, b);
    mpz_mul(x, x, y);
    memset(out, 0, (wa + wb) * sizeof *out);
    mpz_export(out, NULL, -1, sizeof *out, 0, 0, x); /* at most wa + wb words: |a b| < beta^(wa+wb) */
    mpz_clears(x, y, NULL);
}

/* x mod (2^61 - 1), by Horner's rule from the most significant word. */
static uint64_t mod_m61(const uint32_t *x, unsigned words)
{
    const uint64_t q = (UINT64_C(1) << 61) - 1;
    uint64_t r = 0;
    for (unsigned i = words; i-- > 0;)
        r = (uint64_t)((((unsigned __int128)r << 32) + x[i]) % q);
    return r;
}

static bool residues_agree(const uint32_t *c, const uint32_t *a, unsigned wa, const uint32_t *b,
                           unsigned wb)
{
    const uint64_t q = (UINT64_C(1) << 61) - 1;
    return mod_m61(c, wa + wb) == (uint64_t)((unsigned __int128)mod_m61(a, wa) * mod_m61(b, wb) % q);
}

/* Index of the first word where x and y differ, or n. */
static unsigned first_diff(const uint32_t *x, const uint32_t *y, unsigned n)
{
    unsigned i = 0;
    while (i < n && x[i] == y[i])
        i++;
    return i;
}

static bool canary_intact(const uint32_t *c, unsigned product_words)
{
    for (unsigned i = 0; i < CANARY_WORDS; i++)
        if (c[product_words + i] != CANARY)
            return false;
    return true;
}

/* Equal lengths: every operand pattern three times (fresh random words each time). */
static void test_equal(unsigned words)
{
    const unsigned n = 2 * words;
    uint32_t *a = malloc(words * 4), *b = malloc(words * 4), *want = malloc(n * 4);
    uint32_t *school = malloc((n + CANARY_WORDS) * 4), *gmp = malloc((n + CANARY_WORDS) * 4);
    for (size_t p = 0; p < 3 * N_PATTERNS; p++) {
        const char *pat = pattern_names[p % N_PATTERNS];
        operands_fill(a, b, words, p, seed);
        oracle_mul(want, a, words, b, words);
        CHECK(residues_agree(want, a, words, b, words), "mpz product mod 2^61 - 1 at %u bits, %s",
              words * 32, pat);
        for (unsigned i = 0; i < n + CANARY_WORDS; i++)
            school[i] = gmp[i] = CANARY;
        ref_mul_school(school, a, words, b, words);
        gmp_mul_words(gmp, a, b, words);
        CHECK(!memcmp(school, want, n * 4), "school reference at %u bits, %s: first bad word %u",
              words * 32, pat, first_diff(school, want, n));
        CHECK(!memcmp(gmp, want, n * 4), "gmp_mul_words at %u bits, %s: first bad word %u",
              words * 32, pat, first_diff(gmp, want, n));
        CHECK(canary_intact(school, n) && canary_intact(gmp, n),
              "a word past the %u-word product was written at %u bits, %s", n, words * 32, pat);
    }
    free(a);
    free(b);
    free(want);
    free(school);
    free(gmp);
}

/* Unequal lengths through the school reference, random and all-ones operands. */
static void test_unequal(unsigned wa, unsigned wb)
{
    const unsigned n = wa + wb;
    uint32_t *a = malloc(wa * 4), *b = malloc(wb * 4), *want = malloc(n * 4);
    uint32_t *c = malloc((n + CANARY_WORDS) * 4);
    for (int ones = 0; ones < 2; ones++) {
        random_words(seed, 1000 + 2 * (uint64_t)wa, a, wa);
        random_words(seed, 1001 + 2 * (uint64_t)wb, b, wb);
        if (ones) {
            memset(a, 0xff, wa * 4);
            memset(b, 0xff, wb * 4);
        }
        oracle_mul(want, a, wa, b, wb);
        for (unsigned i = 0; i < n + CANARY_WORDS; i++)
            c[i] = CANARY;
        ref_mul_school(c, a, wa, b, wb);
        CHECK(!memcmp(c, want, n * 4) && residues_agree(c, a, wa, b, wb),
              "school reference, %u x %u words, %s: first bad word %u", wa, wb,
              ones ? "all ones" : "random", first_diff(c, want, n));
        CHECK(canary_intact(c, n), "school reference, %u x %u words, wrote past the product", wa,
              wb);
    }
    free(a);
    free(b);
    free(want);
    free(c);
}

/* The timed GMP baseline and the verifier, on `count` products of every pattern. */
static void test_batch_and_verify(unsigned words, size_t count, int threads)
{
    const size_t n = 2 * (size_t)words;
    uint32_t *a = malloc(count * words * 4), *b = malloc(count * words * 4);
    uint32_t *c = malloc(count * n * 4), *want = malloc(n * 4);
    for (size_t p = 0; p < count; p++)
        operands_fill(a + p * words, b + p * words, words, p, seed);
    struct gmp_batch g;
    if (gmp_batch_init(&g, words, count, a, b, NULL) != 0) {
        CHECK(0, "gmp_batch_init: out of memory at %u bits x %zu", words * 32, count);
        goto out;
    }
    gmp_batch_multiply(&g, threads, NULL);
    size_t bad = 0, first = count;
    for (size_t p = 0; p < count; p++) {
        gmp_batch_product_words(&g, p, c + p * n);
        oracle_mul(want, a + p * words, words, b + p * words, words);
        if (memcmp(want, c + p * n, n * 4) != 0 && bad++ == 0)
            first = p;
    }
    gmp_batch_free(&g);
    CHECK(bad == 0, "gmp_batch at %u bits, %d threads: %zu of %zu products differ from mpz, "
          "first %zu (%s)", words * 32, threads, bad, count, first,
          first < count ? pattern_names[first % N_PATTERNS] : "-");

out:
    free(a);
    free(b);
    free(c);
    free(want);
}

int main(void)
{
    seed = test_seed();
    /* odd sizes (half a GMP limb), the 1024-bit warp, gmp_mul_words' stack/heap edge at 256
     * words, and the largest GPU size */
    static const unsigned sizes[] = {1, 2, 3, 5, 31, 32, 33, 64, 127, 128, 255, 256, 257, 1000, 2048};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        test_equal(sizes[i]);
    static const unsigned unequal[][2] = {{1, 1},   {1, 7},   {7, 1},    {2, 3},     {33, 17},
                                          {17, 33}, {2048, 1}, {1, 2048}, {1000, 513}, {64, 2048}};
    for (size_t i = 0; i < sizeof unequal / sizeof unequal[0]; i++)
        test_unequal(unequal[i][0], unequal[i][1]);
    /* counts above 64 (the verifier's schedule chunk) times the threads */
    test_batch_and_verify(3, 101, 1);
    test_batch_and_verify(32, 1000, 4);
    test_batch_and_verify(129, 300, 2);
    test_batch_and_verify(257, 400, 3);
    return test_finish("test_mul_cpu");
}
