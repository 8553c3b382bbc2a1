/* What the gpu suite's two GCD programs share (test_gcd_gpu.c, Fig. 2's kernel, and
 * test_gcd_kary_gpu.c, the k-ary kernel): the random state, the count of runs that retried, the
 * report of a failed CUDA call, and issue 10's cases (gcd_cases.h) with the retries from too few
 * moduli and large pairs with a planted factor, and the three sets of moduli both run on, built
 * at the start and freed at the end. Each program defines the two functions declared
 * below before it calls these. */
#ifndef MPGPU_TESTS_GCD_GPU_CASES_H
#define MPGPU_TESTS_GCD_GPU_CASES_H

#include <stdbool.h>
#include <stdio.h>

#include "gcd_cases.h"
#include "gcd_device.h"
#include "gcd_moduli.h"
#include "test_gpu.h"
#include "test_seed.h"

static gmp_randstate_t rng;
static int retried_runs;

/* The method or barrier the device runs, for messages. */
static const char *method_label(const struct gcd_device *d);

/* gcd(a, b) on the GPU from first_nq moduli (0: the formula) against mpz_gcd; with `twin`, also
 * against the CPU twin step for step. Adds to retried_runs when the GPU retried. */
static void check_gcd(struct gcd_device *d, const mpz_t a, const mpz_t b, size_t first_nq,
                      bool twin, const char *what);

/* The CUDA call that failed, once, and the case counts as failed. */
static bool cuda_ok(const struct gcd_device *d, cudaError_t err, const char *what)
{
    if (err == cudaSuccess)
        return true;
    check_outcome(false);
    printf("FAIL (seed %llu) %s %s: CUDA call %s failed: %s\n", (unsigned long long)seed,
           method_label(d), what, d->failed_call ? d->failed_call : "?", cudaGetErrorString(err));
    cudaGetLastError();
    return false;
}

static void gpu_case(void *d, const mpz_t a, const mpz_t b, const char *what)
{
    check_gcd(d, a, b, 0, true, what);
}

/* Every case of issue 10's list at size n (bits, gcd_cases.h), each also against the twin. */
static void check_cases(struct gcd_device *d, unsigned n)
{
    const uint32_t q[3] = {d->M->q[0], d->M->q[1], d->M->q[5]};
    gcd_cases(rng, n, 2, 8, q, gpu_case, d);
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    /* Too few moduli: the retries must reach the answer, as the twin's do. */
    for (size_t first = 1; first <= 8; first *= 2) {
        gcd_case_bits(a, rng, 2048);
        gcd_case_bits(b, rng, 2048);
        const int before = retried_runs;
        check_gcd(d, a, b, first, true, "shortage then retry");
        CHECK(retried_runs == before + 1, "%s: %zu moduli for 2048 bits did not retry",
              method_label(d), first);
    }
    mpz_clears(a, b, NULL);
}

/* A pair of `bits` with a planted factor of common_bits, against mpz_gcd only (the twin would
 * take minutes at the large sizes). */
static void check_large(struct gcd_device *d, unsigned bits, unsigned common_bits)
{
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    gcd_case_planted(a, b, rng, bits - common_bits, 1, common_bits);
    check_gcd(d, a, b, 0, false, "large pair");
    mpz_clears(a, b, NULL);
}

/* The moduli both programs run on: L = 32 of the cheap remainder (the default), L = 16 through
 * the exact path (every prime), and L = 16 of the cheap remainder. */
struct gcd_test_moduli {
    struct gcd_moduli cheap32, all16, cheap16;
};

/* The seed, the GPU and the random state, then the moduli: returns 0, 77 without a GPU (the
 * program returns it, as the gpu suite's programs do), or 1 when host memory runs out. */
static int gcd_gpu_start(struct gcd_test_moduli *m)
{
    seed = test_seed();
    if (test_gpu_open() != 0)
        return 77;
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, (unsigned long)seed);
    if (gcd_moduli_build(&m->cheap32, 32, GCD_FILTER_CHEAP) != 0 ||
        gcd_moduli_build(&m->all16, 16, GCD_FILTER_ALL) != 0 ||
        gcd_moduli_build(&m->cheap16, 16, GCD_FILTER_CHEAP) != 0) {
        printf("cannot build the moduli (host memory)\n");
        return 1;
    }
    return 0;
}

/* The retry count, everything gcd_gpu_start made freed, and the program's verdict. */
static int gcd_gpu_finish(struct gcd_test_moduli *m, const char *program)
{
    printf("%d runs needed a retry\n", retried_runs);
    gcd_moduli_free(&m->cheap32);
    gcd_moduli_free(&m->all16);
    gcd_moduli_free(&m->cheap16);
    gmp_randclear(rng);
    return test_finish(program);
}

#endif
