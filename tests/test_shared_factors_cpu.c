/* cpu suite: the shared-factor search of libmpgpu (mpgpu.h, "Shared factors"): the tree-cpu
 * method's g_i and the report made from them against the all-pairs twin
 * (cpu_ref/shared_factors_pairs.c) on seeded RSA-like sets with every plant (each planted
 * relation found, nothing else), and on the worst cases: two moduli, all sharing one prime, all
 * equal, moduli of unequal sizes and one dividing another, a shared small prime, no relation;
 * the report the same on one thread and on several; progress and cancelling; every argument
 * check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpgpu.h"
#include "mpz_arrays.h"
#include "rsa_moduli.h"
#include "shared_factors_pairs.h"
#include "test_seed.h"

/* A set as the library takes it: n moduli of `words` words each. */
struct set {
    size_t n, words;
    uint32_t *w;
};

static struct set to_words(size_t n, mpz_t *N)
{
    struct set s = {n, 1, NULL};
    for (size_t i = 0; i < n; i++) {
        const size_t w = (mpz_sizeinbase(N[i], 2) + 31) / 32;
        s.words = w > s.words ? w : s.words;
    }
    s.w = calloc(n * s.words, sizeof *s.w);
    for (size_t i = 0; i < n; i++)
        mpz_export(s.w + i * s.words, NULL, -1, sizeof *s.w, 0, 0, N[i]);
    return s;
}

/* The kinds the twin gives modulus i: from its exact g, its partners and trial division. */
static unsigned twin_kinds(size_t n, mpz_t *N, size_t i, const mpz_t g, const size_t *partners,
                           size_t n_partners, uint32_t *small)
{
    *small = shared_factors_pairs_small_prime(N[i], MPGPU_SHARED_FACTORS_SMALL_PRIME_LIMIT);
    unsigned kinds = *small ? MPGPU_SHARED_SMALL : 0;
    (void)n;
    if (n_partners == 0)
        return kinds;
    if (mpz_cmp(g, N[i]) != 0)
        return kinds | MPGPU_SHARED_PRIME;
    for (size_t k = 0; k < n_partners; k++)
        if (mpz_cmp(N[partners[k]], N[i]) == 0)
            return kinds | MPGPU_SHARED_DUPLICATE;
    return kinds | MPGPU_SHARED_ALL;
}

/* Runs the search on N and checks everything against the twin; returns the report (to be
 * destroyed) for the caller's own checks of what was planted. */
/* pairs-gpu's last step on the CPU: g_i from the pairs (i, j) whose GCD is not 1 (found here
 * by mpz_gcd, given in reverse order) equal to the twin's g_i, whatever the prime powers. */
static void check_g_from_pairs(const char *name, size_t n, mpz_t *N, const struct set *s)
{
    uint32_t *pairs = NULL, *g = calloc(n * s->words, sizeof *g);
    size_t found = 0;
    mpz_t d, want;
    mpz_inits(d, want, NULL);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            mpz_gcd(d, N[i], N[j]);
            if (mpz_cmp_ui(d, 1) == 0)
                continue;
            pairs = realloc(pairs, 2 * (found + 1) * sizeof *pairs);
            pairs[2 * found] = (uint32_t)i;
            pairs[2 * found + 1] = (uint32_t)j;
            found++;
        }
    for (size_t k = 0; k < found / 2; k++)
        for (int e = 0; e < 2; e++) {
            const uint32_t t = pairs[2 * k + e];
            pairs[2 * k + e] = pairs[2 * (found - 1 - k) + e];
            pairs[2 * (found - 1 - k) + e] = t;
        }
    const mpgpu_status st = mpgpu_shared_factors_g_from_pairs(n, s->w, s->words, found, pairs, g);
    size_t bad = 0;
    for (size_t i = 0; i < n && st == MPGPU_OK; i++) {
        mpz_import(d, s->words, -1, sizeof *g, 0, 0, g + i * s->words);
        shared_factors_pairs_g(n, N, i, want);
        bad += mpz_cmp(d, want) != 0;
    }
    CHECK(st == MPGPU_OK && bad == 0, "%s: g from %zu pairs: %s, %zu of %zu g_i differ from the "
          "twin's", name, found, mpgpu_status_string(st), bad, n);
    const uint32_t self[2] = {1, 1}, past[2] = {0, (uint32_t)n};
    CHECK(mpgpu_shared_factors_g_from_pairs(n, s->w, s->words, 1, self, g) ==
              MPGPU_ERR_BAD_ARGUMENT &&
              mpgpu_shared_factors_g_from_pairs(n, s->w, s->words, 1, past, g) ==
                  MPGPU_ERR_BAD_ARGUMENT,
          "%s: g from a pair (i, i) or past the moduli refused", name);
    mpz_clears(d, want, NULL);
    free(pairs);
    free(g);
}

