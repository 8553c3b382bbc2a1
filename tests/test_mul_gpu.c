/* gpu suite: every registered GPU multiplication method against GMP, at the sizes the issues
 * name (64, 96, 1024, 1056, 4096, 16384, 32768, 65536 bits) plus random multiples of 32, on
 * random, all-ones, zero, one and unequal-length operands. Exits 77 (skipped) without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "mul.h"
#include "mul_gmp.h"
#include "mul_operands.h"
#include "random_words.h"
#include "test_seed.h"

static void check_method(const struct mul_method *m, unsigned words, size_t count, uint64_t seed)
{
    uint32_t *a = malloc(count * words * 4), *b = malloc(count * words * 4);
    uint32_t *c = malloc(count * 2 * words * 4), *expect = malloc(2 * words * 4);
    for (size_t p = 0; p < count; p++)
        operands_fill(a + p * words, b + p * words, words, p, seed);
    struct mul_device d;
    cudaError_t err = mul_device_open(&d, m, words, count);
    if (err == cudaSuccess)
        err = mul_device_upload(&d, a, b, count);
    if (err == cudaSuccess)
        err = mul_device_poison(&d, count);
    if (err == cudaSuccess)
        err = mul_device_launch(&d, count);
    if (err == cudaSuccess)
        err = mul_device_download(&d, c, count);
    if (err != cudaSuccess) {
        printf("FAIL %s bits=%u count=%zu seed=%llu: CUDA call %s failed: %s\n", m->name,
               words * 32, count, (unsigned long long)seed, d.failed_call ? d.failed_call : "?",
               cudaGetErrorString(err));
        failures++;
        cudaGetLastError();
    } else {
        size_t bad = 0, first = count;
        for (size_t p = 0; p < count; p++) {
            gmp_mul_words(expect, a + p * words, b + p * words, words);
            if (memcmp(expect, c + p * 2 * words, 2 * words * 4) != 0) {
                if (!bad)
                    first = p;
                bad++;
            }
        }
        if (bad) {
            unsigned w0 = 0;
            while (c[first * 2 * words + w0] == expect[w0])
                w0++;
            gmp_mul_words(expect, a + first * words, b + first * words, words);
            printf("FAIL %s bits=%u count=%zu seed=%llu: %zu products differ; first bad index %zu "
                   "(pattern %s), first bad word %u\n", m->name, words * 32, count,
                   (unsigned long long)seed, bad, first, pattern_names[first % N_PATTERNS], w0);
            failures++;
        } else {
            printf("ok   %s bits=%u count=%zu\n", m->name, words * 32, count);
        }
    }
    mul_device_close(&d);
    free(a);
    free(b);
    free(c);
    free(expect);
}

int main(int argc, char **argv)
{
    char why[256];
    if (!gpu_open(0, why, sizeof why)) {
        printf("skipped: %s\n", why);
        return 77;
    }
    const char *only = argc > 1 ? argv[1] : NULL; /* optional: one method name */
    uint64_t seed = test_seed();
    unsigned sizes[16] = {2, 3, 32, 33, 128, 512, 1024, 2048};
    size_t n_sizes = 8;
    for (int i = 0; i < 4; i++) /* random multiples of 32 bits in 64..16384 */
        sizes[n_sizes++] = 2 + (unsigned)(splitmix64(seed + i) % 511);
    size_t n;
    const struct mul_method *all = mul_methods(&n);
    for (size_t i = 0; i < n; i++) {
        if (only && strcmp(only, all[i].name))
            continue;
        for (size_t s = 0; s < n_sizes; s++) {
            unsigned w = sizes[s];
            if (!mul_method_supports(&all[i], w))
                continue;
            /* Enough products to fill several warps of the multi-product methods, with a
             * ragged tail; fewer at the largest sizes, where one-thread methods are slow. */
            size_t count = w <= 128 ? 1000 + 37 : w <= 512 ? 300 + 5 : 6 * 2 + 1;
            check_method(&all[i], w, count, seed);
        }
    }
    printf("%s: %d failure(s), seed %llu (set MPGPU_TEST_SEED to replay)\n",
           failures ? "FAILED" : "passed", failures, (unsigned long long)seed);
    return failures ? 1 : 0;
}
