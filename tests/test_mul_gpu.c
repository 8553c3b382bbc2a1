/* gpu suite: every registered GPU multiplication method against GMP, at the sizes the issues name
 * (64, 96, 1024, 1056, 4096, 16384, 32768, 65536 bits), 512 and 2048 bits, plus random multiples
 * of 32, on every operand pattern of tests/mul_operands.h (seeded random, all ones, zero, one,
 * unequal lengths, all ones times random, the carry-ripple worst case, the group carry of the
 * comba-reg kernels), with the product buffer poisoned before each run. Every method at every size
 * runs at least two full thread blocks of each of its kernels and a partial one (batch_count).
 * Each product compared is one check. The products run through libmpgpu
 * (mpgpu_mul_device_workspace on product-major buffers: the layout transposes, then the kernels).
 * Optional argument: one method name (a name no method has is an error). Exits 77 (skipped)
 * without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "mpgpu.h"
#include "mul.h"
#include "mul_gmp.h"
#include "mul_operands.h"
#include "random_words.h"
#include "test_gpu.h"
#include "test_seed.h"

static bool is_prime(size_t n)
{
    if (n < 2)
        return false;
    for (size_t d = 2; d * d <= n; d++)
        if (n % d == 0)
            return false;
    return true;
}

/* Products to run at `words` words: two and a half blocks of the method's largest block
 * (mul_method_block_products), and at least `floor`, rounded up to a prime. A prime is a
 * multiple of no block size from 2 up to that largest one, so every kernel of the method, the
 * layout transposes included, ends on a partial block. */
static size_t batch_count(const struct mul_method *m, unsigned words, size_t floor)
{
    const size_t per_block = mul_method_block_products(m, words);
    size_t count = 2 * per_block + per_block / 2 + 1;
    if (count < floor)
        count = floor;
    while (!is_prime(count))
        count++;
    return count;
}

/* Device buffers of one run, freed by device_close. */
struct device_run {
    uint32_t *a, *b, *c;
    void *workspace;
    const char *failed_call;
};

#define RUN_TRY(call)                                                                       \
    do {                                                                                    \
        cudaError_t run_err_ = (call);                                                      \
        if (run_err_ != cudaSuccess) {                                                      \
            d->failed_call = #call;                                                         \
            return run_err_;                                                                \
        }                                                                                   \
    } while (0)

/* The operands up, the product buffer poisoned (a product the method never wrote is caught),
 * the method through libmpgpu, the products back. */
static cudaError_t device_run(struct device_run *d, const struct mul_method *m, unsigned words,
                              size_t count, const uint32_t *a, const uint32_t *b, uint32_t *c)
{
    const size_t op = (size_t)words * count * sizeof(uint32_t);
    size_t ws = 0;
    if (mpgpu_mul_workspace_bytes(m->name, words * 32, count, MPGPU_MUL_PRODUCT_MAJOR, &ws) !=
        MPGPU_OK) {
        d->failed_call = "mpgpu_mul_workspace_bytes";
        return cudaErrorInvalidValue;
    }
    RUN_TRY(cudaMalloc((void **)&d->a, op));
    RUN_TRY(cudaMalloc((void **)&d->b, op));
    RUN_TRY(cudaMalloc((void **)&d->c, 2 * op));
    if (ws)
        RUN_TRY(cudaMalloc(&d->workspace, ws));
    RUN_TRY(cudaMemcpy(d->a, a, op, cudaMemcpyHostToDevice));
    RUN_TRY(cudaMemcpy(d->b, b, op, cudaMemcpyHostToDevice));
    RUN_TRY(cudaMemset(d->c, 0xA5, 2 * op));
    if (ws) /* word-major methods write their products here before the transpose */
        RUN_TRY(cudaMemset(d->workspace, 0xA5, ws));
    const mpgpu_status st = mpgpu_mul_device_workspace(m->name, words * 32, count,
                                                       MPGPU_MUL_PRODUCT_MAJOR, d->a, d->b, d->c,
                                                       d->workspace, ws, NULL);
    if (st != MPGPU_OK) {
        mpgpu_error_info e;
        mpgpu_last_error(&e);
        d->failed_call = e.cuda_call[0] ? e.cuda_call : mpgpu_status_string(st);
        return e.cuda_error ? (cudaError_t)e.cuda_error : cudaErrorInvalidValue;
    }
    RUN_TRY(cudaMemcpy(c, d->c, 2 * op, cudaMemcpyDeviceToHost));
    return cudaSuccess;
}

