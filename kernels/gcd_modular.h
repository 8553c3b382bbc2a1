/* What the modular GCD of 002 (Fig. 2) on the GPU (kernels/gcd_modular.cu, its host driver
 * gcd_device.c) shares with its CPU twin (cpu_ref/gcd_modular_ref.h, which describes the
 * algorithm): the key of the global minimum, the outcome of an attempt, how many moduli an
 * attempt takes, the retry policy, GMP's conventions for zeros and signs, and the read-back of
 * the mixed-radix digits. The k-ary method (gcd_kary_host.h) uses the same. */
#ifndef MPGPU_GCD_MODULAR_H
#define MPGPU_GCD_MODULAR_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The key of the global minimum (002 section 4.2, Fig. 2 lines 9 and 19): (|t| << 32) | q, with
 * the sign of t appended below it so that every block learns the signed b = t_p from the
 * minimum alone: key = ((|t| << 32 | q) << 1) | (t < 0). |t| <= (q - 1)/2 < 2^31, so the key fits
 * 64 bits, and as the moduli differ the appended bit never decides the minimum: the minimum is
 * the paper's (smallest |t|, then smallest q). t is the residue in [0, q); its symmetric value
 * is t - q when t > q/2 (002 section 2). */
#define GCD_KEY_INF UINT64_MAX
static inline uint64_t gcd_key(uint32_t q, uint32_t t)
{
    uint32_t neg = t > q / 2, mag = neg ? q - t : t;
    return ((uint64_t)mag << 32 | q) << 1 | neg;
}
static inline uint32_t gcd_key_modulus(uint64_t key)
{
    return (uint32_t)(key >> 1);
}
static inline int64_t gcd_key_b(uint64_t key)
{
    int64_t mag = (int64_t)(key >> 33);
    return key & 1 ? -mag : mag;
}

enum gcd_status {
    GCD_OK = 0,
    GCD_SHORTAGE = 1, /* too few moduli for this pair; retry with gcd_modular_retry_nq */
    GCD_TOO_LARGE = 2, /* Fig. 2 line 3: N_Q > |M|, or no moduli left to add */
};

enum gcd_shortage {
    GCD_SHORT_NONE = 0,
    GCD_SHORT_PAPER_TEST = 1, /* Fig. 2 line 16: N_Q (L - 2) <= N_u */
    GCD_SHORT_BOUND = 2,      /* the loop ended, but the bounds do not prove v = 0, |u| < P/2 */
};

/* What a run did. attempts counts the runs of the retry loop (1 without a retry). */
struct gcd_run {
    enum gcd_status status;
    enum gcd_shortage shortage; /* of the last attempt that fell short */
    size_t n_q;                 /* moduli of the last attempt */
    uint64_t steps;             /* reduction-loop iterations of the last attempt (lines 10-20) */
    uint64_t digits;            /* mixed-radix digits of G (k - 1 at Fig. 2 line 29) */
    unsigned attempts;
    unsigned shortages;         /* attempts that ended in GCD_SHORTAGE */
};

/* Fig. 2 line 2: ceil(C_L N_u / log10 N_u), C_L = 1.6 - 0.015 L. N_u = 1 (U = 1) would divide by
 * log10 1 = 0; N_u is taken as at least 2 (x / log10 x is smallest near x = e, so this keeps
 * the count at its small-input size of about 6.6 C_L). */
uint64_t gcd_modular_nq_formula(uint64_t n_u, unsigned L);

/* The moduli of the first attempt: the formula rounded up to a multiple of `block` (002 section
 * 2: "a multiple of the thread block size"), at most `available`. GCD_TOO_LARGE when the formula
 * itself exceeds `available` (Fig. 2 line 3), else GCD_OK with *n_q set. */
enum gcd_status gcd_modular_nq(uint64_t n_u, unsigned L, size_t block, uint64_t available,
                               size_t *n_q);

/* The retry policy after GCD_SHORTAGE: twice the moduli, rounded up to `block`, at most
 * `available`; 0 when n_q was already `available` (nothing left to add). */
size_t gcd_modular_retry_nq(size_t n_q, size_t block, uint64_t available);

/* GMP's conventions (mpz_gcd): the GCD of |a| and |b|, gcd(0, b) = |b|, gcd(0, 0) = 0. Sets
 * u = max(|a|, |b|), v = min(|a|, |b|) (Fig. 2's U >= V) and returns false when v > 0 (the
 * modular algorithm must run); else sets g and returns true. */
bool gcd_modular_prepare(mpz_t u, mpz_t v, mpz_t g, const mpz_t a, const mpz_t b);

/* |G| for G = g_0 + p_0 (g_1 + p_1 (... + p_(k-2) g_(k-1))), the symmetric mixed-radix digits of
 * the recovery loop in the order they were found (Fig. 2 line 29). */
void gcd_mixed_radix_to_mpz(mpz_t g, const uint32_t *p, const int32_t *digit, size_t k);

#endif
