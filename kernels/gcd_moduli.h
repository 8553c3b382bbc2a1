/* The moduli of the modular integer GCD of K. Weber and J. A. Brew, "An Implementation of the
 * Modular Integer GCD Algorithm on a Single GPU" (here 002): the set M of Fig. 2 (the primes in
 * (2^(L-1), 2^L)), the fast remainder x mod q of section 3.1 and the cache of M on disk
 * (section 3.3 generates M once, before the main program runs).
 *
 * Fast remainder (002 section 3.1, after Cavagnino and Werbrouck). For an odd L-bit q and a
 * shift s, let m = ceil(2^(64+s) / q) and e = m q - 2^(64+s), so 1 <= e <= q - 1 (q odd never
 * divides a power of two). For x = a q + r (0 <= r < q):
 *     x m / 2^(64+s) = x / q + x e / (q 2^(64+s)),
 * so floor(x m / 2^(64+s)) = a exactly when x e < (q - r) 2^(64+s). Let x* be the largest
 * x < 2^64 with r = q - 1, i.e. x* = 2^64 - 1 - (2^64 mod q). Then
 *     floor(x m / 2^(64+s)) = floor(x / q) for every x < 2^64   <=>   x* e < 2^(64+s).
 * Necessity: x = x* has q - r = 1. Sufficiency: an x with r = q - 1 is <= x*; any other x is
 * < x* + q and has q - r >= 2, and (x* + q) e < 2^(64+s) + q^2 <= 2 * 2^(64+s) because
 * q < 2^32. gcd_fastrem_exact_for_all() evaluates this criterion for one q, in integers.
 *
 * The cheap category is s = L - 1: m < 2^64 (as q > 2^(L-1)), and the remainder is one 64x64
 * multiply-high, one shift, one 64x64 multiply-low and one subtraction (gcd_fastrem_cheap). It
 * is the only shift worth trying: if x* e_s < 2^(64+s) then e_(s+1) = 2 e_s mod q <= 2 e_s
 * passes for s + 1, so a q that fails at s = L - 1 fails at every s that keeps m < 2^64. The
 * default moduli are the L-bit primes that pass it (002 section 3.1: "we only use moduli which
 * fall into the category that requires the fewest operations").
 *
 * The exact path (--all-primes; 002 section 3.1, "all L-bit primes could be used" with more work
 * per remainder) is s = L: the 65-bit M = ceil(2^(64+L) / q) has e < q < 2^L, so x* e <
 * 2^(64+L) for every odd q and every x < 2^64 is exact. M = 2^64 + m with m < 2^64, and
 * floor(x M / 2^(64+L)) = floor((x + t) / 2^L) with t = floor(x m / 2^64) <= x, computed without
 * overflow as (t + ((x - t) >> 1)) >> (L - 1) (gcd_fastrem_exact). */
#ifndef MPGPU_GCD_MODULI_H
#define MPGPU_GCD_MODULI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* L of Fig. 2: 32 as the paper's runs (002 section 5); down to 16. */
#define GCD_L_MIN 16u
#define GCD_L_MAX 32u
#define GCD_L_DEFAULT 32u

enum gcd_filter {
    GCD_FILTER_CHEAP = 0, /* the primes of the cheap category (default) */
    GCD_FILTER_ALL = 1,   /* every L-bit prime, remainders through the exact path */
};

/* A set M: `count` primes of L bits, largest first (Fig. 2 line 4 takes the N_Q largest, so Q
 * is a prefix). */
struct gcd_moduli {
    unsigned L;
    enum gcd_filter filter;
    uint64_t count;
    uint32_t *q;
};

/* "cheap" or "all". */
const char *gcd_filter_name(enum gcd_filter f);

/* floor(a b / 2^64), the GPU's __umul64hi. */
static inline uint64_t gcd_mulhi64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

/* True when the multiplier ceil(2^(64+s) / q) gives floor(x / q) for every x < 2^64 (the
 * criterion above). q odd, 2^15 < q < 2^32, s <= 32. */
bool gcd_fastrem_exact_for_all(uint32_t q, unsigned s);

/* The cheap-category test of one L-bit prime: gcd_fastrem_exact_for_all(q, L - 1). */
static inline bool gcd_fastrem_is_cheap(uint32_t q, unsigned L)
{
    return gcd_fastrem_exact_for_all(q, L - 1);
}

