#include "fixed_ref.h"

#include <gmp.h>
#include <string.h>

#include "fixed_ops.h"
#include "random_words.h"

static void words_to_mpz(mpz_t z, const uint32_t *w, unsigned n)
{
    mpz_import(z, n, -1, sizeof(uint32_t), 0, 0, w);
}

/* z mod 2^(32n) into n words (z may be negative: two's complement). */
static void mpz_to_words(uint32_t *w, unsigned n, const mpz_t z)
{
    mpz_t t;
    mpz_init(t);
    mpz_fdiv_r_2exp(t, z, 32 * n);
    memset(w, 0, n * sizeof(uint32_t));
    mpz_export(w, NULL, -1, sizeof(uint32_t), 0, 0, t);
    mpz_clear(t);
}

void fixed_r2(unsigned n, const uint32_t *m, uint32_t *r2)
{
    mpz_t zm, t;
    mpz_inits(zm, t, NULL);
    words_to_mpz(zm, m, n);
    mpz_set_ui(t, 1);
    mpz_mul_2exp(t, t, 64 * n);
    mpz_mod(t, t, zm);
    mpz_to_words(r2, n, t);
    mpz_clears(zm, t, NULL);
}

void fixed_ref(mpgpu_fixed_op public_op, unsigned bits, uint64_t chain, const uint32_t *a,
               const uint32_t *b, const uint32_t *m, uint32_t *out)
{
    const enum fixed_op op = (enum fixed_op)public_op;
    const unsigned n = fixed_words(bits);
    mpz_t x, y, zm, t, k;
    mpz_inits(x, y, zm, t, k, NULL);
    words_to_mpz(x, a, fixed_a_words(op, n));
    if (fixed_b_words(op, n))
        words_to_mpz(y, b, n);
    if (fixed_op_modular(op))
        words_to_mpz(zm, m, n);
    mpz_set_ui(k, 0);
    mpz_add_ui(k, k, (unsigned long)(chain >> 32));
    mpz_mul_2exp(k, k, 32);
    mpz_add_ui(k, k, (unsigned long)(chain & 0xffffffffu));
    switch (op) {
    case FIXED_ADD:
    case FIXED_SUB:
    case FIXED_ADDM:
    case FIXED_SUBM:
        mpz_mul(t, y, k);
        if (op == FIXED_ADD || op == FIXED_ADDM)
            mpz_add(x, x, t);
        else
            mpz_sub(x, x, t);
        if (op == FIXED_ADDM || op == FIXED_SUBM)
            mpz_mod(x, x, zm);
        break;
    case FIXED_MUL:
    case FIXED_KARATSUBA:
        /* x b^(K-1) mod 2^P, then times b in full. */
        mpz_set_ui(t, 1);
        mpz_mul_2exp(t, t, bits);
        mpz_sub_ui(k, k, 1);
        mpz_powm(zm, y, k, t);
        mpz_mul(x, x, zm);
        mpz_fdiv_r_2exp(x, x, bits);
        mpz_mul(x, x, y);
        break;
    case FIXED_MONTRED:
    case FIXED_MONTMUL:
        /* x (b R^-1)^K mod m, b = 1 for montred. */
        mpz_set_ui(t, 1);
        mpz_mul_2exp(t, t, 32 * n);
        mpz_invert(t, t, zm);
        if (op == FIXED_MONTMUL)
            mpz_mul(t, t, y);
        mpz_powm(t, t, k, zm);
        mpz_mul(x, x, t);
        mpz_mod(x, x, zm);
        break;
    case FIXED_POWM:
        for (uint64_t i = 0; i < chain; i++)
            mpz_powm(x, x, y, zm);
        break;
    default:
        break;
    }
    mpz_to_words(out, fixed_r_words(op, n), x);
    mpz_clears(x, y, zm, t, k, NULL);
}

void fixed_random_modulus(unsigned bits, uint64_t seed, uint32_t *m)
{
    const unsigned n = fixed_words(bits);
    random_words(seed, UINT64_C(0x6d6f64756c7573), m, n); /* a stream no element uses */
    if (bits % 32)
        m[n - 1] &= (1u << (bits % 32)) - 1;
    m[n - 1] |= 1u << ((bits - 1) % 32);
    m[0] |= 1;
}

