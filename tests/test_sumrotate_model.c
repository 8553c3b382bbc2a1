/* cpu suite: the CPU model of sum-rotate multiplication (000 Algorithm 3) against GMP, on
 * seeded random, all-ones, zero and one operands (tests/mul_operands.h), at segment widths
 * below a warp, at the 1024-bit warp, and over 1024-bit blocks (padded sizes included). It
 * reports how many carry-loop iterations each size took and checks the bounds the kernel's
 * registers rely on: the loop never runs more than lanes - 1 iterations (000 section 3.3.1: "at
 * most w - 1 times"), u stays <= 2 after every row, and a block column's pending sum keeps its
 * high word below 2^8. All-ones operands take a single iteration; operands built for the
 * purpose (test_carry_loop_worst_case) take exactly lanes - 1, so the bound is tight. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul_gmp.h"
#include "mul_operands.h"
#include "sumrotate_model.h"
#include "test_seed.h"


/* Runs `products` operand pairs of every pattern at w words; prints the largest carry-loop
 * iteration count seen for random and for all-ones operands. */
static void test_size(unsigned w, size_t products)
{
    uint32_t *a = malloc(w * 4), *b = malloc(w * 4), *c = malloc(w * 8), *e = malloc(w * 8);
    unsigned max_iter[N_PATTERNS] = {0};
    unsigned lanes = 0;
    for (size_t p = 0; p < products; p++) {
        const enum operand_pattern pat = (enum operand_pattern)(p % N_PATTERNS);
        operands_fill(a, b, w, p, seed);
        struct sumrotate_model_stats st;
        memset(c, 0x5a, w * 8); /* a word the model never writes shows up */
        sumrotate_model_mul(c, a, b, w, &st);
        gmp_mul_words(e, a, b, w);
        unsigned bad = 0;
        while (bad < 2 * w && c[bad] == e[bad])
            bad++;
        CHECK(bad == 2 * w, "model != GMP at %u bits, product %zu (%s), first bad word %u",
              w * 32, p, pattern_names[pat], bad);
        CHECK(st.carry_iterations + 1 <= st.lanes,
              "%u carry-loop iterations on %u lanes at %u bits (%s)", st.carry_iterations,
              st.lanes, w * 32, pattern_names[pat]);
        CHECK(st.max_row_u <= 2, "u = %u after a row at %u bits (%s)", st.max_row_u, w * 32,
              pattern_names[pat]);
        CHECK(st.max_pending_u < 256, "pending high word %u at %u bits (%s)", st.max_pending_u,
              w * 32, pattern_names[pat]);
        if (st.carry_iterations > max_iter[pat])
            max_iter[pat] = st.carry_iterations;
        lanes = st.lanes;
    }
    printf("%6u bits, %2u lanes: carry-loop iterations, most seen: random %u, all-ones %u "
           "(bound %u)\n", w * 32, lanes, max_iter[PATTERN_RANDOM], max_iter[PATTERN_ALL_ONES],
           lanes - 1);
    free(a);
    free(b);
    free(c);
    free(e);
}

/* The operands that make the carry loop run its full lanes - 1 iterations, which shows the
 * paper's bound is tight and that the loop really ripples: with B = (2^32 - 1) beta^(L-1) only
 * the last row multiplies, lane i ends it holding hi(a_i b) + lo(a_{i+1} b) =
 * 2^32 - 1 + a_i - a_{i+1}, so A = (1, ..., 1, 2) (least significant word 2) leaves a carry in
 * lane 0 under a run of all-ones words that it crosses one lane per iteration. For w > 32 the
 * pattern sits in the top block (lower blocks zero), whose column is then a lone pass. */
static void test_carry_loop_worst_case(unsigned w)
{
    uint32_t *a = calloc(w, 4), *b = calloc(w, 4), *c = malloc(w * 8), *e = malloc(w * 8);
    const unsigned lanes = w < 32 ? w : 32, top = w - lanes;
    for (unsigned i = 0; i < lanes; i++)
        a[top + i] = i == 0 ? 2 : 1;
    b[w - 1] = 0xffffffffu;
    struct sumrotate_model_stats st;
    sumrotate_model_mul(c, a, b, w, &st);
    gmp_mul_words(e, a, b, w);
    CHECK(!memcmp(c, e, w * 8), "model != GMP at %u bits on the carry-loop worst case", w * 32);
    printf("%6u bits: carry-loop worst case took %u iterations on %u lanes\n", w * 32,
           st.carry_iterations, lanes);
    CHECK(st.carry_iterations == lanes - 1,
          "carry-loop worst case at %u bits: %u iterations, expected %u", w * 32,
          st.carry_iterations, lanes - 1);
    free(a);
    free(b);
    free(c);
    free(e);
}

int main(void)
{
    seed = test_seed();
    /* segments below a warp, the 1024-bit warp, block Comba with and without padding */
    const unsigned sizes[] = {2, 3, 5, 8, 16, 31, 32, 33, 64, 100, 128, 257, 2048};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        test_size(sizes[i], sizes[i] <= 128 ? 6 * 40 : sizes[i] <= 512 ? 6 * 4 : 6);
    for (unsigned w = 2; w <= 32; w++)
        test_size(w, 6 * 10);
    const unsigned worst[] = {2, 3, 7, 8, 31, 32, 64, 96, 2048};
    for (size_t i = 0; i < sizeof worst / sizeof worst[0]; i++)
        test_carry_loop_worst_case(worst[i]);
    return test_finish("test_sumrotate_model");
}
