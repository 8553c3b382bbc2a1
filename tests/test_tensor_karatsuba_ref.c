/* cpu suite: the reference twin of warp-tensor-karatsuba (cpu_ref/tensor_karatsuba_ref.h, issue
 * 39) against GMP's mpn_mul_n over the method's range (kernels/mul_registry.c: 257 .. 2048
 * words): the edges of each depth (257, 512 | 513, 1024 | 1025, 2048), sizes whose halves are
 * unequal, and random sizes, each on every operand pattern of tests/mul_operands.h (random,
 * all-ones words, zero, one, unequal lengths, carry ripple); at every depth every sign of the top
 * level's two differences (|A0 - A1| and |B1 - B0| negative, zero, positive), which picks whether
 * the middle product is added or subtracted. The shape is checked too: one level up to 512 words,
 * two up to 1024, three beyond, 3^depth tensor leaves, the largest of 129..256 words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul_gmp.h"
#include "mul_operands.h"
#include "tensor_karatsuba_ref.h"
#include "test_seed.h"
#include "warp_karatsuba_plan.h"

#define MAX_WORDS 2048u
#define RANDOM_SIZES 12

static uint32_t a[MAX_WORDS], b[MAX_WORDS], c[2 * MAX_WORDS + 1], expect[2 * MAX_WORDS];
static unsigned negative_mids;

static void check_pair(unsigned words, const char *what)
{
    gmp_mul_words(expect, a, b, words);
    memset(c, 0x5a, sizeof c);
    struct tk_ref_stats s;
    const int status = ref_mul_tensor_karatsuba(c, a, b, words, &s);
    CHECK(status == 0, "%u bits, %s: returned %d", 32 * words, what, status);
    CHECK(!memcmp(c, expect, 2 * words * sizeof *c), "%u bits, %s: != GMP", 32 * words, what);
    CHECK(c[2 * words] == 0x5a5a5a5au, "%u bits, %s: wrote past the product", 32 * words, what);
    const unsigned depth = words <= 512 ? 1 : words <= 1024 ? 2 : 3;
    const unsigned leaves = depth == 1 ? 3 : depth == 2 ? 9 : 27;
    CHECK(status != 0 || (s.depth == depth && s.leaves == leaves && s.largest_leaf > 128 &&
                          s.largest_leaf <= 256),
          "%u bits: %u levels, %u leaves, largest %u words; expected %u levels, %u leaves, "
          "129..256 words", 32 * words, s.depth, s.leaves, s.largest_leaf, depth, leaves);
    if (status == 0)
        negative_mids += s.negative_mids;
}

static void test_size(unsigned words)
{
    char what[96];
    for (size_t p = 0; p < N_PATTERNS; p++) {
        operands_fill(a, b, words, p, seed ^ words);
        check_pair(words, pattern_names[p]);
    }
    for (size_t k = 0; k < KARATSUBA_SIGN_CASES; k++) {
        operands_karatsuba_signs(a, b, words, wk_split_words(words), k, seed, what, sizeof what);
        check_pair(words, what);
    }
}

int main(void)
{
    seed = test_seed();
    /* Depth edges; 300 and 700 leave the high half shorter than the low one. */
    static const unsigned sizes[] = {257, 300, 384, 511, 512, 513, 700, 1000, 1024, 1025, 1500, 2048};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        test_size(sizes[i]);
    for (int i = 0; i < RANDOM_SIZES; i++) {
        uint32_t r;
        random_words(seed, 77 + i, &r, 1);
        test_size(257 + r % (MAX_WORDS - 256));
    }
    CHECK(negative_mids > 0, "no middle product was subtracted");
    CHECK(ref_mul_tensor_karatsuba(c, a, b, 256, NULL) == -1, "256 words accepted");
    CHECK(ref_mul_tensor_karatsuba(c, a, b, MAX_WORDS + 1, NULL) == -1, "2049 words accepted");
    return test_finish("test_tensor_karatsuba_ref");
}
