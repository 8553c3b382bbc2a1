#include "gcd_modinv.h"

uint32_t gcd_modinv(uint32_t v, uint32_t q)
{
    /* Knuth 4.5.2X on (q, v), keeping only the coefficients of v: r_(i+1) = r_(i-1) - k r_i and
     * s_(i+1) = s_(i-1) - k s_i with s_0 = 0, s_1 = 1, so that s_i v = r_i (mod q). The signs of
     * s_1, s_2, ... alternate (+, -, +, ...), so the magnitudes obey |s_(i+1)| = |s_(i-1)| +
     * k |s_i| and stay at most q < 2^32 (they end at q / gcd): all unsigned 32-bit arithmetic. */
    uint32_t r0 = q, r1 = v, s0 = 0, s1 = 1, odd = 0;
    while (r1 != 0) {
        uint32_t k = gcd_modinv_quotient(r0, r1);
        uint32_t r = r0 - k * r1;
        uint32_t s = s0 + k * s1;
        r0 = r1;
        r1 = r;
        s0 = s1;
        s1 = s;
        odd ^= 1;
    }
    /* r0 = gcd(q, v) = 1 and s0 = |s_n| after n iterations; s_n is positive when n is odd. */
    return odd ? s0 : q - s0;
}
