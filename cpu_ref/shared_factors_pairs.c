#include "shared_factors_pairs.h"

void shared_factors_pairs_g(size_t n, const mpz_t *N, size_t i, mpz_t g)
{
    mpz_set_ui(g, 1);
    for (size_t j = 0; j < n; j++)
        if (j != i) {
            mpz_mul(g, g, N[j]);
            mpz_mod(g, g, N[i]);
        }
    mpz_gcd(g, g, N[i]);
}

size_t shared_factors_pairs_partners(size_t n, const mpz_t *N, size_t i, size_t *partners,
                                     mpz_t *common)
{
    size_t k = 0;
    for (size_t j = 0; j < n; j++) {
        if (j == i)
            continue;
        mpz_gcd(common[k], N[i], N[j]);
        if (mpz_cmp_ui(common[k], 1) > 0)
            partners[k++] = j;
    }
    return k;
}

uint32_t shared_factors_pairs_small_prime(const mpz_t x, uint32_t limit)
{
    /* The first divisor > 1 found is prime: a composite one has a smaller prime divisor. */
    for (uint32_t d = 2; d < limit; d++)
        if (mpz_divisible_ui_p(x, d))
            return d;
    return 0;
}
