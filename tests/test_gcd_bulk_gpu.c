/* gpu suite: libmpgpu's bulk GCDs (mpgpu.h, "Bulk GCDs"; kernels/gcd_bulk.cu) against mpz_gcd.
 * Both methods, at word counts that reach every instantiated capacity (2 .. 256 words) and the
 * sizes between, 300 pairs a size (more than two blocks, not a multiple of the block), through
 * mpgpu_gcd_bulk_host (pair-major) and mpgpu_gcd_bulk_device (word-major, on the caller's
 * stream); the pairs: random, with a planted common factor, unequal lengths, zeros, ones,
 * equal numbers. Then the size checks and bad arguments. Exits 77 without a GPU. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcd_cases.h"
#include "mpgpu.h"
#include "test_seed.h"

#define TEST_PROGRAM "test_gcd_bulk_gpu"
#include "test_mpgpu_cuda.h"

#define PAIRS 300u

static gmp_randstate_t rng;
static const char *const methods[2] = {"bulk-lehmer", "bulk-binary"};

/* Pair p of `words` words: its kind by p (planted, unequal, zero, one, equal, random). */
static void make_pair(mpz_t a, mpz_t b, size_t p, unsigned words)
{
    const unsigned bits = 32 * words;
    mpz_t f;
    mpz_init(f);
    switch (p % 8) {
    case 0: /* a planted common factor of a third of the bits */
        gcd_case_bits(f, rng, bits / 3);
        gcd_case_bits(a, rng, bits - bits / 3);
        gcd_case_bits(b, rng, bits - bits / 3 - 1);
        mpz_mul(a, a, f);
        mpz_mul(b, b, f);
        break;
    case 1: /* unequal lengths */
        gcd_case_bits(a, rng, bits);
        gcd_case_bits(b, rng, 1 + (unsigned)gmp_urandomm_ui(rng, bits));
        break;
    case 2:
        gcd_case_bits(a, rng, bits);
        mpz_set_ui(b, p % 16 == 2 ? 0 : 1);
        break;
    case 3:
        mpz_set_ui(a, 0);
        gcd_case_bits(b, rng, p % 16 == 3 ? 0 : bits);
        break;
    case 4:
        gcd_case_bits(a, rng, bits);
        mpz_set(b, a);
        break;
    default:
        mpz_rrandomb(a, rng, bits);
        mpz_urandomb(b, rng, bits);
    }
    mpz_clear(f);
}

static void put(uint32_t *w, size_t stride, unsigned words, const mpz_t x)
{
    uint32_t tmp[256] = {0};
    mpz_export(tmp, NULL, -1, sizeof *tmp, 0, 0, x);
    for (unsigned j = 0; j < words; j++)
        w[j * stride] = tmp[j];
}

/* Pair p's GCD from g (stride as laid out) against want: whether equal. */
static bool matches(const uint32_t *g, size_t stride, unsigned words, const mpz_t want)
{
    uint32_t tmp[256];
    for (unsigned j = 0; j < words; j++)
        tmp[j] = g[j * stride];
    mpz_t got;
    mpz_init(got);
    mpz_import(got, words, -1, sizeof *tmp, 0, 0, tmp);
    const bool ok = mpz_cmp(got, want) == 0;
    mpz_clear(got);
    return ok;
}

