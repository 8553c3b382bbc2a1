/* cpu suite: the bulk GCD kernel's own steps (kernels/gcd_bulk_steps.h, which
 * kernels/gcd_bulk.cu runs one pair a thread) compiled for the host, against mpz_gcd (issue 38:
 * "a twin of the bulk kernel's steps against GMP"). Both inner loops, Lehmer and binary, on
 * - the bulk pairs of tests/gcd_bulk_cases.h (random pairs of 64 to 8192 bits, uniform and with
 *   long runs, unequal lengths; zeros, one, equal numbers, powers of two, words of all ones, one
 *   word against 8192 bits, shared random primes, consecutive Fibonacci numbers) and issue 10's
 *   cases (tests/gcd_cases.h);
 * - each pair twice: in an array of its own (stride 1, as a thread's local array) and as one
 *   slot of a word-major batch of three (stride 3), whose other slots must stay untouched;
 * - batches in the kernel's word-major layout (stride = the batch's count) over more than one
 *   batch, the last one partial, every pair of every batch checked;
 * - the digit quotient (a double's estimate, corrected) against the exact one: quotients just
 *   below, at and above the 2^50 where it turns to the exact division, remainders 0 and r1 - 1,
 *   digits near 2^64, and random digits of every length. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcd_bulk_cases.h"
#include "gcd_bulk_steps.h"
#include "gcd_cases.h"
#include "test_seed.h"

#define MAX_WORDS GCD_BULK_STEPS_MAX_WORDS
#define SLOTS 3u
#define SENTINEL 0x5eed1e55u

static gmp_randstate_t rng;
static const char *const method_names[2] = {"lehmer", "binary"};

/* gcd(x0, x1) into x0 by method m (0: Lehmer, 1: binary); false when Lehmer broke a bound. */
static bool run_method(int m, uint32_t *x0, uint32_t *x1, uint32_t stride, uint32_t n)
{
    if (m == 0)
        return gcd_bulk_lehmer_pair(x0, x1, stride, n);
    gcd_bulk_binary_pair(x0, x1, stride, n);
    return true;
}

static uint32_t word_count(const mpz_t x)
{
    return mpz_sgn(x) ? (uint32_t)((mpz_sizeinbase(x, 2) + 31) / 32) : 0;
}

/* x's n words at stride `stride` (x < 2^(32 n)). */
static void put_words(uint32_t *w, uint32_t stride, uint32_t n, const mpz_t x)
{
    uint32_t tmp[MAX_WORDS] = {0};
    mpz_export(tmp, NULL, -1, sizeof *tmp, 0, 0, x);
    for (uint32_t j = 0; j < n; j++)
        w[(size_t)j * stride] = tmp[j];
}

static void get_words(mpz_t x, const uint32_t *w, uint32_t stride, uint32_t n)
{
    uint32_t tmp[MAX_WORDS];
    for (uint32_t j = 0; j < n; j++)
        tmp[j] = w[(size_t)j * stride];
    mpz_import(x, n, -1, sizeof *tmp, 0, 0, tmp);
}

static void check_one(int m, const mpz_t a, const mpz_t b, const mpz_t want, uint32_t n,
                      uint32_t slot, const char *what)
{
    /* A batch of SLOTS pairs, word-major: the pair in `slot`, sentinels in the others. */
    static uint32_t x0[MAX_WORDS * SLOTS], x1[MAX_WORDS * SLOTS];
    const uint32_t stride = slot == SLOTS ? 1 : SLOTS, at = slot == SLOTS ? 0 : slot;
    for (size_t i = 0; i < (size_t)n * stride; i++)
        x0[i] = x1[i] = SENTINEL;
    put_words(x0 + at, stride, n, a);
    put_words(x1 + at, stride, n, b);
    const bool ok = run_method(m, x0 + at, x1 + at, stride, n);
    mpz_t got;
    mpz_init(got);
    get_words(got, x0 + at, stride, n);
    bool neighbours = true;
    for (size_t i = 0; i < (size_t)n * stride; i++)
        if (i % stride != at)
            neighbours &= x0[i] == SENTINEL && x1[i] == SENTINEL;
    CHECK(ok && mpz_cmp(got, want) == 0 && neighbours,
          "%s, %s: %zu and %zu bits in %u words, stride %u: %zu-bit gcd, got %zu bits%s%s",
          method_names[m], what, mpz_sizeinbase(a, 2), mpz_sizeinbase(b, 2), n, stride,
          mpz_sizeinbase(want, 2), mpz_sizeinbase(got, 2),
          ok ? "" : " (a step broke its bounds)", neighbours ? "" : " (another slot written)");
    mpz_clear(got);
}