static mpgpu_shared_factors_report *search_and_check(const char *name, size_t n, mpz_t *N)
{
    struct set s = to_words(n, N);
    uint32_t *g = calloc(n * s.words, sizeof *g);
    const mpgpu_shared_factors_options o = {.method = "tree-cpu", .threads = 3};
    mpgpu_status st = mpgpu_shared_factors_gcds(&o, n, s.w, s.words, g);
    CHECK(st == MPGPU_OK, "%s: gcds: %s", name, mpgpu_status_string(st));
    mpz_t got, want, factor;
    mpz_inits(got, want, factor, NULL);
    size_t bad_g = 0;
    for (size_t i = 0; i < n; i++) {
        mpz_import(got, s.words, -1, sizeof *g, 0, 0, g + i * s.words);
        shared_factors_pairs_g(n, N, i, want);
        bad_g += mpz_cmp(got, want) != 0;
    }
    CHECK(bad_g == 0, "%s: %zu of %zu g_i differ from the twin's", name, bad_g, n);
    if (n <= 2000)
        check_g_from_pairs(name, n, N, &s);

    mpgpu_shared_factors_report *r = NULL, *r1 = NULL;
    st = mpgpu_shared_factors_classify(n, s.w, s.words, g, 0, &r);
    CHECK(st == MPGPU_OK && r, "%s: classify: %s", name, mpgpu_status_string(st));
    st = mpgpu_shared_factors_classify(n, s.w, s.words, g, 1, &r1);
    CHECK(st == MPGPU_OK && r1, "%s: classify on one thread: %s", name, mpgpu_status_string(st));
    if (!r || !r1) {
        mpgpu_shared_factors_report_destroy(r1);
        free(g);
        free(s.w);
        mpz_clears(got, want, factor, NULL);
        return r;
    }
    size_t *partners = malloc(n * sizeof *partners), *seen = malloc(n * sizeof *seen);
    size_t *got_partners = malloc(n * sizeof *got_partners);
    mpz_t *common = mpz_array_new(n), *got_common = mpz_array_new(n);
    uint32_t *fw = malloc(s.words * sizeof *fw), *fw1 = malloc(s.words * sizeof *fw1);
    size_t k = 0, mismatches = 0, findings = mpgpu_shared_factors_report_count(r);
    CHECK(findings == mpgpu_shared_factors_report_count(r1), "%s: %zu findings, %zu on one thread",
          name, findings, mpgpu_shared_factors_report_count(r1));
    for (size_t i = 0; i < n; i++) {
        const size_t np = shared_factors_pairs_partners(n, N, i, partners, common);
        shared_factors_pairs_g(n, N, i, want);
        uint32_t small;
        const unsigned kinds = twin_kinds(n, N, i, want, partners, np, &small);
        if (!kinds)
            continue;
        mpgpu_shared_factors_finding f, f1;
        if (k >= findings || mpgpu_shared_factors_report_get(r, k, &f) != MPGPU_OK ||
            f.index != i) {
            if (mismatches++ == 0)
                printf("FAIL (seed %llu) %s: modulus %zu (kinds %u) is not finding %zu\n",
                       (unsigned long long)seed, name, i, kinds, k);
            continue;
        }
        mpgpu_shared_factors_report_get(r1, k, &f1);
        k++;
        bool ok = f.kinds == kinds && f.small_prime == small && f.partners == np &&
                  !memcmp(&f, &f1, sizeof f);
        /* Every partner once, with the twin's common factor; shares in increasing order. */
        size_t n_seen = 0;
        mpz_set_ui(factor, 0);
        for (size_t sh = 0; sh < f.shares && ok; sh++) {
            size_t fwords, n_got, fwords1, n_got1;
            ok = mpgpu_shared_factors_report_share(r, k - 1, sh, fw, s.words, &fwords,
                                                   got_partners, &n_got) == MPGPU_OK &&
                 mpgpu_shared_factors_report_share(r1, k - 1, sh, fw1, s.words, &fwords1, seen,
                                                   &n_got1) == MPGPU_OK &&
                 fwords == fwords1 && n_got == n_got1 && !memcmp(fw, fw1, s.words * sizeof *fw) &&
                 !memcmp(got_partners, seen, n_got * sizeof *seen);
            mpz_import(got, s.words, -1, sizeof *fw, 0, 0, fw);
            ok = ok && mpz_cmp(got, factor) > 0;
            mpz_set(factor, got);
            for (size_t p = 0; p < n_got && ok; p++) {
                size_t at = 0;
                while (at < np && partners[at] != got_partners[p])
                    at++;
                ok = at < np && mpz_cmp(common[at], got) == 0 &&
                     (p == 0 || got_partners[p] > got_partners[p - 1]);
            }
            n_seen += n_got;
        }
        ok = ok && n_seen == np;
        if (!ok && mismatches++ == 0)
            printf("FAIL (seed %llu) %s: modulus %zu: kinds %u small %u partners %zu, twin: kinds "
                   "%u small %u partners %zu\n", (unsigned long long)seed, name, i, f.kinds,
                   f.small_prime, f.partners, kinds, small, np);
    }
    CHECK(mismatches == 0 && k == findings, "%s: %zu findings differ from the twin; %zu of %zu "
          "findings matched", name, mismatches, k, findings);
    printf("%-40s %5zu moduli of up to %5zu bits: %zu findings, all as the twin's\n", name, n,
           s.words * 32, findings);
    mpgpu_shared_factors_report_destroy(r1);
    mpz_array_free(common, n);
    mpz_array_free(got_common, n);
    free(partners);
    free(seen);
    free(got_partners);
    free(fw);
    free(fw1);
    free(g);
    free(s.w);
    mpz_clears(got, want, factor, NULL);
    return r;
}

