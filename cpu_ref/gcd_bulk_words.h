/* What the two models of the bulk GCD's inner loops share (gcd_bulk_binary_ref.c,
 * gcd_bulk_lehmer_ref.c): the operation counts, and the n-word steps a GPU thread would run on
 * its own pair, each counting what it costs.
 *
 * A bulk GCD runs one pair per thread (issue 38): the numbers are n 32-bit words (64..8192
 * bits, n <= GCD_BULK_MAX_WORDS), least significant first, in the thread's registers or local
 * memory, and every loop below is one thread's loop over its words, bounded by the current
 * length of its numbers (the zero top words dropped as the numbers shrink). The counts are what
 * that thread would issue, so that the instruction floor of a kernel follows from them. */
#ifndef MPGPU_GCD_BULK_WORDS_H
#define MPGPU_GCD_BULK_WORDS_H

#include <stdint.h>

#include "words_ref.h"

/* The widest pair: 8192 bits. */
#define GCD_BULK_MAX_WORDS 256u

/* The operations of a thread's GCDs, summed over `gcds` of them. */
struct gcd_bulk_counts {
    uint64_t gcds;
    uint64_t iterations;      /* outer rounds: binary subtract-and-shifts, Lehmer steps */
    uint64_t word_madds;      /* 32 x 32 + 32 -> 64-bit multiply-adds (two IMADs on sm_90) */
    uint64_t word_addsubs;    /* 32-bit adds and subtracts with carry or borrow */
    uint64_t word_shifts;     /* 32-bit funnel shifts (a word of a shifted number) */
    uint64_t word_reads;      /* words read by comparisons, zero tests and length trims */
    uint64_t swaps;           /* exchanges of the two numbers (free by index in local memory,
                                 a move of every word in registers) */
    uint64_t digit_quotients; /* quotients of 64-bit Euclid on leading digits (Lehmer) */
    uint64_t trivial_steps;   /* Lehmer steps whose matrix was trivial: A -= q (B << s) */
};

/* x[0..n) without its zero top words: the new length. */
static inline uint32_t gcd_bulk_trim(const uint32_t *x, uint32_t n, struct gcd_bulk_counts *c)
{
    while (n && !x[n - 1]) {
        c->word_reads++;
        n--;
    }
    c->word_reads += n > 0;
    return n;
}

/* Sign of x - y, both of n words, from the top word down (usually one word read). */
static inline int gcd_bulk_compare(const uint32_t *x, const uint32_t *y, uint32_t n,
                                   struct gcd_bulk_counts *c)
{
    while (n--) {
        c->word_reads++;
        if (x[n] != y[n])
            return x[n] > y[n] ? 1 : -1;
    }
    return 0;
}

/* Bits of x[0..n), n its trimmed length. */
static inline uint32_t gcd_bulk_bit_length(const uint32_t *x, uint32_t n)
{
    return n ? 32 * n - (uint32_t)__builtin_clz(x[n - 1]) : 0;
}

/* x -= y over n words, x >= y. */
static inline void gcd_bulk_sub(uint32_t *x, const uint32_t *y, uint32_t n,
                                struct gcd_bulk_counts *c)
{
    c->word_addsubs += n;
    ref_sub_n(x, x, y, n);
}

/* Bits [h, h + 64) of x[0..n) (zeros above its top): a double-word leading digit. */
static inline uint64_t gcd_bulk_digit(const uint32_t *x, uint32_t n, uint32_t h,
                                      struct gcd_bulk_counts *c)
{
    const uint32_t w = h / 32, s = h % 32;
    const uint64_t lo = (w < n ? x[w] : 0) | (uint64_t)(w + 1 < n ? x[w + 1] : 0) << 32;
    const uint64_t hi = w + 2 < n ? x[w + 2] : 0;
    c->word_shifts += 2;
    return s ? lo >> s | hi << (64 - s) : lo;
}

#endif
