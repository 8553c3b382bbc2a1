/* cpu suite: the CPU twin of the Lehmer GCD kernel (kernels/gcd_lehmer.h,
 * cpu_ref/gcd_lehmer_ref.c; beyond 002).
 * - gcd_lehmer_plan on seeded random pairs of 96 to 65536 bits, the lengths equal and apart by
 *   up to 40 bits: a PAIR step's matrix has determinant +-1 and cofactors below 2^31, both
 *   numbers it makes (formed with GMP from the step's cofactors) are at least 0 and have the GCD
 *   of the pair, and they are shorter by at least 28 bits on average (lengths 32 or more apart
 *   make SHIFT steps); a SHIFT or ONE step leaves A - q (B << s) in [0, A);
 * - the block's word arithmetic (gcd_lehmer_apply) against GMP on crafted steps: a borrow that
 *   ripples through every chunk (A = 2^(32 m), B = 1), a ONE step gone below 0 (the negation),
 *   PAIR steps with multipliers up to 2^31 - 1 on words of all ones (sums near 2^63) and
 *   random words, with chunks of 2, 3 and 5 words, and their ripple rounds and negations
 *   counted; a PAIR step with a multiplier of 2^31 refused;
 * - the twin against mpz_gcd on issue 10's cases (tests/gcd_cases.h) up to 8192 bits with the
 *   kernel's chunk size and with chunks of 2 and 3 words (many chunks: phase 2 and the ripples
 *   between them), and random pairs of 64 Kibit, with its statistics (quotients a PAIR step,
 *   bits a step) printed and bounded;
 * - gcd_lehmer_shape for every size up to 40000 words: chunks of an odd number of words, at
 *   least 2 and no more than needed, at most 768 threads in whole warps, room for one word
 *   more than U. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "gcd_cases.h"
#include "gcd_lehmer.h"
#include "gcd_lehmer_ref.h"
#include "test_seed.h"

static gmp_randstate_t rng;

/* Words of x, least significant first, in a zeroed array of `n` words. */
static uint32_t *words_of(const mpz_t x, uint32_t n)
{
    uint32_t *w = calloc(n, sizeof *w);
    if (!w)
        abort();
    mpz_export(w, NULL, -1, sizeof *w, 0, 0, x);
    return w;
}

static uint32_t word_count(const mpz_t x)
{
    return mpz_sgn(x) ? (uint32_t)((mpz_sizeinbase(x, 2) + 31) / 32) : 0;
}

/* r = m_pos X - m_neg Y with the operands as the step's odd flag puts them. */
static void combine(mpz_t r, uint32_t u, uint32_t v, uint32_t odd, const mpz_t a, const mpz_t b)
{
    mpz_t t;
    mpz_init(t);
    mpz_mul_ui(r, odd ? b : a, odd ? v : u);
    mpz_mul_ui(t, odd ? a : b, odd ? u : v);
    mpz_sub(r, r, t);
    mpz_clear(t);
}