/* Finding of modulus i in r, or NULL. */
static bool finding_of(const mpgpu_shared_factors_report *r, size_t i,
                       mpgpu_shared_factors_finding *f)
{
    for (size_t k = 0; k < mpgpu_shared_factors_report_count(r); k++)
        if (mpgpu_shared_factors_report_get(r, k, f) == MPGPU_OK && f->index == i)
            return true;
    return false;
}

static void check_planted(const char *name, const mpgpu_shared_factors_report *r,
                          const struct rsa_planted *pl, size_t n_planted, mpz_t *N)
{
    size_t expect = 0;
    for (size_t p = 0; p < n_planted; p++) {
        const size_t *x = pl[p].index;
        mpgpu_shared_factors_finding f[3];
        bool found = true;
        for (unsigned m = 0; m < pl[p].count; m++)
            found = found && finding_of(r, x[m], &f[m]);
        expect += pl[p].count;
        bool ok = found;
        switch (pl[p].kind) {
        case RSA_PLANT_SHARED:
            for (unsigned m = 0; m < 3 && ok; m++)
                ok = f[m].kinds == MPGPU_SHARED_PRIME && f[m].partners == 2 && f[m].shares == 1;
            break;
        case RSA_PLANT_DUPLICATE:
            ok = ok && f[0].kinds == MPGPU_SHARED_DUPLICATE && f[1].kinds == MPGPU_SHARED_DUPLICATE &&
                 f[0].partners == 1 && f[1].partners == 1;
            break;
        case RSA_PLANT_BOTH:
            ok = ok && f[0].kinds == MPGPU_SHARED_ALL && f[0].partners == 2 && f[0].shares == 2 &&
                 f[1].kinds == MPGPU_SHARED_PRIME && f[1].partners == 1 &&
                 f[2].kinds == MPGPU_SHARED_PRIME && f[2].partners == 1;
            break;
        case RSA_PLANT_SMALL:
            ok = ok && f[0].kinds == MPGPU_SHARED_SMALL && f[0].partners == 0 &&
                 f[0].small_prime >= 49152 && mpz_divisible_ui_p(N[x[0]], f[0].small_prime);
            break;
        default:
            ok = false;
        }
        CHECK(ok, "%s: the planted %s relation (moduli %zu ..) is not reported as planted", name,
              rsa_plant_names[__builtin_ctz(pl[p].kind)], x[0]);
    }
    CHECK(mpgpu_shared_factors_report_count(r) == expect, "%s: %zu findings, %zu planted", name,
          mpgpu_shared_factors_report_count(r), expect);
}

