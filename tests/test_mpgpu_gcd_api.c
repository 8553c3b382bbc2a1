/* cpu suite: libmpgpu's GCD calls that need no GPU (mpgpu.h, "GCDs of pairs"): the method list,
 * the moduli's counts, sizes and cache file (made in a temporary folder, read back, damaged),
 * the sizing calls against the drivers' formulas, and every argument check of the plan and
 * pair calls, each returning its code before any CUDA call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcd_device.h"
#include "gcd_lehmer_device.h"
#include "gcd_moduli.h"
#include "mpgpu.h"
#include "test_seed.h"

static void test_methods(void)
{
    static const char *const names[] = {"modular", "kary", "lehmer"};
    static const int uses_moduli[] = {1, 1, 0};
    CHECK(mpgpu_gcd_method_count() == 3, "%zu methods", mpgpu_gcd_method_count());
    mpgpu_gcd_method_info info, found;
    for (size_t i = 0; i < 3; i++) {
        CHECK(mpgpu_gcd_method_get(i, &info) == MPGPU_OK && !strcmp(info.name, names[i]) &&
                  info.uses_moduli == uses_moduli[i] && info.summary && *info.summary,
              "method %zu", i);
        CHECK(mpgpu_gcd_method_find(names[i], &found) == MPGPU_OK && !strcmp(found.name, names[i]),
              "find %s", names[i]);
    }
    CHECK(mpgpu_gcd_method_get(3, &info) == MPGPU_ERR_BAD_ARGUMENT, "index past the end");
    CHECK(mpgpu_gcd_method_get(0, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL info");
    CHECK(mpgpu_gcd_method_find("gpu", &info) == MPGPU_ERR_UNKNOWN_METHOD, "the CLI's name");
    CHECK(mpgpu_gcd_method_find(NULL, &info) == MPGPU_ERR_BAD_ARGUMENT, "NULL name");
    CHECK(mpgpu_gcd_method_find("kary", NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL info");
}

static void test_moduli_sizes(void)
{
    uint64_t n = 0, bits = 0;
    for (unsigned L = MPGPU_GCD_L_MIN; L <= MPGPU_GCD_L_MAX; L++)
        for (int all = 0; all < 2; all++) {
            CHECK(mpgpu_gcd_moduli_count(L, all, &n) == MPGPU_OK &&
                      n == gcd_moduli_count(L, all ? GCD_FILTER_ALL : GCD_FILTER_CHEAP),
                  "count L %u all %d: %llu", L, all, (unsigned long long)n);
            /* The largest size: the formula fits at it and not one bit above. */
            CHECK(mpgpu_gcd_max_bits(L, all, &bits) == MPGPU_OK &&
                      gcd_modular_nq_formula(bits, L) <= n &&
                      gcd_modular_nq_formula(bits + 1, L) > n,
                  "max bits L %u all %d: %llu", L, all, (unsigned long long)bits);
        }
    CHECK(mpgpu_gcd_moduli_count(15, 0, &n) == MPGPU_ERR_UNSUPPORTED_SIZE, "L 15");
    CHECK(mpgpu_gcd_moduli_count(33, 0, &n) == MPGPU_ERR_UNSUPPORTED_SIZE, "L 33");
    CHECK(mpgpu_gcd_moduli_count(32, 0, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL count");
    CHECK(mpgpu_gcd_max_bits(15, 0, &bits) == MPGPU_ERR_UNSUPPORTED_SIZE, "max bits L 15");
    CHECK(mpgpu_gcd_max_bits(32, 0, NULL) == MPGPU_ERR_BAD_ARGUMENT, "max bits NULL");
    CHECK(mpgpu_gcd_moduli_formula(32, 16384, &n) == MPGPU_OK &&
              n == gcd_modular_nq_formula(16384, 32), "formula at 16 Kibit: %llu",
          (unsigned long long)n);
    CHECK(mpgpu_gcd_moduli_formula(40, 16384, &n) == MPGPU_ERR_UNSUPPORTED_SIZE, "formula L 40");

    /* The first attempt's moduli as the drivers size it; 0 past the table. */
    const uint64_t cheap32 = gcd_moduli_count(32, GCD_FILTER_CHEAP);
    size_t want = 0;
    gcd_modular_nq(16384, 32, GCD_BLOCK_THREADS, cheap32, &want);
    CHECK(mpgpu_gcd_first_moduli("modular", 32, 0, 16384, &n) == MPGPU_OK && n == want,
          "modular first moduli %llu, driver %zu", (unsigned long long)n, want);
    gcd_kary_nq(16384, 16384, 32, GCD_KARY_ROUND, cheap32, &want);
    CHECK(mpgpu_gcd_first_moduli("kary", 32, 0, 16384, &n) == MPGPU_OK && n == want,
          "kary first moduli %llu, driver %zu", (unsigned long long)n, want);
    CHECK(mpgpu_gcd_first_moduli("lehmer", 32, 0, 16384, &n) == MPGPU_OK && n == 0, "lehmer");
    CHECK(mpgpu_gcd_max_bits(16, 0, &bits) == MPGPU_OK &&
              mpgpu_gcd_first_moduli("modular", 16, 0, bits + 1000, &n) == MPGPU_OK && n == 0,
          "past the 16-bit table: %llu", (unsigned long long)n);
    CHECK(mpgpu_gcd_first_moduli("gpu", 32, 0, 16384, &n) == MPGPU_ERR_UNKNOWN_METHOD, "gpu");
    CHECK(mpgpu_gcd_first_moduli("modular", 12, 0, 16384, &n) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "first moduli L 12");
    CHECK(mpgpu_gcd_first_moduli("modular", 32, 0, 16384, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "first moduli NULL");

    char name[64];
    CHECK(mpgpu_gcd_moduli_cache_name(32, 0, name, sizeof name) == MPGPU_OK &&
              !strcmp(name, "gcd_moduli_L32_cheap.bin"), "cache name '%s'", name);
    CHECK(mpgpu_gcd_moduli_cache_name(17, 1, name, sizeof name) == MPGPU_OK &&
              !strcmp(name, "gcd_moduli_L17_all.bin"), "cache name '%s'", name);
    CHECK(mpgpu_gcd_moduli_cache_name(32, 0, name, 8) == MPGPU_ERR_BAD_ARGUMENT, "short buffer");
    CHECK(mpgpu_gcd_moduli_cache_name(32, 0, NULL, 64) == MPGPU_ERR_BAD_ARGUMENT, "NULL buffer");
    CHECK(mpgpu_gcd_moduli_cache_name(8, 0, name, 64) == MPGPU_ERR_UNSUPPORTED_SIZE, "L 8");
}

/* The cache: sieved and written, read back the same, a damaged file sieved again and said so,
 * no path: sieved, nothing written. */
static void test_moduli_create(void)
{
    char dir[] = "/tmp/test_mpgpu_gcd_api_XXXXXX", path[128], why[1024];
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(path, sizeof path, "%s/gcd_moduli_L18_cheap.bin", dir);
    mpgpu_gcd_moduli *m = NULL, *again = NULL;
    mpgpu_gcd_moduli_source src;
    CHECK(mpgpu_gcd_moduli_create(18, 0, path, &m, &src, why, sizeof why) == MPGPU_OK &&
              src == MPGPU_GCD_MODULI_SIEVED_CACHED && access(path, R_OK) == 0,
          "sieved into the cache: source %d, why '%s'", (int)src, why);
    CHECK(strstr(why, "building the 18-bit cheap moduli") != NULL, "why a missing cache: '%s'",
          why);
    unsigned L = 0;
    int all = -1;
    uint64_t count = 0;
    CHECK(mpgpu_gcd_moduli_get(m, &L, &all, &count) == MPGPU_OK && L == 18 && all == 0 &&
              count == gcd_moduli_count(18, GCD_FILTER_CHEAP),
          "get: L %u all %d count %llu", L, all, (unsigned long long)count);
    CHECK(mpgpu_gcd_moduli_create(18, 0, path, &again, &src, why, sizeof why) == MPGPU_OK &&
              src == MPGPU_GCD_MODULI_CACHE_READ && why[0] == '\0',
          "read back: source %d, why '%s'", (int)src, why);
    mpgpu_gcd_moduli_destroy(again);
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL, "open the cache");
    if (f) {
        fseek(f, 60, SEEK_SET);
        fputc(0x5a ^ fgetc(f), f);
        fclose(f);
    }
    CHECK(mpgpu_gcd_moduli_create(18, 0, path, &again, &src, why, sizeof why) == MPGPU_OK &&
              src == MPGPU_GCD_MODULI_SIEVED_CACHED && strstr(why, path) != NULL,
          "a damaged cache is sieved again: source %d, why '%s'", (int)src, why);
    mpgpu_gcd_moduli_destroy(again);
    CHECK(mpgpu_gcd_moduli_create(16, 1, NULL, &again, &src, NULL, 0) == MPGPU_OK &&
              src == MPGPU_GCD_MODULI_SIEVED, "no cache path: source %d", (int)src);
    mpgpu_gcd_moduli_destroy(again);
    mpgpu_gcd_moduli_destroy(m);
    mpgpu_gcd_moduli_destroy(NULL);
    unlink(path);
    rmdir(dir);

    CHECK(mpgpu_gcd_moduli_create(15, 0, NULL, &m, &src, NULL, 0) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "create L 15");
    CHECK(mpgpu_gcd_moduli_create(16, 0, NULL, NULL, &src, NULL, 0) == MPGPU_ERR_BAD_ARGUMENT,
          "create NULL out");
    CHECK(mpgpu_gcd_moduli_create(16, 0, NULL, &m, NULL, NULL, 0) == MPGPU_ERR_BAD_ARGUMENT,
          "create NULL source");
    CHECK(mpgpu_gcd_moduli_create(16, 0, NULL, &m, &src, NULL, 8) == MPGPU_ERR_BAD_ARGUMENT,
          "create NULL why of 8 bytes");
    CHECK(mpgpu_gcd_moduli_get(NULL, &L, &all, &count) == MPGPU_ERR_BAD_ARGUMENT, "get NULL");
}

/* Options, sizing and plans: every argument error before any CUDA call. */
static void test_plans(const mpgpu_gcd_moduli *m)
{
    const mpgpu_gcd_options modular = {.method = "modular"}, kary = {.method = "kary"},
                            lehmer = {.method = "lehmer"};
    CHECK(mpgpu_gcd_check(&modular, m) == MPGPU_OK, "modular");
    CHECK(mpgpu_gcd_check(&kary, m) == MPGPU_OK, "kary");
    CHECK(mpgpu_gcd_check(&lehmer, NULL) == MPGPU_OK, "lehmer");
    const char *barriers[] = {"coop", "cluster", "custom"}, *inverses[] = {"euclid", "fermat"};
    for (int b = 0; b < 3; b++)
        for (int i = 0; i < 2; i++) {
            const mpgpu_gcd_options o = {.method = "modular", .barrier = barriers[b],
                                         .inverse = inverses[i], .min_per_thread = 4,
                                         .percent_remainder = 1};
            CHECK(mpgpu_gcd_check(&o, m) == MPGPU_OK, "modular %s %s", barriers[b], inverses[i]);
        }
    const struct {
        mpgpu_gcd_options o;
        int with_moduli;
        mpgpu_status want;
        const char *what;
    } bad[] = {
        {{.method = NULL}, 1, MPGPU_ERR_BAD_ARGUMENT, "no method"},
        {{.method = "gpu"}, 1, MPGPU_ERR_UNKNOWN_METHOD, "unknown method"},
        {{.method = "modular", .barrier = "auto"}, 1, MPGPU_ERR_BAD_ARGUMENT, "barrier auto"},
        {{.method = "modular", .inverse = "newton"}, 1, MPGPU_ERR_BAD_ARGUMENT, "inverse"},
        {{.method = "modular", .min_per_thread = 3}, 1, MPGPU_ERR_BAD_ARGUMENT, "3 a thread"},
        {{.method = "modular", .min_per_thread = 16}, 1, MPGPU_ERR_BAD_ARGUMENT, "16 a thread"},
        {{.method = "modular"}, 0, MPGPU_ERR_BAD_ARGUMENT, "modular without moduli"},
        {{.method = "kary"}, 0, MPGPU_ERR_BAD_ARGUMENT, "kary without moduli"},
        {{.method = "kary", .barrier = "coop"}, 1, MPGPU_ERR_BAD_ARGUMENT, "kary barrier"},
        {{.method = "kary", .inverse = "fermat"}, 1, MPGPU_ERR_BAD_ARGUMENT, "kary inverse"},
        {{.method = "kary", .percent_remainder = 1}, 1, MPGPU_ERR_BAD_ARGUMENT, "kary %"},
        {{.method = "lehmer"}, 1, MPGPU_ERR_BAD_ARGUMENT, "lehmer with moduli"},
        {{.method = "lehmer", .min_per_thread = 2}, 0, MPGPU_ERR_BAD_ARGUMENT, "lehmer k"},
    };
    uint64_t bytes;
    size_t count;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const mpgpu_gcd_moduli *mm = bad[i].with_moduli ? m : NULL;
        mpgpu_gcd_plan *plan = (mpgpu_gcd_plan *)&bytes;
        CHECK(mpgpu_gcd_check(&bad[i].o, mm) == bad[i].want, "check: %s", bad[i].what);
        CHECK(mpgpu_gcd_plan_create(&bad[i].o, mm, &plan) == bad[i].want, "plan: %s",
              bad[i].what);
        CHECK(mpgpu_gcd_workspace_bytes(&bad[i].o, mm, 4096, &bytes) == bad[i].want,
              "workspace: %s", bad[i].what);
        CHECK(mpgpu_gcd_max_count(&bad[i].o, mm, 4096, 1u << 30, &count) == bad[i].want,
              "max count: %s", bad[i].what);
    }
    CHECK(mpgpu_gcd_check(NULL, m) == MPGPU_ERR_BAD_ARGUMENT, "NULL options");
    CHECK(mpgpu_gcd_plan_create(&modular, m, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL plan");

    /* Sizing: the drivers' own formulas, and the caller's buffers on top. */
    size_t n_q = 0;
    uint64_t count32;
    mpgpu_gcd_moduli_get(m, NULL, NULL, &count32);
    gcd_modular_nq(65536, 32, GCD_BLOCK_THREADS, count32, &n_q);
    CHECK(mpgpu_gcd_workspace_bytes(&modular, m, 65536, &bytes) == MPGPU_OK &&
              bytes == gcd_device_bytes(n_q, 2048), "modular workspace %llu",
          (unsigned long long)bytes);
    CHECK(mpgpu_gcd_workspace_bytes(&lehmer, NULL, 65536, &bytes) == MPGPU_OK &&
              bytes == gcd_lehmer_device_bytes(2048), "lehmer workspace %llu",
          (unsigned long long)bytes);
    uint64_t all = 0;
    CHECK(mpgpu_gcd_device_bytes(&lehmer, NULL, 65536, 10, &all) == MPGPU_OK &&
              all == bytes + 10 * 3 * 2048 * 4, "lehmer with 10 pairs %llu",
          (unsigned long long)all);
    CHECK(mpgpu_gcd_max_count(&lehmer, NULL, 65536, all, &count) == MPGPU_OK && count == 10,
          "10 pairs fit in their own bytes: %zu", count);
    CHECK(mpgpu_gcd_max_count(&lehmer, NULL, 65536, all - 1, &count) == MPGPU_OK && count == 9,
          "one byte less: %zu", count);
    CHECK(mpgpu_gcd_max_count(&lehmer, NULL, 65536, 100, &count) == MPGPU_OK && count == 0,
          "100 bytes: %zu", count);
    CHECK(mpgpu_gcd_workspace_bytes(&lehmer, NULL, 0, &bytes) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "0 bits");
    CHECK(mpgpu_gcd_workspace_bytes(&lehmer, NULL, (UINT64_C(1) << 30) + 32, &bytes) ==
              MPGPU_ERR_UNSUPPORTED_SIZE, "2^30 + 32 bits");
    CHECK(mpgpu_gcd_workspace_bytes(&lehmer, NULL, 4096, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "NULL bytes");
    CHECK(mpgpu_gcd_device_bytes(&lehmer, NULL, 4096, SIZE_MAX, &bytes) == MPGPU_ERR_BAD_ARGUMENT,
          "a count that overflows");
    CHECK(mpgpu_gcd_max_count(&lehmer, NULL, 4096, 1u << 30, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "NULL count");

    const char *name = NULL;
    CHECK(mpgpu_gcd_auto_barrier(m, 16384, &name) == MPGPU_OK && !strcmp(name, "cluster"),
          "auto at 16 Kibit: %s", name ? name : "(null)");
    CHECK(mpgpu_gcd_auto_barrier(m, 32768, &name) == MPGPU_OK && !strcmp(name, "coop"),
          "auto at 32 Kibit: %s", name ? name : "(null)");
    CHECK(mpgpu_gcd_auto_barrier(NULL, 32768, &name) == MPGPU_ERR_BAD_ARGUMENT, "auto NULL");

    /* The plan-less calls: a NULL plan, sizes, pointers, overlaps; count 0. */
    uint32_t a[8] = {0}, b[8] = {0}, g[8];
    uint8_t un[2];
    mpgpu_gcd_stats stats;
    CHECK(mpgpu_gcd_host(NULL, 1, a, 1, b, 1, g, un) == MPGPU_ERR_BAD_ARGUMENT, "NULL plan");
    CHECK(mpgpu_gcd_device(NULL, 1, a, 1, b, 1, g, un, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "NULL plan (device)");
    CHECK(mpgpu_gcd_plan_stats(NULL, &stats) == MPGPU_ERR_BAD_ARGUMENT, "stats of NULL");
    CHECK(mpgpu_gcd_plan_reset_stats(NULL) == MPGPU_ERR_BAD_ARGUMENT, "reset NULL");
    mpgpu_gcd_plan_destroy(NULL);
}

/* The pair calls' own checks, on a plan that was never made on a GPU (the checks come first,
 * so its fields are never read): a stand-in pointer. */
static void test_pair_checks(void)
{
    uint64_t storage[4];
    mpgpu_gcd_plan *plan = (mpgpu_gcd_plan *)storage;
    uint32_t a[8] = {0}, b[8] = {0}, g[8];
    uint8_t un[4];
    CHECK(mpgpu_gcd_host(plan, 1, a, 0, b, 1, g, un) == MPGPU_ERR_UNSUPPORTED_SIZE, "a_words 0");
    CHECK(mpgpu_gcd_host(plan, 1, a, 1, b, 0, g, un) == MPGPU_ERR_UNSUPPORTED_SIZE, "b_words 0");
    CHECK(mpgpu_gcd_host(plan, 1, a, (1u << 25) + 1, b, 1, g, un) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "2^25 + 1 words");
    CHECK(mpgpu_gcd_host(plan, SIZE_MAX / 2, a, 4, b, 4, g, un) == MPGPU_ERR_BAD_ARGUMENT,
          "a count that overflows");
    CHECK(mpgpu_gcd_host(plan, 1, NULL, 1, b, 1, g, un) == MPGPU_ERR_BAD_ARGUMENT, "NULL a");
    CHECK(mpgpu_gcd_host(plan, 1, a, 1, NULL, 1, g, un) == MPGPU_ERR_BAD_ARGUMENT, "NULL b");
    CHECK(mpgpu_gcd_host(plan, 1, a, 1, b, 1, NULL, un) == MPGPU_ERR_BAD_ARGUMENT, "NULL g");
    CHECK(mpgpu_gcd_host(plan, 1, a, 1, b, 1, g, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "NULL unresolved");
    CHECK(mpgpu_gcd_host(plan, 2, a, 2, b, 2, a + 2, un) == MPGPU_ERR_BAD_ARGUMENT,
          "g overlaps a");
    CHECK(mpgpu_gcd_host(plan, 2, a, 1, b, 3, b + 5, un) == MPGPU_ERR_BAD_ARGUMENT,
          "g overlaps b (g of b's width)");
    CHECK(mpgpu_gcd_host(plan, 2, a, 2, b, 2, g, (uint8_t *)(g + 1)) == MPGPU_ERR_BAD_ARGUMENT,
          "unresolved overlaps g");
    CHECK(mpgpu_gcd_device(plan, 1, a, 1, b, 1, a, un, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "device: g is a");
    CHECK(mpgpu_gcd_device(plan, 1, a, 0, b, 1, g, un, NULL) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "device: a_words 0");
    CHECK(mpgpu_gcd_host(plan, 0, NULL, 1, NULL, 1, NULL, NULL) == MPGPU_OK, "count 0");
    CHECK(mpgpu_gcd_device(plan, 0, NULL, 3, NULL, 1, NULL, NULL, NULL) == MPGPU_OK,
          "count 0 (device)");
}

int main(void)
{
    seed = test_seed();
    test_methods();
    test_moduli_sizes();
    test_moduli_create();
    mpgpu_gcd_moduli *m = NULL;
    mpgpu_gcd_moduli_source src;
    CHECK(mpgpu_gcd_moduli_create(32, 0, NULL, &m, &src, NULL, 0) == MPGPU_OK, "L 32 moduli");
    if (m)
        test_plans(m);
    mpgpu_gcd_moduli_destroy(m);
    test_pair_checks();
    return test_finish("test_mpgpu_gcd_api");
}