void fixed_element_modulus(unsigned bits, uint64_t seed, uint64_t p, uint32_t *m)
{
    fixed_random_modulus(bits, splitmix64(seed ^ splitmix64(p)), m);
}

int fixed_less(const uint32_t *x, const uint32_t *y, unsigned n)
{
    for (unsigned j = n; j-- > 0;)
        if (x[j] != y[j])
            return x[j] < y[j];
    return 0;
}

/* A random value below the bound (nb words), of nw words, from one stream. */
static void random_below(uint64_t seed, uint64_t stream, const mpz_t bound, unsigned nw, uint32_t *out)
{
    uint32_t raw[2 * 64 + 2];
    mpz_t z;
    mpz_init(z);
    random_words(seed, stream, raw, nw + 1);
    words_to_mpz(z, raw, nw + 1);
    mpz_mod(z, z, bound);
    mpz_to_words(out, nw, z);
    mpz_clear(z);
}

void fixed_random_operands(mpgpu_fixed_op public_op, unsigned bits, uint64_t seed, uint64_t p,
                           const uint32_t *m, uint32_t *a, uint32_t *b)
{
    const enum fixed_op op = (enum fixed_op)public_op;
    const unsigned n = fixed_words(bits);
    const uint32_t top = bits % 32 ? (1u << (bits % 32)) - 1 : ~0u;
    if (!fixed_op_modular(op) || op == FIXED_POWM) {
        random_words(seed, 2 * p + 1, b, n);
        b[n - 1] &= top;
    }
    if (!fixed_op_modular(op)) {
        random_words(seed, 2 * p, a, n);
        a[n - 1] &= top;
        return;
    }
    mpz_t bound;
    mpz_init(bound);
    words_to_mpz(bound, m, n);
    if (op == FIXED_MONTRED) {
        mpz_mul_2exp(bound, bound, 32 * n);
        random_below(seed, 2 * p, bound, 2 * n, a);
    } else {
        random_below(seed, 2 * p, bound, n, a);
        if (op != FIXED_POWM)
            random_below(seed, 2 * p + 1, bound, n, b);
    }
    mpz_clear(bound);
}

void fixed_boundary_operands(mpgpu_fixed_op public_op, unsigned bits, const uint32_t *m,
                             unsigned which, uint32_t *a, uint32_t *b)
{
    const enum fixed_op op = (enum fixed_op)public_op;
    const unsigned n = fixed_words(bits), aw = fixed_a_words(op, n), bw = fixed_b_words(op, n);
    const uint32_t top = bits % 32 ? (1u << (bits % 32)) - 1 : ~0u; /* a P-bit number's top word */
    memset(a, 0, aw * sizeof(uint32_t));
    if (bw)
        memset(b, 0, bw * sizeof(uint32_t));
    if (which == 0)
        return;
    if (which == 2) {
        a[0] = 1;
        if (bw)
            b[0] = 1;
        return;
    }
    if (op == FIXED_MONTRED) { /* T = mR - 1 = (m - 1) R + R - 1, m odd */
        memcpy(a + n, m, n * sizeof(uint32_t));
        a[n]--;
        for (unsigned j = 0; j < n; j++)
            a[j] = ~0u;
        return;
    }
    if (fixed_op_modular(op)) { /* m - 1 (odd m); powm: all-ones P-bit exponent */
        memcpy(a, m, n * sizeof(uint32_t));
        a[0]--;
        memcpy(b, a, n * sizeof(uint32_t));
        if (op == FIXED_POWM)
            for (unsigned j = 0; j < n; j++)
                b[j] = j + 1 < n ? ~0u : top;
        return;
    }
    for (unsigned j = 0; j < n; j++) /* all ones: of n words for add/sub, of P bits for products */
        a[j] = b[j] = op <= FIXED_SUB || j + 1 < n ? ~0u : top;
    if (which == 3 && op > FIXED_SUB) /* the top bit alone */
        for (unsigned j = 0; j < n; j++)
            a[j] = j + 1 < n ? 0 : 1u << ((bits - 1) % 32);
}