static void test_planted(size_t n, unsigned bits, uint64_t set_seed, unsigned plants)
{
    mpz_t *N = mpz_array_new(n);
    struct rsa_planted pl[RSA_PLANT_KINDS];
    size_t n_planted;
    rsa_moduli_make(N, n, bits, set_seed, plants, 2, NULL, pl, &n_planted);
    char name[96];
    snprintf(name, sizeof name, "rsa n=%zu bits=%u plants=%u seed=%llu", n, bits, plants,
             (unsigned long long)set_seed);
    for (size_t i = 0; i < n; i++)
        CHECK(mpz_odd_p(N[i]) && mpz_sizeinbase(N[i], 2) + 1 >= bits &&
                  mpz_sizeinbase(N[i], 2) <= bits, "%s: modulus %zu has %zu bits", name, i,
              mpz_sizeinbase(N[i], 2));
    mpgpu_shared_factors_report *r = search_and_check(name, n, N);
    if (r)
        check_planted(name, r, pl, n_planted, N);
    mpgpu_shared_factors_report_destroy(r);
    /* The same seed gives the same set. */
    mpz_t *again = mpz_array_new(n);
    rsa_moduli_make(again, n, bits, set_seed, plants, 1, NULL, pl, &n_planted);
    size_t differ = 0;
    for (size_t i = 0; i < n; i++)
        differ += mpz_cmp(N[i], again[i]) != 0;
    CHECK(differ == 0, "%s: %zu moduli differ when made again on one thread", name, differ);
    mpz_array_free(again, n);
    mpz_array_free(N, n);
}

/* A prime of `bits` bits from GMP's generator. */
static void prime(mpz_t p, gmp_randstate_t rs, unsigned bits)
{
    mpz_urandomb(p, rs, bits);
    mpz_setbit(p, bits - 1);
    mpz_nextprime(p, p);
}

/* One worst case: its name, its moduli, the findings it must have. */
static void worst_case(const char *name, size_t n, mpz_t *N, size_t want_findings)
{
    mpgpu_shared_factors_report *r = search_and_check(name, n, N);
    CHECK(r && mpgpu_shared_factors_report_count(r) == want_findings, "%s: %zu findings, want %zu",
          name, r ? mpgpu_shared_factors_report_count(r) : 0, want_findings);
    mpgpu_shared_factors_report_destroy(r);
}

