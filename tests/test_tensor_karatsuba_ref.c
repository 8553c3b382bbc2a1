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

/* Orders the top level's halves of x: -1 makes A1 larger than A0, 0 equal, +1 smaller. A0's
 * words from m up are cleared, so that both halves end at word m - 1 of theirs, which decides. */
static void order_halves(uint32_t *x, unsigned words, int low_minus_high)
{
    const unsigned h = wk_split_words(words), m = words - h;
    memset(x + m, 0, (h - m) * sizeof *x);
    if (low_minus_high == 0) {
        memcpy(x + h, x, m * sizeof *x);
        return;
    }
    x[m - 1] = low_minus_high > 0 ? 0xffffffffu : 0;
    x[words - 1] = low_minus_high > 0 ? 0 : 0xffffffffu;
}

static void test_size(unsigned words)
{
    char what[96];
    for (size_t p = 0; p < N_PATTERNS; p++) {
        operands_fill(a, b, words, p, seed ^ words);
        check_pair(words, pattern_names[p]);
    }
    for (int sa = -1; sa <= 1; sa++)
        for (int sb = -1; sb <= 1; sb++) {
            random_words(seed, 1000 + 2 * words, a, words);
            random_words(seed, 1001 + 2 * words, b, words);
            order_halves(a, words, sa);
            order_halves(b, words, -sb); /* the middle factor is B1 - B0 */
            snprintf(what, sizeof what, "sign(A0 - A1) %d, sign(B1 - B0) %d", sa, sb);
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
