/* The k-ary GCD's host-side sizes and clean-up, shared by the GPU driver and the CPU twin:
 * kernels/gcd_kary_host.h. */
#include "gcd_kary_host.h"

enum gcd_status gcd_kary_nq(uint64_t n_u, uint64_t n_v, unsigned L, size_t group,
                            uint64_t available, size_t *n_q)
{
    const uint64_t per_pivot = L / 2 - 2, sum = n_u + n_v;
    uint64_t n = (sum + per_pivot - 1) / per_pivot + sum / (8 * (L - 1)) + 2 * group;
    n = (n + group - 1) / group * group;
    if (n > available) {
        if ((sum + per_pivot - 1) / per_pivot > available)
            return GCD_TOO_LARGE;
        n = available;
    }
    *n_q = (size_t)n;
    return GCD_OK;
}

uint64_t gcd_kary_clean(mpz_t g, const mpz_t h, const mpz_t u, const mpz_t v)
{
    mpz_t r;
    mpz_init(r);
    mpz_abs(g, h);
    if (mpz_sgn(g) != 0) {
        mpz_tdiv_r(r, u, g);
        mpz_gcd(g, g, r);
        mpz_tdiv_r(r, v, g);
        mpz_gcd(g, g, r);
    }
    const uint64_t spurious = mpz_sizeinbase(h, 2) - (mpz_sgn(g) ? mpz_sizeinbase(g, 2) : 0);
    mpz_clear(r);
    return spurious;
}