static void device_close(struct device_run *d)
{
    cudaFree(d->a);
    cudaFree(d->b);
    cudaFree(d->c);
    cudaFree(d->workspace);
}

static void check_method(const struct mul_method *m, unsigned words, size_t count)
{
    const size_t n = 2 * (size_t)words;
    uint32_t *a = malloc(count * words * 4), *b = malloc(count * words * 4);
    uint32_t *c = malloc(count * n * 4), *expect = malloc(n * 4);
    for (size_t p = 0; p < count; p++)
        operands_fill(a + p * words, b + p * words, words, p, seed);
    struct device_run d = {0};
    cudaError_t err = device_run(&d, m, words, count, a, b, c);
    if (err != cudaSuccess) {
        check_outcome(false);
        printf("FAIL %s bits=%u count=%zu seed=%llu: CUDA call %s failed: %s\n", m->name,
               words * 32, count, (unsigned long long)seed, d.failed_call ? d.failed_call : "?",
               cudaGetErrorString(err));
        cudaGetLastError();
    } else {
        size_t bad = 0, first = count;
        for (size_t p = 0; p < count; p++) {
            gmp_mul_words(expect, a + p * words, b + p * words, words);
            if (!check_outcome(memcmp(expect, c + p * n, n * 4) == 0) && bad++ == 0)
                first = p;
        }
        if (bad) {
            /* The first bad word of the first bad product, against that product's own value. */
            gmp_mul_words(expect, a + first * words, b + first * words, words);
            const uint32_t *got = c + first * n;
            size_t w0 = 0;
            while (w0 < n && got[w0] == expect[w0])
                w0++;
            printf("FAIL %s bits=%u count=%zu seed=%llu: %zu products differ; first bad product "
                   "%zu (pattern %s), its first bad word %zu of %zu: GPU 0x%08x, GMP 0x%08x\n",
                   m->name, words * 32, count, (unsigned long long)seed, bad, first,
                   pattern_names[first % N_PATTERNS], w0, n, got[w0], expect[w0]);
        } else {
            printf("ok   %s bits=%u count=%zu (at most %u per block)\n", m->name, words * 32,
                   count, mul_method_block_products(m, words));
        }
    }
    device_close(&d);
    free(a);
    free(b);
    free(c);
    free(expect);
}

int main(int argc, char **argv)
{
    seed = test_seed();
    size_t n;
    const struct mul_method *all = mul_methods(&n);
    /* The filter is checked before the GPU is looked for, so a misspelt one fails everywhere. */
    if (argc > 2) {
        printf("usage: test_mul_gpu [METHOD]\n");
        return 1;
    }
    const char *only = argc > 1 ? argv[1] : NULL;
    if (only && !mul_method_find(only)) {
        printf("test_mul_gpu: no method is named '%s'; methods:", only);
        for (size_t i = 0; i < n; i++)
            printf(" %s", all[i].name);
        printf("\n");
        return 1;
    }
    if (test_gpu_open() != 0)
        return 77;
    /* 16 and 64 words: split-rowchain's padded sizes that the others reach only by padding;
     * 8 to 32 in steps of 4: every size [thread|pair]-comba-reg[-shared] is unrolled for; with
     * 48 and 64, every size of quad- and octo-comba-reg[-shared]; 257, 513 and 1025, the first
     * of warp-tensor-karatsuba's one, two and three levels, 300 and 1500 with unequal halves */
    unsigned sizes[25] = {2,  3,  8,   12,  16,  20,  24,   28,   32,  33,   48,
                          64, 128, 257, 300, 512, 513, 1024, 1025, 1500, 2048};
    size_t n_sizes = 21;
    for (int i = 0; i < 4; i++) /* random multiples of 32 bits in 64..16384 */
        sizes[n_sizes++] = 2 + (unsigned)(splitmix64(seed + i) % 511);
    for (size_t i = 0; i < n; i++) {
        if (only && strcmp(only, all[i].name))
            continue;
        for (size_t s = 0; s < n_sizes; s++) {
            unsigned w = sizes[s];
            if (!mul_method_supports(&all[i], w))
                continue;
            /* Besides the blocks: many warps of the multi-product warp methods with a ragged
             * tail at small sizes, every operand pattern three times at the largest. */
            const size_t floor = w <= 128 ? 1037 : w <= 512 ? 305 : 3 * N_PATTERNS;
            check_method(&all[i], w, batch_count(&all[i], w, floor));
        }
    }
    return test_finish("test_mul_gpu");
}
