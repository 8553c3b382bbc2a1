/* gpu suite: the Lehmer GCD kernel (kernels/gcd_lehmer.cu; beyond 002).
 * - the producer's quotients (gcd_lehmer_divide: the float estimate and gcd_lehmer_finish of
 *   gcd_lehmer_row) against the host's division on 2^20 seeded inputs: quotients of 1 and 2,
 *   of every size up to 2^62, equal operands, and divisors of every size;
 * - issue 10's cases (tests/gcd_cases.h) at 256, 4096 and 32768 bits against mpz_gcd and against
 *   the CPU twin step for step: the same steps by kind, Euclid quotients, steps planned ahead,
 *   negations and ripple rounds; again at 4096 bits with chunks of 2 words, where carries
 *   ripple on in rounds;
 * - large pairs with a planted factor against mpz_gcd: 352 Kibit (numbers in shared memory) and
 *   1 Mibit (device memory), each path checked to have run. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcd_cases.h"
#include "gcd_lehmer_device.h"
#include "gcd_lehmer_ref.h"
#include "random_words.h"
#include "test_gpu.h"
#include "test_seed.h"

static gmp_randstate_t rng;
static unsigned long long ripples; /* ripple rounds of the kernel, summed over gpu_case */

static bool cuda_ok(const struct gcd_lehmer_device *d, cudaError_t err, const char *what)
{
    if (err == cudaSuccess)
        return true;
    check_outcome(false);
    printf("FAIL (seed %llu) %s: CUDA call %s failed: %s\n", (unsigned long long)seed, what,
           d->failed_call ? d->failed_call : "?", cudaGetErrorString(err));
    cudaGetLastError();
    return false;
}

static void check_divisions(void)
{
    const size_t n = (size_t)1 << 20;
    uint64_t *h = malloc(4 * n * sizeof *h), *d = NULL;
    if (!h || cudaMalloc((void **)&d, 4 * n * sizeof *d) != cudaSuccess) {
        CHECK(false, "divisions: out of memory");
        free(h);
        return;
    }
    uint64_t *a = h, *b = h + n, *q = h + 2 * n, *r = h + 3 * n, s = seed;
    for (size_t i = 0; i < n; i++) {
        /* a divisor of 1..63 bits, a quotient of 0..62 bits, a below 2^63 */
        const unsigned bb = 1 + (unsigned)(splitmix64(s++) % 62);
        uint64_t bv = (splitmix64(s++) >> (64 - bb)) | (UINT64_C(1) << (bb - 1));
        const unsigned qb = (unsigned)(splitmix64(s++) % (64 - bb));
        const uint64_t qv = qb ? splitmix64(s++) >> (64 - qb) : 0;
        uint64_t av = qv * bv + splitmix64(s++) % bv;
        if (av < bv || i % 16 == 0)
            av = bv + (i % 32 == 0 ? 0 : splitmix64(s++) % bv); /* quotient 1; a = b */
        if (i % 16 == 1 && bv < (UINT64_C(1) << 61))
            av = 2 * bv + splitmix64(s++) % bv; /* quotient 2 */
        a[i] = av;
        b[i] = bv;
    }
    bool ok = cudaMemcpy(d, h, 2 * n * sizeof *d, cudaMemcpyHostToDevice) == cudaSuccess &&
              gcd_lehmer_divisions(d, d + n, d + 2 * n, d + 3 * n, n, 0) == cudaSuccess &&
              cudaMemcpy(q, d + 2 * n, 2 * n * sizeof *d, cudaMemcpyDeviceToHost) == cudaSuccess;
    CHECK(ok, "divisions: a CUDA call failed");
    size_t bad = 0, first = n;
    for (size_t i = 0; ok && i < n; i++)
        if (q[i] != a[i] / b[i] || r[i] != a[i] % b[i]) {
            first = bad++ ? first : i;
        }
    CHECK(ok && bad == 0, "divisions: %zu of %zu wrong, first %llu / %llu gave %llu rem %llu",
          bad, n, first < n ? (unsigned long long)a[first] : 0ULL,
          first < n ? (unsigned long long)b[first] : 0ULL,
          first < n ? (unsigned long long)q[first] : 0ULL,
          first < n ? (unsigned long long)r[first] : 0ULL);
    cudaFree(d);
    free(h);
}