static void test_worst_cases(void)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)seed);
    mpz_t p, q;
    mpz_inits(p, q, NULL);
    mpz_t *N = mpz_array_new(64);

    /* Two moduli: unrelated, sharing a prime, equal. */
    for (int i = 0; i < 2; i++) {
        prime(p, rs, 128);
        prime(q, rs, 128);
        mpz_mul(N[i], p, q);
    }
    worst_case("two moduli, unrelated", 2, N, 0);
    mpz_divexact(N[1], N[1], q);
    prime(q, rs, 128);
    mpz_mul(N[1], N[1], q);
    mpz_set(N[0], q);
    prime(p, rs, 128);
    mpz_mul(N[0], N[0], p);
    worst_case("two moduli sharing a prime", 2, N, 2);
    mpz_set(N[1], N[0]);
    worst_case("two equal moduli", 2, N, 2);

    /* Forty moduli all sharing one prime. */
    prime(p, rs, 256);
    for (int i = 0; i < 40; i++) {
        prime(q, rs, 256);
        mpz_mul(N[i], p, q);
    }
    worst_case("all sharing one prime", 40, N, 40);

    /* Thirty equal moduli. */
    for (int i = 1; i < 30; i++)
        mpz_set(N[i], N[0]);
    worst_case("all equal", 30, N, 30);

    /* Unequal sizes, 64 to 2048 bits: a 64-bit modulus sharing its prime with a 2048-bit one,
     * one modulus dividing another (p q and p q r: the first's g is itself, not a duplicate),
     * the rest unrelated. */
    for (int i = 0; i < 20; i++) {
        const unsigned half = 32u << (i % 6);
        prime(p, rs, half);
        prime(q, rs, half);
        mpz_mul(N[i], p, q);
    }
    prime(p, rs, 32);
    prime(q, rs, 32);
    mpz_mul(N[0], p, q);
    prime(q, rs, 2016);
    mpz_mul(N[5], p, q);
    mpz_mul(N[8], N[3], q);
    worst_case("unequal sizes, one dividing another", 20, N, 4);

    /* Two moduli divisible by 3, one by 65521 (the largest prime below 2^16), none by 65537. */
    for (int i = 0; i < 10; i++) {
        prime(p, rs, 200);
        prime(q, rs, 200);
        mpz_mul(N[i], p, q);
    }
    prime(p, rs, 397);
    mpz_mul_ui(N[1], p, 3);
    prime(p, rs, 397);
    mpz_mul_ui(N[4], p, 3);
    mpz_mul_ui(N[6], N[6], 65521);
    mpz_mul_ui(N[7], N[7], 65537);
    worst_case("small primes (3 twice, 65521; 65537)", 10, N, 3);

    /* No relation at all. */
    for (int i = 0; i < 64; i++) {
        prime(p, rs, 192);
        prime(q, rs, 192);
        mpz_mul(N[i], p, q);
    }
    worst_case("no relation", 64, N, 0);

    mpz_array_free(N, 64);
    mpz_clears(p, q, NULL);
    gmp_randclear(rs);
}

struct progress_log {
    uint64_t calls, last_done, total;
    bool ordered;
    uint64_t stop_after; /* 0: never stop */
};

static int log_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct progress_log *l = ctx;
    l->ordered = l->ordered && done >= l->last_done && done <= total;
    l->calls++;
    l->last_done = done;
    l->total = total;
    return l->stop_after && l->calls >= l->stop_after;
}

static void test_progress(void)
{
    const size_t n = 300;
    mpz_t *N = mpz_array_new(n);
    struct rsa_planted pl[RSA_PLANT_KINDS];
    size_t n_planted;
    rsa_moduli_make(N, n, 128, seed, 0, 2, NULL, pl, &n_planted);
    struct set s = to_words(n, N);
    uint32_t *g = calloc(n * s.words, sizeof *g);
    struct progress_log whole = {.ordered = true};
    mpgpu_shared_factors_options o = {.progress = log_progress, .progress_ctx = &whole};
    CHECK(mpgpu_shared_factors_gcds(&o, n, s.w, s.words, g) == MPGPU_OK, "gcds with progress");
    CHECK(whole.calls > 1 && whole.ordered && whole.last_done == whole.total &&
              whole.total == n * (2 * 9 + 1), "progress: %llu calls, last %llu of %llu",
          (unsigned long long)whole.calls, (unsigned long long)whole.last_done,
          (unsigned long long)whole.total);
    struct progress_log stop = {.ordered = true, .stop_after = 3};
    o.progress_ctx = &stop;
    CHECK(mpgpu_shared_factors_gcds(&o, n, s.w, s.words, g) == MPGPU_ERR_CANCELLED &&
              stop.last_done < stop.total, "cancelled after 3 calls: done %llu of %llu",
          (unsigned long long)stop.last_done, (unsigned long long)stop.total);
    free(g);
    free(s.w);
    mpz_array_free(N, n);
}