/* One planned step on (a, b), a >= b, checked with GMP; adds the bits it took off A to *gain. */
static void check_plan(const mpz_t a, const mpz_t b, double *gain, unsigned *pairs)
{
    const uint32_t na = word_count(a), nb = word_count(b);
    uint32_t *x = words_of(a, na + 1), *y = words_of(b, na + 1);
    struct gcd_lehmer_step st;
    bool swap;
    gcd_lehmer_plan(&st, y, nb, x, na, &swap);
    CHECK(swap || mpz_cmp(a, b) == 0, "plan: the larger number not taken as A");
    mpz_t r, s, g0, g1, t;
    mpz_inits(r, s, g0, g1, t, NULL);
    mpz_gcd(g0, a, b);
    if (st.kind == GCD_LEHMER_PAIR) {
        combine(r, st.ua, st.va, st.odd_a, a, b);
        combine(s, st.ub, st.vb, st.odd_b, a, b);
        const int64_t det = (int64_t)st.ua * st.vb - (int64_t)st.va * st.ub;
        CHECK(det == 1 || det == -1, "PAIR: determinant %lld", (long long)det);
        CHECK(!((st.ua | st.va | st.ub | st.vb) >> 31), "PAIR: a cofactor of 2^31 or more");
        CHECK(st.odd_a != st.odd_b && st.quotients >= 1, "PAIR: rows %u %u, %u quotients",
              st.odd_a, st.odd_b, st.quotients);
        CHECK(mpz_sgn(r) >= 0 && mpz_sgn(s) >= 0, "PAIR: a number below 0 (%zu bits)",
              mpz_sizeinbase(a, 2));
        mpz_gcd(g1, r, s);
        CHECK(mpz_cmp(g0, g1) == 0, "PAIR: the GCD changed");
        *gain += (double)mpz_sizeinbase(a, 2) - (double)mpz_sizeinbase(r, 2);
        ++*pairs;
    } else if (st.kind == GCD_LEHMER_SHIFT || st.kind == GCD_LEHMER_ONE) {
        mpz_mul_2exp(t, b, st.shift);
        mpz_mul_ui(t, t, st.va);
        mpz_sub(r, a, t);
        if (st.kind == GCD_LEHMER_ONE)
            mpz_abs(r, r);
        CHECK(mpz_sgn(r) >= 0 && mpz_cmp(r, a) < 0, "%s: A - q (B << %u) out of [0, A)",
              st.kind == GCD_LEHMER_SHIFT ? "SHIFT" : "ONE", st.shift);
        mpz_gcd(g1, r, b);
        CHECK(mpz_cmp(g0, g1) == 0, "SHIFT/ONE: the GCD changed");
    } else {
        CHECK(mpz_sizeinbase(a, 2) <= 64 || mpz_sgn(b) == 0, "DONE on %zu-bit numbers",
              mpz_sizeinbase(a, 2));
    }
    mpz_clears(r, s, g0, g1, t, NULL);
    free(x);
    free(y);
}

static void check_plans(void)
{
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    for (unsigned bits = 96; bits <= 65536; bits *= 2) {
        double gain = 0;
        unsigned pairs = 0;
        for (int i = 0; i < 200; i++) {
            gcd_case_bits(a, rng, bits);
            gcd_case_bits(b, rng, bits - (unsigned)gmp_urandomm_ui(rng, 41));
            if (mpz_cmp(a, b) < 0)
                mpz_swap(a, b);
            check_plan(a, b, &gain, &pairs);
        }
        CHECK(pairs > 120 && gain / pairs >= 28, "%u bits: %u PAIR steps of 200, %.1f bits each",
              bits, pairs, pairs ? gain / pairs : 0);
        printf("plan %6u bits: %u PAIR steps of 200, %.1f bits off A a step\n", bits, pairs,
               pairs ? gain / pairs : 0);
    }
    mpz_clears(a, b, NULL);
}

/* One crafted step through the block's arithmetic against GMP. */
static void check_apply(const struct gcd_lehmer_step *st, const mpz_t a, const mpz_t b,
                        uint32_t chunk, const char *what, uint64_t min_rounds, uint64_t negations)
{
    const uint32_t na = word_count(a), nb = word_count(b);
    uint32_t *x = words_of(a, na + 1), *y = words_of(b, na + 1);
    int64_t *scratch = calloc(4 * (size_t)(na + 1), sizeof *scratch);
    struct gcd_lehmer_stats stats = {0};
    const bool ok = gcd_lehmer_apply(st, x, y, na + 1, nb, chunk, scratch, &stats);
    mpz_t r, t, got;
    mpz_inits(r, t, got, NULL);
    mpz_mul_2exp(t, b, st->shift);
    mpz_mul_ui(t, t, st->va);
    mpz_sub(r, a, t);
    mpz_abs(r, r);
    mpz_import(got, na + 1, -1, sizeof *x, 0, 0, x);
    CHECK(ok && mpz_cmp(got, r) == 0, "%s, chunks of %u: wrong result", what, chunk);
    CHECK(stats.ripple_rounds >= min_rounds && stats.negations == negations,
          "%s, chunks of %u: %llu ripple rounds (at least %llu), %llu negations (%llu)", what,
          chunk, (unsigned long long)stats.ripple_rounds, (unsigned long long)min_rounds,
          (unsigned long long)stats.negations, (unsigned long long)negations);
    mpz_clears(r, t, got, NULL);
    free(x);
    free(y);
    free(scratch);
}

/* A crafted PAIR step (A' = ua A - va B, B' = vb B - ub A) through the block's arithmetic
 * against GMP, with multipliers up to 2^31 - 1, the most a PAIR step may have. */
