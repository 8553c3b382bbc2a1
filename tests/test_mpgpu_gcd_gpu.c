/* gpu suite: libmpgpu's GCDs of pairs (mpgpu.h) against GMP's mpz_gcd, every method (modular
 * with every barrier and inverse, kary, lehmer) through mpgpu_gcd_host and through
 * mpgpu_gcd_device on a stream of the caller's: seeded random pairs, pairs with a planted common
 * factor, zeros, ones, equal numbers, unequal lengths, and a batch of more pairs than one call
 * of the drivers' first launch serves. A pair the table of moduli is too small for (L = 16 at
 * a size past its reach) must come back unresolved, with its GCD zero. Exits 77 without a GPU. */
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpgpu.h"
#include "random_words.h"
#include "test_seed.h"
#define TEST_PROGRAM "test_mpgpu_gcd_gpu"
#include "test_mpgpu_cuda.h"

/* A batch: count pairs, A of a_words and B of b_words words. */
struct batch {
    size_t count, a_words, b_words;
    uint32_t *a, *b;
};

static size_t g_words_of(const struct batch *p)
{
    return p->a_words > p->b_words ? p->a_words : p->b_words;
}

/* Pair i: random words from the seed, cut to a random length in its slot; every fifth shares a
 * planted factor F; the first few are the worst cases: zeros, ones, equal numbers, A = F B. */
static void make_batch(struct batch *p, size_t count, size_t a_words, size_t b_words,
                       uint64_t stream)
{
    *p = (struct batch){count, a_words, b_words, calloc(count * a_words, 4),
                        calloc(count * b_words, 4)};
    mpz_t x, y, f;
    mpz_inits(x, y, f, NULL);
    uint32_t *w = malloc(4 * (a_words + b_words));
    for (size_t i = 0; i < count; i++) {
        random_words(seed, stream * 1000003 + i, w, a_words + b_words);
        const size_t la = 1 + w[0] % a_words, lb = 1 + w[1] % b_words;
        mpz_import(x, la, -1, 4, 0, 0, w);
        mpz_import(y, lb, -1, 4, 0, 0, w + a_words);
        if (i % 5 == 4) {
            const size_t lf = 1 + w[2] % (la < lb ? la : lb);
            mpz_import(f, lf, -1, 4, 0, 0, w + 3);
            mpz_setbit(f, 0);
            mpz_tdiv_q_2exp(x, x, 32 * lf);
            mpz_tdiv_q_2exp(y, y, 32 * lf);
            mpz_mul(x, x, f);
            mpz_mul(y, y, f);
        }
        switch (i) {
        case 0: mpz_set_ui(x, 0); break;
        case 1: mpz_set_ui(y, 0); break;
        case 2: mpz_set_ui(x, 0); mpz_set_ui(y, 0); break;
        case 3: mpz_set_ui(x, 1); break;
        case 4: mpz_set_ui(y, 1); break;
        case 5: mpz_set(x, y); break;
        case 6: mpz_set_ui(x, 1); mpz_set_ui(y, 1); break;
        default: break;
        }
        mpz_tdiv_r_2exp(x, x, 32 * a_words);
        mpz_tdiv_r_2exp(y, y, 32 * b_words);
        mpz_export(p->a + i * a_words, NULL, -1, 4, 0, 0, x);
        mpz_export(p->b + i * b_words, NULL, -1, 4, 0, 0, y);
    }
    free(w);
    mpz_clears(x, y, f, NULL);
}

static void free_batch(struct batch *p)
{
    free(p->a);
    free(p->b);
}

/* Counts the GCDs of g that differ from mpz_gcd's (an unresolved pair must be zero and is
 * counted in *unresolved_pairs). */