/* Both methods on a and b in `width` words (0: the longer's), alone and in a batch. */
static void check_bulk_case(const mpz_t a, const mpz_t b, uint32_t width, const char *what,
                            bool counted, void *ctx)
{
    (void)counted;
    (void)ctx;
    uint32_t n = word_count(a) > word_count(b) ? word_count(a) : word_count(b);
    n = width > n ? width : n ? n : 1;
    if (n > MAX_WORDS) {
        CHECK(0, "%s: %u words, past the steps' %u", what, n, MAX_WORDS);
        return;
    }
    mpz_t want;
    mpz_init(want);
    mpz_gcd(want, a, b);
    for (int m = 0; m < 2; m++) {
        check_one(m, a, b, want, n, SLOTS, what);
        check_one(m, a, b, want, n, (uint32_t)checks % SLOTS, what);
    }
    mpz_clear(want);
}

static void check_case(void *ctx, const mpz_t a, const mpz_t b, const char *what)
{
    mpz_t ua, ub;
    mpz_inits(ua, ub, NULL);
    mpz_abs(ua, a);
    mpz_abs(ub, b);
    check_bulk_case(ua, ub, 0, what, false, ctx);
    mpz_clears(ua, ub, NULL);
}

/* `count` pairs of `bits` bits (every third with a planted common factor of bits / 3) in the
 * kernel's word-major layout, `batch` pairs a batch (stride = the batch's own count, the last
 * batch partial), each batch reduced pair by pair as the kernel's threads do. */
static void batches(unsigned bits, size_t count, size_t batch)
{
    const uint32_t n = (bits + 31) / 32;
    mpz_t *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b), f, want, got;
    uint32_t *x0 = malloc((size_t)n * batch * sizeof *x0), *x1 = malloc((size_t)n * batch * sizeof *x1);
    mpz_inits(f, want, got, NULL);
    for (size_t i = 0; i < count; i++) {
        mpz_inits(a[i], b[i], NULL);
        const unsigned common = i % 3 == 0 ? bits / 3 : 0;
        gcd_case_bits(f, rng, common);
        gcd_case_bits(a[i], rng, bits - common);
        gcd_case_bits(b[i], rng, bits - common - (unsigned)(i % 7));
        mpz_mul(a[i], a[i], f);
        mpz_mul(b[i], b[i], f);
    }
    size_t batches_run = 0;
    for (int m = 0; m < 2; m++)
        for (size_t first = 0; first < count; first += batch, batches_run++) {
            const size_t in_batch = count - first < batch ? count - first : batch;
            const uint32_t stride = (uint32_t)in_batch;
            for (size_t p = 0; p < in_batch; p++) {
                put_words(x0 + p, stride, n, a[first + p]);
                put_words(x1 + p, stride, n, b[first + p]);
            }
            bool ok = true;
            for (size_t p = 0; p < in_batch; p++)
                ok &= run_method(m, x0 + p, x1 + p, stride, n);
            for (size_t p = 0; p < in_batch; p++) {
                mpz_gcd(want, a[first + p], b[first + p]);
                get_words(got, x0 + p, stride, n);
                CHECK(ok && mpz_cmp(got, want) == 0,
                      "%s, batch from pair %zu of %zu, %u bits: pair %zu, %zu-bit gcd, got %zu bits",
                      method_names[m], first, count, bits, first + p, mpz_sizeinbase(want, 2),
                      mpz_sizeinbase(got, 2));
            }
        }
    CHECK(batches_run > 2, "%zu pairs in batches of %zu: only %zu batches", count, batch,
          batches_run);
    for (size_t i = 0; i < count; i++)
        mpz_clears(a[i], b[i], NULL);
    mpz_clears(f, want, got, NULL);
    free(a);
    free(b);
    free(x0);
    free(x1);
}