/* The per-modulus constant ("essentially the inverse of the modulus", 002 section 3.1):
 * ceil(2^(63+L) / q) for the cheap path, ceil(2^(64+L) / q) - 2^64 for the exact one. */
uint64_t gcd_fastrem_multiplier(uint32_t q, unsigned L, enum gcd_filter f);

/* x mod q for any x < 2^64, q of the cheap category, m its multiplier. */
static inline uint32_t gcd_fastrem_cheap(uint64_t x, uint32_t q, uint64_t m, unsigned L)
{
    return (uint32_t)(x - (gcd_mulhi64(x, m) >> (L - 1)) * q);
}

/* x mod q for any x < 2^64 and any odd L-bit q, m its exact-path multiplier. */
static inline uint32_t gcd_fastrem_exact(uint64_t x, uint32_t q, uint64_t m, unsigned L)
{
    uint64_t t = gcd_mulhi64(x, m);
    return (uint32_t)(x - ((t + ((x - t) >> 1)) >> (L - 1)) * q);
}

/* The path a set of moduli uses: every modulus of one run takes the same one, so a GPU warp
 * never diverges on it. */
static inline uint32_t gcd_fastrem(uint64_t x, uint32_t q, uint64_t m, unsigned L,
                                   enum gcd_filter f)
{
    return f == GCD_FILTER_CHEAP ? gcd_fastrem_cheap(x, q, m, L) : gcd_fastrem_exact(x, q, m, L);
}

/* W mod q for the n-word number W (32-bit words, least significant first, as the paper sends
 * GMP's exports to the GPU, 002 section 3): Horner from the top word, each step one fast
 * remainder of r 2^32 + w < q 2^32 <= 2^64 (002 section 3.1, last paragraph). */
uint32_t gcd_residue_words(const uint32_t *w, size_t n, uint32_t q, uint64_t m, unsigned L,
                           enum gcd_filter f);

/* Sieves M for L in [GCD_L_MIN, GCD_L_MAX] with the filter, on all OpenMP threads. Returns 0,
 * or -1 (L out of range, or memory short). */
int gcd_moduli_build(struct gcd_moduli *out, unsigned L, enum gcd_filter f);

/* The size of M for (L, f), as gcd_moduli_build finds it (a table, which test_gcd_cpu checks
 * against the sieve for L = 16..26 and 32, and gcd_moduli_cache_read against every cache), so
 * that the sizes a run asks for and the memory it needs are checked before anything is sieved.
 * 0 for L out of range. */
uint64_t gcd_moduli_count(unsigned L, enum gcd_filter f);
void gcd_moduli_free(struct gcd_moduli *m);

/* The cache file of one (L, filter): a header (magic, version, L, filter, count, payload bytes,
 * checksum of the moduli) and the moduli, largest first, as varint half-gaps from 2^L + 1
 * (about one byte a modulus instead of four). */

/* Default file name of the cache of (L, f), e.g. "gcd_moduli_L32_cheap.bin". */
void gcd_moduli_cache_name(char *buf, size_t len, unsigned L, enum gcd_filter f);

/* Writes m to path through a temporary file renamed into place, so a reader never sees half a
 * file. Returns 0, or -1 with errno set. */
int gcd_moduli_cache_write(const char *path, const struct gcd_moduli *m);

/* Reads and checks the cache of (L, f): header fields, sizes, the count (gcd_moduli_count's),
 * every decoded modulus inside (2^(L-1), 2^L) and decreasing, and the checksum. Returns 0, or -1 with the reason
 * in why (NUL-terminated, at most why_len bytes). */
int gcd_moduli_cache_read(const char *path, unsigned L, enum gcd_filter f, struct gcd_moduli *out,
                          char *why, size_t why_len);

/* The moduli of (L, f): from the cache file `path` when it reads back clean, else sieved and
 * written back, with one line on `log` (when not NULL) saying why; path NULL: sieved, no cache.
 * Returns 0 (read from the cache), 1 (sieved and written to path), 2 (sieved, not cached: path
 * NULL, or the write failed, the reason on `log`), or -1 (L out of range, or memory short). */
int gcd_moduli_load(const char *path, unsigned L, enum gcd_filter f, struct gcd_moduli *out,
                    FILE *log);

#endif
