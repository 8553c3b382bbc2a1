/* The per-modulus arithmetic of the modular GCD kernel (002 section 3), operation for operation
 * the CPU twin's (kernels/gcd_moduli.h, gcd_modinv.h, gcd_modular_ref.{h,c}), so that the
 * kernel and the twin compute the same residues, keys and digits. Values are kept in [0, q)
 * (002 section 3); the symmetric range appears only in the key, b and the digits. */
#ifndef MPGPU_GCD_ARITH_CUH
#define MPGPU_GCD_ARITH_CUH

#include <stdint.h>

namespace gcd {

constexpr unsigned long long KEY_INF = ~0ull;

/* One modulus and its fast-remainder constant (002 section 3.1). */
struct modulus {
    uint32_t q;
    uint64_t m;
    uint32_t L;
    bool cheap;
    bool percent; /* --remainder mod: the hardware's 64-by-32-bit %, to measure against */
};

/* gcd_fastrem_multiplier: ceil(2^(64+s) / q) (s = L - 1, cheap) or that less 2^64 (s = L,
 * exact), by the twin's 64-by-32-bit schoolbook steps; "calculated when the GPU kernel first
 * starts executing" (002 section 3.1). */
__device__ __forceinline__ uint64_t multiplier(uint32_t q, uint32_t L, bool cheap)
{
    const unsigned s = cheap ? L - 1 : L;
    uint64_t r = (1ull << s) % q;
    const uint64_t hi = (r << 32) / q;
    r = (r << 32) % q;
    const uint64_t lo = (r << 32) / q;
    return (hi << 32 | lo) + 1;
}

/* x mod q for any x < 2^64 (gcd_fastrem_cheap / gcd_fastrem_exact). Every modulus of a launch
 * takes the same path, so a warp never diverges on it. */
__device__ __forceinline__ uint32_t rem(uint64_t x, const modulus &md)
{
    if (md.percent)
        return (uint32_t)(x % md.q);
    const uint64_t t = __umul64hi(x, md.m);
    const uint64_t a = md.cheap ? t >> (md.L - 1) : (t + ((x - t) >> 1)) >> (md.L - 1);
    return (uint32_t)(x - a * md.q);
}

__device__ __forceinline__ uint32_t mulmod(uint32_t a, uint32_t b, const modulus &md)
{
    return rem((uint64_t)a * b, md);
}

__device__ __forceinline__ uint32_t submod(uint32_t a, uint32_t b, uint32_t q)
{
    return a >= b ? a - b : a + (q - b);
}

/* A symmetric residue of another modulus, |a| < 2^(L-1) < q, as a residue mod q. */
__device__ __forceinline__ uint32_t symmetric_mod(int64_t a, uint32_t q)
{
    return (uint32_t)(a < 0 ? a + q : a);
}

/* p mod q for two L-bit moduli: p < 2q. */
__device__ __forceinline__ uint32_t modulus_mod(uint32_t p, uint32_t q)
{
    return p > q ? p - q : p;
}

/* W mod q by Horner from the top word (gcd_residue_words; 002 section 3.1, last paragraph). All
 * threads read the same word at once, a broadcast. */
__device__ __forceinline__ uint32_t residue_words(const uint32_t *w, uint32_t n, const modulus &md)
{
    uint64_t r = 0;
    for (uint32_t i = n; i-- > 0;)
        r = rem(r << 32 | __ldg(w + i), md);
    return (uint32_t)r;
}

/* gcd_modinv_quotient: floor(a / d) from the double reciprocal, corrected when one too small
 * by arithmetic, not a branch (002 section 3.2). __drcp_rn, __dmul_rn and __double2uint_rz
 * round as the twin's 1.0 / d, a * r and (uint32_t) do. */
__device__ __forceinline__ uint32_t quotient(uint32_t a, uint32_t d)
{
    const uint32_t k = __double2uint_rz(__dmul_rn((double)a, __drcp_rn((double)d)));
    return k + (a - k * d >= d);
}

/* gcd_modinv: v^-1 mod q by Knuth's Algorithm 4.5.2X keeping only v's coefficients. */
__device__ __forceinline__ uint32_t modinv(uint32_t v, uint32_t q)
{
    uint32_t r0 = q, r1 = v, s0 = 0, s1 = 1, odd = 0;
    while (r1 != 0) {
        const uint32_t k = quotient(r0, r1);
        const uint32_t r = r0 - k * r1;
        const uint32_t s = s0 + k * s1;
        r0 = r1;
        r1 = r;
        s0 = s1;
        s1 = s;
        odd ^= 1;
    }
    return odd ? s0 : q - s0;
}

/* The Fermat inverse (cpu_ref/gcd_fermat.h, beyond 002): Montgomery multiplication mod q with
 * qinv = -q^-1 mod 2^32, the handle a^-1 R^2 of a by the power a^(q-2) of plain residues, and
 * x a^-1 from the handle. Operation for operation the twin's. */
__device__ __forceinline__ uint32_t mont_qinv(uint32_t q)
{
    uint32_t x = q;
#pragma unroll
    for (int i = 0; i < 4; i++)
        x *= 2u - q * x;
    return 0u - x;
}

__device__ __forceinline__ uint32_t montmul(uint32_t a, uint32_t b, uint32_t q, uint32_t qinv)
{
    const uint64_t t = (uint64_t)a * b;
    const uint32_t m = (uint32_t)t * qinv;
    const uint64_t mq = (uint64_t)m * q;
    const uint64_t r = (t >> 32) + (mq >> 32) + ((uint32_t)t != 0);
    return (uint32_t)(r >= q ? r - q : r);
}

/* cpu_ref/gcd_fermat.h's chain, a^(q-2) from acc = R mod q, with the Montgomery product `mul`
 * (montmul here, a shorter one in kernels/gcd_kary.cu): the inverse handle a^-1 R^2 mod q. */
template <class Product>
__device__ __forceinline__ uint32_t fermat_power(uint32_t a, uint32_t q, uint32_t r_mod_q,
                                                 Product mul)
{
    uint32_t e = q - 2, base = a, acc = r_mod_q;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        const uint32_t with = mul(acc, base);
        acc = e & 1 ? with : acc;
        base = mul(base, base);
        e >>= 1;
    }
    return acc;
}

