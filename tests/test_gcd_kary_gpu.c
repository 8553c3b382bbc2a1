/* gpu suite: the k-ary modular GCD kernel (kernels/gcd_kary.cu, beyond 002) against mpz_gcd on
 * every case of issue 10's list (tests/gcd_cases.h), and against its CPU twin
 * (cpu_ref/gcd_kary_ref.c) step for step: for the same pair, the same first N_Q and the same
 * pairing group (the launch's warp of 32 K moduli), the GPU must make the same attempts,
 * reduction steps and mixed-radix digits. Also: retries from too few moduli, M running out
 * (GCD_TOO_LARGE, g untouched), L = 16 with the cheap and the exact remainder, every register
 * shape (K = 1, 2, 4, 8 moduli a thread), planted factors of 1000 and N/2 bits, and the sizes of
 * 002 Table 2 up to 352 Kibit; and the producer's half-Euclid, whose quotients come from float
 * estimates, against the host's divisions on 4 million inputs. Exits 77 (skipped) without a
 * GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcd_device.h"
#include "gcd_gpu_cases.h"
#include "gcd_kary_ref.h"
#include "gcd_moduli.h"
#include "gpu.h"
#include "test_gpu.h"
#include "test_seed.h"

static const char *method_label(const struct gcd_device *d)
{
    (void)d;
    return "kary";
}

/* gcd(a, b) on the GPU from first_nq moduli (0: the formula) against mpz_gcd; with `twin`, also
 * against the twin's attempts, N_Q, steps and digits with the launch's pairing group. */
static void check_gcd(struct gcd_device *d, const mpz_t a, const mpz_t b, size_t first_nq,
                      bool twin, const char *what)
{
    mpz_t g, e, t;
    mpz_inits(g, e, t, NULL);
    mpz_gcd(e, a, b);
    struct gcd_run run;
    if (!cuda_ok(d, gcd_device_gcd(d, g, a, b, first_nq, &run), what)) {
        mpz_clears(g, e, t, NULL);
        return;
    }
    CHECK(run.status == GCD_OK && mpz_cmp(g, e) == 0,
          "kary %s (L=%u %s, %zu and %zu bits, first N_Q %zu, K >= %u): status %d, %s GMP's", what,
          d->M->L, gcd_filter_name(d->M->filter), mpz_sizeinbase(a, 2), mpz_sizeinbase(b, 2),
          first_nq, d->min_per_thread, (int)run.status, mpz_cmp(g, e) ? "differs from" : "equal to");
    retried_runs += run.attempts > 1;
    if (twin && run.attempts > 0) {
        const size_t group = 32 * (size_t)gcd_kary_shapes[d->last.shape].per_thread;
        size_t first = first_nq;
        if (first == 0 && gcd_kary_nq(mpz_sizeinbase(a, 2) > mpz_sizeinbase(b, 2)
                                          ? mpz_sizeinbase(a, 2) : mpz_sizeinbase(b, 2),
                                      mpz_sizeinbase(a, 2) > mpz_sizeinbase(b, 2)
                                          ? mpz_sizeinbase(b, 2) : mpz_sizeinbase(a, 2),
                                      d->M->L, GCD_KARY_ROUND, d->M->count, &first) != GCD_OK)
            first = 0;
        struct gcd_run tr;
        struct gcd_kary_stats ts = {0};
        gcd_kary(t, a, b, d->M, group, first, &tr, &ts);
        CHECK(tr.attempts == run.attempts && tr.n_q == run.n_q && tr.steps == run.steps &&
                  tr.digits == run.digits && mpz_cmp(t, e) == 0,
              "kary %s (%zu bits): GPU %u attempts, N_Q %zu, %llu steps, %llu digits; twin %u, "
              "%zu, %llu, %llu",
              what, mpz_sizeinbase(a, 2), run.attempts, run.n_q, (unsigned long long)run.steps,
              (unsigned long long)run.digits, tr.attempts, tr.n_q, (unsigned long long)tr.steps,
              (unsigned long long)tr.digits);
    }
    mpz_clears(g, e, t, NULL);
}

/* The producer's half-Euclid (gcd_kary_vector's float quotients, on the GPU) against the same
 * function on the host, which divides: n inputs, p a modulus of M or any odd number of L bits,
 * t random, near p, small or near p/k (large first quotients), tb over [1, L] and mostly in
 * the float path's range (tb >= 12). */
