/* cpu suite: the reference twin of the comba-reg methods (cpu_ref/comba_threads_ref.h) against
 * GMP, for T = 1, 2, 4 and 8 threads a product at every multiple of T words up to 64 (the kernels
 * take those with N / T a multiple of 4; the shorter chunks of the others stress the carries),
 * summing one or two columns at a time (thread-comba-reg takes one, the others two): every operand
 * pattern of tests/mul_operands.h many times. Each thread must do exactly n^2 / T word products,
 * and no carry may leave the last chunk (the kernel drops it: the product fits in 2n words). Every
 * carry path must be reached: with two columns at a time, the second column's carry in
 * carrying out of its low 64 bits; chunk sums that carry at every T > 1; from T = 4, chunks that
 * generate a carry in the shift and lookahead carries into all-ones chunks (with two threads only
 * the high chunks sum two terms, and those need a chunk sum of exactly all ones, which these
 * operands do not give); and at every T, products where no chunk generated a carry, whose
 * lookahead the kernels skip. */
#include <stdio.h>
#include <string.h>

#include "comba_threads_ref.h"
#include "mul_gmp.h"
#include "mul_operands.h"
#include "test_seed.h"

struct reached {
    unsigned group_carries, chunk_carries, generated, propagated, skipped;
};

static void check_size(unsigned n, unsigned t, unsigned group, size_t products,
                       struct reached *r)
{
    uint32_t a[COMBA_THREADS_MAX_WORDS], b[COMBA_THREADS_MAX_WORDS];
    uint32_t c[2 * COMBA_THREADS_MAX_WORDS], expect[2 * COMBA_THREADS_MAX_WORDS];
    for (size_t p = 0; p < products; p++) {
        operands_fill(a, b, n, p, seed + n);
        struct comba_threads_stats st;
        memset(c, 0x5a, sizeof c);
        comba_threads_ref_mul(c, a, b, n, t, group, &st);
        gmp_mul_words(expect, a, b, n);
        unsigned good = 0;
        while (good < 2 * n && c[good] == expect[good])
            good++;
        CHECK(good == 2 * n, "T=%u G=%u n=%u product %zu (%s): first bad word %u", t, group,
              n, p, pattern_names[p % N_PATTERNS], good);
        for (unsigned h = 0; h < t; h++)
            CHECK(st.products[h] == n * n / t, "T=%u n=%u: thread %u did %u word products, "
                  "expected %u", t, n, h, st.products[h], n * n / t);
        CHECK(st.top_carry == 0, "T=%u n=%u product %zu (%s): a carry leaves the last chunk", t,
              n, p, pattern_names[p % N_PATTERNS]);
        r->group_carries += st.group_carries;
        r->chunk_carries += st.chunk_carries;
        r->generated += st.generated;
        r->propagated += st.propagated;
        r->skipped += st.lookahead_skipped;
    }
}

int main(void)
{
    seed = test_seed();
    for (unsigned t = 1; t <= COMBA_THREADS_MAX; t *= 2)
        for (unsigned group = 1; group <= COMBA_THREADS_MAX_GROUP; group++) {
            struct reached r = {0, 0, 0, 0, 0};
            for (unsigned n = t; n <= COMBA_THREADS_MAX_WORDS; n += t)
                check_size(n, t, group, 40 * N_PATTERNS, &r);
            printf("T=%u G=%u: carries out of a group's later columns %u, out of chunk sums %u, "
                   "generated %u, lookahead into all-ones %u, products without lookahead %u\n",
                   t, group, r.group_carries, r.chunk_carries, r.generated, r.propagated,
                   r.skipped);
            CHECK((group == 1 || r.group_carries > 0) && (t == 1 || r.chunk_carries > 0) &&
                      (t < 4 || (r.generated > 0 && r.propagated > 0)) && r.skipped > 0,
                  "T=%u G=%u: a carry path was never reached", t, group);
        }
    return test_finish("test_comba_threads_ref");
}
