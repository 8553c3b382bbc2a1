/* cpu suite: the GMP baseline and the verifier that every GPU result goes through.
 * - the school reference twin agrees with GMP on every operand pattern and size;
 * - gmp_batch (the timed baseline, 1 and several threads) agrees with gmp_mul_words;
 * - mul_verify finds a planted wrong word and names its index, in full and sample mode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul_gmp.h"
#include "mul_operands.h"
#include "mul_school_ref.h"
#include "test_seed.h"


static void test_reference_vs_gmp(unsigned words)
{
    uint32_t *a = malloc(words * 4), *b = malloc(words * 4);
    uint32_t *c1 = malloc(words * 8), *c2 = malloc(words * 8);
    for (size_t p = 0; p < 3 * N_PATTERNS; p++) {
        operands_fill(a, b, words, p, seed);
        ref_mul_school(c1, a, words, b, words);
        gmp_mul_words(c2, a, b, words);
        CHECK(!memcmp(c1, c2, words * 8), "school reference != GMP at %u bits, pattern %s",
              words * 32, pattern_names[p % N_PATTERNS]);
    }
    /* unequal operand lengths through the reference itself */
    unsigned wb = words / 2 + 1;
    random_words(seed, 99, a, words);
    random_words(seed, 98, b, wb);
    ref_mul_school(c1, a, words, b, wb);
    memset(b + wb, 0, (words - wb) * 4);
    gmp_mul_words(c2, a, b, words);
    CHECK(!memcmp(c1, c2, (words + wb) * 4), "unequal lengths %u x %u words", words, wb);
    CHECK(c2[words + wb] == 0 || words + wb == 2 * words, "high words of an unequal product");
    free(a);
    free(b);
    free(c1);
    free(c2);
}

static void test_batch_and_verify(unsigned words, size_t count, int threads)
{
    uint32_t *a = malloc(count * words * 4), *b = malloc(count * words * 4);
    uint32_t *c = malloc(count * words * 8), *e = malloc(words * 8);
    for (size_t p = 0; p < count; p++)
        operands_fill(a + p * words, b + p * words, words, p, seed);
    struct gmp_batch g;
    CHECK(gmp_batch_init(&g, words, count, a, b) == 0, "gmp_batch_init");
    gmp_batch_multiply(&g, threads);
    for (size_t p = 0; p < count; p++) {
        gmp_batch_product_words(&g, p, c + p * 2 * words);
        gmp_mul_words(e, a + p * words, b + p * words, words);
        CHECK(!memcmp(e, c + p * 2 * words, words * 8), "batch product %zu at %u bits, %d threads",
              p, words * 32, threads);
    }
    gmp_batch_free(&g);

    uint64_t checked;
    size_t first;
    CHECK(mul_verify(words, count, a, b, c, 1, threads, &checked, &first) == 0 && first == count &&
              checked == count, "clean verify reported a mismatch");
    size_t planted = count / 2 + 1;
    c[planted * 2 * words + words - 1] ^= 0x10;
    c[(count - 1) * 2 * words] ^= 1;
    uint64_t bad = mul_verify(words, count, a, b, c, 1, threads, &checked, &first);
    CHECK(bad == 2 && first == planted, "verify all: %llu bad, first %zu, planted %zu",
          (unsigned long long)bad, first, planted);
    /* sample mode always includes the last product */
    bad = mul_verify(words, count, a, b, c, 7, threads, &checked, &first);
    CHECK(bad >= 1 && checked == (count + 6) / 7 + ((count - 1) % 7 != 0),
          "verify sample: %llu bad, %llu checked", (unsigned long long)bad,
          (unsigned long long)checked);
    free(a);
    free(b);
    free(c);
    free(e);
}

int main(void)
{
    seed = test_seed();
    unsigned sizes[] = {2, 3, 5, 32, 33, 64, 127, 128, 1000, 2048};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        test_reference_vs_gmp(sizes[i]);
    test_batch_and_verify(3, 101, 1);
    test_batch_and_verify(32, 257, 4);
    test_batch_and_verify(129, 50, 2);
    printf("%s: %d failure(s), seed %llu\n", failures ? "FAILED" : "passed", failures,
           (unsigned long long)seed);
    return failures != 0;
}
