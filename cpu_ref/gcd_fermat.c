#include "gcd_fermat.h"

uint32_t gcd_modinv_fermat(uint32_t a, uint32_t q)
{
    const uint32_t qinv = gcd_mont_qinv(q);
    const uint32_t r_mod_q = (uint32_t)((UINT64_C(1) << 32) % q);
    return gcd_fermat_mul_inverse(1, gcd_fermat_handle(a, q, qinv, r_mod_q), q, qinv);
}