static void check_apply_pair(uint32_t ua, uint32_t va, uint32_t ub, uint32_t vb, const mpz_t a,
                             const mpz_t b, uint32_t chunk, const char *what)
{
    const struct gcd_lehmer_step st = {.kind = GCD_LEHMER_PAIR, .ua = ua, .va = va, .ub = ub,
                                       .vb = vb, .odd_a = 0, .odd_b = 1, .quotients = 1};
    const uint32_t na = word_count(a), nb = word_count(b);
    uint32_t *x = words_of(a, na + 1), *y = words_of(b, na + 1);
    int64_t *scratch = calloc(4 * (size_t)(na + 1), sizeof *scratch);
    struct gcd_lehmer_stats stats = {0};
    const bool ok = gcd_lehmer_apply(&st, x, y, na + 1, nb, chunk, scratch, &stats);
    mpz_t r, s, got_a, got_b;
    mpz_inits(r, s, got_a, got_b, NULL);
    combine(r, ua, va, 0, a, b);
    combine(s, ub, vb, 1, a, b);
    mpz_import(got_a, na + 1, -1, sizeof *x, 0, 0, x);
    mpz_import(got_b, na + 1, -1, sizeof *y, 0, 0, y);
    CHECK(ok && mpz_cmp(got_a, r) == 0 && mpz_cmp(got_b, s) == 0,
          "PAIR %s, chunks of %u: %s", what, chunk, ok ? "wrong result" : "refused");
    mpz_clears(r, s, got_a, got_b, NULL);
    free(x);
    free(y);
    free(scratch);
}

static void check_block_arithmetic(void)
{
    const uint32_t chunks[] = {2, 3, 5};
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    for (int c = 0; c < 3; c++) {
        const uint32_t k = chunks[c], m = 40;
        struct gcd_lehmer_step st = {.kind = GCD_LEHMER_ONE, .ua = 1, .va = 1};
        mpz_set_ui(a, 0);
        mpz_setbit(a, 32 * m);
        mpz_set_ui(b, 1);
        /* 2^(32 m) - 1: chunk 0's borrow runs through every chunk, one a round. */
        check_apply(&st, a, b, k, "borrow through every chunk", (m + 1) / k - 1, 0);
        mpz_add_ui(b, a, 7);
        mpz_add_ui(a, a, 5);
        check_apply(&st, a, b, k, "ONE below 0", 0, 1);
        st.va = 3;
        gcd_case_bits(a, rng, 32 * m);
        gcd_case_bits(b, rng, 32 * m);
        check_apply(&st, a, b, k, "ONE below 0, random words", 0, 1);
        st.kind = GCD_LEHMER_SHIFT;
        st.shift = 37;
        st.va = 0x9e3779b9u;
        gcd_case_bits(b, rng, 32 * m - 80);
        check_apply(&st, a, b, k, "SHIFT", 0, 0);
        /* The largest products a PAIR step makes: multipliers 2^31 - 1 and 2^31 - 2 on words
         * of all ones (sums near 2^63), then on random words; the operands are chosen so that
         * both results stay at least 0. */
        const uint32_t big = 0x7fffffffu;
        mpz_set_ui(a, 0);
        mpz_setbit(a, 32 * m);
        mpz_sub_ui(a, a, 1);
        check_apply_pair(big, big - 1, big - 1, big, a, a, k, "all ones");
        mpz_set_ui(b, 1);
        check_apply_pair(big, 1, 0, 1, a, b, k, "(2^31 - 1) A - 1, A all ones");
        gcd_case_bits(b, rng, 32 * m);
        check_apply_pair(big, big - 1, big - 1, big, b, b, k, "random words");
        mpz_add_ui(a, b, 1);
        check_apply_pair(big, big - 1, big - 1, big, a, b, k, "A = B + 1");
        check_apply_pair(1, 0, big - 1, big, a, b, k, "A' = A, B' = B - (2^31 - 2)");
    }
    /* A multiplier of 2^31 is past the signed sums' range: refused as a broken step. */
    const struct gcd_lehmer_step wide = {.kind = GCD_LEHMER_PAIR, .ua = 0x80000000u, .va = 1,
                                         .ub = 0x7fffffffu, .vb = 1, .odd_b = 1, .quotients = 1};
    uint32_t x[4] = {5, 6, 7, 0}, y[4] = {1, 2, 3, 0};
    int64_t scratch[16] = {0};
    struct gcd_lehmer_stats stats = {0};
    CHECK(!gcd_lehmer_apply(&wide, x, y, 4, 3, 2, scratch, &stats),
          "PAIR with a multiplier of 2^31: not refused");
    mpz_clears(a, b, NULL);
}