static void check_batch(const char *what, const struct batch *p, const uint32_t *g,
                        const uint8_t *unresolved, size_t *unresolved_pairs)
{
    mpz_t x, y, want, got;
    mpz_inits(x, y, want, got, NULL);
    const size_t gw = g_words_of(p);
    size_t bad = 0;
    for (size_t i = 0; i < p->count; i++) {
        mpz_import(x, p->a_words, -1, 4, 0, 0, p->a + i * p->a_words);
        mpz_import(y, p->b_words, -1, 4, 0, 0, p->b + i * p->b_words);
        mpz_import(got, gw, -1, 4, 0, 0, g + i * gw);
        mpz_gcd(want, x, y);
        if (unresolved[i]) {
            CHECK(mpz_sgn(got) == 0, "%s: pair %zu unresolved but its GCD is not zero", what, i);
            (*unresolved_pairs)++;
            continue;
        }
        checks++;
        if (mpz_cmp(want, got) != 0) {
            failures++;
            if (bad++ == 0)
                gmp_printf("FAIL (seed %llu) %s: pair %zu: GCD %Zx, GMP %Zx\n",
                           (unsigned long long)seed, what, i, got, want);
        }
    }
    mpz_clears(x, y, want, got, NULL);
}

/* One plan on one batch, on host buffers and on device buffers with the caller's stream. */
static void test_plan(const char *what, const mpgpu_gcd_options *o, const mpgpu_gcd_moduli *m,
                      const struct batch *p, cudaStream_t stream, size_t *unresolved_pairs)
{
    mpgpu_gcd_plan *plan = NULL;
    mpgpu_status st = mpgpu_gcd_plan_create(o, m, &plan);
    if (st != MPGPU_OK) {
        mpgpu_error_info info;
        mpgpu_last_error(&info);
        if (info.cuda_error == cudaErrorNotSupported) {
            printf("%s: not applicable here (%s)\n", what, info.cuda_call);
            not_applicable++;
            return;
        }
        CHECK(0, "%s: plan: %s (%s)", what, mpgpu_status_string(st), info.cuda_call);
        return;
    }
    const size_t gw = g_words_of(p);
    uint32_t *g = malloc(p->count * gw * 4);
    uint8_t *un = malloc(p->count);
    memset(g, 0xA5, p->count * gw * 4);
    char label[160];
    snprintf(label, sizeof label, "%s host", what);
    CHECK(mpgpu_gcd_host(plan, p->count, p->a, p->a_words, p->b, p->b_words, g, un) == MPGPU_OK,
          "%s", label);
    check_batch(label, p, g, un, unresolved_pairs);
    mpgpu_gcd_stats s;
    CHECK(mpgpu_gcd_plan_stats(plan, &s) == MPGPU_OK && s.pairs == p->count &&
              (s.kernel_ms > 0 || s.pairs == s.unresolved),
          "%s: stats: %llu pairs, %.3f ms", label, (unsigned long long)s.pairs, s.kernel_ms);

    uint32_t *da, *db, *dg;
    CUDA_OK(cudaMalloc((void **)&da, p->count * p->a_words * 4));
    CUDA_OK(cudaMalloc((void **)&db, p->count * p->b_words * 4));
    CUDA_OK(cudaMalloc((void **)&dg, p->count * gw * 4));
    CUDA_OK(cudaMemcpyAsync(da, p->a, p->count * p->a_words * 4, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaMemcpyAsync(db, p->b, p->count * p->b_words * 4, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaMemsetAsync(dg, 0xA5, p->count * gw * 4, stream));
    CHECK(mpgpu_gcd_plan_reset_stats(plan) == MPGPU_OK, "%s: reset", what);
    snprintf(label, sizeof label, "%s device", what);
    CHECK(mpgpu_gcd_device(plan, p->count, da, p->a_words, db, p->b_words, dg, un, stream) ==
              MPGPU_OK, "%s", label);
    CUDA_OK(cudaMemcpyAsync(g, dg, p->count * gw * 4, cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    size_t device_unresolved = 0;
    check_batch(label, p, g, un, &device_unresolved);
    CHECK(mpgpu_gcd_plan_stats(plan, &s) == MPGPU_OK && s.pairs == p->count &&
              s.unresolved == device_unresolved, "%s: stats after reset", label);
    CUDA_OK(cudaFree(da));
    CUDA_OK(cudaFree(db));
    CUDA_OK(cudaFree(dg));
    free(g);
    free(un);
    mpgpu_gcd_plan_destroy(plan);
}

int main(void)
{
    seed = test_seed();
    if (test_cuda_skip())
        return 77;
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    mpgpu_gcd_moduli *m = NULL, *small = NULL;
    mpgpu_gcd_moduli_source src;
    CHECK(mpgpu_gcd_moduli_create(32, 0, NULL, &m, &src, NULL, 0) == MPGPU_OK, "L 32 moduli");
    CHECK(mpgpu_gcd_moduli_create(16, 0, NULL, &small, &src, NULL, 0) == MPGPU_OK,
          "L 16 moduli");
    if (!m || !small)
        return test_finish("test_mpgpu_gcd_gpu");

    /* 40 pairs of up to 1024 and 640 bits (unequal slots), and 12 of up to 8 Kibit. */
    struct batch small_pairs, large_pairs;
    make_batch(&small_pairs, 40, 32, 20, 1);
    make_batch(&large_pairs, 12, 256, 256, 2);
    static const char *const barriers[] = {"coop", "cluster", "custom"};
    static const char *const inverses[] = {"euclid", "fermat"};
    size_t unresolved = 0;
    for (int bi = 0; bi < 3; bi++)
        for (int ii = 0; ii < 2; ii++) {
            const mpgpu_gcd_options o = {.method = "modular", .barrier = barriers[bi],
                                         .inverse = inverses[ii]};
            char what[64];
            snprintf(what, sizeof what, "modular %s %s", barriers[bi], inverses[ii]);
            test_plan(what, &o, m, &small_pairs, stream, &unresolved);
            test_plan(what, &o, m, &large_pairs, stream, &unresolved);
        }
    const mpgpu_gcd_options kary = {.method = "kary"}, lehmer = {.method = "lehmer"},
                            streamed = {.method = "modular", .min_per_thread = 8};
    test_plan("kary", &kary, m, &small_pairs, stream, &unresolved);
    test_plan("kary", &kary, m, &large_pairs, stream, &unresolved);
    test_plan("modular 8 a thread", &streamed, m, &large_pairs, stream, &unresolved);
    test_plan("lehmer", &lehmer, NULL, &small_pairs, stream, &unresolved);
    test_plan("lehmer", &lehmer, NULL, &large_pairs, stream, &unresolved);
    CHECK(unresolved == 0, "%zu pairs unresolved with the 32-bit moduli", unresolved);

    /* Past the reach of the 16-bit table (2099 moduli): every pair of 2^17 bits but the worst
     * cases with a zero or a one is unresolved, and flagged so. */
    uint64_t max_bits = 0;
    CHECK(mpgpu_gcd_max_bits(16, 0, &max_bits) == MPGPU_OK && max_bits < 131072,
          "16-bit table reaches %llu bits", (unsigned long long)max_bits);
    struct batch huge;
    make_batch(&huge, 8, 4096, 4096, 3);
    size_t flagged = 0;
    const mpgpu_gcd_options modular = {.method = "modular"};
    test_plan("modular L 16 past its table", &modular, small, &huge, stream, &flagged);
    test_plan("kary L 16 past its table", &kary, small, &huge, stream, &flagged);
    CHECK(flagged > 0, "no pair flagged unresolved past the 16-bit table");
    free_batch(&huge);
    free_batch(&small_pairs);
    free_batch(&large_pairs);
    mpgpu_gcd_moduli_destroy(m);
    mpgpu_gcd_moduli_destroy(small);
    CUDA_OK(cudaStreamDestroy(stream));
    return test_finish("test_mpgpu_gcd_gpu");
}