static void check_size(unsigned words, cudaStream_t stream)
{
    const size_t n = (size_t)PAIRS * words;
    uint32_t *pm_a = calloc(n, 4), *pm_b = calloc(n, 4), *wm_a = calloc(n, 4),
             *wm_b = calloc(n, 4), *g = calloc(n, 4);
    mpz_t *want = malloc(PAIRS * sizeof *want), a, b;
    mpz_inits(a, b, NULL);
    for (size_t p = 0; p < PAIRS; p++) {
        make_pair(a, b, p, words);
        mpz_init(want[p]);
        mpz_gcd(want[p], a, b);
        put(pm_a + p * words, 1, words, a);
        put(pm_b + p * words, 1, words, b);
        put(wm_a + p, PAIRS, words, a);
        put(wm_b + p, PAIRS, words, b);
    }
    uint32_t *d_a, *d_b, *d_g;
    CUDA_OK(cudaMalloc((void **)&d_a, n * 4));
    CUDA_OK(cudaMalloc((void **)&d_b, n * 4));
    CUDA_OK(cudaMalloc((void **)&d_g, n * 4));
    CUDA_OK(cudaMemcpy(d_a, wm_a, n * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d_b, wm_b, n * 4, cudaMemcpyHostToDevice));
    for (int m = 0; m < 2; m++) {
        double ms = -1;
        memset(g, 0xff, n * 4);
        mpgpu_status st = mpgpu_gcd_bulk_host(methods[m], PAIRS, words, pm_a, pm_b, g, &ms);
        size_t bad = PAIRS;
        for (size_t p = 0; p < PAIRS && bad == PAIRS; p++)
            if (!matches(g + p * words, 1, words, want[p]))
                bad = p;
        CHECK(st == MPGPU_OK && bad == PAIRS && ms >= 0,
              "%s host, %u words: %s, first wrong pair %zu of %u", methods[m], words,
              mpgpu_status_string(st), bad, PAIRS);
        CUDA_OK(cudaMemsetAsync(d_g, 0xff, n * 4, stream));
        st = mpgpu_gcd_bulk_device(methods[m], PAIRS, words, d_a, d_b, d_g, stream);
        CUDA_OK(cudaStreamSynchronize(stream));
        CUDA_OK(cudaMemcpy(g, d_g, n * 4, cudaMemcpyDeviceToHost));
        bad = PAIRS;
        for (size_t p = 0; p < PAIRS && bad == PAIRS; p++)
            if (!matches(g + p, PAIRS, words, want[p]))
                bad = p;
        CHECK(st == MPGPU_OK && bad == PAIRS, "%s device, %u words: %s, first wrong pair %zu of %u",
              methods[m], words, mpgpu_status_string(st), bad, PAIRS);
    }
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_g);
    for (size_t p = 0; p < PAIRS; p++)
        mpz_clear(want[p]);
    mpz_clears(a, b, NULL);
    free(want);
    free(pm_a);
    free(pm_b);
    free(wm_a);
    free(wm_b);
    free(g);
}

int main(void)
{
    seed = test_seed();
    if (test_cuda_skip())
        return 77;
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, (unsigned long)seed);
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const unsigned sizes[] = {1, 2, 3, 4, 7, 8, 12, 16, 31, 32, 50, 64, 100, 128, 200, 256};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        check_size(sizes[i], stream);

    uint32_t x[4] = {0};
    CHECK(mpgpu_gcd_bulk_check("bulk-lehmer", 8192) == MPGPU_OK, "8192 bits");
    CHECK(mpgpu_gcd_bulk_check("bulk-binary", 8193) == MPGPU_ERR_UNSUPPORTED_SIZE, "8193 bits");
    CHECK(mpgpu_gcd_bulk_check("bulk", 64) == MPGPU_ERR_UNKNOWN_METHOD, "unknown method");
    CHECK(mpgpu_gcd_bulk_host("bulk-lehmer", 1, 257, x, x, x, NULL) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "257 words");
    CHECK(mpgpu_gcd_bulk_host("bulk-lehmer", 1, 1, x, x + 1, x + 1, NULL) ==
              MPGPU_ERR_BAD_ARGUMENT, "g overlapping b");
    CHECK(mpgpu_gcd_bulk_host("bulk-lehmer", 0, 1, NULL, NULL, NULL, NULL) == MPGPU_OK,
          "count 0");
    CUDA_OK(cudaStreamDestroy(stream));
    gmp_randclear(rng);
    return test_finish("test_gcd_bulk_gpu");
}
