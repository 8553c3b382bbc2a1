/* cpu suite: the reference twin of warp-tensor-toeplitz (cpu_ref/tensor_toeplitz_ref.h, issue
 * 13) against GMP's mpn_mul_n over the method's whole range (kernels/mul_registry.c: 2 .. 256
 * words; the twin also takes 1): every size once on random operands, then each padded size
 * (32, 64, 128, 256 words), a word either side of it and random sizes on every operand pattern
 * of tests/mul_operands.h (random, all-ones words, zero, one, unequal lengths, carry ripple) and
 * top-bit and alternating operands. The schedule's closed-form test of which tile products add
 * anything (tt_live) is checked against a count by brute force over every (row, column, k),
 * and the operands as a whole must reach the carry lookahead across lanes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul_gmp.h"
#include "mul_operands.h"
#include "tensor_toeplitz_plan.h"
#include "tensor_toeplitz_ref.h"
#include "test_seed.h"

#define MAX_WORDS TT_MAX_WORDS
#define RANDOM_SIZES 40

static uint32_t a[MAX_WORDS], b[MAX_WORDS], c[2 * MAX_WORDS + 1], expect[2 * MAX_WORDS];
static unsigned lane_carries;

static void check_pair(unsigned words, const char *what, struct tt_ref_stats *stats)
{
    gmp_mul_words(expect, a, b, words);
    memset(c, 0x5a, sizeof c);
    struct tt_ref_stats s;
    const int status = ref_mul_tensor_toeplitz(c, a, b, words, &s);
    CHECK(status == 0, "%u bits, %s: returned %d", 32 * words, what, status);
    CHECK(!memcmp(c, expect, 2 * words * sizeof *c), "%u bits, %s: != GMP", 32 * words, what);
    CHECK(c[2 * words] == 0x5a5a5a5au, "%u bits, %s: wrote past the product", 32 * words, what);
    if (status == 0) {
        lane_carries += s.lane_carries;
        if (stats)
            *stats = s;
    }
}

/* Tile products that add a nonzero term, by brute force: (t, j) such that some row m, column n
 * and k have both byte indices inside the padded operands. */
static unsigned live_by_brute_force(unsigned n_words)
{
    const int nb = 4 * (int)n_words;
    unsigned live = 0;
    for (int t = 0; t < tt_tiles(n_words); t++)
        for (int j = -8; j <= nb / 32 + 8; j++) {
            int found = 0;
            for (int m = 0; m < 16 && !found; m++)
                for (int n = 0; n < 8 && !found; n++)
                    for (int k = 0; k < 32 && !found; k++) {
                        const int i = 32 * j + 16 * n + k, f = 128 * t + m + 16 * n;
                        found = i >= 0 && i < nb && f - i >= 0 && f - i < nb;
                    }
            live += found;
        }
    return live;
}

static void test_size(unsigned words)
{
    struct tt_ref_stats s = {0, 0, 0, 0, 0};
    for (size_t p = 0; p < 3 * N_PATTERNS; p++) {
        operands_fill(a, b, words, p, seed ^ words);
        check_pair(words, pattern_names[p % N_PATTERNS], &s);
    }
    /* The largest column sum: all ones gives NB * 255^2 at the middle column. */
    memset(a, 0xff, words * sizeof *a);
    memset(b, 0xff, words * sizeof *b);
    check_pair(words, "all ones, the largest column", &s);
    CHECK(s.max_column == 4 * words * 255u * 255u, "%u bits: largest column %u, expected %u",
          32 * words, s.max_column, 4 * words * 255u * 255u);
    memset(a, 0, words * sizeof *a);
    a[words - 1] = 0x80000000u;
    memcpy(b, a, words * sizeof *b);
    check_pair(words, "top bit times top bit", NULL);
    memset(b, 0xff, words * sizeof *b);
    check_pair(words, "top bit times all ones", NULL);
    for (unsigned i = 0; i < words; i++) {
        a[i] = i % 2 ? 0xffffffffu : 0;
        b[i] = i % 2 ? 0 : 0xffffffffu;
    }
    check_pair(words, "alternating all-ones words", NULL);
}

int main(void)
{
    seed = test_seed();
    for (unsigned words = 1; words <= MAX_WORDS; words++) {
        random_words(seed, 3 * words, a, words);
        random_words(seed, 3 * words + 1, b, words);
        check_pair(words, "random, every size", NULL);
    }
    static const unsigned padded[] = {32, 64, 128, 256};
    for (size_t i = 0; i < 4; i++) {
        const unsigned n = padded[i];
        struct tt_ref_stats s;
        random_words(seed, 5, a, n);
        random_words(seed, 6, b, n);
        check_pair(n, "random, the schedule", &s);
        const unsigned live = live_by_brute_force(n);
        CHECK(s.padded_words == n && s.mmas == live && s.toeplitz == n / 8 + 1,
              "%u bits: padded to %u words, %u tile products, %u Toeplitz tiles; expected %u, "
              "%u, %u", 32 * n, s.padded_words, s.mmas, s.toeplitz, n, live, n / 8 + 1);
        printf("%u bits: %u m16n8k32 products (%u if none held a zero byte), %u Toeplitz tiles\n",
               32 * n, s.mmas, n * n / 256, s.toeplitz);
        test_size(n);
        test_size(n - 1);
        if (n < MAX_WORDS)
            test_size(n + 1);
    }
    for (int i = 0; i < RANDOM_SIZES; i++) {
        uint32_t r;
        random_words(seed, 77 + i, &r, 1);
        test_size(2 + r % (MAX_WORDS - 1));
    }
    CHECK(lane_carries > 0, "no carry crossed a lane in the lookahead");
    CHECK(ref_mul_tensor_toeplitz(c, a, b, 0, NULL) == -1, "0 words accepted");
    CHECK(ref_mul_tensor_toeplitz(c, a, b, MAX_WORDS + 1, NULL) == -1, "257 words accepted");
    return test_finish("test_tensor_toeplitz_ref");
}