/* gcd_bulk_quotient(r0, r1) against r0 / r1 and r0 % r1 (r0 >= r1 > 0). */
static void check_quotient(uint64_t r0, uint64_t r1, const char *what)
{
    uint64_t rem;
    const uint64_t q = gcd_bulk_quotient(r0, r1, &rem);
    CHECK(q == r0 / r1 && rem == r0 % r1,
          "quotient, %s: %llu / %llu gave %llu rem %llu, want %llu rem %llu", what,
          (unsigned long long)r0, (unsigned long long)r1, (unsigned long long)q,
          (unsigned long long)rem, (unsigned long long)(r0 / r1), (unsigned long long)(r0 % r1));
}

static uint64_t random_bits(unsigned bits)
{
    uint64_t x = (uint64_t)gmp_urandomb_ui(rng, 32) << 32 | gmp_urandomb_ui(rng, 32);
    return bits >= 64 ? x : x & ((UINT64_C(1) << bits) - 1);
}

static void check_quotients(void)
{
    const uint64_t top = UINT64_MAX;
    check_quotient(1, 1, "1 / 1");
    check_quotient(top, 1, "all ones / 1");
    check_quotient(top, top, "all ones / all ones");
    check_quotient(top, top - 1, "all ones / all ones - 1");
    check_quotient(top, top >> 1, "all ones / half");
    check_quotient(top, 3, "all ones / 3");
    /* Around the switch to the exact division, r0 >> 50 >= r1, and the 2^50 it stands for. */
    for (uint64_t r1 = 1; r1 < (UINT64_C(1) << 13); r1 = r1 * 3 + 1)
        for (int64_t d = -2; d <= 2; d++) {
            const uint64_t q = (UINT64_C(1) << 50) + (uint64_t)d;
            check_quotient(q * r1, r1, "quotient near 2^50, remainder 0");
            check_quotient(q * r1 + r1 - 1, r1, "quotient near 2^50, remainder r1 - 1");
            check_quotient(q * r1 - 1, r1, "just below a multiple near 2^50");
        }
    /* Quotients q and remainders at both ends, over digits of every length. */
    for (unsigned bits = 1; bits <= 64; bits++)
        for (int i = 0; i < 64; i++) {
            uint64_t r1 = random_bits(bits) | UINT64_C(1) << (bits - 1);
            const uint64_t qmax = top / r1;
            const uint64_t q = 1 + random_bits(64) % qmax;
            check_quotient(q * r1, r1, "remainder 0");
            check_quotient(q * r1 + (top - q * r1 < r1 - 1 ? top - q * r1 : r1 - 1), r1,
                           "largest remainder");
            uint64_t r0 = random_bits(64);
            if (r0 < r1)
                r0 = r1;
            check_quotient(r0, r1, "random");
        }
}

int main(void)
{
    seed = test_seed();
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, (unsigned long)seed);
    const double t0 = test_seconds();
    gcd_bulk_random_sizes(rng, 50, check_bulk_case, NULL);
    const uint32_t q[3] = {4294967291u, 4294967279u, 4294967231u};
    gcd_cases(rng, 8192, 4, 50, q, check_case, NULL);
    gcd_bulk_edge_cases(rng, check_bulk_case, NULL);
    batches(1024, 100, 32);
    batches(4000, 21, 8);
    check_quotients();
    printf("%.1f s\n", test_seconds() - t0);
    gmp_randclear(rng);
    return test_finish("gcd_bulk_steps");
}