__device__ __forceinline__ uint32_t fermat_handle(uint32_t a, uint32_t q, uint32_t qinv,
                                                  uint32_t r_mod_q)
{
    return fermat_power(a, q, r_mod_q,
                        [=](uint32_t x, uint32_t y) { return montmul(x, y, q, qinv); });
}

/* Fig. 2's mixed-radix recovery (lines 21-28, 002 section 4.3): the chosen word (~p << 32 | u)
 * of the "choose any" as the digit (p_k, g_k), g_k the symmetric residue, recorded as digit k by
 * block 0's thread 0. */
struct gcd_digit {
    uint32_t p;
    int32_t g;
};

__device__ __forceinline__ gcd_digit record_digit(unsigned long long chosen, uint32_t *digit_p,
                                                  int32_t *digit_g, uint64_t k)
{
    const uint32_t p = ~(uint32_t)(chosen >> 32), u = (uint32_t)chosen;
    const int32_t g = u > p / 2 ? (int32_t)((int64_t)u - p) : (int32_t)u;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        digit_p[k] = p;
        digit_g[k] = g;
    }
    return gcd_digit{p, g};
}

/* gcd_key: ((|t| << 32 | q) << 1) | (t < 0), the global minimum's key (002 section 4.2) with
 * the sign of t below it. */
__device__ __forceinline__ unsigned long long key(uint32_t q, uint32_t t)
{
    const uint32_t neg = t > q / 2, mag = neg ? q - t : t;
    return ((unsigned long long)mag << 32 | q) << 1 | neg;
}
__device__ __forceinline__ uint32_t key_modulus(unsigned long long k)
{
    return (uint32_t)(k >> 1);
}
__device__ __forceinline__ int64_t key_b(unsigned long long k)
{
    const int64_t mag = (int64_t)(k >> 33);
    return k & 1 ? -mag : mag;
}

} // namespace gcd

#endif