/* The kernel's steps against the twin's, and its GCD against mpz_gcd. */
static void gpu_case(void *p, const mpz_t a, const mpz_t b, const char *what)
{
    struct gcd_lehmer_device *d = p;
    mpz_t g, e, t;
    mpz_inits(g, e, t, NULL);
    mpz_gcd(e, a, b);
    struct gcd_lehmer_stats twin = {0};
    const bool twin_ok = gcd_lehmer_ref(t, a, b, d->chunk_words, &twin);
    d->stats = (struct gcd_lehmer_stats){0};
    if (cuda_ok(d, gcd_lehmer_device_gcd(d, g, a, b), what)) {
        const struct gcd_lehmer_stats *k = &d->stats;
        ripples += k->ripple_rounds;
        CHECK(mpz_cmp(g, e) == 0, "%s (%zu and %zu bits): the kernel's GCD differs from mpz_gcd",
              what, mpz_sizeinbase(a, 2), mpz_sizeinbase(b, 2));
        CHECK(twin_ok && k->steps == twin.steps && k->pairs == twin.pairs &&
                  k->shifts == twin.shifts && k->ones == twin.ones &&
                  k->quotients == twin.quotients && k->negations == twin.negations &&
                  k->ripple_rounds == twin.ripple_rounds && k->ahead == twin.ahead,
              "%s (%zu bits): kernel and twin differ: steps %llu/%llu, quotients %llu/%llu, "
              "ripple rounds %llu/%llu, planned ahead %llu/%llu", what, mpz_sizeinbase(a, 2),
              (unsigned long long)k->steps, (unsigned long long)twin.steps,
              (unsigned long long)k->quotients, (unsigned long long)twin.quotients,
              (unsigned long long)k->ripple_rounds, (unsigned long long)twin.ripple_rounds,
              (unsigned long long)k->ahead, (unsigned long long)twin.ahead);
    }
    mpz_clears(g, e, t, NULL);
}

static void check_large(struct gcd_lehmer_device *d, unsigned bits, bool shared)
{
    mpz_t a, b, g, e;
    mpz_inits(a, b, g, e, NULL);
    gcd_case_planted(a, b, rng, bits - 1000, 1, 1000);
    mpz_gcd(e, a, b);
    if (cuda_ok(d, gcd_lehmer_device_gcd(d, g, a, b), "large pair")) {
        CHECK(mpz_cmp(g, e) == 0, "%u bits: the kernel's GCD differs from mpz_gcd", bits);
        CHECK(d->in_shared == shared, "%u bits: numbers %s shared memory", bits,
              d->in_shared ? "in" : "not in");
        printf("%u bits: %llu steps, %u threads, chunks of %u words, %s\n", bits,
               (unsigned long long)d->stats.steps, d->threads, d->chunk,
               d->in_shared ? "shared memory" : "device memory");
    }
    mpz_clears(a, b, g, e, NULL);
}

int main(void)
{
    seed = test_seed();
    if (test_gpu_open() != 0)
        return 77;
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, (unsigned long)seed);
    struct gcd_lehmer_device d;
    if (cuda_ok(&d, gcd_lehmer_device_open(&d), "open")) {
        check_divisions();
        const uint32_t q[3] = {4294967291u, 4294967279u, 4294967231u};
        for (unsigned n = 256; n <= 32768; n *= 16)
            gcd_cases(rng, n, 3, 8, q, gpu_case, &d);
        /* Chunks of 2 words: the carries ripple on in rounds (the default chunks are odd and
         * at least 3, where that is rare). */
        d.chunk_words = 2;
        ripples = 0;
        gcd_cases(rng, 4096, 3, 8, q, gpu_case, &d);
        CHECK(ripples > 0, "chunks of 2 words: no ripple round ran");
        printf("chunks of 2 words at 4096 bits: %llu ripple rounds\n", ripples);
        d.chunk_words = 0;
        d.stats = (struct gcd_lehmer_stats){0};
        check_large(&d, 352 * 1024, true);
        d.stats = (struct gcd_lehmer_stats){0};
        check_large(&d, 1024 * 1024, false);
    }
    gcd_lehmer_device_close(&d);
    gmp_randclear(rng);
    return test_finish("test_gcd_lehmer_gpu");
}
