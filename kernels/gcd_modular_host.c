/* The modular GCD's host-side arithmetic shared by the GPU driver and the CPU twin:
 * kernels/gcd_modular.h. */
#include "gcd_modular.h"

#include <math.h>

uint64_t gcd_modular_nq_formula(uint64_t n_u, unsigned L)
{
    double x = n_u < 2 ? 2.0 : (double)n_u;
    return (uint64_t)ceil((1.6 - 0.015 * L) * x / log10(x));
}

static uint64_t round_up(uint64_t n, size_t block)
{
    return (n + block - 1) / block * block;
}

enum gcd_status gcd_modular_nq(uint64_t n_u, unsigned L, size_t block, uint64_t available,
                               size_t *n_q)
{
    uint64_t n = gcd_modular_nq_formula(n_u, L);
    if (n > available)
        return GCD_TOO_LARGE;
    /* The last block may be partly filled when rounding up passes the end of M. */
    n = round_up(n, block);
    *n_q = (size_t)(n < available ? n : available);
    return GCD_OK;
}

size_t gcd_modular_retry_nq(size_t n_q, size_t block, uint64_t available)
{
    if (n_q >= available)
        return 0;
    uint64_t n = round_up(2 * (uint64_t)n_q, block);
    return (size_t)(n < available ? n : available);
}

bool gcd_modular_prepare(mpz_t u, mpz_t v, mpz_t g, const mpz_t a, const mpz_t b)
{
    int a_larger = mpz_cmpabs(a, b) >= 0;
    mpz_abs(u, a_larger ? a : b);
    mpz_abs(v, a_larger ? b : a);
    if (mpz_sgn(v) != 0)
        return false;
    mpz_set(g, u);
    return true;
}

void gcd_mixed_radix_to_mpz(mpz_t g, const uint32_t *p, const int32_t *digit, size_t k)
{
    mpz_set_ui(g, 0);
    for (size_t i = k; i-- > 0;) {
        mpz_mul_ui(g, g, p[i]);
        if (digit[i] >= 0)
            mpz_add_ui(g, g, (unsigned long)digit[i]);
        else
            mpz_sub_ui(g, g, (unsigned long)-(int64_t)digit[i]);
    }
    mpz_abs(g, g);
}
