/* cpu suite: the Karatsuba recombination (issue 2, section 6). The reference twin of
 * thread-karatsuba / thread-karatsuba2, Karatsuba once and twice over School leaves, agrees
 * with GMP
 * - on every operand pattern (random, all ones, zero, one, unequal lengths) at several sizes;
 * - on every sign of the two half differences (x0 - x1 and y1 - y0 negative, zero, positive),
 *   which picks whether the middle product is added or subtracted;
 * and it refuses a size that is not a multiple of 2^depth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "karatsuba_ref.h"
#include "mul_gmp.h"
#include "mul_operands.h"
#include "test_seed.h"


static uint32_t *a, *b, *c, *expect;

static void check_one(unsigned words, unsigned depth, const char *what)
{
    gmp_mul_words(expect, a, b, words);
    memset(c, 0x5a, 2 * words * sizeof *c);
    int status = ref_mul_karatsuba(c, a, b, words, depth);
    CHECK(status == 0, "depth %u, %u bits, %s: returned %d", depth, words * 32, what, status);
    if (status == 0)
        CHECK(!memcmp(c, expect, 2 * words * sizeof *c), "depth %u, %u bits, %s: != GMP", depth,
              words * 32, what);
}

static void test_size(unsigned words, unsigned depth)
{
    for (size_t p = 0; p < 3 * N_PATTERNS; p++) {
        operands_fill(a, b, words, p, seed);
        check_one(words, depth, pattern_names[p % N_PATTERNS]);
    }
    char what[64];
    for (size_t k = 0; k < KARATSUBA_SIGN_CASES; k++) {
        operands_karatsuba_signs(a, b, words, words / 2, k, seed, what, sizeof what);
        check_one(words, depth, what);
    }
}

int main(void)
{
    seed = test_seed();
    const unsigned max_words = 2048;
    a = malloc(max_words * sizeof *a);
    b = malloc(max_words * sizeof *b);
    c = malloc(2 * max_words * sizeof *c);
    expect = malloc(2 * max_words * sizeof *expect);
    if (!a || !b || !c || !expect) {
        printf("FAIL: out of memory\n");
        return 1;
    }
    static const unsigned depth1_words[] = {2, 4, 6, 32, 34, 128, 1000, 2048};
    static const unsigned depth2_words[] = {4, 8, 12, 32, 36, 128, 1000, 2048};
    for (size_t i = 0; i < sizeof depth1_words / sizeof depth1_words[0]; i++)
        test_size(depth1_words[i], 1);
    for (size_t i = 0; i < sizeof depth2_words / sizeof depth2_words[0]; i++)
        test_size(depth2_words[i], 2);
    CHECK(ref_mul_karatsuba(c, a, b, 6, 2) == -1, "depth 2 accepted 6 words");
    CHECK(ref_mul_karatsuba(c, a, b, 3, 1) == -1, "depth 1 accepted 3 words");
    free(a);
    free(b);
    free(c);
    free(expect);
    return test_finish("test_karatsuba_ref");
}
