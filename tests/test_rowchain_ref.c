/* cpu suite: the reference twin of thread-rowchain-karatsuba (cpu_ref/rowchain_karatsuba_ref.h)
 * against GMP's mpn_mul_n over the method's whole range (kernels/mul_registry.c: 2 .. 2048
 * words): every size once on random operands; then each size class, from one 1024-bit leaf up
 * to three device-memory levels over 8192-bit blocks, the sizes a word either side of each
 * class's end, and random sizes, on random operands and the worst cases: all-ones words, zero, one, top bit only,
 * unequal lengths, carry ripples, borrow ripples through every chunk of the first split, and
 * every sign of the first split's two half differences. Each size class's plan (levels in
 * device memory, levels in the block, leaves, the direct kernel or not) is checked against the table in main, and the
 * operands as a whole must reach the carry paths the kernels keep for rare cases: several rounds
 * of chunk carry resolution, and an in-block carry running past its segment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul_gmp.h"
#include "mul_operands.h"
#include "rowchain_karatsuba_ref.h"
#include "test_seed.h"

#define MIN_WORDS 2u
#define MAX_WORDS 2048u
#define RANDOM_SIZES 100
#define RANDOM_PAIRS 4

static uint32_t *a, *b, *c, *expect;
/* The rare paths reached so far. */
static unsigned most_chunk_rounds, run_ons;

static void check_pair(unsigned words, const char *what, struct rowchain_ref_stats *stats)
{
    gmp_mul_words(expect, a, b, words);
    memset(c, 0x5a, 2 * words * sizeof *c);
    struct rowchain_ref_stats s;
    const int status = ref_mul_rowchain_karatsuba(c, a, b, words, &s);
    CHECK(status == 0, "%u bits, %s: returned %d", 32 * words, what, status);
    if (status == 0 || status == -2)
        CHECK(!memcmp(c, expect, 2 * words * sizeof *c), "%u bits, %s: != GMP", 32 * words, what);
    if (status == 0) {
        if (s.chunk_rounds > most_chunk_rounds)
            most_chunk_rounds = s.chunk_rounds;
        run_ons += s.run_ons;
        *stats = s;
    }
}

/* Orders the halves of x at the first split (h words each, the high one from word h up to the
 * operand's words, zero above): -1 makes the high half larger, 0 equal (a copy of the low one),
 * +1 smaller. */
static void order_halves(uint32_t *x, unsigned words, unsigned h, int low_minus_high)
{
    const unsigned top = words - 1 - h; /* the high half's top word, counted within the half */
    if (low_minus_high == 0) {
        memset(x + top + 1, 0, (h - top - 1) * sizeof *x);
        memcpy(x + h, x, (top + 1) * sizeof *x);
    } else if (low_minus_high > 0) {
        x[h - 1] = 0xffffffffu;
        x[words - 1] = 0;
    } else {
        memset(x + top, 0, (h - top) * sizeof *x);
        x[words - 1] = 0xffffffffu;
    }
}

/* The half of the first Karatsuba split: the padded size 32 << t over 2, where 2^t leaves
 * cover the operand (16 words when one leaf does, the leaf's own split). */
static unsigned first_half(unsigned words)
{
    unsigned h = 16;
    while (2 * h < words)
        h *= 2;
    return h;
}