static void check_vectors(const struct gcd_moduli *M, size_t n)
{
    const unsigned L = M->L;
    uint32_t *p = malloc(n * sizeof *p), *t = malloc(n * sizeof *t);
    int32_t *tb = malloc(n * sizeof *tb);
    int64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    void *dev[5] = {NULL};
    const size_t size[5] = {n * sizeof *p, n * sizeof *t, n * sizeof *tb, n * sizeof *x,
                            n * sizeof *y};
    bool ok = p && t && tb && x && y;
    for (int i = 0; i < 5 && ok; i++)
        ok = cudaMalloc(&dev[i], size[i]) == cudaSuccess;
    CHECK(ok, "kary vectors: cannot allocate %zu inputs", n);
    if (ok) {
        for (size_t i = 0; i < n; i++) {
            p[i] = i % 2 ? M->q[gmp_urandomm_ui(rng, M->count)]
                         : (uint32_t)(1ul << (L - 1) | gmp_urandomb_ui(rng, L - 1) | 1);
            const uint32_t r = (uint32_t)gmp_urandomb_ui(rng, 32);
            switch (i % 4) {
            case 0: t[i] = r % p[i]; break;
            case 1: t[i] = p[i] - 1 - r % 1000; break;
            case 2: t[i] = r % 100000; break;
            default: t[i] = p[i] / (1 + r % 5000) + r % 3; break;
            }
            t[i] = t[i] < p[i] ? t[i] : p[i] - 1;
            tb[i] = i % 8 ? 12 + (int32_t)gmp_urandomm_ui(rng, L - 11)
                          : 1 + (int32_t)gmp_urandomm_ui(rng, L);
        }
        ok = cudaMemcpy(dev[0], p, size[0], cudaMemcpyHostToDevice) == cudaSuccess &&
             cudaMemcpy(dev[1], t, size[1], cudaMemcpyHostToDevice) == cudaSuccess &&
             cudaMemcpy(dev[2], tb, size[2], cudaMemcpyHostToDevice) == cudaSuccess &&
             gcd_kary_vectors(dev[0], dev[1], dev[2], dev[3], dev[4], n, 0) == cudaSuccess &&
             cudaMemcpy(x, dev[3], size[3], cudaMemcpyDeviceToHost) == cudaSuccess &&
             cudaMemcpy(y, dev[4], size[4], cudaMemcpyDeviceToHost) == cudaSuccess;
        CHECK(ok, "kary vectors: CUDA call failed: %s", cudaGetErrorString(cudaGetLastError()));
        size_t wrong = 0; /* every input a check; the first wrong one printed */
        for (size_t i = 0; ok && i < n; i++) {
            int64_t hx, hy;
            gcd_kary_vector(p[i], t[i], tb[i], &hx, &hy);
            if (!check_outcome(hx == x[i] && hy == y[i]) && wrong++ == 0)
                printf("FAIL (seed %llu) kary vector (L=%u) p=%u t=%u tb=%d: GPU (%lld, %lld), "
                       "host (%lld, %lld)\n", (unsigned long long)seed, L, p[i], t[i], tb[i],
                       (long long)x[i], (long long)y[i], (long long)hx, (long long)hy);
        }
        printf("kary vectors (L=%u): %zu inputs, %zu differ from the host's\n", L, n, wrong);
    }
    for (int i = 0; i < 5; i++)
        cudaFree(dev[i]);
    free(p);
    free(t);
    free(tb);
    free(x);
    free(y);
}

/* M of 8 moduli cannot serve 4096 bits: GCD_TOO_LARGE after the retries, g untouched. */
static void check_too_large(const struct gcd_moduli *full)
{
    struct gcd_moduli few = *full;
    few.count = 8;
    struct gcd_device d;
    if (!cuda_ok(&d, gcd_device_open_kary(&d, &few), "open (8 moduli)"))
        return;
    mpz_t a, b, g;
    mpz_inits(a, b, g, NULL);
    gcd_case_bits(a, rng, 4096);
    gcd_case_bits(b, rng, 4000);
    mpz_set_ui(g, 7);
    struct gcd_run run;
    if (cuda_ok(&d, gcd_device_gcd(&d, g, a, b, 1, &run), "too large"))
        CHECK(run.status == GCD_TOO_LARGE && mpz_cmp_ui(g, 7) == 0,
              "kary: 4096 bits with 8 moduli: status %d after %u attempts", (int)run.status,
              run.attempts);
    mpz_clears(a, b, g, NULL);
    gcd_device_close(&d);
}

int main(void)
{
    struct gcd_test_moduli m;
    const int start = gcd_gpu_start(&m);
    if (start != 0)
        return start;
    check_vectors(&m.cheap32, (size_t)1 << 22);
    check_vectors(&m.all16, (size_t)1 << 16);
    struct gcd_device d;
    if (cuda_ok(&d, gcd_device_open_kary(&d, &m.cheap32), "open")) {
        check_cases(&d, 8192);
        for (unsigned k = 1; k <= 8; k *= 2) {
            d.min_per_thread = k;
            check_cases(&d, 2048);
            check_large(&d, 16384, 1000);
            CHECK(gcd_kary_shapes[d.last.shape].per_thread == k,
                  "kary: asked for %u moduli a thread, ran with %u", k,
                  gcd_kary_shapes[d.last.shape].per_thread);
        }
        d.min_per_thread = 0;
        const unsigned kibit[] = {16, 128, 352};
        for (int i = 0; i < 3; i++) {
            check_large(&d, kibit[i] * 1024, 1);
            check_large(&d, kibit[i] * 1024, 1000);
        }
        check_large(&d, 65536, 32768);
        gcd_device_close(&d);
    }
    if (cuda_ok(&d, gcd_device_open_kary(&d, &m.all16), "open (L = 16, all primes)")) {
        check_cases(&d, 1024);
        gcd_device_close(&d);
    }
    if (cuda_ok(&d, gcd_device_open_kary(&d, &m.cheap16), "open (L = 16, cheap)")) {
        check_cases(&d, 512);
        gcd_device_close(&d);
    }
    check_too_large(&m.cheap32);
    return gcd_gpu_finish(&m, "test_gcd_kary_gpu");
}
