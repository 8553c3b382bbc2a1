/* cpu suite: the reference twin of split-rowchain (cpu_ref/split_rowchain_ref.h) against GMP.
 *  - every operand pattern of tests/mul_operands.h (seeded random, all ones, zero, one, unequal
 *    lengths, all ones times random, carry ripple) at every padded size N = 8 .. 256 words and
 *    every thread count T the kernel's shape allows there (T | N / 2, T <= 32), full and padded
 *    (w < N); each thread must do exactly N^2 / T word products;
 *  - the registry's own shape (kernels/split_rowchain_shape.h) at every size 1 .. 128 words;
 *  - the carry resolution alone against a serial sum: random range words and spills, the same
 *    with random ranges all ones, and the worst case, a carry out of range 1 that crosses every
 *    all-ones range above it, which the lookahead must resolve in one step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul_gmp.h"
#include "mul_operands.h"
#include "random_words.h"
#include "split_rowchain_ref.h"
#include "split_rowchain_shape.h"
#include "test_seed.h"
#include "words_ref.h"

#define MAX_N 256u

static uint32_t a[MAX_N], b[MAX_N], c[2 * MAX_N], expect[2 * MAX_N];

/* Runs `products` pairs of w words, padded to n, on `threads` threads. */
static void check_size(unsigned w, unsigned n, unsigned threads, size_t products)
{
    unsigned ripple = 0;
    for (size_t p = 0; p < products; p++) {
        operands_fill(a, b, w, p, seed + n * 64 + threads);
        struct split_rowchain_stats st;
        memset(c, 0x5a, sizeof c);
        split_rowchain_ref_mul(c, a, b, w, n, threads, &st);
        gmp_mul_words(expect, a, b, w);
        unsigned bad = 0;
        while (bad < 2 * w && c[bad] == expect[bad])
            bad++;
        CHECK(bad == 2 * w, "w=%u n=%u T=%u product %zu (%s): first bad word %u", w, n, threads,
              p, pattern_names[p % N_PATTERNS], bad);
        CHECK(st.products_min == n * n / threads && st.products_max == n * n / threads,
              "n=%u T=%u: %u .. %u word products per thread, expected %u", n, threads,
              st.products_min, st.products_max, n * n / threads);
        if (st.longest_ripple > ripple)
            ripple = st.longest_ripple;
    }
    if (w == n)
        printf("n=%3u T=%2u: %zu products, longest carry ripple over all-ones ranges %u\n", n,
               threads, products, ripple);
}

/* c (2n words, ranges of R words) plus every spill[k] at range k + 1, serially. */
static void serial_sum(uint32_t *out, const uint32_t *ranges, const uint64_t *spill, unsigned n,
                       unsigned threads)
{
    const unsigned r = n / threads;
    uint32_t addend[2 * MAX_N];
    memcpy(out, ranges, 2 * n * sizeof *out);
    for (unsigned k = 0; k + 1 < 2 * threads; k++) {
        memset(addend, 0, sizeof addend);
        addend[(k + 1) * r] = (uint32_t)spill[k];
        addend[(k + 1) * r + 1] = (uint32_t)(spill[k] >> 32);
        ref_add_n(out, out, addend, 2 * n);
    }
}

static void check_resolve(unsigned n, unsigned threads, uint64_t stream)
{
    const unsigned r = n / threads, ranges = 2 * threads;
    uint32_t in[2 * MAX_N], want[2 * MAX_N];
    uint64_t spill[64];
    uint32_t s[128];
    random_words(seed, stream, s, 2 * ranges);
    random_words(seed, stream + 1, in, 2 * n);
    for (unsigned k = 0; k < ranges; k++) {
        spill[k] = k + 1 < ranges ? (uint64_t)s[2 * k + 1] << 32 | s[2 * k] : 0;
        if (stream % 2 && s[2 * k] % 3 == 0) /* some ranges all ones */
            memset(in + k * r, 0xff, r * sizeof *in);
    }
    serial_sum(want, in, spill, n, threads);
    memcpy(c, in, 2 * n * sizeof *c);
    struct split_rowchain_stats st;
    split_rowchain_ref_resolve(c, spill, n, threads, &st);
    CHECK(!memcmp(c, want, 2 * n * sizeof *c), "resolve n=%u T=%u stream %llu != serial sum", n,
          threads, (unsigned long long)stream);
}

/* Range 1 holds all ones and takes spill 1 from range 0, so it carries out; every range above
 * is all ones, so that carry crosses the 2T - 3 ranges 2 .. 2T - 2 into the top one, which
 * carries out of the product (the serial sum drops that carry as well). */
static void check_resolve_worst(unsigned n, unsigned threads)
{
    uint32_t in[2 * MAX_N], want[2 * MAX_N];
    uint64_t spill[64] = {1};
    memset(in, 0xff, 2 * n * sizeof *in);
    serial_sum(want, in, spill, n, threads);
    memcpy(c, in, 2 * n * sizeof *c);
    struct split_rowchain_stats st;
    split_rowchain_ref_resolve(c, spill, n, threads, &st);
    CHECK(!memcmp(c, want, 2 * n * sizeof *c), "resolve worst case n=%u T=%u != serial sum", n,
          threads);
    CHECK(st.longest_ripple == 2 * threads - 3,
          "resolve worst case n=%u T=%u: the carry crossed %u ranges, expected %u", n, threads,
          st.longest_ripple, 2 * threads - 3);
}

int main(void)
{
    seed = test_seed();
    for (unsigned n = 8; n <= MAX_N; n *= 2)
        for (unsigned threads = 2; threads <= 32 && n / threads >= 2; threads *= 2) {
            const size_t products = n <= 64 ? 6 * N_PATTERNS : 2 * N_PATTERNS;
            check_size(n, n, threads, products);
            check_size(n / 2 + 1, n, threads, N_PATTERNS);
            check_size(1 + (unsigned)(splitmix64(seed + n + threads) % n), n, threads,
                       N_PATTERNS);
            for (uint64_t s = 0; s < 20; s++)
                check_resolve(n, threads, 2 * s + (s & 1));
            check_resolve_worst(n, threads);
        }
    for (unsigned w = 1; w <= SPLIT_ROWCHAIN_MAX_WORDS; w++) {
        const unsigned n = SPLIT_ROWCHAIN_PADDED_WORDS(w);
        check_size(w, n, SPLIT_ROWCHAIN_THREADS(n), N_PATTERNS);
    }
    return test_finish("test_split_rowchain_ref");
}
