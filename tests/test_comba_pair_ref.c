/* cpu suite: the reference twin of pair-comba-reg[-shared] (cpu_ref/comba_pair_ref.h) against
 * GMP, at every size the kernels take (8 .. 32 words in steps of 8) and at the small even sizes
 * 2 .. 6 whose halves are shortest: every operand pattern of tests/mul_operands.h many times.
 * Each thread must do exactly n^2 / 2 word products, and the high thread's sum must not carry
 * out (the kernel drops that carry: the product fits in 2n words). */
#include <stdio.h>
#include <string.h>

#include "comba_pair_ref.h"
#include "mul_gmp.h"
#include "mul_operands.h"
#include "test_seed.h"

static void check_size(unsigned n, size_t products)
{
    uint32_t a[COMBA_PAIR_MAX_WORDS], b[COMBA_PAIR_MAX_WORDS];
    uint32_t c[2 * COMBA_PAIR_MAX_WORDS], expect[2 * COMBA_PAIR_MAX_WORDS];
    unsigned carries = 0;
    for (size_t p = 0; p < products; p++) {
        operands_fill(a, b, n, p, seed + n);
        struct comba_pair_stats st;
        memset(c, 0x5a, sizeof c);
        comba_pair_ref_mul(c, a, b, n, &st);
        gmp_mul_words(expect, a, b, n);
        unsigned good = 0;
        while (good < 2 * n && c[good] == expect[good])
            good++;
        CHECK(good == 2 * n, "n=%u product %zu (%s): first bad word %u", n, p,
              pattern_names[p % N_PATTERNS], good);
        CHECK(st.products[0] == n * n / 2 && st.products[1] == n * n / 2,
              "n=%u: %u and %u word products, expected %u each", n, st.products[0],
              st.products[1], n * n / 2);
        CHECK(st.carry_out[1] == 0, "n=%u product %zu (%s): the high thread carries out", n, p,
              pattern_names[p % N_PATTERNS]);
        carries += st.carry_out[0];
    }
    printf("n=%2u: %zu products, %u with a carry from the low thread to the high one\n", n,
           products, carries);
    /* all-ones operands carry between the halves: the carry in is reached */
    CHECK(carries > 0, "n=%u: no product carried from the low thread to the high one", n);
}

int main(void)
{
    seed = test_seed();
    for (unsigned n = 2; n <= COMBA_PAIR_MAX_WORDS; n += n < 8 ? 2 : 8)
        check_size(n, 70 * N_PATTERNS);
    return test_finish("test_comba_pair_ref");
}
