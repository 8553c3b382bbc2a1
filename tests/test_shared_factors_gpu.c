/* gpu suite: the shared-factor search's tree-gpu method through libmpgpu (mpgpu.h), against the
 * all-pairs twin (cpu_ref/shared_factors_pairs.c) and tree-cpu, g_i for g_i:
 * - RSA-like sets of --make-moduli's generator with every plant, 256 to 4096 bits, counts that
 *   make full trees and odd levels (the pad node), and 2^12 + 1; two moduli sharing a prime;
 * - moduli carried in more words than they need (zero top words) and 2048-bit moduli that fill
 *   their 64 words (the GPU's leaves take 65);
 * - progress: every step counted once, the last call at the total; a progress function that
 *   asks to stop gets MPGPU_ERR_CANCELLED, and the next search runs whole.
 * Exits 77 without a GPU. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpgpu.h"
#include "mpz_arrays.h"
#include "planted_moduli.h"
#include "shared_factors_pairs.h"
#include "test_seed.h"
#define TEST_PROGRAM "test_shared_factors_gpu"
#include "test_mpgpu_cuda.h"

struct progress_log {
    uint64_t calls, last_done, total, stop_at;
    int backwards;
};

static int log_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct progress_log *p = ctx;
    p->backwards |= done < p->last_done || (p->calls && total != p->total);
    p->calls++;
    p->last_done = done;
    p->total = total;
    return p->stop_at && p->calls >= p->stop_at;
}

/* Levels of the tree of n leaves: ceil(log2 n). */
static unsigned depth_of(size_t n)
{
    unsigned d = 0;
    while (((size_t)1 << d) < n)
        d++;
    return d;
}

/* tree-gpu's g_i of N (carried in `words` words each) against the twin's and tree-cpu's. */
static void check_set(const char *what, size_t n, mpz_t *N, size_t words)
{
    uint32_t *w = calloc(n * words, 4), *g = calloc(n * words, 4), *g_cpu = calloc(n * words, 4);
    for (size_t i = 0; i < n; i++)
        mpz_export(w + i * words, NULL, -1, 4, 0, 0, N[i]);
    struct progress_log log = {0};
    mpgpu_shared_factors_options o = {.method = "tree-gpu", .progress = log_progress,
                                      .progress_ctx = &log};
    mpgpu_status st = mpgpu_shared_factors_gcds(&o, n, w, words, g);
    CHECK(st == MPGPU_OK, "%s: tree-gpu: %s", what, mpgpu_status_string(st));
    const uint64_t steps = n * (2 * (uint64_t)depth_of(n) + 1);
    CHECK(!log.backwards && log.calls > 0 && log.total == steps && log.last_done == steps,
          "%s: progress of %llu calls ended at %llu of %llu (want %llu), backwards %d", what,
          (unsigned long long)log.calls, (unsigned long long)log.last_done,
          (unsigned long long)log.total, (unsigned long long)steps, log.backwards);
    o = (mpgpu_shared_factors_options){.method = "tree-cpu"};
    CHECK(mpgpu_shared_factors_gcds(&o, n, w, words, g_cpu) == MPGPU_OK, "%s: tree-cpu", what);
    mpz_t got, want;
    mpz_inits(got, want, NULL);
    size_t bad = 0, first = n, related = 0;
    for (size_t i = 0; i < n && st == MPGPU_OK; i++) {
        mpz_import(got, words, -1, 4, 0, 0, g + i * words);
        shared_factors_pairs_g(n, (const mpz_t *)N, i, want);
        related += mpz_cmp_ui(want, 1) != 0;
        if (mpz_cmp(got, want) != 0 || memcmp(g + i * words, g_cpu + i * words, words * 4)) {
            first = bad++ ? first : i;
        }
    }
    CHECK(bad == 0, "%s: %zu of %zu g_i differ from the twin's or tree-cpu's, the first %zu",
          what, bad, n, first);
    CHECK(related > 0, "%s: no modulus shares a factor: the set tests nothing", what);
    mpz_clears(got, want, NULL);
    free(w);
    free(g);
    free(g_cpu);
}

static void planted(size_t n, unsigned bits, size_t extra_words)
{
    mpz_t *N = planted_moduli(n, bits, seed + n + bits);
    char what[96];
    snprintf(what, sizeof what, "%zu planted moduli of %u bits in %zu words", n, bits,
             bits / 32 + extra_words);
    check_set(what, n, N, bits / 32 + extra_words);
    mpz_array_free(N, n);
}

static void cancelled_then_whole(void)
{
    const size_t n = 3000;
    mpz_t *N = planted_moduli(n, 512, seed);
    uint32_t *w = calloc(n * 16, 4), *g = calloc(n * 16, 4);
    for (size_t i = 0; i < n; i++)
        mpz_export(w + i * 16, NULL, -1, 4, 0, 0, N[i]);
    struct progress_log log = {.stop_at = 1};
    const mpgpu_shared_factors_options o = {.method = "tree-gpu", .progress = log_progress,
                                            .progress_ctx = &log};
    const mpgpu_status st = mpgpu_shared_factors_gcds(&o, n, w, 16, g);
    CHECK(st == MPGPU_ERR_CANCELLED, "stopped at the first progress call: %s",
          mpgpu_status_string(st));
    free(w);
    free(g);
    check_set("3000 moduli of 512 bits after a cancelled search", n, N, 16);
    mpz_array_free(N, n);
}

int main(void)
{
    seed = test_seed();
    const int skip = test_cuda_skip();
    if (skip)
        return skip;
    /* Two moduli sharing a prime. */
    mpz_t *two = mpz_array_new(2);
    mpz_set_str(two[0], "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffb", 16);
    mpz_mul_ui(two[1], two[0], 1000003);
    mpz_mul_ui(two[0], two[0], 999983);
    check_set("two moduli sharing a prime", 2, two, 9);
    mpz_array_free(two, 2);
    const size_t counts[] = {16, 17, 100, 301, 4097};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        planted(counts[c], 256, 0);
    planted(300, 1024, 3);
    planted(300, 2048, 0);
    planted(129, 4096, 1);
    cancelled_then_whole();
    return test_finish("test_shared_factors_gpu");
}
