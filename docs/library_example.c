/* libmpgpu's example (docs/library.md): 1000 products of 1024-bit numbers on the GPU with two
 * methods, each product checked against GMP.
 *   cc library_example.c $(pkg-config --cflags --libs mpgpu) -lgmp -o library_example
 * Exit status: 0 every product matched, 1 a product differed, 2 a library call failed,
 * 77 no CUDA device (or no driver), as a test harness counts a skip. */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpgpu.h>

enum { BITS = 1024, WORDS = BITS / 32, COUNT = 1000 };

/* Compares product p of c with GMP's product of operand p of a and b. */
static int product_matches(const uint32_t *a, const uint32_t *b, const uint32_t *c, size_t p)
{
    mpz_t x, y, want, got;
    mpz_inits(x, y, want, got, NULL);
    /* Words least significant first (order -1), native byte order within a word (endian 0). */
    mpz_import(x, WORDS, -1, sizeof(uint32_t), 0, 0, a + p * WORDS);
    mpz_import(y, WORDS, -1, sizeof(uint32_t), 0, 0, b + p * WORDS);
    mpz_import(got, 2 * WORDS, -1, sizeof(uint32_t), 0, 0, c + p * 2 * WORDS);
    mpz_mul(want, x, y);
    int same = mpz_cmp(want, got) == 0;
    mpz_clears(x, y, want, got, NULL);
    return same;
}

int main(void)
{
    printf("libmpgpu %s (header %s)\n", mpgpu_version(), MPGPU_VERSION_STRING);

    uint32_t *a = malloc(sizeof(uint32_t) * WORDS * COUNT);
    uint32_t *b = malloc(sizeof(uint32_t) * WORDS * COUNT);
    uint32_t *c = malloc(sizeof(uint32_t) * 2 * WORDS * COUNT);
    if (!a || !b || !c) {
        fprintf(stderr, "library_example: out of host memory\n");
        return 2;
    }
    srand(1);
    for (size_t i = 0; i < (size_t)WORDS * COUNT; i++) {
        a[i] = (uint32_t)rand() << 16 ^ (uint32_t)rand();
        b[i] = (uint32_t)rand() << 16 ^ (uint32_t)rand();
    }

    const char *methods[] = {"sumrotate-shuffle", "thread-comba"};
    for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++) {
        mpgpu_mul_method_info info;
        mpgpu_status st = mpgpu_mul_method_find(methods[k], &info);
        if (st == MPGPU_OK)
            st = mpgpu_mul_host(methods[k], BITS, COUNT, a, b, c);
        if (st != MPGPU_OK) {
            mpgpu_error_info err;
            mpgpu_last_error(&err);
            fprintf(stderr, "library_example: %s: %s%s%s\n", methods[k], mpgpu_status_string(st),
                    err.cuda_call[0] ? "; failed call: " : "", err.cuda_call);
            return st == MPGPU_ERR_NO_DEVICE ? 77 : 2;
        }
        for (size_t p = 0; p < COUNT; p++)
            if (!product_matches(a, b, c, p)) {
                fprintf(stderr, "library_example: %s: product %zu differs from GMP's\n",
                        methods[k], p);
                return 1;
            }
        printf("%s (%u..%u bits): %d products of %d bits match GMP\n", info.name, info.min_bits,
               info.max_bits, COUNT, BITS);
    }
    free(a);
    free(b);
    free(c);
    return 0;
}
