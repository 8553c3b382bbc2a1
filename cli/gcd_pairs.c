#include "gcd_pairs.h"

#include <stdlib.h>

#include "cli.h"
#include "hexio.h"
#include "random_words.h"

mpz_t *gcd_mpz_array(size_t n)
{
    mpz_t *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        cli_bad_input("--count %zu: out of host memory", n);
    for (size_t i = 0; i < n; i++)
        mpz_init(x[i]);
    return x;
}

void gcd_mpz_array_free(mpz_t *x, size_t n)
{
    if (!x)
        return;
    for (size_t i = 0; i < n; i++)
        mpz_clear(x[i]);
    free(x);
}

void gcd_pairs_free(struct gcd_pairs *p)
{
    gcd_mpz_array_free(p->a, p->count);
    gcd_mpz_array_free(p->b, p->count);
    p->a = p->b = NULL;
    p->count = 0;
    p->bits = 0;
}

/* A number of exactly k bits (1 for k = 0) from stream `stream` of the seed. */
static void random_exact(mpz_t x, uint64_t seed, uint64_t stream, uint64_t k, uint32_t *buf)
{
    if (k == 0) {
        mpz_set_ui(x, 1);
        return;
    }
    const size_t words = (size_t)((k + 31) / 32);
    random_words(seed, stream, buf, words);
    if (k % 32)
        buf[words - 1] &= (UINT32_C(1) << (k % 32)) - 1;
    buf[words - 1] |= UINT32_C(1) << ((k - 1) % 32);
    mpz_import(x, words, -1, sizeof *buf, 0, 0, buf);
}

void gcd_pairs_random(struct gcd_pairs *p, size_t count, unsigned bits, uint64_t gcd_bits,
                      uint64_t seed)
{
    p->count = count;
    p->bits = bits;
    p->a = gcd_mpz_array(count);
    p->b = gcd_mpz_array(count);
    uint32_t *buf = malloc(((size_t)bits / 32 + 1) * sizeof *buf);
    if (!buf)
        cli_bad_input("--bits %u: out of host memory", bits);
    mpz_t f;
    mpz_init(f);
    for (size_t i = 0; i < count; i++) {
        random_exact(f, seed, 3 * (uint64_t)i, gcd_bits, buf);
        random_exact(p->a[i], seed, 3 * (uint64_t)i + 1, bits - gcd_bits, buf);
        random_exact(p->b[i], seed, 3 * (uint64_t)i + 2, bits - gcd_bits, buf);
        if (gcd_bits) {
            mpz_mul(p->a[i], p->a[i], f);
            mpz_mul(p->b[i], p->b[i], f);
        }
    }
    mpz_clear(f);
    free(buf);
}

/* Moves the first n of src (old_cap entries) into a fresh array of new_cap >= n. */
static mpz_t *resize(mpz_t *src, size_t n, size_t old_cap, size_t new_cap)
{
    mpz_t *dst = gcd_mpz_array(new_cap);
    for (size_t i = 0; i < n; i++)
        mpz_swap(dst[i], src[i]);
    gcd_mpz_array_free(src, old_cap);
    return dst;
}

void gcd_pairs_read(struct gcd_pairs *p, const char *path)
{
    struct hex_lines in;
    hex_lines_open(&in, path, "'HEX_U HEX_V'", CLI_BITS_MAX);
    size_t cap = 16, n = 0;
    mpz_t *a = gcd_mpz_array(cap), *b = gcd_mpz_array(cap);
    uint64_t bits = 1, u_bits, v_bits;
    char *u, *v;
    while (hex_lines_next(&in, &u, &u_bits, &v, &v_bits)) {
        if (n == cap) {
            a = resize(a, n, cap, 2 * cap);
            b = resize(b, n, cap, 2 * cap);
            cap *= 2;
        }
        mpz_set_str(a[n], u, 16);
        mpz_set_str(b[n], v, 16);
        bits = u_bits > bits ? u_bits : bits;
        bits = v_bits > bits ? v_bits : bits;
        n++;
    }
    hex_lines_close(&in);
    if (n == 0)
        cli_bad_input("--input '%s' holds no pairs", path);
    /* The arrays are freed with count entries. */
    p->a = resize(a, n, cap, n);
    p->b = resize(b, n, cap, n);
    p->count = n;
    p->bits = (unsigned)bits;
}
