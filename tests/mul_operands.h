/* Operand patterns for multiplication tests: random words plus the worst cases (all-ones words
 * for maximal carries, zero, one, and operands of unequal length). */
#ifndef MPGPU_MUL_OPERANDS_H
#define MPGPU_MUL_OPERANDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "random_words.h"

enum operand_pattern {
    PATTERN_RANDOM,
    PATTERN_ALL_ONES,
    PATTERN_ZERO,    /* A = 0, B random */
    PATTERN_ONE,     /* A = 1, B all ones */
    PATTERN_UNEQUAL, /* A has its low quarter of words only, B its high half only */
    PATTERN_MAX_A_RANDOM_B,
    PATTERN_CARRY_RIPPLE, /* the sum-rotate carry loop's worst case (tests/test_sumrotate_model.c) */
    PATTERN_GROUP_CARRY,  /* a column's carry in carrying out of its sum (comba_rect's groups) */
    N_PATTERNS
};

static const char *const pattern_names[N_PATTERNS] = {
    "random", "all-ones", "zero", "one", "unequal-lengths", "all-ones-times-random", "carry-ripple",
    "group-carry"};

/* Fills operand pair p of `words` words; the pattern is p % N_PATTERNS. */
static inline void operands_fill(uint32_t *a, uint32_t *b, unsigned words, size_t p, uint64_t seed)
{
    random_words(seed, 2 * p, a, words);
    random_words(seed, 2 * p + 1, b, words);
    switch ((enum operand_pattern)(p % N_PATTERNS)) {
    case PATTERN_RANDOM:
        break;
    case PATTERN_ALL_ONES:
        memset(a, 0xff, words * sizeof *a);
        memset(b, 0xff, words * sizeof *b);
        break;
    case PATTERN_ZERO:
        memset(a, 0, words * sizeof *a);
        break;
    case PATTERN_ONE:
        memset(a, 0, words * sizeof *a);
        a[0] = 1;
        memset(b, 0xff, words * sizeof *b);
        break;
    case PATTERN_UNEQUAL:
        memset(a + (words + 3) / 4, 0, (words - (words + 3) / 4) * sizeof *a);
        memset(b, 0, words / 2 * sizeof *b);
        break;
    case PATTERN_MAX_A_RANDOM_B:
        memset(a, 0xff, words * sizeof *a);
        break;
    case PATTERN_CARRY_RIPPLE: {
        /* B = (2^32 - 1) beta^(w-1) and A = (1, ..., 1, 2) in the top 32 words: a carry that
         * crosses a run of all-ones product words one word at a time. */
        unsigned lanes = words < 32 ? words : 32;
        memset(a, 0, words * sizeof *a);
        memset(b, 0, words * sizeof *b);
        for (unsigned i = 0; i < lanes; i++)
            a[words - lanes + i] = i == 0 ? 2 : 1;
        b[words - 1] = 0xffffffffu;
        break;
    }
    case PATTERN_GROUP_CARRY:
        /* At every fourth word of a (where each comba-reg thread's share of a starts: the shares
         * are whole 16-byte vectors), a_i = 2^32 - 1 and a_(i+1) = 2^31, with b_0 = 2^32 - 1 and
         * b_1 = 2^31 + 1: that share's column 1, (2^32 - 1)(2^32 + 1) = 2^64 - 1, takes column
         * 0's carry 2^32 - 2 and carries out of 64 bits. Random words elsewhere. */
        for (unsigned i = 0; i + 1 < words; i += 4) {
            a[i] = 0xffffffffu;
            a[i + 1] = 0x80000000u;
        }
        b[0] = 0xffffffffu;
        if (words > 1)
            b[1] = 0x80000001u;
        break;
    default:
        break;
    }
}

/* Orders the halves of x split at word h (A0 = x[0, h), A1 = x[h, words), m = words - h <= h
 * words): -1 makes A1 larger than A0, 0 equal, +1 smaller. A0's words from m up are cleared, so
 * that both halves end at word m - 1 of theirs, which decides. */
static inline void operands_order_halves(uint32_t *x, unsigned words, unsigned h,
                                         int low_minus_high)
{
    const unsigned m = words - h;
    memset(x + m, 0, (h - m) * sizeof *x);
    if (low_minus_high == 0) {
        memcpy(x + h, x, m * sizeof *x);
        return;
    }
    x[m - 1] = low_minus_high > 0 ? 0xffffffffu : 0;
    x[words - 1] = low_minus_high > 0 ? 0 : 0xffffffffu;
}

/* Subtractive Karatsuba adds or subtracts its middle product by the signs of A0 - A1 and
 * B1 - B0. Case k of the KARATSUBA_SIGN_CASES: seeded random operands of `words` words split at
 * word h, with sign(A0 - A1) = k / 3 - 1 and sign(B1 - B0) = k % 3 - 1; `what` names it. */
#define KARATSUBA_SIGN_CASES 9
static inline void operands_karatsuba_signs(uint32_t *a, uint32_t *b, unsigned words, unsigned h,
                                            size_t k, uint64_t seed, char *what, size_t what_size)
{
    const int sa = (int)(k / 3) - 1, sb = (int)(k % 3) - 1;
    random_words(seed, 1000 + 2 * words, a, words);
    random_words(seed, 1001 + 2 * words, b, words);
    operands_order_halves(a, words, h, sa);
    operands_order_halves(b, words, h, -sb); /* the middle factor is B1 - B0 */
    snprintf(what, what_size, "sign(A0 - A1) %d, sign(B1 - B0) %d", sa, sb);
}

#endif