static void test_size(unsigned words, const struct rowchain_ref_stats *plan)
{
    struct rowchain_ref_stats s = {0, 0, 0, 0, 0, 0};
    char what[96];
    for (size_t p = 0; p < RANDOM_PAIRS * N_PATTERNS; p++) {
        operands_fill(a, b, words, p, seed ^ words);
        check_pair(words, pattern_names[p % N_PATTERNS], &s);
    }
    if (plan)
        CHECK(s.device_levels == plan->device_levels && s.block_levels == plan->block_levels &&
                  s.leaves == plan->leaves && s.direct == plan->direct,
              "%u bits: plan %u device levels, %u in the block, %u leaves, direct %u; expected "
              "%u, %u, %u, %u",
              32 * words, s.device_levels, s.block_levels, s.leaves, s.direct,
              plan->device_levels, plan->block_levels, plan->leaves, plan->direct);

    /* Top bit only, against itself and against all ones. */
    memset(a, 0, words * sizeof *a);
    a[words - 1] = 0x80000000u;
    memcpy(b, a, words * sizeof *b);
    check_pair(words, "top bit times top bit", &s);
    memset(b, 0xff, words * sizeof *b);
    check_pair(words, "top bit times all ones", &s);

    /* Words alternating all ones and zero: carries and borrows that stop and start. */
    for (unsigned i = 0; i < words; i++) {
        a[i] = i % 2 ? 0xffffffffu : 0;
        b[i] = i % 2 ? 0 : 0xffffffffu;
    }
    check_pair(words, "alternating all-ones words", &s);

    /* Borrow ripple through every chunk of the first split: low half X^(h-1), high half 1, so
     * |low - high| is all ones below word h - 1; and b the other way round. */
    const unsigned h = first_half(words);
    if (words > h) {
        memset(a, 0, words * sizeof *a);
        memset(b, 0, words * sizeof *b);
        a[h - 1] = a[h] = 1;
        b[0] = b[words - 1] = 1;
        check_pair(words, "borrow ripple through the first split", &s);
        memset(b, 0xff, words * sizeof *b);
        check_pair(words, "borrow ripple times all ones", &s);
    }

    /* Every sign of the first split's two half differences. */
    if (words > h)
        for (int sa = -1; sa <= 1; sa++)
            for (int sb = -1; sb <= 1; sb++) {
                random_words(seed, 1000 + 2 * words, a, words);
                random_words(seed, 1001 + 2 * words, b, words);
                order_halves(a, words, h, sa);
                order_halves(b, words, h, sb);
                snprintf(what, sizeof what, "sign(a_lo - a_hi) %d, sign(b_lo - b_hi) %d", sa, sb);
                check_pair(words, what, &s);
            }
}

int main(void)
{
    seed = test_seed();
    a = malloc(MAX_WORDS * sizeof *a);
    b = malloc(MAX_WORDS * sizeof *b);
    c = malloc(2 * MAX_WORDS * sizeof *c);
    expect = malloc(2 * MAX_WORDS * sizeof *expect);
    if (!a || !b || !c || !expect) {
        printf("FAIL: out of memory\n");
        return 1;
    }
    /* Every size the method takes, once, on random operands. */
    for (unsigned words = MIN_WORDS; words <= MAX_WORDS; words++) {
        struct rowchain_ref_stats s;
        random_words(seed, 3 * words, a, words);
        random_words(seed, 3 * words + 1, b, words);
        check_pair(words, "random, every size", &s);
    }
    /* The size classes and one word past each, with the plan the kernels run them with
     * (mul_rowchain_karatsuba.cu: 1024-bit leaves, up to 3 levels in one block, then one
     * device-memory level per doubling; exactly 1024 bits the direct kernel); then one word
     * short of each class, and random sizes. */
    static const struct {
        unsigned bits;
        struct rowchain_ref_stats plan;
    } classes[] = {
        {64, {0, 0, 1, 0, 0, 0}},       {96, {0, 0, 1, 0, 0, 0}},
        {992, {0, 0, 1, 0, 0, 0}},      {1024, {0, 0, 1, 0, 0, 1}},
        {1056, {0, 1, 3, 0, 0, 0}},     {2048, {0, 1, 3, 0, 0, 0}},
        {2080, {0, 2, 9, 0, 0, 0}},     {4096, {0, 2, 9, 0, 0, 0}},
        {4128, {0, 3, 27, 0, 0, 0}},    {8192, {0, 3, 27, 0, 0, 0}},
        {8224, {1, 3, 81, 0, 0, 0}},    {16384, {1, 3, 81, 0, 0, 0}},
        {16416, {2, 3, 243, 0, 0, 0}},  {32768, {2, 3, 243, 0, 0, 0}},
        {32800, {3, 3, 729, 0, 0, 0}},  {65536, {3, 3, 729, 0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        test_size(classes[i].bits / 32, &classes[i].plan);
    static const unsigned edges[] = {31, 63, 127, 255, 511, 1000, 1023, 2047};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        test_size(edges[i], NULL);
    for (int i = 0; i < RANDOM_SIZES; i++) {
        uint32_t r;
        random_words(seed, 77 + i, &r, 1);
        test_size(MIN_WORDS + r % (MAX_WORDS - MIN_WORDS + 1), NULL);
    }

    CHECK(most_chunk_rounds >= 3,
          "no split or join needed 3 rounds of chunk carry resolution (most %u)",
          most_chunk_rounds);
    CHECK(run_ons > 0, "no in-block recombination ran a carry past its segment");
    CHECK(ref_mul_rowchain_karatsuba(c, a, b, 0, NULL) == -1, "0 words accepted");
    CHECK(ref_mul_rowchain_karatsuba(c, a, b, (32u << 11) + 1, NULL) == -1,
          "9 device-memory levels accepted");
    free(a);
    free(b);
    free(c);
    free(expect);
    return test_finish("test_rowchain_ref");
}