struct twin_ctx {
    uint32_t chunk; /* 0: the kernel's shape */
    struct gcd_lehmer_stats stats;
};

static void twin_case(void *p, const mpz_t a, const mpz_t b, const char *what)
{
    struct twin_ctx *ctx = p;
    mpz_t g, e;
    mpz_inits(g, e, NULL);
    mpz_gcd(e, a, b);
    const bool ok = gcd_lehmer_ref(g, a, b, ctx->chunk, &ctx->stats);
    CHECK(ok && mpz_cmp(g, e) == 0, "twin, %s (%zu and %zu bits), chunks of %u: %s", what,
          mpz_sizeinbase(a, 2), mpz_sizeinbase(b, 2), ctx->chunk,
          ok ? "wrong GCD" : "a step broke its bounds");
    mpz_clears(g, e, NULL);
}

static void check_twin(void)
{
    const uint32_t q[3] = {4294967291u, 4294967279u, 4294967231u};
    const uint32_t chunks[] = {0, 2, 3};
    for (int c = 0; c < 3; c++)
        for (unsigned n = 256; n <= 8192; n *= 4) {
            struct twin_ctx ctx = {.chunk = chunks[c]};
            gcd_cases(rng, n, 3, 8, q, twin_case, &ctx);
            printf("twin %5u bits, chunks of %u: %llu steps (%llu PAIR, %llu SHIFT, %llu ONE, "
                   "%llu negated), %llu ripple rounds\n",
                   n, chunks[c], (unsigned long long)ctx.stats.steps,
                   (unsigned long long)ctx.stats.pairs, (unsigned long long)ctx.stats.shifts,
                   (unsigned long long)ctx.stats.ones, (unsigned long long)ctx.stats.negations,
                   (unsigned long long)ctx.stats.ripple_rounds);
            CHECK(ctx.stats.shifts > 0 && ctx.stats.ones > 0,
                  "%u bits: the cases made no SHIFT or no ONE step", n);
        }
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    struct twin_ctx ctx = {.chunk = 0};
    const unsigned bits = 65536, pairs = 4;
    for (unsigned i = 0; i < pairs; i++) {
        gcd_case_bits(a, rng, bits);
        gcd_case_bits(b, rng, bits);
        twin_case(&ctx, a, b, "random 64 Kibit");
    }
    const double per_step = 2.0 * bits * pairs / (double)ctx.stats.steps,
                 quotients = (double)ctx.stats.quotients / (double)ctx.stats.pairs;
    const double ahead = (double)ctx.stats.ahead / (double)ctx.stats.steps;
    printf("twin 64 Kibit: %.1f steps a pair, %.2f bits off the pair a step, %.2f quotients a "
           "PAIR step, %.1f %% of the steps planned ahead\n", (double)ctx.stats.steps / pairs,
           per_step, quotients, 100 * ahead);
    /* Planned ahead, a step stops a little earlier (GCD_LEHMER_AHEAD_MARGIN): 58.05 bits a step
     * when every step was planned from the numbers. */
    CHECK(per_step > 55 && quotients > 15 && ahead > 0.95,
          "64 Kibit: %.2f bits a step, %.2f quotients a step, %.3f of the steps planned ahead",
          per_step, quotients, ahead);
    mpz_clears(a, b, NULL);
}

static void check_shapes(void)
{
    int bad = 0;
    for (uint32_t words = 1; words <= 40000; words++) {
        uint32_t k, threads, cap;
        gcd_lehmer_shape(words, &k, &threads, &cap);
        const uint32_t chunks = (words + 1 + k - 1) / k;
        bad += k < GCD_LEHMER_MIN_CHUNK || threads % 32 || threads > GCD_LEHMER_MAX_THREADS ||
               threads < chunks || cap < words + 1 || k % 2 == 0 ||
               (k > 3 && (words + 1) <= (k - 2) * GCD_LEHMER_MAX_THREADS);
    }
    CHECK(bad == 0, "gcd_lehmer_shape: %d sizes with a bad shape", bad);
}

int main(void)
{
    seed = test_seed();
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, (unsigned long)seed);
    check_shapes();
    check_plans();
    check_block_arithmetic();
    check_twin();
    gmp_randclear(rng);
    return test_finish("test_gcd_lehmer_cpu");
}