static void test_arguments(void)
{
    mpgpu_shared_factors_method_info info;
    CHECK(mpgpu_shared_factors_method_count() == 3, "%zu methods",
          mpgpu_shared_factors_method_count());
    CHECK(mpgpu_shared_factors_method_get(0, &info) == MPGPU_OK && !strcmp(info.name, "tree-cpu") &&
              !info.uses_gpu && info.max_bits == 65536 && info.summary && *info.summary,
          "method 0");
    CHECK(mpgpu_shared_factors_method_get(1, &info) == MPGPU_OK && !strcmp(info.name, "pairs-gpu") &&
              info.uses_gpu && info.max_bits == 8192,
          "method 1");
    CHECK(mpgpu_shared_factors_check("pairs-gpu", 10, 8193) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "pairs-gpu past 8192 bits");
    CHECK(mpgpu_shared_factors_method_get(2, &info) == MPGPU_OK && !strcmp(info.name, "tree-gpu") &&
              info.uses_gpu && info.max_bits == 32767,
          "method 2");
    CHECK(mpgpu_shared_factors_check("tree-gpu", 10, 32768) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "tree-gpu past 32767 bits");
    CHECK(mpgpu_shared_factors_method_get(3, &info) == MPGPU_ERR_BAD_ARGUMENT, "past the end");
    CHECK(mpgpu_shared_factors_method_get(0, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL info");
    CHECK(mpgpu_shared_factors_method_find("tree-cpu", &info) == MPGPU_OK, "find tree-cpu");
    CHECK(mpgpu_shared_factors_method_find("pairs", &info) == MPGPU_ERR_UNKNOWN_METHOD,
          "find pairs (not a method)");
    CHECK(mpgpu_shared_factors_method_find(NULL, &info) == MPGPU_ERR_BAD_ARGUMENT, "find NULL");
    static const struct {
        const char *method;
        uint64_t count, bits;
        mpgpu_status want;
    } checks_of_size[] = {
        {"tree-cpu", 2, 2, MPGPU_OK},
        {"tree-cpu", 1000000, 65536, MPGPU_OK},
        {"tree-cpu", 1, 1024, MPGPU_ERR_BAD_ARGUMENT},
        {"tree-cpu", 0, 1024, MPGPU_ERR_BAD_ARGUMENT},
        {"tree-cpu", 10, 0, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"tree-cpu", 10, 65537, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"tree-cpu", (UINT64_C(1) << 26) + 1, 1024, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"tree", 10, 1024, MPGPU_ERR_UNKNOWN_METHOD},
        {NULL, 10, 1024, MPGPU_ERR_BAD_ARGUMENT},
    };
    for (size_t i = 0; i < sizeof checks_of_size / sizeof checks_of_size[0]; i++) {
        const mpgpu_status got = mpgpu_shared_factors_check(
            checks_of_size[i].method, checks_of_size[i].count, checks_of_size[i].bits);
        CHECK(got == checks_of_size[i].want, "check(%s, %llu, %llu): %d, want %d",
              checks_of_size[i].method ? checks_of_size[i].method : "NULL",
              (unsigned long long)checks_of_size[i].count,
              (unsigned long long)checks_of_size[i].bits, (int)got, (int)checks_of_size[i].want);
    }
    uint64_t bytes = 0, bytes_more = 0;
    CHECK(mpgpu_shared_factors_host_bytes("tree-cpu", 100000, 2048, &bytes) == MPGPU_OK &&
              mpgpu_shared_factors_host_bytes("tree-cpu", 200000, 2048, &bytes_more) == MPGPU_OK &&
              bytes > 100000 * 256 * 18 && bytes_more > 2 * bytes,
          "host bytes %llu, twice the moduli %llu", (unsigned long long)bytes,
          (unsigned long long)bytes_more);
    CHECK(mpgpu_shared_factors_host_bytes("tree-cpu", 1, 2048, &bytes) == MPGPU_ERR_BAD_ARGUMENT,
          "host bytes of one modulus");
    /* GPU memory: none for tree-cpu; tree-gpu's at least its leaves, nodes and squares of
     * 2^20 moduli of 2048 bits in 65 words (2^20 * 65 * 4 * 3 bytes), and twice for twice the
     * moduli; pairs-gpu's at least the moduli. */
    CHECK(mpgpu_shared_factors_device_bytes("tree-cpu", 100000, 2048, &bytes) == MPGPU_OK &&
              bytes == 0,
          "tree-cpu device bytes %llu", (unsigned long long)bytes);
    CHECK(mpgpu_shared_factors_device_bytes("tree-gpu", 1 << 20, 2048, &bytes) == MPGPU_OK &&
              mpgpu_shared_factors_device_bytes("tree-gpu", 1 << 21, 2048, &bytes_more) ==
                  MPGPU_OK &&
              bytes > (UINT64_C(1) << 20) * 65 * 12 && bytes_more >= 2 * bytes - (1 << 30),
          "tree-gpu device bytes %llu, twice the moduli %llu", (unsigned long long)bytes,
          (unsigned long long)bytes_more);
    CHECK(mpgpu_shared_factors_device_bytes("pairs-gpu", 100000, 2048, &bytes) == MPGPU_OK &&
              bytes > 100000 * 256,
          "pairs-gpu device bytes %llu", (unsigned long long)bytes);
    CHECK(mpgpu_shared_factors_device_bytes("tree-gpu", 10, 32768, &bytes) ==
                  MPGPU_ERR_UNSUPPORTED_SIZE &&
              mpgpu_shared_factors_device_bytes("tree", 10, 64, &bytes) ==
                  MPGPU_ERR_UNKNOWN_METHOD &&
              mpgpu_shared_factors_device_bytes("tree-gpu", 10, 64, NULL) ==
                  MPGPU_ERR_BAD_ARGUMENT,
          "device bytes' refusals");

    /* Moduli of two words: 15, an even one, zero, one. */
    uint32_t m[8] = {15, 0, 21, 0, 35, 0, 9, 0}, g[8];
    size_t bad = 99;
    CHECK(mpgpu_shared_factors_check_moduli(4, m, 2, &bad) == MPGPU_OK && bad == 99, "odd moduli");
    static const uint32_t faults[][2] = {{14, 0}, {0, 0}, {1, 0}, {0, 4}};
    for (size_t f = 0; f < 4; f++) {
        m[4] = faults[f][0];
        m[5] = faults[f][1];
        CHECK(mpgpu_shared_factors_check_moduli(4, m, 2, &bad) == MPGPU_ERR_BAD_ARGUMENT &&
                  bad == 2, "modulus 2 = %u + %u * 2^32: first bad %zu", faults[f][0],
              faults[f][1], bad);
        CHECK(mpgpu_shared_factors_gcds(NULL, 4, m, 2, g) == MPGPU_ERR_BAD_ARGUMENT,
              "gcds of a set with modulus %u + %u * 2^32", faults[f][0], faults[f][1]);
    }
    m[4] = 35;
    m[5] = 0;
    mpgpu_shared_factors_options o = {.method = "pairs"};
    CHECK(mpgpu_shared_factors_gcds(&o, 4, m, 2, g) == MPGPU_ERR_UNKNOWN_METHOD, "unknown method");
    CHECK(mpgpu_shared_factors_gcds(NULL, 1, m, 2, g) == MPGPU_ERR_BAD_ARGUMENT, "one modulus");
    CHECK(mpgpu_shared_factors_gcds(NULL, 4, NULL, 2, g) == MPGPU_ERR_BAD_ARGUMENT, "NULL moduli");
    CHECK(mpgpu_shared_factors_gcds(NULL, 4, m, 2, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL g");
    CHECK(mpgpu_shared_factors_gcds(NULL, 4, m, 2, m + 2) == MPGPU_ERR_BAD_ARGUMENT, "g overlaps");
    /* Each shares every prime: 15 = 3 * 5 with 21, 9 and 35; 9 = 3^2 with 15 * 21. */
    CHECK(mpgpu_shared_factors_gcds(NULL, 4, m, 2, g) == MPGPU_OK && g[0] == 15 && g[2] == 21 &&
              g[4] == 35 && g[6] == 9 && !g[1] && !g[3] && !g[5] && !g[7],
          "gcds of 15, 21, 35, 9: %u %u %u %u", g[0], g[2], g[4], g[6]);
    mpgpu_shared_factors_report *r = NULL;
    CHECK(mpgpu_shared_factors_classify(4, m, 2, g, 0, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL report");
    CHECK(mpgpu_shared_factors_classify(1, m, 2, g, 0, &r) == MPGPU_ERR_BAD_ARGUMENT, "one modulus");
    g[4] = 11;
    CHECK(mpgpu_shared_factors_classify(4, m, 2, g, 0, &r) == MPGPU_ERR_BAD_ARGUMENT && !r,
          "a g that does not divide its modulus");
    g[4] = 0;
    CHECK(mpgpu_shared_factors_classify(4, m, 2, g, 0, &r) == MPGPU_ERR_BAD_ARGUMENT && !r,
          "a g of 0");
    g[4] = 35;
    CHECK(mpgpu_shared_factors_classify(4, m, 2, g, 0, &r) == MPGPU_OK && r &&
              mpgpu_shared_factors_report_count(r) == 4, "classify 15, 21, 35, 9");
    mpgpu_shared_factors_finding f;
    uint32_t factor[2];
    size_t words, partners[4], n_partners;
    CHECK(mpgpu_shared_factors_report_get(r, 4, &f) == MPGPU_ERR_BAD_ARGUMENT, "finding 4 of 4");
    CHECK(mpgpu_shared_factors_report_get(r, 1, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL finding");
    /* 21 = 3 * 7 shares 3 with 15 and 9, 7 with 35: g = 21, each prime shared, small 3. */
    CHECK(mpgpu_shared_factors_report_get(r, 1, &f) == MPGPU_OK && f.index == 1 &&
              f.kinds == (MPGPU_SHARED_ALL | MPGPU_SHARED_SMALL) && f.small_prime == 3 &&
              f.partners == 3 && f.shares == 2, "21: kinds %u small %u partners %zu shares %zu",
          f.kinds, f.small_prime, f.partners, f.shares);
    CHECK(mpgpu_shared_factors_report_share(r, 1, 0, factor, 2, &words, partners, &n_partners) ==
                  MPGPU_OK && factor[0] == 3 && words == 1 && n_partners == 2 && partners[0] == 0 &&
              partners[1] == 3, "21's first share: %u with %zu moduli", factor[0], n_partners);
    CHECK(mpgpu_shared_factors_report_share(r, 1, 1, factor, 2, &words, partners, &n_partners) ==
                  MPGPU_OK && factor[0] == 7 && n_partners == 1 && partners[0] == 2,
          "21's second share: %u with %zu moduli", factor[0], n_partners);
    CHECK(mpgpu_shared_factors_report_share(r, 1, 2, factor, 2, &words, partners, &n_partners) ==
              MPGPU_ERR_BAD_ARGUMENT, "share past the end");
    CHECK(mpgpu_shared_factors_report_share(r, 1, 0, factor, 0, &words, partners, &n_partners) ==
              MPGPU_ERR_BAD_ARGUMENT, "no room for the factor");
    CHECK(mpgpu_shared_factors_report_count(NULL) == 0, "count of no report");
    mpgpu_shared_factors_report_destroy(r);
    mpgpu_shared_factors_report_destroy(NULL);
}

int main(void)
{
    seed = test_seed();
    test_arguments();
    test_progress();
    test_worst_cases();
    test_planted(200, 256, seed, RSA_PLANT_ALL);
    test_planted(11, 512, seed + 1, RSA_PLANT_ALL);
    test_planted(97, 128, seed + 2, RSA_PLANT_SHARED | RSA_PLANT_SMALL);
    test_planted(300, 64, seed + 3, RSA_PLANT_BOTH | RSA_PLANT_DUPLICATE);
    test_planted(50, 1024, seed + 4, 0);
    return test_finish("test_shared_factors_cpu");
}
